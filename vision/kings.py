"""Kings from men: a king is two men stacked, so it stands twice as high.

Seen obliquely, a piece of height ``h`` covers, in the top-down (board-plane) view, its base disc
swept along the camera's outward direction ``u`` (away from the camera's foot) to its top face,
displaced by ``|shift(h)|`` (`vision.pose`).  Along ``u`` through the cell centre, the piece's
silhouette therefore runs from ``-r`` (the base's near rim) to ``|shift(h)| + r`` (the top's far
rim).  Measuring both rims on a colour profile gives ``r`` and the height, whatever the piece's
size; heights near twice a man's are kings.

How sure that is depends on how far apart the two hypotheses' far rims are in image pixels: with
the camera nearly straight above the board they coincide and the evidence is weak (`uncertain`,
and the readings then say so with a king/man ``alternative``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.colours import distance
from vision.pose import Pose
from vision.squares import MAN_HEIGHT, MARGIN, BoardView

#: Profile sample step (squares) and extent along the outward direction.
_T = np.arange(-0.75, 1.3, 0.025)
_W = np.array([-0.12, -0.06, 0.0, 0.06, 0.12])


@dataclass(frozen=True, eq=False)
class KingEvidence:
    """Per cell ([row, col], image grid): ``height`` measured (squares; NaN where no piece),
    ``p_king`` the probability of a king, ``king`` the decision; ``uncertain`` when the camera is
    too nearly above the board to tell (``separation_px`` is the image distance between the far
    rims of a man and a king at the board centre)."""

    height: np.ndarray
    extent: np.ndarray  # far rim beyond the base radius, squares (NaN where no piece)
    per_unit: np.ndarray  # |shift| per unit of height at each cell
    p_king: np.ndarray
    king: np.ndarray
    uncertain: bool
    separation_px: float


def _heights_from_extent(extent: np.ndarray, per_unit: np.ndarray, pose_height: float) -> np.ndarray:
    """Invert |shift(h)| = h * rho / (H - h) for h, rho = the point's horizontal distance from
    the camera's foot (``per_unit`` = rho / H ~ |shift| per unit height for small h)."""
    rho = per_unit * pose_height
    e = np.maximum(extent, 0.0)
    return e * pose_height / np.maximum(rho + e, 1e-6)


