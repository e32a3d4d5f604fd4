"""Group commit: the actions decided in one pass of the console's loop are stored in one transaction.

Six players press ready at the same moment: their six locks reach the loop as one batch of events,
are committed to the event log (a real SQLite file) with one ``COMMIT``, and only then shown: the
LEDs lit, the reveal published. A log that refuses the batch (a trigger added by another
connection, as a disk filling up in the middle of it) keeps none of it, in the log or in the
game; a ``kill -9`` before or after the commit resumes exactly what was committed.

The controllers are the simulated ones (the real ladder and debounce code) on a clock the test moves,
so which presses make one batch is decided here, not by the machine's load.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.dials.sim_backend import ManualClock, SimBackend
from controller.dials.state import LedMode
from controller.i18n import said
from controller.paths import PROJECT_ROOT
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.session import Session
from controller.service.store import GameStore, StoreError

SEATS = 6
IDS = [f"c{i + 1}" for i in range(SEATS)]


def bench_dials() -> Any:
    """``bench/dials.py`` as a module: its game of secret numbers, locked on the number wheel."""
    if "bench_dials" in sys.modules:
        return sys.modules["bench_dials"]
    spec = importlib.util.spec_from_file_location("bench_dials", PROJECT_ROOT / "bench" / "dials.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_dials"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class LockTable:
    """Six simulated controllers, a real event log and the console's loop, stepped by the test."""

    def __init__(self, db: Path, rounds: int = 3, resume: bool = False) -> None:
        self.name = bench_dials().register_lock_game()
        self.clock = ManualClock()
        self.backend = SimBackend(IDS, clock=self.clock, poll_thread=False)
        self.backend.start()
        self.backend.advance(0.2)
        self.store = GameStore(db)
        self.hub = Hub()
        self.config = ServiceConfig(game=self.name, options={"seats": SEATS, "rounds": rounds}, seed=5,
                                    players=[PlayerConfig(f"P{i + 1}") for i in range(SEATS)], pieces=list(IDS),
                                    web=False, db=db, bot_delay=0.0, turn_pause=0.0)
        self.session = Session(self.config, self.backend, self.store, self.hub, clock=self.clock)
        stored = self.store.unfinished() if resume else None
        if stored is not None:
            self.session.resume(stored)
        else:
            self.session.start_new()
        self.session.publish()
        self.settle()

    def close(self) -> None:
        from controller.games import unregister

        self.backend.close()
        self.store.close()
        unregister(self.name)

    def settle(self) -> None:
        """Let the controllers report what they do now, and the loop handle it."""
        self.backend.advance(0.2)
        self.session.step(0)

    def dial(self, picks: dict[str, int]) -> None:
        for cid, number in picks.items():
            self.backend.turn(cid, "number", number)
        self.settle()
        assert all(self.backend.state(cid).number == n for cid, n in picks.items())

    def press(self, cids: list[str]) -> None:
        """Press and hold ``cids`` until every press is read, without letting the loop see them yet."""
        for cid in cids:
            self.backend.press(cid)
        for _ in range(100):
            if all(self.backend.state(cid).button for cid in cids):
                break
            self.backend.advance(0.005)
        assert all(self.backend.state(cid).button for cid in cids), "the presses were never read"

    def release(self, cids: list[str]) -> None:
        for cid in cids:
            self.backend.release(cid)
        self.settle()

    def stored_actions(self) -> list[tuple[int, Any]]:
        assert self.session.game_id is not None
        return self.store.actions(self.session.game_id)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LockTable]:
    built = LockTable(tmp_path / "locks.db")
    try:
        yield built
    finally:
        built.close()


def kinds(message: dict[str, Any]) -> list[str]:
    return [event["kind"] for event in message.get("events", [])]


def watch(table: LockTable) -> list[tuple[str, Any]]:
    """What happens, in order: the SQL statements the log's connection runs, the actions handed to
    the log (with how many the game held then), the LEDs set, the messages published."""
    seen: list[tuple[str, Any]] = []
    table.store._conn.set_trace_callback(lambda sql: seen.append(("sql", sql.strip().split()[0].upper())))
    append = table.store.append

    def appending(game_id: int, seq: int, player: int, action: Any) -> None:
        seen.append(("append", len(table.session.game.history)))
        append(game_id, seq, player, action)

    table.store.append = appending  # type: ignore[method-assign]
    set_led = table.backend.set_led

    def led(cid: str, mode: LedMode) -> None:
        seen.append(("led", (cid, mode)))
        set_led(cid, mode)

    table.backend.set_led = led  # type: ignore[method-assign]
    table.hub.add_listener(lambda message: seen.append(("published", kinds(message))))
    return seen


