"""Every module the project imports is a declared dependency, and every declared one is used (deptry,
configured in pyproject.toml's ``[tool.deptry]``: the exceptions are written there with their reasons)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_imports_and_the_declared_dependencies_agree() -> None:
    pytest.importorskip("deptry", reason="deptry is in the dev extra: pip install -e '.[dev]'")
    result = subprocess.run([sys.executable, "-m", "deptry", "."], cwd=ROOT, capture_output=True, text=True,
                            timeout=300, env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stdout + result.stderr
