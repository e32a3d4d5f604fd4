"""Reading the pips on one die's top face.

The input is a square crop around a top face (see :func:`controller.vision.dice.face_crop`),
resampled to CANON pixels. Pips are found as round spots that differ from the colour around them,
whatever the polarity (dark pips on a light die, light pips on a dark one, coloured pips on a
coloured die), by a multi-threshold blob detector. Their layout is then fitted to the six pip
layouts on a 3x3 grid at any turn and scale: a set of spots that fits no layout is not a reading,
how well it fits gives the confidence, and the fit gives the face's centre, turn and size.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Callable

import cv2
import numpy as np

from controller.vision.snapshot import DieFace

#: Side of the square the face is resampled to before reading.
CANON = 90

#: A face that the camera saw with fewer pixels than this, and at least COARSE_FROM, is first read on
#: a map of this side (see :func:`read_pips`): a quarter of CANON's pixels, still half again the
#: camera's own.
COARSE = 45
COARSE_FROM = 20

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


def spot_map(face_bgr: np.ndarray, face_side: float = 1.0, source_px: int | None = None,
             size: int = CANON) -> np.ndarray:
    """How much each pixel differs from the colour around it, at the scale of a pip.

    Each pixel is compared with the median of a window a little wider than a pip, in lightness and in
    colour: dark pips on light dice, light pips on dark dice and coloured pips on coloured dice all
    stand out, whatever the die's body colour, while large even regions (the body, the mat) do not.

    ``source_px``: the crop's side in the source image's own pixels, when the crop was enlarged to
    CANON from fewer (a table camera sees a face some 30 pixels wide). The window's median is then
    taken at that resolution and enlarged: the same surroundings, without a tenfold cost spent on
    interpolated pixels. Without it (crops cut from larger photos), the median is taken at CANON.
    ``size``: the map's side (CANON, or COARSE for a first look, see :func:`read_pips`). On a COARSE
    map the median is taken on a grid of a fifth of its side, over three cells each way (a third of
    the face, as at CANON): a median over more pixels costs several times the rest of the map.
    """
    face = cv2.resize(face_bgr, (size, size), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB)
    if size == COARSE:
        cells = cv2.resize(lab, (size // 5, size // 5), interpolation=cv2.INTER_AREA)
        around = cv2.resize(cv2.medianBlur(cells, 3), (size, size), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    elif source_px is not None and 8 <= source_px < size:
        n = int(source_px)
        k = max(3, int(round(0.3 * face_side * n)) | 1)
        small = cv2.resize(lab, (n, n), interpolation=cv2.INTER_AREA)
        around = cv2.resize(cv2.medianBlur(small, k), (size, size),
                            interpolation=cv2.INTER_LINEAR).astype(np.float32)
    else:
        k = max(5, int(round(0.3 * face_side * size)) | 1)
        around = cv2.medianBlur(lab, k).astype(np.float32)
    diff = lab.astype(np.float32) - around
    spot = np.sqrt(diff[..., 0] ** 2 + 2.0 * (diff[..., 1] ** 2 + diff[..., 2] ** 2))
    return cv2.GaussianBlur(spot, (3, 3), 0)


def _step(size: int) -> int:
    """The blob detector's threshold step on a map of ``size`` (see :func:`_detector`)."""
    return 6 if size == CANON else 16


@functools.lru_cache(maxsize=512)
def _detector(face_side: float, max_threshold: int = 220, size: int = CANON) -> cv2.SimpleBlobDetector:
    """The pip blob detector for a face of ``face_side`` (fraction of the crop) on a map of ``size``,
    thresholding at 16, 22, 28... below ``max_threshold`` (16, 32, 48... on a COARSE map: its pips
    are few pixels wide, and each level's contours cost the same whatever their size; on rendered
    tables the coarse map reads the same faces either way)."""
    side = face_side * size
    params = cv2.SimpleBlobDetector_Params()
    params.blobColor = 255
    params.minThreshold = 16
    params.maxThreshold = max_threshold
    params.thresholdStep = _step(size)
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


def find_pips(face_bgr: np.ndarray, face_side: float = 1.0, source_px: int | None = None,
              size: int = CANON) -> list[Pip]:
    """Round spots that stand out from their surroundings, in canonical coordinates.

    A blob detector thresholds the spot map at many levels and keeps round, convex blobs that persist
    across levels: pips close together separate at the higher levels, and a glare spot inside a pip
    does not split it. ``face_side``: the face's side as a fraction of the crop's; ``source_px``: see
    :func:`spot_map`; ``size``: the side of the map searched (the pips are still given in CANON's
    coordinates and areas).
    """
    spot = spot_map(face_bgr, face_side, source_px, size)
    image = np.clip(spot, 0, 255).astype(np.uint8)
    pips: list[Pip] = []
    # Levels at or above the map's brightest pixel are empty: stopping there finds the same blobs.
    # A blob must show at two levels at least (16 and 22; 16 and 32 on a COARSE map), so a map that
    # never exceeds the second has none.
    top = int(image.max())
    if top <= 16 + _step(size):
        return pips
    scale = CANON / size
    for kp in _detector(face_side, min(220, top + 1), size).detect(image):
        x, y = kp.pt
        r = max(1.0, kp.size / 2.0)
        x0, x1 = int(max(0, x - r / 2)), int(min(size, x + r / 2 + 1))
        y0, y1 = int(max(0, y - r / 2)), int(min(size, y + r / 2 + 1))
        # The window's mean as ndarray.mean computes it (float32 sum, divided in float64), for
        # less of its per-call overhead.
        window = spot[y0:y1, x0:x1]
        contrast = float(np.float32(float(window.sum()) / window.size)) if window.size else 0.0
        if size == CANON:
            pips.append(Pip(float(x), float(y), float(math.pi * r * r), contrast))
        else:
            pips.append(Pip(float(x) * scale, float(y) * scale, float(math.pi * r * r) * scale * scale, contrast))
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


