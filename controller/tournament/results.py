"""How a finished game is read for a tournament: each seat's place, score and tournament points.

A game declares how its result is read in the registry (:attr:`GameSpec.result
<controller.games.spec.GameSpec.result>`); the default, :func:`read_result`, reads the engine's
``winners()`` and ``scores()``: the winners share first place, the others are placed by score.
Tournament points are pairwise: a seat earns one point for each seat it finished ahead of and half
for each it tied with, divided by the number of other seats, so a two-player game gives the usual
1, ½ or 0 and a four-player game 1, ⅔, ⅓ and 0.

    >>> GameResult(ranks=(2, 1), scores=(3.0, 5.0), winners=(1,)).points()
    (0.0, 1.0)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from controller.games import GameSpec


class ResultError(ValueError):
    """A result that cannot be one: wrong lengths, places out of range, numbers that are not finite."""


@dataclasses.dataclass(frozen=True)
class GameResult:
    """One finished game's outcome, seat by seat (seat order is the pairing's order)."""

    #: Each seat's place, 1 for the best; seats that tie share the place.
    ranks: tuple[int, ...]
    #: Each seat's score in the game's own terms.
    scores: tuple[float, ...]
    #: The seats that won (first place).
    winners: tuple[int, ...]

    def __post_init__(self) -> None:
        seats = len(self.ranks)
        if seats < 1 or len(self.scores) != seats:
            raise ResultError(f"a result gives one place and one score per seat, not {self.ranks} and {self.scores}")
        if any(type(r) is not int or not 1 <= r <= seats for r in self.ranks):
            raise ResultError(f"places are whole numbers from 1 to {seats}, not {list(self.ranks)}")
        if any(not isinstance(s, (int, float)) or isinstance(s, bool) or not math.isfinite(s) for s in self.scores):
            raise ResultError(f"scores are finite numbers, not {list(self.scores)}")
        if any(type(w) is not int or not 0 <= w < seats for w in self.winners):
            raise ResultError(f"winners are seats from 0 to {seats - 1}, not {list(self.winners)}")
        if set(self.winners) != {seat for seat, rank in enumerate(self.ranks) if rank == 1}:
            raise ResultError(f"the winners {list(self.winners)} are not the seats placed first {list(self.ranks)}")

    @property
    def seats(self) -> int:
        return len(self.ranks)

    def points(self) -> tuple[float, ...]:
        """Each seat's tournament points, 0 to 1 (see the module's docstring)."""
        if self.seats == 1:
            return (1.0,)
        out = []
        for seat, rank in enumerate(self.ranks):
            ahead = sum(1 for other, r in enumerate(self.ranks) if other != seat and rank < r)
            tied = sum(1 for other, r in enumerate(self.ranks) if other != seat and rank == r)
            out.append((ahead + 0.5 * tied) / (self.seats - 1))
        return tuple(out)

    def against(self, seat: int, other: int) -> float:
        """What ``seat`` scored against ``other`` at this table: 1 ahead, ½ tied, 0 behind."""
        mine, theirs = self.ranks[seat], self.ranks[other]
        return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"ranks": list(self.ranks), "scores": list(self.scores), "winners": list(self.winners)}

    @classmethod
    def from_json(cls, data: Any) -> GameResult:
        """A result from its JSON form; :class:`ResultError` saying what is wrong otherwise."""
        if not isinstance(data, Mapping) or not {"ranks", "scores", "winners"} <= set(data):
            raise ResultError('a result is an object {"ranks": [...], "scores": [...], "winners": [...]}')
        for key in ("ranks", "scores", "winners"):
            if not isinstance(data[key], list):
                raise ResultError(f'a result\'s "{key}" is a list, not {data[key]!r}')
        return cls(tuple(data["ranks"]), tuple(data["scores"]), tuple(data["winners"]))

    @classmethod
    def from_scores(cls, scores: Sequence[float], winners: Sequence[int] | None = None) -> GameResult:
        """The result of seats with these scores: the winners (default: the best score) first,
        the others placed by score, equal scores sharing a place."""
        scores = tuple(float(s) for s in scores)
        if winners is None:
            best = max(scores)
            winners = [seat for seat, s in enumerate(scores) if s == best]
        winners = tuple(sorted(set(winners)))
        ranks = []
        for seat, score in enumerate(scores):
            if seat in winners:
                ranks.append(1)
            else:
                better = {other for other, s in enumerate(scores) if other not in winners and s > score}
                ranks.append(len(winners) + len(better) + 1)
        return cls(tuple(ranks), scores, winners)


def read_result(game: Any) -> GameResult:
    """The default reading of a finished game: its ``winners()`` first, the others by ``scores()``."""
    if not game.is_over():
        raise ResultError(f"{game.TITLE} is not over: a result is read once the game has ended")
    return GameResult.from_scores(game.scores(), game.winners())


def result_of(spec: GameSpec, game: Any) -> GameResult:
    """``game``'s result as its registry entry reads it, checked to be a :class:`GameResult`."""
    result = spec.load_result()(game)
    if not isinstance(result, GameResult):
        raise ResultError(f"{spec.name}'s result reader returned {type(result).__name__}, not a GameResult")
    if result.seats != game.num_players:
        raise ResultError(f"{spec.name}'s result has {result.seats} seats but the game has {game.num_players}")
    return result
