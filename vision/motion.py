"""Telling a hand over the board from a settled board, and deciding when the board is settled.

Every frame is warped (through the cached homography) to a small colour top-down view of the
playing area and a one-square ring around it.  A real camera never gives the same picture twice:
it shakes by a fraction of a pixel and rolls a little, its exposure and white balance drift, and
in a dim room its noise is several grey levels.  So views are never compared pixel by pixel:

- *registered by tolerance*: a pixel changed only where it lies outside the range of the other
  view's 3 x 3 neighbourhood (`tolerant_change`): a shift of up to one view pixel (an eighth of a
  square, several camera pixels) changes nothing, while a hand, a piece or a shadow, which bring
  colours the neighbourhood never had, still do;
- *exposure normalised*: the still reference is scaled per colour channel by the view's median
  ratio to it (`exposure_gain`), so a slow drift of the auto-exposure or white balance is no
  change;
- *thresholds from the scene's own noise*: a change counts beyond the larger of a contrast for
  the scene's light (`pixel_delta`) and a multiple of the median change between consecutive
  frames (the noise floor, measured on every frame);
- *shades told from things* (`shade`): a shadow lying over the board, or the light changing
  there, is the reference scaled evenly (the squares' pattern stands under it): no change, no
  motion, and no hand, though it reaches in from the table beside a hand at rest.  Where the
  squares' edges and the men's rims are seen under it (`shadow`), it is surely a shadow: it
  joins nothing to the arm that casts it; a flat dark colour that only scales like a shade
  (a dark hand over light squares in a dim room) still joins its hand.

Three measures:

- *motion*: the share of the view's pixels (the playing area and the ring) that changed since
  the previous frame;
- *a hand*: what a hand is, a region that enters from outside (it touches the view's outer edge,
  the table beyond the board's border) and covers squares (`MotionConfig.hand_share` of a
  square inside the playing area), differing from the last still board.  An arm reaching over
  the board must cross the ring, so a hand held perfectly still is still seen; a hand resting
  on the border beside the board covers no square and is no hand over the board; a piece moved
  onto an edge square (its side, its shadow) changes the ring's inner half but never reaches
  the table.  A region from the table over the ring alone is a hand *beside* the board (at
  rest, or holding a piece it just lifted off): the watcher waits a little longer for it;
- *covered corners*: the grid's corner points, which men never cover, differing from the still
  board (a hand held still over the middle of the board, its arm's colour the border's).

When the ring differs on all four sides at once, the camera or the board has moved rather than a
hand come in.  The watcher (`vision.pipeline`) turns these into states.

The still reference these are measured against is taken board by board (`settled_view`,
`committed_view`), keeping what reached in from the table; `StillMemory` mends what it kept too
long, from what the board has shown for most of the last seconds.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.locate import BoardLocation, warp, x_corner_scores

#: Pixels per square of the motion view.
MOTION_PX = 8
_RING = 2


@dataclass(frozen=True)
class MotionConfig:
    """Thresholds: a pixel "changed" when a colour channel moved by more than ``pixel_delta``
    beyond the other view's neighbourhood (in a well-exposed picture; less in a dim one,
    `pixel_delta`; more in a noisy one, `noise_delta`); ``motion_share`` of changed board pixels
    means motion; a region differing from the still board that reaches the table beyond the
    border and covers ``hand_share`` of a square inside the playing area is a hand;
    ``intrusion_share`` of a side of the ring differing means that side changed (all four: the
    camera or the board moved); ``corner_points`` neighbouring grid points (of 121) differing
    from the still board mean a hand over the board (the watcher's ``still_s`` without any of
    them means settled, `vision.pipeline.WatchConfig`)."""

    pixel_delta: float = 18.0
    motion_share: float = 0.0015
    hand_share: float = 0.3
    intrusion_share: float = 0.01
    corner_points: int = 3


@dataclass(frozen=True, eq=False)
class MotionSample:
    """One frame's small view and its measures (see the module docstring)."""

    view: np.ndarray
    motion: float
    intrusion: float  # the share of the ring covered by a hand
    changed: np.ndarray  # (10, 10) share of each cell's pixels changed since the still reference
    all_round: bool = False  # the ring differs on all four sides (the camera or board moved)
    corners_changed: int = 0  # largest blob of grid points differing from the still board
    corner_mask: np.ndarray | None = None  # (11, 11) the grid points differing (row, col)
    ring: float = 0.0  # the share of the ring differing from the still board, whatever did it
    hand_mask: np.ndarray | None = None  # (10, 10) cells a hand covers (share of a cell > 0.2)
    beside: bool = False  # a region from the table covers part of the ring (a hand beside the board)
    from_table: np.ndarray | None = None  # the view's pixels of regions reaching in from the table
    beside_change: bool = False  # a hand beside the board within `_NEAR` squares of a change
    hand: bool = False  # a hand over the board (a region from the table over squares)
    diff: np.ndarray | None = None  # the view's pixels that differ from the still board
    board_motion: float = 0.0  # ``motion`` within the playing area alone (the ring left out)
    hand_px: np.ndarray | None = None  # the view's pixels of a hand over the board (no shade)
    moved: np.ndarray | None = None  # the view's pixels changed since the previous frame


def view_point(x: float, y: float) -> tuple[int, int]:
    """The motion view's pixel of a point of the board plane (``x``, ``y`` in squares from the
    playing area's top-left corner, as the view shows it)."""
    return int(round((x + _RING) * MOTION_PX)), int(round((y + _RING) * MOTION_PX))


def cell_shares(pixels: np.ndarray, margin: int = 0) -> np.ndarray | None:
    """(10, 10) the share of each cell's pixels set in a mask of the motion view (ring
    included), in the view's grid; None for a mask of another size.  ``margin``: view pixels
    left out at each side of a cell (its middle alone)."""
    lo, hi = _RING * MOTION_PX, (_RING + 10) * MOTION_PX
    inner = pixels[lo:hi, lo:hi]
    if inner.shape != (10 * MOTION_PX, 10 * MOTION_PX):
        return None
    cells = inner.reshape(10, MOTION_PX, 10, MOTION_PX)
    if margin:
        cells = cells[:, margin:MOTION_PX - margin, :, margin:MOTION_PX - margin]
    return cells.mean(axis=(1, 3))


def reach_shares(table: np.ndarray, squares: float, covers: float) -> np.ndarray:
    """(10, 10) the share of each cell of the playing area within ``squares`` of a region of the
    view's ``table`` mask that comes that close to the playing area but covers no cell of it by
    ``covers`` (an arm that reaches the board's edge and stops there, as far as the camera can
    tell: its hand may be the colour of the border and the squares), measured from the region's
    pixels nearest the board.  A region that covers cells shows where it is; one that stays
    farther off (captured men set down on the table beyond the border) reaches none."""
    px = max(1, int(round(squares * MOTION_PX)))
    lo, hi = _RING * MOTION_PX, (_RING + 10) * MOTION_PX
    near = np.zeros_like(table, dtype=bool)
    near[max(0, lo - px):hi + px, max(0, lo - px):hi + px] = True
    _, labels = cv2.connectedComponents(table.astype(np.uint8), connectivity=8)
    edge = np.zeros_like(table, dtype=bool)
    for c in np.unique(labels[table & near]):
        region = labels == c
        if c and cell_shares(region).max() <= covers:
            edge |= region & near
    if not edge.any():
        return np.zeros((10, 10))
    k = 2 * px + 1
    return cell_shares(cv2.dilate(edge.astype(np.uint8), np.ones((k, k), np.uint8)))


