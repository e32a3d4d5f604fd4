"""The PuXes referee: still-table snapshots in, engine actions and announcements out.

The camera gives a :class:`TableSnapshot` each time the table comes to rest. The referee compares
it with where the engine last put every die and works out what the engine is waiting for:

- set-up: which dice stand in each public garden (they become that player's oracles, each
  showing the face its owner chose) and where the temples stand;
- a hero roll: the faces of the dice just thrown; a die on its edge (unreadable) or a hero that
  knocked an oracle;
- a flick: which oracle was played, which dice moved, which left the area, which landed in a
  sacred garden, whether a temple fell and whether that counts.

Each decision is a :class:`Call` (decision, reason citing the rule, confidence) applied to the
engine as actions. Its reason is a message in the players' words (players by name and colour, dice
as the table shows them), said in each reader's language; the rule it quotes is the rulebook passage
of the event that decided it (:mod:`controller.engines.puxes.rulebook`).

What the rules and the table settle is decided without asking: a die that did not move keeps its
face; the face of an oracle that leaves the area or falls asleep counts for nothing; a position more
than ``line_margin_mm`` from a line is on its side; touching is judged between the dice as they lie;
a die the camera lost on its way is the one die of the game no longer seen. What they do not settle
becomes a :class:`Question` first, the call made once the players answer: a face the camera cannot
read, is unsure of (below ``min_confidence``) or reads on a die that does not carry it; a distance
within ``line_margin_mm`` of a line; which sleeping oracle was woken when the camera lost several.
A question names the die as the players see it and where it lies (:mod:`controller.referee.puxes_places`),
says what the camera thinks and offers every answer, the camera's guess first; how sure the camera
was stays in its ``data``. A table that no longer fits the game (an oracle moved or gone, a die the
referee cannot tie to the game, while the game waits for something else) is said at once, as a
question answered once the players have put it right. Any call can be overruled
(:meth:`PuxesReferee.overrule`). Choices only people make (announcing a power, waking, ending the
turn, Transport's above-or-under) come in through :meth:`PuxesReferee.player_action`.

Pure logic over snapshots: no camera, no network.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller import i18n
from controller.engines.core import CHANCE, Event, RuleError
from controller.engines.puxes import PuxesGame, geometry, rulebook, words
from controller.engines.puxes.actions import (
    ChooseFace,
    Move,
    Outcome,
    Place,
    PushBack,
    Roll,
    Wake,
)
from controller.engines.puxes.game import Temple
from controller.engines.puxes.rulebook import Passage
from controller.i18n import N_, listing, message
from controller.referee import puxes_places as places
from controller.referee.common import Call, Question, RefereeConfig, RefereeError
from controller.referee.puxes_places import die_words
from controller.vision.snapshot import DieObservation, Stack, TableSnapshot

#: The rulebook passage (see :mod:`controller.engines.puxes.rulebook`) a call that changes nothing
#: rests on, by its decision: what the players must put right.
DECISION_RULES: dict[str, str] = {
    "temple-misplaced": "setup-temple", "illegal-move": "symbol-match",
}

#: The passage a refusal of the engine rests on, by the rule the engine names (``RuleError.rule``).
REFUSAL_RULES: dict[str, str] = {
    "placement": "setup-oracles", "starting-face": "setup-oracles", "symbol-match": "symbol-match",
    "wake": "wake", "power": "active-power", "immunity-face": "immunity-face",
}

#: A hero die the players say rests on an edge or a corner (the heroes are rolled again).
ON_EDGE = "on-edge"


def face_slug(name: str) -> str:
    """A face name as the camera's face library writes it: lower case, no accents, dashes for spaces."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return "-".join(plain.lower().replace("_", "-").split())


#: Which event decides a call's headline, most important first.
PRIORITY = ("game-over", "eliminated", "dixe", "own-temple", "temple-rebuilt", "push-failed", "sacred", "lost", "asleep",
            "immune", "fortress", "shot", "turn-lost", "roll-again", "moved", "roll", "placed")


def deciding(events: Sequence[Event]) -> Event | None:
    """The most important of ``events`` by :data:`PRIORITY` (the first of its kind), or ``None``."""
    for kind in PRIORITY:
        for event in events:
            if event.kind == kind:
                return event
    return None


def headline(events: Sequence[Event]) -> str | None:
    """The kind of the most important of ``events`` by :data:`PRIORITY`, or ``None``."""
    event = deciding(events)
    return event.kind if event is not None else None


def quote_of(events: Sequence[Event], decision: str | None = None) -> Passage | None:
    """The rulebook passage a call rests on: that of the event that decided it (:func:`deciding`,
    else the first event), or, for a call that changed nothing, that of its ``decision``."""
    event = deciding(events) or (events[0] if events else None)
    if event is not None:
        return rulebook.passage(rulebook.rule_of(event.kind, event.data))
    return rulebook.passage(DECISION_RULES.get(decision or ""))


