"""perft: the number of leaves of the legal move tree, the standard check of a move generator.

Captures are counted once per (start, destination, captured pieces), as RULES.md merges them;
py-draughts and pydraughts count each capture route, so their numbers are higher.
"""

from __future__ import annotations

from rules import movegen
from rules.position import Position


def perft(position: Position, depth: int) -> int:
    """Leaves at `depth` plies from `position` (the last ply is counted, not played)."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    return movegen.perft(position._state, depth)


def divide(position: Position, depth: int) -> dict[str, int]:
    """perft split by first move, for finding where two generators disagree."""
    if depth < 1:
        raise ValueError(f"divide needs depth 1 or more, not {depth}")
    moves = position.legal_moves()
    return {position.move_text(m, moves): perft(position.play(m), depth - 1) for m in moves}
