"""Le chemin du duel: five islands in a line, two pawns, secret element cards.

A round ("tour"): each player discards the card he played the round before (at the start, one of
his choice), chooses a card in secret and both are revealed together. The element that dominates
or engenders the other wins the duel. On the same element the player whose pawn stands on that
element's island (his strong element, "élément fort") wins and turns his pawn to its Yin-Yang face;
otherwise a pawn already on its Yin-Yang face wins and turns back; otherwise nobody wins. The
winner moves one island towards the other camp, pushing the other pawn back, which is captured if
it cannot go back; he takes a token of the arrow's colour (from the centre, else from the other
player; none if he holds both of that colour or the elements were equal). A capture or the four
tokens wins.

Variants (the rulebook's notes): ``no_discard`` (under 10: every card every round) and
``no_yin_yang`` (under 8: pawns are never turned).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.engines.core import Event
from controller.engines.wuxing.actions import Discard, Play
from controller.engines.wuxing.elements import (
    BLUE,
    CODES,
    DOMINATES,
    ELEMENT_NAMES,
    ELEMENTS,
    RED,
    beats,
    link,
)
from controller.engines.wuxing.words import event

DISCARD, DUEL, OVER = "discard", "duel", "over"
#: Tokens of each colour in play ("récupérez les 4 jetons": two blue and two red, in the centre at first).
TOKENS_PER_COLOUR = 2
COLOUR_INDEX = {BLUE: 0, RED: 1}
#: The way each seat's pawn moves along the path: seat 0 from island 0 towards 4, seat 1 back.
FORWARD = (1, -1)
HOME = (0, 4)

Label = Callable[[int], str]


class Chemin:
    """The path's state and rules. ``pos[seat]`` is an island index (0 is seat 0's end),
    ``yin_yang[seat]`` whether that pawn shows its Yin-Yang face, ``tokens[seat]`` its
    ``[blue, red]`` tokens, ``set_aside[seat]`` the card it has discarded (``None``: none)."""

    def __init__(self, path: tuple[int, ...], discard: bool, yin_yang: bool) -> None:
        self.path = path
        self.discard = discard
        self.faces = yin_yang
        self.pos = [HOME[0], HOME[1]]
        self.yin_yang = [False, False]
        self.tokens = [[0, 0], [0, 0]]
        self.set_aside: list[int | None] = [None, None]
        self.choices: dict[int, int] = {}
        self.phase = DISCARD if discard else DUEL
        self.round = 0 if discard else 1
        self.winner: int | None = None
        self.how: str | None = None
        self.last: dict[str, Any] | None = None

    def copy(self) -> Chemin:
        twin = object.__new__(Chemin)
        twin.__dict__.update(self.__dict__)
        twin.pos = list(self.pos)
        twin.yin_yang = list(self.yin_yang)
        twin.tokens = [list(self.tokens[0]), list(self.tokens[1])]
        twin.set_aside = list(self.set_aside)
        twin.choices = dict(self.choices)
        return twin

    # ---- questions ---------------------------------------------------------------------------

    def strong(self, seat: int) -> int:
        """The element of the island under ``seat``'s pawn: his strong element."""
        return self.path[self.pos[seat]]

    def centre(self, colour: int) -> int:
        return TOKENS_PER_COLOUR - self.tokens[0][colour] - self.tokens[1][colour]

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` may play in this duel: all five but the one set aside."""
        return tuple(e for e in ELEMENTS if e != self.set_aside[seat])

    def current_players(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        return tuple(s for s in (0, 1) if s not in self.choices)

    def legal_actions(self, seat: int) -> list[Any]:
        if self.phase == OVER or seat in self.choices or seat not in (0, 1):
            return []
        if self.phase == DISCARD:
            return [Discard(e) for e in ELEMENTS]
        return [Play(e) for e in self.hand(seat)]

    # ---- refusing ------------------------------------------------------------------------------

    def explain(self, seat: int, action: Any, label: Label) -> tuple[str, dict[str, Any]]:
        """The rule ``action`` breaks and the message's arguments."""
        if isinstance(action, (Discard, Play)):
            if type(action.element) is not int or action.element not in ELEMENTS:
                return "element-range", {"value": repr(action.element), "elements": list(ELEMENT_NAMES)}
            if self.phase == DISCARD and isinstance(action, Play):
                return "opening-discard", {}
            if self.phase == DUEL and isinstance(action, Discard):
                return "duel-phase", {}
            return "card-in-hand", {"player": label(seat), "element": ELEMENT_NAMES[action.element],
                                    "hand": [ELEMENT_NAMES[e] for e in self.hand(seat)]}
        return "action-type", {"action": repr(action), "mode": "chemin"}

    # ---- playing -------------------------------------------------------------------------------

    def apply(self, seat: int, action: Any, label: Label | None) -> list[Event] | None:
        """Take ``seat``'s legal card; resolve when both are in. ``label`` ``None``: no events."""
        self.choices[seat] = action.element
        events = None if label is None else [
            event("chosen", "chosen", {"player": label(seat)}, seat=seat)]
        if len(self.choices) < 2:
            return events
        e0, e1 = self.choices[0], self.choices[1]
        self.choices = {}
        if self.phase == DISCARD:
            self.set_aside = [e0, e1]
            self.phase, self.round = DUEL, 1
            if label is not None:
                events.append(event("discarded", "discards", {
                    "player0": label(0), "element0": ELEMENT_NAMES[e0], "player1": label(1),
                    "element1": ELEMENT_NAMES[e1]}, set_aside=[ELEMENT_NAMES[e0], ELEMENT_NAMES[e1]]))
            return events
        self._duel(e0, e1, label, events)
        return events

    def _duel(self, e0: int, e1: int, label: Label | None, events: list[Event] | None) -> None:
        cards = (e0, e1)
        record: dict[str, Any] = {"round": self.round, "cards": [ELEMENT_NAMES[e0], ELEMENT_NAMES[e1]],
                                  "strong": [ELEMENT_NAMES[self.strong(0)], ELEMENT_NAMES[self.strong(1)]],
                                  "winner": None, "reason": "tie", "colour": None, "token": None,
                                  "captured": False}
        if events is not None:
            events.append(event("revealed", "revealed", {
                "round": self.round, "player0": label(0), "element0": ELEMENT_NAMES[e0],
                "player1": label(1), "element1": ELEMENT_NAMES[e1]}, cards=list(record["cards"])))
        if self.discard:
            self.set_aside = [e0, e1]    # "défausse la carte jouée au tour précédent": the old one comes back
        winner: int | None = None
        colour: str | None = None
        if e0 != e1:
            winner = 0 if beats(e0, e1) else 1
            colour = link(e0, e1)
            relation = "dominates" if DOMINATES[cards[winner]] == cards[1 - winner] else "engenders"
            record["reason"] = relation
            if events is not None:
                events.append(event("duel", f"duel-{relation}", {
                    "winning": ELEMENT_NAMES[cards[winner]], "losing": ELEMENT_NAMES[cards[1 - winner]],
                    "winner": label(winner)}, winner=winner, reason=relation, colour=colour))
        else:
            on_strong = [s for s in (0, 1) if self.strong(s) == e0]
            if on_strong:
                winner = on_strong[0]
                record["reason"] = "strong"
                if events is not None:
                    events.append(event("duel", "duel-strong", {
                        "element": ELEMENT_NAMES[e0], "winner": label(winner)}, winner=winner, reason="strong"))
                if self.faces:
                    self._turn(winner, True, label, events)
                    self._turn(1 - winner, False, label, events)
            elif True in self.yin_yang:
                winner = self.yin_yang.index(True)
                record["reason"] = "yin-yang"
                if events is not None:
                    events.append(event("duel", "duel-yin-yang", {
                        "element": ELEMENT_NAMES[e0], "winner": label(winner)}, winner=winner, reason="yin-yang"))
                self._turn(winner, False, label, events)
            elif events is not None:
                events.append(event("duel", "duel-tie", {"element": ELEMENT_NAMES[e0]}, winner=None,
                                    reason="tie"))
        if winner is not None:
            record["winner"] = winner
            record["colour"] = colour
            captured = self._advance(winner, label, events)
            record["captured"] = captured
            if colour is not None:
                record["token"] = self._take_token(winner, colour, label, events)
            if captured:
                self._end(winner, "capture", label, events)
            elif self.tokens[winner] == [TOKENS_PER_COLOUR, TOKENS_PER_COLOUR]:
                self._end(winner, "tokens", label, events)
        record["positions"] = list(self.pos)
        self.last = record
        if self.phase != OVER:
            self.round += 1

    def _turn(self, seat: int, yin_yang: bool, label: Label | None, events: list[Event] | None) -> None:
        if self.yin_yang[seat] == yin_yang:
            return
        self.yin_yang[seat] = yin_yang
        if events is not None:
            face = "yin-yang" if yin_yang else ("yang" if seat == 0 else "yin")
            events.append(event("face", "face", {"player": label(seat), "face": face}, seat=seat,
                                yin_yang=yin_yang))

    def _advance(self, winner: int, label: Label | None, events: list[Event] | None) -> bool:
        """The winner moves one island on; the other pawn, if there, goes back or is captured."""
        loser = 1 - winner
        target = self.pos[winner] + FORWARD[winner]
        self.pos[winner] = target
        if events is not None:
            events.append(event("advanced", "advanced", {
                "player": label(winner), "element": ELEMENT_NAMES[self.path[target]]}, seat=winner, island=target))
        if self.pos[loser] != target:
            return False
        back = target + FORWARD[winner]
        if not 0 <= back < len(self.path):
            if events is not None:
                events.append(event("captured", "path-captured", {
                    "player": label(loser), "winner": label(winner)}, seat=loser, by=winner))
            self.pos[loser] = -1
            return True
        self.pos[loser] = back
        if events is not None:
            events.append(event("pushed", "pushed", {
                "player": label(loser), "element": ELEMENT_NAMES[self.path[back]]}, seat=loser, island=back))
        return False

    def _take_token(self, winner: int, colour: str, label: Label | None, events: list[Event] | None) -> str:
        c = COLOUR_INDEX[colour]
        loser = 1 - winner
        if self.tokens[winner][c] >= TOKENS_PER_COLOUR:
            source = "full"
        elif self.centre(c) > 0:
            source = "centre"
        else:
            source = "taken"
            self.tokens[loser][c] -= 1
        if source != "full":
            self.tokens[winner][c] += 1
        if events is not None:
            args = {"player": label(winner), "colour": colour}
            if source == "taken":
                args["other"] = label(loser)
            events.append(event("token", f"token-{source}", args, seat=winner, colour=colour, source=source))
        return source

    def _end(self, winner: int, how: str, label: Label | None, events: list[Event] | None) -> None:
        self.phase = OVER
        self.winner = winner
        self.how = how
        if events is not None:
            msg = "won-capture" if how == "capture" else "won-tokens"
            events.append(event("game-over", msg, {"winner": label(winner), "loser": label(1 - winner)},
                                winners=[winner], how=how))

    # ---- looking -------------------------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "round": self.round,
            "path": [ELEMENT_NAMES[e] for e in self.path],
            "positions": list(self.pos),
            "yin_yang": list(self.yin_yang),
            "strong": [ELEMENT_NAMES[self.strong(s)] if self.pos[s] >= 0 else None for s in (0, 1)],
            "tokens": [{"blue": t[0], "red": t[1]} for t in self.tokens],
            "centre": {"blue": self.centre(0), "red": self.centre(1)},
            "set_aside": [None if e is None else ELEMENT_NAMES[e] for e in self.set_aside],
            "hands": [[ELEMENT_NAMES[e] for e in self.hand(s)] for s in (0, 1)] if self.phase == DUEL else None,
            "chosen": [s in self.choices for s in (0, 1)],
            "last": self.last,
            "winner": self.winner,
            "how": self.how,
            "discard": self.discard,
            "yin_yang_faces": self.faces,
        }

    def state_dict(self) -> dict[str, Any]:
        state = self.public()
        state["choices"] = {str(s): ELEMENT_NAMES[e] for s, e in sorted(self.choices.items())}
        return state

    def view(self, seat: int | None) -> dict[str, Any]:
        state = self.public()
        if seat is not None and seat in self.choices:
            state["my_choice"] = ELEMENT_NAMES[self.choices[seat]]
        return state

    def render_lines(self, label: Label) -> list[str]:
        title = {DISCARD: "opening discards", DUEL: f"duel {self.round}", OVER: "over"}[self.phase]
        lines = [f"Wuxing duel - the path - {title}"]
        lines.append("  path:  " + "  ".join(f"{CODES[e]:<3}" for e in self.path) + f"  ({label(1)}'s end)")
        marks = []
        for i in range(len(self.path)):
            here = [s for s in (0, 1) if self.pos[s] == i]
            marks.append("".join(f"{s}{'*' if self.yin_yang[s] else ''}" for s in here) or ".")
        lines.append("  pawns: " + "  ".join(f"{m:<3}" for m in marks) + "  (* Yin-Yang face)")
        for s in (0, 1):
            status = "captured" if self.pos[s] < 0 else f"on {ELEMENT_NAMES[self.strong(s)]}"
            aside = ELEMENT_NAMES[self.set_aside[s]] if self.set_aside[s] is not None else "-"
            chosen = " (has chosen)" if s in self.choices else ""
            lines.append(f"  {label(s)}: {status}, tokens {self.tokens[s][0]} blue {self.tokens[s][1]} red, "
                         f"set aside {aside}{chosen}")
        lines.append(f"  centre: {self.centre(0)} blue {self.centre(1)} red")
        if self.winner is not None:
            lines.append(f"  winner: {label(self.winner)} ({self.how})")
        return lines

    def check_invariants(self) -> None:
        assert self.phase in (DISCARD, DUEL, OVER)
        assert sorted(self.path) == list(ELEMENTS)
        for c in (0, 1):
            assert 0 <= self.tokens[0][c] <= 2 and 0 <= self.tokens[1][c] <= 2 and self.centre(c) >= 0
        assert self.yin_yang.count(True) <= 1, "at most one pawn shows its Yin-Yang face"
        assert self.faces or True not in self.yin_yang
        assert set(self.choices) <= {0, 1} and len(self.choices) < 2
        if self.phase == OVER:
            assert self.winner in (0, 1) and not self.choices
            assert self.how == "capture" and self.pos[1 - self.winner] == -1 or \
                self.how == "tokens" and self.tokens[self.winner] == [2, 2]
        else:
            assert 0 <= self.pos[0] < self.pos[1] <= 4, self.pos
            assert self.tokens[0] != [2, 2] and self.tokens[1] != [2, 2]
            for s, e in self.choices.items():
                assert self.phase == DISCARD or e in self.hand(s)
        if self.phase == DISCARD:
            assert self.discard and self.round == 0 and self.set_aside == [None, None]
        if not self.discard:
            assert self.set_aside == [None, None]
