"""The printed théâtre board as the camera knows it, and what one reading of it says.

The board is a mat layout (``hardware/mats/wuxing.toml``): 25 island zones named ``SQUARE-ELEMENT``
(``c3-wood``), squares named as the engine names them (columns a to e from the left, rows 5 to 1 from
the top edge, where seat 1 sits). :func:`board_of` reads that into a :class:`Board`; a
:class:`BoardReading` is what the camera saw on each of the 25 squares of one still frame: a white
pawn (seat 0, Yang), a black pawn (seat 1, Yin), the empty island, or an island turned over (covered
by a blank card), each with how sure the reader is.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from controller.engines.wuxing.elements import ELEMENT_NAMES
from controller.engines.wuxing.layout import SIZE, Square, check_square
from controller.vision.mat import MatLayout, MatLayoutError

#: What a square shows: an empty island, a pawn of seat 0 (white) or seat 1 (black), or no island.
EMPTY, WHITE, BLACK, FLIPPED = ".", "W", "B", "#"
#: The pawn marks by seat.
PAWN_MARKS = (WHITE, BLACK)

_ISLAND = re.compile(r"^([a-e])([1-5])-(" + "|".join(ELEMENT_NAMES) + r")$")


def square_index(name: str) -> int:
    """``"c3"`` as the engine's square index (row from the top times 5 plus column)."""
    return (SIZE - int(name[1])) * SIZE + "abcde".index(name[0])


def square_label(index: int) -> str:
    r, c = divmod(index, SIZE)
    return f"{'abcde'[c]}{SIZE - r}"


@dataclasses.dataclass(frozen=True)
class Cell:
    """One square of the printed board: its island's element and its rectangle on the mat (mm)."""

    index: int
    element: int
    x_mm: float
    y_mm: float
    size_mm: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.x_mm + self.size_mm / 2, self.y_mm + self.size_mm / 2


@dataclasses.dataclass(frozen=True)
class Board:
    """The 25 islands of a printed board, in the engine's square order."""

    layout: MatLayout
    cells: tuple[Cell, ...]

    @property
    def square(self) -> Square:
        """The islands as the engine's layout (rows from the top)."""
        return tuple(tuple(self.cells[r * SIZE + c].element for c in range(SIZE)) for r in range(SIZE))


def board_of(layout: MatLayout) -> Board:
    """The board a mat layout prints; :class:`MatLayoutError` when it is not a théâtre board."""
    found: dict[int, Cell] = {}
    for zone in layout.zones_of_kind("island"):
        match = _ISLAND.match(zone.name)
        if match is None or zone.shape != "rect":
            raise MatLayoutError(f"{layout.source or layout.name}: island zone {zone.name!r} must be a rect named "
                                 "SQUARE-ELEMENT, like c3-wood")
        x, y, w, h = zone.params["rect"]
        index = square_index(match.group(1) + match.group(2))
        if index in found:
            raise MatLayoutError(f"{layout.source or layout.name}: square {zone.name[:2]} has two islands")
        found[index] = Cell(index, ELEMENT_NAMES.index(match.group(3)), float(x), float(y), float(min(w, h)))
    if len(found) != SIZE * SIZE:
        raise MatLayoutError(f"{layout.source or layout.name}: a théâtre board has 25 island zones, this mat has "
                             f"{len(found)}; print the wuxing mat (bitbox mat --game wuxing)")
    board = Board(layout, tuple(found[i] for i in range(SIZE * SIZE)))
    try:
        check_square(board.square)
    except ValueError as exc:
        raise MatLayoutError(f"{layout.source or layout.name}: {exc}") from None
    return board


@dataclasses.dataclass(frozen=True)
class SquareReading:
    """What one square shows (:data:`EMPTY`, :data:`WHITE`, :data:`BLACK` or :data:`FLIPPED`) and how
    sure the reader is (0..1; under :data:`BoardReading.SURE` it asks the players)."""

    mark: str
    confidence: float = 1.0


@dataclasses.dataclass(frozen=True)
class BoardReading:
    """The board in one still frame. ``occluded``: something that is no pawn nor card (a hand, an arm)
    lies over the board, so nothing is read; ``islands``: the printed board's layout, so that the
    referee can check the game is played on it."""

    timestamp: float
    squares: tuple[SquareReading, ...]
    islands: Square
    occluded: bool = False
    still: bool = True

    #: A square read with less confidence than this is asked about.
    SURE = 0.5

    @property
    def marks(self) -> str:
        """The 25 squares' marks in the engine's order, e.g. ``"B B.. ..."`` without spaces."""
        return "".join(s.mark for s in self.squares)

    @property
    def unsure(self) -> list[int]:
        """The squares read with too little confidence to judge on."""
        return [i for i, s in enumerate(self.squares) if s.confidence < self.SURE]

    @property
    def confidence(self) -> float:
        return min((s.confidence for s in self.squares), default=0.0)

    def with_marks(self, marks: dict[int, str]) -> BoardReading:
        """The same reading with some squares' marks given (by the players), fully sure."""
        squares = tuple(SquareReading(marks[i], 1.0) if i in marks else s for i, s in enumerate(self.squares))
        return dataclasses.replace(self, squares=squares)

    def to_json(self) -> dict[str, Any]:
        return {"timestamp": self.timestamp, "occluded": self.occluded, "still": self.still,
                "marks": self.marks, "confidence": [round(s.confidence, 3) for s in self.squares]}
