"""The DiXe collection as data: symbols, powers, characters and each die's six faces.

Read from ``data/dixe.toml`` (shipped with the package) so that an owner can describe their own
dice. A face is a symbol or a character; ``"?"`` marks a face whose content is not known.
"""

from __future__ import annotations

import dataclasses
import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

UNKNOWN_FACE = "?"


@dataclasses.dataclass(frozen=True)
class Power:
    """A hero's power: ``name`` is the slug used in actions, ``title`` the printed name."""

    name: str
    title: str
    kind: str  # "passive" or "active"

    @property
    def passive(self) -> bool:
        return self.kind == "passive"


@dataclasses.dataclass(frozen=True)
class Collection:
    """Everything the engine needs to know about the dice in play."""

    symbols: tuple[str, ...]
    powers: Mapping[str, Power]
    characters: Mapping[str, str]           # character -> power slug ("" when not known)
    dice: Mapping[str, tuple[str, ...]]     # die name -> its six faces
    decks: Mapping[str, Mapping[str, tuple[str, ...]]]

    def is_character(self, face: str | None) -> bool:
        return face is not None and face in self.characters

    def is_symbol(self, face: str | None) -> bool:
        return face is not None and face in self.symbols

    def power_of(self, face: str | None) -> Power | None:
        """The power a visible face grants, or ``None`` (a symbol, or a character without one)."""
        if face is None:
            return None
        slug = self.characters.get(face, "")
        return self.powers.get(slug) if slug else None

    def memo(self, kind: str) -> dict[Any, Any]:
        """A dict where what is worked out from this collection alone is kept (a collection never
        changes), one per ``kind``; not a field, so not compared, printed or copied by ``replace``."""
        memos: dict[str, dict[Any, Any]] | None = self.__dict__.get("_memos")
        if memos is None:
            memos = {}
            object.__setattr__(self, "_memos", memos)
        memo = memos.get(kind)
        if memo is None:
            memo = memos[kind] = {}
        return memo

    def known_faces(self, die: str) -> tuple[str, ...]:
        """The die's faces whose content is known, in the file's order."""
        memo = self.memo("known_faces")
        faces = memo.get(die)
        if faces is None:
            faces = memo[die] = tuple(f for f in self.dice[die] if f != UNKNOWN_FACE)
        return faces

    def candidate_faces(self, die: str) -> tuple[str, ...]:
        """The die's known faces, then, for each unknown face, a symbol the die is not known to
        carry (in the collection's order): a representative set of what the die can show."""
        memo = self.memo("candidate_faces")
        faces = memo.get(die)
        if faces is None:
            known = self.known_faces(die)
            unknown = self.dice[die].count(UNKNOWN_FACE)
            extra = tuple(s for s in self.symbols if s not in known)[:unknown]
            faces = memo[die] = known + extra
        return faces

    def possible_faces(self, die: str) -> tuple[str, ...]:
        """Every face ``die`` may show: its known faces, then, if any face is not known, every
        symbol it is not known to carry (the choices offered when people confirm a reading)."""
        known = self.known_faces(die)
        if UNKNOWN_FACE in self.dice[die]:
            return known + tuple(s for s in self.symbols if s not in known)
        return known

    def face_allowed(self, die: str, face: str) -> bool:
        """Whether ``face`` can be showing on ``die``: one of its faces, or any symbol where a face
        of the die is not known."""
        faces = self.dice[die]
        return face in faces or (UNKNOWN_FACE in faces and face in self.symbols)

    def with_powers(self, overrides: tuple[tuple[str, str], ...]) -> Collection:
        """A copy where some characters carry the given powers (the game's ``powers`` option)."""
        if not overrides:
            return self
        characters = dict(self.characters)
        for character, power in overrides:
            if character not in characters:
                raise ValueError(f"unknown character {character!r}; known: {', '.join(sorted(characters))}")
            if power and power not in self.powers:
                raise ValueError(f"unknown power {power!r}; known: {', '.join(sorted(self.powers))}")
            characters[character] = power
        return dataclasses.replace(self, characters=characters)


def parse_collection(text: str) -> Collection:
    """A collection from TOML text; ``ValueError`` naming what is wrong."""
    data = tomllib.loads(text)
    try:
        return _collection(data)
    except KeyError as exc:
        raise ValueError(f"the collection lacks {exc.args[0]!r}: it needs [symbols] names, [powers.*] with title and "
                         "kind, [characters], [dice], and decks listing temple, oracles and heroes") from None


def _collection(data: Mapping[str, Any]) -> Collection:
    symbols = tuple(data["symbols"]["names"])
    powers = {
        name: Power(name, str(p["title"]), str(p["kind"])) for name, p in data["powers"].items()
    }
    for p in powers.values():
        if p.kind not in ("passive", "active"):
            raise ValueError(f"power {p.name}: kind must be passive or active, not {p.kind!r}")
    characters = {str(k): str(v) for k, v in data["characters"].items()}
    for name, power in characters.items():
        if power and power not in powers:
            raise ValueError(f"character {name}: unknown power {power!r}")
    dice: dict[str, tuple[str, ...]] = {}
    for name, faces in data["dice"].items():
        faces = tuple(str(f) for f in faces)
        if len(faces) != 6:
            raise ValueError(f"die {name} must list 6 faces, not {len(faces)}")
        for face in faces:
            if face != UNKNOWN_FACE and face not in symbols and face not in characters:
                raise ValueError(f"die {name}: face {face!r} is neither a symbol nor a character")
        dice[name] = faces
    decks = {}
    for name, deck in data.get("decks", {}).items():
        decks[name] = {part: tuple(deck[part]) for part in ("temple", "oracles", "heroes")}
        for part, names in decks[name].items():
            for die in names:
                if die not in dice:
                    raise ValueError(f"deck {name}: {part} lists unknown die {die!r}")
    return Collection(symbols, powers, characters, dice, decks)


@lru_cache(maxsize=1)
def default_collection() -> Collection:
    """The collection shipped in ``controller/engines/puxes/data/dixe.toml``."""
    text = resources.files("controller.engines.puxes").joinpath("data/dixe.toml").read_text(encoding="utf-8")
    return parse_collection(text)
