"""A scripted PuXes table: bots play, a small physical model decides where the dice come to rest.

:class:`ScriptedTable` keeps the true game (a :class:`PuxesGame` fed with the bots' choices and
with what the simulated dice did, as CHANCE actions) and every die's place on the table in
millimetres (:class:`Body`). :meth:`ScriptedTable.play` yields one :class:`Transition` per change a
camera would see between two still moments: an oracle set in its garden, heroes thrown, a flick
and where everything stopped, an intruder pushed back, a toppled temple rebuilt, a sleeping oracle
carried aside.

What the physical model keeps consistent with the rulebook:

- a flicked oracle slides towards a target, stops short of what is in its way, or hits an oracle
  and pushes it (which may leave the area), or leaves the area itself, or reaches a temple and
  knocks its top die down (sometimes touching a defender, which does not count);
- an oracle that left the area rests beside the mat, in the camera's view, where players set
  sleeping oracles aside (« il plonge dans un profond sommeil et est mis de côté »); one that fell
  asleep on the mat (a DiXé that does not count, its own temple) is carried aside;
- a temple whose fall did not count is rebuilt (« le temple est reconstruit et positionné à sa place
  initiale »), and a cancelled shot puts the other dice back;
- an oracle resting in an opposing sacred garden is pushed back by the temple's owner; the push
  sometimes touches another oracle, and the next player then sets the displaced oracles back.

Dice never overlap, and a die that does not touch another keeps at least a few millimetres from
it, so that touching is a fact of the model and not an accident of rounding. Heroes are thrown in a
row beside each player's garden. Between two still moments no die travels further than the camera's
tracker follows one (:func:`reach_mm`): flicks are shorter than that, and a die that has to go
further is carried across the table in steps.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from controller.engines.core import CHANCE, Event, RuleError
from controller.engines.puxes import PuxesGame, words
from controller.referee.puxes_table_says import says
from controller.engines.puxes.actions import ChooseFace, EndTurn, Move, Outcome, Place, PushBack, Roll, Wake
from controller.engines.puxes.outcomes import sacred_intrusions
from controller.vision.tracking import DiceTracker

#: How far beyond the area's edge a die that left it comes to rest (still in the camera's view).
BAND_MM = 30.0


def reach_mm(die_mm: float) -> float:
    """The longest a die travels between two still moments: a little under the distance over which
    the camera's tracker keeps a die's identity. A longer flick is a new die to the camera."""
    return 0.85 * (DiceTracker(edge_mm=die_mm).gate_mm or 12 * die_mm)


@dataclasses.dataclass
class Body:
    """One die on (or beside) the table: engine die id, centre in mm, rotation, top face, level."""

    die: int
    x: float
    y: float
    angle: float
    face: str
    level: int = 1
    role: str = "oracle"          # oracle, hero or temple


@dataclasses.dataclass
class Transition:
    """What changes between two still moments of the table.

    ``label`` says what happened, as a message in the players' words; ``truth`` lists the true
    game's actions this still moment shows (what the referee should work out from it); ``told`` the
    choices players give the referee on the dashboard before it (a power, the end of a turn);
    ``expects`` whether the referee has something to decide on it.
    """

    label: Mapping[str, Any]
    player: int | None
    before: dict[int, Body]
    after: dict[int, Body]
    truth: list[tuple[int, Any]]
    told: list[tuple[int, Any]]
    expects: bool
    events: list[Event]
    turn: int
    reach_over: tuple[float, float] | None = None    # a hand passes over this spot, nothing moves


class ScriptedTable:
    """The true game and the dice on the table, advanced by bots and the physical model."""

    def __init__(self, options: dict[str, Any] | None = None, seed: int = 0, names: Sequence[str] = ()) -> None:
        self.game = PuxesGame(options or {}, seed=seed)
        self.game.name_seats(names)
        if self.game.num_players != 2:
            raise ValueError("the scripted table plays on the printed two-player PuXes mat: players must be 2")
        self.rng = random.Random(seed)
        o = self.game.options
        self.die = o.die_mm
        self.reach = reach_mm(self.die)
        #: The least gap between dice that do not touch: seen in perspective from a camera over the
        #: mat's centre, neighbouring dice lean towards each other by a few millimetres.
        self.gap = 14.0
        self.table = self.game.table
        self.bodies: dict[int, Body] = {}
        self.told: list[tuple[int, Any]] = []
        for t in self.game.temples:
            bottom, top = t.dice
            angle = self.rng.uniform(0, 80)
            self.bodies[bottom] = Body(bottom, t.x, t.y, angle, self.faces(bottom)[1], 1, "temple")
            self.bodies[top] = Body(top, t.x, t.y, angle + 3.0, self.faces(top)[0], 2, "temple")
        self.hero_slots: dict[int, tuple[float, float]] = {}
        for seat, state in enumerate(self.game.players):
            for k, h in enumerate(state.heroes):
                self.hero_slots[h] = self._hero_slot(seat, k)

    # ---- small geometry -------------------------------------------------------------------

    def faces(self, die: int) -> tuple[str, ...]:
        """The six faces of a die as the dice on this table carry them (an unknown face of the
        collection file carries the first symbol the die is not known to have)."""
        return self.game.collection.candidate_faces(self.game.dice[die].name)

    def _hero_slot(self, seat: int, k: int) -> tuple[float, float]:
        """Heroes are set aside in a row beside the player's garden, between the mat's markers."""
        sx, sy = self.table.size_x, self.table.size_y
        if seat == 0:
            return (0.12 * sx + 65.0 * k, 0.16 * sy)
        return (0.88 * sx - 65.0 * k, 0.84 * sy)

    def inside(self, x: float, y: float) -> bool:
        return self.table.inside(x, y)

    def _clearance(self, x: float, y: float, ignore: set[int]) -> float:
        """Distance from (x, y) to the nearest other die's centre; a temple counts 16 mm closer, as
        its tall silhouette leans over its outer side in the camera's view."""
        return min((math.hypot(b.x - x, b.y - y) - (16.0 if b.role == "temple" else 0.0)
                    for b in self.bodies.values() if b.die not in ignore), default=math.inf)

    def _free(self, x: float, y: float, ignore: set[int]) -> bool:
        return self._clearance(x, y, ignore) >= self.die + self.gap

    def _obstacle(self, start: tuple[float, float], end: tuple[float, float], ignore: set[int],
                  reach: float = 1.9) -> tuple[Body, float] | None:
        """The first die in the way of a die sliding from ``start`` to ``end``, with how far it got.

        A die passing closer than about two dice to another is taken as stopped by it: the camera's
        tracker could otherwise swap the two (a slide grazing a temple looks, to an assignment by
        distance, like the temple's hidden bottom die moving)."""
        length = math.dist(start, end)
        n = max(1, int(length // 3))
        for k in range(1, n + 1):
            f = k / n
            px, py = start[0] + f * (end[0] - start[0]), start[1] + f * (end[1] - start[1])
            for b in self.bodies.values():
                if b.die not in ignore and math.hypot(b.x - px, b.y - py) < self.die * reach:
                    return b, f * length
        return None

    def _band_point(self, x: float, y: float, ignore: set[int]) -> tuple[float, float]:
        """Where a die near (x, y) rests beside the mat: the nearest free spot of the band around it."""
        sx, sy = self.table.size_x, self.table.size_y
        sides = [(-BAND_MM, min(max(y, 0.0), sy), abs(x)), (sx + BAND_MM, min(max(y, 0.0), sy), abs(sx - x)),
                 (min(max(x, 0.0), sx), -BAND_MM, abs(y)), (min(max(x, 0.0), sx), sy + BAND_MM, abs(sy - y))]
        sides.sort(key=lambda s: s[2])
        for bx, by, _ in sides:
            along_x = by in (-BAND_MM, sy + BAND_MM)
            for k in range(40):
                shift = (k + 1) // 2 * (1 if k % 2 else -1) * (self.die + 12)
                px, py = (bx + shift, by) if along_x else (bx, by + shift)
                if along_x and not -BAND_MM <= px <= sx + BAND_MM or not along_x and not -BAND_MM <= py <= sy + BAND_MM:
                    continue
                if self._free(px, py, ignore):
                    return round(px, 1), round(py, 1)
        raise RuntimeError("no room left beside the mat")

    def _snapshot(self) -> dict[int, Body]:
        return copy.deepcopy(self.bodies)

    # ---- the game ---------------------------------------------------------------------------

    def _apply(self, player: int, action: Any, events: list[Event]) -> None:
        events.extend(self.game.apply(player, action))

    def _transition(self, label: Mapping[str, Any], player: int | None, before: dict[int, Body], truth: list[tuple[int, Any]],
                    events: list[Event], expects: bool = True) -> Transition:
        told, self.told = self.told, []
        return Transition(label, player, before, self._snapshot(), truth, told, expects, events, self.game.turn_number)

    def play(self, max_turns: int | None = None) -> Iterator[Transition]:
        """The game, one still moment at a time, until it ends or turn ``max_turns`` is over."""
        game = self.game
        yield self._transition(says("built"), None, {}, [], [], expects=False)
        # One oracle per still moment, as the referee records them; each player also lays down one
        # hero at a time beside the garden, so the camera numbers a player's heroes in their order,
        # the order in which the referee pairs the dice thrown at the first roll with the heroes.
        placed_heroes: dict[int, int] = {0: 0, 1: 0}
        while game.queue and game.queue[0]["kind"] == "place" and game.queue[0]["reason"] == "setup":
            step = game.queue[0]
            before = self._snapshot()
            events: list[Event] = []
            action = self._choose_place(step)
            self._apply(step["player"], action, events)
            self.bodies[action.oracle] = Body(action.oracle, action.x, action.y, action.angle, action.face)
            seat = step["player"]
            heroes = game.players[seat].heroes
            if placed_heroes[seat] < len(heroes):
                h = heroes[placed_heroes[seat]]
                x, y = self.hero_slots[h]
                self.bodies[h] = Body(h, x, y, self.rng.uniform(0, 80), self.rng.choice(self.faces(h)), 1, "hero")
                placed_heroes[seat] += 1
            label = says("set", player=game.named(seat),
                            oracle=words.oracle(game, action.oracle, of=seat))
            yield self._transition(label, seat, before, [(seat, action)], events)
        while not game.is_over() and game.queue:
            step = game.queue[0]
            if step["kind"] == "roll" and step["purpose"] == "turn" and max_turns is not None \
                    and game.turn_number > max_turns:
                return
            yield from self._advance(step)

    def _advance(self, step: dict[str, Any]) -> Iterator[Transition]:
        kind = step["kind"]
        if kind == "roll":
            yield self._roll(step)
        elif kind == "main":
            yield from self._main(step["player"])
        elif kind == "push":
            yield from self._push(step)
        elif kind == "place":
            yield from self._place(step)
        elif kind == "face":
            yield from self._choose_face(step)
        else:
            # choices with nothing to see on the table (Transport's above or under...) go to the dashboard
            player = step["player"]
            action = self.game.legal_actions(player)[0]
            self.game.apply(player, action)
            self.told.append((player, action))

    # rolls

    def _roll(self, step: dict[str, Any]) -> Transition:
        before = self._snapshot()
        roller = step["roller"]
        faces = []
        for h in step["heroes"]:
            face = self.rng.choice(self.faces(h))
            faces.append(face)
            sx, sy = self.hero_slots[h]
            old = self.bodies.get(h)
            for _ in range(50):
                x, y = sx + self.rng.uniform(-18, 18), sy + self.rng.uniform(-14, 14)
                if old is None or math.hypot(x - old.x, y - old.y) >= 8:
                    break
            self.bodies[h] = Body(h, round(x, 1), round(y, 1), self.rng.uniform(0, 90), face, 1, "hero")
        action = Roll(tuple(faces))
        events: list[Event] = []
        self._apply(CHANCE, action, events)
        label = says("throw", player=self.game.named(roller),
                        faces=words.faces(faces))
        return self._transition(label, roller, before, [(CHANCE, action)], events)

    # the active player's choice

    def _main(self, player: int) -> Iterator[Transition]:
        game = self.game
        options = game.legal_actions(player)
        moves = [a for a in options if isinstance(a, Move)]
        wakes = [a for a in options if isinstance(a, Wake)]
        awake = sum(1 for o in game.oracles_of(player) if game.dice[o].status == "play")
        if wakes and (not moves or awake <= 2 or self.rng.random() < 0.25):
            yield from self._wake(player, self.rng.choice(wakes))
        elif moves:
            foes = [t for t in game.temples if t.status == "standing" and game.opposed(t.owner, player)]

            def reach(m: Move) -> float:
                d = game.dice[m.oracle]
                return min(math.hypot(t.x - d.x, t.y - d.y) for t in foes) if foes else 0.0
            move = min(moves, key=reach) if self.rng.random() < 0.6 else self.rng.choice(moves)
            yield from self._flick(player, move)
        else:
            action = EndTurn() if EndTurn() in options else options[0]
            game.apply(player, action)
            self.told.append((player, action))

    def _wake(self, player: int, action: Wake) -> Iterator[Transition]:
        trial = self.game.clone()
        trial.apply(player, action)
        place = self._choose_place(trial.queue[0], trial)

        def commit(events: list[Event]) -> None:
            self._apply(player, action, events)
            self._apply(player, place, events)
        label = says("wake", player=self.game.named(player), oracle=words.oracle(self.game, place.oracle, of=player),
                        face=words.face(place.face))
        yield from self._carry(place.oracle, (place.x, place.y), place.angle, place.face or self.bodies[place.oracle].face,
                               label, player, [(player, action), (player, place)], commit)

    def _place(self, step: dict[str, Any]) -> Iterator[Transition]:
        """Oracles put back in a garden. One the player leaves where it lies (already in the garden,
        where it may stand) is put back together with the others, as the camera sees them all at once."""
        player = step["player"]
        trial = self.game.clone()
        action = self._choose_place(step, trial)
        trial.apply(player, action)
        placed = [(player, action)]
        while trial.queue and trial.queue[0]["kind"] == "place" and not trial.queue[0]["face"]:
            nxt = trial.queue[0]
            follow = self._choose_place(nxt, trial)
            if not self._stays(follow):
                break
            trial.apply(nxt["player"], follow)
            placed.append((nxt["player"], follow))

        def commit(events: list[Event]) -> None:
            for who, a in placed:
                self._apply(who, a, events)
        oracles = words.oracles(self.game, [a.oracle for _, a in placed])
        label = says("put-back", player=self.game.named(player),
                        oracles=oracles)
        if self._stays(action):
            before = self._snapshot()
            events: list[Event] = []
            commit(events)
            where = says("put-back-as-they-lie", player=self.game.named(player), oracles=oracles)
            tr = self._transition(where, player, before, placed, events)
            tr.reach_over = (self.bodies[action.oracle].x, self.bodies[action.oracle].y)
            yield tr
            return
        face = action.face or self.bodies[action.oracle].face
        yield from self._carry(action.oracle, (action.x, action.y), action.angle, face, label, player, placed, commit)

    def _stays(self, action: Place) -> bool:
        b = self.bodies.get(action.oracle)
        return b is not None and action.face is None and math.hypot(b.x - action.x, b.y - action.y) < 0.5

    def _choose_face(self, step: dict[str, Any]) -> Iterator[Transition]:
        before = self._snapshot()
        o = step["oracle"]
        b = self.bodies[o]
        x = min(max(b.x, 0.0), self.table.size_x)
        y = min(max(b.y, 0.0), self.table.size_y)
        face = self.rng.choice(self.faces(o))
        action = ChooseFace(o, face, x, y)
        events: list[Event] = []
        self._apply(step["player"], action, events)
        self.bodies[o] = Body(o, x, y, b.angle, face)
        label = says("turn-up", player=self.game.named(step["player"]), face=words.face(face),
                        owner=self.game.named(self.game.dice[o].owner))
        yield self._transition(label, step["player"], before, [(step["player"], action)], events)

    def _choose_place(self, step: dict[str, Any], game: PuxesGame | None = None) -> Place:
        """A bot's placement: where the die already stands if that is allowed, else the allowed
        spot nearest to it (a random one at set-up), with a face of its choice when it chooses one."""
        game = game or self.game
        o = step["oracle"]
        player = step["player"]
        body = self.bodies.get(o)
        def spaced(x: float, y: float) -> bool:
            # a few millimetres more than the rule's one die between oracles, so that the camera's
            # measurement cannot put the die too close
            return all(math.hypot(d.x - x, d.y - y) >= 2 * self.die + 4 for d in game.oracle_dice()
                       if d.id != o and d.status == "play" and d.x is not None)
        if body is not None and not step["face"] and self.inside(body.x, body.y) and spaced(body.x, body.y):
            stay = Place(o, round(body.x, 1), round(body.y, 1), round(body.angle % 90, 1), None)
            try:
                game.check(player, stay)
                if self._free(body.x, body.y, {o}):
                    return stay
            except RuleError:
                pass
        slots = sorted({(a.x, a.y) for a in game.legal_actions(player) if isinstance(a, Place)})
        slots = [s for s in slots if self._free(s[0], s[1], {o}) and spaced(*s)] or \
            [s for s in slots if self._free(s[0], s[1], {o})] or slots
        if body is None:
            self.rng.shuffle(slots)
        else:
            slots.sort(key=lambda s: math.hypot(s[0] - body.x, s[1] - body.y))
        face = self.rng.choice(self.faces(o)) if step["face"] else None
        for x, y in slots:
            action = Place(o, x, y, round(self.rng.uniform(0, 12), 1), face)
            try:
                game.check(player, action)
                return action
            except RuleError:
                continue
        raise RuntimeError(f"no legal place for oracle {o}: {game.render()}")

    def _carry(self, die: int, to: tuple[float, float], angle: float, face: str, label: Mapping[str, Any], player: int,
               truth: list[tuple[int, Any]], commit: Callable[[list[Event]], None] | None = None,
               expects: bool = True) -> Iterator[Transition]:
        """Carry one die to ``to`` in steps the camera can follow; the last still moment shows it
        there, and only then does ``commit`` apply the true game's actions it stands for."""
        body = self.bodies[die]
        for qx, qy in self._route(die, (body.x, body.y), to):
            before = self._snapshot()
            self.bodies[die] = dataclasses.replace(body, x=round(qx, 1), y=round(qy, 1))
            yield Transition(says("carried", oracle=words.oracle(self.game, die, start=True)),
                             player, before, self._snapshot(), [], [], False, [], self.game.turn_number)
        before = self._snapshot()
        self.bodies[die] = Body(die, to[0], to[1], angle, face)
        events: list[Event] = []
        if commit is not None:
            commit(events)
        yield self._transition(label, player, before, truth, events, expects)

    def _route(self, die: int, start: tuple[float, float], to: tuple[float, float]) -> list[tuple[float, float]]:
        """Where a carried die stops on its way to ``to``: stops no further apart than the camera
        follows a die, off the gardens, each leg keeping clear of the other dice."""
        def usable(points: list[tuple[float, float]]) -> bool:
            legs = zip([start, *points], [*points, to])
            return all(self._free(x, y, {die}) and not any(self.table.public_corners(t.index, x, y) > 0
                                                           for t in self.game.temples) for x, y in points) and \
                all(math.dist(a, b) <= self.reach and self._obstacle(a, b, {die}) is None for a, b in legs)
        n = max(1, math.ceil(math.dist(start, to) / self.reach))
        for hops in (n, n + 1, n + 2, n + 3):
            for shift in sorted(range(-350, 351, 25), key=abs):
                dx, dy = to[0] - start[0], to[1] - start[1]
                length = math.hypot(dx, dy) or 1.0
                nx, ny = -dy / length, dx / length
                points = [(start[0] + k / hops * dx + nx * shift, start[1] + k / hops * dy + ny * shift)
                          for k in range(1, hops)]
                if usable(points):
                    return points
        return [(start[0] + k / n * (to[0] - start[0]), start[1] + k / n * (to[1] - start[1])) for k in range(1, n)]

    # flicks

    def _flick(self, player: int, move: Move) -> Iterator[Transition]:
        before = self._snapshot()
        events: list[Event] = []
        self._apply(player, move, events)
        flicked = words.oracle(self.game, move.oracle, of=player)
        plan = self._plan_shot(player, move.oracle)
        outcome = plan["outcome"]
        self.bodies.update(plan["bodies"])
        self._apply(CHANCE, outcome, events)
        label = says("flick", player=self.game.named(player), oracle=flicked,
                        what=plan["label"])
        yield self._transition(label, player, before, [(player, move), (CHANCE, outcome)], events)
        yield from self._tidy(plan, player, before)

    def _tidy(self, plan: dict[str, Any], player: int, before_flick: dict[int, Body]) -> Iterator[Transition]:
        """After a flick: a cancelled shot is put back, a temple whose fall did not count is rebuilt,
        and oracles that fell asleep on the mat are set aside."""
        game = self.game
        changed = False
        before = self._snapshot()
        if plan.get("own") is not None:
            for d, b in before_flick.items():
                if d != plan["played"] and b.role == "oracle":
                    self.bodies[d] = copy.deepcopy(b)
                    changed = True
        if game.is_over():
            return
        toppled = plan.get("toppled")
        if toppled is not None and game.temples[toppled].status == "standing":
            bottom, top = game.temples[toppled].dice
            base = self.bodies[bottom]
            self.bodies[top] = Body(top, base.x, base.y, base.angle + 3.0, self.faces(top)[0], 2, "temple")
            changed = True
        if changed:
            label = says("rebuilt") if toppled is not None else \
                says("put-back-dice")
            yield Transition(label, player, before, self._snapshot(), [], [], False, [], game.turn_number)
        for d in sorted(self.bodies):
            die = game.dice[d]
            b = self.bodies[d]
            if die.role == "oracle" and die.status != "play" and self.inside(b.x, b.y):
                to = self._band_point(b.x, b.y, {d})
                yield from self._carry(d, to, b.angle, b.face, says("set-aside", oracle=words.oracle(game, d, start=True)),
                                       die.owner, [], expects=False)

    def _plan_shot(self, player: int, oracle: int) -> dict[str, Any]:
        game = self.game
        p = self.bodies[oracle]
        foes = [t for t in game.temples if t.status == "standing" and game.opposed(t.owner, player)]
        own = [t for t in game.temples if t.status == "standing" and not game.opposed(t.owner, player)]
        target = min(foes, key=lambda t: math.hypot(t.x - p.x, t.y - p.y)) if foes else None
        kinds = ["slide", "hit", "temple", "off", "own"]
        weights = [0.42, 0.27, 0.16, 0.12, 0.03]
        for _ in range(60):
            kind = self.rng.choices(kinds, weights)[0]
            plan = None
            if kind == "slide":
                plan = self._slide(p, target)
            elif kind == "hit":
                plan = self._hit(p, player)
            elif kind == "temple" and target is not None:
                plan = self._topple(p, target, player)
            elif kind == "off":
                plan = self._off(p, target)
            elif kind == "own" and own:
                home = min(own, key=lambda t: math.hypot(t.x - p.x, t.y - p.y))
                if math.hypot(home.x - p.x, home.y - p.y) < 220:
                    plan = self._topple(p, home, player, own_temple=True)
            if plan is not None:
                plan["played"] = oracle
                return plan
        # nothing worked out: a short slide anywhere free
        for _ in range(400):
            a = self.rng.uniform(0, 2 * math.pi)
            r = self.rng.uniform(12, 45)
            x, y = p.x + r * math.cos(a), p.y + r * math.sin(a)
            if self.inside(x, y) and self._free(x, y, {p.die}) and \
                    self._obstacle((p.x, p.y), (x, y), {p.die}, reach=1.08) is None:
                return self._finish({p.die: dataclasses.replace(p, x=round(x, 1), y=round(y, 1))}, set(), set(),
                                    says("moved-a-little"), played=oracle)
        raise RuntimeError(f"oracle {oracle} cannot move anywhere")

    def _new_face(self, body: Body, chance: float) -> str:
        return self.rng.choice(self.faces(body.die)) if self.rng.random() < chance else body.face

    def _finish(self, moved: dict[int, Body], touched: set[int], left: set[int], label: Mapping[str, Any],
                toppled: int | None = None,
                fall: Body | None = None, own: int | None = None, played: int | None = None) -> dict[str, Any]:
        game = self.game
        stays = {d: b for d, b in moved.items() if d not in left}
        touches = False
        bodies = dict(moved)
        if toppled is not None and fall is not None:
            bodies[fall.die] = fall
            temple = game.temples[toppled]
            after = {**{d: b for d, b in self.bodies.items() if game.dice[d].role == "oracle"
                        and game.dice[d].status == "play"}, **stays}
            after = {d: b for d, b in after.items() if d not in left}
            for sx, sy in ((fall.x, fall.y), (temple.x, temple.y)):
                for b in after.values():
                    if math.hypot(b.x - sx, b.y - sy) - self.die <= 2.0:
                        touches = True
        rests = {d: (b.x, b.y, b.angle) for d, b in stays.items()}
        outcome = Outcome(
            moved=tuple((d, round(b.x, 1), round(b.y, 1), round(b.angle % 90, 1), b.face) for d, b in sorted(stays.items())),
            touched=tuple(sorted(touched)), left=tuple(sorted(left)),
            sacred=sacred_intrusions(self.game, rests) if toppled is None else (),
            toppled=toppled, toppled_touches=touches)
        return {"outcome": outcome, "bodies": bodies, "label": label, "toppled": toppled, "own": own, "played": played}

    def _rest(self, body: Body, x: float, y: float, chance: float) -> Body:
        return dataclasses.replace(body, x=round(x, 1), y=round(y, 1), angle=round(self.rng.uniform(0, 90), 1),
                                   face=self._new_face(body, chance))

    def _slide(self, p: Body, target: Any) -> dict[str, Any] | None:
        aim = (target.x, target.y) if target is not None else (self.table.size_x / 2, self.table.size_y / 2)
        base = math.atan2(aim[1] - p.y, aim[0] - p.x) + math.radians(self.rng.uniform(-28, 28))
        length = min(self.reach, max(60.0, self.rng.uniform(0.3, 0.9) * math.hypot(aim[0] - p.x, aim[1] - p.y)))
        end = (p.x + length * math.cos(base), p.y + length * math.sin(base))
        hit = self._obstacle((p.x, p.y), end, {p.die})
        if hit is not None:
            stop = hit[1] - self.die * 0.3
            if stop < 40:
                return None
            end = (p.x + stop * math.cos(base), p.y + stop * math.sin(base))
        if not self.inside(*end) or not self._free(end[0], end[1], {p.die}):
            return None
        rest = self._rest(p, end[0], end[1], 0.5)
        return self._finish({p.die: rest}, set(), set(), says("slides", where=words.position(rest.x, rest.y),
                                                                 face=words.face(rest.face)))

    def _off(self, p: Body, target: Any) -> dict[str, Any] | None:
        aim = (target.x, target.y) if target is not None else (self.table.size_x / 2, self.table.size_y / 2)
        base = math.atan2(aim[1] - p.y, aim[0] - p.x) + math.radians(self.rng.uniform(-75, 75))
        far = (p.x + 2000 * math.cos(base), p.y + 2000 * math.sin(base))
        # where the slide crosses the area's edge
        lo, hi = 0.0, 1.0
        for _ in range(40):
            mid = (lo + hi) / 2
            if self.inside(p.x + mid * (far[0] - p.x), p.y + mid * (far[1] - p.y)):
                lo = mid
            else:
                hi = mid
        exit_ = (p.x + hi * (far[0] - p.x), p.y + hi * (far[1] - p.y))
        if self._obstacle((p.x, p.y), exit_, {p.die}) is not None:
            return None
        bx, by = self._band_point(exit_[0], exit_[1], {p.die})
        if math.hypot(bx - p.x, by - p.y) > self.reach:
            return None
        rest = self._rest(p, bx, by, 0.5)
        return self._finish({p.die: rest}, set(), {p.die}, says("slides-off"))

    def _hit(self, p: Body, player: int) -> dict[str, Any] | None:
        game = self.game
        others = [self.bodies[d.id] for d in game.oracle_dice() if d.status == "play" and d.id != p.die]
        if not others:
            return None
        foes = [b for b in others if game.opposed(game.dice[b.die].owner, player)]
        pool = foes if foes and self.rng.random() < 0.85 else others
        v = min(pool, key=lambda b: math.hypot(b.x - p.x, b.y - p.y) + self.rng.uniform(0, 120))
        dx, dy = v.x - p.x, v.y - p.y
        dist = math.hypot(dx, dy)
        ux, uy = dx / dist, dy / dist
        contact = (v.x - ux * self.die * 1.02, v.y - uy * self.die * 1.02)
        travel = math.dist((p.x, p.y), contact)
        if travel < 40 or travel > self.reach or self._obstacle((p.x, p.y), contact, {p.die, v.die}) is not None:
            return None
        if self._clearance(contact[0], contact[1], {p.die, v.die}) < self.die + self.gap:
            return None
        turn = math.radians(self.rng.uniform(-15, 15))
        vx, vy = ux * math.cos(turn) - uy * math.sin(turn), ux * math.sin(turn) + uy * math.cos(turn)
        push = self.rng.uniform(30, min(170, 0.8 * travel + 30))
        end = (v.x + vx * push, v.y + vy * push)
        left: set[int] = set()
        moved: dict[int, Body] = {}
        block = self._obstacle((v.x, v.y), end, {p.die, v.die})
        if block is not None:
            push = block[1] - self.die * 0.5
            if push < 15:
                return None
            end = (v.x + vx * push, v.y + vy * push)
        if push >= 0.9 * travel:
            return None
        if not self.inside(*end):
            left.add(v.die)
            bx, by = self._band_point(end[0], end[1], {v.die, p.die})
            if math.hypot(bx - v.x, by - v.y) > self.reach:
                return None
            moved[v.die] = self._rest(v, bx, by, 0.2)
        else:
            if self._clearance(end[0], end[1], {p.die, v.die}) < self.die + self.gap or \
                    math.dist(end, contact) < self.die + self.gap:
                return None
            moved[v.die] = self._rest(v, end[0], end[1], 0.2)
        moved[p.die] = self._rest(p, contact[0], contact[1], 0.5)
        hit = words.oracle(game, v.die)
        if left:
            what = says("hits-out", oracle=hit)
        else:
            what = says("hits", oracle=hit,
                           where=words.position(end[0], end[1]))
        return self._finish(moved, {v.die}, left, what)

    def _topple(self, p: Body, temple: Any, player: int, own_temple: bool = False) -> dict[str, Any] | None:
        game = self.game
        dx, dy = temple.x - p.x, temple.y - p.y
        dist = math.hypot(dx, dy)
        ux, uy = dx / dist, dy / dist
        side = self.rng.uniform(-6, 6)
        rest = (temple.x - ux * self.die * 1.6 - uy * side, temple.y - uy * self.die * 1.6 + ux * side)
        if not 40 <= math.dist((p.x, p.y), rest) <= self.reach:
            return None
        bottom, top = temple.dice
        ignore = {p.die, bottom, top}
        moved: dict[int, Body] = {}
        touched: set[int] = set()
        block = self._obstacle((p.x, p.y), rest, ignore)
        fall_dir = math.atan2(uy, ux)
        if block is not None:
            b = block[0]
            if game.dice[b.die].role != "oracle" or own_temple or self.rng.random() < 0.5:
                return None
            # the oracle in the way is driven on into the temple: the shot touched an oracle
            contact = (b.x - ux * self.die * 1.02, b.y - uy * self.die * 1.02)
            bdx, bdy = temple.x - b.x, temple.y - b.y
            bn = math.hypot(bdx, bdy) or 1.0
            b_rest = (temple.x - bdx / bn * self.die * 1.6, temple.y - bdy / bn * self.die * 1.6)
            travel = math.dist((p.x, p.y), contact)
            if travel < 40 or math.dist((b.x, b.y), b_rest) >= 0.9 * travel or \
                    self._obstacle((p.x, p.y), contact, ignore | {b.die}) is not None or \
                    self._obstacle((b.x, b.y), b_rest, ignore | {b.die}) is not None or \
                    self._clearance(b_rest[0], b_rest[1], ignore | {b.die}) < self.die + self.gap or \
                    math.dist(contact, b_rest) < self.die + self.gap:
                return None
            moved[b.die] = self._rest(b, b_rest[0], b_rest[1], 0.2)
            touched.add(b.die)
            rest = contact
            fall_dir = math.atan2(bdy, bdx)
        if self._clearance(rest[0], rest[1], ignore | set(moved)) < self.die + self.gap:
            return None
        moved[p.die] = self._rest(p, rest[0], rest[1], 0.5)
        # the top die falls beyond the temple, sometimes against a defender
        defenders = [self.bodies[d.id] for d in game.oracle_dice() if d.status == "play" and d.id not in moved
                     and math.hypot(self.bodies[d.id].x - temple.x, self.bodies[d.id].y - temple.y) < 95]
        fall = None
        if defenders and not own_temple and self.rng.random() < 0.3:
            d = self.rng.choice(defenders)
            ex, ey = temple.x - d.x, temple.y - d.y
            n = math.hypot(ex, ey) or 1.0
            fx, fy = d.x + ex / n * (self.die + 0.5), d.y + ey / n * (self.die + 0.5)
            if self._clearance(fx, fy, ignore | {d.die}) >= self.die + self.gap and \
                    all(math.dist((fx, fy), (b.x, b.y)) >= self.die + self.gap for b in moved.values()) \
                    and math.hypot(fx - temple.x, fy - temple.y) >= self.die + self.gap:
                fall = (fx, fy)
        if fall is None:
            for _ in range(30):
                a = fall_dir + math.radians(self.rng.uniform(-40, 40))
                r = self.rng.uniform(self.die + 12, self.die + 35)
                fx, fy = temple.x + r * math.cos(a), temple.y + r * math.sin(a)
                if self.inside(fx, fy) and self._clearance(fx, fy, ignore | set(moved)) >= self.die + self.gap and \
                        all(math.dist((fx, fy), (b.x, b.y)) >= self.die + self.gap for b in moved.values()):
                    fall = (fx, fy)
                    break
        if fall is None:
            return None
        fallen = Body(top, round(fall[0], 1), round(fall[1], 1), round(self.rng.uniform(0, 90), 1),
                      self.rng.choice(self.faces(top)), 1, "temple")
        target = words.temple(game, temple.index)
        if touched:
            label = says("drives-into-temple", oracle=words.oracle(game, min(touched)), temple=target)
        else:
            label = says("knocks-over-temple", temple=target)
        return self._finish(moved, touched, set(), label, toppled=temple.index, fall=fallen,
                            own=temple.index if own_temple else None)

    # push-backs

    def _push(self, step: dict[str, Any]) -> Iterator[Transition]:
        game = self.game
        owner, o, t = step["player"], step["oracle"], game.temples[step["temple"]]
        before = self._snapshot()
        events: list[Event] = []
        self._apply(owner, PushBack(o), events)
        intruder = self.bodies[o]
        plan = None
        others = [self.bodies[d.id] for d in game.oracle_dice() if d.status == "play" and d.id != o
                  and math.hypot(self.bodies[d.id].x - intruder.x, self.bodies[d.id].y - intruder.y) < 140]
        if others and self.rng.random() < 0.15:
            v = min(others, key=lambda b: math.hypot(b.x - intruder.x, b.y - intruder.y))
            dx, dy = v.x - intruder.x, v.y - intruder.y
            n = math.hypot(dx, dy)
            contact = (v.x - dx / n * self.die * 1.02, v.y - dy / n * self.die * 1.02)
            vend = (v.x + dx / n * 22, v.y + dy / n * 22)
            if self._obstacle((intruder.x, intruder.y), contact, {o, v.die}) is None and self.inside(*vend) and \
                    self._clearance(vend[0], vend[1], {o, v.die}) >= self.die + self.gap and \
                    self._clearance(contact[0], contact[1], {o, v.die}) >= self.die + self.gap:
                moved = {o: self._rest(intruder, contact[0], contact[1], 0.3), v.die: self._rest(v, vend[0], vend[1], 0.1)}
                plan = self._finish(moved, {v.die}, set(), says("push-touches", oracle=words.oracle(game, v.die)))
        if plan is None:
            for k in range(400):
                spread, reach = (25, 1.9) if k < 100 else (180, 1.9) if k < 250 else (180, 1.08)
                a = math.atan2(intruder.y - t.y, intruder.x - t.x) + math.radians(self.rng.uniform(-spread, spread))
                r = self.table.sacred_radius + self.rng.uniform(24, 60 if k < 100 else 110)
                x, y = t.x + r * math.cos(a), t.y + r * math.sin(a)
                rest = self._rest(intruder, x, y, 0.3)
                if self.inside(x, y) and self._free(x, y, {o}) and \
                        self._obstacle((intruder.x, intruder.y), (x, y), {o, *t.dice}, reach) is None and \
                        not any(self.table.in_sacred(tt.index, x, y, rest.angle) for tt in game.temples if tt.status == "standing"):
                    plan = self._finish({o: rest}, set(), set(), says("pushed-back", where=words.position(x, y)))
                    break
        if plan is None:
            raise RuntimeError(f"player {owner} cannot push oracle {o} anywhere")
        pushed = words.oracle(game, o)
        self.bodies.update(plan["bodies"])
        self._apply(CHANCE, plan["outcome"], events)
        label = says("push", player=game.named(owner),
                        oracle=pushed, what=plan["label"])
        yield self._transition(label, owner, before, [(owner, PushBack(o)), (CHANCE, plan["outcome"])], events)
        yield from self._tidy(plan, owner, before)
