"""The records every camera referee keeps (controller/games/camera_referee.py), on a real engine: a
small referee that reads the table as the key of the move it shows plays le théâtre du duel, asks
when it cannot tell, refuses a move the rules do not allow until the table is put back, and is
overruled by rewinding the game. The games' own referees are tested on their readings beside this."""

from __future__ import annotations

import json
from typing import Any

import pytest

from controller import i18n
from controller.engines.core import Event
from controller.engines.wuxing import Stay, WuxingGame
from controller.games.camera_referee import TAKE_BACK, RewindingReferee, RewindingState, engine_refusal
from controller.referee.common import Call, Question, RefereeConfig, RefereeError

OPTIONS = {"mode": "theatre", "layout": "printed"}
#: What the table shows when it shows the game as it is.
AS_IT_IS = "="


def key(action: Any) -> str:
    return json.dumps(WuxingGame.encode_action(action), sort_keys=True)


class SpokenReferee(RewindingReferee[WuxingGame, RewindingState]):
    """Reads the table as the key of the move shown; ``"?N"`` asks N questions about it, each
    answered with a move's key (the last answer is played)."""

    def __init__(self, game: WuxingGame) -> None:
        super().__init__(RefereeConfig(), RewindingState(game, [], {}))

    def moves(self, game: WuxingGame | None = None) -> dict[str, Any]:
        game = game or self.game
        seat = game.current_players()[0]
        return {key(a): a for a in game.legal_actions(seat) if not isinstance(a, Stay)}

    def observe(self, reading: str) -> list[Call | Question]:
        self._s.last = reading
        self._s.questions.clear()
        if reading == AS_IT_IS:
            self._s.words = None
            return self._put_back(1.0, i18n.message("the table is as the game has it again"))
        if reading.startswith("?"):
            choices = list(self.moves())[:3]
            return [self._question(i18n.message("What was played ({n})?", n=n), i18n.message("the camera is unsure"),
                                   choices, (i18n.message(c) for c in choices), {"n": n})
                    for n in range(int(reading[1:]))]
        action = self.moves().get(reading)
        if action is None:
            keys, words = self._offer(False, ((k, i18n.message(k)) for k in self.moves()))
            return [self._refuse("refused", 0.5, i18n.message("{move} is not a move now", move=reading), keys, words)]
        return [self._play(action)]

    def answer(self, question_id: int, choice: str) -> list[Call | Question]:
        self._open_question(question_id, choice)
        del self._s.questions[question_id]
        return [] if self._s.questions else [self._play(self.moves()[choice])]

    def _play(self, action: Any) -> Call:
        seat = self.game.current_players()[0]
        keys, words = self._offer(True, ((k, i18n.message(k)) for k in self.moves() if k != key(action)))
        events = self.game.apply(seat, action)
        return self._call("played", events, [(seat, action)], 1.0, None, keys, alternative_words=words)

    def _alternative(self, game: WuxingGame, decision: str) -> tuple[list[Event], list[tuple[int, Any]]]:
        seat = game.current_players()[0]
        action = self.moves(game)[decision]
        return game.apply(seat, action), [(seat, action)]

    def _waiting(self) -> dict[str, Any]:
        return i18n.message("{player} to play", player=self.game.seat_label(self.game.current_players()[0]))

    def player_action(self, player: int, action: Any) -> Call:
        return self._call("played", self.game.apply(player, action), [(player, action)], 1.0, None)


def referee(seed: int = 3) -> SpokenReferee:
    game = WuxingGame(OPTIONS, seed=seed)
    game.name_seats(["Ada", "Brice"])
    return SpokenReferee(game)


def first_move(ref: SpokenReferee, index: int = 0) -> str:
    return list(ref.moves())[index]


def test_questions_are_numbered_kept_open_and_answered_one_by_one() -> None:
    ref = referee()
    asked = ref.observe("?2")
    assert [q.question_id for q in asked] == [1, 2]
    assert sorted(ref.questions) == [1, 2]
    question = ref.questions[1]
    assert question.text == "What was played (0)?" and question.reason == "the camera is unsure"
    assert question.choice_messages == tuple(i18n.message(c) for c in question.choices)
    choice = question.choices[1]
    assert ref.answer(1, choice) == []               # another question is still open
    assert list(ref.questions) == [2]
    calls = ref.answer(2, choice)
    assert not ref.questions
    assert [(c.call_id, c.decision) for c in calls] == [(1, "played")]
    assert ref.game.history[-1][1] == ref.calls[0].actions[0][1]
    assert ref.observe("?1")[0].question_id == 3     # numbers are never given twice


def test_an_unknown_question_is_refused_naming_the_open_ones_in_any_language() -> None:
    ref = referee()
    ref.observe("?2")
    with pytest.raises(RefereeError) as refused:
        ref.answer(7, first_move(ref))
    assert str(refused.value) == "there is no open question 7; open: 1 and 2"
    assert i18n.said(refused.value.words, "fr") == "il n'y a pas de question 7 en attente ; en attente : 1 et 2"
    assert sorted(ref.questions) == [1, 2]           # nothing is lost
    ref.observe(first_move(ref))                     # a reading closes the questions
    with pytest.raises(RefereeError, match=r"there is no open question 1; open: none$"):
        ref.answer(1, first_move(ref))


