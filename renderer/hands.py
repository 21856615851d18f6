"""Hands and arms reaching over the board, for the renderer.

A `Hand` is placed in board coordinates (see `renderer.camera_model`): its fingertips point at
``(x_mm, y_mm)`` at ``height_mm`` above the board, and the arm runs back towards ``from_deg`` (the
direction, in the board's plane, from the fingertips to the shoulder; 90 = from white's side,
-90 = from black's side), rising as it goes, so that it leaves the picture at an image edge.
The arm is drawn as a tapered round band in perspective (wider nearer the camera), with four
fingers and a thumb, a sleeve from ``sleeve_mm`` behind the fingertips, soft edges, shading
across its width, and its shadow on the board.  A hand may hold a piece between its fingers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rules.piece import Piece
from renderer.camera_model import CameraModel
from renderer.scene import BGR, Light, Style, draw_piece

SKIN_TONES: tuple[BGR, ...] = (
    (150, 175, 225), (120, 150, 205), (95, 125, 180), (70, 95, 145), (50, 70, 110), (165, 190, 235),
)
SLEEVES: tuple[BGR, ...] = (
    (120, 60, 30), (40, 40, 40), (200, 200, 200), (40, 40, 140), (60, 110, 60), (150, 130, 110),
    (30, 30, 80), (170, 150, 60),
)

_SHIFT = 4
_ONE = 1 << _SHIFT
#: Mm from the fingertips: knuckles, wrist, and how far the drawn arm reaches.
_KNUCKLES = 80.0
_WRIST = 175.0
#: The height (mm above the board) of a seated player's shoulder: no arm rises above it.
SHOULDER_MM = 450.0
_REACH = 1000.0


@dataclass(frozen=True)
class Hand:
    """A hand over the board (board mm), its arm, colours and what it holds."""

    x_mm: float
    y_mm: float
    height_mm: float = 45.0
    from_deg: float = 90.0
    skin: BGR = SKIN_TONES[1]
    sleeve: BGR | None = SLEEVES[0]
    sleeve_mm: float = 260.0
    holding: Piece | None = None
    size: float = 1.0
    spread: float = 1.0
    right: bool = True
    rise: float = 0.45

    @classmethod
    def random(cls, rng: np.random.Generator, x_mm: float | None = None, y_mm: float | None = None,
               from_deg: float | None = None, **changes: object) -> "Hand":
        """A random person's hand, over a random point of the board unless one is given."""
        hand = cls(
            x_mm=float(rng.uniform(0, 400)) if x_mm is None else x_mm,
            y_mm=float(rng.uniform(0, 400)) if y_mm is None else y_mm,
            height_mm=float(rng.uniform(25, 110)),
            from_deg=float(rng.choice([90.0, -90.0]) + rng.normal(0, 25)) if from_deg is None else from_deg,
            skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
            sleeve=None if rng.random() < 0.25 else SLEEVES[int(rng.integers(len(SLEEVES)))],
            sleeve_mm=float(rng.uniform(200, 330)),
            size=float(rng.uniform(0.85, 1.15)),
            spread=float(rng.uniform(0.6, 1.3)),
            right=bool(rng.random() < 0.85),
            rise=float(rng.uniform(0.3, 0.6)),
        )
        return replace(hand, **changes)  # type: ignore[arg-type]

    def axis(self, s: np.ndarray) -> np.ndarray:
        """Board points (x, y, h) of the arm's axis, ``s`` mm back from the fingertips."""
        a = math.radians(self.from_deg)
        d = np.array([math.cos(a), math.sin(a)])
        s = np.asarray(s, dtype=np.float64)
        rise = 0.12 * np.minimum(s, _WRIST) + self.rise * np.maximum(s - _WRIST, 0.0)
        h = np.minimum(self.height_mm + rise * self.size, max(SHOULDER_MM, self.height_mm))
        return np.stack([self.x_mm + d[0] * s, self.y_mm + d[1] * s, h], 1)

    def half_width_mm(self, s: np.ndarray) -> np.ndarray:
        """Half the arm's width along it: palm, wrist, forearm widening towards the elbow."""
        k = self.size
        knots_s = np.array([0.0, _KNUCKLES * k, 0.8 * _WRIST * k, _WRIST * k, 320.0 * k, 600.0, 2000.0])
        knots_w = np.array([40.0, 44.0, 40.0, 29.0, 36.0, 48.0, 55.0]) * k
        return np.interp(s, knots_s, knots_w)


