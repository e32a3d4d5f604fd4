"""``bitbox calibrate faces``: teach the camera the faces of your DiXe dice.

For each face of a die, the user puts the die alone in the camera's view with that face up and presses
Enter; the top face is found, cut out and stored as a reference under ``state_dir()/faces/DIE/FACE.png``.
Faces already stored for other dice are kept; a face shown again replaces its old picture.

A reference is the top face alone, edge to edge, as the table reads it. With a calibrated mat the die
is shown on the mat and cut out by the table's own pipeline (:meth:`FrameAnalyser.top_face_crop`), so
the references are framed, lit and resampled exactly like the faces read during a game; without one,
the die is found in the plain picture: it must lie in the middle of the view, where an overhead camera
sees its top face alone, and its outline there leaves out the shadow it casts; a camera at a slant sees
a side or two as well, in the die's shade, and the top face is the die's bright part, kept alone.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from controller.games import default_mat
from controller.i18n import _
from controller.vision import dice as _dice
from controller.vision.faces import FaceLibrary, check_name
from controller.vision.frames import detail_of, detail_scale, in_detail
from controller.vision.pipeline import FrameAnalyser
from controller.vision.profile import CalibrationError

FrameSource = Callable[[], np.ndarray]


#: How deep inside the foreground a place must be, in die sides, to count as a die body (half a side
#: is the middle of a lone die; thin things and edges are shallower).
MIN_DEPTH = 0.3

#: How far from the surface's colour (Euclidean, 0..441 in BGR) a pixel must be to belong to the die.
SURFACE_DIFFERENCE = 40.0

#: Without a calibrated mat, the die must lie this share of the picture's shorter side from its
#: middle at most: farther out, an overhead camera sees the die's sides too, and nothing tells
#: them from its top face.
MIDDLE_REACH = 0.12

#: A pixel whose channels are all this share of the surface's (darker, not recoloured) and within
#: SHADOW_TINT of one another is the die's shadow on the surface, not the die: the face's outline
#: leaves it out, or the stored face would carry a dark band the table's own cut never has.
SHADOW_DIMMING = (0.2, 0.93)
SHADOW_TINT = 0.12

#: The top face: the part of the die at least this share as bright as its brightest tenth (its sides,
#: in its shade, are darker), when that part is at least MIN_TOP_SHARE of the die (a light drawing on
#: a darker die is no top face). The lens softens the face's edge below that brightness: EDGE_PX more
#: on each side are the face's.
TOP_BRIGHTNESS = 0.72
MIN_TOP_SHARE = 0.5
EDGE_PX = 0.5

#: Where leaving the shadow out keeps less than this share of the die's outline, the die itself is
#: the surface's colour, darker (a grey die on a grey sheet), and its whole outline stands.
MIN_LIT_SHARE = 0.6


def capture_face(frame: np.ndarray, die_size_px: float | None = None,
                 analyser: FrameAnalyser | None = None) -> np.ndarray:
    """The single die's top face in ``frame``, cut edge to edge as the table reads faces.

    With ``analyser`` (a calibrated mat) the die must stand alone on the mat; otherwise every solid
    die-sized region of the picture counts (a symbol face has no pips to go by) and there must be one.
    """
    if analyser is not None:
        on_mat = [d for d in analyser.analyse(frame).dice if d.on_mat]
        if len(on_mat) != 1:
            what = _("no die") if not on_mat else _("{count} dice").format(count=len(on_mat))
            raise CalibrationError(_("{what} on the mat: put the one die alone on the mat, away from the "
                                     "temples and the markers, with nothing else on it").format(what=what))
        d = on_mat[0]
        return analyser.top_face_crop(frame, np.array([d.x_mm, d.y_mm]), d.level * analyser.edge, d.angle_deg)
    found = [c for c in _dice.candidates(frame, die_size_px=die_size_px) if c.depth >= MIN_DEPTH]
    if not found:
        raise CalibrationError(_("no die found in the picture: put the die in the middle of the view, "
                                 "on a plain surface, with nothing else in sight"))
    if len(found) > 1:
        where = ", ".join(f"({c.center[0]:.0f}, {c.center[1]:.0f})" for c in found[:5])
        raise CalibrationError(_("{count} dice or die-like things in the picture (at {where}): "
                                 "show one die at a time").format(count=len(found), where=where))
    centre, side, angle = _outline(frame, found[0].center)
    h, w = frame.shape[:2]
    off = math.hypot(centre[0] - w / 2, centre[1] - h / 2)
    if off > MIDDLE_REACH * min(h, w):
        raise CalibrationError(_("the die is {offset} px from the middle of the view: put it in the middle "
                                 "(within {reach} px), where the camera sees its top face alone, not its sides").format(
            offset=f"{off:.0f}", reach=f"{MIDDLE_REACH * min(h, w):.0f}"))
    detail = detail_of(frame)
    if detail is not None:
        # Cut from the camera's full-resolution view, as the table cuts the faces it reads.
        x, y = in_detail(frame, detail, centre)
        return _dice.face_crop(detail, (float(x), float(y)), side * float(detail_scale(frame, detail).mean()), angle)
    return _dice.face_crop(frame, centre, side, angle)


def _outline(frame: np.ndarray, near: tuple[float, float]) -> tuple[tuple[float, float], float, float]:
    """Centre, side and angle of the die standing out from the plain surface at ``near``.

    The surface's colour is the median of the picture's border; the die is the region that differs
    from it around ``near``, and its smallest enclosing rectangle gives the face square (a symbol face
    has no pips from which to measure it).
    """
    border = np.concatenate([frame[0], frame[-1], frame[:, 0], frame[:, -1]]).astype(np.float32)
    surface = np.median(border, axis=0)
    pixels = frame.astype(np.float32)
    differs = np.linalg.norm(pixels - surface, axis=2) > SURFACE_DIFFERENCE
    # The die's shadow is the surface's own colour, only darker: every channel dimmed alike.
    ratio = pixels / np.maximum(surface, 1.0)
    shadow = ((ratio.max(axis=2) < SHADOW_DIMMING[1]) & (ratio.min(axis=2) > SHADOW_DIMMING[0])
              & (ratio.max(axis=2) - ratio.min(axis=2) < SHADOW_TINT))
    whole = _region(differs, near)
    if whole is None:
        raise CalibrationError(_("the die does not stand out from the surface: use a plain surface of "
                                 "another colour than the die"))
    lit = _region(differs & ~shadow, near)
    # A grey die on a grey surface looks like shadow all over: then the shadow stays in.
    region = lit if lit is not None and lit.sum() >= MIN_LIT_SHARE * whole.sum() else whole
    points = np.column_stack(np.nonzero(region)[::-1]).astype(np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    top = _top_face(frame, region, (cx, cy))
    if top is None:
        return (float(cx), float(cy)), float(max(w, h)), float(angle)
    points = np.column_stack(np.nonzero(top)[::-1]).astype(np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    return (float(cx), float(cy)), float(max(w, h)) + 2 * EDGE_PX, float(angle)


def _top_face(frame: np.ndarray, die: np.ndarray, centre: tuple[float, float]) -> np.ndarray | None:
    """The die's top face within its outline ``die``, or None where it cannot be told from the rest.

    A camera looking at the die at a slant sees one or two of its sides beyond its top face; lit from
    above, those are in the die's shade. The top face is the bright part of the die around its centre,
    with the drawing it encloses.
    """
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    level = float(np.percentile(grey[die], 90))
    top = _region(die & (grey > TOP_BRIGHTNESS * level), centre)
    if top is None or top.sum() < MIN_TOP_SHARE * die.sum():
        return None
    return top


def _region(mask: np.ndarray, near: tuple[float, float]) -> np.ndarray | None:
    """The closed region of ``mask`` at ``near``, with what it encloses (dark ink on a face may
    look like shadow or surface; what the die encloses is die), or None where ``near`` is outside."""
    closed = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    _count, outside = cv2.connectedComponents(1 - closed)
    edge = np.unique(np.concatenate([outside[0], outside[-1], outside[:, 0], outside[:, -1]]))
    closed[~np.isin(outside, edge)] = 1
    _count, labels = cv2.connectedComponents(closed)
    label = labels[int(round(near[1])), int(round(near[0]))]
    return labels == label if label else None


def check_names(die: str, face_names: Sequence[str]) -> None:
    """Refuse a die or face name the face library cannot store, or an empty list of faces."""
    check_name("die", die)
    for face in face_names:
        check_name("face", face)
    if not face_names:
        raise CalibrationError(_("no face names given: list them with --faces (e.g. --faces oni,pirate,sun)"))


def calibrate(die: str, face_names: Sequence[str], grab: FrameSource, ask: Callable[[str], str],
              library: FaceLibrary | None = None, say: Callable[[str], None] = print,
              die_size_px: float | None = None, attempts: int = 3,
              analyser: FrameAnalyser | None = None) -> FaceLibrary:
    """Capture every face in ``face_names`` of ``die`` and add it to ``library`` (loaded if None).

    ``grab`` returns a BGR frame; ``ask`` shows a prompt and returns the user's answer (``input``).
    Answering ``s`` skips a face; a failed capture is retried up to ``attempts`` times. ``analyser``
    (a calibrated mat's :class:`FrameAnalyser`) makes the faces be taken from the mat, as they are read.
    """
    check_names(die, face_names)
    library = library if library is not None else FaceLibrary.load()
    for face in face_names:
        for attempt in range(1, attempts + 1):
            answer = ask(_("Put die '{die}' alone in view with face '{face}' on top, then press Enter "
                           "(s to skip): ").format(die=die, face=face)).strip().lower()
            if answer == "s":
                say(_("skipped {face}").format(face=face))
                break
            try:
                crop = capture_face(grab(), die_size_px, analyser)
            except CalibrationError as exc:
                say(_("{problem} (try {attempt} of {attempts})").format(problem=exc, attempt=attempt,
                                                                        attempts=attempts))
                continue
            library.add(die, face, crop)
            say(_("stored {die}/{face}").format(die=die, face=face))
            break
        else:
            raise CalibrationError(_("could not capture face '{face}' of die '{die}' after {attempts} tries; the "
                                     "faces captured so far were not saved: run `bitbox calibrate faces` again")
                                   .format(face=face, die=die, attempts=attempts))
    return library


def _frame_source(spec: str):
    """The camera (or files) to take the faces from, as ``bitbox camera snapshot --source`` takes."""
    from controller.vision.sources import open_source

    return open_source(spec)


def _mat_analyser(layout_name: str) -> FrameAnalyser | None:
    """The calibrated mat's analyser, or ``None`` (with a note) when that mat is not calibrated."""
    from controller.vision.mat import load_layout
    from controller.vision.profile import TableProfile

    layout = load_layout(layout_name)
    try:
        profile = TableProfile.load(layout.name)
    except CalibrationError:
        print(_("the {layout} mat is not calibrated: the die is found in the plain picture, so show it in the "
                "middle of the view. Faces read best when taught on the calibrated mat (bitbox calibrate mat "
                "--layout {layout}).").format(layout=layout.name))
        return None
    return FrameAnalyser(layout, profile)


def _run(args: argparse.Namespace) -> int:
    from controller.cli import CommandError
    from controller.vision.mat import MatLayoutError
    from controller.vision.sources import SourceError

    faces = [f.strip() for f in args.faces.split(",") if f.strip()]
    try:
        check_names(args.die, faces)            # before the camera is opened
        analyser = _mat_analyser(args.layout or default_mat())
        with _frame_source(args.source) as source:
            library = calibrate(args.die, faces, source.read, input, die_size_px=args.die_size,
                                analyser=analyser)
        folder = library.save()
    except (CalibrationError, SourceError, MatLayoutError, ValueError) as exc:
        raise CommandError(str(exc)) from exc
    except EOFError:
        raise CommandError(_("input ended before every face was shown; nothing was saved: run `bitbox calibrate "
                             "faces` in a terminal")) from None
    print(_("saved {count} reference faces in {folder}").format(count=len(library), folder=folder))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``bitbox calibrate faces``."""
    parser = subparsers.add_parser(
        "faces",
        help=_("teach the camera the faces of a DiXe die"),
        description=_("Show each face of one DiXe die to the camera, one at a time; the pictures are "
                      "stored as references (under the state folder, faces/DIE/FACE.png) and used to read symbol "
                      "faces on the table. Run once per die."),
    )
    parser.add_argument("--die", required=True, help=_("a name for this die, e.g. oni or yorick"))
    parser.add_argument("--faces", required=True,
                        help=_("the die's faces in the order you will show them, comma-separated, "
                               "e.g. oni,pirate,bombe,soleil,smiley,pi"))
    parser.add_argument("--source", default="picamera2",
                        help=_("picamera2 (default), a device number, or a folder of photos (one per face, "
                               "in the order of --faces, sorted by name) or one image"))
    parser.add_argument("--layout", default=None,
                        help=_("the calibrated mat to show the die on (default: the first camera game's mat); "
                               "without a calibrated mat the die is found in the plain picture and must be shown in "
                               "its middle"))
    parser.add_argument("--die-size", type=float, default=None,
                        help=_("side of a die in pixels, when no mat is calibrated (found automatically "
                               "otherwise)"))
    parser.set_defaults(handler=_run)