def king_evidence(view: BoardView, pose: Pose, occupied: np.ndarray, *,
                  man_height: float | None = None, square_px: float | None = None,
                  prior_king: float = 0.1, noise: float = 0.02, offset: float = 0.0
                  ) -> KingEvidence:
    """Measure the height of every occupied cell's piece and weigh man against king.

    ``square_px``: the size of a square in the camera image (for how sure the answer can be);
    ``prior_king``: how likely a piece is a king before looking; ``noise`` the measuring noise
    of a rim (squares) besides a pixel and a half; ``man_height`` (squares) when
    known from a calibration, else the median measured height (most pieces are men); ``offset``
    the calibrated bias of the measured far rim (squares; blur and shading move it)."""
    nan = np.full((10, 10), np.nan)
    assumed = MAN_HEIGHT if man_height is None else man_height
    cells = np.argwhere(occupied)
    centres = np.array([[c + 0.5, r + 0.5] for r, c in cells], dtype=np.float64)
    sep_board = float(np.linalg.norm(pose.shift(np.array([[5.0, 5.0]]), 2 * assumed))
                      - np.linalg.norm(pose.shift(np.array([[5.0, 5.0]]), assumed)))
    sep_px = sep_board * (square_px if square_px is not None else 50.0)
    uncertain = sep_px < 2.5
    if not len(cells):
        z = np.zeros((10, 10))
        return KingEvidence(nan, nan, nan, z, z.astype(bool), uncertain, sep_px)
    unit = pose.shift(centres, 1e-3) / 1e-3  # d|shift|/dh at h = 0: rho / H along u
    per_unit = np.linalg.norm(unit, axis=1)
    u = unit / np.maximum(per_unit[:, None], 1e-9)
    # directions with no tilt: any axis, the extent is then ~r either way
    u[per_unit < 1e-6] = [0.0, 1.0]
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    pts = (centres[:, None, None, :] + _T[None, :, None, None] * u[:, None, None, :]
           + _W[None, None, :, None] * v[:, None, None, :])
    pix = (pts + MARGIN) * view.px
    mx = pix[..., 0].astype(np.float32)
    my = pix[..., 1].astype(np.float32)
    n = len(cells)
    flat_x = mx.reshape(n, -1)
    flat_y = my.reshape(n, -1)
    samples = cv2.remap(view.lab, flat_x, flat_y, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).reshape(n, len(_T), len(_W), 3)
    profile = np.median(samples, axis=2).astype(np.float64)  # (n, T, 3)
    tops = view.top[cells[:, 0], cells[:, 1]]
    # floor colours: both square colours (from all floor samples)
    par = view.parity
    f0 = np.median(view.floor[par == 0], axis=0)
    f1 = np.median(view.floor[par == 1], axis=0)
    m = view.px * MARGIN
    ring = np.concatenate([view.lab[m // 4:m * 3 // 4].reshape(-1, 3),
                           view.lab[-m * 3 // 4:-m // 4].reshape(-1, 3)])
    f2 = np.median(ring, axis=0)  # the border or table beyond the playing area
    d_piece = distance(profile, tops[:, None, :])
    d_floor = np.minimum.reduce([distance(profile, f0), distance(profile, f1),
                                 distance(profile, f2)])
    contrast = np.minimum(distance(tops, f0), distance(tops, f1))[:, None]
    piece_like = (d_piece < d_floor) & (d_piece < 0.5 * contrast)
    t0 = int(np.argmin(np.abs(_T)))
    heights = nan.copy()
    radius = np.full(n, np.nan)
    far = np.full(n, np.nan)
    for i in range(n):
        pl = piece_like[i]
        if not pl[t0]:
            continue
        j = t0
        while j + 2 < len(_T) and (pl[j + 1] or pl[j + 2]):
            j += 1
        k = t0
        while k - 2 >= 0 and (pl[k - 1] or pl[k - 2]):
            k -= 1
        far[i] = _T[j] + 0.0125
        radius[i] = -(_T[k] - 0.0125)
    r_est = np.nanmedian(radius) if np.any(np.isfinite(radius)) else 0.42
    extent = far - r_est - offset
    h = _heights_from_extent(extent, per_unit, pose.height)
    if man_height is None:
        finite = h[np.isfinite(h)]
        man_height = (float(np.clip(np.median(finite), 0.1, 0.4))
                      if len(finite) >= 3 and not uncertain else assumed)
    p_king = np.zeros((10, 10))
    king = np.zeros((10, 10), dtype=bool)
    # likelihoods: height measured with a noise of about a pixel and a half in the image
    px = square_px if square_px is not None else 50.0
    sigma_ext = 1.5 / px + noise
    for i, (r, c) in enumerate(cells):
        if not np.isfinite(h[i]):
            p_king[r, c] = prior_king
            continue
        heights[r, c] = h[i]
        e_man = np.linalg.norm(pose.shift(centres[i:i + 1], man_height))
        e_king = np.linalg.norm(pose.shift(centres[i:i + 1], 2 * man_height))
        ll_man = -((extent[i] - e_man) ** 2) / (2 * sigma_ext ** 2)
        ll_king = -((extent[i] - e_king) ** 2) / (2 * sigma_ext ** 2)
        a = np.log(prior_king) + ll_king
        b = np.log(1 - prior_king) + ll_man
        m = max(a, b)
        pk = float(np.exp(a - m) / (np.exp(a - m) + np.exp(b - m)))
        if uncertain:  # too steep a view to tell: say so through the probability only
            pk = min(pk, 0.45)
        p_king[r, c] = pk
        king[r, c] = pk > 0.5
    ext_map = nan.copy()
    unit_map = nan.copy()
    ext_map[cells[:, 0], cells[:, 1]] = extent
    unit_map[cells[:, 0], cells[:, 1]] = per_unit
    return KingEvidence(heights, ext_map, unit_map, p_king, king, uncertain, sep_px)
