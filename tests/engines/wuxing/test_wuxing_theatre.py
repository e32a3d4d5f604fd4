"""One test per rule of le théâtre du duel, each citing the rulebook's words (rules/wuxing-duel.fr.md).

Positions use the ``CYCLIC`` layout of wuxing_scenarios.py: from an island, the element it
engenders is 1 square right or down, the one it dominates 2 squares right or down.
"""

from __future__ import annotations

import pytest

from controller.engines import GameOverError, NotYourTurnError, RuleError
from controller.engines.wuxing import Flip, Move, Play, Stay, WuxingGame
from controller.engines.wuxing.elements import ARROW
from controller.engines.wuxing.layout import LayoutError
from controller.engines.wuxing.theatre import FLIPPED
from wuxing_scenarios import CYCLIC, flip, kinds, rc, set_pawns, sq, theatre


def rule_of(game: WuxingGame, seat: int, action: object) -> str:
    before = game.dumps()
    with pytest.raises(RuleError) as info:
        game.apply(seat, action)
    assert isinstance(info.value, ValueError)
    assert game.dumps() == before, "a refused action changed the game"
    return info.value.rule


# ---- setting up ---------------------------------------------------------------------------------


def test_the_islands_form_a_square_with_each_island_once_per_row_and_column() -> None:
    """"un plateau de 5 colonnes de 5 lignes ... en ayant une même île une seule fois dans chaque
    ligne et dans chaque colonne\""""
    layouts = set()
    for seed in range(30):
        game = WuxingGame({"mode": "theatre"}, seed=seed)
        board = game.rules.board
        for r in range(5):
            assert sorted(board[r * 5: r * 5 + 5]) == [0, 1, 2, 3, 4]
        for c in range(5):
            assert sorted(board[c::5]) == [0, 1, 2, 3, 4]
        assert WuxingGame({"mode": "theatre"}, seed=seed).rules.board == board, "the seed decides the layout"
        layouts.add(tuple(board))
    assert len(layouts) > 20, "seeds give different layouts"


def test_a_layout_given_as_an_option_is_used() -> None:
    game = theatre(CYCLIC)
    assert game.rules.board == [(r + c) % 5 for r in range(5) for c in range(5)]
    assert game.setup_text() == CYCLIC


@pytest.mark.parametrize("layout,message", [
    (CYCLIC.replace("Wo Fi Ea Me Wa", "Wo Fi Ea Me Wo", 1), r"row 1 from the top \(Wo Fi Ea Me Wo\) has wood twice"),
    ("Wo Fi Ea Me Wa / Wo Ea Me Wa Fi / Ea Me Wa Wo Fi / Me Wa Wo Fi Ea / Wa Wo Fi Ea Me", "column a .* has wood twice"),
    ("Wo Fi Ea Me Wa / Fi Ea Me Wa Wo", r"5 rows of 5 islands"),
    ("Wo Fi Ea Me Xx / Fi Ea Me Wa Wo / Ea Me Wa Wo Fi / Me Wa Wo Fi Ea / Wa Wo Fi Ea Me", "row 1 of the layout: 'Xx'"),
])
def test_an_invalid_layout_is_refused_with_a_clear_error(layout: str, message: str) -> None:
    """"une même île une seule fois dans chaque ligne et dans chaque colonne": a layout breaking it
    is refused, naming the row or column."""
    with pytest.raises(LayoutError, match=message) as info:
        theatre(layout)
    assert isinstance(info.value, ValueError)


def test_each_player_starts_with_four_pawns_in_his_bottom_right_corner() -> None:
    """"Chaque joueur place ses 4 pions ... sur les îles de son côté, dans le coin en bas à droite,
    en carré de deux pions sur deux." Seat 1 sits opposite, so his corner is seat 0's top-left."""
    game = theatre()
    assert game.rules.pawns[0] == [sq("d2"), sq("e2"), sq("d1"), sq("e1")]
    assert game.rules.pawns[1] == [sq("b4"), sq("a4"), sq("b5"), sq("a5")]


def test_each_player_starts_with_two_blue_and_two_red_tokens() -> None:
    """"Chaque joueur prend 2 jetons bleus et rouges\""""
    assert theatre().rules.tokens == [[2, 2], [2, 2]]
    assert theatre().current_players() == (0,)


# ---- 1: moving ----------------------------------------------------------------------------------


