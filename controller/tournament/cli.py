"""``bitbox tournament``: make a tournament, run it, see how it stands, export it, mend it by hand.

``new`` writes the tournament's file (players, game and options from the registry, format, rounds,
seats); ``run`` is the organiser (the broker, the standings page, until the last round is played);
``status`` and ``export`` read the file; ``record`` and ``move`` mend a round whose table never came
back; ``demo`` plays a whole tournament of bot games on simulated tables with a broker of its own.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import logging
import shlex
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from controller.cli import CommandError
from controller.games import GameSpec, UnknownGameError, game as game_spec, game_names
from controller.i18n import _, ngettext
from controller.paths import state_dir
from controller.tournament import pairing as formats
from controller.tournament.rounds import FORMAT_WORDS, Tournament, default_rounds
from controller.tournament.store import Settings, TournamentError, TournamentStore
from controller.tournament.topics import NAME, AddressError, BrokerAddress

#: The demo's players.
DEMO_NAMES = ("Ada", "Brice", "Chloé", "Dinesh", "Emma", "Farid", "Gaspard", "Hana", "Inès", "Jules", "Kenji",
              "Léa", "Malik", "Nora", "Oscar", "Paula", "Quentin", "Rosa", "Sami", "Tess", "Ugo", "Vera", "Wen",
              "Xavier", "Yasmine", "Zoé", "Arthur", "Bianca", "Cyril", "Delphine", "Elias", "Fanny")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tournament", help=_("run a tournament over several tables through an MQTT broker"),
        description=_("A tournament over several tables: each table runs `bitbox play GAME --tournament "
                      "mqtt://HOST/NAME --table N`, the organiser runs `bitbox tournament run`, and the standings "
                      "page shows how it stands. docs/tournaments.md says how to set up the broker."))
    sub = parser.add_subparsers(dest="tournament_command", metavar=_("COMMAND"))

    new = sub.add_parser("new", help=_("make a tournament: players, game, format, rounds"),
                         description=_("Make a tournament's file: the players (from a file, one name a line, or "
                                       "--player), the game and its options from the registry, the format and the "
                                       "number of rounds."))
    new.add_argument("name", metavar=_("NAME"), help=_("the tournament's name, one word (it is part of its address)"))
    new.add_argument("--game", required=True, choices=game_names(), metavar=_("GAME"),
                     help=_("the game played: {games}").format(games=", ".join(game_names())))
    new.add_argument("--option", action="append", default=[], metavar=_("KEY=VALUE"),
                     help=_("a game option, VALUE in JSON or plain text (repeatable)"))
    new.add_argument("--players-file", type=Path, metavar=_("FILE"), help=_("the players, one name a line"))
    new.add_argument("--player", action="append", default=[], metavar=_("NAME"), help=_("a player (repeatable)"))
    new.add_argument("--format", choices=formats.FORMATS, default="swiss",
                     help=_("swiss (default), round-robin or elimination"))
    new.add_argument("--rounds", type=int, help=_("how many rounds (default: as many as the format needs)"))
    new.add_argument("--seats", type=int,
                     help=_("players at a table (default: two when the game allows it, else its usual count)"))
    new.add_argument("--broker", metavar="mqtt://HOST[:PORT]/NAME",
                     help=_("the broker the tournament runs on (default: mqtt://localhost/NAME)"))
    new.add_argument("--db", type=Path, help=_("the tournament's file (default: tournament-NAME.db in the state "
                                               "folder)"))
    new.set_defaults(handler=cmd_new)

    run = sub.add_parser("run", help=_("be the organiser: pair the rounds, collect the results, serve the standings"),
                         description=_("Run the tournament: connect to its broker, pair each round over the tables "
                                       "that are online, check and record the results, serve the standings page. "
                                       "Stopped and run again, it resumes where it was."))
    _add_which(run)
    run.add_argument("--broker", metavar="mqtt://HOST[:PORT]/NAME", help=_("the broker (default: the one given to "
                                                                          "`new`)"))
    run.add_argument("--username", help=_("the organiser's user on the broker"))
    run.add_argument("--password-file", type=Path, metavar=_("FILE"),
                     help=_("a file holding the organiser's broker password (or set $BITBOX_MQTT_PASSWORD)"))
    run.add_argument("--ca-file", type=Path, metavar=_("FILE"), help=_("the broker's CA certificate, for mqtts://"))
    _add_page(run)
    run.add_argument("--keep-serving", action="store_true", help=_("keep the standings page up once the tournament "
                                                                   "is over"))
    run.set_defaults(handler=cmd_run)

    status = sub.add_parser("status", help=_("the standings, the round's pairings and the tables"))
    _add_which(status)
    status.add_argument("--json", action="store_true", help=_("print it as JSON"))
    status.set_defaults(handler=cmd_status)

    export = sub.add_parser("export", help=_("write the standings and every game as CSV and JSON"))
    _add_which(export)
    export.add_argument("-o", "--output", type=Path, default=Path("."), metavar=_("FOLDER"),
                        help=_("the folder to write to (default: here)"))
    export.set_defaults(handler=cmd_export)

    record = sub.add_parser("record", help=_("record a result by hand (a table that never came back)"))
    _add_which(record)
    record.add_argument("--round", type=int, required=True, help=_("the round"))
    record.add_argument("--table", type=int, required=True, dest="board",
                        help=_("the pairing's table in that round, as `status` lists it"))
    record.add_argument("--scores", required=True, metavar="S1,S2,...", help=_("each seat's score, in seat order"))
    record.add_argument("--winner", type=int, action="append", metavar=_("SEAT"),
                        help=_("a winning seat, from 1 (default: the best score)"))
    record.set_defaults(handler=cmd_record)

    move = sub.add_parser("move", help=_("have another table play a pairing (its table never came back)"))
    _add_which(move)
    move.add_argument("--round", type=int, required=True, help=_("the round"))
    move.add_argument("--table", type=int, required=True, dest="board",
                      help=_("the pairing's table in that round, as `status` lists it"))
    move.add_argument("--to", type=int, required=True, metavar="N", help=_("the table that plays it now"))
    move.set_defaults(handler=cmd_move)

    demo = sub.add_parser("demo", help=_("watch a tournament of bot games on simulated tables"),
                          description=_("A small tournament of bot games on simulated tables on this machine, through "
                                        "a real broker: Mosquitto on a free local port unless --broker is given. The "
                                        "standings are printed as they change and the standings page stays open."))
    demo.add_argument("--game", choices=game_names(), metavar=_("GAME"),
                      help=_("the game (default: the first one bots play on phones)"))
    demo.add_argument("--tables", type=int, default=8, help=_("how many tables (default 8)"))
    demo.add_argument("--players", type=int, help=_("how many players (default: enough to fill every table)"))
    demo.add_argument("--format", choices=formats.FORMATS, default="swiss", help=_("the format (default swiss)"))
    demo.add_argument("--rounds", type=int, help=_("how many rounds"))
    demo.add_argument("--speed", type=float, default=4.0,
                      help=_("the bots' pace: 1 is table pace, 0 no pauses at all (default 4)"))
    demo.add_argument("--broker", metavar="mqtt://HOST[:PORT]/NAME", help=_("use this broker instead of starting one"))
    demo.add_argument("--until-over", action="store_true", help=_("stop once the tournament is over"))
    _add_page(demo, default_port=8090)
    demo.set_defaults(handler=cmd_demo)
    parser.set_defaults(handler=lambda args: parser.print_help() or 0)


def _add_which(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar=_("NAME"), help=_("the tournament's name"))
    parser.add_argument("--db", type=Path, help=_("the tournament's file (default: tournament-NAME.db in the state "
                                                  "folder)"))


def _add_page(parser: argparse.ArgumentParser, default_port: int = 8090) -> None:
    parser.add_argument("--host", default="127.0.0.1", help=_("address the standings page listens on (default "
                                                              "127.0.0.1; 0.0.0.0 for the whole network)"))
    parser.add_argument("--port", type=int, default=default_port,
                        help=_("the standings page's port (default {port})").format(port=default_port))
    parser.add_argument("--no-web", action="store_true", help=_("do not serve the standings page"))
    parser.add_argument("--token", help=_("the organiser's token for the page's requests (default: $BITBOX_TOKEN, "
                                          "else a new one, printed)"))


# ---- the table's side: `bitbox play GAME --tournament URL --table N` ---------------------------------


def table_settings(base: dict[str, Any], url: str | None, table: int | None, mode: str) -> dict[str, Any]:
    """The ``[tournament]`` settings of a table, the command line's over the file's, checked (a table
    plays in a tournament however its game is played: ``mode`` is the wheels, phones or the camera)."""
    from controller.tournament.settings import SettingsError, TableSettings

    settings = dict(base)
    if url is not None:
        settings["url"] = url
    if table is not None:
        settings["table"] = table
    if "url" not in settings:
        raise CommandError(_("--table needs --tournament mqtt://HOST/NAME (or url in the [tournament] section)"))
    if "table" not in settings:
        raise CommandError(_("--tournament needs this table's number: add --table N (or table in the [tournament] "
                             "section)"))
    try:
        TableSettings.from_mapping(settings, where="--tournament")
    except SettingsError as exc:
        raise CommandError(str(exc)) from None
    return settings


# ---- new ------------------------------------------------------------------------------------------------


def default_path(name: str) -> Path:
    return state_dir() / f"tournament-{name}.db"


def read_players(path: Path) -> list[str]:
    """The players of a file: one name a line; blank lines and lines starting with # are left out."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(_("cannot read the players from {path}: {reason}; give a text file with one name a "
                             "line").format(path=path, reason=getattr(exc, "strerror", None) or exc)) from None
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def _spec(name: str) -> GameSpec:
    try:
        return game_spec(name)
    except UnknownGameError as exc:
        raise CommandError(str(exc)) from None


