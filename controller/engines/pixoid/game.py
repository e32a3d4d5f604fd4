"""Pixoid (8Bit Box): one player is Pixoid, the little energy cube; the others are Bugs chasing it.

A round ("manche"): Pixoid places its cube on a start Pix, then each Bug clockwise. Then turns of
three phases: secret programming (every player sets a direction and a distance, 1 to 9, on their
controller), movement (Pixoid moves first, its whole program, stopping against a wall; then all
Bugs at once), score (Pixoid, if not caught, takes a neutral cube from the reserve of 12). The
round ends when a path meets the other side ("le chemin de Pixoid s'arrête ou passe sur un Pix où
se trouve un Bug", and the same for a Bug's path onto Pixoid), or when Pixoid takes the 12th
reserve cube. Everyone is Pixoid once; the most points wins, ties share the win.

Variants: 3 players (a fourth Bug whose controller passes between the two Bug players each turn)
and the short game (one round; Pixoid wins at once on its 12th cube of any kind, a capture before
that is a win for all Bugs). Every decision the rulebook leaves open is written in
``docs/rulings/pixoid.md`` with the test that pins it.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, ClassVar

from controller import i18n
from controller.engines.core import (
    Event,
    Game,
    GameOptions,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    OptionsError,
    RuleError,
)
from controller.engines.pixoid import render as _render
from controller.engines.pixoid import words
from controller.engines.pixoid.actions import (
    DIAGONALS,
    DIRECTION_INDEX,
    ORTHOGONAL,
    Place,
    Program,
    decode,
    encode,
)
from controller.engines.pixoid.board import MAX_DISTANCE, Board, BoardError, board_from_text, load_board
from controller.i18n import N_, listing

#: Cubes in the reserve at the start of each round ("Placez les 12 cubes neutres restants").
RESERVE_CUBES = 12
#: Cubes a short-game Pixoid needs ("Pixoid doit parvenir à obtenir 12 cubes neutres").
SHORT_GAME_TARGET = 12
#: Pieces on the board: one per player, and in the 3-player game a fourth Bug.
PIECES = 4
#: The board a game uses when its options name none.
DEFAULT_BOARD = "classic"

PLACEMENT, PROGRAMMING, OVER = "placement", "programming", "over"
#: Who controls each piece when every seat plays its own (the 4-player game): piece ``i``, seat ``i``.
OWN_PIECES: tuple[int, ...] = tuple(range(PIECES))
#: Why a program into a wall right against the piece is refused, by direction ("vous ne pouvez pas
#: programmer une direction vers un mur contre lequel vous vous trouvez déjà").
WALL_AHEAD: dict[str, str] = {
    "up": N_("there is a wall just above {piece} on {pix}: program another direction"),
    "right": N_("there is a wall just to the right of {piece} on {pix}: program another direction"),
    "down": N_("there is a wall just below {piece} on {pix}: program another direction"),
    "left": N_("there is a wall just to the left of {piece} on {pix}: program another direction"),
}


@dataclasses.dataclass(frozen=True)
class PixoidOptions(GameOptions):
    """How a game of Pixoid is set up.

    ``board`` is the whole board as a drawn grid (see ``docs/pixoid-boards.md``), so a saved game
    replays on exactly the board it was played on even if the shipped boards change later.
    """

    players: int = 4
    short_game: bool = False
    board: str = dataclasses.field(default_factory=lambda: load_board(DEFAULT_BOARD).text)

    def validate(self) -> None:
        if self.players not in (3, 4):
            raise OptionsError(f"Pixoid is played by 3 or 4 players, not {self.players!r}")
        if not isinstance(self.short_game, bool):
            raise OptionsError(f"option short_game must be true or false, not {self.short_game!r}")
        if not isinstance(self.board, str):
            raise OptionsError("option board must be the board's drawn grid as text")
        try:
            board_from_text(self.board)
        except BoardError as exc:
            raise OptionsError(f"the board in the options cannot be used: {exc}") from None

    @classmethod
    def with_board(cls, board: Board | str, **fields: Any) -> PixoidOptions:
        """Options playing on ``board`` (a :class:`Board` or a shipped board's name)."""
        if isinstance(board, str):
            board = load_board(board)
        return cls(board=board.text, **fields)


class _Tables:
    """Per-board lookup tables of ready-made actions, shared by every game on that board."""

    _cache: ClassVar[dict[tuple[str, ...], _Tables]] = {}

    def __init__(self, board: Board) -> None:
        self.board = board
        #: ``programs[piece][pix]``: the legal programs of ``piece`` standing on ``pix``.
        self.programs = tuple(
            tuple(
                tuple(
                    Program(piece, ORTHOGONAL[d], distance)
                    for d in range(4)
                    if board.opens[pix][d]
                    for distance in range(1, MAX_DISTANCE + 1)
                )
                for pix in range(board.size)
            )
            for piece in range(PIECES)
        )
        #: ``places[piece]``: ``(start index, Place)`` for every start Pix.
        self.places = tuple(
            tuple((s, Place(piece, board.pix(s))) for s in board.starts) for piece in range(PIECES)
        )
        self.labels = tuple(board.label(i) for i in range(board.size))
        #: ``(row, column)`` of each Pix index, immutable so events and views can share them.
        self.coords = tuple(board.pix(i) for i in range(board.size))

    @classmethod
    def of(cls, board: Board) -> _Tables:
        tables = cls._cache.get(board.rows)
        if tables is None:
            tables = cls._cache[board.rows] = cls(board)
        return tables

    def __deepcopy__(self, memo: dict) -> _Tables:
        return self


class PixoidGame(Game[PixoidOptions]):
    """A game of Pixoid: seats ``0..players-1``, seat 0 is the first Pixoid ("le joueur le plus âgé").

    Pieces (the players' coloured cubes and controllers) are numbered 0 to 3; piece ``i`` belongs
    to seat ``i``, and in the 3-player game piece 3 is the spare Bug whose controller changes
    hands every turn (see :meth:`controller_owner`).

    Events and refusals are messages (:mod:`controller.i18n`), said in each reader's language; they
    name a seat by name and colour and a piece by role and colour (:mod:`.words`), never by number.

    ``phase`` is "placement", "programming" or "over"; ``round_index`` and ``turn_in_round`` count
    from 0; ``reserve`` is the neutral cubes left in the reserve, ``bonus_cubes`` the Pix indices
    still holding a bonus cube; ``pos[piece]`` is a piece's Pix index (-1 before it is placed).
    """

    NAME = "pixoid"
    TITLE = "Pixoid"
    OPTIONS = PixoidOptions
    GOLDEN_SCENARIOS: ClassVar[tuple[tuple[str, dict[str, Any], int, int], ...]] = (
        ("4-players", {"players": 4}, 1, 11),
        ("3-players", {"players": 3}, 2, 12),
        ("short-game", {"players": 4, "short_game": True}, 3, 13),
    )

    # ---- setting up ----

    def _setup(self) -> None:
        self.board: Board = board_from_text(self.options.board)
        self._tables = _Tables.of(self.board)
        self.players: int = self.options.players
        self.short_game: bool = self.options.short_game
        self.totals: list[int] = [0] * self.players
        #: Points of each finished round, one list per round (standard game).
        self.round_points: list[list[int]] = []
        self.round_index = 0
        self.pixoid_seat = 0
        #: In a short game once over: "pixoid" or "bugs".
        self.short_winner: str | None = None
        #: The last revealed turn (programs and paths), public once revealed (see :attr:`last_turn`).
        self.last_turn = None
        self._start_round()

    def _start_round(self) -> None:
        self.phase = PLACEMENT
        self.turn_in_round = 0
        self.pos: list[int] = [-1] * PIECES
        self.bonus_cubes: list[int] = list(self.board.bonuses)
        self.reserve = RESERVE_CUBES
        self.bonus_taken = 0
        self.programs: dict[int, tuple[int, int]] = {}
        self.waiting: list[int] = []
        self._owing: tuple[int, ...] = ()
        self._refresh_owners()
        self.place_queue: list[int] = self._placement_order()

    def _placement_order(self) -> list[int]:
        """Pixoid first, then the Bugs clockwise; the 3-player spare Bug last (rules p.11, point 5)."""
        seats = [(self.pixoid_seat + k) % self.players for k in range(self.players)]
        return seats + ([PIECES - 1] if self.players == 3 else [])

    # ---- who is who ----

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def pixoid_piece(self) -> int:
        """The piece that is Pixoid this round (the Pixoid player's own cube)."""
        return self.pixoid_seat

    def bug_pieces(self) -> tuple[int, ...]:
        return tuple(p for p in range(PIECES) if p != self.pixoid_seat)

    def controller_owner(self, piece: int) -> int:
        """The seat that controls ``piece`` this turn.

        In the 3-player game the spare Bug (piece 3) starts each round with the player on
        Pixoid's left and passes to the other Bug player after every turn ("à chaque tour, ce
        troisième Bug est contrôlé alternativement par les deux joueurs incarnant les Bugs").
        """
        return self._owners[piece]

    def _refresh_owners(self) -> None:
        if self.players == PIECES:
            self._owners: tuple[int, ...] = OWN_PIECES
            return
        spare = (self.pixoid_seat + 1 + self.turn_in_round % 2) % self.players
        self._owners = tuple(p if p < self.players else spare for p in range(PIECES))

    def pieces_of(self, seat: int) -> tuple[int, ...]:
        """The pieces ``seat`` controls this turn, in piece order."""
        return tuple(p for p in range(PIECES) if self.controller_owner(p) == seat)

    def role(self, piece: int) -> str:
        return "Pixoid" if piece == self.pixoid_seat else "Bug"

    # ---- naming, in the players' words ----

    def player_words(self, seat: int) -> words.Message:
        """Seat ``seat`` as texts name it: "Ada (red)" once the seats are named, else "Red"."""
        return words.player(seat, self.seat_names, self.players)

    def piece_words(self, piece: Any) -> words.Message:
        """A piece as texts name it: "Pixoid", or its Bug by colour ("the blue Bug")."""
        return words.piece(piece, self.pixoid_seat)

    def seat_label(self, seat: int) -> str:
        """The English of :meth:`player_words`: a player is never "seat N" in Pixoid's texts."""
        return i18n.said(self.player_words(seat), i18n.SOURCE_LANGUAGE)

    @property
    def reserve_taken(self) -> int:
        """Neutral cubes Pixoid has taken from the reserve this round."""
        return RESERVE_CUBES - self.reserve

    def _short_game_won(self) -> bool:
        """Short game: Pixoid has gathered its twelve cubes (reserve and bonus together)."""
        return self.short_game and self.reserve_taken + self.bonus_taken >= SHORT_GAME_TARGET

    # ---- turn structure ----

    def current_players(self) -> tuple[int, ...]:
        if self.phase == PROGRAMMING:
            return self._owing
        if self.phase == PLACEMENT:
            return (self.controller_owner(self.place_queue[0]),)
        return ()

    def _refresh_owing(self) -> None:
        if self._owners is OWN_PIECES:
            # every seat controls its own piece only, and ``waiting`` is always in piece order
            self._owing = tuple(self.waiting)
        else:
            self._owing = tuple(sorted(set(map(self._owners.__getitem__, self.waiting))))

    def legal_actions(self, player: int) -> list[Any]:
        if self.phase == PROGRAMMING:
            actions: list[Any] = []
            table = self._tables.programs
            owners = self._owners
            for piece in self.waiting:
                if owners[piece] == player:
                    actions.extend(table[piece][self.pos[piece]])
            return actions
        if self.phase == PLACEMENT:
            piece = self.place_queue[0]
            if self.controller_owner(piece) != player:
                return []
            taken = self.pos
            return [place for s, place in self._tables.places[piece] if s not in taken]
        return []

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> tuple[float, ...]:
        """Victory points (standard game); in the short game 1 for each winner once it is over."""
        if self.short_game:
            if self.short_winner is None:
                return (0.0,) * self.players
            pixoid_won = self.short_winner == "pixoid"
            return tuple(float((seat == self.pixoid_seat) == pixoid_won) for seat in range(self.players))
        return tuple(float(t) for t in self.totals)

    def secret_pending(self, player: int) -> bool:
        if self.phase != PROGRAMMING:
            return False
        return any(self.controller_owner(p) == player for p in self.programs)

    # ---- acting ----
    #
    # One implementation serves both paths: ``emit`` says whether events are made. The checked and
    # unchecked paths make them (:meth:`_apply`); the fast path (:meth:`_apply_fast`, for playouts and
    # search) does not, so it builds no Event, no text and no data dict, and keeps the last turn as a
    # compact record that :attr:`last_turn` turns into the same dict when someone looks.

    def _apply(self, player: int, action: Any) -> list[Event]:
        if type(action) is Program:
            return self._program(player, action, True)
        return self._place(player, action, True)

    def _apply_fast(self, player: int, action: Any) -> None:
        if type(action) is Program:
            self._program(player, action, False)
        else:
            self._place(player, action, False)

    def clone(self) -> PixoidGame:
        """An independent copy: the board and its tables are shared, the few lists and dicts of the
        state copied (much cheaper than ``copy.deepcopy``)."""
        twin = self._clone_base()
        twin.totals = list(self.totals)
        twin.round_points = [list(points) for points in self.round_points]
        twin.pos = list(self.pos)
        twin.bonus_cubes = list(self.bonus_cubes)
        twin.programs = dict(self.programs)
        twin.waiting = list(self.waiting)
        twin.place_queue = list(self.place_queue)
        if self._last_turn_record is not None:
            twin._last_turn = None  # the twin builds its own dict from the shared record
        else:
            twin._last_turn = copy.deepcopy(self._last_turn)
        return twin

    @property
    def last_turn(self) -> dict[str, Any] | None:
        """The last revealed turn: round, turn, the programs revealed and each piece's move.

        The checked path builds it as it resolves the turn; the fast path only keeps a record of
        the turn, from which the same dict is built the first time someone asks.
        """
        turn = self._last_turn
        if turn is None and self._last_turn_record is not None:
            round_no, turn_no, pixoid, owners, programs, moves = self._last_turn_record
            turn = self._last_turn = {
                "round": round_no,
                "turn": turn_no,
                "programs": self._revealed(pixoid, owners, programs),
                "moves": [self._move_data(pixoid, *move) for move in moves],
            }
        return turn

    @last_turn.setter
    def last_turn(self, value: dict[str, Any] | None) -> None:
        self._last_turn = value
        self._last_turn_record: tuple[Any, ...] | None = None

    def _place(self, player: int, action: Place, emit: bool = True) -> list[Event] | None:
        piece = self.place_queue.pop(0)
        index = action.pix[0] * self.board.width + action.pix[1]
        self.pos[piece] = index
        events = None
        if emit:
            events = [
                Event.said(
                    "placed",
                    N_("{player} places {piece} on the start Pix {pix}"),
                    {"piece": piece, "seat": player, "role": self.role(piece).lower(), "pix": self._tables.coords[index]},
                    player=self.player_words(player),
                    piece=self.piece_words(piece),
                    pix=self._tables.labels[index],
                )
            ]
        if not self.place_queue:
            self._start_turn()
        return events

    def _start_turn(self) -> None:
        self.phase = PROGRAMMING
        self._refresh_owners()
        self.programs = {}
        self.waiting = list(range(PIECES))
        self._refresh_owing()

    def _program(self, player: int, action: Program, emit: bool = True) -> list[Event] | None:
        self.programs[action.piece] = (DIRECTION_INDEX[action.direction], action.distance)
        self.waiting.remove(action.piece)
        self._refresh_owing()
        if not emit:
            if not self.waiting:
                self._resolve(False)
            return None
        locked = player not in self._owing
        events = [
            Event.said(
                "locked" if locked else "programmed",
                N_("{player} has locked in") if locked else N_("{player} has locked one of their two controllers"),
                {"seat": player, "waiting": list(self._owing)},
                player=self.player_words(player),
            )
        ]
        if not self.waiting:
            events.extend(self._resolve(True))
        return events

    # ---- the movement and score phases ----

    def _resolve(self, emit: bool = True) -> list[Event] | None:
        slides = self.board.slides
        pos = self.pos
        pixoid = self.pixoid_seat
        programs = self.programs
        owners = self._owners
        round_no, turn_no = self.round_index + 1, self.turn_in_round + 1
        #: (piece, seat, start, walked, programmed distance, stopped by a wall) of each move.
        moves: list[tuple[int, int, int, tuple[int, ...], int, bool]] = []
        events: list[Event] = []
        move_data: list[dict[str, Any]] = []
        if emit:
            revealed = self._revealed(pixoid, owners, programs)
            events.append(
                Event.said(
                    "revealed",
                    N_("programs revealed: {programs}"),
                    {"turn": turn_no, "round": round_no, "programs": revealed},
                    programs=listing(
                        i18n.message(N_("{piece}: {move}"), piece=words.piece(r["piece"], pixoid),
                                     move=words.program(r["direction"], r["distance"]))
                        for r in revealed
                    ),
                )
            )
            self._last_turn = {"round": round_no, "turn": turn_no, "programs": revealed, "moves": move_data}
        else:
            self._last_turn = None
        # Kept either way, for a clone to rebuild the dict from; ``programs`` is never changed
        # again (the next turn starts a new dict), ``moves`` not once this turn is resolved.
        self._last_turn_record = (round_no, turn_no, pixoid, owners, programs, moves)

        # Pixoid moves first, its whole program, over the Bugs still where they stood.
        start = pos[pixoid]
        direction, distance = programs[pixoid]
        full = slides[start][direction]
        path = full[:distance]
        bugs = [pos[p] for p in range(PIECES) if p != pixoid]
        bonus = self.bonus_cubes
        caught_by: list[int] = []
        short_win = False
        bonus_events = []
        walked_count = 0
        for index in path:
            walked_count += 1
            if index in bugs:
                caught_by = [p for p in range(PIECES) if p != pixoid and pos[p] == index]
                break
            if index in bonus:
                bonus.remove(index)
                self.bonus_taken += 1
                if emit:
                    bonus_events.append(
                        Event.said(
                            "bonus",
                            N_("Pixoid takes the bonus cube on {pix}"),
                            {"piece": pixoid, "pix": self._tables.coords[index], "bonus_taken": self.bonus_taken},
                            pix=self._tables.labels[index],
                        )
                    )
                if self._short_game_won():
                    short_win = True
                    break
        walked = path if walked_count == len(path) else path[:walked_count]
        end = walked[-1] if walked else start
        pos[pixoid] = end
        move = (pixoid, owners[pixoid], start, walked, distance, len(full) < distance and not caught_by and not short_win)
        moves.append(move)
        if emit:
            events.append(self._moved_event(pixoid, move, move_data))
            events.extend(bonus_events)
        if caught_by:
            if emit:
                events.append(self._captured_event(end, caught_by, "pixoid-move"))
            return self._end_round("captured", events if emit else None)
        if short_win:
            return self._end_round("twelve-cubes", events if emit else None)

        # Then every Bug at once, from where it stood; a path that reaches Pixoid catches it.
        for p in range(PIECES):
            if p == pixoid:
                continue
            b_start = pos[p]
            b_dir, b_dist = programs[p]
            b_full = slides[b_start][b_dir]
            b_path = b_full[:b_dist]
            stopped = len(b_full) < b_dist
            if end in b_path:
                b_path = b_path[: b_path.index(end) + 1]
                caught_by.append(p)
                stopped = False
            if b_path:
                pos[p] = b_path[-1]
            move = (p, owners[p], b_start, b_path, b_dist, stopped)
            moves.append(move)
            if emit:
                events.append(self._moved_event(pixoid, move, move_data))
        if caught_by:
            if emit:
                events.append(self._captured_event(end, caught_by, "bug-move"))
            return self._end_round("captured", events if emit else None)

        # Score: Pixoid survived the turn and takes a neutral cube from the reserve.
        self.reserve -= 1
        if emit:
            events.append(
                Event.said(
                    "survived",
                    N_("Pixoid survives the turn and takes a cube from the reserve ({left} left)"),
                    {
                        "piece": pixoid,
                        "reserve": self.reserve,
                        "reserve_taken": self.reserve_taken,
                        "bonus_taken": self.bonus_taken,
                    },
                    left=self.reserve,
                )
            )
        if self._short_game_won():
            return self._end_round("twelve-cubes", events if emit else None)
        if self.reserve == 0:
            return self._end_round("reserve-empty", events if emit else None)
        self.turn_in_round += 1
        self._start_turn()
        return events if emit else None

    @staticmethod
    def _revealed(pixoid: int, owners: tuple[int, ...], programs: dict[int, tuple[int, int]]) -> list[dict[str, Any]]:
        return [
            {
                "piece": p,
                "seat": owners[p],
                "role": "pixoid" if p == pixoid else "bug",
                "direction": ORTHOGONAL[programs[p][0]],
                "distance": programs[p][1],
            }
            for p in range(PIECES)
        ]

    def _move_data(self, pixoid: int, piece: int, seat: int, start: int, walked: tuple[int, ...], distance: int, stopped: bool) -> dict[str, Any]:
        """A move's data, in the "moved" event and in :attr:`last_turn`."""
        coords = self._tables.coords
        return {
            "piece": piece,
            "seat": seat,
            "role": "pixoid" if piece == pixoid else "bug",
            "from": coords[start],
            "to": coords[walked[-1] if walked else start],
            "path": [coords[start]] + [coords[i] for i in walked],
            "programmed": distance,
            "stopped_by_wall": stopped,
        }

    def _moved_event(self, pixoid: int, move: tuple[int, int, int, tuple[int, ...], int, bool], move_data: list[dict[str, Any]]) -> Event:
        piece, seat, start, walked, _distance, stopped = move
        labels = self._tables.labels
        end = walked[-1] if walked else start
        data = self._move_data(pixoid, *move)
        move_data.append(data)
        return Event.said(
            "moved",
            N_("{player} moves {piece} from {start} to {end}, stopped by a wall") if stopped
            else N_("{player} moves {piece} from {start} to {end}"),
            data,
            player=self.player_words(seat),
            piece=words.piece(piece, pixoid),
            start=labels[start],
            end=labels[end],
        )

    def _captured_event(self, at: int, by: list[int], when: str) -> Event:
        return Event.said(
            "captured",
            N_("Pixoid is caught on {pix} by {bugs}"),
            {"piece": self.pixoid_seat, "by": list(by), "pix": self._tables.coords[at], "during": when},
            pix=self._tables.labels[at],
            bugs=words.pieces(by, self.pixoid_seat),
        )

    def _end_round(self, reason: str, events: list[Event] | None) -> list[Event] | None:
        """Fin de la manche: score, then the next Pixoid or the end of the game. The round's events
        are added to ``events``, which is returned; ``None`` makes none (the fast path)."""
        pixoid = self.pixoid_seat
        if self.short_game:
            self.short_winner = "bugs" if reason == "captured" else "pixoid"
            if events is not None:
                events.append(
                    Event.said(
                        "round-over",
                        N_("the short game ends: Pixoid has its 12 cubes and wins") if self.short_winner == "pixoid"
                        else N_("the short game ends: Pixoid is caught and the Bugs win"),
                        {
                            "round": 1,
                            "pixoid_seat": pixoid,
                            "reason": reason,
                            "cubes": self.reserve_taken + self.bonus_taken,
                            "winner": self.short_winner,
                        },
                    )
                )
            self.phase = OVER
            self.programs = {}
            self.waiting = []
            self._owing = ()
            if events is not None:
                events.append(self._game_over_event())
            return events
        points = [self.reserve] * self.players
        points[pixoid] = self.reserve_taken + self.bonus_taken
        for seat, gained in enumerate(points):
            self.totals[seat] += gained
        self.round_points.append(points)
        if events is not None:
            events.append(
                Event.said(
                    "round-over",
                    N_("round {round} ends, {why}: {player} scores {pixoid_points} as Pixoid and each Bug scores "
                       "{bug_points}"),
                    {
                        "round": self.round_index + 1,
                        "pixoid_seat": pixoid,
                        "reason": reason,
                        "reserve_taken": self.reserve_taken,
                        "bonus_taken": self.bonus_taken,
                        "points": list(points),
                        "scores": list(self.totals),
                    },
                    round=self.round_index + 1,
                    why=i18n.message(N_("Pixoid was caught") if reason == "captured" else N_("the reserve is empty")),
                    player=self.player_words(pixoid),
                    pixoid_points=words.points(points[pixoid]),
                    bug_points=words.points(self.reserve),
                )
            )
        self.programs = {}
        self.waiting = []
        self._owing = ()
        if self.round_index + 1 >= self.players:
            self.phase = OVER
            if events is not None:
                events.append(self._game_over_event())
            return events
        self.round_index += 1
        self.pixoid_seat = (pixoid + 1) % self.players
        if events is not None:
            events.append(
                Event.said(
                    "role-change",
                    N_("{new} becomes Pixoid; {old} becomes a Bug"),
                    {"pixoid_seat": self.pixoid_seat, "previous": pixoid, "round": self.round_index + 1},
                    new=self.player_words(self.pixoid_seat),
                    old=self.player_words(pixoid),
                )
            )
        self._start_round()
        return events

    def _game_over_event(self) -> Event:
        winners = list(self.winners())
        scores = list(self.scores())
        data = {"winners": winners, "scores": scores}
        who = listing(map(self.player_words, winners))
        alone = len(winners) == 1
        if self.short_game:
            return Event.said(
                "game-over",
                N_("the game is over: {winners} wins") if alone else N_("the game is over: {winners} share the victory"),
                data,
                winners=who,
            )
        return Event.said(
            "game-over",
            N_("the game is over: {winners} wins with {points}") if alone
            else N_("the game is over: {winners} share the victory with {points} each"),
            data,
            winners=who,
            points=words.points(int(scores[winners[0]])),
        )

    # ---- refusing clearly ----

    def check(self, player: int, action: Any) -> None:
        """The shared checks said in the players' words, and whole numbers only: ``True`` equals 1 in
        Python, but not on a wheel."""
        if self.is_over():
            raise GameOverError.said("game-over", N_("the game is over: no more moves are taken"), self.render())
        if player not in self.current_players():
            raise NotYourTurnError.said(
                "turn-order",
                N_("{player} is not expected to act now (waiting for: {waiting})"),
                self.render(),
                player=self.player_words(player),
                waiting=listing(map(self.player_words, self.current_players())),
            )
        if action not in self.legal_actions(player):
            raise self.explain_illegal(player, action)
        if type(action) is Program:
            whole = type(action.piece) is int and type(action.distance) is int
        else:
            whole = type(action.piece) is int and all(type(v) is int for v in action.pix)
        if not whole:
            raise self.explain_illegal(player, action)

    def explain_illegal(self, player: int, action: Any) -> RuleError:
        state = self.render()
        if isinstance(action, Place):
            if self.phase != PLACEMENT:
                return IllegalActionError.said(
                    "programming-phase", N_("every cube is already on the board: program a move instead"), state
                )
            piece = self.place_queue[0]
            if type(action.piece) is not int or not all(type(v) is int for v in action.pix):
                return IllegalActionError.said(
                    "start-pix",
                    N_("{given} cannot be placed: a piece is a whole number and a Pix a row and a column in whole "
                       "numbers"),
                    state,
                    given=repr(action),
                )
            if action.piece != piece:
                return IllegalActionError.said(
                    "placement-order",
                    N_("the cube to place now is {piece}, not {other}: Pixoid places first, then the Bugs one after "
                       "the other clockwise"),
                    state,
                    piece=self.piece_words(piece),
                    other=self.piece_words(action.piece),
                )
            try:
                index = self.board.index(action.pix)
            except (TypeError, ValueError):
                return IllegalActionError.said(
                    "start-pix",
                    N_("{given} is not a Pix of this board of {width} by {height} Pix"),
                    state,
                    given=repr(action.pix),
                    width=self.board.width,
                    height=self.board.height,
                )
            if index not in self.board.starts:
                return IllegalActionError.said(
                    "start-pix", N_("{pix} is not a start Pix: cubes start on the red Pix"), state,
                    pix=self.board.label(index),
                )
            return IllegalActionError.said(
                "start-pix-taken", N_("the start Pix {pix} is already taken"), state, pix=self.board.label(index)
            )
        if isinstance(action, Program):
            if self.phase != PROGRAMMING:
                return IllegalActionError.said(
                    "placement-phase", N_("the cubes are still being placed on start Pix: nobody programs yet"), state
                )
            piece = action.piece
            if type(piece) is not int or not 0 <= piece < PIECES or self.controller_owner(piece) != player:
                return IllegalActionError.said(
                    "not-your-piece",
                    N_("{player} controls {mine} this turn, not {piece}"),
                    state,
                    player=self.player_words(player),
                    mine=words.pieces(self.pieces_of(player), self.pixoid_seat),
                    piece=self.piece_words(piece),
                )
            if piece not in self.waiting:
                return IllegalActionError.said(
                    "already-programmed",
                    N_("the program of this turn for {piece} is already locked in"),
                    state,
                    piece=self.piece_words(piece),
                )
            if action.direction in DIAGONALS:
                return IllegalActionError.said(
                    "no-diagonal",
                    N_("Pixoid and the Bugs move only up, down, left or right: turn the direction wheel off the "
                       "diagonal"),
                    state,
                )
            if action.direction not in DIRECTION_INDEX:
                return IllegalActionError.said(
                    "direction-name",
                    N_("{given} is not a direction: program up, down, left or right"),
                    state,
                    given=repr(action.direction),
                )
            if type(action.distance) is not int or not 1 <= action.distance <= MAX_DISTANCE:
                return IllegalActionError.said(
                    "distance-range",
                    N_("a distance of {given} cannot be programmed: program 1 to {most} Pix; the cubes always move, "
                       "so 0 is not allowed"),
                    state,
                    given=repr(action.distance),
                    most=MAX_DISTANCE,
                )
            at = self.pos[piece]
            if not self.board.opens[at][DIRECTION_INDEX[action.direction]]:
                return IllegalActionError.said(
                    "wall-ahead",
                    WALL_AHEAD[action.direction],
                    state,
                    piece=self.piece_words(piece),
                    pix=self.board.label(at),
                )
        return IllegalActionError.said(
            "legal-action",
            N_("{player} cannot do that in Pixoid now: a cube is placed during the placement, a move programmed "
               "during the programming"),
            state,
            player=self.player_words(player),
        )

    def describe_action(self, action: Any) -> str:
        """An action in English, for a save's refusal ("place Pixoid on i9")."""
        def piece() -> str:
            return i18n.said(self.piece_words(action.piece), i18n.SOURCE_LANGUAGE)

        if isinstance(action, Place):
            try:
                where = self.board.label(self.board.index(action.pix))
            except (TypeError, ValueError):
                where = repr(action.pix)
            return f"place {piece()} on {where}"
        if isinstance(action, Program):
            return f"program {piece()}: {action.direction} {action.distance}"
        return repr(action)

    # ---- encoding ----

    @classmethod
    def encode_action(cls, action: Any) -> Any:
        return encode(action)

    @classmethod
    def decode_action(cls, data: Any) -> Any:
        return decode(data)

    # ---- looking at the game ----

    def _public(self) -> dict[str, Any]:
        coords = self._tables.coords
        return {
            "phase": self.phase,
            "players": self.players,
            "short_game": self.short_game,
            "round": self.round_index + 1,
            "rounds": 1 if self.short_game else self.players,
            "turn": self.turn_in_round + 1,
            "pixoid_seat": self.pixoid_seat,
            "pixoid_piece": self.pixoid_piece,
            "pieces": [
                {
                    "piece": p,
                    "role": self.role(p).lower(),
                    "controller": self.controller_owner(p),
                    "pix": coords[self.pos[p]] if self.pos[p] >= 0 else None,
                }
                for p in range(PIECES)
            ],
            "bonus_cubes": [coords[i] for i in self.bonus_cubes],
            "reserve": self.reserve,
            "reserve_taken": self.reserve_taken,
            "bonus_taken": self.bonus_taken,
            "scores": list(self.scores()),
            "round_points": [list(p) for p in self.round_points],
            "to_place": list(self.place_queue) if self.phase == PLACEMENT else [],
            "waiting": list(self.current_players()),
            "last_turn": self.last_turn,
            "winner": self.short_winner,
        }

    def _programs_json(self, seat: int | None = None) -> dict[str, Any]:
        """The programs submitted this turn, by piece; only those of the pieces ``seat`` controls
        unless ``seat`` is ``None``."""
        return {
            str(p): {"direction": ORTHOGONAL[d], "distance": n}
            for p, (d, n) in sorted(self.programs.items())
            if seat is None or self.controller_owner(p) == seat
        }

    def state_dict(self) -> dict[str, Any]:
        state = self._public()
        state["programs"] = self._programs_json()
        return state

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees: the board, and of the other seats' programs only whether each seat
        has locked in; its own programs in full. ``None`` is a spectator."""
        state = self._public()
        state["board"] = list(self.board.rows)
        if self.phase == PROGRAMMING:
            state["seats"] = {str(s): ("waiting" if s in self._owing else "locked") for s in range(self.players)}
        else:
            state["seats"] = {}
        if player is not None and 0 <= player < self.players:
            state["my_programs"] = self._programs_json(player)
        return state

    def render(self) -> str:
        return _render.render_text(self)

    # ---- consistency ----

    def check_invariants(self) -> None:
        assert self.phase in (PLACEMENT, PROGRAMMING, OVER), self.phase
        assert 0 <= self.reserve <= RESERVE_CUBES, self.reserve
        assert self.reserve_taken + self.reserve == RESERVE_CUBES
        assert len(self.bonus_cubes) + self.bonus_taken == len(self.board.bonuses) == 4
        assert all(i in self.board.bonuses for i in self.bonus_cubes), self.bonus_cubes
        assert len(set(self.bonus_cubes)) == len(self.bonus_cubes)
        assert self.turn_in_round == self.reserve_taken or self.phase == OVER, (self.turn_in_round, self.reserve)
        assert 0 <= self.round_index < self.players
        assert self.pixoid_seat == (0 if self.short_game else self.round_index)
        placed = [p for p in range(PIECES) if self.pos[p] >= 0]
        for p in placed:
            assert 0 <= self.pos[p] < self.board.size
        if self.phase == PLACEMENT:
            assert self.place_queue and set(placed) | set(self.place_queue) == set(range(PIECES))
            assert not set(placed) & set(self.place_queue)
            assert all(self.pos[p] in self.board.starts for p in placed)
            assert len({self.pos[p] for p in placed}) == len(placed), "two pieces on one start Pix"
        if self.phase == PROGRAMMING:
            assert len(placed) == PIECES
            assert set(self.waiting) | set(self.programs) == set(range(PIECES))
            assert not set(self.waiting) & set(self.programs)
            assert self.pos[self.pixoid_piece] not in [self.pos[b] for b in self.bug_pieces()], "Pixoid shares a Pix with a Bug"
            for p, (d, n) in self.programs.items():
                assert self.board.opens[self.pos[p]][d] and 1 <= n <= MAX_DISTANCE
            assert self._owing == tuple(sorted({self.controller_owner(p) for p in self.waiting}))
        if not self.short_game:
            assert len(self.round_points) == self.round_index + (1 if self.phase == OVER else 0)
            for seat in range(self.players):
                assert self.totals[seat] == sum(points[seat] for points in self.round_points)
            for r, points in enumerate(self.round_points):
                bug_points = {points[s] for s in range(self.players) if s != r}
                assert len(bug_points) == 1, "every Bug scores the same in a round"
                left = bug_points.pop()
                assert 0 <= left <= RESERVE_CUBES and points[r] >= RESERVE_CUBES - left
                assert points[r] <= RESERVE_CUBES - left + 4
        else:
            assert self.round_index == 0
            assert (self.short_winner is not None) == (self.phase == OVER)
            assert self.reserve_taken + self.bonus_taken <= SHORT_GAME_TARGET
        if self.phase == OVER:
            assert self.current_players() == ()
