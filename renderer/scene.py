"""What stands in front of the renderer's camera: the board, its colours, and the pieces.

- `Style`: the colours (BGR) and sizes of the board, its border, the table and both sides'
  pieces.
- `board_texture`: a top-down picture of table, border and squares in board millimetres (see
  `renderer.camera_model` for the coordinates), which the renderer maps into the camera image.
- `draw_pieces` / `draw_piece_shadows`: men and kings as 3-D cylinders drawn straight into the
  (distorted) camera image, far to near, and their soft shadows; on the board's cells and, set
  aside (`Aside`), on the table beside it.

Men are cylinders `piece_diameter` squares wide and `man_height` squares high, with a side band
shaded by the light, a bevelled rim and a pressed ring on top; a king is two men stacked, with a
dark seam between them.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

import cv2
import numpy as np

from rules.piece import Color, Piece
from renderer.camera_model import BOARD_MM, SQUARE_MM, CameraModel
from vision.markers import MarkerLayout, marker_bits

BGR = tuple[int, int, int]
Cell = tuple[int, int]

#: The texture covers this much table around the playing area on every side (mm), and its scale.
TABLE_MARGIN_MM = 220.0
TEXTURE_PX_PER_MM = 2.0
#: Points per circle when drawing pieces.
_N = 40
_SHIFT = 4
_ONE = 1 << _SHIFT


def cell_centre_mm(row: int, col: int) -> tuple[float, float]:
    """Board (x, y) in mm of the centre of the cell at (row, col)."""
    return ((col + 0.5) * SQUARE_MM, (row + 0.5) * SQUARE_MM)


@dataclass(frozen=True)
class Style:
    """Colours (BGR) and proportions of board, border, table and pieces.

    ``white_piece``/``black_piece`` are the top colours of the two sides' pieces (not
    necessarily white and black); ``border_print`` draws small motifs on the border (as on the
    real board) when set; ``grain`` values are texture strengths 0-1; ``markers`` lays four
    printed ArUco markers (on white paper) beside the corners (`vision.markers`).
    ``border_lip_mm``: how far the border (its edge line, if any) reaches over the outermost
    squares.  A real board's frame or printed edge is seldom exactly on the squares' outer
    edges: on another renderer's board it lay 2 pixels of 32 inside them, darkening the corner
    square's floor and drawing half an outline on it, and the empty corner 46 read as the man
    that had left it (selfplay-23 at seed 2727000, a false Art. 27).
    """

    light_square: BGR = (150, 200, 228)
    dark_square: BGR = (40, 75, 120)
    border: BGR = (30, 55, 90)
    table: BGR = (95, 130, 160)
    white_piece: BGR = (225, 232, 236)
    black_piece: BGR = (38, 36, 36)
    border_print: BGR | None = None
    edge_line: BGR | None = (25, 40, 60)
    border_mm: float = 30.0
    piece_diameter: float = 0.85
    man_height: float = 0.2
    side_shade: float = 0.82
    piece_relief: float = 0.5
    piece_gloss: float = 0.35
    square_grain: float = 0.35
    table_grain: float = 0.6
    texture_seed: int = 0
    markers: MarkerLayout | None = None
    border_lip_mm: float = 0.0

    @classmethod
    def real_photos(cls) -> "Style":
        """Like the real photos: yellow and dark-blue squares, a lilac border with prints, a
        wooden floor, green and red pieces."""
        return cls(light_square=(95, 205, 240), dark_square=(95, 38, 45), border=(200, 165, 175),
                   table=(60, 120, 185), white_piece=(70, 175, 80), black_piece=(90, 35, 200),
                   border_print=(150, 95, 120), edge_line=None, border_mm=28.0,
                   side_shade=0.78, piece_relief=0.8, square_grain=0.25, table_grain=0.8)

    @classmethod
    def random(cls, rng: np.random.Generator) -> "Style":
        """A varied but plausible board: some palette, jittered, with distinguishable pieces."""
        boards = [
            ((150, 200, 228), (40, 75, 120), (30, 55, 90)),      # light and dark wood
            ((175, 215, 235), (60, 95, 150), (45, 70, 110)),     # maple and walnut
            ((95, 205, 240), (95, 38, 45), (200, 165, 175)),     # the real photos
            ((200, 230, 235), (60, 110, 50), (40, 70, 35)),      # cream and green (tournament)
            ((235, 235, 235), (60, 60, 60), (30, 30, 30)),       # white and grey plastic
            ((190, 215, 230), (40, 40, 150), (35, 35, 110)),     # cream and red
            ((170, 190, 200), (85, 85, 95), (120, 120, 130)),    # grey-ish printed board
        ]
        pieces = [
            ((225, 232, 236), (38, 36, 36)),   # white / black
            ((170, 215, 235), (30, 45, 80)),   # cream / dark brown
            ((70, 175, 80), (90, 35, 200)),    # green / red (the real photos)
            ((40, 40, 190), (35, 35, 35)),     # red / black
            ((60, 210, 230), (140, 60, 30)),   # yellow / blue
            ((235, 235, 240), (50, 60, 160)),  # white / red
        ]
        for _ in range(40):
            light, dark, border = boards[int(rng.integers(len(boards)))]
            wp, bp = pieces[int(rng.integers(len(pieces)))]
            if rng.random() < 0.5:
                wp, bp = bp, wp
            j = lambda c, s=14: tuple(int(np.clip(v + rng.normal(0, s), 0, 255)) for v in c)  # noqa: E731
            light, dark, border, wp, bp = j(light), j(dark), j(border, 20), j(wp), j(bp)
            if _dist(wp, bp) > 90 and min(_dist(wp, dark), _dist(bp, dark)) > 35:
                break
        table = tuple(int(v) for v in np.clip(
            np.array([60, 110, 170]) * rng.uniform(0.5, 1.3) + rng.normal(0, 20, 3), 0, 255))
        border_print = None
        if rng.random() < 0.35:
            border_print = tuple(int(v * 0.7) for v in border)
        edge_line = None if rng.random() < 0.5 else tuple(int(v * 0.6) for v in dark)
        return cls(light_square=light, dark_square=dark, border=border, table=table,  # type: ignore[arg-type]
                   white_piece=wp, black_piece=bp, border_print=border_print,  # type: ignore[arg-type]
                   edge_line=edge_line, border_mm=float(rng.uniform(12, 45)),  # type: ignore[arg-type]
                   piece_diameter=float(rng.uniform(0.8, 0.9)),
                   man_height=float(rng.uniform(0.10, 0.26)),
                   side_shade=float(rng.uniform(0.7, 0.9)), piece_relief=float(rng.uniform(0, 1)),
                   piece_gloss=float(rng.uniform(0, 0.6)), square_grain=float(rng.uniform(0, 0.6)),
                   table_grain=float(rng.uniform(0, 1)),
                   texture_seed=(seed := int(rng.integers(1 << 30))), border_lip_mm=_lip(seed))

    def like_the_squares(self, rng: np.random.Generator) -> "Style":
        """The same board with one side's pieces the colour of its dark squares (the side
        nearer it in colour; a few levels off, as a real set's dye): dark men on dark wood, tellable
        from the empty squares by their outline, side and shadow alone.  Found on `altrender`'s
        sets "like the squares": black men the grey of the dark squares, whose colours were never
        told apart, so the start position was never taken (its lidraughts-10 at seed 43003).  The
        other side must stay 60 levels off the dark squares (else the board is unchanged)."""
        return self._dyed_like(self.dark_square, rng)

    def like_the_light_squares(self, rng: np.random.Generator) -> "Style":
        """The same board with one side's pieces the colour of its light squares (the side
        nearer it in colour; a few levels off): ivory men on a light-grey board.  Found on
        `altrender`'s low-contrast grey board: beside men the light squares' colour, the light
        squares show no contrast with anything over them, and the start position's white men
        were taken for a hand (its selfplay-4 at seed 5151010, nothing recorded).  The other
        side must stay 60 levels off the light squares (else the board is unchanged)."""
        return self._dyed_like(self.light_square, rng)

    def _dyed_like(self, colour: BGR, rng: np.random.Generator) -> "Style":
        """The side nearer ``colour`` dyed it, a few levels off, unless the other side lies
        within 60 levels of it too (then unchanged)."""
        near, far = sorted(("white_piece", "black_piece"),
                           key=lambda side: _dist(getattr(self, side), colour))
        if _dist(getattr(self, far), colour) <= 60:
            return self
        dyed = tuple(int(np.clip(v + rng.normal(0, 6), 0, 255)) for v in colour)
        return replace(self, **{near: dyed})

    def piece_colour(self, color: Color) -> BGR:
        return self.white_piece if color is Color.WHITE else self.black_piece

    @property
    def radius_mm(self) -> float:
        return self.piece_diameter * SQUARE_MM / 2.0

    @property
    def man_height_mm(self) -> float:
        return self.man_height * SQUARE_MM


def _dist(a: BGR, b: BGR) -> float:
    return float(np.linalg.norm(np.subtract(a, b, dtype=float)))


# -- the board texture --------------------------------------------------------------------------


def texture_origin_mm() -> float:
    """Board coordinate (x and y, mm) of the texture's pixel (0, 0)."""
    return -TABLE_MARGIN_MM


