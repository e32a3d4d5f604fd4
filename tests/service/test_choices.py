"""Games played by choosing on phones: each seat's page holds its hand and its choices, through the
real dashboard server, the real loop in a thread and a real SQLite log."""

from __future__ import annotations

import json
import threading
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from controller import i18n
from controller.engines import CHANCE
from controller.games import game as game_spec
from controller.service.choices import ChoiceError, ChoiceSession
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.store import GameStore

from .conftest import http_call, wait_for
from .test_phones import join


class LivePhones:
    """A game played on phones: the loop in a thread, the dashboard on a free port."""

    def __init__(self, tmp: Path, game: str = "praxis", players: int = 2, bots: tuple[int, ...] = (),
                 seed: int = 5, options: dict[str, Any] | None = None) -> None:
        self.config = ServiceConfig(game=game, options={"players": players, **(options or {})}, seed=seed,
                                    players=[PlayerConfig(f"P{i}", bot=i in bots) for i in range(players)],
                                    bot_delay=0.0, db=tmp / "games.db")
        self.store = GameStore(self.config.db_path())
        self.hub = Hub()
        self.session = ChoiceSession(self.config, self.store, self.hub)
        self.session.start_new()
        self.session.publish()
        self.thread = threading.Thread(target=self.session.run, kwargs={"until_over": False}, daemon=True)
        self.thread.start()
        from controller.service.web import WebServer, create_app

        self.token = "test-token-123456789012345"
        self.server = WebServer(create_app(self.session, self.hub, self.token), "127.0.0.1", 0)
        self.server.start()
        self.url = self.server.url.rstrip("/")

    def http(self, method: str, path: str, body: str | None = None, cookie: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if cookie:
            headers["Cookie"] = cookie
        return http_call(self.url, method, path, body, headers)

    def join(self, seat: str) -> str:
        status, body = self.http("GET", "/api/seats")
        assert status == 200
        link = next(s["join"] for s in body["seats"] if s["id"] == seat)
        code, cookie = join(self, link)
        assert code == 303 and cookie
        return cookie

    @property
    def state(self) -> dict[str, Any]:
        return self.hub.latest["state"]

    def hand(self, seat: str) -> dict[str, Any]:
        return self.session.seat_hubs[seat].latest["seat"]

    def close(self) -> None:
        self.session.stop()
        self.thread.join(5)
        self.server.stop()
        self.store.close()


@pytest.fixture
def phones_factory(tmp_path: Path):
    made: list[LivePhones] = []

    def make(**kw: Any) -> LivePhones:
        live = LivePhones(tmp_path, **kw)
        made.append(live)
        return live

    yield make
    for live in made:
        live.close()


def my_turn(live: LivePhones, seat: str) -> dict[str, Any]:
    return wait_for(lambda: live.hand(seat)["choices"] and live.hand(seat), what=f"seat {seat}'s turn", timeout=10)


def test_a_phone_joins_its_seat_and_chooses_its_move(phones_factory):
    live = phones_factory()
    seat = my_turn_seat(live)
    hand = my_turn(live, seat)
    cookie = live.join(seat)
    status, body = live.http("GET", f"/api/hand/{seat}", cookie=cookie)
    assert status == 200 and body["seat"]["choices"] == hand["choices"]
    assert body["seat"]["view"]["hand"], "a Praxis seat sees its own hand"
    before = len(live.session.game.history)
    status, result = live.http("POST", f"/api/hand/{seat}/choose",
                               json.dumps({"index": 0, "step": hand["step"]}), cookie=cookie)
    assert status == 200, result
    assert result["actions"] > before
    wait_for(lambda: live.state["game"]["actions"] > before, what="the move on the public channel")


def test_a_stale_or_out_of_turn_choice_changes_nothing(phones_factory):
    live = phones_factory()
    seat = my_turn_seat(live)
    hand = my_turn(live, seat)
    cookie = live.join(seat)
    before = live.session.game.state_dict()
    status, body = live.http("POST", f"/api/hand/{seat}/choose",
                             json.dumps({"index": 0, "step": hand["step"] + 7}), cookie=cookie)
    assert status == 409 and "moved on" in body["error"] and body["message"]["msg"]
    assert i18n.said(body["message"], "fr") != body["error"]
    other = "2" if seat == "1" else "1"
    other_cookie = live.join(other)
    status, body = live.http("POST", f"/api/hand/{other}/choose", json.dumps({"index": 0}), cookie=other_cookie)
    assert status == 409 and "not your turn" in body["error"]
    status, body = live.http("POST", f"/api/hand/{seat}/choose", json.dumps({"index": 10_000}), cookie=cookie)
    assert status == 409 and "no longer offered" in body["error"]
    status, body = live.http("POST", f"/api/hand/{seat}/choose", json.dumps({"index": "0"}), cookie=cookie)
    assert status == 400
    assert live.session.game.state_dict() == before


def my_turn_seat(live: LivePhones) -> str:
    """The id of a seat the game waits for (after the program's set-up rolls)."""
    waiting = wait_for(lambda: live.state.get("waiting_for"), what="a seat to act", timeout=10)
    return str(waiting[0]["seat"] + 1)


def test_a_seat_reads_its_own_hand_only(phones_factory):
    live = phones_factory()
    one, two = live.join("1"), live.join("2")
    status, _ = live.http("GET", "/api/hand/2", cookie=one.replace("bitbox_seat_1", "bitbox_seat_2"))
    assert status in (401, 403)
    status, mine = live.http("GET", "/api/hand/1", cookie=one)
    status2, theirs = live.http("GET", "/api/hand/2", cookie=two)
    assert status == status2 == 200
    hand_one, hand_two = mine["seat"]["view"]["hand"], theirs["seat"]["view"]["hand"]
    game = live.session.game
    assert hand_one == game.view(0)["hand"] and hand_two == game.view(1)["hand"]
    public = json.dumps(live.state)
    assert '"hand"' not in json.dumps(live.state["view"]) and "choices" not in public
    status, state = live.http("GET", "/api/state")
    assert status == 200 and "hand" not in state["state"]["view"]


def test_bots_and_the_programs_rolls_play_the_other_seats(phones_factory):
    live = phones_factory(bots=(1,))
    status, body = live.http("GET", "/api/seats")
    assert {s["id"]: s["join"] is None for s in body["seats"]} == {"1": False, "2": True}
    status, _ = live.http("GET", "/api/seats/2/qr.svg")
    assert status == 409
    # Seat 1 plays whatever its phone offers first; the bot and the rolls answer until seat 1 must choose again.
    cookie = live.join("1")
    step = -1
    for _ in range(3):
        # The seat's page is told once the loop has published the move before: wait for the new list.
        hand = wait_for(lambda: live.hand("1")["choices"] and live.hand("1")["step"] > step and live.hand("1"),
                        what="seat 1's next turn")
        status, body = live.http("POST", "/api/hand/1/choose", json.dumps({"index": 0, "step": hand["step"]}),
                                 cookie=cookie)
        assert status == 200, body
        step = hand["step"]
    history = live.session.game.history
    assert any(player == 1 for player, _ in history) and any(player == CHANCE for player, _ in history)


def test_a_game_resumes_exactly_rolls_and_draws_included(tmp_path: Path):
    config = ServiceConfig(game="memodixe", options={"players": 3}, seed=9, bot_delay=0.0, db=tmp_path / "g.db",
                           players=[PlayerConfig(n, bot=True) for n in ("Ada", "Brice", "Chloé")])
    with GameStore(config.db_path()) as store:
        session = ChoiceSession(config, store, Hub())
        session.start_new()
        while len(session.game.history) < 20:
            session.step(0)
        state = session.game.state_dict()
        assert not session.game.is_over()
    with GameStore(config.db_path()) as store:
        again = ChoiceSession(config, store, Hub())
        again.resume(store.unfinished())
        assert again.game.state_dict() == state


def test_a_choice_out_of_turn_is_refused_in_the_players_words(tmp_path: Path):
    config = ServiceConfig(game="praxis", options={"players": 2}, seed=3, bot_delay=0.0, db=tmp_path / "g.db",
                           players=[PlayerConfig("Ada"), PlayerConfig("Brice")])
    with GameStore(config.db_path()) as store:
        session = ChoiceSession(config, store, Hub())
        session.start_new()
        for _ in range(10):
            session.step(0)
        idle = next(seat for seat in range(2) if seat not in session.play.to_act())
        with pytest.raises(ChoiceError) as info:
            session.choose(idle, 0)
        assert i18n.said(info.value.words, "fr") == "ce n'est pas à vous de choisir"


def test_every_game_played_on_phones_offers_each_seat_its_own_moves():
    from controller.games import games
    from controller.games.choices import ChoicePlay

    for spec in [s for s in games() if s.plays_on("phones")]:
        engine = spec.load_engine()
        game = engine(engine.OPTIONS.from_dict({}), seed=1)
        play: ChoicePlay = spec.load_choices()(game, spec.load_bot())
        for _ in range(40):
            if game.is_over():
                break
            if play.chance_due():
                game.apply(CHANCE, play.chance(__import__("random").Random(1)))
                continue
            seat = play.to_act()[0]
            offered = play.choices(seat)
            assert offered and all(i18n.said(c["words"], "en") for c in offered), spec.name
            assert all(not play.choices(other) for other in range(game.num_players) if other not in play.to_act())
            game.apply(seat, play.action(seat, len(offered) - 1))


@pytest.mark.browser
def test_a_phone_plays_its_hand_in_chromium(phones_factory, browser):
    live = phones_factory()
    seat = my_turn_seat(live)
    status, body = live.http("GET", "/api/seats")
    link = next(s["join"] for s in body["seats"] if s["id"] == seat)
    page = browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 844}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live.url + link)
    assert urllib.parse.urlsplit(page.url).path == f"/hand/{seat}"
    page.wait_for_function("window.__bitbox.hand && window.__bitbox.hand.choices.length > 0", timeout=15000)
    page.wait_for_function("document.querySelector('#choose h2').textContent === 'Votre choix'", timeout=15000)
    before = live.session.game.history.__len__()
    page.click("#choices button")
    wait_for(lambda: len(live.session.game.history) > before, what="the choice taken", timeout=10)
    dashboard = browser.new_page()
    dashboard.on("pageerror", lambda exc: errors.append(str(exc)))
    dashboard.goto(live.url + "/")
    dashboard.wait_for_function("document.querySelectorAll('#hand-players li').length === 2", timeout=15000)
    assert not errors, errors


