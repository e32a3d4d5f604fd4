"""Speed of the rules engines on one core.

Pixoid: random playouts of complete 4-player rounds through the unchecked path (a uniformly random
legal action at every step, as a search or a bot would drive it), then the checked apply of one
full turn (four programs, the last one resolving the movement and score phases).

    python bench/engines.py [--seconds 3]

The last line is ``pixoid_rounds_per_s: N``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.engines.pixoid import PixoidGame, PixoidOptions  # noqa: E402


def random_rounds(seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Play random 4-player games until ``seconds`` have passed; return rounds, actions, time."""
    rng = random.Random(seed)
    options = PixoidOptions(players=4)
    rounds = actions = 0
    started = time.perf_counter()
    game_seed = 0
    while time.perf_counter() - started < seconds:
        game = PixoidGame(options, seed=game_seed)
        game_seed += 1
        while not game.is_over():
            player = game.current_players()[0]
            legal = game.legal_actions(player)
            game.apply_unchecked(player, legal[rng.randrange(len(legal))])
            actions += 1
        rounds += len(game.round_points)
    return rounds, actions, time.perf_counter() - started


def checked_turn_us(repeats: int = 2000, seed: int = 5) -> float:
    """Mean time of the checked apply of the four programs of one turn, in microseconds."""
    rng = random.Random(seed)
    game = PixoidGame(PixoidOptions(players=4), seed=seed)
    while game.phase == "placement":
        player = game.current_players()[0]
        game.apply(player, rng.choice(game.legal_actions(player)))
    plans = []
    for _ in range(repeats):
        turn = []
        for player in game.current_players():
            turn.append((player, rng.choice(game.legal_actions(player))))
        plans.append((game.clone(), turn))
    started = time.perf_counter()
    for copy, turn in plans:
        for player, action in turn:
            copy.apply(player, action)
    return (time.perf_counter() - started) / repeats * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description="Measure the rules engines' speed on one core.")
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to play random rounds (default 3)")
    args = parser.parse_args()
    rounds, actions, elapsed = random_rounds(args.seconds)
    print(f"pixoid random playouts: {rounds} rounds, {actions} actions in {elapsed:.2f} s "
          f"({actions / elapsed:,.0f} actions/s, {actions / max(rounds, 1):.1f} actions per round)")
    print(f"pixoid checked apply of one full turn (4 programs): {checked_turn_us():.1f} us")
    print(f"pixoid_rounds_per_s: {rounds / elapsed:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
