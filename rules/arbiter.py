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
- a board several plies on by legal play (`Arbiter._recover`): a quick reply, a board misread
  once (an irregularity opened for nothing) or put right unseen; the moves are recorded;
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

import time
from dataclasses import dataclass, field

from rules import movegen
from rules.errors import FenError
from rules.events import (CountersChanged, CrownPending, DrawPossible, Event, GameOver, Irregularity,
                          IrregularityKind, IrregularityResolved, IrregularityStands, LookAgain,
                          MovePlayed, MoveTakenBack, ScoresheetComment, TouchMove)
from rules.game import Game
from rules.irregularities import Finding, classify, name
from rules.lines import Line, Root, SureKinds, legal_lines
from rules.matching import KING_CONFIDENT, Candidate, Scorer, changes_between, sure_of_kind
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

#: The most plies recovery by legal play (`Arbiter._recover`) looks ahead.  A board misread once
#: is followed by one seen two plies on; a second board missed (a hand over it, another misreading)
#: makes three, and four allows one more.  Deeper is hardly worth it: from three plies on, two
#: moves of one side by different pieces can be swapped and give the same board, so a quiet line
#: can less and less be told from its transpositions (which are never guessed), while every ply
#: multiplies the search by the branching (about 10).
RECOVERY_PLIES = 4
#: Recovery is tried only on a board read clearly: at most this many squares whose kind (empty,
#: white, black) is read unsurely.  Each such square also loosens the search's pruning by one
#: square (`legal_lines`), so this bounds its cost too.
RECOVERY_UNSURE = 3
#: Recovery gives up, and records nothing, after this long.  The costliest middle game and king
#: endgame found are searched to four plies in about 45 ms on a desktop core (``python -m
#: tests.test_arbiter_recovery``; a Raspberry Pi, some 3-5 times slower, not measured yet); only
#: boards with many kings able to capture take longer (the move generator follows every capture
#: route), and there giving up is safe: the irregularity stays open.
RECOVERY_SECONDS = 0.5
#: How an open irregularity is resolved when the board went on from the recorded position.
RECOVERED = "the board went on by legal moves: it was misread or put right"


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
    """Judges a game from settled observations of the board.  ``game`` is the scoresheet so far.
    ``unfit`` counts the boards seen since the last recorded move that fitted no legal move (each
    opened or replaced an irregularity or a touch-move breach): `_recover` allows a line one ply
    longer for each."""

    game: Game = field(default_factory=Game)
    pending: Pending | None = None
    touched: list[int] = field(default_factory=list)
    uncrowned: int | None = None
    over: Outcome | None = None
    hinted: set[str] = field(default_factory=set)
    unfit: int = 0

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
            recovered = self._recover(obs, scorer, base, when)
            if recovered is not None:
                return recovered
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

    def _recover(self, obs: Observation, scorer: Scorer, base: dict[int, Piece],
                 when: float | None) -> tuple[Event, ...] | None:
        """Recovery by legal play: the board fits none of today's candidates, but it may be the
        result of several legal moves from the recorded position, both sides having moved before
        the board was seen still (a quick reply), or after a board that was misread or put right
        unseen (an irregularity opened for nothing).  A human arbiter seeing the game go on by
        legal play writes the moves down; so does this.

        Lines of 2 to `RECOVERY_PLIES` plies are searched (`legal_lines`) from the recorded
        position and, while an irregularity is open, from its board: an irregular move that can
        stand stands once the opponent replied (Art. 27, rule IV), and is recorded so; a board
        that cannot stand is searched only as the other explanation (`Root.AS_SEEN`).  Each
        still board the camera saw is taken to be at most one ply on from the one before, two
        for a quick reply: a line may be longer than two plies only by the boards seen since the
        last recorded move that fitted nothing (``unfit``: misread, or put right since).
        Without them a board would be explained away by moves nobody saw: a capture with one
        piece too many taken off (Art. 27b) is also the capture, a move of that piece and its
        capture.  The fewest plies that explain the reading are taken: every board the camera
        missed is a failure of its own, so a line one ply longer is far less likely (and a
        king's move a-b is not also read as a-c-b); a line with a piece's round trip in it is
        not taken (`Line.leaves_no_trace`).  Among the lines of that length the `Scorer` must
        accept one far better than every other, as for one move: two lines that give the same
        board with different moves (a transposition) are not told apart, and nothing is
        recorded.  The squares the accepted line changes must be read surely, else the arbiter
        looks again.  A search that takes longer than `RECOVERY_SECONDS` records nothing.

        Returns the events, a `LookAgain`, or None when no line fits, or none alone."""
        sure = SureKinds.of(obs)
        if sure.unsure > RECOVERY_UNSURE:
            return None
        roots = self._roots()
        deadline = time.monotonic() + RECOVERY_SECONDS
        moves: dict[movegen.RawState, list[movegen.RawMove]] = {}
        for plies in range(2, min(RECOVERY_PLIES, 2 + self.unfit) + 1):
            lines: list[Line] = []
            sheets: set = set()
            for root, start, shortest in roots:
                before = 0 if root is Root.RECORDED else 1  # the irregular move is a ply
                if plies - before < shortest:
                    continue
                search = legal_lines(start, plies - before, sure, moves, deadline)
                if not search.complete:
                    return None  # too long to search: nothing is recorded, the board stays irregular
                for raws, _ in search.lines:
                    line = Line.of(root, start, raws)
                    if line.leaves_no_trace():
                        continue
                    sheet = self._sheet(line)
                    if sheet not in sheets:  # a touch-move breach standing is its move's sheet
                        sheets.add(sheet)
                        lines.append(line)
            candidates = [Candidate(("line", i) + ((u,) if u is not None else ()), changes_between(base, board))
                          for i, line in enumerate(lines) for u, board in self._line_boards(line)]
            decision = scorer.decide(candidates)
            if not decision.explained:
                continue
            key = decision.accepted or _crowning_in_doubt(decision)
            if key is None:
                if decision.doubt:
                    return (LookAgain(self.game.ply, when, "the reading fits more than one line of moves",
                                      decision.doubt),)
                return None
            line = lines[key[1]]
            if line.root is Root.AS_SEEN:
                return None
            changed = next(c.changes for c in candidates if c.key == key)
            unsure = tuple(sq for sq in sorted(changed) if not sure_of_kind(obs.reading(sq)))
            if unsure:
                return (LookAgain(self.game.ply, when, "the squares that changed are not read clearly",
                                  unsure),)
            return self._play_line(line, key[2] if len(key) > 2 else None, when)
        return None

    def _roots(self) -> list[tuple[Root, Position, int]]:
        """Where lines may start, each with its fewest plies: the open irregular move that can
        stand first (a touch-move breach standing is kept over the same move from the recorded
        position), and its one reply is judged with the other candidates already."""
        roots: list[tuple[Root, Position, int]] = [(Root.RECORDED, self.position, 2)]
        pending = self.pending
        if pending is None:
            return roots
        if pending.position is not None:
            if pending.position.outcome() is None:
                roots.insert(0, (Root.STANDS, pending.position, 2))
        elif (seen := _as_seen(pending)) is not None and seen.outcome() is None:
            roots.append((Root.AS_SEEN, seen, 1))
        return roots

    def _sheet(self, line: Line) -> tuple:
        """What a line writes on the scoresheet, to tell lines apart: its moves, after the
        irregular move that stands (a touch-move breach is its legal move)."""
        moves = tuple(m.key() for m, _ in line.moves)
        if line.root is Root.RECORDED:
            return ((moves[0], False),) + moves[1:]
        if line.root is Root.AS_SEEN:
            return ("as seen",) + moves
        pending = self.pending
        first = pending.legal_move or pending.move
        return ((first.key() if first else None, pending.legal_move is None),) + moves

    def _line_boards(self, line: Line):
        """The physical boards a line may leave: as the rules leave it, and with one man that
        reached the far row not yet crowned (one crowned in the line, or the man already waiting
        for its crown and not moved since), each with that square."""
        board = line.end.pieces()
        yield None, board
        waiting = set(line.promoted())
        old = self.uncrowned
        if (line.root is Root.RECORDED and old is not None and (p := board.get(old)) and p.king
                and all(m.from_square != old and old not in m.captured for m, _ in line.moves)):
            waiting.add(old)
        for sq in sorted(waiting):
            plain = dict(board)
            plain[sq] = Piece(board[sq].color, False)
            yield sq, plain

    def _play_line(self, line: Line, uncrowned: int | None, when: float | None) -> tuple[Event, ...]:
        """Record a line found by `_recover`: the open irregularity resolved (the board went on
        from the recorded position) or standing (it went on from the irregular board), then each
        move with its events."""
        events: list[Event] = []
        if line.root is Root.STANDS:
            events.extend(self._stand(when))
        elif self.pending is not None:
            events.extend(self._resolve(RECOVERED, when))
        if uncrowned != self.uncrowned:
            self.uncrowned = None
        crowned_by = line.promoted().get(uncrowned) if uncrowned is not None else None
        for i, (move, after) in enumerate(line.moves):
            events.extend(self._record(move, after, when, uncrowned=uncrowned if i == crowned_by else None))
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
        self.unfit = 0
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
        self.unfit += 1
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
            if not sure_of_kind(r):
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
        self.unfit += 1
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
        self.unfit = 0
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
        self.unfit = 0
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
        self.unfit = 0
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
    yet (the same move or line of moves, with and without its crown), the one without it: it is
    recorded, and the crown is awaited (`CrownPending`).  Looking again could lose the move: the next one may
    be played before the crown is read surely, and a board two moves on may no longer tell
    where it went (a piece captured from either of two squares)."""
    a, b = decision.best, decision.runner_up
    if not (isinstance(a, tuple) and isinstance(b, tuple) and a[:1] == b[:1]
            and a[0] in ("move", "line")):
        return None
    if a[1] != b[1] or {len(a), len(b)} != {2, 3}:
        return None
    return a if len(a) == 3 else b


def _as_seen(pending: Pending) -> Position | None:
    """The board of an irregularity that cannot stand as a position, the other side to move, men
    on the far row crowned and no counters (None if even so it is no position)."""
    pieces = {sq: Piece(p.color, True) if sq in promotion_row(p.color is Color.WHITE) else p
              for sq, p in pending.board.items()}
    try:
        return Position.setup(pieces, pending.color.other)
    except FenError:
        return None


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
