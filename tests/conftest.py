"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The toy game of docs/adding-a-game.md joins the registry for the whole suite, as any game kept
#: outside the project would: every test that loops over the games covers it too.
os.environ.setdefault("BITBOX_GAMES", "tests.games.duel")

#: Other people's real dice photos live beside the project, not in it (see shared/data/README.md).
SHARED_DATA = Path(os.environ.get("BITBOX_SHARED_DATA", ROOT.parent / "shared" / "data"))


@pytest.fixture
def shared_data() -> Path:
    """The real dice photo sets; the test is skipped, with a message, where they are absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real dice data not found at {SHARED_DATA}: set BITBOX_SHARED_DATA to its folder "
                    "(docs/testing.md says where it comes from and how it is laid out)")
    return SHARED_DATA


@pytest.fixture(autouse=True)
def _state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own state folder, so no test reads or writes the user's."""
    state = tmp_path / "state"
    monkeypatch.setenv("BITBOX_STATE_DIR", str(state))
    return state
