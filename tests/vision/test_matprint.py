"""`bitbox mat`: the printed PNG carries the markers exactly where the layout says, the PDF its pages."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from controller.cli import main
from controller.vision.mat import load_layout
from controller.vision.matprint import marker_positions_in_png, read_png_scale


def pdf_pages(path: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", path.read_bytes()))


@pytest.mark.parametrize("game, paper", [("memodixe", "a4"), ("praxis", "letter")])
def test_mat_markers_come_back_where_the_layout_puts_them(tmp_path: Path, game: str, paper: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mat", "--game", game, "--paper", paper, "--dpi", "150", "--out", str(tmp_path)]) == 0
    layout = load_layout(game)
    png = tmp_path / f"{game}-mat.png"
    pdf = tmp_path / f"{game}-mat-{paper}.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    out = capsys.readouterr().out
    pages = int(re.search(r"(\d+) page", out).group(1))
    assert pages == pdf_pages(pdf) >= 2           # bigger than a sheet: split into pages
    assert read_png_scale(png) == pytest.approx(150 / 25.4, rel=1e-3)
    found = marker_positions_in_png(png, layout)
    assert set(found) == {m.marker_id for m in layout.markers}
    for m in layout.markers:
        # ArUco puts a corner on the pixel boundary: half a pixel (0.08 mm here) from the mm grid.
        assert np.abs(found[m.marker_id] - m.corners()).max() < 0.3


def test_full_page_and_bad_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mat", "--game", "memodixe", "--paper", "full", "--dpi", "100", "--out", str(tmp_path)]) == 0
    assert pdf_pages(tmp_path / "memodixe-mat-full.pdf") == 1
    assert main(["mat", "--game", "chess", "--out", str(tmp_path)]) == 2
    assert "no mat layout named 'chess'" in capsys.readouterr().err
