"""MémoDiXe's dice and symbol powers as data: ``data/memodixe.toml``, read once.

A DiXe lies on the square with one face up and hides the opposite one; flipping it shows the hidden
face. So a die is described by its three pairs of opposite faces. Faces pair by *kind*: a symbol is
its own kind, every character face is of the one kind "personnage". Each kind triggers one of the ten
powers; that table is data (the rulebook's icons were lost) and a game may override it.

    >>> book = default_book()
    >>> book.opposite("Oni", "Oni"), book.kind("Hanuman"), book.powers["soleil"]
    ('tete-de-mort', 'personnage', 'steal')
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

from controller import i18n
from controller.i18n import N_

#: The ten powers, in the rulebook's order (see ``words.POWER_TEXTS`` for what they say).
POWERS: tuple[str, ...] = ("again", "peek", "share", "swap", "steal", "aside", "reroll", "bomb", "skull", "retry")


class BookError(ValueError):
    """The dice data (or a ``powers``/``dice`` option) is inconsistent; the message says where (an
    option's fault in the process's language, the data file's in English, for whoever edits it)."""


@dataclasses.dataclass(frozen=True)
class DiceBook:
    """Everything the engine knows about the dice: kinds, the power table, each die's faces."""

    symbols: tuple[str, ...]
    characters: tuple[str, ...]
    character_kind: str
    bomb_face: str
    skull_face: str
    powers: Mapping[str, str]                      # kind -> power
    dice: Mapping[str, tuple[str, ...]]            # die name -> its six faces (pairs flattened)
    opposites: Mapping[str, Mapping[str, str]]     # die name -> face -> opposite face
    default_set: tuple[str, ...]

    @property
    def kinds(self) -> tuple[str, ...]:
        """The ten kinds that pair: the symbols, then the characters' kind."""
        return self.symbols + (self.character_kind,)

    def kind(self, face: str) -> str:
        """The kind a face pairs as: the symbol itself, or "personnage" for a character."""
        return self.character_kind if face in self.characters else face

    def opposite(self, die: str, face: str) -> str:
        """The face hidden under ``face`` on die ``die``."""
        return self.opposites[die][face]

    def power_of(self, kind: str) -> str:
        return self.powers[kind]

    def with_powers(self, overrides: Iterable[Any]) -> DiceBook:
        """A copy with some kinds triggering other powers (the game's ``powers`` option:
        ``[[kind, power], ...]``); :class:`BookError` naming a bad kind or power."""
        table = dict(self.powers)
        for entry in overrides:
            if not isinstance(entry, (tuple, list)) or len(entry) != 2:
                raise BookError(i18n.say(N_("each powers entry is [kind, power], not {entry}"), entry=repr(entry)))
            kind, power = entry
            if kind not in self.kinds:
                raise BookError(i18n.say(N_("unknown kind {kind}; the kinds are {kinds}"), kind=repr(kind),
                                         kinds=", ".join(self.kinds)))
            if power not in POWERS:
                raise BookError(i18n.say(N_("unknown power {power} for {kind}; the powers are {powers}"),
                                         power=repr(power), kind=kind, powers=", ".join(POWERS)))
            table[kind] = power
        return dataclasses.replace(self, powers=table)

    def dice_set(self, names: Iterable[str], count: int) -> tuple[str, ...]:
        """``count`` die names: ``names`` (the ``dice`` option) or the default set repeated."""
        names = tuple(names)
        if not names:
            base = self.default_set
            return tuple(base[i % len(base)] for i in range(count))
        unknown = [n for n in names if n not in self.dice]
        if unknown:
            raise BookError(i18n.say(N_("unknown die {die}; the dice are {dice}"), die=repr(unknown[0]),
                                     dice=", ".join(self.dice)))
        if len(names) != count:
            raise BookError(i18n.say(N_("the dice option lists {listed} dice; this game needs {count} (9 for the "
                                        "square, then one per player for the reserve)"), listed=len(names),
                                     count=count))
        return names


def parse_book(text: str) -> DiceBook:
    """A :class:`DiceBook` from TOML text; :class:`BookError` naming what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BookError(f"the dice data is not valid TOML: {exc}") from None
    try:
        return _book(data)
    except KeyError as exc:
        raise BookError(f"the dice data lacks {exc.args[0]!r}: it needs [symbols] names, characters and "
                        "character_kind, [checks] bomb and skull, [powers], [dice] and [sets] default") from None


def _book(data: Mapping[str, Any]) -> DiceBook:
    symbols = tuple(str(s) for s in data["symbols"]["names"])
    characters = tuple(str(c) for c in data["symbols"]["characters"])
    character_kind = str(data["symbols"]["character_kind"])
    kinds = symbols + (character_kind,)
    faces_known = set(symbols) | set(characters)
    powers = {str(k): str(v) for k, v in data["powers"].items()}
    for kind, power in powers.items():
        if kind not in kinds:
            raise BookError(f"[powers] names {kind!r}, which is not a kind ({', '.join(kinds)})")
        if power not in POWERS:
            raise BookError(f"[powers] {kind} = {power!r} is not a power ({', '.join(POWERS)})")
    missing = [k for k in kinds if k not in powers]
    if missing:
        raise BookError(f"[powers] gives no power to {', '.join(missing)}")
    dice: dict[str, tuple[str, ...]] = {}
    opposites: dict[str, dict[str, str]] = {}
    for name, pairs in data["dice"].items():
        if len(pairs) != 3 or any(len(p) != 2 for p in pairs):
            raise BookError(f"die {name}: give its faces as three pairs of opposite faces")
        faces = tuple(str(f) for pair in pairs for f in pair)
        if len(set(faces)) != 6:
            raise BookError(f"die {name}: its six faces must differ (a roll names the face that lands up)")
        for face in faces:
            if face not in faces_known:
                raise BookError(f"die {name}: face {face!r} is neither a symbol nor a character")
        dice[name] = faces
        opposites[name] = {a: b for a, b in pairs} | {b: a for a, b in pairs}
    for check in ("bomb", "skull"):
        if data["checks"][check] not in symbols:
            raise BookError(f"[checks] {check} must be a symbol, not {data['checks'][check]!r}")
    default_set = tuple(data["sets"]["default"])
    for name in default_set:
        if name not in dice:
            raise BookError(f"[sets] default lists unknown die {name!r}")
    return DiceBook(symbols, characters, character_kind, str(data["checks"]["bomb"]), str(data["checks"]["skull"]),
                    powers, dice, opposites, default_set)


@lru_cache(maxsize=1)
def default_book() -> DiceBook:
    """The book shipped in ``controller/engines/memodixe/data/memodixe.toml``."""
    text = resources.files("controller.engines.memodixe").joinpath("data/memodixe.toml").read_text(encoding="utf-8")
    return parse_book(text)
