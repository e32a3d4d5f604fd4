"""The two reference builds as circuits: parts, values and connections, in SKiDL.

This is the schematic of the controllers, written once. The part values below are the ones to
solder; ``hardware/ladders.toml``, the pin maps, the bills of materials and the README say the same
things for the software and for people, and :mod:`controller.hardware.agreement` checks that they do.

- :func:`usb_controller`: one controller of the USB build (a Raspberry Pi Pico, three wheel ladders,
  the ready button and its LED).
- :func:`direct_controller`: one controller of the direct build (ladders, button, LED and an RJ45
  jack, nothing else).
- :func:`direct_adc_board`: the direct build's ADC board on the Pi's header (MCP3208 or MCP3008
  chips, the inputs' pull-downs and filters, one RJ45 jack per controller).
- :func:`direct_system`: that board with its six controllers plugged in, for the checks that
  need the whole path from a switch to an ADC input.

Each function returns a :class:`Board`: the SKiDL circuit with what the checks need to find in it
(which net each wheel is read on, each ladder's resistors and switch). Every part carries its
electrical value as a number (``ohms``, ``farads``), and pins that must stay unconnected are marked
so, so that SKiDL's electrical rules check (:func:`check`) reports any pin left unwired. Three rules
are added to SKiDL's own: a net joining two supply rails (a short), a net holding two controller
pins, and a controller pin doing two jobs (both show as one net with two roles).

>>> board = usb_controller()
>>> [str(f) for f in check(board)]
[]
>>> board.wheel_input("number").name, len(board.ladders["number"].resistors)
('NUM', 11)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping

from controller.dials.ladders import WHEEL_ORDER
from controller.dials.state import WHEEL_POSITIONS
from controller.hardware.eda import Finding, run_erc, skidl

Pin = skidl.Pin
Net = skidl.Net

# --- Values: what to solder -------------------------------------------------------------------

#: Each wheel's string of resistors from 3V3 (top) down to ground (bottom): N + 1 for N positions.
LADDER_OHMS: dict[str, tuple[int, ...]] = {
    "direction": (1000,) * 9,
    "number": (1000,) * 11,
    "symbol": (1000,) * 5,
}
#: Tolerance of every resistor (metal film).
RESISTOR_TOLERANCE_PERCENT = 1.0
#: ADC input to ground: the pull-down that makes an open switch read 0 V.
PULLDOWN_OHMS = 100_000
#: ADC input to ground: the filter capacitor.
INPUT_FILTER_FARADS = 10e-9
#: 3V3 to ground next to the ladders (USB build) or the chips' VDD and VREF (direct build).
DECOUPLING_FARADS = 100e-9
#: The direct build's 3V3 rail reservoir.
RAIL_RESERVOIR_FARADS = 10e-6
#: GPIO to the LED's anode.
LED_OHMS = 330
#: The direct build's chip-select pull-ups.
CHIP_SELECT_PULLUP_OHMS = 10_000

#: USB build: what each Pico pin does (RP2040 GPIO names).
USB_PINS: dict[str, str] = {"direction": "GP26", "number": "GP27", "symbol": "GP28", "button": "GP15", "led": "GP14"}

#: Direct build: the ADC chips (MCP3208 or MCP3008, DIP-16) and the Pi GPIOs (BCM numbers) of
#: their SPI buses: U1 and U2 on the hardware SPI0 (chip selects CE0 and CE1), U3 bit-banged.
DIRECT_CHIP_MODEL = "MCP3208"
DIRECT_CHIPS: dict[str, dict[str, int]] = {
    "U1": {"clock": 11, "mosi": 10, "miso": 9, "select": 8},
    "U2": {"clock": 11, "mosi": 10, "miso": 9, "select": 7},
    "U3": {"clock": 21, "mosi": 20, "miso": 19, "select": 18},
}


@dataclasses.dataclass(frozen=True)
class DirectController:
    """One controller of the direct build: its GPIOs and the chip and first channel of its wheels
    (direction, number and symbol on three consecutive channels)."""

    id: str
    colour: str
    button: int
    led: int
    chip: str
    first_channel: int

    def channel(self, wheel: str) -> int:
        return self.first_channel + WHEEL_ORDER.index(wheel)


DIRECT_CONTROLLERS: tuple[DirectController, ...] = (
    DirectController("1", "red", 4, 17, "U1", 0),
    DirectController("2", "blue", 5, 22, "U1", 3),
    DirectController("3", "green", 6, 23, "U2", 0),
    DirectController("4", "yellow", 12, 24, "U2", 3),
    DirectController("5", "purple", 13, 25, "U3", 0),
    DirectController("6", "orange", 16, 27, "U3", 3),
)

#: The controller cable: RJ45 pin -> signal (straight patch cable, the same on both ends).
RJ45_SIGNALS: dict[int, str] = {1: "3V3", 2: "GND", 3: "direction", 4: "number", 5: "symbol",
                                6: "button", 7: "led", 8: "GND"}

#: Short net names of the wheel inputs.
WHEEL_NET = {"direction": "DIR", "number": "NUM", "symbol": "SYM"}

# --- Footprints (KiCad's standard libraries) ----------------------------------------------------

FOOTPRINTS = {
    "R": "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal",
    "C": "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P2.50mm",
    "CP": "Capacitor_THT:CP_Radial_D5.0mm_P2.00mm",
    "LED": "LED_THT:LED_D5.0mm",
    "SW_Push": "Button_Switch_THT:SW_PUSH_6mm",
    "SW_Rotary": "Connector_PinHeader_2.54mm:PinHeader_1x13_P2.54mm_Vertical",
    "Pico": "Module:RaspberryPi_Pico_Common_THT",
    "DIP16": "Package_DIP:DIP-16_W7.62mm_Socket",
    "RJ45": "Connector_RJ:RJ45_Amphenol_54602-x08_Horizontal",
    "PiHeader": "Connector_PinSocket_2.54mm:PinSocket_2x20_P2.54mm_Vertical",
}

# --- The Raspberry Pi Pico (not in KiCad's symbol libraries) ------------------------------------

#: Pico header pins (1 to 40), from the Raspberry Pi Pico datasheet's pinout.
PICO_PINS: dict[int, str] = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND", 9: "GP6",
    10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13",
    18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19",
    26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND",
    34: "GP28", 35: "ADC_VREF", 36: "3V3", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}

#: Supply rails: pins that are a rail's source, by (part name, pin name).
RAIL_PINS: dict[tuple[str, str], str] = {
    ("Pico", "3V3"): "3V3", ("Pico", "GND"): "GND", ("Pico", "AGND"): "GND", ("Pico", "VSYS"): "VSYS",
    ("Pico", "VBUS"): "VBUS", ("Raspberry_Pi_2_3", "3V3"): "3V3", ("Raspberry_Pi_2_3", "5V"): "5V",
    ("Raspberry_Pi_2_3", "GND"): "GND",
}


def _pico_template():
    types = Pin.types
    pins = []
    for num, name in PICO_PINS.items():
        if name in ("GND", "AGND"):
            func = types.PASSIVE
        elif name == "3V3":
            func = types.PWROUT
        elif name in ("VSYS", "VBUS", "ADC_VREF"):
            func = types.PWRIN
        else:
            func = types.BIDIR
        pins.append(Pin(num=str(num), name=name, func=func))
    return skidl.Part(name="Pico", tool=skidl.SKIDL, dest=skidl.TEMPLATE, ref_prefix="U",
                      description="Raspberry Pi Pico (RP2040 module)", footprint=FOOTPRINTS["Pico"], pins=pins)


# --- The circuits -------------------------------------------------------------------------------


@dataclasses.dataclass
class Ladder:
    """One wheel's ladder as built: its switch, its string resistors (top to bottom), the net the
    switch's common pin is on and the ways in use (way 1 = position 0)."""

    wheel: str
    switch: object
    resistors: list
    common: object
    positions: int

    def way_pin(self, position: int):
        return self.switch[str(position + 1)]

    def common_pin(self):
        return self.switch["13"]


