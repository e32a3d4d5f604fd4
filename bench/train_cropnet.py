"""Train the loose-crop reader (controller/vision/data/cropnet.npz) from the real photo sets' TRAINING parts.

    python bench/train_cropnet.py [--data ../shared/data]      # a few minutes on 2 cores

It is the same small network as the pip reading check (controller/vision/pipnet.py), fed a whole loose
crop of one die (as :func:`controller.vision.dice.read_crop` gets it) instead of a face squared by the
pip layout. Splits (the same ones bench/dice_reading.py reports on; nothing held out is read here):

* chaseelliottpatterson: train trains, val measures;
* nell-byler-train: of the images sorted by name, the labelled boxes of the first 120 train and of
  the next 20 measure (a square around each box, as a loose crop).

Each crop is shown many times, turned by any angle, shifted, scaled, blurred and recoloured at random,
then turned by quarter turns and mirrored in training. Last line: ``validation_accuracy: X``.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.vision import pipnet  # noqa: E402
from controller.vision import evaluate as ev  # noqa: E402
sys.path.insert(0, str(ROOT / "bench"))
from train_pipnet import train  # noqa: E402


def _pad(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    pad = max(h, w)
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    return cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                              value=[int(v) for v in np.median(edge, axis=0)])


def _variant(image: np.ndarray, centre: tuple[float, float], side: float, rng: np.random.Generator | None,
             ) -> np.ndarray:
    """A loose square crop of ``side`` at ``centre``; with ``rng``, jittered in place, size, turn
    and colour."""
    cx, cy = centre
    angle = 0.0
    if rng is not None:
        cx += rng.normal(0, 0.06) * side
        cy += rng.normal(0, 0.06) * side
        side *= math.exp(rng.normal(0, 0.12))
        angle = rng.uniform(0, 360)
    rot = cv2.getRotationMatrix2D((cx, cy), angle, 64 / side)
    rot[0, 2] += 32 - cx
    rot[1, 2] += 32 - cy
    crop = cv2.warpAffine(image, rot, (64, 64), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    if rng is not None:
        crop = crop.astype(np.float32)
        crop = crop * rng.uniform(0.7, 1.3, size=3) + rng.normal(0, 12, size=3)
        if rng.random() < 0.3:
            crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.5, 1.3))
        if rng.random() < 0.3:
            crop = crop + rng.normal(0, 5, crop.shape)
        crop = np.clip(crop, 0, 255).astype(np.uint8)
    return crop


def crops(samples: list[ev.Sample], copies: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Network inputs and labels (0..5) for every die of ``samples``, ``copies`` jittered ones each
    (just the plain crop when ``copies`` is 0)."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for sample in samples:
        image = cv2.imread(str(sample.image), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        if sample.crop_face is not None:
            padded = _pad(image)
            boxes = [(sample.crop_face, (w / 2 + max(h, w), h / 2 + max(h, w)), float(min(h, w)))]
        else:
            padded = image
            boxes = [(lab.pips, (lab.cx, lab.cy), max(lab.w, lab.h) * 1.25)
                     for lab in ev.read_labels(sample.labels, w, h)]
        for pips, centre, side in boxes:
            for j in range(max(1, copies)):
                crop = _variant(padded, centre, side, rng if copies else None)
                xs.append(pipnet.crop_features(crop))
                ys.append(pips - 1)
    return np.stack(xs), np.asarray(ys)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--copies", type=int, default=60, help="jittered copies of each crop set die")
    parser.add_argument("--photo-copies", type=int, default=6, help="jittered copies of each photo die")
    parser.add_argument("--channels", default="16,32,48")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--out", type=Path, default=pipnet.CROP_WEIGHTS)
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no data at {args.data}", file=sys.stderr)
        return 2
    chase = args.data / "dice-crops" / "chaseelliottpatterson"
    nell = ev.collect(args.data / "dice-photos" / "nell-byler-train")
    parts = [crops(ev.collect(chase / "train"), args.copies, 1), crops(nell[:120], args.photo_copies, 2)]
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    xv_chase, yv_chase = crops(ev.collect(chase / "val"), 0, 3)
    xv_nell, yv_nell = crops(nell[120:140], 0, 4)
    print(f"training samples: {len(y)} (per class {np.bincount(y, minlength=6).tolist()})")
    net = train(x, y, args.epochs, tuple(int(c) for c in args.channels.split(",")), args.hidden)
    net.save(args.out)
    net = pipnet.PipNet.load(args.out)
    for name, xv, yv in (("chase val", xv_chase, yv_chase), ("nell 120-139", xv_nell, yv_nell)):
        print(f"{name}: {float((net.probabilities(xv)[:, :6].argmax(1) == yv).mean()):.4f} of {len(yv)}")
    xv, yv = np.concatenate([xv_chase, xv_nell]), np.concatenate([yv_chase, yv_nell])
    print(f"saved {args.out} ({args.out.stat().st_size} bytes)")
    print(f"validation_accuracy: {float((net.probabilities(xv)[:, :6].argmax(1) == yv).mean()):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
