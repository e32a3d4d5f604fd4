"""The empty mat that frames are compared with, and what differs from it.

:class:`BackgroundModel` holds the rectified empty mat of the calibration, re-lit when the light has
changed since (:meth:`~BackgroundModel.relight`), and tells what in a view differs from it
(:meth:`~BackgroundModel.foreground`): shadows and changes of light excepted (see
:mod:`controller.vision.shadows`), and glare on the mat (:func:`glare`).
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from controller.vision.shadows import NEUTRAL, Tint, alike, explained_by_light, is_neutral, untinted

#: Stride of the sparse grid on which changes are looked for first (see :mod:`controller.vision.regions`).
SPARSE_STRIDE = 3


class Changes(NamedTuple):
    """The pixels of a rectified view that differ from the empty mat: flat indices, their BGR values now
    and on the empty mat, and whether a shadow, a change of light or glare explains each."""

    at: np.ndarray
    now: np.ndarray
    before: np.ndarray
    explained: np.ndarray


def glare(now: np.ndarray, before: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which pixels (rows of BGR values, now and on the empty mat) a glare explains, and which
    are saturated white on a print that is not dark (a glare's core, or an overexposed die).

    A specular highlight adds the light's own colour: about the same amount to each channel,
    up to saturation. A channel that saturated is consistent with any amount that would have
    taken it there. On a dark print (a marker's black) a white die looks the same, so it stays.
    """
    found = np.zeros(len(now), bool)
    white = np.zeros(len(now), bool)
    # Only pixels brighter (or saturated) in every channel, on a print that is not dark, can be
    # glare: a few.
    idx = np.flatnonzero(np.logical_and.reduce(
        [((now[:, c] > before[:, c] + 8) | (now[:, c] >= 250)) & (before[:, c] >= 40) for c in range(3)]))
    if not len(idx):
        return found, white
    now, before = now[idx], before[idx]
    # Channel by channel: numpy's reductions across three columns cost more than the arithmetic.
    channels = [(now[:, c] - before[:, c], now[:, c] >= 250, before[:, c]) for c in range(3)]
    lo = np.minimum.reduce([np.where(clip, np.inf, d) for d, clip, _ in channels])
    hi = np.maximum.reduce([np.where(clip, -np.inf, d) for d, clip, _ in channels])
    even = np.isfinite(lo) & (hi - lo <= 0.25 * hi + 10)
    reaches = np.logical_and.reduce([~clip | (was + hi >= 245) for _, clip, was in channels])
    found[idx] = even & reaches
    white[idx] = np.logical_and.reduce([clip for _, clip, _ in channels])
    return found, white


