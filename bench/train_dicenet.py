"""Train the learned die finder and its face reader (controller/vision/data/dicenet.npz, dicefaces.npz).

    pip install torch==2.13.0                                   # training only (a CPU build is enough)
    python bench/train_dicenet.py [--data ../shared/data]       # about half an hour on 2 cores
    python bench/train_dicenet.py --reader-only                 # the face reader alone (20 min), on the shipped finder

The service runs both networks with numpy (controller/vision/dicenet.py); PyTorch is needed only here.

Splits (the same ones bench/dice_reading.py reports on; nothing held out is read here):

* nell-byler-train: images sorted by name; the first 120 train, the next 20 validate, the last 60
  are held out.
* matteop65: Train trains, but every tenth image validates; Valid is held out.
* chaseelliottpatterson (loose crops of single dice, the face reader only): train trains, val
  validates, test is held out.
* rendered table scenes (controller/vision/render.py): dice of random colours on every mat layout,
  tilted cameras, varied light, with their exact truth.

The finder: each step shows it a batch of 256x256 windows cut from the training photos (and, a
quarter of the time, the rendered scenes) at a random scale (0.55x to 1.6x), turn and mirror, with
their colours shuffled and jittered, blurred and noised. Targets follow CenterNet: a Gaussian peak
at each die's centre (focal loss), the face at and around it (cross-entropy), the sub-cell offset of
the centre and the face's side (L1). matteop65's boxes surround only the pips, so its dice teach no
side.

The face reader is then trained on crops where the trained finder looks: each die it finds, and
each place it takes for a die wrongly, as "not a die". Every epoch cuts fresh crops, shifted,
scaled, turned, recoloured and sometimes blurred, and three in ten get a streak or spot of glare
(:func:`glare`) such as a lamp makes on a glossy die; dark dice (translucent smoke with red pips,
black with white) are the hardest to read and are shown twice as often. The loose crops of single dice
teach it to read :func:`controller.vision.dice.read_crop`'s crops too. The shipped reader was
trained with ``--reader-only --reader-with-validation``, once the recipe and the thresholds in
controller/vision/dice.py had been chosen on the validation parts with a reader trained without them.

Last lines: ``validation_recall: X`` (the finder's) and ``validation_reader_accuracy: X``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.vision import dicenet, pipnet  # noqa: E402
from controller.vision import evaluate as ev  # noqa: E402

WINDOW = 256
GRID = WINDOW // dicenet.STRIDE

#: (in channels, out channels, stride, dilation) of each 3x3 layer; a 1x1 head follows.
LAYERS = ((3, 16, 2, 1), (16, 24, 2, 1), (24, 32, 1, 1), (32, 48, 2, 1), (48, 48, 1, 2), (48, 64, 1, 4))

#: The centre peak's spread, in cells.
SIGMA = 0.8

#: The share of training windows cut from rendered scenes rather than photos.
RENDERED_SHARE = 0.25

NOT_A_DIE = pipnet.NOT_A_DIE


def splits(data: Path) -> dict[str, list[tuple[ev.Sample, bool]]]:
    """Training and validation photos, each with whether its boxes give the die's side."""
    nell = ev.collect(data / "dice-photos" / "nell-byler-train")
    matteo = ev.collect(data / "dice-photos" / "matteop65" / "Train")
    return {
        "train": [(s, True) for s in nell[:120]] + [(s, False) for i, s in enumerate(matteo) if i % 10],
        "val": [(s, True) for s in nell[120:140]] + [(s, False) for i, s in enumerate(matteo) if not i % 10],
    }


def crop_splits(data: Path) -> dict[str, list[ev.Sample]]:
    """Training and validation crops of single dice (chaseelliottpatterson; test is held out)."""
    root = data / "dice-crops" / "chaseelliottpatterson"
    return {"train": ev.collect(root / "train"), "val": ev.collect(root / "val")}