def small_view(frame: np.ndarray, location: BoardLocation | np.ndarray) -> np.ndarray:
    """The colour top-down view of the playing area plus the ring (float32 BGR; colour, since a
    hand can be as light as the border it covers) of a `BoardLocation` or a grid->image
    homography."""
    view = warp(frame, location, MOTION_PX, -_RING, 10 + _RING, cv2.INTER_AREA)
    return cv2.GaussianBlur(view, (3, 3), 0).astype(np.float32)


#: The median brightness (0-255) of a well-exposed view, for which ``pixel_delta`` is meant,
#: and the smallest share of it a dim picture's threshold keeps.
_EXPOSED = 100.0
_DIM_FLOOR = 0.35
#: A pixel's change counts only beyond this many times the median change of the playing area's
#: pixels since the previous frame (most of them unchanged: the camera's noise).  A noisy, dim
#: picture otherwise showed "motion" on every frame and never settled.
_NOISE_TIMES = 4.0
#: Exposure gains further than this from 1 are not a drift of the auto-exposure but a change of
#: the light (or a hand over most of the view): not normalised away.
_GAIN_LIMIT = 0.25


def settled_view(view: np.ndarray, still: np.ndarray | None,
                 from_table: np.ndarray | None = None) -> np.ndarray:
    """The still reference once the board in ``view`` has settled: the view, with the ring's
    outer half, and whatever reaches in from the table (``from_table``: a hand resting beside
    the board), kept from the previous ``still``.  Only the pieces change the board and the
    ring's inner half; a hand at rest would otherwise become part of the reference, and its
    leaving a change.  A lasting change of the outer half (the light) is taken as any other
    (`vision.pipeline` takes a change that stays still long enough as the board)."""
    if still is None or still.shape != view.shape:
        return view
    out = view.copy()
    keep = _outer_mask() if from_table is None else _outer_mask() | from_table
    out[keep] = still[keep]
    return out


#: What `committed_view` keeps of the previous still reference is made whole: gaps up to this
#: many view pixels closed (a piece's rim under a shadow), then grown by half this (its soft edge).
_KEEP_CLOSE = 7
_KEEP_GROW = 5


def committed_view(view: np.ndarray, still: np.ndarray | None, config: MotionConfig,
                   noise: float | None, moved: np.ndarray | None = None) -> np.ndarray:
    """The still reference once the board in ``view`` is taken as the game's (settled, or seen
    in passing between moves): `settled_view`, also keeping the previous ``still`` wherever
    ``view`` itself shows a region reaching in from the table (an arm, a hand at the board's
    edge) or a shade (a shadow passing over the board): neither is what stands on the board.
    But ``moved`` (the view's pixels where the pieces that moved stand or stood) always comes
    from ``view``: a man moved under an arm's shadow joins the shadow's region.
    At quick play a board is taken in passing while an arm is still on its way back over the
    border and its shadow lies over a row of squares; taken into the reference, the shadow's
    leaving looked like an arm reaching in over the squares, a hand over the board on every
    frame from then on, and nothing was recorded for ten moves (the other renderer's
    lidraughts-2)."""
    if still is None or still.shape != view.shape:
        return view
    reference = still * exposure_gain(view, still)
    light = pixel_delta(config, still)
    delta = change_delta(view, None, still, config, noise, light)
    change = tolerant_change(view, reference)
    diff = change > delta
    if not diff.any():
        return settled_view(view, still)
    lum = brightness(view), brightness(reference)
    shaded = shade(view, reference, delta, lum)
    _, _, table = _hands(diff, config, shaded)
    joined = _joined_faintly(change, diff, shaded, delta, light, config)
    if joined is not None:  # (a faint arm's own pixels aside)
        table |= joined[1] & ~joined[2]
    # a shade is kept out only where it darkens the board: where the view is the lighter, the
    # shade lay in the previous reference (kept from a board taken under it), and the view is
    # the board in its own light.  Kept on, under one lamp at quick play the arms' shadows
    # piled up in the reference board after board, until a third of the board differed from
    # it on every frame as a hand (the other renderer's selfplay-30 at seed 5757004)
    darkened = shaded & _darker(lum)
    # whole: a piece's rim under the shadow, a gap in an arm, are not the board either
    keep = cv2.dilate(cv2.morphologyEx((table | (diff & darkened)).astype(np.uint8),
                                       cv2.MORPH_CLOSE, np.ones((_KEEP_CLOSE, _KEEP_CLOSE), np.uint8)),
                      np.ones((_KEEP_GROW, _KEEP_GROW), np.uint8)).astype(bool)
    if moved is not None and moved.shape == keep.shape:
        keep &= ~moved
        if (moved & diff & shaded).any():
            view = _unshaded(view, reference, moved, diff & ~shaded)
    return settled_view(view, still, keep)


#: The window (view pixels) over which `_unshaded` measures a shade's darkening round the
#: pieces that moved: two squares, the squares' pattern in it.
_UNSHADE_WINDOW = 17
#: The darkening (or brightening) `_unshaded` undoes at most, as a brightness ratio.
_UNSHADE_RANGE = (0.25, 2.0)


def _unshaded(view: np.ndarray, reference: np.ndarray, moved: np.ndarray,
              changed: np.ndarray) -> np.ndarray:
    """``view`` with the pixels of the pieces that moved (``moved``) brought back to the still
    reference's light: divided by the brightness ratio of the view to the ``reference`` round
    them, measured over `_UNSHADE_WINDOW` on the pixels neither moved nor ``changed`` otherwise
    (a shade's, or nothing's).  A man moved under an arm's shadow, taken into the reference as
    the shadow showed him, was a dark patch there once the shadow left: no shade of the board
    round it, so a change of the board's own, which the next arm's shadow joined to the table
    as a hand over the board on every frame; at quick play under one lamp, 17 plies went by
    unseen (the other renderer's selfplay-30 at seed 5757004)."""
    use = (~moved & ~changed).astype(np.float32)
    k = (_UNSHADE_WINDOW, _UNSHADE_WINDOW)
    weight = cv2.blur(use, k)
    lum_v = cv2.blur(brightness(view) * use, k)
    lum_r = cv2.blur(brightness(reference) * use, k)
    ratio = np.where((weight > 0.05) & (lum_r > _SHADE_DARK * weight),
                     lum_v / np.maximum(lum_r, 1e-6), 1.0)
    ratio = np.clip(ratio, *_UNSHADE_RANGE).astype(np.float32)
    out = view.copy()
    out[moved] = view[moved] / ratio[moved][:, None]
    return out


def pixel_delta(config: MotionConfig, still: np.ndarray) -> float:
    """The change of a view pixel that counts, for the light of the ``still`` view: in a dim
    picture every contrast shrinks with the light, a hand's against the border's too."""
    level = float(np.median(still[::2, ::2]))
    return config.pixel_delta * float(np.clip(level / _EXPOSED, _DIM_FLOOR, 1.0))


