"""The standings page's Referee panel: for a pairing whose table is offline, the organiser records the
result by hand or has another online table play it, with the organiser's token. Through HTTP as the
panel sends it, and clicked in headless Chromium in French; a request without the token, with a wrong
one, for an unknown pairing or towards a table that is not online is refused, saying why, and changes
nothing. A real Mosquitto on a free loopback port, simulated tables and the organiser in a thread."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from controller import i18n
from controller.service.web import WebServer
from controller.tournament.page import create_app
from controller.tournament.store import TournamentStore
from controller.tournament.topics import BrokerAddress
from tests.service.conftest import browser  # noqa: F401 - headless Chromium, skipped where absent
from tests.tournament.conftest import OrganiserThread, new_tournament, recorded, wait_for

TOKEN = "organiser-token-long-enough-4567"


def _post(url: str, path: str, body: dict, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url.rstrip("/") + path, data=json.dumps(body).encode(), headers=headers,
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _boards(path: Path) -> list[tuple]:
    """Every pairing as the tournament's file holds it: (round, board, table, tables, done, source)."""
    with TournamentStore(path) as store:
        return [(b.round, b.board, b.table, b.tables, b.done, b.source) for b in store.boards()]


class Cafe:
    """A tournament of ``players`` on tables 1..``online``: table 1's bots play at once; the others
    take their pairing, wait for the referee and then go offline for good."""

    def __init__(self, tmp: Path, broker, tables, organisers, players: int, online: int) -> None:
        self.address = BrokerAddress("127.0.0.1", broker.port, "cafe")
        self.path = tmp / "cafe.db"
        new_tournament(self.path, self.address, players=players, rounds=1)
        self.tables = tables
        tables.start(1, self.address.url)
        self.gone = [tables.start(n, self.address.url, auto_start=False) for n in range(2, online + 1)]
        organisers.append(OrganiserThread(self.path, self.address))
        self.organiser = organisers[0]
        for table in self.gone:
            wait_for(lambda t=table: t.link.current() is not None, what=f"table {table.table}'s pairing")
        wait_for(lambda: len(recorded(self.path)) == 1, what="table 1's result")
        for table in self.gone:
            tables.stop(table.table)
        wait_for(lambda: sum(t["state"] == "offline" for t in self.organiser.state()["tables"]) == len(self.gone),
                 what="the lost tables marked offline")
        self.server = WebServer(create_app(self.organiser.organiser, TOKEN, {"127.0.0.1"}), "127.0.0.1", 0)
        self.server.start()
        self.url = self.server.url

    def board_at(self, table: int) -> int:
        return next(b for r, b, t, _ts, done, _s in _boards(self.path) if t == table and not done)

    def close(self) -> None:
        self.server.stop()


@pytest.fixture
def cafe(tmp_path: Path, broker, tables, organisers):
    made = Cafe(tmp_path, broker, tables, organisers, players=4, online=2)
    yield made
    made.close()


def test_refusals_say_why_in_the_readers_language_and_change_nothing(cafe: Cafe) -> None:
    lost = cafe.board_at(2)
    wait_for(lambda: cafe.organiser.state().get("free_tables") == [1], what="table 1 free again")
    before = _boards(cafe.path)
    result = {"round": 1, "board": lost, "scores": [2, 1]}

    status, body = _post(cafe.url, "/api/result", result)
    assert status == 401 and "organiser's token" in body["error"]
    assert "jeton de l'organisateur" in i18n.said(body["message"], "fr")
    status, body = _post(cafe.url, "/api/move", {"round": 1, "board": lost, "table": 1}, "wrong-token-wrong-token-000")
    assert status == 403 and "wrong token" in body["error"]

    status, body = _post(cafe.url, "/api/result", {**result, "board": 9}, TOKEN)
    assert status == 404 and body["error"].startswith("round 1 has no table 9")
    assert i18n.said(body["message"], "fr").startswith("la ronde 1 n'a pas de table 9")
    status, body = _post(cafe.url, "/api/result", {"round": 1, "board": lost, "scores": [2, 1, 0]}, TOKEN)
    assert status == 409 and "give 2 scores" in body["error"]
    status, body = _post(cafe.url, "/api/result", {"round": 1, "board": lost, "scores": "2,1"}, TOKEN)
    assert status == 400 and '"scores" must be a list of numbers' in body["error"]
    status, body = _post(cafe.url, "/api/move", {"round": 1, "board": lost, "table": 7}, TOKEN)
    assert status == 409 and body["error"] == "table 7 is not online; tables online and free: 1"
    assert i18n.said(body["message"], "fr") == "la table 7 n'est pas en ligne ; tables en ligne et libres : 1"
    status, body = _post(cafe.url, "/api/move", {"round": 1, "board": lost, "table": 2}, TOKEN)
    assert status == 409 and "already played at table 2" in body["error"]
    done = next(b for _r, b, _t, _ts, finished, _s in before if finished)
    status, body = _post(cafe.url, "/api/result", {"round": 1, "board": done, "scores": [0, 5]}, TOKEN)
    assert status == 409 and "already has its result" in body["error"]
    assert _boards(cafe.path) == before, "a refused request changes nothing"


