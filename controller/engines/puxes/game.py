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

from controller import i18n
from controller.engines import register
from controller.engines.core import (
    CHANCE, Event, Game, GameOptions, GameOverError, IllegalActionError, NotYourTurnError, OptionsError, Player,
    RuleError,
)
from controller.engines.puxes import powers as pw
from controller.engines.puxes import rulebook, words
from controller.i18n import N_, listing, message
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


#: What placing an oracle is called, by why it is placed, and the rule it follows.
_PLACED: dict[str, tuple[str, str]] = {
    "setup": (N_("{player} sets {oracle} in the public garden at {where}."), "setup-oracles"),
    "wake": (N_("{player} sets the woken oracle in the public garden at {where}, showing {face}."), "wake-place"),
    "attrape_moi": (N_("{player} sets the woken oracle in the public garden at {where}, showing {face}."), "attrape-moi"),
    "replace": (N_("{player} puts {oracle} back in the public garden at {where}."), "push-failed"),
    "retraite": (N_("{player} withdraws {oracle} to the public garden at {where}."), "retraite"),
}

#: Why a player is eliminated: the sentence that says so and the rule it follows, by cause.
_ELIMINATED: dict[str, tuple[str, str]] = {
    "temple": (N_("{player} is eliminated: their temple is DiXé."), "temple-lost"),
    "temples": (N_("{player} is eliminated: their temples are all DiXés."), "temple-lost"),
    "asleep": (N_("{player} is eliminated: all their oracles are asleep."), "all-asleep"),
    "team-temples": (N_("{player} is eliminated: the team's temples are all DiXés."), "temple-lost"),
    "coop-asleep": (N_("{player} is eliminated: all their oracles are asleep and they can no longer play."),
                    "coop-all-asleep"),
}

#: The variants' names, as the drawing says them.
_MODES: dict[str, str] = {"standard": N_("standard game"), "solo": N_("solo mode"), "blitz": N_("blitz mode"),
                          "coop": N_("cooperative mode")}
