"""A physical camera: pinhole, lens distortion and pose (`Camera`), and its sensor (`Sensor`).

The pose looks at the board from 10-45 degrees off vertical, from any of the four sides (give or
take 15 degrees) and so far away that the board, border included, fills 50-90 % of the frame.
The sensor turns linear scene light into the BGR uint8 picture a camera module delivers: shake
and roll (correlated frame to frame) and slow drift, focus breathing, auto exposure that follows
the picture's brightness with a lag, white balance drift, vignetting, shot and read noise on a
Bayer mosaic (gain, and so noise, grows in dim light), demosaicing, gamma and JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


def _look_at(eye: np.ndarray, target: np.ndarray, up_hint: np.ndarray) -> np.ndarray:
    """World-to-camera rotation (rows: camera x right, y down, z forward)."""
    z = target - eye
    z = z / np.linalg.norm(z)
    x = np.cross(z, up_hint)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    return np.stack([x, y, z])


def _undistort_points(pix: np.ndarray, K: np.ndarray, dist: np.ndarray, criteria: tuple) -> np.ndarray:
    """`cv2.undistortPoints` iterated to ``criteria``: OpenCV 4.6 (Raspberry Pi OS bookworm) has
    it as ``undistortPointsIter``; later versions took the criteria into ``undistortPoints``."""
    iterate = getattr(cv2, "undistortPointsIter", None)
    if iterate is not None:
        return iterate(pix, K, dist, None, None, criteria)
    return cv2.undistortPoints(pix, K, dist, None, None, None, criteria)


@dataclass
class Camera:
    width: int
    height: int
    K: np.ndarray
    dist: np.ndarray  # k1, k2, p1, p2, k3
    R: np.ndarray
    t: np.ndarray
    tilt_deg: float
    azimuth_deg: float

    @property
    def eye(self) -> np.ndarray:
        return -self.R.T @ self.t

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> pixel coordinates (N, 2), with the lens' distortion."""
        pts = np.ascontiguousarray(np.asarray(points, np.float64).reshape(-1, 3))
        rvec, _ = cv2.Rodrigues(self.R)
        uv, _ = cv2.projectPoints(pts, rvec, self.t, self.K, self.dist)
        return uv.reshape(-1, 2)

    def depth(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points, np.float64).reshape(-1, 3) @ self.R.T + self.t)[:, 2]

    def px_per_mm(self, point: np.ndarray) -> float:
        return float(self.K[0, 0] / self.depth(point)[0])

    def ground_map(self, z: float = 0.0) -> np.ndarray:
        """For every pixel, the world point (x, y, z) its ray meets on the plane at height ``z``:
        (H, W, 3) float32 (the lens' distortion undone)."""
        u, v = np.meshgrid(np.arange(self.width, dtype=np.float64), np.arange(self.height, dtype=np.float64))
        pix = np.stack([u.ravel(), v.ravel()], -1).reshape(-1, 1, 2)
        crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-6)
        norm = _undistort_points(pix, self.K, self.dist, crit).reshape(-1, 2)
        rays = np.concatenate([norm, np.ones((len(norm), 1))], 1) @ self.R  # camera -> world
        eye = self.eye
        s = (z - eye[2]) / rays[:, 2]
        pts = eye + rays * s[:, None]
        return pts.reshape(self.height, self.width, 3).astype(np.float32)

    @classmethod
    def random(cls, rng: np.random.Generator, board_centre: np.ndarray, corners: np.ndarray) -> "Camera":
        """A pose and lens for a board whose outer ``corners`` (4, 3) are given."""
        width, height = ((1280, 960), (1024, 768))[int(rng.random() < 0.3)]
        hfov = math.radians(rng.uniform(52, 78))
        f = width / 2 / math.tan(hfov / 2)
        K = np.array([[f, 0, width / 2 + rng.normal(0, 8)], [0, f * rng.uniform(0.998, 1.002), height / 2 + rng.normal(0, 8)],
                      [0, 0, 1]])
        dist = np.array([rng.uniform(-0.28, 0.06), rng.uniform(-0.05, 0.12), rng.normal(0, 0.0008),
                         rng.normal(0, 0.0008), 0.0])
        tilt = rng.uniform(10, 45)
        side = int(rng.integers(4))
        azimuth = side * 90 + rng.uniform(-15, 15)
        fill = rng.uniform(0.5, 0.9)
        target = board_centre + np.array([rng.normal(0, 15), rng.normal(0, 15), 0])
        roll = math.radians(rng.normal(0, 3))
        # the camera stands on the side ``azimuth`` (0: White's side, y large), looking down at tilt
        a, tt = math.radians(azimuth), math.radians(tilt)
        away = np.array([math.sin(a), -math.cos(a), 0.0])  # from the board's centre to the camera's side
        direction = away * math.sin(tt) + np.array([0, 0, 1.0]) * math.cos(tt)
        up_hint = -away + 1e-9
        up_hint = np.array([up_hint[0] * math.cos(roll) - up_hint[1] * math.sin(roll),
                            up_hint[0] * math.sin(roll) + up_hint[1] * math.cos(roll), 0])

        def make(d: float) -> "Camera":
            eye = target + direction * d
            R = _look_at(eye, target, up_hint)
            t = -R @ eye
            return cls(width, height, K, dist, R, t, tilt, azimuth)

        lo, hi = 150.0, 6000.0
        for _ in range(50):
            d = (lo + hi) / 2
            cam = make(d)
            uv = cam.project(corners)
            ext = max((uv[:, 0].max() - uv[:, 0].min()) / width, (uv[:, 1].max() - uv[:, 1].min()) / height)
            lo, hi = (d, hi) if ext > fill else (lo, d)
        cam = make((lo + hi) / 2)
        # The far side at the top of the picture: flip the image if it came out upside down.
        uv = cam.project(np.array([board_centre - away * 100, board_centre + away * 100]))
        if uv[0, 1] > uv[1, 1]:
            flip = np.diag([-1.0, -1.0, 1.0])
            cam.R = flip @ cam.R
            cam.t = flip @ cam.t
        return cam


