"""Praxis's table referee on readings of the mat: the program's set-up rolls say where the portals and
the first ships go, a turn played by hand (in one still view or two) is recognised and applied with
the program's rolls after it, an illegal move or put is refused with the engine's words, a ship
turned to a face its artefact did not give is refused with the artefact's rule, a face not yet turned
is waited for, unsure cells are asked about, a hand over the mat is waited out, and a call can be
taken back. Readings are built from the game here; the camera's own readings of rendered tables go
through the same referee in test_praxis_table.py."""

from __future__ import annotations

import pytest

from controller import i18n
from controller.engines.core import CHANCE, RuleError
from controller.engines.praxis import PraxisGame
from controller.engines.praxis.actions import Move, Put, TakeOff
from controller.engines.praxis.artefacts import KIND, PORTAL
from controller.engines.praxis.steps import IN_SPACEPORT, MAIN, SHIP
from controller.engines.praxis.universe import cell_index
from controller.games.praxis.reading import PRINTED_LAYOUT, CellSeen, PraxisReading, mat_universe
from controller.games.praxis.referee import TAKE_BACK, PraxisReferee, contents_of, roll_through
from controller.referee.common import Call, Question, RefereeConfig, RefereeError
from controller.vision.mat import load_layout

MAT = mat_universe(load_layout("praxis"))
LAYOUT = [list(p) for p in PRINTED_LAYOUT]


def referee(seed: int = 1, players: int = 2) -> PraxisReferee:
    game = PraxisGame({"players": players, "layout": LAYOUT}, seed=seed)
    game.name_seats(["Ada", "Brice", "Chloé", "Dan"][:players])
    return PraxisReferee(game, RefereeConfig(), MAT)


def reading(contents, unsure: dict[int, str] | None = None, occluded: bool = False) -> PraxisReading:
    cells = tuple(CellSeen(k, c, f, 0.3 if p in (unsure or {}) else 1.0, (unsure or {}).get(p))
                  for p, (k, c, f) in enumerate(contents))
    return PraxisReading(0.0, cells, (), occluded)


def table(game: PraxisGame):
    return contents_of(game, MAT)


def said(words) -> str:
    return i18n.said(words, "en")


def arrange(ref: PraxisReferee, seat: int, ships: dict, cells: dict[str, str], hand: list[str]) -> PraxisGame:
    """The referee's game at the start of ``seat``'s turn with these pieces (ship -> (cell, face))."""
    game = ref.game
    game.board = [0] * 36
    game.ship_cell = [IN_SPACEPORT] * len(game.ship_cell)
    game.ship_face = [0] * len(game.ship_face)
    for ship, (label, face) in ships.items():
        game.board[cell_index(label)] = SHIP + ship
        game.ship_cell[ship], game.ship_face[ship] = cell_index(label), face
    game.portals = []
    for label, key in cells.items():
        game.board[cell_index(label)] = KIND[key]
        if key == "portal":
            game.portals.append(cell_index(label))
    game.hands[seat] = sorted(KIND[k] for k in hand)
    game.queue = [(MAIN, seat)]
    game.active = seat
    return game


def test_the_set_up_is_rolled_by_the_program_and_said_until_the_mat_shows_it() -> None:
    ref = referee(seed=3)
    game = ref.game
    assert game.step == "main" and all(p == CHANCE for p, _ in game.history)
    words = said(ref.words())
    portal = MAT.label(MAT.position(game.portals[0]))
    assert f"put a Portal tile on {portal}" in words and "Ada's red ship showing" in words
    assert ref.observe(reading([(0, None, 0)] * 36)) == []
    assert "put a Portal tile" in said(ref.words())
    assert ref.observe(reading(table(game))) == [] and ref.calls == []
    assert "move a ship and put an artefact" in said(ref.words())


def test_a_turn_seen_in_one_view_is_applied_with_the_rolls_after_it() -> None:
    ref = referee(seed=5)
    game = ref.game
    ref.observe(reading(table(game)))
    seat = game.current_players()[0]
    twin = game.clone()
    put = next(a for a in twin.legal_actions(seat) if isinstance(a, Put))
    twin.apply(seat, put)
    move = next(a for a in twin.legal_actions(seat) if isinstance(a, Move) and game.board[a.to] == 0)
    twin.apply(seat, move)
    roll_through(twin)
    [call] = ref.observe(reading(table(twin)))
    assert isinstance(call, Call) and call.decision == "played"
    assert [a for p, a in call.actions if p == seat] in ([put, move], [move, put])
    assert table(game) == table(twin) and game.current_players() == twin.current_players()
    assert TAKE_BACK in call.alternatives and "puts a" in call.reason


