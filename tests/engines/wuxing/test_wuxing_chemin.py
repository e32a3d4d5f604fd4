"""One test per rule of le chemin du duel, each citing the rulebook's words (rules/wuxing-duel.fr.md).

Most positions use the path Wood Fire Earth Metal Water (seat 0's end first): seat 0 starts on
Wood, seat 1 on Water.
"""

from __future__ import annotations

import itertools
import json

import pytest

from controller.engines import NotYourTurnError, RuleError
from controller.engines.wuxing import Discard, LayoutError, Move, Play, WuxingGame, beats
from controller.engines.wuxing.elements import DOMINATES, EARTH, ELEMENT_NAMES, FIRE, METAL, WATER, WOOD, link
from wuxing_scenarios import chemin, duel_state, kinds


def duel(game: WuxingGame, e0: int, e1: int) -> list:
    events = game.apply(0, Play(e0))
    return events + game.apply(1, Play(e1))


def rule_of(game: WuxingGame, seat: int, action: object) -> str:
    before = game.dumps()
    with pytest.raises(RuleError) as info:
        game.apply(seat, action)
    assert game.dumps() == before, "a refused action changed the game"
    return info.value.rule


# ---- setting up -------------------------------------------------------------------------------------


def test_the_path_has_one_island_of_each_element() -> None:
    """"on place une seule île de chaque élément pour faire un chemin de 5 îles\""""
    paths = {tuple(WuxingGame({"mode": "chemin"}, seed=s).rules.path) for s in range(40)}
    assert all(sorted(p) == [0, 1, 2, 3, 4] for p in paths) and len(paths) > 10
    assert chemin("metal wood water fire earth").rules.path == (METAL, WOOD, WATER, FIRE, EARTH)
    with pytest.raises(LayoutError, match="one island of each element"):
        chemin("wood wood earth metal water")


def test_each_pawn_starts_on_the_island_nearest_its_player_his_strong_element() -> None:
    """"chacun avec le pion sur l'île la plus proche de son côté" and "L'élément de l'île sur laquelle
    se trouve le pion d'un joueur est appelé son élément fort\""""
    game = chemin()
    assert game.rules.pos == [0, 4]
    assert game.view(None)["strong"] == ["wood", "water"]
    assert game.rules.tokens == [[0, 0], [0, 0]] and game.view(None)["centre"] == {"blue": 2, "red": 2}


# ---- 1 and 2: cards, chosen in secret, revealed together ----------------------------------------------


def test_the_opening_discard_is_a_card_of_each_players_choice() -> None:
    """"Chaque joueur défausse la carte jouée au tour précédent (ou selon son choix au début de la partie)\""""
    game = chemin()
    assert game.phase == "discard" and game.current_players() == (0, 1)
    assert game.legal_actions(0) == [Discard(e) for e in range(5)]
    assert rule_of(game, 0, Play(WOOD)) == "opening-discard"
    game.apply(0, Discard(FIRE))
    events = game.apply(1, Discard(EARTH))
    assert "discarded" in kinds(events)
    assert game.rules.set_aside == [FIRE, EARTH] and game.phase == "duel"
    assert Play(FIRE) not in game.legal_actions(0) and len(game.legal_actions(0)) == 4


def test_each_player_discards_the_card_he_played_the_round_before() -> None:
    """"Chaque joueur défausse la carte jouée au tour précédent": it cannot be played this duel, and
    the card set aside before comes back (docs/rulings/wuxing.md)."""
    game = chemin()
    game.apply(0, Discard(FIRE))
    game.apply(1, Discard(EARTH))
    duel(game, WOOD, WOOD)
    assert game.rules.set_aside == [WOOD, WOOD]
    assert Play(FIRE) in game.legal_actions(0) and Play(WOOD) not in game.legal_actions(0)
    assert rule_of(game, 0, Play(WOOD)) == "card-in-hand"
    with pytest.raises(RuleError, match="seat 0 played Wood last duel and has discarded it: play one of Fire, Earth, Metal and Water"):
        game.apply(0, Play(WOOD))


def test_a_chosen_card_is_in_no_view_until_both_are_revealed() -> None:
    """"Choisissez secrètement une carte ... Les cartes sont révélées en même temps.\""""
    views = {}
    for card in (FIRE, EARTH, METAL):
        game = chemin(no_discard=True)
        game.apply(0, Play(card))
        assert game.secret_pending(0) and not game.secret_pending(1)
        views[card] = [json.dumps(game.view(p), sort_keys=True) for p in (1, None)]
        assert game.view(0)["my_choice"] == ELEMENT_NAMES[card]
        assert game.view(None)["chosen"] == [True, False]
        assert ELEMENT_NAMES[card] not in game.render().lower(), "the board quoted in errors and logs keeps it too"
    assert len({tuple(v) for v in views.values()}) == 1, "the other seat and a spectator see the same whatever was chosen"
    game = chemin(no_discard=True)
    game.apply(0, Play(FIRE))
    events = game.apply(1, Play(EARTH))
    assert not game.secret_pending(0) and game.view(None)["last"]["cards"] == ["fire", "earth"]
    assert kinds(events)[:2] == ["chosen", "revealed"]