def seats_for(spec: GameSpec, form: str, seats: int | None) -> tuple[int, int]:
    """The most and fewest players at a table for ``spec`` in format ``form``."""
    low, high = spec.players
    most = seats if seats is not None else (2 if low <= 2 else spec.seats_default)
    if not low <= most <= high:
        raise CommandError(_("{game} is played by {low} to {high} players, not {seats}: give --seats {example}").format(
            game=_(spec.title), low=low, high=high, seats=most, example=spec.seats_default))
    if spec.players_option is None and most != spec.seats_default:
        raise CommandError(_("{game} is played by {count} players: give --seats {count}").format(
            game=_(spec.title), count=spec.seats_default))
    if form == "round-robin" and most != 2:
        raise CommandError(_("a round-robin seats two players at a table: give --seats 2, or --format swiss"))
    fewest = most if spec.players_option is None else max(low, min(2, most))
    return most, fewest


def make_tournament(path: Path, name: str, spec: GameSpec, players: list[str], form: str = "swiss",
                    rounds: int | None = None, seats: int | None = None, options: dict[str, Any] | None = None,
                    broker: str | None = None) -> TournamentStore:
    """Write a new tournament's file; :class:`CommandError` saying what is wrong otherwise."""
    if not NAME.match(name):
        raise CommandError(_("{name!r} cannot name a tournament: one word of letters, digits, '-', '_' or '.', such "
                             "as cafe-june").format(name=name))
    if path.exists():
        raise CommandError(_("{path} already exists: a tournament is kept in it; give another --db, or run it with "
                             "`bitbox tournament run --db {path}`").format(path=path))
    if len(set(players)) != len(players):
        twice = sorted({p for p in players if players.count(p) > 1})
        raise CommandError(_("a player is listed twice: {names}; give each player once").format(names=", ".join(twice)))
    most, fewest = seats_for(spec, form, seats)
    if len(players) < fewest:
        raise CommandError(ngettext("{count} player cannot fill a table of {game}: give {fewest} players or more",
                                    "{count} players cannot fill a table of {game}: give {fewest} players or more",
                                    len(players)).format(count=len(players), game=_(spec.title), fewest=fewest))
    options = dict(options or {})
    try:
        engine = spec.load_engine()
        engine.OPTIONS.from_dict(spec.options_from(options, most if spec.players_option else None, {}))
    except ValueError as exc:
        raise CommandError(_("{game} cannot be played with the options {options}: {reason}").format(
            game=_(spec.title), options=options, reason=exc)) from None
    needed = default_rounds(form, len(players), most, fewest)
    if rounds is None:
        rounds = needed
    elif rounds < 1 or (form != "swiss" and rounds > needed):
        raise CommandError(_("--rounds {rounds}: give 1 to {most} rounds for {count} players in this format").format(
            rounds=rounds, most=needed if form != "swiss" else "…", count=len(players)))
    try:
        address = BrokerAddress.parse(broker or f"mqtt://localhost/{name}")
    except AddressError as exc:
        raise CommandError(str(exc)) from None
    if address.name != name:
        raise CommandError(_("--broker {url} names the tournament {other!r}: end it with /{name}").format(
            url=broker, other=address.name, name=name))
    settings = Settings(name=name, game=spec.name, options=options, format=form, rounds=rounds, most=most,
                        fewest=fewest, broker=address.url, tiebreaks=tuple(spec.tiebreaks))
    try:
        return TournamentStore.create(path, settings, players)
    except TournamentError as exc:
        raise CommandError(str(exc)) from None


