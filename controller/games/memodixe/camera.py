"""Reading the MémoDiXe square from the table camera.

The mat (``bitbox mat memodixe``) has the 3 x 3 square's places, the reserve below it and a marker in
each corner; it is calibrated as every mat is (``bitbox calibrate mat --layout memodixe``) and each
DiXe's faces are taught with ``bitbox calibrate faces``. :class:`SquareReader` reads one frame:

1. The vision pipeline (:class:`~controller.vision.pipeline.FrameAnalyser`) finds the dice, where they
   stand, how high their top faces are, and whatever is over the mat that is no die (a hand).
2. Each die lies in a place of the square, in the reserve, or elsewhere (a stray: put it back).
   A die near a place's border, or whose top face stands at no die's height (on its edge, on
   another die), is read but flagged: the referee waits or asks rather than judging it.
3. Its top face is cut from the camera frame and compared with every taught face
   (:class:`~controller.vision.faces.FaceLibrary`), and read as the face's *kind*: the characters
   layout give the face. A face too unlike every reference (an unknown die) is unreadable; a best kind
   close to another, or matching poorly (glare, blur), is read but unsure, and the referee asks. Where
   the game knows which die lies there, that die's own faces settle two look-alike kinds.

:class:`SquareWatcher` feeds every frame to a stillness detector and reads the square once the table
has been still, as :class:`~controller.vision.pipeline.TableWatcher` does for dice. A reading holds
the top faces only, which everyone at the table sees: what the camera knows of the hidden faces stays
with the referee (:mod:`.layouts`).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import time
from typing import Any

import cv2
import numpy as np

from controller.games.memodixe.layouts import FaceLayouts, slug
from controller.referee.common import RefereeConfig
from controller.vision.faces import REF_SIZE, SEARCH_SIZE, FaceLibrary
from controller.vision.mat import MatLayout
from controller.vision.measuring import MEASURED_HEIGHT_SIGMA
from controller.vision.pipeline import FrameAnalyser
from controller.vision.profile import TableProfile
from controller.vision.stillness import StillnessDetector
from controller.vision.watching import MatWatcher

log = logging.getLogger(__name__)

#: Below this correlation a crop is no taught face (an unknown die, a die on its edge): unreadable.
#: Above it the best kind is the reading, sure only with a clear score and a clear margin over the
#: next kind (:data:`SURE_SCORE`, :data:`SURE_MARGIN`); glare, blur and JPEG bring a right face's
#: correlation down to 0.4 or 0.5 (bench/memodixe_reader.py), and such readings are asked about.
MIN_SCORE = 0.3
MIN_MARGIN = 0.0
#: The correlation that makes a reading sure (confidence 1) when its margin is clear too.
SURE_SCORE = 0.75
#: A top face measured higher than this many die edges, less its uncertainty, is on another die (or on
#: its edge). On rendered tables of the square (200 set-ups), a die lying flat came out at most 1.0
#: edge high by that measure, and a die laid on another at least 1.3 (a stack's height is more often
#: measured short than a single die's long), so the line sits nearer one die than two.
STACKED_HEIGHT = 1.2
#: How much worse than the best of all faces the expected die's best face may match and still decide.
OWN_SLACK = 0.1
#: The confidence from which a reading is taken as sure: the referee's default ``min_confidence``.
SURE = RefereeConfig().min_confidence
#: The margin between kinds that makes a reading sure (confidence 1).
SURE_MARGIN = 0.1
#: A die whose centre is nearer its place's border than this (mm) is not clearly in that place.
BORDER_MM = 6.0


@dataclasses.dataclass(frozen=True)
class SeenDie:
    """One die as read: where it is (mm), its top face's kind and face (``None``: unreadable), how sure."""

    x_mm: float
    y_mm: float
    angle_deg: float
    kind: str | None
    face: str | None
    confidence: float
    place: int | None = None          # 0..8 in the square, None elsewhere
    flat: bool = True                 # lying flat on the mat, one die high
    off_place: bool = False           # near its place's border
    height_mm: float = 0.0
    scores: Any = dataclasses.field(default=None, compare=False, repr=False)   # per taught face

    @property
    def readable(self) -> bool:
        return self.kind is not None

    def to_json(self) -> dict[str, Any]:
        return {"x_mm": round(self.x_mm, 1), "y_mm": round(self.y_mm, 1), "angle_deg": round(self.angle_deg, 1),
                "kind": self.kind, "face": self.face, "confidence": round(self.confidence, 3), "place": self.place,
                "flat": self.flat, "off_place": self.off_place}


