"""The console's commands: ``bitbox demo``, ``play``, ``serve``, ``replay``, ``export`` and ``games``."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from controller.cli import CommandError
from controller.paths import state_dir
from controller.service.config import ConfigError, PlayerConfig, ServiceConfig, load_config
from controller.service.runner import RunOptions, ServiceError, run_service
from controller.service.store import GameStore, StoreError

#: Controller ids of the demo's simulated controllers, one per colour.
DEMO_CONTROLLERS = ["red", "blue", "green", "yellow"]
DEMO_NAMES = ["Ada", "Brice", "Chloé", "Dinesh"]


def register(subparsers: Any) -> None:
    demo = subparsers.add_parser(
        "demo",
        help="watch a whole game played by bots (Pixoid on simulated controllers, or PuXes on a simulated table)",
        description="pixoid (the default): bots turn simulated controller wheels and press ready, through the "
        "same path as real controllers: programs are locked, revealed and resolved, the dashboard shows it "
        "live and the terminal prints the board turn by turn. An interrupted Pixoid demo resumes where it "
        "stopped when run again with the same options. "
        "puxes: two bots play PuXes on a simulated table; frames rendered from it are the camera, and go "
        "through the same path as a real table: the camera pipeline, the referee, the event log, the "
        "dashboard's Table page (questions are answered by the players at the simulated table). "
        "Either ends by itself when the game is over and prints the result.",
    )
    demo.add_argument("game", nargs="?", choices=("pixoid", "puxes"), default="pixoid",
                      help="the game to watch (default pixoid)")
    demo.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    demo.add_argument("--players", type=int, choices=(3, 4), default=None,
                      help="Pixoid: 3 or 4 players (default 4)")
    demo.add_argument("--short", action="store_true", help="the short game (one round, 12 cubes wins)")
    demo.add_argument("--speed", type=float, default=1.0,
                      help="pace: 1 is table pace, 4 four times faster, 0 no pauses at all (default 1)")
    demo.add_argument("--turns", type=int, default=None, metavar="N",
                      help="stop after N turns (a Pixoid game stays saved and resumes next time; "
                      "the PuXes demo starts afresh each run)")
    demo.add_argument("--until-over", action="store_true", help="play until the game is over (the default)")
    demo.add_argument("--keep-serving", action="store_true", help="keep the dashboard up after the game")
    demo.add_argument("--new", action="store_true", help="start a new game even if an interrupted one is saved")
    _add_common(demo, default_db="demo.db", default_port=8080)
    demo.set_defaults(handler=cmd_demo)

    play = subparsers.add_parser(
        "play",
        help="referee a live game: Pixoid with controllers, PuXes with the table camera",
        description="Referee a live game. Players, controllers and options come from --config (TOML) and/or "
        "the options below (which win). A game left unfinished in the event log is resumed unless --new. "
        "pixoid: placement: the number wheel of the placing colour picks a free start Pix (numbered on the "
        "dashboard) and ready places it. Programming: direction and number wheels, then ready to lock. "
        "puxes: the camera watches the calibrated mat (bitbox calibrate mat --layout puxes, then bitbox "
        "calibrate dice --layout puxes and bitbox calibrate faces); each time the table is still the "
        "referee calls what happened, stores it, and shows it on the dashboard's Table page, where "
        "questions are answered and calls overruled with the token.",
    )
    play.add_argument("game", choices=("pixoid", "puxes"), help="the game to play")
    play.add_argument("--config", type=Path, help="a TOML configuration file (see docs/service.md)")
    play.add_argument("--players", type=int, choices=(2, 3, 4), help="players: Pixoid 3 or 4, PuXes 2 to 4")
    play.add_argument("--short", action="store_true", default=None, help="the short game")
    play.add_argument("--seed", type=int, help="the game's seed")
    play.add_argument("--backend", choices=("sim", "gpio", "serial"), help="how controllers are read")
    play.add_argument("--controllers", help="controller ids, one per colour in order red,blue,green,yellow")
    play.add_argument("--name", action="append", default=None, metavar="NAME",
                      help="a player's name, in seat order (repeat for each seat)")
    play.add_argument("--bot", action="append", type=int, default=None, metavar="SEAT",
                      help="give seat SEAT (0-based) to a bot (repeatable)")
    play.add_argument("--terminal", action="store_true", help="redraw the board in the terminal (for SSH)")
    play.add_argument("--source", default=None,
                      help="PuXes: the camera: picamera2, a device number, a video file or a folder of images "
                      "(default: [table] source of the config file, else picamera2)")
    play.add_argument("--layout", default=None, help="PuXes: the mat (default puxes: hardware/mats/puxes.toml)")
    play.add_argument("--fps", type=float, default=None,
                      help="PuXes: frame rate of a recorded source (video file, image folder) (default 15)")
    play.add_argument("--option", action="append", default=None, metavar="KEY=VALUE",
                      help="PuXes: a game option, VALUE in JSON or plain text, e.g. --option mode=blitz "
                      "--option cliff=true (repeatable; see docs/puxes.md, Variants)")
    play.add_argument("--new", action="store_true", help="start a new game even if an unfinished one is saved")
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


def _add_common(parser: argparse.ArgumentParser, default_db: str | None, default_port: int | None) -> None:
    parser.add_argument("--db", type=Path, default=None,
                        help=f"the event log (SQLite) (default: {default_db or 'bitbox.db'} in the state folder)")
    parser.add_argument("--no-web", action="store_true", help="do not serve the dashboard")
    parser.add_argument("--host", default=None,
                        help="address the dashboard listens on (default 127.0.0.1; 0.0.0.0 for the whole network)")
    parser.add_argument("--port", type=int, default=default_port, help="the dashboard's port (default 8080)")
    parser.add_argument("--token", default=None,
                        help="the referee token (default: $BITBOX_TOKEN, else a new random one, printed)")
    parser.set_defaults(default_db=default_db)


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


def _run(config: ServiceConfig, run: RunOptions) -> int:
    try:
        session = run_service(config, run)
    except (ServiceError, ConfigError) as exc:
        raise CommandError(str(exc)) from None
    finished = session.game is None or session.game.is_over() or run.max_turns or run.start == "serve"
    return 0 if finished or session.stopping else 1


def cmd_demo(args: argparse.Namespace) -> int:
    if args.speed < 0:
        raise CommandError("--speed cannot be negative (0 means no pauses at all)")
    if args.turns is not None and args.turns < 1:
        raise CommandError("--turns must be 1 or more")
    pace = 0.0 if args.speed == 0 else 1.0 / args.speed
    if args.game == "puxes":
        return _demo_puxes(args, pace)
    players = args.players or 4
    config = ServiceConfig(
        game="pixoid",
        options={"players": players, "short_game": args.short},
        seed=args.seed,
        players=[PlayerConfig(DEMO_NAMES[i], bot=True) for i in range(players)],
        backend="sim",
        pieces=list(DEMO_CONTROLLERS),
        bot_delay=0.35 * pace,
        turn_pause=1.5 * pace,
    )
    _apply_common(config, args)
    run = RunOptions(
        start="new" if args.new else "resume",
        until_over=args.turns is None,
        max_turns=args.turns,
        keep_serving=args.keep_serving,
        terminal="log",
        token=args.token,
        port_fallback=args.port is None,
    )
    return _run(config, run)


def _config_for(args: argparse.Namespace) -> ServiceConfig:
    try:
        config = load_config(args.config) if getattr(args, "config", None) else ServiceConfig()
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    return config


def _demo_puxes(args: argparse.Namespace, pace: float) -> int:
    """``bitbox demo puxes``: the rendered PuXes game through the table service."""
    from controller.service.table_runner import DemoTable, TableRun, run_table_service

    if args.players is not None or args.short:
        raise CommandError("--players and --short are Pixoid options; the PuXes demo is a 2-player game")
    config = ServiceConfig(game="puxes", seed=args.seed)
    _apply_common(config, args)
    if args.db is None:
        config.db = state_dir() / "demo-puxes.db"
    print("Setting up the simulated table (calibrating the rendered mat, teaching the faces)...", flush=True)
    demo = DemoTable(seed=args.seed, max_turns=args.turns, pace=0.6 * pace)
    run = TableRun(start="new", keep_serving=args.keep_serving, token=args.token, port_fallback=args.port is None)
    try:
        session = run_table_service(config, demo.setup(DEMO_NAMES[:2]), demo.layout, demo.watcher, demo, run)
    except (ServiceError, ConfigError) as exc:
        raise CommandError(str(exc)) from None
    game = session.game
    turns = game.turn_number if game is not None else 0
    ms = 1000.0 * session.frame_s / max(1, session.frames)
    print(f"{session.frames} frames, {session.snapshots} still moments, {ms:.1f} ms per frame through the live loop; "
          f"{session.questions_asked} questions ({session.questions_asked / max(1, turns):.2f} per turn)")
    if demo.first_difference is None:
        print("The referee's game matches what happened on the table.")
    else:
        print(f"The referee's game first differed from the table at {demo.first_difference}")
    return 0


def _seat_names(args: argparse.Namespace, config: ServiceConfig, seats: int) -> list[str]:
    """One name per seat: ``--name`` (else the config file's players), then "Player N" for the rest."""
    names = list(args.name or [p.name for p in config.players])
    if len(names) > seats:
        raise CommandError(f"{len(names)} names are given for {seats} players")
    return names + [f"Player {i + 1}" for i in range(len(names), seats)]


def _puxes_options(config: ServiceConfig, args: argparse.Namespace) -> dict[str, Any]:
    options = dict(config.options)
    if args.players is not None:
        options["players"] = args.players
    for item in args.option or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"--option {item!r}: write KEY=VALUE, for example --option mode=blitz")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        options[key.strip()] = value
    return options


