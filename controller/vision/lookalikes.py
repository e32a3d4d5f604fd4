"""Telling look-alike faces apart: faces that share most of their drawing and differ in a detail.

DiXe character faces are one horned head with a different letter inside: compared whole, at the
small size the face library's first look uses, every head matches every other almost perfectly. Here
the candidates are compared again at the crop's full size (the pixels the camera really gave), each
reference first aligned on the crop (turn, scale, shift), and only where the candidates differ from
one another: the shared outline is left out, so the letter decides. A candidate is kept only if it is
closer to the crop than every other candidate on the pixels where the two differ, by a clear margin,
and if nothing on the face is left unexplained by it (a face that was never taught, another letter in
the same head, leaves a patch its nearest reference does not explain).
"""

from __future__ import annotations

import dataclasses
import functools
import math

import cv2
import numpy as np

#: Side of the pictures look-alikes are compared at (a face crop's side in the table's pipeline).
DETAIL_SIZE = 90
#: Side at which each reference is aligned on the crop, with this many pixels of slack each way.
ALIGN_SIZE = 48
ALIGN_SLACK = 3
#: Turns (degrees, about the reference's quarter turn found by the first look) and scales tried.
ALIGN_ANGLES = (-9.0, -6.0, -3.0, 0.0, 3.0, 6.0, 9.0)
ALIGN_SCALES = (0.94, 0.97, 1.0, 1.03, 1.06)
#: Softening of the compared pictures (pixels at DETAIL_SIZE): a crop and a reference differ by a few
#: tenths of a pixel of placement and by their blur.
SOFTEN = 1.0
#: Share of the side left out at the face's rim (its rounded edge, and the mat showing at its corners).
RIM = 0.08
#: Standardised darkness above which every candidate has ink: the shared drawing, left out.
SHARED_INK = 0.5
#: Pixels of slack (at DETAIL_SIZE) for the detail itself, after the face is aligned.
LOCAL_SLACK = 2
#: Softening of the residue map, whose peak says whether a patch of the face is left unexplained.
RESIDUE_SOFTEN = 3.0


@dataclasses.dataclass(frozen=True)
class Verdict:
    """Per candidate: the least margin by which it is closer to the crop than each other candidate,
    where the two differ (-1..1), and the largest patch of the crop it leaves unexplained."""

    margins: np.ndarray
    residues: np.ndarray


def detail_picture(image: np.ndarray) -> np.ndarray:
    """A face picture (BGR or grey, edge to edge) as compared here: grey, DETAIL_SIZE square, float."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if grey.shape != (DETAIL_SIZE, DETAIL_SIZE):
        grey = cv2.resize(grey, (DETAIL_SIZE, DETAIL_SIZE),
                          interpolation=cv2.INTER_AREA if grey.shape[0] > DETAIL_SIZE else cv2.INTER_LINEAR)
    return cv2.GaussianBlur(grey.astype(np.float32), (0, 0), SOFTEN)


def _small(picture: np.ndarray) -> np.ndarray:
    return cv2.resize(picture, (ALIGN_SIZE, ALIGN_SIZE), interpolation=cv2.INTER_AREA)


def _turn(side: int, degrees: float, scale: float, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
    m = cv2.getRotationMatrix2D(((side - 1) / 2.0, (side - 1) / 2.0), degrees, scale)
    m[0, 2] += dx
    m[1, 2] += dy
    return m


def align(crop: np.ndarray, reference: np.ndarray, quarter: int) -> np.ndarray:
    """``reference`` (a :func:`detail_picture`) turned by ``quarter`` quarter turns, then turned, scaled
    and shifted to lie best on ``crop`` (a :func:`detail_picture` too)."""
    small_crop = _small(crop)
    turned = np.ascontiguousarray(np.rot90(reference, quarter))
    small_ref = _small(turned)
    n, s = ALIGN_SIZE, ALIGN_SLACK
    best = (-2.0, 0.0, 1.0, 0, 0)
    for degrees in ALIGN_ANGLES:
        for scale in ALIGN_SCALES:
            moved = cv2.warpAffine(small_ref, _turn(n, degrees, scale), (n, n), borderMode=cv2.BORDER_REPLICATE)
            found = cv2.matchTemplate(small_crop, moved[s:n - s, s:n - s], cv2.TM_CCOEFF_NORMED)
            _, score, _, at = cv2.minMaxLoc(found)
            if score > best[0]:
                best = (score, degrees, scale, at[0] - s, at[1] - s)
    _, degrees, scale, dx, dy = best
    f = DETAIL_SIZE / ALIGN_SIZE
    return cv2.warpAffine(turned, _turn(DETAIL_SIZE, degrees, scale, dx * f, dy * f), (DETAIL_SIZE, DETAIL_SIZE),
                          borderMode=cv2.BORDER_REPLICATE)


@functools.lru_cache(maxsize=1)
def _inner() -> np.ndarray:
    """The face less its rim (:data:`RIM`), as weights: 1 inside, 0 on the rim. Read only."""
    n = DETAIL_SIZE
    inner = np.zeros((n, n), np.float32)
    rim = round(RIM * n)
    inner[rim:n - rim, rim:n - rim] = 1.0
    inner.flags.writeable = False
    return inner


def _standard(picture: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``picture`` less its weighted mean, over its weighted spread: light and contrast left out."""
    total = float(weight.sum())
    mean = float((picture * weight).sum()) / total
    centred = picture - mean
    return centred / math.sqrt(max(float((centred * centred * weight).sum()) / total, 1e-6))


