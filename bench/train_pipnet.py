"""Train the small learned pip reader (controller/vision/pipnet.py) from the real photo sets' TRAINING parts.

    pip install torch                                         # training only (a CPU build is enough)
    python bench/train_pipnet.py [--data ../shared/data]      # about 10 minutes on 2 cores

The service itself runs the network with numpy; PyTorch is needed only to train it.

Splits (the same ones bench/dice_reading.py reports on; nothing held out is read here):

* nell-byler-train: images sorted by name; the first 120 train, the next 20 choose the thresholds,
  the last 60 are held out.
* matteop65: Train trains (every tenth image chooses the thresholds); Valid is held out.
* chaseelliottpatterson: train trains, val chooses the thresholds, test is held out.

Samples are the real finder's own candidate places (controller.vision.dice.candidates), labelled by
the box their centre falls in, so the network learns the crops it will be shown; places in no box
teach "not a die".
Each sample is also shown turned by quarter turns and mirrored (a die face's value does not change)
and with its centre, scale and turn jittered. Last line: ``validation_accuracy: X``.
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

from controller.vision import dice, pipnet  # noqa: E402
from controller.vision import evaluate as ev  # noqa: E402


def splits(data: Path) -> dict[str, list[ev.Sample]]:
    """The training and validation samples of each set (held-out parts left out)."""
    nell = ev.collect(data / "dice-photos" / "nell-byler-train")
    matteo = ev.collect(data / "dice-photos" / "matteop65" / "Train")
    chase_train = ev.collect(data / "dice-crops" / "chaseelliottpatterson" / "train")
    chase_val = ev.collect(data / "dice-crops" / "chaseelliottpatterson" / "val")
    return {
        "train": nell[:120] + [s for i, s in enumerate(matteo) if i % 10] + chase_train,
        "val": nell[120:140] + [s for i, s in enumerate(matteo) if not i % 10] + chase_val,
    }


def _crop_samples(image: np.ndarray, cand: dice.Candidate, label: int, rng: np.random.Generator,
                  jitter: int) -> list[tuple[np.ndarray, int]]:
    """The candidate's crop, and for a die ``jitter`` more, shifted, scaled and turned at random."""
    out = []
    for j in range(jitter + 1 if label != pipnet.NOT_A_DIE else 1):
        cx, cy = cand.center
        size, angle = cand.size, cand.angle
        if j:
            cx += rng.normal(0, 0.08) * size
            cy += rng.normal(0, 0.08) * size
            size *= math.exp(rng.normal(0, 0.12))
            angle += rng.uniform(-45, 45)
        crop = dice.face_crop(image, (cx, cy), size * dice.CROP_MARGIN, angle)
        out.append((crop, label))
    return out


def samples_of(args: tuple[ev.Sample, int, int]) -> list[tuple[np.ndarray, int]]:
    """Crops (with labels 0..5 for faces, 6 for not a die) from one labelled image."""
    sample, jitter, seed = args
    rng = np.random.default_rng(seed)
    image = cv2.imread(str(sample.image), cv2.IMREAD_COLOR)
    out: list[tuple[np.ndarray, int]] = []
    h, w = image.shape[:2]
    if sample.crop_face is not None:
        pad = max(h, w) // 2
        edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
        image = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                   value=[int(v) for v in np.median(edge, axis=0)])
        labels = [ev.Label(sample.crop_face, w / 2 + pad, h / 2 + pad, 0.6 * w, 0.6 * h)]
    else:
        labels = ev.read_labels(sample.labels, w, h)
    for cand in dice.candidates(image):
        inside = [lab for lab in labels if lab.contains(*cand.center)]
        label = inside[0].pips - 1 if inside else pipnet.NOT_A_DIE
        out += _crop_samples(image, cand, label, rng, jitter)
    return out


def build(samples: list[ev.Sample], jitter: int, jobs: int) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    with ev.worker_pool(jobs) as pool:
        for crops in pool.map(samples_of, [(s, jitter, i) for i, s in enumerate(samples)], chunksize=4):
            for crop, label in crops:
                xs.append(pipnet.features(crop, 1.0 / dice.CROP_MARGIN))
                ys.append(label)
    return np.stack(xs), np.asarray(ys)


def turned_at_random(batch):
    """A batch of crops (n x c x h x w tensor) turned by a random number of quarter turns and
    mirrored half the time: a die face's value does not change with either."""
    import torch

    out = torch.rot90(batch, int(torch.randint(4, ())), dims=(2, 3))
    return torch.flip(out, dims=(3,)) if torch.rand(()) < 0.5 else out


def train(x: np.ndarray, y: np.ndarray, epochs: int, channels: tuple[int, ...] = (16, 32, 48),
          hidden: int = 64, seed: int = 0) -> pipnet.PipNet:
    """Fit the network with Adam on cross-entropy; each batch is turned and mirrored at random
    (a die face's value does not change)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    layers: list[nn.Module] = []
    channels = (x.shape[1], *channels)
    for i in range(pipnet.CONV_LAYERS):
        layers += [nn.Conv2d(channels[i], channels[i + 1], 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
    side = x.shape[-1] // 2 ** pipnet.CONV_LAYERS
    model = nn.Sequential(*layers, nn.Flatten(), nn.Linear(channels[-1] * side * side, hidden),
                          nn.ReLU(), nn.Dropout(0.3), nn.Linear(hidden, len(pipnet.CLASSES)))
    xt, yt = torch.from_numpy(x), torch.from_numpy(y).long()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(yt))
        total = 0.0
        for start in range(0, len(order), 256):
            idx = order[start:start + 256]
            opt.zero_grad()
            loss = loss_fn(model(turned_at_random(xt[idx])), yt[idx])
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        sched.step()
        print(f"epoch {epoch + 1}: loss {total / len(yt):.4f}", flush=True)
    model.eval()
    names = {}
    convs = [m for m in model if isinstance(m, nn.Conv2d)]
    dense = [m for m in model if isinstance(m, nn.Linear)]
    for i, m in enumerate(convs):
        names[f"conv{i}.weight"], names[f"conv{i}.bias"] = m.weight, m.bias
    for i, m in enumerate(dense):
        names[f"fc{i}.weight"], names[f"fc{i}.bias"] = m.weight, m.bias
    return pipnet.PipNet({k: v.detach().numpy().copy() for k, v in names.items()})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--epochs", type=int, default=35)
    parser.add_argument("--jitter", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--channels", default="16,32,48", help="channels of the 3 convolution layers")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--out", type=Path, default=pipnet.WEIGHTS)
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no data at {args.data}", file=sys.stderr)
        return 2
    sets = splits(args.data)
    x, y = build(sets["train"], args.jitter, args.jobs)
    xv, yv = build(sets["val"], 0, args.jobs)
    print(f"training samples: {len(y)} (per class {np.bincount(y, minlength=7).tolist()})")
    print(f"validation samples: {len(yv)} (per class {np.bincount(yv, minlength=7).tolist()})")
    channels = tuple(int(c) for c in args.channels.split(","))
    net = train(x, y, args.epochs, channels, args.hidden)
    net.save(args.out)
    net = pipnet.PipNet.load(args.out)           # measure what was saved (float16)
    train_acc = float((net.probabilities(x[:5000]).argmax(1) == y[:5000]).mean())
    pred = net.probabilities(xv).argmax(1)
    print(f"training_accuracy: {train_acc:.4f}")
    print(f"saved {args.out} ({args.out.stat().st_size} bytes)")
    print(f"validation_accuracy: {float((pred == yv).mean()):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
