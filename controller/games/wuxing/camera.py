"""Reading the printed théâtre board from the table camera.

The camera is calibrated on the empty board as for every mat (``bitbox calibrate mat --layout
wuxing``: the markers give the camera's pose, so each frame maps to millimetres on the board, and the
empty board is kept). :class:`BoardReader` reads one frame:

1. The frame is resampled to a top-down view of the board (at most 2 px per mm: a pawn is 25 mm
   or more across, an island 54 mm).
2. The light is measured on the markers themselves: each marker's white margin and black border
   give, per colour channel, what white paper and black ink look like at that corner of the board
   now. A plane fitted through the four corners turns every island's pixels into reflectances (0
   black ink, 1 white paper), so a dimmer room, a warm lamp, a cool white balance or a gradient
   across the table read alike, in the frame and in the empty board kept at calibration.
3. An island is turned over when three or four of its corners no longer show its printed colour:
   a card covers them (brighter than any island, or of another hue). A shadow only darkens a colour
   and keeps its hue, so it does not count.
4. A pawn is a compact blob, 18 to 40 mm across, of white (bright, colourless, brighter than or not
   as coloured as the print under it) or of black (dark, colourless, far darker than the print under
   it) inside an island. The islands are printed in mid-bright colours with darker symbols, neither
   white nor black, for that reason.
5. Something over the board that is neither (a hand, an arm, a bag) changes the grey lanes between
   the islands: the reading is then marked occluded and not judged.

Each square's reading has a confidence; the referee asks the players about a square read with too
little. :class:`BoardWatcher` feeds every frame to a stillness detector and reads the board once the
table has been still, as :class:`~controller.vision.pipeline.TableWatcher` does for dice.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from typing import Any

import cv2
import numpy as np

from controller.games.wuxing.board import BLACK, EMPTY, FLIPPED, WHITE, Board, BoardReading, SquareReading, board_of
from controller.i18n import N_
from controller.vision.geometry import Rectifier
from controller.vision.mat import MatLayout
from controller.vision.profile import TableProfile
from controller.vision.watching import MatWatcher

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class ReaderSettings:
    """How the reader decides; every length in mm.

    ``pawn_mm``: the smallest and largest pawn diameters taken for a pawn. ``white_value`` and
    ``black_value``: a white pawn's reflectance is above the first, a black pawn's below the second.
    ``cover_hue``/``cover_bright``: a corner of an island is covered when its chromaticity moved by
    more than ``cover_hue`` or it is ``cover_bright`` times brighter than printed. ``occlusion_mm2``:
    the area of changed lanes that means a hand or an arm is over the board.
    """

    px_per_mm: float = 2.0
    pawn_mm: tuple[float, float] = (18.0, 40.0)
    white_value: float = 0.62
    black_value: float = 0.26
    cover_hue: float = 0.06
    cover_bright: float = 1.28
    occlusion_mm2: float = 250.0


@dataclasses.dataclass(frozen=True)
class _Refs:
    """Where the light is measured: each marker's white margin and black border (flat pixel indices)."""

    white: tuple[np.ndarray, ...]
    black: tuple[np.ndarray, ...]
    centres_mm: np.ndarray


def _ring(shape: tuple[int, int], s: float, box: tuple[float, float, float, float], inner: float,
          outer: float) -> np.ndarray:
    """Flat indices of the pixels between ``inner`` and ``outer`` mm outside the square ``box`` (x, y,
    side, unused) in a view of ``shape`` at ``s`` px/mm; negative distances are inside the square."""
    x, y, side, _ = box
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w]
    mx, my = (xs + 0.5) / s, (ys + 0.5) / s
    dx = np.maximum(np.maximum(x - mx, mx - (x + side)), 0)
    dy = np.maximum(np.maximum(y - my, my - (y + side)), 0)
    outside = np.hypot(dx, dy)
    inside = np.minimum(np.minimum(mx - x, x + side - mx), np.minimum(my - y, y + side - my))
    dist = np.where(outside > 0, outside, -inside)
    return np.flatnonzero((dist >= inner) & (dist <= outer))


