"""Debouncing wheels and buttons against a millisecond clock.

A wheel must never report a wrong number: while its classified reading changes, it reports
-1 ("turning") at once, and it reports a position only after that position has been read
without interruption for ``settle_ms``. A button keeps its last steady level until a new level
has held for its settle time, so a bounce never shows as a press.

The clock is passed in (``now_ms``), so the same logic runs on the board with
``time.ticks_ms()`` and on the host or in tests with any integer clock. Under MicroPython,
``time.ticks_diff`` handles the wrap of ``ticks_ms``; under CPython plain subtraction is used.
Runs unchanged under MicroPython and CPython.
"""

try:
    from time import ticks_diff  # MicroPython
except ImportError:
    def ticks_diff(a, b):
        """``a - b`` in milliseconds (CPython clocks do not wrap)."""
        return a - b

#: What a wheel reports while it is between positions or not yet settled.
TURNING = -1


class Debouncer:
    """Reports a value once it has been read unchanged for ``settle_ms``, and -1 until then.

    ``initial`` is taken as already settled (use -1, the default, when nothing is known yet).

    >>> d = Debouncer(30)
    >>> [d.update(v, t) for v, t in ((3, 0), (3, 20), (3, 30), (4, 40), (3, 50))]
    [-1, -1, 3, -1, -1]
    """

    def __init__(self, settle_ms, initial=TURNING):
        if settle_ms < 0:
            raise ValueError("settle_ms must be 0 or more, got %r" % (settle_ms,))
        self.settle_ms = settle_ms
        self.candidate = initial
        self.since = 0
        self.settled = True
        self.value = initial

    def update(self, value, now_ms):
        """Feed one classified reading taken at ``now_ms``; returns the value to report."""
        if value != self.candidate:
            self.candidate = value
            self.since = now_ms
            self.settled = False
        if not self.settled and ticks_diff(now_ms, self.since) >= self.settle_ms:
            # Settled once, settled until the reading changes: no ticks arithmetic on old stamps.
            self.settled = True
        self.value = self.candidate if self.settled else TURNING
        return self.value

    def reset(self, value=TURNING):
        """Forget the history; ``value`` is taken as settled."""
        self.candidate = value
        self.settled = True
        self.value = value


class ButtonDebouncer:
    """A button's steady level: a change counts once the new level has held long enough.

    ``press_ms`` is how long a press must hold, ``release_ms`` a release (defaults to
    ``press_ms``). Until then the previous level is reported, so a bounce or a press shorter
    than ``press_ms`` never shows.

    >>> b = ButtonDebouncer(20)
    >>> [b.update(p, t) for p, t in ((1, 0), (0, 5), (1, 10), (1, 25), (1, 30))]
    [0, 0, 0, 0, 1]
    """

    def __init__(self, press_ms, release_ms=None, initial=0):
        if release_ms is None:
            release_ms = press_ms
        if press_ms < 0 or release_ms < 0:
            raise ValueError("settle times must be 0 or more, got %r and %r" % (press_ms, release_ms))
        self.press_ms = press_ms
        self.release_ms = release_ms
        self.value = 1 if initial else 0
        self.candidate = self.value
        self.since = 0

    def update(self, level, now_ms):
        """Feed one reading (truthy = pressed) taken at ``now_ms``; returns 1 pressed or 0 released."""
        level = 1 if level else 0
        if level != self.candidate:
            self.candidate = level
            self.since = now_ms
        if self.candidate != self.value:
            need = self.press_ms if self.candidate else self.release_ms
            if ticks_diff(now_ms, self.since) >= need:
                self.value = self.candidate
        return self.value

    def reset(self, level=0):
        self.value = 1 if level else 0
        self.candidate = self.value
