"""MicroPython's start-up on a Pico, modelled under CPython, to test main.py against a host that talks early.

The board files run unchanged (compiled by CPython, run with stand-ins for ``machine``, ``gc``,
``micropython``, ``time``, ``sys``, ``select`` and ``os``), on a virtual millisecond clock that
only moves when the board waits, sleeps or compiles. What the model keeps of MicroPython
(``ports/rp2/main.c``, ``shared/runtime/pyexec.c``, the USB CDC receive callback):

- Bytes from the host arrive at the times they were scheduled. A byte equal to the current
  interrupt character is a Ctrl-C: the input buffer is emptied and a KeyboardInterrupt becomes
  pending. Any other byte waits in the input buffer for whoever reads the port.
- The interrupt character is off (-1) from power-up. pyexec compiles main.py with it off, sets
  it to 0x03 just before running main.py's code and turns it off again when main.py ends;
  ``micropython.kbd_intr(c)`` sets it.
- Importing a board module costs its compile time from source (``COMPILE_MS_PER_KB`` per KiB,
  most of a second for all of them, as measured on an RP2040), during which bytes keep
  arriving. A pending KeyboardInterrupt is raised at the next check point: an import statement
  (before and after the compile), a sleep, a wait on the port.
- ``machine.soft_reset()`` restarts the interpreter (main.py runs again, unless the REPL was
  left in raw mode, as on the board); ``machine.reset()`` restarts the chip.
- When main.py ends, normally or with an uncaught exception, the REPL owns the port. It is
  modelled with the control bytes that matter: 0x01 raw mode, 0x02 friendly mode, 0x03 clear,
  0x04 run or soft-reset (on an empty line), 0x05 paste mode, ``\\r`` run a friendly line. Code
  typed by stray frames is recorded in :attr:`SimBoard.typed`, never run: it is never the firmware.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     board = SimBoard(d)
...     board.host_sends(1500, hello_req(0))
...     board.run(until_ms=1600)
...     board.state, [m.reply_to for m in board.replies(protocol.HELLO)]
('main.py', [65535, 0])
"""

from __future__ import annotations

import builtins
import heapq
import json
import types
from pathlib import Path
from typing import Any

from firmware.board import framing, protocol
from firmware.board_config import build_config, write_config
from firmware.fakes import machine as fake_machine

#: The board's own files, as they are copied onto a Pico.
BOARD_DIR = Path(__file__).resolve().parents[2] / "firmware" / "board"

#: Compile time of a module from source, per KiB of source (62 KiB of board files: about 0.9 s).
COMPILE_MS_PER_KB = 15.0

#: MicroPython's ticks wrap at 2**30 ms.
TICKS_PERIOD = 1 << 30

CTRL_A, CTRL_B, CTRL_C, CTRL_D, CTRL_E = 1, 2, 3, 4, 5

BANNER = b"MicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040\r\nType \"help()\" for more information.\r\n>>> "


class SimulationOver(BaseException):
    """The virtual clock reached the end of the run (not an Exception: nothing on the board catches it)."""


class SoftReset(SystemExit):
    """``machine.soft_reset()``: MicroPython raises SystemExit and pyexec restarts the interpreter."""


class HardReset(SystemExit):
    """``machine.reset()``: the chip restarts."""


def hello_req(seq: int) -> bytes:
    """A HELLO_REQ frame, as the host sends it."""
    return framing.encode_frame(protocol.encode(protocol.HELLO_REQ, seq))


def frame(kind: int, seq: int, **fields: Any) -> bytes:
    return framing.encode_frame(protocol.encode(kind, seq, **fields))


class _Stream:
    def __init__(self, board: SimBoard, name: str) -> None:
        self.board = board
        self.name = name
        self.buffer = self

    def read(self, n: int = 1) -> bytes:
        return self.board.read_port(n)

    def readinto(self, buf: bytearray) -> int:
        data = self.board.read_port(len(buf))
        buf[:len(data)] = data
        return len(data)

    def write(self, data: bytes | str) -> int:
        self.board.write(data.encode() if isinstance(data, str) else bytes(data))
        return len(data)


