"""Colours and pieces: small immutable values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Color(Enum):
    WHITE = "W"
    BLACK = "B"

    @property
    def other(self) -> "Color":
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def is_white(self) -> bool:
        return self is Color.WHITE

    def __str__(self) -> str:
        return self.name.lower()


WHITE = Color.WHITE
BLACK = Color.BLACK


@dataclass(frozen=True, slots=True)
class Piece:
    """A man, or a king (two men stacked, Art. 8), of one colour."""

    color: Color
    king: bool = False

    def symbol(self) -> str:
        """``w``/``b`` for men, ``W``/``B`` for kings."""
        s = "w" if self.color is Color.WHITE else "b"
        return s.upper() if self.king else s

    @classmethod
    def from_symbol(cls, symbol: str) -> "Piece":
        if symbol not in ("w", "b", "W", "B"):
            raise ValueError(f"not a piece symbol: {symbol!r} (use w, b, W or B)")
        return cls(Color.WHITE if symbol.lower() == "w" else Color.BLACK, symbol.isupper())

    def __str__(self) -> str:
        return f"{self.color} {'king' if self.king else 'man'}"


@dataclass(frozen=True, slots=True)
class KingCounter:
    """A side's three-move count (Art. 17): the king that made its last simple moves and how many."""

    square: int
    count: int

    @property
    def blocked(self) -> bool:
        """The king has made three simple moves in a row and may only capture now."""
        return self.count >= 3
