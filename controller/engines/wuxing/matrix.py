"""Solving a two-player zero-sum matrix game: each side's equilibrium mixed strategy and the value.

The row player picks a row, the column player a column, at the same time; the row player gets
``payoff[row][column]`` and the column player loses it. By von Neumann's minimax theorem each side
has a mixed strategy (a probability per row or column) guaranteeing the value whatever the other
does. It is found by linear programming: with every payoff shifted to be positive (``B``), the
column player's strategy is ``y / sum(y)`` for ``y`` maximising ``sum(y)`` subject to ``B y <= 1``,
``y >= 0``, the value ``1 / sum(y)`` (shifted back), and the row player's strategy the same
problem's dual, read off the final simplex tableau. The games here are at most 5x5, so a plain
tableau simplex in Python (Bland's rule: it never cycles) is exact enough and fast.

    >>> value, rows, columns = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])   # rock, paper, scissors
    >>> round(value, 9), [round(p, 9) for p in rows]
    (0.0, [0.333333333, 0.333333333, 0.333333333])
"""

from __future__ import annotations

from collections.abc import Sequence

EPSILON = 1e-12


def solve_matrix_game(payoff: Sequence[Sequence[float]]) -> tuple[float, list[float], list[float]]:
    """``(value, row strategy, column strategy)`` of the zero-sum game ``payoff`` (rows maximise)."""
    m = len(payoff)
    n = len(payoff[0]) if m else 0
    if not m or not n or any(len(row) != n for row in payoff):
        raise ValueError(f"a matrix game needs a non-empty rectangular payoff table, not {payoff!r}")
    low = min(min(row) for row in payoff)
    shift = 1.0 - low
    # Tableau: m constraint rows [B | I | 1], then the objective row [-1 .. -1 | 0 .. 0 | 0].
    table = [[float(payoff[i][j]) + shift for j in range(n)] + [1.0 if k == i else 0.0 for k in range(m)] + [1.0]
             for i in range(m)]
    objective = [-1.0] * n + [0.0] * m + [0.0]
    basis = [n + i for i in range(m)]
    width = n + m
    while True:
        entering = next((j for j in range(width) if objective[j] < -EPSILON), None)
        if entering is None:
            break
        leaving, best = None, None
        for i in range(m):
            a = table[i][entering]
            if a > EPSILON:
                ratio = table[i][width] / a
                if best is None or ratio < best - EPSILON or (abs(ratio - best) <= EPSILON and basis[i] < basis[leaving]):
                    leaving, best = i, ratio
        if leaving is None:  # pragma: no cover - B > 0 keeps the problem bounded
            raise ArithmeticError("unbounded matrix game LP")
        pivot_row = table[leaving]
        pivot = pivot_row[entering]
        pivot_row[:] = [x / pivot for x in pivot_row]
        for i in range(m):
            if i != leaving:
                factor = table[i][entering]
                if factor:
                    row = table[i]
                    row[:] = [x - factor * y for x, y in zip(row, pivot_row)]
        factor = objective[entering]
        objective[:] = [x - factor * y for x, y in zip(objective, pivot_row)]
        basis[leaving] = entering
    total = objective[width]
    y = [0.0] * n
    for i, var in enumerate(basis):
        if var < n:
            y[var] = table[i][width]
    x = [max(0.0, objective[n + i]) for i in range(m)]
    rows = _normalise(x)
    columns = _normalise(y)
    return 1.0 / total - shift, rows, columns


def _normalise(weights: list[float]) -> list[float]:
    weights = [max(0.0, w) for w in weights]
    total = sum(weights)
    return [w / total for w in weights]


def guaranteed(payoff: Sequence[Sequence[float]], rows: Sequence[float]) -> float:
    """What the row strategy ``rows`` earns at worst, whatever column is played."""
    return min(sum(p * payoff[i][j] for i, p in enumerate(rows)) for j in range(len(payoff[0])))


def conceded(payoff: Sequence[Sequence[float]], columns: Sequence[float]) -> float:
    """What the column strategy ``columns`` gives away at worst, whatever row is played."""
    return max(sum(q * payoff[i][j] for j, q in enumerate(columns)) for i in range(len(payoff)))
