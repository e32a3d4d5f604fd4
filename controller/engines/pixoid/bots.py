"""A Pixoid bot that plays sensibly: Pixoid flees and collects bonus cubes, Bugs close in.

Pixoid scores each legal program by where it would end: never through a Bug (that is a capture),
away from the Pix the Bugs can reach this turn, far from the nearest Bug (steps around the walls),
with room to move next turn, taking bonus cubes on the way and drifting towards the others.

A Bug scores each program by how many of Pixoid's possible end Pix its path covers (Pixoid moves
first, so a Bug catches it by sweeping where it will be), the Pix that no Bug threatens now counting
most since a careful Pixoid flees there; by how many of those it will threaten from where it ends
(cutting Pixoid off next turn); by how close it ends to the Pix Pixoid can safely reach; and it
keeps away from the other Bugs, since Bugs that bunch up sweep the same Pix.

Ties are broken by the bot's seeded generator, so a seed gives the same game every time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from controller.engines.core import Bot, IllegalActionError
from controller.engines.pixoid.actions import DIRECTION_INDEX, Place, Program
from controller.i18n import N_

A = TypeVar("A")


class PixoidBot(Bot):
    """A seeded bot for any seat; :meth:`choose` returns a :class:`Place` or a :class:`Program`
    (for the next piece the seat still owes a program)."""

    def choose(self, game: Any, player: int) -> Any:
        actions = game.legal_actions(player)
        if not actions:
            raise IllegalActionError.said("no-legal-action", N_("{player} has nothing to do now"), game.render(),
                                          player=game.player_words(player))
        if isinstance(actions[0], Place):
            return self._place(game, actions)
        piece = actions[0].piece
        mine = [a for a in actions if a.piece == piece]
        if piece == game.pixoid_piece:
            return self._flee(game, mine)
        return self._chase(game, mine)

    def _best(self, actions: Sequence[A], score: Callable[[A], float], noise: float = 1.0) -> A:
        """The action with the highest score plus up to ``noise`` of seeded randomness (the first
        of equals)."""
        return max(actions, key=lambda action: score(action) + noise * self.rng.random())

    def _place(self, game: Any, actions: list[Place]) -> Place:
        board = game.board
        dist = board.distances
        free = [board.index(a.pix) for a in actions]
        pixoid_at = game.pos[game.pixoid_piece]

        def score(action: Place) -> float:
            index = board.index(action.pix)
            if pixoid_at < 0:
                others = [dist[index][j] for j in free if j != index] or [0]
                return min(others) * 10 + sum(others)
            return -dist[index][pixoid_at]

        return self._best(actions, score)

    def _flee(self, game: Any, actions: list[Program]) -> Program:
        board = game.board
        dist = board.distances
        slides = board.slides
        bugs = [game.pos[p] for p in game.bug_pieces()]
        bug_set = set(bugs)
        threat: dict[int, int] = {}
        for b in bugs:
            for d in range(4):
                for index in slides[b][d]:
                    threat[index] = threat.get(index, 0) + 1
        bonus = set(game.bonus_cubes)
        start = game.pos[game.pixoid_piece]

        def score(action: Program) -> float:
            path = slides[start][DIRECTION_INDEX[action.direction]][: action.distance]
            if bug_set.intersection(path):
                return -1e6
            end = path[-1]
            return (
                -1000.0 * threat.get(end, 0)
                + 300.0 * len(bonus.intersection(path))
                + 10.0 * min(dist[b][end] for b in bugs)
                + 2.0 * sum(board.opens[end])
                - 3.0 * min((dist[end][c] for c in bonus), default=0)
            )

        return self._best(actions, score)

    def _chase(self, game: Any, actions: list[Program]) -> Program:
        board = game.board
        dist = board.distances
        slides = board.slides
        target = game.pos[game.pixoid_piece]
        reach = {index for d in range(4) for index in slides[target][d]}
        threatened = {index for p in game.bug_pieces() for d in range(4) for index in slides[game.pos[p]][d]}
        safe = (reach - threatened) or reach or {target}
        start = game.pos[actions[0].piece]
        partners = [game.pos[p] for p in game.bug_pieces() if p != actions[0].piece]

        def score(action: Program) -> float:
            path = slides[start][DIRECTION_INDEX[action.direction]][: action.distance]
            end = path[-1]
            crowding = sum(1 for other in partners if dist[end][other] <= 2)
            cover_next = sum(1 for d in range(4) for index in slides[end][d] if index in safe)
            return (
                50.0 * len(safe.intersection(path))
                + 15.0 * len(reach.intersection(path))
                + 8.0 * cover_next
                - 5.0 * sum(dist[end][c] for c in safe) / len(safe)
                - 12.0 * crowding
            )

        return self._best(actions, score, noise=4.0)
