"""Pixoid in the players' words: every event and refusal is a message said in English and French,
naming the players by name and colour and listing them naturally, never by seat or piece number.

A seeded game is played to its end through the checked path; each event, and the drawing at every
step, is said in both languages. Each refusal of the rules is provoked once and said in both.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from pixoid_scenarios import new_game as lanes_game
from pixoid_scenarios import place, turn

from controller import i18n
from controller.engines import RuleError
from controller.engines.pixoid import PixoidBot, PixoidGame, Place, Program
from controller.engines.pixoid.render import render_ansi, render_text

#: What no player should ever read: a seat or a piece by its number.
NUMBERED = re.compile(r"\b(seat|piece|player) \d", re.IGNORECASE)
#: A placeholder left unfilled, or a message printed raw.
RAW = re.compile(r"[{}]|'msg'")
NAMES = ("Ada", "Brice", "Chloé", "Dee")


def _play(game: PixoidGame, seed: int) -> list[Any]:
    """The game played to its end by seeded bots through the checked path; every event, with the
    drawing after each action, in both languages."""
    bots = {seat: PixoidBot(seed + seat) for seat in range(game.num_players)}
    events = []
    for _ in range(2000):
        if game.is_over():
            return events
        seat = game.current_players()[0]
        events.extend(game.apply(seat, bots[seat].choose(game, seat)))
        for lang in i18n.LANGUAGES:
            _readable(render_text(game, lang), lang)
    raise AssertionError("the game did not end")


def _readable(text: str, lang: str) -> None:
    assert not NUMBERED.search(text), f"[{lang}] a seat or piece by number: {text}"
    assert not RAW.search(text), f"[{lang}] an unfilled placeholder: {text}"


@pytest.mark.parametrize("options, seed", [({"players": 4}, 1), ({"players": 3}, 2), ({"players": 4, "short_game": True}, 3),
                                           ({"players": 3, "short_game": True}, 4)])
@pytest.mark.parametrize("named", [True, False], ids=["named", "unnamed"])
def test_every_event_of_a_game_is_said_in_english_and_in_french(options: dict, seed: int, named: bool) -> None:
    game = PixoidGame(options, seed=seed)
    if named:
        game.name_seats(NAMES[: game.num_players])
    events = _play(game, seed)
    kinds = {e.kind for e in events}
    assert {"placed", "locked", "revealed", "moved", "round-over", "game-over"} <= kinds
    for event in events:
        assert event.message is not None, f"{event.kind} has no message: {event.text}"
        assert event.to_json()["message"] == event.message
        english, french = i18n.said(event.message, "en"), event.in_language("fr")
        assert english == event.text
        assert french != english, f"{event.kind} is not said in French: {english}"
        for lang, text in (("en", english), ("fr", french)):
            _readable(text, lang)
        if named:
            assert not re.search(r"\b(Red|Blue|Green|Yellow|Rouge|Bleu|Vert|Jaune)\b", english + french), english
    said = {e.kind: e.in_language("fr") for e in events}
    assert said["revealed"].startswith("programmations révélées : ")
    assert " Pix vers " in said["revealed"] and " et " in said["revealed"]


def test_the_winners_are_listed_naturally_in_each_language() -> None:
    """The 3-player golden game ends in a three-way tie: the winners are one natural list."""
    game = PixoidGame({"players": 3}, seed=2)
    game.name_seats(NAMES[:3])
    rng = random.Random(12)
    events = []
    while not game.is_over():
        seat = game.current_players()[0]
        actions = game.legal_actions(seat)
        events.extend(game.apply(seat, actions[rng.randrange(len(actions))]))
    over = events[-1]
    assert over.kind == "game-over" and over.data["winners"] == [0, 1, 2]
    assert over.text == ("the game is over: Ada (red), Brice (blue) and Chloé (green) share the victory with "
                         "12 points each")
    assert over.in_language("fr") == ("la partie est terminée : Ada (rouge), Brice (bleu) et Chloé (vert) se "
                                      "partagent la victoire avec 12 points chacun")
    assert "  winners: Ada (red), Brice (blue) and Chloé (green)" in render_text(game).splitlines()
    assert "  gagnants : Ada (rouge), Brice (bleu) et Chloé (vert)" in render_text(game, "fr").splitlines()
    assert "  scores : Ada (rouge) 12, Brice (bleu) 12 et Chloé (vert) 12" in render_ansi(game, "fr").splitlines()


def test_a_lone_winner_and_the_short_game_are_said_in_each_language() -> None:
    game = lanes_game(short_game=True)
    game.name_seats(NAMES)
    place(game)
    events = turn(game, {0: ("right", 1), 1: ("left", 9), 2: ("up", 1), 3: ("left", 1)})
    assert [e.kind for e in events][-3:] == ["captured", "round-over", "game-over"]
    captured, ended, over = events[-3:]
    assert captured.text == "Pixoid is caught on b1 by the blue Bug"
    assert captured.in_language("fr") == "Pixoid est attrapé en b1 par le Bug bleu"
    moved = [e for e in events if e.kind == "moved"]
    assert moved[1].text == "Brice (blue) moves the blue Bug from i1 to b1"
    assert moved[1].in_language("fr") == "Brice (bleu) déplace le Bug bleu de i1 à b1"
    assert ended.in_language("fr") == "la partie courte s'arrête : Pixoid est attrapé et les Bugs remportent la victoire"
    assert over.text == "the game is over: Brice (blue), Chloé (green) and Dee (yellow) share the victory"
    assert over.in_language("fr") == "la partie est terminée : Brice (bleu), Chloé (vert) et Dee (jaune) se partagent la victoire"


def placed_game(players: int = 4) -> PixoidGame:
    """Named players on the lanes board, pieces on a1 (Pixoid), i1, a5 and i5."""
    game = lanes_game(players=players)
    game.name_seats(NAMES[:players])
    place(game)
    return game


def _refusal(game: PixoidGame, seat: int, action: Any) -> RuleError:
    with pytest.raises(RuleError) as info:
        game.apply(seat, action)
    return info.value


def _refusals() -> dict[str, RuleError]:
    """One refusal of each rule Pixoid names."""
    found: dict[str, RuleError] = {}

    def keep(error: RuleError) -> None:
        found.setdefault(error.rule, error)

    game = lanes_game()
    game.name_seats(NAMES)
    keep(_refusal(game, 1, Place(1, (0, 8))))                 # turn-order
    keep(_refusal(game, 0, Place(1, (0, 8))))                 # placement-order
    keep(_refusal(game, 0, Place(0, (2, 2))))                 # start-pix (not a start Pix)
    keep(_refusal(game, 0, Place(0, (40, 2))))                # start-pix (off the board)
    keep(_refusal(game, 0, Program(0, "up", 1)))              # placement-phase
    keep(_refusal(game, 0, object()))                         # legal-action
    game.apply(0, Place(0, (0, 0)))
    keep(_refusal(game, 1, Place(1, (0, 0))))                 # start-pix-taken
    game = placed_game()
    keep(_refusal(game, 0, Place(0, (0, 0))))                 # programming-phase
    keep(_refusal(game, 0, Program(1, "down", 1)))            # not-your-piece
    keep(_refusal(game, 0, Program(0, "up-right", 2)))        # no-diagonal
    keep(_refusal(game, 0, Program(0, "north", 2)))           # direction-name
    keep(_refusal(game, 0, Program(0, "down", 0)))            # distance-range
    keep(_refusal(game, 0, Program(0, "up", 3)))              # wall-ahead
    game.apply(0, Program(0, "down", 1))
    keep(_refusal(game, 0, Program(0, "down", 1)))            # already-programmed (the seat has locked in)
    three = placed_game(players=3)
    three.apply(1, Program(1, "down", 1))
    keep(_refusal(three, 1, Program(1, "down", 1)))           # already-programmed, the seat still owing
    over = lanes_game(short_game=True)
    place(over)
    turn(over, {0: ("right", 1), 1: ("left", 9), 2: ("up", 1), 3: ("left", 1)})
    keep(_refusal(over, 0, Program(0, "down", 1)))            # game-over
    return found


def test_every_refusal_is_said_in_english_and_in_french() -> None:
    refusals = _refusals()
    assert set(refusals) == {
        "turn-order", "placement-order", "start-pix", "placement-phase", "legal-action", "start-pix-taken",
        "programming-phase", "not-your-piece", "no-diagonal", "direction-name", "distance-range", "wall-ahead",
        "already-programmed", "game-over",
    }
    for rule, error in refusals.items():
        assert error.words is not None, f"{rule} is not a message: {error.reason}"
        english, french = error.in_language("en"), error.in_language("fr")
        assert english == error.reason and str(error).startswith(english)
        assert french != english, f"{rule} is not said in French: {english}"
        for lang, text in (("en", english), ("fr", french)):
            _readable(text, lang)
    assert refusals["turn-order"].reason == "Brice (blue) is not expected to act now (waiting for: Ada (red))"
    assert refusals["turn-order"].in_language("fr") == "ce n'est pas à Brice (bleu) de jouer maintenant (on attend : Ada (rouge))"
    assert refusals["not-your-piece"].reason == "Ada (red) controls Pixoid this turn, not the blue Bug"
    assert refusals["not-your-piece"].in_language("fr") == "Ada (rouge) contrôle Pixoid à ce tour, pas le Bug bleu"
    assert refusals["wall-ahead"].in_language("fr") == "en a1, un mur bloque Pixoid vers le haut : programmez une autre direction"
    assert refusals["placement-order"].reason.startswith("the cube to place now is Pixoid, not the blue Bug")


def test_a_seat_numbered_beyond_the_table_is_named_without_a_number_that_looks_like_a_seat() -> None:
    game = lanes_game()
    error = _refusal(game, 7, Place(0, (0, 0)))
    assert error.reason == "an unknown player (7) is not expected to act now (waiting for: Red)"
    assert error.in_language("fr") == "ce n'est pas à un joueur inconnu (7) de jouer maintenant (on attend : Rouge)"


def test_the_drawing_in_french_uses_the_rulebooks_words_and_letters() -> None:
    game = lanes_game()
    game.name_seats(NAMES)
    place(game)
    lines = render_text(game, "fr").splitlines()
    assert lines[0] == "Pixoid (4 joueurs), manche 1 sur 4, tour 1 : programmation secrète"
    assert lines[3] == " 1 |R . * . . . . . b|"
    assert lines[11] == " 5 |v * . . . . . . j|", "the green and yellow Bugs drawn by « vert » and « jaune »"
    assert "  R : Pixoid, joué par Ada (rouge), en a1" in lines
    assert "  j : le Bug jaune, joué par Dee (jaune), en i5" in lines
    assert "  réserve : 12/12 ; cubes de Pixoid : 0 de la réserve + 0 Bonus" in lines
    assert "  programmation verrouillée : personne ; encore en train de programmer : Ada (rouge), Brice (bleu), " \
           "Chloé (vert) et Dee (jaune)" in lines


def test_a_bot_asked_to_act_out_of_turn_says_whom_in_each_language() -> None:
    game = placed_game()
    game.apply(0, Program(0, "down", 1))
    with pytest.raises(RuleError) as info:
        PixoidBot(1).choose(game, 0)
    assert info.value.rule == "no-legal-action"
    assert info.value.reason == "Ada (red) has nothing to do now"
    assert info.value.in_language("fr") == "Ada (rouge) n'a rien à faire en ce moment"
