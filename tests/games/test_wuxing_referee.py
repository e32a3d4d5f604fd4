"""The théâtre's table referee on readings of the board: legal moves made by hand are applied
(captures, islands turned over, pawns the engine takes by itself), illegal ones are refused with the
engine's reason and nothing changes until the board is put back or the referee overrules, unsure
squares are asked about, staying is announced. Readings are built from marks here; the camera's
own readings of rendered tables go through the same referee in test_wuxing_table.py."""

from __future__ import annotations

import random

import pytest

from controller import i18n
from controller.engines.wuxing import Flip, Move, Stay, WuxingGame
from controller.engines.wuxing.layout import PRINTED_SQUARE
from controller.games.wuxing.board import BLACK, EMPTY, FLIPPED, WHITE, BoardReading, SquareReading, square_index
from controller.games.wuxing.referee import TAKE_BACK, WuxingReferee, marks_of, slug
from controller.referee.common import Call, Question, RefereeConfig, RefereeError

OPTIONS = {"mode": "theatre", "layout": "printed"}


def reading(marks: str, unsure: dict[int, float] | None = None, occluded: bool = False) -> BoardReading:
    squares = tuple(SquareReading(m, (unsure or {}).get(i, 1.0)) for i, m in enumerate(marks))
    return BoardReading(0.0, squares, PRINTED_SQUARE, occluded=occluded)


def referee(seed: int = 1) -> WuxingReferee:
    game = WuxingGame(OPTIONS, seed=seed)
    game.name_seats(["Ada", "Brice"])
    return WuxingReferee(game, RefereeConfig())


def after(game: WuxingGame, seat: int, action) -> str:
    twin = game.clone()
    twin.apply(seat, action)
    return marks_of(twin)


def put(marks: str, square: str, mark: str) -> str:
    board = list(marks)
    board[square_index(square)] = mark
    return "".join(board)


def illegal_move(game: WuxingGame) -> tuple[Move, str]:
    """A move along a row or column, over no pawn and onto no pawn of one's own, that the rules refuse."""
    seat = game.rules.to_act
    legal = set(game.legal_actions(seat))
    for pawn in range(4):
        for direction in ("up", "left", "down", "right"):
            for distance in range(1, 5):
                move = Move(pawn, direction, distance)
                end = game.rules.target(seat, move)
                if move in legal or end is None:
                    continue
                twin = game.clone()
                twin.rules.tokens[seat] = [2, 2]
                try:
                    twin.check(seat, move)
                except ValueError as exc:
                    if exc.rule in ("not-dominated", "jump-over-pawn"):
                        return move, exc.rule
    raise AssertionError("no illegal move found")


def test_the_board_as_the_game_has_it_is_no_call() -> None:
    ref = referee()
    assert ref.observe(reading(marks_of(ref.game))) == []
    assert ref.calls == [] and i18n.said(ref.words(), "en") == "Ada (white pawns): move a pawn"


def test_a_legal_move_made_by_hand_is_applied() -> None:
    ref = referee()
    game = ref.game
    move = game.legal_actions(0)[0]
    [call] = ref.observe(reading(after(game, 0, move)))
    assert isinstance(call, Call) and call.decision == "moved"
    assert call.actions == ((0, move),) and game.history == [(0, move)]
    assert "Ada moves pawn" in call.reason and TAKE_BACK in call.alternatives
    assert call.events[0].message is not None
    # the same still board seen again is not judged again
    assert ref.observe(reading(marks_of(game))) == []


def test_a_capture_is_applied_when_the_taken_pawn_is_off_the_board() -> None:
    rng = random.Random(5)
    for seed in range(40):
        ref = referee(seed)
        game = ref.game
        for _ in range(40):
            seat = game.rules.to_act
            actions = [a for a in game.legal_actions(seat) if not isinstance(a, (Stay, Flip))]
            captures = [a for a in actions if game.rules.occupant[game.rules.target(seat, a)] >= 0]
            if captures:
                [call] = ref.observe(reading(after(game, seat, captures[0])))
                assert call.decision == "captured" and "captures" in call.reason
                assert any(e.kind == "captured" for e in call.events)
                return
            if not actions or game.phase != "move":
                break
            [call] = ref.observe(reading(after(game, seat, rng.choice(actions))))
            assert call.decision == "moved"
    pytest.fail("no capture came up in 40 seeded games")


