"""Reading the dice's top faces and body colours from the camera frame.

Each top face is cut from the camera frame itself where geometry puts it (one resampling, the camera's
full resolution, the side faces left out: :meth:`FaceReader.crop`; from the camera's full-resolution
view where the frame analysed was reduced from it, see :mod:`controller.vision.frames`) and read as
:func:`controller.vision.dice.read_face` does (symbol faces, then pips), with the pip reader's median
taken at the face's own resolution in the frame (see :func:`controller.vision.pips.spot_map`). The
body colour comes from the crop's margin, which pips and symbols leave bare. The readings of the last
frame are kept, so that a die found again where it stood, unmoved, is not read again.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from controller.vision.analysis import UNREAD, FoundDie
from controller.vision.frames import detail_of, in_detail
from controller.vision.measuring import footprint
from controller.vision.pips import CANON
from controller.vision.profile import TableProfile
from controller.vision.snapshot import DieFace, replaced

if TYPE_CHECKING:
    from controller.vision.faces import FaceLibrary

#: The corners of a face crop (see FaceReader.crop).
_CANON_SQUARE = np.array([[0, 0], [CANON, 0], [CANON, CANON], [0, CANON]], np.float32)

#: A die's reading kept from the last frame: x_mm, y_mm, angle, level, face, colour.
Reading = tuple[float, float, float, int, DieFace, str | None]


def column_medians(rows: np.ndarray) -> np.ndarray:
    """``np.median(rows, axis=0)`` for a few columns of many rows, by one partial sort of each
    column (numpy's median walks the rows' short axis instead)."""
    cols = np.ascontiguousarray(rows.T)
    n = cols.shape[1]
    m = n // 2
    if n % 2:
        return np.partition(cols, m, axis=1)[:, m].astype(np.float64)
    part = np.partition(cols, (m - 1, m), axis=1)
    return (part[:, m - 1].astype(np.float64) + part[:, m]) / 2


class FaceReader:
    """Cuts and reads the top faces of dice in frames of the camera that ``profile`` calibrated:
    symbol faces with the face library ``faces``, else pips; body colours with the profile's colours."""

    def __init__(self, profile: TableProfile, faces: FaceLibrary | None = None) -> None:
        self.profile = profile
        self.faces = faces
        self.edge = profile.die_edge_mm
        #: The last frame's readings (see :meth:`remember`).
        self.readings: list[Reading] = []
        #: The top-face crop's margin (side, flat indices) and the colour names and references.
        self._ring: tuple[int, np.ndarray, list[str], np.ndarray] | None = None

    def crop(self, frame: np.ndarray, centre: np.ndarray, height: float, angle: float) -> tuple[np.ndarray, int]:
        """The top face of the die standing at ``centre`` (mm) with its top at ``height``, turned by
        ``angle``, cut from the camera frame itself and warped square from its four projected corners
        as the readers expect it; and the face's side in the frame's own pixels (its longest edge).
        A frame that holds the camera's full-resolution view (:class:`~controller.vision.frames.DetailedFrame`)
        has the face cut from that view."""
        corners = footprint(np.asarray(centre, np.float64), angle, self.edge)
        px = self.profile.camera.project(np.column_stack([corners, np.full(4, -height)])).astype(np.float32)
        detail = detail_of(frame)
        if detail is not None:
            px = in_detail(frame, detail, px).astype(np.float32)
            frame = detail
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
        crop = cv2.warpPerspective(frame[y0:y1, x0:x1], M, (CANON, CANON),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return crop, math.ceil(side)

    def read(self, frame: np.ndarray, centre: np.ndarray, height: float, angle: float) -> DieFace:
        """The top face of the die standing at ``centre`` (mm) with its top at ``height``, read."""
        return self.read_crop(*self.crop(frame, centre, height, angle))

    def read_crop(self, crop: np.ndarray, source_px: int) -> DieFace:
        """A top-face crop read: symbol faces first (with a face library), else pips, whose spot map
        is taken at the face's own resolution in the frame (``source_px``, see
        :func:`controller.vision.pips.spot_map`). A face the library takes for one of its own but
        cannot tell which stays unreadable: read as pips, a DiXe head would pass for a one."""
        from controller.vision.dice import read_face

        return read_face(crop, self.faces, source_px=source_px)

    def read_crops(self, crops: list[tuple[np.ndarray, int]]) -> list[DieFace]:
        """Many top-face crops read, each with its side in the frame: one by one with a face library,
        else the pips of all of them at once (:func:`controller.vision.pips.read_faces`)."""
        if self.faces is not None and len(self.faces):
            return [self.read_crop(crop, source_px) for crop, source_px in crops]
        from controller.vision.pips import read_faces

        return read_faces(list(crops))

    def colour(self, crop: np.ndarray) -> str | None:
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
        body = column_medians(crop.reshape(-1, 3).take(at, axis=0))
        return names[int(np.linalg.norm(refs - body, axis=1).argmin())]

    def finish(self, frame: np.ndarray, dice: list[FoundDie]) -> list[FoundDie]:
        """``dice`` with their faces read (or the reading of the same die, unmoved, in the last frame
        reused) and their body colours."""
        out: list[tuple[DieFace | None, str | None]] = []
        crops: list[tuple[int, np.ndarray, int]] = []
        for die in dice:
            face, colour = (None if die.face is UNREAD else die.face), die.colour
            if face is None:
                cached = self.cached(np.array([die.x_mm, die.y_mm]), die.angle_deg, die.level)
                if cached is not None:
                    face, colour = cached[0], colour or cached[1]
            if face is None or colour is None:
                crop, source_px = self.crop(frame, np.array([die.x_mm, die.y_mm]), die.level * self.edge,
                                            die.angle_deg)
                if face is None:
                    crops.append((len(out), crop, source_px))
                if colour is None:
                    colour = self.colour(crop)
            out.append((face, colour))
        faces = self.read_crops([(crop, source_px) for _, crop, source_px in crops])
        for (i, _, _), face in zip(crops, faces):
            out[i] = (face, out[i][1])
        return [replaced(die, face=face, colour=colour) for die, (face, colour) in zip(dice, out)]

    def forget(self) -> None:
        """Forget the last frame's readings: every die is read afresh."""
        self.readings = []

    def remember(self, dice: list[FoundDie]) -> None:
        """Keep the readings of ``dice`` (one frame's) for :meth:`cached`."""
        self.readings = [(d.x_mm, d.y_mm, d.angle_deg, d.level, d.face, d.colour) for d in dice]

    def cached(self, at: np.ndarray, angle: float, level: int) -> tuple[DieFace, str | None] | None:
        """The face and colour read in the last frame of a die at the same place, turn and level."""
        for x, y, a, lv, face, colour in self.readings:
            if (lv == level and math.hypot(x - at[0], y - at[1]) < 1.5
                    and abs((a - angle + 45.0) % 90.0 - 45.0) < 4.0):
                return face, colour
        return None
