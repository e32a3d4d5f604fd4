"""Reading a Praxis table from the table camera: tiles by their markers, ships (coloured dice) by
colour and face, spaceports, and hands over the mat.

The camera is calibrated on the empty mat as for every mat (``bitbox calibrate mat --layout praxis``:
the corner markers give the camera's pose, and the empty mat is kept). :class:`TableReader` reads
one frame:

1. The frame is resampled to a top-down view of the mat (3 px per mm). The light is measured on the
   corner markers' white margins and black borders: a plane through them turns every pixel into a
   reflectance, so a dim room, a warm lamp or a gradient read alike, in the frame and in the empty
   mat kept at calibration.
2. Tiles are found by their markers (:mod:`.tiles`), in the frame and in the top-down view; a
   marker's centre puts its tile in a cell or a spaceport. A marker across a cell's edge is a tile
   between cells: the cells around it are unsure.
3. Ships are the saturated blobs (the mat and the tiles are greys and white): a blob's outline is
   the die's footprint and its top face drawn out away from the camera's nadir, so its centre gives
   the footprint's. The body's colour names the player (:data:`~.reading.SHIP_COLOURS`); the top
   face, cut from the frame on the plane of the die's top, is read by the dice readers of
   :mod:`controller.vision.dice` (the pip layouts, and the learned reader where they are unsure). A
   die standing across a cell's edge is unsure.
4. A cell with neither that differs from the empty mat (a tile whose marker is hidden, a finger)
   is unsure; something over the margins around the universe (a hand, an arm) marks the whole
   reading occluded, and the referee waits.

:class:`TableWatcher` reads the table once it has been still, as the dice pipeline's watcher does.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import cv2
import numpy as np

from controller.games.praxis import tiles
from controller.games.praxis.reading import (SHIP_COLOURS, CellSeen, MatUniverse, PortSeen, PraxisReading,
                                             mat_universe)
from controller.vision.dice import read_crop, read_face
from controller.vision.geometry import Rectifier
from controller.vision.mat import MatLayout, dice_colours
from controller.vision.markers import dictionary
from controller.vision.profile import TableProfile
from controller.vision.snapshot import DieFace
from controller.vision.watching import MatWatcher

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class ReaderSettings:
    """How the reader decides; lengths in mm, areas in mm².

    ``saturation``: a pixel's colour spread (reflectance) above which it is a die's body.
    ``die_area``: the smallest and largest blob taken for one die seen from above (its top face is
    256 mm², its sides add to that). ``inside_mm``: how far a die's or a tile's centre may stand
    from its cell's centre and still be sure of its cell. ``changed``: the share of a cell's middle
    that may differ from the empty mat for the cell to be read empty. ``occlusion_mm2``: changed
    margin area meaning a hand or an arm is over the mat.
    """

    px_per_mm: float = 3.0
    saturation: float = 0.22
    die_area: tuple[float, float] = (110.0, 900.0)
    inside_mm: float = 11.0
    changed: float = 0.05
    occlusion_mm2: float = 150.0


def _plane(points: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Least-squares coefficients (3, channels) of a plane through ``values`` at ``points`` (mm)."""
    at = np.column_stack([np.ones(len(points)), points])
    coef, *_ = np.linalg.lstsq(at, values, rcond=None)
    return coef


