"""Import time of the board's modules as .py source and as .mpy, on the real MicroPython interpreter.

MicroPython compiles a .py module when it imports it; a .mpy file holds the compiled bytecode.
This bench imports the firmware (every module, as a board does at power-up) on MicroPython's
WebAssembly port under node (firmware/micropython_node.py, release 1.27.0) from each form:

- cold: the first import in a fresh interpreter, as at a board's power-up (the median of
  ``--runs`` fresh interpreters);
- warm: the mean of ``--reps`` imports in one interpreter, each after removing the modules
  from ``sys.modules`` (the files are read and, for source, compiled again each time).

The port's clock ticks in whole milliseconds, hence the means over many imports. A desktop CPU
runs this far faster than the Pico's 125 MHz Cortex-M0+; the ratio between the two forms is
the figure that carries over.

    python bench/firmware_import.py [--runs 5] [--reps 40]

Needs node, ``npm ci --prefix firmware/wasm`` and mpy-cross. The last line is ``mpy_import_speedup: X``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware import micropython_node, mpy_build  # noqa: E402

MODULES = [p.stem for p in mpy_build.source_files() if p.name not in mpy_build.ENTRY_FILES]

COLD = """
import time
t0 = time.ticks_us()
for name in %r:
    __import__(name)
print("cold_us", time.ticks_diff(time.ticks_us(), t0))
"""

WARM = """
import sys, time, gc
NAMES = %r
total = 0
for i in range(%d):
    for name in NAMES:
        if name in sys.modules:
            del sys.modules[name]
    gc.collect()
    t0 = time.ticks_us()
    for name in NAMES:
        __import__(name)
    total += time.ticks_diff(time.ticks_us(), t0)
print("warm_us", total / %d)
"""


def measure(folder: Path, runs: int, reps: int) -> tuple[float, float]:
    """``(cold_ms, warm_ms)`` for the board files in ``folder``."""
    cold = []
    for _ in range(runs):
        out = micropython_node.run_script(folder, COLD % (MODULES,))
        cold.append(int(out.split()[-1]) / 1000.0)
    out = micropython_node.run_script(folder, WARM % (MODULES, reps, reps))
    return statistics.median(cold), float(out.split()[-1]) / 1000.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh interpreters for the cold figure")
    parser.add_argument("--reps", type=int, default=40, help="imports in one interpreter for the warm figure")
    args = parser.parse_args()
    reason = micropython_node.unavailable()
    if reason:
        print(f"cannot run: {reason}")
        return 1
    with tempfile.TemporaryDirectory(prefix="bitbox-bench-") as tmp:
        source = Path(tmp) / "source"
        source.mkdir()
        for path in mpy_build.source_files():
            if path.name not in mpy_build.ENTRY_FILES:
                (source / path.name).write_bytes(path.read_bytes())
        build = mpy_build.build(Path(tmp) / "mpy")
        (build.folder / "main.py").unlink()
        src_bytes = sum(p.stat().st_size for p in source.iterdir())
        mpy_bytes = sum(p.stat().st_size for p in build.modules)
        print(f"MicroPython WebAssembly port under node; compiler: {build.compiler}")
        print(f"{len(MODULES)} modules: {src_bytes} bytes of source, {mpy_bytes} bytes of .mpy")
        src_cold, src_warm = measure(source, args.runs, args.reps)
        mpy_cold, mpy_warm = measure(build.folder, args.runs, args.reps)
    print(f"source: cold {src_cold:.1f} ms, warm {src_warm:.2f} ms")
    print(f".mpy:   cold {mpy_cold:.1f} ms, warm {mpy_warm:.2f} ms")
    print(f"mpy_import_speedup: {src_warm / mpy_warm:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