def test_five_locks_read_together_are_committed_once_and_lit_after(table: LockTable) -> None:
    table.dial({cid: i for i, cid in enumerate(IDS)})
    seen = watch(table)
    commits = table.store.commits
    table.press(IDS[:5])
    table.session.step(0)
    assert [what for kind, what in seen if kind == "sql" and what in ("BEGIN", "COMMIT")] == ["BEGIN", "COMMIT"]
    assert table.store.commits == commits + 1
    committed = seen.index(("sql", "COMMIT"))
    lit = [i for i, (kind, what) in enumerate(seen) if kind == "led" and what[1] is LedMode.ON]
    published = [i for i, (kind, _) in enumerate(seen) if kind == "published"]
    assert len(lit) == 5 and min(lit) > committed, seen
    assert published and min(published) > committed, seen
    assert len(table.stored_actions()) == 5
    assert sorted(table.session.locked) == [0, 1, 2, 3, 4]


def test_six_locks_at_the_same_moment_are_one_commit_and_the_reveal_follows_it(table: LockTable) -> None:
    picks = {cid: (3 * i + 1) % 10 for i, cid in enumerate(IDS)}
    table.dial(picks)
    seen = watch(table)
    table.press(IDS)
    table.session.step(0)
    statements = [what for kind, what in seen if kind == "sql"]
    assert statements.count("COMMIT") == 1 and statements.count("BEGIN") == 1, statements
    assert [what for kind, what in seen if kind == "append"] == list(range(SEATS))
    committed = seen.index(("sql", "COMMIT"))
    reveals = [i for i, (kind, what) in enumerate(seen) if kind == "published" and "revealed" in what]
    assert len(reveals) == 1 and reveals[0] > committed, seen
    assert [n for _, n in sorted((p, a["pick"]) for p, a in table.stored_actions())] == list(picks.values())
    assert table.hub.latest["state"]["view"]["last"]["picks"] == list(picks.values())


def test_a_pass_without_an_action_commits_nothing(table: LockTable) -> None:
    seen = watch(table)
    table.dial({"c1": 7, "c2": 2})
    assert not [what for kind, what in seen if kind == "sql" and what in ("BEGIN", "COMMIT")]


def test_a_batch_the_log_refuses_keeps_none_of_its_locks(table: LockTable, tmp_path: Path) -> None:
    """The fourth insert of six fails: the three before it, applied in the game as they were
    stored, are taken back with it; nothing of them was lit or published; the table is told."""
    db = tmp_path / "locks.db"
    table.dial({cid: 9 - i for i, cid in enumerate(IDS)})
    table.press(IDS[:2])
    table.session.step(0)                      # two locks stored and shown before the failure
    table.release(IDS[:2])
    assert len(table.stored_actions()) == 2
    with contextlib.closing(sqlite3.connect(db)) as other:   # as a disk that fills up mid-batch
        other.execute("CREATE TRIGGER log_full BEFORE INSERT ON actions WHEN (SELECT COUNT(*) FROM actions) >= 5 "
                      "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END")
        other.commit()
    seen = watch(table)
    table.press(IDS[2:])
    table.session.step(0)
    statements = [what for kind, what in seen if kind == "sql"]
    assert "COMMIT" not in statements and "ROLLBACK" in statements, statements
    # The fourth was refused; the three before it had been applied to the game as they were stored.
    assert [what for kind, what in seen if kind == "append"] == [2, 3, 4, 5], seen
    assert len(table.stored_actions()) == 2
    game = table.session.game
    assert len(game.history) == 2 and sorted(game.picks) == [0, 1]     # as the log holds it
    assert sorted(table.session.locked) == [0, 1]
    restarted = bench_dials().LockGame(game.options, seed=game.seed)
    for player, action in table.stored_actions():
        restarted.apply(player, game.decode_action(action))
    assert game.state_dict() == restarted.state_dict()
    assert not [what for kind, what in seen if kind == "led" and what[0] in IDS[2:] and what[1] is LedMode.ON]
    assert all(table.backend.state(cid).led is not LedMode.ON for cid in IDS[2:])
    state = table.hub.latest["state"]
    assert state["view"]["locked"] == [True, True, False, False, False, False]
    notice = said(state["notice"])
    assert "event log could not be written" in notice and "2 stored actions" in notice
    assert "the disk is full" in notice and "press ready again" in notice
    assert state["log"][-1]["kind"] == "store-error"
    assert not any(kind == "published" and "locked" in what for kind, what in seen), seen

    # The disk mended, the same presses lock, are committed once and revealed.
    with contextlib.closing(sqlite3.connect(db)) as other:
        other.execute("DROP TRIGGER log_full")
        other.commit()
    table.release(IDS[2:])
    table.press(IDS[2:])
    table.session.step(0)
    assert len(table.stored_actions()) == SEATS
    assert table.hub.latest["state"]["view"]["last"]["picks"] == [9 - i for i in range(SEATS)]
    assert said(table.hub.latest["state"]["notice"]) == ""


