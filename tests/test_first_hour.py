"""docs/first-hour.md, run as a newcomer runs it: every command of its ``sh`` blocks, as written.

Each section of the page is one test, in its own state folder and working folder. A command runs
through a shell with the installed ``bitbox`` first on the PATH, and must end with status 0. What
needs what a test machine has not is run against what the page itself names:

* ``/dev/ttyACM0`` is a simulated board: the real firmware loop behind a pseudo-terminal
  (:class:`firmware.fakes.pty_board.PtyBoard`); the flash itself, which needs MicroPython's REPL on
  a real Pico, is checked by its dry run (the line before it on the page);
* the camera commands get ``--source render:puxes``, the rendered table the page names;
* the commands that wait for people are given them: the keyboard game gets its ``Q``, the phone
  game has a seat's link opened (on this machine's loopback address) and then its Ctrl-C, the
  calibration gets each wheel turned where it asks, the live watch gets its Ctrl-C.

The games' dashboard port is the one thing changed: a free port is added to the keyboard and the
phone games, so that a dashboard left running elsewhere on 8080 cannot fail the test.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "first-hour.md"
README = ROOT / "README.md"

#: The serial port the page names, and the rendered camera it names.
PAGE_PORT = "/dev/ttyACM0"
RENDERED = "--source render:puxes"
#: Needs MicroPython's REPL on a real Pico; its dry run, on the page just before it, is run instead.
NEEDS_A_REAL_PICO = f"bitbox firmware flash --port {PAGE_PORT}"


def sections() -> dict[str, list[str]]:
    """The page's commands by section number ("1", "2"...), in order."""
    found: dict[str, list[str]] = {}
    current = ""
    in_block = False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"## (\d+)\.", line)
        if heading:
            current = heading.group(1)
        elif line.strip() == "```sh":
            in_block = True
        elif line.strip() == "```":
            in_block = False
        elif in_block and line.strip() and not line.lstrip().startswith("#"):
            found.setdefault(current, []).append(line.strip())
    return found


SECTIONS = sections()


def readme_setup() -> str:
    """The README's first set-up command (the one that ends in ``bitbox demo``)."""
    text = README.read_text(encoding="utf-8")
    return next(line for line in re.findall(r"```sh\n(.*?)\n```", text, re.S) if line.endswith("bitbox demo"))


def _bin() -> Path:
    folder = Path(sys.executable).parent
    assert (folder / "bitbox").is_file(), f"the bitbox command is not installed beside {sys.executable}"
    return folder


