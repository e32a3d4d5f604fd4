"""``bitbox dials ...``: watch the controllers live and show the wheel ladder design.

``bitbox dials watch`` prints every controller event as it happens: the quickest way to check
the wiring (turn each wheel through its positions, press each button) on the Pi, or to try the
service's input with simulated controllers.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import sys
import threading
import time
from typing import Any, TextIO

from controller.cli import CommandError
from controller.dials.backend import ControllerBackend, ControllerError
from controller.dials.factory import BACKENDS, ENV_VAR, open_backend
from controller.dials.state import ControllerEvent
from controller.i18n import N_, _
from controller.signals import on_signals

#: The wheels as ``bitbox dials ladders`` names them.
WHEEL_WORDS = {"direction": N_("direction"), "number": N_("number"), "symbol": N_("symbol")}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "dials",
        help=_("watch the wheel controllers live, show the wheel ladder design"),
        description=_("Read the wheel controllers: print their events live, or show the resistor "
                      "ladders' design values for checking a wheel with a multimeter."),
    )
    sub = parser.add_subparsers(dest="dials_command", metavar=_("ACTION"), required=True)

    watch = sub.add_parser(
        "watch",
        help=_("print controller events live (check the wiring)"),
        description=_("Print every controller event as it happens: connected/disconnected, wheels\n"
                      "settling or turning, button presses. Turn each wheel through all its positions and\n"
                      "press each button to check a controller. The backend defaults to ${variable}, else\n"
                      "'sim'. Stop with Ctrl-C.").format(variable=ENV_VAR),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join([
            _("examples:"),
            "  bitbox dials watch --backend gpio                 # " + _("direct build, every controller"),
            "  bitbox dials watch --backend gpio --controllers 1 3",
            "  bitbox dials watch --backend serial               # " + _("USB controller boards"),
            "  bitbox dials watch --backend sim --keyboard       # " + _("drive 2 simulated controllers"),
            "  bitbox dials watch --backend sim --script demo.txt --duration 5",
        ]),
    )
    watch.add_argument("--backend", choices=sorted(BACKENDS),
                       help=_("how to read controllers (default: ${variable} or sim)").format(variable=ENV_VAR))
    watch.add_argument("--controllers", nargs="+", metavar="ID",
                       help=_("controller ids to read (gpio: ids from the pin map; sim: ids to simulate, "
                              "or one number N for ids 1..N; default: all / 2)"))
    watch.add_argument("--port", action="append", metavar=_("PORT"),
                       help=_("serial only: a controller board's port (repeatable; default: every board found)"))
    watch.add_argument("--duration", type=float, metavar=_("SECONDS"),
                       help=_("stop after this long (default: until Ctrl-C)"))
    watch.add_argument("--json", action="store_true", help=_("print one JSON object per event"))
    watch.add_argument("--keyboard", action="store_true",
                       help=_("sim only: drive the simulated controllers from the keyboard (press ? for the keys)"))
    watch.add_argument("--script", metavar=_("FILE"),
                       help=_("sim only: play a timed script (lines of SECONDS ACTION CONTROLLER [WHEEL POSITION])"))
    watch.set_defaults(handler=watch_command)

    ladders = sub.add_parser(
        "ladders",
        help=_("show each wheel's resistor ladder and the voltage of every position"),
        description=_("Print, from hardware/ladders.toml, each wheel's positions with the voltage a "
                      "multimeter should read between the wheel's ADC input and ground, and the reading the "
                      "controller expects."),
    )
    ladders.set_defaults(handler=ladders_command)


def _backend_options(args: argparse.Namespace, name: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    ids = args.controllers
    if (args.keyboard or args.script) and name != "sim":
        raise CommandError(_("--keyboard and --script drive simulated controllers: add --backend sim"))
    if args.port and name != "serial":
        raise CommandError(_("--port applies to the serial backend: add --backend serial"))
    if ids and name not in ("sim", "gpio"):
        raise CommandError(_("--controllers applies to the sim and gpio backends, not {backend}: add --backend "
                             "sim or --backend gpio, or leave out --controllers").format(backend=name))
    if name == "sim":
        if ids:
            options["controllers"] = int(ids[0]) if len(ids) == 1 and ids[0].isdigit() else ids
        if args.script:
            from controller.dials.sim_backend import load_script

            options["script"] = load_script(args.script)
    elif name == "gpio" and ids:
        options["controllers"] = ids
    elif name == "serial" and args.port:
        options["ports"] = args.port
    return options


def format_event(event: ControllerEvent, start: float) -> str:
    s = event.state
    wheels = (f"direction={s.direction_name or '-'} number={'-' if s.number is None else s.number} "
              f"symbol={s.symbol_name or '-'}")
    line = (f"{max(0.0, s.timestamp - start):9.3f}  {s.controller_id:>3}  {event.kind.value:<12} {wheels} "
            f"button={'down' if s.button else 'up'} led={s.led.value}")
    if event.detail:
        line += f"  ({event.detail})"
    return line


def watch_command(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    name = args.backend or os.environ.get(ENV_VAR, "").strip() or "sim"
    if args.duration is not None and args.duration < 0:
        raise CommandError(_("--duration cannot be negative: give the seconds to watch, such as --duration 5"))
    try:
        options = _backend_options(args, name)
        backend = open_backend(name, **options)
        backend.start()
    except ControllerError as exc:
        raise CommandError(_("{problem}; `bitbox dials watch --help` shows how to read each kind of controller")
                           .format(problem=exc)) from None
    try:
        if args.keyboard:
            return _watch_keyboard(backend, args, out)
        return _watch(backend, args, out)
    except KeyboardInterrupt:  # Ctrl-C is how a watch ends
        return 0
    finally:
        backend.close()


def _print_event(event: ControllerEvent, args: argparse.Namespace, start: float, out: TextIO, eol: str = "\n") -> None:
    if args.json:
        data = {"event": event.kind.value, "detail": event.detail, **event.state.to_json()}
        out.write(json.dumps(data) + eol)
    else:
        out.write(format_event(event, start) + eol)
    out.flush()


def _watch(backend: ControllerBackend, args: argparse.Namespace, out: TextIO) -> int:
    start = backend.clock()
    deadline = None if args.duration is None else time.monotonic() + args.duration
    stopped = threading.Event()
    # Ctrl-C asks the loop to end, rather than throw a KeyboardInterrupt into a lock the backend holds.
    with on_signals(stopped.set, signal.SIGINT):
        if not args.json:
            out.write(_("watching controllers with the {backend} backend; Ctrl-C stops").format(backend=backend.NAME)
                      + "\n")
            out.flush()
        while not stopped.is_set() and (deadline is None or time.monotonic() < deadline):
            wait = 0.2 if deadline is None else max(0.0, min(0.2, deadline - time.monotonic()))
            event = backend.get_event(wait)
            while event is not None and not stopped.is_set():
                _print_event(event, args, start, out)
                event = backend.get_event(0)
    return 0


def _watch_keyboard(backend: ControllerBackend, args: argparse.Namespace, out: TextIO) -> int:
    import termios
    import tty

    from controller.dials.keyboard import HELP, QUIT, KeyboardDriver

    if backend.NAME != "sim":
        raise CommandError(_("--keyboard drives simulated controllers: add --backend sim"))
    if not sys.stdin.isatty():
        raise CommandError(_("--keyboard needs a terminal (the input is not one): run it in a terminal, or play a "
                             "timed script with --script FILE"))
    driver = KeyboardDriver(backend)  # type: ignore[arg-type]
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    start = backend.clock()
    deadline = None if args.duration is None else time.monotonic() + args.duration
    out.write(_(HELP).strip("\n").replace("\n", "\r\n") + "\r\n"
              + _("controller {controller} selected").format(controller=driver.selected) + "\r\n")
    try:
        tty.setcbreak(fd)
        stopped = threading.Event()
        with on_signals(stopped.set, signal.SIGINT):
            while not stopped.is_set() and (deadline is None or time.monotonic() < deadline):
                ready, _writable, _failed = select.select([fd], [], [], 0.05)
                if ready:
                    key = os.read(fd, 1).decode(errors="replace")
                    message = driver.handle(key)
                    if message == QUIT:
                        break
                    if message:
                        out.write(message.strip("\n").replace("\n", "\r\n") + "\r\n")
                for event in backend.events():
                    _print_event(event, args, start, out, "\r\n")
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    return 0


def ladders_command(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from controller.dials.ladders import WHEEL_ORDER, load_design

    out = out or sys.stdout
    try:
        design = load_design()
    except ControllerError as exc:
        raise CommandError(_("{problem}; check hardware/ladders.toml (hardware/README.md explains it)").format(
            problem=exc)) from None
    volts = 3.3
    for wheel in WHEEL_ORDER:
        w = design.wheel(wheel)
        ladder = design.nominal_ladder(wheel)
        out.write(_("{wheel} wheel: {positions} positions, string {string} ohm, pull-down {pulldown} ohm").format(
            wheel=_(WHEEL_WORDS.get(wheel, wheel)), positions=w.positions, string=" + ".join(str(r) for r in w.resistors_ohms),
            pulldown=design.pulldown_ohms) + "\n")
        out.write("  " + _("position  label        volts   reading  accepted range") + "\n")
        for i, label in enumerate(w.labels):
            out.write(f"  {i:>8}  {label:<10} {w.nominal_u16[i] / 65535 * volts:7.3f}  {w.nominal_u16[i]:>8}  "
                      f"{ladder.lows[i]}..{ladder.highs[i]}\n")
    out.write(_("between positions or unplugged: 0 V (the pull-down)") + "\n")
    return 0
