"""Pixoid's two actions, and the names of the controller's direction wheel.

During the placement ("Pixoid place son deuxième cube sur le Pix de départ de son choix") a player
puts a piece on a start Pix: :class:`Place`. During the secret programming, each player sets a
direction and a distance for each piece they control: :class:`Program`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

#: The direction wheel's 8 arrows, in the controller's own order and spelling.
DIRECTIONS: tuple[str, ...] = ("up", "up-right", "right", "down-right", "down", "down-left", "left", "up-left")
#: The four arrows Pixoid allows ("haut, bas, gauche ou droite"), in the engine's direction order.
ORTHOGONAL: tuple[str, ...] = ("up", "right", "down", "left")
#: A direction name to the engine's direction number (0 up, 1 right, 2 down, 3 left).
DIRECTION_INDEX: dict[str, int] = {name: i for i, name in enumerate(ORTHOGONAL)}
DIAGONALS = frozenset(DIRECTIONS) - frozenset(ORTHOGONAL)


@dataclasses.dataclass(frozen=True)
class Place:
    """Put ``piece`` on the start Pix ``pix`` (``(row, column)`` from the board's top-left)."""

    piece: int
    pix: tuple[int, int]

    def __post_init__(self) -> None:
        if isinstance(self.pix, list):
            object.__setattr__(self, "pix", tuple(self.pix))


@dataclasses.dataclass(frozen=True)
class Program:
    """Program ``piece`` to move ``distance`` Pix (1 to 9) towards ``direction`` (a wheel arrow name)."""

    piece: int
    direction: str
    distance: int


def encode(action: Any) -> dict[str, Any]:
    if isinstance(action, Place):
        return {"type": "place", "piece": action.piece, "pix": list(action.pix)}
    if isinstance(action, Program):
        return {"type": "program", "piece": action.piece, "direction": action.direction, "distance": action.distance}
    raise ValueError(f"not a Pixoid action: {action!r}")


def decode(data: Any) -> Place | Program:
    if not isinstance(data, dict):
        raise ValueError(f"a Pixoid action is an object with a \"type\", not {data!r}")
    kind = data.get("type")
    try:
        if kind == "place":
            pix = data["pix"]
            if not (isinstance(pix, list) and len(pix) == 2 and all(type(v) is int for v in pix)):
                raise ValueError(f"\"pix\" must be [row, column], not {pix!r}")
            _whole(data["piece"], "piece")
            return Place(data["piece"], (pix[0], pix[1]))
        if kind == "program":
            _whole(data["piece"], "piece")
            _whole(data["distance"], "distance")
            if not isinstance(data["direction"], str):
                raise ValueError(f"\"direction\" must be an arrow name, not {data['direction']!r}")
            return Program(data["piece"], data["direction"], data["distance"])
    except KeyError as exc:
        raise ValueError(f"a {kind} action lacks {exc.args[0]!r}") from None
    raise ValueError(f"unknown Pixoid action type {kind!r} (expected \"place\" or \"program\")")


def _whole(value: Any, name: str) -> None:
    if type(value) is not int:
        raise ValueError(f"\"{name}\" must be a whole number, not {value!r}")
