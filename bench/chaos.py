"""Chaos: ``kill -9`` at random moments, damaged event logs, mutated saves and configurations, a
serial line fuzzed and unplugged, a dashboard under load.

1. Kills, for every registered game (``bitbox games``: the registry, no game named here). A game
   whose demo resumes (played on the wheels, bots on simulated controllers; or on phones, bots
   choosing as phones do): its real ``bitbox demo GAME`` (a demo of several games, such as Wuxing
   duel's two modes, plays them all) is killed with SIGKILL at random moments (during start-up, or
   after a random number of printed lines; a demo of several games is first killed as it begins
   its second) and started again on the same event log, until its games are over. After every kill the log is read as the restart reads
   it and compared with an uninterrupted run of the same seed. A kill counts as an *exact resume*
   when the game rebuilt from the log (the engine's checked path, as the service resumes) equals
   the one a fresh replay of its save gives, no stored action was lost or changed, every stored
   action is one of the uninterrupted game's, the restart said it resumed after exactly the stored
   actions (or, killed between two games, began the next one), and the log ended holding exactly
   the uninterrupted run's games, each ending the same way.
   A game refereed by the table camera: its demo (the table service, fed rendered frames) starts
   afresh on each run by design; after each kill its game is rebuilt through
   ``TableSession.resume`` (the path ``bitbox play GAME`` takes on a restart), compared with a fresh
   replay and with the uninterrupted run (the stored actions must be its first ones, in order), and
   the last run must end like it.
2. Damaged logs. Every page of the logs the kills left is overwritten in turn with random bytes,
   and each log is truncated at every 4 KiB; ``bitbox games``, ``bitbox export`` and (on the log of
   a demo that resumes) ``bitbox demo`` run on each copy.
3. Mutations. Each game's real save and a real configuration are each mutated ``--mutations``
   ways (bytes flipped, cut, repeated; numbers made huge, NaN or infinite; values nested thousands
   deep; oversized) and given to ``bitbox replay --final`` and ``bitbox play pixoid --config``
   (reading and checking the configuration; the service itself is not started).
4. Opening. What opening a log of ``--log-games`` finished games costs with its check
   (``PRAGMA quick_check``), and the check alone.
5. The serial line. ``--fuzz`` random inputs through the host's decoder (``bench/dials.py``'s
   fuzzer: random bytes, valid streams with bits flipped, bytes dropped, inserted and zeroed): no
   exception but the protocol's own, no message accepted that was never sent. Then, for every
   game played on the wheels, a real console loop (``Session``, its SQLite log) plays on simulated
   boards (the real firmware logic behind pseudo-terminals) through the host's ``SerialBackend``,
   people's hands turning the wheels and pressing ready; ``--unplugs`` times a board whose choice
   is locked is unplugged (its pseudo-terminal closed) in the middle of a secret turn: the game
   must pause, refuse a lock meanwhile, keep every stored and locked action, light the board's
   LED again once it is plugged back (a new pseudo-terminal), and reveal the kept lock with the
   others.
6. The dashboard. A real ``bitbox demo`` plays the first wheels game at table pace with its
   dashboard up; ``--sse-clients`` clients hold the live stream open while ``--requests``
   requests are made (state, health, the games' list through the loop, the page, the game's view):
   every answer must be 200, every stream must stay open and miss no message. The requests' p99 and
   the service's memory before, with the clients and after them are printed.

A failure is a traceback or an "unexpected error", an exit code other than 0 or 2, a refusal that
does not name the file, a file a command changed although it refused it (or only read it), a kill
that was not an exact resume, a fuzzed input that raised or was misread, a lock lost or a pause
missed around an unplug, or an error on the dashboard.

    python bench/chaos.py [--kills 30] [--mutations 1000] [--fuzz 1000000] [--unplugs 20]
                          [--sse-clients 200] [--requests 2000] [--seed 1] [--only kills,serial,...]

The last line is ``chaos_failures: N``; N must be 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import importlib.util
import io
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.engines import load_game  # noqa: E402
from controller.service.store import GameStore, StoreError  # noqa: E402

BITBOX = [sys.executable, "-m", "controller"]
PAGE = 4096

#: A realistic configuration for a Pixoid table, the base of the mutations.
CONFIG = """\
[game]
name = "pixoid"
seed = 7
options = { players = 4, short_game = false }

[controllers]
backend = "sim"
pieces = ["red", "blue", "green", "yellow"]

[[players]]
name = "Alice"
[[players]]
name = "Bob"
bot = true
[[players]]
name = "Chloé"
[[players]]
name = "Dinesh"
bot = true

[web]
host = "127.0.0.1"
port = 8080

[bots]
delay = 0.5
turn_pause = 2.0

[referee]
min_confidence = 0.8
line_margin_mm = 3.0
"""


@dataclass
class Tally:
    """Counts of what happened and the failures, each a line saying what and where."""

    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def fail(self, what: str) -> None:
        self.failures.append(what)
        print(f"  FAILURE: {what}", flush=True)


# ---- running bitbox ---------------------------------------------------------------------------


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}


def run_bitbox(args: list[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``bitbox ARGS`` in a new process, to its end."""
    return subprocess.run([*BITBOX, *args], capture_output=True, text=True, timeout=timeout, env=_env(), cwd=ROOT)


def wait_until(predicate: Callable[[], bool], timeout: float, interval: float = 0.005) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


@dataclass
class Moment:
    """When to kill: ``seconds`` after the start, or once ``lines`` more lines were printed."""

    seconds: float | None = None
    lines: int | None = None

    def __str__(self) -> str:
        return f"{self.seconds:.2f} s" if self.seconds is not None else f"line {self.lines}"


def run_and_kill(args: list[str], out: Path, moment: Moment, timeout: float = 120) -> bool:
    """Start ``bitbox ARGS`` (its output in ``out``) and SIGKILL it at ``moment``; False if it
    ended on its own first."""
    with open(out, "wb") as sink:
        process = subprocess.Popen([*BITBOX, *args], stdout=sink, stderr=subprocess.STDOUT, env=_env(), cwd=ROOT)
    try:
        if moment.seconds is not None:
            wait_until(lambda: process.poll() is not None, moment.seconds)
        else:
            wait_until(lambda: process.poll() is not None or _lines(out) >= (moment.lines or 0), timeout)
        if process.poll() is not None:
            return False
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        return True
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


# ---- reading the log as a restart does ----------------------------------------------------------


def log_games(db: Path) -> list[tuple[Any, list[tuple[int, Any]], dict[str, Any]]]:
    """Every game of the log, oldest first, with its stored actions and its save; [] without a log."""
    if not db.exists():
        return []
    with GameStore(db) as store:
        return [(stored, store.actions(stored.id), store.save_data(stored.id)) for stored in store.games()]


def latest(db: Path) -> tuple[Any, list[tuple[int, Any]], dict[str, Any]] | None:
    """The log's newest game, its stored actions and its save; None if no game was stored yet."""
    found = log_games(db)
    return found[-1] if found else None


