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
from controller.engines.core import Event
from controller.engines.wuxing import Flip, Move, Stay, WuxingGame
from controller.engines.wuxing.actions import PAWN_LETTERS
from controller.engines.wuxing.game import action_words
from controller.engines.wuxing.layout import SIZE
from controller.engines.wuxing.theatre import FLIPPED as NO_ISLAND
from controller.engines.wuxing.theatre import PAWNS
from controller.games.camera_referee import (MAX_ALTERNATIVES, TAKE_BACK, Message, RewindingReferee, RewindingState,
                                             engine_refusal)
from controller.games.wuxing.board import BLACK, EMPTY, FLIPPED, PAWN_MARKS, WHITE, BoardReading, square_label
from controller.i18n import N_
from controller.referee.common import Call, Question, RefereeConfig, RefereeError

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
class _State(RewindingState):
    """Everything that changes as the referee decides, kept whole by :meth:`WuxingReferee.checkpoint`."""

    game: WuxingGame
    #: The marks of the last reading judged: the same board is not judged twice.
    seen: str | None = None
    #: Pawns the game has captured that still stand on the board: square -> mark.
    to_remove: dict[int, str] = dataclasses.field(default_factory=dict)
    pending: BoardReading | None = None
    last: BoardReading | None = None


class WuxingReferee(RewindingReferee[WuxingGame, _State]):
    """Referees le théâtre du duel on the printed board (see the module's docstring)."""

    def __init__(self, game: WuxingGame, config: RefereeConfig) -> None:
        super().__init__(config, _State(game, [], {}))

    @property
    def to_remove(self) -> dict[int, str]:
        return dict(self._s.to_remove)

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
        blocked = i18n.message(N_("something is over the board: the referee waits for a clear view"))
        if not self._look(reading, blocked):
            return []
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
        question = self._question(text, why, CHOICES, (i18n.message(MARK_WORDS[m]) for m in CHOICES.values()),
                                  {"square": square_label(sq)})
        s.asked[question.question_id] = sq
        s.words = i18n.message(N_("the camera is unsure of {squares}: answer on the page"),
                               squares=i18n.listing([square_label(q) for q in sorted(s.asked.values())]))
        return question

    def answer(self, question_id: int, choice: str) -> list[Call | Question]:
        """The players' answer about a square; the reading is judged once every square is answered."""
        self._open_question(question_id, choice)
        done = self._answered(question_id, CHOICES[choice])
        if done is None:
            return []
        pending, answers = done
        return self._judge(pending.with_marks({**{sq: pending.marks[sq] for sq in pending.unsure}, **answers}))

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
            return self._put_back(reading.confidence, i18n.message(N_("the board is as the game has it again")))
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
        return [self._refuse("refused", reading.confidence,
                             i18n.message(N_("{reason}: put the board back as the game has it"), reason=refusal),
                             keys, words)]

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
        return self._offer(played is not None, ((slug(a, game), i18n.message(
            N_("{action} ({move})"), action=action_words(a) or repr(a), move=slug(a, game))) for a in others))

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
        refusal = engine_refusal(self.game, seat, action)
        if refusal is not None:
            return refusal
        words = action_words(action)
        return i18n.message(N_("{action} is legal, but the board shows more than that move"),
                            action=words or repr(action))

    # ---- overrules ----------------------------------------------------------------------------

    def _alternative(self, game: WuxingGame, decision: str) -> tuple[list[Event], list[tuple[int, Any]]]:
        seat = game.current_players()[0]
        action = next(a for a in game.legal_actions(seat) if slug(a, game) == decision)
        return game.apply(seat, action), [(seat, action)]

    def _rewound(self) -> None:
        self._s.to_remove = {}

    def player_action(self, player: int, action: Any) -> Call:
        """What the camera cannot see, announced on the page (staying): checked by the engine."""
        game = self.game
        events = game.apply(player, action)
        return self._call("stayed" if isinstance(action, Stay) else "played", events, [(player, action)], 1.0,
                          None, ())

    # ---- what the table is told ----------------------------------------------------------------

    def _waiting(self) -> Message:
        s = self._s
        game = self.game
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


__all__ = ["CHOICES", "MARK_WORDS", "MAX_ALTERNATIVES", "TAKE_BACK", "WuxingReferee", "marks_of", "player_words",
           "slug"]
