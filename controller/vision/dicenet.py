"""A small learned die finder for photos: where the dice are, how big, and what each top face shows.

The classical finder (:func:`controller.vision.dice.candidates`) needs the surface to stand out
from the dice. On a calibrated mat it has the empty mat to compare with and finds every die; in a
photo of an unknown table it must guess the surface, and side faces, cables, shadows and dice the
colour of the table fool it. This network has learned what a die looks like from labelled photos.

It is a fully convolutional network in the manner of CenterNet (Zhou et al., "Objects as Points",
2019): six 3x3 convolution layers (strided, then dilated, so that each output sees about 120 pixels)
and a 1x1 head giving, on a grid of one cell per 8 pixels,

* the probability that a die's top face is centred in the cell,
* the probability of each face 1..6,
* where in the cell the centre lies (two offsets),
* the face's side (its logarithm, in cells).

It runs in numpy (one matrix product per layer); PyTorch is needed only to train it
(``bench/train_dicenet.py``, on the training parts of the real photo sets only). The weights are
a small ``.npz`` beside this module; without it the classical finder stands alone.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from pathlib import Path

import cv2
import numpy as np

from controller.vision.pipnet import CONV_LAYERS, PipNet

WEIGHTS = Path(__file__).with_name("data") / "dicenet.npz"

#: Pixels per output cell.
STRIDE = 8

#: Output channels: centre logit, six face logits, two offsets, log side.
HEAT, FACES, OFFSET, SIZE = 0, slice(1, 7), slice(7, 9), 9
OUTPUTS = 10

#: A cell is a die's centre when its probability is a local maximum at least this high.
MIN_SCORE = 0.2

#: Gathered neighbourhood values a convolution holds at once, at most (see conv2d): 4 MB of them.
_COLUMNS = 1 << 20

#: The second stage, the face reader: the same small network as the pip reading check
#: (:class:`controller.vision.pipnet.PipNet`) fed a colour crop of each die the finder found.
READER_WEIGHTS = Path(__file__).with_name("data") / "dicefaces.npz"

#: The reader's crop: its side over the finder's face side, and its usual resolution (the shipped
#: weights' own is :func:`input_side`).
READER_CROP = 1.3
READER_SIDE = 48

#: In a loose crop of one die (:func:`controller.vision.dice.read_crop`), the share of the crop's
#: side its face is taken to fill.
CROP_FACE_SIDE = 0.7

#: The reader's input planes: the crop's three colours standardised two ways (:func:`reader_input`).
READER_PLANES = 6


@dataclasses.dataclass(frozen=True)
class NetDetection:
    """One die the network found: its face's centre and side in image pixels, how sure it is that
    a die is there, and the probability of each face 1..6."""

    center: tuple[float, float]
    size: float
    score: float
    faces: np.ndarray


def conv2d(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, stride: int = 1,
           dilation: int = 1) -> np.ndarray:
    """A 2-D convolution of ``x`` (C x H x W) with ``weight`` (O x C x k x k), zero padded to keep
    the size (divided by ``stride``), as one matrix product over the gathered neighbourhoods."""
    c, h, w = x.shape
    out_c, _, k, _ = weight.shape
    pad = dilation * (k // 2)
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    ho, wo = (h - 1) // stride + 1, (w - 1) // stride + 1
    out = np.empty((out_c, ho, wo), np.float32)
    flat = weight.reshape(out_c, -1)
    # A band of output rows at a time: the gathered neighbourhoods of a whole 640x640 photo's layer
    # are twenty megabytes and more.
    band = max(1, _COLUMNS // (c * k * k * wo))
    for r0 in range(0, ho, band):
        rows = min(band, ho - r0)
        cols = np.empty((c, k, k, rows, wo), np.float32)
        for i in range(k):
            for j in range(k):
                y0, x0 = i * dilation + stride * r0, j * dilation
                cols[:, i, j] = xp[:, y0:y0 + stride * (rows - 1) + 1:stride, x0:x0 + stride * (wo - 1) + 1:stride]
        out[:, r0:r0 + rows] = (flat @ cols.reshape(c * k * k, rows * wo)).reshape(out_c, rows, wo)
    out += bias[:, None, None]
    return out


class DiceNet:
    """Inference for the die finding network, in numpy."""

    def __init__(self, params: dict[str, np.ndarray]) -> None:
        self.layers: list[tuple[np.ndarray, np.ndarray, int, int]] = []
        i = 0
        while f"conv{i}.weight" in params:
            stride, dilation = (int(v) for v in params[f"conv{i}.shape"])
            self.layers.append((params[f"conv{i}.weight"].astype(np.float32),
                                params[f"conv{i}.bias"].astype(np.float32), stride, dilation))
            i += 1
        if not self.layers or self.layers[-1][0].shape[0] != OUTPUTS:
            raise ValueError(f"die finder weights: expected convolution layers ending in {OUTPUTS} "
                             "outputs; retrain with bench/train_dicenet.py")

    def outputs(self, image_bgr: np.ndarray) -> np.ndarray:
        """The raw output maps (OUTPUTS x ceil(H/8) x ceil(W/8)) for a BGR image."""
        h, w = image_bgr.shape[:2]
        ph, pw = -h % STRIDE, -w % STRIDE
        if ph or pw:
            image_bgr = cv2.copyMakeBorder(image_bgr, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        x = np.ascontiguousarray(image_bgr.transpose(2, 0, 1), dtype=np.float32)
        x *= 1.0 / 255.0
        x -= 0.5
        last = len(self.layers) - 1
        for n, (weight, bias, stride, dilation) in enumerate(self.layers):
            x = conv2d(x, weight, bias, stride, dilation)
            if n < last:
                np.maximum(x, 0.0, out=x)
        return x

    def detect(self, image_bgr: np.ndarray, min_score: float = MIN_SCORE) -> list[NetDetection]:
        """Every die centred on a local maximum of the centre probability above ``min_score``."""
        out = self.outputs(image_bgr)
        heat = 1.0 / (1.0 + np.exp(-out[HEAT]))
        peak = cv2.dilate(heat, np.ones((3, 3), np.uint8))
        ys, xs = np.nonzero((heat >= peak) & (heat >= min_score))
        logits = out[FACES][:, ys, xs]
        logits = np.exp(logits - logits.max(axis=0))
        probs = logits / logits.sum(axis=0)
        found = []
        for n, (y, x) in enumerate(zip(ys, xs)):
            cx = (x + float(out[OFFSET.start, y, x])) * STRIDE
            cy = (y + float(out[OFFSET.start + 1, y, x])) * STRIDE
            size = float(np.exp(out[SIZE, y, x])) * STRIDE
            found.append(NetDetection((cx, cy), size, float(heat[y, x]), probs[:, n].copy()))
        found.sort(key=lambda d: -d.score)
        return found

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {}
        for i, (weight, bias, stride, dilation) in enumerate(self.layers):
            arrays[f"conv{i}.weight"] = weight.astype(np.float16)
            arrays[f"conv{i}.bias"] = bias.astype(np.float16)
            arrays[f"conv{i}.shape"] = np.array([stride, dilation], np.int8)
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: Path) -> DiceNet:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})


def reader_input(image_bgr: np.ndarray, center: tuple[float, float], size: float,
                 out: int = READER_SIDE) -> np.ndarray:
    """The face reader's input for a die: a colour crop READER_CROP times its face's side, resampled
    to ``out`` pixels (the reader's :func:`input_side`), as two standardised copies (6 x out x out).

    The first copy is standardised by the whole crop's mean and spread, the second by its middle
    half's (the face itself), clipped to four spreads: on a dark or translucent die against a light
    tray the first leaves the face's pips a few grey levels apart, the second spreads them out.
    """
    side = size * READER_CROP
    m = np.array([[out / side, 0.0, out / 2 - center[0] * out / side],
                  [0.0, out / side, out / 2 - center[1] * out / side]])
    crop = cv2.warpAffine(image_bgr, m, (out, out), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    whole = (crop - crop.mean()) / (crop.std() + 8.0)
    q = out // 4
    middle = crop[q:out - q, q:out - q]
    face = np.clip((crop - middle.mean(axis=(0, 1))) / (middle.std() + 4.0), -4.0, 4.0)
    return np.ascontiguousarray(np.concatenate([whole, face], axis=2).transpose(2, 0, 1))


def input_side(reader: PipNet) -> int:
    """The side of the crops ``reader`` was trained on, from its weights: each convolution layer
    halves the side, and the first dense layer takes what is left."""
    last = reader.params[f"conv{CONV_LAYERS - 1}.weight"].shape[0]
    cells = reader.params["fc0.weight"].shape[1] // last
    return int(round(math.sqrt(cells))) * 2 ** CONV_LAYERS


def read(reader: PipNet, inputs: np.ndarray) -> np.ndarray:
    """The reader's class probabilities (faces 1..6, then "not a die") for a batch of
    :func:`reader_input` crops, averaged over each crop's quarter turns and mirror images (a face's
    value does not change with them)."""
    return read_views(reader, inputs).mean(axis=0)


def read_views(reader: PipNet, inputs: np.ndarray) -> np.ndarray:
    """The reader's class probabilities for each of the eight quarter turns and mirror images of each
    :func:`reader_input` crop (8 x n x 7): where the views disagree, the reading is unsure."""
    if not len(inputs):
        return np.zeros((8, 0, 7), np.float32)
    views = [np.rot90(v, k, axes=(2, 3)) for v in (inputs, inputs[:, :, :, ::-1]) for k in range(4)]
    p = reader.probabilities(np.ascontiguousarray(np.concatenate(views)))
    return p.reshape(8, len(inputs), -1)


@functools.lru_cache(maxsize=1)
def default_reader() -> PipNet | None:
    """The shipped face reader, or None where its weights file is absent."""
    return load_reader(READER_WEIGHTS) if READER_WEIGHTS.is_file() else None


def load_reader(path: Path) -> PipNet:
    """Face reader weights from ``path``, refused with what to do when they were trained on crops
    of another kind than :func:`reader_input` makes."""
    reader = PipNet.load(path)
    planes = reader.params["conv0.weight"].shape[1]
    if planes != READER_PLANES:
        raise ValueError(f"{path} holds a face reader for crops of {planes} planes, but this version reads "
                         f"crops of {READER_PLANES}: retrain it with `python bench/train_dicenet.py --reader-only`")
    return reader


@functools.lru_cache(maxsize=1)
def default() -> DiceNet | None:
    """The shipped network, or None where its weights file is absent."""
    return DiceNet.load(WEIGHTS) if WEIGHTS.is_file() else None
