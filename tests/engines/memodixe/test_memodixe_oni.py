"""MémoDiXe, "Oni contre tous": the mode's rules, the app's levels and effects, the Oni-mode powers."""

from __future__ import annotations

import pytest

from controller.engines import CHANCE, NotYourTurnError, OptionsError, RuleError
from controller.engines.memodixe import (
    Announce, CallDixe, Centre, ChooseFace, Flip, MemodixeGame, Peek, Penalty, Race, Relaunch, Reroll, Roll, Skip,
    Take, TimeUp,
)
from controller.engines.memodixe.effects import EFFECTS, LEVELS, deck
from memodixe_scenarios import A1, A2, A3, B1, B2, B3, C1, C2, C3, flip_pair, hides, report

ONI = {"mode": "oni-contre-tous", "players": 4}


def oni_game(bottoms: list[str], options: dict | None = None, cards: tuple[str, ...] = ()) -> MemodixeGame:
    """An Oni game (Oni at seat 0, seat 1 starts) whose app will show ``cards`` first, in order."""
    game = MemodixeGame({**ONI, **(options or {})}, seed=0)
    game.deck.extend(reversed(cards))
    for face in bottoms:
        report(game, face)
    return game


def test_four_to_eight_players_and_no_reserve() -> None:
    """"Oni contre tous 4 à 8 joueurs" [...] "On n'utilise pas la réserve dans ce mode"."""
    game = MemodixeGame(ONI)
    assert game.reserve == [] and len(game.die_names) == 9
    for players in (3, 9):
        with pytest.raises(OptionsError, match="4 to 8 players"):
            MemodixeGame({**ONI, "players": players})


def test_the_player_left_of_oni_starts_and_oni_does_not_play_in_turn() -> None:
    """"Le joueur à gauche du roller master commence" and "Le joueur qui joue Oni ne joue pas à son
    tour de table"."""
    game = oni_game(hides(c3="sablier"), {"oni_seat": 2}, cards=("joue", "joue", "joue"))
    order = []
    for _ in range(3):
        seat = game.current_players()[0]
        order.append(seat)
        flip_pair(game, seat, A1, B1)
    assert order == [3, 0, 1]


def test_levels_have_their_effects_and_cards() -> None:
    """"Niveau facile : 7 effets [...] 17 cartes", "normal : 15 effets [...] 36 cartes", "difficile :
    22 effets [...] 53 cartes"; countdowns 6 min 40 s, 5 min, 3 min 20 s."""
    assert len(EFFECTS) == 22
    for level, effects, cards, seconds in (("easy", 7, 17, 400), ("normal", 15, 36, 300), ("hard", 22, 53, 200)):
        assert len(deck(level)) == cards and len(set(deck(level)) - {"oni", "joue"}) == effects
        assert LEVELS[level][3] == seconds


def test_an_effect_is_drawn_after_the_second_flip() -> None:
    """"Après avoir retourné son 2e DiXe, le joueur doit appuyer sur le mobile pour faire apparaître
    un effet à appliquer dans le jeu"; drawn from the seeded generator."""
    draws = []
    for _ in range(2):
        game = MemodixeGame(ONI, seed=11)
        for face in hides(c3="sablier"):
            report(game, face)
        events = game.apply(1, Flip(A1))
        assert not [e for e in events if e.kind == "effect"]
        events = game.apply(1, Flip(B1))
        draws.append([e.data["card"] for e in events if e.kind == "effect"])
    assert draws[0] == draws[1] and len(draws[0]) == 1


def test_oni_plays_when_the_app_says_and_his_flips_are_hidden() -> None:
    """"Il joue quand l'application lui indique de jouer [...] Lorsque Oni retourne 2 DiXes, il ne les
    montre pas aux autres joueurs. En revanche, Oni voit les autres joueurs retourner les DiXes"."""
    game = oni_game(hides(c3="sablier"), cards=("oni",))
    flip_pair(game, 1, A1, B1)
    assert game.shown[0][A1] == "sablier"              # Oni saw the player's flip
    assert game.current_players() == (0,)
    events = game.apply(0, Flip(C1)) + game.apply(0, Flip(A2))
    public = [e for e in events if "audience" not in e.data]
    assert not any("yin-yang" in e.text or "aum" in e.text for e in public)
    assert {e.data["face"] for e in events if e.data.get("audience") == [0]} == {"yin-yang", "aum"}
    assert game.shown[0][C1] == "yin-yang" and game.shown[1][C1] is None and game.shown[4][C1] is None
    assert game.current_players() == (2,)