def sentences(parts: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """Sentences said one after the other, as one message (``None`` when there are none)."""
    said: Mapping[str, Any] | None = None
    for part in reversed(parts):
        said = part if said is None else message(N_("{first} {rest}"), first=part, rest=said)
    return said


def gap_bounds(a: tuple[float, float], b: tuple[float, float], die: float,
               turned: tuple[tuple[float, float, float], tuple[float, float, float]] | None = None) -> tuple[float, float]:
    """The least and the greatest gap (mm) between two dice of edge ``die`` centred at ``a`` and ``b``.

    A die holds the circle of its inscribed radius and lies within that of its circumscribed one,
    so the gap lies between the centres' distance less a diagonal and less an edge. With both dice's
    ``turned`` (x, y, angle), the gap is that between the two squares (less than 0 when the camera
    sees them overlap face to face, by as much)."""
    d = math.dist(a, b)
    if turned is not None:
        gap = square_gap(turned[0], turned[1], die) or min(0.0, d - die)   # meeting: how far they overlap
        return gap, gap
    return d - die * math.sqrt(2.0), d - die


def square_gap(a: tuple[float, float, float], b: tuple[float, float, float], die: float) -> float:
    """The distance between two squares of edge ``die`` given as (x, y, angle in degrees); 0 when they
    meet or overlap."""
    pa, pb = geometry.corners(*a, die), geometry.corners(*b, die)
    for poly in (pa, pb):
        for i in range(4):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % 4]
            nx, ny = y2 - y1, x1 - x2
            sa = [nx * x + ny * y for x, y in pa]
            sb = [nx * x + ny * y for x, y in pb]
            if max(sa) < min(sb) or max(sb) < min(sa):
                break
        else:
            continue
        break
    else:
        return 0.0                                  # no separating axis: they meet

    def to_segment(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        qx, qy, rx, ry = q[0] - p[0], q[1] - p[1], r[0] - q[0], r[1] - q[1]
        length = rx * rx + ry * ry
        t = 0.0 if length == 0 else max(0.0, min(1.0, -(qx * rx + qy * ry) / length))
        return math.hypot(qx + t * rx, qy + t * ry)
    return min(to_segment(p, poly[i], poly[(i + 1) % 4]) for p_set, poly in ((pa, pb), (pb, pa))
               for p in p_set for i in range(4))


def in_english(value: Any) -> str:
    """A message in English, the language of the referee's texts and logs."""
    return i18n.said(value, i18n.SOURCE_LANGUAGE)


@dataclasses.dataclass
class _Draft:
    """A call being prepared: its facts, the questions still open about them, and how to turn the
    facts into engine actions."""

    facts: dict[str, Any]
    build: Callable[[dict[str, Any]], list[tuple[int, Any]]]
    flips: dict[str, tuple[str, Any]]            # alternative decision -> (fact, value)
    open: dict[int, tuple[str, dict[str, Any]]]  # question id -> (fact, {choice: value})
    confidence: float
    prefix: list[tuple[int, Any]] = dataclasses.field(default_factory=list)
    note: Mapping[str, Any] | None = None        # said after the call (what the players must do)
    done: Callable[[dict[str, Any]], None] | None = None   # run with the facts once the call is applied


@dataclasses.dataclass
class _Record:
    call: Call
    start: int                                   # engine history length before the call's actions
    facts: dict[str, Any]
    build: Callable[[dict[str, Any]], list[tuple[int, Any]]]
    flips: dict[str, tuple[str, Any]]
    prefix: list[tuple[int, Any]]


class PuxesReferee:
    """Referees one PuXes game from still-table snapshots.

    >>> referee = PuxesReferee(PuxesGame(seed=1))
    >>> referee.prompt()
    'Red to set an oracle in the public garden'
    """

    def __init__(self, game: PuxesGame | None = None, config: RefereeConfig | None = None) -> None:
        self.game = game or PuxesGame()
        self.config = config or RefereeConfig()
        self.binding: dict[int, int] = {}        # camera die id -> engine die id
        self.calls: list[Call] = []
        self.questions: dict[int, Question] = {}
        self._records: dict[int, _Record] = {}
        self._draft: _Draft | None = None
        self._ids = itertools.count(1)
        self._last: TableSnapshot | None = None
        self._topples_seen: set[int] = set()     # toppled stacks already ruled on
        self._consumed_at = -math.inf            # timestamp of the snapshot behind the last call
        self._names: tuple[Any, dict[str, str]] = (None, {})   # camera face name -> collection name
        self._misfit_at = -math.inf              # the still moment whose misfit was last said

    # ---- public API --------------------------------------------------------------------------

    def prompt(self) -> str:
        """What the table is waiting for, as a sentence in English (see :meth:`prompt_message`)."""
        return in_english(self.prompt_message())

    def prompt_message(self) -> Mapping[str, Any]:
        """What the table is waiting for, as a message: the players' answer to the open question, or
        what the game waits for."""
        if self.questions:
            open_questions = list(self.questions.values())
            if len(open_questions) == 1:
                return message(N_("Waiting for the players to answer: {question}"), question=open_questions[0].message)
            return message(N_("Waiting for the players to answer {count} questions, the first: {question}"),
                           count=len(open_questions), question=open_questions[0].message)
        return self.game.waiting_words()

    def may_move(self) -> list[int]:
        """The active player's oracles that may move now (engine ids)."""
        players = self.game.current_players()
        return self.game.may_move(players[0]) if players else []

    def camera_id(self, engine_id: int) -> int | None:
        for cam, eng in self.binding.items():
            if eng == engine_id:
                return cam
        return None

    def observe(self, snapshot: TableSnapshot) -> list[Call | Question]:
        """Decide what the still table shows; returns the calls made and the questions asked."""
        if not snapshot.still or snapshot.occlusions:
            return []
        self._last = snapshot
        if self.questions or self.game.is_over():
            return []
        out: list[Call | Question] = []
        for _ in range(40):
            if self.game.is_over() or self.questions:
                break
            produced = self._step(snapshot)
            if not produced:
                break
            out.extend(produced)
            if any(isinstance(p, Question) for p in produced) or all(
                    isinstance(p, Call) and not p.actions for p in produced):
                break
            if any(isinstance(a, Outcome) for p in produced if isinstance(p, Call) for _, a in p.actions):
                break   # what follows a flick (push-backs, replacements) happens on later snapshots
        if not out and not self.questions and not self.game.is_over():
            out.extend(self._misfit(snapshot))
        return out

    def answer(self, question_id: int, choice: str) -> list[Call | Question]:
        """The players' answer to a question; the pending call is made once all are answered."""
        if question_id not in self.questions:
            raise RefereeError.said(N_("there is no open question {number}; open: {open}"), number=question_id,
                                    open=listing(sorted(self.questions)) if self.questions else message(N_("none")))
        question = self.questions[question_id]
        if choice not in question.choices:
            raise RefereeError.said(N_("{choice} is not an answer to question {number}: answer {choices}"),
                                    choice=repr(choice), number=question_id,
                                    choices=listing(message(N_("“{choice}”"), choice=c) for c in question.choices))
        draft = self._draft
        assert draft is not None
        fact, values = draft.open.pop(question_id)
        del self.questions[question_id]
        value = values[choice]
        if value == "reread":
            self._draft = None
            self.questions.clear()
            return []
        draft.facts[fact] = value
        if draft.open:
            return []
        self._draft = None
        call = self._commit(draft, confidence=1.0)
        out: list[Call | Question] = [call]
        if self._last is not None and not any(isinstance(a, Outcome) for _, a in call.actions):
            out.extend(self.observe(self._last))   # as in observe: what follows a flick is seen on later snapshots
        return out

    def overrule(self, call_id: int, decision: str) -> Call:
        """Replace call ``call_id`` by one of its alternatives: the engine is rewound to just before
        it, the alternative applied, and the later actions replayed while they stay legal."""
        record = self._records.get(call_id)
        if record is None:
            raise RefereeError.said(N_("there is no call {number} to overrule"), number=call_id)
        if decision not in record.flips:
            if not record.flips:
                raise RefereeError.said(N_("call {number} cannot be overruled"), number=call_id)
            raise RefereeError.said(N_("call {number} can be overruled with {choices}, not {decision}"), number=call_id,
                                    choices=listing(message(N_("“{choice}”"), choice=c) for c in record.flips),
                                    decision=repr(decision))
        fact, value = record.flips[decision]
        facts = dict(record.facts)
        facts[fact] = value
        actions = record.prefix + record.build(facts)
        history = list(self.game.history)
        later = history[record.start + len(record.call.actions):]
        game = PuxesGame(self.game.options, seed=self.game.seed)
        game.name_seats(self.game.seat_names)
        for player, action in history[:record.start]:
            game.apply(player, action)
        events: list[Event] = []
        try:
            for player, action in actions:
                events.extend(game.apply(player, action))
        except RuleError as exc:
            raise RefereeError.said(N_("the rules refuse this reading of the table ({alternative}): {reason}"),
                                    alternative=self._alternative_words(decision, game),
                                    reason=exc.words if exc.words is not None else exc.reason) from None
        dropped = 0
        for index, (player, action) in enumerate(later):
            try:
                game.apply(player, action)
            except RuleError:
                dropped = len(later) - index
                break
        self.game = game
        self._draft = None
        self.questions.clear()
        if dropped:
            prefix = message(N_("Call {number} is overruled; {dropped} later actions no longer apply and were dropped."),
                             number=call_id, dropped=dropped)
        else:
            prefix = message(N_("Call {number} is overruled."), number=call_id)
        call = self._make_call(decision, events, actions, 1.0, prefix=prefix, overrules=call_id,
                               alternatives=tuple(k for k in record.flips if k != decision))
        flips = {k: v for k, v in record.flips.items() if k != decision}
        flips[f"restore-{call_id}"] = (fact, record.facts[fact])
        self._records[call.call_id] = _Record(call, record.start, facts, record.build, flips, record.prefix)
        return call

    def player_action(self, player: int, action: Any) -> Call:
        """A choice a player made at the table or on the dashboard (a power, a wake, the end of the
        turn...), checked by the engine; a ``RuleError`` says why it is refused."""
        start = len(self.game.history)
        events = self.game.apply(player, action)
        if self._last is not None:
            self._consumed_at = max(self._consumed_at, self._last.timestamp)
        call = self._make_call(None, events, [(player, action)], 1.0, announced=True)
        self._records[call.call_id] = _Record(call, start, {}, lambda f: [], {}, [])
        return call

    def checkpoint(self) -> RefereeCheckpoint:
        """What :meth:`restore` needs to put the referee back exactly as it is now, taken cheaply
        enough to do before every still snapshot.

        The game is not copied: it only ever grows by appending actions (or is replaced whole by an
        overrule), so its object and history length are enough to rebuild it. The referee's own
        containers are copied one level deep; what they hold (calls, questions, call records,
        camera observations) is never changed once made. The draft call is the exception: answers
        fill it in place, so its facts and open questions are copied too."""
        following = next(self._ids)
        self._ids = itertools.count(following)
        state = {name: _copied(value) for name, value in vars(self).items() if name not in ("game", "_ids")}
        return RefereeCheckpoint(self.game, len(self.game.history), following, state)

    def restore(self, checkpoint: RefereeCheckpoint) -> None:
        """Put the referee back as it was when ``checkpoint`` was taken (the same object, so whoever
        holds it sees the restored state). A game that went on in place is rebuilt by replaying the
        actions it had then, which the engine reproduces exactly."""
        game = checkpoint.game
        if len(game.history) != checkpoint.actions:
            rebuilt = PuxesGame(game.options, seed=game.seed)
            rebuilt.name_seats(game.seat_names)
            for player, action in game.history[:checkpoint.actions]:
                rebuilt.apply_unchecked(player, action)
            game = rebuilt
        vars(self).clear()
        vars(self).update({name: _copied(value) for name, value in checkpoint.state.items()})
        self.game = game
        self._ids = itertools.count(checkpoint.following)

    # ---- one step of what the engine waits for -------------------------------------------------

    def _step(self, snap: TableSnapshot) -> list[Call | Question]:
        step = self.game.queue[0] if self.game.queue else None
        if step is None:
            return []
        kind = step["kind"]
        if kind == "place":
            return self._place(step, snap)
        if kind == "roll":
            return self._roll(step, snap)
        if kind == "main":
            return self._main(step, snap)
        if kind == "flick":
            return self._flick(step, snap, prefix=[])
        if kind == "push":
            return self._push(step, snap)
        if kind == "face":
            return self._face(step, snap)
        return []

    # set-up and placements

    def _area(self, obs: DieObservation) -> tuple[float, float]:
        ox, oy = self.config.area_origin_mm
        return (obs.x_mm - ox, obs.y_mm - oy)

    def _bind_temples(self, snap: TableSnapshot) -> list[Call | Question]:
        for temple in self.game.temples:
            if temple.status != "standing" or temple.dice[0] in self.binding.values():
                continue
            near = [s for s in snap.stacks if not s.toppled and self._stands_on(s, temple)]
            if not near:
                return [self._make_call("temple-misplaced", [], [], 1.0, prefix=message(
                    N_("{temple} must stand at {where}: build it there before setting the oracles."),
                    temple=words.temple(self.game, temple.index, start=True), where=words.position(temple.x, temple.y)))]
            stack = near[0]
            for cam, eng in zip(stack.dice, temple.dice):
                self.binding[cam] = eng
        return []

    def _place(self, step: dict[str, Any], snap: TableSnapshot) -> list[Call | Question]:
        problems = self._bind_temples(snap)
        if problems:
            return problems
        game = self.game
        oracle = game.dice[step["oracle"]]
        cam = self.camera_id(oracle.id)
        candidates: list[DieObservation] = []
        if cam is not None:
            obs = self._find(snap, cam)
            if obs is not None and obs.on_mat and self._in_garden(step, obs):
                candidates = [obs]
        else:
            bound = set(self.binding)
            for obs in sorted(snap.dice, key=lambda d: d.die_id):
                if obs.die_id in bound or obs.level != 1 or obs.stack_id is not None or not obs.on_mat:
                    continue
                if not self._in_garden(step, obs):
                    continue
                if step["face"] and self._label(obs) is not None and not game.collection.face_allowed(oracle.name, self._label(obs)):
                    continue
                candidates.append(obs)
        if not candidates:
            return []
        obs = candidates[0]
        x, y = self._area(obs)
        facts: dict[str, Any] = {"face": self._label(obs) if step["face"] else None}
        player, oracle_id, wants_face = step["player"], oracle.id, step["face"]

        def build(f: dict[str, Any]) -> list[tuple[int, Any]]:
            return [(player, Place(oracle_id, round(x, 1), round(y, 1), round(obs.angle_deg, 1) % 90,
                                   f["face"] if wants_face else None))]

        draft = _Draft(facts, build, {}, {}, obs.face.confidence if wants_face else 1.0)
        if wants_face:
            choices = list(self._face_choices(oracle.id))
            if self._doubt(oracle_id, obs) is not None:
                self.binding[obs.die_id] = oracle_id
                return [self._ask_face(draft, "face", oracle_id, obs, "placed-face")]
            draft.flips = {f"face:{c}": ("face", c) for c in choices if c != self._label(obs)}
        self.binding[obs.die_id] = oracle_id
        return [self._commit(draft, draft.confidence)]

    def _in_garden(self, step: dict[str, Any], obs: DieObservation) -> bool:
        x, y = self._area(obs)
        return any(self.game.table.public_corners(t, x, y, obs.angle_deg) >= 2 for t in step["temples"])

    def _face(self, step: dict[str, Any], snap: TableSnapshot) -> list[Call | Question]:
        obs = self._find(snap, self.camera_id(step["oracle"]))
        if obs is None:
            return []
        oracle = step["oracle"]
        player = step["player"]
        x, y = self._area(obs)
        x = round(min(max(x, 0.0), self.game.table.size_x), 1)
        y = round(min(max(y, 0.0), self.game.table.size_y), 1)
        draft = _Draft({"face": self._label(obs)}, lambda f: [(player, ChooseFace(oracle, f["face"], x, y))], {}, {},
                       obs.face.confidence)
        if self._doubt(oracle, obs) is not None:
            return [self._ask_face(draft, "face", oracle, obs, "oracle-face", text=message(
                N_("Which face did {player} turn up on the oracle of {owner} that Immunité saved, {where}?"),
                player=self.game.named(player), owner=self.game.named(self.game.dice[oracle].owner),
                where=places.where(self.game, *self._area(obs), obs.angle_deg)))]
        return [self._commit(draft, draft.confidence)]

    # hero rolls

    def _roll(self, step: dict[str, Any], snap: TableSnapshot) -> list[Call | Question]:
        game = self.game
        if snap.timestamp <= self._consumed_at:
            return []                             # a new roll needs a new throw, seen on a later snapshot
        heroes: list[int] = step["heroes"]
        observed: dict[int, DieObservation] = {}
        unbound_heroes = [h for h in heroes if self.camera_id(h) is None]
        for h in heroes:
            cam = self.camera_id(h)
            if cam is not None:
                obs = self._find(snap, cam)
                if obs is None:
                    unbound_heroes.append(h)      # the camera lost it as it was thrown: found among new dice
                    continue
                if cam not in snap.moved:
                    return []                     # only dice just thrown are read
                observed[h] = obs
        if unbound_heroes:
            pool = [d for d in self._strangers(snap) if not snap.moved or d.die_id in snap.moved]
            if len(pool) < len(unbound_heroes):
                return []
            match = self._match_faces(unbound_heroes, pool)
            if match is None:
                return [self._make_call("unknown-dice", [], [], 1.0, prefix=message(
                    N_("The dice rolled ({faces}) do not fit the heroes of {player}: check the collection file or roll "
                       "the right dice."),
                    faces=words.faces(self._label(d) or d.face.label for d in pool),
                    player=game.named(step["roller"])))]
            for h, obs in match.items():
                self._bind(obs.die_id, h, snap)
                observed[h] = obs
        knocked = self._displaced_oracles(snap)
        touched = step["purpose"] != "first" and bool(knocked)
        facts: dict[str, Any] = {"cocked": False, "touched": touched}
        for h in heroes:
            facts[f"face:{h}"] = self._label(observed[h])

        def build(f: dict[str, Any]) -> list[tuple[int, Any]]:
            if f["cocked"] or any(f[f"face:{h}"] == ON_EDGE for h in heroes):
                faces = tuple(f[f"face:{h}"] if f[f"face:{h}"] not in (None, ON_EDGE)
                              else game.collection.candidate_faces(game.dice[h].name)[0] for h in heroes)
                return [(CHANCE, Roll(faces, cocked=True))]
            return [(CHANCE, Roll(tuple(f[f"face:{h}"] for h in heroes), touched_oracle=f["touched"]))]

        confidence = min((observed[h].face.confidence for h in heroes), default=1.0)
        draft = _Draft(facts, build, {"roll-again": ("cocked", True), "turn-lost" if not touched else "turn-kept":
                                      ("touched", not touched)}, {}, confidence)
        if knocked:
            template = N_("Put {oracles} back where it stood.") if len(knocked) == 1 else \
                N_("Put {oracles} back where they stood.")
            draft.note = message(template, oracles=listing(
                message(N_("{oracle} {where}"), oracle=words.oracle(game, o),
                        where=places.where(game, game.dice[o].x, game.dice[o].y, game.dice[o].angle or 0.0))
                for o in knocked))
        asked: list[Call | Question] = []
        for h in heroes:
            if self._doubt(h, observed[h]) is not None:
                asked.append(self._ask_face(draft, f"face:{h}", h, observed[h], "hero-face"))
        return asked or [self._commit(draft, confidence)]

    def _doubt(self, die_id: int, obs: DieObservation) -> str | None:
        """Why the reading of engine die ``die_id`` needs the players (``None``: it does not):
        ``"unreadable"`` (no face read), ``"not-on-die"`` (a face its die does not carry) or
        ``"unsure"`` (below ``min_confidence``)."""
        label = self._label(obs)
        if label is None:
            return "unreadable"
        if not self.game.collection.face_allowed(self.game.dice[die_id].name, label):
            return "not-on-die"
        if obs.face.confidence < self.config.min_confidence:
            return "unsure"
        return None

    def _reading(self, die_id: int, obs: DieObservation) -> Mapping[str, Any]:
        """Why a reading is doubted, in the players' words: what the camera thinks it shows (how sure
        it is stays in the question's data, for the log)."""
        doubt = self._doubt(die_id, obs)
        label = self._label(obs)
        if doubt == "unreadable" or label is None:
            return message(N_("The camera cannot read its top face."))
        if doubt == "not-on-die":
            return message(N_("The camera sees {face}, which this die does not carry."), face=words.face(label))
        return message(N_("The camera thinks it shows {face} but is not sure."), face=words.face(label))

    def _ask_face(self, draft: _Draft, fact: str, die_id: int, obs: DieObservation, kind: str,
                  text: Mapping[str, Any] | None = None) -> Question:
        """Ask which face engine die ``die_id`` shows: the die by what it is and where it lies, what
        the camera thinks, and every face it may show, the camera's guess first. A hero the camera
        cannot read may also rest on an edge (the heroes are rolled again)."""
        game = self.game
        x, y = self._area(obs)
        spot = places.where(game, x, y, obs.angle_deg)
        doubt = self._doubt(die_id, obs)
        label = self._label(obs)
        guess = label if doubt == "unsure" else None
        faces = self._face_choices(die_id)
        ordered = ([guess] if guess in faces else []) + [f for f in faces if f != guess]
        choices: dict[str, Any] = {c: c for c in ordered}
        said: dict[str, Any] = {}
        if text is None:
            text = message(N_("Which face does {die}, {where}, show?"), die=die_words(game, die_id), where=spot)
        if kind == "hero-face" and doubt == "unreadable":
            choices.update({"on-edge": ON_EDGE, "read-again": "reread"})
            said = {"on-edge": message(N_("on an edge: roll again")),
                    "read-again": message(N_("it lies flat: read it again"))}
        about = {"about": kind, "die": die_id, "camera": obs.die_id, "x": round(obs.x_mm, 1), "y": round(obs.y_mm, 1),
                 "why": doubt, "guess": guess, "colour": obs.colour,
                 "reading": {"face": obs.face.label, "confidence": round(obs.face.confidence, 3)}}
        about["oracle" if game.dice[die_id].role == "oracle" else "hero"] = die_id
        return self._ask(draft, fact, text, choices, self._reading(die_id, obs), about=about, said=said)

    def _face_choices(self, die_id: int) -> tuple[str, ...]:
        """Every face engine die ``die_id`` may show (see :meth:`Collection.possible_faces`)."""
        return self.game.collection.possible_faces(self.game.dice[die_id].name)

    def _match_faces(self, heroes: list[int], pool: list[DieObservation]) -> dict[int, DieObservation] | None:
        coll = self.game.collection
        for combo in itertools.permutations(pool, len(heroes)):
            if all(self._label(obs) is None or coll.face_allowed(self.game.dice[h].name, self._label(obs))
                   for h, obs in zip(heroes, combo)):
                return dict(zip(heroes, combo))
        return None

    # moves and flicks

    def _displaced_oracles(self, snap: TableSnapshot) -> list[int]:
        """Engine oracles in play whose die is gone or has moved from where the engine has it."""
        found = []
        for d in self.game.oracle_dice():
            if d.status != "play" or d.x is None:
                continue
            cam = self.camera_id(d.id)
            if cam is None:
                continue
            obs = self._find(snap, cam)
            if obs is None or not obs.on_mat:
                found.append(d.id)
                continue
            x, y = self._area(obs)
            if math.hypot(x - d.x, y - d.y) > self.config.still_mm:
                found.append(d.id)
        return found

    def _main(self, step: dict[str, Any], snap: TableSnapshot) -> list[Call | Question]:
        game = self.game
        player = step["player"]
        displaced = self._displaced_oracles(snap)
        if not displaced:
            return self._maybe_wake(player, snap)
        options = game.may_move(player)
        played = [o for o in displaced if o in options]
        if not played:
            mine = [o for o in displaced if game.dice[o].owner == player] or displaced
            moved = words.oracles(game, mine, of=player)
            back = message(N_("put it back where it was")) if len(mine) == 1 else \
                message(N_("put them back where they were"))
            if options:
                why = message(N_("{player} may move only {allowed} now, but {moved} moved: {back}."),
                              player=game.named(player), allowed=words.oracles(game, options, of=player), moved=moved,
                              back=back)
            else:
                why = message(N_("{player} may move no oracle now, but {moved} moved: {back}."),
                              player=game.named(player), moved=moved, back=back)
            return [self._make_call("illegal-move", [], [], 1.0, prefix=why)]
        if len(played) > 1:
            played.sort(key=lambda o: -self._travel(o, snap))
        return self._flick({"what": "shot", "by": player, "die": played[0]}, snap,
                           prefix=[(player, Move(played[0]))])

    def _maybe_wake(self, player: int, snap: TableSnapshot) -> list[Call | Question]:
        """A sleeping oracle of ``player`` now in their public garden: they woke it. The camera may
        have lost the die on its way there (it then sees a die it does not know in the garden): it is
        the one sleeping oracle no longer seen where it was set aside, or the players say which."""
        game = self.game
        legal = [a for a in game.legal_actions(player) if isinstance(a, Wake)]
        gardens = {"temples": [t.index for t in game.temples if t.owner == player and t.status == "standing"]}
        for action in legal:
            obs = self._find(snap, self.camera_id(action.oracle))
            if obs is not None and obs.on_mat and self._in_garden(gardens, obs):
                return [self.player_action(player, action)]
        strangers = [d for d in self._strangers(snap) if self._in_garden(gardens, d)]
        if not strangers or not legal:
            return []
        new = strangers[0]
        gone = [a.oracle for a in legal if self._find(snap, self.camera_id(a.oracle)) is None]
        if len(gone) == 1:
            self._bind(new.die_id, gone[0], snap)
            return [self.player_action(player, Wake(gone[0]))]
        if not gone:
            return []
        draft = _Draft({"woke": None}, lambda f: [(player, Wake(f["woke"]))], {}, {}, 1.0,
                       done=lambda f: self._bind(new.die_id, f["woke"], snap))
        x, y = self._area(new)
        choices = {f"oracle-{o}": o for o in gone}
        said = {f"oracle-{o}": message(N_("{die}, which showed {face}"), die=die_words(game, o),
                                       face=words.face(game.dice[o].face)) for o in gone}
        return [self._ask(draft, "woke", message(N_("{player} set a die {where}: which of their sleeping oracles is it?"),
                                                 player=game.named(player), where=places.where(game, x, y, new.angle_deg)),
                          choices, message(N_("The camera lost sight of the die on its way to the garden.")),
                          about={"about": "woke", "why": "lost", "camera": new.die_id, "x": round(new.x_mm, 1),
                                 "y": round(new.y_mm, 1), "candidates": gone}, said=said)]

    def _follow_lost(self, snap: TableSnapshot, displaced: Sequence[int]) -> None:
        """One moved oracle no longer seen and one die the referee does not know just come onto the mat:
        the camera lost that oracle on its way (nothing else brings a die onto the table during a shot),
        so the new die is tied to it. A die fallen from a temple is not taken for one."""
        missing = [o for o in displaced if self._find(snap, self.camera_id(o)) is None]
        strangers = [d for d in self._strangers(snap) if d.die_id in snap.moved and not self._fell_from_temple(snap, d)]
        if len(missing) == 1 and len(strangers) == 1:
            self._bind(strangers[0].die_id, missing[0], snap)

    def _misfit(self, snap: TableSnapshot) -> list[Question]:
        """The table no longer fits the game and nothing the game waits for explains it: an oracle in
        play gone from where the game has it, or not seen at all. Said at once, as a question the
        players answer once they have put the table right (asked once for each still moment)."""
        step = self.game.queue[0] if self.game.queue else None
        if step is None or snap.timestamp <= self._consumed_at or snap.timestamp == self._misfit_at:
            return []
        game = self.game
        if step["kind"] == "main" and all(self.camera_id(h) is not None for p in game.players for h in p.heroes):
            new = next((d for d in self._strangers(snap) if d.die_id in snap.moved
                        and game.table.inside(*self._area(d))), None)
            if new is not None:
                self._misfit_at = snap.timestamp
                x, y = self._area(new)
                draft = _Draft({"fit": None}, lambda f: [], {}, {}, 1.0)
                return [self._ask(draft, "fit", message(N_("The camera sees a die it cannot tie to the game {where}."),
                                                        where=places.where(game, x, y, new.angle_deg)),
                                  {"read-again": "reread"},
                                  message(N_("The table no longer fits the game: take away a die that is not in the "
                                             "game, or set the die back where the game has it, then read the table "
                                             "again.")),
                                  about={"about": "misfit", "why": "misfit", "camera": new.die_id,
                                         "x": round(new.x_mm, 1), "y": round(new.y_mm, 1), "step": "main"},
                                  said={"read-again": message(N_("done: read the table again"))})]
        if step["kind"] in ("main", "flick"):
            return []
        busy = {step.get("oracle")}
        for d in game.oracle_dice():
            cam = self.camera_id(d.id)
            if d.status != "play" or d.x is None or cam is None or d.id in busy:
                continue
            obs = self._find(snap, cam)
            where = places.where(game, d.x, d.y, d.angle or 0.0)
            if obs is None or not obs.on_mat:
                text = message(N_("The camera no longer sees {die}, which the game has {where}."),
                               die=die_words(game, d.id), where=where)
            elif math.hypot(self._area(obs)[0] - d.x, self._area(obs)[1] - d.y) > self.config.still_mm:
                text = message(N_("The camera sees that {die} moved: the game has it {where}."),
                               die=die_words(game, d.id), where=where)
            else:
                continue
            self._misfit_at = snap.timestamp
            draft = _Draft({"fit": None}, lambda f: [], {}, {}, 1.0)
            return [self._ask(draft, "fit", text, {"read-again": "reread"},
                              message(N_("The table no longer fits the game: put the die back where the game has it, "
                                         "then read the table again.")),
                              about={"about": "misfit", "why": "misfit", "oracle": d.id, "die": d.id, "camera": cam,
                                     "x": round(d.x + self.config.area_origin_mm[0], 1),
                                     "y": round(d.y + self.config.area_origin_mm[1], 1), "step": step["kind"]},
                              said={"read-again": message(N_("it is back: read the table again"))})]
        return []

    def _strangers(self, snap: TableSnapshot) -> list[DieObservation]:
        """Dice lying alone on the mat that the referee cannot take for a die of the game, by id: dice
        it has never tied to one, and dice tied to a temple die that lie apart while that temple
        stands (the camera swapped them with a die of the temple), unless they lie where a toppled
        temple's dice fell (see :meth:`_follow_lost` for the dice it never tied)."""
        out = []
        for d in snap.dice:
            if d.level != 1 or d.stack_id is not None or not d.on_mat:
                continue
            eng = self.binding.get(d.die_id)
            if eng is not None:
                temple = next((t for t in self.game.temples if eng in t.dice), None)
                if temple is None or temple.status != "standing" or self._fell_from_temple(snap, d):
                    continue
            out.append(d)
        return sorted(out, key=lambda d: d.die_id)

    def _fell_from_temple(self, snap: TableSnapshot, d: DieObservation) -> bool:
        """Whether ``d`` lies where a temple toppled in ``snap`` scattered its dice (within a die)."""
        return any(math.hypot(d.x_mm - px, d.y_mm - py) <= self.game.options.die_mm
                   for s in snap.stacks if s.toppled for px, py in s.scattered_to)

    def _bind(self, cam: int, engine: int, snap: TableSnapshot | None = None) -> None:
        """Tie camera die ``cam`` to engine die ``engine``, forgetting any other camera die tied to it.
        When ``cam`` was tied to another die and ``engine``'s old camera die is still seen, the camera
        swapped the two: the old one takes the other's place."""
        old = [c for c, e in self.binding.items() if e == engine]
        before = self.binding.get(cam)
        for other in old:
            del self.binding[other]
        self.binding[cam] = engine
        seen = {d.die_id for d in snap.dice} if snap is not None else set()
        if before is not None and before != engine and old and old[0] in seen:
            self.binding[old[0]] = before

    def _travel(self, oracle: int, snap: TableSnapshot) -> float:
        d = self.game.dice[oracle]
        obs = self._find(snap, self.camera_id(oracle))
        if obs is None or not obs.on_mat:
            return math.inf
        x, y = self._area(obs)
        return math.hypot(x - (d.x or 0), y - (d.y or 0))

    def _push(self, step: dict[str, Any], snap: TableSnapshot) -> list[Call | Question]:
        if step["oracle"] not in self._displaced_oracles(snap):
            return []
        return self._flick({"what": "push", "by": step["player"], "die": step["oracle"], "temple": step["temple"]}, snap,
                           prefix=[(step["player"], PushBack(step["oracle"]))])

    def _flick(self, step: dict[str, Any], snap: TableSnapshot, prefix: list[tuple[int, Any]]) -> list[Call | Question]:
        """Work out an :class:`Outcome` from the snapshot, asking where a fact is too close to call."""
        game = self.game
        cfg = self.config
        die_mm = game.options.die_mm
        displaced = self._displaced_oracles(snap)
        if not prefix and not displaced and not any(s.toppled for s in snap.stacks):
            spitter = self.camera_id(step["die"]) if step["what"] == "spit" else None
            if spitter is None or spitter not in snap.moved or snap.timestamp <= self._consumed_at:
                return []
        played = step["die"] if step["what"] != "spit" else None
        facts: dict[str, Any] = {}
        questions: list[tuple[str, Mapping[str, Any], dict[str, Any], Mapping[str, Any], dict[str, Any]]] = []
        flips: dict[str, tuple[str, Any]] = {}
        rests: dict[int, tuple[float, float, float, str | None]] = {}
        if played is not None and played not in displaced:
            displaced.append(played)
        self._follow_lost(snap, displaced)
        confidence = 1.0
        doubted: dict[int, DieObservation] = {}     # oracles whose face the camera cannot say surely
        for o in displaced:
            obs = self._find(snap, self.camera_id(o))
            die = game.dice[o]
            if obs is None or not obs.on_mat:
                facts[f"left:{o}"] = True
                flips[f"in:{o}"] = (f"left:{o}", False)
                continue
            x, y = self._area(obs)
            margin = min(x, y, game.table.size_x - x, game.table.size_y - y)
            facts[f"left:{o}"] = margin < 0
            flips[f"{'in' if margin < 0 else 'out'}:{o}"] = (f"left:{o}", margin >= 0)
            about = {"oracle": o, "die": o, "camera": obs.die_id, "x": round(obs.x_mm, 1), "y": round(obs.y_mm, 1)}
            if abs(margin) <= cfg.line_margin_mm:
                questions.append((f"left:{o}", message(N_("Did {die} leave the play area? Its centre is right on the edge."),
                                                       die=die_words(game, o)),
                                  {"yes": True, "no": False},
                                  message(N_("Too close to the edge for the camera to tell.")),
                                  {"about": "left", "why": "line", "distance_mm": round(margin, 1), **about}))
            face = self._label(obs)
            if self._doubt(o, obs) is not None:
                doubted[o] = obs
                face = None
            facts[f"face:{o}"] = face
            confidence = min(confidence, obs.face.confidence if face is not None else 1.0)
            rests[o] = (min(max(x, 0.0), game.table.size_x), min(max(y, 0.0), game.table.size_y), obs.angle_deg % 90, face)
            for temple in game.temples:
                if temple.status != "standing" or not game.opposed(die.owner, temple.owner):
                    continue
                gap = min(math.hypot(cx - temple.x, cy - temple.y) for cx, cy in game.table.corners(x, y, obs.angle_deg)) \
                    - game.table.sacred_radius
                key = f"sacred:{o}:{temple.index}"
                facts[key] = gap < 0
                flips[f"{'clear' if gap < 0 else 'sacred'}:{o}:{temple.index}"] = (key, gap >= 0)
                if abs(gap) <= cfg.line_margin_mm:
                    questions.append((key, message(N_("Is {die} in {garden}? Its nearest corner is right on the line."),
                                                   die=die_words(game, o),
                                                   garden=words.garden(game, temple.index, "sacred")),
                                      {"yes": True, "no": False},
                                      message(N_("Too close to the line for the camera to tell.")),
                                      {"about": "sacred", "why": "line", "temple": temple.index,
                                       "distance_mm": round(gap, 1), **about}))
            if game.options.fortress and game.table.fortress is not None:
                fx, fy, fr = game.table.fortress
                gap = math.hypot(x - fx, y - fy) - fr
                facts[f"fortress:{o}"] = gap <= 0
                if abs(gap) <= cfg.line_margin_mm:
                    questions.append((f"fortress:{o}", message(N_("Is {die} in the fortress? Its centre is right on "
                                                                  "the fortress's edge."), die=die_words(game, o)),
                                      {"yes": True, "no": False},
                                      message(N_("Too close to the line for the camera to tell.")),
                                      {"about": "fortress", "why": "line", "distance_mm": round(gap, 1), **about}))
        facts["touched"] = [o for o in displaced if o != played]
        # a fallen temple
        facts["toppled"] = None
        facts["toppled_touches"] = False
        facts["toppled_left"] = False
        for stack in snap.stacks:
            if not stack.toppled:
                self._topples_seen.discard(stack.stack_id)
                continue
            if stack.stack_id in self._topples_seen:
                continue
            temple = self._temple_of(stack)
            if temple is None or game.temples[temple].status != "standing":
                continue
            facts["toppled"] = temple
            facts["topple_stack"] = stack.stack_id
            flips["not-toppled"] = ("toppled", None)
            nearest, lo = math.inf, math.inf       # the gap to the nearest oracle, and its least possible value
            for sx, sy in stack.scattered_to:
                ax, ay = sx - cfg.area_origin_mm[0], sy - cfg.area_origin_mm[1]
                if not game.table.inside(ax, ay):
                    facts["toppled_left"] = True
                fallen = next((d for d in snap.dice if d.level == 1 and math.hypot(d.x_mm - sx, d.y_mm - sy) <= die_mm / 2),
                              None)
                for o in game.oracle_dice():
                    pos = rests[o.id][:3] if o.id in rests else (o.x, o.y, o.angle)
                    if o.status == "play" and pos[0] is not None and not facts.get(f"left:{o.id}"):
                        both = None if fallen is None or pos[2] is None else \
                            ((ax, ay, fallen.angle_deg), (pos[0], pos[1], pos[2]))
                        low, high = gap_bounds((ax, ay), (pos[0], pos[1]), die_mm, both)
                        nearest, lo = min(nearest, high), min(lo, low)
            touches = nearest <= cfg.touch_mm
            facts["toppled_touches"] = touches
            flips["temple-clear" if touches else "temple-touches"] = ("toppled_touches", not touches)
            if nearest > cfg.touch_mm - cfg.line_margin_mm and lo <= cfg.touch_mm + cfg.line_margin_mm:
                questions.append(("toppled_touches", message(N_("{temple} fell: does its fallen die touch an oracle?"),
                                                             temple=words.temple(game, temple, start=True)),
                                  {"yes": True, "no": False},
                                  message(N_("Too close to an oracle for the camera to tell.")),
                                  {"about": "fallen-temple", "why": "line", "temple": temple,
                                   "distance_mm": round(nearest, 1)}))
            break
        # Séduction: a Petit gris knocked off its oracle
        facts["dislodged"] = []
        for oracle, hero in game.seduced.items():
            cam = self.camera_id(hero)
            if cam is None:
                continue
            obs = self._find(snap, cam)
            host = rests.get(oracle)
            hx, hy = (host[0], host[1]) if host else (game.dice[oracle].x, game.dice[oracle].y)
            if obs is None or obs.level != 2 or hx is None or \
                    math.hypot(self._area(obs)[0] - hx, self._area(obs)[1] - hy) > game.options.die_mm / 2:
                facts["dislodged"].append(oracle)

        def build(f: dict[str, Any]) -> list[tuple[int, Any]]:
            left = tuple(o for o in displaced if f.get(f"left:{o}"))
            moved = tuple((o, round(x, 1), round(y, 1), round(a, 1), f.get(f"face:{o}"))
                          for o, (x, y, a, _) in sorted(rests.items()) if o not in left)
            sacred = tuple((int(k.split(":")[1]), int(k.split(":")[2])) for k, v in sorted(f.items())
                           if k.startswith("sacred:") and v and int(k.split(":")[1]) not in left)
            fortress = next((int(k.split(":")[1]) for k, v in sorted(f.items())
                             if k.startswith("fortress:") and v and int(k.split(":")[1]) not in left), None)
            outcome = Outcome(moved=moved, touched=tuple(f["touched"]), left=left, sacred=sacred, toppled=f["toppled"],
                              toppled_touches=f["toppled_touches"] if f["toppled"] is not None else False,
                              toppled_left=f["toppled_left"] if f["toppled"] is not None else False,
                              fortress=fortress if game.options.fortress else None,
                              dislodged=tuple(f["dislodged"]))
            return [(CHANCE, outcome)]

        draft = _Draft(facts, build, flips, {}, confidence, prefix=list(prefix))
        faces = [o for o in doubted if not self._face_moot(draft, o, asked=[q[0] for q in questions])]
        if questions or faces:
            for fact, text, choices, why, about in questions:
                self._ask(draft, fact, text, choices, why, about=about)
            for o in faces:
                self._ask_face(draft, f"face:{o}", o, doubted[o], "oracle-face")
            return list(self.questions.values())
        return [self._commit(draft, confidence)]

    def _face_moot(self, draft: _Draft, oracle: int, asked: Sequence[str]) -> bool:
        """Whether the face oracle ``oracle`` shows after a flick changes nothing, whatever it is: it
        left the area (the engine keeps no face for an oracle out of play; a woken or replaced oracle
        is given its face anew), or, whichever face it shows, the flick ends the game or puts it to
        sleep. Decided only when no other fact is still asked (the facts then are the camera's)."""
        if draft.facts.get(f"left:{oracle}") and f"left:{oracle}" not in asked:
            return True
        if asked:
            return False
        for face in self._face_choices(oracle):
            facts = {**draft.facts, f"face:{oracle}": face}
            trial = self.game.clone()
            try:
                for player, action in draft.prefix + draft.build(facts):
                    trial.apply(player, action)
            except RuleError:
                return False
            if not trial.is_over() and trial.dice[oracle].status == "play":
                return False
        return True

    def _temple_of(self, stack: Stack) -> int | None:
        for cam in stack.dice:
            eng = self.binding.get(cam)
            if eng is not None and self.game.dice[eng].role == "temple":
                return next(t.index for t in self.game.temples if eng in t.dice)
        return next((t.index for t in self.game.temples if self._stands_on(stack, t)), None)

    def _stands_on(self, stack: Stack, temple: Temple) -> bool:
        """Whether a stack seen by the camera stands within a die of where ``temple`` is built."""
        ox, oy = self.config.area_origin_mm
        return math.hypot(stack.x_mm - ox - temple.x, stack.y_mm - oy - temple.y) <= self.game.options.die_mm

    # ---- calls and questions -----------------------------------------------------------------

    def _label(self, obs: DieObservation) -> str | None:
        """The collection's name for a reading: the camera's face library names faces with plain
        letters, digits and dashes ("crane-yorick" for Crâne Yorick)."""
        raw = obs.face.symbol
        if raw is None:
            return None
        if self._names[0] is not self.game.collection:
            coll = self.game.collection
            self._names = (coll, {face_slug(n): n for n in (*coll.symbols, *coll.characters)})
        return self._names[1].get(face_slug(raw), raw)

    def _find(self, snap: TableSnapshot, cam: int | None) -> DieObservation | None:
        """The observation of camera die ``cam``, or ``None`` if it is not seen. A die the tracker now
        places inside a temple's stack is not the oracle or hero it was: that die is taken as gone."""
        if cam is None:
            return None
        for d in snap.dice:
            if d.die_id == cam:
                if d.stack_id is not None and self._in_temple_stack(snap, d):
                    return None
                return d
        return None

    def _in_temple_stack(self, snap: TableSnapshot, obs: DieObservation) -> bool:
        own = self.binding.get(obs.die_id)
        if own is None or self.game.dice[own].role == "temple":
            return False
        stack = next((s for s in snap.stacks if s.stack_id == obs.stack_id), None)
        return stack is not None and any(
            c != obs.die_id and c in self.binding and self.game.dice[self.binding[c]].role == "temple" for c in stack.dice)

    def _ask(self, draft: _Draft, fact: str, text: Mapping[str, Any], choices: dict[str, Any], why: Mapping[str, Any],
             about: Mapping[str, Any] | None = None, said: Mapping[str, Any] | None = None) -> Question:
        """Ask the players about ``fact`` (``text`` and ``why`` are messages); ``choices`` maps each
        answer to the fact's value, ``said`` how an answer is worded when it is not a face or yes/no."""
        qid = next(self._ids)
        question = Question(qid, in_english(text), tuple(choices), reason=in_english(why), message=text,
                            reason_message=why, choice_messages=tuple(self._choice_words(c, said) for c in choices),
                            data=dict(about or {}))
        draft.open[qid] = (fact, choices)
        self._draft = draft
        self.questions[qid] = question
        return question

    def _alternative_words(self, decision: str, game: PuxesGame) -> Mapping[str, Any]:
        """What overruling a call with ``decision`` (one of its alternatives) means, in words."""
        kind, _, rest = decision.partition(":")
        ids = [int(part) for part in rest.split(":") if part.lstrip("-").isdigit()]
        if kind in ("in", "out", "sacred", "clear") and ids and ids[0] in game.dice:
            oracle = words.oracle(game, ids[0], start=True)
            if kind == "in":
                return message(N_("{oracle} stayed in the play area"), oracle=oracle)
            if kind == "out":
                return message(N_("{oracle} left the play area"), oracle=oracle)
            if len(ids) > 1 and 0 <= ids[1] < len(game.temples):
                garden = words.garden(game, ids[1], "sacred")
                if kind == "sacred":
                    return message(N_("{oracle} is in {garden}"), oracle=oracle, garden=garden)
                return message(N_("{oracle} is outside {garden}"), oracle=oracle, garden=garden)
        if kind == "face" and rest:
            return message(N_("It shows {face}"), face=words.face(rest))
        if kind.startswith("restore-"):
            return message(N_("Put call {number} back as it was"), number=kind.removeprefix("restore-"))
        fixed = {
            "not-toppled": N_("No temple fell"), "temple-touches": N_("The fallen temple die touches an oracle"),
            "temple-clear": N_("The fallen temple die touches no oracle"),
            "roll-again": N_("A die rests on an edge or a corner: roll again"),
            "turn-lost": N_("A hero touched an oracle: the turn is lost"),
            "turn-kept": N_("No hero touched an oracle: the turn goes on"),
        }
        return message(fixed.get(decision, N_("Another reading of the table")))

    def _choice_words(self, choice: str, said: Mapping[str, Any] | None) -> Any:
        """How an answer is worded for the players: its own words, yes or no, or a face."""
        if said and choice in said:
            return said[choice]
        if choice in ("yes", "no"):
            return choice == "yes"
        return words.face(choice)

    def _commit(self, draft: _Draft, confidence: float) -> Call:
        start = len(self.game.history)
        actions = draft.prefix + draft.build(draft.facts)
        trial = self.game.clone()
        try:
            for player, action in actions:
                trial.apply(player, action)
        except RuleError as exc:
            # nothing is applied: the engine stays exactly as it was
            reason = exc.words if exc.words is not None else exc.reason
            return self._make_call("refused", [], [], 1.0, prefix=message(
                N_("The table does not fit the rules: {reason}."), reason=reason),
                rule=REFUSAL_RULES.get(exc.rule))
        events: list[Event] = []
        applied: list[tuple[int, Any]] = []
        for player, action in actions:
            events.extend(self.game.apply(player, action))
            applied.append((player, action))
        if self._last is not None:
            self._consumed_at = max(self._consumed_at, self._last.timestamp)
        if draft.facts.get("topple_stack") is not None:
            self._topples_seen.add(draft.facts["topple_stack"])
        if draft.done is not None:
            draft.done(draft.facts)
        call = self._make_call(None, events, applied, confidence, alternatives=tuple(draft.flips), suffix=draft.note)
        self._records[call.call_id] = _Record(call, start, dict(draft.facts), draft.build, dict(draft.flips), list(draft.prefix))
        return call

    def _make_call(self, decision: str | None, events: list[Event], actions: list[tuple[int, Any]], confidence: float,
                   prefix: Mapping[str, Any] | None = None, overrules: int | None = None,
                   alternatives: tuple[str, ...] = (), suffix: Mapping[str, Any] | None = None,
                   rule: str | None = None, announced: bool = False) -> Call:
        """A call: its reason says ``prefix``, what happened (each event but the camera's record of the
        flicks, unless a player ``announced`` the action), ``suffix``, the rule the deciding event rests
        on (or ``rule``) and who may move now."""
        main = headline(events) or (events[0].kind if events else "noted")
        decision = decision or main
        quote = rulebook.passage(rule) if rule else quote_of(events, decision)
        parts: list[Mapping[str, Any]] = [prefix] if prefix is not None else []
        parts += [e.message for e in events if e.message is not None and (announced or e.kind != "flick")]
        if suffix is not None:
            parts.append(suffix)
        if quote is not None:
            parts.append(message(N_("Rule: {quote}"), quote=quote.quoted()))
        movable = self.may_move()
        if movable and not self.game.is_over():
            player = self.game.queue[0]["player"]
            parts.append(message(N_("{player} may move {oracles}."), player=self.game.named(player),
                                 oracles=words.oracles(self.game, movable, of=player)))
        said = sentences(parts) or message(N_("Nothing changes."))
        call = Call(next(self._ids), decision, in_english(said), confidence, tuple(actions), tuple(events), alternatives,
                    overrules, message=said,
                    alternative_messages=tuple(self._alternative_words(a, self.game) for a in alternatives))
        self.calls.append(call)
        return call


@dataclasses.dataclass(frozen=True)
class RefereeCheckpoint:
    """The referee as it was at one moment (see :meth:`PuxesReferee.checkpoint`)."""

    game: PuxesGame
    actions: int                                 # the game's history length then
    following: int                               # the next call or question number
    state: dict[str, Any]                        # the referee's other attributes


def _copied(value: Any) -> Any:
    """``value`` with the containers a referee changes in place copied one level deep."""
    if isinstance(value, (dict, list, set)):
        return copy.copy(value)
    if isinstance(value, _Draft):
        return dataclasses.replace(value, facts=dict(value.facts), open=dict(value.open), prefix=list(value.prefix))
    return value
