"""The board files on real MicroPython 1.27 on an emulated RP2040, the host's real code on a pseudo-terminal.

Nothing here is a model: the Pico's MicroPython firmware image runs instruction by instruction
on rp2040js (:mod:`firmware.emulated_board`), with the board's own files in its flash as
``bitbox firmware flash`` put them there (mpremote, mpy-cross); the wheels are voltages on the
emulated ADC, the button a level on a GPIO input, the LED a GPIO output, and the host talks
through a pseudo-terminal with :class:`SerialLink` and :class:`SerialBackend`, as it talks to
``/dev/ttyACM0``. Tests that need exact timing hold the emulated clock and give the host's bytes
for exact emulated moments (``pace="hold"``): those runs are the same every time.

Skipped, with the reason, where node, ``npm ci --prefix firmware/emulator`` or a MicroPython
firmware image (:func:`firmware.emulated_board.find_firmware`) is missing.
"""

from __future__ import annotations

import random
import re
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from controller.dials.serial_backend import SerialBackend
from controller.dials.serial_link import SerialLink, profile_bytes
from controller.dials.state import EventKind, LedMode
from firmware.board import framing, protocol
from firmware.board.control import FIRMWARE_VERSION
from firmware.board.ladder import Ladder
from firmware.emulated_board import DEFAULT_UID, EmulatedBoard, unavailable

REASON = unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "-")

CID = DEFAULT_UID.hex()

#: Host-side patience: the emulation can run several times slower than the Pico on a busy machine.
PATIENCE = 60.0


# ---- boards ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shared_board(flashed_fs: Path) -> Iterator[EmulatedBoard]:
    """One flashed board for the tests that leave it as they found it."""
    board = EmulatedBoard(fs_image=flashed_fs)
    board.power_up()
    yield board
    board.close()


@pytest.fixture
def board(shared_board: EmulatedBoard) -> Iterator[EmulatedBoard]:
    """The shared board with its wheels on position 0, the button up and the LED off."""
    for wheel in shared_board.wheel_pins:
        shared_board.turn(wheel, 0)
    shared_board.release()
    yield shared_board
    with SerialLink(shared_board.port, timeout=PATIENCE) as link:
        link.set_led(LedMode.OFF)


@pytest.fixture
def fresh_board(flashed_fs: Path) -> Iterator[Callable[..., EmulatedBoard]]:
    """Boards of their own (not powered yet), for tests that change the flash or need exact timing."""
    made: list[EmulatedBoard] = []

    def make(**options: object) -> EmulatedBoard:
        made.append(EmulatedBoard(fs_image=flashed_fs, **options))
        return made[-1]

    yield make
    for b in made:
        b.close()


# ---- the host's side ---------------------------------------------------------------------------

def wait_state(backend: SerialBackend, timeout: float = PATIENCE, **values: object) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = backend.states().get(CID)
        if s is not None and s.connected and all(getattr(s, k) == v for k, v in values.items()):
            return
        time.sleep(0.01)
    raise AssertionError(f"{CID} never reached {values}; last state {backend.states().get(CID)}")


def hello_with_retries(link: SerialLink, attempts: int = 30):
    for _ in range(attempts):
        try:
            return link.hello(timeout=2.0)
        except Exception:  # the board may still be starting
            continue
    raise AssertionError(f"no HELLO from {link.port}")


def frame(kind: int, seq: int, **fields: object) -> bytes:
    return framing.encode_frame(protocol.encode(kind, seq, **fields))


def decoded(data: bytes) -> list[protocol.Message]:
    """The valid messages in bytes read from the board (anything else is skipped)."""
    out = []
    for item in framing.FrameDecoder(lenient_start=True).feed(data):
        if isinstance(item, bytes):
            try:
                out.append(protocol.decode(item))
            except protocol.ProtocolError:
                pass
    return out


