"""Simulated controllers: same debounce path as hardware, scripts, keyboard, factory and CLI."""

from __future__ import annotations

import json
import time

import pytest

from controller.cli import build_parser, main
from controller.dials.backend import ControllerError
from controller.dials.factory import open_backend
from controller.dials.gpio_backend import GpioBackend
from controller.dials.keyboard import QUIT, KeyboardDriver
from controller.dials.mock_adc import MockWiring
from controller.dials.profile import DialProfile
from controller.dials.sim_backend import ManualClock, SimBackend, parse_script
from controller.dials.state import EventKind, LedMode


@pytest.fixture
def sim():
    clock = ManualClock()
    backend = SimBackend(["1", "2"], clock=clock, poll_thread=False)
    backend.start()
    backend.advance(0.1)
    list(backend.events())
    yield backend
    backend.close()


def trace(backend):
    return [(e.kind.value, e.controller_id, e.state.direction, e.state.number, e.state.symbol, e.state.button)
            for e in backend.events()]


def test_a_turn_reports_turning_then_the_new_position_only(sim):
    sim.turn("1", "number", 6)                   # passes 1..5 on the way, 16 ms each
    numbers = []
    for _ in range(50):
        sim.advance(0.004)
        numbers.append(sim.state("1").number)
    assert numbers[0] is None and numbers[-1] == 6
    assert set(numbers) == {None, 6}
    assert trace(sim) == [("wheel", "1", 0, None, 0, False), ("wheel", "1", 0, 6, 0, False)]


def test_labels_indices_and_between(sim):
    sim.turn("2", "direction", "down-left")
    sim.turn("2", "symbol", "C")
    sim.turn("2", "number", "9")
    sim.advance(0.3)
    s = sim.state("2")
    assert (s.direction_name, s.number, s.symbol_name) == ("down-left", 9, "C")
    sim.turn("2", "symbol", None)                # left between two positions
    sim.advance(0.3)
    assert sim.state("2").symbol is None and sim.state("2").turning
    with pytest.raises(ControllerError, match="the number wheel has no position 10"):
        sim.turn("2", "number", 10)
    with pytest.raises(ControllerError, match="no position 'E'; positions: A, B, C, D"):
        sim.turn("2", "symbol", "E")
    with pytest.raises(ControllerError, match="no wheel named 'speed'"):
        sim.turn("2", "speed", 1)
    with pytest.raises(ControllerError, match="unknown controller '7'"):
        sim.press("7")


def test_press_bounces_but_reports_once(sim):
    sim.press("1")
    sim.advance(0.1)
    sim.release("1")
    sim.advance(0.1)
    assert trace(sim) == [("pressed", "1", 0, 0, 0, True), ("released", "1", 0, 0, 0, False)]
    sim.press("2")
    sim.release("2", after=0.012)                # shorter than the 20 ms press time
    sim.advance(0.1)
    assert trace(sim) == []


def test_unplug_replug_and_leds(sim):
    sim.unplug("2")
    sim.advance(0.6)
    assert [t[0] for t in trace(sim)] == ["wheel", "disconnected"]
    sim.replug("2")
    sim.advance(0.1)
    assert [t[0] for t in trace(sim)] == ["connected", "wheel"]
    sim.set_led("1", LedMode.BLINK)
    assert sim.state("1").led is LedMode.BLINK


def test_sim_and_gpio_give_the_same_event_sequences(mock_factory):
    """The same actions on a simulated controller and on mock hardware give the same events."""
    clock_s, clock_g = ManualClock(), ManualClock()
    sim = SimBackend(["1"], clock=clock_s, poll_thread=False)
    wiring = MockWiring(mock_factory)
    for wheel in ("direction", "number", "symbol"):
        wiring.turn("1", wheel, 0)
    gpio = GpioBackend(pin_factory=mock_factory, controllers=["1"], clock=clock_g, poll_thread=False,
                       profile=DialProfile(), average=1)

    def gpio_advance(seconds):
        for _ in range(int(round(seconds / 0.004))):
            clock_g.advance(0.004)
            gpio.poll()

    def gpio_turn(wheel, frm, to):              # the switch opens between each pair of positions
        step = 1 if to > frm else -1
        for pos in range(frm + step, to + step, step):
            wiring.turn("1", wheel, None)
            gpio_advance(0.004)
            wiring.turn("1", wheel, pos)
            gpio_advance(0.012)

    with sim, gpio:
        sim.advance(0.1)
        gpio_advance(0.1)
        sim.turn("1", "direction", 3)
        sim.advance(0.2)
        gpio_turn("direction", 0, 3)
        gpio_advance(0.2 - 3 * 0.016)
        sim.press("1")
        sim.advance(0.1)
        wiring.press("1")
        gpio_advance(0.1)
        sim.unplug("1")
        sim.advance(0.6)
        wiring.unplug("1")
        gpio_advance(0.6)
        got_sim, got_gpio = trace(sim), trace(gpio)
    wiring.close()
    assert got_sim == got_gpio
    assert [t[0] for t in got_sim] == ["connected", "wheel", "wheel", "wheel", "pressed", "wheel", "released",
                                      "disconnected"]


