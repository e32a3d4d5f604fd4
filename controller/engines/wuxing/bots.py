"""Bots for Wuxing duel: an equilibrium player for the chemin, a searcher and a greedy player for
the theatre, and :class:`WuxingBot`, which plays either mode (the one the service seats).

Le chemin is a simultaneous game: neither card is a best reply to the other, so a good player
mixes. :func:`equilibrium` looks ``depth`` duels ahead: each position's payoff table (one row per
card of seat 0, one column per card of seat 1, each entry the value of the position that pair of
cards leads to) is solved as a zero-sum matrix game by linear programming
(:func:`~controller.engines.wuxing.matrix.solve_matrix_game`), from the last duel looked at back
to the present one. A position past the horizon is valued by its tokens, places and faces; a won
game is worth 1 to seat 0, a lost one 0. :class:`ChemBot` draws its card from its side's strategy.

Le théâtre is sequential with open information: :class:`TheatreBot` searches it with alpha-beta
(captures first), scoring positions by pawns, then threats and mobility; :class:`GreedyBot` takes
the action that looks best one move ahead, the yardstick of bench/wuxing.py.
"""

from __future__ import annotations

import math
from typing import Any

from controller.engines.core import Bot, IllegalActionError
from controller.engines.wuxing.actions import Move
from controller.engines.wuxing.elements import ARROW, BLUE, ELEMENT_NAMES, ELEMENTS
from controller.engines.wuxing.matrix import solve_matrix_game
from controller.engines.wuxing.theatre import EMPTY, FLIP, OVER, PAWNS, RAYS, Theatre

# =============================================================================================
# Le chemin: equilibrium strategies
# =============================================================================================

#: A chemin position for the search: (pos0, pos1, yin_yang0, yin_yang1, blue0, red0, blue1, red1,
#: set_aside0, set_aside1), set aside -1 for none; or a float, the value of a finished game.
Position = tuple[int, ...]

WIN, LOSS = 1.0, 0.0


def position_of(rules: Any) -> Position:
    """The public part of a :class:`~controller.engines.wuxing.chemin.Chemin` state (never a
    pending secret card)."""
    a0, a1 = rules.set_aside
    return (rules.pos[0], rules.pos[1], int(rules.yin_yang[0]), int(rules.yin_yang[1]),
            rules.tokens[0][0], rules.tokens[0][1], rules.tokens[1][0], rules.tokens[1][1],
            -1 if a0 is None else a0, -1 if a1 is None else a1)


def duel(path: tuple[int, ...], discard: bool, faces: bool, state: Position, e0: int, e1: int) -> Position | float:
    """The position after a duel of ``e0`` against ``e1`` (the engine's rules, without events), or
    the finished game's value to seat 0."""
    p0, p1, y0, y1, b0, r0, b1, r1, a0, a1 = state
    if discard:
        a0, a1 = e0, e1
    winner = -1
    colour = -1
    if e0 != e1:
        arrow = ARROW[e0][e1]
        winner = 0 if arrow is not None else 1
        colour = 0 if (arrow or ARROW[e1][e0]) == BLUE else 1
    else:
        if path[p0] == e0:
            winner = 0
        elif path[p1] == e0:
            winner = 1
        if winner >= 0:
            if faces:
                y0, y1 = (1, 0) if winner == 0 else (0, 1)
        elif y0 or y1:
            winner = 0 if y0 else 1
            y0 = y1 = 0
    if winner < 0:
        return (p0, p1, y0, y1, b0, r0, b1, r1, a0, a1)
    if winner == 0:
        p0 += 1
        if p0 == p1:
            p1 += 1
            if p1 > 4:
                return WIN
    else:
        p1 -= 1
        if p1 == p0:
            p0 -= 1
            if p0 < 0:
                return LOSS
    tokens = [[b0, r0], [b1, r1]]
    if colour >= 0 and tokens[winner][colour] < 2:
        if tokens[0][colour] + tokens[1][colour] >= 2:
            tokens[1 - winner][colour] -= 1
        tokens[winner][colour] += 1
        if tokens[winner] == [2, 2]:
            return WIN if winner == 0 else LOSS
    (b0, r0), (b1, r1) = tokens
    return (p0, p1, y0, y1, b0, r0, b1, r1, a0, a1)


def estimate(state: Position) -> float:
    """A position past the search's horizon, as seat 0's chance: tokens, then how far each pawn has
    pushed on (a pawn pushed back home is one lost duel from capture), then a Yin-Yang face."""
    p0, p1, y0, y1, b0, r0, b1, r1, _, _ = state
    score = 0.35 * ((b0 + r0) - (b1 + r1))
    score += 0.25 * (p0 - (4 - p1))
    score += 0.3 * ((p0 == 0) * -1 + (p1 == 4) * 1) * (p1 - p0 == 1)
    score += 0.15 * (y0 - y1)
    score += 0.2 * ((b0 == 2) + (r0 == 2) - (b1 == 2) - (r1 == 2))
    return 1.0 / (1.0 + math.exp(-score))