@dataclasses.dataclass
class Board:
    """A built circuit: the SKiDL circuit, its title, the supply voltage, and per wheel its ladder
    (for the direct system: per controller id)."""

    title: str
    circuit: object
    ladders: dict[str, Ladder]
    supply_volts: float = 3.3
    controllers: dict[str, dict[str, Ladder]] = dataclasses.field(default_factory=dict)
    chip_model: str = ""

    def wheel_input(self, wheel: str, controller: str | None = None):
        """The net a wheel's switch common (the ADC input) is on."""
        ladder = self.controllers[controller][wheel] if controller else self.ladders[wheel]
        return ladder.common_pin().net

    def parts(self, prefix: str | None = None) -> list:
        return [p for p in self.circuit.parts if prefix is None or p.ref_prefix == prefix]

    def all_ladders(self) -> Iterable[tuple[str, str, Ladder]]:
        """``(controller id or "", wheel, ladder)`` for every ladder of the board."""
        if self.controllers:
            for cid, ladders in self.controllers.items():
                for wheel, ladder in ladders.items():
                    yield cid, wheel, ladder
        else:
            for wheel, ladder in self.ladders.items():
                yield "", wheel, ladder


def ohms_text(ohms: float) -> str:
    """A resistor value as it is marked: 330, 1k, 4k7, 100k."""
    for unit, scale in (("M", 1e6), ("k", 1e3)):
        if ohms >= scale:
            whole, rest = divmod(round(ohms / scale * 10), 10)
            return f"{whole}{unit}{rest if rest else ''}"
    return f"{ohms:g}"


