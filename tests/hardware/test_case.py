"""The printable parts build, export as closed meshes, keep every wall at least the stated minimum,
and give each part its hole with the stated clearance."""

from __future__ import annotations

import math

import pytest

from controller.dials.ladders import load_design
from controller.hardware import meshcheck
from controller.hardware.case import INDEX_DEG, Case
from controller.hardware.export import export_parts
from controller.hardware.stand import CameraMount


@pytest.fixture(scope="module")
def case() -> Case:
    return Case()


@pytest.fixture(scope="module")
def exported(tmp_path_factory, case):
    folder = tmp_path_factory.mktemp("parts")
    export_parts(folder, step=True, case=case)
    return folder


def test_every_part_exports_as_a_closed_printable_mesh(exported) -> None:
    for stem in ("case-lid", "case-base", "knob-direction", "knob-number", "knob-symbol", "camera-mount",
                 "knob-symbol-body", "knob-symbol-label-A", "knob-symbol-label-D"):
        mesh = meshcheck.mesh_of(exported / f"{stem}.stl")
        assert mesh.is_watertight and mesh.is_volume, stem
        assert mesh.volume > 0, stem
    for stem in ("case-lid", "case-base", "camera-mount"):
        assert (exported / f"{stem}.step").read_text(errors="replace").startswith("ISO-10303-21")
    assert (exported / "knob-symbol.3mf").stat().st_size > 1000


def test_the_case_fits_a_common_print_bed(case) -> None:
    length, width = case.layout.outer
    assert length <= 220 and width <= 220 and case.layout.height <= 220


@pytest.mark.parametrize("part", ["lid", "base", "knob", "mount"])
def test_no_wall_is_thinner_than_the_stated_minimum(case, part, capsys) -> None:
    shape = {"lid": lambda: case.lid, "base": lambda: case.base, "knob": lambda: case.knob_body("number"),
             "mount": lambda: CameraMount().part}[part]()
    walls = meshcheck.wall_thickness(meshcheck.mesh_of(shape))
    with capsys.disabled():
        print(f"\n{part}: thinnest wall {walls.thinnest:.2f} mm at {tuple(round(v, 1) for v in walls.where)}")
    assert walls.thinnest >= case.spec["print"]["min_wall_mm"] - 0.01


def test_the_wall_check_finds_a_thin_wall() -> None:
    from build123d import Align, Box, Pos

    thin = Box(30, 30, 10, align=(Align.CENTER, Align.CENTER, Align.MIN))
    thin -= Pos(0, 0, 1.0) * Box(28, 28, 10, align=(Align.CENTER, Align.CENTER, Align.MIN))
    assert meshcheck.wall_thickness(meshcheck.mesh_of(thin)).thinnest == pytest.approx(1.0, abs=0.02)


def test_each_part_fits_its_hole_with_the_stated_clearance(case) -> None:
    clearance = case.spec["clearance"]["hole_mm"]
    lay = case.layout
    holes = lay.holes()
    assert {h.name for h in holes} >= {"direction switch", "number switch", "symbol switch", "button", "LED"}
    for hole in holes:
        measured = meshcheck.hole_diameter(case.lid, hole.x, hole.y, lay.height)
        assert measured and measured[0] == pytest.approx(hole.part_diameter + clearance, abs=0.01), hole
    led = case.spec["parts"]["led"]
    assert led["flange_diameter_mm"] > led["body_diameter_mm"] + clearance, "the LED's flange must stop it"


def test_the_knob_bore_takes_the_shaft_with_the_stated_clearance(case) -> None:
    shaft = case.spec["parts"]["rotary_switch"]["shaft_diameter_mm"]
    bore = meshcheck.hole_diameter(case.knob_body("number"), 0, 0, 0)
    assert pytest.approx(shaft + case.spec["clearance"]["bore_mm"], abs=0.01) in bore
    assert bore[0] == pytest.approx(case.spec["knob"]["skirt_diameter_mm"])


def test_the_pico_stand_offs_match_its_holes_and_the_base_fits_the_lid(case) -> None:
    pico = case.spec["parts"]["pico"]
    xs = sorted({x for x, _ in case.layout.pico_holes})
    ys = sorted({y for _, y in case.layout.pico_holes})
    assert xs[1] - xs[0] == pytest.approx(pico["hole_spacing_long_mm"])
    assert ys[1] - ys[0] == pytest.approx(pico["hole_spacing_across_mm"])
    pilot = case.spec["clearance"]["pilot_m2_mm"]
    for x, y in case.layout.pico_holes:
        assert meshcheck.hole_diameter(case.base, x, y, case.layout.base + case.spec["parts"]["pico"]["standoff_mm"]) \
            == [pytest.approx(pilot + case.spec["print"]["min_wall_mm"] * 2 + 0.4, abs=0.01), pytest.approx(pilot)]
    base = case.base.bounding_box()
    gap = case.spec["clearance"]["plate_mm"]
    assert base.size.X == pytest.approx(case.layout.inner[0] - 2 * gap, abs=0.01)
    assert base.size.Y == pytest.approx(case.layout.inner[1] - 2 * gap, abs=0.01)


def test_the_usb_slot_lets_the_plug_in(case) -> None:
    pico = case.spec["parts"]["pico"]
    _, width, top = case.layout.usb_slot
    assert width >= pico["plug_width_mm"]
    receptacle = case.layout.base + pico["standoff_mm"] + pico["thickness_mm"] + pico["usb_height_mm"] / 2
    assert top - receptacle >= pico["plug_height_mm"] / 2


def test_each_knob_has_a_label_per_position_turning_the_right_way(case) -> None:
    for wheel, design in load_design().wheels.items():
        labels = case.knob_labels(wheel)
        assert len(labels) == design.positions
        for position, label in enumerate(labels):
            centre = label.bounding_box().center()
            angle = math.degrees(math.atan2(centre.Y, centre.X))
            assert (angle - (90 + INDEX_DEG * position) + 180) % 360 - 180 == pytest.approx(0, abs=12), (wheel, position)


def test_the_camera_mount_holds_the_board_on_its_hole_pattern() -> None:
    mount = CameraMount()
    centres = mount.hole_centres
    assert max(x for x, _ in centres) - min(x for x, _ in centres) == pytest.approx(21.0)
    assert max(y for _, y in centres) - min(y for _, y in centres) == pytest.approx(12.5)