@dataclasses.dataclass(frozen=True)
class SquareReading:
    """The still table: each place's die (``None``: empty; several: ``crowded``), the reserve's dice,
    dice elsewhere on the mat, and whether something (a hand) was over the mat."""

    timestamp: float
    places: tuple[SeenDie | None, ...]
    reserve: tuple[SeenDie, ...] = ()
    strays: tuple[SeenDie, ...] = ()
    crowded: tuple[int, ...] = ()
    occluded: bool = False
    read_s: float = 0.0
    reader: Any = dataclasses.field(default=None, compare=False, repr=False)

    def read_as(self, place: int, die: str | None) -> tuple[str | None, str | None, float]:
        """(kind, face, confidence) of the die at ``place`` read as ``die`` (the die that should lie
        there): among that die's taught faces first (see :meth:`SquareReader.decide`)."""
        seen = self.places[place]
        if seen is None:
            return None, None, 0.0
        if self.reader is None or seen.scores is None:
            return seen.kind, seen.face, seen.confidence
        return self.reader.decide(seen.scores, die)

    def to_json(self) -> dict[str, Any]:
        """The reading as the table page draws it: top faces only, which the whole table sees."""
        return {"places": [d.to_json() if d else None for d in self.places],
                "reserve": [d.to_json() for d in self.reserve], "strays": [d.to_json() for d in self.strays],
                "crowded": list(self.crowded), "occluded": self.occluded}


class FaceMatcher:
    """Every taught face matched against many crops at once, as the face library matches one crop.

    The library compares a crop with each reference at twelve turns (four quarter turns, 10 degrees
    either side of each) and a few pixels of shift, by normalised cross-correlation. The same sums
    for all references, turns, shifts and crops are one matrix product here: tens of milliseconds for
    a square of nine dice instead of a second of one-by-one template matches.
    """

    def __init__(self, library: FaceLibrary, die_slugs: dict[str, str]) -> None:
        self.library = library
        rows, owner = [], []
        centre = ((REF_SIZE - 1) / 2.0, (REF_SIZE - 1) / 2.0)
        for i, ref in enumerate(library.references):
            img = ref.image.astype(np.float32)
            for k in range(4):
                quarter = np.ascontiguousarray(np.rot90(img, k))
                for degrees in (0.0, -10.0, 10.0):
                    turned = quarter if degrees == 0.0 else cv2.warpAffine(
                        quarter, cv2.getRotationMatrix2D(centre, degrees, 1.0), (REF_SIZE, REF_SIZE),
                        borderMode=cv2.BORDER_REFLECT)
                    rows.append(_unit(turned.ravel()))
                    owner.append(i)
        self.refs = np.stack(rows).T if rows else np.zeros((REF_SIZE * REF_SIZE, 0), np.float32)
        self.owner = np.array(owner, np.intp)
        self.count = len(library.references)
        self._dies = {die: np.array([i for i, r in enumerate(library.references) if r.die == s], np.intp)
                      for die, s in die_slugs.items()}

    def of_die(self, die: str | None) -> np.ndarray | None:
        """The references taught for ``die`` (indices), or ``None`` when none were."""
        found = self._dies.get(die) if die is not None else None
        return found if found is not None and len(found) else None

    def scores(self, crops: list[np.ndarray]) -> np.ndarray:
        """(crops, references): each reference's best correlation with each crop."""
        if not crops or not self.count:
            return np.zeros((len(crops), self.count), np.float32)
        shift = SEARCH_SIZE - REF_SIZE + 1
        windows = []
        for crop in crops:
            grey = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
            grey = cv2.resize(grey, (SEARCH_SIZE, SEARCH_SIZE), interpolation=cv2.INTER_AREA)
            window = cv2.GaussianBlur(cv2.equalizeHist(grey), (5, 5), 1.5).astype(np.float32)
            patches = np.lib.stride_tricks.sliding_window_view(window, (REF_SIZE, REF_SIZE))
            windows.append(patches.reshape(shift * shift, REF_SIZE * REF_SIZE))
        stack = np.concatenate(windows)
        stack = stack - stack.mean(axis=1, keepdims=True)
        stack /= np.maximum(np.linalg.norm(stack, axis=1, keepdims=True), 1e-6)
        corr = (stack @ self.refs).reshape(len(crops), shift * shift, -1).max(axis=1)
        out = np.full((len(crops), self.count), -1.0, np.float32)
        np.maximum.at(out.T, self.owner, corr.T)
        return out


