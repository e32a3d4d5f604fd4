"""The DiXe face library and ``bitbox calibrate faces``: symbols matched at any quarter turn, unknown
faces unreadable, references stored under the state folder, calibration driven by injected frames."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest

from calibration import faces as calib
from controller import paths
from controller.vision.dice import find_dice, read_face
from controller.vision.faces import FaceLibrary, library_dir

SYMBOLS = ("pirate", "soleil", "bombe", "smiley")


def symbol_face(name: str, px: int = 90, turns: int = 0) -> np.ndarray:
    """A light face with a dark drawing distinct for each name, turned by quarter turns."""
    img = np.full((px, px, 3), 225, np.uint8)
    c = px // 2
    ink = (30, 30, 30)
    if name == "pirate":
        cv2.circle(img, (c, c - 8), 18, ink, -1)
        cv2.line(img, (c - 25, c + 20), (c + 25, c + 32), ink, 5)
    elif name == "soleil":
        cv2.circle(img, (c, c), 12, ink, -1)
        for k in range(8):
            a = k * np.pi / 4
            cv2.line(img, (c, c), (int(c + 30 * np.cos(a)), int(c + 30 * np.sin(a))), ink, 3)
    elif name == "bombe":
        cv2.circle(img, (c - 5, c + 8), 20, ink, -1)
        cv2.line(img, (c + 8, c - 8), (c + 25, c - 30), ink, 4)
    elif name == "smiley":
        cv2.circle(img, (c, c), 28, ink, 3)
        cv2.circle(img, (c - 10, c - 8), 4, ink, -1)
        cv2.ellipse(img, (c, c + 5), (14, 10), 0, 20, 160, ink, 3)
    return np.ascontiguousarray(np.rot90(img, turns))


def library() -> FaceLibrary:
    lib = FaceLibrary()
    for name in SYMBOLS:
        lib.add("oni", name, symbol_face(name))
    return lib


@pytest.mark.parametrize("turns", range(4))
@pytest.mark.parametrize("name", SYMBOLS)
def test_symbol_matches_at_every_quarter_turn(name, turns):
    face = library().match(symbol_face(name, turns=turns))
    assert face.symbol == name
    assert face.confidence > 0.6


def test_symbol_matches_with_a_small_turn_and_shift():
    image = symbol_face("soleil")
    m = cv2.getRotationMatrix2D((45, 45), 8, 1.0)
    m[:, 2] += (3, -2)
    moved = cv2.warpAffine(image, m, (90, 90), borderValue=(225, 225, 225))
    assert library().match(moved).symbol == "soleil"


def test_unknown_face_and_empty_library_are_unreadable():
    blank = np.full((90, 90, 3), 225, np.uint8)
    cv2.rectangle(blank, (20, 20), (70, 70), (30, 30, 30), 3)
    assert not library().match(blank).readable
    assert not FaceLibrary().match(symbol_face("pirate")).readable


def test_read_face_uses_the_library_before_pips():
    lib = library()
    assert read_face(symbol_face("bombe", turns=1), lib).symbol == "bombe"


def test_save_and_load_round_trip_under_the_state_folder():
    folder = library().save()
    assert folder == paths.state_dir() / "faces"
    assert sorted(p.name for p in (folder / "oni").iterdir()) == sorted(f"{n}.png" for n in SYMBOLS)
    loaded = FaceLibrary.load()
    assert len(loaded) == len(SYMBOLS)
    assert loaded.match(symbol_face("smiley", turns=3)).symbol == "smiley"


def test_adding_a_face_again_replaces_it():
    lib = library()
    lib.add("oni", "pirate", symbol_face("soleil"))
    assert len(lib) == len(SYMBOLS)


def test_bad_names_and_corrupt_files_are_refused_clearly():
    with pytest.raises(ValueError, match="letters, digits"):
        FaceLibrary().add("oni", "../x", symbol_face("pirate"))
    bad = library_dir() / "oni" / "pirate.png"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"not a png")
    with pytest.raises(ValueError, match="calibrate faces"):
        FaceLibrary.load()


# ---- bitbox calibrate faces ---------------------------------------------------------------

def table_with(face: np.ndarray, at=(200, 150), size=(400, 300)) -> np.ndarray:
    """A frame of a plain mat with ``face`` (a die seen from above) pasted in."""
    frame = np.full((size[1], size[0], 3), (90, 120, 90), np.uint8)
    small = cv2.resize(face, (44, 44), interpolation=cv2.INTER_AREA)
    x, y = at[0] - 22, at[1] - 22
    frame[y:y + 44, x:x + 44] = small
    return frame


def test_calibration_stores_each_face_shown_and_reads_it_back():
    shown = iter([table_with(symbol_face(n)) for n in SYMBOLS])
    said: list[str] = []
    lib = calib.calibrate("oni", SYMBOLS, lambda: next(shown), ask=lambda prompt: "",
                          library=FaceLibrary(), say=said.append)
    assert len(lib) == len(SYMBOLS)
    assert said == [f"stored oni/{n}" for n in SYMBOLS]
    frame = table_with(symbol_face("bombe", turns=2), at=(120, 200))
    found = find_dice(frame, faces=lib)
    assert [d.face.symbol for d in found] == ["bombe"]


def test_calibration_skips_and_retries_and_then_gives_up():
    frames = iter([np.full((300, 400, 3), (90, 120, 90), np.uint8)] * 3)   # nothing in view
    answers = iter(["s", "", "", ""])
    said: list[str] = []
    with pytest.raises(calib.CalibrationError, match="could not capture face 'soleil'"):
        calib.calibrate("oni", ["pirate", "soleil"], lambda: next(frames), lambda p: next(answers),
                        library=FaceLibrary(), say=said.append)
    assert said[0] == "skipped pirate"
    assert "no die found" in said[1]


def test_two_dice_in_view_is_refused():
    frame = table_with(symbol_face("pirate"), at=(100, 100))
    frame[200:244, 278:322] = cv2.resize(symbol_face("soleil"), (44, 44))
    with pytest.raises(calib.CalibrationError, match="one die at a time"):
        calib.capture_face(frame)


def test_calibrate_faces_command_from_an_image(tmp_path, monkeypatch, capsys):
    image = tmp_path / "die.png"
    cv2.imwrite(str(image), table_with(symbol_face("pirate")))
    parser = argparse.ArgumentParser()
    calib.register(parser.add_subparsers())
    args = parser.parse_args(["faces", "--die", "oni", "--faces", "pirate", "--source", str(image)])
    monkeypatch.setattr("builtins.input", lambda prompt="": "")
    assert args.handler(args) == 0
    assert (library_dir() / "oni" / "pirate.png").is_file()
    assert "saved 1 reference faces" in capsys.readouterr().out


def test_calibrate_faces_command_reports_bad_input(tmp_path, monkeypatch):
    from controller.cli import CommandError

    parser = argparse.ArgumentParser()
    calib.register(parser.add_subparsers())
    monkeypatch.setattr("builtins.input", lambda prompt="": "")
    args = parser.parse_args(["faces", "--die", "oni", "--faces", " , ", "--source", str(tmp_path / "x.png")])
    with pytest.raises(CommandError, match="no face names"):
        args.handler(args)
    args = parser.parse_args(["faces", "--die", "oni", "--faces", "pirate", "--source", str(tmp_path / "none.png")])
    with pytest.raises(CommandError, match="no camera source"):
        args.handler(args)
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not an image")
    args = parser.parse_args(["faces", "--die", "oni", "--faces", "pirate", "--source", str(broken)])
    with pytest.raises(CommandError, match="not a readable image"):
        args.handler(args)
    assert not library_dir().exists() or not any(library_dir().iterdir())


def test_calibrate_faces_command_from_a_folder_of_photos(tmp_path, monkeypatch):
    for k, name in enumerate(SYMBOLS):
        cv2.imwrite(str(tmp_path / f"{k}.png"), table_with(symbol_face(name)))
    parser = argparse.ArgumentParser()
    calib.register(parser.add_subparsers())
    monkeypatch.setattr("builtins.input", lambda prompt="": "")
    args = parser.parse_args(["faces", "--die", "oni", "--faces", ",".join(SYMBOLS), "--source", str(tmp_path)])
    assert args.handler(args) == 0
    lib = FaceLibrary.load()
    assert lib.match(symbol_face("soleil", turns=1)).symbol == "soleil"


# ---- faces taught on the calibrated mat are read by the table ---------------------------------

def read_during_a_game(lib: FaceLibrary, faces: list[str]) -> list[str | None]:
    """The symbols the table reads, with ``lib``, on a rendered PuXes game with dice showing
    ``faces`` (up to four) at turns and places of their own."""
    from controller.vision.pipeline import FrameAnalyser
    from controller.vision.render import Die, Lighting, Scene, render
    from table_scenes import layout, profile_for

    lay = layout("puxes")
    profile, camera = profile_for("puxes")
    places = [(300.0, 200.0, 35.0), (600.0, 420.0, 70.0), (520.0, 150.0, 5.0), (380.0, 460.0, 55.0)][:len(faces)]
    game = Scene(lay, dice=tuple(Die(x, y, name, a) for (x, y, a), name in zip(places, faces)),
                 camera=camera, lighting=Lighting(), seed=7)
    read: list[str | None] = [None] * len(places)
    for die in FrameAnalyser(lay, profile, faces=lib).analyse(render(game).image).dice:
        nearest = min(range(len(places)), key=lambda i: (places[i][0] - die.x_mm) ** 2 + (places[i][1] - die.y_mm) ** 2)
        read[nearest] = die.face.symbol
    return read


def test_faces_taught_on_the_calibrated_mat_are_read_during_a_game():
    """``bitbox calibrate faces`` with a calibrated mat cuts each reference the way the table's
    pipeline cuts faces during a game, so dice elsewhere on the mat, turned, read as those faces."""
    from controller.vision.pipeline import FrameAnalyser
    from controller.vision.render import Die, Lighting, Scene, render
    from table_scenes import layout, profile_for

    lay = layout("puxes")
    profile, camera = profile_for("puxes")
    taught = ["soleil", "bombe", "smiley", "pirate"]
    shown = iter(render(Scene(lay, dice=(Die(450.0, 300.0, name, 10.0 * k),), camera=camera,
                              lighting=Lighting(), seed=k)).image for k, name in enumerate(taught))
    lib = calib.calibrate("oni", taught, lambda: next(shown), ask=lambda prompt: "", library=FaceLibrary(),
                          say=lambda text: None, analyser=FrameAnalyser(lay, profile))
    assert len(lib) == len(taught)
    assert read_during_a_game(lib, list(reversed(taught))) == list(reversed(taught))


def test_without_a_mat_the_reference_is_the_face_alone_and_margin_crops_still_match():
    """Without a calibrated mat the die is found in the plain picture and stored edge to edge; a crop
    taken with a margin around the face matches it once told how much of the crop is the face."""
    lib = FaceLibrary()
    lib.add("oni", "bombe", calib.capture_face(table_with(symbol_face("bombe"))))
    lib.add("oni", "pirate", calib.capture_face(table_with(symbol_face("pirate"))))
    face = cv2.resize(symbol_face("bombe", turns=1), (60, 60), interpolation=cv2.INTER_AREA)
    with_margin = cv2.copyMakeBorder(face, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=(90, 120, 90))
    assert lib.match(with_margin, face_side=60 / 84).symbol == "bombe"
    with pytest.raises(ValueError, match="face_side"):
        lib.match(with_margin, face_side=1.5)


def test_without_a_mat_the_die_s_shadow_is_left_out_of_the_face():
    """A die on a plain surface casts a shadow, the surface's colour only darker; the face's outline
    leaves it out, so the stored face is the top face alone, centred."""
    frame = table_with(symbol_face("bombe"))
    surface = np.array((90, 120, 90), np.float32)
    shadow = frame.astype(np.float32)
    region = shadow[150 - 22 + 6:150 + 22 + 8, 200 - 22 + 6:200 + 22 + 8]
    bare = np.all(region == surface, axis=2)
    region[bare] = surface * 0.55
    frame = shadow.astype(np.uint8)
    centre, side, _ = calib._outline(frame, (200, 150))
    assert abs(side - 44) <= 2
    assert abs(centre[0] - 199.5) <= 1.5 and abs(centre[1] - 149.5) <= 1.5


def test_faces_taught_on_a_plain_surface_are_read_during_a_game():
    """Without a calibrated mat, faces shown on a plain sheet under the table's camera (with their
    shadows, near the middle of the view) are read on the mat during a game."""
    from controller.vision.render import Die, Lighting, Scene, render
    from table_scenes import profile_for

    _, camera = profile_for("puxes")
    taught = ["soleil", "bombe", "smiley", "pirate"]
    shown = iter(render(Scene(None, dice=(Die(790.0 + 7 * k, 510.0 - 6 * k, name, 17.0 + 20 * k, edge_mm=25.0),),
                              camera=camera, lighting=Lighting(), plain_size_mm=(1600, 1000),
                              plain_bgr=(205, 165, 120), seed=k)).image for k, name in enumerate(taught))
    lib = calib.calibrate("oni", taught, lambda: next(shown), ask=lambda prompt: "", library=FaceLibrary(),
                          say=lambda text: None)
    assert len(lib) == len(taught)
    assert read_during_a_game(lib, list(reversed(taught))) == list(reversed(taught))


def test_without_a_mat_a_die_far_from_the_middle_is_refused():
    """Far from the middle of the view the camera sees the die's sides as well as its top, so the
    capture asks for the die to be moved rather than store a face framed unlike the table's cut."""
    with pytest.raises(calib.CalibrationError, match=r"px from the middle of the view: put it in the middle"):
        calib.capture_face(table_with(symbol_face("bombe"), at=(60, 60)))


def test_without_a_mat_a_grey_die_on_a_grey_sheet_keeps_its_whole_outline():
    """A die of the surface's own colour, only darker, looks like shadow all over; its outline is
    then taken whole rather than lost."""
    frame = np.full((300, 400, 3), 170, np.uint8)
    face = np.full((44, 44, 3), 95, np.uint8)
    cv2.circle(face, (22, 22), 9, (235, 235, 235), -1)
    frame[150 - 22:150 + 22, 200 - 22:200 + 22] = face
    centre, side, _ = calib._outline(frame, (200, 150))
    assert abs(side - 44) <= 2
    assert abs(centre[0] - 199.5) <= 1.5 and abs(centre[1] - 149.5) <= 1.5
