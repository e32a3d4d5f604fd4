"""Driving simulated controllers from the keyboard (``bitbox dials watch --backend sim --keyboard``).

One controller is selected at a time; keys turn its wheels and press its button: q w e / a d / z x c
point the direction wheel, 0 to 9 the number wheel, Shift+A to D the symbol wheel, space holds the
ready button and Enter taps it, u unplugs it, Tab selects the next controller. :data:`HELP` lists
them as ``?`` shows them, in the players' language.
"""

from __future__ import annotations

from controller.dials.sim_backend import SimBackend
from controller.i18n import N_, _

#: Direction keys: a compass around the S key.
DIRECTION_KEYS: dict[str, str] = {
    "w": N_("up"), "e": N_("up-right"), "d": N_("right"), "c": N_("down-right"),
    "x": N_("down"), "z": N_("down-left"), "a": N_("left"), "q": N_("up-left"),
}

#: Symbol keys (with Shift).
SYMBOL_KEYS: dict[str, str] = {"A": "A", "B": "B", "C": "C", "D": "D"}

#: Returned by :meth:`KeyboardDriver.handle` when the user asked to quit.
QUIT = "quit"

#: The keys, as ``?`` shows them (the module's docstring says the same for readers of the code).
HELP = N_("""    q w e        direction wheel: the keys around S point the way (w = up, x = down,
    a   d        a = left, d = right, q/e/z/c = the diagonals)
    z x c
    0 .. 9       number wheel
    A B C D      symbol wheel (with Shift)
    space        hold / let go of the ready button
    Enter        tap the ready button (press, release 0.1 s later)
    u            unplug / plug the controller back
    Tab  ]  [    select the next / previous controller
    ?            show the keys
    Esc  Q       quit""")


class KeyboardDriver:
    """Turns key presses into actions on a :class:`SimBackend`'s controllers."""

    def __init__(self, backend: SimBackend) -> None:
        self.backend = backend
        self.index = 0
        self.held: set[str] = set()
        self.unplugged: set[str] = set()

    @property
    def selected(self) -> str:
        return self.backend.ids[self.index]

    def handle(self, key: str) -> str:
        """Act on one key; returns what happened (``QUIT`` to stop, ``""`` for an unbound key)."""
        cid = self.selected
        if key in ("\x1b", "Q", "\x03", "\x04"):
            return QUIT
        if key in ("\t", "]"):
            self.index = (self.index + 1) % len(self.backend.ids)
            return _("controller {controller} selected").format(controller=self.selected)
        if key == "[":
            self.index = (self.index - 1) % len(self.backend.ids)
            return _("controller {controller} selected").format(controller=self.selected)
        if key in DIRECTION_KEYS:
            self.backend.turn(cid, "direction", DIRECTION_KEYS[key])
            return _("controller {controller}: direction wheel to {direction}").format(controller=cid, direction=_(DIRECTION_KEYS[key]))
        if key.isdigit() and len(key) == 1:
            self.backend.turn(cid, "number", int(key))
            return _("controller {controller}: number wheel to {number}").format(controller=cid, number=key)
        if key in SYMBOL_KEYS:
            self.backend.turn(cid, "symbol", SYMBOL_KEYS[key])
            return _("controller {controller}: symbol wheel to {symbol}").format(controller=cid, symbol=key)
        if key == " ":
            if cid in self.held:
                self.held.discard(cid)
                self.backend.release(cid)
                return _("controller {controller}: button let go").format(controller=cid)
            self.held.add(cid)
            self.backend.press(cid)
            return _("controller {controller}: button held").format(controller=cid)
        if key in ("\r", "\n"):
            self.backend.press(cid)
            self.backend.release(cid, after=0.1)
            return _("controller {controller}: button tapped").format(controller=cid)
        if key == "u":
            if cid in self.unplugged:
                self.unplugged.discard(cid)
                self.backend.replug(cid)
                return _("controller {controller} plugged back").format(controller=cid)
            self.unplugged.add(cid)
            self.backend.unplug(cid)
            return _("controller {controller} unplugged").format(controller=cid)
        if key == "?":
            return _(HELP)
        return ""
