"""The voice on the dashboard, through the real web server: its status for everyone, mute, volume and
language for the referee (with the token), and the panel in real headless Chromium."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import i18n
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.session import Session
from controller.service.store import GameStore
from controller.service.web import WebServer, create_app
from controller.voice import attach
from controller.voice.voice import TEST_SENTENCE
from tests.service.conftest import browser, http_call  # noqa: F401 - the headless Chromium fixture

from .conftest import wait_for

TOKEN = "voice-test-token-1234"


class Table:
    """A Pixoid table (bots waiting) with its dashboard served, and a voice when ``voice`` is given."""

    def __init__(self, tmp: Path, voice: dict[str, Any] | None) -> None:
        config = ServiceConfig(game="pixoid", options={"players": 4}, seed=3, db=tmp / "g.db",
                               players=[PlayerConfig(n, bot=True) for n in ("Ada", "Brice", "Chloé", "Dinesh")],
                               voice=voice or {})
        self.store = GameStore(config.db_path())
        self.hub = Hub()
        self.session = Session(config, None, self.store, self.hub)
        self.session.start_new()
        self.session.publish()
        self.voice = attach(self.session, self.hub, config.voice, io.StringIO())
        self.server = WebServer(create_app(self.session, self.hub, TOKEN), "127.0.0.1", 0)
        self.server.start()
        self.url = self.server.url.rstrip("/")

    def http(self, method: str, path: str, body: Any = None, token: str | None = TOKEN) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return http_call(self.url, method, path, None if body is None else json.dumps(body), headers)

    def close(self) -> None:
        self.server.stop()
        if self.voice is not None:
            self.voice.close()
        self.store.close()


@pytest.fixture
def table(tmp_path, espeak) -> Iterator[Table]:
    made = Table(tmp_path, {"lang": "fr", "volume": 60, "device": f"wav:{tmp_path / 'calls'}"})
    yield made
    made.close()


def test_everyone_reads_the_voices_status(table):
    status, body = table.http("GET", "/api/voice", token=None)
    assert status == 200
    assert body["enabled"] and body["lang"] == "fr" and body["volume"] == 60 and body["mute"] is False
    assert body["problem"] is None and body["tally"]["spoken"] == 0 and body["languages"]["fr"] == "Français"


def test_changing_the_voice_needs_the_referees_token(table):
    assert table.http("POST", "/api/voice", {"mute": True}, token=None)[0] == 401
    assert table.http("POST", "/api/voice", {"mute": True}, token="wrong-token")[0] == 403
    assert table.voice.settings.mute is False


def test_the_referee_mutes_sets_the_volume_and_the_language(table):
    status, body = table.http("POST", "/api/voice", {"mute": True, "volume": 35, "lang": "en"})
    assert status == 200 and body["mute"] is True and body["volume"] == 35 and body["lang"] == "en"
    assert table.voice.speaker.mute and table.voice.speaker.volume == 35 and table.voice.announcer.lang == "en"
    assert table.http("GET", "/api/voice")[1]["mute"] is True
    assert table.http("POST", "/api/voice", {"mute": False})[1]["mute"] is False


@pytest.mark.parametrize("body, words", [
    ({"volume": 101}, "volume from 0 to 100"), ({"volume": "loud"}, "volume from 0 to 100"),
    ({"lang": "de"}, "speaks en, fr"), ({"mute": "yes"}, "true or false"), ({"shout": 1}, "unknown field"),
])
def test_a_wrong_change_is_refused_saying_what_to_send_and_changes_nothing(table, body, words):
    status, answer = table.http("POST", "/api/voice", body)
    assert status == 400 and words in answer["error"]
    assert table.voice.settings.volume == 60 and table.voice.lang == "fr" and not table.voice.settings.mute


def test_the_test_button_has_the_table_say_a_sentence_in_its_language(table, tmp_path):
    assert table.http("POST", "/api/voice", {"test": True})[0] == 200
    assert table.voice.wait_idle(30)
    manifest = [json.loads(line) for line in (tmp_path / "calls" / "manifest.jsonl").read_text().splitlines()]
    assert [(e["lang"], e["text"]) for e in manifest] == [("fr", i18n.gettext(TEST_SENTENCE, "fr"))]


def test_a_table_without_a_voice_says_so(tmp_path):
    table = Table(tmp_path, None)
    try:
        assert table.http("GET", "/api/voice") == (200, {"enabled": False})
        status, body = table.http("POST", "/api/voice", {"mute": True})
        assert status == 404 and "--voice" in body["error"]
    finally:
        table.close()


def test_the_panel_script_is_served(table):
    status, text = http_call(table.url, "GET", "/voice/panel.js")
    assert status == 200 and "fetch(\"/api/voice\"" in text


@pytest.mark.browser
def test_the_referee_mutes_the_voice_from_the_dashboard_in_french(table, browser):  # noqa: F811
    page = browser.new_page(bypass_csp=False, locale="fr-FR")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{table.url}/?token={TOKEN}")
    page.wait_for_selector("#voice-controls:not([hidden]) button[data-voice=mute]", state="attached")
    page.locator("#referee summary").click()
    mute = page.locator("#voice-controls button[data-voice=mute]")
    wait_for(lambda: mute.text_content() == "Couper la voix", what="the panel in French")
    assert page.locator("#voice-status").is_hidden()
    mute.click()
    wait_for(lambda: table.voice.settings.mute, what="the voice muted")
    page.wait_for_selector("#voice-status:not([hidden])")
    assert page.locator("#voice-status").text_content() == "La voix est coupée."
    assert mute.text_content() == "Rendre la parole"
    page.locator("#voice-controls select[data-voice=lang]").select_option("en")
    wait_for(lambda: table.voice.lang == "en", what="the voice speaking English")
    assert not errors, errors
