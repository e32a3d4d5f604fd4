"""Finding dice: drawn scenes (with and without the empty mat, known and unknown die size), the real
photos shipped in tests/fixtures/dice, and a slice of the shared real photo sets when present."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from controller.vision import dice
from controller.vision import evaluate as ev
from dice_drawings import scene

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "dice"

LAYOUT = [(100, 100, 3, 10.0), (250, 120, 5, 40.0), (380, 250, 1, 0.0), (150, 260, 6, 70.0), (330, 80, 2, 25.0)]


def _match(found, layout):
    out = {}
    for x, y, value, angle in layout:
        near = [d for d in found if math.dist(d.center, (x, y)) < 8]
        assert len(near) == 1, f"die at ({x}, {y}): {len(near)} detections"
        out[(x, y)] = near[0]
    return out


@pytest.mark.parametrize("with_background", [True, False])
@pytest.mark.parametrize("known_size", [True, False])
def test_drawn_scene_every_die_found_placed_and_read(with_background, known_size):
    frame, empty = scene(LAYOUT)
    found = dice.find_dice(frame, die_size_px=40.0 if known_size else None,
                           background_bgr=empty if with_background else None)
    assert len(found) == len(LAYOUT)
    for (x, y, value, angle), d in zip(LAYOUT, _match(found, LAYOUT).values()):
        assert d.face.pips == value
        assert d.size == pytest.approx(40.0, rel=0.12)
        if value > 1:                                   # a lone pip does not show the turn
            diff = abs((d.angle - angle + 45) % 90 - 45)
            assert diff <= 4.0
        assert len(d.corners) == 4
        assert math.dist(np.mean(d.corners, axis=0), d.center) < 1.0


def test_mask_hides_dice_outside_it():
    frame, empty = scene(LAYOUT)
    mask = np.zeros(frame.shape[:2], np.uint8)
    mask[:, :200] = 255
    found = dice.find_dice(frame, die_size_px=40.0, background_bgr=empty, mask=mask)
    assert sorted(round(d.center[0]) for d in found) == [100, 150]


def test_empty_mat_has_no_dice():
    frame, empty = scene([])
    assert dice.find_dice(frame, background_bgr=empty) == []
    assert dice.find_dice(frame) == []


def test_bad_images_are_refused_clearly():
    with pytest.raises(ValueError, match="colour"):
        dice.find_dice(np.zeros((50, 50), np.uint8))
    frame, _ = scene([])
    with pytest.raises(ValueError, match="same camera and resolution"):
        dice.find_dice(frame, background_bgr=frame[:100])


# Measured on these fixtures when they were chosen (they come from the sets' training parts):
# nell-byler 4 photos, matteop65 6 photos, chaseelliottpatterson 18 crops. The thresholds sit a few
# points under the measured figures, so a regression in finding or reading fails them.
FIXTURE_FLOORS = {
    "nell-byler": dict(recall=0.95, precision=0.95, accuracy=0.95),       # measured 1 1 0.973
    "matteop65": dict(recall=0.83, precision=0.83, accuracy=0.83),        # measured 1 1 1 (6 dice)
    "chaseelliottpatterson": dict(recall=1.0, precision=1.0, accuracy=0.90),  # measured 1 1 1
}


@pytest.mark.parametrize("name", FIXTURE_FLOORS)
def test_real_fixture_photos(name):
    result = ev.evaluate(ev.collect(FIXTURES / name))
    floor = FIXTURE_FLOORS[name]
    assert result.recall >= floor["recall"]
    assert result.precision >= floor["precision"]
    assert result.accuracy >= floor["accuracy"]


def test_fixtures_carry_their_licences():
    for name in FIXTURE_FLOORS:
        assert (FIXTURES / name / "LICENSE").is_file()


def test_held_out_real_photos_slice(shared_data):
    """A few held-out photos of the nell-byler set (the last 60 by name are never trained or tuned on)."""
    samples = ev.collect(shared_data / "dice-photos" / "nell-byler-train")[140:146]
    result = ev.evaluate(samples)
    assert result.labels > 20
    assert result.recall >= 0.95                # measured 1.0
    assert result.precision >= 0.95             # measured 1.0
    assert result.accuracy >= 0.85              # measured 0.90: dark smoky dice with red pips


def test_rendered_table_scenes_with_the_empty_mat():
    """Rendered frames of the PuXes mat (the renderer's own dice and light), read against the empty mat."""
    render = pytest.importorskip("controller.vision.render")
    from controller.vision.mat import load_layout

    layout = load_layout("puxes")
    total = found = right = 0
    for seed in range(3):
        scene_ = render.random_scene(layout, 10, seed)
        out = render.render(scene_)
        detections = dice.find_dice(out.image, background_bgr=render.render_empty(scene_))
        for truth in out.truth:
            if not truth.in_image:
                continue
            total += 1
            near = [d for d in detections if math.dist(d.center, truth.top_center_px) < 10]
            found += bool(near)
            right += bool(near) and near[0].face.pips == truth.top
    assert total == 30
    assert found >= 28                       # measured 29
    assert right == found
