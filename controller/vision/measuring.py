"""A die's true position, turn, height and level from its silhouette in the top-down view.

Seen from a camera at height ``H``, a die's silhouette on the mat plane runs from its base (where it
really stands, nearest the camera's nadir) to its top face (magnified by ``k = H / (H - h)`` about the
nadir). The silhouette's inner and outer extents along the line from the nadir give both the true
position and the top face's height ``h``: one die (``h`` = edge) or a temple (``h`` = 2 edges). Near
the nadir, where that is ambiguous, the layout's temple zones and the stacks standing at the last
snapshot decide (:meth:`DieMeasurer.level`), with the top face read where each would put it.
"""

from __future__ import annotations

import cmath
import dataclasses
import math
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from controller.vision.analysis import UNREAD, FoundDie
from controller.vision.geometry import Rectifier, apply_parallax
from controller.vision.mat import MatLayout
from controller.vision.profile import TableProfile
from controller.vision.snapshot import DieFace, replaced

if TYPE_CHECKING:
    from controller.vision.face_reading import FaceReader

#: A silhouette's edge within this many degrees of pointing at the camera's nadir is taken for a
#: vertical edge seen from above, not a side of the die's squares (see silhouette_angle).
RADIAL_EDGE_DEG = 6.0

#: A height measured to better than this many die edges (its uncertainty) decides a die's level; less
#: surely measured (near the camera's nadir, where a die's sides hardly show), what stood there before does.
MEASURED_HEIGHT_SIGMA = 0.3

#: Unit steps in eight directions, whose sweep grows a convex outline by (nearly) a given distance.
_OCTAGON = (np.array([[math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)] for k in range(8)])
            / math.cos(math.pi / 8))

#: A stack standing at the last snapshot: (x_mm, y_mm, its top's angle, its top face's label).
StackHint = tuple[float, float, float, str | None]


def footprint(centre: np.ndarray, angle: float, edge: float) -> np.ndarray:
    """The four corners (mm) of a square of side ``edge`` centred at ``centre``, turned by ``angle`` degrees."""
    a = math.radians(angle)
    h = edge / 2
    R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return centre + np.array([[-h, -h], [h, -h], [h, h], [-h, h]]) @ R.T


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


