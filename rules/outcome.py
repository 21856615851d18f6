"""How a game ended: a termination and a winner, as python-chess does it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.piece import Color


class Termination(Enum):
    """Why a game ended.  The first four are decided by the rules; the rest are reported."""

    NO_PIECES = "no pieces"                      # Art. 20a
    NO_LEGAL_MOVE = "no legal move"              # Art. 20f (includes a blocked king, Art. 17)
    KING_VS_KING = "one king against one king"   # Art. 21.1, manual §2j-I
    SEVEN_MOVE_RULE = "seven-move rule"          # Art. 18, manual §2i
    RESIGNATION = "resignation"
    TIME = "time"
    AGREEMENT = "draw agreed"
    ARBITER = "arbiter's decision"

    @property
    def by_rules(self) -> bool:
        return self in (Termination.NO_PIECES, Termination.NO_LEGAL_MOVE,
                        Termination.KING_VS_KING, Termination.SEVEN_MOVE_RULE)


RESULTS = ("1-0", "0-1", "1/2-1/2")
#: Other spellings of results seen in PDN files (draughts scoring 2-0 / 1-1 / 0-2).
RESULT_ALIASES = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2", "1/2-1/2": "1/2-1/2",
                  "1-0": "1-0", "0-1": "0-1", "*": "*"}


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    winner: Color | None

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2`` (Art. 19: win 1, draw 1/2, loss 0)."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Color.WHITE else "0-1"

    def __str__(self) -> str:
        return f"{self.result()} ({self.termination.value})"
