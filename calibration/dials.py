"""``bitbox calibrate dials``: measure each wheel's ladder and store the thresholds.

The procedure asks the user to turn each wheel through every position; at each one it records
a burst of raw readings, then computes the bands and hysteresis with
:func:`firmware.ladder_maths.compute_ladder`. A ladder whose positions overlap or are too noisy
is refused with a message naming the positions, and nothing is stored. Otherwise the ladders
are stored on the controller board (USB build) or in the dial profile under the state folder
(direct build).

Everything the procedure touches is passed in (a *raw source*, ``ask`` and ``say`` functions,
a ``sleep``), so it runs the same on the terminal and in tests.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from controller.dials.backend import ControllerError
from controller.dials.ladders import WHEEL_ORDER, AdcModel, LadderDesign, load_design
from controller.i18n import N_, _
from firmware.board.ladder import Ladder, LadderError
from firmware.ladder_maths import compute_ladder

#: Readings recorded at each position, and the pause between two of them (seconds).
DEFAULT_SAMPLES = 24
SAMPLE_INTERVAL_S = 0.01

#: A reading below this share of the lowest nominal position means "no contact".
NO_CONTACT_FRACTION = 0.5

#: How many times a position is asked again when the wheel reads "no contact".
RETRIES = 3


#: The wheels as the procedure names them.
WHEEL_WORDS = {"direction": N_("direction"), "number": N_("number"), "symbol": N_("symbol")}


def _wheel(name: str) -> str:
    return _(WHEEL_WORDS.get(name, name))


class CalibrationError(ControllerError, ValueError):
    """The calibration cannot go on or its result is refused; the message says what to do."""


class RawSource(Protocol):
    """Where raw wheel readings come from: one controller's three ADC inputs."""

    #: The ADC model (resolution, codes to avoid) the readings come from.
    adc: AdcModel

    def read_raw(self) -> dict[str, int]:
        """One reading of each wheel, by wheel name, on the 0..65535 scale."""
        ...


# ---- the procedure --------------------------------------------------------------------------

def record_position(source: RawSource, wheel: str, samples: int, sleep: Callable[[float], None],
                    interval: float = SAMPLE_INTERVAL_S) -> list[int]:
    """``samples`` readings of one wheel, ``interval`` seconds apart."""
    values = []
    for i in range(samples):
        if i:
            sleep(interval)
        values.append(int(source.read_raw()[wheel]))
    return values


