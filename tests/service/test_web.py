"""The dashboard server over real HTTP: live events, tokens, clean 4xx, no secret ever sent, and each
game's dashboard view served from its own folder, by a shell that names no game."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
from urllib.parse import urlparse

import pytest

from controller.games import GameSpec, games, register, unregister
from controller.service.web.app import STATIC_DIR

from .conftest import CONTROLLERS, wait_for


class SseReader:
    """Reads ``/api/events`` on a real socket in a thread and keeps every state message."""

    def __init__(self, url: str) -> None:
        parsed = urlparse(url)
        self.conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
        self.conn.request("GET", "/api/events")
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("content-type").startswith("text/event-stream")
        self.messages: list[dict] = []
        self.raw: list[str] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event = None
        try:
            for line in self.response:
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event == "state":
                    self.raw.append(text[6:])
                    self.messages.append(json.loads(text[6:]))
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        if self.conn.sock is not None:
            self.conn.sock.shutdown(socket.SHUT_RDWR)  # wakes the reading thread
        self.thread.join(2)
        self.conn.close()


@pytest.fixture
def web_table(table_factory):
    return table_factory(web=True)


def test_state_and_page_are_served(web_table):
    status, state = web_table.http("GET", "/api/state")
    assert status == 200 and state["state"]["game"]["name"] == "pixoid"
    assert state["state"]["view"]["board"], "the board drawing is sent"
    assert state["state"]["ui"] == {"game": "pixoid", "title": "Pixoid", "mode": "wheels",
                                    "script": "/games/pixoid/view.js", "style": "/games/pixoid/view.css"}
    status, page = web_table.http("GET", "/")
    assert status == 200 and '<script type="module" src="/static/dashboard.js">' in page
    status, script = web_table.http("GET", "/static/dashboard.js")
    assert status == 200 and "EventSource" in script and "import(" in script


def test_live_updates_arrive_as_server_sent_events(web_table):
    reader = SseReader(web_table.url)
    try:
        wait_for(lambda: reader.messages, what="the first message")
        first = reader.messages[-1]["seq"]
        web_table.set_wheels("red", number=1)
        web_table.press("red")
        wait_for(lambda: any(any(e["kind"] == "placed" for e in m["events"]) for m in reader.messages),
                 what="the placement event")
        assert reader.messages[-1]["seq"] > first
        assert reader.messages[-1]["state"]["view"]["pieces"][0]["pix"] is not None
    finally:
        reader.close()


def test_programs_are_never_sent_before_the_reveal(web_table):
    reader = SseReader(web_table.url)
    try:
        web_table.place_all()
        programs = {}
        for piece, cid in enumerate(CONTROLLERS):
            direction, _ = web_table.legal_program(piece)
            distance = 9 - piece  # distinct, recognisable numbers
            programs[piece] = (direction, distance)
            web_table.set_wheels(cid, direction, distance)
            web_table.press(cid)
        wait_for(lambda: any(any(e["kind"] == "revealed" for e in m["events"]) for m in reader.messages),
                 what="the reveal")
        time.sleep(0.1)
    finally:
        reader.close()
    reveal_index = next(i for i, m in enumerate(reader.messages) if any(e["kind"] == "revealed" for e in m["events"]))
    assert reveal_index > 0
    for raw, message in zip(reader.raw[:reveal_index], reader.messages[:reveal_index]):
        state = message["state"]
        assert state["view"]["last_turn"] is None
        assert "my_programs" not in state["view"] and "programs" not in state["view"]
        for c in state["controllers"]:
            assert not {"direction", "number", "symbol"} & set(c), "wheel positions must stay secret"
        assert '"distance"' not in raw and '"direction"' not in raw, raw[:300]
    revealed = next(e for e in reader.messages[reveal_index]["events"] if e["kind"] == "revealed")
    assert {p["piece"]: (p["direction"], p["distance"]) for p in revealed["data"]["programs"]} == programs


def test_referee_commands_need_the_token(web_table):
    status, body = web_table.http("POST", "/api/game/abort")
    assert status == 401 and "token" in body["error"]
    status, body = web_table.http("POST", "/api/game/abort", headers={"Authorization": "Bearer wrong-token"})
    assert status == 403 and "wrong token" in body["error"]
    assert web_table.state["status"] == "playing"
    status, body = web_table.http("POST", f"/api/game/abort?token={web_table.token}",
                                  headers={"Content-Type": "application/json"})
    assert status == 401, "a control request takes the token from a header or the cookie, never the address"
    status, body = web_table.http("POST", "/api/game/abort", headers={
        "Authorization": f"Bearer {web_table.token}", "Content-Type": "application/json"})
    assert status == 200 and body == {"aborted": web_table.session.game_id}
    wait_for(lambda: web_table.state["status"] == "aborted", what="the abort")
    status, body = web_table.http("POST", "/api/game/start", body=json.dumps({"seed": 11}),
                                  headers={"Authorization": f"Bearer {web_table.token}", "Content-Type": "application/json"})
    assert status == 200 and body["started"] == web_table.session.game_id
    wait_for(lambda: web_table.state["game"]["seed"] == 11, what="the new game")


def test_undo_takes_back_the_last_action(web_table):
    web_table.set_wheels("red", number=0)
    web_table.press("red")
    assert web_table.game().pos[0] >= 0
    auth = {"Authorization": f"Bearer {web_table.token}", "Content-Type": "application/json"}
    status, body = web_table.http("POST", "/api/game/undo", body='{"count": 1}', headers=auth)
    assert status == 200 and body == {"actions": 0}
    wait_for(lambda: web_table.state["game"]["actions"] == 0, what="the correction")
    assert web_table.game().pos[0] == -1
    assert web_table.store.actions(web_table.session.game_id) == []


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("POST", "/api/game/undo", "{not json", 400, "not valid JSON"),
        ("POST", "/api/game/abort", "count=1", 415, "send JSON"),
        ("POST", "/api/game/undo", "[1, 2]", 400, "must be a JSON object"),
        ("POST", "/api/game/undo", '{"count": "two"}', 400, "\"count\" must be a whole number"),
        ("POST", "/api/game/undo", '{"count": 99}', 409, "cannot take back 99"),
        ("POST", "/api/game/undo", '{"cuont": 1}', 400, "unknown field(s) cuont"),
        ("POST", "/api/game/start", '{"seed": 1}', 409, "still being played"),
        ("POST", "/api/game/start", '{"options": {"players": 7}, "replace": true}', 409, "3 or 4 players"),
        ("GET", "/api/nowhere", None, 404, "nothing at /api/nowhere"),
        ("DELETE", "/api/state", None, 405, "DELETE is not allowed"),
        ("GET", "/api/games/abc", None, 400, "a game number is a whole number"),
        ("GET", "/api/games/99999999999999999999999", None, 400, "a game number is a whole number"),
        ("GET", "/api/games/42", None, 404, "no game number 42"),
        ("GET", "/api/games/1", None, 409, "still being played"),
    ],
)
def test_malformed_requests_get_a_4xx_with_a_json_reason(web_table, method, path, body, status, words):
    headers = {"Authorization": f"Bearer {web_table.token}",
               "Content-Type": "text/plain" if body == "count=1" else "application/json"}
    got, answer = web_table.http(method, path, body=body, headers=headers)
    assert got == status, answer
    assert isinstance(answer, dict) and words in answer["error"]
    assert web_table.state["status"] == "playing"


def test_a_finished_game_exports_and_lists(web_table):
    auth = {"Authorization": f"Bearer {web_table.token}", "Content-Type": "application/json"}
    web_table.http("POST", "/api/game/abort", headers=auth)
    status, listing = web_table.http("GET", "/api/games")
    assert status == 200 and listing["games"][0]["status"] == "aborted"
    status, save = web_table.http("GET", f"/api/games/{listing['games'][0]['id']}")
    assert status == 200 and save["format"] == "bitbox-game" and save["game"] == "pixoid"


def test_the_server_listens_on_localhost_only_by_default():
    from controller.service.config import ServiceConfig

    assert ServiceConfig().host == "127.0.0.1"


# ---- the games' dashboard views -----------------------------------------------------------------


def get(url: str, path: str) -> tuple[int, dict[str, str], bytes]:
    """A raw GET: status, headers (lower-case names) and body, the path sent exactly as given."""
    parsed = urlparse(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=5)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def views_url():
    """The dashboard app alone (no game loop): the view routes need none."""
    from controller.service.hub import Hub
    from controller.service.web import WebServer, create_app

    server = WebServer(create_app(None, Hub(), "test-token-123456"), "127.0.0.1", 0)
    server.start()
    try:
        yield server.url.rstrip("/")
    finally:
        server.stop()


@pytest.mark.parametrize("spec", games(), ids=lambda spec: spec.name)
def test_every_game_view_is_served_from_its_folder(views_url, spec):
    assert spec.view_dir is not None, f"{spec.name} declares no dashboard view"
    status, headers, body = get(views_url, f"/games/{spec.name}/view.js")
    assert status == 200
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    assert headers["cache-control"] == "no-cache"
    assert body == (spec.view_dir / "view.js").read_bytes()
    for name in ("mount", "update"):
        assert re.search(rf"export (async )?function {name}\(".encode(), body), f"view.js exports no {name}()"
    status, headers, body = get(views_url, f"/games/{spec.name}/view.css")
    if (spec.view_dir / "view.css").is_file():
        assert status == 200 and headers["content-type"] == "text/css; charset=utf-8"
        assert headers["cache-control"] == "no-cache" and body == (spec.view_dir / "view.css").read_bytes()
        assert spec.ui("wheels")["style"] == f"/games/{spec.name}/view.css"
    else:
        assert status == 404 and spec.ui("wheels")["style"] is None


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/games/nosuchgame/view.js", "no game called 'nosuchgame'"),
        ("/games/pixoid/__init__.py", "view.js and view.css, not '__init__.py'"),
        ("/games/pixoid/view.py", "not 'view.py'"),
        ("/games/pixoid/VIEW.JS", "not 'VIEW.JS'"),
        ("/games/pixoid/..", "not '..'"),
        ("/games/pixoid/..%2F__init__.py", "nothing at"),
        ("/games/pixoid/%2e%2e%2f%2e%2e%2fspec.py", "nothing at"),
        ("/games/..%2Fpixoid/view.js", "nothing at"),
        ("/games/../static/dashboard.js", ""),
        ("/games/pixoid/../../service/web/app.py", "nothing at"),
        ("/games/pixoid/view.js/x", "nothing at"),
        ("/games/pixoid", "nothing at"),
    ],
)
def test_nothing_but_a_game_view_is_served(views_url, path, words):
    status, headers, body = get(views_url, path)
    assert status == 404, body[:200]
    assert headers["content-type"] == "application/json"
    assert words in json.loads(body)["error"]


def test_a_game_without_a_view_has_none_to_serve(views_url):
    spec = register(GameSpec(name="viewless", title="Viewless", summary="no dashboard view",
                             engine="controller.engines.pixoid:PixoidGame", players=(2, 2), wheels="x:y"))
    try:
        assert spec.ui("wheels")["script"] is None
        status, _, body = get(views_url, "/games/viewless/view.js")
        assert status == 404 and "has no view.js" in json.loads(body)["error"]
    finally:
        unregister("viewless")


def test_the_shell_names_no_game():
    """The page, its script and its style are the same for every game: no game's name or words in them."""
    words = {"pix", "pixoid", "bug", "bugs", "puxes", "oracle", "oracles", "temple", "temples", "hero", "heroes",
             "dixe", "dixé", "mat", "reserve", "cube", "cubes"}
    for spec in games():
        words |= {spec.name.lower(), spec.title.lower()}
    for path in sorted(STATIC_DIR.iterdir()):
        text = path.read_text(encoding="utf-8").lower()
        found = sorted(w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text))
        assert not found, f"{path.name} names {found}"
