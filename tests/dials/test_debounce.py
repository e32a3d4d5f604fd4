"""Debouncing wheels and buttons (firmware/board/debounce.py), with tables of timed inputs.

Each table row is ``(time_ms, raw_input, expected_output)``: the raw input is what the ladder
classified (a position, or -1 for "no position"), the output what the controller reports.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.dials.ladders import Timings, load_design
from controller.dials.reading import ControllerReader, StableValue
from firmware.board.debounce import TURNING, ButtonDebouncer, Debouncer

SETTLE = 40
T = TURNING

WHEEL_TABLES = {
    "settles after the settle time": [
        (0, 3, T), (10, 3, T), (39, 3, T), (40, 3, 3), (100, 3, 3),
    ],
    "bouncing contact on arrival": [
        (0, 5, T), (2, T, T), (4, 5, T), (6, T, T), (8, 5, T), (30, 5, T), (47, 5, T), (48, 5, 5),
    ],
    "half-turned wheel stays turning": [
        (0, 2, T), (50, 2, 2), (60, T, T), (100, T, T), (500, T, T), (1000, T, T),
    ],
    "slow turn through several positions, each too brief": [
        (0, 1, T), (40, 1, 1),
        (50, T, T), (54, 2, T), (84, T, T), (88, 3, T), (118, T, T), (122, 4, T), (161, 4, T), (162, 4, 4),
    ],
    "a position held long enough on the way is reported": [
        (0, 1, T), (40, 1, 1), (50, T, T), (54, 2, T), (94, 2, 2), (100, T, T), (104, 3, T), (144, 3, 3),
    ],
    "a one-sample glitch reports turning at once, then settles again": [
        (0, 7, T), (40, 7, 7), (44, T, T), (48, 7, T), (87, 7, T), (88, 7, 7),
    ],
    "a glitch to a neighbour never shows the neighbour": [
        (0, 7, T), (40, 7, 7), (44, 8, T), (48, 7, T), (88, 7, 7),
    ],
    "sparse samples: a gap longer than the settle time still settles": [
        (0, 6, T), (1000, 6, 6),
    ],
}


@pytest.mark.parametrize("table", WHEEL_TABLES.values(), ids=list(WHEEL_TABLES))
def test_wheel_debounce_tables(table):
    d = Debouncer(SETTLE)
    got = [(t, raw, d.update(raw, t)) for t, raw, _ in table]
    assert got == table


def test_initial_value_counts_as_settled():
    d = Debouncer(SETTLE, initial=4)
    assert d.update(4, 0) == 4
    assert d.update(5, 1) == T
    d.reset(2)
    assert d.value == 2 and d.update(2, 5) == 2


def test_settled_value_survives_a_very_long_wait():
    """Once settled, no clock arithmetic on old stamps (ticks_ms wraps after about 12 days on the board)."""
    d = Debouncer(SETTLE)
    d.update(3, 0)
    d.update(3, 40)
    assert d.update(3, 40 + 2**31) == 3


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 30), st.integers(-1, 9)), min_size=1, max_size=60))
def test_a_wheel_never_reports_a_wrong_number(steps):
    """Whatever the readings, a reported position was read without a break for the settle time."""
    d = Debouncer(SETTLE)
    now = 0
    history = []
    for gap, raw in steps:
        now += gap
        history.append((now, raw))
        out = d.update(raw, now)
        if out != T:
            assert out == raw
            since = max((t for t, v in history if v != raw), default=None)
            first = min(t for t, v in history if v == raw and (since is None or t > since))
            assert now - first >= SETTLE


BUTTON_TABLES = {
    "bouncy press then release": [
        (0, 1, 0), (1, 0, 0), (2, 1, 0), (3, 0, 0), (4, 1, 0), (23, 1, 0), (24, 1, 1),
        (200, 0, 1), (201, 1, 1), (202, 0, 1), (231, 0, 1), (232, 0, 0),
    ],
    "a press shorter than the settle time never shows": [
        (0, 1, 0), (10, 1, 0), (19, 1, 0), (20, 0, 0), (60, 0, 0),
    ],
    "a release shorter than its settle time keeps the press": [
        (0, 1, 0), (20, 1, 1), (50, 0, 1), (70, 0, 1), (75, 1, 1), (200, 1, 1),
    ],
}


@pytest.mark.parametrize("table", BUTTON_TABLES.values(), ids=list(BUTTON_TABLES))
def test_button_debounce_tables(table):
    b = ButtonDebouncer(20, 30)
    assert [(t, lvl, b.update(lvl, t)) for t, lvl, _ in table] == table


def test_settle_times_must_not_be_negative():
    with pytest.raises(ValueError):
        Debouncer(-1)
    with pytest.raises(ValueError):
        ButtonDebouncer(10, -5)


def test_seconds_clock_wrapper_reports_none_while_turning():
    s = StableValue(0.040)
    table = [(0.0, 2, None), (0.039, 2, None), (0.040, 2, 2), (0.05, None, None), (0.06, 3, None), (0.1, 3, 3)]
    assert [(t, v, s.update(v, t)) for t, v, _ in table] == table


# ---- a whole controller --------------------------------------------------------------------------

@pytest.fixture
def reader():
    design = load_design()
    return ControllerReader(design.nominal_ladders(), Timings(wheel_settle_ms=40, button_press_ms=20,
                                                              button_release_ms=30, unplug_ms=500)), design


def _raw(design, direction, number, symbol):
    def value(wheel, pos):
        return 0 if pos is None else design.wheel(wheel).nominal_u16[pos]
    return {"direction": value("direction", direction), "number": value("number", number),
            "symbol": value("symbol", symbol)}


def test_reader_plug_turn_and_unplug(reader):
    r, design = reader
    on = _raw(design, 2, 7, 1)
    table = [
        # time, raw, button, expected (direction, number, symbol, button, connected)
        (0.000, on, False, (None, None, None, False, True)),
        (0.040, on, False, (2, 7, 1, False, True)),
        (0.044, _raw(design, 2, None, 1), False, (2, None, 1, False, True)),     # number wheel moves
        (0.048, _raw(design, 2, 8, 1), False, (2, None, 1, False, True)),
        (0.088, _raw(design, 2, 8, 1), True, (2, 8, 1, False, True)),
        (0.108, _raw(design, 2, 8, 1), True, (2, 8, 1, True, True)),             # press held 20 ms
        (0.200, _raw(design, None, None, None), False, (None, None, None, True, True)),  # unplugged
        (0.607, _raw(design, None, None, None), False, (None, None, None, False, True)),
        (0.608, _raw(design, None, None, None), False, (None, None, None, False, False)),  # 500 ms after the last contact
        (0.800, on, False, (None, None, None, False, True)),                     # plugged back
        (0.840, on, False, (2, 7, 1, False, True)),
    ]
    for now, raw, button, expected in table:
        got = r.update(raw, button, now)
        assert (got.direction, got.number, got.symbol, got.button, got.connected) == expected, now


def test_reader_reports_a_wheel_stuck_at_full_scale_once(reader):
    r, design = reader
    raw = _raw(design, 0, 0, 0)
    r.update(raw, False, 0.0)
    shorted = dict(raw, symbol=65535)
    faults = [r.update(shorted, False, 0.01 * i).faults for i in range(1, 12)]
    assert faults.count(("symbol",)) == 1 and sum(map(len, faults)) == 1
