"""Drawing a Pixoid game as text: plain (deterministic, for logs and golden files) or with ANSI
colours for a terminal.

On the board, a piece shows as its number (0 to 3), several pieces on one Pix as ``&`` (listed under
the board with their roles); ``*`` is a bonus cube still in place, ``o`` a free start Pix, ``.`` any
other Pix. Columns are lettered from ``a`` and rows numbered from 1, the way events name Pix ("c4").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.engines.pixoid.game import PixoidGame

#: ANSI colours of pieces 0 to 3 on a terminal (red, blue, green, yellow).
PIECE_ANSI = ("\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[33m")
RESET = "\x1b[0m"
BOLD_REVERSE = "\x1b[1;7m"
DIM = "\x1b[2m"
BONUS_ANSI = "\x1b[1;33m"
START_ANSI = "\x1b[31m"


def _cells(game: PixoidGame) -> dict[int, str]:
    """The character to draw on each Pix that is not plain."""
    board = game.board
    cells: dict[int, str] = {}
    for index in board.bonuses:
        cells[index] = "."
    for index in game.bonus_cubes:
        cells[index] = "*"
    for p in range(len(game.pos)):
        at = game.pos[p]
        if at < 0:
            continue
        cells[at] = "&" if cells.get(at, ".").isdigit() else str(p)
    return cells


def _grid_lines(game: PixoidGame, paint: bool) -> list[str]:
    board = game.board
    cells = _cells(game)
    lines = ["    " + " ".join(chr(ord("a") + c) for c in range(board.width))]
    for r, row in enumerate(board.rows):
        out = []
        for c, char in enumerate(row):
            if r % 2 and c % 2:
                index = (r // 2) * board.width + c // 2
                char = cells.get(index, char)
                if paint:
                    char = _paint(game, index, char)
            elif paint and char in "+-|":
                char = DIM + char + RESET
            out.append(char)
        prefix = f"{r // 2 + 1:>2} " if r % 2 else "   "
        lines.append(prefix + "".join(out))
    return lines


def _paint(game: PixoidGame, index: int, char: str) -> str:
    if char.isdigit():
        piece = int(char)
        style = BOLD_REVERSE if piece == game.pixoid_piece else ""
        return style + PIECE_ANSI[piece] + char + RESET
    if char == "&":
        return "\x1b[1m&" + RESET
    if char == "*":
        return BONUS_ANSI + "*" + RESET
    if char == "o":
        return START_ANSI + "o" + RESET
    return char


def _legend(game: PixoidGame) -> list[str]:
    board = game.board
    rounds = 1 if game.short_game else game.players
    title = "short game" if game.short_game else f"{game.players} players"
    lines = [
        f"Pixoid ({title}) - round {game.round_index + 1} of {rounds}, turn {game.turn_in_round + 1} - {game.phase}"
    ]
    width = max(len(game.seat_label(s)) for s in range(game.players))
    for p in range(len(game.pos)):
        at = game.pos[p]
        where = board.label(at) if at >= 0 else "not placed"
        lines.append(f"  piece {p}: {game.role(p):<6} {game.seat_label(game.controller_owner(p)):<{width}}  {where}")
    stacks = {}
    for p, at in enumerate(game.pos):
        if at >= 0:
            stacks.setdefault(at, []).append(p)
    for at, pieces in sorted(stacks.items()):
        if len(pieces) > 1:
            lines.append(f"  & on {board.label(at)}: {', '.join(f'{game.role(p)} {p}' for p in pieces)}")
    lines.append(
        f"  reserve: {game.reserve}/12   Pixoid has {game.reserve_taken} reserve + {game.bonus_taken} bonus cubes"
    )
    if game.phase == "programming":
        status = ", ".join(
            f"{game.seat_label(s)} {'waiting' if s in game.current_players() else 'locked'}" for s in range(game.players)
        )
        lines.append(f"  programs: {status}")
    elif game.phase == "placement":
        lines.append(f"  placing: piece {game.place_queue[0]} ({game.seat_label(game.current_players()[0])})")
    if game.seat_names:
        scores = ", ".join(f"{game.seat_label(s)} {v:g}" for s, v in enumerate(game.scores()))
    else:
        scores = " ".join(f"{v:g}" for v in game.scores())
    lines.append(f"  scores: {scores}")
    if game.is_over():
        lines.append(f"  winners: {', '.join(game.seat_label(w) for w in game.winners())}")
    return lines


def render_text(game: PixoidGame) -> str:
    """The board and the game's state as plain text."""
    return "\n".join(_legend(game)[:1] + _grid_lines(game, False) + _legend(game)[1:]) + "\n"


def render_ansi(game: PixoidGame) -> str:
    """The same picture with terminal colours: each piece in its colour, Pixoid highlighted."""
    return "\n".join(_legend(game)[:1] + _grid_lines(game, True) + _legend(game)[1:]) + "\n"
