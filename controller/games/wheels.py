"""How a game is played on wheel controllers: the seam between the console's loop and a game.

The console's loop (:class:`~controller.service.session.Session`) knows controllers, LEDs, the
event log, bots and the dashboard, but no game. A game played on the wheels gives it a
:class:`WheelPlay`: how many controllers (pieces) the game needs, whose each one is now, what a
press of the ready button means given the wheels' positions, which actions are secret and lock
their controller until the reveal, and how a bot sets the wheels for the action it chose.

One controller drives one piece: its colour names it on the dashboard and on the box. A seat may
hold several pieces (Pixoid's spare Bug), and a piece may change hands between turns.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from controller import i18n
from controller.dials.state import ControllerState
from controller.engines import Bot, Game
from controller.i18n import N_

#: A sentence kept to be said in each reader's language (see :func:`controller.i18n.message`).
Message = Mapping[str, Any]

#: Why a press was refused while a wheel is still between two positions.
TURNING: Message = i18n.message(N_("a wheel is still turning: let it settle on a position, then press ready again"))


class Refused(Exception):
    """A press of the ready button that the game does not take; the reason is shown to that seat.

    ``reason`` is a message (``Refused.said(N_("..."), **args)``) so that each phone says it in its
    language; the exception's text is its English."""

    def __init__(self, reason: Message | str) -> None:
        self.words: Message = reason if isinstance(reason, Mapping) else i18n.message(reason)
        super().__init__(i18n.said(self.words, i18n.SOURCE_LANGUAGE))

    @classmethod
    def said(cls, msgid: str, **args: Any) -> Refused:
        """The refusal whose reason is ``msgid`` (marked with ``N_``) filled with ``args``."""
        return cls(i18n.message(msgid, **args))


@dataclasses.dataclass(frozen=True)
class Press:
    """A press the game reads as ``action`` by ``seat``."""

    seat: int
    action: Any


class Table(Protocol):
    """What a game's wheel rules may ask of the console about the people at the table."""

    def seat_name(self, seat: int) -> str: ...

    def piece_name(self, piece: int | None) -> str: ...

    def bot_holds(self, seat: int, piece: int) -> bool:
        """Whether a bot plays ``piece`` for ``seat`` without its controller (a person's press is refused)."""
        ...


