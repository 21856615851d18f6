"""The service on the other renderer's scenes (altrender/: its own scene code, piece sets and
camera): boards this project's renderer does not draw, taken and followed with the defaults."""

from __future__ import annotations

import logging

import pytest

from altrender.source import AltRenderedSource
from device.service import Companion
from device.store import GameStore
from rules.events import Irregularity
from rules.game import Game
from rules.position import Position

#: The first plies of the real game the other renderer's bench played in that scene
#: (lidraughts-10).
OPENING = ("34-30", "20-25", "39-34")


def watched(tmp_path, game: Game, seed: int, fps: float, until: float | None = None,
            set_up: bool = False):
    """The companion with its defaults after the other renderer's frames of ``game`` in the
    scene of ``seed`` (until ``until`` seconds, when given; ``set_up``: the game's set-up
    position given as its start): it, and what it said."""
    source = AltRenderedSource(game, seed, fps=fps, tail_s=3.0)
    source.open()
    c = Companion(source=None, store=GameStore(tmp_path / "games.sqlite3"), tags={"Event": "t"},
                  corner_46=source.corner_46, start=game.start if set_up else None)
    c.open_game()
    events = []
    while (frame := source.read()) is not None and (until is None or frame.time < until):
        events.extend(c.process(frame))
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    return c, events


def test_a_start_position_whose_dark_men_have_the_dark_squares_colour_is_taken_by_their_outlines(
        tmp_path, caplog):
    """The other renderer's scene at seed 43003: a grey and white board whose black men are the
    grey of the dark squares (their colours 0.35 spreads apart, where a start position needs
    0.6), but each man shows its round outline and no empty square does.  The start position
    was never taken and not one move of 30 was recorded; the board must be found, and the
    moves followed."""
    caplog.set_level(logging.INFO, logger="device.service")
    game = Game()
    for text in OPENING:
        game.push_text(text)
    source = AltRenderedSource(game, 43003, fps=6.0, tail_s=3.0)
    source.open()
    c = Companion(source=None, store=GameStore(tmp_path / "games.sqlite3"), tags={"Event": "t"})
    c.open_game()
    events = []
    while (frame := source.read()) is not None:
        events.extend(c.process(frame))
    notes = [r.getMessage() for r in caplog.records]
    assert any(n.startswith("Board found") for n in notes), notes
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == list(OPENING)


def test_a_fist_hovering_over_the_far_edge_hides_the_corner_of_a_square_it_covers(tmp_path):
    """The other renderer's selfplay-50 at seed 43009: after White's first move the next
    mover's fist hovered still over the board's far edge, its sleeve on the table: a hand beside
    the board, over no square as a hand over the board covers one, but over a corner of the
    empty square 10, which read as a black man at 0.98 once the board stood still: a false
    Art. 27 ("several pieces moved").  What it covers of a square is not seen."""
    game = Game(start=Position.from_fen("W:W16,30,K43:BK8,14,K35,37"))
    for text in ("43-49", "35x19"):
        game.push_text(text)
    c, _ = watched(tmp_path, game, 43009, fps=15.0, set_up=True)
    assert c.arbiter.game.move_texts() == ["43-49", "35x19"]


def test_dark_men_the_colour_of_the_dark_squares_are_read_by_their_outlines(tmp_path):
    """The other renderer's selfplay-12 at seed 47010: maple and walnut men on a maple and
    walnut board.  The dark men moved onto squares they never stood on read as empty, and an
    empty square as a man: after 31-27 not one move of 30 was recorded.  Each man shows its
    round outline, no empty square does; read by outline as well as colour, the moves are
    followed."""
    game = Game()
    for text in ("31-27", "18-23", "34-29", "23x34"):
        game.push_text(text)
    c, _ = watched(tmp_path, game, 47010, fps=15.0)
    assert c.arbiter.game.move_texts() == game.move_texts()


def test_an_arms_shadow_over_the_board_at_quick_play_is_no_hand(tmp_path):
    """The other renderer's selfplay-30 at seed 5757004: one lamp, quick play, and the arm of
    the player who just moved resting beside the board, its long shadow over a third of the
    squares.  Joined through that shadow to a man moved since the last still board, the arm was
    a hand over 20-60 squares on every frame: the board was never still for 53 seconds and
    not one of the first 30 plies was recorded.  Under the shadow the squares' pattern is seen,
    only darker (`vision.motion.shadow`): such a shadow joins nothing to the arm, and the men
    moved under it go into the still view in the light round them."""
    # the scene's timing is the whole game's: its first 30 plies, watched for 40 seconds
    game = Game()
    for text in ("35-30 20-25 32-27 18-23 34-29 25x21 29x20 10x30 40x20 15x24 38-32 12-18 "
                 "31-26 7-12 32-28 18x40 50x10 5x14 37-32 13-18 32-27 21x32 42x15 17-21 "
                 "26x17 16x18 41-37 1-7 43-38 11-17").split():
        game.push_text(text)
    c, _ = watched(tmp_path, game, 5757004, fps=6.0, until=40.0)
    # by 40 s ten plies were recorded (the eleventh, played at 35 s, waits for a still board)
    got = c.arbiter.game.move_texts()
    assert len(got) >= 10 and got == game.move_texts()[:len(got)], got