def test_oni_rolls_a_pair_he_finds_back_into_the_square() -> None:
    """"Si celui-ci trouve une paire, il relance les 2 DiXes et les replace dans le carré"."""
    game = oni_game(hides(c3="sablier"), cards=("oni",))
    flip_pair(game, 1, B1, C1)
    flip_pair(game, 0, A1, C3)
    assert [s[2] for s in game.queue[:2]] == [A1, C3] and game.bag == []
    report(game)
    report(game)
    assert game.current_players() == (2,)


def test_won_dice_go_on_the_bag() -> None:
    """"Chaque dé gagné sera posé sur le sac DiXe"."""
    game = oni_game(hides(c3="sablier"), cards=("joue",))
    flip_pair(game, 1, A1, C3)
    game.apply(1, Take(C3))
    assert len(game.bag) == 1 and game.won == [[], [], [], []]


def test_oni_may_move_a_die_to_the_free_centre() -> None:
    """"si l'emplacement central du carré est libre, Oni peut prendre n'importe quel DiXe du carré et
    l'y placer" (ruling: he is asked at the start of each turn while the centre is free)."""
    game = oni_game(hides(b1="tete-de-mort"), cards=("joue",))
    flip_pair(game, 1, B1, B2)                         # skull pair: the won die leaves b2
    game.apply(1, Take(B2))
    game.apply(CHANCE, Roll("pirate"))
    assert game.current_players() == (0,) and Skip() in game.legal_actions(0)
    seen = game.shown[2][A1]
    game.apply(0, Centre(A1))
    assert game.die[B2] >= 0 and game.die[A1] == -1 and game.shown[2][B2] == seen


def test_a_right_dixe_wins_for_the_players() -> None:
    """"La partie se termine à la première annonce « DiXe ! » validée [...] Les joueurs ont gagné"."""
    game = oni_game(hides(c1="pi"), cards=("joue",))
    flip_pair(game, 1, B1, C1)
    game.apply(1, Take(B1))                            # pi: c1 goes back unchanged, no pair is left
    assert game.current_players() == (2,) and not game.pair_left()
    game.apply(2, CallDixe())
    assert game.over and game.winners() == (1, 2, 3) and game.scores() == (0.0, 1.0, 1.0, 1.0)


def test_a_wrong_dixe_discards_the_bag() -> None:
    """"dans les mêmes conditions que dans le mode Chacun pour soi": a wrong call loses the dice won,
    here the bag's (ruling), and the square is rolled again."""
    game = oni_game(hides(c1="pi", c3="sablier"), cards=("joue",))
    flip_pair(game, 1, B1, C1)
    game.apply(1, Take(B1))                            # a1 and c3 still hide the hourglass
    game.apply(2, CallDixe())
    assert game.bag == [] and len(game.discarded) == 1 and not game.over


def test_oni_does_not_cry_dixe_and_an_empty_bag_cannot() -> None:
    """Oni plays against the others; a call needs a won die."""
    game = oni_game(hides(c3="sablier"), cards=("oni",))
    with pytest.raises(RuleError) as info:
        game.apply(1, CallDixe())
    assert info.value.rule == "dixe-needs-a-die"


def test_time_up_oni_wins() -> None:
    """"Le chrono sonne, Oni gagne": the service sends TimeUp (the engine has no clock), at any
    moment, from the table only."""
    game = oni_game(hides(c3="sablier"))
    game.apply(1, Flip(A1))
    with pytest.raises(NotYourTurnError):
        game.apply(1, TimeUp())
    game.apply(CHANCE, TimeUp())
    assert game.over and game.winners() == (0,) and game.scores() == (1.0, 0.0, 0.0, 0.0)


def test_time_up_is_not_a_chacun_pour_soi_action() -> None:
    from memodixe_scenarios import new_game

    game = new_game(hides(c3="sablier"))
    with pytest.raises(RuleError) as info:
        game.apply(CHANCE, TimeUp())
    assert info.value.rule == "oni-only"


