"""A PuXes game replayed from rendered frames through the real vision pipeline into the referee.

Bots play a seeded game on the scripted table; every change is rendered (a hand moving dice, then
the still table with sensor noise), fed frame by frame to the TableWatcher, and its snapshots are
judged by the PuxesReferee. After every still moment the referee's game must equal the true one.
"""

from __future__ import annotations

import copy
import re

import pytest

pytest.importorskip("cv2")

from controller import i18n  # noqa: E402
from controller.engines.puxes import rulebook, words  # noqa: E402
from controller.engines.puxes.actions import Outcome, Roll  # noqa: E402
from controller.referee.common import RefereeConfig  # noqa: E402
from controller.referee.demo.table import ScriptedTable  # noqa: E402
from controller.referee.puxes import deciding  # noqa: E402
from controller.referee.puxes_demo import DemoStep, differences, main, run_demo  # noqa: E402
from controller.vision.stillness import StillnessDetector  # noqa: E402

SEED = 1
TURNS = 5


#: A referee that has the players confirm every face it reads, so that the game asks questions (their
#: words are checked below) whatever the camera reads surely.
CONFIRM_EVERY_FACE = RefereeConfig(min_confidence=1.01)


@pytest.fixture(scope="module")
def demo():
    steps: list[DemoStep] = []
    result = run_demo(seed=SEED, max_turns=TURNS, progress=steps.append, config=CONFIRM_EVERY_FACE)
    return result, steps


def test_the_referee_follows_the_true_game_at_every_still_moment(demo) -> None:
    result, steps = demo
    assert result.steps == steps and len(steps) > 12
    for step in steps:
        assert step.differences == [], "\n".join(step.lines())
    assert result.agreed and result.calls_matched == result.calls
    assert result.turns >= TURNS or result.truth_over


def test_every_call_the_truth_makes_is_announced_with_its_rule(demo) -> None:
    """The set-up, the hero rolls and the flicks are all decided from the camera's snapshots."""
    _, steps = demo
    decisions = [c.decision for s in steps for c in s.calls]
    assert decisions.count("placed") == 8
    assert "roll" in decisions
    assert any(d in decisions for d in ("moved", "shot", "asleep", "sacred", "dixe", "game-over", "temple-rebuilt"))
    for step in steps:
        if step.truth_decision is not None:
            assert step.truth_decision in [c.decision for c in step.calls], "\n".join(step.lines())
        for call in step.calls:
            assert call.reason and ("Rule: «" in call.reason or call.decision in ("woken",))


def test_the_camera_had_to_wait_for_the_table_to_settle(demo) -> None:
    result, steps = demo
    assert result.snapshots == len(steps)
    # every still moment needed a change and then the detector's whole hold of quiet frames
    needed = StillnessDetector().hold_frames + 1
    assert all(s.frames >= needed for s in steps)
    assert result.frames > needed * len(steps)


def test_questions_are_answered_by_the_players_from_what_they_see(demo) -> None:
    result, steps = demo
    asked = [a for s in steps for a in s.asked]
    assert len(asked) == result.questions == sum(result.questions_by_kind.values())
    for a in asked:
        assert a.answer in a.question.choices


def test_the_scripted_table_keeps_the_dice_where_the_true_game_has_them() -> None:
    table = ScriptedTable(seed=SEED)
    for tr in table.play(max_turns=4):
        for player, action in tr.truth:
            if isinstance(action, Outcome):
                for die, x, y, _angle, face in action.moved:
                    body = tr.after[die]
                    assert (body.x, body.y, body.face) == (x, y, face)
                for die in action.left:
                    assert not table.inside(tr.after[die].x, tr.after[die].y)
            if isinstance(action, Roll):
                for h, face in zip(table.game.players[tr.player].heroes, action.faces):
                    assert tr.after[h].face == face
        for d in table.game.dice.values():
            if d.role == "oracle" and d.status == "play" and d.x is not None:
                body = table.bodies[d.id]
                assert (body.x, body.y) == pytest.approx((d.x, d.y), abs=0.2)
    assert table.game.turn_number >= 4


def test_a_difference_from_the_truth_is_reported() -> None:
    table = ScriptedTable(seed=SEED)
    for _ in table.play(max_turns=1):
        pass
    referee_game = copy.deepcopy(table.game)
    assert differences(referee_game, table.game) == []
    oracle = next(d for d in referee_game.dice.values() if d.role == "oracle" and d.status == "play")
    oracle.status, oracle.x, oracle.y = "asleep", None, None
    found = [i18n.said(f, "en") for f in differences(referee_game, table.game)]
    name = i18n.said(words.oracle(referee_game, oracle.id), "en")
    assert f"{name} is asleep (truth: in play)" in found


