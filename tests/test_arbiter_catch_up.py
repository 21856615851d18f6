"""Catching up after quick play (issue 15, "never stall").

With a real camera several plies often pass between two still boards.  The arbiter keeps every
still reading since its last recorded move as evidence and searches lines of legal moves through
them (`Arbiter._recover`): a board a quick reply on is recorded at once (Art. 22: every move on
the scoresheet), a longer gap once readings enough fit it, the service reading the board again
while the arbiter looks again.  What recovery must never do is guess: a transposition stays
unrecorded, and an irregular board (Art. 27) is named with its article, never explained away by
moves nobody saw.  What it cannot explain it says once.  A legal move undone by hand is taken back.

Boards come from real games in tests/data (lidraughts game 3 and 1), as a camera reads them
(`tests.helpers.settled`).  Each test names the article it checks.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from pathlib import Path

import pytest

from rules.arbiter import GAINED, UNCLEAR_FOR_LINES, UNEXPLAINED, Arbiter
from rules.recovery import (CAUGHT_UP, DEEP_PLIES, DEEP_READINGS, LONG_LINE, ORDER_UNSEEN,
                            PLIES_PER_READING, QUICK_PLIES, RECOVERED, RECOVERY_PLIES, ROUTE_UNSEEN,
                            STALL_PLIES, STALL_READINGS, STEADY_READINGS)
from rules.events import (Irregularity, IrregularityKind, IrregularityResolved, LookAgain,
                          LostTrack, MovePlayed, MoveTakenBack, ScoresheetComment, TouchMove)
from rules.game import Game
from rules.matching import changes_between
from rules.observation import SquareReading
from rules.pdn import read_file
from rules.piece import BLACK, WHITE, Piece
from rules.position import Position
from tests.helpers import settled

DATA = Path(__file__).parent / "data"
BLACK_MAN = Piece(BLACK, False)
K = IrregularityKind
GAMES = [r.game for r in read_file(str(DATA / "lidraughts-frisian.pdn"))]
#: lidraughts game 3 from ply 10 on: 31x11 7x16 33-29 24x33 34x32 14-20 32-27 12-17 ...
REAL = GAMES[2]
AT = 10
#: lidraughts game 1 from ply 15 on: 7-12 39-34 1-7 34-30 15-20 30-25, quiet moves that the
#: board six plies on does not tell apart from other orders.
QUIET, QUIET_AT = GAMES[0], 15
SELFPLAY = [r.game for r in read_file(str(DATA / "selfplay.pdn"))]


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def texts(events) -> list[str]:
    return [e.text for e in of(events, MovePlayed)]


def recorded_up_to(game: Game, ply: int) -> Arbiter:
    """An arbiter that recorded ``game`` up to ``ply`` plies (the boards seen clearly)."""
    arb = Arbiter(Game(start=game.start))
    for move, after in zip(game.moves[:ply], game.positions[1:ply + 1]):
        arb.game.push(move, after)
    return arb


def board(ply: int, game: Game = REAL) -> dict[int, Piece]:
    return game.positions[ply].pieces()


def readings_needed(plies: int) -> int:
    """How many readings of one board a gap of ``plies`` needs (`rules.recovery._supported`)."""
    return 1 + math.ceil(max(0, plies - QUICK_PLIES) / PLIES_PER_READING)


def finish(arb: Arbiter, ply: int, game: Game = REAL, upto: int | None = None) -> None:
    """Show the rest of the real game clearly, one board per move, from ``ply`` plies on."""
    for later in range(ply + 1, (upto or game.ply) + 1):
        events = arb.observe(settled(board(later, game)))
        assert texts(events) == [game.move_texts()[later - 1]], [str(e) for e in events]


# -- a gap of missed plies: Art. 22, every move on the scoresheet ---------------------------------

@pytest.mark.parametrize("gap", [3, 4, 5, 6])
def test_a_gap_of_missed_plies_is_caught_up_from_readings_of_one_board_art_22(gap):
    # The camera saw no still board for `gap` plies; the board it then sees is read again while
    # the arbiter looks again (the service re-sends it).  Each reading is evidence: the moves
    # are recorded, in order, once readings enough fit them; until then it looks again, and
    # never calls the board an irregularity.
    arb = recorded_up_to(REAL, AT)
    seen = settled(board(AT + gap))
    needed = readings_needed(gap)
    assert needed <= 3                                        # "after at most a few readings"
    for _ in range(needed - 1):
        events = arb.observe(seen)
        assert [e.reason for e in of(events, LookAgain)] == [LONG_LINE], [str(e) for e in events]
        assert not of(events, Irregularity) and arb.game.ply == AT
    events = arb.observe(seen)
    assert texts(events) == REAL.move_texts()[AT:AT + gap]
    assert not of(events, Irregularity) and arb.pending is None
    assert any(CAUGHT_UP in c.text for c in of(events, ScoresheetComment))
    finish(arb, AT + gap, upto=AT + gap + 6)
    assert arb.game.move_texts() == REAL.move_texts()[:AT + gap + 6]


def test_a_quick_reply_is_still_recorded_at_once_art_22():
    arb = recorded_up_to(REAL, AT)
    events = arb.observe(settled(board(AT + QUICK_PLIES)))
    assert texts(events) == REAL.move_texts()[AT:AT + QUICK_PLIES]
    assert not of(events, ScoresheetComment)


def left_alone(plies: int, squares, occupied: bool) -> list[int]:
    """The first five of ``squares`` that the game's ``plies`` from `AT` leave alone, holding a
    piece after them (``occupied``) or empty."""
    after = board(AT + plies)
    touched = {sq for sq in range(1, 51) if board(AT).get(sq) != after.get(sq)}
    return [sq for sq in squares if (sq in after) == occupied and sq not in touched][:5]


def test_a_quick_reply_is_recorded_though_squares_it_left_alone_cannot_be_read_art_22():
    # A glare over the middle of the board (or a set whose pieces look like the squares): five
    # empty squares the two moves did not touch are read only as likely empty.  A quick reply is
    # judged as one move is, whatever cannot be read: it fits every square that can, and no
    # other line does, so it is recorded at once; it was called an irregular move (Art. 27)
    # because too many squares were unsure for any catch-up.
    arb = recorded_up_to(REAL, AT)
    after = board(AT + QUICK_PLIES)
    unread = left_alone(QUICK_PLIES, range(21, 31), occupied=False)
    assert len(unread) == 5
    glare = {sq: SquareReading(None, 0.45, Piece(WHITE)) for sq in unread}
    events = arb.observe(settled(after, readings=glare))
    assert texts(events) == REAL.move_texts()[AT:AT + QUICK_PLIES], [str(e) for e in events]
    assert not of(events, Irregularity)


def test_a_long_gap_is_not_taken_from_a_board_many_squares_of_which_cannot_be_read_art_22():
    # The same unreadable squares are no evidence for a line longer than a quick reply: the
    # arbiter looks again or waits, it records nothing it cannot see.
    arb = recorded_up_to(REAL, AT)
    after = board(AT + 4)
    unread = left_alone(4, range(21, 31), occupied=False)
    glare = {sq: SquareReading(None, 0.45, Piece(WHITE)) for sq in unread}
    for _ in range(4):
        events = arb.observe(settled(after, readings=glare))
        assert not of(events, MovePlayed) and arb.game.ply == AT


def test_a_long_gap_is_caught_up_though_squares_it_left_alone_are_read_only_likely_art_22():
    # A camera nearly above the board reads White's men on his back rows only likely (0.76-0.87),
    # each as it stood, every reading alike; the first still board came five plies on.  Those
    # squares are no evidence against the line, nor for it: the gap is caught up as on a board
    # read clearly, never named Art. 27 (the system bench's selfplay-14 at seed 606017).
    gap = 5
    arb = recorded_up_to(REAL, AT)
    after = board(AT + gap)
    faint = left_alone(gap, range(50, 30, -1), occupied=True)
    assert len(faint) == 5
    likely = {sq: SquareReading(after[sq], 0.8) for sq in faint}
    seen = settled(after, readings=likely)
    for _ in range(readings_needed(gap) - 1):
        events = arb.observe(seen)
        assert [e.reason for e in of(events, LookAgain)] == [LONG_LINE], [str(e) for e in events]
    events = arb.observe(seen)
    assert texts(events) == REAL.move_texts()[AT:AT + gap], [str(e) for e in events]
    assert not of(events, Irregularity)
    assert any(CAUGHT_UP in c.text for c in of(events, ScoresheetComment))


def test_a_long_gap_is_caught_up_though_squares_under_a_glare_read_as_they_stood_unsurely_art_22():
    # A lamp's glare over White's men: five of them, which the line left alone, read as they
    # stood but only at 0.6 (under `STOOD_KIND`), on every reading alike.  Read so by every
    # still reading since the board was accepted, they are the camera's steady limit there, no
    # sign of a hand: the gap is caught up once the readings support it.  Counted as unread,
    # they barred any line longer than a quick reply, and Art. 27 was named on the fourth
    # reading (the system bench's selfplay-23 at seed 1515018: White's 32-27 and Black's reply
    # under a glare, the whole game then named irregular).
    gap = 4
    arb = recorded_up_to(REAL, AT)
    after = board(AT + gap)
    glared = left_alone(gap, range(50, 30, -1), occupied=True)
    assert len(glared) == 5
    seen = settled(after, readings={sq: SquareReading(after[sq], 0.6) for sq in glared})
    events: tuple = ()
    for _ in range(STEADY_READINGS):
        assert not of(events, MovePlayed)
        events = arb.observe(seen)
        assert not of(events, Irregularity), [str(e) for e in events]
    assert texts(events) == REAL.move_texts()[AT:AT + gap], [str(e) for e in events]
    assert any(CAUGHT_UP in c.text for c in of(events, ScoresheetComment))


def test_intermediate_readings_are_evidence_a_gap_of_six_in_two_halves_art_22():
    # A board three plies on is seen once (the arbiter looks again), but the players play on
    # before the board is read again; the next board three plies later is recorded at once:
    # the line passes both readings, each evidence of its half.
    arb = recorded_up_to(REAL, AT)
    events = arb.observe(settled(board(AT + 3)))
    assert of(events, LookAgain) and arb.game.ply == AT
    events = arb.observe(settled(board(AT + 6)))
    assert texts(events) == REAL.move_texts()[AT:AT + 6]


def test_a_gap_longer_than_one_search_is_caught_up_through_a_board_seen_half_way_art_22():
    # Eight plies: more than one board's search reaches (`RECOVERY_PLIES`), but a board seen
    # half way splits them in two stretches of four, each searched from the other's end.
    assert RECOVERY_PLIES < 8
    arb = recorded_up_to(REAL, AT)
    assert of(arb.observe(settled(board(AT + 4))), LookAgain)
    events = ()
    for _ in range(3):
        events = arb.observe(settled(board(AT + 8)))
        if arb.game.ply != AT:
            break
        assert [e.reason for e in of(events, LookAgain)] == [LONG_LINE]
    assert texts(events) == REAL.move_texts()[AT:AT + 8]


def test_an_intermediate_reading_tells_a_transposition_apart_art_22():
    # Six quiet plies: the board they leave is also left by the same moves in another order
    # (Art. 22: the order is the scoresheet's).  Read alone, the position is caught up (the
    # game goes on from it the same whichever order was played) and the scoresheet says the
    # order was not seen ...
    alone = recorded_up_to(QUIET, QUIET_AT)
    comments = []
    for _ in range(5):
        events = alone.observe(settled(board(QUIET_AT + 6, QUIET)))
        comments += [e.text for e in of(events, ScoresheetComment) if ORDER_UNSEEN in e.text]
        assert not of(events, Irregularity)
    assert alone.game.ply == QUIET_AT + 6
    assert alone.position == QUIET.positions[QUIET_AT + 6]
    assert len(comments) == 1
    # ... but a still board seen half way tells the orders apart: the moves as played.
    arb = recorded_up_to(QUIET, QUIET_AT)
    arb.observe(settled(board(QUIET_AT + 3, QUIET)))
    events = arb.observe(settled(board(QUIET_AT + 6, QUIET)))
    assert texts(events) == QUIET.move_texts()[QUIET_AT:QUIET_AT + 6]
    assert not [e for e in of(events, ScoresheetComment) if ORDER_UNSEEN in e.text]


def test_a_transposition_after_a_capture_is_caught_up_with_the_order_unseen_art_22():
    # Engine game 27 from ply 14: 34-29 23x34 35x33 12-18 40-34 6-11, read only at its end
    # (another renderer's quick play).  Black's two quiet moves may have come in either order
    # around 40-34: the same moves, the same position, so it is recorded with the order said
    # unseen.  It was named an irregular move (Art. 27) because the line holds captures,
    # although both orders take the same pieces in the same capture.
    game = SELFPLAY[26]
    assert game.move_texts()[14:20] == ["34-29", "23x34", "35x33", "12-18", "40-34", "6-11"]
    arb = recorded_up_to(game, 14)
    comments = []
    for _ in range(5):
        events = arb.observe(settled(board(20, game)))
        comments += [e.text for e in of(events, ScoresheetComment) if ORDER_UNSEEN in e.text]
        assert not of(events, Irregularity)
    assert arb.game.ply == 20 and arb.position == game.positions[20]
    assert len(comments) == 1 and "23x34" in comments[0]


@pytest.mark.parametrize("route", ["12-7", "12-8"])
def test_a_piece_seen_on_the_way_tells_which_route_was_played_art_22(route):
    # White's man goes 12-7 or 12-8, and black's king takes it sideways, 10x6 (Art. 4, the
    # Frisian capture along the row), before the board is seen still: both lines leave the
    # same position.  Alone it cannot say which: the first in notation order is recorded and
    # the scoresheet says once that the route was not seen, naming the other (the players were
    # asked to replay them, and at quick play nothing was recorded again); the man seen
    # standing on 7 (or 8) beside the hand tells the route, and it is recorded as played.
    start = Position.from_fen("W:W12,25:BK10")
    first = start.parse_move(route)
    after = start.play(first).play(start.play(first).parse_move("10x6"))
    alone = Arbiter(Game(start=start))
    comments = []
    for _ in range(5):
        events = alone.observe(settled(after.pieces()))
        assert not of(events, Irregularity), [str(e) for e in events]
        comments += [e.text for e in of(events, ScoresheetComment) if ROUTE_UNSEEN in e.text]
    assert alone.game.move_texts() == ["12-7", "10x6"] and alone.position == after
    assert comments == [f"{ROUTE_UNSEEN}: 12-7 10x6; or 12-8 10x6"]
    arb = Arbiter(Game(start=start))
    events = arb.observe(settled(after.pieces(), lifted=(12, 10), placed=(first.to_square,)))
    assert texts(events) == [route, "10x6"] and not of(events, Irregularity)
    assert not [e for e in of(events, ScoresheetComment) if ROUTE_UNSEEN in e.text]


def test_the_order_pieces_were_seen_put_down_tells_a_transposition_apart_art_22():
    # Six quiet plies read only at their end: the squares seen holding a piece on the way, in
    # the order seen, are the moves' squares in the order played.
    arb = recorded_up_to(QUIET, QUIET_AT)
    landed = tuple(m.to_square for m in QUIET.moves[QUIET_AT:QUIET_AT + 6])
    for _ in range(5):
        events = arb.observe(settled(board(QUIET_AT + 6, QUIET), placed=landed))
        if arb.game.ply != QUIET_AT:
            break
    assert texts(events) == QUIET.move_texts()[QUIET_AT:QUIET_AT + 6]
    assert not [e for e in of(events, ScoresheetComment) if ORDER_UNSEEN in e.text]


def test_a_square_landed_on_twice_does_not_hide_the_order_the_others_were_seen_in_art_22():
    # Six quiet plies read only at their end (lidraughts game 15 from ply 14: 38-32 8-12 40-34
    # 12-17 34-30 7-12): 12 is landed on twice, so which landing was seen first cannot tell.
    # Counted, every line's order failed and 11-17 7-11 was recorded for 12-17 7-12; the other
    # squares' landings, seen in the order played, tell the line (at blitz, 2-8 46-41 7-12 was
    # recorded as 7-12 46-41 2-8 so: the system bench's selfplay-28 at seed 3535014).
    game, at = GAMES[14], 14
    moves = game.moves[at:at + 6]
    arb = recorded_up_to(game, at)
    played = []
    for _ in range(readings_needed(6)):
        events = arb.observe(settled(board(at + 6, game),
                                     lifted=tuple(dict.fromkeys(m.from_square for m in moves)),
                                     placed=tuple(dict.fromkeys(m.to_square for m in moves))))
        played += texts(events)
        if arb.game.ply != at:
            break
    assert played == game.move_texts()[at:at + 6] == ["38-32", "8-12", "40-34", "12-17",
                                                      "34-30", "7-12"]
    assert not of(events, Irregularity)


def test_the_frames_pieces_were_seen_lifted_and_put_down_on_tell_a_transposition_apart_art_22():
    # Four plies read only at their end, each side's two moves in either order giving the same
    # board.  The first move's landing lay under the resting hand until the end, so the order
    # the landings were first seen in fits no order of the moves; but 1-6 was seen done (1
    # lifted, 6 put down) while 50 was still seen standing, and 50-45 while 5 was: the order
    # is 46-41 1-6 50-45 5-10 (the other renderer's selfplay-18 at seed 47006 recorded six
    # such plies in an order the camera had seen was wrong).  A piece only first seen lifted
    # later, never seen standing after, may have been under the hand: no order then.
    start = Position.from_fen("W:W46,50:B1,5")
    game = Game(start=start)
    for text in ("46-41", "1-6", "50-45", "5-10"):
        game.push_text(text)
    arb = Arbiter(Game(start=start))
    seen = replace(settled(game.positions[-1].pieces()), lifted=(46, 1, 50, 5),
                   lifted_at=(10, 20, 30, 40), placed=(6, 45, 10, 41), placed_at=(20, 30, 40, 100),
                   stood_last=((50, 25), (5, 35)))
    for _ in range(5):
        events = arb.observe(seen)
        if arb.game.ply:
            break
    assert texts(events) == game.move_texts()
    assert not [e for e in of(events, ScoresheetComment) if ORDER_UNSEEN in e.text]
    # without the frames, or with 50 and 5 never seen standing after, the order stays unseen,
    # and is said so
    for unseen in (replace(seen, lifted_at=(), placed_at=()), replace(seen, stood_last=())):
        arb = Arbiter(Game(start=start))
        for _ in range(5):
            events = arb.observe(unseen)
            if arb.game.ply:
                break
        assert [e for e in of(events, ScoresheetComment) if ORDER_UNSEEN in e.text]



def test_the_frames_of_every_sighting_tell_a_transposition_the_lifts_order_does_not_art_22():
    # Five plies at quick play first seen still at their end; the same moves in other orders
    # give the same board.  A hand over 10 early on took it for lifted (frame 8), yet 10 was
    # seen standing at frame 38; 22 was seen holding its man at frame 10, 31 at 40, 15 at 42.
    # The order the pieces were first seen lifted in (10, 11, 41) put 10-15 first, and 10-15
    # 36-31 17-22 41-36 11-17 was recorded for 17-22 36-31 11-17 41-36 10-15: but 22 was
    # landed on by frame 10, long before 10 left (the other renderer's selfplay-6 at seed
    # 6262001).  Of the orders every sighting's frame allows, the one recorded is as played,
    # and the scoresheet still says the order was not seen one by one.
    start = Position.from_fen("B:W36,37,41:B10,11,17")
    game = Game(start=start)
    for text in ("17-22", "36-31", "11-17", "41-36", "10-15"):
        game.push_text(text)
    seen = replace(settled(game.positions[-1].pieces()), lifted=(10, 11, 41),
                   lifted_at=(8, 20, 30), placed=(22, 31, 15), placed_at=(10, 40, 42),
                   open_last=((22, 5), (31, 15), (15, 38)),
                   stood_last=((10, 38), (11, 12), (41, 14)))
    arb = Arbiter(Game(start=start))
    for _ in range(5):
        events = arb.observe(seen)
        if arb.game.ply:
            break
    assert texts(events) == game.move_texts()
    assert [e for e in of(events, ScoresheetComment) if "not seen one by one" in e.text]

def test_a_landing_first_seen_late_under_the_hand_tells_no_order_art_22():
    # Blitz, four plies under a hand to one still board: 12-18 34-29 6-11 40-34, black's two
    # moves in either order giving it.  18 lay under the hand and was first seen holding its man
    # after 11 was: the order first seen says 6-11 first, but 18 was never seen empty after 11
    # held its man, so the camera cannot tell, and the scoresheet says so (the system bench's
    # selfplay-22 at seed 7474009 recorded 6-11 first without a word).  Where the camera saw
    # the other square still empty after the first landing, the order is told either way.
    start = Position.from_fen("B:W34,40:B6,12")
    game = Game(start=start)
    for text in ("12-18", "34-29", "6-11", "40-34"):
        game.push_text(text)
    seen = replace(settled(game.positions[-1].pieces()), lifted=(12, 34, 6, 40),
                   lifted_at=(5, 15, 25, 35))

    def record(placed: tuple[int, ...], placed_at: tuple[int, ...],
               open_last: tuple[tuple[int, int], ...]) -> tuple[list[str], list]:
        arb = Arbiter(Game(start=start))
        board = replace(seen, placed=placed, placed_at=placed_at, open_last=open_last)
        for _ in range(5):
            events = arb.observe(board)
            if arb.game.ply:
                break
        return arb.game.move_texts(), [e for e in of(events, ScoresheetComment)
                                       if ORDER_UNSEEN in e.text]

    # 11 first seen at frame 10, 18 at 30, 18 never seen empty: unseen, said so
    played, unseen = record((11, 29, 18, 34), (10, 20, 30, 40), ())
    assert played[1::2] == ["34-29", "40-34"] and sorted(played[0::2]) == ["12-18", "6-11"]
    assert unseen and "12-18" in unseen[0].text and "6-11" in unseen[0].text
    # 18 seen empty at frame 12, after 11 held its man: 6-11 came first
    played, unseen = record((11, 29, 18, 34), (10, 20, 30, 40), ((18, 12),))
    assert played == ["6-11", "34-29", "12-18", "40-34"] and not unseen
    # 18 first seen at 10, 11 seen empty at 20 after: as played
    played, unseen = record((18, 29, 11, 34), (10, 20, 30, 40), ((11, 20),))
    assert played == game.move_texts() and not unseen


def test_a_reading_that_fits_nothing_on_the_way_only_counts_art_22():
    # Between two boards that fit, one misread (a man of each side lost under a glare): it
    # fits no position of the line, nor one irregular act after it, and allows the next stretch
    # one more ply, as a board misread always did.
    arb = recorded_up_to(REAL, AT)
    arb.observe(settled(board(AT + 3)))                        # looked at again
    glare = {sq: SquareReading(None, 0.9995) for sq in (1, 50)}
    events = arb.observe(settled(board(AT + 4), readings=glare))
    assert not of(events, MovePlayed) and arb.game.ply == AT   # fits nothing
    events = arb.observe(settled(board(AT + 6)))
    assert texts(events) == REAL.move_texts()[AT:AT + 6]


@pytest.mark.parametrize("game, at, gap", [(REAL, AT, 7), (REAL, AT, STALL_PLIES), (QUIET, QUIET_AT, 7),
                                          (GAMES[0], 0, 7)],
                         ids=["captures-7", "captures-8", "quiet-7", "from-the-start-7"])
def test_a_gap_beyond_a_short_search_is_caught_up_once_the_board_stands_art_22(game, at, gap):
    # More plies than `RECOVERY_PLIES` passed before the board stood still (blitz: the first
    # still board of bench game lidraughts-1 came seven plies after the start, and every later
    # one further on: nothing was recorded).  The board is read again while the arbiter looks
    # again; read `STALL_READINGS` times in a row it is searched further, and the moves are
    # recorded then, never before, and nothing is called irregular on the way.  Quiet moves in
    # an order the board does not tell are recorded in one of them, with the comment saying so.
    arb = recorded_up_to(game, at)
    seen = settled(board(at + gap, game))
    for _ in range(STALL_READINGS - 1):
        events = arb.observe(seen)
        assert [e.reason for e in of(events, LookAgain)] == [LONG_LINE], [str(e) for e in events]
        assert not of(events, Irregularity) and arb.game.ply == at
    events = arb.observe(seen)
    assert not of(events, Irregularity) and arb.pending is None
    assert arb.game.ply == at + gap and arb.position.pieces() == board(at + gap, game)
    comments = " ".join(c.text for c in of(events, ScoresheetComment))
    assert CAUGHT_UP in comments
    if texts(events) != game.move_texts()[at:at + gap]:
        assert ORDER_UNSEEN in comments
    assert sorted(texts(events)) == sorted(game.move_texts()[at:at + gap])


def test_a_man_read_unsurely_as_a_king_on_one_reading_does_not_break_the_boards_run_art_22():
    # Where the camera cannot tell kings (13 degrees off vertical), one reading of four read a
    # man as a king at 0.64: the board was never read `STALL_READINGS` times in a row, never
    # searched beyond a short search, and a game whose first still board came seven plies on
    # recorded nothing (the other renderer's selfplay-26 at seed 4343005).  Readings that differ
    # only in whether a piece is a man or a king, unsurely, read the board alike.
    game, gap = GAMES[0], 7
    arb = recorded_up_to(game, 0)
    pieces = board(gap, game)
    man = min(sq for sq, p in pieces.items() if not p.king)
    crowned = SquareReading(Piece(pieces[man].color, True), 0.64, alternative=pieces[man])
    plain, unsure = settled(pieces), settled(pieces, readings={man: crowned})
    for seen in (plain, plain, unsure):
        events = arb.observe(seen)
        assert not of(events, MovePlayed) and not of(events, Irregularity), [str(e) for e in events]
    events = arb.observe(plain)
    assert not of(events, Irregularity) and arb.game.ply == gap
    assert arb.position.pieces() == pieces
    assert sorted(texts(events)) == sorted(game.move_texts()[:gap])


def test_a_gap_beyond_the_further_search_is_not_recorded_from_one_board():
    # More plies than `DEEP_PLIES` on one board: nothing is recorded, however often it is read
    # (a line that long is no longer told from others; DESIGN.md: never guess).
    arb = recorded_up_to(REAL, AT)
    for _ in range(6):
        arb.observe(settled(board(AT + DEEP_PLIES + 1)))
    assert arb.game.ply == AT


@pytest.mark.parametrize("gap", [STALL_PLIES + 1, DEEP_PLIES])
def test_a_gap_beyond_the_stalled_search_is_caught_up_from_a_board_read_again_art_22(gap):
    # Quick play under an arm resting across the board: ten plies went by unseen (the other
    # renderer's selfplay-25 at seed 5151004).  The board read again after the stalled search
    # found nothing (`DEEP_READINGS`) is searched further, up to `DEEP_PLIES`, and caught up
    # once read as often as so long a line needs (`_supported`).
    arb = recorded_up_to(REAL, AT)
    said = []
    for _ in range(readings_needed(gap)):
        said += arb.observe(settled(board(AT + gap)))
    assert not of(said, Irregularity) and not of(said, LostTrack), [str(e) for e in said]
    assert arb.position == REAL.positions[AT + gap]
    assert sorted(arb.game.move_texts()[AT:]) == sorted(REAL.move_texts()[AT:AT + gap])


def test_a_long_gap_then_boards_each_read_once_or_twice_is_caught_up_art_22():
    # Quick play under an arm lying across the board: ten plies went by unseen, and then every
    # board was read once or twice before the next move was made (the system bench's
    # selfplay-26 at seed 6464000).  No board was ever read `DEEP_READINGS` times in a row,
    # and the record stopped for good, each board one ply further beyond the stalled search.
    # The boards read one after another are evidence on the way: once as many readings as one
    # board read again and again would give, the game is caught up, every move on the
    # scoresheet, and the moves after are recorded one by one.
    arb = recorded_up_to(REAL, AT)
    gap = STALL_PLIES + 2
    said = []
    ply = AT + gap
    for reads in (1, 2, 1, 2, 1, 2, 1, 2, 1, 2):
        for _ in range(reads):
            said += arb.observe(settled(board(ply)))
        if arb.game.ply == ply:
            break
        ply += 1
    assert not of(said, Irregularity) and not of(said, LostTrack), [str(e) for e in said]
    assert arb.game.ply == ply and arb.position == REAL.positions[ply]
    assert sorted(arb.game.move_texts()[AT:]) == sorted(REAL.move_texts()[AT:ply])
    assert any(CAUGHT_UP in c.text for c in of(said, ScoresheetComment))
    # caught up no later than ten readings of those boards, the most a board read again needs
    assert ply <= AT + gap + 6
    finish(arb, ply, upto=ply + 3)


def lost_once(said) -> LostTrack:
    """The one `LostTrack` among ``said``, naming the last recorded move as where the record
    stops (REAL recorded up to `AT`)."""
    [lost] = of(said, LostTrack)
    assert lost.since == REAL.move_texts()[AT - 1]
    return lost


def put_back_and_go_on(arb: Arbiter) -> None:
    """The board put back as the record has it (REAL at `AT`): the lost record goes on."""
    events = arb.observe(settled(board(AT)))
    assert arb.pending is None and not of(events, Irregularity), [str(e) for e in events]
    finish(arb, AT, upto=AT + 2)


def test_a_board_beyond_every_search_is_said_once_as_lost_track_never_art_27():
    # Quick play under an arm resting across the board: eleven plies went by unseen, and the
    # first board seen after them, read again and again, was named Art. 27 ("several pieces
    # moved: put them back"): players accused of what the camera missed (the other renderer's
    # selfplay-25 at seed 5151004).  Pieces of both sides moved and none came from outside the
    # board, as play leaves it: the companion says once that it lost track and where the record
    # stops, and follows the board; put back, the record goes on.
    arb = recorded_up_to(REAL, AT)
    said = []
    far = AT + DEEP_PLIES + 1
    for _ in range(2 * STALL_READINGS):
        said += arb.observe(settled(board(far)))
    assert not of(said, Irregularity) and arb.game.ply == AT
    lost = lost_once(said)
    assert {c.square for c in lost.changes} == set(changes_between(board(AT), board(far)))
    assert any("lost track" in e.text for e in of(said, ScoresheetComment))
    for _ in range(STALL_READINGS):  # play goes on from it: nothing more is said
        events = arb.observe(settled(board(far + 2)))
        assert not of(events, Irregularity) and not of(events, LostTrack) and not of(events, MovePlayed)
    put_back_and_go_on(arb)


def test_boards_beyond_every_search_each_read_once_or_twice_are_said_once_as_lost_track():
    # Quick play: the boards come one after another beyond every search, each read once or
    # twice before the next move, none `DEEP_READINGS` times in a row.  The arbiter looked again
    # on every board for good, and nobody was told that the record had stopped.  Once the
    # deeper searches are spent on them it says so once (never Art. 27: play leaves such
    # boards), and says nothing more while play goes on; put back, the record goes on.
    arb = recorded_up_to(REAL, AT)
    said = []
    ply = AT + DEEP_PLIES + 2
    for i in range(4 * DEEP_READINGS):
        said += arb.observe(settled(board(ply)))
        ply += i % 2
    assert not of(said, Irregularity) and arb.game.ply == AT, [str(e) for e in said]
    lost = lost_once(said)
    assert not of(said[said.index(lost) + 1:], LookAgain), "said once, then quiet"
    put_back_and_go_on(arb)


def test_pieces_put_on_the_board_among_many_changes_are_still_named_art_27():
    # Lost track is said only of a board play can leave: a side with a piece more than it had
    # (read so again and again) had one put on from outside the board, and that is named.
    arb = recorded_up_to(REAL, AT)
    seen = dict(board(AT + DEEP_PLIES + 1))
    def whites(b):
        return sum(p.color is WHITE for p in b.values())
    while whites(seen) <= whites(board(AT)):
        seen[next(sq for sq in range(50, 0, -1) if sq not in seen)] = Piece(WHITE, False)
    said = []
    for _ in range(3 * STALL_READINGS):
        said += arb.observe(settled(seen))
    assert not of(said, LostTrack)
    assert [e.article for e in of(said, Irregularity)] == ["Art. 27"]


# -- never explained away: Art. 27 -----------------------------------------------------------------

def test_a_capture_with_a_piece_too_many_taken_off_read_again_and_again_stays_irregular_art_27b():
    # 44x24 with black's king on 25 taken off too is also 44x4, 25-14, 4x24: three plies nobody
    # saw.  Reading the board again is no evidence for them: a single irregular act explains it.
    start = Position.from_fen("W:W11,27,K44':BK25',34")
    wrong = start.play_text("44x24").pieces()
    del wrong[25]
    arb = Arbiter(Game(start=start))
    announced = []
    for _ in range(5):
        announced.extend(of(arb.observe(settled(wrong)), Irregularity))
    assert [e.article for e in announced] == ["Art. 27b"]     # named, and once
    assert arb.game.ply == 0


def test_a_man_moved_backwards_read_again_and_again_stays_irregular_art_27d():
    arb = recorded_up_to(REAL, AT + 3)                         # black to move, 24x33 due
    backwards = board(AT + 3)
    backwards[7] = backwards.pop(12)
    announced = []
    for _ in range(5):
        announced.extend(of(arb.observe(settled(backwards)), Irregularity))
    assert [(e.kind, e.article) for e in announced] == [(K.UNREACHABLE, "Art. 27d")]
    assert arb.game.ply == AT + 3


def test_a_board_several_moves_on_read_once_with_a_square_misread_is_read_again_art_27():
    # Five plies missed; the board is first read with the hand leaving over a square the game
    # emptied, read surely as the piece it held (lidraughts-14 in `bench.system_accuracy`).  No
    # single act explains it, and more squares changed than one act changes: it is read again
    # before anything is named, and the readings without the hand catch the game up.
    arb = recorded_up_to(REAL, AT)
    later = board(AT + 5)
    emptied = next(sq for sq in board(AT) if sq not in later)
    seen = settled(later, readings={emptied: SquareReading(board(AT)[emptied], 0.95)})
    events = arb.observe(seen)
    assert not of(events, Irregularity), [str(e) for e in events]
    assert [e.reason for e in of(events, LookAgain)] == [LONG_LINE]
    for _ in range(readings_needed(5)):
        events = arb.observe(settled(later))
        assert not of(events, Irregularity), [str(e) for e in events]
    assert arb.game.move_texts() == REAL.move_texts()[:AT + 5]


def test_a_board_taken_beside_an_arm_at_rest_is_read_again_before_it_is_named_art_27():
    # Black's capture 7x16, its board taken while an arm lay still over the far row in a dim
    # room (`Settled.beside`), the man on 1 under it read surely as an empty square: no move
    # and no single irregular act gives that board.  A false Art. 27 was said and put right a
    # third of a second later (bench lidraughts-14, seed 202018).  Such a board is read again
    # first; the board without the arm is the capture.  Read so twice, it is named (a real
    # irregularity beside a resting hand is not explained away), and a board taken in the open
    # is named at once, as before.
    after = board(AT + 2)
    hidden = {1: SquareReading(None, 0.98)}
    assert after[1].color is BLACK
    under_the_arm = replace(settled(after, readings=hidden), beside=True)

    arb = recorded_up_to(REAL, AT + 1)
    events = arb.observe(under_the_arm)
    assert [e.reason for e in of(events, LookAgain)] == [UNEXPLAINED] and not of(events, Irregularity)
    events = arb.observe(settled(after))
    assert texts(events) == [REAL.move_texts()[AT + 1]] and not of(events, Irregularity)

    arb = recorded_up_to(REAL, AT + 1)
    arb.observe(under_the_arm)
    assert [e.article for e in of(arb.observe(under_the_arm), Irregularity)] == ["Art. 27"]

    arb = recorded_up_to(REAL, AT + 1)
    assert [e.article for e in of(arb.observe(settled(after, readings=hidden)), Irregularity)] \
        == ["Art. 27"]


def test_a_far_carry_read_under_a_hand_is_read_again_before_it_is_named_art_27d():
    # 45-40 9-14 40x18 went by unseen at blitz; the board is first read with a hand still over
    # the far corner (squares 1, 2, 6 and 7 under it) and square 25 unsure: too unclear for
    # more than a quick reply's search.  As it stands it is "the man on 45 carried to 18 with
    # three black men gone", no act players make: a false Art. 27d was named at once and stood
    # (the system bench's lidraughts-3 at seed 7272003).  It is read again; the clear board is
    # the three plies.  A board read so again and again is named.
    assert REAL.move_texts()[36:39] == ["45-40", "9-14", "40x18"]
    later = board(39)
    hand = {sq: SquareReading(later.get(sq), 0.5, BLACK_MAN if later.get(sq) is None else None,
                              occluded=True) for sq in (1, 2, 6, 7)}
    hand[25] = SquareReading(None, 0.6, Piece(WHITE, False))
    arb = recorded_up_to(REAL, 36)
    events = arb.observe(settled(later, readings=hand))
    assert [e.reason for e in of(events, LookAgain)] == [UNCLEAR_FOR_LINES]
    assert not of(events, Irregularity)
    events = []
    for _ in range(readings_needed(3)):
        events.extend(arb.observe(settled(later)))
    assert not of(events, Irregularity), [str(e) for e in events]
    assert arb.game.move_texts() == REAL.move_texts()[:39]

    arb = recorded_up_to(REAL, 36)
    events = []
    for _ in range(STALL_READINGS):
        events.extend(arb.observe(settled(later, readings=hand)))
    assert [e.article for e in of(events, Irregularity)] == ["Art. 27d"]


def test_the_irregular_piece_lifted_to_be_put_back_is_no_new_irregularity_art_27d():
    # Black moved a man backwards (12-7, named); the player lifts it off 7 to put it back, and
    # the board is seen still meanwhile (the hand out of the picture): nothing more is said.
    arb = recorded_up_to(REAL, AT + 3)
    backwards = board(AT + 3)
    backwards[7] = backwards.pop(12)
    assert of(arb.observe(settled(backwards)), Irregularity)
    in_hand = dict(backwards)
    del in_hand[7]
    assert arb.observe(settled(in_hand, lifted=(7,))) == ()
    assert of(arb.observe(settled(board(AT + 3))), IrregularityResolved)


def test_a_quick_reply_that_is_irregular_records_the_move_and_names_the_reply_art_10():
    # White plays 33-29 and black, instead of the compulsory 24x33, plays 18-23 before the
    # board is seen still: white's move is recorded, black's named (Art. 10) with the capture.
    arb = recorded_up_to(REAL, AT + 2)
    seen = board(AT + 3)
    seen[23] = seen.pop(18)
    events = arb.observe(settled(seen))
    assert texts(events) == ["33-29"]
    [irr] = of(events, Irregularity)
    assert (irr.kind, irr.article, irr.color, irr.legal) == (K.CAPTURE_NOT_TAKEN, "Art. 10", BLACK, ("24x33",))
    events = arb.observe(settled(board(AT + 4)))               # put right: 24x33
    assert texts(events) == ["24x33"] and of(events, IrregularityResolved)


@pytest.mark.parametrize("lifted, first", [((33, 35), "33-29"), ((35, 33), "35-30")])
def test_a_move_and_its_side_moving_again_on_one_board_are_told_apart_by_the_lifts_art_27a(
        lifted, first):
    # White plays 33-29 and, before black replies, moves 35-30 too: one board shows both.  Either
    # could have been the legal move and the other the move out of turn; the order the camera
    # saw the men lifted tells which is recorded and which is named (Art. 27a).
    arb = recorded_up_to(REAL, AT + 2)
    seen = board(AT + 3)
    seen[30] = seen.pop(35)
    events = arb.observe(settled(seen, lifted=lifted))
    assert texts(events) == [first]
    [irr] = of(events, Irregularity)
    assert irr.article == "Art. 27a"


def test_an_irregular_move_after_a_gap_is_named_with_its_article_art_27d():
    # Three plies missed, the board seen once; then black moves a man backwards (12-7) while
    # 24x33 is due: the three moves are recorded and the man's move named (Art. 27d), not a
    # list of squares to put back from three moves ago.
    arb = recorded_up_to(REAL, AT)
    assert of(arb.observe(settled(board(AT + 3))), LookAgain)
    backwards = board(AT + 3)
    backwards[7] = backwards.pop(12)
    events = arb.observe(settled(backwards))
    assert texts(events) == REAL.move_texts()[AT:AT + 3]
    [irr] = of(events, Irregularity)
    assert (irr.kind, irr.article, irr.square, irr.played) == (K.UNREACHABLE, "Art. 27d", 7, "12-7")
    assert "forward only" in irr.message
    events = arb.observe(settled(board(AT + 3)))               # put back
    assert [e.how for e in of(events, IrregularityResolved)] == ["taken back"]
    finish(arb, AT + 3, upto=AT + 6)


# -- said once: what is unclear is not repeated ---------------------------------------------------

def test_an_irregularity_is_announced_once_while_play_goes_on_from_it_art_27():
    # White's man on 50 is knocked off the board (announced), the players play on from that
    # board: each board leads to the same unexplained state, further along, and says nothing.
    # When the man is put back, the board went on by legal moves from the recorded position:
    # every move is recorded and the irregularity resolved.
    arb = recorded_up_to(REAL, AT + 2)
    knocked = board(AT + 2)
    del knocked[50]
    [irr] = of(arb.observe(settled(knocked)), Irregularity)
    assert irr.changes and len(irr.changes) == 1
    for ply in (AT + 4, AT + 6):
        on = board(ply)
        del on[50]
        events = arb.observe(settled(on))
        assert not of(events, Irregularity) and not of(events, MovePlayed), [str(e) for e in events]
        assert arb.pending is not None
    events = arb.observe(settled(board(AT + 6)))
    assert texts(events) == REAL.move_texts()[AT + 2:AT + 6]
    assert [e.how for e in of(events, IrregularityResolved)] == [RECOVERED]
    assert arb.pending is None


def test_a_quiet_gap_in_an_order_not_seen_never_stalls_the_record_art_22():
    # The quiet six plies read alone: nothing irregular is said, the position is caught up with
    # the order flagged on the scoresheet once, and the boards further on are recorded move by
    # move.
    arb = recorded_up_to(QUIET, QUIET_AT)
    said, comments = [], []
    for ply in range(QUIET_AT + 6, QUIET_AT + 10):
        for _ in range(3):
            events = arb.observe(settled(board(ply, QUIET)))
            said.extend(of(events, Irregularity))
            comments += [e.text for e in of(events, ScoresheetComment) if ORDER_UNSEEN in e.text]
        assert arb.position == QUIET.positions[ply]
    assert not said and len(comments) == 1
    assert arb.game.move_texts()[QUIET_AT + 6:] == QUIET.move_texts()[QUIET_AT + 6:QUIET_AT + 9]


# -- a legal move undone by hand: take-back (Art. 15, 16) -----------------------------------------

def test_a_legal_move_undone_by_hand_is_taken_back_not_an_irregularity_art_16():
    # White plays 33-29 and, before black replies, puts the man back on 33.  Not Art. 27a (a
    # piece of the side not to move moved): the move is taken back, the scoresheet says that
    # black may claim it (a move is complete once released, Art. 16) and that the man on 33,
    # touched, must be the one to move (Art. 15, rule I).
    arb = recorded_up_to(REAL, AT + 2)
    assert texts(arb.observe(settled(board(AT + 3)))) == ["33-29"]
    events = arb.observe(settled(board(AT + 2)))
    [back] = of(events, MoveTakenBack)
    assert back.text == "33-29" and back.fen == REAL.positions[AT + 2].fen()
    assert not of(events, Irregularity) and arb.game.ply == AT + 2
    [comment] = of(events, ScoresheetComment)
    assert "Art. 16" in comment.text and "Art. 15, rule I" in comment.text
    assert "taken back by hand" in " ".join(arb.game.comments[AT + 2])
    # another man moved: touch-move (the man on 33 was touched)
    other = REAL.positions[AT + 2].play_text("34-30").pieces()
    [touch] = of(arb.observe(settled(other)), TouchMove)
    assert (touch.rule, touch.square, touch.moved) == ("Art. 15, rule I", 33, 34)
    # the touched man moves after all: recorded
    assert texts(arb.observe(settled(board(AT + 3)))) == ["33-29"]


def test_only_the_last_move_is_taken_back_before_the_reply_art_16():
    # After black's reply the board before white's move is two moves back: no take-back.
    arb = recorded_up_to(REAL, AT + 2)
    arb.observe(settled(board(AT + 3)))
    arb.observe(settled(board(AT + 4)))
    assert arb.game.ply == AT + 4
    events = arb.observe(settled(board(AT + 2)))
    assert not of(events, MoveTakenBack) and arb.game.ply == AT + 4


def test_a_take_back_read_unsurely_looks_again_never_guess():
    arb = recorded_up_to(REAL, AT + 2)
    arb.observe(settled(board(AT + 3)))
    unsure = {33: SquareReading(Piece(WHITE), 0.6, alternative=None)}
    events = arb.observe(settled(board(AT + 2), readings=unsure))
    assert of(events, LookAgain) and not of(events, MoveTakenBack) and arb.game.ply == AT + 3
    assert of(arb.observe(settled(board(AT + 2))), MoveTakenBack)


def test_a_quick_reply_read_only_likely_is_recorded_on_its_second_reading_art_22():
    # A quick reply (two plies seen as one board) whose emptied square reads only likely
    # empty (a dark set on dark squares in a dim room): looked at again once, then recorded,
    # since the reading said the same again; a square read otherwise than the line has it is
    # still looked at again.
    arb = recorded_up_to(REAL, AT)
    after = board(AT + 2)
    emptied = next(sq for sq in board(AT) if sq not in after)
    likely = {emptied: SquareReading(None, 0.8, Piece(board(AT)[emptied].color))}
    first = arb.observe(settled(after, readings=likely))
    assert of(first, LookAgain) and arb.game.ply == AT
    second = arb.observe(settled(after, readings=likely))
    assert texts(second) == REAL.move_texts()[AT:AT + 2]
    # read the other way round, never
    other = recorded_up_to(REAL, AT)
    wrong = {emptied: SquareReading(board(AT)[emptied], 0.8, None)}
    for _ in range(3):
        assert not of(other.observe(settled(after, readings=wrong)), MovePlayed)


# -- a piece in the hand, held off the board: Art. 16 -------------------------------------------

def test_a_piece_held_off_the_board_is_a_move_not_finished_art_16():
    # White lifts the man on 33 and holds it beyond the board's edge, where the camera does not
    # see the hand: the board is still, with 33 empty (seen lifted).  A move is not finished
    # until the piece is released (Art. 16): nothing is announced, and the move is recorded
    # when the man is put down.  A man lost under a glare (never seen lifted) is still named.
    arb = recorded_up_to(REAL, AT + 2)
    held = dict(board(AT + 2))
    piece = held.pop(33)
    assert piece.color is WHITE and REAL.move_texts()[AT + 2] == "33-29"
    assert arb.observe(settled(held, lifted=(33,))) == ()
    assert texts(arb.observe(settled(board(AT + 3), lifted=(33,)))) == ["33-29"]
    lost = recorded_up_to(REAL, AT + 2)
    assert of(lost.observe(settled(held)), Irregularity)


def test_a_piece_seen_lifted_on_the_board_before_and_then_gone_is_in_hand_art_16():
    # A dim room at quick play (the system bench's lidraughts-6 at seed 1919008): the camera saw
    # Black's man lifted on one still board (the hand over it, the man read back), and the next
    # still board, the hand over the board placing it, read the man gone and nothing else: it
    # was named Art. 27, "black's pieces disappeared".  The lift was seen since the last move:
    # the man is in the mover's hand (Art. 16), nothing is said, and the move is recorded when
    # it is put down.
    arb = recorded_up_to(REAL, AT + 2)
    held = dict(board(AT + 2))
    del held[33]
    assert arb.observe(settled(board(AT + 2), lifted=(33,))) == ()
    assert arb.observe(settled(held)) == ()
    assert 33 in arb.touched
    assert texts(arb.observe(settled(board(AT + 3)))) == ["33-29"]


def test_pieces_gone_under_a_hand_are_looked_at_again_then_named_art_27():
    # A dark hand over a dark border in a dim room (the system bench's selfplay-3 at seed
    # 1919013), still for one frame while carrying the man it lifted: the watcher took the
    # board as still, and the squares under the hand read empty surely.  Two of the mover's men
    # were gone, both seen changing under the hand: Art. 27 was named for men that stood.  A
    # hand holds one piece; pieces gone from squares seen under a hand are looked at again
    # first.  Once the hand has left the board reads right; if they are still gone on the next
    # reading, the irregularity is named (Art. 27).
    arb = recorded_up_to(REAL, AT + 2)
    covered = dict(board(AT + 2))
    for sq in (33, 38):
        assert covered.pop(sq).color is WHITE
    [look] = arb.observe(settled(covered, lifted=(33, 38)))
    assert isinstance(look, LookAgain) and look.squares == (33, 38)
    assert texts(arb.observe(settled(board(AT + 3), lifted=(33,)))) == ["33-29"]
    taken = recorded_up_to(REAL, AT + 2)
    assert of(taken.observe(settled(covered, lifted=(33, 38))), LookAgain)
    [named] = of(taken.observe(settled(covered)), Irregularity)
    assert named.kind.article == "Art. 27"


def test_a_piece_held_off_the_board_counts_as_touched_art_15():
    # ... and it binds touch-move: put back, and another piece moved while it could move.
    arb = recorded_up_to(REAL, AT + 2)
    held = dict(board(AT + 2))
    del held[33]
    assert arb.observe(settled(held, lifted=(33,))) == ()
    other = next(m for m in REAL.positions[AT + 2].legal_moves() if m.from_square != 33)
    events = arb.observe(settled(REAL.positions[AT + 2].play(other).pieces(), lifted=(other.from_square,)))
    [touch] = of(events, TouchMove)
    assert touch.square == 33 and touch.rule == "Art. 15, rule I"


def test_a_crowned_man_back_on_its_square_after_an_irregularity_taken_back_is_caught_up_art_22():
    # Blitz (the system bench's selfplay-53 at seed 707007): white moves black's man 12-7 on
    # black's turn (Art. 27a) and puts it back; then 34-40 9-3 (crowned) 40-45 3-9 (the king
    # back on its square) 45-50 (crowned) go by unseen, and every later board is read once.
    # The board five plies on reads as black's man carried 34 to 50, the king on 9 unsure (the
    # camera cannot tell kings there).  That is no slip of one hand but moves missed: no
    # irregularity is named (it was, twice, Art. 27d), the line is searched though the man
    # came back to 9 (as a king: a trace), the men seen put down on the way tell which route
    # was played (the 12 and 7 of the move taken back are no longer evidence), and later
    # boards, read once each, are evidence enough for the king's route (it looked again to the
    # game's end).
    game = SELFPLAY[52]
    assert game.move_texts()[:8] == ["22-18", "16-21", "18-12", "34-40", "9-3", "40-45", "3-9",
                                     "45-50"]
    arb = recorded_up_to(game, 3)
    irregular = dict(board(3, game))
    irregular[7] = irregular.pop(12)
    events = arb.observe(settled(irregular, lifted=(12,), placed=(7,)))
    assert [e.kind for e in of(events, Irregularity)] == [K.OPPONENT_PIECE]
    events = arb.observe(settled(board(3, game), lifted=(7,), placed=(12,)))
    assert of(events, IrregularityResolved) and arb.game.ply == 3
    king = game.positions[8].piece_at(9)
    assert king == Piece(WHITE, True)
    unsure = {9: SquareReading(king, 0.75, alternative=Piece(WHITE, False))}
    events = arb.observe(settled(board(8, game), readings=unsure, lifted=(34, 9),
                                 placed=(40, 3, 45, 50)))
    for ply in range(10, min(game.ply, 20) + 1, 2):
        assert not of(events, Irregularity), [str(e) for e in events]
        events = arb.observe(settled(board(ply, game)))
    assert not of(events, Irregularity), [str(e) for e in events]
    assert arb.game.move_texts() == game.move_texts()[:min(game.ply, 20) // 2 * 2]


def test_seven_plies_missed_at_blitz_are_caught_up_from_boards_each_read_once_art_22():
    # Blitz (the system bench's lidraughts-9 at seed 707029): seven plies with four captures
    # and a crowning (24x35 39-34 35x33 43x5 8-13 5x8 7x9) go by before a still board, and every
    # later board, one ply further on, is read once or twice: no board is read four times in a
    # row.  Once boards enough have been read with nothing recorded, every one of them is
    # followed as far as the stalled board is searched, and the game is caught up (nothing more
    # was recorded to the game's end).
    game = GAMES[8]
    assert game.move_texts()[21:28] == ["24x35", "39-34", "35x33", "43x5", "8-13", "5x8", "7x9"]
    arb = recorded_up_to(game, 21)
    end = min(game.ply, 36)
    for ply in range(28, end + 1):
        events = arb.observe(settled(board(ply, game)))
        assert not of(events, Irregularity), [str(e) for e in events]
    assert arb.game.move_texts() == game.move_texts()[:end]


def test_a_game_first_seen_still_a_ply_later_than_its_board_could_be_is_caught_up_art_22():
    """Art. 22 (every move recorded).  Quick play under a hand (the system bench's selfplay-11
    at seed 8282007): the first still board comes eleven plies after the start, and each board
    after it one or two plies further on.  In Frisian draughts the same board can be reached
    one ply sooner as well, with the other side to move (a sideways capture advances no row):
    the board of ply 11 is also that of a ten-ply line.  Followed only at the fewest plies,
    every later move needed two to four plies, the readings never supported so long a line
    and the arbiter said it lost track; every board here is read surely.  The moves are
    recorded, the order the still boards cannot tell said on the scoresheet, and the position
    is the game's."""
    game = SELFPLAY[10]
    assert game.move_texts()[:11] == ["33-28", "18-22", "28-23", "22x24", "34-29", "24x33",
                                      "32x34", "20-24", "38-32", "15-20", "39-33"]
    arb = recorded_up_to(game, 0)
    events = []
    for ply in (11, 11, 12, 13, 13, 14, 15, 17, 17, 18, 19, 19, 20, 21, 22):
        events.extend(arb.observe(settled(board(ply, game))))
    assert not of(events, Irregularity) and not of(events, LostTrack), [str(e) for e in events]
    assert arb.game.ply == 22 and arb.game.positions[-1] == game.positions[22]
    assert arb.game.move_texts()[18:] == game.move_texts()[18:22]
    said = [e.text for e in of(events, ScoresheetComment)]
    assert any(CAUGHT_UP in t for t in said) and any(ROUTE_UNSEEN in t for t in said)


