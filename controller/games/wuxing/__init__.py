"""Wuxing duel (Alexis Suard), as the service plays it: two players, two modes, one game.

The rules are :mod:`controller.engines.wuxing`. One registry name, ``wuxing``, with a ``mode``
option: ``chemin`` (le chemin du duel, secret element cards dialled on the number wheel, revealed
together) or ``theatre`` (le théâtre du duel, pawns moved in turn with the symbol, direction and
number wheels). :mod:`.wheels` says how the wheels become actions, ``view.js`` draws both modes,
:mod:`.demo` plays one game of each with bots.

Le théâtre is also played by hand on the printed board (``bitbox mat --game wuxing``), watched by the
table camera: :mod:`.camera` reads the board, :mod:`.referee` checks each move made by hand and
:mod:`.table` is what the table service asks of the game.
"""

from pathlib import Path

from controller.games.spec import CliOption, GameSpec, VoiceCall
from controller.i18n import N_

GAME = GameSpec(
    name="wuxing",
    title="Wuxing duel",
    summary=N_("the five elements: secret element cards on a path, or pawns and tokens on 25 islands"),
    engine="controller.engines.wuxing:WuxingGame",
    players=(2, 2),
    play=("wheels", "camera"),
    bot="controller.engines.wuxing:WuxingBot",
    wheels="controller.games.wuxing.wheels:WuxingWheels",
    table="controller.games.wuxing.table:WuxingTable",
    mat="wuxing",
    camera="controller.games.wuxing.camera:open_board_camera",
    mode_options={"camera": {"mode": "theatre", "layout": "printed"}},
    demo="controller.games.wuxing.demo:run_demo",
    view_dir=Path(__file__).parent,
    options=(
        CliOption("--mode", "mode", "chemin (secret cards on a path, the default) or theatre (pawns on 25 islands); "
                  "the demo plays both unless one is named", kind=str, choices=("chemin", "theatre"), metavar="MODE"),
        CliOption("--no-discard", "no_discard", "chemin for under-10s: no card is discarded (note 1)"),
        CliOption("--no-yin-yang", "no_yin_yang", "chemin for under-8s: pawns are never turned (note 2)"),
        CliOption("--blue-only", "blue_only", "theatre: moves follow blue arrows only (the rulebook's letter)"),
        CliOption("--islands", "layout", "theatre: the 25 islands row by row from seat 1's side ('Wo Fi Ea Me Wa / "
                  "...'), or 'printed' for the board bitbox mat --game wuxing prints (the table camera's); default: "
                  "drawn from the seed", kind=str, metavar="ISLANDS"),
    ),
    docs="docs/wuxing.md",
    secrets=("le chemin: each player's chosen element card, until both are locked and revealed together",),
    players_option=None,
    voice={  # the cards revealed and the duel, a move refused and why (wheels or camera), the winner
        "revealed": VoiceCall(VoiceCall.CALL),
        "duel": VoiceCall(VoiceCall.CALL),
        "refused": VoiceCall(VoiceCall.IMPORTANT),
        "captured": VoiceCall(VoiceCall.IMPORTANT),
        "game-over": VoiceCall(VoiceCall.IMPORTANT, once=True),
    },
)