def test_an_illegal_move_is_refused_with_the_engines_reason_until_the_board_is_put_back() -> None:
    ref = referee()
    game = ref.game
    move, rule = illegal_move(game)
    before = marks_of(game)
    start = game.rules.pawns[0][move.pawn]
    end = game.rules.target(0, move)
    board = list(before)
    board[start], board[end] = EMPTY, WHITE
    [call] = ref.observe(reading("".join(board)))
    assert call.decision == "refused" and call.actions == () and game.history == []
    with pytest.raises(ValueError) as engine:
        game.check(0, move)
    assert engine.value.reason in call.reason and "put the board back" in call.reason
    assert ref.flagged is call and all(a in [slug(x, game) for x in game.legal_actions(0)] for a in call.alternatives)
    # another wrong board: still refused, still nothing changes
    [again] = ref.observe(reading(put(before, "e5", BLACK)))
    assert again.decision == "refused" and game.history == []
    # put back: the refusal is lifted
    [back] = ref.observe(reading(before))
    assert back.decision == "put-back" and ref.flagged is None
    legal = game.legal_actions(0)[0]
    [played] = ref.observe(reading(after(game, 0, legal)))
    assert played.decision == "moved"


def test_a_move_out_of_turn_is_refused_naming_both_players() -> None:
    ref = referee()
    game = ref.game
    black = game.rules.pawns[1][0]
    board = list(marks_of(game))
    board[black], board[black + 10] = EMPTY, BLACK
    [call] = ref.observe(reading("".join(board)))
    assert call.decision == "refused"
    assert "Brice (black pawns) moved a pawn, but it is Ada (white pawns)'s turn" in call.reason


def test_a_diagonal_move_gets_the_engines_words() -> None:
    ref = referee()
    game = ref.game
    start = game.rules.pawns[0][0]
    board = list(marks_of(game))
    target = start - 6
    assert board[target] == EMPTY
    board[start], board[target] = EMPTY, WHITE
    [call] = ref.observe(reading("".join(board)))
    assert "not diagonally (up and left)" in call.reason


def test_a_pawn_in_a_hand_is_waited_for_and_a_hand_over_the_board_is_not_judged() -> None:
    ref = referee()
    game = ref.game
    lifted = list(marks_of(game))
    lifted[game.rules.pawns[0][1]] = EMPTY
    assert ref.observe(reading("".join(lifted))) == []
    assert "off the board" in i18n.said(ref.words(), "en")
    assert ref.observe(reading("#" * 25, occluded=True)) == []
    assert "over the board" in i18n.said(ref.words(), "en") and game.history == []


def test_an_unsure_square_that_matters_is_asked_about() -> None:
    ref = referee()
    game = ref.game
    move = game.legal_actions(0)[0]
    marks = after(game, 0, move)
    end = game.rules.target(0, move)
    out = ref.observe(reading(marks, unsure={end: 0.2, 12: 0.1}))
    assert [type(x) for x in out] == [Question], "only the square whose reading differs is asked"
    question = out[0]
    assert "e" in question.text or "d" in question.text
    with pytest.raises(RefereeError):
        ref.answer(question.question_id, "a unicorn")
    [call] = ref.answer(question.question_id, question.choices[0])     # a white pawn
    assert call.decision == "moved" and game.history == [(0, move)]


def test_the_referee_overrules_a_refusal_with_what_was_played_and_a_call_with_take_back() -> None:
    ref = referee()
    game = ref.game
    move, _ = illegal_move(game)
    board = list(marks_of(game))
    board[game.rules.pawns[0][move.pawn]], board[game.rules.target(0, move)] = EMPTY, WHITE
    [refused] = ref.observe(reading("".join(board)))
    choice = refused.alternatives[0]
    with pytest.raises(RefereeError, match="can be overruled with"):
        ref.overrule(refused.call_id, "no such move")
    call = ref.overrule(refused.call_id, choice)
    assert call.overrules == refused.call_id and len(ref.game.history) == 1
    assert slug(ref.game.history[0][1], WuxingGame(OPTIONS, seed=1)) == choice and ref.flagged is None
    undone = ref.overrule(call.call_id, TAKE_BACK) if TAKE_BACK in call.alternatives else None
    assert undone is None  # an overrule's own call offers nothing more
    first = ref.game.legal_actions(1)[0]
    [moved] = ref.observe(reading(after(ref.game, 1, first)))
    taken = ref.overrule(moved.call_id, TAKE_BACK)
    assert taken.actions == () and len(ref.game.history) == 1