#: An oracle's state, as the drawing says it (one in play has its place instead).
_ORACLE_STATUS: dict[str, str] = {"play": N_("waiting to be set"), "asleep": N_("asleep"),
                                  "lost": N_("lost off the cliff"), "out": N_("out of the game")}

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

    Those numbers are the engine's own: every text names a player by name and colour ("Ada (red)",
    or "Red" before :meth:`name_seats` gives names) and a die as the table sees it ("the sun oracle
    of Ada (red)"), see :mod:`.words`. Every event is a message (:meth:`Event.said`), said in each
    reader's language, and rests on a passage of the rulebook (:mod:`.rulebook`).
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

    def named(self, seat: Player) -> dict[str, Any]:
        """``seat`` as every text names it: by name and colour, "Ada (red)", or "Red" without a name."""
        return dict(words.player(seat, self.seat_names))

    def seat_label(self, seat: Player) -> str:
        """A seat in English, as :meth:`named` says it ("Ada (red)", "Red")."""
        return i18n.said(self.named(seat), i18n.SOURCE_LANGUAGE)

    def seat_ref(self, seat: Player) -> str:
        return self.seat_label(seat)

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
        """The checks of :meth:`Game.check`, in the players' words, except that the table's reports
        (:class:`Roll`, :class:`Outcome`) and placements (:class:`Place`) are validated field by field
        rather than looked up in the representative lists :meth:`legal_actions` gives."""
        if self.over:
            raise GameOverError.said("game-over", N_("the game is over: no more actions are accepted"), self.render())
        if player not in self.current_players():
            raise NotYourTurnError.said(
                "turn-order", N_("{player} is not expected to act now (waiting for {waiting})"), self.render(),
                player=self.named(player), waiting=words.players(self.current_players(), self.seat_names))
        step = self.queue[0]
        if isinstance(action, Roll) and step["kind"] == "roll":
            return self._validate_roll(step, action)
        if isinstance(action, Outcome) and step["kind"] == "flick":
            return self._validate_outcome(step, action)
        if isinstance(action, Place) and step["kind"] == "place":
            return self._validate_place(step, action)
        if isinstance(action, ChooseFace) and step["kind"] == "face":
            return self._validate_face(step, action)
        if action not in self.legal_actions(player):
            raise self.explain_illegal(player, action)

    def explain_illegal(self, player: int, action: Any) -> RuleError:
        step = self.queue[0] if self.queue else {"kind": "none"}
        if isinstance(action, Move) and step["kind"] == "main" and action.oracle in self.dice:
            return IllegalActionError.said(
                "symbol-match", N_("{oracle} may not move: its face must also show on one of the heroes of {player}"),
                self.render(), oracle=words.oracle(self, action.oracle), player=self.named(player))
        if isinstance(action, Wake) and step["kind"] == "main":
            return IllegalActionError.said(
                "wake", N_("waking needs a pair of symbols on the heroes, no power used and no move this turn"),
                self.render())
        if isinstance(action, UsePower) and step["kind"] == "main":
            return IllegalActionError.said(
                "power", N_("{action} is not possible: one active power per turn, announced before the move, shown "
                            "by a visible hero and not cancelled by an opposing Protection"),
                self.render(), action=self.action_words(action))
        return IllegalActionError.said(
            "legal-action", N_("{action} is not expected now (waiting for {waiting})"), self.render(),
            action=self.action_words(action), waiting=self.waiting_words())

    def describe_action(self, action: Any) -> str:
        """An action in English words (see :meth:`action_words`)."""
        return i18n.said(self.action_words(action), i18n.SOURCE_LANGUAGE)

    def action_words(self, action: Any) -> dict[str, Any]:
        """An action as the players say it, a message: "use Furtif", "flick the sun oracle of Ada (red)"."""
        dice = self.dice

        def oracle(die: Any) -> Any:
            return words.oracle(self, die) if isinstance(die, int) and die in dice else message(N_("an unknown die"))

        def hero(die: Any) -> Any:
            return words.hero(self, die) if isinstance(die, int) and die in dice else message(N_("an unknown die"))

        if isinstance(action, Place):
            return message(N_("set {oracle} in the public garden at {where}"), oracle=oracle(action.oracle),
                           where=words.position(action.x, action.y) if is_mm(action.x) and is_mm(action.y) else "?")
        if isinstance(action, ChooseFace):
            return message(N_("turn {oracle} to {face}"), oracle=oracle(action.oracle), face=words.face(action.face))
        if isinstance(action, UsePower):
            title = self.collection.powers[action.power].title if action.power in self.collection.powers else action.power
            if action.copied_from is not None:
                base = message(N_("use {power}, copied from {hero}"), power=title, hero=hero(action.copied_from))
            else:
                base = message(N_("use {power}"), power=title)
            if action.power == "retrograde" and action.target is not None and action.other is not None:
                return message(N_("{use}: swap {oracle} with {hero}"), use=base, oracle=oracle(action.target),
                               hero=hero(action.other))
            if action.power == "changement_d_avis" and action.target is not None:
                return message(N_("{use}: turn {oracle} to {face}"), use=base, oracle=oracle(action.target),
                               face=words.face(action.face))
            if action.power == "coup_double" and action.face is not None:
                return message(N_("{use} on the {face} oracles"), use=base, face=words.face(action.face))
            if action.target is not None:
                return message(N_("{use} on {oracle}"), use=base, oracle=oracle(action.target))
            return base
        if isinstance(action, Move):
            return message(N_("flick {oracle}"), oracle=oracle(action.oracle))
        if isinstance(action, Wake):
            return message(N_("wake {oracle}"), oracle=oracle(action.oracle))
        if isinstance(action, PushBack):
            return message(N_("push {oracle} out of the sacred garden"), oracle=oracle(action.oracle))
        if isinstance(action, Carry):
            if self.queue and self.queue[0]["kind"] == "carry" and self.queue[0]["power"] == "vampirisation":
                return message(N_("stick {oracle} to the vampire"), oracle=oracle(action.oracle))
            if action.on_top:
                return message(N_("carry {oracle} on top"), oracle=oracle(action.oracle))
            return message(N_("carry {oracle} underneath"), oracle=oracle(action.oracle))
        if isinstance(action, Reroll):
            return message(N_("roll {heroes} again"), heroes=listing(hero(h) for h in action.heroes))
        if isinstance(action, Spit):
            return message(N_("spit from the fortress")) if action.fortress else message(N_("spit"))
        if isinstance(action, EndTurn):
            return message(N_("end the turn"))
        if isinstance(action, Roll):
            faces = words.faces(action.faces) if isinstance(action.faces, tuple) else "?"
            if action.cocked:
                return message(N_("report a roll with a die on its edge or a corner"))
            if action.touched_oracle:
                return message(N_("report the roll {faces}, a hero touching an oracle"), faces=faces)
            return message(N_("report the roll {faces}"), faces=faces)
        if isinstance(action, Outcome):
            return message(N_("report where the flicked dice came to rest"))
        return message(N_("an action PuXes does not know ({action})"), action=repr(action))

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
                events.append(Event.said(
                    "placed", N_("{player} turns up {face} on the oracle of {owner} that Immunité saved."),
                    {"oracle": action.oracle, "face": action.face, "rule": "immunity-face"},
                    player=self.named(player), face=words.face(action.face), owner=self.named(die.owner)))
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
                events.append(Event.said(
                    "woken", N_("{player} wakes {oracle} with a pair of symbols and sets it in the public garden."),
                    {"player": player, "oracle": die.id}, player=self.named(player),
                    oracle=words.oracle(self, die.id, of=player)))
        elif isinstance(action, PushBack):
            self.queue.pop(0)
            self.queue.insert(0, {"kind": "flick", "player": CHANCE, "what": "push", "by": player, "die": action.oracle,
                                  "temple": step["temple"]})
            if events is not None:
                events.append(Event.said(
                    "push", N_("{player} flicks {oracle} out of {garden}."),
                    {"player": player, "oracle": action.oracle, "temple": step["temple"]}, player=self.named(player),
                    oracle=words.oracle(self, action.oracle), garden=words.garden(self, step["temple"], "sacred")))
        elif isinstance(action, Carry):
            self._do_carry(step, action, events)
        elif isinstance(action, Reroll):
            self.turn["rerolled"] = list(action.heroes)
            self.queue.insert(0, {"kind": "roll", "player": CHANCE, "roller": player, "purpose": "bol", "heroes": list(action.heroes)})
            if events is not None:
                events.append(Event.said(
                    "power", N_("Coup de bol: {player} rolls {heroes} again."),
                    {"player": player, "power": "coup_de_bol", "heroes": list(action.heroes), "rule": "coup-de-bol"},
                    player=self.named(player), heroes=words.heroes(self, action.heroes, of=player)))
        elif isinstance(action, Spit):
            self._do_spit(player, action, events)
        elif isinstance(action, EndTurn):
            self._end_turn(events, N_("{player} ends the turn."))
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
                        self._end_turn(events, N_("{player} has nothing left to do this turn."))
                    else:
                        self._end_turn(events, N_("{player} has no oracle whose symbol is on a hero: no move this "
                                                  "turn."), kind="no-move")
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

    def _place_ok(self, step: dict[str, Any], x: float, y: float, angle: float, gap: float) -> dict[str, Any] | None:
        """Why a placement breaks "les contraintes de placement" (a message), or ``None``."""
        if not self.table.inside(x, y):
            return message(N_("{where} is outside the play area"), where=words.position(x, y))
        if not any(self.table.public_corners(t, x, y, angle) >= 2 for t in step["temples"]):
            return message(N_("at least 2 corners of the oracle must be in the public garden"))
        for other in self.oracle_dice():
            if other.id != step["oracle"] and other.status == "play" and other.x is not None and \
                    distance((x, y), (other.x, other.y)) < gap:
                return message(N_("it is too close to {oracle}: oracles stand 1 DiXe apart"),
                               oracle=words.oracle(self, other.id))
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
            raise IllegalActionError.said(
                "placement", N_("{oracle} is the one to place now, not another"), self.render(),
                oracle=words.oracle(self, step["oracle"]))
        for name in ("x", "y", "angle"):
            value = getattr(action, name)
            if not is_mm(value):
                raise IllegalActionError.said("placement", N_("{name} must be a number of millimetres, not {value}"),
                                              self.render(), name=name, value=repr(value))
        die = self.dice[action.oracle]
        if step["face"]:
            if not isinstance(action.face, str) or not self.collection.face_allowed(die.name, action.face):
                raise IllegalActionError.said(
                    "starting-face", N_("the owner chooses the face: {face} is not a face of the {die} die ({faces})"),
                    self.render(), face=repr(action.face) if not isinstance(action.face, str) else action.face,
                    die=die.name, faces=words.faces(self.collection.known_faces(die.name)))
        elif action.face is not None:
            raise IllegalActionError.said("placement", N_("this oracle keeps the face it shows: give no face"),
                                          self.render())
        crowded = not self._free_slots(step, self._gap())
        why = self._place_ok(step, action.x, action.y, action.angle, self.options.die_mm if crowded else self._gap())
        if why:
            raise IllegalActionError.said("placement", N_("{oracle} cannot stand at {where}: {why}"), self.render(),
                                          oracle=words.oracle(self, die.id), where=words.position(action.x, action.y),
                                          why=why)

    def _validate_face(self, step: dict[str, Any], action: ChooseFace) -> None:
        die = self.dice[step["oracle"]]
        if action.oracle != die.id or not isinstance(action.face, str) or not self.collection.face_allowed(die.name, action.face):
            raise IllegalActionError.said(
                "immunity-face", N_("the next player turns the oracle of {owner} that Immunité saved to one of its "
                                    "faces ({faces})"),
                self.render(), owner=self.named(die.owner), faces=words.faces(self.collection.candidate_faces(die.name)))
        if (action.x is None) != (action.y is None):
            raise IllegalActionError.said("immunity-face", N_("give both x and y, or neither"), self.render())
        if action.x is not None:
            for value in (action.x, action.y):
                if not is_mm(value):
                    raise IllegalActionError.said("immunity-face", N_("positions are numbers of millimetres, not {value}"),
                                                  self.render(), value=repr(value))
            if not self.table.inside(action.x, action.y):
                raise IllegalActionError.said(
                    "immunity-face", N_("{where} is outside the play area: the oracle is put back where it left, on "
                                        "the area's edge"), self.render(), where=words.position(action.x, action.y))

    def _do_place(self, step: dict[str, Any], action: Place, events: list[Event] | None) -> None:
        self.queue.pop(0)
        die = self.dice[action.oracle]
        die.x, die.y, die.angle = float(action.x), float(action.y), float(action.angle)
        if action.face is not None:
            die.face = action.face
        self._unlink(die.id, events)
        if events is not None:
            template, rule = _PLACED.get(step["reason"], _PLACED["setup"])
            events.append(Event.said(
                "placed", template,
                {"player": step["player"], "oracle": die.id, "x": die.x, "y": die.y, "face": die.face,
                 "reason": step["reason"], "rule": rule},
                player=self.named(step["player"]), oracle=words.oracle(self, die.id, of=step["player"]),
                face=words.face(die.face), where=words.position(die.x, die.y)))

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
            raise IllegalActionError.said(
                "roll", N_("the roll must give {count} faces, one for each of {heroes}, not {given}"), self.render(),
                count=len(step["heroes"]), heroes=words.heroes(self, step["heroes"]), given=repr(action.faces))
        if not isinstance(action.cocked, bool) or not isinstance(action.touched_oracle, bool):
            raise IllegalActionError.said("roll", N_("cocked and touched_oracle are true or false"), self.render())
        for h, face in zip(step["heroes"], action.faces):
            name = self.dice[h].name
            if not isinstance(face, str) or not self.collection.face_allowed(name, face):
                raise IllegalActionError.said(
                    "roll", N_("{face} is not a face of {hero} ({faces})"), self.render(),
                    face=face if isinstance(face, str) else repr(face), hero=words.hero(self, h),
                    faces=words.faces(self.collection.known_faces(name)))

    def _do_roll(self, step: dict[str, Any], action: Roll, events: list[Event] | None) -> None:
        roller = step["roller"]
        if action.cocked:
            if events is not None:
                events.append(Event.said(
                    "roll-again", N_("A die stopped on its edge or a corner: {player} rolls the heroes again."),
                    {"player": roller, "rule": "cocked-die"}, player=self.named(roller)))
            return
        if action.touched_oracle and step["purpose"] == "first":
            if events is not None:
                events.append(Event.said(
                    "roll-again", N_("A hero touched an oracle during the first roll: {player} rolls again, as there is "
                                     "no turn to lose yet."),
                    {"player": roller, "rule": "hero-touched-oracle"}, player=self.named(roller)))
            return
        self.queue.pop(0)
        self.clock += 1
        for h, face in zip(step["heroes"], action.faces):
            self.dice[h].face = face
            self.dice[h].appeared = self.clock
        self.players[roller].disturbed = False
        if step["purpose"] == "first":
            self.first_counts[roller] = sum(1 for f in action.faces if self.collection.is_character(f))
            if events is not None:
                events.append(Event.said(
                    "roll", N_("{player} rolls {faces}: {characters}."),
                    {"player": roller, "faces": list(action.faces), "purpose": "first", "rule": "first-player"},
                    player=self.named(roller), faces=words.faces(action.faces),
                    characters=words.count_of_characters(self.first_counts[roller])))
            if not any(s["kind"] == "roll" and s["purpose"] == "first" for s in self.queue):
                self._choose_first(events)
            return
        if events is not None:
            events.append(Event.said("roll", N_("{player} rolls {faces}."),
                                     {"player": roller, "faces": list(action.faces), "purpose": step["purpose"]},
                                     player=self.named(roller), faces=words.faces(action.faces)))
        self._protection_changes(events)
        if action.touched_oracle:
            self.turn["ended"] = True
            if events is not None:
                events.append(Event.said("turn-lost", N_("A hero touched an oracle during the roll: {player} passes the "
                                                         "turn."), {"player": roller}, player=self.named(roller)))
            return
        if step["purpose"] == "turn":
            self.queue.insert(0, {"kind": "main", "player": roller})
            self._announce_passives(roller, events)

    def _choose_first(self, events: list[Event] | None) -> None:
        best = max(self.first_counts.values())
        leaders = sorted(p for p, c in self.first_counts.items() if c == best)
        if len(leaders) > 1:
            if events is not None:
                template = N_("{players} tie with {characters} each and roll again.") if best else \
                    N_("{players} tie with no character and roll again.")
                events.append(Event.said(
                    "roll-again", template, {"players": leaders, "rule": "first-player"},
                    players=words.players(leaders, self.seat_names), characters=words.count_of_characters(best)))
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
            events.append(Event.said("first-player", N_("{player} rolled the most characters and starts, keeping that "
                                                        "roll."), {"player": first}, player=self.named(first)))
        self._begin_turn(first, events, rolled=True)

    # ---- turns -----------------------------------------------------------------------------

    def _begin_turn(self, player: int, events: list[Event] | None, rolled: bool) -> None:
        self.turn_number += 1
        self.turn = {"player": player, "power": None, "power_hero": None, "woke": False, "moves": [], "clean": True,
                     "first_heroes": [], "rerolled": None, "spat": False, "fortress_spat": False, "barred": [],
                     "double": None, "charm_ok": True, "ended": False}
        if events is not None:
            events.append(Event.said("turn", N_("Turn {number}: {player} plays."),
                                     {"player": player, "turn": self.turn_number},
                                     number=self.turn_number, player=self.named(player)))
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

    def _end_turn(self, events: list[Event] | None, sentence: str, kind: str = "turn-end") -> None:
        """End the turn; ``sentence`` (marked with ``N_``, about ``{player}``) says why."""
        player = self.turn["player"]
        self.queue = [s for s in self.queue if s["kind"] != "main"]
        self.turn["ended"] = True
        if events is not None:
            events.append(Event.said(kind, sentence, {"player": player}, player=self.named(player)))

    def _announce_passives(self, player: int, events: list[Event] | None) -> None:
        for other in range(self.num_players):
            if self.opposed(other, player) and not self.players[other].out and pw.passive_in_force(self, other, "ambidextre"):
                if events is not None:
                    events.append(Event.said(
                        "power", N_("Ambidextre ({owner}): {player} must use the non-dominant hand to roll and to flick "
                                    "this turn."),
                        {"player": other, "power": "ambidextre", "target": player, "rule": "ambidextre"},
                        owner=self.named(other), player=self.named(player)))
                break

    def _protection_changes(self, events: list[Event] | None) -> None:
        """"Arrête immédiatement": a Protection in force ends its opponents' Séduction."""
        for oracle, hero in list(self.seduced.items()):
            if pw.suppressed(self, self.dice[hero].owner):
                self._release_rider(oracle, events, message(N_("An opposing Protection stops Séduction")), "protection")

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
        if events is not None:
            rule = "imitation" if action.copied_from is not None else rulebook.POWER_RULES.get(action.power, "active-power")
            data = {"player": player, "power": action.power, "hero": action.hero, "target": action.target, "rule": rule}
            if action.copied_from is not None:
                events.append(Event.said("power", N_("{player} uses {power} through Imitation, copying {hero}."), data,
                                         player=self.named(player), power=power.title,
                                         hero=words.hero(self, action.copied_from)))
            else:
                events.append(Event.said("power", N_("{player} uses {power}."), data, player=self.named(player),
                                         power=power.title))
        target = self.dice[action.target] if action.target is not None else None
        if action.power == "seduction":
            hero = self.dice[action.hero]
            hero.status, hero.face = "rider", None
            self.players[player].heroes.remove(hero.id)
            self.seduced[target.id] = hero.id
            if events is not None:
                events.append(Event.said("seduced", N_("Petit gris sits on {oracle}: it cannot move."),
                                         {"oracle": target.id, "hero": hero.id}, oracle=words.oracle(self, target.id)))
        elif action.power == "contamination":
            hero = self.dice[action.hero]
            replaced = words.oracle(self, target.id)
            self._hero_becomes_oracle(hero, target, player)
            self._sleep(target, events, message(N_("Contamination takes its place")), "contamination")
            if events is not None:
                events.append(Event.said(
                    "contaminated", N_("{hero} becomes an oracle of {player} in place of {oracle}; the turn ends at "
                                       "once."),
                    {"oracle": hero.id, "replaced": target.id}, hero=hero.name, player=self.named(player),
                    oracle=replaced))
            t["ended"] = True
        elif action.power == "retrograde":
            hero = self.dice[action.other]
            face = target.face
            swapped = (words.hero(self, hero.id), words.oracle(self, target.id))
            self._unlink(target.id, events)
            if self.fortress_holder == target.id:
                self.fortress_holder = None
            self._hero_becomes_oracle(hero, target, player)
            self.players[player].heroes.append(target.id)
            target.role, target.owner, target.status, target.x, target.y = "hero", player, "hand", None, None
            target.appeared = self.clock
            if events is not None:
                events.append(Event.said(
                    "retrograde", N_("Rétrogradé: {hero} takes the place of {oracle} and becomes an oracle of {player}, "
                                     "and that oracle becomes a hero of {player} showing {face}."),
                    {"oracle": hero.id, "hero": target.id}, hero=swapped[0], oracle=swapped[1],
                    player=self.named(player), face=words.face(face)))
        elif action.power in ("retraite", "attrape_moi"):
            if action.power == "attrape_moi":
                target.status = "play"
                t["barred"].append(target.id)
            self.queue.insert(0, {"kind": "place", "player": player, "oracle": target.id, "temples": self._garden_of(target),
                                  "face": action.power == "attrape_moi", "reason": action.power})
        elif action.power == "changement_d_avis":
            before = words.oracle(self, target.id)
            target.face = action.face
            if events is not None:
                events.append(Event.said("power", N_("Changement d'avis: {oracle} now shows {face}."),
                                         {"oracle": target.id, "face": action.face, "rule": "changement-d-avis"},
                                         oracle=before, face=words.face(action.face)))
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
        if events is not None:
            events.append(Event.said("flick", N_("{player} flicks {oracle}."), {"player": player, "oracle": action.oracle},
                                     player=self.named(player), oracle=words.oracle(self, action.oracle, of=player)))

    def _do_spit(self, player: int, action: Spit, events: list[Event] | None) -> None:
        t = self.turn
        if action.fortress:
            t["fortress_spat"] = True
            hero = self.players[player].heroes[0]
            origin = self.fortress_holder
        else:
            t["spat"] = True
            hero = t["power_hero"]
            origin = t["moves"][0]
        self.queue.insert(0, {"kind": "flick", "player": CHANCE, "what": "spit", "by": player, "die": hero,
                              "origin": origin, "power": None if action.fortress else t["power"]})
        if events is not None:
            data = {"player": player, "hero": hero, "origin": origin}
            if action.fortress:
                events.append(Event.said("spit", N_("{player} spits from the fortress with {hero}, beside {oracle}."),
                                         {**data, "rule": "fortress"}, player=self.named(player),
                                         hero=words.hero(self, hero, of=player), oracle=words.oracle(self, origin, of=player)))
            else:
                events.append(Event.said("spit", N_("{player} spits with {hero} beside {oracle} ({power})."), data,
                                         player=self.named(player), hero=words.hero(self, hero, of=player),
                                         oracle=words.oracle(self, origin, of=player),
                                         power=self.collection.powers[t["power"]].title))

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
            if events is not None:
                template = N_("Transport: {oracle} is carried on top of {carrier}.") if action.on_top else \
                    N_("Transport: {oracle} is carried under {carrier}.")
                events.append(Event.said("transported", template,
                                         {"oracle": taken.id, "carrier": mover.id, "on_top": action.on_top},
                                         oracle=words.oracle(self, taken.id), carrier=words.oracle(self, mover.id)))
        else:
            for victim, vampire in list(self.glued.items()):
                if vampire == mover.id:
                    del self.glued[victim]
            taken.x = min(self.table.size_x, (mover.x or 0) + self.options.die_mm)
            taken.y = mover.y
            self.glued[taken.id] = mover.id
            if events is not None:
                events.append(Event.said("vampirised", N_("Vampirisation: {oracle} is stuck to {vampire} and cannot move "
                                                          "while they stay together."),
                                         {"oracle": taken.id, "vampire": mover.id},
                                         oracle=words.oracle(self, taken.id), vampire=words.oracle(self, mover.id)))

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
                        events.append(Event.said(
                            "temple-lost", N_("{player} has no temple left and plays on while the partner's stands, "
                                              "but can no longer wake oracles."), {"player": p}, player=self.named(p)))
                team = self.team(p)
                if not any(self.team(owner) == team for owner in standing):
                    self._eliminate(p, events, "team-temples", active)
                    stale = True
                elif p not in awake:
                    self._eliminate(p, events, "coop-asleep", active)
                    stale = True
            elif p not in standing:
                temples = sum(1 for t in self.temples if t.owner == p)
                self._eliminate(p, events, "temple" if temples == 1 else "temples", active)
                stale = True
            elif p not in awake:
                self._eliminate(p, events, "asleep", active)
                stale = True
        sides = {self.team(p) for p, s in enumerate(self.players) if not s.out}
        if len(sides) <= 1:
            self._finish(events)

    def _eliminate(self, player: int, events: list[Event] | None, why: str, by: int | None) -> None:
        """Take ``player`` out of the game; ``why`` is one of :data:`_ELIMINATED`'s causes."""
        state = self.players[player]
        state.out = True
        for h in state.heroes:
            self.dice[h].face = None
        template, rule = _ELIMINATED[why]
        for oracle, hero in list(self.seduced.items()):
            if self.dice[hero].owner == player:
                self._release_rider(oracle, events, message(N_("{player} is out"), player=self.named(player)), rule)
        taker = by if (self.options.mode == "blitz" and by is not None and by != player and not self.players[by].out) else None
        taken = []
        taken_words = []
        for o in self.oracles_of(player):
            die = self.dice[o]
            if die.status == "play" and taker is not None:
                if events is not None:
                    taken_words.append(words.oracle(self, o))
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
            events.append(Event.said("eliminated", template, {"player": player, "reason": why, "rule": rule},
                                     player=self.named(player)))
        if taken:
            if events is not None:
                events.append(Event.said("takeover", N_("Blitz: {player} takes control of {oracles}."),
                                         {"player": taker, "oracles": taken}, player=self.named(taker),
                                         oracles=listing(taken_words)))
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
        if events is not None:
            template = N_("{winners} win and become the guardians of the Earth.") if len(self.winner_seats) > 1 else \
                N_("{winners} wins and becomes the guardian of the Earth.")
            events.append(Event.said("game-over", template, {"winners": list(self.winner_seats)},
                                     winners=words.players(self.winner_seats, self.seat_names)))

    def winners(self) -> tuple[int, ...]:
        return self.winner_seats if self.over else ()

    # ---- views -----------------------------------------------------------------------------

    def _step_words(self, step: dict[str, Any]) -> dict[str, Any]:
        """What ``step`` waits for, as a message."""
        kind = step["kind"]
        if kind == "place":
            if step["reason"] == "setup":
                return message(N_("{player} to set an oracle in the public garden"), player=self.named(step["player"]))
            return message(N_("{player} to put {oracle} in the public garden"), player=self.named(step["player"]),
                           oracle=words.oracle(self, step["oracle"], of=step["player"]))
        if kind == "roll":
            roller = step["roller"]
            if step["purpose"] == "bol":
                return message(N_("{player} to roll {heroes} again"), player=self.named(roller),
                               heroes=words.heroes(self, step["heroes"], of=roller))
            return message(N_("{player} to roll their heroes"), player=self.named(roller))
        if kind == "flick":
            if step["what"] == "spit":
                return message(N_("Waiting for the table to come to rest after {player} spits with {hero}"),
                               player=self.named(step["by"]), hero=words.hero(self, step["die"], of=step["by"]))
            if step["what"] == "push":
                return message(N_("Waiting for the table to come to rest after {player} pushes {oracle} back"),
                               player=self.named(step["by"]), oracle=words.oracle(self, step["die"]))
            return message(N_("Waiting for the table to come to rest after {player} flicks {oracle}"),
                           player=self.named(step["by"]), oracle=words.oracle(self, step["die"], of=step["by"]))
        if kind == "push":
            return message(N_("{player} to push {oracle} out of their sacred garden"), player=self.named(step["player"]),
                           oracle=words.oracle(self, step["oracle"]))
        if kind == "main":
            return message(N_("{player} to play"), player=self.named(step["player"]))
        if kind == "face":
            return message(N_("{player} to choose the face of the oracle of {owner} that Immunité saved"),
                           player=self.named(step["player"]), owner=self.named(self.dice[step["oracle"]].owner))
        if kind == "carry":
            if step["power"] == "vampirisation":
                return message(N_("{player} to choose which touched oracle Vampirisation holds"),
                               player=self.named(step["player"]))
            return message(N_("{player} to choose which touched oracle Transport carries"),
                           player=self.named(step["player"]))
        return message(N_("the game to go on"))

    def waiting_words(self) -> dict[str, Any]:
        """What the game waits for, as a message (said on each phone in its language)."""
        if self.over:
            return message(N_("the game is over"))
        return self._step_words(self.queue[0]) if self.queue else message(N_("nothing"))

    def waiting_for(self) -> str:
        """What the game waits for, in English (see :meth:`waiting_words`)."""
        return i18n.said(self.waiting_words(), i18n.SOURCE_LANGUAGE)

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
        data["waiting_message"] = self.waiting_words()
        movable = self.may_move(player) if player is not None else []
        if movable:
            data["may_move"] = movable
        return data

    def render(self, lang: str | None = None) -> str:
        """The table in words, in ``lang`` (default: the process's language): each player's temples,
        heroes and oracles, what the game waits for and, at the end, who won."""
        def say(value: Any) -> str:
            return i18n.said(value, lang)

        mode = _MODES[self.options.mode]
        lines = [say(message(N_("PuXes, {count} players, {mode}, turn {turn}: {waiting}."), count=self.num_players,
                             mode=message(mode), turn=self.turn_number, waiting=self.waiting_words()))]
        for p, state in enumerate(self.players):
            temples = listing(self._temple_words(t) for t in self.temples if t.owner == p)
            shown = [self.dice[h].face for h in state.heroes]
            if not shown:
                heroes = message(N_("no hero left"))
            elif all(f is None for f in shown):
                heroes = message(N_("heroes not rolled"))
            else:
                heroes = message(N_("heroes showing {faces}"), faces=words.faces(shown))
            template = N_("{player}, out of the game: {temples}; {heroes}.") if state.out else \
                N_("{player}: {temples}; {heroes}.")
            lines.append(say(message(template, player=self.named(p), temples=temples, heroes=heroes)))
            for o in sorted(self.oracles_of(p)):
                lines.append("  " + say(self._oracle_line(o)))
        if self.over:
            template = N_("Winners: {winners}.") if len(self.winner_seats) > 1 else N_("Winner: {winners}.")
            lines.append(say(message(template, winners=words.players(self.winner_seats, self.seat_names))))
        return "\n".join(lines) + "\n"

    def _temple_words(self, temple: Temple) -> dict[str, Any]:
        if temple.status == "standing":
            if temple.lives > 1:
                return message(N_("temple standing ({lives} lives)"), lives=temple.lives)
            return message(N_("temple standing"))
        return message(N_("temple DiXé")) if temple.status == "dixe" else message(N_("temple removed"))

    def _oracle_line(self, oracle: int) -> dict[str, Any]:
        """An oracle as the drawing lists it: its face and die, where it is, what holds it."""
        d = self.dice[oracle]
        name = message(N_("{face} oracle ({die} die)"), face=words.face(d.face), die=d.name) if d.face else \
            message(N_("oracle with no face yet ({die} die)"), die=d.name)
        if d.status == "play" and d.x is not None and d.y is not None:
            status = message(N_("in play at {where}"), where=words.position(d.x, d.y))
        else:
            status = message(_ORACLE_STATUS.get(d.status, N_("waiting to be set")))
        tags = [message(text) for held, text in ((oracle in self.seduced, N_("held by Petit gris")),
                                                 (oracle in self.glued, N_("stuck to a vampire")),
                                                 (oracle == self.fortress_holder, N_("in the fortress"))) if held]
        if tags:
            return message(N_("{oracle}: {status}, {tags}"), oracle=name, status=status, tags=listing(tags))
        return message(N_("{oracle}: {status}"), oracle=name, status=status)

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
