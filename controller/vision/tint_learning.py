"""Learning the tint of the dice's shadows from a frame, when the light's own does not explain them.

Outside the silhouettes that the dice's positions and levels predict, what differs from the empty mat
is shadow. Shadows of a tint not yet known widen the silhouettes and move their dice, leaving a thin
rim outside them that no light explains: enough to learn the tint from (:func:`~controller.vision.
shadows.fit_tint`), then to learn again from the dice found with it, until it no longer changes. It
then stands when the shadows that agree on it are the dice's.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from controller.vision.analysis import Analysis
from controller.vision.background import BackgroundModel, Changes
from controller.vision.measuring import DieMeasurer
from controller.vision.shadows import Tint, fit_tint, same_light


class Reanalyser(Protocol):
    """What the tint learner needs of the analyser it learns for: its tint, set while learning (and
    set back), what differed from the empty mat at its last frame, and the frame analysed again."""

    shadow_tint: Tint

    @property
    def changes(self) -> Changes | None: ...

    def analyse(self, frame: np.ndarray, incremental: bool = False) -> Analysis: ...


class TintLearner:
    """Learns the shadows' tint beside dice measured by ``measurer``, against ``background``."""

    def __init__(self, background: BackgroundModel, measurer: DieMeasurer) -> None:
        self.background = background
        self.measurer = measurer
        #: A tint that what lay beside the dice suggested at the last still snapshot but that was not
        #: the dice's shadows (see learn): not tried again while it is still there.
        self.not_a_light: Tint | None = None

    def learn(self, frame: np.ndarray, analysis: Analysis, analyser: Reanalyser) -> tuple[Tint, Analysis] | None:
        """The tint of the shadows in ``frame`` when ``analyser``'s own does not explain them, and the
        frame analysed with it; None when it does, when they are untinted, or when the tint found is
        not borne out. ``analysis`` is of ``frame``, the last frame analysed. The analyser's tint is
        left as it was.

        The tint stands when the shadows that agree on it are the dice's (see :meth:`cast_by_the_dice`).
        """
        kept, tint, first = analyser.shadow_tint, None, None
        die_area = self.measurer.die_px() ** 2
        try:
            for _ in range(4):
                changes, outside = self.outside_silhouettes(analyser.changes, analysis)
                if changes is None:
                    return None
                if tint is None and np.count_nonzero(outside & ~changes.explained) < 0.05 * die_area:
                    self.not_a_light = None
                    return None                   # the shadows are explained already
                fit = fit_tint(changes.now[outside], changes.before[outside], int(0.15 * die_area))
                if fit is None:
                    return None
                found, agree = fit
                if tint is None:
                    if self.not_a_light is not None and same_light(found, self.not_a_light):
                        return None               # the same thing as at the last snapshot, still there
                    first = found
                if same_light(found, tint or kept):
                    if tint is not None and self.cast_by_the_dice(analysis, changes.at[outside][agree]):
                        return tint, analysis
                    break
                tint = analyser.shadow_tint = found
                analysis = analyser.analyse(frame, incremental=True)
            self.not_a_light = first
            return None
        finally:
            analyser.shadow_tint = kept

    def cast_by_the_dice(self, analysis: Analysis, at: np.ndarray) -> bool:
        """Whether the pixels ``at`` (flat indices of the rectified view) are shadows that the dice
        cast: half a die's area of them at least, and some beside at least half of the dice (one
        light shades every die alike; a pen or a card beside one die is not a light)."""
        die = self.measurer.die_px()
        if len(at) < 0.5 * die ** 2 or not analysis.dice:
            return False
        width = analysis.rectified.shape[1]
        pts = np.column_stack([at % width, at // width]).astype(np.float32)
        centres = self.measurer.rectifier.to_px(np.array([[d.x_mm, d.y_mm] for d in analysis.dice]))
        shaded = 0
        for c in centres:
            shaded += np.count_nonzero(np.abs(pts - c.astype(np.float32)).max(axis=1) < 1.5 * die) >= 0.02 * die ** 2
        return shaded >= max(2, len(centres) / 2)

    def outside_silhouettes(self, changes: Changes | None, analysis: Analysis) -> tuple[Changes | None, np.ndarray]:
        """``changes`` (what differed from the empty mat in the frame that ``analysis`` is of), and which
        of those pixels lie where the dice's shadows fall: near the dice's silhouettes as ``analysis``
        predicts them (within a die's side of them), outside them, on the visible mat. Light changing
        over the whole mat does not count there beyond that band."""
        if changes is None:
            return None, np.zeros(0, bool)
        die = self.measurer.die_px()
        margin = max(1.0, 0.08 * die)
        masks = self.measurer.silhouettes(analysis.dice, analysis.rectified.shape, (margin, margin + die))
        on, near = (m.reshape(-1).take(changes.at) > 0 for m in masks)
        return changes, near & ~on & (self.background.mask.reshape(-1).take(changes.at) > 0)
