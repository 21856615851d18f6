"""A move: where a piece starts, where it stands on each landing and which pieces it takes."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One legal move.

    ``path`` is every square the piece stands on, from its start to its destination (a simple
    move's path is ``(from, to)``); ``captured`` lists the pieces taken, in the order they are
    jumped.  Two captures with the same start, destination and set of captured pieces are the
    same move (RULES.md: duplicates merged), so equality and hashing ignore the route.
    """

    from_square: int
    to_square: int
    path: tuple[int, ...]
    captured: tuple[int, ...] = ()

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def key(self) -> tuple[int, int, frozenset[int]]:
        return (self.from_square, self.to_square, frozenset(self.captured))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    @classmethod
    def as_written(cls, text: str) -> "Move":
        """A move as written (``34-25``, ``19x30``), with no legality implied: an irregular move
        that stood (Art. 27, rule IV) is kept this way.  Raises ValueError for text that is not
        two or more squares."""
        squares = tuple(int(s) for s in re.findall(r"\d+", text))
        if len(squares) < 2:
            raise ValueError(f"{text!r} is not a move: write 32-28 or 19x30")
        return cls(squares[0], squares[-1], squares)

    def short_text(self) -> str:
        """``32-28`` or ``19x30``: start and destination only."""
        sep = "x" if self.captured else "-"
        return f"{self.from_square}{sep}{self.to_square}"

    def long_text(self) -> str:
        """The capture written with every landing square, ``47x38x29``."""
        if not self.captured:
            return self.short_text()
        return "x".join(str(s) for s in self.path)

    def __str__(self) -> str:
        return self.short_text()

    def __repr__(self) -> str:
        cap = f", captured={list(self.captured)}" if self.captured else ""
        return f"Move({self.long_text()}{cap})"
