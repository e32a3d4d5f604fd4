"""MémoDiXe, "Chacun pour soi": one test per rule, each citing the rulebook's words it enforces."""

from __future__ import annotations

import pytest

from controller.engines import CHANCE, GameOverError, NotYourTurnError, OptionsError, RuleError
from controller.engines.memodixe import (
    CallDixe, EndGame, Flip, Give, MemodixeGame, Peek, PlayOn, Reroll, Roll, SetAside, Skip, Steal, Swap, Take,
    default_book,
)
from memodixe_scenarios import A1, A2, A3, B1, B2, B3, C1, C2, C3, flip_pair, give_dice, hides, new_game, report


# ---- set-up ------------------------------------------------------------------------------------

def test_nine_dice_are_rolled_and_set_as_they_land() -> None:
    """"Lancez 9 DiXes pour former le plateau de jeu [...] Sans changer la face des dés, placez-les
    maintenant de façon à créer un carré de 3 DiXes sur 3": the table reports nine rolls, each die
    keeps the face it landed on."""
    game = MemodixeGame(seed=3)
    square = hides(c3="sablier")
    for place in range(9):
        assert game.current_players() == (CHANCE,)
        assert game.queue[0][2] == place
        report(game, square[place])
    assert game.current_players() == (0,)
    for place in range(9):
        assert game.bottom[place] == square[place]
        assert game.top[place] == game.book.opposite(game.die_names[place], square[place])


def test_the_reserve_holds_one_die_per_player() -> None:
    """"1 DiXe supplémentaire par joueur pour la réserve. Exemple : pour une partie à 4 joueurs, 13
    DiXes sont nécessaires"."""
    for players in (2, 4, 6):
        game = MemodixeGame({"players": players})
        assert len(game.reserve) == players and len(game.die_names) == 9 + players


def test_two_to_six_players() -> None:
    """"Chacun pour soi 2 à 6 joueurs"."""
    for players in (1, 7):
        with pytest.raises(OptionsError, match="2 to 6 players"):
            MemodixeGame({"players": players})


def test_a_roll_is_a_face_of_the_die() -> None:
    """Which faces each DiXe carries is data: a roll naming a face the die does not carry is refused."""
    game = MemodixeGame()
    faces = set(default_book().dice[game.die_names[0]])
    assert {a.face for a in game.legal_actions(CHANCE)} == faces
    with pytest.raises(RuleError):
        game.apply(CHANCE, Roll("soleil"))   # the Oni die carries no sun
    assert game.history == []


# ---- the turn ------------------------------------------------------------------------------------

def test_a_turn_flips_two_dice() -> None:
    """"À tour de rôle, les joueurs vont devoir retourner 2 DiXes afin de dévoiler le symbole présent
    sur la face cachée des dés"."""
    game = new_game(held={1: 1})
    events = game.apply(0, Flip(A1))
    assert events[0].data["face"] == "sablier"
    assert game.current_players() == (0,)
    assert all(type(a) is Flip and a.place != A1 for a in game.legal_actions(0))


def test_a_touched_die_must_be_flipped() -> None:
    """"Attention, tout DiXe touché devra obligatoirement être retourné !": once a die is turned the
    turn goes on with a second flip; nothing else is accepted and nothing changes."""
    game = new_game(held={0: 1})
    game.apply(0, Flip(A1))
    before = game.dumps()
    for action in (CallDixe(), Skip(), Take(A1)):
        with pytest.raises(RuleError) as info:
            game.apply(0, action)
        assert info.value.rule == "touched-die-must-be-flipped"
    with pytest.raises(RuleError) as info:
        game.apply(0, Flip(A1))
    assert info.value.rule == "flip-two-dice"
    assert game.dumps() == before


