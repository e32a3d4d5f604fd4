"""From raw readings to a controller's debounced state, on the host.

The direct (GPIO) build and the simulated backend both feed raw wheel readings and the button
level into a :class:`ControllerReader`, which runs the very classes the controller board runs
(:mod:`firmware.board.ladder`, :mod:`firmware.board.debounce`) against a clock in seconds. So
the service sees the same event sequences whatever the backend: a turned wheel goes through
"turning" (``None``) before it settles, and a bounce never shows as a press.
"""

from __future__ import annotations

import dataclasses

from controller.dials.ladders import WHEEL_ORDER, Timings
from firmware.board.debounce import TURNING, ButtonDebouncer, Debouncer
from firmware.board.ladder import Ladder


def to_ms(seconds: float) -> int:
    """A seconds clock reading as integer milliseconds (the firmware classes' unit)."""
    return int(round(seconds * 1000))


class StableValue:
    """A :class:`Debouncer` driven by a seconds clock; reports ``None`` instead of -1.

    >>> s = StableValue(0.030)
    >>> [s.update(v, t) for v, t in ((2, 0.0), (2, 0.02), (2, 0.03), (-1, 0.04))]
    [None, None, 2, None]
    """

    def __init__(self, settle_s: float, initial: int | None = None) -> None:
        self._debouncer = Debouncer(to_ms(settle_s), TURNING if initial is None else initial)

    def update(self, value: int | None, now: float) -> int | None:
        out = self._debouncer.update(TURNING if value is None else value, to_ms(now))
        return None if out == TURNING else out


@dataclasses.dataclass(frozen=True)
class Reading:
    """One debounced look at a controller."""

    direction: int | None
    number: int | None
    symbol: int | None
    button: bool
    connected: bool
    faults: tuple[str, ...] = ()    # wheels newly stuck above every position (a short to 3V3)

    def wheels(self) -> dict[str, int | None]:
        return {"direction": self.direction, "number": self.number, "symbol": self.symbol}


class ControllerReader:
    """Debounces one controller: three ladders, the ready button and the plug.

    ``update`` takes raw readings (16-bit scale, by wheel name), the button level and the time
    in seconds. A wheel reports a position once classified the same for ``wheel_settle_ms``;
    the controller counts as unplugged once every wheel has read "no contact" (near 0) for
    ``unplug_ms``, and as plugged as soon as one wheel makes contact.
    """

    def __init__(self, ladders: dict[str, Ladder], timings: Timings) -> None:
        missing = [w for w in WHEEL_ORDER if w not in ladders]
        if missing:
            raise ValueError(f"no ladder for wheel(s) {', '.join(missing)}")
        self.ladders = ladders
        self.timings = timings
        self._wheels = {w: Debouncer(int(timings.wheel_settle_ms)) for w in WHEEL_ORDER}
        self._button = ButtonDebouncer(int(timings.button_press_ms), int(timings.button_release_ms))
        self._faults = {w: Debouncer(int(timings.wheel_settle_ms), 0) for w in WHEEL_ORDER}
        self._fault_shown = {w: False for w in WHEEL_ORDER}
        # "No contact" reads below half of the lowest band of each ladder.
        self._open_below = {w: min(ladders[w].lows) // 2 for w in WHEEL_ORDER}
        self._top = {w: max(ladders[w].highs) + ladders[w].hysteresis for w in WHEEL_ORDER}
        self._last_contact: int | None = None

    def update(self, raw: dict[str, int], button: bool, now: float) -> Reading:
        ms = to_ms(now)
        positions: dict[str, int | None] = {}
        faults: list[str] = []
        contact = False
        for wheel in WHEEL_ORDER:
            value = raw[wheel]
            if value >= self._open_below[wheel]:
                contact = True
            pos = self._wheels[wheel].update(self.ladders[wheel].classify(value), ms)
            positions[wheel] = None if pos == TURNING else pos
            stuck = self._faults[wheel].update(1 if value > self._top[wheel] else 0, ms)
            if stuck == 1 and not self._fault_shown[wheel]:
                faults.append(wheel)
            self._fault_shown[wheel] = stuck == 1
        if contact:
            self._last_contact = ms
        connected = self._last_contact is not None and ms - self._last_contact < self.timings.unplug_ms
        pressed = bool(self._button.update(1 if button else 0, ms)) and connected
        return Reading(positions["direction"], positions["number"], positions["symbol"], pressed, connected,
                       tuple(faults))
