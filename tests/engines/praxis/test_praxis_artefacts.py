"""Activation (6.1 "Contraintes d'activation d'artefact"), the catalogue (6.5) and the portals
(6.2), one test per rule, each citing the rulebook's words.

Most positions put seat 0's ship on 3.5 (face 1) next to the artefact on 3.6, on the rectangle
universe (see praxis_scenarios.py).
"""

from __future__ import annotations

import pytest

from controller.engines import CHANCE, RuleError
from controller.engines.praxis import Build, Discard, Keep, Move, PortalGrid, Put, Roll, TakeOff, Teleport, Torpedo
from controller.engines.praxis.artefacts import KIND, PORTAL
from controller.engines.praxis.game import IN_SPACEPORT, SHIP
from praxis_scenarios import arrange, c, event, kinds, roll

A = (0, 0)
B = (1, 0)


def at(game, ship: int) -> str | None:
    from controller.engines.praxis import cell_label

    cell = game.ship_cell[ship]
    return cell_label(cell) if cell >= 0 else None


def test_arriving_on_an_artefact_applies_it_then_discards_it() -> None:
    """"Lorsque le vaisseau arrive sur un artefact, alors cet artefact est activé, et son effet est
    aussitôt appliqué. Puis cet artefact est défaussé, sauf si c'est un portail\""""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 1)}, cells={"3.6": "plus-two"})
    events = game.apply(0, Move(0, c("3.6")))
    assert kinds(events) == ["moved", "activated", "face-changed"]
    assert game.ship_face[0] == 3
    assert game.board[c("3.6")] == SHIP + 0
    assert game.discard[-1] == KIND["plus-two"]
    assert game.step == "put"


def test_a_ship_may_not_land_on_an_artefact_that_cannot_apply() -> None:
    """"Le vaisseau ne doit pas se poser sur un artefact si son effet n'est pas applicable.\""""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 1)}, cells={"3.6": "minus-one"})
    assert Move(0, c("3.6")) not in game.legal_actions(0)
    before = game.dumps()
    with pytest.raises(RuleError) as info:
        game.apply(0, Move(0, c("3.6")))
    assert info.value.rule == "not-applicable"
    assert "the face is already 1" in str(info.value)
    assert game.dumps() == before


@pytest.mark.parametrize("artefact,face,after", [
    ("plus-one", 1, 2), ("plus-two", 3, 5), ("plus-three", 1, 4),
    ("minus-one", 5, 4), ("minus-two", 5, 3), ("minus-three", 5, 2),
])
def test_plus_and_minus_change_the_activating_ships_face(artefact: str, face: int, after: int) -> None:
    """"Cet artefact augmente de 1 [2, 3] la face du vaisseau activateur." / "Cet artefact diminue
    de 1 [2, 3] la face du vaisseau activateur.\""""
    game = arrange(ships={A: ("3.5", face), B: ("2.3", 2)}, cells={"3.6": artefact})
    game.apply(0, Move(0, c("3.6")))
    assert game.ship_face[0] == after


def test_a_face_pushed_past_six_stays_six_and_below_one_stays_one() -> None:
    """Ruling: a die has faces 1 to 6, so "augmente de 3" from 5 gives 6 and "diminue de 3" from 2
    gives 1; an artefact that would not change the face at all (a Plus on a 6, a Minus on a 1)
    cannot apply, so the ship may not land on it."""
    game = arrange(ships={A: ("3.5", 5), B: ("2.3", 2)}, cells={"3.6": "plus-three"})
    game.apply(0, Move(0, c("3.6")))
    assert game.ship_face[0] == 6
    game = arrange(ships={A: ("3.5", 3), B: ("2.3", 2)}, cells={"3.6": "minus-three"})
    game.apply(0, Move(0, c("3.6")))
    assert game.ship_face[0] == 1
    six = arrange(ships={A: ("3.5", 5), B: ("2.3", 2)}, cells={"3.6": "plus-one"})
    six.ship_face[0] = 6
    assert Move(0, c("3.6")) not in six.legal_actions(0)


