"""The standings: each player's tournament points, then the game's tie-breaks, then a shared place.

Points are the sum of each game's pairwise points (:meth:`GameResult.points
<controller.tournament.results.GameResult.points>`) and :data:`~controller.tournament.pairing.BYE_POINTS`
per bye. The tie-breaks a game uses are named in its registry entry
(:attr:`GameSpec.tiebreaks <controller.games.spec.GameSpec.tiebreaks>`), from :data:`TIEBREAKS`:

* ``buchholz``: the opponents' points, averaged over each table's opponents, summed over the games
  (two at a table: the usual Buchholz);
* ``sonneborn_berger``: for each game, what the player scored against each opponent times that
  opponent's points, averaged over the table, summed;
* ``score``: the game's own scores, summed;
* ``wins``: how many games the player won.

Players equal on points and every tie-break share a place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

from controller.i18n import N_
from controller.tournament.pairing import BYE_POINTS
from controller.tournament.results import GameResult


@dataclasses.dataclass(frozen=True)
class PlayedGame:
    """A game that counts: its round, its players (ids in seat order) and its result."""

    round: int
    players: tuple[int, ...]
    result: GameResult


@dataclasses.dataclass
class Standing:
    """One line of the standings."""

    player: int
    name: str
    points: float = 0.0
    games: int = 0
    wins: int = 0
    byes: int = 0
    tiebreaks: dict[str, float] = dataclasses.field(default_factory=dict)
    place: int = 0

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "name": self.name, "points": round(self.points, 4), "games": self.games,
                "wins": self.wins, "byes": self.byes, "place": self.place,
                "tiebreaks": {k: round(v, 4) for k, v in self.tiebreaks.items()}}


def _opponents(game: PlayedGame, seat: int) -> list[int]:
    return [s for s in range(len(game.players)) if s != seat]


def _buchholz(player: int, games: Sequence[PlayedGame], points: Mapping[int, float]) -> float:
    total = 0.0
    for game in games:
        seat = game.players.index(player)
        others = _opponents(game, seat)
        total += sum(points[game.players[o]] for o in others) / len(others)
    return total


def _sonneborn_berger(player: int, games: Sequence[PlayedGame], points: Mapping[int, float]) -> float:
    total = 0.0
    for game in games:
        seat = game.players.index(player)
        others = _opponents(game, seat)
        total += sum(game.result.against(seat, o) * points[game.players[o]] for o in others) / len(others)
    return total


def _score(player: int, games: Sequence[PlayedGame], points: Mapping[int, float]) -> float:
    return sum(float(g.result.scores[g.players.index(player)]) for g in games)


def _wins(player: int, games: Sequence[PlayedGame], points: Mapping[int, float]) -> float:
    return float(sum(1 for g in games if g.players.index(player) in g.result.winners))


#: The tie-breaks by name, each ``f(player, their games, everyone's points) -> number``; higher is better.
TIEBREAKS: dict[str, Callable[[int, Sequence[PlayedGame], Mapping[int, float]], float]] = {
    "buchholz": _buchholz,
    "sonneborn_berger": _sonneborn_berger,
    "score": _score,
    "wins": _wins,
}
#: The tie-breaks' names as the standings page and the exports head them.
TIEBREAK_WORDS = {"buchholz": N_("Buchholz"), "sonneborn_berger": N_("Sonneborn-Berger"), "score": N_("game score"),
                  "wins": N_("wins")}


def standings(players: Mapping[int, str], games: Sequence[PlayedGame], byes: Sequence[tuple[int, int]],
              tiebreaks: Sequence[str]) -> list[Standing]:
    """The standings of ``players`` (id -> name) after ``games`` and ``byes`` ((round, player) pairs),
    best first, tie-broken by ``tiebreaks`` (names of :data:`TIEBREAKS`)."""
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break(s) {', '.join(unknown)}; known: {', '.join(TIEBREAKS)}")
    rows = {pid: Standing(pid, name) for pid, name in players.items()}
    played: dict[int, list[PlayedGame]] = {pid: [] for pid in players}
    for game in games:
        gained = game.result.points()
        for seat, pid in enumerate(game.players):
            if pid not in rows:
                continue
            rows[pid].points += gained[seat]
            rows[pid].games += 1
            rows[pid].wins += seat in game.result.winners
            played[pid].append(game)
    for _round, pid in byes:
        if pid in rows:
            rows[pid].points += BYE_POINTS
            rows[pid].byes += 1
    points = {pid: row.points for pid, row in rows.items()}
    for pid, row in rows.items():
        own = [g for g in played[pid] if all(p in points for p in g.players)]
        row.tiebreaks = {name: TIEBREAKS[name](pid, own, points) for name in tiebreaks}
    key = lambda row: (row.points, *(round(row.tiebreaks[n], 9) for n in tiebreaks))  # noqa: E731
    ordered = sorted(rows.values(), key=lambda row: (tuple(-x for x in key(row)), row.name.casefold(), row.player))
    for index, row in enumerate(ordered):
        same = index and key(ordered[index - 1]) == key(row)
        row.place = ordered[index - 1].place if same else index + 1
    return ordered
