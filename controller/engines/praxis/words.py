"""Every sentence Praxis says to players: event texts and refusals, as message ids with parameters.

The engine never writes a sentence itself: it names a message id and its arguments, and
:func:`say` renders the English template. An event carries both (``Event.data["msg"]`` and
``Event.data["args"]``), so a French catalogue (or gettext) can render the same event later
without touching the engine. Arguments are plain data: seat labels, cell names (``"3.5"``),
artefact keys (``"plus-one"``, rendered as their English names), numbers.

    >>> say("put", {"seat": "seat 0", "artefact": "plus-one", "cell": "3.5"})
    'seat 0 puts a Plus one on 3.5'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.engines.praxis.artefacts import ARTEFACTS, KIND

#: English templates by message id.
MESSAGES: dict[str, str] = {
    # ---- set-up ----
    "grid-rolled": "grid {grid} is rolled; now roll the cell",
    "reroll-grid": "grid {grid} has no empty cell: roll the grid again",
    "reroll-cell": "cell {cell} is occupied: roll again",
    "portal-placed": "a portal is placed on {cell}",
    "ship-placed": "{seat}'s first ship enters on {cell}; now roll its face",
    "face-rolled": "{seat}'s ship on {cell} shows face {face}",
    "first-player": "{seat} plays first",
    # ---- a turn ----
    "turn": "{seat}'s turn",
    "put": "{seat} puts a {artefact} on {cell}",
    "drew": "{seat} draws {count} artefact(s)",
    "moved": "{seat}'s ship moves from {start} to {cell}",
    "attack": "{seat}'s ship (face {face}) attacks {defender}'s ship (face {defender_face}) on {cell}; "
              "{defender}'s ship goes back to its spaceport",
    "take-off": "{seat} takes a ship off from the spaceport: roll its grid",
    "ship-entered": "{seat}'s ship enters on {cell} with face 1",
    "no-put": "{seat} has no empty cell to put an artefact on next to {cell}",
    "passed": "{seat} can neither move nor put an artefact and passes",
    # ---- artefacts ----
    "activated": "{seat} activates a {artefact} on {cell}",
    "face-changed": "{seat}'s ship on {cell} now shows face {face}",
    "roll-face": "roll the new face of {seat}'s ship on {cell}",
    "torpedo-target": "{seat}'s torpedo fights {defender}'s ship on {cell}: roll for the attacker, then the defender",
    "torpedo-roll": "the attacker rolls {value}: {total} in all; now roll for the defender",
    "torpedo-won": "{winner} wins the torpedo fight ({attack} against {defence}); {loser}'s ship on {cell} "
                   "goes back to its spaceport",
    "left-universe": "{seat}'s ship on {cell} leaves the universe and goes back to its spaceport",
    "scanned": "{seat} scans {count} artefact(s) and keeps {keep}",
    "kept": "{seat} keeps two scanned artefacts and discards the other {count}",
    "built": "{seat}'s ship comes out of the shipyard on {cell}; now roll its face",
    "virus": "the virus discards {artefacts}",
    "teleported": "{seat}'s ship is teleported to {cell}",
    "black-star": "the black star sends every ship of grid {grid} back to its spaceport",
    "portal-sucked": "the portal on {cell} sucks in {artefacts}",
    "collected": "{seat} collects {artefacts}: {points} point(s), {total} in all",
    "discarded": "{seat} discards the {artefact} the portal sucked in",
    "portal-grid": "{seat} puts the portal back on grid {grid}: roll its cell",
    # ---- the end ----
    "last-round-points": "{seat} has {points} points: the round of the table is finished, then points are counted",
    "last-round-pile": "the draw pile is empty: the round of the table is finished, then points are counted",
    "stuck": "nobody can move or put an artefact: the game ends and points are counted",
    "game-over": "the game is over: {winners} won with {points} point(s)",
    # ---- refusals ----
    "refuse.step": "{seat} must now {expected}; {action} is not that",
    "refuse.unknown-artefact": "there is no artefact called {artefact!r}; the artefacts are {known}",
    "refuse.not-in-hand": "{seat} has no {artefact} in hand (hand: {hand})",
    "refuse.no-such-cell": "{cell!r} is not a cell: cells are numbered 0 to 35, or named grid.cell like \"3.5\"",
    "refuse.cell-occupied": "{cell} is not empty: the cell receiving an artefact must be empty "
                            "(\"La case d'espace recevant l'artefact doit être vide\")",
    "refuse.put-adjacent": "{cell} is not next to {where}: an artefact is put on a cell adjacent, by an edge or a "
                           "corner, to {whose}",
    "refuse.put-blocks-move": "putting the {artefact} on {cell} would leave no move to the ship next to it; the move "
                              "is compulsory unless impossible, so move first or put it elsewhere",
    "refuse.move-first": "{seat} cannot put an artefact first: none of their ships could then move, and moving or "
                         "taking off is possible",
    "refuse.no-such-ship": "{seat} has ships 0 and 1, not {ship!r}",
    "refuse.ship-in-spaceport": "{seat}'s ship {ship} is in the spaceport: take it off instead of moving it",
    "refuse.move-that-ship": "after putting the artefact, {seat} moves the ship next to it ({ships}), not ship {ship}",
    "refuse.face-direction": "a ship showing {face} moves {how}; {cell} is not on such a line from {start}",
    "refuse.no-jumping": "{blocker} is in the way between {start} and {cell}: a ship slides over empty cells without "
                         "jumping (\"glisse d'une ou plusieurs cases d'espace vides sans sauter\")",
    "refuse.own-ship": "{cell} holds {seat}'s own ship: a cell holds one ship",
    "refuse.attack-face": "an attack needs the attacker's face to be at least the defender's: {face} is less than "
                          "{defender_face}",
    "refuse.not-applicable": "the {artefact} on {cell} cannot apply ({why}): a ship may not land on an artefact whose "
                             "effect cannot apply",
    "refuse.spaceport-empty": "{seat} has no ship in the spaceport to take off",
    "refuse.universe-full": "the universe has no empty cell: no ship can take off",
    "refuse.pass": "{seat} may pass only when no move, take-off or put is possible",
    "refuse.die-faces": "a white die shows 1 to 6, not {value!r}",
    "refuse.first-player": "the first player is one of the seats 0 to {last}, not {seat!r}",
    "refuse.choice": "{action} is not one of the choices now: {choices}",
    "refuse.no-legal-action": "{seat} has nothing to do now",
    "refuse.not-an-action": "{action!r} is not a Praxis action",
    # ---- what a refusal says is awaited ("{seat} must now ...") ----
    "expected.roll": "roll the die",
    "expected.first-player": "say who plays first",
    "expected.main": "move a ship and put an artefact (either first), or take off from the spaceport",
    "expected.move": "move the ship next to the artefact just put",
    "expected.put": "put an artefact next to the ship that arrived",
    "expected.torpedo": "choose the ship the torpedo fights",
    "expected.teleport": "choose where the teleporter sends the ship",
    "expected.build": "choose the cell the shipyard's ship enters on",
    "expected.keep": "choose the two scanned artefacts to keep",
    "expected.discard": "choose which artefact sucked in by the portal is discarded",
    "expected.portal-grid": "choose the grid the portal goes back on",
    # ---- pieces of refusals ----
    "thing.ship": "{seat}'s ship on {cell}",
    "thing.artefact": "the {artefact} on {cell}",
    "where.any-ship": "any of {seat}'s ships",
    "whose.any-ship": "the cell of one of the player's ships",
    "whose.arrival": "the cell where the ship arrived",
    # ---- options ----
    "options.players": "Praxis is played by 2 to 4 players (\"pour 2 à 4 joueurs\"), not {players!r}",
    "layout.layout-name": "there is no universe named {name!r}; the presets are {presets}, or give six placements "
                          "[row, column, quarter turns]",
    "layout.six-grids": "a universe is built from the 6 space grids (\"à l'aide des 6 grilles d'espace\"): give six "
                        "placements [row, column, quarter turns], not {layout!r}",
    "layout.grid-placement": "grid {grid} is placed as {placement!r}; a placement is [row, column, quarter turns 0 "
                             "to 3] in whole numbers",
    "layout.grids-overlap": "grids {first} and {second} overlap at lattice row {row}, column {column}; grids are "
                            "joined edge to edge, never on top of one another",
    "layout.grid-contact": "grid {grid} touches {touching} by an edge; \"chaque grille doit être au contact d'au "
                           "moins 2 autres grilles par un bord\"",
    "layout.one-universe": "grids {grids} do not join the others: the six grids must make one universe",
}

#: Why an artefact cannot apply (the ``why`` argument of ``refuse.not-applicable``).
NOT_APPLICABLE: dict[str, str] = {
    "plus": "the face is already 6",
    "minus": "the face is already 1",
    "torpedo": "no opposing ship is adjacent to it",
    "scanner": "the draw pile is empty",
    "shipyard": "no ship waits in the spaceport, or no empty cell is adjacent",
    "virus": "no artefact other than a portal is adjacent to it",
    "teleporter": "there is no other teleporter and no activatable portal",
    "portal": "no artefact other than a portal is adjacent to it, so nothing would be sucked in",
}

FACE_MOVES = {
    1: "orthogonally",
    2: "diagonally",
    3: "orthogonally or diagonally",
    4: "diagonally",
    5: "orthogonally or diagonally",
    6: "diagonally",
}


def artefact_name(key: str) -> str:
    """An artefact's English name from its key, or the key itself if it names none."""
    kind = KIND.get(key)
    return ARTEFACTS[kind].english if kind else key  # type: ignore[union-attr]


#: Arguments that are lists of artefact keys, and lists of other words, rendered as one phrase.
ARTEFACT_LISTS = frozenset({"artefacts", "hand"})
WORD_LISTS = frozenset({"ships", "winners", "cells"})


def _and(words_: list[str]) -> str:
    if not words_:
        return "nothing"
    return ", ".join(words_[:-1]) + " and " + words_[-1] if len(words_) > 1 else words_[0]


def _word(name: str, value: Any) -> Any:
    if name == "artefact" and isinstance(value, str):
        return artefact_name(value)
    if name in ARTEFACT_LISTS and isinstance(value, (list, tuple)):
        return _and([artefact_name(v) for v in value])
    if name in WORD_LISTS and isinstance(value, (list, tuple)):
        return _and([str(v) for v in value])
    return value


def say(msg: str, args: Mapping[str, Any] | None = None) -> str:
    """The English sentence of message ``msg`` with ``args``."""
    args = args or {}
    return MESSAGES[msg].format(**{k: _word(k, v) for k, v in args.items()})
