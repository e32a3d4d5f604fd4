"""The 3-player variant and the short game (rules/pixoid.fr.md, \"VARIANTE 3 JOUEURS\" and
\"VARIANTE PARTIE COURTE\")."""

from __future__ import annotations

import json

import pytest

from controller.engines import RuleError
from controller.engines.pixoid import Program
from pixoid_scenarios import A1, A5, COLUMN, I1, I5, event, kinds, new_game, place, quiet_turn, turn


def test_three_player_spare_bug_is_placed_last_by_the_player_left_of_pixoid() -> None:
    """"Le joueur à gauche de Pixoid prend une seconde manette encore inutilisée, ainsi qu'un cube de
    la même couleur. Il place ce cube sur le dernier Pix de départ disponible.\""""
    game = new_game(players=3)
    seats = []
    for pix in (A1, I1, A5, I5):
        seats.append((game.current_players()[0], game.place_queue[0]))
        if game.place_queue[0] == 3:
            assert [a.pix for a in game.legal_actions(1)] == [I5], "only the last start Pix is left"
        place(game, [pix])
    assert seats == [(0, 0), (1, 1), (2, 2), (1, 3)]
    assert game.pieces_of(1) == (1, 3) and game.pieces_of(2) == (2,) and game.pieces_of(0) == (0,)


def test_three_player_spare_bug_alternates_between_the_bug_players_each_turn() -> None:
    """"À la fin de la phase de Score, le joueur qui a deux manettes passe sa seconde manette à l'autre
    joueur incarnant un Bug.\" ... \"à chaque tour, ce troisième Bug est contrôlé alternativement par
    les deux joueurs incarnant les Bugs.\""""
    game = new_game(players=3)
    place(game)
    owners = []
    for _ in range(12):
        owners.append(game.controller_owner(3))
        events = quiet_turn(game)
    assert owners == [1, 2] * 6
    assert event(events, "round-over").data["points"] == [12, 0, 0]
    # Round 2: seat 1 is Pixoid; the seat on its left (2) holds the spare controller first.
    assert game.pixoid_seat == 1 and game.place_queue == [1, 2, 0, 3]
    place(game)
    assert [game.controller_owner(3)] == [2]
    quiet_turn(game)
    assert game.controller_owner(3) == 0 and game.pieces_of(0) == (0, 3)


def test_three_player_seat_programs_both_of_its_bugs_before_the_reveal() -> None:
    """"Le joueur qui a deux manettes programme les déplacements de deux Bugs sur les manettes
    correspondantes.\" Either controller may lock in first; the reveal waits for both."""
    game = new_game(players=3)
    place(game)
    assert game.current_players() == (0, 1, 2)
    assert {a.piece for a in game.legal_actions(1)} == {1, 3}
    game.apply(0, Program(0, "right", 1))
    game.apply(1, Program(3, "left", 1))
    assert game.current_players() == (1, 2) and game.secret_pending(1)
    for observer in (0, 2, None):
        assert game.view(observer)["seats"]["1"] == "waiting"
        assert "left" not in json.dumps(game.view(observer))
    with pytest.raises(RuleError) as again:
        game.apply(1, Program(3, "up", 1))
    assert again.value.rule == "already-programmed"
    game.apply(2, Program(2, "up", 1))
    events = game.apply(1, Program(1, "down", 1))
    assert "revealed" in kinds(events) and "survived" in kinds(events)


