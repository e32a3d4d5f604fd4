"""Fan-out of the public game state from the game loop's thread to the dashboard's listeners.

The game loop calls :meth:`Hub.publish` with a message (the spectator's state and the new events);
every web client (an asyncio queue in the server's event loop) and every in-process listener (the
terminal view, the benchmark) gets it. Only what :class:`Hub` is given is ever sent, and the game
loop gives it spectator data only: a program is not in it until it is revealed.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from typing import Any

Listener = Callable[[dict[str, Any]], None]


class Hub:
    """Thread-safe publisher of numbered messages; keeps the latest one for late subscribers."""

    def __init__(self, queue_limit: int = 256) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Queue[str]]] = {}
        self._listeners: list[Listener] = []
        self._next_id = 0
        self.seq = 0
        self.latest: dict[str, Any] | None = None
        self.latest_text: str | None = None
        self.queue_limit = queue_limit

    def publish(self, message: dict[str, Any], state_text: str | None = None) -> dict[str, Any]:
        """Number ``message``, keep it as the latest and send it to everyone listening.

        ``state_text``, when given, is ``message["state"]`` already in JSON (compact): it is not
        serialized again."""
        with self._lock:
            self.seq += 1
            message = {**message, "seq": self.seq}
            if state_text is None:
                text = json.dumps(message, separators=(",", ":"))
            else:
                rest = json.dumps({k: v for k, v in message.items() if k != "state"}, separators=(",", ":"))
                text = f'{rest[:-1]},"state":{state_text}}}'
            self.latest, self.latest_text = message, text
            subscribers = list(self._subscribers.values())
            listeners = list(self._listeners)
        for loop, queue in subscribers:
            try:
                loop.call_soon_threadsafe(_offer, queue, text)
            except RuntimeError:
                pass  # that client's event loop has closed
        for listener in listeners:
            listener(message)
        return message

    def subscribe(self, loop: asyncio.AbstractEventLoop) -> tuple[int, asyncio.Queue[str]]:
        """A queue in ``loop`` that receives every message's JSON text from now on."""
        queue: asyncio.Queue[str] = asyncio.Queue(self.queue_limit)
        with self._lock:
            self._next_id += 1
            key = self._next_id
            self._subscribers[key] = (loop, queue)
        return key, queue

    def unsubscribe(self, key: int) -> None:
        with self._lock:
            self._subscribers.pop(key, None)

    @property
    def subscriber_count(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(message)`` in the publishing thread for every message."""
        with self._lock:
            self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)


def _offer(queue: asyncio.Queue[str], text: str) -> None:
    """Queue ``text``; a client too slow to keep up loses its oldest messages, never the newest."""
    while queue.full():
        queue.get_nowait()
    queue.put_nowait(text)
