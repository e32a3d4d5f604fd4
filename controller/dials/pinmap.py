"""Pin maps of the two reference builds, read from ``hardware/pinmap-direct.toml`` and ``pinmap-usb.toml``.

>>> pinmap = load_direct_pinmap()
>>> pinmap.chip_model, len(pinmap.controllers), pinmap.controllers[0].wheels["number"]
('MCP3208', 6, AdcInput(chip='U1', channel=1))
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from controller.dials.ladders import WHEEL_ORDER, DataFileError, get, read_toml
from controller.paths import HARDWARE_DIR

DIRECT_PINMAP = HARDWARE_DIR / "pinmap-direct.toml"
USB_PINMAP = HARDWARE_DIR / "pinmap-usb.toml"

#: ADC chips the direct build supports, with their channel counts (gpiozero class names).
CHIP_MODELS: dict[str, int] = {"MCP3008": 8, "MCP3208": 8}

#: Most controllers one Pi reads.
MAX_CONTROLLERS = 6


@dataclasses.dataclass(frozen=True)
class AdcInput:
    """One ADC channel: the chip's name in the pin map and the channel on it."""

    chip: str
    channel: int


@dataclasses.dataclass(frozen=True)
class DirectController:
    """One controller of the direct build."""

    id: str
    colour: str
    button: int
    led: int
    wheels: dict[str, AdcInput]


@dataclasses.dataclass(frozen=True)
class DirectPinmap:
    """The direct build: ADC chips (gpiozero SPI arguments by chip name) and controllers."""

    path: Path
    chip_model: str
    vref_volts: float
    chips: dict[str, dict[str, int]]
    controllers: tuple[DirectController, ...]

    def controller(self, controller_id: str) -> DirectController:
        for c in self.controllers:
            if c.id == controller_id:
                return c
        raise DataFileError(self.path, "controllers", f"no controller with id {controller_id!r}",
                            f"ids are {', '.join(c.id for c in self.controllers)}")


def _pin(data: dict[str, Any], path: Path, key: str) -> int:
    pin = get(data, path, key, int)
    if not 0 <= pin <= 27:
        raise DataFileError(path, key, f"GPIO {pin} is not on the Pi's header (GPIO 0 to 27)", "use a BCM GPIO number")
    return pin


