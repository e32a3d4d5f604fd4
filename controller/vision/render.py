"""Synthetic table scenes with exact ground truth, for tests and benchmarks.

A scene is a mat (from a layout, or a plain surface), dice (pips or DiXe-like symbols, standing alone or
stacked), hands, a camera at a given height and tilt, and lighting (gradient, shadows, glare, lens blur,
sensor noise). :func:`render` draws it with a pinhole camera and returns the image, the camera's true
:class:`~controller.vision.geometry.CameraModel` and, per die, where it really is. Everything random is
drawn from ``Scene.seed``, so a scene renders the same image every time.

Typical uses::

    scene = Scene(layout=load_layout(mat), dice=[Die(120, 120, top=5)], camera=CameraSpec(560))  # mat: a layout name
    out = render(scene)                      # out.image (BGR), out.camera, out.truth[0].top_center_px
    crop = render_die_crop(3, px=64)         # one die seen from above, for face-reader tests
    scene = random_scene(load_layout(mat), n_dice=20, seed=7, temples=True)   # mat: a layout's name

World frame: the mat's mm frame (x right, y down) with z into the table, so heights are negative z.
"""

from __future__ import annotations

import collections
import dataclasses
import math

import cv2
import numpy as np

from controller.vision.geometry import CameraModel, assumed_intrinsics, focal_px
from controller.vision.mat import MatLayout, draw_mat

#: Symbols drawn on DiXe-like faces (line-art stand-ins for the real icons, enough to tell apart).
SYMBOLS: tuple[str, ...] = ("soleil", "bombe", "smiley", "pirate", "pi", "yin-yang", "sablier",
                            "tete-de-mort", "aum", "oni")

TABLE_BGR = (70, 105, 140)        # a wooden table around the mat
SKIN_BGR = (120, 150, 205)


@dataclasses.dataclass(frozen=True)
class Die:
    """One die: centre of its footprint in mm, rotation, top face and stack level.

    ``top`` is a pip count (1..6) or a symbol name from :data:`SYMBOLS`. ``level`` 2 stands on the die
    below (give both dice, at the same x, y). ``edge_mm`` defaults to the layout's die.
    """

    x_mm: float
    y_mm: float
    top: int | str = 1
    angle_deg: float = 0.0
    level: int = 1
    edge_mm: float | None = None
    body_bgr: tuple[int, int, int] = (225, 225, 225)
    ink_bgr: tuple[int, int, int] = (35, 35, 35)
    sides: tuple[int | str, ...] = ()       # the 4 side faces; derived from ``top`` when empty
    colour: str = "white"


@dataclasses.dataclass(frozen=True)
class Hand:
    """A hand held ``height_mm`` over the mat, palm centred at (x, y), the arm leaving towards
    ``arm_angle_deg`` (0: towards +x)."""

    x_mm: float
    y_mm: float
    arm_angle_deg: float = 90.0
    height_mm: float = 70.0
    scale: float = 1.0
    skin_bgr: tuple[int, int, int] = SKIN_BGR


@dataclasses.dataclass(frozen=True)
class CameraSpec:
    """A pinhole camera ``height_mm`` above the mat, its optical axis through ``target_mm`` (the mat's
    centre by default), tilted ``tilt_deg`` from vertical with the camera displaced towards
    ``yaw_deg`` (0: the camera sits towards -x and looks towards +x)."""

    height_mm: float = 700.0
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    target_mm: tuple[float, float] | None = None
    image_size: tuple[int, int] = (1280, 720)
    hfov_deg: float = 66.0


@dataclasses.dataclass(frozen=True)
class Lighting:
    """Light and sensor effects. ``gradient``: 0..1 brightness fall-off across the image;
    ``shadow``: 0..1 darkness of cast shadows; ``shadow_tint``: how much bluer than the light a
    shadow is (0: untinted; 0.2: red darkened 20 % more and blue 20 % less, as daylight filling
    a warm lamp's shadow); ``glare``: number of bright specular spots; ``blur_sigma`` in px (lens
    blur); ``noise_sigma`` in grey levels."""

    brightness: float = 1.0
    gradient: float = 0.0
    gradient_angle_deg: float = 30.0
    shadow: float = 0.3
    shadow_tint: float = 0.0
    light_dir: tuple[float, float, float] = (0.25, 0.15, 1.0)
    glare: int = 0
    blur_sigma: float = 0.7
    noise_sigma: float = 1.5


@dataclasses.dataclass(frozen=True)
class Scene:
    """Everything :func:`render` draws. ``layout`` None gives a plain surface ``plain_size_mm``
    of ``plain_bgr``."""

    layout: MatLayout | None
    dice: tuple[Die, ...] = ()
    hands: tuple[Hand, ...] = ()
    camera: CameraSpec = CameraSpec()
    lighting: Lighting = Lighting()
    seed: int = 0
    plain_size_mm: tuple[float, float] = (200.0, 200.0)
    plain_bgr: tuple[int, int, int] = (200, 205, 200)