class DieMeasurer:
    """Measures dice from their silhouettes in the view that ``rectifier`` makes of one calibrated mat.

    ``reader`` reads a top face where a stack's top or a single die's would be, when the level is in
    doubt. ``parallax=False`` reports each die where the mat-plane homography alone puts it (the
    middle of its silhouette), for comparison only.
    """

    def __init__(self, layout: MatLayout, profile: TableProfile, rectifier: Rectifier, reader: FaceReader,
                 parallax: bool = True) -> None:
        self.layout = layout
        self.rectifier = rectifier
        self.reader = reader
        self.parallax = parallax
        self.s = rectifier.px_per_mm
        self.edge = profile.die_edge_mm
        self.camera_centre = profile.camera.centre
        self.H = profile.camera.height_mm
        nadir = rectifier.to_px(self.camera_centre[:2].reshape(1, 2))[0]
        self.nadir_px = (float(nadir[0]), float(nadir[1]))
        self.edge_offset_px = profile.edge_offset_px
        self.temples = [z for z in layout.zones_of_kind("temple")]
        #: Stacks standing at the last snapshot; set by the table watcher.
        self.stack_hints: list[StackHint] = []

    def die_px(self, level: int = 1) -> float:
        """Expected side of a top face in the rectified view, at the mat's centre."""
        h = level * self.edge
        return self.edge * self.s * self.H / (self.H - h)

    def footprint(self, centre: np.ndarray, angle: float) -> np.ndarray:
        """The corners (mm) of the base of a die standing at ``centre`` turned by ``angle``."""
        return footprint(centre, angle, self.edge)

    def measure(self, frame: np.ndarray, pts_px: np.ndarray, det: Any, area_px: float | None = None,
                centroid_px: np.ndarray | None = None) -> tuple[FoundDie, float] | None:
        """True position, height and top face of one die from its silhouette, with how well the die
        explains it (observed area / predicted silhouette area, 1 is perfect).

        ``pts_px``: the silhouette's pixels, or only its outline when ``area_px`` and ``centroid_px``
        are given; ``det``: the dice finder's detection it belongs to, if any (for its colour)."""
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
        angle = silhouette_angle(hull_px, self.nadir_px)
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
        level, face, assumed = self.level(frame, C + r * u, angle, height, sigma_h)
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
        base = self.footprint(true, angle)
        top_sq = C + (base - C) * kl
        predicted = cv2.contourArea(cv2.convexHull(np.vstack([base, top_sq]).astype(np.float32)))
        fit = area_px / (s * s) / max(predicted, 1e-6)
        inside = [self.layout.on_mat(float(px), float(py)) for px, py in base]
        return FoundDie(float(true[0]), float(true[1]), level, float(height), angle % 90.0, face or UNREAD, colour,
                        any(inside), any(inside) and not all(inside), (float(top_px[0]), float(top_px[1])),
                        float(top_size), (raw_min, raw_max, g), assumed, float(sigma_h)), fit

    def misfit(self, die: FoundDie, fit: float) -> float:
        """How badly one measured die explains its silhouette: the area's misfit (observed over
        predicted area, off 1), or the height's when that is worse, in die edges beyond three times
        its uncertainty. Two dice whose silhouettes touch, measured as one, make a region the size
        of a stack's but a top face higher than any stack's."""
        excess = abs(die.height_mm - die.level * self.edge) - 3 * die.height_sigma_mm
        return max(abs(fit - 1), max(0.0, excess) / self.edge)

    def from_the_free_side(self, die: FoundDie, split: list[FoundDie]) -> FoundDie:
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
                                   top_center_px=(float(top[0]), float(top[1])), face=UNREAD)

    def level(self, frame: np.ndarray, at: np.ndarray, angle: float, height: float, sigma_h: float
              ) -> tuple[int, DieFace | None, bool]:
        """1 for a die on the mat, 2 for the top of a stack; the face when it had to be read; and
        whether the level was assumed rather than measured.

        Away from the camera's nadir the measured height decides, unless a stack stood there at the
        last snapshot (``stack_hints``) and the height is short of a stack's but could be a single
        die's: then a face other than the top's (a fallen temple's bottom die) says the stack fell.
        Near the nadir the height is too uncertain: a stack that stood there still stands unless
        another face shows there (even when that die stayed put); if that die has moved or turned,
        :meth:`fallen_temples` also checks that no die appeared nearby. With no history, a temple
        zone holds a temple.
        """
        e = self.edge
        in_temple = any(math.hypot(*(np.array(z.params["center"]) - at)) < z.params.get("radius_mm", 0) + 0.6 * e
                        for z in self.temples)
        hint = next((h for h in self.stack_hints if math.hypot(h[0] - at[0], h[1] - at[1]) < 0.6 * e), None)
        if sigma_h < MEASURED_HEIGHT_SIGMA * e:
            read: DieFace | None = None
            # A face is asked only while the height allows a single die: a top face that reads
            # otherwise on a die as tall as a stack was misread (a pip washed out by glare, say).
            if hint is not None and height < min(2 * e - 2 * sigma_h, e + 3 * sigma_h):
                verdict, read = self.shows(frame, at, angle, hint[3])
                if verdict == "other":
                    return 1, read, True
            # Away from the temples a stack is rare: it needs a clearer height.
            if height > (1.25 if in_temple else 1.7) * e:
                return 2, read, False
            return 1, None, False
        if hint is not None:
            hx, hy, hangle, label = hint
            verdict, face = self.shows(frame, at, angle, label)
            if verdict == "other":
                return 1, face, True
            turned = abs((angle - hangle + 45.0) % 90.0 - 45.0)
            unmoved = math.hypot(hx - at[0], hy - at[1]) < 1.5 and turned < 2.5
            return 2, face, not unmoved
        if in_temple:
            return 2, None, True
        return (2 if height > 1.7 * e + sigma_h else 1), None, False

    def shows(self, frame: np.ndarray, at: np.ndarray, angle: float, label: str | None
              ) -> tuple[str | None, DieFace | None]:
        """Whether the die at ``at`` shows a standing stack's top face ``label`` ("top"), another face
        ("other") or cannot tell (None); with the face read at the height that implies (None when
        it is still to be read, at a single die's height).

        The face is read where a stack's top would be; cut there, a single die's face is off and may
        read as nothing, so it is then read at a single die's height too."""
        e = self.edge
        face = self.reader.read(frame, np.asarray(at), 2 * e, angle)
        if label is None:
            return None, face
        if face.readable:
            return ("top", face) if face.label == label else ("other", None)
        low = self.reader.read(frame, np.asarray(at), e, angle)
        if low.readable and low.label != label:
            return "other", low
        return None, face

    def fallen_temples(self, found: list[FoundDie]) -> list[FoundDie]:
        """A stack assumed still standing although the die there moved is taken as fallen when a die
        appeared nearby since the last frame (its top die, knocked off): one the reader's readings of
        the last frame do not hold."""
        if not self.reader.readings:
            return found
        out = []
        for d in found:
            if d.level == 2 and d.assumed_level:
                appeared = any(
                    o is not d and math.hypot(o.x_mm - d.x_mm, o.y_mm - d.y_mm) < 4 * self.edge
                    and self.reader.cached(np.array([o.x_mm, o.y_mm]), o.angle_deg, o.level) is None
                    for o in found)
                if appeared:
                    d = replaced(d, level=1)
            out.append(d)
        return out

    def silhouettes(self, dice: list[FoundDie], shape: tuple[int, ...], grow_px: tuple[float, ...]
                    ) -> list[np.ndarray]:
        """Masks of the rectified view covering each die's silhouette as its position, turn and level
        predict it (the hull of its base and its top face, pushed out by parallax), one grown by each
        of ``grow_px`` (an octagon's sweep: within 8 % of that)."""
        masks = [np.zeros(shape[:2], np.uint8) for _ in grow_px]
        if not dice:
            return masks
        base = np.stack([self.footprint(np.array([d.x_mm, d.y_mm]), d.angle_deg) for d in dice])
        heights = np.repeat([d.level * self.edge for d in dice], 4)
        top = apply_parallax(base.reshape(-1, 2), heights, self.camera_centre).reshape(-1, 4, 2)
        px = self.rectifier.to_px(np.concatenate([base, top], axis=1).reshape(-1, 2)).reshape(len(dice), 8, 1, 2)
        for mask, grow in zip(masks, grow_px):
            swept = ((px + grow * _OCTAGON) * 16).reshape(len(dice), -1, 2).astype(np.float32)
            for outline in swept:
                cv2.fillConvexPoly(mask, np.round(cv2.convexHull(outline).reshape(-1, 2)).astype(np.int32), 255,
                                   cv2.LINE_8, shift=4)
        return masks

    def edge_offset(self, dice: list[FoundDie]) -> float:
        """The edge offset (px) that makes the measured height of single dice (no stacks) equal the
        die's edge: the median over ``dice``."""
        k1 = self.H / (self.H - self.edge)
        offsets = []
        for d in dice:
            pmin, pmax, g = d.extents_mm
            offsets.append((k1 * (pmin + self.edge * g) - pmax) / (1 + k1) * self.s)
        return float(np.median(offsets))
