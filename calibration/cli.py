"""``bitbox calibrate ...``: gathers the calibration procedures' subcommands."""

from __future__ import annotations

import argparse

from controller.cli import register_modules
from controller.i18n import _

#: Modules each adding one ``bitbox calibrate`` subcommand through ``register(subparsers)``.
PROCEDURES: tuple[str, ...] = (
    "calibration.dials",
    "calibration.camera",
    "calibration.faces",
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help=_("calibrate the controllers' wheels, the camera, the mat or the dice faces"),
        description=_("Guided calibration procedures. Profiles are stored on the controller board "
                      "(USB build) or under the state folder (BITBOX_STATE_DIR)."),
    )
    sub = parser.add_subparsers(dest="procedure", metavar=_("WHAT"), required=True)
    register_modules(sub, PROCEDURES)
