"""The fast path (``Game.apply_fast``: unchecked, no events) and the cheap ``clone()`` reach exactly
the states the checked path reaches.

Every registered game is played twice in lockstep from the same seed, by the same seeded random
policy: once through the checked ``apply``, once through ``apply_fast``. After every action the two
must agree on ``state_dict()``, ``scores()``, ``history``, who acts next and the legal actions;
at the end on the winners, the render and the save. Hypothesis picks seeds and policies; a fixed
sweep of seeds covers every variant. The last tests break the fast path on purpose and check that
the comparison notices, so a green run means something.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from controller.engines import Game, RandomBot, game_class, game_names, new_game, play_out
from controller.engines.pixoid import PixoidGame
from controller.engines.pixoid.board import board_names, load_board

MAX_STEPS = 400
#: Seeds do not get simpler by shrinking, and a failing whole game is slow to shrink: report the
#: first failing example as it is.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)

#: Options worth playing for each game: the golden scenarios' and the variants the rules branch on.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "pixoid": [
        {"players": 4},
        {"players": 3},
        {"players": 4, "short_game": True},
        {"players": 3, "short_game": True},
        *({"board": load_board(name).text} for name in board_names() if name != "classic"),
    ],
    "puxes": [
        {},
        {"players": 3},
        {"players": 4, "mode": "blitz"},
        {"players": 4, "mode": "coop"},
        {"players": 4, "mode": "solo"},
        {"fortress": True, "cliff": True, "temple_lives": 2},
        {"toddlers": True},
        {"powers_enabled": False},
        {"temples_per_player": 2},
        {"powers": [["Crâne Yorick", "furtif"], ["Mr Blaireau", "coup_de_bol"], ["Arkan Sonney", "immunite"],
                    ["Hanuman", "quarante_neuf_trois"]]},
        {"decks": ["legends", "starter"], "powers": [["Kâla", "imitation"]]},
    ],
    "memodixe": [{}, {"players": 4}, {"mode": "oni-contre-tous", "players": 5}],
    "wuxing": [{"mode": "chemin"}, {"mode": "chemin", "no_discard": True, "no_yin_yang": True},
               {"mode": "theatre"}, {"mode": "theatre", "blue_only": True}],
}
#: How many seeds the sweep plays per variant (a PuXes game is the slower to compare).
SWEEP = {"pixoid": 25, "puxes": 8, "praxis": 4, "wuxing": 10, "memodixe": 6}
#: Every registered game is played: with the variants above, or its default options.
GAMES = game_names()
CASES = [(name, options) for name in GAMES for options in VARIANTS.get(name, [{}])]
CASE_IDS = [f"{name}-{i}" for i, (name, _) in enumerate(CASES)]


def _text(data: Any) -> str:
    return json.dumps(data, sort_keys=True, default=repr)


def assert_same(checked: Game, fast: Game, where: str) -> None:
    """Everything the two games show agrees."""
    assert _text(fast.state_dict()) == _text(checked.state_dict()), f"state_dict differs {where}"
    assert fast.scores() == checked.scores(), f"scores differ {where}"
    assert fast.history == checked.history, f"history differs {where}"
    assert fast.is_over() == checked.is_over(), f"is_over differs {where}"
    assert fast.current_players() == checked.current_players(), f"current players differ {where}"
    for player in checked.current_players():
        assert fast.legal_actions(player) == checked.legal_actions(player), f"legal actions differ {where}"


def play_in_lockstep(name: str, options: dict[str, Any], seed: int, policy: int, names: bool = False,
                     every: int = 1) -> tuple[Game, Game]:
    """Play one game through ``apply`` and one through ``apply_fast``, comparing after every
    ``every``-th action and at the end."""
    checked = new_game(name, options, seed)
    fast = new_game(name, options, seed)
    if names:
        seats = ["Ada", "Brice", "Chloé", "Driss"][: checked.num_players]
        checked.name_seats(seats)
        fast.name_seats(seats)
    rng = random.Random(policy)
    for step in range(MAX_STEPS):
        if step % every == 0:
            assert_same(checked, fast, f"before action {step} of {name} {options} seed {seed} policy {policy}")
        if checked.is_over():
            break
        player = rng.choice(checked.current_players())
        actions = checked.legal_actions(player)
        action = actions[rng.randrange(len(actions))]
        checked.apply(player, action)
        assert fast.apply_fast(player, action) is None
    assert_same(checked, fast, f"at the end of {name} {options} seed {seed} policy {policy}")
    assert fast.winners() == checked.winners()
    assert fast.render() == checked.render()
    assert fast.dumps() == checked.dumps()
    assert fast == checked
    for player in [*range(checked.num_players), None]:
        assert _text(fast.view(player)) == _text(checked.view(player))
    return checked, fast


@pytest.mark.parametrize("name,options", CASES, ids=CASE_IDS)
@settings(max_examples=4, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), policy=st.integers(0, 2**31 - 1), names=st.booleans())
def test_fast_path_reaches_the_checked_states(name: str, options: dict, seed: int, policy: int, names: bool) -> None:
    play_in_lockstep(name, options, seed, policy, names)


@pytest.mark.parametrize("name", GAMES)
def test_fast_path_over_a_sweep_of_seeds(name: str) -> None:
    """The first seeds of every variant, compared every 7 actions and at the end."""
    for options in VARIANTS.get(name, [{}]):
        for seed in range(SWEEP.get(name, 10)):
            play_in_lockstep(name, options, seed, seed + 1000, every=7)


@pytest.mark.parametrize("name", GAMES)
def test_play_out_takes_the_fast_path_and_ends_where_the_checked_path_does(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = game_class(name)
    for seed in range(5):
        checked = play_out(cls(seed=seed), RandomBot(seed), checked=True)
        calls = []
        original = cls.apply_fast

        def counting(self: Game, player: int, action: Any) -> None:
            calls.append(action)
            original(self, player, action)

        monkeypatch.setattr(cls, "apply_fast", counting)
        fast = play_out(cls(seed=seed), RandomBot(seed))
        monkeypatch.undo()
        assert len(calls) == len(checked.history)
        assert fast == checked and fast.scores() == checked.scores() and fast.dumps() == checked.dumps()


# ---- clones --------------------------------------------------------------------------------


@pytest.mark.parametrize("name,options", CASES, ids=CASE_IDS)
@settings(max_examples=4, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), policy=st.integers(0, 2**31 - 1), steps=st.integers(0, 120),
       fast_first=st.booleans())
def test_clone_equals_a_deep_copy_and_plays_on_alike(name: str, options: dict, seed: int, policy: int, steps: int,
                                                     fast_first: bool) -> None:
    check_clone(name, options, seed, policy, steps, fast_first)


def check_clone(name: str, options: dict, seed: int, policy: int, steps: int, fast_first: bool) -> None:
    """The cheap clone is what ``copy.deepcopy`` gave: equal, with the same generator state, and
    both go on alike; playing either never touches the original."""
    game = new_game(name, options, seed)
    rng = random.Random(policy)
    for _ in range(steps):
        if game.is_over():
            break
        player = rng.choice(game.current_players())
        action = rng.choice(game.legal_actions(player))
        (game.apply_fast if fast_first else game.apply)(player, action)
    before = _text(game.state_dict())
    history = list(game.history)
    twin = game.clone()
    deep = copy.deepcopy(game)
    assert twin == game == deep
    assert twin.rng.getstate() == game.rng.getstate() and twin.rng is not game.rng
    assert twin.seat_names == game.seat_names
    for _ in range(30):
        if twin.is_over():
            break
        player = rng.choice(twin.current_players())
        action = rng.choice(twin.legal_actions(player))
        twin.apply_fast(player, action)
        deep.apply(player, action)
        assert_same(deep, twin, "after the clone played on")
    assert twin.rng.random() == deep.rng.random()
    assert _text(game.state_dict()) == before and game.history == history, "playing the clone changed the original"
    # and the other way round: the original plays on, the clone stays as it was
    again = game.clone()
    kept = _text(again.state_dict())
    for _ in range(10):
        if game.is_over():
            break
        player = rng.choice(game.current_players())
        game.apply_fast(player, rng.choice(game.legal_actions(player)))
    assert _text(again.state_dict()) == kept, "playing the original changed its clone"


def test_pixoid_last_turn_is_built_from_the_fast_path_record_when_asked() -> None:
    """The fast path keeps the last turn as a record; the dict it gives is the checked path's, and
    a clone's is its own."""
    checked, fast = play_in_lockstep("pixoid", {"players": 4}, 3, 3, every=1000)
    assert fast._last_turn_record is not None
    assert fast.last_turn == checked.last_turn and fast.last_turn is not None
    twin = fast.clone()
    assert twin.last_turn == fast.last_turn and twin.last_turn is not fast.last_turn