def calibrate_wheel(
    source: RawSource,
    design: LadderDesign,
    wheel: str,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    samples: int = DEFAULT_SAMPLES,
    sleep: Callable[[float], None] = time.sleep,
) -> Ladder:
    """Guide the user through one wheel's positions and compute its ladder.

    Raises :class:`CalibrationError` when the user quits, when a position keeps reading "no
    contact", or when the positions overlap or are too noisy.
    """
    w = design.wheel(wheel)
    no_contact = int(min(w.nominal_u16) * NO_CONTACT_FRACTION)
    say(_("{wheel} wheel: {positions} positions ({labels}).").format(wheel=_wheel(wheel), positions=w.positions,
                                                                    labels=", ".join(w.labels)))
    recorded: dict[int, list[int]] = {}
    for pos, label in enumerate(w.labels):
        for attempt in range(RETRIES + 1):
            answer = ask("  " + _("Turn the {wheel} wheel to {label!r} (position {number} of {positions}) until it "
                                  "clicks, then press Enter (q to stop): ").format(
                wheel=_wheel(wheel), label=label, number=pos + 1, positions=w.positions))
            if answer.strip().lower() in ("q", "quit", "stop"):
                raise CalibrationError(_("calibration stopped; nothing was stored: run `bitbox calibrate dials` "
                                         "again when ready"))
            values = record_position(source, wheel, samples, sleep)
            median = sorted(values)[len(values) // 2]
            if median >= no_contact:
                break
            if attempt == RETRIES:
                raise CalibrationError(_(
                    "the {wheel} wheel reads no contact ({reading}) at {label!r}: the switch sits between two "
                    "positions, or its common wire or ladder is not connected; check the wiring "
                    "(`bitbox dials ladders` lists the expected voltages) and start again; nothing was stored").format(
                    wheel=_wheel(wheel), reading=median, label=label))
            say("  " + _("no contact (reading {reading}): the wheel is between two positions; turn it until it "
                         "clicks.").format(reading=median))
        recorded[pos] = values
        spread = max(values) - min(values)
        say("  " + _("{label}: reading {reading} (spread {spread}, expected about {expected})").format(
            label=label, reading=median, spread=spread, expected=w.nominal_u16[pos]))
    adc = source.adc
    try:
        ladder = compute_ladder(recorded, w.positions, avoid=adc.avoid_u16, guard=adc.guard_u16)
    except LadderError as exc:
        raise CalibrationError(_("the {wheel} wheel cannot be calibrated: {reason}. Nothing was stored; fix the "
                                 "wheel and run the calibration again (`bitbox dials ladders` lists the expected "
                                 "voltages)").format(wheel=_wheel(wheel), reason=exc)) from None
    nominal = design.nominal_ladder(wheel)
    far = [w.labels[i] for i in range(w.positions) if nominal.position_of(ladder.centres[i]) != i]
    if far:
        say("  " + _("note: {positions} read outside the design's bands (an uncalibrated controller would misread "
                     "them): check the ladder's resistor values and that the switch pins go to the taps in order. "
                     "The wheel works with this calibration.").format(positions=", ".join(far)))
    return ladder


def calibrate_controller(
    source: RawSource,
    design: LadderDesign,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    wheels: Iterable[str] = WHEEL_ORDER,
    samples: int = DEFAULT_SAMPLES,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Ladder]:
    """Calibrate the given wheels of one controller; nothing is stored here."""
    wheels = list(wheels)
    unknown = [w for w in wheels if w not in WHEEL_ORDER]
    if unknown:
        raise CalibrationError(_("no wheel named {names}; give --wheel {choices}").format(
            names=", ".join(unknown), choices=" or --wheel ".join(WHEEL_ORDER)))
    return {wheel: calibrate_wheel(source, design, wheel, ask, say, samples, sleep) for wheel in wheels}


# ---- raw sources ----------------------------------------------------------------------------

class DirectRawSource:
    """Raw readings of one direct-build controller, through the Pi's MCP3xxx ADCs.

    Opens the controller with :class:`~controller.dials.gpio_backend.GpioBackend` (no polling
    thread) and lights its LED so the user sees which controller is being calibrated.
    """

    def __init__(self, controller_id: str, design: LadderDesign, pinmap: Any = None, pin_factory: Any = None) -> None:
        from controller.dials.gpio_backend import GpioBackend
        from controller.dials.profile import DialProfile
        from controller.dials.state import LedMode

        self.controller_id = controller_id
        self.backend = GpioBackend(pinmap=pinmap, design=design, profile=DialProfile(), controllers=[controller_id],
                                   pin_factory=pin_factory, poll_thread=False, average=1)
        self.adc = design.adc(self.backend.pinmap.chip_model)
        self.backend.start()
        self.backend.set_led(controller_id, LedMode.ON)

    def read_raw(self) -> dict[str, int]:
        return self.backend.read_raw(self.controller_id)

    def close(self) -> None:
        self.backend.close()


class SerialRawSource:
    """Raw readings of a USB controller board, through its firmware's RAW command."""

    def __init__(self, port: str, design: LadderDesign, link: Any = None) -> None:
        from controller.dials.serial_link import SerialLink

        self.link = link if link is not None else SerialLink(port).open()
        self.adc = design.adc("rp2040")

    def read_raw(self) -> dict[str, int]:
        return dict(zip(WHEEL_ORDER, self.link.raw_adc()))

    def store(self, ladders: dict[str, Ladder]) -> int:
        return self.link.store_calibration(ladders)

    def close(self) -> None:
        self.link.close()


# ---- the command ----------------------------------------------------------------------------

def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "dials",
        help=_("calibrate a controller's wheels (turn each one through its positions)"),
        description=_("Guided calibration of one controller's wheel ladders: turn each wheel to each\n"
                      "position when asked and press Enter. The thresholds are stored on the controller board\n"
                      "(USB build) or in the dial profile under the state folder (direct build). A wheel whose\n"
                      "positions overlap or are too noisy is refused, and nothing is stored."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join([
            _("examples:"),
            "  bitbox calibrate dials --build direct --controller 3",
            "  bitbox calibrate dials --build direct --controller 1 --wheel number",
            "  bitbox calibrate dials --build usb                # " + _("the only controller board plugged in"),
            "  bitbox calibrate dials --build usb --port /dev/ttyACM1",
        ]),
    )
    parser.add_argument("--build", choices=("direct", "usb"),
                        help=_("direct: wheels on the Pi's SPI ADCs; usb: a Pico controller board "
                               "(default: usb when BITBOX_DIALS=serial, else direct)"))
    parser.add_argument("--controller", metavar="ID",
                        help=_("direct build: the controller id from hardware/pinmap-direct.toml"))
    parser.add_argument("--port", help=_("usb build: the board's serial port (default: the only board plugged in)"))
    parser.add_argument("--wheel", action="append", choices=WHEEL_ORDER,
                        help=_("direct build: calibrate only this wheel (repeatable; default: all three)"))
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=_("readings per position (default {samples})").format(samples=DEFAULT_SAMPLES))
    parser.add_argument("--profile", type=Path,
                        help=_("direct build: profile file (default: dials-profile.json in the state folder)"))
    parser.set_defaults(handler=calibrate_command)