def test_noisy_simulation_never_reports_a_wrong_position():
    clock = ManualClock()
    sim = SimBackend(["1"], clock=clock, poll_thread=False, noise_u16=16 * 8, seed=3)
    sim.start()
    for target in (5, 2, 9, 0, 7):
        sim.turn("1", "number", target)
        seen = []
        for _ in range(60):
            sim.advance(0.004)
            seen.append(sim.state("1").number)
        assert set(seen) == {None, target}, target      # on its way: turning, never a passed position
        assert seen[-1] == target
    sim.close()


def test_scripts_drive_the_controllers():
    script = parse_script("""
        # a short demo
        0.0  turn 1 direction right
        0.2  turn 1 number 4
        0.5  tap 2
        0.8  unplug 2
    """)
    clock = ManualClock()
    sim = SimBackend(2, clock=clock, poll_thread=False, script=script)
    sim.start()
    sim.advance(1.5)
    events = trace(sim)
    assert ("pressed", "2", 0, 0, 0, True) in events and ("released", "2", 0, 0, 0, False) in events
    assert events[-1][:2] == ("disconnected", "2")
    assert sim.state("1").direction_name == "right" and sim.state("1").number == 4


@pytest.mark.parametrize("text, message", [
    ("soon turn 1 number 3", "line 1: 'soon' is not a time"),
    ("0 spin 1", "ACTION one of turn, press"),
    ("0 turn 1 number", "turn takes 2 argument"),
    ("1 press 1\n0.5 release 1", "line 2: times must start at 0 or later and never go back"),
])
def test_malformed_scripts_name_the_line(text, message):
    with pytest.raises(ControllerError, match=message):
        parse_script(text)


def test_script_steps_on_unknown_controllers_become_error_events():
    clock = ManualClock()
    sim = SimBackend(1, clock=clock, poll_thread=False, script=parse_script("0.1 press 9"))
    sim.start()
    sim.advance(0.2)
    errors = [e for e in sim.events() if e.kind is EventKind.ERROR]
    assert len(errors) == 1 and "script line 1" in errors[0].detail and "unknown controller '9'" in errors[0].detail


def test_polling_thread_with_the_real_clock():
    with SimBackend(["1"], sample_hz=500) as sim:
        assert sim.get_event(2.0).kind is EventKind.CONNECTED
        assert sim.get_event(2.0).kind is EventKind.WHEEL
        sim.turn("1", "symbol", "D")
        last = None
        while last is None or last.state.symbol != 3:
            last = sim.get_event(2.0)
            assert last is not None


# ---- keyboard ------------------------------------------------------------------------------------

def test_keyboard_keymap(sim):
    keys = KeyboardDriver(sim)
    assert keys.handle("d") == "controller 1: direction wheel to right"
    assert keys.handle("7") == "controller 1: number wheel to 7"
    assert keys.handle("C") == "controller 1: symbol wheel to C"
    assert keys.handle("\t") == "controller 2 selected"
    assert keys.handle("z") == "controller 2: direction wheel to down-left"
    assert keys.handle(" ") == "controller 2: button held"
    sim.advance(0.3)
    assert sim.state("2").button and sim.state("2").direction_name == "down-left"
    assert (sim.state("1").direction_name, sim.state("1").number, sim.state("1").symbol_name) == ("right", 7, "C")
    assert keys.handle(" ") == "controller 2: button let go"
    assert keys.handle("u") == "controller 2 unplugged"
    assert keys.handle("[") == "controller 1 selected"
    assert "number wheel" in keys.handle("?")
    assert keys.handle("%") == ""
    assert keys.handle("\x1b") == QUIT


# ---- factory -------------------------------------------------------------------------------------

