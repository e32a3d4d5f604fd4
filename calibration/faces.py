"""``bitbox calibrate faces``: teach the camera the faces of your DiXe dice.

For each face of a die, the user puts the die alone in the camera's view with that face up and presses
Enter; the top face is found, cut out and stored as a reference under ``state_dir()/faces/DIE/FACE.png``.
Faces already stored for other dice are kept; a face shown again replaces its old picture.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
import numpy as np

from controller.vision import dice as _dice
from controller.vision.faces import FaceLibrary, check_name

FrameSource = Callable[[], np.ndarray]


#: How deep inside the foreground a place must be, in die sides, to count as a die body (half a side
#: is the middle of a lone die; thin things and edges are shallower).
MIN_DEPTH = 0.3


class CalibrationError(ValueError):
    """A face could not be captured; the message says what to change."""


def capture_face(frame: np.ndarray, die_size_px: float | None = None) -> np.ndarray:
    """The crop of the single die's top face in ``frame``, cut as the finder cuts faces for reading.

    Every solid die-sized region counts (a symbol face has no pips to go by); there must be one.
    """
    found = [c for c in _dice.candidates(frame, die_size_px=die_size_px) if c.depth >= MIN_DEPTH]
    if not found:
        raise CalibrationError("no die found in the picture: put the die in the middle of the view, "
                               "on a plain surface, with nothing else in sight")
    if len(found) > 1:
        where = ", ".join(f"({c.center[0]:.0f}, {c.center[1]:.0f})" for c in found[:5])
        raise CalibrationError(f"{len(found)} dice or die-like things in the picture (at {where}): "
                               "show one die at a time")
    return _dice.candidate_crop(frame, found[0])


def check_names(die: str, face_names: Sequence[str]) -> None:
    """Refuse a die or face name the face library cannot store, or an empty list of faces."""
    check_name("die", die)
    for face in face_names:
        check_name("face", face)
    if not face_names:
        raise CalibrationError("no face names given: list them with --faces (e.g. --faces oni,pirate,sun)")


def calibrate(die: str, face_names: Sequence[str], grab: FrameSource, ask: Callable[[str], str],
              library: FaceLibrary | None = None, say: Callable[[str], None] = print,
              die_size_px: float | None = None, attempts: int = 3) -> FaceLibrary:
    """Capture every face in ``face_names`` of ``die`` and add it to ``library`` (loaded if None).

    ``grab`` returns a BGR frame; ``ask`` shows a prompt and returns the user's answer (``input``).
    Answering ``s`` skips a face; a failed capture is retried up to ``attempts`` times.
    """
    check_names(die, face_names)
    library = library if library is not None else FaceLibrary.load()
    for face in face_names:
        for attempt in range(1, attempts + 1):
            answer = ask(f"Put die '{die}' alone in view with face '{face}' on top, then press Enter "
                         "(s to skip): ").strip().lower()
            if answer == "s":
                say(f"skipped {face}")
                break
            try:
                crop = capture_face(grab(), die_size_px)
            except CalibrationError as exc:
                say(f"{exc} (try {attempt} of {attempts})")
                continue
            library.add(die, face, crop)
            say(f"stored {die}/{face}")
            break
        else:
            raise CalibrationError(f"could not capture face '{face}' of die '{die}' after {attempts} "
                                   "tries; the faces captured so far were not saved")
    return library


def _frame_source(spec: str):
    """The camera (or files) to take the faces from, as ``bitbox camera snapshot --source`` takes."""
    from controller.vision.sources import open_source

    return open_source(spec)


def _run(args: argparse.Namespace) -> int:
    from controller.cli import CommandError
    from controller.vision.sources import SourceError

    faces = [f.strip() for f in args.faces.split(",") if f.strip()]
    try:
        check_names(args.die, faces)            # before the camera is opened
        with _frame_source(args.source) as source:
            library = calibrate(args.die, faces, source.read, input, die_size_px=args.die_size)
        folder = library.save()
    except (CalibrationError, SourceError, ValueError) as exc:
        raise CommandError(str(exc)) from exc
    except EOFError:
        raise CommandError("input ended before every face was shown; nothing was saved") from None
    print(f"saved {len(library)} reference faces in {folder}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``bitbox calibrate faces``."""
    parser = subparsers.add_parser(
        "faces",
        help="teach the camera the faces of a DiXe die",
        description="Show each face of one DiXe die to the camera, one at a time; the pictures are "
        "stored as references (under the state folder, faces/DIE/FACE.png) and used to read symbol "
        "faces on the table. Run once per die.",
    )
    parser.add_argument("--die", required=True, help="a name for this die, e.g. oni or yorick")
    parser.add_argument("--faces", required=True,
                        help="the die's faces in the order you will show them, comma-separated, "
                        "e.g. oni,pirate,bombe,soleil,smiley,pi")
    parser.add_argument("--source", default="picamera2",
                        help="picamera2 (default), a device number, or a folder of photos (one per face, "
                        "in the order of --faces, sorted by name) or one image")
    parser.add_argument("--die-size", type=float, default=None,
                        help="side of a die in pixels, if known (found automatically otherwise)")
    parser.set_defaults(handler=_run)
