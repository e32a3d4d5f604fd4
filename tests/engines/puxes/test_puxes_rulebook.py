"""Each PuXes decision quotes the rule that made it: every event kind rests on a passage printed in the
rulebook, the passage of its own cause, and the quotation reads in French for a French reader and with
an English rendering beside it for an English one."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from controller import i18n
from controller.engines import CHANCE
from controller.engines.puxes import PuxesGame, rulebook
from controller.engines.puxes.actions import Roll

RULES_DIR = Path(__file__).resolve().parents[4] / "shared" / "rules"
RULEBOOK = RULES_DIR / "puxes.fr.md"

#: What each cause is about, in the rulebook's own words: the passage an event rests on must say it.
#: Written apart from the passages themselves, so that an event mapped to another cause's passage
#: (a tie quoting the rule of a die on its edge) fails here.
ABOUT: dict[str, str] = {
    "first-player": "le plus de personnages commence",
    "roll": "faces visibles des dés",
    "cocked-die": "sur la tranche ou sur un coin",
    "hero-touched-oracle": "si un héros touche un oracle",
    "setup-oracles": "jardin public",
    "setup-temple": "Bâtis ton temple",
    "move": "ne touche rien",
    "shoot": "touche un autre oracle",
    "symbol-match": "symbole présent sur la face visible",
    "no-move": "ne peut pas faire de déplacement",
    "wake": "paire de symboles",
    "wake-place": "oracle réveillé",
    "asleep": "sort de la zone de jeu",
    "cliff": "est perdu",
    "sacred": "jardin sacré",
    "push-failed": "coup de défense",
    "dixe": "le DiXe supérieur tombe",
    "dixe-twice": "replacer à son emplacement d'origine",
    "dixe-void": "renverser un temple et de toucher un oracle",
    "dixe-void-sleep": "l'oracle joué s'endort",
    "toddlers-symbol": "est un symbole, il ne peut pas DiXer",
    "spit-no-dixe": "crachat ne peut pas DiXer",
    "own-temple": "son propre temple",
    "temple-lost": "temple DiXé perd",
    "all-asleep": "tous les oracles d'un joueur sont endormis",
    "coop-temple-lost": "tant que son coéquipier",
    "coop-all-asleep": "il ne peut plus jouer",
    "blitz": "prend le contrôle de ses oracles",
    "game-over": "gardien de la Terre",
    "fortress": "crachat depuis la forteresse",
    "fortress-taken": "déjà occupée",
    "immunity": "aucun de tes oracles ne peut être endormi",
    "immunity-face": "choisit sa face visible",
    "protection": "tous les pouvoirs adverses",
    "ambidextre": "main dominante",
    "petit-gris": "renverse Petit gris",
    "active-power": "un seul pouvoir actif",
    "seduction": "Petit gris au-dessus",
    "contamination": "Rukura devient ton oracle",
    "retrograde": "L'oracle devient héros",
    "retraite": "replacer un oracle en jeu",
    "attrape-moi": "réveiller un oracle et le replacer en défense",
    "changement-d-avis": "changer le symbole",
    "coup-de-bol": "relance deux héros",
    "retente-ta-chance": "relancer tes héros",
    "transport": "au-dessus ou en-dessous",
    "vampirisation": "collés",
    "spit": "Tirer à l'aide d'un héros",
    "turn": "3 phases",
    "coup-de-langue": "Kaeru crache",
    "furtif": "2 fois de suite",
    "quarante-neuf-trois": "n'importe lequel de tes oracles",
    "imitation": "héros adverse visible",
    "coup-double": "2 oracles s'ils ont le même symbole",
    "mega-coup-de-bol": "déplacer une nouvelle fois",
    "charme": "crache à l'aide du héros",
}


def _rulebook_text() -> str:
    if not RULEBOOK.is_file():
        pytest.skip(f"the rulebook is not at {RULEBOOK}")
    return re.sub(r"\s+", " ", RULEBOOK.read_text(encoding="utf-8").replace("**", ""))


@pytest.mark.parametrize("slug", sorted(rulebook.PASSAGES))
def test_every_passage_is_printed_in_the_rulebook_and_said_in_each_language(slug: str) -> None:
    passage = rulebook.PASSAGES[slug]
    assert passage.french in _rulebook_text(), f"{slug}: not a sentence of {RULEBOOK.name}"
    assert ABOUT[slug] in passage.french, f"{slug} does not say what its cause is about ({ABOUT[slug]!r})"
    french = i18n.said(passage.quoted(), "fr")
    english = i18n.said(passage.quoted(), "en")
    assert french == f"« {passage.french} »"
    assert english.startswith(f"« {passage.french} » (") and english.endswith(")")
    rendering = english[len(passage.french) + 5:-1]
    assert rendering and rendering != passage.french


def _events_of_every_kind() -> list:
    """The events of the golden games and of random playouts of the variants: every kind the engine makes."""
    events = []
    variants = [options for _, options, _, _ in PuxesGame.GOLDEN_SCENARIOS] + [
        {"players": 4, "mode": "coop"}, {"toddlers": True}, {"players": 3}, {"temple_lives": 2},
        {"powers": [["Crâne Yorick", "seduction"], ["Mr Blaireau", "contamination"], ["Arkan Sonney", "retrograde"],
                    ["Hanuman", "transport"]]},
        {"powers": [["Crâne Yorick", "vampirisation"], ["Mr Blaireau", "retraite"], ["Arkan Sonney", "attrape_moi"],
                    ["Hanuman", "ambidextre"]]},
        {"powers": [["Crâne Yorick", "changement_d_avis"], ["Mr Blaireau", "coup_de_langue"],
                    ["Arkan Sonney", "charme"], ["Hanuman", "retente_ta_chance"]]},
    ]
    for k, options in enumerate(variants):
        for seed in range(3):
            game = PuxesGame(PuxesGame.OPTIONS.from_dict(options), seed=seed)
            rng = random.Random(seed * 31 + k)
            for _ in range(500):
                if game.is_over():
                    break
                player = game.current_players()[0]
                actions = game.legal_actions(player)
                events.extend(game.apply(player, actions[rng.randrange(len(actions))]))
    return events


EVENTS = _events_of_every_kind()
KINDS = sorted({e.kind for e in EVENTS})


def test_the_playouts_reach_the_kinds_with_several_causes() -> None:
    assert {"roll-again", "eliminated", "asleep", "placed", "temple-rebuilt", "dixe", "power"} <= set(KINDS)
    causes = {(e.kind, rulebook.rule_of(e.kind, e.data)) for e in EVENTS}
    assert {("roll-again", "first-player"), ("roll-again", "cocked-die"), ("eliminated", "temple-lost"),
            ("eliminated", "all-asleep")} <= causes


@pytest.mark.parametrize("kind", KINDS)
def test_each_event_kind_quotes_a_passage_of_its_own_cause(kind: str) -> None:
    """Every event of ``kind`` rests on a passage of the rulebook, one its kind allows, and that passage
    is about the event's cause."""
    allowed = rulebook.CAUSES.get(kind, (rulebook.KIND_RULES[kind],))
    for event in (e for e in EVENTS if e.kind == kind):
        rule = rulebook.rule_of(event.kind, event.data)
        assert rule in allowed, f"{kind}: {event.text!r} rests on {rule!r}, not one of {allowed}"
        passage = rulebook.passage(rule)
        assert passage is not None and ABOUT[rule] in passage.french
        assert event.message is not None and i18n.said(event.message, "en") == event.text


