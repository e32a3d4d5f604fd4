"""The backend seam: every way of reading controllers offers the same small interface.

A backend keeps the latest :class:`ControllerState` of each controller and publishes
:class:`ControllerEvent` objects on a thread-safe queue. Subclasses call :meth:`_publish` with a
new state; the base class works out which events that state means.
"""

from __future__ import annotations

import queue
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator

from controller.dials.state import ControllerEvent, ControllerState, EventKind, LedMode
from controller.i18n import N_


class ControllerError(Exception):
    """A controller problem the user can act on (unknown id, port busy, bad profile)."""


class ControllerBackend(ABC):
    """Base of the GPIO, serial and simulated backends.

    Use as a context manager, or call :meth:`start` and :meth:`close` (``close`` is idempotent).
    """

    #: Short name used in configuration (``"gpio"``, ``"serial"``, ``"sim"``).
    NAME: str = ""
    #: What a player does to bring an unplugged controller back.
    UNPLUGGED_HINT: str = N_("plug it back in to go on")

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._states: dict[str, ControllerState] = {}
        self._lock = threading.Lock()
        self._queue: queue.Queue[ControllerEvent] = queue.Queue()
        self._closed = False

    # ---- what subclasses implement ---------------------------------------------------------

    @abstractmethod
    def start(self) -> None:
        """Open the hardware and begin reading (usually on a background thread)."""

    @abstractmethod
    def _close(self) -> None:
        """Stop reading and release the hardware."""

    @abstractmethod
    def set_led(self, controller_id: str, mode: LedMode) -> None:
        """Drive a controller's LED; raise :class:`ControllerError` for an unknown id."""

    # ---- shared ----------------------------------------------------------------------------

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._close()

    def __enter__(self) -> ControllerBackend:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def tell(self, controller_id: str, message: str) -> None:
        """Show ``message`` to whoever holds this controller alone, where the backend has a way to
        (the keyboard's own line); a wired board has none: its LED blinks."""

    def played_by_bots(self, controller_ids: set[str]) -> None:
        """The controllers bots play now (a backend that shows wheels hides theirs)."""

    def drivable(self, controller_id: str) -> bool:
        """Whether a bot can turn this controller's wheels and press its button (a simulated board)."""
        return all(callable(getattr(self, name, None)) for name in ("turn", "press", "release"))

    def page_held(self) -> list[str]:
        """The controllers held by pages (phones): plugged in while a page is open (see ``attach``)."""
        return []

    def known_controllers(self) -> set[str] | None:
        """The ids this backend reads, or ``None`` where controllers announce themselves when they
        are plugged in (USB boards), so that an id not seen yet may still come."""
        return None

    def states(self) -> dict[str, ControllerState]:
        """The latest state of every controller seen so far, by id."""
        with self._lock:
            return dict(self._states)

    def state(self, controller_id: str) -> ControllerState:
        with self._lock:
            try:
                return self._states[controller_id]
            except KeyError:
                known = ", ".join(sorted(self._states)) or "none"
                raise ControllerError(f"unknown controller {controller_id!r}; known controllers: {known}") from None

    def get_event(self, timeout: float | None = None) -> ControllerEvent | None:
        """The next event, waiting up to ``timeout`` seconds; ``None`` if none came."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def events(self, timeout: float = 0.0) -> Iterator[ControllerEvent]:
        """Every event queued now (waiting up to ``timeout`` for the first one)."""
        event = self.get_event(timeout)
        while event is not None:
            yield event
            event = self.get_event(0)

    def _publish(self, new: ControllerState, detail: str = "") -> list[ControllerEvent]:
        """Record ``new`` as the controller's state and queue the events it implies."""
        with self._lock:
            old = self._states.get(new.controller_id)
            self._states[new.controller_id] = new
        events: list[ControllerEvent] = []
        if old is None or old.connected != new.connected:
            kind = EventKind.CONNECTED if new.connected else EventKind.DISCONNECTED
            if old is not None or new.connected:
                events.append(ControllerEvent(kind, new, detail))
        if old is not None and new.connected:
            if (old.direction, old.number, old.symbol) != (new.direction, new.number, new.symbol):
                events.append(ControllerEvent(EventKind.WHEEL, new, detail))
            if old.button != new.button:
                events.append(ControllerEvent(EventKind.PRESSED if new.button else EventKind.RELEASED, new, detail))
        for event in events:
            self._queue.put(event)
        return events

    def _report_error(self, controller_id: str, detail: str) -> None:
        """Queue an :attr:`EventKind.ERROR` event for a controller (its state is unchanged)."""
        with self._lock:
            state = self._states.get(controller_id, ControllerState(controller_id))
        self._queue.put(ControllerEvent(EventKind.ERROR, state, detail))