def test_random_mutation_draws_the_face() -> None:
    """"Mutation aléatoire: Cet artefact tire au hasard la face du vaisseau activateur.\" The table
    rolls the die."""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "mutation"})
    game.apply(0, Move(0, c("3.6")))
    assert game.current_players() == (CHANCE,) and game.state_dict()["step"]["for"] == "mutation"
    events = roll(game, 5)
    assert event(events, "face-rolled").data["face"] == 5
    assert game.ship_face[0] == 5 and game.step == "put"


def test_quantum_torpedo_fights_with_the_white_die_ties_to_the_attacker() -> None:
    """"Torpille quantique: Cet artefact provoque en combat un vaisseau adverse adjacent par un bord
    ou un coin. Chaque combattant ajoute le jet du dé blanc à la face de son vaisseau. Le combattant
    avec le score le plus élevé gagne. En cas d'égalité de score, l'attaquant gagne. Le vaisseau
    perdant retourne à son spatioport. Le combattant gagnant pioche 2 artefacts.\""""
    game = arrange(ships={A: ("3.5", 1), B: ("4.4", 4)}, cells={"3.6": "torpedo"}, next_draws=["virus", "scanner"])
    game.apply(0, Move(0, c("3.6")))  # face 1 + 4 against face 4 + 1: a tie
    events = roll(game, 4, 1)
    won = event(events, "torpedo-won")
    assert won.data["winner_player"] == 0 and won.data["attack"] == won.data["defence"] == 5
    assert game.ship_cell[2] == IN_SPACEPORT and at(game, 0) == "3.6"
    assert sorted(game.view(0)["hand"]) == ["plus-one"] * 3 + ["scanner", "virus"]
    assert game.step == "put"


def test_the_torpedoed_ship_may_win_and_send_the_attacker_home() -> None:
    """"Le combattant avec le score le plus élevé gagne [...] Le vaisseau perdant retourne à son
    spatioport. Le combattant gagnant pioche 2 artefacts": the defender too."""
    game = arrange(ships={A: ("3.5", 1), B: ("4.4", 4)}, cells={"3.6": "torpedo"})
    game.apply(0, Move(0, c("3.6")))
    roll(game, 1, 3)  # 2 against 7
    assert game.ship_cell[0] == IN_SPACEPORT and at(game, 2) == "4.4"
    assert len(game.hands[1]) == 5
    assert game.step == "put" and game.state_dict()["step"]["next_to"] == "3.6"


def test_the_torpedo_needs_an_adjacent_opponent_and_its_player_chooses_which() -> None:
    """"provoque en combat un vaisseau adverse adjacent par un bord ou un coin": none adjacent, it
    cannot apply; two adjacent, the activating player chooses."""
    lonely = arrange(ships={A: ("3.5", 1), B: ("2.3", 4)}, cells={"3.6": "torpedo"})
    assert Move(0, c("3.6")) not in lonely.legal_actions(0)
    game = arrange(ships={A: ("3.5", 1), B: ("4.4", 4), (1, 1): ("6.1", 2)}, cells={"3.6": "torpedo"})
    game.apply(0, Move(0, c("3.6")))
    assert game.step == "torpedo"
    assert game.legal_actions(0) == [Torpedo(c("4.4")), Torpedo(c("6.1"))]
    game.apply(0, Torpedo(c("6.1")))
    roll(game, 6, 1)
    assert game.ship_cell[3] == IN_SPACEPORT and at(game, 2) == "4.4"


def test_mines_make_the_ship_leave_the_universe_to_its_spaceport() -> None:
    """"Constellation de mines: Cet artefact fait quitter l'univers au vaisseau activateur.\"
    Ruling: a ship that leaves the universe goes back to its spaceport, as a beaten ship does,
    and may take off again."""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "mines"})
    events = game.apply(0, Move(0, c("3.6")))
    assert event(events, "left-universe").text == "seat 0's ship on 3.6 leaves the universe and goes back to its spaceport"
    assert game.ship_cell[0] == IN_SPACEPORT and game.board[c("3.6")] == 0
    assert game.step == "put" and game.state_dict()["step"]["next_to"] == "3.6"
    game.apply(0, Put("plus-one", c("3.5")))
    game.apply(1, Move(0, c("2.5")))
    game.apply(1, Put("plus-one", c("2.6")))
    assert TakeOff() in game.legal_actions(0)