def _to_tex(mm: float) -> int:
    return int(round((mm + TABLE_MARGIN_MM) * TEXTURE_PX_PER_MM))


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Smooth noise in [-1, 1] of ``shape``, from a ``cells`` grid of random values."""
    small = rng.uniform(-1, 1, cells).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _lip(texture_seed: int) -> float:
    """A random board's border lip (`Style.border_lip_mm`): none on half the boards, else 0.5
    to 2.5 mm.  Drawn from the style's texture seed, so that the random draws of the style (and
    of everything drawn after it) stay as they were."""
    lip_rng = np.random.default_rng([texture_seed, 0x11B])
    return 0.0 if lip_rng.random() < 0.5 else float(lip_rng.uniform(0.5, 2.5))


def board_texture(style: Style) -> np.ndarray:
    """The board seen from straight above, with the table around it (BGR uint8, square image,
    `TEXTURE_PX_PER_MM` pixels per mm, pixel (0, 0) at board (-margin, -margin) mm)."""
    rng = np.random.default_rng(style.texture_seed)
    size = _to_tex(BOARD_MM + TABLE_MARGIN_MM)
    # Table: wood grain (stretched noise stripes) or plain, slightly mottled; made at a quarter
    # of the resolution (it is only background) and scaled up.
    q = 4
    small = (size // q, size // q)
    along = _smooth_noise(rng, small, (6, 3))
    stripes = np.sin(np.linspace(0, 60, small[0], dtype=np.float32)[:, None] + 7 * along)
    fine = _smooth_noise(rng, small, (200, 12))
    grain = (0.10 * stripes + 0.06 * fine) * style.table_grain + 0.04 * along
    gain = cv2.resize(np.clip(128 * (1 + grain), 0, 255).astype(np.uint8), (size, size),
                      interpolation=cv2.INTER_LINEAR)
    tex = np.empty((size, size, 3), np.uint8)
    tex[:] = style.table
    tex = cv2.multiply(tex, cv2.merge([gain, gain, gain]), scale=1 / 128.0)
    # Border with optional prints.
    b0, b1 = _to_tex(-style.border_mm), _to_tex(BOARD_MM + style.border_mm)
    cv2.rectangle(tex, (b0, b0), (b1 - 1, b1 - 1), style.border, -1)
    if style.border_print is not None and style.border_mm > 12:
        _border_prints(tex, style, rng)
    # Squares.
    for r in range(10):
        for c in range(10):
            colour = style.dark_square if (r + c) % 2 else style.light_square
            var = rng.normal(0, 0.03) * (0.5 + style.square_grain) + rng.normal(0, 0.008, 3)
            colour = tuple(int(np.clip(v * (1 + d), 0, 255)) for v, d in zip(colour, var))
            x0, y0 = _to_tex(c * SQUARE_MM), _to_tex(r * SQUARE_MM)
            x1, y1 = _to_tex((c + 1) * SQUARE_MM), _to_tex((r + 1) * SQUARE_MM)
            cv2.rectangle(tex, (x0, y0), (x1 - 1, y1 - 1), colour, -1)
    p0, p1 = _to_tex(0.0), _to_tex(BOARD_MM)
    if style.square_grain > 0:
        n = p1 - p0
        small_n = (n // 2, n // 2)
        noise = _smooth_noise(rng, small_n, (120, 8)) * 0.5 + _smooth_noise(rng, small_n, (10, 10)) * 0.5
        g = np.clip(128 * (1 + 0.12 * style.square_grain * noise), 0, 255).astype(np.uint8)
        g = cv2.resize(g, (n, n), interpolation=cv2.INTER_LINEAR)
        tex[p0:p1, p0:p1] = cv2.multiply(tex[p0:p1, p0:p1], cv2.merge([g, g, g]), scale=1 / 128.0)
    lip = int(round(style.border_lip_mm * TEXTURE_PX_PER_MM))
    if lip > 0:
        edge = style.border if style.edge_line is None else style.edge_line
        for x0, y0, x1, y1 in ((p0, p0, p1, p0 + lip), (p0, p1 - lip, p1, p1),
                               (p0, p0, p0 + lip, p1), (p1 - lip, p0, p1, p1)):
            cv2.rectangle(tex, (x0, y0), (x1 - 1, y1 - 1), edge, -1)
    if style.edge_line is not None:
        cv2.rectangle(tex, (p0 - 2 + lip, p0 - 2 + lip), (p1 + 1 - lip, p1 + 1 - lip),
                      style.edge_line, 3)
    if style.markers is not None:
        _draw_markers(tex, style.markers)
    return tex


_PAPER: BGR = (228, 234, 236)
_PRINT_INK: BGR = (32, 30, 30)


def _draw_markers(tex: np.ndarray, layout: MarkerLayout, subsamples: int = 4) -> None:
    """The four markers of ``layout``, each on white paper, into the texture: every texture
    pixel gets the share of paper and ink it covers (``subsamples``^2 points per pixel), so the
    printed edges land exactly where the layout puts them."""
    sub = (np.arange(subsamples) + 0.5) / subsamples - 0.5
    o = texture_origin_mm()
    for marker_id in range(4):
        bits = marker_bits(layout, marker_id)
        n = bits.shape[0]
        module = layout.side * SQUARE_MM / n
        cx, cy = (v * SQUARE_MM for v in layout.centres[marker_id])
        half = (layout.side / 2 + layout.paper) * SQUARE_MM
        lo_u = int(np.floor((cx - half - o) * TEXTURE_PX_PER_MM)) - 1
        hi_u = int(np.ceil((cx + half - o) * TEXTURE_PX_PER_MM)) + 1
        lo_v = int(np.floor((cy - half - o) * TEXTURE_PX_PER_MM)) - 1
        hi_v = int(np.ceil((cy + half - o) * TEXTURE_PX_PER_MM)) + 1
        if lo_u < 0 or lo_v < 0 or hi_u >= tex.shape[1] or hi_v >= tex.shape[0]:
            raise ValueError(f"marker {marker_id} lies beyond the rendered table")

        def modules(lo: int, hi: int, centre: float) -> np.ndarray:
            # texture pixel u's centre is board mm u / px_per_mm + origin
            mm = (np.arange(lo, hi + 1)[:, None] + sub[None, :]).ravel() / TEXTURE_PX_PER_MM + o
            return (mm - centre) / module + n / 2  # 0..n across the marker

        qx, qy = modules(lo_u, hi_u, cx), modules(lo_v, hi_v, cy)
        margin = layout.paper * SQUARE_MM / module
        paper = ((qy >= -margin) & (qy < n + margin))[:, None] & \
            ((qx >= -margin) & (qx < n + margin))[None, :]
        inside = ((qy >= 0) & (qy < n))[:, None] & ((qx >= 0) & (qx < n))[None, :]
        iy = np.clip(np.floor(qy).astype(int), 0, n - 1)
        ix = np.clip(np.floor(qx).astype(int), 0, n - 1)
        ink = inside & (bits[iy[:, None], ix[None, :]] == 0)
        h, w = hi_v - lo_v + 1, hi_u - lo_u + 1

        def share(mask: np.ndarray) -> np.ndarray:
            return mask.reshape(h, subsamples, w, subsamples).mean(axis=(1, 3))[..., None]

        a_ink, a_paper = share(ink), share(paper & ~ink)
        roi = tex[lo_v:hi_v + 1, lo_u:hi_u + 1].astype(np.float32)
        out = (roi * (1 - a_ink - a_paper) + np.float32(_PRINT_INK) * a_ink
               + np.float32(_PAPER) * a_paper)
        tex[lo_v:hi_v + 1, lo_u:hi_u + 1] = np.clip(np.round(out), 0, 255).astype(np.uint8)


def _border_prints(tex: np.ndarray, style: Style, rng: np.random.Generator) -> None:
    """Small clover-like prints along the border (the real board has cartoon prints)."""
    mid = -style.border_mm / 2
    step = max(style.border_mm * 1.1, 22.0)
    s = style.border_mm * 0.16 * TEXTURE_PX_PER_MM
    col = style.border_print
    positions = []
    t = -style.border_mm / 2
    while t < BOARD_MM + style.border_mm / 2:
        positions += [(t, mid), (t, BOARD_MM - mid), (mid, t), (BOARD_MM - mid, t)]
        t += step
    for x, y in positions:
        cx, cy = _to_tex(x), _to_tex(y)
        a = rng.uniform(0, 2 * math.pi)
        for k in range(3):
            ang = a + k * 2 * math.pi / 3
            cv2.circle(tex, (int(cx + s * math.cos(ang)), int(cy + s * math.sin(ang))),
                       max(1, int(s * 0.8)), col, -1, cv2.LINE_AA)
        cv2.line(tex, (cx, cy), (int(cx - 2 * s * math.cos(a)), int(cy - 2 * s * math.sin(a))),
                 col, max(1, int(s * 0.35)), cv2.LINE_AA)


# -- pieces -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Light:
    """Where the light comes from (for shading and shadows) and how strong the shadows are.

    ``sheen`` (0-1) is how much of the light comes from one lamp small enough to be mirrored in
    glossy piece tops (0: a room lit evenly, no mirror image of any lamp; 1: one bare lamp and
    nothing else); the lamp stands ``distance_mm`` from the board's centre in the light's
    direction and shines ``colour`` (BGR).  Only the sheen uses the lamp's distance: shading and
    shadows take the light as coming from far away.  ``penumbra_mm`` is the blur (sigma) of the
    pieces' shadows' edges: a lamp of some size, or several, throws soft shadows that reach
    onto the light squares beside a piece.
    """

    azimuth_deg: float = 120.0
    elevation_deg: float = 65.0
    shadow: float = 0.3
    sheen: float = 0.0
    distance_mm: float = 1500.0
    colour: BGR = (255, 255, 255)
    penumbra_mm: float = 2.5

    def vector(self) -> np.ndarray:
        """Unit vector in board coordinates (x, y, h) pointing towards the light."""
        az, el = math.radians(self.azimuth_deg), math.radians(self.elevation_deg)
        return np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el), math.sin(el)])

    def lamp_mm(self) -> np.ndarray:
        """Board (x, y, h) of the lamp: ``distance_mm`` from the board's centre towards it."""
        return np.array([BOARD_MM / 2, BOARD_MM / 2, 0.0]) + self.distance_mm * self.vector()

    def shadow_offsets(self, heights_mm: np.ndarray) -> np.ndarray:
        """Board (dx, dy) (N x 2) of the shadows of points ``heights_mm`` (N) above the board."""
        v = self.vector()
        k = np.asarray(heights_mm, dtype=np.float64) / max(math.tan(math.radians(self.elevation_deg)), 0.2)
        return (-v[:2] / max(np.linalg.norm(v[:2]), 1e-9))[None, :] * k[:, None]


