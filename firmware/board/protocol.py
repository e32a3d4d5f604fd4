"""The messages the controller board and the host exchange inside frames (see firmware/PROTOCOL.md).

Every payload starts with a 4-byte header: protocol version (1 byte), message type (1 byte),
sequence number (2 bytes, big-endian, counted by the sender and wrapping at 65536). The body
that follows has a fixed layout per type; replies start with the sequence number of the command
they answer (``reply_to``). Variable-length fields carry their length, so every payload's
length is exactly what its fields say.

Board-to-host types are below 0x80, host-to-board commands 0x80 and above. :func:`decode`
checks the version, the type, the exact length and every field's range, so a payload that got
past the CRC by chance is still refused rather than misread. The exact length matters: the CRC
has no final XOR, so zero bytes appended to a frame's decoded body pass it (a stray 0x01 just
before a delimiter does that); the payload is then longer than its fields and is refused.

Runs unchanged under MicroPython and CPython.
"""

try:
    from .framing import FrameError
except (ImportError, ValueError):
    from framing import FrameError

#: Version of this protocol; a payload with another version is refused (:class:`VersionError`).
VERSION = 1

HEADER_SIZE = 4

# ---- board to host -------------------------------------------------------------------------
HELLO = 0x01          # who the board is: firmware version, unique id, calibration status
STATE = 0x02          # the full state, on every change and as a heartbeat
PONG = 0x03           # answer to PING
RAW = 0x04            # raw ADC readings, answer to READ_RAW
ACK = 0x05            # outcome of a command that has no other answer

# ---- host to board -------------------------------------------------------------------------
HELLO_REQ = 0x81      # ask for HELLO
PING = 0x82
SET_LED = 0x83
READ_RAW = 0x84
STORE_PROFILE = 0x85  # store a calibration profile (with its CRC-32) on the board
STOP = 0x8E           # leave the firmware for the MicroPython REPL (before copying files)
BOOTLOADER = 0x8F     # reboot into the RP2040's USB bootloader (UF2 drive)

#: Commands the board obeys whatever the version byte says, so any host can update any firmware.
ANY_VERSION = (STOP, BOOTLOADER)

NAMES = {
    HELLO: "HELLO", STATE: "STATE", PONG: "PONG", RAW: "RAW", ACK: "ACK",
    HELLO_REQ: "HELLO_REQ", PING: "PING", SET_LED: "SET_LED", READ_RAW: "READ_RAW",
    STORE_PROFILE: "STORE_PROFILE", STOP: "STOP", BOOTLOADER: "BOOTLOADER",
}

# ---- field values --------------------------------------------------------------------------
#: A wheel position byte: 0..N-1 is a position; these two mean "no position".
TURNING = 0xFF        # the reading is changing or not settled yet
BETWEEN = 0xFE        # the reading has sat outside every position's band for a while (fault)

#: LED modes (SET_LED ``mode``, STATE ``led``).
LED_OFF = 0
LED_ON = 1
LED_BLINK = 2

#: Calibration status (HELLO ``profile``).
PROFILE_STORED = 0    # a stored, checked calibration profile is in use
PROFILE_DEFAULT = 1   # no profile stored: the nominal ladders from config.json are in use
PROFILE_CORRUPT = 2   # the stored profile failed its check: nominal ladders in use

#: STATE ``flags`` bits.
FLAG_CHANGE = 0x01            # sent because something changed (not a heartbeat)
FLAG_PROFILE_DEFAULT = 0x02
FLAG_PROFILE_CORRUPT = 0x04

#: ACK ``status`` codes.
OK = 0
BAD_CHECKSUM = 1      # STORE_PROFILE: the CRC-32 does not match the profile bytes
BAD_PROFILE = 2       # STORE_PROFILE: not a valid profile (malformed, or ladders that overlap)
UNKNOWN_COMMAND = 3
BAD_REQUEST = 4       # a known command with a bad argument
STORAGE_FAILED = 5    # the board could not write its flash
BAD_VERSION = 6       # the command used another protocol version

STATUS_NAMES = {
    OK: "ok", BAD_CHECKSUM: "bad checksum", BAD_PROFILE: "bad profile", UNKNOWN_COMMAND: "unknown command",
    BAD_REQUEST: "bad request", STORAGE_FAILED: "storage failed", BAD_VERSION: "bad protocol version",
}

