"""The renderer's ground truth: legal dice, and the tops the camera can see."""

from __future__ import annotations

import numpy as np
import pytest
from table_scenes import layout

from controller.vision.render import (_PIP_GRID, Die, Lighting, Scene, _side_faces, random_scene, render, temple,
                                      visible_tops)


def test_pip_faces_are_the_six_standard_layouts() -> None:
    """Pips on a 3x3 grid, symmetric under a half turn (as every die face is), one to six of them."""
    assert sorted(_PIP_GRID) == [1, 2, 3, 4, 5, 6]
    for value, grid in _PIP_GRID.items():
        assert len(grid) == len(set(grid)) == value
        assert all(x in (-1, 0, 1) and y in (-1, 0, 1) for x, y in grid)
        assert sorted((-x, -y) for x, y in grid) == sorted(grid)
        assert ((0, 0) in grid) == (value % 2 == 1)


@pytest.mark.parametrize("top", range(1, 7))
def test_side_faces_are_those_of_a_real_die(top: int) -> None:
    """Opposite faces add up to seven: the four sides are the values other than the top and bottom."""
    sides = _side_faces(Die(0, 0, top))
    assert sorted(sides) == sorted(v for v in range(1, 7) if v not in (top, 7 - top))


def test_visible_tops_leave_out_the_bottom_die_of_each_temple() -> None:
    scene = random_scene(layout("puxes"), 5, seed=4, temples=True)
    truth = list(render(scene).truth)
    tops = visible_tops(truth)
    assert len(truth) == 9 and len(tops) == 7
    hidden = [t for t in truth if t not in tops]
    assert all(t.level == 1 and any(o.level == 2 and (o.x_mm, o.y_mm) == (t.x_mm, t.y_mm) for o in tops)
               for t in hidden)
    assert [d.top for d in temple(150, 300, 5, 2)] == [2, 5]


def test_a_tinted_shadow_darkens_red_more_than_blue() -> None:
    """A lamp's shadow filled by daylight is bluer than the lamp's light: with ``shadow_tint`` the
    mat under a die's shadow keeps more of its blue than of its red; untinted, all three alike."""
    lay = layout("puxes")
    dice = (Die(450, 300, 4, 0),)
    ratios = {}
    for tint in (0.0, 0.3):
        light = Lighting(shadow=0.5, shadow_tint=tint, noise_sigma=0.0, light_dir=(1.0, 0.0, 1.0))
        empty = render(Scene(lay, (), seed=1, lighting=light)).image.astype(float)
        image = render(Scene(lay, dice, seed=1, lighting=light)).image.astype(float)
        darker = (image.sum(axis=2) < empty.sum(axis=2) - 60) & (np.abs(image - empty).max(axis=2) < 200)
        ratios[tint] = np.median(image[darker] / np.maximum(empty[darker], 1.0), axis=0)   # B, G, R
    assert np.ptp(ratios[0.0]) < 0.03
    assert ratios[0.3][0] > ratios[0.3][1] + 0.05 > ratios[0.3][2] + 0.1


def _exposed_at_once(img: np.ndarray, lt: Lighting, glares: list, rng: np.random.Generator) -> np.ndarray:
    """Light and sensor over the whole frame at once (what render.py does a band at a time)."""
    import math

    import cv2

    H, W = img.shape[:2]
    out = img.astype(np.float32) * lt.brightness
    if lt.gradient > 0:
        g = math.radians(lt.gradient_angle_deg)
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        out *= (1.0 - lt.gradient * (((xx / W - 0.5) * math.cos(g) + (yy / H - 0.5) * math.sin(g)) + 0.5) * 0.6)[..., None]
    for gx, gy, r in glares:
        yy, xx = np.ogrid[0:H, 0:W]
        out += (np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)).astype(np.float32) * 120)[..., None]
    if lt.blur_sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), lt.blur_sigma)
    if lt.noise_sigma > 0:
        out += rng.normal(0, lt.noise_sigma, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("lighting", [Lighting(), Lighting(gradient=0.3, blur_sigma=1.7, noise_sigma=2.5, brightness=1.2),
                                      Lighting(blur_sigma=0.0, noise_sigma=0.0), Lighting(gradient=0.5, blur_sigma=0.6)])
def test_a_frame_lit_a_band_of_rows_at_a_time_is_the_frame_lit_at_once(lighting: Lighting) -> None:
    """The renderer lights and exposes a frame a band of rows at a time (a whole 1280x720 frame is
    11 MB as floats): the same pixels and the same sensor noise as over the whole frame at once."""
    from controller.vision.render import _expose

    img = np.random.default_rng(4).integers(0, 256, (720, 1280, 3)).astype(np.uint8)
    glares = [(300.5, 200.25, 9.0), (1000.0, 650.0, 6.5)]
    banded = _expose(img, lighting, glares, np.random.default_rng(9))
    assert np.array_equal(banded, _exposed_at_once(img, lighting, glares, np.random.default_rng(9)))


def test_shadows_cast_a_band_of_rows_at_a_time_are_the_shadows_cast_at_once() -> None:
    """Shadows, outlines reaching across bands and past the frame's edge, softened by a blur: the
    same darkening as one shadow map of the whole frame."""
    import cv2

    from controller.vision.render import _shade

    rng = np.random.default_rng(6)
    img = rng.integers(0, 256, (720, 1280, 3)).astype(np.uint8)
    shapes = []
    for cx, cy, r in [(100, 50, 60), (640, 58, 30), (400, 362, 45), (1250, 700, 80), (800, 719, 20), (-10, 400, 40)]:
        t = np.linspace(0, 2 * np.pi, 9)[:-1] + rng.uniform(0, 1)
        shapes.append((np.round(np.column_stack([cx + r * np.cos(t), cy + 0.7 * r * np.sin(t)]) * 16).astype(np.int32),
                       True))
    shapes.append((np.round(np.array([[500, 100], [700, 140], [560, 180], [690, 300], [480, 240]]) * 16).astype(np.int32),
                   False))
    lighting = Lighting(shadow=0.4, shadow_tint=0.2)
    banded = img.copy()
    _shade(banded, shapes, 9, lighting)
    shadow = np.zeros(img.shape[:2], np.float32)
    for outline, convex in shapes:
        if convex:
            cv2.fillConvexPoly(shadow, outline, 1.0, cv2.LINE_AA, shift=4)
        else:
            cv2.fillPoly(shadow, [outline], 1.0, cv2.LINE_AA, shift=4)
    shadow = cv2.GaussianBlur(shadow, (9, 9), 0)
    tint = np.array([0.8, 1.0, 1.2], np.float32)
    assert np.array_equal(banded, (img * (1 - 0.4 * shadow[..., None] * tint)).astype(np.uint8))


def test_a_fixed_camera_draws_from_its_own_view_and_lets_the_mat_texture_go() -> None:
    """The mat's texture (tens of megabytes) is warped once per camera; a camera that stays put
    draws from its kept view, and the texture is let go, with the same frames."""
    from controller.vision import render as r

    lay = layout("puxes")
    scene = random_scene(lay, 6, seed=8, camera=r.fitting_camera(lay, tilt_deg=4.0))
    first = render(scene).image
    for k in range(r._TEXTURE_IDLE_FRAMES + 1):
        again = render(scene).image
    assert not r._TEXTURES
    assert np.array_equal(again, first)
