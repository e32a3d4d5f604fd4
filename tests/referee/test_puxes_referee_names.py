"""The PuXes referee names the players by name and colour: its prompt, its calls' reasons, its questions
and its refusals say "Ada (red)" where a table without names says "Red", never a seat number; an
overrule or a restored checkpoint, which rebuild the game, keep the names."""

from __future__ import annotations

import pytest
from puxes_table import Scene, Table, decisions, oracle_cam

from controller.engines.puxes import PuxesGame
from controller.engines.puxes.actions import UsePower
from controller.referee.demo.table import ScriptedTable
from controller.referee.puxes import PuxesReferee
from controller.referee.puxes_demo import Players, differences

NAMES = ("Ada", "Brice")
FIRST = (("pi", "Crâne Yorick", "bombe", "pirate"), ("pi",) * 4)
SETUP_RULE = ("Rule: « Positionne tes 4 DiXes oracles devant ton temple, à une distance d'environ 3 DiXes de ce dernier "
              "(représentée par la zone verte, appelée « le jardin public ») et à une distance d'1 DiXe les uns des "
              "autres. » (Set your 4 oracle DiXes in front of your temple, about 3 DiXes from it (the green zone, called "
              "the public garden) and 1 DiXe apart from each other.)")


@pytest.mark.parametrize(("names", "first", "second"), [((), "Red", "Blue"), (NAMES, "Ada (red)", "Brice (blue)")])
def test_set_up_calls_and_the_prompt(names: tuple[str, ...], first: str, second: str) -> None:
    """Without names the texts name the seats by colour; with names, by name and colour. The call that
    decides who starts quotes the rule of the first roll, not another."""
    t = Table(names=names)
    assert t.ref.prompt() == f"{first} to play"
    assert t.setup_results[0].reason == f"{first} sets their pi oracle in the public garden at (223, 300) mm. {SETUP_RULE}"
    assert t.setup_results[-1].reason == (
        f"{second} rolls pi, pi, pi and pi: no character. {first} rolled the most characters and starts, keeping that "
        f"roll. Turn 1: {first} plays. Rule: « En début de partie, les joueurs jettent tous leurs héros. Celui qui "
        "obtient le plus de personnages commence. » (At the start of the game, every player rolls all their heroes. "
        f"Whoever gets the most characters starts.) {first} may move their pi oracle.")


@pytest.mark.parametrize(("names", "first"), [((), "Red"), (NAMES, "Ada (red)")])
def test_a_wrong_oracle_moved_is_refused_by_name(names: tuple[str, ...], first: str) -> None:
    t = Table(names=names)
    calls = t.flick(3, 300, 350)
    assert decisions(calls) == ["illegal-move"]
    assert calls[0].reason.startswith(f"{first} may move only their pi oracle now, but their pirate oracle moved: put "
                                      "it back where it was. Rule: « Pour pouvoir déplacer un oracle,")
    assert calls[0].reason.endswith(f" {first} may move their pi oracle.")


def test_a_named_players_choice_and_its_call() -> None:
    """A power announced on the dashboard is said once, by the engine's event, and quotes that power's rule."""
    t = Table({"powers": [["Crâne Yorick", "furtif"]]}, first=FIRST, names=NAMES)
    call = t.ref.player_action(0, UsePower(hero=7, power="furtif"))
    assert call.reason == (
        "Ada (red) uses Furtif. Rule: « L'oracle peut être déplacé 2 fois de suite, à condition que rien ne soit "
        "touché au premier déplacement. » (The oracle may be moved twice in a row, as long as nothing is touched by "
        "the first move.) Ada (red) may move their pi oracle, their pirate oracle and their bomb oracle.")


