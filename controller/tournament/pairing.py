"""Who sits at which table each round: Swiss, round-robin and single elimination.

Pure functions of the players and what already happened (no I/O, no clock), so the organiser stores
each round's pairing once and a restart never pairs a round again. A table seats between the game's
fewest and most players (:func:`table_sizes`): as many full tables as the count allows, a few tables
one seat short rather than a bye, and a bye only for players no table can seat. A player given a bye
scores a win (:data:`BYE_POINTS`); byes go to the lowest-ranked players who have not had one.

* **Swiss** (:func:`swiss`): players in standing order fill the tables from the top, and nobody meets
  someone again while a pairing without a rematch exists (a backtracking search proves it within
  :data:`SEARCH_BUDGET` steps; beyond that, the pairing with the fewest rematches it found).
* **Round-robin** (:func:`round_robin`): two at a table, everyone meets everyone once (the circle
  method); an odd count gives one bye a round.
* **Single elimination** (:func:`elimination`): each table's winner goes on; players are seeded by
  their order, the best seeds take the byes and meet the lowest seeds.

    >>> swiss([1, 2, 3, 4], met={1: {2}, 2: {1}}, had_bye=set(), most=2, fewest=2).tables
    ((1, 3), (2, 4))
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence

#: The tournament formats, as the command line and the organiser's state name them.
FORMATS = ("swiss", "round-robin", "elimination")
#: The points a bye scores: a win.
BYE_POINTS = 1.0
#: Steps the Swiss search takes to find a pairing without any rematch before it settles for fewest.
SEARCH_BUDGET = 200_000


class PairingError(ValueError):
    """A round that cannot be paired as asked (too few players, a format the seats do not allow)."""


@dataclasses.dataclass(frozen=True)
class Pairing:
    """One round: the tables (player ids in seat order) and the players given a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


