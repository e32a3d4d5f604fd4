"""The words MémoDiXe puts inside its sentences, kept to be said in the reader's language.

The sentences themselves are English msgids marked with ``N_`` where the engine says them (events,
refusals and what the game waits for, in ``game.py``), in the ``memodixe`` gettext domain; their
French is in ``controller/locale/fr/LC_MESSAGES/memodixe.po``, in the rulebook's own words (the
powers' and the app's cards' texts are the rulebook's French verbatim). What goes inside them is a
plain value (a place ``"b2"``, a number, a seat's display name, a character's name) or one of the
messages made here: a symbol's name, a power's or a card's text, a seat with no display name, an
action in words.

    >>> from controller.i18n import said
    >>> said(face("soleil"), "en"), said(face("tete-de-mort"), "fr"), said(face("Hanuman"), "fr")
    ('sun', 'tête de mort', 'Hanuman')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.i18n import N_, message

if TYPE_CHECKING:
    from controller.engines.core import Game

#: Symbol and kind names as sentences say them (characters keep their own names).
FACE_NAMES: dict[str, str] = {
    "pirate": N_("pirate"), "smiley": N_("smiley"), "soleil": N_("sun"), "bombe": N_("bomb"),
    "yin-yang": N_("yin-yang"), "sablier": N_("hourglass"), "tete-de-mort": N_("skull"), "pi": N_("pi"),
    "aum": N_("aum"), "personnage": N_("character"),
}

#: What the game waits for, by the kind of step awaited (``{who}`` acts; ``{place}`` for some).
WAITING: dict[str, str] = {
    "roll": N_("{who} to report the roll of the die for {place}"),
    "turn": N_("{who} to flip a first die (or cry DiXe !)"),
    "oni-turn": N_("Oni ({who}) to flip a first die"),
    "second": N_("{who} to flip a second die (the first is at {place})"),
    "oni-second": N_("Oni ({who}) to flip a second die"),
    "take": N_("{who} to choose which die of the pair to win"),
    "peek": N_("{who} to choose a hidden face to look at"),
    "steal": N_("{who} to choose whom to steal a die from"),
    "give": N_("{who} to choose whom to give a die to"),
    "swap": N_("{who} to choose two dice to swap"),
    "aside": N_("{who} to choose a die to set aside"),
    "reroll": N_("{who} to choose a die to roll again"),
    "face": N_("{who} to choose the face the remaining die rests on"),
    "announce": N_("{who} to announce a symbol shown on no top face"),
    "challenge": N_("{who} to flip one die to find the announced symbol"),
    "dixe-choice": N_("{who} to end the game or roll the square again and play on"),
    "centre": N_("Oni ({who}) to move a die to the free centre, or not"),
    "race": N_("{who} to report who grabbed the middle die first"),
    "turnover": N_("Oni ({who}) to turn a die over onto the hidden face he chooses"),
    "relaunch": N_("Oni ({who}) to choose the free place a won die is rolled into"),
}

#: Why a game ended (the ``{reason}`` of its last event), by the game's ``result``.
END_REASONS: dict[str, str] = {
    "dixe": N_("a right DiXe !"),
    "time": N_("the countdown rang"),
    "stuck": N_("nobody can play any more"),
    "no-pair": N_("no pair is left and nobody holds a die to cry DiXe !"),
}

#: The ten powers' texts in "Chacun pour soi" and in "Oni contre tous" (the French catalogue says the
#: rulebook's own text).
POWER_TEXTS: dict[str, dict[str, str]] = {
    "again": {
        "chacun-pour-soi": N_("Play again right after your turn is resolved."),
        "oni-contre-tous": N_("Nobody presses the button until your next turn. In exchange, Oni plays at once."),
    },
    "peek": {
        "chacun-pour-soi": N_("You may look secretly under 2 dice of the square."),
        "oni-contre-tous": N_("You may show everyone 2 hidden symbols of the square."),
    },
    "share": {
        "chacun-pour-soi": N_("You win no die. Roll the 2 flipped dice again and put them back as they land. The "
                              "player(s) with the most dice each give one to the player with the fewest (if "
                              "several have the fewest, the giver chooses). If everyone is tied, nothing happens."),
        "oni-contre-tous": N_("Cancels the effects in force."),
    },
    "swap": {
        "chacun-pour-soi": N_("After your turn is resolved, you may secretly (the others look away) swap the "
                              "places of 2 dice of the square (without turning them)."),
        "oni-contre-tous": N_("You choose the symbol the second die is put back resting on."),
    },
    "steal": {
        "chacun-pour-soi": N_("You win no die. Roll the 2 flipped dice again and put them back as they land. In "
                              "exchange, steal a die from the player of your choice. Nothing happens if nobody has "
                              "a die."),
        "oni-contre-tous": N_("You win a die and do not press Next."),
    },
    "aside": {
        "chacun-pour-soi": N_("After your turn is resolved, set a die of the square aside: the others cannot use "
                              "it until your next turn."),
        "oni-contre-tous": N_("Announce a symbol shown on no top face. Before playing his turn, the next player "
                              "must flip that symbol in one try; if he does, the die is won."),
    },
    "reroll": {
        "chacun-pour-soi": N_("After your turn is resolved, choose a die of the square, roll it and put it back."),
        "oni-contre-tous": N_("Do not roll the second die again: put it back as it was."),
    },
    "bomb": {
        "chacun-pour-soi": N_("When you roll the remaining die, if it lands on the bomb you win it too; otherwise "
                              "put it back as it lands."),
        "oni-contre-tous": N_("When you roll the remaining die, if it lands on the bomb you win it too."),
    },
    "skull": {
        "chacun-pour-soi": N_("When you roll the remaining die, if it lands on the skull every other player "
                              "discards one of his dice."),
        "oni-contre-tous": N_("When you roll the remaining die, if it lands on the skull you must roll the other "
                              "die back into the square too (so you win none)."),
    },
    "retry": {
        "chacun-pour-soi": N_("You win no die. Roll the 2 flipped dice again, put them back as they land, and play "
                              "again."),
        "oni-contre-tous": N_("You win no die. Roll the 2 flipped dice again, put them back as they land, and play "
                              "again."),
    },
}

#: The app's cards: (the card's title, as printed, and what it says).
EFFECT_TEXTS: dict[str, tuple[str, str]] = {
    "vol-milieu": ("Vol le DiXe du milieu", N_("Grab the middle die before Oni! If Oni grabs it, he rolls it and "
                                               "puts it back in the middle; if a player does, you win it.")),
    "tourne": ("Tourne", N_("Until your next turn, spin round each time a player flips his second die. Forget, and "
                            "Oni rolls a won die back into the square.")),
    "osselets": ("Osselets", N_("Take 2 won dice now and play a round of knucklebones; the next player waits until "
                                "you manage it.")),
    "chut": ("Chhhuuutt !", N_("Until your next turn, nobody may speak. If someone speaks, Oni rolls a won die "
                               "back into the square.")),
    "oni-relance": ("Oni relance", N_("Oni rolls one die of the square again.")),
    "monocle": ("DiXe monocle", N_("Until your next turn, wear a won die as a monocle. Drop it, and Oni rolls it "
                                   "back into the square.")),
    "oni-reprend": ("Oni reprend 1 DiXe", N_("Oni rolls a won die back into the square.")),
    "sur-la-tete": ("DiXe sur la tête", N_("Walk round the table with a won die on your head; the others play on. "
                                           "If it falls, Oni rolls it back into the square.")),
    "touche-pas": ("Touche pas aux DiXes", N_("Until your next turn, only you may touch the dice; the others tell "
                                              "you which to flip. If someone else touches one, Oni rolls a won die "
                                              "back into the square.")),
    "check": ("Check", N_("Until your next turn, whoever plays high-fives every other player before flipping the "
                          "second die. Forget, and Oni rolls a won die back into the square.")),
    "tourelle": ("Tourelle", N_("The next player stacks all the won dice into a tower before playing.")),
    "lance": ("Lance DiXe", N_("If a die was just won, throw it from player to player without dropping it. If it "
                               "falls or Oni catches it, he rolls it back into the square. Play goes on meanwhile.")),
    "tape": ("TAPE DIXE", N_("Everyone slaps the won dice! If Oni's hand is first, he rolls a won die back into "
                             "the square.")),
    "oni-triche": ("Oni triche", N_("Oni may look secretly under 2 dice. The others play on.")),
    "oni-melange": ("Oni mélange", N_("Oni swaps 2 dice. The others play on.")),
    "cache": ("Cache DiXe", N_("The player after Oni passes a won die secretly from hand to hand; Oni has one "
                               "guess (not his two neighbours). If he finds it, he rolls it back into the square. "
                               "Play goes on meanwhile.")),
    "oni-retourne": ("Oni retourne", N_("Oni may turn over 2 dice of the square, choosing their new hidden symbols.")),
    "de-cote": ("DIXE de côté", N_("Oni sets a die of the square aside until the start of your next turn.")),
    "symbole-roi": ("Symbole roi", N_("If a die was just won, the next player rolls it until it shows the symbol "
                                      "that won it, then starts his turn.")),
    "sapristix": ("SAPRISTIX", N_("Until the end, whoever finds a pair says \"SapristiX! A pair of DiXes!\" before "
                                  "putting them down. Forget, and Oni rolls a won die back into the square.")),
    "vive-les": ("Vive les !!", N_("Until the end, say \"Long live the ...!\" naming your first flipped symbol; on a "
                                   "pair everyone else says it too. For characters, say \"Long live Oni!\".")),
    "tactile": ("Tactile", N_("You may feel the underside of 2 dice without looking to guess their symbols, and "
                              "tell the others. Play goes on meanwhile.")),
    "oni": ("Oni !", N_("Oni's turn to play!")),
    "joue": ("Joue !", N_("No effect this turn.")),
}


def face(value: str | None) -> Any:
    """A face or kind as sentences name it: a symbol's name as a message, a character's own name."""
    if not isinstance(value, str):
        return "?" if value is None else repr(value)
    name = FACE_NAMES.get(value)
    return message(name) if name is not None else value


def power_text(power: str, mode: str) -> dict[str, Any]:
    """What ``power`` does in ``mode``, as a message."""
    return message(POWER_TEXTS[power][mode])


def seat(game: Game[Any], number: int) -> Any:
    """How a sentence names seat ``number``: its display name, or "player N" said in the reader's
    language when it has none."""
    label = game.seat_label(number)
    if label == f"{game.SEAT_WORD} {number}":
        return message(N_("player {number}"), number=number)
    return label


def action(game: Game[Any], act: Any) -> Any:
    """An action in words, to quote in a refusal ("flip the die at b2")."""
    from controller.engines.memodixe import actions as a

    t = type(act)
    raw = getattr(act, "place", None)
    place = a.place_label(raw) if type(raw) is int and 0 <= raw < 9 else repr(raw)

    def who(number: Any) -> Any:
        return seat(game, number) if type(number) is int and 0 <= number < game.num_players else repr(number)

    if t is a.Flip:
        return message(N_("flip the die at {place}"), place=place)
    if t is a.CallDixe:
        return message(N_("cry DiXe !"))
    if t is a.Take:
        return message(N_("win the die at {place}"), place=place)
    if t is a.Roll:
        return message(N_("a roll landing on {face}"), face=face(act.face))
    if t is a.Peek:
        return message(N_("look under the die at {place}"), place=place)
    if t is a.Skip:
        return message(N_("pass"))
    if t is a.Steal:
        return message(N_("steal a die from {who}"), who=who(act.seat))
    if t is a.Give:
        return message(N_("give a die to {who}"), who=who(act.seat))
    if t is a.Swap:
        return message(N_("swap dice {a} and {b}"), a=act.a, b=act.b)
    if t is a.SetAside:
        return message(N_("set the die at {place} aside"), place=place)
    if t is a.Reroll:
        return message(N_("roll the die at {place} again"), place=place)
    if t is a.ChooseFace:
        return message(N_("rest the die on {face}"), face=face(act.face))
    if t is a.Announce:
        return message(N_("announce {symbol}"), symbol=face(act.kind))
    if t is a.EndGame:
        return message(N_("end the game"))
    if t is a.PlayOn:
        return message(N_("roll again and play on"))
    if t is a.Centre:
        return message(N_("move the die at {place} to the centre"), place=place)
    if t is a.TurnOver:
        return message(N_("turn the die at {place} onto {face}"), place=place, face=face(act.face))
    if t is a.Relaunch:
        return message(N_("roll a won die into {place}"), place=place)
    if t is a.Race:
        return message(N_("Oni grabbed the middle die") if act.oni_first else N_("a player grabbed the middle die"))
    if t is a.Penalty:
        return message(N_("a failed gage"))
    if t is a.TimeUp:
        return message(N_("the countdown rang"))
    return repr(act)
