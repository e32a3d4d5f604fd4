"""Praxis bots: random, greedy (the best points this turn) and a searching bot that looks at what
the opponents can collect next.

Points come only from portals: a ship landing on a portal collects every artefact around it but
one, the one of least value that its player discards. So a position's promise is read from the
portals: :func:`portal_value` is what activating one would collect, :func:`best_gain` the most a
seat's ships could collect with one move now.

* :class:`PraxisRandomBot` picks uniformly among the legal actions (any seat, the table included).
* :class:`GreedyBot` takes the action that collects the most points this turn (moving onto a
  portal, or putting an artefact next to a portal first and then moving onto it); when nothing
  scores, it plays at random.
* :class:`SearchBot` tries every legal action on a copy of the game (the unchecked fast path,
  :meth:`~controller.engines.core.Game.apply_fast`) and scores where it leads: the point lead, what
  its own ship is about to collect, and, since the opponents play next, the most each of them could
  collect with one move, weighed against what it could collect itself on its next turn. So it
  collects like the greedy bot but does not put artefacts where an opponent will collect them, and
  puts the portal back where its ships, not the opponents', can reach it.

Ties are broken by each bot's seeded generator, so a seed gives the same game every time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from controller.engines.core import CHANCE, Bot, IllegalActionError, RuleError
from controller.engines.praxis import words
from controller.engines.praxis.actions import Move, PortalGrid, Put, Teleport
from controller.engines.praxis.artefacts import KIND, PORTAL, TELEPORTER, VALUES
from controller.engines.praxis.game import PraxisGame
from controller.engines.praxis.steps import (
    DISCARD,
    EMPTY,
    IN_SPACEPORT,
    KEEP,
    MAIN,
    MOVE,
    PORTAL_GRID,
    SHIP,
    TELEPORT,
    TORPEDO_TARGET,
)
from controller.engines.praxis.universe import CELLS_PER_GRID
from controller.i18n import N_

A = TypeVar("A")


# --------------------------------------------------------------------------------------------
# Reading a position
# --------------------------------------------------------------------------------------------


def portal_value(game: PraxisGame, portal: int, ignore: int = -1) -> int:
    """The points activating the portal on ``portal`` collects: the values of the artefacts
    around it (``ignore`` not counting) but the least, which is discarded."""
    board = game.board
    values = [VALUES[board[y]] for y in game.universe.neighbours[portal] if EMPTY < board[y] < PORTAL and y != ignore]
    return sum(values) - min(values) if values else 0


def landing_gain(game: PraxisGame, cell: int) -> int:
    """The points a ship landing on ``cell`` collects at once (a portal, or a teleporter that
    sends it to the best activatable portal)."""
    v = game.board[cell]
    if v == PORTAL:
        return portal_value(game, cell)
    if v == TELEPORTER:
        return max((portal_value(game, p, cell) for p in game.portals), default=0)
    return 0


def best_gain(game: PraxisGame, seat: int, ships: Sequence[int] | None = None) -> int:
    """The most ``seat``'s ships (or only ``ships``) could collect with one move now."""
    best = 0
    board = game.board
    for s in ships if ships is not None else game.ships_of(seat):
        if game.ship_cell[s] == IN_SPACEPORT:
            continue
        for x in game.destinations(s):
            v = board[x]
            if v == PORTAL or v == TELEPORTER:
                gain = landing_gain(game, x)
                if gain > best:
                    best = gain
    return best


def reach(game: PraxisGame, seat: int) -> set[int]:
    """The empty cells ``seat``'s ships can move to now."""
    board = game.board
    cells: set[int] = set()
    for s in game.ships_of(seat):
        if game.ship_cell[s] != IN_SPACEPORT:
            cells.update(x for x in game.destinations(s) if board[x] == EMPTY)
    return cells


def _nothing_to_do(game: PraxisGame, player: int) -> RuleError:
    return IllegalActionError.said("no-legal-action", N_("{seat} has nothing to do now"), game.render(),
                                   seat=words.seat(game, player))


class _Chooser(Bot):
    """Shared plumbing: the ``_best`` of a list by a score, ties broken by the bot's generator, and
    the choices any sensible player makes the same way."""

    def _best(self, actions: Sequence[A], score: Callable[[A], float]) -> A:
        best: list[A] = []
        top = float("-inf")
        for action in actions:
            value = score(action)
            if value > top + 1e-9:
                top, best = value, [action]
            elif value > top - 1e-9:
                best.append(action)
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _random(self, actions: Sequence[A]) -> A:
        return actions[self.rng.randrange(len(actions))]

    def _obvious(self, game: PraxisGame, actions: list[Any]) -> Any | None:
        """The choices with a best answer whatever the strategy, or ``None``."""
        step = game.queue[0][0]
        if step == DISCARD:  # discard the least valuable: the rest is collected
            return min(actions, key=lambda a: (VALUES[KIND[a.artefact]], a.artefact))
        if step == KEEP:  # keep the most valuable pair
            return max(actions, key=lambda a: (sum(VALUES[KIND[k]] for k in a.artefacts), a.artefacts))
        if step == TORPEDO_TARGET:  # fight the weakest ship: the best odds
            return min(actions, key=lambda a: (game.ship_face[game.board[a.target] - SHIP], a.target))
        return None


class PraxisRandomBot(_Chooser):
    """Uniformly random legal actions, for any seat and for the table (CHANCE)."""

    def choose(self, game: Any, player: int) -> Any:
        actions = game.legal_actions(player)
        if not actions:
            raise _nothing_to_do(game, player)
        return self._random(actions)


