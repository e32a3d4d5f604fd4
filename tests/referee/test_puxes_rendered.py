"""The PuXes referee on snapshots from the real camera pipeline, fed with rendered frames of the mat.

The renderer draws the printed PuXes mat, the temples and the oracles seen by a camera overhead; the
vision pipeline (:class:`controller.vision.pipeline.TableWatcher`) turns the frames into
TableSnapshots, which the referee judges. Without a face library the faces are unreadable, so the
referee asks the players for them: the test answers with the faces it drew.
"""

from __future__ import annotations

import math

import pytest

from controller.engines.core import CHANCE
from controller.engines.puxes import PuxesGame
from controller.engines.puxes.actions import Roll
from controller.referee.common import Call, Question
from controller.referee.puxes import PuxesReferee

vision = pytest.importorskip("controller.vision.pipeline")

from controller.vision.mat import load_layout  # noqa: E402
from controller.vision.profile import calibrate_mat  # noqa: E402
from controller.vision.render import Die, Lighting, Scene, fitting_camera, render, render_empty, temple  # noqa: E402

FACES = ("pi", "pirate", "bombe", "smiley")


@pytest.fixture(scope="module")
def camera():
    layout = load_layout("puxes")
    cam = fitting_camera(layout)
    profile = calibrate_mat(render_empty(Scene(layout, camera=cam, lighting=Lighting())), layout)
    return layout, cam, profile


def test_a_rendered_table_is_set_up_and_a_shot_off_the_mat_puts_the_oracle_to_sleep(camera) -> None:
    """« si un oracle sort de la zone de jeu préalablement définie, il plonge dans un profond sommeil », judged on
    what the camera pipeline makes of rendered frames."""
    layout, cam, profile = camera
    watcher = vision.TableWatcher(vision.FrameAnalyser(layout, profile))
    referee = PuxesReferee(PuxesGame())
    game = referee.game
    drawn: dict[tuple[int, int], str] = {}
    dice = [*temple(150, 300, "oni"), *temple(750, 300, "oni")]
    for t in (0, 1):
        for (x, y), face in zip(game.table.garden_slots(t)[:4], FACES):
            dice.append(Die(x, y, face, 0.0))
            drawn[(round(x), round(y))] = face
    scene = Scene(layout, dice=tuple(dice), camera=cam, lighting=Lighting())

    def face_at(x: float, y: float) -> str:
        return min(drawn.items(), key=lambda kv: math.hypot(kv[0][0] - x, kv[0][1] - y))[1]

    snap = watcher.snapshot(render(scene).image, 0.0)
    results = referee.observe(snap)
    placed = 0
    for _ in range(20):
        questions = [r for r in results if isinstance(r, Question)]
        placed += sum(1 for r in results if isinstance(r, Call) and r.decision == "placed")
        if not questions:
            break
        q = questions[0]
        assert q.data["about"] == "placed-face" and "(die" not in q.text
        cam_id = q.data["camera"]
        obs = snap.die(cam_id)
        results = referee.answer(q.question_id, face_at(obs.x_mm, obs.y_mm))
    game = referee.game
    assert placed == 8
    for o in (2, 3, 4, 5, 12, 13, 14, 15):
        d = game.dice[o]
        assert d.face == face_at(d.x, d.y)
    # the first rolls, entered at the dashboard
    referee.player_action(CHANCE, Roll(("Oni", "pi", "pi", "pi")))
    referee.player_action(CHANCE, Roll(("pi",) * 4))
    (oracle,) = referee.may_move()                          # player 0's oracle showing pi
    assert game.dice[oracle].face == "pi" and game.dice[oracle].owner == 0
    # it is flicked off the mat's left edge
    d = game.dice[oracle]
    start = min((die for die in dice if die.level == 1), key=lambda die: math.hypot(die.x_mm - d.x, die.y_mm - d.y))
    moved = tuple(Die(-40.0, 300.0, "pi", 0.0) if die is start else die for die in dice)
    snap = watcher.snapshot(render(Scene(layout, dice=moved, camera=cam, lighting=Lighting())).image, 1.0)
    calls = referee.observe(snap)
    assert [c.decision for c in calls if isinstance(c, Call)] == ["asleep"], [c.reason for c in calls]
    assert referee.game.dice[oracle].status == "asleep"
