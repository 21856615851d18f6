"""The camera's pose from the board's homography, and where raised points project on the board.

A piece stands on its square but its top face, seen obliquely, lands elsewhere in the picture.
With the homography from grid coordinates (squares) to image pixels and a focal length (estimated
from the homography itself when the view is oblique enough, else assumed), the camera's centre
is known in grid coordinates; a point at height ``h`` (in squares) above grid point ``p`` then
appears, in the board-plane (top-down) view, at ``p + h * (p - g) / (H - h)`` where ``g`` is the
camera's foot on the board and ``H`` its height.  `Pose.shift` gives that displacement.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Pose:
    """Camera centre in grid coordinates: ``foot`` (x, y) on the board plane, ``height`` above
    it (squares), and ``tilt_deg`` (the angle between the optical axis and the vertical)."""

    foot: np.ndarray
    height: float
    tilt_deg: float
    focal: float

    def shift(self, points: np.ndarray, h: float | np.ndarray) -> np.ndarray:
        """Top-down displacement (N x 2, squares) of points raised ``h`` squares above board
        points ``points`` (N x 2)."""
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        h = np.asarray(h, dtype=np.float64).reshape(-1, 1) if np.ndim(h) else float(h)
        return h * (p - self.foot[None, :]) / np.maximum(self.height - h, 1e-3)

    @property
    def top_down(self) -> bool:
        """True when the camera is so nearly above the board that heights barely show."""
        return self.tilt_deg < 8.0


def _focal_from_h(h: np.ndarray) -> float | None:
    """The focal length (pixels) making the homography's two board axes orthogonal and equal
    (principal point at the origin), or None when the view is too frontal to tell.

    Each condition is linear in f^2 (``den * f^2 = num``); they are solved together in least
    squares, so a condition that says nothing in this view (orthogonality when a board axis is
    parallel to an image axis, as with a camera square to the board: ``den`` ~ 0) weighs nothing
    instead of dividing by almost zero."""
    h1, h2 = h[:, 0], h[:, 1]
    # orthogonality: h1x h2x/f^2 + h1y h2y/f^2 + h1z h2z = 0
    # equal norms: (h1x^2 + h1y^2)/f^2 + h1z^2 = (h2x^2 + h2y^2)/f^2 + h2z^2
    den = np.array([h1[2] * h2[2], h2[2] ** 2 - h1[2] ** 2])
    num = np.array([-(h1[0] * h2[0] + h1[1] * h2[1]),
                    (h1[0] ** 2 + h1[1] ** 2) - (h2[0] ** 2 + h2[1] ** 2)])
    dd = float(den @ den)
    if dd < 1e-24:
        return None
    f2 = float(den @ num) / dd
    return float(np.sqrt(f2)) if f2 > 0 else None


def estimate_pose(homography: np.ndarray, image_size: tuple[int, int],
                  focal: float | None = None) -> Pose:
    """The camera pose from a grid->image homography of an image ``(width, height)``.

    ``focal`` (pixels) if known; otherwise estimated from the homography, falling back to 0.9x
    the image's long side (a typical phone or Pi camera) when the estimate is out of range."""
    w, hgt = image_size
    c = np.array([[1.0, 0.0, -w / 2.0], [0.0, 1.0, -hgt / 2.0], [0.0, 0.0, 1.0]])
    hc = c @ homography
    if focal is None:
        f = _focal_from_h(hc)
        if f is None or not 0.4 * max(w, hgt) < f < 4.0 * max(w, hgt):
            f = 0.9 * max(w, hgt)
    else:
        f = focal
    kinv = np.diag([1.0 / f, 1.0 / f, 1.0])
    m = kinv @ hc
    lam = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] * lam < 0:  # the board in front of the camera
        lam = -lam
    r1, r2, t = m[:, 0] * lam, m[:, 1] * lam, m[:, 2] * lam
    r3 = np.cross(r1, r2)
    rot = np.stack([r1, r2, r3], axis=1)
    u, _, vt = np.linalg.svd(rot)
    rot = u @ vt
    centre = -rot.T @ t
    # grid z: r3 = x cross y; with x right and y down the board's normal points away from a
    # camera looking at it, so the camera is at negative z
    height = float(abs(centre[2]))
    axis = rot.T @ np.array([0.0, 0.0, 1.0])
    tilt = float(np.degrees(np.arccos(min(1.0, abs(axis[2])))))
    return Pose(np.array([centre[0], centre[1]]), height, tilt, float(f))
