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
behind a pseudo-terminal on the host.
"""

import sys

try:
    from .control import Controller
    from .storage import ConfigError, Storage
except (ImportError, ValueError):
    from control import Controller
    from storage import ConfigError, Storage

#: Most bytes read from the host before the next scan.
READ_LIMIT = 256


class UsbPort:
    """The USB serial port as a byte pipe (``write``, ``read_available``, ``wait``)."""

    def __init__(self):
        import select

        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer

    def write(self, data):
        self._out.write(data)

    def read_available(self, limit):
        buf = bytearray()
        while len(buf) < limit and self._poll.poll(0):
            buf.extend(self._in.read(1))
        return buf

    def wait(self, ms):
        self._poll.poll(ms)


def make_io(machine, config):
    """``(adcs, button, led)`` for the pins config.json names."""
    Pin = machine.Pin
    adcs = [machine.ADC(Pin(w["pin"])) for w in config["wheels"]]
    active_low = config["button"].get("active_low", True)
    button = Pin(config["button"]["pin"], Pin.IN, Pin.PULL_UP if active_low else Pin.PULL_DOWN)
    led = Pin(config["led"]["pin"], Pin.OUT)
    return adcs, button, led


def button_held(button, config):
    """Whether the ready button is down now (at power-up: stay in the REPL)."""
    active = 0 if config["button"].get("active_low", True) else 1
    return button.value() == active


def serve(ctl, port, ticks_ms, should_stop=None):
    """Run the controller until it asks for an action (or ``should_stop()``); returns the action."""
    while ctl.action is None:
        if should_stop is not None and should_stop():
            return None
        ctl.step(ticks_ms())
        data = port.read_available(READ_LIMIT)
        if data:
            ctl.feed(data)
        else:
            port.wait(1)
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
    storage = Storage(root)
    try:
        config = storage.load_config()
    except ConfigError as exc:
        print("bitbox:", exc)
        return "config"
    adcs, button, led = make_io(machine, config)
    if button_held(button, config):
        print("bitbox: ready button held at start: firmware not started, REPL ready")
        return "held"
    if port is None:
        port = UsbPort()
    ctl = Controller(adcs, button, led, port.write, config, storage, machine.unique_id())
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
