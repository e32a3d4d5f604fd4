"""The game registry's conformance suite: every registered game gets the same tools, with no edit
outside its own folder and its registry line.

Each registered game (the built-in ones and the toy dice duel that tests/conftest.py registers the
way any game kept outside the project is) must: declare what the tools need, load its engine under
its own name, be listed by ``--help``, have its docs page, play its demo to the end with a fixed
seed, and have its dashboard page load in real Chromium with no console error. The engines'
conformance suite (tests/engines/test_conformance.py) runs over the same registry.
"""

from __future__ import annotations

import dataclasses
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.engines import Bot
from controller.games import (
    EXTRA_GAMES_ENV,
    CliOption,
    GameSpec,
    SpecError,
    UnknownGameError,
    game,
    game_names,
    games,
    register,
    unregister,
)
from controller.games.table import TablePlay
from controller.games.wheels import WheelPlay
from controller.paths import PROJECT_ROOT
from controller.service.store import GameStore
from tests.service.conftest import browser  # noqa: F401 - headless Chromium, skipped where absent

SPECS = games()
NAMES = [spec.name for spec in SPECS]


def bitbox(*args: str, state: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BITBOX_STATE_DIR": str(state), "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.run([sys.executable, "-m", "controller", *args], capture_output=True, text=True, env=env,
                          cwd=PROJECT_ROOT, timeout=timeout)


def test_the_toy_game_is_registered_like_any_other():
    assert "duel" in NAMES, f"tests/conftest.py registers the toy game through {EXTRA_GAMES_ENV}"
    assert NAMES[:2] == ["pixoid", "puxes"], "the built-in games come first, in the registry's order"


@pytest.mark.parametrize("spec", SPECS, ids=NAMES)
def test_a_game_declares_what_every_tool_needs(spec: GameSpec):
    engine = spec.load_engine()
    assert engine.NAME == spec.name and engine.TITLE
    fields = {f.name for f in dataclasses.fields(engine.OPTIONS)}
    for option in spec.options:
        assert option.key in fields, f"{spec.name}: {option.flag} sets {option.key!r}, not an option of the engine"
    for seats in spec.seat_counts():
        options = spec.options_from({}, seats, {})
        assert engine(options, seed=1).num_players == seats
    if spec.bot is not None:
        assert issubclass(spec.load_bot(), Bot)
    if spec.plays_on("wheels"):
        assert issubclass(spec.load_wheels(), WheelPlay)
    if spec.plays_on("camera"):
        from controller.vision.mat import load_layout

        assert issubclass(spec.load_table(), TablePlay)
        assert load_layout(spec.mat).name == spec.mat
        assert spec.camera is None or callable(spec.load_camera())
    if spec.plays_on("phones"):
        from controller.games.choices import ChoicePlay

        assert issubclass(spec.load_choices(), ChoicePlay)
    assert set(spec.mode_options) <= set(spec.play), f"{spec.name}: options for a way it is not played"
    assert spec.docs and (PROJECT_ROOT / spec.docs).is_file(), f"{spec.name}: its docs page {spec.docs} is missing"
    assert spec.view_dir is not None and (spec.view_dir / "view.js").is_file()


@pytest.mark.parametrize("command", [(), ("play",), ("demo",)], ids=["bitbox", "play", "demo"])
def test_help_lists_every_game_on_one_line(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([*command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for spec in SPECS:
        assert spec.help_line() in [line.strip() for line in out.splitlines()], f"`bitbox {' '.join(command)} --help` does not list {spec.name}"


@pytest.mark.parametrize("spec", SPECS, ids=NAMES)
def test_the_demo_plays_to_the_end(spec: GameSpec, tmp_path: Path):
    db = tmp_path / "demo.db"
    result = bitbox("demo", spec.name, "--seed", "3", "--speed", "0", "--no-web", "--new", "--db", str(db),
                    state=tmp_path / "state")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "Traceback" not in result.stderr
    assert re.search(r"Game #\d+ is over", result.stdout), result.stdout[-2000:]
    with GameStore(db) as store:
        stored = store.games()[-1]
        assert (stored.game, stored.status) == (spec.name, "over")
        replayed = spec.load_engine().load(store.save_data(stored.id))
    assert replayed.is_over()


@pytest.mark.browser
@pytest.mark.parametrize("spec", SPECS, ids=NAMES)
def test_the_dashboard_page_loads_the_games_view(spec: GameSpec, tmp_path: Path, browser):  # noqa: F811
    env = {**os.environ, "BITBOX_STATE_DIR": str(tmp_path / "state"), "PYTHONPATH": str(PROJECT_ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", "demo", spec.name, "--seed", "3", "--speed", "0", "--turns", "1",
         "--keep-serving", "--port", "0", "--token", "t" * 32, "--new", "--db", str(tmp_path / "demo.db")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=PROJECT_ROOT)
    try:
        url = None
        seen = []
        for line in proc.stdout:
            seen.append(line)
            found = re.search(r"(?:Dashboard|Table page): (http://\S+?)(?:#\S*)?$", line.strip())
            if found:
                url = found.group(1)
                break
        assert url, "".join(seen)
        page = browser.new_page(viewport={"width": 1000, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
        page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        view = f"{url.rstrip('/')}/games/{spec.name}/view.js"
        with page.expect_response(lambda response: response.url == view, timeout=20000) as loaded:
            page.goto(url)
        assert loaded.value.status == 200
        page.wait_for_function("window.__bitbox && window.__bitbox.messages > 0", timeout=20000)
        page.wait_for_function(f"document.body.innerText.includes({spec.title!r})", timeout=20000)
        page.wait_for_function("document.querySelector('#view').childElementCount > 0", timeout=20000)
        assert errors == []
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_an_unknown_game_is_refused_with_the_known_ones():
    with pytest.raises(UnknownGameError, match="the games are: pixoid, puxes"):
        game("chess")


def test_a_declaration_missing_what_its_play_needs_is_refused():
    with pytest.raises(SpecError, match="declares its wheel rules"):
        GameSpec("toy", "Toy", "a toy", "tests.games.duel.engine:DuelGame", (2, 2), play=("wheels",))
    with pytest.raises(SpecError, match="table referee and its mat"):
        GameSpec("toy", "Toy", "a toy", "tests.games.duel.engine:DuelGame", (2, 2), play=("camera",))
    with pytest.raises(SpecError, match="one or more of wheels, camera"):
        GameSpec("toy", "Toy", "a toy", "tests.games.duel.engine:DuelGame", (2, 2), play=("telepathy",))
    with pytest.raises(SpecError, match="players must be"):
        GameSpec("toy", "Toy", "a toy", "tests.games.duel.engine:DuelGame", (3, 2), wheels="x:y")
    with pytest.raises(SpecError, match="declared twice"):
        GameSpec("toy", "Toy", "a toy", "tests.games.duel.engine:DuelGame", (2, 2), wheels="x:y",
                 options=(CliOption("--fast", "fast", "fast"), CliOption("--fast", "quick", "quick")))


def test_a_declaration_whose_engine_is_another_game_is_refused():
    spec = dataclasses.replace(game("duel"), name="not-duel")
    with pytest.raises(SpecError, match="registered as 'duel'"):
        spec.load_engine()


def test_a_game_registered_at_run_time_is_listed_and_can_be_taken_away():
    spec = dataclasses.replace(game("duel"), name="duel-copy", engine="tests.games.duel.engine:DuelGame")
    register(spec)
    try:
        assert "duel-copy" in game_names() and game("duel-copy") is spec
    finally:
        unregister("duel-copy")
    assert "duel-copy" not in game_names()


def test_a_game_module_that_cannot_be_imported_is_named(tmp_path: Path):
    env = {**os.environ, EXTRA_GAMES_ENV: "tests.games.no_such_game", "PYTHONPATH": str(PROJECT_ROOT),
           "BITBOX_STATE_DIR": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "controller", "play", "--help"], capture_output=True, text=True,
                            env=env, cwd=PROJECT_ROOT, timeout=60)
    assert result.returncode != 0
    assert "BITBOX_GAMES names the module 'tests.games.no_such_game'" in result.stderr


def test_the_readme_lists_every_built_in_game_with_its_docs_page():
    from controller.games import GAME_MODULES

    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if line.startswith("| `")]
    for spec in SPECS:
        if f"controller.games.{spec.name}" not in GAME_MODULES:
            continue
        row = next((r for r in rows if r.startswith(f"| `{spec.name}` ")), None)
        assert row is not None, f"README's table of games has no row for {spec.name}"
        assert f"({spec.docs})" in row, f"README's row for {spec.name} does not link {spec.docs}"
