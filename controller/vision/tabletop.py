"""What the renderers of printed game mats share: the mat's texture, hands held over it, filled
polygons, and the camera's finish (the room's light, glare, lens blur, sensor noise and JPEG).

The pieces on the mat are each game's own (``controller/games/*/render.py``); the way a camera over a
table sees any of them is the same, so it is drawn once, here.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import cv2
import numpy as np

from controller.vision.geometry import CameraModel
from controller.vision.mat import MatLayout, draw_mat
from controller.vision.render import TABLE_BGR, Lighting

#: Skin tones of the hands over the mat (BGR).
SKIN = ((120, 150, 205), (95, 125, 180), (70, 95, 140), (150, 175, 220))


@dataclasses.dataclass(frozen=True)
class HandOver:
    """A hand held ``height_mm`` over (x, y), its arm leaving towards ``arm_deg``."""

    x_mm: float
    y_mm: float
    arm_deg: float = 90.0
    height_mm: float = 60.0
    skin: tuple[int, int, int] = SKIN[0]


_TEXTURES: dict[tuple[object, ...], np.ndarray] = {}


def mat_texture(layout: MatLayout, scale: float, margin: float) -> np.ndarray:
    """The mat drawn at ``scale`` pixels a millimetre with ``margin`` mm of table around it (kept for
    the next frames: do not draw on it, draw on a copy)."""
    key = (layout.name, layout.source, scale, margin)
    if key not in _TEXTURES:
        if len(_TEXTURES) > 4:
            _TEXTURES.clear()
        _TEXTURES[key] = draw_mat(layout, scale, margin, TABLE_BGR)
    return _TEXTURES[key]


def fill(img: np.ndarray, pts: np.ndarray, colour: Sequence[float]) -> None:
    """Fill the polygon ``pts`` (image pixels, sub-pixel) of ``img`` with ``colour``, anti-aliased."""
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], tuple(float(c) for c in colour), cv2.LINE_AA, shift=4)


def hand_polygons(hand: HandOver) -> list[np.ndarray]:
    """The hand's palm, arm and four fingers as polygons in mat millimetres."""
    a = math.radians(hand.arm_deg)
    d = np.array([math.cos(a), math.sin(a)])
    n = np.array([-d[1], d[0]])
    c = np.array([hand.x_mm, hand.y_mm])
    t = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    palm = c + np.outer(np.cos(t) * 48, d) + np.outer(np.sin(t) * 40, n)
    arm = np.array([c + d * 30 + n * 34, c + d * 700 + n * 44, c + d * 700 - n * 44, c + d * 30 - n * 34])
    fingers = [np.array([c - d * 38 + n * (off + 7), c - d * (38 + length) + n * (off + 6),
                         c - d * (38 + length) + n * (off - 6), c - d * 38 + n * (off - 7)])
               for off, length in ((-26, 58), (-9, 68), (9, 66), (26, 54))]
    return [palm, arm, *fingers]


def hand_shadows(shadow: np.ndarray, cam: CameraModel, hands: Sequence[HandOver], sweep: np.ndarray) -> None:
    """The shadows the hands cast on the mat, light coming along ``sweep`` (mm across per mm up), set
    to 1 in the shadow mask ``shadow`` in place."""
    for hand in hands:
        for poly in hand_polygons(hand):
            p = poly + sweep * hand.height_mm
            fill(shadow, cam.project(np.column_stack([p, np.zeros(len(p))])), [1.0])


def draw_hands(img: np.ndarray, cam: CameraModel, hands: Sequence[HandOver]) -> None:
    """The hands over the mat, each polygon a little lighter or darker, drawn on ``img`` in place."""
    for hand in hands:
        for j, poly in enumerate(hand_polygons(hand)):
            px = cam.project(np.column_stack([poly, np.full(len(poly), -hand.height_mm)]))
            fill(img, px, np.array(hand.skin, np.float32) * (0.93 + 0.04 * (j % 3)))


def finish(img: np.ndarray, cam: CameraModel, native: float, lighting: Lighting, white_balance: Sequence[float],
           jpeg: int, rng: np.random.Generator, shiny: np.ndarray, glare_levels: tuple[float, float]) -> np.ndarray:
    """The frame ``img`` (float32 BGR, lit evenly) as the camera records it: brightness and white
    balance, a gradient across the table, ``lighting.glare`` spots of ``glare_levels`` grey levels
    and some ``native`` (pixels a millimetre on the mat) times 1.5 to 4 wide, most on the ``shiny``
    points ((N, 3) world mm: the glossy pieces' tops), lens blur, sensor noise, and JPEG at quality
    ``jpeg`` (0: none). Works on ``img`` in place and returns the 8-bit frame."""
    H, W = img.shape[:2]
    img *= lighting.brightness * np.asarray(white_balance, np.float32)
    if lighting.gradient > 0:
        g = math.radians(lighting.gradient_angle_deg)
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        ramp = (xx / W - 0.5) * math.cos(g) + (yy / H - 0.5) * math.sin(g)
        img *= (1.0 - lighting.gradient * (ramp + 0.5) * 0.6)[..., None]
    for _ in range(lighting.glare):
        if len(shiny) and rng.random() < 0.6:
            point = shiny[int(rng.integers(len(shiny)))]
            at = cam.project(point[None, :])[0] + rng.normal(0, 3, 2)
        else:
            at = np.array([rng.uniform(0.1, 0.9) * W, rng.uniform(0.1, 0.9) * H])
        radius = native * rng.uniform(1.5, 4.0)
        yy, xx = np.ogrid[0:H, 0:W]
        spot = np.exp(-((xx - at[0]) ** 2 + (yy - at[1]) ** 2) / (2 * radius * radius)).astype(np.float32)
        img += (spot * rng.uniform(*glare_levels))[..., None]
    if lighting.blur_sigma > 0:
        img = cv2.GaussianBlur(img, (0, 0), lighting.blur_sigma)
    if lighting.noise_sigma > 0:
        img += rng.normal(0, lighting.noise_sigma, img.shape).astype(np.float32)
    image = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg:
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return image
