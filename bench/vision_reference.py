"""The reference the table's snapshot time is divided by in ``bench/vision.py``: the pip reader as
the table used it before faces were read in batches (``controller/vision/pips.py`` at commit
5bb83a8), kept unchanged so that the cold snapshot's time can be compared, on the same frames in
the same run, with the same snapshot taken with this reader (each face alone, on the full CANON map).

Reading the pips on one die's top face: the input is a square crop around a top face, resampled to
CANON pixels. Pips are found as round spots that differ from the colour around them by a
multi-threshold blob detector; their layout is fitted to the six pip layouts on a 3x3 grid at any
turn and scale.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import statistics
from collections.abc import Callable

import cv2
import numpy as np

from controller.vision.snapshot import DieFace

#: Side of the square the face is resampled to before reading.
CANON = 90

#: Pip layouts on a 3x3 grid, in grid steps from the face's centre; 2, 3 and 6 have two orientations.
_LAYOUTS: dict[int, tuple[tuple[tuple[float, float], ...], ...]] = {
    1: (((0, 0),),),
    2: (((-1, -1), (1, 1)), ((1, -1), (-1, 1))),
    3: (((-1, -1), (0, 0), (1, 1)), ((1, -1), (0, 0), (-1, 1))),
    4: (((-1, -1), (1, -1), (-1, 1), (1, 1)),),
    5: (((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),),
    6: (((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
        ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1))),
}

#: Below this confidence a reading is reported as unreadable.
MIN_CONFIDENCE = 0.5

#: In a crop centred on a face, how far (in face sides) the pips' layout may sit off the middle.
MAX_OFFSET = 0.12


@dataclasses.dataclass(frozen=True)
class Pip:
    """One pip candidate in canonical face coordinates (pixels of the CANON square)."""

    x: float
    y: float
    area: float
    contrast: float


def spot_map(face_bgr: np.ndarray, face_side: float = 1.0, source_px: int | None = None) -> np.ndarray:
    """How much each pixel differs from the colour around it, at the scale of a pip.

    Each pixel is compared with the median of a window a little wider than a pip, in lightness and in
    colour: dark pips on light dice, light pips on dark dice and coloured pips on coloured dice all
    stand out, whatever the die's body colour, while large even regions (the body, the mat) do not.

    ``source_px``: the crop's side in the source image's own pixels, when the crop was enlarged to
    CANON from fewer (a table camera sees a face some 30 pixels wide). The window's median is then
    taken at that resolution and enlarged: the same surroundings, without a tenfold cost spent on
    interpolated pixels. Without it (crops cut from larger photos), the median is taken at CANON.
    """
    face = cv2.resize(face_bgr, (CANON, CANON), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB)
    if source_px is not None and 8 <= source_px < CANON:
        n = int(source_px)
        k = max(3, int(round(0.3 * face_side * n)) | 1)
        small = cv2.resize(lab, (n, n), interpolation=cv2.INTER_AREA)
        around = cv2.resize(cv2.medianBlur(small, k), (CANON, CANON),
                            interpolation=cv2.INTER_LINEAR).astype(np.float32)
    else:
        k = max(5, int(round(0.3 * face_side * CANON)) | 1)
        around = cv2.medianBlur(lab, k).astype(np.float32)
    diff = lab.astype(np.float32) - around
    spot = np.sqrt(diff[..., 0] ** 2 + 2.0 * (diff[..., 1] ** 2 + diff[..., 2] ** 2))
    return cv2.GaussianBlur(spot, (3, 3), 0)


@functools.lru_cache(maxsize=512)
def _detector(face_side: float, max_threshold: int = 220) -> cv2.SimpleBlobDetector:
    """The pip blob detector for a face of ``face_side`` (fraction of the crop), thresholding at
    16, 22, 28... below ``max_threshold``."""
    side = face_side * CANON
    params = cv2.SimpleBlobDetector_Params()
    params.blobColor = 255
    params.minThreshold = 16
    params.maxThreshold = max_threshold
    params.thresholdStep = 6
    params.minRepeatability = 2
    params.minDistBetweenBlobs = 0.12 * side
    params.filterByArea = True
    params.minArea = max(3.0, (0.06 * side) ** 2)
    params.maxArea = (0.34 * side) ** 2
    params.filterByCircularity = True
    params.minCircularity = 0.55
    params.filterByInertia = True
    params.minInertiaRatio = 0.35
    params.filterByConvexity = True
    params.minConvexity = 0.75
    return cv2.SimpleBlobDetector_create(params)


def find_pips(face_bgr: np.ndarray, face_side: float = 1.0, source_px: int | None = None) -> list[Pip]:
    """Round spots that stand out from their surroundings, in canonical coordinates.

    A blob detector thresholds the spot map at many levels and keeps round, convex blobs that persist
    across levels: pips close together separate at the higher levels, and a glare spot inside a pip
    does not split it. ``face_side``: the face's side as a fraction of the crop's; ``source_px``: see
    :func:`spot_map`.
    """
    spot = spot_map(face_bgr, face_side, source_px)
    image = np.clip(spot, 0, 255).astype(np.uint8)
    pips: list[Pip] = []
    # Levels at or above the map's brightest pixel are empty: stopping there finds the same blobs.
    # A blob must show at two levels at least (16 and 22), so a map that never exceeds 22 has none.
    top = int(image.max())
    if top <= 22:
        return pips
    for kp in _detector(face_side, min(220, top + 1)).detect(image):
        x, y = kp.pt
        r = max(1.0, kp.size / 2.0)
        x0, x1 = int(max(0, x - r / 2)), int(min(CANON, x + r / 2 + 1))
        y0, y1 = int(max(0, y - r / 2)), int(min(CANON, y + r / 2 + 1))
        # The window's mean as ndarray.mean computes it (float32 sum, divided in float64), for
        # less of its per-call overhead.
        window = spot[y0:y1, x0:x1]
        contrast = float(np.float32(float(window.sum()) / window.size)) if window.size else 0.0
        pips.append(Pip(float(x), float(y), float(math.pi * r * r), contrast))
    return pips


_ANGLES = np.deg2rad(np.arange(0.0, 90.0, 3.0))


@dataclasses.dataclass(frozen=True)
class Fit:
    """The best placement of one pip layout on some pips."""

    pips: int
    residual: float          # mean distance from layout points, in grid steps
    step: float              # grid step (pixels between neighbouring pip positions)
    angle: float             # radians
    centre: tuple[float, float]


def _rotations() -> np.ndarray:
    cos, sin = np.cos(_ANGLES), np.sin(_ANGLES)
    return np.stack([np.stack([cos, -sin], -1), np.stack([sin, cos], -1)], -2)   # A x 2 x 2


#: Each layout turned by every angle of ``_ANGLES`` at a unit grid step (A x n x 2), with its
#: points' RMS distance from the centre; made once, as every fit places the same layouts.
_TURNED: dict[int, list[tuple[np.ndarray, float]]] = {
    n: [(np.einsum("aij,nj->ani", _rotations(), np.asarray(layout, dtype=np.float64)),
         math.sqrt(float((np.asarray(layout, dtype=np.float64) ** 2).sum(1).mean())))
        for layout in layouts]
    for n, layouts in _LAYOUTS.items()
}


def _layout_step(rel: np.ndarray, n: int, step_hint: float) -> float:
    """The grid step at which the ``n``-pip layout has the RMS spread of ``rel`` (points about their
    centre); the same for each orientation of the layout."""
    rms_obs = math.sqrt(float((rel ** 2).sum(1).mean()))
    return rms_obs / _TURNED[n][0][1] if rms_obs > 0 else step_hint


def fit_layout(points: np.ndarray, n: int, step_hint: float) -> Fit:
    """Place the ``n``-pip layout on ``points`` (n x 2) by rotation, scale and shift; least residual."""
    centre = points.mean(axis=0)
    rel = points - centre
    best = Fit(n, math.inf, step_hint, 0.0, (float(centre[0]), float(centre[1])))
    if n == 1:
        return Fit(1, float(np.linalg.norm(rel)) / step_hint, step_hint, 0.0, best.centre)
    step = _layout_step(rel, n, step_hint)
    for turned, _ in _TURNED[n]:
        target = turned * step                                                 # A x n x 2
        d = np.linalg.norm(rel[None, :, None, :] - target[:, None, :, :], axis=3)  # A x n x n
        # Each observed pip to its nearest layout point, and each layout point to its nearest pip:
        # both small only when the points coincide one to one.
        cost = np.maximum(d.min(axis=2).mean(axis=1), d.min(axis=1).mean(axis=1)) / step
        a = int(np.argmin(cost))
        if cost[a] < best.residual:
            best = Fit(n, float(cost[a]), float(step), float(_ANGLES[a]), best.centre)
    return best


#: How far from a face's centre (grid steps, along either axis) a pip of that face can be found:
#: pips sit one step out and the fit is off by a tenth or two. Beyond lies the face's rim,
#: where the rounded edges and corners, and the side faces or mat showing past them, make pip-like
#: spots that belong to no pip.
PIP_REACH = 1.3


def _inside(fit: Fit, point: np.ndarray, reach: float = PIP_REACH) -> bool:
    """Whether ``point`` lies within ``reach`` grid steps of the fitted face's centre (square)."""
    c, s = math.cos(fit.angle), math.sin(fit.angle)
    dx, dy = point[0] - fit.centre[0], point[1] - fit.centre[1]
    u, v = c * dx + s * dy, -s * dx + c * dy
    return max(abs(u), abs(v)) < reach * fit.step


