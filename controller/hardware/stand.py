"""How high the table camera must be over a mat, and the printed mount that holds it on a stand.

The camera looks straight down at the mat's centre; with its horizontal field of view ``hfov`` and
the capture's aspect ratio (the vertical field follows, for a pinhole), the mat plus a margin on
every side must fit the picture, its long side along the picture's long side:

    height = max((W / 2 + m) / tan(hfov / 2), (D / 2 + m) / tan(vfov / 2)),  tan(vfov / 2) = tan(hfov / 2) * 9 / 16

For the PuXes mat (900 x 600 mm) and a Camera Module 3 (66 degrees) that is about 0.96 m, the
"about 1 m" of docs/table-camera.md.

The mount is a plate with the camera board's four M2 holes on stand-offs and a captive 1/4"-20 nut,
the thread of every photo and light stand: it screws onto the stand's stud or boom arm.

>>> round(camera_height("puxes", "module3"))
958
"""

from __future__ import annotations

import dataclasses
import math
from functools import cached_property
from pathlib import Path
from typing import Any

from controller.dials.ladders import DataFileError, read_toml
from controller.paths import HARDWARE_DIR

CAMERAS = HARDWARE_DIR / "cameras.toml"
MATS = HARDWARE_DIR / "mats"


@dataclasses.dataclass(frozen=True)
class Camera:
    name: str
    title: str
    hfov_deg: float
    aspect: tuple[int, int]
    board_mm: tuple[float, float]
    holes_mm: tuple[tuple[float, float], ...]
    hole_diameter_mm: float

    @property
    def vfov_deg(self) -> float:
        half = math.tan(math.radians(self.hfov_deg) / 2) * self.aspect[1] / self.aspect[0]
        return math.degrees(2 * math.atan(half))


def load_cameras(path: Path | str = CAMERAS) -> tuple[dict[str, Camera], dict[str, float]]:
    """The camera modules and the stand's settings from ``cameras.toml``."""
    path = Path(path)
    data = read_toml(path)
    cameras = {}
    for name, table in data.get("cameras", {}).items():
        try:
            cameras[name] = Camera(name, str(table["title"]), float(table["hfov_deg"]), tuple(table["aspect"]),
                                   tuple(table["board_mm"]), tuple(tuple(h) for h in table["holes_mm"]),
                                   float(table["hole_diameter_mm"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise DataFileError(path, f"cameras.{name}", f"incomplete or malformed ({exc})",
                                "give title, hfov_deg, aspect, board_mm, holes_mm and hole_diameter_mm") from None
    if not cameras:
        raise DataFileError(path, "cameras", "no camera listed", "restore the file from the project")
    return cameras, dict(data.get("stand", {}))


def mat_size(layout: str) -> tuple[float, float]:
    """A mat's width and height in mm, from ``hardware/mats/<layout>.toml`` or a path."""
    path = Path(layout) if layout.endswith(".toml") else MATS / f"{layout}.toml"
    data = read_toml(path)
    try:
        return float(data["width_mm"]), float(data["height_mm"])
    except (KeyError, TypeError, ValueError):
        raise DataFileError(path, "width_mm", "the mat's size is missing", "give width_mm and height_mm") from None


def camera_height(layout: str, camera: str = "module3", margin_mm: float | None = None) -> float:
    """The least height (mm) above the mat at which ``camera`` sees the whole mat and the margin."""
    cameras, stand = load_cameras()
    if camera not in cameras:
        raise DataFileError(CAMERAS, f"cameras.{camera}", "no such camera", f"cameras are {', '.join(cameras)}")
    cam = cameras[camera]
    margin = float(stand.get("margin_mm", 50.0)) if margin_mm is None else margin_mm
    long_side, short_side = sorted(mat_size(layout), reverse=True)
    tan_h = math.tan(math.radians(cam.hfov_deg) / 2)
    tan_v = tan_h * cam.aspect[1] / cam.aspect[0]
    return max((long_side / 2 + margin) / tan_h, (short_side / 2 + margin) / tan_v)


def heights_table() -> list[tuple[str, str, float]]:
    """``(mat, camera title, height mm)`` for every mat and camera the project knows."""
    cameras, _ = load_cameras()
    return [(mat.stem, cam.title, camera_height(mat.stem, name))
            for mat in sorted(MATS.glob("*.toml")) for name, cam in cameras.items()]


class CameraMount:
    """The printed plate for a camera board: built on first use."""

    PLATE_MM = 8.0
    STANDOFF_DIAMETER_MM = 5.4

    def __init__(self, camera: str = "module3", case_spec: dict[str, Any] | None = None) -> None:
        from controller.hardware.case import load_spec

        cameras, self.stand = load_cameras()
        self.camera = cameras[camera]
        self.spec = case_spec or load_spec()

    @property
    def hole_centres(self) -> list[tuple[float, float]]:
        """The board's holes, centred on the plate's axis."""
        xs = [h[0] for h in self.camera.holes_mm]
        ys = [h[1] for h in self.camera.holes_mm]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        return [(x - cx, y - cy) for x, y in self.camera.holes_mm]

    @cached_property
    def part(self):
        from build123d import Align, Box, Cylinder, Pos, RegularPolygon, extrude, fillet, Axis

        c = self.spec["clearance"]
        board_w, board_h = self.camera.board_mm
        size = max(board_w, board_h) + 8.0
        plate = Box(size, size, self.PLATE_MM, align=(Align.CENTER, Align.CENTER, Align.MIN))
        plate = fillet(plate.edges().filter_by(Axis.Z), 3.0)
        standoff = float(self.stand.get("standoff_mm", 4.0))
        for x, y in self.hole_centres:
            plate += Pos(x, y, self.PLATE_MM - 0.01) * Cylinder(self.STANDOFF_DIAMETER_MM / 2, standoff + 0.01,
                                                                align=(Align.CENTER, Align.CENTER, Align.MIN))
            plate -= Pos(x, y, self.PLATE_MM - 4.0) * Cylinder(c["pilot_m2_mm"] / 2, standoff + 5.0,
                                                               align=(Align.CENTER, Align.CENTER, Align.MIN))
        nut_af = float(self.stand["nut_across_flats_mm"]) + c["hole_mm"]
        nut_depth = float(self.stand["nut_thickness_mm"]) + 0.2
        # The hex pocket opens on the plate's top face; the stand's stud comes in through it.
        hexagon = RegularPolygon(nut_af / 2, 6, major_radius=False)
        plate -= Pos(0, 0, -1) * extrude(hexagon, nut_depth + 1)
        plate -= Pos(0, 0, -1) * Cylinder((float(self.stand["thread_diameter_mm"]) + c["hole_mm"]) / 2,
                                          self.PLATE_MM + 2, align=(Align.CENTER, Align.CENTER, Align.MIN))
        return plate
