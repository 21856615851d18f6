"""Which cells of one photo hold a piece, by what a piece is, not by its colour alone.

`vision.squares.learn_colours` tells the pieces from the empty squares by how far each cell's
top sample lies from looking empty (`vision.squares.empty_distance`), split in two on a log
scale (`vision.squares.colour_occupied`).  A board has three populations there: the empty
squares, the pieces of the side far in colour from the dark squares, and those of the side near
them.  When the near side is near indeed (blue men on purple squares, dark brown men on walnut,
pale men on light grey), the split falls between the far side and the rest, and the near side
is learnt as empty squares: whole boards of it read empty (`bench.stills`, issue 16).

A piece is a raised cylinder, whatever its colour: its top face differs a little from the
square's own colour beside it, and it draws an outline where an empty square is flat
(`vision.squares.rim_contrast`, a round edge over the cell's own typical gradient, so a grain
or a gradient of light does not make one).  The empty dark squares are the many alike: so the
dark cells the colour split left empty are scored against the empty dark squares' own
population (`outlier_scores`: each cell's colour distance and outline contrast, in logs,
standardised by the robust centre and spread of the cells that look most empty, grown to all
that fit them), and where those scores fall clearly in two groups, the upper group stands out
from the empty squares by the two together: pieces.  So is a dark cell with an outline whose top
differs from its own floor in hue (a* and b*) far more than any empty square's does
(`hue_scores`): the empty squares' top-to-floor offset is one and the same on all of them, so a
piece of another hue stands out in it however near the square it lies in lightness.

A piece found so, by its outline alone, whose top colour lies nearer the dark squares' than
the colour of the pieces it is read as (`poor_tops`), shows no top face apart from the square:
its measured top is no height evidence (`vision.kings.photo_kings`).  An empty square beside
pieces, a shade on it or a neighbour's edge drawing part of an outline, looks so: on a seed-7
still (`bench.stills` home-0034, red and cream men on teal) four such squares, joined to the
red men's colour, put the red men's height at the empty squares' and read all six as kings.

Whether a cell holds a piece is this module's word, on the squares the pieces stand on
(`playing_parity`); the colours (`vision.squares.classify`) say which side (`read_cells`).  The
colours weigh a top against the board-wide piece colours, and a piece lit more or less than
most (beside a glare, in a lamp's fall-off) lies far from its side's colour as well as from
its square: by them alone it read empty.  Where the two disagree, the cell must show an
outline (`OUTLINE_SEEN`): a glare's spot on an empty square lies as far from its floor as a
piece, but is round without an edge.

Only the photo reading (`vision.read.read_image`) uses this: the live pipeline learns its
colours from a known position.
"""

from __future__ import annotations

import numpy as np

from vision.colours import (_CLIPPED, EMPTY, GLARE_MIN, ColourModel, bgr_to_lab, distance,
                            lab_to_bgr)
from vision.squares import (BoardView, CellProbabilities, _otsu, classify, colour_threshold,
                            empty_distance, learn_colours, normalised_tops, square_colours)

