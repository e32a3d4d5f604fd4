"""The five elements (wu xing) and their two relations, as data.

The rulebook's Wuxing tile ("la tuile Wuxing") draws two kinds of arrow between the elements:

* domination ("la domination est représentée par une flèche bleue"): Wood -> Earth -> Water ->
  Fire -> Metal -> Wood;
* engendering ("l'engendrement est symbolisé par une flèche rouge"): Wood -> Fire -> Earth ->
  Metal -> Water -> Wood.

"Chaque élément domine ou engendre deux éléments et est lui-même dominé ou engendré par deux
autres": any two different elements are joined by exactly one arrow, blue or red, pointing one
way. Elements are numbered along the engendering cycle, so element ``e`` engenders ``e + 1`` and
dominates ``e + 2`` (modulo 5); the tables below are built from the two cycles as written, and the
tests check they say the same.

    >>> ELEMENT_NAMES[WOOD], ELEMENT_NAMES[dominated_by(WOOD)]
    ('wood', 'earth')
    >>> link(METAL, WOOD), link(EARTH, METAL)
    ('blue', 'red')
"""

from __future__ import annotations

from typing import Literal

#: The elements, numbered along the engendering cycle (the order the number wheel counts them, 1 to 5).
WOOD, FIRE, EARTH, METAL, WATER = range(5)
ELEMENTS: tuple[int, ...] = (WOOD, FIRE, EARTH, METAL, WATER)
#: Language-neutral keys (message arguments, save files, options); words.py turns them into words.
ELEMENT_NAMES: tuple[str, ...] = ("wood", "fire", "earth", "metal", "water")
#: The French names printed on the cards and the tiles.
FRENCH_NAMES: tuple[str, ...] = ("Bois", "Feu", "Terre", "Métal", "Eau")
#: Two letters per element, for layouts typed on one line and for the text board.
CODES: tuple[str, ...] = ("Wo", "Fi", "Ea", "Me", "Wa")

Colour = Literal["blue", "red"]
BLUE: Colour = "blue"
RED: Colour = "red"
COLOURS: tuple[Colour, Colour] = (BLUE, RED)

#: The blue arrows, as the tile shows them: each element followed by the one it dominates.
DOMINATION_CYCLE: tuple[int, ...] = (WOOD, EARTH, WATER, FIRE, METAL)
#: The red arrows: each element followed by the one it engenders.
ENGENDERING_CYCLE: tuple[int, ...] = (WOOD, FIRE, EARTH, METAL, WATER)


def _arrows(cycle: tuple[int, ...]) -> dict[int, int]:
    return {cycle[i]: cycle[(i + 1) % len(cycle)] for i in range(len(cycle))}


#: ``DOMINATES[a]``: the element ``a`` dominates (blue arrow out of ``a``).
DOMINATES: dict[int, int] = _arrows(DOMINATION_CYCLE)
#: ``ENGENDERS[a]``: the element ``a`` engenders (red arrow out of ``a``).
ENGENDERS: dict[int, int] = _arrows(ENGENDERING_CYCLE)

#: ``ARROW[a][b]``: the colour of the arrow from ``a`` to ``b``, or ``None`` (no arrow that way).
ARROW: tuple[tuple[Colour | None, ...], ...] = tuple(
    tuple(BLUE if DOMINATES[a] == b else RED if ENGENDERS[a] == b else None for b in ELEMENTS) for a in ELEMENTS
)


def element(name: str) -> int:
    """An element from its key, English or French name, or two-letter code (any case).

    >>> element("Métal"), element("wa"), element("Fire")
    (3, 4, 1)
    """
    key = name.strip().lower()
    for table in (ELEMENT_NAMES, FRENCH_NAMES, CODES):
        for index, word in enumerate(table):
            if key == word.lower():
                return index
    if key == "metal":
        return METAL
    raise ValueError(f"{name!r} is not an element; the elements are "
                     + ", ".join(f"{n} ({c})" for n, c in zip(ELEMENT_NAMES, CODES)))


def dominated_by(a: int) -> int:
    """The element ``a`` dominates."""
    return DOMINATES[a]


def engendered_by(a: int) -> int:
    """The element ``a`` engenders."""
    return ENGENDERS[a]


def beats(a: int, b: int) -> bool:
    """Whether ``a`` dominates or engenders ``b`` ("si un élément domine ou engendre l'autre élément")."""
    return ARROW[a][b] is not None


def link(a: int, b: int) -> Colour | None:
    """The colour of the arrow joining ``a`` and ``b`` whichever way it points ("la couleur bleue ou
    rouge, liant les deux éléments"); ``None`` for one element with itself."""
    return ARROW[a][b] or ARROW[b][a]
