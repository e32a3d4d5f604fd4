"""Small boards and scripted turns for the Pixoid rule tests.

The test board ``LANES`` is 9 Pix wide and 5 high, open except one wall, so each test can say
exactly where every piece goes::

        a b c d e f g h i
       +-+-+-+-+-+-+-+-+-+
     1 |o . * . . . . . o|      start Pix (o): a1, i1, a5, i5
       + + + + + + + + + +      bonus Pix (*): c1, a2, i4, b5
     2 |* . . . . . . .|.|      a wall between h2 and i2
       + + + + + + + + + +
     3 |. . . . . . . . .|
       ...
"""

from __future__ import annotations

from typing import Iterable

from controller.engines.pixoid import PixoidGame, PixoidOptions, Place, Program, parse_board

LANES = """\
+-+-+-+-+-+-+-+-+-+
|o . * . . . . . o|
+ + + + + + + + + +
|* . . . . . . .|.|
+ + + + + + + + + +
|. . . . . . . . .|
+ + + + + + + + + +
|. . . . . . . . *|
+ + + + + + + + + +
|o * . . . . . . o|
+-+-+-+-+-+-+-+-+-+
"""

#: For the short game: two bonus Pix one under the other in column a.
COLUMN = """\
+-+-+-+-+-+-+-+-+-+
|o * . . . . . . o|
+ + + + + + + + + +
|. . . . . . . . .|
+ + + + + + + + + +
|* . . . . . . . .|
+ + + + + + + + + +
|* . . . . . . . .|
+ + + + + + + + + +
|o * . . . . . . o|
+-+-+-+-+-+-+-+-+-+
"""

A1, I1, A5, I5 = (0, 0), (0, 8), (4, 0), (4, 8)
CORNERS = (A1, I1, A5, I5)


def new_game(players: int = 4, short_game: bool = False, board: str = LANES, seed: int = 0) -> PixoidGame:
    return PixoidGame(PixoidOptions(players=players, short_game=short_game, board=parse_board(board).text), seed=seed)


def place(game: PixoidGame, spots: Iterable[tuple[int, int]] = CORNERS) -> None:
    """Place the pieces, in the order the rules ask, on ``spots`` (one per piece in that order)."""
    for pix in spots:
        seat = game.current_players()[0]
        game.apply(seat, Place(game.place_queue[0], pix))


def turn(game: PixoidGame, programs: dict[int, tuple[str, int]]) -> list:
    """Submit every piece's program (direction, distance) through its controller; return the
    events of the whole turn."""
    events = []
    for piece, (direction, distance) in programs.items():
        events.extend(game.apply(game.controller_owner(piece), Program(piece, direction, distance)))
    game.check_invariants()
    return events


def piece_at(game: PixoidGame, pix: tuple[int, int]) -> int:
    return next(p for p in range(4) if game.pos[p] >= 0 and game.board.pix(game.pos[p]) == pix)


def quiet_turn(game: PixoidGame) -> list:
    """A turn on ``LANES`` where nobody meets: each piece steps out of its corner and back.

    Pixoid (from a1) goes a1 -> b1 -> a1, the Bug from i1 goes down and up, the one from a5 up
    and down, the one from i5 left and right. Nobody touches a bonus cube.
    """
    programs = {}
    for piece in range(4):
        pix = game.board.pix(game.pos[piece])
        programs[piece] = {
            (0, 0): ("right", 1), (0, 1): ("left", 1),
            (0, 8): ("down", 1), (1, 8): ("up", 1),
            (4, 0): ("up", 1), (3, 0): ("down", 1),
            (4, 8): ("left", 1), (4, 7): ("right", 1),
        }[pix]
    return turn(game, programs)


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def event(events: list, kind: str):
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind!r} event among {kinds(events)}"
    return found[0]