#: Fewest cells the empty population is grown from (the most empty-looking; the start position
#: leaves ten dark squares empty), the robust spread (natural log) below which a feature's is not
#: taken, and the score (robust standard deviations, summed over the features and divided by
#: the root of their number) within which a cell belongs to the empty population.
SEED_CELLS = 8
MIN_LOG_SPREAD = 0.1
EMPTY_SCORE = 2.5
#: The scores split in two (`_otsu`) clearly: by at least this many pooled standard deviations,
#: the upper group's least score at least `PIECE_SCORE` (one cell under it left out among
#: `STRAY_AMONG` or more); a lone
#: cell (an odd empty square: a glare's spot, a stain, as likely as a piece) at least
#: `LONE_SCORE`.
SPLIT_SEPARATION = 2.5
#: Fewest cells of the upper group at `PIECE_SCORE` or more for one under it to be left out.
STRAY_AMONG = 4
#: With no group by the scores, the outlines alone (log outline contrast, `_otsu`) split the
#: cells clearly: by at least this many pooled standard deviations, at least `RIM_FEWEST`
#: cells above, each a plain outline (at least `RIM_PLAIN`: an empty cell's at calibration
#: is mostly under 1.5, `vision.squares._RIM_MIN`).  Chosen on the other renderer's alt-0023
#: (seed 0: the split 4.8, the pieces 3.0 to 4.8, the empty squares 0.7 to 1.5); checked on
#: the kept stills of both renderers at seeds 0 and 5, nothing else changed.
RIM_SPLIT = 4.0
RIM_FEWEST = 4
RIM_PLAIN = 2.5
PIECE_SCORE = 4.0
LONE_SCORE = 8.0
#: Outline contrast (`vision.squares.rim_contrast`) above which a cell shows an outline at all:
#: the gradient along the circle where a piece's top would end above the cell's own typical
#: gradient inside.  Of the cells of 300 `bench.stills` home stills (seed 0) that stood out by
#: their colour's distance but that the colours read empty, the 69 pieces showed 1.35 to 12;
#: 11 of the 14 empty squares, each under a glare's spot, 0.78 to 0.97 (the spot's own slope
#: inside); the other three, on one board, 2.4 to 5.7 (home-0234, not looked into).
OUTLINE_SEEN = 1.0
#: A dark cell the outlier scores leave empty is a piece when the hue of its top against its own
#: floor (top less floor, a* and b*) lies at least `HUE_APART` robust standard deviations (2-D,
#: each channel's spread at least `MIN_HUE_SPREAD`) from the empty population's, and it shows
#: an outline (`OUTLINE_SEEN`).  On 300 `bench.stills` home stills (seed 0) the empty dark
#: squares' lie under 5.4 but for one in a thousand (the most of one board but two: 5.9), the
#: pieces of a side near the dark squares' colour that the scores missed 6 to 17.
HUE_APART = 7.0
MIN_HUE_SPREAD = 1.0


def _features(d: np.ndarray, rim: np.ndarray) -> np.ndarray:
    """(..., 2) the logs of the colour distance from looking empty and the outline contrast."""
    return np.stack([np.log1p(np.maximum(d, 0.0)), np.log(np.maximum(rim, 0.05))], axis=-1)


def outlier_scores(features: np.ndarray) -> np.ndarray:
    """(N,) how far each of N cells (``features`` N x F) stands out above the empty population:
    each feature standardised by the robust centre and spread (median, MAD) of the population,
    clipped below at -3, summed and divided by the root of F.  The population is grown from the
    `SEED_CELLS` cells lowest in all the features together (the least sum of their ranks) to
    every cell within `EMPTY_SCORE`, three times."""
    n, f = features.shape
    seed = min(SEED_CELLS, n)
    ranks = np.argsort(np.argsort(features, axis=0), axis=0).sum(axis=1)
    members = np.argsort(ranks, kind="stable")[:seed]
    score = np.zeros(n)
    for _ in range(4):
        centre = np.median(features[members], axis=0)
        spread = np.maximum(1.4826 * np.median(np.abs(features[members] - centre), axis=0),
                            MIN_LOG_SPREAD)
        z = np.clip((features - centre) / spread, -3.0, None)
        score = z.sum(axis=1) / np.sqrt(f)
        grown = np.flatnonzero(score < EMPTY_SCORE)
        members = grown if len(grown) >= seed else np.argsort(score, kind="stable")[:seed]
    return score


def hue_scores(offsets: np.ndarray, members: np.ndarray) -> np.ndarray:
    """(N,) how far each of N cells' top-less-floor hue (``offsets``, N x 2: a* and b*) lies
    from the ``members``' (the empty population's): the root of the summed squares of each
    channel's difference from their median over its robust spread (1.4826 MAD, at least
    `MIN_HUE_SPREAD`)."""
    centre = np.median(offsets[members], axis=0)
    spread = np.maximum(1.4826 * np.median(np.abs(offsets[members] - centre), axis=0),
                        MIN_HUE_SPREAD)
    return np.linalg.norm((offsets - centre) / spread, axis=-1)


def colour_sure(d: np.ndarray, threshold: float) -> np.ndarray:
    """(10, 10) how sure each cell holds a piece by its distance from looking empty ``d``
    alone: a logistic of its log less the split's (``threshold``, `colour_threshold`), one
    pooled standard deviation of the two groups' logs (at least `MIN_LOG_SPREAD`) one e-fold."""
    x = np.log1p(np.maximum(d, 0.0))
    t = float(np.log1p(threshold))
    groups = [g for g in (x[x <= t], x[x > t]) if len(g)]
    pooled = float(np.sqrt(sum(g.var() * len(g) for g in groups) / x.size))
    return 1.0 / (1.0 + np.exp(-(x - t) / max(pooled, MIN_LOG_SPREAD)))


