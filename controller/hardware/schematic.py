"""Schematic drawings of the builds, drawn with schemdraw from the circuits themselves.

Every reference, value, pin and net name in a drawing is read from the :class:`~controller.hardware.circuit.Board`
it draws, so a drawing regenerated after a change to the circuit shows the change (``bitbox hardware draw``;
a test fails while the committed pictures differ from what the circuit draws).

Wires between distant parts are drawn as net labels, as KiCad does: two pins with the same label are
connected.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

from controller.dials.ladders import WHEEL_ORDER, load_design
from controller.hardware import circuit
from controller.hardware.circuit import Board, Ladder

schemdraw.use("svg")

#: Drawings written by :func:`draw_all`, by file name.
DRAWINGS = ("schematic-usb.svg", "schematic-direct-controller.svg", "schematic-direct-adc-board.svg")

_FONT = 11
_STEP = 1.6          # vertical distance between two taps of a ladder


def _value(part) -> str:
    return f"{part.ref}\n{part.value}"


def _ladder(d: schemdraw.Drawing, ladder: Ladder, x: float, top_label: str, ground_label: str,
            adc_label: str, labels: Iterable[str], pulldown=None, capacitor=None) -> None:
    """A wheel's string from the top rail down to ground, its switch's ways and wiper, its ADC input."""
    labels = list(labels)
    d.add(elm.Vdd(label=top_label).at((x, 0)))
    d.add(elm.Resistor().down(_STEP).label(_value(ladder.resistors[0]), loc="bottom", fontsize=_FONT - 2))
    contacts = {}
    for k, resistor in enumerate(ladder.resistors[1:]):
        position = ladder.positions - 1 - k
        tap = d.here
        d.push()
        d.add(elm.Line().right(1.2).at(tap))
        contacts[position] = d.add(elm.Dot(open=True).label(f"{position + 1}: {labels[position]}", loc="right",
                                                            fontsize=_FONT - 2))
        d.pop()
        d.add(elm.Dot())
        d.add(elm.Resistor().down(_STEP).label(_value(resistor), loc="bottom", fontsize=_FONT - 2))
    d.add(elm.Ground().label(ground_label, loc="right", fontsize=_FONT - 2))
    middle = contacts[ladder.positions // 2].center
    common = (x + 5.2, middle[1])
    d.add(elm.Dot().at(common).label(f"{ladder.switch.ref} C", loc="right", fontsize=_FONT - 2))
    d.add(elm.Arrow(lw=1.2).at(common).to(contacts[0].center))
    d.add(elm.Line().at(common).down(ladder.positions * _STEP / 2 + 0.6))
    node = d.here
    if pulldown is not None:
        d.push()
        d.add(elm.Resistor().down(2.4).label(_value(pulldown), loc="bottom", fontsize=_FONT - 2))
        d.add(elm.Ground())
        d.pop()
        d.add(elm.Line().right(2.2).at(node))
        d.push()
        d.add(elm.Capacitor().down(2.4).label(_value(capacitor), loc="bottom", fontsize=_FONT - 2))
        d.add(elm.Ground())
        d.pop()
        d.add(elm.Line().right(0.8))
    else:
        d.add(elm.Line().right(1.2).at(node))
    d.add(elm.Dot().label(adc_label, loc="right", fontsize=_FONT - 1))
    d.add(elm.Label().at((x + 4.5, ladder.positions * -_STEP - 3.8)).label(
        f"{ladder.switch.ref}: {ladder.wheel} wheel, {ladder.switch.value}", fontsize=_FONT))


def _parts_on(net, prefix: str) -> list:
    return [p.part for p in net.pins if p.part.ref_prefix == prefix]


def _input_filter(net, ladder: Ladder):
    """The pull-down and capacitor on a wheel's ADC input net."""
    pulls = [p for p in _parts_on(net, "R") if p not in ladder.resistors]
    caps = _parts_on(net, "C")
    return (pulls[0] if pulls else None), (caps[0] if caps else None)


def _pin_label(pin) -> str:
    return f"{pin.name} (pin {pin.num})"


