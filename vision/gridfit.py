"""Fitting the homography of a board's grid corners robustly.

The inner corners of the checker pattern are refined to sub-pixel precision, and most agree with
one homography (through the lens, `vision.lens`) to a few tenths of a pixel.  A corner beside a
piece, though, is sometimes pulled off by the piece's edge, by a twentieth of a square or more;
a band wide enough for a blurred photo lets those in, and a few of them tilt the fitted board
by a tenth of a square at its far edge.  So the band is the corners' own: three robust spreads
of the residuals of a least-median-of-squares fit, and never narrower than `MIN_BAND` of a
square (a lens not yet straightened bends the outer corners by about that much, and they must
count to show it).  The homography is then the least-squares fit of the corners in the band.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Smallest inlier band, in squares.
MIN_BAND = 0.04
#: Fewest corners a fit is made from.
MIN_CORNERS = 8


def project(homography: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Grid points (N x 2) through a homography (N x 2)."""
    return cv2.perspectiveTransform(np.asarray(grid, np.float64).reshape(-1, 1, 2),
                                    homography).reshape(-1, 2)


def _square_px(homography: np.ndarray, grid: np.ndarray) -> float:
    """The median side of a square (pixels) around the corners."""
    p = project(homography, grid)
    return float(np.median(np.linalg.norm(project(homography, grid + [1.0, 0.0]) - p, axis=1)
                           + np.linalg.norm(project(homography, grid + [0.0, 1.0]) - p, axis=1))
                 / 2.0)


def inliers(grid: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    """Which corners (``grid`` N x 2 in squares, ``points`` N x 2 distortion-free pixels) lie in
    the band around the least-median-of-squares homography (see the module docstring); None
    when no homography fits or too few corners do."""
    grid = np.asarray(grid, np.float64).reshape(-1, 2)
    points = np.asarray(points, np.float64).reshape(-1, 2)
    if len(grid) < MIN_CORNERS:
        return None
    H, _ = cv2.findHomography(grid, points, cv2.LMEDS)
    if H is None:
        return None
    res = np.linalg.norm(project(H, grid) - points, axis=1)
    spread = 1.4826 * float(np.median(res))
    keep = res <= max(3.0 * spread, MIN_BAND * _square_px(H, grid))
    return keep if keep.sum() >= MIN_CORNERS else None


def fit_homography(grid: np.ndarray, points: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray] | None:
    """(homography, inlier mask) of the corners (see the module docstring), or None."""
    keep = inliers(grid, points)
    if keep is None:
        return None
    grid = np.asarray(grid, np.float64).reshape(-1, 2)
    points = np.asarray(points, np.float64).reshape(-1, 2)
    H, _ = cv2.findHomography(grid[keep], points[keep], 0)
    if H is None:
        return None
    return H, keep
