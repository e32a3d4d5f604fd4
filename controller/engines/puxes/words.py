"""How PuXes names its players and its dice, in the players' words.

Every name is a message (:func:`controller.i18n.message`) so that each reader hears it in their own
language. A player is named by name and colour, "Ada (red)" / "Ada (rouge)", or by colour alone
when the game has no names (a bare engine, a replayed save), "Red" / "Rouge". Dice are named as the
people at the table see them, never by an engine number:

- an oracle by the face it shows and its owner, "the sun oracle of Ada (red)" / "l'oracle soleil
  de Ada (rouge)", or "their sun oracle" in a sentence about its owner;
- a hero by the character its die carries, "the Kaeru hero of Ada (red)";
- a temple by its owner, "the temple of Ada (red)" ("the first temple of ..." with two each).

A symbol is said in the reader's language ("sun" / "soleil"); a character is a name and stays as
it is. Each phrase is marked whole, once starting a sentence and once inside one, so that each
language words and capitalises it as it should.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from controller.i18n import N_, listing, message

if TYPE_CHECKING:
    from controller.engines.puxes.game import PuxesGame

Message = Mapping[str, Any]

#: The colours of seats 0 to 3, as the table service draws them (red, blue, green, yellow).
COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")

_NAMED = (N_("{name} (red)"), N_("{name} (blue)"), N_("{name} (green)"), N_("{name} (yellow)"))
_UNNAMED = (N_("Red"), N_("Blue"), N_("Green"), N_("Yellow"))

#: The symbols of the collection file in the readers' words; a symbol an owner adds to the file is
#: said as it is written there.
SYMBOLS: Mapping[str, str] = {
    "pirate": N_("pirate"), "smiley": N_("smiley"), "soleil": N_("sun"), "bombe": N_("bomb"),
    "yin-yang": N_("yin-yang"), "sablier": N_("hourglass"), "tete-de-mort": N_("skull"), "pi": N_("pi"),
    "aum": N_("aum"),
}


def player(seat: int, names: Sequence[str] = ()) -> Message:
    """Seat ``seat`` by name and colour ("Ada (red)"), or by colour alone without a name ("Red")."""
    if not 0 <= seat < len(COLOURS):
        return message(N_("the table"))
    name = names[seat].strip() if seat < len(names) else ""
    return message(_NAMED[seat], name=name) if name else message(_UNNAMED[seat])


def players(seats: Iterable[int], names: Sequence[str] = ()) -> Message:
    """Several seats as a natural list ("Ada (red), Brice (blue) and Chloé (green)")."""
    return listing(player(seat, names) for seat in seats)


def face(name: str | None) -> Any:
    """A face as the reader says it: a symbol translated, a character's name as it is."""
    if name is None or name == "?":
        return message(N_("an unknown face"))
    symbol = SYMBOLS.get(name)
    return message(symbol) if symbol is not None else name


def faces(names: Iterable[str | None]) -> Message:
    """Several faces as a natural list ("Oni, pirate and sun")."""
    return listing(face(name) for name in names)


_CURRENT = object()


def oracle(game: PuxesGame, die_id: int, *, start: bool = False, of: int | None = None,
           shows: Any = _CURRENT) -> Message:
    """Oracle ``die_id`` by the face it shows and its owner: "the sun oracle of Ada (red)";
    "their sun oracle" when the sentence is about its owner ``of``; ``start`` opens a sentence;
    ``shows`` names it by another face than its own now (the one it showed before a flick)."""
    die = game.dice[die_id]
    owner = game.named(die.owner)
    shown_face = die.face if shows is _CURRENT else shows
    if shown_face is None:
        if start:
            return message(N_("An oracle of {player}"), player=owner)
        return message(N_("their oracle")) if of == die.owner else message(N_("an oracle of {player}"), player=owner)
    shown = face(shown_face)
    if start:
        return message(N_("The {face} oracle of {player}"), face=shown, player=owner)
    if of == die.owner:
        return message(N_("their {face} oracle"), face=shown)
    return message(N_("the {face} oracle of {player}"), face=shown, player=owner)


def oracles(game: PuxesGame, die_ids: Iterable[int], *, of: int | None = None) -> Message:
    """Several oracles as a natural list."""
    return listing(oracle(game, d, of=of) for d in die_ids)


def hero(game: PuxesGame, die_id: int, *, start: bool = False, of: int | None = None) -> Message:
    """Hero ``die_id`` by the character its die carries: "the Kaeru hero of Ada (red)", "their Kaeru hero";
    ``start`` opens a sentence."""
    die = game.dice[die_id]
    if start:
        return message(N_("The {die} hero of {player}"), die=die.name, player=game.named(die.owner))
    if of == die.owner:
        return message(N_("their {die} hero"), die=die.name)
    return message(N_("the {die} hero of {player}"), die=die.name, player=game.named(die.owner))


def heroes(game: PuxesGame, die_ids: Iterable[int], *, of: int | None = None) -> Message:
    return listing(hero(game, d, of=of) for d in die_ids)


_TEMPLES = {
    (None, False): N_("the temple of {player}"), (None, True): N_("The temple of {player}"),
    (0, False): N_("the first temple of {player}"), (0, True): N_("The first temple of {player}"),
    (1, False): N_("the second temple of {player}"), (1, True): N_("The second temple of {player}"),
}


def temple(game: PuxesGame, index: int, *, start: bool = False) -> Message:
    """Temple ``index`` by its owner: "the temple of Ada (red)", or "the first temple of ..." when each
    player has two."""
    t = game.temples[index]
    own = [other.index for other in game.temples if other.owner == t.owner]
    rank = None if len(own) == 1 else min(own.index(index), 1)
    return message(_TEMPLES[rank, start], player=game.named(t.owner))


_GARDENS = {
    ("sacred", None): N_("the sacred garden of {player}"),
    ("sacred", 0): N_("the sacred garden of the first temple of {player}"),
    ("sacred", 1): N_("the sacred garden of the second temple of {player}"),
    ("public", None): N_("the public garden of {player}"),
    ("public", 0): N_("the public garden of the first temple of {player}"),
    ("public", 1): N_("the public garden of the second temple of {player}"),
}


def garden(game: PuxesGame, index: int, kind: str) -> Message:
    """The ``kind`` ("sacred" or "public") garden of temple ``index``, by its owner: "the sacred garden
    of Ada (red)"."""
    t = game.temples[index]
    own = [other.index for other in game.temples if other.owner == t.owner]
    rank = None if len(own) == 1 else min(own.index(index), 1)
    return message(_GARDENS[kind, rank], player=game.named(t.owner))


def position(x: float | None, y: float | None) -> Message:
    """A place on the play area, in millimetres from its corner: "(202, 352) mm"."""
    return message(N_("({x}, {y}) mm"), x=f"{x or 0.0:.0f}", y=f"{y or 0.0:.0f}")


def count_of_characters(count: int) -> Message:
    """"no character", "one character", "3 characters"."""
    if count == 0:
        return message(N_("no character"))
    return message(N_("one character")) if count == 1 else message(N_("{count} characters"), count=count)
