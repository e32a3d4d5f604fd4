"""DiXe character faces (one horned head, a different letter inside) told apart by the face library,
small and large; faces never taught left unreadable; references stored at full size, and references
stored small by earlier versions still read; faces taught through ``bitbox calibrate faces`` on the
calibrated mat read by the table; a die seen at a slant on a plain sheet cut to its top face."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration import faces as calib
from controller.vision import faces as F
from controller.vision.faces import FaceLibrary
from controller.vision.lookalikes import DETAIL_SIZE
from controller.vision.render import face_texture

CHARACTERS = ("oni", "crane-yorick", "mr-blaireau", "arkan-sonney", "hanuman")
SYMBOLS = ("soleil", "bombe", "smiley", "pirate", "yin-yang")


def seen(face: int | str, die_px: int, turn: float, seed: int, quarter: int = 0) -> np.ndarray:
    """``face`` as the table's pipeline hands it to the reader: drawn as render.py draws dice, turned by
    ``turn`` degrees and shifted a little, seen by a camera at ``die_px`` pixels a side (lens blur,
    light, sensor noise), then enlarged to the 90-pixel crop; turned by ``quarter`` quarter turns."""
    rng = np.random.default_rng(seed)
    drawn = face_texture(face, 4 * die_px).astype(np.float32)
    n = drawn.shape[0]
    m = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), turn, 1.0)
    m[:, 2] += rng.uniform(-0.03, 0.03, 2) * n
    drawn = cv2.warpAffine(drawn, m, (n, n), borderMode=cv2.BORDER_REPLICATE)
    small = cv2.resize(drawn, (die_px, die_px), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 0.7) * rng.uniform(0.8, 1.1) + rng.normal(0, 2.0, small.shape)
    crop = cv2.resize(np.clip(small, 0, 255).astype(np.uint8), (90, 90), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(np.rot90(crop, quarter))


def taught(die_px: int, faces: tuple[str, ...] = CHARACTERS + SYMBOLS) -> FaceLibrary:
    lib = FaceLibrary()
    for i, face in enumerate(faces):
        lib.add("dixe", face, seen(face, die_px, 0.0, seed=i))
    return lib


@pytest.mark.parametrize("die_px", [24, 64])
def test_characters_are_told_apart_small_and_large(die_px):
    lib = taught(die_px)
    for k in range(4):
        for i, face in enumerate(CHARACTERS + SYMBOLS):
            shown = seen(face, die_px, turn=(-1) ** k * 2.5 * k, seed=100 + 10 * k + i, quarter=k)
            assert lib.match(shown).symbol == face, (face, k)


def test_the_first_look_alone_cannot_tell_characters():
    """Why the detailed look is there: compared small, every head matches every other head almost
    as well as its own, far within the margin a reading needs."""
    lib = taught(64)
    ranked = lib.scores(seen("oni", 64, 3.0, seed=7))
    heads = [score for score, ref in ranked if ref.face in CHARACTERS]
    assert len(heads) == len(CHARACTERS)
    assert max(heads) - min(heads) < F.MIN_MARGIN


@pytest.mark.parametrize("left_out", CHARACTERS)
def test_a_character_never_taught_is_unreadable_not_guessed(left_out):
    others = tuple(f for f in CHARACTERS + SYMBOLS if f != left_out)
    lib = taught(64, others)
    for k in range(3):
        assert not lib.match(seen(left_out, 64, 2.0 * k, seed=200 + k, quarter=k)).readable


@pytest.mark.parametrize("die_px", [24, 64])
def test_a_symbol_never_taught_is_unreadable(die_px):
    lib = taught(die_px, CHARACTERS + ("soleil", "bombe", "smiley", "pirate"))
    assert not lib.match(seen("yin-yang", die_px, 4.0, seed=300)).readable
    assert lib.match(seen("oni", die_px, 4.0, seed=301, quarter=1)).symbol == "oni"


def test_references_are_stored_at_full_size_and_read_after_loading(tmp_path):
    lib = taught(40)
    lib.save(tmp_path)
    stored = cv2.imread(str(tmp_path / "dixe" / "mr-blaireau.png"), cv2.IMREAD_GRAYSCALE)
    assert stored.shape == (DETAIL_SIZE, DETAIL_SIZE)
    loaded = FaceLibrary.load(tmp_path)
    assert len(loaded) == len(lib)
    for i, face in enumerate(CHARACTERS):
        assert loaded.match(seen(face, 40, -3.0, seed=400 + i, quarter=i % 4)).symbol == face
    # The small picture the first look (and MémoDiXe's reader) uses is the same as before saving.
    before = {(r.die, r.face): r.image for r in lib.references}
    for ref in loaded.references:
        assert np.array_equal(ref.image, before[(ref.die, ref.face)])


def test_references_stored_small_by_earlier_versions_still_read(tmp_path):
    """Earlier versions stored each face already reduced (REF_SIZE square, normalised): such a library
    loads, reads symbols as before, and leaves the characters it cannot tell apart unreadable."""
    for i, face in enumerate(CHARACTERS + SYMBOLS):
        small = F._normalise(seen(face, 40, 0.0, seed=i), F.SEARCH_SIZE)[4:-4, 4:-4]
        (tmp_path / "dixe").mkdir(exist_ok=True)
        assert cv2.imwrite(str(tmp_path / "dixe" / f"{face}.png"), small)
    old = FaceLibrary.load(tmp_path)
    assert len(old) == len(CHARACTERS + SYMBOLS)
    assert all(ref.picture is None for ref in old.references)
    for i, face in enumerate(SYMBOLS):
        assert old.match(seen(face, 40, 3.0, seed=500 + i, quarter=i % 4)).symbol == face
    assert not old.match(seen("hanuman", 40, 3.0, seed=510)).readable
    # Taught again, a face replaces its small picture with a full one, and is then told apart.
    for i, face in enumerate(CHARACTERS):
        old.add("dixe", face, seen(face, 40, 0.0, seed=i))
    assert old.match(seen("hanuman", 40, 3.0, seed=510)).symbol == "hanuman"
    old.save(tmp_path)
    again = FaceLibrary.load(tmp_path)
    assert {r.face for r in again.references if r.picture is None} == set(SYMBOLS)


def test_faces_taught_on_the_mat_are_told_apart_on_the_table():
    """The player's way: the mat calibrated, each face shown alone on it through ``bitbox calibrate
    faces``, then a table of characters read by the pipeline at 1920 x 1080."""
    from controller.vision.mat import load_layout
    from controller.vision.pipeline import FrameAnalyser
    from controller.vision.profile import calibrate_mat
    from controller.vision.render import (
        Die,
        Lighting,
        Scene,
        fitting_camera,
        render,
        render_empty,
    )

    lay = load_layout("puxes")
    camera = fitting_camera(lay, image_size=(1920, 1080), fill=0.85)
    profile = calibrate_mat(render_empty(Scene(lay, camera=camera, lighting=Lighting())), lay)
    shown = iter(render(Scene(lay, dice=(Die(450.0 + 9 * k, 300.0 - 7 * k, face, 13.0 + 17 * k),), camera=camera,
                              lighting=Lighting(), seed=k)).image for k, face in enumerate(CHARACTERS + SYMBOLS))
    lib = calib.calibrate("dixe", CHARACTERS + SYMBOLS, lambda: next(shown), ask=lambda prompt: "",
                          library=FaceLibrary(), say=lambda text: None, analyser=FrameAnalyser(lay, profile))
    places = [(120.0 + 160 * (i % 5), 130.0 + 330 * (i // 5), 7.0 + 19 * i) for i in range(10)]
    faces = list(reversed(CHARACTERS)) + list(CHARACTERS)
    table = Scene(lay, dice=tuple(Die(x, y, f, a) for (x, y, a), f in zip(places, faces)), camera=camera,
                  lighting=Lighting(brightness=0.9, gradient=0.2), seed=21)
    read: list[str | None] = [None] * len(places)
    for die in FrameAnalyser(lay, profile, faces=lib).analyse(render(table).image).dice:
        i = min(range(len(places)), key=lambda j: math.hypot(places[j][0] - die.x_mm, places[j][1] - die.y_mm))
        read[i] = die.face.symbol
    assert read == faces


@pytest.mark.parametrize("tilt,yaw", [(10.0, 30.0), (12.0, 200.0)])
def test_on_a_plain_sheet_a_die_seen_at_a_slant_is_cut_to_its_top_face(tilt, yaw):
    """A tilted camera sees a side or two of the die beyond its top face; the cut keeps the top face
    alone (the brighter part, lit from above), as the table cuts faces on the calibrated mat."""
    from controller.vision import dice as _dice
    from controller.vision.mat import load_layout
    from controller.vision.render import Die, Lighting, Scene, fitting_camera, render

    camera = fitting_camera(load_layout("puxes"), image_size=(1920, 1080), fill=0.85, tilt_deg=tilt, yaw_deg=yaw)
    shot = render(Scene(None, dice=(Die(800, 500, "oni", 0.0, edge_mm=25.0),), camera=camera, lighting=Lighting(),
                        plain_size_mm=(1600, 1000), plain_bgr=(205, 165, 120), seed=3))
    truth = shot.truth[0]
    corners = np.array(truth.top_corners_px)
    side = float(np.mean([np.linalg.norm(corners[i] - corners[i - 1]) for i in range(4)]))
    found = [c for c in _dice.candidates(shot.image) if c.depth >= calib.MIN_DEPTH]
    centre, cut, _ = calib._outline(shot.image, found[0].center)
    assert math.dist(centre, truth.top_center_px) < 1.5
    assert abs(cut - side) < 0.05 * side


def test_an_unclear_character_still_looks_taught_but_a_pip_face_does_not():
    """A character whose letter is washed out (glare) cannot be told, but it is a taught face and must
    not be read as pips; a pip face is none of the taught faces."""
    lib = taught(40)
    washed = seen("arkan-sonney", 40, 2.0, seed=600).copy()
    cv2.circle(washed, (45, 50), 14, (235, 235, 235), -1)
    reading = lib.match(washed)
    assert not reading.readable and F.looks_taught(reading)
    for pips in (1, 3, 5):
        reading = lib.match(seen(pips, 40, 2.0, seed=610 + pips))
        assert not reading.readable and not F.looks_taught(reading)
