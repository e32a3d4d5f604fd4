"""Pixoid on the wheels says its refusals in each phone's language and names the players by name and
colour, as the engine's events do; the engine's events are the table's announcements as they are."""

from __future__ import annotations

import re

import pytest

from controller import i18n
from controller.dials.state import DIRECTIONS, ControllerState
from controller.engines import RuleError
from controller.engines.pixoid import PixoidGame, Place
from controller.games.pixoid.wheels import PixoidWheels
from controller.games.wheels import Press, Refused

NAMES = ["Ada", "Brice", "Chloé", "Dee"]
NUMBERED = re.compile(r"\b(seat|piece|player) \d", re.IGNORECASE)


class Table:
    """The console as the wheel rules see it: plain names and colours, and which seats bots hold."""

    def __init__(self, bots: tuple[int, ...] = ()) -> None:
        self.bots = bots

    def seat_name(self, seat: int) -> str:
        return NAMES[seat]

    def piece_name(self, piece: int | None) -> str:
        return PixoidWheels.COLOURS[piece or 0]

    def bot_holds(self, seat: int, piece: int) -> bool:
        return seat in self.bots


def wheels(number: int | None = 0, direction: str = "down") -> ControllerState:
    return ControllerState("c", connected=True, direction=DIRECTIONS.index(direction), number=number, symbol=0)


def named_game(players: int = 4) -> PixoidGame:
    game = PixoidGame({"players": players}, seed=3)
    game.name_seats(NAMES[:players])
    return game


def refusal(play: PixoidWheels, piece: int, state: ControllerState, table: Table) -> dict:
    with pytest.raises(Refused) as info:
        play.press(piece, state, table)
    english, french = i18n.said(info.value.words, "en"), i18n.said(info.value.words, "fr")
    assert str(info.value) == english and french != english
    assert not NUMBERED.search(english) and not NUMBERED.search(french)
    return {"en": english, "fr": french}


def test_a_press_out_of_turn_in_the_placement_names_who_places_what() -> None:
    play = PixoidWheels(named_game())
    said = refusal(play, 2, wheels(), Table())
    assert said == {"en": "it is Ada (red)'s turn to place Pixoid", "fr": "c'est Ada (rouge) qui place Pixoid maintenant"}


def test_a_number_beyond_the_free_start_pix_says_how_many_there_are() -> None:
    game = named_game()
    play = PixoidWheels(game)
    count = len(play.start_candidates())
    said = refusal(play, 0, wheels(number=9), Table())
    assert said["en"] == (f"there are {count} free start Pix, numbered 0 to {count - 1}: turn the number wheel to "
                          "one of them")
    assert said["fr"].startswith(f"il y a {count} Pix de départ libres, numérotés de 0 à {count - 1} : ")
    while len(play.start_candidates()) > 1:
        piece = play.placing_piece()
        press = play.press(piece, wheels(number=0), Table())
        assert isinstance(press, Press)
        game.apply(press.seat, press.action)
        if game.phase != "placement":
            pytest.skip("this board has as many start Pix as pieces")
    said = refusal(play, play.placing_piece(), wheels(number=1), Table())
    assert said["en"] == "there is 1 free start Pix left, numbered 0: turn the number wheel to 0"
    assert said["fr"] == "il ne reste qu'un Pix de départ libre, numéroté 0 : tournez la molette centrale sur 0"


def test_a_controller_a_bot_plays_says_whose_it_is() -> None:
    play = PixoidWheels(named_game())
    said = refusal(play, 0, wheels(), Table(bots=(0,)))
    assert said["en"] == "the computer plays Pixoid for Ada (red): this controller is not used now"
    assert said["fr"] == "l'ordinateur joue Pixoid pour Ada (rouge) : cette manette ne sert pas en ce moment"


def test_the_spare_bug_of_three_players_is_named_by_its_colour_and_its_player() -> None:
    game = named_game(players=3)
    play = PixoidWheels(game)
    while game.phase == "placement":
        piece = play.placing_piece()
        press = play.press(piece, wheels(number=0), Table())
        events = game.apply(press.seat, press.action)
    assert events[0].text.startswith("Brice (blue) places the yellow Bug on the start Pix ")
    assert events[0].in_language("fr").startswith("Brice (bleu) place le Bug jaune sur le Pix de départ ")
    said = refusal(play, 3, wheels(), Table(bots=(1,)))
    assert said["en"] == "the computer plays the yellow Bug for Brice (blue): this controller is not used now"
    assert said["fr"] == "l'ordinateur joue le Bug jaune pour Brice (bleu) : cette manette ne sert pas en ce moment"
    seat = game.controller_owner(1)
    program = next(a for a in game.legal_actions(seat) if a.piece == 1)
    partial = game.apply(seat, program)[0]
    assert partial.kind == "programmed"
    assert partial.text == "Brice (blue) has locked one of their two controllers"
    assert partial.in_language("fr") == "Brice (bleu) a verrouillé l'une de ses deux manettes"
    assert play.announce(partial.to_json(), Table()) == partial.to_json()


@pytest.mark.parametrize("rule", sorted(PixoidWheels.REFUSALS))
def test_the_secret_refusals_are_said_in_each_language(rule: str) -> None:
    play = PixoidWheels(named_game())
    words = play.refusal(rule, "the engine's reason", None)
    assert i18n.said(words, "en") == PixoidWheels.REFUSALS[rule]
    assert i18n.said(words, "fr") not in ("", PixoidWheels.REFUSALS[rule])
    hint = PixoidWheels.SECRET_REFUSAL_HINT
    assert i18n.gettext(hint, "fr").startswith("une programmation, c'est une flèche")


def test_the_engines_words_reach_the_table_when_the_wheels_have_none_of_their_own() -> None:
    game = named_game()
    play = PixoidWheels(game)
    with pytest.raises(RuleError) as info:
        game.check(0, Place(1, (0, 0)))
    error = info.value
    assert error.rule == "placement-order"
    words = play.refusal(error.rule, error.reason, error.words)
    assert i18n.said(words, "fr").startswith("le cube à placer maintenant est Pixoid, pas le Bug bleu")


def test_a_placement_is_announced_once_by_the_engine_naming_the_player() -> None:
    game = named_game()
    play = PixoidWheels(game)
    press = play.press(0, wheels(number=0), Table())
    events = game.apply(press.seat, press.action)
    assert play.note(press.seat, press.action, Table()) is None
    assert [e.kind for e in events] == ["placed"]
    assert events[0].text.startswith("Ada (red) places Pixoid on the start Pix ")
