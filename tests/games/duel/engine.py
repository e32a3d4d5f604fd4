"""Dice duel: the toy game of docs/adding-a-game.md, played only by the tests.

Two players each dial a number from 1 to 6 in secret and lock it. When both are locked the
numbers are revealed and a die is rolled (from the game's seeded generator); whoever chose the
number closer to the roll scores a point, both on a tie. The first to ``target`` points wins;
players reaching it together share the win.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from controller.engines import Bot, Event, Game, GameOptions, IllegalActionError, OptionsError, RuleError, register


@dataclasses.dataclass(frozen=True)
class DuelOptions(GameOptions):
    """``target``: the points that win; ``faces``: the die's faces (and the highest number to pick)."""

    target: int = 3
    faces: int = 6

    def validate(self) -> None:
        if not 1 <= self.target <= 20:
            raise OptionsError(f"target must be from 1 to 20 points, not {self.target}")
        if not 2 <= self.faces <= 9:
            raise OptionsError(f"faces must be from 2 to 9 (the number wheel shows 0 to 9), not {self.faces}")


@dataclasses.dataclass(frozen=True)
class Pick:
    """A player's secret number."""

    number: int


@register
class DuelGame(Game[DuelOptions]):
    """Two players, a secret number each, one roll per round."""

    NAME = "duel"
    TITLE = "Dice duel"
    OPTIONS = DuelOptions

    def _setup(self) -> None:
        self.points = [0, 0]
        self.picks: dict[int, int] = {}
        self.round = 1
        self.last: dict[str, Any] | None = None

    @property
    def num_players(self) -> int:
        return 2

    def current_players(self) -> tuple[int, ...]:
        if self.is_over():
            return ()
        return tuple(p for p in (0, 1) if p not in self.picks)

    def legal_actions(self, player: int) -> list[Any]:
        if player not in self.current_players():
            return []
        return [Pick(n) for n in range(1, self.options.faces + 1)]

    def explain_illegal(self, player: int, action: Any) -> RuleError:
        if isinstance(action, Pick) and not 1 <= action.number <= self.options.faces:
            return IllegalActionError("number-range", f"{self.seat_label(player)} must pick a number from 1 to "
                                      f"{self.options.faces}, not {action.number}", self.render())
        return super().explain_illegal(player, action)

    def secret_pending(self, player: int) -> bool:
        return player in self.picks

    def _apply(self, player: int, action: Any) -> list[Event]:
        self.picks[player] = action.number
        events = [Event("locked", f"{self.seat_label(player)} has chosen", {"seat": player})]
        if len(self.picks) < 2:
            return events
        roll = self.rng.randint(1, self.options.faces)
        picks = [self.picks[0], self.picks[1]]
        gaps = [abs(n - roll) for n in picks]
        scorers = [p for p in (0, 1) if gaps[p] == min(gaps)]
        for p in scorers:
            self.points[p] += 1
        self.last = {"round": self.round, "picks": picks, "roll": roll, "scorers": scorers}
        events.append(Event("revealed", f"round {self.round}: {self.seat_label(0)} chose {picks[0]}, "
                            f"{self.seat_label(1)} chose {picks[1]}; the die shows {roll}", dict(self.last)))
        events.append(Event("scored", f"{' and '.join(self.seat_label(p) for p in scorers)} "
                            f"{'score' if len(scorers) > 1 else 'scores'} a point", {"seats": scorers}))
        self.picks = {}
        self.round += 1
        if self.is_over():
            events.append(Event("game-over", f"{' and '.join(self.seat_label(p) for p in self.winners())} "
                                f"{'win' if len(self.winners()) > 1 else 'wins'}", {"winners": list(self.winners())}))
        return events

    def is_over(self) -> bool:
        return max(self.points) >= self.options.target

    def scores(self) -> tuple[float, ...]:
        return tuple(float(p) for p in self.points)

    def state_dict(self) -> dict[str, Any]:
        return {"points": list(self.points), "picks": {str(p): n for p, n in sorted(self.picks.items())},
                "round": self.round, "last": self.last}

    def view(self, player: int | None) -> dict[str, Any]:
        view = {"points": list(self.points), "round": self.round, "last": self.last,
                "chosen": [p in self.picks for p in (0, 1)], "target": self.options.target}
        if player is not None and player in self.picks:
            view["my_pick"] = self.picks[player]
        return view

    def render(self) -> str:
        line = (f"round {self.round}: {self.seat_label(0)} {self.points[0]} - {self.points[1]} {self.seat_label(1)}"
                f" (first to {self.options.target})")
        if self.last is not None:
            line += f"\nlast roll {self.last['roll']}, picks {self.last['picks'][0]} and {self.last['picks'][1]}"
        return line + "\n"

    @classmethod
    def encode_action(cls, action: Any) -> Any:
        return {"pick": action.number}

    @classmethod
    def decode_action(cls, data: Any) -> Any:
        if not isinstance(data, dict) or type(data.get("pick")) is not int:
            raise ValueError(f"a dice duel action is {{\"pick\": number}}, not {data!r}")
        return Pick(data["pick"])

    def check_invariants(self) -> None:
        assert all(0 <= p for p in self.points)
        assert set(self.picks) <= {0, 1} and len(self.picks) < 2
        assert all(1 <= n <= self.options.faces for n in self.picks.values())


class DuelBot(Bot):
    """Picks a number near the middle of the die more often than an edge one."""

    def choose(self, game: Game[Any], player: int) -> Any:
        actions = game.legal_actions(player)
        middle = (len(actions) + 1) / 2
        weights = [1.0 / (1.0 + abs(a.number - middle)) for a in actions]
        return self.rng.choices(actions, weights)[0]
