"""Where the islands lie: the theatre's 5x5 square and the path's line of five.

Le théâtre du duel: "un plateau de 5 colonnes de 5 lignes ... en ayant une même île une seule fois
dans chaque ligne et dans chaque colonne": a Latin square of the five elements. It is drawn from the
game's seeded generator, or given as an option, written row by row from the top (seat 1's side),
rows separated by ``/`` and cells by spaces, each cell an element's name or two-letter code::

    Wo Fi Ea Me Wa / Fi Ea Me Wa Wo / Ea Me Wa Wo Fi / Me Wa Wo Fi Ea / Wa Wo Fi Ea Me

The word ``printed`` names the islands of the board ``bitbox mat --game wuxing`` prints for the table
camera (:data:`PRINTED_SQUARE`, the same as ``hardware/mats/wuxing.toml`` draws them).

Le chemin du duel: "une seule île de chaque élément pour faire un chemin de 5 îles", from seat 0's
end to seat 1's, drawn from the generator or given as five elements (``"wood fire earth metal water"``).

    >>> import random
    >>> square = random_square(random.Random(1))
    >>> parse_square(format_square(square)) == square
    True
"""

from __future__ import annotations

import random
import re

from controller.engines.core import OptionsError
from controller.engines.wuxing.elements import CODES, ELEMENT_NAMES, ELEMENTS, element

SIZE = 5

Square = tuple[tuple[int, ...], ...]


#: The layout option's name for the printed board's islands.
PRINTED = "printed"
#: The islands the printed board shows (hardware/mats/wuxing.toml), rows from the top (seat 1's side).
PRINTED_TEXT = "Wo Me Ea Wa Fi / Wa Ea Fi Me Wo / Ea Wo Wa Fi Me / Fi Wa Me Wo Ea / Me Fi Wo Ea Wa"


class LayoutError(OptionsError):
    """A theatre layout or a path that the rules do not allow; the message says where."""


def random_square(rng: random.Random) -> Square:
    """A Latin square of the five elements, drawn by filling the cells in reading order with a
    shuffled choice of the elements still allowed, backtracking when a cell has none."""
    grid = [[-1] * SIZE for _ in range(SIZE)]

    def fill(cell: int) -> bool:
        if cell == SIZE * SIZE:
            return True
        r, c = divmod(cell, SIZE)
        used = set(grid[r][:c]) | {grid[i][c] for i in range(r)}
        choices = [e for e in ELEMENTS if e not in used]
        rng.shuffle(choices)
        for e in choices:
            grid[r][c] = e
            if fill(cell + 1):
                return True
        grid[r][c] = -1
        return False

    fill(0)
    return tuple(tuple(row) for row in grid)


def check_square(square: Square) -> None:
    """Raise :class:`LayoutError` unless each island is once in each row and each column."""
    if len(square) != SIZE or any(len(row) != SIZE for row in square):
        raise LayoutError(f"the theatre is {SIZE} rows of {SIZE} islands, not {[len(row) for row in square]}")
    for r, row in enumerate(square):
        _once(row, f"row {r + 1} from the top")
    for c in range(SIZE):
        _once(tuple(square[r][c] for r in range(SIZE)), f"column {'abcde'[c]}")


def _once(cells: tuple[int, ...], where: str) -> None:
    seen: set[int] = set()
    for e in cells:
        if e in seen:
            raw = " ".join(CODES[x] for x in cells)
            raise LayoutError(f"{where} ({raw}) has {ELEMENT_NAMES[e]} twice: "
                              "each island must be once in each row and each column (une même île une seule fois "
                              "dans chaque ligne et dans chaque colonne)")
        seen.add(e)


def parse_square(text: str) -> Square:
    """A layout option's text as a checked square (:class:`LayoutError` saying what is wrong)."""
    if not isinstance(text, str):
        raise LayoutError(f"a theatre layout is text, rows separated by '/', not {text!r}")
    if text.strip().lower() == PRINTED:
        text = PRINTED_TEXT
    rows = [row for row in re.split(r"[/\n;]", text) if row.strip()]
    square = []
    for r, row in enumerate(rows):
        try:
            square.append(tuple(element(cell) for cell in re.split(r"[\s,]+", row.strip())))
        except ValueError as exc:
            raise LayoutError(f"row {r + 1} of the layout: {exc}") from None
    result = tuple(square)
    check_square(result)
    return result


PRINTED_SQUARE: Square = parse_square(PRINTED_TEXT)


def format_square(square: Square) -> str:
    """The square as a layout option's text (what :func:`parse_square` reads back)."""
    return " / ".join(" ".join(CODES[e] for e in row) for row in square)


def random_path(rng: random.Random) -> tuple[int, ...]:
    """The five elements in a shuffled order, seat 0's end first."""
    path = list(ELEMENTS)
    rng.shuffle(path)
    return tuple(path)


def parse_path(text: str) -> tuple[int, ...]:
    """A path option's text (five elements, seat 0's end first) as elements, each exactly once."""
    if not isinstance(text, str):
        raise LayoutError(f"a path is text naming the five elements, not {text!r}")
    try:
        path = tuple(element(cell) for cell in re.split(r"[\s,/]+", text.strip()) if cell)
    except ValueError as exc:
        raise LayoutError(f"the path: {exc}") from None
    if sorted(path) != list(ELEMENTS):
        raise LayoutError(f"the path has one island of each element (une seule île de chaque élément), "
                          f"not {' '.join(ELEMENT_NAMES[e] for e in path)!r}")
    return path


def format_path(path: tuple[int, ...]) -> str:
    return " ".join(ELEMENT_NAMES[e] for e in path)
