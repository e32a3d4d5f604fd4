"""Whether the data files and documents say what the circuit says.

The circuit (:mod:`controller.hardware.circuit`) is what gets soldered. The same facts are written
again where the software and people read them: ``hardware/ladders.toml`` (string resistors, the
pull-down, and the nominal readings the firmware's and the host's uncalibrated bands are built
from), the pin maps, the README's ladder table, the bills of materials and the wiring tables.
:func:`disagreements` lists every place that says something else, with what it says and what it
should say, so that a value changed in one place names all the others.

>>> disagreements()
[]
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from controller.dials.ladders import WHEEL_ORDER, load_design, read_toml
from controller.dials.pinmap import load_direct_pinmap, load_usb_pinmap
from controller.hardware import analysis, circuit
from controller.hardware.circuit import Board
from controller.paths import HARDWARE_DIR, PROJECT_ROOT


@dataclasses.dataclass(frozen=True)
class Disagreement:
    """One place (file and key or table row) that does not say what the circuit says."""

    path: Path
    key: str
    says: str
    circuit_says: str

    def __str__(self) -> str:
        try:
            where = self.path.relative_to(PROJECT_ROOT)
        except ValueError:
            where = self.path
        return f"{where} [{self.key}] says {self.says}; the circuit says {self.circuit_says}: change it to match"


@dataclasses.dataclass
class Builds:
    """The circuits compared: by default the ones :mod:`circuit` describes."""

    usb: Board
    controller: Board
    adc_board: Board
    system: Board

    @classmethod
    def default(cls, **changes) -> "Builds":
        """The builds, with ``ladder_ohms``, ``pulldown_ohms`` or ``usb_pins`` changed if given."""
        ladder = changes.get("ladder_ohms", circuit.LADDER_OHMS)
        pulldown = changes.get("pulldown_ohms", circuit.PULLDOWN_OHMS)
        pins = changes.get("usb_pins", circuit.USB_PINS)
        controllers = changes.get("controllers", circuit.DIRECT_CONTROLLERS)
        return cls(circuit.usb_controller(ladder, pins, pulldown), circuit.direct_controller(ladder),
                   circuit.direct_adc_board(controllers=controllers, pulldown_ohms=pulldown),
                   circuit.direct_system(ladder, controllers=controllers, pulldown_ohms=pulldown))


def _unit_value(text: str) -> float | None:
    """``"1 kΩ 1 %"`` -> 1000.0, ``"10 nF"`` -> 1e-8, ``"10 µF, 6.3 V"`` -> 1e-5."""
    match = re.match(r"\s*([\d.]+)\s*([kMnµup]?)\s*(Ω|F)", text)
    if not match:
        return None
    scale = {"": 1, "k": 1e3, "M": 1e6, "n": 1e-9, "µ": 1e-6, "u": 1e-6, "p": 1e-12}[match.group(2)]
    return _key(float(match.group(1)) * scale)


def _key(value: float) -> float:
    """A part value rounded to the six significant digits a marking can hold (1e-7, not 1.0000000000000001e-07)."""
    return float(f"{value:.6g}")


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-12)


def _values_text(value: float, unit: str) -> str:
    """A value as the bills of materials write it: 1 kΩ, 330 Ω, 10 nF, 10 µF."""
    text = circuit.ohms_text(value) if unit == "Ω" else circuit.farads_text(value).replace("u", "µ")
    number, prefix = re.match(r"([\d.]+)(\D*)", text).groups()
    return f"{number} {prefix}{unit}"


def part_counts(board: Board) -> Counter:
    """``(kind, value)`` -> how many: kind "resistor" (ohms) or "capacitor" (farads)."""
    counts: Counter = Counter()
    for part in board.circuit.parts:
        if getattr(part, "ohms", None) is not None:
            counts[("resistor", _key(part.ohms))] += 1
        elif getattr(part, "farads", None) is not None:
            counts[("capacitor", _key(part.farads))] += 1
    return counts


def _bom_sections(path: Path) -> dict[str, Counter]:
    """Per ``## `` section of a bill of materials, the resistor and capacitor rows' quantities."""
    sections: dict[str, Counter] = {}
    name = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## ") or line.startswith("For the table"):
            name = line.lstrip("# ").rstrip(":").strip()
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].isdigit() and cells[1] in ("resistor", "capacitor"):
            value = _unit_value(cells[2])
            if value is not None:
                sections.setdefault(name, Counter())[(cells[1], value)] += int(cells[0])
    return sections


