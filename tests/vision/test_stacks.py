"""Stacks across snapshots: a stack keeps its id where it stands; one gone from its place toppled."""

from __future__ import annotations

from controller.vision.snapshot import DieFace, DieObservation
from controller.vision.stacks import StackTracker

EDGE = 25.0


def pair(bottom: int, top: int, x: float, y: float) -> list[DieObservation]:
    return [DieObservation(bottom, x, y, 10.0, DieFace(), 1), DieObservation(top, x, y, 13.0, DieFace(pips=3), 2)]


def test_a_standing_stack_keeps_its_id() -> None:
    tracker = StackTracker(EDGE)
    first, _ = tracker.update(pair(1, 2, 750, 300))
    again, dice = tracker.update(pair(1, 2, 751.5, 299))
    assert [s.stack_id for s in again] == [s.stack_id for s in first] and not again[0].toppled
    assert {d.stack_id for d in dice} == {first[0].stack_id}


def test_dice_seen_stacked_elsewhere_mean_the_stack_fell() -> None:
    """The tracker may follow the top die of a knocked temple to where it landed; if that die is
    (mis)taken for the top of a stack there, the temple that stood still fell from its place."""
    tracker = StackTracker(EDGE)
    first, _ = tracker.update(pair(1, 2, 750, 300))
    dice = [DieObservation(1, 749, 302, 12.0, DieFace(pips=6), 1), *pair(3, 2, 710, 299)]
    after, _ = tracker.update(dice)
    toppled = [s for s in after if s.toppled]
    assert len(toppled) == 1 and toppled[0].stack_id == first[0].stack_id
    assert (toppled[0].x_mm, toppled[0].y_mm) == (750, 300)
    standing = [s for s in after if not s.toppled]
    assert len(standing) == 1 and standing[0].stack_id != first[0].stack_id
