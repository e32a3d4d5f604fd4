"""End to end: the real firmware logic behind pseudo-terminals, the real SerialBackend in front."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterator

import pytest

from controller.dials.backend import ControllerError
from controller.dials.serial_backend import SerialBackend, matching_ports
from controller.dials.state import ControllerEvent, EventKind, LedMode
from firmware.board import framing, protocol
from firmware.fakes.pty_board import PtyBoard

VID_PID = (0x2E8A, 0x0005)


@dataclasses.dataclass
class PortInfo:
    """What serial.tools.list_ports.comports() gives for one port."""

    device: str
    vid: int | None = VID_PID[0]
    pid: int | None = VID_PID[1]
    serial_number: str | None = None


class Usb:
    """The USB bus the backend lists: the plugged-in boards, plus an unrelated serial adapter."""

    def __init__(self, *boards: PtyBoard) -> None:
        self.boards = list(boards)

    def comports(self) -> list[PortInfo]:
        ports = [PortInfo(b.port, serial_number=b.world.uid.hex().upper()) for b in self.boards if b.plugged]
        return ports + [PortInfo("/dev/ttyUSB-not-a-pico", vid=0x0403, pid=0x6001, serial_number="FT1")]


def wait_for(backend: SerialBackend, predicate: Callable[[ControllerEvent], bool], timeout: float = 2.0,
             seen: list[ControllerEvent] | None = None) -> ControllerEvent:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = backend.get_event(0.05)
        if event is None:
            continue
        if seen is not None:
            seen.append(event)
        if predicate(event):
            return event
    raise AssertionError(f"no matching event within {timeout} s (saw {[(e.kind.value, e.detail) for e in seen or []]})")


def wait_state(backend: SerialBackend, cid: str, timeout: float = 2.0, **values: object) -> None:
    """Wait until the backend's state of ``cid`` is connected and has ``values`` (events are left queued)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = backend.states().get(cid)
        if s is not None and s.connected and all(getattr(s, k) == v for k, v in values.items()):
            return
        time.sleep(0.005)
    raise AssertionError(f"{cid} never reached {values}; last state {backend.states().get(cid)}")


def settled(backend: SerialBackend, cid: str, **wheels: int) -> Callable[[ControllerEvent], bool]:
    def check(event: ControllerEvent) -> bool:
        s = event.state
        return s.controller_id == cid and s.connected and all(getattr(s, k) == v for k, v in wheels.items())
    return check


@pytest.fixture
def boards(tmp_path) -> Iterator[list[PtyBoard]]:
    made = [PtyBoard(uid=bytes([0xE6, 0x61, i, 4, 3, 0x12, 0x34, 0x56]), storage_dir=tmp_path / f"b{i}", seed=i)
            for i in range(2)]
    yield made
    for b in made:
        b.close()


def backend_for(usb: Usb, **kw) -> SerialBackend:
    options = dict(comports=usb.comports, vid_pid=VID_PID, rescan_interval=0.05, retry_interval=0.2)
    options.update(kw)
    return SerialBackend(**options)


def test_finds_boards_by_usb_identity() -> None:
    ports = [PortInfo("/dev/ttyACM1", serial_number="AA"), PortInfo("/dev/ttyACM0", serial_number="BB"),
             PortInfo("/dev/ttyUSB0", vid=0x0403, pid=0x6001), PortInfo("/dev/ttyS0", vid=None, pid=None)]
    assert [p.device for p in matching_ports(lambda: ports, VID_PID)] == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert [p.device for p in matching_ports(lambda: ports, VID_PID, ["aa"])] == ["/dev/ttyACM1"]


def test_wheel_turns_and_presses_on_two_boards_become_events(boards: list[PtyBoard]) -> None:
    a, b = boards
    with backend_for(Usb(a, b)) as backend:
        ids = [x.world.uid.hex() for x in boards]
        for cid in ids:
            wait_state(backend, cid, direction=0, number=0, symbol=0)
        a.turn("number", 7)
        b.turn("direction", 2)
        b.turn("symbol", 3)
        wait_state(backend, ids[0], number=7)
        wait_state(backend, ids[1], direction=2, symbol=3)
        kinds = {(e.controller_id, e.kind, e.state.number, e.state.direction) for e in backend.events()}
        assert (ids[0], EventKind.WHEEL, 7, 0) in kinds
        assert (ids[1], EventKind.WHEEL, 0, 2) in {(c, k, n, d) for c, k, n, d in kinds if c == ids[1]}
        a.press()
        event = wait_for(backend, lambda e: e.kind == EventKind.PRESSED)
        assert event.controller_id == ids[0]
        states = backend.states()
        assert (states[ids[0]].number, states[ids[0]].button) == (7, True)
        assert (states[ids[1]].direction_name, states[ids[1]].symbol_name) == ("right", "D")
        assert backend.ports() == {ids[0]: a.port, ids[1]: b.port}


