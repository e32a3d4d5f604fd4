"""Where a frame differs from the empty mat, and the top-down view resampled only there.

What differs from the empty mat is looked for first on a sparse grid of the view (every
``SPARSE_STRIDE``-th pixel), and grouped into regions (:class:`Regions`). Only the tiles of the view
near them are rectified; the rest of the view is the empty mat itself. Each region can be analysed
alone with the same pixels and outlines as the whole view has there, so a frame compared with the last
one analysed (:class:`Seen`) is rectified, and its foreground taken, only in the regions that changed
since (:meth:`RegionFinder.view`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import cv2
import numpy as np

from controller.vision.analysis import Analysis
from controller.vision.background import SPARSE_STRIDE, BackgroundModel, Changes
from controller.vision.geometry import Rectifier

#: Side of the tiles (in sparse-grid pixels) rectified around a change.
TILE = 8
#: Side of the cells (in sparse-grid pixels) that regions of the view are made of (see RegionFinder.regions).
CELL = 2

#: Outlines of what differs from the empty mat, by region: (region's label or 0, OpenCV contours).
Parts = list[tuple[int, Any]]


class Regions(NamedTuple):
    """The parts of a rectified view that differ from the empty mat, grouped so that each can be
    analysed alone with the same pixels as the whole view (see :meth:`RegionFinder.regions`).
    ``labels``: each cell's group (``CELL`` sparse pixels a side; 0: none), ``boxes``: each group's
    box in view pixels (x0, y0, x1, y1), ``busy``: the tiles of the view (``TILE`` sparse pixels a
    side) near a change, which are rectified. Without ``labels`` (a frame analysed afresh, not
    compared with the next), there are no groups."""

    labels: np.ndarray | None
    boxes: list[tuple[int, int, int, int]]
    busy: np.ndarray


@dataclasses.dataclass
class Seen:
    """The last frame analysed, for telling what changed since: its sparse view, its regions, its
    analysis and what differed from the empty mat in it."""

    sparse: np.ndarray
    regions: Regions
    analysis: Analysis
    changes: Changes | None
    #: Where the outline of each die and occlusion starts in the view, as (-y, -x): outlines come in
    #: that order from a search of the whole view.
    dice_starts: list[tuple[int, int]]
    occlusion_starts: list[tuple[int, int]]


def tiles(mask: np.ndarray, side: int) -> np.ndarray:
    """Which squares of ``side`` pixels of a sparse view hold a pixel of ``mask`` (0/1 each)."""
    h, w = mask.shape
    th, tw = -(-h // side), -(-w // side)
    padded = cv2.copyMakeBorder(mask, 0, th * side - h, 0, tw * side - w, cv2.BORDER_CONSTANT, value=0)
    return (cv2.resize(padded, (tw, th), interpolation=cv2.INTER_AREA) > 0).astype(np.uint8)


def touched(regions: Regions, moved: np.ndarray) -> set[int]:
    """The regions where the view changed since the last frame analysed (``moved``, sparse)."""
    assert regions.labels is not None
    return {int(label) for label in np.unique(regions.labels[tiles(moved, CELL) > 0]) if label}


def own_pixels(regions: Regions, label: int) -> np.ndarray:
    """The view pixels of region ``label``'s box that are its own."""
    assert regions.labels is not None
    x0, y0, x1, y1 = regions.boxes[label - 1]
    span = CELL * SPARSE_STRIDE
    own = (regions.labels[y0 // span:-(-y1 // span), x0 // span:-(-x1 // span)] == label).astype(np.uint8)
    return cv2.resize(own, (own.shape[1] * span, own.shape[0] * span),
                      interpolation=cv2.INTER_NEAREST)[:y1 - y0, :x1 - x0] > 0


def label_at(regions: Regions, x: float, y: float) -> int:
    """The region at view pixel (x, y), 0 for none."""
    assert regions.labels is not None
    span = CELL * SPARSE_STRIDE
    h, w = regions.labels.shape
    return int(regions.labels[min(h - 1, max(0, int(y) // span)), min(w - 1, max(0, int(x) // span))])


def kept(regions: Regions, dirty: set[int], items: Iterable[tuple[Any, Any]], where: Callable[[Any], Any]
         ) -> list[tuple[Any, Any]]:
    """Of ``items`` (with where their outlines start) found in the last frame analysed, those
    lying (``where``: at which view pixel) in a region of this frame that did not change since."""
    out = []
    for start, item in items:
        label = label_at(regions, *where(item))
        if label and label not in dirty:
            out.append((start, item))
    return out


class RegionFinder:
    """Finds the regions of the view that differ from ``background``'s empty mat, and rectifies the
    frame (with ``rectifier``) only there."""

    def __init__(self, rectifier: Rectifier, background: BackgroundModel) -> None:
        self.rectifier = rectifier
        self.background = background
        self._sparse = rectifier.sparse(SPARSE_STRIDE)
        # Rectified around each change, with room for the foreground's own neighbourhoods (opening,
        # closing, glare halos).
        r = -(-8 // SPARSE_STRIDE)
        self._grow_kernel = np.ones((2 * r + 1, 2 * r + 1), np.uint8)
        #: Whether much of the mat differed from the empty mat at the last call of :meth:`regions`.
        self.wide_change = False

    def sparse_view(self, frame: np.ndarray) -> np.ndarray:
        """The frame's view on the sparse grid (every ``SPARSE_STRIDE``-th pixel)."""
        return self._sparse.rectify(frame)

    def regions(self, sparse: np.ndarray, grouped: bool = True) -> Regions | None:
        """The regions of the view near what differs from the empty mat in ``sparse`` (the sparse
        view of a frame), or None when much of the mat does (then the whole view is analysed);
        ``grouped``: with the groups of each region (to compare the next frame with this one).

        Every pixel the foreground can keep lies in a 3x3 block of pixels that differ from the empty
        mat by more than ``diff_threshold`` (its opening removes the rest), and every such block holds
        one pixel of the sparse grid of stride 3: the foreground lies within a few pixels of a sparse
        pixel that differs, and it is searched for within 9 pixels of them, room for its own
        neighbourhoods (opening, closing, glare halos). Groups of such places that touch no other lie
        a cell apart at least: their foregrounds' pixels lie farther apart than those reach."""
        changed = self.background.differs(sparse, self.background.sparse)
        self.wide_change = cv2.countNonZero(changed) > 0.25 * changed.size
        if self.wide_change:
            return None
        grown = cv2.dilate(changed, self._grow_kernel)
        busy = tiles(grown, TILE)
        if not grouped:
            return Regions(None, [], busy)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(tiles(grown, CELL), connectivity=8)
        span = CELL * SPARSE_STRIDE
        H, W = self.background.image.shape[:2]
        boxes = [(int(x) * span, int(y) * span, min(W, int(x + bw) * span), min(H, int(y + bh) * span))
                 for x, y, bw, bh, _ in stats[1:]]
        return Regions(labels, boxes, busy)

    def rectify_changed(self, frame: np.ndarray) -> np.ndarray:
        """The rectified view, resampled only around what differs from the empty mat; elsewhere the
        empty mat itself: the same pixels where the foreground can keep any as rectifying the whole
        view (see :meth:`regions`; the dice finder's wider crops are rectified where it looks, see
        :meth:`controller.vision.silhouettes.SilhouetteFinder.find_in`)."""
        regions = self.regions(self.sparse_view(frame), grouped=False)
        if regions is None:
            return self.rectifier.rectify(frame)          # the light changed, or the camera moved
        rect = self.background.image.copy()
        self.rectify_tiles(frame, rect, regions.busy)
        return rect

    def rectify_tiles(self, frame: np.ndarray, rect: np.ndarray, busy: np.ndarray) -> None:
        """Rectify the ``busy`` tiles of the view into ``rect``.

        Each run of such tiles along a row of tiles is rectified at once, and a run spanning the same
        tiles in consecutive rows with them (a die covers a few rows of tiles alike): fewer, larger
        calls, the same pixels."""
        padded = np.zeros((busy.shape[0], busy.shape[1] + 2), np.int8)
        padded[:, 1:-1] = busy > 0
        edges = np.diff(padded, axis=1)
        starts, ends = np.nonzero(edges == 1), np.nonzero(edges == -1)
        span = TILE * SPARSE_STRIDE
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

    def view(self, frame: np.ndarray, regions: Regions | None, dirty: set[int], seen: Seen | None,
             moved: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, Parts, Changes | None]:
        """The view (the empty mat but near what changed), its foreground, the outlines in it of the
        ``dirty`` regions and what differs from the empty mat (see :class:`Changes`); elsewhere as the
        last frame analysed (``seen``) had them but where the sparse view ``moved`` since. A region
        alone gives the same pixels and outlines as the whole view does there (see :meth:`regions`).
        Without ``regions`` (much of the mat changed), the whole view."""
        if regions is None:
            rect = self.rectifier.rectify(frame)          # the light changed, or the camera moved
            fg, changes = self.background.foreground(rect)
            return rect, fg, [(0, cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0])], changes
        if seen is None or moved is None:
            # Everything afresh: the whole view's foreground at once (a few dice cover a few per cent
            # of the view, but most of the cost is in their pixels).
            rect = self.background.image.copy()
            self.rectify_tiles(frame, rect, regions.busy)
            fg, changes = self.background.foreground(rect)
            return rect, fg, [(0, cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0])], changes
        assert regions.labels is not None
        empty = self.background.image
        rect = seen.analysis.rectified.copy()
        fg = seen.analysis.foreground.copy()
        # Where the view moved since, the empty mat until a region there says otherwise.
        S = SPARSE_STRIDE
        grown = cv2.dilate(moved, self._grow_kernel)
        x, y, bw, bh = cv2.boundingRect(grown)
        box = (slice(y * S, (y + bh) * S), slice(x * S, (x + bw) * S))
        gone = cv2.resize(grown[y:y + bh, x:x + bw], (bw * S, bh * S),
                          interpolation=cv2.INTER_NEAREST)[:rect[box].shape[0], :rect[box].shape[1]] > 0
        rect[box][gone] = empty[box][gone]
        fg[box][gone] = 0
        for label in dirty:
            self.rectifier.rectify_into(frame, rect, regions.boxes[label - 1])
        fresh, found, parts = self.foreground_regions(rect, regions, sorted(dirty))
        changes = [] if found is None else [found]
        for label in dirty:
            x0, y0, x1, y1 = regions.boxes[label - 1]
            keep = own_pixels(regions, label)
            fg[y0:y1, x0:x1][keep] = fresh[y0:y1, x0:x1][keep]
        if seen.changes is not None:
            width, span = rect.shape[1], CELL * SPARSE_STRIDE
            h, w = regions.labels.shape
            at = seen.changes.at
            label = regions.labels[np.minimum(at // width // span, h - 1), np.minimum(at % width // span, w - 1)]
            mine = (label > 0) & ~np.isin(label, list(dirty))
            changes.append(Changes(*(field[mine] for field in seen.changes)))
        # (In no particular order: what reads them counts and takes medians.)
        changes = [c for c in changes if len(c.at)]
        merged = Changes(*(np.concatenate(field) for field in zip(*changes))) if changes else None
        return rect, fg, parts, merged

    def foreground_regions(self, rect: np.ndarray, regions: Regions, which: list[int]
                           ) -> tuple[np.ndarray, Changes | None, Parts]:
        """The foreground of the regions ``which`` of the view ``rect`` (in an image of the view's
        size), what changed there, and each region's label and outlines (in view pixels).

        The regions' boxes are laid side by side in one small image and its foreground taken at
        once: a few dice cover a few per cent of the view, and each region alone would cost as many
        calls as the whole view. A region's own pixels lie farther from its box's edge, and from any
        other region's, than the foreground's neighbourhoods reach (see :meth:`regions`): the
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
        background, visible = self.background.image, self.background.mask
        keeps = []
        for label, (x0, y0, x1, y1), (px, py) in zip(which, boxes, places):
            at = (slice(py, py + y1 - y0), slice(px, px + x1 - x0))
            keep = own_pixels(regions, label)
            keeps.append(keep)
            part[at] = rect[y0:y1, x0:x1]
            empty[at] = background[y0:y1, x0:x1]
            mask[at] = visible[y0:y1, x0:x1]
            own[at] = keep
            index[at] = np.arange(y0, y1, dtype=np.intp)[:, None] * width_view + np.arange(x0, x1, dtype=np.intp)
        mask &= own.view(np.uint8) * 255
        small, changes = self.background.foreground_of(part, empty, mask, index, own)
        fg = np.zeros(rect.shape[:2], np.uint8)
        outlines = []
        for label, (x0, y0, x1, y1), (px, py), keep in zip(which, boxes, places, keeps):
            mine = small[py:py + y1 - y0, px:px + x1 - x0]          # its own pixels only (see ``mask``)
            fg[y0:y1, x0:x1][keep] = mine[keep]
            outlines.append((label, cv2.findContours(mine, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                                     offset=(x0, y0))[0]))
        return fg, changes, outlines
