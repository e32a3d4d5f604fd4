"""Praxis in the players' words: every event a game of bots makes, and every refusal, is a message of
the ``praxis`` catalogue said in English and in French (the rulebook's words), players named by the
names they sat down with and lists read naturally.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from controller import i18n
from controller.engines import CHANCE, Event, OptionsError, RuleError
from controller.engines.praxis import (
    ARTEFACTS,
    KIND,
    Discard,
    GreedyBot,
    Keep,
    LayoutError,
    Move,
    PraxisGame,
    PraxisRandomBot,
    Put,
    Roll,
    TakeOff,
    words,
)
from praxis_scenarios import arrange, c

NAMES = ("Ada", "Brice", "Chloé", "Émile")
#: A seat by its number, in either language: what a named table never reads.
NUMBERED = re.compile(r"\b(seat|joueur|player) \d")
CATALOGUE = {m.id for m in i18n.template("praxis") if m.id}


def sentences(value: Any) -> Iterator[str]:
    """Every msgid a message says, its nested messages' included."""
    if isinstance(value, dict):
        if "msg" in value:
            yield value["msg"]
            for arg in (value.get("args") or {}).values():
                yield from sentences(arg)
        for item in value.get("list", ()):
            yield from sentences(item)


def bot_game(seed: int, players: int, layout: str, names: tuple[str, ...]) -> list[Event]:
    """A seeded game played to its end by greedy bots (the table's rolls by a seeded random bot),
    through the checked path; the events it made."""
    game = PraxisGame({"players": players, "layout": layout}, seed=seed)
    game.name_seats(names)
    bots: dict[int, Any] = {CHANCE: PraxisRandomBot(seed + 100)}
    bots.update({seat: GreedyBot(seed * 10 + seat) for seat in range(players)})
    events: list[Event] = []
    for _ in range(5000):
        if game.is_over():
            return events
        player = game.current_players()[0]
        events += game.apply(player, bots[player].choose(game, player))
    raise AssertionError("the bots' game did not end")


#: Words the French says as the English does.
SAME_IN_BOTH = frozenset()


def check_said(english: str, french: str, message: Any) -> None:
    """Both filled, the French not the English left untranslated, and so for every sentence and word
    the message is made of (a sentence left in English around translated names would still differ)."""
    for text in (english, french):
        assert "{" not in text and "}" not in text and "'msg'" not in text, text
    assert french != english, f"left in English: {english}"
    for msgid in sentences(message):
        if re.search(r"[A-Za-z]", re.sub(r"{[^}]*}", "", msgid)) and msgid not in SAME_IN_BOTH:
            assert i18n.gettext(msgid, "fr") != msgid, f"left in English: {msgid}"


@pytest.mark.parametrize("seed, players, layout, named", [
    (4, 2, "rectangle", False), (5, 3, "ring", True), (6, 4, "spiral", True), (7, 4, "offset", False),
])
def test_every_event_of_a_bot_game_is_said_in_english_and_french(seed: int, players: int, layout: str,
                                                                  named: bool) -> None:
    names = NAMES[:players] if named else ()
    events = bot_game(seed, players, layout, names)
    assert {"turn", "put", "moved", "activated", "game-over"} <= {e.kind for e in events}
    for event in events:
        assert event.message is not None, f"{event.kind} has no message: {event.text}"
        english, french = i18n.said(event.message, "en"), event.in_language("fr")
        assert english == event.text
        check_said(english, french, event.message)
        assert set(sentences(event.message)) <= CATALOGUE, event.message
        sent = json.loads(json.dumps(event.to_json()))
        assert i18n.said(sent["message"], "fr") == french, "the message a phone receives says the same"
        if named:
            assert not NUMBERED.search(english + french), english
        else:
            assert "seat" not in french, french
    if named:
        turns = [e.in_language("fr") for e in events if e.kind == "turn"]
        assert {f"{name}, à vous de jouer" for name in names} <= set(turns)


def test_every_choice_offered_is_worded_in_english_and_french() -> None:
    """What a phone's buttons say: each legal action in words, in both languages."""
    game = PraxisGame({"players": 3}, seed=8)
    game.name_seats(NAMES[:3])
    bots: dict[int, Any] = {CHANCE: PraxisRandomBot(8), **{seat: GreedyBot(80 + seat) for seat in range(3)}}
    worded = set()
    while not game.is_over():
        player = game.current_players()[0]
        for action in game.legal_actions(player):
            message = game.describe_message(action)
            english, french = i18n.said(message, "en"), i18n.said(message, "fr")
            check_said(english, french, message)
            assert not NUMBERED.search(english + french), english
            worded.add(type(action).__name__)
        game.apply(player, bots[player].choose(game, player))
    assert {"Roll", "FirstPlayer", "Move", "Put", "TakeOff", "Discard", "PortalGrid"} <= worded


