"""Mock controllers on gpiozero's mock pins: MCP3xxx ADCs that answer with ladder voltages.

gpiozero ships mock pins and a mock SPI slave base (:class:`MockSPIDevice`) but no ADC. The
:class:`MockMcp3xxx` here speaks the MCP3008/MCP3208 protocol bit by bit on the mock SPI pins,
so :class:`gpiozero.MCP3008` / :class:`gpiozero.MCP3208` read it exactly as they read a chip.
:class:`MockWiring` puts one on every chip of a direct-build pin map and turns wheels, presses
buttons and reads LEDs the way a player and a multimeter would.

>>> from gpiozero.pins.mock import MockFactory
>>> wiring = MockWiring(MockFactory())
>>> wiring.turn("1", "number", 7)
"""

from __future__ import annotations

import random
from typing import Any

from gpiozero.pins.mock import MockSPIDevice

from controller.dials.ladders import LadderDesign, load_design
from controller.dials.pinmap import DirectPinmap, load_direct_pinmap
from firmware.board.ladder import FULL_SCALE

#: gpiozero's hardware SPI port 0 pins (BCM numbers), for chips given as port/device.
SPI0 = {"clock_pin": 11, "mosi_pin": 10, "miso_pin": 9, "select": (8, 7)}


class MockMcp3xxx(MockSPIDevice):
    """An MCP3008 (10-bit) or MCP3208 (12-bit) on mock SPI pins.

    ``volts[channel]`` is the voltage on each input; ``noise_lsb`` adds Gaussian noise of that
    many codes RMS to each conversion (seeded, so tests repeat).
    """

    def __init__(self, clock_pin: int, mosi_pin: int, miso_pin: int, select_pin: int, *, bits: int = 10,
                 vref: float = 3.3, noise_lsb: float = 0.0, seed: int = 0, pin_factory: Any = None) -> None:
        super().__init__(clock_pin, mosi_pin, miso_pin, select_pin, pin_factory=pin_factory)
        self.bits = bits
        self.vref = vref
        self.volts = [0.0] * 8
        self.noise_lsb = noise_lsb
        self.random = random.Random(seed)
        self.conversions = 0
        self._phase = "idle"

    def code(self, channel: int) -> int:
        """The code a conversion of ``channel`` gives now."""
        top = (1 << self.bits) - 1
        value = self.volts[channel] / self.vref * top
        if self.noise_lsb:
            value += self.random.gauss(0.0, self.noise_lsb)
        return max(0, min(top, int(round(value))))

    def on_start(self) -> None:
        super().on_start()
        self._phase = "idle"

    def on_bit(self) -> None:
        # Start bit (1), single/differential bit, 3 channel bits; then a null bit and the result.
        if self._phase == "idle":
            if self.rx_buf[-1]:
                self._phase = "mode"
                self.rx_buf = []
        elif self._phase == "mode":
            self._phase = "channel"
            self.rx_buf = []
        elif self._phase == "channel" and len(self.rx_buf) == 3:
            self.conversions += 1
            self.tx_word(self.code(self.rx_word()), self.bits + 2)
            self._phase = "result"


class MockWiring:
    """Mock ADCs, buttons and LEDs for every controller of a direct-build pin map.

    Wheel voltages follow the ladder design's nominal readings, optionally offset by
    ``offset_u16`` per wheel (a ladder whose resistors are off); a wheel between positions
    reads 0 V (the pull-down), as does an unplugged controller.
    """

    def __init__(self, factory: Any, pinmap: DirectPinmap | None = None, design: LadderDesign | None = None,
                 noise_lsb: float = 0.0, seed: int = 0) -> None:
        self.factory = factory
        self.pinmap = pinmap or load_direct_pinmap()
        self.design = design or load_design()
        bits = self.design.adc(self.pinmap.chip_model).bits
        self.chips: dict[str, MockMcp3xxx] = {}
        for i, (name, spi) in enumerate(self.pinmap.chips.items()):
            if "port" in spi:
                pins = (SPI0["clock_pin"], SPI0["mosi_pin"], SPI0["miso_pin"], SPI0["select"][spi["device"]])
            else:
                pins = (spi["clock_pin"], spi["mosi_pin"], spi["miso_pin"], spi["select_pin"])
            self.chips[name] = MockMcp3xxx(*pins, bits=bits, vref=self.pinmap.vref_volts, noise_lsb=noise_lsb,
                                           seed=seed + i, pin_factory=factory)
            # Chip selects idle high (deselected) until the Pi drives them, as a pull-up makes them.
            self.chips[name].select_pin.drive_high()
        self.positions: dict[tuple[str, str], int | None] = {}
        self.plugged: dict[str, bool] = {c.id: True for c in self.pinmap.controllers}
        self.offset_u16: dict[tuple[str, str], int] = {}

    def wheel_volts(self, controller_id: str, wheel: str, position: int | None) -> float:
        if position is None or not self.plugged[controller_id]:
            return 0.0
        u16 = self.design.wheel(wheel).nominal_u16[position] + self.offset_u16.get((controller_id, wheel), 0)
        return max(0.0, min(FULL_SCALE, u16)) / FULL_SCALE * self.pinmap.vref_volts

    def _apply(self, controller_id: str) -> None:
        spec = self.pinmap.controller(controller_id)
        for wheel, inp in spec.wheels.items():
            pos = self.positions.get((controller_id, wheel))
            self.chips[inp.chip].volts[inp.channel] = self.wheel_volts(controller_id, wheel, pos)

    def turn(self, controller_id: str, wheel: str, position: int | None) -> None:
        """Set a wheel on ``position`` (``None``: between two positions, no contact)."""
        if position is not None and not 0 <= position < self.design.wheel(wheel).positions:
            raise ValueError(f"the {wheel} wheel has no position {position}")
        self.positions[(controller_id, wheel)] = position
        self._apply(controller_id)

    def set_volts(self, controller_id: str, wheel: str, volts: float) -> None:
        """Force a wheel's input voltage (a fault, a half-made contact)."""
        inp = self.pinmap.controller(controller_id).wheels[wheel]
        self.chips[inp.chip].volts[inp.channel] = volts

    def button_pin(self, controller_id: str) -> Any:
        return self.factory.pin(self.pinmap.controller(controller_id).button)

    def press(self, controller_id: str) -> None:
        self.button_pin(controller_id).drive_low()

    def release(self, controller_id: str) -> None:
        self.button_pin(controller_id).drive_high()

    def led(self, controller_id: str) -> bool:
        """Whether the LED is lit now."""
        return bool(self.factory.pin(self.pinmap.controller(controller_id).led).state)

    def unplug(self, controller_id: str) -> None:
        """Pull the controller's plug: its wheels read 0 V and its button line floats up (released)."""
        self.plugged[controller_id] = False
        self._apply(controller_id)
        self.release(controller_id)

    def replug(self, controller_id: str) -> None:
        self.plugged[controller_id] = True
        self._apply(controller_id)

    def close(self) -> None:
        for chip in self.chips.values():
            chip.close()
