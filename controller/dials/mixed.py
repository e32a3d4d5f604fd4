"""Several backends as one: some players on built controllers, others on phones or the keyboard.

``--controllers red=serial,blue=serial,green=phone,yellow=phone`` gives each controller its own
backend; :class:`MixedBackend` starts them all and merges their events into one queue, so the game
loop sees one set of controllers whatever reads each of them. Commands to a controller (its LED, a
bot's hand on its wheels, a phone's page attaching) go to the backend that reads it.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from controller.dials.backend import ControllerBackend, ControllerError
from controller.dials.state import LedMode
from controller.i18n import N_


class MixedBackend(ControllerBackend):
    """One backend over ``parts`` (by name), each reading the controllers ``route`` gives it."""

    NAME = "mixed"

    def __init__(self, parts: Mapping[str, ControllerBackend], route: Mapping[str, str]) -> None:
        super().__init__()
        unknown = sorted(set(route.values()) - set(parts))
        if unknown:
            raise ControllerError(f"no backend named {', '.join(unknown)} among {', '.join(parts)}")
        self.parts = dict(parts)
        self.route = dict(route)
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        hints = {part.UNPLUGGED_HINT for part in self.parts.values()}
        self.UNPLUGGED_HINT = hints.pop() if len(hints) == 1 else N_("plug it back in (or open its page) to go on")

    def part(self, controller_id: str) -> ControllerBackend:
        try:
            return self.parts[self.route[controller_id]]
        except KeyError:
            raise ControllerError(f"unknown controller {controller_id!r}; known controllers: "
                                  f"{', '.join(self.route) or 'none'}") from None

    def start(self) -> None:
        for name, part in self.parts.items():
            part.start()
            thread = threading.Thread(target=self._forward, args=(part,), name=f"bitbox-mixed-{name}", daemon=True)
            self._threads.append(thread)
            thread.start()

    def _forward(self, part: ControllerBackend) -> None:
        while not self._stop.is_set():
            event = part.get_event(0.1)
            if event is not None:
                self._queue.put(event)

    def _close(self) -> None:
        self._stop.set()
        for part in self.parts.values():
            part.close()
        for thread in self._threads:
            thread.join(1.0)

    def states(self) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for part in self.parts.values():
            merged.update(part.states())
        return merged

    def state(self, controller_id: str) -> Any:
        return self.part(controller_id).state(controller_id)

    def known_controllers(self) -> set[str] | None:
        return set(self.route)

    def set_led(self, controller_id: str, mode: LedMode) -> None:
        self.part(controller_id).set_led(controller_id, mode)

    # ---- what some parts can do, routed to the part that reads the controller -------------------

    def tell(self, controller_id: str, message: str) -> None:
        self.part(controller_id).tell(controller_id, message)

    def played_by_bots(self, controller_ids: set[str]) -> None:
        for part in self.parts.values():
            part.played_by_bots(controller_ids)

    def drivable(self, controller_id: str) -> bool:
        part = self.parts.get(self.route.get(controller_id, ""))
        return part is not None and part.drivable(controller_id)

    def page_held(self) -> list[str]:
        return [cid for cid in self.route if cid in self.part(cid).page_held()]

    def _routed(self, method: str, controller_id: str, *args: Any, **kwargs: Any) -> Any:
        fn = getattr(self.part(controller_id), method, None)
        if not callable(fn):
            raise ControllerError(f"controller {controller_id} ({self.route[controller_id]}) cannot be {method}ed")
        return fn(controller_id, *args, **kwargs)

    def turn(self, controller_id: str, wheel: str, position: Any) -> None:
        self._routed("turn", controller_id, wheel, position)

    def wheel_target(self, controller_id: str, wheel: str) -> Any:
        return self._routed("wheel_target", controller_id, wheel)

    def press(self, controller_id: str) -> None:
        self._routed("press", controller_id)

    def release(self, controller_id: str, after: float = 0.0) -> None:
        self._routed("release", controller_id, after=after)

    def attach(self, controller_id: str) -> None:
        self._routed("attach", controller_id)

    def detach(self, controller_id: str) -> None:
        self._routed("detach", controller_id)
