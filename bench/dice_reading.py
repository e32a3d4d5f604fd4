"""Die finding and face reading on the real photo sets, per set and split.

    python bench/dice_reading.py [--data ../shared/data] [--jobs 2] [--all]

Held-out splits (never trained on, never tuned on):
  nell-byler-train images 140..199 by name (the last 60), matteop65/Valid, chaseelliottpatterson/test.
With --all, also the parts used to train the learned finder and readers (bench/train_dicenet.py,
bench/train_pipnet.py) and choose thresholds, marked as such: their
figures are not a measure of accuracy on new photos.

For each: die-finding precision and recall (a found die matches a label when its centre is inside the
labelled box, one to one), top-face accuracy (dice read right over labelled dice, a missed die
counting as wrong), the confident accuracy (of the found dice read with the confidence from which the
referee calls without asking, the share read right), the asked share (of the found dice, those the
referee would ask about: unreadable or not confident), the unreadable rate (of found dice), and the
time per image on one thread (decoding it, finding and reading its dice).

Then the held-out splits again, each photo changed (controller.vision.evaluate.VARIANTS): halved
(dice of 16 to 25 pixels), tripled (dice of 100 to 200 pixels) and re-encoded as JPEG at quality 40.

Goals, printed as figures (pooled over the held-out splits): held_out_precision (photos: no die split
in two, no pip or part of a die taken for a die) >= 0.995; held_out_confident_accuracy >= 0.998 with
held_out_asked_share <= 0.03; on each changed copy, recall >= 0.99 and confident accuracy >= 0.995.
The last line is the pooled top-face accuracy over the held-out splits.
"""

from __future__ import annotations

import argparse
import dataclasses
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
    held, photos = ev.Result(), ev.Result()
    print(f"{'set':32} {'split':10} {'images':>6} {'dice':>5} {'precision':>9} {'recall':>7} "
          f"{'accuracy':>8} {'confident':>9} {'asked':>6} {'unreadable':>10} {'ms/image':>8}")
    every = sets(args.data, args.all)
    for name, split, samples in every:
        result = ev.evaluate(samples, jobs=args.jobs)
        row(name, split, samples, result)
        if split == "held-out":
            held.add(result)
            if samples and samples[0].crop_face is None:
                photos.add(result)
    changed: dict[str, ev.Result] = {}
    for variant in ev.VARIANTS:
        total = ev.Result()
        for name, split, samples in every:
            if split != "held-out":
                continue
            samples = [dataclasses.replace(s, variant=variant) for s in samples]
            result = ev.evaluate(samples, jobs=args.jobs)
            row(f"{name} {variant}", split, samples, result)
            total.add(result)
        changed[variant] = total
    print(f"held_out_precision: {photos.precision:.4f}")
    print(f"held_out_confident_accuracy: {held.confident_accuracy:.4f}")
    print(f"held_out_asked_share: {held.asked_share:.4f}")
    for variant, total in changed.items():
        print(f"{variant}_recall: {total.recall:.4f}")
        print(f"{variant}_confident_accuracy: {total.confident_accuracy:.4f}")
        print(f"{variant}_asked_share: {total.asked_share:.4f}")
    print(f"held_out_top_face_accuracy: {held.accuracy:.4f}")
    return 0


def row(name: str, split: str, samples: list[ev.Sample], result: ev.Result) -> None:
    """One line of the table."""
    ms = result.seconds * 1000 / max(1, len(samples))
    print(f"{name:32} {split:10} {len(samples):6d} {result.labels:5d} {result.precision:9.4f} "
          f"{result.recall:7.4f} {result.accuracy:8.4f} {result.confident_accuracy:9.4f} "
          f"{result.asked_share:6.4f} {result.unreadable_rate:10.4f} {ms:8.1f}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
