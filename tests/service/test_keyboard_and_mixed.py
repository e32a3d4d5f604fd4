"""Hot-seat play on one keyboard, and controllers of several kinds in one game."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time

from controller.dials.factory import open_backend
from controller.dials.mixed import MixedBackend
from controller.dials.state import EventKind
from controller.paths import PROJECT_ROOT

from .conftest import wait_for


class Player:
    """``bitbox play`` in a subprocess whose keyboard is a pipe, read line by line."""

    def __init__(self, *args: str, state: str) -> None:
        env = {**os.environ, "BITBOX_STATE_DIR": state, "PYTHONPATH": str(PROJECT_ROOT), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "controller", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                     cwd=PROJECT_ROOT)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def keys(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text)
        self.proc.stdin.flush()

    def expect(self, pattern: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            self.seen.append(line)
            if re.search(pattern, line):
                return line
        raise AssertionError(f"no line matching {pattern!r} in:\n{''.join(self.seen[-30:])}")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait(10)


def test_two_players_share_the_keyboard_and_nothing_dialled_is_shown(tmp_path):
    game = Player("play", "duel", "--backend", "keyboard", "--no-web", "--db", str(tmp_path / "kb.db"), "--new",
                  "--name", "Ada", "--name", "Brice", "--option", "target=1", state=str(tmp_path / "state"))
    try:
        game.expect(r"controller red selected")
        game.expect(r"Event log:")
        picks = {"red": "5", "blue": "2"}
        for cid, number in picks.items():
            game.keys(number)
            game.expect(rf"{cid}: number wheel turned")
            while True:  # a press while the wheel still turns is refused: press again, as a player would
                game.keys("\n")
                line = game.expect(rf"keyboard: {cid} (locked|refused)|round 1:")
                if "refused" not in line:
                    break
            if cid == "red":
                game.keys("\t")
                game.expect(r"controller blue selected")
        if not any("round 1:" in line for line in game.seen):
            game.expect(r"round 1:")
        assert any("round 1: Ada chose 5, Brice chose 2" in line for line in game.seen)
        game.expect(r"is over")
        before_reveal = "".join(game.seen[: next(i for i, line in enumerate(game.seen) if "round 1:" in line)])
        assert "wheel to" not in before_reveal and " 5" not in before_reveal.replace("Ada chose 5", "")
        assert game.proc.wait(20) == 0
    finally:
        game.close()


def test_mixed_controllers_come_through_one_backend():
    phones = open_backend("phone", controllers=["green"])
    sims = open_backend("sim", controllers=["red"])
    mixed = MixedBackend({"phone": phones, "sim": sims}, {"red": "sim", "green": "phone"})
    mixed.start()
    try:
        wait_for(lambda: mixed.states().get("red") is not None and mixed.states()["red"].connected,
                 what="the simulated board read")
        assert mixed.page_held() == ["green"] and mixed.drivable("red") and mixed.drivable("green")
        mixed.attach("green")
        mixed.turn("green", "number", 4)
        wait_for(lambda: mixed.state("green").number == 4, what="the phone's wheel settled")
        kinds = set()
        wait_for(lambda: any((kinds.add((e.controller_id, e.kind)) or True) for e in mixed.events(0.05)) and
                 ("green", EventKind.WHEEL) in kinds, what="the phone's events in the merged queue")
        assert mixed.known_controllers() == {"red", "green"}
    finally:
        mixed.close()
