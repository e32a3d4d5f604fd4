"""What the voice's tests share: real espeak-ng (skipped, saying how to install it, where it is
missing), a clock the tests move by hand, waiting for a condition, and espeak-ng's own rendering
of a sentence to compare what the voice played with."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from controller.voice.espeak import VOICES
from controller.voice.output import read_wav


@pytest.fixture
def espeak() -> str:
    """The espeak-ng program; the test is skipped where it is not installed."""
    path = shutil.which("espeak-ng")
    if path is None:
        pytest.skip("espeak-ng is not installed: sudo apt install espeak-ng (the CI script installs it)")
    return path


class ManualClock:
    """A clock that moves only when the test says so (how long calls have waited)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def wait_for(predicate: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    """Poll ``predicate`` until it is true; fail saying ``what`` was awaited."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.005)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def rendered(text: str, lang: str, folder: Path, volume: int = 100, speed: int = 160) -> np.ndarray:
    """``text`` as ``espeak-ng -w`` writes it (the voice's voice and pace), scaled to ``volume``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"ref-{abs(hash((text, lang, speed)))}.wav"
    subprocess.run([shutil.which("espeak-ng") or "espeak-ng", "-v", VOICES[lang], "-s", str(speed), "-b", "1",
                    "-w", str(path), "--", text], check=True)
    samples, _rate = read_wav(path)
    return (samples.astype(np.int32) * volume // 100).astype(np.int16)
