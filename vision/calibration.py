"""Learning a board from a frame of the start position (or of any position the game says stands
on it: a game resumed, an endgame set up): where square 46 is (`Orientation`), the
colours of both square kinds and both sides' pieces, each cell's empty look, and a man's height
(`Calibration`).  `vision.pipeline.BoardWatcher.calibrate` checks the result against the frame.

Orientation: image cells (row, col), row 0 along the image-top edge of the playing area, map to
the official squares by one of four rotations.  Square 46's corner is given by the configuration
(an index into the image-order corners TL, TR, BR, BL), or learnt from the start position, where
by convention the lighter pieces are white's (``white_is_lighter``).  The start position looks the
same turned half round with the sides swapped, so only the game can tell the convention was wrong
(White's first move read as Black's); `Calibration.turned` is then the right calibration.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

import numpy as np

from rules.piece import BLACK, WHITE, Piece
from rules.squares import column, row
from vision.colours import BLACK_PIECE, EMPTY, WHITE_PIECE, ColourModel, distance, relight
from vision.kings import KingCalibration, KingEvidence, calibrate, king_evidence
from vision.locate import BoardLocation, find_board
from vision.pose import Pose, estimate_pose
from vision.squares import (BoardView, board_view, covered_cells, learn_references,
                             sides_swapped_surroundings, square_colours)

#: Image corner index (TL, TR, BR, BL) of square 46's corner, per rotation.
_CORNER_OF_ROTATION = (3, 0, 1, 2)


class CalibrationError(ValueError):
    """The calibration frame does not show the start position."""


def describe_edges(edges: "tuple[str, ...] | list[str]") -> str:
    """The picture's ``edges`` in words: "left edge", "top and bottom edges"."""
    return f"{' and '.join(edges)} edge{'s' if len(edges) > 1 else ''}"


class BoardOutOfView(CalibrationError):
    """Part of the board lies outside the camera's picture, so the board cannot be learnt
    there: ``squares`` (1-50, as the board was read) and the picture's ``edges`` they lie
    beyond ("left", "bottom"...).  The fix is the camera's, not the pieces' (`out_of_view`).
    The squares are named only when square 46's corner was known (``named``): a board that
    could not be learnt may have been read turned."""

    def __init__(self, squares: tuple[int, ...], edges: tuple[str, ...], why: str,
                 named: bool = True) -> None:
        self.squares, self.edges = squares, edges
        what = f"squares {', '.join(map(str, squares))}" if named else f"{len(squares)} squares"
        super().__init__(f"{why}: {what} lie outside the camera's picture (beyond its "
                         f"{describe_edges(edges)}); move or aim the camera so that the whole "
                         "board is in view")


#: How much of a square, round its centre, should lie in the picture for the square to be read
#: well: the middle this share of its side each way (`out_of_view`).  A man stands on the
#: middle of his square, and the readings sample there.  A square whose centre is out of view
#: is never read (`learn_calibration` refuses the board); one whose middle is cut by the
#: picture's edge may be (our renderer's start position, its left column half out of view,
#: read every man there): such a board is learnt with a warning (`view_warning`), and named as
#: the likely cause when it cannot be learnt.
VIEW_CORE = 0.3


def out_of_view(location: BoardLocation, size: tuple[int, int], orientation: "Orientation",
                core: float = VIEW_CORE) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The squares (1-50) whose middle (``core`` of a side each way from its centre) does not
    lie wholly in a picture of ``size`` (width, height), and the picture's edges they lie
    beyond, in the order left, right, top, bottom.  A camera aimed off the board's middle, or a
    wide-angle lens close above it, leaves the board's near row or an edge column out of view:
    such squares read as whatever lies at the picture's edge, never as their pieces."""
    out, edges = cells_out_of_view(location, size, orientation.square_cells(), core)
    return tuple(int(i) + 1 for i in np.flatnonzero(out)), edges


