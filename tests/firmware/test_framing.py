"""COBS + CRC-16 framing: the one implementation shared by the board and the host."""

from __future__ import annotations

import binascii
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.board import framing
from firmware.board.framing import FrameDecoder, FrameError, cobs_decode, cobs_encode, crc16, decode_frame, encode_frame


def test_crc16_check_value() -> None:
    # The catalogued check value of CRC-16/CCITT-FALSE.
    assert crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=600), st.integers(0, 0xFFFF))
@settings(max_examples=500, deadline=None)
def test_crc16_matches_binascii_crc_hqx(data: bytes, start: int) -> None:
    assert crc16(data, start) == binascii.crc_hqx(data, start)


@pytest.mark.parametrize("data, encoded", [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
])
def test_cobs_known_vectors(data: bytes, encoded: bytes) -> None:
    # Vectors from the COBS paper (Cheshire & Baker) and its Wikipedia table.
    assert cobs_encode(data) == encoded
    assert cobs_decode(encoded) == data


@given(st.binary(max_size=2000))
@settings(max_examples=400, deadline=None)
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(encoded) == data


@given(st.binary(min_size=1, max_size=framing.MAX_PAYLOAD))
@settings(max_examples=300, deadline=None)
def test_frame_round_trip(payload: bytes) -> None:
    frame = encode_frame(payload)
    assert frame.endswith(b"\x00") and frame.count(0) == 1
    assert decode_frame(frame[:-1]) == payload


def test_encode_refuses_empty_and_oversized_payloads() -> None:
    with pytest.raises(ValueError):
        encode_frame(b"")
    with pytest.raises(ValueError):
        encode_frame(bytes(framing.MAX_PAYLOAD + 1))


@pytest.mark.parametrize("bad, kind", [
    (b"\x05\x01\x02", "cobs"),             # code byte runs past the end
    (b"\x02\x01", "short"),                 # one byte: no room for a payload and a CRC
    (cobs_encode(b"\x01\x02\x03\x04\x05"), "crc"),
])
def test_decode_frame_errors_name_their_kind(bad: bytes, kind: str) -> None:
    with pytest.raises(FrameError) as info:
        decode_frame(bad)
    assert info.value.KIND == kind


def test_single_bit_flip_in_payload_is_caught() -> None:
    payload = bytes(range(1, 40))
    body = bytearray(payload + crc16(payload).to_bytes(2, "big"))
    for bit in range(len(body) * 8):
        flipped = bytearray(body)
        flipped[bit // 8] ^= 1 << (bit % 8)
        with pytest.raises(FrameError):
            decode_frame(cobs_encode(bytes(flipped)))


def test_decoder_reassembles_frames_split_anywhere() -> None:
    payloads = [bytes([i]) * (i + 1) for i in range(1, 30)]
    stream = b"".join(encode_frame(p) for p in payloads)
    rng = random.Random(3)
    dec = FrameDecoder()
    got = []
    i = 0
    while i < len(stream):
        n = rng.randint(1, 9)
        got.extend(dec.feed(stream[i:i + n]))
        i += n
    assert got == payloads
    assert dec.frames == len(payloads) and dec.errors == 0


def test_decoder_resynchronises_after_garbage() -> None:
    dec = FrameDecoder()
    out = dec.feed(b"\x17\x99garbage" + b"\x00" + encode_frame(b"after") + b"\x00\x00" + encode_frame(b"more"))
    assert [o for o in out if isinstance(o, bytes)] == [b"after", b"more"]
    errors = [o for o in out if isinstance(o, FrameError)]
    assert len(errors) == 1 and dec.errors == 1


def test_decoder_truncated_frame_is_an_error_not_a_frame() -> None:
    frame = encode_frame(b"\x01\x02\x03\x04\x05\x06")
    dec = FrameDecoder()
    out = dec.feed(frame[:4] + b"\x00" + frame)
    assert isinstance(out[0], FrameError)
    assert out[1] == b"\x01\x02\x03\x04\x05\x06"


def test_lenient_start_drops_a_partial_first_frame_quietly_but_keeps_a_whole_one() -> None:
    frame = encode_frame(b"hello")
    dec = FrameDecoder(lenient_start=True)
    assert dec.feed(frame[3:] + frame) == [b"hello"]
    assert dec.skipped == 1 and dec.errors == 0
    dec = FrameDecoder(lenient_start=True)
    assert dec.feed(frame + frame) == [b"hello", b"hello"]
    assert dec.skipped == 0


def test_overlong_input_is_dropped_and_reported_once() -> None:
    dec = FrameDecoder()
    out = dec.feed(b"\x01" * (framing.MAX_ENCODED + 50))
    assert out == []
    out = dec.feed(b"\x01" * 10 + b"\x00" + encode_frame(b"ok"))
    assert isinstance(out[0], framing.OverlongFrameError)
    assert out[1] == b"ok"


def test_decoder_accepts_bytearray_and_memoryview() -> None:
    frame = encode_frame(b"abc")
    assert FrameDecoder().feed(bytearray(frame)) == [b"abc"]
    assert FrameDecoder().feed(memoryview(frame)) == [b"abc"]


@given(st.lists(st.one_of(st.binary(max_size=80), st.sampled_from([b"\x00", b"\x00\x00"])), max_size=30))
@settings(max_examples=1000, deadline=None)
def test_fuzz_decoder_never_raises_and_only_passes_crc_checked_frames(chunks: list[bytes]) -> None:
    dec = FrameDecoder()
    for chunk in chunks:
        for item in dec.feed(chunk):
            if isinstance(item, bytes):
                # Whatever got through carried a matching CRC over its own bytes.
                assert len(item) >= 1
            else:
                assert isinstance(item, FrameError)
