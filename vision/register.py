"""Registering a frame to the board as it was located: a real camera's shake and drift.

A camera on a desk clamp shakes by a fraction of a pixel from frame to frame and drifts by a
pixel or two over a game; the board's location is found once and cached.  Reading the squares
needs more than the motion view does: a king is told from a man by its top face standing a few
camera pixels higher (`vision.kings`), so a picture one pixel off its location reads men as
kings.  An `Anchor` keeps the board's neighbourhood as it looked when the location was placed;
`Anchor.align` finds how far a frame has moved against it (`cv2.findTransformECC`, a translation,
sub-pixel) on the ring of the board's border and the table beyond the playing area, where nothing
in a game changes (the squares would mislead it: a position with many pieces moved gave a pixel),
and moves the frame back.
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


@dataclass(frozen=True, eq=False)
class Anchor:
    """The ring beyond the playing area (its border and the table: nothing in a game changes
    them) as it looked in the frame the ``location`` was placed on: the grey picture of the
    rectangle ``rect`` (x, y, w, h) around it and the mask of the ring in it."""

    location: BoardLocation
    rect: tuple[int, int, int, int]
    reference: np.ndarray
    mask: np.ndarray
    halves: tuple[np.ndarray, np.ndarray]

    @classmethod
    def of(cls, frame: np.ndarray, location: BoardLocation) -> "Anchor":
        h, w = frame.shape[:2]
        outline = location.to_image(np.array([[-_FAR, -_FAR], [10 + _FAR, -_FAR],
                                              [10 + _FAR, 10 + _FAR], [-_FAR, 10 + _FAR]]))
        x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(outline.max(axis=0)).astype(int), [w, h])
        rect = (int(x0), int(y0), int(max(x1 - x0, 8)), int(max(y1 - y0, 8)))
        ys, xs = np.mgrid[rect[1]:rect[1] + rect[3]:2, rect[0]:rect[0] + rect[2]:2]
        grid = location.to_grid(np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64))
        beyond = np.abs(grid - 5.0).max(axis=1)
        ring = (beyond >= 5.0 + _NEAR) & (beyond <= 5.0 + _FAR)
        # the two L-shaped halves: beyond the grid's top and left sides, and the other two
        first = (grid[:, 1] - 5.0 < -np.abs(grid[:, 0] - 5.0) + 1e-9) | (grid[:, 0] < 0.0)
        reference = _grey(frame, rect)

        def scaled(m: np.ndarray) -> np.ndarray:
            return cv2.resize(m.reshape(xs.shape).astype(np.uint8), reference.shape[::-1],
                              interpolation=cv2.INTER_NEAREST)

        return cls(location, rect, reference, scaled(ring),
                   (scaled(ring & first), scaled(ring & ~first)))

    def shift(self, frame: np.ndarray) -> tuple[float, float] | None:
        """How far (x, y image pixels) ``frame`` has moved against the anchor; None when that
        cannot be told (a weak match: a hand over much of the border; a shift too large for
        shake)."""
        x, y, w, h = self.rect
        if frame.shape[0] < y + h or frame.shape[1] < x + w:
            return None
        now = _grey(frame, self.rect)
        found = [_match(self.reference, now, m) for m in (self.mask, *self.halves)]
        if any(f is None for f in found):
            return None
        (dx, dy), a, b = found  # type: ignore[misc]
        # each half alone (an L of two sides holds both directions) must agree: a piece's top
        # or shadow reaching into one side pulls the match there, not on the other
        if np.hypot(a[0] - b[0], a[1] - b[1]) > AGREE_PX:
            return None
        if np.hypot(dx, dy) > MAX_SHIFT_SQUARES * self.location.square_px:
            return None
        return dx, dy

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


def _match(reference: np.ndarray, now: np.ndarray, mask: np.ndarray
           ) -> tuple[float, float] | None:
    """The translation (image pixels) of ``now`` against ``reference`` on ``mask``, or None
    (no convergence, a weak match)."""
    warp = np.eye(2, 3, dtype=np.float32)
    try:
        cc, warp = cv2.findTransformECC(reference, now, warp, cv2.MOTION_TRANSLATION,
                                        (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40,
                                         1e-4), mask, 3)
    except cv2.error:  # no convergence
        return None
    if cc < MIN_CORRELATION:
        return None
    return _SCALE * float(warp[0, 2]), _SCALE * float(warp[1, 2])


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
