"""What ``bitbox calibrate dice`` learns from single dice standing apart on the mat: the focal length
(from the dice's parallax, where neither a calibrated lens nor the markers gave it), the tint of the
dice's shadows, and the silhouettes' edge offset."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from controller.vision.geometry import HFOV_RANGE_DEG, PoseResult, focal_px, height_from_parallax, hfov_of, solve_pose
from controller.vision.mat import MatLayout
from controller.vision.profile import TableProfile
from controller.vision.shadows import NEUTRAL, is_neutral

if TYPE_CHECKING:
    from controller.vision.pipeline import FrameAnalyser


def calibrate_dice(layout: MatLayout, profile: TableProfile, frame: np.ndarray) -> FrameAnalyser:
    """What ``bitbox calibrate dice`` learns from single dice standing apart on the mat, stored in
    ``profile``: the focal length, where neither a calibrated lens nor the mat's markers gave it (see
    :func:`measure_lens`); the tint of the dice's shadows (neutral when they cast too few); then the
    silhouettes' edge offset. Each step needs the ones before it: the height correction needs the
    focal length, and a shadow of a tint not yet known widens a die's silhouette. Returns an analyser
    using them all."""
    from controller.vision.pipeline import FrameAnalyser      # (which re-exports this module)

    def lens() -> None:
        if profile.lens in ("assumed", "checked", "dice") and (
                measured := measure_lens(layout, profile, frame)) is not None:
            verdict, pose = measured
            if verdict == "dice" or profile.lens == "assumed":
                profile.lens = verdict      # dice agreeing with dice measured before keep them "dice"
            profile.camera, profile.reprojection_rms_px, profile.reprojection_max_px = (
                pose.camera, pose.rms_px, pose.max_px)

    lens()
    tint = FrameAnalyser(layout, profile).measure_shadow_tint(frame)
    profile.shadow_tint = NEUTRAL if tint is None or is_neutral(tint) else tint
    if profile.shadow_tint != NEUTRAL:
        lens()          # the first time, shadows of that tint were taken for the dice's sides
    profile.edge_offset_px = FrameAnalyser(layout, profile).measure_edge_offset(frame)
    return FrameAnalyser(layout, profile)


#: The dice's parallax must tell the camera's height to within this share (one standard error) for the
#: focal length measured from it to stand ...
LENS_HEIGHT_ERROR = 0.15
#: ... and it must differ from the height at the focal length assumed by this many standard errors.
#: On rendered mats the error is 3 to 15 % and a little heavy-tailed: a lens within a few degrees of
#: the assumed one is better left assumed than measured.
LENS_EVIDENCE = 3.0


def measure_lens(layout: MatLayout, profile: TableProfile, frame: np.ndarray) -> tuple[str, PoseResult] | None:
    """What the parallax of single dice standing apart in ``frame`` tells of the focal length:
    ``("dice", pose)``, the mat's pose at the focal length it shows; ``("checked", pose)``, the pose
    at the profile's own when that agrees within the measurement's error; None when the dice cannot
    tell it (too few, or all about as far from the camera's nadir: spread them from the middle of the
    mat to its edges).

    The markers tell the focal length only when the camera is tilted (see
    :func:`~controller.vision.geometry.solve_pose_and_lens`); looking straight down, it sees the mat
    alike from any height with the matching focal length. The dice do not look alike: a die's top face
    is pushed away from the nadir by ``r * e / (H - e)``, and :func:`height_from_parallax` finds the
    camera height ``H`` that does it. Looking (nearly) straight down, the height solved from the
    markers is proportional to the focal length, which is scaled until the two heights agree. The dice
    are measured again at each step: measured with a focal length far off, their heights lean towards
    the height it gives.
    """
    from controller.vision.pipeline import FrameAnalyser      # (which re-exports this module)

    mat_points, image_points = profile.marker_points(layout)
    size = profile.camera.image_size
    hfov = profile.camera.hfov_deg
    first: PoseResult | None = None
    for _ in range(10):
        pose = solve_pose(mat_points, image_points, size, None, None, hfov)
        first = first or pose
        analyser = FrameAnalyser(layout, dataclasses.replace(profile, camera=pose.camera))
        dice = [d for d in analyser.analyse(frame).dice if d.on_mat and not d.at_edge]
        inner, outer, widths = zip(*(d.extents_mm for d in dice)) if dice else ((), (), ())
        shown = height_from_parallax(inner, outer, widths, analyser.edge)
        if shown is None or shown[1] > 2 * LENS_HEIGHT_ERROR:
            return None
        height, error = shown
        focal = focal_px(size[0], hfov)
        if error <= LENS_HEIGHT_ERROR and abs(height / analyser.H - 1) <= error / 2:
            break
        # Two thirds of the way (in ratio), so as not to overshoot on a die measured far off.
        hfov = hfov_of(size[0], focal * (height / analyser.H) ** (2 / 3))
        if not HFOV_RANGE_DEG[0] <= hfov <= HFOV_RANGE_DEG[1]:
            return None
    else:
        return None
    if abs(first.camera.height_mm / height - 1) <= LENS_EVIDENCE * error:
        return "checked", first
    # The last step the whole way: the dice measured here are measured well enough.
    return "dice", solve_pose(mat_points, image_points, size, None, None, hfov_of(size[0], focal * height / analyser.H))
