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
- the board before the last recorded move, before the opponent replied: the move was undone by
  hand, and is taken back (`MoveTakenBack`; Art. 15, 16 on the scoresheet);
- a board several plies on by legal play (`Arbiter._recover`): a quick reply, plies missed in
  quick play, a board misread once (an irregularity opened for nothing) or put right unseen;
  every still reading since the last recorded move is evidence, and the moves are recorded as
  soon as the readings explain them;
- anything else is named by `rules.irregularities` with its article and remedy, after the moves
  that lead to it when only an irregular act on top of them explains the board; once: while the
  board stays unexplained in the same way, or goes on from it, nothing is said again.

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

import copy
import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Mapping

from rules import movegen
from rules.errors import FenError
from rules.events import (CountersChanged, CrownPending, DrawPossible, Event, GameOver, Irregularity,
                          IrregularityKind, IrregularityResolved, IrregularityStands, LookAgain,
                          MovePlayed, MoveTakenBack, ScoresheetComment, TouchMove)
from rules.game import Game
from rules.irregularities import Finding, classify, name
from rules.lines import Budget, Line, Root, Searches, SureKinds, Trail
from rules.matching import (KING_CONFIDENT, LIKELY_KIND, Candidate, Scorer, changes_between,
                            sure_of_kind)
from rules.move import Move
from rules.observation import Observation, Settled, SquareReading
from rules.outcome import RESULT_ALIASES, Outcome, Termination
from rules.piece import Color, KingCounter, Piece
from rules.position import Position
from rules.squares import column, line_between, promotion_row, row

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