class TableReader:
    """Reads the cells, the spaceports and hands of a calibrated Praxis mat in camera frames."""

    def __init__(self, layout: MatLayout, profile: TableProfile, settings: ReaderSettings | None = None) -> None:
        if profile.background is None:
            raise ValueError("the calibration profile has no empty-mat image; run bitbox calibrate mat "
                             f"--layout {layout.name} with the empty mat under the camera")
        self.layout = layout
        self.profile = profile
        self.mat: MatUniverse = mat_universe(layout)
        self.settings = settings or ReaderSettings()
        self.s = s = self.settings.px_per_mm
        self.camera = profile.camera
        self.edge = layout.die.edge_mm
        self.rectifier = Rectifier(profile.camera, layout.width_mm, layout.height_mm, s, margin_mm=0.0)
        self.shape = (self.rectifier.height_px, self.rectifier.width_px)
        self._marker_refs()
        self._margins()
        self.bg = self._normalised(self._background())
        self.bg_value, self.bg_chroma, self.bg_shares = _colour_planes(self.bg)
        self.colours = self._colour_refs()
        self.detector = cv2.aruco.ArucoDetector(dictionary(tiles.DICTIONARY), self._params())

    # ---- set-up ----------------------------------------------------------------------------------

    @staticmethod
    def _params() -> cv2.aruco.DetectorParameters:
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        params.adaptiveThreshWinSizeMin = 5
        params.adaptiveThreshWinSizeMax = 33
        params.adaptiveThreshWinSizeStep = 7
        params.minMarkerPerimeterRate = 0.01
        params.polygonalApproxAccuracyRate = 0.06
        params.errorCorrectionRate = 0.5
        return params

    def _background(self) -> np.ndarray:
        """The calibration's empty mat, resampled to this reader's view."""
        p = self.profile
        sp, m = p.px_per_mm, p.margin_mm
        x0, y0 = int(round(m * sp)), int(round(m * sp))
        x1, y1 = x0 + int(round(self.layout.width_mm * sp)), y0 + int(round(self.layout.height_mm * sp))
        crop = p.background[y0:y1, x0:x1]
        return cv2.resize(crop, (self.shape[1], self.shape[0]), interpolation=cv2.INTER_AREA)

    def _marker_refs(self) -> None:
        """Where the light is measured: each corner marker's white margin and black inside."""
        s = self.s
        h, w = self.shape
        self.white_at, self.black_at, centres = [], [], []
        for m in self.layout.markers:
            module = m.size_mm / 6
            x0, y0, x1, y1 = (int(round(v * s)) for v in (m.x_mm, m.y_mm, m.x_mm + m.size_mm, m.y_mm + m.size_mm))
            outer = np.zeros((h, w), np.uint8)
            pad = int(round((module - 1.0) * s))
            cv2.rectangle(outer, (max(0, x0 - pad), max(0, y0 - pad)), (min(w, x1 + pad) - 1, min(h, y1 + pad) - 1),
                          1, -1)
            cv2.rectangle(outer, (x0 - int(s), y0 - int(s)), (x1 + int(s) - 1, y1 + int(s) - 1), 0, -1)
            self.white_at.append(np.flatnonzero(outer))
            border = np.zeros((h, w), np.uint8)
            b = int(round(1.2 * s))
            cv2.rectangle(border, (x0 + b, y0 + b), (x1 - b - 1, y1 - b - 1), 1, -1)
            inner = int(round((module - 1.2) * s))
            cv2.rectangle(border, (x0 + inner, y0 + inner), (x1 - inner - 1, y1 - inner - 1), 0, -1)
            self.black_at.append(np.flatnonzero(border))
            centres.append((m.x_mm + m.size_mm / 2, m.y_mm + m.size_mm / 2))
        self.marker_mm = np.array(centres)
        small = (max(2, self.shape[0] // 16), max(2, self.shape[1] // 16))
        ys, xs = np.mgrid[0:small[0], 0:small[1]]
        self._grid = np.column_stack([np.ones(xs.size), (xs.ravel() + 0.5) * self.shape[1] / small[1] / s,
                                      (ys.ravel() + 0.5) * self.shape[0] / small[0] / s])
        self._small = small

    def _margins(self) -> None:
        """The mat where nothing of the game lies (around the universe and the spaceports, away from
        the corner markers and the edge): anything there is a hand or an arm."""
        s = self.s
        keep = np.ones(self.shape, np.uint8)
        for zone in (self.mat.zone, *self.mat.ports):
            x0, y0 = zone.polygon().min(axis=0) - 6
            x1, y1 = zone.polygon().max(axis=0) + 6
            cv2.rectangle(keep, (int(x0 * s), int(y0 * s)), (int(x1 * s), int(y1 * s)), 0, -1)
        for m in self.layout.markers:
            q = m.size_mm / 6 + 3
            cv2.rectangle(keep, (int((m.x_mm - q) * s), int((m.y_mm - q) * s)),
                          (int((m.x_mm + m.size_mm + q) * s), int((m.y_mm + m.size_mm + q) * s)), 0, -1)
        edge = int(5 * s)
        keep[:edge], keep[-edge:], keep[:, :edge], keep[:, -edge:] = 0, 0, 0, 0
        self.margins = keep.astype(bool)

    def _colour_refs(self) -> dict[str, np.ndarray]:
        """The ships' body colours as chromaticities (each channel's share), from the dice table."""
        known = dice_colours()
        refs = {}
        for name in SHIP_COLOURS:
            bgr = np.array(self.profile.colours.get(name, known[name]), np.float64)
            refs[name] = bgr / bgr.sum()
        return refs

    # ---- the light -------------------------------------------------------------------------------

    def _normalised(self, rect: np.ndarray) -> np.ndarray:
        """``rect`` as reflectances (0 black ink, 1 white paper), from the corner markers' light."""
        flat = rect.reshape(-1, 3).astype(np.float32)
        whites = np.array([np.median(flat[i], axis=0) for i in self.white_at], np.float64)
        blacks = np.array([np.median(flat[i], axis=0) for i in self.black_at], np.float64)
        white = (self._grid @ _plane(self.marker_mm, whites)).reshape(*self._small, 3).astype(np.float32)
        black = (self._grid @ _plane(self.marker_mm, blacks)).reshape(*self._small, 3).astype(np.float32)
        size = (self.shape[1], self.shape[0])
        white = cv2.resize(white, size, interpolation=cv2.INTER_LINEAR)
        black = cv2.resize(black, size, interpolation=cv2.INTER_LINEAR)
        return (rect.astype(np.float32) - black) / np.maximum(white - black, 8.0)

    # ---- reading ---------------------------------------------------------------------------------

    def read(self, frame: np.ndarray, t: float = 0.0) -> PraxisReading:
        """The table in ``frame`` (a camera frame of the calibrated mat)."""
        rect = self.rectifier.rectify(frame)
        refl = self._normalised(rect)
        value, chroma, shares = _colour_planes(refl)
        hue_shift = cv2.max(cv2.max(cv2.absdiff(shares[0], self.bg_shares[0]), cv2.absdiff(shares[1], self.bg_shares[1])),
                            cv2.absdiff(shares[2], self.bg_shares[2]))
        ratio = value / np.maximum(self.bg_value, 0.05)
        changed = (hue_shift > 0.06) | (ratio > 1.3) | (ratio < 0.5)
        saturated = (chroma > self.settings.saturation) & (chroma - self.bg_chroma > 0.12) & (hue_shift > 0.06)
        occluded = self._occluded(changed)
        markers = self._markers(frame, rect)
        dice = self._dice(saturated, refl)
        # Black ink (a tile's marker or name) where no die is: a tile beside or under a ship. A die's
        # shaded sides are dark too, but coloured.
        reach = int(round(2.5 * self.s)) * 2 + 1
        near_dice = cv2.dilate(saturated.astype(np.uint8), np.ones((reach, reach), np.uint8)).astype(bool)
        ink = (ratio < 0.3) & (chroma < 0.08) & ~near_dice
        cells = self._cells(markers, dice, changed, ink, frame)
        ports = self._ports(markers, dice)
        if any(d["big"] for d in dice):
            occluded = True
        return PraxisReading(t, cells, ports, occluded)

    def _occluded(self, changed: np.ndarray) -> bool:
        mask = (changed & self.margins).astype(np.uint8)
        if mask.sum() / self.s ** 2 < self.settings.occlusion_mm2:
            return False
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        largest = stats[1:count, cv2.CC_STAT_AREA].max() if count > 1 else 0
        return bool(largest / self.s ** 2 >= self.settings.occlusion_mm2)

    def _markers(self, frame: np.ndarray, rect: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """Every tile marker seen: (kind, centre in mm), from the frame and from the top-down view."""
        found: list[tuple[int, np.ndarray]] = []

        def add(kind: int | None, corners_mm: np.ndarray) -> None:
            # A tile's marker is printed MARKER_MM wide: a pattern of another size (a die's pips seen
            # as a marker) is not a tile.
            side = float(np.mean(np.hypot(*(corners_mm - np.roll(corners_mm, 1, axis=0)).T)))
            if kind is None or not 0.8 * tiles.MARKER_MM <= side <= 1.2 * tiles.MARKER_MM:
                return
            at = corners_mm.mean(axis=0)
            if not any(k == kind and np.hypot(*(at - a)) < 8.0 for k, a in found):
                found.append((kind, at))

        corners, ids, _ = self.detector.detectMarkers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        for c, i in zip(corners, ids.ravel() if ids is not None else ()):
            add(tiles.kind_of(int(i)), self.camera.image_to_mat(c.reshape(4, 2)))
        corners, ids, _ = self.detector.detectMarkers(cv2.cvtColor(rect, cv2.COLOR_BGR2GRAY))
        for c, i in zip(corners, ids.ravel() if ids is not None else ()):
            add(tiles.kind_of(int(i)), c.reshape(4, 2).astype(np.float64) / self.s)
        return found

    def _dice(self, saturated: np.ndarray, refl: np.ndarray) -> list[dict[str, Any]]:
        """The saturated blobs: each one's footprint centre (mm), colour, and whether it is far too
        big for a die (a sleeve, a coloured object: the reading is then occluded)."""
        s = self.s
        mask = cv2.morphologyEx(saturated.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        low, high = self.settings.die_area
        nadir = np.array(self.camera.nadir_mm)
        k = self.camera.height_mm / (self.camera.height_mm - self.edge)
        out = []
        for i in range(1, count):
            area = stats[i, cv2.CC_STAT_AREA] / s ** 2
            if area < low * 0.5:
                continue
            x, y, w, h = stats[i, :4]
            foot = self._top_centre(labels[y:y + h, x:x + w] == i, (x, y), centroids[i] / s)
            # One die's outline: its top face and the sides the camera sees, drawn out with the distance
            # from the nadir.
            drawn = (k - 1) * float(np.hypot(*(foot - nadir)))
            single = self.edge ** 2 + 1.3 * self.edge * drawn + 2.0 * self.edge
            pixels = refl[y:y + h, x:x + w][labels[y:y + h, x:x + w] == i]
            body = np.median(pixels, axis=0)
            shares = body / max(float(body.sum()), 1e-3)
            dist = {name: float(np.abs(shares - ref).sum()) for name, ref in self.colours.items()}
            ranked = sorted(dist, key=dist.get)  # type: ignore[arg-type]
            sure = 1.0 if dist[ranked[1]] - dist[ranked[0]] > 0.12 else 0.5
            out.append({"at": foot, "area": area, "single": single, "colour": ranked[0], "sure": sure,
                        "big": area > high * 2.2, "small": area < low, "double": area > high})
        return out

    def _top_centre(self, blob: np.ndarray, origin: tuple[int, int], centroid: np.ndarray) -> np.ndarray:
        """Where a die stands (mm), from its outline on the mat plane.

        Seen from the camera, a die's outline is its footprint and its top face, the top drawn out
        away from the nadir (by ``k = H / (H - edge)``): the top face is the outline's far end. The
        outline shrunk by most of half a face keeps the middles of squares the size of a face that
        fit in it; the one farthest from the nadir is the top face's middle (its ray), and scaling it
        back towards the nadir by ``1 / k`` puts it over the footprint's centre.
        """
        s = self.s
        nadir = np.array(self.camera.nadir_mm)
        k = self.camera.height_mm / (self.camera.height_mm - self.edge)
        away = centroid - nadir
        if float(np.hypot(*away)) < 0.5 * self.edge:
            return nadir + (centroid - nadir) * (2 / (1 + k))
        radius = max(1, int(round(0.48 * self.edge * s)))
        disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        padded = np.pad(blob.astype(np.uint8), radius + 1)
        # The pips are holes in the body's colour: what the outside does not reach is the die.
        outside = np.pad(padded, 1)
        cv2.floodFill(outside, None, (0, 0), 2)
        padded[outside[1:-1, 1:-1] == 0] = 1
        inner = cv2.erode(padded, disk)
        ys, xs = np.nonzero(inner)
        if not len(xs):
            return nadir + (centroid - nadir) * (2 / (1 + k))
        pts = np.column_stack([xs, ys]).astype(np.float64) - (radius + 1) + origin + 0.5
        pts /= s
        u = away / np.hypot(*away)
        along = (pts - nadir) @ u
        far = pts[along >= along.max() - 1.0 / s].mean(axis=0)
        return nadir + (far - nadir) / k

    def _top_face(self, frame: np.ndarray, foot: np.ndarray) -> tuple[int, float]:
        """The face (0 when unread) and confidence of the die standing at ``foot`` (mm)."""
        side_mm = self.edge / 0.7          # the face fills 0.7 of the crop, as the dice reader's crops
        out = 64
        scale = side_mm / out
        to_mm = np.array([[scale, 0, foot[0] - side_mm / 2 + scale / 2], [0, scale, foot[1] - side_mm / 2 + scale / 2],
                          [0, 0, 1]])
        H = self.camera.plane_homography(self.edge) @ to_mm
        crop = cv2.warpPerspective(frame, H, (out, out), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
        # The pip layouts read the face as filling 0.7 of the crop, and a little more (a die turned
        # 45 degrees fills its crop corner to corner, and a 6 may then fit a 2's diagonal). Where the
        # two agree, or the second finds nothing, that is the face; else the learned reader decides
        # between them, and a face none agrees on is not read.
        face = read_face(crop, face_side=0.7)
        wider = read_face(crop, face_side=0.85)
        if face.pips is None or face.confidence < 0.6 or wider.pips not in (None, face.pips):
            seen = {f.pips for f in (face, wider) if f.pips is not None}
            learned = read_crop(crop)
            face = learned if learned.pips is not None and (not seen or learned.pips in seen) else DieFace()
        return (int(face.pips), float(face.confidence)) if face.pips is not None else (0, 0.0)

    def _cells(self, markers: list[tuple[int, np.ndarray]], dice: list[dict[str, Any]], changed: np.ndarray,
               ink: np.ndarray, frame: np.ndarray) -> tuple[CellSeen, ...]:
        mat, cfg, s = self.mat, self.settings, self.s
        n = mat.rows * mat.columns
        half = mat.cell_mm / 2
        tiles_in: dict[int, list[tuple[int, float]]] = {}
        dice_in: dict[int, list[tuple[dict[str, Any], float]]] = {}
        doubt: dict[int, str] = {}

        def place(at: np.ndarray) -> tuple[int, float] | None:
            cell = mat.zone.cell(float(at[0]), float(at[1]))
            if cell is None:
                return None
            pos = cell[0] * mat.columns + cell[1]
            cx, cy = mat.centre(pos)
            return pos, max(abs(at[0] - cx), abs(at[1] - cy))

        def near(at: np.ndarray, reach: float) -> list[int]:
            out = []
            for pos in range(n):
                cx, cy = mat.centre(pos)
                if abs(at[0] - cx) < half + reach and abs(at[1] - cy) < half + reach:
                    out.append(pos)
            return out

        shift = tiles.MARKER_AT_MM[1] + tiles.MARKER_MM / 2 - tiles.TILE_MM / 2
        for kind, at in markers:
            placed = place(at)
            if placed is None:
                continue
            pos, off = placed
            # The marker sits above the tile's centre by ``shift`` on an upright tile; a tile turned any
            # way keeps its marker within that of its own centre.
            if off <= cfg.inside_mm + abs(shift):
                tiles_in.setdefault(pos, []).append((kind, off))
            else:
                for p in near(at, 4.0):
                    doubt[p] = "a tile lies across this cell's edge"
        for die in dice:
            placed = place(die["at"])
            if placed is None:
                continue
            pos, off = placed
            if die["big"] or die["double"]:
                for p in near(die["at"], 8.0):
                    doubt[p] = "something coloured and large is on this cell"
                continue
            if off <= cfg.inside_mm and not die["small"]:
                dice_in.setdefault(pos, []).append((die, off))
            else:
                for p in near(die["at"], 2.0) if not die["small"] else [pos]:
                    doubt[p] = "a ship stands across this cell's edge" if not die["small"] else \
                        "something small and coloured is on this cell"
        inset = int(round(5 * s))
        cells = []
        for pos in range(n):
            cx, cy = mat.centre(pos)
            x0, y0 = int(round((cx - half) * s)) + inset, int(round((cy - half) * s)) + inset
            side = int(round(mat.cell_mm * s)) - 2 * inset
            if pos in doubt:
                cells.append(CellSeen(confidence=0.3, note=doubt[pos]))
                continue
            here_tiles = tiles_in.get(pos, [])
            here_dice = dice_in.get(pos, [])
            if len(here_tiles) + len(here_dice) > 1:
                cells.append(CellSeen(confidence=0.3, note="two things are on this cell"))
            elif here_tiles:
                cells.append(CellSeen(kind=here_tiles[0][0]))
            elif here_dice and ink[y0:y0 + side, x0:x0 + side].sum() / s ** 2 > 12.0:
                cells.append(CellSeen(confidence=0.3, note="a ship stands on or beside a tile"))
            elif here_dice:
                die, off = here_dice[0]
                face, sure = self._top_face(frame, die["at"])
                confidence = min(die["sure"], 1.0 if sure >= 0.5 and face else 0.4)
                cells.append(CellSeen(colour=die["colour"], face=face, confidence=confidence,
                                      note=None if confidence >= PraxisReading.SURE else "the ship's face or colour "
                                      "is hard to read"))
            else:
                share = float(changed[y0:y0 + side, x0:x0 + side].mean())
                if share <= cfg.changed:
                    cells.append(CellSeen(confidence=1.0 - share / cfg.changed * 0.15))
                else:
                    cells.append(CellSeen(confidence=0.3, note="something unidentified is on this cell"))
        return tuple(cells)

    def _ports(self, markers: list[tuple[int, np.ndarray]], dice: list[dict[str, Any]]) -> tuple[PortSeen, ...]:
        out = []
        for zone in self.mat.ports:
            kinds = tuple(sorted(k for k, at in markers if zone.contains(float(at[0]), float(at[1]))))
            ships: list[str] = []
            for die in dice:
                if zone.contains(float(die["at"][0]), float(die["at"][1])) and not die["small"]:
                    ships += [die["colour"]] * max(1, int(round(die["area"] / die["single"])))
            out.append(PortSeen(tuple(sorted(ships)), kinds))
        return tuple(out)


def _colour_planes(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
    """Each pixel's mean reflectance, its spread over the channels (0 for a grey) and each channel's
    share of their sum (a shadow or a change of light moves the shares little, a die or a hand much)."""
    b, g, r = cv2.split(image)
    value = (b + g + r) * (1 / 3)
    chroma = cv2.max(cv2.max(b, g), r) - cv2.min(cv2.min(b, g), r)
    total = np.maximum(value * 3, 0.05)
    return value, chroma, (b / total, g / total, r / total)


class TableWatcher(MatWatcher[PraxisReading]):
    """Watches frames: a :class:`PraxisReading` once the table has just become still, else ``None``;
    every ``recheck_every_s`` it checks that the mat's markers have not moved since calibration."""


def open_table_camera(layout_name: str) -> tuple[MatLayout, TableWatcher]:
    """The mat's layout and a watcher reading it with the table's calibration profile; the errors
    name the calibration command to run."""
    from controller.vision.mat import load_layout

    layout = load_layout(layout_name)
    profile = TableProfile.load(layout.name)
    return layout, TableWatcher(TableReader(layout, profile))
