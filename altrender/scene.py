"""The world: a 10x10 board on a table, two sets of pieces, and the room's light (millimetres).

The board's playing area is ``10 * square`` wide: x along columns from White's left, y from
White's back row (row 9, squares 46-50, y near 0) towards Black's (row 0, squares 1-5), z up (a
right-handed frame: White sits on the side of negative y); its border lies outside that.
Textures are stored by (row coordinate, x): the texture's row v is at y = size - v.  Colours are given in sRGB 0-255 and kept in linear light (0-1) for shading.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from rules.squares import column, row

#: Board styles: (dark squares, light squares) in sRGB, and how often the squares are low contrast.
BOARD_STYLES = {
    "brown/cream": ((112, 72, 44), (226, 204, 160)),
    "green/buff": ((52, 96, 64), (222, 208, 168)),
    "blue/yellow": ((48, 70, 120), (228, 210, 120)),
    "grey/white": ((110, 110, 112), (232, 232, 228)),
    "walnut/maple": ((92, 60, 38), (214, 180, 130)),
    "low-contrast tan": ((150, 112, 76), (200, 168, 124)),
    "low-contrast grey": ((128, 124, 118), (176, 172, 164)),
    "red/ivory": ((128, 42, 36), (232, 222, 196)),
}

#: Piece sets: (light set, dark set) in sRGB.
PIECE_SETS = {
    "ivory/black": ((236, 226, 200), (34, 30, 28)),
    "white/red": ((240, 238, 232), (150, 30, 30)),
    "cream/dark brown": ((222, 200, 156), (70, 44, 28)),
    "natural/walnut": ((206, 170, 118), (84, 56, 36)),
    "yellow/black": ((224, 190, 70), (30, 30, 34)),
    "white/blue": ((236, 236, 240), (40, 60, 130)),
    "beige/brown (low contrast)": ((190, 160, 120), (110, 76, 50)),
}

TABLE_KINDS = ("cloth", "wood", "laminate", "check cloth", "striped cloth")


def linear(srgb) -> np.ndarray:
    """sRGB 0-255 -> linear 0-1 (a 2.2 power law is close enough here)."""
    return (np.asarray(srgb, dtype=np.float32) / 255.0) ** 2.2


def _noise(rng, shape, cells, smooth=cv2.INTER_CUBIC) -> np.ndarray:
    """Smooth value noise in about -1..1 over ``shape`` (h, w) with ``cells`` (ch, cw) knots."""
    small = rng.standard_normal((max(2, cells[0]), max(2, cells[1]))).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=smooth)


@dataclass
class Light:
    """A directional light (``position`` None: ``direction`` towards it) or a point light at
    ``position``; ``size`` its angular radius in radians (shadow softness)."""

    intensity: float
    colour: np.ndarray
    direction: np.ndarray | None = None
    position: np.ndarray | None = None
    size: float = 0.05

    def towards(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Unit vectors from ``points`` (..., 3) towards the light, and the irradiance falloff."""
        if self.position is None:
            d = np.broadcast_to(self.direction, points.shape).astype(np.float32)
            return d, np.ones(points.shape[:-1], np.float32)
        v = (self.position - points).astype(np.float32)
        r = np.linalg.norm(v, axis=-1, keepdims=True)
        d0 = float(self.position[2])
        return v / r, (d0 / r[..., 0]) ** 2