def photo_occupied(view: BoardView) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(10, 10) the cells of one photo that hold a piece: those that stand out by their colour
    (`colour_threshold`), and the dark cells among the rest whose colour and outline together
    set them clearly apart from the empty dark squares (see the module docstring); (10, 10) how
    sure the latter are a piece by those two together (0 on every other cell): a logistic of
    their score less the split's threshold, one robust standard deviation one e-fold; and
    (10, 10) how sure every cell is a piece by its colour's distance alone (`colour_sure`)."""
    light, dark, dark_parity = square_colours(view)
    d = empty_distance(view, light, dark, dark_parity)
    threshold = colour_threshold(d)
    occupied = d > threshold
    by_colour = colour_sure(d, threshold)
    sure = np.zeros((10, 10))
    rest = (view.parity == dark_parity) & ~occupied
    if np.count_nonzero(rest) <= SEED_CELLS:
        return occupied, sure, by_colour
    features = _features(d[rest], view.rim[rest])
    score = outlier_scores(features)
    threshold, separation = _otsu(score, 0.5)
    upper = score > threshold
    # one cell of the upper group under `PIECE_SCORE` is left out, not the group: an empty
    # square just over the split (a neighbour's edge in its outline circle) among pieces that
    # stand out (the other renderer's alt-0008 at seed 0: eleven dark brown men on walnut at
    # 4.5 to 8.6, an empty square at 3.7 over the split at 2.9, and all eleven read empty).
    # Several under it are a group that rises evenly from the empty squares' (home-0046: 2.4
    # to 7.1, no gap): no pieces there; so are a few over it (`STRAY_AMONG`: alt-0048 at seed
    # 5, three empty squares at 4.0 to 5.4)
    weak = upper & (score < PIECE_SCORE)
    if np.count_nonzero(weak) == 1 and np.count_nonzero(upper & ~weak) >= STRAY_AMONG:
        upper &= ~weak
    count = int(np.count_nonzero(upper))
    if separation < SPLIT_SEPARATION or count == 0 or \
            float(score[upper].min()) < (LONE_SCORE if count == 1 else PIECE_SCORE):
        upper = np.zeros(len(score), dtype=bool)
    # or, with none by the scores, their outlines alone split clearly (`RIM_SPLIT`), every one
    # a plain outline: a piece is a raised cylinder whatever its colour (the other renderer's
    # alt-0023: dark men on dark squares, two kings among them scored under `PIECE_SCORE`, the
    # group was refused and all eleven read empty)
    if not upper.any():
        rims = features[:, 1]
        t_rim, sep_rim = _otsu(rims, 0.05)
        outlined = rims > t_rim
        if sep_rim >= RIM_SPLIT and np.count_nonzero(outlined) >= RIM_FEWEST \
                and float(view.rim[rest][outlined].min()) >= RIM_PLAIN:
            upper = outlined
    # and each shows an outline (`OUTLINE_SEEN`): on a clean render the empty squares' colour
    # and outline scatter so little that a glare's slope or a shade stands many spreads out
    # (home-0165: three squares beside a glare's spot, 4 to 8 from looking empty, outlines
    # 0.75 to 0.87, read as pieces; of 300 home stills' pieces found here, every one showed
    # 1.19 or more, 10 of the 13 empty squares under 1.03)
    upper &= view.rim[rest] > OUTLINE_SEEN
    by_upper = np.where(upper, 1.0 / (1.0 + np.exp(-(score - threshold))), 0.0)
    # a piece whose top differs from its square in hue, however little in lightness: its
    # distance from looking empty is the square's own top-to-floor offset (a few units, the same
    # on every empty square) plus the hue, and the scores weigh it among the empty squares'
    # grain and light (home-0014: red-brown men on purple squares, 9 to 16 from looking empty
    # where the empty squares lay 3 to 9, their b* 12 to 17 spreads off the empty squares')
    hue = hue_scores((view.top - view.floor)[rest][:, 1:], score < EMPTY_SCORE)
    by_hue = (hue >= HUE_APART) & (view.rim[rest] > OUTLINE_SEEN)
    if not upper.any() and not by_hue.any():
        return occupied, sure, by_colour
    occupied = occupied.copy()
    occupied[rest] = upper | by_hue
    sure[rest] = np.maximum(by_upper,
                            np.where(by_hue, 1.0 / (1.0 + np.exp(-(hue - HUE_APART))), 0.0))
    return occupied, sure, by_colour


