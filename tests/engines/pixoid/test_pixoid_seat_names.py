"""Seat names: a Pixoid game shows the players' names in its texts and drawing, never in its state.

The names are presentation only. Without them every text is the one the golden files hold; with
them each "seat N" becomes the player's name, and the state, the save and equality are untouched.
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


def _golden_game() -> PixoidGame:
    return PixoidGame({"players": 3}, seed=2)


def _named(text: str, names: tuple[str, ...] = NAMES) -> str:
    return re.sub(r"seat (\d)", lambda m: names[int(m.group(1))], text)


def test_without_names_the_texts_are_the_golden_ones() -> None:
    """Naming then un-naming a game, or never naming it, gives the golden file byte for byte."""
    game = _golden_game()
    game.name_seats(NAMES)
    game.name_seats(None)
    assert game.seat_names == () and game.seat_label(1) == "seat 1"
    assert playthrough(game, 12) == GOLDEN.read_text(encoding="utf-8")


def test_with_names_every_event_names_the_player_and_the_state_is_unchanged() -> None:
    """A whole 3-player game (role changes and the final win included): each event text is the
    golden one with "seat N" replaced by the name; the state JSON and the actions are identical."""
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
    assert "seat" not in text
    assert "event: role-change: Brice becomes Pixoid; Ada becomes a Bug" in named
    assert "event: placed: Pixoid 0 (Ada) starts on b11" in named
    assert "event: game-over: the game is over: Ada and Brice and Chloé win" in named
    assert "  winners: Ada, Brice, Chloé" in named


def test_render_and_lock_texts_with_and_without_names() -> None:
    """The drawing's piece lines, lock status and scores name the players when names are set."""
    plain, named = lanes_game(), lanes_game()
    named.name_seats(["Ada", "Brice", "Chloé", "Dee"])
    assert "  placing: piece 0 (seat 0)" in plain.render()
    assert "  placing: piece 0 (Ada)" in named.render()
    for game in (plain, named):
        place(game)
        turn(game, {0: ("down", 1), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    assert named.apply(1, Program(1, "down", 1))[0].text == "Brice has locked in"
    assert plain.apply(1, Program(1, "down", 1))[0].text == "seat 1 has locked in"

    lines = plain.render().splitlines()
    assert "  piece 0: Pixoid seat 0  a2" in lines and "  piece 3: Bug    seat 3  h5" in lines
    assert "  programs: seat 0 waiting, seat 1 locked, seat 2 waiting, seat 3 waiting" in lines
    assert "  scores: 0 0 0 0" in lines

    lines = named.render().splitlines()
    assert "  piece 0: Pixoid Ada    a2" in lines and "  piece 3: Bug    Dee    h5" in lines
    assert "  programs: Ada waiting, Brice locked, Chloé waiting, Dee waiting" in lines
    assert "  scores: Ada 0, Brice 0, Chloé 0, Dee 0" in lines
    assert named.render().count("\n") == plain.render().count("\n")
    assert named.state_dict() == plain.state_dict() and named == plain


def test_placed_event_names_the_player() -> None:
    plain, named = lanes_game(), lanes_game()
    named.name_seats(["Ada", "Brice", "Chloé", "Dee"])
    assert plain.apply(0, Place(0, (0, 0)))[0].text == "Pixoid 0 (seat 0) starts on a1"
    assert named.apply(0, Place(0, (0, 0)))[0].text == "Pixoid 0 (Ada) starts on a1"


def test_clone_keeps_the_names_and_the_save_leaves_them_out() -> None:
    game = lanes_game()
    game.name_seats(["Ada", "Brice", "Chloé", "Dee"])
    place(game)
    copy = game.clone()
    assert copy.seat_names == game.seat_names and copy.seat_label(2) == "Chloé"
    assert copy.render() == game.render()
    copy.name_seats(["Zoé"])
    assert game.seat_label(0) == "Ada" and copy.seat_label(0) == "Zoé" and copy.seat_label(1) == "seat 1"

    plain = lanes_game()
    place(plain)
    assert game.save() == plain.save() and game.dumps() == plain.dumps()
    assert "Ada" not in game.dumps()
    loaded = load_game(game.dumps())
    assert loaded.seat_names == () and "seat 0" in loaded.render() and "Ada" not in loaded.render()
    assert loaded == game


def test_bad_names_are_refused_and_blank_ones_fall_back() -> None:
    game = lanes_game(players=3)
    with pytest.raises(EngineError, match="4 seat names are given but pixoid has 3 seats"):
        game.name_seats(["A", "B", "C", "D"])
    with pytest.raises(EngineError, match="must be text"):
        game.name_seats(["A", 2])
    assert game.seat_names == ()
    game.name_seats(["Ada", "  "])
    assert [game.seat_label(s) for s in range(3)] == ["Ada", "seat 1", "seat 2"]
    assert json.dumps(game.state_dict()) == json.dumps(lanes_game(players=3).state_dict())
