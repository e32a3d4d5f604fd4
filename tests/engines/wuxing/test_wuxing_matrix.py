"""The zero-sum matrix game solver behind the chemin's equilibrium bot."""

from __future__ import annotations

import random

import pytest

from controller.engines.wuxing.matrix import conceded, guaranteed, solve_matrix_game


def test_rock_paper_scissors_is_uniform_with_value_zero() -> None:
    value, rows, columns = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert value == pytest.approx(0.0, abs=1e-12)
    assert rows == pytest.approx([1 / 3] * 3) and columns == pytest.approx([1 / 3] * 3)


def test_a_two_by_two_game_without_saddle_point() -> None:
    # rows: 3p + 2(1-p) = p + 4(1-p) -> p = 1/2, value 5/2; columns: 3q + (1-q) = 2q + 4(1-q) -> q = 3/4
    value, rows, columns = solve_matrix_game([[3, 1], [2, 4]])
    assert value == pytest.approx(2.5)
    assert rows == pytest.approx([0.5, 0.5]) and columns == pytest.approx([0.75, 0.25])


def test_a_saddle_point_is_a_pure_strategy() -> None:
    value, rows, columns = solve_matrix_game([[1, 2], [0, -1]])
    assert value == pytest.approx(1.0)
    assert rows == pytest.approx([1.0, 0.0]) and columns == pytest.approx([1.0, 0.0])


def test_each_strategy_guarantees_the_value_on_random_games() -> None:
    rng = random.Random(7)
    for _ in range(500):
        m, n = rng.randint(1, 5), rng.randint(1, 5)
        payoff = [[rng.choice([0.0, 0.5, 1.0, rng.random()]) for _ in range(n)] for _ in range(m)]
        value, rows, columns = solve_matrix_game(payoff)
        assert sum(rows) == pytest.approx(1.0) and sum(columns) == pytest.approx(1.0)
        assert min(rows) >= 0 and min(columns) >= 0
        assert guaranteed(payoff, rows) == pytest.approx(value, abs=1e-9)
        assert conceded(payoff, columns) == pytest.approx(value, abs=1e-9)


def test_an_empty_or_ragged_table_is_refused() -> None:
    with pytest.raises(ValueError, match="rectangular"):
        solve_matrix_game([[1, 2], [3]])
    with pytest.raises(ValueError):
        solve_matrix_game([])
