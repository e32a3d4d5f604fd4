"""From the outlines of what differs from the empty mat to dice and occlusions.

Each outline in the top-down view is a region. A region far larger than a die, that the dice finder
(:func:`controller.vision.dice.find_dice`) cannot explain as a cluster of dice, is an
:class:`~controller.vision.snapshot.Occlusion` (a hand, an arm). Otherwise one die (alone or a stack)
is tried first; a region one die cannot explain holds touching dice: the dice finder runs on that
region's crop, with the empty mat as background and the die's size in pixels, and its detections split
the region (k-means otherwise). Each die is measured by :class:`~controller.vision.measuring.DieMeasurer`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from controller.vision.analysis import FoundDie
from controller.vision.background import BackgroundModel
from controller.vision.geometry import Rectifier
from controller.vision.measuring import DieMeasurer
from controller.vision.regions import Parts
from controller.vision.snapshot import Occlusion

#: The dice finder: ``finder(crop, die_size_px=, background_bgr=, mask=, faces=)`` -> detections.
Finder = Callable[..., list]

#: Where an outline starts in the view, as (-y, -x): outlines come in that order from a search of the
#: whole view.
Start = tuple[int, int]


def default_finder() -> Finder:
    """The classical dice finder, :func:`controller.vision.dice.find_dice`."""
    from controller.vision.dice import find_dice
    return find_dice


class SilhouetteFinder:
    """Turns the outlines of a view into dice (measured by ``measurer``, not read yet) and occlusions.

    ``finder`` finds dice huddled in one region, in the view that ``rectifier`` makes, against the
    empty mat of ``background``, with the face library of ``measurer``'s face reader."""

    def __init__(self, measurer: DieMeasurer, background: BackgroundModel, rectifier: Rectifier,
                 finder: Finder | None = None) -> None:
        self.measurer = measurer
        self.background = background
        self.rectifier = rectifier
        self.finder = finder or default_finder()
        self.edge = measurer.edge
        self.s = measurer.s
        #: The dice finder's detections (in view pixels) since the last :meth:`find`.
        self.detections: list[Any] = []

    def find(self, frame: np.ndarray, rect: np.ndarray, fg: np.ndarray, parts: Parts
             ) -> tuple[list[tuple[Start, FoundDie]], list[tuple[Start, Occlusion]], list[Any]]:
        """The dice and occlusions that the outlines ``parts`` of the foreground ``fg`` of the view
        ``rect`` (of ``frame``) hold, each with where its outline starts; and the dice finder's
        detections."""
        die_area = (self.edge * self.s) ** 2
        found: list[tuple[Start, FoundDie]] = []
        occlusions: list[tuple[Start, Occlusion]] = []
        self.detections = []
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
                    occlusions.append((start, self.occlusion(*box)))
                    continue
                if area > 5.0 * die_area:
                    # Many dice huddled together, or something else: the finder tells.
                    dets = self.find_in(frame, rect, box)
                    if area > (len(dets) + 3) * 1.8 * die_area:
                        occlusions.append((start, self.occlusion(*box)))
                        continue
                outline = contour.reshape(-1, 2).astype(np.float32)
                centroid = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
                found.extend((start, d) for d in self.dice_in_region(frame, rect, fg, outline, area, centroid, box))
        return found, occlusions, self.detections

    def dice_in_region(self, frame: np.ndarray, rect: np.ndarray, fg: np.ndarray, outline: np.ndarray,
                       area: float, centroid: np.ndarray, box: tuple[int, int, int, int]) -> list[FoundDie]:
        """The dice making up one foreground region.

        One die (alone or a stack) is tried first: it is kept when its predicted silhouette matches the
        region's area. Otherwise the region holds several dice touching: its pixels are shared among
        the dice finder's detections in it, or split into 2 to 4 dice by k-means; a split is only valid
        when its dice do not overlap, and the split whose dice fit best wins.
        """
        measure, misfit = self.measurer.measure, self.measurer.misfit
        single = measure(frame, outline, None, area, centroid)
        if single is not None and misfit(*single) < 0.25:
            return [single[0]]
        dets = self.find_in(frame, rect, box)
        x, y, bw, bh = box
        region = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(region, [np.round(outline - (x, y)).astype(np.int32).reshape(-1, 1, 2)], -1, 255, -1)
        region &= fg[y:y + bh, x:x + bw]
        ys, xs = np.nonzero(region)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
        # (misfit, area misfit, dice): the best explanation by misfit; kept only when its area fits.
        best: tuple[float, float, list[FoundDie]] | None = None
        if single is not None:
            best = (misfit(*single), abs(single[1] - 1), [single[0]])
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
            parts = [measure(frame, pts[owner == j], det) for j, det in enumerate(owners)
                     if (owner == j).sum() > 10]
            if not parts or any(p is None for p in parts):
                continue
            dice = [p[0] for p in parts if p is not None]
            if any(math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) < 0.85 * self.edge
                   for i, a in enumerate(dice) for b in dice[i + 1:]):
                continue            # dice cannot overlap: not a real split
            err = max(misfit(*p) for p in parts if p is not None)
            if best is None or err < best[0]:
                best = (err, max(abs(p[1] - 1) for p in parts if p is not None), dice)
        if best is None or best[1] > 0.5:
            return []          # not shaped like dice: a shadow's or a sleeve's edge, a crumb
        dice = best[2]
        return [self.measurer.from_the_free_side(d, dice) for d in dice] if len(dice) > 1 else dice

    def find_in(self, frame: np.ndarray, rect: np.ndarray, box: tuple[int, int, int, int]) -> list[Any]:
        """The dice finder's detections in one region (a crop of the rectified view), in full-view px."""
        x, y, bw, bh = box
        pad = int(self.edge * self.s * 0.5)
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(rect.shape[1], x + bw + pad), min(rect.shape[0], y + bh + pad)
        # The view was rectified only near the changes (see RegionFinder.rectify_changed): the finder
        # sees the whole crop as the camera does.
        self.rectifier.rectify_into(frame, rect, (x0, y0, x1, y1))
        dets = self.finder(rect[y0:y1, x0:x1], die_size_px=self.measurer.die_px(1),
                           background_bgr=self.background.image[y0:y1, x0:x1], mask=self.background.mask[y0:y1, x0:x1],
                           faces=self.measurer.reader.faces)
        out = [dataclasses.replace(d, center=(d.center[0] + x0, d.center[1] + y0),
                                   corners=tuple((cx + x0, cy + y0) for cx, cy in d.corners)) for d in dets]
        self.detections.extend(out)
        return out

    def occlusion(self, x: int, y: int, bw: int, bh: int) -> Occlusion:
        """The occlusion (a hand) covering the box (x, y, width, height) of the view."""
        p0 = self.rectifier.to_mm([[x, y]])[0]
        return Occlusion(float(p0[0]), float(p0[1]), bw / self.s, bh / self.s, "hand")

    def occlusion_px(self, occlusion: Occlusion) -> tuple[float, float]:
        """The middle of an occlusion's box in view pixels."""
        px = self.rectifier.to_px([[occlusion.x_mm + occlusion.width_mm / 2, occlusion.y_mm + occlusion.height_mm / 2]])
        return float(px[0, 0]), float(px[0, 1])
