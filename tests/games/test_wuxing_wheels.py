"""Wuxing duel on the wheels: every legal action can be dialled, illegal presses are refused with
the game's words, secrets lock their controller, and the dashboard page draws both modes."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller import i18n
from controller.dials.state import DIRECTIONS, ControllerState
from controller.engines.wuxing import Discard, Flip, Move, Play, Stay, WuxingGame
from controller.engines.wuxing.words import REFUSALS
from controller.games import game as game_spec
from controller.games.wheels import TURNING, Press, Refused
from controller.games.wuxing.wheels import WuxingWheels
from controller.paths import PROJECT_ROOT
from tests.service.conftest import browser  # noqa: F401 - headless Chromium, skipped where absent


class Table:
    def __init__(self, bots: tuple[int, ...] = ()) -> None:
        self.bots = bots

    def seat_name(self, seat: int) -> str:
        return ["Ada", "Brice"][seat]

    def piece_name(self, piece: int | None) -> str:
        return ["red", "blue"][piece or 0]

    def bot_holds(self, seat: int, piece: int) -> bool:
        return seat in self.bots


def dialled(targets: dict[str, int]) -> ControllerState:
    """A controller whose wheels a hand set to ``targets`` (the others left on arbitrary positions)."""
    return ControllerState("c", connected=True, direction=targets.get("direction", 5), number=targets.get("number", 9),
                           symbol=targets.get("symbol", 3))


@pytest.mark.parametrize("mode", ["chemin", "theatre"])
def test_every_legal_action_is_what_its_wheel_targets_mean(mode: str) -> None:
    """A bot's hand sets the wheels with wheel_targets; pressing ready must give back its action."""
    rng = random.Random(3)
    seen = set()
    for seed in range(12):
        game = WuxingGame({"mode": mode}, seed=seed)
        play = WuxingWheels(game)
        while not game.is_over():
            for seat in game.current_players():
                for action in game.legal_actions(seat):
                    assert play.press(seat, dialled(play.wheel_targets(action)), Table()) == Press(seat, action)
                    seen.add(type(action))
            seat = game.current_players()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    expected = {Discard, Play} if mode == "chemin" else {Move, Stay, Flip}
    assert seen == expected


def test_chemin_cards_are_secret_and_lock_the_controller_theatre_moves_do_not() -> None:
    chemin = WuxingWheels(WuxingGame({"mode": "chemin"}, seed=1))
    assert chemin.locks(1, Discard(0)) == 1 and chemin.locks(0, Play(2)) == 0
    public = chemin.public({0: dialled({"number": 3})})
    assert "aim" not in public and public["numbers"]["3"] == "earth", "a chosen number is never shown"
    theatre = WuxingWheels(WuxingGame({"mode": "theatre"}, seed=1))
    assert theatre.locks(0, Move(0, "up", 1)) is None
    assert theatre.decision_point() != (theatre.game.apply(0, theatre.game.legal_actions(0)[0]) and
                                        theatre.decision_point())


def test_presses_the_rules_refuse_are_told_in_the_games_words() -> None:
    game = WuxingGame({"mode": "chemin", "no_discard": True}, seed=1)
    play = WuxingWheels(game)
    with pytest.raises(Refused, match="turn the number wheel to 1 to 5"):
        play.press(0, dialled({"number": 0}), Table())
    with pytest.raises(Refused, match=re.escape(i18n.said(TURNING, "en"))):
        play.press(0, ControllerState("c", connected=True), Table())
    with pytest.raises(Refused, match=r"blue is played by a bot \(Brice\)"):
        play.press(1, dialled({"number": 1}), Table(bots=(1,)))
    assert play.refusal("card-in-hand", "reason") == i18n.message(REFUSALS["card-in-hand"])
    game = WuxingGame({"mode": "theatre"}, seed=1)
    play = WuxingWheels(game)
    with pytest.raises(Refused, match="Ada plays now: wait for your turn"):
        play.press(1, dialled({"number": 1}), Table())
    press = play.press(0, dialled({"symbol": 0, "direction": DIRECTIONS.index("up-left"), "number": 1}), Table())
    with pytest.raises(ValueError) as info:
        game.apply(press.seat, press.action)
    assert play.refusal(info.value.rule, info.value.reason) == i18n.message(REFUSALS["no-diagonal"])
    with pytest.raises(Refused, match="A to pay a blue token or B"):
        game.rules.board = [-1 if i not in game.rules.pawns[0] + game.rules.pawns[1] else e
                            for i, e in enumerate(game.rules.board)]
        play.press(0, dialled({"symbol": 2, "number": 0}), Table())


