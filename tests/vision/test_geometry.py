"""Camera pose from the mat's markers, parallax, rectification, on rendered frames."""

from __future__ import annotations

import numpy as np
import pytest
from table_scenes import layout, profile_for

from controller.vision.geometry import Rectifier, apply_parallax, correct_parallax, solve_pose
from controller.vision.markers import detect_mat_markers
from controller.vision.profile import CalibrationError, calibrate_mat
from controller.vision.render import Scene, camera_model, fitting_camera, render_empty


def test_parallax_matches_the_field_figures() -> None:
    camera = np.array([0.0, 0.0, -600.0])
    # A 16 mm die's top seen 300 mm from the nadir is pushed out by h*r/(H-h): about 8 mm; a stack ~17 mm.
    seen = apply_parallax([[300.0, 0.0]], 16.0, camera)[0]
    assert seen[0] - 300 == pytest.approx(16 * 300 / 584, rel=1e-9)
    assert apply_parallax([[300.0, 0.0]], 32.0, camera)[0][0] - 300 == pytest.approx(16.9, abs=0.1)
    back = correct_parallax(seen[None], 16.0, camera)[0]
    assert back == pytest.approx([300.0, 0.0])
    # Any direction, any camera position: correction undoes the push.
    rng = np.random.default_rng(1)
    pts = rng.uniform(-400, 400, (50, 2))
    cam = np.array([120.0, -40.0, -750.0])
    h = rng.uniform(0, 60, 50)
    assert np.allclose(correct_parallax(apply_parallax(pts, h, cam), h, cam), pts)


@pytest.mark.parametrize("name, tilt", [("puxes", 0.0), ("puxes", 20.0), ("memodixe", 12.0)])
def test_pose_recovered_from_markers(name: str, tilt: float) -> None:
    lay = layout(name)
    spec = fitting_camera(lay, tilt_deg=tilt, yaw_deg=30)
    truth = camera_model(spec, (lay.width_mm, lay.height_mm))
    frame = render_empty(Scene(lay, camera=spec))
    found = detect_mat_markers(frame, lay)
    assert found.count == len(lay.markers)
    pose = solve_pose(found.mat_points, found.image_points, spec.image_size)
    assert pose.rms_px < 0.5
    # The assumed field of view is the rendered one: the camera's position comes back to a few mm.
    assert np.linalg.norm(pose.camera.centre - truth.centre) < 0.01 * spec.height_mm
    assert pose.camera.tilt_deg == pytest.approx(tilt, abs=0.5)
    # The mat plane maps to the same pixels as the true camera's.
    pts = np.array([[0, 0, 0], [lay.width_mm, lay.height_mm, 0], [100, 50, 0]], float)
    assert np.abs(pose.camera.project(pts) - truth.project(pts)).max() < 0.5


def test_rectifier_maps_mat_points_to_their_pixels() -> None:
    prof, spec = profile_for("memodixe")
    lay = layout("memodixe")
    rect = Rectifier(prof.camera, lay.width_mm, lay.height_mm, 2.0, 30.0)
    mm = np.array([[0.0, 0.0], [360.0, 360.0], [123.4, 56.7]])
    px = rect.to_px(mm)
    assert np.allclose(px[0], [60.0, 60.0]) and np.allclose(rect.to_mm(px), mm)
    # Markers in the rectified empty mat sit at their mm positions times the scale.
    top = rect.rectify(render_empty(Scene(lay, camera=spec)))
    found = detect_mat_markers(top, lay)
    for i, mid in enumerate(found.ids):
        assert np.abs(rect.to_mm(found.image_points[4 * i:4 * i + 4]) - lay.marker(mid).corners()).max() < 0.8


def test_calibration_refuses_a_frame_without_the_mat() -> None:
    lay = layout("memodixe")
    blank = np.full((720, 1280, 3), 128, np.uint8)
    with pytest.raises(CalibrationError, match="found 0 of the mat's 4 markers"):
        calibrate_mat(blank, lay)


def test_sparse_and_partial_rectification_give_the_full_views_pixels() -> None:
    """Every third pixel of the view, and any box of it, come out exactly as in the whole view."""
    prof, spec = profile_for("puxes", 8.0)
    lay = layout("puxes")
    rect = Rectifier(prof.camera, lay.width_mm, lay.height_mm, 1.0, 40.0)
    frame = render_empty(Scene(lay, camera=spec))
    frame[200:260, 300:380] = (20, 200, 40)             # something on the mat
    full = rect.rectify(frame)
    sparse = rect.sparse(3)
    assert (sparse.height_px, sparse.width_px) == full[::3, ::3].shape[:2]
    assert np.array_equal(sparse.rectify(frame), full[::3, ::3])
    out = np.zeros_like(full)
    rect.rectify_into(frame, out, (101, 57, 420, 333))
    assert np.array_equal(out[57:333, 101:420], full[57:333, 101:420])
    assert not out[:57].any() and not out[:, 420:].any()
