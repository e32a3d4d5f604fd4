"""What the table camera reads of a Praxis table, and where the printed mat puts things.

The printed mat (``hardware/mats/praxis.toml``) is a 9 x 4 lattice of 40 mm cells: six space grids of
3 x 2 cells, three across and two down, numbered row by row, and four spaceports. :class:`MatUniverse`
ties the mat's lattice to the engine's universe of the same shape (:data:`PRINTED_LAYOUT`), so a
cell read on the mat is the engine's cell of the same name (``"2.4"``).

A reading holds, per cell of the lattice, a :class:`CellSeen` (empty, a tile of some kind, or a
ship of some colour showing some face, each with the reader's confidence), per spaceport what
stands in it, and whether something (a hand) hides the table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from controller.engines.praxis.artefacts import CODES
from controller.engines.praxis.universe import Universe, build_universe, cell_label
from controller.vision.mat import MatLayout, Zone

#: The ships' colours by seat: the table page's seat colours, as coloured dice come.
SHIP_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
#: The engine layout of the printed mat: grids 1 2 3 on the top row, 4 5 6 below, none turned.
PRINTED_LAYOUT: tuple[tuple[int, int, int], ...] = ((0, 0, 0), (0, 3, 0), (0, 6, 0), (2, 0, 0), (2, 3, 0),
                                                    (2, 6, 0))


@dataclasses.dataclass(frozen=True)
class CellSeen:
    """One cell as read: ``kind`` a tile's kind (1 to 15) or 0; ``colour`` a ship's colour or ``None``;
    ``face`` the ship's top face (0 when unread); ``confidence`` 0 to 1; ``note`` why it is unsure."""

    kind: int = 0
    colour: str | None = None
    face: int = 0
    confidence: float = 1.0
    note: str | None = None

    @property
    def code(self) -> str:
        """``"."`` empty, ``"+1"`` a tile (its board code), ``"red3"`` a ship; ``"?"`` unsure."""
        if self.confidence < PraxisReading.SURE:
            return "?"
        if self.colour is not None:
            return f"{self.colour}{self.face or '?'}"
        return CODES[self.kind] if self.kind else "."


@dataclasses.dataclass(frozen=True)
class PortSeen:
    """A spaceport as read: the colours of the ships standing in it, the kinds of the tiles seen."""

    ships: tuple[str, ...] = ()
    tiles: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class PraxisReading:
    """A still table as read. ``cells`` by lattice position (row by row), ``ports`` by seat."""

    SURE = 0.8

    t: float
    cells: tuple[CellSeen, ...]
    ports: tuple[PortSeen, ...]
    occluded: bool = False

    @property
    def unsure(self) -> list[int]:
        """The lattice positions read with too little confidence to act on."""
        return [i for i, c in enumerate(self.cells) if c.confidence < self.SURE]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.cells)

    def with_cells(self, answers: dict[int, CellSeen]) -> PraxisReading:
        """The same reading with some cells replaced (the players' answers)."""
        cells = list(self.cells)
        for i, seen in answers.items():
            cells[i] = seen
        return dataclasses.replace(self, cells=tuple(cells))


@dataclasses.dataclass(frozen=True)
class MatUniverse:
    """The printed mat's universe: its lattice in mm and the engine's universe of the same shape."""

    zone: Zone
    universe: Universe
    ports: tuple[Zone, ...]

    @property
    def rows(self) -> int:
        return int(self.zone.params["rows"])

    @property
    def columns(self) -> int:
        return int(self.zone.params["columns"])

    @property
    def cell_mm(self) -> float:
        return float(self.zone.params["cell_mm"])

    def centre(self, position: int) -> tuple[float, float]:
        """The mm centre of lattice position ``position`` (row by row)."""
        r, c = divmod(position, self.columns)
        return self.zone.cell_center(r, c)

    def position(self, cell: int) -> int:
        """The lattice position of the engine's cell ``cell``."""
        r, c = self.universe.coords[cell]
        return r * self.columns + c

    def cell(self, position: int) -> int | None:
        """The engine's cell at lattice position ``position`` (``None``: no grid covers it)."""
        return self.universe.at.get(divmod(position, self.columns))

    def label(self, position: int) -> str:
        cell = self.cell(position)
        return cell_label(cell) if cell is not None else f"r{position // self.columns + 1}c{position % self.columns + 1}"


def mat_universe(layout: MatLayout, placements: Sequence[Sequence[int]] = PRINTED_LAYOUT) -> MatUniverse:
    """The universe printed on ``layout`` (a mat with a ``universe`` grid zone and four spaceports)."""
    zone = layout.zone("universe")
    universe = build_universe([list(p) for p in placements])
    if (universe.height, universe.width) != (zone.params["rows"], zone.params["columns"]):
        raise ValueError(f"mat {layout.name!r}: its universe is {zone.params['columns']} x {zone.params['rows']} "
                         f"cells, the layout {placements} is {universe.width} x {universe.height}")
    ports = sorted(layout.zones_of_kind("spaceport"), key=lambda z: z.owner if z.owner is not None else 99)
    return MatUniverse(zone, universe, tuple(ports))
