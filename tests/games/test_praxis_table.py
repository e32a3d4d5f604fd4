"""Praxis played by hand on the printed mat, through the real table session: rendered camera frames
(a hand comes over the mat, puts a tile or moves a ship, leaves; the table comes to rest) go to the
Praxis table watcher and the referee, every call is stored in a real SQLite file before it is
announced, and `bitbox play praxis --source FOLDER` referees a recording end to end."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from controller.engines.praxis import PraxisGame
from controller.engines.praxis.actions import Move, Put
from controller.engines.praxis.steps import IN_SPACEPORT
from controller.games import game as game_spec
from controller.games.praxis.camera import TableReader, TableWatcher
from controller.games.praxis.reading import PRINTED_LAYOUT, SHIP_COLOURS, mat_universe
from controller.games.praxis.referee import roll_through
from controller.games.praxis.render import (HandOver, TableScene, cell_contents, contents_scene, empty_table,
                                            render_table)
from controller.service.config import PlayerConfig
from controller.service.store import GameStore
from controller.service.table import TableSession, TableSetup
from controller.vision.mat import load_layout
from controller.vision.profile import calibrate_mat
from controller.vision.render import Lighting, fitting_camera
from controller.vision.stillness import StillnessDetector
from tests.service.conftest import browser  # noqa: F401 - headless Chromium, skipped where absent

FPS = 15.0
LAYOUT = [list(p) for p in PRINTED_LAYOUT]


class HandTable:
    """The printed mat under a rendered camera, refereed by a real table session and store. Each
    state of the mat is rendered once; a hand comes in over the cells that change, then leaves."""

    def __init__(self, tmp: Path, seed: int, options: dict | None = None) -> None:
        self.layout = load_layout("praxis")
        self.mat = mat_universe(self.layout)
        self.rng = np.random.default_rng(seed)
        camera = fitting_camera(self.layout, (1920, 1080), 64.0, 8.0, float(self.rng.uniform(0, 360)), fill=0.9)
        self.base = TableScene(self.layout, camera=camera, lighting=Lighting(brightness=0.9, gradient=0.3, shadow=0.3,
                                                                             glare=1, noise_sigma=2.0),
                               white_balance=(0.9, 0.96, 1.04), jpeg=90, seed=seed)
        calibration = dataclasses.replace(self.base, lighting=Lighting(brightness=1.0), white_balance=(1, 1, 1))
        self.profile = calibrate_mat(empty_table(calibration), self.layout)
        self.watcher = TableWatcher(TableReader(self.layout, self.profile), StillnessDetector(hold_frames=6))
        self.db = tmp / "table.db"
        self.store = GameStore(self.db)
        setup = TableSetup([PlayerConfig("Ada"), PlayerConfig("Brice")], options or {"players": 2, "layout": LAYOUT},
                           seed, game="praxis")
        self.session = TableSession(setup, self.store, self.layout, self.watcher)
        self.announced: list[dict] = []
        self.unstored: list[str] = []
        self.session.listeners.append(self._announced)
        self.session.start_new()
        self.clock = 0.0

    def _announced(self, event: dict) -> None:
        """Every call announced is in the database already (read through another connection)."""
        self.announced.append(event)
        call = event.get("data", {}).get("call_id")
        if event["kind"] in ("call", "overrule") and call is not None:
            with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as conn:
                stored = {json.loads(d)["call_id"] for k, d in conn.execute("SELECT kind, data FROM notes")
                          if k in ("call", "overrule")}
            if call not in stored:
                self.unstored.append(f"call {call} announced before it was stored")

    def scene(self, game: PraxisGame, hands: tuple = ()) -> TableScene:
        waiting = [[SHIP_COLOURS[seat]] * sum(1 for s in game.ships_of(seat) if game.ship_cell[s] == IN_SPACEPORT)
                   for seat in range(game.num_players)]
        rng = np.random.default_rng(len(game.history))
        scene = contents_scene(self.layout, self.mat, cell_contents(game, self.mat), rng, ports=waiting,
                               camera=self.base.camera, lighting=self.base.lighting,
                               white_balance=self.base.white_balance, jpeg=self.base.jpeg, seed=len(game.history))
        return dataclasses.replace(scene, hands=hands)

    def frames(self, game: PraxisGame, where: tuple[str, ...] = ("2.2",), rest_hand: bool = False,
               still: int = 24) -> list[np.ndarray]:
        """What the camera films: a hand over the cells ``where``, then the mat showing ``game``
        (with the hand resting on it if ``rest_hand``), ``still`` frames of the table at rest."""
        from controller.engines.praxis.universe import cell_index

        out = []
        for label in where:
            x, y = self.mat.centre(self.mat.position(cell_index(label)))
            out.append(render_table(self.scene(game, (HandOver(x, y, 90.0, 50.0),))).image)
        hands = ()
        if rest_hand:
            x, y = self.mat.centre(self.mat.position(cell_index(where[-1])))
            hands = (HandOver(x, y, 80.0, 20.0),)
        image = render_table(self.scene(game, hands)).image
        noise = np.random.default_rng(len(game.history))
        for _ in range(still):
            out.append(np.clip(image + noise.normal(0, 1.5, image.shape), 0, 255).astype(np.uint8))
        return out

    def show(self, game: PraxisGame, where: tuple[str, ...] = ("2.2",), rest_hand: bool = False):
        for frame in self.frames(game, where, rest_hand):
            self.clock += 1 / FPS
            reading = self.session.feed(frame, self.clock)
            if reading is not None:
                return reading
        raise AssertionError("the table never came to rest")

    def close(self) -> None:
        self.store.close()


@pytest.fixture
def table(tmp_path):
    t = HandTable(tmp_path, seed=4)
    t.show(t.session.game)          # the players set out the portal and the first ships
    yield t
    t.close()


def a_turn(game: PraxisGame) -> tuple[PraxisGame, tuple[str, ...]]:
    """``game`` after its player puts an artefact and then moves onto an empty cell (or anywhere), rolls
    included; the cells the hand went over."""
    from controller.engines.praxis.universe import cell_label

    seat = game.current_players()[0]
    twin = game.clone()
    put = next(a for a in twin.legal_actions(seat) if isinstance(a, Put))
    twin.apply(seat, put)
    moves = twin.legal_actions(seat)
    move = next((a for a in moves if isinstance(a, Move) and twin.board[a.to] == 0), moves[0])
    twin.apply(seat, move)
    roll_through(twin)
    return twin, (cell_label(put.cell), cell_label(getattr(move, "to", put.cell)))


def holds(data, found) -> bool:
    """Whether ``found`` is true of ``data`` or of anything inside it (JSON's lists and objects)."""
    if found(data):
        return True
    if isinstance(data, dict):
        return any(holds(v, found) for v in data.values())
    if isinstance(data, list):
        return any(holds(v, found) for v in data)
    return False


def test_a_turn_played_by_hand_is_read_refereed_and_stored_before_shown(table):
    session = table.session
    game = session.game
    assert session.calls == {} and session.snapshots == 1
    for _ in range(2):
        after, where = a_turn(game)
        reading = table.show(after, where)
        assert not reading.occluded and reading.unsure == []
        assert game.history == after.history, session.log[-3:]
    decisions = [c["decision"] for c in session.calls.values()]
    assert decisions == ["played", "played"]
    stored = table.store.actions(session.game_id)
    assert [(p, a) for p, a in stored] == [(p, game.encode_action(a)) for p, a in game.history]
    assert table.unstored == []
    state = session.public_state()
    assert "hand" not in state["view"] and state["seen"]["occluded"] is False
    assert state["last_shot"]["to"] and json.dumps(state)


def test_an_illegal_move_is_refused_until_the_mat_is_put_back(table):
    session = table.session
    game = session.game
    seat = game.current_players()[0]
    ship = next(s for s in game.ships_of(seat) if game.ship_cell[s] != IN_SPACEPORT)
    legal = {a.to for a in game.legal_actions(seat) if isinstance(a, Move)}
    target = next(c for c in range(36) if game.board[c] == 0 and c not in legal)
    shown = game.clone()
    shown.board[shown.ship_cell[ship]], shown.board[target] = 0, shown.board[shown.ship_cell[ship]]
    shown.ship_cell[ship] = target
    table.show(shown)
    [refused] = list(session.calls.values())
    assert refused["decision"] == "refused" and len(game.history) == len(shown.history)
    assert "put the mat back" in refused["reason"]
    assert session.public_state()["flagged"]["call_id"] == refused["call_id"]
    table.show(game)
    assert [c["decision"] for c in session.calls.values()] == ["refused", "put-back"]
    assert table.unstored == []


def test_a_hand_resting_on_the_mat_is_not_judged(table):
    session = table.session
    game = session.game
    after, where = a_turn(game)
    reading = table.show(after, where, rest_hand=True)
    assert reading.occluded and session.calls == {}
    assert "over the mat" in session.public_state()["prompt"]


def test_the_registry_declares_the_table_game_on_the_printed_mat():
    spec = game_spec("praxis")
    assert spec.plays_on("camera") and spec.plays_on("phones") and spec.mat == "praxis"
    assert spec.load_table().__name__ == "PraxisTable" and spec.load_camera().__name__ == "open_table_camera"
    assert spec.mode_options["camera"]["layout"] == LAYOUT


def test_bitbox_play_referees_a_recorded_table(tmp_path, monkeypatch, capsys):
    """`bitbox play praxis --source FOLDER`: the registry names the game's own camera reader and the
    universe the camera implies (the printed mat's); frames from a folder of images (a recording) go
    through the table service and its event log."""
    import cv2

    from controller.cli import main

    monkeypatch.setenv("BITBOX_STATE_DIR", str(tmp_path / "state"))
    table = HandTable(tmp_path, seed=6)
    table.profile.save()
    shadow = PraxisGame({"players": 2, "layout": LAYOUT}, seed=6)
    shadow.name_seats(["Ada", "Brice"])
    roll_through(shadow)
    frames = table.frames(shadow, still=16)
    after, where = a_turn(shadow)
    frames += table.frames(after, where, still=16)
    folder = tmp_path / "recording"
    folder.mkdir()
    for i, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:04d}.png"), frame)
    table.close()
    db = tmp_path / "service.db"
    code = main(["play", "praxis", "--source", str(folder), "--no-web", "--new", "--db", str(db), "--seed", "6",
                 "--players", "2", "--name", "Ada", "--name", "Brice"])
    out = capsys.readouterr().out
    assert code == 0, out
    mover = after.seat_label(shadow.current_players()[0])
    assert f"{mover} puts a" in out, out
    with GameStore(db) as store:
        stored = store.games()[-1]
        assert stored.options["layout"] == LAYOUT
        assert [tuple(a) for a in store.actions(stored.id)] == [
            (player, PraxisGame.encode_action(action)) for player, action in after.history]