class ChemSolver:
    """Depth-limited equilibria of one chemin setup (path and variants), memoised by position."""

    def __init__(self, path: tuple[int, ...], discard: bool, faces: bool) -> None:
        self.path, self.discard, self.faces = path, discard, faces
        self._memo: dict[tuple[Position, int], tuple[float, list[float], list[float], tuple[int, ...], tuple[int, ...]]] = {}

    def hand(self, set_aside: int) -> tuple[int, ...]:
        return tuple(e for e in ELEMENTS if e != set_aside)

    def solve(self, state: Position, depth: int) -> tuple[float, list[float], list[float], tuple[int, ...], tuple[int, ...]]:
        """``(value, seat 0's strategy, seat 1's strategy, seat 0's cards, seat 1's cards)`` of a duel."""
        key = (state, depth)
        found = self._memo.get(key)
        if found is not None:
            return found
        rows, columns = self.hand(state[8]), self.hand(state[9])
        table = []
        for e0 in rows:
            line = []
            for e1 in columns:
                after = duel(self.path, self.discard, self.faces, state, e0, e1)
                if isinstance(after, float):
                    line.append(after)       # the game is over: 1 or 0 to seat 0
                else:
                    line.append(estimate(after) if depth <= 1 else self.solve(after, depth - 1)[0])
            table.append(line)
        value, p, q = solve_matrix_game(table)
        result = (value, p, q, rows, columns)
        self._memo[key] = result
        return result

    def opening(self, depth: int) -> tuple[float, list[float], list[float]]:
        """The opening discard as a matrix game: each pair of discards leads to the first duel."""
        start = (0, 4, 0, 0, 0, 0, 0, 0)
        table = [[self.solve((*start, a0, a1), depth)[0] for a1 in ELEMENTS] for a0 in ELEMENTS]
        return solve_matrix_game(table)


_SOLVERS: dict[tuple[tuple[int, ...], bool, bool], ChemSolver] = {}


def solver_for(rules: Any) -> ChemSolver:
    key = (rules.path, rules.discard, rules.faces)
    solver = _SOLVERS.get(key)
    if solver is None:
        if len(_SOLVERS) > 32:
            _SOLVERS.clear()
        solver = _SOLVERS[key] = ChemSolver(*key)
    return solver


def equilibrium(game: Any, depth: int = 3) -> dict[str, Any]:
    """The chemin position's equilibrium: ``{"value": seat 0's chance, "strategies": [{element:
    probability} for each seat], "depth": depth}``, from public information only."""
    rules = game.rules
    solver = solver_for(rules)
    if rules.phase == "discard":
        value, p, q = solver.opening(max(1, depth - 1))
        rows = columns = ELEMENTS
    else:
        value, p, q, rows, columns = solver.solve(position_of(rules), depth)
    return {
        "value": value,
        "strategies": [{ELEMENT_NAMES[e]: prob for e, prob in zip(rows, p)},
                       {ELEMENT_NAMES[e]: prob for e, prob in zip(columns, q)}],
        "depth": depth,
        "phase": rules.phase,
    }


class ChemBot(Bot):
    """Plays the chemin by drawing its card from its side's equilibrium strategy."""

    depth = 3

    def choose(self, game: Any, player: int) -> Any:
        actions = game.legal_actions(player)
        if not actions:
            raise IllegalActionError("no-legal-action", f"seat {player} has nothing to do now", game.render())
        strategy = equilibrium(game, self.depth)["strategies"][player]
        weights = [strategy.get(ELEMENT_NAMES[a.element], 0.0) for a in actions]
        if sum(weights) <= 0:
            return actions[self.rng.randrange(len(actions))]
        return self.rng.choices(actions, weights)[0]


# =============================================================================================
# Le théâtre: search
# =============================================================================================

WON = 100_000.0


def _attacks(rules: Theatre, seat: int) -> tuple[int, int]:
    """(moves ignoring tokens, opposing pawns those moves could capture) for ``seat``."""
    board, occupant = rules.board, rules.occupant
    red = rules.red_moves
    count = 0
    hits = 0
    for sq in rules.pawns[seat]:
        if sq < 0:
            continue
        arrows = ARROW[board[sq]]
        for _, line in RAYS[sq]:
            for t in line:
                e = board[t]
                who = occupant[t]
                if e >= 0:
                    colour = arrows[e]
                    if colour == BLUE or (red and colour is not None):
                        if who == EMPTY:
                            count += 1
                        elif who // PAWNS != seat:
                            count += 1
                            hits += 1
                if who != EMPTY:
                    break
    return count, hits


