"""``bitbox mat``, ``bitbox camera snapshot`` and the ``bitbox vision`` group."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from controller.cli import register_modules
from controller.i18n import _

#: Modules adding ``bitbox vision`` subcommands through ``register(vision_subparsers)``.
VISION_SUBCOMMANDS: tuple[str, ...] = ("controller.vision.evaluate",)


def register(subparsers: argparse._SubParsersAction) -> None:
    from controller.games import default_mat
    from controller.vision.mat import available_layouts

    layouts = available_layouts()
    mat = subparsers.add_parser(
        "mat", help=_("write a printable play mat (PDF pages + true-scale PNG)"),
        description=_("Write the mat of a game with its ArUco markers and zones: a PNG of the whole mat at "
                      "true scale and a PDF split into pages (trim along the dashed lines, lay each page over its "
                      "neighbour matching the crosses, tape). Print at 100 % (actual size), then check the 100 mm "
                      "bar."))
    mat.add_argument("game", nargs="?", default=None, metavar="GAME",
                     help=_("the game whose mat to print: one of {layouts}").format(layouts=", ".join(layouts)))
    mat.add_argument("--game", "--layout", dest="layout", default=None,
                     help=_("mat layout: one of {layouts}, or a .toml file").format(layouts=", ".join(layouts)))
    mat.add_argument("--paper", default="a4", choices=("a4", "letter", "a3", "full"),
                     help=_("page size; 'full' is one page of the mat's size, for a print shop (default a4)"))
    mat.add_argument("--dpi", type=float, default=200.0, help=_("resolution of the images (default 200)"))
    mat.add_argument("--out", type=Path, default=Path("."), help=_("folder to write into (default: here)"))
    mat.set_defaults(handler=_cmd_mat)

    camera = subparsers.add_parser("camera", help=_("look through the table camera"),
                                   description=_("Commands that use the table camera."))
    csub = camera.add_subparsers(dest="camera_command", metavar=_("ACTION"), required=True)
    snap = csub.add_parser(
        "snapshot", help=_("save what the camera sees, with the dice found drawn on it"),
        description=_("Grab a frame, find the dice on the calibrated mat and save the frame with each "
                      "die's footprint, level, face and id drawn; print the TableSnapshot as JSON. Without a "
                      "calibration for the layout, the frame is saved as is with the markers found. Without a "
                      "camera, --source render:{layout} draws a synthetic table.").format(layout=default_mat()))
    snap.add_argument("--source", default="picamera2",
                      help=_("picamera2 (default), a device number, a video, a folder of images, an image, "
                             "or render:LAYOUT[:SEED] for a synthetic table"))
    snap.add_argument("--layout", default=None, help=_("mat layout (default: the first camera game's mat)"))
    snap.add_argument("--out", type=Path, default=Path("snapshot.png"),
                      help=_("image to write (default snapshot.png)"))
    snap.add_argument("--json", action="store_true", help=_("print the snapshot as JSON"))
    snap.add_argument("--wait-still", type=float, default=0.0, metavar=_("SECONDS"),
                      help=_("wait up to this long for the table to be still first (default: no wait)"))
    snap.set_defaults(handler=_cmd_snapshot)

    vision = subparsers.add_parser("vision", help=_("measure and inspect the dice reader"),
                                   description=_("Tools to measure the table camera's dice finding and reading."))
    vsub = vision.add_subparsers(dest="vision_command", metavar=_("ACTION"), required=True)
    register_modules(vsub, VISION_SUBCOMMANDS)


def _cmd_mat(args: argparse.Namespace) -> int:
    from controller.cli import CommandError
    from controller.vision.mat import MatLayoutError, available_layouts, load_layout
    from controller.vision.matprint import write_mat

    if args.layout is None and args.game is None:
        raise CommandError(_("say which mat to print: bitbox mat GAME, one of {layouts}").format(
            layouts=", ".join(available_layouts())))
    try:
        layout = load_layout(args.layout or args.game)
    except MatLayoutError as exc:
        raise CommandError(_("{problem}; give --game one of {layouts}").format(
            problem=exc, layouts=", ".join(available_layouts()))) from exc
    if args.dpi < 50 or args.dpi > 600:
        raise CommandError(_("--dpi {dpi} is out of range; use 100 to 300, such as --dpi 200").format(
            dpi=f"{args.dpi:g}"))
    try:
        printed = write_mat(layout, args.out, args.paper, args.dpi)
    except OSError as exc:
        raise CommandError(_("could not write into {folder}: {reason}; give --out a folder you may write to").format(
            folder=args.out, reason=exc)) from exc
    print(_("{title} mat, {width} x {height} mm").format(title=_(layout.title), width=f"{layout.width_mm:g}",
                                                        height=f"{layout.height_mm:g}"))
    print("  " + _("{file}: {pages} page(s), {across} across x {down} down").format(
        file=printed.pdf, pages=printed.pages, across=printed.grid[0], down=printed.grid[1]))
    print("  " + _("{file}: whole mat at {dpi} dpi").format(file=printed.png, dpi=f"{args.dpi:g}"))
    from controller.games import games

    for spec in games():
        sheets = spec.load_mat_sheets() if spec.mat == layout.name else None
        if sheets is not None:
            try:
                path, pages = sheets(args.out, args.dpi)
            except OSError as exc:
                raise CommandError(_("could not write into {folder}: {reason}; give --out a folder you may write "
                                     "to").format(folder=args.out, reason=exc)) from exc
            print("  " + _("{file}: the pieces to cut out, {pages} page(s)").format(file=path, pages=pages))
    return 0


def _cmd_snapshot(args: argparse.Namespace) -> int:
    import cv2

    from controller.cli import CommandError
    from controller.games import default_mat
    from controller.vision.mat import MatLayoutError, available_layouts, load_layout
    from controller.vision.markers import detect_mat_markers
    from controller.vision.profile import CalibrationError, TableProfile, calibrate_mat
    from controller.vision.sources import SourceError, open_source
    from controller.vision.stillness import MotionState, StillnessDetector

    try:
        layout = load_layout(args.layout or default_mat())
    except MatLayoutError as exc:
        raise CommandError(_("{problem}; give --layout one of {layouts}").format(
            problem=exc, layouts=", ".join(available_layouts()))) from exc
    try:
        source = open_source(args.source)
    except SourceError as exc:
        raise CommandError(_("{problem}; give --source a device number, a video, a folder of images, or "
                             "render:{layout} for a synthetic table").format(problem=exc, layout=layout.name)) from exc
    with source:
        try:
            profile = None
            if args.source.startswith("render:"):
                # A synthetic table calibrates itself on its own empty mat.
                profile = calibrate_mat(source.read(), layout)
            else:
                try:
                    profile = TableProfile.load(layout.name)
                except CalibrationError as exc:
                    print(_("bitbox: {problem}").format(problem=exc))
            if args.wait_still > 0:
                detector = StillnessDetector()
                end = time.monotonic() + args.wait_still
                while time.monotonic() < end:
                    if detector.update(source.preview(), time.monotonic()) is MotionState.STILL:
                        break
            frame = source.read()
        except (SourceError, CalibrationError) as exc:
            raise CommandError(str(exc)) from exc
    if profile is None:
        found = detect_mat_markers(frame, layout)
        out = frame.copy()
        for i, mid in enumerate(found.ids):
            pts = found.image_points[4 * i:4 * i + 4].astype(int)
            cv2.polylines(out, [pts], True, (0, 0, 255), 2)
            cv2.putText(out, str(mid), tuple(pts[0]), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 255), 2)
        cv2.imwrite(str(args.out), out)
        print(_("saved {path}: {seen} of {markers} markers seen (missing {missing})").format(
            path=args.out, seen=found.count, markers=len(layout.markers), missing=list(found.missing)))
        return 0
    from controller.vision.pipeline import FrameAnalyser, TableWatcher, draw_analysis

    try:
        analyser = FrameAnalyser(layout, profile)
        watcher = TableWatcher(analyser)
        snapshot = watcher.snapshot(frame)
    except ValueError as exc:
        raise CommandError(_("{problem}; calibrate the mat again (`bitbox calibrate mat --layout {layout}`)").format(
            problem=exc, layout=layout.name)) from exc
    analysis = watcher.last_analysis
    assert analysis is not None
    if not cv2.imwrite(str(args.out), draw_analysis(frame, analysis, analyser, snapshot)):
        raise CommandError(_("could not write {path}: give --out an image file (.png) in a folder you may write "
                             "to").format(path=args.out))
    stacks = sum(1 for s in snapshot.stacks if not s.toppled)
    print(_("saved {path}: {dice} dice, {stacks} stack(s), {occlusions} occlusion(s)").format(
        path=args.out, dice=len(snapshot.dice), stacks=stacks, occlusions=len(snapshot.occlusions)))
    if args.json:
        print(json.dumps(snapshot.to_json(), indent=1, sort_keys=True))
    return 0