def test_scanner_draws_four_keeps_two_discards_the_rest() -> None:
    """"Scanneur: Cet artefact permet de piocher 4 artefacts, d'en choisir 2 et de défausser les
    autres.\" What was scanned is seen by its player only."""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "scanner"},
                   next_draws=["virus", "plus-one", "black-star", "mines"])
    discard = len(game.discard)
    game.apply(0, Move(0, c("3.6")))
    assert game.step == "keep"
    assert game.view(0)["step"]["scanned"] == ["plus-one", "mines", "virus", "black-star"]
    assert game.view(1)["step"]["scanned"] == 4 and game.view(None)["step"]["scanned"] == 4
    assert Keep(("virus", "black-star")) in game.legal_actions(0), "the order of the two does not matter"
    game.apply(0, Keep(("virus", "black-star")))
    assert sorted(game.view(0)["hand"]) == ["black-star", "plus-one", "plus-one", "plus-one", "virus"]
    assert len(game.discard) == discard + 3  # the scanner, and the two not kept
    assert game.step == "put"


def test_scanner_cannot_apply_on_an_empty_pile() -> None:
    """Ruling: the scanner draws from the pile ("piocher 4 artefacts"); with the pile empty it has
    nothing to draw, so it cannot apply; with fewer than 4 left it draws what is there."""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "scanner"}, empty_pile=True)
    assert Move(0, c("3.6")) not in game.legal_actions(0)
    short = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "scanner"},
                    next_draws=["virus", "mines", "torpedo"], empty_pile=True)
    short.apply(0, Move(0, c("3.6")))
    assert short.legal_actions(0) == [Keep(("mines", "torpedo")), Keep(("mines", "virus")), Keep(("torpedo", "virus"))]


def test_shipyard_takes_off_a_ship_next_to_the_activator_with_a_drawn_face() -> None:
    """"Chantier spatial: Cet artefact fait décoller un vaisseau de son spatioport vers une case vide
    et adjacente [au] vaisseau activateur par un bord ou un coin. La face du vaisseau rentrant est
    tirée au hasard.\""""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "shipyard", "3.3": "plus-one"})
    game.apply(0, Move(0, c("3.6")))
    assert game.step == "build"
    cells = {a.cell for a in game.legal_actions(0)}
    assert cells == {c(x) for x in ("3.2", "3.5", "4.1", "4.4", "5.2", "5.3", "6.1")}
    game.apply(0, Build(c("4.4")))
    events = roll(game, 6)
    assert at(game, 1) == "4.4" and game.ship_face[1] == 6
    assert event(events, "face-rolled").text == "seat 0's ship on 4.4 shows face 6"
    assert game.step == "put"
    both_out = arrange(ships={A: ("3.5", 1), (0, 1): ("5.5", 1), B: ("2.3", 2)}, cells={"3.6": "shipyard"})
    assert Move(0, c("3.6")) not in both_out.legal_actions(0), "no ship waits in the spaceport"


def test_virus_discards_every_adjacent_artefact_but_portals() -> None:
    """"Virus informatique: Cet artefact envoie à la défausse tous les artefacts adjacents (sauf les
    portails) par un bord ou un coin.\""""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "virus", "3.3": "plus-one", "4.4": "mines"},
                   portals=("6.1",))
    events = game.apply(0, Move(0, c("3.6")))
    assert event(events, "virus").text == "the virus discards Plus one and Mine constellation"
    assert game.board[c("3.3")] == game.board[c("4.4")] == 0
    assert game.board[c("6.1")] == PORTAL


def test_virus_needs_an_adjacent_artefact_other_than_a_portal() -> None:
    """"Au moins un artefact adjacent (hormis un portail) est requis.\""""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "virus"}, portals=("6.1",))
    assert Move(0, c("3.6")) not in game.legal_actions(0)
    with pytest.raises(RuleError) as info:
        game.apply(0, Move(0, c("3.6")))
    assert info.value.rule == "not-applicable" and "no artefact other than a portal" in str(info.value)


