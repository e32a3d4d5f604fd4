"""The direct build: controllers wired to the Pi's header, read with gpiozero.

Each controller's three wheel ladders are read through MCP3008/MCP3208 SPI ADCs, its ready
button is a :class:`gpiozero.Button` (to ground, internal pull-up) and its LED a
:class:`gpiozero.LED`. Pins come from ``hardware/pinmap-direct.toml``. A polling thread
samples every input at ``sample_hz`` (``hardware/ladders.toml``) and feeds a
:class:`~controller.dials.reading.ControllerReader` per controller: the same ladder and
debounce code the USB controller boards run. gpiozero's own ``bounce_time`` is not used (its
behaviour differs between pin libraries and the mock pins ignore it).

For tests and demos without a Pi, pass a :class:`gpiozero.pins.mock.MockFactory` as
``pin_factory`` and wire :class:`~controller.dials.mock_adc.MockWiring` to it.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from controller.dials.backend import ControllerBackend, ControllerError
from controller.dials.ladders import WHEEL_ORDER, LadderDesign, load_design
from controller.dials.pinmap import DirectController, DirectPinmap, load_direct_pinmap
from controller.dials.polling import PollLoop
from controller.dials.profile import DialProfile, load_profile
from controller.dials.reading import ControllerReader
from controller.dials.state import ControllerState, LedMode

log = logging.getLogger(__name__)

#: LED blink half-period in seconds (the error signal).
BLINK_S = 0.25


class _Wired:
    """One controller's gpiozero devices and its reader."""

    def __init__(self, spec: DirectController, adcs: dict[str, Any], button: Any, led: Any,
                 reader: ControllerReader, shift: int) -> None:
        self.spec = spec
        self.adcs = adcs
        self.button = button
        self.led = led
        self.reader = reader
        self.shift = shift
        self.led_mode = LedMode.OFF

    def close(self) -> None:
        for device in (*self.adcs.values(), self.button, self.led):
            try:
                device.close()
            except Exception:  # noqa: BLE001 - closing must go on whatever one device does
                log.debug("closing %r failed", device, exc_info=True)


