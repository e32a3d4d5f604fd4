"""Die finding and face reading on the real photo sets, per set and split.

    python bench/dice_reading.py [--data ../shared/data] [--jobs 2] [--all]

Held-out splits (never trained on, never tuned on):
  nell-byler-train images 140..199 by name (the last 60), matteop65/Valid, chaseelliottpatterson/test.
With --all, also the parts used to train the learned finder and readers (bench/train_dicenet.py,
bench/train_pipnet.py) and choose thresholds, marked as such: their
figures are not a measure of accuracy on new photos.

For each: die-finding precision and recall (a found die matches a label when its centre is inside the
labelled box, one to one), top-face accuracy (dice read right over labelled dice, a missed die
counting as wrong), the unreadable rate (of found dice), and the time per image on one thread
(decoding it, finding and reading its dice). The last line is the pooled top-face accuracy over the
held-out splits.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.vision import evaluate as ev  # noqa: E402


def sets(data: Path, include_training: bool) -> list[tuple[str, str, list[ev.Sample]]]:
    nell = ev.collect(data / "dice-photos" / "nell-byler-train")
    matteo_train = ev.collect(data / "dice-photos" / "matteop65" / "Train")
    out = [
        ("nell-byler images 140-199", "held-out", nell[140:]),
        ("matteop65 Valid", "held-out", ev.collect(data / "dice-photos" / "matteop65" / "Valid")),
        ("chaseelliottpatterson test", "held-out", ev.collect(data / "dice-crops" / "chaseelliottpatterson" / "test")),
    ]
    if include_training:
        out += [
            ("nell-byler images 0-119", "training", nell[:120]),
            ("nell-byler images 120-139", "validation", nell[120:140]),
            ("matteop65 Train", "training", matteo_train),
            ("chaseelliottpatterson train", "training", ev.collect(data / "dice-crops" / "chaseelliottpatterson" / "train")),
            ("chaseelliottpatterson val", "validation", ev.collect(data / "dice-crops" / "chaseelliottpatterson" / "val")),
        ]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--all", action="store_true", help="also the training and validation parts")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no data at {args.data} (see shared/data/README.md)", file=sys.stderr)
        return 2
    ev.one_thread()                 # as in the workers: --jobs 1 reads in this process
    held = ev.Result()
    print(f"{'set':32} {'split':10} {'images':>6} {'dice':>5} {'precision':>9} {'recall':>7} "
          f"{'accuracy':>8} {'unreadable':>10} {'ms/image':>8}")
    for name, split, samples in sets(args.data, args.all):
        result = ev.evaluate(samples, jobs=args.jobs)
        ms = result.seconds * 1000 / max(1, len(samples))
        print(f"{name:32} {split:10} {len(samples):6d} {result.labels:5d} {result.precision:9.4f} "
              f"{result.recall:7.4f} {result.accuracy:8.4f} {result.unreadable_rate:10.4f} {ms:8.1f}",
              flush=True)
        if split == "held-out":
            held.add(result)
    print(f"held_out_top_face_accuracy: {held.accuracy:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