def test_three_player_game_has_three_rounds_and_the_bugs_share_the_reserve() -> None:
    """"À la fin de 4 manches (à 4 joueurs), ou 3 manches (à 3 joueurs), tous les joueurs ont incarné
    une fois Pixoid.\""""
    game = new_game(players=3)
    place(game)
    events = turn(game, {0: ("right", 9), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    assert event(events, "round-over").data["points"] == [1, 12, 12]
    for _ in range(2):
        place(game)
        for _ in range(12):
            events = quiet_turn(game)
    assert game.is_over() and len(game.round_points) == 3
    assert game.scores() == (1.0, 24.0, 24.0) and game.winners() == (1, 2)


def test_short_game_pixoid_wins_with_twelve_cubes_of_any_source() -> None:
    """"Pixoid doit parvenir à obtenir 12 cubes neutres. La provenance de ces cubes (de la réserve à la
    fin de chaque tour ou bien du Circuit imprimé) n'importe pas.\""""
    game = new_game(short_game=True)
    place(game)
    turn(game, {0: ("down", 1), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})  # bonus a2 + 1 reserve
    for k in range(9):
        pixoid_move = ("up", 1) if k % 2 == 0 else ("down", 1)
        bugs = {1: ("up", 1), 2: ("down", 1), 3: ("right", 1)} if k % 2 == 0 else {1: ("down", 1), 2: ("up", 1), 3: ("left", 1)}
        events = turn(game, {0: pixoid_move, **bugs})
        assert not game.is_over()
    events = turn(game, {0: ("down", 1), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    assert game.reserve_taken == 11 and game.bonus_taken == 1
    over = event(events, "round-over")
    assert over.data["reason"] == "twelve-cubes" and over.data["winner"] == "pixoid"
    assert game.is_over() and game.winners() == (0,) and game.scores() == (1.0, 0.0, 0.0, 0.0)


def test_short_game_twelfth_cube_from_a_bonus_wins_at_once() -> None:
    """"S'il obtient son 12e cube neutre, il remporte immédiatement la victoire.\" A bonus cube that is
    the 12th ends the game on that Pix: the rest of the path and the Bugs' moves do not happen
    (ruling short-game-bonus)."""
    game = new_game(short_game=True, board=COLUMN)
    place(game)
    pixoid_moves = [("right", 1)] + [("right", 1), ("left", 1)] * 4 + [("left", 1)]  # b1 (bonus), c1, b1, ... a1
    for t, pixoid_move in enumerate(pixoid_moves):
        bugs = {1: ("down", 1), 2: ("right", 1), 3: ("left", 1)} if t % 2 == 0 else {1: ("up", 1), 2: ("left", 1), 3: ("right", 1)}
        turn(game, {0: pixoid_move, **bugs})
    assert game.reserve_taken + game.bonus_taken == 11 and game.board.pix(game.pos[0]) == (0, 0)
    assert game.board.pix(game.pos[2]) == (4, 0)
    # Pixoid runs down column a: a3 holds the 12th cube; the Bug on a5 is further down the path.
    events = turn(game, {0: ("down", 9), 1: ("down", 1), 2: ("up", 9), 3: ("left", 1)})
    assert "captured" not in kinds(events)
    assert [e.data["piece"] for e in events if e.kind == "moved"] == [0]
    assert event(events, "moved").data["to"] == (2, 0)
    assert event(events, "round-over").data["winner"] == "pixoid" and game.winners() == (0,)


def test_short_game_capture_before_twelve_cubes_is_a_win_for_every_bug() -> None:
    """"Si un Bug est parvenu à attraper Pixoid avant qu'il n'ait récupéré son 12e cube, les Bugs
    remportent tous la victoire.\""""
    game = new_game(short_game=True)
    place(game)
    quiet_turn(game)
    events = turn(game, {0: ("left", 1), 1: ("up", 1), 2: ("up", 3), 3: ("right", 1)})
    assert event(events, "round-over").data["winner"] == "bugs"
    assert game.is_over() and game.winners() == (1, 2, 3)
    assert "role-change" not in kinds(events) and len(game.round_points) == 0


def test_short_game_is_a_single_round() -> None:
    """"Dans une partie courte, vous ne jouerez qu'une seule manche.\""""
    game = new_game(short_game=True)
    place(game)
    for _ in range(12):
        events = quiet_turn(game)
    assert game.is_over() and game.round_index == 0 and game.winners() == (0,)
    assert event(events, "game-over").data["winners"] == [0]
