"""Why an action is refused: the rule it breaks, named, with the sentence that explains it.

:meth:`PraxisGame.explain_illegal <controller.engines.praxis.game.PraxisGame.explain_illegal>`
asks :func:`why` only once an action is known to be illegal, so this module may take its time to
find the most telling reason: the step awaited, an unknown artefact, a cell that is not empty or not
adjacent, a face that does not move that way, a ship in the way, a weaker attacker, an artefact whose
effect cannot apply. Each reason is a rule slug (which tests and rulings cite) and an English sentence
marked for the ``praxis`` catalogue with its arguments, so the refusal is said in each player's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.engines.praxis import words
from controller.i18n import N_, listing, message
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
from controller.engines.praxis.artefacts import KEYS, KIND, PORTAL
from controller.engines.praxis.steps import (
    BUILD,
    DISCARD,
    EMPTY,
    FIRST,
    IN_SPACEPORT,
    KEEP,
    MAIN,
    MOVE,
    PORTAL_GRID,
    PUT,
    ROLL,
    SHIP,
    SHIPS_PER_PLAYER,
    STEP_NAMES,
    TELEPORT,
    TORPEDO_TARGET,
)
from controller.engines.praxis.universe import CELLS, FACE_DIRECTIONS, cell_label

if TYPE_CHECKING:
    from controller.engines.praxis.game import PraxisGame

#: A refusal: (rule slug, English sentence marked with ``N_``, its arguments).
Reason = tuple[str, str, dict[str, Any]]

ACTION_TYPES = frozenset({Move, Put, TakeOff, Pass, Torpedo, Teleport, Build, Keep, Discard, PortalGrid, Roll, FirstPlayer})

UNKNOWN_ARTEFACT = N_("there is no artefact called {artefact}; the artefacts are {known}")
NO_SUCH_CELL = N_("{cell} is not a cell: cells are numbered 0 to 35, or named grid.cell like \"3.5\"")
CHOICE = N_("{action} is not one of the choices now: {choices}")


def why(game: PraxisGame, player: int, action: Any) -> Reason:
    """The rule ``action`` breaks for ``player`` now: (rule slug, sentence, arguments)."""
    step = game.queue[0]
    kind = step[0]
    seat = words.seat(game, player)
    described = words.action(game, action)
    wrong_step = ("step", N_("{seat} must now {expected}; {action} is not that"),
                  {"seat": seat, "expected": message(words.EXPECTED[STEP_NAMES[kind]]), "action": described})
    if type(action) not in ACTION_TYPES:
        return "legal-action", N_("{action} is not a Praxis action"), {"action": repr(action)}
    choices = {"action": described,
               "choices": listing([words.action(game, a) for a in game.legal_actions(player)])}
    if isinstance(action, Roll):
        if kind != ROLL:
            return wrong_step
        return "die-faces", N_("a white die shows 1 to 6, not {value}"), {"value": repr(action.value)}
    if isinstance(action, FirstPlayer):
        if kind != FIRST:
            return wrong_step
        return "first-player", N_("the first player is one of the seats 0 to {last}, not {seat}"), {
            "last": game.players - 1, "seat": repr(action.seat)}
    if isinstance(action, Put):
        if kind not in (MAIN, PUT):
            return wrong_step
        if not isinstance(action.artefact, str) or action.artefact not in KIND or action.artefact == "portal":
            return "unknown-artefact", UNKNOWN_ARTEFACT, {"artefact": repr(action.artefact),
                                                          "known": ", ".join(KEYS[1:PORTAL])}
        k = KIND[action.artefact]
        if k not in game.hands[player]:
            return "not-in-hand", N_("{seat} has no {artefact} in hand (hand: {hand})"), {
                "seat": seat, "artefact": words.artefact(action.artefact),
                "hand": words.artefacts(KEYS[h] for h in game.hands[player])}
        cell = action.cell
        if type(cell) is not int or not 0 <= cell < CELLS:
            return "no-such-cell", NO_SUCH_CELL, {"cell": repr(cell)}
        if game.board[cell] != EMPTY:
            return "cell-occupied", N_("{cell} is not empty: the cell receiving an artefact must be empty "
                                       "(\"La case d'espace recevant l'artefact doit être vide\")"), {
                "cell": cell_label(cell)}
        near = game.universe.neighbours[cell]
        if kind == PUT:
            if game.arrival not in near:
                return "put-adjacent", N_("{cell} is not next to {where}: an artefact is put on a cell adjacent, by "
                                          "an edge or a corner, to the cell where the ship arrived"), {
                    "cell": cell_label(cell), "where": cell_label(game.arrival)}
        else:
            mine = [s for s in game.ships_of(player) if game.ship_cell[s] in near]
            if not mine:
                return "put-adjacent", N_("{cell} is not next to any of {seat}'s ships: an artefact is put on a cell "
                                          "adjacent, by an edge or a corner, to the cell of one of the player's "
                                          "ships"), {"cell": cell_label(cell), "seat": seat}
            if not any(isinstance(a, Put) for a in game.legal_actions(player)):
                return "move-first", N_("{seat} cannot put an artefact first: none of their ships could then move, "
                                        "and moving or taking off is possible"), {"seat": seat}
            return "put-blocks-move", N_("putting the {artefact} on {cell} would leave no move to the ship next to "
                                         "it; the move is compulsory unless impossible, so move first or put it "
                                         "elsewhere"), {"artefact": words.artefact(action.artefact),
                                                        "cell": cell_label(cell)}
        return "legal-action", CHOICE, choices
    if isinstance(action, Move):
        if kind not in (MAIN, MOVE):
            return wrong_step
        if type(action.ship) is not int or not 0 <= action.ship < SHIPS_PER_PLAYER:
            return "no-such-ship", N_("{seat} has ships 0 and 1, not {ship}"), {"seat": seat, "ship": repr(action.ship)}
        if type(action.to) is not int or not 0 <= action.to < CELLS:
            return "no-such-cell", NO_SUCH_CELL, {"cell": repr(action.to)}
        ship = SHIPS_PER_PLAYER * player + action.ship
        if game.ship_cell[ship] == IN_SPACEPORT:
            return "ship-in-spaceport", N_("{seat}'s ship {ship} is in the spaceport: take it off instead of moving "
                                           "it"), {"seat": seat, "ship": action.ship}
        if kind == MOVE and ship not in step[2]:
            return "move-that-ship", N_("after putting the artefact, {seat} moves the ship next to it ({ships}), not "
                                        "ship {ship}"), {
                "seat": seat, "ship": action.ship, "ships": listing([s & 1 for s in step[2]])}
        return why_move(game, player, ship, action.to)
    if isinstance(action, TakeOff):
        if kind != MAIN:
            return wrong_step
        if all(game.ship_cell[s] != IN_SPACEPORT for s in game.ships_of(player)):
            return "spaceport-empty", N_("{seat} has no ship in the spaceport to take off"), {"seat": seat}
        return "universe-full", N_("the universe has no empty cell: no ship can take off"), {}
    if isinstance(action, Pass):
        if kind != MAIN:
            return wrong_step
        return "pass", N_("{seat} may pass only when no move, take-off or put is possible"), {"seat": seat}
    expected_type = {TORPEDO_TARGET: Torpedo, TELEPORT: Teleport, BUILD: Build, KEEP: Keep, DISCARD: Discard,
                     PORTAL_GRID: PortalGrid}.get(kind)
    if expected_type is None or not isinstance(action, expected_type):
        return wrong_step
    if isinstance(action, (Discard, Keep)):
        names = [action.artefact] if isinstance(action, Discard) else list(action.artefacts)
        unknown = [n for n in names if not isinstance(n, str) or n not in KIND]
        if unknown:
            return "unknown-artefact", UNKNOWN_ARTEFACT, {"artefact": repr(unknown[0]),
                                                          "known": ", ".join(KEYS[1:PORTAL])}
    return "choice", CHOICE, choices


def why_move(game: PraxisGame, player: int, ship: int, to: int) -> Reason:
    seat = words.seat(game, player)
    start = game.ship_cell[ship]
    face = game.ship_face[ship]
    rays = game.universe.rays[start]
    where = {"start": cell_label(start), "cell": cell_label(to)}
    for d in FACE_DIRECTIONS[face]:
        if to in rays[d]:
            path = rays[d][: rays[d].index(to)]
            blocker = next((y for y in path if game.board[y] != EMPTY), None)
            if blocker is not None:
                return "no-jumping", N_("{blocker} is in the way between {start} and {cell}: a ship slides over empty "
                                        "cells without jumping (\"glisse d'une ou plusieurs cases d'espace vides sans "
                                        "sauter\")"), {**where, "blocker": content(game, blocker)}
            v = game.board[to]
            if v >= SHIP:
                other = v - SHIP
                if other >> 1 == player:
                    return "own-ship", N_("{cell} holds {seat}'s own ship: a cell holds one ship"), {
                        "cell": cell_label(to), "seat": seat}
                return "attack-face", N_("an attack needs the attacker's face to be at least the defender's: {face} "
                                         "is less than {defender_face}"), {
                    "face": face, "defender_face": game.ship_face[other]}
            if v != EMPTY:
                family = "plus" if v <= 3 else "minus" if v <= 6 else KEYS[v]
                return "not-applicable", N_("the {artefact} on {cell} cannot apply ({why}): a ship may not land on an "
                                            "artefact whose effect cannot apply"), {
                    "artefact": words.artefact(KEYS[v]), "cell": cell_label(to),
                    "why": _not_applicable(family)}
    return "face-direction", N_("a ship showing {face} moves {how}; {cell} is not on such a line from {start}"), {
        **where, "face": face, "how": message(words.FACE_MOVES[face])}


def content(game: PraxisGame, cell: int) -> Any:
    """What stands on ``cell``, in words ("seat 1's ship on 3.6", "the Plus one on 3.6")."""
    v = game.board[cell]
    if v >= SHIP:
        return message(N_("{seat}'s ship on {cell}"), seat=words.seat(game, (v - SHIP) >> 1),
                             cell=cell_label(cell))
    return message(N_("the {artefact} on {cell}"), artefact=words.artefact(KEYS[v]), cell=cell_label(cell))


def _not_applicable(family: str) -> Any:
    """Why an artefact of ``family`` cannot apply, in words."""
    why = words.NOT_APPLICABLE.get(family)
    return message(why) if why is not None else family
