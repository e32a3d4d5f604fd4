"""What the PuXes referee asks, and what it decides without asking because the rules and the table
settle it. Each scenario is refereed from TableSnapshots (see ``puxes_table``); the rulings they hold
are in docs/rulings/puxes.md (« The referee's questions »)."""

from __future__ import annotations

import math
import re

from puxes_table import Table, decisions, hero_cam, oracle_cam

from controller.engines.puxes.actions import Wake
from controller.i18n import said
from controller.referee.common import Question
from controller.referee.puxes import gap_bounds, square_gap

# Positions after the standard set-up (mm): temples at (150, 300) and (750, 300).
# Player 0: oracle 2 pi (223, 300), 3 pirate (201.6, 351.6), 4 bombe (201.6, 248.4), 5 smiley (150, 373).
# Player 1: oracle 12 pi (677, 300), 13 pirate (698.4, 248.4), 14 bombe (698.4, 351.6), 15 smiley (750, 227).


def _questions(results) -> list[Question]:
    return [r for r in results if isinstance(r, Question)]


def test_the_face_of_an_oracle_that_left_the_area_is_not_asked() -> None:
    """« il plonge dans un profond sommeil et est mis de côté »: asleep, its face counts for nothing
    (its owner chooses one when waking it), so an unreadable face there is not a question."""
    t = Table()
    t.scene.put(oracle_cam(2), 930, 300, None, conf=0.0)
    calls = t.observe(moved=[oracle_cam(2)])
    assert _questions(calls) == [] and decisions(calls) == ["asleep"]
    assert t.g.dice[2].status == "asleep"


def test_the_face_of_an_oracle_that_stays_in_play_is_asked_with_the_die_and_where_it_lies() -> None:
    t = Table(names=("Ada", "Brice"))
    t.scene.put(oracle_cam(2), 380, 300, None, conf=0.0)
    (question,) = _questions(t.observe(moved=[oracle_cam(2)]))
    assert question.text == "Which face does the Hanuman die of Ada (red), in the middle of the mat, show?"
    assert question.reason == "The camera cannot read its top face."
    assert question.data["why"] == "unreadable" and question.data["guess"] is None
    assert question.choices[0] == "Hanuman"          # its own character, then its symbols
    calls = t.ref.answer(question.question_id, "Hanuman")
    assert decisions(calls) == ["moved"] and t.g.dice[2].face == "Hanuman"


def test_an_unsure_reading_puts_the_cameras_guess_first_and_keeps_its_confidence_in_the_data() -> None:
    t = Table(names=("Ada", "Brice"))
    (question,) = _questions(t.flick(2, 380, 300, face="soleil", conf=0.42))
    assert question.choices[0] == "soleil" and question.data["guess"] == "soleil"
    assert question.reason == "The camera thinks it shows sun but is not sure."
    assert question.data["reading"] == {"face": "soleil", "confidence": 0.42}
    for language in ("en", "fr"):
        words = said(question.message, language) + " " + said(question.reason_message, language)
        assert not re.search(r"\d", words), words     # no confidence, no millimetres, no engine number
    assert said(question.message, "fr") == "Quelle face montre le dé Hanuman de Ada (rouge), au milieu du tapis ?"


def test_a_confident_face_its_die_does_not_carry_is_asked_not_dropped() -> None:
    """The Hanuman die carries no "tete-de-mort" among its known faces... but its unknown faces may be any
    symbol; a character of another die it cannot carry."""
    t = Table()
    (question,) = _questions(t.flick(2, 380, 300, face="Oni", conf=0.99))
    assert question.data["why"] == "not-on-die" and "Oni" not in question.choices
    assert question.reason == "The camera sees Oni, which this die does not carry."


def test_an_unreadable_hero_may_be_on_its_edge_as_a_last_choice() -> None:
    t = Table()
    t.flick(2, 350, 300)
    (question,) = _questions(t.roll(1, ("pi", None, "pi", "pi")))
    assert question.choices[-2:] == ("on-edge", "read-again")
    assert question.choices[0] == "Crâne Yorick"


def test_a_woken_oracle_the_camera_lost_on_its_way_is_the_one_no_longer_set_aside() -> None:
    """« le joueur actif a alors la possibilité de réveiller un oracle endormi »: the camera saw a die it does
    not know appear in the player's public garden and one sleeping oracle gone from where it lay."""
    t = Table()
    t.flick(2, None)                                  # oracle 2 falls asleep, off the camera's view
    t.roll(1, ("soleil", "sablier", "aum", "pi"))
    t.flick(12, 600, 300)
    t.roll(0, ("Oni", "pi", "pi", "bombe"))
    assert Wake(2) in t.g.legal_actions(0)
    t.scene.put(999, 240, 300, "smiley")              # seen as a new die in the public garden
    calls = t.observe(moved=[999])
    assert decisions(calls)[:2] == ["woken", "placed"]
    assert t.g.dice[2].status == "play" and t.g.dice[2].face == "smiley" and t.ref.camera_id(2) == 999


