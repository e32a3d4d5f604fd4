"""A full table served for a long while: CPU share, memory growth and missed locks.

    python bench/soak.py [--minutes 30] [--fps 10] [--seed 1]

One service process serves, the whole time:

* six controller boards: the real firmware logic of six simulated boards, each in a process of its
  own behind a pseudo-terminal (as ``bench/dials.py --boards 6`` runs them), read by the real
  SerialBackend. Six players play the console's loop (the real Session, its SQLite event log and
  hub) games of secret numbers (40 rounds each, then a new game): each round every board's number
  wheel is turned, then all six ready buttons are pressed at the same moment; a round whose reveal is not
  published within 5 seconds of the presses is a missed lock (and is played again);
* the table camera: frames rendered from a PuXes table (dice moved by a hand now and then, then
  still) are fed to the real TableWatcher at ``--fps`` frames a second, which checks each one for
  stillness and analyses the table whenever it has settled (the frames are rendered once, before
  the measure: rendering is the simulation's work, not the service's);
* the dashboard: the real web server, with six clients reading its event stream (``/api/events``)
  over SSE, as six browsers' EventSource do, each checking that every message parses.

Printed: the service process's CPU time over the soak as a share of one core (the boards' processes
are the simulated hardware, not counted); its resident set size after the first tenth of the soak
(warmed up) and at the end, and the growth between them (and, as it goes, at every tenth); rounds
played, locks missed, how often a board went silent (the host takes it for unplugged and pauses the
game: on a machine too busy to run the simulated boards on time, a cause of missed locks that is the
simulation's), snapshots taken, and the event-stream messages each client received. The last line is
``soak_rss_growth_mib: X``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import http.client
import json
import os
import random
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

BOARDS = 6
CLIENTS = 6
#: Rounds of a game; then a new game starts, as at a table.
ROUNDS_A_GAME = 40
LOCK_TIMEOUT_S = 5.0
TOKEN = "soak-token-0000"


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return 0.0


def cpu_s() -> float:
    """CPU seconds (user and system) this process has used, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Camera:
    """The table camera: rendered frames of a PuXes table fed to a TableWatcher at ``fps``.

    Two tables alternate (the second with two dice moved), each shown as a hand moving the dice
    (three frames) and then still (the stillness detector settles after a dozen frames), so that a
    snapshot is analysed every few seconds."""

    def __init__(self, fps: float, seed: int) -> None:
        from controller.vision.mat import load_layout
        from controller.vision.pipeline import FrameAnalyser, TableWatcher
        from controller.vision.profile import calibrate_mat
        from controller.vision.render import Hand, Lighting, Scene, fitting_camera, random_scene, render, render_empty

        layout = load_layout("puxes")
        spec = fitting_camera(layout, fill=0.85)
        light = Lighting(noise_sigma=1.2)
        profile = calibrate_mat(render_empty(Scene(layout, camera=spec, lighting=light)), layout)
        self.watcher = TableWatcher(FrameAnalyser(layout, profile))
        tables = [random_scene(layout, 10, seed=seed, temples=True, camera=spec, lighting=light)]
        dice = list(tables[0].dice)
        for i in (-1, -2):
            dice[i] = dataclasses.replace(dice[i], x_mm=dice[i].x_mm + 40, angle_deg=dice[i].angle_deg + 30)
        tables.append(dataclasses.replace(tables[0], dice=tuple(dice), seed=seed + 1))
        self.sequence: list[Any] = []
        for table in tables:
            moving = [render(dataclasses.replace(table, hands=(Hand(dice[-1].x_mm + 20.0 * k, dice[-1].y_mm),),
                                                 seed=table.seed + 10 + k)).image for k in range(3)]
            still = render(table).image
            self.sequence += moving + [still] * 20
        self.fps = fps
        self.frames = 0
        self.snapshots = 0
        self.errors: list[str] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        period = 1.0 / self.fps
        next_at = time.monotonic()
        while not self.stopping.is_set():
            frame = self.sequence[self.frames % len(self.sequence)]
            try:
                if self.watcher.feed(frame, time.monotonic()) is not None:
                    self.snapshots += 1
            except Exception as exc:  # noqa: BLE001 - counted and reported, the soak goes on
                self.errors.append(repr(exc))
            self.frames += 1
            next_at += period
            self.stopping.wait(max(0.0, next_at - time.monotonic()))


