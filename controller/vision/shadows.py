"""How shadows and changes of light alter the mat's colours, and the light's tint learnt from shadows.

A pixel of the mat lit by ambient light ``A`` and a lamp's direct light ``D`` (per channel, times the
print's own colour) darkens in a shadow of depth ``s`` by the ratio ``1 - s * D / (A + D)``, channel by
channel. The print's colour cancels out: every shadow under one light darkens the three channels in
the same proportions, the light's *tint*, whatever the mat's colour. Under light of one colour the
tint is neutral (the channels darken alike); under a warm lamp in daylight the shadow keeps the
daylight's blue, and red darkens more than blue.

A die changes the channels' balance in a way that depends on its colour and the print's, so the
foreground (:meth:`controller.vision.pipeline.FrameAnalyser.foreground`) leaves out what one shadow
or change of light explains: neutral, or of the tint learnt from the shadows that the dice cast
(:func:`fit_tint`), by ``bitbox calibrate dice`` or, when the light changes later, by the table itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

Tint = tuple[float, float, float]

#: Light of one colour: shadows darken blue, green and red alike.
NEUTRAL: Tint = (1.0, 1.0, 1.0)


def is_neutral(tint: Tint) -> bool:
    """Whether a tint is neutral to within what the sensor's noise leaves of a measured one."""
    return max(abs(c - 1.0) for c in tint) < 0.02


def same_light(a: Tint, b: Tint) -> bool:
    """Whether two tints are the same light's, to within what one snapshot's shadows tell."""
    return max(abs(x - y) for x, y in zip(a, b)) < 0.05


def alike(ratio: np.ndarray) -> np.ndarray:
    """Which rows of per-channel ratios (now / empty mat, BGR) change the three channels alike, as
    light of one colour does (brighter or darker, by any amount)."""
    return _spread(ratio)[2]


def explained_by_light(ratio: np.ndarray) -> np.ndarray:
    """Which rows of per-channel ratios (now / empty mat, BGR) a neutral shadow or brightening explains:
    alike (:func:`alike`), and by no more than a shadow darkens or the light's own drift brightens."""
    rmin, rmax, uniform = _spread(ratio)
    return uniform & (((rmin > 0.3) & (rmax < 0.97)) | ((rmin > 1.03) & (rmax < 1.25)))


def _spread(ratio: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows' smallest and largest ratio, and whether they are alike: within the sensor's noise and
    a slight tint, which scale with the ratios. A white die's grey side in shade on a pink print is
    as dark as a deep shadow; its ratios (about 0.45) differ by 0.13, a shadow's there by a few
    hundredths."""
    r0, r1, r2 = ratio[:, 0], ratio[:, 1], ratio[:, 2]
    rmax, rmin = np.maximum(np.maximum(r0, r1), r2), np.minimum(np.minimum(r0, r1), r2)
    return rmin, rmax, (rmax - rmin) < np.minimum(0.14, 0.04 + 0.12 * rmax)


def untinted(ratio: np.ndarray, tint: Tint) -> np.ndarray:
    """The ratios that the same shadow (or brightening) would give under neutral light of the same depth:
    each channel's darkening divided by the tint's share of it."""
    return 1.0 - (1.0 - ratio) / np.asarray(tint, np.float32)


def check_tint(values: Sequence[float]) -> Tint:
    """A tint as stored (three positive numbers, BGR), normalised to a mean of 1; ValueError otherwise."""
    if len(values) != 3:
        raise ValueError(f"a shadow tint has three channels (blue, green, red), not {len(values)}")
    b, g, r = (float(v) for v in values)
    if not all(math.isfinite(v) and v > 0 for v in (b, g, r)):
        raise ValueError(f"a shadow tint's channels must be positive numbers, not {[b, g, r]}")
    mean = (b + g + r) / 3
    return (b / mean, g / mean, r / mean)


def fit_tint(now: np.ndarray, before: np.ndarray, min_pixels: int) -> tuple[Tint, np.ndarray] | None:
    """The tint of the shadows among rows of BGR values (now, and on the empty mat), and which rows agree
    with it; None when fewer than ``min_pixels`` of them are clearly shadowed alike and not neutrally
    (diffuse light casts no shadow to learn from; light of one colour, no tinted one).

    Only pixels darker in every channel, on a print bright enough for its ratios to mean something,
    count. Each pixel's darkening in proportion to its mean is the same for every pixel of every
    shadow (whatever the print), and spread out for what is not a shadow (a die's shaded side whose
    shading varies from facet to facet, the edge of a die found a little off): the tint is the peak of
    their histogram, refined by the median of the pixels near it.
    """
    now = np.asarray(now, np.float32).reshape(-1, 3)
    before = np.asarray(before, np.float32).reshape(-1, 3)
    rows = np.flatnonzero((before >= 40).all(axis=1) & (now < 250).all(axis=1))
    d = 1.0 - now[rows] / before[rows]
    mean = d.mean(axis=1)
    clear = (d.min(axis=1) > 0.05) & (mean > 0.12)
    rows, share = rows[clear], d[clear] / mean[clear, None]
    # Neutral light explains darkening within a few hundredths of neutral (see explained_by_light),
    # and there may be much of it: the whole mat a little darker than at calibration, the camera's
    # white balance shifting a little with it.
    tinted = np.abs(share - 1.0).max(axis=1) >= 0.08
    rows, share = rows[tinted], share[tinted]
    if len(share) < min_pixels:
        return None
    # Blue's and red's shares (green's follows: the three add up to 3), in bins of 0.02.
    lo, step, n = 0.3, 0.02, 71
    bins = np.clip(((share[:, [0, 2]] - lo) / step).astype(np.intp), 0, n - 1)
    hist = np.bincount(bins[:, 0] * n + bins[:, 1], minlength=n * n).reshape(n, n).astype(np.float32)
    hist = cv2.GaussianBlur(hist, (5, 5), 1.0)
    b, r = np.unravel_index(int(hist.argmax()), hist.shape)
    peak = np.array([lo + (b + 0.5) * step, 3.0 - (b + r + 1) * step - 2 * lo, lo + (r + 0.5) * step])
    near = np.abs(share - peak).max(axis=1) < 0.08
    if near.sum() < min_pixels:
        return None
    agree = np.zeros(len(now), bool)
    agree[rows[near]] = True
    return check_tint(np.median(share[near], axis=0).tolist()), agree
