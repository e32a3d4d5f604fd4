"""MémoDiXe's actions: small frozen dataclasses with a JSON encoding.

Places on the square are numbered 0 to 8, row by row from the top left; texts name them like a chess
board, columns a-c and rows 1-3 (``b2`` is the centre, place 4).

Players choose (:class:`Flip`, :class:`CallDixe`, :class:`Take`, the powers' choices...); the table
reports what no one chooses as actions of the CHANCE player: the face a rolled die lands on
(:class:`Roll`), who grabbed the middle die first (:class:`Race`), and, in "Oni contre tous", the two
interruptions the app sends at any moment: a failed gage (:class:`Penalty`) and the end of the
countdown (:class:`TimeUp`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from controller.engines.core import jsonable, tuplify

COLUMNS = "abc"


def place_label(place: int) -> str:
    """``0`` -> ``"a1"``, ``4`` -> ``"b2"``, ``8`` -> ``"c3"``."""
    return f"{COLUMNS[place % 3]}{place // 3 + 1}"


@dataclasses.dataclass(frozen=True)
class Flip:
    """Turn the die at ``place`` over to show its hidden face ("retourner")."""

    place: int


@dataclasses.dataclass(frozen=True)
class CallDixe:
    """Cry « DiXe !!! »: no pair is left to find in the square."""


@dataclasses.dataclass(frozen=True)
class Take:
    """After a pair: win the die at ``place`` (one of the two); the other is rolled again."""

    place: int


@dataclasses.dataclass(frozen=True)
class Roll:
    """CHANCE: the face a rolled die landed on (face up)."""

    face: str


@dataclasses.dataclass(frozen=True)
class Peek:
    """Look at the hidden face at ``place``: secretly (power peek, "Oni triche") or for all to see
    (the peek power in "Oni contre tous": "montrer à tous")."""

    place: int


@dataclasses.dataclass(frozen=True)
class Skip:
    """Decline an optional choice ("vous pouvez...")."""


@dataclasses.dataclass(frozen=True)
class Steal:
    """Power steal: take one die from ``seat``."""

    seat: int


@dataclasses.dataclass(frozen=True)
class Give:
    """Power share: give one of your dice to ``seat`` (one of the poorest, tied)."""

    seat: int


@dataclasses.dataclass(frozen=True)
class Swap:
    """Exchange the dice at places ``a`` and ``b`` without turning them."""

    a: int
    b: int


@dataclasses.dataclass(frozen=True)
class SetAside:
    """Put the die at ``place`` aside; its place stays empty until it comes back."""

    place: int


@dataclasses.dataclass(frozen=True)
class Reroll:
    """Roll the die at ``place`` again and put it back as it lands."""

    place: int


@dataclasses.dataclass(frozen=True)
class ChooseFace:
    """Oni contre tous, power swap: put the remaining die back resting on ``face`` (its hidden face)."""

    face: str


@dataclasses.dataclass(frozen=True)
class Announce:
    """Oni contre tous, power aside: announce a kind shown on no top face."""

    kind: str


@dataclasses.dataclass(frozen=True)
class EndGame:
    """Optional rule, after a right « DiXe ! »: end the game now."""


@dataclasses.dataclass(frozen=True)
class PlayOn:
    """Optional rule, after a right « DiXe ! »: roll the remaining dice again and play on."""


@dataclasses.dataclass(frozen=True)
class Centre:
    """Oni: move the die at ``place`` to the free centre of the square."""

    place: int


@dataclasses.dataclass(frozen=True)
class TurnOver:
    """Oni ("Oni retourne"): turn the die at ``place`` so that ``face`` is its hidden face."""

    place: int
    face: str


@dataclasses.dataclass(frozen=True)
class Relaunch:
    """Oni: roll a won die from the bag into the free ``place``."""

    place: int


@dataclasses.dataclass(frozen=True)
class Race:
    """CHANCE ("Vol le DiXe du milieu"): whether Oni grabbed the middle die before the players."""

    oni_first: bool


@dataclasses.dataclass(frozen=True)
class Penalty:
    """CHANCE, at any moment in Oni contre tous: a gage was failed, Oni relaunches a won die."""


@dataclasses.dataclass(frozen=True)
class TimeUp:
    """CHANCE, at any moment in Oni contre tous: the countdown rang; Oni wins."""


KINDS: dict[str, type] = {
    "flip": Flip, "dixe": CallDixe, "take": Take, "roll": Roll, "peek": Peek, "skip": Skip, "steal": Steal,
    "give": Give, "swap": Swap, "aside": SetAside, "reroll": Reroll, "face": ChooseFace, "announce": Announce,
    "end": EndGame, "play-on": PlayOn, "centre": Centre, "turn-over": TurnOver, "relaunch": Relaunch,
    "race": Race, "penalty": Penalty, "time-up": TimeUp,
}
_NAMES = {cls: name for name, cls in KINDS.items()}
ACTION_TYPES = tuple(KINDS.values())
#: The field types, checked on decoding so a save cannot smuggle ``True`` for a place.
_FIELD_TYPES = {"place": int, "seat": int, "a": int, "b": int, "face": str, "kind": str, "oni_first": bool}


def encode(action: Any) -> dict[str, Any]:
    """An action as a JSON object: ``{"type": name, ...fields}``."""
    name = _NAMES.get(type(action))
    if name is None:
        raise ValueError(f"not a MémoDiXe action: {action!r}")
    data: dict[str, Any] = {"type": name}
    for field in dataclasses.fields(action):
        data[field.name] = jsonable(getattr(action, field.name))
    return data


def decode(data: Any) -> Any:
    """The action from :func:`encode`'s object; ``ValueError`` naming the problem."""
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError(f"a MémoDiXe action is an object with a \"type\", not {data!r}")
    cls = KINDS.get(data["type"])
    if cls is None:
        raise ValueError(f"unknown MémoDiXe action type {data['type']!r}; known: {', '.join(KINDS)}")
    fields = {f.name for f in dataclasses.fields(cls)}
    given = set(data) - {"type"}
    if given != fields:
        raise ValueError(f"a {data['type']} action has the fields {', '.join(sorted(fields)) or 'none'}, "
                         f"not {', '.join(sorted(given)) or 'none'}")
    values = {k: tuplify(v) for k, v in data.items() if k != "type"}
    for key, value in values.items():
        if type(value) is not _FIELD_TYPES[key]:
            raise ValueError(f"{key} must be {_FIELD_TYPES[key].__name__}, not {value!r}")
    return cls(**values)
