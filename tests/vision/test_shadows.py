"""Shadows of a tinted light: the tint learnt from the dice's shadows, and the table seeing through them."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from table_scenes import match, rms, write_calibration_frames

from controller.cli import main
from controller.vision.mat import load_layout
from controller.vision.pipeline import FrameAnalyser, TableWatcher, calibrate_dice
from controller.vision.profile import CalibrationError, TableProfile, calibrate_mat
from controller.vision.render import (Lighting, Scene, fitting_camera, random_scene, render, render_empty,
                                      visible_tops)
from controller.vision.shadows import NEUTRAL, check_tint, explained_by_light, fit_tint, untinted

#: A warm lamp's shadows filled by daylight: red darkens 25 % more than the mean, blue 25 % less.
WARM_LAMP = (0.75, 1.0, 1.25)


def shadowed(mat_bgr: np.ndarray, depth: np.ndarray, tint: tuple[float, float, float]) -> np.ndarray:
    return mat_bgr * (1.0 - depth[:, None] * np.asarray(tint))


def test_a_tinted_shadow_is_explained_once_its_tint_is_known_on_any_print() -> None:
    """The same shadow on prints of four colours: the channels darken unlike each other, so a neutral
    light does not explain it; the tint does, whatever the print. A die's grey side on the pink print
    is as dark, but the tint does not explain it either."""
    prints = np.array([[200, 160, 110], [150, 200, 140], [170, 140, 220], [235, 235, 235]], np.float32)
    depth = np.full(4, 0.5, np.float32)
    ratio = shadowed(prints, depth, WARM_LAMP) / prints
    assert not explained_by_light(ratio).any()
    assert explained_by_light(untinted(ratio, WARM_LAMP)).all()
    grey_side = np.array([[95, 95, 95]], np.float32) / prints[2]
    assert not explained_by_light(untinted(grey_side, WARM_LAMP)).any()


def test_the_tint_is_the_shadows_own_among_pixels_that_are_not_shadows() -> None:
    """Shadow pixels of several depths on several prints, with as many pixels of dice's sides (each a
    different darkening) and lit mat: the fitted tint is the shadows'."""
    rng = np.random.default_rng(0)
    prints = rng.uniform(80, 240, (600, 3)).astype(np.float32)
    depth = rng.uniform(0.2, 0.6, 600).astype(np.float32)
    shadow = shadowed(prints, depth, WARM_LAMP) + rng.normal(0, 1.5, (600, 3))
    sides_before = rng.uniform(80, 240, (600, 3)).astype(np.float32)
    sides = rng.uniform(20, 120, (600, 3)).astype(np.float32)
    lit = prints + rng.normal(0, 1.5, (600, 3))
    fit = fit_tint(np.vstack([shadow, sides, lit]), np.vstack([prints, sides_before, prints]), min_pixels=100)
    assert fit is not None
    tint, agree = fit
    assert np.allclose(tint, WARM_LAMP, atol=0.02)
    assert agree[:600].sum() > 300 and agree[600:].sum() < 30     # the shadows agree, the rest hardly
    assert fit_tint(lit, prints, min_pixels=100) is None      # no shadow at all: nothing to learn


def test_a_stored_tint_is_checked_and_normalised() -> None:
    assert check_tint([1.5, 2.0, 2.5]) == pytest.approx(WARM_LAMP)
    for bad in ([1.0, 1.0], [1.0, -1.0, 1.0], [1.0, float("nan"), 1.0]):
        with pytest.raises(ValueError, match="shadow tint"):
            check_tint(bad)


def _table():
    """The PuXes mat under a slightly tilted camera, calibrated empty."""
    layout = load_layout("puxes")
    cam = fitting_camera(layout, tilt_deg=8.0, yaw_deg=30.0)
    profile = calibrate_mat(render_empty(Scene(layout, camera=cam)), layout)
    return layout, cam, profile


