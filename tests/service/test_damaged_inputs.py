"""Damaged and hostile inputs on the command line: a damaged or empty event log, a deeply nested or
oversized save or configuration, seeds SQLite cannot hold, NaN and infinite numbers. Each is a clear
error (what was wrong, what to do next), never a traceback, and the file is left as it was."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys

import pytest

from controller.cli import main
from controller.service.store import GameStore

from .test_store import _log_with_games, _overwrite


def _bitbox(capsys, *args):
    """Run ``bitbox ARGS`` in this process; its exit code and what it wrote to stderr."""
    code = main([str(arg) for arg in args])
    return code, capsys.readouterr().err


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def damaged_log(tmp_path):
    """An event log of three games whose fourth page was overwritten with random bytes."""
    path = _log_with_games(tmp_path / "b.db")
    _overwrite(path, 12288, random.Random(11).randbytes(4096))
    return path


@pytest.mark.parametrize("command", [
    ["games"], ["export", "--game", "1"],
    ["demo", "--speed", "0", "--turns", "1", "--no-web"], ["demo", "puxes", "--speed", "0", "--no-web"],
    ["play", "pixoid", "--backend", "sim", "--no-web"],
])
def test_every_command_reports_a_damaged_log_and_leaves_it(capsys, damaged_log, command):
    before = _digest(damaged_log)
    code, err = _bitbox(capsys, *command, "--db", damaged_log)
    assert code == 2, err
    assert f"{damaged_log} is damaged" in err and "left untouched" in err
    assert "move it aside" in err and "--new" in err
    assert "Traceback" not in err
    assert _digest(damaged_log) == before


def test_a_zero_length_log_is_refused_and_started_afresh_only_with_new(capsys, tmp_path):
    path = tmp_path / "copied.db"
    path.write_bytes(b"")
    code, err = _bitbox(capsys, "games", "--db", path)
    assert code == 2 and "is empty (0 bytes)" in err and "--new" in err
    demo = [sys.executable, "-m", "controller", "demo", "--speed", "0", "--turns", "1", "--no-web", "--short",
            "--db", str(path)]
    run = subprocess.run(demo, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "is empty (0 bytes)" in run.stderr and "Traceback" not in run.stderr
    assert path.read_bytes() == b""
    run = subprocess.run([*demo, "--new"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    with GameStore(path) as store:
        assert [g.status for g in store.games()] == ["playing"]


def test_a_deeply_nested_save_is_a_clear_error(capsys, tmp_path):
    save = tmp_path / "deep.json"
    save.write_text('{"format":"bitbox-game","game":"pixoid","actions":' + "[" * 100_000)
    code, err = _bitbox(capsys, "replay", "--final", save)
    assert code == 2 and "nested too deeply" in err and "Traceback" not in err


def test_a_save_with_a_seed_sqlite_cannot_hold_is_refused(capsys, tmp_path):
    save = tmp_path / "big.json"
    save.write_text('{"format":"bitbox-game","version":1,"game":"pixoid","options":{},"seed":1%s,"actions":[]}'
                    % ("0" * 400))
    code, err = _bitbox(capsys, "replay", "--final", save)
    assert code == 2 and "seed" in err and "64 bits" in err


def test_an_oversized_save_is_refused_before_it_is_read(capsys, tmp_path):
    save = tmp_path / "huge.json"
    with open(save, "wb") as handle:
        handle.truncate(64 * 1024 * 1024)
    code, err = _bitbox(capsys, "replay", save)
    assert code == 2 and "too large" in err and "MiB" in err


def test_a_deeply_nested_config_is_a_clear_error(capsys, tmp_path):
    config = tmp_path / "deep.toml"
    config.write_text("a=" + "[" * 5000)
    code, err = _bitbox(capsys, "play", "pixoid", "--config", config, "--no-web")
    assert code == 2 and "deep.toml" in err and "nested too deeply" in err


@pytest.mark.parametrize("seed", [str(10**400), str(2**63), str(-2**63 - 1)])
def test_a_seed_outside_64_bits_is_refused_on_the_command_line(capsys, tmp_path, seed):
    with pytest.raises(SystemExit) as info:
        main(["demo", "--speed", "0", "--turns", "1", "--no-web", f"--seed={seed}", "--db", str(tmp_path / "s.db")])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "argument --seed" in err and "does not fit in 64 bits" in err
    assert not (tmp_path / "s.db").exists()


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf"])
def test_demo_speed_must_be_a_finite_number(capsys, tmp_path, value):
    with pytest.raises(SystemExit) as info:
        main(["demo", f"--speed={value}", "--no-web", "--db", str(tmp_path / "d.db"), "--unknown-guard"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert "--speed" in err and "not a finite number" in err and "give" in err
    assert not (tmp_path / "d.db").exists()


def _float_options():
    """Every ``type=float`` option of every command, as (command words, option)."""
    import argparse

    from controller.cli import build_parser

    found = []

    def walk(parser, words):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, [*words, name])
            elif action.option_strings and getattr(action.type, "finite_of", None) is float:
                found.append((tuple(words), action.option_strings[-1]))
            elif action.option_strings and action.type is float:
                found.append((tuple(words), action.option_strings[-1]))

    walk(build_parser(), [])
    return found


def test_every_float_option_refuses_nan_and_infinity(capsys):
    options = _float_options()
    assert len(options) >= 10, options
    for words, option in options:
        for value in ("nan", "inf"):
            with pytest.raises(SystemExit):
                main([*words, option, value, "--help-not-an-option"])
            err = capsys.readouterr().err
            assert f"argument {option}" in err and "not a finite number" in err, (words, option, err)


def test_an_unexpected_error_is_a_message_not_a_traceback(capsys, monkeypatch):
    import controller.service.cli as service_cli

    def boom(args):
        raise RuntimeError("something nobody expected")

    monkeypatch.setattr(service_cli, "cmd_games", boom)
    code, err = _bitbox(capsys, "games")
    assert code == 1
    assert "something nobody expected" in err and "Traceback" not in err and "-v" in err


@pytest.mark.parametrize(("value", "message"), [
    ("[" * 100_000, "nested too deeply"), ("NaN", "give a finite number"), ("1e999", "give a finite number"),
])
def test_an_option_value_no_game_means_is_refused(capsys, value, message):
    code, err = _bitbox(capsys, "play", "pixoid", "--option", f"speed={value}", "--no-web")
    assert code == 2 and "--option speed" in err and message in err and "Traceback" not in err
