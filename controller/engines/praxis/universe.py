"""The universe: six space grids of 3 x 2 cells joined edge to edge on one cell lattice.

"Les joueurs s'accordent sur la construction d'un univers à l'aide des 6 grilles d'espace. Chaque
grille doit être au contact d'au moins 2 autres grilles par un bord."

A layout places each grid (numbered 1 to 6, in order) by the lattice row and column of its
bounding box's top-left cell and by how many quarter turns clockwise it is turned: 0 or 2 lie
3 cells wide and 2 high, 1 or 3 stand 2 wide and 3 high. A grid's cells are numbered as printed
on the tile, 1 2 3 on the top row and 4 5 6 below, and the numbers turn with the tile.

A cell is named ``"g.n"`` (grid ``g``, cell ``n``) and numbered ``6 * (g - 1) + (n - 1)`` whatever
the layout, so actions and saves name cells the same way on every universe.

    >>> universe = build_universe("rectangle")
    >>> universe.label(universe.rays[cell_index("1.1")][2][0])
    '1.2'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

from controller import i18n
from controller.engines.core import OptionsError
from controller.i18n import N_

GRIDS = 6
CELLS_PER_GRID = 6
CELLS = GRIDS * CELLS_PER_GRID

#: The eight directions as (row step, column step), clockwise from north; even ones are orthogonal.
DIRECTIONS: tuple[tuple[int, int], ...] = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
DIRECTION_NAMES = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")
ORTHOGONAL: tuple[int, ...] = (0, 2, 4, 6)
DIAGONAL: tuple[int, ...] = (1, 3, 5, 7)
ALL_DIRECTIONS: tuple[int, ...] = tuple(range(8))

#: The directions a ship may slide in, by its active face: a centre pip and no corner pip (1)
#: moves orthogonally, corner pips and no centre pip (2, 4, 6) diagonally, both (3, 5) either way.
FACE_DIRECTIONS: tuple[tuple[int, ...], ...] = (
    (), ORTHOGONAL, DIAGONAL, ALL_DIRECTIONS, DIAGONAL, ALL_DIRECTIONS, DIAGONAL,
)

#: One grid's place: (row, column, quarter turns clockwise).
Placement = tuple[int, int, int]

#: The rules' four example universes. Their pictures were lost with the PDF's images; these are the
#: project's drawings of the four shapes the text names (see docs/rulings/praxis.md).
PRESETS: dict[str, tuple[Placement, ...]] = {
    # three rows of two grids: a square of 6 x 6 cells
    "rectangle": ((0, 0, 0), (0, 3, 0), (2, 0, 0), (2, 3, 0), (4, 0, 0), (4, 3, 0)),
    # a row of three grids over a row offset by one cell, its ends turned upright
    "offset": ((0, 0, 0), (0, 3, 0), (0, 6, 0), (2, 1, 1), (2, 3, 0), (2, 6, 1)),
    # six grids round a hole of 2 x 3 cells, the two side grids upright
    "ring": ((0, 0, 0), (0, 3, 0), (2, 4, 1), (5, 3, 2), (5, 0, 2), (2, 0, 3)),
    # grids 1 to 6 winding inwards clockwise
    "spiral": ((0, 0, 0), (0, 3, 0), (0, 6, 1), (3, 5, 2), (2, 3, 3), (2, 0, 0)),
}
DEFAULT_LAYOUT = "rectangle"


#: Why a universe is refused, by rule: the sentence said to whoever chose the layout.
LAYOUT_RULES: dict[str, str] = {
    "layout-name": N_("there is no universe named {name}; the presets are {presets}, or give six placements "
                      "[row, column, quarter turns]"),
    "six-grids": N_("a universe is built from the 6 space grids (\"à l'aide des 6 grilles d'espace\"): give six "
                    "placements [row, column, quarter turns], not {layout}"),
    "grid-placement": N_("grid {grid} is placed as {placement}; a placement is [row, column, quarter turns 0 to 3] "
                         "in whole numbers"),
    "grids-overlap": N_("grids {first} and {second} overlap at lattice row {row}, column {column}; grids are joined "
                        "edge to edge, never on top of one another"),
    "grid-contact": N_("grid {grid} touches {touching} by an edge; \"chaque grille doit être au contact d'au moins 2 "
                       "autres grilles par un bord\""),
    "one-universe": N_("grids {grids} do not join the others: the six grids must make one universe"),
}


class LayoutError(OptionsError):
    """A universe that breaks the set-up rules; ``rule`` names the rule, like a RuleError's.

    The reason is said at once in the process's language; ``words`` keeps it as a message
    (:func:`controller.i18n.message`) to say it again in another.
    """

    def __init__(self, rule: str, **args: Any) -> None:
        self.rule = rule
        self.words = i18n.message(LAYOUT_RULES[rule], **args)
        self.reason = i18n.said(self.words)
        super().__init__(f"{self.reason} (rule: {rule})")


def cell_index(label: str) -> int:
    """``"3.5"`` (grid 3, cell 5) to the cell's number, 26. ``ValueError`` if it names no cell."""
    try:
        grid, cell = (int(part) for part in str(label).split("."))
    except ValueError:
        raise ValueError(f"{label!r} is not a cell: cells are named grid.cell, like \"3.5\"") from None
    if not (1 <= grid <= GRIDS and 1 <= cell <= CELLS_PER_GRID):
        raise ValueError(f"{label!r} is not a cell: grids and cells are numbered 1 to 6")
    return CELLS_PER_GRID * (grid - 1) + cell - 1