# Field layouts: (name, code) with B = u8, H = u16, I = u32 (big-endian), p = u8 length then
# that many bytes, t = u8 length then that many printable ASCII characters, P = u16 length then
# that many bytes.
LAYOUTS = {
    HELLO: (("reply_to", "H"), ("profile", "B"), ("uid", "p"), ("version", "t")),
    STATE: (("direction", "B"), ("number", "B"), ("symbol", "B"), ("button", "B"), ("led", "B"),
            ("flags", "B"), ("rx_errors", "H")),
    PONG: (("reply_to", "H"), ("token", "I")),
    RAW: (("reply_to", "H"), ("direction", "H"), ("number", "H"), ("symbol", "H"), ("button", "B")),
    ACK: (("reply_to", "H"), ("command", "B"), ("status", "B"), ("text", "t")),
    HELLO_REQ: (),
    PING: (("token", "I"),),
    SET_LED: (("mode", "B"),),
    READ_RAW: (),
    STORE_PROFILE: (("checksum", "I"), ("profile", "P")),
    STOP: (),
    BOOTLOADER: (),
}

#: Fields limited to a set of values; anything else is refused.
ALLOWED = {
    (STATE, "button"): (0, 1),
    (STATE, "led"): (LED_OFF, LED_ON, LED_BLINK),
    (RAW, "button"): (0, 1),
    (HELLO, "profile"): (PROFILE_STORED, PROFILE_DEFAULT, PROFILE_CORRUPT),
    (SET_LED, "mode"): (LED_OFF, LED_ON, LED_BLINK),
    (ACK, "status"): (OK, BAD_CHECKSUM, BAD_PROFILE, UNKNOWN_COMMAND, BAD_REQUEST, STORAGE_FAILED, BAD_VERSION),
}

_SIZES = {"B": 1, "H": 2, "I": 4}

#: Length of a STATE payload (header and body): the board packs it with :func:`pack_state`.
STATE_SIZE = HEADER_SIZE + 8


class ProtocolError(FrameError):
    """A frame whose payload is not a valid message; ``KIND`` names the fault for counters."""

    KIND = "message"


class VersionError(ProtocolError):
    """The payload speaks another protocol version."""

    KIND = "version"


class UnknownTypeError(ProtocolError):
    """The payload's message type is not one this version defines."""

    KIND = "type"


class LengthError(ProtocolError):
    """The payload is too short or too long for its message type (truncated, or padded)."""

    KIND = "length"


class FieldError(ProtocolError):
    """A field holds a value its message type does not allow."""

    KIND = "field"


class Message:
    """One decoded message: ``kind`` (type code), ``seq`` and one attribute per field.

    >>> m = decode(encode(PING, 7, token=42))
    >>> (m.name, m.seq, m.token)
    ('PING', 7, 42)
    """

    def __init__(self, kind, seq, fields):
        self.kind = kind
        self.seq = seq
        self.fields = fields
        for key in fields:
            setattr(self, key, fields[key])

    @property
    def name(self):
        return NAMES.get(self.kind, "0x%02x" % self.kind)

    def __eq__(self, other):
        return (isinstance(other, Message) and self.kind == other.kind and self.seq == other.seq
                and self.fields == other.fields)

    def __repr__(self):
        return "Message(%s, seq=%d, %r)" % (self.name, self.seq, self.fields)


