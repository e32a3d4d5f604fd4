"""From camera frames to :class:`~controller.vision.snapshot.TableSnapshot`.

Per frame, :class:`FrameAnalyser` runs these stages, each a module of its own:

1. :mod:`~controller.vision.regions` (:class:`~controller.vision.regions.RegionFinder`): the frame is
   resampled to a top-down view of the mat plane at the profile's scale (``Rectifier``), only around
   what differs from the empty mat (looked for first on a sparse grid of the view), grouped into
   regions. A frame compared with the last one analysed is rectified and searched again only in the
   regions that changed since.
2. :mod:`~controller.vision.background` (:class:`~controller.vision.background.BackgroundModel`): the
   rectified empty mat, re-lit when the light has changed since calibration, and the foreground: what
   differs from it, shadows, changes of light and glare excepted (see :mod:`controller.vision.shadows`).
3. :mod:`~controller.vision.silhouettes` (:class:`~controller.vision.silhouettes.SilhouetteFinder`):
   each outline of the foreground is an :class:`~controller.vision.snapshot.Occlusion` (a hand, an
   arm), one die, or touching dice that the dice finder (:func:`controller.vision.dice.find_dice`)
   or k-means split.
4. :mod:`~controller.vision.measuring` (:class:`~controller.vision.measuring.DieMeasurer`): each die's
   true position, turn, top face's height and level from its silhouette and the camera's geometry
   (parallax about the camera's nadir); near the nadir, the temple zones and the stacks standing at
   the last snapshot decide.
5. :mod:`~controller.vision.face_reading` (:class:`~controller.vision.face_reading.FaceReader`): each
   top face is cut from the camera frame itself where geometry puts it and read (symbol faces, then
   pips), with the die's body colour; a die found again unmoved keeps its last reading.

When the light changes, :mod:`~controller.vision.tint_learning` learns the shadows' new tint. Stillness,
identities and topples are kept across snapshots by :class:`TableWatcher`
(:mod:`~controller.vision.table_watcher`); ``bitbox calibrate dice`` is
:mod:`~controller.vision.dice_calibration`. This module re-exports the names callers used from it before
the stages had modules of their own (see ``__all__``).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

import cv2
import numpy as np

from controller.vision.analysis import UNREAD, Analysis, FoundDie
from controller.vision.background import BackgroundModel, Changes
from controller.vision.dice_calibration import LENS_EVIDENCE, LENS_HEIGHT_ERROR, calibrate_dice, measure_lens
from controller.vision.drawing import draw_analysis
from controller.vision.face_reading import FaceReader
from controller.vision.geometry import Rectifier
from controller.vision.mat import MatLayout
from controller.vision.measuring import RADIAL_EDGE_DEG, DieMeasurer, StackHint, silhouette_angle
from controller.vision.profile import TableProfile
from controller.vision.regions import RegionFinder, Seen, kept, touched
from controller.vision.shadows import NEUTRAL, Tint
from controller.vision.silhouettes import Finder, SilhouetteFinder
from controller.vision.table_watcher import TableWatcher, analyse_frames, build_snapshot
from controller.vision.tint_learning import TintLearner

if TYPE_CHECKING:
    from controller.vision.faces import FaceLibrary

__all__ = ["LENS_EVIDENCE", "LENS_HEIGHT_ERROR", "RADIAL_EDGE_DEG", "UNREAD", "Analysis", "Finder", "FoundDie",
           "FrameAnalyser", "TableWatcher", "analyse_frames", "build_snapshot", "calibrate_dice", "draw_analysis",
           "measure_lens", "silhouette_angle"]

log = logging.getLogger(__name__)


class FrameAnalyser:
    """Finds, measures and reads the dice in single frames of one calibrated mat, through its stages:
    ``region_finder``, ``background_model``, ``silhouettes``, ``measurer`` and ``reader`` (see the
    module's description), and ``tint_learner``.

    ``faces``: the face library that symbol faces are read with; ``finder``: the dice finder for
    touching dice; ``diff_threshold``: how far (grey levels) a pixel must differ from the empty mat to
    count. ``parallax=False`` reports each die where the mat-plane homography alone puts it (the middle
    of its silhouette), for comparison only.
    """

    def __init__(self, layout: MatLayout, profile: TableProfile, faces: FaceLibrary | None = None,
                 finder: Finder | None = None, diff_threshold: int = 30, parallax: bool = True) -> None:
        if profile.background is None:
            raise ValueError("the calibration profile has no empty-mat image; run bitbox calibrate mat")
        self.layout = layout
        self.profile = profile
        self.rectifier: Rectifier = profile.rectifier(layout)
        self.s = self.rectifier.px_per_mm
        self.edge = profile.die_edge_mm
        self.camera_centre = profile.camera.centre
        self.H = profile.camera.height_mm
        if profile.background.shape[:2] != (self.rectifier.height_px, self.rectifier.width_px):
            raise ValueError("the empty-mat image does not match the profile's scale; calibrate the mat again")
        self.measurer = DieMeasurer(layout, profile, self.rectifier, FaceReader(profile, faces), parallax)
        self.background_model = BackgroundModel(profile.background, self.rectifier.visible, self.edge * self.s,
                                                self.measurer.die_px(), diff_threshold, profile.shadow_tint)
        self.region_finder = RegionFinder(self.rectifier, self.background_model)
        self.silhouettes = SilhouetteFinder(self.measurer, self.background_model, self.rectifier, finder)
        self.tint_learner = TintLearner(self.background_model, self.measurer)
        self.mask = self.background_model.mask
        self.temples = self.measurer.temples
        #: What the camera found that the players may need to act on, oldest first, the last 20 (see
        #: notice()).
        self.notices: list[str] = []
        #: What differed from the empty mat at the last foreground (see Changes).
        self._changes: Changes | None = None
        #: The last frame analysed (see _analyse); forgotten when the empty mat or the shadows' tint change.
        self._seen: Seen | None = None

    @property
    def shadow_tint(self) -> Tint:
        """The light's tint that shadows darken the mat by (BGR, mean 1); neutral shadows are always
        explained too, so that the tint learnt under a lamp in daylight does not hide the shadows of
        daylight alone."""
        return self.background_model.shadow_tint

    @shadow_tint.setter
    def shadow_tint(self, tint: Tint) -> None:
        if self.background_model.shadow_tint != tint:
            self._seen = None            # what the last frame showed is judged under other shadows
        self.background_model.shadow_tint = tint

    @property
    def faces(self) -> FaceLibrary | None:
        """The face library symbol faces are read with, by the reader and the finder alike (the finder
        takes the reader's)."""
        return self.measurer.reader.faces

    @faces.setter
    def faces(self, faces: FaceLibrary | None) -> None:
        self.measurer.reader.faces = faces

    @property
    def reader(self) -> FaceReader:
        """The face reader: reads the top faces of the dice found, and those that tell a stack from a die.
        Another reader (timed, or reading otherwise) can take its place."""
        return self.measurer.reader

    @reader.setter
    def reader(self, reader: FaceReader) -> None:
        self.measurer.reader = reader

    @property
    def background(self) -> np.ndarray:
        """The rectified empty mat that frames are compared with: the calibration's, re-lit when the
        light has changed since (see :meth:`_relight`)."""
        return self.background_model.image

    @background.setter
    def background(self, image: np.ndarray) -> None:
        self._seen = None
        self.background_model.image = image

    @property
    def diff_threshold(self) -> int:
        """How far (grey levels, in some channel) a pixel must differ from the empty mat to count."""
        return self.background_model.diff_threshold

    @diff_threshold.setter
    def diff_threshold(self, threshold: int) -> None:
        self._seen = None
        self.background_model.diff_threshold = threshold

    @property
    def finder(self) -> Finder:
        """The dice finder that splits touching dice."""
        return self.silhouettes.finder

    @finder.setter
    def finder(self, finder: Finder) -> None:
        self.silhouettes.finder = finder

    @property
    def stack_hints(self) -> list[StackHint]:
        """Stacks standing at the last snapshot: (x_mm, y_mm, top's angle, top face label); set by TableWatcher."""
        return self.measurer.stack_hints

    @stack_hints.setter
    def stack_hints(self, hints: list[StackHint]) -> None:
        self.measurer.stack_hints = hints

    @property
    def parallax(self) -> bool:
        """Whether dice are placed by their parallax (see the class's description)."""
        return self.measurer.parallax

    @property
    def edge_offset_px(self) -> float:
        """How far inside a silhouette's true edge its outline's pixels lie (see ``bitbox calibrate dice``)."""
        return self.measurer.edge_offset_px

    @property
    def changes(self) -> Changes | None:
        """What differed from the empty mat in the last frame analysed."""
        return self._changes

    def notice(self, level: int, text: str) -> None:
        """Log ``text``, and keep it for whoever shows the table to its players (see
        :meth:`TableWatcher.take_notices`): what the camera found that they may need to act on."""
        log.log(level, text)
        self.notices = [*self.notices[-19:], text]

    def die_px(self, level: int = 1) -> float:
        """Expected side of a top face in the rectified view, at the mat's centre."""
        return self.measurer.die_px(level)

    def foreground(self, rect: np.ndarray) -> np.ndarray:
        """What differs from the empty mat in the view ``rect``, shadows and changes of light excepted
        (see :meth:`BackgroundModel.foreground <controller.vision.background.BackgroundModel.foreground>`)."""
        fg, self._changes = self.background_model.foreground(rect)
        return fg

    def top_face_crop(self, frame: np.ndarray, centre: np.ndarray, height: float, angle: float) -> np.ndarray:
        """The top face of the die standing at ``centre`` (mm) with its top at ``height``, cut from the
        camera frame itself (one resampling, at the camera's own resolution) and warped square from its
        four projected corners, as the face reader expects it."""
        return self.reader.crop(frame, centre, height, angle)[0]

    def analyse(self, frame: np.ndarray, incremental: bool = False) -> Analysis:
        """Every die and occlusion in one frame.

        ``incremental``: a die found where one stood at the previous call, unmoved, keeps its reading
        instead of being read again (between still snapshots a turn moves a few dice at most).

        What looks like an occlusion, or a change over much of the mat, may be the light changed
        since calibration (a lamp lit, the sun on the table): the empty mat is then re-lit to match
        (see :meth:`_relight`) and the frame analysed again.
        """
        analysis = self._analyse(frame, incremental)
        if (analysis.occlusions or self.region_finder.wide_change) and self._relight(analysis.rectified):
            analysis = self._analyse(frame, incremental=True)
        return analysis

    def _analyse(self, frame: np.ndarray, incremental: bool) -> Analysis:
        w, h = self.profile.camera.image_size
        if frame.shape[1] != w or frame.shape[0] != h:
            raise ValueError(f"frame is {frame.shape[1]}x{frame.shape[0]} but the mat was calibrated at {w}x{h}; "
                             "use the same resolution or calibrate again")
        if not incremental:
            self.reader.forget()
        sparse = self.region_finder.sparse_view(frame)
        regions = self.region_finder.regions(sparse, grouped=incremental)
        seen = self._seen if incremental and regions is not None else None
        moved = None
        if seen is not None and regions is not None:
            moved = self.background_model.differs(sparse, seen.sparse)
            if not cv2.countNonZero(moved):
                # Nothing moved since the last frame analysed: its dice, read and measured, stand.
                self._changes = seen.changes
                return dataclasses.replace(seen.analysis, unchanged=True)
            dirty = touched(regions, moved)
        else:
            dirty = set(range(1, len(regions.boxes) + 1)) if regions is not None else set()
        rect, fg, parts, self._changes = self.region_finder.view(frame, regions, dirty, seen, moved)
        found, occlusions, detections = self.silhouettes.find(frame, rect, fg, parts)
        found = [(start, die) for (start, _), die in zip(found, self._finish(frame, [d for _, d in found]))]
        if seen is not None and regions is not None:
            found += kept(regions, dirty, zip(seen.dice_starts, seen.analysis.dice), lambda d: d.top_center_px)
            occlusions += kept(regions, dirty, zip(seen.occlusion_starts, seen.analysis.occlusions),
                               self.silhouettes.occlusion_px)
            detections += [d for _, d in kept(regions, dirty, ((None, d) for d in seen.analysis.detections),
                                              lambda d: d.center)]
        # In the order of their outlines in the whole view, as one search of the whole view finds them.
        found.sort(key=lambda item: item[0])
        occlusions.sort(key=lambda item: item[0])
        dice = self.measurer.fallen_temples([d for _, d in found])
        self.reader.remember(dice)
        analysis = Analysis(dice, [o for _, o in occlusions], rect, fg, detections)
        self._seen = None if regions is None or regions.labels is None else Seen(
            sparse, regions, analysis, self._changes, [start for start, _ in found], [start for start, _ in occlusions])
        return analysis

    def _finish(self, frame: np.ndarray, dice: list[FoundDie]) -> list[FoundDie]:
        """Read the faces (or reuse the reading of the same die, unmoved) and the body colours."""
        return self.reader.finish(frame, dice)

    def _relight(self, rect: np.ndarray) -> bool:
        """Re-light the empty mat when what differs from it in ``rect`` (a rectified view) is mostly
        the light (see :meth:`BackgroundModel.relight <controller.vision.background.BackgroundModel.relight>`),
        and tell the players: whether it did."""
        relit = self.background_model.relight(rect)
        if relit is None:
            return False
        self._seen = None
        explained, changed = relit
        self.notice(logging.WARNING, f"the light changed since the mat was calibrated ({explained} of {changed} "
                    "changed parts of the mat explained by it): the empty mat is re-lit to match; calibrate the "
                    "mat again to keep it")
        return True

    def measure_edge_offset(self, frame: np.ndarray) -> float:
        """With only single dice (no stacks) on the mat, the edge offset (px) that makes their measured
        height equal the die's edge: the median over the dice. Used by ``bitbox calibrate dice``."""
        dice = [d for d in self.analyse(frame).dice if d.on_mat and not d.at_edge]
        if not dice:
            raise ValueError("no whole die found on the mat: put a few single dice on it, apart")
        return self.measurer.edge_offset(dice)

    def measure_shadow_tint(self, frame: np.ndarray) -> Tint | None:
        """With dice on the mat (and nothing else), the tint of the shadows they cast: how the light
        darkens blue, green and red there (see :mod:`controller.vision.shadows`). None when their
        shadows are untinted, or too faint to tell. Used by ``bitbox calibrate dice``."""
        kept_tint = self.shadow_tint
        try:
            self.shadow_tint = NEUTRAL
            learnt = self.tint_learner.learn(frame, self.analyse(frame), self)
        finally:
            self.shadow_tint = kept_tint
        return None if learnt is None else learnt[0]

    def follow_the_light(self, frame: np.ndarray, analysis: Analysis) -> Analysis:
        """``analysis`` of ``frame``, or the frame analysed again under the tint its shadows show when
        the light has changed since calibration (a lamp lit in daylight): shadows of that tint are
        left out from then on. Called by :class:`TableWatcher` on each still snapshot without hands."""
        learnt = self.tint_learner.learn(frame, analysis, self)
        if learnt is None:
            return analysis
        self.shadow_tint, analysis = learnt
        b, g, r = self.shadow_tint
        self.notice(logging.INFO, f"shadows now darken blue x{b:.2f}, green x{g:.2f}, red x{r:.2f} (the light "
                    "changed since calibration)")
        return analysis