#: The sharpness of the lamp's mirror image in a glossy flat top: the power of the cosine between
#: the top's normal and the half-way vector (lamp and camera).  A lamp with a shade, mirrored in
#: a slightly uneven lacquer, gives a broad lobe: at a camera 0.7 m above the board, half its
#: strength three or four squares from the mirror point.
SHEEN_EXPONENT = 40.0
#: The largest share of the lamp's colour in a top face (a glossy black man right at the mirror
#: point of a bare lamp is nearly the lamp's colour, never quite).
SHEEN_MAX = 0.85


def sheen_weight(model: CameraModel, light: Light, x: np.ndarray | float, y: np.ndarray | float,
                 h: np.ndarray | float = 0.0) -> np.ndarray:
    """How much of the lamp a flat, fully glossy top at board (x, y) mm, ``h`` mm above the
    board, mirrors towards the camera (0-1.2, before the piece's ``piece_gloss``): Blinn-Phong on
    the half-way vector between the lamp (`Light.lamp_mm`) and the camera's centre, times
    `Light.sheen`, times a Fresnel-like rise for light falling in at a grazing angle (a low lamp
    is mirrored more strongly).  It peaks at the lamp's mirror point (`mirror_point`)."""
    x, y, h = np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float), np.asarray(h, float))
    if light.sheen <= 0:
        return np.zeros(x.shape)
    p = np.stack([x, y, h], -1)
    eye = np.array([model.C[0], model.C[1], -model.C[2]])
    to_lamp = light.lamp_mm() - p
    to_lamp /= np.linalg.norm(to_lamp, axis=-1, keepdims=True)
    to_eye = eye - p
    to_eye /= np.linalg.norm(to_eye, axis=-1, keepdims=True)
    half = to_lamp + to_eye
    half /= np.maximum(np.linalg.norm(half, axis=-1, keepdims=True), 1e-9)
    lobe = np.clip(half[..., 2], 0.0, 1.0) ** SHEEN_EXPONENT
    incidence = np.clip(np.sum(to_lamp * half, axis=-1), 0.0, 1.0)  # cos of the angle of incidence
    fresnel = 0.7 + 0.5 * (1.0 - incidence)
    return light.sheen * lobe * fresnel


