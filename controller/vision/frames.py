"""Camera frames analysed at a moderate resolution, with the camera's full resolution kept for the faces.

Finding, placing and measuring dice needs no more than some 2,300 pixels across the view, and costs
in proportion to the pixels; reading a DiXe character (one horned head, a different letter) wants
every pixel a camera has (docs/table-camera.md: 95 % of them read right with a die 38 pixels wide, all
of them at 92). So a frame wider than :data:`ANALYSIS_WIDTH` (a Pi camera's full 4608 x 2592, a 4K
webcam, a phone's video) is analysed reduced by a whole factor, and the full frame rides along with it
as its :attr:`DetailedFrame.detail`: the face reader (:class:`controller.vision.face_reading.FaceReader`)
cuts each top face from there. Everything else sees an ordinary frame of the reduced size, which is
also the size the mat is calibrated at.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: The widest frame analysed as it is; wider frames are reduced by the smallest whole factor that
#: brings them to this width or less (4608 x 2592 to 2304 x 1296, 3840 x 2160 to 1920 x 1080).
ANALYSIS_WIDTH = 2304


class DetailedFrame(np.ndarray):
    """A camera frame (BGR, uint8) at the analysis resolution, holding the same view at the camera's
    full resolution in :attr:`detail`. Arrays derived from it (slices, copies, results) are plain
    frames again: their ``detail`` is ``None``."""

    detail: np.ndarray | None

    def __array_finalize__(self, obj: object) -> None:
        self.detail = None


def reduction(width: int, height: int, limit: int = ANALYSIS_WIDTH) -> int:
    """The smallest whole factor that brings a frame ``width`` pixels wide to ``limit`` pixels or less
    (1 for a frame that is narrow enough)."""
    return max(1, math.ceil(width / limit))


def analysis_frame(frame: np.ndarray, limit: int = ANALYSIS_WIDTH) -> np.ndarray:
    """``frame`` itself when it is at most ``limit`` pixels wide; else a :class:`DetailedFrame`
    reduced by :func:`reduction` (each side rounded to whole pixels), averaging the pixels it merges,
    with ``frame`` as its detail."""
    h, w = frame.shape[:2]
    factor = reduction(w, h, limit)
    if factor == 1:
        return frame
    size = (round(w / factor), round(h / factor))
    reduced = cv2.resize(frame, size, interpolation=cv2.INTER_AREA).view(DetailedFrame)
    reduced.detail = frame
    return reduced


def detail_of(frame: np.ndarray) -> np.ndarray | None:
    """The full-resolution view a frame holds (see :class:`DetailedFrame`), or ``None``."""
    return getattr(frame, "detail", None)


def detail_scale(frame: np.ndarray, detail: np.ndarray) -> np.ndarray:
    """How many of ``detail``'s pixels make one of ``frame``'s, across and down (the same view)."""
    return np.array([detail.shape[1] / frame.shape[1], detail.shape[0] / frame.shape[0]])


def in_detail(frame: np.ndarray, detail: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Pixel coordinates of ``frame`` (``(x, y)`` rows) where they fall in ``detail``, the same view
    with more pixels: the reduction averages whole blocks, so pixel centres are matched."""
    return (np.asarray(points, np.float64) + 0.5) * detail_scale(frame, detail) - 0.5