class GreedyBot(_Chooser):
    """The action that collects the most points this turn; at random when nothing scores."""

    def choose(self, game: Any, player: int) -> Any:
        actions = game.legal_actions(player)
        if not actions:
            raise _nothing_to_do(game, player)
        if player == CHANCE:
            return self._random(actions)
        obvious = self._obvious(game, actions)
        if obvious is not None:
            return obvious
        step = game.queue[0][0]
        if step == TELEPORT:
            return self._best(actions, lambda a: landing_gain_after_teleport(game, a))
        if step in (MAIN, MOVE):
            gains = [self._gain(game, player, a) for a in actions]
            top = max(gains)
            if top > 0:
                best = [a for a, g in zip(actions, gains) if g == top]
                return self._random(best)
        return self._random(actions)

    @staticmethod
    def _gain(game: PraxisGame, seat: int, action: Any) -> int:
        """Points this turn: landing on a portal, or putting next to a portal and then landing on it."""
        if type(action) is Move:
            return landing_gain(game, action.to)
        if type(action) is Put:
            near = game.universe.neighbours[action.cell]
            if not any(game.board[y] == PORTAL for y in near):
                return 0
            ships = [s for s in game.ships_of(seat) if game.ship_cell[s] in near]
            game.board[action.cell] = KIND[action.artefact]
            try:
                return best_gain(game, seat, ships)
            finally:
                game.board[action.cell] = EMPTY
        return 0


def landing_gain_after_teleport(game: PraxisGame, action: Teleport) -> int:
    if game.board[action.to] == PORTAL:
        return portal_value(game, action.to)
    return 0


class SearchBot(_Chooser):
    """One ply of search over the acting seat's own steps, each outcome scored by the opponents'
    best reply.

    Every legal action is tried on a clone through the fast path, the obvious choices that follow
    (which artefact to discard, which to keep) made at once, and the position scored by
    :meth:`evaluate`. The weights say how much a point the opponents could collect next counts
    against a point of lead (``threat``) and how much a point the bot could collect itself on its
    next turn counts (``promise``: less, since the opponents move first).
    """

    def __init__(self, seed: int = 0, threat: float = 1.0, promise: float = 0.5) -> None:
        super().__init__(seed)
        self.threat = threat
        self.promise = promise

    def choose(self, game: Any, player: int) -> Any:
        actions = game.legal_actions(player)
        if not actions:
            raise _nothing_to_do(game, player)
        if player == CHANCE or len(actions) == 1:
            return self._random(actions) if len(actions) > 1 else actions[0]
        obvious = self._obvious(game, actions)
        if obvious is not None:
            return obvious
        if game.queue[0][0] == PORTAL_GRID:
            return self._portal_grid(game, player, actions)
        return self._best(actions, lambda a: self._after(game, player, a))

    def _after(self, game: PraxisGame, seat: int, action: Any) -> float:
        twin = game.clone()
        twin.apply_fast(seat, action)
        while not twin.over:
            step = twin.queue[0]
            if step[1] != seat or step[0] not in (DISCARD, KEEP):
                break
            choices = twin.legal_actions(seat)
            twin.apply_fast(seat, self._obvious(twin, choices))
        return self.evaluate(twin, seat)

    def evaluate(self, game: PraxisGame, seat: int) -> float:
        """The lead in points, plus what the bot's ship is about to collect this turn, minus what
        the opponents could collect on their turns, plus a part of what it could collect on its next."""
        points = game.points
        others = [p for p in range(game.players) if p != seat]
        score = points[seat] - max(points[p] for p in others)
        if game.over:
            return score * 100.0
        step = game.queue[0]
        if step[1] == seat and step[0] == MOVE:  # an artefact was put first: the move comes now
            return score + best_gain(game, seat, step[2])
        if step[1] == seat and step[0] == MAIN:  # pragma: no cover - a turn never gives itself another
            return score + best_gain(game, seat)
        for k, p in enumerate(self._order(game, others)):
            score -= self.threat * (1.0 if k == 0 else 0.7) * best_gain(game, p)
        score += self.promise * best_gain(game, seat)
        on_board = sum(1 for s in game.ships_of(seat) if game.ship_cell[s] != IN_SPACEPORT)
        return score + 0.25 * on_board

    @staticmethod
    def _order(game: PraxisGame, others: list[int]) -> list[int]:
        """The opponents in the order they play next."""
        after = game.active if game.active is not None else 0
        return sorted(others, key=lambda p: (p - after - 1) % game.players)

    def _portal_grid(self, game: PraxisGame, seat: int, actions: list[PortalGrid]) -> PortalGrid:
        """Put the portal back on the grid whose empty cells its own ships reach most and the
        opponents' least (its cell is rolled, so every empty cell of the grid is as likely)."""
        mine = reach(game, seat)
        theirs: set[int] = set()
        for p in range(game.players):
            if p != seat:
                theirs |= reach(game, p)
        board = game.board

        def score(action: PortalGrid) -> float:
            start = (action.grid - 1) * CELLS_PER_GRID
            empty = [c for c in range(start, start + CELLS_PER_GRID) if board[c] == EMPTY]
            return (sum(c in mine for c in empty) - 1.5 * sum(c in theirs for c in empty)) / len(empty)

        return self._best(actions, score)


__all__ = ["GreedyBot", "PraxisRandomBot", "SearchBot", "best_gain", "landing_gain", "portal_value", "reach"]

