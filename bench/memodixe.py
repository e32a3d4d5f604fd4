"""How fast the MémoDiXe engine plays, and how much a memory helps.

    python bench/memodixe.py [--games 200] [--playouts 300]

Prints random playouts per second ("Chacun pour soi" for 2, every seat and the table played by a
uniform random bot through the fast path), actions per second, the same for "Oni contre tous", then
the memory bot's share of wins against a random player over ``--games`` seeded 2-player games (the
bot alternates seats; a shared win counts as a fraction). The last line is
``memodixe_memory_bot_win_share: value``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.engines import CHANCE, RandomBot, play_out  # noqa: E402
from controller.engines.memodixe import MemodixeGame, MemoryBot, SeededRoller  # noqa: E402


def playouts(count: int, options: dict) -> tuple[float, float]:
    actions = 0
    start = time.perf_counter()
    for seed in range(count):
        game = play_out(MemodixeGame(options, seed=seed), RandomBot(seed))
        actions += len(game.history)
    elapsed = time.perf_counter() - start
    return count / elapsed, actions / elapsed


def win_share(games: int, forget: float = 0.0) -> float:
    share = 0.0
    for seed in range(games):
        me = seed % 2
        game = MemodixeGame(seed=seed)
        play_out(game, {CHANCE: SeededRoller(seed), me: MemoryBot(seed, forget=forget), 1 - me: RandomBot(seed)})
        winners = game.winners()
        share += (me in winners) / len(winners)
    return share / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="seeded games of memory bot against random (200)")
    parser.add_argument("--playouts", type=int, default=300, help="random playouts to time (300)")
    args = parser.parse_args()
    games_s, actions_s = playouts(args.playouts, {})
    print(f"memodixe_random_playouts_per_second: {games_s:.1f}")
    print(f"memodixe_actions_per_second: {actions_s:.0f}")
    oni_games_s, oni_actions_s = playouts(max(1, args.playouts // 3), {"mode": "oni-contre-tous", "players": 5})
    print(f"memodixe_oni_random_playouts_per_second: {oni_games_s:.1f}")
    print(f"memodixe_oni_actions_per_second: {oni_actions_s:.0f}")
    print(f"memodixe_forgetful_bot_win_share (forget 0.5): {win_share(args.games, 0.5):.3f}")
    print(f"memodixe_memory_bot_win_share: {win_share(args.games):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
