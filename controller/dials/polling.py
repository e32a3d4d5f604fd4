"""A background thread that calls a function at a steady rate, for the polling backends."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class PollLoop:
    """Calls ``poll()`` ``hz`` times a second on a daemon thread until :meth:`stop`.

    A call that raises is logged (the first time, then every 100th time in a row) and passed to
    ``on_error``; polling goes on, since one bad read must not stop the controllers.
    """

    def __init__(self, poll: Callable[[], None], hz: float, name: str,
                 on_error: Callable[[Exception], None] | None = None) -> None:
        if hz <= 0:
            raise ValueError(f"polling rate must be positive, got {hz}")
        self.poll = poll
        self.period = 1.0 / hz
        self.on_error = on_error
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        next_at = time.monotonic()
        failures = 0
        while not self._stop.is_set():
            try:
                self.poll()
                failures = 0
            except Exception as exc:  # noqa: BLE001 - reported, and polling goes on
                failures += 1
                if failures % 100 == 1:
                    log.exception("polling failed (%d in a row)", failures)
                    if self.on_error is not None:
                        self.on_error(exc)
            next_at += self.period
            delay = next_at - time.monotonic()
            if delay < 0:
                next_at = time.monotonic()
                delay = 0.0
            self._stop.wait(delay)
