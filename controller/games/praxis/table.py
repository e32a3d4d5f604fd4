"""Praxis at the table service: played by hand on the printed mat, read by the camera.

The service's table loop (:class:`~controller.service.table.TableSession`) feeds each still reading
of the mat to :class:`~controller.games.praxis.referee.PraxisReferee`; this module is what the loop
asks of the game besides: the choices the mat cannot show are announced on the page (the torpedo's
target, the artefact a portal discards, the portal's grid, a pass), the last ship's move is drawn,
and the page gets the game's universe beside the camera's.

The hands are never on the table page: it is public. Each player's own page (``/hand/N``, the page
of play on phones, joined by the link the terminal prints) shows their hand and offers the choices
only they may make (the two artefacts a scanner keeps).
"""

from __future__ import annotations

from typing import Any

from controller.engines.praxis.actions import Keep, Move
from controller.engines.praxis.universe import cell_label
from controller.games.praxis.choices import PraxisChoices
from controller.games.praxis.reading import PraxisReading
from controller.games.praxis.referee import PraxisReferee
from controller.games.table import TablePlay
from controller.referee.common import Call, RefereeConfig


class PraxisTable(TablePlay):
    """Praxis's part of the table service."""

    ANNOUNCED = frozenset({"torpedo", "discard", "portal-grid", "pass"})
    HAND_PAGES = True
    SECRET = frozenset({"keep"})

    def secret_choices(self, game: Any, seat: int) -> list[Any]:
        """On the player's own page: the two artefacts a scanner keeps (the draw is secret)."""
        return [a for a in game.legal_actions(seat) if isinstance(a, Keep)] if game.step == "keep" else []

    def referee(self, game: Any, config: RefereeConfig) -> PraxisReferee:
        return PraxisReferee(game, config)

    def before(self, game: Any) -> list[int]:
        return list(game.ship_cell)

    def shot(self, call: Call, before: Any, game: Any) -> dict[str, Any] | None:
        """The last ship's move, from cell to cell, for the page's arrow."""
        moves = [(seat, a) for seat, a in call.actions if isinstance(a, Move)]
        if not moves or before is None:
            return None
        seat, move = moves[-1]
        ship = 2 * seat + move.ship
        start = before[ship] if ship < len(before) else -1
        if start < 0:
            return None
        return {"call_id": call.call_id, "from": cell_label(start), "to": cell_label(move.to), "seat": seat}

    def public(self, referee: Any, snapshot: Any, shot: dict[str, Any] | None) -> dict[str, Any]:
        game = referee.game
        reading = snapshot if isinstance(snapshot, PraxisReading) else None
        flagged = referee.flagged
        seen = None
        if reading is not None:
            mat = referee.mat
            seen = {"cells": {mat.label(p): c.code for p, c in enumerate(reading.cells) if mat.cell(p) is not None},
                    "occluded": reading.occluded}
        drawn = PraxisChoices(game).public()       # the lattice and the artefacts' names the view draws with
        return {**drawn, "view": game.view(None), "turn": self.turn(game), "words": referee.words(),
                "last_shot": shot, "seen": seen,
                "flagged": None if flagged is None else {"call_id": flagged.call_id, "reason": flagged.reason}}

    def turn(self, game: Any) -> int:
        return int(game.turn)
