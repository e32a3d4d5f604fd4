"""Dice duel on the wheels: the number wheel is the secret number, the ready button locks it."""

from __future__ import annotations

from typing import Any

from controller.dials.state import ControllerState
from controller.games.wheels import TURNING, Press, Refused, Table, WheelPlay
from tests.games.duel.engine import Pick


class DuelWheels(WheelPlay):
    """One controller per player."""

    REFUSALS = {"number-range": "pick a number that the die can show: turn the number wheel to 1 to 6"}

    def pieces(self) -> int:
        return 2

    def decision_point(self) -> tuple[Any, ...]:
        return (self.game.round,)

    def press(self, piece: int, state: ControllerState, table: Table) -> Press | None:
        if table.bot_holds(piece, piece):
            raise Refused(f"{table.piece_name(piece)} is played by a bot ({table.seat_name(piece)})")
        if state.number is None:
            raise Refused(TURNING)
        return Press(piece, Pick(state.number))

    def wheel_targets(self, action: Any) -> dict[str, int]:
        return {"number": action.number}
