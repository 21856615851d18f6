"""Frames to observations: the `BoardWatcher` the device service feeds with camera frames.

    watcher = BoardWatcher(WatchConfig(still_s=0.2))
    watcher.calibrate(first_frame)             # the start position: colours, orientation, heights
    for frame, t in camera:
        settled = watcher.feed(frame, t)        # a `rules.observation.Settled`, or None
        if settled: arbiter.observe(settled)
    watcher.button_pressed(t)                   # Settled(complete=True) at once, unless a hand is there

Orientation: image cells (row, col), row 0 along the image-top edge of the playing area, map to
the official squares by one of four rotations.  Square 46's corner is given by the configuration
(`WatchConfig.corner_46`, an index into the image-order corners TL, TR, BR, BL), or learnt from
the start position, where by convention the lighter pieces are white's (`white_is_lighter`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

import numpy as np

from rules.observation import Observation, Settled, SquareReading
from rules.piece import BLACK, WHITE, Piece
from rules.squares import column, row, square_at
from vision.colours import ColourModel, distance
from vision.kings import king_evidence
from vision.locate import BoardLocation, BoardNotFound, find_board, refine_location
from vision.motion import MotionConfig, MotionSample, measure, small_view
from vision.pose import Pose, estimate_pose
from vision.squares import BoardView, board_view, classify, learn_colours, reference_gain

log = logging.getLogger(__name__)

#: Image corner index (TL, TR, BR, BL) of square 46's corner, per rotation.
_CORNER_OF_ROTATION = (3, 0, 1, 2)


class CalibrationError(ValueError):
    """The calibration frame does not show the start position."""


@dataclass(frozen=True)
class Orientation:
    """Which of the four rotations maps the board's rows and columns to the image grid."""

    rotation: int

    @classmethod
    def from_corner_46(cls, corner: int) -> "Orientation":
        """From the image corner (0 TL, 1 TR, 2 BR, 3 BL) nearest square 46."""
        if corner not in (0, 1, 2, 3):
            raise ValueError(f"corner_46 is 0-3 (top-left, top-right, bottom-right, bottom-left), not {corner!r}")
        return cls(_CORNER_OF_ROTATION.index(corner))

    @property
    def corner_46(self) -> int:
        return _CORNER_OF_ROTATION[self.rotation]

    def image_cell(self, board_row: int, board_col: int) -> tuple[int, int]:
        r, c = board_row, board_col
        return ((r, c), (c, 9 - r), (9 - r, 9 - c), (9 - c, r))[self.rotation]

    def square_cells(self) -> tuple[tuple[int, int], ...]:
        """Image cell of squares 1-50 (index 0 = square 1)."""
        return tuple(self.image_cell(row(sq), column(sq)) for sq in range(1, 51))

    @property
    def dark_parity(self) -> int:
        """(row + col) % 2 of the dark squares in the image grid."""
        return 1 if self.rotation in (0, 2) else 0


@dataclass(frozen=True)
class WatchConfig:
    """``still_s``: stillness before a settled observation; ``corner_46``: the image corner of
    square 46 (None: learn it from the calibration frame); ``white_is_lighter``: the convention
    used when learning it; ``man_height``: a man's height in squares (None: measured);
    ``static_hand_s``: how long a "hand" in the border ring may stay perfectly still before it is
    taken as part of the board (a piece moved onto an edge square); ``static_corners_s`` the same
    for grid corners hidden inside the board with the ring clear (a king near the edge);
    ``relocate_after_s``: how long an unexplained change of the border may last before the board
    is searched again (the camera or board moved)."""

    still_s: float = 0.2
    corner_46: int | None = None
    white_is_lighter: bool = True
    man_height: float | None = None
    relocate_after_s: float = 1.0
    static_hand_s: float = 1.2
    static_corners_s: float = 1.0
    motion: MotionConfig = field(default_factory=MotionConfig)


@dataclass(frozen=True, eq=False)
class Calibration:
    """What was learnt from the start position (or configured)."""

    location: BoardLocation
    orientation: Orientation
    colours: ColourModel
    man_height: float | None
    empty_ref: np.ndarray | None = None  # (10, 10, 3) each cell's top sample when empty
    rim_offset: float = 0.0  # bias of the measured far rim of a piece (squares)


