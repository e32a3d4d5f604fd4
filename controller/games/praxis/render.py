"""Rendered Praxis tables with exact ground truth, for the table reader's tests and bench.

A :class:`TableScene` is the printed mat (drawn as ``bitbox mat praxis`` prints it) with artefact
and portal tiles laid on it (a little off their cells' centres and askew, as hands lay them), ships
(coloured pip dice: red, blue and green with white pips, yellow with black ones, as such dice are
sold), hands over the mat, and the camera and light of a real room: a pinhole camera at a given
height, tilt and turn, brightness, a gradient, the light's colour, cast shadows, glare, lens blur,
sensor noise and JPEG. Everything random comes from the scene's seed.
:func:`position_scene` draws the scene of a game position; :func:`random_conditions` draws a camera
and a room.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import cv2
import numpy as np

from controller.games.praxis import tiles
from controller.games.praxis.reading import SHIP_COLOURS, MatUniverse
from controller.vision.geometry import CameraModel
from controller.vision.mat import MatLayout, dice_colours
from controller.vision.render import CameraSpec, Lighting, camera_model, face_texture, fitting_camera
from controller.vision.tabletop import TABLE_BGR, HandOver, draw_hands, fill, finish, hand_shadows, mat_texture

#: Pip colour by body colour: white pips on dark bodies, black on yellow.
INK = {"red": (240, 240, 240), "blue": (240, 240, 240), "green": (240, 240, 240), "yellow": (30, 30, 30)}
#: The four faces around a die's top, by top face (opposite faces add to 7).
_AROUND = {1: (2, 3, 5, 4), 2: (1, 3, 6, 4), 3: (1, 2, 6, 5), 4: (1, 5, 6, 2), 5: (1, 4, 6, 3), 6: (2, 4, 5, 3)}


@dataclasses.dataclass(frozen=True)
class Tile:
    """A tile of ``kind`` (1 to 15) lying at (x, y) mm, turned ``angle_deg``."""

    kind: int
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0


@dataclasses.dataclass(frozen=True)
class Ship:
    """A ship: a die of ``colour`` standing at (x, y) mm showing ``face``, turned ``angle_deg``."""

    x_mm: float
    y_mm: float
    colour: str
    face: int
    angle_deg: float = 0.0
    edge_mm: float = 16.0
    body: tuple[int, int, int] | None = None


@dataclasses.dataclass(frozen=True)
class TableScene:
    """Everything :func:`render_table` draws; ``white_balance`` multiplies blue, green, red; ``jpeg``
    is the quality the frame is compressed with (0: none)."""

    layout: MatLayout
    tiles: tuple[Tile, ...] = ()
    ships: tuple[Ship, ...] = ()
    hands: tuple[HandOver, ...] = ()
    camera: CameraSpec = CameraSpec()
    lighting: Lighting = Lighting()
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    jpeg: int = 0
    seed: int = 0


@dataclasses.dataclass(frozen=True)
class RenderedTable:
    image: np.ndarray
    camera: CameraModel
    scene: TableScene


def _paste(img: np.ndarray, tex: np.ndarray, quad: np.ndarray) -> None:
    """Warp ``tex`` onto the quadrilateral ``quad`` (4, 2) of ``img`` (float32), in place."""
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    s = tex.shape[0]
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    M = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    warped = cv2.warpPerspective(tex.astype(np.float32), M, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillConvexPoly(mask, np.round((quad - (x0, y0)) * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    roi = img[y0:y1, x0:x1]
    roi[:] = warped * mask[..., None] + roi * (1 - mask[..., None])


def _cube(ship: Ship) -> list[tuple[np.ndarray, np.ndarray, int, bool]]:
    """The die's visible-candidate faces: (corners (4, 3) world mm, outward normal, value, is top)."""
    a = math.radians(ship.angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    e = ship.edge_mm
    h = e / 2

    def W(u: float, v: float, w: float) -> list[float]:
        return [ship.x_mm + u * ca - v * sa, ship.y_mm + u * sa + v * ca, -w]

    around = _AROUND[ship.face]
    return [
        (np.array([W(-h, -h, e), W(h, -h, e), W(h, h, e), W(-h, h, e)]), np.array([0, 0, -1.0]), ship.face, True),
        (np.array([W(h, -h, e), W(h, h, e), W(h, h, 0), W(h, -h, 0)]), np.array([ca, sa, 0]), around[0], False),
        (np.array([W(-h, h, e), W(-h, -h, e), W(-h, -h, 0), W(-h, h, 0)]), np.array([-ca, -sa, 0]), around[1], False),
        (np.array([W(h, h, e), W(-h, h, e), W(-h, h, 0), W(h, h, 0)]), np.array([-sa, ca, 0]), around[2], False),
        (np.array([W(-h, -h, e), W(h, -h, e), W(h, -h, 0), W(-h, -h, 0)]), np.array([sa, -ca, 0]), around[3], False),
    ]


def render_table(scene: TableScene) -> RenderedTable:
    """Draw ``scene`` as its camera sees it."""
    rng = np.random.default_rng(scene.seed)
    layout = scene.layout
    cam = camera_model(scene.camera, (layout.width_mm, layout.height_mm))
    W, H = scene.camera.image_size
    native = cam.K[0, 0] / scene.camera.height_mm
    scale = float(min(6.0, max(3.0, round(native * 2.0))))
    margin = 200.0
    tex = mat_texture(layout, scale, margin).copy()
    for tile in scene.tiles:
        image = tiles.tile_image(tile.kind, scale)
        side = image.shape[0]
        centre = ((tile.x_mm + margin) * scale, (tile.y_mm + margin) * scale)
        reach = int(math.ceil(side * 0.75)) + 2
        x0, y0 = int(centre[0]) - reach, int(centre[1]) - reach
        rot = cv2.getRotationMatrix2D((side / 2, side / 2), -tile.angle_deg, 1.0)
        rot[:, 2] += np.array(centre) - side / 2 - (x0, y0)
        mask = np.full((side, side), 255, np.uint8)
        warped = cv2.warpAffine(image, rot, (2 * reach, 2 * reach), flags=cv2.INTER_AREA)
        cover = cv2.warpAffine(mask, rot, (2 * reach, 2 * reach), flags=cv2.INTER_AREA)
        a = (cover.astype(np.float32) / 255)[..., None]
        roi = tex[y0:y0 + 2 * reach, x0:x0 + 2 * reach]
        roi[:] = (warped * a + roi * (1 - a)).astype(np.uint8)
    T = np.array([[1 / scale, 0, 0.5 / scale - margin], [0, 1 / scale, 0.5 / scale - margin], [0, 0, 1]])
    img = cv2.warpPerspective(tex, cam.plane_homography(0.0) @ T, (W, H), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR).astype(np.float32)
    lt = scene.lighting
    light = np.asarray(lt.light_dir, np.float64)
    light /= np.linalg.norm(light)
    sweep = light[:2] / light[2]
    if lt.shadow > 0 and (scene.ships or scene.hands):
        shadow = np.zeros((H, W), np.float32)
        for ship in scene.ships:
            top = _cube(ship)[0][0]
            pts = np.concatenate([top[:, :2] + sweep * ship.edge_mm, top[:, :2]])
            hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
            fill(shadow, cam.project(np.column_stack([hull, np.zeros(len(hull))])), [1.0])
        hand_shadows(shadow, cam, scene.hands, sweep)
        k = int(max(3, native * 5)) | 1
        shadow = cv2.GaussianBlur(shadow, (k, k), 0)
        t = lt.shadow_tint
        img *= 1 - lt.shadow * shadow[..., None] * np.array([1 - t, 1.0, 1 + t], np.float32)

    bodies = dice_colours()
    centre = cam.centre
    faces = []
    for ship in scene.ships:
        body = ship.body or bodies[ship.colour]
        for corners, normal, value, is_top in _cube(ship):
            middle = corners.mean(axis=0)
            if float(normal @ (centre - middle)) <= 0:
                continue
            faces.append((float(np.linalg.norm(centre - middle)), corners, normal, value, is_top, body, ship.colour))
    for _, corners, normal, value, is_top, body, colour in sorted(faces, key=lambda f: -f[0]):
        quad = cam.project(corners)
        size = int(np.clip(np.linalg.norm(quad[1] - quad[0]) * 2, 24, 160))
        face = face_texture(value, size, body, INK.get(colour, (30, 30, 30))).astype(np.float32)
        if not is_top:
            face *= 0.55 + 0.45 * max(0.0, float(-normal @ light))
        _paste(img, face, quad)

    draw_hands(img, cam, scene.hands)

    image = finish(img, cam, native, lt, scene.white_balance, scene.jpeg, rng,
                   np.array([[s.x_mm, s.y_mm, -s.edge_mm] for s in scene.ships]).reshape(-1, 3), (50, 110))
    return RenderedTable(image, cam, scene)


def empty_table(scene: TableScene) -> np.ndarray:
    """The same table with nothing on the mat: the frame calibration sees."""
    return render_table(dataclasses.replace(scene, tiles=(), ships=(), hands=())).image


def cell_contents(game: object, mat: MatUniverse) -> dict[int, tuple[str, int, int]]:
    """What a game position puts on the mat, by lattice position: ``("tile", kind, 0)`` or
    ``("ship", seat, face)``."""
    from controller.engines.praxis.steps import EMPTY, SHIP

    out: dict[int, tuple[str, int, int]] = {}
    for cell, value in enumerate(game.board):  # type: ignore[attr-defined]
        if value == EMPTY:
            continue
        pos = mat.position(cell)
        if value >= SHIP:
            ship = value - SHIP
            out[pos] = ("ship", ship // 2, game.ship_face[ship])  # type: ignore[attr-defined]
        else:
            out[pos] = ("tile", value, 0)
    return out


def contents_scene(layout: MatLayout, mat: MatUniverse, contents: dict[int, tuple[str, int, int]],
                   rng: np.random.Generator, ports: Sequence[Sequence[str]] = (), **kw: object) -> TableScene:
    """A scene showing ``contents`` (see :func:`cell_contents`): each tile a little off its cell's
    centre and askew, each ship a little off and turned; ``ports[seat]`` the colours of the ships
    waiting in each spaceport. ``kw`` fills the rest of the scene (camera, lighting...)."""
    layout_tiles, ships = [], []
    for pos, (what, which, face) in sorted(contents.items()):
        x, y = mat.centre(pos)
        if what == "tile":
            dx, dy = rng.uniform(-1.5, 1.5, 2)
            layout_tiles.append(Tile(which, x + dx, y + dy, float(rng.normal(0, 4))))
        else:
            dx, dy = rng.uniform(-5, 5, 2)
            ships.append(Ship(x + dx, y + dy, SHIP_COLOURS[which], face, float(rng.uniform(0, 90))))
    for seat, colours in enumerate(ports):
        zone = mat.ports[seat]
        x0, y0 = zone.polygon().min(axis=0)
        for j, colour in enumerate(colours):
            ships.append(Ship(x0 + 16 + 30 * j, y0 + 16 + rng.uniform(-3, 3), colour, int(rng.integers(1, 7)),
                              float(rng.uniform(0, 90))))
    return TableScene(layout, tuple(layout_tiles), tuple(ships), **kw)  # type: ignore[arg-type]


#: The cameras' frame sizes drawn by default: 1080p to 1296p (the camera module 3's 2304 x 1296).
SIZES: tuple[tuple[int, int], ...] = ((1920, 1080), (2304, 1296), (1640, 1232))


def random_conditions(layout: MatLayout, rng: np.random.Generator,
                      sizes: Sequence[tuple[int, int]] = SIZES) -> dict[str, object]:
    """A camera and a room drawn from what tables are really like: a camera over the mat or off to a
    side (tilted up to 25 degrees, turned any way), a frame of one of ``sizes``, a lens of 55 to 78
    degrees; daylight, a warm lamp or a dim room, a gradient, glare on the dice, blur, noise and JPEG."""
    size = tuple(sizes[int(rng.integers(len(sizes)))])
    hfov = float(rng.uniform(55.0, 78.0))
    tilt = float(rng.choice([0.0, rng.uniform(0.0, 12.0), rng.uniform(10.0, 25.0)]))
    spec = fitting_camera(layout, size, hfov, tilt, float(rng.uniform(0, 360)), fill=float(rng.uniform(0.75, 0.95)))
    room = int(rng.integers(3))
    balance = [(1.0, 1.0, 1.0), (0.8, 0.93, 1.08), (1.08, 1.0, 0.9)][room]
    lighting = Lighting(brightness=float(rng.uniform(0.6, 1.1)), gradient=float(rng.uniform(0.0, 0.5)),
                        gradient_angle_deg=float(rng.uniform(0, 360)), shadow=float(rng.uniform(0.15, 0.45)),
                        shadow_tint=float(rng.uniform(0.0, 0.2)) if room == 1 else 0.0,
                        light_dir=(float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5)), 1.0),
                        glare=int(rng.integers(0, 3)), blur_sigma=float(rng.uniform(0.4, 1.2)),
                        noise_sigma=float(rng.uniform(1.0, 4.0)))
    return {"camera": spec, "lighting": lighting, "white_balance": balance,
            "jpeg": int(rng.choice([0, 75, 85, 95]))}