def _play_until(ref: WuxingReferee, done, seed: int, limit: int = 400) -> bool:
    """Random legal play through the referee (boards shown as the actions leave them) until ``done``."""
    rng = random.Random(seed)
    game = ref.game
    for _ in range(limit):
        if game.is_over():
            return False
        if done(game):
            return True
        seat = game.current_players()[0]
        action = rng.choice(game.legal_actions(seat))
        if isinstance(action, Stay):
            call = ref.player_action(seat, action)
            assert call.decision == "stayed"
            continue
        before = marks_of(game)
        marks = list(after(game, seat, action))
        for sq, mark in [*ref.to_remove.items(), *((sq, m) for sq, m in enumerate(before) if m in (WHITE, BLACK))]:
            if marks[sq] == EMPTY and isinstance(action, Flip) or sq in ref.to_remove and marks[sq] == EMPTY:
                marks[sq] = mark    # pawns the engine takes by itself stay until a hand takes them off
        calls = ref.observe(reading("".join(marks)))
        assert [c.decision for c in calls] in (["moved"], ["captured"], ["flipped"]), [c.reason for c in calls]
        assert game.history[-1] == (seat, action)
    return False


def test_islands_are_turned_over_with_cards_and_isolated_pawns_are_taken_off() -> None:
    for seed in range(60):
        ref = referee(seed)
        if not _play_until(ref, lambda g: bool(ref.to_remove), seed):
            continue
        game = ref.game
        assert "take the captured pawns off" in i18n.said(ref.words(), "en")
        square, mark = next(iter(ref.to_remove.items()))
        assert marks_of(game)[square] == EMPTY and mark in (WHITE, BLACK)
        board = list(marks_of(game))
        for sq, m in ref.to_remove.items():
            board[sq] = m
        board[square] = EMPTY
        assert ref.observe(reading("".join(board))) == []
        assert square not in ref.to_remove
        assert FLIPPED in marks_of(game)
        return
    pytest.fail("no pawn was isolated in 60 seeded games")


def test_staying_is_announced_on_the_page_and_checked_by_the_engine() -> None:
    for seed in range(80):
        ref = referee(seed)
        if not _play_until(ref, lambda g: g.phase == "move" and not g.rules.can_move(g.rules.to_act), seed):
            continue
        game = ref.game
        seat = game.rules.to_act
        assert "cannot move: announce on the page" in i18n.said(ref.words(), "en")
        colour = next(c for c, n in zip(("blue", "red"), game.rules.tokens[seat]) if n)
        call = ref.player_action(seat, Stay(colour))
        assert call.decision == "stayed" and game.history[-1] == (seat, Stay(colour))
        return
    pytest.fail("no player was left without a move in 80 seeded games")


def test_a_checkpoint_puts_the_referee_back_exactly() -> None:
    ref = referee()
    saved = ref.checkpoint()
    game = ref.game
    ref.observe(reading(after(game, 0, game.legal_actions(0)[0])))
    assert len(ref.calls) == 1
    ref.restore(saved)
    assert ref.calls == [] and ref.game.history == [] and ref.observe(reading(marks_of(ref.game))) == []


def test_games_the_board_cannot_referee_are_refused_with_what_to_do() -> None:
    chemin = WuxingReferee(WuxingGame({"mode": "chemin"}, seed=1), RefereeConfig())
    with pytest.raises(RefereeError, match="--mode theatre"):
        chemin.observe(reading("." * 25))
    other = WuxingReferee(WuxingGame({"mode": "theatre"}, seed=1), RefereeConfig())
    with pytest.raises(RefereeError, match="--islands printed"):
        other.observe(reading("." * 25))
    with pytest.raises(RefereeError, match="dice"):
        referee().observe(object())


def test_the_referees_words_are_said_in_french() -> None:
    ref = referee()
    assert i18n.said(ref.words(), "fr") == "Ada (pions blancs) : déplacez un pion"
    game = ref.game
    [call] = ref.observe(reading(after(game, 0, game.legal_actions(0)[0])))
    said = call.events[0].in_language("fr")
    assert "déplace le pion" in said and "jeton" in said
