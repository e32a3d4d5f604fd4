"""Wuxing duel (Alexis Suard): the five elements, Yin and Yang, two players, two modes.

    >>> from controller.engines.wuxing import WuxingGame, Play
    >>> game = WuxingGame({"mode": "chemin", "no_discard": True, "path": "wood fire earth metal water"})
    >>> _ = game.apply(0, Play(0)); _ = game.apply(1, Play(2))   # Wood dominates Earth
    >>> game.rules.pos, game.rules.tokens[0]
    ([1, 4], [1, 0])
"""

from __future__ import annotations

from controller.engines import register
from controller.engines.wuxing.actions import DIAGONALS, ORTHOGONAL, PAWN_LETTERS, Discard, Flip, Move, Play, Stay
from controller.engines.wuxing.bots import ChemBot, GreedyBot, TheatreBot, WuxingBot, equilibrium
from controller.engines.wuxing.elements import (
    ARROW,
    BLUE,
    DOMINATES,
    ELEMENT_NAMES,
    ELEMENTS,
    ENGENDERS,
    RED,
    beats,
    element,
    link,
)
from controller.engines.wuxing.errors import WuxingRuleError
from controller.engines.wuxing.game import WuxingGame, WuxingOptions
from controller.engines.wuxing.layout import LayoutError
from controller.engines.wuxing.matrix import solve_matrix_game

register(WuxingGame)

__all__ = [
    "ARROW", "BLUE", "DIAGONALS", "DOMINATES", "ELEMENTS", "ELEMENT_NAMES", "ENGENDERS", "ORTHOGONAL",
    "PAWN_LETTERS", "RED", "ChemBot", "Discard", "Flip", "GreedyBot", "LayoutError", "Move", "Play", "Stay",
    "TheatreBot", "WuxingBot", "WuxingGame", "WuxingOptions", "WuxingRuleError", "beats", "element",
    "equilibrium", "link", "solve_matrix_game",
]
