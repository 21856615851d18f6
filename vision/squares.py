"""Per-cell reading: what stands on each of the 100 cells of the found board.

The frame is warped to a top-down view of the playing area (plus a one-square margin, since a
piece seen obliquely spills past its square).  For every cell two colours are sampled:

- the *floor*: small patches just inside the cell's four corners, which round pieces never
  cover, so they show the square's own colour even under a piece (the median of the four
  survives one patch covered by a neighbour's spill);
- the *top*: a disc where the top face of a man standing on the cell projects (the cell centre
  moved along the camera's ray by the man's height, `vision.pose`), so a piece counts for the
  cell under its base.

Uncalibrated (one photo), a cell is empty, or holds a piece of one of the two colours, by the
nearest of: its own floor colour / its parity's square colour (empty), and the two piece colours
of the `ColourModel` (a Gaussian classifier whose spread gives the confidences).

Calibrated (`learn_references`, from the start position), every cell has its own reference look
of each class (`vision.colours.CellReferences`): measured where the cell showed that class, else
the class colour under the cell's light with the class's spread around it.  The light squares,
empty all game, tell how the light changed on each cell since (`light_change`); a light
square's look is taken again when the pieces beside it change (`relit_light_references`).
Each class is a heavy-tailed (Student t) distribution around the cell's reference, one spread
per Lab channel; a top sample far from every class (a shadow, a glare the model never saw)
reads as unsure.

Kings are told from men in `vision.kings`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from vision.colours import (BLACK_PIECE, EMPTY, L_OFFSET, WHITE_PIECE, CellReferences,
                            ColourModel, distance, lab_to_linear, light_factor, relight, to_lab,
                            two_means)
from vision.locate import BoardLocation, warp
from vision.pose import Pose

#: Pixels per square of the reading view, and the margin (squares) around the playing area.
VIEW_PX = 32
MARGIN = 1
#: Default height of a man in squares (a 40 mm square, an 8 mm man).
MAN_HEIGHT = 0.2

_CELL = np.array([(r, c) for r in range(10) for c in range(10)])
#: (10, 10, 2) every cell's centre in the view (x, y, squares).
_CENTRES = _CELL[:, ::-1].reshape(10, 10, 2).astype(np.float64) + 0.5
#: (10, 10) every cell's (row + col) % 2 (read only).
_PARITY = (_CELL[:, 0] + _CELL[:, 1]).reshape(10, 10) % 2
_PARITY.flags.writeable = False


@dataclass(frozen=True, eq=False)
class BoardView:
    """The warped top-down view (Lab float32, ``px`` per square, grid point (-MARGIN, -MARGIN) at
    pixel (0, 0)) and its per-cell samples (10 x 10 x 3 arrays, [row, col])."""

    lab: np.ndarray
    px: int
    floor: np.ndarray
    top: np.ndarray
    top_xy: np.ndarray  # (10, 10, 2) grid coordinates of each cell's man-top sample
    # (10, 10) the cells whose outline is measured (`rim`); None: all of them
    rim_cells: np.ndarray | None = None

    def to_px(self, xy: np.ndarray) -> np.ndarray:
        return (np.asarray(xy) + MARGIN) * self.px

    @property
    def parity(self) -> np.ndarray:
        return _PARITY.copy()

    @cached_property
    def rim(self) -> np.ndarray:
        """(10, 10) each cell's outline contrast (`rim_contrast`), measured once per view: the
        reading doubts by it and the learning keeps it, on the same view.  Zero on the cells
        outside ``rim_cells``."""
        return rim_contrast(self, self.rim_cells)


def board_view(image: np.ndarray, location: BoardLocation, pose: Pose | None,
               man_height: float = MAN_HEIGHT, px: int = VIEW_PX,
               rim_cells: np.ndarray | None = None) -> BoardView:
    """Warp ``image`` (BGR) to the reading view and sample every cell; ``rim_cells``: the
    cells whose outline is measured (`BoardView.rim`), None for all."""
    bgr = warp(image, location, px, -MARGIN, 10 + MARGIN)
    lab = to_lab(bgr)
    return sample_view(lab, pose, man_height, px, rim_cells)


def sample_view(lab: np.ndarray, pose: Pose | None, man_height: float = MAN_HEIGHT,
                px: int = VIEW_PX, rim_cells: np.ndarray | None = None) -> BoardView:
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
                     centres.reshape(10, 10, 2), rim_cells)


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


def colour_threshold(d: np.ndarray) -> float:
    """The distance from looking empty (``d``, `empty_distance`) above which a cell stands out
    by its colour alone: the best two-class split of its logarithm (30 when there is none), and
    at least 12."""
    # three populations (empty, and two piece colours at different distances): split on a log
    # scale so that the nearer piece colour is not lumped with the empty squares
    log_thr, sep = _otsu(np.log1p(d), 0.05)
    thr = float(np.expm1(log_thr)) if sep > 2.0 else 30.0
    return max(thr, 12.0)


def colour_occupied(d: np.ndarray) -> np.ndarray:
    """(10, 10) the cells that stand out from looking empty by their colour alone: ``d``
    (`empty_distance`) above `colour_threshold`."""
    return d > colour_threshold(d)


def learn_colours(view: BoardView, occupied: np.ndarray | None = None
                  ) -> tuple[ColourModel, int]:
    """A colour model for a single photo by clustering: square colours from the floors, pieces
    from the cells that stand out from their floor (`colour_occupied`), or from the cells
    ``occupied`` (10, 10) gives when given.  Returns (model, dark parity)."""
    light, dark, dark_parity = square_colours(view)
    if occupied is None:
        occupied = colour_occupied(empty_distance(view, light, dark, dark_parity))
    tops = normalised_tops(view, light, dark, dark_parity)[occupied]
    par = view.parity
    light_s = view.floor[par != dark_parity]
    dark_s = view.floor[par == dark_parity]
    if len(tops) >= 2:
        centres, labels = two_means(tops)
        sizes = np.bincount(labels, minlength=2)
        if len(tops) >= 10 and sizes.min() < 0.1 * len(tops):
            # one or two cells apart from all the others: a lone piece of a side (an endgame),
            # or an odd cell (a shadow taken for a piece) lumping two sides whose colours
            # differ less than it does (red and green).  The others split into two clear
            # colours only in the second case.
            rest = tops[labels == int(np.argmax(sizes))]
            c2, l2 = two_means(rest)
            if distance(c2[0], c2[1]) >= 20.0 \
                    and np.bincount(l2, minlength=2).min() >= 0.1 * len(rest):
                tops, centres, labels = rest, c2, l2
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
             empty_ref: np.ndarray | None = None, outline: bool = True) -> CellProbabilities:
    """Empty / white / black probabilities per cell from the colour model: from every cell's
    own references when the model has them (calibrated; ``empty_ref`` is then not used), else
    from the class colours, with ``empty_ref`` (10 x 10 x 3, each cell's top sample when
    empty) replacing the floor and parity colours as the empty reference when given.
    Calibrated, a sure empty reading is doubted where the cell shows a piece's outline
    (`_rim_doubt`), unless ``outline`` is False (frames with a hand over the board)."""
    if model.cells is not None:
        return _classify_cells(view, model, dark_parity, outline=outline)
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


#: Standard deviation (per Lab channel) of a cell's top sample about its own reference from frame
#: to frame: sensor noise, JPEG, a camera shaking a little, the light drifting.
NOISE = 3.0
#: Degrees of freedom of the classes' Student t distributions (heavy tails: a sample far from
#: every class does not make the least far one certain).
_NU = 5.0
#: Distance (in standard deviations) beyond which a sample fits no class: the reading is made
#: less sure the farther it lies beyond.
_UNKNOWN = 6.0
#: Lightness from which a sample is taken as clipped by the camera: a cell whose top and floor
#: are both that light is washed out (glare), and every class looks the same there.
_WASHED_L = 245.0


def washed_out(view: BoardView) -> np.ndarray:
    """(10, 10) cells whose top sample and floor are both clipped white (glare, over-exposure):
    nothing can be told there."""
    return (view.top[..., 0] >= _WASHED_L) & (view.floor[..., 0] >= _WASHED_L)


#: A light cell whose floor's colour lies this many of the light squares' robust spreads (in the
#: a*b* plane) from theirs, or whose lightness lies `_COVER_L` of theirs from it, shows
#: something over it (`covered_cells`): no piece ever stands on a light square.
_COVER_AB = 6.0
_COVER_L = 8.0
#: Something over the squares hides the board's checkers: a group of odd light cells is taken as
#: covered only when one of them lost its contrast with the dark squares beside it, to under this
#: share of the light squares' usual contrast, both in Lab (a shadow keeps it there) and in
#: linear light (a lamp's glare adds light to both squares alike and keeps it there).  On the
#: bench's scenes (seeds 7000-7039, two frames a second), 96% of the groups a hand covered had a
#: cell under 0.3, and a glare near clipping none under 0.35.
_COVER_MASKED = 0.3
#: Lightness from which a light cell, brighter than the light squares' usual, is near the
#: camera's clipping: a glare flattens its contrast there, so it tells nothing of a hand.
_NEAR_CLIPPED_L = 215.0


def covered_cells(view: BoardView, dark_parity: int) -> np.ndarray:
    """(10, 10) the cells something reaching in over the board's edge covers in this picture:
    a hand or an arm held still over the squares, seen in a still picture with nothing to
    compare it with.  No piece stands on a light square, and the light squares look alike: the
    light cells whose floors look unlike theirs (`_COVER_AB`, `_COVER_L`; washed-out ones tell
    nothing) in groups that reach the board's edge (8-connected, a gap of one cell bridged: a
    hand covers squares in a patch, and comes from outside), and the dark cells beside them.
    A light cell is judged by its floor (a piece on the next square, seen from a steep camera,
    leans over a light square's top sample, never over its floor: the labelled real photos
    showed "covered" squares beside every piece by their tops).  A lone odd light square
    inside the board (a glare) is none: it does not reach the edge.  Nor is a group in which
    the board's checkers still show (`_checkers_hidden`): a lamp's glare over the board's edge
    (a set-up endgame waited for as under a hand, was learnt four seconds on, after the first
    moves, and not one was recorded: the bench's selfplay-40 at seed 3333013 and selfplay-31
    at 3434002), or a hand's shadow."""
    light = (view.parity != dark_parity) & ~washed_out(view)
    out = np.zeros((10, 10), dtype=bool)
    if np.count_nonzero(light) < 20:
        return out
    ab = view.floor[..., 1:]
    centre = np.median(ab[light], axis=0)
    d = np.linalg.norm(ab - centre, axis=-1)
    spread = max(float(np.median(d[light])) * 1.4826, 1.5)
    lum = view.floor[..., 0]
    lum_centre = float(np.median(lum[light]))
    lum_spread = max(float(np.median(np.abs(lum[light] - lum_centre))) * 1.4826, 2.0)
    odd = light & ((d >= _COVER_AB * spread) | (np.abs(lum - lum_centre) >= _COVER_L * lum_spread))
    # a cell that hides the checkers is odd however like the light squares it looks: a hand's
    # skin can look like them where a lamp spreads their lightness wide
    masked = light & _checkers_hidden(view, light & ~odd if (light & ~odd).any() else light)
    masked &= ~((lum >= _NEAR_CLIPPED_L) & (lum > lum_centre))
    odd |= masked
    if not odd.any():
        return out
    # groups: odd light cells within two cells of each other (diagonal neighbours are light too)
    near = cv2.dilate(odd.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    count, groups = cv2.connectedComponents(near.astype(np.uint8), connectivity=8)
    rim = np.zeros((10, 10), dtype=bool)
    rim[[0, -1], :] = rim[:, [0, -1]] = True
    for g in range(1, count):
        member = (groups == g) & odd
        if (member & rim).any() and (member & masked).any():
            out |= member
    if not out.any():
        return out
    beside = cv2.dilate(out.astype(np.uint8), np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]],
                                                          np.uint8)) > 0
    return out | (beside & (view.parity == dark_parity))


