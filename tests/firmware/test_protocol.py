"""The message layer: round trips, refusals, the documented examples, and fuzzing of the whole decoder."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.board import framing, protocol
from firmware.board.framing import FrameDecoder, FrameError, encode_frame
from firmware.board.protocol import Message, decode, encode

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "firmware" / "PROTOCOL.md"

EXAMPLES = [
    (protocol.HELLO, dict(reply_to=3, profile=protocol.PROFILE_CORRUPT, uid=b"\xe6\x61\x41\x04", version="1.0.0")),
    (protocol.STATE, dict(direction=7, number=protocol.TURNING, symbol=protocol.BETWEEN, button=1,
                          led=protocol.LED_BLINK, flags=5, rx_errors=65535)),
    (protocol.PONG, dict(reply_to=65535, token=0xDEADBEEF)),
    (protocol.RAW, dict(reply_to=1, direction=0, number=65535, symbol=1234, button=0)),
    (protocol.ACK, dict(reply_to=9, command=protocol.STORE_PROFILE, status=protocol.BAD_CHECKSUM, text="bad crc")),
    (protocol.HELLO_REQ, {}),
    (protocol.PING, dict(token=0)),
    (protocol.SET_LED, dict(mode=protocol.LED_ON)),
    (protocol.READ_RAW, {}),
    (protocol.STORE_PROFILE, dict(checksum=0x12345678, profile=b'{"format":1}\x00\xff')),
    (protocol.STOP, {}),
    (protocol.BOOTLOADER, {}),
]


@pytest.mark.parametrize("kind, fields", EXAMPLES, ids=[protocol.NAMES[k] for k, _ in EXAMPLES])
def test_round_trip_every_type(kind: int, fields: dict) -> None:
    payload = encode(kind, 513, **fields)
    assert payload[:4] == bytes([protocol.VERSION, kind, 2, 1])
    msg = decode(payload)
    assert msg == Message(kind, 513, fields)
    for key, value in fields.items():
        assert getattr(msg, key) == value
    # and through a frame
    assert FrameDecoder().feed(encode_frame(payload)) == [payload]


@pytest.mark.parametrize("kind, fields", EXAMPLES, ids=[protocol.NAMES[k] for k, _ in EXAMPLES])
def test_truncated_or_padded_payloads_are_refused(kind: int, fields: dict) -> None:
    payload = encode(kind, 1, **fields)
    for extra in (b"\x00", b"\x20", b"\x00\x00"):
        with pytest.raises(protocol.LengthError):
            decode(payload + extra)
    for cut in range(protocol.HEADER_SIZE, len(payload)):
        with pytest.raises(protocol.LengthError):
            decode(payload[:cut])


def test_trailing_zeros_after_the_crc_pass_the_crc_but_not_the_length_check() -> None:
    # CRC-16/CCITT-FALSE has no final XOR: payload + CRC + 0x00 checks out as "payload + CRC high byte"
    # with CRC (low byte, 0x00). Only the exact payload length stops such a frame.
    payload = encode(protocol.HELLO, 3, reply_to=1, profile=0, uid=b"\x01\x02", version="1.0.0")
    body = payload + framing.crc16(payload).to_bytes(2, "big") + b"\x00"
    forged = framing.decode_frame(framing.cobs_encode(body))
    assert forged == payload + body[-3:-2]
    with pytest.raises(protocol.LengthError):
        decode(forged)


def test_other_version_is_refused() -> None:
    payload = bytearray(encode(protocol.PING, 1, token=5))
    payload[0] = 2
    with pytest.raises(protocol.VersionError) as info:
        decode(bytes(payload))
    assert info.value.KIND == "version"
    assert "version 2" in str(info.value)


def test_unknown_type_and_bad_fields_are_refused() -> None:
    with pytest.raises(protocol.UnknownTypeError):
        decode(bytes([protocol.VERSION, 0x42, 0, 0]))
    state = bytearray(encode(protocol.STATE, 1, direction=1, number=2, symbol=3, button=0, led=0, flags=0,
                             rx_errors=0))
    state[7] = 2  # button neither 0 nor 1
    with pytest.raises(protocol.FieldError):
        decode(bytes(state))
    ack = bytearray(encode(protocol.ACK, 1, reply_to=1, command=0x83, status=0, text="x"))
    ack[-1] = 0x07
    with pytest.raises(protocol.FieldError):
        decode(bytes(ack))
    with pytest.raises(protocol.LengthError):
        decode(b"\x01\x02")


def test_protocol_errors_are_frame_errors() -> None:
    # One family of exceptions for everything the decoder refuses.
    for cls in (protocol.VersionError, protocol.UnknownTypeError, protocol.LengthError, protocol.FieldError):
        assert issubclass(cls, FrameError) and issubclass(cls, ValueError)


def test_encode_checks_its_arguments() -> None:
    with pytest.raises(ValueError):
        encode(protocol.SET_LED, 1, mode=7)
    with pytest.raises(ValueError):
        encode(protocol.PING, 1)
    with pytest.raises(ValueError):
        encode(protocol.PING, 1, token=1, extra=2)
    with pytest.raises(ValueError):
        encode(protocol.PONG, 1, reply_to=70000, token=1)
    with pytest.raises(ValueError):
        encode(0x44, 1)
    with pytest.raises(ValueError):
        encode(protocol.ACK, 1, reply_to=1, command=1, status=0, text="tab\there")


def _doc_examples() -> list[tuple[str, bytes]]:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    return [(m.group(0), bytes.fromhex(m.group(1))) for m in re.finditer(r"^frame +([0-9a-f ]+)$", text, re.M)]


def test_protocol_md_frames_are_real_frames() -> None:
    examples = _doc_examples()
    assert len(examples) >= 5
    decoded = []
    for line, frame in examples:
        out = FrameDecoder().feed(frame)
        assert len(out) == 1 and isinstance(out[0], bytes), line
        decoded.append(decode(out[0]))
    state = decoded[0]
    assert (state.name, state.seq, state.direction, state.number, state.symbol, state.button, state.led,
            state.flags) == ("STATE", 0x0102, 2, 7, 0, 1, 1, 1)
    hello = [m for m in decoded if m.kind == protocol.HELLO][0]
    assert hello.uid.hex() == "e661410403123456" and hello.version == "1.0.0"
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    assert "payload  01 02 01 02 02 07 00 01 01 01 00 00" in text
    assert "CRC      %02x %02x" % divmod(framing.crc16(bytes.fromhex("010201020207000101010000")), 256) in text


def _stream(rng: random.Random, n: int) -> tuple[bytes, list[Message]]:
    messages = []
    out = bytearray()
    for seq in range(n):
        kind, fields = EXAMPLES[rng.randrange(len(EXAMPLES))]
        payload = encode(kind, seq, **fields)
        messages.append(decode(payload))
        out += encode_frame(payload)
    return bytes(out), messages


def _accept(dec: FrameDecoder, data: bytes) -> list[Message]:
    accepted = []
    for item in dec.feed(data):
        if isinstance(item, bytes):
            try:
                accepted.append(decode(item))
            except protocol.ProtocolError:
                pass
        else:
            assert isinstance(item, FrameError)
    return accepted


@given(st.binary(max_size=400))
@settings(max_examples=3000, deadline=None)
def test_fuzz_random_bytes_are_never_a_message(data: bytes) -> None:
    assert _accept(FrameDecoder(), data) == []


@given(st.integers(0, 2**32 - 1), st.lists(st.tuples(st.sampled_from(["flip", "drop", "insert", "zero"]),
                                                     st.integers(0, 10**6), st.integers(0, 255)), max_size=4))
@settings(max_examples=1500, deadline=None)
def test_fuzz_corrupted_streams_never_yield_a_message_that_was_not_sent(seed: int, edits: list) -> None:
    rng = random.Random(seed)
    stream, sent = _stream(rng, 6)
    data = bytearray(stream)
    for op, pos, value in edits:
        pos %= len(data) or 1
        if op == "flip":
            data[pos] ^= 1 << (value % 8)
        elif op == "drop" and data:
            del data[pos]
        elif op == "insert":
            data.insert(pos, value)
        else:
            data[pos] = 0
    got = _accept(FrameDecoder(), bytes(data))
    for msg in got:
        assert msg in sent
    if not edits:
        assert got == sent
