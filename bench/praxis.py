"""How fast the Praxis engine plays, and how the search bot fares against the greedy bot.

    python bench/praxis.py [--games 200] [--playouts 300]

Prints random playouts per second (the fast path, as bots' searches use it) and through the
checked path, then plays ``--games`` seeded 2-player games of the search bot against the greedy
bot (seats swapped every other game, the table's rolls by a seeded random bot) and prints the
search bot's share of wins (a shared win counts a half), the time per game and per search move.
The last line is ``praxis_search_beats_greedy_share: value``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.engines import CHANCE, play_out  # noqa: E402
from controller.engines.praxis import GreedyBot, PraxisGame, PraxisRandomBot, SearchBot  # noqa: E402


def random_playouts(games: int, checked: bool) -> tuple[float, float]:
    """(playouts per second, actions per second) of random 2-player games."""
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = play_out(PraxisGame(seed=seed), PraxisRandomBot(seed), checked=checked)
        actions += len(game.history)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


class _Timed:
    """Wraps a bot and adds up the time its choices take."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.calls = 0

    def choose(self, game: PraxisGame, player: int) -> object:
        start = time.perf_counter()
        action = self.bot.choose(game, player)  # type: ignore[attr-defined]
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return action


def match(games: int, players: int = 2, layout: str = "rectangle") -> tuple[float, float, float]:
    """(search bot's share of wins, seconds per game, milliseconds per search decision)."""
    won = 0.0
    timed_search = 0.0
    search_calls = 0
    start = time.perf_counter()
    for seed in range(games):
        search_seat = seed % players
        game = PraxisGame({"players": players, "layout": layout}, seed=seed)
        search = _Timed(SearchBot(seed))
        bots: dict[int, object] = {CHANCE: PraxisRandomBot(seed + 7919)}
        for seat in range(players):
            bots[seat] = search if seat == search_seat else GreedyBot(seed * 31 + seat)
        play_out(game, bots)  # type: ignore[arg-type]
        winners = game.winners()
        if search_seat in winners:
            won += 1.0 / len(winners)
        timed_search += search.seconds
        search_calls += search.calls
    elapsed = time.perf_counter() - start
    return won / games, elapsed / games, 1000 * timed_search / max(1, search_calls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="search-against-greedy games (default 200)")
    parser.add_argument("--playouts", type=int, default=300, help="random playouts to time (default 300)")
    args = parser.parse_args()
    fast, fast_actions = random_playouts(args.playouts, checked=False)
    checked, checked_actions = random_playouts(max(1, args.playouts // 3), checked=True)
    print(f"praxis_random_playouts_per_second_fast: {fast:.1f} ({fast_actions:.0f} actions/s)")
    print(f"praxis_random_playouts_per_second_checked: {checked:.1f} ({checked_actions:.0f} actions/s)")
    share, per_game, per_move = match(args.games)
    print(f"praxis_seconds_per_bot_game: {per_game:.3f}")
    print(f"praxis_search_ms_per_decision: {per_move:.2f}")
    print(f"praxis_search_beats_greedy_share: {share:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
