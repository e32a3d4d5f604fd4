"""Putting the table service together: event log, camera, referee loop, dashboard and terminal.

:func:`run_table_service` is what ``bitbox play GAME`` and ``bitbox demo GAME`` share for a game
refereed by the table camera. It opens the event log (refusing a damaged or busy one before
anything else starts), resumes an unfinished game of the same set-up or starts one, serves the
dashboard (its *Table* page), prints every announcement, and hands the session to a driver that
feeds it frames:

* :func:`camera_driver`: frames from a camera source (picamera2, a device, a video file, a folder
  of images);
* a game's demo table (its ``demo``, see :mod:`controller.games`): frames rendered from a seeded
  game that bots play on a simulated table.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from controller.games.spec import GameSpec
from controller.service.config import ServiceConfig
from controller.service.hub import Hub
from controller.service.runner import (
    ServiceError,
    _signals,
    matching_unfinished,
    open_store,
    announce_token,
    serve_dashboard,
    spoken_list,
    under_systemd,
)
from controller.service.session import SessionError
from controller.service.store import StoreError
from controller.service.table import TableSession, TableSetup
from controller.service.watchdog import Watchdog
from controller.vision.mat import MatLayout
from controller.vision.pipeline import TableWatcher

Driver = Callable[[TableSession], None]


@dataclasses.dataclass
class TableRun:
    """How one run of the table behaves."""

    start: str = "resume"            # "resume" an unfinished game of the same set-up, or "new"
    keep_serving: bool = False       # after the game, keep the dashboard up until interrupted
    token: str | None = None
    port_fallback: bool = False      # if the port is taken, serve on any free port instead
    quiet: bool = False              # print only the start-up lines and the result
    out: TextIO | None = None      # where to print (default: sys.stdout as it is when the run starts)


def open_camera(layout_name: str, spec: GameSpec | None = None) -> tuple[MatLayout, Any]:
    """The mat's layout and a watcher: the game's own camera reader when its registry entry names one
    (``spec.camera``), else the dice reader with the calibrated mat profile and the taught faces.

    Raises :class:`ServiceError` naming the calibration command to run when something is missing."""
    reader = spec.load_camera() if spec is not None else None
    if reader is not None:
        try:
            return reader(layout_name)
        except (OSError, ValueError) as exc:
            raise ServiceError(str(exc)) from None
    from controller.vision.faces import FaceLibrary
    from controller.vision.mat import MatLayoutError, load_layout
    from controller.vision.pipeline import FrameAnalyser
    from controller.vision.profile import CalibrationError, TableProfile

    try:
        layout = load_layout(layout_name)
    except MatLayoutError as exc:
        raise ServiceError(str(exc)) from None
    try:
        profile = TableProfile.load(layout.name)
    except CalibrationError as exc:
        raise ServiceError(f"{exc} (with the empty mat under the camera)") from None
    try:
        faces = FaceLibrary.load()
    except ValueError as exc:
        raise ServiceError(str(exc)) from None
    return layout, TableWatcher(FrameAnalyser(layout, profile, faces=faces))


def camera_driver(spec: str, fps: float | None = None) -> Driver:
    """Feed the session from camera source ``spec`` (see ``controller.vision.sources``).

    A live camera is timed by the clock; a video file or a folder of images by its frame rate
    (``fps``, default 15), so that a recording is judged as it was filmed, not as fast as it reads."""
    from controller.vision.sources import SourceError, open_source

    try:
        source = open_source(spec)
    except SourceError as exc:
        raise ServiceError(f"cannot open the camera source {spec!r}: {exc}") from None
    recorded = Path(str(spec)).expanduser().exists()
    step = 1.0 / (fps or 15.0)

    def drive(session: TableSession) -> None:
        ticks = iter(range(1 << 62))
        clock = (lambda: next(ticks) * step) if recorded else time.monotonic
        with source:
            try:
                session.run(iter(source), clock=clock)
            except SourceError as exc:
                raise ServiceError(f"the camera source {spec!r} failed: {exc}") from None

    return drive


def run_table_service(config: ServiceConfig, setup: TableSetup, layout: MatLayout, watcher: TableWatcher,
                      driver: Driver, run: TableRun) -> TableSession:
    """Run the table as configured; returns the session once the driver has finished."""
    out = run.out if run.out is not None else sys.stdout
    store = open_store(config)
    server = None
    voice = None
    try:
        hub = Hub()
        try:
            session = TableSession(setup, store, layout, watcher, hub)
            stored = (matching_unfinished(store, setup.game, setup.options, setup.seed)
                      if run.start == "resume" else None)
            if stored is not None:
                session.resume(stored)
                print(f"Resuming game #{stored.id} after {stored.actions} stored actions.", file=out)
            else:
                session.start_new()
        except (SessionError, StoreError) as exc:
            raise ServiceError(str(exc)) from None

        def announce(event: dict[str, Any]) -> None:
            if not run.quiet or event["kind"] in ("service",):
                print(f"- {event['text']}", file=out, flush=True)

        session.listeners.append(announce)
        session.publish()
        from controller.voice import attach

        voice = attach(session, hub, config.voice, out)  # from here on, when asked, the calls are spoken
        if config.web:
            server, token = serve_dashboard(session, hub, config, run.token, run.port_fallback)
            print(f"Table page: {server.url}", file=out)
            announce_token(token, server, config, out, "answer, overrule")
            if not under_systemd():
                print(f"With the token in the address: {server.url}?token={token}", file=out)
        print(f"Event log: {config.db_path()}", file=out, flush=True)
        watchdog = Watchdog(session.inputs_alive)
        session.watchdog = watchdog
        watchdog.ready(f"refereeing game #{session.game_id}")
        with _signals(session):
            driver(session)
            session.step()
            game = session.game
            if game is not None and game.is_over():
                winners = spoken_list([session.seat_name(w) for w in game.winners()]) or "nobody"
                print(f"Game #{session.game_id} is over after {session.play.turn(game)} turns. Winner: {winners}.",
                      file=out, flush=True)
            elif game is not None:
                print(f"Stopped at turn {session.play.turn(game)}; game #{session.game_id} is saved and resumes on the "
                      "next start.", file=out, flush=True)
            if run.keep_serving and server is not None and not session.stopping:
                print("The table page stays up; press Ctrl-C to stop.", file=out, flush=True)
                while not session.stopping:
                    session.step()
                    time.sleep(0.2)
        watchdog.stopping()
        return session
    finally:
        if voice is not None:
            voice.close(finish=0.0 if session.stopping else 30.0)  # the last calls (the winner) are heard
        if server is not None:
            server.stop()
        store.close()

