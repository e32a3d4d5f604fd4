"""One test per rule of Pixoid, each citing the rulebook's words (rules/pixoid.fr.md) it enforces.

Positions are on the ``LANES`` test board of pixoid_scenarios.py: start Pix a1, i1, a5, i5 (row 0
and 4, column 0 and 8 as (row, column)), bonus Pix c1, a2, i4, b5.
"""

from __future__ import annotations

import json

import pytest

from controller.engines import GameOverError, NotYourTurnError, RuleError
from controller.engines.pixoid import Place, Program
from pixoid_scenarios import A1, A5, I1, I5, event, kinds, new_game, place, quiet_turn, turn


def placed_game(**options):
    game = new_game(**options)
    place(game)
    return game


# --------------------------------------------------------------------------------------------
# Placement
# --------------------------------------------------------------------------------------------


def test_pixoid_places_first_then_bugs_clockwise() -> None:
    """"Pixoid place son deuxième cube sur le Pix de départ de son choix. Puis, l'un après l'autre
    dans le sens des aiguilles d'une montre, les Bugs placent leur deuxième cube sur un Pix de départ
    encore disponible.\""""
    game = new_game()
    order = []
    for pix in (A1, I1, A5, I5):
        seat = game.current_players()[0]
        order.append(seat)
        assert all(isinstance(a, Place) and a.piece == seat for a in game.legal_actions(seat))
        game.apply(seat, Place(seat, pix))
    assert order == [0, 1, 2, 3]
    assert game.phase == "programming"


def test_placement_only_on_a_free_start_pix() -> None:
    """"les Bugs placent leur deuxième cube sur un Pix de départ encore disponible\""""
    game = new_game()
    game.apply(0, Place(0, A1))
    assert {a.pix for a in game.legal_actions(1)} == {I1, A5, I5}
    with pytest.raises(RuleError) as taken:
        game.apply(1, Place(1, A1))
    assert taken.value.rule == "start-pix-taken"
    with pytest.raises(RuleError) as not_start:
        game.apply(1, Place(1, (2, 2)))
    assert not_start.value.rule == "start-pix"
    with pytest.raises(RuleError) as order:
        game.apply(1, Place(2, I1))
    assert order.value.rule == "placement-order"
    with pytest.raises(NotYourTurnError):
        game.apply(2, Place(2, I1))


# --------------------------------------------------------------------------------------------
# Secret programming
# --------------------------------------------------------------------------------------------


def test_programs_stay_secret_until_everyone_has_locked_in() -> None:
    """"Chaque joueur indique secrètement sur sa manette la direction dans laquelle il veut se
    déplacer ainsi que la distance\" ... \"Lorsque tous les joueurs ont terminé leur programmation,
    révélez votre manette\""""
    game = placed_game()
    assert game.current_players() == (0, 1, 2, 3)
    events = game.apply(0, Program(0, "right", 1))
    assert kinds(events) == ["locked"] and "right" not in json.dumps([e.to_json() for e in events])
    assert game.secret_pending(0) and game.current_players() == (1, 2, 3)
    for observer in (1, 2, 3, None):
        view = game.view(observer)
        assert view["seats"] == {"0": "locked", "1": "waiting", "2": "waiting", "3": "waiting"}
        assert "right" not in json.dumps(view)
    assert game.view(0)["my_programs"] == {"0": {"direction": "right", "distance": 1}}
    game.apply(1, Program(1, "down", 1))
    game.apply(2, Program(2, "up", 1))
    events = game.apply(3, Program(3, "left", 1))
    revealed = event(events, "revealed")
    assert [(p["piece"], p["direction"], p["distance"]) for p in revealed.data["programs"]] == [
        (0, "right", 1), (1, "down", 1), (2, "up", 1), (3, "left", 1)
    ]
    assert not game.secret_pending(0)
    assert game.view(2)["last_turn"]["programs"][0]["direction"] == "right"