def load_direct_pinmap(path: Path | str = DIRECT_PINMAP) -> DirectPinmap:
    """Read and check the direct build's pin map: no pin or ADC channel used twice."""
    path = Path(path)
    data = read_toml(path)
    model = get(data, path, "adc.chip", str).upper()
    if model not in CHIP_MODELS:
        raise DataFileError(path, "adc.chip", f"unsupported ADC {model!r}", f"use one of {', '.join(CHIP_MODELS)}")
    vref = float(get(data, path, "adc.vref_volts", (int, float), 3.3))
    chips: dict[str, dict[str, int]] = {}
    used_pins: dict[int, str] = {}

    def claim(pin: int, what: str, key: str) -> None:
        if pin in used_pins:
            raise DataFileError(path, key, f"GPIO {pin} is used twice ({used_pins[pin]} and {what})",
                                "give each a pin of its own")
        used_pins[pin] = what

    for name, table in get(data, path, "adc.chips", dict).items():
        key = f"adc.chips.{name}"
        if not isinstance(table, dict):
            raise DataFileError(path, key, "expected a table")
        if "port" in table:
            spi = {"port": get(data, path, f"{key}.port", int), "device": get(data, path, f"{key}.device", int)}
            if spi["port"] != 0 or spi["device"] not in (0, 1):
                raise DataFileError(path, key, "hardware SPI is port 0, device 0 (CE0) or 1 (CE1)",
                                    "use those or give clock_pin, mosi_pin, miso_pin and select_pin")
        else:
            spi = {k: _pin(data, path, f"{key}.{k}") for k in ("clock_pin", "mosi_pin", "miso_pin", "select_pin")}
            for k in ("clock_pin", "mosi_pin", "miso_pin", "select_pin"):
                if k == "select_pin" or spi[k] not in (11, 10, 9):
                    claim(spi[k], f"{name} {k}", f"{key}.{k}")
        chips[name] = spi
    controllers: list[DirectController] = []
    used_channels: dict[tuple[str, int], str] = {}
    entries = get(data, path, "controllers", list)
    if not 1 <= len(entries) <= MAX_CONTROLLERS:
        raise DataFileError(path, "controllers", f"{len(entries)} controllers listed", f"list 1 to {MAX_CONTROLLERS}")
    for i, entry in enumerate(entries):
        key = f"controllers[{i}]"
        if not isinstance(entry, dict):
            raise DataFileError(path, key, "expected a table")
        cid = str(get(entry, path, "id", (str, int)))
        if any(c.id == cid for c in controllers):
            raise DataFileError(path, f"{key}.id", f"controller id {cid!r} is used twice", "give each a unique id")
        button = _pin(entry, path, "button")
        led = _pin(entry, path, "led")
        claim(button, f"controller {cid} button", f"{key}.button")
        claim(led, f"controller {cid} LED", f"{key}.led")
        wheels: dict[str, AdcInput] = {}
        for wheel in WHEEL_ORDER:
            wkey = f"{key}.{wheel}"
            chip = get(entry, path, f"{wheel}.chip", str)
            channel = get(entry, path, f"{wheel}.channel", int)
            if chip not in chips:
                raise DataFileError(path, f"{wkey}.chip", f"no ADC chip named {chip!r}",
                                    f"chips are {', '.join(chips)} (see [adc.chips])")
            if not 0 <= channel < CHIP_MODELS[model]:
                raise DataFileError(path, f"{wkey}.channel", f"channel {channel} does not exist on a {model}",
                                    f"use 0 to {CHIP_MODELS[model] - 1}")
            if (chip, channel) in used_channels:
                raise DataFileError(path, f"{wkey}.channel",
                                    f"{chip} channel {channel} is already read by {used_channels[(chip, channel)]}",
                                    "give each wheel its own channel")
            used_channels[(chip, channel)] = f"controller {cid} {wheel}"
            wheels[wheel] = AdcInput(chip, channel)
        controllers.append(DirectController(cid, str(entry.get("colour", "")), button, led, wheels))
    return DirectPinmap(path, model, vref, chips, tuple(controllers))


@dataclasses.dataclass(frozen=True)
class UsbPinmap:
    """The USB build's board pins: ADC channel per wheel, button and LED GPIOs, USB identity."""

    path: Path
    adc_channels: dict[str, int]
    wheel_pins: dict[str, int]
    button_pin: int
    led_pin: int
    vid: int
    pid: int


def load_usb_pinmap(path: Path | str = USB_PINMAP) -> UsbPinmap:
    path = Path(path)
    data = read_toml(path)
    channels: dict[str, int] = {}
    pins: dict[str, int] = {}
    for wheel in WHEEL_ORDER:
        pin = get(data, path, f"wheels.{wheel}.pin", int)
        channel = get(data, path, f"wheels.{wheel}.adc_channel", int)
        if pin not in (26, 27, 28) or channel != pin - 26:
            raise DataFileError(path, f"wheels.{wheel}", f"GP{pin} / ADC{channel} is not an RP2040 ADC input pair",
                                "use GP26/ADC0, GP27/ADC1 or GP28/ADC2")
        channels[wheel] = channel
        pins[wheel] = pin
    if len(set(channels.values())) != len(channels):
        raise DataFileError(path, "wheels", "two wheels share an ADC input", "give each wheel its own")
    button = get(data, path, "button.pin", int)
    led = get(data, path, "led.pin", int)
    for key, pin in (("button.pin", button), ("led.pin", led)):
        if not 0 <= pin <= 29 or pin in pins.values():
            raise DataFileError(path, key, f"GP{pin} is not a free RP2040 GPIO", "use GP0 to GP22")
    if button == led:
        raise DataFileError(path, "led.pin", "the LED and the button share a pin", "give each its own")
    return UsbPinmap(path, channels, pins, button, led, get(data, path, "usb.vid", int), get(data, path, "usb.pid", int))
