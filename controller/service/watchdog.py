"""systemd notifications: READY=1 once the service is up, WATCHDOG=1 while its inputs are alive.

systemd gives a ``Type=notify`` service the address of a datagram socket in ``NOTIFY_SOCKET`` and,
with ``WatchdogSec=``, the interval in ``WATCHDOG_USEC``. A service that stops sending WATCHDOG=1
for that long is killed and restarted (``Restart=on-failure``). Outside systemd both variables are
absent and every call here does nothing.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable


def notify(message: str, env: dict[str, str] | None = None) -> bool:
    """Send one notification (``"READY=1"``, ``"WATCHDOG=1"``, ``"STATUS=..."``); whether it was sent."""
    env = os.environ if env is None else env  # type: ignore[assignment]
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
        try:
            sock.connect(address)
            sock.sendall(message.encode())
        except OSError:
            return False
    return True


class Watchdog:
    """Pets systemd's watchdog every half interval, but only while ``alive()`` says the inputs work.

    Call :meth:`tick` from the main loop; if the loop hangs or the inputs die, the pings stop and
    systemd restarts the service.
    """

    def __init__(self, alive: Callable[[], bool], env: dict[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.env = dict(os.environ if env is None else env)
        self.alive = alive
        self.clock = clock
        usec = self.env.get("WATCHDOG_USEC", "")
        pid = self.env.get("WATCHDOG_PID", "")
        enabled = usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid()))
        self.interval: float | None = int(usec) / 1e6 / 2 if enabled else None
        self._last = float("-inf")
        self.pings = 0

    def ready(self, status: str = "") -> bool:
        """Tell systemd the service is up."""
        message = "READY=1" + (f"\nSTATUS={status}" if status else "")
        return notify(message, self.env)

    def status(self, text: str) -> bool:
        return notify(f"STATUS={text}", self.env)

    def tick(self) -> bool:
        """Send WATCHDOG=1 if half the interval has passed and the inputs are alive; whether sent."""
        if self.interval is None:
            return False
        now = self.clock()
        if now - self._last < self.interval:
            return False
        if not self.alive():
            return False
        self._last = now
        self.pings += 1
        return notify("WATCHDOG=1", self.env)

    def stopping(self) -> bool:
        return notify("STOPPING=1", self.env)
