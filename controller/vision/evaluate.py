"""``bitbox vision evaluate DIR``: measure die finding and face reading on labelled photos.

Two layouts are read:

* photos: ``NAME.jpg`` (or .png/.jpeg) with ``NAME.txt`` beside it or in a sibling ``labels/`` folder
  (``images/NAME.jpg`` + ``labels/NAME.txt``); each label line is ``class cx cy w h`` (YOLO, normalised
  to the image size) with ``class = pips - 1``;
* crops: folders named ``1`` to ``6`` holding images of single dice showing that face.

A found die matches a label when its centre lies inside the labelled box (some label sets box only the
pip pattern); each label matches at most one die and the reverse, nearest centre first.

A reading is *confident* when the referee would call on it without asking the players: readable, with
a confidence of at least the referee's ``min_confidence`` (:data:`CONFIDENT`); every other found die
is *asked* about. Photos can also be read changed (:data:`VARIANTS`: half size, three times the size,
re-encoded as JPEG at quality 40) to measure how the reader copes with other scales and cameras.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

from controller.referee.common import RefereeConfig
from controller.vision.snapshot import DieFace

if TYPE_CHECKING:
    import concurrent.futures

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")

#: The confidence from which the referee calls on a reading without asking: the same rule here.
CONFIDENT = RefereeConfig().min_confidence

#: The ways a photo can be changed before it is read (:func:`changed`).
VARIANTS = ("half", "x3", "jpeg40")


def changed(image: np.ndarray, variant: str | None) -> np.ndarray:
    """``image`` halved (area averaging), tripled (bicubic) or re-encoded as JPEG at quality 40;
    unchanged for None. Labels are normalised to the image, so they hold for the changed one."""
    if variant is None:
        return image
    if variant == "half":
        h, w = image.shape[:2]
        return cv2.resize(image, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    if variant == "x3":
        return cv2.resize(image, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    if variant == "jpeg40":
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 40])
        return cv2.imdecode(data, cv2.IMREAD_COLOR)
    raise ValueError(f"unknown image variant {variant!r}: expected one of {', '.join(VARIANTS)}")


def confident(face: DieFace) -> bool:
    """Whether the referee calls on ``face`` without asking (:data:`CONFIDENT`)."""
    return face.readable and face.confidence >= CONFIDENT


class DatasetError(ValueError):
    """A labelled folder could not be read; the message names the file and line."""


@dataclasses.dataclass(frozen=True)
class Label:
    """One labelled die: its top face and its box in pixels."""

    pips: int
    cx: float
    cy: float
    w: float
    h: float

    def contains(self, x: float, y: float, margin: float = 0.0) -> bool:
        return (abs(x - self.cx) <= self.w / 2 + margin) and (abs(y - self.cy) <= self.h / 2 + margin)


@dataclasses.dataclass(frozen=True)
class Sample:
    """One image to evaluate: either a photo with boxes, or a crop of one die (``crop_face``),
    read as it is or changed (``variant``, one of :data:`VARIANTS`)."""

    image: Path
    labels: Path | None = None
    crop_face: int | None = None
    variant: str | None = None


@dataclasses.dataclass
class Result:
    """Counts for one image (or a sum of them)."""

    labels: int = 0
    found: int = 0
    matched: int = 0
    correct: int = 0
    unreadable: int = 0
    confident: int = 0            # found dice read with the referee's confidence
    confident_right: int = 0      # ... and read right
    seconds: float = 0.0          # spent decoding the images, finding and reading their dice
    errors: list[tuple[Path, tuple[float, float], int, str]] = dataclasses.field(default_factory=list)

    def add(self, other: Result) -> None:
        self.labels += other.labels
        self.found += other.found
        self.matched += other.matched
        self.correct += other.correct
        self.unreadable += other.unreadable
        self.confident += other.confident
        self.confident_right += other.confident_right
        self.seconds += other.seconds
        self.errors.extend(other.errors)

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 0.0

    @property
    def recall(self) -> float:
        return self.matched / self.labels if self.labels else 0.0

    @property
    def accuracy(self) -> float:
        """Dice read right over labelled dice: a missed die counts as a misread."""
        return self.correct / self.labels if self.labels else 0.0

    @property
    def unreadable_rate(self) -> float:
        return self.unreadable / self.matched if self.matched else 0.0

    @property
    def confident_accuracy(self) -> float:
        """Of the found dice read with the referee's confidence, the share read right."""
        return self.confident_right / self.confident if self.confident else 0.0

    @property
    def asked_share(self) -> float:
        """Of the found dice, the share the referee would ask about (unreadable or not confident)."""
        return (self.matched - self.confident) / self.matched if self.matched else 0.0


