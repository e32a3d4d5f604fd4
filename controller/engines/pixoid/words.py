"""How Pixoid names its players, pieces and moves, in the players' words.

Every name is a message (:func:`controller.i18n.message`) so that each reader hears it in their own
language. A player is named by name and colour, "Ada (red)" / "Ada (rouge)", or by colour alone
when the game has no names (a bare engine), "Red" / "Rouge": "Chaque joueur choisit une couleur". A
piece is "Pixoid", or a Bug by its colour, "the blue Bug" / "le Bug bleu". A whole phrase is marked
for each colour rather than a colour word slotted in, so that French agrees each one as it should.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from controller.i18n import N_, gettext, listing, message

Message = Mapping[str, Any]

#: The colours of the controllers and cubes of pieces 0 to 3, as on the boxes; seat ``i`` plays
#: piece ``i``, so it is also the colour of seat ``i``.
COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")

_NAMED = (N_("{name} (red)"), N_("{name} (blue)"), N_("{name} (green)"), N_("{name} (yellow)"))
_UNNAMED = (N_("Red"), N_("Blue"), N_("Green"), N_("Yellow"))
_BUGS = (N_("the red Bug"), N_("the blue Bug"), N_("the green Bug"), N_("the yellow Bug"))
#: A program: how far and which way ("3 Pix up" / "3 Pix vers le haut").
_MOVES = {
    "up": N_("{distance} Pix up"),
    "right": N_("{distance} Pix right"),
    "down": N_("{distance} Pix down"),
    "left": N_("{distance} Pix left"),
}


def player(seat: int, names: Sequence[str] = (), seats: int = len(COLOURS)) -> Message:
    """Seat ``seat`` of ``seats`` by name and colour ("Ada (red)"), or by colour alone without a name
    ("Red"); a seat the table does not have is "an unknown player (7)"."""
    if type(seat) is not int or not 0 <= seat < min(seats, len(COLOURS)):
        return message(N_("an unknown player ({number})"), number=seat)
    name = names[seat].strip() if seat < len(names) else ""
    return message(_NAMED[seat], name=name) if name else message(_UNNAMED[seat])


def piece(number: Any, pixoid: int) -> Message:
    """Piece ``number``: "Pixoid" for the Pixoid of this round, else its Bug by colour."""
    if type(number) is not int or not 0 <= number < len(COLOURS):
        return message(N_("an unknown piece ({given})"), given=repr(number))
    return message(N_("Pixoid")) if number == pixoid else message(_BUGS[number])


def pieces(numbers: Iterable[int], pixoid: int) -> Message:
    """Several pieces as a natural list ("the blue Bug and the yellow Bug")."""
    return listing(piece(number, pixoid) for number in numbers)


def program(direction: str, distance: int) -> Message:
    """A program as people say it: "3 Pix up"."""
    return message(_MOVES[direction], distance=distance)


def points(count: int) -> Message:
    """A number of victory points: "no points", "1 point", "7 points"."""
    if count == 0:
        return message(N_("no points"))
    return message(N_("1 point")) if count == 1 else message(N_("{count} points"), count=count)


def mark(number: int, pixoid: int, lang: str | None = None) -> str:
    """The letter a piece is drawn as on the text board: its colour's initial in ``lang``,
    upper case for Pixoid ("R"), lower case for a Bug ("b")."""
    initial = gettext(_UNNAMED[number], lang)[:1]
    return initial.upper() if number == pixoid else initial.lower()
