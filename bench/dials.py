"""USB controller link: latency over a pseudo-terminal, decoder throughput, decoder fuzzing.

1. Latency: a simulated board (the real firmware logic, firmware/fakes/pty_board.py) behind a
   pseudo-terminal and the real SerialBackend in front of it. The number wheel is turned again
   and again; for each turn three moments are taken: the wheel turned (the ADC reading
   changes), the board sends the settled position (its debounce, ``wheel_settle_ms`` from
   hardware/ladders.toml, is over), the host's WHEEL event is taken off the backend's queue.
   "serial latency" is the last two apart: framing, the pseudo-terminal, the host's reader
   thread and the event queue. The whole turn-to-event time is printed too.
2. Decoder throughput: STATE frames per second through FrameDecoder and protocol.decode.
3. ``--fuzz N``: N random inputs (random bytes, and valid streams with bit flips, dropped,
   inserted and zeroed bytes) through the host's decoder. Counts exceptions other than the
   protocol's own and messages accepted that were never sent; both must be 0.

    python bench/dials.py [--turns 200] [--frames 100000] [--fuzz 100000]

The last line is ``serial_latency_p99_ms: X``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.dials.serial_backend import SerialBackend  # noqa: E402
from controller.dials.state import EventKind  # noqa: E402
from firmware.board import framing, protocol  # noqa: E402
from firmware.board.framing import FrameDecoder, FrameError  # noqa: E402
from firmware.fakes.pty_board import PtyBoard  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100.0
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def latency(turns: int, seed: int) -> tuple[list[float], list[float], int]:
    """(serial latencies ms, turn-to-event ms, wrong events) over ``turns`` turns of the number wheel."""
    rng = random.Random(seed)
    sent_at: dict[int, float] = {}
    decoder = FrameDecoder()

    def on_write(data: bytes) -> None:
        now = time.perf_counter()
        for item in decoder.feed(data):
            if isinstance(item, bytes):
                msg = protocol.decode(item)
                if msg.kind == protocol.STATE and msg.flags & protocol.FLAG_CHANGE and msg.number < 10:
                    sent_at.setdefault(msg.number, now)

    serial_ms: list[float] = []
    total_ms: list[float] = []
    wrong = 0
    with tempfile.TemporaryDirectory() as tmp, PtyBoard(storage_dir=tmp, seed=seed) as board:
        board.on_write = on_write
        with SerialBackend([board.port], rescan_interval=0.05) as backend:
            cid = board.world.uid.hex()
            deadline = time.monotonic() + 5
            while backend.states().get(cid) is None or backend.state(cid).number != 0:
                backend.get_event(0.05)
                if time.monotonic() > deadline:
                    raise SystemExit("the simulated board never connected")
            current = 0
            for _ in range(turns):
                target = rng.choice([n for n in range(10) if n != current])
                while backend.get_event(0) is not None:
                    pass
                sent_at.pop(target, None)
                turned = time.perf_counter()
                board.turn("number", target)
                arrived = None
                limit = time.monotonic() + 2.0
                while arrived is None and time.monotonic() < limit:
                    event = backend.get_event(0.5)
                    if event is None or event.kind != EventKind.WHEEL:
                        continue
                    if event.state.number == target:
                        arrived = time.perf_counter()
                    elif event.state.number is not None:
                        wrong += 1
                if arrived is None or target not in sent_at:
                    wrong += 1
                    continue
                serial_ms.append((arrived - sent_at[target]) * 1000)
                total_ms.append((arrived - turned) * 1000)
                current = target
                time.sleep(rng.uniform(0.0, 0.01))
    return serial_ms, total_ms, wrong


def throughput(frames: int) -> tuple[float, float]:
    """(frames per second decoded, megabytes per second) for a stream of STATE frames."""
    rng = random.Random(1)
    stream = bytearray()
    for seq in range(frames):
        stream += framing.encode_frame(protocol.encode(
            protocol.STATE, seq & 0xFFFF, direction=rng.randrange(8), number=rng.randrange(10),
            symbol=rng.randrange(4), button=rng.randrange(2), led=rng.randrange(3), flags=1, rx_errors=0))
    data = bytes(stream)
    decoder = FrameDecoder()
    start = time.perf_counter()
    count = 0
    for i in range(0, len(data), 4096):
        for item in decoder.feed(data[i:i + 4096]):
            protocol.decode(item)
            count += 1
    elapsed = time.perf_counter() - start
    assert count == frames
    return frames / elapsed, len(data) / elapsed / 1e6


FUZZ_MESSAGES = [
    (protocol.STATE, dict(direction=3, number=7, symbol=1, button=1, led=2, flags=1, rx_errors=4)),
    (protocol.HELLO, dict(reply_to=1, profile=0, uid=b"\xe6\x61\x41\x04\x03\x12\x34\x56", version="1.0.0")),
    (protocol.PONG, dict(reply_to=2, token=0x01020304)),
    (protocol.RAW, dict(reply_to=3, direction=1000, number=30000, symbol=65535, button=0)),
    (protocol.ACK, dict(reply_to=4, command=protocol.SET_LED, status=0, text="")),
    (protocol.STORE_PROFILE, dict(checksum=0xDEADBEEF, profile=b'{"format":1,"ladders":{}}')),
]


def fuzz(count: int, seed: int) -> tuple[int, int, int, int]:
    """(inputs, foreign exceptions, wrong messages accepted, good messages accepted)."""
    rng = random.Random(seed)
    foreign = wrong = good = 0
    for i in range(count):
        sent: list[protocol.Message] = []
        if i % 2 == 0:
            data = bytearray(rng.getrandbits(8) for _ in range(rng.randrange(1, 300)))
        else:
            stream = bytearray()
            for seq in range(rng.randrange(1, 6)):
                kind, fields = FUZZ_MESSAGES[rng.randrange(len(FUZZ_MESSAGES))]
                payload = protocol.encode(kind, seq, **fields)
                sent.append(protocol.decode(payload))
                stream += framing.encode_frame(payload)
            data = stream
            for _ in range(rng.randrange(1, 5)):
                op = rng.randrange(4)
                pos = rng.randrange(len(data))
                if op == 0:
                    data[pos] ^= 1 << rng.randrange(8)
                elif op == 1 and len(data) > 1:
                    del data[pos]
                elif op == 2:
                    data.insert(pos, rng.getrandbits(8))
                else:
                    data[pos] = 0
        decoder = FrameDecoder(lenient_start=bool(rng.getrandbits(1)))
        try:
            cut = rng.randrange(len(data) + 1)
            items = decoder.feed(bytes(data[:cut])) + decoder.feed(bytes(data[cut:]))
            for item in items:
                if isinstance(item, FrameError):
                    continue
                try:
                    msg = protocol.decode(item)
                except protocol.ProtocolError:
                    continue
                if msg in sent:
                    good += 1
                else:
                    wrong += 1
        except FrameError:
            foreign += 1  # the decoder must report, not raise, even its own errors
        except Exception:  # noqa: BLE001 - counting exactly these is the point
            foreign += 1
    return count, foreign, wrong, good


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=200, help="wheel turns for the latency figure (default 200)")
    parser.add_argument("--frames", type=int, default=100000, help="frames for the throughput figure (default 100000)")
    parser.add_argument("--fuzz", type=int, default=0, metavar="N", help="also fuzz the decoder with N inputs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    if args.fuzz:
        start = time.perf_counter()
        inputs, foreign, wrong, good = fuzz(args.fuzz, args.seed)
        print(f"fuzz: {inputs} inputs in {time.perf_counter() - start:.1f} s: {foreign} unexpected exceptions, "
              f"{wrong} messages accepted that were never sent, {good} intact messages recovered")
    fps, mbps = throughput(args.frames)
    print(f"decoder: {fps:,.0f} STATE frames/s ({mbps:.2f} MB/s) through FrameDecoder + protocol.decode")
    serial_ms, total_ms, wrong = latency(args.turns, args.seed)
    print(f"turns: {len(serial_ms)} measured, {wrong} wrong or missing events")
    print(f"wheel turned -> host event (includes the board's debounce settle time): "
          f"p50 {statistics.median(total_ms):.2f} ms, p99 {percentile(total_ms, 99):.2f} ms")
    print(f"board sends settled position -> host event (serial latency): "
          f"p50 {statistics.median(serial_ms):.3f} ms, p99 {percentile(serial_ms, 99):.3f} ms, "
          f"max {max(serial_ms):.3f} ms")
    print(f"serial_latency_p99_ms: {percentile(serial_ms, 99):.3f}")


if __name__ == "__main__":
    main()
