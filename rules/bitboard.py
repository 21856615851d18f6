"""The bit layout the move generator works on (internal to `rules`).

Each of the 50 squares is one bit of a Python int.  Bits are laid out with a spare ("ghost") bit
after every second row, so that every diagonal step is the same shift anywhere on the board
(5 or 6 bits) and a diagonal step off the left or right edge lands on a ghost bit, which is never
occupied.  A straight step along a column is 11 bits; a straight step along a row is 1 bit and is
masked at the row ends.  All masks and tables are derived from `rules.squares`, so the layout and
the official geometry cannot disagree.
"""

from __future__ import annotations

from rules.squares import DIAGONALS, RAYS, SQUARES, Direction

#: Bit index of each square (index 0 unused) and square of each bit index (0 for ghost bits).
BIT_INDEX: tuple[int, ...] = (0,) + tuple((sq - 1) + (sq - 1) // 10 for sq in SQUARES)
SQUARE_OF_INDEX: tuple[int, ...] = tuple(
    next((sq for sq in SQUARES if BIT_INDEX[sq] == i), 0) for i in range(55)
)
BIT: tuple[int, ...] = (0,) + tuple(1 << BIT_INDEX[sq] for sq in SQUARES)
BOARD: int = sum(BIT[1:])

#: Signed shift of one step in each direction (negative = towards square 1).
SHIFT: tuple[int, ...] = (-6, -5, 5, 6, -11, 11, -1, 1)


def _mask(squares) -> int:
    return sum(BIT[sq] for sq in squares)


#: JUMP_MASK[d]: squares with at least two squares beyond them in direction d (a man's jump).
JUMP_MASK: tuple[int, ...] = tuple(_mask(sq for sq in SQUARES if len(RAYS[d][sq]) >= 2) for d in Direction)

#: Per bit index: for each direction, the ray as a tuple of (bit index, bit), nearest first.
RAY_BITS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(
        tuple((BIT_INDEX[s], BIT[s]) for s in RAYS[d][SQUARE_OF_INDEX[i]]) if SQUARE_OF_INDEX[i] else ()
        for d in Direction
    )
    for i in range(55)
)
#: Diagonal rays only (a king's simple moves, Art. 9).
DIAGONAL_RAY_BITS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(RAY_BITS[i][d] for d in DIAGONALS) for i in range(55)
)
#: Per bit index: the man's capture steps (bit jumped, bit index landed on, bit landed on).
MAN_JUMPS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((r[0][1], r[1][0], r[1][1]) for r in RAY_BITS[i] if len(r) >= 2) for i in range(55)
)

WHITE_PROMOTION: int = _mask((1, 2, 3, 4, 5))
BLACK_PROMOTION: int = _mask((46, 47, 48, 49, 50))


def squares_of(bb: int) -> list[int]:
    """The square numbers of the set bits, ascending."""
    out = []
    while bb:
        low = bb & -bb
        out.append(SQUARE_OF_INDEX[low.bit_length() - 1])
        bb ^= low
    return out
