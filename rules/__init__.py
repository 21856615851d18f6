"""The rules of Frisian draughts (RULES.md): squares, positions, moves, games, PDN, the arbiter.

Pure Python, no I/O: everything here can be used and tested on any machine.
"""

from rules.errors import AmbiguousMoveError, FenError, IllegalMoveError, InvalidMoveError, PdnError
from rules.move import Move
from rules.outcome import Outcome, Termination
from rules.piece import BLACK, WHITE, Color, KingCounter, Piece
from rules.position import ALTERNATIVE_START_FEN, START_FEN, Position

__all__ = [
    "ALTERNATIVE_START_FEN", "AmbiguousMoveError", "BLACK", "Color", "FenError", "IllegalMoveError",
    "InvalidMoveError", "KingCounter", "Move", "Outcome", "PdnError", "Piece", "Position",
    "START_FEN", "Termination", "WHITE",
]
