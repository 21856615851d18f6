"""A game: the start position, the moves played, comments, and how it ended."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import IllegalMoveError
from rules.move import Move
from rules.outcome import RESULT_ALIASES, Outcome, Termination
from rules.piece import Color
from rules.position import Position
from rules.scoresheet import Scoresheet, ScoresheetMove

#: The tags every written game carries, in PDN order, with their unknown values.
ROSTER: dict[str, str] = {
    "Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?",
    "Result": "*",
}


@dataclass
class Game:
    """The move stack over a start position (python-chess' Board move stack, as a game record).

    ``comments[i]`` are the comments after ply i (``comments[0]``: before the first move).
    ``times[i]`` is when ply i was recorded (seconds; wall-clock or since the start), when known.
    ``irregular[i]`` names the irregularity of ply i when an irregular move stood (Art. 27, rule
    IV): its position is then the board as it was left, not the result of a legal move.
    ``declared`` is an end reported from outside the rules (resignation, time, agreement, or a
    PDN Result tag that the rules do not reach); the rules' own end always wins over it.
    """

    start: Position = field(default_factory=Position.start)
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    comments: dict[int, list[str]] = field(default_factory=dict)
    declared: Outcome | None = None
    declared_result: str | None = None
    times: dict[int, float] = field(default_factory=dict)
    irregular: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.positions:
            self.positions = [self.start]

    @property
    def position(self) -> Position:
        return self.positions[-1]

    @property
    def ply(self) -> int:
        return len(self.moves)

    def push(self, move: Move, after: Position | None = None) -> Move:
        """Play a legal move; a game over by the rules takes no more moves.  ``after`` may pass
        the position after the move when the caller has it from `Position.successors`."""
        over = self.position.outcome()
        if over is not None:
            raise IllegalMoveError(f"{move} cannot be played: the game is over ({over})")
        self.positions.append(after if after is not None else self.position.play(move))
        self.moves.append(move)
        return move

    @classmethod
    def from_scoresheet(cls, sheet: Scoresheet) -> "Game":
        """The game a scoresheet records (a store's, to resume): legal moves are replayed by the
        rules, irregular moves that stood are taken with the position they left."""
        start = Position.from_fen(sheet.start_fen) if sheet.start_fen else Position.start()
        tags = {k: v for k, v in sheet.tags.items() if k not in ("Result", "GameType", "SetUp", "FEN")}
        game = cls(start=start, tags=tags)
        game.comments[0] = list(sheet.comments_before) if sheet.comments_before else []
        if not game.comments[0]:
            del game.comments[0]
        for m in sheet.moves:
            if m.irregular:
                game.push_irregular(Move.as_written(m.text), Position.from_fen(m.fen), m.irregular)
            else:
                game.push_text(m.text)
            if m.time is not None:
                game.times[game.ply] = m.time
            if m.comments:
                game.comments[game.ply] = list(m.comments)
        return game

    def push_irregular(self, move: Move, position: Position, kind: str) -> Move:
        """Record a move that broke a rule but stood because the opponent replied (Art. 27, rule
        IV): ``move`` as it was seen, ``position`` the board it left, ``kind`` what was wrong."""
        self.positions.append(position)
        self.moves.append(move)
        self.irregular[len(self.moves)] = kind
        return move

    def push_text(self, text: str) -> Move:
        return self.push(self.position.parse_move(text))

    def pop(self) -> Move:
        """Take back the last move (and the comments after it)."""
        if not self.moves:
            raise IndexError("no move to take back")
        self.comments.pop(len(self.moves), None)
        self.times.pop(len(self.moves), None)
        self.irregular.pop(len(self.moves), None)
        self.positions.pop()
        return self.moves.pop()

    def copy(self) -> "Game":
        """An independent copy of the record (positions and moves are immutable values)."""
        return Game(self.start, dict(self.tags), list(self.moves), list(self.positions),
                    {ply: list(texts) for ply, texts in self.comments.items()}, self.declared,
                    self.declared_result, dict(self.times), dict(self.irregular))

    def comment(self, text: str) -> None:
        """Add a comment after the last move played (before the first move if none)."""
        self.comments.setdefault(self.ply, []).append(text)

    def declare(self, result: str, termination: Termination | None = None) -> None:
        """Record an end the rules do not decide: ``1-0``, ``0-1``, ``1/2-1/2`` (or 2-0, 1-1, 0-2)."""
        norm = RESULT_ALIASES.get(result.strip())
        if norm is None:
            raise ValueError(f"not a result: {result!r} (use 1-0, 0-1 or 1/2-1/2)")
        if norm == "*":
            self.declared = None
            self.declared_result = None
            return
        self.declared_result = norm
        winner = None if norm == "1/2-1/2" else Color.WHITE if norm == "1-0" else Color.BLACK
        self.declared = Outcome(termination, winner) if termination else None

    def outcome(self) -> Outcome | None:
        """The end by the rules, else the declared one (None if unknown or still going)."""
        return self.position.outcome() or self.declared

    def result(self) -> str:
        """The result by the rules if the game is over by them, else the declared one, else ``*``."""
        over = self.position.outcome()
        if over is not None:
            return over.result()
        return self.declared_result or "*"

    def move_texts(self) -> list[str]:
        """Each move in PDN notation, long form only where the short one is ambiguous."""
        return [pos.move_text(m) for pos, m in zip(self.positions, self.moves)]

    def scoresheet(self) -> Scoresheet:
        """The game as a flat scoresheet record (what a store keeps, and what writes PDN)."""
        texts = self.move_texts()
        moves = []
        for i, (before, after, text) in enumerate(zip(self.positions, self.positions[1:], texts)):
            ply = i + 1
            moves.append(ScoresheetMove(
                ply=ply, color=before.turn, number=_move_number(self.start, i), text=text,
                fen=after.fen(), time=self.times.get(ply),
                comments=tuple(self.comments.get(ply, ())), irregular=self.irregular.get(ply)))
        outcome = self.outcome()
        headers = self.headers()
        return Scoresheet(tags=headers, start_fen=headers.get("FEN"), moves=moves,
                          comments_before=tuple(self.comments.get(0, ())), result=self.result(),
                          termination=outcome.termination.value if outcome else None)

    def headers(self) -> dict[str, str]:
        """The tags to write: the roster first, GameType 40, FEN/SetUp for a set-up start."""
        out = {k: self.tags.get(k, v) for k, v in ROSTER.items()}
        out["Result"] = self.result()
        out["GameType"] = "40"
        if self.start != Position.start():
            out["SetUp"] = "1"
            out["FEN"] = self.start.fen()
        for k, v in self.tags.items():
            if k not in out:
                out[k] = v
        return out


def _move_number(start: Position, index: int) -> int:
    """The PDN move number of the move at ``index`` (0-based) from ``start``."""
    return (index + (0 if start.turn.is_white else 1)) // 2 + 1
