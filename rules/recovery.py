"""Recovery by legal play: the arbiter's search for the moves that lead from the last recorded
board to a board several plies on (DESIGN.md "The arbiter"; RULES.md "On the physical board").

A quick reply, plies missed at quick play, a board misread once or put right unseen: every still
reading since the last recorded move is evidence (`Arbiter.seen`), lines of legal moves are
searched from it (`rules.lines`), and the moves are recorded as soon as the readings explain
them; lines that give the same board are told apart by what the camera saw on the way (pieces
seen lifted and placed, boards read in passing), never guessed.  `Recovery` is a part of
`rules.arbiter.Arbiter` (its state is the arbiter's); the helpers here judge lines and
readings.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from rules.errors import FenError
from rules.events import CrownPending, Event, Irregularity, IrregularityKind, LookAgain, MovePlayed
from rules.game import Game
from rules.irregularities import Finding, classify, name
from rules.lines import Budget, Line, Root, Searches, SureKinds, Trail
from rules.matching import (KING_CONFIDENT, LIKELY_KIND, Candidate, Scorer, changes_between,
                            sure_of_kind)
from rules.move import Move
from rules.observation import Observation, Settled, SquareReading
from rules.piece import Color, Piece
from rules.position import Position
from rules.squares import promotion_row, row

if TYPE_CHECKING:
    from rules.arbiter import Pending


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

#: A board that no line of `STALL_PLIES` explains, read yet again (`DEEP_READINGS` times in a
#: row) while nothing is open, is searched once more: up to `DEEP_PLIES` plies on, with
#: `DEEP_WORK`, once per board.  At quick play an arm rested across the board for half a minute
#: and ten plies went by unseen; the first still board after them was beyond every search (the
#: other renderer's selfplay-25 at seed 5151004).  The same readings support the longer line
#: (`_supported`: twelve plies need six, as many as the service reads a board while the arbiter
#: looks again); what this search does not explain the arbiter says it lost track of
#: (`rules.events.LostTrack`).  Costs on a desktop core, selfplay-25's positions with every square
#: read surely and no cap: ten plies on 0.1-1 s, eleven 0.5-3 s, twelve 1-5.5 s (2.4 and 4
#: million units); the whole deep reading of a real game's board 9-15 plies on took 0.1-0.75 s.
#: A Raspberry Pi takes 3-5 times as long, once for such a board (`bench.arbiter --recovery
#: --depths 10,12`).
DEEP_READINGS = STALL_READINGS + 1

#: Still readings with nothing recorded, from the first to the last searched as deep as one
#: board read `DEEP_READINGS` times (excluded): boards read one after another are evidence on
#: the way as repeats of one board are (`Recovery._recover`).  Once they are spent, a board play
#: can leave is said once to be beyond the record (`rules.events.LostTrack`).
DEEP_RUN = (2 * DEEP_READINGS, 3 * DEEP_READINGS)

DEEP_PLIES = 12

DEEP_WORK = 4_000_000

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

#: `Arbiter._near_lines`' answer for a board one irregular act from the recorded position.
_AS_IT_STANDS = object()

_NO_LINE = object()  # no line ends on the board (`Arbiter._lines_through`)


class Recovery:
    """The arbiter's recovery by legal play (see the module docstring); mixed into
    `rules.arbiter.Arbiter`, whose state and recording it uses."""

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
        in_a_row = self._read_in_a_row(obs)
        stalled = (not self._quick_only and unread <= RECOVERY_UNSURE
                   and (in_a_row >= STALL_READINGS or self._still_readings() >= 2 * STALL_READINGS))
        # searched deeper: this board read again and again, or boards read one after another
        # for as long with nothing recorded, each of them evidence on the way (at quick play
        # under an arm lying across the board, ten plies went by unseen, and then every board
        # was read once to three times before the next move: none was ever read five times,
        # and the record stopped for good: the system bench's selfplay-26 at seed 6464000).
        # Only for the first `DEEP_READINGS` of them: each new board costs a deep search of its
        # own (1-3 s on a desktop core, 3-5 times as long on a Raspberry Pi), and the later
        # boards lie only further beyond the record
        deep = stalled and self.pending is None and (
            in_a_row >= DEEP_READINGS or DEEP_RUN[0] <= self._still_readings() < DEEP_RUN[1])
        budget = Budget(DEEP_WORK if deep else STALL_WORK if stalled else RECOVERY_WORK)
        most = DEEP_PLIES if deep else STALL_PLIES if stalled else RECOVERY_PLIES
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
                                        max(count, in_a_row), sure, budget)
            if found is not _NO_LINE:
                return found
        if self._quick_only:
            return None
        # an irregular act after more plies than `STALL_PLIES` unseen would be a guess on a
        # guess: the deeper search (`DEEP_PLIES`) looks for legal play alone; a board too unclear
        # for a long line (`quick`) is none for a long line with an act on top of it either:
        # 44-40 9-14 40x18 and then the man on 45 moved to 44 out of
        # turn (Art. 27a) was found on a board read with four squares under a hand, where
        # 45-40 9-14 40x18 was played (the system bench's lidraughts-3 at seed 7272003)
        near = self._quick([(root, start, before, trail, min(most, STALL_PLIES))
                            for root, start, before, trail, most in trails], quick)
        return self._near(obs, base, near, count, budget, when)

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
        them down in the order first seen (`_placed_before`), or of several that do, the only
        one whose moves the sightings' frames allow (`_timeline_allows`); else the only one
        the frames of the sightings allow (`_seen_in_order`); else, when no line puts a piece
        on every such square, the only one
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
            order = [sq for sq in lands(line) if sq in seen and landed[sq] == 1]
            return not any(self._placed_before(later, sq, seen)
                           for i, sq in enumerate(order) for later in order[i + 1:])

        # the squares first; the order they were first seen in only between lines that put
        # pieces on the same squares (a piece put down beside a resting hand is seen late)
        covering = [entry for entry in tied if covers(entry[0])]
        fitting = covering if len(covering) < 2 else [entry for entry in covering if in_order(entry[0])]
        if len(fitting) == 1:
            return fitting[0]
        if len(fitting) > 1:
            # of several in that order, the only one whose moves the sightings' frames allow
            timely = [entry for entry in fitting if self._timeline_allows(entry[0])]
            if len(timely) == 1:
                return timely[0]
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

    def _placed_before(self, square: int, other: int, seen: dict[int, int]) -> bool:
        """Whether the camera saw a piece put down on ``square`` before one on ``other``: first
        seen holding it earlier (``seen``: the order of first sightings), and, when the
        watcher says on which frames (`Settled.placed_at`, `open_last`), ``other`` seen
        clearly empty after that.  A square under the hand is seen holding its piece late: at
        blitz 12-18 34-29 6-11 was recorded as 6-11 34-29 12-18, 18 first seen holding its man
        after 11, yet never seen empty after 11 was put down (the system bench's selfplay-22
        at seed 7474009)."""
        at, other_at = self._sighted.get(("placed", square)), self._sighted.get(("placed", other))
        if at is None or other_at is None:
            return seen[square] < seen[other]
        return at < other_at and self._sighted.get(("open", other), -1) >= at

    def _seen_in_order(self, tied: list[tuple[Line, "Trail", int]]
                       ) -> tuple[Line, "Trail", int] | None:
        """Of lines that give the same board, the only one whose order the frames allow that
        the camera saw their pieces lifted and put down on (`_sighted`): a move seen done (its
        piece seen lifted and seen put down) while another move's piece was still seen standing
        (`Settled.stood_last`) came before it.  Six plies under hovering hands, first seen
        still at their end: 1-7 was seen done while 40 and 14 still stood, yet 40-35 14-19
        44-39 1-7 50-44 10-14 was recorded for 44-39 1-7 40-35 14-19 50-44 10-14 (the other
        renderer's selfplay-18 at seed 47006).  A square that the line lifts from, or puts a
        piece on, twice tells nothing.  None when no line, or more than one, fits."""

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
            # a move seen done while the piece of a move the line has before it was still seen
            # standing came before that one; a piece first seen lifted later may only have been
            # under the hand (`_placed_before`)
            seen = sightings(line)
            movers = [move.from_square for move, _ in line.moves]
            return not any(lift is not None and done is not None and done < lift
                           and self._sighted.get(("stood", movers[i]), -1) >= done
                           for i, (lift, _) in enumerate(seen) for _, done in seen[i + 1:])

        if len(tied) < 2 or not self._sighted:
            return None
        fitting = [entry for entry in tied if allowed(entry[0])]
        return fitting[0] if len(fitting) == 1 else None

    def _timeline_allows(self, line: Line) -> bool:
        """Whether the moves of ``line`` can have been made, one after another, at frames the
        sightings (`_sighted`) allow.  Each move lifts its piece, then puts it down; the next
        is lifted no sooner.  A piece last seen standing on its first square (``stood``) was
        lifted after that frame, and first seen lifted (``lifted``) by then, unless it was
        seen standing later (a lift taken from a hand over it); a square last seen empty
        (``open``) before the move put its piece down was landed on after that frame, and
        first seen holding the piece (``placed``) by then.  Only squares the line lifts from,
        or lands on, once and never the other way are judged: the sightings of a square the
        line empties and fills again may be of either piece.  Seven plies at quick play, first
        seen still at their end: 22 was seen holding its man at frame 348 and 10 standing at
        420, yet 10-15 36-31 17-22 41-36 11-17 50-44 19-24 was recorded for 17-22 36-31 11-17
        41-36 10-15 50-44 19-24 (the other renderer's selfplay-6 at seed 6262001)."""
        moves = [move for move, _ in line.moves]
        lifted = Counter(m.from_square for m in moves)
        landed = Counter(m.to_square for m in moves if m.to_square != m.from_square)
        seen = self._sighted
        placed_by = -1  # the frame by which the move before was put down, at the earliest
        for m in moves:
            lift = placed_by
            frm, to = m.from_square, m.to_square
            if lifted[frm] == 1 and frm not in landed:
                stood = seen.get(("stood", frm))
                if stood is not None:
                    lift = max(lift, stood + 1)
                first_lifted = seen.get(("lifted", frm))
                if first_lifted is not None and (stood is None or stood < first_lifted) \
                        and lift > first_lifted:
                    return False
            down = lift
            if to != frm and landed[to] == 1 and to not in lifted:
                open_last = seen.get(("open", to))
                if open_last is not None:
                    down = max(down, open_last + 1)
                first_placed = seen.get(("placed", to))
                if first_placed is not None and down > first_placed:
                    return False
            placed_by = down
        return True

    def _unseen_alike(self, tied: list[tuple[Line, "Trail", int]], obs: Observation,
                      count: int, when: float | None) -> tuple[Event, ...] | None:
        """Lines that give the same board: the same moves in another order (a transposition),
        or other moves (a king's route, 2-8-21 or 2-16-21; a man's 12-7 or 12-8 before a king
        took it).  Which was played the camera did not see, but when every such line ends in the
        same position (the same pieces, side to move and counters, Art. 17 and 18), the game
        goes on from it the same whichever it was.  Rather than stall for the rest of the game
        (a king endgame's route at quick play: the players were asked to replay three moves,
        and nothing was recorded again), the arbiter records, of the lines whose order the
        frames of the sightings allow (`_timeline_allows`) when there are any, the one that
        lifts the pieces in the order the camera saw them lifted (else the first in notation
        order) and writes on
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
            # a line the frames of the sightings allow first (`_timeline_allows`)
            line = entry[0]
            firsts = [seen.get(move.from_square, len(seen)) for move, _ in line.moves]
            return (not self._timeline_allows(line),
                    sum(a > b for i, a in enumerate(firsts) for b in firsts[i + 1:]),
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
            fewest = found[0][0] if found else None
            if (self._unplaced(fewest, obs) or self._unlifted(fewest, obs)) and total < longest:
                # The camera saw a piece put down where the fewest plies and their act leave
                # none, or lifted where they move none: one ply more, the opponent's act after
                # it, may be what it saw (`_placed_later`); else the fewest stand.
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

    def _unlifted(self, line: Line | None, obs: Observation) -> set[int]:
        """The squares the camera saw a piece lifted from on the way (`Settled.lifted`) that
        neither ``line`` (None: no move) nor the act after it moves a piece from or captures on,
        and that hold a piece at its end and on the board as read: a piece lifted there and a
        piece put there again, which the line and the act do not explain."""
        moved: set[int] = set()
        for move, _ in line.moves if line is not None else ():
            moved |= {move.from_square, *move.captured}
        end = (line.end if line is not None else self.position).pieces()
        board = _plain_reading(obs, end)
        return {sq for sq in self._lifted_seen
                if sq not in moved and sq in end and board.get(sq) is not None}

    def _placed_later(self, obs: Observation, trails: list, total: int, sure: SureKinds,
                      budget: Budget, count: int) -> tuple[Line, Trail, int] | None:
        """The one line ``total`` plies on, with the opponent's act after it (Art. 27a), that
        puts a piece on every square the camera saw one put down on in passing, and moves one
        off every square it saw one lifted from, where the fewer plies before it did not: black
        replied 25-30 at blitz and white, instead of moving, moved that man on to 34; the man
        was seen put down on 30, yet black was said to have moved 25-34 (Art. 27d) and the
        wrong player named (the system bench's selfplay-55 at seed 2727002).  Black played 7-12
        at blitz and moved 2-7 out of turn; 7 was seen lifted, yet "the man on 2 to 12" was
        named (Art. 27d) for the injected Art. 27a (the system bench's selfplay-30 at seed
        8585002).  None when no line, or more than one, does."""
        found = self._near_lines(obs, trails, total, sure, budget, count)
        if not found or found is _AS_IT_STANDS:
            return None
        fitting = []
        for entry in found:
            line = entry[0]
            act = classify(line.end, _as_placed(obs, line.end.pieces()))
            if act is not None and act.kind is IrregularityKind.OPPONENT_PIECE \
                    and not self._unplaced(line, obs) and not self._unlifted(line, obs):
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
        followed = (Trail.at(self.position._state),)
        passed = False  # a line from the recorded position passed the open irregular board
        for group in earlier:
            # (as far as this board may be: at blitz the first board seen after a long gap is
            # an earlier reading by the time the board has stood long enough to be searched
            # further, and followed no further than a short gap it fitted nothing)
            before = max(trail.support for trail in followed)
            followed = self._follow(followed, group, budget, most)
            if pending is not None and group.first <= self.pending_at <= group.last:
                passed = max(trail.support for trail in followed) > before
        trails = [(Root.RECORDED, self.position, 0, trail, self._most(trail, last.obs, most))
                  for trail in followed]
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
        followed = (Trail.at(start._state, support=at),)
        for group in earlier:
            if group.first > self.pending_at:
                followed = self._follow(followed, group, budget, most)
        # the irregular move is a ply
        entries = [(root, start, 1, trail, self._most(trail, last.obs, most)) for trail in followed]
        if root is Root.STANDS:
            trails[:0] = entries
        else:
            trails.extend(entries)
        return count, trails

    def _follow(self, trails: tuple[Trail, ...], group: "_Group", budget: Budget,
                most: int = RECOVERY_PLIES) -> tuple[Trail, ...]:
        """The trails after a still reading (read ``group.count`` times in a row), at most
        ``most`` plies on (`Trail.follow`: the fewest plies that fit it, and one more); a
        reading with too many squares read unsurely is no evidence.  A trail that did not fit
        the reading is dropped when another did (a line one ply longer that misses a board is
        no likelier than the one that fits it); of those whose plies have the same parity (the
        same side to move) the one of fewer plies is kept, then the one followed from the trail
        of fewer plies: so there are never more than two."""
        if self._unread(group.obs) > RECOVERY_UNSURE:
            return trails
        out: dict[int, Trail] = {}
        for trail in trails:
            for on in trail.follow(group.sure, group.count, self._most(trail, group.obs, most),
                                   self.searches, budget):
                kept = out.get(on.plies % 2)
                if kept is None or (on.loose, on.plies) < (kept.loose, kept.plies):
                    out[on.plies % 2] = on
        least = min(trail.loose for trail in out.values())
        return tuple(sorted((t for t in out.values() if t.loose == least), key=lambda t: t.plies))

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


def _left(line: Line) -> dict[int, tuple[int, ...]]:
    """The squares ``line``'s movers left that its end leaves empty and on which it captured
    nothing, each with the squares its move captured (`Arbiter._doubt`)."""
    end = line.end.pieces()
    captured = {sq for move, _ in line.moves for sq in move.captured}
    return {move.from_square: tuple(move.captured) for move, _ in line.moves
            if move.from_square not in end and move.from_square not in captured}


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


def _named(finding: Finding | None) -> bool:
    """Whether a finding names one piece's move by its article (Art. 8, 10-12, 17, 27a, 27b,
    27d).  A piece gone, or a man read as a king, is not: that is how a misreading looks."""
    return finding is not None and finding.kind is not IrregularityKind.UNKNOWN \
        and finding.seen is not None


def _near_most(trail: Trail, most: int, count: int) -> int:
    """The most plies of legal moves `Arbiter._near` puts before an irregular act on this
    board: a quick reply's (`QUICK_PLIES`, one more for each board that fitted nothing), or up
    to ``most`` as readings of the board support (`_supported`).  Three quick plies, then black
    moving a white man (Art. 27a), first seen still at their end and read four times, were
    named "pieces of both sides moved" (the system bench's selfplay-43 at seed 2828007)."""
    quick = QUICK_PLIES + trail.loose
    return max((p for p in range(quick + 1, most + 1) if _supported(trail, p, count)), default=quick)


def _shortest(root: Root, trail: Trail) -> int:
    """The fewest plies from a trail's ends to this board: a line from the recorded position,
    or from an irregular move that stands, of one ply is a candidate of its own already (a move,
    a reply); from a board that cannot stand, one ply; from a reading that fitted, none."""
    if trail.anchored:
        return 0
    return 1 if root is Root.AS_SEEN else 2


def _side(piece: Piece | None) -> Color | None:
    """A square's kind as the colours tell it: None for empty, else the piece's side."""
    return None if piece is None else piece.color


def _supported(trail: Trail, plies: int, count: int) -> bool:
    """Whether readings enough fit a line that ends ``plies`` after the trail's ends on a board
    read ``count`` times: each stretch between two readings that fit it beyond `QUICK_PLIES`
    (one more for each reading between them that fitted nothing) is a gap, and the plies of the
    gaps beyond that allowance need one reading each `PLIES_PER_READING`, besides the first."""
    stretches = trail.segments + ((plies, trail.loose),)
    beyond = sum(max(0, p - QUICK_PLIES - loose) for p, loose in stretches)
    return trail.support + count >= 1 + math.ceil(beyond / PLIES_PER_READING)


def _taken(line: Line) -> frozenset[int]:
    """The squares ``line``'s captures took pieces from that its end leaves empty
    (`Arbiter._doubt`)."""
    end = line.end.pieces()
    return frozenset(sq for move, _ in line.moves for sq in move.captured if sq not in end)


def _two_lines(decision) -> tuple[tuple | None, tuple | None]:
    """The keys of the best two lines of a `_lines_through` decision, when it has two distinct
    ones (`_seen_placed`, `_glimpsed`); else (None, None)."""
    best, rival = decision.best, decision.runner_up
    if best is None or rival is None or best[0] != "line" or rival[0] != "line" \
            or best[1] == rival[1]:
        return None, None
    return best, rival


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
    close = decision.close
    if not close:  # the reading clear, or explained by no board
        return None
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


def _as_seen(pending: Pending) -> Position | None:
    """The board of an irregularity that cannot stand as a position, the other side to move, men
    on the far row crowned and no counters (None if even so it is no position)."""
    pieces = {sq: Piece(p.color, True) if sq in promotion_row(p.color is Color.WHITE) else p
              for sq, p in pending.board.items()}
    try:
        return Position.setup(pieces, pending.color.other)
    except FenError:
        return None
