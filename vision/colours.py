"""Colours of the two kinds of square and of the two sides' pieces, learnt rather than assumed.

All colours are CIE Lab triples (OpenCV's 8-bit scaling: L, a, b in 0-255).  A `ColourModel` is
learnt from a calibration frame of the start position (`ColourModel.from_start`), from one photo
by clustering (`ColourModel.from_clusters`), and refined from squares whose content the game
guarantees (`ColourModel.refined`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

#: Weight of lightness against the two chroma axes in colour distances: glare and shade change
#: lightness far more than hue.
L_WEIGHT = 1.0


def distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Weighted Lab distance between colours (broadcasting over leading axes)."""
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    return np.sqrt((L_WEIGHT * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def two_means(points: np.ndarray, iterations: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """Two clusters of Lab colours: (centres 2x3 with the lighter first, labels)."""
    pts = np.asarray(points, dtype=np.float64)
    if len(pts) < 2:
        c = pts.mean(axis=0) if len(pts) else np.zeros(3)
        return np.stack([c, c]), np.zeros(len(pts), dtype=int)
    # start from the two most distant points of a coarse scan
    d = distance(pts[:, None, :], pts[None, :, :])
    i, j = np.unravel_index(np.argmax(d), d.shape)
    centres = np.stack([pts[i], pts[j]])
    labels = np.zeros(len(pts), dtype=int)
    for _ in range(iterations):
        dist = distance(pts[:, None, :], centres[None, :, :])
        labels = np.argmin(dist, axis=1)
        new = np.stack([pts[labels == k].mean(axis=0) if np.any(labels == k) else centres[k]
                        for k in (0, 1)])
        if np.allclose(new, centres):
            break
        centres = new
    if centres[0, 0] < centres[1, 0]:
        centres = centres[::-1]
        labels = 1 - labels
    return centres, labels


@dataclass(frozen=True)
class ColourModel:
    """Lab colours: the light and dark squares, and the top faces of white's and black's pieces
    (the sides of the rules, whatever their colours; ``white_piece`` is the lighter one when the
    model was learnt by clustering a photo).  ``spread`` is the typical distance of a sample from
    its class colour (for confidences)."""

    light_square: tuple[float, float, float]
    dark_square: tuple[float, float, float]
    white_piece: tuple[float, float, float]
    black_piece: tuple[float, float, float]
    spread: float = 8.0

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return (np.array(self.light_square), np.array(self.dark_square),
                np.array(self.white_piece), np.array(self.black_piece))

    @property
    def piece_contrast(self) -> float:
        """How far apart the two sides' colours are."""
        return float(distance(np.array(self.white_piece), np.array(self.black_piece)))

    @classmethod
    def from_samples(cls, light: np.ndarray, dark: np.ndarray, white: np.ndarray,
                     black: np.ndarray) -> "ColourModel":
        """From sample colours (N x 3 each) of each class: robust centres and spread."""
        centres = [np.median(np.asarray(s, dtype=np.float64).reshape(-1, 3), axis=0)
                   for s in (light, dark, white, black)]
        spreads = [np.median(distance(np.asarray(s).reshape(-1, 3), c))
                   for s, c in zip((light, dark, white, black), centres) if len(s)]
        spread = float(max(4.0, np.median(spreads))) if spreads else 8.0
        t = [tuple(float(v) for v in c) for c in centres]
        return cls(t[0], t[1], t[2], t[3], spread)  # type: ignore[arg-type]

    def refined(self, light: np.ndarray, dark: np.ndarray, white: np.ndarray,
                black: np.ndarray, rate: float = 0.1) -> "ColourModel":
        """The model moved a little (``rate``) towards samples whose class the game guarantees
        (empty light/dark squares, known pieces); classes without samples stay."""
        def step(old: tuple[float, float, float], s: np.ndarray) -> tuple[float, float, float]:
            s = np.asarray(s, dtype=np.float64).reshape(-1, 3)
            if not len(s):
                return old
            new = (1 - rate) * np.array(old) + rate * np.median(s, axis=0)
            return tuple(float(v) for v in new)  # type: ignore[return-value]
        return replace(self, light_square=step(self.light_square, light),
                       dark_square=step(self.dark_square, dark),
                       white_piece=step(self.white_piece, white),
                       black_piece=step(self.black_piece, black))


def brighten(image: np.ndarray, target: float = 110.0) -> np.ndarray:
    """A very dark exposure lifted by a gamma that brings its median grey to ``target``
    (other images unchanged)."""
    median = float(np.median(image[::4, ::4]))
    if median >= 0.75 * target:
        return image
    gamma = np.log(target / 255.0) / np.log(max(median, 2.0) / 255.0)
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma, 0, 255).astype(np.uint8)
    return cv2.LUT(image, lut)


def to_lab(image: np.ndarray) -> np.ndarray:
    """BGR uint8 to float32 Lab."""
    return cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32)
