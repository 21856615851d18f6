"""A renderer that draws a Frisian draughts board as a camera would see it (tests, bench, demo).

``render(pieces, camera, style, lighting, hand, seed)`` returns a `Rendered`: a 1280x960 BGR
picture and its truth (where the board's corners are, what stands where, which squares a hand
covers, how to project board points into the picture).  `game_frames` (in `renderer.sequence`,
re-exported here) turns a game into a sequence of such frames with hands making the moves.

Conventions (details in `renderer.camera_model`):

- board coordinates are millimetres, origin at the outer corner of the playing area beside
  square 1 (row 0, column 0), ``x`` along the columns, ``y`` along the rows towards white, ``h``
  up; one square is 40 mm;
- `Rendered.corners` are the playing area's outer corners ordered top-left, top-right,
  bottom-right, bottom-left as seen in the image (the top edge is the upper one of the two
  opposite edges nearer to horizontal); `Rendered.board_corners` are the same corners in board
  order: row 0/col 0 (beside square 1), row 0/col 9 (square 5), row 9/col 9 (beside square 50),
  row 9/col 0 (square 46, white's left); `Rendered.corner_46` is the index in ``corners`` of
  square 46's corner.

The static part of a picture (board, pieces and their shadows for one camera and style) is kept
by a `Renderer` between calls; `render` uses a fresh one, so for many frames keep a `Renderer`.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, Hashable, Mapping, Sequence

import cv2
import numpy as np

from rules.piece import Piece
from rules.squares import column, row, square_at
from renderer.camera_model import (BOARD_CORNERS_MM, CORNER_46, SQUARE_MM, Camera, CameraModel,
                                 order_image_corners)
from renderer.hands import Hand, draw_hand, hand_shadow_mask
from renderer.scene import (SHADE_MM_PER_PX, SHADE_REACH_MM, TEXTURE_PX_PER_MM, Cell, Light, Shade,
                          Aside, Style, board_texture, draw_piece_shadows, draw_pieces, shade_plane,
                          texture_origin_mm)

__all__ = ["Camera", "Style", "Lighting", "Hand", "Shade", "Rendered", "Renderer", "render",
           "OCCLUDED_FRACTION"]

#: A square counts as occluded when a hand covers more than this fraction of it in the image.
OCCLUDED_FRACTION = 0.2
_SHADOW_SCALE = 0.25


@dataclass(frozen=True)
class Lighting:
    """Light and sensor: uneven light, glare, shadows, noise, blur and JPEG.  The default is
    clean (even light, soft shadows, no noise, no blur, no JPEG).

    ``gradient``: the light falls by this fraction across the frame towards ``gradient_deg``
    (image angle, 0 = to the right, 90 = down); ``vignette``: darkening of the corners;
    ``exposure`` and ``white_balance`` (B, G, R gains) scale the colours; ``glare`` (0-1) is a
    specular blob at ``glare_xy`` (fractions of width and height) of radius ``glare_radius``
    (fraction of the width); ``shadow`` is the strength of cast shadows, the light standing at
    ``light_azimuth_deg`` (board plane, degrees from the +x axis towards +y) and
    ``light_elevation_deg``; ``sheen`` (0-1) is how much of that light comes from one lamp
    that glossy piece tops mirror (`renderer.scene.sheen_weight`: the tops brighten towards
    ``lamp_colour`` the nearer they stand to the lamp's mirror point), the lamp standing
    ``lamp_distance_mm`` from the board's centre; ``noise`` is the sensor noise's sigma (grey
    levels); ``blur`` a Gaussian sigma (px); ``motion_blur`` a length (px) at ``motion_deg``;
    ``jpeg_quality`` None for no compression; ``penumbra_mm`` the blur (sigma) of the pieces'
    shadows' edges (`renderer.scene.Light`).
    """

    gradient: float = 0.0
    gradient_deg: float = 0.0
    vignette: float = 0.0
    exposure: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: float = 0.0
    glare_xy: tuple[float, float] = (0.6, 0.4)
    glare_radius: float = 0.07
    shadow: float = 0.3
    light_azimuth_deg: float = 120.0
    light_elevation_deg: float = 65.0
    noise: float = 0.0
    blur: float = 0.0
    motion_blur: float = 0.0
    motion_deg: float = 0.0
    jpeg_quality: int | None = None
    sheen: float = 0.0
    lamp_distance_mm: float = 1500.0
    lamp_colour: tuple[int, int, int] = (255, 255, 255)
    penumbra_mm: float = 2.5

    @classmethod
    def random(cls, rng: np.random.Generator) -> "Lighting":
        """Varied conditions: from a clean room to a dark, blurred, glary phone snapshot.  The
        more the light is one lamp's (the stronger its shadows), the more glossy tops mirror it:
        a mild sheen (``sheen`` = 0.3 x ``shadow``, drawing nothing, so that every room drawn
        before it was added is otherwise the same)."""
        dark = rng.random() < 0.12
        room = cls(
            gradient=float(rng.uniform(0, 0.5)),
            gradient_deg=float(rng.uniform(0, 360)),
            vignette=float(rng.uniform(0, 0.35)),
            exposure=float(rng.uniform(0.35, 0.6) if dark else rng.uniform(0.8, 1.2)),
            white_balance=tuple(float(v) for v in rng.uniform(0.88, 1.12, 3)),  # type: ignore[arg-type]
            glare=float(rng.uniform(0.3, 0.9)) if rng.random() < 0.3 else 0.0,
            glare_xy=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
            glare_radius=float(rng.uniform(0.03, 0.12)),
            shadow=float(rng.uniform(0.1, 0.55)),
            light_azimuth_deg=float(rng.uniform(0, 360)),
            light_elevation_deg=float(rng.uniform(40, 85)),
            noise=float(rng.uniform(0, 3) if not dark else rng.uniform(3, 8)),
            blur=float(rng.uniform(0, 1.3)),
            motion_blur=float(rng.uniform(2, 10)) if rng.random() < 0.1 else 0.0,
            motion_deg=float(rng.uniform(0, 180)),
            jpeg_quality=None if rng.random() < 0.2 else int(rng.integers(55, 95)),
        )
        return replace(room, sheen=round(0.3 * room.shadow, 3))

    def one_lamp(self, rng: np.random.Generator) -> "Lighting":
        """The same room lit by one lamp standing low: nothing fills the shadows, and an arm's
        shadow lies long and dark across the board (found on `altrender`'s dim one-lamp rooms,
        where a forearm's shadow on the edge squares read as black men on empty squares); the
        lamp, 0.5-1 m from the board, warm or white, is mirrored in glossy piece tops: a man
        near its mirror point is far lighter than one of its colour across the board (found
        there too: glossy dark men from as dark as the darkest square to twice as light as the
        dark squares on one board).  (The lamp's sheen, distance and colour are drawn after the
        rest, so that a room drawn before they were added keeps its shadows and light.)"""
        shadow = float(rng.uniform(0.6, 0.85))
        elevation = float(rng.uniform(30, 50))
        azimuth = float(rng.uniform(0, 360))
        warm = float(rng.uniform(0.0, 0.25))
        return replace(self, shadow=shadow, light_elevation_deg=elevation, light_azimuth_deg=azimuth,
                       sheen=float(rng.uniform(0.7, 1.0)),
                       lamp_distance_mm=float(rng.uniform(500, 1000)),
                       lamp_colour=(int(255 * (1 - warm)), int(255 * (1 - 0.4 * warm)), 255))

    def soft_lamps(self, rng: np.random.Generator) -> "Lighting":
        """The same room lit by lamps of some size standing lowish (or by several): the pieces'
        shadows are strong, long and soft, their edges (``penumbra_mm`` 6-12 mm) reaching onto
        the light squares beside each piece, so that a light square's look depends on the
        pieces beside it (found on `altrender`'s selfplay-6 at seed 6262001: the light squares
        the men had left showed the light a quarter up on them, and a white man read half
        black)."""
        return replace(self, shadow=max(self.shadow, float(rng.uniform(0.5, 0.8))),
                       light_elevation_deg=float(rng.uniform(30, 50)),
                       penumbra_mm=float(rng.uniform(6, 12)))

    @property
    def light(self) -> Light:
        return Light(self.light_azimuth_deg, self.light_elevation_deg, self.shadow, self.sheen,
                     self.lamp_distance_mm, self.lamp_colour, self.penumbra_mm)


@dataclass(frozen=True, eq=False)
class Rendered:
    """A rendered picture and its truth (see the module docstring for the conventions).

    ``pieces``: square -> piece on the dark squares; ``light_squares_pieces``: (row, col) ->
    piece for pieces standing on light squares (a wrongly set board); ``occluded``: squares
    (1-50) a hand covers by more than `OCCLUDED_FRACTION`; ``hand``: a hand or arm is over the
    board (border included); ``hand_mask``: its coverage (0-255) or None (of all hands);
    ``hands_in_picture``: for each hand drawn, whether any of it is in the picture; ``jpeg``:
    the picture as compressed, when it was (``image`` is its decoding);
    ``homography``: board (x, y) mm to UNdistorted pixels (exact only without lens distortion;
    use `project`).
    """

    image: np.ndarray
    corners: np.ndarray
    board_corners: np.ndarray
    corner_46: int
    pieces: dict[int, Piece]
    light_squares_pieces: dict[Cell, Piece]
    occluded: tuple[int, ...]
    hand: bool
    camera: Camera
    model: CameraModel
    hand_mask: np.ndarray | None = None
    hands_in_picture: tuple[bool, ...] = ()
    jpeg: bytes | None = None

    @property
    def homography(self) -> np.ndarray:
        return self.model.homography()

    @property
    def camera_matrix(self) -> np.ndarray:
        return self.model.K

    @property
    def dist_coeffs(self) -> np.ndarray:
        return self.model.dist

    def project(self, points: Any) -> np.ndarray:
        """Image pixels (N x 2) of board points (x, y) or (x, y, h) in mm."""
        return self.model.project(np.asarray(points, dtype=np.float64))

    def square_centre(self, square: int, height_mm: float = 0.0) -> np.ndarray:
        """Image position of a square's centre, on the board or ``height_mm`` above it."""
        r, c = row(square), column(square)
        return self.project([[(c + 0.5) * SQUARE_MM, (r + 0.5) * SQUARE_MM, height_mm]])[0]


@dataclass(frozen=True, eq=False)
class _CameraLayer:
    model: CameraModel
    board: np.ndarray          # the empty board, BGR
    cell: np.ndarray           # int16 per pixel: row * 10 + col, -1 off the playing area
    over_board: np.ndarray     # bool per pixel: playing area or border
    cell_area: np.ndarray      # pixels per cell (100)
    plane: tuple[np.ndarray, np.ndarray]  # per pixel of a _SHADOW_SCALE image: its `shade_plane` pixel


class _Lru:
    """A small least-recently-used cache (owned by one `Renderer`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, make: Any) -> Any:
        if key in self.data:
            self.data.move_to_end(key)
            return self.data[key]
        value = make()
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)
        return value


class Renderer:
    """Renders pictures, keeping the static parts (board texture, the empty board for a camera,
    the board with its pieces, that board under the light maps, light maps, a noise pattern)
    between calls."""

    def __init__(self, cache_size: int = 4) -> None:
        self._textures = _Lru(cache_size)
        self._cameras = _Lru(cache_size)
        self._scenes = _Lru(2)
        self._lit = _Lru(1)
        self._lights = _Lru(cache_size)
        self._noise = _Lru(2)

    # -- static layers --------------------------------------------------------------------------

    def _texture(self, style: Style) -> np.ndarray:
        return self._textures.get(style, lambda: board_texture(style))

    def _camera_layer(self, camera: Camera, style: Style) -> _CameraLayer:
        def make() -> _CameraLayer:
            model = CameraModel.of(camera)
            bx, by = model.board_maps()
            o = texture_origin_mm()
            # the width of table round the board's border (and markers) that is folded back
            # into the far table
            reach = style.border_mm if style.markers is None else \
                max(style.border_mm, style.markers.reach * SQUARE_MM)
            band = -o - reach - 10.0
            tx = (_fold(bx, o, band) - o) * TEXTURE_PX_PER_MM
            ty = (_fold(by, o, band) - o) * TEXTURE_PX_PER_MM
            board = cv2.remap(self._texture(style), tx, ty, cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT_101)
            col = np.floor(bx / SQUARE_MM).astype(np.int16)
            rw = np.floor(by / SQUARE_MM).astype(np.int16)
            inside = (col >= 0) & (col < 10) & (rw >= 0) & (rw < 10)
            cell = np.where(inside, rw * 10 + col, -1).astype(np.int16)
            b = style.border_mm
            over = (bx >= -b) & (bx <= 400 + b) & (by >= -b) & (by <= 400 + b)
            area = np.bincount(cell[inside].ravel(), minlength=100)
            small = (int(model.camera.width * _SHADOW_SCALE), int(model.camera.height * _SHADOW_SCALE))
            plane = tuple(cv2.resize((v + SHADE_REACH_MM) / SHADE_MM_PER_PX, small,
                                     interpolation=cv2.INTER_AREA) for v in (bx, by))
            return _CameraLayer(model, board, cell, over, area, plane)  # type: ignore[arg-type]
        return self._cameras.get((camera, style), make)

    def _scene(self, camera: Camera, style: Style, light: Light,
               cells: Mapping[Cell, Piece], aside: tuple[Aside, ...] = ()
               ) -> tuple[_CameraLayer, np.ndarray]:
        layer = self._camera_layer(camera, style)
        key = (camera, style, light, _cells_key(cells), aside)

        def make() -> np.ndarray:
            img = layer.board.copy()
            if (cells or aside) and light.shadow > 0:
                h, w = img.shape[:2]
                mask = np.zeros((int(h * _SHADOW_SCALE), int(w * _SHADOW_SCALE)), np.uint8)
                draw_piece_shadows(mask, layer.model, style, light, cells, _SHADOW_SCALE, aside)
                px_mm = float(layer.model.scale_px_per_mm(np.array([[200.0, 200.0]]))[0])
                mask = cv2.GaussianBlur(mask, (0, 0),
                                        max(0.6, light.penumbra_mm * px_mm * _SHADOW_SCALE))
                _darken(img, mask, light.shadow)
            draw_pieces(img, layer.model, style, light, cells, aside)
            return img
        return layer, self._scenes.get(key, make)

    def _lit_scene(self, camera: Camera, style: Style, lighting: Lighting,
                   cells: Mapping[Cell, Piece], aside: tuple[Aside, ...] = ()
                   ) -> tuple[_CameraLayer, np.ndarray]:
        """The scene under ``lighting``'s light maps with no hand over it (not to be written
        into): between moves the board stays unchanged for many frames, and the light maps'
        full-picture passes need not be made again for each."""
        layer, scene = self._scene(camera, style, lighting.light, cells, aside)
        h, w = scene.shape[:2]
        key = (camera, style, lighting, _cells_key(cells), aside)
        return layer, self._lit.get(key, lambda: _apply_lighting(scene.copy(), lighting,
                                                                *self._light_maps(lighting, w, h)))

    def _light_maps(self, lighting: Lighting, width: int, height: int) -> tuple[np.ndarray | None, Any]:
        def make() -> tuple[np.ndarray | None, Any]:
            q = 8  # the maps are smooth: computed coarse, then scaled up
            sw, sh = width // q, height // q
            yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) * q
            gain = None
            wb = np.asarray(lighting.white_balance, np.float32) * lighting.exposure
            if lighting.gradient or lighting.vignette or np.any(np.abs(wb - 1) > 1e-3):
                a = math.radians(lighting.gradient_deg)
                t = ((xx - width / 2) * math.cos(a) + (yy - height / 2) * math.sin(a))
                t = t / (abs(width / 2 * math.cos(a)) + abs(height / 2 * math.sin(a)) + 1e-6)
                g = 1.0 - lighting.gradient * (t + 1) / 2
                r2 = ((xx - width / 2) ** 2 + (yy - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
                g *= 1.0 - lighting.vignette * r2
                small = np.clip(g[..., None] * wb[None, None, :] * 128.0, 0, 255).astype(np.uint8)
                gain = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
            glare = None
            if lighting.glare > 0:
                r = lighting.glare_radius * width
                cx, cy = lighting.glare_xy[0] * width, lighting.glare_xy[1] * height
                d2 = ((xx - cx) / (1.3 * r)) ** 2 + ((yy - cy) / r) ** 2
                blob = np.exp(-d2 / 2) * 0.75 + np.exp(-d2 * 4) * 0.5
                add = np.clip(blob * 255 * lighting.glare, 0, 255).astype(np.uint8)
                add = cv2.resize(add, (width, height), interpolation=cv2.INTER_CUBIC)
                glare = cv2.merge([add, add, add])
            return gain, glare
        return self._lights.get((lighting, width, height), make)

    def _noise_pattern(self, width: int, height: int) -> np.ndarray:
        """Unit noise (sigma 32) at half resolution with a margin, from which frames take crops."""
        def make() -> np.ndarray:
            rng = np.random.default_rng(12345)
            shape = (height // 2 + 32, width // 2 + 32, 3)
            return (rng.standard_normal(shape, dtype=np.float32) * 32).astype(np.int16)
        return self._noise.get((width, height), make)

    # -- a picture ------------------------------------------------------------------------------

    def render(self, pieces: Mapping[int, Piece] | None = None, camera: Camera = Camera(),
               style: Style = Style(), lighting: Lighting = Lighting(),
               hand: Hand | Sequence[Hand] | None = None,
               seed: int = 0, *, cells: Mapping[Cell, Piece] | None = None,
               shades: Sequence[Shade] = (), aside: Sequence[Aside] = ()) -> Rendered:
        """See `render`."""
        aside = tuple(aside)
        all_cells: dict[Cell, Piece] = {}
        for sq, piece in (pieces or {}).items():
            all_cells[(row(sq), column(sq))] = piece
        for (r, c), piece in (cells or {}).items():
            if not (0 <= r < 10 and 0 <= c < 10):
                raise ValueError(f"cell {(r, c)} is not on the board (rows and columns 0-9)")
            all_cells[(r, c)] = piece
        light = lighting.light
        rng = np.random.default_rng(seed)
        occluded: tuple[int, ...] = ()
        hand_over = False
        hand_mask = None
        hands = () if hand is None else (hand,) if isinstance(hand, Hand) else tuple(hand)
        in_picture: list[bool] = []
        # Without hands the picture is the scene under the light maps, made once for an
        # unchanged board (`_lit_scene`); with them, hands go on the scene before the light.
        if hands:
            layer, scene = self._scene(camera, style, light, all_cells, aside)
        else:
            layer, scene = self._lit_scene(camera, style, lighting, all_cells, aside)
        img = scene.copy()
        h, w = img.shape[:2]
        if hands:
            if light.shadow > 0:
                for one in hands:
                    smask = hand_shadow_mask(layer.model, one, light, (h, w), _SHADOW_SCALE)
                    smask = cv2.GaussianBlur(smask, (0, 0), 3.0)
                    _darken(img, smask, light.shadow * 0.8)
            for one in hands:
                mask = draw_hand(img, layer.model, one, style, light)
                in_picture.append(bool(mask.any()))
                hand_mask = mask if hand_mask is None else cv2.max(hand_mask, mask)
            assert hand_mask is not None
            bx, by, bw, bh = cv2.boundingRect(hand_mask)
            box = (slice(by, by + bh), slice(bx, bx + bw))
            covered = hand_mask[box] > 127
            hand_over = bool(np.any(covered & layer.over_board[box]))
            if hand_over:
                cell = layer.cell[box]
                counts = np.bincount(cell[covered & (cell >= 0)].ravel(), minlength=100)
                frac = counts / np.maximum(layer.cell_area, 1)
                occluded = tuple(sorted(
                    sq for rc in np.nonzero(frac > OCCLUDED_FRACTION)[0]
                    if (sq := square_at(int(rc) // 10, int(rc) % 10)) is not None))
            img = _apply_lighting(img, lighting, *self._light_maps(lighting, w, h), hand_mask=hand_mask)

        for shade in shades:
            # (after the light maps: the glare is the lamp mirrored, and the shade blocks it too)
            mask = cv2.remap(shade_plane(shade), *layer.plane, cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
            _darken(img, mask, shade.strength)
        if lighting.noise > 0:
            pattern = self._noise_pattern(w, h)
            oy, ox = (int(v) for v in rng.integers(0, 32, 2))
            crop = pattern[oy:oy + h // 2, ox:ox + w // 2]
            # Half-resolution noise scaled up: grain about two pixels wide, as after demosaicing.
            noise = cv2.resize(crop, (w, h), interpolation=cv2.INTER_LINEAR)
            img = cv2.addWeighted(img, 1.0, noise, lighting.noise / 32.0 * 1.3, 0.0, dtype=cv2.CV_8U)
        jpeg = None
        if lighting.jpeg_quality is not None:
            ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(lighting.jpeg_quality)])
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            jpeg = buf.tobytes()

        model = layer.model
        board_corners = model.project(BOARD_CORNERS_MM)
        corners, perm = order_image_corners(board_corners)
        corner_46 = int(np.nonzero(perm == CORNER_46)[0][0])
        dark = {square_at(r, c): p for (r, c), p in all_cells.items() if (r + c) % 2 == 1}
        light_sq = {rc: p for rc, p in all_cells.items() if (rc[0] + rc[1]) % 2 == 0}
        return Rendered(image=img, corners=corners, board_corners=board_corners, corner_46=corner_46,
                        pieces=dict(sorted(dark.items())), light_squares_pieces=light_sq,  # type: ignore[arg-type]
                        occluded=occluded, hand=hand_over, camera=camera, model=model,
                        hand_mask=hand_mask, hands_in_picture=tuple(in_picture), jpeg=jpeg)


def _cells_key(cells: Mapping[Cell, Piece]) -> frozenset[tuple[Cell, Piece]]:
    """What a scene's pieces add to its cache key."""
    return frozenset(cells.items())


def _fold(v: np.ndarray, origin: float, width: float) -> np.ndarray:
    """Board coordinates beyond the texture folded (mirrored) back into the outer ``width`` mm
    of its table margin, so that the far table never shows a second board."""
    lo, hi = origin, 400.0 - origin
    out = v.copy()
    below, above = v < lo, v > hi
    if below.any():
        d = np.mod(lo - v[below], 2 * width)
        out[below] = lo + np.where(d > width, 2 * width - d, d)
    if above.any():
        d = np.mod(v[above] - hi, 2 * width)
        out[above] = hi - np.where(d > width, 2 * width - d, d)
    return out


def _darken(img: np.ndarray, mask: np.ndarray, strength: float) -> None:
    """img *= 1 - strength * mask / 255, with ``mask`` at any scale (upsampled to the image);
    only the part of the image under the mask's bounding box is touched."""
    h, w = img.shape[:2]
    mx, my, mw, mh = cv2.boundingRect(mask)
    if mw == 0 or mh == 0:
        return
    sx, sy = w / mask.shape[1], h / mask.shape[0]
    x0, y0 = max(0, int(mx * sx) - 2), max(0, int(my * sy) - 2)
    x1, y1 = min(w, int((mx + mw) * sx) + 2), min(h, int((my + mh) * sy) + 2)
    if mask.shape != (h, w):
        # Resize the whole mask's geometry but only produce the box: an affine warp does both.
        m = np.float32([[1 / sx, 0, (x0 + 0.5) / sx - 0.5], [0, 1 / sy, (y0 + 0.5) / sy - 0.5]])
        mask = cv2.warpAffine(mask, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    else:
        mask = mask[y0:y1, x0:x1]
    factor = cv2.addWeighted(mask, -strength, mask, 0, 255)
    roi = img[y0:y1, x0:x1]
    img[y0:y1, x0:x1] = cv2.multiply(roi, cv2.merge([factor, factor, factor]), scale=1 / 255.0)


def _apply_lighting(img: np.ndarray, lighting: Lighting, gain: np.ndarray | None, glare: Any,
                    hand_mask: np.ndarray | None = None) -> np.ndarray:
    """The light maps on ``img``.  The glare is the lamp mirrored in the glossy board: a hand
    between the camera and the board blocks it (``hand_mask``, 0-255) and, being matte, shows
    none of it; painted over the hand, a bright glare made a hand white on white, invisible to
    any camera, which no real hand is."""
    if gain is not None:
        img = cv2.multiply(img, gain, scale=1 / 128.0)
    if glare is not None:
        if hand_mask is not None:
            keep = cv2.subtract(np.full_like(hand_mask, 255), hand_mask)
            glare = cv2.multiply(glare, cv2.merge([keep, keep, keep]), scale=1 / 255.0)
        img = cv2.add(img, glare)
    if lighting.blur > 0.25:
        img = cv2.GaussianBlur(img, (0, 0), lighting.blur)
    if lighting.motion_blur >= 1.5:
        img = _motion_blur(img, lighting.motion_blur, lighting.motion_deg)
    return img


def _motion_blur(img: np.ndarray, length: float, degrees: float) -> np.ndarray:
    """Average of copies shifted along a line (a cheap straight motion blur)."""
    n = int(min(9, max(3, round(length))))
    a = math.radians(degrees)
    pad = int(math.ceil(length / 2)) + 1
    big = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    h, w = img.shape[:2]
    acc = np.zeros((h, w, 3), np.uint16)
    for t in np.linspace(-0.5, 0.5, n):
        dx, dy = int(round(t * length * math.cos(a))), int(round(t * length * math.sin(a)))
        acc += big[pad + dy:pad + dy + h, pad + dx:pad + dx + w]
    return (acc // n).astype(np.uint8)


def render(pieces: Mapping[int, Piece] | None = None, camera: Camera = Camera(), style: Style = Style(),
           lighting: Lighting = Lighting(), hand: Hand | Sequence[Hand] | None = None, seed: int = 0, *,
           cells: Mapping[Cell, Piece] | None = None, shades: Sequence[Shade] = (),
           aside: Sequence[Aside] = ()) -> Rendered:
    """Draw ``pieces`` (square -> piece) on the board as ``camera`` sees it.

    ``cells`` ((row, col) -> piece) may add pieces on any cell, light squares included (a wrongly
    set board); ``hand`` puts a hand and arm (or several) over the board; ``shades`` lays the
    soft shades of people standing between the lamp and the board over it (`Shade`: they cover
    no square in the truth); ``aside`` stands pieces on the table beside the board (`Aside`:
    board mm and piece; captured men laid down); ``seed`` varies the sensor noise.
    """
    return Renderer().render(pieces, camera, style, lighting, hand, seed, cells=cells, shades=shades,
                             aside=aside)


def __getattr__(name: str) -> Any:
    # game_frames and GameFrame live in renderer.sequence, which imports this module.
    if name in ("game_frames", "GameFrame"):
        from renderer import sequence
        return getattr(sequence, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
