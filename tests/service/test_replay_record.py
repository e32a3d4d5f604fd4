"""``bitbox replay`` and ``bitbox games`` tell a game as players tell it: who played (by name and
colour), what happened each turn, who won; ``--json`` keeps the machine form; French on request.

The games' own sentences belong to the games: these tests read the record's own lines (the players,
the turns, the result) and the JSON, never the wording of a game's events.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from controller.cli import main
from controller.engines import load_game
from controller.paths import state_dir

#: How the engines' internals would show: a seat or a piece by number, a list of seat numbers.
INTERNALS = re.compile(r"\bseat \d|\bpiece \d|\[\d+(, \d+)*\]|\bplayer \d")


@pytest.fixture
def demo_log(capsys: pytest.CaptureFixture[str]) -> Path:
    """The state folder's demo log, holding one finished short game of three bots (as after ``bitbox demo``)."""
    assert main(["demo", "--no-web", "--speed", "0", "--short", "--players", "3", "--seed", "5"]) == 0
    capsys.readouterr()
    return state_dir() / "demo.db"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_games_lists_the_demo_without_being_told_where_it_is(demo_log: Path, capsys) -> None:
    code, out, err = run(capsys, "games")
    assert code == 0, err
    assert f"In {demo_log}:" in out
    assert "Ada (red, bot), Brice (blue, bot) and Chloé (green, bot)." in out
    assert re.search(r"Winners?: (Ada|Brice|Chloé)", out)
    command = re.search(r"`(bitbox replay [^`]+)`", out).group(1)
    assert command == "bitbox replay --game 1"
    code, told, err = run(capsys, *command.split()[1:])
    assert code == 0 and told.startswith("Pixoid, seed 5: Ada (red, bot)"), err


def test_replay_tells_who_played_each_turn_and_who_won(demo_log: Path, capsys) -> None:
    code, out, err = run(capsys, "replay")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Pixoid, seed 5: Ada (red, bot), Brice (blue, bot) and Chloé (green, bot)."
    turns = [line for line in lines if re.fullmatch(r"Turn \d+", line)]
    assert turns[:3] == ["Turn 1", "Turn 2", "Turn 3"]
    result = lines[-1]
    assert result.startswith("Final scores: Ada ") and re.search(r"Winners?: (Ada|Brice|Chloé)", result)
    own_lines = [lines[0], *turns, result]
    assert not any(INTERNALS.search(line) for line in own_lines), own_lines
    after_each_turn = [lines[i + 1] for i, line in enumerate(lines) if line in turns]
    assert all(line.startswith("  - ") for line in after_each_turn), "every turn tells what happened"


def test_the_record_names_the_winners_the_rules_give(demo_log: Path, capsys) -> None:
    code, data, err = run(capsys, "replay", "--json")
    assert code == 0, err
    record = json.loads(data)
    names = [player["name"] for player in record["players"]]
    assert names == ["Ada", "Brice", "Chloé"]
    assert [player["colour"] for player in record["players"]] == ["red", "blue", "green"]
    assert all(player["bot"] for player in record["players"])
    assert record["over"] and record["winners"]
    best = max(record["scores"])
    assert record["winners"] == [seat for seat, score in enumerate(record["scores"]) if score == best]
    assert sum(len(turn["events"]) for turn in record["turns"]) > 0
    assert all({"kind", "text", "data"} <= set(event) for turn in record["turns"] for event in turn["events"])
    _code, text, _err = run(capsys, "replay")
    winners = " and ".join(names[seat] for seat in record["winners"]) if len(record["winners"]) < 3 else None
    if winners:
        assert text.rstrip().endswith(f"{winners}.")


def test_the_record_is_said_in_french(demo_log: Path, capsys) -> None:
    code, out, err = run(capsys, "--lang", "fr", "replay")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Pixoid, graine 5 : Ada (rouge, robot), Brice (bleu, robot) et Chloé (vert, robot)."
    assert "Tour 1" in lines and "Turn 1" not in lines
    assert lines[-1].startswith("Scores finaux : Ada ")
    assert re.search(r"(Gagnant|Gagnants) : (Ada|Brice|Chloé)", lines[-1])


def test_an_exported_save_keeps_the_players_and_replays_the_same(demo_log: Path, capsys, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, _out, err = run(capsys, "export", "--db", str(demo_log), "-o", str(save))
    assert code == 0 and f"`bitbox replay {save}`" in err
    data = json.loads(save.read_text(encoding="utf-8"))
    assert [p["name"] for p in data["players"]] == ["Ada", "Brice", "Chloé"]
    assert load_game(save.read_text(encoding="utf-8")).is_over()
    _code, from_file, _err = run(capsys, "replay", str(save))
    _code, from_log, _err = run(capsys, "replay", "--db", str(demo_log), "--game", "1")
    assert from_file == from_log


def test_a_save_without_names_calls_the_players_player_1_2_3(demo_log: Path, capsys, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run(capsys, "export", "-o", str(save))
    data = json.loads(save.read_text(encoding="utf-8"))
    del data["players"]
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "replay", "--final", str(save))
    assert code == 0, err
    assert out.splitlines()[0] == "Pixoid, seed 5: Player 1 (red), Player 2 (blue) and Player 3 (green)."
    assert out.splitlines()[-1].startswith("Final scores: Player 1 ")


def test_a_game_still_being_played_keeps_its_secrets(capsys, tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    assert main(["demo", "--no-web", "--speed", "0", "--turns", "1", "--db", str(db)]) == 0
    capsys.readouterr()
    code, _out, err = run(capsys, "replay", "--db", str(db), "--game", "1")
    assert code == 2 and "still being played" in err and "`bitbox games`" in err
    code, out, _err = run(capsys, "games", "--db", str(db))
    assert code == 0 and "Being played" in out and "Winner" not in out
    code, _out, err = run(capsys, "replay", "--db", str(db))
    assert code == 2 and "`bitbox demo`" in err


def test_games_json_keeps_the_machine_form(demo_log: Path, capsys) -> None:
    code, out, err = run(capsys, "games", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [(row["log"], row["id"], row["game"], row["status"]) for row in rows] == [
        (str(demo_log), 1, "pixoid", "over")]
    assert [p["name"] for p in rows[0]["players"]] == ["Ada", "Brice", "Chloé"]
