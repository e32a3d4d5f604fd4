"""PuXes rules, one scenario each, refereed from TableSnapshots.

Each test builds the table through snapshots (set-up, rolls, flicks), lets the referee decide, and
checks the call and the engine's state. Docstrings quote the rulebook (puxes.fr.md) words enforced.
"""

from __future__ import annotations

import pytest

from controller.engines.core import RuleError
from controller.engines.puxes.actions import EndTurn, Place, Wake
from controller.referee.common import Call, Question, RefereeError
from puxes_table import Table, decisions, hero_cam, oracle_cam

# Positions after the standard set-up (mm): temples at (150, 300) and (750, 300).
# Player 0: oracle 2 pi (223, 300), 3 pirate (201.6, 351.6), 4 bombe (201.6, 248.4), 5 smiley (150, 373).
# Player 1: oracle 12 pi (677, 300), 13 pirate (698.4, 248.4), 14 bombe (698.4, 351.6), 15 smiley (750, 227).


def test_setup_binds_oracles_in_the_public_garden_with_their_chosen_faces() -> None:
    """« Positionne tes 4 DiXes oracles devant ton temple [...] chaque joueur choisit quelle sera la face
    visible de départ pour chacun d'entre eux. »"""
    t = Table()
    placed = [c for c in t.setup_results if isinstance(c, Call) and c.decision == "placed"]
    assert len(placed) == 8
    assert [t.g.dice[o].face for o in (2, 3, 4, 5)] == ["pi", "pirate", "bombe", "smiley"]
    assert t.ref.binding[oracle_cam(12)] == 12


def test_setup_ignores_a_die_with_fewer_than_two_corners_in_the_garden() -> None:
    """« on veillera bien à ce qu'au minimum 2 coins par oracle soient dans cette zone »"""
    from puxes_table import Scene
    from controller.engines.puxes import PuxesGame
    from controller.referee.puxes import PuxesReferee

    ref = PuxesReferee(PuxesGame())
    scene = Scene()
    for temple in ref.game.temples:
        scene.temple(temple.index, 100 + temple.dice[0], 100 + temple.dice[1], temple.x, temple.y)
    scene.put(102, 150 + 128.0 + 12.0, 300, "pi")      # beyond the public garden's outer edge
    assert ref.observe(scene.snap()) == []
    assert ref.game.dice[2].x is None
    scene.put(102, 240, 300, "pi")
    assert decisions(ref.observe(scene.snap())) == ["placed"]


def test_setup_refuses_oracles_closer_than_one_die() -> None:
    """« à une distance d'1 DiXe les uns des autres »"""
    from controller.engines.puxes import PuxesGame

    game = PuxesGame()
    game.apply(0, Place(2, 223.0, 300.0, 0.0, "pi"))
    with pytest.raises(RuleError, match="1 DiXe apart") as info:
        game.apply(0, Place(3, 223.0, 335.0, 0.0, "pirate"))
    assert info.value.rule == "placement"
    game.apply(0, Place(3, 223.0, 350.0, 0.0, "pirate"))


def test_temple_must_stand_at_one_sixth_of_the_length() -> None:
    """« Bâtis ton temple [...] à une distance de 6 DiXes du bord, précisément 1/6 de la longueur »"""
    from puxes_table import Scene
    from controller.engines.puxes import PuxesGame
    from controller.referee.puxes import PuxesReferee

    ref = PuxesReferee(PuxesGame())
    assert [(t.x, t.y) for t in ref.game.temples] == [(150.0, 300.0), (750.0, 300.0)]
    scene = Scene()
    scene.temple(0, 100, 101, 200, 300)                 # 50 mm too far in
    scene.put(102, 223, 300, "pi")
    calls = ref.observe(scene.snap())
    assert decisions(calls) == ["temple-misplaced"]
    assert "1/6" in calls[0].reason