def test_a_pairing_moved_to_an_online_table_is_played_there_and_its_old_table_is_withdrawn(cafe: Cafe) -> None:
    lost = cafe.board_at(2)
    wait_for(lambda: cafe.organiser.state().get("free_tables") == [1], what="table 1 free again")
    status, body = _post(cafe.url, "/api/move", {"round": 1, "board": lost, "table": 1}, TOKEN)
    assert status == 200 and body == {"round": 1, "board": lost, "table": 1}
    wait_for(lambda: len(recorded(cafe.path)) == 2, what="the moved pairing played at table 1")
    moved = next(row for row in _boards(cafe.path) if row[1] == lost)
    assert moved[2:] == (1, (2, 1), True, "table")
    wait_for(lambda: cafe.organiser.organiser.tournament.over, what="the tournament's end")


@pytest.mark.browser
def test_the_referee_panel_in_chromium_records_by_hand_and_moves_in_french(
        tmp_path: Path, broker, tables, organisers, browser) -> None:  # noqa: F811
    cafe = Cafe(tmp_path, broker, tables, organisers, players=6, online=3)
    try:
        moved, by_hand = cafe.board_at(2), cafe.board_at(3)
        tables.start(4, cafe.address.url)                        # a table that comes online to help
        wait_for(lambda: 4 in cafe.organiser.state().get("free_tables", []), what="table 4 online and free")
        context = browser.new_context(locale="fr-FR")
        page = context.new_page()
        page.goto(cafe.url)
        page.wait_for_selector("#referee-pairings li[data-board]", state="attached")
        page.click("#referee summary")
        assert page.locator("#referee summary").inner_text() == "Arbitre"
        rows = page.locator("#referee-pairings li[data-board]")
        assert rows.count() == 2
        row = page.locator(f"#referee-pairings li[data-board='{by_hand}']")
        assert row.get_attribute("data-state") == "offline" and "hors ligne" in row.inner_text()
        row.locator("input[data-seat='0']").fill("1")
        row.locator("input[data-seat='1']").fill("4")
        row.locator("button[type=submit]").first.click()          # no token yet
        page.wait_for_function("document.getElementById('referee-result').textContent.includes('jeton')")
        assert "refused" in page.locator("#referee-result").get_attribute("class")
        assert len(recorded(cafe.path)) == 1

        page.fill("#token", TOKEN)
        row.locator("button[type=submit]").first.click()
        page.wait_for_function("document.getElementById('referee-result').textContent.includes('à la main')")
        wait_for(lambda: len(recorded(cafe.path)) == 2, what="the result recorded by hand")
        page.wait_for_selector(f"#pairings li[data-board='{by_hand}'] >> text=enregistré à la main")

        other = page.locator(f"#referee-pairings li[data-board='{moved}']")
        assert other.locator("select option").all_inner_texts() == ["Table 1", "Table 4"]   # online and free
        other.locator("select").select_option("4")
        other.locator("form[data-form=move] button").click()
        page.wait_for_function("document.getElementById('referee-result').textContent.includes('table 4')")
        wait_for(lambda: cafe.organiser.organiser.tournament.over, what="the moved pairing played at table 4")
        page.wait_for_function("document.querySelectorAll('#referee-pairings li[data-board]').length === 0")
        hand = next(row for row in _boards(cafe.path) if row[1] == by_hand)
        there = next(row for row in _boards(cafe.path) if row[1] == moved)
        assert hand[4:] == (True, "hand") and there[2:4] == (4, (2, 4))
        with TournamentStore(cafe.path) as store:
            assert store.board(1, by_hand).result.winners == (1,)
        context.close()
    finally:
        cafe.close()