def test_different_symbols_go_back_in_place() -> None:
    """"Si les 2 symboles dévoilés sont différents : le joueur replace les DiXes dans le carré (dans
    leur position initiale) et c'est au tour du joueur suivant"."""
    game = new_game(held={1: 1})
    square = (list(game.die), list(game.top), list(game.bottom))
    flip_pair(game, 0, A1, B1)
    assert (game.die, game.top, game.bottom) == square
    assert game.current_players() == (1,)
    assert game.up == []


def test_a_pair_wins_one_die_and_the_other_is_rolled_again() -> None:
    """"Sauf indication contraire, le joueur remporte 1 DiXe au choix. Le DiXe restant est relancé
    puis replacé tel quel sur son emplacement d'origine dans le carré"."""
    game = new_game(hides(c1="pi"))          # pi: reroll, a power acting after the turn
    flip_pair(game, 0, B1, C1)
    assert set(game.legal_actions(0)) == {Take(B1), Take(C1)}
    won = game.die[C1]
    game.apply(0, Take(C1))
    assert game.won[0] == [won]
    assert game.current_players() == (CHANCE,) and game.queue[0][2] == B1   # the other die is rolled
    report(game, "bombe")
    assert game.bottom[B1] == "bombe" and game.die[B1] != won


def test_the_square_is_refilled_from_the_reserve() -> None:
    """"Tant qu'il reste des DiXes dans la réserve, on complète le carré. Le joueur pioche, lance et
    place tel quel le(s) DiXe(s) nécessaire(s) dans le carré"."""
    game = new_game(hides(c1="pi"))
    reserve = list(game.reserve)
    flip_pair(game, 0, B1, C1)
    game.apply(0, Take(C1))
    report(game, "bombe")                    # the other die
    assert game.queue[0][:4] == ("roll", CHANCE, C1, reserve[0])
    report(game, "aum")
    assert game.die[C1] == reserve[0] and game.reserve == reserve[1:]


def test_no_refill_once_the_reserve_is_empty() -> None:
    """"Tant qu'il reste des DiXes dans la réserve": with none left the place stays empty."""
    game = new_game(hides(c1="pi"))
    game.discarded.extend(game.reserve)
    game.reserve.clear()
    flip_pair(game, 0, B1, C1)
    game.apply(0, Take(C1))
    report(game, "bombe")
    assert game.die[C1] == -1
    game.apply(0, Reroll(A1))               # pi: "choisissez un DiXe du carré, lancez-le"
    report(game)
    assert game.current_players() == (1,) and game.die[C1] == -1


def test_characters_pair_with_each_other() -> None:
    """Two different characters make a pair (ruling: the characters are one kind, "Pour les
    personnages, on dit « Vive Oni ! »")."""
    game = new_game(hides(a1="Oni", b1="Crâne Yorick"))
    events = flip_pair(game, 0, A1, B1)
    assert events[-1].kind == "pair" and events[-1].data["kind"] == "personnage"


# ---- the powers ----------------------------------------------------------------------------------

def test_sun_steals_a_die_and_wins_none() -> None:
    """"il ne gagne pas l'un de ces DiXes et doit les relancer pour les replacer dans le carré. En
    revanche, en compensation, il vole un DiXe au joueur de son choix. Durant ce tour, comme les deux
    DiXes retournés sont replacés dans le carré, aucun DiXe de la réserve n'est pioché"."""
    game = new_game(hides(c3="soleil"), {"players": 3})
    give_dice(game, 2, 2)
    reserve = list(game.reserve)
    flip_pair(game, 0, B3, C3)
    report(game)
    report(game)
    assert game.legal_actions(0) == [Steal(2)]
    game.apply(0, Steal(2))
    assert len(game.won[0]) == 1 and len(game.won[2]) == 1
    assert game.reserve == reserve and all(d >= 0 for d in game.die)
    assert game.current_players() == (1,)


