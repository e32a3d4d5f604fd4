"""MémoDiXe in the players' words: every event a game of bots makes, every refusal and what the game
waits for is a message of the ``memodixe`` catalogue said in English and in French (the rulebook's
words: DiXe, carré, sac DiXe...), players named by the names they sat down with, lists read
naturally.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from controller import i18n
from controller.engines import CHANCE, Event, OptionsError, RuleError
from controller.engines.memodixe import (
    ONI, CallDixe, Flip, MemodixeGame, MemoryBot, Penalty, SeededRoller, Skip, Take, TimeUp, words,
)
from memodixe_scenarios import A1, B2, C3, hides, new_game

NAMES = ("Ada", "Brice", "Chloé", "Dee", "Émile", "Fanny")
#: A seat by its number, in either language: what a named table never reads.
NUMBERED = re.compile(r"\b(seat|joueur|player) \d")
CATALOGUE = {m.id for m in i18n.template("memodixe") if m.id}


def sentences(value: Any) -> Iterator[str]:
    """Every msgid a message says, its nested messages' included."""
    if isinstance(value, dict):
        if "msg" in value:
            yield value["msg"]
            for arg in (value.get("args") or {}).values():
                yield from sentences(arg)
        for item in value.get("list", ()):
            yield from sentences(item)


def bot_game(options: dict[str, Any], seed: int, names: tuple[str, ...], time_up_after: int = 0) -> list[Event]:
    """A seeded game played to its end by memory bots (the table reports the seeded rolls) through
    the checked path. In "Oni contre tous" the app reports a failed gage whenever one can cost a
    die, every tenth action, and the countdown after ``time_up_after`` actions (0: never)."""
    game = MemodixeGame(options, seed=seed)
    game.name_seats(names)
    bots: dict[int, Any] = {CHANCE: SeededRoller(seed)}
    bots.update({seat: MemoryBot(seed * 10 + seat, forget=0.3) for seat in range(game.num_players)})
    events: list[Event] = []
    for count in range(5000):
        if game.is_over():
            return events
        if game.mode == ONI and count and count == time_up_after:
            events += game.apply(CHANCE, TimeUp())
            continue
        if game.mode == ONI and count % 10 == 0:
            try:
                events += game.apply(CHANCE, Penalty())
            except RuleError:
                pass
        player = game.current_players()[0]
        events += game.apply(player, bots[player].choose(game, player))
    raise AssertionError("the bots' game did not end")


#: Words the French says as the English does.
SAME_IN_BOTH = frozenset({"pirate", "smiley", "yin-yang", "pi", "aum"})


def check_said(english: str, french: str, message: Any) -> None:
    """Both filled, the French not the English left untranslated, and so for every sentence and word
    the message is made of (a sentence left in English around translated names would still differ)."""
    for text in (english, french):
        assert "{" not in text and "}" not in text and "'msg'" not in text, text
    assert french != english, f"left in English: {english}"
    for msgid in sentences(message):
        if re.search(r"[A-Za-z]", re.sub(r"{[^}]*}", "", msgid)) and msgid not in SAME_IN_BOTH:
            assert i18n.gettext(msgid, "fr") != msgid, f"left in English: {msgid}"


GAMES = [
    ({"players": 2}, 1, False, 0),
    ({"players": 4, "dixe_continue": True}, 2, True, 0),
    ({"players": 6, "powers": [["pi", "steal"], ["smiley", "share"], ["aum", "again"]]}, 3, True, 0),
    ({"mode": ONI, "players": 5, "level": "hard"}, 4, True, 0),
    ({"mode": ONI, "players": 4, "oni_seat": 2}, 5, False, 60),
]


@pytest.mark.parametrize("options, seed, named, time_up_after", GAMES)
def test_every_event_of_a_bot_game_is_said_in_english_and_french(options: dict[str, Any], seed: int, named: bool,
                                                                  time_up_after: int) -> None:
    players = options["players"]
    names = NAMES[:players] if named else ()
    events = bot_game(options, seed, names, time_up_after)
    assert {"turn", "roll", "flip", "game-over"} <= {e.kind for e in events}
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
            assert "player" not in french, french
    if named:
        turns = {e.in_language("fr").split(" : ", 1)[1] for e in events if e.kind == "turn"}
        assert {f"{name} joue" for name in names[1:3]} <= turns


def test_the_bots_games_cover_the_events_of_both_modes() -> None:
    kinds = set()
    for options, seed, named, time_up_after in GAMES:
        kinds |= {e.kind for e in bot_game(options, seed, NAMES[:options["players"]] if named else (), time_up_after)}
    assert {"pair", "won", "no-pair", "effect", "dixe", "time-up", "penalty", "refill", "seen"} <= kinds


