"""The players' names, not seat numbers, in everything the console shows: the demo's terminal
transcript (a new game and a resumed one) and the event log the dashboard lists."""

from __future__ import annotations

import re
import subprocess
import sys

from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.session import Session
from controller.service.store import GameStore

BITBOX = [sys.executable, "-m", "controller"]
SEAT_NUMBER = re.compile(r"\bseat \d")


def _demo(db, *extra):
    result = subprocess.run(
        [*BITBOX, "demo", "--no-web", "--speed", "0", "--short", "--players", "3", "--seed", "2", "--db", str(db), *extra],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    # The "Event log: <path>" line holds the test's folder name; it is not a game text.
    return "\n".join(line for line in result.stdout.splitlines() if str(db) not in line)


def test_demo_terminal_names_the_players_when_starting_and_resuming(tmp_path):
    db = tmp_path / "demo.db"
    first = _demo(db, "--turns", "1")
    assert "Ada (red) places Pixoid on the start Pix " in first
    assert "Brice (blue) places the blue Bug on the start Pix " in first
    assert "  locked in: nobody; still programming: Ada (red), Brice (blue) and Chloé (green)" in first
    assert re.search(r"  R: Pixoid, played by Ada \(red\), on [a-l]\d", first)
    assert "resumes on the next start" in first
    assert not SEAT_NUMBER.search(first), first

    rest = _demo(db)
    assert "Resuming game #1" in rest
    assert re.search(r"  g: the green Bug, played by Chloé \(green\), on [a-l]\d", rest)
    assert re.search(r"  winners?: (Ada|Brice|Chloé) \((red|blue|green)\)", rest)
    assert "Final scores: Ada" in rest
    assert not SEAT_NUMBER.search(rest), rest


def test_dashboard_log_names_the_players_after_a_game_and_a_correction(tmp_path):
    names = ["Ada", "Brice", "Chloé"]
    config = ServiceConfig(options={"players": 3}, seed=3, bot_delay=0, turn_pause=0,
                           players=[PlayerConfig(n, bot=True) for n in names])
    with GameStore(tmp_path / "g.db") as store:
        session = Session(config, None, store)
        sent = []
        session.hub.add_listener(lambda message: sent.extend(message.get("events", [])))
        session.start_new()
        session.run(until_over=True)
        session.publish()
        texts = [e["text"] for e in sent]
        assert [e["text"] for e in session.public_state()["log"]] == texts[-len(session.public_state()["log"]):]
        assert any(t.startswith("the game is over: ") for t in texts)
        player = r"(Ada \(red\)|Brice \(blue\)|Chloé \(green\))"
        assert any(re.fullmatch(f"{player} becomes Pixoid; {player} becomes a Bug", t) for t in texts)
        assert not [t for t in texts if SEAT_NUMBER.search(t)]
        assert session.game.save()["options"] == session.game.options.to_dict()
        assert "Ada" not in session.game.dumps()

        # A correction replays the stored actions into a fresh engine; the names come back with it.
        session.command("undo", {"count": 3})
        session.step(0)
        assert session.game.seat_names == tuple(names)
        assert "Ada" in session.game.render() and not SEAT_NUMBER.search(session.game.render())