def test_the_theatre_shows_where_the_player_to_move_is_aiming() -> None:
    game = WuxingGame({"mode": "theatre"}, seed=1)
    play = WuxingWheels(game)
    move = game.legal_actions(0)[0]
    aim = play.public({0: dialled(play.wheel_targets(move))})["aim"]
    assert aim["legal"] and aim["to"] == list(divmod(game.rules.target(0, move), 5))


def test_after_a_chemin_game_the_dashboard_gets_each_duels_equilibrium() -> None:
    from controller.engines.wuxing import WuxingBot

    game = WuxingGame({"mode": "chemin"}, seed=2)
    bots = {0: WuxingBot(1), 1: WuxingBot(2)}
    play = WuxingWheels(game)
    assert play.public({})["review"] is None
    while not game.is_over():
        for seat in game.current_players():
            game.apply(seat, bots[seat].choose(game, seat))
    review = play.public({})["review"]
    assert review[0]["phase"] == "discard" and len(review) == 1 + game.rules.round
    for entry in review:
        for seat in (0, 1):
            assert sum(entry["strategies"][seat].values()) == pytest.approx(1.0, abs=0.01)
            assert entry["cards"][seat] in entry["strategies"][seat]


@pytest.mark.browser
@pytest.mark.parametrize("mode", ["theatre", "chemin"])
def test_the_dashboard_draws_a_finished_game_of_each_mode(mode: str, tmp_path: Path, browser):  # noqa: F811
    env = {**os.environ, "BITBOX_STATE_DIR": str(tmp_path / "state"), "PYTHONPATH": str(PROJECT_ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", "demo", "wuxing", "--mode", mode, "--seed", "3", "--speed", "0",
         "--keep-serving", "--port", "0", "--token", "t" * 32, "--new", "--db", str(tmp_path / "demo.db")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=PROJECT_ROOT)
    try:
        url, seen = None, []
        for line in proc.stdout:
            seen.append(line)
            found = re.search(r"Dashboard: (http://\S+?)(?:#\S*)?$", line.strip())
            if found:
                url = found.group(1)
            if "The dashboard stays up" in line:
                break
        assert url, "".join(seen)
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
        page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.goto(url)
        page.wait_for_function("document.querySelector('#wuxing-board') && "
                               "document.querySelector('#wuxing-board').childElementCount > 0", timeout=20000)
        page.wait_for_function("document.querySelector('#wuxing-last').textContent.startsWith('Last:')", timeout=20000)
        text = page.inner_text("body")
        assert "wuxing tile" in text.lower() and "dominates" in text
        if mode == "theatre":
            assert page.locator("#wuxing-board .tile").count() == 25
            assert "pawns" in page.inner_text("#wuxing-players")
        else:
            assert page.locator("#wuxing-board .island").count() == 5
            page.wait_for_function("!document.querySelector('#wuxing-review').closest('section').hidden", timeout=20000)
            assert "equilibrium" in page.inner_text("#wuxing-review")
        assert errors == []
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_the_registry_declares_one_game_with_a_mode_option() -> None:
    spec = game_spec("wuxing")
    assert spec.players == (2, 2) and [o.key for o in spec.options][0] == "mode"
    assert (spec.view_dir / "view.js").is_file() and (spec.view_dir / "view.css").is_file()
