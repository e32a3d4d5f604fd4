"""A table joins a tournament the way a café sets it up: `bitbox play GAME --tournament URL --table N`
(or the configuration file's [tournament] section), its dashboard shows the pairing with the seats
filled, the game starts when the referee taps start, and the organiser records its result."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from controller import i18n
from controller.cli import main
from controller.service.config import ConfigError, load_config
from controller.tournament.topics import BrokerAddress
from tests.tournament.conftest import GAME, ROOT, OrganiserThread, new_tournament, recorded, wait_for

TOKEN = "a-referee-token-long-enough-1234"


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def test_a_table_started_with_play_shows_its_pairing_and_plays_it_when_the_referee_taps_start(
        tmp_path: Path, broker, organisers) -> None:
    address = BrokerAddress("127.0.0.1", broker.port, "cafe")
    path = tmp_path / "cafe.db"
    new_tournament(path, address, players=2, rounds=1)
    organisers.append(OrganiserThread(path, address))
    log = tmp_path / "table.log"
    config = tmp_path / "table.toml"   # the bots play at full speed; the table's number comes from the file
    config.write_text(f'[bots]\ndelay = 0\n[tournament]\nurl = "{address.url}"\ntable = 1\n', encoding="utf-8")
    table = subprocess.Popen(
        [sys.executable, "-m", "controller", "--lang", "en", "play", GAME, "--config", str(config),
         "--bot", "0", "--bot", "1", "--port", "0", "--token", TOKEN, "--db", str(tmp_path / "table.db")],
        cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT, env={**os.environ, "BITBOX_TOKEN": ""})
    try:
        url = wait_for(lambda: re.search(r"Dashboard: (http://\S+)", log.read_text()), 30, "the dashboard").group(1)

        def pairing_shown() -> dict | None:
            state = _get(url + "api/state")["state"]
            return next((e for e in state.get("log", []) if e["kind"] == "tournament"), None)

        shown = wait_for(pairing_shown, what="the pairing on the dashboard")
        assert shown["text"] == "Round 1, table 1: P01 (seat 1) and P02 (seat 2)"
        assert i18n.said(shown["message"], "fr") == "Ronde 1, table 1 : P01 (place 1) et P02 (place 2)"
        # The table's status reaches the organiser through the broker, after the dashboard shows it.
        wait_for(lambda: organisers[0].state()["tables"][0]["detail"] == "paired", what="the organiser to see it")
        assert recorded(path) == []
        request = urllib.request.Request(url + "api/game/start", data=b'{"replace": true}', method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 200
        wait_for(lambda: recorded(path), 30, "the table's result at the organiser")
        state = _get(url + "api/state")["state"]
        assert [p["name"] for p in state["players"]] == ["P01", "P02"], "the seats are filled from the pairing"
    finally:
        table.terminate()
        table.wait(10)
    wait_for(lambda: any(t["state"] == "offline" for t in organisers[0].state()["tables"]),
             what="the table marked offline")


@pytest.mark.parametrize("section, problem", [
    ('url = "mqtt://broker/cafe"', "table: give this table's number"),
    ('url = "http://broker/cafe"\ntable = 2', "is not a tournament address"),
    ('url = "mqtt://broker/"\ntable = 2', "the tournament's name comes after the host"),
    ('url = "mqtt://u:secret@broker/cafe"\ntable = 2', "holds a password"),
    ('url = "mqtt://broker/cafe"\ntable = 2\nseat = 1', "unknown key(s) seat"),
])
def test_a_wrong_tournament_section_is_refused_naming_what_to_write(tmp_path: Path, section: str, problem: str) -> None:
    config = tmp_path / "table.toml"
    config.write_text(f"[tournament]\n{section}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert problem in str(caught.value) and "table.toml: [tournament]" in str(caught.value)
    assert "secret" not in str(caught.value)


def test_a_good_tournament_section_is_kept(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("s3cret\n", encoding="utf-8")
    config = tmp_path / "table.toml"
    config.write_text(f'[tournament]\nurl = "mqtts://broker.local/cafe"\ntable = 3\nusername = "table-3"\n'
                      f'password_file = "{tmp_path / "pw"}"\n', encoding="utf-8")
    assert load_config(config).tournament["table"] == 3


def test_play_says_what_a_tournament_table_still_needs(capsys) -> None:
    assert main(["play", GAME, "--tournament", "mqtt://broker/cafe"]) == 2
    assert "--table N" in capsys.readouterr().err
    assert main(["play", GAME, "--table", "2"]) == 2
    assert "--tournament mqtt://HOST/NAME" in capsys.readouterr().err


def test_a_paired_game_the_referee_aborts_and_starts_again_is_the_one_reported(tmp_path: Path, broker, tables,
                                                                                organisers) -> None:
    """The referee taps start, aborts that game (a false start), taps start again: the pairing is played
    in the new game, whose result the organiser records."""
    address = BrokerAddress("127.0.0.1", broker.port, "cafe")
    path = tmp_path / "cafe.db"
    new_tournament(path, address, players=2, rounds=1)
    table = tables.start(1, address.url, auto_start=False, bot_delay=60.0)   # bots that wait: the game stays open
    organisers.append(OrganiserThread(path, address))
    wait_for(lambda: table.link.current() is not None, what="the pairing")
    table.session.command("start", {"replace": True}).result(10)
    wait_for(lambda: table.link.current()["state"] == "playing", what="the paired game under way")
    first = table.link.current()["game_id"]
    table.session.command("abort").result(10)
    table.session.config = dataclasses.replace(table.session.config, bot_delay=0.0, turn_pause=0.0)
    second = table.session.command("start", {"replace": True}).result(10)["game_id"]
    assert second > first
    wait_for(lambda: recorded(path), 30, "the result of the game started again")
    assert table.link._query("SELECT state, game_id FROM pairings") == [("done", second)]