class HeldBoard:
    """A board on a held clock, read from the harness's end of its port: STATE messages with the
    emulated time (to the step) at which they were read."""

    def __init__(self, board: EmulatedBoard, step_ms: float = 2.0) -> None:
        self.board = board
        self.step_ms = step_ms
        self.now = board.now_ms()
        self.states: list[tuple[float, protocol.Message]] = []
        self.messages: list[protocol.Message] = []
        self.raw = bytearray()
        self._decoder = framing.FrameDecoder(lenient_start=True)
        board.drop_sends()
        board.read_available()

    def run(self, ms: float, step_ms: float | None = None) -> None:
        step = step_ms or self.step_ms
        end = self.now + ms
        while self.now < end:
            self.now = min(end, self.now + step)
            self.board.run_until(self.now)
            data = self.board.read_available()
            self.raw += data
            for item in self._decoder.feed(data):
                if isinstance(item, bytes):
                    msg = protocol.decode(item)
                    self.messages.append(msg)
                    if msg.kind == protocol.STATE:
                        self.states.append((self.now, msg))

    def first(self, since: float, check: Callable[[protocol.Message], bool]) -> float | None:
        """When a STATE read from ``since`` on first satisfied ``check``."""
        return next((t for t, m in self.states if t >= since and check(m)), None)

    def seen(self, since: float, check: Callable[[protocol.Message], bool]) -> bool:
        return self.first(since, check) is not None

    def boots_since(self, start: float) -> list[str]:
        return [why for why, at in self.board.boots if at >= start]


@pytest.fixture(scope="module")
def held_board(flashed_fs: Path) -> Iterator[EmulatedBoard]:
    """One emulator process on a held clock; each test powers its chip up afresh (the flash kept)."""
    board = EmulatedBoard(fs_image=flashed_fs, pace="hold", noise_lsb=0)
    yield board
    board.close()


@pytest.fixture
def at_rest(held_board: EmulatedBoard) -> EmulatedBoard:
    """The held board, not powered up again yet, its wheels on position 0 and its button up (a
    button a test left down would keep the firmware from starting at the next power-up)."""
    for wheel in held_board.wheel_pins:
        held_board.turn(wheel, 0)
    held_board.release()
    return held_board


@pytest.fixture
def held(at_rest: EmulatedBoard) -> HeldBoard:
    """The held board just powered up, its wheels on position 0, run until the firmware reports them."""
    held_board = at_rest
    h = HeldBoard(held_board)
    start = h.now
    held_board.power_up()
    h.run(400, step_ms=50)
    assert h.seen(start, lambda m: (m.direction, m.number, m.symbol) == (0, 0, 0)), "the firmware did not start"
    return h


# ---- flashing and starting -----------------------------------------------------------------------

def test_bitbox_firmware_flash_puts_the_firmware_on_a_bare_pico_and_checks_its_hello(emulated_flash) -> None:
    out = emulated_flash.result.stdout
    assert emulated_flash.result.returncode == 0, out + emulated_flash.result.stderr
    assert "runs MicroPython 1.27.0 (Raspberry Pi Pico with RP2040; .mpy 6" in out
    assert "as compiled .mpy files" in out
    assert f"controller {CID} runs bitbox firmware {FIRMWARE_VERSION}" in out and "(calibration: nominal)" in out
    # mpremote's reset is machine.reset(): the chip restarted (watchdog) and came back with its files.
    assert [why for why, _ in emulated_flash.boots] == ["power-up", "watchdog"]


def test_power_up_says_hello_unasked_and_answers_hello(fresh_board: Callable[..., EmulatedBoard]) -> None:
    board = fresh_board()
    with SerialLink(board.port, timeout=PATIENCE) as link:
        board.power_up()
        first = []
        deadline = time.monotonic() + PATIENCE
        while not first and time.monotonic() < deadline:
            first = [m for m in link.read_messages(0.2) if m.kind == protocol.HELLO]
        assert first and first[0].reply_to == 0xFFFF and first[0].uid == DEFAULT_UID  # unsolicited, at start
        info = link.hello()
    assert (info.controller_id, info.firmware_version, info.profile) == (CID, FIRMWARE_VERSION, "nominal")
    assert [why for why, _ in board.boots] == ["power-up"]


# ---- the wheels, the button and the LED, through the host's SerialBackend -----------------------

