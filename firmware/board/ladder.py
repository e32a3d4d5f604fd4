"""Resistor-ladder wheels: raw ADC readings to wheel positions.

Each wheel is a rotary switch whose common pin goes to one ADC input; each switch position
picks one tap of a resistor divider, so each position reads a distinct voltage. A pull-down
resistor on the ADC input makes an open switch (between two positions, or a wheel unplugged)
read near 0, below every tap.

Readings use the ``read_u16()`` scale (0..65535) whatever the ADC: the RP2040's 12-bit codes
and the MCP3008's 10-bit or MCP3208's 12-bit codes are all shifted up to 16 bits first.

A :class:`Ladder` holds, per position, a band ``[low, high]`` of readings that mean that
position; readings outside every band mean "between positions" (-1). Bands are separated by
dead zones, and *hysteresis* widens the band of the position read last, so a reading sitting
on a band edge does not flicker.

This module runs unchanged under MicroPython (on the controller board) and CPython (on the
host, for calibration and tests): plain classes and integers only. Working ladders out (nominal
readings from resistor values, thresholds from recorded readings) is the host's job alone:
:mod:`firmware.ladder_maths`, which the board never loads.
"""

#: Full scale of a reading (``machine.ADC.read_u16()``).
FULL_SCALE = 65535

#: Version tag of the :meth:`Ladder.to_list` storage format.
LIST_FORMAT = 1


class LadderError(ValueError):
    """A ladder that cannot classify reliably (bands overlap, too noisy, malformed data)."""


class Ladder:
    """Classifies one wheel's raw readings into position indices.

    ``centres[i]`` is the typical reading of position ``i``. ``lows``/``highs`` give each
    position's band; when omitted they are placed around the centres, each band reaching
    :data:`BAND_FRACTION_PERCENT` % of the way to its nearest neighbour, leaving a dead zone between.
    ``hysteresis`` (in raw units) widens the band of the last position read.

    >>> ladder = Ladder([10000, 20000, 30000], 500)
    >>> ladder.classify(19500), ladder.classify(25000), ladder.classify(0)
    (1, -1, -1)
    """

    #: Share of the distance to the nearest neighbour that a default band covers on each side.
    BAND_FRACTION_PERCENT = 35

    def __init__(self, centres, hysteresis, lows=None, highs=None):
        n = len(centres)
        if n < 2:
            raise LadderError("a ladder needs at least 2 positions, got %d" % n)
        centres = [int(c) for c in centres]
        hysteresis = int(hysteresis)
        if hysteresis < 0:
            raise LadderError("hysteresis must be 0 or more, got %d" % hysteresis)
        if (lows is None) != (highs is None):
            raise LadderError("give both lows and highs, or neither")
        if lows is None:
            lows, highs = _default_bands(centres, self.BAND_FRACTION_PERCENT)
        lows = [int(v) for v in lows]
        highs = [int(v) for v in highs]
        if len(lows) != n or len(highs) != n:
            raise LadderError("%d centres but %d lows and %d highs" % (n, len(lows), len(highs)))
        self.centres = centres
        self.lows = lows
        self.highs = highs
        self.hysteresis = hysteresis
        self._check()
        self.last = -1

    def _check(self):
        for i in range(len(self.centres)):
            lo, c, hi = self.lows[i], self.centres[i], self.highs[i]
            if not (0 <= lo <= c <= hi <= FULL_SCALE):
                raise LadderError(
                    "position %d: band %d..%d must hold its centre %d within 0..%d" % (i, lo, hi, c, FULL_SCALE)
                )
        order = self.order()
        for k in range(len(order) - 1):
            a, b = order[k], order[k + 1]
            dead = self.lows[b] - self.highs[a] - 1
            if dead < 0:
                raise LadderError(
                    "positions %d and %d overlap: band %d..%d meets band %d..%d"
                    % (a, b, self.lows[a], self.highs[a], self.lows[b], self.highs[b])
                )
            if 2 * self.hysteresis > dead:
                raise LadderError(
                    "hysteresis %d is too wide for the %d-unit gap between positions %d and %d"
                    " (at most half the gap)" % (self.hysteresis, dead, a, b)
                )

    def __len__(self):
        return len(self.centres)

    def __repr__(self):
        return "Ladder(%r, %d, lows=%r, highs=%r)" % (self.centres, self.hysteresis, self.lows, self.highs)

    def __eq__(self, other):
        return isinstance(other, Ladder) and self.to_list() == other.to_list()

    def order(self):
        """Position indices sorted by rising reading."""
        return sorted(range(len(self.centres)), key=lambda i: self.centres[i])

    def reset(self):
        """Forget the last position (hysteresis restarts from nothing)."""
        self.last = -1

    def position_of(self, raw):
        """The position whose band holds ``raw``, or -1; no hysteresis, no state change."""
        for i in range(len(self.centres)):
            if self.lows[i] <= raw <= self.highs[i]:
                return i
        return -1

    def classify(self, raw):
        """The position ``raw`` means, or -1 between positions or out of range.

        The last position stays while ``raw`` is within ``hysteresis`` of its band.
        """
        last = self.last
        if last >= 0 and self.lows[last] - self.hysteresis <= raw <= self.highs[last] + self.hysteresis:
            return last
        pos = self.position_of(raw)
        self.last = pos
        return pos

    def to_list(self):
        """A flat list of ints for storage: format, hysteresis, count, then low, centre, high per position."""
        out = [LIST_FORMAT, self.hysteresis, len(self.centres)]
        for i in range(len(self.centres)):
            out.append(self.lows[i])
            out.append(self.centres[i])
            out.append(self.highs[i])
        return out

    @classmethod
    def from_list(cls, data):
        """Rebuild a ladder stored by :meth:`to_list`; :class:`LadderError` if malformed."""
        try:
            data = [int(v) for v in data]
        except (TypeError, ValueError):
            raise LadderError("a stored ladder is a list of integers, got %r" % (data,))
        if len(data) < 3 or data[0] != LIST_FORMAT:
            raise LadderError("not a stored ladder (expected format %d first): %r" % (LIST_FORMAT, data[:3]))
        n = data[2]
        if len(data) != 3 + 3 * n:
            raise LadderError("stored ladder says %d positions but holds %d values" % (n, len(data) - 3))
        body = data[3:]
        return cls(body[1::3], data[1], lows=body[0::3], highs=body[2::3])


def _default_bands(centres, percent):
    n = len(centres)
    order = sorted(range(n), key=lambda i: centres[i])
    lows = [0] * n
    highs = [0] * n
    for k in range(n):
        i = order[k]
        below = centres[i] - centres[order[k - 1]] if k > 0 else None
        above = centres[order[k + 1]] - centres[i] if k < n - 1 else None
        if below is None:
            below = above
        if above is None:
            above = below
        if below <= 0 or above <= 0:
            raise LadderError("two positions share the centre %d" % centres[i])
        lows[i] = max(0, centres[i] - below * percent // 100)
        highs[i] = min(FULL_SCALE, centres[i] + above * percent // 100)
    return lows, highs
