"""`bitbox calibrate mat`, `bitbox calibrate dice`, `bitbox calibrate camera`, `bitbox camera snapshot`."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.vision.markers import CharucoSpec, calibrate_intrinsics, charuco_image
from controller.vision.profile import Intrinsics, TableProfile


def test_calibrate_then_snapshot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "mat", "--layout", "memodixe", "--source", "render:memodixe:3:empty"]) == 0
    out = capsys.readouterr().out
    assert "4 of 4 markers found" in out and "reprojection error RMS" in out
    prof = TableProfile.load("memodixe")
    assert prof.reprojection_rms_px < 0.5 and prof.background is not None
    # A photo of the table as a source: the profile is used, dice are drawn and listed.
    from controller.vision.sources import open_source
    src = open_source("render:memodixe:3")
    src.read()                                  # the empty mat comes first
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), src.read())
    shot = tmp_path / "shot.png"
    assert main(["camera", "snapshot", "--source", str(table), "--layout", "memodixe", "--out", str(shot),
                 "--json"]) == 0
    out = capsys.readouterr().out
    assert cv2.imread(str(shot)).shape == (720, 1280, 3)
    data = json.loads(out[out.index("{"):])
    assert len(data["dice"]) == int(out.split(": ")[1].split(" dice")[0]) > 0


def test_snapshot_without_calibration_shows_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from controller.vision.sources import open_source
    frame = tmp_path / "empty.png"
    cv2.imwrite(str(frame), open_source("render:praxis:1:empty").read())
    assert main(["camera", "snapshot", "--source", str(frame), "--layout", "praxis",
                 "--out", str(tmp_path / "s.png")]) == 0
    out = capsys.readouterr().out
    assert "not calibrated" in out and "4 of 4 markers seen" in out


def test_calibrate_mat_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 90, np.uint8))
    assert main(["calibrate", "mat", "--layout", "memodixe", "--source", str(blank)]) == 2
    assert "found 0 of the mat's 4 markers" in capsys.readouterr().err
    assert main(["calibrate", "mat", "--layout", "nope", "--source", str(blank)]) == 2
    assert main(["camera", "snapshot", "--source", "/missing.png"]) == 2


def test_calibrate_dice_measures_the_edge_offset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from controller.vision.sources import open_source
    assert main(["calibrate", "mat", "--layout", "memodixe", "--source", "render:memodixe:5:empty"]) == 0
    assert main(["calibrate", "dice", "--layout", "memodixe", "--source", "render:memodixe:5:empty"]) == 2
    assert "no whole die found on the mat: put a few single dice on it" in capsys.readouterr().err
    src = open_source("render:memodixe:5")
    src.read()
    dice = tmp_path / "dice"
    dice.mkdir()
    frame = src.read()
    for i in range(3):
        cv2.imwrite(str(dice / f"{i}.png"), frame)
    assert main(["calibrate", "dice", "--layout", "memodixe", "--source", str(dice)]) == 0
    out = capsys.readouterr().out
    assert "12 dice found" in out and "silhouette edge offset" in out
    offset = TableProfile.load("memodixe").edge_offset_px
    assert offset != 0.5 and -1.0 < offset < 2.0
    assert main(["calibrate", "dice", "--layout", "memodixe", "--source", str(dice), "--colours", "red"]) == 2
    assert "1 colour names for 12 dice" in capsys.readouterr().err


def synthetic_views(spec: CharucoSpec, K: np.ndarray, n: int) -> list[np.ndarray]:
    """The printed board seen by a pinhole camera from several angles (a real ChArUco image, warped)."""
    s = 4.0
    board = charuco_image(spec, s, margin_mm=10.0)
    views = []
    for i in range(n):
        rx, ry = math.radians(-25 + 10 * i), math.radians(20 - 8 * i)
        R = cv2.Rodrigues(np.array([rx, ry, 0.05 * i]))[0]
        t = np.array([-110.0 + 5 * i, -80.0, 520.0 + 20 * i])
        # board px -> board mm (z = 0) -> image
        A = np.array([[1 / s, 0, -10.0], [0, 1 / s, -10.0], [0, 0, 1]])
        Hm = K @ np.column_stack([R[:, 0], R[:, 1], t]) @ A
        img = cv2.warpPerspective(board, Hm, (1280, 720), flags=cv2.INTER_AREA, borderValue=200)
        views.append(cv2.GaussianBlur(img, (3, 3), 0.6))
    return views


def test_charuco_intrinsics_recovered() -> None:
    K = np.array([[900.0, 0, 650], [0, 900.0, 350], [0, 0, 1]])
    spec = CharucoSpec()
    Kf, dist, rms, used = calibrate_intrinsics(synthetic_views(spec, K, 6), spec)
    assert used == 6 and rms < 0.5
    assert Kf[0, 0] == pytest.approx(900, rel=0.02) and Kf[1, 2] == pytest.approx(350, abs=10)


def test_calibrate_camera_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "camera", "--board-out", str(tmp_path / "board.pdf")]) == 0
    assert (tmp_path / "board.pdf").read_bytes().startswith(b"%PDF")
    K = np.array([[1000.0, 0, 640], [0, 1000.0, 360], [0, 0, 1]])
    views = tmp_path / "views"
    views.mkdir()
    for i, img in enumerate(synthetic_views(CharucoSpec(), K, 5)):
        cv2.imwrite(str(views / f"v{i}.png"), img)
    assert main(["calibrate", "camera", "--images", str(views)]) == 0
    saved = Intrinsics.load()
    assert saved is not None and saved.K[0, 0] == pytest.approx(1000, rel=0.02)
    empty = tmp_path / "empty"
    empty.mkdir()
    cv2.imwrite(str(empty / "a.png"), np.full((100, 100), 255, np.uint8))
    assert main(["calibrate", "camera", "--images", str(empty)]) == 2
    assert "found in 0 of 1 images" in capsys.readouterr().err
