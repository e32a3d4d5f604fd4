"""Watching the table: the stillness detector, one frame analysed each time the table has just become
still, and the identities of the dice and the stacks kept across those snapshots."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from controller.vision.analysis import Analysis
from controller.vision.mat import MatLayout
from controller.vision.profile import markers_moved
from controller.vision.snapshot import TableSnapshot
from controller.vision.stacks import StackTracker
from controller.vision.stillness import MotionState, StillnessDetector
from controller.vision.tracking import DiceTracker

if TYPE_CHECKING:
    from controller.vision.pipeline import FrameAnalyser


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