def mirror_point(model: CameraModel, light: Light, h: float = 0.0) -> np.ndarray:
    """Board (x, y) mm where a flat top ``h`` mm above the board mirrors the lamp into the
    camera: where the line from the camera to the lamp's mirror image (below the plane at
    height ``h``) crosses that plane.  It may lie off the board; the sheen is a lobe around it."""
    eye = np.array([model.C[0], model.C[1], -model.C[2]])
    lamp = light.lamp_mm()
    a, b = eye[2] - h, lamp[2] - h
    return eye[:2] + (lamp[:2] - eye[:2]) * a / max(a + b, 1e-9)


def _unit_circle() -> tuple[np.ndarray, np.ndarray]:
    a = np.linspace(0, 2 * math.pi, _N, endpoint=False)
    return np.cos(a), np.sin(a)


def _rings(x: float | np.ndarray, y: float | np.ndarray, radii: np.ndarray,
           heights: np.ndarray) -> np.ndarray:
    """Board points of circles: ``(..., len(radii), _N, 3)`` for centres (x, y) (scalars or
    arrays of shape S), one circle per (radius, height) pair."""
    cos, sin = _unit_circle()
    x = np.asarray(x, dtype=np.float64)[..., None, None]
    y = np.asarray(y, dtype=np.float64)[..., None, None]
    r = np.asarray(radii, dtype=np.float64)[:, None]
    hh = np.broadcast_to(np.asarray(heights, dtype=np.float64)[:, None], (len(radii), _N))
    px = x + r * cos
    py = y + r * sin
    return np.stack(np.broadcast_arrays(px, py, np.broadcast_to(hh, px.shape)), -1)


