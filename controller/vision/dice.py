"""Finding dice in an image and reading their top faces.

In a photo with no picture of the empty surface, :func:`find_dice` uses the learned die finder and
face reader (:mod:`controller.vision.dicenet`, :func:`find_learned`) where their weights are
present, looking at the photo resized so that its dice come out at the size the finder knows
(:func:`learned_scale`). With the empty mat (the live table) or a face library of symbol dice, which the networks
have never seen, it uses the classical finder below.

The classical finder looks for regions that stand out from the surface the dice lie on: against an
image of the empty mat when one is given, otherwise against a smooth estimate of the surface made from
the photo itself. The point deepest inside each die-sized part of those regions is a place that may
hold a die; there the pips are found and fitted to the six layouts (:mod:`controller.vision.pips`),
which also gives the face's centre, turn and size, or a DiXe symbol is matched from a face library
(:mod:`controller.vision.faces`). A small learned reader (:mod:`controller.vision.pipnet`) checks each
pip reading and tells dice from die-like things. Faces nobody is sure of are reported unreadable.

:func:`read_face` reads a crop already cut to one face (the table pipeline's top-face crops);
:func:`read_crop` reads a loose crop of one die.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from controller.vision import dicenet as _dicenet
from controller.vision import pipnet as _pipnet
from controller.vision import pips as _pips
from controller.vision.faces import looks_taught
from controller.vision.pipnet import PipNet
from controller.vision.snapshot import DieFace

if TYPE_CHECKING:
    from controller.vision.faces import FaceLibrary


@dataclasses.dataclass(frozen=True)
class DieDetection:
    """One die found in an image, in that image's pixels."""

    center: tuple[float, float]
    size: float                                   # side of the top face's square
    angle: float                                  # degrees, 0..90
    corners: tuple[tuple[float, float], ...]      # the top face's 4 corners
    face: DieFace
    colour: str | None
    area_fraction: float                          # blob area / expected die area


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A place that may hold a die, with what the pip layout reader made of it."""

    center: tuple[float, float]      # the face's centre when pips placed it, else the blob's depth peak
    size: float                      # the face's side
    angle: float                     # degrees, 0..90
    face: DieFace                    # the pip layout reading (or a library symbol)
    spots: int                       # pip-like spots near the centre
    depth: float                     # how deep inside the foreground, as a fraction of a die
    area_fraction: float


#: Colour distance (L + 1.5 chroma, Lab units) above which a pixel stands out from the surface.
FOREGROUND_THRESHOLD = 22

#: The crop read around a die, as a multiple of its side, so a face cut off-centre is still whole.
CROP_MARGIN = 1.4

#: A die's face side over its pips' grid step (the distance between neighbouring pip positions).
FACE_PER_STEP = 3.8

#: The learned reader drops a detection as "not a die" at this probability, and overrules the
#: pip layout reading at this one (measured on the training sets' validation parts).
NET_NOT_A_DIE = 0.4
NET_SURE = 0.5

#: With a face library (symbol dice, which the network has never seen), a place where neither pips
#: nor a symbol were read is dropped only when the network is this sure it holds no die.
SYMBOLS_NOT_A_DIE = 0.5

#: Two detections closer than this many die sides are one die (an unreadable one: the second figure).
DUPLICATE_REACH = 0.6
UNREAD_DUPLICATE_REACH = 0.85

#: In a loose crop of one die, a centred pip layout reading this sure stands where the face reader
#: is unsure.
LAYOUT_CROP_SURE = 0.85

#: A pip layout reading this sure stands against the network unless the network is at least
#: ``NET_VERY_SURE`` of another face (chosen on the validation parts and rendered table scenes).
LAYOUT_SURE = 0.95
NET_VERY_SURE = 0.6


#: The learned finder's centre probability from which a place is looked at, and the product of it
#: and the face reader's "a die" probability from which a die is reported (chosen on the
#: validation parts of the real photo sets).
LEARNED_MIN_SCORE = 0.3
LEARNED_DIE = 0.35

#: A pip layout's size replaces the learned finder's where the two are within this factor range,
#: and its centre the finder's where the two are within this share of the face's side.
SIZE_FIT_RANGE = (0.4, 2.5)
CENTRE_FIT_REACH = 0.35

#: The face side, in pixels, the learned finder sees best: its training photos' dice were about
#: 40 pixels across, shown at 0.55x to 1.6x. Photos are resized so that their dice come out so.
LEARNED_SIDE = 40.0

#: A photo is first looked at with its long side at most this many pixels, then at a half, a
#: quarter... of that, down to :data:`PROBE_MIN_SIDE` (see :func:`learned_scale`).
PROBE_SIDE = 640
PROBE_MIN_SIDE = 100

#: The finder's centre probability from which a die counts towards the scale estimate; and how much
#: more another look's sure dice must weigh for it to judge the scale rather than the first look
#: (:func:`learned_scale`; on a tilted camera's photo, a die's top and front face together look like
#: a larger die to a smaller look).
PROBE_SCORE = 0.5
FIRST_MARGIN = 1.25

#: The surest dice of a look read to weigh it, at most.
PROBE_DICE = 8

#: The resizing applied to a photo is kept within these factors (a 16-pixel die is enlarged 2.5
#: times; a 250-pixel die in a large photo shrunk 6 times).
SCALE_RANGE = (1 / 8, 3.0)

#: The finder was trained on dice of :data:`LEARNED_SIDE` shown 0.55 to 1.6 times as large: dice
#: seen within this factor of that size are looked at as they are.
RESCALE_MIN = 1.5

#: Below this probability of its likeliest face, a die found by the learned finder is unreadable.
#: On the validation parts, with a reader trained without them, readings at 0.35 or over were right
#: 205 times in 209, and under it wrong more often than right.
LEARNED_SURE = 0.35

#: A learned reading's confidence is the reader's probability of its face, averaged over the
#: crop's eight views. Where all eight views see that face, the reader gives it at least this,
#: and the pip layouts read the same face, two readers that go wrong in different ways agree: the
#: confidence is then that of either being right, ``1 - (1 - reader) * (1 - layouts)``. On the
#: training and validation photos, as they are, halved, tripled and re-encoded (2,567 dice), this
#: asked about a sixth fewer dice at the referee's rule (0.8) and added no wrong confident reading
#: (from 0.45 up); readings of 0.8 or more were wrong once, on a die labelled wrong.
LEARNED_AGREED = 0.5


def _odd(n: float) -> int:
    k = max(3, int(round(n)))
    return k if k % 2 else k + 1


def foreground(image_bgr: np.ndarray, background_bgr: np.ndarray | None = None,
               mask: np.ndarray | None = None, die_size_px: float | None = None) -> np.ndarray:
    """A 0/255 mask of what stands out from the surface.

    With ``background_bgr`` (the empty mat, same size) the surface is that image; otherwise it is the
    photo with everything smaller than a few dice smoothed away (a large median filter).
    """
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB)
    if background_bgr is not None:
        if background_bgr.shape != image_bgr.shape:
            raise ValueError(
                f"background image is {background_bgr.shape}, the frame is {image_bgr.shape}: "
                "take the empty-mat image with the same camera and resolution")
        surface = cv2.cvtColor(background_bgr, cv2.COLOR_BGR2LAB)
    else:
        h, w = lab.shape[:2]
        scale = 4
        small = cv2.resize(lab, (w // scale, h // scale), interpolation=cv2.INTER_AREA)
        k = die_size_px * 3.0 / scale if die_size_px else min(h, w) / 6.0 / scale
        smooth = cv2.medianBlur(small, _odd(k))
        surface = cv2.resize(smooth, (w, h), interpolation=cv2.INTER_LINEAR)
    diff = lab.astype(np.int16) - surface.astype(np.int16)
    # Shadows are darker surface of the same hue: darkening counts less than brightening or colour.
    light = np.where(diff[..., 0] < 0, -0.6 * diff[..., 0], diff[..., 0])
    dist = light + 1.5 * (np.abs(diff[..., 1]) + np.abs(diff[..., 2]))
    dist = np.clip(dist, 0, 255).astype(np.uint8)
    dist = cv2.GaussianBlur(dist, (5, 5), 0)
    fg = np.where(dist >= FOREGROUND_THRESHOLD, 255, 0).astype(np.uint8)
    if mask is not None:
        fg[mask == 0] = 0
    k = _odd((die_size_px or 30) * 0.12)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, kernel)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    return fill_holes(fg, (die_size_px or min(fg.shape[:2]) / 10.0) ** 2 * 0.6)


def fill_holes(fg: np.ndarray, max_hole_area: float) -> np.ndarray:
    """Fill enclosed background regions smaller than ``max_hole_area`` (pips the colour of the mat)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(255 - fg, connectivity=4)
    h, w = fg.shape
    out = fg.copy()
    for i in range(1, count):
        x, y, bw, bh, area = stats[i]
        if area > max_hole_area or x == 0 or y == 0 or x + bw == w or y + bh == h:
            continue
        out[labels == i] = 255
    return out


