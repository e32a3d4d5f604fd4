"""Frames wider than the analysis width: analysed reduced, their dice's faces cut from the full frame."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import faces as calib
from controller.vision.faces import FaceLibrary
from controller.vision.frames import ANALYSIS_WIDTH, DetailedFrame, analysis_frame, detail_of, reduction
from controller.vision.sources import SourceError, open_source

CHARACTERS = ["oni", "crane-yorick", "mr-blaireau", "arkan-sonney", "hanuman"]


def test_wide_frames_are_reduced_by_a_whole_factor_and_keep_their_full_view() -> None:
    assert ANALYSIS_WIDTH == 2304
    assert [reduction(*size) for size in ((1280, 720), (2304, 1296), (3840, 2160), (4608, 2592), (6000, 4000))] \
        == [1, 1, 2, 2, 3]
    odd = analysis_frame(np.zeros((3001, 4001, 3), np.uint8))
    assert odd.shape == (1500, 2000, 3) and detail_of(odd).shape == (3001, 4001, 3)
    narrow = np.zeros((720, 1280, 3), np.uint8)
    assert analysis_frame(narrow) is narrow and detail_of(narrow) is None
    wide = np.zeros((1350, 2400, 3), np.uint8)
    wide[:, 1200:] = 200
    reduced = analysis_frame(wide)
    assert isinstance(reduced, DetailedFrame) and reduced.shape == (675, 1200, 3)
    assert detail_of(reduced) is wide
    assert reduced[0, 599].tolist() == [0, 0, 0] and reduced[0, 600].tolist() == [200, 200, 200]
    # What is made from the reduced frame is a plain frame: its full view is no longer the same view.
    assert detail_of(reduced[10:20]) is None and detail_of(reduced.copy()) is None
    assert detail_of(cv2.GaussianBlur(reduced, (3, 3), 0)) is None


def test_an_image_wider_than_the_analysis_comes_reduced_with_its_full_view(tmp_path: Path) -> None:
    image = np.random.default_rng(1).integers(0, 255, (1350, 2400, 3), dtype=np.uint8)
    cv2.imwrite(str(tmp_path / "wide.png"), image)
    frame = open_source(str(tmp_path / "wide.png")).read()
    assert frame.shape == (675, 1200, 3)
    assert np.array_equal(detail_of(frame), image)


@pytest.mark.parametrize("spec", ["picamera2:0:4608x", "pi:4608xbig", "picamera2:x"])
def test_a_pi_camera_size_is_checked_before_the_camera_is_opened(spec: str) -> None:
    with pytest.raises(SourceError, match=r"picamera2\[:INDEX\]\[:WIDTHxHEIGHT\]"):
        open_source(spec)


def test_the_faces_are_cut_from_the_full_frame_and_read_there() -> None:
    """A 3840 x 2160 camera: the mat calibrated and the table analysed at 1920 x 1080, every face taught
    and read from the full frame: the same face as at the reduced size, with twice the pixels."""
    from controller.vision.mat import load_layout
    from controller.vision.pipeline import FrameAnalyser
    from controller.vision.profile import calibrate_mat
    from controller.vision.render import Die, Lighting, Scene, fitting_camera, render, render_empty

    lay = load_layout("puxes")
    camera = fitting_camera(lay, image_size=(3840, 2160), fill=0.85)
    profile = calibrate_mat(analysis_frame(render_empty(Scene(lay, camera=camera, lighting=Lighting()))), lay)
    assert profile.camera.image_size == (1920, 1080)
    shown = iter(analysis_frame(render(Scene(lay, dice=(Die(450.0 + 9 * k, 300.0 - 7 * k, face, 13.0 + 17 * k),),
                                             camera=camera, lighting=Lighting(), seed=k)).image)
                 for k, face in enumerate(CHARACTERS))
    lib = calib.calibrate("dixe", CHARACTERS, lambda: next(shown), ask=lambda prompt: "", library=FaceLibrary(),
                          say=lambda text: None, analyser=FrameAnalyser(lay, profile))
    assert len(lib) == len(CHARACTERS)
    places = [(120.0 + 160 * (i % 5), 130.0 + 330 * (i // 5), 7.0 + 19 * i) for i in range(10)]
    faces = list(reversed(CHARACTERS)) + CHARACTERS
    table = Scene(lay, dice=tuple(Die(x, y, f, a) for (x, y, a), f in zip(places, faces)), camera=camera,
                  lighting=Lighting(brightness=0.9, gradient=0.2), seed=21)
    frame = analysis_frame(render(table).image)
    analyser = FrameAnalyser(lay, profile, faces=lib)
    read: list[str | None] = [None] * len(places)
    for die in analyser.analyse(frame).dice:
        i = min(range(len(places)), key=lambda j: math.hypot(places[j][0] - die.x_mm, places[j][1] - die.y_mm))
        read[i] = die.face.symbol
        at, height = np.array([die.x_mm, die.y_mm]), die.level * analyser.edge
        full, full_px = analyser.reader.crop(frame, at, height, die.angle_deg)
        small, small_px = analyser.reader.crop(np.asarray(frame), at, height, die.angle_deg)
        assert full_px >= 1.9 * small_px
        # The same face, where the reduced frame has it: the pixels are matched, not shifted or scaled.
        blurred = [cv2.GaussianBlur(c, (0, 0), 2.0).astype(np.float32).ravel() for c in (full, small)]
        assert np.corrcoef(*blurred)[0, 1] > 0.95
    assert read == faces