#: The most plies recovery by legal play (`Arbiter._recover`) looks ahead from one still board
#: to the next: quick play with a real camera often lets three plies or more pass between two
#: still boards, and after a gap of up to six missed plies the record must catch up.  A longer
#: line passes still boards seen on the way, each stretch at most this long.  From three plies
#: on, two moves of one side by different pieces can be swapped and give the same board, so a
#: quiet line can less and less be told from its transpositions (never guessed) without a board
#: seen on the way, and every ply multiplies the search by the branching (about 10).  Eight
#: plies from one board cost some ten times six (``python -m bench.arbiter --recovery``, on a
#: desktop core: boards of the test games six plies on, or with one piece misread, 5-6 ms on
#: average, 0.03-0.06 s for one board in a hundred, at most 0.25 s; eight plies on, 45-55 ms on
#: average, 0.35-0.5 s for one in a hundred, up to 1.2 s), and every board that fits nothing (a
#: misreading) is searched to the end.
RECOVERY_PLIES = 6
#: A still board is taken to be at most this many plies on from the last one that fitted (a
#: quick reply), one more for each board seen in between that fitted nothing (misread, a hand
#: half over the board, put right since).  Such a line is recorded at once; a longer one only
#: with more readings that fit it (`PLIES_PER_READING`).
QUICK_PLIES = 2
#: Recovery beyond a quick reply (`QUICK_PLIES`) is tried only on a board read clearly: at most
#: this many squares whose kind (empty, white, black) is read unsurely.  Each such square also
#: loosens the search's pruning by one square (`legal_lines`), so this bounds its cost too.  A
#: reading with more is no evidence for a long line, nor for the trail of readings; a quick
#: reply, judged as one move is, is still taken from it.  A square read, if only three times
#: likelier than not (`STOOD_KIND`), as the recorded board has it is not counted
#: (`Arbiter._unread`): a camera nearly above the board read five white men on White's back
#: rows at 0.76-0.87, every reading alike, and a game whose first still board came five plies
#: on was named Art. 27 and never recorded (the system bench's selfplay-14 at seed 606017).
RECOVERY_UNSURE = 3
#: A square read as the recorded board has it, if only likelier than not, by every still
#: reading since the board was accepted (at least this many) is not counted either (a square
#: read so at under one half is: it tells nothing).  A lamp's glare over White's men left 27,
#: 31 and 32 at 0.54-0.64 on every board, and the game (32-27 18-22 27x18, first seen three
#: plies on) was named Art. 27 on every board after (the system bench's selfplay-23 at seed
#: 1515018).
STEADY_READINGS = 3
STOOD_KIND = 0.75
#: Recovery gives up, and records nothing, after this much work per board (a `Budget`: positions
#: visited, moves tried, lines handed back; counted, never timed, so that every machine under
#: any load judges the same readings alike).  The costliest boards of the test games six plies
#: on take 0.11 s, 0.25 s with a piece misread, on a desktop core (see `RECOVERY_PLIES`); only
#: boards with many kings and squares read unsurely take more, and there giving up is safe: the
#: irregularity stays open, and a search that spent its budget is not done again for the same
#: board.  This much takes 0.3-0.9 s on a desktop core, 3-5 times as long on a Raspberry Pi.
RECOVERY_WORK = 200_000
#: A board that no line of `RECOVERY_PLIES` explains, read this many times in a row (the
#: service reads it again while the arbiter looks again), is searched further: up to
#: `STALL_PLIES` plies on, with `STALL_WORK`, once per board (`Searches` keeps the answer, one
#: that spent its budget too).  In blitz the first still board of a game came seven
#: plies after the start, and every later board was further on: nothing at all was recorded
#: (`bench.system_accuracy`, lidraughts-1 at seed 101031).  The same readings that a six-ply gap
#: needs support the longer line (`_supported`: eight plies need four); a transposition is not
#: guessed, lines that end in one position are recorded with the order or the route unseen.
#: Costs on a desktop core (boards of the test games, every square read surely): seven plies on
#: 0.005-0.4 s, eight 0.1-1 s (two exchanges eight plies on: 380,000 units, 1.1 s); a search
#: that spends its budget records nothing.
STALL_READINGS = 4
STALL_PLIES = 8
STALL_WORK = 600_000
#: The still readings kept since the last recorded move (the oldest go first).
RECOVERY_READINGS = 32
#: An irregular act on top of a line of legal moves (a quick reply, then a man moved backwards)
#: changes at most this many squares of the board the line leaves; such a board is named by its
#: article after recording the line (`Arbiter._near`).
NEAR_SLACK = 2
#: A line with longer gaps than `QUICK_PLIES` allows needs one reading that fits it, and one
#: more for every this many plies of gap beyond the allowance (`_supported`): a gap of six plies
#: seen on one board is recorded on its third reading, four plies on its second.
PLIES_PER_READING = 2
#: Why the arbiter looks again at a board that a long line of legal moves explains.
LONG_LINE = "the board may be several moves on: looking again to be sure"
#: The mark of a move's candidate board with the awaited crown put on (`_move_candidates`).
CROWNED = "crowned"
#: Why the arbiter waits on a capture whose captured pieces are still being taken off.
TAKING_OFF = "the capture is not finished: captured pieces still stand"
#: How long (seconds) a board of a capture with captured pieces still standing may stay so
#: before they are named (Art. 27b): the move is complete only when the player presses the clock
#: (Art. 23), and a player takes the men off one at a time, each a change of the board that
#: starts this again; a board still so after this, read again while the arbiter looks again
#: (`device.service`: five times, 0.4 s apart), is the irregularity.
TAKING_OFF_S = 1.5
#: Captures of more pieces than this are not searched for men still being taken off (2^n boards).
TAKING_OFF_MOST = 8
#: A capture still being taken off is looked for up to this many plies on, the capture last
#: (a quick reply, then the capture).  Longer lines come after the recovery's (`Arbiter._near`:
#: a line of legal moves, then a capture still being taken off): searched here, three plies
#: made up a king's move, a reply and a capture for an opponent's man moved (Art. 27a).
TAKING_OFF_PLIES = 2
#: ... and up to this many when the camera saw pieces put down in passing on squares the board
#: leaves empty, and the line lands on every one of them (`Arbiter._taking_off_pieces`): a
#: king's capture, the reply and the king's next capture at quick play, the last one's men
#: still being taken off, were named a king's move out of line (Art. 27d) although the camera
#: had seen the king put down on 49 and the reply's man on 29 (the system bench's selfplay-52
#: at seed 3232014).
TAKING_OFF_PLACED_PLIES = 3
#: A board that no single act explains with more squares changed than this may be several moves
#: on: it is read `STALL_READINGS` times before it is named (`Arbiter._irregular`).
SEVERAL_MOVES = 4
#: Why the arbiter looks again, before naming it, at a board that neither a move nor any one
#: irregular act explains and that was taken beside something at rest reaching in from the table
#: (`Settled.beside`): a capture's board was taken while an arm lay still over the far row in a
#: dim room, two men under it read surely as empty squares, and a false Art. 27 was said, put
#: right a third of a second later (`bench.system_accuracy`, lidraughts-14 at seed 202018).
UNEXPLAINED = "no move nor any one irregular act gives this board: looking again to be sure"
#: Why the arbiter looks again at a board on which a side has more pieces than it had: pieces
#: are moved, taken off and crowned, never added, so a square is misread (`Arbiter._irregular`).
GAINED = "a side has more pieces than it had: a square is misread, looking again"
#: The `LookAgain` reason for pieces gone from squares the camera saw a hand over
#: (`Arbiter._under_a_hand`).
UNDER_A_HAND = "pieces seen under a hand are gone: looking again once it has left"
#: The scoresheet's comment after moves recorded from a board several plies on.
CAUGHT_UP = "not seen one by one: recorded from the still boards seen after them (caught up)"
#: A board read this many times in a row whose changed squares read as a line has them, if only
#: likely of their kind (`rules.matching.LIKELY_KIND`), is recorded by that line (`Arbiter._doubt`).
PATIENT_READINGS = 2
#: The scoresheet's comment when moves were seen only as a position several lines of play give
#: (`Arbiter._unseen_alike`).
ORDER_UNSEEN = "the order of these moves was not seen, the position was"
#: The same when the lines are made of different moves (a king's route: 2-8-21 or 2-16-21).
ROUTE_UNSEEN = "these moves were not seen one by one, the position was"
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
    ``seen`` keeps the still readings since the last recorded move (or the board read as it
    stands), every one evidence for `_recover`; ``pending_at`` is the one that showed the open
    irregular board."""

    game: Game = field(default_factory=Game)
    pending: Pending | None = None
    touched: list[int] = field(default_factory=list)
    uncrowned: int | None = None
    over: Outcome | None = None
    hinted: set[str] = field(default_factory=set)
    seen: list[Observation] = field(default_factory=list)
    pending_at: int = -1
    searches: Searches = field(default_factory=Searches, repr=False)
    _kinds: list[SureKinds | None] = field(default_factory=list, repr=False)  # of `seen`, when asked
    _acts: dict[tuple, bool] = field(default_factory=dict, repr=False)  # `_single_act`, kept
    # the squares seen lifted since the last recorded move, in order (`_unseen_alike`)
    _lifted_seen: list[int] = field(default_factory=list, repr=False)
    # the squares seen holding a piece on the way since the last recorded move, in order
    _placed_seen: list[int] = field(default_factory=list, repr=False)
    # the watcher's frame each square was first seen lifted or placed on since the last
    # recorded move, when it says (`Settled.lifted_at`, `placed_at`): ("lifted" | "placed", sq)
    _sighted: dict[tuple[str, int], int] = field(default_factory=dict, repr=False)
    _untold: tuple[str, ...] = field(default=(), repr=False)  # lines `_recover` cannot tell apart
    # boards read whole in passing since the last recorded move that the arbiter only looked
    # again at: evidence between lines the still board cannot tell apart (`_glimpsed`)
    _glimpses: list[Observation] = field(default_factory=list, repr=False)
    # a capture whose captured men were still being taken off: ((ply, move, men standing),
    # when that board was first read) (`_taking_off_pieces`)
    _taking_off: tuple[tuple, float | None] | None = field(default=None, repr=False)
    # judging a provisional board (`_provisional`): quick lines only, no irregular act searched
    _quick_only: bool = field(default=False, repr=False)
    # the game went on where nobody saw it (begun before the camera first saw the board still,
    # or while the companion was off): legal play, not one irregular act, is what explains a
    # board several plies on (`_most`)
    unseen: bool = False

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
        """Judge one settled observation; returns what happened, in order.  A provisional one
        (`Settled.provisional`) counts only when legal play explains it (`_provisional`)."""
        if self.over is not None:
            return ()
        if settled.provisional:
            return self._provisional(settled)
        obs = settled.observation
        when = settled.time if settled.time is not None else obs.time
        self._keep(obs)
        position = self.position
        base = self._physical(position)
        scorer = Scorer(obs, base)
        candidates: list[Candidate] = [Candidate(("same",), {})]
        if self.pending is not None:
            candidates.append(Candidate(("pending",), changes_between(base, self.pending.board)))
        if self.uncrowned is not None:
            p = base[self.uncrowned]
            candidates.append(Candidate(("crowned",), {self.uncrowned: Piece(p.color, True)}))
        back = self._before_last()
        if back is not None:
            candidates.append(Candidate(("back",), changes_between(base, back)))
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
        self._lifted_seen.extend(sq for sq in settled.lifted if sq not in self._lifted_seen)
        self._placed_seen.extend(sq for sq in settled.placed if sq not in self._placed_seen)
        self._sight(settled)

        if key is None:
            if decision.explained:
                return (LookAgain(self.game.ply, when, "the reading fits more than one board",
                                  decision.doubt),)
            self._untold = ()
            recovered = self._recover(obs, scorer, base, when)
            if recovered is not None:
                return recovered
            taking_off = self._taking_off_pieces(scorer, successors, base, when, obs)
            if taking_off is not None:
                return taking_off
            if self._putting_back(obs, settled.lifted):
                # the piece of the open irregular move lifted off the square it was put on and
                # not seen anywhere yet: on its way back (or to a legal square); nothing is said
                return ()
            held = None if self.pending is not None else _held(
                obs, base, position.turn, tuple(settled.lifted) + tuple(self.touched))
            if held is not None:
                # one of the mover's pieces lifted (the camera saw its square empty under a
                # hand on this board, or it was touched on an earlier one since the last move:
                # a dim room at quick play, the lift seen on the board before, the man gone on
                # this one) and gone, nothing else changed: it is in the mover's hand, held off
                # the board where the camera does not see the hand (beyond the far edge); a move
                # is not finished until the piece is released (Art. 16), and nothing is
                # announced.  It counts as touched (Art. 15).
                self._touch(lifted + [held])  # (`_touch` keeps each square once)
                return ()
            under = self._under_a_hand(obs, base, settled.lifted)
            if under:
                return (LookAgain(self.game.ply, when, UNDER_A_HAND, under),)
            if self.pending is None:
                then_lifted = self._moved_then_lifted(obs, base, successors, settled.lifted)
                if then_lifted is not None:
                    move, after, held = then_lifted
                    self._touch(_lifts(obs, lifted, after))
                    breach = self._touch_breach(position, move, when)
                    if breach is not None:
                        return tuple(breach)
                    events = self._record(move, after, when)
                    if not settled.seen_before(held, move.to_square):
                        # the next mover's piece in hand: touched (Art. 15).  Not when its
                        # square was seen empty before the move's piece was seen put down: the
                        # move was not finished (Art. 16), so it was not his turn, and a hand
                        # hovering still over a dark man, its fingers the colour of the empty
                        # square, looks so (a false touch-move: the system bench's selfplay-23
                        # at seed 2323014)
                        self._touch([held])
                    return tuple(events)
            return self._irregular(obs, base, when, lifted, settled.beside)

        what = key[0]
        if what == "same":
            self._touch(_lifts(obs, lifted, position))
            self._forget()
            return tuple(self._resolve("taken back", when)) if self.pending is not None else ()
        if what == "crowned":
            self.uncrowned = None
            return ()
        if what == "pending":
            return ()
        if what == "back":
            return self._undone(obs, base, back, when)
        if what == "move":
            move, after = successors[key[1]]
            events: list[Event] = []
            if self.pending is not None:
                events.extend(self._resolve("replaced by a legal move", when))
            self._touch(_lifts(obs, lifted, after))
            breach = self._touch_breach(position, move, when)
            if breach is not None:
                events.extend(breach)
                return tuple(events)
            if key[-1] == CROWNED:
                self.uncrowned = None  # the awaited crown was put on with the move
                key = key[:-1]
            events.extend(self._record(move, after, when, uncrowned=key[2] if len(key) > 2 else None))
            return tuple(events)
        # a reply to the open irregular move: it stands, then the reply is recorded
        move, after = replies[key[1]]
        events = list(self._stand(when))
        events.extend(self._record(move, after, when, uncrowned=key[2] if len(key) > 2 else None))
        return tuple(events)

    def _provisional(self, settled: Settled) -> tuple[Event, ...]:
        """A board seen while something moved beside it (`Settled.provisional`: an arm on its
        way over the border, a hand holding a captured piece): it may be the middle of a move
        (a capture's pieces half taken off, a piece lifted and held), so it is judged as a
        still board would be, but taken only when what that records is legal play: a move, or
        a quick line of moves (`QUICK_PLIES`), with nothing irregular, unclear or touched
        otherwise.  Anything else leaves the arbiter as it was, and nothing is said: the board
        is judged again once it is still.  Only while no irregularity is open (its remedy waits
        for the still board).  While a crown is awaited too: a camera that cannot tell a king
        from a man on the far row's square never sees it put on, and a quick game then went on
        for nine plies with no board taken, beyond any catch-up."""
        if self.pending is not None:
            return ()
        trial, events = self._trial(settled, quick=True)
        obs = settled.observation
        if events and not obs.occluded and all(isinstance(e, LookAgain) for e in events):
            self._glimpse(obs)
        if _wants_another_reading(events) and not obs.occluded:
            # A board read whole that legal play explains, several plies on, wanting only
            # another reading of it: evidence for the still board to come (`seen`).  Quick
            # play under an arm resting over the board: three plies went by before a board
            # was read whole in passing, nine before the next still one, beyond any search
            # from the last board taken (the other renderer's selfplay-55, seed 47003).
            self._keep(obs)
            return ()
        if not _legal_play(events):
            if not any(isinstance(e, MovePlayed) or (isinstance(e, LookAgain)
                                                     and e.reason == LONG_LINE) for e in events) \
                    and not obs.occluded and self._unread(obs) <= RECOVERY_UNSURE:
                # Farther on than a quick line: legal play a longer search finds may still end
                # here (blitz, a hand always over or beside the board: boards four and six
                # plies on were read whole in passing, the first still one came nine plies on,
                # beyond any search, and three plies of 35 were recorded: the system bench's
                # lidraughts-9 at seed 3535001).  Such a board is only kept as evidence.
                _, longer = self._trial(settled, quick=False)
                if _legal_play(longer) or _wants_another_reading(longer):
                    self._keep(obs)
            return ()
        end = trial._physical(trial.position)
        changed = changes_between(self._physical(self.position), end)
        landed = {move.to_square for move in trial.game.moves[self.game.ply:]}
        if any(end.get(sq) is not None and not (obs.reading(sq).content is not None
                                                and sure_of_kind(obs.reading(sq)))
               for sq in landed):
            # a piece that has not been seen put down may still be in the hand: a king lifted
            # off 16 and carried to 11, the board read in passing with 16 empty and 32 read
            # empty at 0.84, was taken as 16-32, the only move no square read surely denied
            # (the system bench's selfplay-38 at seed 4949020).  The still board tells.
            return ()
        if any(obs.reading(sq).occluded for sq in changed):
            # read beside hands (`vision.pipeline.BoardWatcher._beside_hands`): a square the
            # moves change lay under a hand, and told nothing.  Taken, a capture whose squares
            # all lay under the hand was recorded, and a king's move made up after it (the
            # other renderer's selfplay-55, seed 35011)
            return ()
        if obs.occluded:
            # Beside hands, more may have been played under them than the squares in view
            # show: the moves must account for every square the camera saw a piece leave or
            # land on since the last board taken (six plies went by under hands, and the
            # seventh, 36-31, alone in view, was recorded in their place: the other renderer's
            # lidraughts-1, seed 33007).
            # A piece seen put down where one already stood before the line is no move of it
            # (put back, or a hovering hand's edge over it for a frame or two): a hand hovering
            # over its own men while the other played left such sightings on every board, and
            # no board read beside it was taken for six plies (hovering hands, `Pace.hover`).
            moved = set(changed)
            for move in trial.game.moves[self.game.ply:]:
                moved |= {move.from_square, move.to_square, *move.captured}
            stood = self._physical(self.position)
            placed = {sq for sq in settled.placed if sq not in stood}
            if not set(settled.lifted) | placed <= moved:
                return ()
        game = self.game
        game.__dict__.update(trial.game.__dict__)  # the same record object: others hold it
        self.__dict__.update(trial.__dict__)
        self.game, self._quick_only = game, False
        return events

    def _trial(self, settled: Settled, quick: bool) -> "tuple[Arbiter, list[Event]]":
        """A copy of this arbiter (the searches' cache shared: what it learns holds) and what
        judging ``settled`` as a still board brought about there: ``quick`` lines only, no
        irregular act searched, as a provisional board is judged; else as a still one is."""
        trial = copy.copy(self)
        trial.game, trial.touched, trial.hinted = self.game.copy(), list(self.touched), set(self.hinted)
        trial.seen, trial._kinds, trial._acts = list(self.seen), list(self._kinds), dict(self._acts)
        trial._lifted_seen, trial._placed_seen = list(self._lifted_seen), list(self._placed_seen)
        trial._sighted = dict(self._sighted)
        trial._glimpses = list(self._glimpses)
        trial._quick_only = quick
        return trial, list(trial.observe(replace(settled, provisional=False)))

    def _read_in_a_row(self, obs: Observation) -> int:
        """How many of the last still readings (this one too) read the board as ``obs`` does."""
        text, n = obs.text(), 0
        for seen in reversed(self.seen):
            if seen.text() != text:
                break
            n += 1
        return n

    def _under_a_hand(self, obs: Observation, base: dict[int, Piece], lifted: tuple[int, ...]
                      ) -> tuple[int, ...]:
        """The squares of two or more pieces gone, when nothing else changed and the camera saw
        every one of them changing under a hand on the way to this board (``lifted``), on the
        first reading of it: a hand may still lie over them, unseen (a dark hand over a dark
        border in a dim room, still for one frame while carrying a man: the squares under it
        read empty surely, and Art. 27 was named for pieces that stood).  A hand holds one
        piece (`_held`); more gone are named once a reading after this one still shows them
        gone (the service looks again).  Else ()."""
        if self.pending is not None or self._read_in_a_row(obs) > 1:
            return ()
        changes = changes_between(base, _plain_reading(obs, base))
        gone = tuple(sorted(sq for sq, now in changes.items() if now is None))
        if len(gone) < 2 or len(gone) != len(changes) or not set(gone) <= set(lifted):
            return ()
        return gone

    def _moved_then_lifted(self, obs: Observation, base: dict[int, Piece],
                           successors: list[tuple[Move, Position]], lifted: tuple[int, ...]
                           ) -> tuple[Move, Position, int] | None:
        """The one legal move (not a capture, not a crowning) whose board the reading is but for
        one piece of the side to move next gone, seen lifted (`_in_hand`), with the squares the
        move changed read surely: the move was made and the opponent has taken up his piece to
        reply (Art. 16: a move is not finished until the piece is released).  (move, position
        after it, the square of the piece in hand); None when no move or more than one explains
        it so.  Black's 38-27, then White's king on 48 taken up under a hand the camera did not
        see: named Art. 27b, "too many pieces taken off" (the system bench's selfplay-38 at seed
        1616017).  After a capture the piece gone may be one taken off too many (Art. 27b):
        that is named as before."""
        found = []
        for move, after in successors:
            if move.is_capture:
                continue
            board = after.pieces()
            if board.get(move.to_square) != base.get(move.from_square):
                continue  # crowned: the crown is awaited on its own (`uncrowned`)
            held = _held(obs, board, after.turn, lifted)
            if held is None:
                continue
            if not all(sure_of_kind(obs.reading(sq)) for sq in changes_between(base, board)):
                continue
            found.append((move, after, held))
        return found[0] if len(found) == 1 else None

    def _putting_back(self, obs: Observation, lifted: tuple[int, ...]) -> bool:
        """Whether the board is the open irregular move's board with that move's piece lifted
        off where it was put (`_in_hand`): the player is putting it right."""
        pending = self.pending
        if pending is None or pending.move is None:
            return False
        piece = pending.board.get(pending.move.to_square)
        if piece is None or not _in_hand(obs, pending.board, piece.color, lifted):
            return False
        return pending.move.to_square not in _plain_reading(obs, pending.board)

    def _keep(self, obs: Observation) -> None:
        """Keep a still reading as evidence (`seen`), the oldest going first beyond
        `RECOVERY_READINGS`."""
        self.seen.append(obs)
        self._kinds.append(None)
        if len(self.seen) > RECOVERY_READINGS:
            del self.seen[0], self._kinds[0]
            self.pending_at = max(self.pending_at - 1, -1)

    def _glimpse(self, obs: Observation) -> None:
        """Keep a board read whole in passing that the arbiter only looked again at (`_glimpsed`),
        the oldest going first beyond `RECOVERY_READINGS`."""
        self._glimpses.append(obs)
        del self._glimpses[:-RECOVERY_READINGS]

    def _sight(self, settled: Settled) -> None:
        """Keep the frame each square of ``settled`` was first seen lifted or placed on."""
        for kind, squares, frames in (("lifted", settled.lifted, settled.lifted_at),
                                      ("placed", settled.placed, settled.placed_at)):
            if len(frames) != len(squares):
                continue
            for sq, frame in zip(squares, frames):
                if frame < _NEVER_SEEN:
                    key = (kind, sq)
                    self._sighted[key] = min(frame, self._sighted.get(key, frame))

    def _forget(self) -> None:
        """The board is accounted for (a move recorded, the board as it stands): the readings
        before it, and what was seen lifted and placed in passing, are no longer evidence of
        what follows.  (An opponent's man moved and put back stayed "placed" and "lifted": no
        line of the moves played next put a piece on its square, and the line the camera saw
        placed was not told from the others.)"""
        self._lifted_seen = []
        self._placed_seen = []
        self._sighted = {}
        self._glimpses = []
        self.seen.clear()
        self._kinds.clear()
        self._acts.clear()
        self.pending_at = -1
        if self.searches.visited:
            self.searches = Searches()

    def _sure(self, i: int) -> SureKinds:
        """The kinds the reading ``seen[i]`` is sure of, kept."""
        sure = self._kinds[i]
        if sure is None:
            sure = self._kinds[i] = SureKinds.of(self.seen[i])
        return sure

    def _single_act(self, state: movegen.RawState, obs: Observation) -> bool:
        """`_single_act`, kept for the readings seen."""
        key = (state, id(obs))
        act = self._acts.get(key)
        if act is None:
            act = self._acts[key] = _single_act(Position(state), obs)
        return act

    # -- recovery by legal play -----------------------------------------------------------------

    def _recover(self, obs: Observation, scorer: Scorer, base: dict[int, Piece],
                 when: float | None) -> tuple[Event, ...] | None:
        """Recovery by legal play: the board fits none of today's candidates, but it may be the
        result of several legal moves from the recorded position, played before the board was
        seen still (quick play, a hand over the board), or after a board that was misread or
        put right unseen (an irregularity opened for nothing).  A human arbiter seeing the game
        go on by legal play writes the moves down; so does this.

        Lines of legal moves are searched from the recorded position and, while an irregularity
        is open, from its board: an irregular move that can stand stands once the opponent
        replied (Art. 27, rule IV), and is recorded so; a board that cannot stand is searched
        only as the other explanation (`Root.AS_SEEN`, unless a line from the recorded position
        passed that board: then it was no irregularity).  Every still reading since is evidence
        (`Trail`): a line must pass through positions that fit them, in order, each at the
        fewest plies, and end on this board; a reading that fits nothing (a misread, the middle
        of a move) only counts.

        Each still board is taken to be at most `QUICK_PLIES` on from the last one that fitted
        (a quick reply), one more for every board seen in between that fitted nothing: such a
        line is recorded at once.  A longer gap, up to `RECOVERY_PLIES` between two readings,
        needs more readings that fit the line (`_supported`: the service reads a board again
        when the arbiter looks again), and is never taken for a board that a single irregular
        act explains (`_single_act`): a capture with one piece too many taken off (Art. 27b) is
        also the capture, a move of that piece and its capture, and the irregularity is named.
        The fewest plies that explain the reading are taken: every board the camera missed is a
        failure of its own, so a line one ply longer is far less likely (and a king's move a-b
        is not also read as a-c-b); a piece's round trip between two readings is not taken
        (`Line.leaves_no_trace`).  Among the lines of that length the `Scorer` must accept one
        far better than every other, as for one move: two lines that give the same board with
        different moves (a transposition) are not told apart, and nothing is recorded.  The
        squares the accepted line changes must be read surely, else the arbiter looks again.  A
        search that spends `RECOVERY_WORK` records nothing.

        When no line through the readings explains the board, a line straight from the recorded
        position to it may (a reading on the way was a misread); when none does, one may that
        an irregular act follows (`_near`).

        Returns the events, a `LookAgain`, or None when no line fits, or none alone."""
        sure = self._sure(-1)
        unread = self._unread(obs)
        # stalled: the board read so again and again, or boards read one after another with
        # nothing recorded (at blitz a board is rarely read four times: seven plies went by
        # unseen, with captures and a crowning, and every later board was one further on)
        stalled = (not self._quick_only and unread <= RECOVERY_UNSURE
                   and (self._read_in_a_row(obs) >= STALL_READINGS
                        or len(self.seen) >= 2 * STALL_READINGS))
        budget = Budget(STALL_WORK if stalled else RECOVERY_WORK)
        most = STALL_PLIES if stalled else RECOVERY_PLIES
        count, trails = self._trails(budget, most)
        quick = unread > RECOVERY_UNSURE or self._quick_only
        found = self._lines_through(obs, scorer, base, when, self._quick(trails, quick), count,
                                    sure, budget)
        if found is not _NO_LINE:
            return found
        if not self._quick_only and any(trail.anchored for root, _, _, trail, _ in trails
                                        if root is Root.RECORDED):
            # No line passes the readings seen on the way and ends on this board, but one from
            # the recorded position straight to it may: a reading on the way was a misread (a
            # still hand the colour of the dark men over square 10, read as a man there at
            # 0.98, its own square 4 unsure: the line 46x37 4-10 fitted it, and the board two
            # plies on, 4 standing and 10 empty, was named 10-4 out of turn, Art. 27a, though
            # 46x37 11-16 50-44 gives it: the system bench's lidraughts-2 at seed 3030014).
            # Legal play that explains the board is likelier than an irregular act whose piece
            # returns to where the line had it leave.  Such a line has only this board's
            # readings for support: every one read with the same content counts, however its
            # sure squares changed (captured squares read empty at 1.00 and at 0.45 in turn, a
            # neighbour's outline on them, made each reading a board of its own, and a six-ply
            # line was looked at again until the recording ended: the other renderer's
            # lidraughts-9 at seed 57004).
            bare = Trail.at(self.position._state)
            direct = [(Root.RECORDED, self.position, 0, bare, self._most(bare, obs, most))]
            found = self._lines_through(obs, scorer, base, when, self._quick(direct, quick),
                                        max(count, self._read_in_a_row(obs)), sure, budget)
            if found is not _NO_LINE:
                return found
        return None if self._quick_only else self._near(obs, base, trails, count, budget, when)

    @staticmethod
    def _quick(trails: list, quick: bool) -> list:
        """``trails`` with each one's stretch to this board cut to a quick reply's when
        ``quick``: squares the camera cannot read (a glare over the middle of the board, a set
        whose pieces look like the squares) are no evidence for a long line, but a quick reply
        is judged as one move is, whatever cannot be read: it must fit every square that can,
        and be the one line that does."""
        if not quick:
            return trails
        return [(root, start, before, trail, min(most, QUICK_PLIES + trail.loose))
                for root, start, before, trail, most in trails]

    def _lines_through(self, obs: Observation, scorer: Scorer, base: dict[int, Piece],
                       when: float | None, trails: list, count: int, sure: SureKinds,
                       budget: Budget, placing: int = 0):
        """The fewest plies along ``trails`` that end on this board (`_recover`): the events of
        the line accepted, a `LookAgain`, None when lines were found but none can be recorded
        (a transposition, a search that spent its budget), or `_NO_LINE` when no line ends here.

        A line that puts no piece on a square the camera saw one put down on in passing, which
        the board leaves empty (`_unplaced`), is recorded only when no longer line that does is
        (`_placing`): ``placing`` (the shorter line's plies) looks for those alone."""
        longest = max(before + trail.plies + most for _, _, before, trail, most in trails)
        for total in range(placing + 1, longest + 1):
            found: list[tuple[Line, Trail, int]] = []
            sheets: set = set()
            for root, start, before, trail, most in trails:
                plies = total - before - trail.plies
                if not _shortest(root, trail) <= plies <= most:
                    continue
                for state, ways in trail.ends.items():
                    search = self.searches.lines(state, plies, sure, budget)
                    if not search.complete:
                        return None  # too long to search: nothing is recorded, the board stays irregular
                    for raws, _ in search.lines:
                        if plies > 1 and Line.of(root, Position(state), raws).leaves_no_trace():
                            continue
                        for way in ways:
                            if not way + raws:
                                continue
                            line = Line.of(root, start, way + raws)
                            if placing and self._unplaced(line, obs):
                                continue
                            sheet = self._sheet(line)
                            if sheet not in sheets:  # a touch-move breach standing is its move's sheet
                                sheets.add(sheet)
                                found.append((line, trail, plies))
            if not found:
                continue
            candidates = [Candidate(("line", i) + ((u,) if u is not None else ()), changes_between(base, board))
                          for i, (line, _, _) in enumerate(found) for u, board in self._line_boards(line)]
            decision = scorer.decide(candidates)
            if not decision.explained:
                continue
            key = decision.accepted or _crowning_in_doubt(decision)
            if key is None and decision.doubt:
                key = self._seen_placed(found, decision)
                if key is None:
                    key = self._glimpsed(found, decision)
                if key is None:
                    return (LookAgain(self.game.ply, when, "the reading fits more than one line of moves",
                                      decision.doubt),)
            if key is None:
                best = next(c.changes for c in candidates if c.key == decision.best)
                tied = [found[c.key[1]] for c in candidates if c.changes == best and len(c.key) == 2]
                passed = self._passed(tied)
                if passed is not None:
                    line, trail, plies = passed
                    longer = self._placing(line, obs, scorer, base, when, trails, count, sure,
                                           budget, placing, total)
                    if longer is not None:
                        return longer
                    doubt = self._doubt(obs, best, [(trail, plies)], count, when, _left(line),
                                        _taken(line))
                    return doubt if doubt is not None else self._play_line(line, None, when)
                settled = self._unseen_alike(tied, obs, count, when)
                if settled is not None:
                    return settled
                self._untold = tuple(_line_text(line) for line, _, _ in tied)
                return None
            line, trail, plies = found[key[1]]
            if line.root is Root.AS_SEEN:
                return None
            longer = self._placing(line, obs, scorer, base, when, trails, count, sure, budget,
                                   placing, total)
            if longer is not None:
                return longer
            changed = next(c.changes for c in candidates if c.key == key)
            doubt = self._doubt(obs, changed, [(trail, plies)], count, when, _left(line),
                                _taken(line))
            if doubt is not None:
                return doubt
            return self._play_line(line, key[2] if len(key) > 2 else None, when)
        return _NO_LINE

    def _doubt(self, obs: Observation, changed, stretches: list[tuple["Trail", int]], count: int,
               when: float | None, left: Mapping[int, tuple[int, ...]] | None = None,
               taken: frozenset[int] = frozenset()) -> tuple[Event, ...] | None:
        """Why a line found cannot be recorded yet, as a `LookAgain`: the squares it changes
        not read surely, or too few readings for its length (`_supported`); None when it can.

        A board read `PATIENT_READINGS` times in a row (the service looks again while the
        arbiter is unsure) whose changed squares all read as the line has them, if only likely
        (`LIKELY_KIND`: a low-contrast set in a dim room, a square never yet seen empty), is
        not looked at again for ever: the line is the only one that explains it far better than
        any other (`Scorer`), and every reading since said the same; so is one read unsurely as
        a piece of a side whose every piece is read surely elsewhere (no side gains a piece:
        the reading cannot be true); and so, the other way round, is a square the line puts a
        piece on, read as that piece or with it as the second choice, when that side's pieces
        not read surely are as many as such squares, no other square reads even unsurely as
        one of them, and every other square the line changes is read surely (no side loses a
        piece unseen: it stands there).

        So is a square the line's movers ``left`` (a move's first square, empty at its end,
        nothing captured there) read empty however unsurely, when every square the line puts a
        piece on is read surely so; and a capture's first square read a piece not even likely
        (`LIKELY_KIND`), empty its second choice, when what it took reads likely gone: each
        piece seen surely where it arrived came from somewhere, and the one line that explains
        the board says where.  A set whose pieces look like the squares, a camera 42 degrees off
        vertical: the squares 5 and 40, never seen empty before, read empty at 0.52-0.74 or a
        man at 0.50-0.65 after 5x25 40-34 (25 and 34 read at 0.98); the arbiter looked again
        for ever, and the colours, taught only by boards the game accepts, never learnt them
        (the system bench's selfplay-6 at seed 3030018, 9 of 40 plies).  So, too, is a square
        the line captures on (``taken``), read empty however unsurely, that the camera saw
        lifted on the way (`Settled.lifted`): the piece was seen taken off.  Six plies at
        quick play ending in a king's capture of three: the captured squares read empty at
        0.45 (the outline of a piece beside them on the square, `vision.squares`), and the
        arbiter looked again until the recording ended (the other renderer's lidraughts-9 at
        seed 57004)."""
        # read again: the same sure kinds (``count``), or the same content on every square (a
        # board whose captured squares read empty at 1.00 and at 0.45 in turn, a neighbour's
        # outline on them, had new sure kinds at every reading and was never read twice: its
        # six-ply line was looked at again until the recording ended, the other renderer's
        # lidraughts-9 at seed 57004)
        patient = isinstance(changed, dict) and (
            count >= PATIENT_READINGS or self._read_in_a_row(obs) >= PATIENT_READINGS)
        if patient:
            # each side's pieces, and how many of them are read surely: a square read unsurely
            # as a piece of a side whose every piece is read surely elsewhere cannot be right
            # (no side ever gains a piece; a set-up king's square emptied under a glare, read
            # "White's" at 0.53 beside White's two kings read surely, was looked at for ever)
            have = Counter(p.color for p in self.position.pieces().values())
            sure = Counter(r.content.color for sq in range(1, 51) for r in (obs.reading(sq),)
                           if r.content is not None and sure_of_kind(r))

            # a side's pieces not read surely, no square but the line's landing squares of that
            # side read as one of them even unsurely, every other square the line changes read
            # surely: the pieces stand there, however unsurely
            # (a blue king on a dark square after 7-34 30x48, read at 0.47-0.52 against empty,
            # every other square sure: its side's one piece, it was looked at again until the
            # recording ended: the other renderer's selfplay-34 at seed 5757005)
            end = self._physical(self.position)
            for sq, piece in changed.items():
                if piece is None:
                    end.pop(sq, None)
                else:
                    end[sq] = piece
            after = Counter(p.color for p in end.values())
            unread = [sq for sq in range(1, 51) if not sure_of_kind(obs.reading(sq))]

            def may_hold(sq: int, color) -> bool:
                # (a square under a hand tells nothing: the line, the one legal play that
                # explains the board, says what stands there)
                r = obs.reading(sq)
                return not r.occluded and (_side(r.content) is color or (
                    r.has_alternative and _side(r.alternative) is color))

            hidden = set()
            for color in after:
                landing = [sq for sq in unread if sq in changed and _side(end.get(sq)) is color]
                if landing and after[color] - sure[color] == len(landing) and not any(
                        may_hold(sq, color) for sq in unread if sq not in landing) and all(
                        sq in landing or sure_of_kind(obs.reading(sq)) for sq in changed):
                    hidden.add(color)

        left = left or {}
        arrived_surely = patient and bool(left or taken) and all(
            sure_of_kind(obs.reading(sq)) for sq, piece in changed.items() if piece is not None)

        def doubtful(sq: int) -> bool:
            r = obs.reading(sq)
            if sure_of_kind(r):
                return False
            if not patient or r.occluded:
                return True
            want, got = changed[sq], r.content
            if sq in taken and want is None and got is None and arrived_surely \
                    and sq in self._lifted_seen:
                return False  # captured, and seen taken off
            if sq in left and want is None and arrived_surely:
                if got is None:
                    return False
                if left[sq] and r.has_alternative and r.alternative is None \
                        and r.kind_confidence < LIKELY_KIND and all(
                            _likely_empty(obs.reading(taken)) for taken in left[sq]):
                    return False  # a capture's first square: what it took is seen gone
            if want is not None and want.color in hidden and may_hold(sq, want.color):
                return False  # the side's piece is nowhere else
            if (None if want is None else want.color) != (None if got is None else got.color):
                return got is None or sure[got.color] < have[got.color]
            return r.kind_confidence < LIKELY_KIND

        unsure = tuple(sq for sq in sorted(changed) if doubtful(sq))
        if unsure:
            return (LookAgain(self.game.ply, when, "the squares that changed are not read clearly",
                              unsure),)
        if not all(_supported(trail, plies, count) for trail, plies in stretches):
            return (LookAgain(self.game.ply, when, LONG_LINE, tuple(sorted(changed))),)
        return None

    def _seen_placed(self, found: list[tuple[Line, "Trail", int]], decision) -> tuple | None:
        """The likelier of two lines the reading cannot tell apart (a square between them read
        unsurely) when the camera saw the pieces put down on the way as it, and not the other,
        puts them (`_passed`): its key, else None.  The runner-up is never taken so, against
        what the camera reads.  A low-contrast set at quick play: the king's 47-33, 19-23 and
        33x13 were seen landing on 33, but the board after them, 23 read empty at 0.45, also
        fitted 47-36 19-23 36-13 with 23 read wrongly, and the game's end was never recorded
        (the other renderer's selfplay-50, seed 31003)."""
        best, rival = _two_lines(decision)
        if best is None:
            return None
        passed = self._passed([found[best[1]], found[rival[1]]])
        return best if passed is found[best[1]] else None

    def _glimpsed(self, found: list[tuple[Line, "Trail", int]], decision) -> tuple | None:
        """The likelier of two lines the reading cannot tell apart (a square between them read
        unsurely, or under a hand) when a board read whole in passing since the last recorded
        move (`_glimpses`) fits a position of one line on every square it read surely, and none
        of the other's, and no such board says the opposite: its key, else None.  A lone king
        moved and taken at once (15-42 37x48) gives the board that its move to an edge square
        and the taker's plain move (15-4 37-48) give, but for the edge square, under the fingers
        of a hand resting there on every still board; a board read in passing between two hand
        frames showed 4 empty at 0.99, which only the capture's line ever has (the system
        bench's selfplay-39 at seed 4343015: nothing was recorded before)."""
        best, rival = _two_lines(decision)
        if best is None or not self._glimpses:
            return None
        lines = (found[best[1]][0], found[rival[1]][0])
        if any(line.root is Root.AS_SEEN for line in lines):
            return None
        positions = [(line.start, *(after for _, after in line.moves)) for line in lines]
        told: set[int] = set()
        for obs in self._glimpses:
            sure = SureKinds.of(obs)
            fits = [any(sure.fits(p) for p in along) for along in positions]
            if fits[0] != fits[1]:
                told.add(0 if fits[0] else 1)
        if len(told) != 1:
            return None
        return best if told == {0} else rival

    def _placing(self, line: Line, obs: Observation, scorer: Scorer, base: dict[int, Piece],
                 when: float | None, trails: list, count: int, sure: SureKinds, budget: Budget,
                 placing: int, total: int) -> tuple[Event, ...] | None:
        """The moves recorded by a longer line than ``line`` (``total`` plies) that puts a piece
        on every square the camera saw one put down on in passing, when ``line`` leaves one of
        them empty and unexplained (`_unplaced`) and such a line is accepted; else None.  Two
        kings at quick play, 47-20 18-23 20-3 23-34 between still boards, the landing on 23
        seen on the way: three plies, 47-20 18-34 20-3, give the same board with the other side
        to move, and were recorded; the game went on a ply out of step, and a false Art. 27a was
        named (the system bench's selfplay-41 at seed 4949013).  The longer lines are looked
        for from the recorded position straight too, as far as the trails reach (a reading on
        the way taken for a board a ply earlier than it was leaves the trails' ends short)."""
        if placing or not self._unplaced(line, obs):
            return None
        longest = max(before + trail.plies + most for _, _, before, trail, most in trails)
        if self.pending is None:
            trails = [*trails, (Root.RECORDED, self.position, 0, Trail.at(self.position._state),
                                longest)]
        untold = self._untold
        longer = self._lines_through(obs, scorer, base, when, trails, count, sure, budget,
                                     placing=total)
        if isinstance(longer, tuple) and any(isinstance(e, MovePlayed) for e in longer):
            return longer
        self._untold = untold
        return None

    def _passed(self, tied: list[tuple[Line, "Trail", int]]) -> tuple[Line, "Trail", int] | None:
        """Of lines that give the same board (a transposition, or a piece's route: a man's 12-7
        or 12-8 before a king took it on 10x6... 10x6), the one the camera saw on the way: the
        only one that puts a piece on every square seen holding one in passing (`Settled.placed`,
        beside the hand, on several frames), or, among lines that all do, the only one that puts
        them down in the order first seen; else the only one the frames of the sightings allow
        (`_seen_in_order`); else, when no line puts a piece on every such square, the only one
        that puts pieces on the most of them, in the order first seen.  None when the sightings
        tell none, or not one alone, apart (a line from the board as seen, `Root.AS_SEEN`, is
        never chosen so)."""
        if len(tied) < 2 or any(line.root is Root.AS_SEEN for line, _, _ in tied):
            return None

        def lands(line: Line) -> list[int]:
            return [move.to_square for move, _ in line.moves]

        # a square seen holding a piece that no line puts one on or ends holding tells none of
        # them apart: a sighting from an earlier move (40x9, the man on 9 since taken by 10x8,
        # still "placed") made every line miss it, and a transposition the camera saw landing
        # (42-37 18-22 47-42, not 47-41 18-22 41-37) was recorded in the other order (the
        # system bench's lidraughts-14 at seed 2222019, hovering hands)
        told = {sq for line, _, _ in tied for sq in (*lands(line), *line.end.pieces())}
        seen = {sq: i for i, sq in enumerate(sq for sq in self._placed_seen if sq in told)}
        if not seen:
            return None

        def covered(line: Line) -> int:
            end = line.end.pieces()
            return sum(1 for sq in seen if sq in lands(line) or sq in end)

        def covers(line: Line) -> bool:
            return covered(line) == len(seen)

        def in_order(line: Line) -> bool:
            # a square landed on twice tells nothing (which landing was seen?): at blitz, 17
            # plies to one still board, 31 and 12 were landed on twice, every order failed, and
            # 7-12 46-41 2-8 was recorded for 2-8 46-41 7-12, whose landings 8, 41 were seen in
            # that order (the system bench's selfplay-28 at seed 3535014)
            landed = Counter(lands(line))
            order = [seen[sq] for sq in lands(line) if sq in seen and landed[sq] == 1]
            return all(a <= b for a, b in zip(order, order[1:]))

        # the squares first; the order they were first seen in only between lines that put
        # pieces on the same squares (a piece put down beside a resting hand is seen late)
        covering = [entry for entry in tied if covers(entry[0])]
        fitting = covering if len(covering) < 2 else [entry for entry in covering if in_order(entry[0])]
        if len(fitting) == 1:
            return fitting[0]
        by_frames = self._seen_in_order(covering or tied)
        if covering or by_frames is not None:
            return by_frames
        # No line puts a piece on every square seen holding one: a round trip the fewest plies
        # leave out landed on one (blitz, a king's 29-18 18-23 ... 23-34 34-23 ... 23-28
        # recorded as five plies, 34 seen landed on as well as 18: every route to 23 missed a
        # sighting, and 29-1 1-23 was recorded, first in notation order; the system bench's
        # selfplay-41 at seed 3939008).  The line that puts pieces on the most of them, in the
        # order first seen, when only one does.
        most = max(covered(line) for line, _, _ in tied)
        fitting = [entry for entry in tied if covered(entry[0]) == most and in_order(entry[0])]
        return fitting[0] if most and len(fitting) == 1 else None

    def _seen_in_order(self, tied: list[tuple[Line, "Trail", int]]
                       ) -> tuple[Line, "Trail", int] | None:
        """Of lines that give the same board, the only one whose order the frames allow that
        the camera saw their pieces lifted and put down on (`_sighted`): a move seen done (its
        piece seen lifted and seen put down) before another move's piece was first seen lifted
        came before it.  Six plies under hovering hands, first seen still at their end: 1-7 was
        seen done while 40 and 14 still stood, yet 40-35 14-19 44-39 1-7 50-44 10-14 was
        recorded for 44-39 1-7 40-35 14-19 50-44 10-14 (the other renderer's selfplay-18 at
        seed 47006).  A square that the line lifts from, or puts a piece on, twice tells
        nothing.  None when no line, or more than one, fits."""

        def sightings(line: Line) -> list[tuple[int | None, int | None]]:
            moves = [move for move, _ in line.moves]
            lifts = Counter(sq for m in moves for sq in (m.from_square, *m.captured))
            lands = Counter(m.to_square for m in moves)
            out = []
            for m in moves:
                lift = self._sighted.get(("lifted", m.from_square)) \
                    if lifts[m.from_square] == 1 else None
                land = self._sighted.get(("placed", m.to_square)) if lands[m.to_square] == 1 \
                    and m.to_square != m.from_square else None
                out.append((lift, None if lift is None or land is None else max(lift, land)))
            return out

        def allowed(line: Line) -> bool:
            seen = sightings(line)
            return not any(lift is not None and done is not None and done < lift
                           for i, (lift, _) in enumerate(seen) for _, done in seen[i + 1:])

        if len(tied) < 2 or not self._sighted:
            return None
        fitting = [entry for entry in tied if allowed(entry[0])]
        return fitting[0] if len(fitting) == 1 else None

    def _unseen_alike(self, tied: list[tuple[Line, "Trail", int]], obs: Observation,
                      count: int, when: float | None) -> tuple[Event, ...] | None:
        """Lines that give the same board: the same moves in another order (a transposition),
        or other moves (a king's route, 2-8-21 or 2-16-21; a man's 12-7 or 12-8 before a king
        took it).  Which was played the camera did not see, but when every such line ends in the
        same position (the same pieces, side to move and counters, Art. 17 and 18), the game
        goes on from it the same whichever it was.  Rather than stall for the rest of the game
        (a king endgame's route at quick play: the players were asked to replay three moves,
        and nothing was recorded again), the arbiter records the line that lifts the pieces in
        the order the camera saw them lifted (else the first in notation order) and writes on
        the scoresheet that it was not seen, with the other lines (said once, as a comment: the
        position is certain, only the record of how it came about is not).  Lines from
        different roots, from the board as seen (`Root.AS_SEEN`), or ending in different
        positions are never chosen between: None.  Captures are no exception: the same captures,
        in another order among the same quiet moves, took the same pieces."""

        def moves(line: Line) -> list:
            return sorted((move.from_square, move.to_square, tuple(sorted(move.captured)))
                          for move, _ in line.moves)

        if len(tied) < 2 or len({line.root for line, _, _ in tied}) != 1 \
                or tied[0][0].root is Root.AS_SEEN or len({line.end for line, _, _ in tied}) != 1:
            return None
        changed = changes_between(self._physical(self.position), tied[0][0].end.pieces())
        # the squares every line's movers left, and every line's captures took from: a square
        # left read empty unsurely (a far-edge corner, men the colour of the squares) is judged
        # as for one line (`_doubt`); the routes' own squares are not
        lefts = [_left(line) for line, _, _ in tied]
        left = {sq: took for sq, took in lefts[0].items() if all(o.get(sq) == took for o in lefts)}
        taken = frozenset.intersection(*(_taken(line) for line, _, _ in tied))
        doubt = self._doubt(obs, changed, [(trail, plies) for _, trail, plies in tied], count, when,
                            left, taken)
        if doubt is not None:
            return doubt
        seen = {sq: i for i, sq in enumerate(self._lifted_seen)}

        def order(entry: tuple[Line, "Trail", int]) -> tuple:
            line = entry[0]
            firsts = [seen.get(move.from_square, len(seen)) for move, _ in line.moves]
            return (sum(a > b for i, a in enumerate(firsts) for b in firsts[i + 1:]),
                    _line_text(line))

        what = (ORDER_UNSEEN if all(moves(line) == moves(tied[0][0]) for line, _, _ in tied)
                else ROUTE_UNSEEN)
        if what is ROUTE_UNSEEN and self._read_in_a_row(obs) < PATIENT_READINGS \
                and any(trail.support < PATIENT_READINGS for _, trail, _ in tied):
            # Several routes to one position are also what a king's round trip makes of a
            # misread (a piece lost under a glare "taken" by a king that came back): the board
            # must read so again before one is recorded, or boards read on the way must have
            # fitted the lines.  (At blitz no board is read twice: a man crowned and back as a
            # king, 9-3 3-9 or 9-4 4-9, was asked about on every board to the game's end.)
            return (LookAgain(self.game.ply, when, LONG_LINE, tuple(sorted(changed))),)
        tied = sorted(tied, key=order)
        line = tied[0][0]
        others = ", or ".join(_line_text(other) for other, _, _ in tied[1:])
        events = list(self._play_line(line, None, when))
        events.append(self._comment(f"{what}: {_line_text(line)}; or {others}", when))
        return tuple(events)

    def _near(self, obs: Observation, base: dict[int, Piece], trails: list, count: int,
              budget: Budget, when: float | None) -> tuple[Event, ...] | None:
        """A board that a line of legal moves explains but for an irregular act at its end,
        named by its article (a quick reply, then a man moved backwards or a capture not
        taken): the line is recorded as by `_recover`, then the act is judged against the
        position it leaves (`_irregular`), as if the board had been seen on the way.

        The act must be one piece's move as classified (`rules.irregularities`: Art. 8, 10-12,
        17, 27a, b, d) and change at most `NEAR_SLACK` squares of the line's board in kind; its
        last stretch is a quick one (`QUICK_PLIES`, one more for each board that fitted
        nothing), or longer as readings of this board support it (`_near_most`), and longer
        stretches before it as supported by readings.  Lines start from the
        recorded position only: an open irregular board is itself unsure (misread, perhaps),
        and another act on top of it would be a guess on a guess.  The fewest plies are
        taken, and only one such line: a board that is itself one irregular act from the last
        board that fitted, or that two lines explain, is left to `_irregular` as it stands.  A
        capture at the line's end whose men are still being taken off is waited on
        (`_taking_off_pieces`), not named."""
        sure = self._sure(-1)
        longest = max(before + trail.plies + _near_most(trail, most, count)
                      for root, _, before, trail, most in trails if root is Root.RECORDED)
        for total in range(0, longest + 1):
            found = self._near_lines(obs, trails, total, sure, budget, count)
            if found is None:
                return None
            if found is _AS_IT_STANDS:
                found = []  # the board as it stands, unless a line one ply longer is seen
            elif not found:
                continue
            if len(found) > 1:
                found = [entry for entry in found if self._lifted_in_order(entry[0], obs)]
                if len(found) != 1:
                    return None
            if self._unplaced(found[0][0] if found else None, obs) and total < longest:
                # The camera saw a piece put down where the fewest plies and their act leave
                # none: one ply more, the opponent's act after it, may be what it saw
                # (`_placed_later`); else the fewest stand.
                later = self._placed_later(obs, trails, total + 1, sure, budget, count)
                if later is not None:
                    found = [later]
            if not found:
                return None  # the board as it stands: `_irregular` names it
            line, trail, plies = found[0]
            board = _plain_reading(obs, line.end.pieces())
            changed = set(changes_between(base, line.end.pieces())) | set(changes_between(base, board))
            doubt = self._doubt(obs, changed, [(trail, plies)], count, when)
            if doubt is not None:
                return doubt
            events = list(self._play_line(line, None, when))
            if self.over is None:
                self._keep(obs)
                base = self._physical(self.position)
                # a capture whose men are still being taken off is no act yet (Art. 23)
                waiting = self._taking_off_pieces(Scorer(obs, base), self.position.successors(),
                                                  base, when)
                events.extend(waiting or self._irregular(obs, base, when, []))
            return tuple(events)
        return None

    def _near_lines(self, obs: Observation, trails: list, total: int, sure: SureKinds,
                    budget: Budget, count: int):
        """The lines `_near` finds ``total`` plies on, each with an irregular act after it that
        gives the board; `_AS_IT_STANDS` when the board is one act from the recorded position;
        None when a search spent its budget."""
        found: list[tuple[Line, Trail, int]] = []
        sheets: set = set()
        for root, start, before, trail, most in trails:
            plies = total - before - trail.plies
            if root is not Root.RECORDED or not 0 <= plies <= _near_most(trail, most, count):
                continue
            for state, ways in trail.ends.items():
                if plies == 0:  # the board is one act from where the trail stands
                    if not self._single_act(state, obs):
                        continue
                    if not trail.plies:
                        return _AS_IT_STANDS
                    for way in ways:
                        line = Line.of(root, start, way)
                        if (sheet := self._sheet(line)) not in sheets:
                            sheets.add(sheet)
                            found.append((line, trail, plies))
                    continue
                search = self.searches.lines(state, plies, sure, budget, slack=NEAR_SLACK)
                if not search.complete:
                    return None
                for raws, end in search.lines:
                    if plies > 1 and Line.of(root, Position(state), raws).leaves_no_trace():
                        continue
                    after = Position(end)
                    # (kings as the line leaves them where the camera cannot tell: a reply
                    # crowned on the far row, read unsurely as a man beside kings read so,
                    # made every act after it "pieces of both sides moved", and the injected
                    # man moved backwards went unnamed: the system bench's selfplay-55 at seed
                    # 3434005, a camera 2 degrees off vertical)
                    if not _named(classify(after, _as_placed(obs, after.pieces()))):
                        continue
                    for way in ways:
                        line = Line.of(root, start, way + raws)
                        sheet = self._sheet(line)
                        if sheet not in sheets:
                            sheets.add(sheet)
                            found.append((line, trail, plies))
        return found

    def _unplaced(self, line: Line | None, obs: Observation) -> set[int]:
        """The squares the camera saw a piece put down on in passing (`Settled.placed`) that
        ``line`` (None: no move) puts none on and the board as read leaves empty: what the
        line and an act after it do not explain."""
        lands = {move.to_square for move, _ in line.moves} if line is not None else set()
        board = _plain_reading(obs, (line.end if line is not None else self.position).pieces())
        return {sq for sq in self._placed_seen if sq not in lands and sq not in board}

    def _placed_later(self, obs: Observation, trails: list, total: int, sure: SureKinds,
                      budget: Budget, count: int) -> tuple[Line, Trail, int] | None:
        """The one line ``total`` plies on, with the opponent's act after it (Art. 27a), that
        puts a piece on every square the camera saw one put down on in passing, where the
        fewer plies before it did not: black replied 25-30 at blitz and white, instead of
        moving, moved that man on to 34; the man was seen put down on 30, yet black was said to
        have moved 25-34 (Art. 27d) and the wrong player named (the system bench's selfplay-55
        at seed 2727002).  None when no line, or more than one, does."""
        found = self._near_lines(obs, trails, total, sure, budget, count)
        if not found or found is _AS_IT_STANDS:
            return None
        fitting = []
        for entry in found:
            line = entry[0]
            act = classify(line.end, _as_placed(obs, line.end.pieces()))
            if act is not None and act.kind is IrregularityKind.OPPONENT_PIECE \
                    and not self._unplaced(line, obs):
                fitting.append(entry)
        return fitting[0] if len(fitting) == 1 else None

    def _lifted_in_order(self, line: Line, obs: Observation) -> bool:
        """Whether the camera saw the pieces lifted as ``line`` and the irregular act after it
        (`_near`) have them: the line's movers first, in order, then the act's (a square the
        line leaves occupied and the board shows empty), and, when pieces were seen put down on
        the way (`Settled.placed`), the line's own landing squares among them.  Two lines with
        an act after each can give the same board (a legal move, then the same side moving
        again out of turn, Art. 27a: which of the two moves came first, and where did the first
        land?); what the camera saw on the way tells."""
        seen = {sq: i for i, sq in reversed(list(enumerate(self._lifted_seen)))}
        order = [seen.get(move.from_square) for move, _ in line.moves]
        board = _plain_reading(obs, line.end.pieces())
        act = [seen.get(sq) for sq in line.end.pieces() if sq not in board]
        if any(i is None for i in order) or not act or any(i is None for i in act):
            return False
        if self._placed_seen and not all(move.to_square in self._placed_seen
                                         for move, _ in line.moves):
            return False  # a piece seen put down elsewhere on the way (34-29, not 34-30)
        return order == sorted(order) and (not order or max(order) < min(act))

    def _trails(self, budget: Budget, most: int = RECOVERY_PLIES
                ) -> tuple[int, list[tuple[Root, Position, int, Trail, int]]]:
        """Where lines may start, each followed through the still readings seen since (all but
        this one): (root, its position, the plies before it, the trail, the most plies from its
        ends to this board: ``most``, `STALL_PLIES` for a board stalled on); and how many times
        in a row this board was read.  The open
        irregular move that can stand comes first (a touch-move breach standing is kept over the
        same move from the recorded position); its one reply is judged with the other candidates
        already."""
        groups = _groups(self.seen, [self._sure(i) for i in range(len(self.seen))])
        *earlier, last = groups
        # this board's readings: its group's, and those just before it with the same content
        # on every square that were too unsure to follow (`_follow`: no evidence on the way,
        # yet readings of this very board).  A six-ply line's board read seven times, a dozen
        # squares unsure on each, a different dozen every time, counted once and was looked
        # at again until the recording ended (the other renderer's lidraughts-9 at 57004).
        count, text = last.count, last.obs.text()
        for group in reversed(earlier):
            if self._unread(group.obs) <= RECOVERY_UNSURE or any(
                    self.seen[i].text() != text for i in range(group.first, group.last + 1)):
                break
            count += group.count
        pending = self.pending
        trail = Trail.at(self.position._state)
        passed = False  # a line from the recorded position passed the open irregular board
        for group in earlier:
            # (as far as this board may be: at blitz the first board seen after a long gap is
            # an earlier reading by the time the board has stood long enough to be searched
            # further, and followed no further than a short gap it fitted nothing)
            followed = self._follow(trail, group, budget, most)
            if pending is not None and group.first <= self.pending_at <= group.last:
                passed = followed.support > trail.support
            trail = followed
        trails = [(Root.RECORDED, self.position, 0, trail, self._most(trail, last.obs, most))]
        if pending is None:
            return count, trails
        if pending.position is not None:
            if pending.position.outcome() is not None:
                return count, trails
            root, start = Root.STANDS, pending.position
        elif not passed and (seen := _as_seen(pending)) is not None and seen.outcome() is None:
            root, start = Root.AS_SEEN, seen
        else:
            return count, trails
        at = next((g.count for g in groups if g.first <= self.pending_at <= g.last), 1)
        trail = Trail.at(start._state, support=at)
        for group in earlier:
            if group.first > self.pending_at:
                trail = self._follow(trail, group, budget, most)
        entry = (root, start, 1, trail, self._most(trail, last.obs, most))  # the irregular move is a ply
        if root is Root.STANDS:
            trails.insert(0, entry)
        else:
            trails.append(entry)
        return count, trails

    def _follow(self, trail: Trail, group: "_Group", budget: Budget,
                most: int = RECOVERY_PLIES) -> Trail:
        """The trail after a still reading (read ``group.count`` times in a row), at most
        ``most`` plies on; a reading with too many squares read unsurely is no evidence."""
        if self._unread(group.obs) > RECOVERY_UNSURE:
            return trail
        return trail.follow(group.sure, group.count, self._most(trail, group.obs, most),
                            self.searches, budget)

    def _unread(self, obs: Observation) -> int:
        """How many squares ``obs`` tells nothing of, for recovery (`RECOVERY_UNSURE`): read
        unsurely of their kind, and not even likely (`STOOD_KIND`) as the recorded board has
        them, nor so by every still reading since it was accepted (`STEADY_READINGS`).  A square
        read as it stood is no sign of a line through it, and every line that moves its piece
        is judged against that reading (`Scorer`)."""
        board = self._physical(self.position)
        steady = self.seen if len(self.seen) >= STEADY_READINGS else ()

        def as_it_stood(sq: int) -> bool:
            r = obs.reading(sq)
            if r.occluded or _side(r.content) != _side(board.get(sq)):
                return False
            if r.kind_confidence >= STOOD_KIND:
                return True
            # read so, likelier than not, by every still reading since the board was accepted:
            # the camera's steady limit there (a lamp's glare), not a hand or a move in passing
            return bool(steady) and all(
                not o.reading(sq).occluded and o.reading(sq).kind_confidence > 0.5
                and _side(o.reading(sq).content) == _side(r.content) for o in steady)

        return sum(1 for sq in range(1, 51)
                   if not sure_of_kind(obs.reading(sq)) and not as_it_stood(sq))

    def _most(self, trail: Trail, obs: Observation, most: int = RECOVERY_PLIES) -> int:
        """The most plies a reading may be on from the trail's ends: ``most`` (`RECOVERY_PLIES`),
        but only the quick allowance when a single irregular act from one of them explains it
        (the irregularity is the likelier, and is named), unless the game went on unseen
        (``unseen``: players who were not watched played on, and a human arbiter arriving
        writes down the legal moves that reach the board)."""
        if not self.unseen and any(self._single_act(state, obs) for state in trail.ends):
            return min(QUICK_PLIES + trail.loose, most)
        return most

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
        plies = len(line.moves) + (line.root is not Root.RECORDED)
        if plies > QUICK_PLIES:
            events.append(self._comment(f"{plies} plies {CAUGHT_UP}", when))
        return tuple(events)

    def _move_candidates(self, key: tuple, before: Position, move: Move, after: Position,
                         base: dict[int, Piece], keep_uncrowned: bool = True):
        """The board after a move, and the same with a newly crowned man not yet crowned; while a
        crown is awaited, also with that crown put on (the opponent crowns the man and replies
        before the board is seen still: it was called an irregular move, Art. 27)."""
        board = after.pieces()
        awaited = (keep_uncrowned and self.uncrowned is not None and self.uncrowned in board
                   and self.uncrowned != move.from_square)
        crowned = dict(board)
        if awaited:
            p = board[self.uncrowned]
            board[self.uncrowned] = Piece(p.color, False)
        yield Candidate(key, changes_between(base, board))
        if awaited:
            yield Candidate(key + (CROWNED,), changes_between(base, crowned))
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
        self._forget()
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
        self.pending_at = len(self.seen) - 1
        return [TouchMove(self.game.ply, when, position.turn, first, move.from_square, rule, message,
                          remedy, texts)]

    def _taking_off_pieces(self, scorer: Scorer, successors: list[tuple[Move, Position]],
                           base: dict[int, Piece], when: float | None,
                           obs: Observation | None = None) -> tuple[Event, ...] | None:
        """A capture whose captured pieces are still being taken off: the capturing piece stands
        on its square and some of the pieces it took still stand (the player takes them off one
        by one, and the board is seen still between two).  The move is not complete (Art. 23):
        nothing is announced, and the arbiter looks again.  Read so after `TAKING_OFF_S` (or
        read so twice, without times), the pieces still standing are the irregularity (Art.
        27b, `_irregular`).

        The capture may be a reply to a move the camera never saw still (quick play: 23x34,
        then 39x10 at once, its men still standing; `bench.system_accuracy`, lidraughts-4 at
        seed 505030 named that board Art. 27).  With ``obs`` given and no irregularity open,
        such a board is also looked for up to `TAKING_OFF_PLIES` on: the moves before the
        capture are recorded, the squares they change being read surely, and the capture is
        then waited on as above.  When no such board is found and the camera saw pieces put
        down on squares the board leaves empty (`_unplaced`), lines up to
        `TAKING_OFF_PLACED_PLIES` on that land on every one of them are looked for too.

        None when the board is no such capture."""
        candidates: list[Candidate] = []
        for i, (move, after) in enumerate(successors):
            candidates.extend(_standing((i,), move, after, base))
        searched = obs is not None and self.pending is None and not self._quick_only
        if searched:
            # the plies before the capture, never seen still: up to `TAKING_OFF_PLIES` in all
            candidates.extend(self._taking_off_lines(successors, base, TAKING_OFF_PLIES))
        decision = scorer.decide(_distinct(candidates))
        accepted = decision.accepted
        unplaced = self._unplaced(None, obs) if searched and accepted is None else set()
        if unplaced:
            longer = self._taking_off_lines(successors, base, TAKING_OFF_PLACED_PLIES, unplaced)
            if longer:
                candidates.extend(longer)
                decision = scorer.decide(_distinct(candidates))
                accepted = decision.accepted
        if accepted is None and decision.explained and decision.best is not None \
                and len(decision.best[0]) == 1:
            # a capture still being taken off is the likeliest board, a rival two plies on
            # read unsurely beside it (the reply capturing a piece that still stands, its own
            # piece's square read at 0.6): it is waited on all the same, nothing recorded.
            # Taken as no such capture, it was named Art. 27b 0.4 s after the first look, the
            # player still taking the pieces off (the system bench's selfplay-3, seed 1212017)
            accepted = decision.best
        if accepted is None:
            self._taking_off = None
            return None
        plies, standing = accepted
        if len(plies) > 1:
            changed = next(c.changes for c in candidates if c.key == accepted)
            doubt = self._doubt(obs, changed, [], 0, when)
            if doubt is not None:
                return doubt
            line, position = [], self.position
            for i in plies[:-1]:
                line.append(position.successors()[i])
                position = line[-1][1]
            breach = self._touch_breach(self.position, line[0][0], when)
            if breach is not None:
                return tuple(breach)
            events = []
            for move, after in line:
                events.extend(self._record(move, after, when))
                if self.over is not None:
                    return tuple(events)
            base = self._physical(self.position)
            waiting = self._taking_off_pieces(Scorer(obs, base), self.position.successors(), base, when)
            return tuple(events) + (waiting or ())
        key = (self.game.ply, plies[0], standing)
        if self._taking_off is None or self._taking_off[0] != key:
            self._taking_off = (key, when)
        else:
            since = self._taking_off[1]
            if when is None or since is None or when - since >= TAKING_OFF_S - 1e-9:
                self._taking_off = None
                return None  # still standing: the irregularity is named
        return (LookAgain(self.game.ply, when, TAKING_OFF, standing),)

    @staticmethod
    def _taking_off_lines(successors: list[tuple[Move, Position]], base: dict[int, Piece],
                          most: int, lands: set[int] | None = None) -> list[Candidate]:
        """The boards of captures with pieces still standing (`_standing`) two to ``most``
        plies on (the first from ``successors``); with ``lands``, only those more than
        `TAKING_OFF_PLIES` on whose moves land on every one of those squares."""
        frontier = [((i,), between, frozenset((move.to_square,)))
                    for i, (move, between) in enumerate(successors)]
        out: list[Candidate] = []
        for depth in range(2, most + 1):
            further = []
            for path, between, landed in frontier:
                if between.outcome() is not None:
                    continue
                before = between.pieces()
                for j, (move, after) in enumerate(between.successors()):
                    now = landed | {move.to_square}
                    if lands is None or (depth > TAKING_OFF_PLIES and lands <= now):
                        out.extend(_standing(path + (j,), move, after, base, before))
                    # each ply left lands on one square: a line missing more cannot make it
                    if depth < most and (lands is None or len(lands - now) <= most - depth):
                        further.append((path + (j,), after, now))
            frontier = further
        return out

    # -- irregularities -------------------------------------------------------------------------

    def _irregular(self, obs: Observation, base: dict[int, Piece], when: float | None,
                   lifted: list[int], beside: bool = False) -> tuple[Event, ...]:
        board = _as_placed(obs, base, self.uncrowned)
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
        gained = _gained(board, base, reference)
        if gained and self._read_in_a_row(obs) < STALL_READINGS:
            # Read so again and again, a piece put on the board from outside it is named (as
            # the act it is); read once, it is a misread: a king moved 7-12 under a lamp's
            # glare, men the colour of the dark squares, and the emptied 7 read as a white
            # piece at 0.99: White had a piece more, and a false Art. 27 ("several pieces
            # moved") was named at once (the system bench's selfplay-56 at seed 4949014)
            return (LookAgain(self.game.ply, when, GAINED, gained),)
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
                self._keep(obs)  # the first reading after the move that now stands
        finding = classify(position, board)
        changed = tuple(sorted(changes_between(base, board)))
        several = len(changed) > SEVERAL_MOVES or _exchanged(base, board)
        if (self.pending is None and finding is not None and finding.seen is None
                and finding.kind is IrregularityKind.UNKNOWN
                and self._read_in_a_row(obs) < (STALL_READINGS if several else 2 if beside else 0)):
            # No single act explains it.  More squares changed than one act changes, or only
            # pieces of both sides gone (as exchanges leave the board): several moves of both
            # sides, perhaps, on a board read once, with a square misread that
            # keeps the search from explaining it (a hand leaving over it), or more plies on
            # than a short search reaches: read again (`STALL_READINGS` times, then searched
            # further) before anything is named.  Fewer, but taken beside a hand or an arm at
            # rest: read a second time.
            return (LookAgain(self.game.ply, when, LONG_LINE if several else UNEXPLAINED, changed),)
        self._touch(lifted)
        if finding is None:
            return tuple(events)
        if self.pending is not None and self.pending.board == board:
            return tuple(events)
        if (self.pending is not None and self.pending.position is None
                and finding.seen is None and finding.kind is IrregularityKind.UNKNOWN):
            # Still no board the game can stand on, and nothing new named: what is wrong was
            # said once; the open irregularity follows the board (the root of `Root.AS_SEEN`).
            self.pending = replace(self.pending, board=board)
            self.pending_at = len(self.seen) - 1
            return tuple(events)
        self.pending_at = len(self.seen) - 1
        if self._untold and finding.seen is None:
            # no irregularity: legal moves not seen, in an order (or by routes) the board cannot tell
            untold = self._untold[:3] + (("...",) if len(self._untold) > 3 else ())
            last = self.game.move_texts()[-1] if self.game.moves else None
            finding = replace(
                finding, message="the board went on by moves not seen one by one, and it does not "
                                 f"tell which: {' or '.join(untold)}",
                remedy="to have them recorded, put the pieces back as "
                       f"{f'after {last}' if last else 'at the start'} and play them again")
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
        self._forget()
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
        self._forget()
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

    def _before_last(self) -> dict[int, Piece] | None:
        """The board before the last recorded move, which a hand may put back: only a legal move
        (not an irregular one that stood, Art. 27 rule IV), with no irregularity open; after the
        opponent's reply it is no longer the last."""
        game = self.game
        if self.pending is not None or not game.moves or game.ply in game.irregular:
            return None
        return self._physical(game.positions[-2])

    def _undone(self, obs: Observation, base: dict[int, Piece], back: dict[int, Piece],
                when: float | None) -> tuple[Event, ...]:
        """The board before the last recorded move is read back, the opponent not having replied:
        the player undid his move by hand.  It is taken back (`MoveTakenBack`), not called an
        irregularity of the opponent's pieces (Art. 27a): a move is complete once the piece is
        released (Art. 16), so the opponent may claim it, which the scoresheet says; and the
        piece was touched, so it must be the one to move (Art. 15, rule I) if it can.  The
        squares that changed must be read surely."""
        unsure = tuple(sq for sq in sorted(changes_between(base, back))
                       if not sure_of_kind(obs.reading(sq)))
        if unsure:
            return (LookAgain(self.game.ply, when, "the squares that changed are not read clearly",
                              unsure),)
        move = self.game.moves[-1]
        mover = self.position.turn.other
        text = self.game.move_texts()[-1]
        waiting = self.uncrowned  # a man still waiting for its crown from before that move
        events = list(self.take_back(when))
        if waiting is not None and (p := self.position.piece_at(waiting)) and p.king \
                and back.get(waiting) == Piece(p.color, False):
            self.uncrowned = waiting
        events.append(self._comment(
            f"{mover}: {text} taken back by hand before {mover.other} replied; a move is complete "
            f"once the piece is released (Art. 16): {mover.other} may claim it; the piece on "
            f"{move.from_square} was touched and must move if it can (Art. 15, rule I)", when))
        self.touched = [move.from_square]
        return tuple(events)

    def declare(self, result: str, termination: Termination, when: float | None = None) -> tuple[Event, ...]:
        """Record an end the rules do not decide (resignation, time, agreement, arbiter): ``result``
        is 1-0, 0-1 or 1/2-1/2 (or 2-0, 0-2, 1-1); anything else, ``*`` too, is a ValueError."""
        if RESULT_ALIASES.get(result.strip(), "*") == "*":
            raise ValueError(f"not a result to declare: {result!r} (use 1-0, 0-1 or 1/2-1/2)")
        self.game.declare(result, termination)
        self.over = self.game.declared
        outcome = self.over
        return (GameOver(self.game.ply, when, outcome.result(), termination.value,
                         TERMINATION_ARTICLE[termination], outcome.winner),)

    def counters(self, when: float | None = None) -> CountersChanged:
        return self._counters(when)


#: The long diagonal (manual §2j-II) and the double diagonals 47-15 and 4-36 (§2j-III).
#: `Settled.lifted_at` / `placed_at` of a square never seen so (`vision.passing.Passing`).
_NEVER_SEEN = 1 << 30
#: `Arbiter._near_lines`' answer for a board one irregular act from the recorded position.
_AS_IT_STANDS = object()
_NO_LINE = object()  # no line ends on the board (`Arbiter._lines_through`)

#: What a provisional board may bring about (`Arbiter._provisional`): legal play recorded.
_PROVISIONAL_EVENTS = (MovePlayed, CountersChanged, ScoresheetComment, DrawPossible, GameOver,
                       CrownPending)

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


@dataclass(frozen=True, slots=True)
class _Group:
    """Still readings in a row with the same sure kinds: the last of them, how many, and where
    they stand in `Arbiter.seen`."""

    obs: Observation
    sure: SureKinds
    count: int
    first: int
    last: int


def _groups(readings: list[Observation], kinds: list[SureKinds]) -> list[_Group]:
    """The readings grouped: a board read again (the service looks again when the arbiter is
    unsure) is one board seen more than once."""
    groups: list[_Group] = []
    for i, (obs, sure) in enumerate(zip(readings, kinds)):
        if groups and groups[-1].sure == sure:
            groups[-1] = _Group(obs, sure, groups[-1].count + 1, groups[-1].first, i)
        else:
            groups.append(_Group(obs, sure, 1, i, i))
    return groups


def _shortest(root: Root, trail: Trail) -> int:
    """The fewest plies from a trail's ends to this board: a line from the recorded position,
    or from an irregular move that stands, of one ply is a candidate of its own already (a move,
    a reply); from a board that cannot stand, one ply; from a reading that fitted, none."""
    if trail.anchored:
        return 0
    return 1 if root is Root.AS_SEEN else 2


def _near_most(trail: Trail, most: int, count: int) -> int:
    """The most plies of legal moves `Arbiter._near` puts before an irregular act on this
    board: a quick reply's (`QUICK_PLIES`, one more for each board that fitted nothing), or up
    to ``most`` as readings of the board support (`_supported`).  Three quick plies, then black
    moving a white man (Art. 27a), first seen still at their end and read four times, were
    named "pieces of both sides moved" (the system bench's selfplay-43 at seed 2828007)."""
    quick = QUICK_PLIES + trail.loose
    return max((p for p in range(quick + 1, most + 1) if _supported(trail, p, count)), default=quick)


def _legal_play(events) -> bool:
    """Whether judging a board brought about legal play alone: a move recorded, and nothing
    but what a provisional board may bring about (`_PROVISIONAL_EVENTS`)."""
    return any(isinstance(e, MovePlayed) for e in events) \
        and all(isinstance(e, _PROVISIONAL_EVENTS) for e in events)


def _two_lines(decision) -> tuple[tuple | None, tuple | None]:
    """The keys of the best two lines of a `_lines_through` decision, when it has two distinct
    ones (`_seen_placed`, `_glimpsed`); else (None, None)."""
    best, rival = decision.best, decision.runner_up
    if best is None or rival is None or best[0] != "line" or rival[0] != "line" \
            or best[1] == rival[1]:
        return None, None
    return best, rival


def _wants_another_reading(events) -> bool:
    """Whether judging a board said only that it may be several plies on (`LONG_LINE`)."""
    return len(events) == 1 and isinstance(events[0], LookAgain) and events[0].reason == LONG_LINE


def _supported(trail: Trail, plies: int, count: int) -> bool:
    """Whether readings enough fit a line that ends ``plies`` after the trail's ends on a board
    read ``count`` times: each stretch between two readings that fit it beyond `QUICK_PLIES`
    (one more for each reading between them that fitted nothing) is a gap, and the plies of the
    gaps beyond that allowance need one reading each `PLIES_PER_READING`, besides the first."""
    stretches = trail.segments + ((plies, trail.loose),)
    beyond = sum(max(0, p - QUICK_PLIES - loose) for p, loose in stretches)
    return trail.support + count >= 1 + math.ceil(beyond / PLIES_PER_READING)


def _single_act(position: Position, obs: Observation) -> bool:
    """Whether one irregular act, as players make them, explains the reading seen against
    ``position``: a move of the shape of a legal one that breaks a rule (a simple move while a
    capture is due, a capture not of the highest value or with pieces too many or too few taken
    off, a fourth king move, a man crowned wrongly: Art. 8, 10-12, 17, 27b), the opponent's
    piece moved (Art. 27a), a piece put where it cannot go with nothing taken (Art. 27d: a man
    backwards, two squares, a king straight), pieces of one side taken off or put on.  Not: a
    piece carried far off with an opponent's piece gone too, or a piece of each side gone, which
    is how a move, the reply and a capture of the replying piece (an exchange, three plies) look
    when seen as one act."""
    finding = classify(position, _plain_reading(obs, position.pieces()))
    if finding is None:
        return False
    kind = finding.kind
    if kind is IrregularityKind.UNREACHABLE:
        return not finding.seen.captured and _within_a_slip(finding.seen)
    if kind is IrregularityKind.OPPONENT_PIECE or (kind is IrregularityKind.UNKNOWN
                                                   and finding.seen is None):
        if finding.seen is not None:
            return True
        changed = [c for c in finding.changes
                   if _side(c.before) != _side(c.after)]
        return len(changed) <= 2 and len({(c.before or c.after).color for c in changed}) == 1
    return True


#: Rows and columns a piece put where it cannot go may lie from its square as one slip of the
#: hand: a step too far or to the side, a man backwards.
_SLIP = 2


def _lifts(obs: Observation, lifted: list[int], board: Position) -> list[int]:
    """The ``lifted`` squares that are touch-move evidence on a board the game takes as
    ``board``: a lift of a piece that the board still has counts only when the camera saw the
    square empty beside the hand (the board then reads the piece back), or this board reads it
    empty surely, not when this board alone reads it empty, and unsurely.  A hand hovering high
    over a man on the far row was taken for a still board, the man read empty at 0.76, and a
    false touch-move followed (the system bench's selfplay-7 at seed 606028); pale fingers
    still over a man on the edge as the move's board settled read it empty at 0.55, the same
    (selfplay-13 at seed 1212006)."""
    return [sq for sq in lifted
            if board.piece_at(sq) is None or obs.reading(sq).content is not None
            or sure_of_kind(obs.reading(sq))]


def _exchanged(base: dict[int, Piece], board: dict[int, Piece]) -> bool:
    """Whether ``board`` differs from ``base`` only by pieces of both sides gone: how exchanges
    leave the board (a man moved, taken, and the taker taken in turn), never one irregular act.
    Eight plies of two exchanges at quick play, first seen still at their end, left two men of
    each side gone and nothing else changed; read a second time, the board was named Art. 27
    ("pieces disappeared") before the search that finds such lines had the readings it needs
    (the other renderer's selfplay-13 at seed 49002)."""
    changed = changes_between(base, board)
    return (bool(changed) and all(now is None for now in changed.values())
            and {base[sq].color for sq in changed} == {Color.WHITE, Color.BLACK})


def _within_a_slip(move: Move) -> bool:
    """Whether a piece put on ``move``'s square that no legal move reaches lies on one line with
    the square it left, or within `_SLIP` rows and columns of it: a player's slip.  A man
    carried three rows off the line (34 to 50) is no slip but several moves the camera missed:
    taken as one irregular act (Art. 27d), at blitz after a crowning and the king's way back,
    the line of five legal moves was never searched."""
    f, t = move.from_square, move.to_square
    return line_between(f, t) is not None or (abs(row(f) - row(t)) <= _SLIP
                                               and abs(column(f) - column(t)) <= _SLIP)


def _named(finding: Finding | None) -> bool:
    """Whether a finding names one piece's move by its article (Art. 8, 10-12, 17, 27a, 27b,
    27d).  A piece gone, or a man read as a king, is not: that is how a misreading looks."""
    return finding is not None and finding.kind is not IrregularityKind.UNKNOWN \
        and finding.seen is not None


def _gained(board: Mapping[int, Piece], *before: Mapping[int, Piece]) -> tuple[int, ...]:
    """The squares holding a piece of a side that has more pieces on ``board`` than on every
    board ``before`` (the recorded position, the open irregularity's board) and that held none
    of that side there: the pieces no move, capture or crowning put there; () when no side
    gained a piece."""
    out: set[int] = set()
    for color in (Color.WHITE, Color.BLACK):
        now = sum(1 for p in board.values() if p.color is color)
        if all(now > sum(1 for p in b.values() if p.color is color) for b in before):
            out.update(sq for sq, p in board.items() if p.color is color
                       and all((q := b.get(sq)) is None or q.color is not color for b in before))
    return tuple(sorted(out))


def _left(line: Line) -> dict[int, tuple[int, ...]]:
    """The squares ``line``'s movers left that its end leaves empty and on which it captured
    nothing, each with the squares its move captured (`Arbiter._doubt`)."""
    end = line.end.pieces()
    captured = {sq for move, _ in line.moves for sq in move.captured}
    return {move.from_square: tuple(move.captured) for move, _ in line.moves
            if move.from_square not in end and move.from_square not in captured}


def _taken(line: Line) -> frozenset[int]:
    """The squares ``line``'s captures took pieces from that its end leaves empty
    (`Arbiter._doubt`)."""
    end = line.end.pieces()
    return frozenset(sq for move, _ in line.moves for sq in move.captured if sq not in end)


def _likely_empty(reading: SquareReading) -> bool:
    """Whether ``reading`` shows its square likely empty (`LIKELY_KIND`), uncovered."""
    return (not reading.occluded and reading.content is None
            and reading.kind_confidence >= LIKELY_KIND)


def _line_text(line: Line) -> str:
    """A line's moves as the scoresheet writes them (``32-27 50x26``)."""
    texts = []
    before = line.start
    for move, after in line.moves:
        texts.append(before.move_text(move))
        before = after
    return " ".join(texts)


def _standing(key: tuple, move: Move, after: Position, base: dict[int, Piece],
              before: dict[int, Piece] | None = None) -> list[Candidate]:
    """The boards of ``move`` (a capture) with some of the pieces it took still standing, as
    they stood ``before`` it (``base`` when the capture is the next move); keyed ``(key,
    squares standing)`` (`Arbiter._taking_off_pieces`)."""
    taken = sorted(set(move.captured))
    if not taken or len(taken) > TAKING_OFF_MOST:
        return []
    before = base if before is None else before
    board = after.pieces()
    return [Candidate((key, standing), changes_between(base, {**board, **{sq: before[sq] for sq in standing}}))
            for mask in range(1, 1 << len(taken))
            for standing in [tuple(sq for k, sq in enumerate(taken) if mask >> k & 1)]]


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


def _side(piece: Piece | None) -> Color | None:
    """A square's kind as the colours tell it: None for empty, else the piece's side."""
    return None if piece is None else piece.color


def _as_placed(obs: Observation, base: dict[int, Piece], uncrowned: int | None = None
               ) -> dict[int, Piece]:
    """The board as read (`_plain_reading`), with each piece read unsurely as the other kind
    where ``base`` has it (`_kind_unsure`) taken as ``base``'s piece.  A king read unsurely as
    a man where it stands (or a man as a king) is the piece the game put there: in place a man
    is crowned only on the far row, and a king never becomes a man.  Looking again for it, the
    camera being unable to tell, left the irregular move beside it unnamed until it was put
    right (Art. 27a).  So is a crown awaited on the far row (``uncrowned``), read unsurely:
    whether it is on yet is no change to look at (it left the injected Art. 27a beside it
    unnamed); and a king crowned there read unsurely as a man (it left the injected Art. 27d
    of a man beside it unnamed: the system bench's selfplay-61 at seed 707002, a camera 15
    degrees off vertical that cannot tell kings anywhere)."""
    board = _plain_reading(obs, base)
    for sq, before in base.items():
        if (_kind_unsure(obs, sq, board.get(sq), before)
                and (before.king or sq not in promotion_row(before.color is Color.WHITE)
                     or sq == uncrowned)):
            board[sq] = before
    return board


def _kind_unsure(obs: Observation, sq: int, seen: Piece | None, before: Piece | None) -> bool:
    """Whether ``seen`` on ``sq`` is the piece that stood there (``before``) read unsurely as
    the other kind, a king as a man or the reverse: the camera cannot tell there."""
    return (seen is not None and before is not None and seen.color is before.color
            and seen.king is not before.king and obs.reading(sq).confidence < KING_CONFIDENT)


def _in_hand(obs: Observation, base: dict[int, Piece], mover: Color, lifted: tuple[int, ...]
             ) -> bool:
    """Whether a piece of ``mover``'s is in his hand (`_held`)."""
    return _held(obs, base, mover, lifted) is not None


def _held(obs: Observation, base: dict[int, Piece], mover: Color, lifted: tuple[int, ...]
          ) -> int | None:
    """The square of the one piece of ``mover``'s gone, when the board as read is the game's
    board with it gone, read surely, seen lifted by a hand (``lifted``: a piece lost under a
    glare was never lifted), and nothing else changed: a piece in the mover's hand
    (`Arbiter.observe`); else None.  A king read unsurely
    as a man where it stands (or the reverse) is no change: the camera cannot tell there (a
    camera nearly above the board; the system bench's selfplay-57 at seed 606024 named Black's
    king in hand Art. 27, "pieces disappeared", beside White's king on 23 read a man at 0.59)."""
    gone = {sq: now for sq, now in changes_between(base, _plain_reading(obs, base)).items()
            if not _kind_unsure(obs, sq, now, base.get(sq))}
    if len(gone) != 1:
        return None
    (sq, now), = gone.items()
    piece = base.get(sq)
    held = now is None and piece is not None and piece.color is mover and sq in lifted \
        and sure_of_kind(obs.reading(sq))
    return sq if held else None


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
    """When the reading is unclear only about crowns (the same move or line of moves, with and
    without the crown of a man it brings to the far row, with and without the awaited crown of
    a man that reached it before), the one with the fewest crowns on: it is recorded, and the
    crown is awaited (`CrownPending`).  Looking again could lose the move: the next one may be
    played before the crown is read surely, and a board two moves on may no longer tell where
    it went (a piece captured from either of two squares).  So with every candidate not far
    less likely than the best (`Decision.close`), not only the best two: from a camera nearly
    above the board, in a dim room, the man awaiting its crown on 3 and Black's man just
    crowned on 47 each read king 0.75 or man 0.25, three such boards lay close, and nothing was
    recorded for 26 seconds (the other renderer's selfplay-59 at seed 5858007)."""
    close = decision.close or (decision.best, decision.runner_up)
    if set(close) <= {("same",), ("crowned",)}:
        return ("same",)  # the board as it was, the awaited crown on or not: still awaited
    first = close[0]
    if not (all(isinstance(k, tuple) for k in close) and first[0] in ("move", "line")
            and all(k[:2] == first[:2] for k in close)):
        # (and only then: with the squares of two moves hidden, 41-46 and 41-47, each with and
        # without its crown, were alike, and the crown's doubt recorded 41-47 for 41-46: the
        # system bench's selfplay-56 at seed 2828006)
        return None
    if any(len(k) > 3 or (len(k) == 3 and k[2] != CROWNED and not isinstance(k[2], int))
           for k in close):
        return None
    uncrowned = [k for k in close if k[-1] != CROWNED]
    if not uncrowned:
        return None
    return max(uncrowned, key=len)


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
