"""Every PuXes power, refereed from TableSnapshots.

The starter characters' powers are not published, so each test gives a starter character the power
under test with the ``powers`` option. Player 0's heroes are dice 6 (Oni), 7 (Crâne Yorick),
8 (Mr Blaireau), 9 (Arkan Sonney); unless said otherwise player 0 starts showing
pi, Crâne Yorick, bombe, pirate, so oracles 2 (pi), 3 (pirate) and 4 (bombe) may move.
"""

from __future__ import annotations

import pytest

from controller.engines.core import RuleError
from controller.engines.puxes.actions import Carry, EndTurn, Move, Reroll, Spit, UsePower, Wake
from controller.referee.common import Call
from puxes_table import Table, decisions, hero_cam, oracle_cam

FIRST = (("pi", "Crâne Yorick", "bombe", "pirate"), ("pi",) * 4)


def table(power: str, **kw) -> Table:
    options = {"powers": [["Crâne Yorick", power]], **kw.pop("options", {})}
    return Table(options, first=kw.pop("first", FIRST), **kw)


def kinds(calls) -> list[str]:
    return [e.kind for c in calls if isinstance(c, Call) for e in c.events]


def test_protection_blocks_the_opponents_powers() -> None:
    """Protection: « Arrête immédiatement et empêche l'activation de tous les pouvoirs adverses tant que le
    personnage reste visible. »"""
    t = Table({"powers": [["Crâne Yorick", "furtif"]]})          # player 0 starts with Oni showing
    t.flick(2, 350, 300)
    t.roll(1, ("pi", "Crâne Yorick", "pi", "pi"))
    assert not any(isinstance(a, UsePower) for a in t.g.legal_actions(1))
    with pytest.raises(RuleError) as info:
        t.ref.player_action(1, UsePower(hero=17, power="furtif"))
    assert info.value.rule == "power"


def test_the_first_oni_to_appear_has_priority() -> None:
    """« Si plusieurs Oni sont en jeu, c'est le premier apparu qui est prioritaire sur les autres, le second Oni est
    activé dès que le premier disparaît. »"""
    t = Table({"powers": [["Crâne Yorick", "furtif"]]})
    t.flick(2, 350, 300)
    t.roll(1, ("Oni", "Crâne Yorick", "pi", "pi"))                # player 1's Oni appears second
    assert not any(isinstance(a, UsePower) for a in t.g.legal_actions(1))
    t.flick(12, 600, 300)
    t.roll(0, ("pi", "Crâne Yorick", "bombe", "pirate"))         # player 0's Oni disappears
    assert not any(isinstance(a, UsePower) for a in t.g.legal_actions(0))   # now player 1's Oni protects


def test_coup_de_langue_spits_and_pulls_the_touched_oracle() -> None:
    """Coup de langue: « Après le déplacement d'un oracle, Kaeru crache sur un oracle, ce crachat a pour effet
    d'attirer à côté de lui l'oracle touché. »"""
    t = table("coup_de_langue")
    t.ref.player_action(0, UsePower(hero=7, power="coup_de_langue"))
    t.flick(2, 600, 300)
    assert Spit() in t.g.legal_actions(0)
    t.ref.player_action(0, Spit())
    t.scene.put(hero_cam(7), 640, 300, "Crâne Yorick")
    calls = t.flick(12, 655, 300)                          # pulled beside Kaeru
    assert decisions(calls)[0] == "shot"
    assert t.pos(12) == (655.0, 300.0)


def test_furtif_moves_twice_when_nothing_is_touched() -> None:
    """Furtif: « L'oracle peut être déplacé 2 fois de suite, à condition que rien ne soit touché au premier
    déplacement. »"""
    t = table("furtif")
    t.ref.player_action(0, UsePower(hero=7, power="furtif"))
    t.flick(2, 350, 300)
    assert t.ref.may_move() == [2]
    t.flick(2, 450, 300)
    assert t.pos(2) == (450.0, 300.0)
    t2 = table("furtif")
    t2.ref.player_action(0, UsePower(hero=7, power="furtif"))
    t2.flick(2, 240, 320, also={3: (230, 390)})
    assert t2.g.turn["player"] == 1                         # something was touched: no second move