def playing_parity(view: BoardView, occupied: np.ndarray) -> int:
    """The parity ((row + col) % 2) of the squares the pieces stand on: the one holding more of
    the ``occupied`` cells, the darker squares' on a tie.  Not always the darker: on a board
    whose playing squares are the lighter in the photo's light (the labelled real photo 29.jpg,
    buff and green squares under a lamp), the pieces tell."""
    dark_parity = square_colours(view)[2]
    on_dark = int(np.count_nonzero(occupied & (view.parity == dark_parity)))
    return dark_parity if 2 * on_dark >= np.count_nonzero(occupied) else 1 - dark_parity


def poor_tops(view: BoardView, model: ColourModel, dark_parity: int, sure: np.ndarray,
              best: np.ndarray) -> np.ndarray:
    """(10, 10) the pieces read (``best``: 0 empty, 1, 2 the lighter, darker) that were found
    by their outline alone (``sure`` > 0, `photo_occupied`) and whose top colour (lightness
    corrected, as the model was learnt) lies nearer the dark squares' colour than the colour
    of the pieces they are read as: their top face is not seen apart from the square, so
    where they are measured to stand says nothing of a piece's height."""
    light, dark, _ = square_colours(view)
    tops = normalised_tops(view, light, dark, dark_parity)
    _, dark_square, lighter, darker = model.arrays()
    own = np.where((best == 1)[..., None], lighter, darker)
    return (sure > 0) & (best > 0) & (distance(tops, dark_square) < distance(tops, own))


def floor_glare(view: BoardView, light: np.ndarray, dark: np.ndarray,
                dark_parity: int) -> np.ndarray:
    """(10, 10) the grey light (8-bit B, G and R each) a lamp's glare adds on each cell, as its
    floor shows it: the floor's least rise over its parity's square colour, where all three of
    B, G and R rose by at least `GLARE_MIN` and alike (a grey light, not a colour cast or a
    lamp's fall-off on a coloured square: as `vision.colours.CellReferences.with_glare`); 0
    elsewhere."""
    colour = np.where((view.parity == dark_parity)[..., None], dark, light)
    rise = lab_to_bgr(view.floor) - lab_to_bgr(colour)
    low, high = rise.min(axis=-1), rise.max(axis=-1)
    return np.where((low >= GLARE_MIN) & (high - low <= 0.5 * high), low, 0.0)


def glare_sides(view: BoardView, model: ColourModel, p: np.ndarray) -> np.ndarray:
    """(10, 10, 3) ``p`` with the two sides' shares of each cell under a glare (`floor_glare`)
    weighed again: each side's colour as it is or washed out by the glare the cell's floor
    shows, the nearer to the cell's top.  A dark man in a lamp's glare is grey, nearer a red
    side's colour than his own navy one, and nearest his own washed out.  Other cells, and
    tops clipped white (any colour washed out far enough fits them), as they are."""
    light, dark, dark_parity = square_colours(view)
    glare = floor_glare(view, light, dark, dark_parity)
    top = lab_to_bgr(view.top)
    at = (glare > 0) & (top.max(axis=-1) < _CLIPPED)
    if not at.any():
        return p
    _, _, lighter, darker = model.arrays()
    tops = normalised_tops(view, light, dark, dark_parity)
    sides = np.stack([lighter, darker])  # (2, 3)
    washed = bgr_to_lab(np.clip(lab_to_bgr(sides) + glare[..., None, None], 0, 255))
    d = np.minimum(distance(tops[..., None, :], sides), distance(view.top[..., None, :], washed))
    sigma = max(model.spread, 6.0) * 1.6
    logits = -d ** 2 / (2 * sigma ** 2)
    logits -= logits.max(axis=-1, keepdims=True)
    share = np.exp(logits)
    share /= share.sum(axis=-1, keepdims=True)
    out = p.copy()
    pieces = p[..., 1:].sum(axis=-1)
    out[at, 1:] = pieces[at, None] * share[at]
    return out


