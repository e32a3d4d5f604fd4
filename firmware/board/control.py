"""The controller board's logic: scan the wheels and the button, drive the LED, talk to the host.

:class:`Controller` owns no hardware and reads no clock: it is given ADC, pin and write objects
and driven by :meth:`Controller.step` (with the time in milliseconds) and
:meth:`Controller.feed` (with bytes from the host). On the board, ``main.py`` wires it to
``machine`` and the USB serial port; under CPython the tests and the pseudo-terminal board
wire it to fakes, so the very same logic runs in both places.

Each scan (``scan_hz`` times per second) reads every wheel's ADC ``average`` times, classifies
the mean with the wheel's :class:`ladder.Ladder`, and debounces it: a wheel reports a position
only once it has read it for ``wheel_settle_ms``, TURNING while it changes, and BETWEEN once it
has read no position at all for ``between_ms`` (a wiper resting between detents, a broken
wire). The full state goes out as a STATE message on every change and at least every
``heartbeat_ms``.

Runs unchanged under MicroPython and CPython.
"""

try:
    from time import ticks_add, ticks_diff  # MicroPython: ticks_ms wraps after about 12 days
except ImportError:
    def ticks_add(a, b):
        """``a + b`` in milliseconds (CPython clocks do not wrap)."""
        return a + b

    def ticks_diff(a, b):
        """``a - b`` in milliseconds (CPython clocks do not wrap)."""
        return a - b

# No import of storage: on the board storage.py is in memory only at start-up and while a
# calibration is stored (app.ProfileFile); its ProfileError is told by the ACK status it carries.
try:
    from . import framing, protocol
except (ImportError, ValueError):
    import framing
    import protocol

#: Version of this firmware, reported in HELLO and by ``bitbox firmware list``.
FIRMWARE_VERSION = "1.0.0"

#: ``reply_to`` of a HELLO the board sends on its own at start.
UNSOLICITED = 0xFFFF

TURNING = protocol.TURNING
BETWEEN = protocol.BETWEEN