def rebuilt_from_log(stored: Any, actions: list[tuple[int, Any]]) -> Any:
    """The game as the service rebuilds it on a restart: options and seed, then every stored
    action decoded and checked by the rules."""
    from controller.engines import game_class

    cls = game_class(stored.game)
    game = cls(cls.OPTIONS.from_dict(stored.options), seed=stored.seed)
    for player, encoded in actions:
        game.apply(player, game.decode_action(encoded))
    return game


def _canon(actions: list[Any]) -> list[str]:
    return [json.dumps(a, sort_keys=True) for a in actions]


# ---- 1. kills, every registered game -------------------------------------------------------------


def registered_games(names: list[str] | None = None) -> list[Any]:
    """The registered games (``bitbox games``), or those of ``names``, their engines loaded (so that
    their saves can be read here)."""
    from controller.games import games

    chosen = [spec for spec in games() if names is None or spec.name in names]
    for spec in chosen:
        spec.load_engine()
    return chosen


def quick_flags(spec: Any) -> list[str]:
    """The switches a game declares for a shorter game (Pixoid's ``--short``), for quick runs."""
    return [o.flag for o in spec.options if o.kind is bool and o.demo and "short" in o.key]


def resuming_demo_args(spec: Any, db: Path, seed: int, extra: list[str]) -> list[str]:
    return ["demo", spec.name, "--no-web", "--speed", "0", "--seed", str(seed), "--db", str(db), *extra]


def table_demo_args(spec: Any, db: Path, seed: int, turns: int) -> list[str]:
    return ["demo", spec.name, "--no-web", "--speed", "0", "--seed", str(seed), "--turns", str(turns), "--db", str(db)]


def kill_trials(work: Path, seed: int, kills: int, rng: random.Random, tally: Tally, table_turns: int = 4,
                quick: bool = False, timed: float = 0.2, names: list[str] | None = None) -> dict[str, Path]:
    """Section 1 for every registered game (or those of ``names``); each game's log the kills left."""
    logs: dict[str, Path] = {}
    for spec in registered_games(names):
        if spec.play[0] == "camera" and spec.demo is not None:
            print(f"1. kill -9: {spec.title}, `bitbox demo {spec.name} --turns {table_turns}`, {kills} kills", flush=True)
            logs[spec.name] = table_kills(spec, work / spec.name, seed, table_turns, kills, rng, tally)
        elif spec.demo is not None or (spec.plays_on("wheels") and spec.bot is not None):
            print(f"1. kill -9: {spec.title}, `bitbox demo {spec.name}`, {kills} kills", flush=True)
            logs[spec.name] = resume_kills(spec, work / spec.name, seed, kills, rng, tally,
                                          quick_flags(spec) if quick else [], timed)
        else:
            tally.counts[f"{spec.name}: no demo, not killed"] += 1
    return logs


@dataclass
class Reference:
    """An uninterrupted run of a demo: every game it stored (oldest first), how many lines it
    printed, and after which line each game but the first began (a demo of several games)."""

    games: list[tuple[Any, dict[str, Any]]]
    lines: int
    boundaries: list[int] = field(default_factory=list)


def reference_run(args: list[str], db: Path) -> Reference:
    """Run ``bitbox ARGS`` to its end on a fresh log; what it stored."""
    result = run_bitbox(args)
    if result.returncode != 0:
        raise SystemExit(f"the uninterrupted run `bitbox {' '.join(args)}` failed: {result.stdout[-1000:]}"
                         f"{result.stderr[-2000:]}")
    found = log_games(db)
    if not found:
        raise SystemExit(f"the uninterrupted run `bitbox {' '.join(args)}` stored no game")
    starts = [number for number, line in enumerate(result.stdout.splitlines(), start=1) if line.startswith("Event log:")]
    return Reference([(stored, save) for stored, _actions, save in found], result.stdout.count("\n"),
                     [number - 1 for number in starts[1:]])


@dataclass
class Chain:
    """Games killed again and again: what each kill left, to be judged once they are over."""

    consistent: list[bool] = field(default_factory=list)   # per kill that left something to resume
    why: list[str] = field(default_factory=list)           # what was wrong with the log, per such kill
    stored: list[int] = field(default_factory=list)        # actions of its unfinished game (0: between games)
    resumed_at: dict[int, int] = field(default_factory=dict)  # what the next run said it resumed after
    pending: list[int] = field(default_factory=list)       # kills whose restart has not said yet

    def heard(self, output: Path) -> None:
        """What a run said about resuming, for the kills before it: a run killed before it said
        anything changed nothing, so the next one speaks for the same kills. Its first game decides:
        resumed after N stored actions, or a new game (0)."""
        text = _text(output)
        started = text.find("Event log:")
        resumed = re.search(r"Resuming game #\d+ after (\d+) ", text)
        if resumed is not None and (started < 0 or resumed.start() < started):
            after = int(resumed.group(1))
        elif started >= 0:
            after = 0
        else:
            return
        for index in self.pending:
            self.resumed_at[index] = after
        self.pending.clear()


def resume_kills(spec: Any, work: Path, seed: int, kills: int, rng: random.Random, tally: Tally,
                 extra: list[str], timed: float = 0.2) -> Path:
    """Kill a game's resuming demo ``kills`` times at random moments, restarting it on the same log;
    a demo that ends before all the kills are made is followed by another (the next seed). A share
    ``timed`` of the moments are times after the start (most fall in the start-up), the others a
    number of printed lines (spread over the run). Returns the first chain's log."""
    done = 0
    first: Path | None = None
    for _attempt in range(kills + 10):
        log, made = resume_chain(spec, work / f"seed-{seed}", seed, kills - done, rng, tally, extra, timed)
        first = first or log
        done += made
        seed += 1
        if done >= kills:
            break
    else:
        tally.fail(f"{spec.name}: only {done} of {kills} kills could be made (the demo kept ending first)")
    assert first is not None
    return first


