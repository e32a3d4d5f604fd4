"""The ``bitbox`` command line.

Each area of the project owns the subcommands it serves, in a module with a
``register(subparsers)`` function; this file only gathers them, so adding a
command never means editing a central switch.

Everything the command says is in the players' language: ``--lang``, the configuration file's
``lang``, ``BITBOX_LANG`` or the system's locale (see :mod:`controller.i18n`). The language is
chosen before the parser is built, since argparse keeps the help texts it is given.
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
import importlib
import logging
import math
import os
import re
import sys
import traceback
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NoReturn

from controller import __version__, i18n
from controller.i18n import N_, _

#: Modules that add subcommands, in the order they appear in ``--help``.
COMMAND_MODULES: tuple[str, ...] = (
    "controller.service.cli",       # demo, play, serve, replay, games
    "controller.dials.cli",         # dials (watch controllers)
    "firmware.cli",                 # firmware flash / list
    "calibration.cli",              # calibrate dials / camera / mat / faces
    "controller.vision.cli",        # camera snapshot, mat, vision evaluate
    "controller.hardware.cli",      # hardware check / export / draw / stand
    "controller.voice.cli",         # say (the table's voice)
    "controller.tournament.cli",    # tournament new / run / status / export / demo
)

#: argparse's own sentences, said in the players' language too (argparse looks them up through
#: its module's ``_``, which :func:`speak_argparse` points at our catalogues).
ARGPARSE_WORDS = (
    N_("usage: "), N_("options"), N_("positional arguments"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"), N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"), N_("not allowed with argument %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"), N_("expected at least one argument"),
    N_("expected at most one argument"), N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
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


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors end with where to read what the command takes."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        hint = _("`{command} --help` says what it takes").format(command=self.prog)
        self.exit(2, _("{command}: error: {problem}; {hint}").format(command=self.prog, problem=message,
                                                                     hint=hint) + "\n")


class ListingFormatter(argparse.HelpFormatter):
    """Keeps a games listing (:func:`games_listing`) one game a line; wraps the rest as usual."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(_("games:")):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


#: How a game is played, as the games listing says it.
PLAY_WORDS = {"wheels": N_("wheels"), "camera": N_("camera"), "phones": N_("phones")}


def games_listing() -> str:
    """The registered games, one line each, for ``--help``: name, players, how it is played, what it is."""
    from controller.games import games

    lines = []
    for spec in games():
        low, high = spec.players
        count = f"{low}" if low == high else f"{low}-{high}"
        ways = (" " + _("or") + " ").join(_(PLAY_WORDS.get(mode, mode)) for mode in spec.play)
        lines.append(f"  {spec.name:<10} " + _("{count} players, {ways}: {summary}").format(
            count=count, ways=ways, summary=_(spec.summary)))
    return _("games:") + "\n" + "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every area's subcommands registered, in the language chosen now."""
    speak_argparse()
    parser = Parser(
        prog="bitbox",
        description=_("Referee 8Bit Box and DiXe table games from a Raspberry Pi: wheel controllers, a table "
                      "camera and exact rules engines."),
        epilog=games_listing() + "\n\n" + _("bitbox demo GAME watches one played by bots; bitbox play GAME "
                                            "--help says how to play it live. docs/first-hour.md takes you "
                                            "from here to a game at the table."),
        formatter_class=ListingFormatter,
    )
    parser.add_argument("--version", action="version", version=f"bitbox-controller {__version__}",
                        help=_("show the version and exit"))
    parser.add_argument("-v", "--verbose", action="store_true", help=_("log debugging detail"))
    parser.add_argument("--lang", choices=i18n.LANGUAGES, default=None,
                        help=_("the language of everything the command says: {choices} (default: the "
                               "configuration's lang, else $BITBOX_LANG, else the system's)").format(
                            choices=", ".join(f"{code} ({i18n.LANGUAGE_NAMES[code]})" for code in i18n.LANGUAGES)))
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    register_modules(sub, COMMAND_MODULES)
    for action in _all_actions(parser):
        if action.type is float:
            action.type = FiniteFloat(action)
    for command in _all_parsers(parser):
        if command is not parser and "--lang" not in command._option_string_actions:
            command.add_argument("--lang", choices=i18n.LANGUAGES, default=argparse.SUPPRESS,
                                 help=argparse.SUPPRESS)
    return parser


def speak_argparse() -> None:
    """Have argparse say its own sentences ("usage:", "the following arguments are required")
    through our catalogues, in whatever language is chosen when it says them."""
    argparse._ = lambda text: i18n.gettext(text)  # type: ignore[attr-defined]
    argparse.ngettext = lambda one, many, n: i18n.ngettext(one, many, n)  # type: ignore[attr-defined]


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
            problem = _("{text!r} is not a finite number; give {example}").format(text=text, example=self._example())
            raise argparse.ArgumentTypeError(problem + (f". {self.action.option_strings[-1]}: {meaning}"
                                                        if meaning else ""))
        return value

    def _example(self) -> str:
        default = self.action.default
        if isinstance(default, (int, float)) and not isinstance(default, bool) and math.isfinite(default):
            return _("a number such as {default} (the default)").format(default=f"{default:g}")
        return _("a number such as 0.5 or 2")