def _fix(p: np.ndarray) -> np.ndarray:
    return np.round(p * _ONE).astype(np.int32)


def _shade(colour: BGR, k: float) -> tuple[int, int, int]:
    return tuple(int(min(255, max(0, v * k))) for v in colour)  # type: ignore[return-value]


#: A piece standing off the board, on the table beside it: board (x, y) in mm and the piece
#: (a captured man laid down by the player who took it).
Aside = tuple[float, float, Piece]


def placements(cells: Mapping[Cell, Piece], aside: tuple[Aside, ...] = ()) -> list[Aside]:
    """Every piece of ``cells`` ((row, col) -> piece) at its cell's centre, and those ``aside``
    on the table, as (x mm, y mm, piece)."""
    return [(*cell_centre_mm(*rc), piece) for rc, piece in cells.items()] + list(aside)


def _far_to_near(model: CameraModel, placed: list[Aside]) -> list[Aside]:
    """Pieces placed at (x mm, y mm) sorted far to near: by horizontal distance from the
    camera's foot point."""
    foot = (float(model.C[0]), float(model.C[1]))
    return sorted(placed, key=lambda p: -math.hypot(p[0] - foot[0], p[1] - foot[1]))


def draw_piece(image: np.ndarray, model: CameraModel, style: Style, light: Light,
               x: float, y: float, piece: Piece, *, base_h: float = 0.0,
               scale: float = 1.0) -> None:
    """One man (or king: two men stacked) standing at board (x, y) mm on height ``base_h``."""
    for draw, args in _piece_drawing(model, style, light, x, y, piece, base_h, scale):
        draw(image, *args)


