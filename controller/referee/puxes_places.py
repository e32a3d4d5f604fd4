"""Which die a question is about and where it lies, in the players' words.

A referee's question points at one die; players find it by what they see, not by engine numbers
or millimetres. :func:`die_words` names the die by the character its die carries and its owner:
"the Hanuman die of Ada (red)". :func:`where` names the spot: "in the public garden of Ada (red)",
"near the temple of Brice (blue)", "beside the mat, on the side of Ada (red)", "in the middle of the
mat".
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from controller.engines.puxes import PuxesGame, words
from controller.i18n import N_, message

#: Within this distance (mm) of a temple's centre, a die is said to be near that temple.
NEAR_TEMPLE_MM = 220.0
#: Within this share of the area's length on either side of its middle, a die is in the middle.
MIDDLE_SHARE = 0.12


def die_words(game: PuxesGame, die_id: int) -> Mapping[str, Any]:
    """Engine die ``die_id`` as the players tell it from the others: the character its die carries and
    its owner. (The body colour the camera reads is not said: on a rendered table it reads the garden
    through a white die's margin as green; it stays in the question's data.)"""
    die = game.dice[die_id]
    return message(N_("the {die} die of {player}"), die=die.name, player=game.named(die.owner))


def where(game: PuxesGame, x: float, y: float, angle: float = 0.0) -> Mapping[str, Any]:
    """The spot at (x, y) in the play area's frame (mm) as the players would point at it."""
    table = game.table
    standing = [t for t in game.temples if t.status == "standing"]
    if not table.inside(x, y):
        return message(N_("beside the mat, on the side of {player}"), player=game.named(_side_owner(game, x, y)))
    for t in standing:
        if table.in_sacred(t.index, x, y, angle):
            return message(N_("in {garden}"), garden=words.garden(game, t.index, "sacred"))
    for t in standing:
        if table.public_corners(t.index, x, y, angle) >= 2:
            return message(N_("in {garden}"), garden=words.garden(game, t.index, "public"))
    near = min(game.temples, key=lambda t: math.hypot(t.x - x, t.y - y), default=None)
    if near is not None and math.hypot(near.x - x, near.y - y) <= NEAR_TEMPLE_MM:
        return message(N_("near {temple}"), temple=words.temple(game, near.index))
    if near is None or abs(x - table.size_x / 2) <= MIDDLE_SHARE * table.size_x:
        return message(N_("in the middle of the mat"))
    return message(N_("on the side of {player}"), player=game.named(near.owner))
