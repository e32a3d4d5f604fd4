"""Hidden faces are real secrets; the seeded generator replays games; bots, words and the render."""

from __future__ import annotations

import json
import random

import pytest

from controller import i18n
from controller.engines import CHANCE, RandomBot, play_out
from controller.engines.memodixe import Flip, MemodixeGame, MemoryBot, Peek, SeededRoller, words
from controller.engines.memodixe.game import PLACES
from memodixe_scenarios import A2, B2, C1, flip_pair, hides, new_game

OPTIONS = [{}, {"players": 4}, {"mode": "oni-contre-tous", "players": 5}]


def _dice(centre: str, count: int) -> list[str]:
    """The default dice with ``centre`` at b2."""
    base = ["Oni", "Crâne Yorick", "Mr Blaireau", "Arkan Sonney", "Hanuman"]
    names = [base[i % 5] for i in range(count)]
    names[B2] = centre
    return names


def _random_state(options: dict, seed: int, steps: int) -> MemodixeGame:
    game = MemodixeGame(options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over():
            break
        player = game.current_players()[0]
        game.apply_fast(player, rng.choice(game.legal_actions(player)))
    return game


@pytest.mark.parametrize("options", OPTIONS)
def test_a_seats_view_is_the_same_whatever_the_unseen_faces(options: dict) -> None:
    """A view never holds a face its seat was not shown: change every hidden face that seat has not
    seen (and which die lies there) and its view does not change."""
    for seed in range(40):
        game = _random_state(options, seed, 20 + seed * 3)
        for seat in [*range(game.n), None]:
            row = game.shown[game.table_row if seat is None else seat]
            before = json.dumps(game.view(seat), sort_keys=True)
            twin = game.clone()
            for p in range(PLACES):
                if twin.die[p] >= 0 and twin.top[p] is not None and row[p] is None:
                    twin.bottom[p] = "?"                       # a face no die carries
                    twin.die[p] = (twin.die[p] + 1) % len(twin.die_names)
            twin.deck.reverse()
            assert json.dumps(twin.view(seat), sort_keys=True) == before, (seed, seat)


def test_a_secret_look_changes_no_other_view() -> None:
    """"regarder secrètement": two games that differ only in the face looked at look the same to
    every other seat and to a spectator."""
    views = []
    for die, hidden in (("Hanuman", "tete-de-mort"), ("Mr Blaireau", "Mr Blaireau")):   # both show the sun
        game = new_game(hides(c1="aum", b2=hidden), {"dice": _dice(die, 11)})
        assert game.top[B2] == "soleil"
        flip_pair(game, 0, A2, C1)
        game.apply(0, Peek(B2))
        views.append([json.dumps(game.view(s), sort_keys=True) for s in (0, 1, None)])
    assert views[0][0] != views[1][0]
    assert views[0][1:] == views[1][1:]


def test_onis_flips_change_no_players_view() -> None:
    """"Lorsque Oni retourne 2 DiXes, il ne les montre pas aux autres joueurs"."""
    views = []
    for die, hidden in (("Hanuman", "tete-de-mort"), ("Mr Blaireau", "Mr Blaireau")):   # both show the sun
        game = MemodixeGame({"mode": "oni-contre-tous", "players": 4, "dice": _dice(die, 9)}, seed=0)
        game.deck.append("oni")
        from memodixe_scenarios import report
        for face in hides(c3="sablier", b2=hidden):
            report(game, face)
        flip_pair(game, 1, A2, C1)
        game.apply(0, Flip(B2))
        views.append([json.dumps(game.view(s), sort_keys=True) for s in (0, 1, 2, 3, None)])
    assert views[0][0] != views[1][0]
    assert views[0][1:] == views[1][1:]


def test_the_same_seed_replays_the_same_game() -> None:
    """Rolls from the seeded generator: same seed, same bots, same game; and a game's seeded rolls
    do not depend on which faces the table reported before."""
    def play(seed: int) -> str:
        game = MemodixeGame({"players": 3}, seed=seed)
        bots = {CHANCE: SeededRoller(1), 0: MemoryBot(2), 1: MemoryBot(3, forget=0.3), 2: RandomBot(4)}
        play_out(game, bots)
        return game.dumps()

    assert play(5) == play(5) and play(5) != play(6)
    a, b = MemodixeGame(seed=9), MemodixeGame(seed=9)
    a.apply(CHANCE, a.legal_actions(CHANCE)[0])
    b.apply(CHANCE, b.legal_actions(CHANCE)[1])
    assert a.seeded_roll() == b.seeded_roll()


def test_memory_bot_beats_random() -> None:
    """The bot that remembers wins clearly more than half its games against a random player."""
    share = 0.0
    games = 40
    for seed in range(games):
        me = seed % 2
        game = MemodixeGame(seed=seed)
        play_out(game, {CHANCE: SeededRoller(seed), me: MemoryBot(seed), 1 - me: RandomBot(seed)})
        winners = game.winners()
        share += (me in winners) / len(winners)
    assert share / games > 0.7


def test_a_forgetful_bot_is_weaker() -> None:
    """The easy level: forgetting most of what it saw makes the memory bot lose more often."""
    def share(forget: float) -> float:
        total = 0.0
        for seed in range(40):
            me = seed % 2
            game = MemodixeGame(seed=seed)
            play_out(game, {CHANCE: SeededRoller(seed), me: MemoryBot(seed, forget=forget), 1 - me: MemoryBot(seed + 99)})
            total += (me in game.winners()) / len(game.winners())
        return total / 40

    assert share(0.8) < share(0.0)


def test_memory_bot_plays_from_what_it_was_shown() -> None:
    """Its choice is the same whatever the faces it was not shown."""
    for seed in range(30):
        game = _random_state({}, seed, 25)
        if game.is_over() or game.current_players()[0] == CHANCE:
            continue
        seat = game.current_players()[0]
        twin = game.clone()
        for p in range(PLACES):
            if twin.die[p] >= 0 and twin.top[p] is not None and twin.shown[seat][p] is None:
                twin.bottom[p] = "?"
        assert MemoryBot(seed).choose(game, seat) == MemoryBot(seed).choose(twin, seat)


def test_every_event_text_is_the_english_of_its_message() -> None:
    """An event's text is its message said in English, a sentence of the memodixe catalogue; its data
    keeps the plain details (and the audience); every power and card has its text in both modes."""
    catalogue = {m.id for m in i18n.template("memodixe") if m.id}
    game = MemodixeGame({"mode": "oni-contre-tous", "players": 4}, seed=2)
    rng = random.Random(2)
    seen = set()
    for _ in range(400):
        if game.is_over():
            break
        player = game.current_players()[0]
        for event in game.apply(player, rng.choice(game.legal_actions(player))):
            assert event.message is not None and event.message["msg"] in catalogue
            assert event.text == i18n.said(event.message, "en")
            assert "msg" not in event.data and "args" not in event.data
            json.dumps(event.to_json())
            seen.add(event.kind)
    assert {"flip", "turn", "roll"} <= seen
    for power, texts in words.POWER_TEXTS.items():
        assert set(texts) == {"chacun-pour-soi", "oni-contre-tous"} and set(texts.values()) <= catalogue
    assert set(words.EFFECT_TEXTS) >= {"oni", "joue"} and set(words.WAITING) >= {"roll", "turn", "second"}


def test_what_the_game_waits_for_is_a_message() -> None:
    game = new_game(hides(c3="sablier"))
    view = game.view(1)
    assert view["waiting_for"] == game.waiting()
    assert i18n.said(view["waiting_for"], "en") == game.waiting_for() == "player 0 to flip a first die (or cry DiXe !)"
    assert i18n.said(view["waiting_for"], "fr") == "joueur 0 doit retourner un premier DiXe (ou crier « DiXe ! »)"


def test_render_is_deterministic_text() -> None:
    game = new_game(hides(c1="aum"))
    text = game.render()
    assert text == new_game(hides(c1="aum")).render()
    assert text.splitlines()[0].startswith("MémoDiXe (chacun pour soi, 2 players)")
    assert "aum" in text and "dice won" in text


@pytest.mark.parametrize("options", [*OPTIONS, {"players": 3, "dixe_continue": True,
                                                "powers": [["pi", "steal"], ["smiley", "share"]]}])
def test_the_fast_path_reaches_the_checked_states(options: dict) -> None:
    """``apply_fast`` (no events: bots and playouts) reaches exactly the states ``apply`` reaches."""
    import test_fast_path

    for seed in range(6):
        test_fast_path.play_in_lockstep("memodixe", options, seed, seed + 1000, names=seed % 2 == 0)