def test_sun_steals_nothing_when_nobody_has_a_die() -> None:
    """"Rien ne se passe si aucun des joueurs n'a de DiXe en sa possession"."""
    game = new_game(hides(c3="soleil"))
    flip_pair(game, 0, B3, C3)
    report(game)
    events = report(game)
    assert "nobody has a die for player 0 to steal" in [e.text for e in events]
    assert game.current_players() == (1,) and game.won == [[], []]


def test_again_plays_again_after_the_turn() -> None:
    """Sablier (ours): "Rejouez immédiatement après la résolution de votre tour"."""
    game = new_game(hides(c3="sablier"))
    flip_pair(game, 0, A1, C3)
    game.apply(0, Take(A1))
    report(game)                             # the other die
    report(game)                             # the refill
    assert game.current_players() == (0,) and game.queue[0][0] == "turn"


def test_peek_shows_two_faces_to_the_player_only() -> None:
    """Aum (ours): "Vous pouvez regarder secrètement 2 DiXes du carré"."""
    game = new_game(hides(c1="aum"))
    flip_pair(game, 0, A2, C1)
    events = game.apply(0, Peek(B2))
    assert [e.data.get("audience") for e in events] == [None, [0]]
    assert "tete-de-mort" not in events[0].text and "skull" in events[1].text
    game.apply(0, Skip())                    # the second look is optional
    assert game.shown[0][B2] == "tete-de-mort"
    assert game.shown[1][B2] is None and game.shown[game.table_row][B2] is None
    assert type(game.legal_actions(0)[0]) is Take


def test_share_the_richest_give_to_the_poorest() -> None:
    """Yin-yang (ours): "Vous ne gagnez pas de DiXe [...] Le ou les joueurs ayant remporté le plus de
    DiXes au cours de la partie doivent en donner un à celui qui en a le moins (en cas d'égalité, les
    joueurs choisissent à qui ils veulent donner leur DiXe)"."""
    game = new_game(hides(a1="yin-yang"), {"players": 4})
    give_dice(game, 1, 3)
    give_dice(game, 3, 1)                    # seats 0 and 2 have none: seat 1 chooses
    flip_pair(game, 0, A1, C1)
    report(game)
    report(game)
    assert game.current_players() == (1,)
    assert game.legal_actions(1) == [Give(0), Give(2)]
    game.apply(1, Give(2))
    assert [len(w) for w in game.won] == [0, 2, 1, 1]
    assert game.current_players() == (1,) and game.queue[0][0] == "turn"


def test_share_nothing_happens_when_everyone_is_tied() -> None:
    """"Si tous les joueurs sont ex æquo, rien ne se passe"."""
    game = new_game(hides(a1="yin-yang"))
    flip_pair(game, 0, A1, C1)
    report(game)
    events = report(game)
    assert "everyone has as many dice: nothing changes hands" in [e.text for e in events] and game.won == [[], []]


def test_swap_is_secret() -> None:
    """Characters (ours): "vous pouvez secrètement (les autres joueurs détournent le regard) échanger
    l'emplacement de 2 DiXes du carré (sans les retourner)": the others keep what they saw."""
    game = new_game(hides(a1="Oni", b1="Crâne Yorick"))
    flip_pair(game, 1 - 1, C1, A2)           # everyone sees c1 and a2
    flip_pair(game, 1, A1, B1)
    game.apply(1, Take(A1))
    report(game)
    report(game)
    assert Skip() in game.legal_actions(1)
    events = game.apply(1, Swap(C1, A2))
    assert [e.data.get("audience") for e in events[:2]] == [None, [1]]
    assert "c1" not in events[0].text and "c1" in events[1].text
    assert (game.bottom[C1], game.bottom[A2]) == ("aum", "yin-yang")
    assert (game.shown[1][C1], game.shown[1][A2]) == ("aum", "yin-yang")
    assert (game.shown[0][C1], game.shown[0][A2]) == ("yin-yang", "aum")   # stale: they looked away