def test_seduction_immobilises_and_a_knocked_petit_gris_puts_the_oracle_to_sleep() -> None:
    """Séduction: « Immobilise un oracle adverse en posant Petit gris au-dessus. » « Si un oracle renverse Petit gris
    qui l'immobilise, cet oracle est aussitôt endormi. Le héros retourne dans la main de son propriétaire. »"""
    t = table("seduction")
    t.ref.player_action(0, UsePower(hero=7, power="seduction", target=12))
    t.scene.put(hero_cam(7), 677, 300, "Crâne Yorick", level=2)
    assert 7 not in t.g.players[0].heroes
    t.flick(2, 350, 300)
    t.roll(1, ("pi", "pirate", "pi", "pi"))
    assert t.ref.may_move() == [13]                        # 12 shows pi but Petit gris holds it
    t.flick(13, 600, 250)
    t.roll(0, ("pi", "bombe", "pirate"))                   # three heroes left: Petit gris is on the table
    t.scene.put(hero_cam(7), 640, 330, "bombe")           # knocked off by the shot
    calls = t.flick(2, 650, 300, also={12: (665, 320)})
    assert t.g.dice[12].status == "asleep"
    assert 7 in t.g.players[0].heroes
    assert "freed" in kinds(calls)


def test_transport_carries_the_touched_oracle() -> None:
    """Transport: « Emmène avec lui l'oracle touché, l'oracle est placé au-dessus ou en-dessous, au choix du joueur. »
    « Un oracle déplacé par le pouvoir « transport » n'est pas bloqué »"""
    t = table("transport")
    t.ref.player_action(0, UsePower(hero=7, power="transport"))
    t.flick(2, 650, 300, also={12: (690, 300)})
    assert set(t.g.legal_actions(0)) == {Carry(12, True), Carry(12, False)}
    t.ref.player_action(0, Carry(12, on_top=True))
    assert t.pos(12) == t.pos(2)
    t.scene.put(oracle_cam(12), *t.pos(12), "pi", level=2)     # carried on top of oracle 2
    t.roll(1, ("pi", "pi", "pi", "pi"))
    assert 12 in t.ref.may_move()


def test_retrograde_swaps_an_opposing_oracle_with_a_hero() -> None:
    """Rétrogradé: « Échange la place d'un oracle adverse avec l'un de ses héros. L'oracle devient héros et
    inversement, le héros devient oracle. »"""
    t = table("retrograde")
    t.ref.player_action(0, UsePower(hero=7, power="retrograde", target=12, other=8))
    assert t.g.dice[8].role == "oracle" and t.g.dice[8].owner == 0 and t.pos(8) == (677.0, 300.0)
    assert t.g.dice[12].role == "hero" and 12 in t.g.players[0].heroes
    assert 12 not in t.g.oracles_of(1)


def test_49_3_plays_any_oracle() -> None:
    """49,3: « Tu peux jouer n'importe lequel de tes oracles, même si aucun symbole ne correspond »"""
    t = table("quarante_neuf_trois")
    assert 5 not in t.ref.may_move()
    t.ref.player_action(0, UsePower(hero=7, power="quarante_neuf_trois"))
    assert t.ref.may_move() == [2, 3, 4, 5]
    assert decisions(t.flick(5, 300, 420)) == ["moved"]