def noise_delta(view: np.ndarray, previous: np.ndarray) -> float:
    """The camera's noise floor between two consecutive views, as a change that counts: a
    multiple of the median change of the playing area's pixels (a quarter of them tell)."""
    inner = ~_ring_mask()
    d = np.abs(view - previous)
    change = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])[inner][::4]
    return _NOISE_TIMES * float(np.median(change))


#: Frames over which the noise floor is the least one measured: about two seconds.
_NOISE_FRAMES = 20


class NoiseFloor:
    """The camera's noise floor over the last `_NOISE_FRAMES` frames, as a change that counts:
    the least of their `noise_delta`.  One frame's own is no measure when an arm covers most of
    the board: the median change is then the arm's, every threshold rose above it, and a frame
    with the arm over half the board showed no motion and no hand (the board was read under
    it).  The camera's noise changes only with the light, slowly."""

    def __init__(self) -> None:
        self._recent: deque[float] = deque(maxlen=_NOISE_FRAMES)

    def update(self, view: np.ndarray, previous: np.ndarray | None) -> float | None:
        """This frame's change against ``previous``, kept; the floor (None before any)."""
        if previous is not None and previous.shape == view.shape:
            self._recent.append(noise_delta(view, previous))
        return min(self._recent) if self._recent else None


class StillMemory:
    """Mends the still reference from the board's recent past: wherever the view shows what
    the views sampled over the last `span_s` seconds (every `_MEMORY_EVERY_S`) showed at least
    `_MEMORY_SHARE` of the time, and they did not show what the still reference shows as often,
    the reference is stale there and takes the view.  In the ring around the board only where
    the view also shows the ring as it was when the board was learnt (``bare``), a shade aside.

    The still reference is put together board by board, each time keeping what reached in from
    the table (an arm, its shadow, a spectator's shade) from the one before (`committed_view`):
    at quick play, under passing shades, those patches and their seams outlived what made them,
    and a region of them touching the table was a hand over the board on every frame, while
    every real hand's motion kept the board from standing still long enough to take it as the
    board.  Nothing was recorded for 30-45 s in three of the 40 games at seed 202 (lidraughts-7
    at 202016: from ply 22 to the game's end).  A hand passing, a piece carried, a shade
    walking by are never learnt; a hand resting beside the board between moves is there much
    of the time, but not three quarters of it, and never looks like the bare ring (learnt from
    what the view showed half the time, it was, and its next resting place was a hand over the
    board)."""

    def __init__(self, span_s: float) -> None:
        # (view, its colour channels' medians), one a `_MEMORY_EVERY_S`
        self._views: deque[tuple[np.ndarray, np.ndarray]] = deque(
            maxlen=max(2, int(round(span_s / _MEMORY_EVERY_S))))
        self._sampled: float | None = None
        self.bare: np.ndarray | None = None

    def clear(self, bare: np.ndarray | None = None) -> None:
        """Forget the past (the board was found elsewhere, or learnt again: ``bare`` is the view
        it was learnt from)."""
        self._views.clear()
        self._sampled = None
        if bare is not None:
            self.bare = bare

    def mend(self, view: np.ndarray, still: np.ndarray, time: float, config: MotionConfig,
             noise: float | None) -> np.ndarray:
        """``still``, mended where it is stale (`StillMemory`); the view is sampled when due."""
        if self._views and self._views[-1][0].shape != view.shape:
            self.clear()
        if self._sampled is not None and time - self._sampled < _MEMORY_EVERY_S - 1e-9:
            return still
        self._sampled = time
        past = list(self._views)
        level = np.median(view[::3, ::3].reshape(-1, 3), axis=0)
        self._views.append((view, level))
        # before the span is full, only what hid the board in the reference (`_EARLY_SAMPLES`)
        early = len(past) + 1 < self._views.maxlen
        if early:
            if len(past) + 1 < _EARLY_SAMPLES:
                return still
            past = past[-(_EARLY_SAMPLES - 1):]
        if still.shape != view.shape:
            return still
        delta = change_delta(view, None, still, config, noise)
        reference = still * exposure_gain(view, still)
        stale = tolerant_change(view, reference) > delta
        if early and stale.any():
            # a shade that darkens the board hid nothing the reference showed: it has come
            # since.  The arm of a hand resting beside the board before the first move cast its
            # shadow over a dozen squares for the three samples, and the soft shadow's edge
            # scored two grid corners more than the reference: learnt as the board, the shadow
            # lay in the reference ever after, a hand over the board on every still frame once
            # it had gone (its squares unread), and the record stopped at ply 23 of 30 (the
            # other renderer's selfplay-6 at seed 6262001)
            lum = brightness(view), brightness(reference)
            stale &= ~(shade(view, reference, delta, lum) & _darker(lum))
        if not stale.any():
            return still
        changed = stale.copy()
        ring = _ring_mask()
        set_down = None if early else _set_down(view, reference, level, past, stale, ring, delta)
        if set_down is not None and not set_down.any():
            set_down = None
        # (early, the bare ring is the same picture as the reference: stale with it)
        if not early and (self.bare is None or self.bare.shape != view.shape):
            stale &= ~ring
        elif not early and (stale & ring).any():
            bare = self.bare * exposure_gain(view, self.bare)
            across = ring & (tolerant_change(view, bare) > delta) & ~shade(view, bare, delta)
            stale &= ~ring | ~across
            if across.any():
                stale &= ~_lying_over(view, still, across, config, noise)
        if set_down is not None:
            stale &= ~set_down  # (taken below, however seldom the samples showed it)
        if stale.any():
            stale = _often(view, reference, level, past, stale, delta, early)
        if set_down is not None:
            stale |= set_down
        if early and stale.any():
            stale = _uncovering(view, reference, changed, stale)
        if not stale.any():
            return still
        out = still.copy()
        out[stale] = view[stale]
        if early and self.bare is not None and self.bare.shape == view.shape:
            self.bare = self.bare.copy()
            self.bare[stale & ring] = view[stale & ring]
        return out


def _often(view: np.ndarray, reference: np.ndarray, level: np.ndarray, past: list,
           stale: np.ndarray, delta: float, early: bool) -> np.ndarray:
    """``stale`` where the samples (`StillMemory`) showed what the view shows, and not what the
    still reference shows, often enough (`_MEMORY_SHARE` of them; all of them ``early``)."""
    # (within the stale pixels' bounding box, a pixel's neighbours with them: usually a
    # patch of the board, and this is done once a second)
    ys, xs = np.nonzero(stale)
    box = (slice(max(ys.min() - 1, 0), ys.max() + 2), slice(max(xs.min() - 1, 0), xs.max() + 2))
    here, kept = view[box], reference[box]
    # how many of the samples show what the view shows, and how many not what the still
    # reference shows: in a dim room a dark sleeve differs from the squares under it by
    # little more than the threshold, and was learnt where it passed often
    alike = np.ones(here.shape[:2], dtype=np.int32)  # the view itself
    unlike = np.ones(here.shape[:2], dtype=np.int32)
    for before, was in past:
        # the exposure's drift between them, as the ratio of their channels' medians
        gain = np.clip(level / np.maximum(was, 1.0), 1 - _GAIN_LIMIT, 1 + _GAIN_LIMIT)
        before = before[box] * gain.astype(np.float32)
        alike += tolerant_change(here, before) <= delta
        unlike += tolerant_change(before, kept) > delta
    need = len(past) + 1 if early else _MEMORY_SHARE * (len(past) + 1)
    out = stale.copy()
    out[box] &= (alike >= need) & (unlike >= need)
    return out


