"""The wheels' resistor-ladder design and debounce timings, read from ``hardware/ladders.toml``.

The design gives each wheel's positions and string resistors; from them comes the *nominal*
ladder (what an uncalibrated controller uses) and, per ADC model, the codes to keep band edges
away from. Errors name the file, the key and what to do.

>>> design = load_design()
>>> design.wheels["number"].positions
10
>>> design.nominal_ladder("symbol").classify(design.wheels["symbol"].nominal_u16[2])
2
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

from controller.dials.backend import ControllerError
from controller.dials.state import WHEEL_POSITIONS
from controller.paths import HARDWARE_DIR
from firmware.board.ladder import FULL_SCALE, Ladder, LadderError
from firmware.ladder_maths import nominal_centres

#: The ladder design shipped with the project.
DEFAULT_DESIGN = HARDWARE_DIR / "ladders.toml"

#: Wheels in the order the boards and pin maps list them.
WHEEL_ORDER: tuple[str, ...] = ("direction", "number", "symbol")


class DataFileError(ControllerError, ValueError):
    """A hardware data file or a profile is missing, unreadable or malformed.

    The message names the file and key and says what to do.
    """

    def __init__(self, path: Path | str, key: str, problem: str, fix: str = "") -> None:
        self.path = Path(path)
        self.key = key
        where = f"{path}" + (f", key {key!r}" if key else "")
        message = f"{where}: {problem}"
        if fix:
            message += f"; {fix}"
        super().__init__(message)


@dataclasses.dataclass(frozen=True)
class WheelDesign:
    """One wheel's ladder: its labels, string resistors (top to bottom) and nominal readings."""

    name: str
    labels: tuple[str, ...]
    resistors_ohms: tuple[int, ...]
    nominal_u16: tuple[int, ...]

    @property
    def positions(self) -> int:
        return len(self.labels)


@dataclasses.dataclass(frozen=True)
class AdcModel:
    """An ADC's resolution and the codes (on its own scale) band edges should avoid."""

    name: str
    bits: int
    dnl_codes: tuple[int, ...] = ()
    guard_codes: int = 0

    @property
    def shift(self) -> int:
        """Left shift taking a code to the 16-bit reading scale."""
        return 16 - self.bits

    def to_u16(self, code: int) -> int:
        return code << self.shift

    @property
    def avoid_u16(self) -> tuple[int, ...]:
        return tuple(self.to_u16(c) for c in self.dnl_codes)

    @property
    def guard_u16(self) -> int:
        return self.guard_codes << self.shift


@dataclasses.dataclass(frozen=True)
class Timings:
    """Sampling and debounce timings shared by every backend."""

    sample_hz: float = 250.0
    average: int = 4
    wheel_settle_ms: int = 40
    button_press_ms: int = 20
    button_release_ms: int = 30
    unplug_ms: int = 500


