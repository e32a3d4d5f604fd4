"""`bitbox firmware flash / list / bootloader`, against pseudo-terminal boards and the real mpremote."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import select
import shlex
import subprocess
import sys
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cli import CommandError, build_parser, main
from firmware import cli as fw_cli
from firmware.board_config import build_config
from firmware.board.control import FIRMWARE_VERSION
from firmware.fakes.pty_board import PtyBoard


@dataclasses.dataclass
class PortInfo:
    device: str
    vid: int | None = 0x2E8A
    pid: int | None = 0x0005
    serial_number: str | None = None


@pytest.fixture
def board(tmp_path: Path) -> Iterator[PtyBoard]:
    b = PtyBoard(storage_dir=tmp_path / "flash")
    yield b
    b.close()


class SilentPort:
    """A pseudo-terminal with nothing answering: a Pico at a plain MicroPython prompt, as far as we care."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)

    def received(self, quiet: float = 0.1) -> bytes:
        """Everything sent to the port, once nothing more has come for ``quiet`` seconds."""
        data = b""
        while select.select([self.master], [], [], quiet)[0]:
            data += os.read(self.master, 4096)
        return data

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


def test_flash_command_line_is_exact() -> None:
    files = fw_cli.board_files()
    names = [f.name for f in files]
    assert names[-1] == "main.py" and "__init__.py" not in names
    assert {"app.py", "startup.py", "control.py", "framing.py", "protocol.py", "storage.py", "ladder.py",
            "debounce.py"} <= set(names)
    assert "ladder_maths.py" not in names  # the host's maths: the board only gets finished thresholds
    command = fw_cli.flash_command_line("/usr/bin/mpremote", "/dev/ttyACM0", files, "/tmp/x/config.json")
    modules = [str(f) for f in files[:-1]]
    stale = sorted(["main.py"] + [f.stem + ".mpy" for f in files[:-1]])
    assert command == (["/usr/bin/mpremote", "connect", "/dev/ttyACM0", "exec", fw_cli.cleanup_code(stale),
                        "+", "fs", "cp"] + modules + [":", "+", "fs", "cp", "/tmp/x/config.json", ":config.json",
                                                      "+", "fs", "cp", str(files[-1]), ":main.py", "+", "reset"])


def test_flash_dry_run_prints_the_commands_and_the_config(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "flash", "--dry-run", "--source", "--port", "/dev/ttyACM3"]) == 0
    out = capsys.readouterr().out.splitlines()
    query, command = shlex.split(out[0]), shlex.split(out[1])
    assert query[1:4] == ["connect", "/dev/ttyACM3", "exec"] and "sys.implementation" in query[4]
    assert command[1:4] == ["connect", "/dev/ttyACM3", "exec"]
    tail = command[-12:]
    assert tail[:3] == ["+", "fs", "cp"] and Path(tail[3]).name == "config.json" and tail[4] == ":config.json"
    assert tail[5:8] == ["+", "fs", "cp"] and Path(tail[8]).name == "main.py" and tail[9:] == [":main.py", "+", "reset"]
    assert Path(command[0]).name == "mpremote"
    assert json.loads(out[2]) == json.loads(json.dumps(build_config()))


def test_flash_without_mpremote_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    with pytest.raises(CommandError, match="pip install 'mpremote"):
        fw_cli.find_mpremote()
    assert main(["firmware", "flash", "--port", "/dev/ttyACM0"]) == 2


def test_real_mpremote_failure_is_reported_clearly() -> None:
    mpremote = fw_cli.find_mpremote()
    command = fw_cli.version_command_line(mpremote, "/dev/ttyACM-missing")
    with pytest.raises(CommandError) as info:
        fw_cli.run_mpremote(command, "/dev/ttyACM-missing", timeout=30)
    assert "mpremote failed on /dev/ttyACM-missing" in str(info.value)
    assert "failed to access" in str(info.value)


def test_mpremote_that_hangs_is_cut_short_with_advice() -> None:
    def hangs(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], kwargs["timeout"])
    with pytest.raises(CommandError, match="holding the ready button"):
        fw_cli.run_mpremote(["mpremote"], "/dev/ttyACM0", runner=hangs, timeout=1)


