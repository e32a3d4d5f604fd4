"""How far one Mosquitto and one organiser go: N simulated tables, bots at full speed.

For N = 8, 32 and 128 tables (``--sizes``), a Swiss tournament of 2N players over 3 rounds runs
against one Mosquitto on a free loopback port, the organiser in a process of its own (``bitbox
tournament run``, with its standings page), the tables in worker processes. The bench reads the
standings page's event stream as a browser would and prints, per N:

* the results per second the organiser records (results / time from the first pairing to the last
  result recorded; rounds wait for their slowest table, as in a café);
* the end-to-end delay from a table's last move to the standings page showing the result, p50 and
  p99 (every process on this machine, one clock).

Then a run with the faults of tests/tournament injected (8 tables: a table's network cut mid-game and
mended, the broker restarted mid-round, the organiser killed with SIGKILL and restarted, messages that
are not JSON or name an unknown round, a table that never comes back and whose result is recorded by
hand), and the last line counts, over every run, the results tables published that the organiser
never recorded or recorded twice: ``tournament_results_lost: N`` (it must be 0).

    python bench/tournament.py                  # about two minutes on two cores
    python bench/tournament.py --sizes 8,32
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import os
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.engines import play_out  # noqa: E402
from controller.tournament.broker import LocalBroker  # noqa: E402
from controller.tournament.cli import make_tournament  # noqa: E402
from controller.tournament.simulated import SimulatedTable, bot_games  # noqa: E402
from controller.tournament.store import TournamentStore  # noqa: E402
from controller.tournament.topics import BrokerAddress, Topics  # noqa: E402

TOKEN = "bench-organiser-token-0123456789"


def fastest_game() -> str:
    """The registered game bots finish fastest (one seeded game each, timed): the bench measures the
    broker and the organiser, not a game's bots."""
    best = None
    for spec in bot_games():
        if not spec.players[0] <= 2 <= spec.players[1]:
            continue
        engine, bot = spec.load_engine(), spec.load_bot()
        game = engine(spec.options_from({}, 2 if spec.players_option else None, {}), seed=1)
        start = time.perf_counter()
        play_out(game, {p: bot(p + 1) for p in range(-1, game.num_players)})
        took = time.perf_counter() - start
        if best is None or took < best[0]:
            best = (took, spec.name)
    assert best is not None, "no registered game is played by two bots"
    return best[1]


# ---- the tables, in worker processes ---------------------------------------------------------------------


def _worker(folder: str, game: str, numbers: list[int], url: str, stop: Any, ready: Any) -> None:
    from controller.games import game as game_spec

    tables = [SimulatedTable(folder, game_spec(game), n, {"url": url}).start() for n in numbers]
    ready.set()
    stop.wait()
    for table in tables:
        table.stop()


class Workers:
    """N simulated tables spread over a few processes (the tables' bots would otherwise share one GIL)."""

    def __init__(self, folder: Path, game: str, count: int, url: str, processes: int = 3) -> None:
        context = multiprocessing.get_context("spawn")
        self.stop = context.Event()
        self.procs = []
        readies = []
        for index in range(processes):
            numbers = list(range(1 + index, count + 1, processes))
            if not numbers:
                continue
            ready = context.Event()
            proc = context.Process(target=_worker, args=(str(folder), game, numbers, url, self.stop, ready))
            proc.start()
            self.procs.append(proc)
            readies.append(ready)
        for ready in readies:
            ready.wait(60)

    def close(self) -> None:
        self.stop.set()
        for proc in self.procs:
            proc.join(30)


# ---- the organiser and its page ---------------------------------------------------------------------------


class OrganiserProcess:
    def __init__(self, path: Path, log: Path) -> None:
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "controller", "tournament", "run", "--db", str(path), "--port", "0", "--token",
             TOKEN, "--keep-serving"], cwd=ROOT, stdout=log.open("ab"), stderr=subprocess.STDOUT,
            env={**os.environ, "BITBOX_LANG": "en"})

    def url(self) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = re.findall(r"Standings page: (http://\S+/)", self.log.read_text(errors="replace"))
            if found:
                return found[-1]
            time.sleep(0.05)
        raise RuntimeError(f"the organiser did not start; see {self.log}")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