def test_distance_zero_is_refused() -> None:
    """"vous ne pouvez pas choisir la valeur 0 sur la molette centrale\" (and the wheel stops at 9)"""
    game = placed_game()
    before = game.dumps()
    for distance in (0, 10, -1):
        with pytest.raises(RuleError) as info:
            game.apply(0, Program(0, "right", distance))
        assert info.value.rule == "distance-range"
        assert isinstance(info.value, ValueError) and "Pixoid" in str(info.value)
    assert game.dumps() == before


def test_diagonal_arrows_are_refused() -> None:
    """"Indiquez, grâce à la molette de gauche, la direction que vous voulez prendre (haut, bas,
    gauche ou droite)\""""
    game = placed_game()
    for arrow in ("up-right", "down-right", "down-left", "up-left"):
        with pytest.raises(RuleError) as info:
            game.apply(0, Program(0, arrow, 2))
        assert info.value.rule == "no-diagonal"
        assert info.value.reason == ("Pixoid and the Bugs move only up, down, left or right: turn the direction "
                                     "wheel off the diagonal")
        assert info.value.in_language("fr").startswith("Pixoid et les Bugs se déplacent seulement vers le haut")
    with pytest.raises(RuleError) as unknown:
        game.apply(0, Program(0, "north", 2))
    assert unknown.value.rule == "direction-name"
    assert all(a.direction in ("up", "right", "down", "left") for a in game.legal_actions(0))