def test_teleporter_sends_the_ship_to_the_other_teleporter_both_discarded() -> None:
    """"Téléporteur: Cet artefact déplace le vaisseau activateur soit vers un autre artefact
    téléporteur qui est également défaussé\""""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "teleporter", "1.1": "teleporter"})
    discard = len(game.discard)
    events = game.apply(0, Move(0, c("3.6")))
    assert event(events, "teleported").data["cell"] == "1.1"
    assert at(game, 0) == "1.1" and game.board[c("3.6")] == 0
    assert len(game.discard) == discard + 2
    assert game.state_dict()["step"] == {"kind": "put", "player": 0, "next_to": "1.1"}


def test_teleporter_sends_the_ship_to_an_activatable_portal_which_is_activated() -> None:
    """"soit vers un portail activable qui est alors activé.\""""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)},
                   cells={"3.6": "teleporter", "6.5": "plus-two", "6.3": "torpedo"})
    game.apply(0, Move(0, c("3.6")))
    assert at(game, 0) == "6.6" and game.step == "discard"
    game.apply(0, Discard("plus-two"))
    assert game.points[0] == 5 and game.step == "portal-grid"


def test_teleporter_needs_a_destination() -> None:
    """"soit vers un autre artefact téléporteur [...], soit vers un portail activable": with neither,
    it cannot apply; with several, its player chooses."""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "teleporter"})
    assert Move(0, c("3.6")) not in game.legal_actions(0)
    choice = arrange(players=3, ships={A: ("3.5", 1), B: ("2.3", 2)}, portals=("1.1", "6.6"),
                     cells={"3.6": "teleporter", "5.6": "teleporter", "6.5": "plus-one"})
    choice.apply(0, Move(0, c("3.6")))
    assert choice.legal_actions(0) == [Teleport(c("5.6")), Teleport(c("6.6"))], "1.1 has nothing to suck in"


def test_black_star_sends_every_ship_of_its_grid_out_of_the_universe() -> None:
    """"Étoile noire: Cet artefact fait quitter l'univers à tous les vaisseaux de cette grille.\"
    The activating ship too; ships on other grids stay."""
    game = arrange(ships={A: ("3.5", 1), (0, 1): ("3.2", 1), B: ("3.1", 2), (1, 1): ("4.4", 3)},
                   cells={"3.6": "black-star"})
    events = game.apply(0, Move(0, c("3.6")))
    assert event(events, "black-star").text == "the black star sends every ship of grid 3 back to its spaceport"
    assert [at(game, s) for s in range(4)] == [None, None, None, "4.4"]
    assert not any(v >= SHIP for v in game.board[12:18])


# --------------------------------------------------------------------------------------------
# Portals
# --------------------------------------------------------------------------------------------


def portal_game(spaceport: list[str] | None = None):
    """Seat 0's ship on 3.2 next to a portal on 3.3 ringed by a Torpedo, a Plus one and a Scanner,
    with the other portal of a 3-player game on 4.1, also next to it."""
    return arrange(
        players=3,
        ships={A: ("3.2", 1), B: ("6.6", 2), (2, 0): ("1.1", 2)},
        portals=("3.3", "4.1"),
        cells={"1.5": "torpedo", "1.6": "plus-one", "4.4": "scanner"},
        spaceports=[spaceport or [], [], []],
    )


def test_a_portal_sucks_in_its_neighbours_one_is_discarded_the_rest_go_to_the_spaceport() -> None:
    """"Lorsqu'un vaisseau active un portail, tous les artefacts adjacents par un bord ou un coin sont
    aspirés par le portail et tous, sauf un au choix qui est défaussé, sont téléportés vers son
    spatioport où ils sont conservés faces visibles.\""""
    game = portal_game()
    events = game.apply(0, Move(0, c("3.3")))
    assert event(events, "portal-sucked").text == "the portal on 3.3 sucks in Plus one, Quantum torpedo and Scanner"
    assert game.step == "discard"
    assert game.legal_actions(0) == [Discard("plus-one"), Discard("torpedo"), Discard("scanner")]
    events = game.apply(0, Discard("plus-one"))
    assert event(events, "collected").text == "seat 0 collects Quantum torpedo and Scanner: 10 point(s), 10 in all"
    assert game.view(2)["spaceports"][0] == ["torpedo", "scanner"], "faces visible"
    assert game.scores() == (10.0, 0.0, 0.0)


