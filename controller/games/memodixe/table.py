"""MémoDiXe at the table service: real DiXes on the printed mat, read by the camera.

The service's table loop (:class:`~controller.service.table.TableSession`) feeds each still reading
of the square to :class:`~controller.games.memodixe.referee.MemodixeReferee`; this module is what
the loop asks of the game besides: the choices a camera cannot see, announced on the page (« DiXe ! »,
a power's choice, the die won when both are lifted), and what the page draws: the game as the whole
table sees it and the camera's top faces. Nothing here carries a hidden face the table has not seen
turned up: not the camera's layouts, not a die's identity.
"""

from __future__ import annotations

from typing import Any

from controller.engines.memodixe import MemodixeGame, words
from controller.games.memodixe.camera import SquareReading
from controller.games.memodixe.referee import MemodixeReferee
from controller.games.table import TablePlay
from controller.referee.common import Call, RefereeConfig


class MemodixeTable(TablePlay):
    """MémoDiXe's part of the table service."""

    ANNOUNCED = frozenset({"dixe", "take", "peek", "skip", "steal", "give", "end", "play-on"})

    def referee(self, game: Any, config: RefereeConfig) -> MemodixeReferee:
        """A referee knowing the dice as the camera does: the data, the faces taught, the pairs seen."""
        from controller.games.memodixe.layouts import table_layouts

        layouts, _notes = table_layouts(game.book)
        return MemodixeReferee(game, config, layouts, save=True)

    def call_json(self, call: Call, engine: Any) -> dict[str, Any]:
        """A call as stored and shown, without the events meant for some seats only (a face peeked at
        in secret): the table page and the log are everyone's. The actions replay them."""
        data = call.to_json(engine)
        data["events"] = [e for e in data["events"] if e["data"].get("audience") is None]
        return data

    def shot(self, call: Call, before: Any, game: Any) -> dict[str, Any] | None:
        """The places the call turned, won or rolled, for the page to point at."""
        places = sorted({a.place for _p, a in call.actions if hasattr(a, "place")})
        return {"call_id": call.call_id, "places": places} if places else None

    def public(self, referee: Any, snapshot: Any, shot: dict[str, Any] | None) -> dict[str, Any]:
        game: MemodixeGame = referee.game
        reading = snapshot if isinstance(snapshot, SquareReading) else None
        return {"view": game.view(None), "turn": self.turn(game), "words": referee.words(), "last_shot": shot,
                "seen": reading.to_json() if reading is not None else None,
                "faces": {key: words.face(key) for key in words.FACE_NAMES}}

    def turn(self, game: Any) -> int:
        return int(game.turn_no)
