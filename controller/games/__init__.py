"""The game registry: every game the service can run, each declared once in its own package.

A game's package (``controller/games/NAME/``) holds its :class:`~controller.games.spec.GameSpec`
as ``GAME``, how it is played on the wheels or refereed from the camera, its demo and its
dashboard view; its rules live in ``controller/engines/NAME/``. :data:`GAME_MODULES` lists the
packages, one line each: the only place in the project that names every game. The service, the
command line, the dashboard and the conformance suite loop over :func:`games`.

Games kept outside the project (a club's own game, a game under test) are added with the
``BITBOX_GAMES`` environment variable, a comma-separated list of modules that define ``GAME``,
or in a running program with :func:`register`. docs/adding-a-game.md walks through it.

    >>> from controller.games import game, game_names
    >>> game_names()[:2]
    ['pixoid', 'puxes']
    >>> game("pixoid").title
    'Pixoid'
"""

from __future__ import annotations

import importlib
import os

from controller.games.spec import CliOption, DemoRequest, GameSpec, SpecError, load_attr

#: The games' packages, in the order menus list them: one line per game.
GAME_MODULES: tuple[str, ...] = (
    "controller.games.pixoid",
    "controller.games.puxes",
    "controller.games.wuxing",
    "controller.games.praxis",
    "controller.games.memodixe",
)

#: Environment variable listing more game modules (comma-separated), loaded after the built-in ones.
EXTRA_GAMES_ENV = "BITBOX_GAMES"

_GAMES: dict[str, GameSpec] = {}
_loaded = False


class UnknownGameError(LookupError):
    """No game of that name is registered; the message lists the ones that are."""


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` to the registry (replacing a game of the same name); returns it."""
    if not isinstance(spec, GameSpec):
        raise SpecError(f"register() takes a GameSpec, not {type(spec).__name__}")
    _GAMES[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game registered with :func:`register` (tests that add one take it away again)."""
    _GAMES.pop(name, None)


def _modules() -> list[str]:
    extra = [m.strip() for m in os.environ.get(EXTRA_GAMES_ENV, "").split(",") if m.strip()]
    return [*GAME_MODULES, *extra]


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name or name in GAME_MODULES:
                raise
            raise SpecError(f"{EXTRA_GAMES_ENV} names the module {name!r}, which cannot be imported; "
                            f"check the name and that its folder is on PYTHONPATH") from None
        spec = getattr(module, "GAME", None)
        if not isinstance(spec, GameSpec):
            raise SpecError(f"the game module {name} must define GAME = GameSpec(...)")
        register(spec)
    _loaded = True


def games() -> list[GameSpec]:
    """Every registered game, built-in ones first in :data:`GAME_MODULES` order."""
    _load()
    return list(_GAMES.values())


def game_names() -> list[str]:
    """The registered games' names, in menu order."""
    return [spec.name for spec in games()]


def game(name: str) -> GameSpec:
    """The game registered as ``name``; :class:`UnknownGameError` naming the known ones otherwise."""
    _load()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(_GAMES) or "none"
        raise UnknownGameError(f"there is no game called {name!r}; the games are: {known}") from None


def playable_on(mode: str) -> list[GameSpec]:
    """The games whose players can give their moves this way (``"wheels"``, ``"camera"``)."""
    return [spec for spec in games() if spec.plays_on(mode)]


def default_mat() -> str:
    """The mat a camera command uses when none is named: the first camera game's."""
    mats = [spec.mat for spec in playable_on("camera") if spec.mat]
    if not mats:
        raise SpecError("no registered game is played with the camera, so there is no mat to default to; "
                        "name one with --layout")
    return mats[0]


__all__ = [
    "EXTRA_GAMES_ENV", "GAME_MODULES", "CliOption", "DemoRequest", "GameSpec", "SpecError", "UnknownGameError",
    "default_mat", "game", "game_names", "games", "load_attr", "playable_on", "register", "unregister",
]
