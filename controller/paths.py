"""Where the project's data files live.

Hardware facts (pin maps, mat layouts, wheel ladders, example boards) are data files read at start-up.
They live in the source tree (``hardware/``, ``controller/engines/*/data``); the package is installed
editable (``pip install -e .``) so these paths resolve to the checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The checkout's top-level folder (the one holding ``pyproject.toml``).
PROJECT_ROOT = Path(__file__).resolve().parent.parent

#: Hardware data: pin maps, bills of materials, mat layouts, systemd and udev files.
HARDWARE_DIR = PROJECT_ROOT / "hardware"

#: Firmware sources that are copied onto the controller boards.
FIRMWARE_DIR = PROJECT_ROOT / "firmware"


def state_dir() -> Path:
    """The folder for the service's database, calibration profiles and logs.

    ``BITBOX_STATE_DIR`` overrides it; the default is ``~/.local/state/bitbox``.
    """
    env = os.environ.get("BITBOX_STATE_DIR")
    base = Path(env) if env else Path.home() / ".local" / "state" / "bitbox"
    base.mkdir(parents=True, exist_ok=True)
    return base
