"""The direct build's GPIO backend on gpiozero mock pins, with simulated MCP3xxx ADCs on mock SPI."""

from __future__ import annotations

import time

import pytest
from gpiozero import Button, MCP3008, MCP3208

from controller.dials.backend import ControllerError
from controller.dials.gpio_backend import GpioBackend
from controller.dials.ladders import load_design
from controller.dials.mock_adc import MockMcp3xxx, MockWiring
from controller.dials.pinmap import load_direct_pinmap
from controller.dials.profile import DialProfile
from controller.dials.sim_backend import ManualClock
from controller.dials.state import EventKind, LedMode
from firmware.ladder_maths import compute_ladder


def run(backend, clock, seconds, step=0.004):
    for _ in range(int(round(seconds / step))):
        clock.advance(step)
        backend.poll()


def kinds(backend):
    return [(e.kind, e.controller_id) for e in backend.events()]


@pytest.fixture
def rig(mock_factory):
    wiring = MockWiring(mock_factory)
    clock = ManualClock()
    backend = GpioBackend(pin_factory=mock_factory, controllers=["1", "2", "5"], clock=clock, poll_thread=False,
                          profile=DialProfile(), average=1)
    backend.start()
    for cid in ("1", "2", "5"):
        for wheel in ("direction", "number", "symbol"):
            wiring.turn(cid, wheel, 0)
    yield wiring, backend, clock
    backend.close()
    wiring.close()


@pytest.mark.parametrize("chip, cls, bits", [("MCP3008", MCP3008, 10), ("MCP3208", MCP3208, 12)])
def test_mock_adc_speaks_the_mcp_protocol(mock_factory, chip, cls, bits):
    adc = MockMcp3xxx(11, 10, 9, 8, bits=bits, pin_factory=mock_factory)
    adc.volts[5] = 1.65
    with cls(channel=5) as dev, cls(channel=4) as other:
        assert dev.raw_value == round(((1 << bits) - 1) / 2)
        adc.volts[5] = 3.3
        assert dev.raw_value == (1 << bits) - 1
        assert other.raw_value == 0
    adc.close()


def test_controllers_connect_and_settle(rig):
    wiring, backend, clock = rig
    run(backend, clock, 0.1)
    events = list(backend.events())
    assert [(e.kind, e.controller_id) for e in events] == [
        (EventKind.CONNECTED, "1"), (EventKind.CONNECTED, "2"), (EventKind.CONNECTED, "5"),
        (EventKind.WHEEL, "1"), (EventKind.WHEEL, "2"), (EventKind.WHEEL, "5")]
    assert all(not e.state.turning for e in events[3:])
    state = backend.state("5")
    assert (state.direction_name, state.number, state.symbol_name) == ("up", 0, "A")


def test_turning_a_wheel_passes_through_turning(rig):
    wiring, backend, clock = rig
    run(backend, clock, 0.1)
    list(backend.events())
    wiring.turn("2", "number", None)        # leaves position 0: contact opens
    run(backend, clock, 0.012)
    wiring.turn("2", "number", 1)
    run(backend, clock, 0.012)
    wiring.turn("2", "number", None)
    run(backend, clock, 0.004)
    wiring.turn("2", "number", 2)           # reaches 2 and stays
    run(backend, clock, 0.1)
    events = list(backend.events())
    assert [(e.kind, e.controller_id, e.state.number) for e in events] == [
        (EventKind.WHEEL, "2", None), (EventKind.WHEEL, "2", 2)]
    assert backend.state("1").number == 0


def test_every_position_of_every_wheel_reads_back(rig):
    wiring, backend, clock = rig
    design = load_design()
    for wheel in ("direction", "number", "symbol"):
        for pos in range(design.wheel(wheel).positions):
            wiring.turn("5", wheel, pos)
            run(backend, clock, 0.06)
            assert backend.state("5").wheel(wheel) == pos


def test_button_bounce_gives_one_press_and_one_release(rig, mock_factory):
    wiring, backend, clock = rig
    run(backend, clock, 0.1)
    list(backend.events())
    for level in (0, 1, 0, 1, 0):             # contact bounce, sampled every 4 ms
        (wiring.press if level == 0 else wiring.release)("1")
        run(backend, clock, 0.004)
    run(backend, clock, 0.05)
    for level in (1, 0, 1):
        (wiring.press if level == 0 else wiring.release)("1")
        run(backend, clock, 0.004)
    run(backend, clock, 0.05)
    assert kinds(backend) == [(EventKind.PRESSED, "1"), (EventKind.RELEASED, "1")]


def test_a_tap_shorter_than_the_press_time_is_ignored(rig):
    wiring, backend, clock = rig
    run(backend, clock, 0.1)
    list(backend.events())
    wiring.press("1")
    run(backend, clock, 0.012)
    wiring.release("1")
    run(backend, clock, 0.1)
    assert kinds(backend) == []