@dataclasses.dataclass(frozen=True)
class LadderDesign:
    """Everything ``ladders.toml`` holds."""

    path: Path
    wheels: dict[str, WheelDesign]
    adcs: dict[str, AdcModel]
    timings: Timings
    pulldown_ohms: int

    def nominal_ladder(self, wheel: str) -> Ladder:
        """The ladder the design should read (fresh object: ladders keep hysteresis state)."""
        w = self.wheel(wheel)
        centres = list(w.nominal_u16)
        step = min(b - a for a, b in zip(sorted(centres), sorted(centres)[1:]))
        return Ladder(centres, step // 10)

    def nominal_ladders(self) -> dict[str, Ladder]:
        return {name: self.nominal_ladder(name) for name in WHEEL_ORDER}

    def wheel(self, name: str) -> WheelDesign:
        try:
            return self.wheels[name]
        except KeyError:
            raise DataFileError(self.path, f"wheels.{name}", "no such wheel",
                                f"wheels are {', '.join(self.wheels)}") from None

    def adc(self, name: str) -> AdcModel:
        try:
            return self.adcs[name.lower()]
        except KeyError:
            raise DataFileError(self.path, f"adc.{name.lower()}", "unknown ADC model",
                                f"add an [adc.{name.lower()}] table or use one of {', '.join(self.adcs)}") from None


def read_toml(path: Path | str) -> dict[str, Any]:
    """A TOML file's contents, or :class:`DataFileError` saying what is wrong with it."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise DataFileError(path, "", "file not found", "check the path or restore it from the project") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(path, "", f"not valid TOML ({exc})", "fix the syntax at that line") from None
    except OSError as exc:
        raise DataFileError(path, "", f"cannot read it ({exc.strerror})", "check its permissions") from None


def get(data: dict[str, Any], path: Path, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    """``data[key]`` (dotted keys walk tables) checked to be of ``kind``."""
    node: Any = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            if default is not ...:
                return default
            raise DataFileError(path, key, "missing", "add it (see the comments in the shipped file)")
        node = node[part]
    if isinstance(node, bool) and kind in (int, float, (int, float)):
        raise DataFileError(path, key, f"expected a number, got {node!r}")
    if not isinstance(node, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise DataFileError(path, key, f"expected {names}, got {type(node).__name__} {node!r}")
    return node


def _int_list(data: dict[str, Any], path: Path, key: str) -> tuple[int, ...]:
    values = get(data, path, key, list)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise DataFileError(path, key, f"expected a list of integers, got {values!r}")
    return tuple(values)


def load_design(path: Path | str = DEFAULT_DESIGN) -> LadderDesign:
    """Read and check a ladder design file; :class:`DataFileError` if anything is off."""
    path = Path(path)
    data = read_toml(path)
    pulldown = get(data, path, "parts.pulldown_ohms", int)
    wheels: dict[str, WheelDesign] = {}
    for name, expected in WHEEL_POSITIONS.items():
        key = f"wheels.{name}"
        labels = tuple(str(v) for v in get(data, path, f"{key}.labels", list))
        if len(labels) != expected:
            raise DataFileError(path, f"{key}.labels", f"{len(labels)} labels for a {expected}-position wheel",
                                f"list exactly {expected} labels")
        resistors = _int_list(data, path, f"{key}.resistors_ohms")
        nominal = _int_list(data, path, f"{key}.nominal_u16")
        if len(nominal) != expected:
            raise DataFileError(path, f"{key}.nominal_u16", f"{len(nominal)} readings for {expected} positions")
        try:
            computed = nominal_centres(expected, list(resistors), pulldown)
        except LadderError as exc:
            raise DataFileError(path, f"{key}.resistors_ohms", str(exc)) from None
        off = [i for i, (a, b) in enumerate(zip(nominal, computed)) if abs(a - b) > FULL_SCALE // 200]
        if off:
            raise DataFileError(
                path, f"{key}.nominal_u16",
                f"positions {off} disagree with the resistor values (computed {computed})",
                "recompute nominal_u16 from resistors_ohms and parts.pulldown_ohms")
        try:
            Ladder(list(nominal), 0)
        except LadderError as exc:
            raise DataFileError(path, f"{key}.nominal_u16", str(exc)) from None
        wheels[name] = WheelDesign(name, labels, resistors, nominal)
    adcs: dict[str, AdcModel] = {}
    for name, table in get(data, path, "adc", dict).items():
        adcs[name.lower()] = AdcModel(
            name=name,
            bits=get(data, path, f"adc.{name}.bits", int),
            dnl_codes=_int_list(data, path, f"adc.{name}.dnl_codes") if "dnl_codes" in table else (),
            guard_codes=get(data, path, f"adc.{name}.guard_codes", int, 0),
        )
    t = get(data, path, "debounce", dict)
    fields = {f.name: f for f in dataclasses.fields(Timings)}
    unknown = sorted(set(t) - set(fields))
    if unknown:
        raise DataFileError(path, f"debounce.{unknown[0]}", "unknown setting", f"known settings: {', '.join(fields)}")
    values: dict[str, Any] = {}
    for name in t:
        value = get(data, path, f"debounce.{name}", (int, float))
        if value <= 0:
            raise DataFileError(path, f"debounce.{name}", f"must be positive, got {value}")
        values[name] = value
    return LadderDesign(path, wheels, adcs, Timings(**values), pulldown)
