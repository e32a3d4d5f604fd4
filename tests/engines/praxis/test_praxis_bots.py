"""The Praxis bots: legal, seeded, greedy for this turn's points, and a search bot that beats greedy."""

from __future__ import annotations

from typing import Any

import pytest

from controller.engines import CHANCE, play_out
from controller.engines.praxis import Discard, GreedyBot, Move, PraxisGame, PraxisRandomBot, Put, SearchBot
from controller.engines.praxis.bots import best_gain, portal_value
from praxis_scenarios import arrange, c, roll


def bot_game(seed: int, search_seat: int, players: int = 2) -> PraxisGame:
    bots: dict[int, Any] = {CHANCE: PraxisRandomBot(seed + 7919)}
    for seat in range(players):
        bots[seat] = SearchBot(seed) if seat == search_seat else GreedyBot(seed * 31 + seat)
    return play_out(PraxisGame({"players": players}, seed=seed), bots)


def test_greedy_collects_the_most_points_this_turn() -> None:
    """Moving onto the portal ringed by a Torpedo, a Plus one and a Scanner scores 10 (the Plus one
    discarded): greedy, with nothing in hand, moves there; with a Minus one in hand it first puts it
    next to the portal, since that collects one point more."""
    def game_with(hands: list[list[str]]) -> PraxisGame:
        return arrange(players=3, ships={(0, 0): ("3.2", 1), (1, 0): ("6.6", 2), (2, 0): ("1.1", 2)},
                       portals=("3.3", "4.1"), cells={"1.5": "torpedo", "1.6": "plus-one", "4.4": "scanner"},
                       hands=hands, empty_pile=not hands[0])

    game = game_with([[], [], []])
    assert portal_value(game, c("3.3")) == 10 and best_gain(game, 0) == 10
    bot = GreedyBot(1)
    assert bot.choose(game, 0) == Move(0, c("3.3"))
    game.apply(0, Move(0, c("3.3")))
    assert bot.choose(game, 0) == Discard("plus-one"), "discard the least valuable"
    game.apply(0, Discard("plus-one"))
    assert game.points[0] == 10
    game = game_with([["minus-one"] * 3, ["plus-one"] * 3, ["plus-one"] * 3])
    first = bot.choose(game, 0)
    assert isinstance(first, Put) and first.cell in {c("3.5"), c("3.6")}
    game.apply(0, first)
    game.apply(0, bot.choose(game, 0))
    game.apply(0, bot.choose(game, 0))
    assert game.points[0] == 11


def test_greedy_puts_next_to_the_portal_first_when_that_scores_more() -> None:
    """Putting the Black star between the ship and the portal, then landing, collects it too."""
    game = arrange(ships={(0, 0): ("3.2", 1), (1, 0): ("6.6", 2)}, portals=("3.3",),
                   cells={"1.6": "plus-one", "4.4": "torpedo"},
                   hands=[["black-star", "minus-one", "plus-one"], ["plus-one"] * 3])
    bot = GreedyBot(2)
    first = bot.choose(game, 0)
    assert isinstance(first, Put) and first.artefact == "black-star"
    assert first.cell in {c("1.5"), c("3.5"), c("3.6")}
    game.apply(0, first)
    game.apply(0, bot.choose(game, 0))
    game.apply(0, bot.choose(game, 0))
    assert game.points[0] == 15


def test_search_bot_does_not_feed_a_portal_the_opponent_reaches() -> None:
    """Seat 1's ship on 3.6 can land on the portal on 3.3 next turn: the search bot, putting next
    to its ship on 3.2, keeps its artefact away from that portal (1.5, 1.6 and 3.5 touch it)."""
    for seed in range(8):
        game = arrange(ships={(0, 0): ("3.1", 1), (1, 0): ("3.6", 1)}, portals=("3.3",),
                       cells={"4.4": "torpedo"}, hands=[["black-star", "virus", "teleporter"], ["plus-one"] * 3])
        game.apply(0, Move(0, c("3.2")))
        put = SearchBot(seed).choose(game, 0)
        assert isinstance(put, Put) and put.cell in {c("1.4"), c("3.1"), c("3.4")}, put


def test_search_bot_beats_greedy_in_most_games() -> None:
    """bench/praxis.py plays 200 games (search bot wins about nine in ten); 30 here, seats swapped."""
    won = 0.0
    games = 30
    for seed in range(games):
        game = bot_game(seed, seed % 2)
        winners = game.winners()
        if seed % 2 in winners:
            won += 1 / len(winners)
    assert won / games >= 0.6, won / games


def test_bots_play_only_legal_actions_and_are_seeded() -> None:
    for seed in range(3):
        game = PraxisGame({"players": 3, "layout": "spiral"}, seed=seed)
        bots: dict[int, Any] = {CHANCE: PraxisRandomBot(seed), 0: SearchBot(seed), 1: GreedyBot(seed),
                                2: PraxisRandomBot(seed)}
        checked = play_out(game, bots, checked=True)  # every choice goes through the checked path
        again = bot_game(seed, 0, players=2)
        assert bot_game(seed, 0, players=2).dumps() == again.dumps()
        assert checked.is_over()


def test_search_uses_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search tries actions on clones with ``apply_fast`` (unchecked, no events), never with
    the checked path."""
    game = arrange(ships={(0, 0): ("3.5", 3), (1, 0): ("2.3", 1)}, cells={"3.6": "plus-one"})
    calls = []
    original = PraxisGame.apply_fast

    def counting(self: PraxisGame, player: int, action: Any) -> None:
        calls.append(action)
        original(self, player, action)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the search used the checked path")

    monkeypatch.setattr(PraxisGame, "apply_fast", counting)
    monkeypatch.setattr(PraxisGame, "apply", refuse)
    before = game.dumps()
    SearchBot(1).choose(game, 0)
    assert len(calls) == len(game.legal_actions(0)) and game.dumps() == before


def test_the_table_is_played_at_random() -> None:
    game = arrange(ships={(0, 0): ("3.5", 1), (1, 0): ("2.3", 2)}, cells={"3.6": "mutation"})
    game.apply(0, Move(0, c("3.6")))
    faces = {SearchBot(seed).choose(game, CHANCE).value for seed in range(30)}
    assert len(faces) > 3
    roll(game, 4)
