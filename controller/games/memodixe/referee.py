"""MémoDiXe's referee at the table: the square of real DiXes, watched by the camera.

Each still reading of the square (:class:`~controller.games.memodixe.camera.SquareReading`) is
compared with the game, step by step of what the game waits for:

* a roll (setting up, the die of a pair that is not won, a refill, a power's reroll): the die must
  lie on its place showing a face it carries; that face is the roll. A die that comes back showing
  the face and the turn it had before it was taken (a refill: as it lay in the reserve) may not have
  been rolled: the referee asks.
* a flip: a die showing its hidden face is turned over ("retourner"). A die moved or turned on its
  place without being turned over, or tipped onto a side (a face its layout puts beside the top), was
  touched: "tout DiXe touché devra obligatoirement être retourné", and the referee says so and waits.
  Two different faces: the dice go back as they were; a die put back on the other's place is named.
  The layouts learn a flip only once its call is made, never from a reading merely judged.
* a pair: the die taken off the square is the one won; the other is rolled again.
* a power that moves dice (swap, set aside, reroll) is seen; every other choice (peek, steal, give,
  the optional rule's choice) and « DiXe ! » are announced on the page.

« DiXe ! » is checked at once from the last still reading, without turning anything over: the
camera knows every die's layout (:mod:`.layouts`), so the top faces give the hidden ones, and the
call's reason names the pair still possible, or says that none is.

Whatever the camera cannot read for sure is asked; whatever is out of place (a hand over the square,
a die on its edge or between places, two dice on one place, a die the game does not expect) is
waited for with the reason said. Nothing is judged on a reading the referee doubts. The hidden
faces the camera knows stay in the referee: its words name a face only once it is turned up.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from controller import i18n
from controller.engines.core import CHANCE, Event
from controller.engines.memodixe import (
    CallDixe,
    Flip,
    MemodixeGame,
    Peek,
    Reroll,
    Roll,
    SetAside,
    Swap,
    Take,
    place_label,
)
from controller.engines.memodixe.game import ONI
from controller.engines.memodixe.words import face as face_words
from controller.games.camera_referee import CameraReferee, Message, RefereeState
from controller.games.memodixe.camera import SquareReading
from controller.games.memodixe.layouts import FaceLayouts
from controller.i18n import N_
from controller.referee.common import Call, Question, RefereeConfig, RefereeError

log = logging.getLogger(__name__)

#: A die turned more than this (degrees) or moved more than this (mm) on its place was touched.
TOUCH_DEG = 8.0
TOUCH_MM = 6.0
#: A die back within this turn of how it lay before (and on the same face) may not have been rolled.
SAME_TURN_DEG = 5.0
#: The answers to "was it rolled?".
ROLLED, NOT_ROLLED = "rolled", "not rolled"


@dataclasses.dataclass
class _State(RefereeState):
    """Everything that changes as the referee decides, kept whole by :meth:`MemodixeReferee.checkpoint`."""

    game: MemodixeGame
    last: SquareReading | None = None
    #: Per place, how its die lay when last accepted: (kind shown, angle, x, y).
    lay: dict[int, tuple[str, float, float, float]] = dataclasses.field(default_factory=dict)
    #: Per place, how its die lay before it was taken to be rolled: (kind, angle, the reading's id).
    before_roll: dict[int, tuple[str, float, int]] = dataclasses.field(default_factory=dict)
    #: The reserve's dice as last seen: (kind, angle) each.
    reserve: list[tuple[str | None, float]] = dataclasses.field(default_factory=list)
    #: Places the players said were rolled, and faces they told, for the reading being judged.
    rolled: set[int] = dataclasses.field(default_factory=set)
    told: dict[int, str] = dataclasses.field(default_factory=dict)
    #: Places turned up by a flip that found no pair, to be turned back.
    turn_back: set[int] = dataclasses.field(default_factory=set)
    #: Places whose die a player may lift and put back (a peek announced on the page).
    may_move: set[int] = dataclasses.field(default_factory=set)
    #: The open question's subject: (kind, place).
    asking: dict[int, tuple[str, int]] = dataclasses.field(default_factory=dict)
    #: Flips of the call being made, as (die, face that was up, face it showed): learnt once it is made.
    learning: list[tuple[str, str, str]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class _Wrong:
    """What is out of place on the square, to be put right before anything is judged."""

    words: Message


class MemodixeReferee(CameraReferee[MemodixeGame, _State]):
    """Referees MémoDiXe « Chacun pour soi » on the printed mat (see the module's docstring)."""

    def __init__(self, game: MemodixeGame, config: RefereeConfig, layouts: FaceLayouts | None = None,
                 save: bool = False) -> None:
        super().__init__(config, _State(game, [], {}))
        self.layouts = layouts or FaceLayouts.from_book(game.book)
        #: Whether pairs learnt from flips are written for later games (see FaceLayouts.save).
        self.save = save

    # ---- what the game expects -----------------------------------------------------------------

    def die_at(self, place: int) -> str | None:
        """The data's name of the die the game has at ``place`` (``None``: none lies there)."""
        game = self.game
        die = game.die[place]
        return game.die_names[die] if die >= 0 else None

    def _kind(self, face: str | None) -> str | None:
        return None if face is None else self.game.book.kind(face)

    def _read(self, reading: SquareReading, place: int) -> tuple[str | None, float]:
        """The kind shown at ``place`` and how sure, a face the players told taking precedence."""
        told = self._s.told.get(place)
        if told is not None:
            return told, 1.0
        kind, _face, conf = reading.read_as(place, self.die_at(place) or self._rolling_die(place))
        return kind, conf

    def _rolling_die(self, place: int) -> str | None:
        step = self.game.queue[0] if self.game.queue else None
        if step is not None and step[0] == "roll" and step[2] == place:
            return self.game.die_names[step[3]]
        return None

    # ---- watching the square -------------------------------------------------------------------

    def observe(self, reading: Any) -> list[Call | Question]:
        """A still reading of the square: the call it makes, the questions it asks, or nothing."""
        if not isinstance(reading, SquareReading):
            raise RefereeError.said(N_("the camera gives this table something else than a reading of the MémoDiXe "
                                       "square: the table must read it with the MémoDiXe square reader"))
        s = self._s
        s.last = reading
        s.rolled.clear()
        s.told.clear()
        s.questions.clear()
        s.asking.clear()
        return self._judge(reading)

    def _judge(self, reading: SquareReading) -> list[Call | Question]:
        s = self._s
        game = self.game
        s.words = None
        if game.is_over():
            return []
        if game.mode == ONI:
            s.words = i18n.message(N_("the table camera referees « Chacun pour soi »; play « Oni contre tous » on "
                                      "the phones"))
            return []
        trouble = self._out_of_place(reading)
        if trouble is not None:
            s.words = trouble
            return []
        actions: list[tuple[int, Any]] = []
        events: list[Event] = []
        confidence = 1.0
        result: list[Call | Question] = []
        for _ in range(40):
            if game.is_over():
                break
            outcome = self._step(reading)
            if outcome is None:
                break
            if isinstance(outcome, Question):
                result.append(outcome)
                break
            player, action, sure = outcome
            events.extend(self._apply(player, action, reading))
            actions.append((player, action))
            confidence = min(confidence, sure)
        s.reserve = [(d.kind, d.angle_deg) for d in reading.reserve]
        if actions:
            result.insert(0, self._call(self._decision(actions), events, actions, confidence, None))
            self._learn()
        return result

    def _out_of_place(self, reading: SquareReading) -> Message | None:
        """Why the square cannot be judged now, or ``None``."""
        if reading.occluded:
            return i18n.message(N_("a hand is over the square: waiting for the table to be clear"))
        if reading.crowded:
            return i18n.message(N_("two dice lie on {place}: one die a place"), place=place_label(reading.crowded[0]))
        for place, seen in enumerate(reading.places):
            if seen is None:
                continue
            if not seen.flat:
                return i18n.message(N_("the die at {place} does not lie flat (on its edge, or on another die): lay it "
                                       "flat on its place"), place=place_label(place))
            if seen.off_place:
                return i18n.message(N_("the die at {place} lies on its place's border: push it inside its place"),
                                    place=place_label(place))
        if reading.strays:
            d = reading.strays[0]
            return i18n.message(N_("a die lies off the square and the reserve (at {x}, {y} mm): put it on its place, in "
                                   "the reserve, or off the mat"), x=round(d.x_mm), y=round(d.y_mm))
        return None

    def _step(self, reading: SquareReading) -> tuple[int, Any, float] | Question | None:
        """The next action the reading shows for what the game waits for, a question, or ``None`` (then
        :attr:`_State.words` may say what the table waits for)."""
        game = self.game
        step = game.queue[0]
        kind = step[0]
        if kind == "roll":
            return self._roll(reading, step)
        found = self._misplaced(reading, allow_flips=kind in ("turn", "second"), allow_gone=kind in ("take", "aside"),
                                allow_swap=kind == "swap", allow_reroll=kind == "reroll")
        if isinstance(found, Question):
            return found
        if isinstance(found, _Wrong):
            self._s.words = found.words
            return None
        changed = found
        seat = step[1]
        if kind in ("turn", "second"):
            flips = changed.get("flipped", [])
            if flips:
                return seat, Flip(flips[0]), 1.0
            return None
        if kind == "take":
            gone = [p for p in changed.get("gone", []) if p in (step[2], step[3])]
            if len(gone) == 1:
                return seat, Take(gone[0]), 1.0
            if len(gone) == 2:
                self._s.words = i18n.message(N_("both dice of the pair are off the square: put back the one you do not "
                                                "win, as it lay"))
            return None
        if kind == "aside":
            gone = changed.get("gone", [])
            if len(gone) == 1:
                return seat, SetAside(gone[0]), 1.0
            return None
        if kind == "swap":
            pair = changed.get("swapped", [])
            if len(pair) == 2:
                return seat, Swap(min(pair), max(pair)), 1.0
            return None
        if kind == "reroll":
            moved = changed.get("rerolled", [])
            if len(moved) == 1:
                return seat, Reroll(moved[0]), 1.0
            return None
        return None

    # ---- rolls ---------------------------------------------------------------------------------

    def _roll(self, reading: SquareReading, step: tuple[Any, ...]) -> tuple[int, Any, float] | Question | None:
        s = self._s
        game = self.game
        place, die_no, purpose = step[2], step[3], step[4]
        die = game.die_names[die_no]
        seen = reading.places[place]
        if seen is None:
            return None
        kind, conf = self._read(reading, place)
        faces = [a.face for a in game.legal_actions(CHANCE) if isinstance(a, Roll)]
        if kind is None or conf < self.config.min_confidence:
            return self._ask_face(place, die, kind)
        face = next((f for f in faces if self._kind(f) == kind), None)
        if face is None:
            s.words = i18n.message(N_("the die at {place} shows {face}, which the die that goes there does not carry: put "
                                      "that die there (see the prompt) and roll it"), place=place_label(place),
                                   face=face_words(kind))
            return None
        if place not in s.rolled:
            before: tuple[str | None, float] | None = None
            if place in s.before_roll:
                kind_before, angle_before, seen_in = s.before_roll[place]
                if seen_in == id(reading):
                    return None          # the die is still to be taken and rolled
                before = (kind_before, angle_before)
            if purpose == "refill":
                gone = self._left_reserve(reading)
                before = next(((k, a) for k, a in gone if k == kind), None)
            if before is not None and before[0] == kind and _turn(before[1], seen.angle_deg) < SAME_TURN_DEG:
                return self._ask_rolled(place)
        s.before_roll.pop(place, None)
        return CHANCE, Roll(face), conf

    def _left_reserve(self, reading: SquareReading) -> list[tuple[str | None, float]]:
        """The reserve's dice seen before that it no longer holds."""
        now = [(d.kind, d.angle_deg) for d in reading.reserve]
        gone = []
        for kind, angle in self._s.reserve:
            match = next((i for i, (k, a) in enumerate(now) if k == kind and _turn(a, angle) < SAME_TURN_DEG), None)
            if match is None:
                gone.append((kind, angle))
            else:
                now.pop(match)
        return gone

    # ---- the square against the game -----------------------------------------------------------

    def _misplaced(self, reading: SquareReading, allow_flips: bool, allow_gone: bool, allow_swap: bool,
                   allow_reroll: bool) -> dict[str, list[int]] | _Wrong | Question:
        """How the square differs from the game: the changes the step allows, by kind (``flipped``,
        ``gone``, ``swapped``, ``rerolled``), or what is wrong, or a question."""
        s = self._s
        game = self.game
        changes: dict[str, list[int]] = {}
        wrong: list[Message] = []
        shown: dict[int, str | None] = {}
        for place in range(9):
            die = self.die_at(place)
            seen = reading.places[place]
            if die is None or game.top[place] is None:
                if seen is not None and not any(a[0] == place for a in game.aside):
                    wrong.append(i18n.message(N_("a die lies on {place}, which the game has empty: take it off"),
                                              place=place_label(place)))
                continue
            if seen is None:
                if allow_gone:
                    changes.setdefault("gone", []).append(place)
                else:
                    wrong.append(i18n.message(N_("the die at {place} is missing: put it back as it lay"),
                                              place=place_label(place)))
                continue
            kind, conf = self._read(reading, place)
            if kind is None or conf < self.config.min_confidence:
                return self._ask_face(place, die, kind)
            shown[place] = kind
        for place, kind in shown.items():
            die = self.die_at(place)
            assert die is not None
            top, bottom = self._kind(game.top[place]), self._kind(self.layouts.opposite(die, game.top[place] or ""))
            up = place in game.up
            expect = bottom if up else top
            seen = reading.places[place]
            assert seen is not None
            if kind == expect:
                if place in s.turn_back:
                    s.turn_back.discard(place)
                if place in s.may_move:          # peeked at and put back: it lies as it lies now
                    s.may_move.discard(place)
                    s.lay[place] = (kind, seen.angle_deg, seen.x_mm, seen.y_mm)
                lay = s.lay.get(place)
                if lay is not None and lay[0] == kind and not allow_reroll and (
                        _turn(lay[1], seen.angle_deg) > TOUCH_DEG or abs(lay[2] - seen.x_mm) + abs(lay[3] - seen.y_mm)
                        > TOUCH_MM):
                    wrong.append(i18n.message(N_("the die at {place} was touched but not turned over: a touched die "
                                                 "must be turned over (« tout DiXe touché devra obligatoirement être "
                                                 "retourné »)"), place=place_label(place)))
                continue
            if kind == bottom and not up and place in s.turn_back:
                wrong.append(i18n.message(N_("turn the die at {place} back as it was"), place=place_label(place)))
                continue
            if kind == bottom and not up and allow_flips:
                changes.setdefault("flipped", []).append(place)
                continue
            other = next((q for q, k in shown.items() if q != place and k == top and kind == self._kind(game.top[q])),
                         None)
            if other is not None:
                if allow_swap:
                    changes.setdefault("swapped", []).append(place)
                else:
                    wrong.append(i18n.message(N_("the dice at {place} and {other} were put back on each other's places: "
                                                 "swap them back"), place=place_label(place), other=place_label(other)))
                continue
            if allow_reroll and not up:
                changes.setdefault("rerolled", []).append(place)
                s.before_roll[place] = (top or "", s.lay.get(place, ("", seen.angle_deg))[1], 0)
                continue
            if up:
                wrong.append(i18n.message(N_("the die at {place} should show {face}, as it was turned up: put it back "
                                             "so"), place=place_label(place), face=face_words(expect or "")))
            elif self.layouts.carries(die, self.layouts.face_of_kind(die, kind) or "") and allow_flips:
                if self._on_a_side(die, game.top[place] or "", self.layouts.face_of_kind(die, kind) or ""):
                    wrong.append(i18n.message(N_("the die at {place} was tipped onto a side: it was touched but not "
                                                 "turned over; a touched die must be turned over (« tout DiXe touché "
                                                 "devra obligatoirement être retourné »)"), place=place_label(place)))
                else:
                    # The layout cannot tell this face from the one under the top: a flip, learnt once called.
                    changes.setdefault("flipped", []).append(place)
            else:
                wrong.append(i18n.message(N_("the die at {place} should show {face}: put it back as it lay"),
                                          place=place_label(place), face=face_words(top or "")))
        flips = changes.get("flipped", [])
        if allow_flips and len(flips) > 1 and game.queue[0][0] == "second":
            wrong.append(i18n.message(N_("more than one die was turned over: turn over one die")))
        if wrong:
            return _Wrong(wrong[0])
        return changes

    def _on_a_side(self, die: str, top: str, shown: str) -> bool:
        """Whether ``die``'s layout puts ``shown`` on a side of ``top`` (neither ``top`` nor under it):
        so when the face under ``top`` is known (and is not ``shown``), or the face under ``shown`` is
        known and is not ``top``. Only when the layout knows neither can ``shown`` be under ``top``."""
        if shown == top:
            return False
        under_top = self.layouts.opposite(die, top)
        if under_top is not None:
            return under_top != shown
        under_shown = self.layouts.opposite(die, shown)
        return under_shown is not None and under_shown != top

    # ---- applying, learning --------------------------------------------------------------------

    def _apply(self, player: int, action: Any, reading: SquareReading) -> list[Event]:
        s = self._s
        game = self.game
        step = game.queue[0]
        events = game.apply(player, action)
        if isinstance(action, Flip):
            die = game.die_names[game.die[action.place]]
            face = game.bottom[action.place]
            seen, _conf = self._read(reading, action.place)
            learnt = self.layouts.face_of_kind(die, seen) if seen is not None else None
            under = learnt if learnt is not None else face
            if under is not None:
                s.learning.append((die, game.top[action.place] or "", under))
            if step[0] == "second" and not game.up:
                s.turn_back.update({step[2], action.place})
        if isinstance(action, (Take, SetAside)):
            s.lay.pop(action.place, None)
        # A die the game now wants rolled again lies as it did: remembered, to tell a roll from none.
        for st in game.queue:
            if st[0] == "roll" and st[4] not in ("setup", "refill") and st[2] not in s.before_roll:
                seen = reading.places[st[2]]
                kind = self._read(reading, st[2])[0] if seen is not None else None
                if seen is not None and kind is not None:
                    s.before_roll[st[2]] = (kind, seen.angle_deg, id(reading))
        # Whatever the game now holds on the square is how the dice lie.
        for place, seen in enumerate(reading.places):
            if seen is not None and game.die[place] >= 0 and game.top[place] is not None:
                kind, _conf = self._read(reading, place)
                if kind is not None:
                    s.lay[place] = (kind, seen.angle_deg, seen.x_mm, seen.y_mm)
        return events

    def _learn(self) -> None:
        """Teach the layouts the flips of the call just made (never a reading merely judged), and keep them."""
        s = self._s
        if not s.learning:
            return
        for die, up, under in s.learning:
            self.layouts.learn_flip(die, up, under)
        s.learning.clear()
        if self.save:
            self._keep()

    def _keep(self) -> None:
        """Write the pairs learnt so far; a failure is only logged (the game goes on, learning again)."""
        try:
            self.layouts.save()
        except OSError as exc:
            log.warning("the dice layouts learnt could not be saved: %s", exc)

    @staticmethod
    def _decision(actions: list[tuple[int, Any]]) -> str:
        first = actions[-1][1]
        return {Roll: "rolled", Flip: "flipped", Take: "won", Swap: "swapped", SetAside: "set-aside",
                Reroll: "rerolled", CallDixe: "dixe"}.get(type(first), "played")

    # ---- questions -----------------------------------------------------------------------------

    def _ask_face(self, place: int, die: str, guess: str | None) -> Question:
        """Ask what the die at ``place`` shows; the choices are every kind of face there is, so that
        the question tells nothing of the die's hidden face."""
        kinds = tuple(self.game.book.kinds)
        text = i18n.message(N_("What does the die at {place} show on top?"), place=place_label(place))
        reason = i18n.message(N_("the camera cannot read it for sure"))
        question = self._question(text, reason, kinds, (face_words(k) for k in kinds), {"place": place_label(place)})
        self._s.asking[question.question_id] = ("face", place)
        return question

    def _ask_rolled(self, place: int) -> Question:
        text = i18n.message(N_("Was the die at {place} rolled?"), place=place_label(place))
        reason = i18n.message(N_("it shows the face and the turn it had before it was taken"))
        question = self._question(text, reason, (ROLLED, NOT_ROLLED), (
            i18n.message(N_("yes, it was rolled")), i18n.message(N_("no: it will be rolled now"))),
            {"place": place_label(place)})
        self._s.asking[question.question_id] = ("rolled", place)
        return question

    def answer(self, question_id: int, choice: str) -> list[Call | Question]:
        """The players' answer; the reading it was asked about is judged again with it."""
        s = self._s
        self._open_question(question_id, choice)
        what, place = s.asking.pop(question_id)
        del s.questions[question_id]
        if what == "face":
            s.told[place] = choice
        elif choice == ROLLED:
            s.rolled.add(place)
        else:
            s.words = i18n.message(N_("roll the die at {place} and put it back as it lands"), place=place_label(place))
            return []
        if s.last is None:
            return []
        return self._judge(s.last)

    # ---- « DiXe ! » --------------------------------------------------------------------------

    def dixe_check(self, reading: SquareReading | None = None) -> tuple[str, tuple[int, int] | None, Message]:
        """Whether a « DiXe ! » cried now is right, from the still square alone: ``("right", None, why)``,
        ``("wrong", (a, b), why)`` naming two dice hiding faces that pair, or ``("unsure", None, why)``
        when the camera cannot tell (a die unread, a die the game does not have there, a face of a die
        whose layout is not known)."""
        reading = reading or self._s.last
        game = self.game
        if reading is None:
            return "unsure", None, i18n.message(N_("the camera has not seen the square still yet"))
        if reading.occluded:
            return "unsure", None, i18n.message(N_("a hand is over the square"))
        # Everything that can make the answer unsure is public (what lies where, what the camera reads,
        # which layouts it knows): it is all checked before any hidden face is looked at, so that
        # "unsure" tells nothing of where a pair lies.
        under: dict[int, str] = {}
        for place in game.usable():
            die = self.die_at(place)
            kind, conf = self._read(reading, place)
            if die is None or kind is None or conf < self.config.min_confidence:
                return "unsure", None, i18n.message(N_("the die at {place} cannot be read for sure"),
                                                    place=place_label(place))
            top = self.layouts.face_of_kind(die, kind)
            if top is None or kind != self._kind(game.top[place]):
                return "unsure", None, i18n.message(N_("the die at {place} does not show what the game has there"),
                                                    place=place_label(place))
            hides = self.layouts.opposite(die, top)
            if hides is None:
                return "unsure", None, i18n.message(N_("the camera does not know what the die at {place} hides"),
                                                    place=place_label(place))
            under[place] = hides
        hidden: dict[str, int] = {}
        for place, face in under.items():
            pairs = self._kind(face)
            assert pairs is not None
            if pairs in hidden:
                a = hidden[pairs]
                return "wrong", (a, place), i18n.message(N_("a pair is left: the dice at {a} and {b} hide the same "
                                                             "symbol"), a=place_label(a), b=place_label(place))
            hidden[pairs] = place
        return "right", None, i18n.message(N_("no pair is left: the {count} hidden faces are all different"),
                                           count=len(hidden))

    # ---- calls ---------------------------------------------------------------------------------

    def overrule(self, call_id: int, decision: str) -> Call:
        """The camera's calls offer no alternative: a call the table disagrees with is put right on the
        square itself (the referee waits until it shows what the game has)."""
        raise RefereeError.said(N_("call {number} cannot be overruled: put the dice as the game has them, or start a new "
                                   "game"), number=call_id)

    def player_action(self, player: int, action: Any) -> Call:
        """What the camera cannot see, announced on the page: « DiXe ! » (checked at once from the still
        square), a power's choice, the optional rule's choice. Checked by the engine."""
        game = self.game
        if isinstance(action, CallDixe):
            game.check(player, action)
            verdict, _pair, why = self.dixe_check()
            if verdict == "unsure":
                raise RefereeError.said(N_("the camera cannot check « DiXe ! » now ({why}): wait until the square is "
                                           "still and read, then cry again"), why=i18n.said(why, i18n.SOURCE_LANGUAGE))
            events = game.apply(player, action)
            engine_right = any(e.kind == "dixe-right" for e in events)
            agree = engine_right == (verdict == "right")
            words = i18n.message(N_("« DiXe ! » checked by the camera without turning anything over: {why}"), why=why)
            if not agree:
                words = i18n.message(N_("{said} (the dice data says otherwise and the game follows it: check the dice "
                                        "data)"), said=words)
            return self._call("dixe", events, [(player, action)], 1.0 if agree else 0.5, words)
        events = game.apply(player, action)
        if isinstance(action, Peek):
            self._s.may_move.add(action.place)
        return self._call(self._decision([(player, action)]), events, [(player, action)], 1.0, None)

    # ---- what the table is told ----------------------------------------------------------------

    def _waiting(self) -> Message:
        """What the table waits for, as a message (never a hidden face)."""
        game = self.game
        step = game.queue[0]
        kind = step[0]
        if kind == "roll":
            purpose = step[4]
            rolls = [st for st in game.queue if st[0] == "roll"]
            if purpose == "setup":
                return i18n.message(N_("roll the dice and lay each as it lands on its place: {places}"),
                                    places=i18n.listing([f"{place_label(st[2])} {game.die_names[st[3]]}" for st in rolls]))
            if purpose == "refill":
                return i18n.message(N_("draw die {die} from the reserve, roll it and lay it as it lands on {place}"),
                                    die=game.die_names[step[3]], place=place_label(step[2]))
            return i18n.message(N_("roll the die of {place} and lay it back as it lands"), place=place_label(step[2]))
        who = game.seat_label(step[1]) if step[1] >= 0 else ""
        if kind == "turn":
            return i18n.message(N_("{player}: turn over a die, or cry « DiXe ! » on the page"), player=who)
        if kind == "second":
            return i18n.message(N_("{player}: turn over a second die"), player=who)
        if kind == "take":
            return i18n.message(N_("{player}: take the die you win, {a} or {b}, off the square"), player=who,
                                a=place_label(step[2]), b=place_label(step[3]))
        if kind == "swap":
            return i18n.message(N_("{player}: swap two dice of the square without turning them, or skip on the page"),
                                player=who)
        if kind == "aside":
            return i18n.message(N_("{player}: set a die of the square aside"), player=who)
        if kind == "reroll":
            return i18n.message(N_("{player}: roll a die of the square and lay it back as it lands"), player=who)
        return i18n.message(N_("on the page: {waiting}"), waiting=game.waiting())


def _turn(a: float, b: float) -> float:
    """How far apart two turns of a square face are, in degrees (a quarter turn looks the same)."""
    d = abs(a - b) % 90.0
    return min(d, 90.0 - d)


__all__ = ["NOT_ROLLED", "ROLLED", "MemodixeReferee"]