def read_labels(path: Path, width: int, height: int) -> list[Label]:
    """The YOLO lines of ``path`` in pixels; :class:`DatasetError` naming the line when one is wrong."""
    labels = []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read the label file ({exc})") from exc
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        where = f"{path}, line {number} ({line.strip()!r})"
        if len(parts) != 5:
            raise DatasetError(f"{where}: expected 5 fields 'class cx cy w h', found {len(parts)}")
        try:
            cls = int(parts[0])
            cx, cy, w, h = (float(p) for p in parts[1:])
        except ValueError as exc:
            raise DatasetError(f"{where}: class must be an integer and cx cy w h numbers") from exc
        if not 0 <= cls <= 5:
            raise DatasetError(f"{where}: class {cls} is not a die face (class = pips - 1, so 0..5)")
        if not all(0.0 <= v <= 1.0 for v in (cx, cy, w, h)):
            raise DatasetError(f"{where}: cx cy w h must be normalised to 0..1")
        labels.append(Label(cls + 1, cx * width, cy * height, w * width, h * height))
    return labels


def _label_for(image: Path) -> Path | None:
    beside = image.with_suffix(".txt")
    if beside.is_file():
        return beside
    sibling = image.absolute().parent.parent / "labels" / (image.stem + ".txt")
    if sibling.is_file():
        return sibling
    return None


def collect(folder: Path) -> list[Sample]:
    """Every labelled image under ``folder``, sorted; :class:`DatasetError` when there are none."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DatasetError(f"{folder} is not a folder")
    samples: list[Sample] = []
    unlabelled: list[Path] = []
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() not in IMAGE_SUFFIXES or not path.is_file():
            continue
        label = _label_for(path)
        if label is not None:
            samples.append(Sample(path, labels=label))
        elif path.parent.name in {"1", "2", "3", "4", "5", "6"}:
            samples.append(Sample(path, crop_face=int(path.parent.name)))
        else:
            unlabelled.append(path)
    if not samples:
        hint = f" ({len(unlabelled)} images without labels, e.g. {unlabelled[0]})" if unlabelled else ""
        raise DatasetError(
            f"{folder}: no labelled images found{hint}. Expected NAME.jpg with NAME.txt beside it or in "
            "a sibling labels/ folder (lines 'class cx cy w h', class = pips - 1), or crops in "
            "folders named 1 to 6")
    return samples


def match(labels: list[Label], centres: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """One-to-one pairs (label index, detection index) where the detection's centre is in the box."""
    pairs = []
    for i, lab in enumerate(labels):
        for j, (x, y) in enumerate(centres):
            if lab.contains(x, y):
                pairs.append((float(np.hypot(x - lab.cx, y - lab.cy)), i, j))
    pairs.sort()
    used_l: set[int] = set()
    used_d: set[int] = set()
    out = []
    for _, i, j in pairs:
        if i in used_l or j in used_d:
            continue
        used_l.add(i)
        used_d.add(j)
        out.append((i, j))
    return out


def evaluate_sample(sample: Sample) -> Result:
    """Run the real finder and reader on one sample and count what it got right."""
    start = time.perf_counter()
    result = _counted(sample)
    result.seconds = time.perf_counter() - start
    return result


def _counted(sample: Sample) -> Result:
    from controller.vision import dice

    image = cv2.imread(str(sample.image), cv2.IMREAD_COLOR)
    if image is None:
        raise DatasetError(f"{sample.image}: not a readable image")
    image = changed(image, sample.variant)
    result = Result()
    if sample.crop_face is not None:
        result.labels = result.found = result.matched = 1
        face = dice.read_crop(image)
        if confident(face):
            result.confident = 1
            result.confident_right = int(face.pips == sample.crop_face)
        if face.pips == sample.crop_face:
            result.correct = 1
        else:
            if not face.readable:
                result.unreadable = 1
            h, w = image.shape[:2]
            result.errors.append((sample.image, (w / 2, h / 2), sample.crop_face, face.label))
        return result
    h, w = image.shape[:2]
    labels = read_labels(sample.labels, w, h)
    found = dice.find_dice(image)
    result.labels = len(labels)
    result.found = len(found)
    pairs = match(labels, [d.center for d in found])
    result.matched = len(pairs)
    for i, j in pairs:
        face = found[j].face
        if confident(face):
            result.confident += 1
            result.confident_right += int(face.pips == labels[i].pips)
        if face.pips == labels[i].pips:
            result.correct += 1
        else:
            if not face.readable:
                result.unreadable += 1
            result.errors.append((sample.image, found[j].center, labels[i].pips, face.label))
    matched_l = {i for i, _ in pairs}
    for i, lab in enumerate(labels):
        if i not in matched_l:
            result.errors.append((sample.image, (lab.cx, lab.cy), lab.pips, "missed"))
    return result


