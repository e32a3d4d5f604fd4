"""The Wuxing board reader on rendered tables: how often it reads each square right, and what it costs.

Each scene is a théâtre position reached by a seeded random game on the printed board, rendered as
:func:`controller.games.wuxing.render.random_conditions` draws real tables: a camera 0.45 to 0.85 m up,
straight or tilted up to 25 degrees and turned any way, 720p to 1296p, daylight, a warm lamp or a
dim room, gradients, glare, blur, noise and JPEG, pawns of 22 to 34 mm in several whites and
blacks, cards of white, cream or grey paper laid a little askew. The camera is calibrated on the
empty board under *another* light drawn the same way (the room changes between calibration and
play). One scene in eight has a hand over the board, which must be reported as occluded.

Figures: squares read right (of squares on boards without a hand); squares read wrong *and* sure
(the ones the referee would act on: the others it asks about); boards read entirely right; hands
caught and boards wrongly called occluded; the reading's time per still frame, and the stillness
check's time per frame (what every frame costs), each also as a share of a 15 fps frame period.

    python bench/wuxing_reader.py [--scenes 80]

The last line is ``wuxing_reader_square_accuracy: N`` (percent).
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

from controller.engines.wuxing import WuxingGame  # noqa: E402
from controller.games.wuxing.board import BoardReading, board_of  # noqa: E402
from controller.games.wuxing.camera import BoardReader  # noqa: E402
from controller.games.wuxing.referee import marks_of  # noqa: E402
from controller.games.wuxing.render import (HandOver, empty_board, marks_scene, random_conditions,  # noqa: E402
                                            render_board)
from controller.vision.mat import load_layout  # noqa: E402
from controller.vision.profile import calibrate_mat  # noqa: E402
from controller.vision.stillness import StillnessDetector  # noqa: E402

FRAME_S = 1 / 15


def position(seed: int) -> str:
    """The marks of a théâtre game on the printed board after a seeded number of random actions."""
    rng = np.random.default_rng(seed)
    game = WuxingGame({"mode": "theatre", "layout": "printed"}, seed=seed)
    for _ in range(int(rng.integers(0, 70))):
        if game.is_over():
            break
        seat = game.current_players()[0]
        actions = game.legal_actions(seat)
        game.apply_fast(seat, actions[int(rng.integers(len(actions)))])
    return marks_of(game)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    layout = load_layout("wuxing")
    board = board_of(layout)
    right = wrong_sure = squares = boards_right = boards = unsure = 0
    hands = hands_caught = false_occluded = 0
    read_s: list[float] = []
    still_s: list[float] = []
    for k in range(args.scenes):
        seed = args.seed * 1000 + k
        rng = np.random.default_rng(seed)
        marks = position(seed)
        play = random_conditions(layout, rng)
        calibration = random_conditions(layout, rng)
        scene = marks_scene(board, marks, rng, seed=seed, **play)
        calibrated = dataclasses.replace(scene, lighting=calibration["lighting"],
                                         white_balance=calibration["white_balance"], jpeg=calibration["jpeg"])
        with_hand = k % 8 == 7
        if with_hand:
            x, y = board.cells[int(rng.integers(25))].centre
            scene = dataclasses.replace(scene, hands=(HandOver(x, y, float(rng.uniform(0, 360)),
                                                               float(rng.uniform(30, 120))),))
        reader = BoardReader(layout, calibrate_mat(empty_board(calibrated), layout))
        frame = render_board(scene).image
        start = time.perf_counter()
        reading: BoardReading = reader.read(frame)
        read_s.append(time.perf_counter() - start)
        detector = StillnessDetector()
        detector.update(frame)
        start = time.perf_counter()
        for _ in range(5):
            detector.update(frame)
        still_s.append((time.perf_counter() - start) / 5)
        if with_hand:
            hands += 1
            hands_caught += reading.occluded
            continue
        boards += 1
        false_occluded += reading.occluded
        if reading.occluded:
            print(f"  scene {k}: nothing over the board, read as occluded", flush=True)
            continue
        got = reading.marks
        squares += 25
        right += sum(a == b for a, b in zip(got, marks))
        wrong_sure += sum(a != b and s.confidence >= BoardReading.SURE for a, b, s in zip(got, marks, reading.squares))
        unsure += len(reading.unsure)
        boards_right += got == marks
        if got != marks:
            print(f"  scene {k}: read {got}\n            true {marks}", flush=True)
    accuracy = 100.0 * right / max(1, squares)
    reading_ms = 1000 * statistics.median(read_s)
    still_ms = 1000 * statistics.median(still_s)
    print(f"scenes: {args.scenes} ({boards} without a hand, {hands} with one)")
    print(f"squares read right: {right} of {squares} ({accuracy:.2f} %)")
    print(f"squares read wrong and sure (acted on): {wrong_sure}; squares asked about: {unsure}")
    print(f"boards read entirely right: {boards_right} of {boards - false_occluded}")
    print(f"hands over the board caught: {hands_caught} of {hands}; boards wrongly called occluded: {false_occluded}")
    print(f"reading a still frame: {reading_ms:.1f} ms median ({reading_ms / 1000 / FRAME_S:.2f} of a 15 fps frame)")
    print(f"stillness check per frame: {still_ms:.2f} ms median ({still_ms / 1000 / FRAME_S:.3f} of a 15 fps frame)")
    print(f"wuxing_reader_square_accuracy: {accuracy:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