@dataclasses.dataclass(frozen=True)
class DieTruth:
    """Where a rendered die really is: mat mm of its footprint centre, top face height, and its top
    face in the image (centre and 4 corners, px, as the camera sees them)."""

    index: int
    x_mm: float
    y_mm: float
    level: int
    top: int | str
    angle_deg: float
    top_height_mm: float
    top_center_px: tuple[float, float]
    top_corners_px: tuple[tuple[float, float], ...]
    in_image: bool


@dataclasses.dataclass(frozen=True)
class Rendered:
    """A rendered frame with its true camera and ground truth."""

    image: np.ndarray
    camera: CameraModel
    truth: tuple[DieTruth, ...]
    hand_boxes_mm: tuple[tuple[float, float, float, float], ...]   # x, y, w, h of each hand's shadow on the mat
    scene: Scene


# ---------------------------------------------------------------------------------------------------
# Camera

def camera_model(spec: CameraSpec, mat_size_mm: tuple[float, float]) -> CameraModel:
    """The exact pinhole camera a :class:`CameraSpec` describes (no lens distortion)."""
    tx, ty = spec.target_mm if spec.target_mm is not None else (mat_size_mm[0] / 2, mat_size_mm[1] / 2)
    t = math.radians(spec.tilt_deg)
    y = math.radians(spec.yaw_deg)
    horiz = spec.height_mm * math.tan(t)
    P = np.array([tx - horiz * math.cos(y), ty - horiz * math.sin(y), -spec.height_mm])
    z = np.array([tx, ty, 0.0]) - P
    z /= np.linalg.norm(z)
    x = np.cross(np.array([0.0, 1.0, 0.0]), z)
    if np.linalg.norm(x) < 1e-6:
        x = np.array([1.0, 0.0, 0.0])
    x /= np.linalg.norm(x)
    yv = np.cross(z, x)
    R = np.stack([x, yv, z])
    tvec = -R @ P
    K = assumed_intrinsics(spec.image_size, spec.hfov_deg)
    return CameraModel(K, np.zeros(5), cv2.Rodrigues(R)[0].ravel(), tvec, spec.image_size, True)


# ---------------------------------------------------------------------------------------------------
# Faces

