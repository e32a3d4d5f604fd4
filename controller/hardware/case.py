"""The printable controller (USB build), its knobs, in build123d: sized from ``hardware/case.toml``.

- The **lid** holds the three rotary switches, the ready button and the LED, with an index mark
  engraved beside each knob; its walls run down to the table and four corner bosses take the base's
  screws. It prints top face down, without supports: every hole is vertical, and the slot for the
  Pico's USB plug opens at the lid's lower edge.
- The **base** is a plate that fits inside the lid's walls, with four stand-offs for the Pico.
- The **knobs** (one per wheel) carry their wheel's labels on the skirt, placed so that the label
  under the index mark is the position the switch is in: label k sits 30 degrees x k anticlockwise
  of the index (a 12-way switch turns 30 degrees a position), and the direction arrows are drawn so
  that each points its own way once turned under the index.

Coordinates: x to the right, y away from the player, z up; the lid's top at ``z = height``.

>>> spec = load_spec()
>>> layout = Layout(spec)
>>> round(layout.outer[0]), round(layout.outer[1]), round(layout.height, 1)
(187, 78, 41.4)
"""

from __future__ import annotations

import dataclasses
import logging
import math
from functools import cached_property
from pathlib import Path
from typing import Any

from build123d import (Align, Axis, Box, BuildSketch, Cylinder, Location, Plane, Polygon, Pos, Rot, Sketch, Text,
                       extrude, fillet)

from controller.dials.ladders import WHEEL_ORDER, DataFileError, load_design, read_toml
from controller.paths import HARDWARE_DIR

DEFAULT_SPEC = HARDWARE_DIR / "case.toml"

# build123d narrates every sketch and extrusion at INFO level.
logging.getLogger("build123d").setLevel(logging.WARNING)

#: Degrees a 12-way switch turns from one position to the next.
INDEX_DEG = 30.0


def font_path() -> str:
    """A bold TrueType font for the labels: Bitstream Vera, which ReportLab (a dependency) ships."""
    import reportlab

    return str(Path(reportlab.__file__).parent / "fonts" / "VeraBd.ttf")


def load_spec(path: Path | str = DEFAULT_SPEC) -> dict[str, Any]:
    """``case.toml`` read and checked: every dimension a positive number."""
    path = Path(path)
    data = read_toml(path)
    for section in ("print", "clearance", "knob", "layout"):
        if not isinstance(data.get(section), dict):
            raise DataFileError(path, section, "missing table", "restore it from the project")
    for name, table in [(s, data[s]) for s in ("print", "clearance", "knob", "layout")] + [
            (f"parts.{n}", t) for n, t in data.get("parts", {}).items()]:
        for key, value in table.items():
            if key.endswith("_mm") and (not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0):
                raise DataFileError(path, f"{name}.{key}", f"expected a positive length in mm, got {value!r}")
    for part in ("rotary_switch", "button", "led", "pico"):
        if part not in data.get("parts", {}):
            raise DataFileError(path, f"parts.{part}", "missing", "restore it from the project")
    return data


@dataclasses.dataclass(frozen=True)
class Hole:
    """A round hole in the lid's top for a part: its centre and the part's own diameter there."""

    name: str
    x: float
    y: float
    part_diameter: float
    clearance: float

    @property
    def diameter(self) -> float:
        return self.part_diameter + self.clearance


