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
host, for calibration and tests): plain classes and integers only.
"""

#: Full scale of a reading (``machine.ADC.read_u16()``).
FULL_SCALE = 65535

#: RP2040 ADC codes (12-bit) with large differential non-linearity (RP2040 erratum E11).
RP2040_DNL_CODES_12BIT = (512, 1536, 2560, 3584)

#: The same codes on the 16-bit scale of :data:`FULL_SCALE`.
RP2040_DNL_U16 = (512 << 4, 1536 << 4, 2560 << 4, 3584 << 4)

#: Version tag of the :meth:`Ladder.to_list` storage format.
LIST_FORMAT = 1

#: Fewest readings per position :func:`compute_ladder` accepts.
MIN_SAMPLES = 3


class LadderError(ValueError):
    """A ladder that cannot classify reliably (bands overlap, too noisy, malformed data)."""


class Ladder:
    """Classifies one wheel's raw readings into position indices.

    ``centres[i]`` is the typical reading of position ``i``. ``lows``/``highs`` give each
    position's band; when omitted they are placed around the centres, each band reaching
    :data:`BAND_FRACTION` of the way to its nearest neighbour, leaving a dead zone between.
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


def nominal_centres(positions, resistors=None, pulldown=0, full_scale=FULL_SCALE):
    """Theoretical readings of each tap of a resistor string.

    ``resistors`` lists the string from the reference voltage down to ground (ohms); position
    ``i`` is the tap just above resistor ``i + 1`` counted from the bottom, so position 0 reads
    lowest. With ``positions + 1`` resistors every tap sits strictly between 0 and full scale.
    Omitted, the string is ``positions + 1`` equal resistors. ``pulldown`` (ohms, 0 for none) is
    the resistor from the ADC input to ground, which loads the selected tap slightly.
    """
    if resistors is None:
        resistors = [1000] * (positions + 1)
    if len(resistors) != positions + 1:
        raise LadderError(
            "a %d-position ladder needs %d resistors, got %d" % (positions, positions + 1, len(resistors))
        )
    total = 0
    for r in resistors:
        if r <= 0:
            raise LadderError("resistor values must be positive, got %r" % (r,))
        total += r
    centres = []
    below = 0
    for i in range(positions):
        below += resistors[positions - i]
        above = total - below
        if pulldown:
            # The pull-down sits in parallel with the part of the string below the tap.
            below_eff = below * pulldown / (below + pulldown)
        else:
            below_eff = below
        centres.append(int(full_scale * below_eff / (above + below_eff) + 0.5))
    return centres


def nominal_ladder(positions, resistors=None, pulldown=0, hysteresis=None, full_scale=FULL_SCALE):
    """The ladder a design should read, from its resistor values (see :func:`nominal_centres`).

    Default hysteresis is a tenth of the smallest step between positions.
    """
    centres = nominal_centres(positions, resistors, pulldown, full_scale)
    sorted_c = sorted(centres)
    step = min(sorted_c[k + 1] - sorted_c[k] for k in range(len(sorted_c) - 1))
    if hysteresis is None:
        hysteresis = step // 10
    return Ladder(centres, hysteresis)


