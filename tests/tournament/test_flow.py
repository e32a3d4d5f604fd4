"""A whole tournament through a real Mosquitto: simulated tables join, the organiser pairs each round
over the tables that are online, every result is checked and recorded once, the standings add up,
and the commands show and export it."""

from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.tournament.store import TournamentStore
from controller.tournament.topics import BrokerAddress
from tests.tournament.conftest import GAME, OrganiserThread, new_tournament, wait_for


def test_a_swiss_tournament_is_played_to_its_end_over_the_tables_online(tmp_path: Path, broker, tables,
                                                                        organisers, capsys) -> None:
    address = BrokerAddress("127.0.0.1", broker.port, "cafe")
    path = tmp_path / "cafe.db"
    new_tournament(path, address, players=9, rounds=3)   # odd: a bye each round
    for number in (1, 2, 3, 4):
        tables.start(number, address.url)
    organisers.append(OrganiserThread(path, address))
    organiser = organisers[0]
    wait_for(lambda: organiser.organiser.tournament.over, 60, "the tournament's end")
    # The organiser publishes its state for the dashboard just after it records the end.
    wait_for(lambda: organiser.state().get("tournament", {}).get("over"), 30, "the dashboard's final standings")

    with TournamentStore(path) as store:
        boards = store.boards()
        byes = store.byes()
        players = store.players()
    assert [b.round for b in boards] == [1] * 4 + [2] * 4 + [3] * 4
    assert all(b.done and b.source == "table" and b.digest.startswith("sha256:") for b in boards)
    assert {b.table for b in boards} == {1, 2, 3, 4}
    assert len(byes) == 3 and len({p for _r, p in byes}) == 3, "a bye goes to someone who has not had one"
    met = [frozenset(pair) for b in boards for pair in itertools.combinations(b.players, 2)]
    assert len(met) == len(set(met)), "nobody meets anyone twice while another pairing exists"
    state = organiser.state()
    assert state["tournament"]["over"] and state["tournament"]["round"] == 3
    # Each game shares out one point (pairwise points of two players), each bye one more.
    assert sum(row["points"] for row in state["standings"]) == pytest.approx(len(boards) + len(byes))
    assert sorted(row["name"] for row in state["standings"]) == sorted(players.values())
    assert {t["table"] for t in state["tables"]} == {1, 2, 3, 4}
    organiser.organiser.stop()
    organiser.thread.join(10)

    assert main(["tournament", "status", "--db", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "Final standings of cafe:" in shown and state["standings"][0]["name"] in shown

    out = tmp_path / "export"
    assert main(["tournament", "export", "--db", str(path), "-o", str(out)]) == 0
    with (out / "cafe-standings.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["player"] for r in rows] == [r["name"] for r in state["standings"]]
    with (out / "cafe-games.csv").open(encoding="utf-8") as handle:
        games = list(csv.DictReader(handle))
    assert len(games) == 12 and all(g["digest"].startswith("sha256:") for g in games)
    data = json.loads((out / "cafe.json").read_text(encoding="utf-8"))
    assert data["tournament"]["game"] == GAME and len(data["rounds"]) == 3
    save = data["rounds"][0]["games"][0]["save"]
    assert main(["replay", "--final", str(_write(tmp_path / "game.json", save))]) == 0


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_new_refuses_what_cannot_be_a_tournament_and_says_what_to_give(tmp_path: Path, capsys) -> None:
    players = tmp_path / "players.txt"
    players.write_text("# the club\nAda\nBrice\n\nChloé\n", encoding="utf-8")
    db = tmp_path / "t.db"
    assert main(["tournament", "new", "club", "--game", GAME, "--players-file", str(players), "--db", str(db)]) == 0
    assert "3 players" in capsys.readouterr().out
    assert main(["tournament", "new", "club", "--game", GAME, "--player", "Ada", "--db", str(db)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["tournament", "new", "club", "--game", GAME, "--player", "Ada", "--player", "Ada",
                 "--db", str(tmp_path / "u.db")]) == 2
    assert "listed twice" in capsys.readouterr().err
    assert main(["tournament", "new", "club", "--game", GAME, "--player", "Ada", "--db", str(tmp_path / "v.db")]) == 2
    assert "give 2 players or more" in capsys.readouterr().err
    assert main(["tournament", "new", "club", "--game", GAME, "--format", "round-robin", "--seats", "3",
                 "--player", "A", "--player", "B", "--player", "C", "--db", str(tmp_path / "w.db")]) == 2
    assert "--seats 2" in capsys.readouterr().err
    assert not (tmp_path / "u.db").exists() and not (tmp_path / "w.db").exists()
