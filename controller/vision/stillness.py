"""Is the table still? Change looked for region by region on small grey frames, camera shake told apart.

A mean taken over the whole frame hides one small die still sliding: seen from 70 cm, a die is a
thousandth of the view, and its last slow centimetres hardly move the mean. So the detector marks, on a
320-pixel-wide grey copy of each frame (the preview itself), the pixels that changed by more than the
camera's own noise (measured on the pair of frames itself: a noisy webcam or a dim room needs no
setting), and calls the table moving as soon as any small neighbourhood holds a few changed pixels: the
largest local change decides, not the mean. Further:

* **Slow motion.** While the table is quiet, each frame is also compared with the frame the quiet
  began from (renewed every ``renew_s`` once still), so a die creeping by less than a noise step per
  frame adds up to a change before the table is called still.
* **Flicker.** Mains lighting seen by a rolling shutter brightens bands of rows at once: the change the
  rows share is taken out before pixels are judged.
* **A camera never perfectly steady.** The shift of the whole view between two frames is fitted (to a
  few hundredths of a pixel); a pixel's change that the shift explains on its slope is no motion. Up to
  ``shake_px`` this is a slight shake, and the table may be still through it.
* **Shake.** Beyond, the camera shakes: the table is not called still (the picture would be blurred,
  and a slow die is not seen through it), and the state says ``SHAKE``, not ``MOVING``, unless the
  change left once the view is moved back by the shift shows that something on the table moved as
  well: a roll is never hidden by a shaking camera.

A shift left over, once still, against the first still frame means the camera or the mat moved since
(calibrate again): :attr:`StillnessDetector.camera_moved`. ``python bench/stillness.py`` measures the
detector on rendered and recorded rolls.
"""

from __future__ import annotations

import dataclasses
import enum
import math

import cv2
import numpy as np


#: The fewest rows of the small copy: enough for its edges to be left out and a cell to remain.
MIN_ROWS = 32


class MotionState(enum.Enum):
    MOVING = "moving"        # something moves (dice, a hand)
    SHAKE = "shake"          # the whole image moves: the camera is shaking
    SETTLING = "settling"    # quiet, but not yet for long enough
    STILL = "still"