#: Every orientation of each layout of ``n`` pips, stacked: (layouts x A) x n x 2.
_TURNED_ALL: dict[int, np.ndarray] = {n: np.concatenate([turned for turned, _ in t]) for n, t in _TURNED.items()}


def _layout_step(rel: np.ndarray, n: int, step_hint: float) -> float:
    """The grid step at which the ``n``-pip layout has the RMS spread of ``rel`` (points about their
    centre); the same for each orientation of the layout."""
    rms_obs = math.sqrt(float(np.add.reduce(np.add.reduce(rel * rel, axis=1)) / len(rel)))
    return rms_obs / _TURNED[n][0][1] if rms_obs > 0 else step_hint


def fit_layout(points: np.ndarray, n: int, step_hint: float) -> Fit:
    """Place the ``n``-pip layout on ``points`` (n x 2) by rotation, scale and shift; least residual."""
    # Sums and divisions rather than .mean(), whose per-call cost is most of a fit's (the same values).
    centre = np.add.reduce(points, axis=0) / len(points)
    rel = points - centre
    best = Fit(n, math.inf, step_hint, 0.0, (float(centre[0]), float(centre[1])))
    if n == 1:
        return Fit(1, float(np.linalg.norm(rel)) / step_hint, step_hint, 0.0, best.centre)
    step = _layout_step(rel, n, step_hint)
    # Every orientation of every layout at once (a few small arrays: numpy's per-call cost is what counts).
    diff = rel[None, :, None, :] - (_TURNED_ALL[n] * step)[:, None, :, :]        # (L x A) x n x n x 2
    d = np.sqrt(np.add.reduce(diff * diff, axis=3))                             # (L x A) x n x n
    # Each observed pip to its nearest layout point, and each layout point to its nearest pip:
    # both small only when the points coincide one to one.
    cost = (np.maximum(np.add.reduce(d.min(axis=2), axis=1) / n, np.add.reduce(d.min(axis=1), axis=1) / n)
            / step).tolist()
    angles = len(_ANGLES)
    for start in range(0, len(cost), angles):
        turn = cost[start:start + angles]
        a = turn.index(min(turn))
        if turn[a] < best.residual:
            best = Fit(n, float(turn[a]), float(step), float(_ANGLES[a]), best.centre)
    return best


#: How far from a face's centre (grid steps, along either axis) a pip of that face can be found:
#: pips sit one step out and the fit is off by a tenth or two. Beyond lies the face's rim,
#: where the rounded edges and corners, and the side faces or mat showing past them, make pip-like
#: spots that belong to no pip.
PIP_REACH = 1.3


def _inside(fit: Fit, point: tuple[float, float] | np.ndarray, reach: float = PIP_REACH) -> bool:
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
    # Plain floats for the tests on each subset: a few values, where numpy's per-call cost is all.
    xs, ys = [float(p.x) for p in pips], [float(p.y) for p in pips]
    area_l, contrast_l = [float(p.area) for p in pips], [float(p.contrast) for p in pips]
    everyone = range(len(pips))
    lo, hi = step_range if step_range is not None else (face_side / 3.8 * 0.4, face_side / 3.8 * 1.4)
    step_hint = math.sqrt(lo * hi)
    best: tuple[Fit | None, float] = (None, 0.0)
    for k in range(min(6, len(pips)), 0, -1):
        rms_ref = _TURNED[k][0][1]
        for subset in itertools.combinations(everyone, k):
            # The cheap tests first: most subsets fail one of them.
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
            median_area = _median(sub_a)
            least_contrast, least_area = 0.45 * _median(sub_c), 0.3 * median_area
            like = [contrast_l[i] >= least_contrast and area_l[i] >= least_area for i in everyone]
            if k == 1:
                # No orientation to go by: no pip of the same kind anywhere on the face.
                j = idx[0]
                if any(like[i] and area_l[i] >= 0.6 * sub_a[0]
                       and math.hypot(xs[i] - xs[j], ys[i] - ys[j]) < 2.9 * step_hint
                       for i in everyone if i != j):
                    continue
            elif any(like[i] and _inside(fit, (xs[i], ys[i])) for i in everyone if i not in subset):
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


