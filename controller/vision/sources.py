"""Camera sources behind one interface: :func:`open_source` turns a spec into a :class:`FrameSource`.

Specs:

* ``picamera2`` (or ``pi``, ``picamera2:1`` for the second camera): a Raspberry Pi camera through
  picamera2, asked for ``BGR888`` frames of 2304 x 1296 (``picamera2:0:4608x2592`` asks for the
  Camera Module 3's full resolution); a low-resolution stream serves the motion checks and a full
  frame is taken once the table is still. picamera2 is imported only here, when asked for.
* ``0``, ``1``...: an OpenCV capture device (a USB webcam), asked for 1280 x 720 frames
  (``0:1920x1080`` asks for another size): left to itself OpenCV opens most webcams at 640 x 480,
  where a die is too few pixels across to read reliably. On Linux OpenCV asks for an uncompressed
  format (YUYV), slower than the webcam's Motion-JPEG but without its blocks around the dice's edges.
* a video file: its frames in order.
* a folder of images: the images in name order (``.png``, ``.jpg``...).
* a single image file: that image, again and again.
* ``render:LAYOUT[:SEED][:empty]``: a synthetic table of that mat layout (see :mod:`controller.vision.render`);
  its first frame is the empty mat, or every frame with ``:empty``.

Every frame is a BGR ``uint8`` array of 3 channels. A frame wider than
:data:`~controller.vision.frames.ANALYSIS_WIDTH` (2304) comes reduced by a whole factor, the camera's
full frame riding along for the face reader (:mod:`controller.vision.frames`): the mat is calibrated
and the table analysed at the reduced size, the dice's faces read at the full one.
"""

from __future__ import annotations

import abc
import dataclasses
import logging
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.vision.frames import analysis_frame

log = logging.getLogger(__name__)

#: The frame size asked of a capture device when the spec names none.
DEVICE_SIZE = (1280, 720)
#: The main stream asked of a Pi camera when the spec names none.
PICAMERA_SIZE = (2304, 1296)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".h264", ".webm", ".mjpeg")


class SourceError(Exception):
    """A camera source could not be opened or read; the message says which and what to do."""


