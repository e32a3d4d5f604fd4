"""SerialLink against the real firmware logic behind a pseudo-terminal."""

from __future__ import annotations

import os
import threading
import time
import tty
import zlib
from collections.abc import Iterator

import pytest

from controller.dials.backend import ControllerError
from controller.dials.serial_link import SerialLink, profile_bytes
from controller.dials.state import LedMode
from firmware.board import framing, protocol
from firmware.board.control import FIRMWARE_VERSION
from firmware.board.ladder import Ladder
from firmware.fakes.pty_board import PtyBoard


@pytest.fixture
def board(tmp_path) -> Iterator[PtyBoard]:
    b = PtyBoard(storage_dir=tmp_path / "flash", noise_lsb=0)
    yield b
    b.close()


def test_hello_ping_and_raw_readings(board: PtyBoard) -> None:
    board.turn("direction", 6)
    board.set_raw("number", 22222)
    board.press()
    with SerialLink(board.port, timeout=1.0) as link:
        info = link.hello()
        assert info.controller_id == board.world.uid.hex()
        assert info.firmware_version == FIRMWARE_VERSION
        assert info.profile == "nominal"
        assert link.ping() > 0
        time.sleep(0.02)
        raw, button = link.raw_readings()
        assert abs(raw[0] - board.config["ladders"]["direction"][3 + 3 * 6 + 1]) < 32
        assert abs(raw[1] - 22222) < 32
        assert button is True
        assert link.raw_adc() == raw or len(link.raw_adc()) == 3
    assert not link.is_open


def test_set_led_reaches_the_board(board: PtyBoard) -> None:
    with SerialLink(board.port) as link:
        link.set_led(LedMode.ON)
        time.sleep(0.01)
        assert board.led == 1
        link.set_led(LedMode.OFF)
        time.sleep(0.01)
        assert board.led == 0


def test_store_calibration_is_checked_used_and_survives_a_power_cycle(board: PtyBoard) -> None:
    nominal = {w["name"]: Ladder.from_list(board.config["ladders"][w["name"]]) for w in board.config["wheels"]}
    ladders = {name: Ladder([c + 1200 for c in ladder.centres], ladder.hysteresis) for name, ladder in nominal.items()}
    with SerialLink(board.port) as link:
        crc = link.store_calibration(ladders)
        assert crc == zlib.crc32(profile_bytes(ladders))
        assert link.hello().profile == "calibrated"
    stored = (board.storage_dir / "profile.json").read_bytes()
    assert stored.startswith(b"%08x\n" % crc)
    board.replug()
    with SerialLink(board.port) as link:
        assert link.hello().profile == "calibrated"


def test_a_profile_with_a_wrong_checksum_is_refused(board: PtyBoard) -> None:
    nominal = {w["name"]: Ladder.from_list(board.config["ladders"][w["name"]]) for w in board.config["wheels"]}
    body = profile_bytes(nominal)
    with SerialLink(board.port) as link:
        msg = link.request(protocol.STORE_PROFILE, (), checksum=zlib.crc32(body) ^ 0x100, profile=body)
        assert msg.kind == protocol.ACK and msg.status == protocol.BAD_CHECKSUM
        with pytest.raises(ControllerError, match="refused"):
            link._expect_ok(msg, "the calibration")
    assert not (board.storage_dir / "profile.json").exists()


def test_store_calibration_needs_every_wheel(board: PtyBoard) -> None:
    with SerialLink(board.port) as link, pytest.raises(ControllerError, match="symbol"):
        link.store_calibration({"direction": Ladder([1000, 5000], 10), "number": Ladder([1000, 5000], 10)})


def test_a_second_program_on_the_same_port_gets_a_busy_error(board: PtyBoard) -> None:
    with SerialLink(board.port) as first:
        first.hello()
        with pytest.raises(ControllerError, match="busy"):
            SerialLink(board.port).open()
        assert first.ping() > 0  # the first link is not disturbed


def test_a_missing_port_is_explained() -> None:
    with pytest.raises(ControllerError, match="plugged in"):
        SerialLink("/dev/ttyACM-not-there").open()


class SilentOrForeignDevice:
    """A pseudo-terminal whose other end answers every frame with ``reply`` (or stays silent)."""

    def __init__(self, reply=None) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave
        self.reply = reply
        self.received = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import select

        dec = framing.FrameDecoder()
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if not ready:
                continue
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            self.received += data
            for item in dec.feed(data):
                if isinstance(item, bytes) and self.reply is not None:
                    os.write(self.master, self.reply(item))

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        os.close(self.master)
        os.close(self._slave)


def test_no_answer_is_a_clear_timeout() -> None:
    dev = SilentOrForeignDevice()
    try:
        with SerialLink(dev.port, timeout=0.2) as link, pytest.raises(ControllerError, match="no answer to HELLO_REQ"):
            link.hello()
        assert link.counters["timeouts"] == 1
    finally:
        dev.close()


def test_a_board_speaking_another_protocol_version_is_named() -> None:
    def reply(payload: bytes) -> bytes:
        answer = bytearray(protocol.encode(protocol.HELLO, 0, reply_to=protocol.peek(payload)[2], profile=0,
                                           uid=b"\x01", version="9.0"))
        answer[0] = 2
        return framing.encode_frame(bytes(answer))

    dev = SilentOrForeignDevice(reply)
    try:
        with SerialLink(dev.port, timeout=0.2) as link:
            with pytest.raises(ControllerError, match="protocol version 2.*bitbox firmware flash"):
                link.hello()
            assert link.counters["version"] >= 1
    finally:
        dev.close()


def test_corrupt_frames_are_counted_and_never_mistaken_for_answers(board: PtyBoard) -> None:
    errors = []
    with SerialLink(board.port, on_error=errors.append) as link:
        link.hello()
        good = framing.encode_frame(protocol.encode(protocol.PONG, 999, reply_to=1, token=1))
        bad = bytearray(good)
        bad[4] ^= 0x40
        board.inject(b"\x00" + bytes(bad) + b"\x13\x37\x00" + good[:5] + b"\x00")
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline and sum(link.counters[k] for k in ("crc", "cobs", "short")) < 3:
            link.read_messages(0.05)
        assert link.counters["crc"] + link.counters["cobs"] + link.counters["short"] >= 3
        assert len(errors) >= 3
        assert link.ping() > 0
