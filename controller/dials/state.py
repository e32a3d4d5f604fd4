"""One model of a controller's state, shared by every backend and by the service.

A controller mirrors the 8Bit Box one: a direction wheel (8 arrows), a number wheel (0 to 9), a
symbol wheel (A to D), a ready button and an LED. A wheel that is between two positions, or has
not been stable long enough, reads ``None`` ("turning"): never a wrong number.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

#: The direction wheel's 8 arrows, clockwise from up; a reading is an index into this tuple.
DIRECTIONS: tuple[str, ...] = ("up", "up-right", "right", "down-right", "down", "down-left", "left", "up-left")

#: The symbol wheel's 4 positions.
SYMBOLS: tuple[str, ...] = ("A", "B", "C", "D")

#: Positions per wheel, by wheel name.
WHEEL_POSITIONS: dict[str, int] = {"direction": len(DIRECTIONS), "number": 10, "symbol": len(SYMBOLS)}


class LedMode(str, enum.Enum):
    """What the controller's LED shows."""

    OFF = "off"
    ON = "on"              # program locked in
    BLINK = "blink"        # error: the program was refused, or the controller needs attention


class EventKind(str, enum.Enum):
    """What changed on a controller."""

    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    WHEEL = "wheel"              # a wheel settled on a position or started turning
    PRESSED = "pressed"          # the ready button went down
    RELEASED = "released"
    ERROR = "error"              # a fault worth showing (bad frames, a ladder reading out of range)


@dataclasses.dataclass(frozen=True)
class ControllerState:
    """A controller's state at one moment.

    ``direction``, ``number`` and ``symbol`` are wheel positions (indices; ``number`` is the digit
    itself), or ``None`` while that wheel is turning or unknown.
    """

    controller_id: str
    connected: bool = False
    direction: int | None = None
    number: int | None = None
    symbol: int | None = None
    button: bool = False
    led: LedMode = LedMode.OFF
    timestamp: float = 0.0

    @property
    def turning(self) -> bool:
        """Whether any wheel is between positions."""
        return self.direction is None or self.number is None or self.symbol is None

    @property
    def direction_name(self) -> str | None:
        return None if self.direction is None else DIRECTIONS[self.direction]

    @property
    def symbol_name(self) -> str | None:
        return None if self.symbol is None else SYMBOLS[self.symbol]

    def wheel(self, name: str) -> int | None:
        """A wheel's position by name (``"direction"``, ``"number"``, ``"symbol"``)."""
        if name not in WHEEL_POSITIONS:
            raise KeyError(f"no wheel named {name!r}; wheels: {', '.join(WHEEL_POSITIONS)}")
        return getattr(self, name)

    def replace(self, **changes: Any) -> ControllerState:
        return dataclasses.replace(self, **changes)

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        """JSON-friendly form; with ``reveal=False`` the wheels are hidden (a program is secret)."""
        data: dict[str, Any] = {
            "id": self.controller_id,
            "connected": self.connected,
            "turning": self.turning,
            "button": self.button,
            "led": self.led.value,
            "timestamp": self.timestamp,
        }
        if reveal:
            data.update(direction=self.direction_name, number=self.number, symbol=self.symbol_name)
        return data


@dataclasses.dataclass(frozen=True)
class ControllerEvent:
    """One change on one controller, with the full state after it."""

    kind: EventKind
    state: ControllerState
    detail: str = ""

    @property
    def controller_id(self) -> str:
        return self.state.controller_id