class BoardReader:
    """Reads the 25 squares of the printed board in camera frames of one calibrated table."""

    def __init__(self, layout: MatLayout, profile: TableProfile, settings: ReaderSettings | None = None) -> None:
        if profile.background is None:
            raise ValueError("the calibration profile has no empty-board image; run bitbox calibrate mat "
                             f"--layout {layout.name} with the empty board under the camera")
        self.layout = layout
        self.profile = profile
        self.board: Board = board_of(layout)
        self.settings = settings or ReaderSettings()
        s = self.s = min(self.settings.px_per_mm, profile.px_per_mm)
        self.rectifier = Rectifier(profile.camera, layout.width_mm, layout.height_mm, s, margin_mm=0.0)
        shape = (self.rectifier.height_px, self.rectifier.width_px)
        self.refs = self._refs(shape)
        # The islands: one crop per square, inset from the printed outline.
        side = self.board.cells[0].size_mm
        self.n = int(round((side - 2.0) * s))
        self.origins = [(int(round((c.x_mm + 1.0) * s)), int(round((c.y_mm + 1.0) * s))) for c in self.board.cells]
        self.cell_mm = np.array([c.centre for c in self.board.cells])
        yy, xx = np.mgrid[0:self.n, 0:self.n]
        half = self.n / 2
        inner = (np.abs(xx + 0.5 - half) < half - 1.5 * s) & (np.abs(yy + 0.5 - half) < half - 1.5 * s)
        self.inner = inner
        # Four patches in each island's corners, 3 to 9 mm in from the printed edge: beyond the reach
        # of a pawn standing a little off the island's centre, under a card laid on it.
        lo, hi = int(round(2.0 * s)), int(round(8.0 * s))
        self.patches = [(slice(a, b), slice(c, d)) for a, b in ((lo, hi), (self.n - hi, self.n - lo))
                        for c, d in ((lo, hi), (self.n - hi, self.n - lo))]
        self.lanes = self._lanes(shape)
        self.kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, int(3 * s)) | 1,) * 2)
        rmin, rmax = self.settings.pawn_mm
        self.area_px = (math.pi * (rmin / 2) ** 2 * 0.45 * s * s, math.pi * (rmax / 2) ** 2 * 1.1 * s * s)
        self.background = self._background(profile, shape)
        bg = self.background.astype(np.float32)
        white, black = self._light(bg)
        self.bg_cells = self._normalised(self._crops(bg), white, black)
        self.bg_value, self.bg_chroma = _value_chroma(self.bg_cells)
        self.bg_lanes = self._lane_values(bg, white, black)

    # ---- set-up ----------------------------------------------------------------------------------

    def _background(self, profile: TableProfile, shape: tuple[int, int]) -> np.ndarray:
        """The calibration's empty board, resampled to this reader's view."""
        sp, m = profile.px_per_mm, profile.margin_mm
        x0, y0 = int(round(m * sp)), int(round(m * sp))
        x1, y1 = x0 + int(round(self.layout.width_mm * sp)), y0 + int(round(self.layout.height_mm * sp))
        crop = profile.background[y0:y1, x0:x1]
        return cv2.resize(crop, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)

    def _refs(self, shape: tuple[int, int]) -> _Refs:
        whites, blacks, centres = [], [], []
        for m in self.layout.markers:
            module = m.size_mm / 6
            box = (m.x_mm, m.y_mm, m.size_mm, 0.0)
            whites.append(_ring(shape, self.s, box, 1.0, module - 1.0))
            blacks.append(_ring(shape, self.s, box, -(module - 1.2), -1.2))
            centres.append((m.x_mm + m.size_mm / 2, m.y_mm + m.size_mm / 2))
        return _Refs(tuple(whites), tuple(blacks), np.array(centres))

    def _lanes(self, shape: tuple[int, int]) -> np.ndarray:
        """Flat indices of the board's grey lanes: the mat between and around the islands, away from
        the markers, the token places and the edge, where nothing of the game ever lies."""
        h, w = shape
        s = self.s
        keep = np.zeros(shape, np.uint8)
        xs = [c.x_mm for c in self.board.cells] + [c.x_mm + c.size_mm for c in self.board.cells]
        ys = [c.y_mm for c in self.board.cells] + [c.y_mm + c.size_mm for c in self.board.cells]
        x0, x1, y0, y1 = min(xs) - 8, max(xs) + 8, min(ys) - 8, max(ys) + 8
        cv2.rectangle(keep, (int(x0 * s), int(y0 * s)), (int(x1 * s), int(y1 * s)), 1, -1)
        for cell in self.board.cells:
            a, b = int((cell.x_mm - 1.2) * s), int((cell.y_mm - 1.2) * s)
            side = int((cell.size_mm + 2.4) * s)
            keep[max(0, b):b + side, max(0, a):a + side] = 0
        for zone in self.layout.zones:
            if zone.kind in ("tokens", "token", "centre"):
                poly = np.round(zone.polygon(24) * s).astype(np.int32)
                cv2.fillPoly(keep, [poly], 0)
                cv2.polylines(keep, [poly], True, 0, int(6 * s))
        for m in self.layout.markers:
            q = m.size_mm / 6 + 3
            cv2.rectangle(keep, (int((m.x_mm - q) * s), int((m.y_mm - q) * s)),
                          (int((m.x_mm + m.size_mm + q) * s), int((m.y_mm + m.size_mm + q) * s)), 0, -1)
        edge = int(4 * s)
        keep[:edge], keep[h - edge:], keep[:, :edge], keep[:, w - edge:] = 0, 0, 0, 0
        return np.flatnonzero(keep)

    # ---- the light -------------------------------------------------------------------------------

    def _light(self, rect: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """White paper's and black ink's colour at each island's centre (25, 3), and the planes'
        coefficients for the lanes, from the markers."""
        flat = rect.reshape(-1, 3)
        whites = np.array([np.median(flat[i], axis=0) for i in self.refs.white], np.float64)
        blacks = np.array([np.median(flat[i], axis=0) for i in self.refs.black], np.float64)
        self._planes = (self._plane(whites), self._plane(blacks))
        at = np.column_stack([np.ones(len(self.cell_mm)), self.cell_mm])
        return at @ self._planes[0], at @ self._planes[1]

    def _plane(self, values: np.ndarray) -> np.ndarray:
        """Coefficients (3, 3) of a plane per channel through the markers' values, the one marker
        that disagrees most (glare on it, a finger over it) left out when it spoils the fit."""
        at = np.column_stack([np.ones(len(values)), self.refs.centres_mm])
        coef, *_ = np.linalg.lstsq(at, values, rcond=None)
        if len(values) > 3:
            misfit = np.abs(at @ coef - values).max(axis=1)
            if misfit.max() > 0.08 * max(float(values.mean()), 1.0):
                keep = np.arange(len(values)) != int(misfit.argmax())
                coef, *_ = np.linalg.lstsq(at[keep], values[keep], rcond=None)
        return coef

    def _crops(self, rect: np.ndarray) -> np.ndarray:
        n = self.n
        return np.stack([rect[y:y + n, x:x + n] for x, y in self.origins])

    @staticmethod
    def _normalised(crops: np.ndarray, white: np.ndarray, black: np.ndarray) -> np.ndarray:
        span = np.maximum(white - black, 8.0).astype(np.float32)
        return (crops - black[:, None, None, :].astype(np.float32)) / span[:, None, None, :]

    def _lane_values(self, rect: np.ndarray, white: np.ndarray, black: np.ndarray) -> np.ndarray:
        w = self.rectifier.width_px
        y, x = np.divmod(self.lanes, w)
        at = np.column_stack([np.ones(len(x)), (x + 0.5) / self.s, (y + 0.5) / self.s])
        wp, bp = at @ self._planes[0], at @ self._planes[1]
        return ((rect.reshape(-1, 3)[self.lanes] - bp) / np.maximum(wp - bp, 8.0)).astype(np.float32)

    # ---- reading ---------------------------------------------------------------------------------

    def read(self, frame: np.ndarray, t: float = 0.0) -> BoardReading:
        """The board in ``frame`` (a camera frame of the calibrated table)."""
        rect = self.rectifier.rectify(frame)
        white, black = self._light(rect)
        cells = self._normalised(self._crops(rect).astype(np.float32), white, black)
        occluded = self._occluded(self._lane_values(rect, white, black))
        value, chroma = _value_chroma(cells)
        bg_value, bg_chroma = self.bg_value, self.bg_chroma
        cfg = self.settings
        whites = ((value > cfg.white_value) & (chroma < 0.2) & ((value > 1.12 * bg_value) | (bg_chroma - chroma > 0.12))
                  & self.inner)
        blacks = ((value < cfg.black_value) & (chroma < 0.13) & ((value < 0.7 * bg_value) | (value < 0.12))
                  & self.inner)
        white_area = self._blobs(whites)
        black_area = self._blobs(blacks)
        covered, foreign = self._covered(cells, self.bg_cells)
        occluded = occluded or bool(foreign.any())
        squares = tuple(self._decide(int(covered[i]), white_area[i], black_area[i]) for i in range(len(cells)))
        return BoardReading(t, squares, self.board.square, occluded=occluded)

    def _blobs(self, mask: np.ndarray) -> np.ndarray:
        """Per island, the area (px) of the largest blob shaped like a pawn seen from above."""
        n = self.n
        tall = np.ascontiguousarray(mask.reshape(-1, n).astype(np.uint8))
        tall = cv2.morphologyEx(tall, cv2.MORPH_CLOSE, self.kernel)
        tall = cv2.morphologyEx(tall, cv2.MORPH_OPEN, self.kernel)
        # A glint on a glossy pawn leaves a hole in its blob: fill what the outside does not reach.
        outside = np.pad(tall, 1)
        cv2.floodFill(outside, None, (0, 0), 2)
        tall[outside[1:-1, 1:-1] == 0] = 1
        count, _, stats, _ = cv2.connectedComponentsWithStats(tall, connectivity=8)
        best = np.zeros(len(mask))
        largest = self.s * self.settings.pawn_mm[1] * 1.15
        for x, y, w, h, area in stats[1:count]:
            if w > largest or h > largest or max(w, h) > 1.7 * min(w, h) or area < 0.35 * w * h:
                continue
            cell = y // n
            if (y + h - 1) // n == cell:
                best[cell] = max(best[cell], float(area))
        return best

    def _covered(self, cells: np.ndarray, bg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """How many of each island's four corners something covers, and whether that something is
        no card (coloured, or dark: a hand, a sleeve) on three corners or more."""
        now = np.stack([cells[:, a, b].mean(axis=(1, 2)) for a, b in self.patches], axis=1)
        was = np.stack([bg[:, a, b].mean(axis=(1, 2)) for a, b in self.patches], axis=1)
        hue = _hue_shift(now, was)
        bright = now.mean(-1) / np.maximum(was.mean(-1), 0.02)
        changed = (hue > self.settings.cover_hue) | (bright > self.settings.cover_bright)
        card = (now.max(-1) - now.min(-1) < 0.16) & (now.mean(-1) > 0.45)
        return changed.sum(axis=1), (changed & ~card).sum(axis=1) >= 3

    def _occluded(self, lanes: np.ndarray) -> bool:
        """Whether a hand (or anything else) lies over the lanes between the islands."""
        was = self.bg_lanes
        hue = _hue_shift(lanes, was)
        ratio = (lanes[:, 0] + lanes[:, 1] + lanes[:, 2]) / np.maximum(was[:, 0] + was[:, 1] + was[:, 2], 0.06)
        changed = (hue > 0.07) | (ratio > 1.3) | (ratio < 0.3)
        if changed.sum() * 1.0 / self.s ** 2 < self.settings.occlusion_mm2:
            return False
        mask = np.zeros(self.rectifier.height_px * self.rectifier.width_px, np.uint8)
        mask[self.lanes[changed]] = 1
        mask = cv2.morphologyEx(mask.reshape(self.rectifier.height_px, -1), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        largest = stats[1:count, cv2.CC_STAT_AREA].max() if count > 1 else 0
        return bool(largest / self.s ** 2 >= self.settings.occlusion_mm2)

    def _decide(self, corners: int, white: float, black: float) -> SquareReading:
        low = self.area_px[0]
        if corners >= 3:
            return SquareReading(FLIPPED, 0.75 if corners == 3 else 1.0)
        doubt = 0.35 if corners == 2 else 1.0
        area, mark, other = (white, WHITE, black) if white >= black else (black, BLACK, white)
        if area >= low:
            sure = min(1.0, area / (2 * low)) * (1.0 - 0.5 * min(1.0, other / area))
            return SquareReading(mark, min(doubt, max(0.5, sure) if other < low else 0.3))
        return SquareReading(EMPTY, min(doubt, float(np.clip(1.0 - 0.6 * area / low, 0.0, 1.0))))


def _value_chroma(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's mean reflectance and its spread over the three channels (0 for a grey)."""
    b, g, r = image[..., 0], image[..., 1], image[..., 2]
    return (b + g + r) * (1 / 3), np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)


def _hue_shift(now: np.ndarray, was: np.ndarray) -> np.ndarray:
    """How far each pixel's chromaticity (its channels' shares of their sum) moved: a shadow or a
    change of light moves it little, a card or a hand much."""
    a = now / np.maximum(now.sum(-1, keepdims=True), 0.05)
    b = was / np.maximum(was.sum(-1, keepdims=True), 0.05)
    d = np.abs(a - b)
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


class BoardWatcher(MatWatcher[BoardReading]):
    """Watches frames: a :class:`BoardReading` once the table has just become still, else ``None``;
    every ``recheck_every_s`` it checks that the markers have not moved since calibration."""

    MOVED_WORDS = N_("the board's markers moved by {pixels} px since calibration: calibrate again "
                     "(bitbox calibrate mat --layout {layout})")


def open_board_camera(layout_name: str) -> tuple[MatLayout, BoardWatcher]:
    """The board's layout and a watcher reading it with the table's calibration profile; the
    errors name the calibration command to run."""
    from controller.vision.mat import load_layout
    from controller.vision.profile import TableProfile

    layout = load_layout(layout_name)
    profile = TableProfile.load(layout.name)
    return layout, BoardWatcher(BoardReader(layout, profile))


def describe(reading: BoardReading) -> dict[str, Any]:
    """A reading as the dashboard draws it: each square's mark and confidence, row by row."""
    return {"marks": [[reading.squares[r * 5 + c].mark for c in range(5)] for r in range(5)],
            "confidence": [[round(reading.squares[r * 5 + c].confidence, 2) for c in range(5)] for r in range(5)],
            "occluded": reading.occluded}
