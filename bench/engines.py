"""Speed of the rules engines on one core, each figure set beside a reference timed in the same run.

The reference loop is a Pixoid turn with nothing else: 4 tokens on the classic 12x12 board with
its walls; each turn every token lists its legal moves (an open direction, 1 to 9 Pix), takes one
at random and walks it Pix by Pix until a wall stops it; a token landing on token 0 sends the
tokens back to the start Pix. No phases, scores, events or history. The engines are measured in
slices, the reference timed right after each slice, and each figure against the reference is the
median over the slices, so a burst of load on a shared machine moves one slice, not the figure.

Pixoid: random playouts of complete 4-player games (a uniformly random legal action at every step,
as a search or a random bot drives them) through the fast path, ``Game.apply_fast`` (unchecked, no
events), and the same games through ``apply_unchecked`` (events built: the path playouts took
before the fast path); ``pixoid_vs_reference_ratio`` is reference time / engine time for the same
turns (the goal: at least 0.40). Then the checked apply of one full turn, and ``clone()``.

PuXes: random playouts of the default 2-player game (seeded games and policies, at most 3000
actions each, as ``bench/puxes_speed.py`` plays them) through ``apply_fast`` and through
``apply_unchecked`` with events. Against the reference it is playouts per 1000 reference turns'
time, which does not depend on the machine's speed; ``puxes_speedup_vs_before`` divides it by the
figure this bench gave before the fast path (:data:`BEFORE`; the goal: at least 2). The events path
timed in the same run is no "before": the faster legal actions and clone serve it too.

    python bench/engines.py [--seconds 4]

The last line is ``pixoid_vs_reference_ratio: N``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.engines.pixoid import PixoidGame, PixoidOptions, Program  # noqa: E402
from controller.engines.pixoid.board import MAX_DISTANCE, load_board  # noqa: E402
from controller.engines.puxes import PuxesGame  # noqa: E402

#: This bench's figures for the engines as they were before the fast path (commits aea9de6 and 84cfbf1; the
#: bench falls back to ``apply_unchecked`` where there is no ``apply_fast``), the mean of 5 runs on
#: the development machine: Pixoid's random playouts against the reference, and PuXes random
#: playouts per 1000 reference turns' time. Both are ratios to the reference loop, so a run on
#: another day or machine compares with them.
BEFORE = {"pixoid_vs_reference_ratio": 0.254, "puxes_playouts_per_1000_reference_turns": 1.63}

PUXES_MAX_ACTIONS = 3000


# --------------------------------------------------------------------------------------------
# The reference loop
# --------------------------------------------------------------------------------------------


def reference_turns(turns: int, seed: int = 1) -> float:
    """Seconds the plain-Python reference loop takes for ``turns`` turns of 4 tokens."""
    board = load_board("classic")
    opens = board.opens
    steps = (-board.width, 1, board.width, -1)
    starts = list(board.starts[:4])
    rng = random.Random(seed)
    pos = list(starts)
    started = time.perf_counter()
    for _ in range(turns):
        for k in range(4):
            i = pos[k]
            legal = [(d, n) for d in range(4) if opens[i][d] for n in range(1, MAX_DISTANCE + 1)]
            d, n = legal[rng.randrange(len(legal))]
            for _ in range(n):
                if not opens[i][d]:
                    break
                i += steps[d]
            pos[k] = i
        if pos[0] in pos[1:]:
            pos = list(starts)
    return time.perf_counter() - started


# --------------------------------------------------------------------------------------------
# Playouts
# --------------------------------------------------------------------------------------------


def _step(game: Any, fast: bool) -> Callable[[int, Any], Any]:
    if fast and hasattr(game, "apply_fast"):
        return game.apply_fast
    return game.apply_unchecked


def pixoid_games(seeds: range, fast: bool) -> tuple[int, int, int, float]:
    """Play random 4-player games, one per seed (its policy seeded alike); return rounds, turns,
    actions and seconds."""
    options = PixoidOptions(players=4)
    rounds = actions = programs = 0
    started = time.perf_counter()
    for seed in seeds:
        game = PixoidGame(options, seed=seed)
        rng = random.Random(seed)
        step = _step(game, fast)
        while not game.is_over():
            player = game.current_players()[0]
            legal = game.legal_actions(player)
            action = legal[rng.randrange(len(legal))]
            step(player, action)
            actions += 1
            if type(action) is Program:
                programs += 1
        rounds += len(game.round_points)
    return rounds, programs // 4, actions, time.perf_counter() - started


def puxes_games(seeds: range, fast: bool) -> tuple[int, int, float]:
    """Random PuXes playouts, one per seed; return games, actions and seconds."""
    actions = 0
    started = time.perf_counter()
    for seed in seeds:
        game = PuxesGame(seed=seed)
        rng = random.Random(seed)
        step = _step(game, fast)
        for _ in range(PUXES_MAX_ACTIONS):
            if game.is_over():
                break
            player = game.current_players()[0]
            step(player, rng.choice(game.legal_actions(player)))
            actions += 1
    return len(seeds), actions, time.perf_counter() - started


class Tally:
    """One path's slices: sums, and per slice its figure against the reference timed beside it."""

    def __init__(self) -> None:
        self.games = self.rounds = self.turns = self.actions = 0
        self.seconds = 0.0
        #: per slice: reference time / engine time for the same turns (Pixoid), or playouts per
        #: 1000 reference turns' time (PuXes)
        self.vs_reference: list[float] = []
        self.slice_seconds: list[float] = []

    def add(self, games: int, actions: int, seconds: float, rounds: int = 0, turns: int = 0) -> None:
        self.games += games
        self.rounds += rounds
        self.turns += turns
        self.actions += actions
        self.seconds += seconds
        self.slice_seconds.append(seconds)

    def rate(self, count: int) -> float:
        return count / self.seconds if self.seconds else 0.0

    def vs(self) -> float:
        """The median of the slices' figures against the reference: a burst of load on a shared
        machine moves one slice, not the figure."""
        return statistics.median(self.vs_reference)


