"""The focal length of a lens nobody calibrated: from the mat's markers when the camera is tilted, from
the dice's parallax when it looks straight down."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from table_scenes import match, rms, write_calibration_frames

from controller.cli import main
from controller.vision.geometry import DEFAULT_HFOV_DEG, height_from_parallax, solve_pose_and_lens
from controller.vision.markers import detect_mat_markers
from controller.vision.mat import load_layout
from controller.vision.pipeline import FrameAnalyser, calibrate_dice
from controller.vision.profile import CalibrationError, TableProfile, calibrate_mat
from controller.vision.render import (Die, Lighting, Scene, camera_model, fitting_camera, random_scene, render,
                                      render_empty, visible_tops)

LIGHT = Lighting(noise_sigma=2.0, blur_sigma=0.8)


def _calibrated(hfov: float, tilt: float, given: float | None = None):
    layout = load_layout("puxes")
    spec = fitting_camera(layout, tilt_deg=tilt, yaw_deg=30.0, hfov_deg=hfov)
    profile = calibrate_mat(render_empty(Scene(layout, camera=spec, lighting=LIGHT)), layout, hfov_deg=given)
    return layout, spec, profile


@pytest.mark.parametrize("hfov", [50.0, 102.0])
def test_the_markers_of_a_tilted_camera_tell_its_focal_length(hfov: float) -> None:
    layout, spec, profile = _calibrated(hfov, 15.0)
    truth = camera_model(spec, (layout.width_mm, layout.height_mm))
    assert profile.lens == "markers"
    assert profile.camera.hfov_deg == pytest.approx(hfov, abs=1.0)
    assert profile.camera.height_mm == pytest.approx(truth.height_mm, rel=0.01)
    assert profile.reprojection_rms_px < 0.6
    assert "measured from the mat's markers" in profile.describe_lens()


def test_a_camera_looking_straight_down_leaves_its_markers_silent() -> None:
    layout, spec, profile = _calibrated(90.0, 0.0)
    found = detect_mat_markers(render_empty(Scene(layout, camera=spec, lighting=LIGHT)), layout)
    assert solve_pose_and_lens(found.mat_points, found.image_points, spec.image_size) is None
    # Every focal length explains the markers alike: the one assumed stands until the dice tell.
    assert profile.lens == "assumed" and profile.camera.hfov_deg == pytest.approx(DEFAULT_HFOV_DEG)


def test_the_height_comes_back_from_the_parallax_of_dice() -> None:
    rng = np.random.default_rng(3)
    height, edge, offset = 620.0, 25.0, 0.6
    k = height / (height - edge)
    # Each die's centre, turn (its width away from the nadir, in edges) and silhouette: the base's
    # near side and the top face's far side, each short of the true edge by the offset, and by more
    # at a corner.
    centre = rng.uniform(80, 450, 12)
    widths = rng.uniform(1.0, math.sqrt(2), 12)
    half = edge * widths / 2 - 1.5 * (widths - 1)
    inner = centre - half + offset
    outer = k * (centre + half) - offset + rng.normal(0, 0.3, 12)
    outer[4] += 9.0                      # a die touching another one: far off the others, left out
    shown = height_from_parallax(inner, outer, widths, edge)
    assert shown is not None
    assert shown[0] == pytest.approx(height, rel=0.03)
    assert 0 < shown[1] < 0.05
    # Too few dice, or all as far from the nadir, cannot tell it.
    assert height_from_parallax(inner[:5], outer[:5], widths[:5], edge) is None
    assert height_from_parallax(np.full(8, 200.0), np.full(8, 209.0), widths[:8], edge) is None


@pytest.mark.parametrize("hfov", [90.0, 102.0])
def test_the_dice_tell_the_focal_length_of_a_camera_looking_straight_down(hfov: float) -> None:
    layout, spec, profile = _calibrated(hfov, 0.0)
    truth = camera_model(spec, (layout.width_mm, layout.height_mm))
    dice = render(random_scene(layout, 12, seed=99, camera=spec, lighting=LIGHT)).image
    frame = render(random_scene(layout, 18, seed=21, temples=True, camera=spec, lighting=LIGHT))
    tops = visible_tops(list(frame.truth))
    # Left at 66 degrees, the camera is taken for much higher than it is: dice are placed millimetres
    # off and top faces looked for in the wrong place.
    _, _, given = _calibrated(hfov, 0.0, given=DEFAULT_HFOV_DEG)
    calibrate_dice(layout, given, dice)
    assert given.lens == "given"
    before = match(FrameAnalyser(layout, given).analyse(frame.image).dice, tops)
    assert rms([d for *_, d in before]) > 2.0
    calibrate_dice(layout, profile, dice)
    assert profile.lens == "dice"
    assert profile.camera.hfov_deg == pytest.approx(hfov, abs=6.0)
    assert profile.camera.height_mm == pytest.approx(truth.height_mm, rel=0.1)
    pairs = match(FrameAnalyser(layout, profile).analyse(frame.image).dice, tops)
    assert len(pairs) == len(tops)
    assert rms([d for *_, d in pairs]) < 1.5
    assert all(f.level == t.level and f.face.pips == t.top for f, t, _ in pairs)
    # Calibrating the dice again, with other dice, measures it again: still from the dice.
    calibrate_dice(layout, profile, render(random_scene(layout, 12, seed=98, camera=spec, lighting=LIGHT)).image)
    assert profile.lens == "dice"
    assert profile.camera.hfov_deg == pytest.approx(hfov, abs=6.0)


def test_dice_that_agree_with_the_assumed_lens_leave_it() -> None:
    layout, spec, profile = _calibrated(DEFAULT_HFOV_DEG, 0.0)
    calibrate_dice(layout, profile, render(random_scene(layout, 12, seed=99, camera=spec, lighting=LIGHT)).image)
    assert profile.lens == "checked"
    assert profile.camera.hfov_deg == pytest.approx(DEFAULT_HFOV_DEG)
    assert profile.describe_lens() == "66.0 degree field of view, assumed; the dice's parallax agrees"


def test_dice_huddled_under_the_camera_cannot_tell_it() -> None:
    layout, spec, profile = _calibrated(90.0, 0.0)
    cx, cy = layout.width_mm / 2, layout.height_mm / 2
    huddle = tuple(Die(cx + 45 * math.cos(a), cy + 45 * math.sin(a), 1 + i % 6, 20.0 * i)
                   for i, a in enumerate(np.linspace(0, 2 * math.pi, 7)[:-1]))
    calibrate_dice(layout, profile, render(Scene(layout, huddle, camera=spec, lighting=LIGHT)).image)
    assert profile.lens == "assumed" and profile.camera.hfov_deg == pytest.approx(DEFAULT_HFOV_DEG)


def test_the_lens_is_kept_with_the_profile() -> None:
    layout, spec, profile = _calibrated(102.0, 15.0)
    path = profile.save()
    loaded = TableProfile.load(layout.name)
    assert loaded.lens == "markers" and loaded.camera.hfov_deg == pytest.approx(profile.camera.hfov_deg)
    data = json.loads(path.read_text())
    del data["lens"]                    # a profile saved before the lens was recorded
    path.write_text(json.dumps(data))
    assert TableProfile.load(layout.name).lens == "assumed"
    data["lens"] = "guessed"
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="damaged.*lens 'guessed'.*calibrate again"):
        TableProfile.load(layout.name)


def test_bitbox_calibrate_says_where_the_focal_length_came_from(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    layout = load_layout("puxes")
    write_calibration_frames(tmp_path, layout, fitting_camera(layout, hfov_deg=102.0), LIGHT)
    assert main(["calibrate", "mat", "--layout", "puxes", "--source", str(tmp_path / "empty"), "--frames", "1"]) == 0
    out = capsys.readouterr().out
    assert "lens: 66.0 degree field of view, assumed until bitbox calibrate dice measures it" in out
    assert main(["calibrate", "dice", "--layout", "puxes", "--source", str(tmp_path / "dice")]) == 0
    out = capsys.readouterr().out
    said = re.search(r"lens: ([\d.]+) degree field of view, measured from the dice's parallax; "
                     r"camera (\d+) mm above the mat", out)
    assert said is not None, out
    assert float(said.group(1)) == pytest.approx(102.0, abs=5.0)
    assert TableProfile.load("puxes").lens == "dice"
    # A field of view given by hand stands as given.
    assert main(["calibrate", "mat", "--layout", "puxes", "--source", str(tmp_path / "empty"), "--frames", "1",
                 "--hfov", "100"]) == 0
    assert "lens: 100.0 degree field of view, given (--hfov)" in capsys.readouterr().out