def _empty_reference(view: BoardView, empty_dark: list[tuple[int, int]],
                     dark_parity: int) -> np.ndarray:
    """Each cell's expected top sample when empty: measured on the light cells and the given
    empty dark cells; on the other dark cells, the empty dark cells' median colour with its
    lightness scaled by the light there (the neighbouring light cells against their median)."""
    light = view.parity != dark_parity
    known_dark = np.zeros((10, 10), dtype=bool)
    for r, c in empty_dark:
        known_dark[r, c] = True
    ref = view.top.copy()
    light_l = np.where(light, view.top[..., 0], np.nan)
    light_med = np.nanmedian(light_l)
    padded = np.pad(light_l, 1, constant_values=np.nan)
    stack = np.stack([padded[1 + dr:11 + dr, 1 + dc:11 + dc]
                      for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))])
    count = np.isfinite(stack).sum(axis=0)
    near = np.where(count > 0, np.nansum(stack, axis=0) / np.maximum(count, 1), np.nan)
    dark_med = np.median(view.top[known_dark], axis=0)
    # the dark squares' lightness follows the light squares' in proportion
    for r in range(10):
        for c in range(10):
            if light[r, c] or known_dark[r, c]:
                continue
            factor = near[r, c] / light_med if np.isfinite(near[r, c]) else 1.0
            ref[r, c] = dark_med
            ref[r, c, 0] = dark_med[0] * factor
    return ref


_PRIOR_WEIGHT = 2.0


def _fit_heights(ev, pose: Pose) -> tuple[float | None, float]:
    """A man's height and the far-rim bias from the 40 men of the start position: the measured
    extent grows with the cell's |shift| per unit height (slope: the height; intercept: the bias),
    a straight-line fit robust to a few bad rims."""
    ok = np.isfinite(ev.extent) & np.isfinite(ev.per_unit)
    x = ev.per_unit[ok]
    y = ev.extent[ok]
    if len(x) < 20 or np.ptp(x) < 0.05:
        h = float(np.median(y / np.maximum(x, 1e-3))) if len(x) else 0.2
        return (float(np.clip(h, 0.08, 0.4)) if len(x) >= 20 else None), 0.0
    for _ in range(3):
        # a weak prior on a man's height (0.21 square, a 40 mm square and 8-9 mm men) keeps the
        # slope sane when the camera sees the whole board from nearly one angle
        a = np.vstack([np.vstack([x, np.ones_like(x)]).T, [[np.sqrt(_PRIOR_WEIGHT), 0.0]]])
        b = np.concatenate([y, [np.sqrt(_PRIOR_WEIGHT) * 0.21]])
        (slope, icpt), *_ = np.linalg.lstsq(a, b, rcond=None)
        resid = np.abs(y - (slope * x + icpt))
        keep = resid <= max(np.median(resid) * 3.0, 0.02)
        x, y = x[keep], y[keep]
    # extent = h * rho / (H - h) ~ h * per_unit * H / (H - h): undo the small-h approximation
    h = float(slope) * pose.height / (pose.height + float(slope))
    if not 0.12 <= h <= 0.35:  # implausible: keep the usual height, fit the bias alone
        h = 0.21
        icpt = float(np.median(y - h * x * pose.height / (pose.height - h)))
    return h, float(icpt)


def _start_board() -> dict[int, Piece]:
    out = {sq: Piece(BLACK) for sq in range(1, 21)}
    out.update({sq: Piece(WHITE) for sq in range(31, 51)})
    return out


