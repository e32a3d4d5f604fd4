"""The crash-safe event log: every decided action, in a SQLite file, committed before it is shown.

A game is stored as what the engines' save format needs (game name, options, seed) plus its actions
in order, one row each. Replaying those rows rebuilds the game exactly, so a power cut or a
``kill -9`` loses nothing that was ever shown: the service commits an action (WAL journal,
``synchronous=FULL``) and only then shows it. A write commits its own transaction, or, inside
:meth:`GameStore.batch`, joins the batch's one transaction: the actions decided together (six players
locking at the same moment) cost one flush to the disk instead of six, and are shown after it.

Opening checks what the file is before touching it: a file that is not SQLite, a SQLite file of
another application, a damaged one (``PRAGMA quick_check``: about 35 ms on a log of 1,000 games) or
a zero-length one (what a failed copy leaves) is refused with :class:`StoreError` and left exactly
as it was. Damage met later, while reading or writing, is a :class:`StoreError` too, never a raw
``sqlite3`` error. A new log is built beside its path and moved into place, so a crash never
leaves a half-made one. A second process on the same file is refused too (an exclusive lock on a
``.lock`` file beside it).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from controller.i18n import _

#: Written in the ``meta`` table; a database without it is not ours.
SCHEMA_NAME = "bitbox-event-log"
SCHEMA_VERSION = 1

_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    setup TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    player INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

#: The referee's record beside the actions: calls, questions, answers, overrules and notes. Created
#: on opening when missing, so an event log written before it existed gains it untouched otherwise.
_NOTES_SCHEMA = """
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    actions INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL
)
"""

#: A game's life: ``playing`` until it ends (``over``) or someone stops it (``aborted``).
STATUSES = ("playing", "over", "aborted")

#: The seeds SQLite can store: its integers are signed 64-bit.
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1

_T = TypeVar("_T")


class StoreError(Exception):
    """The database cannot be used: not a bitbox event log, damaged, or in use by another process."""


class UnknownGameError(StoreError, LookupError):
    """The event log has no game of that number."""


def damaged_message(path: Path, detail: str) -> str:
    """What to say about a damaged log: which file, what SQLite found, that it was kept, what to do."""
    return _("the event log {path} is damaged ({detail}); it was left untouched: move it aside "
             "(`mv {path} {path}.damaged`) and run again, or give another path with --db and --new; "
             "sqlite3's .recover command may save the games it holds").format(path=path, detail=detail)


def _guarded(method: Callable[..., _T]) -> Callable[..., _T]:
    """Turn the ``sqlite3`` error a damaged file (or a failing disk) makes a read or a write raise
    into a :class:`StoreError` that names the file and says what to do."""

    @functools.wraps(method)
    def guarded(self: GameStore, *args: Any, **kwargs: Any) -> _T:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise _store_error(self.path, exc) from None

    return guarded


def _store_error(path: Path, exc: Exception) -> StoreError:
    """What a failed read or write of the log at ``path`` is said as: which file, why, what to do."""
    if isinstance(exc, StoreError):
        return StoreError(str(exc))
    if isinstance(exc, sqlite3.DatabaseError) and (
            not isinstance(exc, sqlite3.OperationalError) or "malformed" in str(exc)):
        return StoreError(damaged_message(path, str(exc)))
    return StoreError(_("the event log {path} cannot be used: {reason}; check the disk (space, "
                        "permissions) and run again, or give another path with --db").format(path=path, reason=exc))


def _reading(method: Callable[..., _T]) -> Callable[..., _T]:
    """:func:`_guarded`, and a stored text that is no longer what was written (not JSON, a value
    of the wrong kind) is reported as damage too."""

    @functools.wraps(method)
    def reading(self: GameStore, *args: Any, **kwargs: Any) -> _T:
        try:
            return method(self, *args, **kwargs)
        except (ValueError, TypeError, RecursionError, OverflowError) as exc:
            raise StoreError(damaged_message(self.path, _("a stored row cannot be read: {reason}").format(reason=exc))) from None

    return _guarded(reading)


@dataclass(frozen=True)
class StoredGame:
    """One game's row: enough to rebuild it with its actions."""

    id: int
    game: str
    options: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    status: str
    created: float
    finished: float | None
    actions: int


