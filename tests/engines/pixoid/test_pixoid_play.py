"""Whole games per variant, the bots, the events a dashboard animates from, drawing, saving."""

from __future__ import annotations

import json
import random

import pytest

from controller.engines import RandomBot, new_game, play_out
from controller.engines.pixoid import (
    PixoidBot,
    PixoidGame,
    PixoidOptions,
    Place,
    Program,
    board_names,
    render_ansi,
)
from pixoid_scenarios import kinds, place, quiet_turn, turn
from pixoid_scenarios import new_game as lanes_game


def play_with_bots(game: PixoidGame, seed: int) -> list:
    """Play to the end with one PixoidBot per seat, checking every choice is legal; return events."""
    bots = {seat: PixoidBot(seed * 10 + seat) for seat in range(game.num_players)}
    events = []
    while not game.is_over():
        seat = game.current_players()[0]
        action = bots[seat].choose(game, seat)
        assert action in game.legal_actions(seat)
        events.extend(game.apply(seat, action))
        game.check_invariants()
    return events


@pytest.mark.parametrize(
    "options",
    [{"players": 4}, {"players": 3}, {"players": 4, "short_game": True}, {"players": 3, "short_game": True}],
    ids=["4-players", "3-players", "short-4", "short-3"],
)
def test_whole_game_with_bots(options: dict) -> None:
    """"La partie s'arrête lorsque tous les joueurs ont incarné une fois Pixoid\" (or after the one
    round of the short game): every seat is Pixoid once, scores add up, someone wins."""
    for seed in range(3):
        game = PixoidGame(PixoidOptions.from_dict(options), seed=seed)
        events = play_with_bots(game, seed)
        rounds = [e.data for e in events if e.kind == "round-over"]
        expected_rounds = 1 if options.get("short_game") else options["players"]
        assert [r["pixoid_seat"] for r in rounds] == list(range(expected_rounds))
        assert kinds(events)[-1] == "game-over" and game.winners()
        if not options.get("short_game"):
            for seat in range(game.num_players):
                assert game.scores()[seat] == sum(r["points"][seat] for r in rounds)


@pytest.mark.parametrize("name", board_names())
def test_random_games_on_every_shipped_board(name: str) -> None:
    """Random legal play ends on every shipped board with the invariants holding throughout."""
    game = PixoidGame(PixoidOptions.with_board(name, players=4), seed=9)
    rng = random.Random(9)
    while not game.is_over():
        seat = rng.choice(game.current_players())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        game.check_invariants()
    assert len(game.round_points) == 4


def test_bot_choices_are_legal_and_reproducible() -> None:
    """A seed gives the same game; the bot only ever returns legal actions (checked path)."""
    first = PixoidGame(seed=5)
    play_out(first, PixoidBot(21), checked=True)
    second = PixoidGame(seed=5)
    play_out(second, PixoidBot(21), checked=True)
    assert first.history == second.history and first.dumps() == second.dumps()
    third = PixoidGame(seed=5)
    play_out(third, PixoidBot(22), checked=True)
    assert third.history != first.history


def test_bot_pixoid_never_walks_into_a_bug() -> None:
    """Pixoid flees: never along a path through a Bug, never to a Pix a Bug can reach this turn."""
    game = lanes_game()
    place(game)
    action = PixoidBot(1).choose(game, 0)
    assert isinstance(action, Program) and action.piece == 0
    # From a1, any path along row 1 up to i1 or down column a to a5 runs into a Bug; a2 holds a bonus.
    path_end = {"right": (0, action.distance), "down": (action.distance, 0)}[action.direction]
    assert path_end not in [(0, 8), (4, 0)]
    for seed in range(10):
        action = PixoidBot(seed).choose(game, 0)
        assert not (action.direction == "right" and action.distance >= 8)
        assert not (action.direction == "down" and action.distance >= 4)


def test_bot_pixoid_takes_a_bonus_cube_when_it_is_safe() -> None:
    """Pixoid "récupère ce cube" when its path can pass the bonus Pix and end out of the Bugs' reach."""
    game = lanes_game()
    place(game)
    quiet_turn(game)  # Pixoid b1; Bugs i2, a4, h5: none of them can reach c1 this turn
    for seed in range(5):
        action = PixoidBot(seed).choose(game, 0)
        assert action.direction == "right" and 1 <= action.distance <= 6, action


def test_bot_bugs_close_in() -> None:
    """Bugs chase: a Bug's program sweeps Pix Pixoid could flee to, or ends closer to it."""
    game = lanes_game()
    place(game)
    board = game.board
    for seat in (1, 2, 3):
        action = PixoidBot(seat).choose(game, seat)
        start = game.pos[seat]
        end = board.slides[start][("up", "right", "down", "left").index(action.direction)][: action.distance][-1]
        assert board.distances[end][game.pos[0]] < board.distances[start][game.pos[0]]


