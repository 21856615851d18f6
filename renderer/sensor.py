"""A real camera's behaviour from frame to frame: shake, exposure and white-balance drift, sensor
noise that grows in dim light, focus that breathes, and JPEG.

A `CameraBehaviour` is the camera's character (magnitudes, frozen); `CameraBehaviour.start`
gives a `Sensor` that carries its state along one frame sequence and turns each clean rendered
picture into the picture the camera delivers, in the camera's order:

1. shake and roll: the picture moved by a small affine (sub-pixel translation, AR(1)-correlated
   from frame to frame, and a tiny roll about a point near the image centre); the frame's truth
   (corners, projected points) is moved by the same affine (`SensorFrame.affine`);
2. exposure and white-balance drift: slow gains of a few per cent, per channel;
3. focus blur: a Gaussian whose sigma wanders slowly, with now and then a short refocus
   "breathing" (the optics act before the sensor, so this comes before the noise);
4. sensor noise: shot noise (variance proportional to the signal) plus read noise, both
   amplified by the gain the camera needs in a dim scene (`CameraBehaviour.gain`), fresh every
   frame, with the grain of a demosaiced picture (about two pixels wide);
5. JPEG.

`CameraBehaviour.still()` has everything off: the picture is passed through untouched.
`CameraBehaviour.random(rng)` draws magnitudes met with real cameras (a webcam or a Pi camera on
a desk clamp).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["CameraBehaviour", "Sensor", "SensorFrame"]

#: The noise bank's unit (its standard deviation in int16 steps) and the sigma table's (steps
#: per grey level): noise = bank * sigma_table / (_BANK_UNIT * _SIGMA_UNIT).
_BANK_UNIT = 64
_SIGMA_UNIT = 32
#: The margin of the noise bank beyond the picture, from which each frame takes a random crop.
_BANK_MARGIN = 64


@dataclass(frozen=True)
class CameraBehaviour:
    """How a camera behaves over time (all magnitudes; zero turns an effect off).

    ``shake_px``: rms of the picture's translation along each axis (px), an AR(1) process with
    coefficient ``shake_corr`` per frame; ``roll_deg``: rms of its roll about ``roll_centre``
    (fractions of width and height), same process; ``exposure_drift`` and ``white_drift``:
    amplitudes (fractions) of the slow exposure drift (all channels) and of the white balance's
    (each channel on its own), as sums of sinusoids with periods ``drift_periods_s``;
    ``shot_noise``: the noise variance per grey level of signal at gain 1, ``read_noise``: the
    noise sigma (grey levels) at gain 1, both amplified in a dim scene (`gain`); ``blur_px``:
    the mean focus blur (Gaussian sigma, px), wandering by ``blur_wander_px`` over
    ``blur_period_s``; ``refocus_per_s``: how often the focus breathes (the sigma rising by up to
    ``refocus_px`` for 0.3-0.8 s); ``jpeg_quality``: None for no compression.
    """

    shake_px: float = 0.0
    shake_corr: float = 0.8
    roll_deg: float = 0.0
    roll_centre: tuple[float, float] = (0.5, 0.5)
    exposure_drift: float = 0.0
    white_drift: float = 0.0
    drift_periods_s: tuple[float, float] = (5.0, 13.0)
    shot_noise: float = 0.0
    read_noise: float = 0.0
    blur_px: float = 0.0
    blur_wander_px: float = 0.0
    blur_period_s: float = 9.0
    refocus_per_s: float = 0.0
    refocus_px: float = 0.0
    jpeg_quality: int | None = None

    @classmethod
    def still(cls) -> "CameraBehaviour":
        """A camera that does nothing of its own (clean pictures, as the scene was drawn)."""
        return cls()

    @classmethod
    def random(cls, rng: np.random.Generator) -> "CameraBehaviour":
        """A camera as met outside: sub-pixel shake (0.1-0.5 px rms) with a tiny roll
        (0.01-0.03 degrees rms), slow exposure and white-balance drift of 1-4 %, shot and read
        noise (sigma about 2-3 grey levels in a bright scene, 4-8 in a dim one), focus blur of
        0.4-1.0 px that wanders and sometimes breathes, JPEG quality 70-92."""
        return cls(
            shake_px=float(rng.uniform(0.1, 0.5)),
            shake_corr=float(rng.uniform(0.6, 0.9)),
            roll_deg=float(rng.uniform(0.01, 0.03)),
            roll_centre=(float(rng.uniform(0.4, 0.6)), float(rng.uniform(0.4, 0.6))),
            exposure_drift=float(rng.uniform(0.01, 0.04)),
            white_drift=float(rng.uniform(0.01, 0.03)),
            drift_periods_s=(float(rng.uniform(3.0, 8.0)), float(rng.uniform(8.0, 25.0))),
            shot_noise=float(rng.uniform(0.04, 0.07)),
            read_noise=float(rng.uniform(0.7, 1.2)),
            blur_px=float(rng.uniform(0.5, 0.85)),
            blur_wander_px=float(rng.uniform(0.05, 0.15)),
            blur_period_s=float(rng.uniform(5.0, 20.0)),
            refocus_per_s=float(rng.uniform(0.0, 0.08)),
            refocus_px=float(rng.uniform(0.3, 0.8)),
            jpeg_quality=int(rng.integers(70, 93)),
        )

    @property
    def is_still(self) -> bool:
        return self == CameraBehaviour.still()

    @staticmethod
    def gain(exposure: float) -> float:
        """The sensor gain a camera runs at when the scene's light gives ``exposure`` (1: a
        well-lit room): auto-exposure runs out of shutter time and turns the gain up steeply
        as the light falls (0.6: about 3.6x, 0.5: 5.7x, capped at 6x)."""
        return float(min(6.0, max(0.7, max(exposure, 1e-3) ** -2.5)))

    def noise_sigma(self, signal: np.ndarray | float, exposure: float = 1.0) -> np.ndarray:
        """The noise's sigma (grey levels) at ``signal`` (grey levels) in a scene lit for
        ``exposure``."""
        g = self.gain(exposure)
        s = np.maximum(np.asarray(signal, dtype=np.float64), 0.0)
        return np.sqrt(self.shot_noise * g * s + (self.read_noise * g) ** 2)

    def start(self, width: int, height: int, fps: float, seed: int = 0, *,
              exposure: float = 1.0, min_noise: float = 0.0, min_blur: float = 0.0,
              jpeg_cap: int | None = None) -> "Sensor":
        """The camera running over one frame sequence of ``width`` x ``height`` pictures at
        ``fps``; ``exposure`` is the scene's light (see `gain`); ``min_noise`` (a sigma: the
        larger wins), ``min_blur`` and ``jpeg_cap`` (the lower quality wins) fold a scene's own
        noise, blur and JPEG into the camera's so that none is applied twice."""
        return Sensor(self, width, height, fps, seed, exposure, min_noise, min_blur, jpeg_cap)


