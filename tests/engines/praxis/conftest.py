"""Every test here reads English where it asserts English, whatever the machine's locale says."""

from __future__ import annotations

import pytest

from controller import i18n


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process's language is English for the test (sentences said "now" are the msgids)."""
    monkeypatch.setattr(i18n, "_language", "en")
