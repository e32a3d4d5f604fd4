"""From camera frames to :class:`~controller.vision.snapshot.TableSnapshot`.

Per frame (:class:`FrameAnalyser`):

1. The frame is resampled to a top-down view of the mat plane at the profile's scale (``Rectifier``),
   only around what differs from the empty mat (looked for first on a sparse grid of the view).
2. What differs from the rectified empty mat (shadows and changes of light excepted, see
   :mod:`controller.vision.shadows`) is split into regions. A region far larger than a die, that the
   dice finder cannot explain as a cluster of dice, is an :class:`Occlusion` (a hand, an arm).
3. Each region is measured against the camera's geometry. Seen from a camera at height ``H``, a die's
   silhouette on the mat plane runs from its base (where it really stands, nearest the camera's nadir)
   to its top face (magnified by ``k = H / (H - h)`` about the nadir). The silhouette's inner and outer
   extents along the line from the nadir give both the true position and the top face's height ``h``:
   one die (``h`` = edge) or a temple (``h`` = 2 edges). Near the nadir, where that is ambiguous, the
   layout's temple zones and the stacks standing at the last snapshot decide.
4. A region one die cannot explain holds touching dice: the dice finder
   (:func:`controller.vision.dice.find_dice`) runs on that region's crop, with the empty mat as
   background and the die's size in pixels, and its detections split the region (k-means otherwise).
5. Each top face is cut from the camera frame itself where geometry puts it (one resampling, the
   camera's full resolution, the side faces left out) and read as
   :func:`controller.vision.dice.read_face` does (symbol faces, then pips), with the pip reader's
   median taken at the face's own resolution in the frame (see :func:`controller.vision.pips.spot_map`).

Stillness, identities and topples are kept across snapshots by :class:`TableWatcher`.
"""

from __future__ import annotations

import cmath
import dataclasses
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

import cv2
import numpy as np

from controller.vision.geometry import (HFOV_RANGE_DEG, PoseResult, Rectifier, apply_parallax, focal_px,
                                        height_from_parallax, hfov_of, solve_pose)
from controller.vision.mat import MatLayout
from controller.vision.pips import CANON as _CANON
from controller.vision.profile import TableProfile, markers_moved
from controller.vision.shadows import (NEUTRAL, Tint, alike, explained_by_light, fit_tint, is_neutral, same_light,
                                       untinted)
from controller.vision.snapshot import DieFace, Occlusion, TableSnapshot, replaced
from controller.vision.stacks import StackTracker
from controller.vision.stillness import MotionState, StillnessDetector
from controller.vision.tracking import DiceTracker

log = logging.getLogger(__name__)

Finder = Callable[..., list]

#: Stride of the sparse grid on which changes are looked for first (see FrameAnalyser._rectify_changed).
_SPARSE_STRIDE = 3
#: Side of the tiles (in sparse-grid pixels) rectified around a change.
_TILE = 8
#: Side of the cells (in sparse-grid pixels) that regions of the view are made of (see FrameAnalyser._regions).
_CELL = 2

#: Unit steps in eight directions, whose sweep grows a convex outline by (nearly) a given distance.
_OCTAGON = (np.array([[math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)] for k in range(8)])
            / math.cos(math.pi / 8))

#: The corners of a face crop (see FrameAnalyser.top_face_crop).
_CANON_SQUARE = np.array([[0, 0], [_CANON, 0], [_CANON, _CANON], [0, _CANON]], np.float32)

#: Placeholder face of a die measured but not read yet.
_UNREAD = DieFace(confidence=-1.0)

#: A silhouette's edge within this many degrees of pointing at the camera's nadir is taken for a
#: vertical edge seen from above, not a side of the die's squares (see silhouette_angle).
RADIAL_EDGE_DEG = 6.0


@dataclasses.dataclass(frozen=True)
class FoundDie:
    """A die (or the top die of a stack) measured in one frame, before tracking."""

    x_mm: float
    y_mm: float
    level: int
    height_mm: float                 # estimated height of the top face
    angle_deg: float
    face: DieFace
    colour: str | None
    on_mat: bool
    at_edge: bool
    top_center_px: tuple[float, float]   # in the rectified view
    top_size_px: float
    extents_mm: tuple[float, float, float] = (0.0, 0.0, 1.0)   # silhouette's inner, outer extent, g
    assumed_level: bool = False      # level from the temple zones or history, not from the height
    height_sigma_mm: float = 0.0     # how uncertain the measured height is (large near the nadir)


@dataclasses.dataclass
class Analysis:
    """One frame analysed: dice, occlusions, and the intermediate images (for drawing)."""

    dice: list[FoundDie]
    occlusions: list[Occlusion]
    rectified: np.ndarray            # the top-down view near what changed; the empty mat elsewhere
    foreground: np.ndarray
    detections: list[Any]
    unchanged: bool = False          # the frame showed what the last one analysed did: this is its analysis


class _Changes(NamedTuple):
    """The pixels of a rectified view that differ from the empty mat: flat indices, their BGR values now
    and on the empty mat, and whether a shadow, a change of light or glare explains each."""

    at: np.ndarray
    now: np.ndarray
    before: np.ndarray
    explained: np.ndarray


class _Regions(NamedTuple):
    """The parts of a rectified view that differ from the empty mat, grouped so that each can be
    analysed alone with the same pixels as the whole view (see FrameAnalyser._regions).
    ``labels``: each cell's group (``_CELL`` sparse pixels a side; 0: none), ``boxes``: each group's
    box in view pixels (x0, y0, x1, y1), ``busy``: the tiles of the view (``_TILE`` sparse pixels a
    side) near a change, which are rectified. Without ``labels`` (a frame analysed afresh, not
    compared with the next), there are no groups."""

    labels: np.ndarray
    boxes: list[tuple[int, int, int, int]]
    busy: np.ndarray


@dataclasses.dataclass
class _Seen:
    """The last frame analysed, for telling what changed since: its sparse view, its regions, its
    analysis and what differed from the empty mat in it."""

    sparse: np.ndarray
    regions: _Regions
    analysis: Analysis
    changes: _Changes | None
    #: Where the outline of each die and occlusion starts in the view, as (-y, -x): outlines come in
    #: that order from a search of the whole view.
    dice_starts: list[tuple[int, int]]
    occlusion_starts: list[tuple[int, int]]


def _default_finder() -> Finder:
    from controller.vision.dice import find_dice
    return find_dice


