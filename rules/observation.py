"""What a camera saw on the board: the input of the arbiter, the output of `vision`.

These are plain values so that the vision side can produce them and the arbiter can consume them
without either knowing anything else about the other.

- `SquareReading`: what stands on one playing square (nothing, or a man or king of either
  colour), how sure the reader is, and what it would have said otherwise.
- `Observation`: the 50 readings of one frame.  Squares are the official numbers 1-50.
- `Settled`: an observation of a board that has been still for a while (or that a player marked
  complete with the button, Art. 23), with the squares whose pieces were lifted or displaced while
  a hand was over the board, in the order they were first lifted (for touch-move, Art. 15).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

from rules.piece import Color, Piece

#: Every thing a square can hold, ``None`` for empty.
CONTENTS: tuple[Piece | None, ...] = (
    None, Piece(Color.WHITE), Piece(Color.WHITE, True), Piece(Color.BLACK), Piece(Color.BLACK, True),
)

_INDEX = {c: i for i, c in enumerate(CONTENTS)}

#: The probability a reading gives to a content it did not name at all.
FLOOR = 1e-4


def content_symbol(content: Piece | None) -> str:
    """``.`` for empty, else the piece's ``w``/``b``/``W``/``B``."""
    return "." if content is None else content.symbol()


def content_from_symbol(symbol: str) -> Piece | None:
    return None if symbol == "." else Piece.from_symbol(symbol)


def _swapped(content: Piece | None) -> Piece | None:
    """``content`` with the other side's colour (empty stays empty)."""
    return None if content is None else Piece(content.color.other, content.king)


@dataclass(frozen=True, slots=True)
class SquareReading:
    """One square as read: ``content`` with probability ``confidence``.

    ``alternative`` is the reader's second choice, which gets the rest of the probability (a
    white man read as a king at 0.7 has ``alternative`` white man).  Without one, the rest is
    shared by the other four contents.  ``distribution``, when the reader has one, is the
    probability of each of `CONTENTS` (it then says how likely every content is, the third
    choice too: a piece whose colour is sure but not whether it is a man or a king splits its
    probability between the two, and emptiness, less likely than either, is not lost).
    ``occluded`` means a hand or arm covered the square; its content is then only a guess
    (confidence should be low).
    """

    content: Piece | None
    confidence: float = 1.0
    alternative: Piece | None | str = "none"
    occluded: bool = False
    distribution: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"a confidence is between 0 and 1, not {self.confidence}")
        if self.distribution is not None and (
                len(self.distribution) != len(CONTENTS) or min(self.distribution) < 0
                or abs(sum(self.distribution) - 1.0) > 1e-3):
            raise ValueError(f"a distribution is {len(CONTENTS)} probabilities summing to 1, "
                             f"not {self.distribution}")

    @property
    def has_alternative(self) -> bool:
        return self.alternative != "none"

    def probability(self, content: Piece | None) -> float:
        """How likely the square holds ``content``, by this reading (never exactly 0)."""
        if self.distribution is not None:
            return max(self.distribution[_INDEX[content]], FLOOR)
        if content == self.content:
            return max(self.confidence, FLOOR)
        rest = 1.0 - self.confidence
        if self.has_alternative:
            return max(rest, FLOOR) if content == self.alternative else FLOOR
        return max(rest / 4.0, FLOOR)

    @property
    def kind_confidence(self) -> float:
        """How likely the square holds what the reading says in kind: empty, or a piece of the
        read colour, man or king (telling those two apart is `confidence`'s part)."""
        if self.content is None:
            return self.probability(None)
        color = self.content.color
        return min(1.0, self.probability(Piece(color)) + self.probability(Piece(color, True)))

    def log_probability(self, content: Piece | None) -> float:
        return math.log(self.probability(content))

    @property
    def symbol(self) -> str:
        return content_symbol(self.content)

    def turned(self) -> "SquareReading":
        """The same reading with the sides swapped (a white man read is a black man read, and so
        on, in ``content``, ``alternative`` and ``distribution``): how the square reads when the
        reader took the board for turned half round (`Observation.turned`)."""
        alternative = self.alternative
        if isinstance(alternative, Piece):
            alternative = _swapped(alternative)
        distribution = None if self.distribution is None else \
            tuple(self.distribution[_INDEX[_swapped(c)]] for c in CONTENTS)
        return SquareReading(_swapped(self.content), self.confidence, alternative, self.occluded,
                             distribution)


