"""Simulated controllers for demos and tests, read through the real ladder and debounce code.

Each simulated controller is a small physical model: three rotary switches on the ladder
design's nominal voltages, a ready button that bounces, and a plug. Its raw readings go
through a :class:`~controller.dials.reading.ControllerReader`, the very code the direct build
uses, so the service sees what it would see from hardware: a turned wheel passes through
"turning" (and through every position in between, too briefly to be reported) before it
settles, a press shows only once it has held, an unplugged controller disconnects after
``unplug_ms``.

Drive it with the programmatic API (:meth:`SimBackend.turn`, :meth:`~SimBackend.press`,
:meth:`~SimBackend.release`, :meth:`~SimBackend.unplug`, :meth:`~SimBackend.replug`), with a
timed script (:func:`parse_script`), or from the keyboard (:mod:`controller.dials.keyboard`).

>>> clock = ManualClock()
>>> sim = SimBackend(["1"], clock=clock, poll_thread=False)
>>> sim.start()
>>> sim.turn("1", "direction", "right")
>>> sim.advance(0.2)
>>> sim.state("1").direction_name
'right'
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from controller.dials.backend import ControllerBackend, ControllerError
from controller.dials.ladders import WHEEL_ORDER, LadderDesign, load_design
from controller.dials.polling import PollLoop
from controller.dials.reading import ControllerReader
from controller.dials.state import ControllerState, LedMode

#: How long a switch contact is open while passing from one position to the next (seconds).
STEP_OPEN_S = 0.004
#: How long a wheel rests on each position it passes through during a turn (seconds).
STEP_REST_S = 0.012
#: How long a pressed or released button bounces (seconds); it toggles every millisecond.
BOUNCE_S = 0.005


class ManualClock:
    """A clock that moves only when told: ``clock()`` reads it, ``advance(s)`` moves it."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclasses.dataclass
class _Segment:
    """From ``start`` on, a wheel's contact is ``position`` (``None``: open)."""

    start: float
    position: int | None


class _SimController:
    """The physical model of one controller."""

    def __init__(self, controller_id: str, design: LadderDesign, now: float,
                 positions: dict[str, int | None]) -> None:
        self.id = controller_id
        self.design = design
        self.wheels: dict[str, list[_Segment]] = {w: [_Segment(now, positions.get(w))] for w in WHEEL_ORDER}
        self.button: list[tuple[float, bool]] = [(now, False)]
        self.plugged = True
        self.led = LedMode.OFF

    def target(self, wheel: str) -> int | None:
        return self.wheels[wheel][-1].position

    def contact(self, wheel: str, now: float) -> int | None:
        segments = self.wheels[wheel]
        while len(segments) > 1 and segments[1].start <= now:
            segments.pop(0)
        return segments[0].position

    def pressed(self, now: float) -> bool:
        while len(self.button) > 1 and self.button[1][0] <= now:
            self.button.pop(0)
        return self.button[0][1]

    def turn(self, wheel: str, position: int | None, now: float) -> None:
        segments = self.wheels[wheel]
        start = max(now, segments[-1].start)
        here = segments[-1].position
        if here is None or position is None or here == position:
            path = [position]
        else:
            step = 1 if position > here else -1
            path = list(range(here + step, position + step, step))
        for pos in path:
            segments.append(_Segment(start, None))
            start += STEP_OPEN_S
            segments.append(_Segment(start, pos))
            start += STEP_REST_S

    def set_button(self, down: bool, now: float) -> None:
        start = max(now, self.button[-1][0])
        level = not down
        for i in range(int(BOUNCE_S * 1000)):
            self.button.append((start + i / 1000, level))
            level = not level
        self.button.append((start + BOUNCE_S, down))


@dataclasses.dataclass(frozen=True)
class ScriptStep:
    """One timed action of a script: at ``at`` seconds after the start, do ``action``."""

    at: float
    action: str                 # turn, press, release, tap, unplug, replug
    controller_id: str
    wheel: str = ""
    position: str = ""
    line: int = 0


#: Actions a script may use, with the arguments they take after the controller id.
SCRIPT_ACTIONS: dict[str, int] = {"turn": 2, "press": 0, "release": 0, "tap": 0, "unplug": 0, "replug": 0}


