"""The conformance suite every registered game's engine must pass.

Random playouts driven by Hypothesis, with the game's invariants checked after every step; save
and replay round trips; clones equal and independent; views that hide pending secret moves; the
checked and unchecked paths agreeing; damaged saves refused with a clear error.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.engines import (
    Game,
    GameOverError,
    NotYourTurnError,
    RuleError,
    SaveFileError,
    game_class,
    load_game,
)
from controller.games import games as registered_games

#: Every registered game, through the game registry: a game added there is covered here with no edit.
GAMES = [spec.name for spec in registered_games()]
for _spec in registered_games():
    _spec.load_engine()   # importing an engine registers it with controller.engines
MAX_STEPS = 300


def _random_steps(game: Game, rng: random.Random, steps: int, check_each: bool = True) -> None:
    for _ in range(steps):
        if game.is_over():
            return
        players = game.current_players()
        assert players, "a game that is not over must expect someone to act"
        player = rng.choice(players)
        actions = game.legal_actions(player)
        assert actions, f"player {player} is expected to act but has no legal action"
        game.apply(player, rng.choice(actions))
        if check_each:
            game.check_invariants()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), policy=st.integers(0, 2**31 - 1))
def test_random_playout_keeps_invariants(name: str, seed: int, policy: int) -> None:
    game = game_class(name)(seed=seed)
    rng = random.Random(policy)
    for _ in range(MAX_STEPS):
        if game.is_over():
            assert game.current_players() == ()
            assert len(game.scores()) == game.num_players
            assert game.winners(), "a finished game has at least one winner"
            break
        game.check_invariants()
        for player in game.current_players():
            json.dumps(game.view(player))
        json.dumps(game.view(None))
        json.dumps(game.state_dict())
        _random_steps(game, rng, 1)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), policy=st.integers(0, 2**31 - 1), steps=st.integers(0, 120))
def test_save_and_replay_round_trip(name: str, seed: int, policy: int, steps: int) -> None:
    game = game_class(name)(seed=seed)
    _random_steps(game, random.Random(policy), steps, check_each=False)
    text = game.dumps()
    again = load_game(text)
    assert again == game
    assert again.dumps() == text
    assert again.render() == game.render()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), policy=st.integers(0, 2**31 - 1), steps=st.integers(0, 80))
def test_clone_is_equal_and_independent(name: str, seed: int, policy: int, steps: int) -> None:
    game = game_class(name)(seed=seed)
    rng = random.Random(policy)
    _random_steps(game, rng, steps, check_each=False)
    twin = game.clone()
    assert twin == game
    before = game.state_dict()
    _random_steps(twin, rng, 5, check_each=False)
    assert game.state_dict() == before, "changing a clone changed the original"


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), policy=st.integers(0, 2**31 - 1), steps=st.integers(0, 80))
def test_checked_and_unchecked_paths_agree(name: str, seed: int, policy: int, steps: int) -> None:
    checked = game_class(name)(seed=seed)
    fast = game_class(name)(seed=seed)
    rng = random.Random(policy)
    for _ in range(steps):
        if checked.is_over():
            break
        player = rng.choice(checked.current_players())
        action = rng.choice(checked.legal_actions(player))
        events_checked = checked.apply(player, action)
        events_fast = fast.apply_unchecked(player, action)
        assert events_checked == events_fast
        assert checked.state_dict() == fast.state_dict()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), policy=st.integers(0, 2**31 - 1), steps=st.integers(0, 80))
def test_views_hide_pending_secret_moves(name: str, seed: int, policy: int, steps: int) -> None:
    """Whatever a player secretly submitted, no other seat (nor a spectator) can tell which."""
    game = game_class(name)(seed=seed)
    rng = random.Random(policy)
    _random_steps(game, rng, steps, check_each=False)
    if game.is_over() or len(game.current_players()) < 2:
        return
    player = game.current_players()[0]
    actions = game.legal_actions(player)
    outcomes = []
    for action in actions[:6]:
        branch = game.clone()
        branch.apply(player, action)
        if not branch.secret_pending(player):
            return
        outcomes.append(branch)
    observers = [p for p in range(game.num_players) if p != player] + [None]
    for observer in observers:
        views = {json.dumps(b.view(observer), sort_keys=True) for b in outcomes}
        assert len(views) == 1, f"observer {observer} can tell player {player}'s secret move apart"


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), policy=st.integers(0, 2**31 - 1), steps=st.integers(0, 60))
def test_refused_actions_raise_value_errors_and_change_nothing(name: str, seed: int, policy: int, steps: int) -> None:
    game = game_class(name)(seed=seed)
    _random_steps(game, random.Random(policy), steps, check_each=False)
    before = game.dumps()
    if game.is_over():
        with pytest.raises(GameOverError):
            game.apply(0, None)
        return
    waiting = set(game.current_players())
    idle = [p for p in range(game.num_players) if p not in waiting]
    if idle:
        with pytest.raises(NotYourTurnError) as info:
            game.apply(idle[0], game.legal_actions(next(iter(waiting)))[0])
        assert isinstance(info.value, ValueError) and info.value.rule
    with pytest.raises(RuleError) as info:
        game.apply(next(iter(waiting)), object())
    assert isinstance(info.value, ValueError)
    assert game.dumps() == before


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_acting_out_of_turn_is_refused_under_the_name_it_plays_by(name: str) -> None:
    """The refusal names the seat that acted and the seats awaited as every other text of the game
    does: by number without names, by name once the seats are named."""
    game = game_class(name)(seed=5)
    rng = random.Random(5)
    idle: list[int] = []
    for _ in range(MAX_STEPS):
        waiting = game.current_players()
        idle = [p for p in range(game.num_players) if p not in waiting]
        if idle and all(0 <= p < game.num_players for p in waiting):
            break
        _random_steps(game, rng, 1, check_each=False)
    assert idle, f"{name}: no state with a seat out of turn within {MAX_STEPS} steps"
    action = game.legal_actions(waiting[0])[0]
    with pytest.raises(NotYourTurnError) as plain:
        game.apply(idle[0], action)
    if plain.value.words is not None:
        # Said in the players' words: the seats are named as the game's seat_label names them.
        _assert_names_the_seats(game, plain.value.reason, idle[0], waiting)
    else:
        numbers = ", ".join(str(p) for p in waiting)
        assert plain.value.reason == f"{game.SEAT_WORD} {idle[0]} is not expected to act now (waiting for: {numbers})"
    names = ["Ada", "Brice", "Chloé", "Driss", "Emma", "Farid"][:game.num_players]
    game.name_seats(names)
    with pytest.raises(NotYourTurnError) as named:
        game.apply(idle[0], action)
    if named.value.words is not None:
        _assert_names_the_seats(game, named.value.reason, idle[0], waiting)
        assert names[idle[0]] in named.value.reason and all(names[p] in named.value.reason for p in waiting)
    else:
        awaited = ", ".join(names[p] for p in waiting)
        assert named.value.reason == f"{names[idle[0]]} is not expected to act now (waiting for: {awaited})"


def _assert_names_the_seats(game: Game, reason: str, idle: int, waiting: tuple[int, ...]) -> None:
    assert reason.startswith(f"{game.seat_label(idle)} is not expected to act now"), reason
    assert all(game.seat_label(p) in reason.split("waiting for", 1)[1] for p in waiting), reason


@pytest.mark.parametrize("name", GAMES)
def test_damaged_and_foreign_saves_are_refused(name: str) -> None:
    game = game_class(name)(seed=3)
    rng = random.Random(3)
    _random_steps(game, rng, 10, check_each=False)
    text = game.dumps()
    with pytest.raises(SaveFileError, match="not valid JSON"):
        load_game(text[: len(text) // 2])
    with pytest.raises(SaveFileError, match="not a bitbox game save"):
        load_game(json.dumps({"some": "thing"}))
    data = json.loads(text)
    data["game"] = "no-such-game"
    with pytest.raises(SaveFileError, match="no game named"):
        load_game(data)
    data = json.loads(text)
    if data["actions"]:
        data["actions"].append(data["actions"][0])
        with pytest.raises(SaveFileError, match=r"action #\d+"):
            load_game(data)
    data = json.loads(text)
    data["options"] = {"no_such_option": 1}
    with pytest.raises(SaveFileError, match="unknown option"):
        load_game(data)
    data["options"] = "players=2"
    with pytest.raises(SaveFileError, match="must be a mapping of option names to values"):
        load_game(data)