def test_retraite_puts_an_oracle_back_in_the_public_garden() -> None:
    """Retraite: « Tu peux replacer un oracle en jeu dans ton jardin public. »"""
    t = table("retraite")
    t.flick(2, 400, 300)                                   # turn 1: oracle 2 goes forward
    t.roll(1, ("pi",) * 4)
    t.flick(12, 600, 300)
    t.roll(0, ("pi", "Crâne Yorick", "bombe", "pirate"))
    t.ref.player_action(0, UsePower(hero=7, power="retraite", target=2))
    t.scene.put(oracle_cam(2), 223, 300, "pi")
    calls = t.observe()
    assert decisions(calls) == ["placed"] and t.pos(2) == (223.0, 300.0)
    assert t.g.queue[0]["kind"] == "main"                  # the move is still to come


def test_vampirisation_sticks_a_touched_oracle_even_through_protection() -> None:
    """Vampirisation: « Attire un oracle touché et l'immobilise tant qu'ils sont collés » « résiste à tous pouvoirs
    (même protection) » « Si [...] seulement un oracle ami est touché, alors il est obligatoirement vampirisé. »"""
    t = Table({"powers": [["Crâne Yorick", "vampirisation"]]})    # player 0 shows Oni
    t.flick(2, 350, 300)
    t.roll(1, ("pi", "Crâne Yorick", "pi", "pi"))
    assert UsePower(hero=17, power="vampirisation") in t.g.legal_actions(1)
    t.ref.player_action(1, UsePower(hero=17, power="vampirisation"))
    t.flick(12, 640, 320, also={14: (640, 350)})            # only a friendly oracle is touched
    assert t.g.legal_actions(1) == [Carry(14, True)]
    t.ref.player_action(1, Carry(14))
    assert t.g.glued == {14: 12}
    t.roll(0, ("pi", "pi", "bombe", "pirate"))
    t.flick(2, 380, 300)
    t.roll(1, ("bombe", "pi", "pi", "pi"))
    assert 14 not in t.ref.may_move()


def test_attrape_moi_wakes_an_oracle_that_cannot_move_this_turn() -> None:
    """Attrape-moi: « Tu peux réveiller un oracle et le replacer en défense dans ton jardin public mais tu ne peux
    pas le déplacer durant ce tour. »"""
    t = table("attrape_moi")
    t.flick(2, None)
    t.roll(1, ("pi",) * 4)
    t.flick(12, 600, 300)
    t.roll(0, ("pi", "Crâne Yorick", "bombe", "pirate"))
    t.ref.player_action(0, UsePower(hero=7, power="attrape_moi", target=2))
    t.scene.put(oracle_cam(2), 223, 300, "pi")
    assert decisions(t.observe()) == ["placed"]
    assert t.g.dice[2].status == "play"
    assert 2 not in t.ref.may_move() and 4 in t.ref.may_move()


def test_imitation_uses_an_opposing_visible_power() -> None:
    """Imitation: « Tu peux utiliser le pouvoir d'un héros adverse visible. »"""
    t = Table({"powers": [["Crâne Yorick", "imitation"], ["Mr Blaireau", "furtif"]]}, first=FIRST)
    assert not any(isinstance(a, UsePower) for a in t.g.legal_actions(0))   # no opposing hero visible yet
    t.flick(2, 350, 300)
    t.roll(1, ("pi", "pi", "Mr Blaireau", "pi"))
    t.flick(12, 600, 300)
    t.roll(0, ("pi", "Crâne Yorick", "bombe", "pirate"))
    copy = UsePower(hero=7, power="furtif", copied_from=18)
    assert copy in t.g.legal_actions(0)
    call = t.ref.player_action(0, copy)
    assert "Imitation" in call.reason
    t.flick(2, 400, 300)
    assert t.ref.may_move() == [2]


def test_coup_double_moves_two_oracles_with_the_same_symbol() -> None:
    """Coup double: « Tu peux déplacer 2 oracles s'ils ont le même symbole et si ce même symbole est aussi visible sur
    l'un de tes héros. »"""
    t = table("coup_double", faces={0: ("pi", "pi", "bombe", "smiley")})
    t.ref.player_action(0, UsePower(hero=7, power="coup_double", face="pi"))
    assert t.ref.may_move() == [2, 3]
    t.flick(2, 350, 300)
    assert t.ref.may_move() == [3]
    t.flick(3, 350, 380)
    assert t.g.turn["player"] == 1