def parse_script(text: str, source: str = "<script>") -> list[ScriptStep]:
    """Read a script: one action per line, ``SECONDS ACTION CONTROLLER [WHEEL POSITION]``.

    ``#`` starts a comment. Example::

        0.0  turn    1 direction right
        0.5  turn    1 number 3
        1.0  press   1
        1.2  release 1
        2.0  unplug  2

    Raises :class:`ControllerError` naming the line of a malformed step.
    """
    steps: list[ScriptStep] = []
    for n, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{source}, line {n}"
        try:
            at = float(words[0])
        except ValueError:
            raise ControllerError(f"{where}: {words[0]!r} is not a time in seconds "
                                  "(a line is: SECONDS ACTION CONTROLLER [WHEEL POSITION])") from None
        if len(words) < 3 or words[1] not in SCRIPT_ACTIONS:
            raise ControllerError(f"{where}: expected SECONDS ACTION CONTROLLER with ACTION one of "
                                  f"{', '.join(SCRIPT_ACTIONS)}, got {raw.strip()!r}")
        action, cid, args = words[1], words[2], words[3:]
        if len(args) != SCRIPT_ACTIONS[action]:
            raise ControllerError(f"{where}: {action} takes {SCRIPT_ACTIONS[action]} argument(s) after the "
                                  f"controller, got {len(args)} ({raw.strip()!r})")
        if at < 0 or (steps and at < steps[-1].at):
            raise ControllerError(f"{where}: times must start at 0 or later and never go back ({at})")
        steps.append(ScriptStep(at, action, cid, *(args or ["", ""]), line=n))
    return steps


def load_script(path: Path | str) -> list[ScriptStep]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ControllerError(f"cannot read the script {path}: {exc.strerror}") from None
    return parse_script(text, str(path))


