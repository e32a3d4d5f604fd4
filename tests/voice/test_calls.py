"""Which announcements become calls, and in which words: what the game declares, said in the table's
language with the players' names; nothing private, nothing replayed, the countdown's last seconds."""

from __future__ import annotations

from typing import Any

import pytest

from controller.engines import Event, new_game
from controller.games import game as game_spec
from controller.i18n import N_, message
from controller.voice.calls import COUNTDOWN_SPOKEN, Announcer, speakable

NAMES = ["Ada", "Brice", "Chloé", "Dinesh"]


def published(game: str, events: list[dict[str, Any]], actions: int = 1, game_id: int = 1, **state: Any) -> dict:
    return {"type": "state", "events": events,
            "state": {"ui": {"game": game}, "players": [{"name": n} for n in NAMES],
                      "game": {"id": game_id, "actions": actions, "over": False}, **state}}


def texts(announcer: Announcer, message_: dict) -> list[str]:
    return [call.text for call in announcer.calls(message_)]


def pixoid_reveal() -> list[dict[str, Any]]:
    """The events of a real Pixoid turn, up to and with its reveal, as the console publishes them."""
    game = new_game("pixoid", seed=4, options={"players": 4})
    game.name_seats(NAMES)
    events: list[Event] = []
    while not any(e.kind == "revealed" for e in events):
        player = game.current_players()[0]
        events += game.apply(player, game.legal_actions(player)[0])
    return [e.to_json() for e in events]


def test_the_calls_a_game_declares_are_said_and_the_others_are_not():
    events = pixoid_reveal()
    kinds = {e["kind"] for e in events}
    assert {"revealed", "locked"} <= kinds
    calls = Announcer("en").calls(published("pixoid", events))
    assert [c.kind for c in calls] == [e["kind"] for e in events if e["kind"] in game_spec("pixoid").voice]
    assert calls[0].kind == "revealed" and calls[0].text.startswith("programs revealed: Pixoid: ")


def test_the_same_calls_are_said_in_french_when_the_table_speaks_french():
    events = pixoid_reveal()
    english = texts(Announcer("en"), published("pixoid", events))
    french = texts(Announcer("fr"), published("pixoid", events))
    assert len(english) == len(french) > 0
    assert french[0].startswith("programmations révélées") and french != english
    assert all(call.lang == "fr" for call in Announcer("fr").calls(published("pixoid", events)))


def test_a_shorter_spoken_form_takes_the_announcements_own_words():
    caught = {"kind": "captured", "text": "", "data": {},
              "message": message(N_("Pixoid is caught on {pix} by {bugs}"), pix="b11",
                                 bugs=message(N_("the blue Bug")))}
    assert texts(Announcer("en"), published("pixoid", [caught])) == ["Pixoid is caught by the blue Bug!"]
    assert texts(Announcer("fr"), published("pixoid", [caught])) == ["Pixoid est attrapé par le Bug bleu !"]


def test_players_are_named_by_their_names_not_their_seats():
    dixe = {"kind": "dixe-right", "text": "", "data": {},
            "message": message(N_("{who} is right: no pair is left"), who={"seat": 1})}
    assert texts(Announcer("en"), published("memodixe", [dixe])) == ["Brice is right: no pair is left"]


def test_what_some_seats_alone_may_see_is_never_said():
    seen = {"kind": "effect", "text": "", "data": {"audience": [2]},
            "message": message(N_("{who} draws \"{title}\": {effect}"), who="Chloé", title="Oni !", effect="x")}
    assert texts(Announcer("en"), published("memodixe", [seen])) == []


def test_a_referees_call_is_said_by_the_events_it_decided():
    asleep = {"kind": "asleep", "data": {"oracle": 3},
              "message": message(N_("{oracle} falls asleep ({why})."), oracle="The sun oracle of Ada",
                                 why=message(N_("it knocked over its own temple")))}
    flick = {"kind": "flick", "data": {}, "message": message(N_("{player} flicks {oracle}."), player="Ada",
                                                               oracle="her sun oracle")}
    announced = {"kind": "call", "text": "long", "data": {"call_id": 4, "decision": "asleep"},
                 "message": message(N_("{decision}: {reason}"), decision="asleep", reason="long")}
    state = {"calls": [{"call_id": 4, "decision": "asleep", "events": [flick, asleep]}]}
    assert texts(Announcer("en"), published("puxes", [announced], **state)) == [
        "The sun oracle of Ada falls asleep, it knocked over its own temple."]