@dataclass
class Scene:
    square: float
    border: float
    style: str
    dark: np.ndarray  # linear
    light: np.ndarray
    border_colour: np.ndarray
    grain: float  # 0: plain squares
    table_kind: str
    table_colour: np.ndarray
    table_colour2: np.ndarray
    pieces: str
    light_set: np.ndarray
    dark_set: np.ndarray
    white_is_light: bool
    rim: str  # "chamfer" or "ridged"
    piece_gloss: float
    lights: list[Light]
    ambient: float
    board_gloss: float  # specular strength of the board's varnish (glare patch)
    brightness: float  # the room's light overall (dim rooms well below 1)
    seed: int = 0
    spares: int = 2
    notes: dict = field(default_factory=dict)

    # -- geometry -------------------------------------------------------------------------

    @property
    def size(self) -> float:
        return 10 * self.square

    @property
    def diameter(self) -> float:
        return self.notes.get("diameter_ratio", 0.8) * self.square

    @property
    def height(self) -> float:
        return self.notes.get("height_ratio", 0.2) * self.diameter

    def centre(self, square: int) -> np.ndarray:
        """The centre of a dark square on the board's surface."""
        return np.array([(column(square) + 0.5) * self.square, (9.5 - row(square)) * self.square, 0.0])

    def outer(self) -> np.ndarray:
        """The board's four outer corners (border included), (4, 3)."""
        a, b = -self.border, self.size + self.border
        return np.array([[a, a, 0], [b, a, 0], [b, b, 0], [a, b, 0]], dtype=np.float64)

    def colour_of(self, white: bool) -> np.ndarray:
        return self.light_set if white == self.white_is_light else self.dark_set

    @property
    def dim(self) -> bool:
        return self.brightness < 0.45

    # -- choosing one -----------------------------------------------------------------------

    @classmethod
    def random(cls, rng: np.random.Generator) -> "Scene":
        style = list(BOARD_STYLES)[int(rng.integers(len(BOARD_STYLES)))]
        dark, lightc = BOARD_STYLES[style]
        jitter = lambda c, a: np.clip(np.asarray(c) + rng.normal(0, a, 3), 5, 250)  # noqa: E731
        dark, lightc = jitter(dark, 8), jitter(lightc, 8)
        table_kind = TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]
        table = rng.uniform(20, 230, 3)
        if rng.random() < 0.3:  # the border in the table's hue
            border = np.clip(table * rng.uniform(0.85, 1.15), 5, 250)
        elif rng.random() < 0.5:
            border = jitter(dark, 12) * rng.uniform(0.7, 1.0)
        else:
            border = rng.uniform(20, 200, 3)
        pieces = list(PIECE_SETS)[int(rng.integers(len(PIECE_SETS)))]
        lset, dset = PIECE_SETS[pieces]
        if rng.random() < 0.25:  # low contrast against the squares: cream on light, brown on brown
            lset = np.clip(np.asarray(lightc) * rng.uniform(0.95, 1.08), 0, 250)
            dset = np.clip(np.asarray(dark) * rng.uniform(0.75, 0.95), 0, 250)
            pieces += " (like the squares)"
        brightness = float(rng.choice([rng.uniform(0.15, 0.45), rng.uniform(0.5, 1.3)], p=[0.3, 0.7]))
        lights = []
        n = int(rng.choice([1, 2, 3], p=[0.35, 0.45, 0.2]))
        for i in range(n):
            warm = rng.uniform(-0.12, 0.12)
            colour = np.array([1 + warm, 1.0, 1 - warm], np.float32)  # RGB
            if i == 0 and rng.random() < 0.6:  # a window: far, from one side
                az, el = rng.uniform(0, 2 * np.pi), np.radians(rng.uniform(20, 60))
                d = np.array([np.cos(az) * np.cos(el), np.sin(az) * np.cos(el), np.sin(el)])
                lights.append(Light(float(rng.uniform(0.6, 1.0)), colour, direction=d,
                                    size=float(rng.uniform(0.05, 0.25))))
            else:  # a ceiling or table lamp
                p = np.array([rng.uniform(-600, 1100), rng.uniform(-600, 1100), rng.uniform(900, 2200)])
                lights.append(Light(float(rng.uniform(0.4, 1.0)), colour, position=p,
                                    size=float(rng.uniform(0.02, 0.15))))
        total = sum(l.intensity for l in lights)
        for l in lights:
            l.intensity *= brightness / total
        return cls(
            square=float(rng.uniform(40, 50)), border=float(rng.uniform(12, 55)), style=style,
            dark=linear(dark), light=linear(lightc), border_colour=linear(border),
            grain=float(rng.choice([0.0, rng.uniform(0.05, 0.25)], p=[0.35, 0.65])),
            table_kind=table_kind, table_colour=linear(table),
            table_colour2=linear(np.clip(table * rng.uniform(0.5, 1.5, 3), 5, 250)),
            pieces=pieces, light_set=linear(lset), dark_set=linear(dset),
            white_is_light=bool(rng.random() < 0.8), rim="ridged" if rng.random() < 0.5 else "chamfer",
            piece_gloss=float(rng.uniform(0.0, 0.5)), lights=lights,
            ambient=float(rng.uniform(0.15, 0.4)) * brightness,
            board_gloss=float(rng.choice([0.0, rng.uniform(0.2, 1.2)], p=[0.55, 0.45])),
            brightness=brightness, seed=int(rng.integers(2**31)),
            spares=int(rng.integers(1, 4)),
            notes={"diameter_ratio": float(rng.uniform(0.76, 0.86)),
                   "height_ratio": float(rng.uniform(0.17, 0.24))})

    # -- textures (albedo, linear) ------------------------------------------------------------

    BOARD_PX_PER_MM = 3.0
    TABLE_PX_PER_MM = 1.0
    TABLE_HALF = 1400.0  # the table texture spans this far around the board's centre

    def board_texture(self) -> np.ndarray:
        """The board's albedo, (H, W, 3) float32, from the outer corner (-border, -border) at
        `BOARD_PX_PER_MM`."""
        rng = np.random.default_rng([self.seed, 1])
        k = self.BOARD_PX_PER_MM
        n = int(round((self.size + 2 * self.border) * k))
        mm = (np.arange(n, dtype=np.float32) + 0.5) / k - self.border
        x, y = np.meshgrid(mm, mm)
        c = np.floor(x / self.square).astype(np.int32)
        r = np.floor(y / self.square).astype(np.int32)
        inside = (c >= 0) & (c < 10) & (r >= 0) & (r < 10)
        darksq = inside & ((r + c) % 2 == 1)
        out = np.empty((n, n, 3), np.float32)
        out[:] = self.border_colour
        out[inside & ~darksq] = self.light
        out[darksq] = self.dark
        shade = 1 + 0.04 * _noise(rng, (n, n), (8, 8))
        if self.grain > 0:
            phase = rng.uniform(0, 50, (12, 12)).astype(np.float32)
            per = phase[np.clip(r + 1, 0, 11), np.clip(c + 1, 0, 11)]
            across = np.where((r + c) % 2 == 0, y, x)  # grain runs alternately across the squares
            wobble = 4 * _noise(rng, (n, n), (6, 40))
            rings = np.sin(2 * np.pi * (across / rng.uniform(3.0, 8.0) + wobble / 6 + per))
            streak = _noise(rng, (n, n), (120, 6)) if rng.random() < 0.5 else _noise(rng, (n, n), (6, 120))
            shade *= 1 + self.grain * (0.5 * rings + 0.5 * streak) * 0.6
        out *= np.clip(shade, 0.6, 1.4)[..., None]
        # a thin darker line where the border meets the squares
        edge = inside & ((np.abs(x) < 0.8) | (np.abs(y) < 0.8) | (np.abs(x - self.size) < 0.8)
                         | (np.abs(y - self.size) < 0.8))
        out[edge] *= 0.6
        return out

    def table_texture(self) -> np.ndarray:
        """The table's albedo around the board's centre, (H, W, 3) float32 at `TABLE_PX_PER_MM`."""
        rng = np.random.default_rng([self.seed, 2])
        k = self.TABLE_PX_PER_MM
        n = int(2 * self.TABLE_HALF * k)
        mm = (np.arange(n, dtype=np.float32) + 0.5) / k - self.TABLE_HALF + self.size / 2
        x, y = np.meshgrid(mm, mm)
        base = np.empty((n, n, 3), np.float32)
        base[:] = self.table_colour
        kind = self.table_kind
        if kind == "cloth":
            shade = 1 + 0.06 * _noise(rng, (n, n), (12, 12)) + 0.05 * rng.standard_normal((n, n)).astype(np.float32)
        elif kind == "wood":
            plank = rng.uniform(90, 200)
            idx = np.floor(y / plank).astype(np.int32)
            ph = rng.uniform(0, 10, 64).astype(np.float32)[idx % 64]
            rings = np.sin(2 * np.pi * (y / rng.uniform(8, 20) + 2 * _noise(rng, (n, n), (40, 4)) + ph))
            shade = 1 + 0.15 * rings + 0.1 * _noise(rng, (n, n), (60, 3))
            shade[(y % plank) < 1.5] *= 0.5
        elif kind == "laminate":
            shade = 1 + 0.02 * _noise(rng, (n, n), (6, 6)) + 0.03 * rng.standard_normal((n, n)).astype(np.float32)
        else:
            period = rng.uniform(15, 45)
            a = (np.floor(x / period) % 2).astype(np.float32)
            b = (np.floor(y / period) % 2).astype(np.float32)
            mix = (a + b) / 2 if kind == "check cloth" else a
            base = base * (1 - mix[..., None]) + np.asarray(self.table_colour2, np.float32) * mix[..., None]
            shade = 1 + 0.05 * rng.standard_normal((n, n)).astype(np.float32)
        return base * np.clip(shade, 0.3, 1.6)[..., None].astype(np.float32)

    # -- light on surfaces ------------------------------------------------------------------

    def irradiance(self, points: np.ndarray, normals: np.ndarray | None = None) -> np.ndarray:
        """Light falling on ``points`` (..., 3) with ``normals`` (default up), RGB (..., 3)."""
        if normals is None:
            normals = np.zeros_like(points, dtype=np.float32)
            normals[..., 2] = 1
        out = np.empty(points.shape[:-1] + (3,), np.float32)
        out[:] = self.ambient
        for l in self.lights:
            d, fall = l.towards(points)
            cos = np.clip((d * normals).sum(-1), 0, None)
            out += (l.intensity * cos * fall)[..., None] * l.colour
        return out

    def specular(self, points: np.ndarray, eye: np.ndarray, shininess: float = 60.0) -> np.ndarray:
        """A varnish's highlight on the board's surface seen from ``eye``, RGB (..., 3)."""
        out = np.zeros(points.shape[:-1] + (3,), np.float32)
        v = (eye - points).astype(np.float32)
        v /= np.linalg.norm(v, axis=-1, keepdims=True)
        for l in self.lights:
            d, fall = l.towards(points)
            h = d + v
            h /= np.linalg.norm(h, axis=-1, keepdims=True)
            s = np.clip(h[..., 2], 0, 1) ** (shininess / (1 + 20 * l.size))
            out += (l.intensity * fall * s * 3)[..., None] * l.colour
        return out

    def describe(self) -> dict:
        return {"board": self.style, "square_mm": round(self.square, 1), "border_mm": round(self.border, 1),
                "table": self.table_kind, "pieces": self.pieces, "white_is_light": self.white_is_light,
                "rim": self.rim, "lights": len(self.lights), "brightness": round(self.brightness, 2),
                "glare": round(self.board_gloss, 2)}
