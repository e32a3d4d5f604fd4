"""The console's commands: ``bitbox demo``, ``play``, ``serve``, ``replay``, ``export`` and ``games``.

The games themselves come from the registry (:mod:`controller.games`): the commands' choices, their
game options and their help are read from each game's declaration, and a game is played on the
wheels (:func:`controller.service.runner.run_service`) or refereed from the table camera
(:func:`controller.service.table_runner.run_table_service`) as it declares.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import time
from pathlib import Path
from collections.abc import Iterator
from typing import Any

from controller.cli import CommandError, ListingFormatter, games_listing
from controller.games import DemoRequest, GameSpec, SpecError, game as game_spec, games as all_games
from controller.paths import state_dir
from controller.service.config import ConfigError, PlayerConfig, ServiceConfig, load_config
from controller.service.loop import public_save
from controller.service.runner import RunOptions, ServiceError, run_service
from controller.service.store import GameStore, StoreError

#: How controllers can be read (``--backend``), phones first: they need nothing built.
BACKEND_NAMES = ("phone", "keyboard", "sim", "gpio", "serial")

#: Options that only a way of playing has, and the words that say which.
MODE_OPTIONS: dict[str, tuple[str, ...]] = {
    "wheels": ("backend", "controllers", "bot", "terminal"),
    "camera": ("source", "layout", "fps"),
}
MODE_WORDS = {"wheels": "played on the wheels", "camera": "refereed by the table camera"}


def register(subparsers: Any) -> None:
    specs = all_games()
    names = [spec.name for spec in specs]
    default = names[0]
    formatter = ListingFormatter

    demo = subparsers.add_parser(
        "demo",
        help="watch a whole game played by bots (simulated controllers or a simulated table)",
        description="Watch a whole game played by bots, through the same path as a real one. A game played "
        "on the wheels: bots turn simulated controller wheels and press ready; programs are locked, revealed "
        "and resolved, the dashboard shows it live and the terminal prints the board turn by turn (an "
        "interrupted demo resumes where it stopped when run again with the same options). A game refereed "
        "by the camera: bots play on a simulated table whose rendered frames are the camera, through the "
        "camera pipeline, the referee, the event log and the dashboard's Table page. Either ends by itself "
        "when the game is over and prints the result.",
        epilog=games_listing(), formatter_class=formatter,
    )
    demo.add_argument("game", nargs="?", choices=names, default=default, metavar="GAME",
                      help=f"the game to watch: {', '.join(names)} (default {default})")
    demo.add_argument("--seed", type=seed_number, default=1, help="the game's seed (default 1)")
    demo.add_argument("--players", type=int, default=None, help="how many players (default: the game's usual count)")
    _add_game_options(demo, specs, demo_only=True)
    demo.add_argument("--speed", type=float, default=1.0,
                      help="pace: 1 is table pace, 4 four times faster, 0 no pauses at all (default 1)")
    demo.add_argument("--turns", type=int, default=None, metavar="N",
                      help="stop after N turns (a game on the wheels stays saved and resumes next time; "
                      "a table demo starts afresh each run)")
    demo.add_argument("--until-over", action="store_true",
                      help="play until the game is over (what happens without --turns; with --turns, it "
                      "cancels the limit)")
    demo.add_argument("--keep-serving", action="store_true", help="keep the dashboard up after the game")
    demo.add_argument("--new", action="store_true", help="start a new game even if an interrupted one is saved")
    _add_common(demo, default_db=None, default_port=8080,
                db_note="demo.db, or demo-GAME.db for a game other than the first,")
    demo.set_defaults(handler=cmd_demo)

    play = subparsers.add_parser(
        "play",
        help="referee a live game: on the controllers' wheels or with the table camera",
        description="Referee a live game. Players, controllers and options come from --config (TOML) and/or "
        "the options below (which win). A game left unfinished in the event log is resumed unless --new. "
        "A game played on the wheels reads the controllers (--backend, --controllers); each game's page in "
        "the docs says what the wheels and the ready button mean. A game refereed by the table camera watches "
        "the calibrated mat (bitbox calibrate mat --layout MAT, then bitbox calibrate dice --layout MAT and "
        "bitbox calibrate faces); each time the table is still the referee calls what happened, stores it, and "
        "shows it on the dashboard's Table page, where questions are answered and calls overruled with the "
        "token.",
        epilog=games_listing(), formatter_class=formatter,
    )
    play.add_argument("game", choices=names, metavar="GAME", help=f"the game to play: {', '.join(names)}")
    play.add_argument("--config", type=Path, help="a TOML configuration file (see docs/service.md)")
    play.add_argument("--players", type=int, help="how many players (each game's range is listed above)")
    _add_game_options(play, specs, demo_only=False)
    play.add_argument("--seed", type=seed_number, help="the game's seed")
    play.add_argument("--name", action="append", default=None, metavar="NAME",
                      help="a player's name, in seat order (repeat for each seat)")
    play.add_argument("--option", action="append", default=None, metavar="KEY=VALUE",
                      help="a game option, VALUE in JSON or plain text, e.g. --option mode=blitz "
                      "--option cliff=true (repeatable; each game's docs list its options)")
    play.add_argument("--new", action="store_true", help="start a new game even if an unfinished one is saved")
    wheels = play.add_argument_group("games played on the wheels")
    wheels.add_argument("--backend", choices=BACKEND_NAMES,
                        help="how controllers are read: phone (each player's phone is a controller: scan "
                        "the seat's code on the dashboard), keyboard (hot seat in this terminal), sim "
                        "(simulated, turned by bots), gpio or serial (built controllers)")
    wheels.add_argument("--controllers", metavar="IDS",
                        help="controller ids, one per colour in order red,blue,green,yellow (default for phone, "
                        "keyboard and sim: the colours); ID=BACKEND mixes them, e.g. "
                        "red=serial,blue=serial,green=phone,yellow=phone")
    wheels.add_argument("--bot", action="append", type=int, default=None, metavar="SEAT",
                        help="give seat SEAT (0-based) to a bot (repeatable)")
    wheels.add_argument("--terminal", action="store_true", help="redraw the board in the terminal (for SSH)")
    camera = play.add_argument_group("games refereed by the table camera")
    camera.add_argument("--source", default=None,
                        help="the camera: picamera2, a device number, a video file or a folder of images "
                        "(default: [table] source of the config file, else picamera2)")
    camera.add_argument("--layout", default=None, help="the mat (default: the game's own, hardware/mats/GAME.toml)")
    camera.add_argument("--fps", type=float, default=None,
                        help="frame rate of a recorded source (video file, image folder) (default 15)")
    _add_common(play, default_db=None, default_port=None)
    play.set_defaults(handler=cmd_play)

    serve = subparsers.add_parser(
        "serve",
        help="run the console as a service (systemd): dashboard, controllers and the game loop",
        description="Run until stopped: resume the unfinished game, or wait for a game to be started from the "
        "dashboard (with the token). Sends READY=1 and WATCHDOG=1 to systemd when run under it.",
    )
    serve.add_argument("--config", type=Path, help="a TOML configuration file (see docs/service.md)")
    serve.add_argument("--terminal", action="store_true", help="also redraw the board in the terminal")
    _add_common(serve, default_db=None, default_port=None)
    serve.set_defaults(handler=cmd_serve)

    replay = subparsers.add_parser(
        "replay", help="replay a saved game file turn by turn in the terminal",
        description="Replay a game save (JSON, from `bitbox export`) through the rules, printing the board after "
        "every turn. A damaged save or an action the rules refuse is reported with its number.",
    )
    replay.add_argument("file", type=Path, help="the save file (JSON)")
    replay.add_argument("--speed", type=float, default=0.0, help="seconds between turns (default 0)")
    replay.add_argument("--final", action="store_true", help="print only the final position")
    replay.set_defaults(handler=cmd_replay)

    export = subparsers.add_parser(
        "export", help="write a finished game from the event log as a save file (JSON)",
        description="Export a finished (or aborted) game of the event log to the engines' save format, "
        "which `bitbox replay` reads. Without --game, the most recent finished game.",
    )
    export.add_argument("--db", type=Path, help="the event log (default: the service's, in the state folder)")
    export.add_argument("--game", type=int, help="the game number (see `bitbox games`)")
    export.add_argument("-o", "--output", type=Path, help="the file to write (default: print it)")
    export.set_defaults(handler=cmd_export)

    games = subparsers.add_parser("games", help="list the games in the event log",
                                  description="List the games stored in an event log, newest last.")
    games.add_argument("--db", type=Path, help="the event log (default: the service's, in the state folder)")
    games.set_defaults(handler=cmd_games)


def seed_number(text: str) -> int:
    """``--seed``: a whole number the event log can store (SQLite's integers are 64-bit)."""
    from controller.service.store import SEED_MAX, SEED_MIN

    shown = text if len(text) <= 24 else f"{text[:12]}...({len(text)} characters)"
    digits = text.strip().lstrip("+-")
    if not digits.isdigit() or not digits.isascii():
        raise argparse.ArgumentTypeError(f"{shown!r} is not a whole number; give one such as 7")
    value = int(text) if len(digits) <= 20 else SEED_MAX + 1
    if not SEED_MIN <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"{shown} does not fit in 64 bits; give a whole number from "
                                         f"{SEED_MIN} to {SEED_MAX}")
    return value


