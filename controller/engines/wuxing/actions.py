"""Wuxing duel's actions, one small frozen class each.

Le chemin du duel (secret, both players at once): :class:`Discard` sets a card aside at the start
("selon son choix au début de la partie"), :class:`Play` plays a card in a duel.

Le théâtre du duel (one player at a time): :class:`Move` moves a pawn along a row or a column,
:class:`Stay` pays a token without moving ("il utilise un jeton et reste sur place"), :class:`Flip`
turns an empty island over once both players are out of tokens.

Pawns are 0 to 3, shown as A to D (the controller's symbol wheel); squares are ``(row, column)``
from the top-left of the board as seat 0 sees it, named ``a5``..``e1`` like a chess board (columns
a to e from the left, rows 1 to 5 from seat 0's edge).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from controller.engines.wuxing.elements import COLOURS, ELEMENT_NAMES, element

#: The four arrows a pawn may follow, as the direction wheel names them; (row, column) steps.
STEPS: dict[str, tuple[int, int]] = {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}
ORTHOGONAL: tuple[str, ...] = tuple(STEPS)
#: The direction wheel's other arrows, which no pawn follows.
DIAGONALS: frozenset[str] = frozenset({"up-right", "down-right", "down-left", "up-left"})
PAWN_LETTERS = "ABCD"


@dataclasses.dataclass(frozen=True)
class Discard:
    """Set ``element``'s card aside before the first duel."""

    element: int


@dataclasses.dataclass(frozen=True)
class Play:
    """Play ``element``'s card in this duel."""

    element: int


@dataclasses.dataclass(frozen=True)
class Move:
    """Move ``pawn`` (0-3, A-D) ``distance`` squares towards ``direction`` (up, right, down, left)."""

    pawn: int
    direction: str
    distance: int


@dataclasses.dataclass(frozen=True)
class Stay:
    """Pay a ``colour`` token and stay: only for a player who cannot move."""

    colour: str


@dataclasses.dataclass(frozen=True)
class Flip:
    """Turn the empty island on ``square`` (row, column) over to its side without an island."""

    square: tuple[int, int]

    def __post_init__(self) -> None:
        if isinstance(self.square, list):
            object.__setattr__(self, "square", tuple(self.square))


def square_name(square: tuple[int, int]) -> str:
    """``(row, column)`` as ``"c4"``: column letter from the left, row number from seat 0's edge."""
    r, c = tuple(square)
    return f"{'abcde'[c]}{5 - r}" if 0 <= r < 5 and 0 <= c < 5 else repr(square)


def encode(action: Any) -> dict[str, Any]:
    if isinstance(action, Discard):
        return {"type": "discard", "element": ELEMENT_NAMES[action.element]}
    if isinstance(action, Play):
        return {"type": "play", "element": ELEMENT_NAMES[action.element]}
    if isinstance(action, Move):
        return {"type": "move", "pawn": PAWN_LETTERS[action.pawn], "direction": action.direction,
                "distance": action.distance}
    if isinstance(action, Stay):
        return {"type": "stay", "colour": action.colour}
    if isinstance(action, Flip):
        return {"type": "flip", "square": square_name(action.square)}
    raise ValueError(f"not a Wuxing duel action: {action!r}")


def decode(data: Any) -> Discard | Play | Move | Stay | Flip:
    if not isinstance(data, dict):
        raise ValueError(f"a Wuxing duel action is an object with a \"type\", not {data!r}")
    kind = data.get("type")
    try:
        if kind in ("discard", "play"):
            cls = Discard if kind == "discard" else Play
            return cls(element(_text(data["element"], "element")))
        if kind == "move":
            pawn = _text(data["pawn"], "pawn")
            if pawn not in PAWN_LETTERS or len(pawn) != 1:
                raise ValueError(f"\"pawn\" is a letter A to D, not {pawn!r}")
            if type(data["distance"]) is not int:
                raise ValueError(f"\"distance\" must be a whole number, not {data['distance']!r}")
            return Move(PAWN_LETTERS.index(pawn), _text(data["direction"], "direction"), data["distance"])
        if kind == "stay":
            colour = _text(data["colour"], "colour")
            if colour not in COLOURS:
                raise ValueError(f"\"colour\" is blue or red, not {colour!r}")
            return Stay(colour)
        if kind == "flip":
            name = _text(data["square"], "square")
            if len(name) != 2 or name[0] not in "abcde" or name[1] not in "12345":
                raise ValueError(f"\"square\" is a1 to e5, not {name!r}")
            return Flip((5 - int(name[1]), "abcde".index(name[0])))
    except KeyError as exc:
        raise ValueError(f"a {kind} action lacks {exc.args[0]!r}") from None
    raise ValueError(f"unknown Wuxing duel action type {kind!r} (discard, play, move, stay or flip)")


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"\"{name}\" must be text, not {value!r}")
    return value