def _checkers_hidden(view: BoardView, plain: np.ndarray) -> np.ndarray:
    """(10, 10) cells whose floor has lost its contrast with every dark square beside it, as
    something laid over both does (`_COVER_MASKED` of the usual contrast of the ``plain`` light
    cells, in Lab and in linear light alike)."""
    hidden = np.ones((10, 10), dtype=bool)
    for colours in (view.floor, lab_to_linear(view.floor)):
        contrast = _least_contrast(colours)
        hidden &= contrast < _COVER_MASKED * float(np.median(contrast[plain]))
    return hidden


def _least_contrast(colours: np.ndarray) -> np.ndarray:
    """(10, 10) each cell's distance from the nearest in colour of its (up to four) side
    neighbours, from (10, 10, 3) ``colours``."""
    padded = np.pad(colours, ((1, 1), (1, 1), (0, 0)), constant_values=np.nan)
    return np.nanmin(np.stack([np.linalg.norm(colours - padded[1 + dr:11 + dr, 1 + dc:11 + dc],
                                              axis=-1)
                               for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]), axis=0)


def _light_field(values: np.ndarray, reach: int = 1) -> np.ndarray:
    """(10, 10) median of the finite ``values`` in each cell's neighbourhood (``reach`` cells
    each way: 3x3 by default; NaN where there are none)."""
    size = 2 * reach + 1
    padded = np.pad(values, reach, constant_values=np.nan)
    stack = np.stack([padded[i:i + 10, j:j + 10] for i in range(size) for j in range(size)])
    out = np.full((10, 10), np.nan)
    some = np.isfinite(stack).any(axis=0)
    out[some] = np.nanmedian(stack[:, some], axis=0)
    return out


