"""The ladder classifier shared by the controller boards and the host (firmware/board/ladder.py)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.dials.ladders import load_design
from firmware.board.ladder import Ladder, LadderError
from firmware.ladder_maths import RP2040_DNL_U16, compute_ladder, nominal_centres, nominal_ladder

BOARD = Path(__file__).resolve().parents[2] / "firmware" / "board"


def noisy_samples(centres, sigma, n=24, seed=1):
    rng = random.Random(seed)
    return {p: [int(c + rng.gauss(0, sigma)) for _ in range(n)] for p, c in enumerate(centres)}


# ---- the portable subset ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["ladder.py", "debounce.py"])
def test_board_modules_stay_in_the_micropython_subset(name):
    """No f-strings, dataclasses, typing or annotations: the file must run under MicroPython."""
    tree = ast.parse((BOARD / name).read_text())
    banned = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            banned.append(f"f-string at line {node.lineno}")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mod = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            if mod not in ("time",):
                banned.append(f"import {mod} at line {node.lineno}")
        if isinstance(node, ast.AnnAssign) or (isinstance(node, ast.arg) and node.annotation is not None):
            banned.append(f"annotation at line {node.lineno}")
        if isinstance(node, ast.FunctionDef) and node.returns is not None:
            banned.append(f"return annotation at line {node.lineno}")
    assert banned == []


# ---- classification ----------------------------------------------------------------------------

@pytest.mark.parametrize("wheel", ["direction", "number", "symbol"])
def test_nominal_ladder_reads_every_design_position(wheel):
    design = load_design()
    ladder = design.nominal_ladder(wheel)
    for pos, value in enumerate(design.wheel(wheel).nominal_u16):
        ladder.reset()
        assert ladder.classify(value) == pos
        # 1 % resistor tolerance moves a tap by well under the band's half-width.
        ladder.reset()
        assert ladder.classify(value + 65535 // 100) == pos
        ladder.reset()
        assert ladder.classify(value - 65535 // 100) == pos


def test_no_contact_midpoints_and_full_scale_read_between():
    ladder = nominal_ladder(10)
    assert ladder.classify(0) == -1                       # open switch: the pull-down
    assert ladder.classify(65535) == -1                   # a short to 3V3
    for a, b in zip(ladder.centres, ladder.centres[1:]):
        ladder.reset()
        assert ladder.classify((a + b) // 2) == -1        # the dead zone between two taps


def test_hysteresis_keeps_the_last_position_until_clearly_out():
    ladder = Ladder([10000, 20000, 30000], 600)
    edge = ladder.highs[1]
    assert ladder.classify(20000) == 1
    assert ladder.classify(edge + 500) == 1               # just past the band: still 1
    assert ladder.classify(edge + 700) == -1              # clearly out
    assert ladder.classify(edge + 500) == -1              # and not back without entering the band
    assert ladder.classify(edge) == 1
    fresh = Ladder([10000, 20000, 30000], 600)
    assert fresh.classify(edge + 500) == -1               # no history: no hysteresis


def test_positions_need_not_rise_with_the_index():
    ladder = Ladder([30000, 10000, 20000], 100)
    assert [ladder.classify(v) for v in (10000, 20000, 30000)] == [1, 2, 0]
    assert ladder.order() == [1, 2, 0]


@pytest.mark.parametrize("args, message", [
    (([10000], 0), "at least 2 positions"),
    (([10000, 10000], 0), "share the centre"),
    (([10000, 20000], -1), "hysteresis must be 0 or more"),
    (([10000, 20000], 5000), "hysteresis 5000 is too wide"),
])
def test_bad_ladders_are_refused(args, message):
    with pytest.raises(LadderError, match=message):
        Ladder(*args)


def test_overlapping_bands_are_refused_naming_the_positions():
    with pytest.raises(LadderError, match="positions 0 and 1 overlap"):
        Ladder([10000, 20000], 0, lows=[5000, 14000], highs=[16000, 25000])


def test_storage_round_trip_and_malformed_lists():
    ladder = compute_ladder(noisy_samples(nominal_centres(8), 40))
    stored = ladder.to_list()
    assert all(isinstance(v, int) for v in stored)
    again = Ladder.from_list(stored)
    assert again == ladder and again.lows == ladder.lows and again.hysteresis == ladder.hysteresis
    with pytest.raises(LadderError, match="expected format 1"):
        Ladder.from_list([2] + stored[1:])
    with pytest.raises(LadderError, match="says 8 positions but holds 23"):
        Ladder.from_list(stored[:-1])
    with pytest.raises(LadderError, match="list of integers"):
        Ladder.from_list(["x"] + stored[1:])


def test_nominal_centres_follow_the_resistor_values():
    # Equal resistors, no load: taps at k/(N+1) of full scale.
    assert nominal_centres(3, [1000] * 4) == [16384, 32768, 49151]
    # A 100 k pull-down pulls the middle tap of a 1 k string down by about 0.6 %.
    loaded = nominal_centres(3, [1000] * 4, pulldown=100000)
    assert 32768 * 0.99 < loaded[1] < 32768
    # Unequal strings: a bigger bottom resistor lifts every tap.
    assert nominal_centres(2, [1000, 1000, 2000])[0] == 32768
    with pytest.raises(LadderError, match="needs 4 resistors, got 3"):
        nominal_centres(3, [1000] * 3)


# ---- computing from recorded readings ----------------------------------------------------------

@pytest.mark.parametrize("positions", [4, 8, 10, 16])
def test_computed_ladder_reads_fresh_noisy_readings(positions):
    centres = nominal_centres(positions)
    sigma = 16 * 3                                        # 3 LSB RMS on 12 bits: noisier than an RP2040
    ladder = compute_ladder(noisy_samples(centres, sigma, seed=positions))
    rng = random.Random(99)
    for pos, c in enumerate(centres):
        for _ in range(50):
            assert ladder.classify(int(c + rng.gauss(0, sigma))) == pos


def test_overlapping_positions_are_refused_naming_them():
    centres = nominal_centres(8)
    samples = noisy_samples(centres, 30)
    samples[4] = list(samples[3])                         # the wheel was not turned from 3 to 4
    with pytest.raises(LadderError, match=r"positions overlap: 3 \(\d+\.\.\d+\) and 4"):
        compute_ladder(samples)


def test_noisy_positions_are_refused_naming_them():
    centres = nominal_centres(10)
    samples = noisy_samples(centres, 20)
    rng = random.Random(5)
    samples[6] = [int(centres[6] + rng.uniform(-2500, 2500)) for _ in range(24)]
    with pytest.raises(LadderError, match="too noisy to tell positions apart: position 6 "):
        compute_ladder(samples)


def test_missing_and_sparse_positions_are_named():
    samples = noisy_samples(nominal_centres(4), 20)
    del samples[2]
    with pytest.raises(LadderError, match=r"no readings for position\(s\) 2"):
        compute_ladder(samples, positions=4)
    samples = noisy_samples(nominal_centres(4), 20)
    samples[1] = samples[1][:2]
    with pytest.raises(LadderError, match=r"too few readings for position\(s\) 1"):
        compute_ladder(samples)
    with pytest.raises(LadderError, match=r"unknown position\(s\) 7"):
        compute_ladder({**noisy_samples(nominal_centres(4), 20), 7: [1, 2, 3]}, positions=4)


def test_band_edges_keep_away_from_the_rp2040_dnl_codes():
    # Positions placed so that the plain upper edge of position 0 sits 12 units below code 1536.
    dnl = RP2040_DNL_U16[1]
    a, b, c = dnl - 2000, dnl + 4600, dnl + 11200
    samples = {0: [a + d for d in (-20, 0, 20)], 1: [b + d for d in (-20, 0, 20)], 2: [c + d for d in (-20, 0, 20)]}
    plain = compute_ladder(samples, avoid=())
    assert min(abs(e - dnl) for e in plain.lows + plain.highs) < 256
    ladder = compute_ladder(samples)
    for edge in ladder.lows + ladder.highs:
        assert all(abs(edge - code) >= 256 for code in RP2040_DNL_U16), (edge, ladder)
    assert [ladder.classify(v) for v in (a, b, c)] == [0, 1, 2]


@settings(max_examples=60, deadline=None)
@given(positions=st.integers(2, 16), sigma=st.floats(0, 60), seed=st.integers(0, 10_000),
       offset=st.integers(-1500, 1500))
def test_computed_ladders_always_classify_their_own_readings(positions, sigma, seed, offset):
    centres = [c + offset for c in nominal_centres(positions)]
    samples = noisy_samples(centres, sigma, n=12, seed=seed)
    ladder = compute_ladder(samples)
    for pos, values in samples.items():
        for v in values:
            ladder.reset()
            assert ladder.classify(v) == pos
