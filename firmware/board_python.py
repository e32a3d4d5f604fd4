"""Which MicroPython a board runs, and whether the firmware can go onto it.

``bitbox firmware flash`` runs :data:`QUERY` on the board with ``mpremote exec`` before copying
anything, parses the line it prints with :func:`parse_query_output`, and refuses with
:func:`incompatibility`'s message when the files would not run there: not MicroPython, a
MicroPython older than the firmware needs, or compiled files in a ``.mpy`` version the board
cannot load (a board reports the version it loads as ``sys.implementation._mpy``).
"""

from __future__ import annotations

import dataclasses
import json

from firmware.mpy_build import MICROPYTHON_VERSION, MpyHeader

#: The oldest MicroPython the firmware runs on (as source).
MIN_MICROPYTHON = (1, 22)

#: Marks the query's answer among whatever else the board prints.
MARKER = "BITBOX-MPY"

#: One line of MicroPython that prints the board's implementation after :data:`MARKER`.
QUERY = ('import sys, json; i = sys.implementation; print("%s", json.dumps([i.name, list(i.version[:3]), '
         'getattr(i, "_mpy", None), getattr(i, "_machine", ""), getattr(i, "_build", "")]))' % MARKER)

#: What to do when the board's MicroPython does not fit, for messages.
INSTALL_ADVICE = ("install MicroPython %d.%d on it (firmware/README.md, step 1; `bitbox firmware bootloader` "
                  "opens the RPI-RP2 drive) and flash again" % MICROPYTHON_VERSION)


@dataclasses.dataclass(frozen=True)
class BoardPython:
    """A board's Python, from ``sys.implementation``: ``_mpy`` is ``None`` where it cannot load .mpy files."""

    name: str
    version: tuple[int, int, int]
    mpy: int | None
    machine: str = ""
    build: str = ""

    @property
    def version_text(self) -> str:
        return ".".join(str(n) for n in self.version)

    @property
    def mpy_version(self) -> int | None:
        """The .mpy version the board loads (the low byte of ``_mpy``)."""
        return None if self.mpy is None else self.mpy & 0xFF

    @property
    def mpy_sub_version(self) -> int | None:
        return None if self.mpy is None else (self.mpy >> 8) & 3

    def describe(self) -> str:
        """``MicroPython 1.27.0 (Raspberry Pi Pico with RP2040; .mpy 6.3)``."""
        name = "MicroPython" if self.name == "micropython" else self.name
        details = [d for d in (self.machine,) if d]
        if self.mpy is not None:
            details.append(".mpy %d.%d" % (self.mpy_version, self.mpy_sub_version))
        return "%s %s%s" % (name, self.version_text, " (%s)" % "; ".join(details) if details else "")


def parse_query_output(text: str) -> BoardPython:
    """The :class:`BoardPython` in what :data:`QUERY` printed; :class:`ValueError` if it is not there."""
    for line in text.splitlines():
        if line.startswith(MARKER + " "):
            try:
                name, version, mpy, machine, build = json.loads(line[len(MARKER) + 1:])
                numbers = tuple(int(v) for v in version) + (0, 0, 0)
                return BoardPython(name=str(name), version=numbers[:3],  # type: ignore[arg-type]
                                   mpy=None if mpy is None else int(mpy), machine=str(machine), build=str(build))
            except (ValueError, TypeError) as exc:
                raise ValueError("the board's answer %r is malformed (%s)" % (line, exc)) from None
    raise ValueError("no %s line in the board's answer: %r" % (MARKER, text.strip()[-200:]))


def incompatibility(board: BoardPython, header: MpyHeader | None, compiler: str = "mpy-cross") -> str | None:
    """Why the firmware cannot go onto ``board`` (``header``: the compiled files', ``None`` for source), or ``None``."""
    if board.name != "micropython":
        return "the board runs %s, not MicroPython: %s" % (board.describe(), INSTALL_ADVICE)
    if board.version[:2] < MIN_MICROPYTHON:
        return ("the board runs MicroPython %s, older than %d.%d, the oldest this firmware runs on: %s"
                % (board.version_text, MIN_MICROPYTHON[0], MIN_MICROPYTHON[1], INSTALL_ADVICE))
    if header is None:
        return None
    if board.mpy is None:
        return ("the board's MicroPython %s cannot load compiled .mpy files: flash the source files with "
                "`bitbox firmware flash --source`, or %s" % (board.version_text, INSTALL_ADVICE))
    if board.mpy_version != header.version:
        return ("the board's MicroPython %s loads .mpy version %d, but %s compiled the firmware to .mpy "
                "version %d: %s, or flash the source files with `bitbox firmware flash --source`"
                % (board.version_text, board.mpy_version, compiler, header.version, INSTALL_ADVICE))
    return None