def test_the_table_page_draws_the_universe_and_the_refusal_and_never_a_hand(tmp_path, browser):  # noqa: F811
    from controller.service.web import WebServer, create_app

    table = HandTable(tmp_path, seed=4)
    session = table.session
    server = WebServer(create_app(session, session.hub, "praxis-test-token-0123"), "127.0.0.1", 0)
    server.start()
    try:
        game = session.game
        table.show(game)
        seat = game.current_players()[0]
        ship = next(s for s in game.ships_of(seat) if game.ship_cell[s] != IN_SPACEPORT)
        legal = {a.to for a in game.legal_actions(seat) if isinstance(a, Move)}
        target = next(c for c in range(36) if game.board[c] == 0 and c not in legal)
        shown = game.clone()
        shown.board[shown.ship_cell[ship]], shown.board[target] = 0, shown.board[shown.ship_cell[ship]]
        shown.ship_cell[ship] = target
        table.show(shown)
        session.step()
        for lang, words in (("en", ("put the mat back",)), ("fr", ("remettez le tapis",))):
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
            page.add_init_script(f"localStorage.setItem('bitbox-lang', '{lang}')")
            page.goto(server.url)
            page.wait_for_function("document.querySelector('#universe') && "
                                   "document.querySelector('#universe').childElementCount > 30", timeout=20000)
            page.wait_for_function(f"document.body.textContent.includes({words[0]!r})", timeout=20000)
            assert "hand" not in session.public_state()["view"]
            assert errors == [], errors
            page.close()
    finally:
        server.stop()
        table.close()


