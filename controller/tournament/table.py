"""A table in a tournament: its status on the broker, its pairing on its dashboard, its results out.

:func:`join` attaches a :class:`TableLink` to a running game loop (the console's or the phones'):

* it announces the table with a retained status (game, seats, state, software version, the score
  of the game being played), and a retained last will that marks it offline;
* a pairing from the organiser is written to the table's own small SQLite file, then set up in the
  loop (the players' names in their seats, the game's options) and shown on the dashboard, "Round 2,
  table 3: Alice red, Bob blue"; the game starts when the referee taps *New game*;
* once that game is over, its result (players, places, scores, the digest of its event log, the
  save itself so that the organiser can replay it) goes into an outbox in the same file, then to the
  broker with QoS 1, again at each reconnection, until the organiser's acknowledgement names it.

The table plays on without the broker: paho reconnects by itself, with a persistent session, and the
outbox sends what is owed when it is back. The loop's own state is never touched from paho's thread:
the pairing is handed to the loop as a command.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import shlex
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, TextIO

from controller import __version__, i18n
from controller.games import game as game_spec
from controller.i18n import N_, _, message
from controller.service.config import PlayerConfig
from controller.tournament.results import result_of
from controller.tournament.rounds import digest_of
from controller.tournament.settings import TableSettings
from controller.tournament.topics import Topics, connect_async, mqtt_client

log = logging.getLogger(__name__)

#: Seconds between resends of a result the organiser has not acknowledged.
RESEND_EVERY = 5.0
#: The least time between two statuses that only change the score.
SCORE_EVERY = 0.5
#: The loop's command that sets up a pairing (run in the loop's thread).
PAIRING_COMMAND = "tournament_pairing"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pairings (
    tournament TEXT NOT NULL, round INTEGER NOT NULL, board INTEGER NOT NULL, payload TEXT NOT NULL,
    state TEXT NOT NULL, game_id INTEGER, received REAL NOT NULL, PRIMARY KEY (tournament, round, board));
CREATE TABLE IF NOT EXISTS outbox (
    tournament TEXT NOT NULL, round INTEGER NOT NULL, board INTEGER NOT NULL, digest TEXT NOT NULL,
    payload TEXT NOT NULL, acked TEXT, PRIMARY KEY (tournament, round, board));
"""


def link_path(db: Path) -> Path:
    """The table's tournament file, beside its event log."""
    return db.with_name(db.stem + "-tournament.db")


def seat_words(spec: Any, options: dict[str, Any], names: list[str], wheels: bool = True) -> list[dict[str, Any]]:
    """Each player with the colour of their seat's controller ("Alice red"), or their seat's number
    for a game played without controllers (``wheels`` false: on phones or under the camera)."""
    colours: list[str] = []
    if wheels and spec.plays_on("wheels") and spec.wheels:
        try:
            rules = spec.load_wheels()(spec.load_engine()(options, seed=0), None)
            owners = {rules.owner(piece): rules.piece_name(piece) for piece in range(rules.pieces())}
            colours = [owners.get(seat, "") for seat in range(len(names))]
        except (ValueError, KeyError, TypeError, AttributeError):
            colours = []
    words = []
    for seat, name in enumerate(names):
        if seat < len(colours) and colours[seat]:
            words.append(message(N_("{name} {colour}"), name=name, colour=message(colours[seat])))
        else:
            words.append(message(N_("{name} (seat {number})"), name=name, number=seat + 1))
    return words


@dataclasses.dataclass(frozen=True)
class Shown:
    """What a published state says of the game at the table, as the link reads it."""

    game_id: int | None
    playing: bool
    names: list[Any]
    over: bool
    scores: Any = None


