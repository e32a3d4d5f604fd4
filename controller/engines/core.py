"""The shape every game engine shares.

A game is created from its options and a seed. Players act through a checked :meth:`Game.apply`
(for everything that comes from people and sensors), the unchecked :meth:`Game.apply_unchecked`
(bots, when the events are wanted), or the fast path :meth:`Game.apply_fast` (unchecked and making
no events: playouts and search; games also give a cheap :meth:`Game.clone`). Simultaneous secret
moves, like a Pixoid programming phase, are applied one player at a time and resolved together
when the last one is in; until then :meth:`Game.view` hides them from everyone else. Randomness
comes from the game's seeded generator, or is recorded as an action of the :data:`CHANCE` player
(a roll read by the camera), so options + seed + action list replay a game exactly. That one
format is the save file, the crash-recovery log and the golden test file.

Engines never print and import no I/O or hardware: they return :class:`Event` objects that the
referee and the service announce.

Example::

    >>> from controller.engines import new_game
    >>> game = new_game("pixoid", seed=7)
    >>> player = game.current_players()[0]
    >>> events = game.apply(player, game.legal_actions(player)[0])
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from controller import i18n

#: A seat at the table, numbered from 0.
Player = int

#: The table itself: outcomes that no player chooses (a die roll read by the camera, where a
#: flicked die came to rest). Recorded as actions so that a game replays exactly.
CHANCE: Player = -1

#: The save file's format name and version; :func:`Game.load` refuses anything else.
SAVE_FORMAT = "bitbox-game"
SAVE_VERSION = 1


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class EngineError(ValueError):
    """Base of every error an engine raises. A ``ValueError``, so callers may catch that."""


class RuleError(EngineError):
    """An action broke a rule of the game.

    ``rule`` names the rule (a short slug a test or a ruling can cite), ``state`` quotes the
    position the action was tried in, so a log line or a bug report is enough to reproduce it.
    """

    def __init__(self, rule: str, message: str, state: str = "", *, words: Mapping[str, Any] | None = None) -> None:
        self.rule = rule
        self.reason = message
        self.state = state
        #: The reason as a message (:func:`controller.i18n.message`), to say it in a player's language.
        self.words = words
        text = f"{message} (rule: {rule})"
        if state:
            text += f"\n{state}"
        super().__init__(text)


    @classmethod
    def said(cls, rule: str, msgid: str, state: str = "", **args: Any) -> RuleError:
        """The error whose reason is ``msgid`` filled with ``args``, kept to be said in any language."""
        words = i18n.message(msgid, **args)
        return cls(rule, i18n.said(words, i18n.SOURCE_LANGUAGE), state, words=words)

    def in_language(self, lang: str | None = None, names: Sequence[str] | None = None) -> str:
        """The reason, without the rule's slug or the state, in ``lang`` (players named by ``names``)."""
        return i18n.said(self.words, lang, names) if self.words is not None else self.reason


class IllegalActionError(RuleError):
    """The action is not one of the acting player's legal actions now."""


class NotYourTurnError(RuleError):
    """The player is not expected to act now."""


class GameOverError(RuleError):
    """The game has ended; no action is accepted."""


class OptionsError(EngineError):
    """Game options that are unknown, of the wrong type or out of range."""


class SaveFileError(EngineError):
    """A save file that is damaged, truncated, of another game or of another format."""


# --------------------------------------------------------------------------------------------
# Events and options
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Event:
    """Something the engine decided that people should be told.

    ``kind`` is a short slug (``"moved"``, ``"captured"``, ``"asleep"``), ``text`` a sentence
    ready to show or speak, ``data`` the JSON-friendly details a dashboard draws from.
    """

    kind: str
    text: str
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: The sentence as a message (:func:`controller.i18n.message`): ``text`` is its English.
    message: Mapping[str, Any] | None = None

    @classmethod
    def said(cls, kind: str, msgid: str, data: Mapping[str, Any] | None = None, **args: Any) -> Event:
        """The event whose sentence is ``msgid`` (marked with ``N_``) filled with ``args``."""
        message = i18n.message(msgid, **args)
        return cls(kind, i18n.said(message, i18n.SOURCE_LANGUAGE), dict(data or {}), message)

    def in_language(self, lang: str | None = None, names: Sequence[str] | None = None) -> str:
        """The sentence in ``lang``, players named by ``names`` (an event made without a message has
        only its English)."""
        return i18n.said(self.message, lang, names) if self.message is not None else self.text

    def to_json(self) -> dict[str, Any]:
        out = {"kind": self.kind, "text": self.text, "data": jsonable(self.data)}
        if self.message is not None:
            out["message"] = jsonable(self.message)
        return out


