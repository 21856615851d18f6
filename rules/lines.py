"""Lines of legal moves that can explain a reading of the board: the search behind the arbiter's
recovery by legal play (`rules.recovery.Recovery._recover`).

A `Line` is such a sequence played out, from a `Root` (where the arbiter may take it to start).
`legal_lines` finds every sequence of a given number of legal moves from a position whose final
board has the kinds (empty, white, black) a reading is sure of, pruned soundly (see its
docstring); `SureKinds` is what a reading is sure of, as bit masks in the move generator's layout.
`Searches` keeps its answers, and a `Trail` follows lines through several still readings, one
stretch from one reading to the next (each a short search from the ends of the one before).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules import movegen
from rules.bitboard import BIT
from rules.matching import sure_of_kind
from rules.move import Move
from rules.observation import Observation
from rules.piece import Color
from rules.position import Position


@dataclass(frozen=True, slots=True)
class SureKinds:
    """The squares read surely in kind (empty, or a piece of a colour), as bit masks in the move
    generator's layout (`rules.bitboard`).  A board explains a reading only if it has exactly
    these kinds there (`rules.matching`: a sure reading of another kind contradicts it); whether a
    piece is a man or a king does not count here.  ``unsure`` is how many squares are not sure."""

    white: int
    black: int
    empty: int
    unsure: int

    @classmethod
    def of(cls, obs: Observation) -> "SureKinds":
        white = black = empty = unsure = 0
        for sq in range(1, 51):
            r = obs.reading(sq)
            if not sure_of_kind(r):
                unsure += 1
            elif r.content is None:
                empty |= BIT[sq]
            elif r.content.color is Color.WHITE:
                white |= BIT[sq]
            else:
                black |= BIT[sq]
        return cls(white, black, empty, unsure)

    def fits(self, position: Position) -> bool:
        """Whether ``position`` holds these kinds on every square read surely."""
        wm, wk, bm, bk = position._state[:4]
        return _misfits(wm | wk, bm | bk, self) == 0


@dataclass(frozen=True, slots=True)
class Search:
    """What `legal_lines` found: each line as its raw moves and the raw state it leaves, and how
    many positions the search expanded (its cost); ``complete`` is False when it spent its
    `Budget` (then ``lines`` is empty)."""

    lines: tuple[tuple[tuple[movegen.RawMove, ...], movegen.RawState], ...]
    visited: int
    complete: bool = True


class _Spent(Exception):
    """A search's `Budget` is spent."""


class Budget:
    """How much work searches may still do: one budget is shared by every search that judges
    one board (`legal_lines`).  A unit is a position visited, a legal move tried there, or a
    line handed back; generating a position's legal moves costs `GENERATE_WORK`.  On a desktop
    core a unit takes 1-3.5 microseconds (the arbiter's tests, garbage collection off).

    Work, not wall-clock time: the same readings must get the same verdict on every machine and
    under any load.  A deadline did not give it: a board of two exchanges first seen eight plies
    on was recorded on a desktop in 1.1 s of a 1.5 s allowance and named Art. 27 on a loaded CI
    machine, where the search ran out of time; a Raspberry Pi, some 3-5 times slower, would
    have given up on boards a desktop records.  Now the Pi takes longer and judges alike."""

    __slots__ = ("work", "left")

    def __init__(self, work: int) -> None:
        self.work = self.left = work

    @property
    def spent(self) -> int:
        return self.work - self.left

    def spend(self, work: int) -> None:
        self.left -= work
        if self.left < 0:
            raise _Spent


#: The work of generating one position's legal moves (20-70 microseconds on a desktop core), in
#: units of visiting a position or trying a move.
GENERATE_WORK = 20
#: The budget of a search given none (it is never spent).
_UNBOUNDED = 1 << 62


