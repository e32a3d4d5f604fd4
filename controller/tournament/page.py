"""The standings page the organiser serves: live standings, the round's pairings, each table's state.

Routes (``T`` needs the organiser's token, as the dashboard's referee requests do):

==========================  ===================================================================
``GET  /``                   the page (a phone and a big screen: ``/?screen=big``), French and English
``GET  /api/state``          the tournament's state (:meth:`Tournament.state`)
``GET  /api/events``         server-sent events: one ``standings`` message per change
``POST /api/result``     T   a result by hand: ``{"round": 2, "board": 3, "scores": [1, 0]}``
``POST /api/move``       T   play a pairing at another table, online and free: ``{"round": 2, "board": 3, "table": 5}``
==========================  ===================================================================

The page's *Referee* panel sends those two requests, for a pairing whose table is offline or never
came back. A refusal (no token, a wrong one, an unknown pairing, one that has its result, a table
that is not online) changes nothing and says why: ``{"error": ..., "message": ...}``, the message
said in the reader's language. The page is served behind the dashboard's guard (host names,
cross-site requests, the token's cookie, security headers) and shares its translation script.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller import i18n
from controller.i18n import N_, message
from controller.service.auth import bearer, token_matches
from controller.service.web.guard import REFEREE_COOKIE, Failures, Guard, machine_hosts
from controller.service.web.sse import error, stream
from controller.tournament.organiser import Organiser
from controller.tournament.store import TournamentError, UnknownPairing

STATIC = Path(__file__).with_name("static")
SHARED_STATIC = Path(__file__).parents[1] / "service" / "web" / "static"


class Wrong(ValueError):
    """A request the page cannot read (HTTP 400); ``words`` says it in the reader's language."""

    def __init__(self, msgid: str, **args: Any) -> None:
        super().__init__(i18n.say(msgid, i18n.SOURCE_LANGUAGE, **args))
        self.words = message(msgid, **args)


def create_app(organiser: Organiser, token: str, hosts: set[str] | None = None, timeout: float = 10.0) -> Starlette:
    """The standings page's app for a running organiser."""
    failures = Failures()
    closing = asyncio.Event()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "standings.html", headers={"Cache-Control": "no-cache"})

    async def shared_i18n(request: Request) -> Response:
        return FileResponse(SHARED_STATIC / "i18n.js", media_type="text/javascript; charset=utf-8",
                            headers={"Cache-Control": "no-cache"})

    async def state(request: Request) -> Response:
        text = organiser.hub.latest_text
        if text is None:
            return error(503, "the organiser has not published the standings yet; try again in a moment")
        return Response(text, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        return stream(organiser.hub, closing, "standings")

    async def words(request: Request) -> Response:
        try:
            lang = i18n.check_language(request.path_params.get("lang") or i18n.language())
        except i18n.LanguageError as exc:
            return error(404, str(exc))
        return JSONResponse({"lang": lang, "default": i18n.language(), "languages": dict(i18n.LANGUAGE_NAMES),
                             "catalogue": i18n.browser_catalogue(lang)}, headers={"Cache-Control": "no-cache"})

    def refused(status: int, msgid: str, **args: Any) -> Response:
        return error(status, i18n.say(msgid, i18n.SOURCE_LANGUAGE, **args), message(msgid, **args))

    def denied(request: Request) -> Response | None:
        client = request.client.host if request.client else "?"
        if failures.blocked(client):
            return refused(429, N_("too many wrong tokens from this device; wait a minute"))
        given = bearer(request.headers.get("authorization")) or request.cookies.get(REFEREE_COOKIE)
        if given is None:
            return refused(401, N_("this needs the organiser's token, printed when `bitbox tournament run` started: "
                                   "type it in the Referee panel"))
        if not token_matches(token, given):
            failures.failed(client)
            return refused(403, N_("wrong token; use the one printed when `bitbox tournament run` started"))
        return None

    async def body(request: Request) -> dict[str, Any] | Response:
        raw = await request.body()
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError) as exc:
            return error(400, f"the body is not valid JSON: {exc}")
        return data if isinstance(data, dict) else error(400, "the body must be a JSON object")

    async def run(fn: Any) -> Response:
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(organiser.command(fn)), timeout)
        except asyncio.TimeoutError:
            return refused(503, N_("the organiser did not answer within {seconds} s"), seconds=round(timeout))
        except UnknownPairing as exc:
            return error(404, str(exc), exc.words)
        except TournamentError as exc:
            return error(409, str(exc), exc.words)
        except Wrong as exc:
            return error(400, str(exc), exc.words)
        except (ValueError, LookupError) as exc:
            return error(400, str(exc))
        except Exception as exc:  # noqa: BLE001 - the tournament's refusals are the organiser's to read
            return error(409, str(exc))
        return JSONResponse(result)

    def whole(data: dict[str, Any], key: str) -> int:
        value = data.get(key)
        if type(value) is not int:
            raise Wrong(N_('"{key}" must be a whole number'), key=key)
        return value

    async def result(request: Request) -> Response:
        refused = denied(request)
        if refused is not None:
            return refused
        data = await body(request)
        if isinstance(data, Response):
            return data

        def record() -> dict[str, Any]:
            scores = data.get("scores")
            if not isinstance(scores, list) or not all(isinstance(s, (int, float)) and not isinstance(s, bool)
                                                       for s in scores):
                raise Wrong(N_('"scores" must be a list of numbers, one per seat'))
            winners = data.get("winners")
            if winners is not None and not isinstance(winners, list):
                raise Wrong(N_('"winners" must be a list of seats, counted from 0'))
            board = organiser.record_by_hand(whole(data, "round"), whole(data, "board"), scores, winners)
            return {"round": board.round, "board": board.board, "result": board.result.to_json()}  # type: ignore[union-attr]

        return await run(record)

    async def move(request: Request) -> Response:
        refused = denied(request)
        if refused is not None:
            return refused
        data = await body(request)
        if isinstance(data, Response):
            return data

        def moved() -> dict[str, Any]:
            board = organiser.move(whole(data, "round"), whole(data, "board"), whole(data, "table"))
            return {"round": board.round, "board": board.board, "table": board.table}

        return await run(moved)

    routes = [
        Route("/", index),
        Route("/api/state", state),
        Route("/api/events", events),
        Route("/api/i18n", words),
        Route("/api/i18n/{lang}", words),
        Route("/api/result", result, methods=["POST"]),
        Route("/api/move", move, methods=["POST"]),
        Mount("/static/tournament", StaticFiles(directory=STATIC)),
        Route("/static/i18n.js", shared_i18n),
    ]
    guard = Middleware(Guard, token=token, hosts=machine_hosts() if hosts is None else hosts, failures=failures)
    app = Starlette(routes=routes, middleware=[guard])
    app.state.closing = closing
    return app