def light_change(view: BoardView, model: ColourModel, dark_parity: int) -> np.ndarray:
    """(10, 10) how much stronger the light on each cell is now than at calibration, from the
    light squares (empty all game) around it against their references."""
    assert model.cells is not None
    light = view.parity != dark_parity
    ratio = np.where(light, light_factor(view.top, model.cells.mean[..., EMPTY, :]), np.nan)
    change = _light_field(ratio)
    return np.clip(np.where(np.isfinite(change), change, 1.0), 0.5, 2.0)


#: What stands on a dark cell, as `surroundings` takes it: nothing, a man or a king of either
#: side (`NOT_KNOWN`: a hand or an unsure reading hides it).
NOTHING, KING_CODE_STEP, NOT_KNOWN = 0, 2, -1
#: The four dark neighbours of a light cell, and the base their codes are written in.
_BESIDE = ((-1, 0), (1, 0), (0, -1), (0, 1))
_CODES = 5


def standing_code(cls: int, king: bool) -> int:
    """What stands on a dark cell as `surroundings` takes it: ``cls`` the colour model's class
    (`EMPTY`, `WHITE_PIECE`, `BLACK_PIECE`), a man or a king."""
    return NOTHING if cls == EMPTY else cls + (KING_CODE_STEP if king else 0)


def surroundings(standing: np.ndarray, dark_parity: int) -> np.ndarray:
    """(10, 10) for each light cell, one number telling what stands on its four dark
    neighbours (``standing`` (10, 10): `standing_code` on each dark cell, `NOT_KNOWN` where it
    is not known); `NOT_KNOWN` on the dark cells and where a neighbour is not known."""
    padded = np.pad(np.asarray(standing, dtype=np.int64), 1, constant_values=NOTHING)
    code = np.zeros((10, 10), dtype=np.int64)
    unknown = np.zeros((10, 10), dtype=bool)
    for i, (dr, dc) in enumerate(_BESIDE):
        beside = padded[1 + dr:11 + dr, 1 + dc:11 + dc]
        unknown |= beside < 0
        code += np.maximum(beside, 0) * _CODES ** i
    light = _PARITY != dark_parity
    return np.where(light & ~unknown, code, NOT_KNOWN)


def sides_swapped_surroundings(around: np.ndarray) -> np.ndarray:
    """``around`` (`surroundings`) with White's and Black's pieces swapped (the board read
    turned half round, `vision.calibration.Calibration.turned`)."""
    out = np.zeros(around.shape, dtype=np.int64)
    rest = np.maximum(around, 0)
    for i in range(len(_BESIDE)):
        digit = rest % _CODES
        rest = rest // _CODES
        colour = (digit - 1) % KING_CODE_STEP  # 0: white's, 1: black's
        swapped = np.where(digit == NOTHING, NOTHING, digit + np.where(colour == 0, 1, -1))
        out += swapped * _CODES ** i
    return np.where(around < 0, around, out)


def relit_light_references(view: BoardView, model: ColourModel, dark_parity: int,
                           around: np.ndarray) -> ColourModel:
    """``model`` with the empty look of each light cell whose surroundings (``around``,
    `surroundings` now) differ from those its look was taken beside taken again from ``view``,
    brought to the calibration light by the light change the light cells whose surroundings
    stayed tell around it.  A piece's soft shadow reaches the light squares beside it (lamps
    of some size, several lamps), and under a camera well off vertical its body may lean over
    them in the picture: a light square the men left showed the light a quarter up on it, and
    a white man back beside it read half black (the other renderer's selfplay-6 at seed
    6262001, ivory men on an ivory and red board 41 degrees off vertical).  Where no light
    cell's surroundings stayed, nothing is taken; a model that never knew them learns
    ``around`` as they are."""
    cells = model.cells
    assert cells is not None
    if cells.around is None:
        return replace(model, cells=replace(cells, around=np.asarray(around).copy()))
    known = around >= 0
    changed = known & (around != cells.around)
    steady = known & (around == cells.around)
    if not changed.any() or not steady.any():
        return model
    ratio = np.where(steady, light_factor(view.top, cells.mean[..., EMPTY, :]), np.nan)
    change = _light_field(ratio)
    wider = _light_field(ratio, reach=2)
    change = np.where(np.isfinite(change), change,
                      np.where(np.isfinite(wider), wider, np.nanmedian(ratio[steady])))
    change = np.clip(change, 0.5, 2.0)
    mean = cells.mean.copy()
    mean[changed, EMPTY] = relight(view.top[changed], 1.0 / change[changed])
    return replace(model, cells=replace(cells, mean=mean,
                                        around=np.where(changed, around, cells.around)))


