"""The console's commands end to end: demo, games, export, replay; the terminal view; the Pi files."""

from __future__ import annotations

import configparser
import io
import json
import subprocess
import sys

from controller.engines import load_game
from controller.paths import HARDWARE_DIR
from controller.service.terminal import CLEAR, TerminalView

BITBOX = [sys.executable, "-m", "controller"]


def _bitbox(*args, timeout=60):
    return subprocess.run([*BITBOX, *args], capture_output=True, text=True, timeout=timeout)


def test_demo_plays_to_the_end_then_export_and_replay(tmp_path):
    db = tmp_path / "demo.db"
    demo = _bitbox("demo", "--no-web", "--speed", "0", "--short", "--players", "3", "--seed", "2", "--db", str(db))
    assert demo.returncode == 0, demo.stderr
    assert "Final scores:" in demo.stdout and "programs revealed" in demo.stdout
    assert demo.stdout.count(" a b c d e f g h i j k l") >= 2, "the board is printed turn by turn"

    games = _bitbox("games", "--db", str(db))
    assert games.returncode == 0 and "Final scores: Ada " in games.stdout

    save = tmp_path / "game.json"
    export = _bitbox("export", "--db", str(db), "-o", str(save))
    assert export.returncode == 0, export.stderr
    game = load_game(save.read_text())
    assert game.is_over() and game.options.players == 3 and game.options.short_game

    names = [player["name"] for player in json.loads(save.read_text())["players"]]
    assert names == ["Ada", "Brice", "Chloé"], "the save keeps who played"
    replay = _bitbox("replay", str(save))
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("Pixoid, seed 2: Ada (red, bot), Brice (blue, bot) and Chloé (green, bot).")
    assert "Final scores: Ada " in replay.stdout and "Turn 2" in replay.stdout
    game.name_seats(names)
    assert game.render() in replay.stdout, "the final position is printed"


def test_replay_reports_a_damaged_save(tmp_path):
    save = tmp_path / "game.json"
    save.write_text('{"format": "bitbox-game", "version": 1, "game": "pixoid", "options": {}, "seed": 1, '
                    '"actions": [[0, {"type": "place", "piece": 0, "pix": [0, 0]}]]}')
    result = _bitbox("replay", str(save))
    assert result.returncode == 2
    assert "action #0" in result.stderr and "refused" in result.stderr and "Traceback" not in result.stderr
    save.write_text("{trunc")
    result = _bitbox("replay", str(save))
    assert result.returncode == 2 and "not valid JSON" in result.stderr


def test_export_refuses_a_game_still_being_played(tmp_path):
    db = tmp_path / "demo.db"
    demo = _bitbox("demo", "--no-web", "--speed", "0", "--turns", "1", "--db", str(db))
    assert demo.returncode == 0, demo.stderr
    assert "resumes on the next start" in demo.stdout
    result = _bitbox("export", "--db", str(db), "--game", "1")
    assert result.returncode == 2 and "still being played" in result.stderr


def test_export_to_an_unwritable_path_says_so(tmp_path):
    from controller.service.store import GameStore

    db = tmp_path / "games.db"
    with GameStore(db) as store:
        gid = store.new_game("pixoid", {"players": 4}, 1, {})
        store.set_status(gid, "aborted")
    target = tmp_path / "no-such-folder" / "game.json"
    result = _bitbox("export", "--db", str(db), "-o", str(target))
    assert result.returncode == 2, result.stderr
    assert f"cannot write {target}" in result.stderr and "Traceback" not in result.stderr
    assert not target.parent.exists()


def _help(command):
    import argparse

    from controller.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command].format_help()


def test_every_command_has_help():
    for command in ("demo", "play", "serve", "replay", "export", "games"):
        text = _help(command)
        assert text.startswith(f"usage: bitbox {command}") and "options:" in text and len(text) > 200, command


class _FakeSession:
    """Just what the terminal view reads: a hub to attach to and a game to draw."""

    def __init__(self):
        from controller.engines import new_game
        from controller.service.hub import Hub

        self.hub = Hub()
        self.game = new_game("pixoid", {"players": 4}, seed=1)


