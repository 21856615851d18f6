"""The service on the other renderer's scenes (altrender/: its own scene code, piece sets and
camera): boards this project's renderer does not draw, taken and followed with the defaults."""

from __future__ import annotations

import logging

from altrender.source import AltRenderedSource
from device.service import Companion
from device.store import GameStore
from rules.events import Irregularity
from rules.game import Game
from rules.position import Position

#: The first plies of the real game the other renderer's bench played in that scene
#: (lidraughts-10).
OPENING = ("34-30", "20-25", "39-34")


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
    source = AltRenderedSource(game, 43009, fps=15.0, tail_s=3.0)
    source.open()
    c = Companion(source=None, store=GameStore(tmp_path / "games.sqlite3"), tags={"Event": "t"},
                  corner_46=source.corner_46, start=game.start)
    c.open_game()
    events = []
    while (frame := source.read()) is not None:
        events.extend(c.process(frame))
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
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
    source = AltRenderedSource(game, 47010, fps=15.0, tail_s=3.0)
    source.open()
    c = Companion(source=None, store=GameStore(tmp_path / "games.sqlite3"), tags={"Event": "t"},
                  corner_46=source.corner_46)
    c.open_game()
    events = []
    while (frame := source.read()) is not None:
        events.extend(c.process(frame))
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == game.move_texts()