def image_corner_index(uv: np.ndarray, which: int) -> int:
    """Of four projected board corners ``uv`` (4, 2), the image corner (0 TL, 1 TR, 2 BR, 3 BL)
    that corner ``which`` stands at: corners taken in order around their centre, top-left the
    one nearest the picture's top-left direction."""
    c = uv.mean(0)
    ang = np.arctan2(uv[:, 1] - c[1], uv[:, 0] - c[0])  # image y down: -135 deg is top-left
    targets = {0: -3 * np.pi / 4, 1: -np.pi / 4, 2: np.pi / 4, 3: 3 * np.pi / 4}
    best = None
    for shift in range(4):  # the assignment around the circle that fits the targets best
        ranked = np.argsort(ang)
        cost = 0.0
        assign = {}
        for k, idx in enumerate(np.roll(ranked, -shift)):
            tgt = (0, 1, 2, 3)[k]
            cost += abs(math.remainder(ang[idx] - targets[tgt], 2 * math.pi))
            assign[int(idx)] = tgt
        if best is None or cost < best[0]:
            best = (cost, assign)
    order = best[1]
    return order[which]


@dataclass
class SensorSettings:
    shake_px: float  # rms of the frame-to-frame jitter, pixels
    shake_tau: float  # its correlation time, seconds
    drift_px_per_min: float
    roll_px: float  # rms roll, pixels at the picture's edge
    read_noise: float  # electrons
    full_well: float  # electrons at the picture's white (at unity gain)
    ae_target: float  # mean linear level auto exposure aims at
    ae_tau: float  # seconds
    wb_drift: float
    vignette: float
    focus_sigma: float  # px, the lens' blur
    breathing: float  # relative scale change with focus
    jpeg: int

    @classmethod
    def random(cls, rng: np.random.Generator) -> "SensorSettings":
        return cls(shake_px=float(rng.uniform(0.1, 0.5)), shake_tau=float(rng.uniform(0.2, 1.0)),
                   drift_px_per_min=float(rng.uniform(0, 1.5)), roll_px=float(rng.uniform(0.05, 0.3)),
                   read_noise=float(rng.uniform(2.5, 6)), full_well=float(rng.uniform(2500, 6000)),
                   ae_target=float(rng.uniform(0.14, 0.22)), ae_tau=float(rng.uniform(0.35, 0.7)),
                   wb_drift=float(rng.uniform(0.0, 0.02)), vignette=float(rng.uniform(0.1, 0.4)),
                   focus_sigma=float(rng.uniform(0.3, 1.0)), breathing=float(rng.uniform(0, 0.002)),
                   jpeg=int(rng.integers(70, 96)))


