"""MémoDiXe (DiXe), as the service plays it: a memory game of nine dice and their hidden faces.

The rules are :mod:`controller.engines.memodixe`. Played on phones: each player flips dice from
their own phone and alone sees the faces they were shown when they were shown; the program rolls.
Both modes: « Chacun pour soi » (2 to 6) and « Oni contre tous » (4 to 8, the app's effects drawn
by the program, Oni's flips seen by Oni alone).

« Chacun pour soi » is also played with real DiXes on the printed mat (``bitbox mat memodixe``),
watched by the table camera: :mod:`.camera` reads the square, :mod:`.layouts` keeps what the camera
knows of each die's faces, :mod:`.referee` checks each roll and flip made by hand and « DiXe ! » at
once, and :mod:`.table` is what the table service asks of the game.
"""

from pathlib import Path

from controller.games.spec import CliOption, GameSpec, VoiceCall
from controller.i18n import N_

GAME = GameSpec(
    name="memodixe",
    title="MémoDiXe",
    summary=N_("nine dice, their hidden faces and your memory; call « DiXe ! » when no pair is left"),
    engine="controller.engines.memodixe:MemodixeGame",
    players=(2, 8),
    default_players=3,
    play=("phones", "camera"),
    bot="controller.engines.memodixe.bots:MemoryBot",
    choices="controller.games.memodixe.choices:MemodixeChoices",
    demo="controller.service.demo:phones_demo",
    table="controller.games.memodixe.table:MemodixeTable",
    mat="memodixe",
    camera="controller.games.memodixe.camera:open_square_camera",
    mode_options={"camera": {"mode": "chacun-pour-soi"}},
    view_dir=Path(__file__).parent,
    options=(
        CliOption("--mode", "mode", "chacun-pour-soi (2 to 6 players, the default) or oni-contre-tous (4 to 8)",
                  kind=str, choices=("chacun-pour-soi", "oni-contre-tous"), metavar="MODE"),
        CliOption("--level", "level", "oni-contre-tous: the app's level, easy, normal or hard", kind=str,
                  choices=("easy", "normal", "hard"), metavar="LEVEL"),
        CliOption("--oni", "oni_seat", "oni-contre-tous: the Oni player's seat, counting the first player as 0",
                  kind=int, metavar="SEAT"),
        CliOption("--dixe-continue", "dixe_continue", "the optional rule: a right « DiXe ! » may roll again and play on"),
    ),
    docs="docs/memodixe.md",
    seat_defaults={7: {"mode": "oni-contre-tous"}, 8: {"mode": "oni-contre-tous"}},
    secrets=("the faces a player was shown when flipping, until the whole table sees them",),
    voice={  # the effect drawn, « DiXe ! » and whether it is right, the countdown's last seconds, the winner
        "effect": VoiceCall(VoiceCall.CALL),
        "dixe": VoiceCall(VoiceCall.CALL, words=N_("{who} cries DiXe!")),
        "dixe-right": VoiceCall(VoiceCall.IMPORTANT),
        "dixe-wrong": VoiceCall(VoiceCall.IMPORTANT),
        "countdown": VoiceCall(VoiceCall.IMPORTANT, max_age=1.0, replaces=True),
        "time-up": VoiceCall(VoiceCall.URGENT),
        "game-over": VoiceCall(VoiceCall.IMPORTANT, once=True),
    },
)