@dataclasses.dataclass(frozen=True)
class GameOptions:
    """Base for a game's options: a frozen dataclass that round-trips through JSON.

    Subclasses add fields with defaults and override :meth:`validate` to range-check them.
    """

    def validate(self) -> None:
        """Raise :class:`OptionsError` when a value is out of range."""

    def to_dict(self) -> dict[str, Any]:
        return jsonable(dataclasses.asdict(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> GameOptions:
        """Options from a JSON mapping; unknown keys and wrong types are refused by name."""
        if data is not None and not isinstance(data, Mapping):
            raise OptionsError(f"options for {cls.__qualname__} must be a mapping of option names to values, "
                               f"not {data!r}")
        data = dict(data or {})
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise OptionsError(
                f"unknown option(s) {', '.join(unknown)} for {cls.__qualname__}; "
                f"known options: {', '.join(sorted(fields)) or 'none'}"
            )
        for name, value in list(data.items()):
            default = getattr(cls, name, dataclasses.MISSING)
            if isinstance(value, list):
                data[name] = tuplify(value)
            elif isinstance(default, bool) and not isinstance(value, bool):
                raise OptionsError(f"option {name} must be true or false, not {value!r}")
            elif isinstance(default, int) and not isinstance(default, bool) and (
                not isinstance(value, int) or isinstance(value, bool)
            ):
                raise OptionsError(f"option {name} must be a whole number, not {value!r}")
        try:
            options = cls(**data)
        except TypeError as exc:
            raise OptionsError(f"bad options for {cls.__qualname__}: {exc}") from None
        options.validate()
        return options


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------

OptionsT = TypeVar("OptionsT", bound=GameOptions)


class Game(ABC, Generic[OptionsT]):
    """One game in progress. Subclasses implement the abstract methods; the rest is shared.

    Class attributes every game sets:
        NAME      the registry name (``"pixoid"``), used on the command line and in save files
        TITLE     the game's printed name
        OPTIONS   its :class:`GameOptions` subclass
    """

    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    OPTIONS: ClassVar[type[GameOptions]]

    #: The word texts put before the number of a seat that has no display name ("seat 2").
    SEAT_WORD: ClassVar[str] = "seat"

    #: Display names of the seats, in seat order (see :meth:`name_seats`); empty by default.
    seat_names: tuple[str, ...] = ()

    def __init__(self, options: OptionsT | Mapping[str, Any] | None = None, seed: int = 0) -> None:
        if options is None or isinstance(options, Mapping):
            options = self.OPTIONS.from_dict(options)  # type: ignore[assignment]
        elif isinstance(options, self.OPTIONS):
            options.validate()
        else:
            raise OptionsError(f"{self.NAME} takes {self.OPTIONS.__qualname__}, not {type(options).__name__}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise OptionsError(f"the seed must be a whole number, not {seed!r}")
        self.options: OptionsT = options  # type: ignore[assignment]
        self.seed = seed
        self.rng = random.Random(seed)
        self.history: list[tuple[Player, Any]] = []
        self._setup()

    # ---- what each game implements ---------------------------------------------------------

    @abstractmethod
    def _setup(self) -> None:
        """Build the starting state from ``self.options`` and ``self.rng``."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats the game has (not counting :data:`CHANCE`)."""

    @abstractmethod
    def current_players(self) -> tuple[Player, ...]:
        """Who must act now: one player, several during a simultaneous phase (those still to
        submit), ``(CHANCE,)`` when the table must report an outcome, ``()`` once the game is over."""

    @abstractmethod
    def legal_actions(self, player: Player) -> list[Any]:
        """The actions ``player`` may take now, in a deterministic order; empty if none."""

    @abstractmethod
    def _apply(self, player: Player, action: Any) -> list[Event]:
        """Carry out an action known to be legal; return what happened."""

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def scores(self) -> tuple[float, ...]:
        """Each player's score so far (final once the game is over)."""

    @abstractmethod
    def state_dict(self) -> dict[str, Any]:
        """The whole state as JSON-friendly data, secrets included (for saves, tests, goldens)."""

    @abstractmethod
    def view(self, player: Player | None) -> dict[str, Any]:
        """What ``player`` may see, as JSON-friendly data; ``None`` is a spectator."""

    @abstractmethod
    def render(self) -> str:
        """The state as deterministic plain text (a board drawn in characters)."""

    @classmethod
    @abstractmethod
    def encode_action(cls, action: Any) -> Any:
        """An action as JSON-friendly data."""

    @classmethod
    @abstractmethod
    def decode_action(cls, data: Any) -> Any:
        """The action back from :meth:`encode_action`'s data; raise ``ValueError`` if malformed."""

    # ---- optional hooks --------------------------------------------------------------------

    def explain_illegal(self, player: Player, action: Any) -> RuleError:
        """The error for an action that is not legal; games override it to name the exact rule."""
        return IllegalActionError(
            "legal-action",
            f"{self.describe_action(action)} is not a legal action for player {player} now",
            self.render(),
        )

    def describe_action(self, action: Any) -> str:
        """A short human description of an action."""
        return repr(action)

    def secret_pending(self, player: Player) -> bool:
        """Whether ``player`` has submitted a secret action that is not revealed yet."""
        return False

    def winners(self) -> tuple[Player, ...]:
        """The players sharing the win once the game is over (the best score by default)."""
        if not self.is_over():
            return ()
        scores = self.scores()
        best = max(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if the state is inconsistent (used by the conformance suite)."""

    # ---- the shared entry points -----------------------------------------------------------

    def check(self, player: Player, action: Any) -> None:
        """Raise a :class:`RuleError` if ``player`` may not take ``action`` now."""
        if self.is_over():
            raise GameOverError.said("game-over", i18n.N_("the game is over; no more actions are accepted"),
                                     self.render())
        if player not in self.current_players():
            waiting = i18n.listing(self.seat_label(p) for p in self.current_players())
            raise NotYourTurnError.said("turn-order", i18n.N_("{player} is not expected to act now (waiting for: "
                                                              "{waiting})"),
                                        self.render(), player=self.seat_label(player), waiting=waiting)
        if action not in self.legal_actions(player):
            raise self.explain_illegal(player, action)

    def apply(self, player: Player, action: Any) -> list[Event]:
        """Check, then carry out ``action`` for ``player``; return the events it caused.

        Raises a :class:`RuleError` (a ``ValueError``) naming the broken rule; the state is
        left exactly as it was.
        """
        self.check(player, action)
        return self.apply_unchecked(player, action)

    def apply_unchecked(self, player: Player, action: Any) -> list[Event]:
        """Carry out an action already known to be legal, without checking (bots, search)."""
        self.history.append((player, action))
        return self._apply(player, action)

    def apply_fast(self, player: Player, action: Any) -> None:
        """Carry out an action already known to be legal, building no events: the path of playouts
        and search. It reaches exactly the state :meth:`apply_unchecked` reaches (state, scores,
        history); only the events are not made. Games make it fast by overriding :meth:`_apply_fast`.
        """
        self.history.append((player, action))
        self._apply_fast(player, action)

    def _apply_fast(self, player: Player, action: Any) -> None:
        """Carry out a legal action without making its events; by default they are made and dropped."""
        self._apply(player, action)

    def clone(self) -> Game[OptionsT]:
        """An independent copy, random generator included (games override it with a cheaper copy
        of their mutable state)."""
        return copy.deepcopy(self)

    def _clone_base(self) -> Game[OptionsT]:
        """A shallow copy of this game with its own generator and history: what a game's
        :meth:`clone` starts from, then copying the rest of its mutable state (every other
        attribute is still shared with this game)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        if type(self.rng) is random.Random:
            rng = random.Random.__new__(random.Random)  # unseeded: Random() would read the OS's entropy
            rng.setstate(self.rng.getstate())
            twin.rng = rng
        else:
            twin.rng = copy.deepcopy(self.rng)
        twin.history = list(self.history)
        return twin

    # ---- naming the seats ------------------------------------------------------------------

    def name_seats(self, names: Sequence[str] | None) -> None:
        """Show ``names`` (in seat order) instead of "seat N" in event texts and the render.

        The names are presentation only: they are not options, do not touch the seed, are not
        saved and play no part in ``==``, so a save and its replay are the same whoever sat
        down. Fewer names than seats leaves the rest as "seat N", so does a blank name;
        ``None`` or ``()`` removes the names. A clone keeps them.
        """
        names = tuple(names or ())
        if len(names) > self.num_players:
            raise EngineError(
                f"{len(names)} seat names are given but {self.NAME} has {self.num_players} seats; "
                f"give at most {self.num_players}"
            )
        wrong = [n for n in names if not isinstance(n, str)]
        if wrong:
            raise EngineError(f"seat names must be text, not {wrong[0]!r}")
        self.seat_names = names

    def seat_label(self, seat: Player) -> str:
        """How texts name ``seat``: its display name when one is set, else :attr:`SEAT_WORD` and
        the number (``"seat N"`` unless the game words it otherwise)."""
        if 0 <= seat < len(self.seat_names) and self.seat_names[seat].strip():
            return self.seat_names[seat]
        return f"{self.SEAT_WORD} {seat}"

    def seat_ref(self, seat: Player) -> str:
        """A seat as an item of a list of seats: its display name, or its bare number when it has
        none (``waiting for: 0``, ``winners: [0, 2]``)."""
        label = self.seat_label(seat)
        return str(seat) if label == f"{self.SEAT_WORD} {seat}" else label

    def returns(self) -> tuple[float, ...]:
        """Alias of :meth:`scores`, in OpenSpiel's words."""
        return self.scores()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game) or other.NAME != self.NAME:
            return NotImplemented
        return self.state_dict() == other.state_dict() and self.history == other.history

    __hash__ = None  # type: ignore[assignment]

    # ---- saving and loading ----------------------------------------------------------------

    def save(self) -> dict[str, Any]:
        """Options + seed + action list: everything needed to replay this game exactly."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.NAME,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "actions": [[player, self.encode_action(action)] for player, action in self.history],
        }

    def dumps(self) -> str:
        """:meth:`save` as compact, deterministic JSON text."""
        return json.dumps(self.save(), sort_keys=True, separators=(",", ":"))

    #: What a save may hold: a long game is tens of kilobytes, a few levels deep, a few thousand
    #: actions; anything far beyond is damage or a hostile file, refused before it can exhaust
    #: memory or Python's recursion limit. A seed fits in 64 bits (what the event log stores).
    SAVE_MAX_BYTES: ClassVar[int] = 8 * 1024 * 1024
    SAVE_MAX_DEPTH: ClassVar[int] = 32
    SAVE_MAX_ACTIONS: ClassVar[int] = 100_000
    SAVE_SEEDS: ClassVar[range] = range(-(2**63), 2**63)

    @classmethod
    def load(cls, data: Mapping[str, Any] | str) -> Game[Any]:
        """Replay a save (a mapping or JSON text) through the checked path.

        Raises :class:`SaveFileError` saying what is wrong: not JSON, too large or nested too
        deeply, another format or game, missing fields, a seed that does not fit in 64 bits, or an
        action that the rules refuse (with its index and the reason).
        """
        if isinstance(data, (str, bytes)):
            data = cls._parse_save(data)
        if cls._save_depth(data) > cls.SAVE_MAX_DEPTH:
            raise SaveFileError(f"the save is nested too deeply (more than {cls.SAVE_MAX_DEPTH} levels); "
                                "it is damaged or not a bitbox save")
        if not isinstance(data, Mapping) or data.get("format") != SAVE_FORMAT:
            raise SaveFileError(f"this is not a bitbox game save (expected \"format\": \"{SAVE_FORMAT}\")")
        if data.get("version") != SAVE_VERSION:
            raise SaveFileError(
                f"save format version {data.get('version')!r} is not supported (this version reads {SAVE_VERSION})"
            )
        name = data.get("game")
        if cls is not Game and name != cls.NAME:
            raise SaveFileError(f"this save is of the game {name!r}, not {cls.NAME!r}")
        if cls is Game:
            from controller.engines import game_class

            try:
                target = game_class(str(name))
            except KeyError as exc:
                raise SaveFileError(str(exc.args[0])) from None
        else:
            target = cls
        missing = [key for key in ("options", "seed", "actions") if key not in data]
        if missing:
            raise SaveFileError(f"the save lacks {', '.join(missing)}; it may be truncated")
        if not isinstance(data["actions"], list):
            raise SaveFileError("the save's \"actions\" must be a list of [player, action] pairs")
        if len(data["actions"]) > cls.SAVE_MAX_ACTIONS:
            raise SaveFileError(f"the save holds {len(data['actions'])} actions, more than any game "
                                f"({cls.SAVE_MAX_ACTIONS}); it is damaged or not a bitbox save")
        seed = data["seed"]
        if isinstance(seed, int) and not isinstance(seed, bool) and seed not in cls.SAVE_SEEDS:
            raise SaveFileError(f"the save's seed ({str(seed)[:12]}..., {len(str(seed))} digits) cannot be a seed: "
                                "a seed is a whole number that fits in 64 bits")
        try:
            game = target(target.OPTIONS.from_dict(data["options"]), seed=seed)
        except EngineError as exc:
            raise SaveFileError(f"the save's options are refused: {exc}") from None
        game.replay(data["actions"])
        return game

    @classmethod
    def _parse_save(cls, text: str | bytes) -> Any:
        """A save's JSON text parsed, refusing what no save holds: more than ``SAVE_MAX_BYTES``,
        nesting deeper than Python's recursion limit, NaN or infinity, numbers of thousands of digits."""
        if len(text) > cls.SAVE_MAX_BYTES:
            raise SaveFileError(f"the save is too large ({len(text) / 2**20:.1f} MiB; a save is at most "
                                f"{cls.SAVE_MAX_BYTES // 2**20} MiB); it is damaged or not a bitbox save")

        def no_constant(name: str) -> Any:
            raise ValueError(f"{name} is not a number a save holds")

        def finite(literal: str) -> float:
            value = float(literal)
            if not math.isfinite(value) or abs(value) >= 2**63:
                raise ValueError(f"{literal[:40]} is not a number a save holds")
            return value

        try:
            return json.loads(text, parse_constant=no_constant, parse_float=finite)
        except RecursionError:
            raise SaveFileError(f"the save is nested too deeply (more than {cls.SAVE_MAX_DEPTH} levels); "
                                "it is damaged or not a bitbox save") from None
        except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
            raise SaveFileError(f"the save file is not valid JSON ({str(exc)[:200]}); it may be truncated or "
                                "damaged") from None

    @staticmethod
    def _save_depth(data: Any) -> int:
        """How many levels of lists and mappings ``data`` nests (counted without recursion)."""
        deepest, stack = 0, [(data, 1)]
        while stack:
            value, depth = stack.pop()
            if isinstance(value, Mapping):
                children: Iterable[Any] = value.values()
            elif isinstance(value, (list, tuple)):
                children = value
            else:
                continue
            deepest = max(deepest, depth)
            if deepest > Game.SAVE_MAX_DEPTH:
                return deepest
            stack.extend((child, depth + 1) for child in children)
        return deepest

    def replay(self, actions: Iterable[Sequence[Any]]) -> None:
        """Apply encoded ``[player, action]`` pairs through the checked path.

        Raises :class:`SaveFileError` naming the first pair that is malformed or illegal; the
        actions before it stay applied.
        """
        for index, entry in enumerate(actions):
            if not isinstance(entry, (list, tuple)) or len(entry) != 2 or not isinstance(entry[0], int):
                raise SaveFileError(f"action #{index} is malformed: {entry!r} (expected [player, action])")
            player, encoded = entry
            try:
                action = self.decode_action(encoded)
            except (ValueError, TypeError, KeyError) as exc:
                raise SaveFileError(f"action #{index} {encoded!r} cannot be read: {exc}") from None
            try:
                self.apply(player, action)
            except RuleError as exc:
                raise SaveFileError(f"action #{index} ({self.describe_action(action)}) is refused: {exc.reason}") from None


# --------------------------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------------------------


class Bot(ABC):
    """A seat filled by the computer. Seeded, so the same game gives the same choices."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, game: Game[Any], player: Player) -> Any:
        """A legal action for ``player`` in ``game``."""


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    def choose(self, game: Game[Any], player: Player) -> Any:
        actions = game.legal_actions(player)
        if not actions:
            raise IllegalActionError("no-legal-action", f"player {player} has no legal action", game.render())
        return actions[self.rng.randrange(len(actions))]


def play_out(game: Game[Any], bots: Mapping[Player, Bot] | Bot, max_actions: int = 100_000, checked: bool = False) -> Game[Any]:
    """Play ``game`` to its end with bots (one for every seat, or a mapping per seat, CHANCE included).

    Uses the fast path (:meth:`Game.apply_fast`: unchecked, no events) unless ``checked``; returns
    the same game object.
    """
    step = game.apply if checked else game.apply_fast
    for _ in range(max_actions):
        if game.is_over():
            return game
        player = game.current_players()[0]
        bot = bots if isinstance(bots, Bot) else bots[player]
        step(player, bot.choose(game, player))
    raise RuntimeError(f"{game.NAME} did not end within {max_actions} actions")


# --------------------------------------------------------------------------------------------
# JSON conversion
# --------------------------------------------------------------------------------------------


def jsonable(value: Any) -> Any:
    """Tuples to lists, mappings to dicts with string keys, recursively."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    return value


def tuplify(value: Any) -> Any:
    """Lists to tuples, recursively: JSON data back to the frozen values actions and options hold."""
    if isinstance(value, list):
        return tuple(tuplify(v) for v in value)
    return value
