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

A table of a tournament (``config.tournament``, see :mod:`controller.tournament.table`) starts no
game by itself: it joins the tournament, shows the pairing it is given, and each game the referee
starts from the dashboard (*New game*) is handed to the driver, game after game, until it is stopped.
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
from controller.service.store import StoredGame, StoreError
from controller.service.table import TableSession, TableSetup
from controller.service.watchdog import Watchdog
from controller.vision.mat import MatLayout
from controller.vision.pipeline import TableWatcher

Driver = Callable[[TableSession], None]

#: Seconds between looks at the dashboard's commands while a table waits for its next game.
IDLE_STEP = 0.1


class TournamentTable(TableSession):
    """A table that plays game after game (a table of a tournament): the referee starts each game of
    the table's set-up from the dashboard (*New game*), and a notice (the pairing) is shown until then."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: What the table says while no game is played (a message), shown on the dashboard.
        self.notice: Any = ""

    def public_state(self) -> dict[str, Any]:
        return {**super().public_state(), "notice": self.notice, "can_start": True}

    def _cmd_start(self, payload: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(payload) - {"replace"})
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(unknown)}; known: replace")
        game = self.game
        if game is not None and self.status == "playing" and not game.is_over() and not payload.get("replace"):
            raise SessionError(f'game #{self.game_id} is still being played; abort it first or send "replace": true')
        self.start_new()
        self.notice = ""
        return {"started": self.game_id}


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


class CameraDriver:
    """Feeds the session from a camera source until its game is over or the frames end; called again
    for the next game (a table of a tournament plays several), it goes on from the next frame.

    A live camera is timed by the clock; a video file or a folder of images by its frame rate
    (``fps``, default 15), so that a recording is judged as it was filmed, not as fast as it reads."""

    def __init__(self, spec: str, fps: float | None = None) -> None:
        from controller.vision.sources import SourceError, open_source

        self.spec = spec
        try:
            self.source = open_source(spec)
        except SourceError as exc:
            raise ServiceError(f"cannot open the camera source {spec!r}: {exc}") from None
        recorded = Path(str(spec)).expanduser().exists()
        step = 1.0 / (fps or 15.0)
        ticks = iter(range(1 << 62))
        self.clock: Callable[[], float] = (lambda: next(ticks) * step) if recorded else time.monotonic
        self._frames: Any = None
        self._closed = False

    def __call__(self, session: TableSession) -> None:
        from controller.vision.sources import SourceError

        if self._frames is None:
            self._frames = iter(self.source)
        try:
            session.run(self._frames, clock=self.clock)
        except SourceError as exc:
            raise ServiceError(f"the camera source {self.spec!r} failed: {exc}") from None

    def close(self) -> None:
        """Release the camera or the file; idempotent."""
        if not self._closed:
            self._closed = True
            self.source.close()


def _close(driver: Driver) -> None:
    """Release what a driver holds (a camera), if it holds anything."""
    close = getattr(driver, "close", None)
    if close is not None:
        close()


def camera_driver(spec: str, fps: float | None = None) -> Driver:
    """Feed the session from camera source ``spec`` (see ``controller.vision.sources`` and :class:`CameraDriver`)."""
    return CameraDriver(spec, fps)


def run_table_service(config: ServiceConfig, setup: TableSetup, layout: MatLayout, watcher: TableWatcher,
                      driver: Driver, run: TableRun) -> TableSession:
    """Run the table as configured; returns the session once the driver has finished."""
    out = run.out if run.out is not None else sys.stdout
    store = open_store(config)
    server = None
    voice = None
    link = None
    tournament = bool(config.tournament)
    try:
        hub = Hub()
        try:
            session = (TournamentTable if tournament else TableSession)(setup, store, layout, watcher, hub)
            stored: StoredGame | None
            if tournament:  # the game left unfinished, else none until the referee starts the pairing's
                stored = store.unfinished()
                stored = stored if stored is not None and stored.game == setup.game else None
            else:
                stored = (matching_unfinished(store, setup.game, setup.options, setup.seed)
                          if run.start == "resume" else None)
            if stored is not None:
                session.resume(stored)
                print(f"Resuming game #{stored.id} after {stored.actions} stored actions.", file=out)
            elif not tournament:
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
        if tournament:  # its status, pairings and results go through the tournament's broker
            from controller.tournament.table import join

            try:
                link = join(session, config, out)
            except ValueError as exc:
                raise ServiceError(str(exc)) from None
        if config.web:
            server, token = serve_dashboard(session, hub, config, run.token, run.port_fallback)
            print(f"Table page: {server.url}", file=out)
            announce_token(token, server, config, out, "answer, overrule")
            if not under_systemd():
                print(f"With the token in the address: {server.url}?token={token}", file=out)
            if session.hand_pages:      # each player's own page, for a hand the table must not show
                from controller.service.runner import print_join_codes

                print_join_codes(server, config, out)
        print(f"Event log: {config.db_path()}", file=out, flush=True)
        watchdog = Watchdog(session.inputs_alive)
        session.watchdog = watchdog
        watchdog.ready(f"refereeing game #{session.game_id}" if session.game_id else "waiting for a game")
        with _signals(session):
            if tournament:
                serve_games(session, driver, out)
            else:
                driver(session)
                _close(driver)   # the camera is not held while the page stays up
                session.step()
                report(session, out)
            if ((run.keep_serving and server is not None) or tournament) and not session.stopping:
                print("The table page stays up; press Ctrl-C to stop.", file=out, flush=True)
                while not session.stopping:
                    session.step()
                    time.sleep(0.2)
        watchdog.stopping()
        return session
    finally:
        if link is not None:
            link.close()
        _close(driver)
        if voice is not None:
            voice.close(finish=0.0 if session.stopping else 30.0)  # the last calls (the winner) are heard
        if server is not None:
            server.stop()
        store.close()


def report(session: TableSession, out: TextIO) -> None:
    """How the game stands once the driver has finished with it: over (and who won), or saved."""
    game = session.game
    if game is not None and game.is_over():
        winners = spoken_list([session.seat_name(w) for w in game.winners()]) or "nobody"
        print(f"Game #{session.game_id} is over after {session.play.turn(game)} turns. Winner: {winners}.",
              file=out, flush=True)
    elif game is not None:
        print(f"Stopped at turn {session.play.turn(game)}; game #{session.game_id} is saved and resumes on the "
              "next start.", file=out, flush=True)


def serve_games(session: TableSession, driver: Driver, out: TextIO) -> None:
    """A table of a tournament: each game the referee starts goes to the driver; between games the
    table waits, its dashboard's commands handled. Returns when stopped, or when the driver leaves a
    game unfinished (its frames ended): the table then only serves its page and its link."""
    while not session.stopping:
        game = session.game
        if game is None or session.status != "playing" or game.is_over():
            session.step()
            time.sleep(IDLE_STEP)
            continue
        driver(session)
        session.step()
        report(session, out)
        if session.game is game and session.status == "playing" and not game.is_over():
            return

