"""Square geometry of the 10x10 board: the 50 dark squares, their rows, columns and rays.

Squares are the official numbers 1-50 (square 1 at black's top-left dark square as white sees the
board, square 46 at white's left, Art. 1-5).  Rows run 0 (squares 1-5, black's back row) to 9
(squares 46-50, white's back row); columns 0-9 from white's left.  Everything is computed once at
import and exposed as read-only tuples.

Frisian draughts captures along eight directions (RULES.md "Board and pieces"): the four diagonals
and the four straight lines.  Two squares of the same row two columns apart, or of the same column
two rows apart, are neighbours for capturing (34x32 over 33, 43x23 over 33).
"""

from __future__ import annotations

from enum import IntEnum

SQUARES: tuple[int, ...] = tuple(range(1, 51))


class Direction(IntEnum):
    """The eight capture directions; "up" is towards row 0 (white's forward direction)."""

    UP_LEFT = 0
    UP_RIGHT = 1
    DOWN_LEFT = 2
    DOWN_RIGHT = 3
    UP = 4
    DOWN = 5
    LEFT = 6
    RIGHT = 7

    @property
    def is_diagonal(self) -> bool:
        return self < 4


#: (row step, column step) per direction.  A straight neighbour is two rows or two columns away.
DELTAS: tuple[tuple[int, int], ...] = (
    (-1, -1), (-1, 1), (1, -1), (1, 1), (-2, 0), (2, 0), (0, -2), (0, 2),
)
DIAGONALS: tuple[Direction, ...] = tuple(d for d in Direction if d.is_diagonal)
STRAIGHTS: tuple[Direction, ...] = tuple(d for d in Direction if not d.is_diagonal)


def row(square: int) -> int:
    """Row 0-9 of a square (0 = squares 1-5)."""
    _check(square)
    return (square - 1) // 5


def column(square: int) -> int:
    """Column 0-9 of a square, counted from white's left."""
    _check(square)
    r, p = divmod(square - 1, 5)
    return 2 * p + (1 if r % 2 == 0 else 0)


def square_at(r: int, c: int) -> int | None:
    """The square number at row r, column c, or None for a light square or off the board."""
    if not (0 <= r < 10 and 0 <= c < 10) or (r + c) % 2 == 0:
        return None
    return r * 5 + c // 2 + 1


def is_dark(r: int, c: int) -> bool:
    """True for the playing (dark) squares; the corner at row 9, column 0 (white's left) is dark."""
    return (r + c) % 2 == 1


def _check(square: int) -> None:
    if not isinstance(square, int) or not 1 <= square <= 50:
        raise ValueError(f"not a square number: {square!r} (squares are 1-50)")


def _ray(square: int, direction: Direction) -> tuple[int, ...]:
    dr, dc = DELTAS[direction]
    r, c = row(square), column(square)
    out = []
    while True:
        r, c = r + dr, c + dc
        sq = square_at(r, c)
        if sq is None:
            return tuple(out)
        out.append(sq)


#: RAYS[direction][square] = the squares met going from square in that direction, nearest first.
#: Index 0 of each inner tuple is unused (squares start at 1).
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    ((),) + tuple(_ray(sq, d) for sq in SQUARES) for d in Direction
)


def ray(square: int, direction: Direction) -> tuple[int, ...]:
    """The squares from `square` (exclusive) to the edge in `direction`, nearest first."""
    _check(square)
    return RAYS[direction][square]


def neighbour(square: int, direction: Direction) -> int | None:
    """The next square in `direction`, or None at the edge."""
    r = ray(square, direction)
    return r[0] if r else None


def promotion_row(white: bool) -> tuple[int, ...]:
    """The far row where a side's men are crowned: white 1-5, black 46-50 (Art. 8)."""
    return (1, 2, 3, 4, 5) if white else (46, 47, 48, 49, 50)


def line_between(a: int, b: int) -> tuple[Direction, tuple[int, ...]] | None:
    """The direction from a to b and the squares strictly between them, if they share a line."""
    for d in Direction:
        r = RAYS[d][a]
        if b in r:
            return d, r[: r.index(b)]
    return None