def test_calibrating_the_dice_under_a_warm_lamp_in_daylight_learns_its_tint_and_sees_through_its_shadows() -> None:
    """Deep shadows tinted 25 %: with the mat calibrated under untinted light, the shadows join the
    dice's silhouettes and pull them off; once ``calibrate_dice`` has learnt the tint from single dice
    under that light, every die of another scene is found once, at its level, within a millimetre."""
    light = Lighting(shadow=0.5, shadow_tint=0.25)
    layout, cam, profile = _table()
    scene = render(random_scene(layout, 18, seed=7, temples=True, camera=cam, lighting=light))
    truth = list(scene.truth)

    def figures(analyser: FrameAnalyser) -> tuple[float, float, int]:
        found = analyser.analyse(scene.image).dice
        pairs = match(found, truth)
        return rms([d for _, _, d in pairs]), float(np.mean([f.level == t.level for f, t, _ in pairs])), \
            len(found) - len(pairs)

    untinted_profile = dataclasses.replace(profile)
    calibrate_dice(layout, untinted_profile, render(random_scene(layout, 12, seed=99, camera=cam)).image)
    assert untinted_profile.shadow_tint == NEUTRAL
    before = figures(FrameAnalyser(layout, untinted_profile))
    assert before[0] > 2.0 or before[1] < 0.95 or before[2] > 0

    analyser = calibrate_dice(layout, profile, render(random_scene(layout, 12, seed=99, camera=cam,
                                                                   lighting=light)).image)
    assert np.allclose(profile.shadow_tint, WARM_LAMP, atol=0.03)
    position_rms, levels, spurious = figures(analyser)
    assert position_rms < 1.0 and levels == 1.0 and spurious == 0


def test_the_table_follows_a_lamp_lit_after_calibration_from_its_first_still_snapshot() -> None:
    """Calibrated in plain daylight, then a warm lamp is lit: the first still snapshot already places
    every die within a millimetre at its level, and the watcher has learnt the lamp's tint."""
    layout, cam, profile = _table()
    calibrate_dice(layout, profile, render(random_scene(layout, 12, seed=99, camera=cam)).image)
    assert profile.shadow_tint == NEUTRAL
    lamp = Lighting(shadow=0.5, shadow_tint=0.25)
    scene = render(random_scene(layout, 18, seed=7, temples=True, camera=cam, lighting=lamp))
    truth = list(scene.truth)

    unaware = FrameAnalyser(layout, profile).analyse(scene.image).dice
    pairs = match(unaware, truth)
    assert rms([d for _, _, d in pairs]) > 2.0 or len(unaware) > len(pairs)

    watcher = TableWatcher(FrameAnalyser(layout, profile))
    snap = watcher.snapshot(scene.image)
    found = watcher.last_analysis.dice
    pairs = match(found, truth)
    assert len(pairs) == len(found) == len(visible_tops(truth))
    assert rms([d for _, _, d in pairs]) < 1.0 and all(f.level == t.level for f, t, _ in pairs)
    assert len(snap.stacks) == 2
    b, g, r = watcher.analyser.shadow_tint
    assert b < 0.9 and r > 1.1
    assert profile.shadow_tint == NEUTRAL               # the calibration itself is not rewritten


def test_light_dimming_over_the_whole_mat_teaches_no_tint() -> None:
    """Untinted light fading across the mat and a noisy sensor: every pixel of the mat darker than at
    calibration, but no shadow asks for a tint, so the watcher keeps none."""
    layout, cam, profile = _table()
    calibrate_dice(layout, profile, render(random_scene(layout, 12, seed=99, camera=cam)).image)
    dim = Lighting(gradient=0.3, shadow=0.4, noise_sigma=3.0)
    watcher = TableWatcher(FrameAnalyser(layout, profile))
    for seed in (7, 8):
        watcher.snapshot(render(random_scene(layout, 18, seed=seed, temples=True, camera=cam, lighting=dim)).image)
        assert watcher.analyser.shadow_tint == NEUTRAL


