"""How a game is played on phones by choosing each action from a list: the seam between the
phones' loop (:class:`~controller.service.choices.ChoiceSession`) and a game.

Each seat's page shows what that seat alone may see (``game.view(seat)``: its hand, its hidden
faces) and, when it is to act, its legal actions as buttons. The program plays the table's part:
every roll and draw (:data:`~controller.engines.CHANCE`) is drawn from the system's random source
and recorded, so a resumed game replays exactly. Nothing here reads a secret into a public place:
the public state is ``game.view(None)`` and the engine's events, which engines keep public.

A game gives a :class:`ChoicePlay` through its :class:`~controller.games.spec.GameSpec`'s
``choices`` field; the defaults suit any engine, and a game may override :meth:`ChoicePlay.label`
to word its actions or :meth:`ChoicePlay.chance` to draw with other odds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from controller import i18n
from controller.engines import CHANCE, Bot, Game
from controller.i18n import N_

Message = Mapping[str, Any]

#: How many actions a seat's page lists at most: more than any game's turn offers, few enough for a phone.
MAX_CHOICES = 200


class ChoicePlay:
    """A game's rules for phones; one is made for each game being played (``ChoicePlay(game, bot)``)."""

    def __init__(self, game: Game[Any], bot: type[Bot] | None = None) -> None:
        self.game = game
        self.bot = bot

    # ---- seats ---------------------------------------------------------------------------------

    def seat_ids(self) -> list[str]:
        """The seats' ids in their pages' addresses: ``"1"`` to ``"N"``."""
        return [str(seat + 1) for seat in range(self.game.num_players)]

    def to_act(self) -> list[int]:
        """The seats that must choose now (not the table's chance, not a seat whose secret is in)."""
        return [seat for seat in self.game.current_players()
                if seat != CHANCE and not self.game.secret_pending(seat)]

    def chance_due(self) -> bool:
        """Whether the program must roll or draw now."""
        return not self.game.is_over() and CHANCE in self.game.current_players()

    # ---- what a seat sees and chooses ---------------------------------------------------------------

    def label(self, action: Any) -> Message:
        """An action as its button says it (the engine's description unless the game words it)."""
        describe = getattr(self.game, "describe_message", None)
        if callable(describe):
            return describe(action)
        return i18n.message(self.game.describe_action(action))

    def choices(self, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may choose now, each with its index (the page sends it back) and its words."""
        if seat not in self.to_act():
            return []
        actions = self.game.legal_actions(seat)[:MAX_CHOICES]
        return [{"index": index, "words": self.label(action)} for index, action in enumerate(actions)]

    def action(self, seat: int, index: int) -> Any:
        """The action ``seat`` chose by its index in :meth:`choices`; ``LookupError`` when not offered."""
        if seat not in self.to_act():
            raise LookupError(i18n.message(N_("it is not your turn to choose")))
        actions = self.game.legal_actions(seat)[:MAX_CHOICES]
        if type(index) is not int or not 0 <= index < len(actions):
            raise LookupError(i18n.message(N_("that choice is no longer offered: choose again from the list")))
        return actions[index]

    def private(self, seat: int) -> dict[str, Any]:
        """What ``seat`` alone may see."""
        return self.game.view(seat)

    def public(self) -> dict[str, Any]:
        """What the dashboard draws beyond the engine's public view (the board's geometry, names);
        only what everybody may see."""
        return {}

    # ---- the program's part --------------------------------------------------------------------

    def countdown(self) -> float | None:
        """Seconds the game's clock runs from the start (the Oni app's countdown), or ``None``."""
        return None

    def time_up(self) -> Any:
        """The table's action when the clock rings (asked only of a game with a :meth:`countdown`)."""
        raise NotImplementedError(f"{self.game.NAME} has no countdown")

    def chance(self, rng: random.Random) -> Any:
        """The roll or draw the program makes for the table (every outcome as likely)."""
        outcomes = self.game.legal_actions(CHANCE)
        return outcomes[rng.randrange(len(outcomes))]

    def bot_action(self, seat: int, seed: int) -> Any:
        """The bot's choice for ``seat``, made on a copy of the game."""
        if self.bot is None:
            raise TypeError(f"{self.game.NAME} declares no bot")
        return self.bot(seed).choose(self.game.clone(), seat)