def test_a_failed_gage_costs_a_won_die() -> None:
    """"Si tu oublies, Oni relance un DiXe gagné dans le carré": the app reports the failure
    (Penalty); Oni rolls a die from the bag into a free place."""
    game = oni_game(hides(c1="pi"), cards=("tourne",))
    with pytest.raises(RuleError):
        game.apply(CHANCE, Penalty())                  # no gage in force yet
    flip_pair(game, 1, B1, C1)
    game.apply(1, Take(B1))
    assert ("tourne", 1) in game.in_force
    game.apply(CHANCE, Penalty())
    assert game.legal_actions(0) == [Relaunch(B1)]
    game.apply(0, Relaunch(B1))
    report(game)
    assert game.bag == [] and game.die[B1] >= 0 and game.current_players() == (2,)


def test_lasting_effects_end_at_the_drawers_next_turn() -> None:
    """"Jusqu'au début de ton prochain tour"."""
    game = oni_game(hides(c3="sablier"), cards=("chut", "joue", "joue"))
    flip_pair(game, 1, A2, B2)
    assert game.in_force == [("chut", 1)]
    flip_pair(game, 2, A2, B2)
    flip_pair(game, 3, A2, B2)
    assert game.in_force == []


def test_oni_relance_rolls_a_die_of_the_square() -> None:
    """"Oni relance 1 DiXe du carré"."""
    game = oni_game(hides(c3="sablier"), cards=("oni-relance",))
    flip_pair(game, 1, A2, B2)
    assert game.current_players() == (0,)
    game.apply(0, Reroll(A2))
    assert game.queue[0][:3] == ("roll", CHANCE, A2)


def test_vol_le_dixe_du_milieu() -> None:
    """"Si c'est Oni qui attrape le DiXe, il le relance et le repose au milieu. Si un joueur attrape le
    DiXe avant Oni, vous gagnez le DiXe"."""
    game = oni_game(hides(c3="sablier"), cards=("vol-milieu",))
    flip_pair(game, 1, A2, C2)
    assert game.legal_actions(CHANCE) == [Race(False), Race(True)]
    game.apply(CHANCE, Race(False))
    assert len(game.bag) == 1 and game.die[B2] == -1


def test_oni_retourne_chooses_hidden_faces() -> None:
    """"Oni peut retourner 2 DiXes du carré. Il choisit les nouveaux symboles cachés de ces 2 DiXes"."""
    from controller.engines.memodixe import TurnOver

    game = oni_game(hides(c3="sablier"), cards=("oni-retourne",))
    flip_pair(game, 1, A2, C2)
    game.apply(0, TurnOver(A2, "Arkan Sonney"))
    game.apply(0, Skip())
    assert game.bottom[A2] == "Arkan Sonney" and game.top[A2] == "aum"
    assert game.shown[0][A2] == "Arkan Sonney" and game.shown[1][A2] is None


# ---- the powers, Oni-mode texts ------------------------------------------------------------------

def test_sun_wins_a_die_and_no_card_is_drawn() -> None:
    """Soleil: "Vous gagnez un DiXe et ne cliquez pas sur Suivant"."""
    game = oni_game(hides(c3="soleil"), cards=("oni",))
    flip_pair(game, 1, B3, C3)
    game.apply(1, Take(B3))
    events = report(game)
    assert len(game.bag) == 1 and not [e for e in events if e.kind == "effect"]
    assert game.deck[-1] == "oni" and game.current_players() == (2,)


def test_again_means_no_press_until_the_next_turn_and_oni_plays() -> None:
    """Sablier (ours): "Personne ne clique sur le bouton suivant jusqu'à votre prochain tour. En
    compensation, Oni joue immédiatement"."""
    game = oni_game(hides(c3="sablier"), cards=("oni", "oni", "oni"))
    flip_pair(game, 1, A1, C3)
    game.apply(1, Take(A1))
    report(game)
    assert game.current_players() == (0,)
    flip_pair(game, 0, B1, C1)
    flip_pair(game, 2, B1, C1)                        # no press: nobody draws
    assert game.current_players() == (3,) and game.deck[-3:] == ["oni", "oni", "oni"]


