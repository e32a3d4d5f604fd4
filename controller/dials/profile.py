"""Calibration profiles of the direct build: each controller's measured wheel ladders.

A profile is a JSON file (``dials-profile.json`` under :func:`controller.paths.state_dir`)
written by ``bitbox calibrate dials``. Controllers and wheels missing from it use the nominal
ladder of ``hardware/ladders.toml``. Writes are atomic (temporary file, fsync, rename), so a
power cut leaves the old profile or the new one, never half of one.

(The USB build keeps its calibration on each controller board instead.)
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
from pathlib import Path
from typing import Any

from controller.dials.ladders import WHEEL_ORDER, DataFileError, LadderDesign
from controller.paths import state_dir
from firmware.board.ladder import Ladder, LadderError

#: File name of the direct build's profile inside the state folder.
PROFILE_NAME = "dials-profile.json"

#: Version of the profile format.
SCHEMA = 1


def default_profile_path() -> Path:
    return state_dir() / PROFILE_NAME


@dataclasses.dataclass
class DialProfile:
    """Calibrated ladders by controller id and wheel name, plus what ADC measured them."""

    adc: str = ""
    controllers: dict[str, dict[str, Ladder]] = dataclasses.field(default_factory=dict)
    created: str = ""

    def ladder(self, controller_id: str, wheel: str, design: LadderDesign) -> Ladder:
        """The calibrated ladder for one wheel, else the design's nominal one (a fresh copy either way)."""
        ladder = self.controllers.get(controller_id, {}).get(wheel)
        if ladder is None:
            return design.nominal_ladder(wheel)
        return Ladder.from_list(ladder.to_list())

    def ladders(self, controller_id: str, design: LadderDesign) -> dict[str, Ladder]:
        return {wheel: self.ladder(controller_id, wheel, design) for wheel in WHEEL_ORDER}

    def set(self, controller_id: str, wheel: str, ladder: Ladder) -> None:
        self.controllers.setdefault(controller_id, {})[wheel] = ladder

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "adc": self.adc,
            "created": self.created,
            "controllers": {
                cid: {wheel: ladder.to_list() for wheel, ladder in wheels.items()}
                for cid, wheels in sorted(self.controllers.items())
            },
        }

    @classmethod
    def from_json(cls, data: Any, path: Path | str = "<profile>") -> DialProfile:
        if not isinstance(data, dict):
            raise DataFileError(path, "", "a profile is a JSON object", "recalibrate with `bitbox calibrate dials`")
        if data.get("schema") != SCHEMA:
            raise DataFileError(path, "schema", f"unsupported profile version {data.get('schema')!r} (expected {SCHEMA})",
                                "recalibrate with `bitbox calibrate dials`")
        controllers = data.get("controllers")
        if not isinstance(controllers, dict):
            raise DataFileError(path, "controllers", "missing or not an object", "recalibrate with `bitbox calibrate dials`")
        profile = cls(adc=str(data.get("adc", "")), created=str(data.get("created", "")))
        for cid, wheels in controllers.items():
            if not isinstance(wheels, dict):
                raise DataFileError(path, f"controllers.{cid}", "not an object of wheels",
                                    "recalibrate that controller")
            for wheel, stored in wheels.items():
                if wheel not in WHEEL_ORDER:
                    raise DataFileError(path, f"controllers.{cid}.{wheel}", "no such wheel",
                                        f"wheels are {', '.join(WHEEL_ORDER)}; remove it, or recalibrate with "
                                        f"`bitbox calibrate dials --controller {cid}`")
                try:
                    profile.set(str(cid), wheel, Ladder.from_list(stored))
                except LadderError as exc:
                    raise DataFileError(path, f"controllers.{cid}.{wheel}", str(exc),
                                        f"recalibrate with `bitbox calibrate dials --controller {cid} --wheel {wheel}`") from None
        return profile


def load_profile(path: Path | str | None = None, missing_ok: bool = True) -> DialProfile:
    """The profile at ``path`` (default: the state folder's); empty when absent and ``missing_ok``."""
    path = Path(path) if path is not None else default_profile_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if missing_ok:
            return DialProfile()
        raise DataFileError(path, "", "no calibration profile", "run `bitbox calibrate dials` first") from None
    except OSError as exc:
        raise DataFileError(path, "", f"cannot read it ({exc.strerror})", "check its permissions") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(path, "", f"not valid JSON ({exc})",
                            "recalibrate with `bitbox calibrate dials`, or restore a backup") from None
    return DialProfile.from_json(data, path)


def save_profile(profile: DialProfile, path: Path | str | None = None) -> Path:
    """Write ``profile`` atomically; returns the path written."""
    path = Path(path) if path is not None else default_profile_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not profile.created:
        profile.created = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(profile.to_json(), fh, indent=1)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return path
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return path
