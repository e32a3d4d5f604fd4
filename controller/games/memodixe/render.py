"""Rendered MémoDiXe tables, for the tests and the reader's bench.

The square's dice are drawn by :func:`controller.vision.render.render` (a pinhole camera, light,
shadows, glare, blur, noise) with their real side faces from the dice data, lying a little off their
places' centres and turned any way; :func:`random_conditions` draws the variety of real tables (camera
height, tilt and turn, light, blur, noise, JPEG), :func:`teach_faces` teaches a face library the way
``bitbox calibrate faces`` does on a calibrated mat.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import cv2
import numpy as np

from controller.engines.memodixe import DiceBook
from controller.games.memodixe.layouts import slug
from controller.vision.faces import FaceLibrary
from controller.vision.mat import MatLayout
from controller.vision.pipeline import FrameAnalyser
from controller.vision.profile import TableProfile
from controller.vision.render import (
    CameraSpec,
    Die,
    Hand,
    Lighting,
    Scene,
    fitting_camera,
    render,
)


@dataclasses.dataclass(frozen=True)
class Conditions:
    """How one table is filmed: the camera, the light, and the JPEG quality frames are saved at (None: raw)."""

    camera: CameraSpec
    lighting: Lighting
    jpeg: int | None = None


@dataclasses.dataclass(frozen=True)
class Placed:
    """A die on the mat: which die (the data's name; another name draws a die the game does not know,
    a pip count as ``top`` a plain die), its top face, where, turned how."""

    die: str
    top: str | int
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    level: int = 1          # 2: lying on another die


def place_centre(layout: MatLayout, place: int) -> tuple[float, float]:
    """The centre (mm) of the square's ``place`` (0..8, row by row from the top left)."""
    grid = next(z for z in layout.zones if z.kind == "grid")
    ox, oy = grid.params["origin"]
    cell = grid.params["cell_mm"]
    return ox + (place % 3 + 0.5) * cell, oy + (place // 3 + 0.5) * cell


def reserve_spot(layout: MatLayout, index: int) -> tuple[float, float]:
    """Where the reserve's ``index``-th die lies."""
    zone = next(z for z in layout.zones if z.kind == "reserve")
    x, y, _w, h = zone.params["rect"]
    return x + 20.0 + 40.0 * index, y + h / 2


def random_conditions(layout: MatLayout, rng: np.random.Generator, image_size: tuple[int, int] = (1280, 720)
                      ) -> Conditions:
    """A camera straight or tilted up to 20 degrees and turned any way, filling 80 to 95 % of the frame,
    daylight to a dim room with a gradient, glare, lens blur, sensor noise and (half the time) JPEG."""
    camera = fitting_camera(layout, image_size, float(rng.uniform(58, 75)), float(rng.uniform(0, 20)),
                            float(rng.uniform(0, 360)), fill=float(rng.uniform(0.8, 0.95)))
    lighting = Lighting(brightness=float(rng.uniform(0.65, 1.15)), gradient=float(rng.uniform(0, 0.4)),
                        gradient_angle_deg=float(rng.uniform(0, 360)), shadow=float(rng.uniform(0.15, 0.4)),
                        glare=int(rng.integers(0, 3)), blur_sigma=float(rng.uniform(0.4, 1.3)),
                        noise_sigma=float(rng.uniform(1.0, 3.5)))
    jpeg = int(rng.integers(75, 96)) if rng.random() < 0.5 else None
    return Conditions(camera, lighting, jpeg)


def sides_of(book: DiceBook, die: str, top: str) -> tuple[str, ...]:
    """The four side faces of ``die`` lying with ``top`` up, as the renderer names faces."""
    bottom = book.opposite(die, top)
    return tuple(slug(f) for f in book.dice[die] if f not in (top, bottom))


def scene(layout: MatLayout, book: DiceBook, dice: Iterable[Placed], conditions: Conditions, seed: int,
          hands: Sequence[Hand] = ()) -> Scene:
    """The scene of ``dice`` on the mat under ``conditions``."""
    drawn = tuple(Die(p.x_mm, p.y_mm, slug(p.top) if isinstance(p.top, str) else p.top, p.angle_deg % 90.0, p.level,
                      sides=sides_of(book, p.die, p.top) if p.die in book.dice else ())
                  for p in sorted(dice, key=lambda p: p.level))
    return Scene(layout, dice=drawn, hands=tuple(hands), camera=conditions.camera, lighting=conditions.lighting,
                 seed=seed)


def frame(scene_: Scene, jpeg: int | None = None) -> np.ndarray:
    """The camera's frame of ``scene_``, saved as JPEG at quality ``jpeg`` and read back when given."""
    image = render(scene_).image
    if jpeg is None:
        return image
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def teach_faces(layout: MatLayout, profile: TableProfile, book: DiceBook, conditions: Conditions,
                dice: Iterable[str] | None = None) -> FaceLibrary:
    """A face library taught as ``bitbox calibrate faces`` does on the calibrated mat: each face of each
    die alone on the mat's centre place, found and cut out by the table's own pipeline."""
    finder = FrameAnalyser(layout, profile)
    x, y = place_centre(layout, 4)
    library = FaceLibrary()
    for k, die in enumerate(sorted(set(dice or book.dice))):
        for j, face in enumerate(book.dice[die]):
            image = frame(scene(layout, book, [Placed(die, face, x, y, (17.0 * k + 29.0 * j) % 90)], conditions,
                                seed=100 + 10 * k + j), conditions.jpeg)
            found = [d for d in finder.analyse(image).dice if d.on_mat]
            if len(found) != 1:
                raise RuntimeError(f"teaching face {face} of die {die}: the camera found {len(found)} dice")
            d = found[0]
            crop = finder.top_face_crop(image, np.array([d.x_mm, d.y_mm]), d.level * finder.edge, d.angle_deg)
            library.add(slug(die), slug(face), crop)
    return library
