"""The Praxis table reader with real OpenCV on rendered tables: ships read by colour and face, tiles by
their markers, spaceports counted; a hand over the mat, a ship between two cells, a tile across a
cell's edge and a die standing on a tile are never read as a sure wrong cell (the referee asks or
waits). And `bitbox mat praxis` prints the mat and the tiles, each tile's marker naming its kind."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from controller.engines.praxis.artefacts import PORTAL
from controller.engines.praxis.universe import cell_index
from controller.games.praxis import tiles
from controller.games.praxis.camera import TableReader
from controller.games.praxis.reading import SHIP_COLOURS, PraxisReading, mat_universe
from controller.games.praxis.render import (HandOver, Ship, TableScene, Tile, contents_scene, empty_table,
                                            random_conditions, render_table)
from controller.vision.mat import load_layout
from controller.vision.profile import calibrate_mat
from controller.vision.render import Lighting, fitting_camera

LAYOUT = load_layout("praxis")
MAT = mat_universe(LAYOUT)


def centre(label: str) -> tuple[float, float]:
    return MAT.centre(MAT.position(cell_index(label)))


def read(scene: TableScene, calibration: TableScene | None = None) -> PraxisReading:
    reader = TableReader(LAYOUT, calibrate_mat(empty_table(calibration or scene), LAYOUT))
    return reader.read(render_table(scene).image)


def plain(seed: int = 0, **kw) -> TableScene:
    camera = fitting_camera(LAYOUT, (1920, 1080), 62.0, 12.0, 40.0, fill=0.9)
    return TableScene(LAYOUT, camera=camera, lighting=Lighting(brightness=0.95, gradient=0.2, noise_sigma=2.0),
                      jpeg=90, seed=seed, **kw)


@pytest.mark.parametrize("seed", [11, 12])
def test_ships_tiles_and_spaceports_are_read_under_varied_cameras_and_light(seed):
    rng = np.random.default_rng(seed)
    contents = {}
    for pos in rng.choice(36, 22, replace=False):
        if rng.random() < 0.5:
            contents[int(pos)] = ("tile", int(rng.integers(1, PORTAL + 1)), 0)
        else:
            contents[int(pos)] = ("ship", int(rng.integers(4)), int(rng.integers(1, 7)))
    play, light = random_conditions(LAYOUT, rng), random_conditions(LAYOUT, rng)
    ports = [["red"], [], ["green", "green"], ["yellow"]]
    scene = contents_scene(LAYOUT, MAT, contents, rng, ports=ports, seed=seed, **play)
    calibration = dataclasses.replace(scene, lighting=light["lighting"], white_balance=light["white_balance"])
    reading = read(scene, calibration)
    assert not reading.occluded
    for pos, seen in enumerate(reading.cells):
        what = contents.get(pos)
        if what is None:
            assert (seen.kind, seen.colour) == (0, None), MAT.label(pos)
        elif what[0] == "tile":
            assert seen.kind == what[1], MAT.label(pos)
        else:
            assert (seen.colour, seen.face) == (SHIP_COLOURS[what[1]], what[2]), MAT.label(pos)
        assert seen.confidence >= PraxisReading.SURE, (MAT.label(pos), seen.note)
    assert [list(p.ships) for p in reading.ports] == ports


def test_a_hand_over_the_mat_makes_the_reading_occluded():
    x, y = centre("2.2")
    scene = plain(ships=(Ship(x, y, "red", 3),), tiles=(Tile(4, *centre("5.5")),))
    assert not read(scene).occluded
    assert read(dataclasses.replace(scene, hands=(HandOver(x, y, 70.0, 60.0),))).occluded


def test_a_ship_between_two_cells_is_unsure_never_read_in_either():
    (x0, y0), (x1, _) = centre("2.1"), centre("2.2")
    scene = plain(ships=(Ship((x0 + x1) / 2, y0, "blue", 4, 20.0),))
    reading = read(scene)
    for label in ("2.1", "2.2"):
        seen = reading.cells[MAT.position(cell_index(label))]
        assert seen.confidence < PraxisReading.SURE and "across" in (seen.note or ""), label


def test_a_tile_across_a_cells_edge_and_a_die_on_a_tile_are_unsure():
    (x0, y0), (_, y1) = centre("4.2"), centre("4.5")
    x2, y2 = centre("6.3")
    scene = plain(tiles=(Tile(7, x0, (y0 + y1) / 2, 5.0), Tile(9, x2, y2)),
                  ships=(Ship(x2 + 6, y2 + 4, "green", 5, 30.0),))
    reading = read(scene)
    for label in ("4.2", "4.5", "6.3"):
        seen = reading.cells[MAT.position(cell_index(label))]
        assert seen.confidence < PraxisReading.SURE, (label, seen)


def test_the_unsure_cells_are_asked_about_and_never_called():
    from controller.engines.praxis import PraxisGame
    from controller.games.praxis.reading import PRINTED_LAYOUT
    from controller.games.praxis.referee import PraxisReferee
    from controller.referee.common import Question, RefereeConfig

    game = PraxisGame({"players": 2, "layout": [list(p) for p in PRINTED_LAYOUT]}, seed=1)
    referee = PraxisReferee(game, RefereeConfig(), MAT)
    (x0, y0), (x1, _) = centre("2.1"), centre("2.2")
    results = referee.observe(read(plain(ships=(Ship((x0 + x1) / 2, y0, "red", 2),))))
    assert results and all(isinstance(r, Question) for r in results)
    assert referee.calls == [] and len(game.history) == len(referee.game.history)


def test_each_tile_shows_its_kind_to_the_camera_and_its_name_to_the_players():
    from controller.vision.markers import detect_markers

    for kind in range(1, PORTAL + 1):
        image = tiles.tile_image(kind, 8.0)
        padded = np.pad(image, ((40, 40), (40, 40), (0, 0)), constant_values=250)
        found = detect_markers(padded, tiles.DICTIONARY)
        assert [tiles.kind_of(i) for i in found] == [kind]
    assert tiles.tile_name(PORTAL) == "Portail" and tiles.tile_name(1) == "Plus un"
    assert len(tiles.box_tiles()) == 110


def test_bitbox_mat_praxis_prints_the_mat_and_the_tiles(tmp_path):
    import subprocess
    import sys

    from controller.paths import PROJECT_ROOT
    from controller.vision.matprint import marker_positions_in_png

    result = subprocess.run([sys.executable, "-m", "controller", "mat", "praxis", "--out", str(tmp_path),
                             "--dpi", "100"], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Praxis mat, 420 x 297 mm" in result.stdout
    assert "praxis-tiles.pdf: the pieces to cut out, 4 page(s)" in result.stdout
    pdf = (tmp_path / "praxis-tiles.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 4
    found = marker_positions_in_png(tmp_path / "praxis-mat.png", LAYOUT)
    assert sorted(found) == [m.marker_id for m in LAYOUT.markers]
    assert {z.kind for z in LAYOUT.zones} == {"grid", "spaceport"} and len(MAT.ports) == 4