def test_peek_shows_everyone() -> None:
    """Aum (ours): "Vous pouvez montrer à tous 2 symboles cachés du carré"."""
    game = oni_game(hides(c1="aum"), cards=("joue",))
    flip_pair(game, 1, A2, C1)
    game.apply(1, Peek(B2))
    assert all(row[B2] == "tete-de-mort" for row in game.shown)


def test_share_cancels_the_effects_in_force() -> None:
    """Yin-yang (ours): "Annule les effets en cours"."""
    game = oni_game(hides(a1="yin-yang"), cards=("sapristix", "joue", "joue"))
    flip_pair(game, 1, A2, B2)
    assert game.in_force == [("sapristix", 1)]
    flip_pair(game, 2, A1, C1)
    assert game.in_force == []


def test_swap_chooses_the_face_the_second_die_rests_on() -> None:
    """Characters (ours): "Vous choisissez le symbole sur lequel vous replacez le 2e DiXe"."""
    game = oni_game(hides(a1="Oni", b1="Crâne Yorick"), cards=("joue",))
    flip_pair(game, 1, A1, B1)
    game.apply(1, Take(A1))
    game.apply(1, ChooseFace("smiley"))
    assert game.bottom[B1] == "smiley" and game.top[B1] == "tete-de-mort" and game.shown[3][B1] == "smiley"


def test_aside_announces_a_symbol_the_next_player_must_find() -> None:
    """Pirate (ours): "Annoncez un symbole n'étant pas présent sur les faces du dessus. Avant de jouer
    son tour, le joueur suivant devra retourner ce symbole en un seul essai. S'il réussit, le DiXe est
    gagné"."""
    game = oni_game(hides(b1="pirate"), cards=("joue",))
    flip_pair(game, 1, B1, C3)
    game.apply(1, Take(C3))
    report(game)
    tops = {game.book.kind(game.top[p]) for p in game.usable()}
    assert all(a.kind not in tops for a in game.legal_actions(1))
    assert Announce("tete-de-mort") not in game.legal_actions(1)   # a skull is shown on top
    game.apply(1, Announce("sablier"))
    assert game.current_players() == (2,) and game.queue[0][0] == "challenge"
    game.apply(2, Flip(A1))                            # a1 hides the hourglass
    assert len(game.bag) == 2 and game.queue[0][0] == "turn"


def test_reroll_puts_the_second_die_back_unchanged() -> None:
    """Pi (ours): "Ne relancez pas le 2e DiXe, reposez-le avec son symbole initial"."""
    game = oni_game(hides(c1="pi"), cards=("joue",))
    top = game.top[C1]
    flip_pair(game, 1, B1, C1)
    game.apply(1, Take(B1))
    assert game.top[C1] == top and game.current_players() == (2,)


def test_skull_rolls_the_won_die_back_too() -> None:
    """Tête de mort: "si vous tombez sur la tête de mort, vous devez aussi relancer l'autre DiXe dans
    le carré (vous n'en gagnez donc pas)"."""
    game = oni_game(hides(b1="tete-de-mort"), cards=("joue",))
    flip_pair(game, 1, B1, B2)
    game.apply(1, Take(B1))
    game.apply(CHANCE, Roll("tete-de-mort"))
    assert game.bag == [] and game.queue[0][:3] == ("roll", CHANCE, B1)


def test_bomb_is_the_same_as_chacun_pour_soi() -> None:
    """Bombe: "Le pouvoir est identique au mode Chacun pour soi"."""
    game = oni_game(hides(b1="bombe"), cards=("joue",))
    flip_pair(game, 1, B1, C2)
    game.apply(1, Take(B1))
    game.apply(CHANCE, Roll("bombe"))
    assert len(game.bag) == 2


def test_retry_wins_nothing_and_plays_again() -> None:
    """Smiley (ours): "Le pouvoir est identique au mode chacun pour soi"."""
    game = oni_game(hides(a2="smiley"), cards=("joue",))
    flip_pair(game, 1, A2, A3)
    report(game)
    report(game)
    assert game.bag == [] and game.current_players() == (1,)
