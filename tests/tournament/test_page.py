"""The standings page the organiser serves: the page and its scripts, the live state, the words in
French, and the organiser's requests (a result by hand) only with the token."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from controller.service.web import WebServer
from controller.tournament.page import create_app
from controller.tournament.topics import BrokerAddress
from tests.tournament.conftest import OrganiserThread, new_tournament, recorded, wait_for

TOKEN = "organiser-token-long-enough-0123"


def _fetch(url: str, body: dict | None = None, token: str | None = None) -> tuple[int, bytes, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     headers=headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


@pytest.fixture
def page(tmp_path: Path, broker, organisers):
    address = BrokerAddress("127.0.0.1", broker.port, "cafe")
    path = tmp_path / "cafe.db"
    new_tournament(path, address, players=4, rounds=1)
    organisers.append(OrganiserThread(path, address))
    server = WebServer(create_app(organisers[0].organiser, TOKEN, {"127.0.0.1"}), "127.0.0.1", 0)
    server.start()
    yield server.url, path
    server.stop()


def test_the_page_its_scripts_and_the_live_state_are_served(page) -> None:
    url, _path = page
    status, html, headers = _fetch(url)
    assert status == 200 and b'id="standings"' in html and "default-src 'self'" in headers["content-security-policy"]
    for script in ("static/tournament/standings.js", "static/tournament/standings.css", "static/i18n.js"):
        assert _fetch(url + script)[0] == 200, script
    state = wait_for(lambda: json.loads(_fetch(url + "api/state")[1]).get("state", {}).get("pairings"),
                     what="the round's pairings on the page")
    assert len(state) == 2 and all(len(p["players"]) == 2 for p in state)
    words = json.loads(_fetch(url + "api/i18n/fr")[1])["catalogue"]
    assert words["Standings"] == "Classement" and words["Round {round} of {rounds}"] == "Ronde {round} sur {rounds}"


def test_a_result_by_hand_needs_the_token_and_counts_once(page) -> None:
    url, path = page
    wait_for(lambda: json.loads(_fetch(url + "api/state")[1]).get("state", {}).get("pairings"), what="pairings")
    assert _fetch(url + "api/result", {"round": 1, "board": 1, "scores": [3, 1]})[0] == 401
    assert _fetch(url + "api/result", {"round": 1, "board": 1, "scores": [3, 1]}, "wrong-token-wrong-token-00")[0] == 403
    assert recorded(path) == []
    status, body, _headers = _fetch(url + "api/result", {"round": 1, "board": 1, "scores": [3, 1]}, TOKEN)
    assert status == 200 and json.loads(body)["result"]["winners"] == [0]
    again = _fetch(url + "api/result", {"round": 1, "board": 1, "scores": [0, 4]}, TOKEN)
    assert again[0] == 409 and b"already has its result" in again[1]
    assert _fetch(url + "api/move", {"round": 1, "board": 2, "table": "five"}, TOKEN)[0] == 400
    assert len(recorded(path)) == 1