def table_sizes(count: int, most: int, fewest: int) -> tuple[list[int], int]:
    """How ``count`` players sit at tables of ``fewest`` to ``most`` seats: the sizes, largest first,
    and how many players get a bye.

    >>> table_sizes(10, 4, 3)
    ([4, 3, 3], 0)
    >>> table_sizes(7, 2, 2)
    ([2, 2, 2], 1)
    """
    if not 1 <= fewest <= most:
        raise PairingError(f"a table seats from {fewest} to {most} players: give 1 <= fewest <= most")
    tables = -(-count // most)
    if tables and tables * fewest <= count:
        base, extra = divmod(count, tables)
        return [base + 1] * extra + [base] * (tables - extra), 0
    tables = count // most
    return [most] * tables, count - tables * most


def _bye_takers(order: Sequence[int], count: int, had_bye: set[int]) -> list[int]:
    """The ``count`` lowest-ranked players without a bye yet (then the lowest-ranked of the rest)."""
    fresh = [p for p in reversed(order) if p not in had_bye]
    again = [p for p in reversed(order) if p in had_bye]
    return (fresh + again)[:count]


def _repeats(group: Sequence[int], met: Mapping[int, set[int]]) -> int:
    return sum(1 for a, b in itertools.combinations(group, 2) if b in met.get(a, ()))


def _seated(group: Sequence[int], firsts: Mapping[int, int]) -> tuple[int, ...]:
    """A table's seat order: whoever has sat first least often sits first (ties keep the ranking)."""
    return tuple(sorted(group, key=lambda p: firsts.get(p, 0)))


def swiss(order: Sequence[int], met: Mapping[int, set[int]], had_bye: set[int], most: int, fewest: int,
          firsts: Mapping[int, int] | None = None, budget: int = SEARCH_BUDGET) -> Pairing:
    """A Swiss round for players in standing order (best first); see the module's docstring."""
    sizes, bye_count = table_sizes(len(order), most, fewest)
    if not sizes:
        raise PairingError(f"{len(order)} players cannot fill a table of {fewest} or more")
    byes = _bye_takers(order, bye_count, had_bye)
    playing = [p for p in order if p not in byes]
    groups = _strict(playing, sizes, met, budget)
    if groups is None:
        groups = _fewest_rematches(playing, sizes, met)
    firsts = firsts or {}
    return Pairing(tuple(_seated(g, firsts) for g in groups), tuple(byes))


def _strict(players: list[int], sizes: list[int], met: Mapping[int, set[int]],
            budget: int) -> list[tuple[int, ...]] | None:
    """Tables without any rematch, the best-ranked player of what is left taking the closest-ranked
    companions first; ``None`` when there is none (or the budget runs out first)."""
    steps = [budget]

    def search(left: list[int], sizes: list[int]) -> list[tuple[int, ...]] | None:
        if not left:
            return []
        head, rest = left[0], left[1:]
        for companions in itertools.combinations(rest, sizes[0] - 1):
            steps[0] -= 1
            if steps[0] < 0:
                return None
            group = (head, *companions)
            if _repeats(group, met):
                continue
            taken = set(companions)
            found = search([p for p in rest if p not in taken], sizes[1:])
            if found is not None:
                return [group, *found]
            if steps[0] < 0:
                return None
        return None

    return search(players, sizes)


def _fewest_rematches(players: list[int], sizes: list[int], met: Mapping[int, set[int]]) -> list[tuple[int, ...]]:
    """Tables filled from the top, each taking the companions that repeat the fewest meetings."""
    left, groups = list(players), []
    for size in sizes:
        head, rest = left[0], left[1:]
        window = rest[: max(size + 6, 2 * size)]
        best = min(itertools.combinations(window, size - 1), key=lambda c: _repeats((head, *c), met))
        groups.append((head, *best))
        left = [p for p in rest if p not in best]
    return groups


def round_robin_rounds(count: int) -> int:
    """How many rounds a round-robin of ``count`` players takes."""
    return count - 1 if count % 2 == 0 else count


def round_robin(players: Sequence[int], number: int) -> Pairing:
    """Round ``number`` (from 1) of a two-at-a-table round-robin of ``players`` (the circle method)."""
    count = len(players)
    if count < 2:
        raise PairingError("a round-robin needs two players or more")
    if not 1 <= number <= round_robin_rounds(count):
        raise PairingError(f"a round-robin of {count} players has {round_robin_rounds(count)} rounds, not {number}")
    ring: list[int | None] = list(players) + ([None] if count % 2 else [])
    size = len(ring)
    fixed, rotating = ring[0], ring[1:]
    shift = (number - 1) % (size - 1)
    rotating = rotating[-shift:] + rotating[:-shift] if shift else rotating
    circle = [fixed, *rotating]
    tables, byes = [], []
    for i in range(size // 2):
        a, b = circle[i], circle[size - 1 - i]
        if a is None or b is None:
            byes.append(a if b is None else b)
            continue
        pair = (a, b) if (number + i) % 2 else (b, a)
        tables.append(pair)
    return Pairing(tuple(tables), tuple(p for p in byes if p is not None))


def elimination(alive: Sequence[int], most: int, fewest: int) -> Pairing:
    """A knock-out round for the players still in, best seed first: the best seeds take the byes,
    the rest are dealt to the tables in a snake so that the best meet the lowest."""
    sizes, bye_count = table_sizes(len(alive), most, fewest)
    if not sizes:
        return Pairing((), tuple(alive))
    byes = list(alive[:bye_count])
    playing = list(alive[bye_count:])
    groups: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    snake = itertools.cycle(order + order[::-1])
    for player in playing:
        table = next(snake)
        while len(groups[table]) >= sizes[table]:
            table = next(snake)
        groups[table].append(player)
    return Pairing(tuple(tuple(g) for g in groups), tuple(byes))


def elimination_rounds(count: int, most: int, fewest: int) -> int:
    """How many knock-out rounds ``count`` players take until one is left (or too few to fill a table)."""
    rounds = 0
    while count > 1:
        sizes, byes = table_sizes(count, most, fewest)
        if not sizes:
            break
        count = len(sizes) + byes
        rounds += 1
    return rounds
