"""The universe's rules (rules/praxis.fr.md, "4. Mise en place"), one test per rule."""

from __future__ import annotations

import pytest

from controller.engines import OptionsError, SaveFileError, load_game
from controller.engines.praxis import PRESETS, LayoutError, PraxisGame, build_universe, cell_index, cell_label
from controller.engines.praxis.universe import FACE_DIRECTIONS, DIAGONAL, ORTHOGONAL

RECTANGLE = [[0, 0, 0], [0, 3, 0], [2, 0, 0], [2, 3, 0], [4, 0, 0], [4, 3, 0]]


def test_each_grid_touches_at_least_two_others_by_an_edge() -> None:
    """"Chaque grille doit être au contact d'au moins 2 autres grilles par un bord.\""""
    # grids 5 and 6 hang below grid 3 and 4 only by grid 5 touching 6: each touches just one other
    line = [[0, 0, 0], [0, 3, 0], [2, 0, 0], [2, 3, 0], [4, 6, 0], [4, 9, 0]]
    with pytest.raises(LayoutError) as info:
        build_universe(line)
    assert info.value.rule == "grid-contact"
    assert isinstance(info.value, OptionsError) and isinstance(info.value, ValueError)
    assert "grid 5 touches grid 6 by an edge" in str(info.value)
    assert "au moins 2 autres grilles" in str(info.value)
    # touching only at a corner is no contact
    corner = [[0, 0, 0], [0, 3, 0], [2, 0, 0], [2, 3, 0], [4, 1, 0], [4, 6, 0]]
    with pytest.raises(LayoutError, match="grid 6 touches no other grid"):
        build_universe(corner)


def test_a_layout_breaking_the_contact_rule_is_refused_as_options_and_in_a_save() -> None:
    """"Chaque grille doit être au contact d'au moins 2 autres grilles par un bord": a game cannot
    be created on such a universe, and a save naming one is refused with the same reason."""
    bad = [[0, 0, 0], [0, 3, 0], [0, 6, 0], [0, 9, 0], [0, 12, 0], [0, 15, 0]]
    with pytest.raises(OptionsError, match="grid-contact"):
        PraxisGame({"layout": bad})
    save = PraxisGame(seed=1).save()
    save["options"]["layout"] = bad
    with pytest.raises(SaveFileError, match="au moins 2 autres grilles"):
        load_game(save)


def test_the_four_example_universes_are_presets() -> None:
    """"Ci-dessous, 4 exemples d'univers": the rectangle, offset rows, ring and spiral (the PDF's
    pictures), each made of the 6 grids and passing the contact rule."""
    assert sorted(PRESETS) == ["offset", "rectangle", "ring", "spiral"]
    for name in PRESETS:
        universe = build_universe(name)
        assert len(universe.coords) == len(set(universe.coords)) == 36
        assert all(len(touching) >= 2 for touching in universe.contacts), name
        PraxisGame({"layout": name}, seed=1)  # playable
    assert build_universe("rectangle") is build_universe(RECTANGLE), "a preset is its placements"


def test_grids_join_edge_to_edge_without_overlapping() -> None:
    """The grids are laid side by side on one lattice ("au contact ... par un bord"), never on top
    of one another."""
    overlap = [[0, 0, 0], [0, 2, 0], [2, 0, 0], [2, 3, 0], [4, 0, 0], [4, 3, 0]]
    with pytest.raises(LayoutError) as info:
        build_universe(overlap)
    assert info.value.rule == "grids-overlap"
    assert "grids 1 and 2 overlap" in str(info.value)


def test_the_universe_is_one_piece() -> None:
    """Ruling: "un univers" is one piece; two groups of three grids that each touch two others
    still make two universes and are refused."""
    apart = [[0, 0, 0], [0, 3, 0], [2, 1, 0], [10, 0, 0], [10, 3, 0], [12, 1, 0]]
    with pytest.raises(LayoutError) as info:
        build_universe(apart)
    assert info.value.rule == "one-universe"


def test_a_universe_is_built_from_the_six_grids() -> None:
    """"Les joueurs s'accordent sur la construction d'un univers à l'aide des 6 grilles d'espace.\""""
    with pytest.raises(LayoutError) as info:
        build_universe(RECTANGLE[:5])
    assert info.value.rule == "six-grids"
    with pytest.raises(LayoutError) as named:
        build_universe("donut")
    assert named.value.rule == "layout-name" and "rectangle" in str(named.value)
    with pytest.raises(LayoutError) as turned:
        build_universe(RECTANGLE[:5] + [[4, 3, 4]])
    assert turned.value.rule == "grid-placement"


def test_cells_are_numbered_1_2_3_above_4_5_6_and_turn_with_the_tile() -> None:
    """The PDF numbers a grid's cells 1 2 3 on the top row and 4 5 6 below; a grid turned a quarter
    turn keeps its printed numbers, which turn with it."""
    universe = build_universe("rectangle")
    assert universe.coords[cell_index("1.1")] == (0, 0)
    assert universe.coords[cell_index("1.3")] == (0, 2)
    assert universe.coords[cell_index("1.4")] == (1, 0)
    assert universe.coords[cell_index("6.6")] == (5, 5)
    ring = build_universe("ring")  # grid 3 is turned a quarter turn clockwise, at row 2, column 4
    assert PRESETS["ring"][2] == (2, 4, 1)
    # a quarter turn clockwise reads 4 1 / 5 2 / 6 3
    spots = {cell_label(i): ring.coords[i] for i in range(12, 18)}
    assert spots == {"3.4": (2, 4), "3.1": (2, 5), "3.5": (3, 4), "3.2": (3, 5), "3.6": (4, 4), "3.3": (4, 5)}
    # half a turn reads 6 5 4 / 3 2 1
    assert PRESETS["ring"][3] == (5, 3, 2)
    assert [ring.coords[cell_index(f"4.{n}")] for n in (6, 5, 4, 3, 2, 1)] == [(5, 3), (5, 4), (5, 5), (6, 3), (6, 4), (6, 5)]
    assert cell_label(cell_index("3.5")) == "3.5"
    with pytest.raises(ValueError):
        cell_index("7.1")


def test_movement_directions_by_face() -> None:
    """Movement by the active face (the PDF's picture): a centre pip and no corner pip (1) moves
    orthogonally; corner pips without the centre (2, 4, 6) diagonally; both (3, 5) either way."""
    assert FACE_DIRECTIONS[1] == ORTHOGONAL
    assert FACE_DIRECTIONS[2] == FACE_DIRECTIONS[4] == FACE_DIRECTIONS[6] == DIAGONAL
    assert set(FACE_DIRECTIONS[3]) == set(FACE_DIRECTIONS[5]) == set(ORTHOGONAL) | set(DIAGONAL)
