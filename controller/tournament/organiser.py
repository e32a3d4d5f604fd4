"""The organiser at work: the broker in, the tournament's logic, the standings page out.

``bitbox tournament run`` runs an :class:`Organiser`: one thread owns the tournament's SQLite state
(:class:`~controller.tournament.rounds.Tournament`) and does everything in order; paho's network
thread only queues what arrives. For each result it checks, writes, publishes the table's
acknowledgement and only then acknowledges the message to the broker (MQTT 5 with a persistent
session and manual acknowledgements), so a result the organiser had not written when it was killed
is delivered to it again when it comes back. Pairings are written before they are published
(retained), and published again after every reconnection, so a broker that lost its retained
messages gets them back.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.service.hub import Hub
from controller.tournament.rounds import Tournament
from controller.tournament.store import Board, TournamentError, TournamentStore
from controller.tournament.topics import BrokerAddress, connect_async, mqtt_client, table_number

log = logging.getLogger(__name__)

#: Seconds between looks at the tournament's file for changes made by hand (record, move).
HAND_CHECK = 0.5


class Organiser:
    """Runs a tournament against a broker (see the module's docstring)."""

    def __init__(self, path: str | Path, address: BrokerAddress, on_change: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.path = Path(path)
        self._lock = _run_lock(self.path)
        self.store = TournamentStore(self.path)
        self.tournament = Tournament(self.store)
        if address.name != self.tournament.settings.name:
            raise TournamentError(f"the broker address names the tournament {address.name!r}, but {self.path} holds "
                                  f"{self.tournament.settings.name!r}")
        self.address = address
        self.topics = self.tournament.topics
        self.hub = Hub()
        self.on_change = on_change
        self._inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._stopping = threading.Event()
        self.connected = threading.Event()
        self._commands: queue.Queue[tuple[Callable[[], Any], Any]] = queue.Queue()
        self.client = mqtt_client(address, f"bitbox-organiser-{address.name}", manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._state_text = ""
        self.counts = {"recorded": 0, "duplicate": 0, "refused": 0}

    # ---- paho's thread: queue what arrives ----------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.error("the broker %s:%s refused the organiser: %s", self.address.host, self.address.port, reason)
            return
        client.subscribe([(self.topics.status("+"), 1), (self.topics.result("+"), 1)])
        self._inbox.put(("connected", None))

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()
        if not self._stopping.is_set():
            log.warning("lost the broker (%s); reconnecting", reason)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        self._inbox.put(("message", message))

    # ---- the organiser's thread ---------------------------------------------------------------

    def start(self) -> None:
        connect_async(self.client, self.address)

    def stop(self) -> None:
        self._stopping.set()

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def command(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` in the organiser's thread (the standings page's requests); its result or error."""
        import concurrent.futures

        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._commands.put((fn, future))
        return future

    def run(self, until_over: bool = True) -> None:
        """Run until :meth:`stop` (or the tournament is over, with ``until_over``)."""
        self.start()
        self._advance()
        self.publish_state()
        next_hand_check = time.monotonic() + HAND_CHECK
        try:
            while not self._stopping.is_set():
                try:
                    kind, item = self._inbox.get(timeout=0.1)
                except queue.Empty:
                    kind, item = "", None
                changed = False
                while kind:
                    changed |= self._handle(kind, item)
                    try:
                        kind, item = self._inbox.get_nowait()
                    except queue.Empty:
                        kind = ""
                changed |= self._run_commands()
                if time.monotonic() >= next_hand_check:
                    next_hand_check = time.monotonic() + HAND_CHECK
                    if self.store.changed():
                        changed = True
                        self._publish_pairings()
                if changed:
                    self._advance()
                    self.publish_state()
                if until_over and self.tournament.over:
                    break
        finally:
            self.close()

    def close(self) -> None:
        self._stopping.set()
        try:
            self.client.disconnect()
            self.client.loop_stop()
        except Exception:  # noqa: BLE001 - closing a client that never connected
            pass
        self.store.close()
        _release(self._lock)

    def _run_commands(self) -> bool:
        ran = False
        while True:
            try:
                fn, future = self._commands.get_nowait()
            except queue.Empty:
                return ran
            ran = True
            try:
                future.set_result(fn())
            except Exception as exc:  # noqa: BLE001 - the page reports it
                future.set_exception(exc)

    def _handle(self, kind: str, item: Any) -> bool:
        if kind == "connected":
            self.connected.set()
            log.info("connected to the broker %s:%s", self.address.host, self.address.port)
            self._publish_pairings(everyone=True)
            return True
        topic = item.topic
        where = self.topics.table_of(topic)
        try:
            if where is not None and where[1] == "status":
                return self._status(where[0], item.payload)
            if where is not None and where[1] == "result":
                verdict = self.tournament.accept(topic, item.payload)
                self.counts[verdict.outcome] = self.counts.get(verdict.outcome, 0) + 1
                if verdict.ack is not None and verdict.table is not None:
                    self._publish(self.topics.ack(verdict.table), verdict.ack, retain=True)
                if verdict.changed:
                    self._withdraw_done(verdict.table)
                return verdict.changed
            log.warning("refused a message on %s: not a topic the organiser reads", topic)
            return False
        finally:
            self.client.ack(item.mid, item.qos)

    def _status(self, table_text: str, payload: bytes) -> bool:
        table = table_number(table_text)
        if table is None:
            log.warning("refused a status on table %r: not a table number", table_text)
            return False
        if not payload:
            return self.tournament.table_status(table, None)
        try:
            status = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            log.warning("refused a status of table %s: not valid JSON (%d bytes)", table, len(payload))
            return False
        if not isinstance(status, dict) or status.get("table") != table or status.get("state") not in (
                "waiting", "paired", "playing", "offline"):
            log.warning("refused a status of table %s: not a status of that table (%.80r)", table, status)
            return False
        before = self.tournament.tables.get(table, {}).get("score")
        changed = self.tournament.table_status(table, status)
        return changed or status.get("score") != before

    # ---- the organiser's changes by hand (the standings page's requests, in this thread) ---------

    def record_by_hand(self, number: int, board_no: int, scores: list[float], winners: list[int] | None) -> Board:
        """Record a pairing's result by hand; its table, should it come back, holds it no longer."""
        board = self.tournament.record_by_hand(number, board_no, scores, winners)
        self._withdraw_done(board.table)
        log.info("round %s, pairing %s recorded by hand", number, board_no)
        return board

    def move(self, number: int, board_no: int, table: int) -> Board:
        """Have an online, free table play a pairing instead of its own (which is told so)."""
        self.tournament.check_move(number, board_no, table)
        board = self.tournament.move(number, board_no, table)
        self._publish_pairings()
        log.info("round %s, pairing %s moved to table %s", number, board_no, table)
        return board

    # ---- publishing ---------------------------------------------------------------------------

    def _publish(self, topic: str, data: Any, retain: bool = False) -> None:
        payload = b"" if data is None else json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
        self.client.publish(topic, payload, qos=1, retain=retain)

    def _advance(self) -> None:
        """Close and pair rounds, give tables their pairings, as far as things allow."""
        while True:
            paired = self.tournament.advance()
            given = self.tournament.assign_tables()
            for board in given:
                self._publish_board(board)
            if paired:
                self._publish_round()
            if not paired and not given:
                return

    def _publish_board(self, board: Board) -> None:
        if board.table is not None:
            self._publish(self.topics.pairing(board.table), self.tournament.pairing_message(board), retain=True)

    def _publish_round(self) -> None:
        state = self.tournament.state()
        self._publish(self.topics.round, {"round": state["tournament"]["round"], "pairings": state["pairings"],
                                          "byes": state["byes"]}, retain=True)
        self._publish(self.topics.standings, state["standings"], retain=True)

    def _publish_pairings(self, everyone: bool = False) -> None:
        """Each table's pairing of the current round, published again; with ``everyone`` (after a
        reconnection) the round and the standings too. A pairing moved to another table is withdrawn."""
        number = self.store.current_round()
        holding: set[int] = set()
        for board in self.store.boards(number) if number else []:
            if board.table is not None and not board.done:
                holding.add(board.table)
                self._publish_board(board)
            for old in board.tables:
                if old != board.table and old not in holding and not board.done:
                    self._publish(self.topics.pairing(old), None, retain=True)
        if everyone:
            self._publish_round()

    def _withdraw_done(self, table: int | None) -> None:
        """A table whose result is recorded has no pairing until it is given the next one."""
        if table is None:
            return
        number = self.store.current_round()
        if not any(b.table == table and not b.done for b in self.store.boards(number)):
            self._publish(self.topics.pairing(table), None, retain=True)

    def publish_state(self) -> None:
        """The standings page's state to every page (when it changed) and to ``on_change``."""
        state = self.tournament.state()
        text = json.dumps(state, separators=(",", ":"), ensure_ascii=False)
        if text == self._state_text:
            return
        self._state_text = text
        self.hub.publish({"type": "standings", "state": state, "at": time.time()}, state_text=text)
        if self.on_change is not None:
            self.on_change(state)


def _run_lock(path: Path) -> int:
    """An exclusive lock beside the tournament's file: one organiser at a time runs it (the lock
    goes with the process, even killed)."""
    lock = path.with_name(path.name + ".lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise TournamentError(f"another organiser is running the tournament of {path}; stop it first "
                              "(one organiser per tournament)") from None
    return fd


def _release(fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    except OSError:
        pass

