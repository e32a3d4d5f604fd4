"""PuXes (DiXe), as the service referees it: oracles flicked on the printed mat, read by the camera.

The rules are :mod:`controller.engines.puxes`, the referee that turns still snapshots into calls is
:mod:`controller.referee.puxes`; :mod:`.table` is what the table service asks of the game (the
dashboard's drawing of the mat, the choices players announce); :mod:`.demo` is ``bitbox demo
puxes``, a rendered table played by bots; ``view.js`` draws the mat on the dashboard.
"""

from pathlib import Path

from controller.games.spec import GameSpec, VoiceCall
from controller.i18n import N_

GAME = GameSpec(
    name="puxes",
    title="PuXes",
    summary=N_("oracles flicked across the mat at the gods' temples, refereed by the table camera"),
    engine="controller.engines.puxes:PuxesGame",
    players=(2, 4),
    default_players=2,
    play=("camera",),
    table="controller.games.puxes.table:PuxesTable",
    mat="puxes",
    demo="controller.games.puxes.demo:run_demo",
    view_dir=Path(__file__).parent,
    docs="docs/puxes.md",
    voice={  # a temple toppled, an oracle asleep or awake, a power used, the winner (and every question)
        "dixe": VoiceCall(VoiceCall.IMPORTANT),
        "own-temple": VoiceCall(VoiceCall.CALL),
        "temple-rebuilt": VoiceCall(VoiceCall.CALL),
        "asleep": VoiceCall(VoiceCall.CALL),
        "woken": VoiceCall(VoiceCall.CALL),
        "lost": VoiceCall(VoiceCall.CALL),
        "power": VoiceCall(VoiceCall.CALL),
        "eliminated": VoiceCall(VoiceCall.IMPORTANT),
        "game-over": VoiceCall(VoiceCall.IMPORTANT, once=True),
    },
)