def test_aside_die_is_out_of_play_until_the_setters_next_turn() -> None:
    """Pirate (ours): "choisissez un DiXe du carré et mettez-le de côté. Il ne pourra pas être utilisé
    par les autres joueurs jusqu'à votre prochain tour. [...] Laissez une place libre pour le DiXe mis
    de côté"."""
    game = new_game(hides(b1="pirate"))
    flip_pair(game, 0, B1, C3)
    game.apply(0, Take(B1))
    report(game)
    report(game)
    game.apply(0, SetAside(B2))
    assert game.die[B2] == -1 and B2 not in game.free_places()
    assert Flip(B2) not in game.legal_actions(1)
    flip_pair(game, 1, A1, C1)
    assert game.die[B2] >= 0 and game.bottom[B2] == "tete-de-mort"   # back, unchanged, at seat 0's turn


def test_reroll_power_rolls_a_chosen_die() -> None:
    """Pi (ours): "Après la résolution de votre tour, choisissez un DiXe du carré, lancez-le et
    remplacez-le"."""
    game = new_game(hides(c1="pi"))
    flip_pair(game, 0, B1, C1)
    game.apply(0, Take(B1))
    report(game)
    report(game)
    game.apply(0, Reroll(A1))
    assert game.queue[0][:3] == ("roll", CHANCE, A1) and game.top[A1] is None
    report(game, "bombe")
    assert game.bottom[A1] == "bombe" and game.current_players() == (1,)


def test_bomb_wins_the_rerolled_die_on_a_bomb() -> None:
    """"Lorsque vous relancez le DiXe restant, si vous tombez sur la bombe, vous le gagnez. Sinon,
    remplacez-le tel quel dans le carré"."""
    game = new_game(hides(b1="bombe"), {"players": 3})
    flip_pair(game, 0, B1, C2)
    game.apply(0, Take(B1))
    game.apply(CHANCE, Roll("bombe"))        # the Oni die at c2 lands on the bomb
    assert len(game.won[0]) == 2
    assert [step[2] for step in game.queue[:2]] == [B1, C2]      # both places are refilled
    game = new_game(hides(b1="bombe"), {"players": 3})
    flip_pair(game, 0, B1, C2)
    game.apply(0, Take(B1))
    game.apply(CHANCE, Roll("pirate"))
    assert len(game.won[0]) == 1 and game.top[C2] == "pirate"


def test_skull_makes_every_other_player_discard() -> None:
    """"si vous tombez sur la tête de mort, tous les joueurs, à l'exception de vous, doivent défausser
    un de leurs DiXes"."""
    game = new_game(hides(b1="tete-de-mort"), {"players": 4})
    give_dice(game, 0, 1)
    give_dice(game, 1, 2)
    give_dice(game, 3, 1)
    flip_pair(game, 0, B1, B2)
    game.apply(0, Take(B1))
    game.apply(CHANCE, Roll("tete-de-mort"))     # the Hanuman die at b2
    assert [len(w) for w in game.won] == [2, 1, 0, 0] and len(game.discarded) == 2


def test_retry_wins_nothing_and_plays_again() -> None:
    """Smiley (ours): "Vous ne gagnez pas de DiXe. Relancez les 2 DiXes retournés [...] Vous pouvez
    maintenant rejouer"."""
    game = new_game(hides(a2="smiley"))
    flip_pair(game, 0, A2, A3)
    report(game)
    report(game)
    assert game.won == [[], []] and game.current_players() == (0,) and game.queue[0][0] == "turn"


# ---- DiXe ! -------------------------------------------------------------------------------------

def test_dixe_needs_a_die() -> None:
    """"si un joueur possédant au moins un dé pense qu'il n'est plus possible de dévoiler une paire":
    with no die won the call is refused, naming the rule and quoting the square."""
    game = new_game(held={1: 1})
    before = game.dumps()
    with pytest.raises(RuleError) as info:
        game.apply(0, CallDixe())
    assert info.value.rule == "dixe-needs-a-die" and isinstance(info.value, ValueError)
    assert info.value.state == game.render() and game.dumps() == before