#: SQLite's page cache per connection, in KiB (see :meth:`GameStore._connect`).
PAGE_CACHE_KIB = 256


class GameStore:
    """The event log in one SQLite file. Use as a context manager or call :meth:`close`.

    Example::

        with GameStore(path) as store:
            gid = store.new_game(name, options, seed=7, setup={})   # name: a registered game's
            store.append(gid, 0, 0, encoded_action)
    """

    def __init__(self, path: str | os.PathLike[str], reuse_empty: bool = False) -> None:
        """Open the log at ``path``, creating it if there is no file there. A zero-length file is
        refused unless ``reuse_empty`` (the user asked for a new game with ``--new``)."""
        self.path = Path(path)
        self._lock_fd: int | None = None
        #: How many transactions this store has committed: each is one flush to the disk.
        self.commits = 0
        self._batches = 0
        #: The write that failed inside the current batch: the batch then commits nothing.
        self._batch_failure: Exception | None = None
        self._check_file(reuse_empty)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._take_lock()
        except OSError as exc:
            raise StoreError(_("cannot use the folder of the event log {path}: {reason}; check its permissions, "
                               "or give another path with --db").format(path=self.path,
                                                                        reason=exc.strerror or exc)) from None
        try:
            self._conn = self._connect()
        except BaseException:
            self._release_lock()
            raise

    # ---- opening ---------------------------------------------------------------------------

    def _check_file(self, reuse_empty: bool) -> None:
        """Refuse, without writing a byte, a file that is not an SQLite database, and a zero-length
        file unless told to start a new log in it."""
        if not self.path.exists():
            return
        if self.path.is_dir():
            raise StoreError(_("{path} is a folder, not a database file; give a file path with --db").format(
                path=self.path))
        try:
            with open(self.path, "rb") as handle:
                head = handle.read(len(_SQLITE_MAGIC))
        except OSError as exc:
            raise StoreError(_("cannot read the database {path}: {reason}; check its permissions, or give "
                               "another path with --db").format(path=self.path, reason=exc.strerror)) from None
        if not head and not reuse_empty:
            raise StoreError(_(
                "{path} is empty (0 bytes): not an event log, perhaps what a failed copy left; it was "
                "left untouched. Copy the log again, give another path with --db, or start a new log in "
                "this file with --new").format(path=self.path))
        if head and head != _SQLITE_MAGIC:
            raise StoreError(_(
                "{path} is not a bitbox database (it is not an SQLite file); "
                "it was left untouched: move it away or give another path with --db").format(path=self.path))

    def _take_lock(self) -> None:
        """Hold an exclusive lock on ``NAME.lock`` beside the log (with our pid in it) while open."""
        lock_path = self.path.with_name(self.path.name + ".lock")
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            finally:
                os.close(fd)
            raise StoreError(_(
                "the database {path} is in use by another bitbox process (pid {pid}); "
                "stop it first, or give another path with --db").format(path=self.path, pid=holder)) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._lock_fd = fd

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _connect(self) -> sqlite3.Connection:
        """Open the file (made first if it is missing or empty), checked before any write."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            self._create()
        uri = f"file:{_uri_path(self.path)}?mode=rw"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(_("cannot open the event log {path}: {reason}; check its permissions, or give "
                               "another path with --db").format(path=self.path, reason=exc)) from None
        try:
            self._check_schema(conn)
            self._check_pages(conn)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            # SQLite's default page cache (2 MiB a connection) fills as the log grows: memory that a
            # service, which appends to its log and seldom reads it, would gain over its first hours.
            conn.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")
            with _transaction(conn):
                conn.execute(_NOTES_SCHEMA)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(damaged_message(self.path, str(exc))) from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _create(self) -> None:
        """Build a new, empty log in a file beside the path, then move it into place: the path
        holds a whole log or what was there before, never a half-made one."""
        part = self.path.with_name(self.path.name + ".new")
        for leftover in _with_sidecars(part):
            leftover.unlink(missing_ok=True)
        try:
            conn = sqlite3.connect(part, isolation_level=None)
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                with _transaction(conn):
                    for statement in (*_SCHEMA.strip().split(";"), _NOTES_SCHEMA):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_NAME,))
                    conn.execute("INSERT INTO meta VALUES ('version', ?)", (str(SCHEMA_VERSION),))
            finally:
                conn.close()
            _fsync(part)
            os.replace(part, self.path)
            _fsync(self.path.parent)
        except (OSError, sqlite3.Error) as exc:
            for leftover in _with_sidecars(part):
                leftover.unlink(missing_ok=True)
            raise StoreError(_("cannot create the event log {path}: {reason}; check the folder (space, "
                               "permissions) or give another path with --db").format(path=self.path,
                                                                                   reason=exc)) from None

    def _check_pages(self, conn: sqlite3.Connection) -> None:
        """SQLite's own check of every page (``PRAGMA quick_check``), read-only: a damaged page is
        found now, with the file untouched, not in the middle of a game."""
        try:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
        except sqlite3.DatabaseError as exc:
            problems = [str(exc)]
        if problems != ["ok"]:
            raise StoreError(damaged_message(self.path, "; ".join(problems)))

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Refuse another application's SQLite file before any pragma could rewrite its header."""
        try:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            meta = dict(conn.execute("SELECT key, value FROM meta")) if "meta" in tables else {}
        except sqlite3.DatabaseError as exc:
            raise StoreError(damaged_message(self.path, str(exc))) from None
        if meta.get("schema") != SCHEMA_NAME:
            found = ", ".join(sorted(tables)) or _("no tables")
            raise StoreError(_(
                "{path} is an SQLite database of another application ({found}), not a bitbox event log; "
                "it was left untouched: give another path with --db").format(path=self.path, found=found))
        if meta.get("version") != str(SCHEMA_VERSION):
            raise StoreError(_(
                "{path} is a bitbox event log of version {found}; this version reads version {wanted}: update "
                "bitbox (`git pull`, then `pip install -e .`) or give another path with --db").format(
                path=self.path, found=meta.get("version"), wanted=SCHEMA_VERSION))

    # ---- writing ---------------------------------------------------------------------------

    @_guarded
    def new_game(self, game: str, options: dict[str, Any], seed: int, setup: dict[str, Any]) -> int:
        """Record a new game (options, seed and the table's set-up: players, controllers); its id."""
        if not isinstance(seed, int) or not SEED_MIN <= seed <= SEED_MAX:
            raise StoreError(_("the seed {seed!r} cannot be stored: a seed is a whole number that fits in "
                               "64 bits ({low} to {high}); give one such as --seed 7").format(
                seed=seed, low=SEED_MIN, high=SEED_MAX))
        with self._writing():
            cursor = self._conn.execute(
                "INSERT INTO games (game, options, seed, setup, status, created) VALUES (?, ?, ?, ?, 'playing', ?)",
                (game, _dumps(options), seed, _dumps(setup), time.time()),
            )
        return int(cursor.lastrowid)

    def append(self, game_id: int, seq: int, player: int, action: Any) -> None:
        """Commit one decided action as number ``seq`` (0-based) of the game, durably.

        ``seq`` must be the next number: a duplicate or a gap raises :class:`StoreError`, so two
        writers can never interleave one game's actions.
        """
        self.record(game_id, seq, [(player, action)])

    @_guarded
    def record(self, game_id: int, seq: int, actions: list[tuple[int, Any]], kind: str | None = None,
               data: dict[str, Any] | None = None, keep: int | None = None) -> None:
        """Commit, in one transaction, actions ``seq``, ``seq + 1``... of the game and a note of the
        referee's (a call with its reason, a question, an answer, an overrule). With ``keep``, the
        stored actions after the first ``keep`` are dropped first (an overrule rewrites the game
        from the overruled call on). Nothing is stored if any part fails."""
        with self._writing():
            if keep is not None:
                self._conn.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, keep))
            count = self.action_count(game_id)
            if count != seq:
                raise StoreError(f"game {game_id} has {count} stored actions; cannot store action number {seq}")
            now = time.time()
            for offset, (player, action) in enumerate(actions):
                self._conn.execute(
                    "INSERT INTO actions (game_id, seq, player, action, at) VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq + offset, player, _dumps(action), now),
                )
            if kind is not None:
                self._conn.execute(
                    "INSERT INTO notes (game_id, actions, kind, data, at) VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq + len(actions), kind, _dumps(data or {}), now),
                )

    @_reading
    def notes(self, game_id: int, kind: str | None = None) -> list[dict[str, Any]]:
        """The referee's notes of a game, oldest first: ``{"kind", "actions", "at", **data}``
        (``actions``: how many actions were stored when the note was written)."""
        query = "SELECT kind, actions, data, at FROM notes WHERE game_id = ?"
        params: tuple[Any, ...] = (game_id,)
        if kind is not None:
            query += " AND kind = ?"
            params += (kind,)
        rows = self._conn.execute(query + " ORDER BY id", params).fetchall()
        return [{**json.loads(data), "kind": k, "actions": n, "at": at} for k, n, data, at in rows]

    @_guarded
    def truncate(self, game_id: int, keep: int) -> int:
        """Drop the actions after the first ``keep`` (a correction); how many were dropped."""
        with self._writing():
            cursor = self._conn.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, keep))
            self._conn.execute("UPDATE games SET status = 'playing', finished = NULL WHERE id = ?", (game_id,))
        return cursor.rowcount

    def set_status(self, game_id: int, status: str) -> None:
        """Mark the game ``playing``, ``over`` or ``aborted`` (with the time it finished)."""
        if status not in STATUSES:
            raise ValueError(f"unknown game status {status!r}; statuses: {', '.join(STATUSES)}")
        self._set_status(game_id, status)

    @_guarded
    def _set_status(self, game_id: int, status: str) -> None:
        with self._writing():
            self._conn.execute(
                "UPDATE games SET status = ?, finished = ? WHERE id = ?",
                (status, None if status == "playing" else time.time(), game_id),
            )

    # ---- transactions ----------------------------------------------------------------------

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Join every write made inside into one transaction, committed (one flush to the disk) when
        the outermost batch ends: all of them or, if any fails, none (a :class:`StoreError`).

        What those writes decided must not be shown before the batch has ended without an error: the
        commit is what keeps it through a crash. Batches nest: an inner one joins the outer one."""
        self._batches += 1
        try:
            yield
        except BaseException as exc:
            self._batches -= 1
            if not self._batches:
                self._end_batch(commit=False)
            elif self._batch_failure is None:
                # An inner batch left by an error fails the outer one too, even if its caller goes on.
                self._batch_failure = exc if isinstance(exc, Exception) else StoreError(repr(exc))
            raise
        self._batches -= 1
        if not self._batches:
            self._end_batch(commit=True)

    def _end_batch(self, commit: bool) -> None:
        """Commit the batch's writes, or roll them back (``commit`` false, or a write of it failed:
        that failure is raised again, so a batch that caught it cannot take it for a success)."""
        failure, self._batch_failure = self._batch_failure, None
        if failure is None and commit and self._conn.in_transaction:
            try:
                self._conn.execute("COMMIT")
                self.commits += 1
                return
            except sqlite3.Error as exc:
                failure = exc
        if self._conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):   # SQLite may have rolled it back already
                self._conn.execute("ROLLBACK")
        if failure is not None and commit:
            raise _store_error(self.path, failure) from None

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write: its own transaction, or inside a batch part of the batch's. A write that fails
        inside a batch fails the whole batch, which then stores nothing."""
        if not self._batches:
            with _transaction(self._conn):
                yield self._conn
            self.commits += 1
            return
        if self._batch_failure is not None:
            raise _store_error(self.path, self._batch_failure)
        try:
            if not self._conn.in_transaction:
                self._conn.execute("BEGIN IMMEDIATE")
            yield self._conn
        except BaseException as exc:
            self._batch_failure = exc if isinstance(exc, Exception) else StoreError(repr(exc))
            raise

    # ---- reading ---------------------------------------------------------------------------

    @_reading
    def _select(self, where: str = "", params: tuple[Any, ...] = ()) -> list[StoredGame]:
        rows = self._conn.execute(
            "SELECT g.id, g.game, g.options, g.seed, g.setup, g.status, g.created, g.finished,"
            " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) FROM games g"
            f" {where} ORDER BY g.id",
            params,
        ).fetchall()
        return [_stored(row) for row in rows]

    def games(self) -> list[StoredGame]:
        """Every stored game, oldest first."""
        return self._select()

    def game(self, game_id: int) -> StoredGame:
        found = self._select("WHERE g.id = ?", (game_id,))
        if not found:
            raise UnknownGameError(_("there is no game number {number} in {path}; `bitbox games --db {path}` "
                                     "lists the games it holds").format(number=game_id, path=self.path))
        return found[0]

    def unfinished(self) -> StoredGame | None:
        """The most recent game still being played, if any (the one to resume)."""
        playing = self._select("WHERE g.status = 'playing'")
        return playing[-1] if playing else None

    @_reading
    def action_count(self, game_id: int) -> int:
        """How many actions of the game are stored (the number the next one must have)."""
        (count,) = self._conn.execute(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = ?", (game_id,)
        ).fetchone()
        return int(count)

    @_reading
    def actions(self, game_id: int) -> list[tuple[int, Any]]:
        """The game's actions as ``(player, encoded action)`` pairs, in order."""
        rows = self._conn.execute(
            "SELECT player, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [(player, json.loads(action)) for player, action in rows]

    def save_data(self, game_id: int) -> dict[str, Any]:
        """The game in the engines' save format (see ``controller.engines.core.Game.save``)."""
        from controller.engines.core import SAVE_FORMAT, SAVE_VERSION

        stored = self.game(game_id)
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": stored.game,
            "options": stored.options,
            "seed": stored.seed,
            "actions": [[player, action] for player, action in self.actions(game_id)],
        }

    # ---- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        """Close the database and release the lock (idempotent)."""
        conn = getattr(self, "_conn", None)
        if conn is not None:
            conn.close()   # a batch still open is rolled back: nothing of it was committed
            self._conn = None  # type: ignore[assignment]
        self._release_lock()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _stored(row: tuple[Any, ...]) -> StoredGame:
    """A game's row, checked: a value of the wrong kind means the file was damaged."""
    gid, game, options, seed, setup, status, created, finished, count = row
    stored = StoredGame(gid, game, json.loads(options), seed, json.loads(setup), status, created, finished, count)
    kinds = ((stored.game, str), (stored.options, dict), (stored.seed, int), (stored.setup, dict),
             (stored.created, (int, float)))
    if any(not isinstance(value, kind) for value, kind in kinds) or status not in STATUSES:
        raise ValueError(f"game #{gid} has a value of the wrong kind")
    return stored


def _uri_path(path: Path) -> str:
    """``path`` written for an SQLite ``file:`` address (``?`` and ``#`` would end it early)."""
    from urllib.parse import quote

    return quote(str(path.absolute()))


def _with_sidecars(path: Path) -> list[Path]:
    """The file and the journal files SQLite may keep beside it."""
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"),
            path.with_name(path.name + "-journal")]


def _fsync(path: Path) -> None:
    """Flush a file (or a folder's entries) to the disk, so a power cut keeps what was moved."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