def test_most_characters_starts_and_ties_roll_again() -> None:
    """« Celui qui obtient le plus de personnages commence. Le premier joueur conserve les résultats de son lancer »"""
    t = Table(first=(("Oni", "pi", "pi", "pi"), ("pi", "Crâne Yorick", "pi", "pi")))
    assert t.g.queue[0]["kind"] == "roll" and t.g.queue[0]["purpose"] == "first"
    t.roll(0, ("pi", "pi", "pi", "pi"))
    t.roll(1, ("Oni", "Crâne Yorick", "pi", "pi"))
    assert t.g.turn["player"] == 1
    assert [t.g.dice[h].face for h in t.g.players[1].heroes] == ["Oni", "Crâne Yorick", "pi", "pi"]
    assert all(t.g.dice[h].face is None for h in t.g.players[0].heroes)


def test_only_an_oracle_whose_symbol_is_on_a_hero_may_move() -> None:
    """« le symbole présent sur la face visible de ce dernier doit également être présent sur l'un des symboles
    visibles de vos héros »"""
    t = Table()
    assert t.ref.may_move() == [2]
    calls = t.flick(3, 300, 350)
    assert decisions(calls) == ["illegal-move"]
    assert "put it back where it was" in calls[0].reason
    assert t.pos(3) == (201.6, 351.6)


def test_a_character_on_a_hero_lets_an_oracle_showing_a_character_move() -> None:
    """« Si au moins un héros présente un personnage sur sa face visible vous pouvez jouer un oracle qui présente
    n'importe quel personnage »"""
    t = Table(faces={0: ("Hanuman", "pirate", "bombe", "smiley")}, first=(("Oni", "soleil", "soleil", "soleil"), ("pi",) * 4))
    assert t.ref.may_move() == [2]
    assert decisions(t.flick(2, 300, 300)) == ["moved"]


def test_no_matching_symbol_means_no_move() -> None:
    """« Si aucun oracle n'a de symbole identique avec l'un des héros, le joueur actif ne peut pas faire de
    déplacement. »"""
    t = Table()
    t.flick(2, 300, 300)
    calls = t.roll(1, ("soleil", "sablier", "aum", "yin-yang"))
    events = [e.kind for c in calls if isinstance(c, Call) for e in c.events]
    assert "no-move" in events
    assert t.g.turn["player"] == 0


def test_moving_without_touching_is_a_move() -> None:
    """« Déplacer : Lorsqu'un oracle est joué et qu'il ne touche rien. »"""
    t = Table()
    calls = t.flick(2, 350, 310)
    assert decisions(calls) == ["moved"]
    assert t.pos(2) == (350.0, 310.0)
    assert "Déplacer" in calls[0].reason


def test_touching_another_oracle_is_a_shot_and_ricochets_count() -> None:
    """« Tirer : Lorsqu'un oracle joué touche un autre oracle. » « un oracle peut toucher, par ricochet, plusieurs
    oracles amis ou adverses »"""
    t = Table()
    calls = t.flick(2, 240, 320, also={3: (230, 380), 5: (160, 420)})
    assert decisions(calls) == ["shot"]
    outcome = calls[0].actions[-1][1]
    assert set(outcome.touched) == {3, 5}
    assert t.pos(5) == (160.0, 420.0)


def test_an_oracle_leaving_the_area_falls_asleep() -> None:
    """« si un oracle sort de la zone de jeu préalablement définie, il plonge dans un profond sommeil et est mis de
    côté »"""
    t = Table()
    calls = t.flick(2, None)
    assert decisions(calls) == ["asleep"]
    assert t.g.dice[2].status == "asleep"


def test_an_oracle_past_the_edge_but_seen_on_the_mat_falls_asleep() -> None:
    """« si un oracle sort de la zone de jeu » — the area is the mat here; a centre beyond its edge is out."""
    t = Table(area_origin_mm=(20.0, 0.0))
    calls = t.flick(2, 10, 300)                      # mat x = 10 is 10 mm outside an area starting at x = 20
    assert decisions(calls) == ["asleep"]


