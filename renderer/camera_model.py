"""The renderer's camera: a pinhole with radial distortion looking at the board, and its maps.

Board coordinates (used by everything in the renderer, and by `Rendered.project`):

- millimetres; the origin is the outer corner of the 10x10 playing area at row 0, column 0
  (black's back row, white's left: the light square beside square 1);
- ``x`` runs along the columns (towards square 5's corner), ``y`` along the rows (towards white,
  square 46's corner is ``(0, 400)``), ``h`` is the height above the board's surface;
- one square is `SQUARE_MM` (40 mm), so the playing area is 400 x 400 mm and the centre of the
  cell at (row, col) is ``((col + 0.5) * 40, (row + 0.5) * 40)``.

Internally the world is right-handed with ``Z = -h`` (pointing down into the table); the camera
follows OpenCV: ``x`` right, ``y`` down, ``z`` forward.

The camera orbits a point on the board (the centre of the playing area plus `look_dx_mm`,
`look_dy_mm`): `tilt_deg` away from vertical, towards the side given by `yaw_deg` (0 = from
white's side, so white's back row is at the bottom of the image; 90 = from white's left, the
column-0 side of squares 6-46, clockwise round the board as seen from above; the board then
appears turned), at `distance_mm` from that point, rolled by `roll_deg`
about its axis.  Lens distortion is the usual radial model ``x_d = x (1 + k1 r^2 + k2 r^4)`` in
normalised coordinates (negative `k1`: barrel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

SQUARE_MM = 40.0
BOARD_MM = 10 * SQUARE_MM
#: Board-coordinate corners of the playing area in board order: row 0/col 0 (beside square 1),
#: row 0/col 9 (square 5), row 9/col 9 (beside square 50), row 9/col 0 (square 46).
BOARD_CORNERS_MM: np.ndarray = np.array(
    [[0.0, 0.0], [BOARD_MM, 0.0], [BOARD_MM, BOARD_MM], [0.0, BOARD_MM]], dtype=np.float64)
#: Index into `BOARD_CORNERS_MM` of the corner at square 46 (white's left).
CORNER_46 = 3


@dataclass(frozen=True)
class Camera:
    """A camera pose, lens and sensor (see the module docstring for the conventions).

    ``focal_px`` wins over ``fov_deg`` (the horizontal field of view) when given.  ``cx_px`` /
    ``cy_px`` shift the principal point from the image centre.
    """

    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    distance_mm: float = 700.0
    focal_px: float | None = 1100.0
    fov_deg: float = 60.0
    k1: float = 0.0
    k2: float = 0.0
    width: int = 1280
    height: int = 960
    look_dx_mm: float = 0.0
    look_dy_mm: float = 0.0
    cx_px: float = 0.0
    cy_px: float = 0.0

    @property
    def focal(self) -> float:
        if self.focal_px is not None:
            return float(self.focal_px)
        return self.width / 2.0 / math.tan(math.radians(self.fov_deg) / 2.0)

    def model(self) -> "CameraModel":
        return CameraModel.of(self)

    def jittered(self, rng: np.random.Generator, degrees: float = 0.3, mm: float = 1.5) -> "Camera":
        """A copy nudged a little (a bumped table or tripod)."""
        return replace(
            self,
            tilt_deg=max(0.0, self.tilt_deg + rng.normal(0, degrees)),
            yaw_deg=self.yaw_deg + rng.normal(0, degrees),
            roll_deg=self.roll_deg + rng.normal(0, degrees),
            look_dx_mm=self.look_dx_mm + rng.normal(0, mm),
            look_dy_mm=self.look_dy_mm + rng.normal(0, mm),
        )

    @classmethod
    def random(cls, rng: np.random.Generator, max_tilt_deg: float = 45.0, *,
               min_tilt_deg: float = 0.0, max_roll_deg: float = 12.0, any_yaw: bool = True,
               distortion: bool = True, fill: tuple[float, float] = (0.5, 0.9),
               border_mm: float = 30.0, width: int = 1280, height: int = 960) -> "Camera":
        """A varied pose that keeps the whole board (with its border) in the frame.

        ``fill`` is the range of the board's size relative to the frame; ``any_yaw`` lets the
        camera sit on any side of the board (else within 20 degrees of white's side).
        """
        for _ in range(50):
            tilt = float(rng.uniform(min_tilt_deg, max_tilt_deg))
            yaw = float(rng.uniform(-180, 180) if any_yaw else rng.uniform(-20, 20))
            roll = float(rng.uniform(-max_roll_deg, max_roll_deg))
            fov = float(rng.uniform(45, 75))
            k1 = float(rng.uniform(-0.18, 0.04)) if distortion else 0.0
            k2 = float(rng.uniform(-0.02, 0.04)) if distortion else 0.0
            cam = cls(tilt_deg=tilt, yaw_deg=yaw, roll_deg=roll, focal_px=None, fov_deg=fov,
                      k1=k1, k2=k2, width=width, height=height,
                      look_dx_mm=float(rng.normal(0, 15)), look_dy_mm=float(rng.normal(0, 15)))
            target = float(rng.uniform(*fill))
            cam = _fit_distance(cam, target, border_mm)
            if cam is not None and fits(cam, border_mm, margin_px=8.0):
                return cam
        return cls(width=width, height=height)


def _outline_mm(border_mm: float) -> np.ndarray:
    lo, hi = -border_mm - 4.0, BOARD_MM + border_mm + 4.0
    t = np.linspace(lo, hi, 9)
    pts = np.concatenate([
        np.stack([t, np.full_like(t, lo)], 1), np.stack([np.full_like(t, hi), t], 1),
        np.stack([t[::-1], np.full_like(t, hi)], 1), np.stack([np.full_like(t, lo), t[::-1]], 1)])
    return np.concatenate([np.c_[pts, np.zeros(len(pts))], np.c_[pts, np.full(len(pts), 20.0)]])


def fits(camera: Camera, border_mm: float = 30.0, margin_px: float = 0.0) -> bool:
    """True when the board with its border (and 20 mm above it) is inside the frame."""
    model = CameraModel.of(camera)
    pts = _outline_mm(border_mm)
    if np.any(model.depth(pts) < 50.0):
        return False
    uv = model.project(pts)
    return bool(np.all(uv[:, 0] >= margin_px) and np.all(uv[:, 0] <= camera.width - 1 - margin_px)
                and np.all(uv[:, 1] >= margin_px) and np.all(uv[:, 1] <= camera.height - 1 - margin_px))


def _fit_distance(camera: Camera, fill: float, border_mm: float) -> Camera | None:
    """The camera moved along its axis so that the board spans about ``fill`` of the frame."""
    pts = _outline_mm(border_mm)
    lo, hi = 150.0, 5000.0
    for _ in range(30):
        mid = math.sqrt(lo * hi)
        cam = replace(camera, distance_mm=mid)
        model = CameraModel.of(cam)
        if np.any(model.depth(pts) < 50.0):
            lo = mid
            continue
        uv = model.project(pts)
        span = max((uv[:, 0].max() - uv[:, 0].min()) / camera.width,
                   (uv[:, 1].max() - uv[:, 1].min()) / camera.height)
        if span > fill:
            lo = mid
        else:
            hi = mid
    return replace(camera, distance_mm=hi)


#: Board (x, y, h) to world (X, Y, Z): ``Z = -h``.
_TO_WORLD = np.array([1.0, 1.0, -1.0])


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@dataclass(frozen=True, eq=False)
class CameraModel:
    """The matrices of a `Camera`: ``K``, world-to-camera ``R``, ``t``, centre ``C`` (world,
    ``Z = -h``), and distortion; projects board points to pixels and back."""

    camera: Camera
    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    C: np.ndarray
    dist: np.ndarray = field(default_factory=lambda: np.zeros(4))
    #: The squared normalised radius up to which the radial model grows outwards; beyond it (far
    #: outside the picture) the distortion factor is held, so that nothing folds back in.
    r2_max: float = 9.0

    @classmethod
    def of(cls, camera: Camera) -> "CameraModel":
        tilt = math.radians(camera.tilt_deg)
        ct, st = math.cos(tilt), math.sin(tilt)
        # Camera axes in the world for yaw 0: x along the columns, looking down and towards -y
        # from the white side; the image's "down" points towards white's side.
        axes = np.array([[1.0, 0.0, 0.0], [0.0, ct, st], [0.0, -st, ct]]).T  # columns x, y, z
        roll = _rot_z(math.radians(camera.roll_deg))
        yaw = _rot_z(math.radians(camera.yaw_deg))
        c2w = yaw @ axes @ roll
        target = np.array([BOARD_MM / 2 + camera.look_dx_mm, BOARD_MM / 2 + camera.look_dy_mm, 0.0])
        centre = target - camera.distance_mm * c2w[:, 2]
        R = c2w.T
        t = -R @ centre
        f = camera.focal
        K = np.array([[f, 0.0, camera.width / 2.0 - 0.5 + camera.cx_px],
                      [0.0, f, camera.height / 2.0 - 0.5 + camera.cy_px],
                      [0.0, 0.0, 1.0]])
        return cls(camera, K, R, t, centre, np.array([camera.k1, camera.k2, 0.0, 0.0]),
                   _radius_limit(camera.k1, camera.k2))

    # -- points ---------------------------------------------------------------------------------

    @staticmethod
    def _world(points: np.ndarray) -> np.ndarray:
        # (Called for every projection, many per frame: plain array arithmetic, not np.c_.)
        p = np.asarray(points, dtype=np.float64)
        if p.ndim == 1:
            p = p[None, :]
        if p.shape[1] == 2:
            w = np.zeros((len(p), 3))
            w[:, :2] = p
            w[:, 2] = -0.0  # Z = -h of h = 0.0, as ever
            return w
        return p[:, :3] * _TO_WORLD

    def depth(self, points: np.ndarray) -> np.ndarray:
        """Distance along the optical axis of board points (x, y[, h])."""
        w = self._world(points)
        return w @ self.R[2] + self.t[2]

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N x 2, distorted) of board points given as (x, y) or (x, y, h) in mm."""
        w = self._world(points)
        cam = w @ self.R.T + self.t
        z = np.maximum(cam[:, 2], 1e-6)
        x, y = cam[:, 0] / z, cam[:, 1] / z
        r2 = np.minimum(x * x + y * y, self.r2_max)
        g = 1.0 + self.camera.k1 * r2 + self.camera.k2 * r2 * r2
        f = self.K[0, 0]
        return np.stack([f * x * g + self.K[0, 2], f * y * g + self.K[1, 2]], axis=1)

    def scale_px_per_mm(self, points: np.ndarray) -> np.ndarray:
        """Roughly how many pixels one millimetre spans at these points (focal / depth)."""
        return self.K[0, 0] / np.maximum(self.depth(points), 1e-6)

    def undistort_normalised(self, xd: np.ndarray, yd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Invert the radial model by fixed-point iteration (normalised coordinates)."""
        k1, k2 = self.camera.k1, self.camera.k2
        if k1 == 0.0 and k2 == 0.0:
            return xd, yd
        x, y = xd.copy(), yd.copy()
        r2_max = self.r2_max
        for _ in range(12):
            r2 = np.minimum(x * x + y * y, r2_max)
            g = 1.0 + k1 * r2 + k2 * r2 * r2
            x, y = xd / g, yd / g
        return x, y

    def homography(self) -> np.ndarray:
        """3x3 map from board (x, y) mm on the surface to UNdistorted pixels."""
        P = self.K @ np.c_[self.R, self.t]
        # World Z = 0 on the board surface; board (x, y) = world (X, Y).
        Hm = P[:, [0, 1, 3]]
        return Hm / Hm[2, 2]

    def board_maps(self, step: int = 4) -> tuple[np.ndarray, np.ndarray]:
        """For every pixel of the (distorted) image, the board point (x, y) mm it sees on the
        board's plane (float32 maps, computed on a coarse grid and interpolated)."""
        cam = self.camera
        gw, gh = -(-cam.width // step), -(-cam.height // step)
        # Node i sits at pixel (i + 0.5) * step - 0.5, which is where cv2.resize by a factor of
        # `step` puts it: the interpolated maps line up with the pixels exactly.
        u = (np.arange(gw, dtype=np.float64) + 0.5) * step - 0.5
        v = (np.arange(gh, dtype=np.float64) + 0.5) * step - 0.5
        uu, vv = np.meshgrid(u, v)
        f = self.K[0, 0]
        xd = (uu - self.K[0, 2]) / f
        yd = (vv - self.K[1, 2]) / f
        x, y = self.undistort_normalised(xd, yd)
        rays = np.stack([x, y, np.ones_like(x)], -1) @ self.R  # camera rays in the world
        dz = rays[..., 2]
        s = np.where(dz > 1e-6, -self.C[2] / np.maximum(dz, 1e-6), 1e6)
        bx = np.clip(self.C[0] + s * rays[..., 0], -1e5, 1e5).astype(np.float32)
        by = np.clip(self.C[1] + s * rays[..., 1], -1e5, 1e5).astype(np.float32)
        size = (gw * step, gh * step)
        mx = cv2.resize(bx, size, interpolation=cv2.INTER_LINEAR)[: cam.height, : cam.width]
        my = cv2.resize(by, size, interpolation=cv2.INTER_LINEAR)[: cam.height, : cam.width]
        return mx, my


def _radius_limit(k1: float, k2: float) -> float:
    r = np.linspace(0.0, 3.0, 601)
    slope = 1 + 3 * k1 * r ** 2 + 5 * k2 * r ** 4
    bad = np.nonzero(slope <= 0.05)[0]
    return float(r[max(bad[0] - 1, 1)] ** 2) if len(bad) else 9.0


def order_image_corners(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Order four image points (a quadrilateral, any order along its outline) as top-left,
    top-right, bottom-right, bottom-left as seen in the image: the top edge is the upper one of
    the pair of opposite edges nearer to horizontal.  Returns the points and the permutation
    (``ordered[i] = pts[perm[i]]``)."""
    pts = np.asarray(pts, dtype=np.float64)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    cw = np.argsort(ang)  # increasing angle with y down = clockwise on screen
    q = pts[cw]
    edges = [(i, (i + 1) % 4) for i in range(4)]

    def flatness(i: int) -> float:
        a, b = q[edges[i][0]], q[edges[i][1]]
        d = b - a
        return abs(d[1]) / (abs(d[0]) + 1e-9)

    pair = (0, 2) if flatness(0) + flatness(2) <= flatness(1) + flatness(3) else (1, 3)
    top = min(pair, key=lambda i: (q[edges[i][0]][1] + q[edges[i][1]][1]))
    start = edges[top][0]
    perm = np.array([cw[(start + k) % 4] for k in range(4)])
    return pts[perm], perm