def farads_text(farads: float) -> str:
    """A capacitor value as it is marked: 10n, 100n, 10u."""
    for unit, scale in (("u", 1e-6), ("n", 1e-9), ("p", 1e-12)):
        if farads >= scale * 0.999:
            return f"{farads / scale:g}{unit}"
    return f"{farads:g}"


class _Builder:
    """Adds parts to one SKiDL circuit, tagging pins with the rail or role they stand for."""

    def __init__(self) -> None:
        self.circuit = skidl.Circuit()
        self.circuit.no_files = True
        self.circuit.add_erc_function(_rail_and_role_rules)

    def part(self, lib: str, name: str, footprint: str, value: str = "", **numbers: float):
        part = skidl.Part(lib, name, tool=skidl.SKIDL, circuit=self.circuit, footprint=footprint, value=value or name)
        for key, number in numbers.items():
            setattr(part, key, number)
        return part

    def net(self, name: str, power: bool = False):
        net = Net(name, circuit=self.circuit)
        if power:
            net.drive = skidl.POWER
        return net

    def resistor(self, ohms: float, a, b, role: str = ""):
        r = self.part("Device", "R", FOOTPRINTS["R"], f"{ohms_text(ohms)} {RESISTOR_TOLERANCE_PERCENT:g}%", ohms=ohms)
        a += r[1]
        b += r[2]
        if role:
            r[1].role = role
        return r

    def capacitor(self, farads: float, a, b, polarised: bool = False):
        c = self.part("Device", "C_Polarized" if polarised else "C", FOOTPRINTS["CP" if polarised else "C"],
                      farads_text(farads), farads=farads)
        a += c[1]
        b += c[2]
        return c

    def ladder(self, wheel: str, resistors: tuple[int, ...], top, bottom, common) -> Ladder:
        """A wheel's switch with its resistors soldered lug to lug: bottom resistor from ground to way
        1, one between neighbouring ways, the top one from the last way used to 3V3."""
        positions = WHEEL_POSITIONS[wheel]
        switch = self.part("Switch", "SW_Rotary_1x12", FOOTPRINTS["SW_Rotary"],
                           f"1P12T non-shorting, stop at {positions}")
        common += switch["13"]
        switch["13"].role = f"{wheel} wheel"
        string = []
        below = bottom
        for way in range(1, positions + 1):
            tap = self.net(f"{WHEEL_NET[wheel]}_W{way}")
            tap += switch[str(way)]
            string.append(self.resistor(resistors[positions + 1 - way], tap, below))
            below = tap
        string.append(self.resistor(resistors[0], top, below))
        string.reverse()
        for way in range(positions + 1, 13):
            switch[str(way)] += self.circuit.NC
        return Ladder(wheel, switch, string, common, positions)

    def pushbutton(self, signal, ground, role: str):
        button = self.part("Switch", "SW_Push", FOOTPRINTS["SW_Push"], "ready button")
        signal += button[1]
        ground += button[2]
        button[1].role = role
        return button

    def led(self, signal, ground, role: str):
        anode = self.net(f"{signal.name}_A")
        self.resistor(LED_OHMS, signal, anode, role=role)
        led = self.part("Device", "LED", FOOTPRINTS["LED"], "5 mm LED")
        anode += led["A"]
        ground += led["K"]
        return led