@dataclass(frozen=True, slots=True)
class Observation:
    """The 50 playing squares as read from one frame (``squares[0]`` is square 1)."""

    squares: tuple[SquareReading, ...]
    time: float | None = None

    def __post_init__(self) -> None:
        if len(self.squares) != 50:
            raise ValueError(f"an observation has 50 squares, not {len(self.squares)}")

    def reading(self, square: int) -> SquareReading:
        return self.squares[square - 1]

    def board(self) -> dict[int, Piece]:
        """The most likely content of every occupied square."""
        return {i + 1: r.content for i, r in enumerate(self.squares) if r.content is not None}

    def text(self) -> str:
        """50 characters, square 1 first: ``.`` ``w`` ``b`` ``W`` ``B``."""
        return "".join(r.symbol for r in self.squares)

    @property
    def occluded(self) -> tuple[int, ...]:
        return tuple(i + 1 for i, r in enumerate(self.squares) if r.occluded)

    def uncertain(self, below: float = 0.9) -> tuple[int, ...]:
        return tuple(i + 1 for i, r in enumerate(self.squares) if r.confidence < below)

    @classmethod
    def from_board(cls, pieces: Mapping[int, Piece], confidence: float = 1.0,
                   time: float | None = None) -> "Observation":
        """A reading that saw exactly ``pieces`` (a position's pieces, say) with one confidence."""
        return cls(tuple(SquareReading(pieces.get(sq), confidence) for sq in range(1, 51)), time)

    @classmethod
    def from_text(cls, text: str, confidence: float = 1.0, time: float | None = None) -> "Observation":
        """From 50 symbols, square 1 first (spaces and ``/`` are ignored)."""
        symbols = [c for c in text if c not in " /\n\t"]
        if len(symbols) != 50:
            raise ValueError(f"a board text has 50 squares, not {len(symbols)}")
        try:
            return cls(tuple(SquareReading(content_from_symbol(c), confidence) for c in symbols), time)
        except ValueError:
            bad = next(c for c in symbols if c not in ".wbWB")
            raise ValueError(f"{bad!r} is not a square symbol: use . w b W B") from None

    def turned(self) -> "Observation":
        """The board turned half round with the sides swapped: square n's reading, its colours
        swapped, on square 51 - n.  The start position looks the same either way, so a reader
        that took the wrong of the two orientations (White's pieces for Black's) read this."""
        return Observation(tuple(r.turned() for r in reversed(self.squares)), self.time)

    def with_readings(self, readings: Mapping[int, SquareReading]) -> "Observation":
        """A copy with some squares read differently."""
        squares = list(self.squares)
        for sq, r in readings.items():
            squares[sq - 1] = r
        return Observation(tuple(squares), self.time)


@dataclass(frozen=True, slots=True)
class Settled:
    """A still board: the observation, and the squares whose pieces were lifted or displaced while
    a hand was over the board, in the order they were first lifted.  ``complete`` is True when the
    player marked the move complete (button or clock, Art. 23) rather than the board settling.
    ``placed``: the squares the last still board had empty that were seen holding a piece on the
    way (a piece put down, maybe taken again before the board was still), in the order seen.
    ``provisional``: the playing area stood still, untouched, while something moved beside it
    (an arm on its way, a hand holding a captured piece): the board is taken only if a legal
    line of play explains it (`rules.arbiter.Arbiter.observe`), and is otherwise no evidence.
    ``beside``: taken while something reached in from the table beside the board (a hand on its
    edge, at rest or not; once, an arm lying over the far row in a dim room that the camera did
    not tell from the squares): a board that nothing legal or irregular explains is read again
    before it is named.
    ``lifted_at`` and ``placed_at``: when each lifted and placed square was seen so (the
    watcher's frame number, in the same order), when the watcher knows it (else empty).
    ``open_last`` and ``stood_last``: (square, frame) the last frame each square was seen
    clearly as the last still board had it, empty or holding its piece, while the hand was over
    the board (an order of first sightings is evidence only where the other square could have
    been seen changing; `rules.recovery`)."""

    observation: Observation
    lifted: tuple[int, ...] = ()
    time: float | None = None
    complete: bool = False
    frame: int | None = field(default=None, compare=False)
    placed: tuple[int, ...] = ()
    provisional: bool = False
    beside: bool = False
    lifted_at: tuple[int, ...] = field(default=(), compare=False)
    placed_at: tuple[int, ...] = field(default=(), compare=False)
    open_last: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    stood_last: tuple[tuple[int, int], ...] = field(default=(), compare=False)

    def turned(self) -> "Settled":
        """The same settled board turned half round with the sides swapped (`Observation.turned`;
        a lifted or placed square n is 51 - n)."""
        return Settled(self.observation.turned(), tuple(51 - sq for sq in self.lifted), self.time,
                       self.complete, self.frame, tuple(51 - sq for sq in self.placed),
                       self.provisional, self.beside, self.lifted_at, self.placed_at,
                       tuple((51 - sq, f) for sq, f in self.open_last),
                       tuple((51 - sq, f) for sq, f in self.stood_last))

    def seen_before(self, lifted: int, placed: int) -> bool:
        """Whether square ``lifted`` was seen lifted before square ``placed`` was seen holding
        the piece put there (False when either is unknown)."""
        if len(self.lifted_at) != len(self.lifted) or len(self.placed_at) != len(self.placed) \
                or lifted not in self.lifted or placed not in self.placed:
            return False
        return self.lifted_at[self.lifted.index(lifted)] < self.placed_at[self.placed.index(placed)]