def test_changement_d_avis_turns_an_oracle_but_not_to_a_character() -> None:
    """Changement d'avis: « Tu peux changer le symbole d'un de tes oracles. » « ne peut pas changer un symbole en
    personnage. »"""
    t = table("changement_d_avis")
    with pytest.raises(RuleError):
        t.ref.player_action(0, UsePower(hero=7, power="changement_d_avis", target=5, face="Arkan Sonney"))
    t.ref.player_action(0, UsePower(hero=7, power="changement_d_avis", target=5, face="pirate"))
    assert t.g.dice[5].face == "pirate" and 5 in t.ref.may_move()


def test_coup_de_bol_rerolls_two_heroes_and_plays_again_on_a_match() -> None:
    """Coup de bol: « Après ton déplacement, relance deux héros et rejoue si un symbole correspond à un de tes
    oracles. » « « Coup de bol » ne peut pas libérer. »"""
    t = table("coup_de_bol")
    t.ref.player_action(0, UsePower(hero=7, power="coup_de_bol"))
    assert not any(isinstance(a, Wake) for a in t.g.legal_actions(0))
    t.flick(2, 350, 300)
    t.ref.player_action(0, Reroll((6, 8)))
    t.scene.put(hero_cam(6), 420, 40, "smiley")
    t.scene.put(hero_cam(8), 480, 40, "sablier")
    calls = t.observe(moved=[hero_cam(6), hero_cam(8)])
    assert decisions(calls)[0] == "roll"
    assert t.ref.may_move() == [5]                          # smiley matches oracle 5


def test_contamination_replaces_an_opposing_oracle_and_ends_the_turn() -> None:
    """Contamination: « Ton héros Rukura devient ton oracle en prenant la place d'un oracle adverse, celui-ci s'endort.
    Ton tour se termine immédiatement. » « cette action est définitive »"""
    t = Table({"decks": ["legends", "starter"]}, first=(("Kaeru", "pi", "Rukura", "pi"), ("pi",) * 4))
    call = t.ref.player_action(0, UsePower(hero=8, power="contamination", target=12))
    assert t.g.dice[8].role == "oracle" and t.g.dice[8].owner == 0 and t.pos(8) == (677.0, 300.0)
    assert t.g.dice[12].status == "asleep"
    assert 8 not in t.g.players[0].heroes and len(t.g.players[0].heroes) == 3
    assert t.g.turn["player"] == 1 and "contaminated" in [e.kind for e in call.events]


def test_retente_ta_chance_rolls_the_heroes_again() -> None:
    """Retente ta chance: « Tu peux relancer tes héros. »"""
    t = table("retente_ta_chance")
    t.ref.player_action(0, UsePower(hero=7, power="retente_ta_chance"))
    calls = t.roll(0, ("smiley", "soleil", "aum", "sablier"))
    assert decisions(calls)[0] == "roll"
    assert t.ref.may_move() == [5]
    assert not any(isinstance(a, UsePower) for a in t.g.legal_actions(0))   # one active power per turn


def test_ambidextre_reminds_the_opponents_of_their_weak_hand() -> None:
    """Ambidextre: « Tant que le personnage est visible, les adversaires n'ont pas le droit d'utiliser leur main
    dominante ni pour lancer les héros ni pour déplacer un oracle. »"""
    t = table("ambidextre")
    calls = t.flick(2, 350, 300)
    calls += t.roll(1, ("pi",) * 4)
    assert any(e.kind == "power" and e.data.get("power") == "ambidextre" and e.data.get("target") == 1
               for c in calls if isinstance(c, Call) for e in c.events)