def test_a_blue_pen_beside_one_die_is_not_taken_for_a_light() -> None:
    """A dark blue pen lying beside one die darkens the mat in fixed proportions, as a tinted shadow
    does, but beside one die only: one light shades every die, so the watcher learns no tint from it,
    and does not try again while the pen stays."""
    layout, cam, profile = _table()
    calibrate_dice(layout, profile, render(random_scene(layout, 12, seed=99, camera=cam)).image)
    scene = random_scene(layout, 8, seed=4, camera=cam)
    frame = render(scene).image
    die = scene.dice[0]
    x, y = die.x_mm + 0.5 * layout.die.edge_mm + 12, die.y_mm - 30
    pen = np.array([[x, y, 0], [x + 10, y, 0], [x + 10, y + 60, 0], [x, y + 60, 0]], np.float64)
    inside = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(profile.camera.project(pen)).astype(np.int32), 1)
    frame[inside > 0] = (frame[inside > 0] * np.array([0.75, 0.55, 0.4])).astype(np.uint8)

    analyser = FrameAnalyser(layout, profile)
    watcher = TableWatcher(analyser)
    watcher.snapshot(frame)
    assert analyser.shadow_tint == NEUTRAL
    assert len(watcher.last_analysis.dice) == len(scene.dice)

    # At the next still snapshot, with the pen still there, the frame is analysed once, not again
    # under the pen's tint.
    calls = []
    analyse = analyser.analyse
    analyser.analyse = lambda *a, **kw: calls.append(1) or analyse(*a, **kw)  # type: ignore[method-assign]
    watcher.snapshot(frame)
    assert len(calls) == 1 and analyser.shadow_tint == NEUTRAL


def test_diffuse_light_leaves_the_shadows_untinted() -> None:
    """Light with no shadows to speak of teaches no tint: the profile keeps neutral shadows."""
    light = Lighting(shadow=0.05, shadow_tint=0.3)
    layout, cam, profile = _table()
    calibrate_dice(layout, profile, render(random_scene(layout, 12, seed=99, camera=cam, lighting=light)).image)
    assert profile.shadow_tint == NEUTRAL


def test_the_learnt_tint_is_saved_with_the_profile_and_a_damaged_one_is_refused() -> None:
    layout, _, profile = _table()
    profile.shadow_tint = check_tint(WARM_LAMP)
    path = profile.save()
    assert TableProfile.load(layout.name).shadow_tint == pytest.approx(WARM_LAMP)
    data = json.loads(path.read_text())
    del data["shadow_tint"]                       # a profile saved before tints were learnt
    path.write_text(json.dumps(data))
    assert TableProfile.load(layout.name).shadow_tint == NEUTRAL
    data["shadow_tint"] = [0.8, 1.0]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="damaged.*shadow tint.*calibrate"):
        TableProfile.load(layout.name)


def test_bitbox_calibrate_dice_reports_the_shadows_tint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    light = Lighting(shadow=0.5, shadow_tint=0.25)
    layout = load_layout("puxes")
    cam = fitting_camera(layout, tilt_deg=8.0, yaw_deg=30.0)
    write_calibration_frames(tmp_path, layout, cam, light)
    assert main(["calibrate", "mat", "--layout", "puxes", "--source", str(tmp_path / "empty"), "--frames", "3"]) == 0
    assert main(["calibrate", "dice", "--layout", "puxes", "--source", str(tmp_path / "dice")]) == 0
    out = capsys.readouterr().out
    said = re.search(r"shadows darken blue x([\d.]+), green x([\d.]+), red x([\d.]+)", out)
    assert said is not None, out
    assert [float(v) for v in said.groups()] == pytest.approx(WARM_LAMP, abs=0.03)
    assert TableProfile.load("puxes").shadow_tint == pytest.approx(WARM_LAMP, abs=0.03)