class SimBackend(ControllerBackend):
    """Simulated controllers, named by id (``controllers=3`` means ``"1"``, ``"2"``, ``"3"``).

    ``positions`` sets where the wheels start (default: every wheel on position 0); ``noise_u16``
    adds Gaussian noise (RMS, raw units) to every reading. With ``poll_thread=False`` nothing
    moves unless :meth:`poll` or :meth:`advance` is called (tests use a :class:`ManualClock`).
    """

    NAME = "sim"

    def __init__(
        self,
        controllers: int | Sequence[str] = 2,
        design: LadderDesign | None = None,
        clock: Callable[[], float] = time.monotonic,
        poll_thread: bool = True,
        sample_hz: float | None = None,
        positions: dict[str, int | None] | None = None,
        noise_u16: float = 0.0,
        seed: int = 0,
        script: Iterable[ScriptStep] = (),
    ) -> None:
        super().__init__(clock)
        ids = [str(i + 1) for i in range(controllers)] if isinstance(controllers, int) else [str(c) for c in controllers]
        if not ids or len(set(ids)) != len(ids):
            raise ControllerError(f"give one or more distinct controller ids, got {ids}")
        self.ids = ids
        self.design = design or load_design()
        self.poll_thread = poll_thread
        self.sample_hz = float(sample_hz or self.design.timings.sample_hz)
        self.start_positions = {w: 0 for w in WHEEL_ORDER} if positions is None else dict(positions)
        self.noise_u16 = noise_u16
        self.random = random.Random(seed)
        self.script = list(script)
        self._script_start = 0.0
        self._sim: dict[str, _SimController] = {}
        self._readers: dict[str, ControllerReader] = {}
        self._sim_lock = threading.RLock()
        self._loop: PollLoop | None = None
        self._started = False

    def known_controllers(self) -> set[str]:
        return set(self.ids)

    # ---- life cycle -------------------------------------------------------------------------

    def start(self) -> None:
        if self._closed:
            raise ControllerError("this backend is closed; open a new one")
        if self._started:
            return
        self._started = True
        now = self.clock()
        self._script_start = now
        for cid in self.ids:
            self._sim[cid] = _SimController(cid, self.design, now, self.start_positions)
            self._readers[cid] = ControllerReader(self.design.nominal_ladders(), self.design.timings)
            self._publish(ControllerState(cid, timestamp=now))
        if self.poll_thread:
            self._loop = PollLoop(self.poll, self.sample_hz, "bitbox-sim-dials")
            self._loop.start()

    def _close(self) -> None:
        if self._loop is not None:
            self._loop.stop()

    # ---- the model --------------------------------------------------------------------------

    def raw(self, controller_id: str, now: float | None = None) -> dict[str, int]:
        """What each wheel's ADC reads now (16-bit scale), noise included."""
        sim = self._controller(controller_id)
        now = self.clock() if now is None else now
        out = {}
        with self._sim_lock:
            for wheel in WHEEL_ORDER:
                pos = sim.contact(wheel, now) if sim.plugged else None
                value = 0.0 if pos is None else float(self.design.wheel(wheel).nominal_u16[pos])
                if self.noise_u16:
                    value += self.random.gauss(0.0, self.noise_u16)
                out[wheel] = max(0, min(65535, int(round(value))))
        return out

    def poll(self) -> None:
        """Run due script steps, then sample every controller once and publish what changed."""
        now = self.clock()
        self._run_script(now)
        for cid in self.ids:
            sim = self._sim[cid]
            raw = self.raw(cid, now)
            with self._sim_lock:
                down = sim.pressed(now) and sim.plugged
            reading = self._readers[cid].update(raw, down, now)
            old = self.state(cid)
            new = old.replace(connected=reading.connected, direction=reading.direction, number=reading.number,
                              symbol=reading.symbol, button=reading.button, led=sim.led, timestamp=now)
            if (new.connected, new.direction, new.number, new.symbol, new.button) != (
                    old.connected, old.direction, old.number, old.symbol, old.button):
                self._publish(new)

    def advance(self, seconds: float, step: float | None = None) -> None:
        """Move a :class:`ManualClock` on by ``seconds``, polling at the sampling rate on the way."""
        clock = self.clock
        if not isinstance(clock, ManualClock):
            raise ControllerError("advance() needs the backend built with a ManualClock")
        step = step or 1.0 / self.sample_hz
        end = clock.now + seconds
        while clock.now + step <= end + 1e-9:
            clock.advance(step)
            self.poll()

    def _run_script(self, now: float) -> None:
        while self.script and self._script_start + self.script[0].at <= now:
            step = self.script.pop(0)
            try:
                if step.action == "turn":
                    self.turn(step.controller_id, step.wheel, step.position)
                elif step.action == "tap":
                    self.press(step.controller_id)
                    self.release(step.controller_id, after=0.1)
                else:
                    getattr(self, step.action)(step.controller_id)
            except (ControllerError, ValueError) as exc:
                self._report_error(step.controller_id, f"script line {step.line}: {exc}")

    # ---- the programmatic API ---------------------------------------------------------------

    def _controller(self, controller_id: str) -> _SimController:
        try:
            return self._sim[str(controller_id)]
        except KeyError:
            known = ", ".join(self._sim) or "none (is the backend started?)"
            raise ControllerError(f"unknown controller {controller_id!r}; known controllers: {known}") from None

    def position_index(self, wheel: str, position: int | str | None) -> int | None:
        """A wheel position from an index or a label (``"right"``, ``"7"``, ``"B"``); ``None`` stays ``None``."""
        design = self.design.wheel(wheel)
        if position is None:
            return None
        if isinstance(position, str):
            if position in design.labels:
                return design.labels.index(position)
            if position.lower() in ("none", "between", "-"):
                return None
            try:
                position = int(position)
            except ValueError:
                raise ControllerError(f"the {wheel} wheel has no position {position!r}; "
                                      f"positions: {', '.join(design.labels)}") from None
        if not 0 <= position < design.positions:
            raise ControllerError(f"the {wheel} wheel has no position {position}; "
                                  f"positions are 0 to {design.positions - 1}")
        return position

    def turn(self, controller_id: str, wheel: str, position: int | str | None) -> None:
        """Turn a wheel to ``position`` (index or label; ``None`` leaves it between two positions)."""
        if wheel not in WHEEL_ORDER:
            raise ControllerError(f"no wheel named {wheel!r}; wheels: {', '.join(WHEEL_ORDER)}")
        index = self.position_index(wheel, position)
        sim = self._controller(controller_id)
        with self._sim_lock:
            sim.turn(wheel, index, self.clock())

    def wheel_target(self, controller_id: str, wheel: str) -> int | None:
        """Where a wheel was last turned to (it may still be on its way)."""
        sim = self._controller(controller_id)
        with self._sim_lock:
            return sim.target(wheel)

    def press(self, controller_id: str) -> None:
        sim = self._controller(controller_id)
        with self._sim_lock:
            sim.set_button(True, self.clock())

    def release(self, controller_id: str, after: float = 0.0) -> None:
        sim = self._controller(controller_id)
        with self._sim_lock:
            sim.set_button(False, self.clock() + after)

    def unplug(self, controller_id: str) -> None:
        sim = self._controller(controller_id)
        with self._sim_lock:
            sim.plugged = False

    def replug(self, controller_id: str) -> None:
        sim = self._controller(controller_id)
        with self._sim_lock:
            sim.plugged = True

    def set_led(self, controller_id: str, mode: LedMode) -> None:
        sim = self._controller(controller_id)
        sim.led = LedMode(mode)
        self._publish(self.state(controller_id).replace(led=sim.led))