def test_a_distance_within_the_margin_of_the_edge_is_asked() -> None:
    """« si un oracle sort de la zone de jeu » — too close to the line to call: the players confirm."""
    t = Table()
    results = t.flick(2, 898.5, 200)
    assert len(results) == 1 and isinstance(results[0], Question)
    assert t.g.dice[2].x == 223.0                     # nothing applied yet
    calls = t.ref.answer(results[0].question_id, "yes")
    assert decisions(calls)[0] == "asleep"


def test_landing_in_a_sacred_garden_is_pushed_back_by_the_owner() -> None:
    """« si un oracle adverse atterrit dans cette zone [...] il doit être immédiatement repoussé à l'aide d'une
    pichenette par le propriétaire du temple »"""
    t = Table()
    calls = t.flick(2, 705, 300)
    assert decisions(calls) == ["sacred"]
    assert t.g.queue[0] == {"kind": "push", "player": 1, "oracle": 2, "temple": 1}
    calls = t.flick(2, 560, 300)
    assert [e.kind for e in calls[0].events][:2] == ["push", "moved"]
    assert t.pos(2) == (560.0, 300.0)
    assert t.g.queue[0]["kind"] == "roll" and t.g.queue[0]["roller"] == 1


def test_a_push_back_that_touches_a_piece_is_replaced_by_the_next_player() -> None:
    """« Si durant ce coup de défense l'oracle repoussé touche la moindre pièce ou sort du jeu, le joueur suivant
    replace le ou les oracles déplacés où il veut dans son jardin public »"""
    t = Table()
    t.flick(2, 705, 300)
    calls = t.flick(2, 640, 330, also={14: (660, 372)})
    assert decisions(calls) == ["push-failed"]
    assert [(s["kind"], s["player"], s["oracle"]) for s in t.g.queue[:2]] == [("place", 1, 2), ("place", 1, 14)]
    # player 1 sets both back in the public garden of temple 1
    t.scene.put(oracle_cam(2), 750, 373, "pi")
    t.scene.put(oracle_cam(14), 801.6, 351.6, "bombe")
    calls = t.observe()
    assert decisions(calls)[:2] == ["placed", "placed"]
    assert t.g.dice[2].status == "play" and t.pos(2) == (750.0, 373.0)


def test_dixe_a_temple_and_win() -> None:
    """« Lorsqu'un temple est renversé par un oracle adverse, c'est-à-dire que le DiXe supérieur tombe, on dit qu'il
    est « DiXé ». Le joueur propriétaire du temple DiXé perd alors la partie. »"""
    t = Table()
    t.scene.topple(1, (790, 300))
    calls = t.flick(2, 715, 300)
    assert "dixe" in [e.kind for e in calls[0].events]
    assert decisions(calls) == ["game-over"]
    assert t.g.is_over() and t.g.winners() == (0,)


def test_dixe_with_an_oracle_touched_does_not_count() -> None:
    """« il n'est pas permis sur un tir de renverser un temple et de toucher un oracle [...] l'oracle joué s'endort
    [...] le temple est reconstruit [...] Tout oracle défenseur sorti est repositionné dans le jardin public. »"""
    t = Table()
    t.scene.topple(1, (790, 300))
    calls = t.flick(2, 715, 300, also={12: None})
    assert decisions(calls) == ["temple-rebuilt"]
    assert t.g.dice[2].status == "asleep"
    assert t.g.temples[1].status == "standing"
    assert t.g.queue[0]["kind"] == "place" and t.g.queue[0]["oracle"] == 12 and t.g.dice[12].status == "play"


def test_dixe_where_the_fallen_die_touches_an_oracle_does_not_count() -> None:
    """« Le temple renversé ne doit pas lui même toucher un oracle. »"""
    t = Table()
    t.scene.topple(1, (700, 272))                     # lands against oracle 13 at (698.4, 248.4)
    calls = t.flick(2, 715, 300)
    assert decisions(calls) == ["temple-rebuilt"]
    assert t.g.temples[1].status == "standing" and t.g.dice[2].status == "asleep"