def test_an_answer_that_is_not_a_choice_is_refused_quoting_the_choices() -> None:
    ref = referee()
    question = ref.observe("?1")[0]
    with pytest.raises(RefereeError) as refused:
        ref.answer(question.question_id, "sideways")
    a, b, c = question.choices
    assert str(refused.value) == f"'sideways' is not an answer to question 1: answer “{a}”, “{b}” and “{c}”"
    assert i18n.said(refused.value.words, "fr") == (
        f"'sideways' n'est pas une réponse à la question 1 : répondez « {a} », « {b} » et « {c} »")
    assert list(ref.questions) == [1] and not ref.calls and not ref.game.history


def test_a_checkpoint_puts_everything_back_and_can_be_restored_twice() -> None:
    ref = referee()
    ref.observe(first_move(ref))
    (question,) = ref.observe("?1")
    saved = ref.checkpoint()
    before = (list(ref.game.history), list(ref.calls), dict(ref.questions), ref.prompt(), dict(ref._s.starts))

    for _ in range(2):
        ref.answer(question.question_id, question.choices[0])
        ref.observe("not a move")
        ref.overrule(1, TAKE_BACK)
        assert (list(ref.game.history), list(ref.calls)) != before[:2]
        ref.restore(saved)
        assert (list(ref.game.history), list(ref.calls), dict(ref.questions), ref.prompt(),
                dict(ref._s.starts)) == before
        assert ref.flagged is None
    assert ref.observe(first_move(ref))[0].call_id == 2   # the call numbers come back too


def test_a_refusal_stands_until_the_table_is_put_back() -> None:
    ref = referee()
    (call,) = ref.observe("a pawn on the ceiling")
    assert call.decision == "refused" and ref.flagged == call
    assert ref.prompt() == "a pawn on the ceiling is not a move now"
    assert call.alternatives == tuple(ref.moves())[:15] and TAKE_BACK not in call.alternatives
    assert ref.observe(AS_IT_IS)[0].decision == "put-back"
    assert ref.flagged is None and ref.prompt() == "Ada to play"
    assert ref.observe(AS_IT_IS) == []                # nothing more to say once put back


def test_an_overrule_rewinds_plays_the_alternative_and_replays_what_followed() -> None:
    ref = referee()
    ref.observe(first_move(ref))
    second = first_move(ref)
    ref.observe(second)
    played = ref.calls[0]
    other = played.alternatives[1]
    call = ref.overrule(1, other)
    assert call.overrules == 1 and call.reason.startswith("call 1 overruled by the referee")
    assert key(ref.game.history[0][1]) == other
    assert len(ref.game.history) in (1, 2)            # the later move is replayed while it stays legal
    assert call.alternatives == ()                    # an overrule offers nothing to overrule it with
    back = ref.overrule(2, TAKE_BACK)
    assert back.actions == () and back.reason == "call 2 overruled by the referee"
    assert [key(a) for _, a in ref.game.history][:1] == [other]


def test_an_overrule_is_refused_naming_what_it_can_be() -> None:
    ref = referee()
    ref.observe(first_move(ref))
    with pytest.raises(RefereeError, match=r"^no call 9 to overrule$"):
        ref.overrule(9, TAKE_BACK)
    with pytest.raises(RefereeError) as refused:
        ref.overrule(1, "juggle")
    assert str(refused.value) == f"call 1 can be overruled with: {', '.join(ref.calls[0].alternatives)}, not 'juggle'"
    assert i18n.said(refused.value.words, "fr").startswith("la décision 1 peut être corrigée par : take back, ")
    overruled = ref.overrule(1, TAKE_BACK)
    with pytest.raises(RefereeError) as refused:
        ref.overrule(overruled.call_id, TAKE_BACK)
    assert str(refused.value) == "call 2 can be overruled with: nothing, not 'take back'"
    assert i18n.said(refused.value.words, "fr") == "la décision 2 peut être corrigée par : rien, pas par 'take back'"


def test_a_call_says_its_public_events_joined_and_never_one_meant_for_some_seats() -> None:
    ref = referee()
    events = [Event.said("a", "the game is over"), Event("b", "Brice alone sees this", {"audience": [1]}),
              Event.said("c", "nothing was played")]
    call = ref._call("told", events, [], 1.0, i18n.message("{player} waits", player="Ada"))
    assert call.reason == "Ada waits; the game is over; nothing was played"
    assert i18n.said(call.message, "fr") == "Ada waits ; la partie est terminée ; rien n'a été joué"
    assert ref._call("quiet", [], [], 1.0, None).reason == "nothing was played"


def test_the_engine_refusal_is_its_reason_or_none_for_a_legal_move() -> None:
    ref = referee()
    game = ref.game
    legal = next(iter(ref.moves().values()))
    assert engine_refusal(game, 0, legal) is None
    refusal = engine_refusal(game, 1, legal)          # not Brice's turn
    assert refusal is not None and "msg" in refusal and i18n.said(refusal, "en")


def test_a_call_offers_taking_it_back_first_and_sixteen_alternatives_at_most() -> None:
    others = ((f"move {n}", i18n.message("move {n}", n=n)) for n in range(40))
    keys, words = RewindingReferee._offer(True, others)
    assert keys == (TAKE_BACK, *(f"move {n}" for n in range(15)))
    assert i18n.said(words[0], "fr") == "annuler : rien n'a été joué" and i18n.said(words[-1]) == "move 14"
    assert RewindingReferee._offer(False, iter([("a", i18n.message("a"))])) == (("a",), (i18n.message("a"),))
