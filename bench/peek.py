"""Try to peek: a Pixoid game is played on the live service while an observer on the network records
every public channel and tries the five known ways of learning a secret before its reveal.

1. bots' programs computed in advance from what the dashboard publishes (its seed, if any);
2. wheel movements read from the public stream and health counter while a player dials;
3. a refused lock's reason read from the public channel;
4. the referee's token: abort with programs locked, export the game, take back a move;
5. the web: another site's name (DNS rebinding), another site's request, framing and sniffing
   headers, wrong-token guessing, a huge game number, an error naming a file.

Each attack is counted as a leak when it learns anything. The last line is ``secrets_leaked: N``.

    python bench/peek.py
"""

from __future__ import annotations

import http.client
import json
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from service import serve, wait_for  # noqa: E402

from controller.dials.factory import open_backend  # noqa: E402
from controller.dials.state import DIRECTIONS  # noqa: E402
from controller.engines.pixoid import PixoidBot  # noqa: E402
from controller.service.config import PlayerConfig, ServiceConfig  # noqa: E402
from controller.service.session import _bot_seed  # noqa: E402

CONTROLLERS = ["red", "blue", "green", "yellow"]
TOKEN = "bench-secrets-token-000"


class Live:
    """The service as a table runs it: seats 0 and 1 people (driven here), 2 and 3 bots."""

    def __init__(self, folder: Path) -> None:
        self.config = ServiceConfig(game="pixoid", options={"players": 4},
                                    players=[PlayerConfig("Ada"), PlayerConfig("Brice"),
                                             PlayerConfig("Chloé", bot=True), PlayerConfig("Dinesh", bot=True)],
                                    pieces=list(CONTROLLERS), bot_delay=0.02, turn_pause=0.0, db=folder / "g.db")
        self.backend: Any = open_backend("sim", controllers=list(CONTROLLERS))
        self.backend.start()
        wait_for(lambda: all(s.connected for s in self.backend.states().values()))
        serve(self, self.config, self.backend, TOKEN)
        parts = urllib.parse.urlsplit(self.server.url)
        self.host, self.port = parts.hostname, parts.port

    def http(self, method: str, path: str, body: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=5)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        text = response.read().decode(errors="replace")
        result = response.status, {k.lower(): v for k, v in response.getheaders()}, text
        connection.close()
        return result

    def state(self) -> dict[str, Any]:
        return json.loads(self.http("GET", "/api/state")[2])["state"]

    def set_wheels(self, cid: str, direction: int, number: int) -> None:
        """Turn the wheels that are not there yet (a hand leaves a wheel that is right alone)."""
        for wheel, position in (("direction", direction), ("number", number)):
            if self.backend.wheel_target(cid, wheel) != position:
                self.backend.turn(cid, wheel, position)
        wait_for(lambda: (self.backend.state(cid).direction, self.backend.state(cid).number) == (direction, number))

    def tap(self, cid: str) -> None:
        wait_for(lambda: not self.backend.state(cid).button)
        self.backend.press(cid)
        self.backend.release(cid, after=0.1)
        wait_for(lambda: self.backend.state(cid).button)
        wait_for(lambda: not self.backend.state(cid).button)

    def close(self) -> None:
        self.session.stop()
        self.thread.join(5)
        self.server.stop()
        self.backend.close()
        self.store.close()