def load_crops(samples: list[ev.Sample]) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """Each loose crop of one die as a photo: padded with its border's colour, the die in the middle
    with its face taken to fill :data:`controller.vision.dicenet.CROP_FACE_SIDE` of the crop, as
    :func:`controller.vision.dice.read_crop` reads it."""
    out = []
    for sample in samples:
        image = cv2.imread(str(sample.image), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
        pad = max(h, w)
        padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                    value=[int(v) for v in np.median(edge, axis=0)])
        row = (pad + w / 2, pad + h / 2, dicenet.CROP_FACE_SIDE * min(h, w), sample.crop_face)
        out.append((padded, np.array([row], np.float32), True))
    return out


def load(samples: list[tuple[ev.Sample, bool]]) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """Each photo with its dice as rows (cx, cy, side, pips) in pixels."""
    out = []
    for sample, sized in samples:
        image = cv2.imread(str(sample.image), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        labels = ev.read_labels(sample.labels, w, h)
        rows = np.array([(lab.cx, lab.cy, max(lab.w, lab.h), lab.pips) for lab in labels], np.float32)
        out.append((image, rows.reshape(-1, 4), sized))
    return out


def rendered(count: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """``count`` rendered table scenes (controller/vision/render.py) with their exact truth: dice
    of many colours on each mat layout, seen by tilted cameras under varied light. They teach
    the finder dice unlike the photos' and each face's true side."""
    from controller.vision import render
    from controller.vision.mat import available_layouts, load_layout

    rng = np.random.default_rng(seed)
    layouts = [load_layout(name) for name in available_layouts()]
    palette = {f"c{i}": tuple(int(v) for v in rng.integers(0, 256, 3)) for i in range(24)}
    out = []
    for k in range(count):
        layout = layouts[k % len(layouts)]
        camera = render.fitting_camera(layout, tilt_deg=float(rng.uniform(0, 25)),
                                       yaw_deg=float(rng.uniform(0, 360)), fill=float(rng.uniform(0.6, 1.0)))
        lighting = render.Lighting(gradient=float(rng.uniform(0, 0.4)), shadow=float(rng.uniform(0.1, 0.5)),
                                   glare=int(rng.integers(0, 4)), blur_sigma=float(rng.uniform(0.4, 1.2)),
                                   noise_sigma=float(rng.uniform(0.5, 4.0)))
        scene = render.random_scene(layout, int(rng.integers(4, 20)), seed=seed * 1000 + k,
                                    temples=bool(rng.random() < 0.5), camera=camera, lighting=lighting,
                                    colours=palette)
        frame = render.render(scene)
        rows = []
        for t in render.visible_tops(list(frame.truth)):
            if not t.in_image or isinstance(t.top, str):
                continue
            corners = np.asarray(t.top_corners_px)
            side = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
            rows.append((*t.top_center_px, side, t.top))
        out.append((frame.image, np.array(rows, np.float32).reshape(-1, 4), True))
    return out


def window(image: np.ndarray, dice: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random 256x256 window of ``image`` (scaled, turned, maybe mirrored) and its dice in it."""
    h, w = image.shape[:2]
    if len(dice) and rng.random() < 0.7:
        cx, cy = dice[rng.integers(len(dice)), :2] + rng.normal(0, 50, 2)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    scale = math.exp(rng.uniform(math.log(0.55), math.log(1.6)))
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(rng.uniform(0, 360)), scale)
    m[0, 2] += WINDOW / 2 - cx
    m[1, 2] += WINDOW / 2 - cy
    out = cv2.warpAffine(image, m, (WINDOW, WINDOW), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    moved = dice.copy()
    if len(dice):
        moved[:, :2] = dice[:, :2] @ m[:, :2].T + m[:, 2]
        moved[:, 2] *= scale
    if rng.random() < 0.5:
        out = out[:, ::-1]
        moved[:, 0] = WINDOW - 1 - moved[:, 0]
    inside = (moved[:, 0] >= 0) & (moved[:, 0] < WINDOW) & (moved[:, 1] >= 0) & (moved[:, 1] < WINDOW)
    return np.ascontiguousarray(out), moved[inside]


def recolour(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Dice come in every colour: shuffle the channels, jitter gain, offset and gamma, blur, noise."""
    x = image[:, :, rng.permutation(3)] if rng.random() < 0.5 else image
    x = x.astype(np.float32)
    if rng.random() < 0.08:
        x = 255.0 - x
    x = x * rng.uniform(0.7, 1.3, 3) + rng.normal(0, 15, 3)
    x = 255.0 * (np.clip(x, 0, 255) / 255.0) ** math.exp(rng.normal(0, 0.25))
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.4, 1.3))
    if rng.random() < 0.5:
        x = x + rng.normal(0, rng.uniform(1, 6), x.shape)
    return np.clip(x, 0, 255).astype(np.uint8)


def targets(dice: np.ndarray, sized: bool) -> dict[str, np.ndarray]:
    """CenterNet targets on the 32x32 grid of one window."""
    heat = np.zeros((GRID, GRID), np.float32)
    face = np.full((GRID, GRID), -1, np.int64)
    face_w = np.zeros((GRID, GRID), np.float32)
    offset = np.zeros((2, GRID, GRID), np.float32)
    side = np.zeros((GRID, GRID), np.float32)
    at = np.zeros((GRID, GRID), np.float32)
    side_at = np.zeros((GRID, GRID), np.float32)
    gy, gx = np.mgrid[0:GRID, 0:GRID]
    for cx, cy, s, pips in dice:
        u, v = cx / dicenet.STRIDE, cy / dicenet.STRIDE
        i, j = int(v), int(u)
        g = np.exp(-((gx + 0.5 - u) ** 2 + (gy + 0.5 - v) ** 2) / (2 * SIGMA ** 2))
        heat = np.maximum(heat, g)
        near = (np.abs(gx - j) <= 1) & (np.abs(gy - i) <= 1) & (g > face_w)
        face[near] = int(pips) - 1
        face_w[near] = g[near]
        heat[i, j] = 1.0
        face_w[i, j] = 1.0
        offset[:, i, j] = (u - j, v - i)
        at[i, j] = 1.0
        if sized:
            side[i, j] = math.log(max(s, 4.0) / dicenet.STRIDE)
            side_at[i, j] = 1.0
    return {"heat": heat, "face": face, "face_w": face_w, "offset": offset, "side": side, "at": at,
            "side_at": side_at}


def batch(photos, size: int, rng: np.random.Generator, scenes=()):
    import torch

    xs, ts = [], []
    for _ in range(size):
        pool = scenes if len(scenes) and rng.random() < RENDERED_SHARE else photos
        image, dice, sized = pool[rng.integers(len(pool))]
        crop, moved = window(image, dice, rng)
        crop = recolour(crop, rng)
        xs.append(crop.transpose(2, 0, 1).astype(np.float32) / 255.0 - 0.5)
        ts.append(targets(moved, sized))
    x = torch.from_numpy(np.stack(xs))
    t = {k: torch.from_numpy(np.stack([d[k] for d in ts])) for k in ts[0]}
    return x, t


def build_model():
    from torch import nn

    layers: list = []
    for cin, cout, stride, dilation in LAYERS:
        layers += [nn.Conv2d(cin, cout, 3, stride=stride, padding=dilation, dilation=dilation, bias=False),
                   nn.BatchNorm2d(cout), nn.ReLU()]
    head = nn.Conv2d(LAYERS[-1][1], dicenet.OUTPUTS, 1)
    nn.init.constant_(head.bias, 0.0)
    head.bias.data[dicenet.HEAT] = -2.19
    return nn.Sequential(*layers, head)


def loss_fn(out, t):
    import torch
    import torch.nn.functional as F

    p = torch.sigmoid(out[:, dicenet.HEAT]).clamp(1e-4, 1 - 1e-4)
    pos = t["at"]
    n = pos.sum().clamp(min=1.0)
    focal = -(pos * (1 - p) ** 2 * torch.log(p)
              + (1 - pos) * (1 - t["heat"]) ** 4 * p ** 2 * torch.log(1 - p)).sum() / n
    ce = F.cross_entropy(out[:, dicenet.FACES], t["face"].clamp(min=0), reduction="none")
    face = (ce * t["face_w"] * (t["face"] >= 0)).sum() / t["face_w"].sum().clamp(min=1.0)
    off = (torch.abs(out[:, dicenet.OFFSET] - t["offset"]).sum(1) * pos).sum() / n
    side = (torch.abs(out[:, dicenet.SIZE] - t["side"]) * t["side_at"]).sum() / t["side_at"].sum().clamp(min=1.0)
    return focal + face + off + 0.5 * side, (focal, face, off, side)


def folded(conv, bn=None) -> tuple[np.ndarray, np.ndarray]:
    """A convolution's weight and bias as numpy arrays, with the batch normalisation ``bn`` that
    follows it (in evaluation mode) folded in."""
    w = conv.weight.detach().numpy().astype(np.float32)
    b = conv.bias.detach().numpy().astype(np.float32) if conv.bias is not None else np.zeros(len(w), np.float32)
    if bn is None:
        return w, b
    scale = (bn.weight / (bn.running_var + bn.eps).sqrt()).detach().numpy()
    return (w * scale[:, None, None, None]).astype(np.float32), \
        (bn.bias.detach().numpy() + (b - bn.running_mean.detach().numpy()) * scale).astype(np.float32)


def export(model) -> dicenet.DiceNet:
    """The trained model as numpy weights, each batch normalisation folded into its convolution."""
    from torch import nn

    params: dict[str, np.ndarray] = {}
    mods = list(model)
    convs = [m for m in mods if isinstance(m, nn.Conv2d)]
    norms = [m for m in mods if isinstance(m, nn.BatchNorm2d)]
    for i, conv in enumerate(convs):
        params[f"conv{i}.weight"], params[f"conv{i}.bias"] = folded(conv, norms[i] if i < len(norms) else None)
        params[f"conv{i}.shape"] = np.array([conv.stride[0], conv.dilation[0]], np.int8)
    return dicenet.DiceNet(params)


def validate(net: dicenet.DiceNet, photos, min_score: float = 0.3) -> dict[str, float]:
    """Die-finding precision and recall and face accuracy of the network alone on ``photos``."""
    labels = found = matched = right = 0
    for image, dice, _ in photos:
        dets = [d for d in net.detect(image, min_score)]
        h, w = image.shape[:2]
        labs = [ev.Label(int(p), x, y, s, s) for x, y, s, p in dice]
        pairs = ev.match(labs, [d.center for d in dets])
        labels += len(labs)
        found += len(dets)
        matched += len(pairs)
        right += sum(int(np.argmax(dets[j].faces)) + 1 == labs[i].pips for i, j in pairs)
    return {"precision": matched / max(1, found), "recall": matched / max(1, labels),
            "accuracy": right / max(1, labels)}


#: A die whose face's middle is darker than this (HSV value, 0..255) counts as dark: dark and
#: translucent dice are the hardest to read, so the reader sees them more often.
DARK_VALUE = 90


def is_dark(image: np.ndarray, centre: tuple[float, float], size: float) -> bool:
    """Whether the die at ``centre`` is dark, by the median value of its face's middle."""
    r = max(2, int(size * 0.3))
    x, y = int(centre[0]), int(centre[1])
    patch = image[max(0, y - r):y + r, max(0, x - r):x + r]
    return patch.size > 0 and float(np.median(cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)[:, :, 2])) < DARK_VALUE


