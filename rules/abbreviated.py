"""The manual's abbreviated notation (manual §3b), an output for club bulletins.

Black's moves stand in brackets; a forced move (the only legal move) is left out; a move is
written by its destination alone unless another legal move ends on the same square, in which case
the full PDN text is written.  Move numbers stay, so a reader can follow where moves are left out:
the §3c solution ``1. 28-23 24x42 2. 23x3 42-48 3. 3x6 48x46 4. 6x5`` becomes
``1. 23 2. 3 (48) 3. 6 4. 5``: black's 24x42 and 48x46 were forced, so they are left out.
"""

from __future__ import annotations

from rules.game import Game
from rules.move import Move
from rules.position import Position


def abbreviate_move(position: Position, move: Move) -> str | None:
    """The abbreviated text of one move, or None when the move was forced."""
    legal = position.legal_moves()
    if len(legal) == 1:
        return None
    if sum(1 for m in legal if m.to_square == move.to_square) == 1:
        return str(move.to_square)
    return position.move_text(move, legal)


def abbreviated(game: Game) -> str:
    """The moves of a game in abbreviated notation, followed by the result."""
    parts: list[str] = []
    for ply, (position, move) in enumerate(zip(game.positions, game.moves)):
        text = abbreviate_move(position, move)
        white = position.turn.is_white
        number = (ply + (0 if game.start.turn.is_white else 1)) // 2 + 1
        if white:
            parts.append(f"{number}.")
        elif not parts:
            parts.append(f"{number}.")
        if text is not None:
            parts.append(text if white else f"({text})")
    parts.append(game.result())
    # Drop move numbers left with no move after them (both moves forced).
    out: list[str] = []
    for p in parts:
        if out and out[-1].endswith(".") and p.endswith("."):
            out[-1] = p
        else:
            out.append(p)
    return " ".join(out)
