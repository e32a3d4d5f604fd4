"""The théâtre's referee at the table: moves made by hand on the printed board, checked by the engine.

Each still reading of the board (:class:`~controller.games.wuxing.board.BoardReading`) is compared
with the game:

* the board shows what the game has: nothing to do (or, after a refusal, the board is put back);
* it shows the game after exactly one legal action of the player to act (a pawn moved, an opposing
  pawn taken off the square it landed on, an island covered with a card once the tokens are out):
  that action is applied, stored and announced, captures included;
* pawns are only missing (a pawn in a hand, a captured pawn taken away): the referee waits;
* anything else is refused with the engine's reason for the move it shows (a pawn that jumped
  another, an element its island does not dominate, a token its player has no more, not his turn...),
  and nothing changes until the board is put back, a legal move is made instead, or the referee
  overrules the call with what was really played.

Staying (paying a token without moving) cannot be seen: it is announced on the page. A square read
with too little confidence is asked about when it matters. Pawns the engine captures by itself (left
alone on an island after islands are turned over) stay on the board until someone takes them away,
and the prompt says so.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from controller import i18n
from controller.engines.core import Event, RuleError
from controller.engines.wuxing import Flip, Move, Stay, WuxingGame
from controller.engines.wuxing.actions import PAWN_LETTERS
from controller.engines.wuxing.game import action_words
from controller.engines.wuxing.layout import SIZE
from controller.engines.wuxing.theatre import FLIPPED as NO_ISLAND
from controller.engines.wuxing.theatre import PAWNS
from controller.games.wuxing.board import BLACK, EMPTY, FLIPPED, PAWN_MARKS, WHITE, BoardReading, square_label
from controller.i18n import N_
from controller.referee.common import Call, Question, RefereeConfig, RefereeError

Message = dict[str, Any]

#: The overrule that says nothing was played: the camera or the player was wrong.
TAKE_BACK = "take back"
#: The most alternatives a call offers.
MAX_ALTERNATIVES = 16
#: What a square shows, in words, by mark.
MARK_WORDS = {WHITE: N_("a white pawn"), BLACK: N_("a black pawn"), EMPTY: N_("the empty island"),
              FLIPPED: N_("a card: the island is turned over")}
#: The answers to "what is on this square?": the answer's key, and the mark it gives.
CHOICES = {"white": WHITE, "black": BLACK, "empty": EMPTY, "covered": FLIPPED}


def marks_of(game: WuxingGame) -> str:
    """The théâtre's board as marks (see :mod:`.board`), square by square in reading order."""
    rules = game.rules
    out = []
    for sq in range(SIZE * SIZE):
        who = rules.occupant[sq]
        out.append(FLIPPED if rules.board[sq] == NO_ISLAND else EMPTY if who < 0 else PAWN_MARKS[who // PAWNS])
    return "".join(out)


def slug(action: Any, game: WuxingGame) -> str:
    """An action as an overrule's decision: ``"A c2→c4"``, ``"flip c3"``, ``"stay blue"``."""
    if isinstance(action, Move):
        seat = game.rules.to_act
        start = game.rules.pawns[seat][action.pawn]
        end = game.rules.target(seat, action)
        return f"{PAWN_LETTERS[action.pawn]} {square_label(start)}→{square_label(end if end is not None else start)}"
    if isinstance(action, Flip):
        return f"flip {square_label(action.square[0] * SIZE + action.square[1])}"
    if isinstance(action, Stay):
        return f"stay {action.colour}"
    return repr(action)


def player_words(game: WuxingGame, seat: int) -> Message:
    """A player by name and pawn colour: "Ada (white pawns)"."""
    text = N_("{player} (white pawns)") if seat == 0 else N_("{player} (black pawns)")
    return i18n.message(text, player=game.seat_label(seat))


@dataclasses.dataclass
class _State:
    """Everything that changes as the referee decides, kept whole by :meth:`WuxingReferee.checkpoint`."""

    game: WuxingGame
    calls: list[Call]
    questions: dict[int, Question]
    next_call: int = 1
    next_question: int = 1
    #: The marks of the last reading judged: the same board is not judged twice.
    seen: str | None = None
    #: The refusal standing until the board is put back: the call's id.
    flag: int | None = None
    #: Pawns the game has captured that still stand on the board: square -> mark.
    to_remove: dict[int, str] = dataclasses.field(default_factory=dict)
    #: Each call's start: the number of actions in the game before it.
    starts: dict[int, int] = dataclasses.field(default_factory=dict)
    #: A reading waiting for the players' answers about unsure squares, and the answers so far.
    pending: BoardReading | None = None
    answers: dict[int, str] = dataclasses.field(default_factory=dict)
    asked: dict[int, int] = dataclasses.field(default_factory=dict)
    #: What the referee says about the board now (a message).
    words: Message | None = None
    #: The last reading, judged or not.
    last: BoardReading | None = None


class WuxingReferee:
    """Referees le théâtre du duel on the printed board (see the module's docstring)."""

    def __init__(self, game: WuxingGame, config: RefereeConfig) -> None:
        self.config = config
        self._s = _State(game, [], {})

    # ---- the protocol's attributes -------------------------------------------------------------

    @property
    def game(self) -> WuxingGame:
        return self._s.game

    @property
    def calls(self) -> list[Call]:
        return self._s.calls

    @property
    def questions(self) -> dict[int, Question]:
        return self._s.questions

    @property
    def flagged(self) -> Call | None:
        """The refusal standing until the board is put back, if any."""
        return next((c for c in self._s.calls if c.call_id == self._s.flag), None)

    @property
    def to_remove(self) -> dict[int, str]:
        return dict(self._s.to_remove)

    @property
    def last_reading(self) -> BoardReading | None:
        return self._s.last

    def checkpoint(self) -> _State:
        s = self._s
        return dataclasses.replace(s, game=s.game.clone(), calls=list(s.calls), questions=dict(s.questions),
                                   to_remove=dict(s.to_remove), starts=dict(s.starts), answers=dict(s.answers),
                                   asked=dict(s.asked))

    def restore(self, checkpoint: _State) -> None:
        self._s = dataclasses.replace(checkpoint)
        self._s = self.checkpoint()

    # ---- watching the board --------------------------------------------------------------------

    def observe(self, reading: Any) -> list[Call | Question]:
        """A still reading of the board: the call it makes, the questions it asks, or nothing."""
        if not isinstance(reading, BoardReading):
            raise RefereeError.said(N_("the camera gives this table dice, not a reading of the théâtre board: "
                                       "the table must read the board with the Wuxing board reader"))
        game = self.game
        if game.mode != "theatre":
            raise RefereeError.said(N_("le chemin du duel is played with secret cards on the wheels, not on the "
                                       "printed board: start the table game with --mode theatre"))
        if reading.islands != game.rules.square:
            raise RefereeError.said(N_("this game's islands are not the printed board's: start the table game "
                                       "with --mode theatre --islands printed"))
        s = self._s
        s.last = reading
        if game.is_over():
            return []
        if reading.occluded:
            s.words = i18n.message(N_("something is over the board: the referee waits for a clear view"))
            return []
        s.questions.clear()
        s.pending, s.answers, s.asked = None, {}, {}
        expected = marks_of(game)
        doubtful = [sq for sq in reading.unsure if reading.marks[sq] != self._tolerated(expected)[sq]]
        if doubtful and reading.marks != s.seen:
            s.pending = reading
            return [self._ask(sq, reading) for sq in doubtful]
        return self._judge(reading.with_marks({sq: reading.marks[sq] for sq in reading.unsure}))

    def _ask(self, sq: int, reading: BoardReading) -> Question:
        s = self._s
        text = i18n.message(N_("What is on {square}?"), square=square_label(sq))
        why = i18n.message(N_("the camera is unsure of {square} (it read {mark})"), square=square_label(sq),
                           mark=i18n.message(MARK_WORDS[reading.marks[sq]]))
        question = Question(s.next_question, i18n.said(text, i18n.SOURCE_LANGUAGE), tuple(CHOICES),
                            i18n.said(why, i18n.SOURCE_LANGUAGE), message=text, reason_message=why,
                            choice_messages=tuple(i18n.message(MARK_WORDS[m]) for m in CHOICES.values()),
                            data={"square": square_label(sq)})
        s.next_question += 1
        s.questions[question.question_id] = question
        s.asked[question.question_id] = sq
        s.words = i18n.message(N_("the camera is unsure of {squares}: answer on the page"),
                               squares=i18n.listing([square_label(q) for q in sorted(s.asked.values())]))
        return question

    def answer(self, question_id: int, choice: str) -> list[Call | Question]:
        s = self._s
        question = s.questions.get(question_id)
        if question is None or s.pending is None:
            raise RefereeError(f"there is no open question {question_id}")
        if choice not in question.choices:
            raise RefereeError(f"{choice!r} is not a choice of question {question_id}: {', '.join(question.choices)}")
        mark = CHOICES[choice]
        s.answers[s.asked[question_id]] = mark
        del s.questions[question_id]
        if s.questions:
            return []
        reading = s.pending.with_marks({**{sq: s.pending.marks[sq] for sq in s.pending.unsure}, **s.answers})
        s.pending, s.answers, s.asked = None, {}, {}
        return self._judge(reading)

    # ---- judging -------------------------------------------------------------------------------

    def _tolerated(self, expected: str) -> str:
        """The board as it may stand: ``expected`` with the captured pawns not yet taken away."""
        board = list(expected)
        for sq, mark in self._s.to_remove.items():
            if board[sq] == EMPTY:
                board[sq] = mark
        return "".join(board)

    @staticmethod
    def _agrees(marks: str, expected: str, leftovers: dict[int, str]) -> bool:
        """Whether the board ``marks`` is ``expected``, the pawns in ``leftovers`` there or taken away."""
        return all(m == e or (e == EMPTY and leftovers.get(i) == m) for i, (m, e) in enumerate(zip(marks, expected)))

    def _judge(self, reading: BoardReading) -> list[Call | Question]:
        s = self._s
        game = self.game
        marks = reading.marks
        if marks == s.seen:
            return []
        s.seen = marks
        expected = marks_of(game)
        s.to_remove = {sq: m for sq, m in s.to_remove.items() if marks[sq] == m and expected[sq] == EMPTY}
        if self._agrees(marks, expected, s.to_remove):
            s.words = None
            if s.flag is not None:
                s.flag = None
                return [self._call("put-back", [], [], reading.confidence, i18n.message(
                    N_("the board is as the game has it again")), ())]
            return []
        seat = game.current_players()[0]
        found = []
        for action in game.legal_actions(seat):
            if isinstance(action, Stay):
                continue
            twin = game.clone()
            twin.apply_fast(seat, action)
            after = marks_of(twin)
            leftovers = {**s.to_remove, **self._isolated(expected, after, action)}
            if self._agrees(marks, after, leftovers):
                found.append((action, leftovers))
        if len(found) == 1:
            return [self._play(seat, *found[0], reading)]
        refusal = self._explain(marks, expected, seat)
        if refusal is None:
            s.words = i18n.message(N_("a pawn is off the board: the referee waits for the move to end"))
            return []
        keys, words = self._alternatives(game, None)
        call = self._call("refused", [], [], reading.confidence,
                          i18n.message(N_("{reason}: put the board back as the game has it"), reason=refusal),
                          keys, alternative_words=words)
        s.flag = call.call_id
        return [call]

    def _isolated(self, before: str, after: str, action: Any) -> dict[int, str]:
        """Pawns the engine took by itself in ``action`` (left alone on their island), by square."""
        if not isinstance(action, Flip):
            return {}
        return {sq: m for sq, (m, n) in enumerate(zip(before, after)) if m in PAWN_MARKS and n == EMPTY}

    def _play(self, seat: int, action: Any, leftovers: dict[int, str], reading: BoardReading) -> Call:
        s = self._s
        game = self.game
        keys, words = self._alternatives(game, action)
        events = game.apply(seat, action)
        now = marks_of(game)
        s.to_remove = {sq: m for sq, m in leftovers.items() if now[sq] == EMPTY and reading.marks[sq] == m}
        s.flag = None
        s.words = None
        decision = ("flipped" if isinstance(action, Flip) else
                    "captured" if any(e.kind == "captured" for e in events) else "moved")
        return self._call(decision, events, [(seat, action)], reading.confidence, None, keys, alternative_words=words)

    def _alternatives(self, game: WuxingGame, played: Any) -> tuple[tuple[str, ...], tuple[Message, ...]]:
        """What an overrule may replace a call with (nothing played, or another action of the player),
        as decisions and in words."""
        seat = game.current_players()[0] if game.current_players() else None
        others = [] if seat is None else [a for a in game.legal_actions(seat) if a != played]
        others = others[:MAX_ALTERNATIVES - 1]
        keys = ((TAKE_BACK,) if played is not None else ()) + tuple(slug(a, game) for a in others)
        words = ((i18n.message(N_("take back: nothing was played")),) if played is not None else ()) + tuple(
            i18n.message(N_("{action} ({move})"), action=action_words(a) or repr(a), move=slug(a, game)) for a in others)
        return keys, words

    def _explain(self, marks: str, expected: str, seat: int) -> Message | None:
        """Why the board is refused, as a message; ``None`` when pawns are only missing (a move under way)."""
        tolerated = self._tolerated(expected)
        gone = {sq: e for sq, (m, e) in enumerate(zip(marks, tolerated)) if e in PAWN_MARKS and m != e}
        new = {sq: m for sq, (m, e) in enumerate(zip(marks, tolerated)) if m in PAWN_MARKS and m != e}
        covered = [sq for sq, (m, e) in enumerate(zip(marks, tolerated)) if m == FLIPPED and e != FLIPPED]
        uncovered = [sq for sq, (m, e) in enumerate(zip(marks, tolerated)) if e == FLIPPED and m != FLIPPED]
        if not new and not covered and not uncovered:
            return None
        if uncovered:
            return i18n.message(N_("the island on {squares} was turned over: its card must stay on it"),
                                squares=i18n.listing([square_label(q) for q in uncovered]))
        if len(new) == 1 and not covered:
            (end, mark), = new.items()
            mover = PAWN_MARKS.index(mark)
            starts = [sq for sq, m in gone.items() if m == mark]
            others = [sq for sq, m in gone.items() if m != mark and sq != end]
            if len(starts) == 1 and not others:
                return self._move_reason(mover, starts[0], end, seat)
        if len(covered) == 1 and not new and not gone:
            return self._error(seat, Flip(divmod(covered[0], SIZE)))
        changes = ([i18n.message(N_("a pawn left {square}"), square=square_label(q)) for q in sorted(gone)]
                   + [i18n.message(N_("a white pawn is on {square}") if new[q] == WHITE else
                                   N_("a black pawn is on {square}"), square=square_label(q)) for q in sorted(new)]
                   + [i18n.message(N_("{square} is covered"), square=square_label(q)) for q in covered])
        return i18n.message(N_("the board changed in more ways than one move makes ({changes})"),
                            changes=i18n.listing(changes))

    def _move_reason(self, mover: int, start: int, end: int, seat: int) -> Message:
        game = self.game
        if mover != seat:
            return i18n.message(N_("{mover} moved a pawn, but it is {player}'s turn"),
                                mover=player_words(game, mover), player=player_words(game, seat))
        (r0, c0), (r1, c1) = divmod(start, SIZE), divmod(end, SIZE)
        dr, dc = r1 - r0, c1 - c0
        pawn = game.rules.pawns[mover].index(start)
        if dr == 0 or dc == 0:
            direction = ("down" if dr > 0 else "up") if dr else ("right" if dc > 0 else "left")
            move = Move(pawn, direction, max(abs(dr), abs(dc)))
        elif abs(dr) == abs(dc):
            move = Move(pawn, f"{'down' if dr > 0 else 'up'}-{'right' if dc > 0 else 'left'}", abs(dr))
        else:
            return i18n.message(N_("pawn {pawn} went from {start} to {end}: a pawn moves along its row or its column"),
                                pawn=PAWN_LETTERS[pawn], start=square_label(start), end=square_label(end))
        return self._error(mover, move)

    def _error(self, seat: int, action: Any) -> Message:
        """The engine's reason for refusing ``action``, as a message."""
        try:
            self.game.check(seat, action)
        except RuleError as exc:
            return dict(exc.words) if exc.words is not None else i18n.message(exc.reason)
        words = action_words(action)
        return i18n.message(N_("{action} is legal, but the board shows more than that move"),
                            action=words or repr(action))

    # ---- calls ---------------------------------------------------------------------------------

    def _call(self, decision: str, events: list[Event], actions: list[tuple[int, Any]], confidence: float,
              words: Message | None, alternatives: tuple[str, ...], overrules: int | None = None,
              start: int | None = None, alternative_words: tuple[Message, ...] = ()) -> Call:
        s = self._s
        parts = ([words] if words is not None else []) + [e.message or i18n.message(e.text) for e in events]
        message = parts[0] if parts else i18n.message(N_("nothing was played"))
        for part in parts[1:]:
            message = i18n.message(N_("{first}; {then}"), first=message, then=part)
        call = Call(s.next_call, decision, i18n.said(message, i18n.SOURCE_LANGUAGE), confidence, tuple(actions),
                    tuple(events), alternatives, overrules, message=message, alternative_messages=alternative_words)
        s.next_call += 1
        s.starts[call.call_id] = len(self.game.history) - len(actions) if start is None else start
        s.calls.append(call)
        s.words = words if decision == "refused" else s.words
        return call

    def overrule(self, call_id: int, decision: str) -> Call:
        """Replace call ``call_id`` by one of its alternatives: the game is rewound to just before it,
        the alternative played (nothing for "take back"), and the later actions replayed while they
        stay legal."""
        s = self._s
        call = next((c for c in s.calls if c.call_id == call_id), None)
        if call is None:
            raise RefereeError(f"no call {call_id} to overrule")
        if decision not in call.alternatives:
            raise RefereeError(f"call {call_id} can be overruled with: {', '.join(call.alternatives) or 'nothing'}, "
                               f"not {decision!r}")
        start = s.starts[call_id]
        history = list(self.game.history)
        later = history[start + len(call.actions):]
        game = WuxingGame(self.game.options, seed=self.game.seed)
        game.name_seats(self.game.seat_names)
        for player, action in history[:start]:
            game.apply_fast(player, action)
        events: list[Event] = []
        actions: list[tuple[int, Any]] = []
        if decision != TAKE_BACK:
            seat = game.current_players()[0]
            action = next(a for a in game.legal_actions(seat) if slug(a, game) == decision)
            events = game.apply(seat, action)
            actions = [(seat, action)]
        for player, action in later:
            try:
                game.apply(player, action)
            except RuleError:
                break
        s.game = game
        s.flag = None
        s.questions.clear()
        s.pending = None
        s.to_remove = {}
        words = i18n.message(N_("call {call} overruled by the referee"), call=call_id)
        return self._call(decision, events, actions, 1.0, words, (), overrules=call_id, start=start)

    def player_action(self, player: int, action: Any) -> Call:
        """What the camera cannot see, announced on the page (staying): checked by the engine."""
        game = self.game
        events = game.apply(player, action)
        return self._call("stayed" if isinstance(action, Stay) else "played", events, [(player, action)], 1.0,
                          None, ())

    # ---- what the table is told ----------------------------------------------------------------

    def words(self) -> Message:
        """What the table waits for, as a message."""
        s = self._s
        game = self.game
        if game.is_over():
            return i18n.message(N_("the game is over"))
        if s.words is not None:
            return s.words
        if s.to_remove:
            return i18n.message(N_("take the captured pawns off {squares}"),
                                squares=i18n.listing([square_label(q) for q in sorted(s.to_remove)]))
        seat = game.current_players()[0]
        if game.phase == "flip":
            return i18n.message(N_("{player}: cover an empty island with a card"), player=player_words(game, seat))
        if not game.rules.can_move(seat):
            return i18n.message(N_("{player} cannot move: announce on the page which token to pay"),
                                player=player_words(game, seat))
        return i18n.message(N_("{player}: move a pawn"), player=player_words(game, seat))

    def prompt_message(self) -> Message:
        return self.words()

    def prompt(self) -> str:
        """What the table waits for, in English (:meth:`prompt_message` says it in any language)."""
        return i18n.said(self.words(), i18n.SOURCE_LANGUAGE)
