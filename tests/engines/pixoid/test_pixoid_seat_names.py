"""Seat names: a Pixoid game names its players by name and colour in its texts and drawing, never in
its state.

The names are presentation only. Without them a player is named by colour ("Red"), the texts the
golden files hold; with them by name and colour ("Ada (red)"); the state, the save and equality are
untouched either way.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pixoid_scenarios import new_game as lanes_game
from pixoid_scenarios import place, turn

from controller.engines import EngineError, load_game
from controller.engines.golden import playthrough
from controller.engines.pixoid import PixoidGame, Place, Program

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "pixoid-3-players.txt"
NAMES = ("Ada", "Brice", "Chloé")
#: How a named game names each player that an unnamed one names by colour alone.
NAMED = {"Red": "Ada (red)", "Blue": "Brice (blue)", "Green": "Chloé (green)"}
UNNAMED = re.compile(r"\b(Red|Blue|Green)\b")


def _golden_game() -> PixoidGame:
    return PixoidGame({"players": 3}, seed=2)


def _named(text: str) -> str:
    """A golden line with each player named as a named game names them: "Red" becomes "Ada (red)"."""
    return UNNAMED.sub(lambda m: NAMED[m.group(1)], text)


def test_without_names_the_texts_are_the_golden_ones() -> None:
    """Naming then un-naming a game, or never naming it, gives the golden file byte for byte."""
    game = _golden_game()
    game.name_seats(NAMES)
    game.name_seats(None)
    assert game.seat_names == () and game.seat_label(1) == "Blue"
    assert playthrough(game, 12) == GOLDEN.read_text(encoding="utf-8")


def test_with_names_every_event_names_the_player_and_the_state_is_unchanged() -> None:
    """A whole 3-player game (role changes and the final win included): each event text is the
    golden one with each colour-named player named by name and colour; the state JSON and the
    actions are identical."""
    golden = GOLDEN.read_text(encoding="utf-8").splitlines()
    game = _golden_game()
    game.name_seats(NAMES)
    named = playthrough(game, 12).splitlines()
    assert len(named) == len(golden)
    events = 0
    for mine, theirs in zip(named, golden):
        if theirs.startswith(("json: ", "action: ")):
            assert mine == theirs
        elif theirs.startswith("event: "):
            events += 1
            assert mine == _named(theirs)
    assert events > 100
    text = "\n".join(line for line in named if not line.startswith(("json: ", "action: ")))
    assert not re.search(r"\bseat \d|\bpiece \d", text)
    assert "event: role-change: Brice (blue) becomes Pixoid; Ada (red) becomes a Bug" in named
    assert "event: placed: Ada (red) places Pixoid on the start Pix b11" in named
    assert "event: placed: Brice (blue) places the yellow Bug on the start Pix b2" in named
    assert ("event: game-over: the game is over: Ada (red), Brice (blue) and Chloé (green) share the victory "
            "with 12 points each") in named
    assert "  winners: Ada (red), Brice (blue) and Chloé (green)" in named


def test_render_and_lock_texts_with_and_without_names() -> None:
    """The drawing's piece lines, lock status and scores name the players when names are set."""
    plain, named = lanes_game(), lanes_game()
    named.name_seats(["Ada", "Brice", "Chloé", "Dee"])
    assert "  to place now: Pixoid, by Red" in plain.render().splitlines()
    assert "  to place now: Pixoid, by Ada (red)" in named.render().splitlines()
    for game in (plain, named):
        place(game)
        turn(game, {0: ("down", 1), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    assert named.apply(1, Program(1, "down", 1))[0].text == "Brice (blue) has locked in"
    assert plain.apply(1, Program(1, "down", 1))[0].text == "Blue has locked in"

    lines = plain.render().splitlines()
    assert "  R: Pixoid, played by Red, on a2" in lines and "  y: the yellow Bug, played by Yellow, on h5" in lines
    assert "  locked in: Blue; still programming: Red, Green and Yellow" in lines
    assert "  scores: Red 0, Blue 0, Green 0 and Yellow 0" in lines

    lines = named.render().splitlines()
    assert "  R: Pixoid, played by Ada (red), on a2" in lines
    assert "  y: the yellow Bug, played by Dee (yellow), on h5" in lines
    assert "  locked in: Brice (blue); still programming: Ada (red), Chloé (green) and Dee (yellow)" in lines
    assert "  scores: Ada (red) 0, Brice (blue) 0, Chloé (green) 0 and Dee (yellow) 0" in lines
    assert named.render().count("\n") == plain.render().count("\n")
    assert named.state_dict() == plain.state_dict() and named == plain


def test_placed_event_names_the_player() -> None:
    plain, named = lanes_game(), lanes_game()
    named.name_seats(["Ada", "Brice", "Chloé", "Dee"])
    assert plain.apply(0, Place(0, (0, 0)))[0].text == "Red places Pixoid on the start Pix a1"
    placed = named.apply(0, Place(0, (0, 0)))[0]
    assert placed.text == "Ada (red) places Pixoid on the start Pix a1"
    assert placed.in_language("fr") == "Ada (rouge) place Pixoid sur le Pix de départ a1"


def test_clone_keeps_the_names_and_the_save_leaves_them_out() -> None:
    game = lanes_game()
    game.name_seats(["Ada", "Brice", "Chloé", "Dee"])
    place(game)
    copy = game.clone()
    assert copy.seat_names == game.seat_names and copy.seat_label(2) == "Chloé (green)"
    assert copy.render() == game.render()
    copy.name_seats(["Zoé"])
    assert game.seat_label(0) == "Ada (red)" and copy.seat_label(0) == "Zoé (red)" and copy.seat_label(1) == "Blue"

    plain = lanes_game()
    place(plain)
    assert game.save() == plain.save() and game.dumps() == plain.dumps()
    assert "Ada" not in game.dumps()
    loaded = load_game(game.dumps())
    assert loaded.seat_names == () and "played by Red" in loaded.render() and "Ada" not in loaded.render()
    assert loaded == game


def test_bad_names_are_refused_and_blank_ones_fall_back() -> None:
    game = lanes_game(players=3)
    with pytest.raises(EngineError, match="4 seat names are given but pixoid has 3 seats"):
        game.name_seats(["A", "B", "C", "D"])
    with pytest.raises(EngineError, match="must be text"):
        game.name_seats(["A", 2])
    assert game.seat_names == ()
    game.name_seats(["Ada", "  "])
    assert [game.seat_label(s) for s in range(3)] == ["Ada (red)", "Blue", "Green"]
    assert json.dumps(game.state_dict()) == json.dumps(lanes_game(players=3).state_dict())
