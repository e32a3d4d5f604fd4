"""What the tournament's tests share: a real Mosquitto on a free loopback port (started by the test,
never the system's service), a cable that can be cut between a table and the broker, tournaments
of simulated tables and an organiser running in a thread or in a process of its own."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.games import game
from controller.tournament.broker import LocalBroker, mosquitto_binary, table_acl
from controller.tournament.cli import make_tournament
from controller.tournament.organiser import Organiser
from controller.tournament.simulated import SimulatedTable
from controller.tournament.store import TournamentStore
from controller.tournament.topics import BrokerAddress

ROOT = Path(__file__).resolve().parents[2]
#: A quick game bots play on phones (a few dozen actions), so rounds take a fraction of a second.
GAME = "memodixe"


def wait_for(predicate: Callable[[], Any], timeout: float = 20.0, what: str = "the condition") -> Any:
    """Poll ``predicate`` until it is true; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@pytest.fixture
def mosquitto() -> str:
    binary = mosquitto_binary()
    if binary is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto); .ci/run installs it")
    return binary


@pytest.fixture
def broker(tmp_path: Path, mosquitto: str) -> Iterator[LocalBroker]:
    with LocalBroker(tmp_path / "broker") as running:
        yield running


USERS = {"organiser": "organiser-secret", **{f"table-{n}": f"table-{n}-secret" for n in range(1, 5)}}


@pytest.fixture
def secure_broker(tmp_path: Path, mosquitto: str) -> Iterator[LocalBroker]:
    """A broker with a password file and an ACL: table N writes only under its own topic."""
    with LocalBroker(tmp_path / "secure-broker", users=USERS, acl=table_acl("club", 4), verbose=True) as running:
        yield running


class Cable:
    """A TCP relay between a table and the broker that a test can cut and mend (the table's network)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connected = True
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _addr = self.listener.accept()
            except OSError:
                return
            if not self.connected:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        self.connected = False
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def mend(self) -> None:
        self.connected = True

    def close(self) -> None:
        self.cut()
        self.listener.close()


@pytest.fixture
def cables() -> Iterator[list[Cable]]:
    made: list[Cable] = []
    yield made
    for cable in made:
        cable.close()


def new_tournament(path: Path, address: BrokerAddress, players: int = 8, **kwargs: Any) -> None:
    names = [f"P{n:02d}" for n in range(1, players + 1)]
    make_tournament(path, address.name, game(kwargs.pop("game", GAME)), names, broker=address.url, **kwargs).close()


class Tables:
    """Simulated tables started by a test and stopped after it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.running: dict[int, SimulatedTable] = {}

    def start(self, number: int, url: str, auto_start: bool = True, bot_delay: float = 0.0,
              **settings: Any) -> SimulatedTable:
        table = SimulatedTable(self.folder, game(GAME), number, {"url": url, **settings}, bot_delay=bot_delay,
                               auto_start=auto_start)
        self.running[number] = table.start()
        return table

    def stop(self, number: int) -> None:
        self.running.pop(number).stop()

    def stop_all(self) -> None:
        for number in list(self.running):
            self.stop(number)


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Tables]:
    made = Tables(tmp_path / "tables")
    made.folder.mkdir()
    yield made
    made.stop_all()


class OrganiserThread:
    """An organiser running in a thread of the test's process."""

    def __init__(self, path: Path, address: BrokerAddress) -> None:
        self.organiser = Organiser(path, address)
        self.thread = threading.Thread(target=self.organiser.run, kwargs={"until_over": False}, daemon=True)
        self.thread.start()

    def state(self) -> dict[str, Any]:
        return self.organiser.hub.latest["state"] if self.organiser.hub.latest else {}

    def stop(self) -> None:
        self.organiser.stop()
        self.thread.join(10)


@pytest.fixture
def organisers() -> Iterator[list[OrganiserThread]]:
    made: list[OrganiserThread] = []
    yield made
    for one in made:
        one.stop()


class OrganiserProcess:
    """``bitbox tournament run`` in a process of its own (so that a test can kill it with SIGKILL)."""

    def __init__(self, path: Path, log: Path, env: dict[str, str] | None = None, *extra: str) -> None:
        self.path = path
        self.log = log
        command = [sys.executable, "-m", "controller", "tournament", "run", "--db", str(path), "--no-web",
                   "--keep-serving", *extra]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=log.open("ab"), stderr=subprocess.STDOUT,
                                        env={**os.environ, **(env or {})})

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def recorded(path: Path) -> list[tuple[int, int, str]]:
    """The results a tournament's file holds: (round, board, digest)."""
    with TournamentStore(path) as store:
        return [(b.round, b.board, b.digest) for b in store.boards() if b.done]


def pairings(path: Path) -> dict[int, list[tuple[int, ...]]]:
    with TournamentStore(path) as store:
        out: dict[int, list[tuple[int, ...]]] = {}
        for b in store.boards():
            out.setdefault(b.round, []).append(b.players)
        return out


def receipts(path: Path) -> list[dict[str, Any]]:
    with TournamentStore(path) as store:
        return store.receipts()


def as_json(text: str) -> Any:
    return json.loads(text)