def test_wheel_events_never_show_a_position_the_wheel_did_not_settle_on(boards: list[PtyBoard]) -> None:
    a = boards[0]
    cid = a.world.uid.hex()
    settle_s = a.config["wheel_settle_ms"] / 1000
    seen: list[ControllerEvent] = []
    rests: dict[int, float] = {}
    with backend_for(Usb(a)) as backend:
        wait_state(backend, cid, number=0)
        # Sweep from 0 to 9 quickly, resting briefly on each position, then stay on 9.
        for pos in range(1, 10):
            a.set_raw("number", 0)
            time.sleep(0.002)
            before = time.monotonic()
            a.turn("number", pos)
            time.sleep(0.01)
            if pos < 9:
                a.set_raw("number", 0)
            rests[pos] = time.monotonic() - before  # at least as long as the wheel rested there
        wait_state(backend, cid, number=9)
        seen.extend(backend.events())
    # Only positions the wheel really rested on for the settle time may show (9, and any position
    # where this test's thread was held up long enough).
    allowed = {None, 0, 9} | {pos for pos, rest in rests.items() if rest >= settle_s}
    numbers = [e.state.number for e in seen if e.kind == EventKind.WHEEL]
    assert 9 in numbers
    assert set(numbers) <= allowed


def test_unplug_and_replug_are_survived(boards: list[PtyBoard]) -> None:
    a, b = boards
    ida, idb = a.world.uid.hex(), b.world.uid.hex()
    seen: list[ControllerEvent] = []
    with backend_for(Usb(a, b)) as backend:
        a.turn("number", 4)
        wait_state(backend, ida, number=4)
        wait_state(backend, idb, number=0)
        backend.set_led(ida, LedMode.ON)
        a.unplug()
        gone = wait_for(backend, lambda e: e.kind == EventKind.DISCONNECTED, seen=seen)
        assert gone.controller_id == ida and gone.state.number is None
        assert "unplugged" in gone.detail
        # The other controller is not disturbed.
        b.turn("symbol", 2)
        wait_state(backend, idb, symbol=2)
        assert backend.state(idb).connected
        # Turned while unplugged, then plugged in again: a new port, same id, current state, LED restored.
        a.turn("number", 5)
        a.plug()
        back = wait_for(backend, lambda e: e.kind == EventKind.CONNECTED and e.controller_id == ida, seen=seen)
        assert back.state.connected and back.state.number == 5  # comes back settled, not "turning"
        wait_state(backend, ida, number=5)
        seen.extend(backend.events())
        deadline = time.monotonic() + 1.0
        while a.led != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert a.led == 1
        counters = backend.counters(ida)
        assert counters["disconnects"] == 1 and counters["connects"] == 2
    assert not any(e.kind == EventKind.DISCONNECTED and e.controller_id == idb for e in seen)


def test_a_silent_board_is_marked_disconnected_and_comes_back(boards: list[PtyBoard]) -> None:
    a = boards[0]
    cid = a.world.uid.hex()
    with backend_for(Usb(a), heartbeat_timeout=0.3) as backend:
        wait_for(backend, settled(backend, cid, number=0))
        a.mute()
        muted_at = time.monotonic()
        gone = wait_for(backend, lambda e: e.kind == EventKind.DISCONNECTED)
        assert 0.25 < time.monotonic() - muted_at < 3.0
        assert "heartbeat" in gone.detail
        a.mute(False)
        wait_for(backend, lambda e: e.kind == EventKind.CONNECTED)
        assert backend.counters(cid)["silent"] == 1


