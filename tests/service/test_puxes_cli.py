"""`bitbox play puxes` from a recorded camera (a folder of frames), with a calibrated mat and taught
faces in the state folder: the calls land in the event log, and a second run resumes the game."""

from __future__ import annotations

import subprocess
import sys

import cv2
import pytest

from controller.paths import PROJECT_ROOT
from controller.service.store import GameStore


def _bitbox(*args: str, state: str) -> subprocess.CompletedProcess[str]:
    env = {"BITBOX_STATE_DIR": state, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.run([sys.executable, "-c", "import sys; from controller.cli import main; sys.exit(main())", *args], capture_output=True, text=True,
                          env=env, cwd=PROJECT_ROOT, timeout=120)


def test_play_puxes_without_calibration_names_the_command(tmp_path):
    result = _bitbox("play", "puxes", "--source", str(tmp_path), "--no-web", "--db", str(tmp_path / "x.db"),
                     state=str(tmp_path / "state"))
    assert result.returncode == 2
    assert "bitbox calibrate mat --layout puxes" in result.stderr + result.stdout
    assert not (tmp_path / "x.db").exists()


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """The first still moments of a seeded game as the camera filmed them, the mat profile and the
    faces as `bitbox calibrate mat` and `bitbox calibrate faces` store them."""
    from controller.referee.demo.camera import FPS, TableCamera
    from controller.referee.demo.table import ScriptedTable

    root = tmp_path_factory.mktemp("recording")
    state = root / "state"
    frames = root / "frames"
    frames.mkdir()
    table = ScriptedTable({"players": 2}, seed=3)
    camera = TableCamera(table.game.collection, {d.name for d in table.game.dice.values()}, seed=3)
    import os

    os.environ["BITBOX_STATE_DIR"] = str(state)
    try:
        camera.profile.save()
        camera.faces.save()
    finally:
        del os.environ["BITBOX_STATE_DIR"]
    count = 0
    moments = 0
    clock = 0.0
    for tr in table.play(max_turns=1):
        for frame in camera.frames(tr.before, tr.after, tr.player, tr.reach_over):
            clock += 1.0 / FPS
            cv2.imwrite(str(frames / f"{count:05d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 1])
            count += 1
            if camera.watcher.feed(frame, clock) is not None:
                break
        moments += 1
        if moments == 4:                     # the temples, then three oracles placed
            break
    for extra in range(6):                   # the table stays still a moment longer
        cv2.imwrite(str(frames / f"{count + extra:05d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    return state, frames


def test_play_puxes_from_a_recording_stores_the_calls_and_resumes(recording, tmp_path):
    state, frames = recording
    db = tmp_path / "table.db"
    args = ("play", "puxes", "--source", str(frames), "--fps", "15", "--no-web", "--db", str(db),
            "--name", "Ada", "--name", "Brice", "--seed", "3")
    first = _bitbox(*args, state=str(state))
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("sets their") == 3, first.stdout
    assert "Rule: «" in first.stdout and "is saved and resumes" in first.stdout
    with GameStore(db) as store:
        stored = store.unfinished()
        assert stored is not None and stored.actions == 3
        assert [n["decision"] for n in store.notes(stored.id, "call")] == ["placed"] * 3
        assert [p["name"] for p in stored.setup["players"]] == ["Ada", "Brice"]
    second = _bitbox(*args, state=str(state))
    assert second.returncode == 0, second.stderr
    assert f"Resuming game #{stored.id} after 3 stored actions" in second.stdout
    # the same recording again shows nothing new: the oracles are where the game has them
    assert "sets their" not in second.stdout


def test_play_puxes_refuses_the_wheels_options(tmp_path):
    result = _bitbox("play", "puxes", "--controllers", "1,2", state=str(tmp_path))
    assert result.returncode == 2
    assert "--controllers is an option of games played on the wheels" in result.stderr
    assert "PuXes is refereed by the table camera" in result.stderr


def test_play_puxes_refuses_another_games_option(tmp_path):
    result = _bitbox("play", "puxes", "--short", state=str(tmp_path))
    assert result.returncode == 2 and "--short is an option of Pixoid, not of PuXes" in result.stderr
