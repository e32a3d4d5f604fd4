"""Seat names: a PuXes game names its players by name and colour in its events, its drawing and its
refusals, never in its state.

The names are presentation only. Without them every text names a seat by its colour ("Red", as the
golden files hold); with them "Red" becomes "Ada (red)", and the state, the save and equality are
untouched. No text ever names a seat by its number.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from controller.engines import CHANCE, RuleError, load_game
from controller.engines.core import Game
from controller.engines.golden import playthrough
from controller.engines.puxes import PuxesGame
from controller.engines.puxes.actions import EndTurn, Move, Outcome, Roll

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"
NAMES = ("Ada", "Brice", "Chloé", "Dee")
COLOURS = ("red", "blue", "green", "yellow")
SCENARIOS = [pytest.param(stem, dict(options), seed, policy, id=stem)
             for stem, options, seed, policy in PuxesGame.GOLDEN_SCENARIOS]
#: What no text a player reads may hold: a seat or player number, an engine list.
SEAT_NUMBER = re.compile(r"\b(?:[Pp]layers?|[Ss]eats?) \d|\[\d")


def _game(options: dict, seed: int) -> PuxesGame:
    return PuxesGame(PuxesGame.OPTIONS.from_dict(options), seed=seed)


def _named(line: str, names: tuple[str, ...]) -> str:
    """A golden text line as it reads once the seats are named ``names``: "Red" becomes "Ada (red)"."""
    return re.sub(r"\b(Red|Blue|Green|Yellow)\b",
                  lambda m: f"{names[COLOURS.index(m.group(1).lower())]} ({m.group(1).lower()})", line)


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
    """Naming then un-naming a game gives its golden file byte for byte: the default is the seat's colour."""
    game = _game(options, seed)
    game.name_seats(NAMES[: game.num_players])
    game.name_seats(None)
    assert game.seat_names == () and game.seat_label(1) == "Blue"
    assert playthrough(game, policy) == (GOLDEN_DIR / f"puxes-{stem}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(("stem", "options", "seed", "policy"), SCENARIOS)
def test_with_names_every_text_names_the_player_and_the_state_is_unchanged(
        stem: str, options: dict, seed: int, policy: int) -> None:
    """A whole game: each event and drawing line is the golden one with "Ada (red)" in place of "Red"
    (ties, eliminations, blitz takeovers and the winners included); the state JSON and the actions are
    identical, and no seat number or engine list is left in the texts."""
    golden = (GOLDEN_DIR / f"puxes-{stem}.txt").read_text(encoding="utf-8").splitlines()
    game = _game(options, seed)
    names = NAMES[: game.num_players]
    game.name_seats(names)
    named = playthrough(game, policy).splitlines()
    assert len(named) == len(golden)
    changed = 0
    for mine, theirs in zip(named, golden):
        if theirs.startswith(("json: ", "action: ", "scores: ")):
            assert mine == theirs
        else:
            assert mine == _named(theirs, names)
            changed += mine != theirs
    assert changed > 50
    texts = [line for line in named if line.startswith(("event: ", "PuXes", "Winner", "  ")) or
             any(line.startswith(f"{n} (") for n in names)]
    assert not [line for line in texts if SEAT_NUMBER.search(line)]
    assert any(line.startswith(f"{names[0]} (red): temple") for line in texts)
    assert any(re.fullmatch(r"event: game-over: (Ada \(red\)|Brice \(blue\)|Chloé \(green\)|Dee \(yellow\)) wins and "
                            r"becomes the guardian of the Earth\.", line) for line in texts)


def test_the_golden_games_name_ties_takeovers_and_winners() -> None:
    """The four-player blitz game, named: the texts that list several seats or dice read as sentences."""
    game = _game({"players": 4, "mode": "blitz"}, 5)
    game.name_seats(NAMES)
    lines = playthrough(game, 3).splitlines()
    assert "event: roll-again: Ada (red) and Chloé (green) tie with 2 characters each and roll again." in lines
    assert ("event: takeover: Blitz: Brice (blue) takes control of the Hanuman oracle of Dee (yellow), the pirate "
            "oracle of Dee (yellow), the smiley oracle of Dee (yellow) and the Arkan Sonney oracle of Dee (yellow).") in lines
    assert "event: dixe: The temple of Dee (yellow) is DiXé by the pirate oracle of Brice (blue)." in lines
    assert "event: eliminated: Dee (yellow) is eliminated: their temple is DiXé." in lines
    assert any(re.fullmatch(r"Winner: (Ada \(red\)|Brice \(blue\)|Chloé \(green\)|Dee \(yellow\))\.", line)
               for line in lines)


def test_the_prompt_the_drawing_and_the_events_of_a_turn() -> None:
    plain, named = _ready(), _ready()
    named.name_seats(["Ada", "Brice"])
    assert plain.waiting_for() == "Red to play" and named.waiting_for() == "Ada (red) to play"
    assert "Red: temple standing; heroes showing Oni, pi, pi and pi." in plain.render().splitlines()
    assert "Brice (blue): temple standing; heroes not rolled." in named.render().splitlines()
    assert named.view(0)["waiting_for"] == "Ada (red) to play"
    outcome = Outcome(moved=((2, 400.0, 300.0, 0.0, "pi"),))
    texts = [[e.text for e in g.apply(0, Move(2)) + g.apply(CHANCE, outcome)] for g in (plain, named)]
    assert texts[0] == ["Red flicks their pi oracle.", "The pi oracle of Red moved to (400, 300) mm and shows pi.",
                        "Red has nothing left to do this turn.", "Turn 2: Blue plays."]
    assert texts[1] == ["Ada (red) flicks their pi oracle.",
                        "The pi oracle of Ada (red) moved to (400, 300) mm and shows pi.",
                        "Ada (red) has nothing left to do this turn.", "Turn 2: Brice (blue) plays."]
    assert named.waiting_for() == "Brice (blue) to roll their heroes"
    assert named.state_dict() == plain.state_dict() and named == plain


def test_a_seat_acting_out_of_turn_is_refused_by_name_and_colour() -> None:
    """The refusal names both seats as every other text does, and in the reader's language."""
    plain, named = _ready(), _ready()
    named.name_seats(["Ada", "Brice"])
    with pytest.raises(RuleError) as mine:
        plain.apply(1, EndTurn())
    assert mine.value.rule == "turn-order"
    assert mine.value.reason == "Blue is not expected to act now (waiting for Red)"
    with pytest.raises(RuleError) as refused:
        named.apply(1, EndTurn())
    assert refused.value.rule == "turn-order"
    assert refused.value.reason == "Brice (blue) is not expected to act now (waiting for Ada (red))"
    assert refused.value.in_language("fr") == "Ce n'est pas à Brice (bleu) d'agir maintenant (on attend Ada (rouge))"
    assert named == plain                         # the refusal changed nothing
    plain.over = named.over = True
    for game in (plain, named):
        with pytest.raises(RuleError, match="the game is over"):
            game.apply(1, EndTurn())


def test_partly_named_and_blank_names_fall_back_to_the_colour() -> None:
    game = PuxesGame({"players": 3})
    game.name_seats(["Ada", "  "])
    assert [game.seat_label(s) for s in range(3)] == ["Ada (red)", "Blue", "Green"]
    assert [game.seat_ref(s) for s in range(3)] == ["Ada (red)", "Blue", "Green"]
    assert Game.seat_label(game, 1) == "player 1"     # the shared default is not what PuXes says


def test_clone_keeps_the_names_and_the_save_leaves_them_out() -> None:
    game, plain = _ready(), _ready()
    game.name_seats(["Ada", "Brice"])
    copy = game.clone()
    assert copy.seat_names == ("Ada", "Brice") and copy.render() == game.render()
    copy.name_seats(["Zoé"])
    assert game.seat_label(0) == "Ada (red)" and copy.seat_label(0) == "Zoé (red)" and copy.seat_label(1) == "Blue"
    assert game.save() == plain.save() and game.dumps() == plain.dumps()
    assert "Ada" not in game.dumps() and "Ada" not in json.dumps(game.state_dict())
    loaded = load_game(game.dumps())
    assert loaded.seat_names == () and loaded.render() == plain.render() and loaded == game
    assert "Zoé (red)" in copy.render() and "Zoé" not in game.render()