class Sensor:
    """The camera's electronics, frame by frame (it has state: exposure, shake, white balance).

    ``capture(scene_linear, dt)`` takes the scene's light (H, W, 3, RGB, linear, about 0-1 in a
    well-lit room) and gives the BGR uint8 picture.  ``last_shift`` is the true (dx, dy) shake
    and drift of the last frame, ``gain`` its analogue gain (1: bright enough)."""

    MAX_EXPOSURE = 1.0  # the exposure multiplier at which the shutter is as long as the frame allows

    def __init__(self, settings: SensorSettings, width: int, height: int, seed: int) -> None:
        self.s = settings
        self.w, self.h = width, height
        self.rng = np.random.default_rng(seed)
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        r2 = ((xx - width / 2) ** 2 + (yy - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
        self.vignette = (1 - settings.vignette * r2).astype(np.float32)
        # which colour each photosite sees: RGGB
        self.site = np.zeros((height, width), np.int8)
        self.site[0::2, 1::2] = 1
        self.site[1::2, 0::2] = 1
        self.site[1::2, 1::2] = 2
        bank = np.random.default_rng([seed, 7])
        self.noise_bank = [bank.standard_normal((height + 64, width + 64)).astype(np.float32) for _ in range(3)]
        self.exposure: float | None = None  # linear multiplier
        self.wb = np.ones(3, np.float32)
        self.shake = np.zeros(3)  # dx, dy, roll (px at edge)
        self.drift = np.zeros(2)
        self.drift_v = self.rng.normal(0, 1, 2)
        self.drift_v *= settings.drift_px_per_min / 60 / max(np.linalg.norm(self.drift_v), 1e-9)
        self.focus_phase = self.rng.uniform(0, 2 * np.pi)
        self.t = 0.0
        self.last_shift = (0.0, 0.0)
        self.gain = 1.0
        lut = (np.arange(4096) / 4095.0) ** (1 / 2.2) * 255.0
        self.lut = np.clip(lut + 0.5, 0, 255).astype(np.uint8)

    def _step(self, dt: float, mean_level: float) -> None:
        s = self.s
        a = math.exp(-dt / s.shake_tau)
        kick = math.sqrt(1 - a * a)
        self.shake = a * self.shake + kick * self.rng.normal(0, 1, 3) * np.array([s.shake_px / math.sqrt(2)] * 2 + [s.roll_px])
        if self.rng.random() < dt / 20:  # now and then the drift turns
            self.drift_v = self.rng.normal(0, 1, 2)
            self.drift_v *= s.drift_px_per_min / 60 / max(np.linalg.norm(self.drift_v), 1e-9)
        self.drift += self.drift_v * dt
        want = s.ae_target / max(mean_level, 1e-4)
        if self.exposure is None:
            self.exposure = want
        else:  # auto exposure follows in the log domain with a lag
            k = 1 - math.exp(-dt / s.ae_tau)
            self.exposure = math.exp(math.log(self.exposure) + k * (math.log(want) - math.log(self.exposure)))
        self.wb = np.clip(self.wb + self.rng.normal(0, s.wb_drift * math.sqrt(dt), 3).astype(np.float32), 0.9, 1.1)
        self.t += dt

    def capture(self, scene: np.ndarray, dt: float) -> np.ndarray:
        s = self.s
        h, w = self.h, self.w
        small = cv2.resize(scene, (w // 16, h // 16), interpolation=cv2.INTER_AREA)
        cy, cx = small.shape[0] // 2, small.shape[1] // 2
        weight = small[cy // 2: cy + cy // 2, cx // 2: cx + cx // 2].mean()  # centre weighted
        level = 0.5 * float(small.mean()) + 0.5 * float(weight)
        self._step(dt, level)
        # shake, roll, drift and focus breathing: one affine warp of the scene
        dx, dy = self.shake[0] + self.drift[0], self.shake[1] + self.drift[1]
        roll = self.shake[2] / (w / 2)
        scale = 1 + s.breathing * math.sin(self.t * 0.7 + self.focus_phase)
        c, sn = scale * math.cos(roll), scale * math.sin(roll)
        M = np.array([[c, -sn, 0], [sn, c, 0]], np.float64)
        M[:, 2] = np.array([w / 2, h / 2]) - M[:, :2] @ np.array([w / 2, h / 2]) + np.array([dx, dy])
        self.last_shift = (float(dx), float(dy))
        img = cv2.warpAffine(scene, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        # the mosaic: each photosite sees one colour (scene is RGB)
        mosaic = np.empty((h, w), np.float32)
        mosaic[0::2, 0::2] = img[0::2, 0::2, 0]
        mosaic[0::2, 1::2] = img[0::2, 1::2, 1]
        mosaic[1::2, 0::2] = img[1::2, 0::2, 1]
        mosaic[1::2, 1::2] = img[1::2, 1::2, 2]
        exposure = self.exposure
        gain = max(1.0, exposure / self.MAX_EXPOSURE)
        self.gain = gain
        wbg = self.wb * np.array([1.0, 1.0, 1.0], np.float32)
        gains = (exposure / gain) * s.full_well * wbg  # electrons per unit of light, per colour
        electrons = mosaic * self.vignette * gains[self.site]
        np.clip(electrons, 0, s.full_well * 1.2, out=electrons)
        sigma = np.sqrt(electrons + s.read_noise ** 2)
        bank = self.noise_bank[int(self.rng.integers(len(self.noise_bank)))]
        oy, ox = int(self.rng.integers(0, 64)), int(self.rng.integers(0, 64))
        electrons += sigma * bank[oy:oy + h, ox:ox + w]
        digital = electrons * (gain * 4095.0 / s.full_well)
        raw = np.clip(digital, 0, 4095).astype(np.uint16)
        mosaic8 = self.lut[raw]
        bgr = cv2.cvtColor(mosaic8, cv2.COLOR_BayerBG2BGR)  # OpenCV's name for an RGGB mosaic
        sigma_f = s.focus_sigma * (1 + 0.3 * math.sin(self.t * 0.7 + self.focus_phase))
        if sigma_f > 0.25:
            bgr = cv2.GaussianBlur(bgr, (0, 0), sigma_f)
        ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, s.jpeg])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)
