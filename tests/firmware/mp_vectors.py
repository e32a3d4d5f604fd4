"""Test vectors of the board's pure modules, printed one per line, for comparing two interpreters.

Runs unchanged under CPython and MicroPython with the board's files (source or .mpy) importable
as top-level modules; ``test_micropython_wasm.py`` runs it on both and compares the output byte
for byte. Everything printed is integers, bytes in hex and strings, in a fixed order (dicts are
printed sorted: MicroPython's dicts do not keep insertion order). Inputs come from a small
linear congruential generator, identical on both interpreters.

Everything here is integer arithmetic, as on the board (the Pico's MicroPython computes floats in
single precision, the WebAssembly port and CPython in double): the board gets its ladders as
integers, and working them out (``firmware/ladder_maths.py``) is the host's job alone.
"""

import debounce
import framing
import ladder
import protocol
import storage


class Lcg:
    """Deterministic pseudo-random integers (the same on every interpreter)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def next(self, bound):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return (self.state >> 8) % bound

    def data(self, n, zeros=False):
        return bytes(0 if zeros and self.next(4) == 0 else self.next(256) for _ in range(n))


def hx(data):
    return "".join("%02x" % b for b in data)


def show(name, *values):
    print(name + " " + " ".join(str(v) for v in values))


def message_text(msg):
    fields = []
    for key in sorted(msg.fields):
        value = msg.fields[key]
        fields.append("%s=%s" % (key, hx(value) if isinstance(value, (bytes, bytearray)) else value))
    return "%s seq=%d %s" % (msg.name, msg.seq, ",".join(fields))


def error_name(fn, *args):
    try:
        fn(*args)
    except Exception as exc:  # the class is the vector
        return type(exc).__name__
    return "none"


rng = Lcg(2024)

# ---- CRC-16 and COBS ----------------------------------------------------------------------
show("crc check", "%04x" % framing.crc16(b"123456789"))
for n in (0, 1, 2, 31, 253, 254, 255, 256, 507, 508, 509, 1024):
    for zeros in (False, True):
        data = rng.data(n, zeros)
        encoded = framing.cobs_encode(data)
        show("cobs", n, zeros, "%04x" % framing.crc16(data), hx(encoded[:24]), len(encoded),
             "%04x" % framing.crc16(encoded), framing.cobs_decode(encoded) == data)
show("cobs all zeros", hx(framing.cobs_encode(bytes(300))[:8]), len(framing.cobs_encode(bytes(300))))
for bad in (b"\x05ab", b"\x02a\x00", b"", b"\x01"):
    show("cobs bad", hx(bad), error_name(framing.cobs_decode, bad))

# ---- frames and the stream decoder ----------------------------------------------------------
stream = bytearray()
sent = []
for i in range(40):
    payload = rng.data(1 + rng.next(300), True)
    sent.append(payload)
    stream += framing.encode_frame(payload)
    if i % 7 == 3:
        stream += rng.data(5 + rng.next(20))  # noise between frames
    if i % 11 == 5:
        stream += b"\x00\x00"
decoder = framing.FrameDecoder()
items = []
pos = 0
while pos < len(stream):
    step = 1 + rng.next(97)
    items.extend(decoder.feed(bytes(stream[pos:pos + step])))
    pos += step
payloads = [x for x in items if isinstance(x, bytes)]
show("stream", len(stream), "%04x" % framing.crc16(bytes(stream)), decoder.frames, decoder.errors)
show("stream errors", ",".join(type(x).__name__ for x in items if not isinstance(x, bytes)))
show("stream payloads", len(payloads), "%04x" % framing.crc16(b"".join(payloads)),
     sum(1 for p in payloads if p in sent))
show("overlong", ",".join(type(x).__name__ for x in framing.FrameDecoder().feed(b"\x01" * 2000 + b"\x00")))
lenient = framing.FrameDecoder(lenient_start=True)
show("lenient", len(lenient.feed(b"\x07garbage\x00" + framing.encode_frame(b"ok"))), lenient.skipped)
for frame in (framing.encode_frame(b"\x01\x81\x00\x00"), framing.encode_frame(b"x")[:-1] + b"\x00"):
    show("frame", hx(frame), error_name(framing.decode_frame, frame[:-1]))

# ---- protocol messages ----------------------------------------------------------------------
samples = [
    (protocol.HELLO, 5, dict(reply_to=0, profile=protocol.PROFILE_DEFAULT, uid=b"\xe6\x61\x41\x04\x03\x12\x34\x56",
                            version="1.0.0")),
    (protocol.STATE, 0x0102, dict(direction=2, number=7, symbol=0, button=1, led=1, flags=1, rx_errors=0)),
    (protocol.STATE, 0xFFFF, dict(direction=255, number=255, symbol=255, button=0, led=2, flags=7, rx_errors=65535)),
    (protocol.PONG, 3, dict(reply_to=9, token=0xDEADBEEF)),
    (protocol.RAW, 4, dict(reply_to=1, direction=65535, number=0, symbol=32768, button=1)),
    (protocol.ACK, 7, dict(reply_to=2, command=protocol.SET_LED, status=protocol.OK, text="")),
    (protocol.ACK, 8, dict(reply_to=3, command=0x99, status=protocol.UNKNOWN_COMMAND, text="no such command")),
    (protocol.HELLO_REQ, 0, {}),
    (protocol.HELLO_REQ, 255, {}),
    (protocol.PING, 1, dict(token=0)),
    (protocol.SET_LED, 2, dict(mode=protocol.LED_BLINK)),
    (protocol.READ_RAW, 3, {}),
    (protocol.STORE_PROFILE, 4, dict(checksum=0x12345678, profile=rng.data(600))),
    (protocol.STOP, 5, {}),
    (protocol.BOOTLOADER, 6, {}),
]
for kind, seq, fields in samples:
    payload = protocol.encode(kind, seq, **fields)
    show("encode", hx(framing.encode_frame(payload)[:40]), len(payload), "%04x" % framing.crc16(payload))
    show("decode", message_text(protocol.decode(payload)))
state = bytearray(protocol.STATE_SIZE)
state_frame = bytearray(protocol.STATE_SIZE + 4)
for seq, values in ((0, (0, 0, 0, 0, 0, 0, 0)), (256, (7, 9, 3, 1, 2, 7, 65535)), (65535, (255, 254, 0, 0, 1, 2, 300))):
    protocol.pack_state(state, seq, *values)
    length = framing.encode_frame_into(state, state_frame)
    show("state in place", hx(state_frame), length, bytes(state_frame[:length]) == framing.encode_frame(bytes(state)))
for n in (1, 13, 251):
    data = rng.data(n)
    out = bytearray(n + 4)
    show("frame in place", n, framing.encode_frame_into(data, out), bytes(out) == framing.encode_frame(data))
show("frame in place bad", error_name(framing.encode_frame_into, b"", bytearray(4)),
     error_name(framing.encode_frame_into, bytes(252), bytearray(256)))
bad_payloads = [b"", b"\x01\x81\x00", b"\x02\x81\x00\x00", b"\x01\x7f\x00\x00", b"\x01\x81\x00\x00\x00",
                b"\x01\x83\x00\x01\x09", b"\x01\x01\x00\x01\x00\x00\x01\x00", b"\x01\x05\x00\x01\x00\x01\x83\x00\x02\x41\x01"]
for payload in bad_payloads:
    show("decode bad", hx(payload), error_name(protocol.decode, payload), protocol.peek(payload))
for kind, fields in ((protocol.STATE, dict(direction=1)), (protocol.PING, dict(token=1 << 32)),
                     (protocol.SET_LED, dict(mode=9)), (0x70, {}), (protocol.ACK, dict(reply_to=1, command=1,
                                                                                         status=0, text="\x01"))):
    show("encode bad", kind, error_name(lambda: protocol.encode(kind, 1, **fields)))

# ---- ladders ---------------------------------------------------------------------------------
def even_centres(n):
    """The readings of an n-position string of equal resistors (integer maths: the same everywhere)."""
    return [ladder.FULL_SCALE * (i + 1) // (n + 1) for i in range(n)]


designs = [ladder.Ladder(even_centres(8), 728), ladder.Ladder(even_centres(10), 300), ladder.Ladder(even_centres(4), 1310)]
designs.append(ladder.Ladder([10000, 20000, 30000, 45000], 500))
for lad in designs:
    show("ladder", lad.to_list())
    lad.reset()
    sweep = []
    for raw in list(range(0, 65536, 173)) + list(range(65535, -1, -211)):
        sweep.append(lad.classify(raw))
    show("sweep", "".join("." if p < 0 else "0123456789abcdef"[p] for p in sweep))
    show("from_list", ladder.Ladder.from_list(lad.to_list()) == lad, lad.position_of(lad.centres[-1]))
for n in (3, 8, 12):
    centres = even_centres(n)
    stored = [1, 100, n]
    for p in range(n):
        half = (centres[1] - centres[0]) * 3 // 10 + rng.next(400)
        stored += [centres[p] - half, centres[p] + rng.next(161) - 80, centres[p] + half]
    show("stored", n, error_name(ladder.Ladder.from_list, stored), ladder.Ladder.from_list(stored).to_list())
show("ladder bad", error_name(ladder.Ladder, [5, 5], 0), error_name(ladder.Ladder, [100, 200], 60),
     error_name(ladder.Ladder.from_list, [1, 100, 3, 0, 10, 20]), error_name(ladder.Ladder.from_list, ["x"]),
     error_name(ladder.Ladder, [100, 200], 0, [0, 150], [150, 300]))

# ---- debounce, with an injected clock ---------------------------------------------------------
wheel = debounce.Debouncer(40)
button = debounce.ButtonDebouncer(20, 30)
now = 0
trace_w = []
trace_b = []
for i in range(3000):
    now += 1 + rng.next(3)
    level = 1 if (i // 150) % 2 else 0
    if rng.next(50) == 0:
        level = 1 - level  # a bounce
    value = (i // 120) % 8 if rng.next(40) else -1
    trace_w.append(wheel.update(value, now))
    trace_b.append(button.update(level, now))
show("wheel", now, "".join("." if v < 0 else str(v) for v in trace_w))
show("button", "".join(str(v) for v in trace_b))
show("debounce bad", error_name(debounce.Debouncer, -1), error_name(debounce.ButtonDebouncer, 5, -1))

# ---- storage's checks (no files) ------------------------------------------------------------
wheels = [dict(name="direction", pin=26, positions=8), dict(name="number", pin=27, positions=10),
          dict(name="symbol", pin=28, positions=4)]
profile = ('{"format":1,"ladders":{"direction":%s,"number":%s,"symbol":%s}}'
           % tuple(str(designs[k].to_list()).replace(" ", "") for k in range(3))).encode()
show("profile", "%08x" % storage.checksum(profile), sorted(storage.parse_profile(profile, wheels)))
for broken in (b"{", b'{"format":2}', profile.replace(b'"symbol"', b'"other"')):
    try:
        storage.parse_profile(broken, wheels)
        show("profile bad", "accepted")
    except storage.ProfileError as exc:
        show("profile bad", exc.status, str(exc))
print("done")
