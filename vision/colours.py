"""Colours of the two kinds of square and of the two sides' pieces, learnt rather than assumed.

All colours are CIE Lab triples (OpenCV's 8-bit scaling: L, a, b in 0-255).  A `ColourModel` is
learnt from one photo by clustering (`vision.squares.learn_colours`: one colour per class), or
from a calibration frame of the start position (`vision.squares.learn_references`), where the
start position says which class every cell shows.  A calibrated model keeps, besides each class's
colour and spread, every cell's own look of each class (`CellReferences`): a square's paint, the
light on it, glare and the grain of the wood differ from cell to cell by more than a piece that
is nearly the colour of the dark squares differs from them, so a cell is compared with its own
empty look and its own look with a piece wherever those were seen, and with the class colour
under the cell's light elsewhere.  Both are refined from squares whose content is sure
(`ColourModel.learnt`).

Light: a change of the light by a factor (exposure, a lamp, the fall-off towards a corner)
scales ``L + L_OFFSET`` and the chroma ``a - 128``, ``b - 128`` alike (Lab's cube root of the
linear colour), so `relight` moves a colour to another light, and the light squares (always
empty in a game) tell by how much the light on each cell changed (`light_change`).

Glare is not a factor: a lamp's reflection adds its own (white) light to whatever lies under it,
and washes a piece's colour out towards white as it does the square's.  The light squares under
a glare are clipped white, so they cannot tell how strong it is; the cell's own empty look can
(`CellReferences.with_glare`): a dark square seen far lighter and greyer than its colour under
the cell's light has a glare on it, and a piece that has not yet stood there is expected washed
out by the same added light, not in its plain colour.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache

import cv2
import numpy as np

#: Weight of lightness against the two chroma axes in colour distances: glare and shade change
#: lightness far more than hue.
L_WEIGHT = 1.0


#: OpenCV's 8-bit L of the Lab origin's offset: L* + 16 (scaled) is proportional to the cube
#: root of the luminance.
L_OFFSET = 16.0 * 255.0 / 100.0

#: Least rise (8-bit B, G and R each) of a dark square's empty look above its plain colour that
#: counts as glare on the cell: the cells' own differences of paint and light stay well below it.
GLARE_MIN = 12.0
#: How well (8-bit B, G and R each, one standard deviation) a class's look under a glare is
#: predicted: the glare is measured on the cell's empty look, JPEG and noise blur both.
GLARE_BGR = 6.0
#: 8-bit channel value from which a look is taken as clipped white.
_CLIPPED = 250.0

#: How far (in cells, one standard deviation of a Gaussian) a class's look seen on a cell speaks
#: for that class's look on a cell where it was never seen (`CellReferences.from_neighbours`).
NEIGHBOUR_CELLS = 1.5
#: Weight of the class colour against the neighbours' looks there: half a neighbour's.
CLASS_WEIGHT = 0.5

#: Classes of a cell's content, in the order of `vision.squares.CellProbabilities`.
EMPTY, WHITE_PIECE, BLACK_PIECE = 0, 1, 2


def relight(lab: np.ndarray, factor: np.ndarray | float) -> np.ndarray:
    """Lab colours (..., 3) as they look under light ``factor`` (broadcast over the leading axes)
    times as strong, in cube-root units (see the module docstring)."""
    lab = np.asarray(lab, dtype=np.float64)
    f = np.asarray(factor, dtype=np.float64)[..., None]
    out = np.empty(np.broadcast_shapes(lab.shape, f.shape[:-1] + (3,)))
    out[..., 0] = (lab[..., 0] + L_OFFSET) * f[..., 0] - L_OFFSET
    out[..., 1:] = (lab[..., 1:] - 128.0) * f + 128.0
    return out


def light_factor(lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """How much stronger the light is on ``lab`` than on ``reference`` (same surface)."""
    return (np.asarray(lab)[..., 0] + L_OFFSET) / np.maximum(np.asarray(reference)[..., 0] + L_OFFSET, 1.0)


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


@cache
def _nearness() -> np.ndarray:
    """(100, 100) how much each cell's look speaks for each other's (`NEIGHBOUR_CELLS`), by
    their distance on the grid (built once: read only)."""
    rr, cc = np.mgrid[0:10, 0:10]
    d2 = (rr.reshape(-1, 1) - rr.reshape(1, -1)) ** 2 + (cc.reshape(-1, 1) - cc.reshape(1, -1)) ** 2
    near = np.exp(-d2 / (2.0 * NEIGHBOUR_CELLS ** 2))
    near.flags.writeable = False
    return near


@dataclass(frozen=True, eq=False)
class CellReferences:
    """Every cell's own look of each class, in the light of the calibration frame.

    ``mean`` (10, 10, 3, 3): [row, col, class (`EMPTY`, `WHITE_PIECE`, `BLACK_PIECE`), Lab] the
    expected top sample; ``seen`` (10, 10, 3): measured on the cell itself (else predicted: the
    class colour under the cell's light); ``light`` (10, 10): the light on each cell at
    calibration against the board's typical light (a factor, see `relight`); ``last`` (10, 10):
    the class last known on each cell (the start position's, then the last sure reading's), the
    best guess where the camera cannot tell (`prior`); ``extra_var`` (10, 10, 3, 3, None: none)
    the variance a prediction has beyond the class's spread (its witnesses' disagreement,
    `from_neighbours`; a class predicted under a glare, `with_glare`); ``dark`` (10, 10, None:
    all) the dark cells, the only ones whose looks speak for each other's; ``rim`` (10, 10, 3,
    None: none) the outline contrast (`vision.squares.rim_contrast`) each class showed on the
    cell where it was seen (NaN: never measured); ``floor`` (10, 10, 3, None: none) the top
    sample less the floor (`vision.squares`) the cell showed empty, in the calibration light
    (NaN: never seen empty): a glare or a shade centred on the square makes it unlike the
    empty cells' typical difference there; ``around`` (10, 10, None: not known) what stood on
    each light cell's four dark neighbours when its empty look was taken
    (`vision.squares.surroundings`, -1: not known): a piece beside a light square shades it
    or leans over it in the picture, so its look is the light's only beside the same pieces."""

    mean: np.ndarray
    seen: np.ndarray
    light: np.ndarray
    last: np.ndarray
    extra_var: np.ndarray | None = None
    dark: np.ndarray | None = None
    rim: np.ndarray | None = None
    floor: np.ndarray | None = None
    around: np.ndarray | None = None

    def dark_cells(self) -> np.ndarray:
        """(10, 10) the dark cells (`dark`; every cell when not given)."""
        return np.ones((10, 10), dtype=bool) if self.dark is None else self.dark

    def prior(self) -> np.ndarray:
        """(10, 10, 3) the guess where the look tells nothing: the class last known there more
        likely than the others, though the game may have changed it since."""
        out = np.full((10, 10, 3), 0.2)
        r, c = np.nonzero(self.last >= 0)
        out[r, c, self.last[r, c]] = 0.6
        return out

    def learnt(self, samples: np.ndarray, labels: np.ndarray, rate: float = 0.3,
               rims: np.ndarray | None = None, floors: np.ndarray | None = None
               ) -> "CellReferences":
        """References moved towards ``samples`` (10, 10, 3, already in the calibration light) on
        the cells whose class ``labels`` (10, 10; -1: none) gives: taken as they are on a cell
        never seen with that class, else by ``rate``; the outline contrasts ``rims`` (10, 10)
        and the empty cells' top-less-floor differences ``floors`` (10, 10, 3, in the
        calibration light) alike, when given."""
        mean, seen = self.mean.copy(), self.seen.copy()
        rim = self.rim
        if rims is not None:
            rim = np.full(seen.shape, np.nan) if rim is None else rim.copy()
        floor = self.floor
        if floors is not None:
            floor = np.full((10, 10, 3), np.nan) if floor is None else floor.copy()
            empty = labels == EMPTY
            old = floor[empty]
            floor[empty] = np.where(np.isnan(old), floors[empty],
                                    (1 - rate) * old + rate * floors[empty])
        for r, c in np.argwhere(labels >= 0):
            k = int(labels[r, c])
            w = rate if seen[r, c, k] else 1.0
            mean[r, c, k] = (1 - w) * mean[r, c, k] + w * samples[r, c]
            seen[r, c, k] = True
            if rims is not None:
                old = rim[r, c, k]
                rim[r, c, k] = rims[r, c] if np.isnan(old) else (1 - rate) * old + rate * rims[r, c]
        return replace(self, mean=mean, seen=seen, last=np.where(labels >= 0, labels, self.last),
                       rim=rim, floor=floor)

    def from_neighbours(self, colours: np.ndarray) -> "CellReferences":
        """The references of the classes never seen on a cell predicted from that class's looks
        seen on the dark cells near it (each brought from its own light to this cell's), with
        the class colour ``colours`` (3, 3, under the board's typical light) as one more, weaker
        witness; their extra variance is how much those witnesses disagree.  A set's men are not
        all alike to the camera: the light falls off, a glossy top clips white in the middle of
        the board and keeps its colour at the edge, so a man moved to a cell near where men of
        its side stood looks like those men, not like the board's median man.  Where no class
        was seen near a cell, its prediction is the class colour as before."""
        dark = self.dark_cells()
        unseen = ~self.seen & dark[..., None]
        if not unseen.any():
            return self
        near = _nearness()  # (100 cells, 100 witnesses)
        typical = relight(self.mean, 1.0 / self.light[..., None]).reshape(100, 3, 3)
        witness = (self.seen & dark[..., None]).reshape(100, 3)
        mean = self.mean.copy()
        extra = np.zeros(self.mean.shape) if self.extra_var is None else self.extra_var.copy()
        colours = np.asarray(colours, dtype=np.float64)
        for k in (EMPTY, WHITE_PIECE, BLACK_PIECE):
            w = near * witness[None, :, k]
            total = w.sum(axis=1) + CLASS_WEIGHT  # (100,)
            centre = (w @ typical[:, k] + CLASS_WEIGHT * colours[k]) / total[:, None]
            var = (w @ typical[:, k] ** 2 + CLASS_WEIGHT * colours[k] ** 2) / total[:, None] \
                - centre ** 2
            at = unseen[..., k]
            f = self.light[..., None]
            mean[..., k, :] = np.where(at[..., None], relight(centre.reshape(10, 10, 3),
                                                              self.light), mean[..., k, :])
            extra[..., k, :] = np.where(at[..., None],
                                        np.maximum(var.reshape(10, 10, 3), 0.0) * f ** 2,
                                        extra[..., k, :])
        return replace(self, mean=mean, extra_var=extra)

    def with_glare(self, colours: np.ndarray) -> "CellReferences":
        """The references of the classes not yet seen on a cell predicted with the glare the
        cell's empty look shows (see the module docstring): ``colours`` (3, 3) the class
        colours under the board's typical light.  The glare is the grey light (the same in
        B, G and R) that brought the dark square's plain colour under the cell's light to its
        look there: the mean rise of the channels not clipped white, where all three rose by at
        least `GLARE_MIN` and the free ones alike (a grey light, not a colour cast).  Only the
        empty look tells: a square's paint is even, while a piece's look differs from its class
        colour by its relief and gloss as much as by the light.  Cells with no such glare keep
        their references."""
        plain = lab_to_bgr(relight(np.asarray(colours, dtype=np.float64)[None, None],
                                   self.light[..., None]))  # (10, 10, 3 classes, B G R)
        look = lab_to_bgr(self.mean[..., EMPTY, :])
        rise = look - plain[..., EMPTY, :]
        # a channel clipped white rose by at least what it shows: the others tell the glare
        clipped = look >= _CLIPPED
        free = ~clipped.all(axis=-1)
        low = np.where(free, np.where(clipped, np.inf, rise).min(axis=-1), rise.max(axis=-1))
        high = np.where(free, np.where(clipped, -np.inf, rise).max(axis=-1), rise.max(axis=-1))
        grey = (low >= GLARE_MIN) & (high - low <= 0.5 * high) & (rise.min(axis=-1) >= GLARE_MIN) \
            & self.seen[..., EMPTY]
        glare = np.where(grey, 0.5 * (low + high), 0.0)  # (10, 10)
        unseen = ~self.seen & (glare > 0)[..., None]
        if not unseen.any():
            return self
        bgr = np.clip(plain + glare[..., None, None], 0.0, 255.0)
        washed = bgr_to_lab(bgr)
        # known to within `GLARE_BGR` in each of B, G and R; near white, Lab's chroma moves far
        # more for that than in the plain light: the spread it makes, channel by channel
        spread = np.zeros(bgr.shape)
        for i in range(3):
            step = np.zeros(3)
            step[i] = GLARE_BGR
            spread += ((bgr_to_lab(bgr + step) - bgr_to_lab(bgr - step)) / 2.0) ** 2
        extra = self.extra_var if self.extra_var is not None else np.zeros(self.mean.shape)
        return replace(self, mean=np.where(unseen[..., None], washed, self.mean),
                       extra_var=np.where(unseen[..., None], spread, extra))


