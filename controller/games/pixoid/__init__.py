"""Pixoid (8Bit Box), as the service plays it: secret programs dialled on the wheels.

The rules are :mod:`controller.engines.pixoid`; :mod:`.wheels` says how a controller's wheels and
ready button become placements and programs; ``view.js`` draws the board on the dashboard. Its demo
is the one every game played on the wheels gets (bots on simulated controllers).
"""

from pathlib import Path

from controller.games.spec import CliOption, GameSpec, VoiceCall
from controller.i18n import N_

GAME = GameSpec(
    name="pixoid",
    title="Pixoid",
    summary=N_("a little energy cube flees the Bugs; every move is dialled in secret on the wheels"),
    engine="controller.engines.pixoid:PixoidGame",
    players=(3, 4),
    default_players=4,
    play=("wheels",),
    bot="controller.engines.pixoid:PixoidBot",
    wheels="controller.games.pixoid.wheels:PixoidWheels",
    ansi="controller.engines.pixoid:render_ansi",
    view_dir=Path(__file__).parent,
    options=(
        CliOption("--short", "short_game", N_("the short game (one round, 12 cubes wins)")),
    ),
    docs="docs/service.md",
    secrets=("each player's program (direction and distance), from its lock until every program is revealed",),
    voice={  # the reveal, Pixoid caught, the round's end, the winner
        "revealed": VoiceCall(VoiceCall.CALL),
        "captured": VoiceCall(VoiceCall.IMPORTANT, words=N_("Pixoid is caught by {bugs}!")),
        "round-over": VoiceCall(VoiceCall.IMPORTANT),
        "role-change": VoiceCall(VoiceCall.CHATTER),
        "game-over": VoiceCall(VoiceCall.IMPORTANT, once=True),
    },
)