def _add_common(parser: argparse.ArgumentParser, default_db: str | None, default_port: int | None,
                db_note: str | None = None) -> None:
    note = db_note or default_db or "bitbox.db"
    parser.add_argument("--db", type=Path, default=None,
                        help=f"the event log (SQLite) (default: {note} in the state folder)")
    parser.add_argument("--no-web", action="store_true", help="do not serve the dashboard")
    parser.add_argument("--host", default=None,
                        help="address the dashboard listens on (default 127.0.0.1; 0.0.0.0 for the whole network)")
    parser.add_argument("--port", type=int, default=default_port, help="the dashboard's port (default 8080)")
    parser.add_argument("--token", default=None,
                        help="the referee token (default: $BITBOX_TOKEN, else a new random one, printed)")
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
        action.help = f"{' and '.join(titles)}: {option.help}"


def _game_values(spec: GameSpec, args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line, refusing another game's options by name."""
    own = {option.dest for option in spec.options}
    for other in all_games():
        for option in other.options:
            if option.dest not in own and getattr(args, option.dest, None) is not None:
                raise CommandError(f"{option.flag} is an option of {other.title}, not of {spec.title} "
                                   f"(see `bitbox {args.command} {spec.name} --help`)")
    return {option.key: getattr(args, option.dest, None) for option in spec.options}


def _refuse_other_modes(spec: GameSpec, args: argparse.Namespace, mode: str) -> None:
    """Options of a way of playing this game does not use are refused, saying how it is played."""
    for other, names in MODE_OPTIONS.items():
        if other == mode:
            continue
        for name in names:
            value = getattr(args, name, None)
            if value is not None and value is not False:
                raise CommandError(f"--{name} is an option of games {MODE_WORDS[other]}; "
                                   f"{spec.title} is {MODE_WORDS[mode]}")


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
        raise CommandError(str(exc.args[0])) from None


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
            raise CommandError(f"--port {args.port} is not a port number (0 to 65535)")
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


def _run(config: ServiceConfig, run: RunOptions) -> int:
    try:
        session = run_service(config, run)
    except (ServiceError, ConfigError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    finished = session.game is None or session.game.is_over() or run.max_turns or run.start == "serve"
    return 0 if finished or session.stopping else 1


def cmd_demo(args: argparse.Namespace) -> int:
    from controller.service.demo import wheels_demo

    if args.speed < 0:
        raise CommandError("--speed cannot be negative (0 means no pauses at all)")
    if args.turns is not None and args.turns < 1:
        raise CommandError("--turns must be 1 or more")
    spec = _spec(args.game)
    values = {k: v for k, v in _game_values(spec, args).items() if v is not None}
    if args.players is not None and args.players not in spec.seat_counts():
        raise CommandError(f"{spec.title} is played by {_counts(spec)} players, not {args.players}")
    config = ServiceConfig(game=spec.name, seed=args.seed)
    _apply_common(config, args)
    if args.db is None:
        config.db = state_dir() / ("demo.db" if spec is all_games()[0] else f"demo-{spec.name}.db")
    _new_log_in_empty_file(config, args.new)

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


def _counts(spec: GameSpec) -> str:
    low, high = spec.players
    return str(low) if low == high else f"{low} to {high}"


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
        raise CommandError(f"{len(names)} names are given for {seats} players")
    return names + [f"Player {i + 1}" for i in range(len(names), seats)]


def _options(spec: GameSpec, config: ServiceConfig, args: argparse.Namespace) -> dict[str, Any]:
    """The game's options: the config file's, then ``--players``, the game's own flags and ``--option``."""
    if args.players is not None and args.players not in spec.seat_counts():
        raise CommandError(f"{spec.title} is played by {_counts(spec)} players, not {args.players}")
    try:
        options = spec.options_from(config.options, args.players, _game_values(spec, args))
    except SpecError as exc:
        raise CommandError(str(exc)) from None
    for item in args.option or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"--option {item!r}: write KEY=VALUE, for example --option mode=blitz")
        options[key.strip()] = _option_value(key.strip(), raw)
    return options


def _option_value(key: str, raw: str) -> Any:
    """``--option KEY=VALUE``'s value: JSON if it reads as JSON, else the text itself; refusing
    what no option means (NaN, infinity, a number of thousands of digits, deep nesting)."""
    def no_constant(name: str) -> Any:
        raise CommandError(f"--option {key}={name}: give a finite number, such as 1 or 0.5")

    try:
        value = json.loads(raw, parse_constant=no_constant)
    except RecursionError:
        raise CommandError(f"--option {key}: the value is nested too deeply; give a number, a word, "
                           "or a short JSON list or object") from None
    except ValueError:  # not JSON (or a number too long to read): the text itself
        return raw
    if isinstance(value, float) and not math.isfinite(value):
        raise CommandError(f"--option {key}={raw[:40]}: give a finite number, such as 1 or 0.5")
    return value


def cmd_play(args: argparse.Namespace) -> int:
    spec = _spec(args.game)
    mode = _mode_of(spec, args)
    _refuse_other_modes(spec, args, mode)
    config = _config_for(args)
    config.game = spec.name
    config.options = _options(spec, config, args)
    if args.seed is not None:
        config.seed = args.seed
    if mode == "camera":
        return _play_camera(spec, config, args)
    return _play_wheels(spec, config, args)


def _play_camera(spec: GameSpec, config: ServiceConfig, args: argparse.Namespace) -> int:
    """A game refereed by the table camera: the camera, the game's referee, the event log and the Table page."""
    from controller.referee.common import RefereeConfig, RefereeError
    from controller.service.table import TableSetup
    from controller.service.table_runner import TableRun, camera_driver, open_camera, run_table_service

    if args.fps is not None and args.fps <= 0:
        raise CommandError(f"--fps must be more than 0, not {args.fps:g}")
    try:
        seats = spec.load_engine()(config.options, seed=config.seed or 0).num_players
    except (KeyError, ValueError) as exc:
        raise CommandError(f"{spec.title} options {config.options}: {exc.args[0] if exc.args else exc}") from None
    names = _seat_names(args, config, seats)
    try:
        referee = RefereeConfig.from_mapping(config.referee, source="[referee]")
    except RefereeError as exc:
        raise CommandError(str(exc)) from None
    _apply_common(config, args)
    source = args.source or config.table_source or "picamera2"
    try:
        layout, watcher = open_camera(args.layout or config.table_layout or spec.mat)
        driver = camera_driver(source, args.fps or config.table_fps)
        setup = TableSetup([PlayerConfig(n) for n in names], config.options, config.seed or 0, referee,
                           game=spec.name)
        run = TableRun(start="new" if args.new else "resume", token=args.token)
        _new_log_in_empty_file(config, args.new)
        session = run_table_service(config, setup, layout, watcher, driver, run)
    except (ServiceError, ConfigError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    print(f"{session.frames} frames, {session.snapshots} still moments, "
          f"{1000.0 * session.frame_s / max(1, session.frames):.1f} ms per frame.")
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
        for seat in args.bot or []:
            if not 0 <= seat < players:
                raise CommandError(f"--bot {seat}: seats are numbered 0 to {players - 1}")
            bots.add(seat)
        config.players = [PlayerConfig(name, seat in bots) for seat, name in enumerate(names)]
    _apply_common(config, args)
    _new_log_in_empty_file(config, args.new)
    run = RunOptions(start="new" if args.new else "resume", terminal="redraw" if args.terminal else "log",
                     token=args.token)
    return _run(config, run)


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
                raise CommandError(f"--controllers {item}: {name!r} is not a backend; choose one of "
                                   f"{', '.join(BACKEND_NAMES)}")
            backends[cid] = name
        ids.append(cid)
    if len(set(ids)) != len(ids):
        raise CommandError(f"--controllers lists a controller twice: {text}")
    if backends and len(backends) != len(ids):
        raise CommandError(f"--controllers {text}: name a backend for every controller (ID=BACKEND) or for none")
    return ids, backends


def _colours(spec: GameSpec, config: ServiceConfig) -> list[str]:
    """The controllers of a game played on phones or simulated ones: one per piece, named by colour."""
    try:
        game = spec.load_engine()(config.options, seed=config.seed or 0)
    except ValueError as exc:
        raise CommandError(f"{spec.title} options {config.options}: {exc.args[0] if exc.args else exc}") from None
    rules = spec.load_wheels()(game, None)
    return [rules.piece_name(piece) for piece in range(rules.pieces())]


def cmd_serve(args: argparse.Namespace) -> int:
    config = _config_for(args)
    _apply_common(config, args)
    run = RunOptions(start="serve", until_over=False, terminal="redraw" if args.terminal else None, token=args.token)
    return _run(config, run)


def cmd_replay(args: argparse.Namespace) -> int:
    from controller.engines import SaveFileError, load_game, new_game

    try:
        text = _read_save(args.file)
    except FileNotFoundError:
        raise CommandError(f"the save file {args.file} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {args.file}: {exc}") from None
    _register_engine_of(text)
    try:
        final = load_game(text)
    except SaveFileError as exc:
        raise CommandError(f"{args.file}: {exc}") from None
    if args.final:
        print(final.render())
    else:
        game = new_game(final.NAME, final.options, final.seed)
        print(game.render())
        for player, action in final.history:
            events = game.apply(player, action)
            for event in events:
                if event.kind not in ("locked", "programmed"):
                    print(f"- {event.text}")
            if any(e.kind in ("revealed", "game-over") for e in events):
                print()
                print(game.render())
                if args.speed > 0:
                    time.sleep(args.speed)
    scores = " ".join(f"{s:g}" for s in final.scores())
    print(f"{len(final.history)} actions replayed; scores: {scores}; "
          f"{'game over' if final.is_over() else 'the game was not finished'}")
    return 0


def _read_save(path: Path) -> str:
    """A save file's text, refusing before reading one larger than any save (see ``Game.load``)."""
    from controller.engines import Game

    size = path.stat().st_size
    if size > Game.SAVE_MAX_BYTES:
        raise CommandError(f"{path} is too large for a save ({size / 2**20:.1f} MiB; a save is at most "
                           f"{Game.SAVE_MAX_BYTES // 2**20} MiB); check that it is the file `bitbox export` wrote")
    return path.read_text(encoding="utf-8")


def _register_engine_of(text: str) -> None:
    """Import the engine of the game a save names, so that a game added through the registry
    (``BITBOX_GAMES``) replays like a built-in one; a save that cannot be read is left to the loader."""
    with contextlib.suppress(ValueError, AttributeError, TypeError, LookupError, ImportError, RecursionError):
        _spec(str(json.loads(text)["game"])).load_engine()


@contextlib.contextmanager
def _open_store(db: Path | None) -> Iterator[GameStore]:
    """The event log a reading command names; a damaged one (found at opening or while reading)
    is a :class:`CommandError` saying so."""
    path = db if db is not None else state_dir() / "bitbox.db"
    if not path.exists():
        others = sorted(p for p in state_dir().glob("*.db") if p != path) if db is None else []
        example = f", for example --db {others[0]} (a demo's log)" if others else ""
        raise CommandError(f"there is no event log at {path}; give one with --db{example}")
    try:
        with GameStore(path) as store:
            yield store
    except StoreError as exc:
        raise CommandError(str(exc)) from None


def cmd_export(args: argparse.Namespace) -> int:
    with _open_store(args.db) as store:
        if args.game is None:
            done = [g for g in store.games() if g.status != "playing"]
            if not done:
                raise CommandError("no finished game in this event log (see `bitbox games`)")
            stored = done[-1]
        else:
            try:
                stored = store.game(args.game)
            except StoreError as exc:
                raise CommandError(str(exc)) from None
        if stored.status == "playing":
            raise CommandError(f"game #{stored.id} is still being played; its programs are secret until it ends")
        data = public_save(store, stored.id)
    text = json.dumps(data, sort_keys=True, indent=1) + "\n"
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
            raise CommandError(f"cannot write {args.output}: {exc.strerror or exc}; "
                               "give another path with -o, or leave it out to print the save") from None
        print(f"game #{stored.id} written to {args.output}", file=sys.stderr)
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    with _open_store(args.db) as store:
        rows = store.games()
    if not rows:
        print("no games stored yet")
    for g in rows:
        names = ", ".join(p["name"] + (" (bot)" if p.get("bot") else "") for p in g.setup.get("players", []))
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.created))
        print(f"#{g.id:<4} {g.game:<8} {g.status:<8} {g.actions:>4} actions  seed {g.seed:<6} {when}  {names}")
    return 0