@pytest.mark.browser
@pytest.mark.parametrize("game", [spec.name for spec in __import__("controller.games", fromlist=["games"]).games()
                                  if spec.plays_on("phones")])
def test_each_game_on_phones_is_drawn_on_the_dashboard_and_in_a_hand(phones_factory, browser, game):
    live = phones_factory(game=game, players=game_spec(game).players[0])
    seat = my_turn_seat(live)
    status, body = live.http("GET", "/api/seats")
    link = next(s["join"] for s in body["seats"] if s["id"] == seat)
    errors: list[str] = []
    pages = []
    for path in ("/", link):
        page = browser.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.goto(live.url + path)
        pages.append(page)
    dashboard, hand = pages
    dashboard.wait_for_function("document.querySelector('#view') && document.querySelector('#view').children.length > 0"
                                " && document.querySelector('#view').textContent.length > 0", timeout=15000)
    hand.wait_for_function("window.__bitbox.hand && !document.getElementById('mine').hidden"
                           " && document.getElementById('private').children.length > 0", timeout=15000)
    assert not errors, errors


def test_a_face_shown_to_one_player_reaches_that_players_page_alone(tmp_path: Path):
    config = ServiceConfig(game="memodixe", options={"players": 4, "mode": "oni-contre-tous", "oni_seat": 0}, seed=2,
                           bot_salt=2, bot_delay=0.0, db=tmp_path / "g.db",
                           players=[PlayerConfig(n, bot=True) for n in ("Ada", "Brice", "Chloé", "Dinesh")])
    public: list[dict[str, Any]] = []
    with GameStore(config.db_path()) as store:
        hub = Hub()
        hub.add_listener(public.append)
        session = ChoiceSession(config, store, hub)
        session.start_new()
        while not session.game.is_over():
            session.step(0)
        told = {sid: session.seat_state(sid)["told"] for sid in session.play.seat_ids()}
    shown = [event for events in told.values() for event in events]
    assert shown, "an Oni game shows a face to one player within the game"
    for sid, events in told.items():
        seat = int(sid) - 1
        assert all(seat in event["data"]["audience"] for event in events)
    everything = json.dumps(public)
    assert '"audience"' not in everything
    for event in shown:
        assert json.dumps(event["message"]) not in everything


