"""The voice heard: a scripted game through the real loop, the real hub, espeak-ng and a simulated
speaker that keeps what it played, measured with numpy.

Every call the game makes is played, in order, never two at once (each call's stretch of the
speaker's timeline holds exactly its own samples, and silence lies between them), in the language
chosen (each call's samples are espeak-ng's own rendering of its words in that language, so the
French and English recordings differ), and nothing at all is played for a muted table."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from controller.engines import new_game
from controller.games import game as game_spec
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.session import Session
from controller.service.store import GameStore
from controller.voice import Voice, VoiceSettings
from controller.voice.calls import spoken
from controller.voice.output import WavOutput, read_wav

from .conftest import rendered, wait_for

NAMES = ["Ada", "Brice", "Chloé", "Dinesh"]
VOLUME = 70


def play_pixoid(tmp: Path, lang: str, mute: bool = False, speed: float = 25.0) -> tuple[Voice, WavOutput, list]:
    """A short game of Pixoid played by bots through the console's loop, its voice on a simulated
    speaker ``speed`` times faster than real time; the loop waits for the voice after each step, as
    a table waits for the referee, so no call goes stale. Returns the voice, the speaker and the
    game's own events of the kinds it declares (in the order the engine made them)."""
    config = ServiceConfig(game="pixoid", options={"players": 4, "short_game": True}, seed=3, bot_salt=3,
                           players=[PlayerConfig(n, bot=True) for n in NAMES], bot_delay=0.0, turn_pause=0.0,
                           db=tmp / f"{lang}-{mute}.db")
    store = GameStore(config.db_path())
    hub = Hub()
    session = Session(config, None, store, hub)
    session.start_new()
    session.publish()
    output = WavOutput(tmp / f"calls-{lang}-{mute}", speed=speed, keep=True)
    voice = Voice(VoiceSettings(lang=lang, volume=VOLUME, mute=mute), output=output, capacity=50).listen(hub)
    try:
        for _ in range(5000):
            if session.game.is_over():
                break
            session.step(0)
            assert voice.wait_idle(60), "the voice did not keep up"
        assert session.game.is_over()
        voice.close(finish=60)
    finally:
        store.close()
    replay = new_game("pixoid", seed=3, options=session.game.options.to_dict())
    replay.name_seats(NAMES)
    declared = game_spec("pixoid").voice
    events = []
    for player, action in session.game.history:
        events += [e for e in replay.apply_unchecked(player, action) if e.kind in declared]
    return voice, output, events


@pytest.fixture(scope="module")
def tables(tmp_path_factory, request) -> dict[str, tuple[Voice, WavOutput, list]]:
    """The same scripted game (the same seed and bot salt, so the same moves) spoken in English, in
    French, and muted."""
    if not __import__("shutil").which("espeak-ng"):
        pytest.skip("espeak-ng is not installed: sudo apt install espeak-ng (the CI script installs it)")
    tmp = tmp_path_factory.mktemp("voice")
    return {"en": play_pixoid(tmp, "en"), "fr": play_pixoid(tmp, "fr"), "muted": play_pixoid(tmp, "en", mute=True)}


def entries(output: WavOutput) -> list[dict[str, Any]]:
    return sorted(output.entries, key=lambda e: e["index"])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_call_of_the_game_is_spoken_in_order(tables, lang):
    voice, output, events = tables[lang]
    declared = game_spec("pixoid").voice
    expected = [spoken(declared[e.kind], e.message, lang, NAMES) for e in events]
    assert {"revealed", "round-over", "game-over"} <= {e.kind for e in events}
    assert [e["text"] for e in entries(output)] == expected
    assert all(not e["cut"] and e["lang"] == lang for e in entries(output))
    assert voice.queue.tally.spoken == len(expected) and voice.queue.tally.dropped == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_two_calls_ever_sound_together(tables, lang):
    _voice, output, _events = tables[lang]
    played = output.played()
    rate = output.rate
    spans = [(round(e["start"] * rate), round(e["end"] * rate)) for e in entries(output)]
    assert all(end <= spans[i + 1][0] for i, (_start, end) in enumerate(spans[:-1])), spans
    silent = np.ones(len(played), dtype=bool)
    for entry, (start, end) in zip(entries(output), spans):
        own, _rate = read_wav(output.folder / entry["file"])
        assert np.array_equal(played[start:end], own), f"call {entry['index']} is mixed with another"
        silent[start:end] = False
    assert not np.any(played[silent]), "something was played outside the calls"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_call_is_espeak_ngs_rendering_of_its_words_in_the_language_chosen(tables, lang, tmp_path):
    _voice, output, _events = tables[lang]
    for entry in entries(output):
        own, rate = read_wav(output.folder / entry["file"])
        assert rate == 22050
        assert np.array_equal(own, rendered(entry["text"], lang, tmp_path, VOLUME)), entry["text"]


