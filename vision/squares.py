"""Per-cell reading: what stands on each of the 100 cells of the found board.

The frame is warped to a top-down view of the playing area (plus a one-square margin, since a
piece seen obliquely spills past its square).  For every cell two colours are sampled:

- the *floor*: small patches just inside the cell's four corners, which round pieces never
  cover, so they show the square's own colour even under a piece (the median of the four
  survives one patch covered by a neighbour's spill);
- the *top*: a disc where the top face of a man standing on the cell projects (the cell centre
  moved along the camera's ray by the man's height, `vision.pose`), so a piece counts for the
  cell under its base.

A cell is then empty, or holds a piece of one of the two colours, by the nearest of: its own
floor colour / its parity's square colour (empty), and the two piece colours of the
`ColourModel` (a Gaussian classifier whose spread gives the confidences).  Kings are told from
men in `vision.kings`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.colours import ColourModel, distance, to_lab, two_means
from vision.locate import BoardLocation, warp
from vision.pose import Pose

#: Pixels per square of the reading view, and the margin (squares) around the playing area.
VIEW_PX = 32
MARGIN = 1
#: Default height of a man in squares (a 40 mm square, an 8 mm man).
MAN_HEIGHT = 0.2

_CELL = np.array([(r, c) for r in range(10) for c in range(10)])


@dataclass(frozen=True, eq=False)
class BoardView:
    """The warped top-down view (Lab float32, ``px`` per square, grid point (-MARGIN, -MARGIN) at
    pixel (0, 0)) and its per-cell samples (10 x 10 x 3 arrays, [row, col])."""

    lab: np.ndarray
    px: int
    floor: np.ndarray
    top: np.ndarray
    top_xy: np.ndarray  # (10, 10, 2) grid coordinates of each cell's man-top sample

    def to_px(self, xy: np.ndarray) -> np.ndarray:
        return (np.asarray(xy) + MARGIN) * self.px

    @property
    def parity(self) -> np.ndarray:
        return (_CELL[:, 0] + _CELL[:, 1]).reshape(10, 10) % 2


def board_view(image: np.ndarray, location: BoardLocation, pose: Pose | None,
               man_height: float = MAN_HEIGHT, px: int = VIEW_PX) -> BoardView:
    """Warp ``image`` (BGR) to the reading view and sample every cell."""
    bgr = warp(image, location.homography, px, -MARGIN, 10 + MARGIN)
    lab = to_lab(bgr)
    return sample_view(lab, pose, man_height, px)


def sample_view(lab: np.ndarray, pose: Pose | None, man_height: float = MAN_HEIGHT,
                px: int = VIEW_PX) -> BoardView:
    """Per-cell samples of a reading view (see the module docstring)."""
    kf = max(2, int(round(px * 0.12)))
    small = cv2.blur(lab, (kf, kf))
    kt = max(3, int(round(px * 0.3)))
    big = cv2.blur(lab, (kt, kt))
    n = lab.shape[0] - 1
    rows, cols = _CELL[:, 0].astype(np.float64), _CELL[:, 1].astype(np.float64)
    floors = []
    inset = 0.14
    for dx, dy in ((inset, inset), (1 - inset, inset), (inset, 1 - inset), (1 - inset, 1 - inset)):
        x = np.clip(np.round((cols + dx + MARGIN) * px).astype(int), 0, n)
        y = np.clip(np.round((rows + dy + MARGIN) * px).astype(int), 0, n)
        floors.append(small[y, x])
    floor = np.median(np.stack(floors), axis=0).reshape(10, 10, 3)
    centres = np.stack([cols + 0.5, rows + 0.5], axis=1)
    if pose is not None:
        centres = centres + pose.shift(centres, man_height * 0.8)
    x = np.clip(np.round((centres[:, 0] + MARGIN) * px).astype(int), 0, n)
    y = np.clip(np.round((centres[:, 1] + MARGIN) * px).astype(int), 0, n)
    top = big[y, x].reshape(10, 10, 3)
    return BoardView(lab, px, floor.astype(np.float64), top.astype(np.float64),
                     centres.reshape(10, 10, 2))


def square_colours(view: BoardView) -> tuple[np.ndarray, np.ndarray, int]:
    """(light colour, dark colour, dark parity) from the cells' floor samples."""
    par = view.parity
    c0 = np.median(view.floor[par == 0], axis=0)
    c1 = np.median(view.floor[par == 1], axis=0)
    if c0[0] >= c1[0]:
        return c0, c1, 1
    return c1, c0, 0


def lightness_gain(view: BoardView, light: np.ndarray, dark: np.ndarray,
                   dark_parity: int) -> np.ndarray:
    """(10, 10) factor on lightness undoing uneven light (gradients, vignetting, glare): the
    floors of the cells of the emptier parity (pieces spill onto their neighbours' floors)
    against that parity's board-wide colour, the median over each cell's 5x5 neighbourhood."""
    own = distance(view.top, view.floor)
    emptier = 0 if np.median(own[view.parity == 0]) <= np.median(own[view.parity == 1]) else 1
    ref_l = dark[0] if emptier == dark_parity else light[0]
    ratio = np.where(view.parity == emptier,
                     np.clip(ref_l / np.maximum(view.floor[..., 0], 1.0), 0.4, 2.5), np.nan)
    padded = np.pad(ratio, 2, mode="constant", constant_values=np.nan)
    stack = np.stack([padded[i:i + 10, j:j + 10] for i in range(5) for j in range(5)])
    gain = np.nanmedian(stack, axis=0)
    return np.where(np.isfinite(gain), gain, 1.0)