def test_a_square_read_unsurely_as_a_piece_its_side_cannot_have_is_no_doubt_art_22():
    """Art. 22 (every move recorded), Art. 20a (no pieces: lost).  A king against two set up
    (the bench's selfplay-40 at seed 1818005), played out before the camera saw the board still:
    21-3 46-23 3x43.  Under a glare the emptied 21 reads "White's man" at 0.53 on every reading,
    beside White's two kings read surely on 35 and 43.  White had two pieces and no side ever
    gains one, so no move, legal or not, puts a third there: the reading is no doubt about the
    line that explains every sure square.  It was looked at again for ever and the game lost; the
    moves are recorded, with the route the board cannot tell (21-27 46-32 27x43 gives it too)
    said on the scoresheet."""
    start = Position.from_fen("W:WK21,K35:BK46")
    arb = Arbiter(Game(start=start))
    after = {35: Piece(WHITE, True), 43: Piece(WHITE, True)}
    glare = {21: SquareReading(Piece(WHITE), 0.53)}
    events = []
    for k in range(STALL_READINGS):
        events.extend(arb.observe(settled(after, readings=glare, time=float(k))))
        if arb.over is not None:
            break
    assert not of(events, Irregularity), [str(e) for e in events]
    assert arb.game.positions[-1].pieces() == after and arb.game.ply == 3
    assert arb.over is not None and "1-0" in str(arb.over)
    assert any(ROUTE_UNSEEN in e.text for e in of(events, ScoresheetComment))


