"""Le théâtre played by hand on the printed board, through the real table session: rendered camera
frames (a hand comes over the board, moves a pawn or lays a card, leaves; the table comes to rest)
go to the board watcher and the referee, every call is stored in a real SQLite file before it is
announced, a refusal is overruled through the session's command queue as the dashboard's POST does,
and the public state carries the camera's board beside the game's."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from controller.engines.wuxing import Stay, WuxingGame
from controller.games import game as game_spec
from controller.games.wuxing.board import EMPTY, WHITE, board_of
from controller.games.wuxing.camera import BoardReader, BoardWatcher
from controller.games.wuxing.referee import marks_of
from controller.games.wuxing.render import (BLACK_PAWNS, CARD_COLOURS, WHITE_PAWNS, BoardScene, Card, HandOver, Pawn,
                                            empty_board, render_board)
from controller.service.config import PlayerConfig
from controller.service.store import GameStore
from controller.service.table import TableSession, TableSetup
from controller.vision.mat import load_layout
from controller.vision.profile import calibrate_mat
from controller.vision.render import Lighting, fitting_camera
from controller.vision.stillness import StillnessDetector
from tests.service.conftest import browser  # noqa: F401 - headless Chromium, skipped where absent

FPS = 15.0


class HandTable:
    """A printed board under a rendered camera, refereed by a real table session and store. Pieces
    keep their places between moves; a hand comes in, the board changes, the hand leaves."""

    def __init__(self, tmp: Path, seed: int, options: dict | None = None) -> None:
        self.layout = load_layout("wuxing")
        self.board = board_of(self.layout)
        self.rng = np.random.default_rng(seed)
        rng = self.rng
        camera = fitting_camera(self.layout, (1280, 720), float(rng.uniform(58, 75)), float(rng.uniform(0, 18)),
                                float(rng.uniform(0, 360)), fill=0.9)
        self.base = BoardScene(self.layout, camera=camera, lighting=Lighting(
            brightness=float(rng.uniform(0.7, 1.1)), gradient=float(rng.uniform(0, 0.4)), shadow=0.3, glare=1,
            noise_sigma=2.5), white_balance=(0.85, 0.95, 1.05), seed=seed)
        calibration = dataclasses.replace(self.base, lighting=Lighting(brightness=1.0), white_balance=(1, 1, 1))
        profile = self.profile = calibrate_mat(empty_board(calibration), self.layout)
        self.watcher = BoardWatcher(BoardReader(self.layout, profile), StillnessDetector(hold_frames=6))
        self.store = GameStore(tmp / "table.db")
        self.db = tmp / "table.db"
        setup = TableSetup([PlayerConfig("Ada"), PlayerConfig("Brice")],
                           options or {"mode": "theatre", "layout": "printed"}, seed, game="wuxing")
        self.session = TableSession(setup, self.store, self.layout, self.watcher)
        self.announced: list[dict] = []
        self.unstored: list[str] = []
        self.session.listeners.append(self._announced)
        self.session.start_new()
        self.pawns: dict[int, Pawn] = {}
        self.cards: dict[int, Card] = {}
        self.whites, self.blacks = WHITE_PAWNS[seed % 4], BLACK_PAWNS[seed % 4]
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

    def _place(self, marks: str) -> None:
        """Pieces where ``marks`` says, those already there left where they stand."""
        rng = self.rng
        for cell, mark in zip(self.board.cells, marks):
            x, y = cell.centre
            pawn = self.pawns.get(cell.index)
            if mark in ("W", "B"):
                seat = 0 if mark == "W" else 1
                if pawn is None or pawn.seat != seat:
                    dx, dy = rng.uniform(-5, 5, 2)
                    self.pawns[cell.index] = Pawn(x + dx, y + dy, seat, 30.0, 7.0,
                                                  self.whites if seat == 0 else self.blacks)
            else:
                self.pawns.pop(cell.index, None)
            if mark == "#":
                self.cards.setdefault(cell.index, Card(x + rng.normal(0, 1), y + rng.normal(0, 1), 55.0,
                                                       float(rng.normal(0, 2)), CARD_COLOURS[0]))
            else:
                self.cards.pop(cell.index, None)

    def scene(self, hands: tuple = ()) -> BoardScene:
        return dataclasses.replace(self.base, pawns=tuple(self.pawns.values()), cards=tuple(self.cards.values()),
                                   hands=hands, seed=int(self.rng.integers(1 << 30)))

    def frames(self, marks: str, where: tuple[int, ...] = (12,), rest_hand: bool = False,
               still: int = 30) -> list[np.ndarray]:
        """What the camera films: a hand comes over ``where`` (squares), the board becomes ``marks``,
        the hand leaves (or rests on the board), then ``still`` frames of the table at rest."""
        out = []
        for sq in where:
            x, y = self.board.cells[sq].centre
            out.append(render_board(self.scene((HandOver(x, y, 90.0, 50.0),))).image)
        self._place(marks)
        hands = (HandOver(*self.board.cells[where[-1]].centre, 80.0, 20.0),) if rest_hand else ()
        image = render_board(self.scene(hands)).image
        noise = np.random.default_rng(len(self.pawns) * 1000 + len(self.cards))
        for _ in range(still):
            out.append(np.clip(image + noise.normal(0, 1.5, image.shape), 0, 255).astype(np.uint8))
        return out

    def show(self, marks: str, where: tuple[int, ...] = (12,), rest_hand: bool = False):
        """The board becomes ``marks`` (see :meth:`frames`), fed to the session until the table is
        still. Returns the reading the session judged."""
        for frame in self.frames(marks, where, rest_hand):
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
    t.show(marks_of(t.session.game))          # the players set their pawns out
    yield t
    t.close()


def squares_of(game: WuxingGame, seat: int, action) -> tuple[int, ...]:
    start = game.rules.pawns[seat][action.pawn]
    return start, game.rules.target(seat, action)


def test_moves_made_by_hand_are_refereed_captures_included_and_stored_before_shown(table):
    session = table.session
    game = session.game
    assert session.calls == {} and session.snapshots == 1
    shadow = WuxingGame(game.options, seed=game.seed)
    rng = random.Random(9)
    captured = False
    for _ in range(14):
        seat = shadow.current_players()[0]
        actions = shadow.legal_actions(seat)
        takes = [a for a in actions if not isinstance(a, Stay) and shadow.rules.phase == "move"
                 and shadow.rules.occupant[shadow.rules.target(seat, a)] >= 0]
        action = takes[0] if takes else rng.choice(actions)
        if isinstance(action, Stay):
            session.player_action(seat, action)
            shadow.apply(seat, action)
            continue
        where = squares_of(shadow, seat, action)
        captured = captured or bool(takes)
        shadow.apply(seat, action)
        reading = table.show(marks_of(shadow), where)
        assert reading.marks == marks_of(shadow), "the camera read the board wrong"
        assert game.history == shadow.history, session.log[-3:]
        if captured and takes:
            break
    assert captured, "no capture came up"
    decisions = [c["decision"] for c in session.calls.values()]
    assert "captured" in decisions and set(decisions) <= {"moved", "captured", "stayed"}
    stored = table.store.actions(session.game_id)
    assert [(p, a) for p, a in stored] == [(p, game.encode_action(a)) for p, a in game.history]
    assert table.unstored == []
    state = session.public_state()
    assert state["seen"]["marks"] == [list(marks_of(game)[r * 5:r * 5 + 5]) for r in range(5)]
    assert state["expected"] == marks_of(game) and state["view"]["mode"] == "theatre"
    assert state["last_shot"]["from"] and json.dumps(state)


def _illegal(game: WuxingGame) -> str:
    """The board after a white pawn went straight to an island its own does not dominate or engender."""
    marks = list(marks_of(game))
    rules = game.rules
    legal = {(rules.pawns[0][a.pawn], rules.target(0, a)) for a in game.legal_actions(0)}
    for start in rules.pawns[0]:
        for end in range(25):
            r0, c0, r1, c1 = *divmod(start, 5), *divmod(end, 5)
            if marks[end] == EMPTY and (r0 == r1 or c0 == c1) and (start, end) not in legal:
                line = range(min(start, end) + 1, max(start, end), 1 if r0 == r1 else 5)
                if all(marks[sq] == EMPTY for sq in line):
                    marks[start], marks[end] = EMPTY, WHITE
                    return "".join(marks)
    raise AssertionError("no illegal move on this board")


def test_an_illegal_move_is_flagged_until_the_board_is_put_back(table):
    session = table.session
    game = session.game
    before = marks_of(game)
    table.show(_illegal(game))
    [refused] = list(session.calls.values())
    assert refused["decision"] == "refused" and game.history == []
    assert "put the board back" in refused["reason"]
    assert session.public_state()["flagged"]["call_id"] == refused["call_id"]
    assert any(e["kind"] == "call" and "put the board back" in e["text"] for e in table.announced)
    table.show(before)
    assert [c["decision"] for c in session.calls.values()] == ["refused", "put-back"]
    assert session.public_state()["flagged"] is None
    move = game.legal_actions(0)[0]
    shadow = game.clone()
    shadow.apply(0, move)
    table.show(marks_of(shadow), squares_of(game, 0, move))
    assert game.history == [(0, move)] and table.unstored == []


def test_the_referee_overrules_a_refusal_through_the_command_queue(table):
    session = table.session
    game = session.game
    table.show(_illegal(game))
    [refused] = list(session.calls.values())
    choice = refused["alternatives"][0]
    future = session.command("overrule", {"call_id": refused["call_id"], "decision": choice})
    session.step()
    assert future.result(timeout=5)["actions"] == 1
    game = session.game
    assert len(game.history) == 1
    assert [(p, a) for p, a in table.store.actions(session.game_id)] == [(0, game.encode_action(game.history[0][1]))]
    bad = session.command("overrule", {"call_id": refused["call_id"], "decision": "not a move"})
    session.step()
    with pytest.raises(ValueError, match="can be overruled with"):
        bad.result(timeout=5)


def test_a_hand_resting_on_the_board_is_not_judged(table):
    session = table.session
    game = session.game
    move = game.legal_actions(0)[0]
    shadow = game.clone()
    shadow.apply(0, move)
    reading = table.show(marks_of(shadow), squares_of(game, 0, move), rest_hand=True)
    assert reading.occluded and game.history == [] and session.calls == {}
    assert "over the board" in session.public_state()["prompt"]


def test_a_game_the_printed_board_cannot_show_is_refused_in_the_log(tmp_path):
    table = HandTable(tmp_path, seed=2, options={"mode": "theatre"})
    try:
        table.show(marks_of(table.session.game))
        refused = [e["text"] for e in table.session.log if e["kind"] == "refused"]
        assert refused and "--islands printed" in refused[0]
        assert table.session.calls == {}
    finally:
        table.close()


def test_the_registry_declares_the_table_game_on_the_printed_mat():
    spec = game_spec("wuxing")
    assert spec.plays_on("camera") and spec.plays_on("wheels") and spec.mat == "wuxing"
    assert [o.key for o in spec.options if o.flag == "--islands"] == ["layout"]
    assert board_of(load_layout(spec.mat)).square == WuxingGame({"mode": "theatre", "layout": "printed"}).rules.square


@pytest.mark.browser
def test_the_table_page_draws_the_board_the_camera_reads_beside_the_games(tmp_path, browser):  # noqa: F811
    from controller.service.web import WebServer, create_app

    table = HandTable(tmp_path, seed=4)
    session = table.session
    server = WebServer(create_app(session, session.hub, "wuxing-test-token-0123"), "127.0.0.1", 0)
    server.start()
    try:
        table.show(marks_of(session.game))
        table.show(_illegal(session.game))
        session.step()
        for lang, words in (("en", ("Wuxing tile", "Ada (white pawns)", "put the board back")),
                            ("fr", ("Tuile Wuxing", "Ada (pions blancs)", "remettez le plateau"))):
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
            page.add_init_script(f"localStorage.setItem('bitbox-lang', '{lang}')")
            page.goto(server.url)
            page.wait_for_function("document.querySelector('#wuxing-seen') && "
                                   "document.querySelector('#wuxing-seen').childElementCount > 25", timeout=20000)
            page.wait_for_function(f"document.body.textContent.includes({words[0]!r})", timeout=20000)
            assert page.locator("#wuxing-board .tile").count() == 25
            assert page.locator("#wuxing-seen .tile").count() == 25
            assert page.locator("#wuxing-seen rect.differs").count() == 2, "the moved pawn's two squares"
            assert page.locator("#wuxing-seen .pawn").count() == 8
            text = page.text_content("body")
            for word in words:
                assert word in text, (lang, word)
            assert errors == []
            page.close()
    finally:
        server.stop()
        table.close()


def test_bitbox_play_referees_a_recorded_table_with_the_board_reader(tmp_path, monkeypatch, capsys):
    """`bitbox play wuxing --source FOLDER`: the registry names the game's own camera reader and the
    options the camera implies (le théâtre on the printed board); frames from a folder of images (a
    recording) go through the table service and its event log."""
    import cv2

    from controller.cli import main

    monkeypatch.setenv("BITBOX_STATE_DIR", str(tmp_path / "state"))
    table = HandTable(tmp_path, seed=6)
    table.profile.save()
    shadow = WuxingGame({"mode": "theatre", "layout": "printed"}, seed=6)
    frames = table.frames(marks_of(shadow), still=20)
    for _ in range(2):
        move = next(a for a in shadow.legal_actions(shadow.rules.to_act) if not isinstance(a, Stay))
        where = squares_of(shadow, shadow.rules.to_act, move)
        shadow.apply(shadow.rules.to_act, move)
        frames += table.frames(marks_of(shadow), where, still=20)
    folder = tmp_path / "recording"
    folder.mkdir()
    for i, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:04d}.png"), frame)
    table.close()
    db = tmp_path / "service.db"
    code = main(["play", "wuxing", "--source", str(folder), "--no-web", "--new", "--db", str(db), "--seed", "6",
                 "--name", "Ada", "--name", "Brice"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Ada moves pawn" in out and "Brice moves pawn" in out
    with GameStore(db) as store:
        stored = store.games()[-1]
        assert stored.options["mode"] == "theatre" and stored.options["layout"] == "printed"
        assert [tuple(a) for a in store.actions(stored.id)] == [
            (player, WuxingGame.encode_action(action)) for player, action in shadow.history]


def test_bitbox_mat_prints_the_board_with_its_markers_islands_and_token_places(tmp_path):
    import subprocess
    import sys

    import cv2

    from controller.paths import PROJECT_ROOT
    from controller.vision.matprint import marker_positions_in_png, read_png_scale

    result = subprocess.run([sys.executable, "-m", "controller", "mat", "--game", "wuxing", "--out", str(tmp_path),
                             "--dpi", "100"], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Wuxing duel mat, 400 x 440 mm" in result.stdout
    png, pdf = tmp_path / "wuxing-mat.png", tmp_path / "wuxing-mat-a4.pdf"
    assert pdf.read_bytes().startswith(b"%PDF") and "6 page(s), 3 across x 2 down" in result.stdout
    layout = load_layout("wuxing")
    found = marker_positions_in_png(png, layout)
    assert sorted(found) == [m.marker_id for m in layout.markers]
    for m in layout.markers:
        assert np.abs(found[m.marker_id] - m.corners()).max() < 1.5
    image = cv2.imread(str(png))
    s = read_png_scale(png)
    fills = {z.name.split("-")[1]: z.colour for z in layout.zones_of_kind("island")}
    for cell in board_of(layout).cells:
        x, y = cell.x_mm + 5, cell.y_mm + 5          # an island's corner, away from its symbol
        element = ("wood", "fire", "earth", "metal", "water")[cell.element]
        assert np.abs(image[int(y * s), int(x * s)].astype(int) - fills[element]).max() <= 3
    assert {z.kind for z in layout.zones} >= {"island", "symbol", "tokens", "token", "centre"}
