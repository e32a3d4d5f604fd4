"""Every sentence Wuxing duel says to players, as English msgids of the ``wuxing`` gettext domain.

Sentences are marked with ``N_`` and translated when said (``controller/locale/<lang>/LC_MESSAGES/
wuxing.po`` holds the French, in the rulebook's words: Bois, Feu, Terre, Métal, Eau, jeton bleu,
île, pion...). The tables below are keyed by a short name the rules code uses: :data:`EVENTS`
(what happened), :data:`ERRORS` (why the engine refuses an action, keyed by the rule),
:data:`REFUSALS` (what a controller's owner is told instead, by rule) and :data:`WHEEL_HELP`.

An :class:`~controller.engines.Event` carries its sentence as a message (``event.message``, see
:func:`controller.i18n.message`), a refusal as ``RuleError.words``; the game's words inside them
(elements, token colours, pawn faces, relations, directions) are nested messages, so every reader
hears the whole sentence in his own language. Arguments are recognised by name (:func:`worded`):
``colour`` is a token colour, ``element``/``from_element``/``winning``... are elements.

    >>> from controller import i18n
    >>> i18n.said(said("token-centre", player="Ada", colour="red"), "en")
    'Ada takes a red token from the centre'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller import i18n
from controller.engines.core import Event
from controller.i18n import N_

#: The game's words, by their language-neutral key (elements, colours, faces, relations, modes, directions).
TERMS: dict[str, str] = {
    "wood": N_("Wood"), "fire": N_("Fire"), "earth": N_("Earth"), "metal": N_("Metal"), "water": N_("Water"),
    "blue": N_("blue"), "red": N_("red"),
    "yin": N_("Yin"), "yang": N_("Yang"), "yin-yang": N_("Yin-Yang"),
    "dominates": N_("dominates"), "engenders": N_("engenders"),
    "chemin": N_("the path (le chemin du duel)"), "theatre": N_("the theatre (le théâtre du duel)"),
    "up": N_("upwards"), "right": N_("rightwards"), "down": N_("downwards"), "left": N_("leftwards"),
    "up-right": N_("up and right"), "down-right": N_("down and right"), "down-left": N_("down and left"),
    "up-left": N_("up and left"),
}

#: What happened, said to everybody.
EVENTS: dict[str, str] = {
    # ---- le chemin du duel ---------------------------------------------------------------------
    "chosen": N_("{player} has chosen a card"),
    "discards": N_("opening discards: {player0} sets {element0} aside, {player1} sets {element1} aside"),
    "revealed": N_("duel {round}: {player0} plays {element0}, {player1} plays {element1}"),
    "duel-dominates": N_("{winning} dominates {losing}: {winner} wins the duel"),
    "duel-engenders": N_("{winning} engenders {losing}: {winner} wins the duel"),
    "duel-strong": N_("both play {element}, {winner}'s strong element (the island under the pawn): "
                      "{winner} wins the duel"),
    "duel-yin-yang": N_("both play {element}; {winner}'s pawn shows its Yin-Yang face: {winner} wins the duel"),
    "duel-tie": N_("both play {element} and neither is favoured: a tie, nobody moves"),
    "face": N_("{player}'s pawn turns to its {face} face"),
    "advanced": N_("{player} moves on to the {element} island"),
    "pushed": N_("{player} is pushed back to the {element} island"),
    "path-captured": N_("{player} cannot go back further than the starting island: {winner} captures the pawn"),
    "token-centre": N_("{player} takes a {colour} token from the centre"),
    "token-taken": N_("{player} takes a {colour} token from {other}"),
    "token-full": N_("{player} already holds both {colour} tokens and takes none"),
    "won-capture": N_("{winner} has captured {loser}'s pawn and wins: Yin and Yang are united"),
    "won-tokens": N_("{winner} holds the 4 tokens and wins: the world is in balance again"),
    "duel-and-outcome": N_("{duel}; {outcome}"),
    # ---- le théâtre du duel --------------------------------------------------------------------
    "moved": N_("{player} moves pawn {pawn} from {start} ({from_element}) to {end} ({to_element}): "
                "{from_element} {relation} {to_element}, a {colour} token"),
    "moved-and-captured": N_("{move}; {capture}"),
    "captured": N_("{player} captures {other}'s pawn {pawn} on {square}"),
    "stayed": N_("{player} cannot move: pays a {colour} token and stays"),
    "out-of-tokens": N_("both players are out of tokens: {first}, then {second}, turns over an empty island"),
    "flipped": N_("{player} turns over the {element} island on {square}"),
    "isolated": N_("{player}'s pawn {pawn} on {square} has no island left in its row or column: {other} captures it"),
    "refill": N_("both players take back two blue and two red tokens; {player} plays"),
    "draw-no-flip": N_("{player} has no empty island to turn over: the game is a draw"),
    "draw-both-isolated": N_("the last pawns of both players are captured together: the game is a draw"),
    "won-last-pawn": N_("{winner} has captured {loser}'s last pawn and wins: Yin and Yang are united"),
}

#: Why the engine refuses an action, by the rule it breaks (``RuleError.rule``).
ERRORS: dict[str, str] = {
    "wrong-mode": N_("{action} belongs to {other_mode}; this game is {mode}"),
    "opening-discard": N_("the game opens with each player setting one card aside: choose a card to discard"),
    "duel-phase": N_("the opening discards are done: play a card for the duel"),
    "element-range": N_("{value} is not an element: the cards are numbered 0 to 4 ({elements})"),
    "card-in-hand": N_("{player} played {element} last duel and has discarded it: play one of {hand}"),
    "flip-phase": N_("both players are out of tokens: {player} turns over an empty island now"),
    "move-phase": N_("nobody turns over an island now: {player} moves a pawn or stays"),
    "pawn-range": N_("{player} has pawns A to D, not {pawn}"),
    "pawn-captured": N_("{player}'s pawn {pawn} has been captured"),
    "no-diagonal": N_("pawns move along a row or a column only, not diagonally ({direction})"),
    "direction-name": N_("unknown direction {direction}; the arrows are up, right, down and left"),
    "distance-range": N_("a move goes 1 to 4 squares, not {distance}"),
    "off-board": N_("pawn {pawn} on {square} cannot go {distance} squares {direction}: that leaves the board"),
    "jump-over-pawn": N_("pawn {pawn} would pass over the pawn on {square}: a pawn never passes over another"),
    "own-pawn": N_("{square} holds {player}'s own pawn: a pawn never stops on its own side's pawn"),
    "target-flipped": N_("{square} has been turned over and has no island: a pawn stops only on an island"),
    "not-dominated": N_("{from_element} neither dominates nor engenders {to_element}: a pawn moves only along an "
                        "arrow out of its island's element"),
    "not-dominated-strict": N_("{from_element} does not dominate {to_element}: a pawn moves only to an element "
                               "its island dominates"),
    "token-missing": N_("{from_element} -> {to_element} costs a {colour} token and {player} has none"),
    "must-move": N_("{player} can move a pawn, so must move: staying is only for a player who cannot"),
    "no-token": N_("{player} has no {colour} token to pay for staying"),
    "flip-square": N_("{square} is not an empty island: turn over an island with no pawn on it"),
    "action-type": N_("{action} is not an action of {mode} now"),
}

#: What a controller's owner is told when the engine refuses his press, by rule: worded for the
#: wheels, and without placeholders (the rest of the table learns nothing of the choice).
REFUSALS: dict[str, str] = {
    "card-in-hand": N_("you played that element in the last duel: it is discarded, choose another"),
    "element-range": N_("turn the number wheel to 1 to 5: the five elements"),
    "pawn-captured": N_("that pawn has been captured: turn the symbol wheel to one of your pawns"),
    "no-diagonal": N_("diagonal arrows are not moves: choose up, right, down or left"),
    "off-board": N_("that move leaves the board: choose a shorter distance"),
    "jump-over-pawn": N_("a pawn never passes over another pawn"),
    "own-pawn": N_("your own pawn stands there"),
    "target-flipped": N_("that square has no island: a pawn stops only on an island"),
    "not-dominated": N_("that island's element is not one your pawn's island dominates or engenders"),
    "not-dominated-strict": N_("that island's element is not one your pawn's island dominates"),
    "token-missing": N_("you have no token of that arrow's colour"),
    "must-move": N_("you can move, so you must: turn the number wheel to a distance"),
    "no-token": N_("you have no token of that colour: turn the symbol wheel to A (blue) or B (red)"),
    "flip-square": N_("that is not an empty island: turn the wheels to a numbered island"),
    "flip-phase": N_("turn over an empty island first: the symbol wheel is the tens, the number wheel the units"),
    "move-phase": N_("it is not time to turn over an island"),
    "turn-order": N_("wait for your turn: the other player plays now"),
    "distance-range": N_("a pawn moves 1 to 4 squares: turn the number wheel to 1 to 4 (0 to stay)"),
}

#: What the dashboard says the wheels mean, by mode and phase.
WHEEL_HELP: dict[str, str] = {
    "chemin": N_("number wheel: 1 Wood, 2 Fire, 3 Earth, 4 Metal, 5 Water; press ready to lock your card"),
    "theatre-move": N_("symbol wheel: the pawn (A to D); direction wheel: up, right, down or left; number "
                       "wheel: how far (0: stay, paying the token the symbol wheel shows, A blue, B red)"),
    "theatre-flip": N_("symbol wheel: tens (A 0, B 10, C 20), number wheel: units, of the island to turn over"),
}

#: Arguments that name an element, a token colour... by their key, said as the game's words.
WORD_ARGS = frozenset({"element", "element0", "element1", "from_element", "to_element", "winning", "losing",
                       "colour", "face", "relation", "mode", "other_mode", "direction"})
#: Arguments that list such keys, said as a natural list.
LIST_ARGS = frozenset({"hand", "elements"})

Message = dict[str, Any]


def term(key: str) -> Message | str:
    """The game's word for ``key`` (``"wood"``, ``"blue"``, ``"yin-yang"``...) as a message; a key
    the game has no word for stays as it is (a direction someone mistyped, quoted)."""
    return i18n.message(TERMS[key]) if key in TERMS else repr(key)


def worded(args: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` with the game's keys turned into words, by argument name (see :data:`WORD_ARGS`)."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if name in WORD_ARGS and isinstance(value, str):
            out[name] = term(value)
        elif name in LIST_ARGS and isinstance(value, (list, tuple)):
            out[name] = i18n.listing([term(v) if isinstance(v, str) else v for v in value])
        else:
            out[name] = value
    return out


def said(key: str, **args: Any) -> Message:
    """The event sentence ``key`` filled with ``args``, as a message to say later."""
    return i18n.message(EVENTS[key], **worded(args))


def event(kind: str, key: str, args: Mapping[str, Any], **data: Any) -> Event:
    """The event ``kind`` whose sentence is :data:`EVENTS` ``[key]`` with ``args``; its text is the
    English, its message says it in any language."""
    return Event.said(kind, EVENTS[key], data, **worded(args))


def refusal(rule: str) -> Message | None:
    """What a controller's owner is told of a press refused under ``rule``, if the game words it."""
    return i18n.message(REFUSALS[rule]) if rule in REFUSALS else None


def wheel_help(key: str) -> Message:
    return i18n.message(WHEEL_HELP[key])