class Observer:
    """A client on the network reading the public stream."""

    def __init__(self, live: Live) -> None:
        self.connection = http.client.HTTPConnection(live.host, live.port, timeout=30)
        self.connection.request("GET", "/api/events")
        self.response = self.connection.getresponse()
        self.messages: list[tuple[float, str]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response:
                if line.startswith(b"data: "):
                    self.messages.append((time.monotonic(), line[6:].decode()))
        except (OSError, ValueError, AttributeError):
            pass


def legal(game: Any, piece: int) -> tuple[int, int]:
    direction = next(d for d in range(4) if game.board.opens[game.pos[piece]][d])
    return DIRECTIONS.index(("up", "right", "down", "left")[direction]), 1


def place_all(live: Live) -> None:
    for _ in range(8):
        placement = live.state().get("placement")
        if placement is None:
            break
        piece = placement["piece"]
        if piece >= 2:
            wait_for(lambda: live.state().get("placement") != placement)
            continue
        placed = live.state()["game"]["actions"]
        live.set_wheels(CONTROLLERS[piece], 0, 0)
        live.tap(CONTROLLERS[piece])
        wait_for(lambda: live.state()["game"]["actions"] > placed)
    wait_for(lambda: live.state()["phase"] == "programming")


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bitbox-bench-secrets-"))
    live = Live(folder)
    observer = Observer(live)
    leaks: dict[str, int] = {}
    try:
        place_all(live)
        game = live.session.game.clone()
        public = live.state()

        # 1. the bots' programs from what is published
        seed = public["game"].get("seed")
        guesses = {}
        for salt in ([seed] if seed is not None else []) + [0, 1]:
            point = (salt, game.round_index, game.turn_in_round, game.phase)
            for seat in (2, 3):
                clone = game.clone()
                key = (*point, "program", seat)
                guesses.setdefault(salt, {})[seat] = PixoidBot(_bot_seed(*key, 0)).choose(clone, seat)
        print(f"attack 1: the dashboard publishes the seed: {'yes' if seed is not None else 'no'}")

        # 2. wheel movements while seat 0 dials (the bots have locked): nothing may be published
        wait_for(lambda: {2, 3} <= live.session.locked)
        time.sleep(0.3)  # the bots' locks published
        before_messages, before_seq = len(observer.messages), json.loads(live.http("GET", "/api/health")[2])["published"]
        live.backend.turn("red", "number", 7)
        live.backend.turn("red", "direction", 2)
        wait_for(lambda: live.backend.state("red").number == 7)
        time.sleep(0.3)  # let anything the turn would publish arrive before counting
        moved = len(observer.messages) - before_messages
        health = json.loads(live.http("GET", "/api/health")[2])["published"] - before_seq
        leaks["wheel movements published"] = int(moved > 0 or health > 0)
        print(f"attack 2: public messages while a wheel turned: {moved}; health counter moved by {health}")

        # 3. a refused lock's reason: seat 0 locks a distance of 0
        live.set_wheels("red", legal(game, 0)[0], 0)
        live.tap("red")
        wait_for(lambda: live.session.seat_hubs["red"].latest["seat"]["refused"])
        reason = live.session.seat_hubs["red"].latest["seat"]["reason"]
        heard = sum(reason in text for _, text in observer.messages) + (reason in json.dumps(live.state()))
        leaks["refusal reason public"] = int(heard > 0)
        print(f"attack 3: the refusal's reason ({reason!r}) heard on the public channel: {heard} times")

        # seats 0 and 1 lock legal programs; the bots lock theirs; seat 1 stays... all but one locked
        live.set_wheels("red", *legal(game, 0))
        live.tap("red")
        wait_for(lambda: 0 in live.session.locked)
        wait_for(lambda: {2, 3} <= live.session.locked)
        locked_programs = {p: game_program for p, game_program in
                           ((p, live.session.game.programs.get(p)) for p in (0, 2, 3))}
        revealed_bots = {seat: locked_programs[seat] for seat in (2, 3)}
        from controller.engines.pixoid.game import DIRECTION_INDEX

        for salt, guess in guesses.items():
            right = sum((DIRECTION_INDEX[guess[seat].direction], guess[seat].distance) == revealed_bots[seat]
                        for seat in (2, 3))
            if right == 2:
                leaks["bots predicted"] = 1
                print(f"attack 1: the bots' programs rebuilt from salt {salt}")
        leaks.setdefault("bots predicted", 0)

        # 4. the token: abort with three programs locked, export, take back a move
        auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
        live.http("POST", "/api/game/abort", "{}", auth)
        wait_for(lambda: live.state()["status"] == "aborted")
        game_id = live.session.game_id
        status, _, text = live.http("GET", f"/api/games/{game_id}")
        exported = json.loads(text)["actions"] if status == 200 else []
        secret_actions = [a for a in exported if isinstance(a[1], dict) and "program" in json.dumps(a[1]).lower()]
        live.http("POST", "/api/game/undo", '{"count": 1}', auth)
        time.sleep(0.2)
        after_undo = live.session.game.programs if live.session.game is not None else {}
        leaks["token opens locks"] = int(bool(secret_actions) or bool(after_undo))
        print(f"attack 4: locked programs in the export: {len(secret_actions)}; kept after the undo: {len(after_undo)}")

        # 5. the web
        problems = []
        if live.http("GET", "/api/state", headers={"Host": f"evil.example:{live.port}"})[0] != 400:
            problems.append("another host name is answered")
        cross = dict(auth, Origin="http://evil.example")
        if live.http("POST", "/api/game/undo", '{"count": 1}', cross)[0] != 403:
            problems.append("a cross-site request acted")
        headers = live.http("GET", "/")[1]
        if "content-security-policy" not in headers or headers.get("x-frame-options") != "DENY" \
                or headers.get("x-content-type-options") != "nosniff":
            problems.append("security headers missing")
        status, _, text = live.http("GET", "/api/games/" + "9" * 40)
        if status != 400 or "Traceback" in text or str(folder) in text:
            problems.append("a huge game number is not refused cleanly")
        if str(folder) in live.http("GET", "/api/games/424242")[2]:
            problems.append("an error names the event log's path")
        wrong = {"Authorization": "Bearer guess-guess-guess-00", "Content-Type": "application/json"}
        codes = [live.http("POST", "/api/game/abort", "{}", wrong)[0] for _ in range(12)]
        if codes[-1] != 429:
            problems.append("wrong tokens are not limited")
        leaks["web"] = len(problems)
        print(f"attack 5: web problems: {problems or 'none'}")
    finally:
        live.close()
    for name, count in leaks.items():
        print(f"  {name}: {count}")
    print(f"secrets_leaked: {sum(leaks.values())}")


if __name__ == "__main__":
    main()
