"""The console's commands: ``bitbox demo``, ``play``, ``serve``, ``replay``, ``export`` and ``games``.

The games themselves come from the registry (:mod:`controller.games`): the commands' choices, their
game options and their help are read from each game's declaration, and a game is played on the
wheels (:func:`controller.service.runner.run_service`) or refereed from the table camera
(:func:`controller.service.table_runner.run_table_service`) as it declares. ``replay`` and ``games``
tell the stored games as players tell them (:mod:`controller.service.record`); ``--json`` keeps
the machine form.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller import i18n
from controller.cli import CommandError, ListingFormatter, games_listing
from controller.games import DemoRequest, GameSpec, SpecError, game as game_spec, games as all_games
from controller.i18n import N_, _, ngettext
from controller.paths import state_dir
from controller.service.config import ConfigError, PlayerConfig, ServiceConfig, load_config
from controller.service.runner import RunOptions, ServiceError, run_service
from controller.service.store import GameStore, StoredGame, StoreError

#: How controllers can be read (``--backend``), phones first: they need nothing built.
BACKEND_NAMES = ("phone", "keyboard", "sim", "gpio", "serial")

#: Options that only a way of playing has, and the words that say which.
MODE_OPTIONS: dict[str, tuple[str, ...]] = {
    "wheels": ("backend", "controllers", "bot", "terminal"),
    "camera": ("source", "layout", "fps"),
    "phones": ("bot",),
}
MODE_WORDS = {"wheels": N_("played on the wheels"), "camera": N_("refereed by the table camera"),
              "phones": N_("played on the players' phones")}

#: The service's own event log, in the state folder.
SERVICE_LOG = "bitbox.db"


def register(subparsers: Any) -> None:
    specs = all_games()
    names = [spec.name for spec in specs]
    default = names[0]
    formatter = ListingFormatter

    demo = subparsers.add_parser(
        "demo",
        help=_("watch a whole game played by bots (simulated controllers or a simulated table)"),
        description=_("Watch a whole game played by bots, through the same path as a real one. A game played "
                      "on the wheels: bots turn simulated controller wheels and press ready; programs are locked, "
                      "revealed and resolved, the dashboard shows it live and the terminal prints the board turn "
                      "by turn (an interrupted demo resumes where it stopped when run again with the same "
                      "options). A game refereed by the camera: bots play on a simulated table whose rendered "
                      "frames are the camera, through the camera pipeline, the referee, the event log and the "
                      "dashboard's Table page. Either ends by itself when the game is over and prints the result; "
                      "`bitbox replay` then tells it again turn by turn."),
        epilog=games_listing(), formatter_class=formatter,
    )
    demo.add_argument("game", nargs="?", choices=names, default=default, metavar=_("GAME"),
                      help=_("the game to watch: {games} (default {default})").format(games=", ".join(names),
                                                                                     default=default))
    demo.add_argument("--seed", type=seed_number, default=1, help=_("the game's seed (default 1)"))
    demo.add_argument("--players", type=int, default=None,
                      help=_("how many players (default: the game's usual count)"))
    _add_game_options(demo, specs, demo_only=True)
    demo.add_argument("--speed", type=float, default=1.0,
                      help=_("pace: 1 is table pace, 4 four times faster, 0 no pauses at all (default 1)"))
    demo.add_argument("--turns", type=int, default=None, metavar="N",
                      help=_("stop after N turns (a game on the wheels stays saved and resumes next time; "
                             "a table demo starts afresh each run)"))
    demo.add_argument("--until-over", action="store_true",
                      help=_("play on until the game is over, even with --turns (to override a --turns kept in "
                             "a script or an alias)"))
    demo.add_argument("--keep-serving", action="store_true", help=_("keep the dashboard up after the game"))
    demo.add_argument("--new", action="store_true",
                      help=_("start a new game even if an interrupted one is saved"))
    from controller.voice.cli import DEMO_HELP

    demo.add_argument("--voice", action="store_true", help=_(DEMO_HELP))
    _add_common(demo, default_db=None, default_port=8080,
                db_note=_("demo.db, or demo-GAME.db for a game other than the first,"))
    demo.set_defaults(handler=cmd_demo)

    play = subparsers.add_parser(
        "play",
        help=_("referee a live game: on the controllers' wheels or with the table camera"),
        description=_("Referee a live game. Players, controllers and options come from --config (TOML) and/or "
                      "the options below (which win). A game left unfinished in the event log is resumed unless "
                      "--new. A game played on the wheels reads the controllers (--backend, --controllers): "
                      "with nothing built, play on the players' phones (--backend phone --host 0.0.0.0) or on "
                      "one keyboard (--backend keyboard); each game's page in the docs says what the wheels and "
                      "the ready button mean. A game refereed by the table camera watches the calibrated mat "
                      "(bitbox calibrate mat --layout MAT, then bitbox calibrate dice --layout MAT and bitbox "
                      "calibrate faces); each time the table is still the referee calls what happened, stores "
                      "it, and shows it on the dashboard's Table page, where questions are answered and calls "
                      "overruled with the token."),
        epilog=games_listing(), formatter_class=formatter,
    )
    play.add_argument("game", choices=names, metavar=_("GAME"),
                      help=_("the game to play: {games}").format(games=", ".join(names)))
    play.add_argument("--config", type=Path, help=_("a TOML configuration file (see docs/service.md)"))
    play.add_argument("--players", type=int, help=_("how many players (each game's range is listed above)"))
    _add_game_options(play, specs, demo_only=False)
    play.add_argument("--seed", type=seed_number, help=_("the game's seed"))
    play.add_argument("--name", action="append", default=None, metavar=_("NAME"),
                      help=_("a player's name, in seat order (repeat for each seat)"))
    play.add_argument("--option", action="append", default=None, metavar=_("KEY=VALUE"),
                      help=_("a game option, VALUE in JSON or plain text, e.g. --option mode=blitz "
                             "--option cliff=true (repeatable; each game's docs list its options)"))
    play.add_argument("--new", action="store_true",
                      help=_("start a new game even if an unfinished one is saved"))
    tournament = play.add_argument_group(_("a table of a tournament (docs/tournaments.md)"))
    tournament.add_argument("--tournament", metavar="mqtt://HOST[:PORT]/NAME",
                            help=_("join this tournament through its MQTT broker: the organiser's pairings are "
                                   "shown on the dashboard, each game starts when the referee taps New game, and its "
                                   "result goes to the organiser"))
    tournament.add_argument("--table", type=int, metavar="N", help=_("this table's number in the tournament"))
    wheels = play.add_argument_group(_("games played on the wheels"))
    wheels.add_argument("--backend", choices=BACKEND_NAMES,
                        help=_("how controllers are read: phone (each player's phone is a controller: scan "
                               "the seat's code on the dashboard), keyboard (hot seat in this terminal), sim "
                               "(simulated controllers, every seat played by a bot), gpio or serial (built "
                               "controllers)"))
    wheels.add_argument("--controllers", metavar=_("IDS"),
                        help=_("controller ids, one per colour in order red,blue,green,yellow (default for phone, "
                               "keyboard and sim: the colours); ID=BACKEND mixes them, e.g. "
                               "red=serial,blue=serial,green=phone,yellow=phone"))
    wheels.add_argument("--bot", action="append", default=None, metavar=_("PLAYER"),
                        help=_("give a seat to a bot: its player's name (as given with --name), its colour "
                               "(red, blue...) or its place in seat order counted from 0 (repeatable)"))
    wheels.add_argument("--terminal", action="store_true",
                        help=_("redraw the board in the terminal (for SSH)"))
    camera = play.add_argument_group(_("games refereed by the table camera"))
    camera.add_argument("--source", default=None,
                        help=_("the camera: picamera2, a device number, a video file or a folder of images "
                               "(default: [table] source of the config file, else picamera2)"))
    camera.add_argument("--layout", default=None,
                        help=_("the mat (default: the game's own, hardware/mats/GAME.toml)"))
    camera.add_argument("--fps", type=float, default=None,
                        help=_("frame rate of a recorded source (video file, image folder) (default 15)"))
    _add_common(play, default_db=None, default_port=None)
    play.set_defaults(handler=cmd_play)

    serve = subparsers.add_parser(
        "serve",
        help=_("run the console as a service (systemd): dashboard, controllers and the game loop"),
        description=_("Run until stopped: resume the unfinished game, or wait for a game to be started from "
                      "the dashboard (with the token). Sends READY=1 and WATCHDOG=1 to systemd when run under "
                      "it. Stop it with Ctrl-C."),
    )
    serve.add_argument("--config", type=Path, help=_("the TOML configuration file (see docs/service.md)"))
    serve.add_argument("--terminal", action="store_true", help=_("also redraw the board in the terminal"))
    _add_common(serve, default_db=None, default_port=None)
    serve.set_defaults(handler=cmd_serve)

    replay = subparsers.add_parser(
        "replay", help=_("tell a finished game again, turn by turn: who played, what happened, who won"),
        description=_("Tell a game again through the rules, turn by turn: the players, what happened each "
                      "turn, the final position and who won. The game comes from a save file (JSON, from "
                      "`bitbox export`) or from an event log (--db, --game); with neither, the most recent "
                      "finished game of the state folder's logs (a demo's included). A damaged save or an "
                      "action the rules refuse is reported with its number."),
    )
    replay.add_argument("file", type=Path, nargs="?", default=None, metavar=_("FILE"),
                        help=_("the save file (JSON) written by `bitbox export`"))
    replay.add_argument("--db", type=Path, default=None,
                        help=_("read the game from this event log instead of a save file"))
    replay.add_argument("--game", type=int, default=None, metavar="N",
                        help=_("the game's number in the event log (see `bitbox games`; default: the most "
                               "recent finished one)"))
    replay.add_argument("--board", action="store_true", help=_("draw the board after every turn"))
    replay.add_argument("--speed", type=float, default=0.0, help=_("seconds between turns (default 0)"))
    replay.add_argument("--final", action="store_true", help=_("print only the final position and the result"))
    replay.add_argument("--json", action="store_true",
                        help=_("print the record as JSON: players, every event of every turn, scores, winners"))
    replay.set_defaults(handler=cmd_replay)

    export = subparsers.add_parser(
        "export", help=_("write a finished game from the event log as a save file (JSON)"),
        description=_("Export a finished (or aborted) game of the event log to the engines' save format, "
                      "with the players' names, which `bitbox replay` reads. Without --game, the most recent "
                      "finished game."),
    )
    export.add_argument("--db", type=Path,
                        help=_("the event log (default: the service's, else the only log of the state folder)"))
    export.add_argument("--game", type=int, metavar="N", help=_("the game number (see `bitbox games`)"))
    export.add_argument("-o", "--output", type=Path, metavar=_("FILE"),
                        help=_("the file to write (default: print it)"))
    export.set_defaults(handler=cmd_export)

    games = subparsers.add_parser(
        "games", help=_("list the stored games: who played, how each ended"),
        description=_("List the games stored in the event logs of the state folder (the service's and the "
                      "demos'), or in the one --db names, oldest first: who played, and who won or how far "
                      "the game went."))
    games.add_argument("--db", type=Path, help=_("the event log to read (default: every log of the state folder)"))
    games.add_argument("--json", action="store_true", help=_("print the games as JSON"))
    games.set_defaults(handler=cmd_games)


def seed_number(text: str) -> int:
    """``--seed``: a whole number the event log can store (SQLite's integers are 64-bit)."""
    from controller.service.store import SEED_MAX, SEED_MIN

    shown = text if len(text) <= 24 else f"{text[:12]}...({len(text)} characters)"
    digits = text.strip().lstrip("+-")
    if not digits.isdigit() or not digits.isascii():
        raise argparse.ArgumentTypeError(_("{text!r} is not a whole number; give one such as --seed 7").format(
            text=shown))
    value = int(text) if len(digits) <= 20 else SEED_MAX + 1
    if not SEED_MIN <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(_("{text} does not fit in 64 bits; give a whole number from {low} to "
                                           "{high}").format(text=shown, low=SEED_MIN, high=SEED_MAX))
    return value


def _add_common(parser: argparse.ArgumentParser, default_db: str | None, default_port: int | None,
                db_note: str | None = None) -> None:
    note = db_note or default_db or SERVICE_LOG
    parser.add_argument("--db", type=Path, default=None,
                        help=_("the event log (SQLite) (default: {file} in the state folder)").format(file=note))
    parser.add_argument("--no-web", action="store_true", help=_("do not serve the dashboard"))
    parser.add_argument("--host", default=None,
                        help=_("address the dashboard listens on (default 127.0.0.1; 0.0.0.0 for the whole "
                               "network, as phones need)"))
    parser.add_argument("--port", type=int, default=default_port, help=_("the dashboard's port (default 8080)"))
    parser.add_argument("--token", default=None,
                        help=_("the referee token (default: $BITBOX_TOKEN, else a new random one, printed)"))
    parser.set_defaults(default_db=default_db)


def _add_game_options(parser: argparse.ArgumentParser, specs: list[GameSpec], demo_only: bool) -> None:
    """Each game's own command-line options (``--short``), once per flag, with the games that take it."""
    seen: dict[str, tuple[Any, list[str]]] = {}
    for spec in specs:
        for option in spec.options:
            if demo_only and not option.demo:
                continue
            if option.flag in seen:
                first, titles = seen[option.flag]
                if (first.key, first.kind) != (option.key, option.kind):
                    raise SpecError(f"{spec.title} and {titles[0]} both declare {option.flag} with different meanings; "
                                    "rename one of them")
                titles.append(spec.title)
                continue
            seen[option.flag] = (option, [spec.title])
    for option, titles in seen.values():
        option.add_to(parser)
        action = parser._option_string_actions[option.flag]
        action.help = f"{i18n.natural_list([_(title) for title in titles])}: {_(option.help)}"


def _game_values(spec: GameSpec, args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line, refusing another game's options by name."""
    own = {option.dest for option in spec.options}
    for other in all_games():
        for option in other.options:
            if option.dest not in own and getattr(args, option.dest, None) is not None:
                raise CommandError(_("{flag} is an option of {other}, not of {game}; `bitbox {command} {name} "
                                     "--help` lists the options of {game}").format(
                    flag=option.flag, other=_(other.title), game=_(spec.title), command=args.command,
                    name=spec.name))
    return {option.key: getattr(args, option.dest, None) for option in spec.options}


def _refuse_other_modes(spec: GameSpec, args: argparse.Namespace, mode: str) -> None:
    """Options of a way of playing this game does not use are refused, saying how it is played."""
    for other, names in MODE_OPTIONS.items():
        if other == mode:
            continue
        for name in (n for n in names if n not in MODE_OPTIONS[mode]):
            value = getattr(args, name, None)
            if value is not None and value is not False:
                raise CommandError(_("--{option} is an option of games {other}; {game} is {mode}: leave out "
                                     "--{option} (`bitbox play {name} --help` lists its options)").format(
                    option=name, other=_(MODE_WORDS[other]), game=_(spec.title), mode=_(MODE_WORDS[mode]),
                    name=spec.name))


def _mode_of(spec: GameSpec, args: argparse.Namespace) -> str:
    """How this game is played now: the first way it declares, unless only another's options are given."""
    for mode in spec.play:
        if any(getattr(args, name, None) not in (None, False) for name in MODE_OPTIONS[mode]):
            return mode
    return spec.play[0]


def _spec(name: str) -> GameSpec:
    try:
        return game_spec(name)
    except LookupError as exc:
        raise CommandError(_("{problem}; `bitbox --help` lists the games").format(problem=exc.args[0])) from None


def _apply_common(config: ServiceConfig, args: argparse.Namespace) -> None:
    if args.db is not None:
        config.db = args.db
    elif config.db is None and args.default_db:
        config.db = state_dir() / args.default_db
    if args.no_web:
        config.web = False
    if args.host is not None:
        config.host = args.host
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise CommandError(_("--port {port} is not a port number: give one from 0 to 65535, such as --port "
                                 "8080").format(port=args.port))
        config.port = args.port


def _new_log_in_empty_file(config: ServiceConfig, new: bool) -> None:
    """With ``--new``, a zero-length file at the log's path becomes a new, empty log (without
    ``--new`` the store refuses it: it is what a failed copy leaves, not a log)."""
    path = config.db_path()
    if not new or not path.is_file() or path.stat().st_size != 0:
        return
    try:
        GameStore(path, reuse_empty=True).close()
    except StoreError as exc:
        raise CommandError(str(exc)) from None


def _run(config: ServiceConfig, run: RunOptions, mode: str = "wheels") -> int:
    try:
        session = run_service(config, run, mode)
    except (ServiceError, ConfigError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    finished = session.game is None or session.game.is_over() or run.max_turns or run.start == "serve"
    return 0 if finished or session.stopping else 1


def cmd_demo(args: argparse.Namespace) -> int:
    from controller.service.demo import wheels_demo

    if args.speed < 0:
        raise CommandError(_("--speed cannot be negative: give 0 for no pauses at all, 1 for table pace"))
    if args.turns is not None and args.turns < 1:
        raise CommandError(_("--turns must be 1 or more, such as --turns 3"))
    spec = _spec(args.game)
    values = {k: v for k, v in _game_values(spec, args).items() if v is not None}
    _check_players(spec, args.players)
    config = ServiceConfig(game=spec.name, seed=args.seed)
    _apply_common(config, args)
    if args.db is None:
        config.db = state_dir() / demo_log_name(spec)
    _new_log_in_empty_file(config, args.new)
    if args.voice:
        config.voice = {**config.voice, "enabled": True}

    request = DemoRequest(spec=spec, seed=args.seed, players=args.players, options=values,
                          pace=0.0 if args.speed == 0 else 1.0 / args.speed,
                          max_turns=None if args.until_over else args.turns,
                          keep_serving=args.keep_serving, new=args.new, config=config, token=args.token,
                          port_fallback=args.port is None)
    demo = spec.load_demo() or wheels_demo
    try:
        return int(demo(request) or 0)
    except (ServiceError, ConfigError, SpecError, StoreError) as exc:
        raise CommandError(str(exc)) from None


def demo_log_name(spec: GameSpec) -> str:
    """The demo's event log in the state folder: demo.db for the first game, demo-GAME.db for the others."""
    return "demo.db" if spec is all_games()[0] else f"demo-{spec.name}.db"


def _counts(spec: GameSpec) -> str:
    low, high = spec.players
    return str(low) if low == high else _("{low} to {high}").format(low=low, high=high)


def _check_players(spec: GameSpec, players: int | None) -> None:
    """Refuse a seat count the game is not played with, naming the ones it is."""
    if players is not None and players not in spec.seat_counts():
        raise CommandError(_("{game} is played by {counts} players, not {players}: give --players {example}").format(
            game=_(spec.title), counts=_counts(spec), players=players, example=spec.seats_default))


def _config_for(args: argparse.Namespace) -> ServiceConfig:
    try:
        config = load_config(args.config) if getattr(args, "config", None) else ServiceConfig()
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    return config


def _seat_names(args: argparse.Namespace, config: ServiceConfig, seats: int) -> list[str]:
    """One name per seat: ``--name`` (else the config file's players), then "Player N" for the rest."""
    names = list(args.name or [p.name for p in config.players])
    if len(names) > seats:
        raise CommandError(ngettext("{count} names are given for {seats} player: give --name once per player",
                                    "{count} names are given for {seats} players: give --name once per player",
                                    seats).format(count=len(names), seats=seats))
    return names + [_("Player {number}").format(number=i + 1) for i in range(len(names), seats)]


def _options(spec: GameSpec, config: ServiceConfig, args: argparse.Namespace) -> dict[str, Any]:
    """The game's options: the config file's, then ``--players``, the game's own flags and ``--option``."""
    _check_players(spec, args.players)
    try:
        options = spec.options_from(config.options, args.players, _game_values(spec, args))
    except SpecError as exc:
        raise CommandError(str(exc)) from None
    for item in args.option or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise CommandError(_("--option {item!r}: write KEY=VALUE, for example --option mode=blitz").format(
                item=item))
        options[key.strip()] = _option_value(key.strip(), raw)
    return options


def _option_value(key: str, raw: str) -> Any:
    """``--option KEY=VALUE``'s value: JSON if it reads as JSON, else the text itself; refusing
    what no option means (NaN, infinity, a number of thousands of digits, deep nesting)."""
    def no_constant(name: str) -> Any:
        raise CommandError(_("--option {key}={value}: give a finite number, such as --option {key}=1").format(
            key=key, value=name))

    try:
        value = json.loads(raw, parse_constant=no_constant)
    except RecursionError:
        raise CommandError(_("--option {key}: the value is nested too deeply; give a number, a word, or a short "
                             "JSON list or object, such as --option {key}=1").format(key=key)) from None
    except ValueError:  # not JSON (or a number too long to read): the text itself
        return raw
    if isinstance(value, float) and not math.isfinite(value):
        raise CommandError(_("--option {key}={value}: give a finite number, such as --option {key}=1").format(
            key=key, value=raw[:40]))
    return value


def cmd_play(args: argparse.Namespace) -> int:
    spec = _spec(args.game)
    mode = _mode_of(spec, args)
    _refuse_other_modes(spec, args, mode)
    config = _config_for(args)
    config.game = spec.name
    config.options = _options(spec, config, args)
    for key, value in spec.mode_options.get(mode, {}).items():
        config.options.setdefault(key, value)   # what this way of playing implies (a camera game's own variant)
    if args.seed is not None:
        config.seed = args.seed
    if args.tournament is not None or args.table is not None or config.tournament:
        from controller.tournament.cli import table_settings

        config.tournament = table_settings(config.tournament, args.tournament, args.table, mode)
    if mode == "camera":
        return _play_camera(spec, config, args)
    if mode == "phones":
        return _play_phones(spec, config, args)
    return _play_wheels(spec, config, args)


def _engine_for(spec: GameSpec, config: ServiceConfig) -> Any:
    """A game of ``spec`` with the configured options, or the options' mistake as a command error."""
    try:
        return spec.load_engine()(config.options, seed=config.seed or 0)
    except (KeyError, ValueError) as exc:
        raise CommandError(_("{game} cannot be played with the options {options}: {reason}; `bitbox play {name} "
                             "--help` lists them").format(game=_(spec.title), options=config.options,
                                                         reason=exc.args[0] if exc.args else exc,
                                                         name=spec.name)) from None


def _play_camera(spec: GameSpec, config: ServiceConfig, args: argparse.Namespace) -> int:
    """A game refereed by the table camera: the camera, the game's referee, the event log and the Table page."""
    from controller.referee.common import RefereeConfig, RefereeError
    from controller.service.table import TableSetup
    from controller.service.table_runner import TableRun, camera_driver, open_camera, run_table_service

    if args.fps is not None and args.fps <= 0:
        raise CommandError(_("--fps must be more than 0, not {fps}: give for example --fps 15").format(
            fps=f"{args.fps:g}"))
    seats = _engine_for(spec, config).num_players
    names = _seat_names(args, config, seats)
    try:
        referee = RefereeConfig.from_mapping(config.referee, source="[referee]")
    except RefereeError as exc:
        raise CommandError(str(exc)) from None
    _apply_common(config, args)
    source = args.source or config.table_source or "picamera2"
    try:
        layout, watcher = open_camera(args.layout or config.table_layout or spec.mat, spec)
        driver = camera_driver(source, args.fps or config.table_fps)
        setup = TableSetup([PlayerConfig(n) for n in names], config.options, config.seed or 0, referee,
                           game=spec.name)
        run = TableRun(start="new" if args.new else "resume", token=args.token)
        _new_log_in_empty_file(config, args.new)
        session = run_table_service(config, setup, layout, watcher, driver, run)
    except (ServiceError, ConfigError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    print(_("{frames} frames, {moments} still moments, {ms} ms per frame.").format(
        frames=session.frames, moments=session.snapshots,
        ms=f"{1000.0 * session.frame_s / max(1, session.frames):.1f}"))
    return 0


def _play_wheels(spec: GameSpec, config: ServiceConfig, args: argparse.Namespace) -> int:
    """A game played on the wheels: the controllers, the engine, the event log and the dashboard."""
    if args.backend is not None:
        config.backend = args.backend
    if args.controllers is not None:
        ids, backends = _controller_list(args.controllers)
        config.pieces = ids
        if backends:
            config.backends = backends
            if args.backend is None:
                config.backend = backends.get(ids[0], config.backend)
    elif not config.pieces and config.backend in ("phone", "sim", "keyboard"):
        config.pieces = _colours(spec, config)
    players = spec.seat_count(config.options)
    if args.name or args.bot or not config.players:
        names = _seat_names(args, config, players)
        bots = {seat for seat, p in enumerate(config.players) if p.bot}
        colours = _colours(spec, config) if args.bot else []
        for given in args.bot or []:
            bots.add(_bot_seat(given, names, colours))
        config.players = [PlayerConfig(name, seat in bots) for seat, name in enumerate(names)]
    if config.backend == "sim" and not config.backends and not all(p.bot for p in config.players):
        config.players = [PlayerConfig(p.name, True) for p in config.players]
        print(_("Nobody can turn simulated controllers, so bots play every seat. To play yourselves, use "
                "--backend keyboard (one keyboard) or --backend phone --host 0.0.0.0 (your phones)."))
    _apply_common(config, args)
    _new_log_in_empty_file(config, args.new)
    run = RunOptions(start="serve" if config.tournament else "new" if args.new else "resume",
                     terminal="redraw" if args.terminal else "log",
                     token=args.token)
    return _run(config, run)


def _play_phones(spec: GameSpec, config: ServiceConfig, args: argparse.Namespace) -> int:
    """A game played by choosing on phones: each player's page, the engine, the event log and the dashboard."""
    names = _seat_names(args, config, spec.seat_count(config.options))
    bots = {seat for seat, p in enumerate(config.players) if p.bot and seat < len(names)}
    for given in args.bot or []:
        bots.add(_bot_seat(given, names, []))
    config.players = [PlayerConfig(name, seat in bots) for seat, name in enumerate(names)]
    _apply_common(config, args)
    _new_log_in_empty_file(config, args.new)
    run = RunOptions(start="serve" if config.tournament else "new" if args.new else "resume", terminal="log",
                     token=args.token)
    return _run(config, run, mode="phones")


def _bot_seat(given: str, names: list[str], colours: list[str]) -> int:
    """The seat ``--bot`` names: a player's name, a colour, or a number counted from 0."""
    text = given.strip()
    if text.isdigit() and int(text) < len(names):
        return int(text)
    for seat, name in enumerate(names):
        if text.casefold() == name.casefold():
            return seat
    for seat, colour in enumerate(colours[: len(names)]):
        if text.casefold() in (colour.casefold(), _(colour).casefold()):
            return seat
    import shlex

    examples = [f"--bot {shlex.quote(_(colour))}" for colour in colours[: len(names)]]
    examples = examples or [f"--bot {shlex.quote(name)}" for name in names]
    raise CommandError(_("--bot {given}: no player is called so; give a player's name or colour, one of "
                         "{examples}").format(given=given, examples=", ".join(examples)))


def _controller_list(text: str) -> tuple[list[str], dict[str, str]]:
    """``red,blue`` or ``red=phone,blue=serial``: the ids in colour order and the backends named."""
    ids: list[str] = []
    backends: dict[str, str] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        cid, sep, name = (x.strip() for x in item.partition("="))
        if sep:
            if name not in BACKEND_NAMES:
                raise CommandError(_("--controllers {item}: {name!r} is not a backend; write one of {choices}, "
                                     "such as {cid}=phone").format(item=item, name=name, cid=cid,
                                                                   choices=", ".join(BACKEND_NAMES)))
            backends[cid] = name
        ids.append(cid)
    if len(set(ids)) != len(ids):
        raise CommandError(_("--controllers lists a controller twice: {text}; list each one once, in colour "
                             "order").format(text=text))
    if backends and len(backends) != len(ids):
        raise CommandError(_("--controllers {text}: name a backend for every controller (ID=BACKEND) or for "
                             "none, such as --controllers red=serial,blue=phone").format(text=text))
    return ids, backends


def _colours(spec: GameSpec, config: ServiceConfig) -> list[str]:
    """The controllers of a game played on phones or simulated ones: one per piece, named by colour."""
    game = _engine_for(spec, config)
    rules = spec.load_wheels()(game, None)
    return [rules.piece_name(piece) for piece in range(rules.pieces())]


def cmd_serve(args: argparse.Namespace) -> int:
    if args.config is None:
        raise CommandError(_("bitbox serve runs the console as a configuration file sets it up (players, "
                             "controllers, game): give --config FILE, as the systemd unit does (docs/service.md "
                             "shows one); to play now, `bitbox play {game} --backend phone --host 0.0.0.0`").format(
                             game=next(spec.name for spec in all_games() if spec.plays_on("wheels"))))
    config = _config_for(args)
    _apply_common(config, args)
    run = RunOptions(start="serve", until_over=False, terminal="redraw" if args.terminal else None, token=args.token)
    return _run(config, run)


# ---- the stored games: replay, export, games --------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    from controller.service.record import players_of, record_json, record_lines, replay, result

    if args.speed < 0:
        raise CommandError(_("--speed cannot be negative: give the seconds between turns, such as --speed 1"))
    if args.file is not None and (args.db is not None or args.game is not None):
        raise CommandError(_("give a save file or an event log (--db, --game), not both: such as `bitbox replay "
                             "{file}`").format(file=args.file))
    if args.file is not None:
        save = _load_save_file(args.file)
    else:
        save = _save_from_logs(args.db, args.game)
    names, bots = players_of(save.get("players"), save["_seats"])
    record = replay(save, names, bots)
    if args.json:
        print(json.dumps(record_json(record), ensure_ascii=False, indent=1))
        return 0
    if args.final:
        from controller.service.record import heading

        print(heading(record))
        print()
        print(record.game.render().rstrip("\n"))
        print()
        print(result(record))
        return 0
    for line in record_lines(record, boards=args.board):
        print(line)
        if args.speed > 0 and line == "":
            sys.stdout.flush()
            time.sleep(args.speed)
    return 0


def _load_save_file(path: Path) -> dict[str, Any]:
    """A save file read and checked through the rules (every action legal), ready to replay."""
    from controller.engines import SaveFileError, load_game

    try:
        text = _read_save(path)
    except FileNotFoundError:
        raise CommandError(_("the save file {path} does not exist; `bitbox export -o {path}` writes one, and "
                             "`bitbox replay` without a file tells the last game played").format(path=path)) from None
    except IsADirectoryError:
        raise CommandError(_("{path} is a folder; give a save file written by `bitbox export -o FILE`").format(
            path=path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(_("cannot read {path}: {reason}; check that it is the file `bitbox export` wrote").format(
            path=path, reason=exc)) from None
    _register_engine_of(text)
    try:
        game = load_game(text)
    except SaveFileError as exc:
        raise CommandError(_("{path}: {problem}; check that it is the file `bitbox export` wrote").format(
            path=path, problem=exc)) from None
    data = json.loads(text)
    return {**game.save(), "players": data.get("players"), "_seats": game.num_players}


def _read_save(path: Path) -> str:
    """A save file's text, refusing before reading one larger than any save (see ``Game.load``)."""
    from controller.engines import Game

    size = path.stat().st_size
    if size > Game.SAVE_MAX_BYTES:
        raise CommandError(_("{path} is too large for a save ({size} MiB; a save is at most {limit} MiB); check "
                             "that it is the file `bitbox export` wrote").format(
            path=path, size=f"{size / 2**20:.1f}", limit=Game.SAVE_MAX_BYTES // 2**20))
    return path.read_text(encoding="utf-8")


def _register_engine_of(text: str) -> None:
    """Import the engine of the game a save names, so that a game added through the registry
    (``BITBOX_GAMES``) replays like a built-in one; a save that cannot be read is left to the loader."""
    with contextlib.suppress(ValueError, AttributeError, TypeError, LookupError, ImportError, RecursionError):
        _spec(str(json.loads(text)["game"])).load_engine()


def _save_from_logs(db: Path | None, number: int | None) -> dict[str, Any]:
    """The save of game ``number`` of ``db`` (default: the most recent finished game of the logs)."""
    found: list[tuple[Path, StoredGame]] = []
    for path in event_logs(db):
        with _open_store(path) as store:
            rows = store.games()
            if number is not None:
                found += [(path, g) for g in rows if g.id == number]
            else:
                found += [(path, g) for g in rows if g.status != "playing"]
    if number is not None and not found:
        raise CommandError(_("there is no game #{number} in {logs}; `bitbox games` lists the stored games").format(
            number=number, logs=i18n.natural_list([str(p) for p in event_logs(db)])))
    if not found:
        raise CommandError(_("no finished game is stored yet: watch one with `bitbox demo`, then run `bitbox "
                             "replay` again"))
    path, stored = max(found, key=lambda item: (item[1].finished or item[1].created, item[1].id))
    if stored.status == "playing":
        raise CommandError(_("game #{number} is still being played; its programs are secret until it ends: "
                             "finish it (`bitbox play {game}`) or replay a finished one (`bitbox games` lists "
                             "them)").format(number=stored.id, game=stored.game))
    with _open_store(path) as store:
        data = _public_save(store, stored)
    return {**data, "players": stored.setup.get("players"), "_seats": _seat_count(stored, data)}


def _seat_count(stored: StoredGame, data: dict[str, Any]) -> int:
    from controller.engines import new_game

    return new_game(data["game"], data["options"], data["seed"]).num_players


def _public_save(store: GameStore, stored: StoredGame) -> dict[str, Any]:
    """A stored game as a save without any action still secret, or a command error saying why not."""
    from controller.service.loop import public_save
    from controller.service.session import SessionError

    try:
        return public_save(store, stored.id)
    except SessionError as exc:
        raise CommandError(str(exc)) from None


def event_logs(db: Path | None) -> list[Path]:
    """The event logs a reading command reads: ``db``, else every log of the state folder (the
    service's first, then the demos')."""
    if db is not None:
        if not db.exists():
            raise CommandError(_("there is no event log at {path}; `bitbox games` without --db lists the logs of "
                                 "the state folder ({folder})").format(path=db, folder=state_dir()))
        return [db]
    folder = state_dir()
    logs = sorted(path for path in folder.glob("*.db") if path.is_file())
    return sorted(logs, key=lambda path: path.name != SERVICE_LOG)


@contextlib.contextmanager
def _open_store(path: Path) -> Iterator[GameStore]:
    """An event log open for reading; a damaged one (found at opening or while reading) is a
    :class:`CommandError` saying so."""
    try:
        with GameStore(path) as store:
            yield store
    except StoreError as exc:
        raise CommandError(str(exc)) from None


def cmd_export(args: argparse.Namespace) -> int:
    logs = event_logs(args.db)
    if not logs:
        raise CommandError(_("no event log in {folder} yet: play a game (`bitbox demo` plays one), then export "
                             "it").format(folder=state_dir()))
    if len(logs) > 1 and args.db is None and logs[0].name != SERVICE_LOG:
        raise CommandError(_("the state folder holds several event logs ({logs}): say which with --db, such as "
                             "--db {first}").format(logs=", ".join(p.name for p in logs), first=logs[0]))
    with _open_store(logs[0]) as store:
        if args.game is None:
            done = [g for g in store.games() if g.status != "playing"]
            if not done:
                raise CommandError(_("no finished game in {path}: `bitbox games --db {path}` lists its games").format(
                    path=logs[0]))
            stored = done[-1]
        else:
            try:
                stored = store.game(args.game)
            except StoreError as exc:
                raise CommandError(str(exc)) from None
        if stored.status == "playing":
            raise CommandError(_("game #{number} is still being played; its programs are secret until it ends: "
                                 "export it once it is over (`bitbox games` says how each game stands)").format(
                number=stored.id))
        data = _public_save(store, stored)
    players = stored.setup.get("players")
    if isinstance(players, list):
        data["players"] = [{"name": p.get("name"), "bot": bool(p.get("bot"))} if isinstance(p, dict) else p
                           for p in players]
    text = json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        tmp = args.output.with_name(args.output.name + ".tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(args.output)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise CommandError(_("cannot write {path}: {reason}; give another path with -o, or leave it out to "
                                 "print the save").format(path=args.output, reason=exc.strerror or exc)) from None
        print(_("game #{number} written to {path}; `bitbox replay {path}` tells it again").format(
            number=stored.id, path=args.output), file=sys.stderr)
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    logs = event_logs(args.db)
    listing: list[tuple[Path, list[StoredGame]]] = []
    for path in logs:
        with _open_store(path) as store:
            listing.append((path, store.games()))
    if args.json:
        print(json.dumps([_game_json(path, g) for path, rows in listing for g in rows], ensure_ascii=False, indent=1))
        return 0
    if not any(rows for _path, rows in listing):
        where = args.db if args.db is not None else state_dir()
        print(_("No game is stored in {where} yet. `bitbox demo` plays one with bots; `bitbox play GAME` "
                "referees yours.").format(where=where))
        return 0
    for path, rows in listing:
        if not rows:
            continue
        print(_("In {path}:").format(path=path))
        for stored in rows:
            for line in _game_lines(stored, path, args.db is not None or len(logs) > 1):
                print(line)
        print()
    return 0


def _game_lines(stored: StoredGame, path: Path, name_log: bool) -> list[str]:
    """A stored game as the listing tells it: when, what, who, and how it ended (or stands)."""
    from controller.service.record import players_of, replay, result

    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(stored.created))
    try:
        title = _(_spec(stored.game).title)
    except CommandError:
        title = stored.game
    head = _("#{number}  {game}, {when}").format(number=stored.id, game=title, when=when)
    try:
        with _open_store(path) as store:
            data = _public_save(store, stored)
        count = _seat_count(stored, data)
        names, bots = players_of(stored.setup.get("players"), count)
        record = replay(data, names, bots)
    except (CommandError, ValueError, LookupError, TypeError):
        return [head, "    " + _("this game cannot be told again: its game or its actions are not known here")]
    lines = [head, "    " + i18n.natural_list([seat.said() for seat in record.seats]) + "."]
    if stored.status == "over":
        lines.append("    " + result(record))
        command = f"bitbox replay --db {path} --game {stored.id}" if name_log else f"bitbox replay --game {stored.id}"
        lines.append("    " + _("`{command}` tells it turn by turn.").format(command=command))
    elif stored.status == "playing":
        lines.append("    " + ngettext("Being played: {count} action so far; the same command resumes it.",
                                       "Being played: {count} actions so far; the same command resumes it.",
                                       stored.actions).format(count=stored.actions))
    else:
        lines.append("    " + ngettext("Stopped before its end, after {count} action.",
                                       "Stopped before its end, after {count} actions.",
                                       stored.actions).format(count=stored.actions))
    return lines


def _game_json(path: Path, stored: StoredGame) -> dict[str, Any]:
    return {"log": str(path), "id": stored.id, "game": stored.game, "status": stored.status,
            "actions": stored.actions, "seed": stored.seed, "created": stored.created,
            "finished": stored.finished, "players": stored.setup.get("players", [])}
