"""The dashboard's web app: the page, the JSON API and the live stream of server-sent events.

Routes (``T`` needs the token):

==========================  ===================================================================
``GET  /``                   the dashboard page: the shell, the same for every game (no build step)
``GET  /games/{name}/{file}`` a game's dashboard view, ``view.js`` or ``view.css``, from its ``view_dir``
``GET  /api/state``          the latest public state (what a spectator may see)
``GET  /api/events``         server-sent events: one ``state`` message per change
``GET  /api/games``          the stored games
``GET  /api/games/{id}``     one game as a save file (JSON)
``GET  /api/health``         whether the loop is running and the controllers are readable
``POST /api/game/start`` T   start a new game: ``{"options": {...}, "seed": 7, "players": [...]}``
``POST /api/game/abort`` T   stop the game being played
``POST /api/game/undo``  T   take back the last actions: ``{"count": 1}``
``POST /api/table/answer``   T   answer a referee's question: ``{"question_id": 3, "choice": "yes"}``
``POST /api/table/overrule`` T   overrule a call: ``{"call_id": 7, "decision": "temple-touches"}``
``POST /api/table/action``   T   a player's choice: ``{"player": 0, "action": {...}}`` (an encoded action)
``GET/POST /api/voice``  (T)  the table's voice: its status, and mute, volume, language (:mod:`controller.voice.web`)
==========================  ===================================================================

The table routes answer 404 when the console is refereeing a game without a table camera. When the
controllers are players' phones (the ``phone`` backend), the seats' routes of
:mod:`controller.service.web.seats` are added: joining a seat by its code, its page and its API.

Every error is JSON ``{"error": "what was wrong"}`` with a 4xx status (503 while the loop cannot answer).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from collections.abc import Iterable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller import i18n
from controller.games import UnknownGameError
from controller.games import game as game_spec
from controller.service.auth import bearer, token_matches
from controller.service.web.guard import REFEREE_COOKIE, Failures, Guard, machine_hosts
from controller.service.web.sse import error as _error
from controller.service.web.sse import stream
from controller.service.hub import Hub

STATIC_DIR = Path(__file__).with_name("static")


#: Largest request body the API reads.
MAX_BODY = 64 * 1024

#: The files a game's view folder may serve, with their content types; nothing else in it is served.
VIEW_FILES = {"view.js": "text/javascript; charset=utf-8", "view.css": "text/css; charset=utf-8"}


def create_app(session: Any, hub: Hub, token: str, command_timeout: float = 10.0,
               hosts: Iterable[str] | None = None) -> Starlette:
    """The dashboard app for a running :class:`~controller.service.session.Session`.

    ``hosts`` are the names it answers (default: this machine's, see :mod:`controller.service.web.guard`)."""
    failures = Failures()

    closing = asyncio.Event()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def view_file(request: Request) -> Response:
        name, file = request.path_params["name"], request.path_params["file"]
        try:
            folder = game_spec(name).view_dir
        except UnknownGameError as exc:
            return _error(404, str(exc))
        if file not in VIEW_FILES:
            return _error(404, f"a game's view is served as view.js and view.css, not {file!r}")
        if folder is None or not (folder / file).is_file():
            return _error(404, f"the game {name!r} has no {file}")
        return FileResponse(folder / file, media_type=VIEW_FILES[file], headers={"Cache-Control": "no-cache"})

    async def state(request: Request) -> Response:
        text = hub.latest_text
        if text is None:
            return _error(503, "the game loop has not published anything yet; try again in a moment")
        return Response(text, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        return stream(hub, closing, "state")

    async def run_command(name: str, payload: dict[str, Any]) -> Response:
        if not session.has_command(name):
            kind = "a table game" if name in ("answer", "overrule", "action") else "a console game"
            return _error(404, f"this service is not refereeing {kind}: there is nothing to {name}")
        future = session.command(name, payload)
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(future), command_timeout)
        except asyncio.TimeoutError:
            return _error(503, f"the game loop did not answer within {command_timeout:.0f} s")
        except LookupError as exc:
            return _error(404, str(exc).strip("'\""))
        except ValueError as exc:
            return _error(400, str(exc))
        except Exception as exc:  # noqa: BLE001 - session and store errors are the user's to read
            return _error(409, str(exc))
        return JSONResponse(result)

    async def games(request: Request) -> Response:
        return await run_command("games", {})

    async def game(request: Request) -> Response:
        raw = request.path_params["game_id"]
        if not raw.isdigit() or len(raw) > 18 or int(raw) < 1:
            return _error(400, f"a game number is a whole number from 1 up, not {raw[:20]!r}")
        response = await run_command("export", {"game_id": int(raw)})
        if response.status_code == 404:
            return _error(404, f"there is no game number {int(raw)}; GET /api/games lists them")
        return response

    async def referee_qr(request: Request) -> Response:
        """The referee's link as a QR code, for the Pi's own screen only: a browser on this machine."""
        from controller.service.web.seats import qr_image

        if request.client is None or request.client.host not in ("127.0.0.1", "::1"):
            return _error(403, "the referee's code is shown only on the Pi's own screen")
        return qr_image(request, f"/?token={token}")

    async def words(request: Request) -> Response:
        wanted = request.path_params.get("lang") or i18n.language()
        try:
            lang = i18n.check_language(wanted)
        except i18n.LanguageError as exc:
            return _error(404, str(exc))
        return JSONResponse(
            {"lang": lang, "default": i18n.language(), "languages": dict(i18n.LANGUAGE_NAMES),
             "catalogue": i18n.browser_catalogue(lang)},
            headers={"Cache-Control": "no-cache"},
        )

    async def health(request: Request) -> Response:
        alive = bool(session.inputs_alive())
        return JSONResponse({"ok": alive, "published": hub.seq}, status_code=200 if alive else 503)

    def authorised(request: Request) -> Response | None:
        client = request.client.host if request.client else "?"
        if failures.blocked(client):
            return _error(429, "too many wrong tokens from this device; wait a minute, then use the token "
                               "printed when the service started")
        given = bearer(request.headers.get("authorization")) or request.cookies.get(REFEREE_COOKIE)
        if given is None:
            return _error(401, "this needs the token printed when the service started (type it in the "
                               "dashboard's Referee box, open the link printed with it, or send "
                               "'Authorization: Bearer TOKEN')")
        if not token_matches(token, given):
            failures.failed(client)
            return _error(403, "wrong token; use the one printed when the service started")
        return None

    async def read_json(request: Request) -> dict[str, Any] | Response:
        body = await request.body()
        if len(body) > MAX_BODY:
            return _error(413, f"the request body is larger than {MAX_BODY // 1024} KiB")
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return _error(415, f"send JSON (Content-Type: application/json), not {ctype or 'no content type'}")
        if not body.strip():
            return {}
        try:
            data = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            return _error(400, f"the body is not valid JSON: {exc}")
        if not isinstance(data, dict):
            return _error(400, "the body must be a JSON object")
        return data

    def guarded(name: str) -> Any:
        async def handler(request: Request) -> Response:
            denied = authorised(request)
            if denied is not None:
                return denied
            payload = await read_json(request)
            if isinstance(payload, Response):
                return payload
            return await run_command(name, payload)

        return handler

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        messages = {404: f"nothing at {request.url.path}", 405: f"{request.method} is not allowed on {request.url.path}"}
        return _error(exc.status_code, messages.get(exc.status_code, str(exc.detail)))

    routes = [
        Route("/", index),
        Route("/games/{name}/{file}", view_file),
        Route("/api/state", state),
        Route("/api/events", events),
        Route("/api/games", games),
        Route("/api/games/{game_id}", game),
        Route("/api/health", health),
        Route("/api/i18n", words),
        Route("/api/i18n/{lang}", words),
        Route("/api/referee/qr.svg", referee_qr),
        Route("/api/game/start", guarded("start"), methods=["POST"]),
        Route("/api/game/abort", guarded("abort"), methods=["POST"]),
        Route("/api/game/undo", guarded("undo"), methods=["POST"]),
        Route("/api/table/answer", guarded("answer"), methods=["POST"]),
        Route("/api/table/overrule", guarded("overrule"), methods=["POST"]),
        Route("/api/table/action", guarded("action"), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    from controller.voice.web import voice_routes

    routes[-1:-1] = voice_routes(lambda: getattr(session, "voice", None), authorised, read_json)
    backend = getattr(session, "backend", None)
    if backend is not None and backend.page_held():
        from controller.service.seats import SeatRegistry
        from controller.service.web.seats import seat_routes

        registry = SeatRegistry(token, backend.page_held())
        routes[-1:-1] = seat_routes(session, registry, closing, authorised, read_json)
        app_registry: SeatRegistry | None = registry
    elif getattr(session, "play_mode", None) == "phones" or getattr(session, "hand_pages", False):
        from controller.service.seats import SeatRegistry
        from controller.service.web.hands import hand_routes

        own_ids = getattr(session, "seat_ids", None)   # a table game's hand pages; on phones, the play's seats
        registry = SeatRegistry(token, own_ids() if callable(own_ids) else
                                session.play.seat_ids() if session.play is not None else [])
        routes[-1:-1] = hand_routes(session, registry, closing, authorised, read_json, command_timeout)
        seat_listeners = getattr(session, "seat_listeners", None)    # a table whose seats change with its game
        if seat_listeners is not None:
            seat_listeners.append(registry.set_seats)
        app_registry = registry
    else:
        app_registry = None
    guard = Middleware(Guard, token=token, hosts=machine_hosts() if hosts is None else hosts, failures=failures)
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error}, middleware=[guard])
    app.state.closing = closing
    app.state.seats = app_registry
    return app
