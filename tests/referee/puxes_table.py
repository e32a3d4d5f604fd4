"""A PuXes table for tests: dice put where a test says, turned into TableSnapshots, and a referee
taken through the set-up, so each scenario starts from a real position built from snapshots."""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Iterable

from controller.engines.puxes import PuxesGame
from controller.referee.common import Call, Question
from controller.referee.puxes import PuxesReferee
from controller.vision.snapshot import DieFace, DieObservation, Stack, TableSnapshot

#: Starting faces of the default starter oracles (Hanuman, Crâne Yorick, Mr Blaireau, Arkan Sonney).
START_FACES = ("pi", "pirate", "bombe", "smiley")


class Scene:
    """Dice on the mat by camera id; :meth:`snap` gives the still snapshot."""

    def __init__(self) -> None:
        self.dice: dict[int, DieObservation] = {}
        self.stacks: dict[int, Stack] = {}
        self.clock = 0.0

    def put(self, cam: int, x: float, y: float, face: str | None = None, conf: float = 0.99, angle: float = 0.0,
            level: int = 1) -> None:
        self.dice[cam] = DieObservation(cam, float(x), float(y), angle, DieFace(symbol=face, confidence=conf), level=level)

    def lift(self, cam: int) -> None:
        """The die left the mat (or was set aside off camera)."""
        self.dice.pop(cam, None)

    def temple(self, stack_id: int, bottom: int, top: int, x: float, y: float) -> None:
        self.put(bottom, x, y, None, 0.0)
        self.put(top, x, y, "Oni", level=2)
        self.dice[bottom] = dataclasses.replace(self.dice[bottom], stack_id=stack_id)
        self.dice[top] = dataclasses.replace(self.dice[top], stack_id=stack_id)
        self.stacks[stack_id] = Stack(stack_id, (bottom, top), x, y)

    def topple(self, stack_id: int, to: tuple[float, float]) -> None:
        s = self.stacks[stack_id]
        self.stacks[stack_id] = dataclasses.replace(s, toppled=True, scattered_to=(to,))
        self.put(s.dice[1], to[0], to[1], "bombe")

    def rebuild(self, stack_id: int) -> None:
        s = self.stacks[stack_id]
        self.temple(stack_id, s.dice[0], s.dice[1], s.x_mm, s.y_mm)

    def snap(self, moved: Iterable[int] = (), still: bool = True) -> TableSnapshot:
        self.clock += 1.0
        return TableSnapshot(self.clock, tuple(self.dice[k] for k in sorted(self.dice)), tuple(self.stacks.values()),
                             moved=tuple(moved), still=still)


def oracle_cam(engine_id: int) -> int:
    return 100 + engine_id


def hero_cam(engine_id: int) -> int:
    return 200 + engine_id


def decisions(results: list[Call | Question]) -> list[str]:
    return [r.decision for r in results if isinstance(r, Call)]


class Table:
    """A referee, its game and the scene, set up through snapshots."""

    def __init__(self, options: dict[str, Any] | None = None, faces: dict[int, tuple[str, ...]] | None = None,
                 first: tuple[tuple[str, ...], ...] | None = None, names: tuple[str, ...] = (),
                 **config: Any) -> None:
        from controller.referee.common import RefereeConfig

        self.game = PuxesGame(options or {}, seed=0)
        self.game.name_seats(names)
        self.ref = PuxesReferee(self.game, RefereeConfig(**config))
        self.scene = Scene()
        for t in self.game.temples:
            a, b = t.dice
            self.scene.temple(t.index, 100 + a, 100 + b, t.x, t.y)
        self.setup_results: list[Call | Question] = []
        for p in range(self.game.num_players):
            oracles = sorted(self.game.oracles_of(p))
            chosen = (faces or {}).get(p, START_FACES * 2)
            for o, face in zip(oracles, chosen):
                gap = 2 * self.game.options.die_mm
                x, y = next(slot for slot in self.game.table.garden_slots(self.game.dice[o].home)
                            if all(math.dist(slot, (d.x_mm, d.y_mm)) >= gap for d in self.scene.dice.values()))
                self.scene.put(oracle_cam(o), x, y, face)
            self.setup_results += self.observe()
        if not self.game.options.toddlers:
            rolls = first or tuple(("Oni",) + ("pi",) * 3 if p == 0 else ("pi",) * 4 for p in range(self.game.num_players))
            for p in range(self.game.num_players):
                self.setup_results += self.roll(p, rolls[p])

    @property
    def g(self) -> PuxesGame:
        return self.ref.game

    def observe(self, moved: Iterable[int] = ()) -> list[Call | Question]:
        return self.ref.observe(self.scene.snap(moved))

    def roll(self, player: int, faces: tuple[str | None, ...], conf: float = 0.99) -> list[Call | Question]:
        """The player throws their heroes; they land in a row in the middle of the mat."""
        heroes = self.g.players[player].heroes
        for k, (h, face) in enumerate(zip(heroes, faces)):
            self.scene.put(hero_cam(h), 420 + 30 * k, 40 + 40 * player, face, conf)
        return self.observe(moved=[hero_cam(h) for h in heroes])

    def flick(self, oracle: int, x: float | None, y: float | None = None, face: str | None = None,
              conf: float = 0.99, also: dict[int, tuple[float, float] | None] | None = None) -> list[Call | Question]:
        """Oracle ``oracle`` comes to rest at (x, y) (``None``: off the mat); ``also`` moves others."""
        moved = []
        for o, pos in {oracle: (x, y) if x is not None else None, **(also or {})}.items():
            cam = oracle_cam(o)
            moved.append(cam)
            if pos is None:
                self.scene.lift(cam)
            else:
                old = self.scene.dice.get(cam)
                keep = face if o == oracle and face is not None else (old.face.symbol if old else None)
                self.scene.put(cam, pos[0], pos[1], keep, conf if o == oracle else 0.99)
        return self.observe(moved=moved)

    def pos(self, oracle: int) -> tuple[float, float]:
        d = self.g.dice[oracle]
        return (d.x, d.y)