def test_a_square_read_unsurely_as_a_piece_its_side_may_have_is_still_looked_at_art_22():
    """The same board read with Black's king unsure on 21 instead: Black had a king, so that
    reading may be true (a move nobody saw put it there) and is looked at again, never
    explained away."""
    start = Position.from_fen("W:WK21,K35:BK46")
    arb = Arbiter(Game(start=start))
    after = {35: Piece(WHITE, True), 43: Piece(WHITE, True)}
    for k in range(STALL_READINGS):
        events = arb.observe(settled(after, readings={21: SquareReading(Piece(BLACK), 0.53)},
                                     time=float(k)))
    assert arb.game.ply == 0 and arb.over is None


def test_a_reply_then_the_opponent_moving_its_man_on_is_told_by_where_it_was_put_down_art_27a():
    # White plays 46-41, black replies 5-10 at blitz, and white, instead of moving, moves
    # black's man on 10-14: the first still board shows black's man two squares on.  The camera
    # saw it put down on 10 on the way: black's reply is recorded and white's act named
    # (Art. 27a), not black's man said to have jumped 5-14 (Art. 27d; the system bench's
    # selfplay-55 at seed 2727002 named the wrong player).  Put back on 10, white plays on.
    start = Position.from_fen("W:W46,50:B1,5")
    arb = Arbiter(Game(start=start))
    seen = {41: Piece(WHITE, False), 50: Piece(WHITE, False), 1: Piece(BLACK, False),
            14: Piece(BLACK, False)}
    events = arb.observe(replace(settled(seen), lifted=(46, 5), lifted_at=(5, 15),
                                 placed=(41, 10, 14), placed_at=(10, 20, 30)))
    assert texts(events) == ["46-41", "5-10"]
    [irr] = of(events, Irregularity)
    assert (irr.kind, irr.article, irr.color, irr.played) == (K.OPPONENT_PIECE, "Art. 27a", WHITE, "10-14")
    del seen[14]
    seen[10] = Piece(BLACK, False)
    events = arb.observe(settled(seen))
    assert [e.how for e in of(events, IrregularityResolved)] == ["taken back"]
    # not seen on the way: one act explains the board as well, and black's is named
    arb = Arbiter(Game(start=start))
    seen = {41: Piece(WHITE, False), 50: Piece(WHITE, False), 1: Piece(BLACK, False),
            14: Piece(BLACK, False)}
    events = arb.observe(settled(seen))
    assert texts(events) == ["46-41"]
    [irr] = of(events, Irregularity)
    assert (irr.kind, irr.article, irr.color) == (K.UNREACHABLE, "Art. 27d", BLACK)