def test_adjacent_portals_are_not_sucked_in() -> None:
    """"Un portail est un artefact comme les autres, mais il n'est jamais défaussé, ni collectionné.\""""
    game = portal_game()
    game.apply(0, Move(0, c("3.3")))
    assert game.board[c("4.1")] == PORTAL and c("4.1") in game.portals
    assert "portal" not in [a.artefact for a in game.legal_actions(0)]


def test_the_portal_is_put_back_on_a_grid_of_the_players_choice_its_cell_rolled() -> None:
    """"Le portail n'est pas défaussé, mais replacé dans l'univers par le joueur l'ayant activé. Le
    joueur choisit sa grille d'espace (avec au moins une case vide) et détermine sa case d'espace par
    un jet de dé (qui est répété si la case désignée est occupée).\""""
    game = portal_game()
    game.apply(0, Move(0, c("3.3")))
    game.apply(0, Discard("plus-one"))
    assert game.step == "portal-grid" and game.current_players() == (0,)
    assert game.board[c("3.3")] == SHIP + 0, "the ship stays where the portal was"
    assert game.legal_actions(0) == [PortalGrid(g) for g in range(1, 7)]
    game.apply(0, PortalGrid(6))
    events = roll(game, 6, 5)  # 6.6 holds a ship: rolled again
    assert kinds(events) == ["reroll", "portal-placed"]
    assert game.portals == [c("4.1"), c("6.5")]
    assert game.step == "put"


def test_a_full_grid_may_not_receive_the_portal() -> None:
    """"Le joueur choisit sa grille d'espace (avec au moins une case vide)\""""
    game = portal_game()
    for label in ("5.1", "5.2", "5.3", "5.4", "5.5", "5.6"):
        game.board[c(label)] = KIND["minus-one"]
        game.pile.remove(KIND["minus-one"])
    game.apply(0, Move(0, c("3.3")))
    game.apply(0, Discard("plus-one"))
    assert PortalGrid(5) not in game.legal_actions(0) and PortalGrid(6) in game.legal_actions(0)
    with pytest.raises(RuleError) as info:
        game.apply(0, PortalGrid(5))
    assert info.value.rule == "choice"


def test_sucked_in_artefacts_all_of_one_kind_need_no_choice() -> None:
    """"tous, sauf un au choix qui est défaussé": when they are all alike, any one is that one."""
    game = arrange(ships={A: ("3.2", 1), B: ("6.6", 2)}, portals=("3.3",), cells={"4.4": "virus", "1.6": "virus"})
    events = game.apply(0, Move(0, c("3.3")))
    assert kinds(events)[-2:] == ["discarded", "collected"]
    assert game.points[0] == 10 and game.step == "portal-grid"


def test_a_portal_with_nothing_to_suck_in_cannot_be_activated() -> None:
    """Ruling: "tous les artefacts adjacents [...] sont aspirés": with no artefact other than a
    portal next to it, a portal has nothing to do, so (as the virus) it cannot apply and a ship may
    not land on it; with one artefact only, that one is the one discarded and nothing is scored."""
    empty = arrange(ships={A: ("3.2", 1), B: ("6.6", 2)}, portals=("3.3",))
    assert Move(0, c("3.3")) not in empty.legal_actions(0)
    one = arrange(ships={A: ("3.2", 1), B: ("6.6", 2)}, portals=("3.3",), cells={"4.4": "black-star"})
    events = one.apply(0, Move(0, c("3.3")))
    assert event(events, "discarded").data["artefact"] == "black-star"
    assert one.points == [0, 0] and one.step == "portal-grid"


