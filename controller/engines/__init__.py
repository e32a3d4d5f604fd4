"""The shared rules engines: one package per game, and the registry that finds them by name.

Engines are pure rules: they import nothing from the rest of the project and no I/O or hardware
library, so a reader can learn a game from its engine alone.

    >>> from controller.engines import game_names, new_game
    >>> "pixoid" in game_names()
    True
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Mapping

from controller.engines.core import (
    CHANCE,
    Bot,
    EngineError,
    Event,
    Game,
    GameOptions,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    OptionsError,
    RandomBot,
    RuleError,
    SaveFileError,
    play_out,
)

#: The package every game's engine is a subpackage of; each defines one :class:`Game` subclass and
#: registers it with :func:`register` when imported. An engine kept elsewhere registers itself
#: the same way when its module is imported.
ENGINE_PACKAGE = __name__

_GAMES: dict[str, type[Game[Any]]] = {}
_loaded = False


def register(cls: type[Game[Any]]) -> type[Game[Any]]:
    """Class decorator adding a game to the registry under ``cls.NAME``."""
    _GAMES[cls.NAME] = cls
    return cls


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for info in pkgutil.iter_modules(__path__, prefix=f"{ENGINE_PACKAGE}."):
        if info.ispkg:
            importlib.import_module(info.name)
    _loaded = True


def game_names() -> list[str]:
    """The registered games' names, sorted."""
    _load()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game[Any]]:
    """The engine class registered as ``name``; ``KeyError`` with the known names otherwise."""
    _load()
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"no game named {name!r}; known games: {', '.join(sorted(_GAMES)) or 'none'}") from None


def new_game(name: str, options: Mapping[str, Any] | GameOptions | None = None, seed: int = 0) -> Game[Any]:
    """A new game of ``name`` from its options (a mapping or the game's options object) and a seed."""
    return game_class(name)(options, seed=seed)


def load_game(data: Mapping[str, Any] | str) -> Game[Any]:
    """Replay a save file's content (see :meth:`Game.load`)."""
    return Game.load(data)


__all__ = [
    "CHANCE", "Bot", "EngineError", "Event", "Game", "GameOptions", "GameOverError",
    "IllegalActionError", "NotYourTurnError", "OptionsError", "RandomBot", "RuleError",
    "SaveFileError", "game_class", "game_names", "load_game", "new_game", "play_out", "register",
]
