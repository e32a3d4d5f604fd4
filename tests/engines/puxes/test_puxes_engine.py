"""The PuXes engine on its own: data, options, actions, checks, and the variants of the rulebook.

Scenario tests of every rule and power, refereed from table snapshots, are in tests/referee/.
"""

from __future__ import annotations

import json

import pytest

from controller.engines import CHANCE, OptionsError, RuleError, new_game
from controller.engines.puxes import PuxesGame, default_collection, parse_collection
from controller.engines.puxes.actions import (
    ChooseFace, EndTurn, Move, Outcome, Place, PushBack, Roll, Spit, UsePower, Wake, decode, encode,
)


def ready(options: dict | None = None, first: dict[int, tuple[str, ...]] | None = None, seed: int = 0) -> PuxesGame:
    """A game past its set-up: oracles on the first free garden spots showing their first symbol (pi for
    Hanuman, Crâne Yorick and Mr Blaireau, smiley for Arkan Sonney), then the first roll (player 0 shows a
    character unless ``first`` says otherwise)."""
    game = PuxesGame(options or {}, seed=seed)
    while game.queue and game.queue[0]["kind"] == "place":
        player = game.current_players()[0]
        game.apply(player, next(a for a in game.legal_actions(player) if game.collection.is_symbol(a.face)))
    if game.options.toddlers:
        return game
    for p in range(game.num_players):
        faces = (first or {}).get(p) or (("Oni", "pi", "pi", "pi") if p == 0 else ("pi",) * 4)
        game.apply(CHANCE, Roll(faces[: len(game.players[p].heroes)]))
    return game


def shoot(game: PuxesGame, oracle: int, outcome: Outcome) -> list:
    events = game.apply(game.current_players()[0], Move(oracle))
    return events + game.apply(CHANCE, outcome)


# ---- data and plumbing -----------------------------------------------------------------------

def test_collection_holds_the_known_powers_and_starter_symbols() -> None:
    """Rules README: « Oni: Protection; Kaeru: Coup de langue; Petit gris: Séduction; Rukura: Contamination »."""
    c = default_collection()
    assert c.power_of("Oni").name == "protection" and c.power_of("Kaeru").name == "coup_de_langue"
    assert c.power_of("Petit gris").name == "seduction" and c.power_of("Rukura").name == "contamination"
    assert c.power_of("Hanuman") is None and c.is_character("Hanuman")
    assert set(c.known_faces("Crâne Yorick")) == {"Crâne Yorick", "pi", "smiley", "bombe", "pirate"}
    assert len(c.powers) == 20 and {p.name for p in c.powers.values() if p.passive} == {"protection", "ambidextre", "immunite"}
    assert c.face_allowed("Oni", "sablier") and not c.face_allowed("Crâne Yorick", "Oni")
    for die in ("Crâne Yorick", "Oni"):
        choices = c.possible_faces(die)
        assert choices[:len(c.known_faces(die))] == c.known_faces(die) and len(set(choices)) == len(choices)
        assert set(choices) == {f for f in (*c.symbols, *c.characters) if c.face_allowed(die, f)}


def test_collection_file_errors_name_the_problem() -> None:
    text = '[symbols]\nnames=["pi"]\n[powers.x]\ntitle="X"\nkind="active"\n[characters]\nA="x"\n[dice]\nA=["A","pi","pi"]\n'
    with pytest.raises(ValueError, match="must list 6 faces"):
        parse_collection(text)
    with pytest.raises(ValueError, match="neither a symbol nor a character"):
        parse_collection(text.replace('["A","pi","pi"]', '["A","pi","pi","pi","pi","moon"]'))
    with pytest.raises(ValueError, match="the collection lacks 'characters'"):
        parse_collection(text.replace("[characters]", "[people]"))


def test_options_are_checked() -> None:
    with pytest.raises(OptionsError, match="2, 3 or 4"):
        PuxesGame({"players": 5})
    with pytest.raises(OptionsError, match="4-player variant"):
        PuxesGame({"mode": "blitz"})
    with pytest.raises(OptionsError, match="unknown power"):
        PuxesGame({"powers": [["Hanuman", "flying"]]})
    with pytest.raises(OptionsError, match="unknown deck"):
        PuxesGame({"decks": ["starter", "nope"]})