def reader_places(finder: dicenet.DiceNet, photos, first: int = 0
                  ) -> list[tuple[int, tuple[float, float], float, int, bool]]:
    """Where the face reader will be shown dice: (photo index, counted from ``first``, centre, face
    side, class, dark) at each die the finder finds (classes 0..5, its face), each labelled die it
    misses (at the typical size) and each place it takes for a die wrongly (class 6, "not a die")."""
    places = []
    for k, (image, dice, _) in enumerate(photos, first):
        found = finder.detect(image, 0.25)
        labs = [ev.Label(int(p), x, y, s, s) for x, y, s, p in dice]
        pairs = dict((j, i) for i, j in ev.match(labs, [d.center for d in found]))
        sizes = [d.size for d in found]
        typical = float(np.median(sizes)) if sizes else 40.0
        here = [(d.center, d.size, labs[pairs[j]].pips - 1 if j in pairs else NOT_A_DIE) for j, d in enumerate(found)]
        seen = set(pairs.values())
        here += [((lab.cx, lab.cy), typical, lab.pips - 1) for i, lab in enumerate(labs) if i not in seen]
        places += [(k, c, s, cls, cls != NOT_A_DIE and is_dark(image, c, s)) for c, s, cls in here]
    return places


def glare(patch: np.ndarray, size: float, rng: np.random.Generator) -> np.ndarray:
    """``patch`` (a die's face of side ``size`` in its middle) with a specular highlight laid over it:
    a soft-edged white streak or spot somewhere on the face, as a lamp makes on a glossy die. It can
    hide a pip or look like one."""
    side = patch.shape[0]
    mask = np.zeros(patch.shape[:2], np.float32)
    centre = (side / 2 + rng.uniform(-0.35, 0.35) * size, side / 2 + rng.uniform(-0.35, 0.35) * size)
    if rng.random() < 0.7:
        axes = (rng.uniform(0.2, 0.7) * size, rng.uniform(0.03, 0.12) * size)
    else:
        axes = (rng.uniform(0.05, 0.15) * size,) * 2
    scale = 16
    cv2.ellipse(mask, (int(centre[0] * scale), int(centre[1] * scale)),
                (max(1, int(axes[0] * scale)), max(1, int(axes[1] * scale))), float(rng.uniform(0, 180)),
                0, 360, 1.0, -1, cv2.LINE_AA, shift=4)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, axes[1] * rng.uniform(0.3, 1.0)))
    strength = rng.uniform(0.5, 1.0) * mask[..., None]
    return (patch * (1.0 - strength) + 255.0 * strength).astype(np.uint8)


