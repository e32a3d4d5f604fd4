"""The table camera's calibration profile: intrinsics, the mat's pose, the empty mat, the dice.

A profile is a folder under ``state_dir()/camera/<layout>/`` holding ``profile.json`` and
``empty-mat.png`` (the rectified empty mat, the background the dice stand out from). Intrinsics from a
ChArUco board live in ``state_dir()/camera/intrinsics.json`` and are shared by every layout.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.paths import state_dir
from controller.vision.geometry import (
    DEFAULT_HFOV_DEG, CameraModel, Rectifier, native_scale, solve_pose, solve_pose_and_lens)
from controller.vision.mat import MatLayout, dice_colours
from controller.vision.markers import detect_mat_markers
from controller.vision.shadows import NEUTRAL, Tint, check_tint

#: Margin around the mat kept in the rectified view, so dice just off the mat are still seen (mm).
RECTIFY_MARGIN_MM = 40.0

#: Where the camera's focal length came from (``TableProfile.lens``), as the commands say it. Without a
#: calibrated lens it is measured: from the mat's markers when the camera is tilted enough to tell it,
#: else from the dice's parallax by ``bitbox calibrate dice``; until then it is assumed.
LENS_SOURCES = {
    "calibrated": "calibrated (bitbox calibrate camera)",
    "given": "given (--hfov)",
    "markers": "measured from the mat's markers",
    "dice": "measured from the dice's parallax",
    "checked": "assumed; the dice's parallax agrees",
    "assumed": "assumed",
}


class CalibrationError(ValueError):
    """Calibration could not be done or loaded; the message says why and what to do."""


def camera_dir() -> Path:
    d = state_dir() / "camera"
    d.mkdir(parents=True, exist_ok=True)
    return d


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


@dataclasses.dataclass
class Intrinsics:
    K: np.ndarray
    dist: np.ndarray
    image_size: tuple[int, int]
    rms_px: float

    def save(self, path: Path | None = None) -> Path:
        path = path or camera_dir() / "intrinsics.json"
        _write_atomic(path, json.dumps({"K": self.K.tolist(), "dist": np.ravel(self.dist).tolist(),
                                        "image_size": list(self.image_size), "rms_px": self.rms_px},
                                       indent=1).encode())
        return path

    @classmethod
    def load(cls, path: Path | None = None) -> Intrinsics | None:
        path = path or camera_dir() / "intrinsics.json"
        if not path.exists():
            return None
        d = json.loads(path.read_text())
        return cls(np.array(d["K"], np.float64), np.array(d["dist"], np.float64),
                   (int(d["image_size"][0]), int(d["image_size"][1])), float(d["rms_px"]))

    def scaled_to(self, image_size: tuple[int, int]) -> Intrinsics:
        """The same lens at another resolution of the same sensor mode (same aspect ratio)."""
        sx, sy = image_size[0] / self.image_size[0], image_size[1] / self.image_size[1]
        K = self.K.copy()
        K[0] *= sx
        K[1] *= sy
        return Intrinsics(K, self.dist, image_size, self.rms_px)


@dataclasses.dataclass
class TableProfile:
    """Everything the pipeline needs to turn frames of one mat into millimetres."""

    layout_name: str
    camera: CameraModel
    reprojection_rms_px: float
    reprojection_max_px: float
    px_per_mm: float
    die_edge_mm: float
    colours: dict[str, tuple[int, int, int]]
    marker_pixels: dict[int, list[list[float]]]     # where each marker's corners were seen at calibration
    background: np.ndarray | None = None             # the rectified empty mat
    created: float = 0.0
    margin_mm: float = RECTIFY_MARGIN_MM
    edge_offset_px: float = 0.5                      # silhouette edge beyond the last pixel centre
    shadow_tint: Tint = NEUTRAL                      # how shadows darken blue, green, red (see shadows.py)
    lens: str = "assumed"                            # where the focal length came from (LENS_SOURCES)

    def rectifier(self, layout: MatLayout) -> Rectifier:
        return Rectifier(self.camera, layout.width_mm, layout.height_mm, self.px_per_mm, self.margin_mm)

    def marker_points(self, layout: MatLayout) -> tuple[np.ndarray, np.ndarray]:
        """The corners of the markers seen at calibration: on the mat (mm) and in the frame (px)."""
        seen = [m for m in layout.markers if m.marker_id in self.marker_pixels]
        if not seen:
            raise CalibrationError(f"the {self.layout_name!r} profile holds no marker seen at calibration; "
                                   f"calibrate again: bitbox calibrate mat --layout {self.layout_name}")
        return (np.concatenate([m.corners() for m in seen]),
                np.concatenate([np.asarray(self.marker_pixels[m.marker_id], np.float64) for m in seen]))

    def describe_lens(self) -> str:
        """The field of view and where it came from, e.g. ``88.5 degree field of view, measured from
        the mat's markers``."""
        return f"{self.camera.hfov_deg:.1f} degree field of view, {LENS_SOURCES[self.lens]}"

    def folder(self) -> Path:
        return camera_dir() / self.layout_name

    def save(self) -> Path:
        folder = self.folder()
        folder.mkdir(parents=True, exist_ok=True)
        data = {
            "layout": self.layout_name, "camera": self.camera.to_json(),
            "reprojection_rms_px": self.reprojection_rms_px, "reprojection_max_px": self.reprojection_max_px,
            "px_per_mm": self.px_per_mm, "die_edge_mm": self.die_edge_mm,
            "colours": {k: list(v) for k, v in self.colours.items()},
            "marker_pixels": {str(k): v for k, v in self.marker_pixels.items()},
            "created": self.created, "margin_mm": self.margin_mm, "edge_offset_px": self.edge_offset_px,
            "shadow_tint": list(self.shadow_tint), "lens": self.lens,
        }
        if self.background is not None:
            ok, png = cv2.imencode(".png", self.background)
            _write_atomic(folder / "empty-mat.png", png.tobytes())
        _write_atomic(folder / "profile.json", json.dumps(data, indent=1).encode())
        return folder / "profile.json"

    @classmethod
    def load(cls, layout_name: str) -> TableProfile:
        folder = camera_dir() / layout_name
        path = folder / "profile.json"
        if not path.exists():
            raise CalibrationError(f"the camera is not calibrated for the {layout_name!r} mat "
                                   f"(no {path}); run: bitbox calibrate mat --layout {layout_name}")
        try:
            d: dict[str, Any] = json.loads(path.read_text())
            bg = cv2.imread(str(folder / "empty-mat.png"), cv2.IMREAD_COLOR)
            camera = CameraModel.from_json(d["camera"])
            lens = d.get("lens", "calibrated" if camera.intrinsics_calibrated else "assumed")
            if lens not in LENS_SOURCES:
                raise ValueError(f"lens {lens!r} is none of {', '.join(LENS_SOURCES)}")
            return cls(d["layout"], camera, float(d["reprojection_rms_px"]),
                       float(d["reprojection_max_px"]), float(d["px_per_mm"]), float(d["die_edge_mm"]),
                       {k: tuple(v) for k, v in d["colours"].items()},
                       {int(k): v for k, v in d["marker_pixels"].items()}, bg, float(d.get("created", 0)),
                       float(d.get("margin_mm", RECTIFY_MARGIN_MM)), float(d.get("edge_offset_px", 0.5)),
                       check_tint(d.get("shadow_tint", NEUTRAL)), lens)
        except (KeyError, ValueError, TypeError) as exc:
            raise CalibrationError(f"{path} is damaged ({exc}); calibrate again: "
                                   f"bitbox calibrate mat --layout {layout_name}") from exc


