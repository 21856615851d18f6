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
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

from rules import movegen
from rules.errors import FenError
from rules.events import (CountersChanged, CrownPending, DrawPossible, Event, GameOver, Irregularity,
                          IrregularityKind, IrregularityResolved, IrregularityStands, LookAgain,
                          LostTrack, MovePlayed, MoveTakenBack, ScoresheetComment, TouchMove)
from rules.game import Game
from rules.irregularities import Finding, classify, name
from rules.lines import Root, Searches, SureKinds
from rules.matching import KING_CONFIDENT, LIKELY_KIND, Candidate, Scorer, changes_between, sure_of_kind
from rules.move import Move
from rules.in_view import InView
from rules.observation import CONTENTS, Observation, Settled
from rules.outcome import RESULT_ALIASES, Outcome, Termination
from rules.piece import Color, KingCounter, Piece
from rules.position import Position
from rules.recovery import (CROWNED, DEEP_READINGS, DEEP_RUN, LONG_LINE, RECOVERY_UNSURE, STALL_READINGS, Recovery,
                            _as_placed, _crowning_in_doubt, _kind_unsure, _plain_reading, _side)
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

#: The still readings kept since the last recorded move (the oldest go first).
RECOVERY_READINGS = 32
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
#: A board read alike this many times in a row, with nothing open, whose unsure changed squares
#: each have a second choice of another kind at `SECOND_CHOICE_SHARE` or more, is taken with
#: those second choices when they make it one irregular act of a named article and the board as
#: read is none (`Arbiter._second_choices`).  White's man 45 moved back to 50 (Art. 27d) on a
#: board whose men are the colour of the dark squares: the emptied 45 read as a black man at
#: 0.52-0.69, empty the second choice, five readings alike; the arbiter looked again until the
#: man was put back, and the move was never named (the system bench's selfplay-7 at seed
#: 6868000, injected at ply 36).
SECOND_CHOICE_READINGS = 3
SECOND_CHOICE_SHARE = 0.25
#: A board read alike this many times in a row whose act's only unsure squares are squares it
#: left, read empty likely, while a piece of theirs stands surely on a square that was empty, is
#: taken as read (`Arbiter._left_steadily`): as many readings as a stalled board's.
LEFT_STEADILY = STALL_READINGS
#: The `LookAgain` reason for pieces gone from squares the camera saw a hand over
#: (`Arbiter._under_a_hand`).
UNDER_A_HAND = "pieces seen under a hand are gone: looking again once it has left"
#: The `LookAgain` reason for a move that best fits a still board only because the squares it
#: changes are under a hand, unread (`Arbiter.observe`).
MOVE_UNDER_A_HAND = "the squares of the move are under a hand: looking again once it has left"
#: Why the arbiter looks again, before naming it, at a board that no single act as players make
#: them explains (`_single_act`: a man carried far with opponent's men gone) and that is read too
#: unclearly to search lines of legal moves beyond a quick reply (`RECOVERY_UNSURE`): a hand
#: still over the far corner, four squares under it, when 45-40 9-14 40x18 had gone by unseen at
#: blitz, and the board was named "45 to 18" (Art. 27d) at once, then stood (the system bench's
#: lidraughts-3 at seed 7272003).  Read so `STALL_READINGS` times in a row, it is named.
UNCLEAR_FOR_LINES = ("the board is read too unclearly to tell moves not seen from an irregular "
                     "one: looking again")
#: A board read whole in passing on which an irregular act was seen, then this many still
#: boards in a row alike on every square in view, a hand resting over the rest: the act is named
#: from the board seen whole (`Arbiter._act_seen_whole`).
ACT_SEEN_READINGS = 3


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
    #: not an irregularity: the companion lost track of the game (`LostTrack`)
    lost: bool = False


