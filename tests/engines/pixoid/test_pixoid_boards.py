"""The board format: shipped tiles and boards, tiles turned and joined, and every error with its
file, line and column (docs/pixoid-boards.md)."""

from __future__ import annotations

import json

import pytest

from controller.engines import OptionsError, load_game
from controller.engines.pixoid import (
    Board,
    BoardError,
    PixoidGame,
    PixoidOptions,
    board_names,
    load_board,
    parse_board,
    parse_tile,
    shipped_tiles,
)
from controller.engines.pixoid.board import rotate_rows
from pixoid_scenarios import LANES


def test_shipped_tiles_are_eight_square_faces() -> None:
    """"4 tuiles Circuit imprimé\" ... \"Ces tuiles sont recto verso\": tiles 1-4, sides A and B."""
    tiles = shipped_tiles()
    assert sorted(tiles) == ["1A", "1B", "2A", "2B", "3A", "3B", "4A", "4B"]
    for tile in tiles.values():
        assert tile.size == 6 and len(tile.rows) == 13
        marks = "".join(tile.rows)
        assert marks.count("o") == 1 and marks.count("*") == 1


@pytest.mark.parametrize("name", board_names())
def test_shipped_boards_are_playable(name: str) -> None:
    """"Placez les 4 tuiles Circuit imprimé de telle façon qu'elles forment un carré.\""""
    board = load_board(name)
    assert (board.width, board.height) == (12, 12)
    assert len(board.bonuses) == 4 and len(board.starts) == 4
    assert all(steps < board.size for steps in board.distances[board.starts[0]])
    assert parse_board(board.text) == board, "the drawn grid reads back to the same board"
    assert len(board_names()) >= 4


def test_board_edge_is_always_a_wall() -> None:
    """"Faites en sorte que le bord bleu soit continu tout autour des 4 tuiles\": the tiles' open
    edges on the outside of the square are closed."""
    board = load_board("classic")
    for r in range(board.height):
        assert not board.opens[board.index((r, 0))][3] and not board.opens[board.index((r, 11))][1]
    for c in range(board.width):
        assert not board.opens[board.index((0, c))][0] and not board.opens[board.index((11, c))][2]


def test_tiles_turn_clockwise_with_their_walls() -> None:
    """"Ces tuiles sont recto verso, ce qui permet de nombreuses mises en place différentes.\""""
    rows = ("+-+-+", "|o|.|", "+ + +", "|* .|", "+-+-+")
    turned = rotate_rows(rows, 90)
    assert turned == ("+-+-+", "|* o|", "+ +-+", "|. .|", "+-+-+")
    assert rotate_rows(rows, 360) == rows and rotate_rows(turned, 270) == rows
    tiles = shipped_tiles()
    plain = parse_board("top-left 1A 0\ntop-right 2A 0\nbottom-left 3A 0\nbottom-right 4A 0\n")
    turned_board = parse_board("top-left 1A 180\ntop-right 2A 0\nbottom-left 3A 0\nbottom-right 4A 0\n")
    assert plain == load_board("classic") and turned_board != plain
    start_1a = "".join(tiles["1A"].rows).index("o")
    assert "".join(rotate_rows(tiles["1A"].rows, 180)).index("o") == 13 * 13 - 1 - start_1a


def test_a_wall_drawn_on_either_side_of_a_seam_counts() -> None:
    """Walls \"ne peuvent pas être traversés\": where two tiles meet, a wall drawn by either is a wall."""
    open_tile = "\n".join(["+ + + + + + +"] + [" . . . . . . ", "+ + + + + + +"] * 6)
    marks = " o . * . . . "
    walled = open_tile.replace(" . . . . . . ", marks, 1).replace(" . . . . . . ", " . . . . . .|")
    tiles = {"1A": walled, "2A": open_tile.replace(" . . . . . . ", marks, 1), "3A": walled, "4A": walled}
    board = parse_board("top-left 1A 0\ntop-right 2A 0\nbottom-left 3A 0\nbottom-right 4A 0\n", tiles=tiles)
    # 1A draws a wall on its right edge, 2A leaves its left edge open: the seam is walled.
    assert not board.opens[board.index((3, 5))][1]


def error_of(text: str, **kwargs) -> BoardError:
    with pytest.raises(BoardError) as info:
        parse_board(text, path="my-board.txt", **kwargs)
    error = info.value
    assert isinstance(error, ValueError) and str(error).startswith("my-board.txt:")
    return error


GOOD = LANES.splitlines()


def lanes_with(line: int, column: int, char: str) -> str:
    rows = list(GOOD)
    rows[line - 1] = rows[line - 1][: column - 1] + char + rows[line - 1][column:]
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize(
    "line,column,char,words",
    [
        (2, 4, "x", "where a Pix belongs"),
        (2, 5, "-", "between two Pix of a row"),
        (3, 2, "|", "between two Pix of a column"),
        (3, 3, "-", "corner"),
        (1, 2, " ", "outer edge is a wall"),
        (4, 1, " ", "outer edge is a wall"),
    ],
)
def test_bad_characters_are_located(line: int, column: int, char: str, words: str) -> None:
    """A board drawn by hand: each misplaced character is named with its line and column."""
    error = error_of(lanes_with(line, column, char))
    assert (error.path, error.line, error.column) == ("my-board.txt", line, column)
    assert words in error.message