def test_terminal_view_redraws_and_logs():
    session = _FakeSession()
    out = io.StringIO()
    view = TerminalView(session, out, "redraw", colour=False)
    view.attach()
    state = {"controllers": [{"id": "red", "colour": "red", "owner_name": "Ada", "connected": False, "locked": False,
                              "refused": False, "turning": False, "message": ""}],
             "waiting_for": [{"name": "Ada"}], "paused": "paused: controller red (red) is unplugged", "log": []}
    session.hub.publish({"type": "state", "state": state, "events": []})
    text = out.getvalue()
    assert text.startswith(CLEAR) and session.game.render() in text
    assert "red" in text and "unplugged" in text and "waiting for: Ada" in text and "!! paused" in text
    log = io.StringIO()
    TerminalView(session, log, "log", colour=False).on_message(
        {"state": {**state, "phase": "programming"}, "events": [{"kind": "revealed", "text": "programs revealed: ..."}]})
    assert "- programs revealed" in log.getvalue() and session.game.render() in log.getvalue()


def test_systemd_unit_and_udev_rules():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(HARDWARE_DIR / "systemd" / "bitbox.service")
    service = unit["Service"]
    assert service["Type"] == "notify" and service["Restart"] == "on-failure"
    assert int(service["WatchdogSec"]) > 0 and "bitbox serve" in service["ExecStart"]
    assert "dialout" in service["SupplementaryGroups"] and "gpio" in service["SupplementaryGroups"]
    rules = (HARDWARE_DIR / "udev" / "99-bitbox.rules").read_text()
    pico = [line for line in rules.splitlines() if 'SUBSYSTEM=="tty"' in line]
    assert pico and all(key in pico[0] for key in ('"2e8a"', '"0005"', 'ID_MM_DEVICE_IGNORE}="1"',
                                                   'GROUP="dialout"', "SYMLINK+="))
    assert 'KERNEL=="gpiochip*"' in rules


def test_demo_help_names_its_options():
    text = _help("demo")
    for option in ("--seed", "--speed", "--players", "--no-web", "--db", "--turns", "--until-over", "--keep-serving"):
        assert option in text


def test_serve_waits_for_a_game_started_with_the_token_and_stops_on_sigterm(tmp_path):
    import os
    import signal
    import time
    import urllib.request

    config = tmp_path / "bitbox.toml"
    config.write_text(
        '[game]\noptions = { short_game = true }\n'
        '[controllers]\nbackend = "sim"\npieces = ["a", "b", "c", "d"]\n'
        + "".join(f'[[players]]\nname = "Bot {i}"\nbot = true\n' for i in range(4))
        + "[bots]\ndelay = 0\nturn_pause = 0\n", encoding="utf-8")
    process = subprocess.Popen(
        [*BITBOX, "serve", "--config", str(config), "--db", str(tmp_path / "s.db"), "--port", "0",
         "--token", "serve-token-0123456789ab"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        url = None
        for line in process.stdout:
            if line.startswith("Dashboard: "):
                url = line.split()[1].rstrip("/")
                break
        assert url and url.startswith("http://127.0.0.1:")
        state = json.load(urllib.request.urlopen(url + "/api/state", timeout=5))["state"]
        assert state["status"] == "idle" and state["game"] is None
        request = urllib.request.Request(url + "/api/game/start", data=b"{}", method="POST",
                                         headers={"Authorization": "Bearer serve-token-0123456789ab",
                                                  "Content-Type": "application/json"})
        assert json.load(urllib.request.urlopen(request, timeout=5)) == {"started": 1}
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            state = json.load(urllib.request.urlopen(url + "/api/state", timeout=5))["state"]
            if state["turns_resolved"] >= 1:
                break
            time.sleep(0.1)
        assert state["turns_resolved"] >= 1
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=15)
        assert process.returncode == 0, err
        assert "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
