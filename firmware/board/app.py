"""Wiring of the controller logic to the board: pins from config.json, the USB serial port, the loop.

``main.py`` calls :func:`run` at power-up. The firmware talks over the USB serial port that the
MicroPython REPL normally owns: it writes frames with ``sys.stdout.buffer`` (raw bytes, no
newline translation) and reads with ``sys.stdin.buffer`` when ``select.poll`` says a byte is
waiting. ``micropython.kbd_intr(-1)`` keeps a 0x03 byte inside a frame from raising
KeyboardInterrupt: ``main.py`` turns it off before anything else (a frame may arrive while the
modules still compile), :func:`run` does it again for a start by hand from the REPL, and it is
never turned back on while the firmware owns the port (not even while a fault waits for the
reset: the host keeps sending). To reach the REPL the host sends STOP (``bitbox firmware flash``
does), or hold the ready button while plugging the board in; :func:`run` then returns and the
REPL takes over once ``main.py`` ends.

:func:`serve` is the loop itself, written against a small port object so the same loop runs
behind a pseudo-terminal on the host. What only start-up needs is not kept while the loop
runs: :func:`run` starts with startup.py (config.json, the pins, the controller) and drops it,
with storage.py, before the loop; storage.py comes back only for the moment the host stores a
calibration (:class:`ProfileFile`). The heap the loop keeps is measured on an emulated Pico by
``bench/firmware_emulated.py``.
"""

import gc
import sys

#: Most bytes read from the host before the next scan.
READ_LIMIT = 256

#: What :meth:`UsbPort.read_available` returns when nothing is waiting (the same object every time).
NOTHING = b""


class UsbPort:
    """The USB serial port as a byte pipe (``write``, ``read_available``, ``wait``).

    Looking for input and waiting allocate nothing (``poll.ipoll``): the loop runs a thousand
    times a second for as long as the board is on.
    """

    def __init__(self):
        import select

        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._byte = bytearray(1)

    def write(self, data):
        self._out.write(data)

    def _ready(self, ms):
        for _ in self._poll.ipoll(ms):
            return True
        return False

    def read_available(self, limit):
        if not self._ready(0):
            return NOTHING
        buf = bytearray()
        while len(buf) < limit and self._ready(0):
            self._in.readinto(self._byte)
            buf.append(self._byte[0])
        return buf

    def wait(self, ms):
        """Sleep up to ``ms`` milliseconds (the CPU idles), or until the host sends a byte."""
        self._ready(ms)


def storage_module():
    """The storage module (config.json, profile.json), imported now if it is not in memory."""
    try:
        from . import storage
    except (ImportError, ValueError):
        import storage
    return storage


def startup_module():
    """The start-up module, imported now if it is not in memory (see :func:`run`)."""
    try:
        from . import startup
    except (ImportError, ValueError):
        import startup
    return startup


def forget(*names):
    """Drop the board's modules ``names`` from memory once nothing uses them (start-up code).

    Only the top-level modules the board imports are dropped; run as a package (on the host),
    the modules stay where their importers put them.
    """
    for name in names:
        sys.modules.pop(name, None)


class ProfileFile:
    """The calibration profile on the board, read and written with storage.py in memory only meanwhile.

    Reading config.json and the profile is start-up work, and storing a calibration is rare:
    :func:`run` drops the storage module before the loop starts (kept, its code would take about
    4 KB of the board's RAM), and :meth:`save_profile` brings it back for the moment a
    calibration is stored. Same methods as :class:`storage.Storage`'s for the profile.
    """

    def __init__(self, root=""):
        self.root = root

    def load_profile(self, config):
        return storage_module().Storage(self.root).load_profile(config)

    def save_profile(self, body, crc, wheels):
        try:
            return storage_module().Storage(self.root).save_profile(body, crc, wheels)
        finally:
            forget("storage")


def make_io(machine, config):
    """``(adcs, button, led)`` for the pins config.json names."""
    Pin = machine.Pin
    adcs = [machine.ADC(Pin(w["pin"])) for w in config["wheels"]]
    active_low = config["button"].get("active_low", True)
    button = Pin(config["button"]["pin"], Pin.IN, Pin.PULL_UP if active_low else Pin.PULL_DOWN)
    led = Pin(config["led"]["pin"], Pin.OUT)
    return adcs, button, led


def serve(ctl, port, ticks_ms, should_stop=None):
    """Run the controller until it asks for an action (or ``should_stop()``); returns the action.

    The loop waits only for what is left of the scan period: a scan that ran late is followed
    by the next one at once, so the board keeps to ``scan_hz`` while each scan takes less than
    the period.
    """
    while ctl.action is None:
        if should_stop is not None and should_stop():
            return None
        ctl.step(ticks_ms())
        data = port.read_available(READ_LIMIT)
        if data:
            ctl.feed(data)
        else:
            wait = ctl.due_in(ticks_ms())
            if wait:
                port.wait(wait)
    return ctl.action


def run(machine=None, root="", port=None, clock=None):
    """Start the controller firmware on the board; returns when it hands over to the REPL.

    ``machine``, ``port`` (default: the USB serial port) and ``clock`` (an object with
    ``ticks_ms()`` and ``sleep_ms()``; default: the ``time`` module) can be replaced to run this
    under CPython.
    """
    if clock is None:
        import time as clock
    if machine is None:
        import machine
    started = startup_module().start(machine, root, port)
    # Start-up is over: its code, storage.py and the rest of config.json are free memory.
    forget("startup", "storage")
    gc.collect()
    if isinstance(started, str):
        return started
    ctl, port = started
    try:
        import micropython

        micropython.kbd_intr(-1)  # main.py did it already; this covers app.run() typed at the REPL
    except ImportError:
        pass
    try:
        action = serve(ctl, port, clock.ticks_ms)
    except Exception as exc:  # a firmware fault: report it and restart (Ctrl-C stays off: frames keep coming)
        print("bitbox: firmware fault, restarting in 2 s:", repr(exc))
        clock.sleep_ms(2000)
        machine.reset()
        return "fault"
    if action == "bootloader":
        clock.sleep_ms(100)  # let the acknowledgement leave over USB
        machine.bootloader()
    return action
