"""Wuxing duel's bots, measured: shares of games won over seeded games.

Le théâtre: the search bot (``TheatreBot``, alpha-beta, 4 plies) against a uniformly random player
and against the greedy player (the best-looking action one move ahead, same scoring), each over
``--games`` seeded games (200 by default; the bot is seat 0 in the even games, seat 1 in the odd
ones, and a draw is not a win). The target: 95 % against random, 70 % against greedy. Also the
longest time the search bot took over one decision.

Le chemin: the equilibrium bot (``ChemBot``: each duel solved as a zero-sum matrix game, 3 duels
deep) against a random player, against a predictable one (always its strong element's card when it
holds it) and against itself at depth 1. An equilibrium guarantees its value and does not exploit,
so against a random player, whose uniform mix is close to the equilibrium in this rock-paper-
scissors-like game, it wins only a little more than half.

    python bench/wuxing.py [--games 200]

The last line is ``theatre_vs_greedy_share: N`` (percent).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.engines import Bot, RandomBot  # noqa: E402
from controller.engines.wuxing import ChemBot, GreedyBot, TheatreBot, WuxingGame  # noqa: E402


class StrongElementBot(Bot):
    """Plays the card of the island its pawn stands on whenever it may: a predictable human habit."""

    def choose(self, game: Any, player: int) -> Any:
        actions = game.legal_actions(player)
        strong = game.rules.path[game.rules.pos[player]]
        return next((a for a in actions if a.element == strong), actions[self.rng.randrange(len(actions))])


def shallow_chem(seed: int) -> ChemBot:
    bot = ChemBot(seed)
    bot.depth = 1
    return bot


def match(mode: str, bot: Callable[[int], Bot], other: Callable[[int], Bot], games: int) -> tuple[float, float, float]:
    """(share of wins in %, share of draws in %, slowest decision of ``bot`` in ms)."""
    wins = draws = 0
    slowest = 0.0
    for seed in range(games):
        me = seed % 2
        game = WuxingGame({"mode": mode}, seed=seed)
        players = {me: bot(seed), 1 - me: other(seed + 10_000)}
        for _ in range(5000):
            if game.is_over():
                break
            for seat in game.current_players():
                start = time.perf_counter()
                action = players[seat].choose(game, seat)
                if seat == me:
                    slowest = max(slowest, time.perf_counter() - start)
                game.apply_fast(seat, action)
        wins += game.winners() == (me,)
        draws += game.result() == "draw"
    return 100.0 * wins / games, 100.0 * draws / games, 1000.0 * slowest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="seeded games per pairing (default 200)")
    args = parser.parse_args()
    n = args.games
    rows = [
        ("chemin_vs_random_share", "chemin", ChemBot, RandomBot),
        ("chemin_vs_strong_element_share", "chemin", ChemBot, StrongElementBot),
        ("chemin_depth3_vs_depth1_share", "chemin", ChemBot, shallow_chem),
        ("theatre_vs_random_share", "theatre", TheatreBot, RandomBot),
        ("theatre_vs_greedy_share", "theatre", TheatreBot, GreedyBot),
    ]
    for name, mode, bot, other in rows:
        start = time.perf_counter()
        share, draws, slowest = match(mode, bot, other, n)
        print(f"# {name}: {n} games in {time.perf_counter() - start:.1f} s, {draws:.1f} % draws, "
              f"slowest decision {slowest:.0f} ms", flush=True)
        print(f"{name}: {share:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