def test_a_turn_seen_in_two_views_makes_two_calls() -> None:
    ref = referee(seed=7)
    game = ref.game
    ref.observe(reading(table(game)))
    seat = game.current_players()[0]
    put = next(a for a in game.legal_actions(seat) if isinstance(a, Put))
    twin = game.clone()
    twin.apply(seat, put)
    [first] = ref.observe(reading(table(twin)))
    assert first.actions[0] == (seat, put) and game.step == "move"
    move = game.legal_actions(seat)[0]
    twin.apply(seat, move)
    roll_through(twin)
    [second] = ref.observe(reading(table(twin)))
    assert second.actions[0] == (seat, move) and game.current_players() != (seat,)


def test_an_illegal_move_is_refused_with_the_engines_words_until_the_mat_is_put_back() -> None:
    ref = referee()
    game = arrange(ref, 0, {0: ("2.5", 1), 2: ("3.6", 4)}, {"1.1": "portal"}, ["plus-one", "scanner", "mines"])
    before = table(game)
    ref.observe(reading(before))
    moved = list(before)
    moved[MAT.position(cell_index("2.5"))] = (0, None, 0)
    moved[MAT.position(cell_index("2.3"))] = (0, "red", 1)      # diagonal: face 1 moves orthogonally
    [call] = ref.observe(reading(moved))
    assert call.decision == "refused" and call.actions == () and ref.flagged is call
    with pytest.raises(RuleError) as refused:
        game.check(0, Move(0, cell_index("2.3")))
    assert call.reason == f"{refused.value.reason}: put the mat back as the game has it"
    assert "a ship showing 1 moves orthogonally" in call.reason
    assert table(game) == before and game.history == ref.game.history
    assert ref.observe(reading(moved)) == [] or ref.flagged is not None
    [back] = ref.observe(reading(before))
    assert back.decision == "put-back" and ref.flagged is None


def test_a_put_of_an_artefact_not_in_the_hand_is_refused_with_the_engines_words() -> None:
    ref = referee()
    game = arrange(ref, 0, {0: ("2.5", 1), 2: ("6.6", 4)}, {"1.1": "portal"}, ["plus-one", "scanner", "mines"])
    ref.observe(reading(table(game)))
    shown = table(game)
    shown[MAT.position(cell_index("2.6"))] = (KIND["black-star"], None, 0)
    [call] = ref.observe(reading(shown))
    assert call.decision == "refused" and game.board[cell_index("2.6")] == 0
    with pytest.raises(RuleError) as refused:
        game.check(0, Put("black-star", cell_index("2.6")))
    assert call.reason == f"{refused.value.reason}: put the mat back as the game has it"


def test_another_players_ship_moving_is_refused_as_out_of_turn() -> None:
    ref = referee()
    game = arrange(ref, 0, {0: ("2.5", 1), 2: ("6.5", 1)}, {"1.1": "portal"}, ["plus-one", "scanner", "mines"])
    ref.observe(reading(table(game)))
    shown = table(game)
    shown[MAT.position(cell_index("6.5"))] = (0, None, 0)
    shown[MAT.position(cell_index("6.2"))] = (0, "blue", 1)
    [call] = ref.observe(reading(shown))
    assert call.decision == "refused" and "Brice's ship moved to 6.2, but it is Ada's turn" in call.reason


def test_a_plus_one_waits_for_the_face_then_refuses_a_face_it_did_not_give() -> None:
    ref = referee()
    game = arrange(ref, 0, {0: ("2.5", 3), 2: ("6.6", 4)}, {"1.1": "portal", "2.6": "plus-one"},
                   ["minus-one", "scanner", "mines"])
    ref.observe(reading(table(game)))
    shown = table(game)
    shown[MAT.position(cell_index("2.5"))] = (0, None, 0)
    shown[MAT.position(cell_index("2.6"))] = (0, "red", 3)       # moved onto the +1, face not turned yet
    [call] = ref.observe(reading(shown))
    assert call.decision == "played" and (0, Move(0, cell_index("2.6"))) in call.actions
    assert game.ship_face[0] == 4
    assert "turn the ship on 2.6 to 4" in said(ref.words())
    assert ref.observe(reading(shown)) == [] or ref.calls[-1] is call
    wrong = list(shown)
    wrong[MAT.position(cell_index("2.6"))] = (0, "red", 5)
    [refusal] = ref.observe(reading(wrong))
    assert refusal.decision == "wrong-effect" and refusal.actions == ()
    assert "Plus one raises the activating ship's face by 1" in refusal.reason
    assert "must show 4, not 5" in refusal.reason
    right = list(shown)
    right[MAT.position(cell_index("2.6"))] = (0, "red", 4)
    [back] = ref.observe(reading(right))
    assert back.decision == "put-back"
    assert "put an artefact" in said(ref.words())


