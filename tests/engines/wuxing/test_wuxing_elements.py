"""The five elements and their two relations, as the rulebook's Wuxing tile draws them
(rules/wuxing-duel.fr.md and the cycles recovered in rules/README.md)."""

from __future__ import annotations

import pytest

from controller.engines.wuxing.elements import (
    ARROW,
    BLUE,
    DOMINATES,
    EARTH,
    ELEMENTS,
    ENGENDERS,
    FIRE,
    METAL,
    RED,
    WATER,
    WOOD,
    beats,
    element,
    link,
)


def test_domination_is_the_blue_arrow_wood_earth_water_fire_metal() -> None:
    """"La domination est représentée par une flèche bleue": Wood -> Earth -> Water -> Fire -> Metal -> Wood."""
    assert DOMINATES == {WOOD: EARTH, EARTH: WATER, WATER: FIRE, FIRE: METAL, METAL: WOOD}
    assert all(ARROW[a][b] == BLUE for a, b in DOMINATES.items())


def test_engendering_is_the_red_arrow_wood_fire_earth_metal_water() -> None:
    """"l'engendrement est symbolisé par une flèche rouge": Wood -> Fire -> Earth -> Metal -> Water -> Wood."""
    assert ENGENDERS == {WOOD: FIRE, FIRE: EARTH, EARTH: METAL, METAL: WATER, WATER: WOOD}
    assert all(ARROW[a][b] == RED for a, b in ENGENDERS.items())


def test_each_element_dominates_or_engenders_two_and_is_dominated_or_engendered_by_two() -> None:
    """"Chaque élément domine ou engendre deux éléments et est lui-même dominé ou engendré par deux
    autres éléments.\""""
    for a in ELEMENTS:
        assert sum(beats(a, b) for b in ELEMENTS) == 2
        assert sum(beats(b, a) for b in ELEMENTS) == 2
        assert not beats(a, a)
        for b in ELEMENTS:
            if a != b:
                assert beats(a, b) != beats(b, a), "exactly one arrow joins two elements"
                assert link(a, b) == link(b, a) in (BLUE, RED)
    assert link(WOOD, WOOD) is None


@pytest.mark.parametrize("name,expected", [("wood", WOOD), ("Feu", FIRE), ("ea", EARTH), ("Métal", METAL),
                                           ("METAL", METAL), ("Eau", WATER), ("Wa", WATER)])
def test_elements_are_read_by_english_or_french_name_or_code(name: str, expected: int) -> None:
    assert element(name) == expected


def test_an_unknown_element_is_refused_naming_the_elements() -> None:
    with pytest.raises(ValueError, match="is not an element; the elements are wood"):
        element("aether")
