"""Why an action is refused: the rule it breaks, named, with the sentence that explains it.

:meth:`PraxisGame.explain_illegal <controller.engines.praxis.game.PraxisGame.explain_illegal>`
asks :func:`why` only once an action is known to be illegal, so this module may take its time to
find the most telling reason: the step awaited, an unknown artefact, a cell that is not empty or not
adjacent, a face that does not move that way, a ship in the way, a weaker attacker, an artefact whose
effect cannot apply. Each reason is a rule slug (which tests and rulings cite) and a message id of
:mod:`~controller.engines.praxis.words` with its arguments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.engines.praxis import words
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

#: A refusal: (rule slug, message id, message arguments).
Reason = tuple[str, str, dict[str, Any]]

ACTION_TYPES = frozenset({Move, Put, TakeOff, Pass, Torpedo, Teleport, Build, Keep, Discard, PortalGrid, Roll, FirstPlayer})


def why(game: PraxisGame, player: int, action: Any) -> Reason:
    """The rule ``action`` breaks for ``player`` now: (rule slug, message id, arguments)."""
    step = game.queue[0]
    kind = step[0]
    seat = game.seat_label(player)
    described = game.describe_action(action)
    wrong_step = ("step", "refuse.step", {"seat": seat, "expected": words.say(f"expected.{STEP_NAMES[kind]}"),
                                          "action": described})
    choices = {"action": described, "choices": ", ".join(game.describe_action(a) for a in game.legal_actions(player))}
    if type(action) not in ACTION_TYPES:
        return "legal-action", "refuse.not-an-action", {"action": action}
    if isinstance(action, Roll):
        if kind != ROLL:
            return wrong_step
        return "die-faces", "refuse.die-faces", {"value": action.value}
    if isinstance(action, FirstPlayer):
        if kind != FIRST:
            return wrong_step
        return "first-player", "refuse.first-player", {"last": game.players - 1, "seat": action.seat}
    if isinstance(action, Put):
        if kind not in (MAIN, PUT):
            return wrong_step
        if not isinstance(action.artefact, str) or action.artefact not in KIND or action.artefact == "portal":
            known = ", ".join(KEYS[1:PORTAL])
            return "unknown-artefact", "refuse.unknown-artefact", {"artefact": action.artefact, "known": known}
        k = KIND[action.artefact]
        if k not in game.hands[player]:
            return "not-in-hand", "refuse.not-in-hand", {
                "seat": seat, "artefact": action.artefact, "hand": [KEYS[h] for h in game.hands[player]]}
        cell = action.cell
        if type(cell) is not int or not 0 <= cell < CELLS:
            return "no-such-cell", "refuse.no-such-cell", {"cell": cell}
        if game.board[cell] != EMPTY:
            return "cell-occupied", "refuse.cell-occupied", {"cell": cell_label(cell)}
        near = game.universe.neighbours[cell]
        if kind == PUT:
            if game.arrival not in near:
                return "put-adjacent", "refuse.put-adjacent", {
                    "cell": cell_label(cell), "where": cell_label(game.arrival),
                    "whose": words.say("whose.arrival")}
        else:
            mine = [s for s in game.ships_of(player) if game.ship_cell[s] in near]
            if not mine:
                return "put-adjacent", "refuse.put-adjacent", {
                    "cell": cell_label(cell), "where": words.say("where.any-ship", {"seat": seat}),
                    "whose": words.say("whose.any-ship")}
            if not any(isinstance(a, Put) for a in game.legal_actions(player)):
                return "move-first", "refuse.move-first", {"seat": seat}
            return "put-blocks-move", "refuse.put-blocks-move", {"artefact": action.artefact,
                                                                  "cell": cell_label(cell)}
        return "legal-action", "refuse.choice", choices
    if isinstance(action, Move):
        if kind not in (MAIN, MOVE):
            return wrong_step
        if type(action.ship) is not int or not 0 <= action.ship < SHIPS_PER_PLAYER:
            return "no-such-ship", "refuse.no-such-ship", {"seat": seat, "ship": action.ship}
        if type(action.to) is not int or not 0 <= action.to < CELLS:
            return "no-such-cell", "refuse.no-such-cell", {"cell": action.to}
        ship = SHIPS_PER_PLAYER * player + action.ship
        if game.ship_cell[ship] == IN_SPACEPORT:
            return "ship-in-spaceport", "refuse.ship-in-spaceport", {"seat": seat, "ship": action.ship}
        if kind == MOVE and ship not in step[2]:
            return "move-that-ship", "refuse.move-that-ship", {
                "seat": seat, "ship": action.ship, "ships": [s & 1 for s in step[2]]}
        return why_move(game, player, ship, action.to)
    if isinstance(action, TakeOff):
        if kind != MAIN:
            return wrong_step
        if all(game.ship_cell[s] != IN_SPACEPORT for s in game.ships_of(player)):
            return "spaceport-empty", "refuse.spaceport-empty", {"seat": seat}
        return "universe-full", "refuse.universe-full", {}
    if isinstance(action, Pass):
        if kind != MAIN:
            return wrong_step
        return "pass", "refuse.pass", {"seat": seat}
    expected_type = {TORPEDO_TARGET: Torpedo, TELEPORT: Teleport, BUILD: Build, KEEP: Keep, DISCARD: Discard,
                     PORTAL_GRID: PortalGrid}.get(kind)
    if expected_type is None or not isinstance(action, expected_type):
        return wrong_step
    if isinstance(action, (Discard, Keep)):
        names = [action.artefact] if isinstance(action, Discard) else list(action.artefacts)
        unknown = [n for n in names if not isinstance(n, str) or n not in KIND]
        if unknown:
            known = ", ".join(KEYS[1:PORTAL])
            return "unknown-artefact", "refuse.unknown-artefact", {"artefact": unknown[0], "known": known}
    return "choice", "refuse.choice", choices

def why_move(game: PraxisGame, player: int, ship: int, to: int) -> Reason:
    seat = game.seat_label(player)
    start = game.ship_cell[ship]
    face = game.ship_face[ship]
    rays = game.universe.rays[start]
    where = {"start": cell_label(start), "cell": cell_label(to)}
    for d in FACE_DIRECTIONS[face]:
        if to in rays[d]:
            path = rays[d][: rays[d].index(to)]
            blocker = next((y for y in path if game.board[y] != EMPTY), None)
            if blocker is not None:
                return "no-jumping", "refuse.no-jumping", {**where, "blocker": content(game, blocker)}
            v = game.board[to]
            if v >= SHIP:
                other = v - SHIP
                if other >> 1 == player:
                    return "own-ship", "refuse.own-ship", {"cell": cell_label(to), "seat": seat}
                return "attack-face", "refuse.attack-face", {"face": face, "defender_face": game.ship_face[other]}
            if v != EMPTY:
                why = ("plus" if v <= 3 else "minus" if v <= 6 else KEYS[v])
                return "not-applicable", "refuse.not-applicable", {
                    "artefact": KEYS[v], "cell": cell_label(to), "why": words.NOT_APPLICABLE.get(why, why)}
    return "face-direction", "refuse.face-direction", {**where, "face": face, "how": words.FACE_MOVES[face]}

def content(game: PraxisGame, cell: int) -> str:
    """What stands on ``cell``, in words ("seat 1's ship on 3.6", "the Plus one on 3.6")."""
    v = game.board[cell]
    if v >= SHIP:
        return words.say("thing.ship", {"seat": game.seat_label((v - SHIP) >> 1), "cell": cell_label(cell)})
    return words.say("thing.artefact", {"artefact": KEYS[v], "cell": cell_label(cell)})
