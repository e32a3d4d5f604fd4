"""A tour of every ``bitbox`` command as a newcomer takes it: ``--help``, no arguments at all, the
usual mistakes, and the output piped into a reader that has gone (``bitbox ... | head -1``).

Whatever happens: no traceback, exit status 0 or 2, and every line of an error names what to type
next (a command in backquotes, or an option to give). The commands run in this process through
:func:`controller.cli.main`; only those that must be interrupted or whose output must meet a closed
pipe run as processes of their own.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import build_parser, main

#: A line that says what to do next: a command in backquotes, or an option such as ``--db``.
NEXT_STEP = re.compile(r"`[^`]+`|(?<![\w-])--?[a-z][\w-]*")

#: Signs of a crash a person should never see.
CRASH = ("Traceback", "Exception ignored", "BrokenPipeError", "Error:")

BITBOX = [sys.executable, "-m", "controller"]
#: Where the processes run: the checkout, so that the test suite's own game (BITBOX_GAMES) imports.
ROOT = Path(__file__).resolve().parent.parent


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.extend(_walk(sub, path + (name,)))
    return found


COMMANDS = _walk(build_parser())

#: Commands that, given nothing, run until stopped (as their help says, with Ctrl-C): the line each
#: prints once it is running.
RUN_UNTIL_STOPPED = {
    ("demo",): "- ",
    ("dials", "watch"): "watching controllers",
    ("tournament", "demo"): "Organiser of ",
}

#: A table's configuration for ``bitbox serve``, which runs the console as a file sets it up.
SERVE_CONFIG = """
[controllers]
backend = "sim"
pieces = ["red", "blue", "green", "yellow"]
""" + "".join(f'[[players]]\nname = "{name}"\nbot = true\n' for name in ("Ada", "Brice", "Chloé", "Dinesh"))


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def error_lines(err: str) -> list[str]:
    """The lines of an error, without argparse's usage block (which lists the options itself)."""
    lines, in_usage = [], False
    for line in err.splitlines():
        if line.startswith(("usage:", "utilisation :", "utilisation:")):
            in_usage = True
            continue
        if in_usage and line.startswith(" "):
            continue
        in_usage = False
        if line.strip():
            lines.append(line)
    return lines


def check_ending(code: int, out: str, err: str, what: str) -> None:
    for sign in CRASH:
        assert sign not in out + err, f"{what}: {sign!r} shown:\n{err or out}"
    assert code in (0, 2), f"{what}: exit status {code}\n{err or out}"
    if code == 2:
        assert (err or out).strip(), f"{what}: failed without a word"
    lines = error_lines(err)
    missing = [line for line in lines if not NEXT_STEP.search(line)]
    assert not missing, f"{what}: these lines do not say what to do next:\n" + "\n".join(missing)
    if code == 2 and not lines:
        assert NEXT_STEP.search(out), f"{what}: failed without saying what to do next:\n{out}"