@pytest.mark.parametrize("noise, kinds", [
    (framing.encode_frame(b"\x01\x02\x00\x07\x00\x00\x00\x01\x00\x00\x00")[:-3] + b"\x00", {"crc", "cobs", "short"}),
    (bytes(range(1, 200)) + b"\x00", {"crc", "cobs"}),
    (b"\x00\x05\xff\xee\x00", {"cobs"}),
    (b"\x00" + framing.encode_frame(bytes([9, protocol.STATE, 0, 1, 2, 2, 2, 0, 0, 0, 0, 0])), {"version"}),
    (b"\x00" + framing.encode_frame(bytes([1, protocol.STATE, 0, 1, 2, 2, 2])), {"length"}),
    (b"\x00" + framing.encode_frame(bytes([1, 0x77, 0, 1])), {"type"}),
    (b"\x00" + framing.encode_frame(bytes([1, protocol.STATE, 0, 1, 2, 2, 2, 7, 0, 0, 0, 0])), {"field"}),
])
def test_bad_bytes_are_counted_reported_and_harmless(boards: list[PtyBoard], noise: bytes, kinds: set[str]) -> None:
    a = boards[0]
    cid = a.world.uid.hex()
    a.turn("number", 3)
    with backend_for(Usb(a), error_interval=0.0) as backend:
        wait_state(backend, cid, number=3)
        for _ in range(3):
            a.inject(noise)
        error = wait_for(backend, lambda e: e.kind == EventKind.ERROR)
        assert "bad frame" in error.detail
        deadline = time.monotonic() + 1.0
        while sum(backend.counters(cid).get(k, 0) for k in kinds) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sum(backend.counters(cid).get(k, 0) for k in kinds) >= 3
        # Still connected, still the right number, and later changes still arrive.
        assert backend.state(cid).connected and backend.state(cid).number == 3
        a.turn("number", 8)
        wait_state(backend, cid, number=8)


def test_positions_out_of_the_wheel_range_are_refused(boards: list[PtyBoard]) -> None:
    a = boards[0]
    cid = a.world.uid.hex()
    a.turn("number", 3)
    seen: list[ControllerEvent] = []
    with backend_for(Usb(a)) as backend:
        wait_for(backend, settled(backend, cid, number=3), seen=seen)
        a.mute()  # only the forged frames reach the host now
        forged = protocol.encode(protocol.STATE, 5000, direction=0, number=12, symbol=0, button=0, led=0, flags=1,
                                 rx_errors=0)
        a.inject(b"\x00" + framing.encode_frame(forged))
        error = wait_for(backend, lambda e: e.kind == EventKind.ERROR, seen=seen)
        assert "position 12" in error.detail
        assert backend.state(cid).number is None
        assert backend.counters(cid)["position"] == 1
    assert all(e.state.number in (None, 3) for e in seen)


def test_a_wheel_between_positions_is_reported(boards: list[PtyBoard]) -> None:
    a = boards[0]
    cid = a.world.uid.hex()
    with backend_for(Usb(a)) as backend:
        wait_for(backend, settled(backend, cid, symbol=0))
        a.set_raw("symbol", 0)
        error = wait_for(backend, lambda e: e.kind == EventKind.ERROR)
        assert "symbol wheel reads between two positions" in error.detail
        assert backend.state(cid).symbol is None
        assert backend.counters(cid)["between"] == 1


def test_explicit_ports_and_set_led(boards: list[PtyBoard]) -> None:
    a = boards[0]
    cid = a.world.uid.hex()
    with SerialBackend([a.port], rescan_interval=0.05) as backend:
        wait_for(backend, lambda e: e.kind == EventKind.CONNECTED)
        backend.set_led(cid, LedMode.ON)
        wait_state(backend, cid, led=LedMode.ON)
        assert a.led == 1
        with pytest.raises(ControllerError, match="unknown controller"):
            backend.set_led("nope", LedMode.ON)


def test_a_port_that_is_not_a_bitbox_board_is_reported_once_and_left_alone(tmp_path) -> None:
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        with SerialBackend([port], rescan_interval=0.02, hello_timeout=0.05, hello_attempts=1,
                           retry_interval=0.05) as backend:
            error = wait_for(backend, lambda e: e.kind == EventKind.ERROR)
            assert "no answer" in error.detail and port in error.detail
            time.sleep(0.5)
            assert [e for e in backend.events() if e.kind == EventKind.ERROR] == []
            assert 2 <= backend.counters(port)["unanswered"] <= 5  # asked again, less and less often
            assert backend.states() == {}
        # Each probe ended with Ctrl-B, so a plain MicroPython board is back at its normal prompt (the
        # last probe may have been cut short by close()).
        os.set_blocking(master, False)
        sent = os.read(master, 4096)
        assert sent.count(b"\r\x02") >= max(1, sent.count(b"\x00") - 1)
    finally:
        os.close(master)
        os.close(slave)