_PIP_GRID = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def draw_symbol(img: np.ndarray, name: str, ink: tuple[int, int, int]) -> None:
    """Draw a DiXe-like symbol filling the square image ``img`` in place."""
    s = img.shape[0]
    c = (s // 2, s // 2)
    lw = max(1, s // 18)
    r = int(s * 0.3)

    def P(x: float, y: float) -> tuple[int, int]:
        return int(round(s * x)), int(round(s * y))

    if name == "soleil":
        cv2.circle(img, c, int(s * 0.17), ink, -1, cv2.LINE_AA)
        for k in range(8):
            a = k * math.pi / 4
            cv2.line(img, P(0.5 + 0.24 * math.cos(a), 0.5 + 0.24 * math.sin(a)),
                     P(0.5 + 0.36 * math.cos(a), 0.5 + 0.36 * math.sin(a)), ink, lw, cv2.LINE_AA)
    elif name == "bombe":
        cv2.circle(img, P(0.45, 0.56), int(s * 0.24), ink, -1, cv2.LINE_AA)
        cv2.line(img, P(0.6, 0.36), P(0.74, 0.2), ink, lw, cv2.LINE_AA)
        cv2.circle(img, P(0.77, 0.17), max(1, s // 20), ink, -1, cv2.LINE_AA)
    elif name == "smiley":
        cv2.circle(img, c, r, ink, lw, cv2.LINE_AA)
        cv2.circle(img, P(0.4, 0.42), max(1, s // 18), ink, -1, cv2.LINE_AA)
        cv2.circle(img, P(0.6, 0.42), max(1, s // 18), ink, -1, cv2.LINE_AA)
        cv2.ellipse(img, P(0.5, 0.54), (int(s * 0.14), int(s * 0.1)), 0, 20, 160, ink, lw, cv2.LINE_AA)
    elif name == "pirate":
        cv2.circle(img, P(0.5, 0.45), int(s * 0.22), ink, lw, cv2.LINE_AA)
        cv2.line(img, P(0.25, 0.3), P(0.75, 0.5), ink, lw, cv2.LINE_AA)
        cv2.circle(img, P(0.4, 0.44), max(2, s // 12), ink, -1, cv2.LINE_AA)
        cv2.line(img, P(0.3, 0.78), P(0.7, 0.78), ink, lw, cv2.LINE_AA)
    elif name == "pi":
        cv2.line(img, P(0.22, 0.3), P(0.78, 0.3), ink, lw * 2, cv2.LINE_AA)
        cv2.line(img, P(0.38, 0.3), P(0.34, 0.75), ink, lw * 2, cv2.LINE_AA)
        cv2.line(img, P(0.62, 0.3), P(0.66, 0.75), ink, lw * 2, cv2.LINE_AA)
    elif name == "yin-yang":
        cv2.circle(img, c, r, ink, lw, cv2.LINE_AA)
        cv2.ellipse(img, c, (r, r), 0, 90, 270, ink, -1, cv2.LINE_AA)
        cv2.circle(img, P(0.5, 0.5 - 0.15), r // 2, ink, -1, cv2.LINE_AA)
    elif name == "sablier":
        pts = np.array([P(0.28, 0.2), P(0.72, 0.2), P(0.28, 0.8), P(0.72, 0.8)], np.int32)
        cv2.fillConvexPoly(img, np.array([pts[0], pts[1], c]), ink, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([pts[2], pts[3], c]), ink, cv2.LINE_AA)
    elif name == "tete-de-mort":
        cv2.circle(img, P(0.5, 0.42), int(s * 0.22), ink, -1, cv2.LINE_AA)
        cv2.rectangle(img, P(0.38, 0.55), P(0.62, 0.75), ink, -1)
        bg = tuple(int(v) for v in img[1, 1])
        cv2.circle(img, P(0.41, 0.42), max(2, s // 14), bg, -1, cv2.LINE_AA)
        cv2.circle(img, P(0.59, 0.42), max(2, s // 14), bg, -1, cv2.LINE_AA)
    elif name == "aum":
        cv2.ellipse(img, P(0.42, 0.4), (int(s * 0.13), int(s * 0.1)), 0, 180, 450, ink, lw, cv2.LINE_AA)
        cv2.ellipse(img, P(0.42, 0.62), (int(s * 0.15), int(s * 0.12)), 0, 270, 540, ink, lw, cv2.LINE_AA)
        cv2.ellipse(img, P(0.66, 0.58), (int(s * 0.1), int(s * 0.16)), 0, 180, 360, ink, lw, cv2.LINE_AA)
        cv2.circle(img, P(0.7, 0.22), max(1, s // 20), ink, -1, cv2.LINE_AA)
    else:
        # A character: a head with horns and the name's initial, distinct per name.
        cv2.circle(img, P(0.5, 0.55), int(s * 0.25), ink, lw, cv2.LINE_AA)
        cv2.line(img, P(0.33, 0.38), P(0.25, 0.15), ink, lw, cv2.LINE_AA)
        cv2.line(img, P(0.67, 0.38), P(0.75, 0.15), ink, lw, cv2.LINE_AA)
        cv2.putText(img, name[:1].upper(), P(0.38, 0.68), cv2.FONT_HERSHEY_SIMPLEX, s / 90, ink,
                    max(1, s // 30), cv2.LINE_AA)


def face_texture(top: int | str, size_px: int, body_bgr: tuple[int, int, int] = (225, 225, 225),
                 ink_bgr: tuple[int, int, int] = (35, 35, 35)) -> np.ndarray:
    """One face, seen square-on, as a ``size_px`` BGR image: pips (1..6) or a symbol name."""
    s = int(size_px)
    img = np.empty((s, s, 3), np.uint8)
    img[:] = body_bgr
    if isinstance(top, int):
        if top not in _PIP_GRID:
            raise ValueError(f"a pip face is 1..6, got {top}")
        rad = s * 0.095
        for gx, gy in _PIP_GRID[top]:
            cx, cy = s / 2 + gx * s * 0.27, s / 2 + gy * s * 0.27
            cv2.circle(img, (int(cx * 16), int(cy * 16)), int(rad * 16), ink_bgr, -1, cv2.LINE_AA, shift=4)
    else:
        draw_symbol(img, top, ink_bgr)
    # Rounded, slightly darker edges, as on real dice.
    edge = max(1, s // 20)
    cv2.rectangle(img, (0, 0), (s - 1, s - 1), tuple(int(v * 0.85) for v in body_bgr), edge)
    return img


def _side_faces(die: Die) -> tuple[int | str, ...]:
    if die.sides:
        return tuple(die.sides)
    if isinstance(die.top, int):
        return tuple(v for v in (1, 2, 3, 4, 5, 6) if v not in (die.top, 7 - die.top))
    others = [s for s in SYMBOLS if s != die.top]
    return tuple(others[:4])


# ---------------------------------------------------------------------------------------------------
# Drawing

_TEXTURES: dict[tuple[object, ...], np.ndarray] = {}

#: The mat and table as each recent camera sees them (the warped texture), most recent last.
_VIEWS: collections.OrderedDict[tuple[object, ...], np.ndarray] = collections.OrderedDict()
_MAX_VIEWS = 4

#: A texture (tens of megabytes: the mat and a wide band of table at several pixels per mm) is let go
#: once this many frames in a row were drawn from kept views: a fixed camera, as in the demos, needs
#: only its own view (a few megabytes), while tests and benchmarks that move the camera between
#: frames keep it.
_TEXTURE_IDLE_FRAMES = 16
_texture_idle = 0


def _table_texture(layout: MatLayout | None, plain: tuple[float, float], plain_bgr: tuple[int, int, int],
                   px_per_mm: float, margin_mm: float) -> np.ndarray:
    key = (id(layout), layout.name if layout else None, plain, plain_bgr, px_per_mm, margin_mm)
    if key not in _TEXTURES:
        if len(_TEXTURES) > 6:
            _TEXTURES.clear()
        _TEXTURES[key] = _draw_table(layout, plain, plain_bgr, px_per_mm, margin_mm)
    return _TEXTURES[key]


def _table_view(layout: MatLayout | None, plain: tuple[float, float], plain_bgr: tuple[int, int, int],
                px_per_mm: float, margin_mm: float, homography: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The table texture warped by ``homography`` to an image of ``size``: a new array each call
    (the caller draws on it), copied from the views kept for recent cameras."""
    global _texture_idle
    key = (id(layout), layout.name if layout else None, plain, plain_bgr, px_per_mm, margin_mm,
           homography.tobytes(), size)
    view = _VIEWS.get(key)
    if view is not None:
        _VIEWS.move_to_end(key)
        _texture_idle += 1
        if _texture_idle >= _TEXTURE_IDLE_FRAMES:
            _TEXTURES.clear()
        return view.copy()
    _texture_idle = 0
    tex = _table_texture(layout, plain, plain_bgr, px_per_mm, margin_mm)
    view = cv2.warpPerspective(tex, homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=TABLE_BGR)
    _VIEWS[key] = view
    while len(_VIEWS) > _MAX_VIEWS:
        _VIEWS.popitem(last=False)
    return view.copy()


def _draw_table(layout: MatLayout | None, plain: tuple[float, float], plain_bgr: tuple[int, int, int],
                px_per_mm: float, margin_mm: float) -> np.ndarray:
    if layout is None:
        W = int(round((plain[0] + 2 * margin_mm) * px_per_mm))
        H = int(round((plain[1] + 2 * margin_mm) * px_per_mm))
        img = np.empty((H, W, 3), np.uint8)
        img[:] = TABLE_BGR
        m = int(round(margin_mm * px_per_mm))
        img[m:H - m, m:W - m] = plain_bgr
        return img
    img = draw_mat(layout, px_per_mm, margin_mm, TABLE_BGR)
    # Wood grain, so the table is not a flat colour.
    rng = np.random.default_rng(1)
    grain = cv2.resize(rng.normal(0, 6, (img.shape[0] // 8 + 1, 8)).astype(np.float32), (img.shape[1], img.shape[0]))
    m = int(round(margin_mm * px_per_mm))
    H, W = img.shape[:2]
    # The table around the mat, a band of rows at a time: the texture is tens of megabytes, and a
    # float copy of the whole of it would be four times that.
    bands = [(y, min(y + 64, m), 0, W) for y in range(0, m, 64)]
    bands += [(y, min(y + 64, H - m), x0, x1) for y in range(m, H - m, 64) for x0, x1 in ((0, m), (W - m, W))]
    bands += [(y, min(y + 64, H), 0, W) for y in range(H - m, H, 64)]
    for y0, y1, x0, x1 in bands:
        part = img[y0:y1, x0:x1].astype(np.float32)
        part += grain[y0:y1, x0:x1, None]
        img[y0:y1, x0:x1] = np.clip(part, 0, 255).astype(np.uint8)
    return img


def _cube_faces(die: Die, edge: float) -> list[tuple[np.ndarray, np.ndarray, int | str | None, bool]]:
    """Each face of a die: (corners (4, 3) world mm in texture order, outward normal, value, is_top)."""
    a = math.radians(die.angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    base = (die.level - 1) * edge
    h = edge / 2

    def W(u: float, v: float, w: float) -> list[float]:
        return [die.x_mm + u * ca - v * sa, die.y_mm + u * sa + v * ca, -(base + w)]

    sides = _side_faces(die)
    faces = [
        (np.array([W(-h, -h, edge), W(h, -h, edge), W(h, h, edge), W(-h, h, edge)]), np.array([0, 0, -1.0]),
         die.top, True),
        (np.array([W(h, -h, edge), W(h, h, edge), W(h, h, 0), W(h, -h, 0)]), np.array([ca, sa, 0]), sides[0], False),
        (np.array([W(-h, h, edge), W(-h, -h, edge), W(-h, -h, 0), W(-h, h, 0)]), np.array([-ca, -sa, 0]),
         sides[1], False),
        (np.array([W(h, h, edge), W(-h, h, edge), W(-h, h, 0), W(h, h, 0)]), np.array([-sa, ca, 0]), sides[2], False),
        (np.array([W(-h, -h, edge), W(h, -h, edge), W(h, -h, 0), W(-h, -h, 0)]), np.array([sa, -ca, 0]),
         sides[3], False),
    ]
    return faces


def _paste_quad(img: np.ndarray, tex: np.ndarray, quad: np.ndarray) -> None:
    """Warp ``tex`` onto the image quadrilateral ``quad`` (4, 2), in place."""
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    s = tex.shape[0]
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    M = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    roi = img[y0:y1, x0:x1]
    warped = cv2.warpPerspective(tex, M, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - (x0, y0)) * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    a = (mask.astype(np.float32) / 255)[..., None]
    roi[:] = (warped * a + roi * (1 - a)).astype(np.uint8)


def _hand_polygons(hand: Hand) -> list[np.ndarray]:
    """The hand and arm as polygons (N, 2) in mm on the hand's plane."""
    k = hand.scale
    a = math.radians(hand.arm_angle_deg)
    d = np.array([math.cos(a), math.sin(a)])       # towards the arm
    n = np.array([-d[1], d[0]])
    c = np.array([hand.x_mm, hand.y_mm])
    t = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    palm = c + np.outer(np.cos(t) * 50 * k, d) + np.outer(np.sin(t) * 42 * k, n)
    arm = np.array([c + d * 30 * k + n * 35 * k, c + d * 700 + n * 45 * k, c + d * 700 - n * 45 * k,
                    c + d * 30 * k - n * 35 * k])
    polys = [palm, arm]
    for i, off in enumerate((-27, -9, 9, 27)):
        base = c - d * 40 * k + n * off * k
        length = (62, 72, 70, 58)[i] * k
        polys.append(np.array([base + n * 8 * k, base - d * length + n * 7 * k, base - d * length - n * 7 * k,
                               base - n * 8 * k]))
    thumb_base = c + n * 38 * k
    polys.append(np.array([thumb_base - d * 10 * k, thumb_base + n * 45 * k - d * 35 * k,
                           thumb_base + n * 52 * k - d * 22 * k, thumb_base + d * 15 * k]))
    return polys


def render(scene: Scene) -> Rendered:
    """Draw ``scene`` as its camera sees it; returns the image, the true camera and the ground truth."""
    rng = np.random.default_rng(scene.seed)
    layout = scene.layout
    mat_w, mat_h = (layout.width_mm, layout.height_mm) if layout else scene.plain_size_mm
    cam = camera_model(scene.camera, (mat_w, mat_h))
    W, H = scene.camera.image_size
    default_edge = layout.die.edge_mm if layout else 16.0
    C = cam.centre

    # The mat and table, warped from a top-down texture with the mat-plane homography.
    native = cam.K[0, 0] / scene.camera.height_mm
    tex_scale = float(min(4.0, max(2.0, round(native * 1.5))))  # whole px per mm keep markers on the pixel grid
    margin = 250.0
    # Texture pixel i covers mat [i/s, (i+1)/s) mm: its centre is at (i + 0.5)/s.
    T = np.array([[1 / tex_scale, 0, 0.5 / tex_scale - margin], [0, 1 / tex_scale, 0.5 / tex_scale - margin],
                  [0, 0, 1]])
    Hm = cam.plane_homography(0.0) @ T
    img = _table_view(layout, (mat_w, mat_h), scene.plain_bgr, tex_scale, margin, Hm, (W, H))

    L = np.asarray(scene.lighting.light_dir, np.float64)
    L = L / np.linalg.norm(L)

    # Cast shadows on the mat: each die's footprint swept along the light.
    if scene.lighting.shadow > 0 and (scene.dice or scene.hands):
        sweep = np.array([L[0] / L[2], L[1] / L[2]])
        shapes: list[tuple[np.ndarray, bool]] = []            # (fixed-point outline, convex)
        for die in scene.dice:
            e = die.edge_mm or default_edge
            faces = _cube_faces(die, e)
            top = faces[0][0]
            pts = np.concatenate([top[:, :2] + sweep * (-top[:, 2:3]), top[:, :2]])
            hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
            px = cam.project(np.column_stack([hull, np.zeros(len(hull))]))
            shapes.append((np.round(px * 16).astype(np.int32), True))
        for hand in scene.hands:
            for poly in _hand_polygons(hand):
                p = poly + sweep * hand.height_mm
                px = cam.project(np.column_stack([p, np.zeros(len(p))]))
                shapes.append((np.round(px * 16).astype(np.int32), False))
        k = int(max(3, native * 6)) | 1
        _shade(img, shapes, k, scene.lighting)

    # Dice faces, far to near.
    faces_to_draw = []
    truth = []
    for i, die in enumerate(scene.dice):
        e = die.edge_mm or default_edge
        faces = _cube_faces(die, e)
        for corners, normal, value, is_top in faces:
            centre = corners.mean(axis=0)
            to_cam = C - centre
            if float(normal @ to_cam) <= 0:
                continue
            faces_to_draw.append((float(np.linalg.norm(to_cam)), corners, normal, value, is_top, die, e))
        top = faces[0][0]
        tc = cam.project(top.mean(axis=0)[None])[0]
        tq = cam.project(top)
        truth.append(DieTruth(i, die.x_mm, die.y_mm, die.level, die.top, die.angle_deg % 90.0,
                              die.level * e, (float(tc[0]), float(tc[1])),
                              tuple((float(x), float(y)) for x, y in tq),
                              bool(0 <= tc[0] < W and 0 <= tc[1] < H)))
    faces_to_draw.sort(key=lambda f: -f[0])
    for _, corners, normal, value, is_top, die, e in faces_to_draw:
        quad = cam.project(corners)
        size = int(np.clip(np.linalg.norm(quad[1] - quad[0]) * 2, 24, 160))
        tex_face = face_texture(value, size, die.body_bgr, die.ink_bgr)
        shade = 0.55 + 0.45 * max(0.0, float(-normal @ L)) if not is_top else 1.0
        if not is_top:
            tex_face = np.clip(tex_face * shade, 0, 255).astype(np.uint8)
        _paste_quad(img, tex_face, quad)

    # Hands, above everything else.
    boxes = []
    for hand in scene.hands:
        for j, poly in enumerate(_hand_polygons(hand)):
            px = cam.project(np.column_stack([poly, np.full(len(poly), -hand.height_mm)]))
            tone = tuple(int(v * (0.92 + 0.04 * (j % 3))) for v in hand.skin_bgr)
            cv2.fillPoly(img, [np.round(px * 16).astype(np.int32)], tone, cv2.LINE_AA, shift=4)
        allp = np.concatenate(_hand_polygons(hand)[:1] + _hand_polygons(hand)[2:])
        x0, y0 = allp.min(axis=0)
        x1, y1 = allp.max(axis=0)
        boxes.append((float(x0), float(y0), float(x1 - x0), float(y1 - y0)))

    # Light and sensor.
    lt = scene.lighting
    glares = []
    for _ in range(lt.glare):
        gx, gy = rng.uniform(0.1, 0.9) * W, rng.uniform(0.1, 0.9) * H
        if truth and rng.random() < 0.7:
            t = truth[int(rng.integers(len(truth)))]
            gx, gy = t.top_center_px[0] + rng.normal(0, 4), t.top_center_px[1] + rng.normal(0, 4)
        glares.append((gx, gy, native * default_edge * rng.uniform(0.12, 0.25)))
    image = _expose(img, lt, glares, rng)
    return Rendered(image, cam, tuple(truth), tuple(boxes), scene)


#: Rows of a frame shaded, lit and exposed at a time (see _shade and _expose).
_BAND = 60


def _shade(img: np.ndarray, shapes: list[tuple[np.ndarray, bool]], k: int, lighting: Lighting) -> None:
    """Darken ``img`` in place under the shadows ``shapes`` (outlines in pixels x 16, convex or not)
    softened by a ``k`` x ``k`` Gaussian blur: ``img * (1 - darkness * shadow * tint)``.

    A band of rows at a time, each with the rows around it that the blur reaches and the whole of
    every outline reaching into it: the shadow map of the whole frame is 3.5 MB of floats at
    1280x720. An outline moved by whole rows fills the same pixels, moved, as long as it is not cut
    by the image's edge (OpenCV's antialiased fill of a cut outline differs), so each band's shadow
    is the whole map's there."""
    H, W = img.shape[:2]
    margin = k // 2 + 1
    tint = np.array([1 - lighting.shadow_tint, 1.0, 1 + lighting.shadow_tint], np.float32)
    spans = [((int(outline[:, 1].min()) >> 4) - 2, (int(outline[:, 1].max()) >> 4) + 3) for outline, _ in shapes]
    for y0 in range(0, H, _BAND):
        y1 = min(H, y0 + _BAND)
        a, b = max(0, y0 - margin), min(H, y1 + margin)
        near = [(shape, span) for shape, span in zip(shapes, spans) if span[1] > a and span[0] < b]
        if not near:
            continue
        a = max(0, min(a, *(top for _, (top, _) in near)))
        b = min(H, max(b, *(bottom for _, (_, bottom) in near)))
        near = [shape for shape, _ in near]
        shadow = np.zeros((b - a, W), np.float32)
        for outline, convex in near:
            moved = outline - np.array([0, a * 16], np.int32)
            if convex:
                cv2.fillConvexPoly(shadow, moved, 1.0, cv2.LINE_AA, shift=4)
            else:
                cv2.fillPoly(shadow, [moved], 1.0, cv2.LINE_AA, shift=4)
        cv2.GaussianBlur(shadow, (k, k), 0, dst=shadow)     # a cut edge's rows are dropped below
        rows = shadow[y0 - a:y1 - a]
        img[y0:y1] = (img[y0:y1] * (1 - lighting.shadow * rows[:, :, None] * tint)).astype(np.uint8)


def _expose(img: np.ndarray, lt: Lighting, glares: list[tuple[float, float, float]],
            rng: np.random.Generator) -> np.ndarray:
    """The frame ``img`` as the sensor records it under ``lt``: brightness, gradient, glare spots
    (x, y, radius in px), lens blur and sensor noise drawn from ``rng``.

    Done a band of rows at a time, each with enough rows around it for the blur, with the same
    pixels and the same noise as over the whole frame at once: a 1280x720 frame is 11 MB as floats,
    and each step of the whole frame would make one more such copy."""
    H, W = img.shape[:2]
    margin = int(math.ceil(4 * lt.blur_sigma)) + 2 if lt.blur_sigma > 0 else 0
    cos_g, sin_g = math.cos(math.radians(lt.gradient_angle_deg)), math.sin(math.radians(lt.gradient_angle_deg))
    image = np.empty_like(img)
    for y0 in range(0, H, _BAND):
        y1 = min(H, y0 + _BAND)
        a, b = max(0, y0 - margin), min(H, y1 + margin)
        out = img[a:b].astype(np.float32)
        out *= lt.brightness
        if lt.gradient > 0:
            xx, yy = np.arange(W, dtype=np.float32)[None], np.arange(a, b, dtype=np.float32)[:, None]
            ramp = ((xx / W - 0.5) * cos_g + (yy / H - 0.5) * sin_g)
            out *= (1.0 - lt.gradient * (ramp + 0.5) * 0.6)[..., None]
        for gx, gy, r in glares:
            yy, xx = np.ogrid[a:b, 0:W]
            spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)).astype(np.float32)
            out += (spot * 120)[..., None]
        if lt.blur_sigma > 0:
            cv2.GaussianBlur(out, (0, 0), lt.blur_sigma, dst=out)   # a cut edge's rows are dropped below
        out = out[y0 - a:y1 - a]
        if lt.noise_sigma > 0:
            out += rng.normal(0, lt.noise_sigma, out.shape).astype(np.float32)
        image[y0:y1] = np.clip(out, 0, 255, out=out)
    return image


def visible_tops(truth: list[DieTruth]) -> list[DieTruth]:
    """The dice the camera can see from above: a die with another standing on it is left out."""
    return [t for t in truth if not any(o.level > t.level and math.hypot(o.x_mm - t.x_mm, o.y_mm - t.y_mm) < 1
                                        for o in truth)]


def match_truth(found: list, truth: list[DieTruth], max_mm: float) -> list[tuple[object, DieTruth, float]]:
    """Pairs (found die, visible true die, distance in mm), nearest first, each die used once, none
    further apart than ``max_mm``. ``found`` holds anything with ``x_mm`` and ``y_mm``."""
    tops = visible_tops(truth)
    pairs = sorted((math.hypot(f.x_mm - t.x_mm, f.y_mm - t.y_mm), i, j)
                   for i, f in enumerate(found) for j, t in enumerate(tops))
    used_found: set[int] = set()
    used_truth: set[int] = set()
    out = []
    for d, i, j in pairs:
        if d <= max_mm and i not in used_found and j not in used_truth:
            used_found.add(i)
            used_truth.add(j)
            out.append((found[i], tops[j], d))
    return out


def render_empty(scene: Scene) -> np.ndarray:
    """The same scene with no dice and no hands (the calibration's empty-mat image)."""
    return render(dataclasses.replace(scene, dice=(), hands=())).image


def render_die_crop(top: int | str, px: int = 64, angle_deg: float = 0.0, tilt_deg: float = 0.0,
                    body_bgr: tuple[int, int, int] = (225, 225, 225), ink_bgr: tuple[int, int, int] = (35, 35, 35),
                    surface_bgr: tuple[int, int, int] = (200, 205, 200), edge_mm: float = 16.0,
                    lighting: Lighting | None = None, seed: int = 0) -> np.ndarray:
    """One die seen from above (optionally from a tilted camera), cropped to ``px`` square around it:
    about 1.6 die widths across, the die centred. For face-reader tests."""
    size = px
    hfov = 40.0
    f = focal_px(size * 4, hfov)
    height = f * edge_mm * 1.6 / size
    scene = Scene(layout=None, dice=(Die(50.0, 50.0, top, angle_deg, 1, edge_mm, body_bgr, ink_bgr),),
                  camera=CameraSpec(height_mm=height, tilt_deg=tilt_deg, yaw_deg=angle_deg + 30,
                                    target_mm=(50.0, 50.0), image_size=(size * 4, size * 4), hfov_deg=hfov),
                  lighting=lighting or Lighting(), seed=seed, plain_size_mm=(100.0, 100.0), plain_bgr=surface_bgr)
    out = render(scene)
    cx, cy = out.truth[0].top_center_px
    x0, y0 = int(round(cx - size / 2)), int(round(cy - size / 2))
    return out.image[y0:y0 + size, x0:x0 + size].copy()


# ---------------------------------------------------------------------------------------------------
# Random scenes

def fitting_camera(layout: MatLayout | None, image_size: tuple[int, int] = (1280, 720), hfov_deg: float = 66.0,
                   tilt_deg: float = 0.0, yaw_deg: float = 0.0, fill: float = 0.92,
                   size_mm: tuple[float, float] = (200.0, 200.0)) -> CameraSpec:
    """A camera straight over the mat's centre (or tilted), just high enough to see the whole mat
    filling ``fill`` of the frame."""
    W, H = (layout.width_mm, layout.height_mm) if layout else size_mm
    f = focal_px(image_size[0], hfov_deg)
    height = max(W * f / (image_size[0] * fill), H * f / (image_size[1] * fill))
    return CameraSpec(height * (1 + 0.5 * math.sin(math.radians(tilt_deg))), tilt_deg, yaw_deg, None,
                      image_size, hfov_deg)


def temple(x_mm: float, y_mm: float, top: int | str, bottom_top: int | str = 1, angle_deg: float = 0.0,
           **kw: object) -> tuple[Die, Die]:
    """A temple: two dice stacked at (x, y), the upper one showing ``top``."""
    return (Die(x_mm, y_mm, bottom_top, angle_deg, 1, **kw),          # type: ignore[arg-type]
            Die(x_mm, y_mm, top, angle_deg + 3.0, 2, **kw))             # type: ignore[arg-type]


def random_scene(layout: MatLayout, n_dice: int, seed: int, *, temples: bool = False, toppled: int = 0,
                 symbols: bool = False, off_mat: int = 0, camera: CameraSpec | None = None,
                 lighting: Lighting | None = None, hands: tuple[Hand, ...] = (),
                 colours: dict[str, tuple[int, int, int]] | None = None) -> Scene:
    """A scene of ``n_dice`` loose dice at random, non-touching places on the mat.

    ``temples``: a standing temple on each of the layout's temple zones; ``toppled``: that many of
    those temples are knocked over instead (both dice lie near the zone). ``off_mat``: extra dice
    placed just beyond the mat's edge. ``symbols``: DiXe symbol faces instead of pips.
    """
    rng = np.random.default_rng(seed)
    e = layout.die.edge_mm
    dice: list[Die] = []
    taken: list[tuple[float, float]] = []
    palette = list((colours or {"white": (225, 225, 225)}).items())

    def face() -> int | str:
        return str(rng.choice(SYMBOLS)) if symbols else int(rng.integers(1, 7))

    def body() -> dict[str, object]:
        name, bgr = palette[int(rng.integers(len(palette)))]
        ink = (35, 35, 35) if sum(bgr) > 300 else (235, 235, 235)
        return {"body_bgr": tuple(bgr), "ink_bgr": ink, "colour": name}

    def free(x: float, y: float, gap: float) -> bool:
        return all(math.hypot(x - a, y - b) > gap for a, b in taken)

    if temples:
        zones = layout.zones_of_kind("temple")
        for k, z in enumerate(zones):
            cx, cy = z.params["center"]
            if k < toppled:
                for _ in range(2):
                    for _ in range(200):
                        r, a = rng.uniform(1.2 * e, 3.0 * e), rng.uniform(0, 2 * math.pi)
                        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
                        if free(x, y, 1.7 * e) and layout.on_mat(x, y, e):
                            dice.append(Die(x, y, face(), float(rng.uniform(0, 90)), **body()))  # type: ignore[arg-type]
                            taken.append((x, y))
                            break
            else:
                b = body()
                dice.extend(temple(cx, cy, face(), face(), float(rng.uniform(0, 90)), **b))
                taken.append((cx, cy))
    for _ in range(n_dice):
        for _ in range(500):
            x = rng.uniform(1.0 * e, layout.width_mm - 1.0 * e)
            y = rng.uniform(1.0 * e, layout.height_mm - 1.0 * e)
            near_marker = any(m.x_mm - e < x < m.x_mm + m.size_mm + e and m.y_mm - e < y < m.y_mm + m.size_mm + e
                              for m in layout.markers)
            if free(x, y, 2.0 * e) and not near_marker:
                dice.append(Die(x, y, face(), float(rng.uniform(0, 90)), **body()))  # type: ignore[arg-type]
                taken.append((x, y))
                break
    for _ in range(off_mat):
        for _ in range(200):
            side = int(rng.integers(4))
            t = rng.uniform(0.2, 0.8)
            out = rng.uniform(1.0, 2.0) * e
            x, y = [(t * layout.width_mm, -out), (t * layout.width_mm, layout.height_mm + out),
                    (-out, t * layout.height_mm), (layout.width_mm + out, t * layout.height_mm)][side]
            if free(x, y, 2.0 * e):
                dice.append(Die(x, y, face(), float(rng.uniform(0, 90)), **body()))  # type: ignore[arg-type]
                taken.append((x, y))
                break
    return Scene(layout=layout, dice=tuple(dice), hands=hands, camera=camera or fitting_camera(layout), seed=seed,
                 lighting=lighting or Lighting())
