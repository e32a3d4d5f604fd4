"""Temples: stacks of two dice, and their topples.

A die measured at level 2 stands on a die the camera cannot see; :meth:`StackTracker.expand` adds that
hidden die (level 1, same place, face unknown) so both have identities. A stack standing in the
previous snapshot and gone from its place in this one has toppled: it is reported once, with where its
two dice went (their tracked positions, or the nearest dice that moved).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from controller.vision.snapshot import DieFace, DieObservation, Stack, replaced


@dataclasses.dataclass
class _Standing:
    stack_id: int
    bottom: int
    top: int
    x_mm: float
    y_mm: float


class StackTracker:
    """Finds stacks in each snapshot and notices when a known stack has fallen."""

    def __init__(self, edge_mm: float, temples: list[Any] | None = None) -> None:
        self.edge_mm = edge_mm
        self.temples = temples or []
        self.standing: dict[int, _Standing] = {}
        self._next_id = 1

    def hints(self, known: dict[int, DieObservation]) -> list[tuple[float, float, float, str | None]]:
        """Standing stacks as (x_mm, y_mm, top's angle, top face label) for the frame analyser."""
        out = []
        for st in self.standing.values():
            top = known.get(st.top)
            angle = top.angle_deg if top is not None else 0.0
            label = top.face.label if top is not None and top.face.readable else None
            out.append((st.x_mm, st.y_mm, angle, label))
        return out

    def expand(self, found: list[Any]) -> list[DieObservation]:
        """Observations (ids unset) for measured dice, plus the hidden bottom die of each stack."""
        out = []
        for f in found:
            obs = DieObservation(-1, f.x_mm, f.y_mm, f.angle_deg, f.face, f.level, f.on_mat, f.at_edge, f.colour)
            out.append(obs)
            if f.level == 2:
                out.append(DieObservation(-1, f.x_mm, f.y_mm, f.angle_deg, DieFace(), 1, f.on_mat, f.at_edge,
                                          f.colour))
        return out

    def _pairs(self, dice: list[DieObservation]) -> list[tuple[DieObservation, DieObservation]]:
        pairs = []
        used: set[int] = set()
        for top in (d for d in dice if d.level == 2):
            best = None
            for d in dice:
                if d.level == 1 and d.die_id not in used:
                    dist = math.hypot(d.x_mm - top.x_mm, d.y_mm - top.y_mm)
                    if dist < 0.5 * self.edge_mm and (best is None or dist < best[0]):
                        best = (dist, d)
            if best is not None:
                used.add(best[1].die_id)
                pairs.append((best[1], top))
        return pairs

    def current(self, dice: list[DieObservation]) -> list[Stack]:
        """The stacks standing in ``dice``, without updating what is remembered."""
        return [Stack(0, (b.die_id, t.die_id), t.x_mm, t.y_mm) for b, t in self._pairs(dice)]

    def update(self, dice: list[DieObservation]) -> tuple[list[Stack], list[DieObservation]]:
        """Stacks standing now and stacks that fell since the last update; dice get their stack ids."""
        stacks: list[Stack] = []
        now: dict[int, _Standing] = {}
        by_id = {d.die_id: d for d in dice}
        claimed: set[int] = set()
        for b, t in self._pairs(dice):
            sid = None
            for s in self.standing.values():
                # The same stack stands where it stood: its dice standing as a stack a die's width
                # away or more make another (the one that stood there fell; stacks are not slid).
                dist = math.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm)
                if dist < 0.5 * self.edge_mm or (dist < self.edge_mm and (
                        s.top in (t.die_id, b.die_id) or s.bottom in (t.die_id, b.die_id))):
                    sid = s.stack_id
                    break
            if sid is None or sid in now:
                sid = self._next_id
                self._next_id += 1
            now[sid] = _Standing(sid, b.die_id, t.die_id, t.x_mm, t.y_mm)
            claimed |= {b.die_id, t.die_id}
            stacks.append(Stack(sid, (b.die_id, t.die_id), t.x_mm, t.y_mm))
        for s in self.standing.values():
            if s.stack_id in now:
                continue
            went = []
            for did in (s.bottom, s.top):
                d = by_id.get(did)
                if d is not None and did not in claimed:
                    went.append((d.x_mm, d.y_mm))
                    claimed.add(did)
            if len(went) < 2:
                near = sorted((math.hypot(d.x_mm - s.x_mm, d.y_mm - s.y_mm), d) for d in dice
                              if d.die_id not in claimed and d.level == 1)
                for dist, d in near[:2 - len(went)]:
                    if dist < 8 * self.edge_mm:
                        went.append((d.x_mm, d.y_mm))
                        claimed.add(d.die_id)
            stacks.append(Stack(s.stack_id, (s.bottom, s.top), s.x_mm, s.y_mm, toppled=True,
                                scattered_to=tuple(went)))
        self.standing = now
        sid_of = {did: st.stack_id for st in now.values() for did in (st.bottom, st.top)}
        dice = [replaced(d, stack_id=sid_of.get(d.die_id)) for d in dice]
        return stacks, dice
