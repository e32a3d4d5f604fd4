"""What the table camera knows of each DiXe: which faces it carries and which face hides under which.

Every DiXe is different, so the camera keeps a layout per die, learnt from three sources, the later
overriding the earlier:

1. the dice data the engine plays with (``controller/engines/memodixe/data/memodixe.toml``);
2. ``bitbox calibrate faces``: the faces a die was shown with (``faces/DIE/FACE.png``); a face the data
   does not give that die is noted, so that the data can be corrected;
3. every flip the camera sees during play: the face that was up and the face the flip showed are
   opposite on that die. These pairs are kept in ``state_dir()/memodixe-layouts.json`` and used in
   every later game.

A layout is a secret-keeper: with a die's identity and its top face it gives the hidden face, so it
never leaves the referee (no view, page or log carries it).

    >>> from controller.engines.memodixe import default_book
    >>> layouts = FaceLayouts.from_book(default_book())
    >>> layouts.opposite("Oni", "Oni")
    'tete-de-mort'
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from controller import paths
from controller.engines.memodixe import DiceBook

#: Where the pairs seen during play are kept between games.
LEARNT_FILE = "memodixe-layouts.json"


def slug(name: str) -> str:
    """A face or die name as the face library writes it: lower case, no accents, dashes for spaces."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return "-".join(plain.lower().replace("_", "-").split())


class FaceLayouts:
    """Per die name: its faces and, for each face, the face opposite it (as far as known)."""

    def __init__(self, book: DiceBook) -> None:
        self.book = book
        self.faces: dict[str, set[str]] = {die: set(faces) for die, faces in book.dice.items()}
        self.opposites: dict[str, dict[str, str]] = {die: dict(pairs) for die, pairs in book.opposites.items()}
        #: Pairs confirmed by a flip the camera saw: (die, face) -> opposite.
        self.seen: dict[tuple[str, str], str] = {}
        #: What the camera learnt that the dice data contradicts, as (die, face, opposite, the data's).
        self.disagreements: list[tuple[str, str, str, str | None]] = []
        self._by_slug = {slug(f): f for f in (*book.symbols, *book.characters)}
        self._dice_by_slug = {slug(d): d for d in book.dice}

    @classmethod
    def from_book(cls, book: DiceBook) -> FaceLayouts:
        return cls(book)

    # ---- names ---------------------------------------------------------------------------------

    def face_name(self, library_name: str) -> str | None:
        """The book's name for a face the library stores as ``library_name`` (``crane-yorick`` ->
        ``Crâne Yorick``), or ``None`` for a face the game does not know."""
        return self._by_slug.get(library_name) or (library_name if library_name in self._by_slug.values() else None)

    def kind(self, face: str) -> str:
        """The kind a face pairs as (a symbol, or the characters' kind)."""
        return self.book.kind(face)

    # ---- what the camera knows ----------------------------------------------------------------

    def opposite(self, die: str, face: str) -> str | None:
        """The face hidden under ``face`` on ``die``, or ``None`` when the die is not known to carry it."""
        return self.opposites.get(die, {}).get(face)

    def carries(self, die: str, face: str) -> bool:
        return face in self.faces.get(die, ())

    def face_of_kind(self, die: str, kind: str) -> str | None:
        """The face of ``kind`` that ``die`` carries (a die carries each kind at most once)."""
        for face in self.faces.get(die, ()):
            if self.kind(face) == kind:
                return face
        return None

    def learn_flip(self, die: str, up: str, under: str) -> bool:
        """A flip showed ``under`` beneath ``up`` on ``die``: keep the pair. Returns whether it was news
        (a pair the layout did not hold); a pair contradicting the dice data is noted in
        :attr:`disagreements` and wins, since the camera saw it."""
        known = self.opposite(die, up)
        self.seen[(die, up)] = under
        self.seen[(die, under)] = up
        if known == under:
            return False
        self.disagreements.append((die, up, under, known))
        table = self.opposites.setdefault(die, {})
        for face in (up, under, known, table.get(under)):
            if face is not None:
                table.pop(face, None)
        table[up], table[under] = under, up
        self.faces.setdefault(die, set()).update((up, under))
        return True

    def teach(self, taught: Mapping[str, Iterable[str]]) -> list[str]:
        """Faces taught with ``bitbox calibrate faces`` (library die name -> library face names): each
        die's faces are added to what it carries. Returns notes on faces the dice data does not give
        that die (the data or the teaching needs a look)."""
        notes = []
        for die_slug, names in taught.items():
            die = self._dice_by_slug.get(die_slug)
            if die is None:
                continue
            for name in names:
                face = self.face_name(name)
                if face is None:
                    continue
                if face not in self.faces.setdefault(die, set()):
                    notes.append(f"die {die}: face {face} was taught but the dice data does not give it")
                    self.faces[die].add(face)
        return notes

    # ---- kept between games --------------------------------------------------------------------

    def save(self, path: Path | None = None) -> Path:
        """Write the pairs seen during play (atomically: a power cut leaves the old file or the new)."""
        path = path or paths.state_dir() / LEARNT_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"seen": sorted([die, up, under] for (die, up), under in self.seen.items())}
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
        return path

    def load_seen(self, path: Path | None = None) -> int:
        """Apply the pairs kept by :meth:`save`; returns how many. A missing file is no pairs; a damaged
        one raises ``ValueError`` naming the file to delete."""
        path = path or paths.state_dir() / LEARNT_FILE
        if not path.exists():
            return 0
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
            entries = [(str(d), str(u), str(b)) for d, u, b in data["seen"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path} is damaged ({exc}); delete it: the camera learns the dice again") from None
        for die, up, under in entries:
            if die in self.book.dice and self.seen.get((die, up)) != under:
                self.learn_flip(die, up, under)
        return len(entries)


def table_layouts(book: DiceBook, library: Any = None) -> tuple[FaceLayouts, list[str]]:
    """The layouts the table plays with: the dice data, the faces taught (``library``, default: the
    stored face library) and the pairs seen in earlier games; with the notes on taught faces."""
    if library is None:
        from controller.vision.faces import FaceLibrary

        library = FaceLibrary.load()
    layouts = FaceLayouts.from_book(book)
    notes = layouts.teach(taught_faces(library))
    layouts.load_seen()
    return layouts, notes


def taught_faces(library: Any) -> dict[str, list[str]]:
    """The face library's dice and faces (library names), as :meth:`FaceLayouts.teach` takes them."""
    out: dict[str, list[str]] = {}
    for ref in getattr(library, "references", ()):
        out.setdefault(ref.die, []).append(ref.face)
    return out
