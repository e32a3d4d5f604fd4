"""Le théâtre du duel: 25 islands in a Latin square, four pawns each, blue and red tokens.

The player whose turn it is moves one of his pawns along its row or column to an island whose
element his start island's element dominates (blue arrow, a blue token) or, by the project's
ruling, engenders (red arrow, a red token: see docs/rulings/wuxing.md), never passing over a pawn,
never stopping on his own, passing over empty and turned-over tiles. Landing on an opposing pawn
captures it; capturing the last one wins. A player who cannot move pays a token and stays; a
player out of tokens is skipped. When both are out, the first player then the second turn an
empty island over (neither can: a draw), pawns left alone in their row and column are captured,
and both take back two blue and two red tokens.

Squares are indices 0..24 in reading order from the top-left as seat 0 sees the board (seat 0
sits at the bottom, seat 1 at the top); each player starts in his own bottom-right corner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.engines.core import Event
from controller.engines.wuxing.actions import (
    DIAGONALS,
    PAWN_LETTERS,
    STEPS,
    Flip,
    Move,
    Stay,
    square_name,
)
from controller.engines.wuxing.elements import ARROW, BLUE, CODES, COLOURS, ELEMENT_NAMES, RED
from controller.engines.wuxing.layout import SIZE, Square
from controller.engines.wuxing.words import event

MOVE, FLIP, OVER = "move", "flip", "over"
#: A turned-over tile: no island ("sa face sans île").
FLIPPED = -1
EMPTY = -1
PAWNS = 4
#: Tokens of each colour a player holds at the start and takes back ("deux de chaque couleur").
TOKENS = 2
COLOUR_INDEX = {BLUE: 0, RED: 1}
#: "dans le coin en bas à droite, en carré de deux pions sur deux", each from his own side: pawns
#: A B / C D in the player's reading order. Seat 1 sits opposite, so his corner is the board's top-left.
START = ((18, 19, 23, 24), (6, 5, 1, 0))
#: The first player ("le premier joueur") flips first and starts the game.
FIRST = 0
DIRECTION_STEPS = tuple(STEPS.items())

Label = Callable[[int], str]


def _rays() -> tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]:
    """For each square, each direction's squares in order (distance 1 first)."""
    rays = []
    for sq in range(SIZE * SIZE):
        r, c = divmod(sq, SIZE)
        mine = []
        for name, (dr, dc) in DIRECTION_STEPS:
            line = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < SIZE and 0 <= cc < SIZE:
                line.append(rr * SIZE + cc)
                rr, cc = rr + dr, cc + dc
            mine.append((name, tuple(line)))
        rays.append(tuple(mine))
    return tuple(rays)


RAYS = _rays()
ROWS = tuple(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE))
COLUMNS = tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))


