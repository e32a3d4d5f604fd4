"""Mat layouts: the printed play mat's size, its ArUco markers and each game's zones, read from
``hardware/mats/*.toml``, plus the dice sizes from ``hardware/dice.toml``.

All positions are millimetres in the mat's frame: origin at the printed mat's top-left corner, x to the
right, y downwards (the frame of :class:`controller.vision.snapshot.TableSnapshot`).
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.paths import HARDWARE_DIR

MATS_DIR = HARDWARE_DIR / "mats"
DICE_FILE = HARDWARE_DIR / "dice.toml"

ZONE_SHAPES = ("circle", "rect", "polygon", "grid")


class MatLayoutError(ValueError):
    """A mat layout or dice file is missing or malformed; the message names the file and the field."""


@dataclasses.dataclass(frozen=True)
class DiceSpec:
    """One kind of die: its edge in mm and how its faces are read (``pips`` or ``symbols``)."""

    name: str
    title: str
    edge_mm: float
    faces: str


@dataclasses.dataclass(frozen=True)
class MarkerPlacement:
    """One ArUco marker printed on the mat: its id, top-left corner and side in mm."""

    marker_id: int
    x_mm: float
    y_mm: float
    size_mm: float

    def corners(self) -> np.ndarray:
        """The 4 corners in mm, in ArUco's order (top-left, top-right, bottom-right, bottom-left)."""
        x, y, s = self.x_mm, self.y_mm, self.size_mm
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], dtype=np.float64)


@dataclasses.dataclass(frozen=True)
class Zone:
    """A named region of the mat (a temple, a garden, a grid of cells)."""

    name: str
    kind: str
    shape: str
    params: dict[str, Any]
    owner: int | None = None
    colour: tuple[int, int, int] | None = None

    @property
    def center(self) -> tuple[float, float]:
        poly = self.polygon()
        return float(poly[:, 0].mean()), float(poly[:, 1].mean())

    def polygon(self, segments: int = 48) -> np.ndarray:
        """The zone's outline as an (N, 2) array of mm."""
        p = self.params
        if self.shape == "circle":
            cx, cy = p["center"]
            r = p["radius_mm"]
            t = np.linspace(0, 2 * math.pi, segments, endpoint=False)
            return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)
        if self.shape == "rect":
            x, y, w, h = p["rect"]
            return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float64)
        if self.shape == "polygon":
            return np.asarray(p["points"], dtype=np.float64)
        x0, y0 = p["origin"]
        w, h = p["cell_mm"] * p["columns"], p["cell_mm"] * p["rows"]
        return np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], dtype=np.float64)

    def contains(self, x_mm: float, y_mm: float) -> bool:
        p = self.params
        if self.shape == "circle":
            cx, cy = p["center"]
            return math.hypot(x_mm - cx, y_mm - cy) <= p["radius_mm"]
        poly = self.polygon().astype(np.float32)
        return cv2.pointPolygonTest(poly, (float(x_mm), float(y_mm)), False) >= 0

    def cell(self, x_mm: float, y_mm: float) -> tuple[int, int] | None:
        """For a grid zone, the (row, column) of the cell holding the point, else ``None``."""
        if self.shape != "grid":
            return None
        p = self.params
        c = math.floor((x_mm - p["origin"][0]) / p["cell_mm"])
        r = math.floor((y_mm - p["origin"][1]) / p["cell_mm"])
        if 0 <= r < p["rows"] and 0 <= c < p["columns"]:
            return r, c
        return None

    def cell_center(self, row: int, column: int) -> tuple[float, float]:
        p = self.params
        return (p["origin"][0] + (column + 0.5) * p["cell_mm"], p["origin"][1] + (row + 0.5) * p["cell_mm"])


