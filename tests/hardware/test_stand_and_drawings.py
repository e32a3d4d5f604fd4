"""The camera's height comes from the camera and the mat, as the docs say; the drawings in the docs
are the ones the circuit draws now."""

from __future__ import annotations

import re

import pytest

from controller.hardware.schematic import DRAWINGS, draw_all
from controller.hardware.stand import camera_height, load_cameras, mat_size
from controller.paths import PROJECT_ROOT


def test_the_puxes_mat_under_a_camera_module_3_needs_the_height_the_docs_give() -> None:
    text = (PROJECT_ROOT / "docs" / "table-camera.md").read_text(encoding="utf-8")
    said = re.search(r"PuXes mat and a Raspberry Pi Camera Module 3 at 1280 x 720, about ([\d.]+) m", text)
    assert said, "docs/table-camera.md no longer gives the camera's height"
    height = camera_height("puxes", "module3")
    assert height / 1000 == pytest.approx(float(said.group(1)), rel=0.1)


def test_a_wider_lens_or_a_smaller_mat_needs_less_height() -> None:
    assert camera_height("puxes", "module3_wide") < camera_height("puxes", "module3")
    assert camera_height("memodixe", "module3") < camera_height("puxes", "module3")
    assert camera_height("puxes", "module3", margin_mm=0) == pytest.approx(300 / (0.6494 * 9 / 16), rel=0.01)
    assert mat_size("puxes") == (900.0, 600.0)
    cameras, stand = load_cameras()
    assert cameras["module3"].vfov_deg == pytest.approx(40.1, abs=0.2)
    assert stand["margin_mm"] > 0


def test_the_docs_show_the_schematics_the_circuit_draws(tmp_path) -> None:
    draw_all(tmp_path)
    for name in DRAWINGS:
        committed = PROJECT_ROOT / "docs" / "images" / name
        assert committed.exists(), f"docs/images/{name} is missing: run bitbox hardware draw"
        assert (tmp_path / name).read_bytes() == committed.read_bytes(), (
            f"docs/images/{name} differs from what the circuit draws: run bitbox hardware draw")
