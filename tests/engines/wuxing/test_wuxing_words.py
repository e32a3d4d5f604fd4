"""Every sentence the game says is an English msgid of the ``wuxing`` gettext domain, translated
into French in the rulebook's words, with the game's words (elements, colours, faces) nested as
messages so that a reader hears the whole sentence in his language."""

from __future__ import annotations

import random

import pytest

from controller import i18n
from controller.engines.wuxing import Move, Play, Stay, WuxingGame
from controller.engines.wuxing.errors import WuxingRuleError, refused
from controller.engines.wuxing.game import action_words, last_text
from controller.engines.wuxing.words import ERRORS, EVENTS, REFUSALS, TERMS, said, worded

RULEBOOK_WORDS = {"wood": "Bois", "fire": "Feu", "earth": "Terre", "metal": "Métal", "water": "Eau",
                  "blue": "bleu", "red": "rouge", "yin": "Yin", "yang": "Yang", "yin-yang": "Yin-Yang"}


@pytest.mark.parametrize("key, french", sorted(RULEBOOK_WORDS.items()))
def test_the_games_words_are_the_rulebooks_in_french(key: str, french: str) -> None:
    assert i18n.gettext(TERMS[key], "fr") == french


def test_an_event_carries_its_sentence_as_a_message_with_nested_words() -> None:
    game = WuxingGame({"mode": "theatre", "layout": "printed"}, seed=1)
    game.name_seats(["Ada", "Brice"])
    [event, *_] = game.apply(0, game.legal_actions(0)[0])
    assert event.message["msg"] == EVENTS["moved"]
    assert event.message["args"]["from_element"] == {"msg": "Water", "args": {}} or \
        event.message["args"]["from_element"]["msg"] in TERMS.values()
    english, french = event.in_language("en"), event.in_language("fr")
    assert english == event.text and english.startswith("Ada moves pawn")
    assert french.startswith("Ada déplace le pion") and "jeton" in french
    assert event.to_json()["message"] == event.message


def test_a_refusal_carries_its_rule_and_its_reason_as_a_message() -> None:
    error = refused("no-token", {"player": "Ada", "colour": "red"}, "the board")
    assert isinstance(error, WuxingRuleError) and isinstance(error, ValueError)
    assert error.rule == "no-token" and error.reason == "Ada has no red token to pay for staying"
    assert error.in_language("fr") == "Ada n'a pas de jeton rouge pour payer et rester sur place"
    assert "the board" in str(error)


def test_the_engines_refusals_say_the_rule_in_both_languages() -> None:
    game = WuxingGame({"mode": "theatre", "layout": "printed"}, seed=1)
    with pytest.raises(WuxingRuleError) as info:
        game.apply(0, Move(0, "up-left", 1))
    assert info.value.rule == "no-diagonal"
    assert info.value.reason == "pawns move along a row or a column only, not diagonally (up and left)"
    assert info.value.in_language("fr") == ("les pions se déplacent seulement en ligne ou en colonne, pas en "
                                            "diagonale (en haut à gauche)")
    with pytest.raises(WuxingRuleError) as info:
        game.apply(0, Play(2))
    assert info.value.rule == "wrong-mode" and "play Earth" in info.value.reason
    assert "jouer Terre" in info.value.in_language("fr")


def test_the_last_move_is_told_in_the_readers_language() -> None:
    game = WuxingGame({"mode": "chemin", "path": "wood fire earth metal water", "no_discard": True}, seed=1)
    game.name_seats(["Ada", "Brice"])
    game.apply(0, Play(0))
    game.apply(1, Play(2))
    text = last_text(game)
    assert i18n.said(text, "en") == "duel 1: Ada plays Wood, Brice plays Earth; Wood dominates Earth: Ada wins the duel"
    assert i18n.said(text, "fr") == ("duel 1 : Ada joue Bois, Brice joue Terre ; Bois domine Terre : "
                                     "Ada remporte le duel")
    assert i18n.said(action_words(Stay("blue")), "fr") == "rester sur place en payant un jeton bleu"


def test_every_event_and_refusal_sentence_is_marked_and_formats() -> None:
    catalogue = {m for domain in ("wuxing",) for m in (e.id for e in i18n.template(domain)) if m}
    for table in (EVENTS, ERRORS, REFUSALS, TERMS):
        assert set(table.values()) <= catalogue
    for key, msgid in EVENTS.items():
        args = {name: "wood" for name in i18n.placeholders(msgid)}
        for lang in ("en", "fr"):
            assert "{" not in i18n.said(said(key, **args), lang)


def test_random_games_say_every_event_in_french_without_a_gap() -> None:
    for mode in ("chemin", "theatre"):
        game = WuxingGame({"mode": mode}, seed=3)
        rng = random.Random(3)
        while not game.is_over():
            seat = rng.choice(game.current_players())
            for event in game.apply(seat, rng.choice(game.legal_actions(seat))):
                french = event.in_language("fr")
                assert "{" not in french and french != event.text or event.text == french


def test_arguments_are_worded_by_name_not_by_value() -> None:
    args = worded({"player": "red", "colour": "red", "hand": ["wood", "fire"]})
    assert args["player"] == "red" and args["colour"] == {"msg": "red", "args": {}}
    assert i18n.said(args["hand"], "fr") == "Bois et Feu"
