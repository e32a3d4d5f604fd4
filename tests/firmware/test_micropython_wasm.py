"""The board's pure modules on the real MicroPython interpreter (its WebAssembly port, under node).

``mp_vectors.py`` prints test vectors of framing (COBS, CRC-16, the stream decoder), protocol
(every message encoded and decoded, malformed payloads), ladder (thresholds, hysteresis sweeps,
calibration), debounce (with an injected clock) and storage's profile checks. It runs under
CPython and under MicroPython 1.27.0, from source and from the .mpy files mpy-cross makes, and
the outputs must be the same byte for byte. Skipped, with the reason, where node or the npm
package (``npm ci --prefix firmware/wasm``) is missing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import board_python, micropython_node, mpy_build

REASON = micropython_node.unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "-")

VECTORS = Path(__file__).with_name("mp_vectors.py")


def board_folder(folder: Path, modules: list[Path]) -> Path:
    """``folder`` holding ``modules`` (board .py or .mpy files) and the vectors script."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in modules + [VECTORS]:
        shutil.copyfile(path, folder / path.name)
    return folder


def source_modules() -> list[Path]:
    return [p for p in mpy_build.source_files() if p.name not in mpy_build.ENTRY_FILES]


def same_lines(expected: str, got: str, where: str) -> None:
    want, have = expected.splitlines(), got.splitlines()
    for i, (a, b) in enumerate(zip(want, have)):
        assert a == b, f"{where}, line {i + 1} differs:\n  CPython:     {a[:300]}\n  MicroPython: {b[:300]}"
    assert len(want) == len(have), f"{where}: {len(want)} lines from CPython, {len(have)} from MicroPython"
    assert got == expected


@pytest.fixture(scope="module")
def cpython_vectors(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = board_folder(tmp_path_factory.mktemp("cpython"), source_modules())
    result = subprocess.run([sys.executable, VECTORS.name], cwd=folder, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_vectors_hold_the_documented_values(cpython_vectors: str) -> None:
    lines = cpython_vectors.splitlines()
    assert "crc check 29b1" in lines and lines[-1] == "done"
    # The examples of firmware/PROTOCOL.md: STATE, HELLO_REQ seq 0, SET_LED blink.
    for frame in ("07010201020207040101010103f32a00", "0301810103fe1e00", "030183050202bb9900"):
        assert any(line.startswith("encode " + frame) for line in lines), frame
    assert len(lines) > 100


def test_source_modules_on_micropython_match_cpython(cpython_vectors: str, tmp_path: Path) -> None:
    folder = board_folder(tmp_path, source_modules())
    same_lines(cpython_vectors, micropython_node.run_script(folder, folder / VECTORS.name), "source on MicroPython")


def test_compiled_modules_on_micropython_match_cpython(cpython_vectors: str, tmp_path: Path) -> None:
    try:
        build = mpy_build.build(tmp_path / "build")
    except mpy_build.BuildError as exc:
        pytest.skip(str(exc))
    folder = board_folder(tmp_path / "mpy", build.modules)  # .mpy only: no .py to fall back on
    assert not [p for p in folder.glob("*.py") if p.name != VECTORS.name]
    same_lines(cpython_vectors, micropython_node.run_script(folder, folder / VECTORS.name), ".mpy on MicroPython")


def test_the_flash_version_query_runs_on_micropython(tmp_path: Path) -> None:
    board = board_python.parse_query_output(micropython_node.run_script(tmp_path, board_python.QUERY))
    assert board.name == "micropython" and board.version[:2] == mpy_build.MICROPYTHON_VERSION
    assert board.mpy_version == 6  # what mpy-cross 1.27 writes: flash accepts this board
    assert board_python.incompatibility(board, mpy_build.MpyHeader(6, 0, 31)) is None


def test_main_py_starts_up_on_micropython_and_explains_a_missing_machine(tmp_path: Path) -> None:
    folder = board_folder(tmp_path, mpy_build.source_files())
    out = micropython_node.run_script(folder, "import main\nprint('main.py returned')\n")
    # The WebAssembly port has no `machine`: app.run() fails there, and main.py says so instead of raising.
    assert "bitbox: the firmware could not start: ImportError" in out and "machine" in out
    assert out.rstrip().endswith("main.py returned")


def test_a_failing_script_reports_micropythons_message(tmp_path: Path) -> None:
    with pytest.raises(micropython_node.MicroPythonError, match="ZeroDivisionError"):
        micropython_node.run_script(tmp_path, "print(1 // 0)\n")
