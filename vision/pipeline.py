"""Frames to observations: the `BoardWatcher` the device service feeds with camera frames.

    watcher = BoardWatcher(WatchConfig(still_s=0.2))
    watcher.calibrate(first_frame)             # the start position: colours, orientation, heights
    for frame, t in camera:
        settled = watcher.feed(frame, t)        # a `rules.observation.Settled`, or None
        if settled:
            arbiter.observe(settled)
            watcher.confirm(arbiter.expected_board())   # once the arbiter accepted it
    watcher.button_pressed(t)                   # Settled(complete=True) at once, unless a hand is there

What is learnt from the start position (orientation, colours, a man's height) is in
`vision.calibration`; this module reads frames with it and decides when the board is settled.
It goes on learning: each settled board's sure readings teach the colours, and the game's board
(`confirm`) teaches what the readings were unsure of and, with the men spread over the board, a
man's height.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

import cv2
import numpy as np

from rules.matching import sure_of_kind
from rules.observation import Observation, Settled, SquareReading
from rules.piece import BLACK, WHITE, Piece
from rules.squares import promotion_row
from vision.calibration import (Calibration, CalibrationError, Orientation, check_in_view,
                                edge_hint, learn_calibration, start_board, view_warning)
from vision.colours import BLACK_PIECE, EMPTY, WHITE_PIECE, ColourModel, distance, relight
from vision.kept import Box, Kept, board_box, mean_kept
from vision.kings import (PRIOR_KING, KingCalibration, KingEvidence, king_evidence, limit_warning,
                          refit)
from vision.locate import BoardLocation, BoardNotFound, find_board, refine_location
from vision.markers import MarkerLayout, find_markers
from vision.motion import (MOTION_PX, MotionConfig, MotionSample, NoiseFloor, StillMemory,
                           bare_light, cell_shares, change_delta, committed_view, measure,
                           motion_between, reach_shares, settled_view, small_view, view_point)
from vision.passing import Passing
from vision.pose import Pose, estimate_pose
from vision.register import Anchor
from vision.squares import (MAN_HEIGHT, NOT_KNOWN, NOTHING, BoardView, board_view, classify,
                            learn_colours, light_change, relit_light_references, standing_code,
                            surroundings)

__all__ = ["BoardWatcher", "Calibration", "CalibrationError", "Orientation", "WatchConfig"]

log = logging.getLogger(__name__)

#: Markers that moved this far in the image (squares): the board or the camera moved.  The motion
#: views notice a few hundredths of a square; marker corners hold still to about 0.005.
_MARKERS_MOVED = 0.05
#: While fewer than three markers are near the cached place, the whole frame is searched for
#: them on every this many frames.
_MARKER_SEARCH_EVERY = 8

#: Grid points this much (squares) beyond a piece's outline count as hidden or shaded by it
#: (its shadow, blur, a radius measured a little short): a square's four corners, 0.71 square
#: from its centre, are within it of a piece of radius 0.41 and up.
_COVER_MARGIN = 0.3
#: The share of a cell a hand at rest beside the board covers that hides the square.
_BESIDE_COVERS = 0.05
#: ... and the cells within this many squares of where such a region reaches the board's edge.
_BESIDE_REACH = 1.0
#: A piece's own square's corners (0.71 square from its centre) always count as hidden or
#: shaded by it (`BoardWatcher._covering`), whatever radius it is measured with.
_OWN_CORNERS = 0.72
#: Lab distance within which a cell "looks as it does empty" (a lifted piece's square and
#: its neighbours, seen clear of the hand and its shadow).
_CLEAR = 6.0
#: At most this many still frames are averaged for a reading (`BoardWatcher._gather`).
_GATHER_FRAMES = 8
#: A cell whose pixels this share of changed since the frame motion is measured against is not
#: quiet (`BoardWatcher._track_cells`).
_CELL_MOVED = 0.02
#: A lifted piece's square read empty with this probability, clear of the hand, counts twice
#: (`WatchConfig.lift_frames`).
_LIFT_SURE = 0.99
#: A cell the hand may have hidden on the frame before is not seen clearly while this much of
#: it moves (`BoardWatcher._leaving`).
_LEAVING_MOVED = 0.25
#: A light square whose pixels this share of changed since the still board is under something
#: (`BoardWatcher._track_passing`): a piece beside it leans into it far less.
_LIGHT_COVERED = 0.5
#: View pixels (of `MOTION_PX`) left out at each side of a light square for its middle
#: (`BoardWatcher._covered_light`): half a square wide, 0.75 of a square from the dark squares'
#: centres beside it.
_LIGHT_MIDDLE = 2
#: (10, 10) each cell's parity, as `vision.squares.BoardView.parity` gives it (row plus column).
_PARITY = np.add.outer(np.arange(10), np.arange(10)) % 2
#: Motion is the change over at least this long (seconds): one frame at 10 frames a second.
_MOTION_SPAN_S = 0.1


@cache
def _dark_cells(dark_parity: int) -> np.ndarray:
    """(10, 10) the dark squares' cells (read only)."""
    rows, cols = np.indices((10, 10))
    out = (rows + cols) % 2 == dark_parity
    out.flags.writeable = False
    return out


def _neighbours(cells: np.ndarray, edge: bool) -> list[np.ndarray]:
    """The (10, 10) ``cells`` shifted to each cell's four neighbours (``edge`` beyond the
    board)."""
    padded = np.pad(cells, 1, constant_values=edge)
    return [padded[1 + dr:11 + dr, 1 + dc:11 + dc] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]


#: A hand seen over the board this recently (seconds) and not seen leaving may still be there
#: (`BoardWatcher._hand_kept`) ...
_HAND_GONE_S = 0.5
#: ... unless this share of its pixels changed since, or no longer differs from the still board.
_HAND_LEAVING = 0.5


def _held_cells(sample: MotionSample, kept: np.ndarray | None = None) -> np.ndarray:
    """(10, 10, image cells) what a hand held still over the board covers: the cells of its
    region from the table (or ``kept``, those it covered when last seen), and those beside each
    grid corner it hides, with their neighbours (a hand's edge, its fingers' shadow)."""
    cells = np.zeros((10, 10), dtype=bool)
    for mask in (sample.hand_mask, kept):
        if mask is not None:
            cells |= mask
    m = sample.corner_mask
    if m is not None:
        cells |= m[:-1, :-1] | m[:-1, 1:] | m[1:, :-1] | m[1:, 1:]
    return np.logical_or.reduce([cells, *_neighbours(cells, False)])


def _differing(ref: Observation, now: Observation) -> list[int]:
    """The squares whose content ``now`` reads otherwise than ``ref``."""
    return [sq for sq in range(1, 51) if ref.reading(sq).content != now.reading(sq).content]


def _beside_light(cal: Calibration, board: Mapping[int, Piece],
                  hidden: np.ndarray | None = None) -> np.ndarray:
    """(10, 10) what stands beside each light cell (`vision.squares.surroundings`) as ``board``
    has it, not known where ``hidden`` (10, 10 cells: under a hand, read unsure) says."""
    standing = np.full((10, 10), NOTHING)
    for sq, (r, c) in enumerate(cal.orientation.square_cells(), start=1):
        piece = board.get(sq)
        if piece is not None:
            standing[r, c] = standing_code(WHITE_PIECE if piece.color is WHITE else BLACK_PIECE,
                                           piece.king)
    if hidden is None:
        return surroundings(standing, cal.orientation.dark_parity)
    standing[hidden] = NOT_KNOWN
    return np.where(hidden, NOT_KNOWN, surroundings(standing, cal.orientation.dark_parity))


def _colour(piece: Piece | None) -> object:
    """A square's content as the colours tell it: empty, or a piece of a side."""
    return None if piece is None else piece.color


@dataclass(frozen=True)
class WatchConfig:
    """``still_s``: stillness before a settled observation; ``corner_46``: the image corner of
    square 46 (None: learn it from the calibration frame); ``white_is_lighter``: the convention
    used when learning it; ``man_height``: a man's height in squares (None: measured);
    ``static_hand_s``: how long a "hand" (a change reaching in from the table over squares,
    `vision.motion`) may stay perfectly still before the board is read around it, the squares
    it covers occluded (a player's hand held over the board while thinking), and
    ``static_absorb_s`` before it is taken as part of the board (the light changed, something
    set down on the border);
    ``static_corners_s`` the same for grid corners hidden inside the board with no hand (a king
    near the edge); ``static_explained_s`` the same where the pieces that moved explain every
    such corner and changed pixel from the table (a king's side and shadow on an edge square):
    no longer than any still board waits; ``static_beside_s`` the same for a hand beside the board
    covering none of its squares (at rest on the border, or holding a piece just lifted off);
    ``lift_frames``: on how many frames under a hand a square must be seen clearly empty before
    a piece put back on it counts as lifted (touch-move, Art. 15; a frame where it is seen empty
    very surely counts twice); ``relocate_after_s``: how
    long an unexplained change of the border may last before the board
    is searched again (the camera or board moved); ``markers``: the layout of four ArUco markers
    beside the board's corners (`vision.markers`; None: no markers).  With markers the board is
    located by them (by the checker pattern while they are not seen), checked on every frame
    and followed at once when they show it moved, hand or no hand (they lie outside the playing
    area); and when ``corner_46`` is not configured the markers give it, so the orientation needs
    no convention about which pieces are lighter."""

    still_s: float = 0.1
    corner_46: int | None = None
    white_is_lighter: bool = True
    man_height: float | None = None
    relocate_after_s: float = 1.0
    static_hand_s: float = 1.2
    static_absorb_s: float = 6.0
    static_corners_s: float = 1.0
    static_explained_s: float = 0.1
    static_beside_s: float = 0.3
    lift_frames: int = 2
    motion: MotionConfig = field(default_factory=MotionConfig)
    markers: MarkerLayout | None = None