# ---- 3: who wins the duel -----------------------------------------------------------------------------


@pytest.mark.parametrize("e0,e1", [(a, b) for a, b in itertools.permutations(range(5), 2)])
def test_an_element_that_dominates_or_engenders_the_other_wins_the_duel(e0: int, e1: int) -> None:
    """"Si un élément domine ou engendre l'autre élément, alors le joueur remporte ce tour.\""""
    game = chemin(no_discard=True)
    events = duel(game, e0, e1)
    winner = 0 if beats(e0, e1) else 1
    assert game.rules.last["winner"] == winner
    relation = "dominates" if DOMINATES[(e0, e1)[winner]] == (e0, e1)[1 - winner] else "engenders"
    assert game.rules.last["reason"] == relation
    assert [e for e in events if e.kind == "duel"][0].data["winner"] == winner


def test_same_element_the_player_on_his_strong_element_wins_and_turns_to_yin_yang() -> None:
    """"si un des joueurs a son pion sur son élément fort, il gagne le duel. Il retourne ou laisse son
    pion sur la face Yin-Yang et l'autre joueur doit laisser ou retourner son pion sur sa face Yin ou Yang.\""""
    game = chemin(no_discard=True)
    duel_state(game, yin_yang=(False, True))
    events = duel(game, WATER, WATER)          # Water is seat 1's island
    assert game.rules.last["reason"] == "strong" and game.rules.last["winner"] == 1
    assert game.rules.yin_yang == [False, True], "the winner stays on Yin-Yang"
    assert game.rules.pos == [0, 3]
    game = chemin(no_discard=True)
    duel_state(game, yin_yang=(False, True))
    events = duel(game, WOOD, WOOD)            # Wood is seat 0's island
    assert game.rules.yin_yang == [True, False], "winner turned to Yin-Yang, the other turned back"
    assert kinds(events).count("face") == 2


def test_same_element_otherwise_the_pawn_on_its_yin_yang_face_wins_and_turns_back() -> None:
    """"si personne n'a son pion sur son élément fort mais un joueur a son pion sur la face Yin-Yang,
    il gagne le duel mais revient sur sa face Yin ou Yang.\""""
    game = chemin(no_discard=True)
    duel_state(game, yin_yang=(True, False))
    duel(game, EARTH, EARTH)                   # nobody stands on Earth
    assert game.rules.last["reason"] == "yin-yang" and game.rules.last["winner"] == 0
    assert game.rules.yin_yang == [False, False] and game.rules.pos == [1, 4]


def test_ruling_a_yin_yang_face_lasts_through_duels_of_different_elements() -> None:
    """Only duels of equal elements turn pawns ("Il retourne ou laisse son pion sur la face
    Yin-Yang"); a pawn keeps its face, winning or losing, until such a duel (docs/rulings/wuxing.md)."""
    game = chemin(no_discard=True)
    duel_state(game, yin_yang=(True, False))
    duel(game, WOOD, EARTH)
    duel(game, EARTH, WOOD)
    assert game.rules.yin_yang == [True, False]


def test_same_element_otherwise_a_tie_and_both_pawns_stay() -> None:
    """"sinon il y a égalité et personne ne gagne le duel." "Les deux pions restent en même position
    s'il n'y a pas de vainqueur pour ce tour.\""""
    game = chemin(no_discard=True)
    duel(game, EARTH, EARTH)
    assert game.rules.last["winner"] is None and game.rules.pos == [0, 4]
    assert game.rules.tokens == [[0, 0], [0, 0]] and game.rules.round == 2


# ---- moving on, pushing back, capturing ---------------------------------------------------------------


def test_the_winner_moves_one_island_towards_the_other_camp_pushing_the_other_pawn_back() -> None:
    """"Le vainqueur de chaque duel déplace son pion d'une île du chemin vers le camp adverse. Si le pion
    adverse se trouve sur cette île, le perdant recule d'une île.\""""
    game = chemin(no_discard=True)
    duel_state(game, pos=(1, 3))
    duel(game, WOOD, EARTH)                    # Wood dominates Earth: seat 0 to island 2
    assert game.rules.pos == [2, 3]
    events = duel(game, WOOD, EARTH)           # to island 3, where seat 1 stands: pushed to 4
    assert game.rules.pos == [3, 4] and "pushed" in kinds(events)


def test_a_pawn_that_cannot_go_back_past_its_start_is_captured_and_the_game_is_won() -> None:
    """"Si un joueur ne peut pas reculer car il est déjà sur sa position de départ, son pion est capturé."
    "Si un joueur a capturé le pion adverse ... il gagne la partie\""""
    game = chemin(no_discard=True)
    duel_state(game, pos=(3, 4))
    events = duel(game, WOOD, EARTH)
    assert game.is_over() and game.winners() == (0,) and game.rules.how == "capture"
    assert "captured" in kinds(events) and events[-1].kind == "game-over"
    game = chemin(no_discard=True)
    duel_state(game, pos=(0, 1))
    duel(game, EARTH, WOOD)
    assert game.is_over() and game.winners() == (1,)


