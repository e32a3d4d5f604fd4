"""The SQLite event log: durable settings, refusing foreign or damaged files untouched, one process at a time."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys

import pytest

from controller.service.store import GameStore, StoreError


def _fingerprint(path):
    data = path.read_bytes()
    return hashlib.sha256(data).hexdigest(), path.stat().st_mtime_ns, len(data)


def test_actions_round_trip_and_settings(tmp_path):
    path = tmp_path / "log.db"
    with GameStore(path) as store:
        gid = store.new_game("pixoid", {"players": 4}, 7, {"players": [{"name": "A", "bot": False}]})
        store.append(gid, 0, 0, {"type": "place", "piece": 0, "pix": [1, 2]})
        store.append(gid, 1, 1, {"type": "place", "piece": 1, "pix": [3, 4]})
        with pytest.raises(StoreError, match="has 2 stored actions; cannot store action number 5"):
            store.append(gid, 5, 0, {})
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with GameStore(path) as store:
        assert store.unfinished().id == gid
        assert store.actions(gid) == [(0, {"type": "place", "piece": 0, "pix": [1, 2]}),
                                      (1, {"type": "place", "piece": 1, "pix": [3, 4]})]
        save = store.save_data(gid)
        assert save["format"] == "bitbox-game" and save["seed"] == 7 and len(save["actions"]) == 2
        store.set_status(gid, "over")
        assert store.unfinished() is None


def test_garbage_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "garbage.db"
    path.write_bytes(os.urandom(4096))
    before = _fingerprint(path)
    with pytest.raises(StoreError, match="not an SQLite file.*left untouched"):
        GameStore(path)
    assert _fingerprint(path) == before
    assert not (tmp_path / "garbage.db-wal").exists()


def test_foreign_sqlite_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    conn.execute("INSERT INTO recipes VALUES ('tarte', 40)")
    conn.commit()
    conn.close()
    before = _fingerprint(path)
    with pytest.raises(StoreError, match="another application \\(recipes\\).*left untouched"):
        GameStore(path)
    assert _fingerprint(path) == before
    assert not (tmp_path / "other.db-wal").exists()


def test_truncated_database_is_refused(tmp_path):
    path = tmp_path / "log.db"
    with GameStore(path) as store:
        store.new_game("pixoid", {}, 1, {})
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\xff" * 200)
    before = _fingerprint(path)
    with pytest.raises(StoreError):
        GameStore(path)
    assert _fingerprint(path) == before


def test_a_second_process_on_the_same_database_is_refused(tmp_path):
    path = tmp_path / "log.db"
    with GameStore(path):
        code = (
            "import sys\n"
            "from controller.service.store import GameStore, StoreError\n"
            "try:\n"
            f"    GameStore({str(path)!r})\n"
            "except StoreError as exc:\n"
            "    print(exc); sys.exit(3)\n"
        )
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
        assert result.returncode == 3, result.stderr
        assert f"in use by another bitbox process (pid {os.getpid()})" in result.stdout
    # Once released, it opens again.
    GameStore(path).close()


def test_cli_reports_a_foreign_database_cleanly(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n")
    result = subprocess.run([sys.executable, "-m", "controller", "games", "--db", str(path)],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "is not a bitbox database" in result.stderr and "Traceback" not in result.stderr
    assert path.read_text() == "shopping list\n"


def _log_with_games(path, games=3):
    """A real event log of ``games`` finished Pixoid games played by random bots (a few pages)."""
    from controller.engines import RandomBot, new_game, play_out

    with GameStore(path) as store:
        for number in range(games):
            game = play_out(new_game("pixoid", {"players": 4}, seed=number), RandomBot(number))
            gid = store.new_game("pixoid", game.options.to_dict(), game.seed, {"players": []})
            store.record(gid, 0, [(p, game.encode_action(a)) for p, a in game.history])
            store.set_status(gid, "over")
    return path


def _overwrite(path, offset, data):
    with open(path, "r+b") as handle:
        handle.seek(offset)
        handle.write(data)


def test_a_damaged_page_is_found_at_opening_and_left_untouched(tmp_path):
    import random

    path = _log_with_games(tmp_path / "log.db")
    assert path.stat().st_size > 16384
    _overwrite(path, 12288, random.Random(5).randbytes(4096))  # page 4 of 4 KiB pages
    before = _fingerprint(path)
    with pytest.raises(StoreError, match=r"log\.db is damaged .*left untouched.*move it aside"):
        GameStore(path)
    assert _fingerprint(path) == before
    assert not (tmp_path / "log.db-wal").exists()


def test_damage_met_while_reading_is_a_store_error(tmp_path):
    """Damage that the check at opening cannot see (a row's text) is still reported, not raised raw."""
    path = tmp_path / "log.db"
    with GameStore(path) as store:
        gid = store.new_game("pixoid", {"players": 4}, 7, {})
        store.append(gid, 0, 0, {"type": "lock"})
        store._conn.execute("UPDATE actions SET action = '{\"type\": ' WHERE game_id = ?", (gid,))
        store._conn.execute("UPDATE games SET setup = '[' WHERE id = ?", (gid,))
    with GameStore(path) as store:
        with pytest.raises(StoreError, match="damaged"):
            store.actions(gid)
        with pytest.raises(StoreError, match="damaged"):
            store.games()


def test_a_zero_length_file_is_refused_unless_asked_to_start_a_new_log(tmp_path):
    path = tmp_path / "copy.db"
    path.write_bytes(b"")
    with pytest.raises(StoreError, match=r"copy\.db is empty \(0 bytes\).*--new"):
        GameStore(path)
    assert path.read_bytes() == b""
    with GameStore(path, reuse_empty=True) as store:
        assert store.games() == []
    with GameStore(path) as store:   # now a log like any other
        assert store.games() == []


def test_a_new_log_appears_whole_or_not_at_all(tmp_path, monkeypatch):
    """The schema is written beside the file and moved into place: a failure (or a crash) while it
    is written never leaves a zero-length or half-made log at the path for the next start."""
    import controller.service.store as store_module

    path = tmp_path / "fresh.db"
    monkeypatch.setattr(store_module, "_NOTES_SCHEMA", "CREATE TABLE notes (")  # fails half-way
    with pytest.raises(StoreError, match=r"cannot create the event log .*fresh\.db"):
        GameStore(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.db.lock"]
    monkeypatch.undo()
    with GameStore(path) as store:
        assert store.games() == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.db", "fresh.db.lock"]


def test_a_seed_sqlite_cannot_hold_is_refused(tmp_path):
    with GameStore(tmp_path / "log.db") as store:
        with pytest.raises(StoreError, match="seed"):
            store.new_game("pixoid", {}, 10**400, {})
        assert store.games() == []


def test_the_page_cache_is_held_small_on_every_opening(tmp_path):
    """SQLite's default page cache (2 MiB) would fill as the log grows: the log keeps its own, smaller,
    each time it is opened (``bench/memory.py`` measures what that saves)."""
    from controller.service.store import PAGE_CACHE_KIB

    path = tmp_path / "log.db"
    for _ in range(2):
        with GameStore(path) as store:
            assert store._conn.execute("PRAGMA cache_size").fetchone()[0] == -PAGE_CACHE_KIB
    assert PAGE_CACHE_KIB < 2000