def draw_usb(board: Board) -> schemdraw.Drawing:
    """The USB controller: the Pico, its three ladders, the button and the LED."""
    labels = {w: load_design().wheels[w].labels for w in WHEEL_ORDER}
    d = schemdraw.Drawing(show=False, fontsize=_FONT)
    pico = next(p for p in board.circuit.parts if p.name == "Pico")
    x = 0.0
    for wheel in WHEEL_ORDER:
        ladder = board.ladders[wheel]
        net = ladder.common_pin().net
        pin = next(p for p in net.pins if p.part is pico)
        pull, cap = _input_filter(net, ladder)
        _ladder(d, ladder, x, "3V3", "AGND", f"{net.name} → {pico.ref} {_pin_label(pin)}", labels[wheel], pull, cap)
        x += 16
    pins = [p for p in pico.pins if p.is_connected() and p.net.name != "__NOCONNECT" and not p.net.__class__.__name__ == "NCNet"]
    ic_pins = [elm.IcPin(name=f"{p.name} ({p.num})", side="left", pin=p.num) for p in pins]
    d.add(elm.Ic(pins=ic_pins, size=(4.6, 0.8 * len(pins) + 0.4)).at((x + 4, -2)).anchor("pin" + pins[0].num))
    ic = d.elements[-1]
    d.add(elm.Label().at((x + 6.3, -2 + 0.8 * len(pins) + 0.8)).label(f"{pico.ref}: Raspberry Pi Pico", fontsize=_FONT))
    for p in pins:
        d.add(elm.Line().left(1.2).at(getattr(ic, "pin" + p.num)))
        d.add(elm.Label().label(p.net.name, loc="left", fontsize=_FONT - 1))
    bottom = ic.bbox.ymin - 3.0 if hasattr(ic, "bbox") else -20
    btn_net = next(n for n in board.circuit.nets if n.name == "BTN")
    led_net = next(n for n in board.circuit.nets if n.name == "LED")
    button = _parts_on(btn_net, "SW")[0]
    led_r = _parts_on(led_net, "R")[0]
    led = next(p for p in board.circuit.parts if p.name == "LED")
    y = min(-circuit.WHEEL_POSITIONS["number"] * _STEP - 8, -24)
    d.add(elm.Dot().at((x, y)).label(btn_net.name, loc="left", fontsize=_FONT - 1))
    d.add(elm.Button().down(2.4).label(f"{button.ref}\n{button.value}", loc="bottom", fontsize=_FONT - 2))
    d.add(elm.Ground().label("GND", loc="right", fontsize=_FONT - 2))
    d.add(elm.Dot().at((x + 6, y)).label(led_net.name, loc="left", fontsize=_FONT - 1))
    d.add(elm.Resistor().down(2.4).label(_value(led_r), loc="bottom", fontsize=_FONT - 2))
    d.add(elm.LED().down(2.4).label(f"{led.ref}\n{led.value}", loc="bottom", fontsize=_FONT - 2))
    d.add(elm.Ground().label("GND", loc="right", fontsize=_FONT - 2))
    decoupling = [p for p in _parts_on(next(n for n in board.circuit.nets if n.name == "3V3"), "C")]
    for i, cap in enumerate(decoupling):
        d.add(elm.Vdd(label="3V3").at((x + 12 + 4 * i, y)))
        d.add(elm.Capacitor().down(2.4).label(_value(cap), loc="bottom", fontsize=_FONT - 2))
        d.add(elm.Ground().label("AGND", loc="right", fontsize=_FONT - 2))
    del bottom
    return d


def draw_direct_controller(board: Board) -> schemdraw.Drawing:
    """A direct-build controller: three ladders, button and LED, all ending at its RJ45 jack."""
    labels = {w: load_design().wheels[w].labels for w in WHEEL_ORDER}
    d = schemdraw.Drawing(show=False, fontsize=_FONT)
    jack = next(p for p in board.circuit.parts if p.name == "8P8C")
    x = 0.0
    for wheel in WHEEL_ORDER:
        ladder = board.ladders[wheel]
        net = ladder.common_pin().net
        pin = next(p for p in net.pins if p.part is jack)
        _ladder(d, ladder, x, "3V3", "GND", f"{net.name} → {jack.ref} pin {pin.num}", labels[wheel])
        x += 14
    ic_pins = [elm.IcPin(name=f"{num}: {jack[str(num)].net.name}", side="left", pin=str(num))
               for num in sorted(circuit.RJ45_SIGNALS)]
    d.add(elm.Ic(pins=ic_pins, size=(4.2, 7.0), label=f"{jack.ref}\n{jack.value}", lblsize=_FONT).at((x + 4, -2))
          .anchor("pin1"))
    ic = d.elements[-1]
    for num in sorted(circuit.RJ45_SIGNALS):
        d.add(elm.Line().left(1.2).at(getattr(ic, f"pin{num}")))
        d.add(elm.Label().label(jack[str(num)].net.name, loc="left", fontsize=_FONT - 1))
    y = min(-circuit.WHEEL_POSITIONS["number"] * _STEP - 8, -24)
    button = next(p for p in board.circuit.parts if p.name == "SW_Push")
    led = next(p for p in board.circuit.parts if p.name == "LED")
    btn_net, led_net = button[1].net, next(p for p in board.circuit.parts
                                           if getattr(p, "ohms", None) == circuit.LED_OHMS)[1].net
    led_r = _parts_on(led_net, "R")[0]
    d.add(elm.Dot().at((x, y)).label(btn_net.name, loc="left", fontsize=_FONT - 1))
    d.add(elm.Button().down(2.4).label(f"{button.ref}\n{button.value}", loc="bottom", fontsize=_FONT - 2))
    d.add(elm.Ground().label("GND", loc="right", fontsize=_FONT - 2))
    d.add(elm.Dot().at((x + 6, y)).label(led_net.name, loc="left", fontsize=_FONT - 1))
    d.add(elm.Resistor().down(2.4).label(_value(led_r), loc="bottom", fontsize=_FONT - 2))
    d.add(elm.LED().down(2.4).label(f"{led.ref}\n{led.value}", loc="bottom", fontsize=_FONT - 2))
    d.add(elm.Ground().label("GND", loc="right", fontsize=_FONT - 2))
    return d


