"""The learned die finder: its numpy convolution against a plain one, its weights' checks, and the
choice between it and the classical finder."""

from __future__ import annotations

import math

import numpy as np
import pytest
from dice_drawings import scene

from controller.vision import dice, dicenet


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


def test_reader_export_matches_the_trained_reader():
    """The face reader's numpy network, batch normalisation folded in, computes what its PyTorch
    twin computes."""
    torch = pytest.importorskip("torch")
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import train_dicenet

    torch.manual_seed(1)
    model = train_dicenet.build_reader(32, (8, 12, 16), 24)
    for module in model:
        if isinstance(module, torch.nn.BatchNorm2d):
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.uniform_(-0.3, 0.3)
            module.running_mean.uniform_(-0.2, 0.2)
            module.running_var.uniform_(0.5, 2.0)
    model.eval()
    image = np.random.default_rng(1).integers(0, 255, (60, 70, 3)).astype(np.uint8)
    x = dicenet.reader_input(image, (35.0, 30.0), 30.0, 32)[None]
    expected = torch.softmax(model(torch.from_numpy(x)), 1).detach().numpy()
    reader = train_dicenet.export_reader(model)
    assert dicenet.input_side(reader) == 32
    np.testing.assert_allclose(reader.probabilities(x), expected, rtol=1e-3, atol=1e-5)


def test_training_glare_lights_a_streak_on_the_face():
    """The reader's glare augmentation only brightens, brightens a lot, and does so on the face."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import train_dicenet

    rng = np.random.default_rng(5)
    size, side = 40.0, 80
    patch = np.full((side, side, 3), 60, np.uint8)
    peaks = []
    for _ in range(50):
        out = train_dicenet.glare(patch, size, rng)
        assert out.shape == patch.shape and out.dtype == np.uint8
        lift = out.astype(int) - patch
        assert lift.min() >= 0
        peaks.append(lift.max())
        assert lift.max() >= 30
        weight = lift.sum(axis=2).astype(float)
        ys, xs = np.mgrid[:side, :side]
        middle = ((xs * weight).sum() / weight.sum(), (ys * weight).sum() / weight.sum())
        assert abs(middle[0] - side / 2) <= 0.4 * size and abs(middle[1] - side / 2) <= 0.4 * size
        assert (lift.sum(axis=2) > 30).mean() < 0.3
    assert np.median(peaks) >= 90


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
    channels = (dicenet.READER_PLANES, 8, 8, 12)
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
    assert crops.shape == (2, dicenet.READER_PLANES, side, side)
    p = dicenet.read(reader, crops)
    assert p.shape == (2, 7)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-5)
    turned = np.ascontiguousarray(np.rot90(crops, 1, axes=(2, 3))[:, :, :, ::-1])
    np.testing.assert_allclose(dicenet.read(reader, turned), p, rtol=1e-4, atol=1e-6)


def test_the_reader_sees_a_dark_face_spread_out():
    """A dark die with dim red pips on a light tray: standardised over the whole crop, the face's
    pixels lie close together; the second copy, standardised over the face, spreads them out."""
    image = np.full((100, 100, 3), 220, np.uint8)
    image[35:65, 35:65] = (40, 40, 50)
    for x, y in ((42, 42), (57, 57)):
        image[y - 2:y + 3, x - 2:x + 3] = (40, 40, 90)
    planes = dicenet.reader_input(image, (50.0, 50.0), 30.0, 32)
    assert planes.shape == (dicenet.READER_PLANES, 32, 32)
    middle = planes[:, 8:24, 8:24]
    whole, face = middle[:3], middle[3:]
    assert face.std() > 3 * whole.std()
    assert abs(float(face.mean())) < 0.2
    assert np.abs(planes[3:]).max() <= 4.0


def test_reader_weights_for_other_crops_are_refused(tmp_path):
    rng = np.random.default_rng(3)
    channels = (3, 8, 8, 12)
    params = {}
    for i in range(3):
        params[f"conv{i}.weight"] = rng.normal(size=(channels[i + 1], channels[i], 3, 3))
        params[f"conv{i}.bias"] = np.zeros(channels[i + 1])
    params.update({"fc0.weight": rng.normal(size=(16, 12 * 36)), "fc0.bias": np.zeros(16),
                   "fc1.weight": rng.normal(size=(7, 16)), "fc1.bias": np.zeros(7)})
    path = tmp_path / "old.npz"
    dicenet.PipNet(params).save(path)
    with pytest.raises(ValueError, match="3 planes.*retrain"):
        dicenet.load_reader(path)
    assert dicenet.load_reader(dicenet.READER_WEIGHTS).params["conv0.weight"].shape[1] == dicenet.READER_PLANES


@pytest.mark.parametrize("k,stride,dilation", [(3, 1, 1), (3, 2, 1), (3, 1, 4)])
def test_a_convolution_done_a_band_of_rows_at_a_time_is_the_plain_sum(monkeypatch, k, stride, dilation):
    """The gathered neighbourhoods of a whole photo's layer are tens of megabytes: they are gathered
    a band of output rows at a time (here a few rows, the bound made tiny), with the same result."""
    monkeypatch.setattr(dicenet, "_COLUMNS", 3 * k * k * 13 * 2)      # two output rows a band
    rng = np.random.default_rng(k + stride + dilation)
    x = rng.normal(size=(3, 11, 13)).astype(np.float32)
    weight = rng.normal(size=(4, 3, k, k)).astype(np.float32)
    bias = rng.normal(size=4).astype(np.float32)
    got = dicenet.conv2d(x, weight, bias, stride, dilation)
    np.testing.assert_allclose(got, _reference_conv(x, weight, bias, stride, dilation), rtol=1e-4, atol=1e-4)


def test_a_large_batch_is_read_in_parts_with_the_same_probabilities():
    """The face reader sees each die eight ways: a photo of many dice is read a part of the batch at
    a time, each input's probabilities as in one batch."""
    from controller.vision import pipnet

    reader = dicenet.default_reader()
    x = np.random.default_rng(2).normal(size=(pipnet.BATCH * 2 + 5, 6, 48, 48)).astype(np.float32)
    parts = reader.probabilities(x)
    assert parts.shape == (len(x), 7)
    one = np.stack([reader.probabilities(v) for v in x[:: pipnet.BATCH // 2]])
    np.testing.assert_allclose(parts[:: pipnet.BATCH // 2], one, rtol=1e-5, atol=1e-6)
