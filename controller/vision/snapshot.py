"""What the camera tells the referees: a :class:`TableSnapshot` of a still table.

Positions are in millimetres in the mat's frame (origin at the mat's top-left corner as printed,
x to the right, y downwards), already corrected for the height of each die's top face.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any


def replaced(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace(obj, **changes)`` for the plain dataclasses of the camera's results
    (no ``__post_init__``, no slots), at a tenth of its cost: a snapshot of forty dice makes a
    hundred such copies."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


@dataclasses.dataclass(frozen=True)
class DieFace:
    """A top face as read: ``pips`` (1..6) for pip dice, or ``symbol`` (a face-library name) for
    DiXe; both ``None`` when unreadable. ``confidence`` is in 0..1."""

    pips: int | None = None
    symbol: str | None = None
    confidence: float = 0.0

    @property
    def readable(self) -> bool:
        return self.pips is not None or self.symbol is not None

    @property
    def label(self) -> str:
        if self.pips is not None:
            return str(self.pips)
        return self.symbol if self.symbol is not None else "unreadable"


@dataclasses.dataclass(frozen=True)
class DieObservation:
    """One die (or the top die of a stack) on the table."""

    die_id: int                          # kept between snapshots by the tracker
    x_mm: float
    y_mm: float
    angle_deg: float                     # rotation of the top face, 0..90
    face: DieFace
    level: int = 1                       # 1 on the mat, 2 on top of another die
    on_mat: bool = True                  # False: off the mat entirely
    at_edge: bool = False                # partly over the mat's edge
    colour: str | None = None            # the die's body colour name, when calibrated
    stack_id: int | None = None          # shared by the dice of one stack (a temple)


@dataclasses.dataclass(frozen=True)
class Stack:
    """Dice standing one on another (a temple, for example). ``dice`` lists die ids from bottom to top."""

    stack_id: int
    dice: tuple[int, ...]
    x_mm: float
    y_mm: float
    toppled: bool = False
    scattered_to: tuple[tuple[float, float], ...] = ()   # where the dice went after a topple


@dataclasses.dataclass(frozen=True)
class Occlusion:
    """Something over the mat that is not a die (a hand, an arm), as a box in millimetres."""

    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float
    kind: str = "hand"


@dataclasses.dataclass(frozen=True)
class TableSnapshot:
    """The table once still: every die, stack and occlusion, with a timestamp (seconds)."""

    timestamp: float
    dice: tuple[DieObservation, ...] = ()
    stacks: tuple[Stack, ...] = ()
    occlusions: tuple[Occlusion, ...] = ()
    moved: tuple[int, ...] = ()          # die ids that moved since the previous snapshot
    still: bool = True

    def die(self, die_id: int) -> DieObservation:
        for die in self.dice:
            if die.die_id == die_id:
                return die
        raise KeyError(f"no die {die_id} in this snapshot (dice: {[d.die_id for d in self.dice]})")

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSnapshot:
        dice = tuple(
            DieObservation(**{**d, "face": DieFace(**d["face"])}) for d in data.get("dice", ())
        )
        stacks = tuple(
            Stack(**{**s, "dice": tuple(s["dice"]), "scattered_to": tuple(tuple(p) for p in s.get("scattered_to", ()))})
            for s in data.get("stacks", ())
        )
        occlusions = tuple(Occlusion(**o) for o in data.get("occlusions", ()))
        return cls(
            timestamp=data["timestamp"], dice=dice, stacks=stacks, occlusions=occlusions,
            moved=tuple(data.get("moved", ())), still=data.get("still", True),
        )
