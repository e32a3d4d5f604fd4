"""Printable mats: a PNG of the whole mat at true scale and a PDF split into pages of A4 or Letter
(or one page of the mat's own size, for a print shop).

Pages overlap by ``overlap_mm``. On every page but the first of a row or column a dashed line marks
where to trim, and registration crosses printed on both neighbouring pages at the same mat position
show how to lay one page over the other. Page 1 carries a 100 mm scale bar: measure it after printing
(printers often "fit to page"; print at 100 % / actual size).
"""

from __future__ import annotations

import dataclasses
import io
import math
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from controller.vision.mat import MatLayout, draw_mat

PAPERS_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}
MM_TO_PT = 72.0 / 25.4


@dataclasses.dataclass(frozen=True)
class PrintedMat:
    png: Path
    pdf: Path
    pages: int
    grid: tuple[int, int]          # pages across, pages down
    px_per_mm: float


def _tiles(length: float, usable: float, overlap: float) -> list[float]:
    """Start positions (mm) of tiles covering ``length`` with ``usable``-long tiles overlapping."""
    if length <= usable:
        return [0.0]
    n = math.ceil((length - overlap) / (usable - overlap))
    step = (length - usable) / (n - 1)
    return [i * step for i in range(n)]


def write_mat(layout: MatLayout, out_dir: Path, paper: str = "a4", dpi: float = 200.0,
              margin_mm: float = 8.0, overlap_mm: float = 15.0) -> PrintedMat:
    """Write ``<name>-mat.png`` (true scale, with its dpi recorded) and ``<name>-mat-<paper>.pdf``."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    out_dir.mkdir(parents=True, exist_ok=True)
    s = dpi / 25.4
    img = draw_mat(layout, s)
    png = out_dir / f"{layout.name}-mat.png"
    Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB)).save(png, dpi=(dpi, dpi))

    W, H = layout.width_mm, layout.height_mm
    if paper == "full":
        page_w, page_h, margin_mm = W + 20, H + 20, 10.0
    else:
        if paper not in PAPERS_MM:
            raise ValueError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS_MM)} or full")
        pw, ph = PAPERS_MM[paper]
        best = None
        for page_w, page_h in ((pw, ph), (ph, pw)):
            cols = _tiles(W, page_w - 2 * margin_mm, overlap_mm)
            rows = _tiles(H, page_h - 2 * margin_mm, overlap_mm)
            if best is None or len(cols) * len(rows) < best[0]:
                best = (len(cols) * len(rows), page_w, page_h)
        _, page_w, page_h = best
    uw, uh = page_w - 2 * margin_mm, page_h - 2 * margin_mm
    xs, ys = _tiles(W, uw, overlap_mm), _tiles(H, uh, overlap_mm)
    pdf = out_dir / f"{layout.name}-mat-{paper}.pdf"
    c = canvas.Canvas(str(pdf), pagesize=(page_w * MM_TO_PT, page_h * MM_TO_PT))
    c.setTitle(f"{layout.title} mat ({W:g} x {H:g} mm)")
    rgb = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    page = 0
    for r, y0 in enumerate(ys):
        for col, x0 in enumerate(xs):
            page += 1
            tw, th = min(uw, W - x0), min(uh, H - y0)
            crop = rgb[int(round(y0 * s)):int(round((y0 + th) * s)), int(round(x0 * s)):int(round((x0 + tw) * s))]
            buf = io.BytesIO()
            Image.fromarray(crop).save(buf, format="PNG")
            buf.seek(0)

            def P(mx: float, my: float) -> tuple[float, float]:
                """Mat mm -> page points (reportlab's origin is bottom-left)."""
                return ((margin_mm + mx - x0) * MM_TO_PT, (page_h - margin_mm - (my - y0)) * MM_TO_PT)

            bx, by = P(x0, y0 + th)
            c.drawImage(ImageReader(buf), bx, by, tw * MM_TO_PT, th * MM_TO_PT)
            c.setLineWidth(0.4)
            c.setDash(3, 3)
            if col > 0:
                a, b = P(x0 + overlap_mm, y0), P(x0 + overlap_mm, y0 + th)
                c.line(a[0], a[1], b[0], b[1])
            if r > 0:
                a, b = P(x0, y0 + overlap_mm), P(x0 + tw, y0 + overlap_mm)
                c.line(a[0], a[1], b[0], b[1])
            c.setDash()
            # Registration crosses in the overlaps, at the same mat positions on both pages.
            marks = []
            for bx_mm in xs[1:]:
                for fy in (0.25, 0.75):
                    marks.append((bx_mm + overlap_mm / 2, y0 + th * fy))
            for by_mm in ys[1:]:
                for fx in (0.25, 0.75):
                    marks.append((x0 + tw * fx, by_mm + overlap_mm / 2))
            for mx, my in marks:
                if x0 <= mx <= x0 + tw and y0 <= my <= y0 + th:
                    px, py = P(mx, my)
                    k = 3 * MM_TO_PT
                    c.line(px - k, py, px + k, py)
                    c.line(px, py - k, px, py + k)
                    c.circle(px, py, 1.5 * MM_TO_PT)
            c.setFont("Helvetica", 7)
            c.drawString(margin_mm * MM_TO_PT, (margin_mm / 2) * MM_TO_PT,
                         f"{layout.title} mat - page {page} of {len(xs) * len(ys)} (row {r + 1}, column {col + 1})"
                         f" - mat x {x0:.0f}..{x0 + tw:.0f} mm, y {y0:.0f}..{y0 + th:.0f} mm - print at 100 %")
            if page == 1:
                sx, sy = margin_mm * MM_TO_PT, (page_h - margin_mm / 2) * MM_TO_PT
                c.setLineWidth(1)
                c.line(sx, sy, sx + 100 * MM_TO_PT, sy)
                c.line(sx, sy - 4, sx, sy + 4)
                c.line(sx + 100 * MM_TO_PT, sy - 4, sx + 100 * MM_TO_PT, sy + 4)
                c.drawString(sx + 102 * MM_TO_PT, sy - 2, "100 mm: check with a ruler")
            c.showPage()
    c.save()
    return PrintedMat(png, pdf, page, (len(xs), len(ys)), s)


def read_png_scale(png: Path) -> float:
    """px per mm recorded in a PNG written by :func:`write_mat`."""
    with Image.open(png) as im:
        dpi = im.info.get("dpi", (72, 72))[0]
    return float(dpi) / 25.4


def marker_positions_in_png(png: Path, layout: MatLayout) -> dict[int, np.ndarray]:
    """Detect the markers in a written PNG: id -> corners in mat mm (for checking a print file)."""
    from controller.vision.markers import detect_markers

    s = read_png_scale(png)
    img = cv2.imread(str(png), cv2.IMREAD_COLOR)
    found = detect_markers(img, layout.dictionary)
    return {k: v / s for k, v in found.items()}
