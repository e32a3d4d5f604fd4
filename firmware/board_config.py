"""The board's ``config.json``, built on the host from the project's data files.

``bitbox firmware flash`` copies it next to the firmware. It gathers what the board needs and
cannot read itself (MicroPython has no TOML reader): the pins of ``hardware/pinmap-usb.toml``,
the nominal ladders and debounce times of ``hardware/ladders.toml``, and the firmware's own
timings from ``firmware/settings.toml``.

>>> config = build_config()
>>> [w["pin"] for w in config["wheels"]], config["button"]["pin"]
([26, 27, 28], 15)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.dials.ladders import WHEEL_ORDER, DataFileError, get, load_design, read_toml
from controller.dials.pinmap import load_usb_pinmap
from controller.paths import FIRMWARE_DIR, HARDWARE_DIR
from firmware.board.storage import CONFIG_SCHEMA, parse_config

DEFAULT_PINMAP = HARDWARE_DIR / "pinmap-usb.toml"
DEFAULT_LADDERS = HARDWARE_DIR / "ladders.toml"
DEFAULT_SETTINGS = FIRMWARE_DIR / "settings.toml"

#: Keys of settings.toml and the least each may be.
SETTINGS_MIN = {"scan_hz": 500, "heartbeat_ms": 10, "blink_ms": 20, "between_ms": 10}


def load_settings(path: Path | str = DEFAULT_SETTINGS) -> dict[str, int]:
    """The firmware timings, checked; :class:`DataFileError` names the key at fault."""
    path = Path(path)
    data = read_toml(path)
    settings = {}
    for key, least in SETTINGS_MIN.items():
        value = get(data, path, key, int)
        if value < least:
            raise DataFileError(path, key, f"{value} is below the least usable value {least}", f"use {least} or more")
        settings[key] = value
    return settings


def build_config(pinmap: Path | str = DEFAULT_PINMAP, ladders: Path | str = DEFAULT_LADDERS,
                 settings: Path | str = DEFAULT_SETTINGS) -> dict[str, Any]:
    """config.json's contents for a USB controller board; :class:`DataFileError` names a bad key."""
    pinmap = Path(pinmap)
    data = read_toml(pinmap)
    build = get(data, pinmap, "build", str)
    if build != "usb":
        raise DataFileError(pinmap, "build", f"this pin map is for the {build!r} build, not a USB controller board",
                            "use hardware/pinmap-usb.toml or a copy of it")
    pins = load_usb_pinmap(pinmap)
    design = load_design(ladders)
    timings = design.timings
    config: dict[str, Any] = {
        "schema": CONFIG_SCHEMA,
        "wheels": [{"name": name, "pin": pins.wheel_pins[name], "positions": design.wheel(name).positions}
                   for name in WHEEL_ORDER],
        "button": {"pin": pins.button_pin, "active_low": get(data, pinmap, "button.active_low", bool, True)},
        "led": {"pin": pins.led_pin, "active_high": get(data, pinmap, "led.active_high", bool, True)},
        "average": int(timings.average),
        "wheel_settle_ms": int(timings.wheel_settle_ms),
        "button_press_ms": int(timings.button_press_ms),
        "button_release_ms": int(timings.button_release_ms),
        "ladders": {name: ladder.to_list() for name, ladder in design.nominal_ladders().items()},
    }
    config.update(load_settings(settings))
    return parse_config(config)


def write_config(config: dict[str, Any], path: Path | str) -> Path:
    """Write ``config`` as compact JSON (the board has little flash and RAM)."""
    path = Path(path)
    path.write_text(json.dumps(config, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    return path


def usb_identity(pinmap: Path | str = DEFAULT_PINMAP) -> tuple[int, int]:
    """``(vid, pid)`` of a controller board on USB, from the pin map."""
    pins = load_usb_pinmap(pinmap)
    return pins.vid, pins.pid