def legal_lines(start: Position, plies: int, sure: SureKinds,
                moves: dict[movegen.RawState, list[movegen.RawMove]] | None = None,
                budget: Budget | None = None, slack: int = 0) -> Search:
    """Every sequence of exactly ``plies`` legal moves from ``start`` whose final board has the
    kinds the reading is sure of (a necessary condition for explaining it), played on from no
    position where the game is over.  With ``slack``, the final board may have another kind on
    at most that many of those squares (a line that an irregular act of a piece or two follows:
    the arbiter names that act, `Arbiter._near`); each bound below is loosened by as much.

    The search is pruned soundly.  A ply changes the kind of its from-square (emptied), its
    to-square (the mover's colour) and of the squares whose pieces it captures, and of no other
    square; captured pieces never come back.  So on a board on the way, with ``w`` of white's
    plies and ``b`` of black's still to come:

    - the squares that must become white are at most ``w`` (each is some white ply's landing),
      and those that must become black at most ``b``;
    - the white pieces that must go from their squares are at most ``w`` (each ply moves one
      piece away) plus those black's plies capture, which are no more than the white pieces
      beyond those the reading surely sees (and none when black has no ply to come); the same
      for black.

    A board with fewer pieces of a colour than the reading surely sees, or that breaks one of
    these, cannot lead to a fit.  A position reached again with as many plies to go (a
    transposition) is not searched again: its lines are remembered.  ``moves`` keeps the legal
    moves of the positions expanded, for searches from the same position to share;
    ``budget`` stops the search when it is spent (the `Search` is then not ``complete``)."""
    moves = {} if moves is None else moves
    budget = Budget(_UNBOUNDED) if budget is None else budget
    need_white, need_black = sure.white.bit_count(), sure.black.bit_count()
    not_white, not_black = sure.empty | sure.black, sure.empty | sure.white
    known: dict[tuple[movegen.RawState, int], list] = {}
    visited = 0

    def walk(state: movegen.RawState, left: int) -> list[tuple[tuple[movegen.RawMove, ...], movegen.RawState]]:
        nonlocal visited
        memo = known.get((state, left))
        if memo is not None:
            return memo
        visited += 1
        budget.spend(1)
        found: list[tuple[tuple[movegen.RawMove, ...], movegen.RawState]] = []
        known[(state, left)] = found
        white, black = state[0] | state[1], state[2] | state[3]
        spare_white = white.bit_count() - need_white + slack
        spare_black = black.bit_count() - need_black + slack
        if spare_white < 0 or spare_black < 0:
            return found
        plies_white = (left + 1) // 2 if state[4] else left // 2
        plies_black = left - plies_white
        if ((sure.white & ~white).bit_count() > plies_white + slack
                or (sure.black & ~black).bit_count() > plies_black + slack
                or (not_white & white).bit_count() > plies_white + slack + (spare_white if plies_black else 0)
                or (not_black & black).bit_count() > plies_black + slack + (spare_black if plies_white else 0)):
            return found
        if left == 0:  # reached only with no ply at all: the board itself must fit
            if _misfits(white, black, sure) <= slack:
                found.append(((), state))
            return found
        if _over(state) and (state, left) != (start._state, plies):
            return found
        legal = moves.get(state)
        if legal is None:
            budget.spend(GENERATE_WORK)
            legal = moves[state] = movegen.legal_moves(state)
        budget.spend(len(legal))
        if left == 1:  # the last ply: the board it leaves must fit exactly
            mine, theirs = (white, black) if state[4] else (black, white)
            must_mine, must_theirs = (sure.white, sure.black) if state[4] else (sure.black, sure.white)
            for raw in legal:
                after_mine = (mine & ~(1 << raw[0])) | (1 << raw[1])
                after_theirs = theirs & ~raw[2]
                if slack:
                    after = (after_mine, after_theirs) if state[4] else (after_theirs, after_mine)
                    if _misfits(*after, sure) <= slack:
                        found.append(((raw,), movegen.apply(state, raw)))
                elif not (must_mine & ~after_mine or must_theirs & ~after_theirs
                          or sure.empty & (after_mine | after_theirs)):
                    found.append(((raw,), movegen.apply(state, raw)))
            return found
        for raw in legal:
            further = walk(movegen.apply(state, raw), left - 1)
            budget.spend(len(further))
            found.extend(((raw,) + rest, end) for rest, end in further)
        return found

    try:
        return Search(tuple(walk(start._state, plies)), visited)
    except _Spent:
        return Search((), visited, complete=False)


def fits_a_line(obs: Observation, position: Position, most: int,
                work: int = 200_000) -> bool | None:
    """Whether some line of 2 to ``most`` legal moves from ``position`` leaves a board with the
    kinds ``obs`` reads surely (`legal_lines`); None when the search spent its ``work`` (a
    `Budget`; the default takes about half a second on a desktop core) before it found one: it
    cannot say.
    A board first seen still several plies on (hands hovering over it between moves) tells which
    way round it stands when only one orientation's play can give it."""
    sure = SureKinds.of(obs)
    moves: dict[movegen.RawState, list[movegen.RawMove]] = {}
    budget = Budget(work)
    for plies in range(2, most + 1):
        found = legal_lines(position, plies, sure, moves, budget)
        if found.lines:
            return True
        if not found.complete:
            return None
    return False


def _misfits(white: int, black: int, sure: SureKinds) -> int:
    """How many squares the reading is sure of hold another kind on the board ``white, black``."""
    return ((sure.white & ~white).bit_count() + (sure.black & ~black).bit_count()
            + (sure.empty & (white | black)).bit_count())


