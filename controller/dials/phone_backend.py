"""Controllers on the players' phones: each phone's page is the controller of one seat.

A phone shows its controller's three wheels and the ready button (the dashboard's seat page). What
the player does there drives a simulated board (:class:`~controller.dials.sim_backend.SimBackend`):
the same ladder and debounce code as a real controller, so a wheel turned on the screen passes
through "turning" before it settles, a press shows once it has held, and the game, the lock and
the reveal are the same code for phones, wired boards and GPIO.

A controller is plugged in while its page is open (:meth:`PhoneBackend.attach`) and unplugged when
the page goes away (:meth:`PhoneBackend.detach`): a phone that sleeps or loses the network shows
as unplugged, like a real controller, and its locked program is kept.

>>> from controller.dials.sim_backend import ManualClock
>>> phones = PhoneBackend(["red"], clock=ManualClock(), poll_thread=False)
>>> phones.start(); phones.advance(0.5)
>>> phones.state("red").connected
False
>>> phones.attach("red"); phones.advance(0.1)
>>> phones.state("red").connected
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The shortest a press on the screen is held (seconds): a tap is often shorter than a real button
#: must be held to count, so the press lasts at least this long.
MIN_PRESS_S = 0.08

from controller.dials.sim_backend import SimBackend
from controller.i18n import N_


class PhoneBackend(SimBackend):
    """Simulated boards whose wheels and buttons the phones' pages turn and press.

    Every controller starts unplugged: no phone holds it yet.
    """

    NAME = "phone"
    UNPLUGGED_HINT = N_("open its page on a phone (scan its code on the dashboard) to go on")

    def __init__(self, controllers: int | Sequence[str] = 2, **kwargs: Any) -> None:
        super().__init__(controllers, **kwargs)
        self._pressed_at: dict[str, float] = {}

    def start(self) -> None:
        super().start()
        for cid in self.ids:
            self.unplug(cid)

    def page_held(self) -> list[str]:
        return list(self.ids)

    def attach(self, controller_id: str) -> None:
        """A page holds the controller: it is plugged in."""
        self.replug(controller_id)

    def detach(self, controller_id: str) -> None:
        """The page went away: the controller is unplugged (its wheels stay where they were)."""
        self.unplug(controller_id)

    def turn(self, controller_id: str, wheel: str, position: int | str | None) -> None:
        """A wheel set on the screen; setting it where it already is moves nothing (no "turning")."""
        if position is not None and self.wheel_target(controller_id, wheel) == self.position_index(wheel, position):
            return
        super().turn(controller_id, wheel, position)

    def press(self, controller_id: str) -> None:
        self._pressed_at[controller_id] = self.clock()
        super().press(controller_id)

    def release(self, controller_id: str, after: float = 0.0) -> None:
        """Let go of ready, no sooner than :data:`MIN_PRESS_S` after it was pressed."""
        held = self.clock() - self._pressed_at.get(controller_id, float("-inf"))
        super().release(controller_id, after=max(after, MIN_PRESS_S - held))
