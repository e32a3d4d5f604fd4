"""Server-sent events from a :class:`~controller.service.hub.Hub`: the dashboard's stream and each
seat's own stream share this one generator."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from starlette.responses import JSONResponse, StreamingResponse

from controller.service.hub import Hub

#: Seconds between keep-alive comments on an idle event stream (proxies drop silent streams).
KEEPALIVE = 15.0


def error(status: int, message: str, words: Mapping[str, Any] | None = None) -> JSONResponse:
    """Every error of the dashboard's API: JSON ``{"error": "what was wrong and what to do"}``, with
    ``"message"`` beside it when the reason is a message a page says in its reader's language."""
    body: dict[str, Any] = {"error": message}
    if words is not None:
        body["message"] = words
    return JSONResponse(body, status_code=status)


def stream(hub: Hub, closing: asyncio.Event, event: str, render: Callable[[str], str] = lambda text: text,
           opened: Callable[[], None] | None = None, closed: Callable[[], None] | None = None,
           alive: Callable[[], bool] = lambda: True) -> StreamingResponse:
    """The hub's messages as server-sent events named ``event``, the latest first, each passed
    through ``render``; ``opened`` and ``closed`` run when the client's stream starts and ends (also
    when the client goes away before the first message), and the stream ends once ``alive()`` is false."""

    async def generate() -> AsyncIterator[str]:
        key = None
        try:
            if opened is not None:
                opened()
            key, queue = hub.subscribe(asyncio.get_running_loop())
            yield "retry: 1000\n\n"
            if hub.latest_text is not None:
                yield f"event: {event}\ndata: {render(hub.latest_text)}\n\n"
            while not closing.is_set() and alive():
                try:
                    text = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except asyncio.TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if alive():
                    yield f"event: {event}\ndata: {render(text)}\n\n"
        finally:
            if key is not None:
                hub.unsubscribe(key)
            if closed is not None:
                closed()

    headers: dict[str, Any] = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(generate(), media_type="text/event-stream", headers=headers)
