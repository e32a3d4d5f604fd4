"""MémoDiXe on phones: the faces' and the app's cards' names for the pages that draw the square."""

from __future__ import annotations

from typing import Any

from controller.engines.memodixe import words
from controller.engines.memodixe.actions import TimeUp
from controller.engines.memodixe.effects import countdown_seconds
from controller.engines.memodixe.game import ONI
from controller.games.choices import ChoicePlay


class MemodixeChoices(ChoicePlay):
    """The default choices, with the words for every face and card the pages may have to show, and
    in « Oni contre tous » the app's countdown, kept by the server: when it rings, Oni wins."""

    def countdown(self) -> float | None:
        options = self.game.options
        return float(countdown_seconds(options.level)) if options.mode == ONI else None

    def time_up(self) -> Any:
        return TimeUp()

    def public(self) -> dict[str, Any]:
        return {"faces": {key: words.face(key) for key in words.FACE_NAMES},
                "cards": {key: title for key, (title, _effect) in words.EFFECT_TEXTS.items()}}
