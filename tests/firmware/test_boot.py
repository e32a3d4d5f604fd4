"""main.py at power-up, on a simulated Pico, with a host that sends frames from the first millisecond.

Every host frame with a sequence number below 256 starts with 0x03, MicroPython's Ctrl-C. These
tests boot the board files on :class:`tests.firmware.boot_sim.SimBoard` (MicroPython's start-up
and REPL modelled on a virtual clock) and check that no frame, whenever it arrives, stops the
firmware or leaves the board in the REPL; and that the ways to the REPL on purpose (the ready
button held at power-up, the host's STOP) still work; and that the code only start-up needs is
out of memory while the loop runs. ``RACY_MAIN`` is the main.py that had the bug: the harness
must show the failure with it, or these tests prove nothing.
"""

from __future__ import annotations

import ast
import doctest
import shutil
import zlib
from pathlib import Path

import pytest

from controller.dials.serial_link import profile_bytes
from firmware.board import protocol
from firmware.board.ladder import Ladder
from firmware.fakes import machine as fake_machine
from tests.firmware import boot_sim
from tests.firmware.boot_sim import BOARD_DIR, SimBoard, frame, hello_req

#: main.py before the fix: Ctrl-C stayed on while `import app` compiled the modules.
RACY_MAIN = '"""Runs at power-up on the controller board."""\n\nimport app\n\napp.run()\n'

#: What mpremote sends to take the REPL: interrupt whatever runs, then raw mode.
MPREMOTE_ENTER = b"\r\x03\x03\r\x01"

END_MS = 3000


def talking_host(board: SimBoard, start_ms: int, period_ms: int = 100, end_ms: int = END_MS) -> int:
    """Schedule a HELLO_REQ every ``period_ms`` from ``start_ms`` to ``end_ms``; returns the last seq."""
    seq = 0
    at = start_ms
    while at <= end_ms:
        board.host_sends(at, hello_req(seq))
        seq += 1
        at += period_ms
    return seq - 1


def answered(board: SimBoard, seq: int) -> bool:
    return any(m.reply_to == seq for m in board.replies(protocol.HELLO))


@pytest.mark.parametrize("start_ms", range(0, 2001, 50), ids=lambda ms: f"{ms}ms")
def test_frames_from_any_moment_after_power_up_never_stop_the_firmware(tmp_path: Path, start_ms: int) -> None:
    board = SimBoard(tmp_path)
    last = talking_host(board, start_ms)
    board.run(until_ms=END_MS + 100)
    assert board.state == "main.py", f"the board fell into the {board.state} (typed: {board.typed[:2]})"
    assert answered(board, last), "the board did not answer the host's last HELLO_REQ"
    assert [why for _, why in board.boots] == ["power-up"] and not board.typed and not board.main_errors


@pytest.mark.parametrize("start_ms", [0, 300, 600, 900])
def test_the_harness_shows_the_race_with_the_old_main_py(tmp_path: Path, start_ms: int) -> None:
    board = SimBoard(tmp_path, main_source=RACY_MAIN)
    last = talking_host(board, start_ms)
    board.run(until_ms=END_MS + 100)
    assert isinstance(board.main_errors[0], KeyboardInterrupt)
    assert board.state == "raw REPL" and board.typed  # later frames were taken as code
    assert not answered(board, last)


@pytest.mark.parametrize("main_source, restarts", [(None, True), (RACY_MAIN, False)], ids=["main.py", "old"])
def test_a_ctrl_c_in_main_pys_first_instant_restarts_the_firmware(tmp_path: Path, main_source: str | None,
                                                                   restarts: bool) -> None:
    board = SimBoard(tmp_path, main_source=main_source)
    board.ctrl_c_when_main_starts = True  # before kbd_intr(-1) has run: the guard's case
    last = talking_host(board, 2000)
    board.run(until_ms=END_MS + 100)
    assert answered(board, last) is restarts
    if restarts:
        assert [why for _, why in board.boots] == ["power-up", "soft"]
        assert b"Ctrl-C during start-up, restarting" in board.out
        assert board.state == "main.py"
    else:
        assert isinstance(board.main_errors[0], KeyboardInterrupt) and board.state.endswith("REPL")


def test_button_held_at_power_up_leaves_the_repl_to_mpremote(tmp_path: Path) -> None:
    board = SimBoard(tmp_path)
    board.world.drive(board.config["button"]["pin"], 0)
    board.host_sends(200, MPREMOTE_ENTER)  # mpremote starts while the modules still compile
    board.host_sends(1500, MPREMOTE_ENTER)  # and tries again
    board.run(until_ms=1600)
    assert b"ready button held" in board.out
    assert board.state == "raw REPL" and b"raw REPL; CTRL-B to exit" in board.sent_since(1500)
    assert not board.replies(protocol.HELLO)  # the firmware never started