def test_the_oni_countdown_is_kept_by_the_server_and_runs_on_while_it_is_stopped(tmp_path: Path):
    now = [1_000_000.0]
    config = ServiceConfig(game="memodixe", options={"players": 4, "mode": "oni-contre-tous", "oni_seat": 0,
                                                     "level": "hard"},
                           seed=4, bot_delay=0.0, db=tmp_path / "g.db",
                           players=[PlayerConfig(n) for n in ("Ada", "Brice", "Chloé", "Dinesh")])
    with GameStore(config.db_path()) as store:
        hub = Hub()
        session = ChoiceSession(config, store, hub, wall=lambda: now[0])
        session.start_new()
        session.step(0)
        assert hub.latest["state"]["countdown"] == {"remaining": 200, "total": 200.0}
        now[0] += 61.5
        session.step(0)
        assert hub.latest["state"]["countdown"]["remaining"] == 138
        history = list(session.game.history)
    now[0] += 100.0  # the service was stopped (a power cut) for 100 s: the app's clock did not wait
    with GameStore(config.db_path()) as store:
        hub = Hub()
        again = ChoiceSession(config, store, hub, wall=lambda: now[0])
        again.resume(store.unfinished())
        assert again.game.history == history
        again.step(0)
        assert hub.latest["state"]["countdown"]["remaining"] == 38
        now[0] += 40.0
        again.step(0)
        assert again.game.is_over() and list(again.game.winners()) == [0], "Oni wins when the countdown rings"
        assert store.game(again.game_id).status == "over"
