"""MémoDiXe bots: one that remembers the faces it was shown (and may forget them), and the roller
that reports the game's seeded rolls for the CHANCE seat.

:class:`MemoryBot` plays from what its seat may know: the top faces, what is being asked, and the
hidden faces the engine showed that seat (``game.shown[seat]``, the same as its :meth:`view`).
It learns a face when it is shown, forgets a place when its die is rolled or moves in sight, and,
at the start of each of its turns, forgets each remembered face with probability ``forget`` (0 for
an elephant's memory, 0.3 or so for an easy opponent). It cries « DiXe ! » when it remembers
every hidden face of the square and they are all different, or, remembering no pair, after three of
its turns in a row brought it nothing (a forgetful bot would otherwise never dare).

Bots use the unchecked path: :func:`controller.engines.play_out` applies their choices with
``apply_fast``.
"""

from __future__ import annotations

from typing import Any

from controller.engines.core import Bot, IllegalActionError
from controller.engines.memodixe import words
from controller.engines.memodixe.actions import CallDixe, ChooseFace, EndGame, Flip, PlayOn, SetAside, Skip
from controller.i18n import N_


class SeededRoller(Bot):
    """The CHANCE seat: reports the face the game's seeded generator rolled, so that a game played
    with it is the same for the same seed; the middle-die race is decided by the bot's own seed."""

    def choose(self, game: Any, player: int) -> Any:
        roll = game.seeded_roll()
        if roll is not None:
            return roll
        actions = game.legal_actions(player)
        return actions[self.rng.randrange(len(actions))]


class MemoryBot(Bot):
    """A seat that remembers what it was shown; ``forget`` is the chance, per remembered face and
    per turn of its own, of forgetting it."""

    def __init__(self, seed: int = 0, forget: float = 0.0) -> None:
        super().__init__(seed)
        if not 0.0 <= forget <= 1.0:
            raise ValueError(f"forget is a probability between 0 and 1, not {forget!r}")
        self.forget = forget
        self.memory: dict[int, str] = {}
        self._last: list[str | None] = [None] * 9
        self._actions_seen = -1
        self._dry = 0                  # own turns in a row without a die more
        self._held = -1

    # ---- memory ----

    def _sync(self, game: Any, player: int) -> None:
        if len(game.history) < self._actions_seen:     # a new game
            self.memory.clear()
            self._last = [None] * 9
            self._dry, self._held = 0, -1
        self._actions_seen = len(game.history)
        row = game.shown[player]
        for p in range(9):
            if row[p] != self._last[p]:
                if row[p] is None:
                    self.memory.pop(p, None)
                else:
                    self.memory[p] = row[p]
        self._last = list(row)

    def _fade(self) -> None:
        if self.forget:
            for p in sorted(self.memory):
                if self.rng.random() < self.forget:
                    del self.memory[p]

    def known(self, game: Any) -> dict[int, str]:
        """The kinds it remembers under the dice lying in the square, by place."""
        book = game.book
        return {p: book.kind(self.memory[p]) for p in game.usable() if p in self.memory}

    @staticmethod
    def _pair(known: dict[int, str], exclude: tuple[int, ...] = ()) -> tuple[int, int] | None:
        seen: dict[str, int] = {}
        for p, kind in sorted(known.items()):
            if p in exclude:
                continue
            if kind in seen:
                return seen[kind], p
            seen[kind] = p
        return None

    def _pick(self, items: list[Any]) -> Any:
        return items[self.rng.randrange(len(items))]

    # ---- choosing ----

    def choose(self, game: Any, player: int) -> Any:
        actions = game.legal_actions(player)
        if not actions:
            raise IllegalActionError.said("no-legal-action", N_("{seat} has nothing to do now"), game.render(),
                                          seat=words.seat(game, player))
        self._sync(game, player)
        step = game.queue[0][0]
        if step in ("turn", "oni-turn"):
            self._fade()
            held = game.holdings(player)
            self._dry = self._dry + 1 if held <= self._held else 0
            self._held = held
            return self._first(game, actions)
        if step in ("second", "oni-second"):
            return self._second(game, actions)
        known = self.known(game)
        if step == "take":
            return actions[0]
        if step == "peek":
            unknown = [a for a in actions if type(a) is not Skip and a.place not in known]
            return self._pick(unknown) if unknown else Skip()
        if step == "steal":
            return max(actions, key=lambda a: (len(game.won[a.seat]), -a.seat))
        if step in ("swap", "centre", "turnover") and Skip() in actions:
            return Skip()
        if step == "aside":
            pair = self._pair(known)
            return SetAside(pair[0]) if pair else self._pick(actions)
        if step == "reroll":
            pair = self._pair(known)
            public = game.shown[game.table_row]
            if player == game.oni:   # Oni wipes out what the players know
                seen = [a for a in actions if public[a.place] is not None]
                return self._pick(seen) if seen else self._pick(actions)
            fresh = [a for a in actions if a.place not in known and (not pair or a.place not in pair)]
            return self._pick(fresh) if fresh else self._pick(actions)
        if step == "face":
            wanted = set(known.values())
            good = [a for a in actions if type(a) is ChooseFace and game.book.kind(a.face) in wanted]
            return self._pick(good) if good else self._pick(actions)
        if step == "challenge":
            kind = game.queue[0][2]
            hits = [a for a in actions if known.get(a.place) == kind]
            misses = [a for a in actions if a.place not in known]
            return hits[0] if hits else self._pick(misses or actions)
        if step == "dixe-choice":
            counts = [len(w) for w in game.won]
            return EndGame() if counts[player] >= max(counts) else PlayOn()
        return self._pick(actions)

    def _first(self, game: Any, actions: list[Any]) -> Any:
        flips = [a for a in actions if type(a) is Flip]
        if not flips:
            return actions[0]
        known = self.known(game)
        pair = self._pair(known)
        # Cry when it knows every hidden face and none pair, or, forgetful, after three turns in a
        # row that brought nothing while it remembers no pair.
        if CallDixe() in actions and pair is None and (len(known) == len(game.usable()) or self._dry >= 3):
            return CallDixe()
        if pair is not None:
            return Flip(pair[0])
        unknown = [a for a in flips if a.place not in known]
        return self._pick(unknown or flips)

    def _second(self, game: Any, actions: list[Any]) -> Any:
        first = game.up[0]
        kind = game.book.kind(game.shown[game.queue[0][1]][first]) if game.shown[game.queue[0][1]][first] else None
        known = self.known(game)
        for a in actions:
            if a.place in known and known[a.place] == kind:
                return a
        unknown = [a for a in actions if a.place not in known]
        return self._pick(unknown or actions)


__all__ = ["MemoryBot", "SeededRoller"]