class GpioBackend(ControllerBackend):
    """Controllers read directly on the Pi's GPIO header.

    ``pinmap``, ``design`` and ``profile`` default to the shipped pin map, the ladder design and
    the calibration profile in the state folder. ``controllers`` limits which controller ids are
    opened (default: every one in the pin map). With ``poll_thread=False`` nothing polls on its
    own: call :meth:`poll` (tests do, with an injected ``clock``). A ``pin_factory`` given here
    becomes gpiozero's default while the backend is open (its software SPI bus uses only the
    default factory).

    >>> from gpiozero.pins.mock import MockFactory
    >>> backend = GpioBackend(pin_factory=MockFactory(), controllers=["1"], poll_thread=False)
    """

    NAME = "gpio"

    def __init__(
        self,
        pinmap: DirectPinmap | Path | str | None = None,
        design: LadderDesign | None = None,
        profile: DialProfile | None = None,
        controllers: Iterable[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
        poll_thread: bool = True,
        sample_hz: float | None = None,
        average: int | None = None,
    ) -> None:
        super().__init__(clock)
        if pinmap is None or isinstance(pinmap, (str, Path)):
            pinmap = load_direct_pinmap(*(() if pinmap is None else (pinmap,)))
        self.pinmap = pinmap
        self.design = design or load_design()
        self.profile = profile if profile is not None else load_profile()
        wanted = [c.id for c in pinmap.controllers] if controllers is None else [str(c) for c in controllers]
        self.specs = [pinmap.controller(cid) for cid in wanted]
        self.pin_factory = pin_factory
        self.poll_thread = poll_thread
        self.sample_hz = float(sample_hz or self.design.timings.sample_hz)
        self.average = int(average or self.design.timings.average)
        self._wired: dict[str, _Wired] = {}
        self._loop: PollLoop | None = None
        self._io_lock = threading.Lock()
        self._previous_factory: Any = False
        self.polls = 0

    # ---- opening ----------------------------------------------------------------------------

    def _device_kwargs(self) -> dict[str, Any]:
        return {} if self.pin_factory is None else {"pin_factory": self.pin_factory}

    def _open_controller(self, spec: DirectController) -> _Wired:
        import gpiozero

        adc_class = getattr(gpiozero, self.pinmap.chip_model)
        adc = self.design.adc(self.pinmap.chip_model)
        kw = self._device_kwargs()
        opened: list[Any] = []
        try:
            adcs = {}
            for wheel in WHEEL_ORDER:
                inp = spec.wheels[wheel]
                device = adc_class(channel=inp.channel, max_voltage=self.pinmap.vref_volts,
                                   **self.pinmap.chips[inp.chip], **kw)
                opened.append(device)
                adcs[wheel] = device
            button = gpiozero.Button(spec.button, pull_up=True, bounce_time=None, **kw)
            opened.append(button)
            led = gpiozero.LED(spec.led, **kw)
            opened.append(led)
        except Exception as exc:
            for device in opened:
                device.close()
            raise ControllerError(
                f"cannot open controller {spec.id} (button GPIO {spec.button}, LED GPIO {spec.led}, "
                f"ADC {self.pinmap.chip_model}): {str(exc).rstrip('.!')}. On a Pi, enable SPI (dtparam=spi=on), add the user "
                f"to the gpio and spi groups, and check no other program uses these pins; elsewhere, use "
                f"--backend sim") from exc
        reader = ControllerReader(self.profile.ladders(spec.id, self.design), self.design.timings)
        return _Wired(spec, adcs, button, led, reader, adc.shift)

    def known_controllers(self) -> set[str]:
        return {spec.id for spec in self.specs}

    def start(self) -> None:
        if self._closed:
            raise ControllerError("this backend is closed; open a new one")
        if self._wired:
            return
        # gpiozero's shared SPI objects left over from closed devices close themselves when
        # garbage-collected, unregistering whatever shares their key by then: collect them first.
        gc.collect()
        if self.pin_factory is not None:
            from gpiozero import Device

            # gpiozero's software SPI bus only uses the default factory: make ours the default.
            if Device.pin_factory is not self.pin_factory:
                self._previous_factory = Device.pin_factory
                Device.pin_factory = self.pin_factory
        try:
            for spec in self.specs:
                self._wired[spec.id] = self._open_controller(spec)
        except ControllerError:
            for wired in self._wired.values():
                wired.close()
            self._wired.clear()
            self._restore_factory()
            raise
        for spec in self.specs:
            self._publish(ControllerState(spec.id, timestamp=self.clock()))
        if self.poll_thread:
            self._loop = PollLoop(self.poll, self.sample_hz, "bitbox-gpio-dials", self._poll_failed)
            self._loop.start()

    # ---- polling ----------------------------------------------------------------------------

    def read_raw(self, controller_id: str) -> dict[str, int]:
        """One averaged raw reading of each wheel (16-bit scale), e.g. for calibration."""
        wired = self._get(controller_id)
        with self._io_lock:
            return self._read_raw(wired)

    def _read_raw(self, wired: _Wired) -> dict[str, int]:
        raw = {}
        for wheel, device in wired.adcs.items():
            total = 0
            for _ in range(self.average):
                total += device.raw_value
            raw[wheel] = (total << wired.shift) // self.average
        return raw

    def poll(self) -> None:
        """Sample every controller once and publish what changed."""
        for cid, wired in list(self._wired.items()):
            with self._io_lock:
                if self._closed:
                    return
                raw = self._read_raw(wired)
                pressed = bool(wired.button.is_pressed)
            now = self.clock()
            reading = wired.reader.update(raw, pressed, now)
            for wheel in reading.faults:
                self._report_error(cid, f"{wheel} wheel reads {raw[wheel]}, above every position: "
                                        f"check its ladder for a short to 3V3")
            old = self.state(cid)
            new = old.replace(connected=reading.connected, direction=reading.direction, number=reading.number,
                              symbol=reading.symbol, button=reading.button, led=wired.led_mode, timestamp=now)
            if (new.connected, new.direction, new.number, new.symbol, new.button) != (
                    old.connected, old.direction, old.number, old.symbol, old.button):
                self._publish(new)
        self.polls += 1

    def _poll_failed(self, exc: Exception) -> None:
        for cid in self._wired:
            self._report_error(cid, f"reading the GPIO/ADC failed: {exc}")

    # ---- commands ---------------------------------------------------------------------------

    def _get(self, controller_id: str) -> _Wired:
        try:
            return self._wired[controller_id]
        except KeyError:
            known = ", ".join(self._wired) or "none (is the backend started?)"
            raise ControllerError(f"unknown controller {controller_id!r}; known controllers: {known}") from None

    def set_led(self, controller_id: str, mode: LedMode) -> None:
        wired = self._get(controller_id)
        mode = LedMode(mode)
        with self._io_lock:
            if mode is LedMode.ON:
                wired.led.on()
            elif mode is LedMode.BLINK:
                wired.led.blink(on_time=BLINK_S, off_time=BLINK_S, background=True)
            else:
                wired.led.off()
            wired.led_mode = mode
        self._publish(self.state(controller_id).replace(led=mode))

    def _close(self) -> None:
        if self._loop is not None:
            self._loop.stop()
        with self._io_lock:
            for wired in self._wired.values():
                wired.close()
        self._restore_factory()

    def _restore_factory(self) -> None:
        if self._previous_factory is not False:
            from gpiozero import Device

            Device.pin_factory = self._previous_factory
            self._previous_factory = False
