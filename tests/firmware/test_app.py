"""The board's wiring (app.py, main.py) and the MicroPython subset the board files keep to."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from firmware.board import app, framing, protocol
from firmware.board.app import run, serve
from firmware.board.control import Controller
from firmware.board.storage import Storage
from firmware.board_config import build_config, write_config
from firmware.fakes import machine as fake_machine

BOARD = Path(app.__file__).resolve().parent

#: Modules a board file may import: MicroPython's built-ins and the board's own files.
ALLOWED_IMPORTS = {"gc", "json", "os", "sys", "time", "select", "machine", "micropython", "binascii", "zlib", "array",
                   "framing", "protocol", "control", "storage", "ladder", "debounce", "app", "startup"}


@pytest.mark.parametrize("path", sorted(BOARD.glob("*.py")), ids=lambda p: p.name)
def test_board_files_keep_to_the_micropython_subset(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        assert not isinstance(node, ast.NamedExpr), f"{path.name}:{node.lineno}: walrus"
        assert not isinstance(node, (ast.AnnAssign,)), f"{path.name}:{node.lineno}: annotation"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.returns is None, f"{path.name}:{node.lineno}: return annotation"
            for arg in node.args.args + node.args.kwonlyargs:
                assert arg.annotation is None, f"{path.name}:{node.lineno}: argument annotation"
        if isinstance(node, ast.FormattedValue):
            raise AssertionError(f"{path.name}:{node.lineno}: f-string (kept out for older MicroPython)")
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name in ALLOWED_IMPORTS, f"{path.name}: imports {alias.name}"
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                assert node.module in ALLOWED_IMPORTS, f"{path.name}: imports from {node.module}"
            for alias in node.names:
                assert alias.name != "*"


def test_main_py_only_starts_the_app() -> None:
    text = (BOARD / "main.py").read_text(encoding="utf-8")
    assert "import app" in text and "app.run()" in text  # its start-up order: tests/firmware/test_boot.py


def _world_and_machine() -> tuple[fake_machine.World, fake_machine.BoundMachine]:
    world = fake_machine.World(uid=b"\x42" * 8)
    return world, fake_machine.BoundMachine(world)


def test_run_without_config_explains_and_returns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, machine = _world_and_machine()
    assert run(machine, str(tmp_path)) == "config"
    assert "bitbox firmware flash" in capsys.readouterr().out


def test_run_with_the_button_held_leaves_the_repl_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = build_config()
    write_config(config, tmp_path / "config.json")
    world, machine = _world_and_machine()
    world.drive(config["button"]["pin"], 0)
    assert run(machine, str(tmp_path)) == "held"
    assert "REPL" in capsys.readouterr().out


@pytest.mark.parametrize("damage", ["keys", "ladder", "positions", "json"])
def test_run_with_a_malformed_config_explains(tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    config = build_config()
    if damage == "keys":
        text = json.dumps({"schema": 1})
    elif damage == "ladder":
        config["ladders"]["number"][4] = 65000  # a band that overlaps every other
        text = json.dumps(config)
    elif damage == "positions":
        config["wheels"][2]["positions"] = 5
        text = json.dumps(config)
    else:
        text = json.dumps(config)[:-20]
    (tmp_path / "config.json").write_text(text)
    _, machine = _world_and_machine()
    assert run(machine, str(tmp_path)) == "config"
    assert "flash" in capsys.readouterr().out


class ScriptedPort:
    """A byte pipe that hands the loop a fixed input and records its output."""

    def __init__(self, incoming: bytes) -> None:
        self.incoming = bytearray(incoming)
        self.out = bytearray()
        self.waits = 0

    def write(self, data: bytes) -> None:
        self.out += data

    def read_available(self, limit: int) -> bytes:
        data = bytes(self.incoming[:limit])
        del self.incoming[:limit]
        return data

    def wait(self, ms: int) -> None:
        self.waits += 1


def test_serve_runs_until_the_host_asks_for_the_repl(tmp_path: Path) -> None:
    config = build_config()
    write_config(config, tmp_path / "config.json")
    world, machine = _world_and_machine()
    adcs, button, led = app.make_io(machine, config)
    incoming = (framing.encode_frame(protocol.encode(protocol.PING, 1, token=5))
                + framing.encode_frame(protocol.encode(protocol.STOP, 2)))
    port = ScriptedPort(incoming)
    ctl = Controller(adcs, button, led, port.write, config, Storage(str(tmp_path)), world.uid)
    clock = iter(range(0, 10**6))
    assert serve(ctl, port, lambda: next(clock)) == "stop"
    kinds = [protocol.decode(p).kind for p in framing.FrameDecoder().feed(bytes(port.out))]
    assert kinds[0] == protocol.HELLO and protocol.PONG in kinds and kinds[-1] == protocol.ACK


@pytest.mark.parametrize("command, action", [(protocol.STOP, "stop"), (protocol.BOOTLOADER, "bootloader")])
def test_run_obeys_stop_and_bootloader(tmp_path: Path, command: int, action: str) -> None:
    write_config(build_config(), tmp_path / "config.json")
    world, machine = _world_and_machine()
    port = ScriptedPort(framing.encode_frame(protocol.encode(command, 1)))
    clock = fake_machine.Clock()
    assert run(machine, str(tmp_path), port=port, clock=clock) == action
    replies = [protocol.decode(p) for p in framing.FrameDecoder().feed(bytes(port.out))]
    assert replies[0].kind == protocol.HELLO and replies[0].uid == world.uid
    assert (replies[-1].kind, replies[-1].command, replies[-1].status) == (protocol.ACK, command, protocol.OK)
    assert world.bootloaders == (1 if action == "bootloader" else 0)
    assert clock.slept_ms == (100 if action == "bootloader" else 0)  # the acknowledgement leaves first


class ExplodingPort(ScriptedPort):
    def read_available(self, limit: int) -> bytes:
        raise RuntimeError("simulated firmware fault")


def test_run_restarts_the_board_after_a_fault(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_config(build_config(), tmp_path / "config.json")
    world, machine = _world_and_machine()
    clock = fake_machine.Clock()
    clock.sleep_ms = lambda ms: setattr(clock, "slept_ms", clock.slept_ms + ms)  # no real 2 s wait
    assert run(machine, str(tmp_path), port=ExplodingPort(b""), clock=clock) == "fault"
    assert world.resets == 1 and clock.slept_ms == 2000
    assert "simulated firmware fault" in capsys.readouterr().out


def test_serve_stops_when_asked(tmp_path: Path) -> None:
    config = build_config()
    world, machine = _world_and_machine()
    adcs, button, led = app.make_io(machine, config)
    port = ScriptedPort(b"")
    ctl = Controller(adcs, button, led, port.write, config, None, world.uid)
    calls = []
    assert serve(ctl, port, lambda: len(calls), lambda: calls.append(1) or len(calls) > 50) is None
    assert ctl.scans > 10 and port.waits > 10


def test_fake_adc_behaves_like_the_rp2040() -> None:
    world, machine = _world_and_machine()
    world.set_adc(26, 40000)
    adc = machine.ADC(machine.Pin(26))
    readings = [adc.read_u16() for _ in range(200)]
    assert all(r & 0xF == r >> 12 for r in readings)  # 12-bit codes scaled like read_u16
    assert abs(sum(readings) / len(readings) - 40000) < 16
    assert len(set(readings)) > 1  # noisy
    with pytest.raises(ValueError):
        machine.ADC(machine.Pin(5))
