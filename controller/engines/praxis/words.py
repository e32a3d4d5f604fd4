"""The words Praxis puts inside its sentences, kept to be said in the reader's language.

The sentences themselves are English msgids marked with ``N_`` where the engine says them (events in
``game.py``, refusals in ``refusals.py``), in the ``praxis`` gettext domain; their French, in the
rulebook's own words, is in ``controller/locale/fr/LC_MESSAGES/praxis.po``. What goes inside them
is a plain value (a cell ``"3.5"``, a number, a seat's display name) or one of the messages made
here: an artefact's name, a list read naturally, a seat with no display name, what a refusal says is
awaited, an action in words.

    >>> from controller.i18n import said
    >>> said(artefact("torpedo"), "fr"), said(artefacts(["plus-one", "scanner"]), "en")
    ('Torpille quantique', 'Plus one and Scanner')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from controller.engines.praxis.actions import (
    Build,
    Discard,
    FirstPlayer,
    Keep,
    Move,
    Pass,
    PortalGrid,
    Put,
    Roll,
    TakeOff,
    Teleport,
    Torpedo,
)
from controller.engines.praxis.universe import CELLS, cell_label
from controller.i18n import N_, listing, message

if TYPE_CHECKING:
    from controller.engines.core import Game

#: Each artefact's English name by key, as ``data/artefacts.csv`` gives it; the French catalogue says
#: the rulebook's name ("Plus un", "Torpille quantique"...), the CSV's ``french`` column.
ARTEFACT_NAMES: dict[str, str] = {
    "plus-one": N_("Plus one"),
    "plus-two": N_("Plus two"),
    "plus-three": N_("Plus three"),
    "minus-one": N_("Minus one"),
    "minus-two": N_("Minus two"),
    "minus-three": N_("Minus three"),
    "mutation": N_("Random mutation"),
    "torpedo": N_("Quantum torpedo"),
    "mines": N_("Mine constellation"),
    "scanner": N_("Scanner"),
    "shipyard": N_("Shipyard"),
    "virus": N_("Computer virus"),
    "teleporter": N_("Teleporter"),
    "black-star": N_("Black star"),
    "portal": N_("Portal"),
}

#: Why an artefact cannot apply (the ``why`` of a refusal to land on it), by artefact family.
NOT_APPLICABLE: dict[str, str] = {
    "plus": N_("the face is already 6"),
    "minus": N_("the face is already 1"),
    "torpedo": N_("no opposing ship is adjacent to it"),
    "scanner": N_("the draw pile is empty"),
    "shipyard": N_("no ship waits in the spaceport, or no empty cell is adjacent"),
    "virus": N_("no artefact other than a portal is adjacent to it"),
    "teleporter": N_("there is no other teleporter and no activatable portal"),
    "portal": N_("no artefact other than a portal is adjacent to it, so nothing would be sucked in"),
}

#: How a ship slides by its active face (the rulebook's "Déplacements possibles d'un vaisseau").
FACE_MOVES: dict[int, str] = {
    1: N_("orthogonally"),
    2: N_("diagonally"),
    3: N_("orthogonally or diagonally"),
    4: N_("diagonally"),
    5: N_("orthogonally or diagonally"),
    6: N_("diagonally"),
}

#: What a refusal says is awaited ("{seat} must now ..."), by step name.
EXPECTED: dict[str, str] = {
    "roll": N_("roll the die"),
    "first-player": N_("say who plays first"),
    "main": N_("move a ship and put an artefact (either first), or take off from the spaceport"),
    "move": N_("move the ship next to the artefact just put"),
    "put": N_("put an artefact next to the ship that arrived"),
    "torpedo": N_("choose the ship the torpedo fights"),
    "teleport": N_("choose where the teleporter sends the ship"),
    "build": N_("choose the cell the shipyard's ship enters on"),
    "keep": N_("choose the two scanned artefacts to keep"),
    "discard": N_("choose which artefact sucked in by the portal is discarded"),
    "portal-grid": N_("choose the grid the portal goes back on"),
}


def artefact(key: Any) -> Any:
    """An artefact's name as a message, from its key; anything that names none, quoted as given."""
    name = ARTEFACT_NAMES.get(key) if isinstance(key, str) else None
    return message(name) if name is not None else repr(key)


def artefacts(keys: Iterable[str]) -> Any:
    """Artefacts' names as one natural list ("Plus one, Scanner and Virus"); "nothing" when empty."""
    keys = list(keys)
    return listing([artefact(k) for k in keys]) if keys else message(N_("nothing"))


def seat(game: Game[Any], number: int) -> Any:
    """How a sentence names seat ``number``: its display name, or "seat N" said in the reader's
    language when it has none."""
    label = game.seat_label(number)
    if label == f"{game.SEAT_WORD} {number}":
        return message(N_("seat {number}"), number=number)
    return label


def cell(value: Any) -> str:
    """A cell's name (``"3.5"``) from its number; anything else quoted as given."""
    return cell_label(value) if type(value) is int and 0 <= value < CELLS else repr(value)


def action(game: Game[Any], act: Any) -> Any:
    """An action in words, to quote in a refusal ("move ship 0 to 3.4")."""
    kind = type(act)
    if kind is Move:
        return message(N_("move ship {ship} to {cell}"), ship=act.ship, cell=cell(act.to))
    if kind is Put:
        return message(N_("put {artefact} on {cell}"), artefact=artefact(act.artefact), cell=cell(act.cell))
    if kind is TakeOff:
        return message(N_("take off"))
    if kind is Pass:
        return message(N_("pass"))
    if kind is Roll:
        return message(N_("a roll of {value}"), value=act.value)
    if kind is FirstPlayer:
        who = seat(game, act.seat) if type(act.seat) is int and 0 <= act.seat < game.num_players else repr(act.seat)
        return message(N_("say {seat} plays first"), seat=who)
    if kind is Torpedo:
        return message(N_("fight the ship on {cell}"), cell=cell(act.target))
    if kind is Teleport:
        return message(N_("come out on {cell}"), cell=cell(act.to))
    if kind is Build:
        return message(N_("bring the ship in on {cell}"), cell=cell(act.cell))
    if kind is Keep:
        kept = act.artefacts if isinstance(act.artefacts, tuple) else (act.artefacts,)
        return message(N_("keep {artefacts}"), artefacts=listing([artefact(k) for k in kept]))
    if kind is Discard:
        return message(N_("discard {artefact}"), artefact=artefact(act.artefact))
    if kind is PortalGrid:
        return message(N_("put the portal back on grid {grid}"), grid=act.grid)
    return repr(act)
