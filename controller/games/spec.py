"""What a game declares about itself, once, for every tool that runs it.

A :class:`GameSpec` says everything the service, the command line, the dashboard, the docs and the
conformance suite need without reading the rules (as OpenSpiel's ``GameType`` or a boardgame.io
game object does): the engine, how players give their moves (wheels, the table camera), the bots,
the demo, the mat, the dashboard view, the command-line options and the docs page.

Parts that pull in heavy libraries (the camera's referee, a demo that renders frames) are named as
``"module:attribute"`` text and imported only when a command needs them, so ``bitbox --help`` and
a wheels-only game never import OpenCV.

    >>> from controller.games import game
    >>> spec = game("pixoid")
    >>> spec.players, spec.plays_on("wheels")
    ((3, 4), True)
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from controller.engines import Bot, Game
from controller.i18n import N_, _

#: How players can give their moves. ``wheels``: the console's controllers (GPIO, USB serial,
#: simulated), one per piece; ``camera``: the table camera watches dice on a printed mat;
#: ``phones``: each player chooses on a phone from the actions the rules allow, the program rolls.
PLAY_MODES = ("wheels", "camera", "phones")
#: How ``--help`` says each way of playing.
PLAY_MODE_WORDS = {"wheels": N_("wheels"), "camera": N_("camera"), "phones": N_("phones")}


class SpecError(ValueError):
    """A game declaration that is incomplete or inconsistent; the message names the game and the field."""


def load_attr(path: str) -> Any:
    """The object a ``"package.module:attribute"`` text names, imported now."""
    module, sep, attr = path.partition(":")
    if not sep or not module or not attr:
        raise SpecError(f"{path!r} must name an object as 'package.module:attribute'")
    value: Any = importlib.import_module(module)
    for part in attr.split("."):
        value = getattr(value, part)
    return value


@dataclasses.dataclass(frozen=True)
class CliOption:
    """A game option offered on the command line of ``bitbox play GAME`` and ``bitbox demo GAME``.

    ``flag`` is the command-line spelling (``--short``), ``key`` the engine option it sets
    (``short_game``). ``kind`` is ``bool`` for a switch, else the type its value is read as;
    ``choices`` limits the values. ``demo`` says whether ``bitbox demo`` offers it too.
    """

    flag: str
    key: str
    help: str
    kind: type = bool
    choices: tuple[Any, ...] | None = None
    demo: bool = True
    metavar: str | None = None

    @property
    def dest(self) -> str:
        """The attribute the parsed value lands in (``--short`` -> ``opt_short_game``)."""
        return f"opt_{self.key}"

    def add_to(self, parser: Any) -> None:
        """Add this option to an ``argparse`` parser."""
        if self.kind is bool:
            parser.add_argument(self.flag, dest=self.dest, action="store_true", default=None, help=self.help)
        else:
            parser.add_argument(self.flag, dest=self.dest, type=self.kind, choices=self.choices, default=None,
                                metavar=self.metavar, help=self.help)


@dataclasses.dataclass(frozen=True)
class VoiceCall:
    """A call the table's voice speaks aloud (see :mod:`controller.voice`) when an event of its kind
    is published: the event's sentence, in the table's language, with the players' names.

    ``words`` (marked with ``N_``) is a shorter spoken form instead, filled with the event message's
    arguments (``{said}`` is the whole sentence). ``priority`` says what gives way when calls pile
    up: :attr:`CHATTER` goes first, :attr:`URGENT` cuts whatever is being said. ``max_age`` is how
    many seconds a call may wait before it is dropped rather than said late (default: by priority).
    ``once``: one call of the kind per moment (the engine and the service telling the same news);
    ``replaces``: a newer call of the kind replaces one still waiting (a countdown's seconds).
    """

    CHATTER: ClassVar[int] = 0
    CALL: ClassVar[int] = 1
    IMPORTANT: ClassVar[int] = 2
    URGENT: ClassVar[int] = 3

    priority: int = 1
    words: str | None = None
    max_age: float | None = None
    once: bool = False
    replaces: bool = False

    def __post_init__(self) -> None:
        if self.priority not in range(self.CHATTER, self.URGENT + 1):
            raise SpecError(f"a voice call's priority is {self.CHATTER} to {self.URGENT}, not {self.priority!r}")
        if self.max_age is not None and not self.max_age > 0:
            raise SpecError(f"a voice call's max_age is a number of seconds above 0, not {self.max_age!r}")


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """One game, declared once; see the module's docstring.

    Fields naming code as text (``"module:attribute"``) are loaded on first use by the matching
    ``load_*`` method. Every field but the first five has a default, so a game declares only what
    it has: a wheels game has no referee, a camera game no wheel rules.
    """

    #: The registry name, used on the command line and in save files (the engine's ``NAME``).
    name: str
    #: The game's printed name.
    title: str
    #: One line for ``bitbox --help``, the dashboard's menu and the docs list.
    summary: str
    #: The engine class: a :class:`~controller.engines.Game` subclass, or ``"module:Class"``.
    engine: type[Game[Any]] | str
    #: The fewest and the most seats.
    players: tuple[int, int]
    #: How players give their moves, in order of preference (see :data:`PLAY_MODES`).
    play: tuple[str, ...] = ("wheels",)
    #: The seat count a demo and a game without ``--players`` use (default: the most seats).
    default_players: int | None = None
    #: A seat-filling bot: a :class:`~controller.engines.Bot` subclass built as ``Bot(seed)``.
    bot: type[Bot] | str | None = None
    #: How the game is played on wheels: a :class:`~controller.games.wheels.WheelPlay` subclass.
    wheels: str | None = None
    #: How the table camera's game is refereed: a :class:`~controller.games.table.TablePlay` subclass.
    table: str | None = None
    #: How the game is played by choosing on phones: a :class:`~controller.games.choices.ChoicePlay`
    #: subclass (default: the base, which suits any engine).
    choices: str | None = None
    #: The table camera's reader for this game: ``"module:function"``, ``function(layout_name)`` returning
    #: ``(layout, watcher)`` (default: the dice reader every DiXe game uses).
    camera: str | None = None
    #: Options a way of playing implies unless they are given: ``{"camera": {"mode": "theatre"}}``.
    mode_options: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    #: The printed mat's layout name (``hardware/mats/NAME.toml``) for camera games.
    mat: str | None = None
    #: What ``bitbox mat`` prints besides the mat (pieces to cut out): ``"module:function"``,
    #: ``function(out_dir: Path, dpi: float) -> tuple[Path, int]`` (the file written, its pages).
    mat_sheets: str | None = None
    #: ``bitbox demo GAME``: a function ``demo(request: DemoRequest) -> int`` (an exit code).
    demo: str | None = None
    #: The folder holding the dashboard's view of the game (``view.js``, optional ``view.css``).
    view_dir: Path | None = None
    #: Game options offered on the command line.
    options: tuple[CliOption, ...] = ()
    #: The page of the docs that teaches the game, relative to the project's top folder.
    docs: str | None = None
    #: What each player keeps secret until its reveal, in players' words (the service's views and the
    #: noninterference tests hold it to that: the engine's ``view(seat)`` hides it from everyone else).
    secrets: tuple[str, ...] = ()
    #: The game drawn in colour for a terminal: a function ``ansi(game) -> str`` (default: ``game.render()``).
    ansi: str | None = None
    #: The options mapping key holding the seat count, when the engine takes it as an option.
    players_option: str | None = "players"
    #: Options a seat count implies unless they are given (MémoDiXe for 7 or 8 is « Oni contre tous »).
    seat_defaults: Mapping[int, Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    #: What the table's voice announces: event kind -> :class:`VoiceCall` (a table referee's call
    #: is looked up by its events' kinds, then by its decision; ``"countdown"``: the last seconds).
    voice: Mapping[str, VoiceCall] = dataclasses.field(default_factory=dict)
    #: How a finished game is read for a tournament: a function ``result(game) -> GameResult`` as
    #: ``"module:function"`` (default: the engine's ``scores()`` and ``winners()``, see
    #: :func:`controller.tournament.results.read_result`).
    result: str | None = None
    #: The tie-breaks a tournament's standings use after the points, in order (the names of
    #: :data:`controller.tournament.standings.TIEBREAKS`).
    tiebreaks: tuple[str, ...] = ("buchholz", "sonneborn_berger", "score")

    def __post_init__(self) -> None:
        where = f"game {self.name!r}"
        if not self.name or not self.name.replace("-", "").replace("_", "").isalnum() or self.name != self.name.lower():
            raise SpecError(f"{where}: the name must be lower-case letters, digits, '-' or '_'")
        low, high = self.players
        if not 1 <= low <= high:
            raise SpecError(f"{where}: players must be (fewest, most) with 1 <= fewest <= most, not {self.players}")
        if self.default_players is not None and not low <= self.default_players <= high:
            raise SpecError(f"{where}: default_players {self.default_players} is outside {low} to {high}")
        unknown = [mode for mode in self.play if mode not in PLAY_MODES]
        if not self.play or unknown:
            raise SpecError(f"{where}: play must list one or more of {', '.join(PLAY_MODES)}, not {self.play}")
        if "wheels" in self.play and not self.wheels:
            raise SpecError(f"{where}: a game played on wheels declares its wheel rules (wheels=...)")
        if "camera" in self.play and not (self.table and self.mat):
            raise SpecError(f"{where}: a game played with the camera declares its table referee and its mat")
        if "phones" in self.play and not self.bot:
            raise SpecError(f"{where}: a game played on phones declares a bot (bot=...) to fill empty seats")
        flags = [o.flag for o in self.options]
        if len(set(flags)) != len(flags):
            raise SpecError(f"{where}: an option flag is declared twice: {flags}")

    # ---- loading what the declaration names ---------------------------------------------------

    def load_engine(self) -> type[Game[Any]]:
        """The engine class (importing it registers it with :mod:`controller.engines`)."""
        engine = load_attr(self.engine) if isinstance(self.engine, str) else self.engine
        if getattr(engine, "NAME", None) != self.name:
            raise SpecError(f"game {self.name!r}: its engine {engine.__name__} is registered as "
                            f"{getattr(engine, 'NAME', None)!r}")
        return engine

    def load_bot(self) -> type[Bot] | None:
        return load_attr(self.bot) if isinstance(self.bot, str) else self.bot

    def load_wheels(self) -> Any:
        return load_attr(self.wheels) if self.wheels else None

    def load_table(self) -> Any:
        return load_attr(self.table) if self.table else None

    def load_mat_sheets(self) -> Callable[..., tuple[Path, int]] | None:
        """The function printing the pieces cut out beside the mat (``None``: the mat is all)."""
        return load_attr(self.mat_sheets) if self.mat_sheets else None

    def load_camera(self) -> Callable[[str], Any] | None:
        """The game's own camera reader (``None``: the dice reader)."""
        return load_attr(self.camera) if self.camera else None

    def load_choices(self) -> Any:
        """The game's :class:`~controller.games.choices.ChoicePlay` (the base when it words nothing itself)."""
        if self.choices:
            return load_attr(self.choices)
        from controller.games.choices import ChoicePlay

        return ChoicePlay

    def render_ansi(self, game: Game[Any]) -> str:
        """``game`` drawn for a colour terminal (plain :meth:`Game.render` for a game without colours)."""
        return load_attr(self.ansi)(game) if self.ansi else game.render()

    def load_demo(self) -> Callable[..., int] | None:
        return load_attr(self.demo) if self.demo else None

    def load_result(self) -> Callable[[Game[Any]], Any]:
        """How a finished game's result, ranking and score are read (see :attr:`result`)."""
        return load_attr(self.result or "controller.tournament.results:read_result")

    # ---- questions tools ask --------------------------------------------------------------------

    def plays_on(self, mode: str) -> bool:
        """Whether players can give their moves this way (``"wheels"``, ``"camera"``, ``"phones"``)."""
        return mode in self.play

    @property
    def seats_default(self) -> int:
        return self.default_players if self.default_players is not None else self.players[1]

    def seat_counts(self) -> tuple[int, ...]:
        low, high = self.players
        return tuple(range(low, high + 1))

    def options_from(self, base: Mapping[str, Any], players: int | None, values: Mapping[str, Any]) -> dict[str, Any]:
        """Engine options: ``base`` (a config file's), then the seat count, then command-line values
        keyed by :attr:`CliOption.key` (``None`` means not given)."""
        options = dict(base)
        if players is None and self.players_option is not None and self.players_option not in options:
            players = self.seats_default  # the engine's own default may differ from the registry's
        if players is not None:
            if self.players_option is None:
                if players != self.seats_default:
                    raise SpecError(f"{self.title} is played by {self.seats_default} players, not {players}")
            else:
                options[self.players_option] = players
        for key, value in values.items():
            if value is not None:
                options[key] = value
        count = options.get(self.players_option) if self.players_option is not None else None
        for key, value in self.seat_defaults.get(count, {}).items() if isinstance(count, int) else ():
            options.setdefault(key, value)
        return options

    def seat_count(self, options: Mapping[str, Any]) -> int:
        """How many seats a game with ``options`` has, without building it."""
        if self.players_option is not None and self.players_option in options:
            return int(options[self.players_option])
        return self.seats_default

    def ui(self, mode: str) -> dict[str, Any]:
        """What the dashboard needs to draw this game, sent in every published state as ``ui``:
        the game's name and title, the address of its view's script and how it is being played."""
        return {"game": self.name, "title": self.title, "mode": mode,
                "script": f"/games/{self.name}/view.js" if self.view_dir is not None else None,
                "style": f"/games/{self.name}/view.css"
                if self.view_dir is not None and (self.view_dir / "view.css").is_file() else None}

    def help_line(self) -> str:
        """``pixoid   3-4 players, wheels: the summary``, as ``--help`` lists games."""
        low, high = self.players
        count = f"{low}" if low == high else f"{low}-{high}"
        modes = _(" or ").join(_(PLAY_MODE_WORDS[mode]) for mode in self.play)
        return f"{self.name:<10} " + _("{count} players, {modes}: {summary}").format(
            count=count, modes=modes, summary=_(self.summary))


@dataclasses.dataclass
class DemoRequest:
    """What ``bitbox demo GAME`` asks of a game's demo (see :attr:`GameSpec.demo`)."""

    spec: GameSpec
    seed: int = 1
    players: int | None = None
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: Seconds multiplier for pauses: 1 is table pace, 0 no pauses at all.
    pace: float = 1.0
    max_turns: int | None = None
    keep_serving: bool = False
    new: bool = False
    names: Sequence[str] = ()
    #: The service's configuration (event log, dashboard address) as the command line set it.
    config: Any = None
    token: str | None = None
    port_fallback: bool = True
