"""Driving simulated controllers from the keyboard (``bitbox dials watch --backend sim --keyboard``).

One controller is selected at a time; keys turn its wheels and press its button::

    q w e        direction wheel: the keys around S point the way (w = up, x = down,
    a   d        a = left, d = right, q/e/z/c = the diagonals)
    z x c
    0 .. 9       number wheel
    A B C D      symbol wheel (with Shift)
    space        hold / let go of the ready button
    Enter        tap the ready button (press, release 0.1 s later)
    u            unplug / plug the controller back
    Tab  ]  [    select the next / previous controller
    ?            show the keys
    Esc  Q       quit
"""

from __future__ import annotations

from controller.dials.sim_backend import SimBackend

#: Direction keys: a compass around the S key.
DIRECTION_KEYS: dict[str, str] = {
    "w": "up", "e": "up-right", "d": "right", "c": "down-right",
    "x": "down", "z": "down-left", "a": "left", "q": "up-left",
}

#: Symbol keys (with Shift).
SYMBOL_KEYS: dict[str, str] = {"A": "A", "B": "B", "C": "C", "D": "D"}

#: Returned by :meth:`KeyboardDriver.handle` when the user asked to quit.
QUIT = "quit"

HELP = (__doc__ or "").split("::", 1)[1].rstrip() if __doc__ else ""


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
            return f"controller {self.selected} selected"
        if key == "[":
            self.index = (self.index - 1) % len(self.backend.ids)
            return f"controller {self.selected} selected"
        if key in DIRECTION_KEYS:
            self.backend.turn(cid, "direction", DIRECTION_KEYS[key])
            return f"controller {cid}: direction wheel to {DIRECTION_KEYS[key]}"
        if key.isdigit() and len(key) == 1:
            self.backend.turn(cid, "number", int(key))
            return f"controller {cid}: number wheel to {key}"
        if key in SYMBOL_KEYS:
            self.backend.turn(cid, "symbol", SYMBOL_KEYS[key])
            return f"controller {cid}: symbol wheel to {key}"
        if key == " ":
            if cid in self.held:
                self.held.discard(cid)
                self.backend.release(cid)
                return f"controller {cid}: button let go"
            self.held.add(cid)
            self.backend.press(cid)
            return f"controller {cid}: button held"
        if key in ("\r", "\n"):
            self.backend.press(cid)
            self.backend.release(cid, after=0.1)
            return f"controller {cid}: button tapped"
        if key == "u":
            if cid in self.unplugged:
                self.unplugged.discard(cid)
                self.backend.replug(cid)
                return f"controller {cid} plugged back"
            self.unplugged.add(cid)
            self.backend.unplug(cid)
            return f"controller {cid} unplugged"
        if key == "?":
            return HELP
        return ""
