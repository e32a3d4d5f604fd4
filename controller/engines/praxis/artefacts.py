"""The artefacts: the 14 collectible kinds (107 tiles) and the portals, read from ``data/artefacts.csv``.

Each kind has a small number (the engine's board stores it in a cell), a key used in actions,
events and saves (``"plus-one"``), the rulebook's French name ("Plus un"), an English name, a
two-character code for the drawn board, how many the box holds and its value in points
("Chaque artefact affiche sa valeur dans un coin").

    >>> ARTEFACTS[KIND["torpedo"]].french
    'Torpille quantique'
    >>> sum(a.count for a in ARTEFACTS[1:] if a.key != "portal")
    107
"""

from __future__ import annotations

import csv
import dataclasses
import io
from importlib import resources

#: The kinds' numbers, fixed by the data file and used as cell contents on the board.
PLUS_ONE, PLUS_TWO, PLUS_THREE, MINUS_ONE, MINUS_TWO, MINUS_THREE = 1, 2, 3, 4, 5, 6
MUTATION, TORPEDO, MINES, SCANNER, SHIPYARD, VIRUS, TELEPORTER, BLACK_STAR = 7, 8, 9, 10, 11, 12, 13, 14
PORTAL = 15

#: The change of face each of the six "Plus"/"Moins" artefacts makes.
FACE_CHANGE: dict[int, int] = {
    PLUS_ONE: 1, PLUS_TWO: 2, PLUS_THREE: 3, MINUS_ONE: -1, MINUS_TWO: -2, MINUS_THREE: -3,
}


@dataclasses.dataclass(frozen=True)
class Artefact:
    """One kind of artefact as the box describes it."""

    id: int
    key: str
    french: str
    english: str
    code: str
    count: int
    value: int


def _read() -> tuple[Artefact, ...]:
    text = resources.files(__package__).joinpath("data/artefacts.csv").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line and not line.startswith("#")]
    kinds = [
        Artefact(int(r["id"]), r["key"], r["french"], r["english"], r["code"], int(r["count"]), int(r["value"]))
        for r in csv.DictReader(io.StringIO("\n".join(rows)))
    ]
    kinds.sort(key=lambda a: a.id)
    if [a.id for a in kinds] != list(range(1, PORTAL + 1)) or kinds[PORTAL - 1].key != "portal":
        raise ValueError("data/artefacts.csv must list the kinds 1 to 15, the portal last")
    return tuple(kinds)


_KINDS = _read()
#: ``ARTEFACTS[id]`` is the kind numbered ``id`` (index 0 is unused: an empty cell).
ARTEFACTS: tuple[Artefact | None, ...] = (None, *_KINDS)
#: A key (``"plus-one"``) to its kind number.
KIND: dict[str, int] = {a.key: a.id for a in _KINDS}
#: Kind number to key, value and board code, as plain tuples for the hot paths.
KEYS: tuple[str, ...] = ("",) + tuple(a.key for a in _KINDS)
VALUES: tuple[int, ...] = (0,) + tuple(a.value for a in _KINDS)
CODES: tuple[str, ...] = ("..",) + tuple(a.code for a in _KINDS)
#: The collectible kinds (every kind but the portal), in number order.
COLLECTIBLE: tuple[int, ...] = tuple(a.id for a in _KINDS if a.id != PORTAL)
#: The draw pile of a new game, before shuffling: every collectible tile of the box.
BOX: tuple[int, ...] = tuple(a.id for a in _KINDS if a.id != PORTAL for _ in range(a.count))
#: The portals in the box ("3 portails").
PORTALS_IN_BOX = ARTEFACTS[PORTAL].count  # type: ignore[union-attr]