@pytest.mark.parametrize("options", [{"players": 3}, {"mode": ONI, "players": 4}])
def test_every_choice_offered_is_worded_in_english_and_french(options: dict[str, Any]) -> None:
    """What a phone's buttons say: each legal action in words, in both languages."""
    game = MemodixeGame(options, seed=9)
    game.name_seats(NAMES[:options["players"]])
    bots: dict[int, Any] = {CHANCE: SeededRoller(9)}
    bots.update({seat: MemoryBot(90 + seat) for seat in range(game.num_players)})
    worded = set()
    while not game.is_over():
        player = game.current_players()[0]
        for action in game.legal_actions(player):
            message = game.describe_message(action)
            english, french = i18n.said(message, "en"), i18n.said(message, "fr")
            check_said(english, french, message)
            assert english == game.describe_action(action)
            assert not NUMBERED.search(english + french), english
            worded.add(type(action).__name__)
        game.apply(player, bots[player].choose(game, player))
    assert {"Roll", "Flip", "Take"} <= worded


def test_powers_and_cards_say_the_rulebook_in_french() -> None:
    """A pair's event says the power in the rulebook's words; a card, the card's text."""
    game = new_game(hides(c3="soleil", b2="soleil"))
    game.apply(0, Flip(B2))
    pair = game.apply(0, Flip(C3))[-1]
    assert pair.kind == "pair" and pair.data["power"] == "steal"
    assert pair.text.startswith("player 0 finds a pair of sun: You win no die.")
    assert pair.in_language("fr").startswith("joueur 0 dévoile une paire (soleil) : Vous ne gagnez pas de DiXe. "
                                             "Relancez les 2 DiXes retournés")
    assert "vous volez un DiXe au joueur de votre choix" in pair.in_language("fr")
    title, effect = words.EFFECT_TEXTS["chut"]
    card = Event.said("effect", '{who} draws "{title}": {effect}', who="Ada", title=title, effect=i18n.message(effect))
    assert card.in_language("fr") == ("Ada tire la carte « Chhhuuutt ! » : Jusqu'au début de ton prochain tour, les "
                                      "joueurs n'ont plus le droit de parler. Si un joueur parle, Oni relance un DiXe "
                                      "gagné dans le carré.")


def test_a_dixe_call_lists_the_faces_naturally() -> None:
    game = new_game(hides(c3="sablier"), {"players": 3}, held={0: 1})
    game.name_seats(["Ada", "Brice", "Chloé"])
    called = game.apply(0, CallDixe())[0]
    assert called.text.startswith("Ada cries DiXe !: every die is turned up (a1 hourglass, b1 pi, ")
    assert called.text.endswith(", b3 sun and c3 hourglass)")
    assert called.in_language("fr").startswith("Ada crie « DiXe ! » : on retourne tous les dés (a1 sablier, b1 pi, ")
    assert called.in_language("fr").endswith(", b3 soleil et c3 sablier)")


def refusals(game: MemodixeGame, actions: list[tuple[int, Any]]) -> list[RuleError]:
    errors = []
    for player, action in actions:
        with pytest.raises(RuleError) as info:
            game.apply(player, action)
        errors.append(info.value)
    return errors


def test_every_refusal_is_said_in_english_and_french() -> None:
    game = new_game(hides(c3="sablier"), {"players": 3})
    errors = refusals(game, [(0, CallDixe()), (0, Skip()), (0, Flip(12)), (0, Flip(True)), (CHANCE, TimeUp())])
    game.apply(0, Flip(A1))
    errors += refusals(game, [(0, CallDixe()), (0, Flip(A1))])
    game.apply(0, Flip(C3))
    errors += refusals(game, [(0, Take(B2)), (0, CallDixe())])
    oni = new_game(options={"mode": ONI, "players": 4})
    errors += refusals(oni, [(0, TimeUp()), (CHANCE, Penalty())])
    oni.apply(CHANCE, TimeUp())
    errors += refusals(oni, [(CHANCE, TimeUp())])
    rules = {e.rule for e in errors}
    assert rules >= {"dixe-needs-a-die", "legal-action", "flip-in-square", "action-fields", "oni-only",
                     "touched-die-must-be-flipped", "flip-two-dice", "take-one-of-the-pair", "dixe-at-turn-start",
                     "app-only", "penalty", "game-over"}
    for error in errors:
        assert error.words is not None, error.rule
        english, french = error.in_language("en"), error.in_language("fr")
        assert english == error.reason
        check_said(english, french, error.words)
        assert set(sentences(error.words)) <= CATALOGUE
    said = {e.rule: e.in_language("fr") for e in errors}
    assert said["legal-action"] == ("« passer » n'est pas attendu maintenant (en attente : joueur 0 doit retourner un "
                                    "premier DiXe (ou crier « DiXe ! »))")
    assert said["take-one-of-the-pair"] == "remportez l'un des deux DiXes de la paire, en a1 ou en c3"


def test_options_are_refused_in_the_language_of_whoever_chose_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_language", "fr")
    with pytest.raises(OptionsError) as info:
        MemodixeGame({"mode": ONI, "players": 3})
    assert str(info.value) == "oni-contre-tous se joue de 4 à 8 joueurs, pas 3"
    with pytest.raises(OptionsError) as book:
        MemodixeGame({"powers": [["lune", "steal"]]})
    assert str(book.value) == ("les options dice ou powers ne peuvent pas être utilisées : symbole inconnu 'lune' ; "
                               "les symboles sont pirate, smiley, soleil, bombe, yin-yang, sablier, tete-de-mort, pi, "
                               "aum, personnage")