def cells_out_of_view(location: BoardLocation, size: tuple[int, int],
                      cells, core: float = VIEW_CORE) -> tuple[np.ndarray, tuple[str, ...]]:
    """(`out_of_view` for any ``cells``, (row, col) of the board's 10 x 10 as located): per
    cell, whether its middle does not lie wholly in the picture, and the edges it lies beyond."""
    w, h = size
    offsets = np.array([(dx, dy) for dx in (-core, 0.0, core) for dy in (-core, 0.0, core)])
    grid = np.array([(c + 0.5 + dx, r + 0.5 + dy) for r, c in cells for dx, dy in offsets])
    px = location.to_image(grid).reshape(len(cells), len(offsets), 2)
    beyond = {"left": px[..., 0] < 0, "right": px[..., 0] > w - 1,
              "top": px[..., 1] < 0, "bottom": px[..., 1] > h - 1}
    out = np.zeros(len(cells), dtype=bool)
    edges = []
    for edge, mask in beyond.items():
        if mask.any():
            edges.append(edge)
            out |= mask.any(axis=1)
    return out, tuple(edges)


def view_warning(location: BoardLocation, size: tuple[int, int], orientation: "Orientation"
                 ) -> str | None:
    """What to tell the user when squares' middles lie partly out of the picture (`out_of_view`):
    readings there may fail.  None when every square lies well in view."""
    squares, edges = out_of_view(location, size, orientation)
    if not squares:
        return None
    return (f"squares {', '.join(map(str, squares))} lie partly outside the camera's picture "
            f"(at its {describe_edges(edges)}): pieces there may be misread; move or aim the "
            "camera so that the whole board is well in view")


def edge_hint(location: BoardLocation, size: tuple[int, int]) -> str:
    """A hint for a board that cannot be learnt whose playing area reaches (within half a
    square) the picture's edge: a column or row of it may lie beyond, the board then found one
    column over, the border taken for a column (our renderer's start position with the camera
    aimed 12 cm off the board's middle).  Empty when the board lies well within the picture."""
    w, h = size
    c, margin = location.corners, 0.5 * location.square_px
    near = [edge for edge, hit in (("left", c[:, 0].min() < margin),
                                   ("right", c[:, 0].max() > w - 1 - margin),
                                   ("top", c[:, 1].min() < margin),
                                   ("bottom", c[:, 1].max() > h - 1 - margin)) if hit]
    if not near:
        return ""
    return (f" (the board reaches the picture's {describe_edges(near)}: if part of it is out "
            "of view, move or aim the camera so that all of it is in view)")


def check_in_view(location: BoardLocation, size: tuple[int, int], orientation: "Orientation",
                  why: str, core: float = VIEW_CORE, named: bool = True) -> None:
    """`BoardOutOfView` (saying ``why`` first, naming the squares when ``named``) when squares'
    middles (``core``) lie out of the picture of ``size``; nothing otherwise."""
    squares, edges = out_of_view(location, size, orientation, core)
    if squares:
        raise BoardOutOfView(squares, edges, why, named)


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

    def turned(self) -> "Orientation":
        """The rotation a half turn away: it puts square n where this one puts 51 - n (square
        46's corner moved by two corners; the dark squares stay where they are)."""
        return Orientation((self.rotation + 2) % 4)


@dataclass(frozen=True, eq=False)
class Calibration:
    """What was learnt from the start position (or configured)."""

    location: BoardLocation
    orientation: Orientation
    colours: ColourModel
    man_height: float | None
    empty_ref: np.ndarray | None = None  # (10, 10, 3) each cell's top sample when empty (the
    # colour model's own references, `vision.colours.CellReferences`, in the calibration light)
    kings: KingCalibration | float = 0.0  # the king measurement's calibration
    # the squares something reaching in over the board's edge covered in the calibration frame
    # (`vision.squares.covered_cells`: a hand held still there); their looks are not its own
    covered: tuple[int, ...] = ()

    def turned(self) -> "Calibration":
        """This calibration for the board turned half round with the sides swapped: the same
        picture, read as the other of the two boards it may show (the start position looks the
        same either way).  The orientation is turned (square n <-> 51 - n) and White's and
        Black's colours swap in the colour model.  The board's place, a man's height, the empty
        looks and the king calibration stay: they belong to image cells and to the pieces'
        looks (`KingCalibration` keeps its per-colour bias by top colour, lighter first), not
        to a side."""
        return replace(self, orientation=self.orientation.turned(),
                       colours=_sides_swapped(self.colours))


#: The colour model's classes with the sides swapped: new class k is old class _SWAP[k].
_SWAP = np.array([EMPTY, BLACK_PIECE, WHITE_PIECE])


