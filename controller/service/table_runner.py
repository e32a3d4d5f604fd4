"""Putting the table service together: event log, camera, referee loop, dashboard and terminal.

:func:`run_table_service` is what ``bitbox play puxes`` and ``bitbox demo puxes`` share. It opens
the event log (refusing a damaged or busy one before anything else starts), resumes an unfinished
game of the same set-up or starts one, serves the dashboard (its *Table* page), prints every
announcement, and hands the session to a driver that feeds it frames:

* :func:`camera_driver`: frames from a camera source (picamera2, a device, a video file, a folder
  of images);
* :class:`DemoTable`: frames rendered from a seeded game that bots play on a simulated table, the
  players at that table answering the referee's questions from what is really there.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from controller.engines.puxes import PuxesGame
from controller.service.config import ServiceConfig
from controller.service.hub import Hub
from controller.service.runner import ServiceError, _signals, matching_unfinished, open_store, serve_dashboard
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
    out: TextIO = sys.stdout


def open_camera(layout_name: str) -> tuple[MatLayout, TableWatcher]:
    """The mat's layout and a watcher using the calibrated mat profile and the taught faces.

    Raises :class:`ServiceError` naming the calibration command to run when something is missing."""
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


class DemoTable:
    """A seeded PuXes game played by bots on a simulated table, shown to the session as camera frames.

    Built on the demo table of :mod:`controller.referee.puxes_demo`: the same scripted table, the
    same rendered camera (its calibrated mat profile and taught faces), and the same players, who
    answer the referee's questions with what is really on the table. What changes is the path:
    every frame goes through :meth:`TableSession.feed`, every answer and player's choice through
    the session's commands, so the event log, the dashboard and the terminal see a real game.
    """

    def __init__(self, seed: int = 1, max_turns: int | None = None, pace: float = 0.0,
                 image_size: tuple[int, int] = (1280, 720), players_answer: bool = True) -> None:
        from controller.referee.demo.camera import TableCamera
        from controller.referee.demo.table import ScriptedTable
        from controller.referee.puxes_demo import Players

        self.seed = seed
        self.max_turns = max_turns
        self.pace = pace
        self.table = ScriptedTable({"players": 2}, seed=seed)
        truth = self.table.game
        self.camera = TableCamera(truth.collection, {d.name for d in truth.dice.values()},
                                  image_size=image_size, seed=seed)
        self.people = Players(self.table)
        self.layout = self.camera.layout
        self.watcher = self.camera.watcher
        self.moments = 0
        self.differences: list[str] = []
        self.first_difference: str | None = None
        self._session: TableSession | None = None
        self.answers = 0
        #: False: questions wait for an answer from the dashboard (or the API) instead of the players'.
        self.players_answer = players_answer
        self._moment: tuple[Any, Any] = (None, None)

    def suggested_answer(self, question: Any) -> str:
        """What the players at the simulated table would answer to ``question`` now."""
        snap, tr = self._moment
        referee = self._session.referee if self._session is not None else None
        return self.people.answer(question, referee, snap, tr)[0]

    def setup(self, names: list[str] | None = None) -> TableSetup:
        from controller.service.config import PlayerConfig

        names = names or ["Ada", "Brice"]
        return TableSetup([PlayerConfig(n, bot=True) for n in names], {"players": 2}, self.seed)

    def __call__(self, session: TableSession) -> None:
        from controller.referee.demo.camera import FPS
        from controller.referee.puxes_demo import differences

        clock = 0.0
        self._session = session
        for tr in self.table.play(self.max_turns):
            if session.stopping or session.status != "playing":
                break
            session.step()
            for player, action in tr.told:
                session.player_action(player, action)
            snap = None
            for frame in self.camera.frames(tr.before, tr.after, tr.player, tr.reach_over):
                clock += 1.0 / FPS
                snap = session.feed(frame, clock)
                if snap is not None:
                    break
            referee = session.referee
            assert referee is not None
            self._moment = (snap, tr)
            while not self.players_answer and referee.questions and session.status == "playing" \
                    and not session.stopping:
                session.step()
                time.sleep(0.01)
            for _ in range(60):
                open_questions = list(referee.questions.values())
                if not open_questions or session.status != "playing":
                    break
                question = open_questions[0]
                choice, _kind = self.people.answer(question, referee, snap, tr)
                if self.pace:
                    session.step()
                    time.sleep(self.pace)
                answered = session.command("answer", {"question_id": question.question_id, "choice": choice})
                session.step()
                answered.result(timeout=0)
                self.answers += 1
            self.moments += 1
            self.differences = differences(referee.game, self.table.game)
            if self.differences and self.first_difference is None:
                self.first_difference = f"turn {tr.turn}, {tr.label}: {'; '.join(self.differences)}"
            session.step()
            if self.pace:
                time.sleep(self.pace)


def run_table_service(config: ServiceConfig, setup: TableSetup, layout: MatLayout, watcher: TableWatcher,
                      driver: Driver, run: TableRun) -> TableSession:
    """Run the table as configured; returns the session once the driver has finished."""
    out = run.out
    store = open_store(config)
    server = None
    try:
        hub = Hub()
        session = TableSession(setup, store, layout, watcher, hub)
        try:
            stored = (matching_unfinished(store, PuxesGame.NAME, setup.options, setup.seed)
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
        if config.web:
            server, token = serve_dashboard(session, hub, config, run.token, run.port_fallback)
            print(f"Table page: {server.url}#/table", file=out)
            print(f"Referee token (answer, overrule): {token}", file=out)
            print(f"With the token in the address: {server.url}?token={token}#/table", file=out)
        print(f"Event log: {config.db_path()}", file=out, flush=True)
        watchdog = Watchdog(session.inputs_alive)
        session.watchdog = watchdog
        watchdog.ready(f"refereeing game #{session.game_id}")
        with _signals(session):
            driver(session)
            session.step()
            game = session.game
            if game is not None and game.is_over():
                winners = " and ".join(session.seat_name(w) for w in game.winners()) or "nobody"
                print(f"Game #{session.game_id} is over after {game.turn_number} turns. Winner: {winners}.",
                      file=out, flush=True)
            elif game is not None:
                print(f"Stopped at turn {game.turn_number}; game #{session.game_id} is saved and resumes on the "
                      "next start.", file=out, flush=True)
            if run.keep_serving and server is not None and not session.stopping:
                print("The table page stays up; press Ctrl-C to stop.", file=out, flush=True)
                while not session.stopping:
                    session.step()
                    time.sleep(0.2)
        watchdog.stopping()
        return session
    finally:
        if server is not None:
            server.stop()
        store.close()