def test_a_referees_call_without_declared_events_is_said_by_its_decision():
    refused = {"kind": "call", "text": "refused: the island on c3 was turned over",
               "data": {"call_id": 9, "decision": "refused"},
               "message": message(N_("{decision}: {reason}"), decision="refused",
                                  reason="the island on c3 was turned over")}
    state = {"calls": [{"call_id": 9, "decision": "refused", "events": []}]}
    assert texts(Announcer("en"), published("wuxing", [refused], **state)) == [
        "refused: the island on c3 was turned over"]
    assert texts(Announcer("en"), published("pixoid", [refused], **state)) == []


def test_the_same_news_told_twice_in_one_moment_is_said_once():
    engine = {"kind": "game-over", "data": {}, "message": message(N_("the game is over: {winners} won with {points} "
                                                                     "point(s)"), winners="Ada", points=36)}
    service = {"kind": "game-over", "data": {}, "message": message(N_("the game is over: {winners} won"),
                                                                  winners="Ada")}
    assert texts(Announcer("en"), published("praxis", [engine, service])) == [
        "the game is over: Ada won with 36 points"]


def test_a_correction_replaying_the_game_is_not_said_again():
    events = pixoid_reveal()
    announcer = Announcer("en")
    assert texts(announcer, published("pixoid", events, actions=12))
    assert texts(announcer, published("pixoid", events, actions=11)) == []
    assert texts(announcer, published("pixoid", events, actions=12))
    assert texts(announcer, published("pixoid", events, actions=5, game_id=2))


def test_the_last_seconds_of_a_countdown_are_counted_aloud_once_each():
    announcer = Announcer("fr")
    said = []
    for left in (COUNTDOWN_SPOKEN + 2, COUNTDOWN_SPOKEN + 1, COUNTDOWN_SPOKEN, COUNTDOWN_SPOKEN, 9, 8, 1, 0):
        said += texts(announcer, published("memodixe", [], countdown={"remaining": left, "total": 400}))
    assert said == [str(COUNTDOWN_SPOKEN), "9", "8", "1"]
    calls = Announcer("en").calls(published("memodixe", [], countdown={"remaining": 3, "total": 400}))
    assert calls[0].kind == "countdown" and calls[0].replaces and calls[0].max_age == 1.0


def test_a_countdown_is_silent_for_a_game_that_does_not_declare_it_or_once_over():
    assert texts(Announcer("en"), published("praxis", [], countdown={"remaining": 3, "total": 9})) == []
    over = published("memodixe", [], countdown={"remaining": 3, "total": 9})
    over["state"]["game"]["over"] = True
    assert texts(Announcer("en"), over) == []


def test_a_question_to_the_players_is_said_at_every_table():
    question = {"kind": "question", "data": {"question_id": 2},
                "message": message(N_("question {number}: {text} ({reason})"), number=2,
                                   text="Which face does the die show?", reason="the camera cannot read it")}
    assert texts(Announcer("en"), published("puxes", [question])) == [
        "A question for the players: Which face does the die show?"]
    assert texts(Announcer("en"), published("no-such-game", [question])) == [
        "A question for the players: Which face does the die show?"]


def test_a_message_without_a_state_makes_no_call():
    assert Announcer("en").calls({"type": "seat", "seat": {}}) == []


@pytest.mark.parametrize("raw, spoken", [
    ("the game is over: Ada won with 33 point(s)", "the game is over: Ada won with 33 points"),
    ("game #3 started: « DiXe ! » (Ada)", "game 3 started: DiXe ! Ada"),
    ("Ada scores 12.0 -> b11", "Ada scores 12, b11"),
    ("Ada draws \"Joue !\": no effect", "Ada draws Joue !: no effect"),
    ("  two\n lines  ", "two lines"),
    ("Which face does the oracle Ada just set at (98, 248) mm show?", "Which face does the oracle Ada just set show?"),
    ("Quelle face montre l'oracle que Ada vient de poser à (98, 248) mm ?",
     "Quelle face montre l'oracle que Ada vient de poser ?"),
])
def test_text_is_cleaned_of_what_a_voice_should_not_read_out(raw, spoken):
    assert speakable(raw) == spoken


def test_a_very_long_text_ends_at_a_sentence():
    text = "First sentence here. " * 40
    said = speakable(text)
    assert len(said) <= 400 and said.endswith("here.")
