"""Wheel reading: misreads under noise and resistor tolerance, and how long a turn takes to report.

1. Ladder margin: Monte Carlo over ladders built from 1 % resistors (uniform within tolerance),
   read by a 12-bit ADC with offset, gain error and Gaussian noise, classified with the
   *nominal* (uncalibrated) ladder of ``hardware/ladders.toml``. Counts wrong positions (a
   reading classified as another position) and "no position" readings.
2. Turns: simulated controllers (the real ladder and debounce code, noisy readings) turned to
   random positions, sampled at the design's rate. Counts positions reported that the wheel was
   not set to, and measures the delay from the wheel reaching its position to the report.

    python bench/ladders.py [--trials 2000] [--turns 400] [--noise-lsb 2]

The last line is ``dials_wrong_reports: N`` (0 is the only good value).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.dials.ladders import WHEEL_ORDER, load_design  # noqa: E402
from controller.dials.sim_backend import STEP_OPEN_S, STEP_REST_S, ManualClock, SimBackend  # noqa: E402
from firmware.ladder_maths import nominal_centres  # noqa: E402


def ladder_margin(trials: int, noise_lsb: float, seed: int) -> dict[str, tuple[int, int, int]]:
    """Per wheel: (readings, wrong positions, no-position readings) with the nominal ladder."""
    design = load_design()
    rng = random.Random(seed)
    tol = 0.01
    out = {}
    for wheel in WHEEL_ORDER:
        w = design.wheel(wheel)
        ladder = design.nominal_ladder(wheel)
        readings = wrong = none = 0
        for _ in range(trials):
            resistors = [r * (1 + rng.uniform(-tol, tol)) for r in w.resistors_ohms]
            pulldown = design.pulldown_ohms * (1 + rng.uniform(-tol, tol))
            true = nominal_centres(w.positions, resistors, pulldown)
            offset = rng.uniform(-8, 8)            # LSB, 12-bit
            gain = 1 + rng.uniform(-0.01, 0.01)
            for pos, u16 in enumerate(true):
                code = round((u16 / 16) * gain + offset + rng.gauss(0, noise_lsb))
                code = max(0, min(4095, code))
                ladder.reset()
                got = ladder.classify(code << 4)
                readings += 1
                if got == -1:
                    none += 1
                elif got != pos:
                    wrong += 1
        out[wheel] = (readings, wrong, none)
    return out


def turns(count: int, noise_lsb: float, seed: int) -> tuple[int, int, list[float]]:
    """(turns made, wrong positions reported, report delays in ms after the wheel arrived)."""
    design = load_design()
    rng = random.Random(seed)
    clock = ManualClock()
    sim = SimBackend(["1"], clock=clock, poll_thread=False, noise_u16=noise_lsb * 16, seed=seed)
    sim.start()
    sim.advance(0.2)
    step = 1.0 / design.timings.sample_hz
    wrong = 0
    delays = []
    for _ in range(count):
        wheel = rng.choice(WHEEL_ORDER)
        here = sim.state("1").wheel(wheel)
        target = rng.randrange(design.wheel(wheel).positions)
        if target == here:
            continue
        sim.turn("1", wheel, target)
        travel = abs(target - here) * (STEP_OPEN_S + STEP_REST_S) if here is not None else STEP_OPEN_S
        start = clock.now
        reported = None
        while clock.now - start < travel + 0.5:
            sim.advance(step)
            value = sim.state("1").wheel(wheel)
            if value is not None and value not in (here, target):
                wrong += 1
            if value == target and reported is None:
                reported = clock.now
                break
        if reported is None:
            wrong += 1
        else:
            delays.append((reported - start - travel + STEP_REST_S) * 1000)
    sim.close()
    return count, wrong, delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=2000, help="ladders built per wheel (default 2000)")
    parser.add_argument("--turns", type=int, default=400, help="simulated turns (default 400)")
    parser.add_argument("--noise-lsb", type=float, default=2.0, help="ADC noise, LSB RMS on 12 bits (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    total_wrong = 0
    for wheel, (readings, wrong, none) in ladder_margin(args.trials, args.noise_lsb, args.seed).items():
        print(f"{wheel:>9} wheel, nominal ladder, 1 % resistors, +-8 LSB offset, +-1 % gain, "
              f"{args.noise_lsb} LSB noise: {readings} readings, {wrong} wrong, {none} no position")
        total_wrong += wrong
    made, wrong, delays = turns(args.turns, args.noise_lsb, args.seed)
    total_wrong += wrong
    if delays:
        print(f"turns: {made}, wrong or missing reports: {wrong}, report delay after arrival: "
              f"median {statistics.median(delays):.1f} ms, max {max(delays):.1f} ms")
    print(f"dials_wrong_reports: {total_wrong}")


if __name__ == "__main__":
    main()
