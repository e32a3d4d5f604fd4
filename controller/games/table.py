"""How a game is refereed from the table camera: the seam between the table's loop and a game.

The table's loop (:class:`~controller.service.table.TableSession`) feeds camera frames to the
vision pipeline, hands each still snapshot to the game's referee, stores every call before it is
announced, and serves questions, answers and overrules; it knows no game. A camera game gives it
a :class:`TablePlay`: its referee (see :class:`~controller.referee.common.TableReferee`), what the
dashboard draws of the table, the choices players announce on the page (a camera cannot see a
power being declared), and how a shot is drawn.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from controller.engines import Game
from controller.referee.common import Call, RefereeConfig, TableReferee
from controller.vision.snapshot import TableSnapshot


class TablePlay(ABC):
    """A camera game's part of the table service. One is made per table session."""

    #: The encoded actions' ``type`` values that players announce on the page, offered as buttons.
    ANNOUNCED: ClassVar[frozenset[str]] = frozenset()
    #: Whether each player has a page of their own (``/hand/N``, as when playing on phones) for what
    #: they alone may see (a hidden hand) and the choices they alone may make, the board being read
    #: from the table.
    HAND_PAGES: ClassVar[bool] = False
    #: The encoded actions' ``type`` values a player chooses in secret (on their own page): never shown
    #: in a call, on the table page or in the notes (see :meth:`secret_choices`).
    SECRET: ClassVar[frozenset[str]] = frozenset()

    @abstractmethod
    def referee(self, game: Game[Any], config: RefereeConfig) -> TableReferee:
        """A referee for ``game`` judging with ``config``."""

    def rebind(self, referee: TableReferee, snapshot: TableSnapshot) -> None:
        """After a restart, tie the dice the camera sees (new ids) to the replayed game's pieces."""

    def before(self, game: Game[Any]) -> Any:
        """What the table holds before a call, kept to draw the call's effect (:meth:`shot`)."""
        return None

    def shot(self, call: Call, before: Any, game: Game[Any]) -> dict[str, Any] | None:
        """What a call moved (drawn on the page), from :meth:`before` and the game after it; ``None``
        when the call moved nothing the page draws (the last drawn shot stays)."""
        return None

    def call_json(self, call: Call, engine: type[Game[Any]]) -> dict[str, Any]:
        """A call as stored in the log and shown."""
        return call.to_json(engine)

    def public(self, referee: TableReferee, snapshot: TableSnapshot | None, shot: dict[str, Any] | None
               ) -> dict[str, Any]:
        """What the table page draws of the game and the table beyond the shared parts (players, log,
        questions, calls, choices), all of it public."""
        return {}

    def private(self, game: Game[Any], seat: int) -> dict[str, Any]:
        """What ``seat``'s own page shows (with :attr:`HAND_PAGES`): the engine's view for that seat."""
        return game.view(seat)

    def secret_choices(self, game: Game[Any], seat: int) -> list[Any]:
        """The actions ``seat`` chooses on its own page now (with :attr:`HAND_PAGES`): what nobody else
        may see, such as which drawn cards to keep."""
        return []

    def turn(self, game: Game[Any]) -> int:
        """The game's turn number, as the table announces it."""
        return int(getattr(game, "turn_number", len(game.history)))
