"""A turn (6.1 "Règles principales"), movement and the direct attack (6.4), one test per rule.

Positions are on the rectangle universe (see praxis_scenarios.py for its cell names).
"""

from __future__ import annotations

import pytest

from controller.engines import CHANCE, NotYourTurnError, RuleError
from controller.engines.praxis import Move, Pass, Put, TakeOff
from controller.engines.praxis.game import IN_SPACEPORT, SHIP
from praxis_scenarios import arrange, c, event, kinds, roll

ALONE = {(0, 0): ("3.5", 1), (1, 0): ("2.3", 1)}


def destinations(game, seat: int = 0, ship: int = 0) -> set[str]:
    from controller.engines.praxis import cell_label

    return {cell_label(a.to) for a in game.legal_actions(seat) if isinstance(a, Move) and a.ship == ship}


# --------------------------------------------------------------------------------------------
# Movement
# --------------------------------------------------------------------------------------------


def test_face_one_moves_orthogonally() -> None:
    """Movement by the active face: 1, a centre pip alone, moves orthogonally."""
    game = arrange(ships=ALONE)
    assert destinations(game) == {"3.2", "1.5", "1.2", "5.2", "5.5", "3.6", "4.4", "4.5", "4.6", "3.4"}


@pytest.mark.parametrize("face", [2, 4, 6])
def test_even_faces_move_diagonally(face: int) -> None:
    """Movement by the active face: 2, 4 and 6, corner pips without the centre, move diagonally."""
    game = arrange(ships={(0, 0): ("3.5", face), (1, 0): ("2.3", 1)})
    assert destinations(game) == {"3.3", "2.4", "2.2", "5.3", "6.4", "5.1", "3.1"}


@pytest.mark.parametrize("face", [3, 5])
def test_three_and_five_move_orthogonally_or_diagonally(face: int) -> None:
    """Movement by the active face: 3 and 5, corner pips and the centre, move either way."""
    game = arrange(ships={(0, 0): ("3.5", face), (1, 0): ("2.3", 1)})
    assert destinations(game) == {"3.2", "1.5", "1.2", "5.2", "5.5", "3.6", "4.4", "4.5", "4.6", "3.4",
                                  "3.3", "2.4", "2.2", "5.3", "6.4", "5.1", "3.1"}


def test_a_ship_slides_over_empty_cells_without_jumping() -> None:
    """"Un vaisseau glisse d'une ou plusieurs cases d'espace vides sans sauter.\""""
    game = arrange(ships=ALONE, cells={"3.6": "plus-one"})
    assert "3.6" in destinations(game) and "4.4" not in destinations(game)
    before = game.dumps()
    with pytest.raises(RuleError) as info:
        game.apply(0, Move(0, c("4.4")))
    assert info.value.rule == "no-jumping"
    assert "the Plus one on 3.6 is in the way between 3.5 and 4.4" in str(info.value)
    assert game.dumps() == before


def test_slides_cross_grid_borders_where_the_lattice_continues() -> None:
    """The grids join on one lattice, so a ship slides from grid to grid; where the lattice stops
    (the ring's hole) the slide stops too."""
    game = arrange(ships=ALONE)
    game.apply(0, Move(0, c("4.6")))  # 3.5 -> 3.6 -> 4.4 -> 4.5 -> 4.6: grid 3 into grid 4
    assert game.ship_cell[0] == c("4.6")
    ring = arrange(layout="ring", ships={(0, 0): ("6.5", 1), (1, 0): ("1.1", 2)}, portals=("4.1",))
    # 6.5 sits on the ring's left side; east of it is the hole, then the right side (3.5)
    assert "3.5" not in destinations(ring)
    with pytest.raises(RuleError) as info:
        ring.apply(0, Move(0, c("3.5")))
    assert info.value.rule == "face-direction"


def test_a_cell_holds_a_ship_or_an_artefact_not_both() -> None:
    """"Une case d'espace accueille un vaisseau ou un artefact, mais pas les deux.\" A ship does not
    stop on its own ship; an artefact is never put under a ship."""
    game = arrange(ships={(0, 0): ("3.5", 1), (0, 1): ("3.6", 1), (1, 0): ("2.3", 1)})
    assert "3.6" not in destinations(game) and "4.4" not in destinations(game)
    with pytest.raises(RuleError) as own:
        game.apply(0, Move(0, c("3.6")))
    assert own.value.rule == "own-ship"
    with pytest.raises(RuleError) as under:
        game.apply(0, Put("plus-one", c("3.6")))
    assert under.value.rule == "cell-occupied"


# --------------------------------------------------------------------------------------------
# Putting and moving, in either order
# --------------------------------------------------------------------------------------------