def test_no_program_towards_a_wall_the_piece_stands_against() -> None:
    """"vous ne pouvez pas programmer une direction vers un mur contre lequel vous vous trouvez déjà\""""
    game = placed_game()
    for direction in ("up", "left"):
        with pytest.raises(RuleError) as info:
            game.apply(0, Program(0, direction, 3))
        assert info.value.rule == "wall-ahead"
        assert "a1" in str(info.value)
    assert {a.direction for a in game.legal_actions(0)} == {"right", "down"}
    turn(game, {0: ("right", 1), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    # The Bug now on i2 has the wall between h2 and i2 on its left.
    with pytest.raises(RuleError) as inner:
        game.apply(1, Program(1, "left", 1))
    assert inner.value.rule == "wall-ahead"


def test_program_towards_a_distant_wall_stops_against_it() -> None:
    """"Si un mur empêche un joueur d'effectuer l'intégralité de son déplacement, le joueur arrête
    son cube sur le Pix se trouvant contre le mur.\""""
    game = placed_game()
    events = turn(game, {0: ("down", 1), 1: ("left", 9), 2: ("right", 9), 3: ("up", 9)})
    # Bug 1 from i1 goes left along row 1: it meets nobody (Pixoid left a1 for a2) and stops at the edge.
    moved = {e.data["piece"]: e.data for e in events if e.kind == "moved"}
    assert moved[1]["to"] == (0, 0) and moved[1]["stopped_by_wall"] is True
    assert moved[1]["path"][0] == (0, 8) and len(moved[1]["path"]) == 9
    assert moved[2]["to"] == (4, 8) and moved[2]["stopped_by_wall"] is True
    assert moved[3]["to"] == (0, 8) and moved[3]["stopped_by_wall"] is True and len(moved[3]["path"]) == 5
    assert moved[0]["stopped_by_wall"] is False


def test_each_piece_is_programmed_once_by_its_controller() -> None:
    """"Chaque joueur indique secrètement sur sa manette\": one program per controller and turn."""
    game = placed_game()
    game.apply(0, Program(0, "right", 1))
    with pytest.raises(NotYourTurnError):
        game.apply(0, Program(0, "down", 1))
    with pytest.raises(RuleError) as info:
        game.apply(1, Program(2, "up", 1))
    assert info.value.rule == "not-your-piece"


# --------------------------------------------------------------------------------------------
# Movement and capture
# --------------------------------------------------------------------------------------------


def test_pixoid_moves_first_and_is_caught_passing_a_bug_that_has_not_moved() -> None:
    """"Pixoid se déplace toujours en premier\" ... \"Si le chemin de Pixoid s'arrête ou passe sur
    un Pix où se trouve un Bug, passez à Fin de la manche.\" The Bug is still on its Pix when Pixoid
    moves, whatever it programmed."""
    game = placed_game()
    events = turn(game, {0: ("right", 9), 1: ("down", 4), 2: ("up", 1), 3: ("left", 1)})
    assert kinds(events)[:4] == ["locked", "locked", "locked", "locked"]
    captured = event(events, "captured")
    assert captured.data == {"piece": 0, "by": [1], "pix": (0, 8), "during": "pixoid-move"}
    assert [e.data["piece"] for e in events if e.kind == "moved"] == [0], "the Bugs do not move after the capture"
    assert event(events, "round-over").data["reason"] == "captured"


def test_pixoid_caught_when_its_path_stops_on_a_bug() -> None:
    """"Si le chemin de Pixoid s'arrête ... sur un Pix où se trouve un Bug\""""
    game = placed_game()
    events = turn(game, {0: ("down", 4), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    assert event(events, "captured").data == {"piece": 0, "by": [2], "pix": (4, 0), "during": "pixoid-move"}
    pixoid = [e.data for e in events if e.kind == "moved"][0]
    assert pixoid["to"] == (4, 0) and pixoid["stopped_by_wall"] is False


def test_bug_path_passing_over_pixoid_catches_it() -> None:
    """"Si le chemin d'un Bug s'arrête ou passe sur un Pix où se trouve Pixoid, passez à Fin de la
    manche.\""""
    game = placed_game()
    events = turn(game, {0: ("right", 2), 1: ("left", 9), 2: ("up", 1), 3: ("left", 1)})
    captured = event(events, "captured")
    assert captured.data["during"] == "bug-move" and captured.data["by"] == [1]
    assert captured.data["pix"] == (0, 2)
    moved_bug = [e.data for e in events if e.kind == "moved" and e.data["piece"] == 1][0]
    assert moved_bug["to"] == (0, 2), "the Bug's path ends where it caught Pixoid"


def test_bug_path_stopping_on_pixoid_catches_it() -> None:
    """"Si le chemin d'un Bug s'arrête ... sur un Pix où se trouve Pixoid\""""
    game = placed_game()
    events = turn(game, {0: ("down", 2), 1: ("down", 1), 2: ("up", 2), 3: ("left", 1)})
    captured = event(events, "captured")
    assert captured.data == {"piece": 0, "by": [2], "pix": (2, 0), "during": "bug-move"}


def test_several_bugs_catching_at_once_are_all_named() -> None:
    """"Si le chemin d'un Bug s'arrête ou passe sur un Pix où se trouve Pixoid\": every such Bug."""
    game = placed_game()
    turn(game, {0: ("right", 1), 1: ("down", 2), 2: ("up", 2), 3: ("left", 1)})  # Pixoid b1, Bugs i3, a3
    events = turn(game, {0: ("down", 2), 1: ("left", 9), 2: ("right", 9), 3: ("left", 1)})
    captured = event(events, "captured")
    assert captured.data == {"piece": 0, "by": [1, 2], "pix": (2, 1), "during": "bug-move"}
    ends = {e.data["piece"]: e.data["to"] for e in events if e.kind == "moved"}
    assert ends[1] == ends[2] == (2, 1)


def test_bug_crossing_pixoid_earlier_path_does_not_catch() -> None:
    """Only where Pixoid is counts: \"passe sur un Pix où se trouve Pixoid\". A Bug moving over the
    Pix Pixoid left earlier in the same turn does not catch it (ruling crossing-paths)."""
    game = placed_game()
    turn(game, {0: ("right", 1), 1: ("down", 1), 2: ("right", 2), 3: ("left", 1)})  # Bug 2 to c5
    events = turn(game, {0: ("right", 4), 1: ("up", 1), 2: ("up", 9), 3: ("right", 1)})
    # Pixoid went b1 -> f1 over c1; Bug 2 then went c5 -> c1, over the Pix Pixoid had crossed.
    assert "captured" not in kinds(events)
    assert game.board.pix(game.pos[2]) == (0, 2) and game.board.pix(game.pos[0]) == (0, 5)


def test_pixoid_walking_into_a_bug_coming_towards_it_is_caught_by_its_own_move() -> None:
    """Swapping places: Pixoid moves first, so it enters the Bug's Pix while the Bug is still there
    (\"Pixoid se déplace toujours en premier\"; ruling swap)."""
    game = placed_game()
    turn(game, {0: ("right", 1), 1: ("down", 1), 2: ("right", 2), 3: ("left", 1)})  # Pixoid b1, Bug 2 c5
    turn(game, {0: ("left", 1), 1: ("up", 1), 2: ("up", 9), 3: ("right", 1)})  # Pixoid a1, Bug 2 c1
    events = turn(game, {0: ("right", 2), 1: ("down", 1), 2: ("left", 2), 3: ("left", 1)})
    captured = event(events, "captured")
    assert captured.data["during"] == "pixoid-move" and captured.data["pix"] == (0, 2)


def test_bugs_ending_on_the_same_pix_stack() -> None:
    """"Si plusieurs Bugs veulent terminer leur déplacement sur le même Pix, empilez les cubes des
    Bugs en question sur ce Pix.\""""
    game = placed_game()
    events = turn(game, {0: ("right", 1), 1: ("down", 2), 2: ("up", 1), 3: ("up", 2)})
    assert "captured" not in kinds(events)
    assert game.pos[1] == game.pos[3] == game.board.index((2, 8))
    assert "  &: the blue Bug and the yellow Bug on i3" in game.render().splitlines()
    turn(game, {0: ("left", 1), 1: ("left", 3), 2: ("down", 1), 3: ("up", 2)})
    assert game.board.pix(game.pos[1]) == (2, 5) and game.board.pix(game.pos[3]) == (0, 8)


def test_bugs_leave_bonus_cubes_in_place() -> None:
    """"Les Bugs peuvent traverser ou se déplacer sur un Pix avec un cube neutre Bonus. Laissez alors
    simplement le cube Bonus à sa place.\""""
    game = placed_game()
    events = turn(game, {0: ("right", 1), 1: ("down", 9), 2: ("right", 1), 3: ("left", 1)})
    assert "bonus" not in kinds(events)
    assert game.bonus_taken == 0 and len(game.bonus_cubes) == 4
    assert game.board.pix(game.pos[2]) == (4, 1), "Bug 2 stands on the bonus Pix b5, its cube still there"


def test_pixoid_takes_a_bonus_cube_its_path_passes_over_once() -> None:
    """"le chemin de Pixoid doit passer par le Pix sur lequel est placé un cube. Il récupère alors ce
    cube\" ... \"Passer à nouveau sur ce Pix n'accordera plus de bonus\""""
    game = placed_game()
    events = turn(game, {0: ("right", 4), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    assert event(events, "bonus").data == {"piece": 0, "pix": (0, 2), "bonus_taken": 1}
    events = turn(game, {0: ("left", 9), 1: ("up", 1), 2: ("down", 1), 3: ("right", 1)})
    assert "bonus" not in kinds(events)
    assert game.bonus_taken == 1 and (0, 2) not in [game.board.pix(i) for i in game.bonus_cubes]


def test_bonus_cubes_taken_before_the_capture_count() -> None:
    """"Lorsque Pixoid récupère un cube Bonus, il l'ajoute immédiatement aux cubes qu'il a déjà
    récupérés\": a cube taken on the move where Pixoid is caught still counts (ruling)."""
    game = placed_game()
    events = turn(game, {0: ("right", 9), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    assert kinds(events).index("bonus") < kinds(events).index("captured")
    assert event(events, "round-over").data["points"] == [1, 12, 12, 12]


def test_bonus_cube_under_the_catching_bug_is_not_taken() -> None:
    """"Si un Bug finit son déplacement sur un cube, empilez les cubes.\" Pixoid is caught on
    entering the Pix, so the cube under the Bug stays (ruling)."""
    game = placed_game()
    turn(game, {0: ("right", 1), 1: ("down", 1), 2: ("right", 2), 3: ("left", 1)})
    turn(game, {0: ("left", 1), 1: ("up", 1), 2: ("up", 9), 3: ("right", 1)})  # Bug 2 on c1, a bonus Pix
    events = turn(game, {0: ("right", 3), 1: ("down", 1), 2: ("down", 1), 3: ("left", 1)})
    assert "bonus" not in kinds(events)
    assert event(events, "round-over").data["bonus_taken"] == 0


def test_starting_pix_is_not_on_a_path() -> None:
    """"le chemin ... passe sur un Pix\": a path is the Pix a piece enters; its starting Pix is drawn
    first in the event's path for animation but is never passed over (ruling start-pix)."""
    game = placed_game()
    events = turn(game, {0: ("down", 1), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    pixoid = [e.data for e in events if e.kind == "moved" and e.data["piece"] == 0][0]
    assert pixoid["path"] == [(0, 0), (1, 0)]
    assert event(events, "bonus").data["pix"] == (1, 0)


# --------------------------------------------------------------------------------------------
# Score and the end of a round
# --------------------------------------------------------------------------------------------


def test_pixoid_surviving_a_turn_takes_a_reserve_cube() -> None:
    """"Si Pixoid n'a pas perdu après que tous les joueurs ont fini leur déplacement, il prend un cube
    neutre de la réserve.\""""
    game = placed_game()
    events = quiet_turn(game)
    assert event(events, "survived").data["reserve"] == 11
    assert game.reserve == 11 and game.reserve_taken == 1 and game.turn_in_round == 1
    assert game.phase == "programming" and game.current_players() == (0, 1, 2, 3)


def test_twelfth_reserve_cube_ends_the_round() -> None:
    """"S'il récupère le dernier cube de la réserve, c'est-à-dire le 12e, passez à Fin de la manche.\"
    ... \"Pixoid gagne alors 12 points, plus 1 point par cube Bonus récupéré. Les Bugs gagnent 0 point.\""""
    game = placed_game()
    for _ in range(11):
        assert "round-over" not in kinds(quiet_turn(game))
    events = quiet_turn(game)
    over = event(events, "round-over")
    assert over.data["reason"] == "reserve-empty" and over.data["points"] == [12, 0, 0, 0]
    assert game.scores() == (12.0, 0.0, 0.0, 0.0)


def test_capture_scores_as_in_the_rulebook_example() -> None:
    """"Pixoid se fait attraper alors qu'il a récupéré 9 cubes de la réserve et 1 cube neutre Bonus.
    Il marque donc 10 points, et tous les Bugs marquent 3 points (12-9).\""""
    game = placed_game()
    events = turn(game, {0: ("down", 1), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})  # bonus a2
    assert "bonus" in kinds(events)
    for k in range(8):
        pixoid_move = ("up", 1) if k % 2 == 0 else ("down", 1)
        bugs = {1: ("up", 1), 2: ("down", 1), 3: ("right", 1)} if k % 2 == 0 else {1: ("down", 1), 2: ("up", 1), 3: ("left", 1)}
        turn(game, {0: pixoid_move, **bugs})
    assert game.reserve_taken == 9 and game.bonus_taken == 1
    events = turn(game, {0: ("up", 1), 1: ("up", 1), 2: ("up", 9), 3: ("right", 1)})
    over = event(events, "round-over")
    assert over.data["points"] == [10, 3, 3, 3]


def test_capture_on_the_twelfth_turn_leaves_the_last_cube_in_the_reserve() -> None:
    """"Si Pixoid n'a pas perdu après que tous les joueurs ont fini leur déplacement, il prend un cube\":
    the cube comes after the movement, so a capture on the 12th turn scores 11 and 1 (ruling)."""
    game = placed_game()
    for _ in range(11):
        quiet_turn(game)
    events = turn(game, {0: ("left", 1), 1: ("up", 1), 2: ("up", 3), 3: ("right", 1)})
    # Pixoid back on a1; the Bug on a4 goes up to a1 and catches it.
    over = event(events, "round-over")
    assert over.data["reason"] == "captured" and over.data["points"] == [11, 1, 1, 1]


def test_role_passes_to_the_bug_on_pixoid_left_and_the_round_is_set_up_again() -> None:
    """"Le Bug à gauche de Pixoid devient Pixoid, et Pixoid devient alors un Bug.\" ... \"Remplacez les
    4 cubes neutres sur les Pix de cube Bonus. Chaque joueur récupère son cube de couleur présent dans
    le labyrinthe. Reproduisez l'étape 8 de la mise en place.\""""
    game = placed_game()
    events = turn(game, {0: ("right", 9), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})  # caught, bonus taken
    assert event(events, "role-change").data == {"pixoid_seat": 1, "previous": 0, "round": 2}
    assert game.pixoid_seat == game.pixoid_piece == 1 and game.round_index == 1
    assert game.phase == "placement" and game.pos == [-1, -1, -1, -1]
    assert len(game.bonus_cubes) == 4 and game.bonus_taken == 0 and game.reserve == 12
    assert game.current_players() == (1,) and game.place_queue == [1, 2, 3, 0]


def test_game_ends_when_everyone_has_been_pixoid_and_ties_share_the_win() -> None:
    """"La partie s'arrête lorsque tous les joueurs ont incarné une fois Pixoid.\" ... \"S'il y a égalité
    entre les joueurs en tête, ces joueurs se partagent la victoire.\""""
    game = new_game()
    for round_index in range(4):
        assert game.pixoid_seat == round_index
        place(game)
        for _ in range(12):
            events = quiet_turn(game)
    assert game.is_over() and game.phase == "over" and game.current_players() == ()
    assert game.round_points == [[12, 0, 0, 0], [0, 12, 0, 0], [0, 0, 12, 0], [0, 0, 0, 12]]
    assert game.winners() == (0, 1, 2, 3)
    assert event(events, "game-over").data == {"winners": [0, 1, 2, 3], "scores": [12.0, 12.0, 12.0, 12.0]}
    with pytest.raises(GameOverError):
        game.apply(0, Program(0, "up", 1))


def test_most_points_wins() -> None:
    """"Le joueur avec le plus de points de victoire remporte la partie.\""""
    game = new_game()
    place(game)
    turn(game, {0: ("down", 1), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})  # Pixoid takes a2's cube
    for k in range(11):
        pixoid_move = ("up", 1) if k % 2 == 0 else ("down", 1)
        bugs = {1: ("up", 1), 2: ("down", 1), 3: ("right", 1)} if k % 2 == 0 else {1: ("down", 1), 2: ("up", 1), 3: ("left", 1)}
        turn(game, {0: pixoid_move, **bugs})
    assert game.round_points == [[13, 0, 0, 0]]
    for _ in range(3):
        place(game)
        for _ in range(12):
            quiet_turn(game)
    assert game.scores() == (13.0, 12.0, 12.0, 12.0) and game.winners() == (0,)


def test_numbers_that_only_look_whole_are_refused() -> None:
    """"un chiffre indiquant le nombre de Pix\": a wheel gives whole numbers; True or 1.0 is refused,
    so every accepted action can be saved and replayed."""
    game = new_game()
    with pytest.raises(RuleError) as place_error:
        game.apply(0, Place(0, (0.0, 0)))
    assert place_error.value.rule == "start-pix"
    place(game)
    with pytest.raises(RuleError) as program_error:
        game.apply(0, Program(0, "right", True))
    assert program_error.value.rule == "distance-range"
    assert not game.secret_pending(0)
