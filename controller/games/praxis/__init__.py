"""Praxis (DiXe), as the service plays it: 2 to 4 players, ships and artefacts in a universe of six grids.

The rules are :mod:`controller.engines.praxis`. Played on phones: each player's hand of artefacts
shows on their own phone only, with the moves the rules allow now; the program draws from the pile
and rolls the dice the rules roll. The dashboard draws the universe for everyone.

Praxis is also played by hand on the printed mat (``bitbox mat praxis``: the universe, the
spaceports and the tiles), watched by the table camera: :mod:`.camera` reads the tiles by their
markers and the ships (coloured dice) by colour and face, :mod:`.referee` recognises each turn from
the mat before and after it and checks it with the engine, and :mod:`.table` is what the table
service asks of the game. The program still keeps the pile and rolls the dice.
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
    play=("phones", "camera"),
    bot="controller.engines.praxis.bots:SearchBot",
    choices="controller.games.praxis.choices:PraxisChoices",
    table="controller.games.praxis.table:PraxisTable",
    mat="praxis",
    mat_sheets="controller.games.praxis.tiles:write_sheets",
    camera="controller.games.praxis.camera:open_table_camera",
    mode_options={"camera": {"layout": [[0, 0, 0], [0, 3, 0], [0, 6, 0], [2, 0, 0], [2, 3, 0], [2, 6, 0]]}},
    demo="controller.service.demo:phones_demo",
    view_dir=Path(__file__).parent,
    options=(
        CliOption("--universe", "layout", "the universe: rectangle, offset, ring or spiral (the rulebook's examples); "
                  "with the camera, the printed mat's (two rows of three grids)",
                  kind=str, choices=("rectangle", "offset", "ring", "spiral"), metavar="LAYOUT"),
    ),
    docs="docs/praxis.md",
    secrets=("each player's hand of artefacts", "the order of the draw pile"),
    voice={  # an attack, the black star, the last round, the winner; at the table, a refusal
        "attack": VoiceCall(VoiceCall.CALL, words=N_("{seat}'s ship attacks {defender}'s ship, which goes back to its "
                                                     "spaceport")),
        "black-star": VoiceCall(VoiceCall.CALL),
        "last-round": VoiceCall(VoiceCall.IMPORTANT),
        "game-over": VoiceCall(VoiceCall.IMPORTANT, once=True),
        "refused": VoiceCall(VoiceCall.IMPORTANT),
        "wrong-effect": VoiceCall(VoiceCall.IMPORTANT),
    },
)