def test_a_board_with_another_protocol_version_is_named(tmp_path) -> None:
    import select
    import threading
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def newer_firmware() -> None:
        decoder = framing.FrameDecoder()
        while not stop.is_set():
            if not select.select([master], [], [], 0.01)[0]:
                continue
            for item in decoder.feed(os.read(master, 1024)):
                if isinstance(item, bytes):
                    reply = bytearray(protocol.encode(protocol.HELLO, 0, reply_to=protocol.peek(item)[2], profile=0,
                                                      uid=b"\x09" * 8, version="2.0.0"))
                    reply[0] = 2
                    os.write(master, framing.encode_frame(bytes(reply)))

    thread = threading.Thread(target=newer_firmware, daemon=True)
    thread.start()
    try:
        port = os.ttyname(slave)
        with SerialBackend([port], rescan_interval=0.05, hello_timeout=0.2) as backend:
            error = wait_for(backend, lambda e: e.kind == EventKind.ERROR and "firmware flash" in e.detail)
            assert "protocol version 2" in error.detail and "bitbox firmware flash" in error.detail
            assert backend.states() == {}
            assert backend.counters(port)["version"] >= 1
    finally:
        stop.set()
        thread.join()
        os.close(master)
        os.close(slave)


def test_close_is_quick_and_idempotent(boards: list[PtyBoard]) -> None:
    backend = backend_for(Usb(*boards))
    backend.start()
    wait_for(backend, lambda e: e.kind == EventKind.CONNECTED)
    start = time.monotonic()
    backend.close()
    backend.close()
    assert time.monotonic() - start < 3.0
    assert backend.closed


def test_every_greeted_board_is_read_by_one_thread(tmp_path) -> None:
    import threading

    made = [PtyBoard(uid=bytes([0xE6, 0x61, 0x10 + i, 4, 3, 0x12, 0x34, 0x56]), storage_dir=tmp_path / f"m{i}", seed=i)
            for i in range(4)]
    try:
        with backend_for(Usb(*made)) as backend:
            ids = [b.world.uid.hex() for b in made]
            for cid in ids:
                wait_state(backend, cid, number=0)
            deadline = time.monotonic() + 2.0
            while any(t.name.startswith("serial-/") for t in threading.enumerate()) and time.monotonic() < deadline:
                time.sleep(0.01)
            names = [t.name for t in threading.enumerate() if t.name.startswith("serial-")]
            assert sorted(names) == ["serial-reader", "serial-supervisor"]
            # Turned at the same moment, each board's own position reaches the host.
            for i, board in enumerate(made):
                board.turn("number", 2 + i)
            for i, cid in enumerate(ids):
                wait_state(backend, cid, number=2 + i)
            assert all(e.state.number in (None, 0, 2 + ids.index(e.controller_id))
                       for e in backend.events() if e.kind == EventKind.WHEEL)
    finally:
        for board in made:
            board.close()


class NoDescriptor:
    """A pyserial port that offers no file descriptor (as a ``loop://`` or ``socket://`` URL)."""

    def __init__(self, *args, **kwargs) -> None:
        import serial

        self._port = serial.Serial(*args, **kwargs)

    def fileno(self) -> int:
        raise AttributeError("no file descriptor")

    def __getattr__(self, name: str):
        return getattr(self._port, name)


def test_a_port_without_a_file_descriptor_is_read_on_its_own_thread(boards: list[PtyBoard]) -> None:
    import threading

    a = boards[0]
    cid = a.world.uid.hex()
    with backend_for(Usb(a), serial_factory=NoDescriptor) as backend:
        wait_state(backend, cid, number=0)
        assert any(t.name == f"serial-{a.port}" for t in threading.enumerate())
        a.turn("number", 6)
        wait_state(backend, cid, number=6)
        a.unplug()
        gone = wait_for(backend, lambda e: e.kind == EventKind.DISCONNECTED)
        assert gone.controller_id == cid and "unplugged" in gone.detail


def test_a_board_unplugged_while_others_turn_leaves_them_undisturbed(tmp_path) -> None:
    made = [PtyBoard(uid=bytes([0xE6, 0x61, 0x20 + i, 4, 3, 0x12, 0x34, 0x56]), storage_dir=tmp_path / f"u{i}", seed=i)
            for i in range(3)]
    ids = [b.world.uid.hex() for b in made]
    seen: list[ControllerEvent] = []
    try:
        with backend_for(Usb(*made)) as backend:
            for cid in ids:
                wait_state(backend, cid, number=0)
            for round_ in range(1, 4):
                made[0].unplug()
                made[1].turn("number", round_)
                made[2].turn("symbol", round_)
                wait_for(backend, lambda e: e.kind == EventKind.DISCONNECTED and e.controller_id == ids[0], seen=seen)
                wait_state(backend, ids[1], number=round_)
                wait_state(backend, ids[2], symbol=round_)
                made[0].plug()
                wait_for(backend, lambda e: e.kind == EventKind.CONNECTED and e.controller_id == ids[0], seen=seen)
            seen.extend(backend.events())
            assert backend.counters(ids[0])["disconnects"] == 3
    finally:
        for board in made:
            board.close()
    assert not any(e.kind == EventKind.DISCONNECTED and e.controller_id != ids[0] for e in seen)