def _log_likelihoods(top: np.ndarray, mean: np.ndarray, var: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Student t log-likelihoods (..., classes) of ``top`` (..., 3) under classes with ``mean``
    and per-channel ``var`` (..., classes, 3), and the squared standardised distances."""
    d2 = ((top[..., None, :] - mean) ** 2 / var).sum(axis=-1)
    loglik = -0.5 * (_NU + 3.0) * np.log1p(d2 / _NU) - 0.5 * np.log(var).sum(axis=-1)
    return loglik, d2


def _probabilities(loglik: np.ndarray, d2: np.ndarray, washed: np.ndarray,
                   unexplained: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """Posterior probabilities (equal priors), made unsure where the sample fits no class, where
    the cell is ``washed`` out and where its look is ``unexplained`` by the model (no class
    ever seen on it: the calibration frame's look there did not fit what stood there): mixed
    there with ``prior`` (10, 10, 3), the guess when the look tells little or nothing."""
    loglik = loglik - loglik.max(axis=-1, keepdims=True)
    p = np.exp(loglik)
    p /= p.sum(axis=-1, keepdims=True)
    beyond = np.sqrt(d2.min(axis=-1)) - _UNKNOWN
    u = np.maximum.reduce([np.clip(beyond / _UNKNOWN, 0.0, 0.75), np.where(washed, 0.9, 0.0),
                           np.where(unexplained, 0.75, 0.0)])[..., None]
    return (1 - u) * p + u * prior


def _reference_variance(model: ColourModel) -> np.ndarray:
    """(10, 10, 3, 3) per-channel variance of each class's look about each cell's reference."""
    assert model.cells is not None and model.class_spread is not None
    unseen = ~model.cells.seen[..., None]
    var = NOISE ** 2 + np.where(unseen, model.class_spread[None, None] ** 2, 0.0)
    if model.cells.extra_var is not None:
        var = var + np.where(unseen, model.cells.extra_var, 0.0)
    return var


#: Radii (squares) of a piece's top face tried for its outline, the angles sampled on it, and
#: the share of the outline that must show an edge (`rim_contrast`).
_RIM_RADII = np.array([0.34, 0.37, 0.40, 0.43, 0.46])
_RIM_ANGLES = np.linspace(0.0, 2.0 * np.pi, 48, endpoint=False)
_RIM_DX = _RIM_RADII[:, None] * np.cos(_RIM_ANGLES)
_RIM_DY = _RIM_RADII[:, None] * np.sin(_RIM_ANGLES)
_RIM_SHARE = 0.6
#: Half-width (squares) of the band about the grid lines whose gradient is not an outline, and
#: at least this many view pixels: the blur (sigma 1) and the Sobel spread a line's gradient
#: over 3 pixels each side of it.  With 2 pixels, a circle centred in an empty square (the
#: shift about a man's top undoing the top's offset) passed just outside the band on all four
#: sides at its largest radius, on the sides' blurred gradient: on a flat dark square, whose
#: own typical gradient is tiny, that read as an outline of 2-4 (the other renderer's
#: lidraughts-7 at seed 4545008: an emptied square read as a dark man at 0.99, and Art. 27
#: was named falsely three plies later).
_RIM_GRID = 0.06
_RIM_GRID_PX = 3.0
#: An empty reading is doubted where a cell's outline contrast exceeds the most an empty cell
#: showed at calibration (`ColourModel.rim_empty`) by this factor, and at least `_RIM_MIN`.
_RIM_MARGIN = 1.3
_RIM_MIN = 2.5
#: How much an empty reading is then mixed with "a piece of either colour" (and a piece reading
#: with "empty" where its outline went, `_rim_doubt`).
_RIM_DOUBT = 0.55
#: A piece reading is doubted for a missing outline only where its class showed at least this
#: many times the limit on the cell.
_RIM_SEEN = 1.6
#: A king's top against the top sample's height (0.8 of a man), from the cell's centre, and the
#: farthest (squares) it may land from a man's for the man's outline circle to find it.
_KING_RAISED = 2.5
_KING_NEAR = 0.08


def rim_contrast(view: BoardView, cells: np.ndarray | None = None) -> np.ndarray:
    """(10, 10) how clearly each cell shows a round outline where a piece's top face would be:
    the colour gradient along circles about the cell's top sample (`BoardView.top_xy`, several
    radii), the gradient that `_RIM_SHARE` of the circle reaches at least, over the cell's own
    typical gradient (its median inside).  A piece shows its outline all round even where a
    glare washes its colour out to the square's; an empty cell shows noise, or a straight edge
    crossing part of the circle.  The circle is also tried `_RIM_SHIFT` of a square to each
    side (a hand puts a man down off the square's centre: the other renderer's selfplay-12 at
    seed 47010, dark men the walnut of the dark squares, showed outlines of 2.1 to 3.4 in the
    start position and 1.5 where moved, beside the empty squares' 1.2 at most) and about a
    king's top (`_KING_RAISED`), the best of them counting.  ``cells``: only those cells are
    measured (the passing reading reads the dark squares alone), the others are zero."""
    px = view.px
    smooth = cv2.GaussianBlur(view.lab, (0, 0), 1.0)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    del smooth
    # squared and summed in place: each of these three-channel views is 1.7 MB, and the reading
    # is where the service's memory peaks (issue 19)
    cv2.multiply(gx, gx, dst=gx)
    cv2.multiply(gy, gy, dst=gy)
    cv2.add(gx, gy, dst=gx)
    del gy
    squared = cv2.transform(gx, np.ones((1, 3), np.float32))  # summed over L, a and b
    del gx
    grad = cv2.sqrt(squared) / 8.0
    n = grad.shape[0] - 1
    inner = grad[MARGIN * px:(MARGIN + 10) * px, MARGIN * px:(MARGIN + 10) * px]
    inner = inner.reshape(10, px, 10, px)[:, int(0.2 * px):int(0.8 * px), :, int(0.2 * px):int(0.8 * px)]
    inner = inner.transpose(0, 2, 1, 3).reshape(10, 10, -1)
    if cells is not None:
        inner = inner[cells]
    typical = np.median(inner, axis=-1) + 0.5
    # the squares' own edges (and the board's border) are straight lines on the grid: not an
    # outline, so the circle's points near them do not count
    off = np.abs((np.arange(n + 1) + 0.5) / px - np.round((np.arange(n + 1) + 0.5) / px)) * px
    near = off <= max(_RIM_GRID_PX, _RIM_GRID * px)
    grad = np.where(near[:, None] | near[None, :], -1.0, grad)  # masked: sorted first
    king = _CENTRES + _KING_RAISED * (view.top_xy - _CENTRES)
    tops = np.stack([view.top_xy + (dx, dy) for dx, dy in _RIM_SHIFTS] + [king])
    if cells is None:
        return np.maximum(_outline(grad, tops, px, n).max(axis=0), 0.0).astype(np.float64) / typical
    out = np.zeros((10, 10))
    out[cells] = np.maximum(_outline(grad, tops[:, cells], px, n).max(axis=0),
                            0.0).astype(np.float64) / typical
    return out


#: Shifts (squares) of the outline circle tried about the top sample (`rim_contrast`).
_RIM_SHIFT = 0.08
_RIM_SHIFTS = ((0.0, 0.0), (_RIM_SHIFT, 0.0), (-_RIM_SHIFT, 0.0), (0.0, _RIM_SHIFT),
               (0.0, -_RIM_SHIFT))


def _outline(grad: np.ndarray, tops: np.ndarray, px: int, n: int) -> np.ndarray:
    """(..., 10, 10) the gradient `_RIM_SHARE` of the points of circles about ``tops`` (...,
    10, 10, 2, squares) reach, the best of `_RIM_RADII` (0 where under 12 points count: the
    grid's lines masked, as -1, in ``grad``).  All the circles are sampled at once (one index
    into the flattened gradient, one sort): the passing reading does this on every frame."""
    cx = tops[..., 0][..., None, None] + _RIM_DX
    cy = tops[..., 1][..., None, None] + _RIM_DY
    xs = np.clip(np.round((cx + MARGIN) * px).astype(np.intp), 0, n)
    ys = np.clip(np.round((cy + MARGIN) * px).astype(np.intp), 0, n)
    ys *= grad.shape[1]
    ys += xs
    samples = np.take(grad.ravel(), ys)
    counted = np.count_nonzero(samples >= 0.0, axis=-1)
    samples.sort(axis=-1)
    masked = samples.shape[-1] - counted
    # the value `_RIM_SHARE` of the counted points reach (at least 12 of them counted)
    index = masked + np.floor((1.0 - _RIM_SHARE) * np.maximum(counted - 1, 0)).astype(np.intp)
    reached = np.take_along_axis(samples, np.minimum(index, samples.shape[-1] - 1)[..., None],
                                 axis=-1)[..., 0]
    reached = np.where(counted >= 12, reached, 0.0)  # (..., 10, 10, radii)
    return reached.max(axis=-1)


def _rim_limit(model: ColourModel) -> float:
    """The most outline contrast an empty cell shows: the most an empty cell showed at
    calibration (`ColourModel.rim_empty`) by `_RIM_MARGIN`, and at least `_RIM_MIN`."""
    assert model.rim_empty is not None
    return max(_RIM_MIN, model.rim_empty * _RIM_MARGIN)


def _rim_doubt(view: BoardView, model: ColourModel, p: np.ndarray) -> np.ndarray:
    """``p`` (10, 10, 3) made unsure where the colours and the outline disagree:

    - a sure empty reading where the cell shows a piece's outline clearly beyond any empty
      cell's at calibration: a pale piece under a glare, of the square's own colour, loses its
      colour but not its outline;
    - a piece read where the cell shows no more outline than an empty cell did, though that
      class's outline was seen clearly on this very cell (`CellReferences.rim`, at least
      `_RIM_SEEN` times the limit): a glare washes an empty dark square out to a pale man's
      colour, but draws no outline on it (the system bench's lidraughts-6 at seed 909007: the
      man left 34 under a lamp's glare, 34 read as a white man at 1.00, and the legal move was
      named "several pieces moved").  A piece's own outline counts, not the class's: a dark
      man on a dark square shows little of one anywhere.  Only where a king's top lands within
      `_KING_NEAR` of a man's in the view (a camera near vertical, or men seen low): elsewhere
      a king's outline lies off the man's circle, and a missing one proves nothing."""
    if model.rim_empty is None:
        return p
    limit = _rim_limit(model)
    best = np.argmax(p, axis=-1)
    rim = view.rim
    doubt = (rim > limit) & (best == EMPTY)
    cells = model.cells
    if cells is not None and cells.rim is not None:
        seen_rim = np.take_along_axis(cells.rim, best[..., None], axis=-1)[..., 0]
        gone = (best != EMPTY) & (rim <= limit) & (np.nan_to_num(seen_rim) >= _RIM_SEEN * limit)
        # where a king's top stands off a man's, its outline is not on the man's circle
        king_off = (_KING_RAISED - 1.0) * np.linalg.norm(view.top_xy - _CENTRES, axis=-1)
        gone &= king_off <= _KING_NEAR
    else:
        gone = np.zeros((10, 10), dtype=bool)
    if not doubt.any() and not gone.any():
        return p
    # the piece's colour, as far as the look tells it
    colour = p[..., 1:] / np.maximum(p[..., 1:].sum(axis=-1, keepdims=True), 1e-12)
    piece = np.concatenate([np.zeros((10, 10, 1)), 0.5 * colour + 0.25], axis=-1)
    out = np.where(doubt[..., None], (1.0 - _RIM_DOUBT) * p + _RIM_DOUBT * piece, p)
    empty = np.zeros(3)
    empty[EMPTY] = 1.0
    return np.where(gone[..., None], (1.0 - _RIM_DOUBT) * p + _RIM_DOUBT * empty, out)


def _cell_likelihoods(view: BoardView, model: ColourModel, change: np.ndarray,
                      glared: np.ndarray | None = None, bare: np.ndarray | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(10, 10, 3) log-likelihoods of each class for every cell's look under ``change`` (the
    light against calibration's), and the squared standardised distances of its top.  On the
    ``glared`` cells (`_glared_cells`) only the outline speaks: their colours tell nothing, and
    their distances are zero.  ``bare``: how much a missing outline weighs against each side's
    piece (`rim_likelihoods`)."""
    assert model.cells is not None
    mean = relight(model.cells.mean, change[..., None])
    loglik, d2 = _log_likelihoods(view.top, mean, _reference_variance(model))
    if model.floor_offset is not None and model.floor_spread is not None:
        # the top against the cell's own floor: the same light and glare on both; an empty
        # square's difference is the cell's own where it was seen empty (`_own_empty`)
        offset = model.floor_offset[None, None] * change[..., None, None]
        if model.cells.floor is not None:
            own = np.nan_to_num(model.cells.floor) * change[..., None]
            offset[..., EMPTY, :] = np.where(_own_empty(model.cells.floor)[..., None], own,
                                             offset[..., EMPTY, :])
        var = NOISE ** 2 + model.floor_spread[None, None] ** 2 * np.ones_like(offset)
        floor = _log_likelihoods(view.top - view.floor, offset, var)[0]
        loglik = loglik + np.where(_odd_floor(model, change)[..., None], 0.0, floor)
    if glared is not None and glared.any():
        loglik = np.where(glared[..., None], 0.0, loglik)
        d2 = np.where(glared[..., None], 0.0, d2)
    return loglik + rim_likelihoods(view, model, bare), d2


#: How much lighter (8-bit L) than an empty dark square's plain colour under the cell's light a
#: dark cell's floor must be for a lamp's glare to be taken as lying on it (`_glared_cells`):
#: the cells' own differences of paint and light stay well below it.
_GLARE_RISE = 30.0


def _glared_cells(view: BoardView, model: ColourModel, change: np.ndarray) -> np.ndarray:
    """(10, 10) dark cells whose top sample is clipped white (`_WASHED_L`) under a lamp's
    glare: their floor, the square's own colour beside the piece, is `_GLARE_RISE` lighter
    than an empty dark square under the cell's light.  A glare adds its light to whatever
    lies under it, and clips a pale man, a washed-out dark man and the empty square alike to
    white: the top's colour, and its difference from the floor (a glare centred on the
    square lights its middle more than its corners), tell nothing there, only the outline
    does.  Two of the system bench's games were misjudged so: an empty square under a glare's
    core, never seen empty (a man stood there from the set-up), read as the pale man taken
    from it at 0.75, and "too few pieces taken off" was named (selfplay-43 at seed 3939005);
    White's orange man moved under the glare, clipped white with a warm tint, read as Black's
    pale-cyan man at 0.70, and "pieces of both sides moved" was named (selfplay-19 at seed
    4040007).  A pale man clipped white where no glare lies (a bright room) keeps its colour's
    word: the floor there is the plain square."""
    assert model.cells is not None
    plain = relight(np.asarray(model.dark_square, dtype=np.float64)[None, None],
                    model.cells.light * change)[..., 0]
    return model.cells.dark_cells() & (view.top[..., 0] >= _WASHED_L) \
        & (view.floor[..., 0] >= plain + _GLARE_RISE)


#: Least spread (natural log) of a class's outline contrast about its centre, and the most the
#: outline may weigh (log-likelihood) against the colours in a reading (`rim_likelihoods`): a
#: clear outline against an empty square, a missing one against a piece not at all (a hand,
#: its shadow, a glare or a blur hide an outline; nothing but a piece draws one: a white man
#: under a glare, its outline washed out, read as an empty square at 0.91 with even 2 nats
#: against it, and a false Art. 27 was named, the system bench's selfplay-28 at seed 2626011).
_RIM_WEIGHT = 6.0
_RIM_MISSING = 0.0
_RIM_LOG_SPREAD = 0.2
#: Fewest dark cells of a class whose outlines tell its centre and spread.
_RIM_CELLS = 4


def rim_classes(rims: np.ndarray, labels: np.ndarray, dark: np.ndarray) -> np.ndarray | None:
    """(3 classes, centre and spread) of the log outline contrasts ``rims`` (10, 10) of the dark
    cells of each class in ``labels`` (10, 10; -1: none): the median and robust spread (at
    least `_RIM_LOG_SPREAD`).  A side with too few cells takes both sides' pieces together;
    None when the empty squares or the pieces are too few to tell."""
    logs = np.log(np.maximum(rims, 1e-3))
    pieces = ((labels == WHITE_PIECE) | (labels == BLACK_PIECE)) & dark
    out = np.full((3, 2), np.nan)
    for k in (EMPTY, WHITE_PIECE, BLACK_PIECE):
        sel = (labels == k) & dark
        if k != EMPTY and np.count_nonzero(sel) < _RIM_CELLS:
            sel = pieces
        if np.count_nonzero(sel) < _RIM_CELLS:
            return None
        centre = float(np.median(logs[sel]))
        spread = 1.4826 * float(np.median(np.abs(logs[sel] - centre)))
        out[k] = centre, max(spread, _RIM_LOG_SPREAD)
    return out


def rim_likelihoods(view: BoardView, model: ColourModel,
                    bare: np.ndarray | None = None) -> np.ndarray:
    """(10, 10, 3) log-likelihoods of each class for each cell's outline contrast
    (`rim_contrast`), from the outlines each class showed at calibration
    (`ColourModel.rim_classes`, a Student t in the log), an empty square's at most
    `_RIM_WEIGHT` below the best, a piece's at most `_RIM_MISSING`: where the colours tell the
    classes apart the outline changes little, where they do not (dark pieces the colour of the
    dark squares, pale ones under a glare) it decides.  A missing outline weighs nothing
    against a piece (`_RIM_MISSING`), except as much as ``bare`` (10, 10, 3: `_bare_cells`, a
    still board read whole, nothing over the cell, the side's outline plain there) gives.
    Zero when the outlines were not learnt."""
    if model.rim_classes is None:
        return np.zeros((10, 10, 3))
    centre = np.broadcast_to(model.rim_classes[:, 0], (10, 10, 3)).copy()
    spread = model.rim_classes[:, 1]
    cells = model.cells
    if cells is not None and cells.rim is not None:
        # an empty square's outline is the board's own there, the same every time it is empty
        seen = cells.rim[..., EMPTY]
        centre[..., EMPTY] = np.where(_own_empty(seen), np.log(np.maximum(np.nan_to_num(seen),
                                                                          1e-3)),
                                      centre[..., EMPTY])
    z = (np.log(np.maximum(view.rim, 1e-3))[..., None] - centre) / spread
    loglik = -0.5 * (_NU + 1.0) * np.log1p(z ** 2 / _NU) - np.log(spread)
    loglik = loglik - loglik.max(axis=-1, keepdims=True)
    floor = np.array([-_RIM_WEIGHT, -_RIM_MISSING, -_RIM_MISSING])
    if bare is not None and bare.any():
        floor = np.minimum(floor, -bare)
    return np.maximum(loglik, floor)


def _own_empty(seen: np.ndarray) -> np.ndarray:
    """(10, 10) the cells whose own empty look of one measure (``seen``: (10, 10) or (10, 10,
    channels), NaN where never seen empty) is known: there an empty square is expected to look
    as it did, not as the empty squares' typical (its outline, its top against its floor).  A
    square the board's border lies close to is unlike the middle's: on the other renderer's
    selfplay-23 at seed 2727000 the border's edge ran 2 pixels (of 32) inside the corner square
    46, darkening its floor's patches and drawing half an outline; empty, it read as White's
    man (the purple of the dark squares) on every board, learnt empty or not, and the legal
    46x37 was named Art. 27."""
    known = ~np.isnan(seen)
    return known if known.ndim == 2 else known.all(axis=-1)


#: The most a missing outline weighs against a piece on a bare cell (`rim_likelihoods`); how
#: far apart (in the larger of the two spreads) the log outline contrasts of the empty squares
#: and of each side's pieces must have stood at calibration for the outline to be plain on the
#: board; and how many times `_rim_doubt`'s limit a side's outline must be expected on the
#: cell for it to weigh all of that, less in proportion (in the log) down to none at the limit
#: (`_bare_cells`).
_RIM_BARE = 4.0
_RIM_PLAIN = 3.0
_RIM_FULL = 1.6


def _bare_cells(view: BoardView, model: ColourModel, glared: np.ndarray) -> np.ndarray:
    """(10, 10, 3 classes) how much a missing outline weighs against each side's piece (0 for
    the empty class and where it weighs nothing).  Only on a board whose pieces all showed
    their outlines plainly at calibration (each side's log contrast `_RIM_PLAIN` spreads above
    the empty squares'), on a cell neither glared (`_glared_cells`) nor washed out, whose
    outline contrast is no more than an empty cell's (`_rim_doubt`'s limit).  It weighs by
    how plainly the side's outline is expected there: as its piece showed it on this very
    cell at calibration (`CellReferences.rim`); for a side never seen on the cell, its
    outlines' median on the board, but no more than the other side's showed on the cell (on
    a cell no piece stood on, the faintest of its diagonal neighbours': the far edge, seen
    small, shows faint ones).  `_RIM_BARE` from `_RIM_FULL` times the limit, none at it.

    A piece the colour of the dark squares is told from an empty one by its outline alone: on
    the other renderer's lidraughts-7 at seed 4545008 (dark red men on dark red squares, whose
    tops differ from an empty square's by 1-3 units of a* and b*) an emptied square, as flat
    as any empty one, read empty at only 0.64, and the board was never read clearly again.  A
    black man on the far edge, seen from 45 degrees, had shown 2.6 against the limit of 2.5 at
    calibration: at 1.5 on a still board it must not read empty (with a weight of 4 nats it
    did, and Art. 27b was named falsely: the system bench's lidraughts-13 at seed 4343017).
    Only the still board read whole asks this: the passing reading, under the hands and their
    shadows, does not (`classify`'s ``outline``)."""
    none = np.zeros((10, 10, 3))
    cells = model.cells
    if model.rim_classes is None or model.rim_empty is None or cells is None \
            or cells.rim is None:
        return none
    centre, spread = model.rim_classes[:, 0], model.rim_classes[:, 1]
    apart = (centre[1:] - centre[EMPTY]) / np.maximum(spread[1:], spread[EMPTY])
    if not np.all(apart >= _RIM_PLAIN):
        return none
    limit = _rim_limit(model)
    flat = (view.rim <= limit) & ~glared & ~washed_out(view)
    seen = np.nan_to_num(cells.rim, nan=0.0)
    seen[..., EMPTY] = 0.0
    here = seen.max(axis=-1)
    padded = np.pad(here, 1)
    around = np.stack([padded[1 + dr:11 + dr, 1 + dc:11 + dc]
                       for dr in (-1, 1) for dc in (-1, 1)])
    known = around > 0.0
    faintest = np.where(known, around, np.inf).min(axis=0)
    here = np.where(here > 0.0, here,
                    np.where(np.count_nonzero(known, axis=0) >= 2, faintest, 0.0))
    expected = np.where(seen > 0.0, seen, np.minimum(here[..., None], np.exp(centre)))
    share = np.log(np.maximum(expected, 1e-3) / limit) / np.log(_RIM_FULL)
    weight = _RIM_BARE * np.clip(share, 0.0, 1.0)
    weight[..., EMPTY] = 0.0
    return np.where(flat[..., None], weight, 0.0)


#: Standard deviations (per channel) by which a cell's own empty top-less-floor difference
#: must stand off the empty cells' typical one for the floor to tell nothing there.
_FLOOR_ODD = 4.0


def _odd_floor(model: ColourModel, change: np.ndarray) -> np.ndarray:
    """(10, 10) cells whose own empty look stood off its floor unlike an empty cell's
    (`CellReferences.floor`): a lamp's glare centred on the square lit the top sample far
    more than the corners, so the top less the floor there looked like a pale man's, not an
    empty square's.  The floor tells nothing on them; the cell's own looks do (the system
    bench's selfplay-35 at seed 2525006: a set-up endgame whose empty 34 lay under the glare
    read as a white man at 0.97 on every board, and White's first move was named Art. 27)."""
    cells = model.cells
    assert model.floor_offset is not None and model.floor_spread is not None
    if cells is None or cells.floor is None:
        return np.zeros((10, 10), dtype=bool)
    own = cells.floor * change[..., None]
    typical = model.floor_offset[EMPTY][None, None] * change[..., None]
    spread = np.sqrt(NOISE ** 2 + model.floor_spread[EMPTY] ** 2)
    off = np.abs(own - typical) / spread
    return (np.nan_to_num(off, nan=0.0).max(axis=-1) > _FLOOR_ODD) & cells.dark_cells()


def _classify_cells(view: BoardView, model: ColourModel, dark_parity: int,
                    change: np.ndarray | None = None, outline: bool = True) -> CellProbabilities:
    assert model.cells is not None
    if change is None:
        change = light_change(view, model, dark_parity)
    glared = _glared_cells(view, model, change)
    bare = _bare_cells(view, model, glared) if outline else None
    loglik, d2 = _cell_likelihoods(view, model, change, glared, bare)
    prior = model.cells.prior()
    # where only the outline speaks, what was last known there weighs in (a piece's colour)
    loglik = np.where(glared[..., None], loglik + np.log(prior), loglik)
    p = _probabilities(loglik, d2, washed_out(view), ~model.cells.seen.any(axis=-1), prior)
    return CellProbabilities(_rim_doubt(view, model, p) if outline else p)


#: Smallest spread (per Lab channel) of a class about its colour under a cell's light.
_MIN_SPREAD = 2.5


def _centre_spread(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Median and per-channel robust standard deviation (at least `_MIN_SPREAD`) of N x 3."""
    centre = np.median(samples, axis=0)
    mad = np.median(np.abs(samples - centre), axis=0) * 1.4826
    return centre, np.maximum(mad, _MIN_SPREAD)


#: A piece's dark cell whose top lies within this many of the empty dark squares' spreads of
#: their colour looks like an empty square (`_looks_empty`).
_EMPTY_LIKE = 3.0


#: A side some of whose pieces lie this many of the empty dark squares' spreads from their hue
#: (a*b*) is of another hue (`_looks_empty`).
_HUE_APART = 10.0


def _looks_empty(typical: np.ndarray, layout: np.ndarray, light: np.ndarray,
                 washed: np.ndarray, absent: bool = False,
                 rims: np.ndarray | None = None) -> np.ndarray:
    """The dark cells ``layout`` gives a piece whose top (brought to the board's typical light)
    looks like the empty dark squares' (or, for a side of another hue than theirs, has their
    hue: a glare lightens an empty square, it does not colour it), when they are a minority of
    their class: their class colour is learnt without them (they are then read as odd).  A board a move on from the
    position it is learnt as (an endgame set up, the first move played before the camera saw
    the board still) puts an empty square among few pieces: the median of two, a king's top
    and an empty square's, was a colour half way, and the moved king's new square and its old
    one both read as that class (the arbiter never saw the move, then misread both squares for
    the rest of the game).  The empty squares are the many: their colour is sure.

    ``absent``: a side of at most `_ABSENT_MOST` pieces every one of which looks empty may be
    gone from the board (captured, the game over before the camera saw it still): those cells
    are left out too, and the class is learnt from none (`_ABSENT_COLOUR`).  Not while more
    dark cells show a piece's outline (``rims``, `rim_contrast`, well above the empty squares')
    than the other side has pieces: the outlines count the pieces standing, whatever their
    colour.  A green king on the green dark squares, the lone piece of its side, moved on once
    and looked empty by its colour alone; its side was taken as gone, four plies ending in its
    capture were "found played" before the camera had seen a move, and the game was recorded
    as lost (the system bench's selfplay-38 at seed 2929001)."""
    dark = ~light & ~washed
    empty = dark & (layout == EMPTY)
    out = np.zeros(layout.shape, dtype=bool)
    if np.count_nonzero(empty) < 5:
        return out
    centre, spread = _centre_spread(typical[empty])
    z = np.linalg.norm((typical - centre) / spread, axis=-1)
    hue = np.linalg.norm((typical[..., 1:] - centre[1:]) / spread[1:], axis=-1)
    outlined = _outlined(dark, empty, rims) if absent else 0
    for k in (WHITE_PIECE, BLACK_PIECE):
        cls = dark & (layout == k)
        # a side whose pieces are of another hue than the empty squares: a cell of the empty
        # squares' hue is one, whatever its lightness (under a glare: an emptied square read
        # as the median of it and a king, and an empty square under the glare as that side)
        other_hue = cls.any() and float(hue[cls].max()) >= _HUE_APART
        like = cls & ((z <= _EMPTY_LIKE) | (other_hue & (hue <= _EMPTY_LIKE)))
        n, m = np.count_nonzero(cls), np.count_nonzero(like)
        if (0 < m <= max(1, n // 3) and m < n) or (
                absent and 0 < m == n <= _ABSENT_MOST
                and outlined <= np.count_nonzero(dark & (layout != EMPTY) & (layout != k))):
            out |= like
    return out


def _outlined(cells: np.ndarray, empty: np.ndarray, rims: np.ndarray | None) -> int:
    """How many of ``cells`` show a piece's outline: a contrast (``rims``) above what the
    ``empty`` cells show (their upper tenth, by `_RIM_MARGIN`; at least `_RIM_MIN`: robust to
    the few pieces a board played on puts on squares learnt as empty).  0 without ``rims``."""
    if rims is None or np.count_nonzero(empty) < 5:
        return 0
    limit = max(_RIM_MIN, float(np.quantile(rims[empty], 0.9)) * _RIM_MARGIN)
    return int(np.count_nonzero(cells & (rims > limit)))


#: A side of at most this many pieces, every one of which looks like an empty square, may be
#: gone from the board (`_looks_empty`).
_ABSENT_MOST = 4
#: The colour (Lab, 8-bit scale) of a class learnt from no cell: far outside any camera's
#: colours, so no cell is ever read as it (a side gone from the board, `learn_references`).
_ABSENT_COLOUR = np.array([1000.0, 1000.0, 1000.0])


#: A cell read otherwise than the layout at calibration is odd (and learns the class it shows)
#: only where its look lies within this many of that class's spreads (the root of the squared
#: distances summed over the channels) and that class is likelier than the next by
#: `_ODD_MARGIN` (log-likelihood).
_ODD_CLEAR = 3.0
_ODD_MARGIN = 10.0


def learn_references(view: BoardView, layout: np.ndarray, dark_parity: int,
                     absent: bool = False) -> tuple[ColourModel, list[tuple[int, int]]]:
    """A calibrated model from a view whose every cell's class ``layout`` (10, 10: `EMPTY`,
    `WHITE_PIECE`, `BLACK_PIECE`) gives, as in the start position.

    The light on each cell is the light squares' lightness around it against the board's
    median; each class's colour and per-channel spread are those of its dark cells' tops
    brought to the board's typical light.  Every cell keeps its own top as its reference of its
    class, except the odd cells: read by their looks alone with the class colours (no class
    expected), those that clearly show another class than ``layout``'s are returned, and keep
    their top as the reference of the class they show.  Washed-out dark cells (`washed_out`)
    learn nothing and tell nothing.

    A side that ``layout`` gives no dark cell (or, ``absent``, only a few that all look empty:
    gone from the board, `_looks_empty`) has no look to learn: its class colour is
    `_ABSENT_COLOUR`, and no cell is read as it (`ColourModel.cells.seen` tells it was never
    seen)."""
    light = view.parity != dark_parity
    washed = washed_out(view)
    level = np.where(light, view.top[..., 0] + L_OFFSET, np.nan)
    factor = _light_field(level) / np.nanmedian(level)
    factor = np.clip(np.where(np.isfinite(factor), factor, 1.0), 0.4, 2.5)
    typical = relight(view.top, 1.0 / factor)
    colours, spread = np.zeros((3, 3)), np.zeros((3, 3))
    offset, offset_spread = np.zeros((3, 3)), np.zeros((3, 3))
    looks_empty = _looks_empty(typical, layout, light, washed, absent, view.rim)
    gone = np.zeros(layout.shape, dtype=bool)  # the cells of a side gone from the board
    for k in (EMPTY, WHITE_PIECE, BLACK_PIECE):
        sel = (layout == k) & ~light
        if np.count_nonzero(sel & ~washed) >= 3:
            sel &= ~washed
        sel &= ~looks_empty
        if not sel.any():  # a side gone from the board: never read
            gone |= (layout == k) & ~light & looks_empty
            colours[k], spread[k] = _ABSENT_COLOUR, np.full(3, _MIN_SPREAD)
            offset[k], offset_spread[k] = np.zeros(3), np.full(3, _MIN_SPREAD)
            continue
        colours[k], spread[k] = _centre_spread(typical[sel])
        offset[k], offset_spread[k] = _centre_spread((view.top - view.floor)[sel])
    predicted = relight(colours[None, None], factor[..., None])
    refs = CellReferences(predicted, np.zeros((10, 10, 3), dtype=bool), factor, layout.copy(),
                          dark=~light)
    model = ColourModel(tuple(np.median(typical[light], axis=0)),  # type: ignore[arg-type]
                        tuple(colours[EMPTY]), tuple(colours[WHITE_PIECE]),  # type: ignore[arg-type]
                        tuple(colours[BLACK_PIECE]),  # type: ignore[arg-type]
                        float(np.median(np.linalg.norm(spread, axis=1))), spread, refs,
                        offset, offset_spread)
    # each cell read by the class colours alone, by its look only: the layout is what is
    # tested, so it must not lean the reading (with the layout as the guess no cell was ever
    # odd, and a board a move on from the position was learnt as it: the moved king's new
    # square learnt "empty" in the king's colour, and the move was never seen)
    loglik, d2 = _cell_likelihoods(view, model, np.ones((10, 10)))
    best = np.argmax(loglik, axis=-1)
    fit = np.sort(loglik, axis=-1)
    shown = np.take_along_axis(d2, best[..., None], axis=-1)[..., 0]
    # a cell that clearly shows another class (its look well within that class's spread, the
    # others far) is odd, and learns the class it shows: that is what stands there.  One read
    # otherwise but unclearly (a faint set-up in a dim room, a glare, a shade) learns the
    # layout's class, the best guess there.
    clear = (shown <= _ODD_CLEAR ** 2) & (fit[..., -1] - fit[..., -2] >= _ODD_MARGIN)
    odd_cells = (best != layout) & clear & ~light & ~washed | gone
    odd = [(int(r), int(c)) for r, c in np.argwhere(odd_cells)]
    labels = np.where(gone, EMPTY, np.where(washed & ~light, -1,
                                            np.where(odd_cells, best, layout)))
    rims = view.rim
    empty = (labels == EMPTY) & ~light
    rim = float(rims[empty].max()) if np.count_nonzero(empty) >= 4 else None
    pieces = ((labels == WHITE_PIECE) | (labels == BLACK_PIECE)) & ~light
    rim_pieces = (float(np.quantile(rims[pieces], 0.1)) if np.count_nonzero(pieces) >= 4
                  else None)
    cells = refs.learnt(view.top, labels, rate=1.0, rims=rims, floors=view.top - view.floor) \
        .from_neighbours(colours).with_glare(colours)
    return replace(model, cells=cells, rim_empty=rim, rim_pieces=rim_pieces,
                   rim_classes=rim_classes(rims, labels, ~light)), odd
