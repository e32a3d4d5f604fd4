"""config.json, built from the hardware data files for the board."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.dials.ladders import DataFileError, load_design
from firmware.board.ladder import Ladder
from firmware.board.storage import Storage
from firmware.board_config import DEFAULT_PINMAP, DEFAULT_SETTINGS, build_config, write_config


def test_config_follows_the_data_files(tmp_path: Path) -> None:
    config = build_config()
    design = load_design()
    assert [w["name"] for w in config["wheels"]] == ["direction", "number", "symbol"]
    assert [w["pin"] for w in config["wheels"]] == [26, 27, 28]
    assert config["button"] == {"pin": 15, "active_low": True}
    assert config["led"] == {"pin": 14, "active_high": True}
    assert config["wheel_settle_ms"] == design.timings.wheel_settle_ms
    assert Ladder.from_list(config["ladders"]["number"]).centres == list(design.wheel("number").nominal_u16)
    assert config["scan_hz"] >= 500 and config["heartbeat_ms"] == 100
    # What the board reads back is the same.
    write_config(config, tmp_path / "config.json")
    assert Storage(str(tmp_path)).load_config() == config


def test_a_direct_build_pinmap_is_refused() -> None:
    with pytest.raises(DataFileError, match="direct"):
        build_config(DEFAULT_PINMAP.with_name("pinmap-direct.toml"))


def test_settings_below_the_least_usable_value_are_refused(tmp_path: Path) -> None:
    text = DEFAULT_SETTINGS.read_text(encoding="utf-8").replace("scan_hz = 1000", "scan_hz = 100")
    path = tmp_path / "settings.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match="scan_hz"):
        build_config(settings=path)


def test_a_wheel_off_the_adc_pins_is_refused(tmp_path: Path) -> None:
    text = DEFAULT_PINMAP.read_text(encoding="utf-8").replace("pin = 27, adc_channel = 1", "pin = 5, adc_channel = 1")
    path = tmp_path / "pinmap.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match="number"):
        build_config(path)