def test_bot_bugs_catch_pixoid_in_some_rounds() -> None:
    """Both roles can win between bots: over a dozen seeded games the Bugs catch Pixoid in some
    rounds and Pixoid escapes in others ("Un Bug est parvenu à attraper Pixoid" and "Pixoid
    récupère le 12e cube de la réserve" are both reachable outcomes)."""
    endings = {"captured": 0, "escaped": 0}
    for seed in range(12):
        for event in play_with_bots(new_game("pixoid", seed=seed), seed):
            if event.kind == "round-over":
                endings["captured" if event.data.get("reason") == "captured" else "escaped"] += 1
    assert endings["captured"] >= 5, endings
    assert endings["escaped"] >= 5, endings


def test_bot_fills_a_three_player_seat_with_two_bugs() -> None:
    """"Le joueur qui a deux manettes programme les déplacements de deux Bugs\": the bot answers for
    the next piece its seat still owes."""
    game = lanes_game(players=3)
    place(game)
    bot = PixoidBot(3)
    first = bot.choose(game, 1)
    game.apply(1, first)
    second = bot.choose(game, 1)
    assert {first.piece, second.piece} == {1, 3}


def test_events_carry_the_paths_to_animate_a_turn() -> None:
    """"Chaque joueur déplace son personnage selon sa programmation\": each "moved" event holds the
    whole path, Pix by Pix, from the start."""
    game = lanes_game()
    place(game)
    events = turn(game, {0: ("right", 3), 1: ("down", 2), 2: ("up", 1), 3: ("left", 9)})
    assert kinds(events) == ["locked"] * 4 + ["revealed", "moved", "bonus", "moved", "moved", "moved", "survived"]
    moved = [e.data for e in events if e.kind == "moved"]
    assert moved[0]["path"] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert moved[3]["path"][0] == (4, 8) and moved[3]["to"] == (4, 0) and moved[3]["stopped_by_wall"]
    assert moved[3]["path"] == [(4, 8 - k) for k in range(9)]
    for e in events:
        json.dumps(e.to_json())
        assert e.text


def test_render_shows_board_pieces_roles_reserve_and_scores() -> None:
    """The drawing names Pixoid, the reserve ("la réserve") and the scores, and is deterministic."""
    game = lanes_game()
    place(game)
    turn(game, {0: ("down", 1), 1: ("down", 1), 2: ("up", 1), 3: ("left", 1)})
    text = game.render()
    assert text == game.clone().render()
    lines = text.splitlines()
    assert lines[0] == "Pixoid (4 players), round 1 of 4, turn 2: secret programming"
    assert lines[1].split() == list("abcdefghi")
    assert lines[3] == " 1 |o . * . . . . . o|"
    assert lines[5] == " 2 |R . . . . . . .|b|", "Pixoid drawn by its colour's initial in capitals, a Bug in small letters"
    assert "  R: Pixoid, played by Red, on a2" in lines and "  y: the yellow Bug, played by Yellow, on h5" in lines
    assert "  reserve: 11/12; Pixoid's cubes: 1 from the reserve + 1 bonus" in lines
    assert "  locked in: nobody; still programming: Red, Blue, Green and Yellow" in lines
    assert "  scores: Red 0, Blue 0, Green 0 and Yellow 0" in lines
    colour = render_ansi(game)
    assert "\x1b[" in colour and colour.count("\n") == text.count("\n")


def test_actions_encode_and_decode_and_bad_data_is_refused() -> None:
    """Actions travel as JSON in saves; malformed ones are refused with a reason."""
    for action in (Place(1, (0, 8)), Program(2, "up", 9)):
        assert PixoidGame.decode_action(json.loads(json.dumps(PixoidGame.encode_action(action)))) == action
    assert Place(0, [1, 2]) == Place(0, (1, 2))
    for bad in ({"type": "jump"}, {"type": "program", "piece": 0, "direction": "up"}, [1, 2],
                {"type": "place", "piece": 0, "pix": "a1"}, {"type": "program", "piece": 0, "direction": 3, "distance": 1}):
        with pytest.raises(ValueError):
            PixoidGame.decode_action(bad)


def test_registered_and_playable_through_the_registry() -> None:
    """The engine is found by name and plays to the end with random bots."""
    game = new_game("pixoid", {"players": 3}, seed=2)
    play_out(game, RandomBot(2))
    assert game.is_over() and len(game.scores()) == 3