@dataclass(frozen=True, eq=False)
class SensorFrame:
    """One picture as the camera delivered it: ``image``; ``affine`` (2 x 3), where the scene's
    pixels went (apply it to any point of the clean picture to find it in ``image``);
    ``shift_px`` and ``roll_deg`` (the shake), ``gains`` (B, G, R exposure times white balance),
    ``blur_px`` (focus sigma); ``jpeg``: the picture as compressed, when it was (``image`` is its
    decoding)."""

    image: np.ndarray
    affine: np.ndarray
    shift_px: tuple[float, float]
    roll_deg: float
    gains: tuple[float, float, float]
    blur_px: float
    jpeg: bytes | None = None


def apply_affine(affine: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N x 2) moved by a 2 x 3 affine."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return p @ affine[:, :2].T + affine[:, 2]


class Sensor:
    """A `CameraBehaviour` running over one sequence (mutable: the shake and focus carry state
    from frame to frame).  Call `frame` once per picture, in order."""

    def __init__(self, behaviour: CameraBehaviour, width: int, height: int, fps: float, seed: int,
                 exposure: float, min_noise: float, min_blur: float, jpeg_cap: int | None) -> None:
        self.b = behaviour
        self.width, self.height, self.fps = width, height, fps
        self.rng = np.random.default_rng([seed, 0x5E45])
        self.exposure = exposure
        self.min_noise = min_noise
        self.min_blur = min_blur
        q = [v for v in (behaviour.jpeg_quality, jpeg_cap) if v is not None]
        self.jpeg_quality = min(q) if q else None
        b, rng = behaviour, self.rng
        rho = b.shake_corr
        # the AR(1) state starts in its stationary distribution
        self._shift = rng.normal(0.0, b.shake_px, 2)
        self._roll = float(rng.normal(0.0, b.roll_deg))
        self._innovation = math.sqrt(max(0.0, 1.0 - rho * rho))
        self._phases = rng.uniform(0.0, 2 * math.pi, 6)  # exposure x2, B, G, R, focus
        self._channel_periods = rng.uniform(*sorted(b.drift_periods_s), 3)
        self._breath: tuple[float, float, float] | None = None  # start, length, height
        self._bank: np.ndarray | None = None
        self._sigma_lut: np.ndarray | None = None
        self._index = -1

    # -- the state at a frame -------------------------------------------------------------------

    def _step_shake(self) -> None:
        b, rng = self.b, self.rng
        rho, k = b.shake_corr, self._innovation
        self._shift = rho * self._shift + k * rng.normal(0.0, b.shake_px, 2)
        self._roll = rho * self._roll + k * float(rng.normal(0.0, b.roll_deg))

    def _gains(self, t: float) -> tuple[float, float, float]:
        b, ph = self.b, self._phases
        p1, p2 = b.drift_periods_s
        e = 1.0 + b.exposure_drift * (0.6 * math.sin(2 * math.pi * t / p1 + ph[0])
                                      + 0.4 * math.sin(2 * math.pi * t / p2 + ph[1]))
        return tuple(float(e * (1.0 + b.white_drift * math.sin(2 * math.pi * t / p + f)))  # type: ignore[return-value]
                     for p, f in zip(self._channel_periods, ph[2:5]))

    def _blur(self, t: float) -> float:
        b = self.b
        sigma = b.blur_px + b.blur_wander_px * math.sin(2 * math.pi * t / b.blur_period_s + self._phases[5])
        if self._breath is None and b.refocus_per_s > 0 and self.rng.random() < b.refocus_per_s / self.fps:
            self._breath = (t, float(self.rng.uniform(0.3, 0.8)), float(self.rng.uniform(0.5, 1.0)) * b.refocus_px)
        if self._breath is not None:
            t0, length, height = self._breath
            if t - t0 >= length:
                self._breath = None
            else:
                sigma += height * math.sin(math.pi * (t - t0) / length)
        return max(sigma, self.min_blur)

    def affine(self) -> np.ndarray:
        """The current shake as a 2 x 3 affine (roll about the roll centre, then the shift)."""
        a = math.radians(self._roll)
        c, s = math.cos(a), math.sin(a)
        cx = self.b.roll_centre[0] * self.width
        cy = self.b.roll_centre[1] * self.height
        rot = np.array([[c, -s], [s, c]])
        t = np.array([cx, cy]) - rot @ np.array([cx, cy]) + self._shift
        return np.hstack([rot, t[:, None]])

    # -- the picture ----------------------------------------------------------------------------

    def _noise_bank(self) -> np.ndarray:
        """Unit noise with a demosaiced picture's grain (smoothed, renormalised), in int16 steps
        of 1 / `_BANK_UNIT`, a margin bigger than the picture; frames take random crops of it."""
        if self._bank is None:
            rng = np.random.default_rng(0x5E45)
            shape = (self.height + _BANK_MARGIN, self.width + _BANK_MARGIN, 3)
            n = rng.standard_normal(shape, dtype=np.float32)
            n = cv2.GaussianBlur(n, (0, 0), 0.6)
            n *= _BANK_UNIT / float(n.std())
            self._bank = np.clip(n, -32000, 32000).astype(np.int16)
        return self._bank

    def _sigma_table(self) -> np.ndarray:
        """256 int16s: a grey level -> the noise sigma there, in steps of 1 / `_SIGMA_UNIT`."""
        if self._sigma_lut is None:
            sigma = np.maximum(self.b.noise_sigma(np.arange(256.0), self.exposure), self.min_noise)
            self._sigma_lut = np.clip(np.round(sigma * _SIGMA_UNIT), 0, 32000).astype(np.int16)
        return self._sigma_lut

    def frame(self, image: np.ndarray, index: int) -> SensorFrame:
        """The picture the camera delivers for the clean ``image`` (frame ``index``; frames
        must come in order)."""
        b = self.b
        t = index / self.fps
        if index != self._index:
            if self._index >= 0:
                for _ in range(max(1, index - self._index)):
                    self._step_shake()
            self._index = index
        img = image
        m = self.affine()
        if b.shake_px > 0 or b.roll_deg > 0:
            img = cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REFLECT)
        gains = self._gains(t)
        if any(abs(g - 1.0) > 1e-4 for g in gains):
            img = cv2.transform(img, np.diag(gains))
        blur = self._blur(t)
        if blur > 0.25:
            k = 2 * int(math.ceil(2.5 * blur)) + 1
            img = cv2.GaussianBlur(img, (k, k), blur)
        if b.shot_noise > 0 or b.read_noise > 0 or self.min_noise > 0:
            sigma = cv2.LUT(img, self._sigma_table())
            bank = self._noise_bank()
            oy, ox = (int(v) for v in self.rng.integers(0, _BANK_MARGIN, 2))
            h, w = img.shape[:2]
            noise = cv2.multiply(bank[oy:oy + h, ox:ox + w], sigma,
                                 scale=1.0 / (_BANK_UNIT * _SIGMA_UNIT))
            img = cv2.add(img, noise, dtype=cv2.CV_8U)
        jpeg = None
        if self.jpeg_quality is not None:
            ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(self.jpeg_quality)])
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            jpeg = buf.tobytes()
        if img is image:
            img = image.copy()
        return SensorFrame(image=img, affine=m, shift_px=(float(self._shift[0]), float(self._shift[1])),
                           roll_deg=float(self._roll), gains=gains, blur_px=blur, jpeg=jpeg)