def measure(seconds: float, reference_chunk: int = 2000) -> dict[str, Tally]:
    """Interleave slices of every measured path until ``seconds`` have passed (at least three
    slices each). Both paths of a game play the same games; the reference runs right after each
    slice: for the turns a Pixoid slice played, for ``reference_chunk`` turns after a PuXes one."""
    tallies = {name: Tally() for name in ("pixoid fast", "pixoid events", "puxes fast", "puxes events")}
    pixoid_slice, puxes_slice = 40, 8
    pixoid_next = puxes_next = 0
    started = time.perf_counter()
    while True:
        seeds = range(pixoid_next, pixoid_next + pixoid_slice)
        pixoid_next += pixoid_slice
        for name, fast in (("pixoid fast", True), ("pixoid events", False)):
            rounds, turns, actions, elapsed = pixoid_games(seeds, fast)
            tally = tallies[name]
            tally.add(len(seeds), actions, elapsed, rounds, turns)
            tally.vs_reference.append(reference_turns(turns, seed=pixoid_next) / elapsed)
        seeds = range(puxes_next, puxes_next + puxes_slice)
        puxes_next += puxes_slice
        for name, fast in (("puxes fast", True), ("puxes events", False)):
            games, actions, elapsed = puxes_games(seeds, fast)
            tally = tallies[name]
            tally.add(games, actions, elapsed)
            reference_rate = reference_chunk / reference_turns(reference_chunk, seed=puxes_next)
            tally.vs_reference.append(1000 * games / elapsed / reference_rate)
        if time.perf_counter() - started >= seconds and len(tallies["puxes fast"].vs_reference) >= 3:
            break
    return tallies


