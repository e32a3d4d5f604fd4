"""SKiDL, imported quietly, and its electrical rules check run with its findings kept.

SKiDL announces at import which KiCad libraries it cannot find and writes ``<script>.log`` and
``<script>.erc`` files into the working folder. The circuits here use the symbol libraries SKiDL
ships as Python (``tool=SKIDL``), need no KiCad, and keep their findings in memory: this module
imports SKiDL in a scratch folder with its console output held back, removes those files, and
collects what its ERC reports.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
import os
import sys
import tempfile


def _import_skidl():
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch, contextlib.redirect_stderr(io.StringIO()):
        if "skidl" not in sys.modules:
            os.chdir(scratch)
        try:
            import skidl
            from skidl.logger import active_logger, erc_logger, stop_log_file_output
            with contextlib.suppress(OSError):
                stop_log_file_output(True)
        finally:
            os.chdir(here)
    for logger in (erc_logger, active_logger.current_logger):
        for handler in list(logger.handlers):
            if isinstance(handler, logging.StreamHandler):
                logger.removeHandler(handler)
    return skidl, erc_logger


skidl, _erc_logger = _import_skidl()


@dataclasses.dataclass(frozen=True)
class Finding:
    """One message of the electrical rules check: ``level`` is ``"error"`` or ``"warning"``."""

    level: str
    message: str

    def __str__(self) -> str:
        return f"{self.level}: {self.message}"


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.findings: list[Finding] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.findings.append(Finding(record.levelname.lower(), record.getMessage().strip()))


def run_erc(circuit) -> list[Finding]:
    """SKiDL's ERC on ``circuit`` (with the rules the circuit added), as a list of findings."""
    collector = _Collector()
    _erc_logger.addHandler(collector)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            circuit.ERC()
    finally:
        _erc_logger.removeHandler(collector)
    return list(dict.fromkeys(collector.findings))


def netlist(circuit, tool: str | None = None) -> str:
    """The circuit's KiCad netlist (KiCad 8 format unless ``tool`` names another)."""
    tool = tool or skidl.KICAD8
    with contextlib.redirect_stderr(io.StringIO()):
        return str(circuit.generate_netlist(tool=tool))
