"""Rendered tables shared by the table-camera tests: a calibrated mat and scenes with ground truth."""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from controller.vision.mat import MatLayout, load_layout
from controller.vision.pipeline import FrameAnalyser, calibrate_dice
from controller.vision.profile import TableProfile, calibrate_mat
from controller.vision.render import (CameraSpec, Lighting, Scene, fitting_camera, match_truth, random_scene,
                                      render, render_empty)


@lru_cache(maxsize=4)
def layout(name: str) -> MatLayout:
    return load_layout(name)


_PROFILES: dict[tuple[str, float, float], TableProfile] = {}


def profile_for(name: str, tilt_deg: float = 0.0, yaw_deg: float = 0.0) -> tuple[TableProfile, CameraSpec]:
    """A profile calibrated on the rendered empty mat, and the camera it was calibrated with."""
    lay = layout(name)
    cam = fitting_camera(lay, tilt_deg=tilt_deg, yaw_deg=yaw_deg)
    key = (name, tilt_deg, yaw_deg)
    if key not in _PROFILES:
        prof = calibrate_mat(render_empty(Scene(lay, camera=cam, lighting=Lighting())), lay)
        calibrate_dice(lay, prof, render(random_scene(lay, 12, seed=99, camera=cam)).image)
        _PROFILES[key] = prof
    return _PROFILES[key], cam


def write_calibration_frames(folder: Path, lay: MatLayout, cam: CameraSpec, lighting: Lighting) -> None:
    """Three frames of the empty mat in ``folder/empty`` and three of 12 single dice in ``folder/dice``,
    as the calibration commands read them from a folder source."""
    for name, image in (("empty", render_empty(Scene(lay, camera=cam, lighting=lighting))),
                        ("dice", render(random_scene(lay, 12, seed=99, camera=cam, lighting=lighting)).image)):
        (folder / name).mkdir()
        for i in range(3):
            cv2.imwrite(str(folder / name / f"{i}.png"), image)


def analyser_for(name: str, tilt_deg: float = 0.0, **kw: object) -> tuple[FrameAnalyser, CameraSpec]:
    prof, cam = profile_for(name, tilt_deg)
    return FrameAnalyser(layout(name), prof, **kw), cam  # type: ignore[arg-type]


def match(found: list, truth: list, max_mm: float = 15.0) -> list[tuple[object, object, float]]:
    """Pairs (found, truth, distance) nearest first, each used once; hidden bottom dice excluded."""
    return match_truth(found, truth, max_mm)


def rms(values: list[float]) -> float:
    return float(np.sqrt(np.mean(np.square(values)))) if values else float("nan")


def with_camera(scene: Scene, cam: CameraSpec) -> Scene:
    return dataclasses.replace(scene, camera=cam)