@dataclasses.dataclass
class StillnessDetector:
    """Feed every (preview) frame to :meth:`update`; the state turns ``STILL`` once no region has changed
    for ``hold_frames`` frames and ``hold_s`` seconds, and stays so until something changes."""

    #: Quiet frames needed (4 frames: 133 ms at 30 fps, 267 ms at 15 fps) ...
    hold_frames: int = 4
    #: ... and quiet seconds.
    hold_s: float = 0.0
    #: Width of the grey copy the frames are compared on: the preview's own 320 pixels (a die is some 8
    #: pixels across there). Half that hid a die sliding slowly while the camera trembled: its change
    #: stayed below what undoing the tremble's shift leaves on the mat's printed edges.
    width: int = 320
    #: A pixel changed when its change is above ``noise_k`` times the noise and ``min_level`` grey levels.
    noise_k: float = 5.0
    min_level: float = 4.0
    #: The floor against the frame the quiet began from: a creeping die's change adds up there while
    #: the noise does not. As high as ``min_level``: a mains light's flicker, taken out by the row
    #: gains but for a grey level or two, must not pass it.
    creep_level: float = 4.0
    #: The most noise a camera is taken to have on the small copy (grey levels).
    max_noise: float = 3.0
    #: A region (a square of ``region_px``) moved when it holds at least ``region_pixels`` changed pixels.
    region_px: int = 7
    region_pixels: int = 5
    #: Shifts of the whole view (small-frame pixels) up to ``jitter_px`` are always allowed for (a
    #: camera is never perfectly steady), up to ``shake_px`` are a slight shake, allowed for by the
    #: shift measured; beyond, the camera shakes: nothing is still, and a region moved only where the
    #: shift leaves over ``residual_level`` grey levels of its change in some ``cell_px`` cell (see
    #: :meth:`shake_residual`).
    jitter_px: float = 0.1
    shake_px: float = 0.5
    #: The share of a slight shift still allowed for once the view is moved back by it.
    compensated: float = 0.6
    residual_level: float = 1.0
    cell_px: int = 10
    #: Shift from the reference, once still, that counts as the camera moved.
    drift_px: float = 1.2
    #: While still, the frame changes are measured against is renewed this often (slow light changes).
    renew_s: float = 2.0

    def __post_init__(self) -> None:
        self.state = MotionState.SETTLING
        #: Mean absolute grey change from the previous frame (for logs and benches).
        self.last_diff = 0.0
        #: Global shift from the previous frame, in small-frame pixels, when it was measured.
        self.last_shift = 0.0
        self.camera_moved = False
        self._prev: np.ndarray | None = None
        self._anchor: np.ndarray | None = None
        self._anchor_t = 0.0
        self._ref: np.ndarray | None = None
        self._quiet_frames = 0
        self._quiet_since: float | None = None
        self._window: np.ndarray | None = None

    def _small(self, frame: np.ndarray) -> np.ndarray:
        """A grey copy ``width`` pixels wide, halved with a Gaussian at each step: a print's fine
        detail averaged into a few pixels by plain subsampling would change with the smallest shift of
        the view (aliasing), and be taken for motion."""
        grey = (frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)).astype(np.float32)
        while grey.shape[1] >= 1.5 * self.width:
            grey = cv2.pyrDown(grey)
        h, w = grey.shape
        rows = max(MIN_ROWS, round(h * self.width / w))      # a very wide view is stretched to enough rows
        if (w, h) != (self.width, rows):
            grey = cv2.resize(grey, (self.width, rows), interpolation=cv2.INTER_AREA)
        return grey

    def _shift(self, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
        """The shift of ``b`` against ``a`` in small-frame pixels ((0, 0) where it is not clear)."""
        if self._window is None or self._window.shape != a.shape:
            self._window = cv2.createHanningWindow((a.shape[1], a.shape[0]), cv2.CV_32F)
        # phaseCorrelate may apply the window to its inputs in place: give it copies.
        (dx, dy), response = cv2.phaseCorrelate(a.copy(), b.copy(), self._window)
        return (float(dx), float(dy)) if response > 0.2 else (0.0, 0.0)

    def changed_region(self, a: np.ndarray, b: np.ndarray, shift_px: float = 0.0, floor: float | None = None) -> int:
        """Changed pixels in the most changed ``region_px`` square between two small frames. A pixel
        changed when its change is more than the noise allows, and more than a shift of the view by
        ``shift_px`` would make on its slope (an edge moved by a tenth of a pixel changes by a tenth
        of its contrast, at most the rise around the pixel): so a slight shake is not taken for motion.
        ``floor``: the least change counted, whatever the noise (default ``min_level``)."""
        edge = 4 + math.ceil(shift_px)                        # what a shift brings in at the edges
        a, b = a[edge:-edge, edge:-edge], b[edge:-edge, edge:-edge]
        d = b - _flicker(a, b) * a
        # Every fourth pixel is enough, and cheaper. Capped: where most of the view changes (an arm
        # across the mat), the median change is the arm's, not the camera's noise.
        noise = min(1.4826 * float(np.median(np.abs(d[::2, ::2]))), self.max_noise)
        limit = max(self.min_level if floor is None else floor, self.noise_k * noise)
        d = np.abs(d)
        if float(d.max()) <= limit:
            return 0                                          # the usual quiet frame: nothing above the noise
        if shift_px > 0:
            limit = limit + shift_px * np.maximum(_rise(a), _rise(b))
        changed = (d > limit).astype(np.float32)
        counts = cv2.boxFilter(changed, -1, (self.region_px, self.region_px), normalize=False,
                               borderType=cv2.BORDER_CONSTANT)
        return int(round(float(counts.max())))

    def shake_residual(self, a: np.ndarray, b: np.ndarray, shift: tuple[float, float]) -> float:
        """How much of the change between ``a`` and ``b`` the camera's ``shift`` leaves unexplained:
        ``inf`` where moving ``a`` by the shift does not take away half the change over the whole view
        (the shift is the table's own change, read as a shift), else the worst ``cell_px`` cell's mean
        change once ``a`` is moved, less a quarter of its change before. Sub-pixel shifts of a printed mat
        cannot be undone exactly on a small frame, so both are smoothed and compared cell by cell: a
        die that moved on its own keeps its whole change in its cell, a shaken view loses most of it
        everywhere."""
        M = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
        moved = cv2.warpAffine(a, M, (a.shape[1], a.shape[0]), borderMode=cv2.BORDER_REPLICATE)
        a, b, moved = (cv2.GaussianBlur(x, (0, 0), 1.5) for x in (a, b, moved))
        edge = int(np.ceil(max(abs(shift[0]), abs(shift[1])))) + 3
        before = np.abs(b - a)[edge:-edge, edge:-edge]
        after = np.abs(b - moved)[edge:-edge, edge:-edge]
        if min(after.shape, default=0) < self.cell_px or float(after.mean()) > 0.5 * float(before.mean()):
            return math.inf                                # a shift too large to check is no shake
        return float((_cell_means(after, self.cell_px) - 0.25 * _cell_means(before, self.cell_px)).max())

    def moved(self, a: np.ndarray, b: np.ndarray, floor: float | None = None) -> tuple[bool, float]:
        """Whether anything moved on the table between two small frames, and how far the whole view
        shifted (small-frame pixels; 0 when nothing changed or the change is no shift). ``floor``: see
        :meth:`changed_region`."""
        if self.changed_region(a, b, self.jitter_px, floor) < self.region_pixels:
            return False, 0.0
        shift = _drift(a, b)
        size = float(np.hypot(*shift))
        if size <= self.shake_px:
            # Moved back by the fitted shift, what is left of the view's shift is its error, a few
            # hundredths of a pixel (and some of the shift's size, for safety).
            back = cv2.warpAffine(a, np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]), (a.shape[1], a.shape[0]),
                                  flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            # The lower floor holds only for a view that did not shift: what a shift undone on so small
            # a frame leaves on a print's sharp edges would pass it.
            floor = floor if size <= self.jitter_px else None
            return self.changed_region(back, b, self.compensated * size + self.jitter_px, floor) >= self.region_pixels, size
        if size > 0.5:                                    # beyond a fitted translation's reach
            coarse = self._shift(a, b)
            M = np.float32([[1, 0, coarse[0]], [0, 1, coarse[1]]])
            rest = _drift(cv2.warpAffine(a, M, (a.shape[1], a.shape[0]), borderMode=cv2.BORDER_REPLICATE), b)
            shift = (coarse[0] + rest[0], coarse[1] + rest[1])
            size = float(np.hypot(*shift))
        residual = self.shake_residual(a, b, shift)
        return residual >= self.residual_level, (size if residual < math.inf else 0.0)

    def reset_reference(self) -> None:
        """Take the next still frame as the reference position of the camera."""
        self._ref = None
        self.camera_moved = False

    def update(self, frame: np.ndarray, t: float = 0.0) -> MotionState:
        small = self._small(frame)
        prev, self._prev = self._prev, small
        if prev is None:
            self._quiet_frames, self._anchor = 0, None
            self.state = MotionState.SETTLING
            return self.state
        self.last_diff = float(np.mean(np.abs(small - prev)))
        moved, self.last_shift = self.moved(prev, small)
        if moved:
            return self._moving()
        if self._anchor is not None and self.moved(self._anchor, small, self.creep_level)[0]:
            return self._moving()                         # crept since the quiet began
        if self.last_shift > self.shake_px:
            # The camera shakes: nothing moved that the shift does not explain, but a frame that moves
            # is no picture to take: the hold starts again (the first quiet frame stays, so that a die
            # creeping on through the shake is still caught against it).
            self._quiet_frames = 0
            self.state = MotionState.SHAKE
            return self.state
        if self._quiet_frames == 0:
            self._quiet_since = t
            if self._anchor is None:
                self._anchor, self._anchor_t = prev, t
        self._quiet_frames += 1
        if self._quiet_since is None:
            self._quiet_since = t
        if self._quiet_frames < self.hold_frames or t - self._quiet_since < self.hold_s:
            self.state = MotionState.SETTLING
            return self.state
        if self.state is not MotionState.STILL:
            if self._ref is None:
                self._ref = small
            else:
                self.camera_moved = float(np.hypot(*self._shift(self._ref, small))) > self.drift_px
            self._anchor, self._anchor_t = small, t
        elif t - self._anchor_t >= self.renew_s:
            self._anchor, self._anchor_t = small, t
        self.state = MotionState.STILL
        return self.state

    def _moving(self) -> MotionState:
        self._quiet_frames, self._anchor = 0, None
        self.state = MotionState.MOVING
        return self.state


