"""The circuits pass their electrical rules check, and the check catches what it must."""

from __future__ import annotations

import dataclasses

import pytest

from controller.hardware import circuit


@pytest.fixture(scope="module")
def boards():
    return {"usb": circuit.usb_controller(), "controller": circuit.direct_controller(),
            "adc board": circuit.direct_adc_board(), "system": circuit.direct_system(),
            "system with MCP3008": circuit.direct_system(chip_model="MCP3008")}


def test_every_build_passes_its_electrical_rules_check(boards) -> None:
    for name, board in boards.items():
        assert [str(f) for f in circuit.check(board)] == [], name


def test_an_unconnected_pin_is_reported() -> None:
    board = circuit.usb_controller()
    button = next(p for p in board.circuit.parts if p.name == "SW_Push")
    button[2].disconnect()
    findings = [str(f) for f in circuit.check(board)]
    assert any("Unconnected pin" in f and button.ref in f for f in findings), findings


def test_a_shorted_rail_is_reported() -> None:
    board = circuit.usb_controller()
    nets = {n.name: n for n in board.circuit.nets}
    nets["3V3"] += nets["GND"]
    findings = [str(f) for f in circuit.check(board)]
    assert any(f.startswith("error: Shorted rails: 3V3 and GND") for f in findings), findings


def test_a_pico_pin_used_twice_is_reported() -> None:
    board = circuit.usb_controller(pins=dict(circuit.USB_PINS, led="GP15"))
    findings = [str(f) for f in circuit.check(board)]
    assert any("Pin used twice: U1 pin 20 (GP15) is wired as LED and button" in f for f in findings), findings


def test_a_pi_gpio_used_twice_is_reported() -> None:
    controllers = list(circuit.DIRECT_CONTROLLERS)
    controllers[1] = dataclasses.replace(controllers[1], led=controllers[0].button)
    findings = [str(f) for f in circuit.check(circuit.direct_system(controllers=controllers))]
    assert any("Pin used twice" in f and "controller 1 button and controller 2 LED" in f for f in findings), findings


def test_a_wheel_input_on_two_pico_pins_is_reported() -> None:
    board = circuit.usb_controller()
    nets = {n.name: n for n in board.circuit.nets}
    nets["DIR"] += nets["NUM"]
    findings = [str(f) for f in circuit.check(board)]
    assert any("Pin used twice: net" in f and "GP26" in f and "GP27" in f for f in findings), findings


def test_a_ladder_with_the_wrong_number_of_resistors_is_refused() -> None:
    with pytest.raises(ValueError, match="the number wheel has 10 positions and needs 11 string resistors, not 10"):
        circuit.usb_controller(dict(circuit.LADDER_OHMS, number=(1000,) * 10))


def test_the_kicad_netlist_names_every_part_and_net(boards) -> None:
    from controller.hardware.eda import netlist

    text = netlist(boards["usb"].circuit)
    assert text.startswith("(export")
    for part in boards["usb"].circuit.parts:
        assert f'(ref "{part.ref}")' in text
    for name in ("DIR", "NUM", "SYM", "BTN", "LED", "3V3", "AGND", "GND"):
        assert f'(name "{name}")' in text