def peaks(fg: np.ndarray, size: float) -> list[tuple[float, float, float]]:
    """Candidate die centres: the points deepest inside the foreground, one per die-sized spot.

    The distance to the nearest background pixel peaks near the middle of each die (half a side
    deep), also where dice touch one another or a wall. Peaks up to that depth are kept, the
    deepest first, none closer than 0.4 die to one already kept. Returns (x, y, depth).
    """
    dist = cv2.distanceTransform(fg, cv2.DIST_L2, 5)
    k = _odd(size * 0.25)
    local = cv2.dilate(dist, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    ys, xs = np.nonzero((dist >= local) & (dist >= 0.12 * size) & (dist <= 0.85 * size))
    order = np.argsort(-dist[ys, xs], kind="stable")
    kept: list[tuple[float, float, float]] = []
    min_gap = (0.4 * size) ** 2
    for i in order:
        x, y = float(xs[i]), float(ys[i])
        if all((x - kx) ** 2 + (y - ky) ** 2 >= min_gap for kx, ky, _ in kept):
            kept.append((x, y, float(dist[ys[i], xs[i]])))
    return kept


def estimate_die_size(fg: np.ndarray) -> float | None:
    """The typical side of a die, from the widest square that fits in each foreground region.

    A die's region holds a square about one die wide, dice touching one another too; thin things
    (walls, rims, cables) hold much less. The upper quartile over regions is robust to a few odd
    ones and leans to the larger, because a die whose colour is close to the surface shows only
    part of its square.
    """
    dist = cv2.distanceTransform(fg, cv2.DIST_L2, 5)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    if count <= 1:
        return None
    widest = np.zeros(count, np.float32)
    inside = fg.ravel() > 0
    depths, owners = dist.ravel()[inside], labels.ravel()[inside]
    order = np.argsort(depths, kind="stable")
    widest[owners[order]] = depths[order]        # the deepest pixel of each region is written last
    sides = []
    for i in range(1, count):
        side = 2.0 * widest[i]
        if side >= 8 and 0.6 * side * side <= stats[i, cv2.CC_STAT_AREA] <= 12 * side * side:
            sides.append(side)
    if not sides:
        return None
    return float(np.percentile(sides, 75))


def face_crop(image_bgr: np.ndarray, center: tuple[float, float], side: float, angle: float,
              out: int = _pips.CANON, interpolation: int = cv2.INTER_AREA) -> np.ndarray:
    """The square of ``side`` pixels at ``center``, turned by ``angle`` degrees, resampled to ``out``."""
    rot = cv2.getRotationMatrix2D(center, angle, out / side)
    rot[0, 2] += out / 2 - center[0]
    rot[1, 2] += out / 2 - center[1]
    return cv2.warpAffine(image_bgr, rot, (out, out), flags=interpolation,
                          borderMode=cv2.BORDER_REPLICATE)


def read_face(crop_bgr: np.ndarray, faces: FaceLibrary | None = None,
              face_side: float | None = None, source_px: int | None = None) -> DieFace:
    """Read the top face in a crop centred on it.

    ``face_side``: the face's side as a fraction of the crop's side (default: the crop is the face).
    ``source_px``: the face's side in the camera's pixels, when the crop was enlarged from fewer
    (see :func:`controller.vision.pips.spot_map`).
    With a face library, symbol faces are tried first; a pip reading is returned otherwise. A face
    the library takes for one of its own but cannot tell which stays unreadable: read as pips, a
    DiXe head would pass for a one.
    """
    if faces is not None and len(faces):
        symbol = faces.match(crop_bgr, face_side or 1.0)
        if looks_taught(symbol):
            return symbol
    return _pips.read_pips(crop_bgr, face_side, source_px=source_px)


def _corners(center: tuple[float, float], side: float, angle: float) -> tuple[tuple[float, float], ...]:
    pts = cv2.boxPoints((center, (side, side), angle))
    return tuple((float(x), float(y)) for x, y in pts)


def _read_at(image_bgr: np.ndarray, center: tuple[float, float], size: float, angle: float,
             steps: tuple[float, float],
             ) -> tuple[DieFace, _pips.Fit | None, int]:
    """Read the face near ``center``: the reading, the pip layout's placement in image pixels, and
    how many pip-like spots lie near the centre (0 means this is probably not a die).

    ``size`` is the face's side and ``steps`` the range of pip grid steps allowed, in image pixels.
    """
    side = size * CROP_MARGIN
    crop = face_crop(image_bgr, center, side, angle)
    scale = side / _pips.CANON
    spots = _pips.find_pips(crop, 1.0 / CROP_MARGIN)
    fit, confidence = _pips.best_reading(spots, _pips.CANON / CROP_MARGIN, max_offset=0.45,
                                         step_range=(steps[0] / scale, steps[1] / scale))
    near = sum(1 for p in spots
               if math.hypot(p.x - _pips.CANON / 2, p.y - _pips.CANON / 2) * scale < 0.55 * size)
    if fit is None or confidence < _pips.MIN_CONFIDENCE:
        return DieFace(confidence=round(confidence, 3)), None, near
    # Back to image pixels: the crop is turned by ``angle`` about ``center`` and scaled.
    t = math.radians(angle)
    u, v = (fit.centre[0] - _pips.CANON / 2) * scale, (fit.centre[1] - _pips.CANON / 2) * scale
    cx = center[0] + u * math.cos(t) + v * math.sin(t)
    cy = center[1] - u * math.sin(t) + v * math.cos(t)
    placed = _pips.Fit(fit.pips, fit.residual, fit.step * scale, fit.angle - t, (cx, cy))
    return DieFace(pips=fit.pips, confidence=round(confidence, 3)), placed, near


def _check_image(image_bgr: np.ndarray | None) -> None:
    """ValueError unless ``image_bgr`` is a colour image with pixels."""
    if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        raise ValueError("find_dice needs a colour (BGR, 3-channel) image")
    if image_bgr.size == 0:
        raise ValueError("find_dice was given an empty image (0 pixels): check the camera or the file")


def candidates(image_bgr: np.ndarray, die_size_px: float | None = None, background_bgr=None,
               mask=None, faces: FaceLibrary | None = None) -> list[Candidate]:
    """Every place that may hold a die, each read by pip layouts.

    Places are the depth peaks of the foreground (:func:`peaks`). The face size is ``die_size_px``
    when known; otherwise it is estimated: first roughly from the foreground's blobs, then from the
    pip spacing of the faces read surely (4, 5 and 6 pips). Each place is read in a wide crop, then
    again in a crop centred and squared on the pip layout found, at that die's own scale (dice
    differ in size and perspective makes near ones bigger).
    """
    _check_image(image_bgr)
    fg = foreground(image_bgr, background_bgr, mask, die_size_px)
    blob_size = die_size_px or estimate_die_size(fg)
    if blob_size is None:
        return []
    places = peaks(fg, blob_size)
    if die_size_px:
        size = die_size_px
    else:
        # The blobs hold shadows and side faces: a face is smaller than its blob, by how much
        # depends on the light, so the pips tell.
        rough = [_read_at(image_bgr, (x, y), blob_size, 0.0, (blob_size / 9.0, blob_size / 2.5))
                 for x, y, _ in places]
        sure = [fit.step for face, fit, _ in rough
                if fit is not None and fit.pips >= 4 and face.confidence >= 0.8]
        size = float(np.median(sure)) * FACE_PER_STEP if sure else blob_size * 0.75
    steps = (size / FACE_PER_STEP * 0.7, size / FACE_PER_STEP * 1.45)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    out: list[Candidate] = []
    for x, y, depth in places:
        component = labels[int(y), int(x)]
        if faces is not None and len(faces):
            angle = _blob_angle(labels, component, stats)
            symbol = faces.match(face_crop(image_bgr, (x, y), size, angle))
            if symbol.readable:
                frac = float(stats[component, cv2.CC_STAT_AREA]) / (size * size)
                out.append(Candidate((float(x), float(y)), float(size), float(angle), symbol, 1,
                                     depth / blob_size, min(frac, 99.0)))
                continue
        # The place may be off the face's centre (shadows, side faces): look wide first.
        face, fit, near = _read_at(image_bgr, (x, y), max(size, blob_size), 0.0, steps)
        die_size = size
        if fit is not None:
            center, angle = fit.centre, math.degrees(fit.angle) % 90.0
            if fit.pips > 1:
                die_size = fit.step * FACE_PER_STEP
                face2, _, _ = _read_at(image_bgr, center, die_size, angle,
                                       (fit.step * 0.85, fit.step * 1.18))
                if face2.readable and face2.confidence >= face.confidence:
                    face = face2
        else:
            center, angle = (x, y), _blob_angle(labels, component, stats)
        frac = float(stats[component, cv2.CC_STAT_AREA]) / (die_size * die_size)
        out.append(Candidate((float(center[0]), float(center[1])), float(die_size), float(angle),
                             face, near, depth / blob_size, min(frac, 99.0)))
    return out


def candidate_crop(image_bgr: np.ndarray, cand: Candidate | DieDetection) -> np.ndarray:
    """The crop the readers see: the face squared to the crop, with a margin around it."""
    return face_crop(image_bgr, cand.center, cand.size * CROP_MARGIN, cand.angle)


def _detection(c: Candidate, face: DieFace) -> DieDetection:
    return DieDetection(center=c.center, size=c.size, angle=c.angle,
                        corners=_corners(c.center, c.size, c.angle), face=face, colour=None,
                        area_fraction=c.area_fraction)


def locate(image_bgr: np.ndarray, die_size_px: float | None = None, background_bgr=None,
           mask=None, faces: FaceLibrary | None = None) -> list[DieDetection]:
    """The dice found and read by pip layouts alone: a place is a die when pip-like spots (or a
    library face) are seen near its middle; its face is unreadable when they fit no layout."""
    found = []
    for c in candidates(image_bgr, die_size_px, background_bgr, mask, faces):
        if not c.face.readable and c.spots == 0:
            continue
        # Of two readings of one die, the one seeing more pips saw the whole face.
        score = (10.0 + (c.face.pips or 0) if c.face.readable else 0.0) + c.face.confidence + c.depth
        found.append((score, _detection(c, c.face)))
    return _distinct(found)


def find_dice(image_bgr: np.ndarray, die_size_px: float | None = None, background_bgr=None,
              mask=None, faces: FaceLibrary | None = None) -> list[DieDetection]:
    """Every die in ``image_bgr`` with its top face read.

    ``die_size_px``: the side of a die's top face in pixels, when known (the mat calibration gives
    it); otherwise it is estimated from the image. ``background_bgr``: the empty mat, same size.
    ``mask``: non-zero where dice may be. ``faces``: a DiXe face library.

    Without ``background_bgr`` and ``faces``, the learned finder reads the photo
    (:func:`find_learned`). Otherwise places that may hold a die are read by pip layouts
    (:func:`candidates`), then checked by the small learned reader (:mod:`controller.vision.pipnet`),
    which also tells dice from die-like things; where its weights are absent, the pip layout
    reading stands alone (:func:`locate`).
    """
    finder = _dicenet.default()
    if finder is not None and background_bgr is None and (faces is None or not len(faces)):
        return find_learned(image_bgr, finder, die_size_px, mask)
    net = _pipnet.default()
    if net is None:
        return locate(image_bgr, die_size_px, background_bgr, mask, faces)
    cands = candidates(image_bgr, die_size_px, background_bgr, mask, faces)
    pip_cands = [c for c in cands if c.face.symbol is None]
    found = [(20.0 + c.face.confidence, _detection(c, c.face)) for c in cands if c.face.symbol is not None]
    if pip_cands:
        x = np.stack([_pipnet.features(candidate_crop(image_bgr, c), 1.0 / CROP_MARGIN)
                      for c in pip_cands])
        # With a face library the table holds symbol dice, which the network has never seen: it
        # may then doubt a reading but not remove a die.
        may_drop = faces is None or not len(faces)
        not_a_die = NET_NOT_A_DIE if may_drop else SYMBOLS_NOT_A_DIE
        for c, p in zip(pip_cands, net.probabilities(x)):
            combined = _combine(c.face, p, may_drop)
            if combined is None:
                continue
            face, die = combined
            if not face.readable and c.spots == 0 and die < 1.0 - not_a_die:
                continue                      # no pips, no known symbol, not die-like
            found.append((die + face.confidence + 0.1 * c.depth, _detection(c, face)))
    return _distinct(found)


def learned_scale(image_bgr: np.ndarray, finder: _dicenet.DiceNet
                  ) -> tuple[float, list[_dicenet.NetDetection]]:
    """The factor by which to resize a photo for the finder, so that its dice come out at a size
    it knows (:data:`LEARNED_SIDE`, within :data:`RESCALE_MIN`), and the finder's detections in
    the photo so resized.

    The photo is looked at with its long side at :data:`PROBE_SIDE` pixels (or as it is, when
    smaller, and then also twice as large), then at a half, a quarter... of that, down to
    :data:`PROBE_MIN_SIDE`. The look whose sure dice (centre probability :data:`PROBE_SCORE` or
    more) add up to the most probability is the one nearest the right scale: shown dice far larger
    than it knows, the finder sees parts of them, many but unsure; shown dice far smaller, a few
    unsure blobs. That look's sure dice's median size tells the dice's size. The photo as first
    looked at stands where its dice come out at a size the finder knows; else the look nearest to
    :data:`LEARNED_SIDE`, or a new one there, whose size is checked once more (the finder's sizes
    flatten out beyond the sizes it was trained on).
    """
    h, w = image_bgr.shape[:2]
    first = min(1.0, PROBE_SIDE / max(h, w))
    scales = ([2.0 * first] if max(h, w) < PROBE_SIDE else []) + [first]
    while max(h, w) * scales[-1] / 2.0 >= PROBE_MIN_SIDE:
        scales.append(scales[-1] / 2.0)
    looks: dict[float, list[_dicenet.NetDetection]] = {}
    sures: dict[float, list[_dicenet.NetDetection]] = {}
    for scale in scales:
        looks[scale] = finder.detect(_resized(image_bgr, scale), LEARNED_MIN_SCORE)
        sure = [d for d in looks[scale] if d.score >= PROBE_SCORE][:PROBE_DICE]
        if sure:
            sures[scale] = sure
    if not sures:
        return first, looks[first]
    if len(sures) == 1:
        best = next(iter(sures))
    else:
        reader = _dicenet.default_reader()
        weights = {s: _look_weight(image_bgr, sure, s, reader) for s, sure in sures.items()}
        best = max(weights, key=lambda s: weights[s])
        if first in weights and weights[first] * FIRST_MARGIN >= weights[best]:
            best = first
    side = float(np.median([d.size for d in sures[best]])) / best
    near = [s for s in looks if abs(math.log(s * side / LEARNED_SIDE)) < math.log(RESCALE_MIN)]
    if near:
        scale = first if first in near else min(near, key=lambda s: abs(math.log(s * side / LEARNED_SIDE)))
        return scale, looks[scale]
    scale = float(np.clip(LEARNED_SIDE / side, *SCALE_RANGE))
    dets = finder.detect(_resized(image_bgr, scale), LEARNED_MIN_SCORE)
    sure = [d.size for d in dets if d.score >= PROBE_SCORE]
    if sure:
        again = float(np.clip(scale * LEARNED_SIDE / float(np.median(sure)), *SCALE_RANGE))
        if abs(math.log(again / scale)) >= math.log(RESCALE_MIN):
            scale = again
            dets = finder.detect(_resized(image_bgr, scale), LEARNED_MIN_SCORE)
    return scale, dets


def _look_weight(image_bgr: np.ndarray, sure: list[_dicenet.NetDetection], scale: float,
                 reader: PipNet | None) -> float:
    """How well a look at ``scale`` sees dice: the mean over its sure dice of the finder's centre
    probability times how surely the face reader, shown each in one view, reads a face there (the
    finder's own face probability without the reader). A part of a die reads as no die or no clear
    face."""
    if reader is None:
        return float(np.mean([d.score * float(d.faces.max()) for d in sure]))
    side = _dicenet.input_side(reader)
    crops = np.stack([_dicenet.reader_input(image_bgr, (d.center[0] / scale, d.center[1] / scale), d.size / scale,
                                            side) for d in sure])
    p = reader.probabilities(crops)
    return float(np.mean(np.array([d.score for d in sure]) * p[:, :_pipnet.NOT_A_DIE].max(axis=1)))


def _resized(image_bgr: np.ndarray, scale: float) -> np.ndarray:
    if scale == 1.0:
        return image_bgr
    h, w = image_bgr.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(image_bgr, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)


def learned_places(image_bgr: np.ndarray, finder: _dicenet.DiceNet, die_size_px: float | None = None,
                   mask: np.ndarray | None = None) -> tuple[list[_dicenet.NetDetection], np.ndarray]:
    """The places the learned finder takes for dice, in the photo's pixels, and the face reader's
    probabilities for each of their eight views (8 x places x 7: faces 1..6, "not a die"); without
    the reader's weights, the finder's own face probabilities in every view."""
    _check_image(image_bgr)
    h, w = image_bgr.shape[:2]
    if die_size_px:
        scale = float(np.clip(LEARNED_SIDE / die_size_px, *SCALE_RANGE))
        seen = finder.detect(_resized(image_bgr, scale), LEARNED_MIN_SCORE)
    else:
        scale, seen = learned_scale(image_bgr, finder)
    dets = []
    for det in seen:
        x, y = det.center[0] / scale, det.center[1] / scale
        if mask is None or mask[min(h - 1, max(0, int(y))), min(w - 1, max(0, int(x)))]:
            dets.append(_dicenet.NetDetection((x, y), det.size / scale, det.score, det.faces))
    reader = _dicenet.default_reader()
    if reader is None or not dets:
        return dets, np.repeat(np.array([np.append(d.faces, 0.0) for d in dets],
                                        np.float32).reshape(1, -1, 7), 8, axis=0)
    side = _dicenet.input_side(reader)
    crops = np.stack([_dicenet.reader_input(image_bgr, det.center, die_size_px or det.size, side)
                      for det in dets])
    return dets, _dicenet.read_views(reader, crops)


def find_learned(image_bgr: np.ndarray, finder: _dicenet.DiceNet, die_size_px: float | None = None,
                 mask: np.ndarray | None = None) -> list[DieDetection]:
    """The dice the learned finder sees (:mod:`controller.vision.dicenet`), each face read by its
    second stage, the face reader, where its weights are present, else by the finder's own face
    probabilities. The pip layouts, fitted where the reading says, give each face's turn.

    The finder looks at the photo resized so that its dice are about :data:`LEARNED_SIDE` pixels
    across: by ``die_size_px`` when given (the mat's calibration), else by :func:`learned_scale`.
    The reader reads each die in the photo itself."""
    dets, views = learned_places(image_bgr, finder, die_size_px, mask)
    sizes = [float(die_size_px or det.size) for det in dets]
    probs = views.mean(axis=0) if len(dets) else []
    kept = []
    for n, (det, size, p) in enumerate(zip(dets, sizes, probs)):
        die = det.score * (1.0 - float(p[_pipnet.NOT_A_DIE]))
        if die < LEARNED_DIE:
            continue
        face = _learned_face(views[:, n])
        centre, angle, fitted = det.center, 0.0, None
        if face.pips is not None:
            layout, fit, _ = _read_at(image_bgr, det.center, size, 0.0, (size / 12.0, size / 2.0))
            face = _learned_face(views[:, n], layout)
            if fit is not None and fit.pips == face.pips:
                # The layout places the face finer than the finder's grid, looking at a smaller
                # copy of the photo, can.
                if math.dist(fit.centre, det.center) < CENTRE_FIT_REACH * size:
                    centre = fit.centre
                if face.pips > 1:
                    angle = math.degrees(fit.angle) % 90.0
                    ratio = fit.step * FACE_PER_STEP / size
                    fitted = ratio if SIZE_FIT_RANGE[0] <= ratio <= SIZE_FIT_RANGE[1] else None
        kept.append((die, centre, size, face, angle, fitted))
    # The finder's sizes are rougher than the pip layouts': where a layout agreeing with the face
    # gives a size, that stands, and the others are scaled as those were (the dice in one photo
    # are seen alike). The sizes only place the corners; the reading is done.
    ratios = [fitted for *_, fitted in kept if fitted is not None]
    factor = float(np.median(ratios)) if ratios and not die_size_px else 1.0
    found: list[tuple[float, DieDetection]] = []
    for die, centre, size, face, angle, fitted in kept:
        side = size if die_size_px else size * (fitted or factor)
        found.append((die, _detection(Candidate((float(centre[0]), float(centre[1])), side, angle, face, 0, 0.0,
                                                1.0), face)))
    # The face reader has judged every place a die, read or not.
    return _distinct(found, unread_reach=DUPLICATE_REACH)


def _learned_face(views: np.ndarray, layout: DieFace | None = None) -> DieFace:
    """The face from the reader's probabilities for each view of a crop (8 x 7: faces, then "not a
    die"), and how sure it is (:data:`LEARNED_AGREED`), given the pip layouts' reading of it;
    without the reader's weights, the finder's own face probabilities stand in. The reader alone
    reads better than mixed with the finder's: on the validation photos any share of the
    finder's lowered the accuracy."""
    faces = views[:, :_pipnet.NOT_A_DIE] / np.maximum(1e-6, views[:, :_pipnet.NOT_A_DIE].sum(axis=1, keepdims=True))
    p = faces.mean(axis=0)
    best = int(np.argmax(p))
    sure = float(p[best])
    if sure < LEARNED_SURE:
        return DieFace(confidence=round(sure, 3))
    if (layout is not None and layout.pips == best + 1 and sure >= LEARNED_AGREED
            and bool(np.all(faces.argmax(axis=1) == best))):
        sure = max(sure, 1.0 - (1.0 - sure) * (1.0 - layout.confidence))
    return DieFace(pips=best + 1, confidence=round(sure, 3))


def _combine(classical: DieFace, p: np.ndarray, may_drop: bool = True) -> tuple[DieFace, float] | None:
    """The face as both readers see it, and how surely this is a die; None when surely not one
    (and ``may_drop``).

    Where the two agree, the face stands; where they differ, the network's face stands if it is
    sure, and the face is unreadable otherwise.
    """
    die = 1.0 - float(p[_pipnet.NOT_A_DIE])
    if die < 1.0 - NET_NOT_A_DIE and may_drop:
        return None
    faces = p[:_pipnet.NOT_A_DIE] / max(1e-6, float(p[:_pipnet.NOT_A_DIE].sum()))
    best = int(np.argmax(faces)) + 1
    sure = float(faces[best - 1])
    if classical.pips == best:
        face = DieFace(pips=best, confidence=round(max(sure, classical.confidence), 3))
    elif classical.pips is not None and classical.confidence >= LAYOUT_SURE and sure < NET_VERY_SURE:
        face = DieFace(pips=classical.pips, confidence=round(classical.confidence * (1.0 - sure), 3))
    elif sure >= NET_SURE:
        face = DieFace(pips=best, confidence=round(sure * (0.9 if classical.pips else 1.0), 3))
    else:
        face = DieFace(confidence=round(sure, 3))
    return face, die


def _blob_angle(labels: np.ndarray, component: int, stats: np.ndarray) -> float:
    x, y, w, h, _ = stats[component]
    region = (labels[y:y + h, x:x + w] == component).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return 0.0
    return float(cv2.minAreaRect(max(contours, key=cv2.contourArea))[2] % 90.0)


def _distinct(found: list[tuple[float, DieDetection]], unread_reach: float = UNREAD_DUPLICATE_REACH,
              ) -> list[DieDetection]:
    """The best detection of each die: of two closer than ~0.6 die (the larger of the two), the
    higher scored one stays; an unreadable one must be farther (``unread_reach``), since a die's
    side faces and stray pips beside a read face are no die of their own."""
    kept: list[DieDetection] = []
    for _, det in sorted(found, key=lambda item: -item[0]):
        reach = DUPLICATE_REACH if det.face.readable else unread_reach
        if all(math.dist(det.center, k.center) >= reach * max(det.size, k.size) for k in kept):
            kept.append(det)
    kept.sort(key=lambda d: (d.center[1], d.center[0]))
    return kept


def read_crop(crop_bgr: np.ndarray, faces: FaceLibrary | None = None) -> DieFace:
    """Read the die in a crop showing one die near its middle, however tightly cut.

    The face reader (:func:`controller.vision.dicenet.default_reader`), trained on loose crops of real
    dice as well as on photos, reads the crop's middle as a face filling
    :data:`controller.vision.dicenet.CROP_FACE_SIDE` of it; it reads translucent casino dice, whose
    pips show through the other faces, far better than pip layouts. Where it is unsure, a sure pip
    layout reading of the middle (a face filling 60 % to all of the crop) stands; failing both, the
    die is unreadable. With a face library (symbol dice, which the reader has never seen), or
    without the reader's weights, the pip and symbol readers run alone, and the die is also looked
    for in the crop as in a photo.
    """
    h, w = crop_bgr.shape[:2]
    side = min(h, w)
    square = crop_bgr[(h - side) // 2:(h - side) // 2 + side, (w - side) // 2:(w - side) // 2 + side]
    reader = _dicenet.default_reader()
    if reader is None or (faces is not None and len(faces)):
        return _read_crop_classical(crop_bgr, square, faces, _centred_reading(square, faces))
    x = _dicenet.reader_input(square, (side / 2, side / 2), _dicenet.CROP_FACE_SIDE * side,
                              _dicenet.input_side(reader))
    views = _dicenet.read_views(reader, x[None])[:, 0]
    learned = _learned_face(views)
    if learned.readable and learned.confidence >= LEARNED_AGREED:
        return _learned_face(views, _centred_reading(square, faces))
    if learned.readable:
        return learned
    centred = _centred_reading(square, faces)
    return centred if centred.readable and centred.confidence >= LAYOUT_CROP_SURE else learned


def _centred_reading(square: np.ndarray, faces: FaceLibrary | None) -> DieFace:
    """The surest pip or symbol reading of a square crop's middle, as a face filling 60 % to all of it."""
    return max((read_face(square, faces, face_side=f) for f in (0.6, 0.7, 0.85, 1.0)),
               key=lambda f: (f.readable, f.confidence))


def _read_crop_classical(crop_bgr: np.ndarray, square: np.ndarray, faces: FaceLibrary | None,
                         centred: DieFace) -> DieFace:
    """:func:`read_crop` by pip layouts and the die finder alone, given the centred square's reading."""
    h, w = crop_bgr.shape[:2]
    if centred.readable and centred.confidence >= 0.9:
        return centred
    pad = max(h, w) // 2
    edge = np.concatenate([crop_bgr[0], crop_bgr[-1], crop_bgr[:, 0], crop_bgr[:, -1]])
    colour = [int(v) for v in np.median(edge, axis=0)]
    padded = cv2.copyMakeBorder(crop_bgr, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=colour)
    centre = (w / 2 + pad, h / 2 + pad)
    near = [d.face for d in find_dice(padded, faces=faces) if math.dist(d.center, centre) < 0.3 * max(h, w)]
    # A crop cut by hand or by another detector may sit a little off the face.
    for f in (0.6, 0.8, 1.0):
        fit, confidence = _pips.best_reading(_pips.find_pips(square, f), f * _pips.CANON, max_offset=0.3)
        if fit is not None and confidence >= _pips.MIN_CONFIDENCE:
            near.append(DieFace(pips=fit.pips, confidence=round(confidence * 0.9, 3)))
    return max([centred, *near], key=lambda f: (f.readable, f.confidence))