def test_a_move_then_the_same_side_moving_again_is_told_by_the_man_seen_lifted_art_27a():
    # Blitz: black plays 7-12, then, out of turn, moves 2-7: the first still board shows 2
    # emptied and 12 filled, 7 as before.  The camera saw the man on 7 lifted on the way: black's
    # move is recorded and the second move named (Art. 27a, moved when it was White's turn),
    # not "the man on 2 to 12" (Art. 27d; the system bench's selfplay-30 at seed 8585002 named
    # that for the injected act).  Not seen lifted: one act explains the board as well.
    start = Position.from_fen("B:W31,36:B2,7")
    board = {31: Piece(WHITE), 36: Piece(WHITE), 7: Piece(BLACK), 12: Piece(BLACK)}
    arb = Arbiter(Game(start=start))
    events = arb.observe(replace(settled(board), lifted=(7, 2), placed=(12,)))
    assert texts(events) == ["7-12"]
    [irr] = of(events, Irregularity)
    assert (irr.kind, irr.article, irr.color) == (K.OPPONENT_PIECE, "Art. 27a", WHITE)
    arb = Arbiter(Game(start=start))
    [irr] = of(arb.observe(replace(settled(board), placed=(12,))), Irregularity)
    assert (irr.kind, irr.article, irr.color) == (K.UNREACHABLE, "Art. 27d", BLACK)

