"""The end of the game ("5. But du jeu") and the rulings on the cases the rulebook leaves open."""

from __future__ import annotations

import pytest

from controller.engines import CHANCE, GameOverError
from controller.engines.praxis import Discard, Move, Pass, PortalGrid, Put
from praxis_scenarios import arrange, c, event, kinds, roll


def play_turn(game, seat: int) -> list:
    """Play ``seat``'s whole turn with its first legal actions (the table rolling 1, 2, 3...)."""
    events = []
    value = 0
    while not game.is_over() and game.current_players()[0] in (seat, CHANCE):
        player = game.current_players()[0]
        if player == CHANCE:
            value = value % 6 + 1
            events += roll(game, value)
        else:
            events += game.apply(player, game.legal_actions(player)[0])
        if game.current_players() and game.current_players()[0] not in (seat, CHANCE):
            break
    return events


def collecting_game(active: int = 0, points: list[str] | None = None):
    """3 players, seat ``active`` about to collect 10 points through the portal on 3.3."""
    ships = {(active, 0): ("3.2", 1)}
    ships.update({((active + 1) % 3, 0): ("6.6", 2), ((active + 2) % 3, 0): ("1.1", 2)})
    ports = [[], [], []]
    ports[active] = points or []
    return arrange(players=3, ships=ships, portals=("3.3", "4.1"), active=active, spaceports=ports,
                   cells={"1.5": "torpedo", "1.6": "plus-one", "4.4": "scanner"})


def test_36_points_finish_the_round_of_the_table_then_points_are_counted() -> None:
    """"Dès qu'un joueur a collectionné au moins 36 points, le tour de table se termine et les points
    sont comptés.\" Seat 0 plays first: seats 1 and 2 still play their turns."""
    game = collecting_game(0, ["black-star", "virus", "teleporter"])
    game.apply(0, Move(0, c("3.3")))
    events = game.apply(0, Discard("plus-one"))
    assert event(events, "last-round").text == ("seat 0 has 40 points: the round of the table is finished, then "
                                                "points are counted")
    assert game.ending == "points" and not game.is_over()
    game.apply(0, PortalGrid(2))
    roll(game, 1)
    game.apply(0, game.legal_actions(0)[0])
    assert game.current_players() == (1,)
    play_turn(game, 1)
    assert not game.is_over() and game.current_players() == (2,)
    events = play_turn(game, 2)
    assert game.is_over() and event(events, "game-over").text == "the game is over: seat 0 won with 40 point(s)"
    assert game.winners() == (0,) and game.scores()[0] == 40.0
    with pytest.raises(GameOverError):
        game.apply(0, Pass())


def test_reaching_36_in_the_last_turn_of_the_round_ends_the_game_at_once() -> None:
    """"le tour de table se termine": when the last seat of the round (the one before the first
    player) reaches 36, the round is already finished."""
    game = collecting_game(2, ["black-star", "virus", "teleporter"])
    game.apply(2, Move(0, c("3.3")))
    game.apply(2, Discard("plus-one"))
    game.apply(2, PortalGrid(2))
    roll(game, 1)
    events = game.apply(2, game.legal_actions(2)[0])
    assert kinds(events)[-1] == "game-over" and game.is_over()


def test_the_round_goes_on_below_36_points() -> None:
    """"au moins 36 points": 35 is not enough."""
    game = collecting_game(2, ["black-star", "virus", "mines"])  # 25 + 10 = 35
    game.apply(2, Move(0, c("3.3")))
    game.apply(2, Discard("plus-one"))
    game.apply(2, PortalGrid(2))
    roll(game, 1)
    game.apply(2, game.legal_actions(2)[0])
    assert game.points[2] == 35 and game.ending is None and game.current_players() == (0,)


def test_an_empty_pile_finishes_the_round_of_the_table() -> None:
    """Ruling: when the draw pile runs out ("la pioche"), the round of the table is finished and the
    points are counted, as at 36 points: the rules never bring the discards back, and with no pile
    hands run dry and the compulsory put becomes impossible for everyone."""
    game = arrange(ships={(0, 0): ("3.5", 1), (1, 0): ("2.3", 1)}, next_draws=["mines"], empty_pile=True)
    assert len(game.pile) == 1 and game.ending is None
    game.apply(0, Move(0, c("3.4")))
    events = game.apply(0, Put("plus-one", c("3.1")))
    assert event(events, "last-round").text == ("the draw pile is empty: the round of the table is finished, then "
                                                "points are counted")
    assert game.current_players() == (1,) and not game.is_over()
    game.apply(1, Move(0, c("2.6")))
    events = game.apply(1, Put("plus-one", c("2.5")))
    assert game.is_over() and len(game.hands[1]) == 2, "nothing left to draw"


def test_a_tie_shares_the_win() -> None:
    """Ruling: the rules count points and name no tie-break, so seats tied on the most points
    share the win."""
    game = arrange(ships={(0, 0): ("3.5", 1), (1, 0): ("2.3", 1)}, next_draws=["mines"], empty_pile=True,
                   spaceports=[["torpedo"], ["scanner"]])
    game.apply(0, Move(0, c("3.4")))
    game.apply(0, Put("plus-one", c("3.1")))
    game.apply(1, Move(0, c("2.6")))
    events = game.apply(1, Put("plus-one", c("2.5")))
    assert game.winners() == (0, 1)
    assert event(events, "game-over").text == "the game is over: seat 0 and seat 1 won with 5 point(s)"


def test_when_everybody_passes_in_a_row_the_game_ends() -> None:
    """Ruling: when every seat in turn can neither move, take off nor put, nothing can ever change
    again: the game ends and the points are counted."""
    walls = ("1.2", "1.4", "1.5", "2.2", "2.5", "2.6", "5.1", "5.2", "5.5", "6.2", "6.3", "6.5")
    game = arrange(ships={(0, 0): ("1.1", 1), (0, 1): ("2.3", 1), (1, 0): ("6.6", 1), (1, 1): ("5.4", 1)},
                   cells={label: "minus-one" for label in walls}, portals=("4.6",), active=1)
    assert game.pile and game.ending is None
    game.apply(1, Pass())
    assert game.current_players() == (0,)
    events = game.apply(0, Pass())
    assert kinds(events) == ["passed", "stuck", "game-over"] and game.is_over()