def test_stop_hands_the_port_to_the_repl_for_good(tmp_path: Path) -> None:
    board = SimBoard(tmp_path)
    talking_host(board, 0, end_ms=1400)
    board.host_sends(1500, frame(protocol.STOP, 77))
    board.host_sends(1600, MPREMOTE_ENTER)
    board.run(until_ms=1700)
    acks = [m for m in board.replies(protocol.ACK) if m.reply_to == 77]
    assert acks and acks[0].status == protocol.OK
    assert board.state == "raw REPL" and [why for _, why in board.boots] == ["power-up"]
    assert not board.main_errors


def store_profile_frame(board: SimBoard, seq: int) -> bytes:
    """A STORE_PROFILE of the board's nominal ladders, as ``bitbox calibrate dials`` sends it."""
    ladders = {w["name"]: Ladder.from_list(board.config["ladders"][w["name"]]) for w in board.config["wheels"]}
    body = profile_bytes(ladders)
    return frame(protocol.STORE_PROFILE, seq, checksum=zlib.crc32(body), profile=body)


@pytest.mark.parametrize("store", [False, True], ids=["loop", "after a calibration"])
def test_start_up_code_is_out_of_memory_while_the_loop_runs(tmp_path: Path, store: bool) -> None:
    board = SimBoard(tmp_path)
    if store:
        board.host_sends(1500, store_profile_frame(board, 5))
    board.run(until_ms=1800)
    assert board.replies(protocol.STATE, since_ms=1700), "the loop is not running"
    assert {"app", "control", "framing", "protocol", "ladder", "debounce"} <= set(board.modules)
    assert not {"startup", "storage"} & set(board.modules)  # storage.py came back to store, and left
    if store:
        acks = [m for m in board.replies(protocol.ACK) if m.reply_to == 5]
        assert acks and acks[0].status == protocol.OK
        assert (tmp_path / "profile.json").is_file()
        states = board.replies(protocol.STATE)
        assert states[0].flags & protocol.FLAG_PROFILE_DEFAULT  # nominal ladders at first ...
        assert not states[-1].flags & protocol.FLAG_PROFILE_DEFAULT  # ... the stored calibration at the end


class FlakyWorld(fake_machine.World):
    """An ADC that fails once, on its ``fail_at``-th reading: a firmware fault."""

    def __init__(self, fail_at: int) -> None:
        super().__init__(uid=b"\x0f" * 8, noise_lsb=0.0)
        self.fail_at = fail_at

    def read_adc(self, pin: int) -> int:
        if self.adc_reads + 1 == self.fail_at:
            self.adc_reads += 1
            raise OSError(5, "simulated ADC fault")
        return super().read_adc(pin)


def test_a_fault_restarts_the_firmware_while_the_host_keeps_sending(tmp_path: Path) -> None:
    board = SimBoard(tmp_path, world=FlakyWorld(fail_at=3000))
    last = talking_host(board, 0, period_ms=50, end_ms=4500)
    board.run(until_ms=4600)
    assert b"firmware fault" in board.out
    assert [why for _, why in board.boots] == ["power-up", "hard"]  # the 2 s wait was not interrupted
    assert board.world.resets == 1 and board.state == "main.py" and answered(board, last)


def test_a_broken_install_says_so_and_leaves_the_repl(tmp_path: Path) -> None:
    board_dir = tmp_path / "board"
    shutil.copytree(BOARD_DIR, board_dir)
    (board_dir / "ladder.py").unlink()
    flash = tmp_path / "flash"
    flash.mkdir()
    board = SimBoard(flash, board_dir=board_dir)
    board.run(until_ms=1500)
    assert b"the firmware could not start" in board.out and b"bitbox firmware flash" in board.out
    assert board.state == "REPL" and [why for _, why in board.boots] == ["power-up"]


def test_main_py_turns_ctrl_c_off_before_anything_else() -> None:
    tree = ast.parse((BOARD_DIR / "main.py").read_text(encoding="utf-8"))
    body = [node for node in tree.body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    assert len(body) == 1 and isinstance(body[0], ast.Try), "main.py: one try statement around everything"
    first, second = body[0].body[:2]
    assert ast.unparse(first) == "import micropython"
    assert ast.unparse(second) == "micropython.kbd_intr(-1)"
    handlers = [ast.unparse(h.type) for h in body[0].handlers]
    assert handlers[0] == "KeyboardInterrupt" and "machine.soft_reset()" in ast.unparse(body[0].handlers[0])


def test_the_simulators_own_example() -> None:
    assert doctest.testmod(boot_sim).failed == 0