def test_two_exchanges_first_seen_at_their_end_are_caught_up_not_named_art_22(monkeypatch):
    # Eight plies at quick play, two exchanges among them, the first still board at their end:
    # two men of each side gone and nothing else changed, which no single irregular act does.
    # Read a second time it was named Art. 27 ("pieces disappeared") before the further search
    # had the readings it needs (the other renderer's selfplay-13 at seed 49002).  It is read
    # again, and the moves recorded.  However slow the machine: on a loaded CI machine the
    # search ran out of its time (1.5 s; a desktop took 1.1 s) and the board was named Art. 27.
    # The search is bounded by work now, and a clock that runs a second per look changes nothing.
    clock = iter(range(10 ** 9))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    game = Game()
    for text in ("33-29", "19-24", "32-27", "24x33", "34x32", "18-22", "27x18", "17x19"):
        game.push_text(text)
    arb = Arbiter(Game())
    seen = settled(game.positions[-1].pieces())
    for _ in range(STALL_READINGS):
        events = arb.observe(seen)
        assert not of(events, Irregularity), [str(e) for e in events]
        if arb.game.ply:
            break
    assert arb.position.pieces() == game.positions[-1].pieces() and arb.game.ply == 8
    # a man of each side knocked off the board, one of them moved too: named, as before
    knocked = Position.start().pieces()
    del knocked[20], knocked[31]
    knocked[28] = knocked.pop(32)
    assert of(Arbiter(Game()).observe(settled(knocked)), Irregularity)