def test_a_move_goes_along_a_row_or_column_to_an_element_the_start_island_dominates_or_engenders() -> None:
    """"il ne pourra se déplacer que sur une île en ligne ou en colonne contenant un élément dominé
    par l'élément de la position de départ" (and, by ruling, engendré: see docs/rulings/wuxing.md)."""
    game = theatre()
    set_pawns(game, {"A": "c3"}, {"a": "a5"})  # c3 is Water: it engenders Wood (d3, c2), dominates Fire (e3, c1)
    assert set(game.legal_actions(0)) == {Move(0, "right", 1), Move(0, "right", 2), Move(0, "down", 1),
                                          Move(0, "down", 2)}
    for move in game.legal_actions(0):
        end = game.rules.target(0, move)
        assert ARROW[game.rules.board[sq("c3")]][game.rules.board[end]] is not None
    assert rule_of(game, 0, Move(0, "left", 1)) == "not-dominated"
    assert rule_of(game, 0, Move(0, "up-right", 1)) == "no-diagonal"
    assert rule_of(game, 0, Move(0, "up", 3)) == "off-board"
    assert rule_of(game, 0, Move(0, "up", 7)) == "distance-range"


def test_ruling_a_red_token_pays_for_a_move_along_a_red_arrow() -> None:
    """"Il doit posséder un jeton de la couleur bleue ou rouge, liant les deux éléments de son
    déplacement": a move to the engendered element follows the red arrow and costs a red token."""
    game = theatre()
    set_pawns(game, {"A": "c3"}, {"a": "a5"})
    events = game.apply(0, Move(0, "right", 1))  # Water engenders Wood
    assert game.rules.tokens[0] == [2, 1]
    assert events[0].data["relation"] == "engenders" and events[0].data["colour"] == "red"
    assert "Water engenders Wood, a red token" in events[0].text
    game = theatre()
    set_pawns(game, {"A": "c3"}, {"a": "a5"})
    game.apply(0, Move(0, "right", 2))  # Water dominates Fire
    assert game.rules.tokens[0] == [1, 2]


def test_blue_only_option_keeps_the_rulebooks_letter_dominated_elements_only() -> None:
    """"sur une île contenant un élément dominé par l'élément de son île de départ", to the letter:
    the ``blue_only`` option; a red token then only pays for staying."""
    game = theatre(blue_only=True)
    set_pawns(game, {"A": "c3"}, {"a": "a5"})
    assert set(game.legal_actions(0)) == {Move(0, "right", 2), Move(0, "down", 2)}
    assert rule_of(game, 0, Move(0, "right", 1)) == "not-dominated-strict"
    game.rules.tokens[0] = [0, 2]
    assert game.legal_actions(0) == [Stay("red")]


def test_a_pawn_never_passes_over_another_pawn() -> None:
    """"1.1 Il ne peut pas passer par-dessus un autre pion, quelle que soit sa couleur.\""""
    game = theatre()
    set_pawns(game, {"A": "c3", "B": "c2"}, {"a": "d3"})
    assert Move(0, "right", 2) not in game.legal_actions(0)
    assert Move(0, "down", 2) not in game.legal_actions(0)
    assert rule_of(game, 0, Move(0, "right", 2)) == "jump-over-pawn"
    assert rule_of(game, 0, Move(0, "down", 2)) == "jump-over-pawn"


def test_a_pawn_never_stops_on_its_own_pawn() -> None:
    """"1.2 Il ne peut pas s'arrêter sur une île où se trouve un de ses pions.\""""
    game = theatre()
    set_pawns(game, {"A": "c3", "B": "c2"}, {"a": "a5"})
    assert Move(0, "down", 1) not in game.legal_actions(0)
    assert rule_of(game, 0, Move(0, "down", 1)) == "own-pawn"


def test_a_pawn_passes_over_empty_and_turned_over_tiles_but_stops_only_on_an_island() -> None:
    """"1.3 Il peut passer au dessus de toute tuile vide ou sans île.\""""
    game = theatre()
    set_pawns(game, {"A": "c3"}, {"a": "a5"})
    flip(game, "d3")
    assert Move(0, "right", 2) in game.legal_actions(0), "over the turned-over d3 to e3"
    assert Move(0, "down", 2) in game.legal_actions(0), "over the empty island c2 to c1"
    assert rule_of(game, 0, Move(0, "right", 1)) == "target-flipped"


def test_a_move_needs_a_token_of_the_arrows_colour_which_is_given_up() -> None:
    """"1.4 Il doit posséder un jeton de la couleur bleue ou rouge, liant les deux éléments de son
    déplacement ... Il met ce jeton au centre de la table.\""""
    game = theatre()
    set_pawns(game, {"A": "c3"}, {"a": "a5"})
    game.rules.tokens[0] = [0, 1]
    assert set(game.legal_actions(0)) == {Move(0, "right", 1), Move(0, "down", 1)}
    assert rule_of(game, 0, Move(0, "right", 2)) == "token-missing"
    game.apply(0, Move(0, "down", 1))
    assert game.rules.tokens[0] == [0, 0]


