"""One connection to a controller board over USB serial, speaking the firmware's protocol.

:class:`SerialLink` opens the port exclusively (a second program on the same port gets a clear
"busy" error instead of stealing half the bytes), decodes frames with the firmware's own
:mod:`firmware.board.framing` and :mod:`firmware.board.protocol`, counts every bad frame by
kind, and offers the commands: :meth:`~SerialLink.hello`, :meth:`~SerialLink.ping`,
:meth:`~SerialLink.raw_adc`, :meth:`~SerialLink.store_calibration`, :meth:`~SerialLink.set_led`,
:meth:`~SerialLink.stop` and :meth:`~SerialLink.bootloader`.

Used directly by ``bitbox calibrate dials`` and ``bitbox firmware list``; the
:class:`controller.dials.serial_backend.SerialBackend` runs one per connected controller.

>>> with SerialLink("/dev/ttyACM0") as link:          # doctest: +SKIP
...     info = link.hello()
...     info.controller_id, info.firmware_version
('e661410403123456', '1.0.0')
"""

from __future__ import annotations

import collections
import dataclasses
import errno
import json
import threading
import time
import zlib
from collections.abc import Callable, Mapping
from typing import Any

import serial

from controller.dials.backend import ControllerError
from controller.dials.state import LedMode
from firmware.board import framing, protocol
from firmware.board.ladder import Ladder
from firmware.board.storage import PROFILE_FORMAT

#: Wheels in the order the board reports them.
WHEELS: tuple[str, ...] = ("direction", "number", "symbol")

LED_CODES: dict[LedMode, int] = {LedMode.OFF: protocol.LED_OFF, LedMode.ON: protocol.LED_ON,
                                 LedMode.BLINK: protocol.LED_BLINK}
LED_MODES: dict[int, LedMode] = {code: mode for mode, code in LED_CODES.items()}

PROFILE_STATUS: dict[int, str] = {protocol.PROFILE_STORED: "calibrated", protocol.PROFILE_DEFAULT: "nominal",
                                  protocol.PROFILE_CORRUPT: "corrupt"}

#: How long one blocking read waits before the reader looks at the clock again (seconds).
READ_SLICE = 0.05


@dataclasses.dataclass(frozen=True)
class ControllerInfo:
    """Who is at the other end of a port: what HELLO says."""

    port: str
    uid: bytes
    firmware_version: str
    profile: str          # "calibrated", "nominal" (nothing stored) or "corrupt" (stored one failed its check)
    protocol_version: int = protocol.VERSION

    @property
    def controller_id(self) -> str:
        """The board's unique id in hex: the controller's id everywhere in bitbox."""
        return self.uid.hex()


def open_serial(port: str, baudrate: int = 115200, timeout: float = READ_SLICE,
                factory: Callable[..., Any] = serial.Serial) -> Any:
    """Open ``port`` exclusively; :class:`ControllerError` says what to do when that fails."""
    try:
        return factory(port, baudrate=baudrate, timeout=timeout, write_timeout=1.0, exclusive=True)
    except serial.SerialException as exc:
        raise ControllerError(describe_open_error(port, exc)) from None
    except OSError as exc:
        raise ControllerError(describe_open_error(port, exc)) from None


def describe_open_error(port: str, exc: BaseException) -> str:
    """A message for a failed open, with the likely cause and the fix."""
    text = str(exc)
    code = getattr(exc, "errno", None)
    if "exclusively lock" in text or code in (errno.EBUSY, errno.EAGAIN) or "Errno 11" in text or "Errno 16" in text:
        return (f"port {port} is busy: another program has it open (a running bitbox service, a serial "
                "terminal, mpremote, or ModemManager probing it); close that program and try again")
    if code == errno.ENOENT or "No such file" in text or "Errno 2]" in text:
        return (f"no serial device {port}: is the controller plugged in? `bitbox firmware list` shows the "
                "connected controllers")
    if code == errno.EACCES or "Permission denied" in text or "Errno 13" in text:
        return (f"permission denied opening {port}: add your user to the dialout group "
                "(`sudo usermod -aG dialout $USER`), then log out and back in")
    return f"cannot open {port}: {text}"


