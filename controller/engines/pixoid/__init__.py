"""Pixoid, the 8Bit Box game of a little energy cube fleeing the Bugs through a printed circuit.

    >>> from controller.engines.pixoid import PixoidGame, PixoidBot
    >>> game = PixoidGame(seed=1)
    >>> game.phase, game.current_players()
    ('placement', (0,))
"""

from __future__ import annotations

from controller.engines import register
from controller.engines.pixoid.actions import DIRECTIONS, ORTHOGONAL, Place, Program
from controller.engines.pixoid.board import (
    Board,
    BoardError,
    Tile,
    board_names,
    load_board,
    parse_board,
    parse_tile,
    shipped_tiles,
)
from controller.engines.pixoid.bots import PixoidBot
from controller.engines.pixoid.game import PixoidGame, PixoidOptions
from controller.engines.pixoid.render import render_ansi, render_text

register(PixoidGame)

__all__ = [
    "DIRECTIONS", "ORTHOGONAL", "Board", "BoardError", "PixoidBot", "PixoidGame", "PixoidOptions", "Place",
    "Program", "Tile", "board_names", "load_board", "parse_board", "parse_tile", "render_ansi", "render_text",
    "shipped_tiles",
]
