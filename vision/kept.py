"""The part of a camera frame the board is read from, kept instead of the whole frame.

The watcher keeps the last frames of a board standing still (up to eight, in three stretches:
the still view, the playing area quiet beside a busy view, the cells quiet beside hands) and
reads their mean: a real camera's noise shrinks with their number.  Only the board and the ring
around it are ever read from that mean (the motion view's ring of two squares, the anchor's
ring, the reading view's margin, a king's top beyond the far row), and at a usual camera
distance they cover a third of the frame or less.  Kept whole, eight 1280x960 frames held 28 MB
of a Raspberry Pi's memory; their boxes, 10 MB (`tests/test_vision_kept.py`).

A `Kept` frame is the copy of the `box` a `board_box` gives for the board's location; the mean of
kept frames is pasted onto a copy of the newest whole frame (`mean_kept`), so that whatever
reads it sees a whole frame, the board's part averaged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.locate import BoardLocation

#: How far beyond the playing area (squares) the box reaches: the widest ring anything reads
#: (the motion view's, two squares; the reading view's margin of one holds a king's top beyond the
#: far row) and a quarter square to spare.
BOX_SQUARES = 2.25
#: Pixels added round the box: interpolation and blur read a pixel or two beyond what they make.
BOX_PAD_PX = 8
#: Points sampled along each side of the box's outline: a lens bends the sides.
_SIDE_POINTS = 16

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (image pixels, end exclusive)


def board_box(location: BoardLocation, size: tuple[int, int]) -> Box:
    """The box of a ``size`` (width, height) frame that holds the board ``location`` gives and
    `BOX_SQUARES` around it; the whole frame when the outline cannot be placed (points beyond a
    steep camera's horizon)."""
    w, h = size
    lo, hi = -BOX_SQUARES, 10.0 + BOX_SQUARES
    t = np.linspace(lo, hi, _SIDE_POINTS)
    outline = np.concatenate([np.stack([t, np.full_like(t, lo)], axis=1),
                              np.stack([t, np.full_like(t, hi)], axis=1),
                              np.stack([np.full_like(t, lo), t], axis=1),
                              np.stack([np.full_like(t, hi), t], axis=1)])
    homogeneous = np.concatenate([outline, np.ones((len(outline), 1))], axis=1) \
        @ np.asarray(location.homography, dtype=np.float64).T
    if not np.all(np.isfinite(homogeneous)) or np.any(homogeneous[:, 2] <= 1e-9):
        return 0, 0, w, h  # the outline crosses the horizon: keep everything
    image = location.to_image(outline)
    if not np.all(np.isfinite(image)):
        return 0, 0, w, h
    x0, y0 = np.floor(image.min(axis=0)).astype(int) - BOX_PAD_PX
    x1, y1 = np.ceil(image.max(axis=0)).astype(int) + 1 + BOX_PAD_PX
    x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
    if x1 <= x0 or y1 <= y0:
        return 0, 0, w, h
    return x0, y0, x1, y1


@dataclass(frozen=True, eq=False)
class Kept:
    """The ``box`` of one frame of ``size`` (width, height): its ``pixels``, a copy (a view
    would hold the whole frame)."""

    box: Box
    size: tuple[int, int]
    pixels: np.ndarray

    @classmethod
    def of(cls, frame: np.ndarray, box: Box) -> "Kept":
        x0, y0, x1, y1 = box
        size = (frame.shape[1], frame.shape[0])
        if (x0, y0, x1, y1) == (0, 0, *size):
            return cls(box, size, frame)  # the whole frame: nothing to spare
        return cls(box, size, frame[y0:y1, x0:x1].copy())

    def fits(self, other: "Kept") -> bool:
        """Whether the two were kept from the same box of frames of the same size."""
        return self.box == other.box and self.size == other.size \
            and self.pixels.shape == other.pixels.shape


#: How much of each frame is summed at a time (`_mean_into`): the sums of a whole box (4.6 MB at
#: 1280x960 in 16 bits) and its mean, held at once beside the whole frame they go into, were the
#: service's peak of memory on the Pi's stack (issue 19, `bench.service`).
_STRIP_BYTES = 256 * 1024


def _mean_into(frames: Sequence[np.ndarray], out: np.ndarray) -> None:
    """Write the mean of same-shaped ``frames`` (two or more) into ``out`` (uint8, their shape;
    a view into a larger frame will do), a strip of rows at a time."""
    n = len(frames)
    # summed in 16 bits while they fit (in float32 a strip's sum is twice as large)
    dtype = np.uint16 if n <= 257 else np.float32
    step = max(1, _STRIP_BYTES // max(1, frames[0][:1].nbytes))
    for r in range(0, frames[0].shape[0], step):
        total = frames[0][r:r + step].astype(dtype)
        for f in frames[1:]:
            np.add(total, f[r:r + step], out=total)
        out[r:r + step] = cv2.convertScaleAbs(total, alpha=1.0 / n).reshape(total.shape)


def mean_frame(frames: Sequence[np.ndarray]) -> np.ndarray:
    """The mean of same-shaped ``frames`` (at least one), uint8: a real camera's noise shrinks
    with the square root of their number."""
    frames = list(frames)
    if len(frames) == 1:
        return frames[0]
    out = np.empty_like(frames[0])
    _mean_into(frames, out)
    return out


def mean_kept(kept: Sequence[Kept], backdrop: np.ndarray) -> np.ndarray:
    """A whole frame: ``backdrop`` (the newest whole frame, of the kept frames' size) with the
    mean of the ``kept`` boxes (at least one, all from one box, `Kept.fits`) in its box."""
    kept = list(kept)
    first = kept[0]
    if any(not first.fits(k) for k in kept[1:]):
        raise ValueError("kept frames of different boxes cannot be averaged")
    if (backdrop.shape[1], backdrop.shape[0]) != first.size:
        raise ValueError(f"a backdrop of {backdrop.shape[1]}x{backdrop.shape[0]} for frames "
                         f"of {first.size[0]}x{first.size[1]}")
    x0, y0, x1, y1 = first.box
    if (x0, y0, x1, y1) == (0, 0, *first.size):
        return mean_frame([k.pixels for k in kept])
    out = backdrop.copy()
    if len(kept) == 1:
        out[y0:y1, x0:x1] = first.pixels
    else:
        _mean_into([k.pixels for k in kept], out[y0:y1, x0:x1])
    return out
