"""Signals (Ctrl-C, systemd's stop) turned into a call the program chooses, for as long as it runs.

Python's own Ctrl-C throws a KeyboardInterrupt into whatever runs at that moment, a queue's or a
backend's lock included, which it can leave held. A long-running command instead asks to be told, and
ends its loop cleanly when told.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any


@contextlib.contextmanager
def on_signals(call: Callable[[], object], *signals: signal.Signals) -> Iterator[None]:
    """Within the block, each of ``signals`` calls ``call()`` instead of its usual handling (or of
    being ignored, as a parent may have left it); the handlers before are restored after. Off the
    main thread, where Python lets no handler be set, signals are left as they are."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        call()

    previous = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