def test_a_kings_route_is_told_by_where_it_was_seen_landing_though_a_round_trip_landed_elsewhere_art_22():
    # Blitz, three kings: 29-18 47-20 18-23 20-3, then 23-34 3-20 34-23 20-3 (two round trips)
    # and 23-28, first seen still at the end.  The fewest plies that give the board are five,
    # the white king's route to 23 unseen (via 1, 7, 12, 18, 34 or 45), and the camera saw
    # pieces put down on 18, 20, 23, 3, then 34 and 28: no five-ply line lands on 18 and on 34.
    # The route that lands on the most of them in the order seen is recorded (29-18 ... 18-23),
    # not the first in notation order (29-1 ... 1-23: the system bench's selfplay-41 at seed
    # 3939008).  The position is the same either way; the comment still says it was not seen.
    start = Position.from_fen("W:WK26,K29:BK47")
    game = Game(start=start)
    for text in ("29-18", "47-20", "18-23", "20-3", "23-34", "3-20", "34-23", "20-3", "23-28"):
        game.push_text(text)
    arb = Arbiter(Game(start=start))
    # read still once on the way, four plies on, 23 unsure (a hand beside it)
    on_the_way = settled(game.positions[4].pieces(), readings={23: SquareReading(None, 0.5)})
    # (34 seen clearly empty all the while: its landing came after theirs)
    events = list(arb.observe(replace(on_the_way, placed=(18, 20, 23, 3), placed_at=(10, 20, 30, 40),
                                      open_last=((34, 40),))))
    seen = settled(game.positions[-1].pieces())
    passing = replace(seen, placed=(34, 28), placed_at=(50, 60))
    for i in range(2 * STALL_READINGS):
        events += arb.observe(passing if i == 0 else seen)
        if arb.game.ply:
            break
    assert arb.game.move_texts() == ["29-18", "47-20", "18-23", "20-3", "23-28"], [str(e) for e in events]
    assert arb.position.pieces() == game.positions[-1].pieces()
    assert any("not seen one by one" in str(e) for e in of(events, ScoresheetComment))


