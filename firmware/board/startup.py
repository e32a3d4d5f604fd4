"""The firmware's start-up: what runs once at power-up, in a module the board drops before its loop.

:func:`start` reads and checks config.json (with storage.py), sets up the pins, leaves the port
to the REPL when the ready button is held, and builds the :class:`control.Controller`;
:func:`configure` gives a new controller its settings from config.json and its ladders from
the calibration profile. ``app.run()`` starts with this module, then drops it and storage.py
from ``sys.modules`` and collects the garbage before its loop: code that runs once would
otherwise hold the board's RAM for as long as the board is on. Run as a package (on the host),
the modules stay loaded.

Runs unchanged under MicroPython and CPython.
"""

try:
    from . import protocol
    from .debounce import ButtonDebouncer, Debouncer
    from .ladder import Ladder
except (ImportError, ValueError):
    import protocol
    from debounce import ButtonDebouncer, Debouncer
    from ladder import Ladder


def configure(ctl, config):
    """Set a new controller's settings from ``config`` (config.json) and its ladders.

    The ladders come from ``ctl.storage`` (the stored calibration, else the nominal ladders)
    or, without storage, from config.json's nominal ladders.
    """
    wheels = config["wheels"]
    ctl.wheels = wheels
    names = [w["name"] for w in wheels]
    ctl.wheel_names = names
    ctl.scan_period_ms = max(1, 1000 // int(config["scan_hz"]))
    ctl.average = int(config["average"])
    ctl.heartbeat_ms = int(config["heartbeat_ms"])
    ctl.blink_ms = int(config["blink_ms"])
    ctl.between_ms = int(config["between_ms"])
    ctl.button_active = 0 if config["button"].get("active_low", True) else 1
    ctl.led_on_level = 1 if config["led"].get("active_high", True) else 0
    if ctl.storage is not None:
        ladders, ctl.profile_status = ctl.storage.load_profile(config)
    else:
        ladders = dict((name, Ladder.from_list(config["ladders"][name])) for name in names)
        ctl.profile_status = protocol.PROFILE_DEFAULT
    ctl.ladders = [ladders[name] for name in names]
    ctl.wheel_debouncers = [Debouncer(int(config["wheel_settle_ms"])) for _ in names]
    ctl.button_debouncer = ButtonDebouncer(int(config["button_press_ms"]), int(config["button_release_ms"]))


def button_held(button, config):
    """Whether the ready button is down now (at power-up: stay in the REPL)."""
    active = 0 if config["button"].get("active_low", True) else 1
    return button.value() == active


def start(machine, root="", port=None):
    """``(controller, port)`` ready for the loop, or why the firmware does not start.

    ``"config"``: config.json is missing or malformed; ``"held"``: the ready button is down, the
    REPL is left alone. Either is said on the console. ``port`` defaults to the USB serial port.
    """
    try:
        from . import app, storage
        from .control import Controller
    except (ImportError, ValueError):
        import app
        import storage
        from control import Controller
    try:
        config = storage.Storage(root).load_config()
    except storage.ConfigError as exc:
        print("bitbox:", exc)
        return "config"
    adcs, button, led = app.make_io(machine, config)
    if button_held(button, config):
        print("bitbox: ready button held at start: firmware not started, REPL ready")
        return "held"
    if port is None:
        port = app.UsbPort()
    return Controller(adcs, button, led, port.write, config, app.ProfileFile(root), machine.unique_id()), port