def test_actions_round_trip_through_json() -> None:
    actions = [Place(2, 223.0, 300.0, 0.0, "pi"), Move(2), Wake(3), PushBack(2), Spit(fortress=True), EndTurn(),
               Roll(("Oni", "pi", "pi", "pi"), cocked=True), UsePower(7, "retrograde", target=12, other=8),
               Outcome(moved=((2, 1.0, 2.0, 0.0, None),), left=(3,), sacred=((2, 1),), toppled=1), ChooseFace(2, "pi")]
    for action in actions:
        assert decode(json.loads(json.dumps(encode(action)))) == action
    with pytest.raises(ValueError, match="unknown PuXes action type"):
        decode({"type": "teleport"})
    with pytest.raises(ValueError, match="unknown field"):
        decode({"type": "move", "oracle": 2, "speed": 9})


def test_a_malformed_outcome_is_refused_and_changes_nothing() -> None:
    game = ready()
    game.apply(0, Move(2))
    before = game.dumps()
    for bad, words in [(Outcome(left=(99,)), "not an oracle in play"),
                       (Outcome(moved=((2, 1000.0, 300.0, 0.0, None),)), "outside the area"),
                       (Outcome(moved=((2, 300.0, 300.0, 0.0, "moon"),)), "not a face"),
                       (Outcome(toppled=7), "standing temple"),
                       (Outcome(toppled_touches=True), "give toppled")]:
        with pytest.raises(RuleError, match=words) as info:
            game.apply(CHANCE, bad)
        assert info.value.rule == "outcome"
    assert game.dumps() == before


def test_a_roll_with_the_wrong_number_of_faces_is_refused() -> None:
    game = PuxesGame()
    while game.queue[0]["kind"] == "place":
        game.apply(game.current_players()[0], game.legal_actions(game.current_players()[0])[0])
    with pytest.raises(RuleError, match="4 faces"):
        game.apply(CHANCE, Roll(("pi",)))
    with pytest.raises(RuleError, match="Oni is not a face of the Crâne Yorick hero of Red"):
        game.apply(CHANCE, Roll(("pi", "Oni", "pi", "pi")))   # die 7 (Crâne Yorick) carries no Oni face


def test_any_well_formed_outcome_is_accepted_not_just_the_listed_ones() -> None:
    game = ready()
    game.apply(0, Move(2))
    outcome = Outcome(moved=((2, 432.1, 287.6, 12.0, "smiley"),))
    assert outcome not in game.legal_actions(CHANCE)
    game.apply(CHANCE, outcome)
    assert (game.dice[2].x, game.dice[2].y, game.dice[2].face) == (432.1, 287.6, "smiley")


def test_views_and_render_are_plain_json_and_text() -> None:
    game = ready()
    view = game.view(0)
    assert view["may_move"] == [2, 3, 4] and json.dumps(view)
    assert view["waiting_message"] == {"msg": "{player} to play", "args": {"player": {"msg": "Red", "args": {}}}}
    assert "Red to play" in game.render()


# ---- variants ---------------------------------------------------------------------------------

def test_three_players_play_on_after_an_elimination() -> None:
    """« À 3 joueurs : Chaque joueur est seul, et perd s'il n'a plus de temple ou s'il n'a plus d'oracle »"""
    game = ready({"players": 3})
    assert len(game.temples) == 3
    events = shoot(game, 2, Outcome(moved=((2, 740.0, 150.0, 0.0, None),), toppled=1))
    assert [e.kind for e in events].count("eliminated") == 1 and not game.is_over()
    assert game.players[1].out and game.temples[1].status == "dixe"
    assert all(game.dice[o].status == "out" for o in game.oracles_of(1))


def test_blitz_takes_over_the_eliminated_players_oracles() -> None:
    """« Mode blitz : Celui qui élimine un adversaire prend le contrôle de ses oracles encore en jeu. »"""
    game = ready({"players": 4, "mode": "blitz"})
    t = game.temples[1]
    events = shoot(game, 2, Outcome(moved=((2, t.x, t.y + 40, 0.0, None),), toppled=1))
    assert "takeover" in [e.kind for e in events]
    assert all(game.dice[o].owner == 0 for o in (12, 13, 14, 15))


