"""Telling a hand over the board from a settled board, and deciding when the board is settled.

Every frame is warped (through the cached homography) to a small colour top-down view of the
playing area and a one-square ring around it.  Two cheap measures:

- *motion*: the share of view pixels that changed since the previous frame;
- *intrusion*: the share of the ring (the board's border, which nothing in a game ever changes)
  that differs from the ring of the last still board.  An arm reaching over the board must cross
  the ring, so a hand held perfectly still is still seen.  When the ring differs on all four
  sides at once, the camera or the board has moved rather than a hand come in.  A piece on an
  edge square (its side seen obliquely, its shadow) changes only the ring's inner half, next to
  the board; an arm crosses the outer half too (``ring_outer``);
- *covered corners*: the grid's corner points, which men never cover, differing from the still
  board (a hand held still over the middle of the board).

`Settler` turns these into states: a hand (or motion) resets the stillness clock; once nothing
moved and nothing intrudes for ``still_s`` seconds, the board is settled.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.locate import BoardLocation, warp

#: Pixels per square of the motion view.
MOTION_PX = 8
_RING = 1


@dataclass(frozen=True)
class MotionConfig:
    """Thresholds: a pixel "changed" when a colour channel moved by more than ``pixel_delta``
    (in a well-exposed picture; less in a dim one, `pixel_delta`);
    ``motion_share`` of changed board pixels means motion; ``intrusion_share`` of the ring
    differing from the still ring means something lies over the board's edge; ``corner_points``
    neighbouring grid points (of 121) differing from the still board mean a hand over the board; ``still_s``
    seconds without either means settled."""

    pixel_delta: float = 18.0
    motion_share: float = 0.004
    intrusion_share: float = 0.01
    corner_points: int = 3
    still_s: float = 0.2


@dataclass(frozen=True, eq=False)
class MotionSample:
    """One frame's small view and its two measures."""

    view: np.ndarray
    motion: float
    intrusion: float
    changed: np.ndarray  # (10, 10) share of each cell's pixels changed since the still reference
    all_round: bool = False  # the ring differs on all four sides (the camera or board moved)
    corners_changed: int = 0  # largest blob of grid points differing from the still board
    corner_mask: np.ndarray | None = None  # (11, 11) the grid points differing (row, col)
    ring_outer: float = 0.0  # the share of the ring's outer half (away from the board) differing


def small_view(frame: np.ndarray, location: BoardLocation | np.ndarray) -> np.ndarray:
    """The colour top-down view of the playing area plus the ring (float32 BGR; colour, since a
    hand can be as light as the border it covers) of a `BoardLocation` or a grid->image
    homography."""
    view = warp(frame, location, MOTION_PX, -_RING, 10 + _RING, cv2.INTER_AREA)
    return cv2.GaussianBlur(view, (3, 3), 0).astype(np.float32)


#: The median brightness (0-255) of a well-exposed view, for which ``pixel_delta`` is meant,
#: and the smallest share of it a dim picture's threshold keeps (the noise of the small view,
#: an average of some 30 camera pixels each, stays below it).
_EXPOSED = 100.0
_DIM_FLOOR = 0.35
#: A pixel's change counts only beyond this many times the median change of the view's pixels
#: since the previous frame (most of them unchanged: the camera's noise).  A noisy, dim picture
#: (noise 7, a third of the light: a median change of 3, 1% of the pixels beyond 10) otherwise
#: showed "motion" on every frame and never settled; 4 times keeps the noise well under
#: `MotionConfig.motion_share` and, where the noise is low (a median of 1), below the light's
#: threshold, which then stands.
_NOISE_TIMES = 4.0


def settled_view(view: np.ndarray, still: np.ndarray | None) -> np.ndarray:
    """The still reference once the board in ``view`` has settled: the view, with the ring's
    outer half kept from the previous ``still``.  Only the pieces change the board and the ring's
    inner half; a fingertip or a sleeve's edge resting at the ring's far edge, too small to count
    as a hand, would otherwise become part of the reference, and its leaving, a lasting "hand"
    (quick play never gave the board the `WatchConfig.static_hand_s` of stillness that takes it
    back).  A lasting change of the outer half (the light) is taken as any other."""
    if still is None or still.shape != view.shape:
        return view
    out = view.copy()
    outer = _outer_mask()
    out[outer] = still[outer]
    return out


def pixel_delta(config: MotionConfig, still: np.ndarray) -> float:
    """The change of a view pixel that counts, for the light of the ``still`` view: in a dim
    picture every contrast shrinks with the light, a hand's against the border's too (at a
    third of the light an arm crossing the board no longer passed the fixed threshold)."""
    level = float(np.median(still[::2, ::2]))
    return config.pixel_delta * float(np.clip(level / _EXPOSED, _DIM_FLOOR, 1.0))


def _delta(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per-pixel change: the largest change of any colour channel."""
    return np.abs(a - b).max(axis=-1)


@cache
def _ring_mask() -> np.ndarray:
    """The ring around the playing area (built once: read only)."""
    size = (10 + 2 * _RING) * MOTION_PX
    mask = np.ones((size, size), dtype=bool)
    a, b = _RING * MOTION_PX + 1, (10 + _RING) * MOTION_PX - 1
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


def measure(view: np.ndarray, previous: np.ndarray | None, still: np.ndarray | None,
            config: MotionConfig) -> MotionSample:
    """Motion against ``previous`` and intrusion against the ``still`` reference view."""
    ring = _ring_mask()
    inner = ~ring
    delta = pixel_delta(config, still if still is not None else view)
    motion = 0.0
    if previous is not None:
        change = _delta(view, previous)[inner]
        delta = max(delta, _NOISE_TIMES * float(np.median(change[::4])))  # a quarter tells
        motion = float(np.mean(change > delta))
    intrusion = 0.0
    ring_outer = 0.0
    all_round = False
    changed = np.zeros((10, 10))
    corners_changed = 0
    moved = None
    if still is not None:
        diff = _delta(view, still) > delta
        intrusion = float(np.mean(diff[ring]))
        ring_outer = float(np.mean(diff[_outer_mask()]))
        w = _RING * MOTION_PX
        sides = (diff[:w, w:-w], diff[-w:, w:-w], diff[w:-w, :w], diff[w:-w, -w:])
        all_round = all(float(np.mean(side)) > config.intrusion_share for side in sides)
        core = diff[_RING * MOTION_PX:(10 + _RING) * MOTION_PX, _RING * MOTION_PX:(10 + _RING) * MOTION_PX]
        changed = core.reshape(10, MOTION_PX, 10, MOTION_PX).mean(axis=(1, 3))
        # men never cover the grid's corner points, a hand does
        idx = (_RING + np.arange(11)) * MOTION_PX
        idx = np.clip(idx, 1, view.shape[0] - 2)
        pv = cv2.blur(view, (3, 3))[idx[:, None], idx[None, :]]
        ps = cv2.blur(still, (3, 3))[idx[:, None], idx[None, :]]
        moved = (_delta(pv, ps) > delta).astype(np.uint8)
        # a hand is one blob; a moved piece seen obliquely may change a corner or two apart
        n, _, stats, _ = cv2.connectedComponentsWithStats(moved, connectivity=8)
        corners_changed = int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0
    return MotionSample(view, motion, intrusion, changed, all_round, corners_changed,
                        None if moved is None else moved.astype(bool), ring_outer)