# ---- 2 to 5: capturing, staying, winning, skipping ---------------------------------------------


def test_landing_on_an_opposing_pawn_captures_it() -> None:
    """"2 S'il s'arrête sur une île avec un pion adverse, il le capture.\""""
    game = theatre()
    set_pawns(game, {"A": "c3"}, {"a": "d3", "b": "a5"})
    events = game.apply(0, Move(0, "right", 1))
    assert "captured" in kinds(events)
    assert game.rules.pawns[1] == [-1, sq("a5"), -1, -1]
    assert game.rules.pawns[0][0] == sq("d3") and not game.is_over()


def test_a_player_who_cannot_move_pays_a_token_and_stays() -> None:
    """"3 S'il ne peut faire aucun déplacement, il utilise un jeton et reste sur place.\""""
    game = theatre()
    set_pawns(game, {"A": "a5"}, {"a": "e1"})
    flip(game, "b5", "c5", "a4", "a3")   # Wood on a5: Fire and Earth, both turned over
    assert game.legal_actions(0) == [Stay("blue"), Stay("red")]
    events = game.apply(0, Stay("red"))
    assert game.rules.tokens[0] == [2, 1] and game.rules.pawns[0][0] == sq("a5")
    assert kinds(events) == ["stayed"]
    assert game.current_players() == (1,)


def test_a_player_who_can_move_must_move() -> None:
    """"Mais il doit se déplacer s'il peut le faire.\""""
    game = theatre()
    assert all(isinstance(a, Move) for a in game.legal_actions(0))
    assert rule_of(game, 0, Stay("blue")) == "must-move"


def test_capturing_the_last_pawn_wins() -> None:
    """"4 S'il capture le dernier pion du joueur adverse ... il gagne la partie.\""""
    game = theatre()
    set_pawns(game, {"A": "c3"}, {"a": "d3"})
    events = game.apply(0, Move(0, "right", 1))
    assert game.is_over() and game.winners() == (0,) and game.scores() == (1.0, 0.0)
    assert events[-1].kind == "game-over"
    with pytest.raises(GameOverError):
        game.apply(1, Stay("blue"))


def test_a_player_out_of_tokens_is_skipped_while_the_other_has_some() -> None:
    """"5 Si le joueur suivant a encore au moins un jeton de couleur, il recommence au point 1.\""""
    game = theatre()
    set_pawns(game, {"A": "c3"}, {"a": "a5"})
    game.rules.tokens[1] = [0, 0]
    game.apply(0, Move(0, "right", 1))
    assert game.current_players() == (0,)


# ---- 6 to 8: out of tokens ------------------------------------------------------------------------


def out_of_tokens_game() -> WuxingGame:
    """Seat 1 has no token, seat 0 one red: after seat 0's move both are out."""
    game = theatre()
    set_pawns(game, {"A": "c3", "B": "e1"}, {"a": "a5", "b": "b4"})
    game.rules.tokens = [[0, 1], [0, 0]]
    return game


def test_when_both_are_out_of_tokens_the_first_then_the_second_player_turns_an_empty_island_over() -> None:
    """"6 Lorsque les 2 joueurs n'ont plus de jetons, le premier joueur retourne une des îles vides
    sur sa face sans île. Puis le second joueur fait de même.\""""
    game = out_of_tokens_game()
    game.apply(0, Move(0, "right", 1))
    assert game.phase == "flip" and game.current_players() == (0,)
    squares = {a.square for a in game.legal_actions(0)}
    assert rc("c1") in squares and rc("d3") not in squares and rc("a5") not in squares, "empty islands only"
    assert rule_of(game, 0, Flip(rc("a5"))) == "flip-square"
    assert rule_of(game, 0, Move(0, "down", 1)) == "flip-phase"
    game.apply(0, Flip(rc("c1")))
    assert game.rules.board[sq("c1")] == FLIPPED and game.current_players() == (1,)
    assert rule_of(game, 1, Flip(rc("c1"))) == "flip-square"
    game.apply(1, Flip(rc("e5")))
    assert game.phase == "move"


def test_a_player_who_cannot_turn_an_island_over_makes_the_game_a_draw() -> None:
    """"Si un joueur n'a pas pu retourner une île vide, il y a partie nulle.\""""
    game = out_of_tokens_game()
    keep = {sq("c3"), sq("d3"), sq("e1"), sq("a5"), sq("b4")}
    for s in range(25):
        if s not in keep:
            game.rules.board[s] = FLIPPED
    game.apply(0, Move(0, "right", 1))       # c3 -> d3: c3 is now the only empty island
    game.apply(0, Flip(rc("c3")))
    assert game.is_over() and game.result() == "draw"
    assert game.winners() == (0, 1) and game.scores() == (0.5, 0.5)