def test_cooperative_partners_are_not_opponents_and_play_on_without_a_temple() -> None:
    """« Mode coopératif [...] les joueurs d'une même équipe sont l'un en face de l'autre. » « Lorsque tous les temples
    d'un joueur sont renversés, il peut continuer de jouer tant que son coéquipier a encore le sien. Il ne lui sera plus
    possible, en revanche, de réveiller un de ses oracles endormis »"""
    game = ready({"players": 4, "mode": "coop"})
    assert not game.opposed(0, 2) and game.opposed(0, 1)
    t = game.temples[1]
    shoot(game, 2, Outcome(moved=((2, t.x, t.y + 40, 0.0, None),), toppled=1))
    assert game.temples[1].status == "dixe" and not game.players[1].out and not game.players[1].can_wake
    assert not game.is_over()


def test_advanced_two_stage_temple_is_rebuilt_then_pushed_back() -> None:
    """« après avoir DiXé un temple, il faut le replacer à son emplacement d'origine et repousser l'oracle qui DiXe
    celui-ci. Lorsqu'un temple est renversé une seconde fois, il est alors définitivement DiXé. »"""
    game = ready({"temple_lives": 2})
    events = shoot(game, 2, Outcome(moved=((2, 715.0, 300.0, 0.0, None),), toppled=1))
    assert [e.data.get("final") for e in events if e.kind == "dixe"] == [False]
    assert game.temples[1].status == "standing" and game.queue[0]["kind"] == "push" and game.queue[0]["player"] == 1


def test_two_temples_each_with_three_oracles() -> None:
    """« commencer à jouer avec 2 temples adjacents [...] Dans ce cas vous prendrez 6 oracles (3 par totem). »"""
    game = ready({"temples_per_player": 2})
    assert len(game.temples) == 4 and len(game.oracles_of(0)) == 6
    t = game.temples[2]
    shoot(game, 4, Outcome(moved=((4, t.x - 40, t.y, 0.0, None),), toppled=2))
    assert game.temples[2].status == "dixe" and not game.is_over()


def test_playing_without_powers() -> None:
    """« Variante pour les plus jeunes : Vous pouvez jouer sans appliquer les pouvoirs. »"""
    game = ready({"powers_enabled": False, "powers": [["Crâne Yorick", "quarante_neuf_trois"]]},
                 first={0: ("pi", "Crâne Yorick", "pi", "pi")})
    assert not any(isinstance(a, UsePower) for a in game.legal_actions(0))


def test_toddlers_roll_no_heroes_and_a_symbol_cannot_dixe() -> None:
    """« Pour jouer avec les tous petits: On ne jette pas les héros. Si la face visible du DiXe est un symbole, il ne
    peut pas DiXer un temple. »"""
    game = ready({"toddlers": True})
    assert game.queue[0] == {"kind": "main", "player": 0}
    assert [a for a in game.legal_actions(0) if isinstance(a, Move)] == [Move(o) for o in (2, 3, 4, 5)]
    oracle = next(o for o in (2, 3, 4, 5) if game.collection.is_symbol(game.dice[o].face))
    events = shoot(game, oracle, Outcome(moved=((oracle, 715.0, 300.0, 0.0, None),), toppled=1))
    assert "temple-rebuilt" in [e.kind for e in events] and game.temples[1].status == "standing"


def test_cliff_mode_loses_an_oracle_for_good() -> None:
    """« Mode falaise: Tout oracle qui sort de la zone de jeu est perdu. »"""
    game = ready({"cliff": True})
    shoot(game, 2, Outcome(left=(2,)))
    assert game.dice[2].status == "lost"


def test_fortress_holder_spits_and_an_opposing_arrival_evicts_it() -> None:
    """« Dès qu'un joueur envoie un oracle à l'intérieur de cette zone, il aura la possibilité de tirer à chacun de
    ses tours un crachat depuis la forteresse. Si le joueur adverse envoie un oracle dans la forteresse alors qu'elle
    est déjà occupée, l'oracle en place est endormi et celui qui vient d'arriver prend sa place. »"""
    game = ready({"fortress": True})
    shoot(game, 2, Outcome(moved=((2, 450.0, 300.0, 0.0, None),), fortress=2))
    assert game.fortress_holder == 2 and Spit(fortress=True) in game.legal_actions(0)
    game.apply(0, EndTurn())
    game.apply(CHANCE, Roll(("pi",) * 4))
    shoot(game, 12, Outcome(moved=((12, 460.0, 310.0, 0.0, None),), fortress=12))
    assert game.fortress_holder == 12 and game.dice[2].status == "asleep"