def test_factory_by_name_config_and_environment(monkeypatch):
    assert open_backend("sim", controllers=3, poll_thread=False).ids == ["1", "2", "3"]
    backend = open_backend({"backend": "sim", "controllers": ["a"], "poll_thread": False})
    assert isinstance(backend, SimBackend) and backend.ids == ["a"]
    monkeypatch.setenv("BITBOX_DIALS", "sim")
    assert open_backend(poll_thread=False).NAME == "sim"
    monkeypatch.delenv("BITBOX_DIALS")
    assert open_backend(None, poll_thread=False).NAME == "sim"
    monkeypatch.setenv("BITBOX_DIALS", "gpio")
    assert isinstance(open_backend(profile=DialProfile(), poll_thread=False), GpioBackend)
    with pytest.raises(ControllerError, match="unknown controller backend 'usb'; choose one of sim, gpio, serial"):
        open_backend("usb")
    with pytest.raises(ControllerError, match="bad options for the sim backend"):
        open_backend("sim", wheels=4)


def test_factory_loads_the_serial_backend_lazily():
    cls = type(open_backend("serial", ports=["/dev/null-port"]))
    assert cls.NAME == "serial" and cls.__module__ == "controller.dials.serial_backend"


# ---- command line --------------------------------------------------------------------------------

def test_watch_prints_a_scripted_session(tmp_path, capsys):
    script = tmp_path / "demo.txt"
    script.write_text("0.0 turn 1 number 3\n0.2 tap 1\n")
    assert main(["dials", "watch", "--backend", "sim", "--controllers", "1", "--script", str(script),
                 "--duration", "0.8", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["event"] for x in lines] == ["connected", "wheel", "wheel", "pressed", "released"]
    assert lines[1]["number"] is None and lines[1]["direction"] == "up"   # the other wheels settle first
    assert lines[2]["number"] == 3


def test_watch_errors_are_clean(capsys, tmp_path):
    assert main(["dials", "watch", "--backend", "gpio", "--keyboard"]) == 2
    assert "add --backend sim" in capsys.readouterr().err
    assert main(["dials", "watch", "--backend", "sim", "--script", str(tmp_path / "none.txt")]) == 2
    assert "cannot read the script" in capsys.readouterr().err


def test_ladders_command_lists_every_position(capsys):
    assert main(["dials", "ladders"]) == 0
    out = capsys.readouterr().out
    assert "number wheel: 10 positions" in out and "down-left" in out and "0.297" in out


@pytest.mark.parametrize("argv", [["dials"], ["dials", "watch"], ["dials", "ladders"], ["calibrate", "dials"]])
def test_help_everywhere(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args([*argv, "--help"])
    assert exit_.value.code == 0
    assert len(capsys.readouterr().out) > 200


def test_watch_reads_a_usb_board_through_the_serial_backend(capsys):
    from firmware.fakes.pty_board import PtyBoard

    with PtyBoard() as board:
        board.turn("direction", 4)
        board.turn("number", 2)
        board.turn("symbol", 3)
        assert main(["dials", "watch", "--backend", "serial", "--port", board.port, "--duration", "1.5", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines and lines[0]["event"] == "connected"
    settled = [x for x in lines if not x["turning"]]
    assert (settled[-1]["direction"], settled[-1]["number"], settled[-1]["symbol"]) == ("down", 2, "D")


def test_keyboard_mode_in_a_real_terminal():
    """Run the command with a pseudo-terminal as its keyboard, type keys, read what it prints."""
    import os
    import subprocess
    import sys

    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "controller", "dials", "watch", "--backend", "sim",
                             "--controllers", "1", "--keyboard", "--duration", "20"],
                            stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(slave)
    try:
        time.sleep(1.0)
        for key in ("d", "6", "B", "\r"):
            os.write(master, key.encode())
            time.sleep(0.3)
        os.write(master, b"Q")
        out, err = proc.communicate(timeout=15)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    text = out.decode()
    assert proc.returncode == 0, err.decode()
    assert "controller 1: direction wheel to right" in text and "controller 1: button tapped" in text
    assert "direction=right number=6 symbol=B" in text
    assert "pressed" in text


def test_the_documented_script_runs():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "controllers.md").read_text()
    block = doc.split("```\n# seconds", 1)[1].split("```", 1)[0]
    clock = ManualClock()
    sim = SimBackend(2, clock=clock, poll_thread=False, script=parse_script("# seconds" + block))
    sim.start()
    sim.advance(3.5)
    kinds_seen = [e.kind for e in sim.events()]
    assert EventKind.ERROR not in kinds_seen
    assert kinds_seen.count(EventKind.DISCONNECTED) == 1 and kinds_seen.count(EventKind.CONNECTED) == 3
    s1, s2 = sim.state("1"), sim.state("2")
    assert (s1.direction_name, s1.number, s2.symbol_name, s2.connected) == ("right", 3, "C", True)
