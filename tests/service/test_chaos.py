"""A small run of ``bench/chaos.py``: three ``kill -9`` of the Pixoid demo at seeded moments (after a
number of printed lines), each resumed exactly; the log those kills left damaged page by page and cut
at every 4 KiB; a save and a configuration mutated a few dozen ways. No traceback, no changed file."""

from __future__ import annotations

import importlib.util
import random
import sys

from controller.paths import PROJECT_ROOT


def _chaos():
    """``bench/chaos.py`` as a module (``bench`` is a folder of scripts, not a package)."""
    if "bench_chaos" in sys.modules:
        return sys.modules["bench_chaos"]
    spec = importlib.util.spec_from_file_location("bench_chaos", PROJECT_ROOT / "bench" / "chaos.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_chaos"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_three_kills_resume_exactly_and_damage_is_reported(tmp_path):
    chaos = _chaos()
    tally = chaos.Tally()
    rng = random.Random(3)
    chaos.pixoid_kills(tmp_path, seed=4, kills=3, rng=rng, tally=tally, short=True, timed=0.0)
    assert tally.failures == []
    assert tally.counts["pixoid kills"] == 3
    left_a_game = 3 - tally.counts["pixoid kills before the game was stored"]
    assert tally.counts["pixoid exact resumes"] == left_a_game >= 1

    log = tmp_path / "pixoid-4" / "pixoid.db"
    chaos.damaged_logs(tmp_path, [(log, None)], rng, tally)
    assert tally.counts["damaged logs"] >= 4
    save = chaos.latest(log)[2]
    chaos.mutated_saves(tmp_path, save, 30, rng, tally)
    chaos.mutated_configs(tmp_path, 30, rng, tally)
    assert tally.failures == []
    assert tally.counts["tracebacks"] == 0 and tally.counts["changed originals"] == 0
