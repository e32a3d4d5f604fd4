"""Pairing: table sizes and byes, Swiss without rematches while a pairing without one exists,
round-robin where everyone meets everyone once, single elimination seeded best against lowest."""

from __future__ import annotations

import itertools

import pytest

from controller.tournament.pairing import (PairingError, elimination, elimination_rounds, round_robin,
                                           round_robin_rounds, swiss, table_sizes)


@pytest.mark.parametrize("count, most, fewest, sizes, byes", [
    (8, 2, 2, [2, 2, 2, 2], 0), (7, 2, 2, [2, 2, 2], 1), (10, 4, 3, [4, 3, 3], 0), (5, 4, 4, [4], 1),
    (9, 3, 2, [3, 3, 3], 0), (1, 2, 2, [], 1), (11, 4, 2, [4, 4, 3], 0)])
def test_tables_are_as_full_as_the_count_allows_and_byes_only_for_whoever_no_table_seats(
        count: int, most: int, fewest: int, sizes: list[int], byes: int) -> None:
    assert table_sizes(count, most, fewest) == (sizes, byes)


def test_swiss_pairs_from_the_top_and_avoids_a_rematch_the_greedy_way_would_make() -> None:
    # 1-2 and 3-4 met; top-down greedy would pair 1-3 then be left with 2-4 (fine), but with 2-4
    # also met it must find 1-4, 2-3.
    met = {1: {2}, 2: {1, 4}, 3: {4}, 4: {3, 2}}
    assert swiss([1, 2, 3, 4], met, set(), 2, 2).tables == ((1, 4), (2, 3))


def test_swiss_finds_a_pairing_without_rematches_whenever_one_exists() -> None:
    players = list(range(1, 9))
    met: dict[int, set[int]] = {p: set() for p in players}
    for _round in range(5):
        pairing = swiss(players, met, set(), 2, 2)
        for a, b in pairing.tables:
            assert b not in met[a], f"a rematch {a}-{b} although one could be avoided"
            met[a].add(b)
            met[b].add(a)
        players = players[1:] + players[:1]


def test_swiss_settles_for_the_fewest_rematches_when_none_can_be_avoided() -> None:
    met = {1: {2, 3}, 2: {1, 3}, 3: {1, 2}, 4: set()}
    tables = swiss([1, 2, 3, 4], met, set(), 2, 2).tables
    assert sorted(sorted(t) for t in tables) in ([[1, 2], [3, 4]], [[1, 3], [2, 4]], [[1, 4], [2, 3]])
    assert sum(1 for a, b in tables if b in met[a]) == 1


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    pairing = swiss([1, 2, 3, 4, 5], {}, {5}, 2, 2)
    assert pairing.byes == (4,) and sorted(p for t in pairing.tables for p in t) == [1, 2, 3, 5]


def test_swiss_seats_several_players_a_table_and_keeps_them_apart_from_whom_they_met() -> None:
    met = {1: {2, 3}, 2: {1, 3}, 3: {1, 2}}
    pairing = swiss(list(range(1, 11)), met, set(), 4, 3)
    assert [len(t) for t in pairing.tables] == [4, 3, 3] and not pairing.byes
    for table in pairing.tables:
        assert not any(b in met.get(a, ()) for a, b in itertools.combinations(table, 2))


@pytest.mark.parametrize("count", [2, 5, 6, 9])
def test_a_round_robin_has_everyone_meet_everyone_once(count: int) -> None:
    players = list(range(10, 10 + count))
    seen, byes = [], []
    for number in range(1, round_robin_rounds(count) + 1):
        pairing = round_robin(players, number)
        seen += [frozenset(t) for t in pairing.tables]
        byes += pairing.byes
        assert sorted([p for t in pairing.tables for p in t] + list(pairing.byes)) == players
    assert sorted(map(sorted, seen)) == sorted(map(sorted, map(frozenset, itertools.combinations(players, 2))))
    assert sorted(byes) == (players if count % 2 else [])
    with pytest.raises(PairingError, match="has"):
        round_robin(players, round_robin_rounds(count) + 1)


def test_single_elimination_seeds_the_best_against_the_lowest_and_gives_them_the_byes() -> None:
    assert elimination(list(range(1, 9)), 2, 2).tables == ((1, 8), (2, 7), (3, 6), (4, 5))
    six = elimination(list(range(1, 7)), 2, 2)
    assert six.byes == () and len(six.tables) == 3
    five = elimination(list(range(1, 6)), 2, 2)
    assert five.byes == (1,) and five.tables == ((2, 5), (3, 4))
    assert elimination_rounds(8, 2, 2) == 3 and elimination_rounds(5, 2, 2) == 3 and elimination_rounds(16, 4, 4) == 2
