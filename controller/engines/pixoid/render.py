"""Drawing a Pixoid game as text: plain (deterministic, in English, for logs and golden files) or with
ANSI colours for a terminal (in the terminal's language).

On the board, a piece shows as its colour's initial, upper case for Pixoid ("R") and lower case for
a Bug ("b"), several pieces on one Pix as ``&`` (listed under the board); ``*`` is a bonus cube still
in place, ``o`` a free start Pix, ``.`` any other Pix. Columns are lettered from ``a`` and rows
numbered from 1, the way events name Pix ("c4"). Under the board, each piece with the player who
plays it, by name and colour, as every text of the game names them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller import i18n
from controller.engines.pixoid import words
from controller.i18n import N_, listing, message, say

if TYPE_CHECKING:
    from controller.engines.pixoid.game import PixoidGame

#: ANSI colours of pieces 0 to 3 on a terminal (red, blue, green, yellow).
PIECE_ANSI = ("\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[33m")
RESET = "\x1b[0m"
BOLD_REVERSE = "\x1b[1;7m"
DIM = "\x1b[2m"
BONUS_ANSI = "\x1b[1;33m"
START_ANSI = "\x1b[31m"


def _cells(game: PixoidGame, lang: str | None) -> dict[int, tuple[str, int | None]]:
    """The character to draw on each Pix that is not plain, and the piece it shows (if one)."""
    board = game.board
    cells: dict[int, tuple[str, int | None]] = {}
    for index in board.bonuses:
        cells[index] = (".", None)
    for index in game.bonus_cubes:
        cells[index] = ("*", None)
    for p in range(len(game.pos)):
        at = game.pos[p]
        if at < 0:
            continue
        shown = cells.get(at, (".", None))
        cells[at] = ("&", None) if shown[1] is not None or shown[0] == "&" else (words.mark(p, game.pixoid_piece, lang), p)
    return cells


def _grid_lines(game: PixoidGame, paint: bool, lang: str | None) -> list[str]:
    board = game.board
    cells = _cells(game, lang)
    lines = ["    " + " ".join(chr(ord("a") + c) for c in range(board.width))]
    for r, row in enumerate(board.rows):
        out = []
        for c, char in enumerate(row):
            if r % 2 and c % 2:
                index = (r // 2) * board.width + c // 2
                char, piece = cells.get(index, (char, None))
                if paint:
                    char = _paint(game, piece, char)
            elif paint and char in "+-|":
                char = DIM + char + RESET
            out.append(char)
        prefix = f"{r // 2 + 1:>2} " if r % 2 else "   "
        lines.append(prefix + "".join(out))
    return lines


def _paint(game: PixoidGame, piece: int | None, char: str) -> str:
    if piece is not None:
        style = BOLD_REVERSE if piece == game.pixoid_piece else ""
        return style + PIECE_ANSI[piece] + char + RESET
    if char == "&":
        return "\x1b[1m&" + RESET
    if char == "*":
        return BONUS_ANSI + "*" + RESET
    if char == "o":
        return START_ANSI + "o" + RESET
    return char


def _legend(game: PixoidGame, lang: str | None) -> list[str]:
    """The title line, then what the board cannot show: who plays which piece, the cubes, who has
    locked in, the scores."""
    board = game.board

    def line(msgid: str, **args: object) -> str:
        return "  " + say(msgid, lang, **args)

    variant = message(N_("short game")) if game.short_game else message(N_("{count} players"), count=game.players)
    phase = {
        "placement": N_("placing the cubes"), "programming": N_("secret programming"), "over": N_("the game is over"),
    }[game.phase]
    lines = [
        say(N_("Pixoid ({variant}), round {round} of {rounds}, turn {turn}: {phase}"), lang, variant=variant,
            round=game.round_index + 1, rounds=1 if game.short_game else game.players, turn=game.turn_in_round + 1,
            phase=message(phase))
    ]
    for p in range(len(game.pos)):
        at = game.pos[p]
        args = {"mark": words.mark(p, game.pixoid_piece, lang), "piece": game.piece_words(p),
                "player": game.player_words(game.controller_owner(p))}
        if at >= 0:
            lines.append(line(N_("{mark}: {piece}, played by {player}, on {pix}"), pix=board.label(at), **args))
        else:
            lines.append(line(N_("{mark}: {piece}, played by {player}, not placed yet"), **args))
    stacks: dict[int, list[int]] = {}
    for p, at in enumerate(game.pos):
        if at >= 0:
            stacks.setdefault(at, []).append(p)
    for at, pieces in sorted(stacks.items()):
        if len(pieces) > 1:
            lines.append(line(N_("&: {pieces} on {pix}"), pieces=words.pieces(pieces, game.pixoid_piece),
                              pix=board.label(at)))
    lines.append(line(N_("reserve: {left}/12; Pixoid's cubes: {taken} from the reserve + {bonus} bonus"),
                      left=game.reserve, taken=game.reserve_taken, bonus=game.bonus_taken))
    if game.phase == "programming":
        owing = game.current_players()
        lines.append(line(N_("locked in: {locked}; still programming: {waiting}"),
                          locked=listing(game.player_words(s) for s in range(game.players) if s not in owing),
                          waiting=listing(map(game.player_words, owing))))
    elif game.phase == "placement":
        lines.append(line(N_("to place now: {piece}, by {player}"), piece=game.piece_words(game.place_queue[0]),
                          player=game.player_words(game.current_players()[0])))
    scores = listing(message(N_("{player} {score}"), player=game.player_words(s), score=f"{v:g}")
                     for s, v in enumerate(game.scores()))
    lines.append(line(N_("scores: {scores}"), scores=scores))
    if game.is_over():
        winners = list(game.winners())
        lines.append(line(N_("winner: {winners}") if len(winners) == 1 else N_("winners: {winners}"),
                          winners=listing(map(game.player_words, winners))))
    return lines


def render_text(game: PixoidGame, lang: str | None = i18n.SOURCE_LANGUAGE) -> str:
    """The board and the game's state as plain text, in English unless ``lang`` says otherwise."""
    legend = _legend(game, lang)
    return "\n".join(legend[:1] + _grid_lines(game, False, lang) + legend[1:]) + "\n"


def render_ansi(game: PixoidGame, lang: str | None = None) -> str:
    """The same picture with terminal colours, each piece in its colour and Pixoid highlighted, in
    ``lang`` (default: the process's language)."""
    legend = _legend(game, lang)
    return "\n".join(legend[:1] + _grid_lines(game, True, lang) + legend[1:]) + "\n"