# ---- 4 and 5: tokens --------------------------------------------------------------------------------


def test_the_winner_takes_a_token_of_the_links_colour_from_the_centre() -> None:
    """"4 – Le vainqueur d'un duel prend un jeton rouge ou un jeton bleu selon le type de lien entre les
    deux éléments du duel. Il le prend dans la zone centrale s'il y en a un\""""
    game = chemin(no_discard=True)
    duel(game, WOOD, EARTH)                    # domination: blue
    assert game.rules.tokens[0] == [1, 0] and game.view(None)["centre"] == {"blue": 1, "red": 2}
    duel(game, WOOD, FIRE)                     # engendering: red
    assert game.rules.tokens[0] == [1, 1]
    assert link(WOOD, FIRE) == "red"


def test_the_winner_takes_the_token_from_the_other_player_when_the_centre_has_none() -> None:
    """"ou chez son adversaire au défaut.\""""
    game = chemin(no_discard=True)
    duel_state(game, tokens=([1, 0], [1, 0]))
    events = duel(game, WOOD, EARTH)
    assert game.rules.tokens == [[2, 0], [0, 0]]
    assert [e for e in events if e.kind == "token"][0].data["source"] == "taken"


def test_no_token_for_a_player_holding_both_of_that_colour_nor_for_equal_elements() -> None:
    """"Il ne prend rien s'il a déjà les 2 pions de cette couleur ou si les deux joueurs ont joué la carte
    avec le même élément.\""""
    game = chemin(no_discard=True)
    duel_state(game, tokens=([2, 0], [0, 1]))
    events = duel(game, WOOD, EARTH)
    assert game.rules.tokens == [[2, 0], [0, 1]]
    assert [e for e in events if e.kind == "token"][0].data["source"] == "full"
    game = chemin(no_discard=True)
    duel(game, WOOD, WOOD)                     # strong element: a win, but no token
    assert game.rules.last["winner"] == 0 and game.rules.tokens == [[0, 0], [0, 0]]


def test_the_four_tokens_win() -> None:
    """"Si un joueur ... a récupéré les 4 jetons, il gagne la partie\""""
    game = chemin(no_discard=True)
    duel_state(game, tokens=([2, 1], [0, 1]))
    duel(game, WOOD, FIRE)                     # red, taken from seat 1
    assert game.is_over() and game.winners() == (0,) and game.rules.how == "tokens"
    assert game.scores() == (1.0, 0.0)


# ---- the age variants ---------------------------------------------------------------------------------


def test_note_1_under_ten_no_card_is_discarded() -> None:
    """"Note 1 : avec des enfants de moins de 10 ans, ne défaussez pas de carte à chaque tour\""""
    game = chemin(no_discard=True)
    assert game.phase == "duel" and len(game.legal_actions(0)) == 5
    duel(game, WOOD, EARTH)
    assert len(game.legal_actions(0)) == 5 and Play(WOOD) in game.legal_actions(0)


def test_note_2_under_eight_pawns_are_never_turned_to_yin_yang() -> None:
    """"Note 2 : avec des enfants de moins de 8 ans, ne retournez pas les pions sur leur face Yin-Yang."
    The strong element still wins a duel of equal elements (docs/rulings/wuxing.md)."""
    game = chemin(no_discard=True, no_yin_yang=True)
    events = duel(game, WOOD, WOOD)
    assert game.rules.last["winner"] == 0 and game.rules.yin_yang == [False, False]
    assert "face" not in kinds(events)
    duel(game, EARTH, EARTH)
    assert game.rules.last["reason"] == "tie"


# ---- bad input ----------------------------------------------------------------------------------------


def test_a_card_not_in_hand_a_second_card_or_a_move_is_refused_and_changes_nothing() -> None:
    game = chemin()
    game.apply(0, Discard(METAL))
    with pytest.raises(NotYourTurnError):
        game.apply(0, Discard(WOOD))          # already chosen: locked in until the reveal
    assert rule_of(game, 1, Play(WOOD)) == "opening-discard"
    assert rule_of(game, 1, Discard(7)) == "element-range"
    assert rule_of(game, 1, Discard(True)) == "element-range"
    assert rule_of(game, 1, Move(0, "up", 1)) == "wrong-mode"
    game.apply(1, Discard(WOOD))
    assert rule_of(game, 0, Play(METAL)) == "card-in-hand"
    assert rule_of(game, 0, Discard(WOOD)) == "duel-phase"


def test_options_of_the_other_mode_are_refused() -> None:
    with pytest.raises(ValueError, match="options of the theatre"):
        WuxingGame({"mode": "chemin", "blue_only": True})
    with pytest.raises(ValueError, match="options of the chemin"):
        WuxingGame({"mode": "theatre", "no_discard": True})
    with pytest.raises(ValueError, match="mode must be chemin"):
        WuxingGame({"mode": "arena"})
