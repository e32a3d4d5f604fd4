"""``bitbox mat``, ``bitbox camera snapshot`` and the ``bitbox vision`` group."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from controller.cli import register_modules

#: Modules adding ``bitbox vision`` subcommands through ``register(vision_subparsers)``.
VISION_SUBCOMMANDS: tuple[str, ...] = ("controller.vision.evaluate",)


def register(subparsers: argparse._SubParsersAction) -> None:
    from controller.vision.mat import available_layouts

    layouts = available_layouts()
    mat = subparsers.add_parser(
        "mat", help="write a printable play mat (PDF pages + true-scale PNG)",
        description="Write the mat of a game with its ArUco markers and zones: a PNG of the whole mat at "
        "true scale and a PDF split into pages (trim along the dashed lines, lay each page over its "
        "neighbour matching the crosses, tape). Print at 100 % (actual size), then check the 100 mm bar.")
    mat.add_argument("--game", "--layout", dest="layout", required=True,
                     help=f"mat layout: one of {', '.join(layouts)}, or a .toml file")
    mat.add_argument("--paper", default="a4", choices=("a4", "letter", "a3", "full"),
                     help="page size; 'full' is one page of the mat's size, for a print shop (default a4)")
    mat.add_argument("--dpi", type=float, default=200.0, help="resolution of the images (default 200)")
    mat.add_argument("--out", type=Path, default=Path("."), help="folder to write into (default: here)")
    mat.set_defaults(handler=_cmd_mat)

    camera = subparsers.add_parser("camera", help="look through the table camera",
                                   description="Commands that use the table camera.")
    csub = camera.add_subparsers(dest="camera_command", metavar="ACTION", required=True)
    snap = csub.add_parser(
        "snapshot", help="save what the camera sees, with the dice found drawn on it",
        description="Grab a frame, find the dice on the calibrated mat and save the frame with each "
        "die's footprint, level, face and id drawn; print the TableSnapshot as JSON. Without a "
        "calibration for the layout, the frame is saved as is with the markers found.")
    snap.add_argument("--source", default="picamera2",
                      help="picamera2 (default), a device number, a video, a folder of images, an image, "
                      "or render:LAYOUT[:SEED] for a synthetic table")
    snap.add_argument("--layout", default=None, help="mat layout (default: the first camera game's mat)")
    snap.add_argument("--out", type=Path, default=Path("snapshot.png"), help="image to write (default snapshot.png)")
    snap.add_argument("--json", action="store_true", help="print the snapshot as JSON")
    snap.add_argument("--wait-still", type=float, default=0.0, metavar="SECONDS",
                      help="wait up to this long for the table to be still first (default: no wait)")
    snap.set_defaults(handler=_cmd_snapshot)

    vision = subparsers.add_parser("vision", help="measure and inspect the dice reader",
                                   description="Tools to measure the table camera's dice finding and reading.")
    vsub = vision.add_subparsers(dest="vision_command", metavar="ACTION", required=True)
    register_modules(vsub, VISION_SUBCOMMANDS)


def _cmd_mat(args: argparse.Namespace) -> int:
    from controller.cli import CommandError
    from controller.games import default_mat
    from controller.vision.mat import MatLayoutError, load_layout
    from controller.vision.matprint import write_mat

    try:
        layout = load_layout(args.layout)
    except MatLayoutError as exc:
        raise CommandError(str(exc)) from exc
    if args.dpi < 50 or args.dpi > 600:
        raise CommandError(f"--dpi {args.dpi:g} is out of range; use 100 to 300")
    try:
        printed = write_mat(layout, args.out, args.paper, args.dpi)
    except OSError as exc:
        raise CommandError(f"could not write into {args.out}: {exc}") from exc
    print(f"{layout.title} mat, {layout.width_mm:g} x {layout.height_mm:g} mm")
    print(f"  {printed.pdf}: {printed.pages} page(s), {printed.grid[0]} across x {printed.grid[1]} down")
    print(f"  {printed.png}: whole mat at {args.dpi:g} dpi")
    return 0


def _cmd_snapshot(args: argparse.Namespace) -> int:
    import cv2

    from controller.cli import CommandError
    from controller.games import default_mat
    from controller.vision.mat import MatLayoutError, load_layout
    from controller.vision.markers import detect_mat_markers
    from controller.vision.profile import CalibrationError, TableProfile, calibrate_mat
    from controller.vision.sources import SourceError, open_source
    from controller.vision.stillness import MotionState, StillnessDetector

    try:
        layout = load_layout(args.layout or default_mat())
    except MatLayoutError as exc:
        raise CommandError(str(exc)) from exc
    try:
        source = open_source(args.source)
    except SourceError as exc:
        raise CommandError(str(exc)) from exc
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
                    print(f"bitbox: {exc}")
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
        print(f"saved {args.out}: {found.count} of {len(layout.markers)} markers seen "
              f"(missing {list(found.missing)})")
        return 0
    from controller.vision.pipeline import FrameAnalyser, TableWatcher, draw_analysis

    try:
        analyser = FrameAnalyser(layout, profile)
        watcher = TableWatcher(analyser)
        snapshot = watcher.snapshot(frame)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    analysis = watcher.last_analysis
    assert analysis is not None
    if not cv2.imwrite(str(args.out), draw_analysis(frame, analysis, analyser, snapshot)):
        raise CommandError(f"could not write {args.out}")
    stacks = sum(1 for s in snapshot.stacks if not s.toppled)
    print(f"saved {args.out}: {len(snapshot.dice)} dice, {stacks} stack(s), "
          f"{len(snapshot.occlusions)} occlusion(s)")
    if args.json:
        print(json.dumps(snapshot.to_json(), indent=1, sort_keys=True))
    return 0