@dataclass
class Arbiter(Recovery):
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
    # recorded move, when it says (`Settled.lifted_at`, `placed_at`): ("lifted" | "placed", sq);
    # and the last it was seen clearly unchanged on (`open_last`, `stood_last`): ("open" |
    # "stood", sq)
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
    # each square's last reading in view on any board the arbiter was given, still or in
    # passing, taken or not: what a board's squares under a hand are read as (`_joined`)
    in_view: InView = field(default_factory=InView, repr=False)
    # judging a board joined so (`_joined`): no second joining
    _joining: bool = field(default=False, repr=False)
    # boards joined so (`_joined`) that legal play did not explain, each with the reading of
    # `seen` it came after (None: before them all): evidence only where the boards of their own
    # explain nothing (`observe`, `_merge_aside`)
    _aside: list[tuple[Observation | None, Observation]] = field(default_factory=list, repr=False)
    # the ids of the readings of `seen` that are such boards, merged (`_still_readings`)
    _patched: set[int] = field(default_factory=set, repr=False)
    # a board read whole in passing that showed an irregular act, and how many still boards
    # since read alike in view with a hand over the rest (`_act_seen_whole`)
    _act_seen: tuple[Settled, int] | None = field(default=None, repr=False)
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
        if not self._joining:
            self.in_view.remember(settled)
        if settled.provisional:
            return self._provisional(settled)
        act_seen, self._act_seen = self._act_seen, None
        if self._quick_only or self._joining or not (settled.observation.occluded or self._aside):
            return self._observe_still(settled)  # (nothing to join: no copy to judge it on)
        before = self._copy()
        joined = self._joined(settled)
        if joined is not None:
            # Squares under a hand read as they were last seen in view, where nothing was seen
            # changing on them since (`_joined`): at blitz an arm rested over a third of the
            # board for 36 s, every still board had squares under it that changed plies before,
            # each seen on a board in passing, and nothing was recorded (the system bench's
            # selfplay-20 at seed 7474006).  Taken only as legal play, as a board in passing
            # is: a square read so is not read now, and names no irregularity.
            trial, found = before._trial(joined, quick=False, joining=True)
            if _legal_play(found):
                self._adopt(trial)
                return tuple(found)
        events = self._observe_still(settled)
        if _stuck(events) and before._aside:
            # Nothing recorded from the boards of its own: the boards joined so that were set
            # aside (`_set_aside`) join the evidence, and legal play they explain is taken.
            # Only then: kept as evidence always, a joined board wrong on a square that changed
            # unseen under the hand held the deep search that caught up nine plies at quick
            # play (the system bench's selfplay-16 at seed 7474002).
            trial = before._copy()
            trial._merge_aside()
            trial._joining = True
            found = list(trial.observe(replace(joined or settled, provisional=False)))
            if _legal_play(found):
                self._adopt(trial)
                return tuple(found)
        if joined is not None and _stuck(events):
            self._set_aside(joined.observation)
        if _stuck(events) and act_seen is not None:
            named = self._act_seen_whole(act_seen, settled, before)
            if named is not None:
                trial, found = named
                self._adopt(trial)
                return found
        return events

    def _act_seen_whole(self, act_seen: tuple[Settled, int], settled: Settled, before: "Arbiter"
                        ) -> "tuple[Arbiter, tuple[Event, ...]] | None":
        """An irregular act seen on a board read whole in passing (``act_seen``: that board,
        and the still boards alike in view since), named once `ACT_SEEN_READINGS` still boards
        in a row, ``settled`` the last, read alike on every square in view with a hand resting
        over the rest (the arbiter keeps counting them in `_act_seen` meanwhile): the trial,
        from ``before`` (the arbiter as it was before ``settled``), that names it and what it
        says, or None.  The act was done in view, nothing in view
        changed since, and a hand resting over its first square would hide it from every
        still board until the player took it back: blitz, White's 49-44 where 37x17 was
        compulsory (Art. 10), seen whole in passing, then a hand rested over 49 and 50 for two
        seconds and put the man back; the act was never named (the system bench's lidraughts-1
        at seed 8989003)."""
        whole, alike = act_seen
        obs = settled.observation
        if not obs.occluded or any(
                obs.reading(sq).content != whole.observation.reading(sq).content
                for sq in range(1, 51) if not obs.reading(sq).occluded):
            return None
        if alike + 1 < ACT_SEEN_READINGS:
            self._act_seen = (whole, alike + 1)
            return None
        trial, found = before._trial(replace(whole, provisional=False), quick=False)
        if not any(isinstance(e, Irregularity) for e in found):
            return None
        return trial, tuple(found)

    def _unaccounted(self, moves, settled: Settled) -> tuple[int, ...]:
        """The squares the camera saw a piece leave or land on since the last board taken
        (this board's sightings and those before) that ``moves`` from the recorded position
        neither start from, land on nor capture on, nor the board they leave changes: more
        was played under the hands.  A piece seen put down where one stood before the moves is
        no move of it (put back, or a hovering hand's edge over it)."""
        stood = self._physical(self.position)
        moved = set()
        position = self.position
        for move in moves:
            moved |= {move.from_square, move.to_square, *move.captured}
            position = position.play(move)
        moved |= set(changes_between(stood, self._physical(position)))
        placed = {sq for sq in (*self._placed_seen, *settled.placed) if sq not in stood}
        return tuple(sorted(({*self._lifted_seen, *settled.lifted} | placed) - moved))

    def _joined(self, settled: Settled) -> Settled | None:
        """``settled`` with its squares under a hand read as last seen in view, where nothing
        was seen changing on them since (`InView.joined`), or None."""
        return self.in_view.joined(settled, self._sighted)

    def _adopt(self, trial: "Arbiter") -> None:
        """Become ``trial`` (`_trial`), keeping the one scoresheet object others hold."""
        game = self.game
        game.__dict__.update(trial.game.__dict__)  # the same record object: others hold it
        self.__dict__.update(trial.__dict__)
        self.game, self._quick_only, self._joining = game, False, False

    def _observe_still(self, settled: Settled) -> tuple[Event, ...]:
        """Judge a still board (`observe`)."""
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
                    events, recorded = self._take(_lifts(obs, lifted, after), position, move,
                                                  after, when)
                    if recorded and not settled.seen_before(held, move.to_square):
                        # the next mover's piece in hand: touched (Art. 15).  Not when its
                        # square was seen empty before the move's piece was seen put down: the
                        # move was not finished (Art. 16), so it was not his turn, and a hand
                        # hovering still over a dark man, its fingers the colour of the empty
                        # square, looks so (a false touch-move: the system bench's selfplay-23
                        # at seed 2323014)
                        self._touch([held])
                    return tuple(events)
            left = self._left_but_read(obs, base, scorer, successors)
            if left is not None:
                move, after = left
                return tuple(self._take(_lifts(obs, lifted, after), position, move, after, when)[0])
            return self._irregular(obs, base, when, lifted, settled.beside)

        what = key[0]
        hidden = () if what not in ("move", "reply") or not obs.occluded else tuple(
            sorted(sq for sq in _changes_of(candidates, key) if obs.reading(sq).occluded))
        if hidden:
            # A move is recorded from the squares it changes read as it leaves them, not from
            # the squares around them: with a hand over 33 squares, a dark man's square read
            # empty surely and the square before it read empty, 31-27 (27 under the hand) was
            # the one move no square read surely denied, and it was recorded as White's first
            # move, five plies into the game (the other renderer's selfplay-1, seed 8181005).
            return (LookAgain(self.game.ply, when, MOVE_UNDER_A_HAND, hidden),)
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
            crowned = key[-1] == CROWNED  # the awaited crown was put on with the move
            if crowned:
                key = key[:-1]
            events.extend(self._take(_lifts(obs, lifted, after), position, move, after, when,
                                     uncrowned=key[2] if len(key) > 2 else None,
                                     crowned=crowned)[0])
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
            # a board under hands, whole once its squares there are read as last seen in view
            # (`_joined`), is such a board too
            # (judged as read, with squares under a hand, it said nothing of the board joined)
            whole = settled if not obs.occluded else self._joined(settled)
            if (whole is not settled or not any(
                    isinstance(e, MovePlayed) or (isinstance(e, LookAgain) and e.reason == LONG_LINE)
                    for e in events)) \
                    and whole is not None and not whole.observation.occluded \
                    and self._unread(whole.observation) <= RECOVERY_UNSURE:
                # Farther on than a quick line: legal play a longer search finds may still end
                # here (blitz, a hand always over or beside the board: boards four and six
                # plies on were read whole in passing, the first still one came nine plies on,
                # beyond any search, and three plies of 35 were recorded: the system bench's
                # lidraughts-9 at seed 3535001).  Such a board is only kept as evidence.
                _, longer = self._trial(whole, quick=False, joining=whole is not settled)
                if _legal_play(longer) or _wants_another_reading(longer):
                    if whole is settled:
                        self._keep(obs)
                    else:
                        self._set_aside(whole.observation)
                elif whole is settled and any(isinstance(e, Irregularity) for e in longer):
                    # an irregular act done in view: named if a hand rests over it from now on
                    # (`_act_seen_whole`), else the still board tells
                    self._act_seen = (settled, 0)
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
            # Every square: those of the hands' earlier visits too, on boards not taken (1-7
            # was seen lifted and put down under one hand, that board misread; the next, read
            # in passing with 1 and 7 under a resting hand, was taken as 10-14 37-32, and 1-7
            # recorded after them: the system bench's selfplay-13 at seed 6868010).
            if self._unaccounted(trial.game.moves[self.game.ply:], settled):
                return ()
        self._adopt(trial)
        return events

    def _trial(self, settled: Settled, quick: bool, joining: bool = False
               ) -> "tuple[Arbiter, list[Event]]":
        """A copy of this arbiter (the searches' cache shared: what it learns holds) and what
        judging ``settled`` as a still board brought about there: ``quick`` lines only, no
        irregular act searched, as a provisional board is judged; else as a still one is.
        ``joining``: ``settled`` is a board joined with squares seen before (`_joined`)."""
        trial = self._copy()
        trial._quick_only, trial._joining = quick, joining
        return trial, list(trial.observe(replace(settled, provisional=False)))

    def _copy(self) -> "Arbiter":
        """A copy of this arbiter that judging a board changes alone (the searches' cache
        shared: what it learns holds)."""
        trial = copy.copy(self)
        trial.game, trial.touched, trial.hinted = self.game.copy(), list(self.touched), set(self.hinted)
        trial.seen, trial._kinds, trial._acts = list(self.seen), list(self._kinds), dict(self._acts)
        trial._lifted_seen, trial._placed_seen = list(self._lifted_seen), list(self._placed_seen)
        trial._sighted = dict(self._sighted)
        trial._glimpses = list(self._glimpses)
        trial.in_view, trial._patched = self.in_view.copy(), set(self._patched)
        trial._aside = list(self._aside)
        return trial

    def _read_in_a_row(self, obs: Observation) -> int:
        """How many of the last still readings (this one too) read the board as ``obs`` does
        (`_alike`)."""
        text, n = obs.text(), 0
        for seen in reversed(self.seen):
            if seen.text() != text and not _alike(seen, obs):
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

    def _left_but_read(self, obs: Observation, base: dict[int, Piece], scorer: Scorer,
                       successors: list[tuple[Move, Position]]) -> tuple[Move, Position] | None:
        """The one legal move whose board the reading is but for the square its piece left,
        still read as a piece of that colour, while the piece stands, read surely, where the
        move put it and every other square fits: on a board read alike `LEFT_STEADILY` times in
        a row, nothing open.  A piece is not in two places: the one the move put down came from
        its square, and a piece brought onto the board from beside it is no act of play, while
        a square whose look the camera never learnt empty, read as the piece that stood there,
        is the camera's doubt however sure its reading.  (move, position after it), or None.

        The other renderer's selfplay-23 at seed 2727000: White's 46x37, men the purple of the
        dark squares, the corner square 46 never seen empty (a man stood there from the start)
        and the board's border lying 2 pixels over it: 46 read as White's man (its kind at
        0.9998) on every board, and "several pieces moved" was named against the legal capture.
        Taken, the board teaches the watcher 46's empty look (`BoardWatcher.confirm`), and
        46 reads empty from then on.  A board with any other square against the move (a man it
        captures still standing) is named as before."""
        if self.pending is not None or self._read_in_a_row(obs) < LEFT_STEADILY:
            return None
        found = []
        for move, after in successors:
            piece = base.get(move.from_square)
            if piece is None or move.from_square == move.to_square:
                continue
            board = after.pieces()
            if scorer.contradictions(changes_between(base, board)) != {move.from_square}:
                continue
            left, put = obs.reading(move.from_square), obs.reading(move.to_square)
            if left.occluded or _kind(left.content) is not piece.color:
                continue
            if not sure_of_kind(put) or _kind(put.content) is not piece.color:
                continue
            found.append((move, after))
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
            self._patched.discard(id(self.seen[0]))
            del self.seen[0], self._kinds[0]
            self.pending_at = max(self.pending_at - 1, -1)

    def _set_aside(self, obs: Observation) -> None:
        """Set aside a board joined with squares seen before (`_joined`) that legal play did
        not explain, after the last reading of `seen`, the oldest going first beyond
        `RECOVERY_READINGS`."""
        self._aside.append((self.seen[-1] if self.seen else None, obs))
        del self._aside[:-RECOVERY_READINGS]

    def _merge_aside(self) -> None:
        """Take the boards set aside (`_set_aside`) into `seen`, each after the reading it came
        after (first, when that one is gone), the oldest going first beyond
        `RECOVERY_READINGS`."""
        after: dict[int, list[Observation]] = {}
        first: list[Observation] = []
        kept = {id(o) for o in self.seen}
        for anchor, obs in self._aside:
            if anchor is not None and id(anchor) in kept:
                after.setdefault(id(anchor), []).append(obs)
            else:
                first.append(obs)
        pending = self.seen[self.pending_at] if 0 <= self.pending_at < len(self.seen) else None
        seen, kinds = list(first), [None] * len(first)
        for obs, kind in zip(self.seen, self._kinds):
            seen.append(obs)
            kinds.append(kind)
            joined = after.get(id(obs), [])
            seen.extend(joined)
            kinds.extend([None] * len(joined))
        drop = max(0, len(seen) - RECOVERY_READINGS)
        self.seen, self._kinds = seen[drop:], kinds[drop:]
        self._patched = {id(o) for _, o in self._aside}
        self._aside = []
        self.pending_at = next((i for i, o in enumerate(self.seen) if o is pending), -1)

    def _still_readings(self) -> int:
        """How many readings of `seen` are boards of their own, not boards joined with squares
        seen before and merged (`_merge_aside`): the deeper searches' run (`DEEP_RUN`) counts those
        alone.  Counted, the joined boards of an arm resting over the board at quick play ran
        the run out before the board it left was searched, and the record stopped after 15
        plies (the system bench's selfplay-16 at seed 7474002)."""
        return len(self.seen) - sum(1 for o in self.seen if id(o) in self._patched)

    def _glimpse(self, obs: Observation) -> None:
        """Keep a board read whole in passing that the arbiter only looked again at (`_glimpsed`),
        the oldest going first beyond `RECOVERY_READINGS`."""
        self._glimpses.append(obs)
        del self._glimpses[:-RECOVERY_READINGS]

    def _sight(self, settled: Settled) -> None:
        """Keep the frame each square of ``settled`` was first seen lifted or placed on, and the
        last it was seen clearly unchanged on."""
        for kind, squares, frames in (("lifted", settled.lifted, settled.lifted_at),
                                      ("placed", settled.placed, settled.placed_at)):
            if len(frames) != len(squares):
                continue
            for sq, frame in zip(squares, frames):
                if frame < _NEVER_SEEN:
                    key = (kind, sq)
                    self._sighted[key] = min(frame, self._sighted.get(key, frame))
        for kind, last in (("open", settled.open_last), ("stood", settled.stood_last)):
            for sq, frame in last:
                key = (kind, sq)
                self._sighted[key] = max(frame, self._sighted.get(key, frame))

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
        self._patched = set()
        self._aside = []
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

    def _take(self, touched: list[int], position: Position, move: Move, after: Position,
              when: float | None, uncrowned: int | None = None,
              crowned: bool = False) -> tuple[list[Event], bool]:
        """A legal move read on the board: the squares ``touched`` (the camera saw them lifted)
        count as touched (Art. 15), then the move is recorded, unless it breaks touch-move
        (`_touch_breach`: the breach's events, nothing recorded).  ``crowned``: the crown the
        arbiter waited for was put on with the move.  The events and whether it was recorded."""
        self._touch(touched)
        breach = self._touch_breach(position, move, when)
        if breach is not None:
            return breach, False
        if crowned:
            self.uncrowned = None
        return self._record(move, after, when, uncrowned=uncrowned), True

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
        second: tuple[Event, ...] = ()
        if doubtful and not self._left_steadily(obs, base, board, doubtful):
            chosen = self._second_choices(obs, board, doubtful)
            if chosen is None:
                return (LookAgain(self.game.ply, when, "the squares that changed are not read clearly",
                                  tuple(doubtful)),)
            board, said = chosen
            second = (self._comment(said, when),)
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
        # the deeper searches spent (`DEEP_RUN`) on boards play can leave: it is said once that
        # the record stops, rather than looking again on every board for good (at quick play no
        # board is read five times in a row)
        spent = (several and self._still_readings() >= DEEP_RUN[1]
                 and (bool(self._untold) or _played_on(base, board)))
        if (self.pending is None and finding is not None and finding.seen is None
                and finding.kind is IrregularityKind.UNKNOWN and not spent
                and self._read_in_a_row(obs) < (DEEP_READINGS if several else 2 if beside else 0)):
            # No single act explains it.  More squares changed than one act changes, or only
            # pieces of both sides gone (as exchanges leave the board): several moves of both
            # sides, perhaps, on a board read once, with a square misread that
            # keeps the search from explaining it (a hand leaving over it), or more plies on
            # than a short search reaches: read again (`STALL_READINGS` times, then searched
            # further) before anything is named.  Fewer, but taken beside a hand or an arm at
            # rest: read a second time.
            return (LookAgain(self.game.ply, when, LONG_LINE if several else UNEXPLAINED, changed),)
        if (self.pending is None and finding is not None and finding.seen is not None
                and not self._quick_only and self._unread(obs) > RECOVERY_UNSURE
                and self._read_in_a_row(obs) < STALL_READINGS
                and not self._single_act(position._state, obs)):
            # a far act on a board whose unclear squares kept recovery to a quick reply: the
            # longer lines of legal moves that may give it are searched once it is read clearly
            return tuple(events) + (LookAgain(self.game.ply, when, UNCLEAR_FOR_LINES, changed),)
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
        if self.pending is None and finding.seen is None and finding.kind is IrregularityKind.UNKNOWN:
            if self._untold:
                # no irregularity: legal moves not seen, in an order (or by routes) the board
                # cannot tell
                untold = self._untold[:3] + (("...",) if len(self._untold) > 3 else ())
                return tuple(events) + self._lose_track(
                    board, finding, "the board went on by moves not seen one by one, and it does "
                                    f"not tell which: {' or '.join(untold)}", when)
            if several and _played_on(base, board):
                # Many squares changed, pieces of both sides moved, none came from outside the
                # board: as play leaves it, more moves on than the search reaches.  Naming that
                # Art. 27 ("several pieces moved, put them back") accuses players of what the
                # camera missed: at quick play an arm rested across the board for half a
                # minute, eleven plies went by unseen, and the first board seen after them was
                # named so (the other renderer's selfplay-25 at seed 5151004).
                return tuple(events) + self._lose_track(
                    board, finding, f"{len(changed)} squares changed by moves the camera did not "
                                    "see, more than it can work out", when)
        self.pending = Pending(board, _standing_position(position, board, finding), finding.kind,
                               finding.seen, f"{finding.message} ({finding.kind.article})", finding.color)
        events.append(Irregularity(self.game.ply, when, finding.kind, finding.color, finding.message,
                                   finding.remedy, finding.square,
                                   finding.seen.long_text() if finding.seen else None,
                                   finding.legal, finding.changes))
        return tuple(events) + second

    def _left_steadily(self, obs: Observation, base: dict[int, Piece], board: dict[int, Piece],
                       doubtful: list[int]) -> bool:
        """Whether the act's unsure squares (``doubtful``) are only squares it left, each read
        empty at `LIKELY_KIND` or more, on a board read alike `LEFT_STEADILY` times in a row with
        nothing open, where a piece of the side that left them stands, read surely, on a square
        that was empty: a human arbiter reads the piece moved.  Black's man 13 moved to 19 out of
        turn (Art. 27a) in a dim room, black men the colour of the dark squares: 19 read a black
        man at 0.97, the emptied 13 empty at 0.81-0.87 on six readings in a row, and the move
        was never named (the system bench's selfplay-15 at seed 8282003, injected at ply 12).
        A square read empty alone, with no piece put down anywhere, stays unsure: a man in the
        shade, read empty so, is no man taken off."""
        if self.pending is not None or self._read_in_a_row(obs) < LEFT_STEADILY:
            return False
        sides = set()
        for sq in doubtful:
            r = obs.reading(sq)
            if r.occluded or board.get(sq) is not None or base.get(sq) is None \
                    or r.kind_confidence < LIKELY_KIND:
                return False
            sides.add(base[sq].color)
        return any(board.get(sq) is not None and base.get(sq) is None and sq not in doubtful
                   and board[sq].color in sides for sq in board)

    def _second_choices(self, obs: Observation, board: dict[int, Piece], doubtful: list[int]
                        ) -> tuple[dict[int, Piece], str] | None:
        """The board with each unsure changed square (``doubtful``) read as its second choice
        of another kind (empty, or a piece of the other colour), and what the scoresheet says of
        it, when a human arbiter would read it so: nothing is open, the board was read alike
        `SECOND_CHOICE_READINGS` times in a row, every such square is unsure of its kind (not
        only of man or king) with a second choice at `SECOND_CHOICE_SHARE` or more, the board as
        read is no one act (`IrregularityKind.UNKNOWN`) and with the second choices it is one act
        of a named article.  None otherwise (the arbiter looks again)."""
        if self.pending is not None or self._read_in_a_row(obs) < SECOND_CHOICE_READINGS:
            return None
        as_read = classify(self.position, board)
        if as_read is not None and as_read.kind is not IrregularityKind.UNKNOWN:
            return None
        other = dict(board)
        taken = []
        for sq in doubtful:
            r = obs.reading(sq)
            if r.occluded or sure_of_kind(r):
                return None
            kind = _kind(r.content)
            choices = [c for c in CONTENTS if _kind(c) != kind]
            choice = max(choices, key=r.probability)
            if r.probability(choice) < SECOND_CHOICE_SHARE:
                return None
            if choice is None:
                other.pop(sq, None)
            else:
                other[sq] = choice
            taken.append(f"square {sq} taken as {_named(choice)} (read as {_named(r.content)} "
                         f"at {r.confidence:.2f})")
        finding = classify(self.position, other)
        if finding is None or finding.kind is IrregularityKind.UNKNOWN:
            return None
        return other, (f"read unsurely: {', '.join(taken)}, the one act that explains the "
                       f"board ({finding.kind.article})")

    def _lose_track(self, board: dict[int, Piece], finding: Finding, message: str,
                    when: float | None) -> tuple[Event, ...]:
        """Say once that the record stops here (`LostTrack`), and follow the board as an open
        irregularity that cannot stand is followed (`Root.AS_SEEN`): put back as the record
        has it, or gone on from it by a line the arbiter can find, the record goes on."""
        last = self.game.move_texts()[-1] if self.game.moves else None
        after = f"after {last}" if last else "at the start"
        remedy = (f"to go on recording, put the pieces back as {after}; or write the moves down "
                  "by hand and begin the record again from this board")
        self.pending = Pending(board, None, None, None, f"lost track {after}: {message}",
                               finding.color, lost=True)
        return (LostTrack(self.game.ply, when, message, remedy, last, finding.changes),
                self._comment(f"the companion lost track {after}: {message}", when))

    def _resolve(self, how: str, when: float | None) -> list[Event]:
        pending = self.pending
        self.pending = None
        kind = pending.kind
        events: list[Event] = []
        if kind is not None:
            events.append(IrregularityResolved(self.game.ply, when, kind, how))
        said = pending.summary if pending.lost else f"{pending.color}: {pending.summary}"
        events.append(self._comment(f"{said}; {how}", when))
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


