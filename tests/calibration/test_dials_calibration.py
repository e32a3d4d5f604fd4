"""``bitbox calibrate dials``: the guided procedure, on simulated, mock-GPIO and pseudo-terminal boards."""

from __future__ import annotations

import argparse
import time

import pytest

from calibration.dials import (
    CalibrationError,
    DirectRawSource,
    SerialRawSource,
    calibrate_controller,
    calibrate_wheel,
    run_calibration,
)
from controller.cli import main
from controller.dials.gpio_backend import GpioBackend
from controller.dials.ladders import WHEEL_ORDER, load_design
from controller.dials.mock_adc import MockWiring
from controller.dials.profile import default_profile_path, load_profile
from controller.dials.sim_backend import ManualClock, SimBackend


DESIGN = load_design()


class SimSource:
    """A raw source reading a simulated controller's noisy ADC values (RP2040 scale)."""

    def __init__(self, noise_u16: float, seed: int = 0) -> None:
        self.clock = ManualClock()
        self.sim = SimBackend(["1"], clock=self.clock, poll_thread=False, noise_u16=noise_u16, seed=seed)
        self.sim.start()
        self.adc = DESIGN.adc("rp2040")

    def read_raw(self):
        return self.sim.raw("1")

    def sleep(self, seconds):
        self.clock.advance(seconds)


class Player:
    """Answers the prompts by turning the wheel as asked (or not, to play a careless user)."""

    def __init__(self, turn, plan):
        self.turn = turn
        self.plan = list(plan)          # (wheel, position or None) per prompt, or "skip" / "q"
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        step = self.plan.pop(0)
        if step == "q":
            return "q"
        if step != "skip":
            self.turn(*step)
        return ""


def full_plan(wheels=WHEEL_ORDER):
    return [(w, p) for w in wheels for p in range(DESIGN.wheel(w).positions)]


def sim_player(source, plan):
    def turn(wheel, pos):
        source.sim.turn("1", wheel, pos)
        source.clock.advance(0.2)
    return Player(turn, plan)


def test_noisy_simulated_controller_calibrates():
    source = SimSource(noise_u16=16 * 3, seed=4)
    player = sim_player(source, full_plan())
    said = []
    ladders = calibrate_controller(source, DESIGN, player, said.append, samples=16, sleep=source.sleep)
    assert set(ladders) == set(WHEEL_ORDER)
    assert "Turn the direction wheel to 'up' (position 1 of 8)" in player.prompts[0]
    assert "Turn the symbol wheel to 'D' (position 4 of 4)" in player.prompts[-1]
    assert any(line.startswith("  right: reading") for line in said)
    for wheel, ladder in ladders.items():
        for pos, value in enumerate(DESIGN.wheel(wheel).nominal_u16):
            ladder.reset()
            assert ladder.classify(value) == pos
            assert abs(ladder.centres[pos] - value) < 16 * 6


def test_a_position_not_turned_to_makes_overlapping_positions_and_is_refused():
    source = SimSource(noise_u16=16)
    plan = full_plan(["number"])
    plan[4] = "skip"                    # the user pressed Enter without turning from 3 to 4
    player = sim_player(source, plan)
    with pytest.raises(CalibrationError, match=r"number wheel cannot be calibrated: positions overlap: 3 \(.*\) and 4"):
        calibrate_wheel(source, DESIGN, "number", player, lambda s: None, samples=8, sleep=source.sleep)


def test_a_noisy_ladder_is_refused_naming_the_position():
    source = SimSource(noise_u16=16 * 80)   # a bad solder joint: 80 LSB RMS
    player = sim_player(source, full_plan(["number"]))
    with pytest.raises(CalibrationError, match=r"number wheel cannot be calibrated: (too noisy .*position \d|positions overlap)"):
        calibrate_wheel(source, DESIGN, "number", player, lambda s: None, samples=16, sleep=source.sleep)


def test_no_contact_asks_again_then_gives_up():
    source = SimSource(noise_u16=0)
    plan = [("symbol", None), ("symbol", 0)] + full_plan(["symbol"])[1:]
    said = []
    player = sim_player(source, plan)
    ladder = calibrate_wheel(source, DESIGN, "symbol", player, said.append, samples=4, sleep=source.sleep)
    assert len(player.prompts) == 5 and any("no contact" in s for s in said)
    assert ladder.classify(DESIGN.wheel("symbol").nominal_u16[2]) == 2
    stuck = sim_player(source, [("symbol", None)] * 4)
    with pytest.raises(CalibrationError, match="reads no contact .* at 'A'.*check the wiring"):
        calibrate_wheel(source, DESIGN, "symbol", stuck, said.append, samples=4, sleep=source.sleep)


def test_quitting_stops_without_storing(_state_dir):
    source = SimSource(noise_u16=0)
    player = sim_player(source, [("direction", 0), "q"])
    args = argparse.Namespace(build="direct", controller="1", port=None, wheel=None, samples=4, profile=None)
    with pytest.raises(CalibrationError, match="calibration stopped; nothing was stored"):
        run_calibration(args, ask=player, say=lambda s: None, sleep=source.sleep, source=source)
    assert not default_profile_path().exists()


