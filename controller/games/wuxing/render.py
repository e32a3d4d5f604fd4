"""Rendered théâtre tables with exact ground truth, for the board reader's tests and bench.

A :class:`BoardScene` is the printed board (the mat layout, drawn as :func:`controller.vision.mat.draw_mat`
prints it) seen by a pinhole camera at a given height, tilt and turn, with pawns (flat cylinders:
white or black draughts-like pieces of a given size and height, their rims and printed faces, cast
shadows), blank cards laid over turned-over islands (a little off-centre and askew, white, cream or
grey paper), hands over the board, and the light and sensor of a real room: brightness, a gradient,
the light's colour (a warm lamp, a cool daylight white balance), glare, lens blur, sensor noise and
JPEG compression. Everything random comes from the scene's seed. :func:`random_board_scene` draws
such a scene from a game position, with variety taken from real tables rather than from one setting.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np

from controller.games.wuxing.board import BLACK, EMPTY, FLIPPED, WHITE, Board
from controller.vision.geometry import CameraModel
from controller.vision.mat import MatLayout
from controller.vision.render import CameraSpec, Lighting, camera_model, fitting_camera
from controller.vision.tabletop import TABLE_BGR, HandOver, draw_hands, fill, finish, hand_shadows, mat_texture

#: Pawn colours seen in shops: white, ivory and cream; black, very dark brown and graphite.
WHITE_PAWNS = ((236, 238, 240), (214, 232, 240), (200, 222, 232), (228, 228, 222))
BLACK_PAWNS = ((28, 28, 30), (24, 30, 42), (46, 46, 48), (36, 34, 34))
#: Cards laid over a turned-over island: white, cream and light grey paper.
CARD_COLOURS = ((242, 244, 245), (215, 232, 240), (200, 202, 204), (232, 236, 236))


@dataclasses.dataclass(frozen=True)
class Pawn:
    """A pawn standing at (x, y) mm: ``seat`` 0 is white, 1 black; ``diameter``/``height`` in mm."""

    x_mm: float
    y_mm: float
    seat: int
    diameter_mm: float = 28.0
    height_mm: float = 7.0
    colour: tuple[int, int, int] | None = None


@dataclasses.dataclass(frozen=True)
class Card:
    """A blank card over an island: centre, side, turn (degrees) and paper colour."""

    x_mm: float
    y_mm: float
    size_mm: float = 55.0
    angle_deg: float = 0.0
    colour: tuple[int, int, int] = CARD_COLOURS[0]


@dataclasses.dataclass(frozen=True)
class BoardScene:
    """Everything :func:`render_board` draws. ``white_balance`` multiplies blue, green, red (a warm
    lamp is below 1 in blue); ``jpeg`` is the quality the frame is compressed with (0: none)."""

    layout: MatLayout
    pawns: tuple[Pawn, ...] = ()
    cards: tuple[Card, ...] = ()
    hands: tuple[HandOver, ...] = ()
    camera: CameraSpec = CameraSpec()
    lighting: Lighting = Lighting()
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    jpeg: int = 0
    seed: int = 0


@dataclasses.dataclass(frozen=True)
class RenderedBoard:
    image: np.ndarray
    camera: CameraModel
    scene: BoardScene


def _circle(x: float, y: float, r: float, z: float, n: int = 40) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([x + r * np.cos(t), y + r * np.sin(t), np.full(n, z)])


def render_board(scene: BoardScene) -> RenderedBoard:
    """Draw ``scene`` as its camera sees it."""
    rng = np.random.default_rng(scene.seed)
    layout = scene.layout
    cam = camera_model(scene.camera, (layout.width_mm, layout.height_mm))
    W, H = scene.camera.image_size
    native = cam.K[0, 0] / scene.camera.height_mm
    scale = float(min(4.0, max(2.0, round(native * 1.5))))
    margin = 200.0
    tex = mat_texture(layout, scale, margin).copy()
    for card in scene.cards:
        a = math.radians(card.angle_deg)
        u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        h = card.size_mm / 2
        corners = np.array([[card.x_mm, card.y_mm] + su * h * u + sv * h * v for su, sv in
                            ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        px = (corners + margin) * scale
        fill(tex, px, card.colour)
        cv2.polylines(tex, [np.round(px * 16).astype(np.int32)], True,
                      tuple(int(c * 0.8) for c in card.colour), 1, cv2.LINE_AA, shift=4)
    T = np.array([[1 / scale, 0, 0.5 / scale - margin], [0, 1 / scale, 0.5 / scale - margin], [0, 0, 1]])
    img = cv2.warpPerspective(tex, cam.plane_homography(0.0) @ T, (W, H), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR).astype(np.float32)

    light = np.asarray(scene.lighting.light_dir, np.float64)
    light /= np.linalg.norm(light)
    sweep = light[:2] / light[2]
    if scene.lighting.shadow > 0 and (scene.pawns or scene.hands):
        shadow = np.zeros((H, W), np.float32)
        for pawn in scene.pawns:
            r = pawn.diameter_mm / 2
            base = _circle(pawn.x_mm, pawn.y_mm, r, 0.0)[:, :2]
            pts = np.concatenate([base, base + sweep * pawn.height_mm])
            hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
            fill(shadow, cam.project(np.column_stack([hull, np.zeros(len(hull))])), [1.0])
        hand_shadows(shadow, cam, scene.hands, sweep)
        k = int(max(3, native * 5)) | 1
        shadow = cv2.GaussianBlur(shadow, (k, k), 0)
        t = scene.lighting.shadow_tint
        img *= 1 - scene.lighting.shadow * shadow[..., None] * np.array([1 - t, 1.0, 1 + t], np.float32)

    centre = cam.centre
    for pawn in sorted(scene.pawns, key=lambda p: -float(np.linalg.norm(centre[:2] - (p.x_mm, p.y_mm)))):
        r = pawn.diameter_mm / 2
        body = np.array(pawn.colour or (WHITE_PAWNS[0] if pawn.seat == 0 else BLACK_PAWNS[0]), np.float32)
        bottom, top = _circle(pawn.x_mm, pawn.y_mm, r, 0.0), _circle(pawn.x_mm, pawn.y_mm, r, -pawn.height_mm)
        side = cv2.convexHull(np.concatenate([cam.project(bottom), cam.project(top)]).astype(np.float32))
        fill(img, side.reshape(-1, 2), body * (0.72 if pawn.seat == 0 else 0.9))
        fill(img, cam.project(top), body)
        # The rim of a draughts piece and the face's printed mark (Yang's sun, Yin's moon).
        ring = cam.project(_circle(pawn.x_mm, pawn.y_mm, r * 0.82, -pawn.height_mm))
        cv2.polylines(img, [np.round(ring * 16).astype(np.int32)], True,
                      tuple(float(c) for c in body * (0.86 if pawn.seat == 0 else 1.6)), 1, cv2.LINE_AA, shift=4)
        mark = cam.project(_circle(pawn.x_mm + r * 0.15, pawn.y_mm - r * 0.1, r * 0.22, -pawn.height_mm, 16))
        fill(img, mark, body * (0.8 if pawn.seat == 0 else 1.5))

    draw_hands(img, cam, scene.hands)

    image = finish(img, cam, native, scene.lighting, scene.white_balance, scene.jpeg, rng,
                   np.array([[p.x_mm, p.y_mm, -p.height_mm] for p in scene.pawns]).reshape(-1, 3), (60, 140))
    return RenderedBoard(image, cam, scene)


def empty_board(scene: BoardScene) -> np.ndarray:
    """The same table with nothing on the board: the frame calibration sees."""
    return render_board(dataclasses.replace(scene, pawns=(), cards=(), hands=())).image


def marks_scene(board: Board, marks: str, rng: np.random.Generator, **kw: object) -> BoardScene:
    """A scene whose squares show ``marks`` (see :mod:`.board`): each pawn a little off its square's
    centre, each turned-over island covered by a card a little off and askew. ``kw`` fills the rest
    of the scene (camera, lighting...)."""
    size = float(rng.uniform(22.0, 34.0))
    height = float(rng.uniform(4.0, 10.0))
    whites, blacks = WHITE_PAWNS[int(rng.integers(4))], BLACK_PAWNS[int(rng.integers(4))]
    paper = CARD_COLOURS[int(rng.integers(len(CARD_COLOURS)))]
    pawns, cards = [], []
    for cell, mark in zip(board.cells, marks):
        x, y = cell.centre
        if mark in (WHITE, BLACK):
            off = float(board.cells[0].size_mm / 2 - size / 2 - 2.0)
            dx, dy = rng.uniform(-1, 1, 2) * min(7.0, max(0.0, off))
            pawns.append(Pawn(x + dx, y + dy, 0 if mark == WHITE else 1, size, height,
                              whites if mark == WHITE else blacks))
        elif mark == FLIPPED:
            dx, dy = rng.normal(0, 1.2, 2)
            cards.append(Card(x + dx, y + dy, float(rng.uniform(53.0, 57.0)), float(rng.normal(0, 3)), paper))
        elif mark != EMPTY:
            raise ValueError(f"unknown mark {mark!r}")
    return BoardScene(board.layout, tuple(pawns), tuple(cards), **kw)  # type: ignore[arg-type]


def random_conditions(layout: MatLayout, rng: np.random.Generator) -> dict[str, object]:
    """A camera and a room drawn from what tables are really like: a camera 0.45 to 0.85 m up (over
    the board or off to a side, tilted up to 25 degrees, turned any way), 720p to 1296p, a lens of 55
    to 78 degrees; daylight, a warm lamp or a dim room, a gradient across the table, glare on glossy
    pieces, blur, noise and JPEG."""
    size = [(1280, 720), (1920, 1080), (2304, 1296), (1640, 1232)][int(rng.integers(4))]
    hfov = float(rng.uniform(55.0, 78.0))
    tilt = float(rng.choice([0.0, rng.uniform(0.0, 12.0), rng.uniform(10.0, 25.0)]))
    spec = fitting_camera(layout, size, hfov, tilt, float(rng.uniform(0, 360)), fill=float(rng.uniform(0.6, 0.92)))
    room = int(rng.integers(3))
    balance = [(1.0, 1.0, 1.0), (0.78, 0.93, 1.08), (1.08, 1.0, 0.9)][room]
    lighting = Lighting(brightness=float(rng.uniform(0.55, 1.15)), gradient=float(rng.uniform(0.0, 0.55)),
                        gradient_angle_deg=float(rng.uniform(0, 360)), shadow=float(rng.uniform(0.15, 0.5)),
                        shadow_tint=float(rng.uniform(0.0, 0.2)) if room == 1 else 0.0,
                        light_dir=(float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5)), 1.0),
                        glare=int(rng.integers(0, 4)), blur_sigma=float(rng.uniform(0.4, 1.4)),
                        noise_sigma=float(rng.uniform(1.0, 5.0)))
    return {"camera": spec, "lighting": lighting, "white_balance": balance,
            "jpeg": int(rng.choice([0, 70, 85, 95]))}