class SerialLink:
    """A connection to one controller board (see the module docstring).

    ``on_message`` is called with every valid message that is not the answer to a command
    being waited for (STATE heartbeats, unsolicited HELLO); ``on_error`` with each bad frame
    (a :class:`firmware.board.framing.FrameError`). :attr:`counters` counts frames and faults.

    Commands wait for their answer up to ``timeout`` seconds. One thread reads at a time;
    :meth:`send` may be called from any thread.
    """

    def __init__(self, port: str, timeout: float = 1.0, baudrate: int = 115200,
                 serial_factory: Callable[..., Any] = serial.Serial,
                 on_message: Callable[[protocol.Message], None] | None = None,
                 on_error: Callable[[framing.FrameError], None] | None = None) -> None:
        self.port = port
        self.timeout = timeout
        self.baudrate = baudrate
        self.serial_factory = serial_factory
        self.on_message = on_message
        self.on_error = on_error
        self.counters: collections.Counter[str] = collections.Counter()
        self.info: ControllerInfo | None = None
        self.peer_version: int | None = None
        self._serial: Any = None
        self._decoder = framing.FrameDecoder(lenient_start=True)
        self._seq = 0
        self._last_rx_seq: int | None = None
        self._write_lock = threading.Lock()
        self._pending: collections.deque[protocol.Message] = collections.deque()

    # ---- connection ----------------------------------------------------------------------

    def open(self) -> SerialLink:
        if self._serial is None:
            self._serial = open_serial(self.port, self.baudrate, READ_SLICE, self.serial_factory)
            try:
                self._serial.reset_input_buffer()
            except (serial.SerialException, OSError):
                pass
            self._decoder.reset(lenient_start=True)
        return self

    @property
    def is_open(self) -> bool:
        return self._serial is not None

    def close(self) -> None:
        """Close the port (idempotent)."""
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass

    def __enter__(self) -> SerialLink:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _require_open(self) -> Any:
        if self._serial is None:
            raise ControllerError(f"the link to {self.port} is closed")
        return self._serial

    # ---- bytes in and out ----------------------------------------------------------------

    def send(self, kind: int, **fields: Any) -> int:
        """Send one command; returns its sequence number (replies carry it as ``reply_to``)."""
        ser = self._require_open()
        with self._write_lock:
            seq = self._seq
            self._seq = (self._seq + 1) & 0xFFFF
            frame = framing.encode_frame(protocol.encode(kind, seq, **fields))
            try:
                ser.write(frame)
            except (serial.SerialException, OSError) as exc:
                raise ControllerError(f"controller on {self.port} went away while sending ({exc})") from exc
        return seq

    def read_messages(self, timeout: float = READ_SLICE) -> list[protocol.Message]:
        """Valid messages received within about ``timeout`` seconds (bad frames are counted).

        Raises ``serial.SerialException`` or ``OSError`` when the device is gone (unplugged).
        """
        ser = self._require_open()
        deadline = time.monotonic() + timeout
        out: list[protocol.Message] = []
        while True:
            data = ser.read(ser.in_waiting or 1)
            if data:
                out.extend(self._decode(data))
                if out:
                    return out
            if time.monotonic() >= deadline:
                return out

    def fileno(self) -> int:
        """The port's file descriptor, for a selector watching many ports from one thread;
        ``OSError`` when the port has none (a pyserial URL such as ``loop://``)."""
        try:
            return int(self._require_open().fileno())
        except (AttributeError, TypeError, ValueError, serial.SerialException) as exc:
            raise OSError(f"{self.port} has no file descriptor ({exc})") from None

    def read_ready(self) -> list[protocol.Message]:
        """The valid messages in the bytes waiting now (bad frames are counted), for a caller a
        selector told that the port is readable: no waiting beyond that.

        Raises ``serial.SerialException`` or ``OSError`` when the device is gone (unplugged): a port
        that reports readiness and then has nothing to read has been closed at the other end.
        """
        ser = self._require_open()
        data = ser.read(ser.in_waiting or 1)
        return self._decode(data) if data else []

    def _decode(self, data: bytes) -> list[protocol.Message]:
        messages = []
        for item in self._decoder.feed(data):
            if isinstance(item, framing.FrameError):
                self._fault(item)
                continue
            try:
                msg = protocol.decode(item)
            except protocol.VersionError as exc:
                self.peer_version = item[0]
                self._fault(exc)
                continue
            except protocol.ProtocolError as exc:
                self._fault(exc)
                continue
            if msg.kind >= 0x80:
                self._fault(protocol.UnknownTypeError(f"the board sent a host command ({msg.name})"))
                continue
            self.counters["frames"] += 1
            self._track_seq(msg.seq, msg.kind)
            messages.append(msg)
        return messages

    def _fault(self, exc: framing.FrameError) -> None:
        self.counters[exc.KIND] += 1
        if self.on_error is not None:
            self.on_error(exc)

    def _track_seq(self, seq: int, kind: int) -> None:
        last = self._last_rx_seq
        self._last_rx_seq = seq
        if last is None or kind == protocol.HELLO:
            return
        gap = (seq - last - 1) & 0xFFFF
        if 0 < gap < 1000:
            self.counters["dropped"] += gap

    # ---- commands ------------------------------------------------------------------------

    def request(self, kind: int, reply_kinds: tuple[int, ...], timeout: float | None = None,
                **fields: Any) -> protocol.Message:
        """Send a command and wait for the message answering it (one of ``reply_kinds``).

        Other messages received meanwhile go to ``on_message``. :class:`ControllerError` on a
        timeout (naming a protocol version mismatch when that is the cause).
        """
        timeout = self.timeout if timeout is None else timeout
        seq = self.send(kind, **fields)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                messages = self.read_messages(min(left, READ_SLICE))
            except (serial.SerialException, OSError) as exc:
                raise ControllerError(f"controller on {self.port} went away ({exc})") from exc
            for msg in messages:
                if msg.kind in reply_kinds and msg.fields.get("reply_to") == seq:
                    return msg
                if msg.kind == protocol.ACK and msg.reply_to == seq:
                    return msg
                if self.on_message is not None:
                    self.on_message(msg)
                else:
                    self._pending.append(msg)
        self.counters["timeouts"] += 1
        name = protocol.NAMES.get(kind, hex(kind))
        if self.peer_version is not None and self.peer_version != protocol.VERSION:
            raise ControllerError(
                f"controller on {self.port} speaks protocol version {self.peer_version}; this bitbox speaks "
                f"version {protocol.VERSION}: update its firmware with `bitbox firmware flash --port {self.port}`")
        raise ControllerError(
            f"no answer to {name} from {self.port} within {timeout:g} s: is the bitbox firmware running on it? "
            "(`bitbox firmware list`; a board with plain MicroPython needs `bitbox firmware flash`)")

    def _expect_ok(self, msg: protocol.Message, what: str) -> None:
        if msg.kind == protocol.ACK and msg.status != protocol.OK:
            status = protocol.STATUS_NAMES.get(msg.status, str(msg.status))
            detail = f": {msg.text}" if msg.text else ""
            raise ControllerError(f"the controller on {self.port} refused {what} ({status}{detail})")

    def pending(self) -> list[protocol.Message]:
        """Messages received while waiting for answers (when no ``on_message`` is set)."""
        out = list(self._pending)
        self._pending.clear()
        return out

    def hello(self, timeout: float | None = None) -> ControllerInfo:
        """Ask the board who it is; the answer is also kept in :attr:`info`."""
        msg = self.request(protocol.HELLO_REQ, (protocol.HELLO,), timeout)
        self._expect_ok(msg, "HELLO")
        self.info = ControllerInfo(self.port, msg.uid, msg.version, PROFILE_STATUS[msg.profile])
        return self.info

    def ping(self, timeout: float | None = None) -> float:
        """Round trip time in seconds."""
        token = int(time.monotonic_ns() & 0xFFFFFFFF)
        start = time.perf_counter()
        msg = self.request(protocol.PING, (protocol.PONG,), timeout, token=token)
        self._expect_ok(msg, "PING")
        if msg.token != token:
            raise ControllerError(f"the controller on {self.port} echoed the wrong ping token")
        return time.perf_counter() - start

    def raw_readings(self, timeout: float | None = None) -> tuple[tuple[int, int, int], bool]:
        """The latest averaged ADC reading of each wheel (direction, number, symbol), and the raw button."""
        msg = self.request(protocol.READ_RAW, (protocol.RAW,), timeout)
        self._expect_ok(msg, "READ_RAW")
        return (msg.direction, msg.number, msg.symbol), bool(msg.button)

    def raw_adc(self, timeout: float | None = None) -> tuple[int, int, int]:
        """The latest averaged ADC reading of each wheel, on the 0..65535 scale (for calibration)."""
        return self.raw_readings(timeout)[0]

    def set_led(self, mode: LedMode, timeout: float | None = None) -> None:
        msg = self.request(protocol.SET_LED, (), timeout, mode=LED_CODES[LedMode(mode)])
        self._expect_ok(msg, "SET_LED")

    def store_calibration(self, ladders: Mapping[str, Ladder], timeout: float = 3.0) -> int:
        """Store calibrated ladders (one per wheel) on the board; returns the profile's CRC-32.

        The board checks the CRC, the ladders and the number of positions before writing, and
        uses the new ladders at once. :class:`ControllerError` if it refuses.
        """
        body = profile_bytes(ladders)
        crc = zlib.crc32(body) & 0xFFFFFFFF
        msg = self.request(protocol.STORE_PROFILE, (), timeout, checksum=crc, profile=body)
        self._expect_ok(msg, "the calibration")
        return crc

    def stop(self, timeout: float | None = None) -> None:
        """Ask the firmware to hand the port back to the MicroPython REPL (before copying files)."""
        msg = self.request(protocol.STOP, (), timeout)
        self._expect_ok(msg, "STOP")

    def restore_repl(self) -> None:
        """Send Ctrl-B: a plain MicroPython board that took our frames as keystrokes (0x01 is Ctrl-A,
        raw-REPL mode) goes back to its normal prompt. Harmless to the bitbox firmware (a bad frame)."""
        if self._serial is None:
            return
        try:
            with self._write_lock:
                self._serial.write(b"\r\x02")
        except (serial.SerialException, OSError):
            pass

    def bootloader(self, timeout: float | None = None) -> None:
        """Reboot the board into its USB bootloader (it then shows up as a UF2 drive, not a serial port)."""
        msg = self.request(protocol.BOOTLOADER, (), timeout)
        self._expect_ok(msg, "BOOTLOADER")


def profile_bytes(ladders: Mapping[str, Ladder]) -> bytes:
    """The profile the board stores: one ladder per wheel, as compact JSON."""
    missing = [w for w in WHEELS if w not in ladders]
    if missing:
        raise ControllerError(f"a calibration needs a ladder for every wheel; missing: {', '.join(missing)}")
    data = {"format": PROFILE_FORMAT, "ladders": {w: ladders[w].to_list() for w in WHEELS}}
    body = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    if len(body) > framing.MAX_PAYLOAD - protocol.HEADER_SIZE - 4:
        raise ControllerError(f"the calibration profile ({len(body)} bytes) does not fit in one frame")
    return body
