"""Drawing a MémoDiXe game as deterministic plain text (logs, golden files, a terminal demo).

Each place of the square shows ``top/hidden``: the face up, then the face it hides (the render is
the referee's picture: it shows every secret). ``*`` marks a die turned face up this turn, ``~`` a
die being rolled, ``.`` an empty place, ``[aside]`` a place kept for a die set aside.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.engines.memodixe.actions import COLUMNS

if TYPE_CHECKING:
    from controller.engines.memodixe.game import MemodixeGame

CELL = 26


def _cell(game: MemodixeGame, place: int) -> str:
    if game.die[place] < 0:
        return "[aside]" if any(a[0] == place for a in game.aside) else "."
    if game.top[place] is None:
        return f"~ ({game.die_names[game.die[place]]})"
    mark = "*" if place in game.up else ""
    return f"{mark}{game.top[place]}/{game.bottom[place]}"


def render_text(game: MemodixeGame) -> str:
    """The square and the game's state as plain text."""
    mode = "chacun pour soi" if game.mode == "chacun-pour-soi" else "Oni contre tous"
    lines = [f"MémoDiXe ({mode}, {game.n} players) - turn {game.turn_no}: {game.waiting_for()}"]
    lines.append("     " + "".join(f"{c:<{CELL}}" for c in COLUMNS))
    for row in range(3):
        cells = "".join(f"{_cell(game, row * 3 + col):<{CELL}}" for col in range(3))
        lines.append(f"  {row + 1}  {cells}".rstrip())
    if game.mode == "chacun-pour-soi":
        lines.append(f"  reserve: {len(game.reserve)}   discarded: {len(game.discarded)}")
        lines.append("  dice won: " + ", ".join(f"{game.seat_label(s)} {len(w)}" for s, w in enumerate(game.won)))
    else:
        lines.append(f"  Oni: {game.seat_label(game.oni)}   bag: {len(game.bag)}   discarded: {len(game.discarded)}   "
                     f"level: {game.options.level}   cards left: {len(game.deck)}")
        if game.last_card:
            lines.append(f"  last card: {game.last_card}")
        if game.in_force:
            lines.append("  in force: " + ", ".join(f"{e} ({game.seat_label(s)})" for e, s in game.in_force))
        if game.challenge:
            lines.append(f"  announced: {game.challenge}")
    for place, _die, top, _bottom, owner in game.aside:
        lines.append(f"  aside: {COLUMNS[place % 3]}{place // 3 + 1} {top} until {game.seat_label(owner)}'s turn")
    if game.last_caller >= 0:
        lines.append(f"  last right DiXe !: {game.seat_label(game.last_caller)}")
    if game.over:
        lines.append(f"  over ({game.result}): winners [{', '.join(game.seat_ref(w) for w in game.winners())}]")
    return "\n".join(lines) + "\n"