def test_put_next_to_a_ship_then_move_that_ship() -> None:
    """"chaque joueur pose un artefact de sa main sur une case adjacente, par un bord ou par un coin,
    à la case occupée par un de ses vaisseaux, puis déplace ce vaisseau\""""
    game = arrange(ships={(0, 0): ("3.5", 1), (0, 1): ("5.5", 1), (1, 0): ("2.3", 1)},
                   hands=[["plus-one", "virus", "scanner"], ["plus-one"] * 3])
    events = game.apply(0, Put("virus", c("3.3")))  # by a corner
    assert kinds(events) == ["put", "drew"]
    assert game.step == "move" and game.current_players() == (0,)
    assert {a.ship for a in game.legal_actions(0)} == {0}, "only the ship next to the artefact moves"
    with pytest.raises(RuleError) as info:
        game.apply(0, Move(1, c("6.4")))
    assert info.value.rule == "move-that-ship"
    events = game.apply(0, Move(0, c("3.4")))
    assert kinds(events) == ["moved", "turn"] and game.current_players() == (1,)


def test_or_move_first_then_put_next_to_the_arrival() -> None:
    """"ou bien dans l'ordre inverse, le joueur déplace son vaisseau et pose un artefact sur une case
    adjacente à sa case d'arrivée.\""""
    game = arrange(ships=ALONE)
    game.apply(0, Move(0, c("1.2")))
    assert game.step == "put"
    assert {a.cell for a in game.legal_actions(0)} == {c("1.1"), c("1.3"), c("1.4"), c("1.5"), c("1.6")}
    with pytest.raises(RuleError) as far:
        game.apply(0, Put("plus-one", c("3.3")))
    assert far.value.rule == "put-adjacent"
    with pytest.raises(RuleError) as again:
        game.apply(0, Move(0, c("1.1")))
    assert again.value.rule == "step"
    game.apply(0, Put("plus-one", c("1.6")))
    assert game.current_players() == (1,)


def test_the_artefact_goes_next_to_a_ship_by_an_edge_or_a_corner() -> None:
    """"sur une case adjacente, par un bord ou par un coin, à la case occupée par un de ses vaisseaux\""""
    game = arrange(ships=ALONE)
    cells = {a.cell for a in game.legal_actions(0) if isinstance(a, Put)}
    assert cells == {c(x) for x in ("3.1", "3.2", "3.3", "3.4", "3.6", "5.1", "5.2", "5.3")}
    with pytest.raises(RuleError) as info:
        game.apply(0, Put("plus-one", c("1.1")))
    assert info.value.rule == "put-adjacent"


def test_the_cell_receiving_an_artefact_must_be_empty() -> None:
    """"La case d'espace recevant l'artefact doit être vide.\""""
    game = arrange(ships=ALONE, cells={"3.2": "minus-one"})
    assert c("3.2") not in {a.cell for a in game.legal_actions(0) if isinstance(a, Put)}
    with pytest.raises(RuleError) as info:
        game.apply(0, Put("plus-one", c("3.2")))
    assert info.value.rule == "cell-occupied"
    assert "doit être vide" in str(info.value)


def test_the_hand_is_completed_from_the_pile_at_once() -> None:
    """"Lorsque le joueur pose un artefact de sa main, il la complète aussitôt grâce à la pioche.\""""
    game = arrange(ships=ALONE, hands=[["plus-one", "virus", "scanner"], ["plus-one"] * 3],
                   next_draws=["black-star", "torpedo"])
    pile = len(game.pile)
    game.apply(0, Move(0, c("1.2")))
    events = game.apply(0, Put("virus", c("1.1")))
    assert event(events, "drew").data == {"seat": "seat 0", "player": 0, "count": 1}
    assert sorted(game.view(0)["hand"]) == ["black-star", "plus-one", "scanner"]
    assert len(game.pile) == pile - 1


def test_the_move_is_compulsory_unless_impossible() -> None:
    """"Sauf impossibilité, le déplacement d'un vaisseau est obligatoire pendant le tour de jeu.\"
    Putting first is refused when it would leave the ship next to it no move."""
    # ship 1.1, face 1: east (1.2) holds a Minus one it cannot take; south (1.4) is its only way
    game = arrange(ships={(0, 0): ("1.1", 1), (0, 1): ("6.4", 2), (1, 0): ("2.3", 1)},
                   cells={"1.2": "minus-one", "5.4": "minus-one", "6.2": "minus-one"},
                   portals=("4.6",),
                   hands=[["minus-one", "plus-one", "virus"], ["plus-one"] * 3])
    legal = game.legal_actions(0)
    assert Put("minus-one", c("1.4")) not in legal
    assert Put("plus-one", c("1.4")) in legal, "the ship can then land on the Plus one"
    with pytest.raises(RuleError) as info:
        game.apply(0, Put("minus-one", c("1.4")))
    assert info.value.rule == "put-blocks-move"
    assert Put("minus-one", c("1.5")) in legal, "a corner cell does not block a face 1"


