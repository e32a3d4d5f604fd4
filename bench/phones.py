"""Lock to paint on phones: the last phone's ready press to the revealed turn painted on every page.

Four phones hold Pixoid's four controllers (seat pages in headless Chromium at a phone's size, each in
its own browser context, joined by their seats' codes) and two more pages show the dashboard: six
pages. Each turn the phones dial legal programs and lock them; the figure is the time from the last
phone's press (its page's clock, at the touch) to the moment the revealed turn is on screen (each
page's next animation frame after its DOM shows it), for every page. The same run measures the board
figure of bench/service.py (a wired controller's press to one dashboard) as the reference.

    python bench/phones.py [--turns 30]

The last line is ``lock_to_paint_p99_ms_6_pages: X`` (goal: 100 ms or less).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from service import CHROMIUM, FLAGS, lock_to_screen, percentile, serve, wait_for  # noqa: E402

from controller.dials.factory import open_backend  # noqa: E402
from controller.dials.state import DIRECTIONS  # noqa: E402
from controller.service.config import PlayerConfig, ServiceConfig  # noqa: E402

CONTROLLERS = ["red", "blue", "green", "yellow"]
TOKEN = "bench-token-0000"


class PhoneTable:
    """A Pixoid game whose four controllers are phones, served on a free port."""

    def __init__(self, folder: Path) -> None:
        self.config = ServiceConfig(game="pixoid", options={"players": 4}, seed=5,
                                    players=[PlayerConfig(f"P{i}") for i in range(4)], backend="phone",
                                    pieces=list(CONTROLLERS), bot_delay=0.0, turn_pause=0.0, db=folder / "g.db")
        self.backend: Any = open_backend("phone", controllers=list(CONTROLLERS))
        self.backend.start()
        serve(self, self.config, self.backend, TOKEN)
        self.url = self.server.url.rstrip("/")

    def state(self) -> dict[str, Any]:
        return self.hub.latest["state"]

    def close(self) -> None:
        self.session.stop()
        self.thread.join(5)
        self.server.stop()
        self.backend.close()
        self.store.close()


def legal(game: Any, piece: int) -> tuple[int, int]:
    direction = next(d for d in range(4) if game.board.opens[game.pos[piece]][d])
    return DIRECTIONS.index(("up", "right", "down", "left")[direction]), 1


def press_until_locked(page: Any) -> None:
    """Press ready until the seat is locked: a press made while the wheel just set is still settling
    (its simulated board's debounce) is refused, as a wired controller's would be, and a player
    presses again."""
    for _attempt in range(3):
        page.click("#ready")
        try:
            page.wait_for_function("window.__bitbox.seat.locked", timeout=3000)
            return
        except Exception:  # noqa: BLE001 - playwright's timeout: press again, saying why it was not taken
            if page.evaluate("window.__bitbox.seat.locked"):
                return
            print(f"bench: a ready press was not taken ({page.evaluate('window.__bitbox.seat.reason')}); "
                  f"pressing again", file=sys.stderr)
    raise TimeoutError("bench: a ready press was not taken three times")


def phones_lock_to_paint(turns: int) -> list[float]:
    """Per turn and page: ms from the last phone's press to that page painting the revealed turn."""
    import json
    import urllib.request

    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="bitbox-bench-phones-"))
    table = PhoneTable(folder)
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        seats = json.load(urllib.request.urlopen(table.url + "/api/seats"))["seats"]
        phones = {}
        for seat in seats:
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                          bypass_csp=True)
            page = context.new_page()
            page.goto(table.url + seat["join"])
            page.wait_for_function("window.__bitbox.seat && window.__bitbox.seat.connected", timeout=10000)
            phones[seat["id"]] = page
        dashboards = [browser.new_page(bypass_csp=True) for _ in range(2)]
        for page in dashboards:
            page.goto(table.url + "/")
            page.wait_for_selector("#link.live", timeout=10000)
        pages = [*phones.values(), *dashboards]
        wait_for(lambda: not table.state()["paused"])
        samples: list[float] = []
        done = 0
        while done < turns:
            state = table.state()
            if state["game"]["over"]:
                break
            placement = state.get("placement")
            if placement is not None:
                placed = state["game"]["actions"]
                page = phones[CONTROLLERS[placement["piece"]]]
                page.click('#number button[data-position="0"]')
                page.wait_for_function("window.__bitbox.seat.wheels.number === 0", timeout=5000)
                for _attempt in range(3):
                    page.click("#ready")
                    try:
                        wait_for(lambda: table.state()["game"]["actions"] > placed, timeout=3.0)
                        break
                    except TimeoutError:
                        # A press that came while the phone's wheel was still reported turning is
                        # refused, as a wired controller's would be: press again, as a player would.
                        print(f"bench: a placement press was not taken ({page.evaluate('window.__bitbox.seat.reason')}); "
                              f"pressing again", file=sys.stderr)
                else:
                    raise TimeoutError("bench: the placement press was not taken three times")
                continue
            game = table.session.game.clone()
            view = state["view"]
            key = f"r{view['round']}-t{view['turn']}"
            for piece, cid in enumerate(CONTROLLERS):
                direction, distance = legal(game, piece)
                page = phones[cid]
                page.click(f'#direction button[data-position="{direction}"]')
                page.click(f'#number button[data-position="{distance}"]')
                page.wait_for_function(f"window.__bitbox.seat.wheels.direction === {direction} && "
                                       f"window.__bitbox.seat.wheels.number === {distance}", timeout=5000)
            for cid in CONTROLLERS[:3]:
                press_until_locked(phones[cid])
            last = phones[CONTROLLERS[3]]
            last.click("#ready")
            pressed = float(last.evaluate("window.__bitbox.pressed"))
            for page in pages:
                page.wait_for_function(f"window.__bitbox.shown['{key}'] !== undefined", timeout=10000)
                samples.append(float(page.evaluate(f"window.__bitbox.shown['{key}']")) - pressed)
            wait_for(lambda: table.state()["view"]["turn"] != view["turn"] or table.state()["phase"] != "programming"
                     or table.state()["game"]["over"])
            done += 1
        return samples
    finally:
        playwright.stop()
        table.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=30, help="turns measured (default 30)")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"bench/phones.py needs Chromium at {CHROMIUM} (apt-get install chromium)")
    board, method = lock_to_screen(min(args.turns, 20))
    print(f"board_lock_to_screen_method: {method}")
    print(f"board_lock_to_screen_p99_ms: {percentile(board, 99):.1f}")
    start = time.monotonic()
    samples = phones_lock_to_paint(args.turns)
    print(f"phones_turns_measured: {len(samples) // 6} ({len(samples)} page paints, {time.monotonic() - start:.0f} s)")
    print(f"lock_to_paint_p50_ms_6_pages: {statistics.median(samples):.1f}")
    print(f"lock_to_paint_max_ms_6_pages: {max(samples):.1f}")
    print(f"lock_to_paint_p99_ms_6_pages: {percentile(samples, 99):.1f}")


if __name__ == "__main__":
    main()