def test_a_game_that_diverges_counts_every_call_the_referee_missed_after_it() -> None:
    """A referee told the area starts 40 mm further right than it does loses the set-up: from then
    on every call it makes, and every call of the true game it does not make, counts against it."""
    result = run_demo(seed=SEED, max_turns=1, config=RefereeConfig(area_origin_mm=(40.0, 0.0)))
    first = next(k for k, step in enumerate(result.steps) if step.differences)
    assert not result.agreed
    assert result.calls_matched == sum(len(step.calls) for step in result.steps[:first])
    expected_after = sum(1 for step in result.steps[first:] if step.truth_decision is not None)
    made_after = sum(len(step.calls) for step in result.steps[first:])
    assert result.missed >= expected_after - made_after
    assert result.agreement == result.calls_matched / (result.calls + result.missed) < 1.0
    assert "calls of the true game were not made" in result.summary("en")[-1]


def test_the_command_has_help(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "--seed" in capsys.readouterr().out


# ---- the players' words ----------------------------------------------------------------------------

ENGLISH = re.compile(r"\b(the|and|rolls|moves?|may|Rule|Turn|sets|their|flicks|asleep|Winner)\b")
SEAT_OR_ID = re.compile(r"\b(?:[Pp]layers?|[Ss]eats?|[Jj]oueurs?) \d|\[\d|\b(?:oracles?|die|dé|heroe?s?|héros|temple) \d")


def _messages(steps, result) -> list:
    """Every message a player reads from the demo: each change, call, event, question, answer and the summary."""
    found = []
    for step in steps:
        found.append(step.label)
        for call in step.calls:
            found.append(call.message)
            found.extend(call.alternative_messages)
            found.extend(e.message for e in call.events)
        for asked in step.asked:
            q = asked.question
            found += [q.message, q.reason_message, *q.choice_messages]
    return found


def _msgids(value, out: set) -> set:
    if isinstance(value, dict):
        if "msg" in value:
            out.add(value["msg"])
            for arg in value.get("args", {}).values():
                _msgids(arg, out)
        for item in value.get("list", []):
            _msgids(item, out)
    return out


def test_every_call_event_and_question_of_the_demo_is_a_message(demo) -> None:
    _, steps = demo
    calls = [c for s in steps for c in s.calls]
    assert calls and all(c.message is not None and i18n.said(c.message, "en") == c.reason for c in calls)
    events = [e for c in calls for e in c.events]
    assert events and all(e.message is not None and i18n.said(e.message, "en") == e.text for e in events)
    questions = [a.question for s in steps for a in s.asked]
    assert questions, "the demo asked nothing: nothing checks the questions' words"
    for q in questions:
        assert i18n.said(q.message, "en") == q.text and i18n.said(q.reason_message, "en") == q.reason
        assert len(q.choice_messages) == len(q.choices) and q.data.get("about")
    assert all(isinstance(s.label, dict) and "msg" in s.label for s in steps)


def test_in_french_no_sentence_of_the_demo_is_left_in_english(demo) -> None:
    result, steps = demo
    catalogue = i18n.browser_catalogue("fr")
    msgids = set()
    for value in _messages(steps, result):
        _msgids(value, msgids)
    assert len(msgids) > 30
    assert sorted(m for m in msgids if m not in catalogue) == []
    lines = [line for s in steps for line in s.lines("fr")] + result.summary("fr")
    for line in lines:
        outside_quotes = re.sub(r"«[^»]*»( \([^)]*\))?", "", line)
        assert not ENGLISH.search(outside_quotes), line
    assert any("Règle : « " in line for line in lines)


def test_no_text_of_the_demo_names_a_seat_a_number_or_an_engine_list(demo) -> None:
    result, steps = demo
    texts = [i18n.said(m, lang) for m in _messages(steps, result) for lang in ("en", "fr")]
    texts += [line for s in steps for lang in ("en", "fr") for line in s.lines(lang)]
    texts += result.summary("en") + result.summary("fr")
    assert [t for t in texts if SEAT_OR_ID.search(t)] == []
    assert any("Ada (red)" in t for t in texts) and any("Brice (bleu)" in t for t in texts)


def test_each_call_of_the_demo_quotes_the_rule_of_the_event_that_decided_it(demo) -> None:
    _, steps = demo
    checked = 0
    for call in (c for s in steps for c in s.calls if c.events):
        event = deciding(call.events) or call.events[0]
        expected = rulebook.rule_of(event.kind, event.data)
        quoted = [slug for slug, p in rulebook.PASSAGES.items() if f"« {p.french} »" in call.reason]
        assert quoted == [expected], f"{call.decision}: {call.reason}"
        checked += 1
    assert checked >= 10
