"""The face reader on its own: a top face cut from the camera frame and read, the readings kept from one
frame to the next, and an analyser reading through another reader put in its place."""

from __future__ import annotations

import numpy as np
from table_scenes import analyser_for, layout

from controller.vision.analysis import FoundDie
from controller.vision.face_reading import FaceReader
from controller.vision.render import Die, Scene, render


def _table() -> tuple[np.ndarray, list[FoundDie], float, FaceReader]:
    analyser, cam = analyser_for("puxes", 0.0)
    frame = render(Scene(layout("puxes"), (Die(300, 300, 5, 30), Die(620, 180, 2, 10)), camera=cam, seed=3))
    found = sorted(analyser.analyse(frame.image).dice, key=lambda d: d.x_mm)
    return frame.image, found, analyser.edge, FaceReader(analyser.profile)


def test_a_face_reader_alone_reads_each_die_where_the_analyser_found_it() -> None:
    image, found, edge, reader = _table()
    assert [d.face.pips for d in found] == [5, 2]
    for d, pips in zip(found, (5, 2)):
        at = np.array([d.x_mm, d.y_mm])
        crop, source_px = reader.crop(image, at, d.level * edge, d.angle_deg)
        assert crop.shape == (90, 90, 3) and source_px > 10
        assert reader.read(image, at, d.level * edge, d.angle_deg).pips == pips
        assert reader.read_crop(crop, source_px).pips == pips
    # Cut where no die stands, the mat reads as no face.
    assert not reader.read(image, np.array([450.0, 300.0]), edge, 0.0).readable


def test_the_readings_of_the_last_frame_are_kept_for_dice_that_did_not_move() -> None:
    _, found, _, reader = _table()
    die = found[0]
    at = np.array([die.x_mm, die.y_mm])
    assert reader.cached(at, die.angle_deg, die.level) is None
    reader.remember(found)
    assert reader.cached(at, die.angle_deg, die.level) == (die.face, die.colour)
    assert reader.cached(at + (3.0, 0.0), die.angle_deg, die.level) is None        # moved
    assert reader.cached(at, die.angle_deg + 10.0, die.level) is None               # turned
    assert reader.cached(at, die.angle_deg, 2) is None                              # a stack's top now
    reader.forget()
    assert reader.cached(at, die.angle_deg, die.level) is None


class _CountingReader(FaceReader):
    """A face reader counting the dice it is asked to read."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.asked = 0

    def finish(self, frame: np.ndarray, dice: list[FoundDie]) -> list[FoundDie]:
        self.asked += len(dice)
        return super().finish(frame, dice)


def test_an_analyser_reads_through_the_reader_put_in_its_place() -> None:
    analyser, cam = analyser_for("puxes", 0.0)
    frame = render(Scene(layout("puxes"), (Die(300, 300, 5, 30), Die(620, 180, 2, 10)), camera=cam, seed=3))
    counting = _CountingReader(analyser.profile)
    analyser.reader = counting
    assert analyser.measurer.reader is counting
    found = analyser.analyse(frame.image).dice
    assert counting.asked == 2
    assert sorted(d.face.pips for d in found) == [2, 5]
    assert len(counting.readings) == 2            # kept for the next frame