def encode(kind, seq, **fields):
    """The payload for message ``kind`` with sequence number ``seq`` and the given fields.

    Raises ``ValueError`` for a missing, unexpected or out-of-range field (a programming error).
    """
    layout = LAYOUTS.get(kind)
    if layout is None:
        raise ValueError("unknown message type 0x%02x" % kind)
    out = bytearray((VERSION, kind, (seq >> 8) & 0xFF, seq & 0xFF))
    used = 0
    for name, code in layout:
        if name not in fields:
            raise ValueError("%s needs field %r" % (NAMES[kind], name))
        value = fields[name]
        used += 1
        if code in _SIZES:
            size = _SIZES[code]
            value = int(value)
            if not 0 <= value < (1 << (8 * size)):
                raise ValueError("%s.%s = %d does not fit %d byte(s)" % (NAMES[kind], name, value, size))
            allowed = ALLOWED.get((kind, name))
            if allowed is not None and value not in allowed:
                raise ValueError("%s.%s = %d is not one of %r" % (NAMES[kind], name, value, allowed))
            for shift in range(8 * (size - 1), -1, -8):
                out.append((value >> shift) & 0xFF)
        else:
            if code == "t":
                value = value.encode()
                for byte in value:
                    if byte < 0x20 or byte > 0x7E:
                        raise ValueError("%s.%s must be printable ASCII" % (NAMES[kind], name))
            limit = 0xFFFF if code == "P" else 0xFF
            if len(value) > limit:
                raise ValueError("%s.%s is longer than %d bytes" % (NAMES[kind], name, limit))
            if code == "P":
                out.append(len(value) >> 8)
            out.append(len(value) & 0xFF)
            out.extend(value)
    if used != len(fields):
        extra = [k for k in fields if k not in [f[0] for f in layout]]
        raise ValueError("%s has no field(s) %s" % (NAMES[kind], ", ".join(extra)))
    return bytes(out)


def pack_state(out, seq, direction, number, symbol, button, led, flags, rx_errors):
    """Write a STATE payload into ``out`` (a bytearray of :data:`STATE_SIZE` bytes) in place.

    The same bytes as ``encode(STATE, seq, ...)`` without allocating anything: the board sends
    STATE on every change and ten times a second. The values must be in range (the board's own).
    """
    out[0] = VERSION
    out[1] = STATE
    out[2] = (seq >> 8) & 0xFF
    out[3] = seq & 0xFF
    out[4] = direction
    out[5] = number
    out[6] = symbol
    out[7] = button
    out[8] = led
    out[9] = flags
    out[10] = (rx_errors >> 8) & 0xFF
    out[11] = rx_errors & 0xFF


def peek(payload):
    """``(version, kind, seq)`` from a payload's header, or ``None`` if it is shorter than a header."""
    if len(payload) < HEADER_SIZE:
        return None
    return payload[0], payload[1], (payload[2] << 8) | payload[3]


def decode(payload):
    """The :class:`Message` in ``payload``; raises a :class:`ProtocolError` subclass if it is not one."""
    head = peek(payload)
    if head is None:
        raise LengthError("payload of %d bytes is shorter than the %d-byte header" % (len(payload), HEADER_SIZE))
    version, kind, seq = head
    if version != VERSION:
        raise VersionError("protocol version %d (this side speaks version %d)" % (version, VERSION))
    layout = LAYOUTS.get(kind)
    if layout is None:
        raise UnknownTypeError("unknown message type 0x%02x" % kind)
    fields = {}
    i = HEADER_SIZE
    n = len(payload)
    for name, code in layout:
        if code in _SIZES:
            size = _SIZES[code]
            if i + size > n:
                raise LengthError("%s of %d bytes is truncated (field %s)" % (NAMES[kind], n, name))
            value = 0
            for j in range(i, i + size):
                value = (value << 8) | payload[j]
            i += size
            allowed = ALLOWED.get((kind, name))
            if allowed is not None and value not in allowed:
                raise FieldError("%s.%s = %d is not one of %r" % (NAMES[kind], name, value, allowed))
        else:
            prefix = 2 if code == "P" else 1
            if i + prefix > n:
                raise LengthError("%s of %d bytes is truncated (field %s)" % (NAMES[kind], n, name))
            size = payload[i] if prefix == 1 else (payload[i] << 8) | payload[i + 1]
            i += prefix
            if i + size > n:
                raise LengthError("%s of %d bytes is truncated (field %s)" % (NAMES[kind], n, name))
            value = bytes(payload[i:i + size])
            i += size
            if code == "t":
                for byte in value:
                    if byte < 0x20 or byte > 0x7E:
                        raise FieldError("%s.%s holds a byte 0x%02x that is not printable ASCII"
                                         % (NAMES[kind], name, byte))
                value = value.decode()
        fields[name] = value
    if i != n:
        raise LengthError("%s of %d bytes has %d byte(s) too many" % (NAMES[kind], n, n - i))
    return Message(kind, seq, fields)
