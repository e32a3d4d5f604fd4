"""The MémoDiXe square reader on rendered tables: how often it reads each top face right, and how fast
a « DiXe ! » call is checked from the frame.

Each table is drawn as :func:`controller.games.memodixe.render.random_conditions` draws real ones, at
the resolution docs/table-camera.md names (1280 x 720): a camera straight or tilted up to 20 degrees
and turned any way, filling 80 to 95 % of the frame, daylight to a dim room with a gradient, glare,
lens blur, sensor noise and, half the time, JPEG at quality 75 to 95. The mat is calibrated and the
faces are taught (as ``bitbox calibrate faces`` does) under *another* light, without JPEG. Each square
holds nine DiXes of the dice data, each on a face drawn at random, lying up to 14 mm off its place's
centre and turned any way; one square in six has a hand over it, which must be reported.

Figures: faces read right (the kind a face pairs as, which is what the game needs), as the referee
reads them (knowing which die lies there) and with no such knowledge; faces read wrong *and* sure (what
the referee would act on: the others it asks about); hands caught; the full reading's time per still
frame; and the « DiXe ! » check from the frame (the square's dice read again where they lie, the hidden
faces from the dice layouts, the verdict), with the verdict checked against the engine's, as a figure,
against the 100 ms goal, and as a ratio to the vision pipeline's own analysis of the same frame.

    python bench/memodixe_reader.py [--tables 12] [--squares 8] [--seed 20261125]

The last line is ``memodixe_symbol_accuracy: N`` (percent).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.engines.core import CHANCE
from controller.engines.memodixe import MemodixeGame, Roll, default_book
from controller.games.memodixe import render as R
from controller.games.memodixe.camera import SquareReader
from controller.games.memodixe.layouts import FaceLayouts
from controller.games.memodixe.referee import MemodixeReferee
from controller.referee.common import RefereeConfig
from controller.vision.mat import load_layout
from controller.vision.profile import calibrate_mat
from controller.vision.render import Hand, Lighting, render_empty

GOAL_S = 0.100
logging.getLogger("controller").setLevel(logging.ERROR)   # the light notices of every re-lit frame


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=12, help="tables (camera, light) drawn (default 12)")
    parser.add_argument("--squares", type=int, default=8, help="squares read on each table (default 8)")
    parser.add_argument("--seed", type=int, default=20261125, help="the seed everything is drawn from")
    args = parser.parse_args()
    book = default_book()
    layout = load_layout("memodixe")
    rng = np.random.default_rng(args.seed)
    dice_names = list(book.dice)
    faces = right = right_blind = wrong_sure = asked = 0
    hands = hands_caught = false_hands = 0
    verdicts = verdicts_right = 0
    read_s: list[float] = []
    check_s: list[float] = []
    analyse_s: list[float] = []
    config = RefereeConfig()
    for table in range(args.tables):
        conditions = R.random_conditions(layout, rng)
        calibration = dataclasses.replace(conditions, lighting=Lighting(), jpeg=None)
        profile = calibrate_mat(render_empty(R.scene(layout, book, [], calibration, table)), layout)
        library = R.teach_faces(layout, profile, book, calibration)
        layouts = FaceLayouts.from_book(book)
        reader = SquareReader(layout, profile, library, layouts)
        for square in range(args.squares):
            placed = []
            for place in range(9):
                die = dice_names[int(rng.integers(len(dice_names)))]
                top = book.dice[die][int(rng.integers(6))]
                x, y = R.place_centre(layout, place)
                dx, dy = rng.uniform(-14, 14, 2)
                placed.append(R.Placed(die, top, x + float(dx), y + float(dy), float(rng.uniform(0, 90))))
            hand = square % 6 == 5
            over = (Hand(float(rng.uniform(100, 260)), float(rng.uniform(100, 260)), float(rng.uniform(0, 360)),
                         float(rng.uniform(40, 90))),) if hand else ()
            frame = R.frame(R.scene(layout, book, placed, conditions, 1000 * table + square, over), conditions.jpeg)
            reading = reader.read(frame)
            read_s.append(reading.read_s)
            if hand:
                hands += 1
                hands_caught += reading.occluded
                continue
            false_hands += reading.occluded
            for place, p in enumerate(placed):
                faces += 1
                kind, _face, conf = reading.read_as(place, p.die)
                truth = book.kind(p.top)
                right += kind == truth
                seen = reading.places[place]
                right_blind += seen is not None and seen.kind == truth
                wrong_sure += kind is not None and kind != truth and conf >= config.min_confidence
                asked += kind is None or conf < config.min_confidence
            # « DiXe ! » from this frame: a game holding these very dice as they lie.
            game = MemodixeGame({"players": 2, "dice": [p.die for p in placed] + dice_names[:2]}, seed=square)
            for p in placed:
                game.apply(CHANCE, Roll(p.top))
            referee = MemodixeReferee(game, config, layouts)
            referee.observe(reading)
            start = time.perf_counter()
            again = reader.verify(frame, reading)
            verdict, _pair, _why = referee.dixe_check(again)
            check_s.append(time.perf_counter() - start)
            start = time.perf_counter()
            reader.analyser.analyse(frame)
            analyse_s.append(time.perf_counter() - start)
            if verdict != "unsure":
                verdicts += 1
                verdicts_right += (verdict == "wrong") == game.pair_left()
    accuracy = 100.0 * right / max(1, faces)
    check = statistics.median(check_s)
    analyse = statistics.median(analyse_s)
    print(f"tables: {args.tables}, squares: {args.tables * args.squares}, faces: {faces}, seed {args.seed}, "
          "1280 x 720")
    print(f"faces read right, knowing the die (as the referee reads): {right}/{faces} = {accuracy:.2f} %")
    print(f"faces read right, not knowing the die: {right_blind}/{faces} = {100.0 * right_blind / max(1, faces):.2f} %")
    print(f"faces read wrong and sure (acted on): {wrong_sure}; asked (unreadable or unsure): {asked} "
          f"({100.0 * asked / max(1, faces):.2f} %)")
    print(f"hands over the square caught: {hands_caught}/{hands}; squares wrongly taken for a hand: {false_hands}")
    print(f"full reading per still frame: median {1000 * statistics.median(read_s):.1f} ms, "
          f"max {1000 * max(read_s):.1f} ms")
    print(f"« DiXe ! » checked from the frame: median {1000 * check:.1f} ms, max {1000 * max(check_s):.1f} ms "
          f"(goal {1000 * GOAL_S:.0f} ms: {check / GOAL_S:.2f} of it); verdicts given {verdicts}/{len(check_s)}, "
          f"agreeing with the engine {verdicts_right}/{verdicts}")
    print(f"reference, the vision pipeline's analysis of the same frame: median {1000 * analyse:.1f} ms; "
          f"check / analysis = {check / analyse:.2f}")
    print(f"memodixe_dixe_check_ms: {1000 * check:.1f}")
    print(f"memodixe_symbol_accuracy: {accuracy:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
