"""PuXes (DiXe): flick your oracles to topple the opposing temples or put all their oracles to sleep.

The engine cannot see the table. What people choose (where to set an oracle, which power to use,
which oracle to flick, the temple owner's push-back) are the players' actions; what the dice
physically did (the heroes' faces, where a flicked oracle stopped, what it touched, whether it
left the area, a toppled temple) is reported by the table as actions of the CHANCE player, so
options + seed + action list replay a game exactly.

A turn ("Un tour de jeu se déroule en 3 phases"):

1. the hero roll (:class:`Roll`, from the table);
2. at most one active power (:class:`UsePower`); passive powers act while their face is visible;
3. move one oracle whose visible symbol is on a hero (:class:`Move`, then an :class:`Outcome` from
   the table), or, with a pair of symbols, wake a sleeping oracle (:class:`Wake`).

Work still to be done is kept as a queue of steps (place an oracle, report a roll, the active
player's choice, report a flick, push an intruder back...); whoever the first step names acts
next. Every decision the rulebook leaves open is written in ``docs/rulings/puxes.md``.

The package: ``actions`` (what can be done), ``collection`` (the dice, as data), ``geometry`` (the
table), ``powers`` (the heroes' powers), ``flicks`` (ruling a flick's outcome), ``outcomes`` (the
representative outcomes bots and random playouts use), and this module (set-up, turns, the end).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar

from controller.engines import register
from controller.engines.core import (
    CHANCE, Event, Game, GameOptions, IllegalActionError, OptionsError, Player, RuleError,
)
from controller.engines.puxes import powers as pw
from controller.engines.puxes.actions import (
    Carry, ChooseFace, EndTurn, Move, Outcome, Place, PushBack, Reroll, Roll, Spit, UsePower, Wake, decode, encode,
)
from controller.engines.puxes.collection import Collection, default_collection
from controller.engines.puxes.geometry import Table, default_temples, distance, is_mm, sacred_radius
from controller.engines.puxes.flicks import FlickRules

NAME = "puxes"
MODES = ("standard", "solo", "blitz", "coop")


@dataclasses.dataclass(frozen=True)
class PuxesOptions(GameOptions):
    """How the table is set up and which variant is played (defaults: the rulebook's 2 players)."""

    players: int = 2
    mode: str = "standard"              # 4 players: "solo", "blitz" or "coop"
    length_mm: float = 900.0            # "un grand rectangle imaginaire idéalement de 60x90 cm",
    width_mm: float = 600.0             # its length along the mat's x axis, between the players
    die_mm: float = 25.0
    sacred_garden_dice: float = 1.0     # width in die diagonals
    public_garden_dice: float = 3.0     # width in dice, beyond the sacred garden
    temples_per_player: int = 1         # 2: the advanced set-up with two adjacent temples
    temple_spacing_dice: float = 4.0    # between the centres of a player's two temples
    temples: tuple = ()                 # temple centres (x, y) overriding the default layout
    oracles_per_temple: int = 0         # 0: 4 with one temple, 3 per temple with two
    temple_lives: int = 1               # 2: the advanced "renverser les temples en deux temps"
    powers_enabled: bool = True         # False: "Vous pouvez jouer sans appliquer les pouvoirs"
    toddlers: bool = False              # "Pour jouer avec les tous petits": no hero roll
    cliff: bool = False                 # "Mode falaise": an oracle leaving the area is lost
    fortress: bool = False              # "Mode forteresse"
    fortress_radius_mm: float = 50.0
    decks: tuple = ()                   # deck name per seat (data/dixe.toml); default "starter"
    powers: tuple = ()                  # (character, power) pairs overriding the collection
    placement_tolerance_mm: float = 3.0

    def validate(self) -> None:
        if self.players not in (2, 3, 4):
            raise OptionsError(f"PuXes is played by 2, 3 or 4 players, not {self.players}")
        if self.mode not in MODES:
            raise OptionsError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.mode in ("solo", "blitz", "coop") and self.players != 4:
            raise OptionsError(f"the {self.mode} mode is a 4-player variant (players=4)")
        for name in ("width_mm", "length_mm", "die_mm", "sacred_garden_dice", "public_garden_dice",
                     "temple_spacing_dice", "fortress_radius_mm", "placement_tolerance_mm"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise OptionsError(f"option {name} must be a non-negative number, not {value!r}")
        if self.die_mm <= 0 or self.width_mm < 8 * self.die_mm or self.length_mm < 8 * self.die_mm:
            raise OptionsError("the play area must be at least 8 dice long and wide")
        if self.temples_per_player not in (1, 2):
            raise OptionsError("temples_per_player must be 1 or 2")
        if self.oracles_per_temple < 0 or self.oracles_per_temple > 6:
            raise OptionsError("oracles_per_temple must be between 1 and 6 (0 for the rulebook's count)")
        if self.temple_lives not in (1, 2):
            raise OptionsError("temple_lives must be 1, or 2 for the advanced two-stage temples")
        count = self.players * self.temples_per_player
        if self.temples and (len(self.temples) != count or any(len(t) != 2 for t in self.temples)):
            raise OptionsError(f"temples must list {count} (x, y) centres, one per temple, seat by seat")
        if self.decks and len(self.decks) != self.players:
            raise OptionsError(f"decks must name one deck per seat ({self.players})")
        collection = default_collection()
        for deck in self.decks:
            if deck not in collection.decks:
                raise OptionsError(f"unknown deck {deck!r}; known decks: {', '.join(sorted(collection.decks))}")
        try:
            collection.with_powers(tuple(tuple(p) for p in self.powers))
        except (ValueError, TypeError) as exc:
            raise OptionsError(f"powers: {exc}") from None


@dataclasses.dataclass
class Die:
    """One DiXe on (or beside) the table, with its role in this game."""

    id: int
    name: str                 # the die's kind in the collection
    owner: int
    role: str                 # "oracle", "hero" or "temple"
    face: str | None = None
    x: float | None = None
    y: float | None = None
    angle: float = 0.0
    status: str = "play"      # oracle: play, asleep, lost, out; hero: hand, rider; temple: standing
    appeared: int = 0         # when a hero's face appeared (Protection's priority)
    home: int = 0             # the temple whose public garden the oracle belongs to


@dataclasses.dataclass
class Temple:
    index: int
    owner: int
    x: float
    y: float
    dice: tuple[int, int]
    lives: int
    status: str = "standing"  # standing, dixe, removed


@dataclasses.dataclass
class PlayerState:
    heroes: list[int]
    out: bool = False          # eliminated (or, in the cooperative mode, unable to play)
    can_wake: bool = True
    disturbed: bool = False    # set-aside heroes knocked since the last roll


#: The :class:`Place` actions :meth:`PuxesGame.legal_actions` offers, by (oracle, x, y, face):
#: values, the same in every game, made once (a frozen dataclass is slow to build).
_PLACES: dict[tuple[int, float, float, str | None], Place] = {}


def _copy_record(record: Any) -> Any:
    """A copy of a :class:`Die`, :class:`Temple` or :class:`PlayerState` (their fields are plain
    values, but for a player's list of heroes)."""
    twin = object.__new__(type(record))
    fields = record.__dict__.copy()
    if "heroes" in fields:
        fields["heroes"] = list(fields["heroes"])
    twin.__dict__ = fields
    return twin


def _copy_plain(value: Any) -> Any:
    """A copy of plain data: dicts and lists copied all the way down, everything else (numbers,
    text, tuples of them) shared."""
    kind = type(value)
    if kind is dict:
        return {k: _copy_plain(v) for k, v in value.items()}
    if kind is list:
        return [_copy_plain(v) for v in value]
    return value


@register
class PuxesGame(FlickRules, Game[PuxesOptions]):
    """PuXes: the game engine. Seats are numbered from 0; temples and dice have integer ids.

    Texts name a seat by :meth:`seat_label`: the player's name once :meth:`name_seats` has set
    one, else "player N", the rulebook's word.
    """

    NAME: ClassVar[str] = NAME
    TITLE: ClassVar[str] = "PuXes"
    OPTIONS: ClassVar[type[GameOptions]] = PuxesOptions
    SEAT_WORD: ClassVar[str] = "player"
    GOLDEN_SCENARIOS: ClassVar[tuple] = (
        ("two-players", {}, 1, 1),
        ("powers", {"powers": [["Crâne Yorick", "furtif"], ["Mr Blaireau", "coup_de_bol"],
                               ["Arkan Sonney", "immunite"], ["Hanuman", "quarante_neuf_trois"]]}, 22, 22),
        ("legends", {"decks": ["legends", "starter"], "powers": [["Kâla", "imitation"]]}, 25, 25),
        ("four-blitz", {"players": 4, "mode": "blitz"}, 5, 3),
        ("fortress-cliff", {"fortress": True, "cliff": True, "temple_lives": 2}, 6, 4),
    )

    # ---- set-up --------------------------------------------------------------------------

    def _setup(self) -> None:
        o = self.options
        self.collection: Collection = default_collection().with_powers(tuple(tuple(p) for p in o.powers))
        centres = tuple(tuple(map(float, t)) for t in o.temples) or default_temples(
            o.players, o.temples_per_player, o.length_mm, o.width_mm, o.die_mm, o.temple_spacing_dice)
        rs = sacred_radius(o.die_mm, o.sacred_garden_dice)
        fortress = (o.length_mm / 2, o.width_mm / 2, o.fortress_radius_mm) if o.fortress else None
        self.table = Table(o.length_mm, o.width_mm, o.die_mm, centres, rs, rs + o.public_garden_dice * o.die_mm, fortress)
        per_temple = o.oracles_per_temple or (4 if o.temples_per_player == 1 else 3)
        self.dice: dict[int, Die] = {}
        self.temples: list[Temple] = []
        self.players: list[PlayerState] = []
        self.queue: list[dict[str, Any]] = []
        ids = iter(range(10_000))
        for seat in range(o.players):
            deck = self.collection.decks[o.decks[seat] if o.decks else "starter"]
            for k in range(o.temples_per_player):
                index = seat * o.temples_per_player + k
                pair = []
                for name in deck["temple"][:2]:
                    die = Die(next(ids), name, seat, "temple", self.collection.known_faces(name)[0],
                              centres[index][0], centres[index][1], 0.0, "standing")
                    self.dice[die.id] = die
                    pair.append(die.id)
                self.temples.append(Temple(index, seat, centres[index][0], centres[index][1], (pair[0], pair[1]), o.temple_lives))
            names = list(deck["oracles"]) * 2
            for k in range(o.temples_per_player * per_temple):
                die = Die(next(ids), names[k], seat, "oracle", None, status="play",
                          home=seat * o.temples_per_player + k // per_temple)
                self.dice[die.id] = die
                self.queue.append({"kind": "place", "player": seat, "oracle": die.id, "temples": [die.home],
                                   "face": True, "reason": "setup"})
            heroes = []
            for name in deck["heroes"]:
                die = Die(next(ids), name, seat, "hero", None, status="hand")
                self.dice[die.id] = die
                heroes.append(die.id)
            self.players.append(PlayerState(heroes))
        self.seduced: dict[int, int] = {}      # oracle -> Petit gris hero die on top of it
        self.glued: dict[int, int] = {}        # vampirised oracle -> the vampire oracle
        self.stacked: dict[int, int] = {}      # oracle carried by Transport -> the carrier
        self.fortress_holder: int | None = None
        self.turn: dict[str, Any] = {}
        self.first_counts: dict[int, int] = {}
        self.clock = 0                          # counts rolls: when each hero face appeared
        self.turn_number = 0
        self.over = False
        self.winner_seats: tuple[int, ...] = ()
        if o.toddlers:
            self.queue.append({"kind": "start"})
        else:
            self.queue.extend({"kind": "roll", "player": CHANCE, "roller": p, "purpose": "first",
                               "heroes": list(self.players[p].heroes)} for p in range(o.players))

    def clone(self) -> PuxesGame:
        """An independent copy: the collection and the table are shared (they never change), the
        dice, temples, players, queue and turn copied (much cheaper than ``copy.deepcopy``)."""
        twin = self._clone_base()
        twin.dice = {k: _copy_record(d) for k, d in self.dice.items()}
        twin.temples = [_copy_record(t) for t in self.temples]
        twin.players = [_copy_record(p) for p in self.players]
        twin.queue = _copy_plain(self.queue)
        twin.turn = _copy_plain(self.turn)
        twin.seduced = dict(self.seduced)
        twin.glued = dict(self.glued)
        twin.stacked = dict(self.stacked)
        twin.first_counts = dict(self.first_counts)
        return twin

    # ---- small queries ---------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.options.players

    def team(self, player: int) -> int:
        return player % 2 if self.options.mode == "coop" else player

    def opposed(self, a: int, b: int) -> bool:
        """Whether seats ``a`` and ``b`` are opponents ("adverses")."""
        return self.team(a) != self.team(b)

    def oracles_of(self, player: int) -> list[int]:
        return [d.id for d in self.dice.values() if d.role == "oracle" and d.owner == player]

    def oracle_dice(self) -> list[Die]:
        return [d for d in self.dice.values() if d.role == "oracle"]

    def visible_heroes(self) -> list[Die]:
        """Hero dice showing a face, of players still in the game."""
        return [self.dice[h] for p, s in enumerate(self.players) if not s.out for h in s.heroes
                if self.dice[h].face is not None]

    def immune(self, player: int) -> bool:
        """Immunité: "Tant qu'il est visible, aucun de tes oracles ne peut être endormi"."""
        return pw.passive_in_force(self, player, "immunite")

    def movable(self, oracle: int) -> bool:
        """An oracle in play that nothing holds: not under Petit gris, not held by a vampire."""
        die = self.dice[oracle]
        return die.status == "play" and oracle not in self.seduced and oracle not in self.glued

    def next_player(self, after: int) -> int | None:
        for k in range(1, self.num_players + 1):
            seat = (after + k) % self.num_players
            if not self.players[seat].out:
                return seat
        return None

    def hero_justifies(self, player: int, face: str | None) -> list[int]:
        """The hero dice of ``player`` that let an oracle showing ``face`` move: the same symbol,
        or, for an oracle showing a character, any hero showing a character."""
        found: list[int] = []
        if face is None:
            return found
        collection = self.collection
        symbol, character = collection.is_symbol(face), collection.is_character(face)
        for h in self.players[player].heroes:
            hf = self.dice[h].face
            if hf is None:
                continue
            if symbol and hf == face:
                found.append(h)
            elif character and collection.is_character(hf):
                found.append(h)
        return found

    def may_move(self, player: int) -> list[int]:
        """The oracles ``player`` may flick now (empty unless it is that player's move)."""
        if self.over or not self.queue or self.queue[0]["kind"] != "main" or self.queue[0]["player"] != player:
            return []
        return self._move_options(player)

    def whose(self, seat: Player) -> str:
        """The possessive for ``seat`` after its label: "its" for "player N", "their" for a name."""
        return "its" if self.seat_ref(seat) == str(seat) else "their"

    def who(self, seat: Player) -> str:
        """The subject pronoun for ``seat`` after its label: "it" for "player N", "they" for a name."""
        return "it" if self.seat_ref(seat) == str(seat) else "they"

    def seats_phrase(self, seats: list[int]) -> str:
        """Several seats as the subject of a sentence: ``players 0, 1`` when none has a name, else
        ``Ada and Brice``."""
        refs = [self.seat_ref(p) for p in seats]
        if refs == [str(p) for p in seats]:
            return f"players {', '.join(refs)}"
        return " and ".join(self.seat_label(p) for p in seats)

    def has_symbol_pair(self, player: int) -> bool:
        """"une paire de symboles (et non de personnages)"."""
        faces = [self.dice[h].face for h in self.players[player].heroes]
        symbols = [f for f in faces if self.collection.is_symbol(f)]
        return len(symbols) != len(set(symbols))

    # ---- the shared interface --------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        if self.over or not self.queue:
            return ()
        return (self.queue[0]["player"],)

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> tuple[float, ...]:
        return tuple(1.0 if p in self.winner_seats else 0.0 for p in range(self.num_players))

    def legal_actions(self, player: int) -> list[Any]:
        if self.over or player not in self.current_players():
            return []
        step = self.queue[0]
        kind = step["kind"]
        if kind == "place":
            return self._place_options(step)
        if kind == "face":
            return [ChooseFace(step["oracle"], f) for f in self.collection.candidate_faces(self.dice[step["oracle"]].name)]
        if kind == "roll":
            return self._roll_options(step)
        if kind == "main":
            return self._main_options(player)
        if kind == "flick":
            return self._outcome_options(step)
        if kind == "push":
            return [PushBack(step["oracle"])]
        if kind == "carry":
            ons = (True, False) if step["power"] == "transport" else (True,)
            return [Carry(o, on) for o in step["choices"] for on in ons]
        raise AssertionError(f"unknown step {kind}")

    def check(self, player: int, action: Any) -> None:
        """The checks of :meth:`Game.check`, except that the table's reports (:class:`Roll`,
        :class:`Outcome`) and placements (:class:`Place`) are validated field by field rather
        than looked up in the representative lists :meth:`legal_actions` gives."""
        if not self.over and player in self.current_players():
            step = self.queue[0]
            if isinstance(action, Roll) and step["kind"] == "roll":
                return self._validate_roll(step, action)
            if isinstance(action, Outcome) and step["kind"] == "flick":
                return self._validate_outcome(step, action)
            if isinstance(action, Place) and step["kind"] == "place":
                return self._validate_place(step, action)
            if isinstance(action, ChooseFace) and step["kind"] == "face":
                return self._validate_face(step, action)
        super().check(player, action)

    def explain_illegal(self, player: int, action: Any) -> RuleError:
        step = self.queue[0] if self.queue else {"kind": "none"}
        if isinstance(action, Move) and step["kind"] == "main":
            return IllegalActionError(
                "symbol-match",
                f"oracle {action.oracle} may not move: \"Pour pouvoir déplacer un oracle, le symbole présent sur la "
                f"face visible de ce dernier doit également être présent sur l'un des symboles visibles de vos héros\"",
                self.render())
        if isinstance(action, Wake) and step["kind"] == "main":
            return IllegalActionError(
                "wake", "waking needs a pair of symbols on the heroes, no power used and no move this turn", self.render())
        if isinstance(action, UsePower) and step["kind"] == "main":
            return IllegalActionError(
                "power", f"{self.describe_action(action)} is not available: one active power per turn, announced before "
                "the move, shown by a visible hero and not cancelled by an opposing Protection", self.render())
        return IllegalActionError(
            "legal-action", f"{self.describe_action(action)} is not expected now (waiting for: {self._describe_step(step)})",
            self.render())

    def describe_action(self, action: Any) -> str:
        if isinstance(action, (Place, ChooseFace, UsePower, Move, Wake, PushBack, Carry, Reroll, Spit, EndTurn, Roll, Outcome)):
            fields = ", ".join(f"{k}={v}" for k, v in encode(action).items() if k != "type" and v not in (None, (), [], False))
            return f"{type(action).__name__}({fields})"
        return repr(action)

    @classmethod
    def encode_action(cls, action: Any) -> Any:
        return encode(action)

    @classmethod
    def decode_action(cls, data: Any) -> Any:
        return decode(data)

    # ---- applying --------------------------------------------------------------------------

    def _apply(self, player: int, action: Any) -> list[Event]:
        events: list[Event] = []
        self._act(player, action, events)
        return events

    def _apply_fast(self, player: int, action: Any) -> None:
        self._act(player, action, None)

    def _act(self, player: int, action: Any, events: list[Event] | None) -> None:
        """Carry out ``action``, adding what happened to ``events``; ``None`` makes no events at all
        (the fast path): every event below is made under ``if events is not None``."""
        step = self.queue[0]
        if isinstance(action, Place):
            self._do_place(step, action, events)
        elif isinstance(action, ChooseFace):
            self.queue.pop(0)
            die = self.dice[action.oracle]
            die.face = action.face
            if action.x is not None and action.y is not None:
                die.x, die.y = float(action.x), float(action.y)
            if events is not None:
                events.append(Event("placed", f"{self.seat_label(player)} turns oracle {action.oracle} to {action.face}",
                                    {"oracle": action.oracle, "face": action.face}))
        elif isinstance(action, Roll):
            self._do_roll(step, action, events)
        elif isinstance(action, UsePower):
            self._do_power(player, action, events)
        elif isinstance(action, Move):
            self._do_move(player, action, events)
        elif isinstance(action, Wake):
            die = self.dice[action.oracle]
            die.status = "play"
            self.turn["woke"] = True
            self.queue.insert(0, {"kind": "place", "player": player, "oracle": die.id, "temples": self._garden_of(die),
                                  "face": True, "reason": "wake"})
            if events is not None:
                events.append(Event("woken", f"{self.seat_label(player)} wakes oracle {die.id} (a pair of symbols) and sets it "
                                    "in the public garden",
                                    {"player": player, "oracle": die.id}))
        elif isinstance(action, PushBack):
            self.queue.pop(0)
            self.queue.insert(0, {"kind": "flick", "player": CHANCE, "what": "push", "by": player, "die": action.oracle,
                                  "temple": step["temple"]})
            if events is not None:
                events.append(Event("push", f"{self.seat_label(player)} flicks oracle {action.oracle} out of the sacred garden "
                                    f"of temple {step['temple']}",
                                    {"player": player, "oracle": action.oracle, "temple": step["temple"]}))
        elif isinstance(action, Carry):
            self._do_carry(step, action, events)
        elif isinstance(action, Reroll):
            self.turn["rerolled"] = list(action.heroes)
            self.queue.insert(0, {"kind": "roll", "player": CHANCE, "roller": player, "purpose": "bol", "heroes": list(action.heroes)})
            if events is not None:
                events.append(Event("power", f"Coup de bol: {self.seat_label(player)} rolls heroes {action.heroes[0]} and "
                                    f"{action.heroes[1]} again",
                                    {"player": player, "power": "coup_de_bol", "heroes": list(action.heroes)}))
        elif isinstance(action, Spit):
            self._do_spit(player, action, events)
        elif isinstance(action, EndTurn):
            self._end_turn(events, "ends the turn")
        elif isinstance(action, Outcome):
            self.queue.pop(0)
            self._resolve(step, action, events)
        else:
            raise AssertionError(f"unhandled action {action!r}")
        self._settle(events)

    def _settle(self, events: list[Event] | None) -> None:
        """Run what needs no decision: eliminations, the end, starting turns, ending a turn
        when nothing is left to do in it."""
        for _ in range(50):
            if self.over:
                self.queue.clear()
                return
            self._check_eliminations(events)
            if self.over:
                self.queue.clear()
                return
            if not self.queue:
                self._next_turn(events)
                continue
            step = self.queue[0]
            if step["kind"] == "start":
                self.queue.pop(0)
                self._begin_turn(0, events, rolled=True)
                continue
            if step["kind"] == "main":
                options = self._main_options(step["player"])
                if options == [EndTurn()]:
                    t = self.turn
                    if t["moves"] or t["woke"] or t["ended"]:
                        self._end_turn(events, "has nothing left to do")
                    else:
                        self._end_turn(events, "has no oracle whose symbol is on a hero: no move", kind="no-move")
                    continue
            return

    # ---- set-up, placement -----------------------------------------------------------------

    def _garden_of(self, die: Die) -> list[int]:
        """Where an oracle may be set: its home temple's garden (the cooperative mode: "Les
        oracles réveillés reviennent près de leur temple d'origine"), or, if that temple is gone,
        any standing temple of its owner."""
        home = self.temples[die.home]
        if home.owner == die.owner and home.status == "standing":
            return [die.home]
        mine = [t.index for t in self.temples if t.owner == die.owner and t.status == "standing"]
        return mine or [die.home]

    def _place_ok(self, step: dict[str, Any], x: float, y: float, angle: float, gap: float) -> str | None:
        """Why a placement breaks "les contraintes de placement", or ``None``."""
        if not self.table.inside(x, y):
            return f"({x}, {y}) is outside the play area"
        if not any(self.table.public_corners(t, x, y, angle) >= 2 for t in step["temples"]):
            return ("at least 2 corners of the oracle must be in the public garden "
                    "(\"au minimum 2 coins par oracle soient dans cette zone\")")
        for other in self.oracle_dice():
            if other.id != step["oracle"] and other.status == "play" and other.x is not None and \
                    distance((x, y), (other.x, other.y)) < gap:
                return (f"too close to oracle {other.id}: oracles stand 1 DiXe apart "
                        f"(\"à une distance d'1 DiXe les uns des autres\")")
        return None

    def _gap(self) -> float:
        return 2 * self.options.die_mm - self.options.placement_tolerance_mm

    def _free_slots(self, step: dict[str, Any], gap: float) -> list[tuple[float, float]]:
        """The garden slots of the step's temples where :meth:`_place_ok` accepts the oracle (at
        angle 0) with ``gap``: a garden slot is on the area with 2 corners in its garden, so only
        the distance to the other oracles in play is left to check."""
        oracle = step["oracle"]
        others = [(d.x, d.y) for d in self.dice.values()
                  if d.role == "oracle" and d.id != oracle and d.status == "play" and d.x is not None]
        hypot = math.hypot
        free = []
        for t in step["temples"]:
            for x, y in self.table.garden_slots(t):
                for ox, oy in others:
                    if hypot(x - ox, y - oy) < gap:
                        break
                else:
                    free.append((x, y))
        return free

    def _place_options(self, step: dict[str, Any]) -> list[Place]:
        die = self.dice[step["oracle"]]
        slots: list[tuple[float, float]] = []
        for gap in (self._gap(), self.options.die_mm):
            slots = self._free_slots(step, gap)
            if slots:
                break
        slots = slots[:6] or self.table.garden_slots(step["temples"][0])[:1]
        faces: tuple[str | None, ...] = self.collection.candidate_faces(die.name) if step["face"] else (None,)
        # (0.0 and -0.0 are one key but not one save: a Pix on a zero coordinate is made anew)
        memo = _PLACES if len(_PLACES) < 100_000 else {}
        options = []
        for x, y in slots:
            for f in faces:
                key = (die.id, x, y, f)
                place = memo.get(key) if x and y else None
                if place is None:
                    place = Place(die.id, x, y, 0.0, f)
                    if x and y:
                        memo[key] = place
                options.append(place)
        return options

    def _validate_place(self, step: dict[str, Any], action: Place) -> None:
        if action.oracle != step["oracle"]:
            raise IllegalActionError("placement", f"oracle {step['oracle']} is the one to place now, not {action.oracle}", self.render())
        for name in ("x", "y", "angle"):
            value = getattr(action, name)
            if not is_mm(value):
                raise IllegalActionError("placement", f"{name} must be a number of millimetres, not {value!r}", self.render())
        die = self.dice[action.oracle]
        if step["face"]:
            if not isinstance(action.face, str) or not self.collection.face_allowed(die.name, action.face):
                raise IllegalActionError("starting-face", f"the owner chooses the face: {action.face!r} is not a face of "
                                         f"die {die.name} ({', '.join(self.collection.known_faces(die.name))})", self.render())
        elif action.face is not None:
            raise IllegalActionError("placement", "this oracle keeps its face; give face=None", self.render())
        crowded = not self._free_slots(step, self._gap())
        why = self._place_ok(step, action.x, action.y, action.angle, self.options.die_mm if crowded else self._gap())
        if why:
            raise IllegalActionError("placement", f"oracle {die.id} cannot stand at ({action.x}, {action.y}): {why}", self.render())

    def _validate_face(self, step: dict[str, Any], action: ChooseFace) -> None:
        die = self.dice[step["oracle"]]
        if action.oracle != die.id or not isinstance(action.face, str) or not self.collection.face_allowed(die.name, action.face):
            raise IllegalActionError("immunity-face", f"the next player turns oracle {die.id} to one of its faces "
                                     f"({', '.join(self.collection.candidate_faces(die.name))}), not {action!r}", self.render())
        if (action.x is None) != (action.y is None):
            raise IllegalActionError("immunity-face", "give both x and y, or neither", self.render())
        if action.x is not None:
            for value in (action.x, action.y):
                if not is_mm(value):
                    raise IllegalActionError("immunity-face", f"positions are numbers of millimetres, not {value!r}", self.render())
            if not self.table.inside(action.x, action.y):
                raise IllegalActionError("immunity-face", f"({action.x}, {action.y}) is outside the play area: the oracle is "
                                         "put back where it left, on the area's edge", self.render())

    def _do_place(self, step: dict[str, Any], action: Place, events: list[Event] | None) -> None:
        self.queue.pop(0)
        die = self.dice[action.oracle]
        die.x, die.y, die.angle = float(action.x), float(action.y), float(action.angle)
        if action.face is not None:
            die.face = action.face
        self._unlink(die.id, events)
        reason = {"setup": "sets", "wake": "sets the woken", "replace": "puts back", "retraite": "withdraws",
                  "attrape_moi": "sets the woken"}.get(step["reason"], "places")
        if events is not None:
            events.append(Event("placed", f"{self.seat_label(step['player'])} {reason} oracle {die.id} in the public garden at "
                                f"({die.x:.0f}, {die.y:.0f}) mm showing {die.face}",
                                {"player": step["player"], "oracle": die.id, "x": die.x, "y": die.y, "face": die.face,
                                 "reason": step["reason"]}))

    # ---- rolls -----------------------------------------------------------------------------

    def _roll_options(self, step: dict[str, Any]) -> list[Roll]:
        names = tuple(self.dice[h].name for h in step["heroes"])
        first = step["purpose"] == "first"
        memo = self.collection.memo("roll_options")
        rolls = memo.get((names, first))
        if rolls is None:
            rolls = memo[names, first] = self._representative_rolls(names, first)
        return list(rolls)

    def _representative_rolls(self, names: tuple[str, ...], first: bool) -> tuple[Roll, ...]:
        """The rolls :meth:`legal_actions` offers for heroes of these kinds (they depend on nothing
        else, so each collection keeps them)."""
        known = [self.collection.candidate_faces(name) for name in names]
        rolls = []
        for j in range(8):
            faces = tuple(k[(j + 2 * i + j * i // 3) % len(k)] for i, k in enumerate(known))
            if Roll(faces) not in rolls:
                rolls.append(Roll(faces))
        if rolls:
            rolls.append(Roll(rolls[0].faces, cocked=True))
            if not first:
                rolls.append(Roll(rolls[-2].faces, touched_oracle=True))
        return tuple(rolls)

    def _validate_roll(self, step: dict[str, Any], action: Roll) -> None:
        if not isinstance(action.faces, tuple) or len(action.faces) != len(step["heroes"]):
            raise IllegalActionError("roll", f"the roll must give {len(step['heroes'])} faces, one per hero die "
                                     f"{step['heroes']}, not {action.faces!r}", self.render())
        if not isinstance(action.cocked, bool) or not isinstance(action.touched_oracle, bool):
            raise IllegalActionError("roll", "cocked and touched_oracle are true or false", self.render())
        for h, face in zip(step["heroes"], action.faces):
            name = self.dice[h].name
            if not isinstance(face, str) or not self.collection.face_allowed(name, face):
                raise IllegalActionError("roll", f"{face!r} is not a face of hero die {h} ({name})", self.render())

    def _do_roll(self, step: dict[str, Any], action: Roll, events: list[Event] | None) -> None:
        roller = step["roller"]
        if action.cocked:
            if events is not None:
                events.append(Event("roll-again", f"a die stopped on its edge or a corner: {self.seat_label(roller)} rolls the "
                                    "heroes again (\"on rejette les quatre héros\")", {"player": roller}))
            return
        if action.touched_oracle and step["purpose"] == "first":
            if events is not None:
                events.append(Event("roll-again", f"a hero touched an oracle during the first roll: {self.seat_label(roller)} rolls again "
                                    "(no turn to lose yet)", {"player": roller}))
            return
        self.queue.pop(0)
        self.clock += 1
        for h, face in zip(step["heroes"], action.faces):
            self.dice[h].face = face
            self.dice[h].appeared = self.clock
        self.players[roller].disturbed = False
        shown = ", ".join(action.faces)
        if step["purpose"] == "first":
            self.first_counts[roller] = sum(1 for f in action.faces if self.collection.is_character(f))
            if events is not None:
                events.append(Event("roll", f"{self.seat_label(roller)} rolls {shown} ({self.first_counts[roller]} characters)",
                                    {"player": roller, "faces": list(action.faces), "purpose": "first"}))
            if not any(s["kind"] == "roll" and s["purpose"] == "first" for s in self.queue):
                self._choose_first(events)
            return
        if events is not None:
            events.append(Event("roll", f"{self.seat_label(roller)} rolls {shown}",
                                {"player": roller, "faces": list(action.faces), "purpose": step["purpose"]}))
        self._protection_changes(events)
        if action.touched_oracle:
            self.turn["ended"] = True
            if events is not None:
                events.append(Event("turn-lost", f"a hero touched an oracle during the roll: {self.seat_label(roller)} passes the turn "
                                    "(\"si un héros touche un oracle, le joueur passe son tour\")", {"player": roller}))
            return
        if step["purpose"] == "turn":
            self.queue.insert(0, {"kind": "main", "player": roller})
            self._announce_passives(roller, events)

    def _choose_first(self, events: list[Event] | None) -> None:
        best = max(self.first_counts.values())
        leaders = sorted(p for p, c in self.first_counts.items() if c == best)
        if len(leaders) > 1:
            if events is not None:
                events.append(Event("roll-again", f"{self.seats_phrase(leaders)} tie with {best} characters and roll again",
                                    {"players": leaders}))
            self.first_counts = {}
            self.queue.extend({"kind": "roll", "player": CHANCE, "roller": p, "purpose": "first",
                               "heroes": list(self.players[p].heroes)} for p in leaders)
            return
        first = leaders[0]
        for p, state in enumerate(self.players):
            if p != first:
                for h in state.heroes:
                    self.dice[h].face = None
        self.first_counts = {}
        if events is not None:
            events.append(Event("first-player", f"{self.seat_label(first)} rolled the most characters and starts, keeping that roll",
                                {"player": first}))
        self._begin_turn(first, events, rolled=True)

    # ---- turns -----------------------------------------------------------------------------

    def _begin_turn(self, player: int, events: list[Event] | None, rolled: bool) -> None:
        self.turn_number += 1
        self.turn = {"player": player, "power": None, "power_hero": None, "woke": False, "moves": [], "clean": True,
                     "first_heroes": [], "rerolled": None, "spat": False, "fortress_spat": False, "barred": [],
                     "double": None, "charm_ok": True, "ended": False}
        if events is not None:
            events.append(Event("turn", f"turn {self.turn_number}: {self.seat_label(player)} plays",
                                {"player": player, "turn": self.turn_number}))
        if rolled or self.options.toddlers:
            self.queue.insert(0, {"kind": "main", "player": player})
            self._protection_changes(events)
            self._announce_passives(player, events)
        else:
            self.queue.insert(0, {"kind": "roll", "player": CHANCE, "roller": player, "purpose": "turn",
                                  "heroes": list(self.players[player].heroes)})

    def _next_turn(self, events: list[Event] | None) -> None:
        after = self.turn.get("player", -1) if self.turn else -1
        seat = self.next_player(after if after >= 0 else self.num_players - 1)
        if seat is None:
            self._finish(events)
            return
        self._begin_turn(seat, events, rolled=False)
        if not self.players[seat].heroes:
            self.queue[0] = {"kind": "main", "player": seat}

    def _end_turn(self, events: list[Event] | None, reason: str, kind: str = "turn-end") -> None:
        player = self.turn["player"]
        self.queue = [s for s in self.queue if s["kind"] != "main"]
        self.turn["ended"] = True
        if events is not None:
            events.append(Event(kind, f"{self.seat_label(player)} {reason}", {"player": player}))

    def _announce_passives(self, player: int, events: list[Event] | None) -> None:
        for other in range(self.num_players):
            if self.opposed(other, player) and not self.players[other].out and pw.passive_in_force(self, other, "ambidextre"):
                if events is not None:
                    events.append(Event("power", f"Ambidextre ({self.seat_label(other)}): {self.seat_label(player)} must use "
                                        "the non-dominant hand to roll and to flick this turn", {"player": other, "power": "ambidextre", "target": player}))
                break

    def _protection_changes(self, events: list[Event] | None) -> None:
        """"Arrête immédiatement": a Protection in force ends its opponents' Séduction."""
        for oracle, hero in list(self.seduced.items()):
            if pw.suppressed(self, self.dice[hero].owner):
                self._release_rider(oracle, events, "an opposing Protection stops Séduction")

    # ---- phase 2 and 3: the active player's choices ----------------------------------------

    def _move_options(self, player: int) -> list[int]:
        t = self.turn
        if t.get("player") != player or t["woke"] or t["ended"]:
            return []
        free = [o for o in sorted(self.oracles_of(player)) if self.movable(o) and o not in t["barred"]]
        power = t["power"]
        moves = t["moves"]
        if not moves:
            if self.options.toddlers or power == "quarante_neuf_trois":
                return free
            if power == "coup_double":
                return [o for o in free if self.dice[o].face == t["double"]]
            return [o for o in free if self.hero_justifies(player, self.dice[o].face)]
        if len(moves) == 1:
            last = moves[0]
            if power == "furtif" and t["clean"] and last in free:
                return [last]
            if power == "mega_coup_de_bol" and last in free:
                face = self.dice[last].face
                if self.collection.is_symbol(face):
                    for h in self.players[player].heroes:
                        if self.dice[h].face == face and set(t["first_heroes"]) - {h}:
                            return [last]
                return []
            if power == "coup_double":
                return [o for o in free if o != last and self.dice[o].face == t["double"]]
            if power == "coup_de_bol" and t["rerolled"] is not None:
                symbols = {self.dice[h].face for h in t["rerolled"] if self.collection.is_symbol(self.dice[h].face)}
                return [o for o in free if self.dice[o].face in symbols]
        return []

    def _main_options(self, player: int) -> list[Any]:
        t = self.turn
        state = self.players[player]
        moves = self._move_options(player)
        fresh = not t["moves"] and not t["woke"] and not t["ended"]
        options: list[Any] = []
        if fresh and t["power"] is None and not self.options.toddlers:
            options.extend(pw.power_options(self, player))
        options.extend(Move(o) for o in moves)
        if fresh and t["power"] is None and state.can_wake and not self.options.toddlers and self.has_symbol_pair(player):
            options.extend(Wake(o) for o in sorted(self.oracles_of(player)) if self.dice[o].status == "asleep")
        if len(t["moves"]) >= 1 and not t["ended"]:
            last = self.dice[t["moves"][0]]
            if t["power"] in ("charme", "coup_de_langue") and not t["spat"] and last.status == "play" and \
                    (t["power"] == "coup_de_langue" or t["charm_ok"]):
                options.append(Spit())
            if t["power"] == "coup_de_bol" and t["rerolled"] is None and len(t["moves"]) == 1:
                hand = state.heroes
                options.extend(Reroll((a, b)) for i, a in enumerate(hand) for b in hand[i + 1:])
        done = bool(t["moves"]) or t["woke"] or not moves
        if done and not t["ended"] and self.options.fortress and not t["fortress_spat"] and state.heroes and \
                self.fortress_holder is not None and self.dice[self.fortress_holder].owner == player:
            options.append(Spit(fortress=True))
        if done or t["ended"]:
            options.append(EndTurn())
        return options

    def _do_power(self, player: int, action: UsePower, events: list[Event] | None) -> None:
        t = self.turn
        power = self.collection.powers[action.power]
        t["power"], t["power_hero"] = action.power, action.hero
        via = ""
        if action.copied_from is not None:
            via = f" (Imitation of {self.seat_label(self.dice[action.copied_from].owner)}'s hero)"
        if events is not None:
            events.append(Event("power", f"{self.seat_label(player)} uses {power.title}{via}",
                                {"player": player, "power": action.power, "hero": action.hero, "target": action.target}))
        target = self.dice[action.target] if action.target is not None else None
        if action.power == "seduction":
            hero = self.dice[action.hero]
            hero.status, hero.face = "rider", None
            self.players[player].heroes.remove(hero.id)
            self.seduced[target.id] = hero.id
            if events is not None:
                events.append(Event("seduced", f"Petit gris sits on oracle {target.id} of {self.seat_label(target.owner)}: it cannot move",
                                    {"oracle": target.id, "hero": hero.id}))
        elif action.power == "contamination":
            hero = self.dice[action.hero]
            self._hero_becomes_oracle(hero, target, player)
            self._sleep(target, events, "Contamination takes its place")
            if events is not None:
                events.append(Event("contaminated", f"Rukura becomes oracle {hero.id} of {self.seat_label(player)} in place of "
                                    f"oracle {target.id}; the turn ends (\"Ton tour se termine immédiatement\")", {"oracle": hero.id, "replaced": target.id}))
            t["ended"] = True
        elif action.power == "retrograde":
            hero = self.dice[action.other]
            x, y, face = target.x, target.y, target.face
            self._unlink(target.id, events)
            if self.fortress_holder == target.id:
                self.fortress_holder = None
            self._hero_becomes_oracle(hero, target, player)
            self.players[player].heroes.append(target.id)
            target.role, target.owner, target.status, target.x, target.y = "hero", player, "hand", None, None
            target.appeared = self.clock
            if events is not None:
                events.append(Event("retrograde", f"hero {hero.id} takes the place of oracle {target.id} at ({x:.0f}, {y:.0f}) "
                                    f"and becomes an oracle of {self.seat_label(player)}; oracle {target.id} becomes a hero showing {face}",
                                    {"oracle": hero.id, "hero": target.id}))
        elif action.power in ("retraite", "attrape_moi"):
            if action.power == "attrape_moi":
                target.status = "play"
                t["barred"].append(target.id)
            self.queue.insert(0, {"kind": "place", "player": player, "oracle": target.id, "temples": self._garden_of(target),
                                  "face": action.power == "attrape_moi", "reason": action.power})
        elif action.power == "changement_d_avis":
            old = target.face
            target.face = action.face
            if events is not None:
                events.append(Event("power", f"oracle {target.id} turned from {old} to {action.face}",
                                    {"oracle": target.id, "face": action.face}))
        elif action.power == "coup_double":
            t["double"] = action.face
        elif action.power == "retente_ta_chance":
            self.queue.insert(0, {"kind": "roll", "player": CHANCE, "roller": player, "purpose": "retente",
                                  "heroes": list(self.players[player].heroes)})

    def _hero_becomes_oracle(self, hero: Die, target: Die, player: int) -> None:
        if hero.id in self.players[player].heroes:
            self.players[player].heroes.remove(hero.id)
        hero.role, hero.status, hero.owner = "oracle", "play", player
        hero.x, hero.y, hero.angle = target.x, target.y, target.angle
        hero.home = self._home_temple(player)

    def _home_temple(self, player: int) -> int:
        return next(t.index for t in self.temples if t.owner == player)

    def _do_move(self, player: int, action: Move, events: list[Event] | None) -> None:
        t = self.turn
        if not t["moves"]:
            t["first_heroes"] = self.hero_justifies(player, self.dice[action.oracle].face)
        t["moves"].append(action.oracle)
        self._unlink(action.oracle, events, moving=True)
        self.queue.insert(0, {"kind": "flick", "player": CHANCE, "what": "shot", "by": player, "die": action.oracle})
        die = self.dice[action.oracle]
        if events is not None:
            events.append(Event("flick", f"{self.seat_label(player)} flicks oracle {die.id} ({die.face})",
                                {"player": player, "oracle": die.id}))

    def _do_spit(self, player: int, action: Spit, events: list[Event] | None) -> None:
        t = self.turn
        if action.fortress:
            t["fortress_spat"] = True
            hero = self.players[player].heroes[0]
            origin = self.fortress_holder
            why = "from the fortress"
        else:
            t["spat"] = True
            hero = t["power_hero"]
            origin = t["moves"][0]
            why = "Charme" if t["power"] == "charme" else "Coup de langue"
        self.queue.insert(0, {"kind": "flick", "player": CHANCE, "what": "spit", "by": player, "die": hero,
                              "origin": origin, "power": None if action.fortress else t["power"]})
        if events is not None:
            events.append(Event("spit", f"{self.seat_label(player)} spits with hero {hero} beside oracle {origin} ({why})",
                                {"player": player, "hero": hero, "origin": origin}))

    def _do_carry(self, step: dict[str, Any], action: Carry, events: list[Event] | None) -> None:
        self.queue.pop(0)
        mover = self.dice[step["mover"]]
        taken = self.dice[action.oracle]
        if step["power"] == "transport":
            taken.x, taken.y = mover.x, mover.y
            if action.on_top:
                self.stacked[taken.id] = mover.id
            else:
                self.stacked[mover.id] = taken.id
            where = "on top of" if action.on_top else "under"
            if events is not None:
                events.append(Event("transported", f"Transport: oracle {taken.id} is carried {where} oracle {mover.id}",
                                    {"oracle": taken.id, "carrier": mover.id, "on_top": action.on_top}))
        else:
            for victim, vampire in list(self.glued.items()):
                if vampire == mover.id:
                    del self.glued[victim]
            taken.x = min(self.table.size_x, (mover.x or 0) + self.options.die_mm)
            taken.y = mover.y
            self.glued[taken.id] = mover.id
            if events is not None:
                events.append(Event("vampirised", f"Vampirisation: oracle {taken.id} is stuck to oracle {mover.id} and cannot move "
                                    "while they stay together", {"oracle": taken.id, "vampire": mover.id}))

    # ---- eliminations ------------------------------------------------------------------------

    def _check_eliminations(self, events: list[Event] | None) -> None:
        coop = self.options.mode == "coop"
        active = self.turn.get("player") if self.turn else None
        # The seats with an oracle in play and those with a temple standing, worked out again
        # after each elimination (it changes both).
        awake: set[int] = set()
        standing: set[int] = set()
        stale = True
        for p, state in enumerate(self.players):
            if state.out:
                continue
            if stale:
                awake = {d.owner for d in self.dice.values() if d.role == "oracle" and d.status == "play"}
                standing = {t.owner for t in self.temples if t.status == "standing"}
                stale = False
            if coop:
                if p not in standing and state.can_wake:
                    state.can_wake = False
                    if events is not None:
                        events.append(Event("temple-lost", f"{self.seat_label(p)} has no temple left and plays on while the partner's stands, "
                                            "but can no longer wake oracles", {"player": p}))
                team = self.team(p)
                if not any(self.team(owner) == team for owner in standing):
                    self._eliminate(p, events, "the team's temples are all DiXés", active)
                    stale = True
                elif p not in awake:
                    self._eliminate(p, events, f"all {self.whose(p)} oracles are asleep and {self.who(p)} can no longer "
                                    "play", active)
                    stale = True
            elif p not in standing:
                temples = sum(1 for t in self.temples if t.owner == p)
                self._eliminate(p, events, f"{self.whose(p)} temple is DiXé" if temples == 1
                                else f"{self.whose(p)} temples are all DiXés", active)
                stale = True
            elif p not in awake:
                self._eliminate(p, events, f"all {self.whose(p)} oracles are asleep", active)
                stale = True
        sides = {self.team(p) for p, s in enumerate(self.players) if not s.out}
        if len(sides) <= 1:
            self._finish(events)

    def _eliminate(self, player: int, events: list[Event] | None, why: str, by: int | None) -> None:
        state = self.players[player]
        state.out = True
        for h in state.heroes:
            self.dice[h].face = None
        for oracle, hero in list(self.seduced.items()):
            if self.dice[hero].owner == player:
                self._release_rider(oracle, events, f"{self.seat_label(player)} is out")
        taker = by if (self.options.mode == "blitz" and by is not None and by != player and not self.players[by].out) else None
        taken = []
        for o in self.oracles_of(player):
            die = self.dice[o]
            if die.status == "play" and taker is not None:
                die.owner = taker
                taken.append(o)
            elif die.status == "play" and self.options.mode != "coop":
                self._unlink(o, events)
                if self.fortress_holder == o:
                    self.fortress_holder = None
                die.status, die.x, die.y = "out", None, None
        if self.options.mode != "coop":
            for t in self.temples:
                if t.owner == player and t.status == "standing":
                    t.status = "removed"
        if events is not None:
            events.append(Event("eliminated", f"{self.seat_label(player)} is eliminated: {why}", {"player": player, "reason": why}))
        if taken:
            if events is not None:
                events.append(Event("takeover", f"blitz: {self.seat_label(taker)} takes control of oracles {', '.join(map(str, taken))}",
                                    {"player": taker, "oracles": taken}))
        self.queue = [s for s in self.queue if not (
            s.get("player") == player or s.get("roller") == player or
            (s["kind"] in ("place", "face", "push") and self.dice[s["oracle"]].status == "out"))]
        if self.turn and self.turn.get("player") == player:
            self.queue = [s for s in self.queue if s["kind"] != "main" and not (s["kind"] == "flick" and s["by"] == player)]
            self.turn["ended"] = True

    def _finish(self, events: list[Event] | None) -> None:
        if self.over:
            return
        alive = [p for p, s in enumerate(self.players) if not s.out]
        if not alive and self.turn:
            alive = [p for p in range(self.num_players) if self.team(p) == self.team(self.turn["player"])]
        self.over = True
        self.queue.clear()
        self.winner_seats = tuple(sorted(alive))
        who = " and ".join(self.seat_label(p) for p in self.winner_seats)
        if events is not None:
            events.append(Event("game-over", f"{who} {'win' if len(alive) > 1 else 'wins'}: gardien de la Terre",
                                {"winners": list(self.winner_seats)}))

    def winners(self) -> tuple[int, ...]:
        return self.winner_seats if self.over else ()

    # ---- views -----------------------------------------------------------------------------

    def _describe_step(self, step: dict[str, Any]) -> str:
        kind = step["kind"]
        if kind == "place":
            return f"{self.seat_label(step['player'])} to place oracle {step['oracle']} ({step['reason']})"
        if kind == "roll":
            return f"the roll of {self.seat_label(step['roller'])}'s heroes"
        if kind == "flick":
            return f"the outcome of the {step['what']} of die {step['die']}"
        if kind == "push":
            return f"{self.seat_label(step['player'])} to push oracle {step['oracle']} back"
        if kind == "main":
            return f"{self.seat_label(step['player'])} to play"
        if kind == "face":
            return f"{self.seat_label(step['player'])} to choose oracle {step['oracle']}'s face"
        if kind == "carry":
            return f"{self.seat_label(step['player'])} to choose the oracle to {step['power']}"
        return kind

    def waiting_for(self) -> str:
        """A sentence naming what the game waits for (for a dashboard)."""
        if self.over:
            return "the game is over"
        return self._describe_step(self.queue[0]) if self.queue else "nothing"

    def state_dict(self) -> dict[str, Any]:
        return {
            "dice": [dataclasses.asdict(d) for d in sorted(self.dice.values(), key=lambda d: d.id)],
            "temples": [dataclasses.asdict(t) for t in self.temples],
            "players": [dataclasses.asdict(p) for p in self.players],
            "queue": [dict(s) for s in self.queue],
            "turn": dict(self.turn),
            "turn_number": self.turn_number,
            "seduced": {str(k): v for k, v in sorted(self.seduced.items())},
            "glued": {str(k): v for k, v in sorted(self.glued.items())},
            "stacked": {str(k): v for k, v in sorted(self.stacked.items())},
            "fortress": self.fortress_holder,
            "first_counts": {str(k): v for k, v in sorted(self.first_counts.items())},
            "clock": self.clock,
            "over": self.over,
            "winners": list(self.winner_seats),
        }

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything on a PuXes table is in plain sight: every seat sees the whole state, plus
        what it may do now."""
        data = self.state_dict()
        data["waiting_for"] = self.waiting_for()
        movable = self.may_move(player) if player is not None else []
        if movable:
            data["may_move"] = movable
        return data

    def render(self) -> str:
        lines = [f"PuXes, {self.num_players} players ({self.options.mode}), turn {self.turn_number}: {self.waiting_for()}"]
        for t in self.temples:
            lines.append(f"temple {t.index} ({self.seat_label(t.owner)}) at ({t.x:.0f}, {t.y:.0f}) {t.status} lives={t.lives}")
        for p, state in enumerate(self.players):
            heroes = " ".join(f"{h}:{self.dice[h].face or '-'}" for h in state.heroes)
            flag = " OUT" if state.out else ""
            lines.append(f"{self.seat_label(p)}{flag} heroes [{heroes}]")
            for o in sorted(self.oracles_of(p)):
                d = self.dice[o]
                where = f"({d.x:.1f}, {d.y:.1f})" if d.x is not None and d.y is not None else ""
                tags = "".join([" seduced" if o in self.seduced else "", " glued" if o in self.glued else "",
                                " fortress" if o == self.fortress_holder else ""])
                lines.append(f"  oracle {o} {d.name} {d.face or '-'} {d.status} {where}{tags}".rstrip())
        if self.over:
            lines.append(f"winners: [{', '.join(self.seat_ref(p) for p in self.winner_seats)}]")
        return "\n".join(lines) + "\n"

    def check_invariants(self) -> None:
        for d in self.dice.values():
            if d.role == "oracle" and d.status == "play" and not any(
                    s["kind"] == "place" and s["oracle"] == d.id for s in self.queue):
                assert d.x is not None and d.y is not None, f"oracle {d.id} in play has no position"
                assert self.table.inside(d.x, d.y), f"oracle {d.id} in play is off the area at ({d.x}, {d.y})"
            if d.role == "oracle" and d.status in ("asleep", "lost", "out"):
                assert d.x is None, f"oracle {d.id} is {d.status} but still has a position"
        for p, state in enumerate(self.players):
            for h in state.heroes:
                assert self.dice[h].role == "hero" and self.dice[h].owner == p, f"hero list of player {p} holds die {h}"
            assert len(state.heroes) == len(set(state.heroes))
        for oracle, hero in self.seduced.items():
            assert self.dice[hero].status == "rider" and self.dice[oracle].status == "play"
        if self.over:
            assert not self.queue and self.winner_seats
        else:
            assert self.queue, "a game in progress waits for someone"
            alive = {self.team(p) for p, s in enumerate(self.players) if not s.out}
            assert len(alive) >= 2, "the game should have ended"
