"""ArUco markers and ChArUco boards with OpenCV's object API (``ArucoDetector``, ``CharucoDetector``):
OpenCV 5 removed the old free functions, and the object API works from 4.7 on."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import cv2
import numpy as np

from controller.vision.mat import MatLayout


@lru_cache(maxsize=8)
def dictionary(name: str) -> cv2.aruco.Dictionary:
    """An OpenCV predefined ArUco dictionary by name (``DICT_4X4_50``)."""
    if not hasattr(cv2.aruco, name):
        raise ValueError(f"{name!r} is not an OpenCV ArUco dictionary (try DICT_4X4_50)")
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def marker_image(dict_name: str, marker_id: int, side_px: int) -> np.ndarray:
    """One marker as a grey image of ``side_px`` pixels (black border included)."""
    return cv2.aruco.generateImageMarker(dictionary(dict_name), int(marker_id), int(side_px), borderBits=1)


@lru_cache(maxsize=8)
def _detector(dict_name: str) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary(dict_name), params)


def detect_markers(image: np.ndarray, dict_name: str) -> dict[int, np.ndarray]:
    """Every marker found: id -> its 4 corners in pixels (4, 2), in ArUco order."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _detector(dict_name).detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float64) for i, c in zip(ids.ravel(), corners)}


@dataclasses.dataclass(frozen=True)
class MatMarkers:
    """The mat's markers found in one image: matched mat points (mm) and image points (px)."""

    ids: tuple[int, ...]
    mat_points: np.ndarray      # (N, 2) mm
    image_points: np.ndarray    # (N, 2) px
    missing: tuple[int, ...]    # the layout's markers not found

    @property
    def count(self) -> int:
        return len(self.ids)


def detect_mat_markers(image: np.ndarray, layout: MatLayout) -> MatMarkers:
    """Find the layout's markers in ``image``; markers of other ids are ignored."""
    found = detect_markers(image, layout.dictionary)
    ids, mat_pts, img_pts, missing = [], [], [], []
    for m in layout.markers:
        if m.marker_id in found:
            ids.append(m.marker_id)
            mat_pts.append(m.corners())
            img_pts.append(found[m.marker_id])
        else:
            missing.append(m.marker_id)
    if ids:
        mat = np.concatenate(mat_pts)
        img = np.concatenate(img_pts)
    else:
        mat = np.zeros((0, 2))
        img = np.zeros((0, 2))
    return MatMarkers(tuple(ids), mat, img, tuple(missing))


# ChArUco boards for the camera's intrinsics ---------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class CharucoSpec:
    """A ChArUco board: squares across and down, square and marker sides in mm, dictionary."""

    columns: int = 7
    rows: int = 5
    square_mm: float = 30.0
    marker_mm: float = 22.0
    dictionary: str = "DICT_5X5_100"

    def board(self) -> cv2.aruco.CharucoBoard:
        return cv2.aruco.CharucoBoard((self.columns, self.rows), self.square_mm, self.marker_mm,
                                      dictionary(self.dictionary))


def charuco_image(spec: CharucoSpec, px_per_mm: float, margin_mm: float = 10.0) -> np.ndarray:
    """The board as a grey image at ``px_per_mm`` with a white margin, for printing at true scale."""
    w = int(round((spec.columns * spec.square_mm + 2 * margin_mm) * px_per_mm))
    h = int(round((spec.rows * spec.square_mm + 2 * margin_mm) * px_per_mm))
    return spec.board().generateImage((w, h), marginSize=int(round(margin_mm * px_per_mm)), borderBits=1)


def detect_charuco(image: np.ndarray, spec: CharucoSpec) -> tuple[np.ndarray, np.ndarray] | None:
    """Board corners found: (object points (N, 3) mm, image points (N, 2) px), or None if under 6."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    board = spec.board()
    corners, ids, _, _ = cv2.aruco.CharucoDetector(board).detectBoard(grey)
    if ids is None or len(ids) < 6:
        return None
    obj, img = board.matchImagePoints(corners, ids)
    return obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32)


def calibrate_intrinsics(images: list[np.ndarray], spec: CharucoSpec
                         ) -> tuple[np.ndarray, np.ndarray, float, int]:
    """Camera matrix, distortion and RMS reprojection error (px) from views of a ChArUco board.

    Returns (K, dist, rms, views used). Raises ValueError when fewer than 3 views show the board.
    """
    obj_all, img_all = [], []
    size = None
    for im in images:
        size = (im.shape[1], im.shape[0])
        found = detect_charuco(im, spec)
        if found is not None:
            obj_all.append(found[0])
            img_all.append(found[1])
    if len(obj_all) < 3:
        raise ValueError(f"the ChArUco board was found in {len(obj_all)} of {len(images)} images; "
                         "at least 3 views are needed (tilt the board differently in each)")
    rms, K, dist, _, _ = cv2.calibrateCamera(obj_all, img_all, size, None, None)
    return K, dist.ravel(), float(rms), len(obj_all)