def test_dixe_where_the_temple_leaves_the_area_does_not_count() -> None:
    """« De plus ni l'oracle joué, ni le temple renversé ne doivent sortir de l'aire de jeu. »"""
    t = Table()
    t.scene.topple(1, (920, 300))
    calls = t.flick(2, 715, 300)
    assert decisions(calls) == ["temple-rebuilt"]


def test_an_overruled_dixe_is_rewound() -> None:
    """Any call can be overruled: the players say the fallen die touched an oracle after all."""
    t = Table()
    t.scene.topple(1, (790, 300))
    calls = t.flick(2, 715, 300)
    assert t.g.is_over()
    assert "temple-touches" in calls[0].alternatives
    new = t.ref.overrule(calls[0].call_id, "temple-touches")
    assert new.overrules == calls[0].call_id and new.decision == "temple-touches"
    assert not t.g.is_over() and t.g.dice[2].status == "asleep" and t.g.temples[1].status == "standing"
    with pytest.raises(RefereeError, match="overruled with"):
        t.ref.overrule(calls[0].call_id, "no-such-decision")


def test_toppling_ones_own_temple_cancels_the_shot() -> None:
    """« si un oracle fait tomber malencontreusement son propre temple, le coup est annulé, l'oracle en question
    est endormi. »"""
    t = Table()
    t.scene.topple(0, (120, 300))
    calls = t.flick(2, 180, 300, also={4: (215, 230)})
    assert decisions(calls) == ["own-temple"]
    assert t.g.dice[2].status == "asleep"
    assert t.pos(4) == (201.6, 248.4)                 # the shot is cancelled: the hit oracle goes back


def test_a_hero_touching_an_oracle_loses_the_turn() -> None:
    """« Lors du lancer des héros, si un héros touche un oracle, le joueur passe son tour. »"""
    t = Table()
    t.flick(2, 350, 300)
    heroes = t.g.players[1].heroes
    for k, h in enumerate(heroes):
        t.scene.put(hero_cam(h), 600 + 30 * k, 80, "pi")
    t.scene.put(oracle_cam(13), 690, 240, "pirate")   # a hero knocked oracle 13
    calls = t.observe(moved=[hero_cam(h) for h in heroes] + [oracle_cam(13)])
    assert decisions(calls) == ["turn-lost"]
    assert "Put the pirate oracle of Blue in the public garden of Blue back where it stood." in calls[0].reason
    assert t.g.turn["player"] == 0


def test_a_die_on_its_edge_is_rolled_again() -> None:
    """« lorsqu'un dé est hors jeu ou cassé (c'est à dire qu'il s'arrête sur la tranche ou sur un coin), on rejette
    les quatre héros »"""
    t = Table()
    t.flick(2, 350, 300)
    results = t.roll(1, ("pi", None, "pi", "pi"))
    assert isinstance(results[0], Question) and "on-edge" in results[0].choices
    assert results[0].text == "Which face does the Crâne Yorick die of Blue, in the middle of the mat, show?"
    calls = t.ref.answer(results[0].question_id, "on-edge")
    assert decisions(calls)[0] == "roll-again"
    assert t.g.queue[0]["kind"] == "roll" and t.g.queue[0]["roller"] == 1


def test_a_low_confidence_face_is_confirmed_by_the_players() -> None:
    """The hero faces decide « quel oracle pourra être déplacé »: an uncertain reading is asked, not guessed."""
    t = Table()
    t.flick(2, 350, 300)
    results = t.roll(1, ("pi", "pirate", "bombe", "smiley"), conf=0.5)
    assert isinstance(results[0], Question)
    assert t.g.queue[0]["kind"] == "roll"
    assert "smiley" in results[0].choices
    with pytest.raises(RefereeError, match="not an answer to question"):
        t.ref.answer(results[0].question_id, "banana")
    t.ref.answer(results[0].question_id, "sablier")
    # the remaining dice are asked one by one
    while t.ref.questions:
        q = next(iter(t.ref.questions.values()))
        t.ref.answer(q.question_id, q.choices[1])
    assert t.g.dice[t.g.players[1].heroes[0]].face == "sablier"