@dataclasses.dataclass(frozen=True)
class MatLayout:
    """A printable mat: size, markers, zones and the kind of die its game uses."""

    name: str
    title: str
    width_mm: float
    height_mm: float
    dictionary: str
    markers: tuple[MarkerPlacement, ...]
    zones: tuple[Zone, ...]
    die: DiceSpec
    background_bgr: tuple[int, int, int]
    source: Path | None = None

    def marker(self, marker_id: int) -> MarkerPlacement:
        for m in self.markers:
            if m.marker_id == marker_id:
                return m
        raise KeyError(f"mat {self.name!r} has no marker {marker_id} (ids: {[m.marker_id for m in self.markers]})")

    def zones_of_kind(self, kind: str) -> list[Zone]:
        return [z for z in self.zones if z.kind == kind]

    def zone(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"mat {self.name!r} has no zone {name!r} (zones: {[z.name for z in self.zones]})")

    def on_mat(self, x_mm: float, y_mm: float, margin_mm: float = 0.0) -> bool:
        """True when the point lies on the mat, ``margin_mm`` inside its edge."""
        return (margin_mm <= x_mm <= self.width_mm - margin_mm
                and margin_mm <= y_mm <= self.height_mm - margin_mm)


def available_layouts() -> list[str]:
    """Names of the layouts shipped in ``hardware/mats``."""
    return sorted(p.stem for p in MATS_DIR.glob("*.toml"))


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise MatLayoutError(f"{path}: file not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise MatLayoutError(f"{path}: not valid TOML ({exc}); fix the syntax at that line") from exc


def _number(data: dict[str, Any], key: str, where: str, positive: bool = True) -> float:
    if key not in data:
        raise MatLayoutError(f"{where}: missing {key!r}")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MatLayoutError(f"{where}: {key!r} must be a number, got {value!r}")
    if positive and value <= 0:
        raise MatLayoutError(f"{where}: {key!r} must be positive, got {value!r}")
    return float(value)


def _colour(value: Any, where: str) -> tuple[int, int, int]:
    if (not isinstance(value, list) or len(value) != 3
            or not all(isinstance(v, int) and 0 <= v <= 255 for v in value)):
        raise MatLayoutError(f"{where}: a colour is 3 integers 0..255 (blue, green, red), got {value!r}")
    return int(value[0]), int(value[1]), int(value[2])


def _pair(value: Any, where: str) -> tuple[float, float]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise MatLayoutError(f"{where}: expected [x_mm, y_mm], got {value!r}")
    return float(value[0]), float(value[1])


@lru_cache(maxsize=8)
def _dice_table(path: Path) -> dict[str, Any]:
    return _read_toml(path)


def load_dice(name: str, path: Path | None = None) -> DiceSpec:
    """The die kind ``name`` from ``hardware/dice.toml`` (or ``path``)."""
    path = path or DICE_FILE
    table = _dice_table(path).get("dice", {})
    if name not in table:
        raise MatLayoutError(f"{path}: no die kind {name!r} (known: {sorted(table)})")
    entry = table[name]
    where = f"{path} [dice.{name}]"
    faces = entry.get("faces", "pips")
    if faces not in ("pips", "symbols"):
        raise MatLayoutError(f"{where}: 'faces' must be 'pips' or 'symbols', got {faces!r}")
    return DiceSpec(name, str(entry.get("title", name)), _number(entry, "edge_mm", where), faces)


def dice_colours(path: Path | None = None) -> dict[str, tuple[int, int, int]]:
    """Default die body colours (BGR) from ``hardware/dice.toml``."""
    path = path or DICE_FILE
    table = _dice_table(path).get("colours", {})
    return {name: _colour(v, f"{path} [colours] {name}") for name, v in table.items()}


def load_layout(name_or_path: str | Path) -> MatLayout:
    """Read a mat layout by name (a file of ``hardware/mats/``, e.g. the first camera game's) or from a
    TOML file, checking every field.

    Raises :class:`MatLayoutError` naming the file and the faulty field.
    """
    text = str(name_or_path)
    path = Path(text)
    if not text.endswith(".toml") and path.parent == Path("."):
        path = MATS_DIR / f"{text}.toml"
        if not path.exists():
            raise MatLayoutError(f"no mat layout named {text!r}; known layouts: {', '.join(available_layouts())}")
    data = _read_toml(path)
    where = str(path)
    for key in ("name", "width_mm", "height_mm", "markers"):
        if key not in data:
            raise MatLayoutError(f"{where}: missing {key!r}")
    width = _number(data, "width_mm", where)
    height = _number(data, "height_mm", where)
    mk = data["markers"]
    if not isinstance(mk, dict):
        raise MatLayoutError(f"{where}: [markers] must be a table with dictionary, size_mm and placed")
    dictionary = str(mk.get("dictionary", "DICT_4X4_50"))
    if not hasattr(cv2.aruco, dictionary):
        raise MatLayoutError(f"{where}: [markers] dictionary {dictionary!r} is not an OpenCV ArUco dictionary")
    default_size = _number(mk, "size_mm", f"{where} [markers]") if "size_mm" in mk else None
    placed = mk.get("placed")
    if not isinstance(placed, list) or len(placed) < 4:
        raise MatLayoutError(f"{where}: [markers] placed must list at least 4 markers (for the mat's pose)")
    dict_size = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary)).bytesList.shape[0]
    markers = []
    for i, m in enumerate(placed):
        w = f"{where} [markers] placed[{i}]"
        if not isinstance(m, dict):
            raise MatLayoutError(f"{w}: expected {{ id = ..., x_mm = ..., y_mm = ... }}")
        if not isinstance(m.get("id"), int) or not 0 <= m["id"] < dict_size:
            raise MatLayoutError(f"{w}: 'id' must be an integer 0..{dict_size - 1}, got {m.get('id')!r}")
        size = _number(m, "size_mm", w) if "size_mm" in m else default_size
        if size is None:
            raise MatLayoutError(f"{w}: no 'size_mm' here nor in [markers]")
        x, y = _number(m, "x_mm", w, positive=False), _number(m, "y_mm", w, positive=False)
        if x < 0 or y < 0 or x + size > width or y + size > height:
            raise MatLayoutError(f"{w}: marker at ({x}, {y}) of {size} mm does not fit on the "
                                 f"{width} x {height} mm mat")
        markers.append(MarkerPlacement(m["id"], x, y, size))
    ids = [m.marker_id for m in markers]
    if len(set(ids)) != len(ids):
        raise MatLayoutError(f"{where}: marker ids must be unique, got {ids}")
    zones = tuple(_zone(z, f"{where} [[zones]] #{i + 1}") for i, z in enumerate(data.get("zones", [])))
    names = [z.name for z in zones]
    if len(set(names)) != len(names):
        raise MatLayoutError(f"{where}: zone names must be unique, got {names}")
    try:
        die = load_dice(str(data.get("die", "standard")))
    except MatLayoutError as exc:
        raise MatLayoutError(f"{where}: 'die': {exc}") from exc
    background = _colour(data.get("background", [230, 230, 230]), f"{where} background")
    return MatLayout(str(data["name"]), str(data.get("title", data["name"])), width, height, dictionary,
                     tuple(markers), zones, die, background, path)


