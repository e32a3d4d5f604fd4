"""Camera sources: folders, videos, single images, synthetic tables, and clear errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.vision.sources import (CaptureSource, EndOfSource, FolderSource, RenderedSource, SourceError,
                                       open_source)


def frames(n: int) -> list[np.ndarray]:
    out = []
    for i in range(n):
        img = np.full((120, 160, 3), 40 * i % 255, np.uint8)
        cv2.putText(img, str(i), (50, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
        out.append(img)
    return out


def test_folder_in_name_order_then_end(tmp_path: Path) -> None:
    imgs = frames(3)
    for i, img in enumerate(imgs):
        cv2.imwrite(str(tmp_path / f"f{i:02d}.png"), img)
    (tmp_path / "notes.txt").write_text("not an image")
    with open_source(str(tmp_path)) as src:
        assert isinstance(src, FolderSource)
        got = list(src)
    assert len(got) == 3 and all(np.array_equal(a, b) for a, b in zip(got, imgs))
    with pytest.raises(EndOfSource):
        src.read()


def test_single_image_repeats_and_preview_is_small(tmp_path: Path) -> None:
    path = tmp_path / "still.jpg"
    cv2.imwrite(str(path), frames(1)[0])
    src = open_source(str(path))
    a, b = src.read(), src.read()
    assert a.shape == (120, 160, 3) and np.array_equal(a, b)
    src.preview_width = 80
    assert src.preview().shape == (60, 80, 3)


def test_video_file(tmp_path: Path) -> None:
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for img in frames(5):
        writer.write(img)
    writer.release()
    with open_source(str(path)) as src:
        assert isinstance(src, CaptureSource)
        got = list(src)
    assert len(got) == 5 and got[0].shape == (120, 160, 3)


def test_rendered_source_starts_with_the_empty_mat() -> None:
    src = open_source("render:memodixe:4")
    assert isinstance(src, RenderedSource)
    empty, table = src.read(), src.read()
    assert empty.shape == table.shape == (720, 1280, 3)
    assert np.abs(empty.astype(int) - table).mean() > 1.0
    assert np.array_equal(src.read(), table)            # a still table goes on being still
    only_empty = open_source("render:memodixe:4:empty")
    assert np.array_equal(only_empty.read(), empty)


@pytest.mark.parametrize("spec, message", [
    ("/no/such/file.mp4", "no camera source"),
    ("render:chess", "no mat layout named 'chess'"),
    ("render:memodixe:x:y", "render:LAYOUT[:SEED][:empty]"),
    ("0:big", "DEVICE:WIDTHxHEIGHT"),
    ("0:1280x", "DEVICE:WIDTHxHEIGHT"),
    ("0:0x720", "DEVICE:WIDTHxHEIGHT"),
])
def test_clear_errors(spec: str, message: str) -> None:
    with pytest.raises((SourceError, ValueError), match=message.replace("[", r"\[").replace("]", r"\]")):
        open_source(spec)


def test_empty_folder_and_missing_device(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="holds no images"):
        open_source(str(tmp_path))
    with pytest.raises(SourceError, match="camera device 57 could not be opened"):
        open_source("57")
    with pytest.raises(SourceError, match="camera device 57 could not be opened"):
        open_source("57:1920x1080")


def test_picamera2_missing_is_explained() -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(SourceError, match="apt install python3-picamera2"):
            open_source("picamera2")
    else:
        pytest.skip("picamera2 is installed here")
