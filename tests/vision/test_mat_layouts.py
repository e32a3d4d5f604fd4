"""Mat layout files: the shipped ones load, malformed ones are refused with clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.vision.mat import MatLayoutError, available_layouts, load_dice, load_layout

GOOD = """
name = "test"
width_mm = 300.0
height_mm = 200.0
die = "standard"
[markers]
dictionary = "DICT_4X4_50"
size_mm = 30.0
placed = [
  { id = 0, x_mm = 5.0, y_mm = 5.0 }, { id = 1, x_mm = 265.0, y_mm = 5.0 },
  { id = 2, x_mm = 5.0, y_mm = 165.0 }, { id = 3, x_mm = 265.0, y_mm = 165.0 },
]
[[zones]]
name = "t"
kind = "temple"
shape = "circle"
center = [150.0, 100.0]
radius_mm = 10.0
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "layout.toml"
    p.write_text(text)
    return p


def test_shipped_layouts_load() -> None:
    names = available_layouts()
    assert {"puxes", "memodixe", "praxis"} <= set(names)
    puxes = load_layout("puxes")
    assert (puxes.width_mm, puxes.height_mm) == (900.0, 600.0)
    assert puxes.die.edge_mm == 25.0 and load_dice("standard").edge_mm == 16.0
    temples = puxes.zones_of_kind("temple")
    # Temples stand 1/6 of the 90 cm length from each player's edge.
    assert sorted(z.params["center"][0] for z in temples) == [150.0, 750.0]
    assert puxes.zone("sacred-garden-1").contains(150 + 40, 300)
    assert not puxes.zone("sacred-garden-1").contains(150 + 60, 300)
    memo = load_layout("memodixe").zone("square")
    assert memo.cell(*memo.cell_center(1, 1)) == (1, 1)
    assert memo.cell(10, 10) is None
    praxis = load_layout("praxis").zone("universe")
    assert (praxis.params["columns"], praxis.params["rows"]) == (9, 4)


def test_good_file_loads(tmp_path: Path) -> None:
    lay = load_layout(write(tmp_path, GOOD))
    assert [m.marker_id for m in lay.markers] == [0, 1, 2, 3]
    assert lay.marker(1).corners()[1].tolist() == [295.0, 5.0]


@pytest.mark.parametrize("change, message", [
    (("width_mm = 300.0", ""), "missing 'width_mm'"),
    (("width_mm = 300.0", "width_mm = -3"), "'width_mm' must be positive"),
    (("width_mm = 300.0", 'width_mm = "wide"'), "'width_mm' must be a number"),
    (("{ id = 1, x_mm = 265.0", "{ id = 0, x_mm = 265.0"), "marker ids must be unique"),
    (("{ id = 1, x_mm = 265.0", "{ id = 99, x_mm = 265.0"), "'id' must be an integer 0..49"),
    (("x_mm = 265.0, y_mm = 5.0", "x_mm = 280.0, y_mm = 5.0"), "does not fit on the"),
    (('dictionary = "DICT_4X4_50"', 'dictionary = "DICT_NOPE"'), "not an OpenCV ArUco dictionary"),
    (('shape = "circle"', 'shape = "blob"'), "unknown shape 'blob'"),
    (("radius_mm = 10.0", ""), "missing 'radius_mm'"),
    (("center = [150.0, 100.0]", "center = [150.0]"), "expected [x_mm, y_mm]"),
    (('die = "standard"', 'die = "d20"'), "no die kind 'd20'"),
    (("width_mm = 300.0", "width_mm = = 3"), "not valid TOML"),
])
def test_malformed_files_are_refused_clearly(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    old, new = change
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(MatLayoutError) as err:
        load_layout(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)


def test_too_few_markers(tmp_path: Path) -> None:
    text = GOOD.replace("{ id = 3, x_mm = 265.0, y_mm = 165.0 },", "")
    with pytest.raises(MatLayoutError, match="at least 4 markers"):
        load_layout(write(tmp_path, text))


def test_unknown_layout_name_lists_known_ones() -> None:
    with pytest.raises(MatLayoutError, match="known layouts: .*puxes"):
        load_layout("chess")
    with pytest.raises(MatLayoutError, match="file not found"):
        load_layout("/nonexistent/mat.toml")
