"""`rules.in_view`: squares under a hand read as they were last seen in view (the arbiter's
boards under a resting arm at blitz, RULES.md "On the physical board")."""

from __future__ import annotations

from dataclasses import replace

from rules.in_view import InView
from rules.observation import SquareReading
from rules.piece import BLACK, WHITE, Piece
from rules.position import Position
from tests.helpers import settled

WM, BM = Piece(WHITE), Piece(BLACK)


def _framed(board, frame: int, hidden=(), lifted=(), lifted_at=()):
    """``board`` read at the watcher's ``frame``, ``hidden`` squares under a hand (read
    empty, unsurely)."""
    readings = {sq: SquareReading(None, 0.5, None, True) for sq in hidden}
    s = settled(board, readings=readings, time=frame / 10.0, lifted=lifted)
    return replace(s, frame=frame, lifted_at=lifted_at)


def test_a_square_under_a_hand_is_read_as_last_seen_in_view():
    start = Position.start().pieces()
    view = InView()
    view.remember(_framed(start, 10))
    joined = view.joined(_framed(start, 20, hidden=(19, 32)), {})
    assert joined is not None and not joined.observation.occluded
    assert joined.observation.reading(19).content == BM
    assert joined.observation.reading(32).content == WM


def test_a_square_seen_changing_since_it_was_last_in_view_stays_unread():
    # 19's man was seen lifted at frame 15, after the square was last in view (frame 10): what
    # stands there now may not be what was seen.  A lift of unknown frame counts as later too;
    # one seen before the square was last in view does not.
    start = Position.start().pieces()
    view = InView()
    view.remember(_framed(start, 10))
    later = view.joined(_framed(start, 20, hidden=(19, 32)), {("lifted", 19): 15})
    assert later.observation.occluded == (19,)
    unknown = view.joined(_framed(start, 20, hidden=(19, 32), lifted=(19,), lifted_at=()), {})
    assert unknown.observation.occluded == (19,)
    earlier = view.joined(_framed(start, 20, hidden=(19, 32)), {("lifted", 19): 5})
    assert not earlier.observation.occluded


def test_a_square_never_seen_in_view_or_read_unsurely_is_not_filled():
    start = Position.start().pieces()
    view = InView()
    unsure = {23: SquareReading(WM, 0.6)}
    view.remember(replace(settled(start, readings=unsure, time=1.0), frame=10))
    assert view.joined(_framed(start, 20, hidden=(23,)), {}) is None
    view.forget()
    assert view.joined(_framed(start, 20, hidden=(19,)), {}) is None
