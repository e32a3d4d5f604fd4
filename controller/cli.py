"""The ``bitbox`` command line.

Each area of the project owns the subcommands it serves, in a module with a
``register(subparsers)`` function; this file only gathers them, so adding a
command never means editing a central switch.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

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
    return parser


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
