"""What the analysis of one frame found: each die measured and read, the occlusions, and the images
they were found in (see :class:`~controller.vision.pipeline.FrameAnalyser`)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from controller.vision.snapshot import DieFace, Occlusion

#: Placeholder face of a die measured but not read yet.
UNREAD = DieFace(confidence=-1.0)


@dataclasses.dataclass(frozen=True)
class FoundDie:
    """A die (or the top die of a stack) measured in one frame, before tracking."""

    x_mm: float
    y_mm: float
    level: int
    height_mm: float                 # estimated height of the top face
    angle_deg: float
    face: DieFace
    colour: str | None
    on_mat: bool
    at_edge: bool
    top_center_px: tuple[float, float]   # in the rectified view
    top_size_px: float
    extents_mm: tuple[float, float, float] = (0.0, 0.0, 1.0)   # silhouette's inner, outer extent, g
    assumed_level: bool = False      # level from the temple zones or history, not from the height
    height_sigma_mm: float = 0.0     # how uncertain the measured height is (large near the nadir)


@dataclasses.dataclass
class Analysis:
    """One frame analysed: dice, occlusions, and the intermediate images (for drawing)."""

    dice: list[FoundDie]
    occlusions: list[Occlusion]
    rectified: np.ndarray            # the top-down view near what changed; the empty mat elsewhere
    foreground: np.ndarray
    detections: list[Any]
    unchanged: bool = False          # the frame showed what the last one analysed did: this is its analysis
