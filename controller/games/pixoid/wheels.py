"""Pixoid on the wheels: what the ready button means in each phase.

* Placement (one seat at a time, Pixoid first, then clockwise): the number wheel of the placing
  piece's controller chooses among the free start Pix, numbered 0, 1, 2... on the dashboard (the
  chosen one is highlighted as the wheel turns); the ready button places the piece there.
* Programming (every seat at once, in secret): each controller's direction and number wheels are
  its piece's program; the ready button locks it (LED on). A program the rules refuse (0, a
  diagonal, a wall right ahead) or a wheel still turning is refused at lock time, and the program
  stays unlocked. When the last program is locked the engine reveals and resolves the turn.

Every refusal is a message, said on each phone in its reader's language, and names the players as the
engine does, by name and colour ("Ada (red)"); the engine's own events already say who placed which
cube where and who has locked in, so the wheels add no announcement of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.dials.state import DIRECTIONS, ControllerState
from controller.engines.pixoid import Place, PixoidGame, Program
from controller.games.wheels import TURNING, Press, Refused, Table, WheelPlay
from controller.i18n import N_


class PixoidWheels(WheelPlay):
    """Placement on the number wheel, secret programs on the direction and number wheels."""

    REFUSALS = {
        "no-diagonal": N_("diagonal arrows are not allowed in Pixoid: choose up, down, left or right"),
        "distance-range": N_("the distance cannot be 0: choose a number from 1 to 9"),
        "wall-ahead": N_("that arrow points into a wall right against your cube: choose another direction"),
    }

    SECRET_REFUSAL_HINT = N_("a program is an arrow up, down, left or right, not into a wall right against "
                             "the cube, and a distance from 1 to 9; the wheels show what was dialled")

    game: PixoidGame

    def pieces(self) -> int:
        return len(self.game.pos)

    def seats_of(self, piece: int) -> set[int]:
        """The spare Bug of the 3-player game changes hands every turn."""
        return {piece} if piece < self.game.players else set(range(self.game.players))

    def owner(self, piece: int) -> int | None:
        return self.game.controller_owner(piece) if self.game.phase == "programming" else None

    def decision_point(self) -> tuple[Any, ...]:
        return (self.game.round_index, self.game.turn_in_round, self.game.phase)

    def bot_key(self, seat: int) -> tuple[Any, ...]:
        if self.game.phase == "placement":
            return ("place", len(self.game.history))
        return ("program", seat)

    def owed(self, seat: int) -> int:
        if self.game.phase == "programming":
            return len({a.piece for a in self.game.legal_actions(seat)})
        return 1

    # ---- placement ---------------------------------------------------------------------------

    def placing_piece(self) -> int | None:
        game = self.game
        if game.phase != "placement" or not game.current_players():
            return None
        actions = game.legal_actions(game.current_players()[0])
        return actions[0].piece if actions else None

    def start_candidates(self) -> list[tuple[int, int]]:
        """The free start Pix the placing piece may take, in the order the number wheel counts them."""
        game = self.game
        if game.phase != "placement" or not game.current_players():
            return []
        return sorted({tuple(a.pix) for a in game.legal_actions(game.current_players()[0])})

    def _bot_holds(self, seat: int, piece: int) -> Refused:
        game = self.game
        return Refused.said(N_("the computer plays {piece} for {player}: this controller is not used now"),
                            piece=game.piece_words(piece), player=game.player_words(seat))

    # ---- the ready button --------------------------------------------------------------------

    def press(self, piece: int, state: ControllerState, table: Table) -> Press | None:
        game = self.game
        if game.phase == "placement":
            seat = game.current_players()[0]
            placing = self.placing_piece()
            if placing != piece:
                raise Refused.said(N_("it is {player}'s turn to place {piece}"), player=game.player_words(seat),
                                   piece=game.piece_words(placing))
            if table.bot_holds(seat, piece):
                raise self._bot_holds(seat, piece)
            if state.number is None:
                raise Refused(TURNING)
            candidates = self.start_candidates()
            if state.number >= len(candidates):
                if len(candidates) == 1:
                    raise Refused.said(N_("there is 1 free start Pix left, numbered 0: turn the number wheel to 0"))
                raise Refused.said(N_("there are {count} free start Pix, numbered 0 to {last}: turn the number wheel "
                                      "to one of them"), count=len(candidates), last=len(candidates) - 1)
            return Press(seat, Place(piece, candidates[state.number]))
        if game.phase == "programming":
            seat = game.controller_owner(piece)
            if table.bot_holds(seat, piece):
                raise self._bot_holds(seat, piece)
            if state.direction is None or state.number is None:
                raise Refused(TURNING)
            return Press(seat, Program(piece, DIRECTIONS[state.direction], state.number))
        return None

    def locks(self, seat: int, action: Any) -> int | None:
        return action.piece if isinstance(action, Program) else None

    # ---- bots --------------------------------------------------------------------------------

    def wheel_targets(self, action: Any) -> dict[str, int]:
        if isinstance(action, Place):
            candidates = self.start_candidates()
            pix = tuple(action.pix)
            return {"number": candidates.index(pix) if pix in candidates else 0}
        return {"direction": DIRECTIONS.index(action.direction), "number": action.distance}

    def still_owed(self, seat: int, action: Any, moment: tuple[Any, ...], locked: set[int]) -> bool:
        point, history = moment
        game = self.game
        if isinstance(action, Place):
            return self.placing_piece() == action.piece and len(game.history) == history
        return (game.phase == "programming" and action.piece not in locked
                and (game.round_index, game.turn_in_round) == point[:2])

    # ---- what the table sees -----------------------------------------------------------------

    def waiting_for(self, locked: set[int]) -> list[tuple[int, list[int]]]:
        game = self.game
        if game.phase == "placement":
            return [(game.current_players()[0], [self.placing_piece()])]
        if game.phase == "programming":
            return super().waiting_for(locked)
        return []

    def public(self, wheels: Mapping[int, ControllerState]) -> dict[str, Any]:
        placing = self.placing_piece()
        if placing is None:
            return {"placement": None}
        candidates = self.start_candidates()
        state = wheels.get(placing)
        number = state.number if state is not None else None
        selected = number if number is not None and number < len(candidates) else None
        return {"placement": {"piece": placing, "candidates": [list(c) for c in candidates], "selected": selected}}