def _over(state: movegen.RawState) -> bool:
    """Whether the game is over in ``state`` by a rule that leaves legal moves (a king against a
    king, the seven-move rule); the other ends leave none, and the search stops there by itself."""
    wm, wk, bm, bk = state[:4]
    if state[7] >= 7 or (not (wm | bm) and wk.bit_count() == 1 and bk.bit_count() == 1):
        return Position(state).outcome() is not None
    return False


class Root(Enum):
    """Where a line of legal moves found by `Arbiter._recover` starts."""

    #: The recorded position: the open irregularity, if any, was misread or put right.
    RECORDED = "recorded"
    #: The board of the open irregular move, which stands once the opponent replied (Art. 27,
    #: rule IV).
    STANDS = "stands"
    #: The board of an open irregularity that cannot stand (pieces gone, several moved), taken as
    #: it was seen.  Such a line is never recorded: when it fits as well, the board went on from
    #: the irregular board just as well as from the recorded position, and the arbiter cannot tell
    #: a misreading from a real irregularity (a man taken off, then a king's move over its
    #: square, looks like the man's move and its capture).
    AS_SEEN = "as seen"


@dataclass(frozen=True, slots=True)
class Line:
    """Legal moves played from ``start``, each with the position after it, from a `Root`."""

    root: Root
    start: Position
    moves: tuple[tuple[Move, Position], ...]

    @classmethod
    def of(cls, root: Root, start: Position, raws: tuple[movegen.RawMove, ...]) -> "Line":
        moves = []
        position = start
        for raw in raws:
            after = Position(movegen.apply(position._state, raw))
            moves.append((position._to_move(raw), after))
            position = after
        return cls(root, start, tuple(moves))

    @property
    def end(self) -> Position:
        return self.moves[-1][1]

    def leaves_no_trace(self) -> bool:
        """Whether a piece of the line ends on the square it started from as it was there,
        without having captured (a king there and back): such moves leave no trace on the
        board, so a board is no evidence that they were played (and an opponent's piece moved
        out of turn would otherwise pass for a line with a king's round trip in it).  A man
        crowned on the way that came back as a king left one (9-3, crowned, and 3-9 at blitz:
        the line was refused, and the king on 9 was an irregular move, Art. 27d)."""
        # where a moved piece stands -> (its start, captured)
        origin: dict[int, tuple[int, bool]] = {}
        for move, _ in self.moves:
            start, captured = origin.pop(move.from_square, (move.from_square, False))
            for sq in move.captured:
                origin.pop(sq, None)
            origin[move.to_square] = (start, captured or move.is_capture)
        end = self.end
        return any(sq == start and not captured
                   and self.start.piece_at(start) == end.piece_at(sq)
                   for sq, (start, captured) in origin.items())

    def promoted(self) -> dict[int, int]:
        """The squares where a man of the line was crowned and still stands unmoved at the end,
        each with the index of the move that crowned it."""
        out: dict[int, int] = {}
        before = self.start
        for i, (move, after) in enumerate(self.moves):
            out.pop(move.from_square, None)
            for sq in move.captured:
                out.pop(sq, None)
            if not before.piece_at(move.from_square).king and after.piece_at(move.to_square).king:
                out[move.to_square] = i
            before = after
        return out


class Searches:
    """`legal_lines` with its answers kept, for the arbiter to ask again cheaply: every still
    reading is searched from the same states again when the next one comes (as a reading the
    line passed, `Trail.follow`), and the legal moves of every position expanded are shared.
    A search that spent its `Budget` is kept as such (a reading it was for then fits nothing),
    so that a costly board is not searched in vain once per reading; it is searched again only
    with more work left to it than it had (a board searched further, `rules.recovery.DEEP_WORK`,
    or one that the searches before it had left little).  The arbiter
    keeps one from its last recorded move on."""

    def __init__(self) -> None:
        self.moves: dict[movegen.RawState, list[movegen.RawMove]] = {}
        self._found: dict[tuple, tuple[Search, int]] = {}
        self.visited = 0

    def lines(self, state: movegen.RawState, plies: int, sure: SureKinds,
              budget: Budget | None = None, slack: int = 0) -> Search:
        key = (state, plies, sure.white, sure.black, sure.empty, slack)
        # (what this search may spend is what the board's budget has left: a search that the
        # searches before it starved is searched again when more is left; kept as if it had had
        # the whole budget, a board ten plies on that an unfittable reading before it starved was
        # never searched again, and the record stopped for good: the system bench's selfplay-16
        # at seed 7474002)
        work = _UNBOUNDED if budget is None else max(budget.left, 0)
        kept = self._found.get(key)
        if kept is None or (not kept[0].complete and work > kept[1]):
            found = legal_lines(Position(state), plies, sure, self.moves, budget, slack)
            self._found[key] = kept = (found, work)
            self.visited += found.visited
        return kept[0]


