"""Registering a frame to the board as it was located: a real camera's shake and drift.

A camera on a desk clamp shakes by a fraction of a pixel from frame to frame and drifts by a
pixel or two over a game; the board's location is found once and cached.  Reading the squares
needs more than the motion view does: a king is told from a man by its top face standing a few
camera pixels higher (`vision.kings`), so a picture one pixel off its location reads men as
kings.  An `Anchor` keeps the board's neighbourhood as it looked when the location was placed;
`Anchor.align` finds how far a frame has moved against it (a translation, sub-pixel) on the ring
of the board's border and the table beyond the playing area, where nothing in a game changes (the
squares would mislead it: a position with many pieces moved gave a pixel), and moves the frame
back.

The match maximises the correlation of the ring's grey levels, each side's normalised to zero
mean and unit length (so a camera's lagging exposure and white balance do not move it), as
`cv2.findTransformECC` does; it is solved by inverse-compositional Gauss-Newton steps
(Baker and Matthews, "Lucas-Kanade 20 years on"): the reference's gradients and the normal
matrix are worked out once when the anchor is placed, and each frame samples only the ring's
pixels (`cv2.remap` on their coordinates), not the whole rectangle around the board three times
over.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.locate import BoardLocation

#: A shift found beyond this share of a square is no shake: the board or the camera moved (the
#: watcher finds the board again).
MAX_SHIFT_SQUARES = 0.25
#: Below this correlation the match is not trusted (a hand lies over much of the border).
MIN_CORRELATION = 0.6
#: The two halves of the ring must agree on the shift within this (pixels).
AGREE_PX = 0.4
#: Shifts smaller than this (pixels) are left alone: moving a picture blurs it a little, and
#: the pieces on edge squares (a king's top, a long shadow) move the match by up to 0.12 px.
MIN_SHIFT_PX = 0.2
#: The ring the match is made on: from this far beyond the playing area (squares; clear of most
#: of an edge piece's side and shadow; the two halves must agree, `AGREE_PX`) to this far (the
#: border, the table).
_NEAR, _FAR = 0.3, 1.4
#: The match is made on pictures this many times smaller.
_SCALE = 2
#: At most this many Gauss-Newton steps; they stop once a step is below `_DONE_PX` (pixels of
#: the small picture).
_STEPS, _DONE_PX = 40, 1e-3
_ROW = 1024


@dataclass(frozen=True, eq=False)
class _Ring:
    """Part of the ring, ready to be matched: the coordinates of its pixels in the small picture
    (float32, for `cv2.remap`), the reference's grey levels there normalised to zero mean and
    unit length, and the steepest-descent rows (2 x pixels: the normalised reference's x and y
    gradients) and inverse normal matrix of a translation."""

    xs: np.ndarray
    ys: np.ndarray
    template: np.ndarray
    descent: np.ndarray
    inverse: np.ndarray

    @classmethod
    def of(cls, blurred: np.ndarray, gx: np.ndarray, gy: np.ndarray, mask: np.ndarray
           ) -> "_Ring | None":
        """The part ``mask`` of the ``blurred`` reference, whose gradients are ``gx``, ``gy``."""
        ys, xs = np.nonzero(mask)
        if len(xs) < 16:
            return None
        values = blurred[ys, xs].astype(np.float64)
        values -= values.mean()
        length = float(np.sqrt(values @ values))
        if length < 1e-6:
            return None
        descent = np.stack([gx[ys, xs], gy[ys, xs]]).astype(np.float64) / length
        normal = descent @ descent.T
        if abs(np.linalg.det(normal)) < 1e-12:
            return None
        return cls(_rows(xs), _rows(ys), (values / length).astype(np.float32),
                   descent.astype(np.float32), np.linalg.inv(normal))

    def match(self, now: np.ndarray, start: np.ndarray, limit: float
              ) -> tuple[np.ndarray, float] | None:
        """The translation (small picture's pixels) of ``now`` against the reference, from
        ``start``, and the correlation there; None when the steps run beyond ``limit`` pixels
        or the match is weak."""
        p = start.astype(np.float64).copy()
        rho, n = -1.0, len(self.template)
        for _ in range(_STEPS):
            sampled = cv2.remap(now, self.xs + np.float32(p[0]), self.ys + np.float32(p[1]),
                                cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            values = sampled.ravel()[:n]
            values = values - np.float32(values.mean())
            length = float(np.sqrt(values @ values))
            if length < 1e-6:
                return None
            values /= np.float32(length)
            rho = float(values @ self.template)
            values -= self.template
            step = self.inverse @ (self.descent @ values)
            p -= step
            if not np.all(np.isfinite(p)) or np.hypot(*p) > limit:
                return None
            if np.hypot(*step) < _DONE_PX:
                break
        if rho < MIN_CORRELATION:
            return None
        return p, rho


@dataclass(frozen=True, eq=False)
class Anchor:
    """The ring beyond the playing area (its border and the table: nothing in a game changes
    them) as it looked in the frame the ``location`` was placed on: the rectangle ``rect``
    (x, y, w, h) around it, and the whole ring and its two L-shaped halves ready to be matched
    (None when the frame showed too little of them)."""

    location: BoardLocation
    rect: tuple[int, int, int, int]
    rings: tuple[_Ring, _Ring, _Ring] | None

    @classmethod
    def of(cls, frame: np.ndarray, location: BoardLocation) -> "Anchor":
        h, w = frame.shape[:2]
        outline = location.to_image(np.array([[-_FAR, -_FAR], [10 + _FAR, -_FAR],
                                              [10 + _FAR, 10 + _FAR], [-_FAR, 10 + _FAR]]))
        x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(outline.max(axis=0)).astype(int), [w, h])
        # even sides: the picture is halved by whole 2x2 blocks (`_grey`, OpenCV's quick path)
        rect = (int(x0), int(y0), int(max(x1 - x0, 8)) // 2 * 2, int(max(y1 - y0, 8)) // 2 * 2)
        reference = _grey(frame, rect)
        # the centres of the small picture's pixels, in the frame
        sh, sw = reference.shape
        ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float64)
        xs = rect[0] + (xs + 0.5) * rect[2] / sw - 0.5
        ys = rect[1] + (ys + 0.5) * rect[3] / sh - 0.5
        grid = location.to_grid(np.stack([xs.ravel(), ys.ravel()], axis=1)).reshape(sh, sw, 2)
        beyond = np.abs(grid - 5.0).max(axis=2)
        ring = (beyond >= 5.0 + _NEAR) & (beyond <= 5.0 + _FAR)
        # pixels whose 3x3 neighbourhood (the blur, the gradient) reaches beyond the picture
        ring[[0, -1], :] = False
        ring[:, [0, -1]] = False
        # the two L-shaped halves: beyond the grid's top and left sides, and the other two
        first = (grid[..., 1] - 5.0 < -np.abs(grid[..., 0] - 5.0) + 1e-9) | (grid[..., 0] < 0.0)
        blurred = _blur(reference)
        gx = cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
        gy = cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
        rings = tuple(_Ring.of(blurred, gx, gy, m)
                      for m in (ring, ring & first, ring & ~first))
        if any(r is None for r in rings):
            return cls(location, rect, None)
        return cls(location, rect, rings)  # type: ignore[arg-type]

    def shift(self, frame: np.ndarray) -> tuple[float, float] | None:
        """How far (x, y image pixels) ``frame`` has moved against the anchor; None when that
        cannot be told (a weak match: a hand over much of the border; a shift too large for
        shake)."""
        x, y, w, h = self.rect
        if self.rings is None or frame.shape[0] < y + h or frame.shape[1] < x + w:
            return None
        now = _blur(_grey(frame, self.rect))
        limit = MAX_SHIFT_SQUARES * self.location.square_px / _SCALE
        whole, *halves = self.rings
        found = whole.match(now, np.zeros(2), limit)
        if found is None:
            return None
        p = found[0]
        # each half alone (an L of two sides holds both directions) must agree: a piece's top
        # or shadow reaching into one side pulls the match there, not on the other
        a, b = (half.match(now, p, limit) for half in halves)
        if a is None or b is None:
            return None
        if _SCALE * np.hypot(*(a[0] - b[0])) > AGREE_PX:
            return None
        return _SCALE * float(p[0]), _SCALE * float(p[1])

    def align(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` moved back onto the anchor (unchanged when the shift is too small to matter
        or cannot be told)."""
        found = self.shift(frame)
        if found is None or np.hypot(*found) < MIN_SHIFT_PX:
            return frame
        dx, dy = found
        m = np.array([[1.0, 0.0, -dx], [0.0, 1.0, -dy]])
        return cv2.warpAffine(frame, m, (frame.shape[1], frame.shape[0]), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)


def _rows(coordinates: np.ndarray) -> np.ndarray:
    """Pixel coordinates as float32 rows of `_ROW` (`cv2.remap` takes maps of fewer than 32,767
    columns), the last one repeated to fill the last row."""
    pad = -len(coordinates) % _ROW
    filled = np.concatenate([coordinates, np.repeat(coordinates[-1:], pad)])
    return filled.astype(np.float32).reshape(-1, _ROW)


def _blur(small: np.ndarray) -> np.ndarray:
    """A 3x3 Gaussian blur: the gradient and the steps see the border's edges, not the grain."""
    return cv2.GaussianBlur(small, (3, 3), 0)


def _grey(frame: np.ndarray, rect: tuple[int, int, int, int]) -> np.ndarray:
    """The rectangle's grey picture at 1 / `_SCALE` of the size (the match is a few times
    quicker, and a tenth of a pixel as good)."""
    x, y, w, h = rect
    crop = frame[y:y + h, x:x + w]
    if crop.ndim == 3:
        crop = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(crop, (max(4, w // _SCALE), max(4, h // _SCALE)),
                       interpolation=cv2.INTER_AREA)
    return small.astype(np.float32)
