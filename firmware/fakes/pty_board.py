"""A controller board behind a pseudo-terminal: the real firmware loop, on the host.

:class:`PtyBoard` runs :func:`firmware.board.app.serve` with a real
:class:`firmware.board.control.Controller` in a thread, talking through the master side of a
pseudo-terminal (``os.openpty``); its :attr:`port` is the slave device path, which the host
opens with pyserial exactly as it opens ``/dev/ttyACM0``. The wheels and the button are set on
a :class:`firmware.fakes.machine.World` (noisy 12-bit ADC readings around the ladder's
centres), so every byte the host sees went through the firmware's scanning, debouncing,
protocol and framing code.

:meth:`unplug` closes the pseudo-terminal (the host's next read fails as on a real unplug);
:meth:`replug` boots the board again on a new pseudo-terminal, keeping its wheels and its
stored calibration.

>>> with PtyBoard() as board:
...     board.turn("number", 7)
...     board.port.startswith("/dev/")
True
"""

from __future__ import annotations

import errno
import os
import select
import threading
import time
import tty
from pathlib import Path
from typing import Any, Callable

from firmware.board.app import make_io, serve
from firmware.board.control import Controller
from firmware.board.ladder import Ladder
from firmware.board.storage import Storage
from firmware.fakes import machine as fake_machine