class WheelPlay(ABC):
    """A game's rules for the wheels; one is made for each game being played (``WheelPlay(game)``).

    Subclasses implement :meth:`pieces`, :meth:`press`, :meth:`decision_point` and
    :meth:`wheel_targets`; the rest has defaults for a game whose moves are secret, one controller
    per seat, chosen by one bot per seat.
    """

    #: The controllers' colours by piece, as on the boxes.
    COLOURS: ClassVar[tuple[str, ...]] = (N_("red"), N_("blue"), N_("green"), N_("yellow"))
    #: What a player is told when the engine refuses a press, by rule (English msgids marked with
    #: ``N_``); worded so that the rest of the table learns as little as possible about the choice.
    REFUSALS: ClassVar[Mapping[str, str]] = {}
    #: What everybody is told when a secret choice is refused (the reason goes to that seat alone): the
    #: rules such a choice must keep, the same whatever the choice was (an msgid marked with ``N_``).
    SECRET_REFUSAL_HINT: ClassVar[str] = ""

    def __init__(self, game: Game[Any], bot: type[Bot] | None = None) -> None:
        self.game = game
        self.bot = bot

    # ---- what each game says -------------------------------------------------------------------

    @abstractmethod
    def pieces(self) -> int:
        """How many controllers the game needs (one per piece)."""

    @abstractmethod
    def press(self, piece: int, state: ControllerState, table: Table) -> Press | None:
        """What the ready button of ``piece``'s controller means now, its wheels showing ``state``.

        ``None`` ignores the press (a locked controller pressed again); :class:`Refused` refuses it
        with the message for that seat. The engine still checks the action: this only reads wheels.
        """

    # ---- defaults a game may override ----------------------------------------------------------

    def piece_name(self, piece: int) -> str:
        return self.COLOURS[piece] if 0 <= piece < len(self.COLOURS) else f"piece {piece}"

    def stage(self) -> str:
        """The game's phase as the dashboard names it (``"programming"``); ``""`` if it has none."""
        return str(getattr(self.game, "phase", ""))

    def seats_of(self, piece: int) -> set[int]:
        """Every seat that may ever have to use ``piece``'s controller in this game."""
        return {piece} if piece < self.game.num_players else set(range(self.game.num_players))

    def owner(self, piece: int) -> int | None:
        """The seat whose controller ``piece`` is now, shown beside it; ``None`` when nobody's."""
        return piece if piece < self.game.num_players else None

    def piece_of(self, seat: int, action: Any) -> int:
        """The piece whose controller gives ``seat``'s ``action`` (the one a bot turns and presses)."""
        return getattr(action, "piece", seat)

    def locks(self, seat: int, action: Any) -> int | None:
        """The piece whose controller a secret ``action`` locks until the reveal; ``None`` for an
        action that is public at once. Every action is secret unless a game says otherwise."""
        return self.piece_of(seat, action)

    def note(self, seat: int, action: Any, table: Table) -> tuple[str, Message | str, dict[str, Any]] | None:
        """An announcement for a public action, as ``(kind, message, data)``; ``None`` for none."""
        return None

    def announce(self, event: dict[str, Any], table: Table) -> dict[str, Any]:
        """An engine event as the table shows it (a game may reword it); unchanged by default."""
        return event

    def refusal(self, rule: str, reason: str, words: Message | None = None) -> Message:
        """What a player is told of an action the engine refused under ``rule``: the game's own
        words for that rule, else the engine's reason (``words``: that reason as a message)."""
        if rule in self.REFUSALS:
            return i18n.message(self.REFUSALS[rule])
        return words if words is not None else i18n.message(reason)

    @abstractmethod
    def decision_point(self) -> tuple[Any, ...]:
        """What identifies the moment bots decide at (a round, a turn, a phase): a bot acts once per
        decision point and seat, and a seat still owing its action at the same point presses again.
        It must not change while the seats lock their secret choices one by one."""

    def bot_key(self, seat: int) -> tuple[Any, ...]:
        """What makes one bot decision different from another at the same decision point."""
        return ("act", seat)

    def owed(self, seat: int) -> int:
        """How many actions ``seat`` owes now (one per piece it programs, for a secret phase)."""
        return 1

    def bot_actions(self, seat: int, seed_of: Callable[[int], int]) -> list[Any]:
        """The bot's actions for every piece ``seat`` owes now, chosen on a copy of the game so that
        the second piece's choice sees the first; ``seed_of(index)`` seeds the bot for each."""
        if self.bot is None:
            raise TypeError(f"{self.game.NAME} declares no bot")
        owed = self.owed(seat)
        clone = self.game.clone()
        actions = []
        for index in range(owed):
            action = self.bot(seed_of(index)).choose(clone, seat)
            actions.append(action)
            if index + 1 < owed:
                clone.apply_unchecked(seat, action)
        return actions

    @abstractmethod
    def wheel_targets(self, action: Any) -> dict[str, int]:
        """Where a hand sets the wheels (by name, in turning order) for the ready button to mean ``action``."""

    def still_owed(self, seat: int, action: Any, moment: tuple[Any, ...], locked: set[int]) -> bool:
        """Whether ``seat``'s ``action``, pressed at ``moment`` (:meth:`decision_point` and the
        length of the history then), is still to be taken: a bot whose press was not seen presses again."""
        piece = self.locks(seat, action)
        if piece is not None:
            return piece not in locked and self.decision_point() == moment[0]
        return self.decision_point() == moment[0] and len(self.game.history) == moment[1]

    def waiting_for(self, locked: set[int]) -> list[tuple[int, list[int]]]:
        """Who the table waits for: each seat to act with the pieces it has not locked."""
        out = []
        for seat in self.game.current_players():
            pieces = [p for p in range(self.pieces()) if self.owner(p) == seat and p not in locked]
            out.append((seat, pieces))
        return out

    def public(self, wheels: Mapping[int, ControllerState]) -> dict[str, Any]:
        """What the dashboard draws beyond the engine's public view, from the pieces' wheels (by piece).

        Only what everybody may see: wheels are read here for public choices (a start square being
        picked), never for a secret one."""
        return {}
