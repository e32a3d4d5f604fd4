"""A fake MicroPython ``machine`` module: what the controller firmware uses, backed by a :class:`World`.

A :class:`World` is the outside of one board: the voltage on each ADC pin (as a ``read_u16``
value), the level driven onto each input pin, what each output pin shows, the board's unique
id, and the reset/bootloader calls made. Pins and ADCs take an optional ``world``; without it
they use :data:`default_world`, so ``import machine`` code runs unchanged when this module is
installed as ``sys.modules["machine"]``.

ADC readings behave like the RP2040's: 12-bit conversions with about 1 LSB of Gaussian noise,
scaled to 16 bits the way ``read_u16`` does.

>>> world = World(uid=b"\\x01\\x02")
>>> world.set_adc(26, 30000)
>>> adc = ADC(Pin(26, world=world), world=world)
>>> abs(adc.read_u16() - 30000) < 16 * 6
True
"""

from __future__ import annotations

import random
import threading
import time


class World:
    """The electrical surroundings of one fake board."""

    def __init__(self, uid: bytes = b"\xe6\x61\x41\x04\x03\x12\x34\x56", noise_lsb: float = 1.0,
                 seed: int = 0) -> None:
        self.uid = bytes(uid)
        self.noise_lsb = noise_lsb
        self.adc: dict[int, int] = {}
        self.inputs: dict[int, int] = {}
        self.outputs: dict[int, int] = {}
        self.pulls: dict[int, int | None] = {}
        self.resets = 0
        self.bootloaders = 0
        self.adc_reads = 0
        self._rng = random.Random(seed)
        self._lock = threading.Lock()

    def set_adc(self, pin: int, value: int) -> None:
        """Put ``value`` (0..65535, the ``read_u16`` scale) on ADC pin ``pin``."""
        if not 0 <= value <= 65535:
            raise ValueError(f"ADC value {value} outside 0..65535")
        self.adc[pin] = int(value)

    def drive(self, pin: int, level: int | None) -> None:
        """Drive input ``pin`` to ``level`` (0 or 1), or release it (``None``: the pull decides)."""
        if level is None:
            self.inputs.pop(pin, None)
        else:
            self.inputs[pin] = 1 if level else 0

    def level(self, pin: int) -> int:
        if pin in self.inputs:
            return self.inputs[pin]
        if pin in self.outputs:
            return self.outputs[pin]
        return 1 if self.pulls.get(pin) == Pin.PULL_UP else 0

    def read_adc(self, pin: int) -> int:
        with self._lock:
            self.adc_reads += 1
            noise = self._rng.gauss(0.0, self.noise_lsb) if self.noise_lsb else 0.0
        code = int(round(self.adc.get(pin, 0) / 16.0 + noise))
        code = min(4095, max(0, code))
        return (code << 4) | (code >> 8)


default_world = World()


class Pin:
    """``machine.Pin`` for the calls the firmware makes."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id: int, mode: int = -1, pull: int | None = None, value: int | None = None,
                 world: World | None = None) -> None:
        self.id = id
        self.world = world if world is not None else default_world
        self.mode = mode
        if mode == self.IN:
            self.world.pulls[id] = pull
        if mode == self.OUT:
            self.world.outputs[id] = 1 if value else 0

    def value(self, level: int | None = None) -> int | None:
        if level is None:
            return self.world.level(self.id)
        if self.mode != self.OUT:
            raise OSError(f"pin {self.id} is not an output")
        self.world.outputs[self.id] = 1 if level else 0
        return None

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)

    def __repr__(self) -> str:
        return f"Pin({self.id})"


class ADC:
    """``machine.ADC`` on an RP2040 pin (GP26..GP29)."""

    def __init__(self, pin: Pin | int, world: World | None = None) -> None:
        self.pin = pin.id if isinstance(pin, Pin) else int(pin)
        if not 26 <= self.pin <= 29:
            raise ValueError(f"Pin({self.pin}) has no ADC: the RP2040's ADC inputs are GP26..GP29")
        self.world = world if world is not None else (pin.world if isinstance(pin, Pin) else default_world)

    def read_u16(self) -> int:
        return self.world.read_adc(self.pin)


def unique_id() -> bytes:
    return default_world.uid


def reset() -> None:
    default_world.resets += 1


def soft_reset() -> None:
    default_world.resets += 1


def bootloader() -> None:
    default_world.bootloaders += 1


class BoundMachine:
    """The ``machine`` names the firmware uses (Pin, ADC, unique_id, reset, bootloader), bound to one
    :class:`World`, so several fake boards can live in one process.

    >>> m = BoundMachine(World(uid=b"\\x07"))
    >>> m.unique_id(), m.Pin(15, m.Pin.IN, m.Pin.PULL_UP).value()
    (b'\\x07', 1)
    """

    def __init__(self, world: World) -> None:
        self.world = world

        class BoundPin(Pin):
            def __init__(self, id: int, mode: int = -1, pull: int | None = None, value: int | None = None) -> None:
                super().__init__(id, mode, pull, value, world=world)

        class BoundADC(ADC):
            def __init__(self, pin: Pin | int) -> None:
                super().__init__(pin, world=world)

        self.Pin = BoundPin
        self.ADC = BoundADC

    def unique_id(self) -> bytes:
        return self.world.uid

    def reset(self) -> None:
        self.world.resets += 1

    def bootloader(self) -> None:
        self.world.bootloaders += 1


class Clock:
    """MicroPython's ``time.ticks_ms`` and ``time.sleep_ms`` under CPython (milliseconds since creation)."""

    def __init__(self) -> None:
        self._start = time.monotonic()
        self.slept_ms = 0

    def ticks_ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000)

    def sleep_ms(self, ms: int) -> None:
        self.slept_ms += ms
        time.sleep(ms / 1000.0)