def test_each_player_sees_their_own_hand_on_their_phone_while_the_mat_is_read(tmp_path):
    """The camera mode keeps the phones' hand pages: a seat's page, joined by its link, gets that seat's
    hand (the table page never does); another seat's cookie or none gets nothing; a choice only its
    owner may make (a scanner's keep) is offered there and nowhere else."""
    import http.client
    import urllib.parse

    from controller.engines.praxis.actions import Keep
    from controller.engines.praxis.artefacts import KEYS
    from controller.engines.praxis.steps import KEEP
    from controller.service.web import WebServer, create_app
    from tests.service.conftest import http_call, wait_for
    from tests.service.test_web import SseReader

    table = HandTable(tmp_path, seed=4)
    session = table.session
    server = WebServer(create_app(session, session.hub, "praxis-test-token-0123"), "127.0.0.1", 0)
    server.start()
    try:
        table.show(session.game)
        session.step()
        registry = server.app.state.seats
        assert registry is not None and registry.seats() == ["1", "2"]
        parts = urllib.parse.urlsplit(server.url)
        url = server.url.rstrip("/")

        def join(seat: str) -> str:
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
            connection.request("GET", registry.join_path(seat))
            response = connection.getresponse()
            response.read()
            cookie = response.getheader("set-cookie")
            connection.close()
            assert response.status == 303 and cookie
            return cookie.split(";")[0]

        ada, brice = join("1"), join("2")
        game = session.game
        for seat, cookie in ((0, ada), (1, brice)):
            status, body = http_call(url, "GET", f"/api/hand/{seat + 1}", headers={"Cookie": cookie})
            assert status == 200, body
            assert body["seat"]["view"]["hand"] == [KEYS[k] for k in game.hands[seat]]
        status, _ = http_call(url, "GET", "/api/hand/1", headers={"Cookie": brice})
        assert status in (401, 403)
        status, _ = http_call(url, "GET", "/api/hand/1")
        assert status in (401, 403)
        assert "hand" not in session.public_state()["view"]
        status, body = http_call(url, "GET", "/api/state")
        assert all(json.dumps(sorted(KEYS[k] for k in h)) not in json.dumps(body.get("view", {}))
                   for h in game.hands)
        # A scanner's draw: the keep is offered on its owner's page only, and made there.
        seat = game.current_players()[0]
        game.scanned = sorted(game.pile.pop() for _ in range(4))
        game.queue.insert(0, (KEEP, seat))
        session.publish()
        cookie = ada if seat == 0 else brice
        status, body = http_call(url, "GET", f"/api/hand/{seat + 1}", headers={"Cookie": cookie})
        offered = body["seat"]["choices"]
        assert offered and all(isinstance(a, Keep) for a in session.play.secret_choices(game, seat))
        assert session.public_state()["choices"] == []
        kept = session._secret_actions(seat)[0]
        spectator = SseReader(server.url)
        future = session.command("choose", {"seat": seat, "index": 0, "step": len(game.history)})
        session.step()
        result = future.result(timeout=5)
        assert result["actions"] == len(game.history) and game.step != "keep"
        assert [a for _, a in game.history if isinstance(a, Keep)] and game.scanned == []
        assert [c["decision"] for c in session.calls.values()][-1] == "announced"
        # The two kept are told to nobody: not on the table page, its stream, nor in the stored notes.
        wait_for(lambda: any(any(c["call_id"] == result["call_id"] for c in m.get("state", m).get("calls", []))
                             for m in spectator.messages), what="the keep's call on the table's stream")
        spectator.close()
        status, state = http_call(url, "GET", "/api/state")
        with sqlite3.connect(f"file:{table.db}?mode=ro", uri=True) as conn:
            notes = [json.loads(d) for (d,) in conn.execute("SELECT data FROM notes")]
        told = {"/api/state": state, "the table's stream": spectator.messages, "the notes": notes}
        for where, said in told.items():
            assert not holds(said, lambda v: isinstance(v, dict) and v.get("type") == "keep"), where
            assert not holds(said, lambda v: v == list(kept.artefacts)), where
        assert any(holds(n, lambda v: v == {"type": "secret"}) for n in notes)
    finally:
        server.stop()
        table.close()
