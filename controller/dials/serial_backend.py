"""The ``serial`` backend: RP2040 controller boards on USB, running the bitbox firmware.

Controllers are found by USB identity (the Pico's MicroPython serial port, VID:PID 2e8a:0005
from ``hardware/pinmap-usb.toml``, optionally narrowed to some USB serial numbers) or given as
explicit ports. Each port gets a reader thread with its own :class:`SerialLink`; a controller's
id is the board's unique id from its HELLO, so it keeps its id whatever port it lands on.

What can go wrong, and what the backend does:

- unplugged (the read fails): the controller is published as disconnected; when a port with
  the same identity reappears the board is greeted again and comes back with its state;
- silent (no STATE for ``heartbeat_timeout`` seconds): published as disconnected, and back as
  soon as STATE frames resume;
- bad bytes (corrupt, truncated, random, wrong CRC, unknown protocol version, impossible field
  values): dropped, counted per controller (:meth:`SerialBackend.counters`) and reported as
  ERROR events (at most one per kind per ``error_interval`` seconds, with the count);
- a wheel reading between two positions (BETWEEN): the wheel reads ``None`` and the fault is
  counted and reported. A wheel never shows a position the board did not settle on.

>>> with SerialBackend() as backend:                  # doctest: +SKIP
...     event = backend.get_event(timeout=2.0)
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import serial
import serial.tools.list_ports

from controller.dials.backend import ControllerBackend, ControllerError
from controller.dials.serial_link import LED_CODES, LED_MODES, READ_SLICE, WHEELS, SerialLink
from controller.dials.state import WHEEL_POSITIONS, ControllerState, LedMode
from firmware.board import framing, protocol

log = logging.getLogger(__name__)

#: Longest wait before asking a port that did not answer again (seconds).
MAX_RETRY_S = 30.0

#: Counts kept by each SerialLink, added to the controller's counters when its link closes.
_LINK_COUNTERS = ("frames", "dropped", "timeouts")


def usb_identity() -> tuple[int, int]:
    """``(vid, pid)`` from ``hardware/pinmap-usb.toml``."""
    from firmware.board_config import usb_identity as from_pinmap

    return from_pinmap()


def matching_ports(comports: Callable[[], Iterable[Any]], vid_pid: tuple[int, int],
                   serial_numbers: Iterable[str] | None = None) -> list[Any]:
    """The ports from ``comports()`` with the given USB identity (and serial number, when given)."""
    wanted = None if serial_numbers is None else {s.lower() for s in serial_numbers}
    found = []
    for info in comports():
        if (getattr(info, "vid", None), getattr(info, "pid", None)) != tuple(vid_pid):
            continue
        number = (getattr(info, "serial_number", None) or "").lower()
        if wanted is not None and number not in wanted:
            continue
        found.append(info)
    return sorted(found, key=lambda p: p.device)


class _PortWorker:
    """Reads one port on its own thread; publishes through the backend."""

    def __init__(self, backend: SerialBackend, port: str) -> None:
        self.backend = backend
        self.port = port
        self.link: SerialLink | None = None
        self.controller_id: str | None = None
        self.connected = False
        self.codes: dict[str, int] = {}
        self.unsettled_since: float | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name=f"serial-{port}", daemon=True)

    def run(self) -> None:
        backend = self.backend
        try:
            self._serve()
        except ControllerError as exc:
            backend._port_failed(self, str(exc))
        except (serial.SerialException, OSError) as exc:
            self._lost(f"unplugged or lost ({exc.__class__.__name__}: {exc})")
        except Exception as exc:  # never let one controller's fault stop the others
            log.exception("reader for %s failed", self.port)
            self._lost(f"reader failed ({exc.__class__.__name__}: {exc})")
        finally:
            if self.link is not None:
                self.link.close()
            backend._worker_done(self)

    def _serve(self) -> None:
        backend = self.backend
        link = SerialLink(self.port, timeout=backend.hello_timeout, serial_factory=backend.serial_factory,
                          on_error=self._bad_frame)
        self.link = link
        link.open()
        info = None
        for attempt in range(backend.hello_attempts):
            if self.stop.is_set():
                return
            try:
                info = link.hello()
                break
            except ControllerError:
                if link.peer_version not in (None, protocol.VERSION):
                    raise
                if attempt == backend.hello_attempts - 1:
                    link.restore_repl()
                    raise
        assert info is not None
        self.controller_id = info.controller_id
        backend._hello(self, info)
        link.on_message = None
        last_state = time.monotonic()
        for msg in link.pending():
            if msg.kind == protocol.STATE:
                self._state(msg)
                last_state = time.monotonic()
        while not self.stop.is_set():
            messages = link.read_messages(READ_SLICE)
            now = time.monotonic()
            for msg in messages:
                if msg.kind == protocol.STATE:
                    self._state(msg)
                    last_state = now
                elif msg.kind == protocol.HELLO:
                    backend._rebooted(self, msg)
                elif msg.kind == protocol.ACK and msg.status != protocol.OK:
                    backend._warn(self.controller_id, "refused",
                                  f"controller {self.controller_id} refused {protocol.NAMES.get(msg.command, msg.command)}: "
                                  f"{protocol.STATUS_NAMES.get(msg.status, msg.status)} {msg.text}".rstrip())
            if self.connected and now - last_state > backend.heartbeat_timeout:
                backend.count(self.controller_id, "silent")
                self._lost(f"no heartbeat for {now - last_state:.1f} s (board stopped talking)")

    def _bad_frame(self, exc: framing.FrameError) -> None:
        key = self.controller_id or self.port
        self.backend._warn(key, exc.KIND, f"bad frame from {key} on {self.port} ({exc.KIND}): {exc}")

    def _state(self, msg: Any) -> None:
        self.backend._state(self, msg)

    def _lost(self, why: str) -> None:
        if self.controller_id is not None and self.connected:
            self.backend._disconnected(self, why)


class SerialBackend(ControllerBackend):
    """Controllers on USB serial (see the module docstring).

    ``ports``: explicit device paths (then no USB matching); ``serial_numbers``: accept only
    these USB serial numbers; ``comports``: where ports are listed (default
    ``serial.tools.list_ports.comports``; tests pass their own); ``vid_pid``: the identity
    matched (default from ``hardware/pinmap-usb.toml``). ``heartbeat_timeout``: silence after
    which a board counts as disconnected; ``connect_grace``: how long a (re)connecting board
    may report turning wheels before it is published anyway; ``error_interval``: least time
    between two ERROR events of one kind for one controller; ``retry_interval``: first wait
    before asking a port that did not answer again (doubling up to 30 s).
    """

    NAME = "serial"

    def __init__(self, ports: Sequence[str] | None = None, *, serial_numbers: Iterable[str] | None = None,
                 comports: Callable[[], Iterable[Any]] | None = None, vid_pid: tuple[int, int] | None = None,
                 heartbeat_timeout: float = 0.5, rescan_interval: float = 0.5, error_interval: float = 1.0,
                 hello_timeout: float = 0.5, hello_attempts: int = 3, retry_interval: float = 2.0,
                 connect_grace: float = 0.3,
                 serial_factory: Callable[..., Any] = serial.Serial,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(clock)
        self.explicit_ports = list(ports) if ports else None
        self.serial_numbers = list(serial_numbers) if serial_numbers is not None else None
        self.comports = comports or serial.tools.list_ports.comports
        self.vid_pid = tuple(vid_pid) if vid_pid is not None else None
        self.heartbeat_timeout = heartbeat_timeout
        self.rescan_interval = rescan_interval
        self.error_interval = error_interval
        self.hello_timeout = hello_timeout
        self.hello_attempts = hello_attempts
        self.retry_interval = retry_interval
        self.connect_grace = connect_grace
        self.serial_factory = serial_factory
        self._workers: dict[str, _PortWorker] = {}
        self._by_id: dict[str, _PortWorker] = {}
        self._retry_at: dict[str, float] = {}
        self._failures: dict[str, tuple[int, str]] = {}
        self._counters: dict[str, Counter[str]] = {}
        self._last_warn: dict[tuple[str, str], tuple[float, int]] = {}
        self._led_wanted: dict[str, LedMode] = {}
        self._wlock = threading.Lock()
        self._stop = threading.Event()
        self._supervisor: threading.Thread | None = None
        self._rescan = threading.Event()

    # ---- lifecycle -----------------------------------------------------------------------

    def start(self) -> None:
        if self._supervisor is not None:
            return
        if self.vid_pid is None and self.explicit_ports is None:
            self.vid_pid = usb_identity()
        self._supervisor = threading.Thread(target=self._supervise, name="serial-supervisor", daemon=True)
        self._supervisor.start()

    def _close(self) -> None:
        self._stop.set()
        self._rescan.set()
        if self._supervisor is not None:
            self._supervisor.join(timeout=2.0)
        with self._wlock:
            workers = list(self._workers.values())
        for worker in workers:
            worker.stop.set()
        for worker in workers:
            worker.thread.join(timeout=2.0)

    def rescan(self) -> None:
        """Look for new ports now rather than at the next interval."""
        self._rescan.set()

    def candidates(self) -> list[str]:
        """The ports to talk to now."""
        if self.explicit_ports is not None:
            return [p for p in self.explicit_ports if os.path.exists(p) or "://" in p]
        assert self.vid_pid is not None
        return [p.device for p in matching_ports(self.comports, self.vid_pid, self.serial_numbers)]

    def _supervise(self) -> None:
        while not self._stop.is_set():
            try:
                ports = self.candidates()
            except Exception as exc:  # listing ports must not kill the backend
                log.warning("listing serial ports failed: %s", exc)
                ports = []
            now = time.monotonic()
            with self._wlock:
                for port in ports:
                    if port in self._workers or self._retry_at.get(port, 0.0) > now:
                        continue
                    worker = _PortWorker(self, port)
                    self._workers[port] = worker
                    worker.thread.start()
            self._rescan.wait(self.rescan_interval)
            self._rescan.clear()

    # ---- what the workers report -----------------------------------------------------------

    def _worker_done(self, worker: _PortWorker) -> None:
        with self._wlock:
            if self._workers.get(worker.port) is worker:
                del self._workers[worker.port]
            if worker.controller_id is not None and self._by_id.get(worker.controller_id) is worker:
                del self._by_id[worker.controller_id]
        if worker.controller_id is not None and worker.link is not None:
            for kind in _LINK_COUNTERS:
                self.count(worker.controller_id, kind, worker.link.counters.get(kind, 0))
        self._rescan.set()

    def _port_failed(self, worker: _PortWorker, why: str) -> None:
        """A port that could not be opened or did not answer: retry later (backing off), say why once."""
        with self._wlock:
            failures, last_why = self._failures.get(worker.port, (0, ""))
            self._failures[worker.port] = (failures + 1, why)
            delay = min(MAX_RETRY_S, self.retry_interval * (2 ** failures))
            self._retry_at[worker.port] = time.monotonic() + delay
        self.count(worker.port, "unanswered")
        if why != last_why:
            self._warn(worker.port, "port", why)
        if worker.controller_id is not None and worker.connected:
            self._disconnected(worker, why)

    def _hello(self, worker: _PortWorker, info: Any) -> None:
        cid = info.controller_id
        with self._wlock:
            self._by_id[cid] = worker
            self._retry_at.pop(worker.port, None)
            self._failures.pop(worker.port, None)
        self.count(cid, "hellos")
        self._board_started(worker, cid, info.profile == "corrupt")

    def _rebooted(self, worker: _PortWorker, msg: Any) -> None:
        cid = worker.controller_id
        self.count(cid, "reboots")
        self._board_started(worker, cid, msg.profile == protocol.PROFILE_CORRUPT)

    def _board_started(self, worker: _PortWorker, cid: str | None, corrupt_profile: bool) -> None:
        """A board that (re)starts is dark: give it back its LED, and say if its calibration is damaged."""
        wanted = self._led_wanted.get(cid, LedMode.OFF) if cid else LedMode.OFF
        if wanted != LedMode.OFF and worker.link is not None:
            worker.link.send(protocol.SET_LED, mode=LED_CODES[wanted])
        if corrupt_profile:
            self._warn(cid, "profile", f"controller {cid}: its stored calibration failed its check; it uses the "
                       "nominal ladders until you run `bitbox calibrate dials --build usb` again")

    def _state(self, worker: _PortWorker, msg: Any) -> None:
        cid = worker.controller_id
        assert cid is not None
        values: dict[str, int | None] = {}
        for wheel in WHEELS:
            code = getattr(msg, wheel)
            fresh = worker.codes.get(wheel) != code
            worker.codes[wheel] = code
            if code < WHEEL_POSITIONS[wheel]:
                values[wheel] = code
                continue
            values[wheel] = None
            if not fresh or code == protocol.TURNING:
                continue
            if code == protocol.BETWEEN:
                self._warn(cid, "between", f"controller {cid}: the {wheel} wheel reads between two positions "
                           "(turn it onto a position; if it persists, check its wiring or recalibrate)")
            else:
                self._warn(cid, "position", f"controller {cid}: the board reported position {code} for the "
                           f"{wheel} wheel, which has {WHEEL_POSITIONS[wheel]}; ignored (flash matching firmware "
                           "and config)")
        counters = self._counter(cid)
        with self._lock:
            counters["board_rx_errors"] = msg.rx_errors
        state = ControllerState(cid, connected=True, button=bool(msg.button), led=LED_MODES[msg.led],
                                timestamp=self.clock(), **values)
        reconnect = not worker.connected
        if reconnect and protocol.TURNING in worker.codes.values():
            # A board that just started reports TURNING until its debounce settles (tens of ms):
            # come back with the settled wheels, unless they stay unsettled past the grace time.
            if worker.unsettled_since is None:
                worker.unsettled_since = time.monotonic()
            if time.monotonic() - worker.unsettled_since < self.connect_grace:
                return
        worker.unsettled_since = None
        worker.connected = True
        if reconnect:
            self.count(cid, "connects")
        self._publish(state, f"on {worker.port}" if reconnect else "")

    def _disconnected(self, worker: _PortWorker, why: str) -> None:
        cid = worker.controller_id
        assert cid is not None
        worker.connected = False
        with self._wlock:
            current = self._by_id.get(cid)
        if current is not None and current is not worker:
            return  # the controller is already back on another port: this old reader just ends
        self.count(cid, "disconnects")
        with self._lock:
            old = self._states.get(cid, ControllerState(cid))
        self._publish(old.replace(connected=False, direction=None, number=None, symbol=None, button=False,
                                  timestamp=self.clock()), why)

    # ---- counters and errors -----------------------------------------------------------------

    def _counter(self, key: str) -> Counter[str]:
        with self._lock:
            return self._counters.setdefault(key, Counter())

    def count(self, key: str | None, kind: str, n: int = 1) -> None:
        if key is None:
            return
        counters = self._counter(key)
        with self._lock:
            counters[kind] += n

    def counters(self, controller_id: str | None = None) -> dict[str, Any]:
        """Fault and traffic counters: of one controller (by id, or port before it said hello), or all.

        Bad frames count under their kind: ``cobs``, ``crc``, ``short``, ``overlong``, ``version``,
        ``type``, ``length``, ``field``; also ``between`` and ``position`` (wheel faults), ``dropped``
        (frames missing from the sequence), ``silent``, ``disconnects``, ``connects``, ``frames``.
        """
        with self._lock:
            snapshot = {key: dict(c) for key, c in self._counters.items()}
        with self._wlock:
            links = {cid: w.link for cid, w in self._by_id.items() if w.link is not None}
        for cid, link in links.items():
            merged = snapshot.setdefault(cid, {})
            for kind in _LINK_COUNTERS:
                merged[kind] = merged.get(kind, 0) + link.counters.get(kind, 0)
        if controller_id is None:
            return snapshot
        return snapshot.get(controller_id, {})

    def _warn(self, key: str | None, kind: str, detail: str) -> None:
        """Count a fault and report it, at most once per kind per ``error_interval`` seconds."""
        if key is None:
            return
        if kind not in ("port", "refused"):
            self.count(key, kind)
        now = time.monotonic()
        with self._lock:
            last, suppressed = self._last_warn.get((key, kind), (-1e9, 0))
            if now - last < self.error_interval:
                self._last_warn[(key, kind)] = (last, suppressed + 1)
                return
            self._last_warn[(key, kind)] = (now, 0)
        if suppressed:
            detail += f" ({suppressed} more like this since the last report)"
        log.warning("%s", detail)
        self._report_error(key, detail)

    # ---- commands --------------------------------------------------------------------------

    def set_led(self, controller_id: str, mode: LedMode) -> None:
        """Drive a controller's LED; a disconnected controller gets the mode when it comes back."""
        mode = LedMode(mode)
        self.state(controller_id)  # an unknown id: ControllerError listing the known ones
        self._led_wanted[controller_id] = mode
        with self._wlock:
            worker = self._by_id.get(controller_id)
        if worker is None or worker.link is None or not worker.connected:
            return
        try:
            worker.link.send(protocol.SET_LED, mode=LED_CODES[mode])
        except ControllerError:
            pass  # unplugged just now: the reader reports it, and the mode is sent again on reconnection

    def ports(self) -> dict[str, str]:
        """The port each connected controller is on, by id."""
        with self._wlock:
            return {cid: w.port for cid, w in self._by_id.items() if w.connected}