@functools.lru_cache(maxsize=512)
def _piece_drawing(model: CameraModel, style: Style, light: Light, x: float, y: float, piece: Piece,
                   base_h: float, scale: float) -> tuple[tuple[Callable[..., Any], tuple[Any, ...]], ...]:
    """The OpenCV calls (function, arguments after the image) that draw one piece (`draw_piece`).
    Kept between calls: the board's scene is redrawn whenever a piece moves, with every other
    piece where it was, and working out a piece's outlines takes far longer than drawing them."""
    ops: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    r = style.radius_mm * scale
    hm = style.man_height_mm * scale
    n = 2 if piece.king else 1
    top_h = base_h + n * hm
    colour = style.piece_colour(piece.color)
    lv = light.vector()
    cam = np.array([model.C[0], model.C[1], -model.C[2]])

    radii = np.array([r, r, r * 0.93, r * 0.70, r * 0.62, r])
    heights = np.array([base_h, top_h, top_h, top_h, top_h, base_h + hm])
    n_levels = 6 if n == 2 else 5
    pts3 = _rings(x, y, radii[:n_levels], heights[:n_levels])
    uv = model.project(pts3.reshape(-1, 3)).reshape(n_levels, _N, 2)
    base, top = uv[0], uv[1]

    cos, sin = _unit_circle()
    half = math.pi / _N
    normals = np.stack([cos * math.cos(half) - sin * math.sin(half),
                        sin * math.cos(half) + cos * math.sin(half), np.zeros(_N)], 1)
    mids = (pts3[0] + np.roll(pts3[0], -1, 0)) / 2
    facing = np.einsum("ij,ij->i", normals, cam[None, :] - mids) > 0
    lambert = np.clip(normals @ lv, 0, 1)
    ambient, diffuse = 0.55, 0.45

    hull = cv2.convexHull(_fix(np.concatenate([base, top])))
    ops.append((cv2.fillConvexPoly, (hull, _shade(colour, style.side_shade * ambient), cv2.LINE_AA, _SHIFT)))
    # Side band, in three shades.
    if facing.any():
        levels_k = np.digitize(lambert, [0.33, 0.66])
        for k in range(3):
            sel = np.nonzero(facing & (levels_k == k))[0]
            if len(sel) == 0:
                continue
            quads = [_fix(np.array([base[i], base[(i + 1) % _N], top[(i + 1) % _N], top[i]])) for i in sel]
            shade = style.side_shade * (ambient + diffuse * (k + 0.5) / 3)
            ops.append((cv2.fillPoly, (quads, _shade(colour, shade), cv2.LINE_AA, _SHIFT)))
        if n == 2:
            seam = uv[5]
            dark = _shade(colour, style.side_shade * 0.35)
            runs = _runs(facing)
            width = max(1, int(round(float(model.scale_px_per_mm(np.array([[x, y, top_h]]))[0]) * r * 0.06)))
            for run in runs:
                pl = _fix(seam[run + [(run[-1] + 1) % _N]])
                ops.append((cv2.polylines, ([pl], False, dark, width, cv2.LINE_AA, _SHIFT)))
    # Top face, with a bevelled rim and a pressed ring; a glossy top mirrors the lamp, the more
    # the nearer it stands to the lamp's mirror point (`sheen_weight`).
    top_shade = ambient + diffuse * max(lv[2], 0)
    sheen = 0.0
    if style.piece_gloss > 0 and light.sheen > 0:
        sheen = min(SHEEN_MAX, 1.2 * style.piece_gloss * float(sheen_weight(model, light, x, y, top_h)))

    def lit(k: float) -> tuple[int, int, int]:
        c = _shade(colour, k)
        if sheen <= 0:
            return c
        return tuple(int(min(255, v + (w - v) * sheen)) for v, w in zip(c, light.colour))  # type: ignore[return-value]

    ops.append((cv2.fillConvexPoly, (_fix(top), lit(top_shade * 0.92), cv2.LINE_AA, _SHIFT)))
    ops.append((cv2.fillConvexPoly, (_fix(uv[2]), lit(top_shade), cv2.LINE_AA, _SHIFT)))
    if style.piece_relief > 0:
        k = 1 - 0.25 * style.piece_relief
        ops.append((cv2.polylines, ([_fix(uv[3])], True, lit(top_shade * k), 1, cv2.LINE_AA, _SHIFT)))
        ops.append((cv2.polylines, ([_fix(uv[4])], True, lit(min(1.3, top_shade * (2 - k))), 1,
                                    cv2.LINE_AA, _SHIFT)))
    if style.piece_gloss > 0:
        # A highlight on the rim on the side facing the light.
        if (lambert > 0.75).any():
            hi = tuple(int(min(255, v + 255 * 0.5 * style.piece_gloss * (1 - v / 300))) for v in colour)
            for run in _runs(lambert > 0.75):
                ops.append((cv2.polylines, ([_fix(top[run])], False, hi, 1, cv2.LINE_AA, _SHIFT)))
    return tuple(ops)


