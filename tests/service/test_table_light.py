"""A lamp lit in the middle of a refereed game: the table follows the light, keeps refereeing, and
tells the players what to do about it. The demo table is seen through the real camera pipeline."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .driven_table import Driven


def test_a_lamp_lit_mid_game_is_followed_and_announced(tmp_path: Path) -> None:
    driven = Driven(tmp_path)
    try:
        tr, snap = driven.show()
        driven.answer(snap, tr)
        assert driven.agrees() == []
        assert not [e for e in driven.session.log if e["kind"] == "camera"]
        camera = driven.demo.camera
        camera.lighting = dataclasses.replace(camera.lighting, brightness=1.35, gradient=0.5)
        driven.finish()
        notices = [e["text"] for e in driven.session.public_state()["log"] if e["kind"] == "camera"]
        assert len(notices) == 1
        assert notices[0].startswith("the light changed since the mat was calibrated")
        assert notices[0].endswith("calibrate the mat again to keep it")
    finally:
        driven.close()
