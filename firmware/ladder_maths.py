"""The host's ladder maths: nominal readings from resistor values, thresholds from recorded readings.

The controller board only classifies readings (:class:`firmware.board.ladder.Ladder`); the
ladders it uses come to it ready-made, as integers: the nominal ones in ``config.json``
(``bitbox firmware flash``), calibrated ones in a stored profile (``bitbox calibrate dials``).
Working them out happens on the host alone, here, so none of this takes the board's RAM.

>>> nominal_centres(3)
[16384, 32768, 49151]
>>> nominal_ladder(3).classify(32768)
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from firmware.board.ladder import FULL_SCALE, Ladder, LadderError

#: RP2040 ADC codes (12-bit) with large differential non-linearity (RP2040 erratum E11).
RP2040_DNL_CODES_12BIT = (512, 1536, 2560, 3584)

#: The same codes on the 16-bit scale of :data:`~firmware.board.ladder.FULL_SCALE`.
RP2040_DNL_U16 = (512 << 4, 1536 << 4, 2560 << 4, 3584 << 4)

#: Fewest readings per position :func:`compute_ladder` accepts.
MIN_SAMPLES = 3


def nominal_centres(positions: int, resistors: Sequence[float] | None = None, pulldown: float = 0,
                    full_scale: int = FULL_SCALE) -> list[int]:
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
        raise LadderError(f"a {positions}-position ladder needs {positions + 1} resistors, got {len(resistors)}")
    total = 0
    for r in resistors:
        if r <= 0:
            raise LadderError(f"resistor values must be positive, got {r!r}")
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


def nominal_ladder(positions: int, resistors: Sequence[float] | None = None, pulldown: float = 0,
                   hysteresis: int | None = None, full_scale: int = FULL_SCALE) -> Ladder:
    """The ladder a design should read, from its resistor values (see :func:`nominal_centres`).

    Default hysteresis is a tenth of the smallest step between positions.
    """
    centres = nominal_centres(positions, resistors, pulldown, full_scale)
    sorted_c = sorted(centres)
    step = min(sorted_c[k + 1] - sorted_c[k] for k in range(len(sorted_c) - 1))
    if hysteresis is None:
        hysteresis = step // 10
    return Ladder(centres, hysteresis)


def compute_ladder(samples: Mapping[int, Sequence[int]], positions: int | None = None, hysteresis: int | None = None,
                   avoid: Iterable[int] = RP2040_DNL_U16, guard: int = 256, max_spread_percent: int = 40,
                   min_samples: int = MIN_SAMPLES) -> Ladder:
    """Compute a ladder from readings recorded at each position.

    ``samples`` maps position index to the raw readings taken there. Each position's centre is
    its median reading; each band covers the readings seen plus 30% of the free space towards
    each neighbour, leaving the middle 40% as dead zone. Band edges closer than ``guard`` to a
    code in ``avoid`` (RP2040 DNL codes by default) are moved away from it when the free space
    allows.

    Raises :class:`~firmware.board.ladder.LadderError` naming the positions when one is missing
    or has too few readings, when two positions' readings overlap, or when a position's readings
    spread over more than ``max_spread_percent`` of the distance to a neighbour (too noisy to
    tell apart).
    """
    avoid = tuple(avoid)
    if positions is None:
        positions = len(samples)
    missing = [p for p in range(positions) if p not in samples or len(samples[p]) == 0]
    if missing:
        raise LadderError(f"no readings for position(s) {', '.join(str(p) for p in missing)}")
    extra = [p for p in samples if not (0 <= p < positions)]
    if extra:
        raise LadderError(f"readings for unknown position(s) {', '.join(str(p) for p in sorted(extra))} "
                          f"(the wheel has {positions} positions)")
    few = [p for p in range(positions) if len(samples[p]) < min_samples]
    if few:
        raise LadderError(f"too few readings for position(s) {', '.join(str(p) for p in few)} "
                          f"(need at least {min_samples} each)")
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
            overlaps.append(f"{a} ({lo_seen[a]}..{hi_seen[a]}) and {b} ({lo_seen[b]}..{hi_seen[b]})")
            continue
        distance = centres[b] - centres[a]
        for p in (a, b):
            spread = hi_seen[p] - lo_seen[p]
            if p not in noisy and spread * 100 > distance * max_spread_percent:
                noisy[p] = (f"{p} (readings spread over {spread}, {spread * 100 // distance}% of the {distance} "
                            f"to position {b if p == a else a})")
    if overlaps:
        raise LadderError(f"positions overlap: {'; '.join(overlaps)}; each position must read clearly apart from "
                          "its neighbours (check the ladder resistors and the switch wiring)")
    if noisy:
        which = "; position ".join(noisy[p] for p in sorted(noisy))
        raise LadderError(f"too noisy to tell positions apart: position {which}; check solder joints, the "
                          "decoupling capacitor and that the wheel sat still while recording")
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


def _nudge(edge: int, avoid: Sequence[int], guard: int, lowest: int, highest: int) -> int:
    """``edge`` moved at least ``guard`` away from every code in ``avoid``, within lowest..highest."""
    for code in avoid:
        if abs(edge - code) < guard:
            cands = sorted((code - guard, code + guard), key=lambda c: abs(c - edge))
            for cand in cands:
                if lowest <= cand <= highest and all(abs(cand - c) >= guard for c in avoid):
                    return cand
            return edge
    return edge
