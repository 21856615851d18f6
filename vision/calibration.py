"""Learning a board from a frame of the start position: where square 46 is (`Orientation`), the
colours of both square kinds and both sides' pieces, each cell's empty look, and a man's height
(`Calibration`).  `vision.pipeline.BoardWatcher.calibrate` checks the result against the frame.

Orientation: image cells (row, col), row 0 along the image-top edge of the playing area, map to
the official squares by one of four rotations.  Square 46's corner is given by the configuration
(an index into the image-order corners TL, TR, BR, BL), or learnt from the start position, where
by convention the lighter pieces are white's (``white_is_lighter``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.piece import BLACK, WHITE, Piece
from rules.squares import column, row
from vision.colours import ColourModel
from vision.kings import KingCalibration, KingEvidence, calibrate, king_evidence
from vision.locate import BoardLocation, find_board
from vision.pose import Pose, estimate_pose
from vision.squares import BoardView, board_view, classify, learn_colours, reference_gain

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


@dataclass(frozen=True, eq=False)
class Calibration:
    """What was learnt from the start position (or configured)."""

    location: BoardLocation
    orientation: Orientation
    colours: ColourModel
    man_height: float | None
    empty_ref: np.ndarray | None = None  # (10, 10, 3) each cell's top sample when empty
    rim_offset: KingCalibration | float = 0.0  # the king measurement's calibration


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


def _fit_heights(ev: KingEvidence, pose: Pose) -> tuple[float | None, KingCalibration | float]:
    """A man's height and the calibration of the king measurement (`vision.kings.calibrate`)
    from the king evidence of the 40 men of the start position; (None, 0.0) when it cannot be
    had (then a single frame's median height stands in)."""
    kings = calibrate(ev, pose)
    if kings is None:
        return None, 0.0
    return kings.man_height, kings


def start_board() -> dict[int, Piece]:
    out = {sq: Piece(BLACK) for sq in range(1, 21)}
    out.update({sq: Piece(WHITE) for sq in range(31, 51)})
    return out


def learn_calibration(frame: np.ndarray, *, corner_46: int | None = None,
                      white_is_lighter: bool = True, man_height: float | None = None,
                      location: BoardLocation | None = None) -> tuple[Calibration, Pose]:
    """Learn the board's place, the colours, the orientation and a man's height from a frame
    of the start position (black men on 1-20, white on 31-50, no hand).  `BoardNotFound` when
    there is no board; `CalibrationError` when a configured ``corner_46`` does not fit it."""
    location = location or find_board(frame)
    pose = estimate_pose(location.homography, (frame.shape[1], frame.shape[0]))
    view = board_view(frame, location, pose, man_height or 0.2)
    model, dark_parity = learn_colours(view)
    if corner_46 is not None:
        orientation = Orientation.from_corner_46(corner_46)
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
            want_w = 1 if white_is_lighter else 2
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
    if man_height is None and not pose.top_down:
        occupied = np.zeros((10, 10), dtype=bool)
        for sq in list(range(1, 21)) + list(range(31, 51)):
            occupied[cells[sq - 1]] = True
        ev = king_evidence(view, pose, occupied, man_height=0.2, square_px=location.square_px)
        man_height, rim_offset = _fit_heights(ev, pose)
    else:
        rim_offset = 0.0
    cal = Calibration(location, orientation, colours, man_height, empty_ref, rim_offset)
    return cal, pose
