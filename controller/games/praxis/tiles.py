"""Praxis's tiles on the table: the artefacts and portals as printed squares the camera identifies.

Every tile is a :data:`TILE_MM` square of white card carrying an ArUco marker (the mat's
dictionary) whose id says its kind, the artefact's value in the top-left corner (« Chaque artefact
affiche sa valeur dans un coin ») and its name under the marker, for the players. Tiles of one
kind are interchangeable, as in the box: the camera needs the kind, never which copy.

:func:`tile_image` draws one tile (the sheets and the rendered tables draw the same tile);
:func:`write_sheets` writes the box's 107 artefacts and 3 portals as cut-out sheets, which
``bitbox mat praxis`` prints with the mat.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from controller.engines.praxis.artefacts import ARTEFACTS, BOX, PORTAL, VALUES
from controller.vision.markers import marker_image

#: The tiles' dictionary: the mat's.
DICTIONARY = "DICT_4X4_50"
#: A kind's marker id is this plus the kind's number (1 to 15): ids 31 to 45, clear of the mat's 20 to 23.
FIRST_ID = 30
#: A tile's side, its marker's side and the marker's top-left corner on the tile, in mm.
TILE_MM = 34.0
MARKER_MM = 21.0
MARKER_AT_MM = ((TILE_MM - MARKER_MM) / 2, 3.5)
#: Portals on the table: "3 portails pour 4 joueurs".
PORTALS_IN_BOX = 3
#: Paper for the sheets (mm) and the space between tiles, where the scissors go.
SHEET_MM = (210.0, 297.0)
GAP_MM = 3.0

_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf"


def marker_id(kind: int) -> int:
    """The ArUco id printed on tiles of ``kind`` (1 to 15, 15 the portal)."""
    if not 1 <= kind <= PORTAL:
        raise ValueError(f"{kind!r} is not an artefact kind (1 to {PORTAL})")
    return FIRST_ID + kind


def kind_of(marker: int) -> int | None:
    """The kind a marker id stands for, or ``None`` for any other marker (the mat's own)."""
    kind = marker - FIRST_ID
    return kind if 1 <= kind <= PORTAL else None


def tile_name(kind: int) -> str:
    """The name printed on a tile: the rulebook's French name, as on the box's tiles."""
    artefact = ARTEFACTS[kind]
    assert artefact is not None
    return "Portail" if kind == PORTAL else artefact.french


@functools.lru_cache(maxsize=64)
def _font(size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(_FONT, size_px)
    except OSError:
        return ImageFont.load_default()


@functools.lru_cache(maxsize=64)
def tile_image(kind: int, px_per_mm: float) -> np.ndarray:
    """Tile ``kind`` drawn top-down at ``px_per_mm`` (BGR): white card, marker, value, name."""
    side = int(round(TILE_MM * px_per_mm))
    img = np.full((side, side, 3), 250, np.uint8)
    m = int(round(MARKER_MM * px_per_mm))
    x, y = (int(round(v * px_per_mm)) for v in MARKER_AT_MM)
    img[y:y + m, x:x + m] = cv2.cvtColor(marker_image(DICTIONARY, marker_id(kind), m), cv2.COLOR_GRAY2BGR)
    pil = Image.fromarray(img)
    draw = ImageDraw.Draw(pil)
    name = tile_name(kind)
    size = max(6, int(round(3.4 * px_per_mm)))
    font = _font(size)
    while size > 6 and draw.textlength(name, font=font) > side - 2 * px_per_mm:
        size -= 1
        font = _font(size)
    draw.text((side / 2, (MARKER_AT_MM[1] + MARKER_MM + 1.2) * px_per_mm), name, fill=(20, 20, 20), font=font,
              anchor="mt")
    if kind != PORTAL:
        draw.text((1.2 * px_per_mm, 1.2 * px_per_mm), str(VALUES[kind]), fill=(20, 20, 20),
                  font=_font(max(6, int(round(4.2 * px_per_mm)))), anchor="lt")
    img = np.asarray(pil).copy()
    cv2.rectangle(img, (0, 0), (side - 1, side - 1), (150, 150, 150), max(1, int(round(0.3 * px_per_mm))))
    img.setflags(write=False)
    return img


def box_tiles() -> list[int]:
    """Every tile of the box, by kind: the 107 artefacts, then the 3 portals."""
    return sorted(BOX) + [PORTAL] * PORTALS_IN_BOX


def write_sheets(out_dir: Path, dpi: float = 200.0) -> tuple[Path, int]:
    """Write ``praxis-tiles.pdf``, A4 sheets of every tile to cut out; returns the file and its pages."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "praxis-tiles.pdf"
    s = dpi / 25.4
    pt = 72.0 / 25.4
    across = int((SHEET_MM[0] - 2 * 10 + GAP_MM) // (TILE_MM + GAP_MM))
    down = int((SHEET_MM[1] - 2 * 12 + GAP_MM) // (TILE_MM + GAP_MM))
    per_page = across * down
    tiles = box_tiles()
    pdf = canvas.Canvas(str(path), pagesize=(SHEET_MM[0] * pt, SHEET_MM[1] * pt))
    pages = 0
    for start in range(0, len(tiles), per_page):
        pages += 1
        pdf.setFont("Helvetica", 8)
        pdf.drawString(10 * pt, (SHEET_MM[1] - 7) * pt, f"Praxis: tiles {start + 1} to "
                       f"{min(len(tiles), start + per_page)} of {len(tiles)}; print at 100 %, cut along the grey lines")
        for i, kind in enumerate(tiles[start:start + per_page]):
            row, col = divmod(i, across)
            x = 10 + col * (TILE_MM + GAP_MM)
            y = 12 + row * (TILE_MM + GAP_MM)
            buffer = io.BytesIO()
            Image.fromarray(cv2.cvtColor(tile_image(kind, s), cv2.COLOR_BGR2RGB)).save(buffer, format="PNG")
            buffer.seek(0)
            pdf.drawImage(ImageReader(buffer), x * pt, (SHEET_MM[1] - y - TILE_MM) * pt, TILE_MM * pt, TILE_MM * pt)
        pdf.showPage()
    pdf.save()
    return path, pages
