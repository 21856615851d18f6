"""Anti-aliased drawing of shaded shapes: a `Layer` is an oversampled patch of the picture (colour
premultiplied by coverage, and coverage), drawn by the painter's algorithm with OpenCV's polygon
and thick-line fills, then shrunk (area average) and laid over the picture."""

from __future__ import annotations

import math

import cv2
import numpy as np

SHIFT = 3  # fractional bits of the drawing coordinates
ONE = 1 << SHIFT


class Layer:
    def __init__(self, box: tuple[int, int, int, int], factor: int, shape: tuple[int, int]) -> None:
        """``box`` (x0, y0, x1, y1) in picture pixels, clipped to the picture's ``shape`` (h, w)."""
        h, w = shape
        x0, y0, x1, y1 = box
        self.x0, self.y0 = max(0, int(math.floor(x0))), max(0, int(math.floor(y0)))
        self.x1, self.y1 = min(w, int(math.ceil(x1))), min(h, int(math.ceil(y1)))
        self.f = factor
        self.empty = self.x1 <= self.x0 or self.y1 <= self.y0
        if self.empty:
            return
        hh, ww = (self.y1 - self.y0) * factor, (self.x1 - self.x0) * factor
        self.colour = np.zeros((hh, ww, 3), np.float32)
        self.alpha = np.zeros((hh, ww), np.float32)

    def _pts(self, uv: np.ndarray) -> np.ndarray:
        p = (np.asarray(uv, np.float64) - [self.x0, self.y0]) * self.f
        return np.round(p * ONE).astype(np.int32)

    def poly(self, uv: np.ndarray, colour, convex: bool = True) -> None:
        if self.empty:
            return
        pts = self._pts(uv)
        c = tuple(float(v) for v in colour)
        if convex:
            cv2.fillConvexPoly(self.colour, pts, c, cv2.LINE_8, SHIFT)
            cv2.fillConvexPoly(self.alpha, pts, 1.0, cv2.LINE_8, SHIFT)
        else:
            cv2.fillPoly(self.colour, [pts], c, cv2.LINE_8, SHIFT)
            cv2.fillPoly(self.alpha, [pts], 1.0, cv2.LINE_8, SHIFT)

    def capsule(self, a: np.ndarray, b: np.ndarray, radius_px: float, colour) -> None:
        """A thick line with round ends (a projected capsule)."""
        if self.empty:
            return
        pa, pb = self._pts(np.array([a, b]))
        th = max(1, int(round(2 * radius_px * self.f)))
        c = tuple(float(v) for v in colour)
        cv2.line(self.colour, tuple(int(v) for v in pa), tuple(int(v) for v in pb), c, th, cv2.LINE_8, SHIFT)
        cv2.line(self.alpha, tuple(int(v) for v in pa), tuple(int(v) for v in pb), 1.0, th, cv2.LINE_8, SHIFT)

    def polyline(self, uv: np.ndarray, thickness_px: float, colour, closed: bool = True) -> None:
        if self.empty:
            return
        pts = self._pts(uv)
        th = max(1, int(round(thickness_px * self.f)))
        c = tuple(float(v) for v in colour)
        cv2.polylines(self.colour, [pts], closed, c, th, cv2.LINE_8, SHIFT)
        cv2.polylines(self.alpha, [pts], closed, 1.0, th, cv2.LINE_8, SHIFT)

    def shrink(self) -> tuple[np.ndarray, np.ndarray]:
        """Colour (premultiplied) and coverage at picture resolution."""
        w, h = self.x1 - self.x0, self.y1 - self.y0
        col = self.colour
        if self.f == 1:
            return col, self.alpha
        return (cv2.resize(col, (w, h), interpolation=cv2.INTER_AREA),
                cv2.resize(self.alpha, (w, h), interpolation=cv2.INTER_AREA))

    def over(self, image: np.ndarray, blur: np.ndarray | None = None) -> None:
        """Lay the layer over ``image`` (float32, H x W x 3); ``blur`` a kernel smearing it
        (motion blur)."""
        if self.empty:
            return
        col, a = self.shrink()
        if blur is not None:
            col = cv2.filter2D(col, -1, blur, borderType=cv2.BORDER_CONSTANT)
            a = cv2.filter2D(a, -1, blur, borderType=cv2.BORDER_CONSTANT)
        roi = image[self.y0:self.y1, self.x0:self.x1]
        roi *= (1 - a)[..., None]
        roi += col


def motion_kernel(dx: float, dy: float) -> np.ndarray | None:
    """A line kernel smearing by (dx, dy) pixels, or None when that is under a pixel."""
    n = math.hypot(dx, dy)
    if n < 1.0:
        return None
    size = int(math.ceil(n)) | 1
    size += 2
    k = np.zeros((size, size), np.float32)
    c = size // 2
    steps = max(2, int(math.ceil(n * 2)))
    for s in np.linspace(-0.5, 0.5, steps):
        x, y = c + s * dx, c + s * dy
        x0, y0 = int(math.floor(x)), int(math.floor(y))
        fx, fy = x - x0, y - y0
        for (xx, yy, w) in ((x0, y0, (1 - fx) * (1 - fy)), (x0 + 1, y0, fx * (1 - fy)),
                            (x0, y0 + 1, (1 - fx) * fy), (x0 + 1, y0 + 1, fx * fy)):
            if 0 <= xx < size and 0 <= yy < size:
                k[yy, xx] += w
    return k / k.sum()
