"""Run Python on the real MicroPython interpreter under node, without a board.

Why: the board files are written to run unchanged on MicroPython, and CPython tests cannot
show where MicroPython differs (its integers, bytes, dicts, missing methods). The official
MicroPython WebAssembly port (npm ``@micropython/micropython-webassembly-pyscript``, pinned in
``firmware/wasm/package.json``) is the same interpreter core as the Pico's, release 1.27.0,
without ``machine``: it runs the pure modules (framing, protocol, ladder, debounce, storage's
checks) and imports compiled .mpy files.

Install the package once with ``npm ci --prefix firmware/wasm`` (node 18 or newer; Debian's
``nodejs`` is fine). :func:`unavailable` says what is missing, for tests that skip.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from controller.paths import FIRMWARE_DIR

#: The npm project pinning the MicroPython WebAssembly port.
WASM_DIR = FIRMWARE_DIR / "wasm"

#: The node script that loads MicroPython, puts a folder on its path and runs a script.
RUNNER = WASM_DIR / "run_micropython.mjs"

#: The installed package.
PACKAGE_DIR = WASM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"

#: How to install it, for messages.
INSTALL = "npm ci --prefix firmware/wasm"


class MicroPythonError(RuntimeError):
    """The script raised an exception on MicroPython (the message is MicroPython's)."""


def find_node() -> str | None:
    return shutil.which("node") or shutil.which("nodejs")


def unavailable() -> str | None:
    """Why MicroPython cannot run here (node or the npm package missing), or ``None``."""
    if find_node() is None:
        return "node is not installed (Debian: apt-get install nodejs npm), so MicroPython's WebAssembly port cannot run"
    if not (PACKAGE_DIR / "micropython.mjs").is_file():
        return f"the MicroPython WebAssembly package is not installed: run `{INSTALL}`"
    return None


def run_script(folder: Path, script: Path | str, timeout: float = 120.0) -> str:
    """What ``script`` (a path, or source text) prints on MicroPython with ``folder``'s files importable.

    The files of ``folder`` (.py or .mpy) are copied into MicroPython's own filesystem, which is
    its working directory and first on ``sys.path``. Raises :class:`MicroPythonError` when the
    script fails there, :class:`RuntimeError` when MicroPython cannot run here.
    """
    reason = unavailable()
    if reason is not None:
        raise RuntimeError(reason)
    with tempfile.TemporaryDirectory(prefix="bitbox-mp-") as tmp:
        if not isinstance(script, Path):
            path = Path(tmp) / "script.py"
            path.write_text(script, encoding="utf-8")
            script = path
        result = subprocess.run([find_node() or "node", str(RUNNER), str(folder), str(script)],
                                capture_output=True, text=True, timeout=timeout, cwd=WASM_DIR)
    if result.returncode != 0:
        raise MicroPythonError(result.stderr.strip() or f"node exited with status {result.returncode}")
    return result.stdout