def _compare_bom(path: Path, section: str, found: Counter, board: Board) -> list[Disagreement]:
    wanted = part_counts(board)
    out = []
    for key in sorted(set(found) | set(wanted)):
        kind, value = key
        if found.get(key, 0) != wanted.get(key, 0):
            text = _values_text(value, "Ω" if kind == "resistor" else "F")
            out.append(Disagreement(path, f"{section or 'parts'}: {kind} {text}", f"{found.get(key, 0)}",
                                    f"{wanted.get(key, 0)} ({board.title})"))
    return out


def _ladders_toml(builds: Builds, path: Path) -> list[Disagreement]:
    data = read_toml(path)
    out = []
    ladders = builds.usb.ladders
    strings = {w: [int(r.ohms) for r in ladders[w].resistors] for w in WHEEL_ORDER}
    singles = {v for values in strings.values() for v in values}
    parts = data.get("parts", {})
    if len(singles) == 1 and parts.get("string_resistor_ohms") != next(iter(singles)):
        out.append(Disagreement(path, "parts.string_resistor_ohms", repr(parts.get("string_resistor_ohms")),
                                repr(next(iter(singles)))))
    for key, value in (("pulldown_ohms", circuit.PULLDOWN_OHMS), ("tolerance_percent", circuit.RESISTOR_TOLERANCE_PERCENT),
                       ("input_capacitor_nf", circuit.INPUT_FILTER_FARADS * 1e9)):
        if key == "pulldown_ohms":
            value = _pulldown(builds.usb)
        if not isinstance(parts.get(key), (int, float)) or not _same(float(parts[key]), float(value)):
            out.append(Disagreement(path, f"parts.{key}", repr(parts.get(key)), f"{value:g}"))
    volts = analysis.nominal_volts(builds.usb)
    u16 = analysis.nominal_u16(builds.usb)
    for wheel in WHEEL_ORDER:
        table = data.get("wheels", {}).get(wheel, {})
        if table.get("resistors_ohms") != strings[wheel]:
            out.append(Disagreement(path, f"wheels.{wheel}.resistors_ohms", repr(table.get("resistors_ohms")),
                                    repr(strings[wheel])))
        want_v = [round(v, 3) for v in volts[("", wheel)]]
        have_v = table.get("nominal_volts")
        if not isinstance(have_v, list) or len(have_v) != len(want_v) or any(
                abs(a - b) > 0.0015 for a, b in zip(have_v, want_v)):
            out.append(Disagreement(path, f"wheels.{wheel}.nominal_volts", repr(have_v), repr(want_v)))
        have_u = table.get("nominal_u16")
        want_u = u16[("", wheel)]
        if not isinstance(have_u, list) or len(have_u) != len(want_u) or any(
                abs(a - b) > 1 for a, b in zip(have_u, want_u)):
            out.append(Disagreement(
                path, f"wheels.{wheel}.nominal_u16 (the firmware's and the host's uncalibrated bands)",
                repr(have_u), repr(want_u)))
    return out


def _pulldown(board: Board) -> float:
    ladder = next(iter(board.ladders.values()))
    net = ladder.common_pin().net
    for pin in net.pins:
        if getattr(pin.part, "ohms", None) is not None and pin.part not in ladder.resistors:
            return float(pin.part.ohms)
    raise ValueError(f"no pull-down on {net.name}")