@dataclass(frozen=True, eq=False)
class _Reading:
    """What one reading of a frame saw: the reading view, the cells' class probabilities
    (`vision.squares.classify`), the king evidence, the location."""

    view: BoardView
    probs: np.ndarray
    kings: KingEvidence
    location: BoardLocation


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
        # (time, view) of the last frames: motion is measured over `_MOTION_SPAN_S`
        self._recent: deque[tuple[float, np.ndarray]] = deque(maxlen=8)
        self._still: np.ndarray | None = None
        self._reference: Observation | None = None
        self._busy_since: float | None = None
        self._last_busy: float | None = None
        self._episode = False
        self._hand_seen = False
        self._hand_now = False
        self._moving_now = False  # the last frame moved (`moving`)
        self._passing = Passing()  # what was seen beside the hand in this episode
        # (location, marker fix): the markers as seen when the cached location was placed
        self._marker_ref: tuple[BoardLocation, object] | None = None
        self._last_frame: np.ndarray | None = None
        # the board's neighbourhood as it looked when the location was placed (`read`)
        self._anchor: Anchor | None = None
        # the last frames of the board standing still (`_gather`); these and the other
        # stretches' frames are kept as their boxes round the board (`vision.kept`): the box of
        # which location in frames of which size
        self._calm: deque[Kept] = deque(maxlen=_GATHER_FRAMES)
        self._box: tuple[BoardLocation, tuple[int, int], Box] | None = None
        self._last_time: float | None = None
        self._frames = 0
        self._static_since: float | None = None
        self._noise = NoiseFloor()  # the camera's noise floor, over the last frames
        # what the board showed over the last seconds: the still view is mended from it
        self._memory = StillMemory(config.static_absorb_s * 2)
        # in this still stretch, whether the pieces explain the still "hand" (by whether it is
        # over the board: `_pieces_explain`) or a hand beside it holds none (`_piece_placed`)
        self._explained: dict[bool, bool] = {}
        self._static_limit = 0.0  # how long this stretch must last (its surest sign of a hand)
        self._sample: MotionSample | None = None  # the last frame's motion measures
        self._covers: tuple[MotionSample | None, np.ndarray | None] = (None, None)  # `_beside_covers`
        # the grid points that differed from the still board when it was last taken
        # (`_pieces_explain`): no sign of the next move's hand
        self._stale_corners: np.ndarray | None = None
        # the last reading's view and king evidence, and the last settled one's (for `confirm`)
        self._last_read: _Reading | None = None
        self._settled: _Reading | None = None
        # the observation of a board taken in passing (`accept`), while `_settled` is its reading
        self._passing_obs: Observation | None = None
        # (10, 10) the cells of the last settled reading something from the table may have
        # covered: they teach the colours nothing (`_untaught`)
        self._unsure_cells: np.ndarray | None = None
        # the board the game last guaranteed (the calibration's, then each `confirm`), by square
        self._confirmed: dict[int, Piece] | None = None
        # the playing area standing still, untouched, while the view is busy beside it
        # (`_provisional`): since when, its frames, the readings offered in this stretch, and
        # the last one offered, kept until the game takes it (`accept`)
        self._quiet_since: float | None = None
        self._quiet: deque[Kept] = deque(maxlen=_GATHER_FRAMES)
        self._offered: set[str] = set()
        self._quiet_read = 0  # how many frames the stretch had at its last reading
        # the provisional board offered, the motion view of the picture it was read from (all
        # `_commit` needs of it: the whole picture, 3.7 MB, was held while the offer stood) and
        # its reading
        self._offer: tuple[Settled, np.ndarray | None, _Reading] | None = None
        # (time, view pixels, cells) of the hand last seen over the board, and its pixels that
        # changed since (`_hand_kept`)
        self._hand_last: tuple[float, np.ndarray | None, np.ndarray | None] | None = None
        self._hand_left: np.ndarray | None = None
        #: the cells the hand may have hidden on the last frame sightings were taken of, and
        #: that frame's number (`_track_passing`)
        self._hidden: tuple[int, np.ndarray] | None = None
        # the cells standing quiet beside the hands (`_track_cells`): since when (NaN: not
        # quiet now), the last frames, and the changed cells last read beside them
        self._cell_quiet: np.ndarray | None = None
        self._cell_frames: deque[tuple[float, Kept]] = deque(maxlen=_GATHER_FRAMES)
        self._beside_read: bytes | None = None
        # (10, 10) the cells a hand held still over the board covers in this frame (`feed`)
        self._occluding: np.ndarray | None = None
        self._beside_rest = False  # this frame taken beside something at rest (`Settled.beside`)

    # -- set-up ---------------------------------------------------------------------------
    def calibrate(self, frame: np.ndarray, board: Mapping[int, Piece] | None = None,
                  location: BoardLocation | None = None) -> Calibration:
        """Learn the board's place, the colours, the orientation and a man's height from a
        frame of ``board`` (by default the start position: black men on 1-20, white on 31-50;
        a resumed game's or a set-up position otherwise), with no hand over it, and check that
        the frame reads as that board.  ``location``: where the board is (not searched for)."""
        if self.config.markers is not None and self.config.corner_46 is None:
            # the markers say where square 46 is: no convention on the pieces' colours needed
            fix = find_markers(frame, self.config.markers)
            if fix is not None:
                self.config = replace(self.config, corner_46=fix.corner_46)
        expected = start_board() if board is None else dict(board)
        # (kept to be put back if the frame does not show the board: a failed calibration
        # must leave nothing behind, or the camera view draws its outline as the board's)
        before = (self.calibration, self._location, self._pose, self._size, self._anchor)
        obs = self._read_as(frame, expected, location)
        location = self._location
        cal = self.calibration
        wrong = [sq for sq in range(1, 51)
                 if _colour(obs.reading(sq).content) != _colour(expected.get(sq))]
        if len(wrong) > 3:
            self.calibration, self._location, self._pose, self._size, self._anchor = before
            what = "the start position" if board is None else "the expected position"
            why = f"the calibration frame does not show {what} ({len(wrong)} squares differ)"
            # squares cut by the picture's edge are the likelier cause, and the camera the fix
            size = (frame.shape[1], frame.shape[0])
            check_in_view(location, size, cal.orientation, why,
                          named=self.config.corner_46 is not None)
            raise CalibrationError(f"{why}: set up the pieces and calibrate again"
                                   + edge_hint(location, size))
        self._reference = obs
        self._confirmed = expected
        self._still = small_view(frame, location)
        self._prev = self._still
        self._recent.clear()
        self._memory.clear(bare=self._still)
        self._stale_corners = None
        return cal

    def _read_as(self, frame: np.ndarray, expected: Mapping[int, Piece],
                 location: BoardLocation | None, strict: bool = True) -> Observation:
        """Learn a calibration from ``frame`` as showing ``expected`` and read the frame with
        it; the calibration, location and pose are the watcher's from then on.  ``strict``:
        `CalibrationError` when more than three squares clearly show another kind."""
        cal, pose = learn_calibration(frame, corner_46=self.config.corner_46,
                                      white_is_lighter=self.config.white_is_lighter,
                                      man_height=self.config.man_height, board=expected,
                                      location=location, strict=strict)
        if cal.colours.cells is not None:
            # what stands beside each light square as its look was taken (`CellReferences`)
            hidden = np.zeros((10, 10), dtype=bool)
            cells_of = cal.orientation.square_cells()
            for sq in cal.covered:
                hidden[cells_of[sq - 1]] = True
            cells = replace(cal.colours.cells, around=_beside_light(cal, expected, hidden))
            cal = replace(cal, colours=replace(cal.colours, cells=cells))
        self.calibration = cal
        self._location = cal.location
        self._pose = pose
        self._size = (frame.shape[1], frame.shape[0])  # else the reading searches again
        return self.read(frame)

    def reading_as(self, frame: np.ndarray, board: Mapping[int, Piece] | None = None,
                   location: BoardLocation | None = None) -> tuple[Observation, int]:
        """What ``frame`` shows, read with a calibration learnt from it as if it showed
        ``board`` (by default the start position), however much it differs; the watcher is
        left as it was.  A board a few moves on from the start position (the game began
        before the camera saw it still) reads as itself, the few squares the moves changed
        too where their looks show it clearly (else as the position has them): enough to find
        the moves played (`device.service`), then to learn the board as it stands.  Returns
        the observation and the corner of square 46 it was read with.  Raises `BoardNotFound`."""
        before = (self.calibration, self._location, self._pose, self._size, self._anchor)
        try:
            obs = self._read_as(frame, start_board() if board is None else dict(board), location,
                                strict=False)
            assert self.calibration is not None
            return obs, self.calibration.orientation.corner_46
        finally:
            self.calibration, self._location, self._pose, self._size, self._anchor = before

    @property
    def sides_unseen(self) -> bool:
        """Whether the calibration learnt no look for a side's pieces (the board it was learnt
        from had none of them: a game over before the camera saw it still): that side is never
        read until the board is learnt again."""
        from vision.colours import BLACK_PIECE, WHITE_PIECE

        cells = None if self.calibration is None else self.calibration.colours.cells
        return cells is not None and not all(cells.seen[..., k].any()
                                             for k in (WHITE_PIECE, BLACK_PIECE))

    def view_limits(self) -> str | None:
        """Which squares lie partly out of the camera's picture, with the fix
        (`vision.calibration.view_warning`); None when the whole board lies well in view, or
        uncalibrated."""
        if self.calibration is None or self._location is None or self._size is None:
            return None
        return view_warning(self._location, self._size, self.calibration.orientation)

    def king_limits(self) -> str | None:
        """Why kings cannot be told from men surely from where the camera stands, with the fix
        (`vision.kings.limit_warning`, naming the squares nearest the camera's foot where the
        readings stay unsure); None where they can be told on every square, or uncalibrated."""
        if self.calibration is None or self._pose is None or self._location is None:
            return None
        man = self.calibration.man_height or MAN_HEIGHT
        return limit_warning(self._pose, man, self._location.square_px,
                             self.calibration.orientation.square_cells(),
                             [str(sq) for sq in range(1, 51)])

    # -- reading --------------------------------------------------------------------------
    def _ensure_location(self, frame: np.ndarray) -> BoardLocation:
        size = (frame.shape[1], frame.shape[0])
        fresh = self._location is None or self._size != size
        if self.config.markers is not None:
            # Markers lie outside the playing area, where no hand hides them: checked on every
            # frame (a few ms, near the cached place); when they moved, the board or the camera
            # did, and the cached location is moved with them at once, hand or no hand.  The
            # markers are compared with themselves (the fix seen when the cached location was
            # placed), never with a location found otherwise, which may differ from theirs by a
            # few hundredths of a square: enough to upset the motion views kept with it.
            known = self._location is not None and self._size in (None, size)
            # the whole frame (a few times slower) only now and then while they are not near
            # the cached place: markers configured but hidden or gone cost little
            fix = find_markers(frame, self.config.markers, near=self._location if known else None,
                               whole=not known or self._frames % _MARKER_SEARCH_EVERY == 0)
            if fix is not None:
                if self.config.corner_46 is None:
                    self.config = replace(self.config, corner_46=fix.corner_46)
                # (location, fix): the marker fix seen when the cached location was placed
                placed = self._marker_ref
                if not known:
                    self._location, self._pose = fix.location, None
                elif placed is not None and placed[0] is self._location \
                        and fix.shift_from(placed[1]) > _MARKERS_MOVED:
                    log.info("the markers show the board or camera moved: following it")
                    moved = fix.motion_from(placed[1]) @ self._location.homography
                    self._location = BoardLocation.from_homography(
                        moved, self._location.corners_found, "markers", self._location.lens)
                    self._pose = None
                if placed is None or placed[0] is not self._location:
                    self._marker_ref = (self._location, fix)
                fresh = False
        if fresh:
            self._location = find_board(frame)
            self._pose = None
        self._size = size
        if self._pose is None:
            self._pose = estimate_pose(self._location.homography, size)
        return self._location

    def read(self, frame: np.ndarray, time: float | None = None,
             occluded: np.ndarray | None = None) -> Observation:
        """One frame's observation (no settling).  Needs a calibration or ``corner_46``.  The
        frame is first moved back onto the board as it was located (`vision.register`: a real
        camera's shake and drift of a pixel or two read men as kings)."""
        location = self._ensure_location(frame)
        assert self._pose is not None
        if self._anchor is None or self._anchor.location is not location:
            self._anchor = Anchor.of(frame, location)
        else:
            frame = self._anchor.align(frame)
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
                              offset=self.calibration.kings if self.calibration else 0.0)
        self._last_read = _Reading(view, probs, kings, location)
        standing = self._men_standing(orientation, probs)
        readings = []
        for (r, c) in orientation.square_cells():
            pe, pw, pb = probs[r, c]
            # King or man is never certain from the camera (near its foot, or from far away, a
            # king's top is a pixel or two from a man's; `bench.vision_accuracy` measures it):
            # the arbiter, which knows where kings can be, weighs it but is never overruled by
            # it (`rules.matching.KING_CONFIDENT` is above this clip).
            pk = float(np.clip(kings.p_king[r, c], 0.02, 0.98)) if occupied[r, c] else 0.1
            if standing[r, c]:  # a man the game put here, still standing: no king by the camera
                pk = min(pk, PRIOR_KING)
            options = [(pe, None), (pw * (1 - pk), Piece(WHITE)), (pw * pk, Piece(WHITE, True)),
                       (pb * (1 - pk), Piece(BLACK)), (pb * pk, Piece(BLACK, True))]
            total = sum(o[0] for o in options)
            dist = tuple(float(o[0] / total) for o in options)  # in `CONTENTS` order
            options.sort(key=lambda o: -o[0])
            conf = float(np.clip(options[0][0], 0.0, 0.999))
            occ = bool(occluded is not None and occluded[r, c])
            if occ:
                conf = min(conf, 0.5)
            readings.append(SquareReading(options[0][1], conf, options[1][1], occ,
                                          None if occ else dist))
        return Observation(tuple(readings), time)

    def _men_standing(self, orientation: Orientation, probs: np.ndarray) -> np.ndarray:
        """(10 x 10, image cells) where a man of the board the game last guaranteed (the
        calibration's, or `confirm`'s) still stands as far as the colours tell, while the board
        read (``probs``) is at most one move from it: at most one square shows a piece of a
        colour that was not there.  A man cannot turn into a king where it stands (Art. 8: it is
        crowned by ending a move on the far row), so a king read there is mostly the camera's
        mistake (from far away, or near its foot, a king's top is a pixel or two from a man's).
        A king of its side can take the square only once the man has gone: moving away and back
        (three plies, two squares showing a piece where none was), or captured, with the king
        moving in on the next ply (two plies seen as one board: one piece appears).  That last
        case passes this test, so the cap is the prior, not zero: the reading stays an unsure
        man, which never overrules the arbiter (`rules.matching.KING_CONFIDENT`), and the legal
        line with the king there is still taken.  A man on its far row is the exception: it
        waits there to be crowned (the opponent puts the second piece on it, Art. 8), and capped,
        its crown was never seen: "crown the man" was asked again and again.  A board that is
        no such continuation (more than one piece appeared) has none."""
        out = np.zeros((10, 10), dtype=bool)
        board = self._confirmed
        if board is None:
            return out
        best = np.argmax(probs, axis=-1)
        appeared = 0
        for sq, (r, c) in enumerate(orientation.square_cells(), start=1):
            k = best[r, c]
            if k == EMPTY:
                continue
            piece = board.get(sq)
            if piece is None or piece.color is not (WHITE if k == WHITE_PIECE else BLACK):
                appeared += 1
            elif not piece.king and sq not in promotion_row(piece.color is WHITE):
                out[r, c] = True
        return out if appeared <= 1 else np.zeros_like(out)

    # -- watching -------------------------------------------------------------------------
    @property
    def reference(self) -> Observation | None:
        """The board as last taken for the game's: at first the calibration frame's reading."""
        return self._reference

    @property
    def hand_present(self) -> bool:
        """A hand or arm was over the board in the last frame."""
        return self._hand_now

    @property
    def moving(self) -> bool:
        """Something moved in the last frame (beyond the noise, a shade aside): what it shows
        may be a piece on its way."""
        return self._moving_now

    def feed(self, frame: np.ndarray, time: float) -> Settled | None:
        """One camera frame; a `Settled` once the board has been still long enough after a hand
        or motion changed what stands on it, else None (and maybe a provisional board,
        `offered`)."""
        self._frames += 1
        self._occluding = None
        self._beside_rest = False
        self._last_frame, self._last_time = frame, time
        try:
            location = self._ensure_location(frame)
        except BoardNotFound:
            self._mark_busy(time, hand=True)  # no board visible: something covers it
            return None
        cfg = self.config.motion
        view = small_view(frame, location)
        if self._still is None:
            self._still = view
        previous = self._motion_base(time)
        noise = self._noise.update(view, previous)
        self._still = self._memory.mend(view, self._still, time, cfg, noise)
        if self.calibration is not None:
            self._still = bare_light(view, self._still, self._memory.bare,
                                     self.calibration.orientation.dark_parity, cfg, noise)
        sample = measure(view, previous, self._still, cfg, noise)
        sample = self._hand_kept(self._unseen_hand(sample), time)
        moving = sample.motion > cfg.motion_share
        busy_at = time
        if moving and previous is not self._prev and self._prev is not None \
                and self._prev.shape == view.shape and self._recent:
            # changed over `_MOTION_SPAN_S` but not since the last frame: the board has stood
            # still since that frame, and its stillness counts from there
            delta = change_delta(view, self._prev, self._still, cfg, noise)
            if motion_between(view, self._prev, delta) <= cfg.motion_share:
                busy_at = self._recent[-1][0]
        kept = self._keep(frame, location)
        self._quiet_stretch(kept, sample, time, previous)
        self._prev = view
        self._recent.append((time, view))
        intruding = (sample.hand or sample.beside_change
                     or sample.corners_changed >= cfg.corner_points)
        self._sample = sample
        if intruding and not moving:
            # A "hand" that has not moved at all for a while is part of the scene: grid corners
            # hidden or shown, or a region reaching in from the table, that the pieces that
            # moved explain (a king's side and shadow, on an edge square into the ring) after
            # `static_explained_s`; a still region reaching in from the table over squares (a
            # hand at rest, or the light changed) or corners the pieces do not explain, after
            # longer: it is taken as the still view.  A hand beside the board, over no square,
            # next to a square that changed holds the board up for `static_beside_s` while no
            # piece has been put down (it may hold one just lifted off), then no more; once one
            # is down, or elsewhere (at rest after the move), not at all; and it never becomes
            # part of the still view.  (A hand pauses too: at the turn of a multiple capture,
            # or holding a piece it carries; the moved pieces may then explain what it covers.)
            over = sample.hand or sample.corners_changed >= cfg.corner_points
            if self._static_since is None:
                self._explained = {}
            if over not in self._explained:  # read once per still stretch: the frame stays
                self._explained[over] = (self._pieces_explain(frame, sample) if over
                                         else self._piece_placed(frame, sample))
            explained = self._explained[over]
            limit = (self.config.static_explained_s if explained else
                     self.config.static_hand_s if sample.hand else
                     self.config.static_corners_s if over else self.config.static_beside_s)
            if self._static_since is None:
                self._static_since, self._static_limit = time, limit
            # the stretch waits as long as the surest sign of a hand seen in it asks (a hand
            # beside the board that reached over a square, however briefly, is a hand)
            limit = self._static_limit = max(limit, self._static_limit)
            if time > self._static_since and time - self._static_since >= limit - 1e-9:
                log.debug("a still change for %.1f s (%s): taken as the board",
                          time - self._static_since,
                          "the pieces'" if explained else "a hand" if sample.hand else
                          "corners" if over else "a hand beside the board")
                held = (over and not explained and time - self._static_since
                        < self.config.static_absorb_s - 1e-9)
                if held:
                    # A hand held still over the board (a player thinking, a finger on the
                    # piece to play): the board is read around it, the squares it covers
                    # occluded (they tell nothing), and it never becomes part of the still
                    # view.  Taken as the board, it was read as pieces (nine squares wrong at
                    # 0.93-0.98), and once it left, its absence was a hand over the board.
                    self._occluding = _held_cells(
                        sample, self._hand_last[2] if self._hand_last is not None else None)
                elif sample.hand:
                    self._still = view
                elif over:  # the corners, not a hand beside the board
                    self._still = settled_view(view, self._still, sample.from_table)
                # the board is taken beside something at rest that reaches in from the table:
                # a hand on the edge, or an arm over the squares next to it that the view did
                # not tell from them (`Settled.beside`)
                self._beside_rest = not over
                intruding = False
                if (explained or not over) and self._last_busy is not None:
                    # the board has been still since then
                    self._last_busy = min(self._last_busy, self._static_since)
        else:
            self._static_since = None
        self._track_cells(kept, sample, time)
        self._hand_now = intruding
        self._moving_now = moving
        self._gather(kept, moving or intruding, intruding)
        if moving or intruding:
            self._mark_busy(time if intruding else busy_at, hand=intruding)
            if intruding and not moving and sample.all_round and self._busy_since is not None \
                    and time - self._busy_since > self.config.relocate_after_s:
                self._relocate(frame, time)
            if self._hand_seen:
                self._track_passing(frame, sample)
            self._provisional(time)
            self._beside_hands(time)
            return None
        self._busy_since = None
        if not self._episode or self._last_busy is None:
            return None
        if time - self._last_busy < self.config.still_s - 1e-9:
            return None
        return self._settle(self._still_frame(), time, complete=False)

    def _hand_kept(self, sample: MotionSample, time: float) -> MotionSample:
        """``sample``, with the hand seen over the board last kept when this frame shows none
        but it has not left: a hand does not vanish without moving away.  Seen within
        `_HAND_GONE_S`, most of its pixels still differ from the still board and few of them
        changed since (a finger or two moved; a hand leaving changes all of them): it is still
        there, though its arm matched the border's colour in this frame and did not reach the
        table.  A hand hovering over two men flickered so, and the board was read under it
        (two men "turned black")."""
        if sample.hand:
            self._hand_last = (time, sample.hand_px, sample.hand_mask)
            self._hand_left = None
            return sample
        if self._hand_last is None or sample.diff is None:
            return sample
        seen, px, cells = self._hand_last
        if px is None or px.shape != sample.diff.shape or time - seen > _HAND_GONE_S + 1e-9:
            return self._hand_dropped(sample)
        left = self._hand_left if self._hand_left is not None else np.zeros_like(px)
        if sample.moved is not None and sample.moved.shape == px.shape:
            # left: changed, and now as the still board has it.  A hand moving where it is (its
            # fingers closing on a man) changes its pixels too, and was taken for gone: over
            # three men in a dim room, pinching one, the board was read under it (three men
            # "disappeared": the other renderer's selfplay-18 at seed 7008, a false Art. 27)
            left = left | (sample.moved & px & ~sample.diff)
        self._hand_left = left
        area = max(int(px.sum()), 1)
        if left.sum() > _HAND_LEAVING * area:
            self._hand_last = None  # seen leaving
            return sample
        if (sample.diff & px).sum() < (1 - _HAND_LEAVING) * area:
            return self._hand_dropped(sample)
        # (its cells are not this frame's: squares seen empty beside it still count as lifts)
        return replace(sample, hand=True)

    def _hand_dropped(self, sample: MotionSample) -> MotionSample:
        """The hand kept (`_hand_kept`) is no longer taken to be there, not seen leaving: not
        seen for `_HAND_GONE_S`, or its pixels as the still board has them.  On a frame where
        nothing moves, the still stretch its frames began (`feed`) begins again: whatever it
        was, it is no hand now, and the stretch does not wait as for one held still
        (`WatchConfig.static_hand_s`).  It was the still board gone stale there: under one lamp
        at quick play the arms' old shadows, kept frames after the arm left, set 1.2 s for a
        stretch of 1.17 s with the board standing perfectly still, and the board was not read
        (the other renderer's selfplay-21 at seed 6565004)."""
        self._hand_last = None
        if sample.motion <= self.config.motion.motion_share:
            self._static_since = None
        return sample

    def _unseen_hand(self, sample: MotionSample) -> MotionSample:
        """``sample``, with a hand over the board where the motion view found none but light
        squares changed under something that is no piece (`_covered_light`): their cells are
        the hand's.  A hand and arm the colour of the table and the border in a dim room
        reached over the board unseen, paused for two frames at the turn of a capture, and the
        board was taken as settled under it: the man it covered read as lifted, the picture of
        the hand became the still board, and a false touch-move was named a move later (the
        system bench's lidraughts-2 at seed 3737001)."""
        if sample.hand or sample.diff is None or sample.motion > self.config.motion.motion_share:
            return sample  # (while the view moves it is busy anyway: only a pause is asked)
        covered = self._covered_light(sample)
        if covered is None:
            return sample
        # (its pixels there, for `_hand_kept`: a hand does not vanish without moving away, though
        # the middle of the light squares it covers may show between its fingers)
        cells = np.kron(covered, np.ones((MOTION_PX, MOTION_PX), dtype=bool))
        w = (sample.diff.shape[0] - cells.shape[0]) // 2
        px = np.zeros_like(sample.diff)
        px[w:w + cells.shape[0], w:w + cells.shape[1]] = cells
        return replace(sample, hand=True, hand_mask=covered, hand_px=px & sample.diff)

    def _covered_light(self, sample: MotionSample,
                       pixels: np.ndarray | None = None) -> np.ndarray | None:
        """(10, 10) the light squares whose middle (`_LIGHT_MIDDLE`) changed since the still
        board on `_LIGHT_COVERED` of its pixels or more (of ``pixels``, a part of the change,
        when given); None when there are none.  No piece ever stands on a light square, and
        none reaches its middle: a king's side and top, under a camera 45 degrees off vertical,
        reach 0.83 of a square from its own square's centre, the middle begins 0.75 away, and a
        shadow is no change (`vision.motion.shade`).  What covers it is a hand, an arm or
        something set down.  (The pieces that moved cannot be asked: a hand over four men read
        them gone, and their footprints explained the hand away.)"""
        if sample.diff is None or self.calibration is None:
            return None
        shares = cell_shares(sample.diff if pixels is None else pixels, _LIGHT_MIDDLE)
        if shares is None:
            return None
        covered = (_PARITY != self.calibration.orientation.dark_parity) & (shares >= _LIGHT_COVERED)
        return covered if covered.any() else None

    def _keep(self, frame: np.ndarray, location: BoardLocation) -> Kept:
        """What the watcher keeps of ``frame`` (`vision.kept`): the box round the board."""
        size = (frame.shape[1], frame.shape[0])
        if self._box is None or self._box[0] is not location or self._box[1] != size:
            self._box = (location, size, board_box(location, size))
        return Kept.of(frame, self._box[2])

    def _mean(self, kept: Sequence[Kept]) -> np.ndarray:
        """The mean of ``kept`` frames as a whole frame, the rest of it the newest frame's."""
        assert self._last_frame is not None
        if not kept or kept[-1].size != (self._last_frame.shape[1], self._last_frame.shape[0]):
            return self._last_frame  # the frames changed size since (no board found in them)
        return mean_kept(kept, self._last_frame)

    def _quiet_stretch(self, kept: Kept, sample: MotionSample, time: float,
                       previous: np.ndarray | None) -> None:
        """Follow the playing area alone: quiet while no hand or arm is over a square, no grid
        corner is hidden, and none of its pixels moved since the frame motion is measured
        against (so quiet since that frame).  Something may move beside it meanwhile."""
        cfg = self.config.motion
        quiet = (previous is not None and not sample.hand
                 and sample.corners_changed < cfg.corner_points
                 and sample.board_motion <= cfg.motion_share)
        if not quiet:
            self._quiet_since = None
            self._quiet.clear()
            self._offered.clear()
            self._quiet_read = 0
            return
        if self._quiet_since is None:
            base = next((t for t, v in reversed(self._recent) if v is previous), None)
            self._quiet_since = time if base is None else base
        if self._quiet and not self._quiet[-1].fits(kept):
            self._quiet.clear()
        self._quiet.append(kept)

    def offered(self) -> Settled | None:
        """The provisional board the last frame fed offers (`Settled.provisional`), if any: the
        playing area stood quiet while the view was busy beside it, and reads otherwise than
        the still board.  The game takes it (`accept`) or leaves it (nothing changes)."""
        offer = self._offer
        return offer[0] if offer is not None and offer[0].frame == self._frames else None

    def _provisional(self, time: float) -> None:
        """While the view is busy, a board whose playing area has stood quiet (`_quiet_stretch`)
        for ``still_s`` and reads otherwise than the still board is offered (`offered`) as a
        provisional `Settled`:
        quick play leaves no still view between moves (an arm always on its way over the
        border, a hand resting beside the board, the reply begun before the other hand left),
        but the board itself stands untouched for a moment after each move.  What is seen
        then may also be the middle of a move (a capture's pieces half taken off, a piece held
        beside the board): the game takes it only if legal play explains it (`accept`), and the
        watcher changes nothing until then.  Each reading is offered once per quiet stretch."""
        if (self._quiet_since is None or self._reference is None or self.calibration is None
                or not self._episode or time - self._quiet_since < self.config.still_s - 1e-9):
            return
        if self._sample is None or not np.any(self._sample.changed > 0.2):
            return  # nothing on the board looks different from the still board
        # read as the stretch begins and as its mean grows (2, 4, 8 frames): a stretch's board
        # does not change, only the noise of its mean shrinks
        n = len(self._quiet)
        if self._quiet_read and (n & (n - 1) or n <= self._quiet_read):
            return
        self._quiet_read = n
        frame = self._mean(self._quiet)
        self._offer_reading(frame, self.read(frame, time), time)

    def _offer_reading(self, frame: np.ndarray, obs: Observation, time: float) -> None:
        """Offer ``obs`` (just read from ``frame``) as a provisional `Settled` (`offered`),
        unless it reads as the still board or was offered already in this stretch.  An
        occluded square read empty is no lift (touch-move, Art. 15, counts lifts)."""
        assert self._reference is not None and self._last_read is not None
        text = obs.text()
        if text == self._reference.text() or text in self._offered:
            return
        self._offered.add(text)
        gone = [sq for sq in self._gone(obs) if not obs.reading(sq).occluded]
        lifted = self._passing.lifted(gone, self.config.lift_frames)
        placed = self._passing.placed(self.config.lift_frames)
        settled = Settled(obs, lifted, time, frame=self._frames, placed=placed, provisional=True,
                          **self._seen_at(lifted, placed))
        self._offer = (settled, self._motion_view(frame), self._last_read)

    def _seen_at(self, lifted: tuple[int, ...], placed: tuple[int, ...]) -> dict:
        """When the ``lifted`` and ``placed`` squares of this episode were seen so (`Settled`)."""
        need = self.config.lift_frames
        return {"lifted_at": tuple(self._passing.lifted_at(sq, need) for sq in lifted),
                "placed_at": tuple(self._passing.placed_at(sq) for sq in placed),
                "open_last": tuple(sorted(self._passing.last_open.items())),
                "stood_last": tuple(sorted(self._passing.last_stood.items()))}

    def _track_cells(self, kept: Kept, sample: MotionSample, time: float) -> None:
        """Follow each cell alone (`_beside_hands`): quiet while no hand covers it or a cell
        next to it and none of its pixels moved since the frame motion is measured against."""
        self._cell_frames.append((time, kept))
        if sample.moved is None:
            self._cell_quiet = None
            return
        shares = cell_shares(sample.moved)
        if shares is None:
            self._cell_quiet = None
            return
        busy = shares > _CELL_MOVED
        if sample.hand and sample.hand_mask is not None:
            busy = busy | cv2.dilate(sample.hand_mask.astype(np.uint8),
                                     np.ones((3, 3), np.uint8)).astype(bool)
        since = self._cell_quiet if self._cell_quiet is not None else np.full((10, 10), np.nan)
        self._cell_quiet = np.where(busy, np.nan, np.where(np.isnan(since), time, since))

    def _beside_hands(self, time: float) -> None:
        """While hands are over the board, the cells beside them that have stood quiet for
        ``still_s`` and look otherwise than the still board are read, every other cell
        occluded, and the reading is offered (`offered`) as a provisional `Settled`: at quick
        play one player reaches over the board before the other's hand has left it, and for
        ten plies (21 s) the whole board was never seen untouched, though each move's squares
        stood clear beside the hands for a second (the other renderer's lidraughts-1, seed
        33007).  The game takes it only when legal play explains it with every square it
        changes read surely (an occluded square is not), as any provisional board.  Read again
        only when the changed cells seen beside the hands change."""
        if (self._offer is not None and self._offer[0].frame == self._frames) \
                or self._reference is None or self.calibration is None or not self._episode \
                or self._cell_quiet is None or self._sample is None or not self._sample.hand:
            return
        since = self._cell_quiet
        quiet = ~np.isnan(since) & (time - np.nan_to_num(since, nan=time) >= self.config.still_s - 1e-9)
        changed = quiet & (self._sample.changed > 0.2)
        if not changed.any() or quiet.all():
            return
        key = changed.tobytes()
        if key == self._beside_read:
            return
        self._beside_read = key
        first = float(np.nanmax(np.where(quiet, since, np.nan)))
        newest = self._cell_frames[-1][1] if self._cell_frames else None
        frames = [k for t, k in self._cell_frames
                  if t >= first - 1e-9 and newest is not None and k.fits(newest)]
        frame = self._mean(frames) if frames else self._last_frame
        self._offer_reading(frame, self.read(frame, time, occluded=~quiet), time)

    def accept(self, settled: Settled) -> None:
        """The game took the provisional board ``settled`` (`_provisional`, the last offered):
        it is the still board from now on, as if the view had settled on it."""
        if self._offer is None or self._offer[0] is not settled:
            raise ValueError("only the last provisional board offered can be accepted")
        _, view, seen = self._offer
        self._offer = None
        obs = settled.observation
        hidden = obs.occluded
        if hidden and self._reference is not None:
            # read beside hands (`_beside_hands`): what stood under them is as the still board
            # had it (the game's line changed no square that was not read surely)
            obs = obs.with_readings({sq: self._reference.reading(sq) for sq in hidden})
        self._commit(view, seen, obs, teach=False)
        self._passing_obs = settled.observation  # (its occluded squares teach nothing: `confirm`)
        self._offered.clear()

    def _motion_base(self, time: float) -> np.ndarray | None:
        """The view motion is measured against: the newest frame at least `_MOTION_SPAN_S`
        old (else the oldest kept), so that a hand moving slowly is motion at any frame rate:
        at 15 frames a second a slow hand changed too few pixels from one frame to the next and
        the board was read under it; at 6 it is the previous frame, as always."""
        if self._prev is None or not self._recent or self._recent[-1][1] is not self._prev:
            return self._prev
        for t, view in reversed(self._recent):
            if time - t >= _MOTION_SPAN_S - 1e-9:
                return view if view.shape == self._prev.shape else self._prev
        return self._recent[0][1] if self._recent[0][1].shape == self._prev.shape else self._prev

    def _gather(self, kept: Kept, busy: bool, hand: bool) -> None:
        """Keep the frames of the board standing still (since it last moved, the last
        `_GATHER_FRAMES`): each is evidence, and their mean (`_still_frame`) is read.  A real
        camera's noise, in a dim room several grey levels, shrinks with the square root of
        their number; the shake (a fraction of a pixel) barely blurs it.  A frame that moved
        starts them again (with itself, unless a hand is in it).  Only references are kept: the
        mean is taken when a board is read."""
        if busy:
            self._calm.clear()
            if hand:
                return
        if self._calm and not self._calm[-1].fits(kept):
            self._calm.clear()
        self._calm.append(kept)

    def _still_frame(self) -> np.ndarray:
        """The mean of the still frames kept (`_gather`), or the last frame."""
        assert self._last_frame is not None
        return self._mean(self._calm) if self._calm else self._last_frame

    def _pieces_explain(self, frame: np.ndarray, sample: MotionSample) -> bool:
        """Whether the pieces that moved explain what looks like a hand standing still: every
        grid corner that differs from the still board, and every changed pixel of a region
        reaching in from beyond the board, lies where a piece that moved stands, or stood, in
        the way.  A piece seen obliquely, and its shadow, reach the corners of its square (a
        king's beyond); a king moved onto an edge square, next to a piece it took, reaches into
        the ring over two squares and more, as an arm does; a hand covers more.  Read once per
        still stretch (the frame does not change while it lasts)."""
        if sample.corner_mask is None:
            return False
        moves = self._moves(frame)
        if moves is None or not moves[2]:
            return False
        ref, now, moved = moves
        covered = self._covering(ref, moved) | self._covering(now, moved)
        corners = sample.corner_mask
        if self._stale_corners is not None and self._stale_corners.shape == corners.shape:
            # a grid point that already differed when the still board was taken (the board's
            # outer corner beside a hand that rested there) is none of this move's: it held
            # every board of a quick king endgame up as a hand's would (`static_hand_s`), and
            # four plies went by unseen (bench selfplay-57 at seed 101012)
            corners = corners & ~self._stale_corners
        if not np.all(covered | ~corners):
            return False
        if sample.diff is not None and self._covered_light(
                sample, sample.diff & ~self._moved_footprint(moves, sample.diff.shape)) is not None:
            return False  # (something no piece is lies over a light square: beyond where the
            # pieces that moved stand or stood, their shadows under a low lamp included)
        return sample.from_table is None or self._within_footprints(sample.from_table, moves)

    def _piece_placed(self, frame: np.ndarray, sample: MotionSample) -> bool:
        """Whether the move's piece is down, so a hand resting beside the board holds none of
        its pieces and the board need not wait for it: a piece stands on a square that the still
        board had empty (or held another piece), and every changed pixel of the board but the
        hand's own lies where a piece that moved stands or stood (a hand over a square that
        looks joined to nothing beside the board, read as a piece there, is no piece put down).
        """
        moves = self._moves(frame)
        if moves is None or not any(moves[1].reading(sq).content is not None for sq in moves[2]):
            return False
        if sample.diff is None:
            return True
        board = sample.diff if sample.from_table is None else sample.diff & ~sample.from_table
        return self._within_footprints(board, moves)

    def _moves(self, frame: np.ndarray) -> tuple[Observation, Observation, list[int]] | None:
        """The still board, ``frame`` read, and the squares whose content differs between them
        (None before a calibration)."""
        if self._reference is None or self.calibration is None or self._pose is None:
            return None
        ref, now = self._reference, self.read(frame)
        return ref, now, _differing(ref, now)

    def _within_footprints(self, mask: np.ndarray,
                           moves: tuple[Observation, Observation, list[int]]) -> bool:
        """Whether the view pixels of ``mask`` lie where the pieces that moved (`_moves`) stand
        or stood, but for less than a hand covers of any square (a shadow's tip)."""
        rest = int(np.count_nonzero(mask & ~self._moved_footprint(moves, mask.shape)))
        return rest < self.config.motion.hand_share * MOTION_PX * MOTION_PX

    def _pieces_geometry(self, obs: Observation,
                         squares: list[int]) -> tuple[np.ndarray, np.ndarray, float]:
        """The bases and tops (n x 2, squares from the playing area's top-left corner, as the
        view shows them) of the pieces of ``obs`` on ``squares``, and a piece's radius."""
        assert self.calibration is not None and self._pose is not None
        cells = self.calibration.orientation.square_cells()
        centres, heights = [], []
        man = self.calibration.man_height or 0.2
        # a king the game put on one of these squares stands as high wherever it is read now:
        # the camera tells kings from men unsurely, and read as a man, a king moved onto an edge
        # square reached into the ring beyond its footprint (a "hand" held the board up)
        game = self._confirmed or {}
        kings = {p.color for sq in squares if (p := game.get(sq)) is not None and p.king}
        for sq in squares:
            piece = obs.reading(sq).content
            if piece is not None:
                r, c = cells[sq - 1]
                centres.append((c + 0.5, r + 0.5))
                heights.append(man * (2 if piece.king or piece.color in kings else 1))
        kings = self._last_read.kings if self._last_read is not None else None
        radius = (kings.radius if kings is not None and np.isfinite(kings.radius) else 0.45)
        if not centres:
            return np.zeros((0, 2)), np.zeros((0, 2)), radius
        base = np.array(centres)
        return base, base + self._pose.shift(base, np.array(heights)), radius

    def _moved_footprint(self, moves: tuple[Observation, Observation, list[int]],
                         shape: tuple[int, ...]) -> np.ndarray:
        """The motion view's pixels where the pieces that moved (`_moves`) stand or stood."""
        ref, now, moved = moves
        return self._footprint(ref, moved, shape) | self._footprint(now, moved, shape)

    def _footprint(self, obs: Observation, squares: list[int],
                   shape: tuple[int, ...]) -> np.ndarray:
        """The motion view's pixels (``shape``) the pieces of ``obs`` on ``squares`` may hide or
        shade: within a piece's radius and `_COVER_MARGIN` (and the view's blur) of the segment
        from its base to its top."""
        base, top, radius = self._pieces_geometry(obs, squares)
        mask = np.zeros(shape[:2], dtype=np.uint8)
        reach = int(np.ceil((radius + _COVER_MARGIN) * MOTION_PX)) + 1
        for a, b in zip(base, top):
            cv2.line(mask, view_point(*a), view_point(*b), 1, 2 * reach + 1)
            cv2.circle(mask, view_point(*a), reach, 1, -1)
            cv2.circle(mask, view_point(*b), reach, 1, -1)
        return mask.astype(bool)

    def _covering(self, obs: Observation, squares: list[int]) -> np.ndarray:
        """(11, 11) the grid points (row, col) the pieces of ``obs`` on ``squares`` may hide or
        shade: those within a piece's radius and `_COVER_MARGIN` of the segment from its base to
        its top, in the board plane as the view shows it."""
        base, top, radius = self._pieces_geometry(obs, squares)
        covered = np.zeros((11, 11), dtype=bool)
        if not len(base):
            return covered
        gy, gx = np.mgrid[0:11, 0:11]
        pts = np.stack([gx.ravel(), gy.ravel()], axis=1).astype(np.float64)
        d = top - base  # (n, 2)
        t = np.clip(np.einsum("pnk,nk->pn", pts[:, None, :] - base[None], d)
                    / np.maximum(np.einsum("nk,nk->n", d, d), 1e-9)[None], 0.0, 1.0)
        nearest = base[None] + t[..., None] * d[None]
        dist = np.linalg.norm(pts[:, None, :] - nearest, axis=2).min(axis=1)
        # at least its own square's corners: a piece put on or taken off a square changes all of
        # it to the view's blur.  A king's radius measured 0.375 left a corner of the edge
        # square it left unexplained, and the board waited as for a hand (`static_hand_s`)
        # through every pause of a quick king endgame (selfplay-35 at bench seed 101019)
        return (dist <= max(radius + _COVER_MARGIN, _OWN_CORNERS)).reshape(11, 11)

    def button_pressed(self, time: float | None = None) -> Settled | None:
        """The player marked the move complete: a settled observation at once from the last
        frame, unless a hand is over the board (then None)."""
        if self._last_frame is None or self._hand_now:
            return None
        return self._settle(self._still_frame(), time if time is not None else self._last_time,
                            complete=True)

    def _mark_busy(self, time: float, hand: bool) -> None:
        if self._busy_since is None:
            self._busy_since = time
        self._last_busy = time
        if not self._episode:
            self._episode = True
            self._passing = Passing()
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
            view = small_view(frame, location)
            sample = measure(view, None, self._still, self.config.motion,
                             self._noise.update(view, None))
            if sample.ring <= self.config.motion.intrusion_share:
                log.info("board found again after the camera or board moved")
                # the pose at once: the same frame may go on to look for lifted pieces
                pose = estimate_pose(location.homography, (frame.shape[1], frame.shape[0]))
                self._location, self._pose, self._prev = location, pose, view
                self._recent.clear()
                self._memory.clear()
                return

    def _track_passing(self, frame: np.ndarray, sample: MotionSample) -> None:
        if self._reference is None or self.calibration is None or self._location is None:
            return
        assert self._pose is not None
        cal = self.calibration
        # (the outlines of the dark squares alone: no piece stands on a light one, and this
        # reading runs on nearly every frame a hand is over the board)
        view = board_view(frame, self._location, self._pose, cal.man_height or 0.2,
                          rim_cells=_dark_cells(cal.orientation.dark_parity))
        # (colour alone: a hand's own edges over a cell are no piece's outline)
        probs = classify(view, cal.colours, cal.orientation.dark_parity, cal.empty_ref,
                         outline=False).p
        # Seen empty for a lift put back: read empty, with the cell's top sample and its floor
        # patches as the cell looks empty, and either its light neighbours (always empty) as they
        # look (an arm the colour of the dark squares would cover those too) with the cell itself
        # not under the hand, or neither the cell nor a neighbour under the hand as the motion
        # view finds it (`vision.motion`: a region reaching in from the table).  (The edge of an
        # arm the colour of the empty dark squares covers one square and none of its light
        # neighbours: leaving over a man on the far row, it was that man lifted, on one frame
        # read very surely, and a false touch-move; the system bench's selfplay-6 at seed
        # 505003.)  A frame where it is seen so very surely counts
        # twice: a piece lifted for a moment between two frames of the hand is reported.
        # `lift_frames` such counts are needed.
        # Seen placed (a piece put down on the way, maybe taken again before the board was
        # still): a square the still board had empty read as a piece surely, neither it nor a
        # neighbour under the hand, on `lift_frames` frames.
        # Under the hand too: a light square that changed much (no piece ever stands there, so
        # something lies over it: a hand the colour of the board that the motion view does not
        # find as a region from the table, its arm or its shadow).  A hand like the board
        # reached over a man next to 35-30's square, the man read empty beside it, clear of a
        # hand found nowhere, and a false touch-move was named (the system bench's selfplay-6
        # at seed 3535000).
        clear = np.zeros((10, 10), dtype=bool)
        hand = over = None
        if sample.hand_mask is not None:
            light = view.parity != cal.orientation.dark_parity
            over = sample.hand_mask | (light & (sample.changed >= _LIGHT_COVERED))
            hand = np.logical_or.reduce([over, *_neighbours(over, False)])
        if cal.empty_ref is not None:
            top_empty = distance(view.top, cal.empty_ref) < _CLEAR
            looks = top_empty & (distance(view.floor, cal.empty_ref) < _CLEAR)
            clear = looks & np.logical_and.reduce(_neighbours(top_empty, True))
            if hand is not None:
                clear &= ~over
                clear |= looks & ~hand
            beside = self._beside_covers()  # (what an arm from the table may hide)
            if beside is not None:
                clear &= ~beside
            clear &= ~self._leaving(sample, over, hand, beside)
        # Seen unchanged (the order first sightings give is evidence only where the other
        # square was seen so after: `Passing.last_open`, `last_stood`): as for a placing, read
        # surely as the still board has it, neither it nor a neighbour under the hand.
        for sq, (r, c) in enumerate(cal.orientation.square_cells(), start=1):
            beside = hand is not None and not hand[r, c]
            piece = beside and max(probs[r, c, 1], probs[r, c, 2]) > 0.9
            if self._reference.reading(sq).content is None:
                if piece:
                    self._passing.seen_placed(sq, self._frames)
                elif beside and probs[r, c, 0] > 0.9:
                    self._passing.seen_unchanged(sq, self._frames, occupied=False)
            elif probs[r, c, 0] > 0.9:
                self._passing.seen_empty(sq, self._frames, bool(clear[r, c]),
                                         2 if probs[r, c, 0] > _LIFT_SURE else 1)
            elif piece:
                self._passing.seen_unchanged(sq, self._frames, occupied=True)

    def _leaving(self, sample: MotionSample, *hiding: np.ndarray | None) -> np.ndarray:
        """(10, 10) the cells the hand may have hidden on the frame before (``hiding``: what
        may hide each on this one) that changed since (`_LEAVING_MOVED` of their pixels): the
        hand is moving off them, and what they show is the hand's edge, not yet the square.  A
        hand sliding 15-20 had pinched its man beside 10, the man on 10 read empty under it; on
        one frame of the slide the motion view found only two of its nine cells, 10 was clear,
        its edge still over 10 read as 10 empty, very surely, and a false touch-move was named
        (the other renderer's lidraughts-1 at seed 60003).  A piece lifted is seen so on the
        frames after, the hand gone from its square."""
        now = np.logical_or.reduce([np.zeros((10, 10), dtype=bool),
                                    *(m for m in hiding if m is not None)])
        before = self._hidden
        self._hidden = (self._frames, now)
        leaving = np.zeros((10, 10), dtype=bool)
        if before is None or before[0] != self._frames - 1 or sample.moved is None:
            return leaving
        moved = cell_shares(sample.moved)
        return leaving if moved is None else before[1] & (moved >= _LEAVING_MOVED)

    def _beside_covers(self) -> np.ndarray | None:
        """(10, 10) the cells a region reaching in from the table (a hand at rest beside the
        board, hovering over its edge) covers `_BESIDE_COVERS` of, in the last frame, or that
        lie within `_BESIDE_REACH` of where it reaches the board's edge, covering none of it
        (`vision.motion.reach_shares`); None when none.  It covers less of them than a hand
        over the board does, but what it covers of a square is not seen: a fist hovering over the far edge covered a corner of an empty square, read
        as a black man at 0.98, and a false Art. 27 followed (the other renderer's selfplay-50,
        seed 43009).  Nor is what its hand covers where the hand is the colour of the border and
        the squares: an arm from the table stopped at the border, its dark hand hovering over
        the corner square beyond it unseen; the man there read as gone, "lifted", and a false
        touch-move was named (the other renderer's selfplay-10, seed 51002).  Nor, beside what
        it covers, does a hand show all of itself: the cells next to those are hidden too.  A
        hand the colour of the dark squares resting at the board's edge showed over a quarter of
        one square, the man on the next read as gone, and a false Art. 27b was named (the
        system bench's lidraughts-1 at seed 3737012)."""
        sample, covered = self._covers
        if sample is not self._sample:  # (once per frame: the passing sightings and the settle)
            covered = None
            table = None if self._sample is None else self._sample.from_table
            shares = None if table is None or not table.any() else cell_shares(table)
            if shares is not None:
                reach = reach_shares(table, _BESIDE_REACH, _BESIDE_COVERS)
                own = shares > _BESIDE_COVERS
                covered = np.logical_or.reduce([own, *_neighbours(own, False),
                                                reach > _BESIDE_COVERS])
                covered = covered if covered.any() else None
            self._covers = (self._sample, covered)
        return covered

    def _settle(self, frame: np.ndarray, time: float | None, complete: bool) -> Settled | None:
        occluded = self._occluding
        covered = self._beside_covers()
        if covered is not None:
            occluded = covered if occluded is None else occluded | covered
        obs = self.read(frame, time, occluded=occluded)
        seen = self._last_read
        assert seen is not None
        changed = self._reference is None or obs.text() != self._reference.text()
        # After a hand was over the board the arbiter always gets the board, changed or not: a
        # move misread as "unchanged" must not be lost, and a piece lifted and put back matters
        # for touch-move.  Motion without a hand (a shaking camera) that changed nothing is no move.
        emit = complete or changed or self._hand_seen
        # the squares whose pieces left (moved, captured, or changed), and those lifted and put
        # back (seen surely empty on several frames while the hand was over the board), in the
        # order they were first seen empty
        lifted = self._passing.lifted(self._gone(obs), self.config.lift_frames)
        placed = self._passing.placed(self.config.lift_frames)
        seen_at = self._seen_at(lifted, placed)
        self._commit(self._motion_view(frame), seen, obs)
        if not emit:
            return None
        # beside something at rest, or beside a region from the table on this frame: a dark
        # hand over the squares next to its arm, taken as a shade of them, was no hand, and the
        # man under its fingers read as gone (the system bench's selfplay-14 at seed 1212011)
        beside = self._beside_rest or (self._sample is not None and self._sample.beside)
        return Settled(obs, lifted, time, complete, frame=self._frames, placed=placed,
                       beside=beside, **seen_at)

    def _gone(self, obs: Observation) -> list[int]:
        """The squares of the still board whose piece ``obs`` no longer shows there (a king read
        as a man, or the reverse, is no piece gone: crowning is the opponent's, and a king's
        kind misread must not bind its side to touch-move)."""
        ref = self._reference
        if ref is None:
            return []

        def colour(sq: int, o: Observation) -> object:
            piece = o.reading(sq).content
            return None if piece is None else piece.color

        def before(sq: int) -> object:
            # the still board's piece, unless it was read unsurely and the game last had no
            # piece of its colour there: a dark hand hovering over a white man, taken for a
            # still board, read it as a black king at 0.68; the man read again once the hand
            # left was "gone" from there, lifted, and a false touch-move named (the system
            # bench's selfplay-21, seed 2424001)
            was = colour(sq, ref)
            if was is not None and self._confirmed is not None \
                    and not sure_of_kind(ref.reading(sq)):
                piece = self._confirmed.get(sq)
                if piece is None or piece.color != was:
                    return None
            return was

        return [sq for sq in range(1, 51)
                if (was := before(sq)) is not None and colour(sq, obs) != was]

    def _motion_view(self, frame: np.ndarray) -> np.ndarray | None:
        """``frame``'s motion view (`small_view`) at the board's location; None before one."""
        return None if self._location is None else small_view(frame, self._location)

    def _commit(self, view: np.ndarray | None, seen: _Reading, obs: Observation,
                teach: bool = True) -> None:
        """``obs`` (read as ``seen`` from a picture whose motion view is ``view``; None before
        the board was located) is the still board from now on: the episode
        ends, the still view and (``teach``) the colours learn from it.  A provisional board
        (`accept`) teaches less: it was read while the view was busy beside it, and what its
        squares showed may be a hand's shadow or a captured man on its way off.  Taught as the
        empty squares' look under the game's board, three empty dark squares in a dim room read
        as dark men from then on (the other renderer's selfplay-30: a false Art. 27).  Its sure
        readings teach nothing, and the game's board (`confirm`) teaches only the squares read
        as it has them: a square a man just left, never seen empty before, learns its empty
        look there (untaught, it read as the man still standing: the other renderer's
        selfplay-8, a false Art. 27)."""
        self._passing = Passing()
        self._offer = None
        self._beside_read = None
        if view is not None:
            moved = None
            if self._reference is not None and self.calibration is not None \
                    and self._pose is not None:
                # (a square occluded is read as nothing: what covers it did not move there)
                moves = (self._reference, obs, [sq for sq in _differing(self._reference, obs)
                                                if sq not in obs.occluded])
                moved = self._moved_footprint(moves, view.shape)
            self._still = committed_view(view, self._still, self.config.motion,
                                         self._noise.update(view, None), moved)
        self._episode = False
        self._hand_seen = False
        self._last_busy = None
        self._stale_corners = (None if self._sample is None or self._sample.corner_mask is None
                               else self._sample.corner_mask.copy())
        self._unsure_cells = self._untaught()
        if self.calibration is not None and teach:
            self._refine(seen, obs)
        self._settled = seen
        self._passing_obs = None if teach else obs
        self._reference = obs

    def confirm(self, board: Mapping[int, Piece]) -> None:
        """What the game says stands on the board of the last settled observation (the
        arbiter's board, once it has accepted that observation).  It teaches what the readings
        alone cannot:

        - the colours: every cell's look of what the game puts on it, also where the reading
          was unsure (a man moved under a glare onto a square it never stood on before stays
          unsure, move after move, until something tells the model what it looks like there);
        - the king measurement (`vision.kings.refit`): in the start position each side stands
          on its own half, so a man's height and each colour's look are hard to tell apart
          there, and men spread over the board tell them apart;
        - the looks of the light squares whose neighbours the board changed
          (`vision.squares.relit_light_references`): the pieces' shadows reach them, and the
          light they tell is the light only beside the same pieces (not from a board in
          passing).

        Kings teach neither (a king's top is not a man's).  Each settled board teaches once;
        nothing when the board or the camera moved since."""
        cal, seen, passing = self.calibration, self._settled, self._passing_obs
        self._settled = self._passing_obs = None
        self._confirmed = dict(board)
        if cal is None and seen is not None and self.config.corner_46 is not None:
            self._calibrate_on(board)
            return
        if cal is None or seen is None or self._pose is None or seen.location is not self._location:
            return
        cells = cal.orientation.square_cells()
        labels = np.full((10, 10), -1)
        men = np.zeros((10, 10), dtype=bool)
        unsure = self._unsure_cells
        for sq, (r, c) in enumerate(cells, start=1):
            piece = board.get(sq)
            if unsure is not None and unsure[r, c]:
                continue
            if passing is not None and (passing.reading(sq).occluded
                                        or _colour(passing.reading(sq).content) != _colour(piece)):
                continue  # seen in passing otherwise than the game has it, or under a hand
            if piece is None:
                labels[r, c] = EMPTY
            elif not piece.king:
                labels[r, c] = WHITE_PIECE if piece.color is WHITE else BLACK_PIECE
                men[r, c] = True
        if passing is not None and cal.colours.cells is not None:
            # in passing, only a look never seen on its cell (a square a man just left), and
            # the class colours not at all: the frame may be shaded where it was read right
            k = np.clip(labels, 0, 2)
            known = np.take_along_axis(cal.colours.cells.seen, k[..., None], axis=-1)[..., 0]
            labels = np.where(known, -1, labels)
            men &= labels >= 0
        if cal.colours.cells is not None and passing is None:
            # the light squares whose neighbours changed: their looks taken again beside them
            colours = relit_light_references(seen.view, cal.colours, cal.orientation.dark_parity,
                                             _beside_light(cal, board, unsure))
            cal = replace(cal, colours=colours)
        if cal.colours.cells is not None:
            cal = self._learn(cal, seen.view, labels, rate=0.0 if passing is not None else 0.1)
        if isinstance(cal.kings, KingCalibration):
            kings = refit(cal.kings, seen.kings, men, self._pose)
            cal = replace(cal, man_height=kings.man_height, kings=kings)
        self.calibration = cal

    def _calibrate_on(self, board: Mapping[int, Piece]) -> None:
        """Uncalibrated (a resumed game whose board showed another position than the game's:
        pieces moved while the companion was off, read with square 46's corner alone), the
        first board the game accepts is learnt as a calibration: read by the uncalibrated
        model for the rest of the game, squares stayed unsure and moves went unrecorded.  The
        still board's frames are the ones just settled on; if they do not show ``board`` after
        all, the watcher stays as it was."""
        frame = self._still_frame()
        if frame is None:
            return
        try:
            self.calibrate(frame, board=board, location=self._location)
        except (BoardNotFound, CalibrationError) as e:
            log.info("the board the game accepted is not learnt yet: %s", e)
            return
        log.info("the board the game accepted is learnt: reading with a calibration from now on")

    def _refine(self, seen: _Reading, obs: Observation) -> None:
        """Teach the colour model what sure readings show: each sure cell's own look of what
        stands on it (learnt at once where the cell was never seen so, `ColourModel.learnt`),
        and the class colours a little.  Sure: the colours give it a probability above 0.98, it
        is the same as at the last still board (a one-off misreading must not teach the model
        its own mistake), and it is no king (a king's top is not a man's).  The probabilities
        are the reading's own (``seen``, read with this calibration)."""
        cal = self.calibration
        assert cal is not None
        if cal.colours.cells is None:
            return
        probs = seen.probs
        before = self._reference
        labels = np.full((10, 10), -1)
        for sq, (r, c) in enumerate(cal.orientation.square_cells(), start=1):
            piece = obs.reading(sq).content
            k = EMPTY if piece is None else WHITE_PIECE if piece.color is WHITE else BLACK_PIECE
            if probs[r, c, k] > 0.98 and (piece is None or not piece.king) \
                    and (before is None or before.reading(sq).content == piece) \
                    and (self._unsure_cells is None or not self._unsure_cells[r, c]):
                labels[r, c] = k
        self.calibration = self._learn(cal, seen.view, labels)

    def _untaught(self) -> np.ndarray | None:
        """(10, 10) the cells (as the view shows them) that a region reaching in from the table,
        or a hand, touches in the last frame (with the cells beside them): the board is read
        there and the game says what stands there, but what the camera saw may be a hand at rest
        over the square (a hand taking the piece it captured, at quick play), not the square.
        Taught as the square's look, a hand's colours made the empty square it left read as a
        piece from then on.  None: nothing from the table."""
        sample = self._sample
        if sample is None:
            return None
        touched = np.zeros((10, 10), dtype=bool)
        if sample.from_table is not None and sample.from_table.any():
            (x0, y0), (x1, y1) = view_point(0, 0), view_point(10, 10)
            inner = sample.from_table[y0:y1, x0:x1].astype(np.float32)
            touched |= cv2.resize(inner, (10, 10), interpolation=cv2.INTER_AREA) > 0
        if sample.hand_mask is not None:
            touched |= sample.hand_mask
        if not touched.any():
            return None
        return cv2.dilate(touched.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)

    @staticmethod
    def _learn(cal: Calibration, view: BoardView, labels: np.ndarray, rate: float = 0.1
               ) -> Calibration:
        """``cal`` with its colours taught the ``labels`` (10 x 10 classes, -1: none) of a view
        (the class colours moved by ``rate``, `ColourModel.learnt`)."""
        par = cal.orientation.dark_parity
        change = light_change(view, cal.colours, par)
        colours = cal.colours.learnt(relight(view.top, 1.0 / change), labels, rate=rate,
                                     rims=view.rim,
                                     floors=(view.top - view.floor) / change[..., None])
        assert colours.cells is not None
        return replace(cal, colours=colours, empty_ref=colours.cells.mean[..., EMPTY, :])

    def turn_half_round(self) -> Calibration:
        """The calibration's orientation was a half turn wrong (the start position looks the same
        turned with the sides swapped, and the ``white_is_lighter`` convention picked the wrong
        one): read the board turned from now on (`Calibration.turned`), with the last settled
        observation and the lifted squares being tracked turned alike, and the convention (and
        a given square 46's corner) the other way round.  Returns the turned calibration."""
        if self.calibration is None:
            raise CalibrationError("no calibration to turn: calibrate on the start position first")
        self.calibration = self.calibration.turned()
        corner = None if self.config.corner_46 is None else self.calibration.orientation.corner_46
        self.config = replace(self.config, white_is_lighter=not self.config.white_is_lighter,
                              corner_46=corner)
        if self._reference is not None:
            self._reference = self._reference.turned()
        if self._confirmed is not None:
            self._confirmed = {51 - sq: Piece(p.color.other, p.king)
                               for sq, p in self._confirmed.items()}
        self._passing = self._passing.turned()
        self._offer = None
        self._offered.clear()
        return self.calibration
