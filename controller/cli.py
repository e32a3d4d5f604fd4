"""The ``bitbox`` command line.

Each area of the project owns the subcommands it serves, in a module with a
``register(subparsers)`` function; this file only gathers them, so adding a
command never means editing a central switch.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import math
import sys
import traceback
from collections.abc import Iterator, Sequence

from controller import __version__

#: Modules that add subcommands, in the order they appear in ``--help``.
COMMAND_MODULES: tuple[str, ...] = (
    "controller.service.cli",       # demo, play, serve, replay, games
    "controller.dials.cli",         # dials (watch controllers)
    "firmware.cli",                 # firmware flash / list
    "calibration.cli",              # calibrate dials / camera / mat / faces
    "controller.vision.cli",        # camera snapshot, mat, vision evaluate
)


class CommandError(Exception):
    """A command could not do what was asked; the message says why and what to do."""


def register_modules(subparsers: argparse._SubParsersAction, modules: Sequence[str]) -> None:
    """Import each module and let it add its subcommands with ``register(subparsers)``.

    A module that is not there (a part left out of a trimmed install) is skipped; an import error
    inside a module that is there is raised, so a broken command never disappears silently.
    """
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(subparsers)


class ListingFormatter(argparse.HelpFormatter):
    """Keeps a games listing (:func:`games_listing`) one game a line; wraps the rest as usual."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("games:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def games_listing() -> str:
    """The registered games, one line each, for ``--help``."""
    from controller.games import games

    return "games:\n" + "\n".join(f"  {spec.help_line()}" for spec in games())


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every area's subcommands registered."""
    parser = argparse.ArgumentParser(
        prog="bitbox",
        description="Referee 8Bit Box and DiXe table games from a Raspberry Pi: "
        "wheel controllers, a table camera and exact rules engines.",
        epilog=f"{games_listing()}\n\nbitbox demo GAME watches one played by bots; bitbox play GAME --help "
        "says how to play it live.",
        formatter_class=ListingFormatter,
    )
    parser.add_argument("--version", action="version", version=f"bitbox-controller {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    register_modules(sub, COMMAND_MODULES)
    for action in _all_actions(parser):
        if action.type is float:
            action.type = FiniteFloat(action)
    return parser


class FiniteFloat:
    """The ``type`` of every float option: NaN and infinity are refused with what to give instead.

    ``float("nan")`` and ``float("inf")`` parse, and then a NaN pace never elapses and an infinite
    timeout never ends; no option of this program means either. :func:`build_parser` puts one on
    every ``type=float`` option of every command, so a new command's options are covered too.
    """

    finite_of = float
    __name__ = "number"  # argparse's "invalid number value: ..." for text that is not a number at all

    def __init__(self, action: argparse.Action) -> None:
        self.action = action

    def __call__(self, text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            meaning = self.action.help if self.action.help and "%" not in self.action.help else ""
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number; give {self._example()}"
                                             + (f". {self.action.option_strings[-1]}: {meaning}" if meaning else ""))
        return value

    def _example(self) -> str:
        default = self.action.default
        if isinstance(default, (int, float)) and not isinstance(default, bool) and math.isfinite(default):
            return f"a number such as {default:g} (the default)"
        return "a number such as 0.5 or 2"


def _all_actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Every option and argument of ``parser`` and of its subcommands, at any depth."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from _all_actions(sub)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``bitbox`` command; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    try:
        return int(handler(args) or 0)
    except CommandError as exc:
        print(f"bitbox: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _closed_output()
    except Exception as exc:  # noqa: BLE001 - the last net: a message, never a traceback, for the user
        return _unexpected(exc, args.verbose)


def _closed_output() -> int:
    """The reader of our output went away (``bitbox games | head``): stop quietly, as cat does."""
    import os

    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 141


def _unexpected(exc: BaseException, verbose: bool) -> int:
    """A failure no command foresaw (a bug): one line saying what and how to report it; the
    traceback only with ``-v``, for the report."""
    if verbose:
        traceback.print_exception(exc, file=sys.stderr)
    text = str(exc).splitlines()[0][:300] if str(exc) else ""
    print(f"bitbox: unexpected error: {type(exc).__name__}{': ' + text if text else ''}. Nothing more was done; "
          "this is a bug: run the same command again with -v (bitbox -v ...) and report what it prints.",
          file=sys.stderr)
    return 1