def read_cells(view: BoardView) -> tuple[ColourModel, int, CellProbabilities, np.ndarray]:
    """One photo's cells: the colour model learnt from the cells that hold a piece
    (`photo_occupied`, `learn_colours`), and every cell's probabilities: the colours'
    (`classify`; the sides weighed again under a glare, `glare_sides`), where a cell of the squares
    the pieces stand on (`playing_parity`) stands out from the empty squares (by its colour's
    distance from looking empty, or by its outline and colour together), the empty reading's share
    moved to the pieces' by how sure that is (their colours' word on which side it is kept), and on
    the other cells the pieces' share kept only as far as the cell stands out by its colour's
    distance (`colour_sure`): both must say so there; and (10, 10) the pieces read whose tops are
    no height evidence (`poor_tops`)."""
    occupied, sure, by_colour = photo_occupied(view)
    playing = view.parity == playing_parity(view, occupied)
    # the sides' colours from the pieces on the squares pieces stand on: a cell of the other
    # parity read occupied is far more often a grid line a little off, its neighbour drawn into
    # its floor (home-0060: eight mint squares, learnt as the lighter side's colour, made every
    # red man the darker side and every dark one empty)
    on_playing = occupied & playing
    model, dark_parity = learn_colours(view, on_playing if np.count_nonzero(on_playing) >= 2
                                       else occupied)
    p = glare_sides(view, model, classify(view, model, dark_parity).p)
    # Whether a cell holds a piece is told by how far its top lies from the square's own look
    # beside it, against the other cells' (`photo_occupied`); which side by the colours.  The
    # colours' own empty-or-piece weighing compares a top with the board-wide piece colours:
    # a piece in a glare, a shade or a lamp's fall-off lies far from those and from its square
    # alike, and read empty (`bench.stills` home-0003, -0020, -0077: olive, teal and white men
    # washed out or shaded, 12 to 35 from looking empty where the empty squares lie under 5,
    # read empty at 0.7 to 1.0).  On the other squares, where a piece stands only on a board
    # set up wrongly, both must say so: a grid line off by a little there draws the neighbour
    # into a square's floor (home-0060: eight light squares 14 to 20 from looking empty).
    # A glare's spot on an empty square lies as far from the square's floor as a piece does,
    # but draws no outline: where the colours' and the distance's words differ, a piece must
    # show one (`OUTLINE_SEEN`).
    outlined = view.rim > OUTLINE_SEEN
    piece = np.maximum(sure, np.where(occupied & playing & outlined, by_colour, 0.0))
    side = p[..., 1:] / np.maximum(p[..., 1:].sum(axis=-1, keepdims=True), 1e-12)
    moved = p[..., EMPTY] * piece
    by_colours = p[..., EMPTY] < 0.5
    p = p.copy()
    p[..., EMPTY] -= moved
    p[..., 1:] += moved[..., None] * side
    # On the other squares the colours' word alone does not make a piece either: its top must
    # also stand out from the square's own look (`colour_sure`).  Pale men on light squares
    # (pale grey on light grey) leave every light square's top about as near the pale side's
    # colour as the light square's own: by the colours alone they read half and half, and on
    # 300 `bench.stills` home stills (seed 0) 51 light squares of 8 boards read as pieces
    # (home-0190: 22 of them, each 3 to 8 from looking empty where the pieces lay 18 to 36;
    # all but one under the split of `colour_threshold`)
    off = ~playing
    kept = p[..., 1:] * np.where(off, by_colour, 1.0)[..., None]
    p[..., EMPTY] += (p[..., 1:] - kept).sum(axis=-1)
    p[..., 1:] = kept
    probs = CellProbabilities(p)
    best = probs.best()
    # a piece read only by its distance and outline, the colours' word empty, shows no top of
    # its side's colour: where it is measured to stand says nothing of its height either (on
    # the Raspberry Pi's OpenCV the labelled real photo 29.jpg read five men as kings so)
    return model, dark_parity, probs, (poor_tops(view, model, dark_parity, sure, best)
                                       | ((best > 0) & ~by_colours))
