"""What the camera referees of the games played by hand on a printed board share.

A camera referee (the théâtre's, Praxis's, MémoDiXe's) judges each still reading of the table against
its game. Whatever the game, it keeps the same records: the calls it made, the questions it asks the
players when the camera is unsure, and what it tells the table while it waits. It must also be
put back exactly as it was when the table cannot store a call (:meth:`CameraReferee.checkpoint`).
:class:`CameraReferee` holds that part; :class:`RewindingReferee` adds the calls an overrule
replaces by rewinding the game to just before them, and the refusal that stands until the table
is put back, and the reading held while the players answer questions about the places it is unsure
of. A game's referee keeps only its own rules: how a reading compares with the game, what it asks,
and what the table waits for (:meth:`CameraReferee._waiting`).
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from controller import i18n
from controller.engines.core import Event, Game, RuleError
from controller.i18n import N_
from controller.referee.common import Call, Question, RefereeConfig, RefereeError

Message = dict[str, Any]

#: The overrule that says nothing was played: the camera or the player was wrong.
TAKE_BACK = "take back"
#: The most alternatives a call offers.
MAX_ALTERNATIVES = 16


@dataclasses.dataclass
class RefereeState:
    """Everything that changes as a camera referee decides, kept whole by :meth:`CameraReferee.checkpoint`.

    A game's referee extends it with its own fields; every list, dict and set among them is copied
    by a checkpoint, the readings (never changed once made) are shared.
    """

    game: Any
    calls: list[Call]
    questions: dict[int, Question]
    next_call: int = 1
    next_question: int = 1
    #: What the referee says about the table now (a message), when it waits for something.
    words: Message | None = None
    #: The last reading, judged or not.
    last: Any = None


@dataclasses.dataclass
class RewindingState(RefereeState):
    """A :class:`RefereeState` whose calls an overrule may replace."""

    #: The refusal standing until the table is put back: the call's id.
    flag: int | None = None
    #: Each call's start: the number of actions in the game before it.
    starts: dict[int, int] = dataclasses.field(default_factory=dict)
    #: A reading waiting for the players' answers about the places it is unsure of, the answers so
    #: far (by place), and the place each open question asks about.
    pending: Any = None
    answers: dict[int, Any] = dataclasses.field(default_factory=dict)
    asked: dict[int, int] = dataclasses.field(default_factory=dict)


GameT = TypeVar("GameT", bound=Game[Any])
StateT = TypeVar("StateT", bound=RefereeState)
RewindT = TypeVar("RewindT", bound=RewindingState)


def engine_refusal(game: Game[Any], seat: int, action: Any) -> Message | None:
    """The engine's reason for refusing ``action`` by ``seat``, as a message (``None``: it is legal)."""
    try:
        game.check(seat, action)
    except RuleError as exc:
        return dict(exc.words) if exc.words is not None else i18n.message(exc.reason)
    return None