def test_artefacts_are_named_as_the_rulebook_names_them() -> None:
    """The French catalogue says each artefact's rulebook name, the English one the box's English
    (both from data/artefacts.csv)."""
    for key, kind in KIND.items():
        artefact = ARTEFACTS[kind]
        assert i18n.said(words.artefact(key), "en") == artefact.english
        assert i18n.said(words.artefact(key), "fr") == artefact.french


def test_lists_and_names_read_naturally() -> None:
    game = arrange(players=3, ships={(0, 0): ("3.2", 1), (1, 0): ("6.6", 2), (2, 0): ("1.1", 2)},
                   portals=("3.3", "4.1"), cells={"1.5": "torpedo", "1.6": "plus-one", "4.4": "scanner"})
    game.name_seats(["Ada", "Brice", "Chloé"])
    events = game.apply(0, Move(0, c("3.3")))
    sucked = next(e for e in events if e.kind == "portal-sucked")
    assert sucked.text == "the portal on 3.3 sucks in Plus one, Quantum torpedo and Scanner"
    assert sucked.in_language("fr") == "le portail en 3.3 aspire : Plus un, Torpille quantique et Scanneur"
    events = game.apply(0, Discard("plus-one"))
    collected = next(e for e in events if e.kind == "collected")
    assert collected.in_language("fr") == "Ada collectionne Torpille quantique et Scanneur : 10 point(s), 10 au total"


def refusals(game: PraxisGame, actions: list[tuple[int, Any]]) -> list[RuleError]:
    errors = []
    for player, action in actions:
        with pytest.raises(RuleError) as info:
            game.apply(player, action)
        errors.append(info.value)
    return errors


def test_every_refusal_is_said_in_english_and_french() -> None:
    alone = {(0, 0): ("3.5", 1), (1, 0): ("2.3", 1)}
    game = arrange(ships=alone, cells={"3.6": "minus-one", "4.4": "plus-one"})
    errors = refusals(game, [
        (0, Put("hyperdrive", c("3.6"))), (0, Put("black-star", c("3.4"))), (0, Put("plus-one", c("3.6"))),
        (0, Put("plus-one", c("1.1"))), (0, Move(2, c("3.4"))), (0, Move(1, c("3.4"))), (0, Move(0, 99)),
        (0, Move(0, c("3.6"))), (0, Move(0, c("2.1"))), (0, Roll(3)), (0, Discard("plus-one")),
        (0, Keep(("plus-one", "virus"))), (0, "move 3.5 3.4"),
    ])
    game.apply(0, Move(0, c("3.4")))
    errors += refusals(game, [(0, TakeOff()), (0, Put("plus-one", c("1.1")))])
    named = arrange(ships=alone, cells={"4.4": "plus-one"})
    named.name_seats(["Ada", "Brice"])
    errors += refusals(named, [(0, Move(0, c("4.5")))])
    assert len({e.rule for e in errors}) >= 12
    for error in errors:
        assert error.words is not None, error.rule
        english, french = error.in_language("en"), error.in_language("fr")
        assert english == error.reason
        check_said(english, french, error.words)
        assert set(sentences(error.words)) <= CATALOGUE
    said = {e.rule: e.in_language("fr") for e in errors}
    assert said["step"] == ("joueur 0 doit maintenant poser un artefact à côté du vaisseau qui vient d'arriver ; "
                            "« décoller du spatioport » ne convient pas")
    assert said["no-jumping"].startswith("l'artefact Plus un en 4.4 barre le chemin entre 3.5 et 4.5")
    assert "« Le vaisseau ne doit pas se poser sur un artefact" in said["not-applicable"]


def test_options_are_refused_in_the_language_of_whoever_chose_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_language", "fr")
    with pytest.raises(OptionsError) as info:
        PraxisGame({"players": 5})
    assert str(info.value) == "Praxis se joue « pour 2 à 4 joueurs », pas 5"
    bad = [[0, 0, 0], [0, 3, 0], [2, 0, 0], [2, 3, 0], [4, 0, 0], [9, 9, 0]]
    with pytest.raises(LayoutError) as layout:
        PraxisGame({"layout": bad})
    assert layout.value.reason.startswith("la grille 5 touche par un bord : la grille 3 ; « chaque grille doit")
    assert i18n.said(layout.value.words, "en").startswith("grid 5 touches grid 3 by an edge")
    assert i18n.said(LayoutError("grid-contact", grid=6, touching=i18n.message("no other grid")).words, "fr") \
        .startswith("la grille 6 touche par un bord : aucune autre grille")
