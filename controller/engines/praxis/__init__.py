"""Praxis (Lucas Borboleta): ships that are d6 dice travel a universe of six space grids, put
artefacts, activate them by landing on them, and send artefacts through portals to their spaceport.

    >>> from controller.engines.praxis import PraxisGame
    >>> game = PraxisGame({"players": 2, "layout": "ring"}, seed=1)
    >>> game.step, game.current_players()
    ('roll', (-1,))
"""

from __future__ import annotations

from controller.engines import register
from controller.engines.praxis.actions import (
    Build,
    Discard,
    FirstPlayer,
    Keep,
    Move,
    Pass,
    PortalGrid,
    Put,
    Roll,
    TakeOff,
    Teleport,
    Torpedo,
)
from controller.engines.praxis.artefacts import ARTEFACTS, KIND
from controller.engines.praxis.bots import GreedyBot, PraxisRandomBot, SearchBot
from controller.engines.praxis.game import PraxisGame, PraxisOptions
from controller.engines.praxis.render import render_text
from controller.engines.praxis.universe import PRESETS, LayoutError, build_universe, cell_index, cell_label

register(PraxisGame)

__all__ = [
    "ARTEFACTS", "KIND", "PRESETS", "Build", "Discard", "FirstPlayer", "GreedyBot", "Keep", "LayoutError", "Move",
    "Pass", "PortalGrid", "PraxisGame", "PraxisOptions", "PraxisRandomBot", "Put", "Roll", "SearchBot", "TakeOff",
    "Teleport", "Torpedo", "build_universe", "cell_index", "cell_label", "render_text",
]