def test_dixe_is_called_at_the_start_of_the_turn() -> None:
    """"Au début de son tour": not after flipping."""
    game = new_game(held={0: 1})
    assert CallDixe() in game.legal_actions(0)
    game.apply(0, Flip(A1))
    assert CallDixe() not in game.legal_actions(0)


def test_a_wrong_dixe_discards_every_won_die_and_rolls_the_square_again() -> None:
    """"Si le joueur s'est trompé [...] ce dernier perd et défausse tous les DiXes qu'il a acquis au
    cours de la partie. Il relance les DiXes restants et les replace dans le carré, la partie
    continue"."""
    game = new_game(hides(c3="sablier"), {"players": 3})
    give_dice(game, 0, 2)
    events = game.apply(0, CallDixe())
    assert events[-1].kind == "dixe-wrong" and game.won[0] == [] and len(game.discarded) == 2
    assert events[-1].text == "player 0 is wrong, a pair is left: player 0 discards 2 dice and the square is rolled again"
    for _ in range(9):
        report(game)
    assert game.current_players() == (1,) and not game.over


def test_a_right_dixe_wins_a_last_die_and_ends_the_game() -> None:
    """"Si le joueur a raison et que tous les symboles restants sont différents [...] le joueur remporte
    un dernier DiXe. C'est la fin de la partie !\""""
    game = new_game(held={1: 1})
    flip_pair(game, 0, A1, B1)
    game.apply(1, CallDixe())
    assert game.over and game.won[1].__len__() == 2 and game.winners() == (1,)
    with pytest.raises(GameOverError):
        game.apply(0, Flip(A1))


def test_optional_rule_a_right_caller_may_roll_again_and_play_on() -> None:
    """"Facultatif : Après avoir crié « DiXe !!! », le joueur remporte un DiXe mais il a tout de même le
    droit [...] de relancer les DiXes restants et de les replacer tel quel dans le carré. La partie
    continue !\""""
    game = new_game(options={"dixe_continue": True}, held={0: 1})
    game.apply(0, CallDixe())
    assert game.legal_actions(0) == [EndGame(), PlayOn()] and len(game.won[0]) == 2
    game.apply(0, PlayOn())
    while game.current_players() == (CHANCE,):
        report(game)
    assert not game.over and game.current_players() == (1,) and all(d >= 0 for d in game.die)


def test_a_tie_goes_to_the_last_right_caller() -> None:
    """"En fin de partie, en cas d'égalité, c'est le dernier joueur à avoir crié « DiXe ! » qui
    l'emporte" (the example: Antoine and Grégory tie, Antoine called)."""
    game = new_game(options={"players": 3}, held={0: 2, 1: 1})
    flip_pair(game, 0, A1, B1)
    game.apply(1, CallDixe())
    assert game.scores() == (2.0, 2.0, 0.0) and game.winners() == (1,)


def test_a_tie_without_the_caller_is_shared() -> None:
    """"Si aucun des joueurs en lice pour la première place n'est concerné, on considère qu'ils
    finissent ex-aequo"."""
    game = new_game(options={"players": 5}, held={0: 2, 1: 2, 2: 1})
    flip_pair(game, 0, A1, B1)
    flip_pair(game, 1, A1, B1)
    game.apply(2, CallDixe())
    assert game.scores() == (2.0, 2.0, 2.0, 0.0, 0.0) and game.winners() == (2,)
    game = new_game(options={"players": 3})      # over at once: no pair, no die held
    give_dice(game, 0, 1)
    give_dice(game, 1, 1)
    game.last_caller = 2
    assert game.over and game.winners() == (0, 1)


def test_the_game_ends_when_no_pair_is_left_and_nobody_can_cry_dixe() -> None:
    """Ruling: with no pair left, no die set aside and no die won, no one could ever play on."""
    game = new_game(hides(c3="sablier"))
    flip_pair(game, 0, A1, C3)
    assert not game.over
    game2 = new_game()
    assert game2.over and game2.result == "no-pair" and game2.winners() == (0, 1)


