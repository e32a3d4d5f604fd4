"""Memory figures: the demos' and ``bitbox vision evaluate``'s peak resident memory, the threads the
latter works on with ``--jobs 1``, and how the live service's memory grows over thousands of turns.

    python bench/memory.py [--turns 6000] [--skip-demos] [--skip-service] [--data DIR]

1. Peak resident set size (the kernel's high-water mark for the child process, ``ru_maxrss``) of
   ``bitbox demo --speed 0 --turns 30`` (Pixoid on the wheels), ``bitbox demo puxes --speed 0`` (a whole
   PuXes game through the table service: rendered camera frames, the camera pipeline, the referee,
   the event log and the dashboard's server) and ``bitbox vision evaluate <nell-byler> --jobs 1``, each
   in a fresh state folder.
2. While ``bitbox vision evaluate --jobs 1`` runs, the CPU time of each of its threads (from
   ``/proc/<pid>/task``): how many of them did any work.
3. The live service in this process: bots play Pixoid through the real loop, event log and web server
   with an SSE client attached, and the resident set size is read every tenth of ``--turns``. Its growth
   per 1,000 turns is given from the first tenth on, and from the half on; then again with SQLite's
   default page cache (2 MiB per connection, ``PRAGMA cache_size``) instead of the event log's own
   (``controller.service.store.PAGE_CACHE_KIB``), which tells what the growth would be made of: the
   page cache fills as the log grows.

The real photo set is looked for in ``--data``, ``$BITBOX_SHARED_DATA`` or ``../shared/data`` and skipped,
with a message, where absent. The last line is ``demo_puxes_peak_mib: X``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

MIB = 1024.0


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _thread_ticks(pid: int) -> dict[int, int]:
    """CPU clock ticks (user + system) each thread of ``pid`` has used so far."""
    ticks = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        ticks[int(task.name)] = int(fields[11]) + int(fields[12])
    return ticks


def peak(command: list[str], watch_threads: bool = False, timeout: float = 1800.0) -> dict[str, Any]:
    """Run ``bitbox`` with ``command`` in a fresh state folder; its peak RSS (MiB), seconds, exit code,
    and with ``watch_threads`` the CPU ticks of each of its threads."""
    env = dict(os.environ, BITBOX_STATE_DIR=tempfile.mkdtemp(prefix="bitbox-bench-mem-"))
    start = time.monotonic()
    errors = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "controller", *command], env=env, cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
    ticks: dict[int, int] = {}
    deadline = start + timeout
    # Reaped here, not by Popen, for the child's resource usage (its peak RSS).
    pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
    while not pid and time.monotonic() < deadline:
        if watch_threads:
            with contextlib.suppress(OSError):
                ticks.update(_thread_ticks(proc.pid))
        time.sleep(0.2)
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
    if not pid:
        proc.kill()
        errors.write(f"bench: still running after {timeout:.0f} s, stopped".encode())
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    errors.seek(0)
    error = errors.read().decode(errors="replace").strip()
    errors.close()
    return {"peak_mib": usage.ru_maxrss / MIB, "seconds": time.monotonic() - start, "code": proc.returncode,
            "error": error.splitlines()[-1] if error and (proc.returncode or "bench:" in error) else "", "ticks": ticks}


def service_growth(turns: int, sqlite_cache_kib: int | None = None) -> list[tuple[int, int]]:
    """(turns, RSS KiB) every tenth of ``turns`` while bots play Pixoid through the live service;
    ``sqlite_cache_kib``: the event log's page cache made that size instead of its own."""
    from service import Table

    import controller.service.store as store

    connect = store.GameStore._connect
    if sqlite_cache_kib is not None:
        def limited(self: Any) -> Any:
            conn = connect(self)
            conn.execute(f"PRAGMA cache_size=-{int(sqlite_cache_kib)}")
            return conn

        store.GameStore._connect = limited  # type: ignore[method-assign]
    folder = Path(tempfile.mkdtemp(prefix="bitbox-bench-mem-"))
    table = Table(folder, bots=True)
    sock = None
    try:
        host, port = table.server.url.split("//")[1].rstrip("/").split(":")
        sock = socket.create_connection((host, int(port)))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: bench\r\n\r\n")

        def drain() -> None:
            try:
                while sock.recv(65536):
                    pass
            except OSError:
                pass

        threading.Thread(target=drain, daemon=True).start()
        marks: list[tuple[int, int]] = []
        for mark in [turns * k // 10 for k in range(1, 11)]:
            while table.total_turns < mark:
                if table.session.game.is_over():
                    table.session.command("start", {"replace": True}).result(10)
                time.sleep(0.02)
            gc.collect()
            marks.append((table.total_turns, rss_kib()))
        return marks
    finally:
        if sock is not None:
            sock.close()
        table.close()
        store.GameStore._connect = connect  # type: ignore[method-assign]


def per_1000(marks: list[tuple[int, int]], since: int) -> float:
    """RSS growth (MiB) per 1,000 turns from the mark at or after ``since`` turns to the last."""
    first = next(m for m in marks if m[0] >= since)
    last = marks[-1]
    return (last[1] - first[1]) / MIB / max(1, last[0] - first[0]) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=6000, help="turns the service plays (default 6000)")
    parser.add_argument("--skip-demos", action="store_true", help="the service's growth alone")
    parser.add_argument("--skip-service", action="store_true", help="the demos and evaluate alone")
    parser.add_argument("--data", type=Path, default=None, help="the real photo sets (shared/data)")
    args = parser.parse_args()

    figures: dict[str, float] = {}
    if not args.skip_service:
        for cache, name in ((None, "the event log's page cache"), (2000, "SQLite's default page cache, 2 MiB")):
            marks = service_growth(args.turns, cache)
            early, late = per_1000(marks, args.turns // 10), per_1000(marks, args.turns // 2)
            print(f"service, {args.turns} turns of Pixoid by bots, {name}: RSS "
                  + ", ".join(f"{m / MIB:.1f}" for _, m in marks) + " MiB at each tenth")
            print(f"  growth per 1,000 turns: {early:.3f} MiB from turn {marks[0][0]}, {late:.3f} MiB from turn "
                  f"{next(t for t, _ in marks if t >= args.turns // 2)}")
            figures["service_growth" if cache is None else "service_growth_sqlite_default_cache"] = early
            figures["service_growth_late" if cache is None else "service_growth_sqlite_default_cache_late"] = late
    if not args.skip_demos:
        pixoid = peak(["demo", "--speed", "0", "--turns", "30", "--no-web"])
        print(f"bitbox demo --speed 0 --turns 30 --no-web: peak {pixoid['peak_mib']:.1f} MiB "
              f"({pixoid['seconds']:.0f} s, exit {pixoid['code']}) {pixoid['error']}")
        data = args.data or Path(os.environ.get("BITBOX_SHARED_DATA") or ROOT.parent / "shared" / "data")
        photos = data / "dice-photos" / "nell-byler-train"
        if photos.is_dir():
            ev = peak(["vision", "evaluate", str(photos), "--jobs", "1"], watch_threads=True)
            total = sum(ev["ticks"].values()) or 1
            busy = [t for t, n in ev["ticks"].items() if n > 0.02 * total]
            print(f"bitbox vision evaluate {photos.relative_to(data.parent)} --jobs 1: peak {ev['peak_mib']:.1f} MiB "
                  f"({ev['seconds']:.0f} s, exit {ev['code']}); {len(ev['ticks'])} threads, {len(busy)} of them "
                  f"used more than 2 % of its CPU time ({100 * max(ev['ticks'].values(), default=0) / total:.0f} % "
                  f"on one) {ev['error']}")
            figures["evaluate_peak"] = ev["peak_mib"]
            figures["evaluate_busy_threads"] = len(busy)
        else:
            print(f"bitbox vision evaluate: no real photos at {photos} (see shared/data/README.md), skipped")
        puxes = peak(["demo", "puxes", "--speed", "0", "--port", "0"])
        print(f"bitbox demo puxes --speed 0 --port 0 (a whole game, the dashboard's server up): peak "
              f"{puxes['peak_mib']:.1f} MiB ({puxes['seconds']:.0f} s, exit {puxes['code']}) {puxes['error']}")
        figures["demo_pixoid_peak"] = pixoid["peak_mib"]
        figures["demo_puxes_peak"] = puxes["peak_mib"]
    for name in ("service_growth", "service_growth_late", "service_growth_sqlite_default_cache",
                 "service_growth_sqlite_default_cache_late"):
        if name in figures:
            print(f"{name}_mib_per_1000_turns: {figures[name]:.3f}")
    if "evaluate_peak" in figures:
        print(f"evaluate_jobs_1_busy_threads: {figures['evaluate_busy_threads']:.0f}")
        print(f"evaluate_peak_mib: {figures['evaluate_peak']:.1f}")
    if "demo_puxes_peak" in figures:
        print(f"demo_pixoid_peak_mib: {figures['demo_pixoid_peak']:.1f}")
        print(f"demo_puxes_peak_mib: {figures['demo_puxes_peak']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