def test_every_position_of_every_wheel_reaches_the_host(board: EmulatedBoard) -> None:
    with SerialBackend([board.port], heartbeat_timeout=PATIENCE, hello_timeout=5.0, rescan_interval=0.05,
                       connect_grace=0.0) as backend:
        wait_state(backend, direction=0, number=0, symbol=0)
        for wheel, ladder in board.nominal.items():
            for position in list(range(1, len(ladder))) + [0]:
                board.turn(wheel, position)
                wait_state(backend, **{wheel: position})
        board.press()
        wait_state(backend, button=True)
        board.release()
        wait_state(backend, button=False)
        kinds = {e.kind for e in backend.events()}
    assert {EventKind.WHEEL, EventKind.PRESSED, EventKind.RELEASED} <= kinds


def test_led_commands_drive_the_led_pin(board: EmulatedBoard) -> None:
    with SerialLink(board.port, timeout=PATIENCE) as link:
        link.set_led(LedMode.ON)
        board.wait_led(1, PATIENCE)
        start = len(board.led_changes)
        link.set_led(LedMode.BLINK)
        deadline = time.monotonic() + PATIENCE
        while len(board.led_changes) < start + 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        blink = board.led_changes[start + 1:start + 5]
        link.set_led(LedMode.OFF)
        board.wait_led(0, PATIENCE)
    assert len(blink) == 4 and [level for _, level in blink] in ([0, 1, 0, 1], [1, 0, 1, 0])
    halves = [b[0] - a[0] for a, b in zip(blink, blink[1:])]
    assert all(abs(h - 250) <= 2 for h in halves), halves  # blink_ms, on the board's own clock


def test_random_bytes_and_bad_crcs_on_the_line_are_counted_and_the_board_keeps_going(board: EmulatedBoard) -> None:
    rng = random.Random(7)
    with SerialLink(board.port, timeout=PATIENCE) as link:
        before = []
        deadline = time.monotonic() + PATIENCE
        while not before and time.monotonic() < deadline:
            before = [m.rx_errors for m in link.read_messages(0.5) if m.kind == protocol.STATE]
        good = bytearray(frame(protocol.PING, 9, token=1234))
        for _ in range(20):  # written on the same line, beside the link's own frames
            board.write(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))))
            bad = bytearray(good)
            bad[rng.randrange(len(bad) - 1)] ^= 1 << rng.randrange(8)  # one flipped bit: the CRC catches it
            board.write(b"\x00" + bytes(bad))
        board.write(b"\x00")
        assert link.ping() >= 0  # the next good frame is answered
        errors = []
        deadline = time.monotonic() + PATIENCE
        while not errors and time.monotonic() < deadline:
            errors = [m.rx_errors for m in link.read_messages(0.5) if m.kind == protocol.STATE]
    assert before and errors and errors[-1] - before[-1] >= 20
    assert [why for why, _ in board.boots] == ["power-up"]


def test_a_host_that_connects_during_boot_gets_the_firmware(fresh_board: Callable[..., EmulatedBoard]) -> None:
    board = fresh_board()
    with SerialLink(board.port, timeout=1.0) as link:
        board.power_up()  # the host is already asking, from the chip's first instant
        info = hello_with_retries(link)
        assert info.controller_id == CID
        assert link.ping() >= 0
    assert [why for why, _ in board.boots] == ["power-up"]


# ---- calibration --------------------------------------------------------------------------------

def test_a_stored_calibration_is_used_after_a_reset(fresh_board: Callable[..., EmulatedBoard]) -> None:
    board = fresh_board()
    board.power_up()
    symbol = board.nominal["symbol"]
    reversed_symbol = Ladder(list(reversed(symbol.centres)), symbol.hysteresis)  # position 0 reads highest
    ladders = dict(board.nominal, symbol=reversed_symbol)
    with SerialLink(board.port, timeout=PATIENCE) as link:
        hello_with_retries(link)
        link.store_calibration(ladders)
    board.power_up()  # power cycle: a new chip start, the flash kept
    board.turn("symbol", 0)  # the voltage of nominal position 0 ...
    with SerialLink(board.port, timeout=PATIENCE) as link:
        assert hello_with_retries(link).profile == "calibrated"
        deadline = time.monotonic() + PATIENCE
        symbols = []
        while 3 not in symbols and time.monotonic() < deadline:
            symbols = [m.symbol for m in link.read_messages(0.5) if m.kind == protocol.STATE]
    assert 3 in symbols  # ... is position 3 of the stored, reversed ladder
    assert [why for why, _ in board.boots] == ["power-up", "power-up"]


