"""Keeping each die's identity from one still snapshot to the next.

Dice are matched to the previous snapshot's dice by an optimal assignment (Hungarian method) on a cost
made of the distance moved, plus a penalty when the top face or the stack level changed. A die that
found no partner within ``gate_mm`` is new (or gone). A die *moved* when it is new, gone, more than
``move_tol_mm`` from where it was, turned, or changed level. A die cannot change face without moving,
so a different reading of a die that stayed put is a reading, not a move.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from controller.vision.snapshot import DieObservation, replaced

_BIG = 1e9


def hungarian(cost: np.ndarray) -> list[tuple[int, int]]:
    """Minimum-cost assignment of rows to columns of a (rows <= columns or not) cost matrix.

    Returns (row, column) pairs, one per row or column, whichever are fewer.
    """
    cost = np.asarray(cost, np.float64)
    transposed = cost.shape[0] > cost.shape[1]
    if transposed:
        cost = cost.T
    n, m = cost.shape
    if n == 0:
        return []
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=int)      # p[j]: row assigned to column j (1-based), 0 = none
    way = np.zeros(m + 1, dtype=int)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            cur = cost[i0 - 1, :] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            cand = np.where(free, minv[1:], np.inf)
            j1 = int(cand.argmin()) + 1
            delta = cand[j1 - 1]
            u[p[used]] += delta
            v[used] -= delta
            minv[1:][free] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    pairs = [(int(p[j]) - 1, j - 1) for j in range(1, m + 1) if p[j] != 0]
    return [(c, r) for r, c in pairs] if transposed else pairs


@dataclasses.dataclass
class DiceTracker:
    """Assigns stable ``die_id``s to the dice of successive snapshots."""

    edge_mm: float
    move_tol_mm: float | None = None
    gate_mm: float | None = None
    turn_tol_deg: float = 8.0

    def __post_init__(self) -> None:
        self.move_tol_mm = self.move_tol_mm if self.move_tol_mm is not None else 0.2 * self.edge_mm
        self.gate_mm = self.gate_mm if self.gate_mm is not None else 12.0 * self.edge_mm
        self.known: dict[int, DieObservation] = {}
        self._next_id = 1

    def _costs(self, observed: list[DieObservation], prev: list[DieObservation]) -> np.ndarray:
        """The cost of pairing each observed die (rows) with each known die (columns): the distance
        moved, plus 0.6 edge when both faces were read and differ, plus one edge when the stack level
        changed; beyond ``gate_mm``, never."""
        if not observed or not prev:
            return np.zeros((len(observed), len(prev)))
        o_xy = np.array([(d.x_mm, d.y_mm) for d in observed])
        p_xy = np.array([(d.x_mm, d.y_mm) for d in prev])
        dist = np.hypot(o_xy[:, None, 0] - p_xy[None, :, 0], o_xy[:, None, 1] - p_xy[None, :, 1])
        o_label = np.array([d.face.label if d.face.readable else "" for d in observed], object)[:, None]
        p_label = np.array([d.face.label if d.face.readable else "" for d in prev], object)[None, :]
        relabelled = (o_label != p_label) & (o_label != "") & (p_label != "")
        restacked = np.array([d.level for d in observed])[:, None] != np.array([d.level for d in prev])[None, :]
        cost = dist + 0.6 * self.edge_mm * relabelled + 1.0 * self.edge_mm * restacked
        return np.where(dist > self.gate_mm, _BIG, cost)

    def _assign(self, observed: list[DieObservation]) -> tuple[list[DieObservation], set[int]]:
        prev = list(self.known.values())
        cost = self._costs(observed, prev)
        pairs = [(i, j) for i, j in hungarian(cost) if cost[i, j] < _BIG]
        out: list[DieObservation | None] = [None] * len(observed)
        moved: set[int] = set()
        used: set[int] = set()
        next_id = self._next_id
        for i, j in pairs:
            p, o = prev[j], observed[i]
            out[i] = replaced(o, die_id=p.die_id)
            used.add(p.die_id)
            turn = abs((o.angle_deg - p.angle_deg + 45.0) % 90.0 - 45.0)
            if (math.hypot(o.x_mm - p.x_mm, o.y_mm - p.y_mm) > self.move_tol_mm or o.level != p.level
                    or turn > self.turn_tol_deg):
                moved.add(p.die_id)
        for i, o in enumerate(observed):
            if out[i] is None:
                out[i] = replaced(o, die_id=next_id)
                moved.add(next_id)
                next_id += 1
        moved |= set(self.known) - used
        return [d for d in out if d is not None], moved

    def peek(self, observed: list[DieObservation]) -> list[DieObservation]:
        """Identities for ``observed`` without remembering them (for frames that are not settled)."""
        saved = self._next_id
        dice, _ = self._assign(observed)
        self._next_id = saved
        return dice

    def update(self, observed: list[DieObservation]) -> tuple[list[DieObservation], set[int]]:
        """Identities for ``observed``, and the ids of dice that moved, appeared or disappeared."""
        dice, moved = self._assign(observed)
        self._next_id = max([self._next_id - 1] + [d.die_id for d in dice]) + 1
        self.known = {d.die_id: d for d in dice}
        return dice, moved
