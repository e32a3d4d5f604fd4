"""Writing the printable parts (STL, STEP, a coloured 3MF), the KiCad netlists and the pictures.

``bitbox hardware export`` calls :func:`export_parts` and :func:`export_netlists` into the current
folder; ``bitbox hardware draw`` calls :func:`render_pictures` and the schematics' drawing into
``docs/images``.
"""

from __future__ import annotations

import contextlib
import locale
from collections.abc import Callable, Iterator
from pathlib import Path

from controller.dials.ladders import WHEEL_ORDER


def printable_parts(case=None, mount=None) -> dict[str, Callable[[], object]]:
    """The parts to print, by file stem, each built when asked for."""
    from controller.hardware.case import Case
    from controller.hardware.stand import CameraMount

    case = case or Case()
    mount = mount or CameraMount()
    parts: dict[str, Callable[[], object]] = {"case-lid": lambda: case.lid, "case-base": lambda: case.base}
    for wheel in WHEEL_ORDER:
        parts[f"knob-{wheel}"] = lambda wheel=wheel: case.knob(wheel)
    parts["camera-mount"] = lambda: mount.part
    return parts


@contextlib.contextmanager
def kept_locale() -> Iterator[None]:
    """Put the process's locale back after writers that set the C library's to "C" (lib3mf, OpenCascade's
    STEP writer): Python would otherwise decode a subprocess's output as ASCII from then on."""
    saved = locale.setlocale(locale.LC_ALL)
    try:
        yield
    finally:
        locale.setlocale(locale.LC_ALL, saved)


def export_parts(folder: Path, step: bool = True, case=None, mount=None) -> list[Path]:
    """Write every printable part as STL (and STEP), plus the symbol knob as a coloured 3MF and its
    body and labels as separate STLs for multi-material printers. Returns the files written."""
    with kept_locale():
        return _export_parts(folder, step, case, mount)


def _export_parts(folder: Path, step: bool, case, mount) -> list[Path]:
    from build123d import Color, Mesher, export_step, export_stl

    from controller.dials.ladders import load_design
    from controller.hardware.case import Case

    folder.mkdir(parents=True, exist_ok=True)
    case = case or Case()
    out = []
    for stem, build in printable_parts(case, mount).items():
        part = build()
        export_stl(part, str(folder / f"{stem}.stl"), tolerance=0.01, angular_tolerance=0.1)
        out.append(folder / f"{stem}.stl")
        if step:
            export_step(part, str(folder / f"{stem}.step"))
            out.append(folder / f"{stem}.step")
    body = case.knob_body("symbol")
    export_stl(body, str(folder / "knob-symbol-body.stl"), tolerance=0.01, angular_tolerance=0.1)
    out.append(folder / "knob-symbol-body.stl")
    labels = load_design().wheels["symbol"].labels
    colours = case.symbol_colours
    body.color = Color("#d0d0d0")
    mesher = Mesher()
    mesher.add_shape(body, part_number="knob body")
    for label, solid in zip(labels, case.knob_labels("symbol")):
        export_stl(solid, str(folder / f"knob-symbol-label-{label}.stl"), tolerance=0.01, angular_tolerance=0.1)
        out.append(folder / f"knob-symbol-label-{label}.stl")
        solid.color = Color(colours[label])
        mesher.add_shape(solid, part_number=f"label {label}")
    mesher.write(str(folder / "knob-symbol.3mf"))
    out.append(folder / "knob-symbol.3mf")
    return out


def export_netlists(folder: Path) -> list[Path]:
    """The builds' KiCad netlists (open them in KiCad's PCB editor: File > Import > Netlist)."""
    from controller.hardware import circuit
    from controller.hardware.eda import netlist

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for stem, build in (("usb-controller", circuit.usb_controller), ("direct-controller", circuit.direct_controller),
                        ("direct-adc-board", circuit.direct_adc_board)):
        path = folder / f"{stem}.net"
        path.write_text(netlist(build().circuit), encoding="utf-8")
        out.append(path)
    return out


def render(part, path: Path, title: str, elevation: float = 28, azimuth: float = -60,
           colour: str = "#e8a33c", extra: list[tuple[object, str]] = ()) -> Path:
    """A shaded picture of a part (and any ``extra`` parts in their colours), as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import trimesh
    from matplotlib.colors import to_rgb
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    from controller.hardware.meshcheck import mesh_of

    fig = plt.figure(figsize=(8, 5), dpi=110)
    ax = fig.add_subplot(projection="3d")
    light = np.array([0.4, -0.5, 0.8])
    light /= np.linalg.norm(light)
    el, az = np.radians(elevation), np.radians(azimuth)
    towards_viewer = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])
    meshes = [(mesh_of(shape, 0.05), tint) for shape, tint in [(part, colour)] + list(extra)]
    lows = [m.bounds[0] for m, _ in meshes]
    highs = [m.bounds[1] for m, _ in meshes]
    size = (np.max(highs, axis=0) - np.min(lows, axis=0)).max() / 80
    triangles, colours = [], []
    for mesh, tint in meshes:
        # Small triangles facing the viewer only: matplotlib paints whole triangles back to front.
        vertices, faces = trimesh.remesh.subdivide_to_size(mesh.vertices, mesh.faces, size)
        fine = trimesh.Trimesh(vertices, faces, process=False)
        front = fine.face_normals @ towards_viewer > 0
        shade = 0.35 + 0.65 * np.clip(fine.face_normals[front] @ light, 0, 1)
        triangles.append(fine.triangles[front])
        colours.append(np.clip(np.outer(shade, to_rgb(tint)), 0, 1))
    ax.add_collection3d(Poly3DCollection(np.concatenate(triangles), facecolors=np.concatenate(colours),
                                         edgecolors="none", linewidths=0, antialiased=False))
    low, high = np.min(lows, axis=0), np.max(highs, axis=0)
    centre, span = (low + high) / 2, (high - low).max() / 2
    for axis, c in zip("xyz", centre):
        getattr(ax, f"set_{axis}lim")(c - span, c + span)
    ax.set_box_aspect((1, 1, 1), zoom=1.5)
    ax.view_init(elev=elevation, azim=azimuth)
    ax.set_axis_off()
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def render_pictures(folder: Path) -> list[Path]:
    """The pictures the docs show: the case, the knobs, the base with its stand-offs, the camera mount."""
    from build123d import Pos, Rot

    from controller.hardware.case import Case
    from controller.hardware.stand import CameraMount

    folder.mkdir(parents=True, exist_ok=True)
    case = Case()
    lay = case.layout
    lift = lay.height + case.spec["knob"]["lift_mm"]
    knobs = [(Pos(x, y, lift) * case.knob(w), "#404040") for w, (x, y) in lay.knobs.items()]
    out = [render(case.lid, folder / "case-assembled.png", "The controller: lid and knobs", extra=knobs),
           render(Pos(0, 0, lay.height) * Rot(180, 0, 0) * case.lid, folder / "case-lid-inside.png",
                  "The lid seen from below (as it prints, upside down)", elevation=35),
           render(case.base, folder / "case-base.png", "The base with the Pico's stand-offs"),
           render(Pos(0, 0, 0) * case.knob_body("symbol"), folder / "knob-symbol.png", "The symbol knob", colour="#d0d0d0",
                  extra=list(zip(case.knob_labels("symbol"), case.symbol_colours.values())), elevation=45,
                  azimuth=110),
           render(CameraMount().part, folder / "camera-mount.png", "The camera mount (stand-offs up, as it prints)")]
    return out
