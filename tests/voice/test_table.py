"""The voice at a live table: a countdown counted aloud and cut short by its end, and a table that
plays on, saying once what is missing, where espeak-ng or the audio output is absent."""

from __future__ import annotations

import io
import logging
import shutil
from pathlib import Path

import pytest

from controller import i18n
from controller.service.choices import ChoiceSession
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.session import Session
from controller.service.store import GameStore
from controller.voice import Voice, VoiceSettings, attach
from controller.voice.calls import COUNTDOWN_SPOKEN
from controller.voice.espeak import Espeak
from controller.voice.output import AlsaOutput, WavOutput

from .conftest import ManualClock, wait_for

NAMES = ["Ada", "Brice", "Chloé", "Dinesh"]


def test_the_countdowns_last_seconds_are_counted_and_its_end_cuts_a_long_call(espeak, tmp_path):
    wall = ManualClock(0.0)
    config = ServiceConfig(game="memodixe", options={"mode": "oni-contre-tous", "players": 4, "level": "easy"},
                           seed=2, players=[PlayerConfig(n, bot=True) for n in NAMES], bot_delay=0.0,
                           db=tmp_path / "g.db")
    store = GameStore(config.db_path())
    hub = Hub()
    session = ChoiceSession(config, store, hub, wall=wall)
    session.start_new()
    session.bots_held = True  # the table only waits: the clock is what speaks
    session.publish()
    output = WavOutput(tmp_path / "calls", speed=4.0, keep=True)
    voice = Voice(VoiceSettings(lang="fr"), output=output).listen(hub)
    try:
        for left in range(COUNTDOWN_SPOKEN + 3, 0, -1):
            wall.now = session.ends_at - left + 0.5
            session.step(0)
            assert voice.wait_idle(30)
        long = voice.say("Une longue annonce que la fin du compte à rebours doit couper net, " * 4)
        wait_for(lambda: len(output.entries) > COUNTDOWN_SPOKEN and output.entries[-1]["start"] is not None,
                 what="the long call to start")
        wall.now = session.ends_at + 0.1
        session.step(0)
        assert session.game.is_over()
        assert voice.wait_idle(30)
    finally:
        voice.close()
        store.close()
    said = sorted(output.entries, key=lambda e: e["index"])
    assert [e["text"] for e in said[:COUNTDOWN_SPOKEN]] == [str(n) for n in range(COUNTDOWN_SPOKEN, 0, -1)]
    cut, end, winner = said[COUNTDOWN_SPOKEN:]
    assert cut["text"] == long.text and cut["cut"]
    assert end["kind"] == "time-up" and end["text"] == i18n.say("the countdown rings", "fr")
    assert winner["kind"] == "game-over" and "Oni" in winner["text"]
    assert cut["end"] <= end["start"] <= end["end"] <= winner["start"]
    assert voice.queue.tally.cut == 1 and voice.queue.tally.dropped == 0


def play_short_pixoid(tmp: Path, wanted: dict, out: io.StringIO) -> tuple[Session, Voice | None]:
    config = ServiceConfig(game="pixoid", options={"players": 4, "short_game": True}, seed=3,
                           players=[PlayerConfig(n, bot=True) for n in NAMES], bot_delay=0.0, turn_pause=0.0,
                           db=tmp / "g.db", voice=wanted)
    store = GameStore(config.db_path())
    hub = Hub()
    session = Session(config, None, store, hub)
    session.start_new()
    session.publish()
    voice = attach(session, hub, config.voice, out)
    try:
        session.run(until_over=True)
    finally:
        if voice is not None:
            voice.close(finish=30)
        store.close()
    return session, voice


def test_without_espeak_ng_the_table_plays_on_and_says_once_what_to_install(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    out = io.StringIO()
    with caplog.at_level(logging.WARNING, logger="controller.voice"):
        session, voice = play_short_pixoid(tmp_path, {"device": f"wav:{tmp_path / 'calls'}"}, out)
    assert session.game.is_over()
    assert voice is not None and session.voice is voice
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and "espeak-ng is not installed" in lines[0] and "sudo apt install espeak-ng" in lines[0]
    warnings = [r.getMessage() for r in caplog.records if "espeak-ng" in r.getMessage()]
    assert len(warnings) == 1
    tally = voice.queue.tally
    assert tally.unheard >= 3 and tally.spoken == 0
    assert not (tmp_path / "calls" / "manifest.jsonl").exists()
    problem = voice.status()["problem"]
    assert "sudo apt install espeak-ng" in i18n.said(problem, "fr") and "n'est pas installé" in i18n.said(problem, "fr")


def test_a_table_without_a_voice_asked_for_has_none(tmp_path):
    out = io.StringIO()
    session, voice = play_short_pixoid(tmp_path, {}, out)
    assert voice is None and not hasattr(session, "voice") and out.getvalue() == ""
    _session, voice = play_short_pixoid(tmp_path / "off", {"enabled": False}, out)
    assert voice is None


def test_a_missing_espeak_program_is_named_with_its_install_command(tmp_path):
    voice = Voice(VoiceSettings(lang="en"), output=WavOutput(tmp_path / "calls"),
                  espeak=Espeak(program=str(tmp_path / "no-such" / "espeak-ng")))
    try:
        voice.say("hello")
        assert voice.wait_idle(10)
        assert voice.queue.tally.unheard == 1
        text = i18n.said(voice.status()["problem"], "en")
        assert "espeak-ng is not installed" in text and "no-such" in text and "`sudo apt install espeak-ng`" in text
        assert voice.describe().startswith("The voice is silent: espeak-ng is not installed")
    finally:
        voice.close()


def test_a_missing_aplay_is_named_with_its_package():
    problem = AlsaOutput(program="/no/such/aplay").problem()
    assert problem is not None and "sudo apt install alsa-utils" in i18n.said(problem, "en")


@pytest.fixture
def aplay() -> str:
    path = shutil.which("aplay")
    if path is None:
        pytest.skip("aplay is not installed: sudo apt install alsa-utils")
    return path


def test_calls_go_through_aplay_to_an_alsa_output(espeak, aplay):
    voice = Voice(VoiceSettings(lang="fr"), output=AlsaOutput("null"))
    try:
        assert voice.status()["problem"] is None
        voice.say("Le temple de Ada est renversé !")
        assert voice.wait_idle(30)
        assert voice.queue.tally.spoken == 1 and voice.speaker.delays
    finally:
        voice.close()


def test_an_output_that_cannot_play_is_reported_once_and_the_calls_go_on(espeak, aplay, caplog):
    voice = Voice(VoiceSettings(lang="en"), output=AlsaOutput("bitbox_no_such_output"))
    try:
        with caplog.at_level(logging.WARNING, logger="controller.voice"):
            for text in ("one", "two", "three"):
                voice.say(text)
                assert voice.wait_idle(30)
        assert voice.queue.tally.unheard == 3 and voice.queue.tally.spoken == 0
        problem = i18n.said(voice.status()["problem"], "en")
        assert "bitbox_no_such_output cannot play" in problem and "aplay -L" in problem
        assert len([r for r in caplog.records if "cannot play" in r.getMessage()]) == 1
    finally:
        voice.close()
