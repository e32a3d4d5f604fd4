"""Dice duel, the toy game of docs/adding-a-game.md: everything it needs is in this folder.

Registered for the test suite by one line (``BITBOX_GAMES`` in tests/conftest.py), it gets the
demo, the dashboard page, the command line and the conformance suite like a built-in game.
"""

from pathlib import Path

from controller.games import CliOption, GameSpec

GAME = GameSpec(
    name="duel",
    title="Dice duel",
    summary="two players dial a number in secret; the closer to the roll scores",
    engine="tests.games.duel.engine:DuelGame",
    players=(2, 2),
    play=("wheels",),
    bot="tests.games.duel.engine:DuelBot",
    wheels="tests.games.duel.wheels:DuelWheels",
    view_dir=Path(__file__).parent,
    options=(CliOption("--target", "target", "the points that win (default 3)", kind=int, metavar="POINTS"),),
    docs="tests/games/duel/README.md",
    secrets=("each player's number, until both are locked",),
    players_option=None,
)