class ConsoleSeats:
    """What the link asks of a loop set up by a :class:`~controller.service.config.ServiceConfig`
    (the console's wheels, the phones): the next game's players and options go into its ``config``,
    which its *New game* (``start``) command reads."""

    camera = False

    def __init__(self, session: Any, spec: Any) -> None:
        self.session = session
        self.spec = spec

    @property
    def game(self) -> str:
        return str(self.session.config.game)

    def seats(self) -> int:
        config = self.session.config
        return len(config.pieces) if config.pieces else int(self.spec.players[1])

    def refusal(self, options: dict[str, Any]) -> str | None:
        """Why this table cannot play a pairing with ``options`` (``None``: it can)."""
        return None

    def seat(self, names: list[str], options: dict[str, Any]) -> None:
        """The next game: these players, these options (the loop's thread)."""
        session = self.session
        config = session.config
        bots = [config.players[seat].bot if seat < len(config.players) else False for seat in range(len(names))]
        pieces = list(config.pieces)
        if pieces and self.spec.plays_on("wheels") and self.spec.wheels:
            rules = self.spec.load_wheels()(self.spec.load_engine()(options, seed=0), None)
            pieces = pieces[: rules.pieces()]
        session.config = dataclasses.replace(config, options=options, pieces=pieces,
                                             players=[PlayerConfig(n, b) for n, b in zip(names, bots)])

    def shown(self, state: dict[str, Any]) -> Shown:
        game = state.get("game") or {}
        return Shown(game.get("id"), state.get("status") == "playing", [p.get("name") for p in state.get("players") or []],
                     bool(game.get("over")), state.get("scores"))


class CameraSeats(ConsoleSeats):
    """What the link asks of a loop refereed by the table camera (a
    :class:`~controller.service.table.TableSession`): the next game's players and options go into
    its ``setup``, which its *New game* command reads; the way the camera plays the game
    (``GameSpec.mode_options["camera"]``) must agree with the tournament's options."""

    camera = True

    @property
    def game(self) -> str:
        return str(self.session.setup.game)

    def seats(self) -> int:
        return int(self.spec.players[1])

    def refusal(self, options: dict[str, Any]) -> str | None:
        implied = self.spec.mode_options.get("camera", {})
        wrong = {k: v for k, v in implied.items() if options.get(k) != v}
        if not wrong:
            return None
        def given(key: str, value: Any) -> str:
            return f"{key}={value if isinstance(value, str) else json.dumps(value, separators=(',', ':'))}"

        wanted = " ".join(f"--option {shlex.quote(given(k, v))}" for k, v in implied.items())
        return (f"the table camera plays {self.spec.name} with {', '.join(given(k, v) for k, v in implied.items())}, "
                f"but the tournament plays {', '.join(given(k, options.get(k)) for k in wrong)}: make the "
                f"tournament with `bitbox tournament new ... {wanted}`, or play this table without the camera")

    def seat(self, names: list[str], options: dict[str, Any]) -> None:
        setup = self.session.setup
        self.session.setup = dataclasses.replace(setup, options=options, players=[PlayerConfig(n) for n in names])

    def shown(self, state: dict[str, Any]) -> Shown:
        game = self.session.game    # the listener runs in the loop's thread: the game is the loop's own
        scores = list(game.scores()) if game is not None else None
        return Shown(state.get("game_id"), state.get("status") == "playing",
                     [p.get("name") for p in state.get("players") or []], bool(state.get("over")), scores)


def seats_of(session: Any, spec: Any) -> ConsoleSeats:
    """How the link talks to ``session``: a loop with a ``config`` (wheels, phones) or with a table
    ``setup`` (the camera)."""
    return ConsoleSeats(session, spec) if hasattr(session, "config") else CameraSeats(session, spec)


