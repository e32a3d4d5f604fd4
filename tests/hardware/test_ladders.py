"""The ladders' voltages, solved from the circuit, agree with every place that states them, and the
resistors' tolerance keeps every position inside the bands the firmware and the host accept."""

from __future__ import annotations

import pytest

from controller.dials.ladders import WHEEL_ORDER, load_design
from controller.hardware import analysis, circuit
from controller.hardware.agreement import Builds, design_bands, disagreements, firmware_bands
from firmware.ladder_maths import nominal_centres


@pytest.fixture(scope="module")
def builds() -> Builds:
    return Builds.default()


def test_every_data_file_and_document_says_what_the_circuit_says(builds) -> None:
    assert [str(d) for d in disagreements(builds)] == []


def test_the_solved_ladders_match_the_firmware_s_own_formula(builds) -> None:
    design = load_design()
    for wheel in WHEEL_ORDER:
        ohms = [int(r.ohms) for r in builds.usb.ladders[wheel].resistors]
        computed = nominal_centres(design.wheels[wheel].positions, ohms, circuit.PULLDOWN_OHMS)
        assert analysis.nominal_u16(builds.usb)[("", wheel)] == computed


def test_the_direct_build_reads_what_the_usb_build_reads(builds) -> None:
    usb = analysis.nominal_u16(builds.usb)
    system = analysis.nominal_u16(builds.system)
    for (cid, wheel), readings in system.items():
        assert readings == usb[("", wheel)], (cid, wheel)


def test_a_resistor_changed_in_the_circuit_names_every_other_place_to_change() -> None:
    ohms = dict(circuit.LADDER_OHMS, number=(1000,) * 5 + (1200,) + (1000,) * 5)
    places = {(d.path.name, d.key.split(" (")[0]) for d in disagreements(Builds.default(ladder_ohms=ohms))}
    assert ("ladders.toml", "wheels.number.resistors_ohms") in places
    assert ("ladders.toml", "wheels.number.nominal_volts") in places
    assert ("ladders.toml", "wheels.number.nominal_u16") in places
    assert ("README.md", "ladder table, number row, position voltages") in places
    assert ("bom-usb.md", "parts: resistor 1.2 kΩ") in places or ("bom-usb.md", "parts: resistor 1 kΩ") in places
    assert any(name == "bom-direct.md" for name, _ in places)
    assert not any(key.startswith("wheels.direction") for _, key in places)


def test_a_pulldown_changed_in_the_circuit_names_the_data_file_and_the_bills() -> None:
    places = {(d.path.name, d.key) for d in disagreements(Builds.default(pulldown_ohms=47_000))}
    assert ("ladders.toml", "parts.pulldown_ohms") in places
    assert ("README.md", "Wheel ladders: the pull-down") in places
    assert ("bom-usb.md", "parts: resistor 47 kΩ") in places
    assert ("bom-direct.md", "ADC board (one, on the Pi's header): resistor 100 kΩ") in places


def test_a_pin_moved_in_the_circuit_names_the_pin_map() -> None:
    places = {(d.path.name, d.key) for d in disagreements(Builds.default(usb_pins=dict(circuit.USB_PINS, led="GP13")))}
    assert ("pinmap-usb.toml", "led.pin") in places
    assert ("wiring-usb.md", "Pico connections, led") in places


@pytest.mark.parametrize("tolerance", [circuit.RESISTOR_TOLERANCE_PERCENT, 5.0])
def test_resistor_tolerance_keeps_every_usb_position_inside_the_firmware_s_band(builds, tolerance, capsys) -> None:
    margins = analysis.monte_carlo(builds.usb, firmware_bands(), tolerance, trials=20000)
    worst = analysis.worst(margins)
    with capsys.disabled():
        print(f"\nUSB build, {tolerance:g} % resistors: worst margin {worst.codes(12):.1f} codes (12-bit), "
              f"{worst.wheel} wheel position {worst.position}")
    # Well clear of the RP2040's few codes of offset, gain error and noise.
    assert worst.codes(12) > 32
    assert len(margins) == sum(load_design().wheels[w].positions for w in WHEEL_ORDER)


@pytest.mark.parametrize("tolerance", [circuit.RESISTOR_TOLERANCE_PERCENT, 5.0])
def test_resistor_tolerance_keeps_every_direct_position_inside_the_host_s_band(builds, tolerance, capsys) -> None:
    margins = analysis.monte_carlo(builds.system, design_bands(), tolerance, trials=5000)
    worst = analysis.worst(margins)
    with capsys.disabled():
        print(f"\ndirect build, {tolerance:g} % resistors: worst margin {worst.codes(10):.1f} codes (10-bit "
              f"MCP3008), {worst.wheel} wheel position {worst.position}")
    assert worst.codes(10) > 4
    assert {m.controller for m in margins} == {c.id for c in circuit.DIRECT_CONTROLLERS}


def test_the_monte_carlo_sees_a_band_too_narrow_for_the_parts(builds) -> None:
    lows, highs = firmware_bands()["number"]
    centres = analysis.nominal_u16(builds.usb)[("", "number")]
    narrow = {w: firmware_bands()[w] for w in WHEEL_ORDER}
    narrow["number"] = ([c - 100 for c in centres], [c + 100 for c in centres])
    worst = analysis.worst(analysis.monte_carlo(builds.usb, narrow, 1.0, trials=2000))
    assert worst.wheel == "number" and worst.margin_u16 < 0
    assert lows and highs
