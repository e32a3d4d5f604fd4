"""Fixtures running the firmware's own logic under CPython against the fake ``machine``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.firmware.fake_board import Bench


@pytest.fixture
def bench(tmp_path: Path) -> Bench:
    return Bench(tmp_path)
