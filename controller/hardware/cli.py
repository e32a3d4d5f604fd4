"""``bitbox hardware``: check the circuit, export the printable parts and netlists, draw the pictures."""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.i18n import _
from controller.paths import PROJECT_ROOT

#: Where ``bitbox hardware draw`` writes by default: the pictures docs/hardware.md shows.
IMAGES = PROJECT_ROOT / "docs" / "images"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hardware", help=_("check the controllers' circuit, export the case to print, draw the schematics"),
        description=_("The controllers' circuit and printed parts, as code (docs/hardware.md). Needs the "
                      "hardware extra: pip install -e '.[hardware]'."))
    sub = parser.add_subparsers(dest="hardware_command", metavar=_("ACTION"), required=True)
    check = sub.add_parser(
        "check", help=_("run the circuit's electrical rules check and compare it with the data files"),
        description=_("Run the electrical rules check of both builds, list every data file or document that "
                      "says something else than the circuit, and print how close the worst resistor tolerances "
                      "bring each wheel position to the edge of its band (Monte Carlo, 1 % and 5 % parts)."))
    check.add_argument("--trials", type=int, default=20000, help=_("Monte Carlo draws per position (default 20000)"))
    check.set_defaults(handler=_cmd_check)
    export = sub.add_parser(
        "export", help=_("write the case, knobs and camera mount to print, and the KiCad netlists"),
        description=_("Write STL and STEP files of the lid, the base, the three knobs and the camera mount, "
                      "the symbol knob as a coloured 3MF with its labels as separate bodies, and the KiCad "
                      "netlists of both builds."))
    export.add_argument("--out", type=Path, default=Path("."), help=_("folder to write into (default: here)"))
    export.add_argument("--no-step", action="store_true", help=_("write STL files only"))
    export.set_defaults(handler=_cmd_export)
    draw = sub.add_parser(
        "draw", help=_("draw the schematics and render the printed parts for the docs"),
        description=_("Draw the schematics from the circuit (SVG) and render the case, knobs and camera mount "
                      "(PNG), into docs/images unless --out says otherwise."))
    draw.add_argument("--out", type=Path, default=IMAGES, help=_("folder to write into (default: docs/images)"))
    draw.set_defaults(handler=_cmd_draw)
    stand = sub.add_parser(
        "stand", help=_("how high the camera must be over each mat"),
        description=_("Print, for every mat and camera module, the height at which the camera sees the whole "
                      "mat with the margin of hardware/cameras.toml."))
    stand.set_defaults(handler=_cmd_stand)


def _needs_extra() -> None:
    import importlib.util

    from controller.cli import CommandError

    for module in ("build123d", "schemdraw", "skidl", "trimesh", "matplotlib"):
        if importlib.util.find_spec(module) is None:
            raise CommandError(_("{missing} is not installed; install the hardware extra: pip install -e "
                                 "'.[hardware]'").format(missing=module))


def _cmd_check(args: argparse.Namespace) -> int:
    _needs_extra()
    from controller.cli import CommandError
    from controller.hardware import analysis, circuit
    from controller.hardware.agreement import Builds, design_bands, disagreements, firmware_bands

    if not 100 <= args.trials <= 1_000_000:
        raise CommandError(_("--trials {trials} is out of range; use 100 to 1000000").format(trials=args.trials))
    builds = Builds.default()
    problems = 0
    for board in (builds.usb, builds.controller, builds.adc_board, builds.system):
        findings = circuit.check(board)
        problems += len(findings)
        print(_("{board}: {count} ERC finding(s)").format(board=board.title, count=len(findings)))
        for finding in findings:
            print("  " + str(finding))
    found = disagreements(builds)
    problems += len(found)
    print(_("{count} place(s) disagree with the circuit").format(count=len(found)))
    for item in found:
        print("  " + str(item))
    for board, bands, bits in ((builds.usb, firmware_bands(), 12), (builds.system, design_bands(), 10)):
        for tolerance in (circuit.RESISTOR_TOLERANCE_PERCENT, 5.0):
            margins = analysis.monte_carlo(board, bands, tolerance, args.trials)
            worst = analysis.worst(margins)
            if worst.margin_u16 <= 0:
                problems += tolerance == circuit.RESISTOR_TOLERANCE_PERCENT
            print(_("{board}, {tolerance} % resistors: worst margin {codes} codes ({bits}-bit) at the {wheel} "
                    "wheel's position {position}").format(
                board=board.title, tolerance=f"{tolerance:g}", codes=f"{worst.codes(bits):.1f}", bits=bits,
                wheel=worst.wheel, position=worst.position))
    return 1 if problems else 0


def _cmd_export(args: argparse.Namespace) -> int:
    _needs_extra()
    from controller.cli import CommandError
    from controller.hardware.export import export_netlists, export_parts

    try:
        written = export_parts(args.out, step=not args.no_step) + export_netlists(args.out)
    except OSError as exc:
        raise CommandError(_("could not write into {folder}: {reason}; give --out a folder you may write to").format(
            folder=args.out, reason=exc)) from exc
    for path in written:
        print(path)
    return 0


def _cmd_draw(args: argparse.Namespace) -> int:
    _needs_extra()
    from controller.cli import CommandError
    from controller.hardware.export import render_pictures
    from controller.hardware.schematic import draw_all

    try:
        written = draw_all(args.out) + render_pictures(args.out)
    except OSError as exc:
        raise CommandError(_("could not write into {folder}: {reason}; give --out a folder you may write to").format(
            folder=args.out, reason=exc)) from exc
    for path in written:
        print(path)
    return 0


def _cmd_stand(args: argparse.Namespace) -> int:
    from controller.hardware.stand import heights_table

    for mat, camera, height in heights_table():
        print(_("{mat} mat, {camera}: {height} mm above the mat").format(mat=mat, camera=camera, height=round(height)))
    return 0
