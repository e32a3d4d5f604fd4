"""Praxis's referee at the table: turns played by hand on the printed mat, checked by the engine.

The program keeps the pile and rolls every die the rules roll; the players keep their hands on their
phones and move the pieces on the mat. Each still reading of the mat
(:class:`~controller.games.praxis.reading.PraxisReading`) is compared with the game:

* the mat shows what the game has: nothing to do (or, after a refusal, the mat is put back);
* it shows the game after one or two actions of the player to act (an artefact put, a ship moved,
  either order, or a ship taken off the spaceport onto the cell the program rolled, an activation's
  ship moved by a teleporter or built by a shipyard): they are applied, stored and announced, the
  dice the rules roll next are rolled by the program, and what the players must do on the mat (turn
  a ship to its new face, take a discarded artefact away, put the portal back on its rolled cell,
  take the collected artefacts to the spaceport) is said until the mat shows it;
* pieces are only missing (a ship or a tile in a hand): the referee waits;
* a ship turned to a face its artefact did not give is refused with that artefact's rule;
* anything else is refused with the engine's reason for the move it shows (a face that does not
  move that way, a ship in the way, an artefact not in the hand, a cell not next to the ship, not
  his turn...), and nothing changes until the mat is put back, or the referee overrules the call.

Choices the mat cannot show (the torpedo's target, the portal's discarded artefact and its grid,
passing) are announced on the page. A cell read with too little confidence (a tile across an edge, a
die between cells, a hidden marker) is asked about, or the referee waits for the piece to be
straightened; something over the mat makes the referee wait.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from controller import i18n
from controller.engines.core import CHANCE, Event
from controller.engines.praxis import words as praxis_words
from controller.engines.praxis.actions import Build, Keep, Move, Put, TakeOff, Teleport
from controller.engines.praxis.artefacts import FACE_CHANGE, KEYS, KIND, MUTATION
from controller.engines.praxis.game import PraxisGame
from controller.engines.praxis.steps import EMPTY, IN_SPACEPORT, SHIP, SHIPS_PER_PLAYER
from controller.engines.praxis.universe import cell_label
from controller.games.camera_referee import (MAX_ALTERNATIVES, TAKE_BACK, Message, RewindingReferee, RewindingState,
                                             engine_refusal)
from controller.games.praxis.reading import SHIP_COLOURS, CellSeen, MatUniverse, PraxisReading
from controller.i18n import N_
from controller.referee.common import Call, Question, RefereeConfig, RefereeError

#: What a cell holds for the referee: (tile kind or 0, ship colour or None, face; 0 = any face).
Content = tuple[int, str | None, int]
EMPTY_CELL: Content = (0, None, 0)

#: The answers to "what is on this cell?".
CHOICES = ("empty", "as-game")
#: The actions a player chooses on their own phone, in secret: never read off the mat nor offered
#: on the public page (the scanner's two artefacts kept).
SECRET_ACTIONS = (Keep,)
#: The steps at which the game waits for such a choice.
SECRET_STEPS = frozenset({"keep"})

#: What each face-changing artefact does, in the rulebook's words (section 6.5).
EFFECT_RULES: dict[int, str] = {
    KIND["plus-one"]: N_("a Plus one raises the activating ship's face by 1 (« Cet artefact augmente de 1 la face "
                         "du vaisseau activateur »)"),
    KIND["plus-two"]: N_("a Plus two raises the activating ship's face by 2 (« Cet artefact augmente de 2 la face "
                         "du vaisseau activateur »)"),
    KIND["plus-three"]: N_("a Plus three raises the activating ship's face by 3 (« Cet artefact augmente de 3 la "
                           "face du vaisseau activateur »)"),
    KIND["minus-one"]: N_("a Minus one lowers the activating ship's face by 1 (« Cet artefact diminue de 1 la face "
                          "du vaisseau activateur »)"),
    KIND["minus-two"]: N_("a Minus two lowers the activating ship's face by 2 (« Cet artefact diminue de 2 la face "
                          "du vaisseau activateur »)"),
    KIND["minus-three"]: N_("a Minus three lowers the activating ship's face by 3 (« Cet artefact diminue de 3 la "
                            "face du vaisseau activateur »)"),
    MUTATION: N_("a Random mutation draws the activating ship's face (« Cet artefact tire au hasard la face du "
                 "vaisseau activateur »): the program rolled it"),
}
#: Why a ship shows a face, when no artefact changed it.
FACE_RULES = {
    "take-off": N_("a ship taking off from the spaceport enters with its face 1 (« Ce vaisseau rentre "
                   "obligatoirement avec sa face 1 »)"),
    "rolled": N_("the program rolled this ship's face"),
    "kept": N_("a ship keeps its face until an artefact changes it"),
}


#: The ships' colours in words.
COLOUR_WORDS = {"red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow")}


def colour_of(seat: int) -> str:
    return SHIP_COLOURS[seat % len(SHIP_COLOURS)]


def colour_words(colour: str) -> Message:
    return i18n.message(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else i18n.message(colour)


def contents_of(game: PraxisGame, mat: MatUniverse) -> list[Content]:
    """What the game has on each lattice position of the mat."""
    out = [EMPTY_CELL] * (mat.rows * mat.columns)
    for cell, value in enumerate(game.board):
        if value == EMPTY:
            continue
        pos = mat.position(cell)
        if value >= SHIP:
            ship = value - SHIP
            out[pos] = (0, colour_of(ship // SHIPS_PER_PLAYER), game.ship_face[ship])
        else:
            out[pos] = (value, None, 0)
    return out


def seen_content(seen: CellSeen) -> Content:
    return (seen.kind, seen.colour, seen.face)


def agrees(seen: Content, want: Content, loose: bool = False) -> bool:
    """Whether a cell read as ``seen`` shows ``want``; ``loose``: any face of the right ship will do."""
    if seen[0] != want[0] or seen[1] != want[1]:
        return False
    return loose or want[2] == 0 or seen[2] == want[2]


def content_words(content: Content, game: PraxisGame) -> Message:
    kind, colour, face = content
    if colour is not None:
        seat = SHIP_COLOURS.index(colour)
        owner = game.seat_label(seat) if seat < game.num_players else colour
        if face:
            return i18n.message(N_("{player}'s {colour} ship showing {face}"), player=owner,
                                colour=colour_words(colour), face=face)
        return i18n.message(N_("{player}'s {colour} ship"), player=owner, colour=colour_words(colour))
    if kind:
        return i18n.message(N_("a {artefact} tile"), artefact=praxis_words.artefact(KEYS[kind]))
    return i18n.message(N_("nothing"))


def chance_source(game: PraxisGame) -> random.Random:
    """The program's die for the next roll: drawn from the game's seed and its length, so a game
    replays the same and the referee can look one roll ahead while matching a turn."""
    return random.Random(f"praxis-table/{game.seed}/{len(game.history)}")


def roll_through(game: PraxisGame) -> list[tuple[int, Any]]:
    """Roll every die the rules roll now (the program's rolls), in place; the actions applied."""
    done = []
    while not game.is_over() and game.current_players() == (CHANCE,):
        options = game.legal_actions(CHANCE)
        action = options[chance_source(game).randrange(len(options))]
        game.apply_fast(CHANCE, action)
        done.append((CHANCE, action))
    return done


def slug(actions: list[tuple[int, Any]]) -> str:
    """A turn's player actions as an overrule's decision: ``"put plus-one 2.3, move 0 2.5"``."""
    parts = []
    for player, action in actions:
        if player == CHANCE:
            continue
        if isinstance(action, Move):
            parts.append(f"move {action.ship} {cell_label(action.to)}")
        elif isinstance(action, Put):
            parts.append(f"put {action.artefact} {cell_label(action.cell)}")
        elif isinstance(action, TakeOff):
            parts.append("take off")
        elif isinstance(action, Teleport):
            parts.append(f"teleport {cell_label(action.to)}")
        elif isinstance(action, Build):
            parts.append(f"build {cell_label(action.cell)}")
        else:
            parts.append(PraxisGame.encode_action(action).get("type", repr(action)))
    return ", ".join(parts) or "nothing"


@dataclasses.dataclass
class _Candidate:
    """A way the table may have been played: the actions (the program's rolls included) and the game after."""

    actions: list[tuple[int, Any]]
    game: PraxisGame


@dataclasses.dataclass
class _State(RewindingState):
    """Everything that changes as the referee decides, kept whole by :meth:`PraxisReferee.checkpoint`."""

    game: PraxisGame
    seen: tuple[str, ...] | None = None
    pending: PraxisReading | None = None
    #: The turns a "what was played?" question offers, by choice.
    turns: dict[str, _Candidate] = dataclasses.field(default_factory=dict)
    #: Ships' faces before the last call, by lattice position: a face not yet turned is waited for.
    before: dict[int, int] = dataclasses.field(default_factory=dict)
    #: Why each ship's face is what it is now (an artefact's kind, or a FACE_RULES key), by ship.
    face_why: dict[int, Any] = dataclasses.field(default_factory=dict)
    last: PraxisReading | None = None
    #: The mat read while the player's secret choice was awaited, judged once it is made.
    held: PraxisReading | None = None


class PraxisReferee(RewindingReferee[PraxisGame, _State]):
    """Referees Praxis played by hand on the printed mat (see the module's docstring)."""

    def __init__(self, game: PraxisGame, config: RefereeConfig, mat: MatUniverse | None = None) -> None:
        super().__init__(config, _State(game, [], {}))
        self.mat = mat if mat is not None else _printed_mat()
        self._roll(game)                        # the set-up: the portals, the first ships, who plays first

    # ---- the program's rolls -------------------------------------------------------------------

    def _roll(self, game: PraxisGame) -> list[Event]:
        """Roll what the rules roll now, on ``game`` (checked path, events kept)."""
        events: list[Event] = []
        while not game.is_over() and game.current_players() == (CHANCE,):
            options = game.legal_actions(CHANCE)
            events += game.apply(CHANCE, options[chance_source(game).randrange(len(options))])
        self._note_faces(game)
        return events

    def _note_faces(self, game: PraxisGame) -> None:
        why = self._s.face_why
        for ship, cell in enumerate(game.ship_cell):
            if cell == IN_SPACEPORT:
                why.pop(ship, None)
            else:
                why.setdefault(ship, "rolled")

    # ---- watching the table --------------------------------------------------------------------

    def expected(self) -> list[Content]:
        return contents_of(self.game, self.mat)

    def observe(self, reading: Any) -> list[Call | Question]:
        """A still reading of the mat: the calls it makes, the questions it asks, or nothing."""
        if not isinstance(reading, PraxisReading):
            raise RefereeError.said(N_("the camera gives this table dice, not a reading of the Praxis mat: the "
                                       "table must read the mat with the Praxis table reader"))
        if self.game.universe.placements != self.mat.universe.placements:
            raise RefereeError.said(N_("this game's universe is not the printed mat's: start the table game without "
                                       "--universe (the mat's universe is two rows of three grids)"))
        s = self._s
        blocked = i18n.message(N_("something is over the mat: the referee waits for a clear view"))
        if not self._look(reading, blocked):
            return []
        expected = self.expected()
        doubtful = [p for p in reading.unsure if expected[p] != EMPTY_CELL or reading.cells[p].note]
        if doubtful and reading.codes != s.seen:
            s.pending = reading
            s.seen = reading.codes
            return [self._ask(p, reading) for p in doubtful]
        if doubtful:
            return []
        return self._judge(reading)

    def _ask(self, pos: int, reading: PraxisReading) -> Question:
        s = self._s
        label = self.mat.label(pos)
        note = reading.cells[pos].note or "the camera is unsure of it"
        text = i18n.message(N_("What is on {cell}?"), cell=label)
        why = i18n.message(N_("the camera cannot read {cell} ({note}): answer, or straighten the piece there"),
                           cell=label, note=note)
        game_has = content_words(self.expected()[pos], self.game)
        question = self._question(text, why, CHOICES, (
            i18n.message(N_("nothing: the cell is empty")),
            i18n.message(N_("what the game has there: {content}"), content=game_has)), {"cell": label})
        s.asked[question.question_id] = pos
        s.words = i18n.message(N_("the camera cannot read {cells}: answer on the page, or straighten the pieces"),
                               cells=i18n.listing([self.mat.label(p) for p in sorted(s.asked.values())]))
        return question

    def answer(self, question_id: int, choice: str) -> list[Call | Question]:
        """The players' answer about a cell, or about the turn played; the reading is judged once every
        cell is answered."""
        s = self._s
        self._open_question(question_id, choice)
        assert s.pending is not None                # a question is open only about a pending reading
        pos = s.asked[question_id]
        if pos < 0:
            candidate = s.turns[choice]
            del s.questions[question_id]
            reading, s.pending, s.answers, s.asked = s.pending, None, {}, {}
            return self._play(candidate, reading)
        kind, colour, face = EMPTY_CELL if choice == "empty" else self.expected()[pos]
        done = self._answered(question_id, CellSeen(kind, colour, face))
        if done is None:
            return []
        pending, answers = done
        s.seen = None
        return self._judge(pending.with_cells(answers))

    # ---- judging -------------------------------------------------------------------------------

    def _matches(self, reading: PraxisReading, want: list[Content], loose: set[int]) -> bool:
        return all(agrees(seen_content(c), w, p in loose) for p, (c, w) in enumerate(zip(reading.cells, want)))

    def _judge(self, reading: PraxisReading) -> list[Call | Question]:
        s = self._s
        if self.waits_for_phone():
            # Nothing the mat shows is judged before the secret choice: a turn read now would offer
            # the choice's candidates (the scanned artefacts) on the public page.
            s.seen = None
            s.held = reading
            s.words = i18n.message(N_("{player}: choose on your phone the two scanned artefacts to keep; the referee "
                                      "waits for it before judging the mat"),
                                   player=self.game.seat_label(self.game.current_players()[0]))
            return []
        codes = reading.codes
        if codes == s.seen and s.flag is None:
            return []
        s.seen = codes
        expected = self.expected()
        if self._matches(reading, expected, set()):
            s.words = None
            s.before = {}
            return self._put_back(1.0, i18n.message(N_("the mat is as the game has it again")))
        waiting = self._faces_waited(reading, expected)
        if waiting is not None:
            return waiting
        found = self._candidates(reading)
        # Turns that end the same are one: the rules' own order (put, then move) names it.
        found.sort(key=lambda c: not isinstance(c.actions[0][1], Put))
        distinct = list({repr(c.game.state_dict()): c for c in reversed(found)}.values())
        if len(distinct) == 1:
            return self._play(distinct[0], reading)
        if len(distinct) > 1:
            s.pending = reading
            return [self._ask_turn(distinct)]
        refusal = self._explain(reading, expected)
        if refusal is None:
            s.words = self._todo(reading, expected) or i18n.message(
                N_("a piece is off the mat: the referee waits for the turn to end"))
            return []
        keys, alt_words = self._alternatives(None)
        return [self._refuse("refused", 1.0, i18n.message(N_("{reason}: put the mat back as the game has it"),
                                                         reason=refusal), keys, alt_words)]

    def _faces_waited(self, reading: PraxisReading, expected: list[Content]) -> list[Call | Question] | None:
        """The mat is the game's but for ships still showing their face from before the last call (the
        players have yet to turn them): wait, saying so. A ship showing a third face is refused with
        the rule that gave its face. ``None`` when the mat differs otherwise."""
        s = self._s
        pending, wrong = [], []
        for p, (c, w) in enumerate(zip(reading.cells, expected)):
            seen = seen_content(c)
            if agrees(seen, w):
                continue
            if not agrees(seen, w, loose=True):
                return None
            (pending if s.before.get(p) == seen[2] else wrong).append(p)
        if wrong:
            p = wrong[0]
            cell = self.mat.cell(p)
            ship = self.game.board[cell] - SHIP if cell is not None else -1
            why = s.face_why.get(ship)
            rule = (EFFECT_RULES.get(why) if isinstance(why, int) else FACE_RULES.get(why)) or FACE_RULES["kept"]
            reason = i18n.message(N_("{rule}: the ship on {cell} must show {face}, not {shown}"),
                                  rule=i18n.message(rule), cell=self.mat.label(p),
                                  face=expected[p][2], shown=reading.cells[p].face)
            if s.flag is not None and self.flagged is not None and self.flagged.decision == "wrong-effect":
                return []
            return [self._refuse("wrong-effect", 1.0, i18n.message(N_("{reason}: turn it as the rules say"),
                                                                  reason=reason))]
        s.words = self._todo(reading, expected)
        return []

    def _todo(self, reading: PraxisReading, expected: list[Content]) -> Message | None:
        """What the players must still do on the mat for it to show the game, in words."""
        steps = []
        for p, (c, w) in enumerate(zip(reading.cells, expected)):
            seen = seen_content(c)
            if agrees(seen, w):
                continue
            label = self.mat.label(p)
            if w[1] is not None and seen[1] == w[1]:
                steps.append(i18n.message(N_("turn the ship on {cell} to {face}"), cell=label, face=w[2]))
            elif w == EMPTY_CELL:
                steps.append(i18n.message(N_("take {content} off {cell}"), content=content_words(seen, self.game),
                                          cell=label))
            else:
                steps.append(i18n.message(N_("put {content} on {cell}"), content=content_words(w, self.game),
                                          cell=label))
        if not steps:
            return None
        return i18n.message(N_("on the mat: {steps}"), steps=i18n.listing(steps[:6]))

    def _candidates(self, reading: PraxisReading) -> list[_Candidate]:
        """The ways of one or two actions of the player to act (with the program's rolls between
        them) that leave the mat as read; ships whose faces an artefact changed may still show their
        old face."""
        game = self.game
        players = game.current_players()
        if not players or players[0] == CHANCE:
            return []
        seat = players[0]
        now = contents_of(game, self.mat)
        found: list[_Candidate] = []

        def loose(after: PraxisGame) -> set[int]:
            """Where a ship stands whose face the turn changed (it may still show the old one)."""
            return {self.mat.position(cell) for ship, cell in enumerate(after.ship_cell)
                    if cell != IN_SPACEPORT and (game.ship_cell[ship] == IN_SPACEPORT
                                                 or game.ship_face[ship] != after.ship_face[ship])}

        for first in game.legal_actions(seat):
            if isinstance(first, SECRET_ACTIONS):
                continue
            one = game.clone()
            one.apply_fast(seat, first)
            rolls = roll_through(one)
            after = contents_of(one, self.mat)
            changed = [p for p, (a, b) in enumerate(zip(now, after)) if a != b]
            if not all(agrees(seen_content(reading.cells[p]), after[p], after[p][1] is not None) for p in changed):
                continue
            if self._matches(reading, after, loose(one)):
                found.append(_Candidate([(seat, first), *rolls], one))
                continue
            if one.is_over() or one.current_players() != (seat,):
                continue
            for second in one.legal_actions(seat):
                if isinstance(second, SECRET_ACTIONS):
                    continue
                two = one.clone()
                two.apply_fast(seat, second)
                more = roll_through(two)
                final = contents_of(two, self.mat)
                if self._matches(reading, final, loose(two)):
                    found.append(_Candidate([(seat, first), *rolls, (seat, second), *more], two))
        return found

    def _ask_turn(self, found: list[_Candidate]) -> Question:
        s = self._s
        keys = tuple(slug(c.actions) for c in found)[:MAX_ALTERNATIVES]
        text = i18n.message(N_("What was played?"))
        why = i18n.message(N_("the mat shows the end of more than one turn (the order matters): say which"))
        question = self._question(text, why, keys, (self._turn_words(c.actions) for c in found[:MAX_ALTERNATIVES]),
                                  {"turn": True})
        s.asked[question.question_id] = -1
        s.turns = {slug(c.actions): c for c in found}
        s.words = i18n.message(N_("say on the page what was played"))
        return question

    def _turn_words(self, actions: list[tuple[int, Any]]) -> Message:
        parts = [praxis_words.action(self.game, a) for p, a in actions if p != CHANCE]
        return i18n.listing(parts) if parts else i18n.message(N_("nothing"))

    def _play(self, candidate: _Candidate, reading: PraxisReading) -> list[Call | Question]:
        s = self._s
        game = self.game
        keys, alt_words = self._alternatives(candidate.actions)
        faces = {ship: game.ship_face[ship] for ship, cell in enumerate(game.ship_cell) if cell != IN_SPACEPORT}
        s.before = {self.mat.position(cell): faces[ship] for ship, cell in enumerate(candidate.game.ship_cell)
                    if cell != IN_SPACEPORT and ship in faces}
        events: list[Event] = []
        start = len(game.history)
        for player, action in candidate.actions:
            if player == CHANCE:
                continue
            faces = list(game.ship_face)
            events += game.apply(player, action)
            events += self._roll(game)
            self._why_faces(faces, action, events)
        s.flag = None
        s.words = None
        actions = [(p, a) for p, a in game.history[start:]]
        call = self._call("played", events, actions, min(c.confidence for c in reading.cells), None, keys,
                          alternative_words=alt_words, start=start)
        # The same reading against the game now: a face no rule gave is refused at once; what is left
        # to do on the mat (a face to turn, a portal to put back) is said.
        expected = self.expected()
        if self._matches(reading, expected, set()):
            s.before = {}
            return [call]
        more = self._faces_waited(reading, expected)
        if more is None:
            s.words = self._todo(reading, expected)
        return [call, *(more or [])]

    def _why_faces(self, faces: list[int], action: Any, events: list[Event]) -> None:
        """Remember why each ship's face changed in the last action: the artefact it activated, a take-off."""
        why = self._s.face_why
        game = self.game
        activated = [e for e in events if e.kind == "activated"]
        for ship, (was, now) in enumerate(zip(faces, game.ship_face)):
            if game.ship_cell[ship] == IN_SPACEPORT:
                why.pop(ship, None)
            elif was != now:
                if activated and KIND.get(activated[-1].data.get("artefact", ""), 0) in (*FACE_CHANGE, MUTATION):
                    why[ship] = KIND[activated[-1].data["artefact"]]
                elif isinstance(action, TakeOff) or was == 0:
                    why[ship] = "take-off" if now == 1 and isinstance(action, TakeOff) else "rolled"
                else:
                    why[ship] = "rolled"

    # ---- explaining a refusal --------------------------------------------------------------------

    def _explain(self, reading: PraxisReading, expected: list[Content]) -> Message | None:
        """Why the mat is refused, as a message; ``None`` when pieces are only missing (a move under way)."""
        game = self.game
        seen = [seen_content(c) for c in reading.cells]
        new = [p for p, (a, b) in enumerate(zip(seen, expected)) if a != EMPTY_CELL and not agrees(a, b, True)]
        if not new:
            faces = [p for p, (a, b) in enumerate(zip(seen, expected)) if a[1] is not None and agrees(a, b, True)
                     and not agrees(a, b)]
            if not faces:
                return None
        players = game.current_players()
        seat = players[0] if players else 0
        twin = game.clone()
        tiles_new = [p for p in new if seen[p][0] and expected[p] == EMPTY_CELL]
        for p in tiles_new:
            cell = self.mat.cell(p)
            action = Put(KEYS[seen[p][0]], cell if cell is not None else -1)
            reason = engine_refusal(twin, seat, action)
            if reason is not None:
                return reason
            twin.apply_fast(seat, action)
            roll_through(twin)
        ships_new = [p for p in new if seen[p][1] is not None]
        for p in ships_new:
            colour = seen[p][1]
            owner = SHIP_COLOURS.index(colour)
            cell = self.mat.cell(p)
            if owner >= game.num_players:
                return i18n.message(N_("a {colour} ship is on {cell}, but no player has {colour} ships"),
                                    colour=colour_words(colour), cell=self.mat.label(p))
            if owner != seat:
                return i18n.message(N_("{mover}'s ship moved to {cell}, but it is {player}'s turn"),
                                    mover=game.seat_label(owner), cell=self.mat.label(p),
                                    player=game.seat_label(seat))
            gone = [q for q, (a, b) in enumerate(zip(seen, contents_of(twin, self.mat)))
                    if b[1] == colour and a[1] != colour]
            ships = [twin.board[self.mat.cell(q)] - SHIP for q in gone if self.mat.cell(q) is not None]
            if cell is None:
                continue
            if len(ships) == 1:
                action: Any = Move(ships[0] % SHIPS_PER_PLAYER, cell)
            elif not ships and any(twin.ship_cell[s] == IN_SPACEPORT for s in twin.ships_of(seat)):
                action = TakeOff()
            else:
                continue
            reason = engine_refusal(twin, seat, action)
            if reason is not None:
                return reason
            if isinstance(action, TakeOff):
                return i18n.message(N_("a ship taking off from the spaceport enters on the cell the program rolls: "
                                       "announce the take-off by leaving the mat as it was, then put the ship where "
                                       "the program says"))
        changes = self._differences(seen, expected)
        return i18n.message(N_("the mat changed in more ways than one turn makes ({changes})"),
                            changes=i18n.listing(changes[:6]))

    def _differences(self, seen: list[Content], expected: list[Content]) -> list[Message]:
        out = []
        for p, (a, b) in enumerate(zip(seen, expected)):
            if agrees(a, b):
                continue
            out.append(i18n.message(N_("{cell} shows {seen} where the game has {wanted}"), cell=self.mat.label(p),
                                    seen=content_words(a, self.game), wanted=content_words(b, self.game)))
        return out

    # ---- overrules ----------------------------------------------------------------------------

    def _alternatives(self, played: list[tuple[int, Any]] | None) -> tuple[tuple[str, ...], tuple[Message, ...]]:
        """What an overrule may replace a call with: nothing played, or a move of the player's ship or
        a take-off (never a put: the page is public, and a put's artefact would tell the hand)."""
        game = self.game
        players = game.current_players()
        seat = players[0] if players and players[0] != CHANCE else None
        others = [] if seat is None else [a for a in game.legal_actions(seat) if isinstance(a, (Move, TakeOff))]
        return self._offer(bool(played), ((slug([(seat, a)]), praxis_words.action(game, a)) for a in others))

    def _alternative(self, game: PraxisGame, decision: str) -> tuple[list[Event], list[tuple[int, Any]]]:
        """The alternative played, then the program's rolls it calls for."""
        before = len(game.history)
        seat = game.current_players()[0]
        action = next(a for a in game.legal_actions(seat) if slug([(seat, a)]) == decision)
        events = game.apply(seat, action)
        events += self._roll(game)
        return events, [(p, a) for p, a in game.history[before:]]

    def _rewound(self) -> None:
        self._s.before = {}

    def player_action(self, player: int, action: Any) -> Call:
        """A choice the mat cannot show (the torpedo's target, the portal's discard and grid, a pass),
        announced on the page: checked by the engine, then the program's rolls."""
        game = self.game
        start = len(game.history)
        events = game.apply(player, action)
        events += self._roll(game)
        self._s.seen = None
        return self._call("announced", events, [(p, a) for p, a in game.history[start:]], 1.0, None, (), start=start)

    def waits_for_phone(self) -> bool:
        """Whether the game waits for a choice its player makes in secret on their phone."""
        game = self.game
        return not game.is_over() and game.step in SECRET_STEPS

    def after_choice(self) -> list[Call | Question]:
        """Once a choice is made on the page: the mat read while the referee waited for it, judged now
        (a ship moved before the scanner's artefacts were kept); nothing when none was held."""
        s = self._s
        if s.held is None or self.waits_for_phone():
            return []
        reading, s.held, s.words = s.held, None, None
        if self._matches(reading, self.expected(), set()):
            return []
        return self.observe(reading)

    # ---- what the table is told ----------------------------------------------------------------

    def _waiting(self) -> Message:
        s = self._s
        game = self.game
        last = s.last if s.last is not None else PraxisReading(0.0, (CellSeen(),) * len(self.expected()), ())
        if not last.occluded:
            todo = self._todo(last, self.expected())
            if todo is not None:
                return todo
        players = game.current_players()
        seat = players[0]
        step = game.step
        who = game.seat_label(seat)
        if step == "main":
            return i18n.message(N_("{player} ({colour} ships): move a ship and put an artefact from your hand next to "
                                   "it, either first, or take off from your spaceport"),
                                player=who, colour=colour_words(colour_of(seat)))
        if step in praxis_words.EXPECTED:
            return i18n.message(N_("{player}: {step}"), player=who,
                                step=i18n.message(praxis_words.EXPECTED[step]))
        return i18n.message(N_("{player} to play"), player=who)


def _printed_mat() -> MatUniverse:
    from controller.games.praxis.reading import mat_universe
    from controller.vision.mat import load_layout

    return mat_universe(load_layout("praxis"))


__all__ = ["CHOICES", "EFFECT_RULES", "TAKE_BACK", "PraxisReferee", "contents_of"]