class CameraReferee(Generic[GameT, StateT]):
    """The records every camera referee keeps: calls, questions, what it waits for, checkpoints."""

    def __init__(self, config: RefereeConfig, state: StateT) -> None:
        self.config = config
        self._s = state

    # ---- the protocol's attributes -------------------------------------------------------------

    @property
    def game(self) -> GameT:
        return self._s.game

    @property
    def calls(self) -> list[Call]:
        return self._s.calls

    @property
    def questions(self) -> dict[int, Question]:
        return self._s.questions

    @property
    def last_reading(self) -> Any:
        """The last reading of the table, judged or not."""
        return self._s.last

    def checkpoint(self) -> StateT:
        """The state as it is: the game cloned, every list, dict and set copied."""
        s = self._s
        copies = {field.name: copy.copy(getattr(s, field.name)) for field in dataclasses.fields(s)
                  if isinstance(getattr(s, field.name), (list, dict, set))}
        return dataclasses.replace(s, game=s.game.clone(), **copies)

    def restore(self, checkpoint: StateT) -> None:
        """Go back to ``checkpoint`` (which stays as it is, to be restored again)."""
        self._s = dataclasses.replace(checkpoint)
        self._s = self.checkpoint()

    # ---- questions -----------------------------------------------------------------------------

    def _question(self, text: Message, why: Message, choices: Iterable[str], choice_messages: Iterable[Any],
                  data: dict[str, Any]) -> Question:
        """Ask the players ``text`` (because ``why``), numbered and kept open until answered."""
        s = self._s
        question = Question(s.next_question, i18n.said(text, i18n.SOURCE_LANGUAGE), tuple(choices),
                            i18n.said(why, i18n.SOURCE_LANGUAGE), message=text, reason_message=why,
                            choice_messages=tuple(choice_messages), data=data)
        s.next_question += 1
        s.questions[question.question_id] = question
        return question

    def _open_question(self, question_id: int, choice: str) -> Question:
        """The open question ``question_id``, once ``choice`` is one of its answers; else a
        :class:`RefereeError` naming the open questions or the answers."""
        questions = self._s.questions
        question = questions.get(question_id)
        if question is None:
            raise RefereeError.said(N_("there is no open question {number}; open: {open}"), number=question_id,
                                    open=i18n.listing(sorted(questions)) if questions else i18n.message(N_("none")))
        if choice not in question.choices:
            raise RefereeError.said(N_("{choice} is not an answer to question {number}: answer {choices}"),
                                    choice=repr(choice), number=question_id,
                                    choices=i18n.listing(i18n.message(N_("“{choice}”"), choice=c)
                                                         for c in question.choices))
        return question

    # ---- calls ---------------------------------------------------------------------------------

    def _call(self, decision: str, events: list[Event], actions: list[tuple[int, Any]], confidence: float,
              words: Message | None, alternatives: tuple[str, ...] = (), overrules: int | None = None,
              start: int | None = None, alternative_words: tuple[Message, ...] = ()) -> Call:
        """Record a call: ``words`` (why, when the events do not say it all) and the public events, as
        its reason. An event meant for some seats alone is never part of it. ``start`` is where its
        actions begin in the game's history (by default, they are the last ones)."""
        s = self._s
        parts = ([words] if words is not None else []) + [e.message or i18n.message(e.text) for e in events
                                                          if not e.data.get("audience")]
        message = parts[0] if parts else i18n.message(N_("nothing was played"))
        for part in parts[1:]:
            message = i18n.message(N_("{first}; {then}"), first=message, then=part)
        call = Call(s.next_call, decision, i18n.said(message, i18n.SOURCE_LANGUAGE), confidence, tuple(actions),
                    tuple(events), alternatives, overrules, message=message, alternative_messages=alternative_words)
        s.next_call += 1
        s.calls.append(call)
        return call

    # ---- what the table is told ----------------------------------------------------------------

    def _waiting(self) -> Message:
        """What the table waits for while the game goes on and the referee has nothing else to say."""
        raise NotImplementedError

    def words(self) -> Message:
        """What the table waits for, as a message."""
        if self.game.is_over():
            return i18n.message(N_("the game is over"))
        if self._s.words is not None:
            return self._s.words
        return self._waiting()

    def prompt_message(self) -> Message:
        return self.words()

    def prompt(self) -> str:
        """What the table waits for, in English (:meth:`prompt_message` says it in any language)."""
        return i18n.said(self.words(), i18n.SOURCE_LANGUAGE)


