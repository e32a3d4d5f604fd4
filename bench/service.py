"""Figures for the live console service.

1. Lock to screen: the last controller's ready press is read (simulated controllers through the real
   ladder and debounce code), the loop stores and resolves the turn, the server sends it, and a real
   headless Chromium shows the revealed programs. Measured from the controller reading of the press
   (its timestamp) to the browser's next animation frame after the DOM shows the turn. Falls back
   to an SSE client on a socket when Chromium or Playwright is missing (and says so).
2. Memory: the service's resident set size after 10 and after 1,000 resolved turns (bots, real
   store, real server with a live SSE client): it should not grow beyond the event log.

    python bench/service.py [--turns 60] [--memory-turns 1000]

The last line is ``lock_to_screen_p99_ms: X``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.dials.factory import open_backend  # noqa: E402
from controller.dials.state import DIRECTIONS, EventKind  # noqa: E402
from controller.service.config import PlayerConfig, ServiceConfig  # noqa: E402
from controller.service.hub import Hub  # noqa: E402
from controller.service.session import Session  # noqa: E402
from controller.service.store import GameStore  # noqa: E402
from controller.service.web import WebServer, create_app  # noqa: E402

CONTROLLERS = ["red", "blue", "green", "yellow"]
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
TOKEN = "bench-token-0000"


def wait_for(predicate: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.002)
    raise TimeoutError("bench: a condition was not met in time")


def serve(owner: Any, config: ServiceConfig, backend: Any, token: str, before_start: Any = None) -> None:
    """Start the real event log, hub, game loop (in a thread) and web server for ``config`` on
    ``owner`` (as its ``store``, ``hub``, ``session``, ``thread``, ``server``); ``before_start`` runs
    once the session exists, before its game starts."""
    owner.store = GameStore(config.db_path())
    owner.hub = Hub()
    owner.session = Session(config, backend, owner.store, owner.hub)
    if before_start is not None:
        before_start()
    owner.session.start_new()
    owner.session.publish()
    owner.thread = threading.Thread(target=owner.session.run, kwargs={"until_over": False}, daemon=True)
    owner.thread.start()
    owner.server = WebServer(create_app(owner.session, owner.hub, token), "127.0.0.1", 0)
    owner.server.start()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Table:
    """The real loop, store and server, with simulated controllers the bench turns and presses."""

    def __init__(self, folder: Path, bots: bool = False) -> None:
        players = [PlayerConfig(f"P{i}", bot=bots) for i in range(4)]
        self.config = ServiceConfig(options={"players": 4}, seed=1, players=players,
                                    pieces=[] if bots else list(CONTROLLERS), bot_delay=0.0, turn_pause=0.0,
                                    db=folder / "bench.db")
        self.backend: Any = None
        if not bots:
            self.backend = open_backend("sim", controllers=list(CONTROLLERS))
            self.backend.start()
            wait_for(lambda: all(s.connected for s in self.backend.states().values()))
        self.press_times: list[float] = []  # wall-clock times at which presses were read
        self.total_turns = 0
        serve(self, self.config, self.backend, TOKEN, before_start=self._spy)

    def _spy(self) -> None:
        """Note when each press is read, and count the resolved turns."""
        offset = time.time() - time.monotonic()
        original = self.session._on_controller_event

        def spy(event: Any) -> None:
            if event.kind is EventKind.PRESSED:
                self.press_times.append(event.state.timestamp + offset)
            original(event)

        self.session._on_controller_event = spy  # type: ignore[method-assign]
        self.session.turn_listeners.append(self._count)

    def _count(self, session: Session) -> None:
        self.total_turns += 1

    def state(self) -> dict[str, Any]:
        return self.hub.latest["state"]

    def settle(self, wanted: dict[str, dict[str, int]]) -> None:
        for cid, wheels in wanted.items():
            for wheel, pos in wheels.items():
                if self.backend.wheel_target(cid, wheel) != pos:
                    self.backend.turn(cid, wheel, pos)
        wait_for(lambda: all(self.backend.state(c).wheel(w) == p for c, ws in wanted.items() for w, p in ws.items()))
        wait_for(lambda: not any(self.backend.state(c).button for c in wanted))

    def tap(self, cid: str) -> None:
        self.backend.press(cid)
        self.backend.release(cid, after=0.08)

    def place_all(self) -> None:
        while self.state().get("placement"):
            placement = self.state()["placement"]
            cid = CONTROLLERS[placement["piece"]]
            self.settle({cid: {"number": 0}})
            self.tap(cid)
            try:
                wait_for(lambda: self.state().get("placement") != placement, timeout=2.0)
            except TimeoutError:
                message = next(c["message"] for c in self.state()["controllers"] if c["id"] == cid)
                print(f"bench: the placement press on {cid} did not land ({message or 'no refusal'}); "
                      "pressing again", file=sys.stderr)
            wait_for(lambda: not self.backend.state(cid).button)

    def programs(self) -> dict[str, dict[str, int]]:
        game = self.session.game.clone()
        out = {}
        for piece, cid in enumerate(CONTROLLERS):
            d = next(d for d in range(4) if game.board.opens[game.pos[piece]][d])
            out[cid] = {"direction": DIRECTIONS.index(("up", "right", "down", "left")[d]), "number": 1}
        return out

    def close(self) -> None:
        self.session.stop()
        self.thread.join(5)
        self.server.stop()
        if self.backend is not None:
            self.backend.close()
        self.store.close()


def lock_to_screen(turns: int) -> tuple[list[float], str]:
    """Milliseconds from the last press being read to the resolved turn on screen, per turn."""
    folder = Path(tempfile.mkdtemp(prefix="bitbox-bench-"))
    table = Table(folder)
    browser_ctx = None
    try:
        try:
            if not Path(CHROMIUM).exists():
                raise RuntimeError(f"{CHROMIUM} not found")
            from playwright.sync_api import sync_playwright

            browser_ctx = sync_playwright().start()
            browser = browser_ctx.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page(bypass_csp=True)  # the bench's own probes run in the page
            page.goto(table.server.url)
            page.wait_for_selector("#link.live", timeout=10000)
            method = "headless Chromium (press read -> DOM updated, next animation frame)"

            def shown(key: str) -> float:
                page.wait_for_function(f"window.__bitbox.shown['{key}'] !== undefined", timeout=10000)
                return float(page.evaluate(f"window.__bitbox.shown['{key}']")) / 1000.0
        except Exception as exc:  # noqa: BLE001 - the SSE fallback says why
            print(f"browser unavailable ({exc}); measuring with an SSE client instead", file=sys.stderr)
            method = "SSE client on a socket (press read -> message parsed)"
            arrivals: dict[str, float] = {}
            url = table.server.url
            host, port = url.split("//")[1].rstrip("/").split(":")
            conn = http.client.HTTPConnection(host, int(port))
            conn.request("GET", "/api/events")
            response = conn.getresponse()

            def reader() -> None:
                for line in response:
                    if line.startswith(b"data: "):
                        now = time.time()
                        message = json.loads(line[6:])
                        for event in message["events"]:
                            if event["kind"] == "revealed":
                                d = event["data"]
                                arrivals[f"r{d['round']}-t{d['turn']}"] = now

            threading.Thread(target=reader, daemon=True).start()

            def shown(key: str) -> float:
                return wait_for(lambda: arrivals.get(key))

        samples: list[float] = []
        while len(samples) < turns:
            if table.session.game.is_over():
                table.session.command("start", {"replace": True}).result(10)
                wait_for(lambda: table.state()["phase"] == "placement")
            if table.state()["phase"] == "placement":
                table.place_all()
            view = table.state()["view"]
            key = f"r{view['round']}-t{view['turn']}"
            wanted = table.programs()
            table.settle(wanted)
            for cid in CONTROLLERS[:3]:
                table.tap(cid)
            wait_for(lambda: sum(c["locked"] for c in table.state()["controllers"]) == 3)
            wait_for(lambda: not any(table.backend.state(c).button for c in CONTROLLERS))
            before = len(table.press_times)
            table.tap(CONTROLLERS[3])
            wait_for(lambda: len(table.press_times) > before)
            pressed = table.press_times[before]
            on_screen = shown(key)
            samples.append((on_screen - pressed) * 1000.0)
            wait_for(lambda: not table.backend.state(CONTROLLERS[3]).button)
        return samples, method
    finally:
        if browser_ctx is not None:
            browser_ctx.stop()
        table.close()


def memory(turns: int) -> tuple[int, int, int, int]:
    """RSS (KiB) after 10, ``turns // 2`` and ``turns`` resolved turns, and the event log's size (bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="bitbox-bench-mem-"))
    table = Table(folder, bots=True)
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
        marks: dict[int, int] = {}
        while table.total_turns < turns:
            if table.session.game.is_over():
                table.session.command("start", {"replace": True}).result(10)
            for mark in (10, turns // 2):
                if table.total_turns >= mark and mark not in marks:
                    marks[mark] = rss_kib()
            time.sleep(0.05)
        marks[turns] = rss_kib()
        sock.close()
        size = sum(p.stat().st_size for p in folder.glob("bench.db*"))
        return marks[10], marks[turns // 2], marks[turns], size
    finally:
        table.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=60, help="turns measured for lock-to-screen (default 60)")
    parser.add_argument("--memory-turns", type=int, default=1000, help="turns for the memory figure (default 1000)")
    args = parser.parse_args()

    rss10, rss_half, rss_n, log_size = memory(args.memory_turns)
    print(f"rss_after_10_turns_kib: {rss10}")
    print(f"rss_after_{args.memory_turns // 2}_turns_kib: {rss_half}")
    print(f"rss_after_{args.memory_turns}_turns_kib: {rss_n}")
    print(f"rss_growth_kib: {rss_n - rss10}")
    print(f"event_log_bytes_after_{args.memory_turns}_turns: {log_size} (database + WAL)")

    samples, method = lock_to_screen(args.turns)
    print(f"lock_to_screen_method: {method}")
    print(f"lock_to_screen_samples: {len(samples)}")
    print(f"lock_to_screen_p50_ms: {statistics.median(samples):.1f}")
    print(f"lock_to_screen_max_ms: {max(samples):.1f}")
    print(f"lock_to_screen_p99_ms: {percentile(samples, 99):.1f}")


if __name__ == "__main__":
    main()
