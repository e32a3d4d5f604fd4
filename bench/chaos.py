"""Chaos: ``kill -9`` at random moments, damaged event logs, mutated saves and configurations.

1. Kills. A real ``bitbox demo`` (Pixoid on simulated controllers) is killed with SIGKILL at random
   moments (during start-up, or after a random number of printed lines) and started again on the
   same event log, until the game ends. After every kill the log is read as the restart reads it
   and compared with an uninterrupted run of the same seed. A kill counts as an *exact resume* when
   the game rebuilt from the log (the engine's checked path, as the service resumes) equals the one
   a fresh replay of its save gives, no stored action was lost or changed, every stored action is
   one of the uninterrupted game's, the restart said it resumed after exactly the stored actions,
   and the chain finished with the same final result as the uninterrupted run.
   ``bitbox demo puxes`` (the table service, fed rendered frames) starts afresh on each run by
   design; after each kill its game is rebuilt through ``TableSession.resume`` (the path ``bitbox
   play puxes`` takes on a restart), compared with a fresh replay and with the uninterrupted run
   (the stored actions must be its first ones, in order), and the last run must end like it.
2. Damaged logs. Every page of the real logs the kills left is overwritten in turn with random
   bytes, and each log is truncated at every 4 KiB; ``bitbox games``, ``bitbox export`` and (on the
   Pixoid log) ``bitbox demo`` run on each copy.
3. Mutations. A real save and a real configuration are each mutated ``--mutations`` ways (bytes
   flipped, cut, repeated; numbers made huge, NaN or infinite; values nested thousands deep;
   oversized) and given to ``bitbox replay --final`` and ``bitbox play pixoid --config`` (reading
   and checking the configuration; the service itself is not started).

4. Opening. What opening a log of ``--log-games`` finished games costs with its check
   (``PRAGMA quick_check``), and the check alone.

A failure is a traceback or an "unexpected error", an exit code other than 0 or 2, a refusal that
does not name the file, a file a command changed although it refused it (or only read it), or a
kill that was not an exact resume.

    python bench/chaos.py [--kills 30] [--mutations 1000] [--seed 1]

The last line is ``chaos_failures: N``; N must be 0.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
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


def latest(db: Path) -> tuple[Any, list[tuple[int, Any]], dict[str, Any]] | None:
    """The log's newest game, its stored actions and its save; None if no game was stored yet."""
    if not db.exists():
        return None
    with GameStore(db) as store:
        games = store.games()
        if not games:
            return None
        stored = games[-1]
        return stored, store.actions(stored.id), store.save_data(stored.id)


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


# ---- 1. kills: Pixoid ---------------------------------------------------------------------------


def pixoid_demo(db: Path, seed: int, short: bool) -> list[str]:
    return ["demo", "--no-web", "--speed", "0", "--seed", str(seed), "--db", str(db), *(["--short"] if short else [])]


def reference_game(args: list[str], db: Path) -> tuple[Any, dict[str, Any], int]:
    """An uninterrupted run: its final game, its save and how many lines it printed."""
    result = run_bitbox(args)
    if result.returncode != 0:
        raise SystemExit(f"the uninterrupted run failed: {result.stderr[-2000:]}")
    found = latest(db)
    assert found is not None
    stored, _actions, save = found
    return load_game(save), save, result.stdout.count("\n")


@dataclass
class Chain:
    """One game killed again and again: what each kill left, to be judged once the game is over."""

    consistent: list[bool] = field(default_factory=list)   # per kill that left a game to resume
    stored: list[int] = field(default_factory=list)        # actions in the log after each such kill
    resumed_at: dict[int, int] = field(default_factory=dict)  # what the next run said it resumed after
    pending: list[int] = field(default_factory=list)       # kills whose restart has not said yet

    def heard(self, output: Path) -> None:
        """What a run said about resuming, for the kills before it: a run killed before it said
        anything changed nothing, so the next one speaks for the same kills."""
        text = _text(output)
        marker = "Resuming game #"
        if marker in text:
            after = int(text.split(marker, 1)[1].split(" after ", 1)[1].split()[0])
        elif "Event log:" in text:
            after = 0   # started a new game instead of resuming
        else:
            return
        for index in self.pending:
            self.resumed_at[index] = after
        self.pending.clear()