def cmd_play_puxes(args: argparse.Namespace) -> int:
    """``bitbox play puxes``: the table camera, the PuXes referee, the event log and the Table page."""
    from controller.referee.common import RefereeConfig, RefereeError
    from controller.service.table import TableSetup
    from controller.service.table_runner import TableRun, camera_driver, open_camera, run_table_service

    if args.short or args.backend or args.controllers or args.bot or args.terminal:
        raise CommandError("--short, --backend, --controllers, --bot and --terminal are Pixoid options; "
                           "PuXes is played with the table camera (--source)")
    if args.fps is not None and args.fps <= 0:
        raise CommandError(f"--fps must be more than 0, not {args.fps:g}")
    config = _config_for(args)
    config.game = "puxes"
    options = _puxes_options(config, args)
    if args.seed is not None:
        config.seed = args.seed
    try:
        from controller.engines.puxes import PuxesGame

        seats = PuxesGame(options, seed=config.seed).num_players
    except (KeyError, ValueError) as exc:
        raise CommandError(f"PuXes options {options}: {exc.args[0] if exc.args else exc}") from None
    names = _seat_names(args, config, seats)
    try:
        referee = RefereeConfig.from_mapping(config.referee, source="[referee]")
    except RefereeError as exc:
        raise CommandError(str(exc)) from None
    _apply_common(config, args)
    source = args.source or config.table_source or "picamera2"
    try:
        layout, watcher = open_camera(args.layout or config.table_layout)
        driver = camera_driver(source, args.fps or config.table_fps)
        setup = TableSetup([PlayerConfig(n) for n in names], options, config.seed, referee)
        run = TableRun(start="new" if args.new else "resume", token=args.token)
        session = run_table_service(config, setup, layout, watcher, driver, run)
    except (ServiceError, ConfigError) as exc:
        raise CommandError(str(exc)) from None
    print(f"{session.frames} frames, {session.snapshots} still moments, "
          f"{1000.0 * session.frame_s / max(1, session.frames):.1f} ms per frame.")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    if args.game == "puxes":
        return cmd_play_puxes(args)
    for name in ("source", "layout", "fps", "option"):
        if getattr(args, name) is not None:
            raise CommandError(f"--{name} is a PuXes option (the table camera); Pixoid is played with controllers")
    config = _config_for(args)
    config.game = args.game
    options = dict(config.options)
    if args.players is not None:
        options["players"] = args.players
    if args.short:
        options["short_game"] = True
    config.options = options
    if args.seed is not None:
        config.seed = args.seed
    if args.backend is not None:
        config.backend = args.backend
    if args.controllers is not None:
        ids = [c.strip() for c in args.controllers.split(",") if c.strip()]
        if len(set(ids)) != len(ids):
            raise CommandError(f"--controllers lists a controller twice: {args.controllers}")
        config.pieces = ids
    players = int(options.get("players", 4))
    if args.name or args.bot or not config.players:
        names = _seat_names(args, config, players)
        bots = {seat for seat, p in enumerate(config.players) if p.bot}
        for seat in args.bot or []:
            if not 0 <= seat < players:
                raise CommandError(f"--bot {seat}: seats are numbered 0 to {players - 1}")
            bots.add(seat)
        config.players = [PlayerConfig(name, seat in bots) for seat, name in enumerate(names)]
    _apply_common(config, args)
    run = RunOptions(start="new" if args.new else "resume", terminal="redraw" if args.terminal else "log",
                     token=args.token)
    return _run(config, run)


def cmd_serve(args: argparse.Namespace) -> int:
    config = _config_for(args)
    _apply_common(config, args)
    run = RunOptions(start="serve", until_over=False, terminal="redraw" if args.terminal else None, token=args.token)
    return _run(config, run)


def cmd_replay(args: argparse.Namespace) -> int:
    from controller.engines import SaveFileError, load_game, new_game

    try:
        text = args.file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"the save file {args.file} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {args.file}: {exc}") from None
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


def _open_store(db: Path | None) -> GameStore:
    path = db if db is not None else state_dir() / "bitbox.db"
    if not path.exists():
        raise CommandError(f"there is no event log at {path}; give one with --db")
    try:
        return GameStore(path)
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
        data = store.save_data(stored.id)
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