def test_a_commit_that_fails_stores_nothing_and_says_why(tmp_path: Path) -> None:
    """SQLite refuses the COMMIT itself (a deferred foreign key checked there): the batch's writes
    are rolled back, the store says so and goes on taking writes."""
    with GameStore(tmp_path / "log.db") as store:
        gid = store.new_game("bench-locks", {}, seed=1, setup={})
        with pytest.raises(StoreError, match="FOREIGN KEY"), store.batch():
            store.append(gid, 0, 0, {"pick": 1})
            store._conn.execute("PRAGMA defer_foreign_keys=ON")
            store.append(gid + 1, 0, 0, {"pick": 2})          # a game that does not exist
        assert store.actions(gid) == [] and store.action_count(gid + 1) == 0
        with store.batch():
            with store.batch():                                # nested: joins the outer one
                store.append(gid, 0, 0, {"pick": 1})
            store.append(gid, 1, 1, {"pick": 2})
            store.set_status(gid, "over")
        assert store.actions(gid) == [(0, {"pick": 1}), (1, {"pick": 2})]
        assert store.game(gid).status == "over"


def test_a_write_refused_inside_a_batch_fails_the_whole_batch(tmp_path: Path) -> None:
    with GameStore(tmp_path / "log.db") as store:
        gid = store.new_game("bench-locks", {}, seed=1, setup={})
        commits = store.commits
        with pytest.raises(StoreError, match="cannot store action number 5"), store.batch():
            store.append(gid, 0, 0, {"pick": 1})
            with contextlib.suppress(StoreError):
                store.append(gid, 5, 0, {"pick": 1})             # a gap: refused
            store.append(gid, 1, 0, {"pick": 1})                 # the batch has failed: refused too
        assert store.actions(gid) == [] and store.commits == commits



def test_an_inner_batch_left_by_an_error_fails_the_outer_one(tmp_path: Path) -> None:
    with GameStore(tmp_path / "log.db") as store:
        gid = store.new_game("bench-locks", {}, seed=1, setup={})
        commits = store.commits
        with pytest.raises(StoreError, match="a broken step"), store.batch():
            store.append(gid, 0, 0, {"pick": 1})
            with contextlib.suppress(ValueError), store.batch():
                raise ValueError("a broken step")
            store.append(gid, 1, 0, {"pick": 1})                 # the batch has failed: refused
        assert store.actions(gid) == [] and store.commits == commits
        store.append(gid, 0, 0, {"pick": 2})                     # the store goes on after it
        assert store.actions(gid) == [(0, {"pick": 2})]


CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    sys.path.insert(0, {tests!r})
    import test_group_commit as t

    db, moment = Path(sys.argv[1]), sys.argv[2]
    table = t.LockTable(db, resume=True)
    if table.session.game.history:                       # resumed: say what it holds, and stop
        state = table.hub.latest["state"]
        print(t.json.dumps({{"actions": len(table.session.game.history), "view": state["view"]}}), flush=True)
        sys.exit(0)
    table.dial({{cid: i for i, cid in enumerate(t.IDS)}})
    table.press(t.IDS)
    table.session.step(0)                                # round 1: six locks, committed and revealed
    table.release(t.IDS)
    table.dial({{cid: 9 - i for i, cid in enumerate(t.IDS)}})
    table.press(t.IDS)
    append, flush = table.store.append, table.session._flush
    count = [0]

    def stop_here(what):
        print(what, flush=True)
        time.sleep(60)

    def appending(*args):
        append(*args)
        count[0] += 1
        if moment == "before-commit" and count[0] == 4:
            stop_here("four of six stored, not committed")

    def flushing():
        if moment == "after-commit":
            stop_here("committed, not yet shown")
        flush()

    table.store.append = appending
    table.session._flush = flushing
    table.session.step(0)                                # round 2: killed inside this pass
""")


@pytest.mark.parametrize("moment", ["before-commit", "after-commit"])
def test_kill_9_in_the_middle_of_a_batch_resumes_exactly_what_was_committed(tmp_path: Path, moment: str) -> None:
    db = tmp_path / "locks.db"
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(tests=str(Path(__file__).parent)))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen([sys.executable, str(script), str(db), moment], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = child.stdout.readline()
        assert line.strip() in ("four of six stored, not committed", "committed, not yet shown"), (
            line, child.stderr.read() if child.poll() is not None else "")
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)
    with GameStore(db) as store:
        stored = store.unfinished()
        assert stored is not None
        actions = store.actions(stored.id)
    expected = SEATS if moment == "before-commit" else 2 * SEATS
    assert len(actions) == expected
    assert sorted(a["pick"] for _, a in actions[SEATS:]) == sorted(9 - i for i in range(SEATS))[:expected - SEATS]

    resumed = subprocess.run([sys.executable, str(script), str(db), "resume"], capture_output=True, text=True,
                             env=env, timeout=60, check=False)
    assert resumed.returncode == 0, resumed.stderr
    shown = json.loads(resumed.stdout.strip().splitlines()[-1])
    assert shown["actions"] == expected
    round_ = 2 if moment == "before-commit" else 3
    assert shown["view"]["round"] == round_
    assert shown["view"]["locked"] == [False] * SEATS
    assert shown["view"]["last"]["picks"] == (list(range(SEATS)) if round_ == 2 else [9 - i for i in range(SEATS)])