def _all_actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Every option and argument of ``parser`` and of its subcommands, at any depth."""
    for command in _all_parsers(parser):
        yield from command._actions


def _all_parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every subcommand's parser, at any depth."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from _all_parsers(sub)


# ---- choosing the language ----------------------------------------------------------------------


def chosen_language(argv: Sequence[str]) -> str:
    """The language the command speaks: ``--lang`` anywhere on the line, else the ``lang`` of the
    configuration file ``--config`` names, else ``BITBOX_LANG`` or the system's locale.

    Raises :class:`CommandError` for a language we have no catalogue for."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang")
    early.add_argument("--config")
    known, _rest = early.parse_known_args([a for a in argv if a not in ("-h", "--help")])
    configured = _configured_language(known.config)
    for given, where in ((known.lang, "--lang"), (configured, known.config), (os.environ.get("BITBOX_LANG"),
                                                                                "BITBOX_LANG")):
        if not given:
            continue
        try:
            return i18n.check_language(given)
        except i18n.LanguageError:
            raise CommandError(i18n.say(
                N_("{where}: there is no catalogue for the language {wrong!r}; give --lang {choices} (or set "
                   "BITBOX_LANG, or lang in the configuration file, to one of them)"), i18n.SOURCE_LANGUAGE,
                where=where, wrong=given, choices=" or --lang ".join(i18n.LANGUAGES))) from None
    return i18n.system_language()


def _configured_language(path: str | None) -> str | None:
    """The ``lang`` of a configuration file, if it has a readable one (the file's other mistakes
    are the command's to report)."""
    if not path:
        return None
    from controller.service.config import ConfigError, peek_language

    try:
        return peek_language(Path(path))
    except (ConfigError, OSError, ValueError):
        return None


# ---- running a command --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``bitbox`` command; returns the process exit code.

    The language is chosen for this call only (a caller in the same process keeps its own)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    with _language_kept():
        return contextvars.copy_context().run(_main, argv)


@contextlib.contextmanager
def _language_kept() -> Iterator[None]:
    """Give the process's language back as it was once the command is done."""
    previous = getattr(i18n, "_language", None)
    try:
        yield
    finally:
        if not isinstance(previous, contextvars.ContextVar):
            i18n._language = previous  # type: ignore[attr-defined]


def _main(argv: list[str]) -> int:
    i18n.set_language(i18n.SOURCE_LANGUAGE)  # until the language is known, whatever $BITBOX_LANG says
    try:
        code = chosen_language(argv)
    except CommandError as exc:
        print(f"bitbox: {exc}", file=sys.stderr)
        return 2
    i18n.set_language(code)
    try:
        parser = build_parser()
        args, extras = parser.parse_known_args(argv)
        if extras:  # said by the command they were given to, whose --help lists what it takes
            _command_parser(parser, args).error(_("unrecognized arguments: %s") % " ".join(extras))
    except BrokenPipeError:
        raise SystemExit(_closed_output()) from None
    except SystemExit:  # --help, --version, or a mistake argparse has explained: argparse's exit
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            raise SystemExit(_closed_output()) from None
        raise
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    handler = getattr(args, "handler", None)
    try:
        with warnings.catch_warnings():
            if not args.verbose:  # gpiozero's notes on each pin library it tried: the error says what to do
                warnings.filterwarnings("ignore", message="Falling back from")
            if handler is None:
                parser.print_help()
                code = 0
            else:
                code = int(handler(args) or 0)
        sys.stdout.flush()
        return code
    except CommandError as exc:
        print(f"bitbox: {with_next_step(str(exc), _command_of(args))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _closed_output()
    except Exception as exc:  # noqa: BLE001 - the last net: a message, never a traceback, for the user
        return _unexpected(exc, args.verbose)


#: What a message that names a next step holds: a command in backquotes or an option to give.
NEXT_STEP = re.compile(r"`[^`]+`|(?<![\w-])--?[a-z][\w-]*")


def with_next_step(text: str, command: str) -> str:
    """``text``, ending with where to read more when it does not say what to type next."""
    if NEXT_STEP.search(text):
        return text
    return _("{problem}; `{command} --help` says what it takes").format(problem=text, command=command)


def _command_of(args: argparse.Namespace) -> str:
    """``bitbox demo``, ``bitbox firmware flash``: the command that ran, as it is typed."""
    words = ["bitbox"]
    for dest in ("command", "dials_command", "firmware_command", "procedure", "camera_command", "vision_command"):
        value = getattr(args, dest, None)
        if isinstance(value, str):
            words.append(value)
    return " ".join(words)


def _command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``args`` were parsed for: ``bitbox firmware flash``'s own."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None)
            if isinstance(chosen, str) and chosen in action.choices:
                return _command_parser(action.choices[chosen], args)
    return parser


def _closed_output() -> int:
    """The reader of our output went away (``bitbox games | head``): stop quietly, as cat does."""
    import os

    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


def _unexpected(exc: BaseException, verbose: bool) -> int:
    """A failure no command foresaw (a bug): one line saying what and how to report it; the
    traceback only with ``-v``, for the report."""
    if verbose:
        traceback.print_exception(exc, file=sys.stderr)
    text = str(exc).splitlines()[0][:300] if str(exc) else ""
    what = f"{type(exc).__name__}{': ' + text if text else ''}"
    print("bitbox: " + _("unexpected error: {what}. Nothing more was done; this is a bug: run the same command "
                         "again with -v (`bitbox -v ...`) and report what it prints.").format(what=what),
          file=sys.stderr)
    return 1
