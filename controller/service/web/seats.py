"""The seats' pages: a phone joins a seat by its code, then reads and drives that seat's controller.

Routes (``S`` needs the seat's cookie, set by its join link; ``T`` the referee's token):

==================================  ==============================================================
``GET  /join/{seat}/{code}``         bind this phone to the seat (a cookie), then go to its page
``GET  /seat/{seat}``                the seat's page: its wheels, its ready button, its lock light
``GET  /api/seat/{seat}``        S   what the seat alone may see, with the public state
``GET  /api/seat/{seat}/events`` S   what the seat alone may see, as server-sent events each time it
                                     changes (the page reads the public state from ``/api/events``);
                                     the controller is plugged in while a stream is open, unplugged
                                     when the last one closes
``POST /api/seat/{seat}/wheel``  S   turn a wheel: ``{"wheel": "number", "position": 7}``
``POST /api/seat/{seat}/button`` S   press or let go of ready: ``{"pressed": true}``
``GET  /api/seats``                  every seat: whether a phone holds it; a free seat's join link
``GET  /api/seats/{seat}/qr.svg``    a free seat's join link as a QR code
``POST /api/seats/{seat}/free``  T   free a seat: its phone's cookie stops working
==================================  ==============================================================
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from controller.dials.backend import ControllerError
from controller.dials.state import WHEEL_POSITIONS
from controller.service.seats import SeatError, SeatRegistry, cookie_name
from controller.service.web.guard import lan_address
from controller.service.web.sse import error as _error
from controller.service.web.sse import stream

STATIC_DIR = Path(__file__).with_name("static")

#: Seconds a join cookie lasts: a long evening of games.
COOKIE_AGE = 12 * 3600

Denied = Callable[[Request], Response | None]
ReadJson = Callable[[Request], Awaitable[dict[str, Any] | Response]]


def qr_image(request: Request, path: str) -> Response:
    """``path`` on this dashboard as a QR code (SVG) for a phone: an address on this machine itself
    (``localhost``) becomes its network address, since the phone is not this machine."""
    import segno

    base = request.base_url
    if base.hostname in ("127.0.0.1", "localhost", "::1"):
        base = base.replace(hostname=lan_address())
    out = io.BytesIO()
    segno.make(str(base).rstrip("/") + path, error="m").save(out, kind="svg", scale=4, border=2,
                                                             dark="#000", light="#fff")
    return Response(out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def seat_routes(session: Any, registry: SeatRegistry, closing: asyncio.Event, authorised: Denied,
                read_json: ReadJson) -> list[Route]:
    """The routes above for ``session``, whose backend's controllers are held by pages."""
    backend = session.backend

    def freed(cid: str) -> None:
        if not session.bot_held(cid):
            backend.detach(cid)

    def holder(request: Request) -> tuple[str, str]:
        cid = request.path_params["seat"]
        return cid, registry.device(cid, request.cookies.get(cookie_name(cid)))

    def private(cid: str, device: str, text: str) -> str:
        """A seat message for ``device``: the wheels it did not set stay hidden while they are locked."""
        if registry.may_read_wheels(cid, device):
            return text
        message = json.loads(text)
        seat = message.get("seat") or {}
        if seat.get("locked"):
            seat["wheels"] = {wheel: None for wheel in seat.get("wheels", {})}
        return json.dumps(message, separators=(",", ":"))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "seat.html", headers={"Cache-Control": "no-cache"})

    async def seat_state(request: Request) -> Response:
        try:
            cid, device = holder(request)
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        hub = session.seat_hubs.get(cid)
        if hub is None or hub.latest_text is None or session.hub.latest_text is None:
            return _error(503, "the game loop has not published anything yet; try again in a moment")
        seat = private(cid, device, hub.latest_text)
        text = f'{{"seat":{json.dumps(json.loads(seat)["seat"])},"state":{json.dumps(session.hub.latest["state"])}}}'
        return Response(text, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def seat_events(request: Request) -> Response:
        try:
            cid, device = holder(request)
            hub = session.seat_hubs[cid]
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        except KeyError:
            return _error(503, "the game loop has not published anything yet; try again in a moment")

        def opened() -> None:
            if registry.opened(cid, device):
                backend.attach(cid)

        def closed() -> None:
            if registry.closed(cid, device):
                backend.detach(cid)

        return stream(hub, closing, "seat", lambda text: private(cid, device, text), opened, closed,
                      alive=lambda: registry.holds(cid, device))

    async def wheel(request: Request) -> Response:
        try:
            cid, device = holder(request)
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        body = await read_json(request)
        if isinstance(body, Response):
            return body
        name, position = body.get("wheel"), body.get("position")
        if name not in WHEEL_POSITIONS or set(body) != {"wheel", "position"}:
            return _error(400, f"send {{\"wheel\": one of {', '.join(WHEEL_POSITIONS)}, \"position\": a number}}")
        if type(position) is not int or not 0 <= position < WHEEL_POSITIONS[name]:
            return _error(400, f"the {name} wheel's positions are 0 to {WHEEL_POSITIONS[name] - 1}, not {position!r}")
        try:
            backend.turn(cid, name, position)
        except ControllerError as exc:
            return _error(400, str(exc))
        registry.turned_by(cid, device)
        return JSONResponse({"ok": True})

    async def button(request: Request) -> Response:
        try:
            cid, _device = holder(request)
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        body = await read_json(request)
        if isinstance(body, Response):
            return body
        pressed = body.get("pressed")
        if type(pressed) is not bool or set(body) != {"pressed"}:
            return _error(400, "send {\"pressed\": true} to press ready, {\"pressed\": false} to let go")
        (backend.press if pressed else backend.release)(cid)
        return JSONResponse({"ok": True})

    return [
        *joining_routes(registry, session.bot_held, authorised, "/seat", freed=freed),
        Route("/seat/{seat}", page),
        Route("/api/seat/{seat}", seat_state),
        Route("/api/seat/{seat}/events", seat_events),
        Route("/api/seat/{seat}/wheel", wheel, methods=["POST"]),
        Route("/api/seat/{seat}/button", button, methods=["POST"]),
    ]


def joining_routes(registry: SeatRegistry, bot_held: Callable[[str], bool], authorised: Denied, page: str,
                   freed: Callable[[str], None] = lambda seat: None) -> list[Route]:
    """What every kind of seat page shares: joining by the seat's code (then its page at
    ``page/{seat}``), the seats' list and their QR codes, and the referee freeing a seat."""

    def sync_bots() -> None:
        """The seats bots play now (a new game may seat them elsewhere): no phone joins those."""
        for cid in registry.seats():
            registry.set_bot(cid, bot_held(cid))

    async def join(request: Request) -> Response:
        cid, code = request.path_params["seat"], request.path_params["code"]
        sync_bots()
        try:
            cookie = registry.join(cid, code, request.cookies.get(cookie_name(cid)))
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        response = RedirectResponse(f"{page}/{cid}", status_code=303)
        response.set_cookie(cookie_name(cid), cookie, max_age=COOKIE_AGE, httponly=True, samesite="strict",
                            path="/")
        return response

    async def seats(request: Request) -> Response:
        sync_bots()
        out = []
        for cid in registry.seats():
            joinable = registry.joinable(cid)
            out.append({"id": cid, "attended": registry.attended(cid), "bot": bot_held(cid),
                        "join": registry.join_path(cid) if joinable else None})
        return JSONResponse({"seats": out}, headers={"Cache-Control": "no-store"})

    async def qr(request: Request) -> Response:
        cid = request.path_params["seat"]
        try:
            path = registry.join_path(cid)
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        sync_bots()
        if not registry.joinable(cid):
            return _error(409, f"seat {cid} is held by a phone or played by a bot; its code is shown when it is free")
        return qr_image(request, path)

    async def free(request: Request) -> Response:
        denied = authorised(request)
        if denied is not None:
            return denied
        cid = request.path_params["seat"]
        try:
            registry.free(cid)
        except SeatError as exc:
            return _error(exc.status, str(exc), exc.words)
        freed(cid)
        return JSONResponse({"freed": cid})

    return [
        Route("/join/{seat}/{code}", join),
        Route("/api/seats", seats),
        Route("/api/seats/{seat}/qr.svg", qr),
        Route("/api/seats/{seat}/free", free, methods=["POST"]),
    ]