def reader_crop(image: np.ndarray, centre: tuple[float, float], size: float, side_px: int,
                rng: np.random.Generator, glare_share: float = 0.0) -> np.ndarray:
    """One reader input for the die at ``centre``, shifted, scaled, turned, sometimes blurred to a
    lower resolution, recoloured at random and, ``glare_share`` of the time, glared."""
    cx, cy = centre[0] + rng.normal(0, 0.06) * size, centre[1] + rng.normal(0, 0.06) * size
    s = size * math.exp(rng.normal(0, 0.1))
    side = int(math.ceil(s * 2))
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(rng.uniform(0, 360)), 1.0)
    m[0, 2] += side / 2 - cx
    m[1, 2] += side / 2 - cy
    patch = cv2.warpAffine(image, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.3:
        small = max(4, int(side * rng.uniform(0.5, 0.9)))
        patch = cv2.resize(cv2.resize(patch, (small, small), interpolation=cv2.INTER_AREA), (side, side),
                           interpolation=cv2.INTER_LINEAR)
    patch = recolour(patch, rng)
    if rng.random() < glare_share:
        patch = glare(patch, s, rng)
    return dicenet.reader_input(patch, (side / 2, side / 2), s, side_px)


def build_reader(side_px: int, channels: tuple[int, ...], hidden: int):
    """The reader's PyTorch twin of :class:`controller.vision.pipnet.PipNet`: 3x3 convolutions, each
    with batch normalisation (folded into it on export), ReLU and 2x2 max-pooling, then two dense
    layers."""
    from torch import nn

    chans = (dicenet.READER_PLANES, *channels)
    layers: list = []
    for i in range(pipnet.CONV_LAYERS):
        layers += [nn.Conv2d(chans[i], chans[i + 1], 3, padding=1, bias=False), nn.BatchNorm2d(chans[i + 1]),
                   nn.ReLU(), nn.MaxPool2d(2)]
    cells = side_px // 2 ** pipnet.CONV_LAYERS
    return nn.Sequential(*layers, nn.Flatten(), nn.Linear(chans[-1] * cells * cells, hidden), nn.ReLU(),
                         nn.Dropout(0.3), nn.Linear(hidden, len(pipnet.CLASSES)))


def export_reader(model) -> pipnet.PipNet:
    """The trained reader as numpy weights, each batch normalisation folded into its convolution."""
    from torch import nn

    params: dict[str, np.ndarray] = {}
    convs = [m for m in model if isinstance(m, nn.Conv2d)]
    norms = [m for m in model if isinstance(m, nn.BatchNorm2d)]
    for i, (conv, bn) in enumerate(zip(convs, norms)):
        params[f"conv{i}.weight"], params[f"conv{i}.bias"] = folded(conv, bn)
    for i, dense in enumerate(m for m in model if isinstance(m, nn.Linear)):
        params[f"fc{i}.weight"], params[f"fc{i}.bias"] = dense.weight.detach().numpy(), dense.bias.detach().numpy()
    return pipnet.PipNet(params)


def crop_places(crops, first: int = 0) -> list[tuple[int, tuple[float, float], float, int, bool]]:
    """The reader's places in loose crops (:func:`load_crops`): the die in the middle of each."""
    out = []
    for k, (image, rows, _) in enumerate(crops, first):
        for cx, cy, side, pips in rows:
            out.append((k, (float(cx), float(cy)), float(side), int(pips) - 1, is_dark(image, (cx, cy), side)))
    return out


def reader_accuracy(reader: pipnet.PipNet, photos, places) -> tuple[float, int]:
    """The share of the dice among ``places`` whose face ``reader`` reads right (best guess), and
    their number."""
    dice = [(k, c, s, cls) for k, c, s, cls, _ in places if cls != NOT_A_DIE]
    side = dicenet.input_side(reader)
    x = np.stack([dicenet.reader_input(photos[k][0], c, s, side) for k, c, s, _ in dice])
    p = dicenet.read(reader, x)
    return float((p[:, :NOT_A_DIE].argmax(1) == np.array([d[3] for d in dice])).mean()), len(dice)


def train_reader(finder: dicenet.DiceNet, train, val, args) -> float:
    """Train the face reader on the finder's own places, with fresh jittered crops every epoch;
    returns its validation accuracy."""
    import torch
    from torch import nn

    sys.path.insert(0, str(ROOT / "bench"))
    from train_pipnet import turned_at_random

    crops = crop_splits(args.data)
    loose, loose_val = load_crops(crops["train"]), load_crops(crops["val"])
    photos = list(train) + (rendered(args.reader_rendered, 11) if args.reader_rendered else [])
    places = reader_places(finder, photos)
    val_places = reader_places(finder, val)
    loose_places = crop_places(loose_val, len(val))
    if args.reader_with_validation:
        places += reader_places(finder, val, len(photos))
        photos += list(val)
    places += crop_places(loose, len(photos)) * args.crop_weight
    photos += loose
    if args.reader_with_validation:
        places += crop_places(loose_val, len(photos)) * args.crop_weight
        photos += loose_val
    val, val_places = list(val) + loose_val, val_places + loose_places
    counts = np.bincount([p[3] for p in places], minlength=len(pipnet.CLASSES)).tolist()
    print(f"reader places: {len(places)} (per class {counts}; dark dice {sum(p[4] for p in places)})", flush=True)
    rng = np.random.default_rng(1 + args.seed)

    def copies(cls: int, dark: bool) -> int:
        if cls == NOT_A_DIE:
            return max(1, args.reader_copies // 3)
        return args.reader_copies * (args.dark_weight if dark else 1)

    labels = torch.tensor([p[3] for p in places for _ in range(copies(p[3], p[4]))])
    model = build_reader(args.reader_side, tuple(int(c) for c in args.reader_channels.split(",")), args.reader_hidden)
    steps = args.reader_epochs * math.ceil(len(labels) / 128)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    start = time.time()
    for epoch in range(1, args.reader_epochs + 1):
        x = torch.from_numpy(np.stack([reader_crop(photos[k][0], c, s, args.reader_side, rng, args.glare)
                                       for k, c, s, cls, dark in places for _ in range(copies(cls, dark))]))
        model.train()
        order = torch.randperm(len(labels))
        total = 0.0
        for first in range(0, len(order), 128):
            idx = order[first:first + 128]
            loss = loss_fn(model(turned_at_random(x[idx])), labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched.last_epoch < steps - 1:
                sched.step()
            total += float(loss.detach()) * len(idx)
        if epoch % 5 == 0 or epoch == args.reader_epochs:
            model.eval()
            reader = export_reader(model)
            accuracy, n = reader_accuracy(reader, val, val_places)
            on_crops, m = reader_accuracy(reader, val, loose_places)
            print(f"reader epoch {epoch}: loss {total / len(labels):.4f}, validation {accuracy:.4f} of {n} dice "
                  f"(loose crops {on_crops:.4f} of {m}) ({time.time() - start:.0f} s)", flush=True)
    model.eval()
    export_reader(model).save(args.reader_out)
    accuracy, n = reader_accuracy(dicenet.load_reader(args.reader_out), val, val_places)
    trained_on = " (trained on too)" if args.reader_with_validation else ""
    print(f"saved {args.reader_out}; reader validation{trained_on}: {accuracy:.4f} of {n} dice", flush=True)
    return accuracy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--steps", type=int, default=2200)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=dicenet.WEIGHTS)
    parser.add_argument("--reader-out", type=Path, default=dicenet.READER_WEIGHTS)
    parser.add_argument("--reader-copies", type=int, default=6, help="jittered crops of each die per reader epoch")
    parser.add_argument("--dark-weight", type=int, default=2, help="how many times more often dark dice are shown")
    parser.add_argument("--crop-weight", type=int, default=3,
                        help="how many times more often each loose crop of one die is shown than a die in a photo")
    parser.add_argument("--reader-with-validation", action="store_true",
                        help="train the face reader on the validation parts too (once the recipe and the "
                             "thresholds have been chosen on them): its validation figure is then not a measure")
    parser.add_argument("--reader-epochs", type=int, default=40)
    parser.add_argument("--glare", type=float, default=0.3,
                        help="share of the reader's crops given a streak or spot of glare")
    parser.add_argument("--seed", type=int, default=0, help="seeds the weights and the augmentation")
    parser.add_argument("--rendered", type=int, default=160, help="rendered scenes to train on too")
    parser.add_argument("--reader-side", type=int, default=dicenet.READER_SIDE,
                        help="side of the reader's crops in pixels (a multiple of 8)")
    parser.add_argument("--reader-channels", default="24,48,64", help="channels of its 3 convolution layers")
    parser.add_argument("--reader-hidden", type=int, default=96)
    parser.add_argument("--reader-rendered", type=int, default=40,
                        help="rendered scenes to train the face reader on too")
    parser.add_argument("--reader-only", action="store_true",
                        help="keep the finder at --out and train the face reader only")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no data at {args.data}", file=sys.stderr)
        return 2
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    sets = splits(args.data)
    train, val = load(sets["train"]), load(sets["val"])
    print(f"training photos: {len(train)}, dice: {sum(len(d) for _, d, _ in train)}; "
          f"validation photos: {len(val)}", flush=True)
    if args.reader_only:
        accuracy = train_reader(dicenet.DiceNet.load(args.out), train, val, args)
        print(f"validation_reader_accuracy: {accuracy:.4f}")
        return 0
    scenes = rendered(args.rendered, 7) if args.rendered else []
    if scenes:
        print(f"rendered scenes: {len(scenes)}, dice: {sum(len(d) for _, d, _ in scenes)}", flush=True)
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=0.05)
    start = time.time()
    running = None
    for step in range(1, args.steps + 1):
        model.train()
        x, t = batch(train, args.batch, rng, scenes)
        out = model(x)
        loss, parts = loss_fn(out, t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        now = np.array([float(p.detach()) for p in parts])
        running = now if running is None else 0.98 * running + 0.02 * now
        if step % 100 == 0:
            print(f"step {step}: heat {running[0]:.3f} face {running[1]:.3f} offset {running[2]:.3f} "
                  f"side {running[3]:.3f} ({time.time() - start:.0f} s)", flush=True)
        if step % 1000 == 0 or step == args.steps:
            model.eval()
            net = export(model)
            net.save(args.out)
            figures = validate(dicenet.DiceNet.load(args.out), val)
            print("validation: " + ", ".join(f"{k} {v:.4f}" for k, v in figures.items()), flush=True)
    print(f"saved {args.out} ({args.out.stat().st_size} bytes)")
    accuracy = train_reader(dicenet.DiceNet.load(args.out), train, val, args)
    print(f"validation_recall: {figures['recall']:.4f}")
    print(f"validation_reader_accuracy: {accuracy:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