# ---- bad input -----------------------------------------------------------------------------------

def test_flipping_a_die_not_in_the_square_is_refused() -> None:
    """Only dice of the square are flipped: an empty place or a place off the square is refused by
    name, and nothing changes."""
    game = new_game(hides(c1="pi"))
    game.discarded.extend(game.reserve)
    game.reserve.clear()
    flip_pair(game, 0, B1, C1)
    game.apply(0, Take(C1))
    report(game)
    game.apply(0, Reroll(A1))
    report(game)
    before = game.dumps()
    for place in (C1, 9, -1):
        with pytest.raises(RuleError) as info:
            game.apply(1, Flip(place))
        assert info.value.rule == "flip-in-square"
    with pytest.raises(RuleError) as info:
        game.apply(1, Flip(True))            # type: ignore[arg-type]
    assert info.value.rule == "action-fields"
    assert game.dumps() == before


def test_a_move_out_of_turn_is_refused() -> None:
    """"À tour de rôle": seat 1 may not flip during seat 0's turn."""
    game = new_game(held={1: 1})
    before = game.dumps()
    with pytest.raises(NotYourTurnError) as info:
        game.apply(1, Flip(A1))
    assert info.value.rule == "turn-order" and "player 1" in str(info.value)
    assert game.dumps() == before


def test_only_dice_of_the_pair_can_be_won() -> None:
    """"le joueur remporte 1 DiXe au choix": one of the two."""
    game = new_game(hides(c1="pi"))
    flip_pair(game, 0, B1, C1)
    with pytest.raises(RuleError) as info:
        game.apply(0, Take(A1))
    assert info.value.rule == "take-one-of-the-pair" and "c1" in info.value.reason


# ---- the symbol -> power table ---------------------------------------------------------------------

def test_the_power_table_is_data_with_the_three_the_text_ties() -> None:
    """Only "soleil" (steal: "une paire de Soleils [...] il vole un DiXe"), "bombe" and "tête de mort"
    are tied to their power by the text; the table gives each of the ten kinds one power."""
    book = default_book()
    assert (book.powers["soleil"], book.powers["bombe"], book.powers["tete-de-mort"]) == ("steal", "bomb", "skull")
    assert set(book.powers) == set(book.kinds) and len(book.kinds) == 10


def test_an_owner_sets_the_powers_from_his_rulebook() -> None:
    """The ``powers`` option overrides the table; a bad kind or power is refused by name."""
    game = new_game(hides(c1="pi"), {"powers": [["pi", "steal"]]})
    events = flip_pair(game, 0, B1, C1)
    assert events[-1].data["power"] == "steal"
    with pytest.raises(OptionsError, match="unknown kind 'lune'"):
        MemodixeGame({"powers": [["lune", "steal"]]})
    with pytest.raises(OptionsError, match="unknown power 'fly'"):
        MemodixeGame({"powers": [["pi", "fly"]]})
    with pytest.raises(OptionsError, match="unknown die"):
        MemodixeGame({"dice": ["Oni"] * 10 + ["Kaeru"]})


def test_the_dice_data_is_checked() -> None:
    """A die is three pairs of opposite, different faces, each a symbol or a character."""
    from controller.engines.memodixe import BookError, parse_book
    from importlib import resources

    text = resources.files("controller.engines.memodixe").joinpath("data/memodixe.toml").read_text(encoding="utf-8")
    assert parse_book(text) == default_book()
    with pytest.raises(BookError, match="must differ"):
        parse_book(text.replace('["Hanuman", "pi"]', '["Hanuman", "aum"]'))
    with pytest.raises(BookError, match="neither a symbol nor a character"):
        parse_book(text.replace('["Hanuman", "pi"]', '["Hanuman", "lune"]'))