def slice_speedup(fast: Tally, slow: Tally) -> float:
    """The median over slices of the events path's time over the fast path's, same games."""
    return statistics.median(s / f for f, s in zip(fast.slice_seconds, slow.slice_seconds))


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


def clone_us(repeats: int = 5000) -> tuple[float, float]:
    """Mean time of ``clone()`` of a Pixoid and of a PuXes game in mid-play, in microseconds."""
    out = []
    for game in (PixoidGame(PixoidOptions(players=4), seed=3), PuxesGame(seed=3)):
        rng = random.Random(3)
        for _ in range(30):
            player = game.current_players()[0]
            game.apply_unchecked(player, rng.choice(game.legal_actions(player)))
        started = time.perf_counter()
        for _ in range(repeats):
            game.clone()
        out.append((time.perf_counter() - started) / repeats * 1e6)
    return out[0], out[1]


def main() -> int:
    parser = argparse.ArgumentParser(description="Measure the rules engines' speed on one core.")
    parser.add_argument("--seconds", type=float, default=4.0, help="how long to measure (default 4)")
    args = parser.parse_args()
    t = measure(args.seconds)
    fast, slow = t["pixoid fast"], t["pixoid events"]
    print(f"reference loop: 4 tokens on the 12x12 board with walls, timed beside every slice "
          f"({len(fast.vs_reference)} Pixoid and {len(t['puxes fast'].vs_reference)} PuXes slices per path)")
    for label, tally in (("fast path (apply_fast)", fast), ("events path (apply_unchecked)", slow)):
        print(f"pixoid random playouts, {label}: {tally.games} games, {tally.rounds} rounds, {tally.turns} turns, "
              f"{tally.actions} actions in {tally.seconds:.2f} s ({tally.rate(tally.actions):,.0f} actions/s, "
              f"{tally.rate(tally.rounds):,.0f} rounds/s); vs reference {tally.vs():.3f}")
    print(f"pixoid fast path against events path, same games: {slice_speedup(fast, slow):.2f}x")
    print(f"pixoid checked apply of one full turn (4 programs): {checked_turn_us():.1f} us")
    pixoid_clone, puxes_clone = clone_us()
    print(f"clone(): pixoid {pixoid_clone:.1f} us, puxes {puxes_clone:.1f} us")
    pfast, pslow = t["puxes fast"], t["puxes events"]
    for label, tally in (("fast path (apply_fast)", pfast), ("events path (apply_unchecked)", pslow)):
        print(f"puxes random playouts, {label}: {tally.games} games, {tally.actions} actions in {tally.seconds:.2f} s "
              f"({tally.rate(tally.games):.1f} playouts/s, {tally.rate(tally.actions):,.0f} actions/s; "
              f"{tally.vs():.3f} per 1000 reference turns)")
    print(f"puxes fast path against events path, same games: {slice_speedup(pfast, pslow):.2f}x "
          "(the speed-ups of legal_actions and clone serve both paths)")
    pixoid_ratio, puxes_ratio = fast.vs(), pfast.vs()
    before_pixoid = BEFORE["pixoid_vs_reference_ratio"]
    before_puxes = BEFORE["puxes_playouts_per_1000_reference_turns"]
    print(f"before the fast path (recorded, against the same reference): pixoid {before_pixoid:.3f} of the "
          f"reference, puxes {before_puxes:.3f} playouts per 1000 reference turns")
    print(f"puxes_playouts_per_s: {pfast.rate(pfast.games):.1f}")
    print(f"puxes_playouts_per_1000_reference_turns: {puxes_ratio:.3f}")
    print(f"puxes_speedup_vs_before: {puxes_ratio / before_puxes:.2f}")
    print(f"pixoid_speedup_vs_before: {pixoid_ratio / before_pixoid:.2f}")
    print(f"pixoid_rounds_per_s: {fast.rate(fast.rounds):.0f}")
    print(f"pixoid_vs_reference_ratio: {pixoid_ratio:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
