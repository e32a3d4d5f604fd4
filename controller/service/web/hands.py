"""The pages of a game played by choosing on phones: each seat's hand and its choices.

Routes (``S`` needs the seat's cookie, set by its join link; joining, the seats' list, their QR
codes and freeing a seat are shared with the wheels' seats, see :func:`joining_routes`):

==================================  ==============================================================
``GET  /hand/{seat}``                the seat's page: what it alone may see, and its choices
``GET  /api/hand/{seat}``        S   what the seat alone may see now
``GET  /api/hand/{seat}/events`` S   the same as server-sent events each time it changes (the page
                                     reads the public state from ``/api/events``)
``POST /api/hand/{seat}/choose`` S   choose: ``{"index": 2, "step": 17}``, the index of a choice
                                     and the ``step`` the list was offered at
==================================  ==============================================================
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from controller.service.choices import ChoiceError
from controller.service.loop import SessionError
from controller.service.seats import SeatError, SeatRegistry, cookie_name
from controller.service.web.seats import Denied, ReadJson, joining_routes
from controller.service.web.sse import error as _error
from controller.service.web.sse import stream

STATIC_DIR = Path(__file__).with_name("static")


def _unwritten(exc: SessionError) -> bool:
    """Whether ``exc`` says the game's log could not be written (the disk, not the request: 503)."""
    table = sys.modules.get("controller.service.table")   # the table loop's error: loaded with that loop alone
    return table is not None and isinstance(exc, table.LogWriteError)


def hand_routes(session: Any, registry: SeatRegistry, closing: asyncio.Event, authorised: Denied,
                read_json: ReadJson, command_timeout: float) -> list[Route]:
    """The routes above for a :class:`~controller.service.choices.ChoiceSession`."""

    def holder(request: Request) -> tuple[str, str]:
        sid = request.path_params["seat"]
        return sid, registry.device(sid, request.cookies.get(cookie_name(sid)))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "hand.html", headers={"Cache-Control": "no-cache"})

    async def hand(request: Request) -> Response:
        try:
            sid, _device = holder(request)
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        hub = session.seat_hubs.get(sid)
        if hub is None or hub.latest_text is None:
            return _error(503, "the game loop has not published anything yet; try again in a moment")
        return Response(hub.latest_text, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        try:
            sid, device = holder(request)
            hub = session.seat_hubs[sid]
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        except KeyError:
            return _error(503, "the game loop has not published anything yet; try again in a moment")
        return stream(hub, closing, "hand", opened=lambda: registry.opened(sid, device),
                      closed=lambda: registry.closed(sid, device), alive=lambda: registry.holds(sid, device))

    async def choose(request: Request) -> Response:
        try:
            sid, _device = holder(request)
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        body = await read_json(request)
        if isinstance(body, Response):
            return body
        if set(body) - {"index", "step"} or type(body.get("index")) is not int:
            return _error(400, 'send {"index": the number of a choice, "step": the "step" it was offered at}')
        payload = {"seat": session.seat_of(sid), "index": body["index"], "step": body.get("step")}
        future = session.command("choose", payload)
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(future), command_timeout)
        except asyncio.TimeoutError:
            return _error(503, "the game loop did not answer in time; try again")
        except ChoiceError as exc:
            return _error(409, str(exc), exc.words)
        except SessionError as exc:     # no game, a game over, or its log could not be written: nothing changed
            return _error(503 if _unwritten(exc) else 409, str(exc))
        except ValueError as exc:
            return _error(400, str(exc))
        return JSONResponse(result)

    return [
        *joining_routes(registry, session.bot_held, authorised, "/hand", freed=lambda sid: None),
        Route("/hand/{seat}", page),
        Route("/api/hand/{seat}", hand),
        Route("/api/hand/{seat}/events", events),
        Route("/api/hand/{seat}/choose", choose, methods=["POST"]),
    ]