#: The samples (`_MEMORY_EVERY_S` apart, the view among them) through which something beside the
#: board must have stood unchanged for `StillMemory` to learn it (`_set_down`), and how thick (view
#: pixels from its edge to its core) it must be at least: a man is a disc of 7 view pixels.
_SET_DOWN_SAMPLES = 3
_SET_DOWN_CORE_PX = 2.0


def _set_down(view: np.ndarray, reference: np.ndarray, level: np.ndarray, past: list,
              stale: np.ndarray, ring: np.ndarray, delta: float) -> np.ndarray | None:
    """The ring's pixels where the still reference is stale (``stale``) because something was
    set down beside the board, or taken away, and stayed so: unchanged through the last
    `_SET_DOWN_SAMPLES` samples, in regions of change that touch no square.  Captured men laid
    in a row on the table a little beyond the border stay there for the rest of the game, never
    as the bare ring was: learnt only so (`StillMemory`), they were something beside the board on
    every frame, and a change beside every square near them (the other renderer's selfplay-21 at
    seed 6565004; `renderer.sequence.Pace.lay_aside`).  A hand resting beside the board that
    lies still as long is learnt too, and its leaving is motion, then learnt back; a hand whose
    fingers reach over a square, an arm across the board, a shade over it touch squares and are
    never learnt so, nor is a region across the whole ring from the table to the board (an arm
    whose hand lies unseen on squares of its own colour).  Nor is a shade (the table under
    another light: under one lamp the arms' shadows sweep the ring, and learnt, each shadow's
    leaving was a change beside the board; the other renderer's selfplay-30 at seed 5757004
    recorded nothing for 17 s so), nor a change with no core (`_SET_DOWN_CORE_PX`: a shadow's
    or a reflection's edge).  None when there are too few samples yet."""
    if len(past) < _SET_DOWN_SAMPLES - 1 or not (stale & ring).any():
        return None
    # (gaps of a pixel bridged, as `_from_table` does: an arm's colour may match the border's)
    bridged = cv2.dilate(stale.astype(np.uint8), np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(bridged, connectivity=8)
    inner = labels[~ring & stale]
    touching = np.unique(inner[inner > 0])
    # a region across the whole ring, from the table to the board's rim, is an arm lying over
    # the border: where its hand lies over the squares it may differ from them too little to be
    # seen (skin on cream squares), and the region touched no square.  Learnt, the arm's hand
    # was no longer tied to the table, became part of the board with the next board taken, and
    # the men under it read as empty squares for 20 s (our renderer's selfplay-19 at 8282001)
    across = np.intersect1d(labels[_rim_mask() & stale], labels[_edge_mask() & stale])
    touching = np.union1d(touching, across[across > 0])
    out = stale & ring
    if touching.size:
        out &= ~np.isin(labels, touching)
    if not out.any():
        return out
    out &= ~shade(view, reference, delta)
    if not out.any():
        return out
    for before, was in past[-(_SET_DOWN_SAMPLES - 1):]:
        if not out.any():
            return out
        gain = np.clip(level / np.maximum(was, 1.0), 1 - _GAIN_LIMIT, 1 + _GAIN_LIMIT)
        out &= tolerant_change(view, before * gain.astype(np.float32)) <= delta
    if not out.any():
        return out
    # (what stood unchanged, each part with a core of its own)
    count, labels = cv2.connectedComponents(out.astype(np.uint8), connectivity=8)
    core = cv2.distanceTransform(np.pad(out.astype(np.uint8), 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    thick = np.zeros(count, dtype=bool)
    thick[labels[core >= _SET_DOWN_CORE_PX]] = True
    thick[0] = False
    return out & thick[labels]


#: The fewest cells a hand's own pixels (no shade) must cover for `StillMemory` to keep it out
#: as an arm lying across the board: a king moved to an edge square reaches into the ring with its
#: side and shadow over two or three cells, and must be learnt (the board changed there).
_LYING_CELLS = 6


def _lying_over(view: np.ndarray, still: np.ndarray, across: np.ndarray, config: MotionConfig,
                noise: float | None) -> np.ndarray:
    """The view's pixels `StillMemory` must not learn over the board where something reaches in
    from the table across ``across`` (pixels of the ring unlike the bare ring, and no shade):
    over the ring the regions from the table, over the board the hand's own pixels and the
    cells they cover with their neighbours two deep (the memory's change that counts is not
    the hand finder's, and a region's edges and gaps would be learnt).  An arm lying across the
    board for nine plies of quick play, shown three quarters of the time, was learnt over the
    squares: the men under it read as empty squares and the record stopped (the system bench's
    selfplay-26 at seed 6464000)."""
    sample = measure(view, None, still, config, noise)
    none = np.zeros(view.shape[:2], dtype=bool)
    table, own = sample.from_table, sample.hand_px
    if not sample.hand or table is None or own is None or not (table & across).any():
        return none
    # over the board the arm's own pixels, not its shade: a shadow the arm casts on the squares
    # is learnt (it lies there for plies, the squares are read under it), the arm itself never
    # is; over the ring all of it (a shade learnt there is a change once the arm has gone)
    cells = _cells(own) > 0.2
    if cells.sum() < _LYING_CELLS:
        return none
    grown = cv2.dilate(cells.astype(np.uint8), np.ones((5, 5), np.uint8))
    keep = own | (table & _ring_mask())
    w = _RING * MOTION_PX
    keep[w:-w, w:-w] |= np.kron(grown, np.ones((MOTION_PX, MOTION_PX), np.uint8)).astype(bool)
    return keep


#: View pixels (of `MOTION_PX`) left out at each side of a light square for its middle
#: (`bare_light`): no piece reaches it (a king's side and top, under a camera 45 degrees off
#: vertical, reach 0.83 of a square from its own square's centre; the middle begins 0.75 away).
_LIGHT_MARGIN = 2


@cache
def light_middles(dark_parity: int) -> np.ndarray:
    """The motion view's pixels of the light squares' middles (`_LIGHT_MARGIN`), for a board
    whose dark squares have ``dark_parity`` (row plus column, as the view shows them; built
    once: read only)."""
    size = (10 + 2 * _RING) * MOTION_PX
    mask = np.zeros((size, size), dtype=bool)
    middle = np.zeros((MOTION_PX, MOTION_PX), dtype=bool)
    middle[_LIGHT_MARGIN:MOTION_PX - _LIGHT_MARGIN, _LIGHT_MARGIN:MOTION_PX - _LIGHT_MARGIN] = True
    light = (np.add.outer(np.arange(10), np.arange(10)) % 2) != dark_parity
    w = _RING * MOTION_PX
    mask[w:-w, w:-w] = np.kron(light, middle).astype(bool)
    mask.flags.writeable = False
    return mask


def bare_light(view: np.ndarray, still: np.ndarray, bare: np.ndarray | None, dark_parity: int,
               config: MotionConfig, noise: float | None) -> np.ndarray:
    """``still``, its light squares' middles (`light_middles` of ``dark_parity``) taken from ``view``
    wherever the view shows them as the ``bare`` board (the view the board was learnt from)
    shows them and ``still`` does not.  No piece ever stands there, and what covers them (a
    hand, an arm, its shadow) never looks like the bare board: the view is the board itself
    there, and the still reference is stale.  It went stale so under one lamp at quick play,
    board after board taken while the arms' shadows swept over it, until its light squares
    were patches of old shadows: a "hand" over the board on every frame (`measure`, and
    `vision.pipeline`'s unseen hand over light squares), held even over 1.3 s of a board
    standing perfectly still, and nothing was recorded after the fourth ply (the other
    renderer's selfplay-21 at seed 6565004).  (Measured on the light middles' pixels alone, the
    exposure's drift too, and only once they differ from the still board at all: run on every
    frame, it costs a few hundredths of a millisecond on most.)"""
    if bare is None or bare.shape != view.shape or still.shape != view.shape:
        return still
    at = _light_index(dark_parity)
    here = view.reshape(-1, 3)[at]
    kept = still.reshape(-1, 3)[at]
    # most frames: no light middle differs from the still board by the least change that can
    # count (the dimmest light's, or the noise's), pixel by pixel, over half a middle's pixels
    least = max(config.pixel_delta * _DIM_FLOOR, noise or 0.0)
    if np.count_nonzero(np.abs(here - kept).max(axis=1) > least) < _LIGHT_STALE_PX:
        return still
    delta = change_delta(view, None, still, config, noise)
    stale = _outside(here, still, at, _light_gain(here, kept)) > delta
    if not stale.any():
        return still
    was = bare.reshape(-1, 3)[at]
    stale &= _outside(here, bare, at, _light_gain(here, was)) <= delta
    if not stale.any():
        return still
    out = still.copy()
    flat = out.reshape(-1, 3)
    flat[at[stale]] = here[stale]
    return out


#: The fewest light-middle pixels that must differ from the still board for `bare_light` to look
#: further: half of one middle (a stale patch covers whole middles; the noise, a pixel here and
#: there).
_LIGHT_STALE_PX = (MOTION_PX - 2 * _LIGHT_MARGIN) ** 2 // 2


@cache
def _light_index(dark_parity: int) -> np.ndarray:
    """The flat pixel indices of `light_middles` (built once: read only)."""
    index = np.flatnonzero(light_middles(dark_parity))
    index.flags.writeable = False
    return index


def _light_gain(here: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """`exposure_gain` over the light middles' pixels (``here`` against ``kept``, n x 3; every
    other one tells as well, in half the time)."""
    return _gain(here[::2], kept[::2])


def _outside(here: np.ndarray, reference: np.ndarray, at: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """`tolerant_change` of the pixels ``here`` (n x 3, at flat indices ``at``) against the
    ``reference`` view scaled by ``gain``."""
    lo, hi = _range(reference)
    lo, hi = lo.reshape(-1, 3)[at] * gain, hi.reshape(-1, 3)[at] * gain
    d = np.maximum(lo - here, here - hi)
    return np.maximum(d.max(axis=1), 0.0)


#: How often `StillMemory` samples the view (seconds), and the share of the samples that must
#: show what the view shows.
_MEMORY_EVERY_S = 1.0
_MEMORY_SHARE = 0.75
#: Until the span is full (just after the board was learnt or found again), the reference is
#: mended only where it shows what none of the last this many samples showed, each of them
#: showed what the view shows, and the view uncovers the board's grid there (`_uncovering`):
#: the picture the board was learnt from had a hand hovering still over it, and that hand was a
#: hand over the board on every frame for the twelve seconds the span took to fill, four plies
#: of a quick game (the system bench's selfplay-14 at seed 606017).  A hand held still over the
#: board since hides corners the reference shows, or none that men seen obliquely did not hide
#: already: it is never learnt so.
_EARLY_SAMPLES = 3


#: A grid point's checker-corner score (`vision.locate.x_corner_scores`) that shows it, and the
#: score at or under which nothing of it is seen (an edge or a flat patch: a hand, a man's side).
_CORNER_SHOWN = 0.3
_CORNER_HIDDEN = 0.0


def _uncovering(view: np.ndarray, reference: np.ndarray, changed: np.ndarray,
                learn: np.ndarray) -> np.ndarray:
    """``learn`` (the view's pixels the young memory would take), only in those regions of
    ``changed`` (the view's change from the ``reference``, gaps of a pixel bridged) near which
    the view shows a grid corner (of the inner 9 x 9) that the reference does not, and hides
    none that the reference shows: what hid the board in the reference has gone there, and
    nothing has come over it.  Each region is judged on its own corners: counted over all of
    them at once, the squares of men captured elsewhere showed more corners than the
    reference, and a hand resting over men, where their sides already hid the corners under
    a camera 44 degrees off vertical, was learnt as the board: no hand from then on, the men
    under it read (one surely empty), and no ply of the game recorded (the system bench's
    selfplay-20 at seed 7474006)."""
    n, labels = cv2.connectedComponents(cv2.dilate(changed.astype(np.uint8),
                                                   np.ones((3, 3), np.uint8)), connectivity=8)
    wanted = np.unique(labels[learn])
    wanted = wanted[wanted > 0]
    if not wanted.size:
        return np.zeros_like(learn)
    idx = _RING * MOTION_PX + np.arange(1, 10) * MOTION_PX
    grid = idx[:, None], idx[None, :]
    now = x_corner_scores(view, MOTION_PX, 11, _RING * MOTION_PX)[1:10, 1:10]
    was = x_corner_scores(reference, MOTION_PX, 11, _RING * MOTION_PX)[1:10, 1:10]
    shown = (now > _CORNER_SHOWN) & (was <= _CORNER_SHOWN)
    hidden = (was > _CORNER_SHOWN) & (now <= _CORNER_HIDDEN)
    keep = np.zeros(n, dtype=bool)
    for c in wanted:
        # (the grid points within a square's quarter of the region)
        near = cv2.dilate(((labels == c) & changed).astype(np.uint8),
                          np.ones((5, 5), np.uint8)).astype(bool)[grid]
        keep[c] = bool(np.any(near & shown)) and not np.any(near & hidden)
    return learn & keep[labels]


def _darker(lum: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Where the first of two views' `brightness` is the darker, each averaged over the shade's
    finer window (`_SHADE_WINDOWS`): with `shade`, a shadow that came since the second."""
    w = (_SHADE_WINDOWS[0],) * 2
    return cv2.blur(lum[0], w) < cv2.blur(lum[1], w)


def exposure_gain(view: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per colour channel, the median ratio of ``view`` to ``reference`` (the auto-exposure and
    white balance drift between them), clipped to ``1 +- _GAIN_LIMIT``; robust to a hand or the
    moved pieces, which change far fewer than half the pixels."""
    return _gain(view[::3, ::3].reshape(-1, 3), reference[::3, ::3].reshape(-1, 3))


def _gain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`exposure_gain` of pixels ``a`` against ``b`` (n x 3 each)."""
    ok = b.min(axis=1) > 8.0  # ratios of near-black pixels are noise
    if int(ok.sum()) < 50:
        return np.ones(3, dtype=np.float32)
    gain = np.median(a[ok] / b[ok], axis=0)
    return np.clip(gain, 1 - _GAIN_LIMIT, 1 + _GAIN_LIMIT).astype(np.float32)


def brightness(view: np.ndarray) -> np.ndarray:
    """Per pixel, the mean of the colour channels (float32; a reduction over an axis of three
    is several times slower than adding the channels)."""
    v = view if view.dtype == np.float32 else view.astype(np.float32)
    out = v[..., 0] + v[..., 1]
    out += v[..., 2]
    out *= np.float32(1.0 / 3.0)
    return out


def tolerant_change(view: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per pixel, how far ``view`` lies outside the range its ``reference`` takes in the pixel's
    3 x 3 neighbourhood (largest over the colour channels; 0 inside it): a view shifted or turned
    by up to a pixel against its reference, as a shaking camera gives, changes nothing, while a
    colour the neighbourhood never had (a hand, a piece, a shadow) does."""
    lo, hi = _range(reference)
    d = np.maximum(lo - view, view - hi)
    # the channels' largest one by one: a reduction over an axis of three is several times slower
    d = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
    return np.maximum(d, 0.0, out=d)


def _range(reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The least and the greatest of each pixel's 3 x 3 neighbourhood in ``reference``."""
    kernel = np.ones((3, 3), np.uint8)
    return cv2.erode(reference, kernel), cv2.dilate(reference, kernel)


#: The windows (view pixels, of `MOTION_PX` a square) over which a shade's darkening is taken
#: as even: under half a square (a shadow's soft edge) and two squares (the squares' pattern,
#: light and dark, in every window).
_SHADE_WINDOWS = (5, 17)
#: Below this brightness (0-255) a view pixel's ratio to another is noise: no shade is told there.
_SHADE_DARK = 12.0


def shade(view: np.ndarray, reference: np.ndarray, delta: float,
          lum: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Per pixel, whether ``view`` is ``reference`` under another light: the reference scaled by
    its local brightness ratio (the same in every colour channel) explains it, within ``delta``
    beyond the scaled reference's 3 x 3 neighbourhood (`tolerant_change`), the ratio taken over
    each of `_SHADE_WINDOWS`.  A shadow (an arm's or a passer-by's, from one low lamp, long and
    dark across the board), a lamp switched on: the squares' pattern stands under it, only
    darker or lighter, and the ratio over two squares is the ratio over half of one.  A hand, a
    sleeve, a piece bring a colour no scaling of the reference gives, or a flat colour over the
    squares' pattern (a hand's skin over brown squares is their colour scaled, square by square,
    but not over light and dark squares alike).  The arm of a hand resting beside the board
    cast its shadow over a third of the squares under one lamp: that was a hand over the
    board, for seconds on end, and no board was read between moves at quick play.  ``lum``:
    the two views' `brightness`, when the caller has them."""
    lum_v, lum_r = lum if lum is not None else (brightness(view), brightness(reference))
    out = lum_r > _SHADE_DARK
    for w in _SHADE_WINDOWS:
        ratio = cv2.blur(lum_v, (w, w)) / np.maximum(cv2.blur(lum_r, (w, w)), _SHADE_DARK)
        out &= tolerant_change(view, reference * ratio[..., None]) <= delta
    return out


#: The window (view pixels) over which `shadow` compares the view's pattern with the still
#: board's: under a square, so the pattern is a square's edge, a piece's rim, the grain.
_PATTERN_WINDOW = 5
#: ... and the window (over a square) in which the pixels that show a pattern decide for the
#: pixels round them that show none (a square's flat middle).
_PATTERN_SPREAD = 9
#: A pattern counts where the still board's brightness varies over `_PATTERN_WINDOW` by at least
#: this share of the change that counts; it is seen under a shade where the view's correlates
#: with it by `_PATTERN_KEPT` or more, and its contrast is at least `_CONTRAST_KEPT` of the
#: board's scaled by the shade.
_PATTERN_SHARE = 0.5
_PATTERN_KEPT = 0.8
_CONTRAST_KEPT = 0.5
#: The share of the pattern pixels round a pixel that must show it kept.
_KEPT_SHARE = 0.7
#: How far (view pixels) a shadow's pixels join a change to another (`_hands`): a shadow
#: stretching on across the board joins nothing beyond that.
_SHADE_JOINS_PX = 2


def shadow(view: np.ndarray, reference: np.ndarray, shaded: np.ndarray, delta: float,
           lum: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The pixels of ``shaded`` (`shade`) where the squares' pattern is seen under the shade:
    a shadow, not a flat colour near a scaling of the squares'.  The view's brightness
    correlates with the still board's over `_PATTERN_WINDOW` (`_PATTERN_KEPT`) and keeps its
    contrast in proportion to the shade's darkening (`_CONTRAST_KEPT`), on most of the pattern
    pixels round it (`_KEPT_SHARE` of them, over `_PATTERN_SPREAD`).  An arm's shadow from one
    low lamp keeps the squares' edges, the men's rims, the grain, only darker (correlation 0.95
    and more, its contrast the darkening's); a dark hand over light squares in a dim room looks
    like a shade of them pixel by pixel, but its flat colour hides them (correlation under 0.6,
    its contrast a fifth of the darkening's).  ``lum``: as `shade`'s."""
    if not shaded.any():
        return np.zeros_like(shaded)
    lv, lr = lum if lum is not None else (brightness(view), brightness(reference))
    k = (_PATTERN_WINDOW, _PATTERN_WINDOW)
    mv, mr = cv2.blur(lv, k), cv2.blur(lr, k)
    vv = np.maximum(cv2.blur(lv * lv, k) - mv * mv, 0.0)
    vr = np.maximum(cv2.blur(lr * lr, k) - mr * mr, 0.0)
    cov = cv2.blur(lv * lr, k) - mv * mr
    pattern = vr >= (_PATTERN_SHARE * delta) ** 2
    ratio = mv / np.maximum(mr, _SHADE_DARK)
    kept = (pattern & (cov >= _PATTERN_KEPT * np.sqrt(vv * vr))
            & (vv >= (_CONTRAST_KEPT * ratio) ** 2 * vr))
    s = (_PATTERN_SPREAD, _PATTERN_SPREAD)
    seen = cv2.blur(pattern.astype(np.float32), s)
    share = cv2.blur(kept.astype(np.float32), s) / np.maximum(seen, 1e-6)
    return shaded & (seen > 0) & (share >= _KEPT_SHARE)


@cache
def _ring_mask(inside: int = 0) -> np.ndarray:
    """The ring around the playing area, and ``inside`` pixels of the playing area's rim (built
    once: read only)."""
    size = (10 + 2 * _RING) * MOTION_PX
    mask = np.ones((size, size), dtype=bool)
    a, b = _RING * MOTION_PX + 1 + inside, (10 + _RING) * MOTION_PX - 1 - inside
    mask[a:b, a:b] = False
    mask.flags.writeable = False
    return mask


@cache
def _outer_mask() -> np.ndarray:
    """The ring's outer half: farther than half the ring's width from the board (built once:
    read only)."""
    size = (10 + 2 * _RING) * MOTION_PX
    mask = np.ones((size, size), dtype=bool)
    half = _RING * MOTION_PX // 2
    mask[half:size - half, half:size - half] = False
    mask.flags.writeable = False
    return mask


#: The far part of the ring (view pixels, of `MOTION_PX`): a king's side and shadow on an edge
#: square reach under half a square into the ring, an arm crosses all of it.
_EDGE_PX = 3
#: A change this many squares wide that covers at least `_RING_COVER` of a square in the ring is
#: an arm's: a piece moved onto or off an edge square, with its side and shadow, and its diagonal
#: neighbour span two squares, two and a half under a camera 45 degrees off vertical, but cover
#: a fifth of a square of the ring at most (an arm over the edge squares covers two squares'
#: worth).  By its span alone, a man stepping off square 35 was a hand until the next move: the
#: system bench's selfplay-57 at seed 404007 and selfplay-53 at 404005 judged an irregular reply
#: from the board before that move, or did not name it.
_WIDE = 2.5
_RING_COVER = 0.5


#: How near the playing area (view pixels) a region of the ring reaches to reach the board: the
#: ring's innermost pixel is the playing area's rim, and a hand's skin over a light edge square
#: may differ from it too little there.  The ring is 16 pixels wide, a man 7: no man laid aside
#: spans it from the table to within this of the board.
_RIM_PX = 3


@cache
def _rim_mask() -> np.ndarray:
    """The ring's pixels within `_RIM_PX` of the playing area: where the board begins (built
    once: read only)."""
    ring = _ring_mask()
    k = 2 * _RIM_PX + 1
    near = cv2.dilate((~ring).astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
    mask = ring & near
    mask.flags.writeable = False
    return mask


@cache
def _edge_mask() -> np.ndarray:
    """The view's outermost `_EDGE_PX` pixels all round: the far part of the ring, beyond the
    board's border, where every arm comes from and no piece's side or shadow reaches (built
    once: read only)."""
    size = (10 + 2 * _RING) * MOTION_PX
    mask = np.ones((size, size), dtype=bool)
    mask[_EDGE_PX:-_EDGE_PX, _EDGE_PX:-_EDGE_PX] = False
    mask.flags.writeable = False
    return mask


def _hands(diff: np.ndarray, config: MotionConfig, shaded: np.ndarray | None = None,
           shadow: np.ndarray | None = None) -> tuple[np.ndarray, bool, np.ndarray]:
    """The pixels of ``diff`` (changed from the still board) that belong to a hand over the
    board: regions that touch the view's outer edge and cover at least ``hand_share`` of a
    square inside the playing area; and whether a region from the edge covers that much of the
    ring alone (a hand beside the board: at rest, or holding a piece just lifted off it).  Gaps
    of a pixel are bridged (an arm's colour may match the border's here and there).  Third, the
    pixels of every region from the table, hand or not, however far its shade reaches (the
    still reference never learns them).
    ``shaded``: the pixels a shade explains (`shade`): they join regions but cover nothing (a
    resting hand's shadow over the squares is no hand over them; a hand's own pixels that look
    like a shade of the squares they cover are still its own).  ``shadow``: those of them where
    the squares' pattern is seen under the shade (`shadow`): which regions are hands is judged
    with them joining only within `_SHADE_JOINS_PX` of a change's own pixels (an arm at rest is
    not joined through its long shadow to a man moved under it); a hand's pixels are then its
    whole region, its shadow too."""
    none = np.zeros_like(diff)
    found = _from_table(diff)
    if found is None:
        return none, False, none
    labels, n, outside = found
    table = outside[labels] & diff
    own = diff if shaded is None else diff & ~shaded
    w = _RING * MOTION_PX
    need = config.hand_share * MOTION_PX * MOTION_PX
    beside = bool(np.any(outside & (np.bincount(labels[_ring_mask() & own], minlength=n) >= need)))
    judged, m, from_table = labels, n, outside
    if shadow is not None and (diff & shadow).any():
        k = 2 * _SHADE_JOINS_PX + 1
        near = cv2.dilate(own.astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
        found = _from_table(diff & ~(shadow & ~near))
        if found is None:
            return none, beside, table
        judged, m, from_table = found
    covers = np.bincount(judged[w:-w, w:-w][own[w:-w, w:-w]], minlength=m)
    hands = from_table & (covers >= need)
    if not hands.any():
        return none, beside, table
    if judged is labels:
        return hands[labels] & diff, beside, table
    # a hand's whole region, the shadows joined to it too: the squares under a hand's own
    # shadow beside it are no board to read either (cut to its own pixels and their edges, a
    # hand sliding a man over pale squares in a bright room covered half the cells it had, the
    # board was read under its shadow and a false Art. 27 named: the other renderer's
    # selfplay-9 at seed 5858000)
    held = np.zeros(n, dtype=bool)
    held[np.unique(labels[hands[judged] & diff])] = True
    held[0] = False
    return held[labels] & diff, beside, table


def _from_table(joins: np.ndarray) -> tuple[np.ndarray, int, np.ndarray] | None:
    """The regions of ``joins`` (gaps of a pixel bridged) and which of them come from the table
    (`_hands`): (labels, how many, from the table per label); None when none does."""
    bridged = cv2.dilate(joins.astype(np.uint8), np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(bridged, connectivity=8)
    if n <= 1:
        return None
    # from the table: reaching the ring's far part, or wider than any moved piece's change and
    # over more of the ring than its side and shadow (`_WIDE`: an arm the colour of the table,
    # in a dim light, shows only over the board and the border)
    outside = np.zeros(n, dtype=bool)
    outside[labels[_edge_mask()]] = True
    in_ring = np.bincount(labels[_ring_mask() & joins], minlength=n)
    outside |= ((np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
                 >= _WIDE * MOTION_PX) & (in_ring >= _RING_COVER * MOTION_PX * MOTION_PX))
    outside[0] = False
    if not outside.any():
        return None
    outside |= _beyond_a_gap(labels, stats, outside)
    return labels, n, outside


#: A change this many squares wide, within `_GAP_PX` view pixels of a region from the table, is
#: the hand of that arm: wider than any move's change (`_WIDE`), with room for a capture's.
_HAND_WIDE = 3.0
_GAP_PX = 3


def _beyond_a_gap(labels: np.ndarray, stats: np.ndarray, outside: np.ndarray) -> np.ndarray:
    """(components) the regions at least `_HAND_WIDE` squares wide that come within `_GAP_PX`
    of a region from the table (``outside``) without touching it: a hand whose wrist, the
    colour of the board's edge under it, did not change.  A dark hand over the white men, its
    wrist over the brown border in a dim room: its fingers changed four squares' worth, its
    wrist nothing for two pixels; it was no hand, the men under it read as empty squares
    lifted, and false touch-moves named (the system bench's selfplay-14 at seed 1212011)."""
    span = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    wide = ~outside & (span >= _HAND_WIDE * MOTION_PX)
    wide[0] = False
    if not wide.any():
        return np.zeros_like(outside)
    k = 2 * _GAP_PX + 1
    reach = cv2.dilate(outside[labels].astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
    near = np.zeros_like(outside)
    near[np.unique(labels[reach])] = True
    return wide & near


#: A hand beside the board this close (squares) to a square that changed may hold its piece.
_NEAR = 2.5


def _cells(mask: np.ndarray, how=np.mean) -> np.ndarray:
    """(10, 10) per cell of the playing area, ``how`` (mean: the share) of a view ``mask``."""
    w = _RING * MOTION_PX
    return how(mask[w:-w, w:-w].reshape(10, MOTION_PX, 10, MOTION_PX), axis=(1, 3))


def _near_change(table: np.ndarray, changed: np.ndarray) -> bool:
    """Whether the regions from the table lie within `_NEAR` squares of a square whose look
    changed since the still board (not one they cover themselves): a hand beside the board that
    may hold the piece just lifted off it, rather than one resting after the move."""
    own = _cells(table) > 0.1
    k = 2 * int(_NEAR * MOTION_PX) + 1
    near = _cells(cv2.dilate(table.astype(np.uint8), np.ones((k, k), np.uint8)), np.max) > 0
    return bool(np.any(near & ~own & (changed > 0.3)))


def change_delta(view: np.ndarray, previous: np.ndarray | None, still: np.ndarray | None,
                 config: MotionConfig, noise: float | None = None,
                 light: float | None = None) -> float:
    """The change of a view pixel that counts (`measure`): the light's contrast (``light``,
    `pixel_delta`, when the caller has it) or the noise floor, whichever is larger."""
    delta = light if light is not None else pixel_delta(config, still if still is not None else view)
    if noise is None and previous is not None:
        noise = noise_delta(view, previous)
    return max(delta, noise or 0.0)


def motion_between(view: np.ndarray, previous: np.ndarray, delta: float) -> float:
    """The share of the view's pixels that changed by more than ``delta`` since ``previous``."""
    return float(np.mean(tolerant_change(view, previous) > delta))


def measure(view: np.ndarray, previous: np.ndarray | None, still: np.ndarray | None,
            config: MotionConfig, noise: float | None = None) -> MotionSample:
    """Motion against ``previous``, and a hand, covered corners and the ring's change against
    the ``still`` reference view.  ``noise``: the camera's noise floor as a change that counts
    (`NoiseFloor`); by default this frame's own (`noise_delta` against ``previous``)."""
    ring = _ring_mask()
    light = pixel_delta(config, still if still is not None else view)
    delta = change_delta(view, previous, still, config, noise, light)
    motion = board_motion = 0.0
    moved_px = None
    if previous is not None:
        # the ring too: a hand moving over the border, a piece held just off the board
        moved = tolerant_change(view, previous) > delta
        if moved.any():  # a shadow moving over the board is no motion of the board
            moved &= ~shade(view, previous, delta)
        motion = float(np.mean(moved))
        moved_px = moved
        # and the playing area alone: an arm moving beside the board changes none of it
        board_motion = float(np.mean(moved[~ring]))
    intrusion = 0.0
    ring_share = 0.0
    all_round = False
    changed = np.zeros((10, 10))
    corners_changed = 0
    moved = None
    hand_cells = None
    hand_seen = beside = False
    table = diff = None
    if still is not None:
        reference = still * exposure_gain(view, still)
        change = tolerant_change(view, reference)
        diff = change > delta
        # a shadow over the board is no change of what stands on it, and no hand
        if diff.any():
            lum = brightness(view), brightness(reference)
            shaded = shade(view, reference, delta, lum)
            hand, beside, table = _hands(diff, config, shaded,
                                         shadow(view, reference, shaded, delta, lum))
        else:
            shaded = np.zeros_like(diff)
            hand, beside, table = _hands(diff, config, shaded)
        if not hand.any():
            # none: a hand whose arm changed the ring only faintly (`_joined_faintly`)
            joined = _joined_faintly(change, diff, shaded, delta, light, config)
            if joined is not None and joined[0].any():
                hand, table = joined[0], table | joined[1]
        diff &= ~shaded
        hand_seen = bool(hand.any())  # (it may cross the ring where it matches it)
        intrusion = float(np.mean(hand[ring]))
        ring_share = float(np.mean(diff[ring]))
        w = _RING * MOTION_PX
        sides = (diff[:w, w:-w], diff[-w:, w:-w], diff[w:-w, :w], diff[w:-w, -w:])
        all_round = all(float(np.mean(side)) > config.intrusion_share for side in sides)
        changed = _cells(diff)
        hand_cells = _cells(hand) > 0.2
        # men never cover the grid's corner points, a hand does
        idx = np.clip((_RING + np.arange(11)) * MOTION_PX, 1, view.shape[0] - 2)
        points = tolerant_change(cv2.blur(view, (3, 3)), cv2.blur(reference, (3, 3)))
        grid = idx[:, None], idx[None, :]
        moved = ((points[grid] > delta) & ~shaded[grid]).astype(np.uint8)
        # a hand is one blob; a moved piece seen obliquely may change a corner or two apart
        n, _, stats, _ = cv2.connectedComponentsWithStats(moved, connectivity=8)
        corners_changed = int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0
    return MotionSample(view, motion, intrusion, changed, all_round, corners_changed,
                        None if moved is None else moved.astype(bool), ring_share, hand_cells,
                        beside, table, beside and table is not None and _near_change(table, changed),
                        hand_seen, diff, board_motion, hand & ~shaded if hand_seen else None,
                        moved_px)


#: A region differs faintly from the still board where the mean of its change over
#: `_FAINT_WINDOW` pixels exceeds this share of the change that counts.
_FAINT_SHARE = 0.4
_FAINT_WINDOW = 5
#: View pixels of the playing area's rim where a faint region still joins a hand to the table.
_FAINT_INSIDE = 2


def _faint(change: np.ndarray, diff: np.ndarray, delta: float) -> np.ndarray:
    """The pixels, a pixel or more away from any of ``diff`` (whose change, `tolerant_change`,
    exceeds ``delta``), of a region whose change is under ``delta`` pixel by pixel but over
    `_FAINT_SHARE` of it on average over `_FAINT_WINDOW` pixels (each taken as ``delta`` at
    most: a strong change's blur is no faint region beside it)."""
    mean = cv2.blur(np.minimum(change, delta), (_FAINT_WINDOW, _FAINT_WINDOW))
    near = cv2.dilate(diff.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return (mean > _FAINT_SHARE * delta) & ~near


def _joined_faintly(change: np.ndarray, diff: np.ndarray, shaded: np.ndarray, delta: float,
                    light: float, config: MotionConfig
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Where the camera's noise sets the threshold (``delta`` above the light's, ``light``), a
    region of the ring (and `_FAINT_INSIDE` pixels of the playing area's rim) changed faintly
    (`_faint`: an arm the colour of the border, in a dim room, within the noise pixel by pixel
    but not on average) may join changed regions to the table, covering nothing itself, as a
    shade does (`_hands`): (the hands' own pixels, the pixels of every region from the table,
    the faint pixels); None when there is no such region.  A hand hovering over the board so,
    its pale arm over a dark border, was not seen: the board was read under it, a man there
    "lifted", and a false touch-move named (the system bench's lidraughts-14 at seed 707039).
    (Over the squares, or where the light sets the threshold, it joined a man lifted beside a
    hand at the board's edge to it, and the lift was not seen.)"""
    if delta <= light:
        return None
    faint = _faint(change, diff, delta) & ~diff & _ring_mask(_FAINT_INSIDE)
    if not faint.any():
        return None
    hands, _, table = _hands(diff | faint, config, shaded | faint)
    return hands & ~faint, table, faint