def one_thread() -> None:
    """Run OpenCV and numpy's BLAS on one thread in this process, as every worker does. Left alone,
    both start a thread per core in every worker, and the workers fight over the cores: on 2 cores,
    2 workers read nell-byler's 200 photos in 26 s, one process in 16 s, and 2 single-threaded
    workers in 10 s."""
    cv2.setNumThreads(1)
    threadpool_limits(1)


def worker_pool(jobs: int) -> concurrent.futures.ProcessPoolExecutor:
    """``jobs`` worker processes for reading photos side by side, each on one thread. They are started
    afresh rather than forked: a forked copy of a process whose OpenCV or BLAS threads have run can
    hang when told to change its number of threads."""
    import concurrent.futures
    import multiprocessing

    return concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=one_thread)


def evaluate(samples: Iterable[Sample], jobs: int = 1) -> Result:
    """Sum of :func:`evaluate_sample` over ``samples``, on ``jobs`` processes; with one job, in this
    process on one thread, as each worker does (OpenCV's and numpy's threads are given back after)."""
    total = Result()
    samples = list(samples)
    if jobs <= 1:
        threads = cv2.getNumThreads()
        cv2.setNumThreads(1)
        try:
            with threadpool_limits(1):
                for s in samples:
                    total.add(evaluate_sample(s))
        finally:
            cv2.setNumThreads(threads)
        return total
    with worker_pool(jobs) as pool:
        for r in pool.map(evaluate_sample, samples, chunksize=4):
            total.add(r)
    return total


def write_errors(result: Result, folder: Path, limit: int = 500) -> int:
    """Save a crop around each misread or missed die as ``TRUTH-as-READ_NAME_N.png``; returns the count."""
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for n, (image_path, (x, y), truth, read) in enumerate(result.errors[:limit]):
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        h, w = image.shape[:2]
        r = max(24, int(min(h, w) * 0.08))
        x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
        crop = image[y0:int(y) + r, x0:int(x) + r]
        crop = cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
        name = f"{truth}-as-{read}_{image_path.stem}_{n}.png"
        if cv2.imwrite(str(folder / name), crop):
            written += 1
    return written


def _run(args: argparse.Namespace) -> int:
    from controller.cli import CommandError
    if args.limit is not None and args.limit < 1:
        raise CommandError("--limit must be at least 1")
    try:
        samples = collect(Path(args.dir))
        if args.limit is not None:
            samples = samples[:args.limit]
        jobs = args.jobs or (os.cpu_count() or 1)
        result = evaluate(samples, jobs=jobs)
    except DatasetError as exc:
        raise CommandError(str(exc)) from exc
    print(f"images: {len(samples)}")
    print(f"labelled dice: {result.labels}")
    print(f"found dice: {result.found}")
    print(f"precision: {result.precision:.4f}")
    print(f"recall: {result.recall:.4f}")
    print(f"unreadable_rate: {result.unreadable_rate:.4f}")
    print(f"confident_accuracy: {result.confident_accuracy:.4f}")
    print(f"asked_share: {result.asked_share:.4f}")
    if args.show_errors:
        count = write_errors(result, Path(args.show_errors))
        print(f"wrote {count} crops of misread or missed dice to {args.show_errors}")
    print(f"top_face_accuracy: {result.accuracy:.4f}")
    return 0


def register(vision_subparsers: argparse._SubParsersAction) -> None:
    """Add ``evaluate`` to the ``bitbox vision`` command group."""
    parser = vision_subparsers.add_parser(
        "evaluate",
        help="measure die finding and face reading on labelled photos",
        description="Run the die finder and face reader on labelled photos and print die-finding "
        "precision and recall and top-face accuracy (dice read right over labelled dice). Photos: "
        "NAME.jpg with NAME.txt beside it or in a sibling labels/ folder, lines 'class cx cy w h' "
        "normalised to the image, class = pips - 1. Crops: folders named 1 to 6.",
    )
    parser.add_argument("dir", help="folder of labelled photos (searched recursively)")
    parser.add_argument("--limit", type=int, default=None, help="evaluate the first N images only")
    parser.add_argument("--show-errors", metavar="FOLDER", default=None,
                        help="write a crop of each misread or missed die to FOLDER")
    parser.add_argument("--jobs", type=int, default=0,
                        help="worker processes, each reading on one core (default: one per CPU core)")
    parser.set_defaults(handler=_run)
