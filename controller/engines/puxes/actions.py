"""PuXes actions: small frozen dataclasses with a JSON encoding.

Players choose (:class:`Place`, :class:`ChooseFace`, :class:`UsePower`, :class:`Move`,
:class:`Wake`, :class:`PushBack`, :class:`Carry`, :class:`Reroll`, :class:`Spit`,
:class:`EndTurn`); the table reports what physically happened as actions of the CHANCE player
(:class:`Roll` for the heroes' faces, :class:`Outcome` for where a flicked die sent everything).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Union

from controller.engines.core import jsonable, tuplify


@dataclasses.dataclass(frozen=True)
class Place:
    """Put an oracle in a public garden (set-up, waking, replacing, Retraite, Attrape-moi).
    ``face`` is the face turned up when the owner chooses it, else ``None``."""

    oracle: int
    x: float
    y: float
    angle: float = 0.0
    face: str | None = None


@dataclasses.dataclass(frozen=True)
class ChooseFace:
    """Immunité: the saved oracle is put back where it left (at ``x``, ``y`` when given) showing the
    face the next player chooses."""

    oracle: int
    face: str
    x: float | None = None
    y: float | None = None


@dataclasses.dataclass(frozen=True)
class UsePower:
    """Activate the active power shown by hero die ``hero``.

    ``power`` is the power used (for Imitation, the copied one, with ``copied_from`` naming the
    opposing hero die); ``target`` an oracle, ``other`` a second die (Rétrogradé's own hero),
    ``face`` a face or symbol (Changement d'avis, Coup double)."""

    hero: int
    power: str
    target: int | None = None
    other: int | None = None
    face: str | None = None
    copied_from: int | None = None


@dataclasses.dataclass(frozen=True)
class Move:
    """Flick oracle ``oracle`` (une pichenette)."""

    oracle: int


@dataclasses.dataclass(frozen=True)
class Wake:
    """Wake a sleeping oracle instead of moving (a pair of symbols)."""

    oracle: int


@dataclasses.dataclass(frozen=True)
class PushBack:
    """The temple's owner flicks an intruding oracle out of the sacred garden."""

    oracle: int


@dataclasses.dataclass(frozen=True)
class Carry:
    """Transport or Vampirisation: take touched oracle ``oracle`` (Transport: ``on_top`` or under)."""

    oracle: int
    on_top: bool = True


@dataclasses.dataclass(frozen=True)
class Reroll:
    """Coup de bol: roll two heroes again."""

    heroes: tuple[int, int]


@dataclasses.dataclass(frozen=True)
class Spit:
    """Shoot with a hero die (cracher): Charme, Coup de langue, or, with ``fortress``, from the
    fortress (fortress mode)."""

    fortress: bool = False


@dataclasses.dataclass(frozen=True)
class EndTurn:
    """Finish the turn (when the move is done, or when no oracle may move)."""


@dataclasses.dataclass(frozen=True)
class Roll:
    """CHANCE: the faces the rolled heroes show, in the order of the roller's hero dice.

    ``cocked``: a die stopped on its edge or a corner (roll again); ``touched_oracle``: a hero
    touched an oracle during the roll (the turn is lost)."""

    faces: tuple[str, ...]
    cocked: bool = False
    touched_oracle: bool = False


@dataclasses.dataclass(frozen=True)
class Outcome:
    """CHANCE: where a flick (shot, push-back or spit) left the table once still.

    moved      (die, x, y, angle, face) for each oracle that moved; face ``None`` = unchanged
    touched    oracles touched by the played die, directly or by ricochet
    left       oracles that left the play area
    sacred     (oracle, temple) pairs: an oracle resting in that temple's sacred garden
    toppled    the temple whose top die fell, or ``None``
    toppled_touches  the fallen temple die touches an oracle
    toppled_left     the fallen temple die left the play area
    fortress   the oracle now resting in the fortress (fortress mode), or ``None``
    dislodged  oracles whose Petit gris (Séduction) was knocked off
    disturbed  players whose set-aside heroes were knocked (Imitation may then copy any of them)
    """

    moved: tuple[tuple[int, float, float, float, str | None], ...] = ()
    touched: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    sacred: tuple[tuple[int, int], ...] = ()
    toppled: int | None = None
    toppled_touches: bool = False
    toppled_left: bool = False
    fortress: int | None = None
    dislodged: tuple[int, ...] = ()
    disturbed: tuple[int, ...] = ()


Action = Union[Place, ChooseFace, UsePower, Move, Wake, PushBack, Carry, Reroll, Spit, EndTurn, Roll, Outcome]

KINDS: dict[str, type] = {
    "place": Place, "face": ChooseFace, "power": UsePower, "move": Move, "wake": Wake,
    "push": PushBack, "carry": Carry, "reroll": Reroll, "spit": Spit, "end": EndTurn,
    "roll": Roll, "outcome": Outcome,
}
_NAMES = {cls: name for name, cls in KINDS.items()}


def encode(action: Any) -> dict[str, Any]:
    """An action as a JSON object: ``{"type": kind, ...fields}`` with tuples as lists."""
    name = _NAMES.get(type(action))
    if name is None:
        raise ValueError(f"not a PuXes action: {action!r}")
    data: dict[str, Any] = {"type": name}
    for field in dataclasses.fields(action):
        data[field.name] = jsonable(getattr(action, field.name))
    return data


def decode(data: Any) -> Any:
    """The action from :func:`encode`'s object; ``ValueError`` naming the problem."""
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError(f"a PuXes action is an object with a \"type\", not {data!r}")
    cls = KINDS.get(data["type"])
    if cls is None:
        raise ValueError(f"unknown PuXes action type {data['type']!r}; known: {', '.join(KINDS)}")
    fields = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - fields - {"type"}
    if extra:
        raise ValueError(f"unknown field(s) {', '.join(sorted(extra))} for a {data['type']} action")
    values = {k: tuplify(v) for k, v in data.items() if k != "type"}
    try:
        return cls(**values)
    except TypeError as exc:
        raise ValueError(f"bad {data['type']} action: {exc}") from None

