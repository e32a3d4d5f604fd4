"""The reference ``bench/vision.py`` divides the cold snapshot's time by: the same snapshot taken with
the pip reader the table had before faces were read in batches (``bench/vision_reference.py``). The
ratio means something only if the reference does the same work: it must find the same dice, read
each of them alone with that reader, and read the same faces."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from table_scenes import layout, match, profile_for

from controller.paths import PROJECT_ROOT
from controller.vision.pipeline import FrameAnalyser, TableWatcher
from controller.vision.render import random_scene, render


def _bench_vision() -> Any:
    """``bench/vision.py`` as a module (``bench`` is a folder of scripts, not a package)."""
    if "bench_vision" in sys.modules:
        return sys.modules["bench_vision"]
    spec = importlib.util.spec_from_file_location("bench_vision", PROJECT_ROOT / "bench" / "vision.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_vision"] = module
    spec.loader.exec_module(module)
    return module


def test_the_reference_reads_every_die_alone_and_the_same_faces(monkeypatch) -> None:
    bench = _bench_vision()
    reference_reader = sys.modules["vision_reference"]
    read = reference_reader.read_pips
    calls = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0].shape)
        return read(*args, **kwargs)

    monkeypatch.setattr(reference_reader, "read_pips", counted)
    prof, cam = profile_for("puxes", 8.0)
    frame = render(random_scene(layout("puxes"), 12, seed=17, temples=True, camera=cam))
    lay = layout("puxes")
    ours, theirs = TableWatcher(FrameAnalyser(lay, prof)), TableWatcher(bench.ReferenceAnalyser(lay, prof))
    ours.snapshot(frame.image, 0.0)
    assert calls == []
    theirs.snapshot(frame.image, 0.0)
    seen, read_alone = ours.last_analysis.dice, theirs.last_analysis.dice
    assert len(calls) == len(read_alone) == len(seen) == 14        # 12 loose dice and 2 temple tops
    assert [(d.x_mm, d.y_mm, d.level) for d in read_alone] == [(d.x_mm, d.y_mm, d.level) for d in seen]
    assert [d.face.pips for d in read_alone] == [d.face.pips for d in seen]
    truth = match(read_alone, list(frame.truth))
    assert len(truth) == 14 and all(found.face.pips == die.top for found, die, _ in truth)