class Layout:
    """Where everything goes, from the spec: knob and button centres, the Pico, the case's size."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        p, k, lay = spec["parts"], spec["knob"], spec["layout"]
        self.wall = spec["print"]["wall_mm"]
        self.base = spec["print"]["base_mm"]
        sw, btn, pico = p["rotary_switch"], p["button"], p["pico"]
        self.knobs = {w: (i * lay["knob_pitch_mm"], 0.0) for i, w in enumerate(WHEEL_ORDER)}
        self.button = (self.knobs["symbol"][0] + lay["button_gap_mm"], 0.0)
        reach = max(k["skirt_diameter_mm"] / 2, sw["body_diameter_mm"] / 2 + sw["solder_tags_mm"])
        x_min = -reach - lay["margin_mm"]
        x_max = self.button[0] + btn["ring_diameter_mm"] / 2 + lay["margin_mm"]
        y_min = -reach - lay["margin_mm"]
        # The Pico lies along the back wall, its USB end against the left wall, clear of the switches.
        self.pico_y = sw["body_diameter_mm"] / 2 + sw["solder_tags_mm"] + 2.0
        self.pico_x = x_min + pico["usb_overhang_mm"] + 0.2
        boss = lay["boss_diameter_mm"]
        y_max = self.pico_y + pico["width_mm"] + boss + 1.0
        self.inner_min = (x_min, y_min)
        self.inner_max = (x_max, y_max)
        self.boss_inset = boss / 2 - 0.5
        self.led = (self.button[0], self.button[1] + btn["ring_diameter_mm"] / 2 + 8.0)
        inner_height = max(sw["depth_mm"] + sw["solder_tags_mm"], btn["depth_mm"]) + 3.0
        self.height = self.base + inner_height + self.wall
        self.outer = (x_max - x_min + 2 * self.wall, y_max - y_min + 2 * self.wall)
        self.centre = ((x_min + x_max) / 2, (y_min + y_max) / 2)

    @property
    def inner(self) -> tuple[float, float]:
        return self.inner_max[0] - self.inner_min[0], self.inner_max[1] - self.inner_min[1]

    @property
    def bosses(self) -> list[tuple[float, float]]:
        (x0, y0), (x1, y1), d = self.inner_min, self.inner_max, self.boss_inset
        return [(x0 + d, y0 + d), (x1 - d, y0 + d), (x0 + d, y1 - d), (x1 - d, y1 - d)]

    @property
    def pico_holes(self) -> list[tuple[float, float]]:
        pico = self.spec["parts"]["pico"]
        dx = (pico["length_mm"] - pico["hole_spacing_long_mm"]) / 2
        dy = (pico["width_mm"] - pico["hole_spacing_across_mm"]) / 2
        xs = (self.pico_x + dx, self.pico_x + dx + pico["hole_spacing_long_mm"])
        ys = (self.pico_y + dy, self.pico_y + dy + pico["hole_spacing_across_mm"])
        return [(x, y) for x in xs for y in ys]

    @property
    def usb_slot(self) -> tuple[float, float, float]:
        """The USB plug's slot in the left wall: its centre y, width and height from the lid's lower edge."""
        pico, clearance = self.spec["parts"]["pico"], self.spec["clearance"]["hole_mm"]
        centre_z = self.base + pico["standoff_mm"] + pico["thickness_mm"] + pico["usb_height_mm"] / 2
        return (self.pico_y + pico["width_mm"] / 2, pico["plug_width_mm"] + clearance,
                centre_z + pico["plug_height_mm"] / 2 + clearance / 2)

    def holes(self) -> list[Hole]:
        p, clearance = self.spec["parts"], self.spec["clearance"]["hole_mm"]
        sw = p["rotary_switch"]
        out = []
        for wheel, (x, y) in self.knobs.items():
            out.append(Hole(f"{wheel} switch", x, y, sw["bushing_diameter_mm"], clearance))
            out.append(Hole(f"{wheel} switch locating lug", x, y + sw["locating_lug_offset_mm"],
                            sw["locating_lug_diameter_mm"], clearance))
        out.append(Hole("button", *self.button, p["button"]["mount_diameter_mm"], clearance))
        out.append(Hole("LED", *self.led, p["led"]["body_diameter_mm"], clearance))
        return out


def _rounded_box(length: float, width: float, height: float, radius: float, centre: tuple[float, float], z: float):
    box = Pos(centre[0], centre[1], z) * Box(length, width, height, align=(Align.CENTER, Align.CENTER, Align.MIN))
    return fillet(box.edges().filter_by(Axis.Z), radius) if radius > 0 else box


class Case:
    """The lid, the base and the knobs, built once each on first use."""

    def __init__(self, spec: dict[str, Any] | None = None) -> None:
        self.spec = spec or load_spec()
        self.layout = Layout(self.spec)

    @cached_property
    def lid(self):
        lay, s = self.layout, self.spec
        radius = s["layout"]["corner_radius_mm"]
        shell = _rounded_box(*lay.outer, lay.height, radius, lay.centre, 0)
        shell -= _rounded_box(*lay.inner, lay.height - lay.wall, radius - lay.wall, lay.centre, -1)
        shell = shell + shell  # a single solid before adding bosses
        boss_d = s["layout"]["boss_diameter_mm"]
        for x, y in lay.bosses:
            top = lay.height - lay.wall
            shell += Pos(x, y, lay.base) * Cylinder(boss_d / 2, top - lay.base + 0.01,
                                                    align=(Align.CENTER, Align.CENTER, Align.MIN))
            shell -= Pos(x, y, lay.base - 1) * Cylinder(s["clearance"]["pilot_m3_mm"] / 2, 11,
                                                        align=(Align.CENTER, Align.CENTER, Align.MIN))
        for hole in lay.holes():
            shell -= Pos(hole.x, hole.y, lay.height - lay.wall - 1) * Cylinder(
                hole.diameter / 2, lay.wall + 2, align=(Align.CENTER, Align.CENTER, Align.MIN))
        sw = s["parts"]["rotary_switch"]
        lug = sw["locating_lug_diameter_mm"] + s["clearance"]["hole_mm"]
        for x, y in lay.knobs.values():
            # The lug's hole joins the bushing's as a keyhole: no sliver of plastic between them.
            shell -= Pos(x, y + sw["locating_lug_offset_mm"] / 2, lay.height - lay.wall - 1) * Box(
                lug, sw["locating_lug_offset_mm"], lay.wall + 2, align=(Align.CENTER, Align.CENTER, Align.MIN))
            shell -= self._index_mark(x, y)
        y, width, height = lay.usb_slot
        shell -= Pos(lay.inner_min[0] - lay.wall / 2, y, -1) * Box(lay.wall * 3, width, height + 1,
                                                                   align=(Align.CENTER, Align.CENTER, Align.MIN))
        return shell

    def _index_mark(self, x: float, y: float):
        k, lay = self.spec["knob"], self.layout
        r = k["skirt_diameter_mm"] / 2 + 1.0
        depth = k["index_mm"]
        with BuildSketch(Plane.XY.offset(lay.height - depth)) as mark:
            Polygon((x, y + r), (x - 2.2, y + r + 4.5), (x + 2.2, y + r + 4.5), align=None)
        return extrude(mark.sketch, depth + 1)

    @cached_property
    def base(self):
        lay, s = self.layout, self.spec
        gap = s["clearance"]["plate_mm"]
        length, width = lay.inner[0] - 2 * gap, lay.inner[1] - 2 * gap
        radius = s["layout"]["corner_radius_mm"] - lay.wall - gap
        plate = _rounded_box(length, width, lay.base, max(radius, 0.5), lay.centre, 0)
        for x, y in lay.bosses:
            plate -= Pos(x, y, -1) * Cylinder(s["clearance"]["clear_m3_mm"] / 2, lay.base + 2,
                                              align=(Align.CENTER, Align.CENTER, Align.MIN))
        pico = s["parts"]["pico"]
        pilot = s["clearance"]["pilot_m2_mm"]
        outer = pilot + 2 * s["print"]["min_wall_mm"] + 0.4
        for x, y in lay.pico_holes:
            plate += Pos(x, y, lay.base - 0.01) * Cylinder(outer / 2, pico["standoff_mm"] + 0.01,
                                                          align=(Align.CENTER, Align.CENTER, Align.MIN))
            plate -= Pos(x, y, lay.base + 1.0) * Cylinder(pilot / 2, pico["standoff_mm"],
                                                         align=(Align.CENTER, Align.CENTER, Align.MIN))
        return plate

    def knob_body(self, wheel: str):
        """A knob without its labels: skirt, grip, the shaft's bore and the set screw's hole."""
        k, s = self.spec["knob"], self.spec
        shaft = s["parts"]["rotary_switch"]["shaft_diameter_mm"] + s["clearance"]["bore_mm"]
        body = Cylinder(k["skirt_diameter_mm"] / 2, k["skirt_mm"], align=(Align.CENTER, Align.CENTER, Align.MIN))
        grip = Cylinder(k["grip_diameter_mm"] / 2, k["height_mm"], align=(Align.CENTER, Align.CENTER, Align.MIN))
        grip = fillet(grip.edges().sort_by(Axis.Z)[-1:], 1.5)
        body += grip
        body -= Pos(0, 0, -1) * Cylinder(shaft / 2, k["bore_depth_mm"] + 1, align=(Align.CENTER, Align.CENTER, Align.MIN))
        screw_z = k["skirt_mm"] + (k["bore_depth_mm"] - k["skirt_mm"]) / 2
        body -= Pos(k["grip_diameter_mm"] / 4, 0, screw_z) * Rot(0, 90, 0) * Cylinder(
            s["clearance"]["pilot_m3_mm"] / 2, k["grip_diameter_mm"] / 2 + 1)
        return body

    def knob_labels(self, wheel: str) -> list:
        """The wheel's labels raised on the skirt, one solid per position (position 0 under the index)."""
        k = self.spec["knob"]
        labels = load_design().wheels[wheel].labels
        out = []
        for pos, label in enumerate(labels):
            angle = 90.0 + INDEX_DEG * pos
            at = (k["label_radius_mm"] * math.cos(math.radians(angle)),
                  k["label_radius_mm"] * math.sin(math.radians(angle)))
            if wheel == "direction":
                # Drawn so that, once the knob has turned it under the index, it points its own way.
                shape = Rot(0, 0, -(45.0 - INDEX_DEG) * pos) * _arrow(k["label_height_mm"] * 1.3)
            else:
                shape = Rot(0, 0, INDEX_DEG * pos) * Text(label, k["label_height_mm"], font_path=font_path())
            placed = Location((at[0], at[1], k["skirt_mm"] - 0.01)) * extrude(shape, k["label_relief_mm"] + 0.01)
            out.append(placed)
        return out

    def knob(self, wheel: str):
        """A knob with its labels, as one solid (single-colour printing)."""
        knob = self.knob_body(wheel)
        for label in self.knob_labels(wheel):
            knob += label
        return knob

    @property
    def symbol_colours(self) -> dict[str, str]:
        return dict(self.spec["knob"]["symbol_colours"])


def _arrow(length: float) -> Sketch:
    """An arrow pointing up (+y), centred on the origin."""
    half, head, shaft = length / 2, length * 0.45, length * 0.16
    with BuildSketch() as arrow:
        Polygon((0, half), (-head / 1.6, half - head), (-shaft, half - head), (-shaft, -half), (shaft, -half),
                (shaft, half - head), (head / 1.6, half - head), align=None)
    return arrow.sketch

