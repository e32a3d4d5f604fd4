"""The learned die finder: its numpy convolution against a plain one, its weights' checks, and the
choice between it and the classical finder."""

from __future__ import annotations

import math

import numpy as np
import pytest

from controller.vision import dice, dicenet
from dice_drawings import scene


def _reference_conv(x, weight, bias, stride, dilation):
    c, h, w = x.shape
    out_c, _, k, _ = weight.shape
    pad = dilation * (k // 2)
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    ho, wo = (h - 1) // stride + 1, (w - 1) // stride + 1
    out = np.zeros((out_c, ho, wo))
    for o in range(out_c):
        for y in range(ho):
            for xx in range(wo):
                acc = bias[o]
                for i in range(k):
                    for j in range(k):
                        acc += np.dot(weight[o, :, i, j], xp[:, y * stride + i * dilation, xx * stride + j * dilation])
                out[o, y, xx] = acc
    return out


@pytest.mark.parametrize("k,stride,dilation", [(3, 1, 1), (3, 2, 1), (3, 1, 2), (3, 1, 4), (1, 1, 1)])
def test_convolution_matches_the_plain_sum(k, stride, dilation):
    rng = np.random.default_rng(k * 10 + stride + dilation)
    x = rng.normal(size=(3, 11, 13)).astype(np.float32)
    weight = rng.normal(size=(4, 3, k, k)).astype(np.float32)
    bias = rng.normal(size=4).astype(np.float32)
    got = dicenet.conv2d(x, weight, bias, stride, dilation)
    np.testing.assert_allclose(got, _reference_conv(x, weight, bias, stride, dilation), rtol=1e-4, atol=1e-4)


def test_weights_of_another_shape_are_refused():
    params = {"conv0.weight": np.zeros((5, 3, 3, 3)), "conv0.bias": np.zeros(5), "conv0.shape": np.array([1, 1])}
    with pytest.raises(ValueError, match="retrain"):
        dicenet.DiceNet(params)


def test_the_finder_is_shipped_and_reads_any_image_size():
    finder = dicenet.default()
    assert finder is not None, "controller/vision/data/dicenet.npz is missing"
    out = finder.outputs(np.full((37, 53, 3), 128, np.uint8))
    assert out.shape == (dicenet.OUTPUTS, 5, 7)
    assert finder.detect(np.full((64, 64, 3), 128, np.uint8)) == []


def test_training_export_matches_the_trained_model():
    """The numpy network computes what the PyTorch one it was exported from computes."""
    torch = pytest.importorskip("torch")
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import train_dicenet

    torch.manual_seed(0)
    model = train_dicenet.build_model()
    for module in model:
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-0.2, 0.2)
            module.running_var.uniform_(0.5, 2.0)
    model.eval()
    image = np.random.default_rng(0).integers(0, 255, (40, 48, 3)).astype(np.uint8)
    x = torch.from_numpy(image.transpose(2, 0, 1).astype(np.float32)[None] / 255.0 - 0.5)
    expected = model(x).detach().numpy()[0]
    np.testing.assert_allclose(train_dicenet.export(model).outputs(image), expected, rtol=1e-3, atol=1e-4)


LAYOUT = [(100, 100, 3, 10.0), (250, 120, 5, 40.0), (380, 250, 1, 0.0), (150, 260, 6, 70.0), (330, 80, 2, 25.0)]


def test_photos_without_the_empty_mat_use_the_learned_finder(monkeypatch):
    frame, empty = scene(LAYOUT)
    calls = []
    real = dice.find_learned

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(dice, "find_learned", spy)
    dice.find_dice(frame, background_bgr=empty)
    assert calls == []                       # the table compares with its empty mat
    found = dice.find_dice(frame)
    assert calls == [1]
    assert sorted((round(d.center[0] / 10), d.face.pips) for d in found) == sorted(
        (round(x / 10), v) for x, _, v, _ in LAYOUT)


def test_learned_finder_keeps_to_the_mask():
    frame, _ = scene(LAYOUT)
    mask = np.zeros(frame.shape[:2], np.uint8)
    mask[:, :200] = 255
    found = dice.find_dice(frame, mask=mask)
    assert sorted(round(d.center[0] / 10) for d in found) == [10, 15]
    for d in found:
        assert min(math.dist(d.center, (x, y)) for x, y, _, _ in LAYOUT) < 6


@pytest.mark.parametrize("side", [32, 40])
def test_the_reader_takes_crops_of_the_side_its_weights_were_trained_on(side):
    rng = np.random.default_rng(side)
    channels = (3, 8, 8, 12)
    params = {}
    for i in range(3):
        params[f"conv{i}.weight"] = rng.normal(size=(channels[i + 1], channels[i], 3, 3))
        params[f"conv{i}.bias"] = np.zeros(channels[i + 1])
    params["fc0.weight"] = rng.normal(size=(16, 12 * (side // 8) ** 2))
    params["fc0.bias"] = np.zeros(16)
    params["fc1.weight"] = rng.normal(size=(7, 16))
    params["fc1.bias"] = np.zeros(7)
    reader = dicenet.PipNet(params)
    assert dicenet.input_side(reader) == side
    image = rng.integers(0, 255, (120, 160, 3)).astype(np.uint8)
    crops = np.stack([dicenet.reader_input(image, (80.0, 60.0), 30.0, side)] * 2)
    assert crops.shape == (2, 3, side, side)
    p = dicenet.read(reader, crops)
    assert p.shape == (2, 7)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-5)
    turned = np.ascontiguousarray(np.rot90(crops, 1, axes=(2, 3))[:, :, :, ::-1])
    np.testing.assert_allclose(dicenet.read(reader, turned), p, rtol=1e-4, atol=1e-6)
