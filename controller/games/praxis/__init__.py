"""Praxis (DiXe), as the service plays it: 2 to 4 players, ships and artefacts in a universe of six grids.

The rules are :mod:`controller.engines.praxis`. Played on phones: each player's hand of artefacts
shows on their own phone only, with the moves the rules allow now; the program draws from the pile
and rolls the dice the rules roll. The dashboard draws the universe for everyone.
"""

from pathlib import Path

from controller.games.spec import CliOption, GameSpec, VoiceCall
from controller.i18n import N_

GAME = GameSpec(
    name="praxis",
    title="Praxis",
    summary=N_("ships and artefacts in a universe of six grids; first to 36 points"),
    engine="controller.engines.praxis:PraxisGame",
    players=(2, 4),
    default_players=4,
    play=("phones",),
    bot="controller.engines.praxis.bots:SearchBot",
    choices="controller.games.praxis.choices:PraxisChoices",
    demo="controller.service.demo:phones_demo",
    view_dir=Path(__file__).parent,
    options=(
        CliOption("--universe", "layout", "the universe: rectangle, offset, ring or spiral (the rulebook's examples)",
                  kind=str, choices=("rectangle", "offset", "ring", "spiral"), metavar="LAYOUT"),
    ),
    docs="docs/praxis.md",
    secrets=("each player's hand of artefacts", "the order of the draw pile"),
    voice={  # an attack, the black star, the last round, the winner (the phones offer legal moves only)
        "attack": VoiceCall(VoiceCall.CALL, words=N_("{seat}'s ship attacks {defender}'s ship, which goes back to its "
                                                     "spaceport")),
        "black-star": VoiceCall(VoiceCall.CALL),
        "last-round": VoiceCall(VoiceCall.IMPORTANT),
        "game-over": VoiceCall(VoiceCall.IMPORTANT, once=True),
    },
)