def _shifts(picture: np.ndarray) -> np.ndarray:
    """``picture`` shifted by up to LOCAL_SLACK pixels each way: (shifts, side, side)."""
    return np.stack([np.roll(picture, (dy, dx), axis=(0, 1))
                     for dy in range(-LOCAL_SLACK, LOCAL_SLACK + 1) for dx in range(-LOCAL_SLACK, LOCAL_SLACK + 1)])


def _least(seen: np.ndarray, shifted: tuple[np.ndarray, np.ndarray], weight: np.ndarray) -> float:
    """The least weighted squared difference between ``seen`` and any of the ``shifted`` pictures
    (flattened, and their squares: the sum expanded, three products instead of one per shift)."""
    flat, squares = shifted
    w = weight.ravel()
    ws = w * seen.ravel()
    return float((float(ws @ seen.ravel()) - 2.0 * (flat @ ws) + squares @ w).min())


def _unexplained(seen: np.ndarray, shifted: np.ndarray, where: np.ndarray) -> float:
    """The largest patch, within ``where``, that the best placed of the ``shifted`` pictures leaves
    unexplained in ``seen``: the peak of their softened squared difference."""
    best = int((((seen - shifted) ** 2) * where).sum(axis=(1, 2)).argmin())
    return float((cv2.GaussianBlur((seen - shifted[best]) ** 2, (0, 0), RESIDUE_SOFTEN) * where).max())


def compare(crop: np.ndarray, candidates: list[tuple[np.ndarray, int]]) -> Verdict:
    """How each candidate reference (a :func:`detail_picture` and the quarter turn the first look found
    for it) explains ``crop`` (a :func:`detail_picture`) against the others. The residue is measured
    for the candidate with the best margin alone (the others' is infinite)."""
    inner = _inner()
    seen = _standard(crop, inner)
    refs = [_standard(align(crop, ref, quarter), inner) for ref, quarter in candidates]
    shared = np.stack(refs).max(axis=0) < -SHARED_INK           # dark in every candidate
    own = inner * ~cv2.dilate(shared.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    moved = [_shifts(r) for r in refs]
    flat = [(m.reshape(len(m), -1), m.reshape(len(m), -1) ** 2) for m in moved]
    count = len(refs)
    margins = np.full(count, np.inf)
    for i in range(count):
        for j in range(i + 1, count):
            where = cv2.GaussianBlur(np.abs(refs[i] - refs[j]), (0, 0), 2.0) * own
            di, dj = _least(seen, flat[i], where), _least(seen, flat[j], where)
            margin = (dj - di) / max(di + dj, 1e-6)
            margins[i] = min(margins[i], margin)
            margins[j] = min(margins[j], -margin)
    if count == 1:
        margins[0] = 1.0
    residues = np.full(count, np.inf)
    best = int(np.argmax(margins))
    residues[best] = _unexplained(seen, moved[best], own)
    return Verdict(margins, residues)


def unexplained(crop: np.ndarray, reference: np.ndarray, quarter: int) -> float:
    """The largest patch of ``crop`` that ``reference`` (both :func:`detail_picture`, the reference at
    ``quarter`` quarter turns) leaves unexplained once aligned on it, anywhere on the face."""
    inner = _inner()
    seen = _standard(crop, inner)
    return _unexplained(seen, _shifts(_standard(align(crop, reference, quarter), inner)), inner)
