"""Praxis (Lucas Borboleta, rules 2021-1111-1634): ships (d6 dice) travel six space grids, put
artefacts, activate them by landing on them, and send artefacts through portals to their spaceport.

The file reads top to bottom: options, then the game: set-up, turn structure, legal actions, acting
(moves, puts, artefacts, rolls), refusals, views. Its neighbours hold the rest: ``steps.py`` the
rules' numbers and the steps of a turn, ``universe.py`` the grids and the lattice, ``artefacts.py``
the catalogue (read from ``data/artefacts.csv``), ``actions.py`` the actions and their JSON,
``refusals.py`` why an action is refused, ``words.py`` the words sentences are made of (artefacts'
names, seats, actions), ``render.py`` the drawing, ``bots.py`` the bots. Every sentence is an English
msgid marked with ``N_`` where it is said, in the ``praxis`` gettext domain: an event's ``text`` is its
English and its ``message`` says it in any language (French in the rulebook's words).

Set-up ("Mise en place"): the portals (1 for 2 players, 2 for 3, 3 for 4) and each player's first
ship are placed by rolls, a grid then a cell ("si la case est déjà occupée, alors le dé est relancé"),
the first ship's face rolled too; the second ship waits in the spaceport. The 107 artefacts are
shuffled into a draw pile by the game's seeded generator and each hand gets 3, hidden. The table
draws the first player. Every roll is an action of the CHANCE player, so a die read on a real
table is entered as that action, and options + seed + actions replay a game exactly.

A turn ("Déroulement du jeu"): put an artefact next to one of your ships, then move that ship, or
move a ship and put next to where it arrived; take off from the spaceport instead of moving; both
steps compulsory unless impossible. Landing on an artefact activates it. The game ends once a
player has 36 points: the round of the table is finished and points are counted.

Every case the rulebook leaves open is decided in docs/rulings/praxis.md, each with its test.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
from typing import Any, ClassVar

from controller import i18n
from controller.engines.core import CHANCE, Event, Game, GameOptions, IllegalActionError, OptionsError, RuleError
from controller.engines.praxis import refusals as _refusals
from controller.engines.praxis import render as _render
from controller.engines.praxis import words
from controller.engines.praxis.actions import (
    PASS,
    ROLLS,
    TAKE_OFF,
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
    decode,
    encode,
)
from controller.engines.praxis.artefacts import (
    BLACK_STAR,
    BOX,
    FACE_CHANGE,
    KEYS,
    KIND,
    MINES,
    MUTATION,
    PORTAL,
    SCANNER,
    SHIPYARD,
    TELEPORTER,
    TORPEDO,
    VALUES,
    VIRUS,
)
from controller.engines.praxis.steps import (  # noqa: F401 - re-exported: the rules' numbers
    BUILD,
    DISCARD,
    EMPTY,
    FIGHT_DRAW,
    FIRST,
    HAND_SIZE,
    IN_SPACEPORT,
    KEEP,
    MAIN,
    MOVE,
    PORTALS_BY_PLAYERS,
    PORTAL_GRID,
    PUT,
    ROLL,
    ROLL_NAMES,
    R_BUILD_FACE,
    R_MUTATION,
    R_PORTAL_CELL,
    R_PORTAL_GRID,
    R_REPLACE_CELL,
    R_SHIP_CELL,
    R_SHIP_FACE,
    R_SHIP_GRID,
    R_TAKEOFF_CELL,
    R_TAKEOFF_GRID,
    R_TORPEDO_ATTACK,
    R_TORPEDO_DEFENCE,
    SCAN_DRAW,
    SCAN_KEEP,
    SHIP,
    SHIPS_PER_PLAYER,
    STEP_NAMES,
    TARGET_POINTS,
    TELEPORT,
    TORPEDO_TARGET,
)
from controller.engines.praxis.universe import (
    CELLS,
    CELLS_PER_GRID,
    DEFAULT_LAYOUT,
    FACE_DIRECTIONS,
    GRIDS,
    LayoutError,
    Universe,
    build_universe,
    cell_label,
)
from controller.i18n import N_

# --------------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------------

#: Event arguments naming a seat: the label goes under the key, the seat number under the value.
SEAT_ARGS = {"seat": "player", "defender": "defender_player", "winner": "winner_player", "loser": "loser_player"}

# Ready-made actions, shared by every game.
MOVES: tuple[tuple[Move, ...], ...] = tuple(tuple(Move(k, c) for c in range(CELLS)) for k in range(SHIPS_PER_PLAYER))
PUTS: tuple[tuple[Put, ...], ...] = ((),) + tuple(tuple(Put(key, c) for c in range(CELLS)) for key in KEYS[1:])
FIRSTS: tuple[FirstPlayer, ...] = tuple(FirstPlayer(s) for s in range(4))
#: The names a sentence fills, once per sentence (its message carries only those).
_placeholders = functools.cache(i18n.placeholders)


# --------------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PraxisOptions(GameOptions):
    """How a game of Praxis is set up.

    ``layout`` is a preset's name (``"rectangle"``, ``"offset"``, ``"ring"``, ``"spiral"``) or six
    placements ``[row, column, quarter turns]``, one per grid 1 to 6 (see ``universe.py``).
    """

    players: int = 2
    layout: Any = DEFAULT_LAYOUT

    def validate(self) -> None:
        if self.players not in PORTALS_BY_PLAYERS:
            raise OptionsError(i18n.say(N_("Praxis is played by 2 to 4 players (\"pour 2 à 4 joueurs\"), not "
                                           "{players}"), players=repr(self.players)))
        build_universe(self.layout)


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------


class PraxisGame(Game[PraxisOptions]):
    """A game of Praxis: seats ``0..players-1``; ship ``k`` of seat ``p`` is ship number ``2p + k``.

    The state: ``board[cell]`` (see :data:`EMPTY`, :data:`SHIP`), ``ship_cell`` and ``ship_face``
    per ship (``-1`` and ``0`` in the spaceport), ``portals`` (their cells), ``pile`` (the top is
    the end of the list), ``hands`` and ``spaceports`` (sorted kinds), ``points``, ``discard``,
    ``scanned`` (the scanner's draw, secret), ``sucked`` (what a portal just sucked in), and
    ``queue``, the steps still to come in this turn (its head is what is awaited now).
    """

    NAME = "praxis"
    TITLE = "Praxis"
    OPTIONS = PraxisOptions
    SEAT_WORD = "seat"
    GOLDEN_SCENARIOS: ClassVar[tuple[tuple[str, dict[str, Any], int, int], ...]] = (
        ("two-players", {"players": 2}, 1, 11),
        ("three-players-ring", {"players": 3, "layout": "ring"}, 2, 12),
        ("four-players-spiral", {"players": 4, "layout": "spiral"}, 3, 13),
    )

    # ---- setting up ----------------------------------------------------------------------

    def _setup(self) -> None:
        self.universe: Universe = build_universe(self.options.layout)
        self.players: int = self.options.players
        self.board: list[int] = [EMPTY] * CELLS
        self.ship_cell: list[int] = [IN_SPACEPORT] * (SHIPS_PER_PLAYER * self.players)
        self.ship_face: list[int] = [0] * (SHIPS_PER_PLAYER * self.players)
        self.portals: list[int] = []
        pile = list(BOX)
        self.rng.shuffle(pile)
        self.pile: list[int] = pile
        self.hands: list[list[int]] = [sorted(pile.pop() for _ in range(HAND_SIZE)) for _ in range(self.players)]
        self.spaceports: list[list[int]] = [[] for _ in range(self.players)]
        self.points: list[int] = [0] * self.players
        self.discard: list[int] = []
        self.scanned: list[int] = []
        self.sucked: list[int] = []
        self.first_player: int | None = None
        self.active: int | None = None
        self.turn = 0
        self.arrival = -1
        self.torpedo_roll = 0
        self.ending: str | None = None
        self.over = False
        self.passes = 0
        self._events: list[Event] | None = None
        queue: list[tuple[Any, ...]] = [(ROLL, CHANCE, R_PORTAL_GRID, 0)] * PORTALS_BY_PLAYERS[self.players]
        queue += [(ROLL, CHANCE, R_SHIP_GRID, SHIPS_PER_PLAYER * p) for p in range(self.players)]
        queue.append((FIRST, CHANCE))
        self.queue: list[tuple[Any, ...]] = queue

    def clone(self) -> PraxisGame:
        """An independent copy: the universe is shared, the state's lists copied."""
        twin = self._clone_base()
        twin.board = list(self.board)
        twin.ship_cell = list(self.ship_cell)
        twin.ship_face = list(self.ship_face)
        twin.portals = list(self.portals)
        twin.pile = list(self.pile)
        twin.hands = [list(h) for h in self.hands]
        twin.spaceports = [list(s) for s in self.spaceports]
        twin.points = list(self.points)
        twin.discard = list(self.discard)
        twin.scanned = list(self.scanned)
        twin.sucked = list(self.sucked)
        twin.queue = list(self.queue)
        twin._events = None
        return twin

    # ---- who acts --------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    def current_players(self) -> tuple[int, ...]:
        if self.over:
            return ()
        return (self.queue[0][1],)

    @property
    def step(self) -> str:
        """What is awaited now: ``"main"``, ``"put"``, ``"roll"``, ... or ``"over"``."""
        return "over" if self.over else STEP_NAMES[self.queue[0][0]]

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> tuple[float, ...]:
        """Points in each spaceport ("les points sont comptés")."""
        return tuple(float(p) for p in self.points)

    def ships_of(self, seat: int) -> range:
        return range(SHIPS_PER_PLAYER * seat, SHIPS_PER_PLAYER * seat + SHIPS_PER_PLAYER)

    # ---- what the rules allow --------------------------------------------------------------

    def applicable(self, kind: int, ship: int, cell: int, start: int) -> bool:
        """Whether the artefact ``kind`` on ``cell`` can apply to ``ship`` arriving there from
        ``start`` ("Le vaisseau ne doit pas se poser sur un artefact si son effet n'est pas applicable")."""
        board = self.board
        if kind <= 3:
            return self.ship_face[ship] < 6
        if kind <= 6:
            return self.ship_face[ship] > 1
        if kind == MUTATION or kind == MINES or kind == BLACK_STAR:
            return True
        near = self.universe.neighbours[cell]
        if kind == TORPEDO:
            seat = ship >> 1
            return any(board[y] >= SHIP and (board[y] - SHIP) >> 1 != seat for y in near)
        if kind == SCANNER:
            return bool(self.pile)
        if kind == SHIPYARD:
            seat_ships = self.ships_of(ship >> 1)
            if all(self.ship_cell[s] != IN_SPACEPORT for s in seat_ships):
                return False
            return any(board[y] == EMPTY or y == start for y in near)
        if kind == VIRUS:
            return any(EMPTY < board[y] < PORTAL for y in near)
        if kind == TELEPORTER:
            return any(board[y] == TELEPORTER for y in range(CELLS) if y != cell) or any(
                self.portal_activable(p, cell) for p in self.portals
            )
        return self.portal_activable(cell, -1)

    def portal_activable(self, portal: int, ignore: int) -> bool:
        """A portal is activable when at least one artefact other than a portal touches it (the
        cell ``ignore`` not counting): it has something to suck in."""
        board = self.board
        return any(EMPTY < board[y] < PORTAL and y != ignore for y in self.universe.neighbours[portal])

    def destinations(self, ship: int) -> list[int]:
        """The cells ``ship`` may move to: sliding over empty cells in a straight line its face
        allows, stopping on an empty cell, an applicable artefact or a weaker opposing ship."""
        board = self.board
        start = self.ship_cell[ship]
        face = self.ship_face[ship]
        seat = ship >> 1
        rays = self.universe.rays[start]
        out = []
        for d in FACE_DIRECTIONS[face]:
            for x in rays[d]:
                v = board[x]
                if v == EMPTY:
                    out.append(x)
                    continue
                if v >= SHIP:
                    if (v - SHIP) >> 1 != seat and face >= self.ship_face[v - SHIP]:
                        out.append(x)
                elif self.applicable(v, ship, x, start):
                    out.append(x)
                break
        return out

    def can_move(self, ship: int) -> bool:
        """Whether ``ship`` (in the universe) has at least one move."""
        board = self.board
        start = self.ship_cell[ship]
        face = self.ship_face[ship]
        seat = ship >> 1
        rays = self.universe.rays[start]
        for d in FACE_DIRECTIONS[face]:
            ray = rays[d]
            if not ray:
                continue
            x = ray[0]
            v = board[x]
            if v == EMPTY:
                return True
            if v >= SHIP:
                if (v - SHIP) >> 1 != seat and face >= self.ship_face[v - SHIP]:
                    return True
            elif self.applicable(v, ship, x, start):
                return True
        return False

    def _puts_next_to(self, seat: int, cell: int) -> list[Put]:
        hand = self.hands[seat]
        if not hand:
            return []
        board = self.board
        kinds = sorted(set(hand))
        empty = [y for y in self.universe.neighbours[cell] if board[y] == EMPTY]
        empty.sort()
        return [PUTS[k][y] for y in empty for k in kinds]

    def _main_actions(self, seat: int) -> list[Any]:
        board = self.board
        cells = self.ship_cell
        mine = [s for s in self.ships_of(seat) if cells[s] != IN_SPACEPORT]
        moves = [MOVES[s & 1][x] for s in mine for x in self.destinations(s)]
        takeoff = len(mine) < SHIPS_PER_PLAYER and EMPTY in board
        hand = self.hands[seat]
        puts: list[Any] = []
        if hand and mine:
            neighbours = self.universe.neighbours
            kinds = sorted(set(hand))
            targets = sorted({y for s in mine for y in neighbours[cells[s]] if board[y] == EMPTY})
            for y in targets:
                near = [s for s in mine if y in neighbours[cells[s]]]
                for k in kinds:
                    board[y] = k
                    ok = any(self.can_move(s) for s in near)
                    board[y] = EMPTY
                    if ok:
                        puts.append(PUTS[k][y])
        actions = puts + moves
        if takeoff:
            actions.append(TAKE_OFF)
        if actions:
            return actions
        if hand:
            for s in mine:
                for put in self._puts_next_to(seat, cells[s]):
                    if put not in actions:
                        actions.append(put)
        return actions or [PASS]

    def legal_actions(self, player: int) -> list[Any]:
        if self.over:
            return []
        step = self.queue[0]
        if step[1] != player:
            return []
        kind = step[0]
        if kind == ROLL:
            return list(ROLLS)
        if kind == MAIN:
            return self._main_actions(player)
        if kind == PUT:
            return self._puts_next_to(player, self.arrival)
        if kind == MOVE:
            return [MOVES[s & 1][x] for s in step[2] for x in self.destinations(s)]
        if kind == FIRST:
            return list(FIRSTS[: self.players])
        if kind == TORPEDO_TARGET:
            return [Torpedo(y) for y in self._torpedo_targets(step[2])]
        if kind == TELEPORT:
            return [Teleport(y) for y in self._teleport_targets()]
        if kind == BUILD:
            return [Build(y) for y in self._build_cells(self.arrival)]
        if kind == KEEP:
            return [Keep(pair) for pair in self._keep_choices()]
        if kind == DISCARD:
            return [Discard(KEYS[k]) for k in sorted(set(self.sucked))]
        if kind == PORTAL_GRID:
            return [PortalGrid(g + 1) for g in self._open_grids()]
        raise AssertionError(f"unknown step {step!r}")

    def _torpedo_targets(self, ship: int) -> list[int]:
        board = self.board
        seat = ship >> 1
        return sorted(y for y in self.universe.neighbours[self.ship_cell[ship]]
                      if board[y] >= SHIP and (board[y] - SHIP) >> 1 != seat)

    def _teleport_targets(self) -> list[int]:
        board = self.board
        others = [y for y in range(CELLS) if board[y] == TELEPORTER]
        return sorted(others + [p for p in self.portals if self.portal_activable(p, -1)])

    def _build_cells(self, cell: int) -> list[int]:
        board = self.board
        return sorted(y for y in self.universe.neighbours[cell] if board[y] == EMPTY)

    def _keep_choices(self) -> list[tuple[str, ...]]:
        keys = sorted(KEYS[k] for k in self.scanned)
        return sorted(set(itertools.combinations(keys, SCAN_KEEP)))

    def _open_grids(self) -> list[int]:
        board = self.board
        return [g for g in range(GRIDS) if EMPTY in board[g * CELLS_PER_GRID:(g + 1) * CELLS_PER_GRID]]

    # ---- acting ----------------------------------------------------------------------------
    #
    # One implementation serves every path: events are made only while ``_events`` is a list
    # (the checked and unchecked paths), not on the fast path.

    def _apply(self, player: int, action: Any) -> list[Event]:
        self._events = events = []
        try:
            self._do(player, action)
        finally:
            self._events = None
        return events

    def _apply_fast(self, player: int, action: Any) -> None:
        self._do(player, action)

    def _note(self, kind: str, msgid: str, **args: Any) -> None:
        """Add an event (on the checked and unchecked paths only) saying ``msgid``. Callers pass
        numbers: seats, cells and artefact kinds. The event's ``data`` carries seat labels (and the
        seat numbers as ``player``, ``defender_player``...), cell names and artefact keys; its message
        names seats, artefacts and lists in words (:mod:`~controller.engines.praxis.words`)."""
        if self._events is None:
            return
        data: dict[str, Any] = {}
        said: dict[str, Any] = {}
        for key, value in args.items():
            if key in SEAT_ARGS:
                data[key] = self.seat_label(value)
                data[SEAT_ARGS[key]] = value
                said[key] = words.seat(self, value)
            elif key == "winners":
                data[key] = [self.seat_label(w) for w in value]
                data["seats"] = list(value)
                said[key] = i18n.listing([words.seat(self, w) for w in value])
            elif key in ("cell", "start"):
                data[key] = said[key] = cell_label(value)
            elif key == "cells":
                data[key] = [cell_label(c) for c in value]
            elif key == "artefact":
                data[key] = KEYS[value]
                said[key] = words.artefact(KEYS[value])
            elif key == "artefacts":
                data[key] = [KEYS[k] for k in value]
                said[key] = words.artefacts(data[key])
            else:
                data[key] = said[key] = value
        wanted = _placeholders(msgid)
        self._events.append(Event.said(kind, msgid, data, **{k: v for k, v in said.items() if k in wanted}))

    def _do(self, player: int, action: Any) -> None:
        step = self.queue.pop(0)
        kind = type(action)
        if kind is Roll:
            self._roll(step, action.value)
        elif kind is Move:
            self._move(player, SHIPS_PER_PLAYER * player + action.ship, action.to, step)
        elif kind is Put:
            self._put(player, KIND[action.artefact], action.cell, step)
        elif kind is TakeOff:
            self._take_off(player)
        elif kind is Pass:
            self.passes += 1
            self._note("passed", N_("{seat} can neither move nor put an artefact and passes"), seat=player)
        elif kind is Torpedo:
            self._aim_torpedo(step[2], self.board[action.target] - SHIP)
        elif kind is Teleport:
            self._teleport(player, step[2], action.to)
        elif kind is Build:
            self._build(player, step[2], action.cell)
        elif kind is Keep:
            self._keep(player, [KIND[k] for k in action.artefacts])
        elif kind is Discard:
            self._collect(player, KIND[action.artefact])
        elif kind is PortalGrid:
            self._portal_grid(player, action.grid - 1)
        elif kind is FirstPlayer:
            self.first_player = self.active = action.seat
            self._note("first-player", N_("{seat} plays first"), seat=action.seat)
            self._start_turn()
        else:  # pragma: no cover - check() refuses anything else
            raise AssertionError(f"not a Praxis action: {action!r}")
        if kind is not Pass and kind is not Roll and kind is not FirstPlayer:
            self.passes = 0
        self._advance()

    def _advance(self) -> None:
        """Skip the steps that turned out impossible, and end the turn when none is left."""
        while not self.over:
            if not self.queue:
                self._end_turn()
                continue
            step = self.queue[0]
            if step[0] == PUT:
                seat = step[1]
                if not self.hands[seat] or EMPTY not in [self.board[y] for y in self.universe.neighbours[self.arrival]]:
                    self.queue.pop(0)
                    if self._events is not None and self.hands[seat]:
                        self._note("no-put", N_("{seat} has no empty cell to put an artefact on next to {cell}"),
                                   seat=seat, cell=self.arrival)
                    continue
            return

    def _start_turn(self) -> None:
        seat = self.active
        self.queue.append((MAIN, seat))
        self._note("turn", N_("{seat}'s turn"), seat=seat)

    def _end_turn(self) -> None:
        """The next seat clockwise plays, unless the last round of the table is done or everybody
        has passed in a row (nothing can ever change again)."""
        self.turn += 1
        nxt = (self.active + 1) % self.players  # type: ignore[operator]
        if self.passes >= self.players:
            self._note("stuck", N_("nobody can move or put an artefact: the game ends and points are counted"))
            self._finish()
            return
        if self.ending is not None and nxt == self.first_player:
            self._finish()
            return
        self.active = nxt
        self._start_turn()

    def _finish(self) -> None:
        self.over = True
        self.queue = []
        if self._events is not None:
            winners = self.winners()
            self._note("game-over", N_("the game is over: {winners} won with {points} point(s)"),
                       winners=list(winners),
                       points=self.points[winners[0]], scores=list(self.points))

    def _trigger_end(self, reason: str, seat: int = -1) -> None:
        if self.ending is None:
            self.ending = reason
            if reason == "points":
                self._note("last-round", N_("{seat} has {points} points: the round of the table is finished, then "
                                            "points are counted"),
                           seat=seat,
                           points=self.points[seat])
            else:
                self._note("last-round", N_("the draw pile is empty: the round of the table is finished, then points "
                                            "are counted"))

    # ---- drawing ----

    def _draw(self, seat: int, count: int) -> int:
        """Move up to ``count`` artefacts from the pile to ``seat``'s hand; how many came."""
        pile = self.pile
        hand = self.hands[seat]
        got = 0
        while got < count and pile:
            bisect.insort(hand, pile.pop())
            got += 1
        if got:
            self._note("drew", N_("{seat} draws {count} artefact(s)"), seat=seat, count=got)
        if not pile:
            self._trigger_end("pile")
        return got

    def _to_spaceport(self, ship: int) -> None:
        cell = self.ship_cell[ship]
        if cell >= 0 and self.board[cell] == SHIP + ship:
            self.board[cell] = EMPTY
        self.ship_cell[ship] = IN_SPACEPORT
        self.ship_face[ship] = 0

    # ---- the turn's two steps ----

    def _put(self, seat: int, kind: int, cell: int, step: tuple[Any, ...]) -> None:
        hand = self.hands[seat]
        hand.remove(kind)
        self.board[cell] = kind
        self._note("put", N_("{seat} puts a {artefact} on {cell}"), seat=seat, artefact=kind, cell=cell)
        if len(hand) < HAND_SIZE:
            self._draw(seat, HAND_SIZE - len(hand))
        if step[0] == MAIN:
            near = self.universe.neighbours[cell]
            ships = tuple(s for s in self.ships_of(seat)
                          if self.ship_cell[s] in near and self.can_move(s))
            if ships:
                self.queue.insert(0, (MOVE, seat, ships))

    def _move(self, seat: int, ship: int, to: int, step: tuple[Any, ...]) -> None:
        board = self.board
        start = self.ship_cell[ship]
        target = board[to]
        board[start] = EMPTY
        board[to] = SHIP + ship
        self.ship_cell[ship] = to
        self.arrival = to
        if step[0] == MAIN:
            self.queue.append((PUT, seat))
        if target == EMPTY:
            self._note("moved", N_("{seat}'s ship moves from {start} to {cell}"), seat=seat, ship=ship & 1,
                       start=start, cell=to)
        elif target >= SHIP:
            loser = target - SHIP
            if self._events is not None:
                self._note("attack", N_("{seat}'s ship (face {face}) attacks {defender}'s ship (face "
                                        "{defender_face}) on {cell}; {defender}'s ship goes back to its spaceport"),
                           seat=seat, ship=ship & 1,
                           start=start, cell=to, face=self.ship_face[ship],
                           defender=loser >> 1,
                           defender_face=self.ship_face[loser])
            self.ship_cell[loser] = IN_SPACEPORT
            self.ship_face[loser] = 0
            self._draw(seat, FIGHT_DRAW)
        else:
            self._note("moved", N_("{seat}'s ship moves from {start} to {cell}"), seat=seat, ship=ship & 1,
                       start=start, cell=to)
            self._activate(seat, ship, to, target)

    def _take_off(self, seat: int) -> None:
        ship = next(s for s in self.ships_of(seat) if self.ship_cell[s] == IN_SPACEPORT)
        self.queue.append((ROLL, CHANCE, R_TAKEOFF_GRID, ship))
        self.queue.append((PUT, seat))
        self._note("take-off", N_("{seat} takes a ship off from the spaceport: roll its grid"), seat=seat)

    # ---- artefacts ----

    def _activate(self, seat: int, ship: int, cell: int, kind: int) -> None:
        """The artefact ``kind`` on ``cell`` (where ``ship`` just arrived) applies at once, then is
        discarded, unless it is a portal."""
        self._note("activated", N_("{seat} activates a {artefact} on {cell}"), seat=seat, artefact=kind,
                   cell=cell)
        if kind == PORTAL:
            self._activate_portal(seat, cell)
            return
        self.discard.append(kind)
        if kind in FACE_CHANGE:
            self.ship_face[ship] = min(6, max(1, self.ship_face[ship] + FACE_CHANGE[kind]))
            self._note("face-changed", N_("{seat}'s ship on {cell} now shows face {face}"), seat=seat, cell=cell,
                       face=self.ship_face[ship])
        elif kind == MUTATION:
            self.queue.insert(0, (ROLL, CHANCE, R_MUTATION, ship))
            self._note("roll-face", N_("roll the new face of {seat}'s ship on {cell}"), seat=seat, cell=cell)
        elif kind == TORPEDO:
            targets = self._torpedo_targets(ship)
            if len(targets) == 1:
                self._aim_torpedo(ship, self.board[targets[0]] - SHIP)
            else:
                self.queue.insert(0, (TORPEDO_TARGET, seat, ship))
        elif kind == MINES:
            self._to_spaceport(ship)
            self._note("left-universe", N_("{seat}'s ship on {cell} leaves the universe and goes back to its "
                                           "spaceport"),
                       seat=seat, cell=cell)
        elif kind == SCANNER:
            pile = self.pile
            self.scanned = [pile.pop() for _ in range(min(SCAN_DRAW, len(pile)))]
            if not pile:
                self._trigger_end("pile")
            if len(self.scanned) <= SCAN_KEEP:
                self._note("scanned", N_("{seat} scans {count} artefact(s) and keeps {keep}"),
                           seat=seat, count=len(self.scanned),
                           keep=len(self.scanned))
                self._keep(seat, list(self.scanned))
            else:
                self._note("scanned", N_("{seat} scans {count} artefact(s) and keeps {keep}"),
                           seat=seat, count=len(self.scanned),
                           keep=SCAN_KEEP)
                choices = self._keep_choices()
                if len(choices) == 1:
                    self._keep(seat, [KIND[k] for k in choices[0]])
                else:
                    self.queue.insert(0, (KEEP, seat))
        elif kind == SHIPYARD:
            cells = self._build_cells(cell)
            builder = next(s for s in self.ships_of(seat) if self.ship_cell[s] == IN_SPACEPORT)
            if len(cells) == 1:
                self._build(seat, builder, cells[0])
            else:
                self.queue.insert(0, (BUILD, seat, builder))
        elif kind == VIRUS:
            board = self.board
            hit = [y for y in self.universe.neighbours[cell] if EMPTY < board[y] < PORTAL]
            gone = sorted(board[y] for y in hit)
            for y in hit:
                self.discard.append(board[y])
                board[y] = EMPTY
            self._note("virus", N_("the virus discards {artefacts}"), artefacts=gone, cells=sorted(hit))
        elif kind == TELEPORTER:
            targets = self._teleport_targets()
            if len(targets) == 1:
                self._teleport(seat, ship, targets[0])
            else:
                self.queue.insert(0, (TELEPORT, seat, ship))
        elif kind == BLACK_STAR:
            grid = Universe.grid_of(cell)
            for s in range(len(self.ship_cell)):
                if self.ship_cell[s] >= 0 and Universe.grid_of(self.ship_cell[s]) == grid:
                    self._to_spaceport(s)
            self._note("black-star", N_("the black star sends every ship of grid {grid} back to its spaceport"),
                       grid=grid + 1)

    def _aim_torpedo(self, ship: int, target: int) -> None:
        self._note("torpedo-target", N_("{seat}'s torpedo fights {defender}'s ship on {cell}: roll for the attacker, "
                                        "then the defender"),
                   seat=ship >> 1,
                   defender=target >> 1,
                   cell=self.ship_cell[target])
        self.queue[0:0] = [(ROLL, CHANCE, R_TORPEDO_ATTACK, (ship, target))]

    def _teleport(self, seat: int, ship: int, to: int) -> None:
        board = self.board
        board[self.ship_cell[ship]] = EMPTY
        target = board[to]
        board[to] = SHIP + ship
        self.ship_cell[ship] = to
        self.arrival = to
        self._note("teleported", N_("{seat}'s ship is teleported to {cell}"), seat=seat, cell=to)
        if target == TELEPORTER:
            self.discard.append(TELEPORTER)
        else:
            self._activate(seat, ship, to, PORTAL)

    def _build(self, seat: int, ship: int, cell: int) -> None:
        self.board[cell] = SHIP + ship
        self.ship_cell[ship] = cell
        self.ship_face[ship] = 1  # until its face is rolled, just below
        self.queue.insert(0, (ROLL, CHANCE, R_BUILD_FACE, ship))
        self._note("built", N_("{seat}'s ship comes out of the shipyard on {cell}; now roll its face"),
                   seat=seat, cell=cell)

    def _keep(self, seat: int, kept: list[int]) -> None:
        hand = self.hands[seat]
        rest = list(self.scanned)
        for k in kept:
            rest.remove(k)
            bisect.insort(hand, k)
        self.discard.extend(rest)
        self.scanned = []
        if rest:
            self._note("kept", N_("{seat} keeps two scanned artefacts and discards the other {count}"),
                       seat=seat, count=len(rest))

    def _activate_portal(self, seat: int, cell: int) -> None:
        """"Tous les artefacts adjacents par un bord ou un coin sont aspirés par le portail et tous,
        sauf un au choix qui est défaussé, sont téléportés vers son spatioport"; then the portal is
        put back on a grid of the activating player's choice, its cell rolled."""
        board = self.board
        self.portals.remove(cell)
        hit = [y for y in self.universe.neighbours[cell] if EMPTY < board[y] < PORTAL]
        sucked = sorted(board[y] for y in hit)
        for y in hit:
            board[y] = EMPTY
        self.sucked = sucked
        self._note("portal-sucked", N_("the portal on {cell} sucks in {artefacts}"),
                   cell=cell, artefacts=list(sucked))
        if len(set(sucked)) == 1:
            self._collect(seat, sucked[0])
        else:
            self.queue.insert(0, (DISCARD, seat))

    def _collect(self, seat: int, discarded: int) -> None:
        sucked = self.sucked
        sucked.remove(discarded)
        self.discard.append(discarded)
        self._note("discarded", N_("{seat} discards the {artefact} the portal sucked in"),
                   seat=seat, artefact=discarded)
        gained = 0
        port = self.spaceports[seat]
        for k in sucked:
            bisect.insort(port, k)
            gained += VALUES[k]
        self.points[seat] += gained
        if sucked:
            self._note("collected", N_("{seat} collects {artefacts}: {points} point(s), {total} in all"), seat=seat,
                       artefacts=list(sucked), points=gained, total=self.points[seat])
        self.sucked = []
        if self.points[seat] >= TARGET_POINTS:
            self._trigger_end("points", seat)
        grids = self._open_grids()
        if len(grids) == 1:
            self._portal_grid(seat, grids[0])
        else:
            self.queue.insert(0, (PORTAL_GRID, seat))

    def _portal_grid(self, seat: int, grid: int) -> None:
        self.queue.insert(0, (ROLL, CHANCE, R_REPLACE_CELL, grid))
        self._note("portal-grid", N_("{seat} puts the portal back on grid {grid}: roll its cell"),
                   seat=seat, grid=grid + 1)

    # ---- rolls ----

    def _roll(self, step: tuple[Any, ...], value: int) -> None:
        purpose, arg = step[2], step[3]
        board = self.board
        if purpose in (R_PORTAL_GRID, R_SHIP_GRID, R_TAKEOFF_GRID):
            grid = value - 1
            if EMPTY not in board[grid * CELLS_PER_GRID:(grid + 1) * CELLS_PER_GRID]:
                self.queue.insert(0, step)
                self._note("reroll", N_("grid {grid} has no empty cell: roll the grid again"), grid=value)
                return
            self.queue.insert(0, (ROLL, CHANCE, purpose + 1, (arg, grid)))
            self._note("grid-rolled", N_("grid {grid} is rolled; now roll the cell"), grid=value)
            return
        if purpose in (R_PORTAL_CELL, R_SHIP_CELL, R_TAKEOFF_CELL, R_REPLACE_CELL):
            grid = arg if purpose == R_REPLACE_CELL else arg[1]
            cell = grid * CELLS_PER_GRID + value - 1
            if board[cell] != EMPTY:
                self.queue.insert(0, step)
                self._note("reroll", N_("cell {cell} is occupied: roll again"), cell=cell)
                return
            if purpose == R_PORTAL_CELL or purpose == R_REPLACE_CELL:
                board[cell] = PORTAL
                bisect.insort(self.portals, cell)
                self._note("portal-placed", N_("a portal is placed on {cell}"), cell=cell)
                return
            ship = arg[0]
            board[cell] = SHIP + ship
            self.ship_cell[ship] = cell
            seat = ship >> 1
            if purpose == R_SHIP_CELL:
                self.ship_face[ship] = 1  # until its face is rolled, just below
                self.queue.insert(0, (ROLL, CHANCE, R_SHIP_FACE, ship))
                self._note("ship-placed", N_("{seat}'s first ship enters on {cell}; now roll its face"),
                           seat=seat, cell=cell)
            else:
                self.ship_face[ship] = 1
                self.arrival = cell
                self._note("ship-entered", N_("{seat}'s ship enters on {cell} with face 1"), seat=seat,
                           cell=cell)
            return
        if purpose in (R_SHIP_FACE, R_MUTATION, R_BUILD_FACE):
            if self.ship_cell[arg] >= 0:
                self.ship_face[arg] = value
                self._note("face-rolled", N_("{seat}'s ship on {cell} shows face {face}"), seat=arg >> 1,
                           cell=self.ship_cell[arg], face=value)
            return
        if purpose == R_TORPEDO_ATTACK:
            attacker, defender = arg
            self.torpedo_roll = value
            self.queue.insert(0, (ROLL, CHANCE, R_TORPEDO_DEFENCE, arg))
            self._note("torpedo-roll", N_("the attacker rolls {value}: {total} in all; now roll for the defender"),
                       value=value, total=self.ship_face[attacker] + value)
            return
        if purpose == R_TORPEDO_DEFENCE:
            attacker, defender = arg
            attack = self.ship_face[attacker] + self.torpedo_roll
            defence = self.ship_face[defender] + value
            winner, loser = (attacker, defender) if attack >= defence else (defender, attacker)
            self.torpedo_roll = 0
            self._note("torpedo-won", N_("{winner} wins the torpedo fight ({attack} against {defence}); {loser}'s "
                                         "ship on {cell} goes back to its spaceport"),
                       winner=winner >> 1,
                       loser=loser >> 1, attack=attack, defence=defence,
                       cell=self.ship_cell[loser])
            self._to_spaceport(loser)
            self._draw(winner >> 1, FIGHT_DRAW)
            return
        raise AssertionError(f"unknown roll {step!r}")  # pragma: no cover

    # ---- refusing clearly ------------------------------------------------------------------

    def check(self, player: int, action: Any) -> None:
        """The shared checks, plus whole numbers only (``True`` equals 1 in Python, not on a die)."""
        super().check(player, action)
        for field in dataclasses.fields(action):
            value = getattr(action, field.name)
            if isinstance(value, bool):
                raise self.explain_illegal(player, action)

    def explain_illegal(self, player: int, action: Any) -> RuleError:
        """The refusal naming the rule ``action`` breaks, said in any language (its ``words``)."""
        rule, msgid, args = _refusals.why(self, player, action)
        return IllegalActionError.said(rule, msgid, self.render(), **args)

    def describe_message(self, action: Any) -> dict[str, Any] | str:
        """An action in words, as a message said in the reader's language ("move ship 0 to 3.4")."""
        return words.action(self, action)

    def describe_action(self, action: Any) -> str:
        try:
            data = encode(action)
        except ValueError:
            return repr(action)
        kind = data.pop("type")
        return kind + ("" if not data else " " + " ".join(f"{k}={v}" for k, v in data.items()))

    # ---- encoding ----

    @classmethod
    def encode_action(cls, action: Any) -> Any:
        return encode(action)

    @classmethod
    def decode_action(cls, data: Any) -> Any:
        return decode(data)

    # ---- looking at the game ----------------------------------------------------------------

    def _step_json(self, secret: bool) -> dict[str, Any] | None:
        if self.over:
            return None
        step = self.queue[0]
        kind = step[0]
        out: dict[str, Any] = {"kind": STEP_NAMES[kind], "player": step[1]}
        if kind == ROLL:
            out["for"] = ROLL_NAMES[step[2]]
            if step[2] == R_TORPEDO_DEFENCE:
                out["attacker_roll"] = self.torpedo_roll
            arg = step[3]
            if step[2] in (R_PORTAL_CELL, R_SHIP_CELL, R_TAKEOFF_CELL):
                out["grid"] = arg[1] + 1
            elif step[2] == R_REPLACE_CELL:
                out["grid"] = arg + 1
        elif kind == PUT:
            out["next_to"] = cell_label(self.arrival)
        elif kind == MOVE:
            out["ships"] = [s & 1 for s in step[2]]
        elif kind == DISCARD:
            out["sucked"] = [KEYS[k] for k in self.sucked]
        elif kind == KEEP:
            out["scanned"] = [KEYS[k] for k in sorted(self.scanned)] if secret else len(self.scanned)
        return out

    def _public(self) -> dict[str, Any]:
        board = self.board
        return {
            "players": self.players,
            "layout": [list(p) for p in self.universe.placements],
            "cells": {cell_label(c): KEYS[v] for c, v in enumerate(board) if EMPTY < v < SHIP},
            "ships": [
                {"seat": s >> 1, "ship": s & 1,
                 "cell": cell_label(self.ship_cell[s]) if self.ship_cell[s] >= 0 else None,
                 "face": self.ship_face[s] or None}
                for s in range(len(self.ship_cell))
            ],
            "spaceports": [[KEYS[k] for k in port] for port in self.spaceports],
            "scores": list(self.points),
            "hand_sizes": [len(h) for h in self.hands],
            "pile": len(self.pile),
            "discard": len(self.discard),
            "first_player": self.first_player,
            "active": self.active,
            "turn": self.turn,
            "ending": self.ending,
            "over": self.over,
            "winners": list(self.winners()),
        }

    def state_dict(self) -> dict[str, Any]:
        state = self._public()
        state["step"] = self._step_json(True)
        state["hands"] = [[KEYS[k] for k in hand] for hand in self.hands]
        state["pile_order"] = [KEYS[k] for k in self.pile]
        state["discard_pile"] = [KEYS[k] for k in self.discard]
        state["scanned"] = [KEYS[k] for k in sorted(self.scanned)]
        state["passes"] = self.passes
        return state

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees: the universe, ships, spaceports and counts; its own hand (and
        what it scanned) but never another hand or the pile's order. ``None`` is a spectator."""
        state = self._public()
        own = player is not None and 0 <= player < self.players
        state["step"] = self._step_json(own and not self.over and self.queue[0][1] == player)
        if own:
            state["hand"] = [KEYS[k] for k in self.hands[player]]  # type: ignore[index]
        return state

    def render(self) -> str:
        return _render.render_text(self)

    # ---- consistency ----

    def check_invariants(self) -> None:
        board = self.board
        counted = [0] * (PORTAL + 1)
        for v in board:
            if EMPTY < v < SHIP:
                counted[v] += 1
        for k in itertools.chain(self.pile, self.discard, self.scanned, self.sucked, *self.hands, *self.spaceports):
            counted[k] += 1
        expected = [0] * (PORTAL + 1)
        for k in BOX:
            expected[k] += 1
        assert counted[1:PORTAL] == expected[1:PORTAL], "artefacts were created or lost"
        placing_portal = any(s[0] == ROLL and s[2] in (R_PORTAL_GRID, R_PORTAL_CELL) for s in self.queue)
        replacing = bool(self.sucked) or any(
            s[0] in (DISCARD, PORTAL_GRID) or (s[0] == ROLL and s[2] == R_REPLACE_CELL) for s in self.queue)
        portals = PORTALS_BY_PLAYERS[self.players]
        assert counted[PORTAL] == len(self.portals), "portal list out of step with the board"
        assert counted[PORTAL] == portals or placing_portal or (replacing and counted[PORTAL] == portals - 1)
        assert self.portals == sorted(self.portals) and all(board[p] == PORTAL for p in self.portals)
        for s, cell in enumerate(self.ship_cell):
            if cell == IN_SPACEPORT:
                assert self.ship_face[s] == 0, f"ship {s} in the spaceport shows a face"
            else:
                assert board[cell] == SHIP + s, f"ship {s} is not where the board says"
                assert 1 <= self.ship_face[s] <= 6
        for c, v in enumerate(board):
            if v >= SHIP:
                assert self.ship_cell[v - SHIP] == c
        for seat in range(self.players):
            assert self.points[seat] == sum(VALUES[k] for k in self.spaceports[seat])
            assert self.hands[seat] == sorted(self.hands[seat])
            assert len(self.hands[seat]) >= HAND_SIZE or not self.pile or self.first_player is None
        if self.over:
            assert self.queue == [] and self.current_players() == ()
        else:
            assert self.queue, "a game that is not over awaits a step"
        if self.ending is None:
            assert max(self.points) < TARGET_POINTS and self.pile


__all__ = ["PraxisGame", "PraxisOptions", "LayoutError", "TARGET_POINTS"]