def _alike(a: Observation, b: Observation) -> bool:
    """Whether two readings read the board alike: every square the same, but where only
    whether a piece is a man or a king differs and one of the two is unsure of it (under
    `KING_CONFIDENT`).  Where the camera cannot tell kings, a man read a king at 0.64 on one
    reading of four broke the board's run: it was never read four times in a row, never
    searched beyond six plies, and a game whose first still board came seven plies on recorded
    nothing (the other renderer's selfplay-26 at seed 4343005)."""
    return all(ra.symbol == rb.symbol or (_kind(ra.content) == _kind(rb.content)
                                          and min(ra.confidence, rb.confidence) < KING_CONFIDENT)
               for ra, rb in zip(a.squares, b.squares))


def _kind(content: Piece | None) -> Color | None:
    """What a square holds in kind: a piece's colour (man or king alike), or None for empty."""
    return None if content is None else content.color


def _named(content: Piece | None) -> str:
    return "empty" if content is None else f"a {name(content)}"


def _changes_of(candidates: Sequence[Candidate], key) -> dict:
    """The changes of the candidate whose key is ``key`` (none when no candidate has it)."""
    return next((c.changes for c in candidates if c.key == key), {})


def _legal_play(events) -> bool:
    """Whether judging a board brought about legal play alone: a move recorded, and nothing
    but what a provisional board may bring about (`_PROVISIONAL_EVENTS`)."""
    return any(isinstance(e, MovePlayed) for e in events) \
        and all(isinstance(e, _PROVISIONAL_EVENTS) for e in events)


def _stuck(events) -> bool:
    """Whether judging a board recorded nothing and named nothing: it only looked again."""
    return bool(events) and all(isinstance(e, LookAgain) for e in events)


def _wants_another_reading(events) -> bool:
    """Whether judging a board said only that it may be several plies on (`LONG_LINE`)."""
    return len(events) == 1 and isinstance(events[0], LookAgain) and events[0].reason == LONG_LINE


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


def _played_on(base: dict[int, Piece], board: dict[int, Piece]) -> bool:
    """Whether ``board`` may be ``base`` several plies on: no side has more pieces than it had
    (`_gained`), and pieces of both sides left or reached squares."""
    if _gained(board, base):
        return False
    changed = changes_between(base, board)
    sides = {p.color for sq in changed for p in (base.get(sq), board.get(sq)) if p is not None}
    return sides == {Color.WHITE, Color.BLACK}


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
