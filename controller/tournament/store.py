"""The organiser's state: one SQLite file per tournament, so that a restart resumes where it was.

It holds the tournament's settings, the players, each round's pairing (written once, before it is
published, so a restarted organiser publishes the same pairing again), which table plays each
pairing, the results (one per pairing: a second copy of the same game, by table, round and digest,
is recognised and changes nothing) and a receipt for every result message, recorded or refused.
WAL journal and ``synchronous=FULL``: a result is on disk before the organiser acknowledges it.

The organiser and the commands that change a tournament by hand (``bitbox tournament record``,
``move``) may open the file at the same time: each change is one transaction, and the running
organiser sees the others' changes (:meth:`TournamentStore.changed`).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from controller import i18n
from controller.i18n import _
from controller.tournament.pairing import Pairing
from controller.tournament.results import GameResult
from controller.tournament.standings import PlayedGame

SCHEMA_NAME = "bitbox-tournament"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE rounds (number INTEGER PRIMARY KEY, created REAL NOT NULL, done REAL);
CREATE TABLE boards (
    round INTEGER NOT NULL REFERENCES rounds(number),
    board INTEGER NOT NULL,
    players TEXT NOT NULL,
    table_no INTEGER,
    tables TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (round, board)
);
CREATE TABLE byes (round INTEGER NOT NULL, player INTEGER NOT NULL, PRIMARY KEY (round, player));
CREATE TABLE results (
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    table_no INTEGER,
    digest TEXT NOT NULL,
    source TEXT NOT NULL,
    result TEXT NOT NULL,
    save TEXT,
    finished_at REAL,
    recorded REAL NOT NULL,
    PRIMARY KEY (round, board)
);
CREATE TABLE receipts (
    id INTEGER PRIMARY KEY,
    table_no INTEGER,
    round INTEGER,
    digest TEXT,
    outcome TEXT NOT NULL,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE tables (table_no INTEGER PRIMARY KEY, status TEXT NOT NULL, seen REAL NOT NULL);
"""


class TournamentError(Exception):
    """The tournament's file cannot be used, or a change to it is refused; the message says what to do.

    ``words``, when given, is the same message kept to be said in a reader's language (the page's)."""

    def __init__(self, text: str, words: dict[str, Any] | None = None) -> None:
        super().__init__(text)
        self.words = words


class UnknownPairing(TournamentError):
    """A change names a pairing the tournament does not have."""


def refusal(msgid: str, kind: type[TournamentError] = TournamentError, **args: Any) -> TournamentError:
    """A refusal said now in the terminal's language and kept as a message for the page's reader."""
    return kind(i18n.say(msgid, None, **args), i18n.message(msgid, **args))


@dataclasses.dataclass(frozen=True)
class Settings:
    """What a tournament is: its name, the game and options, the format, rounds and seats."""

    name: str
    game: str
    options: dict[str, Any]
    format: str
    rounds: int
    most: int
    fewest: int
    broker: str = ""
    tiebreaks: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "tiebreaks": list(self.tiebreaks)}


@dataclasses.dataclass
class Board:
    """One pairing of a round: the players in seat order, the table playing it, its result."""

    round: int
    board: int
    players: tuple[int, ...]
    table: int | None
    tables: tuple[int, ...]
    result: GameResult | None = None
    digest: str | None = None
    source: str | None = None
    recorded: float | None = None
    finished_at: float | None = None

    @property
    def done(self) -> bool:
        return self.result is not None


