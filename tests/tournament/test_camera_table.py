"""A table refereed by the table camera plays in a tournament as the console's tables do: it joins
through the same link, shows its pairing on its dashboard, starts the pairing's game when the referee
taps *New game*, and publishes the finished game, which the organiser replays and records.

The camera is the rendered PuXes table (a seeded game that bots play on a simulated table, as the
dashboard's camera tests use), run through the real table service, its dashboard, a real SQLite file
and a real Mosquitto on a free loopback port; a second table runs ``bitbox play`` from a recording."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from controller import i18n
from controller.games import game as game_spec
from controller.games import games
from controller.service.config import ServiceConfig
from controller.tournament.rounds import digest_of
from controller.tournament.store import TournamentStore
from controller.tournament.table import CameraSeats
from controller.tournament.topics import BrokerAddress
from tests.service.conftest import browser  # noqa: F401 - headless Chromium, skipped where absent
from tests.tournament.conftest import ROOT, OrganiserThread, new_tournament, recorded, wait_for

TOKEN = "camera-table-token-long-enough-01"
#: A seeded rendered game that ends after 20 still moments (a few seconds through the camera pipeline).
SHORT_SEED = 73


def _call(url: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url.rstrip("/") + path, data=None if body is None else json.dumps(body).encode(),
                                     method="GET" if body is None else "POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _state(url: str) -> dict:
    return _call(url, "/api/state")[1]["state"]


class RenderedCamera:
    """The rendered table as the camera driver, counting the games it is handed."""

    def __init__(self, seed: int) -> None:
        from controller.games.puxes.demo import DemoTable

        self.demo = DemoTable(seed=seed)
        self.calls = 0

    def __call__(self, session: Any) -> None:
        self.calls += 1
        self.demo(session)


class CameraTable:
    """``run_table_service`` for a table of the tournament, in a thread, its dashboard on a free port;
    the session it makes is kept so that the test can stop it as Ctrl-C would."""

    def __init__(self, tmp: Path, url: str, table: int, camera: RenderedCamera, monkeypatch: Any) -> None:
        from controller.service import table_runner
        from controller.service.table_runner import TableRun, run_table_service

        made: list[Any] = []

        class Kept(table_runner.TournamentTable):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                made.append(self)

        monkeypatch.setattr(table_runner, "TournamentTable", Kept)
        self.made = made
        self.camera = camera
        self.out = io.StringIO()
        self.db = tmp / f"camera-table-{table}.db"
        config = ServiceConfig(game="puxes", db=self.db, port=0, tournament={"url": url, "table": table})
        setup = camera.demo.setup()
        run = TableRun(token=TOKEN, out=self.out)
        self.error: BaseException | None = None

        def serve() -> None:
            try:
                run_table_service(config, setup, camera.demo.layout, camera.demo.watcher, camera, run)
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                self.error = exc

        self.thread = threading.Thread(target=serve, daemon=True)
        self.thread.start()
        found = wait_for(lambda: re.search(r"Table page: (http://\S+)", self.out.getvalue()) or self.error, 30,
                         "the table's page")
        assert self.error is None, self.error
        self.url = found.group(1)

    def stop(self) -> None:
        for session in self.made:
            session.stop()
        self.thread.join(20)
        assert not self.thread.is_alive(), "the table's service did not stop"


def test_a_camera_table_shows_its_pairing_starts_when_the_referee_taps_start_and_its_game_is_recorded(
        tmp_path: Path, broker, organisers, monkeypatch) -> None:
    address = BrokerAddress("127.0.0.1", broker.port, "cafe")
    path = tmp_path / "cafe.db"
    new_tournament(path, address, players=2, rounds=1, game="puxes")
    organisers.append(OrganiserThread(path, address))
    table = CameraTable(tmp_path, address.url, 1, RenderedCamera(SHORT_SEED), monkeypatch)
    try:
        def pairing_shown() -> dict | None:
            return next((e for e in _state(table.url).get("log", []) if e["kind"] == "tournament"), None)

        shown = wait_for(pairing_shown, what="the pairing on the camera table's dashboard")
        assert shown["text"] == "Round 1, table 1: P01 (seat 1) and P02 (seat 2)"
        assert i18n.said(shown["message"], "fr") == "Ronde 1, table 1 : P01 (place 1) et P02 (place 2)"
        state = _state(table.url)
        assert state["game_id"] is None and state["can_start"] and state["notice"] == shown["message"]
        wait_for(lambda: [(t["table"], t["game"], t["detail"]) for t in organisers[0].state()["tables"]]
                 == [(1, "puxes", "paired")], what="the organiser seeing the table paired")
        assert table.camera.calls == 0 and recorded(path) == [], "nothing is played before the referee starts"

        assert _call(table.url, "/api/game/start", {"replace": True})[0] == 401   # the referee's token is needed
        assert _call(table.url, "/api/game/start", {"replace": True}, TOKEN) == (200, {"started": 1})

        wait_for(lambda: recorded(path), 90, "the camera table's result at the organiser")
        with TournamentStore(path) as store:
            (board,) = store.boards(1)
        (game,) = _call(table.url, "/api/games")[1]["games"]          # the table's own log, from its dashboard
        status, save = _call(table.url, f"/api/games/{game['id']}")
        assert status == 200 and game["status"] == "over"
        assert game["players"] == [{"name": "P01", "bot": False}, {"name": "P02", "bot": False}]
        assert board.digest == digest_of(save) and board.source != "hand"
        replayed = game_spec("puxes").load_engine()
        from controller.engines import Game

        finished = Game.load(save)
        assert isinstance(finished, replayed) and finished.is_over()
        assert list(board.result.winners) == list(finished.winners())
        assert table.camera.demo.first_difference is None, "the referee saw the game the table played"
        state = _state(table.url)
        assert [p["name"] for p in state["players"]] == ["P01", "P02"] and state["over"]
        wait_for(lambda: organisers[0].organiser.tournament.over, what="the tournament's end")
    finally:
        table.stop()
    assert table.error is None, table.error
    assert table.camera.calls == 1
    wait_for(lambda: any(t["state"] == "offline" for t in organisers[0].state()["tables"]),
             what="the table marked offline")


@pytest.mark.browser
def test_the_camera_tables_page_shows_the_pairing_and_the_referee_taps_new_game(
        tmp_path: Path, broker, organisers, browser, monkeypatch) -> None:  # noqa: F811
    address = BrokerAddress("127.0.0.1", broker.port, "cafe")
    path = tmp_path / "cafe.db"
    new_tournament(path, address, players=2, rounds=1, game="puxes")
    organisers.append(OrganiserThread(path, address))
    table = CameraTable(tmp_path, address.url, 3, RenderedCamera(SHORT_SEED), monkeypatch)
    try:
        context = browser.new_context(locale="fr-FR")
        page = context.new_page()
        page.goto(f"{table.url}?token={TOKEN}")
        page.wait_for_function("document.getElementById('status').textContent.includes('Ronde 1, table 3')")
        assert page.locator("#status").inner_text() == "Ronde 1, table 3 : P01 (place 1) et P02 (place 2)"
        page.click("#referee summary")
        start = page.locator("#referee button[data-command=start]")
        assert start.is_visible() and page.locator("#referee button[data-command=abort]").is_visible()
        assert not page.locator("#referee button[data-command=undo]").is_visible()
        assert table.camera.calls == 0
        start.click()                                                # the referee taps New game
        page.wait_for_function("document.getElementById('status').textContent.startsWith('Partie n° 1')")
        wait_for(lambda: organisers[0].state()["tables"][0]["detail"] == "playing", what="the table playing")
        wait_for(lambda: table.camera.calls == 1, what="the camera's frames going to the game")
        context.close()
    finally:
        table.stop()
    assert table.error is None, table.error


def test_every_game_the_camera_referees_can_be_a_table_of_a_tournament() -> None:
    """Through the registry alone: the camera's way of playing a game (its ``mode_options``) agrees
    with a tournament made with those options, and a tournament that plays it otherwise is refused
    with the options to give."""
    camera_games = [spec for spec in games() if spec.plays_on("camera")]
    assert camera_games, "the registry declares games refereed by the camera"
    for spec in camera_games:
        seats = CameraSeats(object(), spec)
        implied = spec.mode_options.get("camera", {})
        options = spec.load_engine().OPTIONS.from_dict({**spec.options_from({}, None, {}), **implied}).to_dict()
        assert seats.refusal(options) is None, spec.name
        assert seats.seats() == spec.players[1]
        for key, value in implied.items():
            other = {**options, key: f"not-{value}"}
            said = seats.refusal(other) or ""
            given = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
            assert f"--option {shlex.quote(f'{key}={given}')}" in said and f"{key}=not-" in said, spec.name


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """The first still moments of a seeded PuXes game as the camera filmed them, with the mat's profile
    and the faces as `bitbox calibrate` stores them."""
    import cv2

    from controller.referee.demo.camera import FPS, TableCamera
    from controller.referee.demo.table import ScriptedTable

    root = tmp_path_factory.mktemp("recording")
    state, frames = root / "state", root / "frames"
    frames.mkdir()
    table = ScriptedTable({"players": 2}, seed=3)
    camera = TableCamera(table.game.collection, {d.name for d in table.game.dice.values()}, seed=3)
    before = os.environ.get("BITBOX_STATE_DIR")
    os.environ["BITBOX_STATE_DIR"] = str(state)
    try:
        camera.profile.save()
        camera.faces.save()
    finally:
        if before is None:
            del os.environ["BITBOX_STATE_DIR"]
        else:
            os.environ["BITBOX_STATE_DIR"] = before
    count, clock = 0, 0.0
    for moment, tr in enumerate(table.play(max_turns=1)):
        for frame in camera.frames(tr.before, tr.after, tr.player, tr.reach_over):
            clock += 1.0 / FPS
            cv2.imwrite(str(frames / f"{count:05d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 1])
            count += 1
            if camera.watcher.feed(frame, clock) is not None:
                break
        if moment == 2:                                  # the temples, then two oracles placed
            break
    for extra in range(6):
        cv2.imwrite(str(frames / f"{count + extra:05d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    return state, frames


def test_bitbox_play_joins_a_tournament_with_the_camera_and_holds_the_recording_until_the_start(
        tmp_path: Path, broker, organisers, recording) -> None:
    """`bitbox play puxes --source FOLDER --tournament URL --table N`: the table waits for its pairing,
    the recorded frames go to the game the referee starts (none is judged before), the table says it
    is offline when stopped, and started again it resumes the paired game."""
    state, frames = recording
    address = BrokerAddress("127.0.0.1", broker.port, "club")
    path = tmp_path / "club.db"
    new_tournament(path, address, players=2, rounds=1, game="puxes")
    organisers.append(OrganiserThread(path, address))
    log = tmp_path / "table.log"
    db = tmp_path / "table.db"
    command = [sys.executable, "-m", "controller", "--lang", "en", "play", "puxes", "--source", str(frames),
               "--fps", "15", "--tournament", address.url, "--table", "2", "--seed", "3", "--port", "0", "--token",
               TOKEN, "--db", str(db)]
    env = {**os.environ, "BITBOX_STATE_DIR": str(state), "BITBOX_TOKEN": ""}
    table = subprocess.Popen(command, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env)
    try:
        url = wait_for(lambda: re.search(r"Table page: (http://\S+)", log.read_text()), 60, "the table page").group(1)
        wait_for(lambda: _state(url).get("notice"), what="the pairing on the table page")
        assert _state(url)["frames"] == 0, "the recording waits for the game"
        wait_for(lambda: organisers[0].state()["tables"][0]["detail"] == "paired", what="the table paired")
        assert _call(url, "/api/game/start", {"replace": True, "seed": 4}, TOKEN)[0] == 400
        status, body = _call(url, "/api/game/start", {"replace": True}, TOKEN)
        assert status == 200 and body == {"started": 1}
        wait_for(lambda: sum(e["kind"] == "call" for e in _state(url)["log"]) >= 2, 60, "the recording's calls")
        wait_for(lambda: organisers[0].state()["tables"][0]["detail"] == "playing", what="the table playing")
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:   # the table holds the log
            ((status, options, setup),) = conn.execute("SELECT status, options, setup FROM games").fetchall()
        assert status == "playing" and [p["name"] for p in json.loads(setup)["players"]] == ["P01", "P02"]
        assert json.loads(options) == organisers[0].organiser.tournament.options_for(2)
    finally:
        table.terminate()
        table.wait(20)
    assert "Table 2 of the tournament club" in log.read_text()
    wait_for(lambda: organisers[0].state()["tables"][0]["state"] == "offline", what="the table marked offline")
    assert recorded(path) == []

    again = tmp_path / "again.log"
    table = subprocess.Popen(command, cwd=ROOT, stdout=again.open("wb"), stderr=subprocess.STDOUT, env=env)
    try:
        url = wait_for(lambda: re.search(r"Table page: (http://\S+)", again.read_text()), 60, "the table page").group(1)
        assert "Resuming game #1" in again.read_text()
        assert _state(url)["game_id"] == 1 and _state(url)["status"] == "playing"
        wait_for(lambda: organisers[0].state()["tables"][0]["detail"] == "playing", what="the paired game resumed")
    finally:
        table.terminate()
        table.wait(20)