def _median(values: list[float]) -> float:
    """``statistics.median`` of a few floats, without its generality."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def read_pips(face_bgr: np.ndarray, face_side: float | None = None, source_px: int | None = None) -> DieFace:
    """Read a top face; ``DieFace()`` (unreadable) when no pip layout fits well enough.

    ``face_bgr`` is a square crop centred on the face; ``face_side`` is the face's side as a fraction
    of the crop's (1.0 when the crop is cut to the face). The pips must make a layout centred on
    the crop, with a grid step between a fifth and a third of the face: a face half hidden leaves
    pips that fit a smaller layout off the middle, which is not a reading.

    A face the camera saw with :data:`COARSE_FROM` to :data:`COARSE` pixels (``source_px``: the
    table camera's faces, some 30 pixels wide) is read on a map of COARSE pixels first, a quarter of
    the work, and on the full CANON map only where that gives no reading: enlarged further, such a
    face holds no more detail. On rendered tables the two maps read the same faces but for a few at
    the limit of what the camera resolves, where the coarse one reads more. Smaller faces (a
    640 x 480 camera over the PuXes mat) are read on the full map alone: there the coarse map also
    reads a few wrong that the full one leaves unread.
    """
    if face_bgr is None or face_bgr.size == 0 or min(face_bgr.shape[:2]) < 8:
        return DieFace()
    side = (face_side or 1.0) * CANON
    if source_px is not None and COARSE_FROM <= source_px < COARSE and face_side in (None, 1.0):
        coarse = _reading(find_pips(face_bgr, face_side or 1.0, source_px, COARSE), side)
        if coarse.readable:
            return coarse
    return _reading(find_pips(face_bgr, face_side or 1.0, source_px), side)


def read_faces(faces: list[tuple[np.ndarray, int | None]]) -> list[DieFace]:
    """:func:`read_pips` of many crops cut to their faces, each with its side in the camera's pixels:
    the same readings, their coarse maps searched at once.

    The coarse maps are laid side by side, a few pixels apart, in one image searched by one blob
    detector: each of its threshold levels costs as much for one small map as for twenty (the
    threshold levels above a map's brightest pixel find nothing in it, as they would alone)."""
    out: list[DieFace | None] = [None] * len(faces)
    coarse: list[tuple[int, np.ndarray]] = []
    for i, (face, source_px) in enumerate(faces):
        if face is None or face.size == 0 or min(face.shape[:2]) < 8:
            out[i] = DieFace()
        elif source_px is not None and COARSE_FROM <= source_px < COARSE:
            coarse.append((i, spot_map(face, 1.0, source_px, COARSE)))
        else:
            out[i] = read_pips(face, None, source_px)
    images = [np.clip(spot, 0, 255).astype(np.uint8) for _, spot in coarse]
    tops = [int(image.max()) for image in images]
    searched = [k for k, top in enumerate(tops) if top > 16 + _step(COARSE)]
    pips: list[list[Pip]] = [[] for _ in coarse]
    if searched:
        pitch = COARSE + 16             # wider apart than a blob's radius and the blobs' grouping reach
        row = 16
        mosaic = np.zeros((-(-len(searched) // row) * pitch, min(len(searched), row) * pitch), np.uint8)
        for n, k in enumerate(searched):
            y, x = n // row * pitch, n % row * pitch
            mosaic[y:y + COARSE, x:x + COARSE] = images[k]
        scale = CANON / COARSE
        for kp in _detector(1.0, min(220, max(tops[k] for k in searched) + 1), COARSE).detect(mosaic):
            n = int(kp.pt[1]) // pitch * row + int(kp.pt[0]) // pitch
            k = searched[n]
            x, y = kp.pt[0] - n % row * pitch, kp.pt[1] - n // row * pitch
            r = max(1.0, kp.size / 2.0)
            x0, x1 = int(max(0, x - r / 2)), int(min(COARSE, x + r / 2 + 1))
            y0, y1 = int(max(0, y - r / 2)), int(min(COARSE, y + r / 2 + 1))
            window = coarse[k][1][y0:y1, x0:x1]
            contrast = float(np.float32(float(window.sum()) / window.size)) if window.size else 0.0
            pips[k].append(Pip(float(x) * scale, float(y) * scale, float(math.pi * r * r) * scale * scale, contrast))
    for (i, _), found in zip(coarse, pips):
        reading = _reading(found, CANON)
        out[i] = reading if reading.readable else _reading(find_pips(faces[i][0], 1.0, faces[i][1]), CANON)
    return [face if face is not None else DieFace() for face in out]


def _reading(pips: list[Pip], side: float) -> DieFace:
    """The face that ``pips`` (on a face of ``side`` CANON pixels, centred on the crop) make, if any."""
    fit, confidence = best_reading(pips, side, max_offset=MAX_OFFSET, step_range=(side / 5.0, side / 3.0))
    if fit is None or confidence < MIN_CONFIDENCE:
        return DieFace(confidence=round(confidence, 3))
    return DieFace(pips=fit.pips, confidence=round(confidence, 3))
