"""Controllers on one keyboard, for hot-seat play in a terminal (``bitbox play GAME --backend keyboard``).

The keys of :mod:`controller.dials.keyboard` turn the wheels and press the ready button of a
simulated board (the real ladder and debounce code behind it), one controller selected at a time:
``Tab`` passes to the next player. What a player dials is never echoed: the screen says which wheel
turned, not where to, so the next player in the hot seat cannot read it. ``p`` shows the selected
controller's wheels on a line that the next key erases, for a player to check before locking.

Keys come from the terminal (in cbreak mode, restored on close) or from any stream given as ``keys``
(a pipe, in tests): the same code reads both.
"""

from __future__ import annotations

import os
import re
import select
import signal
import sys
import threading
from collections.abc import Sequence
from typing import IO, Any, TextIO

from controller.dials.keyboard import QUIT, KeyboardDriver
from controller.dials.sim_backend import SimBackend
from controller.dials.state import DIRECTIONS, SYMBOLS, LedMode
from controller.i18n import N_, _

#: How long a tap of Enter holds the ready button, and how long it stays up before another tap (s).
TAP_HOLD_S = 0.1
TAP_GAP_S = 0.06

#: Clears the current terminal line.
ERASE = "\r\x1b[K"


#: A terminal's escape sequence (an arrow key, a function key): not a key of the controllers.
_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z~]|\x1bO[A-Za-z]")


def _keys(data: str) -> list[str]:
    """The keys in what the terminal sent, escape sequences left out (a lone Esc stays: it quits)."""
    return list(_ESCAPE.sub("", data))


