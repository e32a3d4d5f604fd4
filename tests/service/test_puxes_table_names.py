"""The table service names the players it was given, by name and colour: the referee's calls, its prompt
and its refusals say "Zoé (red)" and "Yann (blue)", through the real camera pipeline (the rendered demo table), a real SQLite file
and the real dashboard server; a resumed game gets the names back from the stored setup, while the
stored game itself (options, seed, actions) holds none."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from controller.referee.puxes_demo import differences
from controller.service.hub import Hub
from controller.service.store import GameStore
from controller.service.table import TableSession, TableSetup

from .driven_table import Driven

NAMES = ["Zoé", "Yann"]
NAMED = ["Zoé (red)", "Yann (blue)"]
TOKEN = "puxes-names-token-0123"
SEAT_NUMBER = re.compile(r"\b[Pp]layers? \d")


def _play_until_the_first_turn(table: Driven) -> None:
    """The set-up and the first rolls, seen by the camera, the players answering what is asked."""
    while table.session.game.turn_number < 1:
        try:
            tr, snap = table.show()
        except StopIteration:
            raise AssertionError("the first turn never began") from None
        table.answer(snap, tr)


def _post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_configured_table_names_its_players_live_and_after_a_restart(tmp_path: Path) -> None:
    from controller.service.web import WebServer, create_app

    hub = Hub()
    table = Driven(tmp_path, names=NAMES, hub=hub)
    db, demo, store, session = table.db, table.demo, table.store, table.session
    server = None
    stop = threading.Event()
    try:
        assert session.game.seat_names == tuple(NAMES)
        _play_until_the_first_turn(table)
        assert differences(session.referee.game, demo.table.game) == [] and not session.referee.questions

        calls = [e["text"] for e in session.log if e["kind"] == "call"]
        assert len(calls) >= 10
        assert any(re.match(r"Zoé \(red\) sets their \S+ oracle in the public garden", t) for t in calls)
        assert any(re.match(r"Yann \(blue\) sets their \S+ oracle in the public garden", t) for t in calls)
        assert any(re.search(r"(Zoé \(red\)|Yann \(blue\)) rolled the most characters and starts", t) for t in calls)
        assert not [t for t in calls if SEAT_NUMBER.search(t)]

        # the dashboard: the prompt and the calls as served, and a refusal over HTTP
        session.publish()
        server = WebServer(create_app(session, hub, TOKEN), "127.0.0.1", 0)
        server.start()
        url = server.url.rstrip("/")

        def loop() -> None:
            while not stop.is_set():
                session.step()
                time.sleep(0.01)

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        with urllib.request.urlopen(url + "/api/state", timeout=10) as response:
            state = json.loads(response.read())["state"]
        first = session.game.current_players()[0]
        other = 1 - first
        assert state["prompt"] == f"{NAMED[first]} to play"
        assert [p["name"] for p in state["players"]] == NAMES
        assert state["calls"] and not [c for c in state["calls"] if SEAT_NUMBER.search(c["reason"])]
        status, body = _post(url + "/api/table/action", {"player": other, "action": {"type": "end"}})
        assert status == 400
        assert body["error"] == (f"the rules refuse it: {NAMED[other]} is not expected to act now "
                                 f"(waiting for {NAMED[first]})")
        stop.set()
        thread.join(5)
        history = list(session.game.history)
        game_id = session.game_id
    finally:
        stop.set()
        if server is not None:
            server.stop()
        store.close()

    # a restart with no players given: the stored setup names them again; the stored game holds no name
    with GameStore(db) as store:
        stored = store.unfinished()
        assert stored is not None and stored.id == game_id
        assert "Zoé" not in json.dumps([stored.options, stored.seed, store.actions(stored.id)], ensure_ascii=False)
        resumed = TableSession(TableSetup([], {"players": 2}, 3, game="puxes"), store, demo.layout, watcher=None)
        resumed.resume(stored)
        assert resumed.game.history == history
        assert resumed.game.seat_names == tuple(NAMES)
        assert resumed.referee.prompt() == f"{NAMED[first]} to play"
        assert "Zoé" not in resumed.game.dumps()
        earlier = [e["text"] for e in resumed.log if e["kind"] == "earlier"]
        assert any("Zoé (red) sets their" in t for t in earlier)