def _find_port() -> str:
    import serial.tools.list_ports

    from controller.dials.serial_backend import matching_ports, usb_identity

    found = matching_ports(serial.tools.list_ports.comports, usb_identity())
    if len(found) == 1:
        return found[0].device
    if not found:
        raise CalibrationError(_("no controller board found on USB; plug one in (`bitbox firmware list` shows "
                                 "the boards found), or give --port"))
    names = ", ".join(p.device for p in found)
    raise CalibrationError(_("{count} controller boards are plugged in ({ports}); choose one with --port").format(
        count=len(found), ports=names))


def run_calibration(
    args: argparse.Namespace,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    sleep: Callable[[float], None] = time.sleep,
    source: Any = None,
    design: LadderDesign | None = None,
) -> int:
    """The command's work with its terminal and hardware passed in; returns the exit code."""
    from controller.dials.profile import load_profile, save_profile

    design = design or load_design()
    build = args.build or ("usb" if os.environ.get("BITBOX_DIALS", "") == "serial" else "direct")
    if args.samples < 3:
        raise CalibrationError(_("--samples must be 3 or more, such as --samples {samples}").format(
            samples=DEFAULT_SAMPLES))
    if build == "usb":
        if args.wheel and sorted(args.wheel) != sorted(WHEEL_ORDER):
            raise CalibrationError(_("a controller board stores all three wheels at once: leave out --wheel"))
        if source is None:
            source = SerialRawSource(args.port or _find_port(), design)
        try:
            ladders = calibrate_controller(source, design, ask, say, WHEEL_ORDER, args.samples, sleep)
            crc = source.store(ladders)
        finally:
            source.close()
        say(_("stored on the controller board (profile checksum {checksum}); it uses the new thresholds now.").format(
            checksum=f"{crc:08x}"))
        return 0
    if not args.controller:
        raise CalibrationError(_("say which controller to calibrate with --controller ID (the ids are in "
                                 "hardware/pinmap-direct.toml), or calibrate a USB board with --build usb"))
    profile_path = args.profile
    profile = load_profile(profile_path)  # a malformed profile stops here, before any turning
    if source is None:
        source = DirectRawSource(args.controller, design)
    try:
        ladders = calibrate_controller(source, design, ask, say, args.wheel or WHEEL_ORDER, args.samples, sleep)
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()
    for wheel, ladder in ladders.items():
        profile.set(args.controller, wheel, ladder)
    profile.adc = source.adc.name
    profile.created = ""
    try:
        path = save_profile(profile, profile_path)
    except OSError as exc:
        raise CalibrationError(_("cannot write the dial profile {path} ({reason}); nothing was stored: give "
                                 "--profile a file in a folder you may write to, or set BITBOX_STATE_DIR, and "
                                 "calibrate again").format(path=exc.filename or profile_path or _("in the state folder"),
                                                           reason=exc.strerror or exc)) from None
    say(_("stored controller {controller}'s {wheels} wheel(s) in {path}; restart the service to use them.").format(
        controller=args.controller, wheels=", ".join(_wheel(w) for w in ladders), path=path))
    return 0


def calibrate_command(args: argparse.Namespace) -> int:
    from controller.cli import CommandError

    try:
        return run_calibration(args, ask=input, say=print)
    except EOFError:
        raise CommandError(_("input ended before the calibration finished; nothing was stored: run `bitbox "
                             "calibrate dials` in a terminal")) from None
    except ControllerError as exc:
        raise CommandError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bitbox calibrate dials`` alone (``python -m calibration.dials``)."""
    from controller.cli import main as bitbox

    return bitbox(["calibrate", "dials", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    raise SystemExit(main())
