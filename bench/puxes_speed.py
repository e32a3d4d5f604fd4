"""How fast the PuXes engine plays and the referee judges.

    python bench/puxes_speed.py [--games 200]

Prints random playouts per second (checked path), actions per second, and the referee's time per
still-table snapshot over a scripted game; the last line is ``puxes_referee_ms_per_snapshot: value``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "referee"))

from controller.engines.puxes import PuxesGame  # noqa: E402


def playouts(games: int) -> tuple[float, float]:
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = PuxesGame(seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.is_over():
                break
            player = game.current_players()[0]
            game.apply(player, rng.choice(game.legal_actions(player)))
            actions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def referee_ms(rounds: int) -> float:
    from puxes_table import Table

    snapshots = 0
    start = time.perf_counter()
    for _ in range(rounds):
        t = Table()
        snapshots += 10
        for k in range(6):
            t.flick(2 if k % 2 == 0 else 12, 300 + 20 * k if k % 2 == 0 else 600 - 20 * k, 300)
            t.roll(1 - k % 2, ("pi", "pirate", "bombe", "smiley"))
            snapshots += 2
    return 1000 * (time.perf_counter() - start) / snapshots


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random playouts to time (default 200)")
    args = parser.parse_args()
    games_s, actions_s = playouts(args.games)
    print(f"puxes_playouts_per_second: {games_s:.1f}")
    print(f"puxes_actions_per_second: {actions_s:.0f}")
    print(f"puxes_referee_ms_per_snapshot: {referee_ms(20):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