def test_all_oracles_asleep_eliminates_the_player() -> None:
    """« Si tous les oracles d'un joueur sont endormis, ce dernier est éliminé et perd immédiatement la partie. »"""
    t = Table(faces={1: ("pi", "pi", "pi", "pi")}, first=(("Oni", "pi", "pi", "pi"), ("pi",) * 4))
    calls = t.flick(2, 690, 320, also={12: None, 13: None, 14: None, 15: None})
    kinds = [e.kind for e in calls[0].events]
    assert "eliminated" in kinds and t.g.winners() == (0,)


def test_waking_needs_a_pair_of_symbols_and_replaces_the_move() -> None:
    """« si une paire de symboles (et non de personnages) apparaît, le joueur actif a alors la possibilité de
    réveiller un oracle endormi. S'il choisit cette action, il n'y aura pas de déplacement possible »"""
    t = Table()
    t.flick(2, None)                                  # oracle 2 falls asleep
    t.roll(1, ("soleil", "sablier", "aum", "pi"))
    t.flick(12, 600, 300)
    t.roll(0, ("Oni", "pi", "pi", "bombe"))
    assert Wake(2) in t.g.legal_actions(0)
    t.scene.put(oracle_cam(2), 240, 300, "smiley")    # the owner sets it back in the public garden
    calls = t.observe()
    assert decisions(calls)[:2] == ["woken", "placed"]
    assert t.g.dice[2].status == "play" and t.g.dice[2].face == "smiley"
    assert t.g.turn["player"] == 1                     # no move after waking: the turn is over


def test_a_pair_of_characters_does_not_wake() -> None:
    """« une paire de symboles (et non de personnages) »"""
    t = Table()
    t.flick(2, None)
    t.roll(1, ("soleil", "sablier", "aum", "pi"))
    t.flick(12, 600, 300)
    t.roll(0, ("Oni", "Crâne Yorick", "Crâne Yorick", "bombe"))
    assert not any(isinstance(a, Wake) for a in t.g.legal_actions(0))


def test_end_turn_is_refused_while_a_move_is_possible() -> None:
    """« le joueur actif doit déplacer l'un de ses oracles encore en jeu »"""
    t = Table()
    with pytest.raises(RuleError):
        t.ref.player_action(0, EndTurn())


def test_a_moving_or_occluded_table_is_not_judged() -> None:
    """The referee decides « once the table is still »: a snapshot in motion or with a hand over the mat waits."""
    from controller.vision.snapshot import Occlusion
    import dataclasses

    t = Table()
    t.scene.put(oracle_cam(2), 400, 300, "pi")
    assert t.ref.observe(t.scene.snap(moved=[oracle_cam(2)], still=False)) == []
    hand = dataclasses.replace(t.scene.snap(moved=[oracle_cam(2)]), occlusions=(Occlusion(380, 280, 120, 90),))
    assert t.ref.observe(hand) == []
    assert t.pos(2) == (223.0, 300.0)
    assert decisions(t.observe(moved=[oracle_cam(2)])) == ["moved"]


def test_a_sacred_garden_line_call_is_asked() -> None:
    """« si un oracle adverse atterrit dans cette zone (tu peux t'aider d'un héros pour vérifier la distance) »: a
    corner within the margin of the line is checked by the players."""
    t = Table()
    x = 750 - 53.03 - 12.5 - 1.0                       # nearest corners about 0.5 mm outside the circle
    results = t.flick(2, x, 300)
    questions = [r for r in results if isinstance(r, Question)]
    assert len(questions) == 1 and "sacred garden" in questions[0].text
    calls = t.ref.answer(questions[0].question_id, "yes")
    assert decisions(calls)[0] == "sacred" and t.g.queue[0]["kind"] == "push"


def test_an_asleep_call_overruled_puts_the_oracle_back_in_play() -> None:
    """Any call can be overruled: the oracle did not leave « la zone de jeu » after all."""
    t = Table()
    calls = t.flick(2, None)
    assert t.g.dice[2].status == "asleep"
    new = t.ref.overrule(calls[0].call_id, "in:2")
    assert t.g.dice[2].status == "play" and new.overrules == calls[0].call_id