def _sides_swapped(colours: ColourModel) -> ColourModel:
    """``colours`` with White's and Black's piece classes swapped, in the class colours and in
    everything kept per class (the spreads, the floor offsets, every cell's references, their
    extra variance, outlines, the class last known on it and what stood beside the light
    cells; ``rim_empty`` is the empty cells')."""

    def per_class(a: np.ndarray | None) -> np.ndarray | None:
        return None if a is None else a[_SWAP]

    cells = colours.cells
    if cells is not None:
        last = np.where(cells.last >= 0, _SWAP[np.clip(cells.last, 0, 2)], cells.last)
        extra = None if cells.extra_var is None else cells.extra_var[..., _SWAP, :]
        rim = None if cells.rim is None else cells.rim[..., _SWAP]
        around = None if cells.around is None else sides_swapped_surroundings(cells.around)
        cells = replace(cells, mean=cells.mean[..., _SWAP, :], seen=cells.seen[..., _SWAP],
                        last=last, extra_var=extra, rim=rim, around=around)
    return replace(colours, white_piece=colours.black_piece, black_piece=colours.white_piece,
                   class_spread=per_class(colours.class_spread), cells=cells,
                   floor_offset=per_class(colours.floor_offset),
                   floor_spread=per_class(colours.floor_spread),
                   rim_classes=per_class(colours.rim_classes))


def _fit_heights(ev: KingEvidence, pose: Pose, men: np.ndarray
                 ) -> tuple[float | None, KingCalibration | float]:
    """A man's height and the calibration of the king measurement (`vision.kings.calibrate`)
    from the king evidence of the ``men`` cells (the 40 men of the start position); (None, 0.0)
    when it cannot be had (too few men: then a single frame's median height stands in)."""
    kings = calibrate(ev, pose, men)
    if kings is None:
        return None, 0.0
    return kings.man_height, kings


def _layout(orientation: Orientation, board: Mapping[int, Piece]) -> np.ndarray:
    """(10, 10) class per image cell (`EMPTY`, `WHITE_PIECE`, `BLACK_PIECE`) of ``board``."""
    cells = orientation.square_cells()
    layout = np.full((10, 10), EMPTY)
    for sq, piece in board.items():
        layout[cells[sq - 1]] = WHITE_PIECE if piece.color is WHITE else BLACK_PIECE
    return layout


#: The most one cell adds to `_misfit` (weighted Lab): a glare or a shadow on one square does
#: not outweigh the board.
_MISFIT_CAP = 40.0


def _misfit(view: BoardView, layout: np.ndarray, dark_parity: int, model: ColourModel) -> float:
    """How far the dark cells' tops lie from the colour of their class in ``layout`` (the class
    colour under the cell's light), each capped at `_MISFIT_CAP`, summed.  With few pieces, the
    class colours learnt in the wrong one of the two rotations come from empty squares and every
    cell reads as its class (no odd cells), but the pieces stand where that rotation expects
    empty squares: far from the empty colour."""
    assert model.cells is not None
    classes = np.array([model.dark_square, model.white_piece, model.black_piece], dtype=np.float64)
    expected = relight(classes[layout], model.cells.light)
    dark = view.parity == dark_parity
    return float(np.minimum(distance(view.top, expected), _MISFIT_CAP)[dark].sum())


def start_board() -> dict[int, Piece]:
    out = {sq: Piece(BLACK) for sq in range(1, 21)}
    out.update({sq: Piece(WHITE) for sq in range(31, 51)})
    return out


def _turned(board: Mapping[int, Piece]) -> dict[int, Piece]:
    """``board`` turned half round with the sides swapped: the same picture from the camera."""
    return {51 - sq: Piece(p.color.other, p.king) for sq, p in board.items()}


#: Men's heights (squares) this close to the first guess (0.2) are read on the guess's view.
_HEIGHT_SAME = 0.02


