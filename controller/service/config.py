"""The service's configuration: which game, who plays, which controllers, where to store and serve.

It comes from a TOML file (``--config``), from command-line options, or both (the command line wins).
Every mistake is reported with the file and the key, e.g.
``bitbox.toml: [controllers] pieces[2]: expected a controller id (text), got 3; fix it in the file``.

Example file (for a game played on the wheels; ``bitbox play --help`` lists the games)::

    lang = "fr"                              # what the commands and the terminal say: "en" or "fr"

    [game]
    name = "NAME"                            # a game's name, as ``bitbox play --help`` lists them
    seed = 7
    options = { players = 4, short_game = false }

    [controllers]
    backend = "serial"                       # "phone", "sim", "gpio" or "serial"
    pieces = ["red", "blue", "green", "yellow"]   # the controller of each colour, in colour order
    options = { port = "/dev/bitbox-controllers" }

    [[players]]
    name = "Alice"
    [[players]]
    name = "Bob"
    bot = true

    [web]
    host = "127.0.0.1"
    port = 8080

    [store]
    db = "/var/lib/bitbox/games.db"

    [table]                                  # the table camera, for a game refereed by it
    source = "picamera2"                     # or a device number, a video file, a folder of images
    layout = "my-mat"                        # the mat (default: the game's own, hardware/mats/GAME.toml)

    [referee]                                # how cautious the table referee is
    min_confidence = 0.8
    line_margin_mm = 3.0
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from pathlib import Path
from typing import Any

from controller import i18n
from controller.i18n import _
from controller.paths import state_dir


def _first_game() -> str:
    from controller.games import game_names

    return game_names()[0]


class ConfigError(Exception):
    """The configuration is wrong; the message names the file and the key."""


@dataclasses.dataclass
class PlayerConfig:
    """One seat: a name, and whether the computer plays it."""

    name: str
    bot: bool = False


@dataclasses.dataclass
class ServiceConfig:
    """Everything the live service needs to run a game."""

    #: The game's registered name (see :mod:`controller.games`); the first registered one by default.
    game: str = dataclasses.field(default_factory=lambda: _first_game())
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: The game's seed; ``None``: drawn from the system's random source and kept private.
    seed: int | None = None
    #: What bots draw their choices from; ``None``: the system's random source (a demo sets it).
    bot_salt: int | None = None
    players: list[PlayerConfig] = dataclasses.field(default_factory=list)
    backend: str = "sim"
    backend_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: Controller id of each piece (colour), in piece order.
    pieces: list[str] = dataclasses.field(default_factory=list)
    #: A backend per controller id when they are mixed (``{"red": "phone", "blue": "serial"}``);
    #: controllers not listed use ``backend``.
    backends: dict[str, str] = dataclasses.field(default_factory=dict)
    host: str = "127.0.0.1"
    port: int = 8080
    web: bool = True
    db: Path | None = None
    #: Seconds a bot waits before each wheel turn and press (0 = as fast as possible).
    bot_delay: float = 0.6
    #: Seconds the dashboard is given to show a resolved turn before the next phase's bots act.
    turn_pause: float = 2.0
    #: The table camera: its source (see ``controller.vision.sources``), the mat, and the frame rate
    #: of a recording (a video file or a folder of images).
    table_source: str | None = None
    table_layout: str | None = None
    table_fps: float | None = None
    #: The table referee's settings (``controller.referee.common.RefereeConfig``).
    referee: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: The language the commands and the terminal speak (``None``: ``BITBOX_LANG`` or the system's).
    lang: str | None = None
    #: The table's voice (``controller.voice.settings``): the ``[voice]`` table; empty: no voice.
    voice: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: The tournament this table plays in (``controller.tournament.settings``): the ``[tournament]``
    #: table; empty: none.
    tournament: dict[str, Any] = dataclasses.field(default_factory=dict)

    def db_path(self) -> Path:
        return self.db if self.db is not None else state_dir() / "bitbox.db"

    def setup_dict(self) -> dict[str, Any]:
        """The table's set-up as stored with a game (so a resume knows who sat where)."""
        return {
            "players": [dataclasses.asdict(p) for p in self.players],
            "backend": self.backend,
            "pieces": list(self.pieces),
        }


