"""Oni contre tous: the app's levels and its deck of effects and prompts.

After each player's second flip the app shows one card: one of the 22 effects, "Oni !" (Oni plays a
turn now) or "Joue !" (no effect). The rulebook gives the card-deck equivalent of each level: 17, 36
and 53 cards, made of level-1 cards, then level-1 and 2, then all three. Its prompt pages come in
three runs of 3 "Oni !" and 7, 8 and 7 "Joue !" (10 + 11 + 10 = 31 prompts), and 17 - 10 = 7,
36 - 21 = 15 and 53 - 31 = 22 match the levels' effect counts, so each level adds those prompts and
the next effects in the rulebook's order (the cards' level marks were lost: ruling in
docs/rulings/memodixe.md). The engine draws from this deck with its seeded generator, without
replacement like the cards, reshuffling when it is empty.

What each effect does on the table is mostly physical (spin round, stay silent, balance a die on the
head); the engine announces it, keeps the lasting ones in force, and models those that change the
square (see :data:`SQUARE_EFFECTS`). A failed gage is reported by the app as a
:class:`~controller.engines.memodixe.actions.Penalty`.
"""

from __future__ import annotations

#: The 22 effects, in the rulebook's order (ids; the texts are in ``words.EFFECT_TEXTS``).
EFFECTS: tuple[str, ...] = (
    "vol-milieu", "tourne", "osselets", "chut", "oni-relance", "monocle", "oni-reprend",
    "sur-la-tete", "touche-pas", "check", "tourelle", "lance", "tape", "oni-triche", "oni-melange",
    "cache", "oni-retourne", "de-cote", "symbole-roi", "sapristix", "vive-les", "tactile",
)
ONI_PROMPT = "oni"
PLAY_PROMPT = "joue"

#: Per level: effects used (the first N of :data:`EFFECTS`), "Oni !" and "Joue !" prompts, countdown in seconds.
LEVELS: dict[str, tuple[int, int, int, int]] = {
    "easy": (7, 3, 7, 400),      # "Niveau facile : 7 effets, 6min 40s", 17 cards
    "normal": (15, 6, 15, 300),  # "Niveau normal : 15 effets, 5min", 36 cards
    "hard": (22, 9, 22, 200),    # "Niveau difficile : 22 effets, 3min 20s", 53 cards
}

#: Effects lasting until the drawer's next turn ("jusqu'au début de ton prochain tour"), and the
#: one-shot gages whose failure costs a die (kept in force until then too).
UNTIL_NEXT_TURN: frozenset[str] = frozenset({
    "tourne", "chut", "monocle", "touche-pas", "check", "sur-la-tete", "lance", "tape", "cache",
})
#: Effects lasting until the end of the game ("Jusqu'à la fin de la partie").
UNTIL_END: frozenset[str] = frozenset({"sapristix", "vive-les"})
#: Effects whose failure the app reports as a Penalty: "Oni relance un DiXe gagné dans le carré".
WITH_PENALTY: frozenset[str] = frozenset(UNTIL_NEXT_TURN | {"sapristix"})
#: Effects the engine carries out on the square (the others are announced only).
SQUARE_EFFECTS: frozenset[str] = frozenset({
    "vol-milieu", "oni-relance", "oni-reprend", "oni-triche", "oni-melange", "oni-retourne", "de-cote",
})


def deck(level: str) -> list[str]:
    """The cards of ``level``, unshuffled: effects, then "Oni !" prompts, then "Joue !" prompts."""
    effects, oni, play, _seconds = LEVELS[level]
    return [*EFFECTS[:effects], *[ONI_PROMPT] * oni, *[PLAY_PROMPT] * play]


def countdown_seconds(level: str) -> int:
    """The level's countdown (the service's business: the engine has no clock)."""
    return LEVELS[level][3]
