"""Is the table still? Frame differencing on small grey frames, with camera-shake detection.

On real top-down videos the mean absolute grey difference between consecutive downscaled frames is
about 2.5-3.2 grey levels while dice roll and 0.1-0.3 once they settle: a threshold near 0.5 held for
10-15 frames separates them. A shaking camera moves the whole image at once: the shift between frames
(phase correlation) tells it from dice moving, and a shift left over once still means the camera or
the mat moved since the reference frame (calibrate again).
"""

from __future__ import annotations

import dataclasses
import enum

import cv2
import numpy as np


class MotionState(enum.Enum):
    MOVING = "moving"        # something moves (dice, a hand)
    SHAKE = "shake"          # the whole image moves: the camera is shaking
    SETTLING = "settling"    # quiet, but not yet for long enough
    STILL = "still"


@dataclasses.dataclass
class StillnessDetector:
    """Feed every (preview) frame to :meth:`update`; the state turns ``STILL`` once the difference has
    stayed under ``threshold`` for ``hold_frames`` frames and ``hold_s`` seconds."""

    threshold: float = 0.5
    hold_frames: int = 12
    hold_s: float = 0.0
    width: int = 160
    shake_px: float = 0.15          # global shift (small-frame px) that may be shake
    drift_px: float = 0.6           # shift from the reference, once still, that counts as camera moved

    def __post_init__(self) -> None:
        self.state = MotionState.SETTLING
        self.last_diff = 0.0
        self.last_shift = 0.0
        self.camera_moved = False
        self._prev: np.ndarray | None = None
        self._ref: np.ndarray | None = None
        self._quiet_frames = 0
        self._quiet_since: float | None = None
        self._window: np.ndarray | None = None

    def _small(self, frame: np.ndarray) -> np.ndarray:
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        h, w = grey.shape
        small = cv2.resize(grey, (self.width, max(1, round(h * self.width / w))), interpolation=cv2.INTER_AREA)
        return small.astype(np.float32)

    def _shift(self, a: np.ndarray, b: np.ndarray) -> float:
        if self._window is None or self._window.shape != a.shape:
            self._window = cv2.createHanningWindow((a.shape[1], a.shape[0]), cv2.CV_32F)
        # phaseCorrelate may apply the window to its inputs in place: give it copies.
        (dx, dy), response = cv2.phaseCorrelate(a.copy(), b.copy(), self._window)
        return float(np.hypot(dx, dy)) if response > 0.2 else 0.0

    def reset_reference(self) -> None:
        """Take the next still frame as the reference position of the camera."""
        self._ref = None
        self.camera_moved = False

    def update(self, frame: np.ndarray, t: float = 0.0) -> MotionState:
        small = self._small(frame)
        prev, self._prev = self._prev, small
        if prev is None:
            self._quiet_frames = 0
            self.state = MotionState.SETTLING
            return self.state
        self.last_diff = float(np.mean(np.abs(small - prev)))
        if self.last_diff < self.threshold:
            if self._quiet_frames == 0:
                self._quiet_since = t
            self._quiet_frames += 1
            if self._quiet_frames >= self.hold_frames and t - (self._quiet_since or t) >= self.hold_s:
                if self.state is not MotionState.STILL:
                    if self._ref is None:
                        self._ref = small
                    else:
                        self.camera_moved = self._shift(self._ref, small) > self.drift_px
                self.state = MotionState.STILL
            else:
                self.state = MotionState.SETTLING
            return self.state
        self._quiet_frames = 0
        self.last_shift = self._shift(prev, small)
        # Whole-image motion: the difference is explained by a shift of the frame.
        if self.last_shift > self.shake_px:
            M = np.float32([[1, 0, 0], [0, 1, 0]])
            (dx, dy), _ = cv2.phaseCorrelate(prev.copy(), small.copy(), self._window)
            M[0, 2], M[1, 2] = dx, dy
            aligned = cv2.warpAffine(prev, M, (small.shape[1], small.shape[0]), borderMode=cv2.BORDER_REPLICATE)
            # Compared smoothed, so that resampling sharp edges does not count as change.
            cur_b = cv2.GaussianBlur(small, (0, 0), 1.5)
            before = float(np.mean(np.abs(cur_b - cv2.GaussianBlur(prev, (0, 0), 1.5))[4:-4, 4:-4]))
            residual = float(np.mean(np.abs(cur_b - cv2.GaussianBlur(aligned, (0, 0), 1.5))[4:-4, 4:-4]))
            if residual < 0.4 * before:
                self.state = MotionState.SHAKE
                return self.state
        self.state = MotionState.MOVING
        return self.state
