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
