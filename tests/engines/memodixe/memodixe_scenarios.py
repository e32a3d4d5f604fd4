"""Scripted squares for the MémoDiXe rule tests.

The default dice sit in the square as Oni, Crâne Yorick, Mr Blaireau, Arkan Sonney, Hanuman, Oni,
Crâne Yorick, Mr Blaireau, Arkan Sonney (places a1 to c3), then the reserve. :data:`DISTINCT` hides
nine different kinds under them, so no pair is left; tests change a place or two to make the pair
they need, and report each roll so that the die hides the face they want.
"""

from __future__ import annotations

from typing import Any

from controller.engines import CHANCE
from controller.engines.memodixe import MemodixeGame, Roll

#: Hidden faces, one kind each: nothing pairs.
DISTINCT = ["sablier", "pi", "yin-yang", "aum", "tete-de-mort", "bombe", "smiley", "soleil", "pirate"]
A1, B1, C1, A2, B2, C2, A3, B3, C3 = range(9)


def hides(**changes: str) -> list[str]:
    """:data:`DISTINCT` with some places changed: ``hides(c3="sablier")``."""
    faces = list(DISTINCT)
    for label, face in changes.items():
        faces["abc".index(label[0]) + 3 * (int(label[1]) - 1)] = face
    return faces


def report(game: MemodixeGame, hidden: str | None = None) -> Any:
    """Answer the pending roll so that the die hides ``hidden`` (``None``: the seeded roll)."""
    step = game.queue[0]
    assert step[0] == "roll", f"no roll is pending: {step}"
    if hidden is None:
        return game.apply(CHANCE, game.seeded_roll())
    return game.apply(CHANCE, Roll(game.book.opposite(game.die_names[step[3]], hidden)))


def new_game(bottoms: list[str] | None = None, options: dict[str, Any] | None = None, seed: int = 0,
             held: dict[int, int] | None = None) -> MemodixeGame:
    """A game past its set-up, the square hiding ``bottoms`` (default :data:`DISTINCT`), the seats in
    ``held`` holding that many dice won before (a square with no pair where nobody holds a die ends
    at once: no one could ever play on)."""
    game = MemodixeGame(options or {}, seed=seed)
    for seat, count in (held or {}).items():
        give_dice(game, seat, count)
    for face in bottoms or DISTINCT:
        report(game, face)
    return game


def give_dice(game: MemodixeGame, seat: int, count: int) -> None:
    """Move ``count`` dice from the reserve (or the discards) to ``seat``: dice won earlier."""
    for _ in range(count):
        source = game.reserve if game.reserve else game.discarded
        game.won[seat].append(source.pop())


def flip_pair(game: MemodixeGame, seat: int, a: int, b: int) -> list:
    from controller.engines.memodixe import Flip

    return game.apply(seat, Flip(a)) + game.apply(seat, Flip(b))