def draw_direct_adc_board(board: Board) -> schemdraw.Drawing:
    """The direct build's ADC board: the Pi header's pins in use, the chips, the jacks, one input's filter."""
    d = schemdraw.Drawing(show=False, fontsize=_FONT)
    header = next(p for p in board.circuit.parts if p.name == "Raspberry_Pi_2_3")
    used = [p for p in sorted(header.pins, key=lambda p: int(p.num))
            if p.net is not None and p.net.__class__.__name__ != "NCNet"]
    ic_pins = [elm.IcPin(name=f"{p.name} ({p.num})", side="right", pin=p.num) for p in used]
    d.add(elm.Ic(pins=ic_pins, size=(5.0, 0.7 * len(used) + 0.4)).at((0, 0)).anchor("pin" + used[0].num))
    ic = d.elements[-1]
    d.add(elm.Label().at((-2.5, 0.7 * len(used) + 1.0)).label(f"{header.ref}: Raspberry Pi 40-pin header", fontsize=_FONT))
    for p in used:
        d.add(elm.Line().right(1.2).at(getattr(ic, "pin" + p.num)))
        d.add(elm.Label().label(p.net.name, loc="right", fontsize=_FONT - 1))
    chips = sorted((p for p in board.circuit.parts if p.ref_prefix == "U"), key=lambda p: p.ref)
    x = 14.0
    for chip in chips:
        pins = sorted(chip.pins, key=lambda p: int(p.num))
        ic_pins = [elm.IcPin(name=p.name.replace("~{CS}", "CS"), side="left" if int(p.num) <= 8 else "right",
                             pin=p.num) for p in pins]
        d.add(elm.Ic(pins=ic_pins, size=(3.6, 6.0), label=f"{chip.ref}\n{chip.value}", lblsize=_FONT)
              .at((x, 0)).anchor("pin1"))
        ic = d.elements[-1]
        for p in pins:
            left = int(p.num) <= 8
            d.add(elm.Line().at(getattr(ic, "pin" + p.num)).left(1.0) if left else
                  elm.Line().at(getattr(ic, "pin" + p.num)).right(1.0))
            d.add(elm.Label().label(p.net.name, loc="left" if left else "right", fontsize=_FONT - 1))
        x += 13
    inputs = [n for n in board.circuit.nets if n.name.startswith("C") and n.name.split("_")[-1] in circuit.WHEEL_NET.values()]
    inputs.sort(key=lambda n: n.name)
    example = inputs[0]
    pull = next(p.part for p in example.pins if getattr(p.part, "ohms", None) == circuit.PULLDOWN_OHMS)
    cap = next(p.part for p in example.pins if getattr(p.part, "farads", None) == circuit.INPUT_FILTER_FARADS)
    y = -8.0
    d.add(elm.Dot().at((14, y)).label(example.name, loc="left", fontsize=_FONT - 1))
    d.push()
    d.add(elm.Resistor().down(2.4).label(_value(pull), loc="bottom", fontsize=_FONT - 2))
    d.add(elm.Ground())
    d.pop()
    d.add(elm.Line().right(2.4))
    d.add(elm.Capacitor().down(2.4).label(_value(cap), loc="bottom", fontsize=_FONT - 2))
    d.add(elm.Ground())
    d.add(elm.Label().at((20, y - 1.2)).label(
        f"the same {circuit.ohms_text(circuit.PULLDOWN_OHMS)} + {circuit.farads_text(circuit.INPUT_FILTER_FARADS)}F "
        f"on each of the {len(inputs)} inputs:\n" + ", ".join(n.name for n in inputs), halign="left", fontsize=_FONT - 2))
    jacks = sorted((p for p in board.circuit.parts if p.name == "8P8C"), key=lambda p: int(p.ref[1:]))
    for i, jack in enumerate(jacks):
        rows = "\n".join(f"{n}: {jack[str(n)].net.name}" for n in sorted(circuit.RJ45_SIGNALS))
        d.add(elm.Label().at((14 + 8 * i, -14)).label(f"{jack.ref} ({jack.value})\n{rows}", halign="left",
                                                        valign="top", fontsize=_FONT - 1))
    return d


def draw_all(folder: Path) -> list[Path]:
    """Write every drawing as SVG into ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    boards = {"schematic-usb.svg": (draw_usb, circuit.usb_controller),
              "schematic-direct-controller.svg": (draw_direct_controller, circuit.direct_controller),
              "schematic-direct-adc-board.svg": (draw_direct_adc_board, circuit.direct_adc_board)}
    out = []
    for name in DRAWINGS:
        draw, build = boards[name]
        path = folder / name
        path.write_bytes(draw(build()).get_imagedata("svg"))
        out.append(path)
    return out