def test_a_roll_call_overruled_to_a_die_on_its_edge() -> None:
    """« on rejette les quatre héros »: the players say a die was cocked after the referee read it."""
    t = Table()
    t.flick(2, 350, 300)
    calls = t.roll(1, ("pi", "pirate", "bombe", "smiley"))
    roll_call = next(c for c in calls if c.decision == "roll")
    t.ref.overrule(roll_call.call_id, "roll-again")
    assert t.g.queue[0]["kind"] == "roll" and t.g.queue[0]["roller"] == 1


def test_referee_settings_come_from_toml(tmp_path) -> None:
    from controller.referee.common import RefereeConfig

    path = tmp_path / "table.toml"
    path.write_text("[referee]\nmin_confidence = 0.9\nline_margin_mm = 5\n", encoding="utf-8")
    config = RefereeConfig.from_toml(path)
    assert config.min_confidence == 0.9 and config.line_margin_mm == 5
    path.write_text("[referee]\nline_margin = 5\n", encoding="utf-8")
    with pytest.raises(RefereeError, match="unknown key"):
        RefereeConfig.from_toml(path)
    path.write_text("[referee]\narea_origin_mm = \"20, 0\"\n", encoding="utf-8")
    with pytest.raises(RefereeError, match="area_origin_mm must be two numbers"):
        RefereeConfig.from_toml(path)
    path.write_text("[referee]\narea_origin_mm = [20, 5]\n", encoding="utf-8")
    assert RefereeConfig.from_toml(path).area_origin_mm == (20.0, 5.0)
    path.write_text("[referee\nmin_confidence = 0.9\n", encoding="utf-8")
    with pytest.raises(RefereeError, match="is not valid TOML"):
        RefereeConfig.from_toml(path)
    with pytest.raises(RefereeError, match="cannot read the referee settings"):
        RefereeConfig.from_toml(tmp_path / "absent.toml")


def test_calls_and_questions_serialise_for_the_dashboard() -> None:
    import json
    from controller.engines.puxes import PuxesGame

    t = Table()
    calls = t.flick(2, 350, 300)
    data = calls[0].to_json(PuxesGame)
    assert json.dumps(data) and data["actions"][0] == [0, {"type": "move", "oracle": 2}]
    results = t.roll(1, ("pi", "pirate", "bombe", "smiley"), conf=0.3)
    assert json.loads(json.dumps(results[0].to_json()))["choices"]


def test_a_roll_is_only_read_from_dice_just_thrown() -> None:
    """« Le joueur actif lance ses héros »: heroes lying still from an earlier roll are not a new roll."""
    t = Table()
    t.flick(2, 350, 300)
    t.roll(1, ("pi", "pirate", "bombe", "smiley"))
    t.flick(12, 600, 300)
    assert t.g.queue[0]["kind"] == "roll" and t.g.queue[0]["roller"] == 0
    assert t.observe() == []                          # nothing thrown yet: player 0's old faces are not re-read
    assert t.g.queue[0]["kind"] == "roll"
    assert decisions(t.roll(0, ("pi", "pi", "pi", "pi")))[0] == "roll"


def test_camera_face_names_map_to_the_collection() -> None:
    """The camera's face library names faces in plain letters ("oni", "crane-yorick"): the referee reads them as
    the collection's characters, so « Celui qui obtient le plus de personnages commence » still counts them."""
    t = Table(first=(("oni", "crane-yorick", "pi", "pi"), ("pi",) * 4))
    assert [t.g.dice[h].face for h in t.g.players[0].heroes] == ["Oni", "Crâne Yorick", "pi", "pi"]
    assert t.g.turn["player"] == 0


