"""MémoDiXe (DiXe): a memory game on a 3x3 square of DiXe dice, each hiding its bottom face.

"Chacun pour soi" (2 to 6 players): on his turn a player flips 2 dice to see their hidden faces.
Different symbols go back in place; a pair triggers the symbol's power, then (unless the power says
otherwise) the player wins one of the two dice, the other is rolled again and put back as it lands,
and the square is refilled from the reserve (one die per player) while it lasts. At the start of his
turn a player holding a die may cry « DiXe !!! »: no pair is left. All dice are flipped: right, he
wins a last die and the game ends (most dice wins; a tie goes to the last player who called right);
wrong, he discards every die he won, the square is rolled again and the game goes on.

"Oni contre tous" (4 to 8 players): the same mechanics without a reserve against Oni, one player who
plays only when the app says so, flips in secret and may move any die to the free centre; after each
player's second flip the app shows an effect (:mod:`.effects`); won dice go on the bag; the players
win at the first right « DiXe ! », Oni when the countdown rings (:class:`TimeUp`, sent by the
service: engines have no clock).

Everything the rulebook leaves open is decided in ``docs/rulings/memodixe.md``. The engine is a queue
of steps (a roll to report, a die to flip, a power's choice): whoever the first step names acts
next; steps that need no one (refilling, drawing an effect, the next turn) run by themselves.
Rolls are CHANCE actions (:class:`Roll`, the face that landed up): a camera's reading can be entered,
and each roll step also carries the face the game's seeded generator rolled (:meth:`seeded_roll`),
drawn when the step is made, so options + seed + actions replay exactly whoever rolled.

Hidden faces are real secrets: a seat's :meth:`view` holds the top faces, which everyone sees, and
of the hidden faces only those that seat was shown (``shown``), never the die's identity (its
layout would give the hidden face away). Events that show a face to some seats only carry
``data["audience"]``: the service sends them to those seats alone.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, ClassVar

from controller import i18n
from controller.engines.core import (
    CHANCE, Event, Game, GameOptions, GameOverError, IllegalActionError, NotYourTurnError, OptionsError,
    Player, RuleError,
)
from controller.engines.memodixe import effects as fx
from controller.engines.memodixe import words
from controller.engines.memodixe.actions import (
    ACTION_TYPES, _FIELD_TYPES, Announce, CallDixe, Centre, ChooseFace, EndGame, Flip, Give, Peek, Penalty,
    PlayOn, Race, Relaunch, Reroll, Roll, SetAside, Skip, Steal, Swap, Take, TimeUp, TurnOver, decode, encode,
    place_label,
)
from controller.engines.memodixe.dice import BookError, DiceBook, default_book
from controller.i18n import N_

NAME = "memodixe"
CPS, ONI = "chacun-pour-soi", "oni-contre-tous"
MODES = (CPS, ONI)
#: Places on the square, and its centre ("l'emplacement central du carré").
PLACES = 9
CENTRE = 4
#: Event arguments naming a seat (given as its number).
_SEAT_ARGS = frozenset({"who", "victim", "to", "owner"})
#: The names a sentence fills, once per sentence (its message carries only those).
_placeholders = functools.cache(i18n.placeholders)

# Ready-made actions (frozen dataclasses are slow to build; these are shared by every game).
_FLIPS = tuple(Flip(p) for p in range(PLACES))
_TAKES = tuple(Take(p) for p in range(PLACES))
_PEEKS = tuple(Peek(p) for p in range(PLACES))
_ASIDES = tuple(SetAside(p) for p in range(PLACES))
_REROLLS = tuple(Reroll(p) for p in range(PLACES))
_CENTRES = tuple(Centre(p) for p in range(PLACES))
_RELAUNCHES = tuple(Relaunch(p) for p in range(PLACES))
_SWAPS = {(a, b): Swap(a, b) for a in range(PLACES) for b in range(a + 1, PLACES)}
_SKIP, _CALL, _END, _PLAY_ON = Skip(), CallDixe(), EndGame(), PlayOn()
_RACES = (Race(False), Race(True))
_ROLLS: dict[str, Roll] = {}


def _roll(face: str) -> Roll:
    action = _ROLLS.get(face)
    if action is None:
        action = _ROLLS[face] = Roll(face)
    return action


@dataclasses.dataclass(frozen=True)
class MemodixeOptions(GameOptions):
    """How a game of MémoDiXe is set up (defaults: "Chacun pour soi" for 2).

    ``powers`` overrides the symbol -> power table of ``data/memodixe.toml`` with ``[kind, power]``
    pairs, for an owner whose rulebook shows the icons; ``dice`` names the dice in play (the square's
    9, then the reserve's one per player; none in "Oni contre tous"); ``dixe_continue`` is the
    optional rule ("Facultatif") letting a right caller roll the square again and play on.
    """

    mode: str = CPS
    players: int = 2
    oni_seat: int = 0
    level: str = "normal"
    dixe_continue: bool = False
    powers: tuple = ()
    dice: tuple = ()

    def validate(self) -> None:
        if self.mode not in MODES:
            raise OptionsError(i18n.say(N_("mode must be one of {modes}, not {mode}"), mode=repr(self.mode),
                                        modes=", ".join(MODES)))
        low, high = (2, 6) if self.mode == CPS else (4, 8)
        if type(self.players) is not int or not low <= self.players <= high:
            raise OptionsError(i18n.say(N_("{mode} is played by {low} to {high} players, not {players}"),
                                        mode=self.mode, low=low, high=high, players=repr(self.players)))
        if self.mode == ONI:
            if type(self.oni_seat) is not int or not 0 <= self.oni_seat < self.players:
                raise OptionsError(i18n.say(N_("oni_seat must name one of the {players} seats (0 to {last}), not "
                                               "{seat}"), players=self.players, last=self.players - 1,
                                            seat=repr(self.oni_seat)))
            if self.level not in fx.LEVELS:
                raise OptionsError(i18n.say(N_("level must be one of {levels}, not {level}"), level=repr(self.level),
                                            levels=", ".join(fx.LEVELS)))
        if not isinstance(self.dixe_continue, bool):
            raise OptionsError(i18n.say(N_("option {name} must be true or false, not {value}"), name="dixe_continue",
                                        value=repr(self.dixe_continue)))
        try:
            book = default_book().with_powers(self.powers)
            book.dice_set(self.dice, dice_needed(self.mode, self.players))
        except (BookError, TypeError) as exc:
            raise OptionsError(i18n.say(N_("the dice or powers options cannot be used: {reason}"),
                                        reason=str(exc))) from None


def dice_needed(mode: str, players: int) -> int:
    """"9 DiXes pour former le plateau de jeu" and "1 DiXe supplémentaire par joueur pour la réserve"
    ("Oni contre tous": "On n'utilise pas la réserve")."""
    return PLACES + (players if mode == CPS else 0)


class MemodixeGame(Game[MemodixeOptions]):
    """A game of MémoDiXe. Seats are numbered from 0, clockwise.

    The square: ``die[p]`` (a die number, -1 for an empty place), ``top[p]`` and ``bottom[p]`` (the
    faces; ``None`` while the die is being rolled). ``reserve`` lists the reserve's dice, ``won[s]``
    each seat's dice ("Oni contre tous": ``bag``), ``aside`` the dice set aside with their place and
    who they wait for. ``shown[s][p]`` is the hidden face seat ``s`` was shown at place ``p``
    (row ``players`` is the table's: what was shown to everyone).
    """

    NAME: ClassVar[str] = NAME
    TITLE: ClassVar[str] = "MémoDiXe"
    OPTIONS: ClassVar[type[GameOptions]] = MemodixeOptions
    SEAT_WORD: ClassVar[str] = "player"
    GOLDEN_SCENARIOS: ClassVar[tuple] = (
        ("two-players", {}, 1, 1),
        ("four-players", {"players": 4}, 2, 5),
        ("powers-swapped", {"players": 3, "dixe_continue": True,
                            "powers": [["pi", "steal"], ["smiley", "share"], ["aum", "again"]]}, 3, 7),
        ("oni-normal", {"mode": ONI, "players": 4}, 4, 4),
        ("oni-hard", {"mode": ONI, "players": 5, "level": "hard", "oni_seat": 2}, 6, 9),
    )

    # ---- set-up ------------------------------------------------------------------------------

    def _setup(self) -> None:
        o = self.options
        self.book: DiceBook = default_book().with_powers(o.powers)
        self.mode: str = o.mode
        self.n: int = o.players
        self.oni: int = o.oni_seat if o.mode == ONI else -1
        names = self.book.dice_set(o.dice, dice_needed(o.mode, o.players))
        #: Die number -> its name in the book (which faces it carries).
        self.die_names: tuple[str, ...] = names
        self.die: list[int] = list(range(PLACES))
        self.top: list[str | None] = [None] * PLACES
        self.bottom: list[str | None] = [None] * PLACES
        self.reserve: list[int] = list(range(PLACES, len(names)))
        self.won: list[list[int]] = [[] for _ in range(self.n)]
        self.bag: list[int] = []
        self.discarded: list[int] = []
        self.aside: list[list[int | str]] = []        # [place, die, top, bottom, owner]
        self.shown: list[list[str | None]] = [[None] * PLACES for _ in range(self.n + 1)]
        self.up: list[int] = []                        # places turned face up this turn
        self.queue: list[tuple[Any, ...]] = []
        self.turn_seat: int = -1
        self.turn_no: int = 0
        self.passes: int = 0
        self.last_caller: int = -1
        self.over: bool = False
        self.result: str = ""
        # Oni contre tous
        self.deck: list[str] = []
        self.in_force: list[tuple[str, int]] = []     # (effect, the seat who drew it)
        self.quiet_until: int = -1                     # power "again": no draws until that seat's turn
        self.challenge: str = ""                       # power "aside": the kind the next player must find
        self.last_card: str = ""
        if self.mode == ONI:
            self.deck = fx.deck(o.level)
            self.rng.shuffle(self.deck)
        first = (self.oni + 1) % self.n if self.mode == ONI else 0
        for p in range(PLACES):
            self.queue.append(self._roll_step(p, "setup"))
        self.queue.append(("begin", first))

    def clone(self) -> MemodixeGame:
        """An independent copy: the book is shared (it never changes), the lists copied."""
        twin = self._clone_base()
        twin.die, twin.top, twin.bottom = list(self.die), list(self.top), list(self.bottom)
        twin.reserve, twin.bag, twin.discarded = list(self.reserve), list(self.bag), list(self.discarded)
        twin.won = [list(w) for w in self.won]
        twin.aside = [list(a) for a in self.aside]
        twin.shown = [list(row) for row in self.shown]
        twin.up, twin.queue = list(self.up), list(self.queue)
        twin.deck, twin.in_force = list(self.deck), list(self.in_force)
        return twin

    # ---- small queries -----------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def table_row(self) -> int:
        """The row of :attr:`shown` holding what everyone was shown (a spectator's knowledge)."""
        return self.n

    def kind(self, face: str | None) -> str | None:
        return None if face is None else self.book.kind(face)

    def power_of(self, kind: str) -> str:
        return self.book.powers[kind]

    def usable(self) -> list[int]:
        """Places holding a die lying still (not being rolled, not set aside)."""
        top = self.top
        return [p for p in range(PLACES) if self.die[p] >= 0 and top[p] is not None]

    def free_places(self) -> list[int]:
        """Empty places that a die may fill (a set-aside die's place is kept for it)."""
        kept = {a[0] for a in self.aside}
        return [p for p in range(PLACES) if self.die[p] < 0 and p not in kept]

    def pair_left(self) -> bool:
        """Whether two usable dice hide faces of one kind (what a « DiXe ! » call is checked against)."""
        kinds = [self.book.kind(self.bottom[p]) for p in self.usable()]  # type: ignore[arg-type]
        return len(kinds) != len(set(kinds))

    def holdings(self, seat: int) -> int:
        """How many dice ``seat`` may count on: his own, or the bag's in "Oni contre tous"."""
        return len(self.bag) if self.mode == ONI else len(self.won[seat])

    def can_call(self, seat: int) -> bool:
        """« DiXe ! » needs "un joueur possédant au moins un dé" ("Oni contre tous": a die on the bag)."""
        return seat != self.oni and self.holdings(seat) > 0

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise that takes turns (Oni "ne joue pas à son tour de table")."""
        nxt = (seat + 1) % self.n
        if nxt == self.oni:
            nxt = (nxt + 1) % self.n
        return nxt

    def seeded_roll(self) -> Roll | None:
        """The face the seeded generator rolled for the pending roll (``None`` if no roll is due)."""
        if self.over or not self.queue or self.queue[0][0] != "roll":
            return None
        return _roll(self.queue[0][5])

    def waiting(self) -> dict[str, Any]:
        """What the game waits for, as a message (a dashboard says it in each reader's language)."""
        if self.over:
            return i18n.message(N_("the game is over"))
        step = self.queue[0]
        actor = step[1]
        who = i18n.message(N_("the table")) if actor == CHANCE else words.seat(self, actor)
        extra = {"place": place_label(step[2])} if step[0] in ("roll", "second", "oni-second") else {}
        return i18n.message(words.WAITING[step[0]], who=who, **extra)

    def waiting_for(self) -> str:
        """What the game waits for, in English (the drawing's first line)."""
        return i18n.said(self.waiting(), i18n.SOURCE_LANGUAGE)

    # ---- the shared interface ----------------------------------------------------------------

    def current_players(self) -> tuple[Player, ...]:
        if self.over or not self.queue:
            return ()
        return (self.queue[0][1],)

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> tuple[float, ...]:
        """Dice won ("Chacun pour soi"); 1 for each winner once "Oni contre tous" is over."""
        if self.mode == CPS:
            return tuple(float(len(w)) for w in self.won)
        if not self.over:
            return (0.0,) * self.n
        oni_won = self.result != "dixe"
        return tuple(float((s == self.oni) == oni_won) for s in range(self.n))

    def winners(self) -> tuple[Player, ...]:
        """The most dice; "en cas d'égalité, c'est le dernier joueur à avoir crié « DiXe ! » qui
        l'emporte", else "ex-aequo"."""
        if not self.over:
            return ()
        scores = self.scores()
        best = max(scores)
        leaders = tuple(s for s in range(self.n) if scores[s] == best)
        if self.mode == CPS and self.last_caller in leaders:
            return (self.last_caller,)
        return leaders

    def legal_actions(self, player: Player) -> list[Any]:
        if self.over or not self.queue or self.queue[0][1] != player:
            return []
        step = self.queue[0]
        kind = step[0]
        if kind == "roll":
            return [_roll(f) for f in self.book.dice[self.die_names[step[3]]]]
        if kind in ("turn", "oni-turn", "challenge"):
            usable = self.usable()
            actions: list[Any] = [_CALL] if kind == "turn" and self.can_call(player) else []
            if kind == "challenge" or len(usable) >= 2:
                actions.extend(_FLIPS[p] for p in usable)
            return actions
        if kind in ("second", "oni-second"):
            first = step[2]
            return [_FLIPS[p] for p in self.usable() if p != first]
        if kind == "take":
            return [_TAKES[step[2]], _TAKES[step[3]]]
        if kind == "peek":
            up = self.up
            return [_PEEKS[p] for p in self.usable() if p not in up] + [_SKIP]
        if kind == "steal":
            return [Steal(s) for s in range(self.n) if s != player and self.won[s]]
        if kind == "give":
            return [Give(s) for s in step[2]]
        if kind == "swap":
            usable = self.usable()
            swaps: list[Any] = [_SWAPS[a, b] for i, a in enumerate(usable) for b in usable[i + 1:]]
            return swaps + [_SKIP] if step[2] else swaps
        if kind == "aside":
            return [_ASIDES[p] for p in self.usable()]
        if kind == "reroll":
            return [_REROLLS[p] for p in self.usable()]
        if kind == "face":
            return [ChooseFace(f) for f in self.book.dice[self.die_names[self.die[step[2]]]]]
        if kind == "announce":
            shown = {self.book.kind(self.top[p]) for p in self.usable()}  # type: ignore[arg-type]
            return [Announce(k) for k in self.book.kinds if k not in shown]
        if kind == "dixe-choice":
            return [_END, _PLAY_ON]
        if kind == "centre":
            return [_CENTRES[p] for p in self.usable() if p != CENTRE] + [_SKIP]
        if kind == "race":
            return list(_RACES)
        if kind == "turnover":
            book = self.book
            return [TurnOver(p, f) for p in self.usable() for f in book.dice[self.die_names[self.die[p]]]] + [_SKIP]
        if kind == "relaunch":
            return [_RELAUNCHES[p] for p in self.free_places()] if self.bag else []
        raise AssertionError(f"unknown step {step!r}")

    # ---- checking -----------------------------------------------------------------------------

    def check(self, player: Player, action: Any) -> None:
        """The shared checks, plus: fields of the right type (``True`` is not a place), and the
        app's interruptions (:class:`Penalty`, :class:`TimeUp`) accepted from the table at any moment
        of "Oni contre tous"."""
        if type(action) in ACTION_TYPES:
            for field in dataclasses.fields(action):
                if type(getattr(action, field.name)) is not _FIELD_TYPES[field.name]:
                    raise IllegalActionError.said(
                        "action-fields", N_("{action}: {field} has the wrong type (places and seats are whole "
                                            "numbers)"), self.render(), action=words.action(self, action),
                        field=field.name)
        if type(action) in (Penalty, TimeUp):
            if self.over:
                raise GameOverError.said("game-over", N_("the game is over; no more actions are accepted"),
                                         self.render())
            if player != CHANCE:
                raise NotYourTurnError.said(
                    "app-only", N_("{who} cannot send this: only the app (the table) reports a failed gage or the end "
                                   "of the countdown"), self.render(), who=words.seat(self, player))
            if self.mode != ONI:
                raise IllegalActionError.said("oni-only", N_("failed gages and the countdown belong to Oni contre "
                                                             "tous"), self.render())
            if type(action) is Penalty and not self._penalty_possible():
                raise IllegalActionError.said("penalty", N_("no failed gage can cost a die now: it needs a gage in "
                                                            "force, a die on the bag and a free place"), self.render())
            return
        super().check(player, action)

    def _penalty_possible(self) -> bool:
        return (any(e in fx.WITH_PENALTY for e, _ in self.in_force) and bool(self.bag)
                and bool(self.free_places()))

    def explain_illegal(self, player: Player, action: Any) -> RuleError:
        state = self.render()
        step = self.queue[0]
        kind = step[0]
        t = type(action)
        touched = N_("the die at {place} has been turned: the turn goes on with a second die (\"tout DiXe touché "
                     "devra obligatoirement être retourné\")")
        if kind in ("second", "oni-second") and t is not Flip:
            return IllegalActionError.said("touched-die-must-be-flipped", touched, state, place=place_label(step[2]))
        if t is CallDixe:
            if kind != "turn":
                return IllegalActionError.said("dixe-at-turn-start", N_("DiXe ! is cried at the start of one's turn, "
                                                                        "before flipping (\"Au début de son tour\")"),
                                               state)
            if player == self.oni:
                return IllegalActionError.said("oni-does-not-call", N_("Oni does not cry DiXe !: he plays against the "
                                                                       "others"), state)
            if self.mode == CPS:
                return IllegalActionError.said("dixe-needs-a-die", N_("only a player holding at least one die may cry "
                                                                      "DiXe ! (\"si un joueur possédant au moins un "
                                                                      "dé\")"), state)
            return IllegalActionError.said("dixe-needs-a-die", N_("DiXe ! needs at least one won die on the bag"),
                                           state)
        if t is Flip and kind in ("turn", "second", "oni-turn", "oni-second", "challenge"):
            p = action.place
            if not 0 <= p < PLACES or self.die[p] < 0:
                where = place_label(p) if 0 <= p < PLACES else repr(p)
                return IllegalActionError.said("flip-in-square", N_("there is no die to flip at {place}: flip a die of "
                                                                    "the square"), state, place=where)
            if p in self.up:
                return IllegalActionError.said("flip-two-dice", N_("the die at {place} is already face up: flip "
                                                                   "another die"), state, place=place_label(p))
            if kind in ("turn", "oni-turn"):
                return IllegalActionError.said("two-dice-to-flip", N_("fewer than 2 dice are left in the square: no "
                                                                      "pair can be flipped"), state)
        if kind in ("second", "oni-second"):
            return IllegalActionError.said("touched-die-must-be-flipped", touched, state, place=place_label(step[2]))
        if t is Take and kind == "take":
            return IllegalActionError.said("take-one-of-the-pair", N_("win one of the two dice of the pair, at {a} or "
                                                                      "{b}"), state, a=place_label(step[2]),
                                           b=place_label(step[3]))
        return IllegalActionError.said("legal-action", N_("{action} is not expected now (waiting for: {waiting})"),
                                       state, action=words.action(self, action), waiting=self.waiting())

    def describe_message(self, action: Any) -> dict[str, Any] | str:
        """An action in words, as a message said in the reader's language ("flip the die at b2")."""
        return words.action(self, action)

    def describe_action(self, action: Any) -> str:
        """A short English description of an action (saves' and logs' errors quote it)."""
        return i18n.said(self.describe_message(action), i18n.SOURCE_LANGUAGE)

    @classmethod
    def encode_action(cls, action: Any) -> Any:
        return encode(action)

    @classmethod
    def decode_action(cls, data: Any) -> Any:
        return decode(data)

    # ---- applying ----------------------------------------------------------------------------

    def _apply(self, player: Player, action: Any) -> list[Event]:
        events: list[Event] = []
        self._act(player, action, events)
        return events

    def _apply_fast(self, player: Player, action: Any) -> None:
        self._act(player, action, None)

    def _say(self, events: list[Event] | None, event_kind: str, msgid: str, audience: tuple[int, ...] | None = None,
             /, **args: Any) -> None:
        """Add an event saying ``msgid`` (nothing on the fast path, where ``events`` is ``None``).

        Callers pass plain values: seats as numbers (``who``, ``victim``, ``to``, ``owner``), places
        as labels, faces and kinds as the book names them, a ``power``, a ``card``, the game's
        ``result``. The event's ``data`` keeps them (seats as their labels) with ``audience``, the
        seats that alone may see it; its message says them in words (:mod:`.words`).
        """
        if events is None:
            return
        data: dict[str, Any] = {}
        said: dict[str, Any] = {}
        for key, value in args.items():
            if key in _SEAT_ARGS:
                data[key] = self.seat_label(value)
                said[key] = words.seat(self, value)
            elif key == "face":
                data[key] = value
                said[key] = words.face(value)
            elif key == "kind":
                data[key] = value
                said["symbol"] = words.face(value)
            elif key == "faces":
                data[key] = dict(value)
                said[key] = i18n.listing([i18n.message(N_("{place} {face}"), place=place, face=words.face(face))
                                          for place, face in value.items()])
            elif key == "power":
                data[key] = value
                said["text"] = words.power_text(value, self.mode)
            elif key == "card":
                data[key] = value
                said["title"], effect = words.EFFECT_TEXTS[value]
                said["effect"] = i18n.message(effect)
            elif key == "result":
                data[key] = value
                said["reason"] = i18n.message(words.END_REASONS[value])
            elif key == "winners":
                data[key] = list(value)
                said["who"] = i18n.listing([words.seat(self, w) for w in value])
            else:
                data[key] = said[key] = value
        if audience is not None:
            data["audience"] = list(audience)
        wanted = _placeholders(msgid)
        events.append(Event.said(event_kind, msgid, data, **{k: v for k, v in said.items() if k in wanted}))

    def _act(self, player: Player, action: Any, events: list[Event] | None) -> None:
        t = type(action)
        if t is TimeUp:
            self._say(events, "time-up", N_("the countdown rings"))
            self._finish(events, "time")
            return
        if t is Penalty:
            self._say(events, "penalty", N_("a gage was failed: Oni rolls a won die back into the square"))
            self.queue.insert(0, ("relaunch", self.oni))
            self._settle(events)
            return
        step = self.queue.pop(0)
        handler = _HANDLERS[step[0]]
        handler(self, step, action, events)
        self._settle(events)

    # -- rolls --

    def _roll_step(self, place: int, purpose: str, seat: int = -1, die: int = -1) -> tuple[Any, ...]:
        """A CHANCE step rolling the die at ``place`` (or ``die``, put there), with the seeded face."""
        if die >= 0:
            self.die[place] = die
        self.top[place] = self.bottom[place] = None
        self._forget(place)
        faces = self.book.dice[self.die_names[self.die[place]]]
        return ("roll", CHANCE, place, self.die[place], purpose, faces[self.rng.randrange(6)], seat)

    def _on_roll(self, step: tuple[Any, ...], action: Roll, events: list[Event] | None) -> None:
        place, die, purpose, seat = step[2], step[3], step[4], step[6]
        face = action.face
        self.top[place] = face
        self.bottom[place] = self.book.opposite(self.die_names[die], face)
        self._say(events, "roll", N_("the die at {place} lands on {face}"), place=place_label(place), face=face)
        if purpose == "bomb" and face == self.book.bomb_face:
            self._win(seat, place)
            self._say(events, "bomb", N_("the bomb! {who} wins the die at {place} too"),
                      who=seat, place=place_label(place))
        elif purpose == "skull" and face == self.book.skull_face:
            if self.mode == CPS:
                for s in range(self.n):
                    if s != seat and self.won[s]:
                        self.discarded.append(self.won[s].pop())
                        self._say(events, "discard", N_("the skull! {who} discards a die"), who=s)
            elif self.bag:
                won = self.bag.pop()
                back = self.free_places()
                target = step[7] if len(step) > 7 and step[7] in back else (back[0] if back else -1)
                self._say(events, "skull", N_("the skull! {who} must roll the won die back into the square"),
                          who=seat)
                if target >= 0:
                    self.queue.insert(0, self._roll_step(target, "plain", die=won))
                else:
                    self.bag.append(won)

    # -- turns --

    def _on_turn(self, step: tuple[Any, ...], action: Any, events: list[Event] | None) -> None:
        seat = step[1]
        self.passes = 0
        if type(action) is CallDixe:
            self._call_dixe(seat, events)
            return
        self._flip(seat, action.place, events)
        self.queue.insert(0, ("oni-second" if step[0] == "oni-turn" else "second", seat, action.place))

    def _flip(self, seat: int, place: int, events: list[Event] | None) -> None:
        """Turn a die face up: everyone sees it, but Oni's own flips only he sees."""
        self.up.append(place)
        face = self.bottom[place]
        if seat == self.oni:
            self.shown[seat][place] = face
            self._say(events, "flip", N_("Oni flips the die at {place} and hides it from the players"),
                      place=place_label(place))
            self._say(events, "seen", N_("you see {face} under the die at {place}"),
                      (seat,), place=place_label(place), face=face)
        else:
            for row in self.shown:
                row[place] = face
            self._say(events, "flip", N_("{who} flips the die at {place}: {face}"),
                      who=seat, place=place_label(place), face=face)

    def _on_second(self, step: tuple[Any, ...], action: Flip, events: list[Event] | None) -> None:
        seat, a, b = step[1], step[2], action.place
        self._flip(seat, b, events)
        kind = self.book.kind(self.bottom[a])  # type: ignore[arg-type]
        if kind != self.book.kind(self.bottom[b]):  # type: ignore[arg-type]
            self.up.clear()
            if seat == self.oni:
                self._say(events, "no-pair", N_("Oni puts his two dice back"))
                return
            self._say(events, "no-pair", N_("{who} finds two different symbols: the dice go back in place"), who=seat)
            self.queue[0:0] = [("draw", seat), ("end", seat, False)] if self.mode == ONI else [("end", seat, False)]
            return
        if seat == self.oni:
            # "Si celui-ci trouve une paire, il relance les 2 DiXes et les replace dans le carré."
            self.up.clear()
            self._say(events, "pair", N_("Oni found a pair: he rolls both dice again and puts them back"))
            self.queue[0:0] = [self._roll_step(a, "plain"), self._roll_step(b, "plain")]
            return
        power = self.power_of(kind)
        self._say(events, "pair", N_("{who} finds a pair of {symbol}: {text}"), who=seat, kind=kind, power=power)
        self.queue[0:0] = self._pair_steps(seat, a, b, power) if self.mode == CPS else self._oni_pair_steps(seat, a, b, power)

    def _pair_steps(self, seat: int, a: int, b: int, power: str) -> list[tuple[Any, ...]]:
        """Chacun pour soi: "1. Le joueur déclenche le pouvoir [...] 2. Sauf indication contraire, le
        joueur remporte 1 DiXe au choix [...] 3. Tant qu'il reste des DiXes dans la réserve, on
        complète le carré." Powers acting "après la résolution de votre tour" come last."""
        steps: list[tuple[Any, ...]] = []
        if power == "peek":
            steps.append(("peek", seat, 2, False))
        if power in ("share", "steal", "retry"):
            # "Vous ne gagnez pas de DiXe. Relancez les 2 DiXes retournés"
            self.up.clear()
            steps += [self._roll_step(a, "plain"), self._roll_step(b, "plain")]
            if power == "share":
                steps.append(("share", seat))
            elif power == "steal":
                steps.append(("steal", seat))
            steps += [("refill", seat), ("end", seat, power == "retry")]
            return steps
        steps += [("take", seat, a, b, power), ("refill", seat)]
        if power == "swap":
            steps.append(("swap", seat, True, False))
        elif power == "aside":
            steps.append(("aside", seat, seat))
        elif power == "reroll":
            steps.append(("reroll", seat))
        steps.append(("end", seat, power == "again"))
        return steps

    def _oni_pair_steps(self, seat: int, a: int, b: int, power: str) -> list[tuple[Any, ...]]:
        """Oni contre tous: the same mechanics, "Les pouvoirs des symboles sont adaptés"."""
        if power == "retry":
            self.up.clear()
            return [self._roll_step(a, "plain"), self._roll_step(b, "plain"), ("draw", seat), ("end", seat, True)]
        steps: list[tuple[Any, ...]] = []
        if power == "peek":
            steps.append(("peek", seat, 2, True))
        elif power == "share":
            self.in_force.clear()
        elif power == "again":
            self.quiet_until = seat
        steps.append(("take", seat, a, b, power))
        if power == "again":
            steps.append(("oni-turn", self.oni))
        elif power == "aside":
            steps.append(("announce", seat))
        if power != "steal":   # soleil: "ne cliquez pas sur Suivant"
            steps.append(("draw", seat))
        steps.append(("end", seat, False))
        return steps

    def _on_take(self, step: tuple[Any, ...], action: Take, events: list[Event] | None) -> None:
        seat, a, b, power = step[1], step[2], step[3], step[4]
        x = action.place
        y = b if x == a else a
        self.up.clear()
        won_die = self.die[x]
        self._win(seat, x)
        won = N_("{who} wins the die at {place}") if self.mode == CPS else N_("{who} wins the die at {place} and puts "
                                                                              "it on the bag")
        self._say(events, "won", won, who=seat, place=place_label(x))
        if self.mode == ONI and power == "swap":
            self.queue.insert(0, ("face", seat, y))
        elif self.mode == ONI and power == "reroll":
            self._say(events, "kept", N_("the die at {place} goes back with its initial symbol"),
                      place=place_label(y))
        elif power in ("bomb", "skull"):
            roll = self._roll_step(y, power, seat)
            self.queue.insert(0, roll + (x, won_die) if self.mode == ONI else roll)
        else:
            self.queue.insert(0, self._roll_step(y, "plain"))

    def _win(self, seat: int, place: int) -> None:
        """The die at ``place`` is won: to the seat's dice, or onto the bag ("Chaque dé gagné sera
        posé sur le sac DiXe")."""
        (self.bag if self.mode == ONI else self.won[seat]).append(self.die[place])
        self.die[place] = -1
        self.top[place] = self.bottom[place] = None
        self._forget(place)

    def _forget(self, place: int) -> None:
        for row in self.shown:
            row[place] = None

    def _call_dixe(self, seat: int, events: list[Event] | None) -> None:
        """"On procède alors à une vérification en retournant tous les dés"."""
        usable = self.usable()
        for p in usable:
            for row in self.shown:
                row[p] = self.bottom[p]
        faces = {place_label(p): self.bottom[p] for p in usable}
        self._say(events, "dixe", N_("{who} cries DiXe !: every die is turned up ({faces})"), who=seat, faces=faces)
        if not self.pair_left():
            self._say(events, "dixe-right", N_("{who} is right: no pair is left"), who=seat)
            if self.mode == ONI:
                self._finish(events, "dixe")
                return
            self.last_caller = seat
            if usable:
                self._win(seat, usable[0])
            elif self.reserve:
                self.won[seat].append(self.reserve.pop())
            self._say(events, "won", N_("{who} wins a last die"), who=seat)
            if self.options.dixe_continue:
                self.queue.insert(0, ("dixe-choice", seat))
            else:
                self._finish(events, "dixe")
            return
        lost = self.holdings(seat)
        if self.mode == ONI:
            self.discarded.extend(self.bag)
            self.bag.clear()
        else:
            self.discarded.extend(self.won[seat])
            self.won[seat].clear()
        if self.mode == CPS and lost == 1:
            wrong = N_("{who} is wrong, a pair is left: {who} discards their die and the square is rolled again")
        elif self.mode == CPS:
            wrong = N_("{who} is wrong, a pair is left: {who} discards {count} dice and the square is rolled again")
        elif lost == 1:
            wrong = N_("{who} is wrong, a pair is left: the die on the bag is discarded and the square is rolled again")
        else:
            wrong = N_("{who} is wrong, a pair is left: the {count} dice of the bag are discarded and the square is "
                       "rolled again")
        self._say(events, "dixe-wrong", wrong, who=seat, count=lost)
        self.queue[0:0] = [self._roll_step(p, "plain") for p in self.usable()] + [("end", seat, False)]

    def _on_dixe_choice(self, step: tuple[Any, ...], action: Any, events: list[Event] | None) -> None:
        seat = step[1]
        if type(action) is EndGame:
            self._finish(events, "dixe")
            return
        self._say(events, "play-on", N_("{who} rolls the remaining dice again: the game goes on"), who=seat)
        self.queue[0:0] = [self._roll_step(p, "plain") for p in self.usable()] + [("refill", seat), ("end", seat, False)]

    # -- powers' choices --

    def _on_peek(self, step: tuple[Any, ...], action: Any, events: list[Event] | None) -> None:
        _, seat, left, public = step
        if type(action) is Skip:
            return
        p = action.place
        face = self.bottom[p]
        if public:
            for row in self.shown:
                row[p] = face
            self._say(events, "show", N_("{who} shows everyone {face} under the die at {place}"),
                      who=seat, place=place_label(p), face=face)
        else:
            self.shown[seat][p] = face
            self._say(events, "peek", N_("{who} looks secretly under the die at {place}"),
                      who=seat, place=place_label(p))
            self._say(events, "seen", N_("you see {face} under the die at {place}"),
                      (seat,), place=place_label(p), face=face)
        if left > 1 and len([q for q in self.usable() if q not in self.up]) > 0:
            self.queue.insert(0, ("peek", seat, left - 1, public))

    def _on_steal(self, step: tuple[Any, ...], action: Steal, events: list[Event] | None) -> None:
        seat = step[1]
        self.won[seat].append(self.won[action.seat].pop())
        self._say(events, "steal", N_("{who} steals a die from {victim}"), who=seat, victim=action.seat)

    def _on_give(self, step: tuple[Any, ...], action: Give, events: list[Event] | None) -> None:
        giver = step[1]
        self.won[action.seat].append(self.won[giver].pop())
        self._say(events, "give", N_("{who} gives a die to {to}"), who=giver, to=action.seat)

    def _on_swap(self, step: tuple[Any, ...], action: Any, events: list[Event] | None) -> None:
        _, seat, _optional, public = step
        if type(action) is Skip:
            self._say(events, "swap", N_("{who} swaps nothing"), who=seat)
            return
        a, b = action.a, action.b
        for lst in (self.die, self.top, self.bottom):
            lst[a], lst[b] = lst[b], lst[a]
        rows = self.shown if public else [self.shown[seat]]
        for row in rows:
            row[a], row[b] = row[b], row[a]
        if public:
            self._say(events, "swap", N_("Oni swaps the dice at {a} and {b}"), a=place_label(a), b=place_label(b))
        else:
            # "secrètement (les autres joueurs détournent le regard)": the others keep what they saw
            self._say(events, "swap", N_("{who} may swap two dice while the others look away"), who=seat)
            self._say(events, "swapped", N_("you swapped the dice at {a} and {b}"),
                      (seat,), a=place_label(a), b=place_label(b))

    def _on_aside(self, step: tuple[Any, ...], action: SetAside, events: list[Event] | None) -> None:
        seat, owner = step[1], step[2]
        p = action.place
        self.aside.append([p, self.die[p], self.top[p], self.bottom[p], owner])  # type: ignore[list-item]
        self.die[p] = -1
        self.top[p] = self.bottom[p] = None
        self._say(events, "aside", N_("{who} sets the die at {place} aside until the start of {owner}'s next turn"),
                  who=seat, place=place_label(p),
                  owner=owner)

    def _on_reroll(self, step: tuple[Any, ...], action: Reroll, events: list[Event] | None) -> None:
        self._say(events, "reroll", N_("{who} rolls the die at {place} again"),
                  who=step[1], place=place_label(action.place))
        self.queue.insert(0, self._roll_step(action.place, "plain"))

    def _on_face(self, step: tuple[Any, ...], action: ChooseFace, events: list[Event] | None) -> None:
        seat, p = step[1], step[2]
        self.bottom[p] = action.face
        self.top[p] = self.book.opposite(self.die_names[self.die[p]], action.face)
        for row in self.shown:
            row[p] = action.face
        self._say(events, "face", N_("{who} puts the die at {place} back resting on {face}"),
                  who=seat, place=place_label(p), face=action.face)

    def _on_announce(self, step: tuple[Any, ...], action: Announce, events: list[Event] | None) -> None:
        self.challenge = action.kind
        self._say(events, "announce", N_("{who} announces {symbol}: the next player must find it with one flip"),
                  who=step[1], kind=action.kind)

    def _on_challenge(self, step: tuple[Any, ...], action: Flip, events: list[Event] | None) -> None:
        seat, kind = step[1], step[2]
        p = action.place
        self._flip(seat, p, events)
        self.up.clear()
        if self.book.kind(self.bottom[p]) == kind:  # type: ignore[arg-type]
            self._win(seat, p)
            self._say(events, "won", N_("{who} finds it and wins the die at {place}"), who=seat, place=place_label(p))
        else:
            self._say(events, "no-pair", N_("{who} does not find {symbol}"), who=seat, kind=kind)

    def _on_centre(self, step: tuple[Any, ...], action: Any, events: list[Event] | None) -> None:
        if type(action) is Skip:
            return
        p = action.place
        self.die[CENTRE], self.top[CENTRE], self.bottom[CENTRE] = self.die[p], self.top[p], self.bottom[p]
        self.die[p] = -1
        self.top[p] = self.bottom[p] = None
        for row in self.shown:   # moved in sight: what each seat saw moves with the die
            row[CENTRE], row[p] = row[p], None
        self._say(events, "centre", N_("Oni moves the die at {place} to the centre"), place=place_label(p))

    def _on_race(self, step: tuple[Any, ...], action: Race, events: list[Event] | None) -> None:
        if action.oni_first:
            self._say(events, "race", N_("Oni grabbed the middle die: he rolls it and puts it back in the middle"))
            self.queue.insert(0, self._roll_step(CENTRE, "plain"))
        else:
            self._win(self.turn_seat, CENTRE)
            self._say(events, "race", N_("a player grabbed the middle die first: it goes on the bag"))

    def _on_turnover(self, step: tuple[Any, ...], action: Any, events: list[Event] | None) -> None:
        _, oni, left = step
        if type(action) is Skip:
            return
        p = action.place
        self.bottom[p] = action.face
        self.top[p] = self.book.opposite(self.die_names[self.die[p]], action.face)
        self._forget(p)
        self.shown[oni][p] = action.face
        self._say(events, "turn-over", N_("Oni turns the die at {place} over onto a hidden face of his choice"),
                  place=place_label(p))
        if left > 1:
            self.queue.insert(0, ("turnover", oni, left - 1))

    def _on_relaunch(self, step: tuple[Any, ...], action: Relaunch, events: list[Event] | None) -> None:
        die = self.bag.pop()
        self._say(events, "relaunch", N_("Oni rolls a won die from the bag into {place}"),
                  place=place_label(action.place))
        self.queue.insert(0, self._roll_step(action.place, "plain", die=die))

    # ---- what runs by itself -----------------------------------------------------------------

    def _settle(self, events: list[Event] | None) -> None:
        """Run the steps that need no one, and drop choices that have no option, until someone
        must act (or the game is over)."""
        queue = self.queue
        while not self.over:
            step = queue[0]
            kind = step[0]
            auto = _AUTO.get(kind)
            if auto is not None:
                queue.pop(0)
                auto(self, step, events)
                continue
            if kind != "roll" and not self.legal_actions(step[1]):
                queue.pop(0)
                self._no_choice(step, events)
                continue
            return

    def _no_choice(self, step: tuple[Any, ...], events: list[Event] | None) -> None:
        """A step whose actor has no option: a turn passes, a power has nothing to act on."""
        if step[0] == "turn":
            self.passes += 1
            self._say(events, "pass", N_("{who} cannot flip two dice nor cry DiXe !: the turn passes"), who=step[1])
            self.queue.insert(0, ("end", step[1], False))
        elif step[0] == "steal":
            self._say(events, "steal", N_("nobody has a die for {who} to steal"), who=step[1])

    def _begin(self, step: tuple[Any, ...], events: list[Event] | None) -> None:
        """The start of a seat's turn: dice set aside for it come back, its lasting effects end, and
        it plays (Oni may first fill the free centre; a challenge comes "avant de jouer son tour")."""
        seat = step[1]
        self.turn_seat = seat
        self.turn_no += 1
        for entry in [a for a in self.aside if a[4] == seat]:
            self.aside.remove(entry)
            p = entry[0]
            self.die[p], self.top[p], self.bottom[p] = entry[1], entry[2], entry[3]  # type: ignore[assignment]
            self._say(events, "aside", N_("the die set aside comes back to {place}"),
                      place=place_label(p))  # type: ignore[arg-type]
        if self.mode == ONI:
            self.in_force = [(e, s) for e, s in self.in_force if not (s == seat and e in fx.UNTIL_NEXT_TURN)]
            if self.quiet_until == seat:
                self.quiet_until = -1
        self._say(events, "turn", N_("turn {turn}: {who} plays"), who=seat, turn=self.turn_no)
        ends = self._stuck()
        if ends:
            self._finish(events, ends)
            return
        steps: list[tuple[Any, ...]] = []
        if self.mode == ONI and self.die[CENTRE] < 0 and CENTRE in self.free_places() and self.usable():
            steps.append(("centre", self.oni))
        if self.challenge:
            steps.append(("challenge", seat, self.challenge))
            self.challenge = ""
        steps.append(("turn", seat))
        self.queue[0:0] = steps

    def _stuck(self) -> str:
        """Why the game cannot go on, or "". "Chacun pour soi": no pair is left, no die is set aside
        and nobody holds a die to cry « DiXe ! » (no one ever could). Either mode: a whole round of
        turns passed with nobody able to play."""
        if self.passes >= self.n - (1 if self.mode == ONI else 0):
            return "stuck"
        if self.mode == CPS and not self.aside and not any(self.won) and not self.pair_left():
            return "no-pair"
        return ""

    def _end(self, step: tuple[Any, ...], events: list[Event] | None) -> None:
        seat, again = step[1], step[2]
        if again:
            self._say(events, "again", N_("{who} plays again"), who=seat)
        self.queue.insert(0, ("begin", seat if again else self.next_seat(seat)))

    def _refill(self, step: tuple[Any, ...], events: list[Event] | None) -> None:
        """"Tant qu'il reste des DiXes dans la réserve, on complète le carré. Le joueur pioche, lance
        et place tel quel le(s) DiXe(s) nécessaire(s)"."""
        rolls = []
        for p in self.free_places():
            if not self.reserve:
                break
            rolls.append(self._roll_step(p, "refill", die=self.reserve.pop(0)))
            self._say(events, "refill", N_("a die from the reserve is rolled into {place}"), place=place_label(p))
        self.queue[0:0] = rolls

    def _share(self, step: tuple[Any, ...], events: list[Event] | None) -> None:
        """"Le ou les joueurs ayant remporté le plus de DiXes [...] doivent en donner un à celui qui
        en a le moins (en cas d'égalité, les joueurs choisissent à qui ils veulent donner leur DiXe).
        Si tous les joueurs sont ex æquo, rien ne se passe.\""""
        counts = [len(w) for w in self.won]
        most, least = max(counts), min(counts)
        if most == least:
            self._say(events, "share", N_("everyone has as many dice: nothing changes hands"))
            return
        poorest = tuple(s for s in range(self.n) if counts[s] == least)
        givers = [s for s in range(self.n) if counts[s] == most]
        steps: list[tuple[Any, ...]] = []
        for giver in givers:
            if len(poorest) == 1:
                self.won[poorest[0]].append(self.won[giver].pop())
                self._say(events, "give", N_("{who} gives a die to {to}"), who=giver, to=poorest[0])
            else:
                steps.append(("give", giver, poorest))
        self.queue[0:0] = steps

    def _draw(self, step: tuple[Any, ...], events: list[Event] | None) -> None:
        """"Après avoir retourné son 2e DiXe, le joueur doit appuyer sur le mobile pour faire
        apparaître un effet à appliquer dans le jeu." Drawn from the seeded generator."""
        seat = step[1]
        if self.quiet_until >= 0:
            self._say(events, "effect", N_("nobody presses the button this turn"))
            return
        if not self.deck:
            self.deck = fx.deck(self.options.level)
            self.rng.shuffle(self.deck)
        card = self.last_card = self.deck.pop()
        self._say(events, "effect", N_("{who} draws \"{title}\": {effect}"), who=seat, card=card)
        oni = self.oni
        usable = self.usable()
        steps: list[tuple[Any, ...]] = []
        if card == fx.ONI_PROMPT:
            steps.append(("oni-turn", oni))
        elif card == "vol-milieu":
            if CENTRE in usable:
                steps.append(("race", CHANCE))
        elif card == "oni-relance":
            steps.append(("reroll", oni))
        elif card == "oni-reprend":
            if self.bag:
                steps.append(("relaunch", oni))
        elif card == "oni-triche":
            steps.append(("peek", oni, 2, False))
        elif card == "oni-melange":
            if len(usable) >= 2:
                steps.append(("swap", oni, False, True))
        elif card == "oni-retourne":
            steps.append(("turnover", oni, 2))
        elif card == "de-cote":
            steps.append(("aside", oni, seat))
        if card in fx.UNTIL_NEXT_TURN or card in fx.UNTIL_END:
            self.in_force.append((card, seat))
        self.queue[0:0] = steps

    def _finish(self, events: list[Event] | None, result: str) -> None:
        self.over = True
        self.result = result
        self.queue.clear()
        self.up.clear()
        if self.mode == ONI:
            if result == "dixe":
                self._say(events, "game-over", N_("the players win, Oni will not rejoice this time ({reason})"),
                          result=result, winners=[s for s in range(self.n) if s != self.oni])
            else:
                self._say(events, "game-over", N_("Oni wins ({reason})"), result=result, winners=[self.oni])
            return
        self._say(events, "game-over", N_("the game is over ({reason}): {who} win(s)"), result=result,
                  winners=self.winners(), scores=[len(w) for w in self.won])

    # ---- looking at the game -----------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """The whole state, secrets included (saves, goldens, tests)."""
        return {
            "mode": self.mode,
            "players": self.n,
            "oni": self.oni,
            "square": [
                {"die": self.die[p], "name": self.die_names[self.die[p]] if self.die[p] >= 0 else None,
                 "top": self.top[p], "bottom": self.bottom[p]} for p in range(PLACES)
            ],
            "reserve": list(self.reserve),
            "won": [list(w) for w in self.won],
            "bag": list(self.bag),
            "discarded": list(self.discarded),
            "aside": [list(a) for a in self.aside],
            "shown": [list(row) for row in self.shown],
            "up": list(self.up),
            "queue": [list(step) for step in self.queue],
            "turn_seat": self.turn_seat,
            "turn": self.turn_no,
            "passes": self.passes,
            "last_caller": self.last_caller,
            "over": self.over,
            "result": self.result,
            "deck": list(self.deck),
            "in_force": [list(e) for e in self.in_force],
            "quiet_until": self.quiet_until,
            "challenge": self.challenge,
            "last_card": self.last_card,
            "scores": list(self.scores()),
            "winners": list(self.winners()),
        }

    def view(self, player: Player | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator, who sees what the whole table was shown).

        The top faces, the counts, who is to act; of the hidden faces only those this seat was
        shown, as it was shown them (after a secret swap the others' memory is stale, as at the
        table). Never a die's identity, the seeded rolls or the app's deck.
        """
        seat = player if player is not None and 0 <= player < self.n else None
        row = self.shown[self.table_row if seat is None else seat]
        return {
            "mode": self.mode,
            "players": self.n,
            "oni": self.oni,
            "me": seat,
            "square": [
                {"top": self.top[p], "empty": self.die[p] < 0, "rolling": self.die[p] >= 0 and self.top[p] is None,
                 "aside": any(a[0] == p for a in self.aside), "up": p in self.up, "shown": row[p]}
                for p in range(PLACES)
            ],
            "reserve": len(self.reserve),
            "won": [len(w) for w in self.won],
            "bag": len(self.bag),
            "discarded": len(self.discarded),
            "turn_seat": self.turn_seat,
            "turn": self.turn_no,
            "waiting_for": self.waiting(),
            "to_act": list(self.current_players()),
            "last_caller": self.last_caller,
            "in_force": [list(e) for e in self.in_force],
            "quiet": self.quiet_until >= 0,
            "challenge": self.challenge,
            "last_card": self.last_card,
            "over": self.over,
            "result": self.result,
            "scores": list(self.scores()),
            "winners": list(self.winners()),
        }

    def render(self) -> str:
        from controller.engines.memodixe.render import render_text

        return render_text(self)

    # ---- consistency -------------------------------------------------------------------------

    def check_invariants(self) -> None:
        dice = [d for d in self.die if d >= 0] + self.reserve + self.bag + self.discarded
        dice += [w for won in self.won for w in won] + [a[1] for a in self.aside]  # type: ignore[misc]
        assert sorted(dice) == list(range(len(self.die_names))), f"dice lost or doubled: {sorted(dice)}"
        for p in range(PLACES):
            if self.die[p] < 0:
                assert self.top[p] is None and self.bottom[p] is None, f"empty place {p} shows a face"
            elif self.top[p] is not None:
                assert self.bottom[p] == self.book.opposite(self.die_names[self.die[p]], self.top[p]), \
                    f"place {p}: the hidden face is not opposite the top face"
        for a in self.aside:
            assert self.die[a[0]] < 0, "a set-aside die's place is filled"  # type: ignore[index]
        assert len(self.shown) == self.n + 1
        if self.mode == ONI:
            assert not self.reserve and not any(self.won)
        else:
            assert not self.bag and not self.deck
        if self.over:
            assert not self.queue and self.winners()
        else:
            assert self.queue and self.queue[0][0] not in _AUTO, f"the queue waits on {self.queue[:1]}"


_HANDLERS = {
    "roll": MemodixeGame._on_roll,
    "turn": MemodixeGame._on_turn,
    "oni-turn": MemodixeGame._on_turn,
    "second": MemodixeGame._on_second,
    "oni-second": MemodixeGame._on_second,
    "take": MemodixeGame._on_take,
    "dixe-choice": MemodixeGame._on_dixe_choice,
    "peek": MemodixeGame._on_peek,
    "steal": MemodixeGame._on_steal,
    "give": MemodixeGame._on_give,
    "swap": MemodixeGame._on_swap,
    "aside": MemodixeGame._on_aside,
    "reroll": MemodixeGame._on_reroll,
    "face": MemodixeGame._on_face,
    "announce": MemodixeGame._on_announce,
    "challenge": MemodixeGame._on_challenge,
    "centre": MemodixeGame._on_centre,
    "race": MemodixeGame._on_race,
    "turnover": MemodixeGame._on_turnover,
    "relaunch": MemodixeGame._on_relaunch,
}
_AUTO = {
    "begin": MemodixeGame._begin,
    "end": MemodixeGame._end,
    "refill": MemodixeGame._refill,
    "share": MemodixeGame._share,
    "draw": MemodixeGame._draw,
}