def test_a_pawn_left_alone_in_its_row_and_column_is_captured_by_the_opponent() -> None:
    """"7 Si un pion se retrouve sur une île isolée, sans autre île en ligne et en colonne, alors ce
    pion est capturé par l'adversaire.\""""
    game = out_of_tokens_game()
    flip(game, "c5", "d5", "e5", "a4", "a2", "a1")   # left around a5: b5 in its row, a3 in its column
    game.apply(0, Move(0, "right", 1))
    game.apply(0, Flip(rc("b5")))
    assert game.rules.pawns[1][0] == sq("a5"), "a3 is still in its column: not isolated yet"
    game.apply(1, Flip(rc("e4")))
    assert game.rules.pawns[1][0] == sq("a5")
    game.rules.tokens = [[0, 0], [0, 0]]
    game.rules.phase, game.rules.to_act = "flip", 0
    game.apply(0, Flip(rc("a3")))
    events = game.apply(1, Flip(rc("e3")))
    assert game.rules.pawns[1][0] == -1
    captured = [e for e in events if e.kind == "captured"]
    assert captured and captured[0].data["by"] == 0 and captured[0].data["isolated"]


def test_after_the_flips_both_take_back_two_tokens_of_each_colour_and_the_next_player_plays() -> None:
    """"8 Si chaque joueur a encore au moins un pion, les deux joueurs reprennent leur 4 jetons, deux de
    chaque couleur, et le joueur suivant recommence au point 1." The next player is the one who did
    not make the last move (docs/rulings/wuxing.md)."""
    game = out_of_tokens_game()
    game.apply(0, Move(0, "right", 1))
    game.apply(0, Flip(rc("c1")))
    events = game.apply(1, Flip(rc("e5")))
    assert game.rules.tokens == [[2, 2], [2, 2]]
    assert game.current_players() == (1,) and game.rules.cycle == 2
    assert events[-1].kind == "refill"


# ---- bad input ------------------------------------------------------------------------------------


def test_a_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    game = theatre()
    before = game.dumps()
    with pytest.raises(NotYourTurnError) as info:
        game.apply(1, Move(0, "down", 1))
    assert info.value.rule == "turn-order" and "seat 0" in info.value.reason
    assert game.dumps() == before


def test_errors_name_the_rule_and_quote_the_board() -> None:
    game = theatre()
    with pytest.raises(RuleError) as info:
        game.apply(0, Play(0))
    assert info.value.rule == "wrong-mode"
    assert "Wuxing duel - the theatre" in str(info.value) and "(rule: wrong-mode)" in str(info.value)
    assert rule_of(game, 0, Flip(rc("c3"))) == "move-phase"
    assert rule_of(game, 0, Move(4, "up", 1)) == "pawn-range"
    assert rule_of(game, 0, Move(0, "north", 1)) == "direction-name"
    set_pawns(game, {"A": "c3"}, {"a": "a5"})
    assert rule_of(game, 0, Move(1, "up", 1)) == "pawn-captured"
    assert Move(0, "right", 1) in game.legal_actions(0)
    assert rule_of(game, 0, Move(True, "right", 1)) == "pawn-range", "True is not pawn 1 on a wheel"


def test_ruling_both_last_pawns_isolated_together_is_a_draw() -> None:
    """"7 ... ce pion est capturé par l'adversaire" for both sides at once: nobody captured the other's
    last pawn first, so the game is a draw (docs/rulings/wuxing.md)."""
    game = out_of_tokens_game()
    set_pawns(game, {"A": "c3"}, {"a": "a5"})
    game.rules.tokens = [[0, 1], [0, 0]]
    keep = {sq("c3"), sq("d3"), sq("a5"), sq("b5"), sq("e1")}
    for s in range(25):
        if s not in keep:
            game.rules.board[s] = FLIPPED
    game.apply(0, Move(0, "right", 1))       # A: c3 -> d3; row 3 keeps c3, column d nothing
    game.apply(0, Flip(rc("b5")))             # a5 is alone now
    assert game.rules.pawns[1][0] == sq("a5"), "captures wait for both flips"
    events = game.apply(1, Flip(rc("c3")))    # and d3
    assert [e.data["seat"] for e in events if e.kind == "captured"] == [0, 1]
    assert game.is_over() and game.result() == "draw" and game.scores() == (0.5, 0.5)
