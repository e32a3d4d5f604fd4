"""Putting the service together: store, controllers, game loop, dashboard, terminal, systemd.

:func:`run_service` is what ``bitbox demo``, ``bitbox play`` and ``bitbox serve`` share. It opens
the event store (refusing a damaged or busy one before anything else starts), the controllers'
backend, resumes an unfinished game or starts one, serves the dashboard, and runs the loop in the
calling thread until the game is over, a turn limit is reached, or SIGTERM/SIGINT arrives.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from controller import i18n
from controller.dials.backend import ControllerBackend, ControllerError
from controller.i18n import N_, _, ngettext
from controller.paths import state_dir
from controller.service.auth import make_token
from controller.service.config import ServiceConfig
from controller.service.hub import Hub
from controller.service.loop import GameLoop
from controller.service.session import Session, SessionError
from controller.service.store import GameStore, StoredGame, StoreError
from controller.service.terminal import TerminalView
from controller.service.watchdog import Watchdog
from controller.signals import on_signals

#: Seconds the service waits at start-up for every controller to be read once.
CONNECT_WAIT = 1.5


class ServiceError(Exception):
    """The service could not start; the message says why and what to do."""


@dataclasses.dataclass
class RunOptions:
    """How one run behaves (beyond the configuration of the table)."""

    start: str = "resume"          # "resume" the matching unfinished game, "new", or "serve" (any, else wait)
    until_over: bool = True        # return when the game is over
    max_turns: int | None = None   # return after this many resolved turns
    keep_serving: bool = False     # after the game, keep the dashboard up until interrupted
    terminal: str | None = "log"   # "log", "redraw" or None
    token: str | None = None
    port_fallback: bool = False    # if the port is taken, serve on any free port instead
    out: TextIO | None = None      # where to print (default: sys.stdout as it is when the run starts)


def open_controllers(config: ServiceConfig) -> ControllerBackend | None:
    """The configured backend, started; ``None`` when every seat is a bot and no controller is listed."""
    if not config.pieces:
        if config.players and all(p.bot for p in config.players):
            return None
        raise ServiceError(_("no controllers are listed for the {backend} backend: give one controller id per "
                             "colour, such as --controllers 1,2,3,4 (`bitbox firmware list` shows the USB "
                             "controllers' ids), or play on phones or one keyboard with --backend phone or "
                             "--backend keyboard").format(backend=config.backend))
    try:
        backend = _backend(config)
        backend.start()
    except (ControllerError, OSError, ValueError, KeyError, TypeError) as exc:
        raise ServiceError(_("cannot open the {backend} controllers: {reason}; check them with `bitbox dials watch "
                             "--backend {backend}`, or play on phones with --backend phone").format(
            backend=config.backend, reason=exc)) from None
    # Give the controllers a moment to be read once, so the game does not start "paused".
    wait_until(lambda: all(s.connected for s in backend.states().values())
               and set(config.pieces) <= set(backend.states()), CONNECT_WAIT)
    return backend


#: The backends that take the list of controller ids they read.
LISTED = ("sim", "gpio", "phone", "keyboard")


def _backend(config: ServiceConfig) -> ControllerBackend:
    """The configured backend, unstarted: one, or several mixed (``config.backends``)."""
    from controller.dials.factory import open_backend

    route = {cid: config.backends.get(cid, config.backend) for cid in config.pieces}
    names = list(dict.fromkeys(route.values()))
    parts = {}
    for name in names:
        options = dict(config.backend_options) if name == config.backend or name not in LISTED else {}
        if name in LISTED:
            options.setdefault("controllers", [cid for cid, part in route.items() if part == name])
        parts[name] = open_backend(name, **options)
    if len(parts) == 1:
        return parts[names[0]]
    from controller.dials.mixed import MixedBackend

    return MixedBackend(parts, route)


@contextlib.contextmanager
def _signals(session: GameLoop) -> Iterator[None]:
    """SIGTERM (systemd stop) and SIGINT (Ctrl-C) end the loop cleanly."""
    with on_signals(session.stop, signal.SIGTERM, signal.SIGINT):
        yield


def matching_unfinished(store: GameStore, game: str, options: dict[str, Any], seed: int | None) -> StoredGame | None:
    """The store's unfinished game if it is ``game`` with the same options and seed (any seed when
    ``seed`` is ``None``: it was drawn at random)."""
    stored = store.unfinished()
    if stored is None or stored.game != game:
        return None
    from controller.engines import game_class

    try:
        wanted = game_class(game).OPTIONS.from_dict(options).to_dict()
    except ValueError:
        return None
    if stored.options != wanted or (seed is not None and stored.seed != seed):
        return None
    return stored


def serve_dashboard(session: Any, hub: Hub, config: ServiceConfig, token: str | None,
                    port_fallback: bool) -> tuple[Any, str]:
    """Start the dashboard's web server for ``session``; the running server and its referee token.

    With ``port_fallback``, a taken port gives way to any free one instead of refusing to start."""
    from controller.service.web import WebServer, create_app
    from controller.service.web.server import WebServerError

    try:
        token = make_token(token)
    except ValueError as exc:
        raise ServiceError(str(exc)) from None
    from controller.service.web.guard import machine_hosts

    app = create_app(session, hub, token, hosts=machine_hosts(config.host))
    try:
        server = WebServer(app, config.host, config.port)
    except WebServerError as exc:
        if not port_fallback:
            raise ServiceError(str(exc)) from None
        server = WebServer(app, config.host, 0)
    try:
        server.start()
    except WebServerError as exc:
        server.stop()
        raise ServiceError(str(exc)) from None
    return server, token


def open_store(config: ServiceConfig) -> GameStore:
    """The configured event log, or a :class:`ServiceError` saying why it cannot be opened."""
    try:
        return GameStore(config.db_path())
    except StoreError as exc:
        raise ServiceError(str(exc)) from None


def run_service(config: ServiceConfig, run: RunOptions, mode: str = "wheels") -> Any:
    """Run the console as configured; returns the session once the loop has ended.

    ``mode`` is how the players give their moves: ``"wheels"`` (controllers, the console's
    :class:`Session`) or ``"phones"`` (each chooses on a phone, a
    :class:`~controller.service.choices.ChoiceSession`). What it prints is said in the language
    chosen when it starts (the loop's threads say it too)."""
    out = run.out if run.out is not None else sys.stdout
    lang = i18n.language()
    store = open_store(config)
    backend = None
    server = None
    voice = None
    link = None
    try:
        hub = Hub()
        if mode == "phones":
            from controller.service.choices import ChoiceSession

            session: Any = ChoiceSession(config, store, hub)
        else:
            backend = open_controllers(config)
            session = Session(config, backend, store, hub)
        try:
            if run.start == "new":
                session.start_new()
            elif run.start == "resume":
                stored = matching_unfinished(store, config.game, config.options, config.seed)
                if stored is not None:
                    session.resume(stored)
                    print(resuming(stored), file=out)
                else:
                    session.start_new()
            elif run.start == "serve":
                stored = store.unfinished()
                if stored is not None:
                    session.resume(stored)
                    print(resuming(stored), file=out)
            else:
                raise ValueError(f"unknown start mode {run.start!r}")
        except (SessionError, StoreError) as exc:
            raise ServiceError(str(exc)) from None
        session.publish()
        from controller.voice import attach

        voice = attach(session, hub, config.voice, out)  # from here on, when asked, the calls are spoken
        if config.tournament:  # a table of a tournament: its status, pairings and results go through the broker
            from controller.tournament.table import join

            try:
                link = join(session, config, out)
            except ValueError as exc:
                raise ServiceError(str(exc)) from None
        if run.terminal:
            TerminalView(session, out, run.terminal, lang=lang).attach()
        if config.web:
            server, token = serve_dashboard(session, hub, config, run.token, run.port_fallback)
            print(_("Dashboard: {url}").format(url=server.url), file=out)
            announce_token(token, server, config, out, _("start, abort, correct"))
            if config.host in ("0.0.0.0", "::"):
                print(_("The dashboard listens on every network interface."), file=out)
            print_join_codes(server, config, out)
        watchdog = Watchdog(session.inputs_alive)
        with _signals(session):  # from here on Ctrl-C and SIGTERM stop the game cleanly, saved
            print(_("Event log: {path}").format(path=config.db_path()), file=out, flush=True)
            watchdog.ready(f"serving game #{session.game_id}" if session.game_id else "waiting for a game")
            session.run(until_over=run.until_over and run.start != "serve", max_turns=run.max_turns, watchdog=watchdog)
            session.publish()
            game = session.game
            if game is not None and game.is_over():
                names = [session.seat_name(seat) for seat in range(game.num_players)]
                print(final_result(session.game_id, names, game.scores(), game.winners(), lang), file=out, flush=True)
            elif game is not None:
                print(i18n.say(N_("Stopped after {turns} resolved turns; game #{number} is saved and resumes on the "
                                  "next start (run the same command again)."), lang, turns=session.turns_resolved,
                               number=session.game_id), file=out, flush=True)
            if run.keep_serving and server is not None and not session.stopping:
                session.bots_held = True  # the game stays where it stopped while the dashboard is up
                print(i18n.say(N_("The dashboard stays up; press Ctrl-C to stop."), lang), file=out, flush=True)
                while not session.stopping:
                    session.step(0.2)
                    watchdog.tick()
        watchdog.stopping()
        return session
    finally:
        if link is not None:
            link.close()
        if voice is not None:
            voice.close(finish=0.0 if session.stopping else 30.0)  # the last calls (the winner) are heard
        if server is not None:
            server.stop()
        if backend is not None:
            backend.close()
        store.close()


def resuming(stored: StoredGame) -> str:
    """"Resuming game #3 after 12 stored actions."."""
    return ngettext("Resuming game #{number} after {count} stored action.",
                    "Resuming game #{number} after {count} stored actions.", stored.actions).format(
        number=stored.id, count=stored.actions)


def final_result(number: int | None, names: list[str], scores: tuple[float, ...], winners: tuple[int, ...],
                 lang: str | None = None) -> str:
    """"Game #1 is over. Final scores: Ada 22 and Brice 13. Winner: Ada." in ``lang``."""
    from controller.service.record import result_sentence

    return (i18n.say(N_("Game #{number} is over."), lang, number=number) + " "
            + result_sentence(names, scores, winners, lang))


def phone_address(config: ServiceConfig) -> str:
    """The address phones on the network reach the dashboard at: the configured one, or for a
    dashboard listening on every interface this machine's network address (its ``.local`` name,
    which Raspberry Pi OS announces, when no other address is known)."""
    from controller.service.web.guard import lan_address

    if config.host not in ("0.0.0.0", "::", ""):
        return config.host
    return lan_address()


#: The file holding the referee's token, in the state folder, readable by the service's user only.
TOKEN_FILE = "referee-token"


def under_systemd() -> bool:
    """Whether the service runs as a systemd unit (its output goes to the journal)."""
    return bool(os.environ.get("INVOCATION_ID") or os.environ.get("JOURNAL_STREAM"))


def announce_token(token: str, server: Any, config: ServiceConfig, out: TextIO, powers: str) -> Path:
    """Keep the referee's token in a file only its user reads; print it, and its link as a QR code,
    to a person at the terminal, never to systemd's journal (where anyone in the adm group reads it)."""
    path = state_dir() / TOKEN_FILE
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(token + "\n")
    os.chmod(path, 0o600)
    if under_systemd():
        print(_("Referee token ({powers}): in {path} (readable by this user only); the Pi's own dashboard "
                "shows its link as a QR code").format(powers=powers, path=path), file=out)
        return path
    link = f"http://{phone_address(config)}:{server.port}/?token={token}"
    print(_("Referee token ({powers}): {token}").format(powers=powers, token=token), file=out)
    if out.isatty():
        import segno

        print(_("The referee's link, for the referee's phone (it opens the dashboard with the token):"), file=out)
        segno.make(link, error="m").terminal(out=out, compact=True)
    return path


def print_join_codes(server: Any, config: ServiceConfig, out: TextIO) -> None:
    """For controllers played on phones: each seat's join link and its QR code, in the terminal."""
    registry = getattr(server.app.state, "seats", None)
    if registry is None:
        return
    import segno

    base = f"http://{phone_address(config)}:{server.port}"
    print(_("Each player scans the code of their colour with a phone (or opens the link):"), file=out)
    if config.host in ("127.0.0.1", "localhost", "::1"):
        print("  " + _("(the dashboard listens on this machine only: start with --host 0.0.0.0 so that phones "
                       "on the network reach it)"), file=out)
    for cid in registry.seats():
        url = base + registry.join_path(cid)
        print(f"  {cid}: {url}", file=out)
        if out.isatty():
            segno.make(url, error="m").terminal(out=out, compact=True)
    out.flush()


def spoken_list(names: list[str], lang: str | None = None) -> str:
    """``Ada``, ``Ada and Brice``, ``Ada, Brice and Chloé``: a list as a sentence says it."""
    return i18n.natural_list(list(names), lang)


def wait_until(predicate: Any, timeout: float, interval: float = 0.01) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds pass (used by tests and the bench)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
