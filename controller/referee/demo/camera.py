"""The scripted table as the camera sees it: rendered frames, and the faces the camera learns.

:class:`TableCamera` calibrates the mat on a rendered empty mat (as ``bitbox calibrate mat`` does
on a real one), teaches the face library each die's faces, then turns the table's dice
(:class:`~controller.referee.demo.table.Body`) into frames: a few frames of a hand moving dice, then
the still table with sensor noise, so that the stillness detector has to wait for the table to
settle before the pipeline looks at it.

Faces are taught the way ``bitbox calibrate faces`` stores them: one reference picture per face of
each die, named by die and face in plain letters. The pictures are cut by the table's own
pipeline from a frame showing the die alone in the middle of the mat, so a reference is the same
kind of crop the pipeline reads during play.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Iterator

import cv2
import numpy as np

from controller.engines.puxes.collection import Collection
from controller.referee.demo.table import Body
from controller.referee.puxes import face_slug
from controller.vision.faces import FaceLibrary
from controller.vision.mat import MatLayout, load_layout
from controller.vision.pipeline import FrameAnalyser, TableWatcher
from controller.vision.profile import calibrate_mat
from controller.vision.render import CameraSpec, Die, Hand, Lighting, Scene, fitting_camera, render, render_empty
from controller.vision.snapshot import TableSnapshot

#: Frames of a hand moving dice before each still moment, and the most still frames fed while
#: waiting for the stillness detector.
MOVING_FRAMES = 3
MAX_STILL_FRAMES = 40
FPS = 15.0
#: Still frames take their sensor noise from NOISE_WINDOWS windows of one noise image, NOISE_STEP rows apart.
NOISE_WINDOWS = 4
NOISE_STEP = 7


@dataclasses.dataclass
class FrameStats:
    """What feeding frames cost."""

    frames: int = 0
    snapshots: int = 0
    render_s: float = 0.0
    vision_s: float = 0.0


class TableCamera:
    """A camera over the PuXes mat, the vision pipeline behind it, and the frames it is shown."""

    def __init__(self, collection: Collection, dice: Iterable[str], layout: MatLayout | None = None,
                 image_size: tuple[int, int] = (1280, 720), seed: int = 0, noise_sigma: float = 1.2) -> None:
        self.layout = layout or load_layout("puxes")
        # the whole mat and a band beside it, where sleeping oracles are set aside
        self.spec: CameraSpec = fitting_camera(self.layout, image_size=image_size, fill=0.85)
        self.lighting = Lighting(noise_sigma=noise_sigma)
        self.profile = calibrate_mat(render_empty(Scene(self.layout, camera=self.spec, lighting=self.lighting)),
                                     self.layout)
        self.faces = self.teach_faces(collection, dice)
        self.analyser = FrameAnalyser(self.layout, self.profile, faces=self.faces)
        self.watcher = TableWatcher(self.analyser)
        self.stats = FrameStats()
        self.clock = 0.0
        self._seed = seed * 1000
        rng = np.random.default_rng(seed)
        h, w = image_size[1], image_size[0]
        # Sensor noise, a few grey levels each way: one byte a value, drawn a band of rows at a time
        # (a frame of 1280x720 drawn at once is 22 MB of floats). Still frames take windows of it
        # NOISE_STEP rows apart, each fresh noise against the one before, for the memory of one frame.
        self._noise = np.empty((h + NOISE_STEP * (NOISE_WINDOWS - 1), w, 3), np.int8)
        for y in range(0, len(self._noise), 90):
            self._noise[y:y + 90] = np.clip(rng.normal(0, noise_sigma, self._noise[y:y + 90].shape), -127, 127)

    # ---- the face library --------------------------------------------------------------------

    def teach_faces(self, collection: Collection, dice: Iterable[str]) -> FaceLibrary:
        """One reference per face of each die: the die alone in the middle of the mat, found and cut
        out by the pipeline, stored under the die's and the face's plain names."""
        finder = FrameAnalyser(self.layout, self.profile)
        centre = (self.layout.width_mm / 2, self.layout.height_mm / 2)
        library = FaceLibrary()
        for k, name in enumerate(sorted(set(dice))):
            for j, face in enumerate(collection.candidate_faces(name)):
                scene = Scene(self.layout, dice=(Die(centre[0], centre[1], face_slug(face), (17.0 * k + 29.0 * j) % 90),),
                              camera=self.spec, lighting=self.lighting, seed=100 + 10 * k + j)
                image = render(scene).image
                found = [d for d in finder.analyse(image).dice if d.on_mat]
                if len(found) != 1:
                    raise RuntimeError(f"teaching face {face} of die {name}: the camera found {len(found)} dice")
                d = found[0]
                crop = finder.top_face_crop(image, np.array([d.x_mm, d.y_mm]), d.level * finder.edge, d.angle_deg)
                library.add(face_slug(name), face_slug(face), crop)
        return library

    # ---- frames ------------------------------------------------------------------------------

    def scene(self, bodies: Iterable[Body], hands: tuple[Hand, ...] = ()) -> Scene:
        self._seed += 1
        dice = tuple(Die(b.x, b.y, face_slug(b.face), b.angle % 90.0, b.level) for b in
                     sorted(bodies, key=lambda b: (b.level, b.die)))
        return Scene(self.layout, dice=dice, hands=hands, camera=self.spec, lighting=self.lighting, seed=self._seed)

    def frames(self, before: dict[int, Body], after: dict[int, Body], player: int | None,
               reach_over: tuple[float, float] | None = None) -> Iterator[np.ndarray]:
        """The frames of one change: a hand over the dice that move (or over ``reach_over`` when a
        player only reaches over the table), the dice on their way, then the still table (rendered
        once, with fresh sensor noise on every frame)."""
        moving = [d for d in after if d not in before or before[d] != after[d]] + [d for d in before if d not in after]
        if reach_over is not None and not moving:
            anchor_body = Body(-1, reach_over[0], reach_over[1], 0.0, "pi")
            before = {**before, -1: anchor_body}
            moving = [-1]
        if moving and before:
            anchor = before.get(moving[0]) or after[moving[0]]
            arm = 180.0 if (player == 0 or (player is None and anchor.x < self.layout.width_mm / 2)) else 0.0
            for k in range(MOVING_FRAMES):
                f = (k + 1) / (MOVING_FRAMES + 1)
                bodies = []
                for d, b in after.items():
                    if d < 0:
                        continue
                    a = before.get(d)
                    if a is not None and a != b and a.level == b.level:
                        b = dataclasses.replace(b, x=a.x + f * (b.x - a.x), y=a.y + f * (b.y - a.y),
                                                angle=a.angle + f * 120.0)
                    bodies.append(b)
                hx = anchor.x + f * ((after.get(moving[0]) or anchor).x - anchor.x)
                hy = anchor.y + f * ((after.get(moving[0]) or anchor).y - anchor.y)
                hand = Hand(hx + (40.0 if arm == 0.0 else -40.0), hy, arm_angle_deg=arm)
                t0 = time.perf_counter()
                image = render(self.scene(bodies, (hand,))).image
                self.stats.render_s += time.perf_counter() - t0
                yield image
        t0 = time.perf_counter()
        still = render(self.scene(after.values())).image
        self.stats.render_s += time.perf_counter() - t0
        for k in range(MAX_STILL_FRAMES):
            top = NOISE_STEP * (k % NOISE_WINDOWS)
            yield cv2.add(still, self._noise[top:top + len(still)], dtype=cv2.CV_8U)   # saturated to 0..255

    def show(self, before: dict[int, Body], after: dict[int, Body], player: int | None,
             reach_over: tuple[float, float] | None = None) -> TableSnapshot | None:
        """Feed one change to the watcher; the snapshot it gives once the table is still (``None`` if
        the table never settled within the frames fed)."""
        for image in self.frames(before, after, player, reach_over):
            self.clock += 1.0 / FPS
            t0 = time.perf_counter()
            snap = self.watcher.feed(image, self.clock)
            self.stats.vision_s += time.perf_counter() - t0
            self.stats.frames += 1
            if snap is not None:
                self.stats.snapshots += 1
                return snap
        return None