# ---- memory ---------------------------------------------------------------------------------------

#: Runs on the board from the raw REPL: the firmware's own start (``app.run()``, as main.py calls
#: it) with a port that notes the heap (after a collection) at loop iteration 300 and hands the
#: firmware a STORE_PROFILE frame there and at iterations 400 and 500, notes the heap again at
#: 450 and 600, then hands it a STOP.
HEAP_SCRIPT = """
import gc, sys, app, control, framing, protocol
STORE = %(store)r
STOP = framing.encode_frame(protocol.encode(protocol.STOP, 2))
made = []
_init = control.Controller.__init__
def _record(self, *args):
    _init(self, *args)
    made.append(self)
control.Controller.__init__ = _record
def start_up_modules():
    return len([name for name in ("startup", "storage") if name in sys.modules])
class Port(app.UsbPort):
    def __init__(self):
        super().__init__()
        self.n = 0
        self.m = [0, 0, 0, 0, 0, 0]
    def read_available(self, limit):
        n = self.n + 1
        self.n = n
        m = self.m
        if n in (300, 450, 600):
            gc.collect()
            m[(n - 300) // 150] = gc.mem_alloc()
        if n == 301 or n == 401:
            m[3] += start_up_modules()
        if n == 300 or n == 400 or n == 500:
            m[4] += start_up_modules()
            return STORE
        if n == 600:
            m[5] = made[0].profile_status
            return STOP
        return super().read_available(limit)
port = Port()
action = app.run(port=port)
print("HEAP", action, *port.m, "END")
"""


def run_in_raw_repl(board: EmulatedBoard, script: str, marker: bytes) -> bytes:
    """Stop the running firmware, soft-reset into a clean raw REPL, run ``script``; its output up to ``marker``."""
    with SerialLink(board.port, timeout=PATIENCE) as link:
        hello_with_retries(link)
        link.stop()  # the firmware hands the port to the REPL
    with serial.Serial(board.port, 115200, timeout=0.1) as port:
        port.write(b"\r\x03\x03\x01")  # raw REPL
        read_until(port, b"raw REPL; CTRL-B to exit\r\n>")
        port.write(b"\x04")  # soft reset: a heap as clean as at power-up (main.py does not run from the raw REPL)
        read_until(port, b"soft reboot\r\nraw REPL; CTRL-B to exit\r\n>")
        port.write(script.encode() + b"\x04")
        return read_until(port, marker)


def read_until(port: serial.Serial, marker: bytes) -> bytes:
    data = b""
    deadline = time.monotonic() + 10 * PATIENCE
    while marker not in data:
        assert time.monotonic() < deadline, f"the board never said {marker!r}; it said {data[-300:]!r}"
        data += port.read(4096)
    return data


def test_the_loop_keeps_no_start_up_code_and_storing_calibrations_does_not_grow_the_heap(
        fresh_board: Callable[..., EmulatedBoard]) -> None:
    board = fresh_board()
    board.power_up()
    body = profile_bytes(board.nominal)
    store = frame(protocol.STORE_PROFILE, 1, checksum=zlib.crc32(body), profile=body)
    out = run_in_raw_repl(board, HEAP_SCRIPT % {"store": store}, b" END")
    fields = re.search(rb"HEAP (\w+) " + rb" ".join([rb"(\d+)"] * 6) + rb" END", out)
    assert fields is not None, out[-300:]
    action, before, after_one, after_three, after_store, in_loop, status = fields.groups()
    assert action == b"stop" and int(status) == protocol.PROFILE_STORED
    assert int(in_loop) == 0  # startup.py and storage.py left memory before the loop ...
    assert int(after_store) == 0  # ... and storage.py again each time a calibration was stored
    before, after_one, after_three = int(before), int(after_one), int(after_three)
    assert after_one - before <= 64, f"a stored calibration took the heap from {before} to {after_one} bytes"
    assert after_three == after_one, f"each stored calibration grows the heap: {after_one}, then {after_three} bytes"