def test_new_game_through_the_registry() -> None:
    game = new_game("puxes", {"players": 3}, seed=4)
    assert isinstance(game, PuxesGame) and game.num_players == 3


# ---- rulings pinned -----------------------------------------------------------------------------

def test_garden_radii_follow_the_die() -> None:
    """« Le jardin sacré (zone rouge) : Elle fait 1 DiXe de large, diagonale prise en compte. » and the public garden
    « à une distance d'environ 3 DiXes » beyond it."""
    game = PuxesGame()
    assert round(game.table.sacred_radius, 1) == 53.0          # 12.5·√2 + 25·√2
    assert round(game.table.public_radius, 1) == 128.0
    reach = 12.5 * 2 ** 0.5                                    # a die turned 45° points a corner at the temple
    assert game.table.in_sacred(1, 750 - 53.03 - reach + 0.5, 300, 45.0)
    assert not game.table.in_sacred(1, 750 - 53.03 - reach - 0.5, 300, 45.0)


def test_when_the_last_players_fall_together_the_shooter_wins() -> None:
    """« Le joueur qui réussira à survivre et/ou à éliminer tous les Dieux adverses remporte »: a shot that puts both
    players' last oracles to sleep is won by the shooter."""
    game = ready()
    for o in (3, 4, 5, 13, 14, 15):
        game.dice[o].status, game.dice[o].x, game.dice[o].y = "asleep", None, None
    shoot(game, 2, Outcome(touched=(12,), left=(2, 12)))
    assert game.is_over() and game.winners() == (0,)


def test_an_opposing_protection_cancels_immunite() -> None:
    """« Le pouvoir « protection » est prioritaire sur tous les autres pouvoirs et les annule tous. »"""
    game = ready({"powers": [["Crâne Yorick", "immunite"]]},
                 first={0: ("pi", "Crâne Yorick", "pi", "pi"), 1: ("pi",) * 4})
    assert game.immune(0)
    shoot(game, 2, Outcome(moved=((2, 400.0, 300.0, 0.0, None),)))
    game.apply(CHANCE, Roll(("Oni", "pi", "pi", "pi")))            # player 1's Oni appears
    assert not game.immune(0)


def test_imitation_may_copy_any_power_of_knocked_heroes() -> None:
    """« Lors de la compétence « copie compétence », si un adversaire a bougé ses héros, le pouvoir peut copier la
    compétence de son choix parmi les héros adverses. »"""
    game = ready({"powers": [["Crâne Yorick", "imitation"], ["Mr Blaireau", "retraite"]]},
                 first={0: ("pi", "Crâne Yorick", "pi", "pi"), 1: ("pi",) * 4})
    assert not any(isinstance(a, UsePower) for a in game.legal_actions(0))
    game.apply(0, Move(2))
    game.apply(CHANCE, Outcome(moved=((2, 400.0, 300.0, 0.0, None),), disturbed=(1,)))
    game.apply(CHANCE, Roll(("pi",) * 4))                          # player 1 rolls: knocked flag cleared
    assert not game.players[1].disturbed
    game.apply(1, Move(12))
    game.apply(CHANCE, Outcome(moved=((12, 600.0, 300.0, 0.0, None),), disturbed=(1,)))
    game.apply(CHANCE, Roll(("pi", "Crâne Yorick", "pi", "pi")))
    assert any(isinstance(a, UsePower) and a.power == "retraite" and a.copied_from == 18 for a in game.legal_actions(0))


def test_a_sleeping_oracle_cannot_be_woken_after_a_power() -> None:
    """« S'il choisit cette action, il n'y aura pas de déplacement possible, ni d'activation d'un quelconque pouvoir
    héroïque actif. »"""
    game = ready({"powers": [["Crâne Yorick", "quarante_neuf_trois"]]},
                 first={0: ("pi", "Crâne Yorick", "bombe", "bombe"), 1: ("pi",) * 4})
    game.dice[5].status, game.dice[5].x, game.dice[5].y = "asleep", None, None
    assert Wake(5) in game.legal_actions(0)
    game.apply(0, UsePower(hero=7, power="quarante_neuf_trois"))
    assert Wake(5) not in game.legal_actions(0)