def _option_items(items: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise CommandError(_("--option {item!r}: write KEY=VALUE, for example --option mode=blitz").format(item=item))
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        if isinstance(value, float) and not math.isfinite(value):
            raise CommandError(_("--option {item!r}: give a finite number").format(item=item))
        options[key.strip()] = value
    return options


def cmd_new(args: argparse.Namespace) -> int:
    spec = _spec(args.game)
    players = list(args.player)
    if args.players_file is not None:
        players = read_players(args.players_file) + players
    path = args.db or default_path(args.name)
    with make_tournament(path, args.name, spec, players, args.format, args.rounds, args.seats,
                         _option_items(args.option), args.broker) as store:
        settings = store.settings()
    print(_("Tournament {name} made in {path}: {count} players, {game}, {format}, {rounds} rounds.").format(
        name=args.name, path=path, count=len(players), game=_(spec.title), format=_(FORMAT_WORDS[settings.format]),
        rounds=settings.rounds))
    print(_("Run it with `bitbox tournament run --db {path}`; each table joins with `bitbox play {game} --tournament "
            "{url} --table N`.").format(path=shlex.quote(str(path)), game=spec.name, url=settings.broker))
    return 0


# ---- reading a tournament ---------------------------------------------------------------------------------


def _path(args: argparse.Namespace) -> Path:
    if args.db is not None:
        return args.db
    if args.name:
        return default_path(args.name)
    found = sorted(state_dir().glob("tournament-*.db"))
    if len(found) == 1:
        return found[0]
    if not found:
        raise CommandError(_("no tournament in {folder}: `bitbox tournament new NAME --game GAME` makes one").format(
            folder=state_dir()))
    raise CommandError(_("several tournaments are in {folder}: name one, such as `{command}`").format(
        folder=state_dir(), command=f"bitbox tournament {args.tournament_command} "
                                    f"{found[0].stem.removeprefix('tournament-')}"))


@contextlib.contextmanager
def _opened(args: argparse.Namespace) -> Iterator[Tournament]:
    try:
        with TournamentStore(_path(args)) as store:
            yield Tournament(store)
    except TournamentError as exc:
        raise CommandError(str(exc)) from None


def number_text(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def standings_lines(state: dict[str, Any]) -> list[str]:
    """The standings as the terminal prints them."""
    from controller.tournament.standings import TIEBREAK_WORDS

    t = state["tournament"]
    if t["over"]:
        head = _("Final standings of {name}:").format(name=t["name"])
    elif t["round"]:
        head = _("{name}, round {round} of {rounds}:").format(name=t["name"], round=t["round"], rounds=t["rounds"])
    else:
        head = _("{name}, not started:").format(name=t["name"])
    lines = [head]
    width = max([len(row["name"]) for row in state["standings"]] + [4])
    for row in state["standings"]:
        breaks = ", ".join(f"{_(TIEBREAK_WORDS.get(k, k))} {number_text(row['tiebreaks'].get(k, 0))}"
                           for k in state["tiebreaks"])
        lines.append(f"  {row['place']:>3}. {row['name']:<{width}}  {number_text(row['points']):>5}  ({breaks})")
    return lines


def pairing_lines(state: dict[str, Any]) -> list[str]:
    lines = []
    for p in state["pairings"]:
        where = _("table {table}").format(table=p["table"]) if p["table"] else _("waiting for a table")
        done = ""
        if p["result"]:
            done = " — " + " – ".join(number_text(s) for s in p["result"]["scores"])
        lines.append(f"  {p['board']:>3}. {where}: {' · '.join(p['players'])}{done}")
    if state["byes"]:
        lines.append("  " + _("Bye: {names}").format(names=", ".join(state["byes"])))
    return lines


def cmd_status(args: argparse.Namespace) -> int:
    with _opened(args) as tournament:
        tournament.tables = {t: s for t, s in tournament.store.table_statuses().items()}
        state = tournament.state()
    if args.json:
        print(json.dumps(state, ensure_ascii=False, indent=1))
        return 0
    for line in standings_lines(state):
        print(line)
    if state["pairings"]:
        print(_("Round {round}:").format(round=state["tournament"]["round"]))
        for line in pairing_lines(state):
            print(line)
    if state["tables"]:
        print(_("Tables (as last seen by the organiser):"))
        for t in state["tables"]:
            print(f"  {t['table']:>3}: {t['detail']}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from controller.tournament.export import export

    with _opened(args) as tournament:
        try:
            written = export(tournament, args.output)
        except OSError as exc:
            raise CommandError(_("cannot write to {folder}: {reason}; give another folder with -o").format(
                folder=args.output, reason=exc.strerror or exc)) from None
    for path in written:
        print(_("written: {path}").format(path=path))
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    try:
        scores = [float(s) for s in args.scores.split(",") if s.strip()]
    except ValueError:
        raise CommandError(_("--scores {text}: give each seat's score as numbers separated by commas, such as "
                             "--scores 3,1").format(text=args.scores)) from None
    if not all(math.isfinite(s) for s in scores):
        raise CommandError(_("--scores {text}: give finite numbers").format(text=args.scores))
    winners = [w - 1 for w in args.winner] if args.winner else None
    with _opened(args) as tournament:
        try:
            board = tournament.record_by_hand(args.round, args.board, scores, winners)
        except TournamentError as exc:
            raise CommandError(str(exc)) from None
        names = tournament.store.players()
    print(_("Round {round}, table {board}: recorded by hand ({players}).").format(
        round=board.round, board=board.board, players=", ".join(
            f"{names[p]} {number_text(s)}" for p, s in zip(board.players, board.result.scores))))  # type: ignore[union-attr]
    return 0


def cmd_move(args: argparse.Namespace) -> int:
    with _opened(args) as tournament:
        try:
            board = tournament.move(args.round, args.board, args.to)
        except TournamentError as exc:
            raise CommandError(str(exc)) from None
    print(_("Round {round}, pairing {board} is now played at table {table}; the organiser tells that table.").format(
        round=board.round, board=board.board, table=board.table))
    return 0


# ---- run ---------------------------------------------------------------------------------------------------


class Printer:
    """Prints the standings each time they change (not at every table's status)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.last = ""

    def __call__(self, state: dict[str, Any]) -> None:
        key = json.dumps([state["tournament"], state["standings"], [p["result"] for p in state["pairings"]]])
        if key == self.last:
            return
        self.last = key
        print("\n".join(standings_lines(state)), file=self.out, flush=True)


def serve_page(organiser: Any, host: str, port: int, token: str | None, out: TextIO) -> Any:
    """Serve the standings page; the running server."""
    from controller.service.auth import make_token
    from controller.service.web import WebServer
    from controller.service.web.guard import machine_hosts
    from controller.service.web.server import WebServerError
    from controller.tournament.page import create_app

    try:
        token = make_token(token)
        server = WebServer(create_app(organiser, token, machine_hosts(host)), host, port)
        server.start()
    except (ValueError, WebServerError) as exc:
        raise CommandError(str(exc)) from None
    print(_("Standings page: {url} (big screen: {url}?screen=big)").format(url=server.url), file=out)
    print(_("Organiser's token (results by hand, moving a pairing): {token}").format(token=token), file=out, flush=True)
    return server


def organise(path: Path, address: BrokerAddress, args: argparse.Namespace, out: TextIO, until_over: bool,
             keep_serving: bool) -> Tournament:
    """Run the organiser of ``path`` until the tournament is over (then keep the page up if asked)."""
    from controller.service.runner import _signals
    from controller.tournament.organiser import Organiser

    printer = Printer(out)
    try:
        organiser = Organiser(path, address, on_change=printer)
    except TournamentError as exc:
        raise CommandError(str(exc)) from None
    server = None
    try:
        if not args.no_web:
            server = serve_page(organiser, args.host, args.port, args.token, out)
        with _signals(organiser):  # from here on Ctrl-C and SIGTERM stop the organiser cleanly
            print(_("Organiser of {name} on {broker}.").format(name=address.name, broker=address.url), file=out,
                  flush=True)
            organiser.run(until_over=until_over)
            if keep_serving and server is not None and not organiser.stopping:
                print(_("The standings page stays up; press Ctrl-C to stop."), file=out, flush=True)
                while not organiser.stopping:
                    time.sleep(0.2)
        return organiser.tournament
    finally:
        organiser.close()
        if server is not None:
            server.stop()


def cmd_run(args: argparse.Namespace) -> int:
    path = _path(args)
    with _opened(args) as tournament:
        url = args.broker or tournament.settings.broker
    try:
        address = BrokerAddress.parse(url).with_login(args.username, None, args.password_file, args.ca_file)
    except AddressError as exc:
        raise CommandError(str(exc)) from None
    organise(path, address, args, sys.stdout, until_over=not args.keep_serving, keep_serving=args.keep_serving)
    return 0


# ---- demo --------------------------------------------------------------------------------------------------


def cmd_demo(args: argparse.Namespace) -> int:
    from controller.tournament.broker import BrokerError, LocalBroker, mosquitto_binary, install_hint
    from controller.tournament.simulated import SimulatedTable, bot_games

    if args.tables < 1:
        raise CommandError(_("--tables must be 1 or more, such as --tables 8"))
    if args.speed < 0:
        raise CommandError(_("--speed cannot be negative: give 0 for no pauses at all, 1 for table pace"))
    playable = bot_games()
    spec = _spec(args.game) if args.game else (playable[0] if playable else None)
    if spec is None or spec not in playable:
        raise CommandError(_("bots cannot play {game} at a simulated table; the games they play: {games}").format(
            game=args.game, games=", ".join(s.name for s in playable)))
    most, _fewest = seats_for(spec, args.format, None)
    count = args.players or args.tables * most
    if count > len(DEMO_NAMES):
        raise CommandError(_("the demo has {most} players' names: give --players {most} or fewer").format(
            most=len(DEMO_NAMES)))
    folder = state_dir() / "tournament-demo"
    shutil.rmtree(folder, ignore_errors=True)  # a demo starts afresh; the last one is kept until the next
    folder.mkdir(parents=True)
    for name in ("controller.tournament.table", "controller.tournament.rounds"):
        logging.getLogger(name).setLevel(logging.WARNING)  # eight tables' chatter would hide the standings
    broker = None
    if args.broker:
        try:
            address = BrokerAddress.parse(args.broker)
        except AddressError as exc:
            raise CommandError(str(exc)) from None
    else:
        if mosquitto_binary() is None:
            raise CommandError(install_hint())
        try:
            broker = LocalBroker(folder / "broker").start()
        except BrokerError as exc:
            raise CommandError(str(exc)) from None
        address = BrokerAddress("127.0.0.1", broker.port, "demo")
        print(_("Mosquitto listens on 127.0.0.1:{port} (its files: {folder}).").format(port=broker.port,
                                                                                     folder=broker.folder))
    make_tournament(folder / "tournament.db", address.name, spec, list(DEMO_NAMES[:count]), args.format, args.rounds,
                    None, {}, address.url).close()
    delay = 0.0 if args.speed == 0 else 0.25 / args.speed
    tables = []
    try:
        for number in range(1, args.tables + 1):
            tables.append(SimulatedTable(folder, spec, number, {"url": address.url}, bot_delay=delay).start())
        print(_("{count} simulated tables play {game}.").format(count=len(tables), game=_(spec.title)), flush=True)
        organise(folder / "tournament.db", address, args, sys.stdout, until_over=True,
                 keep_serving=not args.until_over)
    finally:
        for table in tables:
            table.stop()
        if broker is not None:
            broker.stop()
    return 0
