"""How a tournament goes, round by round: pairing, giving tables their pairings, checking results.

:class:`Tournament` is the organiser's logic over its SQLite state (:mod:`controller.tournament.store`),
without the broker: the organiser (:mod:`controller.tournament.organiser`) hands it the messages
tables publish and publishes what it says. Every decision is written before it is published.

A result is checked before it counts: it must come under the topic of the table it names, in this
tournament, for a round and a pairing that table was given; its digest must be the SHA-256 of the
game's save (options, seed and every action), the save must replay through the game's rules to the
end, with the pairing's options, and the result the table claims must be the one the game's registry
entry reads from the replayed game. A second copy of a result already recorded (same table, round and
digest: a table that resends after a lost acknowledgement) changes nothing and is acknowledged again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import time
from typing import Any

from controller.engines import Game, SaveFileError
from controller.games import GameSpec, UnknownGameError, game as game_spec
from controller.i18n import N_
from controller.tournament import pairing as formats
from controller.tournament.results import GameResult, ResultError, result_of
from controller.tournament.standings import Standing, standings
from controller.tournament.store import Board, Settings, TournamentError, TournamentStore, UnknownPairing, refusal
from controller.tournament.topics import Topics, table_number

log = logging.getLogger(__name__)

#: How a table describes itself in its status, and the states it may be in.
TABLE_STATES = ("waiting", "paired", "playing", "offline")


def digest_of(save: Any) -> str:
    """The digest of a game's save: SHA-256 of its canonical JSON (keys sorted, no spaces)."""
    text = json.dumps(save, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_rounds(form: str, count: int, most: int, fewest: int) -> int:
    """The rounds a format takes for ``count`` players: Swiss enough to single out a winner."""
    if form == "round-robin":
        return formats.round_robin_rounds(count)
    if form == "elimination":
        return formats.elimination_rounds(count, most, fewest)
    return max(1, math.ceil(math.log(max(count, 2), max(most, 2))))


@dataclasses.dataclass
class Verdict:
    """What became of a message: ``recorded``, ``duplicate`` or ``refused`` (with the reason), and
    the acknowledgement to publish to the table (``None`` when the message names no result)."""

    outcome: str
    reason: str = ""
    table: int | None = None
    ack: dict[str, Any] | None = None

    @property
    def changed(self) -> bool:
        return self.outcome == "recorded"


class Tournament:
    """A tournament's logic over its store (see the module's docstring)."""

    def __init__(self, store: TournamentStore) -> None:
        self.store = store
        self.settings: Settings = store.settings()
        try:
            self.spec: GameSpec = game_spec(self.settings.game)
        except UnknownGameError as exc:
            raise TournamentError(str(exc)) from None
        self.engine = self.spec.load_engine()
        self.topics = Topics(self.settings.name)
        #: The tables' last statuses, by number (from their retained status messages).
        self.tables: dict[int, dict[str, Any]] = {}

    # ---- the players' order ------------------------------------------------------------------

    def standings(self) -> list[Standing]:
        tiebreaks = self.settings.tiebreaks or self.spec.tiebreaks
        return standings(self.store.players(), self.store.played(), self.store.byes(), tiebreaks)

    def options_for(self, seats: int) -> dict[str, Any]:
        """The engine options of a game with ``seats`` players, as the engine writes them."""
        options = self.spec.options_from(self.settings.options, seats if self.spec.players_option else None, {})
        return self.engine.OPTIONS.from_dict(options).to_dict()

    # ---- rounds ------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        number = self.store.current_round()
        if number == 0 or not self.store.round_done(number):
            return False
        return number >= self.settings.rounds or not self._alive_after(number, check=True)

    def advance(self) -> bool:
        """Close the current round when every pairing has its result and pair the next one; whether
        anything changed."""
        number = self.store.current_round()
        changed = False
        if number and not self.store.round_done(number):
            if not all(board.done for board in self.store.boards(number)):
                return False
            self.store.finish_round(number)
            changed = True
        if self.over:
            return changed
        if number >= self.settings.rounds:
            return changed
        self.store.add_round(number + 1, self._pair(number + 1))
        log.info("round %s paired", number + 1)
        return True

    def _pair(self, number: int) -> formats.Pairing:
        s = self.settings
        players = list(self.store.players())
        if s.format == "round-robin":
            return formats.round_robin(players, number)
        if s.format == "elimination":
            return formats.elimination(self._alive_after(number - 1), s.most, s.fewest)
        order = [row.player for row in self.standings()] if number > 1 else players
        met: dict[int, set[int]] = {p: set() for p in players}
        firsts: dict[int, int] = {}
        for board in self.store.boards():
            for p in board.players:
                met.setdefault(p, set()).update(q for q in board.players if q != p)
            firsts[board.players[0]] = firsts.get(board.players[0], 0) + 1
        had_bye = {p for _r, p in self.store.byes()}
        return formats.swiss(order, met, had_bye, s.most, s.fewest, firsts)

    def _alive_after(self, number: int, check: bool = False) -> list[int] | bool:
        """Elimination: the players still in after round ``number``, best seed first (with ``check``:
        whether another round can be played)."""
        alive = list(self.store.players())
        for r in range(1, number + 1):
            going_on = {p for _r, p in self.store.byes(r)}
            for board in self.store.boards(r):
                if board.result is not None:
                    best = min(board.result.winners)  # several winners: the better seed goes on
                    going_on.add(board.players[best])
            alive = [p for p in alive if p in going_on]
        if check:
            return self.settings.format != "elimination" or (
                len(alive) > 1 and bool(formats.table_sizes(len(alive), self.settings.most, self.settings.fewest)[0]))
        return alive

    # ---- tables ------------------------------------------------------------------------------

    def table_status(self, table: int, status: dict[str, Any] | None) -> bool:
        """A table's status changed (``None``: its status was cleared); whether its state changed."""
        before = self.tables.get(table, {}).get("state")
        if status is None:
            self.tables.pop(table, None)
            return before is not None
        self.tables[table] = status
        if status.get("state") != before:
            self.store.set_table_status(table, status)
            return True
        return False

    def free_tables(self) -> list[int]:
        """Online tables of this game that hold no undecided pairing and wait for one."""
        number = self.store.current_round()
        busy = {b.table for b in self.store.boards(number) if b.table is not None and not b.done} if number else set()
        return [t for t, s in sorted(self.tables.items())
                if s.get("state") in ("waiting", "paired") and s.get("game") == self.settings.game and t not in busy
                and not (s.get("round") == number and s.get("board") and self._undecided(number, s.get("board")))]

    def _undecided(self, number: int, board: Any) -> bool:
        found = self.store.board(number, board) if isinstance(board, int) else None
        return found is not None and not found.done

    def assign_tables(self) -> list[Board]:
        """Give the current round's pairings without a table to free tables; the pairings given."""
        number = self.store.current_round()
        if not number or self.store.round_done(number):
            return []
        waiting = [b for b in self.store.boards(number) if b.table is None and not b.done]
        given = []
        for board, table in zip(waiting, self.free_tables()):
            seats = self.tables[table].get("seats")
            if isinstance(seats, int) and seats < len(board.players):
                continue
            self.store.assign(number, board.board, table)
            given.append(self.store.board(number, board.board))
        return [b for b in given if b is not None]

    def undecided(self, number: int, board_no: int) -> Board:
        """Pairing ``board_no`` of round ``number``, refused when there is none or it has its result."""
        board = self.store.board(number, board_no)
        if board is None:
            raise refusal(N_("round {round} has no table {board}; `bitbox tournament status` lists the pairings"),
                          UnknownPairing, round=number, board=board_no)
        if board.done:
            raise refusal(N_("round {round}, table {board} already has its result"), round=number, board=board_no)
        return board

    def move(self, number: int, board_no: int, table: int | None) -> Board:
        """Have pairing ``board_no`` of round ``number`` played at ``table`` instead (a table that
        never came back); its old table's pairing is withdrawn."""
        self.undecided(number, board_no)
        self.store.assign(number, board_no, table)
        return self.store.board(number, board_no)  # type: ignore[return-value]

    def check_move(self, number: int, board_no: int, table: int) -> None:
        """Refuse to move a pairing of the running round to ``table`` unless that table is online,
        plays this game, seats the pairing's players and holds no other pairing (the page's move;
        ``bitbox tournament move`` may name a table not yet started)."""
        board = self.undecided(number, board_no)
        if number != self.store.current_round():
            raise refusal(N_("round {round} is not the round being played"), round=number)
        if table == board.table:
            raise refusal(N_("round {round}, table {board} is already played at table {table}"), round=number,
                          board=board_no, table=table)
        free = self.free_tables()
        status = self.tables.get(table)
        if status is None or status.get("state") == "offline":
            raise refusal(N_("table {table} is not online; tables online and free: {tables}"), table=table,
                          tables=", ".join(map(str, free)) or "-")
        if table not in free:
            raise refusal(N_("table {table} is not free (it plays {game} or holds another pairing); tables online "
                             "and free: {tables}"), table=table, game=str(status.get("game")),
                          tables=", ".join(map(str, free)) or "-")
        seats = status.get("seats")
        if isinstance(seats, int) and seats < len(board.players):
            raise refusal(N_("table {table} seats {seats} players, not {count}"), table=table, seats=seats,
                          count=len(board.players))

    def pairing_message(self, board: Board) -> dict[str, Any]:
        """What table ``board.table`` is told to play."""
        names = self.store.players()
        return {"tournament": self.settings.name, "round": board.round, "board": board.board, "table": board.table,
                "game": self.settings.game, "options": self.options_for(len(board.players)),
                "players": [{"id": p, "name": names[p]} for p in board.players]}

    # ---- results -----------------------------------------------------------------------------

    def record_by_hand(self, number: int, board_no: int, scores: list[float], winners: list[int] | None) -> Board:
        """The organiser records a pairing's result by hand (its table never came back)."""
        board = self.undecided(number, board_no)
        if len(scores) != len(board.players):
            raise refusal(N_("round {round}, table {board} has {count} players: give {count} scores, in seat order"),
                          round=number, board=board_no, count=len(board.players))
        if not all(math.isfinite(s) for s in scores):
            raise refusal(N_("the scores must be finite numbers"))
        if winners is not None and not (winners and all(type(w) is int and 0 <= w < len(scores) for w in winners)):
            raise refusal(N_("each winner must be one of the table's {count} seats"), count=len(scores))
        try:
            result = GameResult.from_scores(scores, winners)
        except (ResultError, ValueError) as exc:
            raise TournamentError(str(exc)) from None
        digest = "hand:" + hashlib.sha256(json.dumps(result.to_json()).encode()).hexdigest()
        self.store.record(board, None, digest, "hand", result, None, time.time())
        self.store.receipt(None, number, digest, "recorded", "recorded by hand")
        return self.store.board(number, board_no)  # type: ignore[return-value]

    def accept(self, topic: str, payload: bytes) -> Verdict:
        """A message from a table's ``result`` topic, checked, then recorded or refused."""
        verdict = self._judge(topic, payload)
        if verdict.outcome == "refused":
            log.warning("refused a result on %s: %s", topic, verdict.reason)
        else:
            log.info("%s result on %s", verdict.outcome, topic)
        return verdict

    def _judge(self, topic: str, payload: bytes) -> Verdict:
        where = self.topics.table_of(topic)
        table = table_number(where[0]) if where else None
        if table is None:
            return Verdict("refused", f"{topic} is not a table's topic of this tournament")
        try:
            data = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            return Verdict("refused", f"not valid JSON ({len(payload)} bytes)", table)
        if not isinstance(data, dict):
            return Verdict("refused", "a result is a JSON object", table)
        if data.get("table") != table:
            return Verdict("refused", f"published under table {table}'s topic but names table {data.get('table')!r}")
        if data.get("tournament") != self.settings.name:
            return Verdict("refused", f"a result of tournament {data.get('tournament')!r}, not {self.settings.name!r}")
        number, board_no, digest = data.get("round"), data.get("board"), data.get("digest")
        if type(number) is not int or type(board_no) is not int or not isinstance(digest, str):
            return Verdict("refused", "a result names its round and board (whole numbers) and its digest", table)
        ack = {"round": number, "board": board_no, "digest": digest}

        def refuse(reason: str) -> Verdict:
            self.store.receipt(table, number, digest, "refused", reason)
            return Verdict("refused", reason, table, {**ack, "outcome": "refused", "reason": reason})

        if not 1 <= number <= self.store.current_round():
            return refuse(f"round {number} is unknown (the tournament is at round {self.store.current_round()})")
        board = self.store.board(number, board_no)
        if board is None:
            return refuse(f"round {number} has no table {board_no}")
        if table not in board.tables:
            return refuse(f"table {table} was never given round {number}, table {board_no}")
        if board.done:
            if board.digest == digest:
                self.store.receipt(table, number, digest, "duplicate", "already recorded")
                return Verdict("duplicate", "already recorded", table, {**ack, "outcome": "recorded"})
            return refuse(f"round {number}, table {board_no} already has another result")
        try:
            result = self._check(board, data)
        except (ResultError, SaveFileError, ValueError, TypeError, KeyError) as exc:
            return refuse(str(exc))
        finished = data.get("finished_at")
        finished = float(finished) if isinstance(finished, (int, float)) and math.isfinite(finished) else None
        if not self.store.record(board, table, digest, "table", result, data["save"], finished):
            return refuse(f"round {number}, table {board_no} already has another result")
        self.store.receipt(table, number, digest, "recorded", "")
        return Verdict("recorded", "", table, {**ack, "outcome": "recorded"})

    def _check(self, board: Board, data: dict[str, Any]) -> GameResult:
        """The result the game's moves give, checked against what the table claims."""
        save, digest = data.get("save"), data.get("digest")
        if not isinstance(save, dict):
            raise ValueError("the result carries no save of the game")
        if digest_of(save) != digest:
            raise ValueError("the digest is not the save's: the game was changed on the way or the digest is wrong")
        if data.get("players") != list(board.players):
            raise ValueError(f"the players {data.get('players')!r} are not the pairing's {list(board.players)}")
        if save.get("game") != self.settings.game:
            raise ValueError(f"a game of {save.get('game')!r}, not {self.settings.game!r}")
        game: Game[Any] = Game.load(save)
        if game.options.to_dict() != self.options_for(len(board.players)):
            raise ValueError("the game was played with other options than the pairing's")
        if not game.is_over():
            raise ValueError("the game's moves do not reach its end")
        result = result_of(self.spec, game)
        claimed = GameResult.from_json(data.get("result"))
        if claimed.ranks != result.ranks or list(claimed.scores) != list(result.scores):
            raise ValueError(f"the result {claimed.to_json()} does not follow from the game's moves "
                             f"({result.to_json()})")
        return result

    # ---- what the standings page shows -------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The standings page's state: the tournament, the standings, the round's pairings, the tables."""
        s = self.settings
        names = self.store.players()
        number = self.store.current_round()
        boards = self.store.boards(number) if number else []
        tiebreaks = list(s.tiebreaks or self.spec.tiebreaks)
        tables = []
        for table, status in sorted(self.tables.items()):
            state = status.get("state")
            shown = "playing" if state == "playing" else "offline" if state == "offline" else "waiting"
            tables.append({"table": table, "state": shown, "detail": state, "game": status.get("game"),
                           "score": status.get("score"), "round": status.get("round"), "board": status.get("board"),
                           "version": status.get("version")})
        keep = max(64, 2 * len(boards))  # the results of this round and the last, for pages that just looked
        recent = sorted((b for b in self.store.boards() if b.recorded), key=lambda b: b.recorded or 0)[-keep:]
        return {
            "tournament": {"name": s.name, "game": s.game, "title": self.spec.title, "format": s.format,
                           "rounds": s.rounds, "round": number, "over": self.over,
                           "round_done": bool(number and self.store.round_done(number))},
            "tiebreaks": tiebreaks,
            "standings": [row.to_json() for row in self.standings()],
            "pairings": [{"board": b.board, "table": b.table, "players": [names[p] for p in b.players],
                          "result": b.result.to_json() if b.result else None, "source": b.source}
                         for b in boards],
            "byes": [names[p] for _r, p in self.store.byes(number)] if number else [],
            "tables": tables,
            "free_tables": self.free_tables(),
            "results": [{"round": b.round, "board": b.board, "table": b.table, "recorded": b.recorded,
                         "finished_at": b.finished_at} for b in recent],
        }


#: How the standings page and the terminal name the formats.
FORMAT_WORDS = {"swiss": N_("Swiss"), "round-robin": N_("round-robin"), "elimination": N_("single elimination")}