def _checked_ladder_ohms(ladder_ohms: Mapping[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
    out = {}
    for wheel in WHEEL_ORDER:
        values = tuple(ladder_ohms[wheel])
        if len(values) != WHEEL_POSITIONS[wheel] + 1:
            raise ValueError(f"the {wheel} wheel has {WHEEL_POSITIONS[wheel]} positions and needs "
                             f"{WHEEL_POSITIONS[wheel] + 1} string resistors, not {len(values)}")
        out[wheel] = values
    return out


def usb_controller(ladder_ohms: Mapping[str, tuple[int, ...]] = LADDER_OHMS,
                   pins: Mapping[str, str] = USB_PINS, pulldown_ohms: float = PULLDOWN_OHMS) -> Board:
    """One controller of the USB build: a Pico reads the three ladders, the button and drives the LED."""
    ladder_ohms = _checked_ladder_ohms(ladder_ohms)
    b = _Builder()
    pico = _pico_template()(circuit=b.circuit)
    v33, agnd, gnd = b.net("3V3"), b.net("AGND", power=True), b.net("GND", power=True)
    v33 += pico["3V3"]
    agnd += pico["AGND"]
    gnd_pins = [p for p in pico.pins if p.name == "GND"]
    gnd += gnd_pins[-1]
    gnd_pins[-1].role = "ground"
    for spare in gnd_pins[:-1]:
        spare += b.circuit.NC
    b.capacitor(DECOUPLING_FARADS, v33, agnd)
    ladders = {}
    for wheel in WHEEL_ORDER:
        adc = b.net(WHEEL_NET[wheel])
        adc += pico[pins[wheel]]
        ladders[wheel] = b.ladder(wheel, ladder_ohms[wheel], v33, agnd, adc)
        b.resistor(pulldown_ohms, adc, agnd)
        b.capacitor(INPUT_FILTER_FARADS, adc, agnd)
    btn, led = b.net("BTN"), b.net("LED")
    btn += pico[pins["button"]]
    led += pico[pins["led"]]
    b.pushbutton(btn, gnd, "button")
    b.led(led, gnd, "LED")
    used = {pins[k] for k in pins} | {"3V3", "AGND", "GND"}
    for pin in pico.pins:
        if pin.name not in used:
            pin += b.circuit.NC
    return Board("USB controller (Raspberry Pi Pico)", b.circuit, ladders)


def _controller_parts(b: _Builder, nets: Mapping[str, object], ladder_ohms: Mapping[str, tuple[int, ...]],
                      who: str = "controller", jack: bool = True) -> dict[str, Ladder]:
    """A direct-build controller on the cable's nets: ladders, button, LED and its own RJ45 jack."""
    ladders = {wheel: b.ladder(wheel, ladder_ohms[wheel], nets["3V3"], nets["GND"], nets[wheel])
               for wheel in WHEEL_ORDER}
    b.pushbutton(nets["button"], nets["GND"], f"{who} button")
    b.led(nets["led"], nets["GND"], f"{who} LED")
    if jack:
        socket = b.part("Connector", "8P8C", FOOTPRINTS["RJ45"], "RJ45 to the ADC board")
        for pin, signal in RJ45_SIGNALS.items():
            nets[signal] += socket[str(pin)]
    return ladders


def direct_controller(ladder_ohms: Mapping[str, tuple[int, ...]] = LADDER_OHMS) -> Board:
    """One controller of the direct build, seen alone: everything ends at its RJ45 jack."""
    ladder_ohms = _checked_ladder_ohms(ladder_ohms)
    b = _Builder()
    nets = {"3V3": b.net("3V3", power=True), "GND": b.net("GND", power=True)}
    for signal in ("direction", "number", "symbol", "button", "led"):
        nets[signal] = b.net(WHEEL_NET.get(signal, signal.upper()))
    ladders = _controller_parts(b, nets, ladder_ohms)
    return Board("Direct-build controller", b.circuit, ladders)


def _header_gpio(header, gpio: int):
    for pin in header.pins:
        if re.search(rf"(^|/)GPIO{gpio}($|/)", pin.name):
            return pin
    raise ValueError(f"GPIO {gpio} is not on the Raspberry Pi header")


def _adc_board(b: _Builder, chip_model: str, chips: Mapping[str, Mapping[str, int]],
               controllers: Iterable[DirectController], pulldown_ohms: float) -> dict[str, dict[str, object]]:
    header = b.part("Connector", "Raspberry_Pi_2_3", FOOTPRINTS["PiHeader"], "Raspberry Pi 40-pin header")
    v33, gnd = b.net("3V3", power=True), b.net("GND", power=True)
    for pin in header.pins:
        if pin.name == "3V3":
            v33 += pin
        elif pin.name == "GND":
            gnd += pin
    b.capacitor(RAIL_RESERVOIR_FARADS, v33, gnd, polarised=True)
    spi_nets: dict[tuple[str, int], object] = {}

    def gpio_net(gpio: int, name: str):
        if ("gpio", gpio) not in spi_nets:
            net = b.net(name)
            pin = _header_gpio(header, gpio)
            net += pin
            spi_nets[("gpio", gpio)] = net
        return spi_nets[("gpio", gpio)]

    chip_parts = {}
    for ref, bus in chips.items():
        chip = b.part("Analog_ADC", chip_model, FOOTPRINTS["DIP16"], chip_model)
        # Dout is high-impedance while the chip is not selected (datasheet, "Serial
        # communications"): the chips on one bus share MISO.
        chip["Dout"].func = Pin.types.TRISTATE
        chip_parts[ref] = chip
        v33 += chip["Vdd"], chip["Vref"]
        gnd += chip["AGND"], chip["DGND"]
        b.capacitor(DECOUPLING_FARADS, v33, gnd)
        b.capacitor(DECOUPLING_FARADS, v33, gnd)
        cs = gpio_net(bus["select"], f"{ref}_CS")
        cs += chip["~{CS}/SHDN"]
        b.resistor(CHIP_SELECT_PULLUP_OHMS, cs, v33)
        for job, chip_pin in (("clock", "CLK"), ("mosi", "Din"), ("miso", "Dout")):
            net = gpio_net(bus[job], f"SPI_{job.upper()}_{bus[job]}")
            net += chip[chip_pin]
    _tag_header_roles(header, chips)
    cable_nets: dict[str, dict[str, object]] = {}
    used_channels: set[tuple[str, int]] = set()
    for c in controllers:
        nets = {"3V3": v33, "GND": gnd}
        socket = b.part("Connector", "8P8C", FOOTPRINTS["RJ45"], f"RJ45 controller {c.id}")
        for wheel in WHEEL_ORDER:
            net = b.net(f"C{c.id}_{WHEEL_NET[wheel]}")
            channel = c.channel(wheel)
            net += chip_parts[c.chip][f"CH{channel}"]
            used_channels.add((c.chip, channel))
            b.resistor(pulldown_ohms, net, gnd)
            b.capacitor(INPUT_FILTER_FARADS, net, gnd)
            nets[wheel] = net
        for signal, gpio in (("button", c.button), ("led", c.led)):
            net = b.net(f"C{c.id}_{signal.upper()}")
            pin = _header_gpio(header, gpio)
            net += pin
            _add_role(pin, f"controller {c.id} {'button' if signal == 'button' else 'LED'}")
            nets[signal] = net
        for pin, signal in RJ45_SIGNALS.items():
            nets[signal] += socket[str(pin)]
        cable_nets[c.id] = nets
    for ref, chip in chip_parts.items():
        for channel in range(8):
            if (ref, channel) not in used_channels:
                gnd += chip[f"CH{channel}"]
    for pin in header.pins:
        if not pin.is_connected():
            pin += b.circuit.NC
    return cable_nets


def _add_role(pin, role: str) -> None:
    """Say what job a pin does; a second, different job is kept too, for the rules to report."""
    known = getattr(pin, "role", "")
    if known and role not in known.split(" + "):
        pin.role = f"{known} + {role}"
    else:
        pin.role = role


def _tag_header_roles(header, chips: Mapping[str, Mapping[str, int]]) -> None:
    for ref, bus in chips.items():
        for job, gpio in bus.items():
            _add_role(_header_gpio(header, gpio), f"{ref} chip select" if job == "select" else f"SPI {job}")


def direct_adc_board(chip_model: str = DIRECT_CHIP_MODEL, chips: Mapping[str, Mapping[str, int]] = DIRECT_CHIPS,
                     controllers: Iterable[DirectController] = DIRECT_CONTROLLERS,
                     pulldown_ohms: float = PULLDOWN_OHMS) -> Board:
    """The direct build's ADC board alone: every controller signal ends at its RJ45 jack."""
    b = _Builder()
    _adc_board(b, chip_model, chips, controllers, pulldown_ohms)
    return Board(f"Direct-build ADC board ({chip_model})", b.circuit, {}, chip_model=chip_model)


def direct_system(ladder_ohms: Mapping[str, tuple[int, ...]] = LADDER_OHMS, chip_model: str = DIRECT_CHIP_MODEL,
                  chips: Mapping[str, Mapping[str, int]] = DIRECT_CHIPS,
                  controllers: Iterable[DirectController] = DIRECT_CONTROLLERS,
                  pulldown_ohms: float = PULLDOWN_OHMS) -> Board:
    """The ADC board with every controller plugged in (each cable a straight 8-wire patch cable)."""
    ladder_ohms = _checked_ladder_ohms(ladder_ohms)
    controllers = tuple(controllers)
    b = _Builder()
    cable_nets = _adc_board(b, chip_model, chips, controllers, pulldown_ohms)
    per_controller = {c.id: _controller_parts(b, cable_nets[c.id], ladder_ohms, f"controller {c.id}", jack=False)
                      for c in controllers}
    return Board(f"Direct build ({chip_model}, {len(controllers)} controllers)", b.circuit, {},
                 controllers=per_controller, chip_model=chip_model)


# --- Rules added to SKiDL's ERC -----------------------------------------------------------------


def _rail(pin) -> str | None:
    return RAIL_PINS.get((pin.part.name, pin.name))


def _pin_text(pin) -> str:
    return f"{pin.part.ref} pin {pin.num} ({pin.name})" if pin.name not in ("~", pin.num) else f"{pin.part.ref} pin {pin.num}"


def _rail_and_role_rules(circuit) -> None:
    """A net joining two rails is a short; a net with two controller pins, or two jobs, is a pin used twice."""
    from skidl.logger import active_logger
    from skidl.net import NCNet

    nets = {n.name: n for n in circuit.nets if not isinstance(n, NCNet)}
    for net in nets.values():
        pins = list(net.pins)
        rails = sorted({r for r in map(_rail, pins) if r})
        if len(rails) > 1:
            active_logger.error(f"Shorted rails: {' and '.join(rails)} are joined on net {net.name} "
                                f"({', '.join(_pin_text(p) for p in pins if _rail(p))}).")
        controller_pins = [p for p in pins if p.part.name in ("Pico", "Raspberry_Pi_2_3") and not _rail(p)]
        if len(controller_pins) > 1:
            active_logger.error(f"Pin used twice: net {net.name} joins {', '.join(map(_pin_text, controller_pins))}.")
        roles = sorted({r for p in pins for r in str(getattr(p, "role", "")).split(" + ") if r})
        jobs = {r for r in roles if r not in ("SPI clock", "SPI mosi", "SPI miso")}
        if len(jobs) > 1 or any(" + " in str(getattr(p, "role", "")) for p in pins):
            where = ", ".join(_pin_text(p) for p in controller_pins) or net.name
            active_logger.error(f"Pin used twice: {where} is wired as {' and '.join(roles)}.")


def check(board: Board) -> list[Finding]:
    """The electrical rules check of a board: SKiDL's rules and ours, every warning and error."""
    return run_erc(board.circuit)
