"""Positions for the Praxis rule tests, set up by hand, and small helpers.

On the default "rectangle" universe the cells lie so (``35`` is cell ``"3.5"``)::

    11 12 13 21 22 23
    14 15 16 24 25 26
    31 32 33 41 42 43
    34 35 36 44 45 46
    51 52 53 61 62 63
    54 55 56 64 65 66
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from controller.engines import CHANCE
from controller.engines.praxis import FirstPlayer, PraxisGame, Roll, cell_index
from controller.engines.praxis.artefacts import BOX, KIND, PORTAL, VALUES
from controller.engines.praxis.game import MAIN, SHIP


def c(label: str) -> int:
    """A cell's number from its name: ``c("3.5")``."""
    return cell_index(label)


def arrange(
    players: int = 2,
    layout: object = "rectangle",
    ships: Mapping[tuple[int, int], tuple[str, int]] | None = None,
    cells: Mapping[str, str] | None = None,
    portals: Iterable[str] = ("6.6",),
    hands: Iterable[Iterable[str]] | None = None,
    next_draws: Iterable[str] = (),
    spaceports: Iterable[Iterable[str]] | None = None,
    active: int = 0,
    empty_pile: bool = False,
    seed: int = 0,
) -> PraxisGame:
    """A game at the start of ``active``'s turn with exactly these pieces.

    ``ships`` maps (seat, ship) to (cell, face); ships not named wait in the spaceport. ``cells``
    maps cell names to artefact keys. ``next_draws`` are the pile's next artefacts, in the order
    they will be drawn; the rest of the box lies under them (or nowhere: ``empty_pile`` leaves
    only ``next_draws`` in the pile and the rest in the discard pile).
    """
    game = PraxisGame({"players": players, "layout": layout}, seed=seed)
    n = game.players
    game.board = [0] * 36
    game.ship_cell = [-1] * (2 * n)
    game.ship_face = [0] * (2 * n)
    for (seat, k), (label, face) in (ships or {}).items():
        ship = 2 * seat + k
        game.board[c(label)] = SHIP + ship
        game.ship_cell[ship] = c(label)
        game.ship_face[ship] = face
    used: Counter[int] = Counter()
    for label, key in (cells or {}).items():
        if game.board[c(label)]:
            raise ValueError(f"two things on {label}")
        game.board[c(label)] = KIND[key]
        used[KIND[key]] += 1
    game.portals = sorted(c(p) for p in portals)
    for p in game.portals:
        if game.board[p]:
            raise ValueError(f"the portal on {p} would share its cell")
        game.board[p] = PORTAL
    game.hands = [sorted(KIND[k] for k in hand) for hand in (hands or [["plus-one"] * 3] * n)]
    game.spaceports = [sorted(KIND[k] for k in port) for port in (spaceports or [[]] * n)]
    game.points = [sum(VALUES[k] for k in port) for port in game.spaceports]
    for hand in game.hands:
        used.update(hand)
    for port in game.spaceports:
        used.update(port)
    top = [KIND[k] for k in next_draws]
    used.update(top)
    rest = Counter(BOX)
    rest.subtract(used)
    if any(v < 0 for v in rest.values()):
        raise ValueError("the position uses more artefacts of a kind than the box holds")
    leftover = sorted(rest.elements())
    game.discard = leftover if empty_pile else []
    game.pile = ([] if empty_pile else leftover) + top[::-1]
    game.scanned = []
    game.sucked = []
    game.first_player = 0
    game.active = active
    game.turn = 0
    game.ending = None
    game.queue = [(MAIN, active)]
    if not game.pile:
        game.ending = "pile"
    game.check_invariants()
    return game


def roll(game: PraxisGame, *values: int) -> list:
    """The table reports these die values, one after the other; the events they caused."""
    events = []
    for value in values:
        events += game.apply(CHANCE, Roll(value))
    return events


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def event(events: list, kind: str):
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind} event in {kinds(events)}"
    return found[0]


def set_up(players: int = 2, layout: object = "rectangle", seed: int = 0, first: int | None = 0) -> PraxisGame:
    """A game whose set-up rolls are all made: portals and first ships on the first free cells
    of grids 1, 2, 3..., faces 3, then seat ``first`` drawn to play first (``None``: not yet)."""
    game = PraxisGame({"players": players, "layout": layout}, seed=seed)
    grid = 1
    while game.step == "roll":
        purpose = game.state_dict()["step"]["for"]
        if purpose.endswith("grid"):
            roll(game, grid)
            grid = grid % 6 + 1
        elif purpose.endswith("cell"):
            value = 1
            while game.step == "roll" and game.state_dict()["step"]["for"].endswith("cell"):
                before = len(game.history)
                roll(game, value)
                value += 1
                assert len(game.history) == before + 1
        else:
            roll(game, 3)
    if first is not None:
        game.apply(CHANCE, FirstPlayer(first))
    return game
