"""``kill -9`` at random moments: the demo restarted on the same event log resumes exactly.

A real ``bitbox demo`` process (simulated controllers driven by bots, the real loop and store) is
killed with SIGKILL several times at random points; after each kill the log must replay to a valid
game holding at least every action seen before; restarted until it ends, the game must equal one
played without interruption.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter

from controller.engines import load_game
from controller.service.store import GameStore

DEMO = [sys.executable, "-m", "controller", "demo", "--no-web", "--speed", "0", "--short", "--seed", "4"]


def _run(db, timeout=60):
    return subprocess.run([*DEMO, "--db", str(db)], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONUNBUFFERED": "1"})


def _stored(db):
    """The log's one game and its save, or ``(None, None)`` if killed before the game was recorded."""
    with GameStore(db) as store:
        games = store.games()
        assert len(games) <= 1, [g.status for g in games]
        return (games[0], store.save_data(games[0].id)) if games else (None, None)


def test_sigkill_at_random_points_then_resume(tmp_path):
    reference = _run(tmp_path / "reference.db")
    assert reference.returncode == 0, reference.stderr
    assert "Final scores" in reference.stdout
    _, ref_save = _stored(tmp_path / "reference.db")
    ref_game = load_game(ref_save)
    assert ref_game.is_over()

    db = tmp_path / "crash.db"
    rng = random.Random(int(os.environ.get("BITBOX_CRASH_SEED", time.time_ns() % 10_000)))
    seen = 0
    last_actions: list = []
    kills = 0
    for _ in range(4):
        process = subprocess.Popen([*DEMO, "--db", str(db)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.5, 1.5))
        if process.poll() is not None:
            break
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        kills += 1
        if not db.exists():
            continue
        stored, save = _stored(db)
        if stored is None:
            continue
        if stored.status == "over":
            break  # killed while closing down after the last turn
        game = load_game(save)  # every committed action replays through the rules
        game.check_invariants()
        assert len(save["actions"]) >= seen, "a committed action was lost"
        assert Counter(map(str, save["actions"][:seen])) == Counter(map(str, last_actions)), "stored actions changed"
        seen, last_actions = len(save["actions"]), save["actions"]
    assert kills >= 1, "the demo finished before it could be killed"

    stored, _ = _stored(db)
    if stored is None or stored.status != "over":
        final = _run(db)
        assert final.returncode == 0, final.stderr
        assert "Resuming game #1" in final.stdout or stored is None
    stored, save = _stored(db)
    assert stored.status == "over"
    game = load_game(save)
    assert game.state_dict() == ref_game.state_dict()
    # Simultaneous locks may land in another order after a restart; the actions are the same.
    assert Counter(json.dumps(a, sort_keys=True) for a in save["actions"]) == Counter(
        json.dumps(a, sort_keys=True) for a in ref_save["actions"])
    assert len(game.history) == len(ref_game.history)