class BackgroundModel:
    """The rectified empty mat, and what differs from it in a view of the same size.

    ``visible``: where the view shows the mat (eroded a little: its rim is left out);
    ``edge_px``: a die's edge on the mat plane, ``top_px``: a die's top face at the mat's centre,
    both in view pixels; ``diff_threshold``: how far (grey levels, in some channel) a pixel must
    differ from the empty mat to count; ``tint``: the light's tint that shadows darken the mat by.
    """

    def __init__(self, image: np.ndarray, visible: np.ndarray, edge_px: float, top_px: float,
                 diff_threshold: int = 30, tint: Tint = NEUTRAL) -> None:
        self.mask = cv2.erode(visible, np.ones((5, 5), np.uint8))
        self.diff_threshold = diff_threshold
        self.top_px = top_px
        self.image = image
        self.shadow_tint = tint
        self._core_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
        k = max(3, int(edge_px * 0.15) | 1)
        self._close_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))

    @property
    def image(self) -> np.ndarray:
        """The rectified empty mat."""
        return self._image

    @image.setter
    def image(self, image: np.ndarray) -> None:
        self._image = image
        #: The empty mat on the sparse grid (every ``SPARSE_STRIDE``-th pixel).
        self.sparse = np.ascontiguousarray(image[::SPARSE_STRIDE, ::SPARSE_STRIDE])

    @property
    def shadow_tint(self) -> Tint:
        """The light's tint that shadows darken the mat by (BGR, mean 1); neutral shadows are always
        explained too."""
        return self._shadow_tint

    @shadow_tint.setter
    def shadow_tint(self, tint: Tint) -> None:
        self._shadow_tint = tint
        #: The tint to try besides neutral shadows; None when it is neutral itself.
        self.tint: Tint | None = None if is_neutral(tint) else tint

    def differs(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Where two views (or sparse views) differ by more than ``diff_threshold`` in some channel."""
        d0, d1, d2 = cv2.split(cv2.absdiff(a, b))
        return cv2.compare(cv2.max(cv2.max(d0, d1), d2), self.diff_threshold, cv2.CMP_GT)

    def foreground(self, rect: np.ndarray) -> tuple[np.ndarray, Changes | None]:
        """What differs from the empty mat in the view ``rect``, shadows and changes of light excepted;
        with the pixels that differ (see :class:`Changes`).

        A shadow or a change of light scales the mat's three channels alike, or in the proportions
        of the light's tint learnt from the dice's shadows (see :mod:`controller.vision.shadows`);
        a die changes their balance otherwise (or darkens far more, for a black die). Glare on the mat
        (see :func:`glare`) is light too, not a die.
        """
        return self.foreground_of(rect, self.image, self.mask)

    def foreground_of(self, part: np.ndarray, empty: np.ndarray, mask: np.ndarray, index: np.ndarray | None = None,
                      own: np.ndarray | None = None) -> tuple[np.ndarray, Changes | None]:
        """:meth:`foreground` of the view's pixels ``part`` over the empty mat's ``empty``, where ``mask``
        allows; with what differs from the empty mat among the pixels ``own`` (all when None), as
        flat indices ``index`` gives them (each pixel's in the whole view; its own when None)."""
        diff = cv2.absdiff(part, empty)
        b, g, r = cv2.split(diff)
        absdiff = cv2.max(cv2.max(b, g), r)
        fg = cv2.compare(absdiff, self.diff_threshold, cv2.CMP_GT)
        # The channels' ratios are only needed where the mat changed (a few per cent of the view).
        nz = cv2.findNonZero(fg)
        if nz is None:
            return fg, None
        nz = nz.reshape(-1, 2)
        xs, ys = nz[:, 0], nz[:, 1]
        local = ys.astype(np.intp) * fg.shape[1] + xs
        now = part.reshape(-1, 3).take(local, axis=0).astype(np.float32)
        before = empty.reshape(-1, 3).take(local, axis=0).astype(np.float32)
        shifted = before + 8.0
        ratio = (now + 8.0) / shifted
        lighting = explained_by_light(ratio)
        if self.tint is not None:
            lighting |= explained_by_light(untinted(ratio, self.tint))
        glared, white = glare(now, before)
        if white.any() and glared.any():
            # A glare's core saturates every channel, whatever the mat's colour: it is glare where it
            # lies within the glare's own halo (a die overexposed to white has no such halo).
            halo = np.zeros_like(fg)
            halo.reshape(-1)[local[glared]] = 255
            halo = cv2.dilate(halo, self._core_kernel)
            glared |= white & (halo.reshape(-1).take(local) > 0)
        lighting |= glared
        at = local if index is None else index.reshape(-1).take(local)
        changes = Changes(at, now, before, lighting)
        if own is not None:
            mine = own.reshape(-1).take(local)
            changes = Changes(at[mine], now[mine], before[mine], lighting[mine])
        fg.reshape(-1)[local[lighting]] = 0
        fg = cv2.bitwise_and(fg, mask)
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, self._close_kernel)
        return fg, changes

    def relight(self, rect: np.ndarray) -> tuple[int, int] | None:
        """Re-light the empty mat when what differs from it in ``rect`` (a rectified view) is mostly
        the light: how many of the parts of the mat that changed it explains, of how many; None
        when it does not (the empty mat is left as it was).

        The view is cut into cells four dice wide. In each, the median ratio of now to the empty mat
        (per channel) is the light's gain there, when the cell's pixels mostly agree with it and it
        changes the channels alike (or in the shadows' tint): dice cover too little of a cell to move
        the median, a hand changes the channels' balance. When at least four in five of the cells
        that changed are explained so, the empty mat is multiplied by those gains, smoothly
        interpolated (a cell left unexplained, under a hand, takes the light's median gain).
        """
        S = SPARSE_STRIDE
        now = rect[::S, ::S].astype(np.float32)
        before = self.sparse.astype(np.float32)
        usable = (before >= 40).all(axis=2) & (now < 250).all(axis=2) & (self.mask[::S, ::S] > 0)
        ratio = now / np.maximum(before, 1.0)
        cell = max(4, round(4 * self.top_px / S))
        rows, cols = -(-ratio.shape[0] // cell), -(-ratio.shape[1] // cell)
        gains = np.full((rows, cols, 3), np.nan, np.float32)
        changed = explained = 0
        for i in range(rows):
            for j in range(cols):
                ok = usable[i * cell:(i + 1) * cell, j * cell:(j + 1) * cell]
                if ok.sum() < 0.3 * cell * cell:
                    continue
                r = ratio[i * cell:(i + 1) * cell, j * cell:(j + 1) * cell][ok]
                gain = np.median(r, axis=0)
                if np.abs(gain - 1.0).max() < 0.05:
                    gains[i, j] = gain
                    continue
                changed += 1
                light = bool(alike(gain[None])[0])
                if self.tint is not None:
                    light = light or bool(alike(untinted(gain[None], self.tint))[0])
                agree = (np.abs(r - gain) <= 0.08 * gain).all(axis=1).mean()
                if light and agree >= 0.6:
                    gains[i, j] = gain
                    explained += 1
        if not changed or explained < 0.8 * changed:
            return None
        known = ~np.isnan(gains[..., 0])
        gains[~known] = np.median(gains[known], axis=0)
        h, w = self.image.shape[:2]
        field = cv2.resize(gains, (cols * cell * S, rows * cell * S), interpolation=cv2.INTER_LINEAR)[:h, :w]
        self.image = np.clip(self.image * field + 0.5, 0, 255).astype(np.uint8)
        return explained, changed
