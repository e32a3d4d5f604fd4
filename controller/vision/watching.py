"""A game's own reader watching its mat: read the table once it has just become still.

Games whose pieces are not only dice (Wuxing's islands and pawns, Praxis's tiles and ships, MémoDiXe's
square) bring a reader of their own, ``reader.read(frame, t)``. :class:`MatWatcher` is what the
dice pipeline's :class:`~controller.vision.pipeline.TableWatcher` is for dice: it feeds every frame to
a stillness detector, reads the table once when it has just become still, and, every
``recheck_every_s``, checks that the mat's markers are where calibration saw them (a knocked camera
puts every position off), keeping what to tell the players among its notices.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from controller.i18n import N_, SOURCE_LANGUAGE, message, said
from controller.vision.mat import MatLayout
from controller.vision.profile import TableProfile, markers_moved
from controller.vision.stillness import MotionState, StillnessDetector

log = logging.getLogger(__name__)

Reading = TypeVar("Reading")
Reading_co = TypeVar("Reading_co", covariant=True)

#: Marker movement (pixels) beyond which calibration no longer holds.
MOVED_PX = 3.0


class MatReader(Protocol[Reading_co]):
    """What a game's reader offers the watcher."""

    layout: MatLayout
    profile: TableProfile

    def read(self, frame: np.ndarray, t: float) -> Reading_co: ...


class MatWatcher(Generic[Reading]):
    """Watches frames: the reader's reading once the table has just become still, else ``None``.

    ``recheck_every_s``: how often the markers are checked (``None``: never)."""

    #: What the players are told when the markers moved since calibration (``pixels``, ``layout``).
    MOVED_WORDS = N_("the mat's markers moved by {pixels} px since calibration: calibrate again "
                     "(bitbox calibrate mat --layout {layout})")

    def __init__(self, reader: MatReader[Reading], stillness: StillnessDetector | None = None,
                 recheck_every_s: float | None = 60.0) -> None:
        self.reader = reader
        self.stillness = stillness or StillnessDetector()
        self.recheck_every_s = recheck_every_s
        self.notices: list[Any] = []
        self.last: Reading | None = None
        self._emitted = False
        self._last_check = -math.inf
        #: Seconds spent reading, and the readings made (for benches and logs).
        self.read_s = 0.0
        self.readings = 0

    @property
    def layout(self) -> MatLayout:
        return self.reader.layout

    @property
    def state(self) -> MotionState:
        return self.stillness.state

    def feed(self, frame: np.ndarray, t: float | None = None) -> Reading | None:
        """One frame in; a reading out when the table has just become still."""
        t = time.monotonic() if t is None else t
        if self.stillness.update(frame, t) is not MotionState.STILL:
            self._emitted = False
            return None
        if self._emitted:
            return None
        self._emitted = True
        self._check_markers(frame, t)
        return self.read(frame, t)

    def read(self, frame: np.ndarray, t: float = 0.0) -> Reading:
        """Read ``frame`` now, taken as still."""
        start = time.perf_counter()
        reading = self.reader.read(frame, t)
        self.read_s += time.perf_counter() - start
        self.readings += 1
        self.last = reading
        return reading

    def _check_markers(self, frame: np.ndarray, t: float) -> None:
        if self.recheck_every_s is None or t - self._last_check < self.recheck_every_s:
            return
        self._last_check = t
        moved = markers_moved(frame, self.reader.layout, self.reader.profile)
        if moved is not None and moved > MOVED_PX:
            self.notice(message(self.MOVED_WORDS, pixels=f"{moved:.1f}", layout=self.reader.layout.name))

    def notice(self, words: Any) -> None:
        """Keep ``words`` (a message) for the table's players, and log it."""
        log.warning(said(words, SOURCE_LANGUAGE) if isinstance(words, dict) else words)
        self.notices = [*self.notices[-19:], words]

    def take_notices(self) -> list[Any]:
        notices, self.notices = self.notices, []
        return notices
