"""The dashboard's side of the voice: its status for everyone, its controls for the referee.

==========================  ===================================================================
``GET  /api/voice``          the voice's status: language, volume, mute, what is missing, the tally
                             (``{"enabled": false}`` when the table has no voice)
``POST /api/voice``      T   change it: ``{"mute": true}``, ``{"volume": 60}``, ``{"lang": "fr"}``, or
                             ``{"test": true}`` to have it say a sentence
``GET  /voice/panel.js``     the dashboard's voice panel (the Referee panel's controls)
==========================  ===================================================================

``T``: the referee's token, as for the dashboard's other controls.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from controller import i18n
from controller.service.web.sse import error

PANEL = Path(__file__).with_name("static") / "panel.js"
#: The fields ``POST /api/voice`` takes.
FIELDS = ("mute", "volume", "lang", "test")


def voice_routes(voice_of: Callable[[], Any], authorised: Callable[[Request], Response | None],
                 read_json: Callable[[Request], Awaitable[dict[str, Any] | Response]]) -> list[Route]:
    """The routes above; ``voice_of()`` is the running :class:`~controller.voice.Voice` or ``None``."""

    async def status(request: Request) -> Response:
        voice = voice_of()
        return JSONResponse(voice.status() if voice is not None else {"enabled": False},
                            headers={"Cache-Control": "no-store"})

    async def change(request: Request) -> Response:
        denied = authorised(request)
        if denied is not None:
            return denied
        payload = await read_json(request)
        if isinstance(payload, Response):
            return payload
        voice = voice_of()
        if voice is None:
            return error(404, "this table has no voice: start it with --voice, or a [voice] table in the "
                              "configuration (docs/voice.md)")
        unknown = sorted(set(payload) - set(FIELDS))
        if unknown:
            return error(400, f"unknown field(s) {', '.join(unknown)}; known: {', '.join(FIELDS)}")
        try:
            result = voice.change(mute=payload.get("mute"), volume=payload.get("volume"), lang=payload.get("lang"))
        except ValueError as exc:
            return error(400, str(exc))
        if payload.get("test"):
            from controller.voice.voice import TEST_SENTENCE

            voice.say(i18n.gettext(TEST_SENTENCE, voice.lang))
        return JSONResponse(result)

    async def panel(request: Request) -> Response:
        return FileResponse(PANEL, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "no-cache"})

    return [
        Route("/api/voice", status, methods=["GET"]),
        Route("/api/voice", change, methods=["POST"]),
        Route("/voice/panel.js", panel),
    ]
