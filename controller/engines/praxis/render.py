"""Drawing a Praxis game as plain text: deterministic, for logs, golden files and a terminal demo.

The universe is drawn twice side by side: what each cell holds, and each cell's name (``35`` is
grid 3, cell 5, the ``"3.5"`` of actions and events). Grid borders are drawn with ``|``, ``--``
and ``+``; cells inside a grid are separated by spaces. In a cell:

* ``..`` empty;
* ``A3`` a ship of seat A (seat 0; B is seat 1...) showing face 3;
* ``()`` a portal;
* an artefact's code: ``+1 +2 +3 -1 -2 -3`` the face changers, ``??`` random mutation,
  ``Tq`` quantum torpedo, ``Mn`` mines, ``Sc`` scanner, ``Yd`` shipyard, ``Vi`` virus,
  ``Tp`` teleporter, ``Bk`` black star.

Hands are secret: the drawing gives their sizes only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engines.praxis.artefacts import CODES, VALUES
from controller.engines.praxis.steps import ROLL, ROLL_NAMES, SEAT_LETTERS, SHIP
from controller.engines.praxis.universe import CELLS_PER_GRID, cell_label

if TYPE_CHECKING:
    from controller.engines.praxis.game import PraxisGame



def cell_text(game: PraxisGame, cell: int) -> str:
    """The two characters drawn for ``cell``."""
    v = game.board[cell]
    if v >= SHIP:
        ship = v - SHIP
        return f"{SEAT_LETTERS[ship >> 1]}{game.ship_face[ship]}"
    return CODES[v]


def _frame(game: PraxisGame, text: dict[int, str]) -> list[str]:
    """The lattice drawn with ``text[cell]`` in each cell and the grids' borders."""
    universe = game.universe
    height, width = universe.height, universe.width
    grid_at: dict[tuple[int, int], int] = {}
    for cell, spot in enumerate(universe.coords):
        grid_at[spot] = cell // CELLS_PER_GRID

    def g(r: int, c: int) -> int | None:
        return grid_at.get((r, c))

    canvas = [[" "] * (3 * width + 1) for _ in range(2 * height + 1)]
    for (r, c), _grid in grid_at.items():
        label = text[universe.at[(r, c)]]
        canvas[2 * r + 1][3 * c + 1] = label[0]
        canvas[2 * r + 1][3 * c + 2] = label[1]
    for r in range(height):
        for c in range(width + 1):
            if g(r, c - 1) != g(r, c):
                canvas[2 * r + 1][3 * c] = "|"
    for r in range(height + 1):
        for c in range(width):
            if g(r - 1, c) != g(r, c):
                canvas[2 * r][3 * c + 1] = canvas[2 * r][3 * c + 2] = "-"
    for r in range(height + 1):
        for c in range(width + 1):
            row, col = 2 * r, 3 * c
            up = row > 0 and canvas[row - 1][col] == "|"
            down = row + 1 < len(canvas) and canvas[row + 1][col] == "|"
            left = col > 0 and canvas[row][col - 1] == "-"
            right = col + 1 < len(canvas[row]) and canvas[row][col + 1] == "-"
            if (up or down) and (left or right):
                canvas[row][col] = "+"
            elif up or down:
                canvas[row][col] = "|" if up and down else "+"
            elif left or right:
                canvas[row][col] = "-" if left and right else "+"
    return ["".join(line).rstrip() for line in canvas]


def board_lines(game: PraxisGame) -> list[str]:
    """The universe: contents on the left, cell names on the right."""
    contents = _frame(game, {c: cell_text(game, c) for c in range(len(game.board))})
    names = _frame(game, {c: cell_label(c).replace(".", "") for c in range(len(game.board))})
    width = max(len(line) for line in contents)
    return [f"  {left:<{width}}    {right}".rstrip() for left, right in zip(contents, names)]


def _collection(port: list[int]) -> str:
    if not port:
        return "nothing"
    counts: dict[int, int] = {}
    for k in port:
        counts[k] = counts.get(k, 0) + 1
    return " ".join(f"{CODES[k]}x{n}" if n > 1 else CODES[k] for k, n in sorted(counts.items()))


def _status(game: PraxisGame) -> str:
    if game.over:
        who = ", ".join(game.seat_label(w) for w in game.winners())
        return f"over - winners: {who}"
    step = game.queue[0]
    name = game.step
    if step[1] < 0:
        what = f"roll ({ROLL_NAMES[step[2]]})" if step[0] == ROLL else "draw the first player"
        return f"the table: {what}"
    return f"{game.seat_label(step[1])}: {name}"


def render_text(game: PraxisGame) -> str:
    """The whole game as plain text."""
    layout = game.options.layout if isinstance(game.options.layout, str) else "custom"
    lines = [f"Praxis ({game.players} players, {layout} universe) - turn {game.turn + 1} - {_status(game)}"]
    lines += board_lines(game)
    width = max(len(game.seat_label(s)) for s in range(game.players))
    for seat in range(game.players):
        ships = []
        for s in game.ships_of(seat):
            cell = game.ship_cell[s]
            ships.append(f"{cell_label(cell)}:{game.ship_face[s]}" if cell >= 0 else "port")
        first = "*" if game.first_player == seat else " "
        lines.append(
            f" {first}{SEAT_LETTERS[seat]} {game.seat_label(seat):<{width}} {game.points[seat]:>3} pts  "
            f"hand {len(game.hands[seat])}  ships {' '.join(ships):<11} collected {_collection(game.spaceports[seat])}"
        )
    portals = " ".join(cell_label(p) for p in game.portals) or "none"
    ending = {"points": "  last round (36 points)", "pile": "  last round (pile empty)"}.get(game.ending or "", "")
    lines.append(f"  pile {len(game.pile)}  discard {len(game.discard)}  portals {portals}{ending}")
    if game.sucked:
        lines.append("  sucked in: " + " ".join(CODES[k] for k in game.sucked)
                     + f" ({sum(VALUES[k] for k in game.sucked)} pts)")
    return "\n".join(lines) + "\n"
