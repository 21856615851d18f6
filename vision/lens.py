"""Lens distortion: a one-parameter radial model fitted to the board's own grid corners.

A board is flat, so without distortion its grid corners and their image points are related by one
homography; a wide lens bends the straight rows of corners (barrel distortion), and a homography
fitted to the inner corners then misplaces the outer edge of the board by up to a quarter of a
square.  `fit_lens` finds the division model that straightens them:

    undistorted = centre + (distorted - centre) / (1 + lam * r^2),   r = |distorted - centre| / norm

with the centre at the image centre and ``norm`` half the image diagonal (so ``lam`` is about the
same for any resolution; a Raspberry Pi camera's standard lens is near 0, a wide one -0.1 to -0.3).
`vision.locate.BoardLocation` carries the `Lens` and maps through it; its warps then follow the
bent rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.gridfit import project

#: Fitting stops at this |lam| (beyond it the model is not a lens any more).
_LAM_LIMIT = 0.6
#: A lens is kept when it cuts the grid's fit residual by this share and by at least this many
#: pixels (RMS): a straight grid gains nothing from one.
_GAIN_SHARE = 0.3
_GAIN_PX = 0.15


@dataclass(frozen=True)
class Lens:
    """The division model above: ``centre`` (x, y) in pixels, ``norm`` in pixels, ``lam``."""

    centre: tuple[float, float]
    norm: float
    lam: float

    @classmethod
    def for_image(cls, size: tuple[int, int], lam: float) -> "Lens":
        """The model for an image of ``size`` (width, height) centred on it."""
        w, h = size
        return cls(((w - 1) / 2.0, (h - 1) / 2.0), float(np.hypot(w, h) / 2.0), float(lam))

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Image pixels as seen (N x 2) to where a distortion-free lens would put them."""
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        d = (p - self.centre) / self.norm
        r2 = (d ** 2).sum(axis=1, keepdims=True)
        return np.asarray(self.centre) + d * self.norm / (1.0 + self.lam * r2)

    def distort(self, points: np.ndarray) -> np.ndarray:
        """The inverse of `undistort`: distortion-free pixels (N x 2) to pixels as seen."""
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        u = (p - self.centre) / self.norm
        ru = np.sqrt((u ** 2).sum(axis=1, keepdims=True))
        if abs(self.lam) < 1e-12:
            return p.copy()
        # ru = rd / (1 + lam rd^2)  ->  lam ru rd^2 - rd + ru = 0, the root near rd = ru
        disc = np.maximum(1.0 - 4.0 * self.lam * ru ** 2, 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            rd = np.where(ru > 1e-12, (1.0 - np.sqrt(disc)) / (2.0 * self.lam * ru), 0.0)
            scale = np.where(ru > 1e-12, rd / ru, 1.0)
        return np.asarray(self.centre) + u * scale * self.norm


def _residual(grid: np.ndarray, image: np.ndarray, lens: Lens | None) -> float:
    """The median pixel residual of the corners under the least-median-of-squares homography
    from ``grid`` to ``image`` undistorted by ``lens``, measured in the image as seen.  Corners
    pulled off by a piece's edge (often a sixth of them, side by side) must decide neither the
    homography nor the residual; a trimmed mean let them hide the few tenths of a pixel by which
    a lens bends the inner corners (compared on rendered boards, `vision.gridfit`)."""
    und = lens.undistort(image) if lens is not None else image
    H, _ = cv2.findHomography(grid, und, cv2.LMEDS)
    if H is None:
        return float("inf")
    proj = project(H, grid)
    if lens is not None:
        proj = lens.distort(proj)
    return float(np.sqrt(np.median(((proj - image) ** 2).sum(axis=1))))


def fit_lens(grid: np.ndarray, image: np.ndarray, size: tuple[int, int]) -> Lens | None:
    """The lens that best straightens the grid corners (``grid`` N x 2 in squares, ``image``
    N x 2 in pixels of an image of ``size``), or None when a distortion-free fit is as good."""
    grid = np.asarray(grid, dtype=np.float64).reshape(-1, 2)
    image = np.asarray(image, dtype=np.float64).reshape(-1, 2)
    if len(grid) < 12 or np.ptp(grid[:, 0]) < 4 or np.ptp(grid[:, 1]) < 4:
        return None  # too few corners, or too small a patch, to see a bend

    def cost(lam: float) -> float:
        return _residual(grid, image, Lens.for_image(size, lam))

    # golden-section search on lam (the residual is unimodal in it for a real grid)
    lo, hi = -_LAM_LIMIT, _LAM_LIMIT
    g = (np.sqrt(5.0) - 1.0) / 2.0
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = cost(a), cost(b)
    for _ in range(40):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = cost(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = cost(b)
        if hi - lo < 1e-4:
            break
    lam = (lo + hi) / 2.0
    straight = _residual(grid, image, None)
    bent = cost(lam)
    if straight - bent < max(_GAIN_PX, _GAIN_SHARE * straight):
        return None
    return Lens.for_image(size, lam)


def remap_grid(lens: Lens, homography: np.ndarray, px: float, lo: float, size: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """`cv2.remap` maps for a top-down view (``size`` pixels square, ``px`` per square, pixel
    (0, 0) at grid point (lo, lo)) of an image seen through ``lens``; ``homography`` maps grid
    coordinates to distortion-free pixels."""
    ij = np.arange(size, dtype=np.float64) / px + lo  # as cv2.warpPerspective samples
    gx, gy = np.meshgrid(ij, ij)
    pts = np.stack([gx.ravel(), gy.ravel()], axis=1)
    und = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), homography).reshape(-1, 2)
    seen = lens.distort(und)
    return cv2.convertMaps(seen[:, 0].reshape(size, size).astype(np.float32),
                           seen[:, 1].reshape(size, size).astype(np.float32), cv2.CV_16SC2)
