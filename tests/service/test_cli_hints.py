"""A command that stops says what to type next; a command with nothing to show says how to get some."""

from __future__ import annotations

from controller.cli import main
from controller.paths import state_dir
from controller.service.store import GameStore


def test_games_reads_the_demos_log_when_the_service_has_none(capsys):
    with GameStore(state_dir() / "demo.db") as store:
        store.new_game("pixoid", {"players": 4}, 1, {"players": [{"name": "Ada", "bot": True}]})
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert f"In {state_dir() / 'demo.db'}:" in out and "Ada (red, bot)" in out and "Being played" in out


def test_games_without_any_log_says_how_to_get_one(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "No game is stored" in out and "`bitbox demo`" in out


def test_games_with_a_log_that_is_not_there_names_the_way_back(capsys, tmp_path):
    assert main(["games", "--db", str(tmp_path / "nope.db")]) == 2
    err = capsys.readouterr().err
    assert "no event log at" in err and "`bitbox games` without --db" in err


def test_winners_are_listed_as_a_sentence_says_them():
    from controller.service.runner import spoken_list

    assert spoken_list(["Ada"]) == "Ada"
    assert spoken_list(["Ada", "Brice"]) == "Ada and Brice"
    assert spoken_list(["Brice", "Chloé", "Dinesh"]) == "Brice, Chloé and Dinesh"
    assert spoken_list(["Brice", "Chloé", "Dinesh"], "fr") == "Brice, Chloé et Dinesh"


def test_until_over_cancels_a_turn_limit(tmp_path, capsys):
    db = tmp_path / "duel.db"
    assert main(["demo", "duel", "--speed", "0", "--no-web", "--turns", "1", "--until-over", "--db", str(db)]) == 0
    assert "is over" in capsys.readouterr().out