def best_reading(pips: list[Pip], face_side: float, max_offset: float | None = None,
                 accept: Callable[[Fit], bool] | None = None,
                 step_range: tuple[float, float] | None = None) -> tuple[Fit | None, float]:
    """The pip subset that makes a whole face, and its confidence.

    Pips on the dice's side faces, pips seen through a translucent die and spots of glare may be
    among ``pips``: the reading is the largest subset that fits a layout, has pips of one size and
    contrast, a grid step that suits a face of ``face_side`` pixels, and leaves no other pip of that
    kind where the face it implies has its pips (:data:`PIP_REACH`). With ``max_offset``, the face's
    centre must lie within that many face sides of the crop's centre; ``accept`` may veto a placement
    (e.g. a face off the die's body).
    ``step_range``: the grid steps allowed, in pixels (default: 0.4 to 1.4 times ``face_side / 3.8``).
    """
    if not pips:
        return None, 0.0
    pips = sorted(pips, key=lambda p: -p.contrast * math.sqrt(p.area))[:9]
    pts = np.array([[p.x, p.y] for p in pips], dtype=np.float64)
    areas = np.array([p.area for p in pips])
    contrasts = np.array([p.contrast for p in pips])
    xs, ys = [float(v) for v in pts[:, 0]], [float(v) for v in pts[:, 1]]
    area_l, contrast_l = [float(v) for v in areas], [float(v) for v in contrasts]
    lo, hi = step_range if step_range is not None else (face_side / 3.8 * 0.4, face_side / 3.8 * 1.4)
    step_hint = math.sqrt(lo * hi)
    best: tuple[Fit | None, float] = (None, 0.0)
    for k in range(min(6, len(pips)), 0, -1):
        rms_ref = _TURNED[k][0][1]
        for subset in itertools.combinations(range(len(pips)), k):
            # The cheap tests first, on plain floats: most subsets fail one of them.
            sub_a = [area_l[i] for i in subset]
            sub_c = [contrast_l[i] for i in subset]
            uniform = min(sub_a) / max(sub_a)
            even = min(sub_c) / max(sub_c)
            if uniform < 0.35 or even < 0.45:
                continue
            # The face's centre and grid step do not depend on the layout's turn: a subset placed
            # off the middle or at a step out of range is not worth fitting.
            cx = sum(xs[i] for i in subset) / k
            cy = sum(ys[i] for i in subset) / k
            if max_offset is not None and math.hypot(cx - CANON / 2, cy - CANON / 2) > max_offset * face_side:
                continue
            if k > 1:
                rms_obs = math.sqrt(sum((xs[i] - cx) ** 2 + (ys[i] - cy) ** 2 for i in subset) / k)
                if not lo <= (rms_obs / rms_ref if rms_obs > 0 else step_hint) <= hi:
                    continue
            idx = list(subset)
            fit = fit_layout(pts[idx], k, step_hint)
            if k == 1:
                # One pip: it must sit in the middle of the die's square.
                fit = Fit(1, 0.0, step_hint, 0.0, fit.centre)
                shape = 1.0
            else:
                if not lo <= fit.step <= hi:
                    continue
                shape = max(0.0, 1.0 - fit.residual / 0.3)
            if shape <= 0:
                continue
            median_area = statistics.median(sub_a)
            like = (contrasts >= 0.45 * statistics.median(sub_c)) & (areas >= 0.3 * median_area)
            if k == 1:
                # No orientation to go by: no pip of the same kind anywhere on the face.
                alone = (areas >= 0.6 * sub_a[0]) & like
                if any(alone[i] and math.dist(pts[i], pts[idx[0]]) < 2.9 * step_hint
                       for i in range(len(pips)) if i != idx[0]):
                    continue
            elif any(like[i] and _inside(fit, pts[i]) for i in range(len(pips)) if i not in subset):
                continue
            diameter = 2 * math.sqrt(median_area / math.pi)
            if not 0.8 <= fit.step / diameter <= 4.0:
                continue
            confidence = shape * (0.7 + 0.15 * min(1.0, uniform / 0.6) + 0.15 * min(1.0, even / 0.7))
            if confidence > best[1] and (accept is None or accept(fit)):
                best = (fit, confidence)
        if best[0] is not None and best[1] >= MIN_CONFIDENCE:
            return best
    return best


def read_pips(face_bgr: np.ndarray, face_side: float | None = None, source_px: int | None = None) -> DieFace:
    """Read a top face; ``DieFace()`` (unreadable) when no pip layout fits well enough.

    ``face_bgr`` is a square crop centred on the face; ``face_side`` is the face's side as a fraction
    of the crop's (1.0 when the crop is cut to the face). The pips must make a layout centred on
    the crop, with a grid step between a fifth and a third of the face: a face half hidden leaves
    pips that fit a smaller layout off the middle, which is not a reading.
    """
    if face_bgr is None or face_bgr.size == 0 or min(face_bgr.shape[:2]) < 8:
        return DieFace()
    side = (face_side or 1.0) * CANON
    pips = find_pips(face_bgr, face_side or 1.0, source_px)
    fit, confidence = best_reading(pips, side, max_offset=MAX_OFFSET, step_range=(side / 5.0, side / 3.0))
    if fit is None or confidence < MIN_CONFIDENCE:
        return DieFace(confidence=round(confidence, 3))
    return DieFace(pips=fit.pips, confidence=round(confidence, 3))