class BoardWatcher:
    """Feeds frames through board location, reading and settling (see the module docstring)."""

    def __init__(self, config: WatchConfig = WatchConfig(), calibration: Calibration | None = None
                 ) -> None:
        self.config = config
        self.calibration = calibration
        self._location: BoardLocation | None = calibration.location if calibration else None
        self._pose: Pose | None = None
        self._size: tuple[int, int] | None = None
        self._prev: np.ndarray | None = None
        self._still: np.ndarray | None = None
        self._reference: Observation | None = None
        self._busy_since: float | None = None
        self._last_busy: float | None = None
        self._episode = False
        self._hand_seen = False
        self._hand_now = False
        self._first_empty: dict[int, int] = {}
        self._last_frame: np.ndarray | None = None
        self._last_time: float | None = None
        self._frames = 0
        self._static_since: float | None = None

    # -- set-up ---------------------------------------------------------------------------
    def calibrate(self, frame: np.ndarray) -> Calibration:
        """Learn the board's place, the colours, the orientation and a man's height from a
        frame of the start position (black men on 1-20, white on 31-50, no hand)."""
        location = find_board(frame)
        pose = estimate_pose(location.homography, (frame.shape[1], frame.shape[0]))
        view = board_view(frame, location, pose, self.config.man_height or 0.2)
        model, dark_parity = learn_colours(view)
        if self.config.corner_46 is not None:
            orientation = Orientation.from_corner_46(self.config.corner_46)
            if orientation.dark_parity != dark_parity:
                raise CalibrationError(
                    "the configured corner of square 46 does not fit the board: square 46's "
                    "corner must be a dark square's")
        else:
            probs = classify(view, model, dark_parity)
            best = probs.best()
            # the rotations that fit the dark squares; the lighter side ('w') on 31-50
            scores = []
            for k in range(4):
                o = Orientation(k)
                if o.dark_parity != dark_parity:
                    continue
                cells = o.square_cells()
                want_w = 1 if self.config.white_is_lighter else 2
                s = sum(best[cells[sq - 1]] == want_w for sq in range(31, 51))
                scores.append((s, k))
            orientation = Orientation(max(scores)[1])
        cells = orientation.square_cells()
        empty_ref = _empty_reference(view, [cells[sq - 1] for sq in range(21, 31)],
                                     orientation.dark_parity)
        top_n = view.top.copy()
        top_n[..., 0] *= reference_gain(empty_ref, view.parity)
        white = np.array([top_n[cells[sq - 1]] for sq in range(31, 51)])
        black = np.array([top_n[cells[sq - 1]] for sq in range(1, 21)])
        empty_dark = np.array([view.floor[cells[sq - 1]] for sq in range(1, 51)])
        light = np.array([view.floor[r, c] for r in range(10) for c in range(10)
                          if (r + c) % 2 != orientation.dark_parity])
        colours = ColourModel.from_samples(light, empty_dark, white, black)
        man_height = self.config.man_height
        if man_height is None and not pose.top_down:
            occupied = np.zeros((10, 10), dtype=bool)
            for sq in list(range(1, 21)) + list(range(31, 51)):
                occupied[cells[sq - 1]] = True
            ev = king_evidence(view, pose, occupied, man_height=0.2, square_px=location.square_px)
            man_height, rim_offset = _fit_heights(ev, pose)
        else:
            rim_offset = 0.0
        cal = Calibration(location, orientation, colours, man_height, empty_ref, rim_offset)
        self.calibration = cal
        self._location = location
        self._pose = pose
        obs = self.read(frame)
        start = _start_board()

        def colour(p: Piece | None) -> object:
            return None if p is None else p.color

        wrong = [sq for sq in range(1, 51)
                 if colour(obs.reading(sq).content) != colour(start.get(sq))]
        if len(wrong) > 3:
            raise CalibrationError(
                f"the calibration frame does not show the start position ({len(wrong)} squares "
                "differ): set up the pieces and calibrate again")
        self._reference = obs
        self._still = small_view(frame, location.homography)
        self._prev = self._still
        return cal

    # -- reading --------------------------------------------------------------------------
    def _ensure_location(self, frame: np.ndarray) -> BoardLocation:
        size = (frame.shape[1], frame.shape[0])
        if self._location is None or self._size != size:
            self._location = find_board(frame)
            self._pose = None
        self._size = size
        if self._pose is None:
            self._pose = estimate_pose(self._location.homography, size)
        return self._location

    def read(self, frame: np.ndarray, time: float | None = None,
             occluded: np.ndarray | None = None) -> Observation:
        """One frame's observation (no settling).  Needs a calibration or ``corner_46``."""
        location = self._ensure_location(frame)
        assert self._pose is not None
        cal = self.calibration
        if cal is None:
            if self.config.corner_46 is None:
                raise CalibrationError("no calibration: calibrate on the start position or "
                                       "configure the corner of square 46")
            orientation = Orientation.from_corner_46(self.config.corner_46)
            view = board_view(frame, location, self._pose, self.config.man_height or 0.2)
            model, _ = learn_colours(view)
            man_height = self.config.man_height
        else:
            orientation, model, man_height = cal.orientation, cal.colours, cal.man_height
            view = board_view(frame, location, self._pose, man_height or 0.2)
        return self._observe(view, orientation, model, man_height, location, time, occluded)

    def _observe(self, view: BoardView, orientation: Orientation, model: ColourModel,
                 man_height: float | None, location: BoardLocation, time: float | None,
                 occluded: np.ndarray | None) -> Observation:
        assert self._pose is not None
        ref = self.calibration.empty_ref if self.calibration is not None else None
        probs = classify(view, model, orientation.dark_parity, ref).p
        occupied = probs[..., 0] < 0.5
        kings = king_evidence(view, self._pose, occupied, man_height=man_height,
                              square_px=location.square_px,
                              offset=self.calibration.rim_offset if self.calibration else 0.0)
        readings = []
        for (r, c) in orientation.square_cells():
            pe, pw, pb = probs[r, c]
            # King or man is never certain from the camera (king recall is about 80%): the
            # arbiter, which knows where kings can be, weighs it but is never overruled by it.
            pk = float(np.clip(kings.p_king[r, c], 0.02, 0.98)) if occupied[r, c] else 0.1
            options = [(pe, None), (pw * (1 - pk), Piece(WHITE)), (pw * pk, Piece(WHITE, True)),
                       (pb * (1 - pk), Piece(BLACK)), (pb * pk, Piece(BLACK, True))]
            options.sort(key=lambda o: -o[0])
            conf = float(np.clip(options[0][0], 0.0, 0.999))
            occ = bool(occluded is not None and occluded[r, c])
            if occ:
                conf = min(conf, 0.5)
            readings.append(SquareReading(options[0][1], conf, options[1][1], occ))
        return Observation(tuple(readings), time)

    # -- watching -------------------------------------------------------------------------
    @property
    def hand_present(self) -> bool:
        """A hand or arm was over the board in the last frame."""
        return self._hand_now

    def feed(self, frame: np.ndarray, time: float) -> Settled | None:
        """One camera frame; a `Settled` once the board has been still long enough after a hand
        or motion changed what stands on it, else None."""
        self._frames += 1
        self._last_frame, self._last_time = frame, time
        try:
            location = self._ensure_location(frame)
        except BoardNotFound:
            self._mark_busy(time, hand=True)  # no board visible: something covers it
            return None
        cfg = self.config.motion
        view = small_view(frame, location.homography)
        if self._still is None:
            self._still = view
        sample = measure(view, self._prev, self._still, cfg)
        self._prev = view
        moving = sample.motion > cfg.motion_share
        intruding = (sample.intrusion > cfg.intrusion_share
                     or sample.corners_changed >= cfg.corner_points)
        if intruding and not moving:
            # A "hand" that has not moved at all for a long while is part of the scene (a piece
            # moved onto an edge square and seen over the border ring, a king hiding grid
            # corners): take it as the still view.
            ring = sample.intrusion > cfg.intrusion_share
            limit = self.config.static_hand_s if ring else self.config.static_corners_s
            if self._static_since is None:
                self._static_since = time
            elif time - self._static_since >= limit:
                log.debug("a still change in the border ring for %.1f s: taken as the board",
                          time - self._static_since)
                self._still = view
                intruding = False
        else:
            self._static_since = None
        self._hand_now = intruding
        if moving or intruding:
            self._mark_busy(time, hand=intruding)
            if intruding and not moving and sample.all_round and self._busy_since is not None \
                    and time - self._busy_since > self.config.relocate_after_s:
                self._relocate(frame, time)
            if self._hand_seen:
                self._track_lifted(frame, sample)
            return None
        self._busy_since = None
        if not self._episode or self._last_busy is None:
            return None
        if time - self._last_busy < self.config.still_s - 1e-9:
            return None
        return self._settle(frame, time, complete=False)

    def button_pressed(self, time: float | None = None) -> Settled | None:
        """The player marked the move complete: a settled observation at once from the last
        frame, unless a hand is over the board (then None)."""
        if self._last_frame is None or self._hand_now:
            return None
        return self._settle(self._last_frame, time if time is not None else self._last_time,
                            complete=True)

    def _mark_busy(self, time: float, hand: bool) -> None:
        if self._busy_since is None:
            self._busy_since = time
        self._last_busy = time
        if not self._episode:
            self._episode = True
            self._first_empty = {}
            self._hand_seen = False
        if hand:
            self._hand_seen = True

    def _relocate(self, frame: np.ndarray, time: float) -> None:
        """The border has looked different all round for a while with nothing moving: the
        camera or the board may have moved.  Look near the old place first (cheap), then
        everywhere; keep a new place only if the border then matches the still board's."""
        self._busy_since = time
        if self._location is None or self._still is None:
            return
        for search in (lambda: refine_location(frame, self._location), lambda: find_board(frame)):
            try:
                location = search()
            except BoardNotFound:
                location = None
            if location is None:
                continue
            view = small_view(frame, location.homography)
            sample = measure(view, None, self._still, self.config.motion)
            if sample.intrusion <= self.config.motion.intrusion_share:
                log.info("board found again after the camera or board moved")
                self._location, self._pose, self._prev = location, None, view
                return

    def _track_lifted(self, frame: np.ndarray, sample: MotionSample) -> None:
        if self._reference is None or self.calibration is None or self._location is None:
            return
        assert self._pose is not None
        cal = self.calibration
        view = board_view(frame, self._location, self._pose, cal.man_height or 0.2)
        probs = classify(view, cal.colours, cal.orientation.dark_parity, cal.empty_ref).p
        for sq, (r, c) in enumerate(cal.orientation.square_cells(), start=1):
            if sq in self._first_empty or self._reference.reading(sq).content is None:
                continue
            if probs[r, c, 0] > 0.9:
                self._first_empty[sq] = self._frames

    def _settle(self, frame: np.ndarray, time: float | None, complete: bool) -> Settled | None:
        obs = self.read(frame, time)
        changed = self._reference is None or obs.text() != self._reference.text()
        # After a hand was over the board the arbiter always gets the board, changed or not: a
        # move misread as "unchanged" must not be lost, and a piece lifted and put back matters
        # for touch-move.  Motion without a hand (a shaking camera) that changed nothing is no move.
        emit = complete or changed or self._hand_seen
        # the squares whose pieces left (moved, captured, or changed), in the order they were
        # first seen empty while the hand was over the board
        ref = self._reference
        gone = [sq for sq in range(1, 51) if ref is not None
                and ref.reading(sq).content is not None
                and obs.reading(sq).content != ref.reading(sq).content]
        lifted = tuple(sorted(gone, key=lambda sq: (self._first_empty.get(sq, 1 << 30), sq)))
        self._first_empty = {}
        if self._location is not None:
            self._still = small_view(frame, self._location.homography)
        self._episode = False
        self._hand_seen = False
        self._last_busy = None
        if self.calibration is not None:
            self._refine(frame, obs)
        self._reference = obs
        if not emit:
            return None
        return Settled(obs, lifted, time, complete, frame=self._frames)

    def _refine(self, frame: np.ndarray, obs: Observation) -> None:
        """Move the colour model towards what confident readings show (light squares are always
        empty; confidently read squares are what they were read as)."""
        cal = self.calibration
        assert cal is not None and self._location is not None and self._pose is not None
        view = board_view(frame, self._location, self._pose, cal.man_height or 0.2)
        cells = cal.orientation.square_cells()
        par = cal.orientation.dark_parity
        top_n = view.top.copy()
        if cal.empty_ref is not None:
            top_n[..., 0] *= reference_gain(cal.empty_ref, view.parity)
        before = self._reference
        # only squares read surely and the same as at the last still board: a one-off misreading
        # must not teach the model its own mistake
        sure = [(sq, obs.reading(sq).content) for sq in range(1, 51)
                if obs.reading(sq).confidence > 0.98
                and (before is None or before.reading(sq).content == obs.reading(sq).content)]
        white = np.array([top_n[cells[sq - 1]] for sq, p in sure
                          if p is not None and p.color is WHITE and not p.king]).reshape(-1, 3)
        black = np.array([top_n[cells[sq - 1]] for sq, p in sure
                          if p is not None and p.color is BLACK and not p.king]).reshape(-1, 3)
        dark = np.array([view.floor[cells[sq - 1]] for sq in range(1, 51)]).reshape(-1, 3)
        light = np.array([view.floor[r, c] for r in range(10) for c in range(10)
                          if (r + c) % 2 != par]).reshape(-1, 3)
        empty_ref = cal.empty_ref
        if empty_ref is not None:
            empty_ref = empty_ref.copy()
            for sq, p in sure:
                if p is None:
                    r, c = cells[sq - 1]
                    empty_ref[r, c] = 0.7 * empty_ref[r, c] + 0.3 * view.top[r, c]
        self.calibration = replace(cal, colours=cal.colours.refined(light, dark, white, black),
                                   empty_ref=empty_ref)
