"""Table-camera figures on rendered scenes with exact ground truth.

    python bench/vision.py [--scenes N] [--topples N] [--quick] [--no-real] [--verbose] [--misread DIR]
    python bench/vision.py --speed-only

Prints: position error (RMS, mm) with and without the parallax correction, under deep shadows tinted
as a lamp's are in daylight, under a lamp lit after calibration, with lenses whose focal length the
markers cannot tell, and with frames as a USB webcam delivers them; milliseconds from a still 1280x720 frame with 20 dice to a TableSnapshot on
one core; temple topples detected and false topples on still temples; top-face accuracy on the rendered
dice; and, when the real photo sets are present (../shared/data), the face reader's figures from
``bitbox vision evaluate``. The cold snapshot's CPU time is also divided by that of the same
snapshots read with the pip reader the table had before faces were read in batches
(``bench/vision_reference.py``): ``snapshot_vs_reference_ratio`` (the goal: 0.60 or less).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from controller.vision.mat import load_layout  # noqa: E402
from controller.vision.pipeline import UNREAD, FrameAnalyser, TableWatcher, calibrate_dice  # noqa: E402
from controller.vision.profile import calibrate_mat  # noqa: E402
from controller.vision.render import (  # noqa: E402
    Die, Lighting, Scene, fitting_camera, match_truth, random_scene, render, render_empty, visible_tops)
from controller.vision.snapshot import replaced  # noqa: E402
import vision_reference  # noqa: E402


def calibrated(layout, tilt: float, yaw: float, lighting: Lighting, hfov: float = 66.0,
               given_hfov: float | None = None, image_size: tuple[int, int] = (1280, 720),
               delivered: Callable[[np.ndarray], np.ndarray] | None = None):
    """Calibrate as a user would: empty mat, then single dice for the focal length (where the markers
    could not tell it), the shadows' tint and the silhouettes' edge offset. ``hfov``: the camera's
    true field of view; ``given_hfov``: the one given by hand (``bitbox calibrate mat --hfov``);
    ``delivered``: what the camera's link does to a frame (see :func:`jpeg`)."""
    delivered = delivered or (lambda image: image)
    cam = fitting_camera(layout, image_size=image_size, tilt_deg=tilt, yaw_deg=yaw, hfov_deg=hfov)
    prof = calibrate_mat(delivered(render_empty(Scene(layout, camera=cam, lighting=lighting))), layout,
                         hfov_deg=given_hfov)
    calibrate_dice(layout, prof,
                   delivered(render(random_scene(layout, 12, seed=999, camera=cam, lighting=lighting)).image))
    return prof, cam


def jpeg(quality: int) -> Callable[[np.ndarray], np.ndarray]:
    """A frame as a webcam's Motion-JPEG delivers it (colour at half resolution both ways)."""
    def delivered(image: np.ndarray) -> np.ndarray:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(data, cv2.IMREAD_COLOR)
    return delivered


