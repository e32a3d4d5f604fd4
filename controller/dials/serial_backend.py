"""The ``serial`` backend: RP2040 controller boards on USB, running the bitbox firmware.

Controllers are found by USB identity (the Pico's MicroPython serial port, VID:PID 2e8a:0005
from ``hardware/pinmap-usb.toml``, optionally narrowed to some USB serial numbers) or given as
explicit ports. Each port gets its own :class:`SerialLink`; a controller's id is the board's
unique id from its HELLO, so it keeps its id whatever port it lands on. A port is greeted on a
thread of its own (the HELLO may take a few tries); once it answered, one reader thread watches
every connected port at once (``selectors``), so a frame is handled as soon as it arrives whatever
the number of boards, without a thread per board waking and taking turns for the interpreter.

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
import selectors
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
    """One port: greeted on its own thread, then read by the backend's :class:`_Reader` (or, for
    a port without a file descriptor, on its own thread still); publishes through the backend."""

    def __init__(self, backend: SerialBackend, port: str) -> None:
        self.backend = backend
        self.port = port
        self.link: SerialLink | None = None
        self.controller_id: str | None = None
        self.connected = False
        self.codes: dict[str, int] = {}
        self.unsettled_since: float | None = None
        self.last_state = 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name=f"serial-{port}", daemon=True)

    def run(self) -> None:
        backend = self.backend
        handed_over = False
        try:
            if self._greet():
                handed_over = backend._reader.adopt(self)
                if not handed_over:
                    self._read_loop()
        except ControllerError as exc:
            backend._port_failed(self, str(exc))
        except (serial.SerialException, OSError) as exc:
            self.lost(f"unplugged or lost ({exc.__class__.__name__}: {exc})")
        except Exception as exc:  # never let one controller's fault stop the others
            log.exception("reader for %s failed", self.port)
            self.lost(f"reader failed ({exc.__class__.__name__}: {exc})")
        finally:
            if not handed_over:
                self.finish()

    def finish(self) -> None:
        """Close the port and tell the backend this port is done with."""
        if self.link is not None:
            self.link.close()
        self.backend._worker_done(self)

    def _greet(self) -> bool:
        """Open the port and say HELLO; whether the board answered (``False``: asked to stop)."""
        backend = self.backend
        link = SerialLink(self.port, timeout=backend.hello_timeout, serial_factory=backend.serial_factory,
                          on_error=self._bad_frame)
        self.link = link
        link.open()
        info = None
        for attempt in range(backend.hello_attempts):
            if self.stop.is_set():
                return False
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
        self.last_state = time.monotonic()
        # Only the heartbeats that came meanwhile count: a late answer to an earlier HELLO is no reboot.
        self.handle([msg for msg in link.pending() if msg.kind == protocol.STATE], self.last_state)
        return not self.stop.is_set()

    def _read_loop(self) -> None:
        """Read on this thread until asked to stop (a port the reader cannot watch)."""
        assert self.link is not None
        while not self.stop.is_set():
            messages = self.link.read_messages(READ_SLICE)
            self.handle(messages, time.monotonic())

    def handle(self, messages: list[Any], now: float) -> None:
        """What the board said, then whether it has been silent too long."""
        backend = self.backend
        for msg in messages:
            if msg.kind == protocol.STATE:
                backend._state(self, msg)
                self.last_state = now
            elif msg.kind == protocol.HELLO:
                backend._rebooted(self, msg)
            elif msg.kind == protocol.ACK and msg.status != protocol.OK:
                backend._warn(self.controller_id, "refused",
                              f"controller {self.controller_id} refused {protocol.NAMES.get(msg.command, msg.command)}: "
                              f"{protocol.STATUS_NAMES.get(msg.status, msg.status)} {msg.text}".rstrip())
        self.check_heartbeat(now)

    def check_heartbeat(self, now: float) -> None:
        """A board that sent no STATE for ``heartbeat_timeout`` seconds counts as disconnected."""
        if self.connected and now - self.last_state > self.backend.heartbeat_timeout:
            self.backend.count(self.controller_id, "silent")
            self.lost(f"no heartbeat for {now - self.last_state:.1f} s (board stopped talking)")

    def _bad_frame(self, exc: framing.FrameError) -> None:
        key = self.controller_id or self.port
        self.backend._warn(key, exc.KIND, f"bad frame from {key} on {self.port} ({exc.KIND}): {exc}")

    def lost(self, why: str) -> None:
        if self.controller_id is not None and self.connected:
            self.backend._disconnected(self, why)


class _Reader:
    """One thread reading every greeted port: a selector wakes it as soon as any port has bytes,
    it reads what is there without waiting, and every ``READ_SLICE`` it checks the heartbeats.

    Ports are handed over with :meth:`adopt` from their greeting threads; a port that fails to
    read (unplugged) is dropped, closed and reported, and the others are not disturbed.
    """

    def __init__(self, backend: SerialBackend) -> None:
        self.backend = backend
        self._incoming: list[tuple[_PortWorker, int]] = []
        self._workers: dict[int, _PortWorker] = {}
        self._lock = threading.Lock()
        self._stopping = False
        self._thread: threading.Thread | None = None
        # Made with the thread, when the first port is handed over: the selector, and a pipe whose
        # byte wakes the thread to take a new port or to stop.
        self._selector: selectors.BaseSelector | None = None
        self._wake_r = self._wake_w = -1

    def adopt(self, worker: _PortWorker) -> bool:
        """Read ``worker``'s port from now on; ``False`` if it cannot be watched (no file
        descriptor) or the reader is stopping: the worker then reads it itself."""
        assert worker.link is not None
        try:
            fd = worker.link.fileno()
        except OSError:
            return False
        with self._lock:
            if self._stopping:
                return False
            self._incoming.append((worker, fd))
            if self._thread is None:
                self._selector = selectors.DefaultSelector()
                self._wake_r, self._wake_w = os.pipe()
                os.set_blocking(self._wake_r, False)
                os.set_blocking(self._wake_w, False)
                self._selector.register(self._wake_r, selectors.EVENT_READ, None)
                self._thread = threading.Thread(target=self._run, name="serial-reader", daemon=True)
                self._thread.start()
        self._wake()
        return True

    def stop(self, timeout: float = 2.0) -> None:
        """Stop reading, close every port read here and tell the backend (idempotent)."""
        with self._lock:
            self._stopping = True
            thread = self._thread
        if thread is not None:
            self._wake()
            thread.join(timeout)

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"\0")
        except (BlockingIOError, OSError):
            pass  # already awake, the pipe full of wake-ups, or already closed

    def _run(self) -> None:
        assert self._selector is not None
        next_check = time.monotonic() + READ_SLICE
        try:
            while True:
                with self._lock:
                    if self._stopping:
                        return
                    incoming, self._incoming = self._incoming, []
                for worker, fd in incoming:
                    self._selector.register(fd, selectors.EVENT_READ, worker)
                    self._workers[fd] = worker
                for key, _mask in self._selector.select(max(0.0, next_check - time.monotonic())):
                    if key.data is None:
                        self._drain_wake()
                    else:
                        self._read(key.fd, key.data)
                now = time.monotonic()
                if now >= next_check:
                    for worker in list(self._workers.values()):
                        worker.check_heartbeat(now)
                    next_check = now + READ_SLICE
        except Exception:  # never expected: say so; every port is greeted again and read on its own thread
            log.exception("the serial reader failed")
        finally:
            self._release()

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_r, 4096):
                pass
        except BlockingIOError:
            pass

    def _read(self, fd: int, worker: _PortWorker) -> None:
        assert worker.link is not None
        try:
            messages = worker.link.read_ready()
        except (serial.SerialException, OSError, ControllerError) as exc:
            self._drop(fd, worker)
            worker.lost(f"unplugged or lost ({exc.__class__.__name__}: {exc})")
            worker.finish()
            return
        try:
            worker.handle(messages, time.monotonic())
        except Exception as exc:  # never let one controller's fault stop the others
            log.exception("reader for %s failed", worker.port)
            self._drop(fd, worker)
            worker.lost(f"reader failed ({exc.__class__.__name__}: {exc})")
            worker.finish()

    def _drop(self, fd: int, worker: _PortWorker) -> None:
        self._workers.pop(fd, None)
        try:
            assert self._selector is not None
            self._selector.unregister(fd)
        except (KeyError, ValueError, OSError):
            pass

    def _release(self) -> None:
        """Close every port this reader had (and any handed over too late), then the selector."""
        with self._lock:
            self._stopping = True
            incoming, self._incoming = self._incoming, []
        workers = list(self._workers.values()) + [worker for worker, _fd in incoming]
        self._workers.clear()
        for worker in workers:
            worker.finish()
        if self._selector is not None:
            self._selector.close()
        wake, self._wake_r, self._wake_w = (self._wake_r, self._wake_w), -1, -1
        for fd in wake:
            try:
                os.close(fd)
            except OSError:
                pass


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
        self._reader = _Reader(self)

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
        self._reader.stop()
        for worker in workers:
            if worker.thread.is_alive():
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
