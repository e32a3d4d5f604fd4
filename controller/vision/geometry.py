"""Camera geometry over the mat: pose, homographies, top-down rectification and parallax.

World frame: the mat's frame in mm (x right, y down, origin at the mat's top-left corner) with z pointing
*into* the table, so that the frame is right-handed; a point ``h`` mm above the mat has ``z = -h``.

Parallax: the mat-plane homography maps a point at height ``h`` to where the camera ray through it meets
the mat, which is pushed away from the camera's nadir ``N`` by ``h * r / (H - h)`` (``r``: true distance
from the nadir, ``H``: camera height). :func:`correct_parallax` undoes that, for any camera tilt, given the
camera centre from the pose.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import cv2
import numpy as np

#: Horizontal field of view assumed when the camera's intrinsics are not calibrated (Camera Module 3).
DEFAULT_HFOV_DEG = 66.0

#: The fields of view (degrees) searched for the one that explains what the camera sees: from a long
#: lens to the Camera Module 3 Wide's 102 degrees and beyond.
HFOV_RANGE_DEG = (30.0, 140.0)

#: The markers tell the focal length when a focal length this much shorter or longer explains their
#: corners clearly worse (see :func:`solve_pose_and_lens`).
LENS_PROBE = 0.15


def focal_px(width_px: float, hfov_deg: float) -> float:
    """The focal length in pixels of a pinhole seeing ``hfov_deg`` across ``width_px``."""
    return (width_px / 2) / math.tan(math.radians(hfov_deg) / 2)


def hfov_of(width_px: float, focal: float) -> float:
    """The horizontal field of view (degrees) of a pinhole with focal length ``focal`` px; the
    inverse of :func:`focal_px`."""
    return math.degrees(2 * math.atan(width_px / 2 / focal))


def assumed_intrinsics(image_size: tuple[int, int], hfov_deg: float = DEFAULT_HFOV_DEG) -> np.ndarray:
    """A pinhole camera matrix for an uncalibrated camera: centred principal point, square pixels."""
    w, h = image_size
    f = focal_px(w, hfov_deg)
    return np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], dtype=np.float64)


@dataclasses.dataclass
class CameraModel:
    """A calibrated view of the mat: intrinsics ``K``, distortion, and the pose (world -> camera)."""

    K: np.ndarray
    dist: np.ndarray
    rvec: np.ndarray
    tvec: np.ndarray
    image_size: tuple[int, int]          # (width, height) in px
    intrinsics_calibrated: bool = False

    @property
    def R(self) -> np.ndarray:
        return cv2.Rodrigues(np.asarray(self.rvec, np.float64))[0]

    @property
    def centre(self) -> np.ndarray:
        """The camera's optical centre in world mm (z negative: above the mat)."""
        return (-self.R.T @ np.asarray(self.tvec, np.float64).reshape(3)).ravel()

    @property
    def height_mm(self) -> float:
        return float(-self.centre[2])

    @property
    def nadir_mm(self) -> tuple[float, float]:
        """The point of the mat straight below the camera."""
        c = self.centre
        return float(c[0]), float(c[1])

    @property
    def hfov_deg(self) -> float:
        """The horizontal field of view of the camera matrix (distortion aside)."""
        return hfov_of(self.image_size[0], float(self.K[0, 0]))

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and the vertical."""
        axis = self.R.T @ np.array([0.0, 0.0, 1.0])
        return float(math.degrees(math.acos(max(-1.0, min(1.0, axis[2])))))

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """World points (N, 3) mm -> image pixels (N, 2), with lens distortion."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 3)
        img, _ = cv2.projectPoints(pts, np.asarray(self.rvec, np.float64), np.asarray(self.tvec, np.float64),
                                   self.K, self.dist)
        return img.reshape(-1, 2)

    def plane_homography(self, height_mm: float = 0.0) -> np.ndarray:
        """Homography from mat (x, y) mm on the plane ``height_mm`` above the mat to undistorted px."""
        R = self.R
        t = np.asarray(self.tvec, np.float64).reshape(3)
        M = np.column_stack([R[:, 0], R[:, 1], t - height_mm * R[:, 2]])
        Hm = self.K @ M
        return Hm / Hm[2, 2]

    def undistort_points(self, pixels: np.ndarray) -> np.ndarray:
        """Image pixels -> the same pixels as an ideal pinhole camera (same K) would see them."""
        pts = np.asarray(pixels, np.float64).reshape(-1, 1, 2)
        if not np.any(self.dist):
            return pts.reshape(-1, 2)
        return cv2.undistortPoints(pts, self.K, self.dist, P=self.K).reshape(-1, 2)

    def image_to_mat(self, pixels: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Pixels -> mat (x, y) mm of the point at ``height_mm`` seen at those pixels."""
        und = self.undistort_points(pixels).reshape(-1, 1, 2)
        Hinv = np.linalg.inv(self.plane_homography(height_mm))
        return cv2.perspectiveTransform(und, Hinv).reshape(-1, 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "K": np.asarray(self.K).tolist(), "dist": np.asarray(self.dist).ravel().tolist(),
            "rvec": np.asarray(self.rvec).ravel().tolist(), "tvec": np.asarray(self.tvec).ravel().tolist(),
            "image_size": list(self.image_size), "intrinsics_calibrated": self.intrinsics_calibrated,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CameraModel:
        return cls(np.array(data["K"], np.float64), np.array(data["dist"], np.float64),
                   np.array(data["rvec"], np.float64), np.array(data["tvec"], np.float64),
                   (int(data["image_size"][0]), int(data["image_size"][1])),
                   bool(data.get("intrinsics_calibrated", False)))


@dataclasses.dataclass(frozen=True)
class PoseResult:
    """A mat pose solved from marker corners, with its RMS and worst reprojection errors in px."""

    camera: CameraModel
    rms_px: float
    max_px: float
    points: int


def solve_pose(mat_points: np.ndarray, image_points: np.ndarray, image_size: tuple[int, int],
               K: np.ndarray | None = None, dist: np.ndarray | None = None,
               hfov_deg: float = DEFAULT_HFOV_DEG) -> PoseResult:
    """The camera's pose from mat points (mm, on the mat plane) and where they are seen (px).

    Without intrinsics a pinhole with ``hfov_deg`` is assumed: the mat-plane mapping stays exact (a
    homography has enough freedom), only the camera height, hence the parallax correction, scales with
    the focal length's error.
    """
    mat_points = np.asarray(mat_points, np.float64).reshape(-1, 2)
    image_points = np.asarray(image_points, np.float64).reshape(-1, 2)
    if len(mat_points) < 4:
        raise ValueError(f"need at least 4 points to find the mat's pose, got {len(mat_points)}")
    calibrated = K is not None
    K = np.asarray(K, np.float64) if K is not None else assumed_intrinsics(image_size, hfov_deg)
    dist = np.zeros(5) if dist is None else np.asarray(dist, np.float64).ravel()
    obj = np.column_stack([mat_points, np.zeros(len(mat_points))])
    ok, rvec, tvec = cv2.solvePnP(obj, image_points, K, dist, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        raise ValueError("the mat's pose could not be solved from the markers found")
    rvec, tvec = cv2.solvePnPRefineLM(obj, image_points, K, dist, rvec, tvec)
    cam = CameraModel(K, dist, rvec.ravel(), tvec.ravel(), (int(image_size[0]), int(image_size[1])), calibrated)
    if cam.centre[2] > 0:
        raise ValueError("the solved camera is below the mat: check the markers' ids and positions")
    err = np.linalg.norm(cam.project(obj) - image_points, axis=1)
    return PoseResult(cam, float(np.sqrt(np.mean(err ** 2))), float(err.max()), len(obj))


def solve_pose_and_lens(mat_points: np.ndarray, image_points: np.ndarray, image_size: tuple[int, int]
                        ) -> PoseResult | None:
    """The pose and focal length (centred principal point, square pixels, no distortion) that best
    explain the markers' corners, or None when the markers cannot tell the focal length.

    A camera looking straight down at a flat mat sees it the same at any focal length from a matching
    height, so only a tilted view tells it: there the corners are explained clearly worse (by at least
    ``1.3 x + 0.05 px`` the best RMS error) at focal lengths ``LENS_PROBE`` shorter and longer. On
    rendered mats that holds from about 6 degrees of tilt.
    """
    def pose(hfov: float) -> PoseResult:
        return solve_pose(mat_points, image_points, image_size, None, None, hfov)

    def rms(hfov: float) -> float:
        try:
            return pose(hfov).rms_px
        except ValueError:
            return math.inf

    lo, hi = HFOV_RANGE_DEG
    grid = np.arange(lo, hi + 1e-9, 5.0)
    errors = [rms(float(h)) for h in grid]
    i = int(np.argmin(errors))
    if i in (0, len(grid) - 1) or not math.isfinite(errors[i]):
        return None
    a, b = float(grid[i - 1]), float(grid[i + 1])
    golden = (math.sqrt(5) - 1) / 2
    c, d = b - golden * (b - a), a + golden * (b - a)
    fc, fd = rms(c), rms(d)
    while b - a > 0.05:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - golden * (b - a)
            fc = rms(c)
        else:
            a, c, fc = c, d, fd
            d = a + golden * (b - a)
            fd = rms(d)
    best = pose((a + b) / 2)
    worse = 1.3 * best.rms_px + 0.05
    width, focal = image_size[0], float(best.camera.K[0, 0])
    if min(rms(hfov_of(width, focal * (1 - LENS_PROBE))), rms(hfov_of(width, focal * (1 + LENS_PROBE)))) < worse:
        return None
    return best


def height_from_parallax(inner_mm: np.ndarray, outer_mm: np.ndarray, widths: np.ndarray, edge_mm: float
                         ) -> tuple[float, float] | None:
    """The camera height (mm) that the parallax of single dice shows, with its standard error as a share
    of it; None when fewer than six dice, or dice too alike in their distance from the nadir, leave it
    untold.

    ``inner_mm`` and ``outer_mm``: each die's silhouette's extents away from the nadir on the mat plane;
    ``widths``: the die's width in that direction in edges (1 along a side, up to 1.41 along a
    diagonal). The base's near side is at the inner extent; the top face, at the edge's height ``e``,
    reaches ``k = H / (H - e)`` times as far as its far side, so the outer extent is ``k`` times the
    inner one plus the die's width, less what the silhouette's edge loses: the same for every die
    along its sides, more at its corners (rounded on real dice, blurred on any). A plane through the
    dice gives ``k``; a few dice far off it (a die touching another, a shadow) are left out.
    """
    w = np.asarray(widths, np.float64)
    x = np.asarray(inner_mm, np.float64) + edge_mm * w
    y = np.asarray(outer_mm, np.float64)
    A = np.column_stack([x, w - 1, np.ones_like(x)])
    keep = np.ones(len(x), bool)
    fit = None
    for _ in range(3):
        if keep.sum() < 6 or np.linalg.matrix_rank(A[keep]) < 3:
            return None
        fit = np.linalg.lstsq(A[keep], y[keep], rcond=None)[0]
        resid = y - A @ fit
        spread = 1.4826 * float(np.median(np.abs(resid[keep])))
        keep = np.abs(resid) <= max(3 * spread, 0.5)
    if fit is None or keep.sum() < 6:
        return None
    resid = (y - A @ fit)[keep]
    covariance = float(resid @ resid) / (int(keep.sum()) - 3) * np.linalg.pinv(A[keep].T @ A[keep])
    k, se = float(fit[0]), math.sqrt(max(float(covariance[0, 0]), 0.0))
    if k <= 1 + 2 * se:
        return None
    return k * edge_mm / (k - 1), se / (k - 1)


def correct_parallax(plane_xy: np.ndarray, height_mm: float | np.ndarray, camera_centre: np.ndarray
                     ) -> np.ndarray:
    """Where a point at ``height_mm`` really is, given where its camera ray meets the mat plane.

    The ray from the camera centre ``C`` (z = -H) through the plane point ``P`` reaches height ``h`` at
    ``C + (P - C) * (H - h) / H``.
    """
    P = np.asarray(plane_xy, np.float64).reshape(-1, 2)
    C = np.asarray(camera_centre, np.float64).ravel()
    H = -C[2]
    h = np.broadcast_to(np.asarray(height_mm, np.float64), (len(P),)).reshape(-1, 1)
    return C[:2] + (P - C[:2]) * (H - h) / H


def apply_parallax(true_xy: np.ndarray, height_mm: float | np.ndarray, camera_centre: np.ndarray) -> np.ndarray:
    """The inverse of :func:`correct_parallax`: where on the mat plane a point at height appears."""
    T = np.asarray(true_xy, np.float64).reshape(-1, 2)
    C = np.asarray(camera_centre, np.float64).ravel()
    H = -C[2]
    h = np.broadcast_to(np.asarray(height_mm, np.float64), (len(T),)).reshape(-1, 1)
    return C[:2] + (T - C[:2]) * H / (H - h)


class Rectifier:
    """Resamples camera frames to a top-down view of the mat plane at a fixed scale.

    The rectified image covers the mat plus ``margin_mm`` on every side, at ``px_per_mm``; pixel
    ``(u, v)`` is mat point ``(u / s - margin, v / s - margin)``. The lookup table is built once (it
    includes the lens distortion) and each frame costs one ``cv2.remap``.
    """

    def __init__(self, camera: CameraModel, width_mm: float, height_mm: float, px_per_mm: float,
                 margin_mm: float = 40.0) -> None:
        self.camera = camera
        self.px_per_mm = float(px_per_mm)
        self.margin_mm = float(margin_mm)
        self.width_px = int(round((width_mm + 2 * margin_mm) * px_per_mm))
        self.height_px = int(round((height_mm + 2 * margin_mm) * px_per_mm))
        mx = np.empty((self.height_px, self.width_px), np.float32)
        my = np.empty_like(mx)
        us = np.arange(self.width_px, dtype=np.float64)
        # A band of rows at a time: the whole view's points in double precision would be tens of
        # megabytes for a map of a few.
        for v0 in range(0, self.height_px, 64):
            v1 = min(v0 + 64, self.height_px)
            band_u, band_v = np.meshgrid(us, np.arange(v0, v1, dtype=np.float64))
            xy = np.stack([band_u.ravel(), band_v.ravel()], axis=1) / px_per_mm - margin_mm
            if np.any(camera.dist):
                pix = camera.project(np.column_stack([xy, np.zeros(len(xy))]))
            else:
                pix = cv2.perspectiveTransform(xy.reshape(-1, 1, 2), camera.plane_homography(0.0)).reshape(-1, 2)
            mx[v0:v1] = pix[:, 0].reshape(v1 - v0, self.width_px)
            my[v0:v1] = pix[:, 1].reshape(v1 - v0, self.width_px)
        self._map1, self._map2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        w, h = camera.image_size
        self.visible = ((mx >= 0) & (mx <= w - 1) & (my >= 0) & (my <= h - 1)).astype(np.uint8) * 255

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        return cv2.remap(frame, self._map1, self._map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def sparse(self, stride: int) -> Rectifier:
        """A rectifier for every ``stride``-th pixel of this one's view, in both directions: its
        output is exactly ``self.rectify(frame)[::stride, ::stride]``, at a ``stride``-squared
        fraction of the cost."""
        out = object.__new__(Rectifier)
        out.__dict__.update(self.__dict__)
        out.px_per_mm = self.px_per_mm / stride
        out._map1 = np.ascontiguousarray(self._map1[::stride, ::stride])
        out._map2 = np.ascontiguousarray(self._map2[::stride, ::stride])
        out.visible = np.ascontiguousarray(self.visible[::stride, ::stride])
        out.height_px, out.width_px = out.visible.shape
        return out

    def rectify_into(self, frame: np.ndarray, out: np.ndarray, box: tuple[int, int, int, int]) -> None:
        """Rectify only the part ``box`` (x0, y0, x1, y1, in view px) of the view, into ``out``
        (a full view's image), with the same pixels as :meth:`rectify` gives there."""
        x0, y0, x1, y1 = box
        out[y0:y1, x0:x1] = cv2.remap(frame, self._map1[y0:y1, x0:x1], self._map2[y0:y1, x0:x1],
                                      cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def to_mm(self, px: np.ndarray) -> np.ndarray:
        return np.asarray(px, np.float64).reshape(-1, 2) / self.px_per_mm - self.margin_mm

    def to_px(self, mm: np.ndarray) -> np.ndarray:
        return (np.asarray(mm, np.float64).reshape(-1, 2) + self.margin_mm) * self.px_per_mm


def native_scale(camera: CameraModel, at_mm: tuple[float, float]) -> float:
    """Image pixels per mm on the mat plane near ``at_mm`` (mean of x and y directions)."""
    x, y = at_mm
    pts = camera.project(np.array([[x, y, 0], [x + 10, y, 0], [x, y + 10, 0]], np.float64))
    return float((np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[2] - pts[0])) / 20)
