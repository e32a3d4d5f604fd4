"""MémoDiXe (DiXe): find pairs under the dice of a 3x3 square. Importing the package registers the
game as ``"memodixe"``.

    >>> from controller.engines import new_game
    >>> game = new_game("memodixe", seed=1)
    >>> game.current_players()      # the table reports the first of the nine setup rolls
    (-1,)
"""

from controller.engines import register
from controller.engines.memodixe.actions import (
    Announce, CallDixe, Centre, ChooseFace, EndGame, Flip, Give, Peek, Penalty, PlayOn, Race, Relaunch, Reroll,
    Roll, SetAside, Skip, Steal, Swap, Take, TimeUp, TurnOver, place_label,
)
from controller.engines.memodixe.bots import MemoryBot, SeededRoller
from controller.engines.memodixe.dice import POWERS, BookError, DiceBook, default_book, parse_book
from controller.engines.memodixe.game import CPS, ONI, MemodixeGame, MemodixeOptions

register(MemodixeGame)

__all__ = [
    "CPS", "ONI", "POWERS", "Announce", "BookError", "CallDixe", "Centre", "ChooseFace", "DiceBook", "EndGame",
    "Flip", "Give", "MemodixeGame", "MemodixeOptions", "MemoryBot", "Peek", "Penalty", "PlayOn", "Race",
    "Relaunch", "Reroll", "Roll", "SeededRoller", "SetAside", "Skip", "Steal", "Swap", "Take", "TimeUp",
    "TurnOver", "default_book", "parse_book", "place_label",
]