def test_the_face_question_names_the_player_who_chooses_and_the_demo_players_still_read_it() -> None:
    """Immunité puts an oracle that left back on the edge and the next player turns up its face; read
    at low confidence, the referee asks which face that player chose."""
    t = Table({"powers": [["Crâne Yorick", "immunite"]]}, first=FIRST, names=NAMES)
    assert "immune" in [e.kind for c in t.flick(2, None) for e in c.events]
    t.scene.put(oracle_cam(2), 880, 300, "sablier", conf=0.3)
    (question,) = t.observe()
    assert question.text == ("Which face did Brice (blue) turn up on the oracle of Ada (red) that Immunité saved, "
                             "in the public garden of Brice (blue)?")
    assert question.reason == "The camera thinks it shows hourglass but is not sure."
    assert question.choices[0] == "sablier"
    assert question.data == {"about": "oracle-face", "oracle": 2, "die": 2, "camera": oracle_cam(2), "x": 880.0,
                             "y": 300.0, "why": "unsure", "guess": "sablier", "colour": None,
                             "reading": {"face": "sablier", "confidence": 0.3}}
    assert "sablier" in question.choices
    assert question.choice_messages[question.choices.index("sablier")] == {"msg": "hourglass", "args": {}}
    people = Players(ScriptedTable({"players": 2}, seed=1))
    assert people.answer(question, t.ref, None, None)[1] == "oracle-face"


def test_a_misplaced_temple_is_named_after_its_owner() -> None:
    game = PuxesGame()
    game.name_seats(NAMES)
    ref = PuxesReferee(game)
    scene = Scene()
    scene.temple(0, 100, 101, 200, 300)                 # 50 mm too far in
    scene.put(102, 223, 300, "pi")
    (call,) = ref.observe(scene.snap())
    assert call.decision == "temple-misplaced"
    assert call.reason.startswith("The temple of Ada (red) must stand at (150, 300) mm: build it there before setting "
                                  "the oracles. Rule: « Bâtis ton temple en plaçant 2 DiXes")


def test_an_overrule_keeps_the_names() -> None:
    """An overrule replays the game into a new engine: the names go with it, and the new call quotes the
    rule of what it now decides."""
    t = Table(names=NAMES)
    t.scene.topple(1, (790, 300))
    calls = t.flick(2, 715, 300)
    assert calls[0].reason.startswith("The temple of Brice (blue) is DiXé by the pi oracle of Ada (red). Brice (blue) is "
                                      "eliminated: their temple is DiXé. Ada (red) wins and becomes the guardian of the "
                                      "Earth. Rule: « Le joueur qui réussira à survivre")
    new = t.ref.overrule(calls[0].call_id, "temple-touches")
    assert t.g is not t.game and t.g.seat_names == NAMES
    assert new.reason.startswith(
        f"Call {calls[0].call_id} is overruled. The temple of Brice (blue) fell but the DiXé does not count (the fallen "
        "temple die touches an oracle): the temple is rebuilt and the defenders that left are put back. The pi oracle "
        "of Ada (red) falls asleep (its DiXé did not count). Ada (red) has nothing left to do this turn. Turn 2: Brice "
        "(blue) plays. Rule: « il n'est pas permis sur un tir de renverser un temple et de toucher un oracle.")
    assert t.ref.prompt() == "Brice (blue) to roll their heroes"


def test_a_restored_checkpoint_keeps_the_names() -> None:
    """Restoring a checkpoint after the game went on in place rebuilds the game: the names go with it."""
    t = Table({"powers": [["Crâne Yorick", "furtif"]]}, first=FIRST, names=NAMES)
    saved = t.ref.checkpoint()
    t.ref.player_action(0, UsePower(hero=7, power="furtif"))
    t.ref.restore(saved)
    assert t.g is not t.game and len(t.g.history) == len(t.game.history) - 1
    assert t.g.seat_names == NAMES and t.ref.prompt() == "Ada (red) to play"


def test_the_demo_compares_the_step_not_the_names() -> None:
    """The simulated table's own game has no names; a named referee following it exactly differs in nothing."""
    named, plain = Table(names=NAMES), Table()
    assert named.g.waiting_for() != plain.g.waiting_for()
    assert differences(named.g, plain.g) == []
    plain.flick(2, 400, 300)
    assert differences(named.g, plain.g) != []
