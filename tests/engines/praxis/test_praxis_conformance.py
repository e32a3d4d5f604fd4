"""The shared conformance and fast-path suites, run on Praxis.

The conformance suite (tests/engines/test_conformance.py) takes its games from the game registry
(controller/games), which Praxis joins with its service work; until then these tests run the
same checks on the engine by name, reusing the suite's own test functions.
"""

from __future__ import annotations

import pytest

import test_conformance as conformance
import test_fast_path as fast_path

NAME = "praxis"
VARIANTS = [
    {"players": 2},
    {"players": 3, "layout": "ring"},
    {"players": 4, "layout": "spiral"},
    {"players": 2, "layout": "offset"},
    {"players": 3, "layout": [[0, 0, 0], [0, 3, 0], [2, 0, 0], [2, 3, 0], [4, 0, 0], [4, 3, 0]]},
]


def test_random_playout_keeps_invariants() -> None:
    conformance.test_random_playout_keeps_invariants(name=NAME)


def test_save_and_replay_round_trip() -> None:
    conformance.test_save_and_replay_round_trip(name=NAME)


def test_clone_is_equal_and_independent() -> None:
    conformance.test_clone_is_equal_and_independent(name=NAME)


def test_checked_and_unchecked_paths_agree() -> None:
    conformance.test_checked_and_unchecked_paths_agree(name=NAME)


def test_views_hide_pending_secret_moves() -> None:
    conformance.test_views_hide_pending_secret_moves(name=NAME)


def test_refused_actions_raise_value_errors_and_change_nothing() -> None:
    conformance.test_refused_actions_raise_value_errors_and_change_nothing(name=NAME)


def test_a_seat_acting_out_of_turn_is_refused_under_the_name_it_plays_by() -> None:
    conformance.test_a_seat_acting_out_of_turn_is_refused_under_the_name_it_plays_by(NAME)


def test_damaged_and_foreign_saves_are_refused() -> None:
    conformance.test_damaged_and_foreign_saves_are_refused(NAME)


@pytest.mark.parametrize("options", VARIANTS, ids=[f"variant-{i}" for i in range(len(VARIANTS))])
def test_fast_path_reaches_the_checked_states(options: dict) -> None:
    for seed in range(6):
        fast_path.play_in_lockstep(NAME, options, seed, seed + 1000, names=seed % 2 == 1, every=3)


@pytest.mark.parametrize("options", VARIANTS[:3], ids=[f"variant-{i}" for i in range(3)])
def test_clone_equals_a_deep_copy_and_plays_on_alike(options: dict) -> None:
    for seed, steps in ((1, 0), (2, 15), (3, 60), (4, 150)):
        fast_path.check_clone(NAME, options, seed, seed, steps, fast_first=seed % 2 == 0)


def test_play_out_takes_the_fast_path_and_ends_where_the_checked_path_does(monkeypatch: pytest.MonkeyPatch) -> None:
    fast_path.test_play_out_takes_the_fast_path_and_ends_where_the_checked_path_does(NAME, monkeypatch)
