"""Seat names: a PuXes game names its players in its events, its drawing and its refusals, never in its state.

The names are presentation only. Without them every text is the one the golden files hold ("player
N", the rulebook's word); with them each "player N" becomes the player's name, and the state, the
save and equality are untouched.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from controller.engines import CHANCE, RuleError, load_game
from controller.engines.core import Game
from controller.engines.golden import playthrough
from controller.engines.pixoid import PixoidGame
from controller.engines.puxes import PuxesGame
from controller.engines.puxes.actions import EndTurn, Move, Outcome, Roll

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"
NAMES = ("Ada", "Brice", "Chloé", "Dee")
SCENARIOS = [pytest.param(stem, dict(options), seed, policy, id=stem)
             for stem, options, seed, policy in PuxesGame.GOLDEN_SCENARIOS]


def _game(options: dict, seed: int) -> PuxesGame:
    return PuxesGame(PuxesGame.OPTIONS.from_dict(options), seed=seed)


def _named(line: str, names: tuple[str, ...]) -> str:
    """A golden text line as it reads once the seats are named ``names``."""
    line = re.sub(r"\bplayers ((?:\d+, )*\d+) tie",
                  lambda m: " and ".join(names[int(s)] for s in m.group(1).split(", ")) + " tie", line)
    line = re.sub(r"^winners: \[([\d, ]*)\]$",
                  lambda m: "winners: [" + ", ".join(names[int(s)] for s in m.group(1).split(", ")) + "]", line)
    line = re.sub(r"(is eliminated: (?:all )?)its (.*) and it can", r"\1their \2 and they can", line)
    line = re.sub(r"(is eliminated: (?:all )?)its ", r"\1their ", line)
    return re.sub(r"\bplayer (\d+)", lambda m: names[int(m.group(1))], line)


def _ready() -> PuxesGame:
    """A two-player game past its set-up and first roll: player 0 (Oni, pi, pi, pi) to play."""
    game = PuxesGame(seed=0)
    while game.queue[0]["kind"] == "place":
        player = game.current_players()[0]
        game.apply(player, next(a for a in game.legal_actions(player) if game.collection.is_symbol(a.face)))
    game.apply(CHANCE, Roll(("Oni", "pi", "pi", "pi")))
    game.apply(CHANCE, Roll(("pi",) * 4))
    return game


@pytest.mark.parametrize(("stem", "options", "seed", "policy"), SCENARIOS)
def test_without_names_the_texts_are_the_golden_ones(stem: str, options: dict, seed: int, policy: int) -> None:
    """Naming then un-naming a game gives its golden file byte for byte: the default stays "player N"."""
    game = _game(options, seed)
    game.name_seats(NAMES[: game.num_players])
    game.name_seats(None)
    assert game.seat_names == () and game.seat_label(1) == "player 1"
    assert playthrough(game, policy) == (GOLDEN_DIR / f"puxes-{stem}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(("stem", "options", "seed", "policy"), SCENARIOS)
def test_with_names_every_text_names_the_player_and_the_state_is_unchanged(
        stem: str, options: dict, seed: int, policy: int) -> None:
    """A whole game: each event and drawing line is the golden one with the names in place of "player N"
    (ties, eliminations, blitz takeovers and the winners included); the state JSON and the actions are
    identical, and no seat number is left in the texts."""
    golden = (GOLDEN_DIR / f"puxes-{stem}.txt").read_text(encoding="utf-8").splitlines()
    game = _game(options, seed)
    names = NAMES[: game.num_players]
    game.name_seats(names)
    named = playthrough(game, policy).splitlines()
    assert len(named) == len(golden)
    changed = 0
    for mine, theirs in zip(named, golden):
        if theirs.startswith(("json: ", "action: ")):
            assert mine == theirs
        else:
            assert mine == _named(theirs, names)
            changed += mine != theirs
    assert changed > 50
    texts = [line for line in named if not line.startswith(("json: ", "action: "))]
    assert not [line for line in texts if re.search(r"\bplayers? \d", line)]
    assert any(line.startswith(f"{names[0]} heroes [") for line in texts)
    assert any(re.fullmatch(r"event: game-over: (Ada|Brice|Chloé|Dee) wins: gardien de la Terre", line)
               for line in texts)


def test_the_golden_games_name_ties_takeovers_and_winners() -> None:
    """The four-player blitz game, named: the texts that list several seats read as sentences."""
    game = _game({"players": 4, "mode": "blitz"}, 5)
    game.name_seats(NAMES)
    lines = playthrough(game, 3).splitlines()
    assert "event: roll-again: Ada and Chloé tie with 2 characters and roll again" in lines
    assert "event: takeover: blitz: Brice takes control of oracles 32, 33, 34, 35" in lines
    assert "event: dixe: temple 3 of Dee is DiXé by oracle 13 of Brice" in lines
    assert "event: eliminated: Dee is eliminated: their temple is DiXé" in lines
    assert any(re.fullmatch(r"winners: \[(Ada|Brice|Chloé|Dee)\]", line) for line in lines)


def test_the_prompt_the_drawing_and_the_events_of_a_turn() -> None:
    plain, named = _ready(), _ready()
    named.name_seats(["Ada", "Brice"])
    assert plain.waiting_for() == "player 0 to play" and named.waiting_for() == "Ada to play"
    assert "temple 1 (player 1) at (750, 300) standing lives=1" in plain.render().splitlines()
    assert "temple 1 (Brice) at (750, 300) standing lives=1" in named.render().splitlines()
    assert named.view(0)["waiting_for"] == "Ada to play"
    outcome = Outcome(moved=((2, 400.0, 300.0, 0.0, "pi"),))
    texts = [[e.text for e in g.apply(0, Move(2)) + g.apply(CHANCE, outcome)] for g in (plain, named)]
    assert texts[0] == ["player 0 flicks oracle 2 (pi)", "oracle 2 moved to (400, 300) mm showing pi",
                        "player 0 has nothing left to do", "turn 2: player 1 plays"]
    assert texts[1] == ["Ada flicks oracle 2 (pi)", "oracle 2 moved to (400, 300) mm showing pi",
                        "Ada has nothing left to do", "turn 2: Brice plays"]
    assert named.waiting_for() == "the roll of Brice's heroes"
    assert named.state_dict() == plain.state_dict() and named == plain


def test_a_seat_acting_out_of_turn_is_refused_by_name() -> None:
    """Without names the refusal is word for word the shared engine's; with names it names both seats."""
    plain, named = _ready(), _ready()
    named.name_seats(["Ada", "Brice"])
    with pytest.raises(RuleError) as shared:
        Game.check(plain, 1, EndTurn())
    with pytest.raises(RuleError) as mine:
        plain.apply(1, EndTurn())
    assert mine.value.rule == shared.value.rule == "turn-order"
    assert mine.value.reason == shared.value.reason == "player 1 is not expected to act now (waiting for: 0)"
    with pytest.raises(RuleError) as refused:
        named.apply(1, EndTurn())
    assert refused.value.rule == "turn-order"
    assert refused.value.reason == "Brice is not expected to act now (waiting for: Ada)"
    assert named == plain                         # the refusal changed nothing
    plain.over = named.over = True
    for game in (plain, named):
        with pytest.raises(RuleError, match="the game is over"):
            game.apply(1, EndTurn())