def resume_chain(spec: Any, work: Path, seed: int, kills: int, rng: random.Random, tally: Tally, extra: list[str],
                 timed: float) -> tuple[Path, int]:
    """One demo killed up to ``kills`` times, then played to its end and judged; its log and the kills made."""
    label = spec.name
    work.mkdir(parents=True, exist_ok=True)
    reference = reference_run(resuming_demo_args(spec, work / "reference.db", seed, extra), work / "reference.db")
    db = work / f"{label}.db"
    chain = Chain()
    kept: dict[int, list[str]] = {}
    done = 0
    finished = False
    # A demo of several games is first killed as it begins its second game (the first one over,
    # the next not stored yet): the one moment where going on means starting the right game.
    boundaries = [Moment(lines=line) for line in reference.boundaries[:1]] if kills > 1 else []
    while done < kills and not finished:
        moment = boundaries.pop(0) if boundaries else (
            Moment(seconds=rng.uniform(0.05, 1.5)) if rng.random() < timed
            else Moment(lines=rng.randint(1, max(2, 3 * reference.lines // (2 * kills)))))
        out = work / f"run-{done + 1}.txt"
        killed = run_and_kill(resuming_demo_args(spec, db, seed, extra), out, moment)
        chain.heard(out)
        if not killed:
            tally.counts[f"{label} runs that ended before their kill"] += 1
            break
        done += 1
        tally.counts[f"{label} kills"] += 1
        finished = _judge_resume_kill(db, reference, kept, chain, tally, label,
                                      f"{label} seed {seed} kill {done} at {moment}")
    if not _all_over(db, reference):
        final = work / "final.txt"
        result = run_bitbox(resuming_demo_args(spec, db, seed, extra))
        final.write_text(result.stdout + result.stderr)
        chain.heard(final)
        if result.returncode != 0:
            tally.fail(f"{label}: the last run failed: {result.stdout[-300:]}{result.stderr[-500:]}")
    _judge_resume_chain(db, reference, chain, tally, label)
    return db, done


def _all_over(db: Path, reference: Reference) -> bool:
    found = log_games(db)
    return len(found) >= len(reference.games) and all(stored.status == "over" for stored, _a, _s in found)


def _judge_resume_kill(db: Path, reference: Reference, kept: dict[int, list[str]], chain: Chain, tally: Tally,
                       label: str, where: str) -> bool:
    """Read the log as a restart would and note what the kill left; True once every game is over."""
    try:
        found = log_games(db)
    except StoreError as exc:
        tally.fail(f"{where}: the log cannot be read after the kill: {exc}")
        return False
    if not found:
        tally.counts[f"{label} kills before the game was stored"] += 1
        return False
    stored, actions, save = found[-1]
    if stored.status == "over":
        if len(found) >= len(reference.games):
            tally.counts[f"{label} kills after the last turn"] += 1
            return True
        tally.counts[f"{label} kills between two games"] += 1
        chain.pending.append(len(chain.stored))
        chain.consistent.append(True)
        chain.why.append("")
        chain.stored.append(0)   # the restart must begin the next game
        return False
    now = _canon(save["actions"])
    expected = _canon(_reference_for(found, reference)["actions"])
    why = []
    try:
        if rebuilt_from_log(stored, actions).state_dict() != load_game(save).state_dict():
            why.append("the checked rebuild differs from the save's replay")
    except Exception as exc:  # noqa: BLE001 - any failure to rebuild is what is counted
        tally.fail(f"{where}: the log does not rebuild: {exc!r}")
        why.append("it does not rebuild")
    lost = sum((Counter(kept.get(stored.id, [])) - Counter(now)).values())
    foreign = sum((Counter(now) - Counter(expected)).values())
    if lost:
        why.append(f"{lost} stored actions lost")
    if foreign:
        why.append(f"{foreign} stored actions the uninterrupted run never took")
    kept[stored.id] = now
    chain.pending.append(len(chain.stored))
    chain.consistent.append(not why)
    chain.why.append(", ".join(why))
    chain.stored.append(len(now))
    return False


def _key(stored: Any) -> tuple[Any, ...]:
    return stored.game, json.dumps(stored.options, sort_keys=True), stored.seed


def _reference_for(found: list[tuple[Any, Any, Any]], reference: Reference) -> dict[str, Any]:
    """The uninterrupted run's save of the log's newest game: the one of the same options and seed
    (the k-th such game for the log's k-th; the last such one for a game begun again)."""
    key = _key(found[-1][0])
    same = [save for stored, save in reference.games if _key(stored) == key]
    if not same:
        return {"actions": []}
    earlier = sum(1 for stored, _a, _s in found[:-1] if _key(stored) == key)
    return same[min(earlier, len(same) - 1)]


def _judge_resume_chain(db: Path, reference: Reference, chain: Chain, tally: Tally, label: str) -> None:
    """Count the exact resumes once the chain's games are over: the log must hold the
    uninterrupted run's games, no more, each ending the same way."""
    found = log_games(db)
    same_end = len(found) == len(reference.games)
    if not same_end:
        games = ", ".join(f"#{s.id} {s.game} {s.options} {s.status}" for s, _a, _v in found)
        tally.fail(f"{label}: the log holds {len(found)} games where the uninterrupted run stored "
                   f"{len(reference.games)}: a restart began a game again instead of going on ({games})")
    else:
        for (stored, _actions, save), (ref_stored, ref_save) in zip(found, reference.games):
            if _key(stored) != _key(ref_stored):
                tally.fail(f"{label}: game #{stored.id} has the options {stored.options} where the uninterrupted "
                           f"run's played {ref_stored.options}: a restart began a finished game again")
                same_end = False
                continue
            alike = (stored.status == "over" and load_game(save).state_dict() == load_game(ref_save).state_dict()
                     and Counter(_canon(save["actions"])) == Counter(_canon(ref_save["actions"])))
            if not alike:
                tally.fail(f"{label}: game #{stored.id} ({stored.options}) did not end like the uninterrupted one")
            same_end &= alike
    inexact = []
    for index, ok in enumerate(chain.consistent):
        resumed = chain.resumed_at.get(index)
        exact = ok and same_end and resumed == chain.stored[index]
        tally.counts[f"{label} exact resumes" if exact else f"{label} inexact resumes"] += 1
        if not exact and (same_end or not ok):
            inexact.append(f"kill #{index + 1}: {chain.stored[index]} actions stored"
                           f"{' (' + chain.why[index] + ')' if chain.why[index] else ''}, "
                           f"the restart resumed after {resumed}")
    if inexact:   # one failure per chain: the kills after the first inexact one mostly inherit its cause
        tally.fail(f"{label}: {len(inexact)} of {len(chain.consistent)} kills were not exact resumes ("
                   f"{'; '.join(inexact[:3])}{'; ...' if len(inexact) > 3 else ''})")


def table_kills(spec: Any, work: Path, seed: int, turns: int, kills: int, rng: random.Random, tally: Tally) -> Path:
    """Kill a camera game's table demo ``kills`` times at random moments; judge each log against the
    reference. Returns the log."""
    label = spec.name
    work.mkdir(parents=True, exist_ok=True)
    ref_db = work / "reference.db"
    reference_data = reference_run(table_demo_args(spec, ref_db, seed, turns), ref_db)
    ref_save = reference_data.games[-1][1]
    reference = _canon(ref_save["actions"])
    db = work / f"{label}.db"
    consistent = []
    for number in range(1, kills + 1):
        moment = (Moment(seconds=rng.uniform(0.5, 5.0)) if rng.random() < 0.15
                  else Moment(lines=rng.randint(2, max(3, reference_data.lines))))
        out = work / f"run-{number}.txt"
        games_before = _game_count(db)
        if not run_and_kill(table_demo_args(spec, db, seed, turns), out, moment):
            tally.counts[f"{label} runs that ended before their kill"] += 1
            continue
        tally.counts[f"{label} kills"] += 1
        if _game_count(db) == games_before:   # killed while the simulated table was being set up
            tally.counts[f"{label} kills before the game was stored"] += 1
            continue
        consistent.append(_judge_table_kill(spec, db, reference, tally, f"{label} kill {number} at {moment}"))
    result = run_bitbox(table_demo_args(spec, db, seed, turns))
    found = latest(db)
    same_end = (result.returncode == 0 and found is not None
                and load_game(found[2]).state_dict() == load_game(ref_save).state_dict())
    if not same_end:
        tally.fail(f"{label}: the last run did not end like the uninterrupted one: {result.stderr[-500:]}")
    for ok in consistent:
        if ok is None:
            continue
        tally.counts[f"{label} exact resumes" if ok and same_end else f"{label} inexact resumes"] += 1
    return db


def _judge_table_kill(spec: Any, db: Path, reference: list[str], tally: Tally, where: str) -> bool | None:
    """The killed game rebuilt through ``TableSession.resume`` equals a fresh replay and is the
    uninterrupted game's beginning; None if the kill came once the game had ended."""
    try:
        found = latest(db)
    except StoreError as exc:
        tally.fail(f"{where}: the log cannot be read after the kill: {exc}")
        return False
    if found is None or found[0].status != "playing":
        tally.counts[f"{spec.name} kills after the game ended"] += 1
        return None
    stored, actions, save = found
    try:
        resumed = _table_resume(spec, db, stored)
        ok = resumed == load_game(save).state_dict() == rebuilt_from_log(stored, actions).state_dict()
    except Exception as exc:  # noqa: BLE001 - any failure to rebuild is what is counted
        tally.fail(f"{where}: the log does not rebuild: {exc!r}")
        return False
    ok &= _canon(save["actions"]) == reference[: len(save["actions"])]
    if not ok:
        tally.fail(f"{where}: the rebuilt game differs ({len(actions)} stored actions)")
    return ok


def _game_count(db: Path) -> int:
    """How many games the log holds (0 when there is no log yet)."""
    if not db.exists():
        return 0
    with GameStore(db) as store:
        return len(store.games())


def _table_resume(spec: Any, db: Path, stored: Any) -> dict[str, Any]:
    """The state ``bitbox play GAME`` rebuilds from the log on a restart."""
    from controller.service.config import PlayerConfig
    from controller.service.table import TableSession, TableSetup
    from controller.vision.mat import load_layout

    copy = db.with_name("resume-" + db.name)
    _copy_log(db, copy)
    with GameStore(copy) as store:
        names = [PlayerConfig(p["name"]) for p in stored.setup.get("players", [])]
        session = TableSession(TableSetup(names, stored.options, stored.seed, game=stored.game), store,
                               load_layout(spec.mat), watcher=None)
        session.resume(store.game(stored.id))
        return session.game.state_dict()


def _copy_log(source: Path, target: Path) -> None:
    """Copy a log with its write-ahead journal (what a restart would open), clearing old copies."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(target) + suffix).unlink(missing_ok=True)
    for suffix in ("", "-wal"):
        if Path(str(source) + suffix).exists():
            shutil.copyfile(str(source) + suffix, str(target) + suffix)


# ---- 2. damaged logs ----------------------------------------------------------------------------


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "absent"


@contextlib.contextmanager
def _quiet() -> Iterator[io.StringIO]:
    """Run in-process with stdout discarded (at the descriptor too) and stderr kept."""
    err = io.StringIO()
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            yield err
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


class TimeLimit(BaseException):
    """A command run in this process went on longer than any should (a BaseException, so that the
    command's own ``except Exception`` does not take it for one of its errors)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeLimit` in this (main) thread after ``seconds``; an alarm set before (a
    test runner's own time limit) goes on afterwards with the time it had left."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise TimeLimit(f"did not finish within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    started = time.monotonic()
    earlier, _interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if earlier:
            signal.setitimer(signal.ITIMER_REAL, max(0.001, earlier - (time.monotonic() - started)))


def bitbox_here(args: list[str], limit: float = 60.0) -> tuple[int, str]:
    """``bitbox ARGS`` in this process: its exit code and stderr. An exception that escapes
    ``main`` is reported as a traceback would be; a command still running after ``limit`` seconds
    is stopped and reported (exit code -2)."""
    import traceback

    from controller.cli import main

    with _quiet() as err:
        try:
            with time_limit(limit):
                code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except TimeLimit as exc:
            err.write(f"bitbox {' '.join(args)}: {exc} (stopped)\n")
            code = -2
        except BaseException:  # noqa: BLE001 - this is what is being counted
            err.write(traceback.format_exc())
            code = -1
    return code, err.getvalue()


def _keep(target: Path) -> Path:
    """A copy of a file that made a command fail, kept beside it for the report (the next trial
    overwrites the original)."""
    kept = target.with_name(f"failed-{len(list(target.parent.glob('failed-*')))}-{target.name}")
    shutil.copyfile(target, kept)
    return kept


def judge(tally: Tally, what: str, code: int, err: str, target: Path, before: str, may_change: bool) -> None:
    """One command on one damaged or mutated file: a clean result, and the file as it was."""
    kind = "refused" if code == 2 else "accepted" if code == 0 else "other"
    tally.counts[f"{what}: {kind}"] += 1
    if code == -2:
        tally.counts["commands that never ended"] += 1
        tally.fail(f"{what} on {target.name}: {err.strip()[-300:]}; the file is kept as {_keep(target)}")
        return
    if "Traceback" in err or "unexpected error" in err or code not in (0, 2):
        tally.counts["tracebacks"] += 1
        tally.fail(f"{what} on {target.name}: exit {code}: {err.strip()[-600:]}; the file is kept as {_keep(target)}")
        return
    if code == 2 and ("damaged" in err or "empty" in err) and str(target) not in err:
        tally.fail(f"{what} on {target.name}: the refusal does not name the file: {err.strip()[:300]}")
    changed = fingerprint(target) != before
    if changed and (code != 0 or not may_change):
        tally.counts["changed originals"] += 1
        tally.fail(f"{what} on {target.name}: the file was changed (exit {code})")


def damaged_logs(work: Path, logs: list[tuple[Path, list[str] | None]], rng: random.Random, tally: Tally) -> None:
    """Each log's pages overwritten in turn, and the log truncated at every 4 KiB, under each command."""
    for log, demo in logs:
        data = log.read_bytes()
        pages = len(data) // PAGE
        variants = [(f"{log.stem} page {p + 1} overwritten",
                     data[: p * PAGE] + rng.randbytes(PAGE) + data[(p + 1) * PAGE:]) for p in range(pages)]
        variants += [(f"{log.stem} cut at {k * 4} KiB", data[: k * PAGE]) for k in range(pages)]
        for label, content in variants:
            tally.counts["damaged logs"] += 1
            _one_damaged_log(work / "damaged.db", content, label, demo, tally)


def _one_damaged_log(target: Path, content: bytes, label: str, demo: list[str] | None, tally: Tally) -> None:
    """``bitbox games``, ``bitbox export`` and (given) ``bitbox demo`` on a fresh copy of ``content``."""
    commands: list[tuple[str, list[str], bool, bool]] = [
        ("games", ["games", "--db", str(target)], False, False),
        ("export", ["export", "--db", str(target)], False, False),
    ]
    if demo is not None:
        commands.append(("demo", [*demo, "--turns", "1", "--db", str(target)], True, True))
    for name, args, may_change, separate in commands:
        for suffix in ("", "-wal", "-shm", ".new"):
            Path(str(target) + suffix).unlink(missing_ok=True)
        target.write_bytes(content)
        before = fingerprint(target)
        if separate:
            result = run_bitbox(args, timeout=120)
            code, err = result.returncode, result.stderr
        else:
            code, err = bitbox_here(args)
        judge(tally, f"damaged log, {name}", code, err, target, before, may_change)
        if "Traceback" in err or "unexpected" in err:
            print(f"    ({label})", flush=True)


# ---- 3. mutations -------------------------------------------------------------------------------

_NUMBERS = [b"1" + b"0" * 400, b"1" + b"0" * 5000, b"1e400", b"-1e400", b"NaN", b"nan", b"inf", b"-inf",
            b"-1", b"0", b"9223372036854775808", b"-9223372036854775809", b"1.5", b"true", b'"7"', b"null"]


def mutate(base: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One random mutation of ``base``: its name and the bytes."""
    n = len(base)
    at = rng.randrange(n)
    span = rng.randint(1, 64)
    kind = rng.choice(["flip", "delete", "insert", "repeat", "cut", "number", "nest", "swap", "huge", "utf8"])
    if kind == "flip":
        return kind, base[:at] + bytes([rng.randrange(256)]) + base[at + 1:]
    if kind == "delete":
        return kind, base[:at] + base[at + span:]
    if kind == "insert":
        return kind, base[:at] + rng.randbytes(span) + base[at:]
    if kind == "repeat":
        return kind, base[:at] + base[at:at + span] * rng.randint(2, 50) + base[at:]
    if kind == "cut":
        return kind, base[:at]
    if kind == "number":
        digits = [i for i in range(n) if base[i:i + 1].isdigit() and not base[i - 1:i].isdigit()]
        start = rng.choice(digits) if digits else at
        end = start
        while end < n and base[end:end + 1].isdigit():
            end += 1
        return kind, base[:start] + rng.choice(_NUMBERS) + base[end:]
    if kind == "nest":
        depth = rng.choice([20, 40, 200, 1000, 5000, 100_000])
        return kind, base[:at] + b"[" * depth + b"1" + b"]" * depth + base[at:]
    if kind == "swap":
        lines = base.split(b"\n")
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return kind, b"\n".join(lines)
    if kind == "huge":
        return kind, base[:at] + b"x" * rng.choice([10_000, 2_000_000, 9_000_000]) + base[at:]
    return kind, base[:at] + rng.choice([b"\xff\xfe", b"\xc3", b"\x00", "é".encode(), b"\xed\xa0\x80"]) + base[at:]


def mutated_saves(work: Path, save: dict[str, Any], count: int, rng: random.Random, tally: Tally,
                  label: str = "") -> None:
    """``bitbox replay --final`` on ``count`` mutations of a real save (of the game ``label``)."""
    base = json.dumps(save, sort_keys=True, indent=1).encode()
    target = work / "mutated-save.json"
    what = f"mutated {label} save" if label else "mutated save"
    for _ in range(count):
        kind, content = mutate(base, rng)
        target.write_bytes(content)
        before = fingerprint(target)
        tally.counts[f"save mutation: {kind}"] += 1
        code, err = bitbox_here(["replay", "--final", str(target)])
        judge(tally, what, code, err, target, before, False)


def mutated_configs(work: Path, count: int, rng: random.Random, tally: Tally) -> None:
    """``bitbox play pixoid --config`` on ``count`` mutations of a real configuration, up to the
    start of the service (which is replaced by a stand-in: the file's reading is what is fuzzed)."""
    import controller.service.cli as service_cli

    target = work / "mutated.toml"
    real_run = service_cli._run
    service_cli._run = lambda config, run: 0  # noqa: E731 - the service is not started
    try:
        for _ in range(count):
            kind, content = mutate(CONFIG.encode(), rng)
            target.write_bytes(content)
            before = fingerprint(target)
            tally.counts[f"config mutation: {kind}"] += 1
            code, err = bitbox_here(["play", "pixoid", "--config", str(target), "--no-web", "--db",
                                     str(work / "config-run.db")])
            judge(tally, "mutated config", code, err, target, before, False)
    finally:
        service_cli._run = real_run


# ---- 4. what the check at opening costs ---------------------------------------------------------


def opening_cost(work: Path, games: int, tally: Tally) -> None:
    """Milliseconds to open a log of ``games`` finished 4-player Pixoid games (random bots) with
    its ``PRAGMA quick_check``, and the check alone; the median of five openings."""
    import sqlite3
    import statistics

    from controller.engines import RandomBot, new_game, play_out

    path = work / "large.db"
    with GameStore(path) as store:
        for number in range(games):
            game = play_out(new_game("pixoid", {"players": 4}, seed=number), RandomBot(number))
            gid = store.new_game("pixoid", game.options.to_dict(), game.seed, {"players": []})
            store.record(gid, 0, [(p, game.encode_action(a)) for p, a in game.history])
            store.set_status(gid, "over")
    opening, check = [], []
    for _ in range(5):
        started = time.perf_counter()
        GameStore(path).close()
        opening.append(1000 * (time.perf_counter() - started))
        conn = sqlite3.connect(path)
        started = time.perf_counter()
        conn.execute("PRAGMA quick_check").fetchall()
        check.append(1000 * (time.perf_counter() - started))
        conn.close()
    size = path.stat().st_size / 2**20
    print(f"a log of {games} games ({size:.1f} MiB): opened in {statistics.median(opening):.0f} ms, "
          f"of which quick_check {statistics.median(check):.0f} ms", flush=True)
    tally.counts[f"opening a {games}-game log, ms"] = round(statistics.median(opening))
    tally.counts[f"quick_check of a {games}-game log, ms"] = round(statistics.median(check))


# ---- 5. the serial line -------------------------------------------------------------------------


def bench_module(name: str) -> Any:
    """A script of ``bench/`` as a module (``bench`` is a folder of scripts, not a package)."""
    key = f"bench_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def serial_fuzz(count: int, seed: int, tally: Tally) -> None:
    """``count`` fuzzed inputs through the host's frame decoder and protocol (``bench/dials.py``)."""
    started = time.monotonic()
    inputs, foreign, wrong, good = bench_module("dials").fuzz(count, seed)
    print(f"   {inputs:,} inputs in {time.monotonic() - started:.0f} s: {foreign} unexpected exceptions, "
          f"{wrong} false accepts, {good:,} intact messages recovered", flush=True)
    tally.counts["serial fuzz: inputs"] += inputs
    tally.counts["serial fuzz: unexpected exceptions"] += foreign
    tally.counts["serial fuzz: false accepts"] += wrong
    tally.counts["serial fuzz: intact messages recovered"] += good
    if foreign:
        tally.fail(f"serial fuzz: {foreign} inputs raised an exception other than the protocol's own")
    if wrong:
        tally.fail(f"serial fuzz: {wrong} messages accepted that were never sent")


#: The USB identity the boards show (hardware/pinmap-usb.toml's), as the backend matches it.
VID_PID = (0x2E8A, 0x0005)


class UsbBus:
    """What ``serial.tools.list_ports.comports()`` lists: the simulated boards that are plugged in."""

    def __init__(self, boards: list[Any]) -> None:
        self.boards = boards

    def comports(self) -> list[Any]:
        return [SimpleNamespace(device=b.port, vid=VID_PID[0], pid=VID_PID[1], serial_number=b.world.uid.hex().upper())
                for b in self.boards if b.plugged]


class ChaosError(Exception):
    """A trial could not go on: what was awaited and did not come."""


class Hands:
    """The people at a table of simulated boards: they set the wheels and press ready while the
    console's loop (run in this thread, a step at a time) reads the boards through the SerialBackend."""

    def __init__(self, session: Any, backend: Any, boards: dict[str, Any]) -> None:
        self.session = session
        self.backend = backend
        self.boards = boards

    def pump(self, done: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
        """Step the loop until ``done()``; :class:`ChaosError` saying ``what`` if it never is."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise ChaosError(f"{what} (waited {timeout:g} s)")
            self.session.step(0.005)

    def dial(self, cid: str, wheels: dict[str, int]) -> None:
        for wheel, position in wheels.items():
            self.boards[cid].turn(wheel, position)

        def shown() -> bool:
            state = self.backend.states().get(cid)
            return state is not None and state.connected and all(state.wheel(w) == v for w, v in wheels.items())
        self.pump(shown, f"controller {cid} never showed {wheels}")

    def press(self, cid: str) -> None:
        """Press ready and let go once the press was read."""
        board = self.boards[cid]
        board.press()
        self.pump(lambda: self.backend.state(cid).button, f"the press on {cid} was never read")
        board.release()
        self.pump(lambda: not self.backend.state(cid).button, f"the release on {cid} was never read")

    def act(self, seat: int, action: Any) -> None:
        """Set the wheels for ``action`` on its controller and press ready; it must be taken."""
        session = self.session
        play, game = session.play, session.game
        cid = session.pieces[play.piece_of(seat, action)]
        before = len(game.history)
        self.dial(cid, play.wheel_targets(action))
        self.press(cid)
        status = session.controllers[cid]
        self.pump(lambda: len(game.history) > before or status.refused,
                  f"{cid}'s press for {action} was neither taken nor refused")
        if status.refused:
            raise ChaosError(f"{cid}'s press for {action} was refused: {status.reason}")


def unplug_trials(work: Path, cycles: int, seed: int, rng: random.Random, tally: Tally,
                  names: list[str] | None = None) -> None:
    """``cycles`` unplug/replug cycles with a lock held, for every registered game played on the wheels."""
    for spec in registered_games(names):
        if not (spec.plays_on("wheels") and spec.bot is not None):
            continue
        print(f"5. serial: {spec.title}, {cycles} boards unplugged and plugged back mid-game", flush=True)
        try:
            unplug_cycles(spec, work / f"serial-{spec.name}", cycles, seed, rng, tally)
        except ChaosError as exc:
            tally.fail(f"serial {spec.name}: {exc}")


def unplug_cycles(spec: Any, work: Path, cycles: int, seed: int, rng: random.Random, tally: Tally) -> None:
    """A real console loop plays ``spec``'s game on simulated boards through the SerialBackend;
    in ``cycles`` secret turns, once every seat but one has locked, a locked board is unplugged:
    see the module's docstring, section 5."""
    from controller.dials.serial_backend import SerialBackend
    from controller.dials.state import LedMode
    from controller.service.config import PlayerConfig, ServiceConfig
    from controller.service.hub import Hub
    from controller.service.session import Session
    from firmware.fakes.pty_board import PtyBoard

    label = spec.name
    work.mkdir(parents=True, exist_ok=True)
    options = spec.options_from({}, None, {})
    engine = spec.load_engine()
    probe = engine(options, seed=seed)
    pieces = spec.load_wheels()(probe, spec.load_bot()).pieces()
    boards = [PtyBoard(uid=bytes([0xE6, 0x61, 0x41, 0x04, 0x03, 0xC4, 0x05, i]), storage_dir=work / f"board-{i}",
                       seed=seed + i) for i in range(pieces)]
    ids = [b.world.uid.hex() for b in boards]
    config = ServiceConfig(game=spec.name, options=options, seed=seed,
                           players=[PlayerConfig(f"Player {i + 1}") for i in range(probe.num_players)],
                           backend="serial", pieces=ids, web=False, db=work / "unplug.db", bot_delay=0.0, turn_pause=0.0)
    backend = SerialBackend(comports=UsbBus(boards).comports, vid_pid=VID_PID, rescan_interval=0.05,
                            retry_interval=0.2)
    try:
        with backend, GameStore(config.db_path()) as store:
            session = Session(config, backend, store, Hub())
            hands = Hands(session, backend, dict(zip(ids, boards)))
            hands.pump(lambda: all(s.connected for s in backend.states().values()) and len(backend.states()) == pieces,
                       "the boards never all connected")
            session.start_new()
            done = unlocked = 0
            decisions = 0
            while done < cycles:
                decisions += 1
                if decisions > 400 * cycles:
                    raise ChaosError(f"only {done} secret turns came in {decisions} decisions")
                game, play = session.game, session.play
                if game.is_over():
                    session.start_new()
                    continue
                owed = [(seat, action) for seat, _pieces in play.waiting_for(session.locked)
                        for action in play.bot_actions(seat, lambda index, s=seat: rng.randrange(2**32))]
                if not owed:
                    raise ChaosError(f"nobody owes an action in {game.render()!r}")
                secret = all(play.locks(seat, action) is not None for seat, action in owed)
                if not (secret and len(owed) >= 2):
                    if rng.random() < 0.1:
                        _unplug_and_back(hands, store, session, ids[play.piece_of(*owed[0])], boards, ids, tally,
                                         label, LedMode)
                        unlocked += 1
                    hands.act(*owed[0])
                    continue
                for seat, action in owed[:-1]:
                    hands.act(seat, action)
                locked = set(session.locked)
                if not locked:
                    raise ChaosError(f"{len(owed) - 1} secret actions were taken but no controller is locked")
                stored = store.actions(session.game_id)
                victim = ids[rng.choice(sorted(locked))]
                last_seat, last_action = owed[-1]
                _unplug_and_back(hands, store, session, victim, boards, ids, tally, label, LedMode,
                                 refused_press=(last_seat, last_action))
                if set(session.locked) != locked:
                    tally.fail(f"serial {label}: locks {sorted(locked)} became {sorted(session.locked)} across the unplug")
                hands.act(last_seat, last_action)
                after = store.actions(session.game_id)
                if after[: len(stored)] != stored:
                    tally.fail(f"serial {label}: the stored actions changed across the unplug")
                elif any(session.game.secret_pending(s) for s in range(session.game.num_players)):
                    tally.fail(f"serial {label}: the turn was not revealed once every seat had locked")
                else:
                    tally.counts[f"serial {label}: unplug/replug cycles with a lock kept"] += 1
                done += 1
            tally.counts[f"serial {label}: unplug/replug cycles in a public phase"] += unlocked
            counters = backend.counters()
            tally.counts[f"serial {label}: board disconnects seen"] += sum(c.get("disconnects", 0) for c in counters.values())
    finally:
        for board in boards:
            board.close()


def _unplug_and_back(hands: Hands, store: GameStore, session: Any, cid: str, boards: list[Any], ids: list[str],
                     tally: Tally, label: str, led_mode: Any, refused_press: tuple[int, Any] | None = None) -> None:
    """Unplug ``cid``'s board: the game pauses (and refuses ``refused_press`` meanwhile, nothing
    stored), then plug it back: connected again, its LED as the loop wants it, nothing stored changed."""
    board = boards[ids.index(cid)]
    stored = store.actions(session.game_id)
    status = session.controllers[cid]
    board.unplug()
    hands.pump(lambda: not status.connected and bool(session.paused_message()),
               f"unplugging {cid} did not pause the game")
    if refused_press is not None:
        seat, action = refused_press
        other = session.pieces[session.play.piece_of(seat, action)]
        hands.dial(other, session.play.wheel_targets(action))
        hands.press(other)
        hands.pump(lambda: session.controllers[other].refused, f"a lock on {other} was not refused during the pause")
        tally.counts[f"serial {label}: locks refused while a board was unplugged"] += 1
    if store.actions(session.game_id) != stored:
        tally.fail(f"serial {label}: something was stored while {cid} was unplugged")
    board.plug()
    hands.pump(lambda: status.connected and not session.paused_message(), f"{cid} never came back after its replug")
    wanted = led_mode.ON if status.piece in session.locked else led_mode.OFF
    hands.pump(lambda: board.led == (1 if wanted == led_mode.ON else 0),
               f"{cid}'s LED did not come back {wanted.value} after its replug")
    if store.actions(session.game_id) != stored:
        tally.fail(f"serial {label}: the stored actions changed across {cid}'s unplug")


# ---- 6. the dashboard under load ------------------------------------------------------------------


def rss_mib(pid: int) -> float:
    """A process's resident memory, MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class WebLoad:
    """What the clients saw."""

    latencies: list[float] = field(default_factory=list)      # ms per request
    by_path: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    messages: list[int] = field(default_factory=list)         # per stream
    duplicates: int = 0   # a stream's first state sent again (published while the stream opened)
    first_message: list[float] = field(default_factory=list)  # ms from connecting to the first message
    statuses: Counter[int] = field(default_factory=Counter)
    rss_with_clients: float = 0.0


def web_trial(work: Path, clients: int, requests: int, seed: int, tally: Tally, concurrency: int = 16,
              speed: float = 1.0, rounds: int = 2) -> None:
    """Section 6: a real ``bitbox demo`` of the first wheels game, its dashboard under load; the load
    is made ``rounds`` times, so that the memory after the second tells a leak (growing again) from
    the first round's high-water mark (kept by the allocator)."""
    spec = next(s for s in registered_games() if s.plays_on("wheels") and s.bot is not None)
    work.mkdir(parents=True, exist_ok=True)
    token = "chaos" + "0" * 27
    args = ["demo", spec.name, "--seed", str(seed), "--speed", str(speed), "--port", "0", "--token", token, "--new",
            "--db", str(work / "web.db")]
    process = subprocess.Popen([*BITBOX, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=_env(), cwd=ROOT)
    lines: list[str] = []
    memory: list[float] = []
    loads: list[WebLoad] = []
    try:
        url = _dashboard_url(process, lines)
        threading.Thread(target=lambda: lines.extend(process.stdout or []), daemon=True).start()
        host, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
        paths = ["/api/state", "/api/health", "/api/games", "/", f"/games/{spec.name}/view.js"]
        time.sleep(0.5)   # the page's first state is published
        memory.append(rss_mib(process.pid))
        for round_ in range(1, rounds + 1):
            published = _published(host, int(port))
            started = time.monotonic()
            load = asyncio.run(_load(host, int(port), clients, requests, paths, concurrency, process.pid))
            seconds = time.monotonic() - started
            time.sleep(1.0)
            memory.append(rss_mib(process.pid))
            moved = _published(host, int(port)) - published
            loads.append(load)
            print(f"   round {round_}: {clients} live streams and {len(load.latencies)} requests in {seconds:.1f} s "
                  f"while `bitbox demo {spec.name} --speed {speed:g}` played ({moved} states published meanwhile): "
                  f"{len(load.errors)} errors; requests p50 {statistics.median(load.latencies):.1f} ms, "
                  f"p99 {percentile(load.latencies, 99):.1f} ms, max {max(load.latencies):.1f} ms; each stream got "
                  f"{min(load.messages, default=0)} to {max(load.messages, default=0)} messages in order "
                  f"({load.duplicates} first states sent twice); first message p99 "
                  f"{percentile(load.first_message, 99):.1f} ms; memory with the streams open "
                  f"{load.rss_with_clients:.1f} MiB", flush=True)
            print("     p99 by address: " + ", ".join(f"{path} {percentile(ms, 99):.0f} ms"
                                                 for path, ms in load.by_path.items()), flush=True)
            for error in load.errors[:10]:
                print(f"    {error}", flush=True)
            if moved <= 0:
                tally.fail(f"web: nothing was published during round {round_}: the game was not being played")
        playing = process.poll() is None
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
    steps = ", ".join(f"{m:.1f} MiB after round {i}" for i, m in enumerate(memory[1:], start=1))
    print(f"   memory of the service: {memory[0]:.1f} MiB before, {steps} (growth {memory[1] - memory[0]:+.1f} MiB "
          f"in the first round, {memory[-1] - memory[1]:+.1f} MiB in the rounds after)", flush=True)
    first = loads[0]
    tally.counts["web: live streams"] += clients * len(loads)
    tally.counts["web: requests"] += sum(len(load.latencies) for load in loads)
    tally.counts["web: errors"] += sum(len(load.errors) for load in loads)
    tally.counts["web: request p99 (first round), ms"] = round(percentile(first.latencies, 99))
    tally.counts["web: memory growth (first round), KiB"] = round((memory[1] - memory[0]) * 1024)
    tally.counts["web: memory growth (rounds after), KiB"] = round((memory[-1] - memory[1]) * 1024)
    errors = [error for load in loads for error in load.errors]
    if errors:
        tally.fail(f"web: {len(errors)} errors, the first: {errors[0]}")
    if not playing:
        tally.fail(f"web: the demo was no longer running at the end of the trial: {''.join(lines[-5:])}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q / 100.0
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def _dashboard_url(process: subprocess.Popen[str], lines: list[str], timeout: float = 60.0) -> str:
    """The dashboard's address the demo prints at start-up."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        found = re.search(r"(http://[\d.]+:\d+)/", line)
        if found and "Dashboard" in line:
            return found.group(1) + "/"
    raise ChaosError(f"the demo never printed its dashboard's address: {''.join(lines[-10:])}")


def _published(host: str, port: int) -> int:
    """How many messages the service's loop has published (``/api/health``): it grows while a game is played."""
    import http.client

    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.request("GET", "/api/health")
        return int(json.loads(connection.getresponse().read())["published"])
    finally:
        connection.close()


async def _load(host: str, port: int, clients: int, requests: int, paths: list[str], concurrency: int,
                pid: int) -> WebLoad:
    """``clients`` live streams held open while ``requests`` requests are made, ``concurrency`` at a time."""
    load = WebLoad()
    stop = asyncio.Event()
    opened = 0
    all_open = asyncio.Event()

    def one_open() -> None:
        nonlocal opened
        opened += 1
        if opened == clients:
            all_open.set()

    streams = [asyncio.create_task(_stream(host, port, load, stop, one_open)) for _ in range(clients)]
    try:
        await asyncio.wait_for(all_open.wait(), 60)
    except asyncio.TimeoutError:
        load.errors.append(f"only {opened} of {clients} streams got their first message within 60 s")
    load.rss_with_clients = rss_mib(pid)
    queue: asyncio.Queue[str] = asyncio.Queue()
    for index in range(requests):
        queue.put_nowait(paths[index % len(paths)])

    async def worker() -> None:
        while True:
            try:
                path = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            await _request(host, port, path, load)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    load.rss_with_clients = max(load.rss_with_clients, rss_mib(pid))
    await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*streams)
    return load


async def _request(host: str, port: int, path: str, load: WebLoad) -> None:
    started = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 10)
        writer.write(f"GET {path} HTTP/1.0\r\nHost: {host}:{port}\r\n\r\n".encode())
        data = await asyncio.wait_for(reader.read(), 30)
        writer.close()
    except (OSError, asyncio.TimeoutError) as exc:
        load.errors.append(f"GET {path}: {exc.__class__.__name__}: {exc}")
        return
    load.latencies.append((time.perf_counter() - started) * 1000)
    load.by_path.setdefault(path, []).append(load.latencies[-1])
    try:
        status = int(data.split(b" ", 2)[1])
    except (IndexError, ValueError):
        load.errors.append(f"GET {path}: not an HTTP answer: {data[:80]!r}")
        return
    load.statuses[status] += 1
    if status != 200:
        body = data.partition(b"\r\n\r\n")[2]
        load.errors.append(f"GET {path}: {status} {body[:200]!r}")


async def _stream(host: str, port: int, load: WebLoad, stop: asyncio.Event, opened: Callable[[], None]) -> None:
    """One dashboard holding ``/api/events`` open: it must get the latest state at once, then every
    message in order (consecutive numbers), until the trial ends."""
    started = time.perf_counter()
    count = 0
    last_seq: int | None = None
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=2**24), 30)
    except (OSError, asyncio.TimeoutError) as exc:
        load.errors.append(f"stream: cannot connect: {exc!r}")
        opened()
        return
    try:
        writer.write(f"GET /api/events HTTP/1.0\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        if b" 200 " not in head.split(b"\r\n", 1)[0] or b"text/event-stream" not in head:
            load.errors.append(f"stream: refused: {head[:200]!r}")
            opened()
            return
        while not stop.is_set():
            read = asyncio.ensure_future(reader.readline())
            halt = asyncio.ensure_future(stop.wait())
            finished, _pending = await asyncio.wait({read, halt}, return_when=asyncio.FIRST_COMPLETED)
            if read not in finished:
                read.cancel()
                break
            halt.cancel()
            line = read.result()
            if not line:
                load.errors.append(f"stream: ended by the server after {count} messages")
                break
            if not line.startswith(b"data: "):
                continue
            seq = json.loads(line[6:])["seq"]
            if seq == last_seq:
                load.duplicates += 1
                continue
            if last_seq is not None and seq != last_seq + 1:
                load.errors.append(f"stream: message {seq} came after {last_seq} (missed or out of order)")
            last_seq = seq
            count += 1
            if count == 1:
                load.first_message.append((time.perf_counter() - started) * 1000)
                opened()
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, KeyError) as exc:
        load.errors.append(f"stream: {exc.__class__.__name__}: {exc}")
        if count == 0:
            opened()
    finally:
        load.messages.append(count)
        writer.close()


# ---- the report ---------------------------------------------------------------------------------


def report(tally: Tally, seconds: float) -> None:
    print()
    for key in sorted(tally.counts):
        print(f"{key}: {tally.counts[key]}")
    print(f"seconds: {seconds:.0f}")
    print(f"chaos_failures: {len(tally.failures)}")


SECTIONS = ("kills", "damage", "mutations", "opening", "serial", "web")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=30, help="kills per game (default 30)")
    parser.add_argument("--mutations", type=int, default=1000, help="mutations of each save and of the config")
    parser.add_argument("--seed", type=int, default=1, help="seeds the moments, the damage and the mutations")
    parser.add_argument("--table-turns", type=int, default=4, help="length of a camera game's demo (default 4 turns)")
    parser.add_argument("--log-games", type=int, default=1000, help="games in the log whose opening is timed")
    parser.add_argument("--fuzz", type=int, default=1_000_000, help="fuzzed serial inputs (default 1,000,000)")
    parser.add_argument("--unplugs", type=int, default=20, help="unplug/replug cycles per wheels game (default 20)")
    parser.add_argument("--sse-clients", type=int, default=200, help="live dashboard streams (default 200)")
    parser.add_argument("--requests", type=int, default=2000, help="dashboard requests (default 2000)")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"the sections to run, comma-separated (default all: {','.join(SECTIONS)})")
    parser.add_argument("--keep", action="store_true",
                        help="keep the working folder and say where it is (it is kept anyway after a failure)")
    args = parser.parse_args(argv)
    sections = [part.strip() for part in args.only.split(",") if part.strip()]
    unknown = [part for part in sections if part not in SECTIONS]
    if unknown:
        parser.error(f"--only: unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    if ("damage" in sections or "mutations" in sections) and "kills" not in sections:
        parser.error("--only: the damage and mutations sections use the logs the kills leave: add kills")
    rng = random.Random(args.seed)
    tally = Tally()
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="bitbox-chaos-"))
    print(f"load average at the start: {', '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)",
          flush=True)
    try:
        logs: dict[str, Path] = {}
        if "kills" in sections:
            logs = kill_trials(work, args.seed, args.kills, rng, tally, table_turns=args.table_turns)
        if "damage" in sections:
            print("2. damaged logs", flush=True)
            from controller.games import game as game_spec

            damaged_logs(work, [(log, ["demo", name, "--no-web", "--speed", "0", "--seed", str(args.seed)]
                                 if game_spec(name).play[0] != "camera" else None) for name, log in logs.items()],
                         rng, tally)
        if "mutations" in sections:
            print(f"3. {args.mutations} mutations of each game's save and of a configuration", flush=True)
            for name, log in logs.items():
                found = latest(log)
                assert found is not None
                mutated_saves(work, found[2], args.mutations, rng, tally, name)
            mutated_configs(work, args.mutations, rng, tally)
        if "opening" in sections:
            print(f"4. opening a log of {args.log_games} games", flush=True)
            opening_cost(work, args.log_games, tally)
        if "serial" in sections:
            print(f"5. serial: {args.fuzz:,} fuzzed inputs through the host's decoder", flush=True)
            serial_fuzz(args.fuzz, args.seed, tally)
            unplug_trials(work, args.unplugs, args.seed, rng, tally)
        if "web" in sections:
            print(f"6. the dashboard: {args.sse_clients} live streams and {args.requests} requests during a game",
                  flush=True)
            try:
                web_trial(work / "web", args.sse_clients, args.requests, args.seed, tally)
            except ChaosError as exc:
                tally.fail(f"web: {exc}")
    finally:
        if args.keep or tally.failures:
            print(f"working folder (kept: the failures' files are there): {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    report(tally, time.monotonic() - started)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