def test_leds(rig, mock_factory):
    wiring, backend, clock = rig
    backend.set_led("2", LedMode.ON)
    assert wiring.led("2") and not wiring.led("1")
    assert backend.state("2").led is LedMode.ON
    backend.set_led("2", "off")
    assert not wiring.led("2")
    backend.set_led("5", LedMode.BLINK)
    seen = set()
    deadline = time.monotonic() + 2.0
    while len(seen) < 2 and time.monotonic() < deadline:
        seen.add(wiring.led("5"))
        time.sleep(0.02)
    assert seen == {True, False}
    with pytest.raises(ControllerError, match="unknown controller '4'; known controllers: 1, 2, 5"):
        backend.set_led("4", LedMode.ON)


def test_unplug_and_replug(rig):
    wiring, backend, clock = rig
    run(backend, clock, 0.1)
    list(backend.events())
    wiring.unplug("5")
    run(backend, clock, 0.6)
    assert kinds(backend) == [(EventKind.WHEEL, "5"), (EventKind.DISCONNECTED, "5")]
    assert not backend.state("5").connected and backend.state("1").connected
    wiring.replug("5")
    run(backend, clock, 0.1)
    assert kinds(backend) == [(EventKind.CONNECTED, "5"), (EventKind.WHEEL, "5")]


def test_a_shorted_wheel_is_reported(rig):
    wiring, backend, clock = rig
    run(backend, clock, 0.1)
    list(backend.events())
    wiring.set_volts("1", "symbol", 3.3)
    run(backend, clock, 0.2)
    events = list(backend.events())
    errors = [e for e in events if e.kind is EventKind.ERROR]
    assert len(errors) == 1 and "symbol wheel reads" in errors[0].detail and "short to 3V3" in errors[0].detail


def test_calibrated_profile_reads_a_ladder_the_nominal_one_cannot(mock_factory):
    """Resistors far off their values: positions read half a step away from the design."""
    design = load_design()
    wiring = MockWiring(mock_factory)
    step = design.wheel("number").nominal_u16[1] - design.wheel("number").nominal_u16[0]
    wiring.offset_u16[("1", "number")] = step // 2
    samples = {}
    for pos in range(10):
        wiring.turn("1", "number", pos)
        u16 = round(wiring.wheel_volts("1", "number", pos) / 3.3 * 4095) << 4
        samples[pos] = [u16 - 16, u16, u16 + 16]
    profile = DialProfile()
    profile.set("1", "number", compute_ladder(samples, avoid=()))
    for prof, expected in ((DialProfile(), None), (profile, 6)):
        clock = ManualClock()
        with GpioBackend(pin_factory=mock_factory, controllers=["1"], clock=clock, poll_thread=False,
                         profile=prof) as backend:
            for wheel in ("direction", "symbol"):
                wiring.turn("1", wheel, 0)
            wiring.turn("1", "number", 6)
            run(backend, clock, 0.1)
            assert backend.state("1").number == expected
    wiring.close()


def test_ten_bit_mcp3008_build(mock_factory, tmp_path):
    text = load_direct_pinmap().path.read_text().replace('chip = "MCP3208"', 'chip = "MCP3008"')
    path = tmp_path / "pinmap.toml"
    path.write_text(text)
    pinmap = load_direct_pinmap(path)
    wiring = MockWiring(mock_factory, pinmap=pinmap)
    assert wiring.chips["U1"].bits == 10
    clock = ManualClock()
    with GpioBackend(pinmap, pin_factory=mock_factory, controllers=["4"], clock=clock, poll_thread=False,
                     profile=DialProfile()) as backend:
        wiring.turn("4", "direction", 6)
        wiring.turn("4", "number", 9)
        wiring.turn("4", "symbol", 3)
        run(backend, clock, 0.1)
        s = backend.state("4")
        assert (s.direction_name, s.number, s.symbol_name) == ("left", 9, "D")
        assert backend.read_raw("4")["number"] % 64 == 0       # 10-bit codes on the 16-bit scale


def test_polling_thread_publishes_on_its_own(mock_factory):
    wiring = MockWiring(mock_factory)
    for wheel in ("direction", "number", "symbol"):
        wiring.turn("3", wheel, 1)
    with GpioBackend(pin_factory=mock_factory, controllers=["3"], profile=DialProfile(), sample_hz=250) as backend:
        first = backend.get_event(timeout=2.0)
        assert first is not None and first.kind is EventKind.CONNECTED
        wheel = backend.get_event(timeout=2.0)
        assert wheel.kind is EventKind.WHEEL and wheel.state.number == 1
        wiring.turn("3", "number", 4)
        while True:
            event = backend.get_event(timeout=2.0)
            assert event is not None, "the wheel never settled"
            if event.state.number == 4:
                break
    assert backend.closed
    wiring.close()


def test_pins_in_use_give_a_clear_error_and_release_what_was_opened(mock_factory):
    wiring = MockWiring(mock_factory)
    squatter = Button(13)                      # controller 5's button pin
    backend = GpioBackend(pin_factory=mock_factory, controllers=["1", "5"], poll_thread=False, profile=DialProfile())
    with pytest.raises(ControllerError, match=r"cannot open controller 5 \(button GPIO 13.*enable SPI"):
        backend.start()
    squatter.close()
    backend.close()
    # Nothing of controller 1 was left open: a new backend can take its pins.
    with GpioBackend(pin_factory=mock_factory, controllers=["1", "5"], poll_thread=False, profile=DialProfile()):
        pass
    wiring.close()