def reference_gain(empty_ref: np.ndarray, parity: np.ndarray) -> np.ndarray:
    """(10, 10) lightness factor from a memory of the empty cells: each parity's median
    lightness over the cell's own."""
    out = np.empty((10, 10))
    for p in (0, 1):
        mask = parity == p
        ref = np.median(empty_ref[mask][:, 0])
        out[mask] = np.clip(ref / np.maximum(empty_ref[mask][:, 0], 1.0), 0.4, 2.5)
    return out


def normalised_tops(view: BoardView, light: np.ndarray, dark: np.ndarray,
                    dark_parity: int) -> np.ndarray:
    """The cells' top colours with the lightness corrected by `lightness_gain`."""
    top = view.top.copy()
    top[..., 0] = np.clip(top[..., 0] * lightness_gain(view, light, dark, dark_parity), 0, 255)
    return top


def empty_distance(view: BoardView, light: np.ndarray, dark: np.ndarray,
                   dark_parity: int) -> np.ndarray:
    """(10, 10) distance of each cell's top sample from looking empty: the nearer of its own
    floor colour and (lightness corrected) its parity's square colour."""
    parity_colour = np.where((view.parity == dark_parity)[..., None], dark, light)
    top_n = normalised_tops(view, light, dark, dark_parity)
    return np.minimum(distance(view.top, view.floor), distance(top_n, parity_colour))


def _otsu(values: np.ndarray, eps: float = 1.0) -> tuple[float, float]:
    """Best two-class split of 1-D values: (threshold, separation in pooled std units)."""
    v = np.sort(np.asarray(values, dtype=np.float64).ravel())
    best = (float(v[-1]) + 1.0, 0.0)
    for i in range(1, len(v)):
        a, b = v[:i], v[i:]
        sep = (b.mean() - a.mean()) / (np.sqrt((a.var() * len(a) + b.var() * len(b)) / len(v)) + eps)
        if sep > best[1]:
            best = ((v[i - 1] + v[i]) / 2.0, float(sep))
    return best


def learn_colours(view: BoardView) -> tuple[ColourModel, int]:
    """A colour model for a single photo by clustering: square colours from the floors, pieces
    from the cells that stand out from their floor.  Returns (model, dark parity)."""
    light, dark, dark_parity = square_colours(view)
    d = empty_distance(view, light, dark, dark_parity)
    # three populations (empty, and two piece colours at different distances): split on a log
    # scale so that the nearer piece colour is not lumped with the empty squares
    log_thr, sep = _otsu(np.log1p(d), 0.05)
    thr = float(np.expm1(log_thr)) if sep > 2.0 else 30.0
    occupied = d > max(thr, 12.0)
    tops = normalised_tops(view, light, dark, dark_parity)[occupied]
    par = view.parity
    light_s = view.floor[par != dark_parity]
    dark_s = view.floor[par == dark_parity]
    if len(tops) >= 2:
        centres, labels = two_means(tops)
        if distance(centres[0], centres[1]) < 20.0:  # one colour only
            labels = np.zeros(len(tops), dtype=int)
        white_s, black_s = tops[labels == 0], tops[labels == 1]
        if not len(black_s):
            black_s = np.array([[255.0 - tops[:, 0].mean(), 128.0, 128.0]])
    else:
        white_s = np.array([[255.0, 128.0, 128.0]])
        black_s = np.array([[0.0, 128.0, 128.0]])
    model = ColourModel.from_samples(light_s, dark_s, white_s, black_s)
    return model, dark_parity


@dataclass(frozen=True, eq=False)
class CellProbabilities:
    """(10, 10, 3) probabilities of empty / white piece / black piece for every cell, in the
    image's grid ([row, col] with row 0 at the image-top edge)."""

    p: np.ndarray

    def best(self) -> np.ndarray:
        return np.argmax(self.p, axis=-1)

    def confidence(self) -> np.ndarray:
        return np.max(self.p, axis=-1)


def classify(view: BoardView, model: ColourModel, dark_parity: int,
             empty_ref: np.ndarray | None = None) -> CellProbabilities:
    """Empty / white / black probabilities per cell from the colour model.  ``empty_ref``
    (10 x 10 x 3, a watcher's memory of each cell's top sample when empty) replaces the floor
    and parity colours as the empty reference when given."""
    light, dark, white, black = model.arrays()
    if empty_ref is not None:
        d_empty = distance(view.top, empty_ref)
        top_n = view.top.copy()
        top_n[..., 0] = np.clip(top_n[..., 0] * reference_gain(empty_ref, view.parity), 0, 255)
    else:
        d_empty = empty_distance(view, light, dark, dark_parity)
        top_n = normalised_tops(view, light, dark, dark_parity)
    d_white = distance(top_n, white)
    d_black = distance(top_n, black)
    sigma = max(model.spread, 6.0) * 1.6
    logits = -np.stack([d_empty, d_white, d_black], axis=-1) ** 2 / (2 * sigma ** 2)
    logits -= logits.max(axis=-1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=-1, keepdims=True)
    return CellProbabilities(p)
