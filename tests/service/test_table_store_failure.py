"""When the event log cannot be written, the table's referee stays in step with it.

The log is a real SQLite file made to refuse writes for real: a trigger, added through a second
connection as another program could, aborts every insert into the notes table (or every one past a
limit, as a disk that fills up in the middle of a decision). The table is the rendered demo game
seen through the real camera pipeline; the dashboard's requests go through the real HTTP server.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from controller import i18n
from controller.referee.common import Call
from controller.service.store import GameStore
from controller.service.table import TableSession

from .driven_table import Driven
from .puxes_live import CONFIRM_EVERY_FACE, LivePuxes

FULL = "the disk is full"


def break_log(db: Path, allow: int = 0) -> None:
    """Make every insert into the notes table fail once ``allow`` more notes are stored."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        (count,) = conn.execute("SELECT COUNT(*) FROM notes").fetchone()
        conn.execute(f"CREATE TRIGGER log_full BEFORE INSERT ON notes WHEN (SELECT COUNT(*) FROM notes) >= "
                     f"{count + allow} BEGIN SELECT RAISE(ABORT, '{FULL}'); END")
        conn.commit()


def mend_log(db: Path) -> None:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute("DROP TRIGGER log_full")
        conn.commit()


def logged(db: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every stored action and note, read through a connection of its own."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        actions = conn.execute("SELECT game_id, seq, player, action FROM actions ORDER BY game_id, seq").fetchall()
        notes = conn.execute("SELECT id, game_id, actions, kind, data FROM notes ORDER BY id").fetchall()
    return actions, notes


def memory(session: TableSession) -> dict[str, Any]:
    """What the referee holds: the game, its history, its calls and open questions."""
    referee = session.referee
    assert referee is not None
    return {"state": referee.game.state_dict(), "history": list(referee.game.history),
            "calls": list(referee.calls), "questions": dict(referee.questions), "binding": dict(referee.binding)}


def same_as_a_restart(session: TableSession, store: GameStore) -> None:
    """The game a restart rebuilds from the log is the game in memory."""
    fresh = TableSession(session.setup, store, session.layout, watcher=None)
    fresh.resume(store.game(session.game_id))
    game = session.game
    assert fresh.game.state_dict() == game.state_dict()
    assert fresh.game.history == game.history


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """The first turn played live with the dashboard served; the players answered the questions."""
    table = LivePuxes(tmp_path_factory.mktemp("failing"), seed=3, max_turns=1, players_answer=True)
    try:
        assert table.finished.wait(60), "the demo turn did not finish in time"
        assert table.error is None, table.error
        yield table
    finally:
        table.close()


def test_an_overrule_the_log_refuses_changes_nothing_and_says_why(live):
    session = live.session
    shot = next(c for c in reversed(live.state()["calls"]) if c["decision"] in ("moved", "shot") and c["alternatives"])
    request = {"call_id": shot["call_id"], "decision": shot["alternatives"][0]}
    before, stored, shown = memory(session), logged(live.db), dict(session.calls)
    log_length = len(session.log)

    break_log(live.db)
    status, body = live.post("/api/table/overrule", request)
    assert status == 409, body
    assert "could not be written" in body["error"] and FULL in body["error"]
    assert "nothing was changed" in body["error"] and "free space" in body["error"]
    assert memory(session) == before
    assert logged(live.db) == stored
    assert session.calls == shown
    assert not any(e["kind"] == "overrule" for e in session.log[log_length - 1:])

    mend_log(live.db)
    status, body = live.post("/api/table/overrule", request)
    assert status == 200, body
    game = session.game
    assert live.store.actions(session.game_id) == [(p, game.encode_action(a)) for p, a in game.history]
    assert [n["overruled"] for n in live.store.notes(session.game_id, "overrule")] == [request]
    assert session.referee.calls[-1].overrules == shot["call_id"]
    same_as_a_restart(session, live.store)


def test_a_snapshot_the_log_refuses_is_judged_again(tmp_path):
    table = Driven(tmp_path)
    try:
        session = table.session
        # the set-up: the oracles are placed and the temples built, then the heroes are rolled
        tr, snap = table.show()
        table.answer(snap, tr)
        assert table.agrees() == []
        before, stored = memory(session), logged(table.db)

        break_log(table.db)
        tr, snap = table.show()
        assert memory(session) == before
        assert logged(table.db) == stored
        refused = [e for e in session.log if e["kind"] == "refused"]
        assert refused and "could not be written" in refused[-1]["text"] and "judged again" in refused[-1]["text"]
        assert table.agrees() != [], "the moment the log refused should have changed the game"

        mend_log(table.db)
        results = session.observe(snap)   # the next still snapshot of the same table
        assert any(isinstance(r, Call) and r.actions for r in results)
        table.answer(snap, tr)
        assert table.agrees() == []
        table.finish()
        game = session.game
        assert table.store.actions(session.game_id) == [(p, game.encode_action(a)) for p, a in game.history]
        same_as_a_restart(session, table.store)
    finally:
        table.close()


def test_a_log_that_fills_up_mid_decision_changes_nothing(tmp_path):
    """When player 1's heroes are rolled a referee confirming every face asks four questions at once;
    the log takes the first and then refuses. The referee asks nothing, as before the snapshot, and
    asks again on the next one."""
    table = Driven(tmp_path, referee=CONFIRM_EVERY_FACE)
    try:
        session = table.session
        for _ in range(10):
            tr, snap = table.show()
            table.answer(snap, tr)
        assert table.agrees() == []
        before, (actions, notes) = memory(session), logged(table.db)

        break_log(table.db, allow=1)
        tr, snap = table.show()
        assert "throws the heroes" in i18n.said(tr.label, "en")
        now_actions, now_notes = logged(table.db)
        assert now_actions == actions and [n[3] for n in now_notes[len(notes):]] == ["question"]
        assert memory(session) == before
        refused = [e for e in session.log if e["kind"] == "refused"]
        assert refused and "nothing was changed" in refused[-1]["text"]

        mend_log(table.db)
        results = session.observe(snap)
        assert len(results) > 1 and session.referee.questions
        table.answer(snap, tr)
        assert table.agrees() == []
        table.finish()
        same_as_a_restart(session, table.store)
    finally:
        table.close()


def test_a_log_that_took_part_of_a_decision_is_followed(tmp_path):
    """A decision of two calls (as when one still snapshot completes several) whose second call the
    log refuses after storing the first: memory follows the log, as a restart would, and the next
    decisions are stored on top of it."""
    from controller.service.config import PlayerConfig
    from controller.service.table import LogWriteError, TableSetup
    from controller.vision.mat import load_layout

    db = tmp_path / "table.db"
    with GameStore(db) as store:
        session = TableSession(TableSetup([PlayerConfig("Ada"), PlayerConfig("Brice")], {"players": 2}, 3, game="puxes"),
                               store, load_layout("puxes"), watcher=None)
        session.start_new()
        referee = session.referee

        def allowed(game: Any, player: int, action: Any) -> bool:
            try:
                game.check(player, action)
            except ValueError:
                return False
            return True

        def two_calls() -> None:
            for _ in range(2):
                game = session.game
                player = game.current_players()[0]
                before = session._positions()
                session._store_call(referee.player_action(player, next(
                    a for a in game.legal_actions(player) if allowed(game, player, a))), before)

        break_log(db, allow=1)
        with pytest.raises(LogWriteError, match="only part of it was stored"):
            session._decide(two_calls)
        assert len(store.actions(session.game_id)) == len(session.game.history) >= 1
        same_as_a_restart(session, store)
        mend_log(db)
        session._decide(two_calls)
        game = session.game
        assert store.actions(session.game_id) == [(p, game.encode_action(a)) for p, a in game.history]
        same_as_a_restart(session, store)