# ---- exact timing, on a held clock --------------------------------------------------------------

def test_a_wheel_reports_a_position_only_once_it_held_it_for_the_settle_time(held: HeldBoard) -> None:
    settle = held.board.config["wheel_settle_ms"]
    # Passing position 5 for 20 ms on the way from 0 to 3: 5 never shows, TURNING does at once.
    t0 = held.now
    held.board.turn("number", 5)
    held.run(20)
    held.board.turn("number", 3)
    held.run(settle + 30)
    assert held.first(t0, lambda m: m.number == protocol.TURNING) <= t0 + held.step_ms + 1
    assert not held.seen(t0, lambda m: m.number == 5)
    settled = held.first(t0, lambda m: m.number == 3)
    assert settled is not None and t0 + 20 + settle <= settled <= t0 + 20 + settle + 2 * held.step_ms + 1


def test_a_wheel_between_positions_reads_turning_then_between(held: HeldBoard) -> None:
    between = held.board.config["between_ms"]
    t0 = held.now
    held.board.set_raw("direction", 0)  # no contact: between two detents
    held.run(between + 40)
    assert held.first(t0, lambda m: m.direction == protocol.TURNING) <= t0 + held.step_ms + 1
    fault = held.first(t0, lambda m: m.direction == protocol.BETWEEN)
    assert fault is not None and t0 + between <= fault <= t0 + between + 2 * held.step_ms + 1
    held.board.turn("direction", 6)
    t1 = held.now
    held.run(held.board.config["wheel_settle_ms"] + 10)
    assert held.seen(t1, lambda m: m.direction == 6)


def test_the_button_is_debounced(held: HeldBoard) -> None:
    press_ms = held.board.config["button_press_ms"]
    t0 = held.now
    held.board.press()  # a bounce shorter than the press time
    held.run(press_ms // 2)
    held.board.release()
    held.run(50)
    assert not held.seen(t0, lambda m: m.button == 1)
    t1 = held.now
    held.board.press()
    held.run(press_ms + 10)
    pressed = held.first(t1, lambda m: m.button == 1)
    assert pressed is not None and t1 + press_ms <= pressed <= t1 + press_ms + 2 * held.step_ms + 1


# ---- start-up: a host talking from power-up -------------------------------------------------------

def test_host_frames_every_50_ms_from_power_up_to_2_s_always_get_the_board_running(at_rest: EmulatedBoard) -> None:
    held_board = at_rest
    h = HeldBoard(held_board, step_ms=50.0)
    start = h.now
    for seq in range(41):  # HELLO_REQ seq < 256: every frame starts with 0x03, MicroPython's Ctrl-C
        held_board.send_at(start + seq * 50.0, frame(protocol.HELLO_REQ, seq))
    held_board.power_up()
    h.run(2100)
    answered = {m.reply_to for m in h.messages if m.kind == protocol.HELLO}
    assert 40 in answered, f"the last HELLO_REQ (at 2 s) was not answered; answered: {sorted(answered)}"
    assert b"REPL" not in h.raw and b">>>" not in h.raw
    assert h.boots_since(start) == ["power-up"]
    started = min(seq for seq in answered if seq != 0xFFFF)
    assert set(range(started, 41)) <= answered  # once running, every frame is answered


@pytest.mark.parametrize("start_ms", range(0, 401, 50), ids=lambda ms: f"{ms}ms")
def test_a_host_starting_at_any_moment_of_the_start_up_gets_the_board_running(at_rest: EmulatedBoard,
                                                                             start_ms: int) -> None:
    held_board = at_rest
    h = HeldBoard(held_board, step_ms=50.0)
    start = h.now
    for seq in range(4):
        held_board.send_at(start + start_ms + seq * 50.0, frame(protocol.HELLO_REQ, seq))
    held_board.power_up()
    h.run(start_ms + 250)
    answered = {m.reply_to for m in h.messages if m.kind == protocol.HELLO}
    assert 3 in answered and b"REPL" not in h.raw
    assert h.boots_since(start) == ["power-up"]