class KeyboardBackend(SimBackend):
    """Simulated boards driven from the keyboard; see the module's docstring."""

    NAME = "keyboard"
    UNPLUGGED_HINT = N_("press u with it selected to plug it back in")

    def __init__(self, controllers: int | Sequence[str] = 2, keys: IO[Any] | None = None,
                 echo: TextIO | None = None, **kwargs: Any) -> None:
        super().__init__(controllers, **kwargs)
        self.keys = keys
        self.echo = echo
        self.driver = KeyboardDriver(self)
        self._reader: threading.Thread | None = None
        self._stop = threading.Event()
        self._saved_tty: Any = None
        #: Set when the players asked to quit (Esc or Q).
        self.quit = threading.Event()
        #: Controllers a bot plays (their wheels are never shown), set by the service.
        self.bot_held: set[str] = set()
        self._reasons: dict[str, str] = {}

    def start(self) -> None:
        super().start()
        stream = self.keys if self.keys is not None else sys.stdin
        self.echo = self.echo or sys.stdout
        self._reader = threading.Thread(target=self._read, args=(stream,), name="bitbox-keyboard", daemon=True)
        self._cbreak(stream)
        self._say(_("keyboard: controller {controller} selected (Tab: next player, ? for the keys)").format(
            controller=self.driver.selected) + "\n")
        self._reader.start()

    def _close(self) -> None:
        self._stop.set()
        super()._close()
        if self._saved_tty is not None:
            import termios

            fd, saved = self._saved_tty
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            self._saved_tty = None

    def _cbreak(self, stream: IO[Any]) -> None:
        """Keys one at a time, unechoed, from a terminal (a pipe is read as it is)."""
        try:
            if not stream.isatty():
                return
            import termios
            import tty

            fd = stream.fileno()
            self._saved_tty = (fd, termios.tcgetattr(fd))
            tty.setcbreak(fd)
        except (OSError, ValueError, AttributeError):
            self._saved_tty = None

    def _read(self, stream: IO[Any]) -> None:
        try:
            fd = stream.fileno()
        except (OSError, ValueError, AttributeError):
            fd = None
        while not self._stop.is_set():
            if fd is not None:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if not ready:
                    continue
                data = os.read(fd, 64).decode(errors="replace")
            else:
                data = stream.read(1)
            if not data:
                return  # the stream ended: the keyboard is gone, the game waits for the others
            for key in _keys(data):
                self._key(key)

    def _key(self, key: str) -> None:
        if key == "p":
            self._say(ERASE + self._peek(), end="")
            return
        if key in ("\r", "\n"):
            self._tap(self.driver.selected)
            return
        message = self.driver.handle(key)
        if message == QUIT:
            self._say(ERASE + _("keyboard: quitting") + "\n")
            self.quit.set()
            os.kill(os.getpid(), signal.SIGINT)  # the service stops as on Ctrl-C: saved, resumable
            return
        self._say(ERASE + self._hidden(key, message) + "\n" if message else ERASE)

    def _tap(self, cid: str) -> None:
        """Press and let go of ready; a tap that comes while the last one is still held waits for the
        button to be up long enough to count as let go, as a finger would."""
        sim = self._controller(cid)
        with self._sim_lock:
            at = max(self.clock(), sim.button[-1][0] + TAP_GAP_S)
            sim.set_button(True, at)
            sim.set_button(False, at + TAP_HOLD_S)
        self._say(ERASE + _("keyboard: controller {controller}: button tapped").format(controller=cid) + "\n")

    def _hidden(self, key: str, message: str) -> str:
        """``message`` without the position a wheel was turned to."""
        cid = self.driver.selected
        if key.isdigit() or key in "qweadzxcABCD":
            if key.isdigit():
                text = _("keyboard: {controller}: number wheel turned (p shows it, only until the next key)")
            elif key in "ABCD":
                text = _("keyboard: {controller}: symbol wheel turned (p shows it, only until the next key)")
            else:
                text = _("keyboard: {controller}: direction wheel turned (p shows it, only until the next key)")
            return text.format(controller=cid)
        return _("keyboard: {message}").format(message=message)

    def _peek(self) -> str:
        cid = self.driver.selected
        if self._controller(cid).led == LedMode.ON:
            return _("keyboard: {controller} is locked: its wheels are not shown until the reveal").format(controller=cid)
        if cid in self.bot_held:
            return _("keyboard: a bot plays {controller}: its wheels are not shown").format(controller=cid)
        target = {w: self.wheel_target(cid, w) for w in ("direction", "number", "symbol")}
        direction = "-" if target["direction"] is None else _(DIRECTIONS[target["direction"]])
        symbol = "-" if target["symbol"] is None else SYMBOLS[target["symbol"]]
        number = "-" if target["number"] is None else str(target["number"])
        why = self._reasons.get(cid)
        text = _("keyboard: {controller}: direction {direction}, number {number}, symbol {symbol} (Enter locks)").format(
            controller=cid, direction=direction, number=number, symbol=symbol)
        if why and self._controller(cid).led == LedMode.BLINK:
            text += _("; refused: {reason}").format(reason=why)
        return text

    def played_by_bots(self, controller_ids: set[str]) -> None:
        self.bot_held = set(controller_ids)

    def tell(self, controller_id: str, message: str) -> None:
        """A secret choice's refusal reason: ``p`` shows it with the wheels, on the line the next key
        erases (the next player in the hot seat must not read it)."""
        self._reasons[controller_id] = message

    def set_led(self, controller_id: str, mode: LedMode) -> None:
        """The lock light, as the players at the keyboard see it: said when it comes on or blinks."""
        before = self._controller(controller_id).led
        super().set_led(controller_id, mode)
        mode = LedMode(mode)
        if mode != before and mode in (LedMode.ON, LedMode.BLINK):
            if mode is LedMode.ON:
                text = _("keyboard: {controller} locked (its light is on)")
            else:
                text = _("keyboard: {controller} refused (its light blinks; p says why)")
            self._say(ERASE + text.format(controller=controller_id) + "\n")

    def _say(self, text: str, end: str = "") -> None:
        if self.echo is not None:
            self.echo.write(text + end)
            self.echo.flush()