class RewindingReferee(CameraReferee[GameT, RewindT]):
    """A camera referee whose calls may be overruled: the game is rewound to just before the call,
    the alternative played, and the later actions replayed while they stay legal. A refused table
    stays refused (:attr:`flagged`) until it is put back, played right, or the call overruled. A
    reading unsure of some places is held until the players have said what each shows."""

    @property
    def flagged(self) -> Call | None:
        """The refusal standing until the table is put back, if any."""
        return next((c for c in self._s.calls if c.call_id == self._s.flag), None)

    def _look(self, reading: Any, blocked: Message) -> bool:
        """Keep ``reading`` as the last one; whether it is to be judged: not once the game is over, nor
        while something hides the table (``blocked`` is said then). One to judge closes the questions
        asked about the reading before."""
        s = self._s
        s.last = reading
        if self.game.is_over():
            return False
        if reading.occluded:
            s.words = blocked
            return False
        self._forget_questions()
        return True

    def _forget_questions(self) -> None:
        """Close every question, and let go of the reading they were about."""
        s = self._s
        s.questions.clear()
        s.pending, s.answers, s.asked = None, {}, {}

    def _answered(self, question_id: int, value: Any) -> tuple[Any, dict[int, Any]] | None:
        """Close question ``question_id``, ``value`` being what its place shows: once no question is
        left, the reading they were about and every answer by place (and the reading is let go of);
        ``None`` while questions remain."""
        s = self._s
        s.answers[s.asked[question_id]] = value
        del s.questions[question_id]
        if s.questions:
            return None
        done = s.pending, s.answers
        s.pending, s.answers, s.asked = None, {}, {}
        return done

    def _call(self, decision: str, events: list[Event], actions: list[tuple[int, Any]], confidence: float,
              words: Message | None, alternatives: tuple[str, ...] = (), overrules: int | None = None,
              start: int | None = None, alternative_words: tuple[Message, ...] = ()) -> Call:
        call = super()._call(decision, events, actions, confidence, words, alternatives, overrules, start,
                             alternative_words)
        self._s.starts[call.call_id] = len(self.game.history) - len(actions) if start is None else start
        return call

    def _refuse(self, decision: str, confidence: float, words: Message, alternatives: tuple[str, ...] = (),
                alternative_words: tuple[Message, ...] = ()) -> Call:
        """A call refusing what the table shows: it stands (and ``words`` are said) until the table is
        put back."""
        call = self._call(decision, [], [], confidence, words, alternatives, alternative_words=alternative_words)
        self._s.words = words
        self._s.flag = call.call_id
        return call

    def _put_back(self, confidence: float, words: Message) -> list[Call | Question]:
        """The table shows the game again: the call that says so when a refusal stood, else nothing."""
        if self._s.flag is None:
            return []
        self._s.flag = None
        return [self._call("put-back", [], [], confidence, words, ())]

    @staticmethod
    def _offer(played: bool, others: Iterable[tuple[str, Message]]) -> tuple[tuple[str, ...], tuple[Message, ...]]:
        """A call's alternatives, as decisions and in words: taking it back when something was played,
        then ``others`` (decision, words), as many as :data:`MAX_ALTERNATIVES` allows in all."""
        offered = list(itertools.islice(others, MAX_ALTERNATIVES - 1))
        keys = ((TAKE_BACK,) if played else ()) + tuple(key for key, _ in offered)
        words = ((i18n.message(N_("take back: nothing was played")),) if played else ()) + tuple(
            said for _, said in offered)
        return keys, words

    def _alternative(self, game: GameT, decision: str) -> tuple[list[Event], list[tuple[int, Any]]]:
        """Play the alternative ``decision`` (never "take back") on ``game``, rewound to just before
        the call: its events and the actions applied."""
        raise NotImplementedError

    def _rewound(self) -> None:
        """Forget, after an overrule, what the referee was waiting for on the table."""

    def overrule(self, call_id: int, decision: str) -> Call:
        """Replace call ``call_id`` by one of its alternatives: the game is rewound to just before it,
        the alternative played (nothing for "take back"), and the later actions replayed while they
        stay legal."""
        s = self._s
        call = next((c for c in s.calls if c.call_id == call_id), None)
        if call is None:
            raise RefereeError.said(N_("no call {number} to overrule"), number=call_id)
        if decision not in call.alternatives:
            raise RefereeError.said(N_("call {number} can be overruled with: {choices}, not {decision}"),
                                    number=call_id, decision=repr(decision),
                                    choices=", ".join(call.alternatives) or i18n.message(N_("nothing")))
        start = s.starts[call_id]
        history = list(self.game.history)
        later = history[start + len(call.actions):]
        game = type(self.game)(self.game.options, seed=self.game.seed)
        game.name_seats(self.game.seat_names)
        for player, action in history[:start]:
            game.apply_fast(player, action)
        events, actions = self._alternative(game, decision) if decision != TAKE_BACK else ([], [])
        for player, action in later:
            try:
                game.apply(player, action)
            except RuleError:
                break
        s.game = game
        s.flag = None
        self._forget_questions()
        self._rewound()
        words = i18n.message(N_("call {call} overruled by the referee"), call=call_id)
        return self._call(decision, events, actions, 1.0, words, (), overrules=call_id, start=start)


__all__ = ["MAX_ALTERNATIVES", "TAKE_BACK", "CameraReferee", "RefereeState", "RewindingReferee", "RewindingState",
           "engine_refusal"]