def learn_calibration(frame: np.ndarray, *, corner_46: int | None = None,
                      white_is_lighter: bool = True, man_height: float | None = None,
                      location: BoardLocation | None = None,
                      board: Mapping[int, Piece] | None = None,
                      strict: bool = True) -> tuple[Calibration, Pose]:
    """Learn the board's place, the colours, the orientation and a man's height from a frame
    of ``board`` (square -> piece; by default the start position: black men on 1-20, white on
    31-50), with no hand over it.  A board that looks the same turned half round with the sides
    swapped (the start position) needs ``corner_46`` or the ``white_is_lighter`` convention;
    any other shows its orientation.  `BoardNotFound` when there is no board;
    `CalibrationError` when a configured ``corner_46`` does not fit it or more than three dark
    squares clearly show another kind than ``board`` puts there (``strict``; else they learn
    the kind they show; a side of a few pieces that all look like empty squares is then taken
    as gone from the board, `vision.squares.learn_references`).  A side ``board`` has no piece
    of (a game over) learns no look, and is never read."""
    board = start_board() if board is None else dict(board)
    if not board:
        raise CalibrationError("calibrating needs pieces on the board")
    location = location or find_board(frame)
    size = (frame.shape[1], frame.shape[0])
    pose = estimate_pose(location.homography, size)
    view = board_view(frame, location, pose, man_height or 0.2)
    dark_parity = square_colours(view)[2]
    if corner_46 is not None:
        orientation = Orientation.from_corner_46(corner_46)
        if orientation.dark_parity != dark_parity:
            # (a board one column beyond the picture is found one column over: its dark
            # squares then lie where the light ones are)
            raise CalibrationError(
                "the configured corner of square 46 does not fit the board: square 46's "
                "corner must be a dark square's" + edge_hint(location, size))
        colours, odd = learn_references(view, _layout(orientation, board), dark_parity,
                                        absent=not strict)
    else:
        # The two rotations that fit the dark squares differ by a half turn.  A board that looks
        # the same turned (the start position) only swaps the sides: the convention (the
        # lighter side is white's, or the darker) picks one, unless only the other fits.  Any
        # other board fits one rotation better: the one whose class colours lie nearer the
        # squares' looks (`_misfit`; with few pieces both rotations have no odd cells).
        symmetric = _turned(board) == board
        fits = []
        for k in range(4):
            o = Orientation(k)
            if o.dark_parity == dark_parity:
                layout = _layout(o, board)
                colours, odd = learn_references(view, layout, dark_parity, absent=not strict)
                lighter = colours.white_piece[0] > colours.black_piece[0]
                against = symmetric and lighter != white_is_lighter
                fits.append((len(odd) > 3, against, _misfit(view, layout, dark_parity, colours), k,
                             colours, odd))
        *_, k, colours, odd = min(fits, key=lambda f: f[:4])
        orientation = Orientation(k)
    # a square whose centre is out of the picture is never read: the camera must move
    named = corner_46 is not None  # (else the board may have been read turned)
    check_in_view(location, size, orientation, "the board does not fit in the picture", core=0.0,
                  named=named)
    if strict and len(odd) > 3:
        what = "the start position" if board == start_board() else "the expected position"
        why = (f"the calibration frame does not show {what} ({len(odd)} squares do not look "
               "like the rest of their kind)")
        check_in_view(location, size, orientation, why, named=named)
        raise CalibrationError(f"{why}: set up the pieces and calibrate again")
    cells = orientation.square_cells()
    if man_height is None and not pose.top_down:
        occupied = np.zeros((10, 10), dtype=bool)
        men = np.zeros((10, 10), dtype=bool)
        for sq, piece in board.items():
            occupied[cells[sq - 1]] = True
            men[cells[sq - 1]] = not piece.king
        ev = king_evidence(view, pose, occupied, man_height=0.2, square_px=location.square_px)
        man_height, kings = _fit_heights(ev, pose, men)
        if man_height is not None and abs(man_height - 0.2) > _HEIGHT_SAME:
            # The cells' references are learnt where every later frame is read: at the men's
            # own height.  Learnt at the guess, the outline circles lay elsewhere than in play
            # (a set 0.11 high: the empty cells' outline limit came out at 1.6 where play's
            # frames showed 2-4 on empty squares, and empty squares were doubted as pieces).
            view = board_view(frame, location, pose, man_height)
            colours, _ = learn_references(view, _layout(orientation, board), dark_parity,
                                          absent=not strict)
    else:
        kings = 0.0
    assert colours.cells is not None
    empty_ref = colours.cells.mean[..., EMPTY, :]
    covered = covered_cells(view, dark_parity)
    cal = Calibration(location, orientation, colours, man_height, empty_ref, kings,
                      tuple(sq for sq in range(1, 51) if covered[cells[sq - 1]]))
    return cal, pose
