"""A controller board's logic on a fake board with a hand-driven clock, for the firmware tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware.board import framing, protocol
from firmware.board.app import make_io
from firmware.board.control import Controller
from firmware.board.ladder import Ladder
from firmware.board.storage import Storage
from firmware.board_config import build_config, write_config
from firmware.fakes import machine as fake_machine


class Bench:
    """One Controller on a fake board, with a hand-driven millisecond clock and a capture of what it sends."""

    def __init__(self, root: Path, config: dict[str, Any] | None = None, noise_lsb: float = 1.0) -> None:
        self.config = config or build_config()
        self.root = root
        write_config(self.config, root / "config.json")
        self.world = fake_machine.World(uid=b"\x01\x23\x45\x67\x89\xab\xcd\xef", noise_lsb=noise_lsb, seed=1)
        self.machine = fake_machine.BoundMachine(self.world)
        self.pins = {w["name"]: w["pin"] for w in self.config["wheels"]}
        self.nominal = {w["name"]: Ladder.from_list(self.config["ladders"][w["name"]]) for w in self.config["wheels"]}
        for name in self.pins:
            self.turn(name, 0)
        self.out = bytearray()
        self.decoder = framing.FrameDecoder()
        self.now = 0
        self.boot()

    def boot(self) -> Controller:
        adcs, button, led = make_io(self.machine, self.config)
        self.ctl = Controller(adcs, button, led, self.out.extend, self.config, Storage(str(self.root)),
                              self.world.uid)
        return self.ctl

    def turn(self, wheel: str, position: int) -> None:
        self.world.set_adc(self.pins[wheel], self.nominal[wheel].centres[position])

    def set_raw(self, wheel: str, value: int) -> None:
        self.world.set_adc(self.pins[wheel], value)

    def press(self, down: bool = True) -> None:
        self.world.drive(self.config["button"]["pin"], 0 if down else None)

    def run(self, ms: int, step_ms: int = 1) -> None:
        """Advance the clock by ``ms``, calling step every ``step_ms``."""
        end = self.now + ms
        while self.now < end:
            self.now += step_ms
            self.ctl.step(self.now)

    def messages(self) -> list[protocol.Message]:
        """Everything sent since the last call, decoded (a bad frame fails the test)."""
        items = self.decoder.feed(bytes(self.out))
        self.out.clear()
        msgs = []
        for item in items:
            assert isinstance(item, bytes), item
            msgs.append(protocol.decode(item))
        return msgs

    def states(self) -> list[protocol.Message]:
        return [m for m in self.messages() if m.kind == protocol.STATE]

    def command(self, kind: int, seq: int = 1, **fields: Any) -> list[protocol.Message]:
        """Send one command; returns the non-STATE messages it caused (earlier output is discarded)."""
        self.messages()
        self.ctl.feed(framing.encode_frame(protocol.encode(kind, seq, **fields)))
        return [m for m in self.messages() if m.kind != protocol.STATE]

    @property
    def led(self) -> int:
        return self.world.outputs.get(self.config["led"]["pin"], 0)
