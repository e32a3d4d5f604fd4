"""No call while a die moves: the stillness detector on rendered rolls, and on recorded ones.

Each rendered roll starts on a still table, throws three to six dice that tumble (a new face and turn
while fast) and slow down, each stopping at its own moment; in most rolls one die goes on sliding
slowly (0.25 to 1.5 mm a frame) after the others have stopped, and in some the camera shakes during
the roll (until the dice stop), or shakes slightly from the throw on, never stopping. Frames come at 30 per second at 1280 x 720 with sensor
noise, and are given to the detector as the table camera gives its previews (320 x 180).

For each roll it counts the frames the detector calls still while a die moves (``false_still_frames``,
which must be 0), and the delay from the frame the last die stops to the frame the table is called
still (the goal: at most 300 ms). The detector the table used before (the mean grey change over the
whole frame, held 12 frames) runs on the same frames as a reference.

Recorded rolls: ``--videos DIR`` reads every video in DIR with a text file of the same name beside it
(``roll1.mp4`` and ``roll1.txt``), one line per roll: the frame index where the motion starts and the
frame index where the last die stops (0-based, a space between). ::

    python bench/stillness.py [--rolls 24] [--seed 1] [--videos DIR]

The last line is ``false_still_frames: N`` over every roll, rendered and recorded.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.vision.mat import load_layout  # noqa: E402
from controller.vision.render import Die, Lighting, Scene, fitting_camera, render  # noqa: E402
from controller.vision.stillness import MotionState, StillnessDetector  # noqa: E402

FPS = 30.0
PREVIEW = (320, 180)
SYMBOLS = ("soleil", "lune", "bombe", "oeil", "coeur", "yin-yang")


class MeanDetector:
    """The detector the table used before, as a reference: the mean absolute grey change between
    consecutive 160-pixel-wide frames under 0.5, held 12 frames."""

    def __init__(self, threshold: float = 0.5, hold_frames: int = 12) -> None:
        self.threshold, self.hold_frames = threshold, hold_frames
        self._prev: np.ndarray | None = None
        self._quiet = 0

    def update(self, frame: np.ndarray, t: float = 0.0) -> MotionState:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (160, round(grey.shape[0] * 160 / grey.shape[1])),
                           interpolation=cv2.INTER_AREA).astype(np.float32)
        prev, self._prev = self._prev, small
        if prev is None or float(np.mean(np.abs(small - prev))) >= self.threshold:
            self._quiet = 0
            return MotionState.MOVING if prev is not None else MotionState.SETTLING
        self._quiet += 1
        return MotionState.STILL if self._quiet >= self.hold_frames else MotionState.SETTLING


@dataclasses.dataclass
class Roll:
    """A sequence of frames with the frame the motion starts at and the frame the last die stops at."""

    name: str
    frames: list[np.ndarray]
    start: int
    rest: int


def _path(rng: np.random.Generator, x0: float, y0: float, frames: int, stop: int, bounds: tuple[float, float],
          slow: tuple[int, float] | None) -> list[tuple[float, float, float, bool]]:
    """A die's (x, y, angle, tumbling) for each frame: thrown at ``x0, y0``, slowing down to stop at
    frame ``stop``; ``slow``: then sliding on for that many frames at that many mm a frame."""
    heading = rng.uniform(0, 2 * math.pi)
    speed0 = rng.uniform(25, 45)
    x, y, angle = x0, y0, rng.uniform(0, 90)
    out = []
    slide_left, slide_speed = slow if slow else (0, 0.0)
    for f in range(frames):
        if f < stop:
            speed = speed0 * (1 - f / stop) ** 1.5 + 0.5
        elif slide_left > 0:
            speed, slide_left = slide_speed, slide_left - 1
        else:
            speed = 0.0
        x += speed * math.cos(heading)
        y += speed * math.sin(heading)
        if not (30 < x < bounds[0] - 30):
            heading = math.pi - heading
            x = min(max(x, 30), bounds[0] - 30)
        if not (30 < y < bounds[1] - 30):
            heading = -heading
            y = min(max(y, 30), bounds[1] - 30)
        angle += speed * 2.0
        out.append((x, y, angle, speed > 6.0))
    return out


def rendered_roll(index: int, seed: int) -> Roll:
    """One rendered roll, its kind chosen by ``index`` and its details by ``seed``."""
    rng = np.random.default_rng(seed * 1000 + index)
    layout = load_layout("puxes")
    camera = fitting_camera(layout)
    lighting = Lighting(noise_sigma=float(rng.uniform(1.0, 3.0)), brightness=float(rng.uniform(0.8, 1.15)))
    n = int(rng.integers(3, 7))
    faces: list[int | str] = [int(rng.integers(1, 7)) if index % 2 else SYMBOLS[int(rng.integers(6))] for _ in range(n)]
    slow = index % 4 != 3                            # most rolls: one die slides on slowly
    shake_during = index % 3 == 1
    shake_after = index % 6 == 5
    before, after = 6, 24
    stops = [int(rng.integers(8, 22)) for _ in range(n)]
    slide = (int(rng.integers(6, 22)), float(rng.uniform(0.25, 1.5))) if slow else None
    rolling = max(stops) + (slide[0] if slide else 0)
    frames_n = before + rolling + after
    bounds = (layout.width_mm, layout.height_mm)
    paths = [_path(rng, rng.uniform(150, bounds[0] - 150), rng.uniform(120, bounds[1] - 120), rolling + after,
                   stops[i], bounds, slide if i == 0 else None) for i in range(n)]
    scenes, rest = [], before
    for f in range(frames_n):
        k = max(0, f - before)
        dice = []
        for i, path in enumerate(paths):
            x, y, angle, tumbling = path[k] if f >= before else path[0]
            face = faces[i] if not tumbling or f < before else (
                int(rng.integers(1, 7)) if isinstance(faces[i], int) else SYMBOLS[int(rng.integers(6))])
            dice.append(Die(x, y, face, angle))
        if f >= before and scenes and tuple(dice) != scenes[-1]:
            rest = f                                     # the first frame showing every die where it stops
        scenes.append(tuple(dice))
    frames = []
    for f, dice in enumerate(scenes):
        image = render(Scene(layout, dice=dice, camera=camera, lighting=lighting,
                             seed=seed * 100_000 + index * 1000 + f)).image
        sigma = 3.0 if (shake_during and before <= f < rest) else (0.6 if shake_after and f >= before else 0.0)
        if sigma:
            dx, dy = rng.normal(0, sigma, 2)
            image = cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), (image.shape[1], image.shape[0]),
                                   borderMode=cv2.BORDER_REPLICATE)
        frames.append(cv2.resize(image, PREVIEW, interpolation=cv2.INTER_AREA))
    kind = "+".join(k for k, on in (("slow slide", slow), ("shake", shake_during), ("slight shake after", shake_after)) if on)
    return Roll(f"rendered {index} ({n} dice{', ' + kind if kind else ''})", frames, before, rest)


def recorded_rolls(folder: Path) -> list[Roll]:
    """Every video in ``folder`` with its rolls listed beside it (see the module's docstring)."""
    rolls = []
    for video in sorted(p for p in folder.iterdir() if p.suffix.lower() in (".mp4", ".mov", ".avi", ".mkv", ".webm")):
        marks = video.with_suffix(".txt")
        if not marks.exists():
            print(f"{video.name}: no {marks.name} beside it with the rolls' frames; skipped", file=sys.stderr)
            continue
        capture = cv2.VideoCapture(str(video))
        frames = []
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            h, w = frame.shape[:2]
            frames.append(cv2.resize(frame, (320, round(h * 320 / w)), interpolation=cv2.INTER_AREA))
        capture.release()
        for n, line in enumerate(marks.read_text().split("\n"), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                start, rest = (int(v) for v in line.split())
            except ValueError:
                raise SystemExit(f"{marks}:{n}: expected two frame numbers, the motion's start and the rest, "
                                 f"not {line!r}") from None
            if not 0 <= start < rest < len(frames):
                raise SystemExit(f"{marks}:{n}: frames {start} and {rest} are not within the video's {len(frames)}")
            rolls.append(Roll(f"{video.name} roll {n}", frames, start, rest))
    return rolls


def judge(detector: object, roll: Roll) -> tuple[int, float | None, float]:
    """False still frames, the rest → still delay in ms (None: never still), and ms per frame."""
    states = []
    t0 = time.perf_counter()
    for i, frame in enumerate(roll.frames):
        states.append(detector.update(frame, i / FPS))  # type: ignore[attr-defined]
    per_frame = (time.perf_counter() - t0) / len(roll.frames) * 1000
    false_still = sum(s is MotionState.STILL for s in states[roll.start:roll.rest])
    still_after = next((i for i in range(roll.rest, len(states)) if states[i] is MotionState.STILL), None)
    return false_still, (None if still_after is None else (still_after - roll.rest) / FPS * 1000), per_frame


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=24, help="rendered rolls (default 24)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--videos", type=Path, help="a folder of recorded rolls (see the module's docstring)")
    parser.add_argument("--verbose", action="store_true", help="a line per roll")
    args = parser.parse_args()
    t0 = time.perf_counter()
    rolls = [rendered_roll(i, args.seed) for i in range(args.rolls)]
    print(f"{len(rolls)} rendered rolls in {time.perf_counter() - t0:.0f} s (seed {args.seed})")
    groups = [("rendered", rolls)]
    if args.videos:
        recorded = recorded_rolls(args.videos)
        groups.append(("recorded", recorded))
        print(f"{len(recorded)} recorded rolls from {args.videos}")
    total_false = 0
    for group, group_rolls in groups:
        if not group_rolls:
            continue
        for name, make in (("region detector", StillnessDetector), ("reference: mean detector", MeanDetector)):
            false_frames, delays, never, times = 0, [], 0, []
            for roll in group_rolls:
                false_still, delay, ms = judge(make(), roll)
                false_frames += false_still
                times.append(ms)
                if delay is None:
                    never += 1
                else:
                    delays.append(delay)
                if args.verbose:
                    print(f"  {name}: {roll.name}: {false_still} false still frames, "
                          f"{'never still' if delay is None else f'still {delay:.0f} ms after the rest'}")
            if make is StillnessDetector:
                total_false += false_frames
            median = statistics.median(delays) if delays else float("nan")
            worst = max(delays) if delays else float("nan")
            print(f"{group}, {name}: {false_frames} frames called still while a die moved, over "
                  f"{len(group_rolls)} rolls; rest -> still median {median:.0f} ms, worst {worst:.0f} ms "
                  f"(goal 300 ms); never still after the rest: {never}; {statistics.median(times):.2f} ms a frame")
    print(f"false_still_frames: {total_false}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
