"""The Praxis table reader on rendered tables: how often it reads each ship's colour and face and each
tile's kind right, and what a reading costs.

Each scene is a Praxis position on the printed mat reached by a seeded random game of 2 to 4 players
(the program's rolls included), rendered as :func:`controller.games.praxis.render.random_conditions`
draws real tables: a camera over the mat or off to a side (tilted up to 25 degrees, turned any way),
1080p to 1296p, a lens of 55 to 78 degrees; daylight, a warm lamp or a dim room, gradients, glare on
the dice, blur, noise and JPEG; tiles laid a little off and askew, dice turned any way and a little
off their cells' centres, the ships waiting in their spaceports. The camera is calibrated on the
empty mat under *another* light drawn the same way. One scene in eight has a hand over the mat,
which must be reported as occluded.

Figures: pieces (ships and tiles in the universe) read right, colour and face or kind, and sure (of
the pieces on scenes without a hand); pieces read wrong *and* sure (what the referee would act on:
the others it asks about); empty cells read empty; ships in spaceports counted right; hands caught
and scenes wrongly called occluded; the reading's time per still frame, also as a share of a 15 fps
frame period.

    python bench/praxis_reader.py [--scenes 64] [--seed 1] [--size 1280x720]

The last line is ``praxis_read_accuracy: N`` (percent of pieces read right).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.engines.praxis import PraxisGame  # noqa: E402
from controller.engines.praxis.steps import IN_SPACEPORT  # noqa: E402
from controller.games.praxis.camera import TableReader  # noqa: E402
from controller.games.praxis.reading import PRINTED_LAYOUT, SHIP_COLOURS, mat_universe  # noqa: E402
from controller.games.praxis.referee import roll_through  # noqa: E402
from controller.games.praxis.render import (SIZES, HandOver, cell_contents, contents_scene,  # noqa: E402
                                            empty_table, random_conditions, render_table)
from controller.vision.mat import load_layout  # noqa: E402
from controller.vision.profile import calibrate_mat  # noqa: E402

FRAME_S = 1 / 15


def position(seed: int) -> PraxisGame:
    """A game of 2 to 4 players on the printed mat after a seeded number of random turns."""
    rng = np.random.default_rng(seed)
    game = PraxisGame({"players": int(rng.integers(2, 5)), "layout": [list(p) for p in PRINTED_LAYOUT]}, seed=seed)
    roll_through(game)
    for _ in range(int(rng.integers(0, 90))):
        if game.is_over():
            break
        seat = game.current_players()[0]
        actions = game.legal_actions(seat)
        game.apply_fast(seat, actions[int(rng.integers(len(actions)))])
        roll_through(game)
    return game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default=None, metavar="WxH",
                        help="every camera of this frame size (default: 1080p to 1296p, drawn per scene)")
    args = parser.parse_args()
    sizes = SIZES if args.size is None else (tuple(int(v) for v in args.size.lower().split("x")),)
    layout = load_layout("praxis")
    mat = mat_universe(layout)
    pieces = right = wrong_sure = unsure = 0
    empties = empties_right = 0
    ports = ports_right = 0
    hands = hands_caught = false_occluded = boards = 0
    read_s: list[float] = []
    for k in range(args.scenes):
        seed = args.seed * 1000 + k
        rng = np.random.default_rng(seed)
        game = position(seed)
        contents = cell_contents(game, mat)
        waiting = [[SHIP_COLOURS[seat]] * sum(1 for s in game.ships_of(seat) if game.ship_cell[s] == IN_SPACEPORT)
                   for seat in range(game.num_players)]
        play = random_conditions(layout, rng, sizes)
        calibration = random_conditions(layout, rng, sizes)
        scene = contents_scene(layout, mat, contents, rng, ports=waiting, seed=seed, **play)
        calibrated = dataclasses.replace(scene, lighting=calibration["lighting"],
                                         white_balance=calibration["white_balance"], jpeg=calibration["jpeg"])
        with_hand = k % 8 == 7
        if with_hand:
            x, y = mat.centre(int(rng.integers(36)))
            scene = dataclasses.replace(scene, hands=(HandOver(x, y, float(rng.uniform(0, 360)),
                                                               float(rng.uniform(30, 120))),))
        reader = TableReader(layout, calibrate_mat(empty_table(calibrated), layout))
        frame = render_table(scene).image
        start = time.perf_counter()
        reading = reader.read(frame)
        read_s.append(time.perf_counter() - start)
        if with_hand:
            hands += 1
            hands_caught += reading.occluded
            continue
        boards += 1
        if reading.occluded:
            false_occluded += 1
            print(f"  scene {k}: nothing over the mat, read as occluded", flush=True)
            continue
        for pos, seen in enumerate(reading.cells):
            want = contents.get(pos)
            sure = seen.confidence >= reading.SURE
            if want is None:
                empties += 1
                ok = not seen.kind and seen.colour is None and sure
                empties_right += ok
                if not ok:
                    print(f"  scene {k}: empty {mat.label(pos)} read {seen.code} ({seen.note})", flush=True)
                continue
            pieces += 1
            what, which, face = want
            truth = (which, None, 0) if what == "tile" else (0, SHIP_COLOURS[which], face)
            got = (seen.kind, seen.colour, seen.face)
            ok = got == truth
            right += ok and sure
            wrong_sure += (not ok) and sure
            unsure += not sure
            if not (ok and sure):
                print(f"  scene {k}: {mat.label(pos)} is {truth}, read {got} at {seen.confidence:.2f} "
                      f"({seen.note})", flush=True)
        for seat, colours in enumerate(waiting):
            ports += 1
            ports_right += tuple(reading.ports[seat].ships) == tuple(colours)
    accuracy = 100.0 * right / max(1, pieces)
    reading_ms = 1000 * statistics.median(read_s)
    print(f"scenes: {args.scenes} ({boards} without a hand, {hands} with one), seed {args.seed}, "
          f"frames {' or '.join(f'{w}x{h}' for w, h in sizes)}")
    print(f"pieces read right (ship colour and face, tile kind): {right} of {pieces} ({accuracy:.2f} %)")
    print(f"pieces read wrong and sure (acted on): {wrong_sure}; pieces asked about: {unsure}")
    print(f"empty cells read empty: {empties_right} of {empties}")
    print(f"spaceports' waiting ships counted right: {ports_right} of {ports}")
    print(f"hands over the mat caught: {hands_caught} of {hands}; scenes wrongly called occluded: {false_occluded}")
    print(f"reading a still frame: {reading_ms:.0f} ms median ({reading_ms / 1000 / FRAME_S:.2f} of a 15 fps frame)")
    print(f"praxis_read_accuracy: {accuracy:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