def test_three_quick_plies_then_an_opponents_man_moved_are_recorded_and_named_art_27a():
    # 19-14 32-38 29-23, then black moves white's man 13-8, all before the board stands still
    # (a camera nearly above the board, blitz).  Read once, it may be several moves on; read
    # again, the three plies are recorded and black's act named (Art. 27a), not "pieces of both
    # sides moved" (the system bench's selfplay-43 at seed 2828007).  Put back, play goes on.
    start = Position.from_fen("W:W9,13,19,29:BK22,25,32,35,37")
    game = Game(start=start)
    for text in ("19-14", "32-38", "29-23"):
        game.push_text(text)
    seen = game.positions[-1].pieces()
    seen[8] = seen.pop(13)
    arb = Arbiter(Game(start=start))
    # (the men seen lifted in passing tell the order: 29-23 19-14 is the same board)
    events = arb.observe(settled(seen, lifted=(19, 32, 29, 13), placed=(14, 38, 23)))
    assert [e.reason for e in of(events, LookAgain)] == [LONG_LINE] and not of(events, Irregularity)
    events = arb.observe(settled(seen))
    assert texts(events) == game.move_texts()
    [irr] = of(events, Irregularity)
    assert (irr.kind, irr.article, irr.color, irr.played) == (K.OPPONENT_PIECE, "Art. 27a", BLACK, "13-8")
    events = arb.observe(settled(game.positions[-1].pieces()))
    assert [e.how for e in of(events, IrregularityResolved)] == ["taken back"]


def test_a_landing_seen_on_the_way_is_not_lost_to_a_shorter_line_to_the_same_board_art_22():
    # Two kings at quick play (the system bench's selfplay-41 at seed 4949013): 47-20 18-23
    # 20-3 23-34 between two still boards, the landing on 23 seen beside the hand.  Three
    # plies, 47-20 18-34 20-3, leave the same pieces with the other side to move; recorded,
    # the game went on a ply out of step (Art. 22: every move on the scoresheet, in turn) and
    # a false Art. 27a was named.  The line that put a piece on 23 is the one recorded.
    start = Position.from_fen("W:WK29,K26:BK47")
    played = ["29-18", "47-20", "18-23", "20-3", "23-34"]
    positions = [start]
    for text in played:
        positions.append(positions[-1].play_text(text))
    arb = Arbiter(Game(start=start))
    assert texts(arb.observe(settled(positions[1].pieces()))) == ["29-18"]
    events = ()
    for _ in range(STALL_READINGS):
        events = arb.observe(settled(positions[5].pieces(), lifted=(47, 18),
                                     placed=(20, 23, 3, 34)))
        if arb.game.ply > 1:
            break
    assert texts(events) == played[1:] and arb.position == positions[5]
    # without the sighting the three plies are the likelier (the fewest moves that explain)
    alone = Arbiter(Game(start=start))
    alone.observe(settled(positions[1].pieces()))
    for _ in range(STALL_READINGS):
        alone.observe(settled(positions[5].pieces(), lifted=(47, 18)))
    assert alone.game.move_texts()[1:] == ["47-20", "18-34", "20-3"]