def compute_ladder(samples, positions=None, hysteresis=None, avoid=RP2040_DNL_U16, guard=256,
                   max_spread_percent=40, min_samples=MIN_SAMPLES):
    """Compute a ladder from readings recorded at each position.

    ``samples`` maps position index to the raw readings taken there. Each position's centre is
    its median reading; each band covers the readings seen plus 30% of the free space towards
    each neighbour, leaving the middle 40% as dead zone. Band edges closer than ``guard`` to a
    code in ``avoid`` (RP2040 DNL codes by default) are moved away from it when the free space
    allows.

    Raises :class:`LadderError` naming the positions when one is missing or has too few
    readings, when two positions' readings overlap, or when a position's readings spread over
    more than ``max_spread_percent`` of the distance to a neighbour (too noisy to tell apart).
    """
    if positions is None:
        positions = len(samples)
    missing = [p for p in range(positions) if p not in samples or len(samples[p]) == 0]
    if missing:
        raise LadderError("no readings for position(s) %s" % ", ".join(str(p) for p in missing))
    extra = [p for p in samples if not (0 <= p < positions)]
    if extra:
        raise LadderError("readings for unknown position(s) %s (the wheel has %d positions)"
                          % (", ".join(str(p) for p in sorted(extra)), positions))
    few = [p for p in range(positions) if len(samples[p]) < min_samples]
    if few:
        raise LadderError("too few readings for position(s) %s (need at least %d each)"
                          % (", ".join(str(p) for p in few), min_samples))
    lo_seen = []
    hi_seen = []
    centres = []
    for p in range(positions):
        vals = sorted(int(v) for v in samples[p])
        lo_seen.append(vals[0])
        hi_seen.append(vals[-1])
        centres.append(vals[len(vals) // 2])
    order = sorted(range(positions), key=lambda i: centres[i])
    overlaps = []
    noisy = {}
    for k in range(positions - 1):
        a, b = order[k], order[k + 1]
        if hi_seen[a] >= lo_seen[b]:
            overlaps.append("%d (%d..%d) and %d (%d..%d)" % (a, lo_seen[a], hi_seen[a], b, lo_seen[b], hi_seen[b]))
            continue
        distance = centres[b] - centres[a]
        for p in (a, b):
            spread = hi_seen[p] - lo_seen[p]
            if p not in noisy and spread * 100 > distance * max_spread_percent:
                noisy[p] = ("%d (readings spread over %d, %d%% of the %d to position %d)"
                            % (p, spread, spread * 100 // distance, distance, b if p == a else a))
    if overlaps:
        raise LadderError("positions overlap: %s; each position must read clearly apart from its "
                          "neighbours (check the ladder resistors and the switch wiring)" % "; ".join(overlaps))
    if noisy:
        raise LadderError("too noisy to tell positions apart: position %s; check solder joints, the "
                          "decoupling capacitor and that the wheel sat still while recording"
                          % "; position ".join(noisy[p] for p in sorted(noisy)))
    lows = [0] * positions
    highs = [0] * positions
    free = [lo_seen[order[k + 1]] - hi_seen[order[k]] for k in range(positions - 1)]
    min_free = min(free)
    for k in range(positions):
        i = order[k]
        below = free[k - 1] if k > 0 else free[0]
        above = free[k] if k < positions - 1 else free[-1]
        lows[i] = max(0, lo_seen[i] - below * 3 // 10)
        highs[i] = min(FULL_SCALE, hi_seen[i] + above * 3 // 10)
    if hysteresis is None:
        hysteresis = min_free // 10
    # Nudge edges off the DNL codes, keeping each dead zone at least twice the hysteresis wide.
    for k in range(positions):
        i = order[k]
        floor_lo = highs[order[k - 1]] + 2 * hysteresis + 1 if k > 0 else 0
        ceil_hi = lows[order[k + 1]] - 2 * hysteresis - 1 if k < positions - 1 else FULL_SCALE
        lows[i] = _nudge(lows[i], avoid, guard, floor_lo, lo_seen[i])
        highs[i] = _nudge(highs[i], avoid, guard, hi_seen[i], ceil_hi)
    return Ladder(centres, hysteresis, lows=lows, highs=highs)


def _nudge(edge, avoid, guard, lowest, highest):
    """``edge`` moved at least ``guard`` away from every code in ``avoid``, within lowest..highest."""
    for code in avoid:
        if abs(edge - code) < guard:
            cands = sorted((code - guard, code + guard), key=lambda c: abs(c - edge))
            for cand in cands:
                if lowest <= cand <= highest and all(abs(cand - c) >= guard for c in avoid):
                    return cand
            return edge
    return edge