class FrameSource(abc.ABC):
    """Where frames come from. ``read()`` gives a full frame; ``preview()`` a small one for motion
    checks (the same frame downscaled, unless the source has a cheaper low-resolution stream)."""

    name: str = "source"
    preview_width: int = 320

    @abc.abstractmethod
    def read(self) -> np.ndarray:
        """The next full frame (BGR). Raises :class:`SourceError` when no frame can be had."""

    def preview(self) -> np.ndarray:
        frame = self.read()
        h, w = frame.shape[:2]
        return cv2.resize(frame, (self.preview_width, round(h * self.preview_width / w)),
                          interpolation=cv2.INTER_AREA)

    def close(self) -> None:
        """Release the device or file."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __iter__(self):
        while True:
            try:
                yield self.read()
            except EndOfSource:
                return


class EndOfSource(SourceError):
    """A file or folder source has no more frames."""


def _to_bgr(frame: np.ndarray) -> np.ndarray:
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


class CaptureSource(FrameSource):
    """An OpenCV ``VideoCapture``: a device index or a video file."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = None) -> None:
        self.name = f"device {target}" if isinstance(target, int) else str(target)
        self._is_file = not isinstance(target, int)
        self.cap = cv2.VideoCapture(target)
        if not self.cap.isOpened():
            what = (f"camera device {target} could not be opened: check that it is plugged in, that no "
                    "other program uses it, and that you may read /dev/video* (the video group)"
                    if isinstance(target, int) else f"video file {target} could not be opened (format "
                    "not supported by this OpenCV build?)")
            raise SourceError(what)
        if size is not None and isinstance(target, int):
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
            given = (int(self.cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self.cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
            if given != tuple(size):
                log.warning("%s gives %dx%d frames, not the %dx%d asked for", self.name, *given, *size)

    def read(self) -> np.ndarray:
        ok, frame = self.cap.read()
        if not ok or frame is None:
            if self._is_file:
                raise EndOfSource(f"{self.name}: no more frames")
            raise SourceError(f"{self.name}: the camera stopped sending frames (unplugged?)")
        return analysis_frame(_to_bgr(frame))

    def close(self) -> None:
        self.cap.release()


class FolderSource(FrameSource):
    """The images of a folder in name order (or one image file, repeated when ``repeat``)."""

    def __init__(self, path: Path, repeat: bool = False) -> None:
        self.name = str(path)
        if path.is_dir():
            self.files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self.files:
                raise SourceError(f"folder {path} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        else:
            self.files = [path]
        self.repeat = repeat
        self.index = 0

    def read(self) -> np.ndarray:
        if self.index >= len(self.files):
            if not self.repeat:
                raise EndOfSource(f"{self.name}: no more images")
            self.index = 0
        path = self.files[self.index]
        self.index += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise SourceError(f"{path} is not a readable image")
        return analysis_frame(frame)


class Picamera2Source(FrameSource):
    """A Raspberry Pi camera through picamera2 (installed from apt: python3-picamera2; the venv needs
    --system-site-packages). Main stream ``BGR888`` at ``size``, low-resolution stream for previews."""

    def __init__(self, camera: int = 0, size: tuple[int, int] = PICAMERA_SIZE,
                 preview_size: tuple[int, int] = (320, 180)) -> None:
        self.name = f"picamera2:{camera}"
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise SourceError(
                "picamera2 is not available: on Raspberry Pi OS install it with 'sudo apt install "
                "python3-picamera2' and create the virtual environment with --system-site-packages") from exc
        try:
            self.cam = Picamera2(camera)
            # The low-resolution stream must be YUV420 on most Pi cameras; only its grey plane is used.
            config = self.cam.create_still_configuration(
                main={"size": size, "format": "BGR888"}, lores={"size": preview_size, "format": "YUV420"},
                buffer_count=2)
            self.cam.configure(config)
            self.cam.start()
        except (RuntimeError, IndexError) as exc:
            raise SourceError(f"camera {camera} could not be started ({exc}): check the ribbon cable and "
                              "that no other program (libcamera-hello, another service) holds the camera") from exc
        self.preview_size = preview_size

    def read(self) -> np.ndarray:
        return analysis_frame(_to_bgr(self.cam.capture_array("main")))

    def preview(self) -> np.ndarray:
        yuv = self.cam.capture_array("lores")
        w, h = self.preview_size
        return np.ascontiguousarray(yuv[:h, :w])

    def close(self) -> None:
        self.cam.stop()
        self.cam.close()


class RenderedSource(FrameSource):
    """Synthetic frames of a scene (or a list of scenes played in turn), for trying the pipeline
    without a camera. The first frame is the empty mat when ``empty_first`` (for calibration)."""

    def __init__(self, scenes: list[Any], empty_first: bool = False, repeat: bool = True) -> None:
        from controller.vision.render import render, render_empty
        self.name = "render"
        self.frames = [render(s).image for s in scenes]
        if empty_first and scenes:
            self.frames.insert(0, render_empty(scenes[0]))
        self.repeat = repeat
        self.index = 0

    def read(self) -> np.ndarray:
        if self.index >= len(self.frames):
            if not self.repeat:
                raise EndOfSource("rendered frames: no more frames")
            self.index = len(self.frames) - 1
        frame = self.frames[self.index]
        self.index += 1
        return frame.copy()


def _frame_size(text: str, spec: str, form: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` as a size; SourceError naming ``spec`` and the ``form`` it should take."""
    width, x, height = text.lower().partition("x")
    if not (x and width.isdigit() and height.isdigit() and int(width) > 0 and int(height) > 0):
        raise SourceError(f"{spec!r}: {form}")
    return int(width), int(height)


def open_source(spec: str | int, size: tuple[int, int] | None = None) -> FrameSource:
    """Open a camera source from a spec (see the module's docstring)."""
    text = str(spec).strip()
    name, _, rest = text.partition(":")
    if name in ("picamera2", "pi", "picamera"):
        index = 0
        for part in rest.split(":") if rest else ():
            if part.isdigit():
                index = int(part)
            else:
                size = _frame_size(part, text, "a Pi camera is picamera2[:INDEX][:WIDTHxHEIGHT], e.g. "
                                               "picamera2:0:4608x2592")
        return Picamera2Source(index, size or PICAMERA_SIZE)
    device, _, asked = text.partition(":")
    if device.isdigit():
        if asked:
            size = _frame_size(asked, text, "a capture device with a frame size is DEVICE:WIDTHxHEIGHT, e.g. 0:1920x1080")
        return CaptureSource(int(device), size or DEVICE_SIZE)
    if text.startswith("render:"):
        from controller.vision.mat import load_layout
        from controller.vision.render import random_scene
        parts = text.split(":")
        empty = parts[-1] == "empty"
        if empty:
            parts = parts[:-1]
        if len(parts) < 2 or (len(parts) > 2 and not parts[2].isdigit()):
            raise SourceError(f"{text!r}: a synthetic source is render:LAYOUT[:SEED][:empty]")
        layout = load_layout(parts[1])
        seed = int(parts[2]) if len(parts) > 2 else 0
        scene = random_scene(layout, 12, seed, temples=bool(layout.zones_of_kind("temple")))
        if empty:
            scene = dataclasses.replace(scene, dice=())
            return RenderedSource([scene])
        return RenderedSource([scene], empty_first=True)
    path = Path(text).expanduser()
    if not path.exists():
        raise SourceError(f"no camera source {text!r}: not a device number, 'picamera2', 'render:LAYOUT', "
                          "nor an existing file or folder")
    if path.is_dir() or path.suffix.lower() in IMAGE_SUFFIXES:
        return FolderSource(path, repeat=not path.is_dir())
    return CaptureSource(str(path))
