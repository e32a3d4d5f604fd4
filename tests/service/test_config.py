"""The TOML configuration: good files load, bad ones name the file and the key."""

from __future__ import annotations

import subprocess
import sys

import pytest

from controller.service.config import ConfigError, load_config

GOOD = """
[game]
name = "pixoid"
seed = 9
options = { players = 3, short_game = true }

[controllers]
backend = "sim"
pieces = ["a", "b", "c", "d"]

[[players]]
name = "Alice"
[[players]]
name = "Bob"
bot = true
[[players]]
name = "Chloé"

[web]
host = "0.0.0.0"
port = 8123

[store]
db = "games.db"
"""


def test_a_good_file_loads(tmp_path):
    path = tmp_path / "bitbox.toml"
    path.write_text(GOOD, encoding="utf-8")
    config = load_config(path)
    assert config.seed == 9 and config.options == {"players": 3, "short_game": True}
    assert [p.name for p in config.players] == ["Alice", "Bob", "Chloé"] and config.players[1].bot
    assert config.pieces == ["a", "b", "c", "d"] and config.port == 8123 and config.host == "0.0.0.0"
    assert config.db == tmp_path / "games.db"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[game\nname = 1", "bitbox.toml: not valid TOML"),
        ("[game]\nseed = 'seven'", "bitbox.toml: [game] seed: expected a whole number, got 'seven'"),
        ("[controllers]\npieces = ['a', 2]", "bitbox.toml: [controllers] pieces[1]: expected a controller id"),
        ("[controllers]\npieces = ['a', 'a']", "a controller is listed twice"),
        ("[web]\nport = 70000", "bitbox.toml: [web] port: 70000 is not a port number"),
        ("[web]\nprot = 80", "bitbox.toml: [web]: unknown key(s) prot"),
        ("[[players]]\nname = 'A'\nbott = true", "bitbox.toml: [[players]] #1: unknown key(s) bott"),
        ("[[players]]\nbot = 'yes'", "bitbox.toml: [[players]] #1 bot: expected true or false"),
        ("colour = 'red'", "bitbox.toml: top level: unknown key(s) colour"),
    ],
)
def test_bad_files_name_the_file_and_key(tmp_path, text, message):
    path = tmp_path / "bitbox.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert message in str(info.value)


def test_play_reports_a_bad_config_cleanly(tmp_path):
    path = tmp_path / "bitbox.toml"
    path.write_text("[game]\nseed = true\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "controller", "play", "pixoid", "--config", str(path), "--no-web"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "bitbox.toml: [game] seed: expected a whole number, got True" in result.stderr
    assert "Traceback" not in result.stderr


def test_play_refuses_unknown_controller_ids(tmp_path):
    path = tmp_path / "bitbox.toml"
    path.write_text('[controllers]\nbackend = "sim"\npieces = ["a", "b", "c", "d"]\n'
                    'options = { controllers = ["a", "b", "c", "e"] }\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "controller", "play", "pixoid", "--config", str(path), "--no-web",
                             "--db", str(tmp_path / "g.db")], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2, result.stderr
    assert "unknown controller id(s) d" in result.stderr and "known controllers: a, b, c, e" in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a=" + "[" * 5000, "bitbox.toml: nested too deeply"),
        ("[game]\noptions = " + "{ a = " * 40 + "1" + " }" * 40, "bitbox.toml: [game] options: nested too deeply"),
        ("[game]\nseed = " + "9" * 30, "bitbox.toml: [game] seed: 999999999999999999999999999999 cannot be a seed"),
        ("[game]\nseed = 1" + "0" * 5000, "bitbox.toml: not valid TOML"),
        ("[bots]\ndelay = nan", "bitbox.toml: [bots] delay: expected seconds (a finite number), got nan"),
        ("[bots]\nturn_pause = inf", "bitbox.toml: [bots] turn_pause: expected seconds (a finite number), got inf"),
        ("[table]\nfps = nan", "bitbox.toml: [table] fps: expected frames per second (a finite number), got nan"),
        ("[referee]\nmin_confidence = nan", "bitbox.toml: [referee] min_confidence: expected a finite number, got nan"),
        ("[game]\noptions = { speed = -inf }", "bitbox.toml: [game] options speed: expected a finite number, got -inf"),
    ],
)
def test_hostile_files_are_clear_errors(tmp_path, text, message):
    path = tmp_path / "bitbox.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert message in str(info.value)


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "bitbox.toml"
    path.write_text("# padding\n" * 200_000, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bitbox.toml is too large \(1.9 MiB\); a configuration is at most 1 MiB"):
        load_config(path)