class StreamClient:
    """A dashboard's event stream read as a browser's EventSource reads it, every message parsed."""

    def __init__(self, url: str) -> None:
        host, port = url.split("//")[1].rstrip("/").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=30)
        self.conn.request("GET", "/api/events")
        self.response = self.conn.getresponse()
        self.messages = 0
        self.bad = 0
        self.ended = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(OSError, ValueError, AttributeError):     # the stream closed under it
            for line in self.response:
                if line.startswith(b"data: "):
                    try:
                        json.loads(line[6:])
                        self.messages += 1
                    except ValueError:
                        self.bad += 1
        self.ended = True

    def close(self) -> None:
        """End the stream: the socket shut, the reader's end awaited, then the connection closed."""
        if self.conn.sock is not None:
            with contextlib.suppress(OSError):
                self.conn.sock.shutdown(2)
        self.thread.join(5)
        self.conn.close()


def soak(minutes: float, fps: float, seed: int) -> dict[str, Any]:
    from dials import BoardProcess, register_lock_game, wait_connected
    from service import serve

    from controller.dials.serial_backend import SerialBackend
    from controller.games import unregister
    from controller.service.config import PlayerConfig, ServiceConfig

    rng = random.Random(seed)
    name = register_lock_game()
    reveals = [0]
    out: dict[str, Any] = {"rounds": 0, "missed": 0, "games": 1}

    class Owner:
        pass

    owner: Any = Owner()
    with contextlib.ExitStack() as stack:
        stack.callback(unregister, name)
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bitbox-soak-")))
        boards = stack.enter_context(BoardProcess(BOARDS, seed))
        backend = stack.enter_context(SerialBackend(boards.ports, rescan_interval=0.05))
        wait_connected(backend, boards.ids, number=0)
        config = ServiceConfig(game=name, options={"seats": BOARDS, "rounds": ROUNDS_A_GAME}, seed=seed,
                               players=[PlayerConfig(f"P{i + 1}") for i in range(BOARDS)], backend="serial",
                               pieces=list(boards.ids), db=folder / "soak.db", bot_delay=0.0, turn_pause=0.0)

        def listen(message: dict[str, Any]) -> None:
            reveals[0] += sum(event["kind"] == "revealed" for event in message.get("events", []))

        serve(owner, config, backend, TOKEN, before_start=lambda: owner.hub.add_listener(listen))
        stack.callback(owner.store.close)
        stack.callback(owner.server.stop)
        stack.callback(lambda: (owner.session.stop(), owner.thread.join(5)))
        camera = Camera(fps, seed)
        camera_thread = threading.Thread(target=camera.run, daemon=True)
        camera_thread.start()
        stack.callback(lambda: (camera.stopping.set(), camera_thread.join(5)))
        clients = [StreamClient(owner.server.url) for _ in range(CLIENTS)]
        for client in clients:
            stack.callback(client.close)

        start = time.monotonic()
        end = start + minutes * 60
        warm_at = start + minutes * 6          # a tenth of the soak
        warm: tuple[float, float, float] | None = None
        numbers = [0] * BOARDS
        round_ = 0
        report_every = minutes * 6                # RSS and progress every tenth of the soak
        report_at = start + report_every
        while time.monotonic() < end:
            if warm is None and time.monotonic() >= warm_at:
                warm = (time.monotonic(), cpu_s(), rss_mib())
            if owner.session.game.is_over():
                owner.session.command("start", {"replace": True}).result(10)
                out["games"] += 1
            round_ += 1
            picks = [rng.randrange(10) for _ in range(BOARDS)]
            boards.turn([(i, "number", n) for i, n in enumerate(picks) if n != numbers[i]])
            numbers = picks
            settle = time.monotonic() + LOCK_TIMEOUT_S
            while not all(backend.state(cid).number == n and not backend.state(cid).button
                          for cid, n in zip(boards.ids, picks)):
                if time.monotonic() > settle:
                    raise SystemExit(f"soak: round {round_}: the wheels never settled")
                time.sleep(0.005)
            played = reveals[0]
            boards.press(list(range(BOARDS)), True)
            deadline = time.monotonic() + LOCK_TIMEOUT_S
            while reveals[0] == played and time.monotonic() < deadline:
                time.sleep(0.005)
            if reveals[0] == played:
                out["missed"] += 1
                print(f"soak: round {round_}: no reveal {LOCK_TIMEOUT_S:.0f} s after the six presses "
                      f"({owner.session.notice or owner.session.log[-1:]})", file=sys.stderr)
            boards.press(list(range(BOARDS)), False)
            out["rounds"] += 1
            if time.monotonic() >= report_at:
                report_at += report_every
                print(f"  {(time.monotonic() - start) / 60:.1f} min: {out['rounds']} rounds, {out['missed']} missed, "
                      f"{camera.snapshots} snapshots, RSS {rss_mib():.1f} MiB", flush=True)
            time.sleep(rng.uniform(0.2, 0.6))         # players think before the next round
        stop = (time.monotonic(), cpu_s(), rss_mib())
        if warm is None:
            warm = stop
        out.update(
            seconds=stop[0] - start, cpu_share=(stop[1] - warm[1]) / max(1e-9, stop[0] - warm[0]),
            rss_warm=warm[2], rss_end=stop[2], frames=camera.frames, snapshots=camera.snapshots,
            camera_errors=camera.errors, messages=[c.messages for c in clients], bad=sum(c.bad for c in clients),
            ended=sum(c.ended for c in clients),
            silent=sum(backend.counters(cid).get("silent", 0) for cid in boards.ids),
            heartbeat_s=backend.heartbeat_timeout)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30.0, help="how long the table is served (default 30)")
    parser.add_argument("--fps", type=float, default=10.0, help="camera frames a second (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"soak: {args.minutes:g} minutes, {BOARDS} boards, the camera at {args.fps:g} frames a second, "
          f"{CLIENTS} event-stream clients; load average {', '.join(f'{v:.2f}' for v in os.getloadavg())} "
          f"on {os.cpu_count()} cores", flush=True)
    r = soak(args.minutes, args.fps, args.seed)
    print(f"served {r['seconds'] / 60:.1f} minutes: {r['games']} games, {r['rounds']} rounds of six locks, "
          f"{r['missed']} missed; {r['frames']} camera frames, {r['snapshots']} still snapshots analysed, {len(r['camera_errors'])} "
          f"camera errors {r['camera_errors'][:1]}")
    print(f"boards reported silent (no heartbeat for {r['heartbeat_s']:g} s: the game pauses as for an unplugged "
          f"board, and a lock pressed meanwhile is refused): {r['silent']}")
    print(f"event-stream clients: messages received {r['messages']}, {r['bad']} unparseable, "
          f"{r['ended']} streams ended before the soak did")
    print(f"service process CPU, from the first tenth on: {100 * r['cpu_share']:.1f} % of one core "
          f"({100 * r['cpu_share'] / (os.cpu_count() or 1):.1f} % of the machine's {os.cpu_count()} cores)")
    print(f"RSS after the first tenth {r['rss_warm']:.1f} MiB, at the end {r['rss_end']:.1f} MiB; load average "
          f"{', '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"soak_cpu_share_percent: {100 * r['cpu_share']:.1f}")
    print(f"soak_missed_locks: {r['missed']}")
    print(f"soak_rss_growth_mib: {r['rss_end'] - r['rss_warm']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
