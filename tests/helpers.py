"""Small helpers shared by the rules tests."""

from __future__ import annotations

from rules import Position


def move_set(position: Position) -> set[tuple[int, int, tuple[int, ...]]]:
    """The legal moves as (from, to, sorted captured squares)."""
    return {(m.from_square, m.to_square, tuple(sorted(m.captured))) for m in position.legal_moves()}


def texts(position: Position) -> set[str]:
    return {position.move_text(m) for m in position.legal_moves()}
