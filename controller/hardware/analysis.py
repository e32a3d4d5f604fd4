"""What each wheel position reads, solved from the circuit itself, and how much the parts' tolerance moves it.

For a wheel at position k its switch joins the common lug to way k + 1; every resistor of the
circuit reachable from the ADC input (the ladder's string and the pull-down, and in the direct
build the same across the cable) then forms a DC network between 3V3 and ground, solved by nodal
analysis. Capacitors are open at DC. Readings are on the 16-bit ``read_u16()`` scale of
``hardware/ladders.toml``: every ADC of both builds takes its reference from the ladders' own 3V3,
so a reading is the input's fraction of the supply.

:func:`monte_carlo` draws every resistor uniformly within its tolerance and keeps, for each
position, the reading furthest towards either edge of the band the firmware accepts for it.

>>> from controller.hardware.circuit import usb_controller
>>> volts = nominal_volts(usb_controller())
>>> [round(v, 3) for v in volts[("", "symbol")]]
[0.655, 1.304, 1.957, 2.619]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import numpy as np

from controller.hardware.circuit import Board, Ladder, RESISTOR_TOLERANCE_PERCENT

#: Full scale of a reading (MicroPython's ``ADC.read_u16()``).
FULL_SCALE = 65535
#: Nets held at a fixed fraction of the supply.
FIXED_NETS = {"3V3": 1.0, "GND": 0.0, "AGND": 0.0}


@dataclasses.dataclass(frozen=True)
class Network:
    """The resistors one wheel position puts between its ADC input and the rails."""

    nodes: tuple[str, ...]          # unknown nets, the ADC input first
    edges: tuple[tuple[str, str, float, str], ...]  # (net, net, ohms, reference)


def _resistors(board: Board) -> list[tuple[str, str, float, str]]:
    out = []
    for part in board.circuit.parts:
        ohms = getattr(part, "ohms", None)
        if ohms is not None:
            out.append((part[1].net.name, part[2].net.name, float(ohms), part.ref))
    return out


def network(board: Board, ladder: Ladder, position: int, resistors=None) -> Network:
    """The DC network seen from ``ladder``'s ADC input with its switch at ``position``."""
    if not 0 <= position < ladder.positions:
        raise ValueError(f"the {ladder.wheel} wheel has positions 0 to {ladder.positions - 1}, not {position}")
    common = ladder.common_pin().net.name
    closed = ladder.way_pin(position).net.name

    def node(name: str) -> str:
        return common if name == closed else name

    edges = [(node(a), node(b), ohms, ref) for a, b, ohms, ref in (resistors or _resistors(board))]
    reached, frontier, used = {common}, [common], []
    while frontier:
        here = frontier.pop()
        for edge in edges:
            a, b = edge[0], edge[1]
            if here not in (a, b) or edge in used:
                continue
            used.append(edge)
            other = b if a == here else a
            if other not in reached and other not in FIXED_NETS:
                reached.add(other)
                frontier.append(other)
    nodes = (common,) + tuple(sorted(reached - {common}))
    return Network(nodes, tuple(used))


def solve(net: Network, ohms: np.ndarray | None = None) -> np.ndarray:
    """The ADC input's fraction of the supply; ``ohms`` (trials x edges) gives each trial's values."""
    values = np.array([e[2] for e in net.edges], float)[None, :] if ohms is None else np.atleast_2d(ohms)
    trials, n = values.shape[0], len(net.nodes)
    index = {name: i for i, name in enumerate(net.nodes)}
    g = np.zeros((trials, n, n))
    i = np.zeros((trials, n))
    for k, (a, b, _, _) in enumerate(net.edges):
        cond = 1.0 / values[:, k]
        for here, there in ((a, b), (b, a)):
            if here in index:
                g[:, index[here], index[here]] += cond
                if there in index:
                    g[:, index[here], index[there]] -= cond
                else:
                    i[:, index[here]] += cond * FIXED_NETS[there]
    if not any(FIXED_NETS.get(e[0]) == 1.0 or FIXED_NETS.get(e[1]) == 1.0 for e in net.edges):
        raise ValueError(f"net {net.nodes[0]} does not reach 3V3 through resistors")
    return np.linalg.solve(g, i[..., None])[:, 0, 0]


def nominal_volts(board: Board) -> dict[tuple[str, str], list[float]]:
    """Each wheel's position voltages, by ``(controller id or "", wheel)``."""
    resistors = _resistors(board)
    return {(cid, wheel): [float(solve(network(board, ladder, k, resistors))[0]) * board.supply_volts
                           for k in range(ladder.positions)]
            for cid, wheel, ladder in board.all_ladders()}


def nominal_u16(board: Board) -> dict[tuple[str, str], list[int]]:
    """Each wheel's position readings on the 16-bit scale, rounded as ``ladders.toml`` lists them."""
    return {key: [int(v / board.supply_volts * FULL_SCALE + 0.5) for v in volts]
            for key, volts in nominal_volts(board).items()}


@dataclasses.dataclass(frozen=True)
class Margin:
    """The worst reading of one position against its band: ``margin_u16`` is how far inside the band
    (negative: outside) the reading closest to an edge fell, on the 16-bit scale."""

    controller: str
    wheel: str
    position: int
    low: int
    high: int
    lowest: float
    highest: float

    @property
    def margin_u16(self) -> float:
        return min(self.lowest - self.low, self.high - self.highest)

    def codes(self, bits: int = 12) -> float:
        """The margin in codes of a ``bits``-bit ADC."""
        return self.margin_u16 / (1 << (16 - bits))


def monte_carlo(board: Board, bands: Mapping[str, tuple[Sequence[int], Sequence[int]]],
                tolerance_percent: float = RESISTOR_TOLERANCE_PERCENT, trials: int = 20000,
                seed: int = 1) -> list[Margin]:
    """Draw every resistor uniformly within ``tolerance_percent`` ``trials`` times (seeded) and
    return, per position, the extreme readings against ``bands[wheel] = (lows, highs)``."""
    rng = np.random.default_rng(seed)
    resistors = _resistors(board)
    refs = [r[3] for r in resistors]
    draws = 1 + rng.uniform(-1, 1, size=(trials, len(refs))) * tolerance_percent / 100
    column = {ref: k for k, ref in enumerate(refs)}
    out = []
    for cid, wheel, ladder in board.all_ladders():
        lows, highs = bands[wheel]
        for k in range(ladder.positions):
            net = network(board, ladder, k, resistors)
            ohms = np.array([e[2] for e in net.edges]) * draws[:, [column[e[3]] for e in net.edges]]
            u16 = solve(net, ohms) * FULL_SCALE
            out.append(Margin(cid, wheel, k, int(lows[k]), int(highs[k]), float(u16.min()), float(u16.max())))
    return out


def worst(margins: Sequence[Margin]) -> Margin:
    return min(margins, key=lambda m: m.margin_u16)