class FrameAnalyser:
    """Finds, measures and reads the dice in single frames of one calibrated mat.

    ``parallax=False`` reports each die where the mat-plane homography alone puts it (the middle of
    its silhouette), for comparison only.
    """

    def __init__(self, layout: MatLayout, profile: TableProfile, faces: Any = None,
                 finder: Finder | None = None, diff_threshold: int = 30, parallax: bool = True) -> None:
        if profile.background is None:
            raise ValueError("the calibration profile has no empty-mat image; run bitbox calibrate mat")
        self.layout = layout
        self.profile = profile
        self.faces = faces
        self.finder = finder or _default_finder()
        self.rectifier: Rectifier = profile.rectifier(layout)
        self.s = self.rectifier.px_per_mm
        self.edge = profile.die_edge_mm
        self.camera_centre = profile.camera.centre
        self.H = profile.camera.height_mm
        nadir = self.rectifier.to_px(self.camera_centre[:2].reshape(1, 2))[0]
        self._nadir_px = (float(nadir[0]), float(nadir[1]))
        if profile.background.shape[:2] != (self.rectifier.height_px, self.rectifier.width_px):
            raise ValueError("the empty-mat image does not match the profile's scale; calibrate the mat again")
        self._core_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
        self.mask = cv2.erode(self.rectifier.visible, np.ones((5, 5), np.uint8))
        self.diff_threshold = diff_threshold
        self.shadow_tint = profile.shadow_tint
        #: A tint that what lay beside the dice suggested at the last still snapshot but that was not
        #: the dice's shadows (see _learn_tint): not tried again while it is still there.
        self._not_a_light: Tint | None = None
        #: What the camera found that the players may need to act on, oldest first, the last 20 (see
        #: notice()).
        self.notices: list[str] = []
        #: Whether much of the mat differed from the empty mat at the last frame (see _rectify_changed).
        self._wide_change = False
        #: What differed from the empty mat at the last foreground (see _Changes).
        self._changes: _Changes | None = None
        #: The last frame analysed (see _analyse); forgotten when the empty mat or the shadows' tint change.
        self._seen: _Seen | None = None
        # What changed is first looked for on every third pixel of the view (see _rectify_changed).
        self._sparse = self.rectifier.sparse(_SPARSE_STRIDE)
        self.background = profile.background
        # Rectified around each change, with room for the foreground's own neighbourhoods (opening,
        # closing, glare halos).
        r = -(-8 // _SPARSE_STRIDE)
        self._grow_kernel = np.ones((2 * r + 1, 2 * r + 1), np.uint8)
        self.parallax = parallax
        self.edge_offset_px = profile.edge_offset_px
        #: Stacks standing at the last snapshot: (x_mm, y_mm, top's angle, top face label); set by TableWatcher.
        self.stack_hints: list[tuple[float, float, float, str | None]] = []
        self._readings: list[tuple[float, float, float, int, DieFace, str | None]] = []
        self.temples = [z for z in layout.zones_of_kind("temple")]
        #: The top-face crop's margin (side, flat indices) and the colour names and references.
        self._ring: tuple[int, np.ndarray, list[str], np.ndarray] | None = None

    @property
    def shadow_tint(self) -> Tint:
        """The light's tint that shadows darken the mat by (BGR, mean 1); neutral shadows are always
        explained too, so that the tint learnt under a lamp in daylight does not hide the shadows of
        daylight alone."""
        return self._shadow_tint

    @shadow_tint.setter
    def shadow_tint(self, tint: Tint) -> None:
        if getattr(self, "_shadow_tint", None) != tint:
            self._seen = None            # what the last frame showed is judged under other shadows
        self._shadow_tint = tint
        self._tint: Tint | None = None if is_neutral(tint) else tint

    def notice(self, level: int, text: str) -> None:
        """Log ``text``, and keep it for whoever shows the table to its players (see
        :meth:`TableWatcher.take_notices`): what the camera found that they may need to act on."""
        log.log(level, text)
        self.notices = [*self.notices[-19:], text]

    @property
    def background(self) -> np.ndarray:
        """The rectified empty mat that frames are compared with: the calibration's, re-lit when the
        light has changed since (see :meth:`_relight`)."""
        return self._background

    @background.setter
    def background(self, image: np.ndarray) -> None:
        self._seen = None
        self._background = image
        self._bg_sparse = np.ascontiguousarray(image[::_SPARSE_STRIDE, ::_SPARSE_STRIDE])

    # -- pixels <-> mm in the rectified view ---------------------------------------------------------
    def die_px(self, level: int = 1) -> float:
        """Expected side of a top face in the rectified view, at the mat's centre."""
        h = level * self.edge
        return self.edge * self.s * self.H / (self.H - h)

    def foreground(self, rect: np.ndarray) -> np.ndarray:
        """What differs from the empty mat, shadows and changes of light excepted.

        A shadow or a change of light scales the mat's three channels alike, or in the proportions
        of the light's tint learnt from the dice's shadows (see :mod:`controller.vision.shadows`);
        a die changes their balance otherwise (or darkens far more, for a black die). Glare on the mat
        (see :meth:`_glare`) is light too, not a die.
        """
        fg, self._changes = self._foreground_of(rect, self.background, self.mask)
        return fg

    def _foreground_of(self, part: np.ndarray, empty: np.ndarray, mask: np.ndarray, index: np.ndarray | None = None,
                       own: np.ndarray | None = None) -> tuple[np.ndarray, _Changes | None]:
        """:meth:`foreground` of the view's pixels ``part`` over the empty mat's ``empty``, where ``mask``
        allows; with what differs from the empty mat among the pixels ``own`` (all when None), as
        flat indices ``index`` gives them (each pixel's in the whole view; its own when None)."""
        diff = cv2.absdiff(part, empty)
        b, g, r = cv2.split(diff)
        absdiff = cv2.max(cv2.max(b, g), r)
        fg = cv2.compare(absdiff, self.diff_threshold, cv2.CMP_GT)
        # The channels' ratios are only needed where the mat changed (a few per cent of the view).
        nz = cv2.findNonZero(fg)
        if nz is None:
            return fg, None
        nz = nz.reshape(-1, 2)
        xs, ys = nz[:, 0], nz[:, 1]
        local = ys.astype(np.intp) * fg.shape[1] + xs
        now = part.reshape(-1, 3).take(local, axis=0).astype(np.float32)
        before = empty.reshape(-1, 3).take(local, axis=0).astype(np.float32)
        shifted = before + 8.0
        ratio = (now + 8.0) / shifted
        lighting = explained_by_light(ratio)
        if self._tint is not None:
            lighting |= explained_by_light(untinted(ratio, self._tint))
        glare, white = self._glare(now, before)
        if white.any() and glare.any():
            # A glare's core saturates every channel, whatever the mat's colour: it is glare where it
            # lies within the glare's own halo (a die overexposed to white has no such halo).
            halo = np.zeros_like(fg)
            halo.reshape(-1)[local[glare]] = 255
            halo = cv2.dilate(halo, self._core_kernel)
            glare |= white & (halo.reshape(-1).take(local) > 0)
        lighting |= glare
        at = local if index is None else index.reshape(-1).take(local)
        changes = _Changes(at, now, before, lighting)
        if own is not None:
            mine = own.reshape(-1).take(local)
            changes = _Changes(at[mine], now[mine], before[mine], lighting[mine])
        fg.reshape(-1)[local[lighting]] = 0
        fg = cv2.bitwise_and(fg, mask)
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        k = max(3, int(self.edge * self.s * 0.15) | 1)
        fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        return fg, changes

    def _foreground_regions(self, rect: np.ndarray, regions: _Regions, which: list[int]
                            ) -> tuple[np.ndarray, _Changes | None, list[tuple[int, Any]]]:
        """The foreground of the regions ``which`` of the view ``rect`` (in an image of the view's
        size), what changed there, and each region's label and outlines (in view pixels).

        The regions' boxes are laid side by side in one small image and its foreground taken at
        once: a few dice cover a few per cent of the view, and each region alone would cost as many
        calls as the whole view. A region's own pixels lie farther from its box's edge, and from any
        other region's, than the foreground's neighbourhoods reach (see :meth:`_regions`): the
        same foreground as the whole view's there."""
        boxes = [regions.boxes[label - 1] for label in which]
        if not boxes:                     # what changed left the view as the empty mat (a hand gone)
            return np.zeros(rect.shape[:2], np.uint8), None, []
        gap = 8
        width = max(1024, max(x1 - x0 for x0, _, x1, _ in boxes))
        places: list[tuple[int, int]] = [(0, 0)] * len(boxes)
        x = y = shelf = 0
        for i in sorted(range(len(boxes)), key=lambda i: boxes[i][1] - boxes[i][3]):
            bw, bh = boxes[i][2] - boxes[i][0], boxes[i][3] - boxes[i][1]
            if x + bw > width:
                x, y, shelf = 0, y + shelf + gap, 0
            places[i] = (x, y)
            x, shelf = x + bw + gap, max(shelf, bh)
        shape = (y + shelf, width)
        part = np.zeros((*shape, 3), np.uint8)
        empty = np.zeros_like(part)
        mask = np.zeros(shape, np.uint8)
        own = np.zeros(shape, bool)
        index = np.zeros(shape, np.intp)
        width_view = rect.shape[1]
        keeps = []
        for label, (x0, y0, x1, y1), (px, py) in zip(which, boxes, places):
            at = (slice(py, py + y1 - y0), slice(px, px + x1 - x0))
            keep = self._keep(regions, label)
            keeps.append(keep)
            part[at] = rect[y0:y1, x0:x1]
            empty[at] = self.background[y0:y1, x0:x1]
            mask[at] = self.mask[y0:y1, x0:x1]
            own[at] = keep
            index[at] = np.arange(y0, y1, dtype=np.intp)[:, None] * width_view + np.arange(x0, x1, dtype=np.intp)
        mask &= own.view(np.uint8) * 255
        small, changes = self._foreground_of(part, empty, mask, index, own)
        fg = np.zeros(rect.shape[:2], np.uint8)
        outlines = []
        for label, (x0, y0, x1, y1), (px, py), keep in zip(which, boxes, places, keeps):
            mine = small[py:py + y1 - y0, px:px + x1 - x0]          # its own pixels only (see ``mask``)
            fg[y0:y1, x0:x1][keep] = mine[keep]
            outlines.append((label, cv2.findContours(mine, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                                     offset=(x0, y0))[0]))
        return fg, changes, outlines

    @staticmethod
    def _glare(now: np.ndarray, before: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which pixels (rows of BGR values, now and on the empty mat) a glare explains, and which
        are saturated white on a print that is not dark (a glare's core, or an overexposed die).

        A specular highlight adds the light's own colour: about the same amount to each channel,
        up to saturation. A channel that saturated is consistent with any amount that would have
        taken it there. On a dark print (a marker's black) a white die looks the same, so it stays.
        """
        glare = np.zeros(len(now), bool)
        white = np.zeros(len(now), bool)
        # Only pixels brighter (or saturated) in every channel, on a print that is not dark, can be
        # glare: a few.
        idx = np.flatnonzero(np.logical_and.reduce(
            [((now[:, c] > before[:, c] + 8) | (now[:, c] >= 250)) & (before[:, c] >= 40) for c in range(3)]))
        if not len(idx):
            return glare, white
        now, before = now[idx], before[idx]
        # Channel by channel: numpy's reductions across three columns cost more than the arithmetic.
        channels = [(now[:, c] - before[:, c], now[:, c] >= 250, before[:, c]) for c in range(3)]
        lo = np.minimum.reduce([np.where(clip, np.inf, d) for d, clip, _ in channels])
        hi = np.maximum.reduce([np.where(clip, -np.inf, d) for d, clip, _ in channels])
        even = np.isfinite(lo) & (hi - lo <= 0.25 * hi + 10)
        reaches = np.logical_and.reduce([~clip | (was + hi >= 245) for _, clip, was in channels])
        glare[idx] = even & reaches
        white[idx] = np.logical_and.reduce([clip for _, clip, _ in channels])
        return glare, white

    def analyse(self, frame: np.ndarray, incremental: bool = False) -> Analysis:
        """Every die and occlusion in one frame.

        ``incremental``: a die found where one stood at the previous call, unmoved, keeps its reading
        instead of being read again (between still snapshots a turn moves a few dice at most).

        What looks like an occlusion, or a change over much of the mat, may be the light changed
        since calibration (a lamp lit, the sun on the table): the empty mat is then re-lit to match
        (see :meth:`_relight`) and the frame analysed again.
        """
        analysis = self._analyse(frame, incremental)
        if (analysis.occlusions or self._wide_change) and self._relight(analysis.rectified):
            analysis = self._analyse(frame, incremental=True)
        return analysis

    def _analyse(self, frame: np.ndarray, incremental: bool) -> Analysis:
        w, h = self.profile.camera.image_size
        if frame.shape[1] != w or frame.shape[0] != h:
            raise ValueError(f"frame is {frame.shape[1]}x{frame.shape[0]} but the mat was calibrated at {w}x{h}; "
                             "use the same resolution or calibrate again")
        if not incremental:
            self._readings = []
        sparse = self._sparse.rectify(frame)
        regions = self._regions(sparse, grouped=incremental)
        seen = self._seen if incremental and regions is not None else None
        moved = None
        if seen is not None:
            moved = self._differs(sparse, seen.sparse)
            if not cv2.countNonZero(moved):
                # Nothing moved since the last frame analysed: its dice, read and measured, stand.
                self._changes = seen.changes
                return dataclasses.replace(seen.analysis, unchanged=True)
            dirty = self._touched(regions, moved)
        else:
            dirty = set(range(1, len(regions.boxes) + 1)) if regions is not None else set()
        if regions is None:
            rect = self.rectifier.rectify(frame)          # the light changed, or the camera moved
            fg = self.foreground(rect)
            parts = [(0, cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0])]
        else:
            rect, fg, parts = self._analyse_regions(frame, regions, dirty, seen, moved)
        die_area = (self.edge * self.s) ** 2
        found: list[tuple[tuple[int, int], FoundDie]] = []
        occlusions: list[tuple[tuple[int, int], Occlusion]] = []
        self._detections: list[Any] = []
        for _, contours in parts:
            for contour in contours:
                start = (-int(contour[0, 0, 1]), -int(contour[0, 0, 0]))
                m = cv2.moments(contour)
                # A region's pixel count: the outline's enclosed area plus the half of its own pixels
                # that the outline (through pixel centres) leaves out.
                area = m["m00"] + cv2.arcLength(contour, True) / 2 + 1
                if area < 0.25 * die_area or m["m00"] <= 0:
                    continue
                x, y, bw, bh = cv2.boundingRect(contour)
                box = (int(x), int(y), int(bw), int(bh))
                if bw > 6 * self.edge * self.s or bh > 6 * self.edge * self.s:
                    occlusions.append((start, self._occlusion(*box)))
                    continue
                if area > 5.0 * die_area:
                    # Many dice huddled together, or something else: the finder tells.
                    dets = self._find_in(frame, rect, box)
                    if area > (len(dets) + 3) * 1.8 * die_area:
                        occlusions.append((start, self._occlusion(*box)))
                        continue
                outline = contour.reshape(-1, 2).astype(np.float32)
                centroid = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
                found.extend((start, d) for d in self._dice_in_region(frame, rect, fg, outline, area, centroid, box))
        found = [(start, die) for (start, _), die in zip(found, self._finish(frame, [d for _, d in found]))]
        if seen is not None:
            found += self._kept(regions, dirty, zip(seen.dice_starts, seen.analysis.dice),
                                lambda d: d.top_center_px)
            occlusions += self._kept(regions, dirty, zip(seen.occlusion_starts, seen.analysis.occlusions),
                                     self._occlusion_px)
            self._detections += [d for _, d in self._kept(regions, dirty, ((None, d) for d in seen.analysis.detections),
                                                          lambda d: d.center)]
        # In the order of their outlines in the whole view, as one search of the whole view finds them.
        found.sort(key=lambda item: item[0])
        occlusions.sort(key=lambda item: item[0])
        dice = self._fallen_temples([d for _, d in found])
        self._readings = [(d.x_mm, d.y_mm, d.angle_deg, d.level, d.face, d.colour) for d in dice]
        analysis = Analysis(dice, [o for _, o in occlusions], rect, fg, self._detections)
        self._seen = None if regions is None or regions.labels is None else _Seen(
            sparse, regions, analysis, self._changes, [start for start, _ in found], [start for start, _ in occlusions])
        return analysis

    def _differs(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Where two views (or sparse views) differ by more than ``diff_threshold`` in some channel."""
        d0, d1, d2 = cv2.split(cv2.absdiff(a, b))
        return cv2.compare(cv2.max(cv2.max(d0, d1), d2), self.diff_threshold, cv2.CMP_GT)

    def _regions(self, sparse: np.ndarray, grouped: bool = True) -> _Regions | None:
        """The regions of the view near what differs from the empty mat in ``sparse`` (the sparse
        view of a frame), or None when much of the mat does (then the whole view is analysed);
        ``grouped``: with the groups of each region (to compare the next frame with this one).

        Every pixel the foreground can keep lies in a 3x3 block of pixels that differ from the empty
        mat by more than ``diff_threshold`` (its opening removes the rest), and every such block holds
        one pixel of the sparse grid of stride 3: the foreground lies within a few pixels of a sparse
        pixel that differs, and it is searched for within 9 pixels of them, room for its own
        neighbourhoods (opening, closing, glare halos). Groups of such places that touch no other lie
        a cell apart at least: their foregrounds' pixels lie farther apart than those reach."""
        changed = self._differs(sparse, self._bg_sparse)
        self._wide_change = cv2.countNonZero(changed) > 0.25 * changed.size
        if self._wide_change:
            return None
        grown = cv2.dilate(changed, self._grow_kernel)
        busy = self._tiles(grown, _TILE)
        if not grouped:
            return _Regions(None, [], busy)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(self._tiles(grown, _CELL), connectivity=8)
        span = _CELL * _SPARSE_STRIDE
        H, W = self.background.shape[:2]
        boxes = [(int(x) * span, int(y) * span, min(W, int(x + bw) * span), min(H, int(y + bh) * span))
                 for x, y, bw, bh, _ in stats[1:]]
        return _Regions(labels, boxes, busy)

    @staticmethod
    def _tiles(mask: np.ndarray, side: int) -> np.ndarray:
        """Which squares of ``side`` pixels of a sparse view hold a pixel of ``mask`` (0/1 each)."""
        h, w = mask.shape
        th, tw = -(-h // side), -(-w // side)
        padded = cv2.copyMakeBorder(mask, 0, th * side - h, 0, tw * side - w, cv2.BORDER_CONSTANT, value=0)
        return (cv2.resize(padded, (tw, th), interpolation=cv2.INTER_AREA) > 0).astype(np.uint8)

    @classmethod
    def _touched(cls, regions: _Regions, moved: np.ndarray) -> set[int]:
        """The regions where the view changed since the last frame analysed (``moved``, sparse)."""
        return {int(label) for label in np.unique(regions.labels[cls._tiles(moved, _CELL) > 0]) if label}

    @staticmethod
    def _keep(regions: _Regions, label: int) -> np.ndarray:
        """The view pixels of region ``label``'s box that are its own."""
        x0, y0, x1, y1 = regions.boxes[label - 1]
        span = _CELL * _SPARSE_STRIDE
        own = (regions.labels[y0 // span:-(-y1 // span), x0 // span:-(-x1 // span)] == label).astype(np.uint8)
        return cv2.resize(own, (own.shape[1] * span, own.shape[0] * span),
                          interpolation=cv2.INTER_NEAREST)[:y1 - y0, :x1 - x0] > 0

    @staticmethod
    def _label_at(regions: _Regions, x: float, y: float) -> int:
        """The region at view pixel (x, y), 0 for none."""
        span = _CELL * _SPARSE_STRIDE
        h, w = regions.labels.shape
        return int(regions.labels[min(h - 1, max(0, int(y) // span)), min(w - 1, max(0, int(x) // span))])

    def _analyse_regions(self, frame: np.ndarray, regions: _Regions, dirty: set[int], seen: _Seen | None,
                         moved: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, list[tuple[int, Any]]]:
        """The view (the empty mat but near what changed), its foreground and the outlines in it of
        the ``dirty`` regions; elsewhere as the last frame analysed (``seen``) had them but where the
        sparse view ``moved`` since. A region alone gives the same pixels and outlines as the whole
        view does there (see :meth:`_regions`)."""
        if seen is None or moved is None:
            # Everything afresh: the whole view's foreground at once (a few dice cover a few per cent
            # of the view, but most of the cost is in their pixels).
            rect = self.background.copy()
            self._rectify_tiles(frame, rect, regions.busy)
            fg = self.foreground(rect)
            return rect, fg, [(0, cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0])]
        rect = seen.analysis.rectified.copy()
        fg = seen.analysis.foreground.copy()
        # Where the view moved since, the empty mat until a region there says otherwise.
        S = _SPARSE_STRIDE
        x, y, bw, bh = cv2.boundingRect(cv2.dilate(moved, self._grow_kernel))
        box = (slice(y * S, (y + bh) * S), slice(x * S, (x + bw) * S))
        gone = cv2.resize(cv2.dilate(moved, self._grow_kernel)[y:y + bh, x:x + bw], (bw * S, bh * S),
                          interpolation=cv2.INTER_NEAREST)[:rect[box].shape[0], :rect[box].shape[1]] > 0
        rect[box][gone] = self.background[box][gone]
        fg[box][gone] = 0
        for label in dirty:
            self.rectifier.rectify_into(frame, rect, regions.boxes[label - 1])
        fresh, found, parts = self._foreground_regions(rect, regions, sorted(dirty))
        changes = [] if found is None else [found]
        for label in dirty:
            x0, y0, x1, y1 = regions.boxes[label - 1]
            keep = self._keep(regions, label)
            fg[y0:y1, x0:x1][keep] = fresh[y0:y1, x0:x1][keep]
        if seen.changes is not None:
            width, span = rect.shape[1], _CELL * _SPARSE_STRIDE
            h, w = regions.labels.shape
            at = seen.changes.at
            label = regions.labels[np.minimum(at // width // span, h - 1), np.minimum(at % width // span, w - 1)]
            mine = (label > 0) & ~np.isin(label, list(dirty))
            changes.append(_Changes(*(field[mine] for field in seen.changes)))
        # (In no particular order: what reads them counts and takes medians.)
        changes = [c for c in changes if len(c.at)]
        self._changes = _Changes(*(np.concatenate(field) for field in zip(*changes))) if changes else None
        return rect, fg, parts

    @classmethod
    def _kept(cls, regions: _Regions, dirty: set[int], items: Iterable[tuple[Any, Any]], where: Callable[[Any], Any]
              ) -> list[tuple[Any, Any]]:
        """Of ``items`` (with where their outlines start) found in the last frame analysed, those
        lying (``where``: at which view pixel) in a region of this frame that did not change since."""
        out = []
        for start, item in items:
            label = cls._label_at(regions, *where(item))
            if label and label not in dirty:
                out.append((start, item))
        return out

    def _occlusion_px(self, occlusion: Occlusion) -> tuple[float, float]:
        """The middle of an occlusion's box in view pixels."""
        px = self.rectifier.to_px([[occlusion.x_mm + occlusion.width_mm / 2, occlusion.y_mm + occlusion.height_mm / 2]])
        return float(px[0, 0]), float(px[0, 1])

    def _relight(self, rect: np.ndarray) -> bool:
        """Re-light the empty mat when what differs from it in ``rect`` (a rectified view) is mostly
        the light: whether it did.

        The view is cut into cells four dice wide. In each, the median ratio of now to the empty mat
        (per channel) is the light's gain there, when the cell's pixels mostly agree with it and it
        changes the channels alike (or in the shadows' tint): dice cover too little of a cell to move
        the median, a hand changes the channels' balance. When at least four in five of the cells
        that changed are explained so, the empty mat is multiplied by those gains, smoothly
        interpolated (a cell left unexplained, under a hand, takes the light's median gain).
        """
        S = _SPARSE_STRIDE
        now = rect[::S, ::S].astype(np.float32)
        before = self._bg_sparse.astype(np.float32)
        usable = (before >= 40).all(axis=2) & (now < 250).all(axis=2) & (self.mask[::S, ::S] > 0)
        ratio = now / np.maximum(before, 1.0)
        cell = max(4, round(4 * self.die_px() / S))
        rows, cols = -(-ratio.shape[0] // cell), -(-ratio.shape[1] // cell)
        gains = np.full((rows, cols, 3), np.nan, np.float32)
        changed = explained = 0
        for i in range(rows):
            for j in range(cols):
                ok = usable[i * cell:(i + 1) * cell, j * cell:(j + 1) * cell]
                if ok.sum() < 0.3 * cell * cell:
                    continue
                r = ratio[i * cell:(i + 1) * cell, j * cell:(j + 1) * cell][ok]
                gain = np.median(r, axis=0)
                if np.abs(gain - 1.0).max() < 0.05:
                    gains[i, j] = gain
                    continue
                changed += 1
                light = bool(alike(gain[None])[0])
                if self._tint is not None:
                    light = light or bool(alike(untinted(gain[None], self._tint))[0])
                agree = (np.abs(r - gain) <= 0.08 * gain).all(axis=1).mean()
                if light and agree >= 0.6:
                    gains[i, j] = gain
                    explained += 1
        if not changed or explained < 0.8 * changed:
            return False
        known = ~np.isnan(gains[..., 0])
        gains[~known] = np.median(gains[known], axis=0)
        h, w = self.background.shape[:2]
        field = cv2.resize(gains, (cols * cell * S, rows * cell * S), interpolation=cv2.INTER_LINEAR)[:h, :w]
        self.background = np.clip(self.background * field + 0.5, 0, 255).astype(np.uint8)
        self.notice(logging.WARNING, f"the light changed since the mat was calibrated ({explained} of {changed} "
                    "changed parts of the mat explained by it): the empty mat is re-lit to match; calibrate the "
                    "mat again to keep it")
        return True

    def _rectify_changed(self, frame: np.ndarray) -> np.ndarray:
        """The rectified view, resampled only around what differs from the empty mat; elsewhere the
        empty mat itself: the same pixels where the foreground can keep any as rectifying the whole
        view (see :meth:`_regions`; the dice finder's wider crops are rectified in :meth:`_find_in`)."""
        regions = self._regions(self._sparse.rectify(frame), grouped=False)
        if regions is None:
            return self.rectifier.rectify(frame)          # the light changed, or the camera moved
        rect = self.background.copy()
        self._rectify_tiles(frame, rect, regions.busy)
        return rect

    def _rectify_tiles(self, frame: np.ndarray, rect: np.ndarray, busy: np.ndarray) -> None:
        """Rectify the ``busy`` tiles of the view into ``rect``.

        Each run of such tiles along a row of tiles is rectified at once, and a run spanning the same
        tiles in consecutive rows with them (a die covers a few rows of tiles alike): fewer, larger
        calls, the same pixels."""
        padded = np.zeros((busy.shape[0], busy.shape[1] + 2), np.int8)
        padded[:, 1:-1] = busy > 0
        edges = np.diff(padded, axis=1)
        starts, ends = np.nonzero(edges == 1), np.nonzero(edges == -1)
        span = _TILE * _SPARSE_STRIDE
        H, W = rect.shape[:2]
        runs: dict[tuple[int, int], tuple[int, int]] = {}     # (first tile, end tile) -> (first, last row)

        def rectify(col: int, end: int, top: int, bottom: int) -> None:
            self.rectifier.rectify_into(frame, rect, (col * span, top * span, min(W, end * span),
                                                      min(H, (bottom + 1) * span)))

        for row, col, end in zip(starts[0].tolist(), starts[1].tolist(), ends[1].tolist()):
            first = runs.get((col, end))
            if first is None or first[1] != row - 1:
                if first is not None:
                    rectify(col, end, *first)
                first = (row, row)
            runs[(col, end)] = (first[0], row)
        for (col, end), (top, bottom) in runs.items():
            rectify(col, end, top, bottom)

    def _fallen_temples(self, found: list[FoundDie]) -> list[FoundDie]:
        """A stack assumed still standing although the die there moved is taken as fallen when a die
        appeared nearby since the last frame (its top die, knocked off)."""
        if not self._readings:
            return found
        out = []
        for d in found:
            if d.level == 2 and d.assumed_level:
                appeared = any(
                    o is not d and math.hypot(o.x_mm - d.x_mm, o.y_mm - d.y_mm) < 4 * self.edge
                    and self._cached_reading(np.array([o.x_mm, o.y_mm]), o.angle_deg, o.level) is None
                    for o in found)
                if appeared:
                    d = replaced(d, level=1)
            out.append(d)
        return out

    def _find_in(self, frame: np.ndarray, rect: np.ndarray, box: tuple[int, int, int, int]) -> list[Any]:
        """The dice finder's detections in one region (a crop of the rectified view), in full-view px."""
        x, y, bw, bh = box
        pad = int(self.edge * self.s * 0.5)
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(rect.shape[1], x + bw + pad), min(rect.shape[0], y + bh + pad)
        # The view was rectified only near the changes (see _rectify_changed): the finder sees the
        # whole crop as the camera does.
        self.rectifier.rectify_into(frame, rect, (x0, y0, x1, y1))
        dets = self.finder(rect[y0:y1, x0:x1], die_size_px=self.die_px(1),
                           background_bgr=self.background[y0:y1, x0:x1], mask=self.mask[y0:y1, x0:x1],
                           faces=self.faces)
        out = [dataclasses.replace(d, center=(d.center[0] + x0, d.center[1] + y0),
                                   corners=tuple((cx + x0, cy + y0) for cx, cy in d.corners)) for d in dets]
        self._detections.extend(out)
        return out

    def _finish(self, frame: np.ndarray, dice: list[FoundDie]) -> list[FoundDie]:
        """Read the faces (or reuse the reading of the same die, unmoved) and the body colours."""
        out: list[tuple[DieFace | None, str | None]] = []
        crops: list[tuple[int, np.ndarray, int]] = []
        for die in dice:
            face, colour = (None if die.face is _UNREAD else die.face), die.colour
            if face is None:
                cached = self._cached_reading(np.array([die.x_mm, die.y_mm]), die.angle_deg, die.level)
                if cached is not None:
                    face, colour = cached[0], colour or cached[1]
            if face is None or colour is None:
                crop, source_px = self._face_crop(frame, np.array([die.x_mm, die.y_mm]), die.level * self.edge,
                                                  die.angle_deg)
                if face is None:
                    crops.append((len(out), crop, source_px))
                if colour is None:
                    colour = self._colour(crop)
            out.append((face, colour))
        if self.faces is not None and len(self.faces):
            faces = [self._read_crop(crop, source_px) for _, crop, source_px in crops]
        else:
            from controller.vision.pips import read_faces

            faces = read_faces([(crop, source_px) for _, crop, source_px in crops])
        for (i, _, _), face in zip(crops, faces):
            out[i] = (face, out[i][1])
        return [replaced(die, face=face, colour=colour) for die, (face, colour) in zip(dice, out)]

    def _cached_reading(self, at: np.ndarray, angle: float, level: int) -> tuple[DieFace, str | None] | None:
        for x, y, a, lv, face, colour in self._readings:
            if (lv == level and math.hypot(x - at[0], y - at[1]) < 1.5
                    and abs((a - angle + 45.0) % 90.0 - 45.0) < 4.0):
                return face, colour
        return None

    def _occlusion(self, x: int, y: int, bw: int, bh: int) -> Occlusion:
        p0 = self.rectifier.to_mm([[x, y]])[0]
        return Occlusion(float(p0[0]), float(p0[1]), bw / self.s, bh / self.s, "hand")

    def _dice_in_region(self, frame: np.ndarray, rect: np.ndarray, fg: np.ndarray, outline: np.ndarray,
                        area: float, centroid: np.ndarray, box: tuple[int, int, int, int]) -> list[FoundDie]:
        """The dice making up one foreground region.

        One die (alone or a stack) is tried first: it is kept when its predicted silhouette matches the
        region's area. Otherwise the region holds several dice touching: its pixels are shared among
        the dice finder's detections in it, or split into 2 to 4 dice by k-means; a split is only valid
        when its dice do not overlap, and the split whose dice fit best wins.
        """
        single = self._measure(frame, rect, outline, None, area, centroid)
        if single is not None and self._misfit(*single) < 0.25:
            return [single[0]]
        dets = self._find_in(frame, rect, box)
        x, y, bw, bh = box
        region = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(region, [np.round(outline - (x, y)).astype(np.int32).reshape(-1, 1, 2)], -1, 255, -1)
        region &= fg[y:y + bh, x:x + bw]
        ys, xs = np.nonzero(region)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
        # (misfit, area misfit, dice): the best explanation by misfit; kept only when its area fits.
        best: tuple[float, float, list[FoundDie]] | None = None
        if single is not None:
            best = (self._misfit(*single), abs(single[1] - 1), [single[0]])
        splits: list[tuple[np.ndarray, list[Any]]] = []
        if len(dets) >= 2:
            centres = np.array([d.center for d in dets], np.float32)
            splits.append((((pts[:, None, :] - centres[None]) ** 2).sum(axis=2).argmin(axis=1), list(dets)))
        n_areas = len(pts) / (self.edge * self.s) ** 2
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        for k in range(2, int(min(4, max(2, round(n_areas / 1.2)))) + 1):
            # k-means++ draws its first centres from OpenCV's own generator: seeded, the same frame
            # always splits the same way, whatever was split before it.
            cv2.setRNGSeed(k)
            _, owner, _ = cv2.kmeans(pts, k, None, crit, 2, cv2.KMEANS_PP_CENTERS)
            splits.append((owner.ravel(), [None] * k))
        for owner, owners in splits:
            parts = [self._measure(frame, rect, pts[owner == j], det) for j, det in enumerate(owners)
                     if (owner == j).sum() > 10]
            if not parts or any(p is None for p in parts):
                continue
            dice = [p[0] for p in parts if p is not None]
            if any(math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) < 0.85 * self.edge
                   for i, a in enumerate(dice) for b in dice[i + 1:]):
                continue            # dice cannot overlap: not a real split
            err = max(self._misfit(*p) for p in parts if p is not None)
            if best is None or err < best[0]:
                best = (err, max(abs(p[1] - 1) for p in parts if p is not None), dice)
        if best is None or best[1] > 0.5:
            return []          # not shaped like dice: a shadow's or a sleeve's edge, a crumb
        dice = best[2]
        return [self._from_the_free_side(d, dice) for d in dice] if len(dice) > 1 else dice

    def _from_the_free_side(self, die: FoundDie, split: list[FoundDie]) -> FoundDie:
        """A die of a split region placed from its outer extent when its inner one is hidden.

        A die's position comes from its silhouette's inner extent (its base, nearest the nadir). When a
        die of the same region stands between it and the nadir, that one's top face can cover this
        one's base: the silhouette then comes out short of a die's height. Its outer extent (its top
        face's far edge) is still its own, and with the top face at the level's height it places the
        die as well."""
        e, C = self.edge, self.camera_centre[:2]
        expected = die.level * e
        if die.height_mm >= expected - 3 * max(die.height_sigma_mm, 1.0):
            return die
        at = np.array([die.x_mm, die.y_mm])
        dist = float(np.hypot(*(at - C)))
        if dist < e:
            return die
        u = (at - C) / dist
        v = np.array([-u[1], u[0]])
        inward = [np.array([o.x_mm, o.y_mm]) - at for o in split if o is not die]
        if not any(d @ u < -0.5 * e and abs(d @ v) < 1.2 * e for d in inward):
            return die
        _, raw_max, g = die.extents_mm
        k = self.H / (self.H - expected)
        r = (raw_max + self.edge_offset_px / self.s) / k - e * g / 2
        true = C + r * u
        top = self.rectifier.to_px(C + (true - C) * k)[0]
        return dataclasses.replace(die, x_mm=float(true[0]), y_mm=float(true[1]), height_mm=expected,
                                   top_center_px=(float(top[0]), float(top[1])), face=_UNREAD)

    def _misfit(self, die: FoundDie, fit: float) -> float:
        """How badly one measured die explains its silhouette: the area's misfit (observed over
        predicted area, off 1), or the height's when that is worse, in die edges beyond three times
        its uncertainty. Two dice whose silhouettes touch, measured as one, make a region the size
        of a stack's but a top face higher than any stack's."""
        excess = abs(die.height_mm - die.level * self.edge) - 3 * die.height_sigma_mm
        return max(abs(fit - 1), max(0.0, excess) / self.edge)

    def _measure(self, frame: np.ndarray, rect: np.ndarray, pts_px: np.ndarray, det: Any,
                 area_px: float | None = None, centroid_px: np.ndarray | None = None
                 ) -> tuple[FoundDie, float] | None:
        """True position, height and top face of one die from its silhouette, with how well the die
        explains it (observed area / predicted silhouette area, 1 is perfect).

        ``pts_px``: the silhouette's pixels, or only its outline when ``area_px`` and ``centroid_px``
        are given."""
        if len(pts_px) < 4:
            return None
        if area_px is None:
            area_px = float(len(pts_px))
            centroid_px = pts_px.mean(axis=0)
        if area_px < 8:
            return None
        e, s, H = self.edge, self.s, self.H
        C = self.camera_centre[:2]
        hull_px = cv2.convexHull(pts_px).reshape(-1, 2)
        angle = silhouette_angle(hull_px, self._nadir_px)
        centroid = self.rectifier.to_mm(centroid_px)[0]
        rel = centroid - C
        dist = float(np.hypot(*rel))
        u = rel / dist if dist > 1e-6 else np.array([1.0, 0.0])
        v = np.array([-u[1], u[0]])
        phi = math.atan2(u[1], u[0]) - math.radians(angle)
        g = abs(math.cos(phi)) + abs(math.sin(phi))
        hull = self.rectifier.to_mm(hull_px)
        proj_u = (hull - C) @ u
        proj_v = (hull - C) @ v
        # Pixel centres lie inside the silhouette's true edge, by about half a pixel; how much exactly
        # depends on blur and contrast, and is measured by calibrating the dice (edge_offset_px).
        raw_min, raw_max = float(proj_u.min()), float(proj_u.max())
        p_min = raw_min - self.edge_offset_px / s
        p_max = raw_max + self.edge_offset_px / s
        r = p_min + e * g / 2
        k = p_max / max(r + e * g / 2, 1e-6)
        height = H * (1 - 1 / k) if k > 0 else e
        # How much the extremes' error (about 1.2 px, measured on rendered scenes) moves the height:
        # large near the nadir.
        sigma_h = H * (1.2 / s) / max(r + e * g / 2, 1e-6)
        level, face, assumed = self._level(frame, C + r * u, angle, height, sigma_h)
        hl = level * e
        kl = H / (H - hl)
        # Position from the inner (base) extent; sideways from the silhouette's middle.
        v_mid = (float(proj_v.min()) + float(proj_v.max())) / 2
        true = C + r * u + v_mid / ((1 + kl) / 2) * v
        top_mm = C + (true - C) * kl
        top_px = self.rectifier.to_px(top_mm)[0]
        top_size = e * kl * s
        colour = det.colour if det is not None else None
        if not self.parallax:
            # What a plain mat-plane homography reports: the middle of what the camera sees.
            true = centroid
        base = self._footprint(true, angle)
        top_sq = C + (base - C) * kl
        predicted = cv2.contourArea(cv2.convexHull(np.vstack([base, top_sq]).astype(np.float32)))
        fit = area_px / (s * s) / max(predicted, 1e-6)
        inside = [self.layout.on_mat(float(px), float(py)) for px, py in base]
        return FoundDie(float(true[0]), float(true[1]), level, float(height), angle % 90.0, face or _UNREAD, colour,
                        any(inside), any(inside) and not all(inside), (float(top_px[0]), float(top_px[1])),
                        float(top_size), (raw_min, raw_max, g), assumed, float(sigma_h)), fit

    def _level(self, frame: np.ndarray, at: np.ndarray, angle: float, height: float, sigma_h: float
               ) -> tuple[int, DieFace | None, bool]:
        """1 for a die on the mat, 2 for the top of a stack; the face when it had to be read; and
        whether the level was assumed rather than measured.

        Away from the camera's nadir the measured height decides, unless a stack stood there at the
        last snapshot (``stack_hints``) and the height is short of a stack's but could be a single
        die's: then a face other than the top's (a fallen temple's bottom die) says the stack fell.
        Near the nadir the height is too uncertain: a stack that stood there still stands unless
        another face shows there (even when that die stayed put); if that die has moved or turned,
        :meth:`analyse` also checks that no die appeared nearby. With no history, a temple zone
        holds a temple.
        """
        e = self.edge
        in_temple = any(math.hypot(*(np.array(z.params["center"]) - at)) < z.params.get("radius_mm", 0) + 0.6 * e
                        for z in self.temples)
        hint = next((h for h in self.stack_hints if math.hypot(h[0] - at[0], h[1] - at[1]) < 0.6 * e), None)
        if sigma_h < 0.3 * e:
            read: DieFace | None = None
            # A face is asked only while the height allows a single die: a top face that reads
            # otherwise on a die as tall as a stack was misread (a pip washed out by glare, say).
            if hint is not None and height < min(2 * e - 2 * sigma_h, e + 3 * sigma_h):
                verdict, read = self._shows(frame, at, angle, hint[3])
                if verdict == "other":
                    return 1, read, True
            # Away from the temples a stack is rare: it needs a clearer height.
            if height > (1.25 if in_temple else 1.7) * e:
                return 2, read, False
            return 1, None, False
        if hint is not None:
            hx, hy, hangle, label = hint
            verdict, face = self._shows(frame, at, angle, label)
            if verdict == "other":
                return 1, face, True
            turned = abs((angle - hangle + 45.0) % 90.0 - 45.0)
            unmoved = math.hypot(hx - at[0], hy - at[1]) < 1.5 and turned < 2.5
            return 2, face, not unmoved
        if in_temple:
            return 2, None, True
        return (2 if height > 1.7 * e + sigma_h else 1), None, False

    def _shows(self, frame: np.ndarray, at: np.ndarray, angle: float, label: str | None
               ) -> tuple[str | None, DieFace | None]:
        """Whether the die at ``at`` shows a standing stack's top face ``label`` ("top"), another face
        ("other") or cannot tell (None); with the face read at the height that implies (None when
        it is still to be read, at a single die's height).

        The face is read where a stack's top would be; cut there, a single die's face is off and may
        read as nothing, so it is then read at a single die's height too."""
        e = self.edge
        face = self._read(frame, np.asarray(at), 2 * e, angle)
        if label is None:
            return None, face
        if face.readable:
            return ("top", face) if face.label == label else ("other", None)
        low = self._read(frame, np.asarray(at), e, angle)
        if low.readable and low.label != label:
            return "other", low
        return None, face

    def measure_edge_offset(self, frame: np.ndarray) -> float:
        """With only single dice (no stacks) on the mat, the edge offset (px) that makes their measured
        height equal the die's edge: the median over the dice. Used by ``bitbox calibrate dice``."""
        dice = [d for d in self.analyse(frame).dice if d.on_mat and not d.at_edge]
        if not dice:
            raise ValueError("no whole die found on the mat: put a few single dice on it, apart")
        k1 = self.H / (self.H - self.edge)
        offsets = []
        for d in dice:
            pmin, pmax, g = d.extents_mm
            offsets.append((k1 * (pmin + self.edge * g) - pmax) / (1 + k1) * self.s)
        return float(np.median(offsets))

    def measure_shadow_tint(self, frame: np.ndarray) -> Tint | None:
        """With dice on the mat (and nothing else), the tint of the shadows they cast: how the light
        darkens blue, green and red there (see :mod:`controller.vision.shadows`). None when their
        shadows are untinted, or too faint to tell. Used by ``bitbox calibrate dice``."""
        kept = self.shadow_tint
        try:
            self.shadow_tint = NEUTRAL
            learnt = self._learn_tint(frame, self.analyse(frame))
        finally:
            self.shadow_tint = kept
        return None if learnt is None else learnt[0]

    def follow_the_light(self, frame: np.ndarray, analysis: Analysis) -> Analysis:
        """``analysis`` of ``frame``, or the frame analysed again under the tint its shadows show when
        the light has changed since calibration (a lamp lit in daylight): shadows of that tint are
        left out from then on. Called by :class:`TableWatcher` on each still snapshot without hands."""
        learnt = self._learn_tint(frame, analysis)
        if learnt is None:
            return analysis
        self.shadow_tint, analysis = learnt
        b, g, r = self.shadow_tint
        self.notice(logging.INFO, f"shadows now darken blue x{b:.2f}, green x{g:.2f}, red x{r:.2f} (the light "
                    "changed since calibration)")
        return analysis

    def _learn_tint(self, frame: np.ndarray, analysis: Analysis) -> tuple[Tint, Analysis] | None:
        """The tint of the shadows in ``frame`` when the analyser's own does not explain them, and the
        frame analysed with it; None when it does, when they are untinted, or when the tint found is
        not borne out. ``analysis`` is of ``frame``, the last frame analysed. The analyser's tint is
        left as it was.

        Outside the silhouettes that the dice's positions and levels predict, what differs from the
        empty mat is shadow. Shadows of a tint not yet known widen the silhouettes and move their
        dice, leaving a thin rim outside them that no light explains: enough to learn the tint from,
        then to learn again from the dice found with it, until it no longer changes. It then stands
        when the shadows that agree on it are the dice's (see :meth:`_cast_by_the_dice`).
        """
        kept, tint, first = self.shadow_tint, None, None
        die_area = self.die_px() ** 2
        try:
            for _ in range(4):
                changes, outside = self._outside_silhouettes(analysis)
                if changes is None:
                    return None
                if tint is None and np.count_nonzero(outside & ~changes.explained) < 0.05 * die_area:
                    self._not_a_light = None
                    return None                   # the shadows are explained already
                fit = fit_tint(changes.now[outside], changes.before[outside], int(0.15 * die_area))
                if fit is None:
                    return None
                found, agree = fit
                if tint is None:
                    if self._not_a_light is not None and same_light(found, self._not_a_light):
                        return None               # the same thing as at the last snapshot, still there
                    first = found
                if same_light(found, tint or kept):
                    if tint is not None and self._cast_by_the_dice(analysis, changes.at[outside][agree]):
                        return tint, analysis
                    break
                tint = self.shadow_tint = found
                analysis = self.analyse(frame, incremental=True)
            self._not_a_light = first
            return None
        finally:
            self.shadow_tint = kept

    def _cast_by_the_dice(self, analysis: Analysis, at: np.ndarray) -> bool:
        """Whether the pixels ``at`` (flat indices of the rectified view) are shadows that the dice
        cast: half a die's area of them at least, and some beside at least half of the dice (one
        light shades every die alike; a pen or a card beside one die is not a light)."""
        die = self.die_px()
        if len(at) < 0.5 * die ** 2 or not analysis.dice:
            return False
        width = analysis.rectified.shape[1]
        pts = np.column_stack([at % width, at // width]).astype(np.float32)
        centres = self.rectifier.to_px(np.array([[d.x_mm, d.y_mm] for d in analysis.dice]))
        shaded = 0
        for c in centres:
            shaded += np.count_nonzero(np.abs(pts - c.astype(np.float32)).max(axis=1) < 1.5 * die) >= 0.02 * die ** 2
        return shaded >= max(2, len(centres) / 2)

    def _outside_silhouettes(self, analysis: Analysis) -> tuple[_Changes | None, np.ndarray]:
        """What differed from the empty mat in the last frame analysed, and which of those pixels lie
        where the dice's shadows fall: near the dice's silhouettes as ``analysis`` predicts them (within
        a die's side of them), outside them, on the visible mat. Light changing over the whole mat
        does not count there beyond that band."""
        changes = self._changes
        if changes is None:
            return None, np.zeros(0, bool)
        margin = max(1.0, 0.08 * self.die_px())
        masks = self._silhouettes(analysis.dice, analysis.rectified.shape, (margin, margin + self.die_px()))
        on, near = (m.reshape(-1).take(changes.at) > 0 for m in masks)
        return changes, near & ~on & (self.mask.reshape(-1).take(changes.at) > 0)

    def _silhouettes(self, dice: list[FoundDie], shape: tuple[int, ...], grow_px: tuple[float, ...]
                     ) -> list[np.ndarray]:
        """Masks of the rectified view covering each die's silhouette as its position, turn and level
        predict it (the hull of its base and its top face, pushed out by parallax), one grown by each
        of ``grow_px`` (an octagon's sweep: within 8 % of that)."""
        masks = [np.zeros(shape[:2], np.uint8) for _ in grow_px]
        if not dice:
            return masks
        base = np.stack([self._footprint(np.array([d.x_mm, d.y_mm]), d.angle_deg) for d in dice])
        heights = np.repeat([d.level * self.edge for d in dice], 4)
        top = apply_parallax(base.reshape(-1, 2), heights, self.camera_centre).reshape(-1, 4, 2)
        px = self.rectifier.to_px(np.concatenate([base, top], axis=1).reshape(-1, 2)).reshape(len(dice), 8, 1, 2)
        for mask, grow in zip(masks, grow_px):
            swept = ((px + grow * _OCTAGON) * 16).reshape(len(dice), -1, 2).astype(np.float32)
            for outline in swept:
                cv2.fillConvexPoly(mask, np.round(cv2.convexHull(outline).reshape(-1, 2)).astype(np.int32), 255,
                                   cv2.LINE_8, shift=4)
        return masks

    def _footprint(self, centre: np.ndarray, angle: float) -> np.ndarray:
        a = math.radians(angle)
        h = self.edge / 2
        R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return centre + np.array([[-h, -h], [h, -h], [h, h], [-h, h]]) @ R.T

    def top_face_crop(self, frame: np.ndarray, centre: np.ndarray, height: float, angle: float) -> np.ndarray:
        """The top face of the die standing at ``centre`` (mm) with its top at ``height``, cut from the
        camera frame itself (one resampling, at the camera's own resolution) and warped square from its
        four projected corners, as the face reader expects it."""
        return self._face_crop(frame, centre, height, angle)[0]

    def _face_crop(self, frame: np.ndarray, centre: np.ndarray, height: float, angle: float
                   ) -> tuple[np.ndarray, int]:
        """:meth:`top_face_crop`, and the face's side in the frame's own pixels (its longest edge)."""
        corners = self._footprint(np.asarray(centre, np.float64), angle)
        px = self.profile.camera.project(np.column_stack([corners, np.full(4, -height)])).astype(np.float32)
        xs, ys = px[:, 0].tolist(), px[:, 1].tolist()
        side = max(math.hypot(xs[i] - xs[i - 1], ys[i] - ys[i - 1]) for i in range(4))
        # Warp from the face's own neighbourhood of the frame (the same pixels, far less memory to
        # walk); two pixels of margin cover the interpolation, and the frame's edge stays its edge.
        h, w = frame.shape[:2]
        x0 = min(max(math.floor(min(xs)) - 2, 0), w - 1)
        y0 = min(max(math.floor(min(ys)) - 2, 0), h - 1)
        x1 = max(min(math.ceil(max(xs)) + 3, w), x0 + 1)
        y1 = max(min(math.ceil(max(ys)) + 3, h), y0 + 1)
        M = cv2.getPerspectiveTransform(px - np.array([x0, y0], np.float32), _CANON_SQUARE)
        crop = cv2.warpPerspective(frame[y0:y1, x0:x1], M, (_CANON, _CANON),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return crop, math.ceil(side)

    def _read(self, frame: np.ndarray, centre: np.ndarray, height: float, angle: float) -> DieFace:
        return self._read_crop(*self._face_crop(frame, centre, height, angle))

    def _read_crop(self, crop: np.ndarray, source_px: int) -> DieFace:
        """A top-face crop read: symbol faces first (with a face library), else pips, whose spot map
        is taken at the face's own resolution in the frame (``source_px``, see
        :func:`controller.vision.pips.spot_map`)."""
        from controller.vision.dice import read_face

        return read_face(crop, self.faces, source_px=source_px)

    def _colour(self, crop: np.ndarray) -> str | None:
        """The body colour's name, from a top-face crop's margin (pips and symbols leave it bare)."""
        if not self.profile.colours:
            return None
        n = crop.shape[0]
        if self._ring is None or self._ring[0] != n:
            a, b = int(n * 0.07), int(n * 0.16)
            ring = np.ones((n, n), bool)
            ring[b:n - b, b:n - b] = False
            ring[:a, :] = ring[n - a:, :] = ring[:, :a] = ring[:, n - a:] = False
            names = list(self.profile.colours)
            # Every third pixel of the margin is plenty for a median colour.
            self._ring = (n, np.flatnonzero(ring)[::3], names,
                          np.array([self.profile.colours[k] for k in names], np.float32))
        _, at, names, refs = self._ring
        body = _column_medians(crop.reshape(-1, 3).take(at, axis=0))
        return names[int(np.linalg.norm(refs - body, axis=1).argmin())]


def calibrate_dice(layout: MatLayout, profile: TableProfile, frame: np.ndarray) -> FrameAnalyser:
    """What ``bitbox calibrate dice`` learns from single dice standing apart on the mat, stored in
    ``profile``: the focal length, where neither a calibrated lens nor the mat's markers gave it (see
    :func:`measure_lens`); the tint of the dice's shadows (neutral when they cast too few); then the
    silhouettes' edge offset. Each step needs the ones before it: the height correction needs the
    focal length, and a shadow of a tint not yet known widens a die's silhouette. Returns an analyser
    using them all."""
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


def _column_medians(rows: np.ndarray) -> np.ndarray:
    """``np.median(rows, axis=0)`` for a few columns of many rows, by one partial sort of each
    column (numpy's median walks the rows' short axis instead)."""
    cols = np.ascontiguousarray(rows.T)
    n = cols.shape[1]
    m = n // 2
    if n % 2:
        return np.partition(cols, m, axis=1)[:, m].astype(np.float64)
    part = np.partition(cols, (m - 1, m), axis=1)
    return (part[:, m - 1].astype(np.float64) + part[:, m]) / 2


def silhouette_angle(hull_px: np.ndarray, nadir_px: tuple[float, float] | None = None) -> float:
    """A die's rotation (degrees, 0..90) from its silhouette's convex hull.

    The hull of a die seen in perspective is the hull of its base and top squares: the squares'
    sides are all parallel to the die's axes, and the edges joining the two squares, the vertical
    edges seen from above, point at the camera's nadir (``nadir_px``, in the same view). Far from the
    nadir those are longer than the sides (a stack 600 mm away), so edges pointing at it are left
    out. A length-weighted mean of the other edges' directions modulo 90 degrees, then refined on
    the edges near it, gives the die's axes.
    """
    # Plain floats: a hull has a few dozen points, too few for numpy to pay off.
    pts = [(float(x), float(y)) for x, y in hull_px.reshape(-1, 2)]
    edges, radial = [], []
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
        edge = (math.hypot(x1 - x0, y1 - y0), math.atan2(y1 - y0, x1 - x0))
        if nadir_px is not None:
            towards = math.atan2((y0 + y1) / 2 - nadir_px[1], (x0 + x1) / 2 - nadir_px[0])
            if abs(cmath.phase(cmath.exp(2j * (edge[1] - towards)))) < math.radians(2 * RADIAL_EDGE_DEG):
                radial.append(edge)
                continue
        edges.append(edge)
    edges = edges or radial
    est = cmath.phase(sum(length ** 2 * cmath.exp(4j * theta) for length, theta in edges)) / 4
    near = [(length, off) for length, off in
            ((length, cmath.phase(cmath.exp(4j * (theta - est))) / 4) for length, theta in edges)
            if abs(off) < math.radians(15)]
    if near:
        est += sum(length * off for length, off in near) / sum(length for length, _ in near)
    return float(math.degrees(est) % 90.0)


class TableWatcher:
    """Watches a source: waits for stillness, analyses a still frame, keeps identities and stacks.

    ``feed(frame, t)`` takes every preview frame and returns a :class:`TableSnapshot` once the stillness
    detector calls the scene still (see :class:`~controller.vision.stillness.StillnessDetector`; and then
    not again until something moves), else ``None``.
    """

    def __init__(self, analyser: FrameAnalyser, stillness: StillnessDetector | None = None,
                 recheck_every_s: float = 60.0, layout: MatLayout | None = None) -> None:
        self.analyser = analyser
        self.stillness = stillness or StillnessDetector()
        self.tracker = DiceTracker(edge_mm=analyser.edge)
        self.stacks = StackTracker(edge_mm=analyser.edge, temples=analyser.temples)
        self.recheck_every_s = recheck_every_s
        self._last_check = 0.0
        self._emitted = False
        self.camera_moved = False
        self.last: TableSnapshot | None = None
        self.last_analysis: Analysis | None = None
        #: Re-search and re-read only what changed between snapshots (see FrameAnalyser.analyse).
        self.incremental = True

    @property
    def state(self) -> MotionState:
        return self.stillness.state

    def feed(self, frame: np.ndarray, t: float | None = None, full_frame: np.ndarray | None = None
             ) -> TableSnapshot | None:
        """One frame in; a snapshot out when the table has just become still."""
        t = time.monotonic() if t is None else t
        state = self.stillness.update(frame, t)
        if state is not MotionState.STILL:
            self._emitted = False
            return None
        if self._emitted:
            return None
        self._emitted = True
        full = frame if full_frame is None else full_frame
        self._check_markers(full, t)
        return self.snapshot(full, t)

    def watch(self, source: Any, clock: Callable[[], float] = time.monotonic) -> Iterator[TableSnapshot]:
        """Snapshots from a :class:`~controller.vision.sources.FrameSource`, one per settled table:
        motion is checked on the source's cheap preview frames, and a full frame is taken only once
        the table is still. Ends when the source does."""
        from controller.vision.sources import EndOfSource

        while True:
            try:
                preview = source.preview()
                t = clock()
                state = self.stillness.update(preview, t)
                if state is not MotionState.STILL:
                    self._emitted = False
                    continue
                if self._emitted:
                    continue
                self._emitted = True
                full = source.read()
            except EndOfSource:
                return
            self._check_markers(full, t)
            yield self.snapshot(full, time.time())

    def _check_markers(self, full: np.ndarray, t: float) -> None:
        """Every ``recheck_every_s``, whether the mat's markers moved since calibration (the camera or
        the mat was knocked): then every position is off, and the players are told."""
        if t - self._last_check < self.recheck_every_s:
            return
        self._last_check = t
        moved = markers_moved(full, self.analyser.layout, self.analyser.profile)
        self.camera_moved = moved is not None and moved > 3.0
        if self.camera_moved:
            self.analyser.notice(logging.WARNING, f"the mat's markers moved by {moved:.1f} px since calibration: "
                                 "calibrate the mat again")

    def take_notices(self) -> list[str]:
        """What the camera found since the last call that the players may need to act on (the light
        changed, the camera moved), oldest first."""
        notices, self.analyser.notices = self.analyser.notices, []
        return notices

    def snapshot(self, frame: np.ndarray, t: float | None = None, still: bool = True) -> TableSnapshot:
        """Analyse one frame now, taken as still unless told otherwise, and update identities and
        stacks. A frame with an occlusion is never still."""
        t = time.time() if t is None else t
        self.analyser.stack_hints = self.stacks.hints(self.tracker.known)
        analysis = self.analyser.analyse(frame, incremental=self.incremental)
        if still and not analysis.occlusions and not analysis.unchanged:
            analysis = self.analyser.follow_the_light(frame, analysis)
        self.last_analysis = analysis
        snap = build_snapshot(analysis, t, self.tracker, self.stacks, still=still and not analysis.occlusions)
        self.last = snap
        return snap


def build_snapshot(analysis: Analysis, t: float, tracker: DiceTracker, stacks: StackTracker,
                   still: bool = True) -> TableSnapshot:
    """Turn one frame's dice into a snapshot with identities, stacks and what moved."""
    observed = stacks.expand(analysis.dice)
    if analysis.occlusions:
        # Dice hidden under a hand are not gone: keep identities, report nothing as moved.
        dice = tracker.peek(observed)
        return TableSnapshot(t, tuple(dice), tuple(stacks.current(dice)), tuple(analysis.occlusions), (), False)
    dice, moved = tracker.update(observed)
    stack_list, dice = stacks.update(dice)
    return TableSnapshot(t, tuple(dice), tuple(stack_list), tuple(analysis.occlusions), tuple(sorted(moved)), still)


def analyse_frames(frames: Iterator[np.ndarray], analyser: FrameAnalyser) -> Iterator[TableSnapshot]:
    """Snapshots of a sequence of still frames (each frame is taken as still)."""
    watcher = TableWatcher(analyser)
    for i, frame in enumerate(frames):
        yield watcher.snapshot(frame, float(i))


def draw_analysis(frame: np.ndarray, analysis: Analysis, analyser: FrameAnalyser,
                  snapshot: TableSnapshot | None = None) -> np.ndarray:
    """The camera frame with each die's footprint, level, reading and id drawn on it."""
    out = frame.copy()
    cam = analyser.profile.camera
    ids = {}
    if snapshot is not None:
        for d in snapshot.dice:
            ids[(round(d.x_mm, 3), round(d.y_mm, 3))] = d.die_id
    for die in analysis.dice:
        base = analyser._footprint(np.array([die.x_mm, die.y_mm]), die.angle_deg)
        top_h = die.level * analyser.edge
        for z, colour in ((0.0, (0, 200, 255)), (-top_h, (0, 255, 0) if die.level == 1 else (255, 0, 255))):
            px = cam.project(np.column_stack([base, np.full(4, z)]))
            cv2.polylines(out, [np.round(px).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
        px = cam.project(np.array([[die.x_mm, die.y_mm, -top_h]]))[0]
        label = die.face.label + ("" if die.level == 1 else " (L2)")
        if not die.on_mat:
            label += " off"
        elif die.at_edge:
            label += " edge"
        did = ids.get((round(die.x_mm, 3), round(die.y_mm, 3)))
        if did is not None:
            label = f"#{did} {label}"
        cv2.putText(out, label, (int(px[0]) + 8, int(px[1]) - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, label, (int(px[0]) + 8, int(px[1]) - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (255, 255, 255), 1, cv2.LINE_AA)
    for occ in analysis.occlusions:
        box = np.array([[occ.x_mm, occ.y_mm, 0], [occ.x_mm + occ.width_mm, occ.y_mm, 0],
                        [occ.x_mm + occ.width_mm, occ.y_mm + occ.height_mm, 0],
                        [occ.x_mm, occ.y_mm + occ.height_mm, 0]])
        px = cam.project(box)
        cv2.polylines(out, [np.round(px).astype(np.int32)], True, (0, 0, 255), 2, cv2.LINE_AA)
        cv2.putText(out, occ.kind, tuple(np.round(px[0]).astype(int) + (4, 18)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6, (0, 0, 255), 2, cv2.LINE_AA)
    return out
