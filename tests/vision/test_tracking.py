"""Identities across snapshots, and which dice moved."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from table_scenes import analyser_for, layout

from controller.vision.pipeline import TableWatcher
from controller.vision.render import random_scene, render
from controller.vision.snapshot import DieFace, DieObservation
from controller.vision.tracking import DiceTracker, hungarian


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (1, 1), (6, 6)])
def test_hungarian_is_optimal(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(sum(shape))
    for _ in range(20):
        cost = rng.uniform(0, 10, shape)
        pairs = hungarian(cost)
        assert len(pairs) == min(shape)
        assert len({r for r, _ in pairs}) == len({c for _, c in pairs}) == min(shape)
        n, m = shape
        if n <= m:
            best = min(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(m), n))
        else:
            best = min(sum(cost[p[j], j] for j in range(m)) for p in itertools.permutations(range(n), m))
        assert sum(cost[r, c] for r, c in pairs) == pytest.approx(best)


def obs(x: float, y: float, pips: int) -> DieObservation:
    return DieObservation(-1, x, y, 0.0, DieFace(pips=pips, confidence=1.0))


def test_tracker_keeps_ids_and_reports_moves() -> None:
    tr = DiceTracker(edge_mm=16.0)
    first, moved = tr.update([obs(100, 100, 1), obs(200, 100, 2), obs(300, 100, 3)])
    ids = {d.face.pips: d.die_id for d in first}
    assert len(set(ids.values())) == 3 and moved == set(ids.values())
    # Die 2 rolls 40 mm to a new face; die 3 is taken away; a new die appears; die 1 stays (1 mm noise).
    second, moved = tr.update([obs(301, 300, 9 - 8), obs(240, 110, 5), obs(101, 99, 1)][::-1])
    by_face = {(d.x_mm, d.face.pips): d.die_id for d in second}
    assert by_face[(101, 1)] == ids[1]
    assert by_face[(240, 5)] == ids[2]
    new = by_face[(301, 1)]
    assert new not in ids.values()
    assert moved == {ids[2], ids[3], new}


def test_identities_between_rendered_snapshots() -> None:
    analyser, cam = analyser_for("puxes", 12.0)
    lay = layout("puxes")
    scene = random_scene(lay, 12, seed=21, camera=cam)
    watcher = TableWatcher(analyser)
    first = watcher.snapshot(render(scene).image, 0.0)
    assert len(first.dice) == 12
    # Push two dice by 40 mm and 70 mm; the rest stay.
    dice = list(scene.dice)
    moved_truth = [dice[3], dice[7]]
    dice[3] = dataclasses.replace(dice[3], x_mm=dice[3].x_mm + 40, angle_deg=dice[3].angle_deg + 20)
    dice[7] = dataclasses.replace(dice[7], y_mm=dice[7].y_mm + (70 if dice[7].y_mm < 300 else -70))
    second = watcher.snapshot(render(dataclasses.replace(scene, dice=tuple(dice), seed=22)).image, 1.0)
    assert len(second.dice) == 12
    assert len(second.moved) == 2

    def id_near(snap, x, y):
        return min(snap.dice, key=lambda d: (d.x_mm - x) ** 2 + (d.y_mm - y) ** 2).die_id

    for before, after in zip(scene.dice, dice):
        assert id_near(first, before.x_mm, before.y_mm) == id_near(second, after.x_mm, after.y_mm)
    assert set(second.moved) == {id_near(first, d.x_mm, d.y_mm) for d in moved_truth}
    third = watcher.snapshot(render(dataclasses.replace(scene, dice=tuple(dice), seed=23)).image, 2.0)
    assert third.moved == () and {d.die_id for d in third.dice} == {d.die_id for d in second.dice}