@dataclass(frozen=True, eq=False)
class HandShapes:
    """Image-space pieces of a drawn hand: the skin and sleeve polygons, the finger strokes
    (polylines with a width in pixels) and the arm's typical width in pixels."""

    skin: list[np.ndarray]
    sleeve: list[np.ndarray]
    strokes: list[tuple[np.ndarray, int]]
    width_px: float


def _band(model: CameraModel, axis: np.ndarray, half_mm: np.ndarray,
          side: np.ndarray | None = None) -> np.ndarray | None:
    """The outline (image px) of a round band of half-widths ``half_mm`` along ``axis`` points.
    With ``side`` (a board-plane unit vector) the band is flat in the board's plane instead."""
    depth = model.depth(axis)
    keep = depth > 150.0
    if keep.sum() < 2:
        return None
    last = int(np.nonzero(keep)[0][-1]) if keep.all() else int(np.argmin(keep)) - 1
    if last < 1:
        return None
    axis, half_mm = axis[: last + 1], half_mm[: last + 1]
    if side is not None:
        off = np.zeros_like(axis)
        off[:, :2] = side[None, :] * half_mm[:, None]
        left, right = model.project(axis + off), model.project(axis - off)
    else:
        uv = model.project(axis)
        scale = model.scale_px_per_mm(axis)
        tangent = np.gradient(uv, axis=0)
        tangent /= np.maximum(np.linalg.norm(tangent, axis=1, keepdims=True), 1e-9)
        normal = np.stack([-tangent[:, 1], tangent[:, 0]], 1)
        left = uv + normal * (half_mm * scale)[:, None]
        right = uv - normal * (half_mm * scale)[:, None]
    poly = np.concatenate([left, right[::-1]])
    return np.clip(poly, -1e5, 1e5)