def test_partly_named_and_blank_names_fall_back_to_the_seat_number() -> None:
    game = PuxesGame({"players": 3})
    game.name_seats(["Ada", "  "])
    assert [game.seat_label(s) for s in range(3)] == ["Ada", "player 1", "player 2"]
    assert [game.seat_ref(s) for s in range(3)] == ["Ada", "1", "2"]
    assert game.seats_phrase([0, 1]) == "Ada and player 1"
    assert game.seats_phrase([1, 2]) == "players 1, 2"
    assert game.seat_ref(CHANCE) == str(CHANCE)
    assert PixoidGame({"players": 3}).seat_label(1) == "seat 1"    # the shared default is unchanged


def test_clone_keeps_the_names_and_the_save_leaves_them_out() -> None:
    game, plain = _ready(), _ready()
    game.name_seats(["Ada", "Brice"])
    copy = game.clone()
    assert copy.seat_names == ("Ada", "Brice") and copy.render() == game.render()
    copy.name_seats(["Zoé"])
    assert game.seat_label(0) == "Ada" and copy.seat_label(0) == "Zoé" and copy.seat_label(1) == "player 1"
    assert game.save() == plain.save() and game.dumps() == plain.dumps()
    assert "Ada" not in game.dumps() and "Ada" not in json.dumps(game.state_dict())
    loaded = load_game(game.dumps())
    assert loaded.seat_names == () and loaded.render() == plain.render() and loaded == game