class Theatre:
    """The theatre's state and rules.

    ``board[sq]`` is the island's element or :data:`FLIPPED`; ``pawns[seat][p]`` a pawn's square
    (``-1`` once captured); ``occupant[sq]`` ``seat * 4 + pawn`` or :data:`EMPTY`; ``tokens[seat]``
    ``[blue, red]``; ``to_act`` the seat expected now (the mover, or the flipper).
    """

    def __init__(self, square: Square, red_moves: bool) -> None:
        self.red_moves = red_moves
        #: The islands as laid out at the start (the board changes as islands are turned over).
        self.square = square
        self.board = [e for row in square for e in row]
        self.pawns = [list(START[0]), list(START[1])]
        self.occupant = [EMPTY] * (SIZE * SIZE)
        for seat in (0, 1):
            for p, sq in enumerate(self.pawns[seat]):
                self.occupant[sq] = seat * PAWNS + p
        self.tokens = [[TOKENS, TOKENS], [TOKENS, TOKENS]]
        self.phase = MOVE
        self.to_act = FIRST
        self.last_mover = 1 - FIRST
        self.cycle = 1
        self.turn = 1
        self.result: int | str | None = None   # a winning seat, "draw", or None while playing
        self.last: dict[str, Any] | None = None

    def copy(self) -> Theatre:
        twin = object.__new__(Theatre)
        twin.__dict__.update(self.__dict__)
        twin.board = list(self.board)
        twin.pawns = [list(self.pawns[0]), list(self.pawns[1])]
        twin.occupant = list(self.occupant)
        twin.tokens = [list(self.tokens[0]), list(self.tokens[1])]
        return twin

    # ---- questions -----------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        return () if self.phase == OVER else (self.to_act,)

    def pawns_left(self, seat: int) -> int:
        return sum(1 for sq in self.pawns[seat] if sq >= 0)

    def arrow(self, start: int, end: int) -> str | None:
        """The colour a move from island ``start`` to island ``end`` costs, ``None`` if no move may go there."""
        colour = ARROW[self.board[start]][self.board[end]]
        if colour == RED and not self.red_moves:
            return None
        return colour

    def moves(self, seat: int) -> list[Move]:
        """Every move ``seat`` may make now (token in hand included), in pawn, direction, distance order."""
        board, occupant, tokens = self.board, self.occupant, self.tokens[seat]
        blue, red = tokens[0] > 0, tokens[1] > 0 and self.red_moves
        found = []
        for p, sq in enumerate(self.pawns[seat]):
            if sq < 0:
                continue
            arrows = ARROW[board[sq]]
            for name, line in RAYS[sq]:
                for k, t in enumerate(line, 1):
                    e = board[t]
                    if e != FLIPPED:
                        colour = arrows[e]
                        if (colour == BLUE and blue) or (colour == RED and red):
                            who = occupant[t]
                            if who == EMPTY or who // PAWNS != seat:
                                found.append(Move(p, name, k))
                    if occupant[t] != EMPTY:
                        break
        return found

    def can_move(self, seat: int) -> bool:
        return bool(self.moves(seat))

    def empty_islands(self) -> list[int]:
        """Squares whose island is still there with no pawn on it (what may be turned over)."""
        return [sq for sq in range(SIZE * SIZE) if self.board[sq] != FLIPPED and self.occupant[sq] == EMPTY]

    def legal_actions(self, seat: int) -> list[Any]:
        if self.phase == OVER or seat != self.to_act:
            return []
        if self.phase == FLIP:
            return [Flip(divmod(sq, SIZE)) for sq in self.empty_islands()]
        moves = self.moves(seat)
        if moves:
            return list(moves)
        return [Stay(colour) for colour in COLOURS if self.tokens[seat][COLOUR_INDEX[colour]] > 0]

    def target(self, seat: int, move: Move) -> int | None:
        """The square a move in the board's bounds ends on, ``None`` if it leaves the board."""
        line = RAYS[self.pawns[seat][move.pawn]][list(STEPS).index(move.direction)][1]
        return line[move.distance - 1] if move.distance <= len(line) else None

    # ---- refusing ------------------------------------------------------------------------------

    def explain(self, seat: int, action: Any, label: Label) -> tuple[str, dict[str, Any]]:
        """The rule ``action`` breaks and the message's arguments."""
        player = label(seat)
        if isinstance(action, Flip):
            if self.phase != FLIP:
                return "move-phase", {"player": label(self.to_act)}
            square = tuple(action.square)
            named = (len(square) == 2 and all(type(v) is int and 0 <= v < SIZE for v in square))
            return "flip-square", {"square": square_name(square) if named else repr(action.square)}
        if not isinstance(action, (Move, Stay)):
            return "action-type", {"action": repr(action), "mode": "theatre"}
        if self.phase == FLIP:
            return "flip-phase", {"player": label(self.to_act)}
        if isinstance(action, Stay):
            if self.can_move(seat):
                return "must-move", {"player": player}
            return "no-token", {"player": player, "colour": action.colour}
        pawn = action.pawn
        if type(pawn) is not int or not 0 <= pawn < PAWNS:
            return "pawn-range", {"player": player, "pawn": repr(pawn)}
        letter = PAWN_LETTERS[pawn]
        start = self.pawns[seat][pawn]
        if start < 0:
            return "pawn-captured", {"player": player, "pawn": letter}
        if action.direction in DIAGONALS:
            return "no-diagonal", {"direction": action.direction}
        if action.direction not in STEPS:
            return "direction-name", {"direction": action.direction}
        if type(action.distance) is not int or not 1 <= action.distance < SIZE:
            return "distance-range", {"distance": repr(action.distance)}
        end = self.target(seat, action)
        if end is None:
            return "off-board", {"pawn": letter, "square": square_name(divmod(start, SIZE)),
                                 "distance": action.distance, "direction": action.direction}
        line = RAYS[start][list(STEPS).index(action.direction)][1]
        for sq in line[: action.distance - 1]:
            if self.occupant[sq] != EMPTY:
                return "jump-over-pawn", {"pawn": letter, "square": square_name(divmod(sq, SIZE))}
        where = square_name(divmod(end, SIZE))
        who = self.occupant[end]
        if who != EMPTY and who // PAWNS == seat:
            return "own-pawn", {"square": where, "player": player}
        if self.board[end] == FLIPPED:
            return "target-flipped", {"square": where}
        elements = {"from_element": ELEMENT_NAMES[self.board[start]], "to_element": ELEMENT_NAMES[self.board[end]]}
        colour = self.arrow(start, end)
        if colour is None:
            return ("not-dominated" if self.red_moves else "not-dominated-strict"), elements
        return "token-missing", {**elements, "colour": colour, "player": player}

    # ---- playing -------------------------------------------------------------------------------

    def apply(self, seat: int, action: Any, label: Label | None) -> list[Event] | None:
        events: list[Event] | None = None if label is None else []
        if isinstance(action, Flip):
            self._flip(seat, action.square[0] * SIZE + action.square[1], label, events)
            return events
        if isinstance(action, Move):
            self._move(seat, action, label, events)
        else:
            c = COLOUR_INDEX[action.colour]
            self.tokens[seat][c] -= 1
            self.last = {"turn": self.turn, "seat": seat, "kind": "stay", "colour": action.colour}
            if events is not None:
                events.append(event("stayed", "stayed", {"player": label(seat), "colour": action.colour},
                                    seat=seat, colour=action.colour))
        self.turn += 1
        self.last_mover = seat
        if self.phase == OVER:
            return events
        other = 1 - seat
        if sum(self.tokens[other]):
            self.to_act = other
        elif sum(self.tokens[seat]):
            self.to_act = seat
        else:
            self.phase = FLIP
            self.to_act = FIRST
            if events is not None:
                events.append(event("out-of-tokens", "out-of-tokens", {
                    "first": label(FIRST), "second": label(1 - FIRST)}, first=FIRST))
            self._check_flippable(label, events)
        return events

    def _move(self, seat: int, move: Move, label: Label | None, events: list[Event] | None) -> None:
        start = self.pawns[seat][move.pawn]
        end = self.target(seat, move)
        assert end is not None
        colour = self.arrow(start, end)
        self.tokens[seat][COLOUR_INDEX[colour]] -= 1
        victim = self.occupant[end]
        self.occupant[start] = EMPTY
        self.occupant[end] = seat * PAWNS + move.pawn
        self.pawns[seat][move.pawn] = end
        relation = "dominates" if colour == BLUE else "engenders"
        self.last = {"turn": self.turn, "seat": seat, "kind": "move", "pawn": PAWN_LETTERS[move.pawn],
                     "from": list(divmod(start, SIZE)), "to": list(divmod(end, SIZE)),
                     "from_element": ELEMENT_NAMES[self.board[start]], "to_element": ELEMENT_NAMES[self.board[end]],
                     "relation": relation, "colour": colour, "captured": None}
        if events is not None:
            events.append(event("pawn-moved", "moved", {
                "player": label(seat), "pawn": PAWN_LETTERS[move.pawn], "start": square_name(divmod(start, SIZE)),
                "end": square_name(divmod(end, SIZE)), "from_element": ELEMENT_NAMES[self.board[start]],
                "to_element": ELEMENT_NAMES[self.board[end]], "relation": relation, "colour": colour},
                seat=seat, pawn=move.pawn, path=[list(divmod(start, SIZE)), list(divmod(end, SIZE))], relation=relation,
                colour=colour))
        if victim != EMPTY:
            other, pawn = divmod(victim, PAWNS)
            self.pawns[other][pawn] = -1
            self.last["captured"] = PAWN_LETTERS[pawn]
            if events is not None:
                events.append(event("captured", "captured", {
                    "player": label(seat), "other": label(other), "pawn": PAWN_LETTERS[pawn],
                    "square": square_name(divmod(end, SIZE))}, seat=other, pawn=pawn, by=seat))
            if not self.pawns_left(other):
                self._end(seat, label, events, "won-last-pawn")

    def _check_flippable(self, label: Label | None, events: list[Event] | None) -> None:
        """"Si un joueur n'a pas pu retourner une île vide, il y a partie nulle."""
        if self.empty_islands():
            return
        self.phase = OVER
        self.result = "draw"
        if events is not None:
            events.append(event("game-over", "draw-no-flip", {"player": label(self.to_act)},
                                winners=[0, 1], how="no-flip"))

    def _flip(self, seat: int, sq: int, label: Label | None, events: list[Event] | None) -> None:
        element = self.board[sq]
        self.board[sq] = FLIPPED
        self.last = {"turn": self.turn, "seat": seat, "kind": "flip", "square": list(divmod(sq, SIZE)),
                     "element": ELEMENT_NAMES[element]}
        self.turn += 1
        if events is not None:
            events.append(event("flipped", "flipped", {
                "player": label(seat), "element": ELEMENT_NAMES[element], "square": square_name(divmod(sq, SIZE))},
                seat=seat, square=list(divmod(sq, SIZE))))
        if seat == FIRST:
            self.to_act = 1 - FIRST
            self._check_flippable(label, events)
            return
        self._isolated(label, events)
        if self.phase == OVER:
            return
        self.tokens = [[TOKENS, TOKENS], [TOKENS, TOKENS]]
        self.phase = MOVE
        self.cycle += 1
        self.to_act = 1 - self.last_mover
        if events is not None:
            events.append(event("refill", "refill", {"player": label(self.to_act)}, seat=self.to_act,
                                cycle=self.cycle))

    def alone(self, sq: int) -> bool:
        """Whether the island ``sq`` has no other island in its row and none in its column."""
        r, c = divmod(sq, SIZE)
        board = self.board
        return all(board[x] == FLIPPED for x in ROWS[r] if x != sq) and \
            all(board[x] == FLIPPED for x in COLUMNS[c] if x != sq)

    def _isolated(self, label: Label | None, events: list[Event] | None) -> None:
        """"Si un pion se retrouve sur une île isolée, sans autre île en ligne et en colonne, alors ce
        pion est capturé par l'adversaire." Then a side with no pawn left has lost."""
        for seat in (0, 1):
            for p, sq in enumerate(self.pawns[seat]):
                if sq >= 0 and self.alone(sq):
                    self.pawns[seat][p] = -1
                    self.occupant[sq] = EMPTY
                    if events is not None:
                        events.append(event("captured", "isolated", {
                            "player": label(seat), "pawn": PAWN_LETTERS[p], "square": square_name(divmod(sq, SIZE)),
                            "other": label(1 - seat)}, seat=seat, pawn=p, by=1 - seat, isolated=True))
        out = [seat for seat in (0, 1) if not self.pawns_left(seat)]
        if len(out) == 2:
            self.phase = OVER
            self.result = "draw"
            if events is not None:
                events.append(event("game-over", "draw-both-isolated", {}, winners=[0, 1], how="isolated"))
        elif out:
            self._end(1 - out[0], label, events, "won-last-pawn")

    def _end(self, winner: int, label: Label | None, events: list[Event] | None, msg: str) -> None:
        self.phase = OVER
        self.result = winner
        if events is not None:
            events.append(event("game-over", msg, {"winner": label(winner), "loser": label(1 - winner)},
                                winners=[winner], how="capture"))

    # ---- looking -------------------------------------------------------------------------------

    def public(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "cycle": self.cycle,
            "turn": self.turn,
            "to_act": self.to_act if self.phase != OVER else None,
            "board": [[None if self.board[r * SIZE + c] == FLIPPED else ELEMENT_NAMES[self.board[r * SIZE + c]]
                       for c in range(SIZE)] for r in range(SIZE)],
            "pawns": [[None if sq < 0 else list(divmod(sq, SIZE)) for sq in self.pawns[s]] for s in (0, 1)],
            "tokens": [{"blue": t[0], "red": t[1]} for t in self.tokens],
            "last": self.last,
            "result": self.result,
            "red_moves": self.red_moves,
        }

    def state_dict(self) -> dict[str, Any]:
        return self.public()

    def view(self, seat: int | None) -> dict[str, Any]:
        state = self.public()
        if self.phase == FLIP:
            state["flippable"] = [list(divmod(sq, SIZE)) for sq in self.empty_islands()]
        return state

    def render_lines(self, label: Label) -> list[str]:
        doing = {MOVE: "to move", FLIP: "to turn over an island"}
        title = f"turn {self.turn}, cycle {self.cycle}"
        if self.phase != OVER:
            title += f" - {label(self.to_act)} {doing[self.phase]}"
        lines = [f"Wuxing duel - the theatre - {title}", "      " + "    ".join("abcde")]
        for r in range(SIZE):
            cells = []
            for c in range(SIZE):
                sq = r * SIZE + c
                if self.board[sq] == FLIPPED:
                    cells.append("--  ")
                    continue
                who = self.occupant[sq]
                mark = "." if who == EMPTY else (PAWN_LETTERS[who % PAWNS] if who < PAWNS else
                                                 PAWN_LETTERS[who % PAWNS].lower())
                cells.append(f"{CODES[self.board[sq]]} {mark}")
            lines.append(f"  {SIZE - r}  " + " ".join(cells))
        for s in (0, 1):
            letters = "".join(PAWN_LETTERS[p] if sq >= 0 else "-" for p, sq in enumerate(self.pawns[s]))
            if s == 1:
                letters = letters.lower()
            lines.append(f"  {label(s)}: pawns {letters}, tokens {self.tokens[s][0]} blue {self.tokens[s][1]} red")
        if self.result is not None:
            lines.append("  result: draw" if self.result == "draw" else f"  winner: {label(self.result)}")
        return lines

    def check_invariants(self) -> None:
        assert self.phase in (MOVE, FLIP, OVER)
        seen = {}
        for seat in (0, 1):
            for p, sq in enumerate(self.pawns[seat]):
                if sq >= 0:
                    assert self.board[sq] != FLIPPED, "a pawn stands on a turned-over tile"
                    assert sq not in seen, "two pawns on one island"
                    seen[sq] = seat * PAWNS + p
        assert {sq: w for sq, w in enumerate(self.occupant) if w != EMPTY} == seen
        for t in self.tokens:
            assert 0 <= t[0] <= TOKENS and 0 <= t[1] <= TOKENS
        flipped = self.board.count(FLIPPED)
        assert flipped == 2 * (self.cycle - 1) + (1 if self.phase == FLIP and self.to_act != FIRST else 0) or \
            self.phase == OVER
        if self.phase == MOVE:
            assert sum(self.tokens[self.to_act]) > 0, "the player to move holds a token"
            assert self.pawns_left(0) and self.pawns_left(1)
        if self.phase == FLIP:
            assert self.tokens == [[0, 0], [0, 0]]
        if self.phase == OVER:
            assert self.result in (0, 1, "draw")
            if self.result in (0, 1):
                assert self.pawns_left(1 - self.result) == 0