class TableLink:
    """One table's end of a tournament (see the module's docstring)."""

    def __init__(self, session: Any, settings: TableSettings, path: Path, out: TextIO | None = None) -> None:
        self.session = session
        self.settings = settings
        self.table = settings.table
        self.name = settings.address.name
        self.topics = Topics(self.name)
        self.out = out
        self.spec = game_spec(session.config.game if hasattr(session, "config") else session.setup.game)
        #: What the link asks of the loop (its kind: a console's or a camera's).
        self.seats = seats_of(session, self.spec)
        self._db_lock = threading.Lock()
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)
        self.client = mqtt_client(settings.address, f"bitbox-{self.name}-table-{self.table}",
                                  will=(self.topics.status(self.table), self._status_payload("offline")))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self.connected = threading.Event()
        #: Called (in paho's thread) with each new pairing: a simulated referee taps start then.
        self.on_pairing: list[Callable[[dict[str, Any]], None]] = []
        self._last_status: tuple[Any, ...] | None = None
        self._last_status_at = 0.0
        self._resend_at = 0.0
        self._timer: threading.Timer | None = None
        self._closed = False
        self._shown: Shown | None = None
        self.published = 0
        setattr(session, f"_cmd_{PAIRING_COMMAND}", self._apply_pairing)

    # ---- the table's own file ------------------------------------------------------------------

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._db_lock:
            return list(self.db.execute(sql, args))

    def current(self) -> dict[str, Any] | None:
        """The pairing this table holds and has not finished: its message, state and game."""
        rows = self._query("SELECT payload, state, game_id FROM pairings WHERE tournament = ? AND state != 'done' "
                           "AND state != 'withdrawn' ORDER BY received DESC LIMIT 1", (self.name,))
        if not rows:
            return None
        payload, state, game_id = rows[0]
        return {**json.loads(payload), "state": state, "game_id": game_id}

    def outbox(self) -> list[tuple[int, int, str, bytes]]:
        """Results not yet acknowledged: (round, board, digest, payload)."""
        return [(r, b, d, p.encode()) for r, b, d, p in self._query(
            "SELECT round, board, digest, payload FROM outbox WHERE tournament = ? AND acked IS NULL "
            "ORDER BY round, board", (self.name,))]

    # ---- starting and stopping -----------------------------------------------------------------

    def start(self) -> TableLink:
        if self.out is not None:
            print(_("Table {table} of the tournament {name} ({broker}).").format(
                table=self.table, name=self.name, broker=self.settings.address.url), file=self.out, flush=True)
        latest = self.session.hub.latest
        if latest is not None:
            self._shown = self.seats.shown(latest.get("state") or {})
        self.session.hub.add_listener(self._on_state)
        self._finish_stored()
        connect_async(self.client, self.settings.address)
        self._tick()
        return self

    def close(self) -> None:
        """Say the table is offline, stop talking to the broker; idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        self.session.hub.remove_listener(self._on_state)
        if self.connected.is_set():
            info = self.client.publish(self.topics.status(self.table), self._status_payload("offline"), qos=1,
                                       retain=True)
            try:
                info.wait_for_publish(2.0)
            except (RuntimeError, ValueError):
                pass
            self.client.disconnect()
        self.client.loop_stop()
        with self._db_lock:
            self.db.close()

    def _tick(self) -> None:
        """Every few seconds: resend what the organiser has not acknowledged."""
        if self._closed:
            return
        if self.connected.is_set():
            self._send_outbox()
        self._timer = threading.Timer(RESEND_EVERY, self._tick)
        self._timer.daemon = True
        self._timer.start()

    # ---- paho's thread --------------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.error("table %s: the broker %s:%s refused the connection: %s", self.table,
                      self.settings.address.host, self.settings.address.port, reason)
            return
        self.connected.set()
        log.info("table %s joined the tournament %s", self.table, self.name)
        client.subscribe([(self.topics.pairing(self.table), 1), (self.topics.ack(self.table), 1)])
        self._last_status = None
        self._publish_status(force=True)
        self._send_outbox()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self.connected.is_set() and not self._closed:
            log.warning("table %s lost the broker (%s); playing on, results are kept until it is back", self.table,
                        reason)
        self.connected.clear()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        if reason is not None and getattr(reason, "is_failure", False):
            log.error("table %s: the broker refused a message: %s (check the broker's ACL: a table writes under "
                      "%s only)", self.table, reason, self.topics.table(self.table))

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        try:
            if msg.topic == self.topics.pairing(self.table):
                self._pairing(msg.payload)
            elif msg.topic == self.topics.ack(self.table):
                self._ack(msg.payload)
        except Exception:  # noqa: BLE001 - a bad message must not stop paho's thread
            log.exception("table %s: a message on %s could not be handled", self.table, msg.topic)

    def _pairing(self, payload: bytes) -> None:
        if not payload:
            self._withdrawn()
            return
        try:
            data = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            log.warning("table %s: refused a pairing that is not valid JSON", self.table)
            return
        ok = (isinstance(data, dict) and data.get("tournament") == self.name and data.get("table") == self.table
              and type(data.get("round")) is int and type(data.get("board")) is int
              and isinstance(data.get("players"), list) and isinstance(data.get("options"), dict))
        if not ok:
            log.warning("table %s: refused a pairing that is not for this table: %.120r", self.table, data)
            return
        if data.get("game") != self.seats.game:
            log.error("table %s plays %s but the tournament plays %s: restart it with `bitbox play %s`", self.table,
                      self.seats.game, data.get("game"), data.get("game"))
            return
        refused = self.seats.refusal(data["options"])
        if refused is not None:
            log.error("table %s refused the pairing of round %s: %s", self.table, data["round"], refused)
            return
        key = (self.name, data["round"], data["board"])
        with self._db_lock:
            known = self.db.execute("SELECT state FROM pairings WHERE tournament = ? AND round = ? AND board = ?",
                                    key).fetchone()
            if known is not None and known[0] != "withdrawn":
                return  # the same pairing again (a retained message after a reconnection)
            self.db.execute("INSERT OR REPLACE INTO pairings VALUES (?, ?, ?, ?, 'received', NULL, ?)",
                            (*key, json.dumps(data), time.time()))
        log.info("table %s: round %s, pairing %s: %s", self.table, data["round"], data["board"],
                 ", ".join(str(p.get("name")) for p in data["players"] if isinstance(p, dict)))
        self.session.command(PAIRING_COMMAND, data)
        for listener in self.on_pairing:
            listener(data)

    def _withdrawn(self) -> None:
        """The organiser took back the pairing this table held and had not started (given elsewhere)."""
        current = self.current()
        if current is None or current["state"] != "received":
            return
        with self._db_lock:
            self.db.execute("UPDATE pairings SET state = 'withdrawn' WHERE tournament = ? AND round = ? AND board = ?",
                            (self.name, current["round"], current["board"]))
        log.info("table %s: the pairing of round %s was withdrawn", self.table, current["round"])

    def _ack(self, payload: bytes) -> None:
        try:
            data = json.loads(payload) if payload else None
        except (ValueError, UnicodeDecodeError):
            return
        if not isinstance(data, dict):
            return
        with self._db_lock:
            done = self.db.execute("UPDATE outbox SET acked = ? WHERE tournament = ? AND round = ? AND board = ? "
                                   "AND digest = ? AND acked IS NULL",
                                   (str(data.get("outcome")), self.name, data.get("round"), data.get("board"),
                                    data.get("digest"))).rowcount
        if done and data.get("outcome") == "refused":
            log.error("table %s: the organiser refused the result of round %s: %s", self.table, data.get("round"),
                      data.get("reason"))
        elif done:
            log.info("table %s: the organiser recorded the result of round %s", self.table, data.get("round"))

    def _send_outbox(self) -> None:
        for _round, _board, _digest, payload in self.outbox():
            self.client.publish(self.topics.result(self.table), payload, qos=1)

    # ---- the loop's thread ----------------------------------------------------------------------

    def _apply_pairing(self, data: dict[str, Any]) -> dict[str, Any]:
        """Seat the pairing's players for the next game and show the pairing (the loop's command)."""
        session = self.session
        names = [str(p.get("name", "")) for p in data["players"] if isinstance(p, dict)]
        options = dict(data["options"])
        with self._db_lock:
            self.db.execute("UPDATE pairings SET game_id = ? WHERE tournament = ? AND round = ? AND board = ? "
                            "AND state = 'received'", (-(session.game_id or 0), self.name, data["round"], data["board"]))
        self.seats.seat(names, options)
        words = message(N_("Round {round}, table {table}: {players}"), round=data["round"], table=self.table,
                        players=i18n.listing(seat_words(self.spec, options, names, wheels=not self.seats.camera)))
        session.notice = words
        session._record({"kind": "tournament", "text": i18n.said(words, i18n.SOURCE_LANGUAGE), "message": words,
                         "data": {"round": data["round"], "board": data["board"]}})
        session.publish()
        return {"round": data["round"], "board": data["board"]}

    def _on_state(self, published: dict[str, Any]) -> None:
        """Each state the loop publishes: which game plays the pairing, its score, its end."""
        shown = self._shown = self.seats.shown(published.get("state") or {})
        current = self.current()
        if current is not None and shown.game_id is not None:
            wanted = [p.get("name") for p in current["players"]]
            # A game begun after the one the table had when the pairing came (stored negated), or after the
            # paired game itself when the referee aborted or replaced it: the pairing is played in it.
            after = -(current["game_id"] or 0) if current["state"] == "received" else current["game_id"]
            if current["state"] in ("received", "playing") and shown.playing and shown.names == wanted \
                    and shown.game_id > after:
                self._set_pairing_state(current, "playing", shown.game_id)
                current = {**current, "state": "playing", "game_id": shown.game_id}
            if current["state"] == "playing" and current["game_id"] == shown.game_id and shown.over:
                self._finish(current, shown.game_id)
                current = None
        self._publish_status(shown=shown, current=current)

    def _set_pairing_state(self, current: dict[str, Any], state: str, game_id: int | None) -> None:
        with self._db_lock:
            self.db.execute("UPDATE pairings SET state = ?, game_id = ? WHERE tournament = ? AND round = ? AND board = ?",
                            (state, game_id, self.name, current["round"], current["board"]))

    def _finish_stored(self) -> None:
        """At start-up: a paired game that ended while the link was not running is reported now."""
        current = self.current()
        if current is None or current["state"] != "playing" or current["game_id"] is None:
            return
        try:
            stored = self.session.store.game(current["game_id"])
        except Exception:  # noqa: BLE001 - a game the log no longer has: nothing to report
            return
        if stored.status == "over":
            self._finish(current, current["game_id"])

    def _finish(self, current: dict[str, Any], game_id: int) -> None:
        """The paired game is over: its result into the outbox, then to the broker."""
        from controller.engines import Game
        from controller.service.loop import public_save

        save = public_save(self.session.store, game_id)
        game = Game.load(save)
        result = result_of(self.spec, game)
        payload = {"tournament": self.name, "table": self.table, "round": current["round"],
                   "board": current["board"], "game": self.spec.name,
                   "players": [p.get("id") for p in current["players"]], "result": result.to_json(),
                   "digest": digest_of(save), "save": save, "finished_at": time.time(), "version": __version__}
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        with self._db_lock:
            self.db.execute("INSERT OR IGNORE INTO outbox VALUES (?, ?, ?, ?, ?, NULL)",
                            (self.name, current["round"], current["board"], payload["digest"], text))
            self.db.execute("UPDATE pairings SET state = 'done' WHERE tournament = ? AND round = ? AND board = ?",
                            (self.name, current["round"], current["board"]))
        self.client.publish(self.topics.result(self.table), text.encode(), qos=1)
        self.published += 1
        log.info("table %s: the result of round %s is sent", self.table, current["round"])

    # ---- status ---------------------------------------------------------------------------------

    def _status_payload(self, state: str, extra: dict[str, Any] | None = None) -> bytes:
        data = {"table": self.table, "tournament": self.name, "game": self.seats.game, "seats": self.seats.seats(),
                "state": state, "version": __version__, **(extra or {})}
        return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()

    def _publish_status(self, force: bool = False, shown: Shown | None = None,
                        current: dict[str, Any] | None = None) -> None:
        if not self.connected.is_set():
            return
        if shown is None:
            shown = self._shown or Shown(None, False, [], False)
            current = self.current()
        playing = current is not None and current["state"] == "playing" and not shown.over
        kind = "playing" if playing else "paired" if current is not None else "waiting"
        extra: dict[str, Any] = {}
        if current is not None:
            extra = {"round": current["round"], "board": current["board"],
                     "players": [p.get("name") for p in current["players"]]}
        if playing:
            extra["score"] = shown.scores
        key = (kind, json.dumps(extra, sort_keys=True))
        now = time.monotonic()
        if not force and key == self._last_status:
            return
        if not force and self._last_status is not None and self._last_status[0] == kind \
                and now - self._last_status_at < SCORE_EVERY:
            return
        self._last_status, self._last_status_at = key, now
        self.client.publish(self.topics.status(self.table), self._status_payload(kind, extra), qos=1, retain=True)


def join(session: Any, config: Any, out: TextIO | None = None) -> TableLink:
    """Join the tournament ``config.tournament`` names, for the loop ``session``; the started link."""
    settings = TableSettings.from_mapping(config.tournament)
    link = TableLink(session, settings, link_path(config.db_path()), out)
    return link.start()
