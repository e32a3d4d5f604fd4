"""A PuXes call quotes the rule that decided it: a tie at the first roll, a die on its edge and a hero
touching an oracle are three causes of rolling again, each with its own passage of the rulebook."""

from __future__ import annotations

from puxes_table import Table, decisions, hero_cam

from controller import i18n
from controller.engines.core import CHANCE
from controller.engines.puxes import rulebook
from controller.engines.puxes.actions import Roll
from controller.referee.common import Call, Question

COCKED = rulebook.PASSAGES["cocked-die"].french
FIRST = rulebook.PASSAGES["first-player"].french
TOUCHED = rulebook.PASSAGES["hero-touched-oracle"].french


def _quote(call: Call, lang: str = "en") -> str:
    """What follows "Rule:" in the call's reason, in ``lang``."""
    said = i18n.said(call.message, lang)
    head = "Rule: " if lang == "en" else "Règle : "
    assert head in said, said
    return said.split(head, 1)[1]


def test_a_tie_at_the_first_roll_quotes_who_starts_not_the_die_on_its_edge() -> None:
    t = Table(first=(("pi",) * 4, ("pi",) * 4), names=("Ada", "Brice"))
    call = t.setup_results[-1]
    assert call.decision == "roll-again"
    assert "Ada (red) and Brice (blue) tie with no character and roll again." in call.reason
    assert f"« {FIRST} »" in call.reason and COCKED not in call.reason
    assert _quote(call, "fr") == f"« {FIRST} »"
    assert i18n.said(call.message, "fr").startswith("Brice (bleu) obtient pi, pi, pi et pi : aucun personnage. Égalité "
                                                    "sans aucun personnage entre Ada (rouge) et Brice (bleu), qui relancent.")


def test_a_hero_touching_an_oracle_at_the_first_roll_quotes_that_rule() -> None:
    t = Table(first=(("pi",) * 4, ("pi",) * 4))
    call = t.ref.player_action(CHANCE, Roll(("Oni", "pi", "pi", "pi"), touched_oracle=True))
    assert call.decision == "roll-again"
    assert f"« {TOUCHED} »" in call.reason and COCKED not in call.reason and FIRST not in call.reason


def test_a_die_on_its_edge_quotes_the_rule_of_the_cocked_die() -> None:
    t = Table()
    t.flick(2, 350, 300)
    heroes = t.g.players[1].heroes
    for k, h in enumerate(heroes):
        t.scene.put(hero_cam(h), 600 + 30 * k, 80, None if k == 0 else "pi", conf=0.0 if k == 0 else 0.99)
    asked = t.observe(moved=[hero_cam(h) for h in heroes])
    (question,) = [q for q in asked if isinstance(q, Question)]
    assert question.data["about"] == "hero-face" and question.data["hero"] == heroes[0]
    assert question.choice_messages[question.choices.index("on-edge")] == {"msg": "on an edge: roll again", "args": {}}
    (call,) = t.ref.answer(question.question_id, "on-edge")
    assert decisions([call]) == ["roll-again"]
    assert _quote(call).startswith(f"« {COCKED} » (") and FIRST not in call.reason


def test_an_overrule_quotes_the_rule_of_the_new_decision() -> None:
    """A roll overruled into a die on its edge quotes the cocked die, as that is now what decided."""
    t = Table()
    t.flick(2, 350, 300)
    (roll,) = [c for c in t.roll(1, ("pi",) * 4) if isinstance(c, Call)]
    assert f"« {rulebook.PASSAGES['roll'].french} »" in roll.reason
    assert roll.alternative_messages[roll.alternatives.index("roll-again")] == {
        "msg": "A die rests on an edge or a corner: roll again", "args": {}}
    again = t.ref.overrule(roll.call_id, "roll-again")
    assert again.reason.startswith(f"Call {roll.call_id} is overruled. A die stopped on its edge or a corner: Blue rolls "
                                   "the heroes again.")
    assert _quote(again).startswith(f"« {COCKED} » (")
