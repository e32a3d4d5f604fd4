"""Frames on a byte stream: COBS with a 0x00 delimiter and a CRC-16 check.

The one framing implementation, used by the controller board (MicroPython) and by the host
(CPython). A frame on the wire is::

    COBS( payload + CRC-16/CCITT-FALSE(payload) as 2 bytes, big-endian ) + 0x00

COBS (consistent overhead byte stuffing) removes every 0x00 from the encoded bytes, so 0x00
only ever marks the end of a frame: a receiver that starts mid-stream, or that saw corrupt
bytes, is back in step at the next 0x00. The CRC (polynomial 0x1021, initial value 0xFFFF,
no reflection, no final XOR; ``binascii.crc_hqx(data, 0xFFFF)`` in CPython) catches every
error of 1 to 3 bits and every burst of up to 16 bits in a frame of this size.

Runs unchanged under MicroPython and CPython: integers, bytes, bytearrays and arrays only.
:func:`encode_frame_into` allocates nothing, for the frames the board sends a thousand times a
minute.
"""

from array import array

#: The frame delimiter; it never appears inside an encoded frame.
DELIMITER = 0

#: Largest payload (before the CRC) either side sends or accepts.
MAX_PAYLOAD = 1024

#: Bytes added by the CRC.
CRC_SIZE = 2

#: Longest encoded frame (without its delimiter) a decoder keeps before giving up on it.
MAX_ENCODED = MAX_PAYLOAD + CRC_SIZE + (MAX_PAYLOAD + CRC_SIZE) // 254 + 2


class FrameError(ValueError):
    """Bytes between two delimiters that are not a valid frame.

    ``KIND`` names the fault for counters: ``"cobs"``, ``"crc"``, ``"short"``, ``"overlong"``.
    """

    KIND = "frame"


class CobsError(FrameError):
    """The bytes are not a valid COBS encoding (a code byte points past the end, or a 0x00)."""

    KIND = "cobs"


class CrcError(FrameError):
    """The frame decoded but its CRC does not match its payload (corrupted in transit)."""

    KIND = "crc"


class ShortFrameError(FrameError):
    """The frame is too short to hold a CRC (a truncated frame, or noise)."""

    KIND = "short"


class OverlongFrameError(FrameError):
    """More than :data:`MAX_ENCODED` bytes arrived without a delimiter; they were dropped."""

    KIND = "overlong"


def _make_table():
    table = array("H", bytes(512))  # 16-bit entries: half the RAM of a tuple of ints on the board
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table[byte] = crc
    return table


_CRC_TABLE = _make_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (continuing from ``crc``); equals ``binascii.crc_hqx(data, crc)``.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data):
    """COBS-encode ``data``: the result holds no 0x00 and is at most ``len(data) // 254 + 1`` longer."""
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo :func:`cobs_encode`; raises :class:`CobsError` on bytes no encoder would produce."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise CobsError("0x00 inside a frame at byte %d" % i)
        end = i + code
        if end > n:
            raise CobsError("code byte %d at byte %d runs past the end of the %d-byte frame" % (code, i, n))
        for j in range(i + 1, end):
            byte = data[j]
            if byte == 0:
                raise CobsError("0x00 inside a frame at byte %d" % j)
            out.append(byte)
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(payload):
    """The bytes to send for ``payload``: COBS(payload + CRC) followed by the 0x00 delimiter."""
    if not payload:
        raise ValueError("a frame carries at least one payload byte")
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes exceeds the %d-byte limit" % (len(payload), MAX_PAYLOAD))
    crc = crc16(payload)
    body = bytearray(payload)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    return cobs_encode(body) + b"\x00"


