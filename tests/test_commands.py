"""Every ``bitbox`` command and subcommand answers ``--help`` and says what it is for."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from controller.cli import build_parser, main


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], argparse.ArgumentParser, str]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                found.append((path + (name,), sub, helps.get(name) or ""))
                found.extend(_walk(sub, path + (name,)))
    return found


COMMANDS = _walk(build_parser())


def test_the_expected_commands_are_there() -> None:
    names = {" ".join(path) for path, _, _ in COMMANDS}
    for expected in ("demo", "play", "serve", "replay", "dials watch", "firmware flash",
                     "firmware list", "calibrate dials", "calibrate camera", "calibrate mat",
                     "calibrate faces", "mat", "camera snapshot", "vision evaluate"):
        assert expected in names, f"bitbox {expected} is missing (have: {sorted(names)})"


@pytest.mark.parametrize("path,parser,summary", COMMANDS, ids=[" ".join(c[0]) for c in COMMANDS])
def test_every_command_has_help(path: tuple[str, ...], parser: argparse.ArgumentParser, summary: str,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert summary.strip(), f"bitbox {' '.join(path)} has no one-line help in its parent's listing"
    with pytest.raises(SystemExit) as exit_info:
        main([*path, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: bitbox " + " ".join(path))
    assert "%%" not in out


def test_python_dash_m_controller_is_the_same_command() -> None:
    result = subprocess.run([sys.executable, "-m", "controller", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "usage: bitbox" in result.stdout and "demo" in result.stdout
