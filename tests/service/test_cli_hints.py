"""A command that stops says what to type next."""

from __future__ import annotations

from controller.cli import main
from controller.paths import state_dir
from controller.service.store import GameStore


def test_games_without_the_services_log_points_at_the_demos_log(capsys):
    GameStore(state_dir() / "demo.db").close()
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert "no event log at" in err and f"--db {state_dir() / 'demo.db'}" in err


def test_games_without_any_log_says_to_give_one(capsys):
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert "give one with --db" in err and "for example" not in err


def test_winners_are_listed_as_a_sentence_says_them():
    from controller.service.runner import spoken_list

    assert spoken_list(["Ada"]) == "Ada"
    assert spoken_list(["Ada", "Brice"]) == "Ada and Brice"
    assert spoken_list(["Brice", "Chloé", "Dinesh"]) == "Brice, Chloé and Dinesh"


def test_until_over_cancels_a_turn_limit(tmp_path, capsys):
    db = tmp_path / "duel.db"
    assert main(["demo", "duel", "--speed", "0", "--no-web", "--turns", "1", "--until-over", "--db", str(db)]) == 0
    assert "is over" in capsys.readouterr().out
