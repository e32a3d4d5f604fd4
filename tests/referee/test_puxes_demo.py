"""A PuXes game replayed from rendered frames through the real vision pipeline into the referee.

Bots play a seeded game on the scripted table; every change is rendered (a hand moving dice, then
the still table with sensor noise), fed frame by frame to the TableWatcher, and its snapshots are
judged by the PuxesReferee. After every still moment the referee's game must equal the true one.
"""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("cv2")

from controller.engines.puxes.actions import Outcome, Roll  # noqa: E402
from controller.referee.demo.table import ScriptedTable  # noqa: E402
from controller.referee.puxes_demo import DemoStep, differences, main, run_demo  # noqa: E402

SEED = 1
TURNS = 5


@pytest.fixture(scope="module")
def demo():
    steps: list[DemoStep] = []
    result = run_demo(seed=SEED, max_turns=TURNS, progress=steps.append)
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
    # every still moment after the first needed moving frames and a dozen still ones
    assert all(s.frames >= 13 for s in steps)
    assert result.frames > 13 * len(steps)


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
    found = differences(referee_game, table.game)
    assert any(f"oracle {oracle.id} is asleep (truth: play)" in f for f in found)


def test_the_command_has_help(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "--seed" in capsys.readouterr().out
