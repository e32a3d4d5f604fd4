"""The Wuxing bots: the chemin's equilibrium player and the theatre's searcher."""

from __future__ import annotations

import random

import pytest

from controller.engines import RandomBot
from controller.engines.wuxing import ChemBot, GreedyBot, Play, TheatreBot, WuxingBot, WuxingGame, equilibrium
from controller.engines.wuxing.bots import ChemSolver, duel, estimate, position_of
from controller.engines.wuxing.matrix import conceded, guaranteed
from wuxing_scenarios import chemin


def test_the_search_model_of_a_duel_is_the_engines() -> None:
    """The solver's own fast duel reaches the position (or the end) the engine reaches."""
    rng = random.Random(5)
    checked = 0
    for seed in range(60):
        options = rng.choice([{}, {"no_discard": True}, {"no_yin_yang": True}])
        game = WuxingGame({"mode": "chemin", **options}, seed=seed)
        while not game.is_over():
            if game.phase == "discard":
                for p in (0, 1):
                    game.apply(p, rng.choice(game.legal_actions(p)))
                continue
            state = position_of(game.rules)
            e0 = rng.choice(game.legal_actions(0)).element
            e1 = rng.choice(game.legal_actions(1)).element
            model = duel(game.rules.path, game.rules.discard, game.rules.faces, state, e0, e1)
            game.apply(0, Play(e0))
            game.apply(1, Play(e1))
            if game.is_over():
                assert model == (1.0 if game.winners() == (0,) else 0.0)
            else:
                assert model == position_of(game.rules)
            checked += 1
    assert checked > 300


def test_the_equilibrium_is_a_solution_of_the_positions_matrix_game() -> None:
    """Each side's strategy guarantees the position's value against every card of the other."""
    game = chemin()
    game.apply(0, WuxingGame.decode_action({"type": "discard", "element": "fire"}))
    game.apply(1, WuxingGame.decode_action({"type": "discard", "element": "earth"}))
    eq = equilibrium(game, depth=2)
    rules = game.rules
    solver = ChemSolver(rules.path, rules.discard, rules.faces)
    state = position_of(rules)
    value, p, q, rows, columns = solver.solve(state, 2)
    assert eq["value"] == pytest.approx(value)
    table = [[solver.solve(after, 1)[0] if isinstance(after := duel(rules.path, True, True, state, a, b), tuple)
              else after for b in columns] for a in rows]
    assert guaranteed(table, p) == pytest.approx(value, abs=1e-9)
    assert conceded(table, q) == pytest.approx(value, abs=1e-9)
    assert set(eq["strategies"][0]) == {"wood", "earth", "metal", "water"}, "only the cards in hand"
    assert sum(eq["strategies"][1].values()) == pytest.approx(1.0)
    assert 0.0 < eq["value"] < 1.0


def test_the_equilibrium_is_symmetric_on_a_symmetric_opening() -> None:
    """Under-10 game on a fresh path: both seats are alike up to the path's mirror, so the strategies
    of the two seats on the mirrored path are the same."""
    game = chemin("wood fire earth metal water", no_discard=True)
    mirror = chemin("water metal earth fire wood", no_discard=True)
    a, b = equilibrium(game), equilibrium(mirror)
    assert a["value"] == pytest.approx(1 - b["value"], abs=1e-9)
    for element, p in a["strategies"][0].items():
        assert p == pytest.approx(b["strategies"][1][element], abs=1e-6)


def test_estimate_favours_tokens_and_ground() -> None:
    base = (1, 3, 0, 0, 0, 0, 0, 0, -1, -1)
    assert estimate(base) == pytest.approx(0.5)
    assert estimate((1, 3, 0, 0, 1, 0, 0, 0, -1, -1)) > 0.5
    assert estimate((2, 4, 0, 0, 0, 0, 0, 0, -1, -1)) > 0.5


def play(game: WuxingGame, bots: dict) -> WuxingGame:
    for _ in range(3000):
        if game.is_over():
            return game
        for p in game.current_players():
            game.apply_fast(p, bots[p].choose(game, p))
    raise AssertionError("the game did not end")


class StrongElementBot(ChemBot):
    """A predictable player: always the card of its own island if it may, else the first in hand."""

    def choose(self, game, player):
        actions = game.legal_actions(player)
        strong = game.rules.path[game.rules.pos[player]]
        return next((a for a in actions if a.element == strong), actions[0])


def test_the_equilibrium_bot_beats_a_predictable_player() -> None:
    wins = 0
    for seed in range(40):
        me = seed % 2
        game = play(WuxingGame({"mode": "chemin"}, seed=seed), {me: ChemBot(seed), 1 - me: StrongElementBot(seed)})
        wins += game.winners() == (me,)
    assert wins >= 24, wins  # 26 of 40: an equilibrium guarantees its value, it does not hunt for more


def test_the_theatre_search_bot_beats_random_and_greedy_players() -> None:
    wins_random = wins_greedy = 0
    for seed in range(20):
        me = seed % 2
        game = play(WuxingGame({"mode": "theatre"}, seed=seed), {me: TheatreBot(seed), 1 - me: RandomBot(seed)})
        wins_random += game.winners() == (me,)
        game = play(WuxingGame({"mode": "theatre"}, seed=seed), {me: TheatreBot(seed), 1 - me: GreedyBot(seed)})
        wins_greedy += game.winners() == (me,)
    assert wins_random == 20
    assert wins_greedy >= 16, wins_greedy


def test_the_service_bot_plays_both_modes_to_the_end_and_is_seeded() -> None:
    for mode in ("chemin", "theatre"):
        a = play(WuxingGame({"mode": mode}, seed=4), {0: WuxingBot(1), 1: WuxingBot(2)})
        b = play(WuxingGame({"mode": mode}, seed=4), {0: WuxingBot(1), 1: WuxingBot(2)})
        assert a.is_over() and a.history == b.history