def cell_label(index: int) -> str:
    """A cell's number to its name: 26 to ``"5.3"``."""
    return f"{index // CELLS_PER_GRID + 1}.{index % CELLS_PER_GRID + 1}"


def _local(number: int, turns: int) -> tuple[int, int]:
    """Where cell ``number`` (1..6) of a grid turned ``turns`` quarter turns lies in its box."""
    r, c = divmod(number - 1, 3)
    for _ in range(turns % 4):
        height = 2 if _ % 2 == 0 else 3
        r, c = c, height - 1 - r
    return r, c


@dataclasses.dataclass(frozen=True, eq=False)
class Universe:
    """A checked layout and the lookup tables the engine moves ships with.

    ``coords[i]`` is cell ``i``'s (row, column) on the lattice, from (0, 0) at the top-left of
    the bounding box; ``rays[i][d]`` the cells met going from ``i`` in direction ``d`` until the
    lattice ends; ``neighbours[i]`` the cells touching ``i`` by an edge or a corner;
    ``contacts[g]`` the grids (0-based) grid ``g`` touches by an edge.
    """

    placements: tuple[Placement, ...]
    height: int
    width: int
    coords: tuple[tuple[int, int], ...]
    at: dict[tuple[int, int], int]
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    contacts: tuple[tuple[int, ...], ...]

    _cache: ClassVar[dict[tuple[Placement, ...], Universe]] = {}

    @staticmethod
    def grid_of(index: int) -> int:
        """The 0-based grid of a cell."""
        return index // CELLS_PER_GRID

    @staticmethod
    def grid_cells(grid: int) -> range:
        """The cells of the 0-based ``grid``."""
        return range(grid * CELLS_PER_GRID, (grid + 1) * CELLS_PER_GRID)

    @staticmethod
    def label(index: int) -> str:
        return cell_label(index)

    def __deepcopy__(self, memo: dict) -> Universe:
        return self


def _placements(layout: Any) -> tuple[Placement, ...]:
    if isinstance(layout, str):
        if layout not in PRESETS:
            raise LayoutError("layout-name", name=repr(layout), presets=", ".join(sorted(PRESETS)))
        return PRESETS[layout]
    if not isinstance(layout, Sequence) or len(layout) != GRIDS:
        raise LayoutError("six-grids", layout=repr(layout))
    out = []
    for number, place in enumerate(layout, start=1):
        if (
            not isinstance(place, Sequence) or len(place) != 3
            or not all(type(v) is int for v in place) or not 0 <= place[2] <= 3
        ):
            raise LayoutError("grid-placement", grid=number, placement=repr(place))
        out.append((place[0], place[1], place[2]))
    return tuple(out)


def build_universe(layout: str | Sequence[Sequence[int]]) -> Universe:
    """The universe of a preset name or of six placements, checked against the contact rule.

    Raises :class:`LayoutError` (an ``OptionsError``, so a ``ValueError``) naming the broken rule:
    grids that overlap, a grid touching fewer than two others by an edge, or a universe in pieces.
    """
    placements = _placements(layout)
    cached = Universe._cache.get(placements)
    if cached is not None:
        return cached
    raw: dict[int, tuple[int, int]] = {}
    owner: dict[tuple[int, int], int] = {}
    for g, (row, col, turns) in enumerate(placements):
        for number in range(1, CELLS_PER_GRID + 1):
            r, c = _local(number, turns)
            spot = (row + r, col + c)
            if spot in owner:
                raise LayoutError("grids-overlap", first=owner[spot] + 1, second=g + 1, row=spot[0], column=spot[1])
            owner[spot] = g
            raw[g * CELLS_PER_GRID + number - 1] = spot
    contacts: list[set[int]] = [set() for _ in range(GRIDS)]
    for (r, c), g in owner.items():
        for dr, dc in ((0, 1), (1, 0)):
            other = owner.get((r + dr, c + dc))
            if other is not None and other != g:
                contacts[g].add(other)
                contacts[other].add(g)
    lonely = [g for g in range(GRIDS) if len(contacts[g]) < 2]
    if lonely:
        g = lonely[0]
        touching = [i18n.message(N_("grid {grid}"), grid=o + 1) for o in sorted(contacts[g])]
        raise LayoutError("grid-contact", grid=g + 1,
                          touching=i18n.listing(touching) if touching else i18n.message(N_("no other grid")))
    seen, todo = {0}, [0]
    while todo:
        for other in contacts[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    if len(seen) < GRIDS:
        raise LayoutError("one-universe", grids=i18n.listing([g + 1 for g in range(GRIDS) if g not in seen]))
    top = min(r for r, _ in owner)
    left = min(c for _, c in owner)
    coords = tuple((raw[i][0] - top, raw[i][1] - left) for i in range(CELLS))
    at = {spot: i for i, spot in enumerate(coords)}
    rays = []
    neighbours = []
    for r, c in coords:
        cell_rays = []
        for dr, dc in DIRECTIONS:
            ray = []
            rr, cc = r + dr, c + dc
            while (rr, cc) in at:
                ray.append(at[(rr, cc)])
                rr, cc = rr + dr, cc + dc
            cell_rays.append(tuple(ray))
        rays.append(tuple(cell_rays))
        neighbours.append(tuple(at[(r + dr, c + dc)] for dr, dc in DIRECTIONS if (r + dr, c + dc) in at))
    universe = Universe(
        placements=placements,
        height=max(r for r, _ in coords) + 1,
        width=max(c for _, c in coords) + 1,
        coords=coords,
        at=at,
        rays=tuple(rays),
        neighbours=tuple(neighbours),
        contacts=tuple(tuple(sorted(s)) for s in contacts),
    )
    Universe._cache[placements] = universe
    return universe
