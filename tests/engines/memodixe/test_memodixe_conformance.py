"""The shared conformance suite, run on MémoDiXe ("Chacun pour soi" by default, and "Oni contre
tous" through a registered twin whose default options are that mode)."""

from __future__ import annotations

import dataclasses

import pytest

import controller.engines as engines
import test_conformance as suite
from controller.engines.memodixe import MemodixeGame, MemodixeOptions


@dataclasses.dataclass(frozen=True)
class OniOptions(MemodixeOptions):
    mode: str = "oni-contre-tous"
    players: int = 5
    oni_seat: int = 1


class OniDefault(MemodixeGame):
    """MémoDiXe whose default options are "Oni contre tous" for 5 (for the suite, which builds games
    with default options)."""

    NAME = "memodixe-oni-test"
    OPTIONS = OniOptions


@pytest.fixture(params=["memodixe", "memodixe-oni-test"])
def name(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    engines.game_names()
    monkeypatch.setitem(engines._GAMES, OniDefault.NAME, OniDefault)
    return request.param


def test_random_playout_keeps_invariants(name: str) -> None:
    suite.test_random_playout_keeps_invariants(name=name)


def test_save_and_replay_round_trip(name: str) -> None:
    suite.test_save_and_replay_round_trip(name=name)


def test_clone_is_equal_and_independent(name: str) -> None:
    suite.test_clone_is_equal_and_independent(name=name)


def test_checked_and_unchecked_paths_agree(name: str) -> None:
    suite.test_checked_and_unchecked_paths_agree(name=name)


def test_views_hide_pending_secret_moves(name: str) -> None:
    suite.test_views_hide_pending_secret_moves(name=name)


def test_refused_actions_raise_value_errors_and_change_nothing(name: str) -> None:
    suite.test_refused_actions_raise_value_errors_and_change_nothing(name=name)


def test_a_seat_acting_out_of_turn_is_refused_under_the_name_it_plays_by(name: str) -> None:
    suite.test_a_seat_acting_out_of_turn_is_refused_under_the_name_it_plays_by(name)


def test_damaged_and_foreign_saves_are_refused(name: str) -> None:
    suite.test_damaged_and_foreign_saves_are_refused(name)