def test_squares_every_route_left_read_unsurely_do_not_hold_up_a_transposition_art_22():
    # Six quiet plies read only at their end, whose first squares 1 and 15 (left by 1-7 and
    # 15-20 in every order of the moves) read empty at only 0.55: men the colour of the
    # squares at the far edge.  Every square the moves put a piece on reads surely, so the
    # pieces that arrived came from somewhere: as for one line (`Arbiter._doubt`), the
    # position is caught up once the board reads so again, and the order said unseen.  (Asked
    # about on every board, nine plies of the system bench's selfplay-28 at seed 4343018
    # went unrecorded to the end of the recording.)
    arb = recorded_up_to(QUIET, QUIET_AT)
    after = board(QUIET_AT + 6, QUIET)
    assert after.get(1) is None and after.get(15) is None
    assert {1, 15} <= {m.from_square for m in QUIET.moves[QUIET_AT:QUIET_AT + 6]}
    faint = {sq: SquareReading(None, 0.55, Piece(BLACK)) for sq in (1, 15)}
    comments = []
    for _ in range(5):
        events = arb.observe(settled(after, readings=faint))
        comments += [e.text for e in of(events, ScoresheetComment) if ORDER_UNSEEN in e.text]
        assert not of(events, Irregularity)
    assert arb.game.ply == QUIET_AT + 6 and arb.position == QUIET.positions[QUIET_AT + 6]
    assert len(comments) == 1


def test_a_side_read_with_a_piece_more_than_it_had_is_looked_at_again_before_art_27():
    # Pieces are moved, taken off and crowned, never added: a board on which White has a man
    # more than it had shows a square misread (a king moved off a square under a lamp's glare,
    # men the colour of the squares, and the emptied square read as a white piece at 0.995:
    # "several pieces moved" was named at once, the system bench's selfplay-56 at seed
    # 4949014).  It is looked at again; read so again and again, a piece put on the board from
    # outside it is named (Art. 27).
    arb = recorded_up_to(REAL, AT + 2)                          # white to play 33-29
    moved = REAL.moves[AT + 2]
    assert REAL.move_texts()[AT + 2] == "33-29"
    seen = dict(board(AT + 3))
    seen[moved.from_square] = board(AT + 2)[moved.from_square]  # 33 still read as its man
    events = arb.observe(settled(seen))
    assert not of(events, Irregularity)
    assert [e.reason for e in of(events, LookAgain)] == [GAINED]
    assert of(events, LookAgain)[0].squares == (moved.to_square,)
    for _ in range(STALL_READINGS):
        events = arb.observe(settled(seen))
        if of(events, Irregularity):
            break
    assert of(events, Irregularity) and arb.game.ply == AT + 2


#: A set-up endgame: White's kings on 7 and 12, Black's king on 35 (the other renderer's
#: selfplay-34): 12-26 35-30 7-34 30x48 leaves one king against one king.
KINGS = "W:WK7,K12:BK35"


def _kings_after_two() -> Arbiter:
    arb = Arbiter(Game(start=Position.from_fen(KINGS)))
    for text in ("12-26", "35-30"):
        arb.game.push_text(text)
    return arb


def _kings_end(readings: dict[int, SquareReading]):
    game = Game(start=Position.from_fen(KINGS))
    for text in ("12-26", "35-30", "7-34", "30x48"):
        game.push_text(text)
    return game.position.pieces(), readings


def test_a_sides_last_piece_read_unsurely_where_the_one_line_puts_it_is_recorded_art_22():
    """The king's capture 30x48 lands on a square whose blue king reads at 0.47-0.52 against
    empty, every reading alike; no other square reads even unsurely as Black's, and Black has
    one piece: it stands there.  Looked at again for ever, the game was never recorded to its
    end (the other renderer's selfplay-34 at seed 5757005)."""
    board, readings = _kings_end({
        48: SquareReading(Piece(BLACK, True), 0.49, alternative=None),
        # squares under an arm resting beside the board tell nothing either way
        6: SquareReading(None, 0.5, alternative=Piece(BLACK, False), occluded=True),
    })
    arb = _kings_after_two()
    events = []
    for _ in range(3):
        events.extend(arb.observe(settled(board, readings=readings)))
        if of(events, MovePlayed):
            break
    assert texts(events) == ["7-34", "30x48"]
    assert not of(events, Irregularity)


def test_a_sides_piece_read_unsurely_while_another_square_may_hold_it_is_looked_at_again_art_22():
    """The same board with square 2 read empty, but a black man its second choice: Black's
    king may stand there as well as on 48, and the camera is asked again."""
    board, readings = _kings_end({
        48: SquareReading(Piece(BLACK, True), 0.49, alternative=None),
        2: SquareReading(None, 0.6, alternative=Piece(BLACK, False)),
    })
    arb = _kings_after_two()
    events = []
    for _ in range(3):
        events.extend(arb.observe(settled(board, readings=readings)))
    assert not of(events, MovePlayed)
    assert of(events, LookAgain)
    assert not of(events, Irregularity)


#: 32-28 19-23 28x19 14x23 31-27 from the start position: four plies seen whole in passing,
#: the fifth on a still board whose squares of the first four lie under a hand.
UNDER_HAND_LINE = ("32-28", "19-23", "28x19", "14x23", "31-27")
UNDER_HAND = (14, 19, 23, 24, 28, 32, 33)


def _under_hand_positions() -> list[Position]:
    positions = [Position.start()]
    for text in UNDER_HAND_LINE:
        positions.append(positions[-1].play_text(text))
    return positions


def _framed(board, frame: int, hidden=(), guess=None, provisional: bool = False, lifted=(),
            lifted_at=()):
    """``board`` read at the watcher's ``frame``, ``hidden`` squares under a hand (read as
    ``guess`` has them, unsurely)."""
    guess = board if guess is None else guess
    readings = {sq: SquareReading(guess.get(sq), 0.5, None, True) for sq in hidden}
    s = settled(board, readings=readings, time=frame / 10.0, lifted=lifted)
    return replace(s, frame=frame, provisional=provisional, lifted_at=lifted_at)


def test_squares_under_a_hand_are_read_as_last_seen_in_view_to_record_legal_play_art_22():
    # At blitz a hand rests over squares where four plies were played; they were seen whole on
    # a board in passing (four plies on: kept as evidence), and the still board after the fifth
    # ply has them under the hand.  Read as they were last seen, nothing seen changing on them
    # since, the board is five plies on and the line is recorded (the system bench's selfplay-20
    # at seed 7474006: an arm rested over a third of the board for 36 s, nothing was recorded).
    positions = _under_hand_positions()
    arb = Arbiter()
    assert arb.observe(_framed(positions[4].pieces(), 30, provisional=True)) == ()
    assert arb.game.ply == 0
    still = _framed(positions[5].pieces(), 60, hidden=UNDER_HAND, guess=positions[0].pieces())
    events = arb.observe(still)
    assert texts(events) == list(UNDER_HAND_LINE)
    assert not of(events, Irregularity)


#: Ten quiet plies; the board after the fifth is seen in passing, the hand over Black's back
#: rank, and the board after the tenth is read still with the hand there.
ASIDE_LINE = ("33-28", "17-21", "31-27", "18-23", "34-30", "20-25", "39-34", "13-18", "44-39",
              "11-17")
BACK_RANK = (1, 2, 3, 4, 5, 6, 9, 10)


def test_a_board_in_passing_read_whole_as_last_seen_joins_the_evidence_when_nothing_else_explains_art_22():
    # The board five plies on is seen in passing with a hand resting over Black's back rank,
    # squares no move changed since they were seen in view.  Read as last seen there it is whole
    # and legal play explains it; it is set aside (a joined board kept as evidence always held
    # back a deep search that caught up nine plies at quick play: the system bench's selfplay-16
    # at seed 7474002).  The still board ten plies on, the hand still there, is beyond any
    # search of its own; the board set aside joins the evidence, and the ten plies are recorded
    # on its second reading, through the board five plies on (the order of each five was not
    # seen, and is said: the lines are of different moves).  Without it the record stood still for the third reading too.
    positions = [Position.start()]
    for text in ASIDE_LINE:
        positions.append(positions[-1].play_text(text))
    arb = Arbiter()
    assert arb.observe(_framed(positions[0].pieces(), 10)) == ()
    assert arb.observe(_framed(positions[5].pieces(), 50, BACK_RANK, provisional=True)) == ()
    first = arb.observe(_framed(positions[10].pieces(), 100, BACK_RANK))
    assert of(first, LookAgain) and arb.game.ply == 0
    events = arb.observe(_framed(positions[10].pieces(), 110, BACK_RANK))
    assert len(of(events, MovePlayed)) == 10 and not of(events, Irregularity)
    assert arb.position.pieces() == positions[10].pieces()
    after_five = Position.start()
    for move in arb.game.moves[:5]:
        after_five = after_five.play(move)
    assert after_five.pieces() == positions[5].pieces()
    assert any(ORDER_UNSEEN in c.text or ROUTE_UNSEEN in c.text
               for c in of(events, ScoresheetComment))