def test_a_ship_turned_without_an_artefact_is_refused() -> None:
    ref = referee()
    game = arrange(ref, 0, {0: ("2.5", 3), 2: ("6.6", 4)}, {"1.1": "portal"}, ["minus-one", "scanner", "mines"])
    ref.observe(reading(table(game)))
    shown = table(game)
    shown[MAT.position(cell_index("6.6"))] = (0, "blue", 6)
    [call] = ref.observe(reading(shown))
    assert call.decision == "wrong-effect" and "the ship on 6.6 must show 4, not 6" in call.reason
    assert call.actions == () and game.ship_face[2] == 4


def test_a_take_off_shows_where_the_program_rolled_the_ship() -> None:
    ref = referee()
    game = arrange(ref, 0, {2: ("6.6", 4)}, {"1.1": "portal"}, ["minus-one", "scanner", "mines"])
    ref.observe(reading(table(game)))
    twin = game.clone()
    twin.apply(0, TakeOff())
    roll_through(twin)
    shown = table(twin)
    [call] = ref.observe(reading(shown))
    assert call.actions[0] == (0, TakeOff()) and game.ship_face[0] == 1 and game.step == "put"


def test_a_hand_over_the_mat_is_waited_out_and_unsure_cells_are_asked_about() -> None:
    ref = referee()
    game = arrange(ref, 0, {0: ("2.5", 3), 2: ("6.6", 4)}, {"1.1": "portal"}, ["minus-one", "scanner", "mines"])
    shown = table(game)
    assert ref.observe(reading(shown, occluded=True)) == []
    assert "something is over the mat" in said(ref.words()) and ref.calls == []
    pos = MAT.position(cell_index("2.5"))
    [question] = ref.observe(reading(shown, unsure={pos: "a ship stands across this cell's edge"}))
    assert isinstance(question, Question) and question.choices == ("empty", "as-game")
    assert "2.5" in question.text and "across this cell's edge" in question.reason
    assert ref.answer(question.question_id, "as-game") == [] and ref.calls == []
    with pytest.raises(RefereeError):
        ref.answer(question.question_id, "as-game")


def test_a_call_is_taken_back_by_the_referee() -> None:
    ref = referee(seed=9)
    game = ref.game
    ref.observe(reading(table(game)))
    seat = game.current_players()[0]
    put = next(a for a in game.legal_actions(seat) if isinstance(a, Put))
    twin = game.clone()
    twin.apply(seat, put)
    before = table(game)
    [call] = ref.observe(reading(table(twin)))
    overruled = ref.overrule(call.call_id, TAKE_BACK)
    assert overruled.overrules == call.call_id and table(ref.game) == before
    with pytest.raises(RefereeError):
        ref.overrule(call.call_id, "no such decision")


def test_a_game_on_another_universe_is_refused_with_what_to_do() -> None:
    game = PraxisGame({"players": 2, "layout": "ring"}, seed=1)
    ref = PraxisReferee(game, RefereeConfig(), MAT)
    with pytest.raises(RefereeError, match="without --universe"):
        ref.observe(reading([(0, None, 0)] * 36))


def test_the_portal_kind_is_what_the_mat_shows_for_a_portal() -> None:
    ref = referee(seed=2, players=4)
    shown = table(ref.game)
    assert sum(1 for k, _, _ in shown if k == PORTAL) == 3
    assert sum(1 for _, c, _ in shown if c is not None) == 4


def test_a_ship_moved_before_the_scanners_keep_waits_for_the_phone_and_never_names_the_draw() -> None:
    """The scanner's draw is chosen on the player's phone: a ship moved on the mat before that choice is
    not judged (judging it would put the drawn artefacts in a public "what was played?" question); once
    the two are kept on the phone, the move shown meanwhile is played."""
    from controller.engines.praxis.actions import Keep
    from controller.engines.praxis.steps import KEEP

    ref = referee(seed=4)
    game = ref.game
    ref.observe(reading(table(game)))
    seat = game.current_players()[0]
    game.scanned = sorted(game.pile.pop() for _ in range(4))
    game.queue.insert(0, (KEEP, seat))
    keep = next(a for a in game.legal_actions(seat) if isinstance(a, Keep))
    twin = game.clone()
    twin.apply(seat, keep)
    move = next(a for a in twin.legal_actions(seat) if isinstance(a, Move) and twin.board[a.to] == 0)
    twin.apply(seat, move)
    roll_through(twin)

    assert ref.observe(reading(table(twin))) == []
    assert ref.questions == {} and game.step == "keep"
    assert "on your phone" in said(ref.words())
    assert not any(isinstance(a, Keep) for c in ref.calls for _, a in c.actions)

    call = ref.player_action(seat, keep)
    assert call.decision == "announced" and game.step != "keep"
    [played] = ref.after_choice()
    assert isinstance(played, Call) and played.decision == "played"
    assert (seat, move) in played.actions and table(game) == table(twin)
    assert ref.after_choice() == []
