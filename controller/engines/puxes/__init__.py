"""PuXes (DiXe): the rules engine. Importing the package registers the game as ``"puxes"``.

    >>> from controller.engines import new_game
    >>> game = new_game("puxes", seed=1)
    >>> game.waiting_for()
    'Red to set an oracle in the public garden'
"""

from controller.engines.puxes.actions import (
    Carry, ChooseFace, EndTurn, Move, Outcome, Place, PushBack, Reroll, Roll, Spit, UsePower, Wake,
)
from controller.engines.puxes.collection import Collection, Power, default_collection, parse_collection
from controller.engines.puxes.game import NAME, PuxesGame, PuxesOptions

__all__ = [
    "NAME", "Carry", "ChooseFace", "Collection", "EndTurn", "Move", "Outcome", "Place", "Power", "PushBack",
    "PuxesGame", "PuxesOptions", "Reroll", "Roll", "Spit", "UsePower", "Wake", "default_collection", "parse_collection",
]