_NEIGHBOURS = np.ones((3, 3), np.uint8)
_FLICKER_ROWS = 9


def _flicker(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The brightening ``b`` shares along each row against ``a`` (mains lighting seen by a rolling
    shutter lights bands of rows more or less at once): each row's median brightness in ``b`` over that
    in ``a``, smoothed over ``_FLICKER_ROWS`` rows so that one row's own change is not taken for it."""
    gains = np.median(b[:, ::3], axis=1) / np.maximum(np.median(a[:, ::3], axis=1), 1.0)
    half = _FLICKER_ROWS // 2
    padded = np.pad(gains, half, mode="edge")
    smooth = np.median(np.lib.stride_tricks.sliding_window_view(padded, _FLICKER_ROWS), axis=1)
    return smooth[:, None]


def _rise(image: np.ndarray) -> np.ndarray:
    """The grey range around each pixel: the most a shift of the view by up to a pixel changes it."""
    return cv2.dilate(image, _NEIGHBOURS) - cv2.erode(image, _NEIGHBOURS)


def _drift(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """The shift of ``b`` against ``a`` (small-frame pixels) as one translation fitted to the whole
    view's slopes (Lucas and Kanade's least squares): right to a few hundredths of a pixel for the
    slight shifts of a camera that is merely not perfectly steady, where phase correlation's peak is
    drawn to whole pixels. Beyond half a pixel, use phase correlation."""
    a, b = cv2.GaussianBlur(a, (0, 0), 1.0), cv2.GaussianBlur(b, (0, 0), 1.0)
    mean = (a + b) / 2
    gx = (cv2.Sobel(mean, cv2.CV_32F, 1, 0, ksize=1) / 2)[3:-3, 3:-3]
    gy = (cv2.Sobel(mean, cv2.CV_32F, 0, 1, ksize=1) / 2)[3:-3, 3:-3]
    dt = (b - a)[3:-3, 3:-3]
    sxx, sxy, syy = float(np.sum(gx * gx)), float(np.sum(gx * gy)), float(np.sum(gy * gy))
    det = sxx * syy - sxy * sxy
    if det <= 1e-6 * max(sxx * syy, 1.0):
        return 0.0, 0.0                                    # a blank view: no slope to fit a shift to
    bx, by = -float(np.sum(gx * dt)), -float(np.sum(gy * dt))
    return (syy * bx - sxy * by) / det, (sxx * by - sxy * bx) / det


def _cell_means(image: np.ndarray, cell: int) -> np.ndarray:
    """Means of ``image`` over whole ``cell`` x ``cell`` squares."""
    h, w = image.shape[0] // cell * cell, image.shape[1] // cell * cell
    return image[:h, :w].reshape(h // cell, cell, w // cell, cell).mean(axis=(1, 3))