#: The move sequences that reach a state, from where a `Trail` starts (several: the board
#: cannot tell them apart, what the camera saw on the way may).
Ways = tuple[tuple[movegen.RawMove, ...], ...]


#: The move orders a trail keeps to one state: two moves of each side give four.
MOST_WAYS = 6


@dataclass(frozen=True, slots=True)
class Trail:
    """Lines of legal moves from a root through the still readings seen since: ``ends`` maps
    each state the readings so far leave possible to the move sequences reaching it (at most
    `MOST_WAYS`: the others are transpositions, which nothing later on the board can undo, but
    what the camera saw on the way can tell apart), all ``plies`` long.

    A reading *fits* when some line a few plies on from one of the ends has exactly its sure
    kinds (`legal_lines`), with no piece's round trip within those plies (`Line.leaves_no_trace`:
    a round trip seen half way is no round trip); the fewest plies are taken and the ends move
    there (`follow` also gives the trail one ply further, the other side to move, where the
    reading fits that too: the arbiter keeps both, `rules.recovery.Recovery._follow`).  A reading that fits nothing (misread, a hand half over the board, the middle of a
    capture) leaves the ends where they were and only counts, in ``loose``.  ``segments`` are the
    plies between consecutive readings that fitted, each with the readings that fitted nothing
    in between; ``support`` how many readings fitted, repeats of a board included."""

    ends: dict[movegen.RawState, Ways]
    plies: int = 0
    segments: tuple[tuple[int, int], ...] = ()
    loose: int = 0
    support: int = 0

    @classmethod
    def at(cls, state: movegen.RawState, support: int = 0) -> "Trail":
        return cls({state: ((),)}, support=support)

    @property
    def anchored(self) -> bool:
        """Whether a reading after the root fitted (the ends are no longer the root)."""
        return bool(self.segments)

    def follow(self, sure: SureKinds, count: int, most: int, searches: Searches,
               budget: Budget | None = None, most_ends: int = 8) -> tuple["Trail", ...]:
        """The trails after a reading read ``count`` times in a row, at most ``most`` plies on:
        the one of the fewest plies that fit it and, when the reading also fits one ply further
        on, that one too.  A Frisian board can be reached in one ply more as well as in the
        fewest (a sideways capture advances no row, a king goes and comes back), with the other
        side to move; only what the readings after it show tells the two apart.  The fewest
        alone once took a board of ply 10 for one of ply 9, with black to move: every later move
        then needed two to four plies, support fell short and the arbiter lost track (the system
        bench's selfplay-11 at seed 8282007).  More than ``most_ends`` states fitting at once (a
        reading with unsure squares) is no evidence: the reading counts as fitting nothing."""
        for plies in range(0, most + 1):
            ends = self._ends(plies, sure, searches, budget)
            if ends is None or len(ends) > most_ends:
                return (self._missed(),)
            if ends:
                fewest = self._on(ends, plies, count)
                further = self._ends(plies + 1, sure, searches, budget) if plies < most else None
                if not further or len(further) > most_ends:
                    return (fewest,)
                return fewest, self._on(further, plies + 1, count)
        return (self._missed(),)

    def _ends(self, plies: int, sure: SureKinds, searches: Searches,
              budget: Budget | None) -> dict[movegen.RawState, list] | None:
        """The states ``plies`` on from the ends that fit ``sure``, each with its ways (None
        when a search spent its budget)."""
        ends: dict[movegen.RawState, list] = {}
        for state, ways in self.ends.items():
            search = searches.lines(state, plies, sure, budget)
            if not search.complete:
                return None
            for raws, end in search.lines:
                if plies > 1 and Line.of(Root.RECORDED, Position(state), raws).leaves_no_trace():
                    continue
                reached = ends.setdefault(end, [])
                for way in ways:
                    if len(reached) < MOST_WAYS:
                        reached.append(way + raws)
        return ends

    def _on(self, ends: dict[movegen.RawState, list], plies: int, count: int) -> "Trail":
        return Trail({s: tuple(w) for s, w in ends.items()}, self.plies + plies,
                     self.segments + ((plies, self.loose),), 0, self.support + count)

    def _missed(self) -> "Trail":
        return Trail(self.ends, self.plies, self.segments, self.loose + 1, self.support)
