"""Set-up ("4. Mise en place"), one test per rule, each citing the rulebook's words."""

from __future__ import annotations

from collections import Counter

import pytest

from controller.engines import CHANCE, NotYourTurnError, RuleError
from controller.engines.praxis import FirstPlayer, PraxisGame, Roll
from controller.engines.praxis.artefacts import ARTEFACTS, BOX, KEYS
from controller.engines.praxis.game import IN_SPACEPORT, PORTALS_BY_PLAYERS
from praxis_scenarios import c, event, kinds, roll, set_up


@pytest.mark.parametrize("players,portals", [(2, 1), (3, 2), (4, 3)])
def test_portals_by_number_of_players(players: int, portals: int) -> None:
    """"1 portail pour 2 joueurs ; 2 portails pour 3 joueurs ; 3 portails pour 4 joueurs.\""""
    game = set_up(players)
    assert len(game.portals) == portals == PORTALS_BY_PLAYERS[players]
    assert sum(1 for v in game.board if v == 15) == portals


def test_a_portal_is_placed_by_a_grid_roll_then_a_cell_roll() -> None:
    """"Pour chaque portail, un premier jet de dé détermine sa grille numérotée, et un second jet
    détermine sa case numérotée dans cette grille.\""""
    game = PraxisGame(seed=4)
    assert game.current_players() == (CHANCE,)
    assert game.state_dict()["step"] == {"kind": "roll", "player": CHANCE, "for": "portal-grid"}
    events = roll(game, 4)
    assert kinds(events) == ["grid-rolled"] and game.state_dict()["step"]["grid"] == 4
    events = roll(game, 5)
    assert event(events, "portal-placed").data["cell"] == "4.5"
    assert game.portals == [c("4.5")]


def test_an_occupied_cell_is_rolled_again() -> None:
    """"Si la case est déjà occupée, alors le dé est relancé autant de fois que nécessaire.\""""
    game = PraxisGame({"players": 3}, seed=4)
    roll(game, 2, 3)            # first portal on 2.3
    events = roll(game, 2, 3)   # second portal: grid 2, cell 3 again
    assert kinds(events) == ["grid-rolled", "reroll"]
    assert event(events, "reroll").text == "cell 2.3 is occupied: roll again"
    assert game.state_dict()["step"] == {"kind": "roll", "player": CHANCE, "for": "portal-cell", "grid": 2}
    roll(game, 3, 3, 6)         # still occupied, still occupied, then free
    assert game.portals == [c("2.3"), c("2.6")]


def test_first_ship_placed_by_rolls_with_its_face_drawn_second_in_the_spaceport() -> None:
    """"Comme pour les portails, le premier vaisseau de chaque joueur est placé aléatoirement dans
    l'univers. De plus la face de ce dé est tirée au sort. Le second vaisseau est placé dans le
    spatioport du joueur.\""""
    game = PraxisGame(seed=1)
    roll(game, 1, 1)                      # the portal on 1.1
    events = roll(game, 1, 1, 2)          # seat 0: grid 1, cell 1 taken, cell 2
    assert kinds(events) == ["grid-rolled", "reroll", "ship-placed"]
    assert game.state_dict()["step"]["for"] == "ship-face"
    events = roll(game, 6)
    assert event(events, "face-rolled").text == "seat 0's ship on 1.2 shows face 6"
    roll(game, 6, 6, 2)
    assert game.ship_cell == [c("1.2"), IN_SPACEPORT, c("6.6"), IN_SPACEPORT]
    assert game.ship_face == [6, 0, 2, 0]
    assert game.step == "first-player"


def test_the_draw_pile_is_the_107_artefacts_with_their_values() -> None:
    """"Les artefacts sont constitués en pioche": the box's 107 artefacts (the PDF's counts and
    values: Plus un x22 (1) ... Étoile noire x2 (10))."""
    assert len(BOX) == 107
    counts = Counter(KEYS[k] for k in BOX)
    assert counts == {
        "plus-one": 22, "minus-one": 22, "plus-two": 8, "plus-three": 8, "minus-two": 8, "minus-three": 8,
        "mutation": 11, "torpedo": 4, "mines": 4, "scanner": 4, "shipyard": 2, "virus": 2, "teleporter": 2,
        "black-star": 2,
    }
    values = {a.key: a.value for a in ARTEFACTS[1:]}  # type: ignore[union-attr]
    assert values["plus-one"] == values["minus-one"] == 1
    assert values["mutation"] == values["plus-three"] == values["minus-two"] == 2
    assert values["torpedo"] == values["mines"] == values["scanner"] == 5
    assert values["shipyard"] == values["virus"] == values["teleporter"] == values["black-star"] == 10
    assert ARTEFACTS[1].french == "Plus un" and ARTEFACTS[14].french == "Étoile noire"  # type: ignore[union-attr]
    game = PraxisGame({"players": 4}, seed=9)
    assert len(game.pile) + sum(len(h) for h in game.hands) == 107


def test_hands_of_three_are_hidden() -> None:
    """"Chaque joueur pioche, pour sa main, 3 artefacts gardés cachés.\""""
    game = set_up(3)
    assert [len(h) for h in game.hands] == [3, 3, 3]
    for seat in range(3):
        view = game.view(seat)
        assert view["hand"] == [KEYS[k] for k in game.hands[seat]]
        assert view["hand_sizes"] == [3, 3, 3]
        assert "hands" not in view and "pile_order" not in view and "discard_pile" not in view
    assert "hand" not in game.view(None) and "hands" not in game.view(None)


def test_the_pile_is_shuffled_by_the_seed() -> None:
    """"Les artefacts sont constitués en pioche": the order comes from the game's seeded generator,
    so the same seed deals the same hands and another seed another pile."""
    assert PraxisGame(seed=5).pile == PraxisGame(seed=5).pile
    assert PraxisGame(seed=5).hands == PraxisGame(seed=5).hands
    assert PraxisGame(seed=5).pile != PraxisGame(seed=6).pile


def test_the_first_player_is_drawn_then_play_goes_clockwise() -> None:
    """"Le premier joueur est tiré au hasard. Le tour de jeu progresse en sens horaire.\""""
    game = set_up(3)
    assert game.first_player == 0
    game = set_up(3, first=None)
    assert game.step == "first-player"
    assert game.legal_actions(CHANCE) == [FirstPlayer(0), FirstPlayer(1), FirstPlayer(2)]
    with pytest.raises(RuleError) as info:
        game.apply(CHANCE, FirstPlayer(3))
    assert info.value.rule == "first-player"
    events = game.apply(CHANCE, FirstPlayer(2))
    assert kinds(events) == ["first-player", "turn"] and game.current_players() == (2,)
    seats = []
    for _ in range(4):
        seat = game.current_players()[0]
        seats.append(seat)
        while game.current_players() == (seat,) or game.current_players() == (CHANCE,):
            player = game.current_players()[0]
            game.apply(player, game.legal_actions(player)[0])
    assert seats == [2, 0, 1, 2]


def test_set_up_rolls_are_the_tables_to_report() -> None:
    """Every set-up roll is an action of the table (CHANCE): a die read on the table is entered as
    it is, a die face outside 1-6 is refused, and no seat may roll for the table."""
    game = PraxisGame(seed=3)
    assert game.legal_actions(CHANCE) == [Roll(v) for v in range(1, 7)]
    before = game.dumps()
    for bad in (0, 7, True):
        with pytest.raises(RuleError) as info:
            game.apply(CHANCE, Roll(bad))
        assert info.value.rule == "die-faces"
    with pytest.raises(NotYourTurnError):
        game.apply(0, Roll(3))
    assert game.dumps() == before