def test_flash_stops_the_running_firmware_before_copying(board: PtyBoard) -> None:
    calls = []

    def runner(command, **kwargs):
        calls.append(command)
        # mpremote runs only once the firmware has handed the port to the REPL.
        assert board.last_action == "stop"
        return subprocess.CompletedProcess(command, 1, "", "mpremote: could not enter raw repl")

    parser = build_parser()
    args = parser.parse_args(["firmware", "flash", "--source", "--port", board.port])
    out = io.StringIO()
    with pytest.raises(CommandError, match="could not enter raw repl"):
        fw_cli.flash_command(args, out, runner=runner)
    assert "stopped the running bitbox firmware" in out.getvalue()
    assert calls and calls[0][:3] == [fw_cli.find_mpremote(), "connect", board.port]


def test_list_shows_a_board_on_a_pseudo_terminal(board: PtyBoard, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "list", "--port", board.port]) == 0
    out = capsys.readouterr().out
    header, row = out.splitlines()[:2]
    assert header.split() == ["PORT", "STATUS", "BOARD", "ID", "FIRMWARE", "CALIBRATION"]
    assert row.split() == [board.port, "ok", board.world.uid.hex(), FIRMWARE_VERSION, "nominal"]
    assert "bitbox calibrate dials" in out


def test_list_finds_boards_by_usb_identity_and_explains_silent_ones(board: PtyBoard) -> None:
    silent = SilentPort()
    try:
        ports = [PortInfo(board.port, serial_number="E661"), PortInfo(silent.port, serial_number="ABCD"),
                 PortInfo("/dev/ttyUSB9", vid=0x0403, pid=0x6001)]
        parser = build_parser()
        args = parser.parse_args(["firmware", "list", "--json", "--timeout", "0.2"])
        out = io.StringIO()
        assert fw_cli.list_command(args, out, comports=lambda: ports) == 0
        rows = {r["port"]: r for r in json.loads(out.getvalue())}
        assert set(rows) == {board.port, silent.port}
        assert rows[board.port]["id"] == board.world.uid.hex() and rows[board.port]["usb_serial"] == "E661"
        assert rows[silent.port]["status"] == "no firmware"
        assert "bitbox firmware flash --port" in rows[silent.port]["detail"]
        # The probe's bytes are followed by Ctrl-B, which takes a plain MicroPython REPL back to normal mode.
        assert silent.received().endswith(b"\r\x02")
    finally:
        silent.close()


def test_list_with_nothing_plugged_in(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    args = parser.parse_args(["firmware", "list"])
    with pytest.raises(CommandError, match="no Raspberry Pi Pico found"):
        fw_cli.list_command(args, comports=lambda: [])


def test_pick_port_needs_exactly_one_pico() -> None:
    with pytest.raises(CommandError, match="MicroPython first"):
        fw_cli.pick_port(None, comports=lambda: [])
    two = [PortInfo("/dev/ttyACM0", serial_number="A"), PortInfo("/dev/ttyACM1", serial_number="B")]
    with pytest.raises(CommandError, match="--port"):
        fw_cli.pick_port(None, comports=lambda: two)
    assert fw_cli.pick_port(None, comports=lambda: two[:1]) == "/dev/ttyACM0"
    assert fw_cli.pick_port("/dev/ttyX", comports=lambda: []) == "/dev/ttyX"


def test_bootloader_command_reboots_the_board(board: PtyBoard, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "bootloader", "--port", board.port]) == 0
    assert "RPI-RP2" in capsys.readouterr().out
    deadline = time.monotonic() + 2.0
    while board.plugged and time.monotonic() < deadline:
        time.sleep(0.01)
    assert board.world.bootloaders == 1 and not board.plugged


def test_bootloader_on_a_silent_port_suggests_mpremote() -> None:
    silent = SilentPort()
    try:
        assert main(["firmware", "bootloader", "--port", silent.port]) == 2
    finally:
        silent.close()


def test_every_firmware_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["firmware", "--help"], ["firmware", "flash", "--help"], ["firmware", "list", "--help"],
                    ["firmware", "bootloader", "--help"], ["firmware", "build", "--help"]):
        with pytest.raises(SystemExit) as info:
            main(command)
        assert info.value.code == 0
    assert "mpremote" in capsys.readouterr().out