def _runs(mask: np.ndarray) -> list[list[int]]:
    """Index runs of True in a circular boolean array."""
    n = len(mask)
    if mask.all():
        return [list(range(n))]
    start = int(np.argmin(mask))  # a False position: runs never wrap past it
    runs: list[list[int]] = []
    cur: list[int] = []
    for k in range(1, n + 1):
        i = (start + k) % n
        if mask[i]:
            cur.append(i)
        elif cur:
            runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs


def draw_pieces(image: np.ndarray, model: CameraModel, style: Style, light: Light,
                cells: Mapping[Cell, Piece], aside: tuple[Aside, ...] = ()) -> None:
    """Every piece of ``cells`` ((row, col) -> piece) and those ``aside`` on the table, far to
    near."""
    for x, y, piece in _far_to_near(model, placements(cells, aside)):
        draw_piece(image, model, style, light, x, y, piece)


def draw_piece_shadows(mask: np.ndarray, model: CameraModel, style: Style, light: Light,
                       cells: Mapping[Cell, Piece], scale: float,
                       aside: tuple[Aside, ...] = ()) -> None:
    """Shadow footprints (value 255) of the pieces (on ``cells`` and ``aside``) into a
    single-channel mask that is ``scale`` times the image's size: a contact ring and the cast
    shadow of the top."""
    placed = placements(cells, aside)
    if not placed:
        return
    r = style.radius_mm
    xs = np.array([p[0] for p in placed])
    ys = np.array([p[1] for p in placed])
    offs = light.shadow_offsets(np.array([style.man_height_mm * (2 if p[2].king else 1) for p in placed]))
    base = _rings(xs, ys, np.array([r * 1.03]), np.array([0.0]))[:, 0]
    cast = _rings(xs + offs[:, 0], ys + offs[:, 1], np.array([r]), np.array([0.0]))[:, 0]
    uv = model.project(np.concatenate([base, cast], 1).reshape(-1, 3)).reshape(len(placed), 2 * _N, 2)
    for poly in uv:
        hull = cv2.convexHull(_fix(poly * scale))
        cv2.fillConvexPoly(mask, hull, 255, cv2.LINE_AA, _SHIFT)


