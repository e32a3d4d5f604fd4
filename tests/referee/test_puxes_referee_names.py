"""The PuXes referee names the players: its prompt, its calls' reasons, its questions and its refusals
say "Ada" where a table without names says "player 0", and an overrule or a restored checkpoint,
which rebuild the game, keep the names."""

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


@pytest.mark.parametrize(("names", "first", "second"), [((), "player 0", "player 1"), (NAMES, "Ada", "Brice")])
def test_set_up_calls_and_the_prompt(names: tuple[str, ...], first: str, second: str) -> None:
    """Without names the texts are the ones the referee always gave; with names, the same with the names."""
    t = Table(names=names)
    assert t.ref.prompt() == f"{first} to play"
    assert t.setup_results[0].reason.startswith(f"{first.capitalize()} sets oracle 2 in the public garden at (223, 300) mm")
    assert t.setup_results[-1].reason == (
        f"{second.capitalize()} rolls pi, pi, pi, pi (0 characters). {first.capitalize()} rolled the most characters "
        f"and starts, keeping that roll. Turn 1: {first} plays. Rule: « Les faces visibles des dés indiquent quel(s) "
        "pouvoir(s) (si personnage il y a) le joueur va utiliser et quel oracle pourra être déplacé. » "
        f"{first.capitalize()} may move oracle(s) 2.")


@pytest.mark.parametrize(("names", "first"), [((), "player 0"), (NAMES, "Ada")])
def test_a_wrong_oracle_moved_is_refused_by_name(names: tuple[str, ...], first: str) -> None:
    t = Table(names=names)
    calls = t.flick(3, 300, 350)
    assert decisions(calls) == ["illegal-move"]
    assert calls[0].reason.startswith(f"oracle(s) 3 moved, but {first} may move 2 now: put them back where they were.")
    assert calls[0].reason.endswith(f" {first.capitalize()} may move oracle(s) 2.")


def test_a_named_players_choice_and_its_call() -> None:
    t = Table({"powers": [["Crâne Yorick", "furtif"]]}, first=FIRST, names=NAMES)
    call = t.ref.player_action(0, UsePower(hero=7, power="furtif"))
    assert call.reason == "Ada: UsePower(hero=7, power=furtif). Ada uses Furtif. Ada may move oracle(s) 2, 3, 4."


def test_the_face_question_names_the_player_who_chooses_and_the_demo_players_still_read_it() -> None:
    """Immunité puts an oracle that left back on the edge and the next player turns up its face; read
    at low confidence, the referee asks which face that player chose."""
    t = Table({"powers": [["Crâne Yorick", "immunite"]]}, first=FIRST, names=NAMES)
    assert "immune" in [e.kind for c in t.flick(2, None) for e in c.events]
    t.scene.put(oracle_cam(2), 880, 300, "sablier", conf=0.3)
    (question,) = t.observe()
    assert question.text == "Which face did Brice turn up on oracle 2?"
    assert "sablier" in question.choices
    people = Players(ScriptedTable({"players": 2}, seed=1))
    assert people.answer(question, t.ref, None, None)[1] == "oracle face"


def test_a_misplaced_temple_is_named_after_its_owner() -> None:
    game = PuxesGame()
    game.name_seats(NAMES)
    ref = PuxesReferee(game)
    scene = Scene()
    scene.temple(0, 100, 101, 200, 300)                 # 50 mm too far in
    scene.put(102, 223, 300, "pi")
    (call,) = ref.observe(scene.snap())
    assert call.decision == "temple-misplaced"
    assert call.reason.startswith("temple 0 of Ada must stand at (150, 300) mm: build it there before setting the oracles.")


def test_an_overrule_keeps_the_names() -> None:
    """An overrule replays the game into a new engine: the names go with it."""
    t = Table(names=NAMES)
    t.scene.topple(1, (790, 300))
    calls = t.flick(2, 715, 300)
    assert calls[0].reason.startswith("Temple 1 of Brice is DiXé by oracle 2 of Ada. Brice is eliminated: their temple is "
                                      "DiXé. Ada wins: gardien de la Terre.")
    new = t.ref.overrule(calls[0].call_id, "temple-touches")
    assert t.g is not t.game and t.g.seat_names == NAMES
    assert "Oracle 2 of Ada falls asleep (its DiXé did not count). Ada has nothing left to do. Turn 2: Brice plays." \
        in new.reason
    assert t.ref.prompt() == "the roll of Brice's heroes"


def test_a_restored_checkpoint_keeps_the_names() -> None:
    """Restoring a checkpoint after the game went on in place rebuilds the game: the names go with it."""
    t = Table({"powers": [["Crâne Yorick", "furtif"]]}, first=FIRST, names=NAMES)
    saved = t.ref.checkpoint()
    t.ref.player_action(0, UsePower(hero=7, power="furtif"))
    t.ref.restore(saved)
    assert t.g is not t.game and len(t.g.history) == len(t.game.history) - 1
    assert t.g.seat_names == NAMES and t.ref.prompt() == "Ada to play"


def test_the_demo_compares_the_step_not_the_names() -> None:
    """The simulated table's own game has no names; a named referee following it exactly differs in nothing."""
    named, plain = Table(names=NAMES), Table()
    assert named.g.waiting_for() != plain.g.waiting_for()
    assert differences(named.g, plain.g) == []
    plain.flick(2, 400, 300)
    assert differences(named.g, plain.g) != []