def test_when_no_ship_can_move_or_take_off_the_put_alone_is_made() -> None:
    """"Sauf impossibilité": with no move and no take-off, the turn is the put alone."""
    game = arrange(ships={(0, 0): ("1.1", 1), (0, 1): ("2.3", 1), (1, 0): ("6.6", 1)},
                   cells={"1.2": "minus-one", "1.4": "minus-one", "2.2": "minus-one", "2.6": "minus-one"},
                   portals=("4.6",))
    legal = game.legal_actions(0)
    assert legal and all(isinstance(a, Put) for a in legal)
    assert {a.cell for a in legal} == {c("1.5"), c("2.5")}
    game.apply(0, Put("plus-one", c("2.5")))
    assert game.current_players() == (1,)


def test_the_put_is_compulsory_unless_impossible() -> None:
    """"Sauf impossibilité, la pose d'un artefact est obligatoire pendant le tour de jeu.\" After
    the move the turn waits for the put; with no empty cell next to the arrival it ends without."""
    game = arrange(ships=ALONE)
    game.apply(0, Move(0, c("3.4")))
    assert game.current_players() == (0,) and game.step == "put"
    # a take-off onto 1.1 surrounded by artefacts: nowhere to put
    full = arrange(ships={(0, 0): ("6.6", 1), (1, 0): ("2.3", 1)}, portals=("4.6",),
                   cells={"1.2": "plus-one", "1.4": "plus-one", "1.5": "plus-one"})
    full.apply(0, TakeOff())
    events = roll(full, 1, 1)
    assert kinds(events) == ["grid-rolled", "ship-entered", "no-put", "turn"]
    assert full.current_players() == (1,)


def test_pass_only_when_nothing_is_possible() -> None:
    """Ruling: with no move, no take-off and no artefact to put (an empty hand, an empty pile), the
    player passes; otherwise passing is refused."""
    game = arrange(ships=ALONE)
    with pytest.raises(RuleError) as info:
        game.apply(0, Pass())
    assert info.value.rule == "pass"
    stuck = arrange(ships={(0, 0): ("1.1", 1), (0, 1): ("2.3", 1), (1, 0): ("6.6", 1)},
                    cells={"1.2": "minus-one", "1.4": "minus-one", "2.2": "minus-one", "2.6": "minus-one"},
                    portals=("4.6",), hands=[[], ["plus-one"] * 3], empty_pile=True)
    assert stuck.legal_actions(0) == [Pass()]
    events = stuck.apply(0, Pass())
    assert kinds(events) == ["passed", "turn"]


def test_out_of_turn_is_refused() -> None:
    """"Le tour de jeu progresse en sens horaire": only the seat whose turn it is acts."""
    game = arrange(ships=ALONE)
    before = game.dumps()
    with pytest.raises(NotYourTurnError) as info:
        game.apply(1, Move(0, c("2.6")))
    assert info.value.rule == "turn-order" and "seat 1 is not expected to act now" in str(info.value)
    with pytest.raises(NotYourTurnError):
        game.apply(CHANCE, Move(0, c("3.4")))
    assert game.dumps() == before


# --------------------------------------------------------------------------------------------
# Direct attack
# --------------------------------------------------------------------------------------------


def test_direct_attack_needs_a_face_at_least_the_defenders() -> None:
    """"L'attaque directe est possible uniquement si la face active du vaisseau attaquant est
    supérieure ou égale à celle du vaisseau attaqué.\""""
    weaker = arrange(ships={(0, 0): ("3.5", 2), (1, 0): ("3.3", 3)})
    assert "3.3" not in destinations(weaker)
    with pytest.raises(RuleError) as info:
        weaker.apply(0, Move(0, c("3.3")))
    assert info.value.rule == "attack-face" and "2 is less than 3" in str(info.value)
    equal = arrange(ships={(0, 0): ("3.5", 2), (1, 0): ("3.3", 2)})
    assert "3.3" in destinations(equal)


def test_direct_attack_sends_the_loser_home_and_the_winner_draws_two() -> None:
    """"Déplacer son vaisseau vers une case occupée par un vaisseau adverse constitue une attaque
    directe. [...] Le vaisseau perdant retourne à son spatioport. Le joueur gagnant pioche 2
    artefacts.\""""
    game = arrange(ships={(0, 0): ("3.5", 4), (1, 0): ("3.3", 3)}, next_draws=["virus", "teleporter"])
    events = game.apply(0, Move(0, c("3.3")))
    attack = event(events, "attack")
    assert attack.text == ("seat 0's ship (face 4) attacks seat 1's ship (face 3) on 3.3; seat 1's ship goes back "
                           "to its spaceport")
    assert game.board[c("3.3")] == SHIP + 0 and game.ship_cell[2] == IN_SPACEPORT
    assert event(events, "drew").data["count"] == 2
    assert sorted(game.view(0)["hand"]) == ["plus-one"] * 3 + ["teleporter", "virus"]
    assert game.step == "put"
