"""A live console for tests: simulated controllers (real ladder and debounce code), a real SQLite
file, the real game loop in a thread and, when asked, the real dashboard server on a free port."""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.dials.factory import open_backend
from controller.dials.state import DIRECTIONS
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.session import Session
from controller.service.store import GameStore

CONTROLLERS = ["red", "blue", "green", "yellow"]

CHROMIUM = Path(os.environ.get("BITBOX_CHROMIUM", "/usr/bin/chromium"))
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


class TestBrowser:
    """A Playwright browser whose pages let the tests' own scripts run under the dashboard's strict
    Content-Security-Policy (``wait_for_function`` evaluates text); a page opened with
    ``bypass_csp=False`` runs under the policy exactly as a player's browser does."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **kwargs: Any) -> Any:
        kwargs.setdefault("bypass_csp", True)
        return self._browser.new_context(**kwargs)

    def new_page(self, **kwargs: Any) -> Any:
        kwargs.setdefault("bypass_csp", True)
        return self._browser.new_page(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture
def browser():
    """Headless Chromium driven by Playwright; skips where either is not installed."""
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium not found at {CHROMIUM} (install Debian's chromium, or set BITBOX_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield TestBrowser(browser)
        finally:
            browser.close()


def http_call(url: str, method: str, path: str, body: bytes | str | None = None,
              headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """One request to the dashboard at ``url``: its status and its JSON (or text) body."""
    data = body.encode() if isinstance(body, str) else body
    request = urllib.request.Request(url + path, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            raw = response.read()
            status = response.status
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        status = exc.code
    try:
        return status, json.loads(raw)
    except json.JSONDecodeError:
        return status, raw.decode(errors="replace")


def wait_for(predicate: Callable[[], Any], timeout: float = 15.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class LiveTable:
    """A running session whose controllers the test turns and presses like a player would."""

    def __init__(self, tmp: Path, players: int = 4, short: bool = True, bots: tuple[int, ...] = (),
                 seed: int = 3, web: bool = False, backend: str = "sim") -> None:
        self.config = ServiceConfig(
            options={"players": players, "short_game": short}, seed=seed,
            players=[PlayerConfig(f"P{i}", bot=i in bots) for i in range(players)],
            pieces=list(CONTROLLERS), bot_delay=0.0, turn_pause=0.0, db=tmp / "games.db",
        )
        self.backend: Any = open_backend(backend, controllers=list(CONTROLLERS))
        self.backend.start()
        if backend == "sim":
            wait_for(lambda: all(s.connected for s in self.backend.states().values()), what="controllers connected")
        self.store = GameStore(self.config.db_path())
        self.hub = Hub()
        self.messages: list[dict[str, Any]] = []
        self.hub.add_listener(self.messages.append)
        self.session = Session(self.config, self.backend, self.store, self.hub)
        self.session.start_new()
        self.session.publish()
        self.thread = threading.Thread(target=self.session.run, kwargs={"until_over": False}, daemon=True)
        self.thread.start()
        self.server = None
        self.token = "test-token-123456"
        if web:
            from controller.service.web import WebServer, create_app

            self.server = WebServer(create_app(self.session, self.hub, self.token), "127.0.0.1", 0)
            self.server.start()

    # ---- reading -----------------------------------------------------------------------------

    @property
    def state(self) -> dict[str, Any]:
        return self.hub.latest["state"]

    def controller(self, cid: str) -> dict[str, Any]:
        return next(c for c in self.state["controllers"] if c["id"] == cid)

    def seat(self, cid: str) -> dict[str, Any]:
        """What controller ``cid``'s seat alone is told (its own channel)."""
        return self.session.seat_hubs[cid].latest["seat"]

    def game(self) -> Any:
        """A copy of the game, taken between loop steps (reading only)."""
        return self.session.game.clone()

    # ---- playing -----------------------------------------------------------------------------

    def set_wheels(self, cid: str, direction: str | None = None, number: int | None = None) -> None:
        """Turn wheels and wait until the controller reports them settled."""
        want = {}
        if direction is not None:
            want["direction"] = DIRECTIONS.index(direction)
        if number is not None:
            want["number"] = number
        for wheel, pos in want.items():
            if self.backend.wheel_target(cid, wheel) != pos:
                self.backend.turn(cid, wheel, pos)
        wait_for(lambda: all(self.backend.state(cid).wheel(w) == p for w, p in want.items()),
                 what=f"{cid} wheels settled")
        time.sleep(0.03)

    def press(self, cid: str) -> None:
        wait_for(lambda: not self.backend.state(cid).button, what=f"{cid} button up")
        seq = self.hub.seq
        self.backend.press(cid)
        self.backend.release(cid, after=0.1)
        wait_for(lambda: self.backend.state(cid).button, what=f"{cid} press seen")
        wait_for(lambda: self.hub.seq > seq, what="the loop to publish")
        wait_for(lambda: not self.backend.state(cid).button, what=f"{cid} released")

    def place_all(self) -> None:
        """Every human seat places on free start Pix 0 in turn (bots place by themselves)."""
        for _ in range(8):
            placement = self.state.get("placement")
            if placement is None:
                return
            cid = CONTROLLERS[placement["piece"]]
            seat = self.game().controller_owner(placement["piece"])
            if self.config.players[seat].bot:
                wait_for(lambda: self.state.get("placement") != placement, what="a bot to place")
                continue
            self.set_wheels(cid, number=0)
            self.press(cid)
        wait_for(lambda: self.state["phase"] == "programming", what="the programming phase")

    def legal_program(self, piece: int) -> tuple[str, int]:
        game = self.game()
        direction = next(d for d in range(4) if game.board.opens[game.pos[piece]][d])
        return ("up", "right", "down", "left")[direction], 1

    def wall_direction(self, piece: int) -> str | None:
        game = self.game()
        for d in range(4):
            if not game.board.opens[game.pos[piece]][d]:
                return ("up", "right", "down", "left")[d]
        return None

    # ---- http --------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url.rstrip("/")

    def http(self, method: str, path: str, body: bytes | str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        return http_call(self.url, method, path, body, headers)

    def close(self) -> None:
        self.session.stop()
        self.thread.join(5)
        if self.server is not None:
            self.server.stop()
        self.backend.close()
        self.store.close()


@pytest.fixture
def table_factory(tmp_path: Path) -> Iterator[Callable[..., LiveTable]]:
    tables: list[LiveTable] = []

    def make(**kw: Any) -> LiveTable:
        table = LiveTable(tmp_path, **kw)
        tables.append(table)
        return table

    yield make
    for table in tables:
        table.close()