class _Poll:
    def __init__(self, board: SimBoard) -> None:
        self.board = board
        self.obj: Any = None

    def register(self, obj: Any, mask: int = 1) -> None:
        self.obj = obj

    def poll(self, timeout: int = -1) -> list[tuple[Any, int]]:
        board = self.board
        if not board.stdin and timeout != 0:
            board.advance(max(1, timeout))
            board.check_interrupt()
        return [(self.obj, 1)] if board.stdin else []

    def ipoll(self, timeout: int = -1) -> Any:
        return iter(self.poll(timeout))


class SimMachine(fake_machine.BoundMachine):
    """``machine`` with resets that restart the simulated interpreter."""

    def reset(self) -> None:
        self.world.resets += 1
        raise HardReset()

    def soft_reset(self) -> None:
        raise SoftReset()


class SimBoard:
    """One Pico with MicroPython and the bitbox files, started by :meth:`run`; see the module docstring.

    ``flash_dir`` is the board's filesystem (config.json is written there unless ``config`` is
    ``False``); ``main_source`` replaces main.py (to show what an older one did).
    """

    _code_cache: dict[tuple[str, str], types.CodeType] = {}

    def __init__(self, flash_dir: str | Path, config: dict[str, Any] | bool | None = None,
                 main_source: str | None = None, world: fake_machine.World | None = None,
                 board_dir: Path = BOARD_DIR) -> None:
        self.flash_dir = Path(flash_dir)
        self.board_dir = board_dir
        self.config = build_config() if config is None or config is True else config
        if config is not False:
            write_config(self.config, self.flash_dir / "config.json")
        self.main_source = main_source if main_source is not None else (board_dir / "main.py").read_text()
        self.world = world or fake_machine.World(uid=b"\x5e\x1f\x00\x01\x02\x03\x04\x05", noise_lsb=0.0)
        for wheel in self.config["wheels"]:
            self.world.adc.setdefault(wheel["pin"], self.config["ladders"][wheel["name"]][4])
        self.machine = SimMachine(self.world)
        self.now = 0.0
        self.until = 0.0
        self.stdin = bytearray()
        self.out = bytearray()
        self.interrupt_char = -1
        self.pending_interrupt = False
        self.ctrl_c_when_main_starts = False
        self.repl_mode = "friendly"
        self.state = "off"
        self.boots: list[tuple[float, str]] = []
        self.ctrl_c_count = 0
        self.main_errors: list[BaseException] = []
        self.typed: list[bytes] = []
        self.modules: dict[str, Any] = {}
        self._schedule: list[tuple[float, int, bytes]] = []
        self._order = 0
        self._sent: list[tuple[float, bytes]] = []
        self.builtins = dict(vars(builtins))
        self.builtins["__import__"] = self._import
        self.builtins["print"] = self._print
        self.builtins["open"] = self._open

    # ---- the host's side -------------------------------------------------------------------

    def host_sends(self, at_ms: float, data: bytes) -> None:
        """Have the host write ``data`` to the port at ``at_ms`` after power-up."""
        heapq.heappush(self._schedule, (float(at_ms), self._order, bytes(data)))
        self._order += 1

    def sent_since(self, at_ms: float) -> bytes:
        """What the board wrote to the port from ``at_ms`` on."""
        return b"".join(data for t, data in self._sent if t >= at_ms)

    def messages(self, since_ms: float = 0.0) -> list[protocol.Message]:
        """The board's valid messages (text and broken frames skipped), from ``since_ms`` on."""
        msgs = []
        for item in framing.FrameDecoder().feed(b"\x00" + self.sent_since(since_ms)):
            if isinstance(item, bytes):
                try:
                    msgs.append(protocol.decode(item))
                except framing.FrameError:
                    pass
        return msgs

    def replies(self, kind: int, since_ms: float = 0.0) -> list[protocol.Message]:
        return [m for m in self.messages(since_ms) if m.kind == kind]

    # ---- time and the port -----------------------------------------------------------------

    def advance(self, ms: float) -> None:
        """Let ``ms`` pass: deliver what the host sent meanwhile; :class:`SimulationOver` at the end."""
        target = self.now + ms
        while self._schedule and self._schedule[0][0] <= target:
            at, _, data = heapq.heappop(self._schedule)
            self.now = max(self.now, at)
            for byte in data:
                self._receive(byte)
        self.now = target
        if self.now >= self.until:
            raise SimulationOver()

    def _receive(self, byte: int) -> None:
        if byte == self.interrupt_char:
            self.stdin.clear()  # as the rp2 USB receive callback does
            self.pending_interrupt = True
            self.ctrl_c_count += 1
        else:
            self.stdin.append(byte)

    def check_interrupt(self) -> None:
        """A point where the VM raises a pending KeyboardInterrupt."""
        if self.pending_interrupt:
            self.pending_interrupt = False
            raise KeyboardInterrupt()

    def read_port(self, n: int) -> bytes:
        while not self.stdin:
            self.advance(1)
            self.check_interrupt()
        data = bytes(self.stdin[:n])
        del self.stdin[:n]
        return data

    def write(self, data: bytes) -> None:
        self.out += data
        self._sent.append((self.now, bytes(data)))

    def _print(self, *args: Any, sep: str = " ", end: str = "\n", file: Any = None) -> None:
        self.write((sep.join(str(a) for a in args) + end).replace("\n", "\r\n").encode())

    # ---- the interpreter -------------------------------------------------------------------

    def _open(self, path: str, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        return open(self._path(path), mode, *args, **kwargs)

    def _path(self, path: str) -> str:
        return str(self.flash_dir / str(path).lstrip("/"))

    def _builtin_modules(self) -> dict[str, Any]:
        board = self

        def kbd_intr(char: int) -> None:
            board.interrupt_char = char

        def sleep_ms(ms: int) -> None:
            board.advance(ms)
            board.check_interrupt()

        def ticks_diff(a: int, b: int) -> int:
            return ((a - b + TICKS_PERIOD // 2) & (TICKS_PERIOD - 1)) - TICKS_PERIOD // 2

        fs = types.SimpleNamespace(
            rename=lambda a, b: __import__("os").replace(self._path(a), self._path(b)),
            remove=lambda a: __import__("os").remove(self._path(a)),
            sync=lambda: None)
        return {
            "micropython": types.SimpleNamespace(kbd_intr=kbd_intr),
            "machine": self.machine,
            "time": types.SimpleNamespace(
                ticks_ms=lambda: int(self.now) & (TICKS_PERIOD - 1), ticks_diff=ticks_diff,
                ticks_add=lambda a, b: (a + b) & (TICKS_PERIOD - 1), sleep_ms=sleep_ms,
                sleep=lambda s: sleep_ms(int(s * 1000))),
            "sys": types.SimpleNamespace(stdin=_Stream(self, "stdin"), stdout=_Stream(self, "stdout"),
                                         implementation=types.SimpleNamespace(name="micropython"),
                                         modules=self.modules),
            "gc": types.SimpleNamespace(collect=lambda: None),
            "select": types.SimpleNamespace(poll=lambda: _Poll(self), POLLIN=1),
            "os": fs,
            "json": json,
            "array": __import__("array"),
            "binascii": __import__("binascii"),
            "zlib": __import__("zlib"),
        }

    def _compile(self, name: str, source: str) -> types.CodeType:
        key = (name, source)
        code = self._code_cache.get(key)
        if code is None:
            code = self._code_cache[key] = compile(source, name, "exec")
        return code

    def compile_ms(self, source: str) -> float:
        return len(source.encode()) / 1024.0 * COMPILE_MS_PER_KB

    def _import(self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                level: int = 0) -> Any:
        if level:
            raise ImportError("can't perform relative import")
        self.check_interrupt()  # the import statement
        if name in self.modules:
            return self.modules[name]
        builtin = self._builtin_modules().get(name)
        if builtin is not None:
            self.modules[name] = builtin
            return builtin
        path = self.board_dir / (name + ".py")
        if not path.is_file():
            raise ImportError("no module named '%s'" % name)
        source = path.read_text(encoding="utf-8")
        self.advance(self.compile_ms(source))  # compiling: bytes keep arriving
        self.check_interrupt()  # the module's first bytecode
        module = types.ModuleType(name)
        module.__dict__.update(__builtins__=self.builtins, __file__=name + ".py")
        self.modules[name] = module
        try:
            exec(self._compile(name + ".py", source), module.__dict__)
        except BaseException:
            self.modules.pop(name, None)
            raise
        return module

    def _run_main(self) -> str | None:
        """pyexec_file("main.py"): ``"soft"``/``"hard"`` for a reset, ``None`` when it ended."""
        self.state = "main.py"
        self.advance(self.compile_ms(self.main_source))  # compiled with Ctrl-C still off
        self.interrupt_char = CTRL_C
        if self.ctrl_c_when_main_starts:  # a Ctrl-C in the first microseconds of main.py
            self.ctrl_c_when_main_starts = False
            self.pending_interrupt = True
        namespace = {"__name__": "__main__", "__builtins__": self.builtins}
        try:
            exec(self._compile("main.py", self.main_source), namespace)
            self.interrupt_char = -1
            self.check_interrupt()  # mp_handle_pending once main.py has returned
        except SoftReset:
            return "soft"
        except HardReset:
            return "hard"
        except SimulationOver:
            raise
        except BaseException as exc:  # an uncaught exception: traceback, then the REPL
            self.main_errors.append(exc)
            self.write(("Traceback (most recent call last):\r\n%s: %s\r\n" % (type(exc).__name__, exc)).encode())
        finally:
            self.interrupt_char = -1
            self.pending_interrupt = False
        return None

    def _repl(self) -> str:
        """The REPL on the port until it soft-resets; returns ``"soft"``."""
        line = bytearray()
        self.write(b"raw REPL; CTRL-B to exit\r\n>" if self.repl_mode == "raw" else BANNER)
        while True:
            self.state = {"raw": "raw REPL", "paste": "paste mode"}.get(self.repl_mode, "REPL")
            c = self.read_port(1)[0]
            if self.repl_mode == "raw":
                if c == CTRL_A:
                    line.clear()
                    self.write(b"raw REPL; CTRL-B to exit\r\n>")
                elif c == CTRL_B:
                    line.clear()
                    self.repl_mode = "friendly"
                    self.write(b"\r\n" + BANNER)
                elif c == CTRL_C:
                    line.clear()
                elif c == CTRL_D:
                    self.write(b"OK")
                    if not line:
                        return "soft"
                    self._typed(line, b"\x04Traceback: SyntaxError\x04>")
                else:
                    line.append(c)
            elif self.repl_mode == "paste":
                if c == CTRL_C:
                    line.clear()
                    self.repl_mode = "friendly"
                    self.write(b"\r\n>>> ")
                elif c == CTRL_D:
                    self.repl_mode = "friendly"
                    self._typed(line, b"\r\nSyntaxError\r\n>>> ")
                else:
                    line.append(c)
            else:
                if c == CTRL_A and not line:
                    self.repl_mode = "raw"
                    self.write(b"\r\nraw REPL; CTRL-B to exit\r\n>")
                elif c == CTRL_B and not line:
                    self.write(b"\r\n" + BANNER)
                elif c == CTRL_C:
                    line.clear()
                    self.write(b"\r\n>>> ")
                elif c == CTRL_D and not line:
                    self.write(b"\r\n")
                    return "soft"
                elif c == CTRL_E and not line:
                    self.repl_mode = "paste"
                    self.write(b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
                elif c == 0x0D:
                    self._typed(line, b"\r\nSyntaxError\r\n>>> ")
                elif 32 <= c <= 126:
                    line.append(c)

    def _typed(self, line: bytearray, answer: bytes) -> None:
        if bytes(line).strip():
            self.typed.append(bytes(line))
            self.write(answer)
        line.clear()

    def run(self, until_ms: float) -> None:
        """Power the board up and run it until ``until_ms`` (once per board: schedule the host's bytes first)."""
        if self.state != "off":
            raise RuntimeError("a SimBoard powers up once: make a new one")
        self.until = float(until_ms)
        reason = "power-up"
        try:
            while True:
                self.boots.append((self.now, reason))
                self.modules = {}
                self.interrupt_char = -1
                how = self._run_main() if self.repl_mode == "friendly" else None
                if how is None:
                    how = self._repl()
                if how == "hard":
                    self.stdin.clear()
                    self.repl_mode = "friendly"
                else:
                    self.write(b"MPY: soft reboot\r\n")
                reason = how
        except SimulationOver:
            pass