def _zone(z: Any, where: str) -> Zone:
    if not isinstance(z, dict):
        raise MatLayoutError(f"{where}: a zone is a table")
    for key in ("name", "kind", "shape"):
        if not isinstance(z.get(key), str):
            raise MatLayoutError(f"{where}: missing {key!r} (a string)")
    shape = z["shape"]
    w = f"{where} ({z['name']})"
    params: dict[str, Any] = {}
    if shape == "circle":
        params["center"] = _pair(z.get("center"), f"{w} center")
        params["radius_mm"] = _number(z, "radius_mm", w)
    elif shape == "rect":
        r = z.get("rect")
        if not isinstance(r, list) or len(r) != 4 or not all(isinstance(v, (int, float)) for v in r):
            raise MatLayoutError(f"{w}: 'rect' must be [x, y, width, height] in mm, got {r!r}")
        params["rect"] = tuple(float(v) for v in r)
    elif shape == "polygon":
        pts = z.get("points")
        if not isinstance(pts, list) or len(pts) < 3:
            raise MatLayoutError(f"{w}: 'points' must list at least 3 [x, y] pairs")
        params["points"] = tuple(_pair(p, f"{w} points") for p in pts)
    elif shape == "grid":
        params["origin"] = _pair(z.get("origin"), f"{w} origin")
        params["cell_mm"] = _number(z, "cell_mm", w)
        for key in ("columns", "rows"):
            if not isinstance(z.get(key), int) or z[key] < 1:
                raise MatLayoutError(f"{w}: {key!r} must be a positive integer, got {z.get(key)!r}")
            params[key] = z[key]
        if "group" in z:
            params["group"] = tuple(int(v) for v in z["group"])
    else:
        raise MatLayoutError(f"{w}: unknown shape {shape!r}; use one of {', '.join(ZONE_SHAPES)}")
    owner = z.get("owner")
    if owner is not None and not isinstance(owner, int):
        raise MatLayoutError(f"{w}: 'owner' must be a player number")
    colour = _colour(z["colour"], f"{w} colour") if "colour" in z else None
    return Zone(z["name"], z["kind"], shape, params, owner, colour)