def yuyv(image: np.ndarray) -> np.ndarray:
    """A frame as a webcam's uncompressed YUYV mode delivers it (colour at half resolution across)."""
    ycc = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    h, w = image.shape[:2]
    for c in (1, 2):
        ycc[..., c] = cv2.resize(cv2.resize(ycc[..., c], (w // 2, h), interpolation=cv2.INTER_AREA), (w, h),
                                 interpolation=cv2.INTER_LINEAR)
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)


def scene_params(rng, max_tilt: float = 20.0):
    tilt = float(rng.uniform(0, max_tilt))
    yaw = float(rng.uniform(0, 360))
    lighting = Lighting(gradient=float(rng.uniform(0, 0.3)), shadow=float(rng.uniform(0.15, 0.4)),
                        glare=int(rng.integers(0, 3)), blur_sigma=float(rng.uniform(0.5, 1.0)),
                        noise_sigma=float(rng.uniform(1.0, 3.0)))
    return tilt, yaw, lighting


def positions(layout, n_scenes: int, seed: int, misread_dir: Path | None = None,
              shadows: tuple[float, float] | None = None, learn_tint: bool = True,
              follow: bool = True, lamp: float | None = None, hfov: float = 66.0,
              given_hfov: float | None = None, max_tilt: float = 20.0, image_size: tuple[int, int] = (1280, 720),
              delivered: Callable[[np.ndarray], np.ndarray] | None = None) -> dict[str, Any]:
    """Position, level and face figures of each scene's first still snapshot; ``shadows`` (darkness,
    tint) replaces the random shadows, and the dice are calibrated under that light (``learn_tint``)
    or under light of one colour. ``follow=False``: the analyser alone, without the table watcher
    learning a tint the calibration did not see. ``lamp``: a lamp lit after calibration makes the
    scenes that much brighter on one side (a gradient of 0.5 across the frame). ``hfov``, ``given_hfov``
    and ``max_tilt``: the lens, see :func:`calibrated`, and the camera's largest tilt; ``image_size`` and
    ``delivered``: the frames, see :func:`calibrated`."""
    rng = np.random.default_rng(seed)
    on, off, levels, faces, found_n, truth_n, extra, occluded = [], [], [], [], 0, 0, 0, 0
    lenses = []
    for k in range(n_scenes):
        tilt, yaw, lighting = scene_params(rng, max_tilt)
        if shadows is not None:
            lighting = dataclasses.replace(lighting, shadow=shadows[0], shadow_tint=shadows[1])
        if lamp is not None:
            lighting = dataclasses.replace(lighting, brightness=lamp, gradient=0.5)
        calibration_light = Lighting()
        if shadows is not None and learn_tint:
            calibration_light = Lighting(shadow=shadows[0], shadow_tint=shadows[1])
        prof, cam = calibrated(layout, tilt, yaw, calibration_light, hfov, given_hfov, image_size, delivered)
        lenses.append(prof.camera.hfov_deg)
        analyser = FrameAnalyser(layout, prof)
        naive = FrameAnalyser(layout, prof, parallax=False)
        scene = random_scene(layout, 18, seed=seed * 100 + k, temples=True, camera=cam, lighting=lighting)
        frame = render(scene)
        if delivered is not None:
            frame = dataclasses.replace(frame, image=delivered(frame.image))
        truth = visible_tops(list(frame.truth))
        if follow:
            watcher = TableWatcher(analyser)
            occluded += not watcher.snapshot(frame.image).still
            found = watcher.last_analysis.dice
        else:
            found = analyser.analyse(frame.image).dice
        pairs = match_truth(found, truth, 15.0)
        on += [d for _, _, d in pairs]
        levels += [f.level == t.level for f, t, _ in pairs]
        faces += [f.face.pips == t.top for f, t, _ in pairs]
        if misread_dir is not None:
            misread_dir.mkdir(parents=True, exist_ok=True)
            for f, t, _ in pairs:
                if f.face.pips != t.top:
                    crop = analyser.top_face_crop(frame.image, np.array([f.x_mm, f.y_mm]), f.level * analyser.edge,
                                                  f.angle_deg)
                    cv2.imwrite(str(misread_dir / f"scene{k}-die{t.index}-{t.top}-as-{f.face.label}.png"),
                                cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST))
        off += [d for _, _, d in match_truth(naive.analyse(frame.image).dice, truth, 60.0)]
        found_n += len(pairs)
        truth_n += len(truth)
        extra += len(found) - len(pairs)
    return {
        "rms_on": float(np.sqrt(np.mean(np.square(on)))), "rms_off": float(np.sqrt(np.mean(np.square(off)))),
        "p95_on": float(np.percentile(on, 95)), "found": found_n / truth_n, "extra": extra,
        "levels": float(np.mean(levels)), "faces": float(np.mean(faces)), "dice": truth_n,
        "not_still": occluded, "lenses": lenses,
    }


