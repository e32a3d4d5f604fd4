"""``bitbox calibrate camera`` (lens intrinsics from a ChArUco board) and ``bitbox calibrate mat``
(the mat's pose, the empty mat and the dice's size and colours).

Profiles are written under the state folder (``BITBOX_STATE_DIR``, default ``~/.local/state/bitbox``),
in ``camera/``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from controller.i18n import _


def register(subparsers: argparse._SubParsersAction) -> None:
    cam = subparsers.add_parser(
        "camera", help=_("measure the camera's lens from views of a ChArUco board (optional)"),
        description=_("Measure the lens (focal length, distortion) from 10-20 views of a printed ChArUco "
                      "board held at different angles. Optional: without it the focal length is measured from the "
                      "mat's markers (a tilted camera) or the dice's parallax (bitbox calibrate dice), and lens "
                      "distortion is left uncorrected. Use --board-out first to print the board."))
    cam.add_argument("--board-out", type=Path, metavar="FILE.png|FILE.pdf",
                     help=_("write the ChArUco board to print (at 100 %%), then stop"))
    cam.add_argument("--images", type=Path, metavar=_("DIR"), help=_("folder of photos of the board"))
    cam.add_argument("--source", help=_("camera source to grab views from (picamera2, a device number...)"))
    cam.add_argument("--frames", type=int, default=15, help=_("views to grab from --source (default 15)"))
    cam.add_argument("--interval", type=float, default=2.0, help=_("seconds between grabbed views (default 2)"))
    cam.set_defaults(handler=_cmd_camera)

    mat = subparsers.add_parser(
        "mat", help=_("locate the mat under the camera and record the empty mat"),
        description=_("With the empty mat in view (no dice, no hands), find its ArUco markers, solve the "
                      "camera's position over the mat, report the reprojection error, and store the empty mat's "
                      "image (the background dice stand out from). Run again whenever the camera or the mat "
                      "moves. Without a camera, try it on a rendered table: --source render:puxes."))
    mat.add_argument("--layout", default=None, help=_("mat layout (default: the first camera game's mat)"))
    mat.add_argument("--source", default="picamera2", help=_("camera source (default picamera2)"))
    mat.add_argument("--frames", type=int, default=5, help=_("frames averaged for the empty mat (default 5)"))
    mat.add_argument("--hfov", type=float,
                     help=_("horizontal field of view in degrees, when the lens is not calibrated (default: "
                            "measured from the markers when the camera is tilted, else from the dice by "
                            "bitbox calibrate dice)"))
    mat.add_argument("--max-error", type=float, default=2.0,
                     help=_("largest acceptable RMS reprojection error in pixels (default 2)"))
    mat.set_defaults(handler=_cmd_mat)

    dice = subparsers.add_parser(
        "dice", help=_("measure the dice's size, body colours and shadows on the calibrated mat, and the "
                       "lens where the markers could not"),
        description=_("Put a few dice of each colour on the calibrated mat, apart from one another. "
                      "No stacks. Light the mat as for play: the tint of the shadows the dice cast is learnt, so "
                      "that shadows under a lamp in daylight are not taken for dice. Spread them from the middle "
                      "of the mat to its edges: where the lens is not calibrated and the markers could not tell "
                      "its focal length (a camera looking straight down), it is measured from how far each die's "
                      "top is pushed away from the camera's nadir. Their silhouettes are measured against the die "
                      "size of hardware/dice.toml (this sets how heights, hence stacks, are told apart) and, with "
                      "--colours, their body colours are stored in the profile under the names you give, in the "
                      "order the dice are found from left to right."))
    dice.add_argument("--layout", default=None, help=_("mat layout (default: the first camera game's mat)"))
    dice.add_argument("--source", default="picamera2", help=_("camera source (default picamera2)"))
    dice.add_argument("--colours", nargs="+", metavar=_("NAME"),
                      help=_("colour names, one per die from left to right (e.g. white red red blue)"))
    dice.set_defaults(handler=_cmd_dice)


def _cmd_camera(args: argparse.Namespace) -> int:
    import cv2

    from controller.cli import CommandError
    from controller.vision.markers import CharucoSpec, calibrate_intrinsics, charuco_image
    from controller.vision.profile import Intrinsics
    from controller.vision.sources import FolderSource, SourceError, open_source

    spec = CharucoSpec()
    if args.board_out:
        if not args.board_out.parent.is_dir():
            raise CommandError(_("could not write {path}: the folder {folder} does not exist; give --board-out a "
                                 "file in an existing folder").format(path=args.board_out,
                                                                     folder=args.board_out.parent))
        img = charuco_image(spec, 200 / 25.4)
        if args.board_out.suffix.lower() == ".pdf":
            import io

            from PIL import Image
            from reportlab.lib.utils import ImageReader
            from reportlab.pdfgen import canvas

            w_mm, h_mm = img.shape[1] / (200 / 25.4), img.shape[0] / (200 / 25.4)
            buf = io.BytesIO()
            Image.fromarray(img).save(buf, format="PNG")
            buf.seek(0)
            k = 72 / 25.4
            c = canvas.Canvas(str(args.board_out), pagesize=(297 * k, 210 * k))
            c.drawImage(ImageReader(buf), (297 - w_mm) / 2 * k, (210 - h_mm) / 2 * k, w_mm * k, h_mm * k)
            c.setFont("Helvetica", 8)
            c.drawString(10 * k, 8 * k, f"ChArUco {spec.columns}x{spec.rows}, squares {spec.square_mm:g} mm, "
                         f"markers {spec.marker_mm:g} mm, {spec.dictionary}. Print at 100 %, glue flat.")
            try:
                c.save()
            except OSError as exc:
                raise CommandError(_("could not write {path} ({reason}); give --board-out a file in a folder you may "
                                     "write to").format(path=args.board_out, reason=exc.strerror or exc)) from None
        else:
            try:
                written = cv2.imwrite(str(args.board_out), img)
            except cv2.error:
                written = False
            if not written:
                raise CommandError(_("could not write {path}: give --board-out a .png or .pdf file name in a folder "
                                     "you may write to").format(path=args.board_out))
        print(_("wrote {path}: {columns} x {rows} squares of {size} mm; print at 100 % and glue it on something "
                "flat").format(path=args.board_out, columns=spec.columns, rows=spec.rows,
                               size=f"{spec.square_mm:g}"))
        return 0
    if not args.images and not args.source:
        raise CommandError(_("give --images DIR (photos of the board) or --source (a camera), "
                             "or --board-out FILE to print the board first"))
    images = []
    try:
        if args.images:
            if not args.images.is_dir():
                raise CommandError(_("{path} is not a folder: give --images the folder of the board's photos").format(
                    path=args.images))
            images = list(FolderSource(args.images))
        else:
            with open_source(args.source) as src:
                for i in range(args.frames):
                    print(_("view {number}/{count}: hold the board still at a new angle...").format(
                        number=i + 1, count=args.frames))
                    time.sleep(args.interval)
                    images.append(src.read())
    except SourceError as exc:
        raise CommandError(str(exc)) from exc
    try:
        K, dist, rms, used = calibrate_intrinsics(images, spec)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    h, w = images[0].shape[:2]
    path = Intrinsics(K, dist, (w, h), rms).save()
    print(_("lens calibrated from {views} views: fx={fx} fy={fy} px, RMS error {rms} px").format(
        views=used, fx=f"{K[0, 0]:.1f}", fy=f"{K[1, 1]:.1f}", rms=f"{rms:.2f}"))
    print(_("saved {path}").format(path=path))
    if rms > 1.0:
        print(_("the error is high: use sharper views, hold the board still, cover the frame's corners"))
    return 0


def _source_hint(problem: Exception, layout: str) -> str:
    """A camera that could not be opened, and what to give instead."""
    return _("{problem}; give --source a device number, a video, a folder of images, or render:{layout} for a "
             "synthetic table").format(problem=problem, layout=layout)


def _grab_average(source_spec: str, frames: int) -> np.ndarray:
    from controller.vision.sources import open_source

    with open_source(source_spec) as src:
        grabbed = [src.read().astype(np.float32) for _ in range(max(1, frames))]
    return np.clip(np.mean(grabbed, axis=0) + 0.5, 0, 255).astype(np.uint8)


def _cmd_mat(args: argparse.Namespace) -> int:
    from controller.cli import CommandError
    from controller.games import default_mat
    from controller.vision.mat import MatLayoutError, load_layout
    from controller.vision.profile import CalibrationError, Intrinsics, calibrate_mat
    from controller.vision.sources import SourceError

    try:
        layout = load_layout(args.layout or default_mat())
        frame = _grab_average(args.source, args.frames)
        profile = calibrate_mat(frame, layout, Intrinsics.load(), args.hfov)
    except SourceError as exc:
        raise CommandError(_source_hint(exc, args.layout or default_mat())) from exc
    except (MatLayoutError, CalibrationError, ValueError) as exc:
        raise CommandError(str(exc)) from exc
    cam = profile.camera
    print(_("{found} of {markers} markers found; reprojection error RMS {rms} px, worst {worst} px").format(
        found=len(profile.marker_pixels), markers=len(layout.markers), rms=f"{profile.reprojection_rms_px:.2f}",
        worst=f"{profile.reprojection_max_px:.2f}"))
    print(_("camera {height} mm above the mat, over ({x}, {y}) mm, tilted {tilt} degrees").format(
        height=f"{cam.height_mm:.0f}", x=f"{cam.nadir_mm[0]:.0f}", y=f"{cam.nadir_mm[1]:.0f}",
        tilt=f"{cam.tilt_deg:.1f}"))
    lens = _("lens: {lens}").format(lens=profile.describe_lens())
    if profile.lens == "assumed":
        lens += " " + _("until bitbox calibrate dice measures it (the camera looks too straight down for the "
                        "markers to tell)")
    print(lens)
    print(_("rectified view: {scale} px/mm").format(scale=f"{profile.px_per_mm:g}"))
    if profile.reprojection_rms_px > args.max_error:
        raise CommandError(_("the reprojection error ({rms} px) is above {limit} px: flatten the mat, check it is the "
                             "{layout!r} layout printed at 100 %, or calibrate the lens (`bitbox calibrate camera`)")
                           .format(rms=f"{profile.reprojection_rms_px:.2f}", limit=f"{args.max_error:g}",
                                   layout=layout.name))
    print(_("saved {path}").format(path=profile.save()))
    return 0


def _cmd_dice(args: argparse.Namespace) -> int:
    from controller.cli import CommandError
    from controller.games import default_mat
    from controller.vision.mat import MatLayoutError, load_layout
    from controller.vision.pipeline import calibrate_dice
    from controller.vision.profile import CalibrationError, TableProfile
    from controller.vision.shadows import is_neutral
    from controller.vision.sources import SourceError

    try:
        layout = load_layout(args.layout or default_mat())
        profile = TableProfile.load(layout.name)
        frame = _grab_average(args.source, 3)
        analyser = calibrate_dice(layout, profile, frame)
        analysis = analyser.analyse(frame)
    except SourceError as exc:
        raise CommandError(_source_hint(exc, args.layout or default_mat())) from exc
    except (MatLayoutError, CalibrationError, ValueError) as exc:
        raise CommandError(str(exc)) from exc
    dice = sorted((d for d in analysis.dice if d.on_mat and d.level == 1), key=lambda d: d.x_mm)
    if not dice:
        raise CommandError(_("no die found on the mat: put a few dice on it, apart from one another, and run "
                             "`bitbox calibrate dice` again"))
    print(_("{count} dice found; heights of their top faces: {height} mm (expected {expected} mm)").format(
        count=len(dice), height=f"{np.median([d.height_mm for d in dice]):.1f}",
        expected=f"{profile.die_edge_mm:g}"))
    print(_("lens: {lens}; camera {height} mm above the mat").format(
        lens=profile.describe_lens(), height=f"{profile.camera.height_mm:.0f}"))
    if profile.lens == "assumed":
        print("  " + _("the dice could not tell the focal length: spread them from the middle of the mat to its "
                       "edges and calibrate the dice again, or calibrate the lens (bitbox calibrate camera)"))
    print(_("silhouette edge offset: {offset} px (corrects the measured heights)").format(
        offset=f"{profile.edge_offset_px:.2f}"))
    b, g, r = profile.shadow_tint
    if is_neutral(profile.shadow_tint):
        print(_("shadows: untinted (light of one colour, or too diffuse to cast shadows enough to tell)"))
    else:
        print(_("shadows darken blue x{blue}, green x{green}, red x{red} of their mean (the light's tint; shadows "
                "of that tint and untinted ones are both told from dice)").format(
            blue=f"{b:.2f}", green=f"{g:.2f}", red=f"{r:.2f}"))
    if args.colours:
        if len(args.colours) != len(dice):
            raise CommandError(_("{names} colour names for {dice} dice found; give --colours one name per die, "
                                 "left to right").format(names=len(args.colours), dice=len(dice)))
        samples: dict[str, list[np.ndarray]] = {}
        for name, d in zip(args.colours, dice):
            cx, cy = (int(round(v)) for v in d.top_center_px)
            half = max(2, int(d.top_size_px * 0.3))
            patch = analysis.rectified[cy - half:cy + half, cx - half:cx + half].reshape(-1, 3)
            grey = patch.mean(axis=1)
            samples.setdefault(name, []).append(np.median(patch[grey >= np.median(grey)], axis=0))
        profile.colours = {name: tuple(int(v) for v in np.median(vals, axis=0)) for name, vals in samples.items()}
        for name, bgr in profile.colours.items():
            print(f"  {name}: BGR {bgr}")
    print(_("saved {path}").format(path=profile.save()))
    return 0
