"""A small learned check on pip readings: a tiny convolutional network over a die's face crop.

The classical reader (:mod:`controller.vision.pips`) places pip layouts and knows when it is unsure,
but real photos hold dice it misreads: marbled bodies, pips half lost in glare, a side face's pips
taken for the top's. This network sees the same crop (the face turned square, a little margin
around it) as two 32x32 planes, the pip-contrast map and the lightness, and gives the probability of
each face 1..6 and of "not a die". It is a small convolutional network (three 3x3 convolution
layers, two dense layers, about 70,000 weights) run with numpy. It was trained on the training parts
of the real photo sets only (``bench/train_pipnet.py``, which also says which files); its weights are
a small ``.npz`` beside this module. Without that file the classical reading stands alone.

The learned die finder's face reader (:mod:`controller.vision.dicenet`) is the same network, fed
colour crops instead.
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from controller.vision import pips as _pips

#: Side of each input plane.
SIDE = 32

#: Output classes: faces 1..6, then "not a die".
CLASSES = ("1", "2", "3", "4", "5", "6", "none")
NOT_A_DIE = 6

WEIGHTS = Path(__file__).with_name("data") / "pipnet.npz"

#: Convolution layers (3x3, padding 1, ReLU, 2x2 max-pool) then two dense layers.
CONV_LAYERS = 3

#: Inputs run through the network at once, at most (see PipNet.probabilities).
BATCH = 32


def features(crop_bgr: np.ndarray, face_side: float) -> np.ndarray:
    """The network's input for a square crop centred on a face turned to the crop's axes.

    ``face_side``: the face's side as a fraction of the crop's. Returns float32 planes (2, SIDE, SIDE):
    the pip-contrast map (scaled to its own high percentile) and the lightness (standardised).
    """
    spot = _pips.spot_map(crop_bgr, face_side)
    spot = cv2.resize(spot, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    spot = spot / max(30.0, float(np.percentile(spot, 99)))
    grey = cv2.cvtColor(cv2.resize(crop_bgr, (SIDE, SIDE), interpolation=cv2.INTER_AREA),
                        cv2.COLOR_BGR2GRAY).astype(np.float32)
    grey = (grey - grey.mean()) / (grey.std() + 8.0)
    return np.stack([spot, grey]).astype(np.float32)


def _conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3x3 convolution (padding 1), ReLU and 2x2 max-pool of a channels-last batch (n x h x w x c)."""
    n, h, wd, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    # One matrix product over every pixel's 3x3 neighbourhood (im2col, channels last).
    cols = np.concatenate([padded[:, dy:dy + h, dx:dx + wd] for dy in range(3) for dx in range(3)], axis=3)
    y = cols.reshape(-1, 9 * c) @ w.transpose(2, 3, 1, 0).reshape(9 * c, len(w))
    y += b
    np.maximum(y, 0.0, out=y)
    y = y.reshape(n, h, wd, len(w))[:, :h // 2 * 2, :wd // 2 * 2]
    return np.maximum(np.maximum(y[:, 0::2, 0::2], y[:, 0::2, 1::2]), np.maximum(y[:, 1::2, 0::2], y[:, 1::2, 1::2]))


class PipNet:
    """Inference for the small network, in numpy (no learning library needed at run time)."""

    def __init__(self, params: dict[str, np.ndarray]) -> None:
        self.params = {k: v.astype(np.float32) for k, v in params.items()}

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities for a batch (n x planes x side x side) or one input (planes x side x side):
        two planes of SIDE for the pip reading check, the face reader's own for its weights.

        A large batch is taken :data:`BATCH` inputs at a time: the first layer's gathered
        neighbourhoods are a few hundred kilobytes an input (the face reader sees each die eight ways),
        and a photo of thirty dice would otherwise hold a hundred megabytes of them at once."""
        single = x.ndim == 3
        if not single and len(x) > BATCH:
            return np.concatenate([self.probabilities(x[i:i + BATCH]) for i in range(0, len(x), BATCH)])
        h = np.ascontiguousarray((x[None] if single else x).transpose(0, 2, 3, 1), dtype=np.float32)
        p = self.params
        for i in range(CONV_LAYERS):
            h = _conv_relu_pool(h, p[f"conv{i}.weight"], p[f"conv{i}.bias"])
        h = np.ascontiguousarray(h.transpose(0, 3, 1, 2)).reshape(len(h), -1)
        h = np.maximum(0.0, h @ p["fc0.weight"].T + p["fc0.bias"])
        z = h @ p["fc1.weight"].T + p["fc1.bias"]
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        e /= e.sum(axis=1, keepdims=True)
        return e[0] if single else e

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **{k: v.astype(np.float16) for k, v in self.params.items()})

    @classmethod
    def load(cls, path: Path) -> PipNet:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})


@functools.lru_cache(maxsize=1)
def default() -> PipNet | None:
    """The shipped network, or None where its weights file is absent."""
    return PipNet.load(WEIGHTS) if WEIGHTS.is_file() else None