class TournamentStore:
    """The SQLite file of one tournament (see the module's docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise TournamentError(_("there is no tournament at {path}: `bitbox tournament new` makes one").format(
                path=self.path))
        self.conn = self._connect()
        try:
            found = dict(self.conn.execute("SELECT key, value FROM meta WHERE key IN ('schema', 'version')"))
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise TournamentError(_("{path} is not a tournament's file ({reason}); give the file "
                                    "`bitbox tournament new` wrote").format(path=self.path, reason=exc)) from None
        if found.get("schema") != SCHEMA_NAME or found.get("version") != str(SCHEMA_VERSION):
            self.conn.close()
            raise TournamentError(_("{path} is not a tournament's file; give the file `bitbox tournament new` "
                                    "wrote").format(path=self.path))
        self._version = self._data_version()
        self._foreign = False

    @classmethod
    def create(cls, path: str | Path, settings: Settings, players: list[str]) -> TournamentStore:
        """A new tournament file at ``path`` (refused if one is there), built aside and moved in place."""
        path = Path(path)
        if path.exists():
            raise TournamentError(_("{path} already exists: a tournament is kept in it; give another --db, or "
                                    "run it with `bitbox tournament run --db {path}`").format(path=path))
        path.parent.mkdir(parents=True, exist_ok=True)
        building = path.with_name(path.name + ".new")
        building.unlink(missing_ok=True)
        conn = sqlite3.connect(building)
        with conn:
            conn.executescript(_SCHEMA)
            meta = {"schema": SCHEMA_NAME, "version": str(SCHEMA_VERSION), "created": str(time.time()),
                    "settings": json.dumps(settings.to_json(), sort_keys=True)}
            conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            conn.executemany("INSERT INTO players (id, name) VALUES (?, ?)",
                             [(index + 1, name) for index, name in enumerate(players)])
        conn.close()
        building.replace(path)
        return cls(path)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA busy_timeout=10000")
        return conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        if self._data_version() != self._version:
            self._foreign = True  # another connection wrote since last asked: :meth:`changed` still says so
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")
        self._version = self._data_version()

    def _data_version(self) -> int:
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def changed(self) -> bool:
        """Whether another connection (a command run by hand) changed the file since last asked."""
        version = self._data_version()
        foreign = self._foreign or version != self._version
        self._version, self._foreign = version, False
        return foreign

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- reading ------------------------------------------------------------------------------

    def settings(self) -> Settings:
        data = json.loads(self.conn.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()[0])
        return Settings(**{**data, "tiebreaks": tuple(data.get("tiebreaks", ()))})

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def players(self) -> dict[int, str]:
        return dict(self.conn.execute("SELECT id, name FROM players ORDER BY id"))

    def current_round(self) -> int:
        """The latest round paired (0 before the first)."""
        return int(self.conn.execute("SELECT COALESCE(MAX(number), 0) FROM rounds").fetchone()[0])

    def round_done(self, number: int) -> bool:
        row = self.conn.execute("SELECT done FROM rounds WHERE number = ?", (number,)).fetchone()
        return bool(row and row[0] is not None)

    def boards(self, number: int | None = None) -> list[Board]:
        """The pairings of round ``number`` (every round's when ``None``), with their results."""
        sql = ("SELECT b.round, b.board, b.players, b.table_no, b.tables, r.result, r.digest, r.source, r.recorded, "
               "r.finished_at FROM boards b LEFT JOIN results r ON r.round = b.round AND r.board = b.board")
        rows = self.conn.execute(sql + (" WHERE b.round = ?" if number is not None else "")
                                 + " ORDER BY b.round, b.board", (number,) if number is not None else ())
        return [Board(r, b, tuple(json.loads(p)), t, tuple(json.loads(ts)),
                      GameResult.from_json(json.loads(res)) if res else None, d, s, rec, fin)
                for r, b, p, t, ts, res, d, s, rec, fin in rows]

    def board(self, number: int, board: int) -> Board | None:
        return next((b for b in self.boards(number) if b.board == board), None)

    def byes(self, number: int | None = None) -> list[tuple[int, int]]:
        sql = "SELECT round, player FROM byes" + (" WHERE round = ?" if number is not None else "")
        return [(r, p) for r, p in self.conn.execute(sql + " ORDER BY round, player",
                                                      (number,) if number is not None else ())]

    def played(self) -> list[PlayedGame]:
        """Every game that counts, for the standings."""
        return [PlayedGame(b.round, b.players, b.result) for b in self.boards() if b.result is not None]

    def saves(self) -> dict[tuple[int, int], Any]:
        """Each recorded game's save (its actions), by (round, board); ``None`` for one recorded by hand."""
        return {(r, b): json.loads(s) if s else None
                for r, b, s in self.conn.execute("SELECT round, board, save FROM results")}

    def table_statuses(self) -> dict[int, dict[str, Any]]:
        return {t: {**json.loads(s), "seen": seen}
                for t, s, seen in self.conn.execute("SELECT table_no, status, seen FROM tables ORDER BY table_no")}

    def receipts(self) -> list[dict[str, Any]]:
        cols = ("id", "table", "round", "digest", "outcome", "reason", "at")
        return [dict(zip(cols, row)) for row in self.conn.execute("SELECT * FROM receipts ORDER BY id")]

    # ---- writing ------------------------------------------------------------------------------

    def add_round(self, number: int, pairing: Pairing) -> None:
        """Round ``number``'s pairing, written once."""
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM rounds WHERE number = ?", (number,)).fetchone():
                raise TournamentError(f"round {number} is already paired")
            conn.execute("INSERT INTO rounds (number, created) VALUES (?, ?)", (number, time.time()))
            conn.executemany("INSERT INTO boards (round, board, players) VALUES (?, ?, ?)",
                             [(number, index + 1, json.dumps(list(players)))
                              for index, players in enumerate(pairing.tables)])
            conn.executemany("INSERT INTO byes VALUES (?, ?)", [(number, p) for p in pairing.byes])

    def finish_round(self, number: int) -> None:
        with self._write() as conn:
            conn.execute("UPDATE rounds SET done = ? WHERE number = ? AND done IS NULL", (time.time(), number))

    def assign(self, number: int, board: int, table: int | None) -> None:
        """Have ``table`` play pairing ``board`` of round ``number`` (``None``: no table for now)."""
        with self._write() as conn:
            row = conn.execute("SELECT tables FROM boards WHERE round = ? AND board = ?", (number, board)).fetchone()
            if row is None:
                raise TournamentError(_("round {round} has no table {board}").format(round=number, board=board))
            tried = json.loads(row[0])
            if table is not None and table not in tried:
                tried.append(table)
            conn.execute("UPDATE boards SET table_no = ?, tables = ? WHERE round = ? AND board = ?",
                         (table, json.dumps(tried), number, board))

    def record(self, board: Board, table: int | None, digest: str, source: str, result: GameResult,
               save: Any = None, finished_at: float | None = None) -> bool:
        """Record ``board``'s result; ``False`` (and nothing written) when it already has one."""
        with self._write() as conn:
            cursor = conn.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (board.round, board.board, table, digest, source, json.dumps(result.to_json()),
                 json.dumps(save, sort_keys=True, separators=(",", ":")) if save is not None else None,
                 finished_at, time.time()))
            return cursor.rowcount == 1

    def receipt(self, table: int | None, number: int | None, digest: str | None, outcome: str, reason: str) -> None:
        with self._write() as conn:
            conn.execute("INSERT INTO receipts (table_no, round, digest, outcome, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
                         (table, number, digest, outcome, reason, time.time()))

    def set_table_status(self, table: int, status: dict[str, Any]) -> None:
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?)",
                         (table, json.dumps(status, sort_keys=True), time.time()))
