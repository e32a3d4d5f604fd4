"""A controller board emulated to the instruction: real MicroPython on an emulated RP2040, on a pseudo-terminal.

:class:`EmulatedBoard` runs the MicroPython firmware image of a Raspberry Pi Pico (the official
RPI_PICO build, the ``.uf2`` a Pico is flashed with, or its ``firmware.bin``) on ``rp2040js``
(an RP2040 emulator for node, pinned in ``firmware/emulator/package.json``), through the node
program ``firmware/emulator/board.mjs``. Its USB serial port is the slave side of a
pseudo-terminal, :attr:`EmulatedBoard.port`: the host's own code (``SerialLink``,
``SerialBackend``, ``bitbox firmware flash`` with mpremote) opens it as it opens
``/dev/ttyACM0``. The wheels are voltages on the emulated ADC, the button a level on a GPIO
input, the LED the level of a GPIO output. What runs is the board's own files on the real
interpreter: nothing of the firmware is modelled.

Time: the emulated chip keeps its own clock (125 MHz cycles; while it waits for an interrupt the
clock skips ahead). With ``pace="wall"`` (the default) it never runs ahead of the wall clock, as
a host talking to it over a port expects; while the firmware computes, the emulation runs
slower than a Pico (a few times slower on a busy machine), so hosts here need patient timeouts.
With ``pace="hold"`` it runs only when told (:meth:`EmulatedBoard.run_until`), and host bytes
can be given for an exact emulated moment (:meth:`EmulatedBoard.send_at`): the runs are then
the same every time.

Three things rp2040js leaves out are filled in by ``board.mjs``: flash erase and program through
the boot ROM, a USB OUT transfer with nothing to deliver (held until the host sends), and the
watchdog reset behind ``machine.reset()``; it also answers the flash chip's unique-id command
(the controller's id) and sends the USB start-of-frame interrupts MicroPython waits for.

The board's flash (MicroPython's filesystem: config.json, the firmware's files, the stored
calibration) lives in the emulator while it runs, across resets; :meth:`EmulatedBoard.save_fs`
writes it to a file that a later board starts from (``fs_image``).

What is needed: node (18 or newer), ``npm ci --prefix firmware/emulator``, the boot ROM image
kept beside it (``bootrom.bin``) and a MicroPython firmware image (see :func:`find_firmware`).
:func:`unavailable` says what is missing.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.paths import FIRMWARE_DIR

#: The npm project pinning rp2040js, and the node program that runs the board.
EMULATOR_DIR = FIRMWARE_DIR / "emulator"
PROGRAM = EMULATOR_DIR / "board.mjs"
PACKAGE = EMULATOR_DIR / "node_modules" / "rp2040js" / "package.json"
INSTALL = "npm ci --prefix firmware/emulator"

#: The RP2040's boot ROM (release B1), which MicroPython calls for flash writes and more.
BOOTROM = EMULATOR_DIR / "bootrom.bin"

#: Environment variable naming the MicroPython firmware image, and where it is looked for otherwise.
FIRMWARE_ENV = "BITBOX_MICROPYTHON_FIRMWARE"
FIRMWARE_PLACES = (EMULATOR_DIR / "micropython" / "firmware.bin", EMULATOR_DIR / "micropython" / "firmware.uf2")

#: The MicroPython release the board files are built and tested for.
MICROPYTHON_RELEASE = "1.27.0"

#: The unique id of the emulated board's flash chip, which MicroPython reports as ``machine.unique_id()``.
DEFAULT_UID = bytes.fromhex("e6614104031a2b3c")

#: RP2040 ADC inputs: GPIO 26..29 are channels 0..3.
ADC_FIRST_PIN = 26


class EmulatorError(RuntimeError):
    """The emulator failed, or the board did not do what was waited for in time."""


def find_node() -> str | None:
    return shutil.which("node") or shutil.which("nodejs")


def find_firmware() -> Path | None:
    """The MicroPython firmware image to run: ``$BITBOX_MICROPYTHON_FIRMWARE``, else one kept in
    ``firmware/emulator/micropython/``; ``None`` if there is none."""
    named = os.environ.get(FIRMWARE_ENV)
    if named:
        return Path(named) if Path(named).is_file() else None
    for place in FIRMWARE_PLACES:
        if place.is_file():
            return place
    return None


def unavailable() -> str | None:
    """Why an emulated board cannot run here, or ``None``."""
    if find_node() is None:
        return "node is not installed (Debian: apt-get install nodejs npm), so the RP2040 emulator cannot run"
    if not PACKAGE.is_file():
        return f"the RP2040 emulator (rp2040js) is not installed: run `{INSTALL}`"
    if not BOOTROM.is_file():
        return f"the RP2040 boot ROM image {BOOTROM} is missing: run `python firmware/emulator/bootrom.py`"
    if find_firmware() is None:
        named = os.environ.get(FIRMWARE_ENV)
        if named:
            return f"{FIRMWARE_ENV}={named} names no file"
        return (f"no MicroPython firmware image for the emulated Pico: set {FIRMWARE_ENV} to the RPI_PICO "
                f"MicroPython {MICROPYTHON_RELEASE} .uf2 (or firmware.bin), or put it in "
                f"{FIRMWARE_PLACES[0].parent}")
    return None


def adc_code(value_u16: int) -> int:
    """The 12-bit conversion result that ``ADC.read_u16()`` reports as ``value_u16`` (rounded)."""
    return max(0, min(4095, (int(value_u16) + 8) >> 4))


class EmulatedBoard:
    """One Pico running MicroPython and whatever its flash holds (see the module docstring).

    ``firmware``: the MicroPython image (default :func:`find_firmware`); ``fs_image``: a
    filesystem saved by :meth:`save_fs` (default: an empty flash, which MicroPython formats at
    its first start); ``config``: the board's config.json contents, for pin numbers and ladders
    (default: built from the project's data files); ``noise_lsb``: RMS noise added to every ADC
    conversion, in 12-bit steps (the RP2040 measures about 1); ``uid``: the 8 bytes of its flash
    chip's unique id (the controller's id); ``trace_usb``: record the emulated
    time of every USB packet the board sends (:attr:`usb_packets`).

    The board is powered once :meth:`power_up` is called; the button is released (held high, as
    its pull-up would) and the wheels sit on position 0 until then.
    """

    def __init__(self, firmware: str | Path | None = None, fs_image: str | Path | None = None,
                 config: dict[str, Any] | None = None, uid: bytes = DEFAULT_UID, noise_lsb: float = 1.0,
                 pace: str = "wall", trace_usb: bool = False) -> None:
        reason = unavailable() if firmware is None else None
        if reason is not None:
            raise EmulatorError(reason)
        if config is None:
            from firmware.board_config import build_config

            config = build_config()
        self.config = config
        self.uid = bytes(uid)
        self.firmware = Path(firmware) if firmware is not None else find_firmware()
        self.wheel_pins = {w["name"]: int(w["pin"]) for w in config["wheels"]}
        self.button_pin = int(config["button"]["pin"])
        self.led_pin = int(config["led"]["pin"])
        self.button_active = 0 if config["button"].get("active_low", True) else 1
        self.led_active = 1 if config["led"].get("active_high", True) else 0
        from firmware.board.ladder import Ladder

        self.nominal = {w["name"]: Ladder.from_list(config["ladders"][w["name"]]) for w in config["wheels"]}
        self.boots: list[tuple[str, float]] = []
        self.led_changes: list[tuple[float, int]] = []
        self.usb_packets: list[tuple[float, bytes]] = []
        self.bootloader_at: float | None = None
        self.pace = pace
        self._levels: dict[int, int] = {}
        self._replies: dict[int, dict[str, Any]] = {}
        self._next_id = 0
        self._cond = threading.Condition()
        self._errors: queue.Queue[str] = queue.Queue()
        self._stderr: list[str] = []
        master, slave = os.openpty()
        tty.setraw(slave)  # as pyserial leaves it: no echo, no line editing, before any host opens it
        os.set_blocking(master, False)
        os.set_blocking(slave, False)
        self._slave = slave  # kept open: with no host on the port the board's bytes are simply not read
        self.port = os.ttyname(slave)
        command = [find_node() or "node", str(PROGRAM), "--firmware", str(self.firmware), "--bootrom", str(BOOTROM),
                   "--pty", str(master), "--uid", bytes(uid).hex(), "--noise", str(noise_lsb),
                   "--watch", str(self.led_pin)]
        if fs_image is not None:
            command += ["--fs", str(fs_image)]
        if trace_usb:
            command.append("--trace-usb")
        try:
            self._proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                bufsize=1, cwd=EMULATOR_DIR, pass_fds=(master,))
        finally:
            os.close(master)
        self._reader = threading.Thread(target=self._read_events, name="emulated-board-events", daemon=True)
        self._reader.start()
        self._err_reader = threading.Thread(target=self._read_stderr, name="emulated-board-stderr", daemon=True)
        self._err_reader.start()
        self._wait_event(lambda: self._ready, 30.0, "the emulator to start")
        for name, ladder in self.nominal.items():
            self._command("adc", channel=self._channel(name), value=adc_code(ladder.centres[0]))
        self.release()
        self._command("pace", mode=pace)

    _ready = False

    # ---- the node process ------------------------------------------------------------------

    def _read_events(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = event.get("ev")
            with self._cond:
                if kind == "ready":
                    self._ready = True
                elif kind in ("done", "paused", "error") and event.get("id") is not None:
                    self._replies[event["id"]] = event
                elif kind == "boot":
                    self.boots.append((event["why"], event["ms"]))
                elif kind == "pin":
                    self._levels[event["pin"]] = event["level"]
                    if event["pin"] == self.led_pin:
                        self.led_changes.append((event["ms"], event["level"]))
                elif kind == "usb":
                    self.usb_packets.append((event["ms"], bytes.fromhex(event["hex"])))
                elif kind == "bootloader":
                    self.bootloader_at = event["ms"]
                if kind == "error":
                    self._errors.put(event.get("message", "?"))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def _read_stderr(self) -> None:
        assert self._proc.stderr is not None
        for line in self._proc.stderr:
            self._stderr.append(line.rstrip())
            del self._stderr[:-50]

    def _alive(self) -> None:
        if self._proc.poll() is not None:
            tail = "\n".join(self._stderr[-10:])
            raise EmulatorError(f"the emulator stopped (status {self._proc.returncode}): {tail}")

    def _wait_event(self, ready: Callable[[], Any], timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = ready()
                if value:
                    return value
                self._alive()
                left = deadline - time.monotonic()
                if left <= 0:
                    raise EmulatorError(f"timed out after {timeout:g} s waiting for {what}")
                self._cond.wait(min(left, 0.2))

    def _command(self, op: str, timeout: float = 30.0, **fields: Any) -> dict[str, Any]:
        with self._cond:
            self._next_id += 1
            ident = self._next_id
        self._alive()
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps({"op": op, "id": ident, **fields}) + "\n")
        self._proc.stdin.flush()
        reply = self._wait_event(lambda: self._replies.pop(ident, None), timeout, f"the emulator's answer to {op}")
        if reply.get("ev") == "error":
            raise EmulatorError(f"{op}: {reply.get('message')}")
        return reply

    # ---- power -----------------------------------------------------------------------------

    def power_up(self) -> None:
        """Switch the board on (again): the chip starts from its reset, its flash kept."""
        self._command("boot")

    def status(self) -> dict[str, Any]:
        return self._command("status")

    def now_ms(self) -> float:
        """The board's emulated time since its first power-up, in milliseconds."""
        return float(self.status()["ms"])

    def run_until(self, ms: float, timeout: float = 120.0) -> None:
        """With ``pace="hold"``: let the board run until its clock reads ``ms``."""
        self._command("run", timeout=timeout, until_ms=ms)

    def set_pace(self, pace: str) -> None:
        """``"wall"`` (follow the wall clock) or ``"hold"`` (run only in :meth:`run_until`)."""
        self._command("pace", mode=pace)
        self.pace = pace

    def send_at(self, ms: float, data: bytes) -> None:
        """Have ``data`` reach the board's USB port when its clock reads ``ms``, as if the host wrote it."""
        self._command("send_at", ms=ms, hex=bytes(data).hex())

    def drop_sends(self) -> None:
        """Forget the bytes :meth:`send_at` gave for moments still to come."""
        self._command("drop_sends")

    def save_fs(self, path: str | Path) -> Path:
        """Write the board's filesystem (its flash's storage region) to ``path``."""
        path = Path(path)
        self._command("save_fs", path=str(path.resolve()))
        return path

    # ---- the outside world -----------------------------------------------------------------

    def _channel(self, wheel: str) -> int:
        return self.wheel_pins[wheel] - ADC_FIRST_PIN

    def turn(self, wheel: str, position: int) -> float:
        """Turn ``wheel`` to ``position``: its ADC input now sits at that position's nominal voltage.
        Returns the emulated time (ms) of the turn."""
        ladder = self.nominal[wheel]
        if not 0 <= position < len(ladder):
            raise ValueError(f"the {wheel} wheel has positions 0..{len(ladder) - 1}, not {position}")
        return self.set_raw(wheel, ladder.centres[position])

    def set_raw(self, wheel: str, value_u16: int) -> float:
        """Put any voltage on ``wheel``'s ADC input, as a ``read_u16`` value (0: no contact); returns
        the emulated time (ms) from which the input reads it."""
        return float(self._command("adc", channel=self._channel(wheel), value=adc_code(value_u16))["ms"])

    def press(self, down: bool = True) -> None:
        """Press (or release) the ready button."""
        level = self.button_active if down else 1 - self.button_active
        self._command("pin", pin=self.button_pin, level=level)

    def release(self) -> None:
        self.press(False)

    @property
    def led(self) -> int:
        """Whether the LED is lit now (1) or not (0)."""
        with self._cond:
            level = self._levels.get(self.led_pin, 1 - self.led_active)
        return 1 if level == self.led_active else 0

    def wait_led(self, lit: int, timeout: float = 5.0) -> None:
        self._wait_event(lambda: self.led == lit, timeout, f"the LED to be {'lit' if lit else 'dark'}")

    def wait_boots(self, count: int, timeout: float = 10.0) -> None:
        self._wait_event(lambda: len(self.boots) >= count, timeout, f"boot number {count}")

    # ---- the port, from the harness's side -------------------------------------------------

    def read_available(self) -> bytes:
        """Bytes the board sent that no host has read (no host may have the port open meanwhile)."""
        chunks = []
        while True:
            try:
                data = os.read(self._slave, 4096)
            except (BlockingIOError, OSError):
                break
            if not data:
                break
            chunks.append(data)
        return b"".join(chunks)

    def write(self, data: bytes) -> None:
        """Write bytes to the board as a host would (no host may have the port open meanwhile)."""
        os.write(self._slave, data)

    # ---- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            try:
                assert proc.stdin is not None
                proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
                proc.stdin.flush()
                proc.wait(timeout=5)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait(timeout=5)
        if self._slave >= 0:
            os.close(self._slave)
            self._slave = -1

    def __enter__(self) -> EmulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