def test_two_sleeping_oracles_lost_the_players_say_which_was_woken() -> None:
    t = Table()
    t.flick(2, None)
    t.roll(1, ("soleil", "sablier", "aum", "pi"))
    t.flick(12, 600, 300)
    t.roll(0, ("Oni", "pi", "pi", "bombe"))
    t.flick(4, None)                                   # a second oracle of Ada falls asleep
    t.roll(1, ("soleil", "sablier", "aum", "pi"))
    t.flick(12, 560, 300)
    t.roll(0, ("Oni", "pi", "pi", "bombe"))
    assert {Wake(2), Wake(4)} <= set(t.g.legal_actions(0))
    t.scene.put(999, 240, 300, "smiley")
    (question,) = _questions(t.observe(moved=[999]))
    assert question.data["about"] == "woke" and set(question.choices) == {"oracle-2", "oracle-4"}
    calls = t.ref.answer(question.question_id, "oracle-4")
    assert decisions(calls)[:2] == ["woken", "placed"] and t.g.dice[4].status == "play"
    assert t.g.dice[2].status == "asleep" and t.ref.camera_id(4) == 999


def test_an_oracle_moved_while_the_game_waits_for_a_roll_is_said_at_once() -> None:
    """The table no longer fits the game: the referee says so at once instead of waiting."""
    t = Table(names=("Ada", "Brice"))
    t.flick(2, 350, 300)                               # Brice's roll comes next
    t.scene.put(oracle_cam(14), 640, 420, "bombe")     # someone moved Brice's bomb oracle
    (question,) = _questions(t.observe(moved=[oracle_cam(14)]))
    assert question.data["about"] == "misfit" and question.choices == ("read-again",)
    assert question.text.startswith("The camera sees that the Mr Blaireau die of Brice (blue) moved")
    assert t.ref.answer(question.question_id, "read-again") == []
    assert t.ref.observe(t.ref._last) == []            # said once for each still moment
    (again,) = _questions(t.observe())                # a new still moment, the die still out of place
    assert t.ref.answer(again.question_id, "read-again") == []
    t.scene.put(oracle_cam(14), 698.4, 351.6, "bombe")  # put back
    assert t.observe(moved=[oracle_cam(14)]) == []
    assert decisions(t.roll(1, ("pi", "pi", "pi", "pi")))[0] == "roll"


def test_an_oracle_missing_while_the_game_waits_for_a_roll_is_said_at_once() -> None:
    t = Table()
    t.flick(2, 350, 300)
    t.scene.lift(oracle_cam(13))
    (question,) = _questions(t.observe(moved=[oracle_cam(13)]))
    assert question.data["why"] == "misfit" and "no longer sees" in question.text


def test_a_die_the_game_does_not_know_is_said_at_once() -> None:
    t = Table()
    t.flick(2, 350, 300)
    t.roll(1, ("pi", "pi", "pi", "pi"))
    t.scene.put(999, 450, 450, "pirate")               # a die from nowhere, in the middle of the area
    (question,) = _questions(t.observe(moved=[999]))
    assert question.data["about"] == "misfit" and question.data["camera"] == 999


def test_a_flicked_oracle_the_camera_lost_is_the_new_die_on_the_mat() -> None:
    """A long flick: the camera gives the oracle a new id. It did not leave the area."""
    t = Table()
    t.scene.lift(oracle_cam(2))
    t.scene.put(999, 420, 300, "pi")
    calls = t.observe(moved=[oracle_cam(2), 999])
    assert decisions(calls) == ["moved"] and t.g.dice[2].status == "play" and t.pos(2) == (420.0, 300.0)


def test_square_gaps_follow_the_dice_turns() -> None:
    assert square_gap((0, 0, 0), (27, 0, 0), 25) == 2.0
    assert math.isclose(square_gap((0, 0, 45), (40, 0, 45), 25), 40 - 25 * math.sqrt(2))
    assert square_gap((0, 0, 45), (30, 0, 45), 25) == 0.0
    low, high = gap_bounds((0, 0), (30, 0), 25)
    assert math.isclose(low, 30 - 25 * math.sqrt(2)) and high == 5.0


def test_a_fallen_die_touching_an_oracle_corner_to_face_is_not_called_clear() -> None:
    """« Le temple renversé ne doit pas lui même toucher un oracle »: a fallen die turned 45 degrees touches
    an oracle with its corner though their centres are 30 mm apart (more than an edge and 2 mm). Within the
    camera's error of touching, the players are asked; they say it touches: the DiXé does not count."""
    t = Table()
    t.scene.topple(1, (698.4, 248.4 + 12.5 + 12.5 * math.sqrt(2)))   # a corner against oracle 13's face
    fallen = t.scene.stacks[1].dice[1]
    t.scene.dice[fallen] = type(t.scene.dice[fallen])(**{**vars(t.scene.dice[fallen]), "angle_deg": 45.0})
    (question,) = _questions(t.flick(2, 715, 330))
    assert question.data["about"] == "fallen-temple"
    assert decisions(t.ref.answer(question.question_id, "yes")) == ["temple-rebuilt"]


def test_an_immunite_face_the_camera_cannot_read_is_asked_not_waited_for() -> None:
    t = Table({"powers": [["Crâne Yorick", "immunite"]]}, first=(("Crâne Yorick", "pi", "pi", "pi"),
                                                                  ("pi", "pi", "pi", "pi")))
    assert "immune" in [e.kind for c in t.flick(2, None) for e in c.events]
    t.scene.put(oracle_cam(2), 880, 300, None, conf=0.0)
    (question,) = _questions(t.observe())
    assert question.data["about"] == "oracle-face" and question.data["why"] == "unreadable"


def test_no_hero_is_asked_by_an_engine_number() -> None:
    t = Table()
    t.flick(2, 350, 300)
    for q in _questions(t.roll(1, (None, None, "pi", "pi"))) + list(t.ref.questions.values()):
        assert str(hero_cam(0)) not in q.text and not re.search(r"\d", q.text)