def encode_frame_into(payload, out):
    """Write the frame of ``payload`` (as :func:`encode_frame` makes it) into ``out``; returns its length.

    ``out`` is a bytearray of at least ``len(payload) + 4`` bytes, the frame's length for a
    payload of up to 251 bytes. Nothing is allocated, and the CRC and the COBS encoding are
    done in one pass: the board encodes its STATE messages this way, into one buffer it keeps.
    """
    n = len(payload)
    if not 0 < n <= 251:
        raise ValueError("encode_frame_into takes 1 to 251 payload bytes, not %d" % n)
    table = _CRC_TABLE
    crc = 0xFFFF
    code_at = 0
    j = 1
    for byte in payload:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
        if byte:
            out[j] = byte
        else:
            out[code_at] = j - code_at
            code_at = j
        j += 1
    for k in range(2):  # the CRC, high byte first (no tuple: a tuple would be allocated)
        byte = crc & 0xFF if k else crc >> 8
        if byte:
            out[j] = byte
        else:
            out[code_at] = j - code_at
            code_at = j
        j += 1
    out[code_at] = j - code_at
    out[j] = 0
    return j + 1


def decode_frame(encoded):
    """The payload of one encoded frame (without its delimiter); :class:`FrameError` if it is not one."""
    if len(encoded) > MAX_ENCODED:
        raise OverlongFrameError("frame of %d bytes exceeds the %d-byte limit" % (len(encoded), MAX_ENCODED))
    body = cobs_decode(encoded)
    if len(body) < CRC_SIZE + 1:
        raise ShortFrameError("frame of %d bytes is too short to hold a payload and its CRC" % len(body))
    payload = body[:-CRC_SIZE]
    got = (body[-2] << 8) | body[-1]
    want = crc16(payload)
    if got != want:
        raise CrcError("CRC mismatch: frame says 0x%04x, payload gives 0x%04x" % (got, want))
    return payload


class FrameDecoder:
    """Splits a byte stream into frames, resynchronising at each 0x00.

    :meth:`feed` returns, in order, the payload (``bytes``) of every complete valid frame and a
    :class:`FrameError` for every invalid one; it never raises on any input. Empty frames
    (two delimiters in a row) are ignored. With ``lenient_start=True`` the bytes up to the first
    delimiter are kept if they form a valid frame and dropped silently (counted in
    :attr:`skipped`) if not: a receiver that just opened a port may have joined mid-frame.

    >>> dec = FrameDecoder()
    >>> dec.feed(encode_frame(b"hi")[:3]), dec.feed(encode_frame(b"hi")[3:])
    ([], [b'hi'])
    """

    def __init__(self, lenient_start=False):
        self._buf = bytearray()
        self._lenient = lenient_start
        self._overlong = False
        self.frames = 0
        self.errors = 0
        self.skipped = 0

    def reset(self, lenient_start=True):
        """Forget any partial frame (after a reconnection, say)."""
        self._buf = bytearray()
        self._lenient = lenient_start
        self._overlong = False

    def feed(self, data):
        """Consume ``data``; returns a list of payloads and :class:`FrameError` instances."""
        if not isinstance(data, bytes):
            data = bytes(data)
        results = []
        buf = self._buf
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                chunk = data[start:]
                if not self._overlong:
                    if len(buf) + len(chunk) > MAX_ENCODED:
                        self._overlong = True
                        buf = bytearray()
                    else:
                        buf.extend(chunk)
                break
            chunk = data[start:end]
            lenient = self._lenient
            self._lenient = False
            if self._overlong or len(buf) + len(chunk) > MAX_ENCODED:
                self._overlong = False
                error = OverlongFrameError("more than %d bytes without a frame delimiter" % MAX_ENCODED)
                if lenient:
                    self.skipped += 1
                else:
                    self.errors += 1
                    results.append(error)
            elif buf or chunk:
                buf.extend(chunk)
                try:
                    results.append(decode_frame(bytes(buf)))
                    self.frames += 1
                except FrameError as exc:
                    if lenient:
                        self.skipped += 1
                    else:
                        self.errors += 1
                        results.append(exc)
            buf = bytearray()
            start = end + 1
        self._buf = buf
        return results