def _readme(builds: Builds, path: Path) -> list[Disagreement]:
    text = path.read_text(encoding="utf-8")
    out = []
    volts = analysis.nominal_volts(builds.usb)
    for wheel in WHEEL_ORDER:
        ladder = builds.usb.ladders[wheel]
        row = re.search(rf"^\|\s*{wheel}\s*\|\s*(\d+)\s*\|\s*(\d+)\s*×\s*([^|]+?)\s*\|\s*([\d. ]+?)\s*\|\s*$", text, re.M)
        values = {int(r.ohms) for r in ladder.resistors}
        want_res = f"{len(ladder.resistors)} × {circuit.ohms_text(next(iter(values)))}Ω" if len(values) == 1 else "mixed"
        want_v = " ".join(f"{v:.3f}" for v in volts[("", wheel)])
        if not row:
            out.append(Disagreement(path, f"ladder table, {wheel} row", "nothing", f"| {wheel} | {ladder.positions} | "
                                    f"{want_res} | {want_v} |"))
            continue
        have_res = f"{row.group(2)} × {row.group(3).replace(' ', '')}"
        if int(row.group(1)) != ladder.positions or have_res != want_res:
            out.append(Disagreement(path, f"ladder table, {wheel} row, resistors",
                                    f"{row.group(1)} positions, {have_res}", f"{ladder.positions} positions, {want_res}"))
        have_v = [float(v) for v in row.group(4).split()]
        if len(have_v) != ladder.positions or any(abs(a - float(b)) > 0.0015 for a, b in zip(have_v, want_v.split())):
            out.append(Disagreement(path, f"ladder table, {wheel} row, position voltages", row.group(4), want_v))
    pulldown = f"{circuit.ohms_text(_pulldown(builds.usb))}Ω".replace("k", " k")
    match = re.search(r"\*\*([\d.]+ ?[kM]?Ω) pull-down\*\*", text)
    if not match or match.group(1).replace(" ", "") != pulldown.replace(" ", ""):
        out.append(Disagreement(path, "Wheel ladders: the pull-down", match.group(1) if match else "nothing", pulldown))
    led = re.search(r"GPIO → ([\d.]+ ?[kM]?Ω) → LED anode", text)
    want_led = f"{circuit.ohms_text(circuit.LED_OHMS)} Ω"
    if not led or led.group(1).replace(" ", "") != want_led.replace(" ", ""):
        out.append(Disagreement(path, "Ready button and LED: the LED resistor", led.group(1) if led else "nothing", want_led))
    return out


def _pinmaps(builds: Builds, usb_path: Path, direct_path: Path) -> list[Disagreement]:
    out = []
    usb = load_usb_pinmap(usb_path)
    pico_gpio = {}
    for role, net in [(w, builds.usb.wheel_input(w)) for w in WHEEL_ORDER] + [
            ("button", _net(builds.usb, "BTN")), ("led", _net(builds.usb, "LED"))]:
        pins = [p for p in net.pins if p.part.name == "Pico"]
        pico_gpio[role] = int(pins[0].name[2:]) if len(pins) == 1 else None
    for wheel in WHEEL_ORDER:
        if usb.wheel_pins[wheel] != pico_gpio[wheel]:
            out.append(Disagreement(usb_path, f"wheels.{wheel}.pin", f"GP{usb.wheel_pins[wheel]}", f"GP{pico_gpio[wheel]}"))
    for role, have in (("button", usb.button_pin), ("led", usb.led_pin)):
        if have != pico_gpio[role]:
            out.append(Disagreement(usb_path, f"{role}.pin", f"GP{have}", f"GP{pico_gpio[role]}"))
    direct = load_direct_pinmap(direct_path)
    if direct.chip_model != builds.system.chip_model:
        out.append(Disagreement(direct_path, "adc.chip", direct.chip_model, builds.system.chip_model))
    system = builds.system
    for c in direct.controllers:
        if c.id not in system.controllers:
            out.append(Disagreement(direct_path, f"controllers id {c.id}", "a controller", "no such controller"))
            continue
        for wheel in WHEEL_ORDER:
            chip_pins = [p for p in system.wheel_input(wheel, c.id).pins if p.part.ref_prefix == "U"]
            circuit_says = f"{chip_pins[0].part.ref} CH{chip_pins[0].name[2:]}" if len(chip_pins) == 1 else "no single ADC input"
            says = f"{c.wheels[wheel].chip} CH{c.wheels[wheel].channel}"
            if says != circuit_says:
                out.append(Disagreement(direct_path, f"controllers id {c.id}, {wheel}", says, circuit_says))
        for role, have in (("button", c.button), ("led", c.led)):
            gpio = _header_gpio_of(_net(system, f"C{c.id}_{role.upper()}"))
            if have != gpio:
                out.append(Disagreement(direct_path, f"controllers id {c.id}, {role}", f"GPIO {have}", f"GPIO {gpio}"))
    for ref, table in direct.chips.items():
        bus = circuit.DIRECT_CHIPS.get(ref)
        if bus is None:
            out.append(Disagreement(direct_path, f"adc.chips.{ref}", "a chip", "no such chip"))
            continue
        if "port" in table:
            want = {"port": 0, "device": {8: 0, 7: 1}.get(bus["select"], -1)}
            if bus["clock"] != 11 or table != want:
                out.append(Disagreement(direct_path, f"adc.chips.{ref}", repr(table), repr(bus)))
        else:
            have = {k.removesuffix("_pin"): v for k, v in table.items()}
            if have != dict(bus):
                out.append(Disagreement(direct_path, f"adc.chips.{ref}", repr(table), repr(bus)))
    return out


def _net(board: Board, name: str):
    for net in board.circuit.nets:
        if net.name == name:
            return net
    raise KeyError(f"no net {name} in {board.title}")