def test_mega_coup_de_bol_moves_again_on_a_new_matching_symbol_of_another_hero() -> None:
    """Mega coup de bol: « si le nouveau symbole apparaissant est présent dans tes héros, tu peux déplacer une
    nouvelle fois l'oracle. » « ne peut pas utiliser le symbole du même héros. »"""
    t = table("mega_coup_de_bol")
    t.ref.player_action(0, UsePower(hero=7, power="mega_coup_de_bol"))
    t.flick(2, 350, 300, face="bombe")                     # new face bombe: on hero 8
    assert t.ref.may_move() == [2]
    t.flick(2, 420, 300, face="pi")                        # only two moves
    assert t.g.turn["player"] == 1
    t2 = table("mega_coup_de_bol")
    t2.ref.player_action(0, UsePower(hero=7, power="mega_coup_de_bol"))
    t2.flick(2, 350, 300, face="pi")                       # pi again: only the same hero shows it
    assert t2.g.turn["player"] == 1


def test_charme_spits_after_a_clean_move_only() -> None:
    """Charme: « Déplace ton oracle puis crache à l'aide du héros. » « Si durant le déplacement vous touchez un
    oracle adverse ou un temple, vous n'avez pas le droit d'utiliser le pouvoir de charme. »"""
    t = table("charme")
    t.ref.player_action(0, UsePower(hero=7, power="charme"))
    t.flick(2, 600, 300)
    t.ref.player_action(0, Spit())
    calls = t.flick(12, 720, 300)
    assert decisions(calls)[0] == "shot"
    t2 = table("charme")
    t2.ref.player_action(0, UsePower(hero=7, power="charme"))
    t2.flick(2, 655, 300, also={12: (690, 300)})
    assert Spit() not in t2.g.legal_actions(0)


def test_a_spit_cannot_dixe_a_temple() -> None:
    """Cracher: « Un crachat ne peut pas DiXer un temple, si cela se produit on le replace à son emplacement
    d'origine. »"""
    t = table("charme")
    t.ref.player_action(0, UsePower(hero=7, power="charme"))
    t.flick(2, 600, 300)
    t.ref.player_action(0, Spit())
    t.scene.topple(1, (800, 300))
    calls = t.observe(moved=[hero_cam(7)])
    assert "temple-rebuilt" in kinds(calls)
    assert t.g.temples[1].status == "standing" and not t.g.is_over()


def test_immunite_keeps_oracles_awake_and_the_next_player_chooses_the_face() -> None:
    """Immunité: « Tant qu'il est visible, aucun de tes oracles ne peut être endormi. » « Le ou les DiXes sauvés par
    le pouvoir « immunité » sont replacés là où ils sont sortis. C'est le joueur suivant qui choisit sa face
    visible. »"""
    t = table("immunite")
    calls = t.flick(2, None)
    assert "immune" in kinds(calls) and t.g.dice[2].status == "play"
    assert t.g.queue[0] == {"kind": "face", "player": 1, "oracle": 2}
    t.scene.put(oracle_cam(2), 880, 300, "sablier")        # put back where it left, face chosen by player 1
    t.observe()
    assert t.g.dice[2].face == "sablier" and t.pos(2) == (880.0, 300.0)


def test_powers_are_announced_before_the_move() -> None:
    """« Un joueur ne peut activer qu'un seul pouvoir actif durant son tour » — announced in phase 2, before phase 3."""
    t = table("furtif", options={"powers": [["Crâne Yorick", "furtif"], ["Mr Blaireau", "charme"]]},
                first=(("pi", "Crâne Yorick", "Mr Blaireau", "pirate"), ("pi",) * 4))
    t.ref.player_action(0, UsePower(hero=7, power="furtif"))
    assert not any(isinstance(a, UsePower) for a in t.g.legal_actions(0))
    t.flick(2, 350, 300)
    assert Move(2) in t.g.legal_actions(0) and EndTurn() in t.g.legal_actions(0)