def test_a_profile_that_cannot_be_written_is_reported_clearly(tmp_path):
    source = SimSource(noise_u16=0)
    player = sim_player(source, full_plan(["symbol"]))
    profile = tmp_path / "dials.json"
    (tmp_path / "dials.json.tmp").mkdir()            # where the profile is written before it is renamed
    args = argparse.Namespace(build="direct", controller="1", port=None, wheel=["symbol"], samples=4, profile=profile)
    with pytest.raises(CalibrationError, match=r"cannot write the dial profile .*dials\.json\.tmp.*nothing was stored"):
        run_calibration(args, ask=player, say=lambda s: None, sleep=source.sleep, source=source)
    assert not profile.exists()


def _direct_args(**kw):
    base = dict(build="direct", controller="2", port=None, wheel=None, samples=6, profile=None)
    base.update(kw)
    return argparse.Namespace(**base)


def test_direct_build_end_to_end(mock_factory):
    """Resistors half a step off: the nominal ladder misreads, the calibrated profile reads right."""
    wiring = MockWiring(mock_factory, noise_lsb=1.0, seed=2)
    step = DESIGN.wheel("number").nominal_u16[1] - DESIGN.wheel("number").nominal_u16[0]
    wiring.offset_u16[("2", "number")] = step * 45 // 100
    for wheel in WHEEL_ORDER:
        wiring.turn("2", wheel, 0)
    source = DirectRawSource("2", DESIGN, pin_factory=mock_factory)
    assert wiring.led("2")                          # the controller being calibrated lights up
    player = Player(lambda wheel, pos: wiring.turn("2", wheel, pos), full_plan(["number"]))
    said = []
    assert run_calibration(_direct_args(wheel=["number"]), ask=player, say=said.append, sleep=lambda s: None,
                           source=source) == 0
    assert "stored controller 2's number wheel(s)" in said[-1]
    assert any("read outside the design's bands" in s for s in said)
    profile = load_profile()
    assert profile.adc == "mcp3208" and set(profile.controllers["2"]) == {"number"}

    def read_number(prof):
        clock = ManualClock()
        with GpioBackend(pin_factory=mock_factory, controllers=["2"], clock=clock, poll_thread=False,
                         profile=prof) as backend:
            wiring.turn("2", "number", 8)
            for _ in range(30):
                clock.advance(0.004)
                backend.poll()
            return backend.state("2").number

    from controller.dials.profile import DialProfile

    assert read_number(profile) == 8
    assert read_number(DialProfile()) != 8
    wiring.close()


def test_direct_build_refuses_and_keeps_the_old_profile(mock_factory):
    wiring = MockWiring(mock_factory)
    for wheel in WHEEL_ORDER:
        wiring.turn("2", wheel, 0)
    good = Player(lambda w, p: wiring.turn("2", w, p), full_plan(["symbol"]))
    run_calibration(_direct_args(wheel=["symbol"]), ask=good, say=lambda s: None, sleep=lambda s: None,
                    source=DirectRawSource("2", DESIGN, pin_factory=mock_factory))
    before = default_profile_path().read_text()
    plan = full_plan(["symbol"])
    plan[2] = "skip"
    careless = Player(lambda w, p: wiring.turn("2", w, p), plan)
    with pytest.raises(CalibrationError, match="positions overlap: 1 .* and 2"):
        run_calibration(_direct_args(wheel=["symbol"]), ask=careless, say=lambda s: None, sleep=lambda s: None,
                        source=DirectRawSource("2", DESIGN, pin_factory=mock_factory))
    assert default_profile_path().read_text() == before
    wiring.close()


def test_usb_build_stores_on_the_board():
    """The real SerialLink talks to the real firmware loop behind a pseudo-terminal."""
    from firmware.fakes.pty_board import PtyBoard

    with PtyBoard(noise_lsb=1.0, seed=1) as board:
        offset = 900                            # every tap 900 units above the design
        nominal = {w: DESIGN.wheel(w).nominal_u16 for w in WHEEL_ORDER}

        def turn(wheel, pos):
            board.set_raw(wheel, nominal[wheel][pos] + offset)
            time.sleep(0.03)                    # the board averages its scans

        player = Player(turn, full_plan())
        source = SerialRawSource(board.port, DESIGN)
        said = []
        args = argparse.Namespace(build="usb", controller=None, port=board.port, wheel=None, samples=4, profile=None)
        assert run_calibration(args, ask=player, say=said.append, sleep=lambda s: time.sleep(0.002),
                               source=source) == 0
        assert "stored on the controller board" in said[-1]
        stored = board.controller.ladders
        for ladder, wheel in zip(stored, board.controller.wheel_names):
            assert [abs(c - (n + offset)) < 16 * 8 for c, n in zip(ladder.centres, nominal[wheel])] == \
                [True] * len(nominal[wheel])
    assert not default_profile_path().exists()  # the USB build keeps nothing on the Pi


def test_usb_build_calibrates_every_wheel_at_once():
    args = argparse.Namespace(build="usb", controller=None, port="/dev/x", wheel=["number"], samples=4, profile=None)
    with pytest.raises(CalibrationError, match="stores all three wheels at once"):
        run_calibration(args, ask=input, say=print, source=object())


def test_command_line_errors_are_clean(capsys, _state_dir):
    assert main(["calibrate", "dials", "--build", "direct"]) == 2
    assert "--controller ID" in capsys.readouterr().err
    default_profile_path().write_text("{broken")
    assert main(["calibrate", "dials", "--build", "direct", "--controller", "1"]) == 2
    err = capsys.readouterr().err
    assert "dials-profile.json" in err and "not valid JSON" in err
    assert default_profile_path().read_text() == "{broken"