def test_the_french_and_english_games_sound_different(tables):
    english, french = tables["en"][1], tables["fr"][1]
    assert len(entries(english)) == len(entries(french)) > 0
    for en, fr in zip(entries(english), entries(french)):
        a, _ = read_wav(english.folder / en["file"])
        b, _ = read_wav(french.folder / fr["file"])
        assert en["text"] != fr["text"]
        assert len(a) != len(b) or not np.array_equal(a, b)


def test_nothing_is_spoken_for_a_muted_table(tables):
    voice, output, events = tables["muted"]
    assert events and output.entries == []
    assert not np.any(output.played())
    assert voice.queue.tally.muted == len(events) and voice.queue.tally.spoken == 0
    assert not (output.folder / "manifest.jsonl").exists()


def test_an_urgent_call_cuts_a_long_one_and_is_spoken_after_it(espeak, tmp_path):
    output = WavOutput(tmp_path / "calls", speed=4.0, keep=True)
    voice = Voice(VoiceSettings(lang="en"), output=output)
    try:
        voice.say("The programs are revealed, one after the other, slowly. " * 6)
        wait_for(lambda: output.entries and output.entries[0]["start"] is not None, what="the long call to start")
        voice.say("Time is up!", kind="time-up", priority=3)
        assert voice.wait_idle(30)
    finally:
        voice.close()
    long, urgent = entries(output)
    assert long["cut"] and not urgent["cut"] and urgent["text"] == "Time is up!"
    assert long["samples"] < len(rendered(long["text"], "en", tmp_path))
    assert urgent["samples"] == len(rendered("Time is up!", "en", tmp_path))
    assert long["end"] <= urgent["start"]
    assert voice.queue.tally.cut == 1 and voice.queue.tally.spoken == 1


def test_a_call_that_waited_too_long_is_dropped_not_spoken_late(espeak, tmp_path, clock):
    output = WavOutput(tmp_path / "calls", speed=4.0, keep=True)
    voice = Voice(VoiceSettings(lang="en"), output=output, clock=clock)
    try:
        first = voice.say("A long announcement that takes a while to say, " * 3)
        wait_for(lambda: output.entries and output.entries[0]["start"] is not None, what="the first call to start")
        voice.say("seven", kind="countdown", priority=2, max_age=1.0)
        clock.advance(1.5)
        voice.say("the winner is Ada", priority=2)
        assert voice.wait_idle(30)
    finally:
        voice.close()
    assert [e["text"] for e in entries(output)] == [first.text, "the winner is Ada"]
    assert voice.queue.tally.dropped == 1 and voice.queue.tally.spoken == 2


def test_the_volume_scales_what_is_played(espeak, tmp_path):
    output = WavOutput(tmp_path / "calls", speed=math.inf, keep=True)
    voice = Voice(VoiceSettings(lang="fr", volume=100), output=output)
    try:
        voice.say("Dix")
        assert voice.wait_idle(30)
        voice.change(volume=25)
        voice.say("Dix")
        assert voice.wait_idle(30)
    finally:
        voice.close()
    loud, soft = (read_wav(output.folder / e["file"])[0].astype(np.int32) for e in entries(output))
    assert np.array_equal(soft, loud * 25 // 100) and np.abs(loud).max() > 1000


def test_muting_stops_the_call_being_said_and_unmuting_speaks_again(espeak, tmp_path):
    output = WavOutput(tmp_path / "calls", speed=2.0, keep=True)
    voice = Voice(VoiceSettings(lang="en"), output=output)
    try:
        voice.say("A long sentence that the referee mutes before its end, " * 4)
        wait_for(lambda: output.entries and output.entries[0]["start"] is not None, what="the call to start")
        voice.change(mute=True)
        voice.say("not said")
        assert voice.wait_idle(30)
        voice.change(mute=False)
        voice.say("said again")
        assert voice.wait_idle(30)
    finally:
        voice.close()
    assert [(e["cut"], e["text"][:10]) for e in entries(output)] == [(True, "A long sen"), (False, "said again")]
    assert voice.queue.tally.muted == 1
