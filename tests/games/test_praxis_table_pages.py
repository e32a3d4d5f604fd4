"""The players' own pages of a Praxis table (``/hand/N``) over real HTTP with a real SQLite log: a
tournament's pairing of another number of players than the table started with gets a page for each
of its seats and none for the others; a choice that cannot be made (no game, a log that cannot be
written) is answered with what went wrong and changes nothing; the score a tournament's table
reports is the one the table page shows."""

from __future__ import annotations

import contextlib
import http.client
import json
import sqlite3
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.engines.praxis.steps import KEEP
from controller.games import game as game_spec
from controller.games.praxis.reading import PRINTED_LAYOUT
from controller.service.config import PlayerConfig
from controller.service.store import GameStore
from controller.service.table import TableSession, TableSetup
from controller.service.web import WebServer, create_app
from controller.tournament.table import CameraSeats
from controller.vision.mat import load_layout
from tests.service.conftest import http_call

TOKEN = "praxis-pages-token-0123456789"
LAYOUT = [list(p) for p in PRINTED_LAYOUT]
NAMES = ["Ada", "Brice", "Chloé", "Dan"]
FULL = "the disk is full"


class PagedTable:
    """A Praxis table session (no camera needed: its pages are what is tested) with its dashboard served."""

    def __init__(self, tmp: Path, players: int) -> None:
        self.db = tmp / "table.db"
        self.store = GameStore(self.db)
        setup = TableSetup([PlayerConfig(n) for n in NAMES[:players]], {"players": players, "layout": LAYOUT}, 4,
                           game="praxis")
        self.session = TableSession(setup, self.store, load_layout("praxis"), watcher=None)
        self.session.start_new()
        self.server = WebServer(create_app(self.session, self.session.hub, TOKEN), "127.0.0.1", 0)
        self.server.start()
        self.url = self.server.url.rstrip("/")
        self.registry = self.server.app.state.seats
        self.session.step()

    def pair(self, players: int) -> None:
        """A tournament's pairing seats ``players`` players, and the referee starts its game."""
        seats = CameraSeats(self.session, game_spec("praxis"))
        seats.seat(NAMES[:players], {"players": players, "layout": LAYOUT})
        self.session.start_new()
        self.session.step()

    def join(self, seat: str) -> str:
        """The cookie a phone gets by opening seat ``seat``'s join link."""
        parts = urllib.parse.urlsplit(self.url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
        connection.request("GET", self.registry.join_path(seat))
        response = connection.getresponse()
        response.read()
        connection.close()
        cookie = response.getheader("set-cookie")
        assert response.status == 303 and cookie, response.status
        return cookie.split(";")[0]

    def hand(self, seat: str, cookie: str) -> tuple[int, Any]:
        return http_call(self.url, "GET", f"/api/hand/{seat}", headers={"Cookie": cookie})

    def choose(self, seat: str, cookie: str, index: int = 0) -> tuple[int, Any]:
        body = json.dumps({"index": index, "step": len(self.session.game.history)})
        return http_call(self.url, "POST", f"/api/hand/{seat}/choose", body,
                         headers={"Cookie": cookie, "Content-Type": "application/json"})

    def close(self) -> None:
        self.server.stop()
        self.store.close()


@pytest.fixture
def paged(tmp_path) -> Iterator[Any]:
    tables: list[PagedTable] = []

    def make(players: int) -> PagedTable:
        folder = tmp_path / f"table{len(tables)}"
        folder.mkdir()
        tables.append(PagedTable(folder, players))
        return tables[-1]

    yield make
    for table in tables:
        table.close()


@contextlib.contextmanager
def looping(session: TableSession) -> Iterator[None]:
    """The table's loop running in a thread of its own, answering the pages' commands, as in the service."""
    done = threading.Event()

    def run() -> None:
        while not done.is_set():
            session.step()
            done.wait(0.005)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    try:
        yield
    finally:
        done.set()
        runner.join(10)


def scanning(session: TableSession) -> int:
    """Make the player to act draw four artefacts with a scanner: the keep waits on their page."""
    game = session.game
    seat = game.current_players()[0]
    game.scanned = sorted(game.pile.pop() for _ in range(4))
    game.queue.insert(0, (KEEP, seat))
    session.publish()
    return seat


def test_a_pairing_of_four_on_a_table_started_for_two_gets_four_pages(paged) -> None:
    table = paged(2)
    assert table.registry.seats() == ["1", "2"]
    table.pair(4)
    session = table.session
    assert list(session.seat_hubs) == ["1", "2", "3", "4"] and table.registry.seats() == ["1", "2", "3", "4"]
    game = session.game
    for seat in range(4):
        status, body = table.hand(str(seat + 1), table.join(str(seat + 1)))
        assert status == 200, body
        assert body["seat"]["name"] == NAMES[seat] and len(body["seat"]["view"]["hand"]) == len(game.hands[seat])


def test_a_pairing_of_two_on_a_table_started_for_four_keeps_publishing_to_its_two(paged) -> None:
    table = paged(4)
    fourth = table.join("4")
    table.pair(2)
    session = table.session
    assert list(session.seat_hubs) == ["1", "2"] and table.registry.seats() == ["1", "2"]
    seat = scanning(session)           # publishing goes on: each page of the pairing gets its choices
    status, body = table.hand(str(seat + 1), table.join(str(seat + 1)))
    assert status == 200 and body["seat"]["choices"], body
    status, body = table.hand("4", fourth)
    assert status == 404 and "seat" in json.dumps(body)


def test_a_choice_without_a_game_being_played_is_refused_with_409(paged) -> None:
    table = paged(2)
    session = table.session
    seat = scanning(session)
    cookie = table.join(str(seat + 1))
    future = session.command("abort", {})
    session.step()
    future.result(timeout=5)
    history = list(session.game.history)
    with looping(session):
        status, body = table.choose(str(seat + 1), cookie)
    assert status == 409 and "aborted" in body["error"], body
    assert session.game.history == history


def test_a_choice_the_log_cannot_take_is_refused_with_503_and_changes_nothing(paged) -> None:
    table = paged(2)
    session = table.session
    seat = scanning(session)
    cookie = table.join(str(seat + 1))
    with looping(session):             # a first keep, stored with the set-up's rolls before it
        status, body = table.choose(str(seat + 1), cookie)
    assert status == 200, body
    seat = scanning(session)
    cookie = table.join(str(seat + 1))
    game = session.game
    assert session.store.game(session.game_id).actions == len(game.history)
    history, scanned = list(game.history), list(game.scanned)
    with contextlib.closing(sqlite3.connect(table.db)) as conn:
        conn.execute(f"CREATE TRIGGER log_full BEFORE INSERT ON notes BEGIN SELECT RAISE(ABORT, '{FULL}'); END")
        conn.commit()
    with looping(session):
        status, body = table.choose(str(seat + 1), cookie)
    assert status == 503 and FULL in body["error"] and "nothing was changed" in body["error"], body
    assert session.game.history == history and session.game.scanned == scanned and session.game.step == "keep"
    status, body = table.hand(str(seat + 1), cookie)
    assert status == 200 and body["seat"]["choices"], body


def test_the_score_a_tournament_table_reports_is_the_table_pages(paged) -> None:
    """Praxis's points are those of the artefacts in the spaceports, on the mat for all to see: the
    score sent to the organiser during the game is the one the table page shows, never the hands'."""
    table = paged(2)
    session = table.session
    game = session.game
    game.points = [7, 3]
    state = session.public_state()
    shown = CameraSeats(session, game_spec("praxis")).shown(state)
    assert shown.scores == [float(p) for p in state["view"]["scores"]] == [7.0, 3.0]
