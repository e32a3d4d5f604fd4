"""``bitbox vision evaluate``: label reading, matching, the folder layouts, clear errors, the output."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import cv2
import pytest
from threadpoolctl import threadpool_info

from controller.cli import CommandError, build_parser
from controller.vision import evaluate as ev
from dice_drawings import scene

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "dice"


def parser() -> argparse.ArgumentParser:
    """The real ``bitbox`` parser when the vision group is there, else one built the same way."""
    full = build_parser()
    try:
        if full.parse_args(["vision", "evaluate", "x"]).handler.__module__ == ev.__name__:
            return full
    except (SystemExit, AttributeError):
        pass
    root = argparse.ArgumentParser(prog="bitbox")
    vision = root.add_subparsers().add_parser("vision").add_subparsers()
    ev.register(vision)
    return root


def run(argv: list[str], capsys) -> list[str]:
    args = parser().parse_args(["vision", "evaluate", *argv])
    assert args.handler(args) == 0
    return capsys.readouterr().out.strip().splitlines()


def write_photo(folder: Path, name: str, dice: list[tuple[float, float, int, float]], lines: list[str] | None = None):
    frame, _ = scene(dice)
    h, w = frame.shape[:2]
    cv2.imwrite(str(folder / f"{name}.png"), frame)
    if lines is None:
        lines = [f"{v - 1} {x / w:.6f} {y / h:.6f} {44 / w:.6f} {44 / h:.6f}" for x, y, v, _ in dice]
    (folder / f"{name}.txt").write_text("\n".join(lines) + "\n")


def test_drawn_photos_score_perfectly_and_last_line_is_the_accuracy(tmp_path, capsys):
    write_photo(tmp_path, "a", [(100, 100, 3, 10.0), (250, 120, 5, 40.0), (380, 250, 1, 0.0)])
    write_photo(tmp_path, "b", [(150, 260, 6, 70.0), (330, 80, 2, 25.0)])
    out = run([str(tmp_path), "--jobs", "1"], capsys)
    assert "labelled dice: 5" in out
    assert "precision: 1.0000" in out and "recall: 1.0000" in out
    assert "confident_accuracy: 1.0000" in out and "asked_share: 0.0000" in out
    assert out[-1] == "top_face_accuracy: 1.0000"


def test_a_misread_is_counted_and_shown(tmp_path, capsys):
    write_photo(tmp_path, "a", [(100, 100, 3, 10.0), (250, 120, 5, 40.0)],
                lines=["2 0.208333 0.277778 0.091667 0.122222", "3 0.520833 0.333333 0.091667 0.122222"])
    shown = tmp_path / "errors"
    out = run([str(tmp_path), "--jobs", "1", "--show-errors", str(shown)], capsys)
    assert out[-1] == "top_face_accuracy: 0.5000"
    assert [p.name.split("_")[0] for p in shown.iterdir()] == ["4-as-5"]


def test_missed_dice_count_against_recall_and_accuracy(tmp_path, capsys):
    write_photo(tmp_path, "a", [(100, 100, 3, 10.0)],
                lines=["2 0.208333 0.277778 0.091667 0.122222", "0 0.9 0.9 0.05 0.05"])
    out = run([str(tmp_path), "--jobs", "1"], capsys)
    assert "recall: 0.5000" in out
    assert out[-1] == "top_face_accuracy: 0.5000"


def test_images_and_labels_folders_layout_and_limit(tmp_path, capsys):
    src = FIXTURES / "nell-byler"
    shutil.copytree(src, tmp_path / "set")
    out = run([str(tmp_path / "set"), "--limit", "1", "--jobs", "1"], capsys)
    assert out[0] == "images: 1"
    assert out[-1].startswith("top_face_accuracy: ")


def test_crops_layout(capsys):
    out = run([str(FIXTURES / "chaseelliottpatterson"), "--jobs", "2"], capsys)
    assert "images: 18" in out


def _threads_here(_: int) -> tuple[int, int]:
    return cv2.getNumThreads(), max(pool["num_threads"] for pool in threadpool_info())


def test_workers_read_on_one_thread_each_and_leave_the_caller_alone():
    before = _threads_here(0)
    with ev.worker_pool(2) as pool:
        assert set(pool.map(_threads_here, range(4))) == {(1, 1)}
    assert _threads_here(0) == before


def test_results_do_not_depend_on_the_number_of_workers(tmp_path):
    write_photo(tmp_path, "a", [(120, 120, 3, 10), (320, 140, 6, 40)])
    write_photo(tmp_path, "b", [(200, 200, 5, 0)], lines=["4 0.5 0.5 0.2 0.2", "1 0.1 0.1 0.05 0.05"])
    samples = ev.collect(tmp_path)
    alone, shared = ev.evaluate(samples, jobs=1), ev.evaluate(samples, jobs=2)
    assert (alone.labels, alone.found, alone.matched, alone.correct) == \
        (shared.labels, shared.found, shared.matched, shared.correct)
    assert alone.labels == 4 and alone.correct >= 2


def test_matching_is_one_to_one_and_by_centre():
    labels = [ev.Label(3, 50, 50, 20, 20), ev.Label(4, 60, 50, 20, 20)]
    pairs = ev.match(labels, [(52, 50), (58, 50), (200, 200)])
    assert sorted(pairs) == [(0, 0), (1, 1)]
    assert ev.match(labels, [(55, 50)]) == [(1, 0)] or ev.match(labels, [(55, 50)]) == [(0, 0)]
    assert ev.match([ev.Label(1, 50, 50, 4, 4)], [(58, 50)]) == []


@pytest.mark.parametrize("line, message", [
    ("2 0.5 0.5 0.1", "expected 5 fields"),
    ("x 0.5 0.5 0.1 0.1", "class must be an integer"),
    ("7 0.5 0.5 0.1 0.1", "class 7 is not a die face"),
    ("2 1.5 0.5 0.1 0.1", "normalised"),
])
def test_malformed_labels_name_file_and_line(tmp_path, capsys, line, message):
    write_photo(tmp_path, "a", [(100, 100, 3, 10.0)], lines=["2 0.2 0.27 0.09 0.12", line])
    args = parser().parse_args(["vision", "evaluate", str(tmp_path), "--jobs", "1"])
    with pytest.raises(CommandError) as err:
        args.handler(args)
    assert f"{tmp_path / 'a.txt'}, line 2" in str(err.value)
    assert message in str(err.value)


def test_empty_or_missing_folder_is_a_clear_error(tmp_path):
    (tmp_path / "photo.jpg").write_bytes(b"")
    for folder, message in ((tmp_path, "no labelled images found (1 images without labels"),
                            (tmp_path / "nope", "is not a folder")):
        args = parser().parse_args(["vision", "evaluate", str(folder)])
        with pytest.raises(CommandError, match=message.replace("(", r"\(")):
            args.handler(args)


def test_unreadable_image_is_named(tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"not an image")
    (tmp_path / "a.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    args = parser().parse_args(["vision", "evaluate", str(tmp_path), "--jobs", "1"])
    with pytest.raises(CommandError, match="a.jpg: not a readable image"):
        args.handler(args)


def test_help_describes_the_layouts(capsys):
    with pytest.raises(SystemExit):
        parser().parse_args(["vision", "evaluate", "--help"])
    text = capsys.readouterr().out
    assert "--show-errors" in text and "class = pips - 1" in text


def test_one_job_reads_on_one_thread_and_gives_the_threads_back(tmp_path, monkeypatch):
    """``--jobs 1`` reads in this process, with OpenCV and numpy's BLAS on one thread as in each
    worker; the caller's threads are as they were afterwards."""
    write_photo(tmp_path, "a", [(120, 120, 3, 10)])
    seen = []
    real = ev.evaluate_sample

    def spy(sample):
        seen.append(_threads_here(0))
        return real(sample)

    monkeypatch.setattr(ev, "evaluate_sample", spy)
    before = _threads_here(0)
    ev.evaluate(ev.collect(tmp_path), jobs=1)
    assert seen == [(1, 1)]
    assert _threads_here(0) == before
