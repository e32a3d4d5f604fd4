"""Reading the wheel controllers: one state model and one event stream, whatever the backend.

Backends (chosen by configuration): ``gpio`` (gpiozero, MCP3xxx ADCs on the Pi), ``serial``
(RP2040 controllers running our firmware over USB), ``sim`` (scripted or keyboard-driven).
"""

from controller.dials.state import (
    DIRECTIONS,
    SYMBOLS,
    ControllerEvent,
    ControllerState,
    EventKind,
    LedMode,
)
from controller.dials.backend import ControllerBackend

__all__ = ["DIRECTIONS", "SYMBOLS", "ControllerBackend", "ControllerEvent", "ControllerState", "EventKind", "LedMode"]