@dataclass(frozen=True)
class ColourModel:
    """Lab colours: the light and dark squares, and the top faces of white's and black's pieces
    (the sides of the rules, whatever their colours; ``white_piece`` is the lighter one when the
    model was learnt by clustering a photo).  ``spread`` is the typical distance of a sample from
    its class colour (for confidences).

    A calibrated model also has ``class_spread`` (3 classes x 3 channels: how far a class's look
    on a cell may lie from the class colour under that cell's light, one standard deviation per
    channel) and ``cells``, every cell's own references (`CellReferences`); and, for the
    difference between a cell's top sample and its floor (`vision.squares`: the square's own
    colour in the same frame, so the same light and glare), each class's mean
    ``floor_offset`` and spread ``floor_spread`` (3 x 3 each); ``rim_empty``, the most of a
    piece's outline (`vision.squares.rim_contrast`) an empty dark cell showed, and
    ``rim_pieces``, the least a piece's cell showed but for a tenth of them; ``rim_classes``
    (3 classes x centre and spread, None: not learnt) the log outline contrast each class
    showed on the dark cells (`vision.squares.rim_likelihoods`)."""

    light_square: tuple[float, float, float]
    dark_square: tuple[float, float, float]
    white_piece: tuple[float, float, float]
    black_piece: tuple[float, float, float]
    spread: float = 8.0
    class_spread: np.ndarray | None = field(default=None, compare=False)
    cells: CellReferences | None = field(default=None, compare=False)
    floor_offset: np.ndarray | None = field(default=None, compare=False)
    floor_spread: np.ndarray | None = field(default=None, compare=False)
    rim_empty: float | None = None
    rim_pieces: float | None = None
    rim_classes: np.ndarray | None = field(default=None, compare=False)

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

    def class_colours(self) -> np.ndarray:
        """(3, 3): the colours of an empty dark square, white's and black's pieces."""
        return np.array([self.dark_square, self.white_piece, self.black_piece], dtype=np.float64)

    def learnt(self, samples: np.ndarray, labels: np.ndarray, rate: float = 0.1,
               rims: np.ndarray | None = None, floors: np.ndarray | None = None
               ) -> "ColourModel":
        """A calibrated model refined from sure cells: ``samples`` (10, 10, 3) top colours
        already in the calibration light, ``labels`` (10, 10) their classes (-1: not sure), and
        their outline contrasts ``rims`` (10, 10) and top-less-floor differences ``floors``
        (10, 10, 3, in the calibration light) when measured.  Each cell's references learn
        its own sample (`CellReferences.learnt`); each class colour moves by ``rate`` towards
        its samples' median under the board's typical light."""
        assert self.cells is not None
        colours = self.class_colours()
        typical = relight(samples, 1.0 / self.cells.light)
        for k in (EMPTY, WHITE_PIECE, BLACK_PIECE):
            sel = labels == k
            if np.any(sel):
                colours[k] = (1 - rate) * colours[k] + rate * np.median(typical[sel], axis=0)
        t = [tuple(float(v) for v in c) for c in colours]
        return replace(self, dark_square=t[0], white_piece=t[1], black_piece=t[2],
                       cells=self.cells.learnt(samples, labels, rims=rims, floors=floors)
                       .from_neighbours(colours)
                       .with_glare(colours))


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


