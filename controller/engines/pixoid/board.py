"""The Pixoid board: Pix, walls, start Pix and bonus Pix, read from plain text.

A board is drawn as a grid of characters, one character cell per Pix and one between each pair of
neighbouring Pix for the wall (or the gap) that separates them::

    +-+-+-+
    |o . .|        o  a start Pix (red on the cardboard)
    + +-+ +        *  a bonus Pix (a neutral bonus cube is put there each round)
    |. *|.|        .  any other Pix
    +-+-+-+        |  and  -  walls;  a space is no wall;  +  at every corner

Four "Circuit imprimé" tiles, each double-sided, make the board: a tile face is such a grid of
6 x 6 Pix, and a board file names the four faces and how each is turned. An assembled board can
also be written as one whole grid. ``docs/pixoid-boards.md`` describes both formats for owners who
transcribe their own tiles. Every error names the file, line and column it found.

The :class:`Board` precomputes, for every Pix and direction, the Pix a piece slides over until a
wall stops it, so moving a piece during play is a tuple slice.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import deque
from collections.abc import Mapping, Sequence
from importlib import resources

#: The four directions a piece may move, in the order used throughout the engine.
UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
#: Row and column steps of each direction.
STEPS: tuple[tuple[int, int], ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
#: The farthest a piece may be programmed to move (the number wheel's highest digit).
MAX_DISTANCE = 9

#: Marks of a Pix in the text format.
PLAIN, START, BONUS = ".", "o", "*"
PIX_MARKS = {PLAIN: "Pix", START: "start Pix", BONUS: "bonus Pix"}
#: Tile size of the shipped tiles and of every board assembled from four tiles (Pix per side).
TILE_SIZE = 6
#: Number of bonus Pix a board must have ("chacun des 4 Pix de cube Bonus").
BONUS_PIX = 4
#: Number of start Pix a board needs at least (one per piece).
MIN_START_PIX = 4
#: Where each of the four tiles goes in the 2x2 square, as (tile row, tile column).
POSITIONS: dict[str, tuple[int, int]] = {
    "top-left": (0, 0),
    "top-right": (0, 1),
    "bottom-left": (1, 0),
    "bottom-right": (1, 1),
}
ROTATIONS = (0, 90, 180, 270)

Pix = tuple[int, int]


class BoardError(ValueError):
    """A board or tile text that cannot be read, with where: ``path``, ``line`` and ``column``
    (both counted from 1; ``column`` is 0 when the whole line is at fault)."""

    def __init__(self, message: str, path: str = "<board>", line: int = 0, column: int = 0) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        where = path
        if line:
            where += f":{line}"
            if column:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


# --------------------------------------------------------------------------------------------
# The grid of characters
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Grid:
    """A checked character grid: ``rows`` of equal width, with where each row came from.

    ``origins[i]`` is the (line, first column) of row ``i`` in its file, for error messages.
    """

    rows: tuple[str, ...]
    path: str
    origins: tuple[tuple[int, int], ...]

    @property
    def pix_height(self) -> int:
        return len(self.rows) // 2

    @property
    def pix_width(self) -> int:
        return len(self.rows[0]) // 2

    def where(self, row: int, col: int) -> tuple[int, int]:
        line, first = self.origins[row] if row < len(self.origins) else (0, 1)
        return line, first + col

    def error(self, message: str, row: int, col: int) -> BoardError:
        line, column = self.where(row, col)
        return BoardError(message, self.path, line, column)


def _grid_lines(text: str, path: str) -> list[tuple[int, str]]:
    """The lines of a drawn grid, numbered, without comments and surrounding blank lines."""
    numbered = []
    started = False
    blank_after: tuple[int, str] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.lstrip().startswith("#"):
            continue
        if not line:
            if started and blank_after is None:
                blank_after = (number, raw)
            continue
        if blank_after is not None:
            raise BoardError(
                "blank line inside the grid; every line of a grid is either a row of Pix or a row of "
                "walls between them",
                path, blank_after[0], 0,
            )
        started = True
        numbered.append((number, line))
    if not numbered:
        raise BoardError("no grid found: the text is empty or only comments", path, 1, 0)
    return numbered


def read_grid(text: str, path: str = "<board>") -> Grid:
    """Check the drawing characters of a grid (not yet what they mean for play)."""
    numbered = _grid_lines(text, path)
    first_line, first = numbered[0]
    width = len(first)
    if width < 5 or width % 2 == 0:
        raise BoardError(
            f"the first grid line is {width} characters wide; a grid is 2 characters per Pix plus 1 "
            "(for example 13 for 6 Pix: '+-+-+-+-+-+-+')",
            path, first_line, width + 1 if width else 0,
        )
    if len(numbered) < 5 or len(numbered) % 2 == 0:
        line = numbered[-1][0]
        raise BoardError(
            f"the grid has {len(numbered)} lines; it needs 2 lines per row of Pix plus 1 "
            "(a wall line above, between and below the rows of Pix)",
            path, line, 0,
        )
    rows = []
    for index, (number, line) in enumerate(numbered):
        if len(line) > width:
            raise BoardError(
                f"this line is {len(line)} characters long but the grid's first line is {width}; "
                "every line of a grid has the same width",
                path, number, width + 1,
            )
        line = line.ljust(width)
        for col, char in enumerate(line):
            _check_char(char, index, col, path, number, len(numbered), width)
        rows.append(line)
    return Grid(tuple(rows), path, tuple((number, 1) for number, _ in numbered))


def _check_char(char: str, row: int, col: int, path: str, line: int, height: int, width: int) -> None:
    odd_row, odd_col = row % 2 == 1, col % 2 == 1
    if not odd_row and not odd_col:
        if char != "+":
            raise BoardError(f"found {char!r} where a corner belongs; every corner is drawn '+'", path, line, col + 1)
    elif odd_row and odd_col:
        if char not in PIX_MARKS:
            raise BoardError(
                f"found {char!r} where a Pix belongs; a Pix is '.' (plain), 'o' (start) or '*' (bonus)",
                path, line, col + 1,
            )
    elif odd_row:
        if char not in "| ":
            raise BoardError(
                f"found {char!r} between two Pix of a row; put '|' for a wall or a space for none",
                path, line, col + 1,
            )
    elif char not in "- ":
        raise BoardError(
            f"found {char!r} between two Pix of a column; put '-' for a wall or a space for none",
            path, line, col + 1,
        )


def rotate_rows(rows: Sequence[str], degrees: int) -> tuple[str, ...]:
    """A square grid turned clockwise by ``degrees`` (0, 90, 180 or 270); walls turn with it."""
    swap = str.maketrans("|-", "-|")
    out = list(rows)
    for _ in range((degrees // 90) % 4):
        size = len(out)
        out = ["".join(out[size - 1 - c][r] for c in range(size)).translate(swap) for r in range(size)]
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Tiles
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Tile:
    """One face of a "Circuit imprimé" tile: a square grid whose border walls may have gaps
    where it meets a neighbouring tile."""

    name: str
    rows: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.rows) // 2


def parse_tile(text: str, path: str = "<tile>", name: str = "") -> Tile:
    """A tile face from its drawn grid; it must be square (tiles turn in the 2x2 square)."""
    grid = read_grid(text, path)
    if grid.pix_width != grid.pix_height:
        raise BoardError(
            f"a tile is square, but this one is {grid.pix_width} Pix wide and {grid.pix_height} Pix high",
            path, grid.origins[-1][0], 0,
        )
    return Tile(name or path, grid.rows)


def tile_name(text: str) -> str | None:
    """The canonical tile face name ('1A') of a written one ('1a', '1A'), or None if malformed."""
    name = text.strip().upper()
    if len(name) >= 2 and name[:-1].isdigit() and name[-1] in "AB":
        return name
    return None


@functools.lru_cache(maxsize=1)
def shipped_tiles() -> dict[str, Tile]:
    """The eight original tile faces shipped with the engine (tiles 1 to 4, sides A and B)."""
    folder = resources.files("controller.engines.pixoid").joinpath("data", "tiles")
    tiles = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".txt"):
            name = entry.name[:-4].upper()
            tiles[name] = parse_tile(entry.read_text(encoding="utf-8"), f"tiles/{entry.name}", name)
    return tiles


def assemble(placed: Mapping[str, tuple[Tile, int]]) -> tuple[str, ...]:
    """The rows of the whole grid from four tiles keyed by position, each with its rotation.

    A tile edge that meets a neighbour is a wall if either tile draws a wall there; the board's
    outer edge is always a wall.
    """
    size = next(iter(placed.values()))[0].size
    span = 2 * size
    total = 2 * span + 1
    cells = [[" "] * total for _ in range(total)]
    for position, (tile, rotation) in placed.items():
        tile_row, tile_col = POSITIONS[position]
        rows = rotate_rows(tile.rows, rotation)
        for r, line in enumerate(rows):
            for c, char in enumerate(line):
                target_r, target_c = tile_row * span + r, tile_col * span + c
                if cells[target_r][target_c] in "|-+":
                    continue
                cells[target_r][target_c] = char
    for i in range(total):
        for r, c in ((0, i), (total - 1, i), (i, 0), (i, total - 1)):
            if r % 2 == 0 and c % 2 == 0:
                cells[r][c] = "+"
            elif r in (0, total - 1):
                cells[r][c] = "-"
            else:
                cells[r][c] = "|"
    return tuple("".join(line) for line in cells)


# --------------------------------------------------------------------------------------------
# The board
# --------------------------------------------------------------------------------------------


class Board:
    """An assembled board, ready for play. Immutable; shared freely between games and clones.

    Pix are addressed by ``(row, column)`` from the top-left, and internally by the index
    ``row * width + column``. ``slides[index][direction]`` is the tuple of Pix indices a piece
    passes over when it moves as far as it can (at most 9 Pix) in that direction.
    """

    def __init__(self, rows: Sequence[str], name: str = "") -> None:
        self.rows: tuple[str, ...] = tuple(rows)
        self.name = name
        self.height = len(self.rows) // 2
        self.width = len(self.rows[0]) // 2
        self.size = self.width * self.height
        marks = []
        opens = []
        for index in range(self.size):
            r, c = divmod(index, self.width)
            gr, gc = 2 * r + 1, 2 * c + 1
            marks.append(self.rows[gr][gc])
            opens.append(tuple(self.rows[gr + dr][gc + dc] == " " for dr, dc in STEPS))
        self.marks: tuple[str, ...] = tuple(marks)
        #: ``opens[index][direction]``: True when no wall stands on that side of the Pix.
        self.opens: tuple[tuple[bool, ...], ...] = tuple(opens)
        self.starts: tuple[int, ...] = tuple(i for i, m in enumerate(marks) if m == START)
        self.bonuses: tuple[int, ...] = tuple(i for i, m in enumerate(marks) if m == BONUS)
        self.slides: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(self._slide(index, d) for d in range(4)) for index in range(self.size)
        )
        self._distances: tuple[tuple[int, ...], ...] | None = None

    def _slide(self, index: int, direction: int) -> tuple[int, ...]:
        path = []
        step = (-self.width, 1, self.width, -1)[direction]
        while len(path) < MAX_DISTANCE and self.opens[index][direction]:
            index += step
            path.append(index)
        return tuple(path)

    # ---- addressing ----

    def pix(self, index: int) -> Pix:
        """The ``(row, column)`` of a Pix index."""
        return divmod(index, self.width)

    def index(self, pix: Pix) -> int:
        """The index of a ``(row, column)`` Pix; ``ValueError`` when off the board."""
        r, c = pix
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise ValueError(f"Pix {tuple(pix)} is off the {self.width}x{self.height} board")
        return r * self.width + c

    def label(self, index: int) -> str:
        """A Pix as people read it: column letter and row number from the top-left ('c4')."""
        r, c = divmod(index, self.width)
        return f"{chr(ord('a') + c)}{r + 1}"

    # ---- distances, for bots ----

    @property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """Steps between every two Pix, walking Pix to Pix around the walls (computed once)."""
        if self._distances is None:
            self._distances = tuple(self._bfs(i) for i in range(self.size))
        return self._distances

    def _bfs(self, origin: int) -> tuple[int, ...]:
        far = self.size * 4
        dist = [far] * self.size
        dist[origin] = 0
        queue = deque([origin])
        while queue:
            i = queue.popleft()
            for d in range(4):
                if self.opens[i][d]:
                    j = self.slides[i][d][0]
                    if dist[j] == far:
                        dist[j] = dist[i] + 1
                        queue.append(j)
        return tuple(dist)

    # ---- text ----

    @property
    def text(self) -> str:
        """The whole board as one drawn grid (the format :func:`parse_board` reads back)."""
        head = f"# {self.name}\n" if self.name else ""
        return head + "\n".join(self.rows) + "\n"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.rows == self.rows

    def __hash__(self) -> int:
        return hash(self.rows)

    def __deepcopy__(self, memo: dict) -> Board:
        return self

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {self.width}x{self.height})"


def _check_board(grid: Grid) -> None:
    """Play-level checks of an assembled grid: walled edge, bonus and start Pix, reachability."""
    rows = grid.rows
    height, width = len(rows), len(rows[0])
    for c in range(1, width, 2):
        for r in (0, height - 1):
            if rows[r][c] != "-":
                raise grid.error("the board's outer edge is a wall: draw '-' here", r, c)
    for r in range(1, height, 2):
        for c in (0, width - 1):
            if rows[r][c] != "|":
                raise grid.error("the board's outer edge is a wall: draw '|' here", r, c)
    board = Board(rows)
    if len(board.bonuses) != BONUS_PIX:
        at = board.bonuses[BONUS_PIX] if len(board.bonuses) > BONUS_PIX else None
        r, c = (2 * (at // board.width) + 1, 2 * (at % board.width) + 1) if at is not None else (height - 1, 0)
        raise grid.error(
            f"the board has {len(board.bonuses)} bonus Pix ('*'); it needs exactly {BONUS_PIX}, "
            "one for each neutral bonus cube",
            r, c,
        )
    if len(board.starts) < MIN_START_PIX:
        raise grid.error(
            f"the board has {len(board.starts)} start Pix ('o'); it needs at least {MIN_START_PIX}, "
            "one for each player's cube",
            height - 1, 0,
        )
    for index, opens in enumerate(board.opens):
        if not any(opens):
            r, c = divmod(index, board.width)
            raise grid.error(
                "this Pix is walled in on all four sides; no piece could ever move from it", 2 * r + 1, 2 * c + 1
            )
    reach = board._bfs(board.starts[0])
    for index, steps in enumerate(reach):
        if steps >= board.size * 4:
            r, c = divmod(index, board.width)
            raise grid.error(
                f"this Pix cannot be reached from the start Pix {board.label(board.starts[0])}; "
                "open a wall so that every Pix is connected",
                2 * r + 1, 2 * c + 1,
            )


def _parse_layout(text: str, path: str, tiles: Mapping[str, Tile]) -> tuple[str, ...]:
    """The four ``position tile rotation`` lines of a board file, assembled into grid rows."""
    placed: dict[str, tuple[Tile, int]] = {}
    lines_of: dict[str, int] = {}
    used: dict[str, int] = {}
    last_line = 1
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        last_line = number
        if not stripped or stripped.startswith("#"):
            continue
        words = stripped.split()
        column = lambda k: raw.index(words[k]) + 1  # noqa: E731
        if len(words) != 3:
            raise BoardError(
                "a board line is 'position tile rotation', for example 'top-left 1A 90' "
                f"(found {len(words)} word{'s' if len(words) != 1 else ''})",
                path, number, 1 + len(raw) - len(raw.lstrip()),
            )
        position, written_tile, written_rotation = words
        if position.lower() not in POSITIONS:
            raise BoardError(
                f"unknown position {position!r}; use one of {', '.join(POSITIONS)}", path, number, column(0)
            )
        position = position.lower()
        if position in placed:
            raise BoardError(
                f"{position} is given twice (first on line {lines_of[position]})", path, number, column(0)
            )
        name = tile_name(written_tile)
        if name is None or name not in tiles:
            known = ", ".join(sorted(tiles)) or "none"
            raise BoardError(f"unknown tile face {written_tile!r}; known faces: {known}", path, number, column(1))
        number_part = name[:-1]
        if number_part in used:
            raise BoardError(
                f"tile {number_part} is already placed on line {used[number_part]}; each tile is one piece "
                "of cardboard with two sides, so only one of its faces can be on the board",
                path, number, column(1),
            )
        try:
            rotation = int(written_rotation)
        except ValueError:
            rotation = -1
        if rotation not in ROTATIONS:
            raise BoardError(
                f"rotation {written_rotation!r} is not one of 0, 90, 180, 270 (degrees clockwise)",
                path, number, column(2),
            )
        tile = tiles[name]
        first = next(iter(placed.values()))[0] if placed else None
        if first is not None and first.size != tile.size:
            raise BoardError(
                f"tile {name} is {tile.size}x{tile.size} Pix but tile {first.name} is {first.size}x{first.size}; "
                "the four tiles must be the same size",
                path, number, column(1),
            )
        placed[position] = (tile, rotation)
        lines_of[position] = number
        used[number_part] = number
    missing = [p for p in POSITIONS if p not in placed]
    if missing:
        raise BoardError(
            f"the board names no tile for {', '.join(missing)}; a board is four tiles in a 2x2 square",
            path, last_line + 1 if text.endswith("\n") else last_line, 0,
        )
    return assemble({p: placed[p] for p in POSITIONS})


def _is_grid(text: str) -> bool:
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.startswith("+")
    return False


def parse_board(
    text: str, path: str = "<board>", name: str = "", tiles: Mapping[str, Tile | str] | None = None
) -> Board:
    """A board from its text: either four ``position tile rotation`` lines, or one drawn grid.

    ``tiles`` maps face names ('1A') to tiles (or their text) for the first form; the shipped
    faces by default. Raises :class:`BoardError` with file, line and column.
    """
    if not isinstance(text, str):
        raise BoardError(f"a board is text, not {type(text).__name__}", path)
    if not any(line.strip() and not line.strip().startswith("#") for line in text.splitlines()):
        raise BoardError(
            "no board found: the text is empty or only comments; write four 'position tile rotation' "
            "lines or draw the whole grid",
            path, 1, 0,
        )
    if _is_grid(text):
        grid = read_grid(text, path)
        _check_board(grid)
        return Board(grid.rows, name or _comment_name(text))
    faces: dict[str, Tile] = {}
    for key, value in (shipped_tiles() if tiles is None else tiles).items():
        face = tile_name(key) or key
        faces[face] = value if isinstance(value, Tile) else parse_tile(value, f"tiles/{face}.txt", face)
    rows = _parse_layout(text, path, faces)
    assembled = Grid(rows, path, tuple((0, 1) for _ in rows))
    try:
        _check_board(assembled)
    except BoardError as exc:
        raise BoardError(f"the assembled board is not playable: {exc.message}", path, 0, 0) from None
    return Board(rows, name)


def _comment_name(text: str) -> str:
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("#"):
            return stripped.lstrip("#").strip()
        if stripped:
            return ""
    return ""


@functools.lru_cache(maxsize=32)
def board_from_text(text: str) -> Board:
    """A board from its drawn grid text, parsed once per distinct text (options carry this text)."""
    return parse_board(text, "<options>")


def board_names() -> list[str]:
    """The shipped boards' names."""
    folder = resources.files("controller.engines.pixoid").joinpath("data", "boards")
    return sorted(e.name[:-4] for e in folder.iterdir() if e.name.endswith(".txt"))


@functools.lru_cache(maxsize=16)
def load_board(name: str) -> Board:
    """A shipped board by name ('classic'); ``BoardError`` listing the names when unknown."""
    if name not in board_names():
        raise BoardError(f"no shipped board named {name!r}; shipped boards: {', '.join(board_names())}", name)
    entry = resources.files("controller.engines.pixoid").joinpath("data", "boards", f"{name}.txt")
    return parse_board(entry.read_text(encoding="utf-8"), f"boards/{name}.txt", name)