def hand_shapes(model: CameraModel, hand: Hand, shadow_of: Light | None = None) -> HandShapes:
    """The hand's outline pieces in the image; with ``shadow_of`` those of its shadow on the
    board (every point moved down to the board along the light)."""
    k = hand.size
    a = math.radians(hand.from_deg)
    d = np.array([math.cos(a), math.sin(a)])
    e = np.array([-d[1], d[0]]) * (1 if hand.right else -1)

    def place(p: np.ndarray) -> np.ndarray:
        p = np.atleast_2d(p).astype(np.float64)
        if shadow_of is None:
            return p
        out = np.zeros_like(p)
        out[:, :2] = p[:, :2] + shadow_of.shadow_offsets(p[:, 2])
        return out

    flat = shadow_of is not None
    s_palm = np.linspace(_KNUCKLES * 0.85 * k, _WRIST * k, 8)
    s_arm = np.concatenate([np.linspace(_WRIST * k, hand.sleeve_mm, 6),
                            np.linspace(hand.sleeve_mm, _REACH, 30)])
    cut = 6
    skin: list[np.ndarray] = []
    sleeve: list[np.ndarray] = []
    for s, target in ((s_palm, skin), (s_arm[:cut] if hand.sleeve else s_arm, skin),
                      (s_arm[cut - 1:] if hand.sleeve else np.array([]), sleeve)):
        if len(s) < 2:
            continue
        poly = _band(model, place(hand.axis(s)), hand.half_width_mm(s), e if flat else None)
        if poly is not None:
            target.append(poly)
    # Fingers: knuckle to tip, converging when holding a piece; the thumb from the palm's side.
    strokes: list[tuple[np.ndarray, int]] = []
    pinch = hand.holding is not None
    offsets = np.array([-1.5, -0.5, 0.5, 1.5]) * 17.5 * k
    lengths = np.array([0.88, 1.0, 0.97, 0.78]) * (_KNUCKLES + 8) * k
    knuckle_h = hand.height_mm + 0.12 * _KNUCKLES * k
    for off, length in zip(offsets, lengths):
        spread = (0.55 if pinch else hand.spread) * off
        base = np.array([hand.x_mm, hand.y_mm]) + d * _KNUCKLES * k + e * off
        tip = np.array([hand.x_mm, hand.y_mm]) + d * (_KNUCKLES * k - length) + e * spread
        mid = (base + tip) / 2 + e * 0.0
        pts = np.array([[*base, knuckle_h], [*mid, hand.height_mm + 8 * k], [*tip, hand.height_mm]])
        strokes.append((pts, int(0)))
    thumb_base = np.array([hand.x_mm, hand.y_mm]) + d * 150 * k + e * 34 * k
    thumb_tip = (np.array([hand.x_mm, hand.y_mm]) + d * (25 if pinch else 60) * k
                 + e * (22 if pinch else 62) * k)
    thumb_mid = (thumb_base + thumb_tip) / 2 + e * 12 * k
    strokes.append((np.array([[*thumb_base, knuckle_h], [*thumb_mid, hand.height_mm + 6],
                              [*thumb_tip, hand.height_mm]]), 1))
    out_strokes: list[tuple[np.ndarray, int]] = []
    for pts, is_thumb in strokes:
        pts = place(pts)
        if np.any(model.depth(pts) < 80.0):
            continue
        uv = model.project(pts)
        w = float(model.scale_px_per_mm(pts).mean()) * (10.0 if is_thumb else 7.8) * k * 2
        out_strokes.append((np.clip(uv, -1e5, 1e5), max(2, int(round(w)))))
    width_px = float(model.scale_px_per_mm(place(hand.axis(np.array([_WRIST])))).mean()) * 60 * k
    return HandShapes(skin, sleeve, out_strokes, width_px)