def lab_to_bgr(lab: np.ndarray) -> np.ndarray:
    """Lab colours (..., 3, OpenCV's 8-bit scaling) to float BGR (0-255)."""
    lab = np.asarray(lab, dtype=np.float64)
    flat = np.clip(lab.reshape(-1, 1, 3), 0, 255).astype(np.float32)
    flat[..., 0] *= 100.0 / 255.0
    flat[..., 1:] -= 128.0
    return (cv2.cvtColor(flat, cv2.COLOR_Lab2BGR) * 255.0).astype(np.float64).reshape(lab.shape)


def lab_to_linear(lab: np.ndarray) -> np.ndarray:
    """Lab colours (..., 3, OpenCV's 8-bit scaling) to linear light (BGR, 0-255: sRGB's
    transfer curve undone), where light added to a colour adds to its values."""
    srgb = np.clip(lab_to_bgr(lab) / 255.0, 0.0, 1.0)
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4) * 255.0


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """Float BGR colours (..., 3, 0-255) to Lab in OpenCV's 8-bit scaling."""
    bgr = np.asarray(bgr, dtype=np.float64)
    flat = (np.clip(bgr.reshape(-1, 1, 3), 0, 255) / 255.0).astype(np.float32)
    lab = cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).astype(np.float64)
    lab[..., 0] *= 255.0 / 100.0
    lab[..., 1:] += 128.0
    return lab.reshape(bgr.shape)