def evaluate(rules: Theatre, seat: int) -> float:
    """The theatre position's worth to ``seat``: a finished game, else pawns first, then pawns
    under attack (weighted by who moves next), mobility and tokens."""
    if rules.phase == OVER:
        if rules.result == "draw":
            return 0.0
        return WON if rules.result == seat else -WON
    other = 1 - seat
    mine, theirs = rules.pawns_left(seat), rules.pawns_left(other)
    my_moves, my_hits = _attacks(rules, seat)
    their_moves, their_hits = _attacks(rules, other)
    to_move = rules.to_act if rules.phase != FLIP else -1
    score = 100.0 * (mine - theirs)
    score += (30.0 if to_move == seat else 12.0) * min(my_hits, 2)
    score -= (30.0 if to_move == other else 12.0) * min(their_hits, 2)
    score += 1.5 * (my_moves - their_moves)
    score += 2.0 * (sum(rules.tokens[seat]) - sum(rules.tokens[other]))
    return score


def _ordered(rules: Theatre, seat: int, actions: list[Any]) -> list[Any]:
    """Captures first (alpha-beta prunes more), then the rest in the engine's order."""
    if not actions or not isinstance(actions[0], Move):
        return actions
    occupant = rules.occupant
    captures, quiet = [], []
    for a in actions:
        end = rules.target(seat, a)
        (captures if occupant[end] != EMPTY else quiet).append(a)
    return captures + quiet


class TheatreBot(Bot):
    """Alpha-beta search of the theatre, ``depth`` plies (a flip is a ply), seeded tie-breaks."""

    depth = 4

    def choose(self, game: Any, player: int) -> Any:
        rules: Theatre = game.rules
        actions = rules.legal_actions(player)
        if not actions:
            raise IllegalActionError("no-legal-action", f"seat {player} has nothing to do now", game.render())
        if len(actions) == 1:
            return actions[0]
        best, best_score = [], -math.inf
        alpha = -math.inf
        for action in _ordered(rules, player, actions):
            child = rules.copy()
            child.apply(player, action, None)
            score = self._search(child, player, self.depth - 1, alpha, math.inf)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
            alpha = max(alpha, best_score - 1e-9)
        return best[self.rng.randrange(len(best))]

    def _search(self, rules: Theatre, me: int, depth: int, alpha: float, beta: float) -> float:
        if depth <= 0 or rules.phase == OVER:
            value = evaluate(rules, me)
            if rules.phase == OVER and value:
                value += depth if value > 0 else -depth   # a quicker win, a later loss
            return value
        seat = rules.to_act
        actions = _ordered(rules, seat, rules.legal_actions(seat))
        if seat == me:
            value = -math.inf
            for action in actions:
                child = rules.copy()
                child.apply(seat, action, None)
                value = max(value, self._search(child, me, depth - 1, alpha, beta))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        value = math.inf
        for action in actions:
            child = rules.copy()
            child.apply(seat, action, None)
            value = min(value, self._search(child, me, depth - 1, alpha, beta))
            beta = min(beta, value)
            if alpha >= beta:
                break
        return value


class GreedyBot(Bot):
    """Takes the theatre action whose position looks best right after it (one ply, the same
    scoring as :class:`TheatreBot`); in the chemin, plays a card that beats the other's last one."""

    def choose(self, game: Any, player: int) -> Any:
        actions = game.legal_actions(player)
        if not actions:
            raise IllegalActionError("no-legal-action", f"seat {player} has nothing to do now", game.render())
        rules = game.rules
        if game.mode == "chemin":
            return actions[self.rng.randrange(len(actions))]
        best, best_score = [], -math.inf
        for action in actions:
            child = rules.copy()
            child.apply(player, action, None)
            score = evaluate(child, player)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return best[self.rng.randrange(len(best))]


class WuxingBot(Bot):
    """The bot the service seats: :class:`ChemBot` in the chemin, :class:`TheatreBot` in the theatre."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._chemin = ChemBot(seed)
        self._theatre = TheatreBot(seed)

    def choose(self, game: Any, player: int) -> Any:
        return (self._chemin if game.mode == "chemin" else self._theatre).choose(game, player)


__all__ = ["ChemBot", "ChemSolver", "GreedyBot", "TheatreBot", "WuxingBot", "duel", "equilibrium", "estimate",
           "evaluate", "position_of"]