class Controller:
    """One controller board's logic.

    ``adcs``: three objects with ``read_u16()`` (direction, number, symbol, as config.json
    lists them); ``button``: an object with ``value()``; ``led``: an object with ``value(v)``;
    ``write``: a function taking the bytes to send to the host; ``config``: the parsed
    config.json (read here, not kept); ``storage``: the calibration profile's keeper, with the
    ``load_profile`` and ``save_profile`` of :class:`storage.Storage` (a Storage, or on the board
    :class:`app.ProfileFile`), or ``None`` for nominal ladders and no profile writes; ``uid``: the
    board's unique id bytes.

    From config.json (:func:`startup.configure`, start-up code the board does not keep):
    :attr:`wheels`, :attr:`wheel_names`, the timings (:attr:`scan_period_ms`, :attr:`average`,
    :attr:`heartbeat_ms`, :attr:`blink_ms`, :attr:`between_ms`), the pins' levels
    (:attr:`button_active`, :attr:`led_on_level`), :attr:`ladders` and :attr:`profile_status`, and
    the debouncers (:attr:`wheel_debouncers`, :attr:`button_debouncer`).

    After :meth:`step` or :meth:`feed`, :attr:`action` may hold ``"stop"`` (leave for the REPL)
    or ``"bootloader"``: the caller does it once the acknowledgement has gone out.

    ``write`` receives the bytes of one frame and must be done with them when it returns: STATE
    frames are packed in one buffer that the next STATE overwrites.
    """

    def __init__(self, adcs, button, led, write, config, storage=None, uid=b""):
        self.adcs = adcs
        self.button = button
        self.led = led
        self.write = write
        self.storage = storage
        self.uid = uid
        # Reading config.json is start-up code, in a module the board drops before its loop.
        _startup().configure(self, config)
        self.decoder = framing.FrameDecoder()
        self.seq = 0
        self.led_mode = protocol.LED_OFF
        self.led_level = -1
        self.positions = [protocol.TURNING] * len(self.wheel_names)
        self.pressed = 0
        self.raw = [0] * len(self.wheel_names)
        self.raw_button = 0
        self._between_since = [None] * len(self.wheel_names)
        self._sent = [-1, -1, -1, -1, -1]  # what the last STATE said (state_tuple's order); none yet
        self._sent_at = 0
        self._next_scan = None
        self._started = False
        # The STATE message and its frame, packed in place: no allocation in the scan loop.
        self._state = bytearray(protocol.STATE_SIZE)
        self._frame = bytearray(protocol.STATE_SIZE + 4)
        self.action = None
        # Counters, for tests and diagnostics.
        self.scans = 0
        self.messages_sent = 0
        self.changes_sent = 0
        self.rx_errors = 0
        self.commands = 0

    # ---- time ----------------------------------------------------------------------------

    def step(self, now_ms):
        """Do whatever is due at ``now_ms``: the first HELLO, a scan, the LED, a STATE message.

        Allocates nothing unless a message other than STATE goes out (the HELLO at start).
        """
        if not self._started:
            self._started = True
            self._next_scan = now_ms
            self._sent_at = now_ms
            self._send_hello(UNSOLICITED)
        if ticks_diff(now_ms, self._next_scan) >= 0:
            self.scan(now_ms)
            # Scans keep to their schedule: one that came up to a period late is made up at the
            # next step (the loop's waits end a little late), one later than that is dropped and
            # a new period starts: no burst of catch-up scans after a stall.
            period = self.scan_period_ms
            nxt = ticks_add(self._next_scan, period)
            if ticks_diff(now_ms, nxt) >= period:
                nxt = ticks_add(now_ms, period)
            self._next_scan = nxt
        self._drive_led(now_ms)
        if self._state_changed():
            self._send_state(now_ms, True)
        elif ticks_diff(now_ms, self._sent_at) >= self.heartbeat_ms:
            self._send_state(now_ms, False)

    def due_in(self, now_ms):
        """Milliseconds from ``now_ms`` until the next scan is due (0: it is due now)."""
        wait = ticks_diff(self._next_scan, now_ms) if self._started else 0
        return wait if wait > 0 else 0

    def scan(self, now_ms):
        """Read every wheel and the button once and update the debounced positions."""
        self.scans += 1
        average = self.average
        between_ms = self.between_ms
        adcs = self.adcs
        ladders = self.ladders
        debouncers = self.wheel_debouncers
        positions = self.positions
        raw_values = self.raw
        between_since = self._between_since
        for i in range(len(positions)):
            adc = adcs[i]
            total = 0
            for _ in range(average):
                total += adc.read_u16()
            raw = total // average
            raw_values[i] = raw
            pos = ladders[i].classify(raw)
            stable = debouncers[i].update(pos, now_ms)
            if pos >= 0:
                between_since[i] = None
            elif between_since[i] is None:
                between_since[i] = now_ms
            if stable >= 0:
                positions[i] = stable
            elif pos < 0 and ticks_diff(now_ms, between_since[i]) >= between_ms:
                positions[i] = BETWEEN
            else:
                positions[i] = TURNING
        raw_button = 1 if self.button.value() == self.button_active else 0
        self.raw_button = raw_button
        self.pressed = self.button_debouncer.update(raw_button, now_ms)

    def state_tuple(self):
        """What a STATE message carries, apart from flags and counters."""
        return (self.positions[0], self.positions[1], self.positions[2], self.pressed, self.led_mode)

    def _state_changed(self):
        """Whether the state differs from what the last STATE message said (compared in place)."""
        sent = self._sent
        positions = self.positions
        return (positions[0] != sent[0] or positions[1] != sent[1] or positions[2] != sent[2]
                or self.pressed != sent[3] or self.led_mode != sent[4])

    def _drive_led(self, now_ms):
        mode = self.led_mode
        if mode == protocol.LED_BLINK:
            on = (now_ms // self.blink_ms) % 2 == 0
        else:
            on = mode == protocol.LED_ON
        level = self.led_on_level if on else 1 - self.led_on_level
        if level != self.led_level:
            self.led_level = level
            self.led.value(level)

    # ---- host commands -------------------------------------------------------------------

    def feed(self, data):
        """Handle bytes received from the host: complete frames are decoded and obeyed."""
        for item in self.decoder.feed(data):
            if isinstance(item, framing.FrameError):
                self.rx_errors += 1
            else:
                self._handle(item)

    def _handle(self, payload):
        try:
            msg = protocol.decode(payload)
        except protocol.VersionError:
            version, kind, seq = protocol.peek(payload)
            if kind in protocol.ANY_VERSION and len(payload) == protocol.HEADER_SIZE:
                self._obey_any_version(kind, seq)
            else:
                self.rx_errors += 1
                self._ack(seq, kind, protocol.BAD_VERSION,
                          "this firmware speaks protocol %d, not %d" % (protocol.VERSION, version))
            return
        except protocol.ProtocolError as exc:
            self.rx_errors += 1
            head = protocol.peek(payload)
            if head is not None:
                status = protocol.UNKNOWN_COMMAND if isinstance(exc, protocol.UnknownTypeError) else protocol.BAD_REQUEST
                self._ack(head[2], head[1], status, _ascii(str(exc)))
            return
        self.commands += 1
        kind = msg.kind
        if kind == protocol.HELLO_REQ:
            self._send_hello(msg.seq)
        elif kind == protocol.PING:
            self._send(protocol.PONG, reply_to=msg.seq, token=msg.token)
        elif kind == protocol.SET_LED:
            self.led_mode = msg.mode
            self._ack(msg.seq, kind, protocol.OK, "")
        elif kind == protocol.READ_RAW:
            self._send(protocol.RAW, reply_to=msg.seq, direction=self.raw[0], number=self.raw[1],
                       symbol=self.raw[2], button=self.raw_button)
        elif kind == protocol.STORE_PROFILE:
            self._store_profile(msg)
        elif kind in protocol.ANY_VERSION:
            self._obey_any_version(kind, msg.seq)
        else:
            self.rx_errors += 1
            self._ack(msg.seq, kind, protocol.UNKNOWN_COMMAND, "%s is not a command" % msg.name)

    def _obey_any_version(self, kind, seq):
        self._ack(seq, kind, protocol.OK, "")
        self.action = "stop" if kind == protocol.STOP else "bootloader"

    def _store_profile(self, msg):
        if self.storage is None:
            self._ack(msg.seq, msg.kind, protocol.STORAGE_FAILED, "this board has no storage")
            return
        try:
            ladders = self.storage.save_profile(msg.profile, msg.checksum, self.wheels)
        except ValueError as exc:
            status = getattr(exc, "status", None)  # a storage.ProfileError says how to answer
            if status is None:
                raise
            self._ack(msg.seq, msg.kind, status, _ascii(str(exc)))
            return
        self.ladders = [ladders[name] for name in self.wheel_names]
        for deb in self.wheel_debouncers:
            deb.reset()
        self.profile_status = protocol.PROFILE_STORED
        self._ack(msg.seq, msg.kind, protocol.OK, "")

    # ---- sending -------------------------------------------------------------------------

    def _send(self, kind, **fields):
        payload = protocol.encode(kind, self.seq, **fields)
        self.seq = (self.seq + 1) & 0xFFFF
        self.messages_sent += 1
        self.write(framing.encode_frame(payload))

    def _ack(self, reply_to, command, status, text):
        self._send(protocol.ACK, reply_to=reply_to, command=command & 0xFF, status=status, text=text[:200])

    def _send_hello(self, reply_to):
        self._send(protocol.HELLO, reply_to=reply_to, profile=self.profile_status, uid=self.uid,
                   version=FIRMWARE_VERSION)

    def _send_state(self, now_ms, change):
        flags = protocol.FLAG_CHANGE if change else 0
        if self.profile_status == protocol.PROFILE_DEFAULT:
            flags |= protocol.FLAG_PROFILE_DEFAULT
        elif self.profile_status == protocol.PROFILE_CORRUPT:
            flags |= protocol.FLAG_PROFILE_CORRUPT
        self._sent_at = now_ms
        if change:
            self.changes_sent += 1
        positions = self.positions
        sent = self._sent
        sent[0] = positions[0]
        sent[1] = positions[1]
        sent[2] = positions[2]
        sent[3] = self.pressed
        sent[4] = self.led_mode
        protocol.pack_state(self._state, self.seq, sent[0], sent[1], sent[2], sent[3], sent[4], flags,
                            self.rx_errors & 0xFFFF)
        self.seq = (self.seq + 1) & 0xFFFF
        self.messages_sent += 1
        framing.encode_frame_into(self._state, self._frame)  # always fills the buffer: 16 bytes
        self.write(self._frame)


def _startup():
    """startup.py, imported for the moment a controller is built."""
    try:
        from . import startup
    except (ImportError, ValueError):
        import startup
    return startup


def _ascii(text):
    return "".join(c if " " <= c <= "~" else "?" for c in text)
