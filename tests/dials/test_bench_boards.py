"""``bench/dials.py --boards N`` on a small scale: several simulated boards (the real firmware logic, in
a process of their own, behind pseudo-terminals) into one host's SerialBackend, every board turned at
once, then the players locking together under the real console loop. Every event must arrive with
the position the board settled on, and every round must be revealed once, after its last lock."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from controller.games import game_names
from controller.paths import PROJECT_ROOT


def _dials() -> Any:
    """``bench/dials.py`` as a module (``bench`` is a folder of scripts, not a package)."""
    if "bench_dials" in sys.modules:
        return sys.modules["bench_dials"]
    spec = importlib.util.spec_from_file_location("bench_dials", PROJECT_ROOT / "bench" / "dials.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_dials"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_every_board_turned_at_once_reaches_the_host_with_its_settled_position() -> None:
    dials = _dials()
    latencies, wrong = dials.boards_latency(3, 4, seed=2)
    assert wrong == 0
    assert len(latencies) == 12
    assert all(value > 0 for value in latencies)   # each event came after its board sent it


def test_players_locking_together_are_revealed_once_per_round() -> None:
    dials = _dials()
    samples, commits = dials.lock_to_reveal(3, 3, seed=4)
    assert len(samples) == 3
    assert all(value > 0 for value in samples)     # each reveal came after the last lock left its board
    assert len(commits) == 3 and all(value > 0 for value in commits)  # every round stored its locks
    assert dials.LockGame.NAME not in game_names()  # the bench's game leaves the registry as it was


def test_the_game_of_secret_numbers_reveals_only_once_all_are_locked() -> None:
    dials = _dials()
    game = dials.LockGame({"seats": 3, "rounds": 2}, seed=1)
    game.apply(0, dials.Pick(4))
    game.apply(2, dials.Pick(7))
    assert game.view(1)["last"] is None and "my_pick" not in game.view(1)
    assert game.view(0)["my_pick"] == 4
    events = game.apply(1, dials.Pick(1))
    assert [e.kind for e in events] == ["locked", "revealed"]
    assert events[-1].data["picks"] == [4, 1, 7]
    assert game.current_players() == (0, 1, 2) and not game.is_over()