def draw_mat(layout: MatLayout, px_per_mm: float, margin_mm: float = 0.0,
             margin_bgr: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """The mat as a BGR image at ``px_per_mm``, optionally inside a margin of ``margin_bgr``.

    The same drawing serves the printed PNG/PDF and the synthetic renderer, so what is printed is what
    the tests see.
    """
    from controller.vision.markers import marker_image

    s = px_per_mm
    W = int(round((layout.width_mm + 2 * margin_mm) * s))
    H = int(round((layout.height_mm + 2 * margin_mm) * s))
    img = np.empty((H, W, 3), np.uint8)
    img[:] = margin_bgr
    ox = oy = margin_mm

    def px(pts: np.ndarray) -> np.ndarray:
        return np.round((np.asarray(pts) + (ox, oy)) * s * 16).astype(np.int32)

    x0, y0 = int(round(ox * s)), int(round(oy * s))
    x1, y1 = int(round((ox + layout.width_mm) * s)), int(round((oy + layout.height_mm) * s))
    img[y0:y1, x0:x1] = layout.background_bgr
    line = max(1, int(round(0.6 * s)))
    for z in layout.zones:
        if z.kind == "temple":
            continue
        poly = px(z.polygon()).reshape(-1, 1, 2)
        if z.colour is not None:
            cv2.fillPoly(img, [poly], z.colour, cv2.LINE_AA, shift=4)
        edge = tuple(int(c * 0.6) for c in (z.colour or (120, 120, 120)))
        cv2.polylines(img, [poly], True, edge, line, cv2.LINE_AA, shift=4)
        if z.shape == "grid":
            p = z.params
            gx, gy = p.get("group", (0, 0))
            for c in range(p["columns"] + 1):
                x = p["origin"][0] + c * p["cell_mm"]
                thick = line * (2 if gx and c % gx == 0 else 1)
                a, b = px([[x, p["origin"][1]], [x, p["origin"][1] + p["rows"] * p["cell_mm"]]])
                cv2.line(img, tuple(a), tuple(b), edge, thick, cv2.LINE_AA, shift=4)
            for r in range(p["rows"] + 1):
                y = p["origin"][1] + r * p["cell_mm"]
                thick = line * (2 if gy and r % gy == 0 else 1)
                a, b = px([[p["origin"][0], y], [p["origin"][0] + p["columns"] * p["cell_mm"], y]])
                cv2.line(img, tuple(a), tuple(b), edge, thick, cv2.LINE_AA, shift=4)
    for z in layout.zones_of_kind("temple"):
        cx, cy = z.params["center"]
        d = layout.die.edge_mm / 2
        sq = px(np.array([[cx - d, cy - d], [cx + d, cy - d], [cx + d, cy + d], [cx - d, cy + d]]))
        cv2.polylines(img, [sq.reshape(-1, 1, 2)], True, (90, 90, 150), line, cv2.LINE_AA, shift=4)
    cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), (60, 60, 60), line)
    for m in layout.markers:
        side = int(round(m.size_mm * s))
        # A white quiet zone of one module around each marker keeps detection reliable on a tinted mat.
        q = int(round(m.size_mm / 6 * s))
        mx, my = int(round((ox + m.x_mm) * s)), int(round((oy + m.y_mm) * s))
        cv2.rectangle(img, (max(x0, mx - q), max(y0, my - q)),
                      (min(x1, mx + side + q) - 1, min(y1, my + side + q) - 1), (255, 255, 255), -1)
        mark = marker_image(layout.dictionary, m.marker_id, side)
        img[my:my + side, mx:mx + side] = cv2.cvtColor(mark, cv2.COLOR_GRAY2BGR)
    return img
