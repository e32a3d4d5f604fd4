"""Hardware data files and calibration profiles: the shipped ones load, broken ones say what to fix."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from controller.dials.ladders import DEFAULT_DESIGN, WHEEL_ORDER, DataFileError, load_design
from controller.dials.pinmap import DIRECT_PINMAP, USB_PINMAP, load_direct_pinmap, load_usb_pinmap
from controller.dials.profile import DialProfile, default_profile_path, load_profile, save_profile
from controller.dials.state import DIRECTIONS, SYMBOLS, WHEEL_POSITIONS
from firmware.board.ladder import Ladder
from firmware.ladder_maths import nominal_centres


# ---- ladders.toml ------------------------------------------------------------------------------

def test_shipped_design_matches_the_state_model():
    design = load_design()
    assert design.wheel("direction").labels == DIRECTIONS
    assert design.wheel("symbol").labels == SYMBOLS
    assert {w: design.wheel(w).positions for w in WHEEL_ORDER} == WHEEL_POSITIONS


def test_shipped_nominal_values_are_the_resistor_values():
    design = load_design()
    for wheel in WHEEL_ORDER:
        w = design.wheel(wheel)
        computed = nominal_centres(w.positions, list(w.resistors_ohms), design.pulldown_ohms)
        assert list(w.nominal_u16) == computed


def test_shipped_design_has_margin_for_12_bit_adcs():
    """Adjacent positions are at least 300 codes apart on 12 bits, and no tap is near 0 V or 3.3 V."""
    design = load_design()
    for wheel in WHEEL_ORDER:
        codes = sorted(v >> 4 for v in design.wheel(wheel).nominal_u16)
        assert min(b - a for a, b in zip(codes, codes[1:])) >= 300
        assert codes[0] >= 300 and codes[-1] <= 4095 - 300


def test_shipped_nominal_volts_agree_with_the_readings():
    data = tomllib.loads(DEFAULT_DESIGN.read_text())
    design = load_design()
    for wheel in WHEEL_ORDER:
        volts = data["wheels"][wheel]["nominal_volts"]
        assert len(volts) == design.wheel(wheel).positions
        for v, u16 in zip(volts, design.wheel(wheel).nominal_u16):
            assert abs(v - u16 / 65535 * 3.3) < 0.002


def _broken_copy(tmp_path: Path, old: str, new: str, source: Path = DEFAULT_DESIGN) -> Path:
    text = source.read_text()
    assert old in text
    path = tmp_path / source.name
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize("old, new, key, problem", [
    ("pulldown_ohms = 100000", "pulldown_ohms = \"lots\"", "parts.pulldown_ohms", "expected int"),
    ("pulldown_ohms = 100000", "pull_down = 1", "parts.pulldown_ohms", "missing"),
    ('labels = ["A", "B", "C", "D"]', 'labels = ["A", "B", "C"]', "wheels.symbol.labels", "3 labels for a 4-position"),
    ("nominal_u16 = [13003,", "nominal_u16 = [23003,", "wheels.symbol.nominal_u16", "disagree with the resistor"),
    ("wheel_settle_ms = 40", "wheel_settle_ms = -4", "debounce.wheel_settle_ms", "must be positive"),
    ("wheel_settle_ms = 40", "wheel_setle_ms = 40", "debounce.wheel_setle_ms", "unknown setting"),
])
def test_malformed_design_names_file_and_key(tmp_path, old, new, key, problem):
    path = _broken_copy(tmp_path, old, new)
    with pytest.raises(DataFileError) as err:
        load_design(path)
    assert err.value.key == key and str(path) in str(err.value) and problem in str(err.value)


def test_unreadable_design_files(tmp_path):
    with pytest.raises(DataFileError, match="file not found; check the path"):
        load_design(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[parts\n")
    with pytest.raises(DataFileError, match=r"not valid TOML .*line 1"):
        load_design(bad)


# ---- pin maps ------------------------------------------------------------------------------------

def test_shipped_direct_pinmap_uses_each_pin_and_channel_once():
    pinmap = load_direct_pinmap()
    assert [c.id for c in pinmap.controllers] == ["1", "2", "3", "4", "5", "6"]
    pins = [p for c in pinmap.controllers for p in (c.button, c.led)]
    spi = {11, 10, 9, 8, 7, 21, 20, 19, 18}
    assert len(set(pins)) == len(pins) and not set(pins) & spi
    channels = [(i.chip, i.channel) for c in pinmap.controllers for i in c.wheels.values()]
    assert len(set(channels)) == 18


def test_shipped_usb_pinmap():
    usb = load_usb_pinmap()
    assert usb.wheel_pins == {"direction": 26, "number": 27, "symbol": 28}
    assert (usb.vid, usb.pid) == (0x2E8A, 0x0005)


@pytest.mark.parametrize("old, new, key, problem", [
    ("button = 5\n", "button = 4\n", "controllers[1].button", "GPIO 4 is used twice"),
    ("number = { chip = \"U1\", channel = 4 }", "number = { chip = \"U1\", channel = 3 }",
     "controllers[1].number.channel", "U1 channel 3 is already read by controller 2 direction"),
    ("symbol = { chip = \"U3\", channel = 5 }", "symbol = { chip = \"U9\", channel = 5 }",
     "controllers[5].symbol.chip", "no ADC chip named 'U9'"),
    ('chip = "MCP3208"', 'chip = "ADS1115"', "adc.chip", "unsupported ADC"),
    ("led = 27", "led = 40", "led", "not on the Pi's header"),
])
def test_malformed_direct_pinmap(tmp_path, old, new, key, problem):
    path = _broken_copy(tmp_path, old, new, DIRECT_PINMAP)
    with pytest.raises(DataFileError) as err:
        load_direct_pinmap(path)
    assert err.value.key == key and problem in str(err.value)


def test_malformed_usb_pinmap(tmp_path):
    path = _broken_copy(tmp_path, "number = { pin = 27, adc_channel = 1 }", "number = { pin = 22, adc_channel = 1 }",
                        USB_PINMAP)
    with pytest.raises(DataFileError, match="GP22 / ADC1 is not an RP2040 ADC input"):
        load_usb_pinmap(path)


# ---- calibration profiles ------------------------------------------------------------------------

def _profile() -> DialProfile:
    design = load_design()
    profile = DialProfile(adc="MCP3208")
    ladder = design.nominal_ladder("number")
    profile.set("3", "number", Ladder([c + 500 for c in ladder.centres], ladder.hysteresis))
    return profile


def test_profile_round_trip_atomic_and_in_the_state_folder(_state_dir):
    path = save_profile(_profile())
    assert path == default_profile_path() and path.parent == _state_dir
    assert not list(_state_dir.glob("*.tmp"))
    again = load_profile()
    design = load_design()
    assert again.adc == "MCP3208" and again.created
    assert again.ladder("3", "number", design).centres[0] == design.wheel("number").nominal_u16[0] + 500
    # Wheels and controllers it does not hold fall back to the nominal ladder.
    assert again.ladder("3", "symbol", design) == design.nominal_ladder("symbol")
    assert again.ladder("5", "number", design) == design.nominal_ladder("number")


def test_missing_profile_is_empty_unless_required(tmp_path):
    assert load_profile(tmp_path / "none.json").controllers == {}
    with pytest.raises(DataFileError, match="run `bitbox calibrate dials` first"):
        load_profile(tmp_path / "none.json", missing_ok=False)


@pytest.mark.parametrize("mutate, key, problem", [
    (lambda d: "{ not json", "", "not valid JSON"),
    (lambda d: {**d, "schema": 9}, "schema", "unsupported profile version 9"),
    (lambda d: {**d, "controllers": []}, "controllers", "missing or not an object"),
    (lambda d: {**d, "controllers": {"3": {"speed": [1]}}}, "controllers.3.speed", "no such wheel"),
    (lambda d: {**d, "controllers": {"3": {"number": [1, 10, 2, 5, 4, 3, 9, 9, 9]}}},
     "controllers.3.number", "band"),
])
def test_malformed_profiles_name_the_key_and_keep_the_file(tmp_path, mutate, key, problem):
    data = mutate(_profile().to_json())
    path = tmp_path / "p.json"
    text = data if isinstance(data, str) else json.dumps(data)
    path.write_text(text)
    with pytest.raises(DataFileError) as err:
        load_profile(path)
    assert err.value.key == key and problem in str(err.value) and "calibrat" in str(err.value)
    assert path.read_text() == text


# ---- the wiring tables agree with the pin maps ----------------------------------------------------

def test_direct_wiring_table_matches_the_pin_map():
    text = (DIRECT_PINMAP.parent / "wiring-direct.md").read_text()
    rows = re.findall(r"^\| (\d) \| (\w+) \| (U\d) CH(\d) \| (U\d) CH(\d) \| (U\d) CH(\d) \| GPIO (\d+) \(\d+\) \| "
                      r"GPIO (\d+) \(\d+\) \|$", text, re.M)
    pinmap = load_direct_pinmap()
    assert len(rows) == len(pinmap.controllers)
    for row, c in zip(rows, pinmap.controllers):
        wheels = [(c.wheels[w].chip, str(c.wheels[w].channel)) for w in WHEEL_ORDER]
        assert (row[0], row[1], list(zip(row[2:8:2], row[3:8:2])), int(row[8]), int(row[9])) == \
            (c.id, c.colour, wheels, c.button, c.led)


def test_usb_wiring_table_matches_the_pin_map():
    text = (USB_PINMAP.parent / "wiring-usb.md").read_text()
    usb = load_usb_pinmap()
    for wheel, pin in usb.wheel_pins.items():
        assert re.search(rf"\| GP{pin} / ADC{pin - 26} \| \*\*{wheel}\*\* switch common", text)
    assert re.search(rf"\| GP{usb.button_pin} \| ready button", text)
    assert re.search(rf"\| GP{usb.led_pin} \| 330 Ω resistor → LED anode", text)