class PageReader(threading.Thread):
    """Reads the standings page's event stream; notes when each result first shows."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.shown: dict[tuple[int, int], tuple[float, float | None]] = {}
        self.latest: dict[str, Any] = {}
        self.closed = False

    def run(self) -> None:
        while not self.closed:
            try:
                with urllib.request.urlopen(self.url + "api/events", timeout=30) as stream:
                    for raw in stream:
                        if self.closed:
                            return
                        line = raw.decode()
                        if not line.startswith("data: "):
                            continue
                        now = time.time()
                        state = json.loads(line[6:])["state"]
                        self.latest = state
                        for r in state["results"]:
                            key = (r["round"], r["board"])
                            if key not in self.shown:
                                self.shown[key] = (now, r["finished_at"])
            except OSError:
                time.sleep(0.1)


def wait(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


def over(path: Path) -> bool:
    with TournamentStore(path) as store:
        settings = store.settings()
        return store.current_round() == settings.rounds and store.round_done(settings.rounds)


# ---- counting ---------------------------------------------------------------------------------------------


def published(folder: Path) -> set[tuple[int, int, int, str]]:
    """Every result the tables of ``folder`` published: (table, round, board, digest) from their outboxes."""
    out = set()
    for db in folder.glob("table-*-tournament.db"):
        table = int(db.name.split("-")[1])
        with sqlite3.connect(db) as conn:
            out |= {(table, r, b, d) for r, b, d in conn.execute("SELECT round, board, digest FROM outbox")}
    return out


def lost(folder: Path, path: Path) -> int:
    """Results published but never recorded, plus results recorded more than once."""
    sent = published(folder)
    with TournamentStore(path) as store:
        boards = [b for b in store.boards() if b.source == "table"]
        recorded = [(b.table, b.round, b.board, b.digest) for b in boards]
        counted = [(r["table"], r["round"], r["digest"]) for r in store.receipts() if r["outcome"] == "recorded"
                   and r["table"] is not None]
    twice = len(recorded) - len(set(recorded)) + len(counted) - len(set(counted))
    never = len({(t, r, d) for t, r, b, d in sent} - {(t, r, d) for t, r, b, d in recorded})
    return never + twice


# ---- the runs ---------------------------------------------------------------------------------------------


def scale_run(work: Path, game: str, tables: int, rounds: int) -> tuple[dict[str, float], int]:
    folder = work / f"n{tables}"
    folder.mkdir()
    broker = LocalBroker(folder / "broker").start()
    address = BrokerAddress("127.0.0.1", broker.port, "bench")
    path = folder / "tournament.db"
    from controller.games import game as game_spec

    make_tournament(path, "bench", game_spec(game), [f"P{n:03d}" for n in range(1, 2 * tables + 1)], "swiss",
                    rounds, 2, {}, address.url).close()
    workers = Workers(folder, game, tables, address.url)
    organiser = OrganiserProcess(path, folder / "organiser.log")
    reader = PageReader(organiser.url())
    reader.start()
    try:
        wait(lambda: over(path), 600, f"the tournament of {tables} tables")
        wait(lambda: len(reader.shown) == tables * rounds, 30, "every result on the standings page")
        with TournamentStore(path) as store:
            boards = store.boards()
            rounds_made = [r for (r,) in store.conn.execute("SELECT created FROM rounds ORDER BY number")]
        first, last = min(rounds_made), max(b.recorded for b in boards if b.recorded)
        delays = sorted(shown - finished for shown, finished in reader.shown.values() if finished is not None)
        figures = {"results": len(boards), "seconds": last - first, "per_second": len(boards) / (last - first),
                   "p50_ms": 1000 * statistics.median(delays),
                   "p99_ms": 1000 * delays[min(len(delays) - 1, int(0.99 * len(delays)))]}
    finally:
        reader.closed = True
        workers.close()
        organiser.stop()
        broker.stop()
    return figures, lost(folder, path)


def fault_run(work: Path, game: str) -> int:
    """8 tables with the tests' faults injected; the results lost."""
    sys.path.insert(0, str(ROOT))
    from tests.tournament.conftest import Cable

    from controller.cli import main
    from controller.games import game as game_spec
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    folder = work / "faults"
    folder.mkdir()
    broker = LocalBroker(folder / "broker").start()
    address = BrokerAddress("127.0.0.1", broker.port, "faults")
    cable = Cable(broker.port)
    path = folder / "tournament.db"
    spec = game_spec(game)
    make_tournament(path, "faults", spec, [f"P{n:02d}" for n in range(1, 17)], "swiss", 2, 2, {}, address.url).close()
    running = {n: SimulatedTable(folder, spec, n, {"url": address.url}, bot_delay=0.01).start() for n in range(1, 7)}
    running[7] = SimulatedTable(folder, spec, 7, {"url": f"mqtt://127.0.0.1:{cable.port}/faults"},
                                bot_delay=0.01, auto_start=False).start()
    lonely = SimulatedTable(folder, spec, 8, {"url": address.url}, auto_start=False).start()
    organiser = OrganiserProcess(path, folder / "organiser.log")
    try:
        wait(lambda: lonely.link.current() is not None and running[7].link.current() is not None, 60, "pairings")
        running[7].tap_start()
        wait(lambda: (running[7].session.game is not None and running[7].session.game.history), 30, "table 7's game")
        running[7].session.bots_held = True
        cable.cut()                                   # table 7 loses the broker mid-game and plays on
        running[7].session.bots_held = False
        lonely.stop()                                 # table 8 never comes back
        wait(lambda: len([b for b in TournamentStore(path).boards(1) if b.done]) >= 3, 60, "some results")
        organiser.kill()                              # kill -9 mid-round
        broker.restart()                              # and the broker restarted
        probe = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        probe.connect("127.0.0.1", broker.port)
        probe.loop_start()
        topics = Topics("faults")
        for payload in (b"{not json", json.dumps({"tournament": "faults", "table": 1, "round": 9, "board": 1,
                                                  "digest": "sha256:0"}).encode()):
            probe.publish(topics.result(1), payload, qos=1).wait_for_publish(5)
        probe.disconnect()
        probe.loop_stop()
        organiser = OrganiserProcess(path, folder / "organiser.log")
        cable.mend()
        wait(lambda: all(b.done or b.table == 8 for b in TournamentStore(path).boards(1)), 60, "round 1 but table 8")
        board = next(b for b in TournamentStore(path).boards(1) if not b.done)
        main(["tournament", "record", "--db", str(path), "--round", "1", "--table", str(board.board), "--scores",
              "1,0"])
        wait(lambda: over(path), 120, "the end of the tournament with faults")
    finally:
        for table in running.values():
            table.stop()
        organiser.stop()
        cable.close()
        broker.stop()
    return lost(folder, path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8,32,128", help="table counts (default 8,32,128)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", help="the game (default: the registered game bots finish fastest)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)  # the tables' refusals and reconnections, not their chatter
    game = args.game or fastest_game()
    print(f"game: {game}; 2 players a table, {args.rounds} Swiss rounds; organiser and tables in separate processes;"
          f" {os.cpu_count()} cores")
    total_lost = 0
    with tempfile.TemporaryDirectory(prefix="bench-tournament-") as tmp:
        work = Path(tmp)
        os.environ["BITBOX_STATE_DIR"] = str(work / "state")
        for size in (int(s) for s in args.sizes.split(",")):
            figures, missing = scale_run(work, game, size, args.rounds)
            total_lost += missing
            print(f"N={size:>4} tables: {figures['results']:>4} results in {figures['seconds']:6.2f} s = "
                  f"{figures['per_second']:6.1f} results/s recorded; last move -> standings page: "
                  f"p50 {figures['p50_ms']:6.1f} ms, p99 {figures['p99_ms']:7.1f} ms; lost {missing}", flush=True)
        missing = fault_run(work, game)
        total_lost += missing
        print(f"faults (cut table, broker restart, organiser kill -9, bad messages, a table gone for good): "
              f"lost {missing}")
    print(f"tournament_results_lost: {total_lost}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