# ---- the comparison can fail ---------------------------------------------------------------


def test_the_comparison_notices_a_fast_path_that_drifts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fast path that forgets one rule (here: Pixoid's bonus cubes) is caught."""
    original = PixoidGame._resolve

    def forgetful(self: PixoidGame, emit: bool = True) -> Any:
        bonus = list(self.bonus_cubes)
        taken = self.bonus_taken
        result = original(self, emit)
        if not emit and self.bonus_taken != taken:
            self.bonus_cubes[:] = bonus  # put the cube back: the fast path "forgot" to take it
        return result

    monkeypatch.setattr(PixoidGame, "_resolve", forgetful)
    with pytest.raises(AssertionError):
        for seed in range(40):
            play_in_lockstep("pixoid", {"players": 4}, seed, seed)


def test_the_comparison_notices_a_clone_that_shares_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clone that forgets to copy one list (the pieces' Pix) is caught."""
    original = PixoidGame.clone

    def shallow(self: PixoidGame) -> PixoidGame:
        twin = original(self)
        twin.pos = self.pos
        return twin

    monkeypatch.setattr(PixoidGame, "clone", shallow)
    with pytest.raises(AssertionError):
        check_clone("pixoid", {"players": 4}, seed=1, policy=1, steps=10, fast_first=True)