def test_take_off_instead_of_moving_face_one_grid_and_cell_rolled_then_put() -> None:
    """"Au lieu de déplacer un vaisseau, le joueur peut faire décoller un vaisseau de son spatioport.
    Ce vaisseau rentre obligatoirement avec sa face 1. Sa grille et sa case d'espace sont tirées au
    sort, comme pendant la préparation. À la suite de cette entrée, sauf impossibilité, la pose d'un
    artefact est obligatoire.\""""
    game = arrange(ships={A: ("3.5", 4), B: ("6.6", 2)}, portals=("4.6",))
    assert TakeOff() in game.legal_actions(0)
    events = game.apply(0, TakeOff())
    assert kinds(events) == ["take-off"] and game.current_players() == (CHANCE,)
    roll(game, 2)
    events = roll(game, 2)
    assert event(events, "ship-entered").text == "seat 0's ship enters on 2.2 with face 1"
    assert at(game, 1) == "2.2" and game.ship_face[1] == 1
    assert game.state_dict()["step"] == {"kind": "put", "player": 0, "next_to": "2.2"}
    put_first = arrange(ships={A: ("3.5", 4), B: ("6.6", 2)}, portals=("4.6",))
    put_first.apply(0, Put("plus-one", c("3.6")))
    with pytest.raises(RuleError) as after_put:
        put_first.apply(0, TakeOff())
    assert after_put.value.rule == "step", "after putting first, the ship next to the artefact moves"
    both = arrange(ships={A: ("3.5", 4), (0, 1): ("1.1", 1), B: ("6.6", 2)}, portals=("4.6",))
    assert TakeOff() not in both.legal_actions(0)
    with pytest.raises(RuleError) as info:
        both.apply(0, TakeOff())
    assert info.value.rule == "spaceport-empty"


def test_a_roll_on_a_full_grid_is_rolled_again() -> None:
    """Ruling: a grid roll that names a grid with no empty cell is rolled again, as an occupied cell
    is ("le dé est relancé autant de fois que nécessaire")."""
    cells = {f"2.{n}": "minus-one" for n in range(1, 7)}
    game = arrange(ships={A: ("3.5", 4), B: ("6.6", 2)}, cells=cells, portals=("4.6",))
    game.apply(0, TakeOff())
    events = roll(game, 2)
    assert kinds(events) == ["reroll"] and event(events, "reroll").text == "grid 2 has no empty cell: roll the grid again"
    assert game.state_dict()["step"]["for"] == "take-off-grid"
    roll(game, 4, 1)
    assert at(game, 1) == "4.1"


def test_no_take_off_into_a_full_universe() -> None:
    """Ruling: with no empty cell anywhere, no grid roll could ever place the ship: no take-off."""
    labels = [f"{g}.{n}" for g in range(1, 7) for n in range(1, 7)]
    keys = ["plus-one"] * 16 + ["minus-one"] * 18
    cells = {label: key for label, key in zip([x for x in labels if x not in ("3.5", "6.6")], keys)}
    cells.pop("4.4")
    game = arrange(ships={A: ("3.5", 4), B: ("4.4", 2)}, cells=cells, portals=("6.6",))
    assert 0 not in game.board
    assert TakeOff() not in game.legal_actions(0)
    with pytest.raises(RuleError) as info:
        game.apply(0, TakeOff())
    assert info.value.rule == "universe-full"


def test_the_table_rolls_as_an_action_so_a_read_die_is_entered() -> None:
    """Rolls ("jet de dé", "tiré au sort") are the table's (CHANCE) actions: the engine waits for
    the die read on the table, never rolls it itself."""
    game = arrange(ships={A: ("3.5", 1), B: ("2.3", 2)}, cells={"3.6": "mutation"})
    game.apply(0, Move(0, c("3.6")))
    assert game.legal_actions(CHANCE) == [Roll(v) for v in range(1, 7)]
    twin = game.clone()
    game.apply(CHANCE, Roll(2))
    twin.apply(CHANCE, Roll(6))
    assert (game.ship_face[0], twin.ship_face[0]) == (2, 6)
