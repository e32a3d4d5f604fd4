"""The long decoder fuzz run (100,000 inputs), kept out of the default suite."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "dials.py"


@pytest.mark.slow
def test_decoder_fuzz_100000_inputs() -> None:
    spec = importlib.util.spec_from_file_location("dials_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    inputs, foreign, wrong, good = module.fuzz(100_000, seed=7)
    assert inputs == 100_000
    assert foreign == 0
    assert wrong == 0
    assert good > 10_000  # the mutated streams still deliver their untouched frames