def choose_scale(camera: CameraModel, layout: MatLayout) -> float:
    """Rectified px per mm: the camera's own resolution at the mat's centre, in steps of 0.25,
    kept within 1..4 (more adds cost without detail, less loses pips)."""
    s = native_scale(camera, (layout.width_mm / 2, layout.height_mm / 2))
    return float(min(4.0, max(1.0, round(s * 4) / 4)))


def calibrate_mat(empty_frame: np.ndarray, layout: MatLayout, intrinsics: Intrinsics | None = None,
                  hfov_deg: float | None = None, px_per_mm: float | None = None,
                  min_markers: int = 3) -> TableProfile:
    """Find the mat's markers in a frame of the empty mat, solve the camera's pose, and keep the
    rectified empty mat as the background.

    The focal length comes from ``intrinsics``, else from ``hfov_deg``, else from the markers when the
    camera is tilted enough for them to tell it; else :data:`DEFAULT_HFOV_DEG` is assumed until
    :func:`controller.vision.pipeline.calibrate_dice` measures it. Raises :class:`CalibrationError`
    when too few markers are visible.
    """
    h, w = empty_frame.shape[:2]
    found = detect_mat_markers(empty_frame, layout)
    if found.count < min_markers:
        raise CalibrationError(
            f"found {found.count} of the mat's {len(layout.markers)} markers (ids {list(found.ids)}; "
            f"missing {list(found.missing)}); at least {min_markers} are needed. Check that the whole mat "
            "is in view, evenly lit, and that the mat printed is the "
            f"{layout.name!r} layout")
    points = (found.mat_points, found.image_points, (w, h))
    if intrinsics is not None:
        if intrinsics.image_size != (w, h):
            intrinsics = intrinsics.scaled_to((w, h))
        pose, lens = solve_pose(*points, intrinsics.K, intrinsics.dist), "calibrated"
    elif hfov_deg is not None:
        pose, lens = solve_pose(*points, None, None, hfov_deg), "given"
    elif (measured := solve_pose_and_lens(*points)) is not None:
        pose, lens = measured, "markers"
    else:
        pose, lens = solve_pose(*points, None, None, DEFAULT_HFOV_DEG), "assumed"
    scale = px_per_mm or choose_scale(pose.camera, layout)
    profile = TableProfile(
        layout.name, pose.camera, pose.rms_px, pose.max_px, scale, layout.die.edge_mm, dice_colours(),
        {mid: found.image_points[4 * i:4 * i + 4].tolist() for i, mid in enumerate(found.ids)},
        None, time.time(), max(RECTIFY_MARGIN_MM, 2.5 * layout.die.edge_mm), lens=lens)
    profile.background = profile.rectifier(layout).rectify(empty_frame)
    return profile


def markers_moved(frame: np.ndarray, layout: MatLayout, profile: TableProfile, tolerance_px: float = 2.0
                  ) -> float | None:
    """How far (px, median over corners) the markers seen now are from where calibration saw them;
    ``None`` when none is visible. A large value means the camera or the mat moved: calibrate again."""
    found = detect_mat_markers(frame, layout)
    shifts = []
    for i, mid in enumerate(found.ids):
        if mid in profile.marker_pixels:
            ref = np.array(profile.marker_pixels[mid])
            shifts.extend(np.linalg.norm(found.image_points[4 * i:4 * i + 4] - ref, axis=1))
    return float(np.median(shifts)) if shifts else None
