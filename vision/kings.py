"""Kings from men: a king is two men stacked, so its top face stands twice as high.

Seen obliquely, a piece of height ``h`` covers, in the top-down (board-plane) reading view, its
base disc swept along the camera's outward direction ``u`` (away from the camera's foot) to its
top face, a disc of (almost) the same radius displaced by ``s = |shift(h)|`` (`vision.pose`).
On the near side the stack's side band shows; the top face is the uniformly lit part.  So along
``u`` through the cell centre the top face spans ``[s - r, s + r]``, and ``s`` tells a man from a
king: a king's is about twice a man's.

Measuring, per piece (all vectorised, well under a millisecond for a full board):

- ``r``, the pieces' radius, from profiles across ``u`` (the silhouette's width is ``2r`` at any
  height, so men and kings agree): the symmetric window whose ends have the strongest edges and
  the cell's own floor just outside them; the contrast-weighted median over the board's pieces.
- the top colour, from the part of the profile that is top face whether the piece is a man or a
  king, and ``s``: the window of width ``2r`` along ``u`` that holds the samples nearest that
  colour (least squared colour distance).  It uses both rims of the top face, each as far as its
  contrast allows (the band on the near side, the floor or a neighbour on the far side), and
  nothing beyond them, so a square's corner or a piece behind cannot pull it.  Where the band
  looks like the top (a dark piece in a dim light) only the far rim tells: the window is pulled
  out to it.

The start position calibrates it (`calibrate`), and the men the game later guarantees refine it
(`refit`, from `vision.pipeline.BoardWatcher.confirm`): the view's own distortion along ``u`` (the
board's grid lines measured where they should be; a lens bends them and a homography cannot
follow), a man's height and each piece colour's bias and noise of the measured shift (a dark piece
on a dark square shows only a faint far rim).  A reading then weighs ``s`` against a man's and a
king's with a Student-t likelihood (heavy tails: one odd profile never makes a certain king) of the
colour's calibrated spread.  How far apart the two hypotheses are in image pixels decides how sure
the reading may be: under `SURE_PX` (a camera far from the board, `KingEvidence.uncertain`, or
the cells near its foot) a piece is never a sure man and at most a likely king
(`UNSURE_KING_MAX`), the other always the reading's ``alternative``; under `LIKELY_PX`, or with
the camera nearly above the board (`vision.pose.Pose.top_down`), never a king
(`CANNOT_TELL_MAX`).  Without a calibration, the man's height is the median of the measured
heights and the spread is ``noise``.

One photo (`photo_kings`, the CLI's ``read``) knows no position: its men are the height
reference.  A man's height is fitted as the lower mode of a man-or-king mixture (each piece at a
man's height or twice it, each colour its own apparent height, kings a minority: `lower_mode`),
the men of that fit calibrate as the start position does, and the men's own scatter about their
height is the photo's noise (`PhotoFit`): a king stands three noises and half way above a man's,
where the reading's own estimate of the separation reaches `PHOTO_SURE_PX`.  A photo whose men
scatter more than `PHOTO_NOISE_MAX_PX` pixels and `PHOTO_NOISE_MAX_SHARE` of their height (the
labelled real photos: their tops are not found) is no reference and reads no king; nor does a
piece colour whose own men scatter so.
The prior (`PRIOR_KING`) is the reading's, not the game's: the arbiter knows where its kings are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.colours import two_means
from vision.notes import Note
from vision.pose import Pose
from vision.squares import MAN_HEIGHT, MARGIN, BoardView

#: Profile samples along ``u`` (squares from the cell centre) and their offsets across it.
_T = np.arange(-0.6, 1.725, 0.025)
_W = np.array([-0.12, -0.06, 0.0, 0.06, 0.12])
#: Profile samples across ``u`` (for the radius) and their offsets along it.
_V = np.arange(-0.75, 0.76, 0.025)
_VW = np.array([-0.06, 0.0, 0.06])
#: Half-window (squares) of the edge contrasts of the width fit.
_EPS = 0.05
#: Candidate positions of the top face per piece.
_CANDIDATES = 48
#: Pull of the top-face window towards the far rim (squared Lab distance per square of shift)
#: when the side band looks like the top face, and the band's distance from the top colour
#: (Lab) from which it counts as distinct (no pull): see `_top_shift`.
_FAR_PULL = 25.0
_BAND_DISTINCT = 12.0
#: Where the colour just beyond a top's measured far rim (`_BEYOND`, squares past it) differs
#: from the top by less than this share of what the band does, the far rim is unseen: the top
#: lies against a square of its own colour (pale pieces beside light squares, dark ones on
#: dark squares) and the window may have slid outwards over it, a man measured as a king.  Such
#: a top is measured again by its near rim alone (`_near_rim_shift`, over `_RIM_STEP` squares
#: either side; ``KingEvidence.near_rim_height``).  One photo's (`photo_kings`): seen so, of
#: the kings read on `bench.stills` (seed 0, home 300 and alt 100 stills) 76 of 709 true ones
#: and 26 of 36 false ones.
_FAR_WEAK = 0.3
_BEYOND = np.array([0.06, 0.09, 0.12])
_RIM_STEP = 0.1
#: Pull of the window towards the near rim where the band is distinct (`king_evidence`'s
#: ``near_pull``; one photo's, `photo_kings`): beyond a top face the next square may be of the
#: top's own colour (light pieces on light squares), and nothing then stops the window sliding
#: outwards (a man measured as a king); the near rim, band against top, always tells.  Small
#: beside a true rim's contrast.  It lowers every measured shift a little, so a calibration
#: and the readings weighed against it must measure alike: the live watcher does without.
PHOTO_NEAR_PULL = 40.0
#: How likely a piece is a king before looking.  Not the game's odds (the arbiter knows where its
#: kings are, and weighs the reading with that): with the heavy tails of the likelihood, 0.1 put
#: the boundary at about 63% of the way from a man's top to a king's, while the kings the camera
#: can tell measure at 64% and up (the bench's 1st percentile; men's 99th: 35%).  At 0.25 it is
#: at about 56%.
PRIOR_KING = 0.25
#: How far (camera pixels) a king's top must lie from a man's for the reading to be sure of
#: either, and to read a king at all.  Measured on the kings of `bench.vision_accuracy` (seeds 0-4
#: and 7, 2,900 pieces at 20 degrees and more), the share of men measured past half way to a king
#: and of kings short of it: under 1.5 pixels 30% and 33% (the camera cannot tell); 1.5 to 2.5
#: pixels 5-9% and 9-15%; from 2.5, 1-2.4% and 0.1-0.6%.
SURE_PX = 2.5
LIKELY_PX = 1.5
#: The highest king probability between `LIKELY_PX` and `SURE_PX`: measured there, 64 of 66
#: pieces given 0.5 to 0.99 were kings (the likelihood unclipped, half the pieces kings), so a
#: king is read, but never surely; nor is a man (the floor is the prior).
UNSURE_KING_MAX = 0.75
#: The highest king probability where the camera cannot tell (under `LIKELY_PX`, or nearly above
#: the board): the reading stays a man, the king its alternative.
CANNOT_TELL_MAX = 0.45
#: Student-t degrees of freedom of the measured shift.
_NU = 4.0
#: Smallest spread (squares) of a calibrated shift: a third of a view pixel and the sub-sample
#: interpolation are not better than this.
_SIGMA_MIN = 0.01
#: Fewer pieces than this (an endgame set up) fit a man's height alone, no colour's bias, and
#: their spread is taken as `_SIGMA_FEW` (squares: the start positions' usual spread).
_ENOUGH_MEN = 12
_SIGMA_FEW = 0.025


@dataclass(frozen=True, eq=False)
class KingCalibration:
    """What the start position teaches (`calibrate`): a man's ``man_height`` (squares); the
    reading view's ``displacement`` (10 x 10 x 2, squares) of each cell centre from where the
    homography puts it; per piece colour (index 0 the lighter): the ``tops`` colour (Lab), the
    ``bias`` and ``sigma`` of the measured top-face shift (squares); ``samples``: the men's
    measurements it was fitted from, by image cell (`refit` adds the game's)."""

    man_height: float
    displacement: np.ndarray
    tops: np.ndarray
    bias: np.ndarray
    sigma: np.ndarray
    samples: Mapping[tuple[int, int], tuple] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class KingEvidence:
    """Per cell ([row, col], image grid; NaN where no piece): ``height`` measured (squares),
    ``extent`` the measured top-face shift along ``u`` less the calibrated offsets (squares),
    ``per_unit`` the shift per unit of height, ``p_king`` the probability of a king, ``king`` the
    decision; ``uncertain`` when the camera is too nearly above the board, or too far from it, to
    tell surely (``separation_px``: the image distance between a man's and a king's top at the
    board centre, under `SURE_PX`).
    ``shift``, ``tops``, ``radius`` and ``view`` are the raw measurements `calibrate` learns from;
    ``separation`` is each cell's image distance (pixels) between a man's and a king's top: below
    `SURE_PX` the cell's probability stays between the prior and `UNSURE_KING_MAX` (the camera is
    at its limit there), or `CANNOT_TELL_MAX` under `LIKELY_PX` or with the camera nearly above
    the board (it cannot tell).
    ``near_rim_height``: where the top's far rim is unseen (`_FAR_WEAK`, one photo's reading),
    its height measured by the near rim alone (squares; NaN elsewhere).  ``rims_unseen``: where
    neither rim is seen (the band like the top, and a square of the top's colour where a man's
    far rim would lie; one photo's reading): the measured height is no evidence.
    """

    height: np.ndarray
    extent: np.ndarray
    per_unit: np.ndarray
    p_king: np.ndarray
    king: np.ndarray
    uncertain: bool
    separation_px: float
    shift: np.ndarray | None = None
    tops: np.ndarray | None = None
    radius: float = float("nan")
    view: BoardView | None = None
    directions: np.ndarray | None = None
    separation: np.ndarray | None = None
    near_rim_height: np.ndarray | None = None
    rims_unseen: np.ndarray | None = None


def _shift_of(h: float | np.ndarray, per_unit: np.ndarray, height: float) -> np.ndarray:
    """|shift| of a point ``h`` above a board point with |shift| per unit height ``per_unit``:
    ``h * rho / (H - h)`` with ``rho = per_unit * H``."""
    return h * per_unit * height / np.maximum(height - h, 1e-3)


def separation_px(pose: Pose, points: np.ndarray, man_height: float, square_px: float
                  ) -> np.ndarray:
    """Camera pixels between a man's and a king's top at board ``points`` (N x 2, squares of
    the image grid): ``|shift(2h)| - |shift(h)|``, which grows with the distance from the
    camera's foot, scaled by the pixels a square spans."""
    rho = np.linalg.norm(np.asarray(points, np.float64).reshape(-1, 2) - pose.foot[None, :], axis=1)
    per_unit = rho / max(pose.height, 1e-6)
    return (_shift_of(2 * man_height, per_unit, pose.height)
            - _shift_of(man_height, per_unit, pose.height)) * square_px


def limit_warning(pose: Pose, man_height: float, square_px: float,
                  cells: Sequence[tuple[int, int]], names: Sequence[str]) -> Note | None:
    """Why kings cannot be told from men surely from where the camera stands, with the fix, or
    None where it can tell them everywhere: nearly above the board (never, `CANNOT_TELL_MAX`);
    a king's top under `SURE_PX` pixels from a man's at the board's centre (the camera far from
    the board, or little tilted); or under it on those of the image ``cells`` ([row, col], named
    ``names``) nearest the camera's foot, where readings stay unsure (`UNSURE_KING_MAX`)."""
    if pose.top_down:
        return Note("kings_top_down", f"kings cannot be told from men: the camera is nearly above "
                    f"the board ({pose.tilt_deg:.0f} deg off vertical); tilt it 20 to 45 degrees",
                    tilt=float(pose.tilt_deg))
    centre = float(separation_px(pose, np.array([[5.0, 5.0]]), man_height, square_px)[0])
    if centre < SURE_PX:
        if pose.tilt_deg >= 20.0:
            where, fix = "the camera is far from the board", "bring it closer"
            code, values = "kings_camera_far", {}
        else:
            where = f"the camera is only {pose.tilt_deg:.0f} deg off vertical"
            fix = "tilt it further, 20 to 45 degrees, or bring it closer"
            code, values = "kings_camera_steep", {"tilt": float(pose.tilt_deg)}
        return Note(code, f"kings cannot be told from men surely: a king's top is only {centre:.1f} "
                    f"pixels from a man's ({where}, {square_px:.0f} pixels a square); {fix}",
                    px=centre, square_px=float(square_px), **values)
    centres = np.array([(c + 0.5, r + 0.5) for r, c in cells]).reshape(-1, 2)
    seps = separation_px(pose, centres, man_height, square_px)
    near = [name for name, sep in zip(names, seps) if sep < SURE_PX]
    if not near:
        return None
    named = f"{', '.join(near[:10])}{' ...' if len(near) > 10 else ''}"
    return Note("kings_near_camera", f"kings cannot be told from men surely on {len(near)} "
                f"square(s) nearest the camera ({named}): a king's top is under {SURE_PX:g} pixels "
                "from a man's there; tilt the camera further or bring it closer",
                count=len(near), cells=named, sure_px=SURE_PX)


def _heights_from_extent(extent: np.ndarray, per_unit: np.ndarray, pose_height: float) -> np.ndarray:
    """Invert |shift(h)| = h * rho / (H - h) for h, rho = the point's horizontal distance from
    the camera's foot (``per_unit`` = rho / H ~ |shift| per unit height for small h)."""
    rho = per_unit * pose_height
    e = np.maximum(extent, 0.0)
    return e * pose_height / np.maximum(rho + e, 1e-6)


def _sample(view: BoardView, pts: np.ndarray) -> np.ndarray:
    """Lab samples of the view at grid points ``pts`` (..., 2)."""
    pix = ((pts + MARGIN) * view.px).reshape(-1, 2).astype(np.float32)
    count = len(pix)
    cols = 1024  # remap's maps are images: keep them narrower than 32767
    pix = np.concatenate([pix, np.zeros((-count % cols, 2), np.float32)]).reshape(-1, cols, 2)
    out = cv2.remap(view.lab, pix[..., 0], pix[..., 1], cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(-1, 3)[:count].reshape(*pts.shape[:-1], 3).astype(np.float64)


def _at(profile: np.ndarray, grid: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Linear interpolation of per-piece profiles (n, len(grid), ...) at positions t (n, k)."""
    step = grid[1] - grid[0]
    x = np.clip((t - grid[0]) / step, 0, len(grid) - 1 - 1e-9)
    i = np.floor(x).astype(int)
    f = x - i
    rows = np.arange(len(profile))[:, None]
    a, b = profile[rows, i], profile[rows, i + 1]
    if profile.ndim == 3:
        f = f[..., None]
    return a * (1 - f) + b * f


def _radius(view: BoardView, centres: np.ndarray, mid: np.ndarray, v: np.ndarray,
            u: np.ndarray, floors: np.ndarray) -> float:
    """The pieces' radius from profiles across ``u`` through ``mid`` (see the module docstring)."""
    pts = (mid[:, None, None, :] + _V[None, :, None, None] * v[:, None, None, :]
           + _VW[None, None, :, None] * u[:, None, None, :])
    prof = np.median(_sample(view, pts), axis=2)  # (n, V, 3)
    widths = np.arange(0.3, 0.56, 0.0125)
    n, k = len(centres), len(widths)
    w = np.broadcast_to(widths, (n, k))
    il, ol = _at(prof, _V, -w + _EPS), _at(prof, _V, -w - _EPS)
    ir, orr = _at(prof, _V, w - _EPS), _at(prof, _V, w + _EPS)
    edge = np.linalg.norm(il - ol, axis=-1) + np.linalg.norm(ir - orr, axis=-1)
    spots = np.linspace(-1, 1, 12)[None, None, :] * (w - _EPS)[..., None]
    inner = _at(prof, _V, spots.reshape(n, -1)).reshape(n, k, 12, 3)
    dev = np.linalg.norm(inner - inner.mean(axis=2, keepdims=True), axis=-1).mean(axis=-1)
    off = (np.linalg.norm(ol - floors[:, None, :], axis=-1)
           + np.linalg.norm(orr - floors[:, None, :], axis=-1))
    score = edge - 2 * dev - 2 * off
    best = np.argmax(score, axis=1)
    r = widths[best]
    c = edge[np.arange(n), best]
    order = np.argsort(r)
    cw = np.cumsum(c[order] ** 2)
    if cw[-1] <= 0:
        return 0.42
    return float(r[order][np.searchsorted(cw, cw[-1] / 2)])


def _top_shift(prof: np.ndarray, r: float, lo: np.ndarray, hi: np.ndarray,
               top: np.ndarray, pull: np.ndarray | float = 0.0) -> np.ndarray:
    """Per piece, the centre in [lo, hi] of the window of half-width ``r`` along the profile whose
    samples are nearest the colour ``top`` (least squared distance, sub-sample refined).

    The window's ends settle where the profile is equally far from the top colour.  Where the
    side band looks like the top face (a dark piece in a dim light) the near end says nothing
    and the window would rest anywhere along the band; ``pull`` (per piece, squared distance
    per square) then moves it outwards, to the far rim: the top face is the farthest disc of
    the silhouette.  Where the band is distinct, no pull: a far rim against a square of the
    top's own colour would not stop it."""
    cum = _integral(np.sum((prof - top[:, None, :]) ** 2, axis=-1))
    ss = _candidates(lo, hi)
    cost = _at(cum, _T, ss + r) - _at(cum, _T, ss - r)  # cum[:, j]: the integral up to _T[j]
    cost = cost - np.reshape(pull, (-1, 1)) * ss
    return _least(cost, ss)


def _candidates(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """`_CANDIDATES` evenly spaced shifts per piece from ``lo`` to ``hi`` (n, `_CANDIDATES`)."""
    return lo[:, None] + (hi - lo)[:, None] * np.linspace(0.0, 1.0, _CANDIDATES)[None, :]


def _integral(d2: np.ndarray) -> np.ndarray:
    """The running integral along `_T` of per-piece profile values ``d2`` (n, len(_T))."""
    step = _T[1] - _T[0]
    return np.concatenate([np.zeros((len(d2), 1)),
                           np.cumsum(0.5 * (d2[:, 1:] + d2[:, :-1]) * step, axis=1)], axis=1)


def _near_rim_shift(prof: np.ndarray, r: float, lo: np.ndarray, hi: np.ndarray,
                    top: np.ndarray, band: np.ndarray) -> np.ndarray:
    """Per piece, the shift in [lo, hi] whose top face's near rim (at ``shift - r``) best
    parts the band's colour before it from the top's after it: a step of `_RIM_STEP` squares
    either side, least squared distance, sub-sample refined.  For a top whose far rim lies
    against a square of its own colour (a pale piece beside a light square): only the near rim,
    band against top, tells where the top is; a blurred step is parted at its middle."""
    cum_top = _integral(np.sum((prof - top[:, None, :]) ** 2, axis=-1))
    cum_band = _integral(np.sum((prof - band[:, None, :]) ** 2, axis=-1))
    ss = _candidates(lo, hi)
    edge = ss - r
    cost = (_at(cum_band, _T, edge) - _at(cum_band, _T, edge - _RIM_STEP)
            + _at(cum_top, _T, edge + _RIM_STEP) - _at(cum_top, _T, edge))
    return _least(cost, ss)


def _least(cost: np.ndarray, ss: np.ndarray) -> np.ndarray:
    """Per row, the candidate of ``ss`` (evenly spaced, `_candidates`) of least ``cost``,
    refined between its neighbours by a parabola."""
    n = len(cost)
    k = np.argmin(cost, axis=1)
    rows = np.arange(n)
    s = ss[rows, k]
    inner = (k > 0) & (k < _CANDIDATES - 1)
    a = cost[rows, np.maximum(k - 1, 0)]
    b = cost[rows, k]
    c = cost[rows, np.minimum(k + 1, _CANDIDATES - 1)]
    den = a - 2 * b + c
    ok = inner & (den > 1e-12)
    spacing = ss[:, 1] - ss[:, 0]
    s = np.where(ok, s + 0.5 * (a - c) / np.where(ok, den, 1.0) * spacing, s)
    return s


def _t_loglik(x: np.ndarray, mu: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    z = (x - mu) / sigma
    return -np.log(sigma) - (_NU + 1) / 2 * np.log1p(z * z / _NU)


def king_evidence(view: BoardView, pose: Pose, occupied: np.ndarray, *,
                  man_height: float | None = None, square_px: float | None = None,
                  prior_king: float = PRIOR_KING, noise: float = 0.02,
                  offset: float | KingCalibration = 0.0, near_pull: float = 0.0,
                  near_rim: bool = False) -> KingEvidence:
    """Measure the top-face shift of every occupied cell's piece and weigh man against king.

    ``square_px``: the size of a square in the camera image (whether the camera can tell at
    all); ``prior_king``: how likely a piece is a king before looking; ``man_height`` (squares)
    when known, else the median measured height (most pieces are men); ``offset``: a
    `KingCalibration` from the start position (`calibrate`), or a constant bias of the measured
    shift (squares); ``noise``: the measuring spread (squares) without a calibration;
    ``near_pull``: see `PHOTO_NEAR_PULL`; ``near_rim``: where a top's far rim shows much less
    contrast than its near rim (`_FAR_WEAK`), measure it by the near rim alone too
    (``KingEvidence.near_rim_height``)."""
    nan = np.full((10, 10), np.nan)
    cal = offset if isinstance(offset, KingCalibration) else None
    if cal is not None and man_height is None:
        man_height = cal.man_height
    assumed = MAN_HEIGHT if man_height is None else man_height
    sep_px = float(separation_px(pose, np.array([[5.0, 5.0]]), assumed,
                                 square_px if square_px is not None else 50.0)[0])
    uncertain = sep_px < SURE_PX
    cells = np.argwhere(occupied)
    if not len(cells):
        z = np.zeros((10, 10))
        return KingEvidence(nan, nan, nan, z, z.astype(bool), uncertain, sep_px)
    n = len(cells)
    centres = np.stack([cells[:, 1] + 0.5, cells[:, 0] + 0.5], axis=1).astype(np.float64)
    unit = pose.shift(centres, 1e-3) / 1e-3  # d|shift|/dh at h = 0: rho / H along u
    per_unit = np.linalg.norm(unit, axis=1)
    u = unit / np.maximum(per_unit[:, None], 1e-9)
    u[per_unit < 1e-6] = [0.0, 1.0]  # no tilt: any axis
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    H = pose.height
    floors = view.floor[cells[:, 0], cells[:, 1]]
    r = _radius(view, centres, centres + pose.shift(centres, 0.5 * assumed), v, u, floors)
    pts = (centres[:, None, None, :] + _T[None, :, None, None] * u[:, None, None, :]
           + _W[None, None, :, None] * v[:, None, None, :])
    prof = np.median(_sample(view, pts), axis=2)  # (n, T, 3)

    # the offsets of the measured shift: the view's distortion along u and the colour's bias
    if cal is not None:
        delta = np.einsum("nk,nk->n", cal.displacement[cells[:, 0], cells[:, 1]], u)
    else:
        delta = np.full(n, float(offset) if np.isscalar(offset) else 0.0)
    s_man = _shift_of(assumed, per_unit, H)
    s_king = _shift_of(2 * assumed, per_unit, H)
    if man_height is None:  # measure first, the man's height is the median
        mid = _shift_of(1.5 * assumed, per_unit, H)
        lo = np.zeros(n)
        hi = _shift_of(2.6 * assumed, per_unit, H) + 0.03
    else:
        mid = 0.5 * (s_man + s_king)
        d = s_king - s_man
        lo = np.maximum(s_man - 0.6 * d, 0.0)
        hi = s_king + 0.6 * d
    # the top colour where a man's and a king's top faces overlap (around 1.5 men's shift)
    half = np.clip(r - 0.5 * (s_king - s_man) - 0.03, 0.05, 0.5 * r)
    tnear = np.linspace(-1.0, 1.0, 9)[None, :] * half[:, None]
    tops = np.median(_at(prof, _T, delta[:, None] + mid[:, None] + tnear), axis=1)
    colour = np.zeros(n, dtype=int)
    if cal is not None:
        colour = np.argmin(np.linalg.norm(tops[:, None, :] - cal.tops[None], axis=-1), axis=1)
        delta = delta + cal.bias[colour]
    # the band in the middle of a man's (a king's band starts the same): like the top or not
    band = np.median(_at(prof, _T, (0.5 * s_man - r + delta)[:, None] + 0.3 * tnear), axis=1)
    alike = 1.0 - np.linalg.norm(band - tops, axis=1) / _BAND_DISTINCT
    raw = _top_shift(prof, r, lo + delta, hi + delta, tops,
                     _FAR_PULL * np.clip(alike, 0.0, 1.0)
                     - near_pull * np.clip(1.0 - alike, 0.0, 1.0))
    rim = nan.copy()
    blind = np.zeros((10, 10), dtype=bool)
    if near_rim:
        # a far rim against a square of the top's own colour (a pale top beside a light square)
        # lets the window slide outwards: there the near rim alone is measured too
        beyond = np.median(_at(prof, _T, (raw + r)[:, None] + _BEYOND[None, :]), axis=1)
        band_apart = np.linalg.norm(band - tops, axis=1)
        unseen = np.linalg.norm(beyond - tops, axis=1) < _FAR_WEAK * band_apart
        # neither rim where the band looks like the top and a man's far rim would lie against
        # a square of the top's colour too: the window slides outwards to whatever edge comes
        # next (the other renderer's alt-0026 at seed 5: near-white men before near-white
        # squares, 44 degrees, the window stopped at the dark square beyond, three men
        # measured as kings)
        q = centres + (s_man + delta + r + _BEYOND[1])[:, None] * u
        col, row = np.floor(q[:, 0]).astype(int), np.floor(q[:, 1]).astype(int)
        rr, cc = np.clip(row, 0, 9), np.clip(col, 0, 9)
        behind = ((row >= 0) & (row < 10) & (col >= 0) & (col < 10) & ~occupied[rr, cc]
                  & (np.linalg.norm(view.floor[rr, cc] - tops, axis=1) < _BAND_DISTINCT)
                  & (band_apart < _BAND_DISTINCT))
        blind[cells[behind, 0], cells[behind, 1]] = True
        if unseen.any():
            near = _near_rim_shift(prof[unseen], r, (lo + delta)[unseen], (hi + delta)[unseen],
                                   tops[unseen], band[unseen]) - delta[unseen]
            rim[cells[unseen, 0], cells[unseen, 1]] = _heights_from_extent(
                near, per_unit[unseen], H)
    extent = raw - delta
    h = _heights_from_extent(extent, per_unit, H)
    if man_height is None:
        man_height = (float(np.clip(np.median(h), 0.1, 0.4))
                      if n >= 3 and not uncertain else assumed)
        s_man = _shift_of(man_height, per_unit, H)
        s_king = _shift_of(2 * man_height, per_unit, H)
    px = square_px if square_px is not None else 50.0
    # the calibrated spread, never below half a camera pixel
    sigma = np.hypot(cal.sigma[colour] if cal is not None else noise, 0.5 / px)
    a = np.log(prior_king) + _t_loglik(extent, s_king, sigma)
    b = np.log(1 - prior_king) + _t_loglik(extent, s_man, sigma)
    pk = 1.0 / (1.0 + np.exp(np.clip(b - a, -50, 50)))
    # where a king's top is less than `SURE_PX` camera pixels from a man's (the whole board
    # with the camera far away, or the cells nearest the camera's foot) the camera is at its
    # limit: a piece is never a sure man there, and a king only an unsure one; below
    # `LIKELY_PX`, or with the camera nearly above the board, it cannot tell: never a king
    local_px = (s_king - s_man) * px
    unsure = uncertain | (local_px < SURE_PX)
    top = np.where(pose.top_down | (local_px < LIKELY_PX), CANNOT_TELL_MAX, UNSURE_KING_MAX)
    pk = np.where(unsure, np.clip(pk, prior_king, top), pk)
    p_king = np.zeros((10, 10))
    p_king[cells[:, 0], cells[:, 1]] = pk
    maps = {}
    for name, values in (("height", h), ("extent", extent), ("per_unit", per_unit),
                         ("shift", raw), ("separation", local_px)):
        m = nan.copy()
        m[cells[:, 0], cells[:, 1]] = values
        maps[name] = m
    top_map = np.full((10, 10, 3), np.nan)
    top_map[cells[:, 0], cells[:, 1]] = tops
    dir_map = np.full((10, 10, 2), np.nan)
    dir_map[cells[:, 0], cells[:, 1]] = u
    return KingEvidence(maps["height"], maps["extent"], maps["per_unit"], p_king, p_king > 0.5,
                        uncertain, sep_px, maps["shift"], top_map, r, view, dir_map,
                        maps["separation"], rim, blind)


# -- calibration -----------------------------------------------------------------------------


def _poly(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Cubic terms in board coordinates (squares, centred)."""
    x = (np.asarray(x, np.float64) - 5.0) / 5.0
    y = (np.asarray(y, np.float64) - 5.0) / 5.0
    return np.stack([x ** i * y ** j for i in range(4) for j in range(4 - i)], axis=-1)


def view_displacement(view: BoardView) -> np.ndarray:
    """(10, 10, 2) displacement (squares) of each cell centre in the reading view from where the
    homography puts it: the nine inner grid lines each way are measured (the crossing of half
    the light-dark step, near both ends and the middle of every square's side, where round pieces
    seldom reach), and a cubic field is fitted to them, robust to the ones a piece covers."""
    t = np.arange(-0.25, 0.2501, 0.025)
    along = np.array([(k, j + f) for k in range(1, 10) for j in range(10) for f in (0.2, 0.5, 0.8)])
    fields = []
    for axis in (0, 1):
        if axis == 0:  # vertical lines x = k: displacement in x
            pts = np.stack([along[:, :1] + t[None], np.repeat(along[:, 1:], len(t), 1)], -1)
        else:
            pts = np.stack([np.repeat(along[:, 1:], len(t), 1), along[:, :1] + t[None]], -1)
        prof = _sample(view, pts)  # (m, t, 3)
        q = max(2, len(t) // 5)
        left, right = prof[:, :q].mean(axis=1), prof[:, -q:].mean(axis=1)
        step = right - left
        contrast = np.linalg.norm(step, axis=1)
        frac = np.einsum("mtk,mk->mt", prof - left[:, None], step) / np.maximum(contrast ** 2, 1e-6)[:, None]
        above = frac > 0.5
        crossings = np.sum(above[:, 1:] != above[:, :-1], axis=1)
        j = np.argmax(above[:, 1:] != above[:, :-1], axis=1)
        rows = np.arange(len(prof))
        f0, f1 = frac[rows, j], frac[rows, j + 1]
        pos = t[j] + (0.5 - f0) / np.where(f1 != f0, f1 - f0, 1.0) * (t[1] - t[0])
        flat = (np.linalg.norm(prof[:, :q] - left[:, None], axis=2).mean(axis=1)
                + np.linalg.norm(prof[:, -q:] - right[:, None], axis=2).mean(axis=1))
        ok = (crossings == 1) & (contrast > 0.4 * np.median(contrast))
        xy = along if axis == 0 else along[:, ::-1]  # (x, y) of each sample
        X = _poly(xy[ok, 0], xy[ok, 1])
        y = pos[ok]
        w = (contrast / (1.0 + flat))[ok]
        coef = np.zeros(X.shape[1])
        keep = np.ones(len(y), dtype=bool)
        if len(y) >= 2 * X.shape[1]:
            for _ in range(4):
                sw = np.sqrt(w[keep])
                coef, *_ = np.linalg.lstsq(X[keep] * sw[:, None], y[keep] * sw, rcond=None)
                res = y - X @ coef
                mad = np.median(np.abs(res[keep])) * 1.4826
                keep = np.abs(res) <= max(2.5 * mad, 0.01)
        cx, cy = np.meshgrid(np.arange(10) + 0.5, np.arange(10) + 0.5)
        fields.append(_poly(cx, cy) @ coef)
    return np.stack(fields, axis=-1)


#: A man's usual height (squares: 8 mm men on 40 mm squares) and how far the fit may move from
#: it on its own (the prior's spread, squares).
_MAN_PRIOR = (0.2, 0.04)


def calibrate(ev: KingEvidence, pose: Pose, men: np.ndarray | None = None,
              near_pull: float = 0.0) -> KingCalibration | None:
    """A `KingCalibration` from the king evidence of the start position (40 men, of two colours)
    or of a known position whose men are on the ``men`` cells (10 x 10, image cells) and its
    kings on the other occupied ones; None when there are fewer than three pieces or no view.  The measured shifts, less the view's displacement
    along ``u``, are fitted as ``h * rho / (H - h)`` plus one bias per colour (robustly, with a
    weak prior on ``h``: within each colour the men stand at several distances from the camera);
    each colour's spread is the residuals' robust spread."""
    if ev.view is None:
        return None
    displacement = view_displacement(ev.view)
    occupied = np.isfinite(ev.shift)
    men = occupied if men is None else men & occupied
    fit = None
    for _ in range(3):  # then twice again with the height just fitted: where the tops really are
        if fit is not None:
            ev = king_evidence(ev.view, pose, occupied, man_height=fit.man_height,
                               near_pull=near_pull)
        fit = _fit(_men_samples(ev, men, displacement), pose.height, displacement,
                   _men_samples(ev, occupied & ~men, displacement))
        if fit is None:
            return None
    return fit


def refit(cal: KingCalibration, ev: KingEvidence, men: np.ndarray, pose: Pose) -> KingCalibration:
    """``cal`` fitted again with the men of a reading's evidence ``ev`` that the game guarantees
    (``men``: 10 x 10, image cells).

    In the start position each colour stands on its own half of the board, so a colour's bias
    and the height (which scales the shift with the distance from the camera's foot) are told
    apart only by how the shift varies within each half; as the men spread over the board in a
    game, they are told apart ever better.  Each cell keeps one measurement: the mean of the
    readings of the same man (a frame's is a few hundredths of a square off, and a fit that
    followed each frame would wobble from move to move), started afresh when a man of the other
    colour stands there.  The view (the location) must be the calibration's."""
    samples = dict(cal.samples)
    for cell, new in _men_samples(ev, men, cal.displacement).items():
        old = samples.get(cell)
        if old is None or float(np.linalg.norm(np.subtract(old[2], new[2]))) > _SAME_TOP:
            samples[cell] = new
        else:
            w = 1.0 / min(old[3] + 1, _MEAN_OF)
            samples[cell] = (old[0] + w * (new[0] - old[0]), old[1] + w * (new[1] - old[1]),
                             tuple(a + w * (b - a) for a, b in zip(old[2], new[2])),
                             old[3] + 1)
    if len(samples) < _ENOUGH_MEN:  # an endgame's few men: the calibration's fit stands
        return cal
    fit = _fit(samples, pose.height, cal.displacement)
    return cal if fit is None else fit


#: One man's measurement: (per unit of height, the shift less the view's displacement, the top's
#: Lab colour, how many readings it is the mean of).
_Sample = tuple[float, float, tuple[float, float, float], int]
#: Tops nearer than this (Lab) are the same colour's; a cell's mean is over at most this many
#: readings (it follows a slow change of the light).
_SAME_TOP = 20.0
_MEAN_OF = 8


def _men_samples(ev: KingEvidence, men: np.ndarray, displacement: np.ndarray
                 ) -> dict[tuple[int, int], _Sample]:
    """The measurements of the men on the ``men`` cells (image cells) where ``ev`` has one."""
    if ev.shift is None or ev.tops is None or ev.directions is None:
        return {}
    ok = men & np.isfinite(ev.shift) & np.isfinite(ev.per_unit)
    out = {}
    for r, c in np.argwhere(ok):
        y = float(ev.shift[r, c] - displacement[r, c] @ ev.directions[r, c])
        out[(int(r), int(c))] = (float(ev.per_unit[r, c]), y, tuple(map(float, ev.tops[r, c])), 1)
    return out


def _fit(samples: dict[tuple[int, int], _Sample], H: float, displacement: np.ndarray,
         kings: dict[tuple[int, int], _Sample] | None = None) -> KingCalibration | None:
    """The height, biases and spreads from men's measurements (see `calibrate`), and kings'
    where a known position has them (a king's shift is about twice a man's).  With fewer than
    `_ENOUGH_MEN` pieces (an endgame set up) only the height is fitted, with the prior, and the
    spreads are `_SIGMA_FEW`; below three, nothing."""
    kings = kings or {}
    h0, hsd = _MAN_PRIOR
    two = 2.0 * (H - h0) / (H - 2.0 * h0)  # a king's shift per man's
    values = list(samples.values()) + [(v[0] * two, *v[1:]) for v in kings.values()]
    if len(values) < 3:
        return None
    x = np.array([v[0] for v in values])
    y = np.array([v[1] for v in values])
    tops = np.array([v[2] for v in values])
    centres, labels = two_means(tops)
    few = len(values) < _ENOUGH_MEN
    k0 = h0 * H / (H - h0)
    prior_w = 0.02 / hsd  # the prior as one residual of 0.02 squares
    design = np.stack([x, labels == 0, labels == 1], axis=1).astype(np.float64)
    if few:
        design = design[:, :1]
    keep = np.ones(len(y), dtype=bool)
    prior = np.zeros((1, design.shape[1]))
    prior[0, 0] = prior_w
    for _ in range(4):
        a = np.vstack([design[keep], prior])
        b = np.concatenate([y[keep], [prior_w * k0]])
        coef, *_ = np.linalg.lstsq(a, b, rcond=None)
        res = y - design @ coef
        mad = np.median(np.abs(res[keep])) * 1.4826
        keep = np.abs(res) <= max(3.0 * mad, 0.02)
    k = float(coef[0])
    h = float(np.clip(k * H / (H + k), 0.1, 0.4))
    bias, sigma = np.zeros(2), np.full(2, _SIGMA_FEW if few else _SIGMA_MIN)
    if not few:
        e = y - _shift_of(h, x, H)
        for c in (0, 1):
            ec = e[labels == c]
            if len(ec):
                bias[c] = float(np.median(ec))
                sigma[c] = max(float(np.median(np.abs(ec - bias[c]))) * 1.4826, _SIGMA_MIN)
    return KingCalibration(h, displacement, centres, bias, sigma, samples)


# -- one photo -------------------------------------------------------------------------------

#: The heights (squares) a man's may be fitted at from one photo, and the fit's weak prior on it
#: (centre, spread): men of 0.15 to 0.3 squares are the sets met; the prior only settles a tie.
_PHOTO_HEIGHTS = np.linspace(0.08, 0.42, 69)
_PHOTO_PRIOR = (0.2, 0.08)
#: The measuring spread (squares) the one-photo fit weighs the shifts with, before the men's own
#: spread is known.
_PHOTO_SIGMA = 0.02
#: How far (squares) a piece colour's apparent man height may stand from the board's at the
#: cost of one king (`lower_mode`).
_COLOUR_SPREAD = 0.08
#: The most one piece's top costs the one-photo fit (`lower_mode`, nats) when neither a man's
#: nor a king's height explains it (a top misread: a lamp's glare, a neighbour's rim; about one
#: piece in twenty).  Without it a few such tops decide a colour's height: home still 33 at
#: seed 5, four red men near the camera measured at 0.09-0.13 squares under a glare, the other
#: eight at 0.22-0.25 (the cream men 0.21-0.28), put the red men's height at 0.115 and read the
#: eight as kings.  On `bench.stills` home seed 5 the king precision rose from 96.8% to 98.8%;
#: elsewhere (home 300 and alt 100 at seed 0, alt 60 at seed 5) it moved by a king or two.
_ODD_TOP = 3.0
#: Fewer pieces than this: no height reference in the photo, so no king is read surely.
PHOTO_REFERENCE_MIN = 3
#: Where one photo reads a king surely: its own estimate of a king's top's distance from a
#: man's (camera pixels) at least this.  That estimate rests on the men's apparent height,
#: which the measuring puts 15-40% under the true one on rendered stills (a top face's rim is
#: rounded, the window leans to the near rim), so 2.5 true pixels read as 1.6-2.2 here.
PHOTO_SURE_PX = 2.0
#: The photo's own measuring noise: the spread (camera pixels, robust) of its men's tops about
#: a man's height (where a king's would stand `LIKELY_PX` or more from theirs).  Over
#: `PHOTO_NOISE_MAX_PX`, and over `PHOTO_NOISE_MAX_SHARE` of a man's height (a steep camera's
#: pixels are larger), the men are no height reference: no king is read surely.  Rendered stills
#: measure 0.3 to 1.2 pixels or 0.01 to 0.37 of a man's height (a few broken ones more); the
#: labelled real photos, whose tops the measuring does not find, 1.9 to 5.3 pixels and 0.45 to
#: 0.93.  Below it, a king's top must stand `KING_SIGMAS` times the noise above a man's, and past
#: half way to a king's.  The floor keeps a clean render's tiny spread from making any bump a
#: king.
PHOTO_NOISE_MAX_PX = 1.5
PHOTO_NOISE_MAX_SHARE = 0.3
PHOTO_NOISE_FLOOR_PX = 0.3
KING_SIGMAS = 3.0
#: A top whose far rim is unseen (`_FAR_WEAK`) is read a king surely only where its near rim,
#: measured alone, stands this share of a man's height above a man's too.  On `bench.stills`
#: (seed 0, home 300 and alt 100), far rims unseen, 10th to 90th percentile of the near rim's
#: height over a man's: true kings 1.5-1.85 (it reads a king's top low: the band's shading), men
#: 0.8-1.35, the men the window read as kings 0.8-1.44, where the window put both at 1.9-2.3.
NEAR_RIM_KING = 0.4
#: A piece found by its outline alone (``poor``: its top no height evidence for the men) is read
#: a king surely only where the weighing against the men's calibration is this sure of it, and
#: it stands clear of their noise as any king must.  On `bench.stills` (home 300 and alt 100 at
#: seed 0, home 200 and alt 60 at seed 5: 377 such pieces, 47 of them kings) the pieces weighed
#: so in photos that are a reference, 2.5 pixels and more from a man's top, were 12 kings and
#: nothing else; from 0.9, 24 kings, 2 men and an empty square.
POOR_KING_P = 0.99
#: A piece colour with this many men has a noise of its own (fewer: the photo's).
_COLOUR_MEN_MIN = 5


def _reference(above_px: np.ndarray, share: np.ndarray) -> bool:
    """Whether men whose tops stand ``above_px`` pixels (``share`` of a man's height) above a
    man's are a height reference: their spread under `PHOTO_NOISE_MAX_PX`, or under
    `PHOTO_NOISE_MAX_SHARE` of a man's height (a steep camera's larger pixels)."""
    return bool(len(above_px)) and (_spread(above_px) <= PHOTO_NOISE_MAX_PX
                                    or _spread(share, 0.0) <= PHOTO_NOISE_MAX_SHARE)


def _spread(values: np.ndarray, floor: float = PHOTO_NOISE_FLOOR_PX) -> float:
    """The robust spread (1.4826 x the median absolute value, at least ``floor``) of the men's
    tops above a man's height."""
    return max(1.4826 * float(np.median(np.abs(values))), floor)


def lower_mode(ev: KingEvidence, pose: Pose, square_px: float, colours: np.ndarray,
               prior_king: float = PRIOR_KING, odd_top: float = _ODD_TOP
               ) -> tuple[float, np.ndarray, np.ndarray]:
    """A man's height (squares) fitted to the measured top-face shifts of one photo's pieces, no
    position known: (the height, each cell's colour's own apparent height (10 x 10), the pieces
    (10 x 10) that fit a king's better).

    Every piece of a colour is a man of that colour's height ``h_c`` or a king of ``2 h_c``;
    the heights are those that explain the shifts best with the fewest kings (each costs
    ``log((1 - prior) / prior)``: most pieces are men, so the men make the lower mode, never
    the kings; pieces all of one height are men).  A colour's apparent height may differ from
    the board's ``h`` (a dark top on a dark square shows a fainter far rim): by `_COLOUR_SPREAD`
    at a cost of one king.  ``colours``: 10 x 10, 0 empty, else the piece's colour (1, 2).
    Heavy-tailed (Student t), and a top that neither height explains costs at most ``odd_top``
    (`_ODD_TOP`; ``inf``: every top counts in full): a few odd measurements move nothing."""
    occupied = (colours > 0) & np.isfinite(ev.extent) & np.isfinite(ev.per_unit)
    cells = np.argwhere(occupied)
    if not len(cells):
        return MAN_HEIGHT, np.full((10, 10), MAN_HEIGHT), np.zeros((10, 10), dtype=bool)
    e = ev.extent[cells[:, 0], cells[:, 1]]
    per_unit = ev.per_unit[cells[:, 0], cells[:, 1]]
    label = colours[cells[:, 0], cells[:, 1]]
    H = pose.height
    sigma = np.hypot(_PHOTO_SIGMA, 0.5 / max(square_px, 1.0))
    kappa = float(np.log((1 - prior_king) / prior_king))
    hs = _PHOTO_HEIGHTS
    z_man = (e[None, :] - _shift_of(hs[:, None], per_unit[None, :], H)) / sigma
    z_king = (e[None, :] - _shift_of(2 * hs[:, None], per_unit[None, :], H)) / sigma
    loss_man = (_NU + 1) / 2 * np.log1p(z_man ** 2 / _NU)
    loss_king = (_NU + 1) / 2 * np.log1p(z_king ** 2 / _NU) + kappa
    # (a top neither height explains costs at most ``odd_top``)
    each = np.minimum(np.minimum(loss_man, loss_king), odd_top)  # (heights, pieces)
    tie = kappa * ((hs[:, None] - hs[None, :]) / _COLOUR_SPREAD) ** 2
    centre, spread = _PHOTO_PRIOR
    total = 0.5 * ((hs - centre) / spread) ** 2
    own = {}
    for c in np.unique(label):
        cost = each[:, label == c].sum(axis=1)  # per colour height
        joint = cost[None, :] + tie  # [board h, colour h]
        own[int(c)] = np.argmin(joint, axis=1)
        total = total + joint[np.arange(len(hs)), own[int(c)]]
    best = int(np.argmin(total))
    kings = np.zeros((10, 10), dtype=bool)
    heights = np.full((10, 10), np.nan)
    for c, choice in own.items():
        k = int(choice[best])
        mine = label == c
        heights[cells[mine, 0], cells[mine, 1]] = hs[k]
        chosen = mine & (loss_king[k] < loss_man[k])
        kings[cells[chosen, 0], cells[chosen, 1]] = True
    return float(hs[best]), heights, kings


@dataclass(frozen=True)
class PhotoFit:
    """How one photo's men served as the height reference (`photo_kings`): the fitted
    ``man_height`` (squares), the ``pieces``, the ``men`` the noise is measured on (where a
    king's top would stand at least `LIKELY_PX` pixels from theirs), the ``noise_px``
    (their tops' robust spread about a man's height, camera pixels), and whether kings may be
    read surely from the photo (``trusted``); ``colour_noise_px``: the same noise of each piece
    colour's men (1, 2: the lighter, the darker), the photo's where a colour has too few;
    ``colour_lost``: a colour whose men are no reference (none of it is a king)."""

    man_height: float
    pieces: int
    men: int
    noise_px: float
    trusted: bool
    colour_noise_px: tuple[float, float] = (float("nan"), float("nan"))
    colour_lost: tuple[bool, bool] = (False, False)

    def warning(self) -> Note | None:
        """Why no king (or none of one piece colour) is read surely from this photo, or None."""
        if self.trusted:
            lost = [(name, v) for name, v, gone in zip(("lighter", "darker"), self.colour_noise_px,
                                                       self.colour_lost) if gone]
            if not lost:
                return None
            name, v = lost[0]
            return Note("kings_colour_scatter", f"kings of the {name} pieces cannot be told from "
                        f"men surely in this photo: their tops scatter by {v:.1f} pixels (a top "
                        "lost against the squares, glare or blur): they are read as men",
                        colour=name, px=float(v))
        if self.men < PHOTO_REFERENCE_MIN:
            return Note("kings_few_men", f"kings cannot be told from men surely: too few men to "
                        f"compare with ({self.men} of {self.pieces} pieces; the men are the height "
                        "reference): every piece is read as a man", men=self.men, pieces=self.pieces)
        return Note("kings_scatter", f"kings cannot be told from men surely in this photo: the men's "
                    f"tops scatter by {self.noise_px:.1f} pixels (odd pieces, a glossy top, blur or "
                    "a misread board): every piece is read as a man", px=float(self.noise_px))


def photo_kings(view: BoardView, pose: Pose, colours: np.ndarray, square_px: float,
                prior_king: float = PRIOR_KING, poor: np.ndarray | None = None
                ) -> tuple[KingEvidence, PhotoFit]:
    """Kings from one photo, no position known: the men in the photo are the height reference.

    ``colours``: 10 x 10, 0 empty, else the piece's colour (1, 2).  The shifts are measured, a
    man's height fitted to them (`lower_mode`, each colour its own), measured again where a
    man's and a king's tops should be, and fitted again.  The men's tops give the photo's noise
    and each colour's (`PhotoFit`); the pieces that fit a man's are the men of a
    `calibrate` (height, each colour's bias and spread, the view's distortion), every piece is
    weighed against it as in a game, and a piece is a king (``KingEvidence.king``) where that
    weighing and the fit agree, its colour's men are a reference (`_reference`; where the fit
    makes most of the colour's pieces kings, its kings about a king's height too) and its top
    stands `KING_SIGMAS` of its colour's noises and half way above a man's (where the camera
    cannot tell, under `PHOTO_SURE_PX`, the weighing's likely king, capped unsure), where its
    far rim is unseen (a top beside a square of its own colour), its near rim alone
    `NEAR_RIM_KING` above too, and never where neither rim is seen
    (``KingEvidence.rims_unseen``).
    With fewer than `PHOTO_REFERENCE_MIN` men, or men that are no reference, the photo is none
    (``trusted`` False).

    ``poor`` (10 x 10, None: none): pieces whose measured top is no height evidence (found by
    their outline alone, their top the square's colour: `vision.photo_cells.poor_tops`).  They
    are measured and weighed like the others (``p_king``: a likely king is named unsure), but
    take no part in the men's height, noise or calibration (an empty square taken for a piece
    measures a top anywhere, and joined to a colour's men it pulls their height down to its own,
    their true men then standing twice as high), and are read a king surely only where the
    weighing is all but certain of it (`POOR_KING_P`) and the rest holds as for any king."""
    occupied = colours > 0
    poor = np.zeros(colours.shape, dtype=bool) if poor is None else poor & occupied
    # the pieces whose tops fit the height and its noise
    fitted = np.where(poor, 0, colours)
    ev = king_evidence(view, pose, occupied, square_px=square_px, prior_king=prior_king,
                       near_pull=PHOTO_NEAR_PULL)
    n = int(np.count_nonzero(occupied))
    if n - int(np.count_nonzero(poor)) < PHOTO_REFERENCE_MIN:
        return ev, PhotoFit(MAN_HEIGHT, n, 0, float("nan"), False)
    height, _, _ = lower_mode(ev, pose, square_px, fitted, prior_king)
    ev = king_evidence(view, pose, occupied, square_px=square_px, man_height=height,
                       prior_king=prior_king, near_pull=PHOTO_NEAR_PULL, near_rim=True)
    height, own, kings = lower_mode(ev, pose, square_px, fitted, prior_king)
    for c in (1, 2):  # a piece left out of the fit stands against its colour's men's height
        mine = (colours == c) & np.isfinite(own)
        if mine.any():
            own = np.where((colours == c) & np.isnan(own), own[mine][0], own)
    # whether the men are a height reference is judged on the fit where every top counts in
    # full: one that may leave a few tops unexplained would pass a photo whose tops scatter by
    # calling its high ones kings and its low ones odd (the labelled real photo 29)
    _, own_all, kings_all = lower_mode(ev, pose, square_px, fitted, prior_king, odd_top=np.inf)
    sep = np.nan_to_num(ev.separation, nan=0.0)
    # pixels the top stands above a man's of its colour
    above = np.nan_to_num((ev.height / own - 1.0) * sep, nan=0.0)
    above_all = np.nan_to_num((ev.height / own_all - 1.0) * sep, nan=0.0)
    # the noise is the measuring's, anywhere
    men = occupied & ~poor & ~kings_all & (sep >= LIKELY_PX)
    count = int(np.count_nonzero(men))
    # (the share of a man's height: a steep camera's pixels scale the noise up)
    share = np.nan_to_num(ev.height / own_all - 1.0, nan=0.0)
    noise = _spread(above_all[men]) if count else float("nan")
    trusted = count >= PHOTO_REFERENCE_MIN and _reference(above_all[men], share[men])
    # each colour's own noise where it has men enough (one colour's tops may be lost: a light
    # top against light squares): a colour no reference, none of it is a king
    usable = np.full(colours.shape, trusted)
    by_colour = []
    for c in (1, 2):
        mine = men & (colours == c)
        if np.count_nonzero(mine) >= _COLOUR_MEN_MIN:
            usable[colours == c] = _reference(above_all[mine], share[mine])
            by_colour.append(_spread(above_all[mine]))
        else:
            by_colour.append(noise)
        # a fit that makes most of a colour's pieces kings may have taken a few odd low tops
        # for its men: there its kings must be a reference too, their tops as close about a
        # king's height as men's about a man's (the other renderer's alt-0007 at seed 9: pale
        # men on light grey squares measured 0.11 to 0.32 squares, two low ones taken as the
        # men's height, seven men read as kings; a colour of three kings and a man, clean, is
        # read as it is)
        fitted_c = occupied & ~poor & (colours == c)
        crowned = kings & fitted_c & (sep >= LIKELY_PX)
        off_king = above[crowned] - sep[crowned]  # (pixels from a king's top; sep > 0 there)
        if np.count_nonzero(crowned) > np.count_nonzero(fitted_c & ~kings) and not _reference(
                off_king, off_king / sep[crowned]):
            usable[colours == c] = False
    # each piece stands against its own colour's noise
    noise_of = np.select([colours == 1, colours == 2], by_colour, noise)
    # (calibrate's pieces are the measured ones, its kings those of them not ``men``: the
    # poor ones are left unmeasured there)
    measured = replace(ev, shift=np.where(poor, np.nan, ev.shift)) if poor.any() else ev
    cal = calibrate(measured, pose, men=occupied & ~poor & ~kings, near_pull=PHOTO_NEAR_PULL)
    if cal is not None:
        ev = king_evidence(view, pose, occupied, square_px=square_px, offset=cal,
                           prior_king=prior_king, near_pull=PHOTO_NEAR_PULL, near_rim=True)
        height = cal.man_height
    # a piece found by its outline alone: a king only where the weighing is all but certain
    weighed = poor & (ev.p_king >= POOR_KING_P)
    clear = (kings | weighed) & usable & (above >= KING_SIGMAS * noise_of) & (above >= 0.5 * sep)
    clear |= sep < PHOTO_SURE_PX  # where the camera cannot tell, the weighing's likely king
    clear &= ~poor | weighed
    # a top that may have slid over a square of its own colour: its near rim must say king too
    rim = ev.near_rim_height  # (NaN where the far rim was seen)
    clear &= np.isnan(rim) | (rim >= (1.0 + NEAR_RIM_KING) * height)
    if ev.rims_unseen is not None:  # neither rim seen: the top stands anywhere
        clear &= ~ev.rims_unseen
    ev = replace(ev, king=ev.king & clear)  # p_king stays the weighing's: unclear, unsure
    lost = tuple(bool(np.any((colours == c) & ~usable)) and trusted for c in (1, 2))
    return ev, PhotoFit(height, n, count, noise, trusted, tuple(by_colour), lost)
