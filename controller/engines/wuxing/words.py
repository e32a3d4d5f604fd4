"""Every sentence Wuxing duel says to players, as message ids with parameters.

One catalogue, English, keyed by id: event texts (``event.*``), the reasons the engine gives for
refusing an action (``error.*``), what a controller's owner is told when the wheels are refused
(``refusal.*``), and the game's words (``term.*``: elements, token colours, pawn faces). A French
catalogue is another dict with the same ids; nothing else has to change.

Arguments are language-neutral: seat names as given, squares as ``"c4"``, and element, colour and
face keys (``"wood"``, ``"blue"``, ``"yin-yang"``) that :func:`say` turns into the catalogue's words
(a list of keys becomes a list of words).
Every :class:`~controller.engines.Event` the engine makes carries its id and arguments in its data
(``"msg"``, ``"args"``), so a display can say it in another language.

    >>> say("event.token-centre", player="Ada", colour="red")
    'Ada takes a red token from the centre'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from controller.engines.core import Event

#: The English catalogue.
ENGLISH: dict[str, str] = {
    # ---- words -------------------------------------------------------------------------------
    "term.wood": "Wood", "term.fire": "Fire", "term.earth": "Earth", "term.metal": "Metal", "term.water": "Water",
    "term.blue": "blue", "term.red": "red",
    "term.yin": "Yin", "term.yang": "Yang", "term.yin-yang": "Yin-Yang",
    "term.dominates": "dominates", "term.engenders": "engenders",
    "term.chemin": "the path (le chemin du duel)", "term.theatre": "the theatre (le théâtre du duel)",
    # ---- le chemin du duel ---------------------------------------------------------------------
    "event.chosen": "{player} has chosen a card",
    "event.discards": "opening discards: {player0} sets {element0} aside, {player1} sets {element1} aside",
    "event.revealed": "duel {round}: {player0} plays {element0}, {player1} plays {element1}",
    "event.duel-dominates": "{winning} dominates {losing}: {winner} wins the duel",
    "event.duel-engenders": "{winning} engenders {losing}: {winner} wins the duel",
    "event.duel-strong": "both play {element}, {winner}'s strong element (the island under the pawn): "
                         "{winner} wins the duel",
    "event.duel-yin-yang": "both play {element}; {winner}'s pawn shows its Yin-Yang face: {winner} wins the duel",
    "event.duel-tie": "both play {element} and neither is favoured: a tie, nobody moves",
    "event.face": "{player}'s pawn turns to its {face} face",
    "event.advanced": "{player} moves on to the {element} island",
    "event.pushed": "{player} is pushed back to the {element} island",
    "event.path-captured": "{player} cannot go back further than the starting island: {winner} captures the pawn",
    "event.token-centre": "{player} takes a {colour} token from the centre",
    "event.token-taken": "{player} takes a {colour} token from {other}",
    "event.token-full": "{player} already holds both {colour} tokens and takes none",
    "event.won-capture": "{winner} has captured {loser}'s pawn and wins: Yin and Yang are united",
    "event.won-tokens": "{winner} holds the 4 tokens and wins: the world is in balance again",
    # ---- le théâtre du duel --------------------------------------------------------------------
    "event.moved": "{player} moves pawn {pawn} from {start} ({from_element}) to {end} ({to_element}): "
                   "{from_element} {relation} {to_element}, a {colour} token",
    "event.captured": "{player} captures {other}'s pawn {pawn} on {square}",
    "event.stayed": "{player} cannot move: pays a {colour} token and stays",
    "event.out-of-tokens": "both players are out of tokens: {first}, then {second}, turns over an empty island",
    "event.flipped": "{player} turns over the {element} island on {square}",
    "event.isolated": "{player}'s pawn {pawn} on {square} has no island left in its row or column: {other} captures it",
    "event.refill": "both players take back two blue and two red tokens; {player} plays",
    "event.draw-no-flip": "{player} has no empty island to turn over: the game is a draw",
    "event.draw-both-isolated": "the last pawns of both players are captured together: the game is a draw",
    "event.won-last-pawn": "{winner} has captured {loser}'s last pawn and wins: Yin and Yang are united",
    # ---- refusals: the engine's reasons (RuleError) --------------------------------------------
    "error.wrong-mode": "{action} belongs to {other_mode}; this game is {mode}",
    "error.opening-discard": "the game opens with each player setting one card aside: choose a card to discard",
    "error.duel-phase": "the opening discards are done: play a card for the duel",
    "error.element-range": "{value!r} is not an element: the cards are numbered 0 to 4 ({elements})",
    "error.card-in-hand": "{player} played {element} last duel and has discarded it: play one of {hand}",
    "error.flip-phase": "both players are out of tokens: {player} turns over an empty island now",
    "error.move-phase": "nobody turns over an island now: {player} moves a pawn or stays",
    "error.pawn-range": "{player} has pawns A to D, not {pawn!r}",
    "error.pawn-captured": "{player}'s pawn {pawn} has been captured",
    "error.no-diagonal": "pawns move along a row or a column only, not {direction!r}",
    "error.direction-name": "unknown direction {direction!r}; the arrows are up, right, down and left",
    "error.distance-range": "a move goes 1 to 4 squares, not {distance!r}",
    "error.off-board": "pawn {pawn} on {square} cannot go {distance} squares {direction}: that leaves the board",
    "error.jump-over-pawn": "pawn {pawn} would pass over the pawn on {square}: a pawn never passes over another",
    "error.own-pawn": "{square} holds {player}'s own pawn: a pawn never stops on its own side's pawn",
    "error.target-flipped": "{square} has been turned over and has no island: a pawn stops only on an island",
    "error.not-dominated": "{from_element} neither dominates nor engenders {to_element}: a pawn moves only along an "
                           "arrow out of its island's element",
    "error.not-dominated-strict": "{from_element} does not dominate {to_element}: a pawn moves only to an element "
                                  "its island dominates",
    "error.token-missing": "{from_element} -> {to_element} costs a {colour} token and {player} has none",
    "error.must-move": "{player} can move a pawn, so must move: staying is only for a player who cannot",
    "error.no-token": "{player} has no {colour} token to pay for staying",
    "error.flip-square": "{square!r} is not an empty island: turn over an island with no pawn on it",
    "error.action-type": "{action} is not an action of {mode} now",
    # ---- refusals: what a controller's owner is told -------------------------------------------
    "refusal.card-in-hand": "you played that element in the last duel: it is discarded, choose another",
    "refusal.element-range": "turn the number wheel to 1 to 5: the five elements",
    "refusal.pawn-captured": "that pawn has been captured: turn the symbol wheel to one of your pawns",
    "refusal.no-diagonal": "diagonal arrows are not moves: choose up, right, down or left",
    "refusal.off-board": "that move leaves the board: choose a shorter distance",
    "refusal.jump-over-pawn": "a pawn never passes over another pawn",
    "refusal.own-pawn": "your own pawn stands there",
    "refusal.target-flipped": "that square has no island: a pawn stops only on an island",
    "refusal.not-dominated": "that island's element is not one your pawn's island dominates or engenders",
    "refusal.not-dominated-strict": "that island's element is not one your pawn's island dominates",
    "refusal.token-missing": "you have no token of that arrow's colour",
    "refusal.must-move": "you can move, so you must: turn the number wheel to a distance",
    "refusal.no-token": "you have no token of that colour: turn the symbol wheel to A (blue) or B (red)",
    "refusal.flip-square": "that is not an empty island: turn the wheels to a numbered island",
    "refusal.flip-phase": "turn over an empty island first: the symbol wheel is the tens, the number wheel the units",
    "refusal.move-phase": "it is not time to turn over an island",
    "refusal.turn-order": "it is not your turn",
    "refusal.distance-range": "a pawn moves 1 to 4 squares: turn the number wheel to 1 to 4 (0 to stay)",
    "refusal.not-your-turn": "it is {player}'s turn",
    "refusal.bot-seat": "{piece} is played by a bot ({player})",
    "refusal.flip-number": "the islands you may turn over are numbered 0 to {last} on the dashboard: "
                           "the symbol wheel gives the tens (A 0, B 10, C 20), the number wheel the units",
    "refusal.stay-colour": "to stay, turn the symbol wheel to A to pay a blue token or B to pay a red one",
    # ---- the dashboard's words for the wheels ---------------------------------------------------
    "wheel.chemin": "number wheel: 1 Wood, 2 Fire, 3 Earth, 4 Metal, 5 Water; press ready to lock your card",
    "wheel.theatre-move": "symbol wheel: the pawn (A to D); direction wheel: up, right, down or left; number "
                          "wheel: how far (0: stay, paying the token the symbol wheel shows, A blue, B red)",
    "wheel.theatre-flip": "symbol wheel: tens (A 0, B 10, C 20), number wheel: units, of the island to turn over",
}

#: The catalogues by language; a French one joins with the same ids.
CATALOGUES: dict[str, dict[str, str]] = {"en": ENGLISH}

#: Argument values said through the catalogue's ``term.*`` words (elements, colours, faces, relations).
TERMS = frozenset(key[len("term."):] for key in ENGLISH if key.startswith("term."))


def say(msg: str, lang: str = "en", **args: Any) -> str:
    """The sentence ``msg`` with ``args``, in ``lang``; term keys among the values become words."""
    catalogue = CATALOGUES[lang]

    def word(value: Any) -> Any:
        if isinstance(value, str) and value in TERMS:
            return catalogue[f"term.{value}"]
        if isinstance(value, (list, tuple)):
            return ", ".join(str(word(v)) for v in value)
        return value

    return catalogue[msg].format_map({k: word(v) for k, v in args.items()})


def event(kind: str, msg: str, args: Mapping[str, Any], **data: Any) -> Event:
    """An event whose text is ``msg`` said in English, its data carrying ``msg`` and ``args``."""
    return Event(kind, say(msg, **args), {"msg": msg, "args": dict(args), **data})


def parameters(msg: str, lang: str = "en") -> set[str]:
    """The argument names a message uses (tests check every catalogue agrees)."""
    return {name for _, name, _, _ in string.Formatter().parse(CATALOGUES[lang][msg]) if name}
