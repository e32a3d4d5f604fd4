"""Praxis's actions: what a player does on a turn, what the table reports, and their JSON form.

A turn ("À son tour de jeu") is made of steps, each one action:

* :class:`Put` an artefact from the hand on a cell, and :class:`Move` a ship (either order), or
  :class:`TakeOff` from the spaceport instead of moving; :class:`Pass` only when nothing is possible;
* the choices an activated artefact asks for: :class:`Torpedo` (which adjacent ship to fight),
  :class:`Teleport` (where to come out), :class:`Build` (where the shipyard's ship enters),
  :class:`Keep` (the scanner's two), :class:`Discard` (the portal's sucked-in artefact that is
  discarded), :class:`PortalGrid` (the grid the portal is put back on).

The table (the :data:`~controller.engines.core.CHANCE` player) reports :class:`Roll` (a white die)
and :class:`FirstPlayer` ("Le premier joueur est tiré au hasard").

Cells are numbers 0..35 in actions (see :func:`~controller.engines.praxis.universe.cell_index`) and
``"grid.cell"`` names in JSON; artefacts are keys such as ``"plus-one"``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from controller.engines.praxis.universe import cell_index, cell_label


@dataclasses.dataclass(frozen=True)
class Move:
    """Slide the acting player's ship ``ship`` (0 or 1) to cell ``to`` (an attack if a ship is there)."""

    ship: int
    to: int


@dataclasses.dataclass(frozen=True)
class Put:
    """Put the artefact ``artefact`` (a key, ``"plus-one"``) from the hand on cell ``cell``."""

    artefact: str
    cell: int


@dataclasses.dataclass(frozen=True)
class TakeOff:
    """Take a ship off from the spaceport ("Décollage du spatioport"); its cell is rolled."""


@dataclasses.dataclass(frozen=True)
class Pass:
    """End the turn doing nothing: only legal when no move, take-off or put is possible."""


@dataclasses.dataclass(frozen=True)
class Torpedo:
    """Fight the ship on cell ``target`` with the quantum torpedo just activated."""

    target: int


@dataclasses.dataclass(frozen=True)
class Teleport:
    """Come out of the teleporter on cell ``to`` (the other teleporter or an activatable portal)."""

    to: int


@dataclasses.dataclass(frozen=True)
class Build:
    """Bring the shipyard's ship into the universe on cell ``cell``."""

    cell: int


@dataclasses.dataclass(frozen=True)
class Keep:
    """Keep these two scanned artefacts (keys, sorted); the others are discarded."""

    artefacts: tuple[str, ...]

    def __post_init__(self) -> None:
        kept = tuple(self.artefacts) if isinstance(self.artefacts, (list, tuple)) else self.artefacts
        if isinstance(kept, tuple) and all(isinstance(k, str) for k in kept):
            kept = tuple(sorted(kept))
        object.__setattr__(self, "artefacts", kept)


@dataclasses.dataclass(frozen=True)
class Discard:
    """Of the artefacts the portal sucked in, discard one of this kind; the rest go to the spaceport."""

    artefact: str


@dataclasses.dataclass(frozen=True)
class PortalGrid:
    """Put the activated portal back on grid ``grid`` (1 to 6); its cell is rolled."""

    grid: int


@dataclasses.dataclass(frozen=True)
class Roll:
    """The table reports a white die showing ``value`` (1 to 6)."""

    value: int


@dataclasses.dataclass(frozen=True)
class FirstPlayer:
    """The table reports who was drawn to play first."""

    seat: int


Action = Move | Put | TakeOff | Pass | Torpedo | Teleport | Build | Keep | Discard | PortalGrid | Roll | FirstPlayer

TAKE_OFF = TakeOff()
PASS = Pass()
ROLLS: tuple[Roll, ...] = tuple(Roll(v) for v in range(1, 7))


def _cell_json(index: Any) -> Any:
    return cell_label(index) if type(index) is int and 0 <= index < 36 else index


def encode(action: Any) -> dict[str, Any]:
    """An action as JSON-friendly data."""
    kind = type(action)
    if kind is Move:
        return {"type": "move", "ship": action.ship, "to": _cell_json(action.to)}
    if kind is Put:
        return {"type": "put", "artefact": action.artefact, "cell": _cell_json(action.cell)}
    if kind is Roll:
        return {"type": "roll", "value": action.value}
    if kind is TakeOff:
        return {"type": "take-off"}
    if kind is Pass:
        return {"type": "pass"}
    if kind is Torpedo:
        return {"type": "torpedo", "target": _cell_json(action.target)}
    if kind is Teleport:
        return {"type": "teleport", "to": _cell_json(action.to)}
    if kind is Build:
        return {"type": "build", "cell": _cell_json(action.cell)}
    if kind is Keep:
        return {"type": "keep", "artefacts": list(action.artefacts)}
    if kind is Discard:
        return {"type": "discard", "artefact": action.artefact}
    if kind is PortalGrid:
        return {"type": "portal-grid", "grid": action.grid}
    if kind is FirstPlayer:
        return {"type": "first-player", "seat": action.seat}
    raise ValueError(f"not a Praxis action: {action!r}")


def _cell(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"\"{key}\" must name a cell as \"grid.cell\", not {value!r}")
    return cell_index(value)


def _whole(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if type(value) is not int:
        raise ValueError(f"\"{key}\" must be a whole number, not {value!r}")
    return value


def _text(data: dict[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"\"{key}\" must be an artefact's name, not {value!r}")
    return value


def decode(data: Any) -> Action:
    """The action back from :func:`encode`'s data; ``ValueError`` if it is malformed."""
    if not isinstance(data, dict):
        raise ValueError(f"a Praxis action is an object with a \"type\", not {data!r}")
    kind = data.get("type")
    try:
        if kind == "move":
            return Move(_whole(data, "ship"), _cell(data, "to"))
        if kind == "put":
            return Put(_text(data, "artefact"), _cell(data, "cell"))
        if kind == "roll":
            return Roll(_whole(data, "value"))
        if kind == "take-off":
            return TAKE_OFF
        if kind == "pass":
            return PASS
        if kind == "torpedo":
            return Torpedo(_cell(data, "target"))
        if kind == "teleport":
            return Teleport(_cell(data, "to"))
        if kind == "build":
            return Build(_cell(data, "cell"))
        if kind == "keep":
            kept = data["artefacts"]
            if not isinstance(kept, list) or not all(isinstance(k, str) for k in kept):
                raise ValueError(f"\"artefacts\" must be a list of artefact names, not {kept!r}")
            return Keep(tuple(kept))
        if kind == "discard":
            return Discard(_text(data, "artefact"))
        if kind == "portal-grid":
            return PortalGrid(_whole(data, "grid"))
        if kind == "first-player":
            return FirstPlayer(_whole(data, "seat"))
    except KeyError as exc:
        raise ValueError(f"a {kind} action lacks {exc.args[0]!r}") from None
    raise ValueError(
        f"unknown Praxis action type {kind!r} (expected move, put, take-off, pass, torpedo, teleport, build, "
        "keep, discard, portal-grid, roll or first-player)"
    )
