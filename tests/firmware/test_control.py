"""The board's logic (firmware/board/control.py) under CPython, against the fake machine module."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from firmware.board import framing, protocol
from firmware.board.app import make_io
from firmware.board.control import FIRMWARE_VERSION, UNSOLICITED, Controller
from firmware.board.ladder import Ladder
from tests.firmware.fake_board import Bench


def profile_body(ladders: dict[str, Ladder]) -> bytes:
    data = {"format": 1, "ladders": {name: ladder.to_list() for name, ladder in ladders.items()}}
    return json.dumps(data, separators=(",", ":")).encode()


def shifted(bench: Bench, shift: int) -> dict[str, Ladder]:
    """The nominal ladders with every centre moved by ``shift`` (a board that reads high)."""
    return {name: Ladder([c + shift for c in ladder.centres], ladder.hysteresis)
            for name, ladder in bench.nominal.items()}


# ---- start-up ------------------------------------------------------------------------------

def test_says_hello_at_start_then_reports_settled_positions(bench: Bench) -> None:
    bench.turn("direction", 3)
    bench.turn("number", 9)
    bench.turn("symbol", 2)
    bench.run(1)
    first = bench.messages()
    assert first[0].kind == protocol.HELLO
    assert first[0].reply_to == UNSOLICITED
    assert first[0].uid == bench.world.uid and first[0].version == FIRMWARE_VERSION
    assert first[0].profile == protocol.PROFILE_DEFAULT
    assert (first[1].direction, first[1].number, first[1].symbol) == (protocol.TURNING,) * 3
    bench.run(60)
    last = bench.states()[-1]
    assert (last.direction, last.number, last.symbol, last.button) == (3, 9, 2, 0)
    assert last.flags & protocol.FLAG_PROFILE_DEFAULT


def test_scans_once_per_period_without_catching_up(bench: Bench) -> None:
    period = 1000 // bench.config["scan_hz"]
    bench.run(100)
    assert bench.ctl.scans == 100 // period
    # Steps closer together than the period do not scan more often.
    scans = bench.ctl.scans
    for _ in range(10):
        bench.ctl.step(bench.now)
    assert bench.ctl.scans == scans
    # A step 50 ms late scans once, not 50 times.
    bench.now += 50
    bench.ctl.step(bench.now)
    assert bench.ctl.scans == scans + 1
    # Each scan averages `average` conversions per wheel.
    reads = bench.world.adc_reads
    bench.run(period)
    assert bench.world.adc_reads - reads == 3 * bench.config["average"]


def test_scan_rate_is_at_least_500_hz_as_configured(bench: Bench) -> None:
    assert bench.config["scan_hz"] >= 500
    bench.run(1000)
    assert bench.ctl.scans >= 500


# ---- thresholds and debounce ----------------------------------------------------------------

@pytest.mark.parametrize("wheel", ["direction", "number", "symbol"])
def test_every_position_reads_back(bench: Bench, wheel: str) -> None:
    for position in range(len(bench.nominal[wheel])):
        bench.turn(wheel, position)
        bench.run(bench.config["wheel_settle_ms"] + 5)
        assert getattr(bench.states()[-1], wheel) == position


def test_readings_near_a_band_edge_keep_the_position_by_hysteresis(bench: Bench) -> None:
    bench.world.noise_lsb = 0
    ladder = bench.nominal["number"]
    bench.turn("number", 4)
    bench.run(60)
    bench.messages()
    # Just outside position 4's band, but within the hysteresis: still 4, nothing sent as a change.
    bench.set_raw("number", ladder.highs[4] + ladder.hysteresis // 2)
    bench.run(60)
    states = bench.states()
    assert all(s.number == 4 for s in states)
    assert not any(s.flags & protocol.FLAG_CHANGE for s in states)


def test_a_turn_reports_turning_at_once_and_the_new_position_after_settling(bench: Bench) -> None:
    settle = bench.config["wheel_settle_ms"]
    bench.turn("number", 2)
    bench.run(settle + 5)
    bench.messages()
    bench.turn("number", 3)
    bench.run(2)
    changes = [s for s in bench.states() if s.flags & protocol.FLAG_CHANGE]
    assert changes and changes[0].number == protocol.TURNING
    bench.run(settle - 10)
    assert all(s.number == protocol.TURNING for s in bench.states())
    bench.run(15)
    changes = [s for s in bench.states() if s.flags & protocol.FLAG_CHANGE]
    assert changes[-1].number == 3


def test_a_wiper_bouncing_through_other_positions_never_reports_them(bench: Bench) -> None:
    bench.turn("number", 2)
    bench.run(60)
    bench.messages()
    # Turning from 2 to 5 passes 3 and 4, each for less than the settle time, with gaps of no contact.
    for pos in (3, 4):
        bench.set_raw("number", 0)
        bench.run(3)
        bench.turn("number", pos)
        bench.run(10)
    bench.set_raw("number", 0)
    bench.run(3)
    bench.turn("number", 5)
    bench.run(60)
    reported = {s.number for s in bench.states()}
    assert reported == {protocol.TURNING, 5}


def test_no_contact_for_long_reports_between(bench: Bench) -> None:
    between = bench.config["between_ms"]
    bench.run(60)
    bench.messages()
    bench.set_raw("symbol", 0)
    bench.run(between - 20)
    assert {s.symbol for s in bench.states()} == {protocol.TURNING}
    bench.run(30)
    assert bench.states()[-1].symbol == protocol.BETWEEN
    bench.turn("symbol", 1)
    bench.run(bench.config["wheel_settle_ms"] + 5)
    assert bench.states()[-1].symbol == 1


def test_button_is_debounced(bench: Bench) -> None:
    press_ms = bench.config["button_press_ms"]
    bench.run(60)
    bench.messages()
    # A 5 ms glitch is not a press.
    bench.press()
    bench.run(5)
    bench.press(False)
    bench.run(150)
    states = bench.states()
    assert states and all(s.button == 0 for s in states)
    bench.press()
    bench.run(press_ms + 2)
    assert bench.states()[-1].button == 1
    bench.press(False)
    bench.run(bench.config["button_release_ms"] + 2)
    assert bench.states()[-1].button == 0


# ---- heartbeat -----------------------------------------------------------------------------

def test_heartbeat_every_100_ms_when_nothing_changes(bench: Bench) -> None:
    heartbeat = bench.config["heartbeat_ms"]
    bench.run(100)
    bench.messages()
    bench.run(1000)
    states = bench.states()
    assert len(states) == 1000 // heartbeat
    assert not any(s.flags & protocol.FLAG_CHANGE for s in states)
    seqs = [s.seq for s in states]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))


def test_a_change_is_sent_at_once_and_restarts_the_heartbeat(bench: Bench) -> None:
    bench.world.noise_lsb = 0
    bench.run(100)
    bench.messages()
    bench.run(30)
    bench.ctl.led_mode = protocol.LED_ON  # any change of the reported state
    bench.run(1)
    states = bench.states()
    assert len(states) == 1 and states[0].flags & protocol.FLAG_CHANGE and states[0].led == protocol.LED_ON
    bench.run(bench.config["heartbeat_ms"] - 2)
    assert bench.states() == []
    bench.run(2)
    assert len(bench.states()) == 1


# ---- commands ------------------------------------------------------------------------------

def test_ping_and_hello(bench: Bench) -> None:
    bench.run(5)
    bench.messages()
    (pong,) = bench.command(protocol.PING, seq=41, token=0xCAFEF00D)
    assert (pong.kind, pong.reply_to, pong.token) == (protocol.PONG, 41, 0xCAFEF00D)
    (hello,) = bench.command(protocol.HELLO_REQ, seq=42)
    assert (hello.kind, hello.reply_to, hello.uid) == (protocol.HELLO, 42, bench.world.uid)


def test_set_led_on_off_blink(bench: Bench) -> None:
    blink = bench.config["blink_ms"]
    bench.run(5)
    (ack,) = bench.command(protocol.SET_LED, seq=7, mode=protocol.LED_ON)
    assert (ack.kind, ack.reply_to, ack.command, ack.status) == (protocol.ACK, 7, protocol.SET_LED, protocol.OK)
    bench.run(1)
    assert bench.led == 1
    assert bench.states()[-1].led == protocol.LED_ON
    bench.command(protocol.SET_LED, mode=protocol.LED_BLINK)
    levels = []
    for _ in range(4 * blink):
        bench.run(1)
        levels.append(bench.led)
    toggles = sum(1 for a, b in zip(levels, levels[1:]) if a != b)
    assert 3 <= toggles <= 4
    bench.command(protocol.SET_LED, mode=protocol.LED_OFF)
    bench.run(1)
    assert bench.led == 0


def test_raw_readings_for_calibration(bench: Bench) -> None:
    bench.turn("direction", 5)
    bench.set_raw("number", 12345)
    bench.press()
    bench.run(5)
    bench.messages()
    (raw,) = bench.command(protocol.READ_RAW, seq=3)
    assert raw.kind == protocol.RAW and raw.reply_to == 3
    assert abs(raw.direction - bench.nominal["direction"].centres[5]) < 16 * 4
    assert abs(raw.number - 12345) < 16 * 4
    assert raw.button == 1


def test_store_calibration_is_used_at_once_and_after_a_reboot(bench: Bench) -> None:
    bench.world.noise_lsb = 0
    ladders = shifted(bench, 1500)
    body = profile_body(ladders)
    # The wheel reads 1500 above nominal: with the nominal ladder that falls in a dead zone.
    bench.set_raw("number", ladders["number"].centres[6])
    bench.run(5)
    bench.messages()
    (ack,) = bench.command(protocol.STORE_PROFILE, seq=9, checksum=zlib.crc32(body), profile=body)
    assert (ack.kind, ack.reply_to, ack.status) == (protocol.ACK, 9, protocol.OK)
    bench.run(bench.config["wheel_settle_ms"] + 5)
    last = bench.states()[-1]
    assert last.number == 6
    assert not last.flags & (protocol.FLAG_PROFILE_DEFAULT | protocol.FLAG_PROFILE_CORRUPT)
    assert (bench.root / "profile.json").exists()
    # Power cycle: the stored profile is loaded and checked.
    bench.boot()
    bench.run(bench.config["wheel_settle_ms"] + 5)
    msgs = bench.messages()
    assert msgs[0].kind == protocol.HELLO and msgs[0].profile == protocol.PROFILE_STORED
    assert msgs[-1].number == 6


def test_store_calibration_with_a_wrong_checksum_is_refused_and_changes_nothing(bench: Bench) -> None:
    good = profile_body(bench.nominal)
    bench.command(protocol.STORE_PROFILE, seq=1, checksum=zlib.crc32(good), profile=good)
    stored = (bench.root / "profile.json").read_bytes()
    other = profile_body(shifted(bench, 900))
    (ack,) = bench.command(protocol.STORE_PROFILE, seq=2, checksum=zlib.crc32(other) ^ 1, profile=other)
    assert (ack.status, ack.reply_to) == (protocol.BAD_CHECKSUM, 2)
    assert "checksum" in ack.text
    assert (bench.root / "profile.json").read_bytes() == stored


@pytest.mark.parametrize("body, words", [
    (b"not json", "JSON"),
    (b'{"format":2,"ladders":{}}', "format"),
    (b'{"format":1,"ladders":{"direction":[1,0,2,0,100,200,150,300,400]}}', "overlap"),
])
def test_store_calibration_with_a_bad_profile_is_refused(bench: Bench, body: bytes, words: str) -> None:
    (ack,) = bench.command(protocol.STORE_PROFILE, seq=4, checksum=zlib.crc32(body), profile=body)
    assert ack.status == protocol.BAD_PROFILE
    assert words in ack.text
    assert not (bench.root / "profile.json").exists()


def test_store_calibration_with_the_wrong_number_of_positions_is_refused(bench: Bench) -> None:
    ladders = dict(bench.nominal)
    ladders["symbol"] = Ladder([10000, 20000, 30000], 100)
    body = profile_body(ladders)
    (ack,) = bench.command(protocol.STORE_PROFILE, checksum=zlib.crc32(body), profile=body)
    assert ack.status == protocol.BAD_PROFILE and "symbol" in ack.text


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage"])
def test_a_corrupt_stored_profile_falls_back_to_nominal_and_says_so(bench: Bench, damage: str) -> None:
    body = profile_body(shifted(bench, 1500))
    bench.command(protocol.STORE_PROFILE, checksum=zlib.crc32(body), profile=body)
    path = bench.root / "profile.json"
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[-5] ^= 0x10
    elif damage == "truncate":
        del data[len(data) // 2:]
    else:
        data[:] = b"\xff\xfe nonsense"
    path.write_bytes(bytes(data))
    bench.world.noise_lsb = 0
    bench.turn("number", 8)
    bench.boot()
    bench.run(bench.config["wheel_settle_ms"] + 5)
    msgs = bench.messages()
    assert msgs[0].kind == protocol.HELLO and msgs[0].profile == protocol.PROFILE_CORRUPT
    assert msgs[-1].flags & protocol.FLAG_PROFILE_CORRUPT
    assert msgs[-1].number == 8  # the nominal ladder reads the nominal centre


def test_commands_in_another_version_are_refused_but_stop_and_bootloader_are_obeyed(bench: Bench) -> None:
    bench.run(5)
    bench.messages()
    ping = bytearray(protocol.encode(protocol.PING, 5, token=1))
    ping[0] = 9
    bench.ctl.feed(framing.encode_frame(bytes(ping)))
    (ack,) = [m for m in bench.messages() if m.kind != protocol.STATE]
    assert (ack.status, ack.reply_to) == (protocol.BAD_VERSION, 5)
    assert bench.ctl.action is None
    stop = bytes([7, protocol.STOP, 0, 6])
    bench.ctl.feed(framing.encode_frame(stop))
    (ack,) = [m for m in bench.messages() if m.kind != protocol.STATE]
    assert (ack.status, ack.command) == (protocol.OK, protocol.STOP)
    assert bench.ctl.action == "stop"


def test_bootloader_command_sets_the_action(bench: Bench) -> None:
    (ack,) = bench.command(protocol.BOOTLOADER, seq=8)
    assert ack.status == protocol.OK and bench.ctl.action == "bootloader"


def test_bad_frames_and_unknown_commands_are_counted_and_answered(bench: Bench) -> None:
    bench.run(5)
    bench.ctl.feed(b"\x05garbage\x00\x02\x01\x00")
    assert bench.ctl.rx_errors == 2
    (ack,) = bench.command(protocol.PONG, seq=12, reply_to=1, token=2)  # a board message sent to the board
    assert ack.status == protocol.UNKNOWN_COMMAND and ack.reply_to == 12
    bench.ctl.feed(framing.encode_frame(bytes([protocol.VERSION, 0x99, 0, 13])))
    (ack,) = [m for m in bench.messages() if m.kind != protocol.STATE]
    assert ack.status == protocol.UNKNOWN_COMMAND and ack.reply_to == 13
    bench.ctl.feed(framing.encode_frame(protocol.encode(protocol.SET_LED, 14, mode=1)[:-1]))
    (ack,) = [m for m in bench.messages() if m.kind != protocol.STATE]
    assert ack.status == protocol.BAD_REQUEST
    bench.run(bench.config["heartbeat_ms"])
    assert bench.states()[-1].rx_errors == bench.ctl.rx_errors == 5


def test_a_command_split_across_reads_is_obeyed(bench: Bench) -> None:
    frame = framing.encode_frame(protocol.encode(protocol.PING, 3, token=77))
    for byte in frame:
        bench.ctl.feed(bytes([byte]))
    pongs = [m for m in bench.messages() if m.kind == protocol.PONG]
    assert [p.token for p in pongs] == [77]


def test_controller_without_storage_uses_nominal_ladders(tmp_path: Path) -> None:
    b = Bench(tmp_path)
    adcs, button, led = make_io(b.machine, b.config)
    ctl = Controller(adcs, button, led, b.out.extend, b.config, None, b.world.uid)
    assert ctl.profile_status == protocol.PROFILE_DEFAULT
    ctl.feed(framing.encode_frame(protocol.encode(protocol.STORE_PROFILE, 1, checksum=0, profile=b"{}")))
    acks = [m for m in b.messages() if m.kind == protocol.ACK]
    assert acks[-1].status == protocol.STORAGE_FAILED