#: What a configuration may be: a real one is a few kilobytes and a few levels deep; beyond these it
#: is a mistake or a hostile file, refused before it can exhaust memory or Python's recursion limit.
MAX_CONFIG_BYTES = 1024 * 1024
MAX_CONFIG_DEPTH = 16
#: The seeds the event log can store (SQLite's integers are signed 64-bit).
SEEDS = range(-(2**63), 2**63)

#: Known keys per table, for clear "unknown key" errors.
_KNOWN = {
    "": {"lang", "game", "controllers", "players", "web", "store", "bots", "table", "referee", "voice",
         "tournament"},
    "game": {"name", "seed", "options"},
    "controllers": {"backend", "pieces", "options"},
    "players": {"name", "bot"},
    "web": {"enabled", "host", "port"},
    "store": {"db"},
    "bots": {"delay", "turn_pause"},
    "table": {"source", "layout", "fps"},
}


def load_config(path: str | Path, base: ServiceConfig | None = None) -> ServiceConfig:
    """Read a TOML configuration file on top of ``base`` (defaults if omitted)."""
    path = Path(path)
    where = path.name
    try:
        text = _read_bounded(path)
    except FileNotFoundError:
        raise ConfigError(_("the configuration file {path} does not exist: check the name given to --config "
                            "(docs/service.md has an example file)").format(path=path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(_("cannot read the configuration file {path}: {reason}; check the name given to "
                            "--config").format(path=path, reason=exc)) from None
    return config_from_dict(parse_toml(text, where), where, base, path.parent)


def peek_language(path: Path) -> str | None:
    """The ``lang`` a configuration file names, read before anything else is said (its other keys are
    checked when the file is loaded); ``None`` when it names none."""
    data = parse_toml(_read_bounded(path), path.name)
    lang = data.get("lang")
    return lang if isinstance(lang, str) else None


def _read_bounded(path: Path) -> str:
    """The file's text, refused before reading if it is larger than any configuration."""
    size = path.stat().st_size
    if size > MAX_CONFIG_BYTES:
        raise ConfigError(_("{name} is too large ({size} MiB); a configuration is at most {limit} MiB: check that "
                            "--config names the right file").format(name=path.name, size=f"{size / 2**20:.1f}",
                                                                     limit=MAX_CONFIG_BYTES // 2**20))
    return path.read_text(encoding="utf-8")


def _too_deep(where: str, label: str | None = None) -> ConfigError:
    place = f"{where}: {label}" if label else where
    return ConfigError(_("{place}: nested too deeply (arrays or tables within each other more than {depth} "
                         "levels); a configuration is a few flat tables, as in docs/service.md").format(
        place=place, depth=MAX_CONFIG_DEPTH))


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML text parsed, every failure (a syntax error, nesting deeper than Python's recursion
    limit, a number of thousands of digits) a :class:`ConfigError` naming ``where``."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise _too_deep(where) from None
    except ValueError as exc:  # TOMLDecodeError is a ValueError; so is int() of 5,000 digits
        raise ConfigError(_("{where}: not valid TOML: {reason}; fix that line (docs/service.md has an example "
                            "file)").format(where=where, reason=str(exc)[:200])) from None


def config_from_dict(
    data: dict[str, Any], where: str = "configuration", base: ServiceConfig | None = None, folder: Path | None = None
) -> ServiceConfig:
    """Build a :class:`ServiceConfig` from parsed TOML data; errors name ``where`` and the key."""
    config = dataclasses.replace(base) if base is not None else ServiceConfig()
    _check_depth(data, where)
    _unknown(data, "", where)

    if "lang" in data:
        lang = _typed(data["lang"], str, where, "lang", _("a language: {choices}").format(
            choices=", ".join(f'"{code}"' for code in i18n.LANGUAGES)))
        try:
            config.lang = i18n.check_language(lang)
        except i18n.LanguageError:
            raise ConfigError(_("{where}: lang: there is no catalogue for {lang!r}; write one of {choices}").format(
                where=where, lang=lang, choices=", ".join(f'lang = "{code}"' for code in i18n.LANGUAGES))) from None

    game = _table(data, "game", where)
    _unknown(game, "game", where)
    if "name" in game:
        from controller.games import game_names

        config.game = _typed(game["name"], str, where, "[game] name", _("a game name (text)"))
        if config.game not in game_names():
            raise ConfigError(_("{where}: [game] name: there is no game called {name!r}; write one of {games} "
                                "(`bitbox --help` lists them)").format(where=where, name=config.game,
                                                                      games=", ".join(game_names())))
    if "seed" in game:
        config.seed = _typed(game["seed"], int, where, "[game] seed", _("a whole number"))
        if config.seed not in SEEDS:
            raise ConfigError(_("{where}: [game] seed: {seed} cannot be a seed: give a whole number that fits in 64 "
                                "bits ({low} to {high})").format(where=where, seed=config.seed, low=SEEDS.start,
                                                                 high=SEEDS.stop - 1))
    if "options" in game:
        config.options = dict(_typed(game["options"], dict, where, "[game] options", _("a table of game options")))

    controllers = _table(data, "controllers", where)
    _unknown(controllers, "controllers", where)
    if "backend" in controllers:
        config.backend = _typed(controllers["backend"], str, where, "[controllers] backend",
                                '"phone", "keyboard", "sim", "gpio" ' + _("or") + ' "serial"')
    if "options" in controllers:
        config.backend_options = dict(
            _typed(controllers["options"], dict, where, "[controllers] options", _("a table of backend options"))
        )
    if "pieces" in controllers:
        pieces = _typed(controllers["pieces"], list, where, "[controllers] pieces", _("a list of controller ids"))
        for index, item in enumerate(pieces):
            _typed(item, str, where, f"[controllers] pieces[{index}]", _("a controller id (text)"))
        if len(set(pieces)) != len(pieces):
            raise ConfigError(_("{where}: [controllers] pieces: a controller is listed twice: {pieces}; list each "
                                "controller once, in colour order").format(where=where, pieces=pieces))
        config.pieces = list(pieces)

    if "players" in data:
        players = _typed(data["players"], list, where, "[[players]]", _("an array of tables ([[players]])"))
        config.players = []
        for index, item in enumerate(players):
            key = f"[[players]] #{index + 1}"
            item = _typed(item, dict, where, key, _("a table with name and bot"))
            _unknown(item, "players", where, key)
            default_name = _("Player {number}").format(number=index + 1)
            name = _typed(item.get("name", default_name), str, where, f"{key} name", _("text"))
            bot = _typed(item.get("bot", False), bool, where, f"{key} bot", _("true or false"))
            config.players.append(PlayerConfig(name, bot))

    web = _table(data, "web", where)
    _unknown(web, "web", where)
    if "enabled" in web:
        config.web = _typed(web["enabled"], bool, where, "[web] enabled", _("true or false"))
    if "host" in web:
        config.host = _typed(web["host"], str, where, "[web] host", _("an address such as 127.0.0.1"))
    if "port" in web:
        port = _typed(web["port"], int, where, "[web] port", _("a port number"))
        if not 0 <= port <= 65535:
            raise ConfigError(_("{where}: [web] port: {port} is not a port number; write one from 0 to 65535, such "
                                "as port = 8080").format(where=where, port=port))
        config.port = port

    store = _table(data, "store", where)
    _unknown(store, "store", where)
    if "db" in store:
        db = Path(_typed(store["db"], str, where, "[store] db", _("a file path")))
        config.db = db if db.is_absolute() or folder is None else folder / db

    bots = _table(data, "bots", where)
    _unknown(bots, "bots", where)
    if "delay" in bots:
        config.bot_delay = _finite(bots["delay"], where, "[bots] delay", _("seconds"))
    if "turn_pause" in bots:
        config.turn_pause = _finite(bots["turn_pause"], where, "[bots] turn_pause", _("seconds"))

    table = _table(data, "table", where)
    _unknown(table, "table", where)
    if "source" in table:
        source = table["source"]
        if isinstance(source, int) and not isinstance(source, bool):
            source = str(source)
        config.table_source = _typed(source, str, where, "[table] source",
                                     _('"picamera2", a device number, a video file or a folder of images'))
    if "layout" in table:
        config.table_layout = _typed(table["layout"], str, where, "[table] layout",
                                     _("a mat's name (a file of hardware/mats/) or a .toml file"))
    if "fps" in table:
        fps = _finite(table["fps"], where, "[table] fps", _("frames per second"))
        if fps <= 0:
            raise ConfigError(_("{where}: [table] fps: must be more than 0, got {fps}; write for example fps = 15")
                              .format(where=where, fps=f"{fps:g}"))
        config.table_fps = fps
    referee = _table(data, "referee", where)
    if referee:
        from controller.referee.common import RefereeConfig, RefereeError

        try:
            RefereeConfig.from_mapping(referee, source=f"{where}: [referee]")
        except RefereeError as exc:
            raise ConfigError(str(exc)) from None
        config.referee = dict(referee)
    voice = _table(data, "voice", where)
    if voice:
        from controller.voice.settings import VoiceSettings, VoiceSettingsError

        try:
            VoiceSettings.from_mapping(voice, where=f"{where}: [voice]")
        except VoiceSettingsError as exc:
            raise ConfigError(str(exc)) from None
        config.voice = dict(voice)
    tournament = _table(data, "tournament", where)
    if tournament:
        from controller.tournament.settings import SettingsError, TableSettings

        try:
            TableSettings.from_mapping(tournament, where=f"{where}: [tournament]")
        except SettingsError as exc:
            raise ConfigError(str(exc)) from None
        config.tournament = dict(tournament)
    _check_finite(data, where)
    return config


def _label(path: tuple[Any, ...]) -> str:
    """A key's place as the errors write it: ``[game] options speed``, ``[[players]] #2 name``."""
    if not path:
        return _("top level")
    first, rest = path[0], path[1:]
    if first == "players" and rest and isinstance(rest[0], int):
        head, rest = f"[[players]] #{rest[0] + 1}", rest[1:]
    else:
        head = f"[{first}]"
    return " ".join([head, *(f"[{k}]" if isinstance(k, int) else str(k) for k in rest)]).replace(" [", "[")


def _walk(data: Any) -> list[tuple[tuple[Any, ...], Any]]:
    """Every value of parsed TOML with its key path, without recursion (the depth is not known yet)."""
    found, stack = [], [((), data)]
    while stack:
        path, value = stack.pop()
        found.append((path, value))
        if isinstance(value, dict):
            stack.extend(((*path, key), child) for key, child in value.items())
        elif isinstance(value, list):
            stack.extend(((*path, index), child) for index, child in enumerate(value))
    return found


def _check_depth(data: dict[str, Any], where: str) -> None:
    """Refuse arrays and tables nested deeper than any configuration needs (the values go on to
    code that walks them recursively: JSON encoding, the event log)."""
    for path, _value in _walk(data):
        if len(path) > MAX_CONFIG_DEPTH:
            raise _too_deep(where, _label(path[:2]))


def _check_finite(data: dict[str, Any], where: str) -> None:
    """Refuse ``nan`` and ``inf`` anywhere (TOML allows them; no setting means either: a NaN delay
    never elapses, an infinite threshold never triggers)."""
    for path, value in _walk(data):
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(_("{where}: {key}: expected a finite number, got {value}; write a number such as 0.5")
                              .format(where=where, key=_label(path), value=value))


def _finite(value: Any, where: str, key: str, expected: str) -> float:
    """A number of the file that must be finite (seconds, frames per second)."""
    number = float(_typed(value, (int, float), where, key, expected))
    if not math.isfinite(number):
        raise ConfigError(_("{where}: {key}: expected {expected} (a finite number), got {value}; write a number "
                            "such as 0.5").format(where=where, key=key, expected=expected, value=number))
    return number


def _table(data: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(_("{where}: [{key}] must be a table, not {kind}; write it as a [{key}] section").format(
            where=where, key=key, kind=type(value).__name__))
    return value


def _unknown(table: dict[str, Any], name: str, where: str, label: str | None = None) -> None:
    extra = sorted(set(table) - _KNOWN[name])
    if extra:
        label = label or (f"[{name}]" if name else _("top level"))
        raise ConfigError(_("{where}: {key}: unknown key(s) {keys}; the known keys are {known} (docs/service.md "
                            "explains each)").format(where=where, key=label, keys=", ".join(extra),
                                                     known=", ".join(sorted(_KNOWN[name]))))


def _typed(value: Any, kind: type | tuple[type, ...], where: str, key: str, expected: str) -> Any:
    ok = isinstance(value, kind) and not (isinstance(value, bool) and kind in (int, (int, float)))
    if not ok:
        raise ConfigError(_("{where}: {key}: expected {expected}, got {value!r}; fix it in the file").format(
            where=where, key=key, expected=expected, value=value))
    return value