class PtyPort:
    """The board's end of a pseudo-terminal, as the byte pipe :func:`serve` expects."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.dropped = 0
        self.muted = False
        self.on_write: Callable[[bytes], None] | None = None

    def write(self, data: bytes) -> None:
        if self.on_write is not None:
            self.on_write(data)
        if self.muted:
            self.dropped += len(data)
            return
        try:
            os.write(self.fd, data)
        except BlockingIOError:
            # Like the RP2040's USB stack with no host listening: the bytes are dropped.
            self.dropped += len(data)
        except OSError as exc:
            if exc.errno not in (errno.EIO, errno.EBADF):
                raise
            self.dropped += len(data)

    def read_available(self, limit: int) -> bytes:
        try:
            return os.read(self.fd, limit)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno in (errno.EIO, errno.EBADF):
                return b""
            raise

    def wait(self, ms: int) -> None:
        try:
            select.select([self.fd], [], [], ms / 1000.0)
        except (OSError, ValueError):
            time.sleep(ms / 1000.0)


class PtyBoard:
    """One simulated controller board on a pseudo-terminal; see the module docstring.

    ``config`` is the board's config.json contents (default: built from the project's data
    files); ``storage_dir`` holds its config.json and profile.json (default: a fresh temporary
    folder), like the board's flash.
    """

    def __init__(self, config: dict[str, Any] | None = None, uid: bytes = b"\xe6\x61\x41\x04\x03\x12\x34\x56",
                 storage_dir: str | Path | None = None, noise_lsb: float = 1.0, seed: int = 0,
                 autostart: bool = True) -> None:
        if config is None:
            from firmware.board_config import build_config

            config = build_config()
        self.config = config
        if storage_dir is None:
            import tempfile

            self._tmp = tempfile.TemporaryDirectory(prefix="bitbox-board-")
            storage_dir = self._tmp.name
        else:
            self._tmp = None
        self.storage_dir = Path(storage_dir)
        self.storage_dir.mkdir(parents=True, exist_ok=True)
        from firmware.board_config import write_config

        write_config(config, self.storage_dir / "config.json")
        self.world = fake_machine.World(uid=uid, noise_lsb=noise_lsb, seed=seed)
        self.machine = fake_machine.BoundMachine(self.world)
        self._nominal = {w["name"]: Ladder.from_list(config["ladders"][w["name"]]) for w in config["wheels"]}
        self._pins = {w["name"]: w["pin"] for w in config["wheels"]}
        self.button_pin = config["button"]["pin"]
        self.led_pin = config["led"]["pin"]
        self.controller: Controller | None = None
        self.port: str = ""
        self.boots = 0
        self.last_action: str | None = None
        self.on_write: Callable[[bytes], None] | None = None
        self._master = -1
        self._slave = -1
        self._pipe: PtyPort | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        for name, ladder in self._nominal.items():
            self.world.set_adc(self._pins[name], ladder.centres[0])
        if autostart:
            self.plug()

    # ---- the outside world ---------------------------------------------------------------

    def turn(self, wheel: str, position: int) -> None:
        """Turn ``wheel`` to ``position``: its ADC now reads that position's nominal centre."""
        ladder = self._nominal[wheel]
        if not 0 <= position < len(ladder):
            raise ValueError(f"the {wheel} wheel has positions 0..{len(ladder) - 1}, not {position}")
        self.world.set_adc(self._pins[wheel], ladder.centres[position])

    def set_raw(self, wheel: str, value: int) -> None:
        """Put any reading on ``wheel``'s ADC (0 is "no contact": between two positions)."""
        self.world.set_adc(self._pins[wheel], value)

    def press(self, down: bool = True) -> None:
        """Press (or release) the ready button."""
        active = 0 if self.config["button"].get("active_low", True) else 1
        self.world.drive(self.button_pin, active if down else None)

    def release(self) -> None:
        self.press(False)

    @property
    def led(self) -> int:
        """The LED's current level (1 lit)."""
        level = self.world.outputs.get(self.led_pin, 0)
        return level if self.config["led"].get("active_high", True) else 1 - level

    # ---- faults on the line --------------------------------------------------------------

    def inject(self, data: bytes) -> None:
        """Put raw bytes on the line towards the host, between the firmware's own frames."""
        with self._lock:
            if self._master < 0:
                raise RuntimeError("the board is unplugged")
            os.write(self._master, data)

    def mute(self, muted: bool = True) -> None:
        """Make the board stop talking (the firmware runs, nothing reaches the host) or talk again."""
        if self._pipe is not None:
            self._pipe.muted = muted

    # ---- power and cable -----------------------------------------------------------------

    def plug(self) -> str:
        """Boot the board on a new pseudo-terminal; returns its device path."""
        with self._lock:
            if self._thread is not None:
                raise RuntimeError("the board is already plugged in")
            master, slave = os.openpty()
            tty.setraw(slave)  # the host's pyserial does this too; before it opens, no echo or line editing
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self.port = os.ttyname(slave)
            adcs, button, led = make_io(self.machine, self.config)
            pipe = PtyPort(master)
            pipe.on_write = self._written
            self._pipe = pipe
            self.controller = Controller(adcs, button, led, pipe.write, self.config,
                                         Storage(str(self.storage_dir)), self.world.uid)
            self.boots += 1
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._run, args=(self.controller, pipe, self._stop),
                                            name=f"pty-board-{self.port}", daemon=True)
            self._thread.start()
            return self.port

    def _written(self, data: bytes) -> None:
        if self.on_write is not None:
            self.on_write(data)

    def _run(self, ctl: Controller, pipe: PtyPort, stop: threading.Event) -> None:
        start = time.monotonic()
        action = serve(ctl, pipe, lambda: int((time.monotonic() - start) * 1000), stop.is_set)
        self.last_action = action
        if action == "bootloader":
            self.world.bootloaders += 1
            # As app.run does: let the acknowledgement leave, then the RP2040 leaves USB serial for
            # its UF2 drive, which to the host is an unplug.
            time.sleep(0.1)
            threading.Thread(target=self.unplug, daemon=True).start()

    def unplug(self) -> None:
        """Pull the cable: stop the firmware and close the pseudo-terminal."""
        with self._lock:
            thread = self._thread
            if thread is None:
                return
            self._stop.set()
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
            self._thread = None
            for fd in (self._master, self._slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._master = self._slave = -1

    def replug(self) -> str:
        """Unplug, then plug in again (the board boots afresh on a new device path)."""
        self.unplug()
        return self.plug()

    @property
    def plugged(self) -> bool:
        return self._thread is not None

    def close(self) -> None:
        self.unplug()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> PtyBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
