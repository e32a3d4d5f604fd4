"""The renderer's ground truth: legal dice, and the tops the camera can see."""

from __future__ import annotations

import pytest
from table_scenes import layout

from controller.vision.render import _PIP_GRID, Die, _side_faces, random_scene, render, temple, visible_tops


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
