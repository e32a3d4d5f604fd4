"""Results and standings: a game's places and scores read through the registry for every game,
pairwise points, the tie-breaks and shared places."""

from __future__ import annotations

import pytest

from controller.engines import RandomBot, play_out
from controller.games import games
from controller.tournament.results import GameResult, ResultError, read_result, result_of
from controller.tournament.standings import PlayedGame, standings


@pytest.mark.parametrize("spec", games(), ids=lambda spec: spec.name)
def test_every_registered_game_has_its_result_read_through_the_registry(spec) -> None:
    engine = spec.load_engine()
    seats = spec.players[0]
    game = engine(spec.options_from({}, seats if spec.players_option else None, {}), seed=3)
    bot = spec.load_bot() or RandomBot
    try:
        play_out(game, {p: bot(p + 7) for p in range(-1, game.num_players)}, max_actions=20_000)
    except RuntimeError:
        pytest.skip(f"{spec.name} does not end by random play within the limit")
    result = result_of(spec, game)
    assert result.seats == game.num_players
    assert set(result.winners) == set(game.winners())
    assert sum(result.points()) == pytest.approx(game.num_players / 2)
    by_score = sorted(range(game.num_players), key=lambda s: -game.scores()[s])
    losers = [s for s in by_score if s not in result.winners]
    assert [result.ranks[s] for s in losers] == sorted(result.ranks[s] for s in losers)


def test_a_game_not_over_has_no_result() -> None:
    spec = games()[0]
    with pytest.raises(ResultError, match="not over"):
        read_result(spec.load_engine()(spec.options_from({}, None, {}), seed=1))


def test_pairwise_points_and_shared_places() -> None:
    assert GameResult.from_scores([5, 3]).points() == (1.0, 0.0)
    assert GameResult.from_scores([2, 2]).points() == (0.5, 0.5)
    four = GameResult.from_scores([9, 7, 7, 1])
    assert four.ranks == (1, 2, 2, 4)
    assert four.points() == pytest.approx((1.0, 0.5, 0.5, 0.0))
    with pytest.raises(ResultError, match="winners"):
        GameResult((1, 2), (1.0, 0.0), (1,))


def test_standings_rank_by_points_then_the_tie_breaks_and_share_a_place_only_when_all_are_equal() -> None:
    names = {1: "Ada", 2: "Brice", 3: "Chloé", 4: "Dinesh"}
    games_played = [
        PlayedGame(1, (1, 2), GameResult.from_scores([3, 1])),
        PlayedGame(1, (3, 4), GameResult.from_scores([2, 0])),
        PlayedGame(2, (1, 3), GameResult.from_scores([1, 4])),
        PlayedGame(2, (2, 4), GameResult.from_scores([2, 2])),
    ]
    rows = standings(names, games_played, [], ["buchholz", "sonneborn_berger", "score"])
    table = {row.name: row for row in rows}
    # Brice and Dinesh have half a point each; Dinesh met the stronger opponents (Buchholz 2.5 to 1.5).
    assert [row.name for row in rows] == ["Chloé", "Ada", "Dinesh", "Brice"]
    assert table["Ada"].points == 1.0 and table["Ada"].tiebreaks["buchholz"] == 2.5
    assert table["Chloé"].tiebreaks["sonneborn_berger"] == pytest.approx(0.5 + 1.0)
    assert table["Dinesh"].tiebreaks["buchholz"] == 2.5 and table["Brice"].tiebreaks["buchholz"] == 1.5
    assert table["Dinesh"].place == 3 and table["Brice"].place == 4
    even = standings({1: "A", 2: "B"}, [PlayedGame(1, (1, 2), GameResult.from_scores([1, 1]))], [], ["buchholz"])
    assert [row.place for row in even] == [1, 1]
    with_bye = standings({1: "A", 2: "B", 3: "C"}, [PlayedGame(1, (1, 2), GameResult.from_scores([1, 0]))],
                         [(1, 3)], ["wins"])
    assert [(row.name, row.points) for row in with_bye][:2] == [("A", 1.0), ("C", 1.0)]
