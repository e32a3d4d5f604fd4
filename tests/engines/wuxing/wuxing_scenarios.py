"""Positions for the Wuxing duel rule tests.

``CYCLIC`` is the theatre layout where the island on row ``r``, column ``c`` (from the top-left)
is element ``(r + c) % 5``: going right or down by ``k`` squares adds ``k`` along the engendering
cycle, so from any island the element it engenders is 1 square right or down (4 left or up) and
the one it dominates 2 squares right or down (3 left or up).
"""

from __future__ import annotations

from typing import Any

from controller.engines.wuxing import WuxingGame
from controller.engines.wuxing.actions import PAWN_LETTERS
from controller.engines.wuxing.elements import CODES
from controller.engines.wuxing.theatre import EMPTY, FLIPPED, PAWNS

CYCLIC = " / ".join(" ".join(CODES[(r + c) % 5] for c in range(5)) for r in range(5))
PATH = "wood fire earth metal water"


def sq(name: str) -> int:
    """``"c4"`` as a square index (columns a-e from the left, rows 1-5 from seat 0's edge)."""
    return (5 - int(name[1])) * 5 + "abcde".index(name[0])


def rc(name: str) -> tuple[int, int]:
    return divmod(sq(name), 5)


def theatre(layout: str = CYCLIC, **options: Any) -> WuxingGame:
    return WuxingGame({"mode": "theatre", "layout": layout, **options}, seed=0)


def chemin(path: str = PATH, **options: Any) -> WuxingGame:
    return WuxingGame({"mode": "chemin", "path": path, **options}, seed=0)


def set_pawns(game: WuxingGame, seat0: dict[str, str], seat1: dict[str, str]) -> None:
    """Put pawns where the test wants them (``{"A": "c3"}``); unnamed pawns are captured."""
    rules = game.rules
    rules.occupant = [EMPTY] * 25
    for seat, where in ((0, seat0), (1, seat1)):
        rules.pawns[seat] = [-1] * PAWNS
        for letter, name in where.items():
            p = PAWN_LETTERS.index(letter.upper())
            rules.pawns[seat][p] = sq(name)
            rules.occupant[sq(name)] = seat * PAWNS + p
    game.check_invariants()


def flip(game: WuxingGame, *names: str) -> None:
    for name in names:
        game.rules.board[sq(name)] = FLIPPED


def duel_state(game: WuxingGame, pos: tuple[int, int] = (0, 4), tokens: tuple[list[int], list[int]] | None = None,
               yin_yang: tuple[bool, bool] = (False, False)) -> None:
    """Set the chemin's pawns, tokens and faces, and skip the opening discard."""
    rules = game.rules
    rules.pos = list(pos)
    rules.yin_yang = list(yin_yang)
    if tokens is not None:
        rules.tokens = [list(tokens[0]), list(tokens[1])]
    if rules.phase == "discard":
        rules.phase, rules.round = "duel", 1
    game.check_invariants()


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]