def pixoid_kills(work: Path, seed: int, kills: int, rng: random.Random, tally: Tally, short: bool = False,
                 timed: float = 0.2) -> None:
    """Kill the Pixoid demo ``kills`` times at random moments, restarting it on the same log; a game
    that ends before all the kills are made is followed by another (the next seed). A share
    ``timed`` of the moments are times after the start (most fall in the start-up), the others a
    number of printed lines (spread over the game)."""
    done = 0
    while done < kills:
        done += pixoid_chain(work / f"pixoid-{seed}", seed, kills - done, rng, tally, short, timed)
        seed += 1


def pixoid_chain(work: Path, seed: int, kills: int, rng: random.Random, tally: Tally, short: bool,
                 timed: float) -> int:
    """One game killed up to ``kills`` times, then played to its end and judged; the kills made."""
    work.mkdir(parents=True, exist_ok=True)
    ref_game, ref_save, ref_lines = reference_game(pixoid_demo(work / "reference.db", seed, short), work / "reference.db")
    db = work / "pixoid.db"
    chain = Chain()
    kept: list[str] | None = []
    done = 0
    while done < kills and kept is not None:
        moment = (Moment(seconds=rng.uniform(0.05, 1.5)) if rng.random() < timed
                  else Moment(lines=rng.randint(1, max(2, 3 * ref_lines // (2 * kills)))))
        log = work / f"run-{done + 1}.txt"
        killed = run_and_kill(pixoid_demo(db, seed, short), log, moment)
        chain.heard(log)
        if not killed:
            tally.counts["pixoid runs that ended before their kill"] += 1
            break
        done += 1
        tally.counts["pixoid kills"] += 1
        kept = _judge_pixoid_kill(db, ref_save, kept, chain, tally, f"pixoid seed {seed} kill {done} at {moment}")
    found = latest(db)
    if found is None or found[0].status != "over":
        final = work / "final.txt"
        result = run_bitbox(pixoid_demo(db, seed, short))
        final.write_text(result.stdout + result.stderr)
        chain.heard(final)
        if result.returncode != 0:
            tally.fail(f"pixoid: the last run failed: {result.stderr[-500:]}")
    _judge_pixoid_chain(db, ref_game, ref_save, chain, tally)
    return done


def _judge_pixoid_kill(db: Path, ref_save: dict[str, Any], kept: list[str] | None, chain: Chain, tally: Tally,
                       where: str) -> list[str] | None:
    """Read the log as a restart would; the stored actions, or None once the game is over."""
    try:
        found = latest(db)
    except StoreError as exc:
        tally.fail(f"{where}: the log cannot be read after the kill: {exc}")
        return kept
    if found is None:
        tally.counts["pixoid kills before the game was stored"] += 1
        return kept
    stored, actions, save = found
    if stored.status == "over":
        tally.counts["pixoid kills after the last turn"] += 1
        return None
    now = _canon(save["actions"])
    ok = True
    try:
        ok &= rebuilt_from_log(stored, actions).state_dict() == load_game(save).state_dict()
    except Exception as exc:  # noqa: BLE001 - any failure to rebuild is what is counted
        tally.fail(f"{where}: the log does not rebuild: {exc!r}")
        ok = False
    ok &= not (Counter(kept) - Counter(now))                           # nothing stored was lost
    ok &= not (Counter(now) - Counter(_canon(ref_save["actions"])))    # nothing foreign was stored
    chain.pending.append(len(chain.stored))
    chain.consistent.append(ok)
    chain.stored.append(len(now))
    return now


def _judge_pixoid_chain(db: Path, ref_game: Any, ref_save: dict[str, Any], chain: Chain, tally: Tally) -> None:
    """Count the exact resumes once the chain's game is over."""
    found = latest(db)
    same_end = False
    if found is not None and found[0].status == "over":
        final = load_game(found[2])
        same_end = (final.state_dict() == ref_game.state_dict()
                    and Counter(_canon(found[2]["actions"])) == Counter(_canon(ref_save["actions"])))
    if not same_end:
        tally.fail("pixoid: the interrupted game did not end like the uninterrupted one")
    with GameStore(db) as store:
        if len(store.games()) != 1:
            tally.fail(f"pixoid: the log holds {len(store.games())} games; the restarts should all resume one")
    for index, ok in enumerate(chain.consistent):
        resumed = chain.resumed_at.get(index)
        exact = ok and same_end and resumed == chain.stored[index]
        tally.counts["pixoid exact resumes" if exact else "pixoid inexact resumes"] += 1
        if not exact:
            tally.fail(f"pixoid: kill #{index + 1}: log consistent {ok}, {chain.stored[index]} stored, "
                       f"the restart resumed after {resumed}")


# ---- 1. kills: PuXes ----------------------------------------------------------------------------


def puxes_demo(db: Path, seed: int, turns: int) -> list[str]:
    return ["demo", "puxes", "--no-web", "--speed", "0", "--seed", str(seed), "--turns", str(turns), "--db", str(db)]


def puxes_kills(work: Path, seed: int, turns: int, kills: int, rng: random.Random, tally: Tally) -> None:
    """Kill the PuXes demo ``kills`` times at random moments; judge each log against the reference."""
    ref_db = work / "puxes-reference.db"
    ref_game, ref_save, ref_lines = reference_game(puxes_demo(ref_db, seed, turns), ref_db)
    reference = _canon(ref_save["actions"])
    db = work / "puxes.db"
    consistent = []
    for number in range(1, kills + 1):
        moment = (Moment(seconds=rng.uniform(0.5, 5.0)) if rng.random() < 0.15
                  else Moment(lines=rng.randint(2, max(3, ref_lines))))
        log = work / f"puxes-run-{number}.txt"
        games_before = _game_count(db)
        if not run_and_kill(puxes_demo(db, seed, turns), log, moment):
            tally.counts["puxes runs that ended before their kill"] += 1
            continue
        tally.counts["puxes kills"] += 1
        if _game_count(db) == games_before:   # killed while the simulated table was being set up
            tally.counts["puxes kills before the game was stored"] += 1
            continue
        consistent.append(_judge_puxes_kill(db, reference, tally, f"puxes kill {number} at {moment}"))
    result = run_bitbox(puxes_demo(db, seed, turns))
    found = latest(db)
    same_end = (result.returncode == 0 and found is not None
                and load_game(found[2]).state_dict() == ref_game.state_dict())
    if not same_end:
        tally.fail(f"puxes: the last run did not end like the uninterrupted one: {result.stderr[-500:]}")
    for ok in consistent:
        if ok is None:
            continue
        tally.counts["puxes exact resumes" if ok and same_end else "puxes inexact resumes"] += 1


def _judge_puxes_kill(db: Path, reference: list[str], tally: Tally, where: str) -> bool | None:
    """The killed game rebuilt through ``TableSession.resume`` equals a fresh replay and is the
    uninterrupted game's beginning; None if the kill came before the game was stored."""
    try:
        found = latest(db)
    except StoreError as exc:
        tally.fail(f"{where}: the log cannot be read after the kill: {exc}")
        return False
    if found is None or found[0].status != "playing":
        tally.counts["puxes kills after the game ended"] += 1
        return None
    stored, actions, save = found
    try:
        resumed = _table_resume(db, stored)
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


def _table_resume(db: Path, stored: Any) -> dict[str, Any]:
    """The state ``bitbox play puxes`` rebuilds from the log on a restart."""
    from controller.service.config import PlayerConfig
    from controller.service.table import TableSession, TableSetup
    from controller.vision.mat import load_layout

    copy = db.with_name("resume-" + db.name)
    _copy_log(db, copy)
    with GameStore(copy) as store:
        names = [PlayerConfig(p["name"]) for p in stored.setup.get("players", [])]
        session = TableSession(TableSetup(names, stored.options, stored.seed, game=stored.game), store,
                               load_layout(stored.game), watcher=None)
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


def bitbox_here(args: list[str]) -> tuple[int, str]:
    """``bitbox ARGS`` in this process: its exit code and stderr. An exception that escapes
    ``main`` is reported as a traceback would be."""
    import traceback

    from controller.cli import main

    with _quiet() as err:
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:  # noqa: BLE001 - this is what is being counted
            err.write(traceback.format_exc())
            code = -1
    return code, err.getvalue()


def judge(tally: Tally, what: str, code: int, err: str, target: Path, before: str, may_change: bool) -> None:
    """One command on one damaged or mutated file: a clean result, and the file as it was."""
    kind = "refused" if code == 2 else "accepted" if code == 0 else "other"
    tally.counts[f"{what}: {kind}"] += 1
    if "Traceback" in err or "unexpected error" in err or code not in (0, 2):
        tally.counts["tracebacks"] += 1
        tally.fail(f"{what} on {target.name}: exit {code}: {err.strip()[-600:]}")
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


def mutated_saves(work: Path, save: dict[str, Any], count: int, rng: random.Random, tally: Tally) -> None:
    """``bitbox replay --final`` on ``count`` mutations of a real save."""
    base = json.dumps(save, sort_keys=True, indent=1).encode()
    target = work / "mutated-save.json"
    for _ in range(count):
        kind, content = mutate(base, rng)
        target.write_bytes(content)
        before = fingerprint(target)
        tally.counts[f"save mutation: {kind}"] += 1
        code, err = bitbox_here(["replay", "--final", str(target)])
        judge(tally, "mutated save", code, err, target, before, False)


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


# ---- the report ---------------------------------------------------------------------------------


def report(tally: Tally, seconds: float) -> None:
    print()
    for key in sorted(tally.counts):
        print(f"{key}: {tally.counts[key]}")
    print(f"seconds: {seconds:.0f}")
    print(f"chaos_failures: {len(tally.failures)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=30, help="kills per game (default 30)")
    parser.add_argument("--mutations", type=int, default=1000, help="mutations of the save and of the config")
    parser.add_argument("--seed", type=int, default=1, help="seeds the moments, the damage and the mutations")
    parser.add_argument("--puxes-turns", type=int, default=4, help="length of the PuXes games (default 4 turns)")
    parser.add_argument("--log-games", type=int, default=1000, help="games in the log whose opening is timed")
    parser.add_argument("--keep", action="store_true", help="keep the working folder and say where it is")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    tally = Tally()
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="bitbox-chaos-"))
    try:
        print(f"1. kill -9: Pixoid, {args.kills} kills", flush=True)
        pixoid_kills(work, args.seed, args.kills, rng, tally)
        print(f"1. kill -9: PuXes, {args.kills} kills", flush=True)
        puxes_kills(work, args.seed, args.puxes_turns, args.kills, rng, tally)
        print("2. damaged logs", flush=True)
        pixoid_log = work / f"pixoid-{args.seed}" / "pixoid.db"
        damaged_logs(work, [(pixoid_log, ["demo", "--no-web", "--speed", "0", "--seed", str(args.seed)]),
                            (work / "puxes.db", None)], rng, tally)
        print(f"3. {args.mutations} mutated saves and {args.mutations} mutated configurations", flush=True)
        save = latest(pixoid_log)
        assert save is not None
        mutated_saves(work, save[2], args.mutations, rng, tally)
        mutated_configs(work, args.mutations, rng, tally)
        print(f"4. opening a log of {args.log_games} games", flush=True)
        opening_cost(work, args.log_games, tally)
    finally:
        if args.keep:
            print(f"working folder: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    report(tally, time.monotonic() - started)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