def mask_of(shapes: HandShapes, size: tuple[int, int], scale: float, which: str,
             origin: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """A coverage mask (255 inside) of the skin, the sleeve or both ("all"), ``scale`` times the
    image, its pixel (0, 0) at image point ``origin``."""
    h, w = size
    mask = np.zeros((h, w), np.uint8)
    o = np.asarray(origin)
    polys = shapes.skin if which == "skin" else shapes.sleeve if which == "sleeve" else shapes.skin + shapes.sleeve
    if polys:
        cv2.fillPoly(mask, [np.round((p - o) * scale * _ONE).astype(np.int32) for p in polys], 255,
                     cv2.LINE_AA, _SHIFT)
    if which != "sleeve":
        for uv, width in shapes.strokes:
            pts = np.round((uv - o) * scale * _ONE).astype(np.int32)
            cv2.polylines(mask, [pts], False, 255, max(1, int(round(width * scale))), cv2.LINE_AA, _SHIFT)
    return mask


def in_picture(model: CameraModel, hand: Hand, scale: float = 0.25) -> bool:
    """Whether any of the hand or its arm is in the picture (judged on a mask ``scale`` times
    the image, without drawing it)."""
    cam = model.camera
    size = (max(1, int(cam.height * scale)), max(1, int(cam.width * scale)))
    return bool(mask_of(hand_shapes(model, hand), size, scale, "all").any())


def hand_shadow_mask(model: CameraModel, hand: Hand, light: Light, size: tuple[int, int],
                     scale: float) -> np.ndarray:
    """The hand's shadow on the board, in a mask ``scale`` times the image's ``size``."""
    shapes = hand_shapes(model, hand, shadow_of=light)
    h, w = size
    return mask_of(shapes, (max(1, int(h * scale)), max(1, int(w * scale))), scale, "all")


def _bounds(shapes: HandShapes, w: int, h: int) -> tuple[int, int, int, int] | None:
    pts = [p for p in shapes.skin + shapes.sleeve] + [uv for uv, _ in shapes.strokes]
    if not pts:
        return None
    allp = np.concatenate(pts)
    pad = max(width for _, width in shapes.strokes) if shapes.strokes else 4
    x0, y0 = np.floor(allp.min(axis=0)).astype(int) - pad - 4
    x1, y1 = np.ceil(allp.max(axis=0)).astype(int) + pad + 4
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return None
    return int(x0), int(y0), int(x1), int(y1)


def _solid(size: tuple[int, int], colour: BGR) -> np.ndarray:
    """A picture of ``size`` (h, w) in one colour.  (Filled from one row of it: a colour tuple
    assigned to a whole picture is copied pixel by pixel, many times slower.)"""
    out = np.empty((*size, 3), np.uint8)
    out[:] = np.tile(np.array(colour, np.uint8), (size[1], 1))
    return out


def draw_hand(image: np.ndarray, model: CameraModel, hand: Hand, style: Style,
              light: Light) -> np.ndarray:
    """Draw the hand (and a held piece) into ``image``; returns its coverage mask (0-255, the
    image's size)."""
    shapes = hand_shapes(model, hand)
    h, w = image.shape[:2]
    coverage = np.zeros((h, w), np.uint8)
    if hand.holding is not None and model.depth(np.array([[hand.x_mm, hand.y_mm, hand.height_mm]]))[0] > 80:
        a = math.radians(hand.from_deg)
        # The piece sits under the fingertips, its top against them.
        px = hand.x_mm + math.cos(a) * 8 * hand.size
        py = hand.y_mm + math.sin(a) * 8 * hand.size
        base_h = max(0.0, hand.height_mm - style.man_height_mm * (2 if hand.holding.king else 1) + 3)
        draw_piece(image, model, style, light, px, py, hand.holding, base_h=base_h)
    box = _bounds(shapes, w, h)
    if box is None:
        return coverage
    x0, y0, x1, y1 = box
    size = (y1 - y0, x1 - x0)
    skin = mask_of(shapes, size, 1.0, "skin", (x0, y0))
    sleeve = mask_of(shapes, size, 1.0, "sleeve", (x0, y0)) if hand.sleeve is not None else None
    cover = skin if sleeve is None else cv2.max(skin, sleeve)
    coverage[y0:y1, x0:x1] = cover
    # Colour: skin, the sleeve over it; shaded darker towards the edges (a round arm).
    layer = _solid(size, hand.skin)
    # Fingers and thumb outlined a little darker, so that they read as separate fingers.
    edge = tuple(int(v * 0.72) for v in hand.skin)
    for uv, width in shapes.strokes:
        pts = np.round((uv - (x0, y0)) * _ONE).astype(np.int32)
        cv2.polylines(layer, [pts], False, edge, width, cv2.LINE_AA, _SHIFT)
        inner = width - 2 * max(1, int(round(width * 0.1)))
        if inner > 0:
            cv2.polylines(layer, [pts], False, hand.skin, inner, cv2.LINE_AA, _SHIFT)
    if sleeve is not None:
        # (copyTo under a mask: numpy's boolean-mask assignment is many times slower)
        over = cv2.threshold(sleeve, 127, 255, cv2.THRESH_BINARY)[1]
        layer = cv2.copyTo(_solid(size, hand.sleeve), over, layer)
    q = 4
    small = cv2.resize(cover, (max(1, size[1] // q), max(1, size[0] // q)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(1.0, shapes.width_px * 0.1 / q))
    round_ = cv2.resize(small, (size[1], size[0]), interpolation=cv2.INTER_LINEAR)
    shade = cv2.addWeighted(round_, 0.5, round_, 0.0, 255 * 0.55)  # 0.55 .. 1.05 of the colour
    layer = cv2.multiply(layer, cv2.merge([shade, shade, shade]), scale=1 / 255.0)
    alpha = cv2.GaussianBlur(cover, (0, 0), max(0.8, shapes.width_px * 0.01)).astype(np.float32)
    alpha /= 255.0
    roi = image[y0:y1, x0:x1]
    image[y0:y1, x0:x1] = cv2.blendLinear(layer, roi, alpha, 1.0 - alpha)
    return coverage
