"""The arbiter: from settled observations of the physical board to moves, irregularities,
counters and results (DESIGN.md "The arbiter"; RULES.md "On the physical board").

It holds the game and takes one `Settled` observation at a time.  The observation is matched
against the boards the game allows (`rules.matching`):

- the board as it stands: nothing happened (pieces lifted and put back are remembered for
  touch-move);
- the result of exactly one legal move: that move is recorded; a man on the far row not yet
  crowned is recorded and announced ("crown the man on 3"), the crown may follow later;
- while an irregular move is open: the irregular board itself (still open), or a move of the
  opponent from it, after which the irregular move stands (Art. 27, rule IV) and is recorded with
  a comment; the board as it was before (taken back) or a legal move instead resolve it;
- anything else is named by `rules.irregularities` with its article and remedy.

A reading that is unclear (no candidate far better than the others, or the squares that differ
read with too little confidence) gets `LookAgain`: the arbiter never guesses.

Touch-move (Art. 15, manual rules I-III): the squares lifted while a hand was over the board are
kept, in order, for the side to move until it has moved.  The first of its pieces touched that
could legally move must be the one that moves (rule I); when several pieces can make equal
captures, the first touched must capture (rule II); a touched piece that cannot move binds
nothing (rule III).  A breach is announced and treated like an irregular move: it can be taken
back or replaced, and it stands once the opponent has replied.

The arbiter does no I/O; its answers are events (`rules.events`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import FenError
from rules.events import (CountersChanged, CrownPending, DrawPossible, Event, GameOver, Irregularity,
                          IrregularityKind, IrregularityResolved, IrregularityStands, LookAgain,
                          MovePlayed, MoveTakenBack, ScoresheetComment, TouchMove)
from rules.game import Game
from rules.irregularities import Finding, classify, name
from rules.matching import CONFIDENT, KING_CONFIDENT, Candidate, Scorer, changes_between
from rules.move import Move
from rules.observation import Observation, Settled
from rules.outcome import Outcome, Termination
from rules.piece import Color, KingCounter, Piece
from rules.position import Position
from rules.squares import promotion_row

#: The article that decides each way a game ends.
TERMINATION_ARTICLE = {
    Termination.NO_PIECES: "Art. 20a",
    Termination.NO_LEGAL_MOVE: "Art. 20f",
    Termination.KING_VS_KING: "Art. 21.1",
    Termination.SEVEN_MOVE_RULE: "Art. 18",
    Termination.RESIGNATION: "Art. 20",
    Termination.TIME: "Art. 20",
    Termination.AGREEMENT: "Art. 21",
    Termination.ARBITER: "Art. 26",
}


@dataclass(frozen=True, slots=True)
class Pending:
    """An irregular move (or a touch-move breach) not yet answered by the opponent.

    ``board`` is the board it left; ``position`` the same as a position the game can go on from
    (None when the board cannot stand, e.g. several pieces moved); ``move`` is the move as seen,
    ``legal_move`` set for a touch-move breach (a legal move made with the wrong piece)."""

    board: dict[int, Piece]
    position: Position | None
    kind: IrregularityKind | None
    move: Move | None
    summary: str
    color: Color
    legal_move: Move | None = None


@dataclass
class Arbiter:
    """Judges a game from settled observations of the board.  ``game`` is the scoresheet so far."""

    game: Game = field(default_factory=Game)
    pending: Pending | None = None
    touched: list[int] = field(default_factory=list)
    uncrowned: int | None = None
    over: Outcome | None = None
    hinted: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.over = self.game.position.outcome()

    # -- the physical board ---------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.game.position

    def expected_board(self) -> dict[int, Piece]:
        """What should stand on the board now: the position, or the open irregular board."""
        if self.pending is not None:
            return dict(self.pending.board)
        return self._physical(self.position)

    def _physical(self, position: Position) -> dict[int, Piece]:
        board = position.pieces()
        if self.uncrowned is not None and self.uncrowned in board:
            p = board[self.uncrowned]
            board[self.uncrowned] = Piece(p.color, False)
        return board

    # -- the main entry -------------------------------------------------------------------------

    def observe(self, settled: Settled) -> tuple[Event, ...]:
        """Judge one settled observation; returns what happened, in order."""
        if self.over is not None:
            return ()
        obs = settled.observation
        when = settled.time if settled.time is not None else obs.time
        position = self.position
        base = self._physical(position)
        scorer = Scorer(obs, base)
        candidates: list[Candidate] = [Candidate(("same",), {})]
        if self.pending is not None:
            candidates.append(Candidate(("pending",), changes_between(base, self.pending.board)))
        if self.uncrowned is not None:
            p = base[self.uncrowned]
            candidates.append(Candidate(("crowned",), {self.uncrowned: Piece(p.color, True)}))
        successors = position.successors()
        for i, (move, after) in enumerate(successors):
            candidates.extend(self._move_candidates(("move", i), position, move, after, base))
        replies: list[tuple[Move, Position]] = []
        if self.pending is not None:
            if self.pending.position is not None:
                replies = self.pending.position.successors()
                for i, (move, after) in enumerate(replies):
                    candidates.extend(self._move_candidates(("reply", i), self.pending.position, move,
                                                            after, base,
                                                            keep_uncrowned=False))
        decision = scorer.decide(_distinct(candidates))
        key = decision.accepted
        if key is None:
            key = _crowning_in_doubt(decision)
        lifted = [sq for sq in settled.lifted if (p := base.get(sq)) and p.color is position.turn]

        if key is None:
            if decision.explained:
                return (LookAgain(self.game.ply, when, "the reading fits more than one board",
                                  decision.doubt),)
            if self.pending is None:
                both = self._two_moves(scorer, successors, base, when)
                if both is not None:
                    return both
            return self._irregular(obs, base, when, lifted)

        what = key[0]
        if what == "same":
            self._touch(lifted)
            return tuple(self._resolve("taken back", when)) if self.pending is not None else ()
        if what == "crowned":
            self.uncrowned = None
            return ()
        if what == "pending":
            return ()
        if what == "move":
            move, after = successors[key[1]]
            events: list[Event] = []
            if self.pending is not None:
                events.extend(self._resolve("replaced by a legal move", when))
            self._touch(lifted)
            breach = self._touch_breach(position, move, when)
            if breach is not None:
                events.extend(breach)
                return tuple(events)
            events.extend(self._record(move, after, when, uncrowned=key[2] if len(key) > 2 else None))
            return tuple(events)
        # a reply to the open irregular move: it stands, then the reply is recorded
        move, after = replies[key[1]]
        events = list(self._stand(when))
        events.extend(self._record(move, after, when, uncrowned=key[2] if len(key) > 2 else None))
        return tuple(events)

    def _two_moves(self, scorer: Scorer, successors: list[tuple[Move, Position]],
                   base: dict[int, Piece], when: float | None) -> tuple[Event, ...] | None:
        """Both sides moved before the board was seen still (a quick reply): a board that is
        the result of two legal moves, far better than any other, records both."""
        candidates: list[Candidate] = []
        replies: dict[int, list[tuple[Move, Position]]] = {}
        for i, (move, after) in enumerate(successors):
            if after.outcome() is not None:
                continue
            replies[i] = after.successors()
            for j, (reply, later) in enumerate(replies[i]):
                candidates.append(Candidate((i, j), changes_between(base, later.pieces())))
        decision = scorer.decide(_distinct(candidates))
        if decision.accepted is None:
            return None
        i, j = decision.accepted
        move, after = successors[i]
        events = self._record(move, after, when)
        reply, later = replies[i][j]
        events.extend(self._record(reply, later, when))
        return tuple(events)

    def _move_candidates(self, key: tuple, before: Position, move: Move, after: Position,
                         base: dict[int, Piece], keep_uncrowned: bool = True):
        """The board after a move, and the same with a newly crowned man not yet crowned."""
        board = after.pieces()
        if keep_uncrowned and self.uncrowned is not None and self.uncrowned in board \
                and self.uncrowned != move.from_square:
            p = board[self.uncrowned]
            board[self.uncrowned] = Piece(p.color, False)
        yield Candidate(key, changes_between(base, board))
        mover = before.piece_at(move.from_square)
        if not mover.king and board[move.to_square].king:
            plain = dict(board)
            plain[move.to_square] = Piece(mover.color, False)
            yield Candidate(key + (move.to_square,), changes_between(base, plain))

    # -- recording ------------------------------------------------------------------------------

    def _record(self, move: Move, after: Position, when: float | None,
                uncrowned: int | None = None) -> list[Event]:
        before = self.position
        text = before.move_text(move)
        self.game.push(move, after)
        ply = self.game.ply
        if when is not None:
            self.game.times[ply] = when
        self.touched.clear()
        events: list[Event] = [MovePlayed(ply, when, before.turn, _number(self.game, ply), text, after.fen())]
        if uncrowned is not None:
            self.uncrowned = uncrowned
        elif self.uncrowned is not None and (after.piece_at(self.uncrowned) is None
                                             or move.from_square == self.uncrowned):
            self.uncrowned = None
        if self.uncrowned is not None:
            p = after.piece_at(self.uncrowned)
            events.append(CrownPending(ply, when, p.color, self.uncrowned))
        events.append(self._counters(when))
        over = self._check_over(when)
        events.extend(over)
        if not over:
            events.extend(self._draw_hint(when))
        return events

    def _draw_hint(self, when: float | None) -> list[Event]:
        """Point out once that a draw may be agreed in the manual's typical endgames (§2j)."""
        reason = draw_reason(self.position)
        if reason is None or reason in self.hinted:
            return []
        self.hinted.add(reason)
        return [DrawPossible(self.game.ply, when, reason)]

    def _counters(self, when: float | None) -> CountersChanged:
        p = self.position
        return CountersChanged(self.game.ply, when, p.counter(Color.WHITE), p.counter(Color.BLACK),
                               p.seven_move_count, p.seven_move_side)

    def _check_over(self, when: float | None) -> list[Event]:
        outcome = self.position.outcome()
        if outcome is None:
            return []
        self.over = outcome
        return [GameOver(self.game.ply, when, outcome.result(), outcome.termination.value,
                         TERMINATION_ARTICLE[outcome.termination], outcome.winner)]

    def _comment(self, text: str, when: float | None) -> ScoresheetComment:
        self.game.comment(text)
        return ScoresheetComment(self.game.ply, when, text)

    # -- touch-move ------------------------------------------------------------------------------

    def _touch(self, lifted: list[int]) -> None:
        for sq in lifted:
            if sq not in self.touched:
                self.touched.append(sq)

    def _touch_breach(self, position: Position, move: Move, when: float | None) -> list[Event] | None:
        """A touch-move breach by ``move`` (Art. 15), or None when it keeps the rule."""
        legal = position.legal_moves()
        movable = {m.from_square for m in legal}
        first = next((sq for sq in self.touched if sq in movable), None)
        if first is None or first == move.from_square:
            return None
        own = [m for m in legal if m.from_square == first]
        texts = tuple(position.move_text(m, legal) for m in own)
        capture = own[0].is_capture
        rule = "Art. 15, rule II" if capture else "Art. 15, rule I"
        piece = position.piece_at(first)
        message = (f"the {name(piece)} on {first} was touched first and can "
                   f"{'capture' if capture else 'move'}, but {position.move_text(move, legal)} was played")
        remedy = f"take the move back and move the piece on {first}: {', '.join(texts)}"
        self.pending = Pending(position.play(move).pieces(), position.play(move), None, move,
                               f"touch-move: {message} ({rule})", position.turn, legal_move=move)
        return [TouchMove(self.game.ply, when, position.turn, first, move.from_square, rule, message,
                          remedy, texts)]

    # -- irregularities -------------------------------------------------------------------------

    def _irregular(self, obs: Observation, base: dict[int, Piece], when: float | None,
                   lifted: list[int]) -> tuple[Event, ...]:
        board = _plain_reading(obs, base)
        reference = self.pending.board if self.pending is not None else base
        def unsure(sq: int) -> bool:
            r = obs.reading(sq)
            if r.occluded or r.kind_confidence < CONFIDENT:
                return True
            seen, before = board.get(sq), base.get(sq)
            # a man read where a king stands (or the reverse) needs a surer reading
            return (seen is not None and before is not None and seen.color is before.color
                    and r.confidence < KING_CONFIDENT)

        doubtful = [sq for sq in range(1, 51)
                    if (base.get(sq) != board.get(sq) or reference.get(sq) != board.get(sq))
                    and unsure(sq)]
        if doubtful:
            return (LookAgain(self.game.ply, when, "the squares that changed are not read clearly",
                              tuple(doubtful)),)
        if self.pending is not None and board == self.pending.board:
            return ()
        events: list[Event] = []
        position = self.position
        if self.uncrowned is not None and board.get(self.uncrowned) == base.get(self.uncrowned):
            board[self.uncrowned] = position.piece_at(self.uncrowned)
        # An irregular reply to an open irregular move: the first stands, the reply is judged.
        if self.pending is not None and self.pending.position is not None:
            reply = classify(self.pending.position, board)
            mine = classify(position, board)
            if reply is not None and reply.seen is not None and mine is not None and \
                    len(reply.changes) < len(mine.changes) and reply.color is self.pending.color.other:
                events.extend(self._stand(when))
                position = self.position
        self._touch(lifted)
        finding = classify(position, board)
        if finding is None:
            return tuple(events)
        if self.pending is not None and self.pending.board == board:
            return tuple(events)
        self.pending = Pending(board, _standing_position(position, board, finding), finding.kind,
                               finding.seen, f"{finding.message} ({finding.kind.article})", finding.color)
        events.append(Irregularity(self.game.ply, when, finding.kind, finding.color, finding.message,
                                   finding.remedy, finding.square,
                                   finding.seen.long_text() if finding.seen else None,
                                   finding.legal, finding.changes))
        return tuple(events)

    def _resolve(self, how: str, when: float | None) -> list[Event]:
        pending = self.pending
        self.pending = None
        kind = pending.kind
        events: list[Event] = []
        if kind is not None:
            events.append(IrregularityResolved(self.game.ply, when, kind, how))
        events.append(self._comment(f"{pending.color}: {pending.summary}; {how}", when))
        return events

    def _stand(self, when: float | None) -> list[Event]:
        """The opponent replied to the open irregular move: record it as it stands."""
        pending = self.pending
        self.pending = None
        before = self.position
        if pending.legal_move is not None:
            text = before.move_text(pending.legal_move)
            self.game.push(pending.legal_move, pending.position)
            kind = None
        else:
            text = pending.move.long_text() if pending.move else "?"
            self.game.push_irregular(pending.move, pending.position, pending.kind.name)
            kind = pending.kind
        ply = self.game.ply
        if when is not None:
            self.game.times[ply] = when
        self.touched.clear()
        events: list[Event] = []
        if kind is not None:
            events.append(IrregularityStands(ply, when, kind, text))
        events.append(MovePlayed(ply, when, before.turn, _number(self.game, ply), text,
                                 pending.position.fen(), kind))
        events.append(self._comment(
            f"{pending.summary}; it stands: {pending.color.other} replied (Art. 27, rule IV)", when))
        return events

    # -- operator's actions ---------------------------------------------------------------------

    def take_back(self, when: float | None = None) -> tuple[Event, ...]:
        """Take back the last recorded move (an operator's long press)."""
        if self.pending is not None:
            return tuple(self._resolve("cancelled by the operator", when))
        if not self.game.moves:
            return ()
        text = self.game.move_texts()[-1]
        self.game.pop()
        self.over = None
        self.uncrowned = None
        self.touched.clear()
        return (MoveTakenBack(self.game.ply, when, text, self.position.fen()), self._counters(when))

    def declare(self, result: str, termination: Termination, when: float | None = None) -> tuple[Event, ...]:
        """Record an end the rules do not decide (resignation, time, agreement, arbiter)."""
        self.game.declare(result, termination)
        self.over = self.game.declared
        outcome = self.over
        return (GameOver(self.game.ply, when, outcome.result(), termination.value,
                         TERMINATION_ARTICLE[termination], outcome.winner),)

    def counters(self, when: float | None = None) -> CountersChanged:
        return self._counters(when)