# -- a passing spectator's shade ----------------------------------------------------------------


@dataclass(frozen=True)
class Shade:
    """The shade a person standing between the lamp and the board casts on it: their shoulders
    and head as the lamp throws them on the table, blurred soft (the person is far from the
    board, the lamp not a point).

    ``(x_mm, y_mm)``: board point where the shade's shoulder line crosses its axis; ``away_deg``:
    the axis's direction (board plane, degrees from +x towards +y), from the lamp's side
    (where the body's shade comes from) towards the head's; ``width_mm``: the shoulders' shade
    across; ``softness_mm``: the blur (sigma) of its edge; ``strength``: the share of the light
    it takes (0-1; the board under its core is ``1 - strength`` as light).
    """

    x_mm: float
    y_mm: float
    away_deg: float
    width_mm: float = 380.0
    softness_mm: float = 35.0
    strength: float = 0.35


#: The board-plane raster the shade is drawn on: mm per pixel, and how far it reaches beyond the
#: playing area on every side (beyond it the raster's edge is repeated).
SHADE_MM_PER_PX = 8.0
SHADE_REACH_MM = 700.0


def shade_plane(shade: Shade) -> np.ndarray:
    """The shade's darkness (uint8, 255 = its full strength) on the board's plane:
    `SHADE_MM_PER_PX` mm per pixel, pixel (0, 0) at board (-`SHADE_REACH_MM`, -`SHADE_REACH_MM`).
    A body's shade (from far beyond the raster on the lamp's side) with rounded shoulders, a
    neck and a head, blurred by ``softness_mm``."""
    n = int(round((BOARD_MM + 2 * SHADE_REACH_MM) / SHADE_MM_PER_PX))
    plane = np.zeros((n, n), np.uint8)
    a = math.radians(shade.away_deg)
    d = np.array([math.cos(a), math.sin(a)])      # towards the head
    p = np.array([-d[1], d[0]])                    # across the shoulders
    w = shade.width_mm
    origin = np.array([shade.x_mm, shade.y_mm])

    def px(u: float, v: float) -> np.ndarray:
        """Raster position (fixed point) of the point u mm along the axis, v mm across."""
        q = (origin + u * d + v * p + SHADE_REACH_MM) / SHADE_MM_PER_PX
        return np.round(q * _ONE).astype(np.int32)

    far = 2.0 * (BOARD_MM + SHADE_REACH_MM)
    body = np.array([px(-far, -w / 2), px(-0.15 * w, -w / 2), px(-0.15 * w, w / 2), px(-far, w / 2)])
    neck = np.array([px(-0.2 * w, -0.13 * w), px(0.2 * w, -0.13 * w), px(0.2 * w, 0.13 * w),
                     px(-0.2 * w, 0.13 * w)])
    cv2.fillPoly(plane, [body, neck], 255, cv2.LINE_AA, _SHIFT)
    scale = _ONE / SHADE_MM_PER_PX
    for u, along, across in ((-0.15 * w, 0.16 * w, 0.5 * w), (0.34 * w, 0.21 * w, 0.16 * w)):
        centre = px(u, 0.0)
        cv2.ellipse(plane, (int(centre[0]), int(centre[1])),
                    (int(round(along * scale)), int(round(across * scale))),
                    shade.away_deg, 0, 360, 255, -1, cv2.LINE_AA, _SHIFT)
    sigma = max(0.5, shade.softness_mm / SHADE_MM_PER_PX)
    return cv2.GaussianBlur(plane, (0, 0), sigma)