def test_two_adjacent_temples_set_up_from_snapshots() -> None:
    """« vous pouvez commencer à jouer avec 2 temples adjacents [...] Dans ce cas vous prendrez 6 oracles (3 par
    totem). » Each oracle stands with 2 corners in its own temple's garden, which excludes both sacred gardens."""
    t = Table({"temples_per_player": 2})
    assert decisions(t.setup_results).count("placed") == 12
    assert t.g.table.public_corners(1, 150.0, 250.0 + 40.0) == 0     # beside temple 0: not temple 1's garden
    for o in t.g.oracles_of(0):
        x, y = t.pos(o)
        assert t.g.table.public_corners(t.g.dice[o].home, x, y) >= 2


def test_four_player_cooperative_set_up_and_first_turn() -> None:
    """« Mode coopératif : Un temple et quatre oracles par joueur, les joueurs d'une même équipe sont l'un en face de
    l'autre. »"""
    t = Table({"players": 4, "mode": "coop"})
    assert decisions(t.setup_results).count("placed") == 16
    assert [(tp.x, tp.y) for tp in t.g.temples] == [(150.0, 300.0), (450.0, 150.0), (750.0, 300.0), (450.0, 450.0)]
    assert decisions(t.flick(2, 300, 300)) == ["moved"]
    assert t.g.queue[0]["roller"] == 1


def test_two_stage_temple_from_snapshots() -> None:
    """« après avoir DiXé un temple, il faut le replacer à son emplacement d'origine et repousser l'oracle qui DiXe
    celui-ci. »"""
    t = Table({"temple_lives": 2})
    t.scene.topple(1, (790, 300))
    calls = t.flick(2, 715, 300)
    assert decisions(calls) == ["dixe"] and not t.g.is_over()
    t.scene.rebuild(1)
    calls = t.flick(2, 560, 300)
    assert [e.kind for e in calls[0].events][:2] == ["push", "moved"]
    assert t.g.temples[1].lives == 1


def test_fortress_from_snapshots() -> None:
    """« Dès qu'un joueur envoie un oracle à l'intérieur de cette zone, il aura la possibilité de tirer à chacun de
    ses tours un crachat depuis la forteresse. »"""
    from controller.engines.puxes.actions import Spit

    t = Table({"fortress": True})
    calls = t.flick(2, 450, 300)
    assert "fortress" in [e.kind for e in calls[0].events] and t.g.fortress_holder == 2
    assert Spit(fortress=True) in t.g.legal_actions(0)
    t.ref.player_action(0, Spit(fortress=True))
    t.scene.put(hero_cam(6), 480, 300, "Oni")
    calls = t.flick(12, 720, 330)
    assert decisions(calls)[0] == "shot" and t.pos(12) == (720.0, 330.0)


def test_a_die_said_to_lie_flat_is_read_again_from_the_next_throw() -> None:
    """« on rejette les quatre héros » only for a die « sur la tranche ou sur un coin »: if the players say it lies
    flat, nothing is recorded and the dice are read again once they move."""
    t = Table()
    t.flick(2, 350, 300)
    results = t.roll(1, ("pi", None, "pi", "pi"))
    assert t.ref.answer(results[0].question_id, "read-again") == []
    assert not t.ref.questions and t.g.queue[0]["kind"] == "roll"
    assert decisions(t.roll(1, ("pi", "pirate", "pi", "pi")))[0] == "roll"


def test_a_placement_breaking_the_rules_is_refused_and_changes_nothing() -> None:
    """« en respectant les contraintes de placement »: a die set too close to another is refused with the reason,
    and nothing is recorded until it stands right."""
    t = Table()
    t.flick(2, 705, 300)
    t.flick(2, 640, 330, also={14: (660, 372)})
    before = t.g.dumps()
    t.scene.put(oracle_cam(2), 640, 300, "pi")        # 37 mm from oracle 12
    calls = t.observe()
    assert decisions(calls)[0] == "refused" and "1 DiXe" in calls[0].reason
    assert t.g.dumps() == before
    t.scene.put(oracle_cam(2), 750, 373, "pi")
    t.scene.put(oracle_cam(14), 801.6, 351.6, "bombe")
    assert decisions(t.observe())[:2] == ["placed", "placed"]
