"""``bitbox say``, ``bitbox demo --voice`` and the configuration's ``[voice]`` table."""

from __future__ import annotations

import json

import numpy as np
import pytest

from controller.cli import main
from controller.service.config import ConfigError, load_config
from controller.voice.output import read_wav
from controller.voice.settings import DEVICE_ENV, VoiceSettings, from_config

from .conftest import rendered


def test_say_writes_the_sentence_as_espeak_ng_speaks_it(espeak, tmp_path, capsys):
    path = tmp_path / "call.wav"
    assert main(["say", "--wav", str(path), "--volume", "50", "Ten seconds left"]) == 0
    samples, rate = read_wav(path)
    assert rate == 22050 and np.array_equal(samples, rendered("Ten seconds left", "en", tmp_path, 50))
    assert f"Said in English into {path}." in capsys.readouterr().out


def test_say_speaks_french_with_lang_fr(espeak, tmp_path, capsys):
    english, french = tmp_path / "en.wav", tmp_path / "fr.wav"
    assert main(["say", "--wav", str(english), "Dix"]) == 0
    assert main(["say", "--lang", "fr", "--wav", str(french), "Dix"]) == 0
    assert "Dit en Français" in capsys.readouterr().out
    a, b = read_wav(english)[0], read_wav(french)[0]
    assert np.array_equal(b, rendered("Dix", "fr", tmp_path, 80)) and not np.array_equal(a[:len(b)], b[:len(a)])


def test_say_plays_through_an_alsa_output(espeak, tmp_path, capsys):
    if not __import__("shutil").which("aplay"):
        pytest.skip("aplay is not installed: sudo apt install alsa-utils")
    assert main(["say", "--device", "null", "Pixoid is caught"]) == 0
    assert "on the output null" in capsys.readouterr().out


def test_say_without_espeak_ng_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert main(["say", "--lang", "fr", "--wav", str(tmp_path / "x.wav"), "Bonjour"]) == 2
    err = capsys.readouterr().err
    assert "espeak-ng n'est pas installé" in err and "sudo apt install espeak-ng" in err
    assert not (tmp_path / "x.wav").exists()


@pytest.mark.parametrize("args, words", [
    (["--volume", "150", "hi"], "--volume 150 is outside 0 to 100"),
    (["--speed", "20", "hi"], "--speed 20 is outside 80 to 450"),
    (["  "], "there is nothing to say"),
])
def test_say_refuses_what_it_cannot_do_saying_what_to_give(args, words, capsys):
    assert main(["say", *args]) == 2
    assert words in capsys.readouterr().err


def test_demo_with_voice_speaks_the_bots_game(espeak, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "calls"
    monkeypatch.setenv(DEVICE_ENV, f"wav:{folder}")
    assert main(["demo", "memodixe", "--voice", "--speed", "0", "--no-web", "--new", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "The voice speaks English" in out
    said = [json.loads(line) for line in (folder / "manifest.jsonl").read_text().splitlines()]
    assert said and said[-1]["kind"] == "game-over" and not any(e["cut"] for e in said)
    assert all(read_wav(folder / e["file"])[0].size == e["samples"] > 0 for e in said)


def write(tmp_path, text: str):
    path = tmp_path / "bitbox.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_voice_table_in_the_configuration_turns_the_voice_on(tmp_path):
    config = load_config(write(tmp_path, '[voice]\nlang = "fr"\nvolume = 55\ndevice = "hw:1"\n'))
    settings = from_config(config.voice)
    assert settings == VoiceSettings(lang="fr", volume=55, device="hw:1")
    assert from_config(load_config(write(tmp_path, "[voice]\nenabled = false\n")).voice) is None
    assert from_config(load_config(write(tmp_path, "")).voice) is None


@pytest.mark.parametrize("text, words", [
    ("[voice]\nloud = true\n", "[voice]: unknown key(s) loud; the known keys are enabled, lang"),
    ("[voice]\nvolume = 120\n", "[voice] volume: expected a volume from 0 to 100, got 120"),
    ("[voice]\nlang = \"de\"\n", "[voice] lang: the voice speaks en, fr, not 'de'"),
    ("[voice]\nmute = \"yes\"\n", "[voice] mute: expected true or false"),
    ("[voice]\ndevice = \"\"\n", "[voice] device: expected an output's name"),
    ("[voice]\nspeed = 9000\n", "[voice] speed: expected words per minute from 80 to 450"),
    ("voice = 3\n", "[voice] must be a table"),
])
def test_a_wrong_voice_setting_names_the_key_and_what_to_write(tmp_path, text, words):
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert words in str(caught.value) and "bitbox.toml" in str(caught.value)