#: The long diagonal (manual §2j-II) and the double diagonals 47-15 and 4-36 (§2j-III).
LONG_DIAGONAL = frozenset((46, 41, 37, 32, 28, 23, 19, 14, 10, 5))
DOUBLE_DIAGONALS = frozenset((47, 42, 38, 33, 29, 24, 20, 15, 4, 9, 13, 18, 22, 27, 31, 36))


def draw_reason(position: Position) -> str | None:
    """Why a draw may be agreed here (manual §2j), or None: no men are left and a lone king
    against kings holds the long diagonal (§2j-II) or the diagonals 47-15 and 4-36 (§2j-III).
    One king against one king is drawn by the rules themselves (Art. 21.1)."""
    if position.squares(Color.WHITE, False) or position.squares(Color.BLACK, False):
        return None
    for lone in Color:
        mine, theirs = position.squares(lone, True), position.squares(lone.other, True)
        if len(mine) == 1 and len(theirs) >= 2:
            if mine[0] in LONG_DIAGONAL:
                return f"the lone {lone} king holds the long diagonal (manual §2j-II)"
            if mine[0] in DOUBLE_DIAGONALS:
                return f"the lone {lone} king holds the diagonals 47-15 and 4-36 (manual §2j-III)"
    return None


def _distinct(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates with distinct boards, the first of each kept (a touch-move breach's board
    is also a legal move's: the open breach comes first)."""
    seen: set = set()
    out = []
    for c in candidates:
        board = frozenset(c.changes.items())
        if board not in seen:
            seen.add(board)
            out.append(c)
    return out


def _number(game: Game, ply: int) -> int:
    return (ply - 1 + (0 if game.start.turn.is_white else 1)) // 2 + 1


def _plain_reading(obs: Observation, base: dict[int, Piece]) -> dict[int, Piece]:
    """The most likely content of each square, with kings only where the game allows them: a king
    read where no king stood and no man can have been crowned becomes a man (when the reading
    says so: it must name that man as its alternative, or be unsure)."""
    board: dict[int, Piece] = {}
    kings_before = {c: sum(1 for p in base.values() if p.color is c and p.king) for c in Color}
    for sq in range(1, 51):
        r = obs.reading(sq)
        c = r.content
        if c is None:
            continue
        if c.king and not (base.get(sq) == c or sq in promotion_row(c.color is Color.WHITE)):
            man = Piece(c.color, False)
            kings_seen = sum(1 for q in obs.squares if q.content == c)
            if kings_seen > kings_before[c.color] and (r.alternative == man or r.confidence < 0.99):
                c = man
        board[sq] = c
    return board


def _crowning_in_doubt(decision) -> tuple | None:
    """When the reading is unclear only about whether a man that reached the far row is crowned
    yet (the same move, with and without its crown), the move without it: it is recorded, and
    the crown is awaited (`CrownPending`).  Looking again could lose the move: the next one may
    be played before the crown is read surely, and a board two moves on may no longer tell
    where it went (a piece captured from either of two squares)."""
    a, b = decision.best, decision.runner_up
    if not (isinstance(a, tuple) and isinstance(b, tuple) and a[:1] == b[:1] == ("move",)):
        return None
    if a[1] != b[1] or {len(a), len(b)} != {2, 3}:
        return None
    return a if len(a) == 3 else b


def _standing_position(position: Position, board: dict[int, Piece], finding: Finding) -> Position | None:
    """The position the game goes on from if the irregular board stands, or None if it cannot."""
    if finding.seen is None:
        return None
    me = position.turn
    pieces = dict(board)
    for sq in promotion_row(True):
        if (p := pieces.get(sq)) and p.color is Color.WHITE and not p.king:
            pieces[sq] = Piece(Color.WHITE, True)
    for sq in promotion_row(False):
        if (p := pieces.get(sq)) and p.color is Color.BLACK and not p.king:
            pieces[sq] = Piece(Color.BLACK, True)
    counters: dict[Color, KingCounter] = {}
    theirs = position.counter(me.other)
    if theirs is not None and pieces.get(theirs.square) == Piece(me.other, True):
        counters[me.other] = theirs
    mine = position.counter(me)
    moved = finding.seen
    if (mine is not None and mine.square == moved.from_square and not moved.captured
            and pieces.get(moved.to_square) == Piece(me, True)):
        counters[me] = KingCounter(moved.to_square, min(mine.count + 1, 3))
    try:
        return Position.setup(pieces, me.other, counters)
    except FenError:
        return None