def environment(state: Path) -> dict[str, str]:
    """A newcomer's shell: the installed bitbox on the PATH, English, no test-suite settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BITBOX_")}
    return {**env, "PATH": f"{_bin()}{os.pathsep}{env.get('PATH', '')}", "BITBOX_STATE_DIR": str(state),
            "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1"}


class Newcomer:
    """Types the page's commands in one state folder and one working folder."""

    def __init__(self, tmp_path: Path) -> None:
        self.state = tmp_path / "state"
        self.cwd = tmp_path / "work"
        self.cwd.mkdir()
        self.env = environment(self.state)
        self.board = None
        self.outputs: dict[str, str] = {}

    def run(self, command: str, timeout: float = 300) -> str:
        """A command that ends by itself, through the shell, as typed."""
        done = subprocess.run(command, shell=True, capture_output=True, text=True, env=self.env, cwd=self.cwd,
                              timeout=timeout)
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, done.stderr
        return done.stdout

    def until_line(self, command: str, starts: str, then=None, timeout: float = 120) -> str:
        """A command that runs until stopped: wait for a line starting with ``starts``, do ``then``
        with the lines so far, then press Ctrl-C; it must stop cleanly."""
        process = subprocess.Popen(shlex.split(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=self.env, cwd=self.cwd)
        lines: list[str] = []
        try:
            deadline = time.monotonic() + timeout
            for line in process.stdout:
                lines.append(line)
                if line.startswith(starts) or time.monotonic() > deadline:
                    break
            assert lines and lines[-1].startswith(starts), "".join(lines) + process.stderr.read()
            if then is not None:
                then(lines)
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        assert process.returncode == 0 and "Traceback" not in err, f"{command}\n{err}"
        return "".join(lines) + out

    def perform(self, command: str) -> str:
        """Run one command of the page the way the module's docstring says."""
        assert command.startswith("bitbox "), f"the page's commands are bitbox commands: {command}"
        self.outputs[command] = out = self._perform(command)
        return out

    def _perform(self, command: str) -> str:
        if command == NEEDS_A_REAL_PICO:
            assert f"{NEEDS_A_REAL_PICO} --dry-run" in self.outputs, "its dry run comes first on the page"
            return ""
        if PAGE_PORT in command:
            command = command.replace(PAGE_PORT, self.board.port)
        if command.startswith(("bitbox calibrate mat", "bitbox camera snapshot")):
            command = f"{command} {RENDERED}"
        if "--backend keyboard" in command:
            return self.keyboard_game(f"{command} --port {free_port()}")
        if "--backend phone" in command:
            return self.phone_game(f"{command} --port {free_port()}")
        if command.startswith("bitbox calibrate dials"):
            return self.calibrate(command)
        if command.startswith("bitbox dials watch"):
            return self.until_line(command, "watching controllers")
        return self.run(command)

    def keyboard_game(self, command: str) -> str:
        """The hot-seat game in a terminal of its own: wait until it runs, then press Q."""
        master, slave = pty.openpty()
        process = subprocess.Popen(shlex.split(command), stdin=slave, stdout=slave, stderr=slave, env=self.env,
                                   cwd=self.cwd, close_fds=True)
        os.close(slave)
        seen = b""
        try:
            seen = read_until(master, b"Event log: ", 120)
            assert b"Event log: " in seen, seen.decode(errors="replace")
            os.write(master, b"Q")
            process.wait(timeout=60)
            seen += read_until(master, b"resumes on the next start", 10)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            os.close(master)
        text = seen.decode(errors="replace")
        assert process.returncode == 0 and "Traceback" not in text, text
        assert "is saved and resumes" in text, text
        return text

    def phone_game(self, command: str) -> str:
        """The phone game: open a seat's page from the link printed for it, then Ctrl-C."""
        opened: list[int] = []

        def open_a_seat(lines: list[str]) -> None:
            links = [line.split()[-1] for line in lines if "/join/" in line]
            assert len(links) == 4, "".join(lines)
            loopback = re.sub(r"^http://[^:/]+", "http://127.0.0.1", links[0])
            with urllib.request.urlopen(loopback, timeout=10) as page:
                opened.append(page.status)

        out = self.until_line(command, "Event log: ", then=open_a_seat)
        assert opened == [200]
        return out

    def calibrate(self, command: str) -> str:
        """The wheel calibration, its questions answered by turning the simulated board's wheels."""
        process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=self.env, cwd=self.cwd)
        said = b""
        try:
            while process.poll() is None:
                chunk = process.stdout.read1(4096)
                if not chunk:
                    break
                said += chunk
                asked = re.search(rb"Turn the (\w+) wheel to .* \(position (\d+) of \d+\).*: $", said)
                if asked:
                    self.turn_and_let_go(asked.group(1).decode(), int(asked.group(2)) - 1)
                    said = b""
                    process.stdin.write(b"\n")
                    process.stdin.flush()
            out, err = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        text = (said + out).decode(errors="replace")
        assert process.returncode == 0, f"{command}\n{text}\n{err.decode(errors='replace')}"
        assert "stored on the controller board" in text, text
        return text


    def turn_and_let_go(self, wheel: str, position: int) -> None:
        """Turn a wheel of the simulated board and wait until its firmware has it settled there, as a
        hand lets go of a wheel once it has clicked into place."""
        self.board.turn(wheel, position)
        controller = self.board.controller
        index = controller.wheel_names.index(wheel)
        deadline = time.monotonic() + 10
        while controller.positions[index] != position and time.monotonic() < deadline:
            time.sleep(0.01)
        assert controller.positions[index] == position, f"the {wheel} wheel did not settle on {position}"


def read_until(fd: int, wanted: bytes, timeout: float) -> bytes:
    """What a terminal shows until ``wanted`` appears (or ``timeout`` seconds pass)."""
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted not in seen and time.monotonic() < deadline:
        ready, _w, _x = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_page_starts_from_the_readmes_command() -> None:
    first = SECTIONS["1"][0]
    assert first == readme_setup(), "the page's first step is the README's, word for word"
    assert set(SECTIONS) == {"1", "2", "3", "4", "5"}, sorted(SECTIONS)


def test_1_a_game_played_by_bots_then_told_again(tmp_path: Path) -> None:
    newcomer = Newcomer(tmp_path)
    commands = SECTIONS["1"][1:]  # the first is the README's, which CI's own set-up runs
    for command in commands:
        newcomer.perform(command)
    assert "Final scores:" in newcomer.outputs["bitbox demo --short --speed 4"]
    assert "Ada (red, bot)" in newcomer.outputs["bitbox games"]
    assert re.search(r"Winners?: ", newcomer.outputs["bitbox replay"])
    assert "Scores finaux :" in newcomer.outputs["bitbox --lang fr replay"]


def test_2_a_game_on_one_keyboard(tmp_path: Path) -> None:
    newcomer = Newcomer(tmp_path)
    for command in SECTIONS["2"]:
        newcomer.perform(command)


def test_3_a_game_on_phones(tmp_path: Path) -> None:
    newcomer = Newcomer(tmp_path)
    for command in SECTIONS["3"]:
        newcomer.perform(command)


def test_4_a_first_wired_controller(tmp_path: Path) -> None:
    from firmware.fakes.pty_board import PtyBoard

    newcomer = Newcomer(tmp_path)
    with PtyBoard(storage_dir=tmp_path / "board") as board:
        newcomer.board = board
        for command in SECTIONS["4"]:
            newcomer.perform(command)
    listed = next(out for command, out in newcomer.outputs.items() if command.startswith("bitbox firmware list"))
    assert board.port in listed and " ok " in listed


def test_5_the_table_camera(tmp_path: Path) -> None:
    newcomer = Newcomer(tmp_path)
    for command in SECTIONS["5"]:
        newcomer.perform(command)
    assert (newcomer.cwd / "mat" / "puxes-mat.png").is_file()
    assert (newcomer.cwd / "table.png").is_file()