def _header_gpio_of(net) -> int | None:
    for pin in net.pins:
        if pin.part.name == "Raspberry_Pi_2_3":
            match = re.search(r"GPIO(\d+)", pin.name)
            if match:
                return int(match.group(1))
    return None


def _wiring_direct(builds: Builds, path: Path) -> list[Disagreement]:
    text = path.read_text(encoding="utf-8").partition("## Per controller")[2].partition("\n## ")[0]
    out = []
    for c in circuit.DIRECT_CONTROLLERS:
        row = re.search(rf"^\|\s*{c.id}\s*\|\s*(\w+)\s*\|([^\n]*)$", text, re.M)
        chans = " | ".join(f"{c.chip} CH{c.channel(w)}" for w in WHEEL_ORDER)
        want = f"{chans} | GPIO {c.button} | GPIO {c.led}"
        if not row:
            out.append(Disagreement(path, f"Per controller, row {c.id}", "nothing", want))
            continue
        cells = [x.strip() for x in row.group(2).strip().strip("|").split("|")]
        have = " | ".join(cells[:3] + [re.sub(r"\s*\(\d+\)", "", x) for x in cells[3:5]])
        if have != want:
            out.append(Disagreement(path, f"Per controller, row {c.id}", have, want))
    return out


def _wiring_usb(builds: Builds, path: Path) -> list[Disagreement]:
    text = path.read_text(encoding="utf-8")
    out = []
    for role, net in [(w, builds.usb.wheel_input(w)) for w in WHEEL_ORDER] + [
            ("button", _net(builds.usb, "BTN")), ("led", _net(builds.usb, "LED"))]:
        for pin in (p for p in net.pins if p.part.name == "Pico"):
            if not re.search(rf"^\|\s*{pin.num}\s*\|\s*{pin.name}\b", text, re.M):
                out.append(Disagreement(path, f"Pico connections, {role}", "another pin", f"pin {pin.num}, {pin.name}"))
    return out


#: Every place compared, by what it reads.
CHECKS: dict[str, Callable[[Builds], list[Disagreement]]] = {
    "ladders.toml": lambda b: _ladders_toml(b, HARDWARE_DIR / "ladders.toml"),
    "README.md": lambda b: _readme(b, HARDWARE_DIR / "README.md"),
    "pin maps": lambda b: _pinmaps(b, HARDWARE_DIR / "pinmap-usb.toml", HARDWARE_DIR / "pinmap-direct.toml"),
    "bom-usb.md": lambda b: [d for section, found in _bom_sections(HARDWARE_DIR / "bom-usb.md").items()
                             if not section for d in _compare_bom(HARDWARE_DIR / "bom-usb.md", section, found, b.usb)],
    "bom-direct.md": lambda b: _bom_direct(b, HARDWARE_DIR / "bom-direct.md"),
    "wiring-usb.md": lambda b: _wiring_usb(b, HARDWARE_DIR / "wiring-usb.md"),
    "wiring-direct.md": lambda b: _wiring_direct(b, HARDWARE_DIR / "wiring-direct.md"),
}


def _bom_direct(builds: Builds, path: Path) -> list[Disagreement]:
    sections = _bom_sections(path)
    out = []
    for section, board in (("Per controller (up to 6)", builds.controller),
                           ("ADC board (one, on the Pi's header)", builds.adc_board)):
        out += _compare_bom(path, section, sections.get(section, Counter()), board)
    return out


def disagreements(builds: Builds | None = None) -> list[Disagreement]:
    """Every place that does not say what the circuit says (nothing when all agree)."""
    builds = builds or Builds.default()
    out: list[Disagreement] = []
    for check in CHECKS.values():
        out += check(builds)
    return out


def design_bands() -> dict[str, tuple[list[int], list[int]]]:
    """The bands an uncalibrated controller accepts, as the host builds them from ``ladders.toml``."""
    design = load_design()
    return {w: (list(design.nominal_ladder(w).lows), list(design.nominal_ladder(w).highs)) for w in WHEEL_ORDER}


def firmware_bands() -> dict[str, tuple[list[int], list[int]]]:
    """The bands the controller board's firmware accepts until calibrated (its ``config.json``)."""
    from firmware.board.ladder import Ladder
    from firmware.board_config import build_config

    config = build_config()
    ladders = {w: Ladder.from_list(config["ladders"][w]) for w in WHEEL_ORDER}
    return {w: (list(l.lows), list(l.highs)) for w, l in ladders.items()}