def test_grid_shape_errors_are_located() -> None:
    """Lines of the wrong width, an even number of lines, a blank line, nothing at all."""
    long = list(GOOD)
    long[4] += "+"
    error = error_of("\n".join(long))
    assert (error.line, error.column) == (5, 20) and "same width" in error.message
    error = error_of("# a comment first\n" + "\n".join(GOOD[:-1]))
    assert error.line == 11 and "lines" in error.message
    error = error_of("\n".join(GOOD[:4] + [""] + GOOD[4:]))
    assert error.line == 5 and "blank line" in error.message
    error = error_of("# only a comment\n")
    assert error.line == 1 and "empty" in error.message
    error = error_of("+-+-+-+-\n|o . . .\n")
    assert error.line == 1 and "wide" in error.message


def test_play_level_errors_are_located() -> None:
    """A board needs "4 Pix de cube Bonus", start Pix for everyone, and no Pix cut off."""
    error = error_of(lanes_with(6, 4, "*"))
    assert (error.line, error.column) == (10, 4) and "5 bonus Pix" in error.message
    error = error_of(lanes_with(2, 2, "."))
    assert "3 start Pix" in error.message
    # e3 (line 6, column 10) gets a wall on each of its four sides.
    walled_in = lanes_with(6, 9, "|").splitlines()
    walled_in[4] = walled_in[4][:9] + "-" + walled_in[4][10:]
    walled_in[6] = walled_in[6][:9] + "-" + walled_in[6][10:]
    walled_in[5] = walled_in[5][:10] + "|" + walled_in[5][11:]
    error = error_of("\n".join(walled_in))
    assert (error.line, error.column) == (6, 10) and "walled in" in error.message
    # i1, i2, i3 fenced off from the rest by walls on their left and under i3.
    cut = list(GOOD)
    cut[5] = "|. . . . . . . .|.|"
    cut[6] = "+ + + + + + + +-+-+"
    cut[1] = "|o . * . . . . .|o|"
    cut[3] = "|* . . . . . . .|.|"
    error = error_of("\n".join(cut))
    assert (error.line, error.column) == (2, 18) and "cannot be reached" in error.message


def test_tile_layout_errors_are_located() -> None:
    """Board files name "4 tuiles Circuit imprimé", each tile once, turned a quarter at a time."""
    good = "top-left 1A 0\ntop-right 2A 90\nbottom-left 3B 180\nbottom-right 4A 270\n"
    assert isinstance(parse_board(good, path="my-board.txt"), Board)
    cases = [
        ("top-left 1A\n", 1, 1, "position tile rotation"),
        ("  middle 1A 0\n", 1, 3, "unknown position"),
        ("top-left 1A 0\ntop-left 2A 0\n", 2, 1, "given twice"),
        ("top-left 9Z 0\n", 1, 10, "unknown tile face"),
        ("top-left 1A 0\ntop-right 1B 0\n", 2, 11, "already placed"),
        ("top-left 1A 45\n", 1, 13, "rotation"),
        ("top-left 1A 0\ntop-right 2A 0\n", 3, 0, "bottom-left, bottom-right"),
    ]
    for text, line, column, words in cases:
        error = error_of(text)
        assert (error.line, error.column) == (line, column), (text, error)
        assert words in error.message


def test_tile_errors_name_the_tile_file() -> None:
    """A transcribed tile is checked like a board, and must be square."""
    with pytest.raises(BoardError) as info:
        parse_tile("+-+-+-+\n|. . .|\n+ + + +\n|. ? .|\n+-+-+-+\n", path="tiles/5A.txt")
    assert (info.value.path, info.value.line, info.value.column) == ("tiles/5A.txt", 4, 4)
    with pytest.raises(BoardError) as info:
        parse_tile("+-+-+-+\n|. . .|\n+ + + +\n|. . .|\n+-+-+-+\n", path="tiles/5A.txt")
    assert "square" in info.value.message
    small = "+-+-+\n|o *|\n+ + +\n|. .|\n+-+-+\n"
    tiles = dict(shipped_tiles())
    tiles["1A"] = parse_tile(small, "tiles/1A.txt", "1A")
    with pytest.raises(BoardError) as info:
        parse_board("top-left 1A 0\ntop-right 2A 0\nbottom-left 3A 0\nbottom-right 4A 0\n", path="b.txt", tiles=tiles)
    assert (info.value.line, "same size" in info.value.message) == (2, True)


def test_options_carry_the_board_so_a_save_replays_on_it() -> None:
    """The board is in the options: a saved game replays on the board it was played on."""
    options = PixoidOptions.with_board("flipside")
    assert options.board == load_board("flipside").text
    assert PixoidOptions().board == load_board("classic").text
    game = PixoidGame(options, seed=4)
    assert game.board == load_board("flipside")
    data = json.loads(game.dumps())
    assert data["options"]["board"].startswith("# flipside\n+-+")
    assert load_game(data).board == load_board("flipside")
    with pytest.raises(OptionsError) as info:
        PixoidOptions.from_dict({"board": "top-left 1A 0\n"})
    assert "cannot be used" in str(info.value)
    with pytest.raises(OptionsError):
        PixoidOptions.from_dict({"players": 5})
    with pytest.raises(BoardError) as unknown:
        load_board("no-such-board")
    assert "classic" in str(unknown.value)
