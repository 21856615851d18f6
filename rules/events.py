"""What the arbiter says: events, as frozen dataclasses.

The arbiter (`rules.arbiter`) answers every settled observation with a tuple of these.  Sinks on
the device side (scoresheet store, LEDs, speech, live view) consume them and decide nothing.
Every event has ``ply`` (the number of moves recorded when it was raised) and ``time`` (the
observation's time, when known).  ``str(event)`` is a short English sentence for logs and the
command line; speech builds its own sentences, per language, from the fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.piece import Color, KingCounter, Piece


class IrregularityKind(Enum):
    """The kinds of irregularity on the physical board, each with the article it breaks."""

    CAPTURE_NOT_TAKEN = ("Art. 10", "a simple move was made while a capture is compulsory")
    NOT_HIGHEST_VALUE = ("Art. 11", "the capture does not take the highest value")
    KING_MUST_CAPTURE = ("Art. 12", "at equal value a king must capture, not a man")
    FOURTH_KING_MOVE = ("Art. 17", "a king made a fourth simple move in a row")
    OPPONENT_PIECE = ("Art. 27a", "a piece of the side not to move was moved")
    WRONG_PIECES_TAKEN = ("Art. 27b", "too many or too few pieces were taken off")
    UNREACHABLE = ("Art. 27d", "a piece stands where no legal move can bring it")
    NOT_CROWNED = ("Art. 8", "a man reached the far row and was not crowned")
    WRONGLY_CROWNED = ("Art. 8", "a man was crowned that did not end its move on the far row")
    UNKNOWN = ("Art. 27", "the board matches no legal move")

    @property
    def article(self) -> str:
        return self.value[0]

    @property
    def summary(self) -> str:
        return self.value[1]


@dataclass(frozen=True, slots=True)
class SquareChange:
    """One square that differs from the position: what stood there and what is seen now."""

    square: int
    before: Piece | None
    after: Piece | None

    def __str__(self) -> str:
        def name(p: Piece | None) -> str:
            return "empty" if p is None else str(p)
        return f"{self.square}: {name(self.before)} -> {name(self.after)}"


@dataclass(frozen=True, slots=True)
class Event:
    ply: int
    time: float | None


@dataclass(frozen=True, slots=True)
class MovePlayed(Event):
    """A move was recorded.  ``number`` is the PDN move number, ``text`` its PDN text; ``fen`` is
    the position after it.  ``irregular`` is set when it was recorded as it stood (Art. 27 IV)."""

    color: Color
    number: int
    text: str
    fen: str
    irregular: IrregularityKind | None = None

    def __str__(self) -> str:
        dots = "." if self.color is Color.WHITE else "..."
        note = f" (irregular, {self.irregular.article}, stands)" if self.irregular else ""
        return f"{self.number}{dots} {self.text}{note}"


@dataclass(frozen=True, slots=True)
class MoveTakenBack(Event):
    """The last recorded move was taken back (an operator's long press, or the arbiter undoing a
    move it recorded): ``text`` is that move; ``ply`` the number of moves left recorded."""

    text: str
    fen: str

    def __str__(self) -> str:
        return f"taken back: {self.text}"


@dataclass(frozen=True, slots=True)
class ScoresheetComment(Event):
    """A comment the arbiter wrote on the scoresheet after move ``ply`` (0: before the first
    move): irregularities, their resolution, touch-move."""

    text: str

    def __str__(self) -> str:
        return f"scoresheet: {{{self.text}}}"


@dataclass(frozen=True, slots=True)
class Irregularity(Event):
    """The board shows something no legal move gives.  ``square`` is the main square concerned
    (the piece moved, the man not crowned), ``played`` the move as it appears (``32-27``) when
    one can be named, ``remedy`` what the player must do instead, ``legal`` the legal moves
    (PDN text) when the player must choose one, ``changes`` the squares that differ."""

    kind: IrregularityKind
    color: Color
    message: str
    remedy: str
    square: int | None = None
    played: str | None = None
    legal: tuple[str, ...] = ()
    changes: tuple[SquareChange, ...] = ()

    @property
    def article(self) -> str:
        return self.kind.article

    def __str__(self) -> str:
        return f"irregular ({self.article}): {self.message}. {self.remedy}"


@dataclass(frozen=True, slots=True)
class IrregularityResolved(Event):
    """An open irregularity was put right before the opponent replied: ``how`` is ``taken back``
    or ``replaced`` (a legal move was played instead)."""

    kind: IrregularityKind
    how: str

    def __str__(self) -> str:
        return f"resolved: {self.kind.summary} ({self.kind.article}), {self.how}"


@dataclass(frozen=True, slots=True)
class IrregularityStands(Event):
    """The opponent replied to an irregular move, so it stands (Art. 27, rule IV): the game goes
    on from the board as it is and the scoresheet records ``played`` with a comment."""

    kind: IrregularityKind
    played: str

    def __str__(self) -> str:
        return (f"the irregular move {self.played} stands: the opponent replied "
                f"(Art. 27, rule IV; {self.kind.summary})")


@dataclass(frozen=True, slots=True)
class LostTrack(Event):
    """The board went on by more moves than the camera saw, and no line of legal moves the
    arbiter can find (or tell from the others) gives it: the record stops after ``since`` (the
    last move recorded, None at the start).  No irregularity is named: pieces of both sides moved
    and none came from outside the board, as play leaves it.  ``changes`` are the squares that
    differ from the recorded position; ``message`` says what was seen, ``remedy`` how the record
    goes on.  Said once; the arbiter follows the board and records again once it is back on a
    position it can reach."""

    message: str
    remedy: str
    since: str | None = None
    changes: tuple[SquareChange, ...] = ()

    def __str__(self) -> str:
        return f"lost track: {self.message}. {self.remedy}"


@dataclass(frozen=True, slots=True)
class TouchMove(Event):
    """Touch-move (Art. 15, manual rules I-III): the player lifted ``square`` first, that piece
    could move legally, and he moved another.  ``rule`` names the manual rule, ``remedy`` lists
    what the touched piece may do."""

    color: Color
    square: int
    moved: int
    rule: str
    message: str
    remedy: str
    legal: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"touch-move ({self.rule}): {self.message}. {self.remedy}"


@dataclass(frozen=True, slots=True)
class CrownPending(Event):
    """A man reached the far row and the move is recorded; the player must crown it (Art. 8)."""

    color: Color
    square: int

    def __str__(self) -> str:
        return f"crown the man on {self.square}"


@dataclass(frozen=True, slots=True)
class CountersChanged(Event):
    """Both sides' three-move counters (Art. 17) and the seven-move count (Art. 18) after a move.
    ``seven_move`` is the number of moves the side with two kings has made, None when not running;
    ``seven_move_left`` how many it may still make."""

    white: KingCounter | None
    black: KingCounter | None
    seven_move: int | None
    seven_move_side: Color | None

    def counter(self, color: Color) -> KingCounter | None:
        return self.white if color is Color.WHITE else self.black

    @property
    def seven_move_left(self) -> int | None:
        return None if self.seven_move is None else 7 - self.seven_move

    def __str__(self) -> str:
        def show(k: KingCounter | None) -> str:
            return "0" if k is None else f"{k.count} (king on {k.square}{', blocked' if k.blocked else ''})"
        seven = "" if self.seven_move is None else f", seven-move rule: {self.seven_move_left} left for {self.seven_move_side}"
        return f"counters: white {show(self.white)}, black {show(self.black)}{seven}"


@dataclass(frozen=True, slots=True)
class DrawPossible(Event):
    """The material is a typical endgame where a draw may be agreed (manual §2j); the game goes on
    unless the players agree."""

    reason: str

    def __str__(self) -> str:
        return f"a draw may be agreed: {self.reason}"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended: ``result`` is ``1-0``, ``0-1`` or ``1/2-1/2``, ``reason`` the termination
    (``seven-move rule``, ``no legal move``...), ``article`` the article that decides it."""

    result: str
    reason: str
    article: str
    winner: Color | None

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def __str__(self) -> str:
        return f"game over: {self.result} ({self.reason}, {self.article})"


@dataclass(frozen=True, slots=True)
class LookAgain(Event):
    """The reading is too unclear to decide: the arbiter waits for another observation.
    ``squares`` are the squares in doubt."""

    reason: str
    squares: tuple[int, ...] = ()

    def __str__(self) -> str:
        where = f" (squares {', '.join(map(str, self.squares))})" if self.squares else ""
        return f"unclear board, looking again: {self.reason}{where}"


#: Every event type, for consumers that dispatch on them.
EVENT_TYPES = (MovePlayed, MoveTakenBack, ScoresheetComment, Irregularity, IrregularityResolved, IrregularityStands, TouchMove,
               LostTrack, CrownPending, CountersChanged, DrawPossible, GameOver, LookAgain)
