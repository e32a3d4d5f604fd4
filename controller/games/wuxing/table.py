"""Le théâtre du duel at the table service: played by hand on the printed board, read by the camera.

The service's table loop (:class:`~controller.service.table.TableSession`) feeds each still reading
of the board to :class:`~controller.games.wuxing.referee.WuxingReferee`; this module is what the
loop asks of the game besides: staying is announced on the page (the camera cannot see a token
paid without a move), the last move is drawn as an arrow, and the page gets both boards, the
game's and the camera's, to draw side by side.
"""

from __future__ import annotations

from typing import Any

from controller.engines.wuxing import ELEMENT_NAMES, Move, WuxingGame
from controller.engines.wuxing.game import last_text
from controller.games.table import TablePlay
from controller.games.wuxing.board import BoardReading
from controller.games.wuxing.camera import describe
from controller.games.wuxing.referee import WuxingReferee, marks_of
from controller.referee.common import Call, RefereeConfig


class WuxingTable(TablePlay):
    """The théâtre's part of the table service."""

    ANNOUNCED = frozenset({"stay"})

    def referee(self, game: Any, config: RefereeConfig) -> WuxingReferee:
        return WuxingReferee(game, config)

    def before(self, game: Any) -> str | None:
        return marks_of(game) if game.mode == "theatre" else None

    def shot(self, call: Call, before: Any, game: Any) -> dict[str, Any] | None:
        """The last move, from square to square, for the page's arrow."""
        moves = [(seat, a) for seat, a in call.actions if isinstance(a, Move)]
        if not moves or game.mode != "theatre" or game.rules.last is None or game.rules.last.get("kind") != "move":
            return None
        last = game.rules.last
        return {"call_id": call.call_id, "from": last["from"], "to": last["to"], "colour": last["colour"]}

    def public(self, referee: Any, snapshot: Any, shot: dict[str, Any] | None) -> dict[str, Any]:
        game: WuxingGame = referee.game
        state: dict[str, Any] = {"view": game.view(None), "turn": self.turn(game), "last_text": last_text(game),
                                 "words": referee.words(), "last_shot": shot}
        if game.mode != "theatre":
            return state
        reading = snapshot if isinstance(snapshot, BoardReading) else None
        flagged = referee.flagged
        state.update({
            "expected": marks_of(game),
            "islands": [[ELEMENT_NAMES[e] for e in row] for row in game.rules.square],
            "seen": describe(reading) if reading is not None else None,
            "flagged": None if flagged is None else {"call_id": flagged.call_id, "reason": flagged.reason},
            "to_remove": sorted(referee.to_remove),
        })
        return state

    def turn(self, game: Any) -> int:
        return int(game.rules.turn) if game.mode == "theatre" else int(game.rules.round)
