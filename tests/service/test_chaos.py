"""A small run of ``bench/chaos.py``, every section of it.

For every registered game (the registry, as ``bitbox games`` lists it: no game named here), a few
``kill -9`` of its demo at seeded moments, each resumed exactly. The log those kills left damaged
page by page and cut at every 4 KiB, a save and a configuration mutated a few dozen ways. Fuzzed
bytes through the host's serial decoder. For every game played on the wheels, a board unplugged
and plugged back while a lock is held, under the real console loop and SerialBackend. A dashboard
under a few dozen live streams and requests while a demo plays. No traceback, no changed file, no
lost lock, no error.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from typing import Any

import pytest

from controller.games import game, game_names, playable_on
from controller.paths import PROJECT_ROOT


def _chaos() -> Any:
    """``bench/chaos.py`` as a module (``bench`` is a folder of scripts, not a package)."""
    if "bench_chaos" in sys.modules:
        return sys.modules["bench_chaos"]
    spec = importlib.util.spec_from_file_location("bench_chaos", PROJECT_ROOT / "bench" / "chaos.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_chaos"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _wheels_games() -> list[str]:
    return [spec.name for spec in playable_on("wheels") if spec.bot is not None]


@pytest.mark.parametrize("name", game_names())
def test_kills_of_every_game_resume_exactly(tmp_path, name: str) -> None:
    chaos = _chaos()
    tally = chaos.Tally()
    kills = 2 if game(name).play[0] == "camera" else 3
    logs = chaos.kill_trials(tmp_path, seed=4, kills=kills, rng=random.Random(3), tally=tally, table_turns=1,
                             quick=True, timed=0.0, names=[name])
    assert tally.failures == []
    counts = tally.counts
    # A run resumed after a kill prints less than a whole game, so it may end before its own kill's
    # moment: it is counted apart (the bench does the same), and at least one kill must have landed.
    killed = counts[f"{name} kills"]
    assert 1 <= killed <= kills <= killed + counts[f"{name} runs that ended before their kill"]
    nothing_to_resume = (counts[f"{name} kills before the game was stored"] + counts[f"{name} kills after the last turn"]
                         + counts[f"{name} kills after the game ended"])
    assert counts[f"{name} inexact resumes"] == 0
    assert counts[f"{name} exact resumes"] == killed - nothing_to_resume
    assert chaos.latest(logs[name]) is not None


def test_a_damaged_log_is_reported_and_mutated_files_refused(tmp_path) -> None:
    chaos = _chaos()
    tally = chaos.Tally()
    rng = random.Random(3)
    name = _wheels_games()[0]
    logs = chaos.kill_trials(tmp_path, seed=4, kills=2, rng=rng, tally=tally, quick=True, timed=0.0, names=[name])
    log = logs[name]
    chaos.damaged_logs(tmp_path, [(log, None)], rng, tally)
    assert tally.counts["damaged logs"] >= 4
    chaos.mutated_saves(tmp_path, chaos.latest(log)[2], 30, rng, tally, name)
    chaos.mutated_configs(tmp_path, 30, rng, tally)
    assert tally.failures == []
    assert tally.counts["tracebacks"] == 0 and tally.counts["changed originals"] == 0
    assert tally.counts[f"mutated {name} save: refused"] > 0


def test_fuzzed_serial_input_is_never_misread() -> None:
    chaos = _chaos()
    tally = chaos.Tally()
    chaos.serial_fuzz(20_000, 5, tally)
    assert tally.failures == []
    assert tally.counts["serial fuzz: inputs"] == 20_000
    assert tally.counts["serial fuzz: unexpected exceptions"] == tally.counts["serial fuzz: false accepts"] == 0
    assert tally.counts["serial fuzz: intact messages recovered"] > 0


@pytest.mark.parametrize("name", _wheels_games())
def test_a_board_unplugged_mid_turn_keeps_the_locks(tmp_path, name: str) -> None:
    chaos = _chaos()
    tally = chaos.Tally()
    chaos.unplug_trials(tmp_path, 2, 7, random.Random(5), tally, names=[name])
    assert tally.failures == []
    assert tally.counts[f"serial {name}: unplug/replug cycles with a lock kept"] == 2
    assert tally.counts[f"serial {name}: locks refused while a board was unplugged"] == 2
    assert tally.counts[f"serial {name}: board disconnects seen"] >= 2


def test_the_dashboard_answers_every_request_and_stream_during_a_game(tmp_path) -> None:
    chaos = _chaos()
    tally = chaos.Tally()
    chaos.web_trial(tmp_path, clients=20, requests=100, seed=2, tally=tally, concurrency=8, speed=4, rounds=1)
    assert tally.failures == []
    assert tally.counts["web: requests"] == 100 and tally.counts["web: live streams"] == 20
    assert tally.counts["web: errors"] == 0
