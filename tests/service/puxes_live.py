"""A live PuXes table for tests: the rendered demo game as the camera, the real table session, a real
SQLite file and the real dashboard server on a free port; questions wait for an answer over HTTP."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from controller.referee.common import RefereeConfig
from controller.service.hub import Hub
from controller.service.store import GameStore
from controller.service.table import TableSession
from controller.games.puxes.demo import DemoTable

TOKEN = "puxes-test-token-0123"

#: A referee that has the players confirm every face it reads (none is read surely enough), so that a
#: short game asks questions whatever the camera reads.
CONFIRM_EVERY_FACE = RefereeConfig(min_confidence=1.01)


class LivePuxes:
    """The demo table refereed live, the dashboard served, the loop in a thread."""

    def __init__(self, tmp: Path, seed: int = 3, max_turns: int = 1, players_answer: bool = False,
                 referee: RefereeConfig | None = None) -> None:
        from controller.service.web import WebServer, create_app

        self.db = tmp / "table.db"
        self.demo = DemoTable(seed=seed, max_turns=max_turns, players_answer=players_answer, referee=referee)
        self.store = GameStore(self.db)
        self.hub = Hub()
        self.messages: list[dict[str, Any]] = []
        self.shown_before_stored: list[str] = []
        self.hub.add_listener(self._check_stored)
        self.session = TableSession(self.demo.setup(), self.store, self.demo.layout, self.demo.watcher, self.hub)
        self.session.start_new()
        self.session.publish()
        self.server = WebServer(create_app(self.session, self.hub, TOKEN), "127.0.0.1", 0)
        self.server.start()
        self.url = self.server.url.rstrip("/")
        self.finished = threading.Event()
        self._stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.demo(self.session)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc
        self.finished.set()
        while not self._stop.is_set():
            self.session.step()
            time.sleep(0.01)

    def _check_stored(self, message: dict[str, Any]) -> None:
        """At the moment a message is published, every call and question it shows is in the database
        (read through a separate connection, as after a power cut)."""
        self.messages.append(message)
        state = message["state"]
        if not state.get("calls") and not state.get("questions"):
            return
        with contextlib.closing(sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)) as conn:
            notes = [(kind, json.loads(data)) for kind, data in conn.execute("SELECT kind, data FROM notes")]
            (actions,) = conn.execute("SELECT COUNT(*) FROM actions").fetchone()
        call_ids = {d["call_id"] for k, d in notes if k in ("call", "overrule")}
        question_ids = {d["question_id"] for k, d in notes if k == "question"}
        for call in state["calls"]:
            if call["call_id"] not in call_ids:
                self.shown_before_stored.append(f"call {call['call_id']} shown before it was stored")
            if call["actions"] > actions:
                self.shown_before_stored.append(f"call {call['call_id']} shown with {call['actions']} actions, "
                                                f"{actions} stored")
        for question in state["questions"]:
            if question["question_id"] not in question_ids:
                self.shown_before_stored.append(f"question {question['question_id']} shown before it was stored")

    def state(self) -> dict[str, Any]:
        return self.get("/api/state")[1]["state"]

    def get(self, path: str) -> tuple[int, Any]:
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return response.status, json.loads(response.read())

    def post(self, path: str, body: Any, token: str | None = TOKEN, raw: bytes | None = None,
             content_type: str = "application/json") -> tuple[int, dict[str, Any]]:
        data = raw if raw is not None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method="POST",
                                         headers={"Content-Type": content_type})
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def close(self) -> None:
        self.session.stop()
        self._stop.set()
        self.thread.join(10)
        self.server.stop()
        self.store.close()