def reference_ms(frame: np.ndarray) -> float:
    """A fixed operation timed beside the snapshots, to tell the machine's speed (and what else runs
    on it) apart from the code's: one Gaussian blur, threshold and outline search of the whole frame
    (OpenCV, one thread), CPU milliseconds of this thread."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    t = time.thread_time()
    blurred = cv2.GaussianBlur(grey, (5, 5), 0)
    _, binary = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    return (time.thread_time() - t) * 1000


class ReferenceAnalyser(FrameAnalyser):
    """The frame analyser reading each face alone with the pip reader the table had before faces were
    read in batches (``bench/vision_reference.py``): the reference the cold snapshot is compared with."""

    def _finish(self, frame: np.ndarray, dice: list) -> list:
        out = []
        for die in dice:
            face, colour = (None if die.face is UNREAD else die.face), die.colour
            if face is None or colour is None:
                crop, source_px = self.reader.crop(frame, np.array([die.x_mm, die.y_mm]), die.level * self.edge,
                                                  die.angle_deg)
                face = face or vision_reference.read_pips(crop, None, source_px)
                colour = colour or self.reader.colour(crop)
            out.append(replaced(die, face=face, colour=colour))
        return out


def _moved(scene: Scene, n: int) -> Scene:
    """The same table after a turn that moved its last ``n`` dice 40 mm and turned them (new sensor noise)."""
    dice = list(scene.dice)
    for i in range(-n, 0):
        dice[i] = dataclasses.replace(dice[i], x_mm=dice[i].x_mm + 40, angle_deg=dice[i].angle_deg + 25)
    return dataclasses.replace(scene, dice=tuple(dice), seed=scene.seed + 1)


def speed(layout, repeats: int) -> dict[str, float]:
    """Milliseconds from a still frame to a TableSnapshot, on one core (OpenCV and BLAS on one thread).

    Cold: every die found and read from scratch (20 dice). Warm: the next snapshot after a turn that
    moved two of them (what the table does during a game): only what changed is searched and read
    again. Warm, 40 dice: the next still frame of a table of 40 dice none of which moved (new sensor
    noise), and one after a turn that moved two. Each figure is the median over ``repeats``
    snapshots, in wall-clock time and in this thread's CPU time. The cold snapshot's CPU time is
    divided by that of the same snapshots taken by :class:`ReferenceAnalyser` (each face read alone
    with the reader the table had before), in turn on the same frames; and by a fixed operation's
    (:func:`reference_ms`), which tells the machine's speed apart from the code's."""
    cv2.setNumThreads(1)
    prof, cam = calibrated(layout, 8.0, 30.0, Lighting())
    analyser = FrameAnalyser(layout, prof)
    scene = random_scene(layout, 18, seed=5, temples=True, camera=cam)       # 18 loose + 2 temples = 20 visible
    frame = render(scene).image
    assert frame.shape[:2] == (720, 1280)
    frame2 = render(_moved(scene, 2)).image
    crowd = random_scene(layout, 38, seed=5, temples=True, camera=cam)       # 38 loose + 2 temples = 40 visible
    crowd_frames = [render(dataclasses.replace(crowd, seed=crowd.seed + k)).image for k in range(3)]
    crowd_moved = render(_moved(crowd, 2)).image
    finder_ms: list[float] = []
    real_finder = analyser.finder

    def timed_finder(*a, **kw):
        t = time.perf_counter()
        out = real_finder(*a, **kw)
        finder_ms.append((time.perf_counter() - t) * 1000)
        return out

    analyser.finder = timed_finder
    out: dict[str, float] = {}

    def run(name: str, incremental: bool, first: np.ndarray, frames: list[np.ndarray]) -> None:
        watcher = TableWatcher(analyser)
        watcher.incremental = incremental
        watcher.snapshot(first, 0.0)
        wall, cpu = [], []
        finder_ms[:] = []
        for i in range(repeats):
            f = frames[i % len(frames)]
            t, c = time.perf_counter(), time.thread_time()
            watcher.snapshot(f, float(i + 1))
            cpu.append((time.thread_time() - c) * 1000)
            wall.append((time.perf_counter() - t) * 1000)
        out[name] = statistics.median(wall)
        out[name + "_cpu"] = statistics.median(cpu)
        out[name + "_finder"] = sum(finder_ms) / repeats

    def cold() -> None:
        """Cold snapshots of the same frames by the analyser and by the reference one, taken in turn
        (what else runs on the machine slows both alike)."""
        reference = ReferenceAnalyser(layout, prof)
        watchers = [TableWatcher(analyser), TableWatcher(reference)]
        for watcher in watchers:
            watcher.incremental = False
            watcher.snapshot(frame, 0.0)
        times: list[list[tuple[float, float]]] = [[], []]
        ref, same = [], 0
        finder_ms[:] = []
        for i in range(repeats):
            f = (frame2, frame)[i % 2]
            snaps = []
            for watcher, got in zip(watchers, times):
                t, c = time.perf_counter(), time.thread_time()
                snaps.append(watcher.snapshot(f, float(i + 1)))
                got.append(((time.perf_counter() - t) * 1000, (time.thread_time() - c) * 1000))
            same += [d.face.pips for d in snaps[0].dice] == [d.face.pips for d in snaps[1].dice]
            ref.append(reference_ms(f))
        for name, got in zip(("cold", "cold_reference"), times):
            out[name] = statistics.median(w for w, _ in got)
            out[name + "_cpu"] = statistics.median(c for _, c in got)
        out["cold_finder"] = sum(finder_ms) / repeats
        out["cold_same_faces"] = same / repeats
        out["reference"] = statistics.median(ref)
        out["cold_ratio"] = out["cold_cpu"] / out["cold_reference_cpu"]
        out["cold_vs_operation"] = out["cold_cpu"] / out["reference"]

    with threadpool_limits(1):          # numpy's BLAS on one thread too
        cold()
        run("warm", True, frame, [frame2, frame])
        run("warm40", True, crowd_frames[0], crowd_frames[1:])
        run("warm40_moved", True, crowd_frames[0], [crowd_moved, crowd_frames[0]])
    return out


def topples(layout, n: int, seed: int, verbose: bool = False) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    e = layout.die.edge_mm
    detected = false_topples = where_ok = 0
    for k in range(n):
        tilt, yaw, lighting = scene_params(rng)
        prof, cam = calibrated(layout, tilt, yaw, Lighting())
        scene = random_scene(layout, 10, seed=seed * 1000 + k, temples=True, camera=cam, lighting=lighting)
        # Still temples: two snapshots of the same table (new sensor noise, one loose die pushed).
        watcher = TableWatcher(FrameAnalyser(layout, prof))
        watcher.snapshot(render(scene).image, 0.0)
        dice = list(scene.dice)
        for _ in range(50):
            j = int(rng.integers(4, len(dice)))          # a loose die (the temples come first)
            a = rng.uniform(0, 2 * math.pi)
            nx, ny = dice[j].x_mm + 30 * math.cos(a), dice[j].y_mm + 30 * math.sin(a)
            if layout.on_mat(nx, ny, e) and all(math.hypot(nx - d.x_mm, ny - d.y_mm) > 1.6 * e
                                                for i, d in enumerate(dice) if i != j):
                dice[j] = dataclasses.replace(dice[j], x_mm=nx, y_mm=ny)
                break
        still = watcher.snapshot(render(dataclasses.replace(scene, dice=tuple(dice), seed=scene.seed + 1)).image, 1.0)
        false_topples += any(s.toppled for s in still.stacks)
        if verbose and any(s.toppled for s in still.stacks):
            print(f"  false topple: trial {k}, camera over {prof.camera.nadir_mm}, tilt {tilt:.1f}: {still.stacks}")
        # Knock one temple over: the top die lands 1.2-3 dice away; the bottom one stays or is pushed.
        z = layout.zones_of_kind("temple")[k % 2]
        cx, cy = z.params["center"]
        kept = [d for d in dice if math.hypot(d.x_mm - cx, d.y_mm - cy) > 1]
        others = [(d.x_mm, d.y_mm) for d in kept]
        fallen = []
        for level_die in (0, 1):
            for _ in range(200):
                if level_die == 0 and rng.random() < 0.5:
                    x, y = cx + rng.normal(0, 2), cy + rng.normal(0, 2)
                else:
                    r, a = rng.uniform(1.2 * e, 3 * e), rng.uniform(0, 2 * math.pi)
                    x, y = cx + r * math.cos(a), cy + r * math.sin(a)
                if all(math.hypot(x - a, y - b) > 1.5 * e for a, b in others) and layout.on_mat(x, y, e):
                    fallen.append(Die(x, y, int(rng.integers(1, 7)), float(rng.uniform(0, 90))))
                    others.append((x, y))
                    break
        after = watcher.snapshot(render(dataclasses.replace(scene, dice=(*kept, *fallen), seed=scene.seed + 2)).image,
                                 2.0)
        hit = [s for s in after.stacks if s.toppled and math.hypot(s.x_mm - cx, s.y_mm - cy) < e]
        wrong = [s for s in after.stacks if s.toppled and math.hypot(s.x_mm - cx, s.y_mm - cy) >= e]
        detected += bool(hit) and not wrong
        if verbose and not (hit and not wrong):
            print(f"  missed topple: trial {k}, temple {cx, cy}, camera over {prof.camera.nadir_mm}, "
                  f"fallen {[(round(f.x_mm), round(f.y_mm), f.top) for f in fallen]}: {after.stacks}; dice near: "
                  f"{[(round(d.x_mm), round(d.y_mm), d.level, d.face.label) for d in after.dice if math.hypot(d.x_mm - cx, d.y_mm - cy) < 90]}")
        if hit and len(hit[0].scattered_to) == len(fallen):
            where_ok += all(min(math.hypot(px - f.x_mm, py - f.y_mm) for px, py in hit[0].scattered_to) < 5
                            for f in fallen)
    return {"detected": detected / n, "false": false_topples, "still_trials": n, "where": where_ok / n}


def real_photos() -> None:
    data = Path(os.environ.get("BITBOX_SHARED_DATA") or ROOT.parent / "shared" / "data")
    crops = data / "dice-crops" / "chaseelliottpatterson" / "test"
    if not crops.is_dir():
        print("real photos: ../shared/data not found, skipped")
        return
    from controller.cli import main
    print(f"real photos (bitbox vision evaluate {crops.relative_to(data.parent)}):")
    main(["vision", "evaluate", str(crops)])


def print_speed(s: dict[str, float], last: bool = True) -> None:
    """The speed figures of :func:`speed`, described; then as ``name: number`` lines when ``last``."""
    print("speed: still 1280x720 frame -> TableSnapshot, one core (OpenCV and BLAS on one thread), median wall-clock")
    print("  (this thread's CPU) milliseconds:")
    print(f"  cold, 20 dice, every die found and read: {s['cold']:.1f} ms ({s['cold_cpu']:.1f} CPU; dice finder, on "
          f"clusters of touching dice only: {s['cold_finder']:.1f} ms)")
    print("    the same snapshots with the reference reader (each face alone, on the full map; "
          f"bench/vision_reference.py): {s['cold_reference']:.1f} ms ({s['cold_reference_cpu']:.1f} CPU); the same faces read in "
          f"{s['cold_same_faces']:.0%} of the frames; snapshot / reference: {s['cold_ratio']:.2f} (goal <= 0.60)")
    print(f"    a fixed operation on the same frames (blur, threshold, outlines): {s['reference']:.2f} ms CPU; "
          f"snapshot / operation: {s['cold_vs_operation']:.1f}")
    print(f"  warm, 20 dice, next snapshot after 2 dice moved: {s['warm']:.1f} ms ({s['warm_cpu']:.1f} CPU; "
          f"dice finder: {s['warm_finder']:.1f} ms)")
    print(f"  warm, 40 dice, next still frame, none moved (none searched again): {s['warm40']:.1f} ms "
          f"({s['warm40_cpu']:.1f} CPU)")
    print(f"  warm, 40 dice, after 2 of them moved: {s['warm40_moved']:.1f} ms ({s['warm40_moved_cpu']:.1f} CPU; "
          f"dice finder: {s['warm40_moved_finder']:.1f} ms)")
    if last:
        print_speed_figures(s)


def print_speed_figures(s: dict[str, float]) -> None:
    print(f"snapshot_ms_cold: {s['cold']:.1f}")
    print(f"snapshot_ms_warm: {s['warm']:.1f}")
    print(f"snapshot_ms_warm_40: {s['warm40']:.1f}")
    print(f"snapshot_ms_warm_40_after_2_moved: {s['warm40_moved']:.1f}")
    print(f"snapshot_vs_reference_ratio: {s['cold_ratio']:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=12)
    ap.add_argument("--topples", type=int, default=300)
    ap.add_argument("--quick", action="store_true", help="fewer scenes, for a smoke run")
    ap.add_argument("--speed-only", action="store_true", help="the speed figures alone (a minute or two)")
    ap.add_argument("--no-real", action="store_true", help="skip the real photo sets")
    ap.add_argument("--verbose", action="store_true", help="describe each missed or false topple")
    ap.add_argument("--misread", type=Path, metavar="DIR",
                    help="write the top-face crop of each misread die as a PNG into DIR")
    args = ap.parse_args()
    # The table's own warnings (the light changed since calibration, ...) are what is measured here.
    logging.basicConfig(level=logging.ERROR)
    if args.quick:
        args.scenes, args.topples = 3, 10
    layout = load_layout("puxes")
    t0 = time.time()
    if args.speed_only:
        print_speed(speed(layout, 20))
        return
    p = positions(layout, args.scenes, seed=1, misread_dir=args.misread)
    print(f"positions: {p['dice']} dice in {args.scenes} rendered PuXes scenes (1280x720, camera tilt 0-20 deg)")
    print(f"  found {p['found']:.1%} of dice, {p['extra']} spurious; levels right {p['levels']:.1%}")
    print(f"  position error RMS with parallax correction: {p['rms_on']:.2f} mm (95th percentile {p['p95_on']:.2f} mm)")
    print(f"  position error RMS without (mat-plane homography only): {p['rms_off']:.2f} mm")
    print(f"  top faces read right (pips): {p['faces']:.1%}")
    print("  under deep shadows (50 % darker) tinted bluer than the light (a lamp in daylight), the dice")
    one_colour = "calibrated under light of one colour"
    for learn, follow, how in ((False, False, f"{one_colour}, the analyser alone"),
                               (False, True, f"{one_colour}, the table following the light"),
                               (True, True, "calibrated under that light")):
        for tint in (0.1, 0.2, 0.3):
            q = positions(layout, max(1, args.scenes // 2), seed=1, shadows=(0.5, tint), learn_tint=learn,
                          follow=follow)
            print(f"    {how}, tint {tint:.0%}: RMS {q['rms_on']:.2f} mm, levels right {q['levels']:.1%}, "
                  f"{q['extra']} spurious")
    q = positions(layout, max(1, args.scenes // 2), seed=1, lamp=1.35)
    print(f"  a lamp lit after calibration, the mat up to 35 % brighter on one side: found {q['found']:.1%}, "
          f"{q['extra']} spurious, RMS {q['rms_on']:.2f} mm, levels right {q['levels']:.1%}, "
          f"snapshots taken for a hand {q['not_still']}")
    print("  lenses other than the 66 degrees assumed, not calibrated, the camera tilted 0-5 deg (too little for the")
    print("  markers to tell the focal length: the dice's parallax measures it)")
    for fov in (50.0, 78.0, 90.0, 102.0):
        for given, how in ((66.0, "left at 66 deg (--hfov 66)"), (None, "measured")):
            q = positions(layout, max(1, args.scenes // 2), seed=1, hfov=fov, given_hfov=given, max_tilt=5.0)
            lens = "" if given else f" ({min(q['lenses']):.0f}-{max(q['lenses']):.0f} deg)"
            print(f"    {fov:.0f} deg, {how}{lens}: RMS {q['rms_on']:.2f} mm, levels right {q['levels']:.1%}, "
                  f"faces right {q['faces']:.1%}, {q['extra']} spurious")
    print("  frames as a USB webcam delivers them (mat, dice and play alike)")
    for delivered, size, how in ((jpeg(90), (1280, 720), "Motion-JPEG, quality 90"),
                                 (jpeg(70), (1280, 720), "Motion-JPEG, quality 70"),
                                 (yuyv, (1280, 720), "uncompressed (YUYV)"),
                                 (yuyv, (640, 480), "uncompressed (YUYV), 640 x 480")):
        q = positions(layout, max(1, args.scenes // 2), seed=1, image_size=size, delivered=delivered)
        print(f"    {how}: RMS {q['rms_on']:.2f} mm, levels right {q['levels']:.1%}, faces right {q['faces']:.1%}, "
              f"{q['extra']} spurious, found {q['found']:.1%}")
    s = speed(layout, 20)
    print_speed(s, last=False)
    t = topples(layout, args.topples, seed=2, verbose=args.verbose)
    print(f"topples: {t['detected']:.1%} of {args.topples} knocked temples detected "
          f"(fallen dice located within 5 mm: {t['where']:.1%}); false topples on still temples: "
          f"{t['false']} in {t['still_trials']}")
    if not args.no_real:
        real_photos()
    print(f"bench time: {time.time() - t0:.0f} s")
    print_speed_figures(s)
    print(f"position_rms_mm: {p['rms_on']:.2f}")


if __name__ == "__main__":
    main()