def _first_rolls(*rolls: Roll) -> list:
    """The events of the first rolls of a two-player game set up by its first placements."""
    game = PuxesGame(seed=0)
    while game.queue[0]["kind"] == "place":
        player = game.current_players()[0]
        game.apply(player, game.legal_actions(player)[0])
    events = []
    for roll in rolls:
        events += game.apply(CHANCE, roll)
    return events


@pytest.mark.parametrize(("rolls", "rule", "words"), [
    ((Roll(("pi",) * 4), Roll(("pi",) * 4)), "first-player", "Red and Blue tie with no character and roll again."),
    ((Roll(("pi",) * 4, cocked=True),), "cocked-die", "A die stopped on its edge or a corner: Red rolls the heroes again."),
    ((Roll(("pi",) * 4, touched_oracle=True),), "hero-touched-oracle",
     "A hero touched an oracle during the first roll: Red rolls again, as there is no turn to lose yet."),
], ids=["tie", "cocked", "touched"])
def test_a_roll_made_again_rests_on_the_rule_of_its_cause(rolls: tuple[Roll, ...], rule: str, words: str) -> None:
    (again,) = [e for e in _first_rolls(*rolls) if e.kind == "roll-again"]
    assert again.text == words
    assert rulebook.rule_of(again.kind, again.data) == rule