@pytest.fixture(autouse=True)
def _elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands that write into the working folder (firmware build, mat) write into the test's."""
    monkeypatch.chdir(tmp_path)
    for variable in ("BITBOX_LANG", "BITBOX_DIALS", "BITBOX_TOKEN"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) or "bitbox" for p in COMMANDS])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_help(path: tuple[str, ...], lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--lang", lang, *path, "--help"], capsys)
    check_ending(code, out, err, f"bitbox {' '.join(path)} --help")
    assert code == 0 and " ".join(["bitbox", *path]) in out.splitlines()[0]


def test_the_help_speaks_french_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    _code, english, _err = run(["demo", "--help"], capsys)
    _code, french, _err = run(["--lang", "fr", "demo", "--help"], capsys)
    assert "watch a whole game" not in french.lower() and "Watch a whole game" in english
    assert "partie" in french


@pytest.mark.parametrize("path", [p for p in COMMANDS if p not in RUN_UNTIL_STOPPED],
                         ids=[" ".join(p) or "bitbox" for p in COMMANDS if p not in RUN_UNTIL_STOPPED])
def test_without_arguments(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(list(path), capsys)
    check_ending(code, out, err, f"bitbox {' '.join(path)}")


def _environment(state: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BITBOX_LANG", "BITBOX_DIALS", "BITBOX_TOKEN")}
    return {**env, "BITBOX_STATE_DIR": str(state), "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"}


def until_ctrl_c(argv: list[str], started: str, tmp_path: Path) -> None:
    """Run ``bitbox argv`` until it prints a line starting with ``started``, then press Ctrl-C."""
    process = subprocess.Popen([*BITBOX, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=_environment(tmp_path / "state"), cwd=ROOT)
    try:
        seen = []
        for line in process.stdout:
            seen.append(line)
            if line.startswith(started):
                break
        assert seen and seen[-1].startswith(started), "".join(seen) + process.stderr.read()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    check_ending(process.returncode, "".join(seen) + out, err, f"bitbox {' '.join(argv)}, then Ctrl-C")
    assert process.returncode == 0


@pytest.mark.parametrize("path", sorted(RUN_UNTIL_STOPPED), ids=[" ".join(p) for p in sorted(RUN_UNTIL_STOPPED)])
def test_without_arguments_runs_until_ctrl_c(path: tuple[str, ...], tmp_path: Path) -> None:
    until_ctrl_c(list(path), RUN_UNTIL_STOPPED[path], tmp_path)


def test_serve_runs_until_ctrl_c(tmp_path: Path) -> None:
    config = tmp_path / "bitbox.toml"
    config.write_text(SERVE_CONFIG, encoding="utf-8")
    until_ctrl_c(["serve", "--config", str(config), "--port", "0"], "Event log: ", tmp_path)


#: The usual mistakes: a typo, a value out of range, a file that is not there, an option of another
#: game, a language we do not have. ``{tmp}`` is a folder of the test's own.
MISTAKES = [
    ["dmeo"],
    ["demo", "pixiod"],
    ["demo", "--speed", "-1"],
    ["demo", "--speed", "nan"],
    ["demo", "--players", "9"],
    ["demo", "--turns", "0"],
    ["demo", "--seed", "abc"],
    ["demo", "wuxing", "--short"],
    ["demo", "--no-web", "--speed", "0", "--turns"],
    ["play"],
    ["play", "pixoid", "--backend", "serial", "--no-web"],
    ["play", "pixoid", "--backend", "keyboard", "--bot", "Zoé"],
    ["play", "pixoid", "--backend", "keyboard", "--name", "A", "--name", "B", "--name", "C", "--name", "D",
     "--name", "E"],
    ["play", "puxes", "--backend", "phone"],
    ["play", "pixoid", "--config", "{tmp}/missing.toml"],
    ["play", "pixoid", "--option", "nokey"],
    ["play", "pixoid", "--backend", "keyboard", "--port", "99999"],
    ["play", "pixoid", "--speed", "0"],
    ["serve", "--config", "{tmp}/missing.toml"],
    ["replay", "{tmp}/missing.json"],
    ["replay", "{tmp}"],
    ["replay", "--db", "{tmp}/missing.db"],
    ["replay", "--game", "5"],
    ["export"],
    ["export", "--game", "3"],
    ["games", "--db", "{tmp}/missing.db"],
    ["--lang", "de", "games"],
    ["games", "--lang", "klingon"],
    ["dials", "wacth"],
    ["dials", "watch", "--port", "/dev/ttyX"],
    ["dials", "watch", "--duration", "-1"],
    ["dials", "watch", "--backend", "gpio", "--duration", "0"],
    ["firmware", "flash", "--nope"],
    ["firmware", "list", "--port", "{tmp}/no-such-port"],
    ["calibrate", "dials", "--controller", "1", "--samples", "1"],
    ["calibrate", "camera", "--images", "{tmp}/nope"],
    ["calibrate", "dice"],
    ["mat", "--game", "nosuch", "--out", "{tmp}"],
    ["camera", "snapshot", "--source", "{tmp}/nope.png", "--out", "{tmp}/s.png"],
    ["vision", "evaluate", "{tmp}/no-photos"],
]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("mistake", MISTAKES, ids=[" ".join(m) for m in MISTAKES])
def test_a_usual_mistake_says_what_to_do_next(mistake: list[str], lang: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    argv = [part.replace("{tmp}", str(tmp_path)) for part in mistake]
    code, out, err = run(["--lang", lang, *argv] if "--lang" not in argv else argv, capsys)
    check_ending(code, out, err, f"bitbox {' '.join(argv)} [{lang}]")
    assert code == 2


def test_a_language_we_do_not_have_in_the_environment_is_a_mistake_too(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BITBOX_LANG", "de")
    code, out, err = run(["games"], capsys)
    check_ending(code, out, err, "BITBOX_LANG=de bitbox games")
    assert code == 2 and "BITBOX_LANG" in err


def test_a_mistake_is_said_in_french(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    _code, _out, english = run(["replay", missing], capsys)
    _code, _out, french = run(["--lang", "fr", "replay", missing], capsys)
    assert english != french and missing in french and "does not exist" not in french


#: Commands whose output meets a reader that has gone (the pipe's far end closed before they write).
PIPED = [
    ["--help"],
    ["demo", "--help"],
    ["dials", "ladders"],
    ["games"],
    ["replay"],
    ["export"],
    ["demo", "--no-web", "--speed", "0", "--turns", "2"],
]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A state folder with one finished short game of the demo, for the commands that read games."""
    state = tmp_path_factory.mktemp("played") / "state"
    demo = subprocess.run([*BITBOX, "demo", "--no-web", "--speed", "0", "--short", "--players", "3"],
                          capture_output=True, text=True, env=_environment(state), timeout=120)
    assert demo.returncode == 0, demo.stderr
    return state


@pytest.mark.parametrize("argv", PIPED, ids=[" ".join(a) for a in PIPED])
def test_a_closed_pipe_ends_quietly(argv: list[str], played: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    subprocess.run(["cp", "-r", str(played), str(state)], check=True)
    read, write = os.pipe()
    os.close(read)  # the reader is gone before a word is written, as with `| head -0`
    try:
        process = subprocess.run([*BITBOX, *argv], stdout=write, stderr=subprocess.PIPE, text=True,
                                 env=_environment(state), timeout=120, cwd=ROOT)
    finally:
        os.close(write)
    check_ending(process.returncode, "", process.stderr, f"bitbox {' '.join(argv)} | (closed)")
    assert process.returncode == 0, process.stderr


def test_the_closed_pipe_case_reads_a_first_line_first(played: Path, tmp_path: Path) -> None:
    """``bitbox replay | head -1``: the reader takes one line, then goes."""
    process = subprocess.Popen([*BITBOX, "replay", "--board"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=_environment(played), cwd=ROOT)
    first = process.stdout.readline()
    process.stdout.close()
    process.wait(timeout=120)
    err = process.stderr.read().decode()
    process.stderr.close()
    assert first.strip(), err
    check_ending(process.returncode, "", err, "bitbox replay --board | head -1")