def _unit(v: np.ndarray) -> np.ndarray:
    v = v - v.mean()
    return (v / max(float(np.linalg.norm(v)), 1e-6)).astype(np.float32)


class SquareReader:
    """Reads the square, the reserve and strays in frames of one calibrated MémoDiXe mat."""

    def __init__(self, layout: MatLayout, profile: TableProfile, library: FaceLibrary,
                 layouts: FaceLayouts) -> None:
        if not len(library):
            raise ValueError("no DiXe faces are taught: run bitbox calibrate faces --layout memodixe for each die "
                             "(see docs/memodixe.md, On the table)")
        self.layout = layout
        self.profile = profile
        self.library = library
        self.layouts = layouts
        self.analyser = FrameAnalyser(layout, profile)
        grid = next((z for z in layout.zones if z.kind == "grid"), None)
        if grid is None:
            raise ValueError(f"the mat {layout.name} has no grid zone for the square; use hardware/mats/memodixe.toml")
        self.origin = tuple(float(v) for v in grid.params["origin"])
        self.cell = float(grid.params["cell_mm"])
        reserve = next((z for z in layout.zones if z.kind == "reserve"), None)
        self.reserve_rect = tuple(float(v) for v in reserve.params["rect"]) if reserve is not None else None
        self.edge = self.analyser.edge
        # The library's faces as the game names them, and their kinds.
        self.kinds: list[str | None] = []
        for ref in library.references:
            face = layouts.face_name(ref.face)
            self.kinds.append(layouts.kind(face) if face is not None else None)
        self.matcher = FaceMatcher(library, {die: slug(die) for die in layouts.book.dice})

    def place_of(self, x: float, y: float) -> tuple[int | None, bool]:
        """The square's place under (x, y) mm, and whether it lies near the place's border."""
        u, v = (x - self.origin[0]) / self.cell, (y - self.origin[1]) / self.cell
        col, row = math.floor(u), math.floor(v)
        if not (0 <= col < 3 and 0 <= row < 3):
            return None, False
        margin = min(u - col, col + 1 - u, v - row, row + 1 - v) * self.cell
        return row * 3 + col, margin < BORDER_MM

    def in_reserve(self, x: float, y: float) -> bool:
        if self.reserve_rect is None:
            return False
        rx, ry, rw, rh = self.reserve_rect
        return rx <= x <= rx + rw and ry <= y <= ry + rh

    def decide(self, row: np.ndarray, die: str | None) -> tuple[str | None, str | None, float]:
        """(kind, face, confidence) from a crop's scores; kind ``None`` when unreadable.

        Read among every taught face. When that leaves the best kind unsure and ``die`` (the data's
        name of the die expected there) has a taught face matching nearly as well as the best of all,
        the die's own faces decide: a die carries each kind once, so two look-alikes (a smiley and a
        yin-yang) are rarely both on it. Such a reading stays unsure (the referee asks) unless the die's
        own face is the best match of all: another die may lie there."""
        reading = self._decide(row, None)
        own = self.matcher.of_die(die)
        if own is None or not len(row) or (reading[0] is not None and reading[2] >= SURE):
            return reading
        best, own_best = float(row.max()), float(row[own].max())
        if own_best < best - OWN_SLACK:
            return reading
        kind, face, confidence = self._decide(row, own)
        if kind is None:
            return reading
        return kind, face, confidence if own_best >= best else min(confidence, SURE - 0.05)

    def _decide(self, row: np.ndarray, among: np.ndarray | None) -> tuple[str | None, str | None, float]:
        best: dict[str, tuple[float, str]] = {}
        indices = range(len(row)) if among is None else among
        for i in indices:
            kind = self.kinds[i]
            if kind is not None and (kind not in best or row[i] > best[kind][0]):
                best[kind] = (float(row[i]), self.library.references[i].face)
        if not best:
            return None, None, 0.0
        order = sorted(best.items(), key=lambda item: -item[1][0])
        kind, (score, face) = order[0]
        rival = order[1][1][0] if len(order) > 1 else -1.0
        confidence = float(np.clip(min(score / SURE_SCORE, 0.5 + 0.5 * (score - rival) / SURE_MARGIN), 0.0, 1.0))
        if score < MIN_SCORE or score - rival <= MIN_MARGIN:
            return None, None, confidence
        return kind, self.layouts.face_name(face), confidence

    def read(self, frame: np.ndarray, t: float = 0.0) -> SquareReading:
        """The square in ``frame`` (a camera frame of the calibrated mat), found afresh."""
        start = time.perf_counter()
        analysis = self.analyser.analyse(frame)
        found = []
        for d in analysis.dice:
            # One die high, by the pipeline's level and, where the height is measured surely, by a
            # height not clearly above one die's.
            measured = d.height_sigma_mm < MEASURED_HEIGHT_SIGMA * self.edge
            flat = d.level == 1 and not (measured and d.height_mm - d.height_sigma_mm > STACKED_HEIGHT * self.edge)
            found.append((d.x_mm, d.y_mm, d.angle_deg, d.level * self.edge, flat, d.on_mat))
        return self._reading(frame, t, found, bool(analysis.occlusions), start)

    def verify(self, frame: np.ndarray, last: SquareReading, t: float = 0.0) -> SquareReading:
        """The square in ``frame``, its dice read where ``last`` found them without looking for them
        again: what a « DiXe ! » check needs at once. A die moved since is read badly there and the
        reading says so (low confidence): the check then waits for the next full reading."""
        start = time.perf_counter()
        found = [(d.x_mm, d.y_mm, d.angle_deg, d.height_mm or self.edge, d.flat, True)
                 for d in (*[p for p in last.places if p is not None], *last.reserve, *last.strays)]
        return self._reading(frame, t, found, last.occluded, start)

    def _reading(self, frame: np.ndarray, t: float, found: list[tuple[float, float, float, float, bool, bool]],
                 occluded: bool, start: float) -> SquareReading:
        found = [f for f in found if f[5]]          # a die beside the mat is won, or waiting: not the game's
        crops = [self.analyser.top_face_crop(frame, np.array([x, y]), h, a) for x, y, a, h, _, _ in found]
        scores = self.matcher.scores(crops)
        places: list[SeenDie | None] = [None] * 9
        crowded: set[int] = set()
        reserve, strays = [], []
        for (x, y, angle, height, flat, on_mat), row in zip(found, scores, strict=True):
            kind, face, conf = self._decide(row, None)
            place, near_border = self.place_of(x, y)
            seen = SeenDie(x, y, angle % 90.0, kind, face, conf, place, flat, near_border, height, row)
            if place is not None:
                if places[place] is not None:
                    crowded.add(place)
                places[place] = seen
            elif on_mat and self.in_reserve(x, y):
                reserve.append(seen)
            else:
                strays.append(seen)
        return SquareReading(t, tuple(places), tuple(reserve), tuple(strays), tuple(sorted(crowded)), occluded,
                             time.perf_counter() - start, self)


class SquareWatcher(MatWatcher[SquareReading]):
    """Watches frames: a :class:`SquareReading` once the table has just become still, else ``None``.
    The dice pipeline under the reader says itself when the markers have moved."""

    def __init__(self, reader: SquareReader, stillness: StillnessDetector | None = None) -> None:
        super().__init__(reader, stillness, recheck_every_s=None)
        self.reader: SquareReader = reader

    def take_notices(self) -> list[Any]:
        notices = super().take_notices() + self.reader.analyser.notices
        self.reader.analyser.notices = []
        return notices


def open_square_camera(layout_name: str) -> tuple[MatLayout, SquareWatcher]:
    """The mat's layout and a watcher reading it with the calibration profile, the taught faces and
    the dice layouts learnt so far; the errors name the calibration command to run."""
    from controller.engines.memodixe import default_book
    from controller.games.memodixe.layouts import table_layouts
    from controller.vision.mat import load_layout

    layout = load_layout(layout_name)
    profile = TableProfile.load(layout.name)
    library = FaceLibrary.load()
    layouts, notes = table_layouts(default_book(), library)
    watcher = SquareWatcher(SquareReader(layout, profile, library, layouts))
    watcher.notices.extend(notes)
    return layout, watcher
