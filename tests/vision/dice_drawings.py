"""Simple drawn dice for the face reader's unit tests: a square face with round pips on the 3x3 grid,
turned, in any colours, with an optional glare spot; and flat scenes of several such dice on a mat."""

from __future__ import annotations

import math

import cv2
import numpy as np

PIP_GRID = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def draw_die(image: np.ndarray, centre: tuple[float, float], side: float, value: int, angle_deg: float,
             body=(235, 235, 235), ink=(30, 30, 30), glare: bool = False, scale: int = 8) -> None:
    """Draw one die's top face on ``image`` in place (anti-aliased by drawing at ``scale`` times)."""
    h, w = image.shape[:2]
    big = cv2.resize(image, (w * scale, h * scale), interpolation=cv2.INTER_NEAREST)
    cx, cy = centre[0] * scale, centre[1] * scale
    s = side * scale
    t = math.radians(angle_deg)
    c, si = math.cos(t), math.sin(t)

    def at(u: float, v: float) -> tuple[int, int]:
        return int(round(cx + u * c - v * si)), int(round(cy + u * si + v * c))

    corners = np.array([at(u, v) for u, v in ((-s / 2, -s / 2), (s / 2, -s / 2), (s / 2, s / 2), (-s / 2, s / 2))])
    cv2.fillConvexPoly(big, corners.astype(np.int32), body, lineType=cv2.LINE_AA)
    step = s * 0.26
    radius = int(round(s * 0.09))
    for gx, gy in PIP_GRID[value]:
        px, py = at(gx * step, gy * step)
        cv2.circle(big, (px, py), radius, ink, -1, lineType=cv2.LINE_AA)
        if glare:
            cv2.circle(big, (px - radius // 3, py - radius // 3), max(1, radius // 3), (255, 255, 255), -1)
    small = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    image[:] = small


def face_image(value: int, px: int = 90, angle_deg: float = 0.0, body=(235, 235, 235), ink=(30, 30, 30),
               glare: bool = False, surface=(120, 125, 120), face_fraction: float = 1.0) -> np.ndarray:
    """A square image with one face in the middle covering ``face_fraction`` of its side."""
    image = np.full((px, px, 3), surface, np.uint8)
    draw_die(image, (px / 2, px / 2), px * face_fraction, value, angle_deg, body, ink, glare)
    return image


def scene(dice: list[tuple[float, float, int, float]], size=(480, 360), side: float = 40.0,
          mat=(150, 160, 150), body=(235, 235, 235), ink=(30, 30, 30), seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A frame with ``dice`` (x, y, value, angle) on a mat, and the empty mat; both with a little noise."""
    rng = np.random.default_rng(seed)
    w, h = size
    empty = np.full((h, w, 3), mat, np.uint8)
    frame = empty.copy()
    for x, y, value, angle in dice:
        draw_die(frame, (x, y), side, value, angle, body, ink)
    noise = lambda: rng.normal(0, 2.0, (h, w, 3))  # noqa: E731
    return (np.clip(frame + noise(), 0, 255).astype(np.uint8),
            np.clip(empty + noise(), 0, 255).astype(np.uint8))
