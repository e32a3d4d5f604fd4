"""Replays every golden playthrough file and compares it with what the engines print now."""

from __future__ import annotations

import difflib
import json

import pytest

from golden import GOLDEN_DIR, expected_text, scenarios
from controller.engines import game_class

SCENARIOS = scenarios()


def test_every_game_has_golden_files() -> None:
    """Every engine of the project lists GOLDEN_SCENARIOS (a game registered from outside keeps its own)."""
    from controller.engines import ENGINE_PACKAGE, game_names

    games = {name for _, name, *_ in SCENARIOS}
    built_in = {name for name in game_names() if game_class(name).__module__.startswith(ENGINE_PACKAGE + ".")}
    assert built_in <= games, f"no GOLDEN_SCENARIOS for {sorted(built_in - games)}"


@pytest.mark.parametrize("stem,name,options,seed,policy", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_golden_playthrough(stem: str, name: str, options: dict, seed: int, policy: int) -> None:
    path = GOLDEN_DIR / f"{stem}.txt"
    assert path.exists(), f"{path} is missing: run python tests/engines/golden.py --regenerate"
    stored = path.read_text(encoding="utf-8")
    now = expected_text(name, options, seed, policy)
    if stored != now:
        diff = "".join(difflib.unified_diff(stored.splitlines(True), now.splitlines(True), "stored", "now", n=2))
        pytest.fail(f"{path.name} no longer matches the engine:\n{diff[:4000]}")


@pytest.mark.parametrize("stem,name,options,seed,policy", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_golden_states_replay_from_actions(stem: str, name: str, options: dict, seed: int, policy: int) -> None:
    """The actions recorded in the file, replayed through the checked path, reach the same states."""
    text = (GOLDEN_DIR / f"{stem}.txt").read_text(encoding="utf-8")
    cls = game_class(name)
    game = cls(cls.OPTIONS.from_dict(options), seed=seed)
    states = [line[len("json: "):] for line in text.splitlines() if line.startswith("json: ")]
    actions = [line.split(": ", 2)[2] for line in text.splitlines() if line.startswith("action: ")]
    assert json.dumps(game.state_dict(), sort_keys=True, separators=(",", ":")) == states[0]
    for index, encoded in enumerate(actions, start=1):
        player = int(text.split("action: player ")[index].split(":", 1)[0])
        game.apply(player, cls.decode_action(json.loads(encoded)))
        assert json.dumps(game.state_dict(), sort_keys=True, separators=(",", ":")) == states[index]
