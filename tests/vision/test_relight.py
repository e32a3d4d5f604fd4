"""The light changing after the mat was calibrated: the empty mat is re-lit, a hand stays a hand."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from table_scenes import match, rms

from controller.vision.mat import load_layout
from controller.vision.pipeline import FrameAnalyser, TableWatcher, calibrate_dice
from controller.vision.profile import calibrate_mat
from controller.vision.render import Hand, Lighting, Scene, fitting_camera, random_scene, render, render_empty

#: A lamp lit on one side of the table after calibration: a third brighter there, a little darker on
#: the far side.
LAMP = Lighting(brightness=1.35, gradient=0.5)


def _calibrated():
    layout = load_layout("puxes")
    cam = fitting_camera(layout, tilt_deg=8.0, yaw_deg=30.0)
    profile = calibrate_mat(render_empty(Scene(layout, camera=cam)), layout)
    calibrate_dice(layout, profile, render(random_scene(layout, 12, seed=99, camera=cam)).image)
    return layout, cam, profile


@pytest.mark.parametrize("light", [LAMP, Lighting(brightness=1.35)], ids=["lamp on one side", "brighter"])
def test_a_lamp_lit_after_calibration_re_lights_the_empty_mat(light: Lighting,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """Brighter than the calibration allows for a change of light, the mat would be one large thing
    that is not dice, a hand that never leaves: the table would never be still. The empty mat is
    re-lit instead, every die is found at its level, and the log says what to do."""
    layout, cam, profile = _calibrated()
    frame = render(random_scene(layout, 12, seed=7, temples=True, camera=cam, lighting=light))
    watcher = TableWatcher(FrameAnalyser(layout, profile))
    with caplog.at_level(logging.WARNING, logger="controller.vision.pipeline"):
        snap = watcher.snapshot(frame.image)
    assert snap.still and not snap.occlusions
    found = watcher.last_analysis.dice
    pairs = match(found, list(frame.truth))
    assert len(pairs) == len(found) == 14
    assert rms([d for _, _, d in pairs]) < 1.5 and all(f.level == t.level for f, t, _ in pairs)
    assert "the light changed since the mat was calibrated" in caplog.text
    assert "calibrate the mat again" in caplog.text
    assert profile.background is not watcher.analyser.background      # the calibration is not rewritten


def test_a_hand_over_the_mat_stays_a_hand_and_the_empty_mat_is_kept() -> None:
    """A hand changes the mat's colours unlike light does: it is reported, and the empty mat is not
    re-lit from it."""
    layout, cam, profile = _calibrated()
    analyser = FrameAnalyser(layout, profile)
    for hand in (Hand(450, 420, 90, 80), Hand(-40, 300, 180, 70), Hand(300, 300, 45, 120, scale=1.5)):
        frame = render(random_scene(layout, 10, seed=5, camera=cam, hands=(hand,)))
        analysis = analyser.analyse(frame.image)
        assert len(analysis.occlusions) == 1
        assert np.array_equal(analyser.background, profile.background)


def test_under_a_new_lamp_a_hand_is_still_reported_and_the_dice_found() -> None:
    layout, cam, profile = _calibrated()
    analyser = FrameAnalyser(layout, profile)
    frame = render(random_scene(layout, 10, seed=5, camera=cam, lighting=LAMP, hands=(Hand(450, 420, 90, 80),)))
    analysis = analyser.analyse(frame.image)
    assert len(analysis.occlusions) == 1
    assert len(match(analysis.dice, list(frame.truth))) == len(analysis.dice) == 10
    assert not np.array_equal(analyser.background, profile.background)


def test_a_lamp_lit_in_daylight_brightens_the_mat_and_tints_its_shadows_and_the_table_follows_both() -> None:
    """A fifth brighter, within what a change of light is allowed: nothing looks like a hand, but the
    shadows, measured against the darker empty mat, are off in both depth and tint. The empty mat is
    re-lit since much of it changed, then the shadows' tint is learnt: every die is placed right."""
    layout, cam, profile = _calibrated()
    watcher = TableWatcher(FrameAnalyser(layout, profile))
    lamp = Lighting(brightness=1.2, shadow=0.5, shadow_tint=0.25)
    for seed in (7, 8):
        frame = render(random_scene(layout, 14, seed=seed, temples=True, camera=cam, lighting=lamp))
        assert watcher.snapshot(frame.image).still
        found = watcher.last_analysis.dice
        pairs = match(found, list(frame.truth))
        assert len(pairs) == len(found) == 16
        assert rms([d for _, _, d in pairs]) < 1.0 and all(f.level == t.level for f, t, _ in pairs)
    b, _, r = watcher.analyser.shadow_tint
    assert b < 0.85 and r > 1.15
