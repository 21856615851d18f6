"""Quick play with hands never still beside the board (issue 15): rendered frames through the
whole companion.

Another renderer's players showed what the project's own did not: a hand resting at the board's
edge that drifts all the while, an arm always on its way over the border, the reply begun
before the other hand left.  The view was then never still for eight to seventeen plies, no
still board was read, and the record fell behind further than any catch-up reaches.  The board
itself stood untouched for a moment after every move; the watcher offers what it reads then
(`BoardWatcher.offered`) and the arbiter takes it when legal play explains it.  The renderer's
paces now draw such fidgeting hands (`renderer.sequence.Pace.fidget`), so every bench measures it.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest

from device.render_source import RenderedSource
from device.service import Companion
from device.store import GameStore
from renderer.sequence import Pace
from rules.events import Irregularity, TouchMove
from rules.game import Game
from rules.pdn import read_file
from tests.conftest import DATA


def opening(plies: int, index: int = 3) -> Game:
    """The first ``plies`` plies of a real lidraughts game."""
    full = read_file(str(DATA / "lidraughts-frisian.pdn"))[index].game
    game = Game(start=full.start, tags=dict(full.tags))
    for move, after in zip(full.moves[:plies], full.positions[1:plies + 1]):
        game.push(move, after)
    return game


@pytest.mark.parametrize("fps, seed, early", [(6, 3, 0.0), (6, 11, 0.6)])
def test_blitz_with_a_hand_fidgeting_at_the_edge_after_every_move_is_recorded_move_by_move(
        tmp_path: Path, fps: int, seed: int, early: float):
    # Every pause has the mover's hand resting at the edge and drifting, and (second case) most
    # replies begin before the other hand left: the view is seldom still between moves, yet
    # every move is recorded, none irregular.  Read from still views alone, the first scene
    # named a capture Art. 27b (the board read with the reply's piece in hand), the second lost
    # the game after 4 plies.
    game = opening(10)
    pace = replace(Pace.blitz(), rest=1.0, fidget=1.0, early_reply=early)
    source = RenderedSource(game, fps=fps, seed=seed, pace=pace)
    c = Companion(source=source, store=GameStore(tmp_path / "games.sqlite3"),
                  tags={"Event": "test"}, corner_46=None, start=game.start)
    seen = []
    c.run(threading.Event(), on_frame=lambda f, events: seen.extend(events))
    assert not [e for e in seen if isinstance(e, (Irregularity, TouchMove))], \
        [str(e) for e in seen]
    assert c.arbiter.game.move_texts() == game.move_texts()


def test_a_board_seen_in_passing_teaches_only_what_it_read_as_the_game_has_it(
        tmp_path: Path, monkeypatch):
    # A board in passing is read while the view is busy beside it: its squares may show a
    # hand's shadow or a captured man on its way off.  Taught as what the game puts there, three
    # empty dark squares in a dim room read as dark men from then on (the other renderer's
    # selfplay-30, a false Art. 27).  Taught nothing, a square a man had just left, never seen
    # empty, read as the man still there (its selfplay-8, a false Art. 27).  A board taken in
    # passing teaches each square the game's content only where it was read so.
    from vision.colours import BLACK_PIECE, EMPTY, WHITE_PIECE
    from vision.pipeline import BoardWatcher

    kinds = {EMPTY: None, WHITE_PIECE: "W", BLACK_PIECE: "B"}
    taught: list[tuple[dict, dict]] = []  # (what each square was taught, what it was read as)
    state: dict = {"passing": None, "watcher": None}
    accept, confirm, learn = BoardWatcher.accept, BoardWatcher.confirm, BoardWatcher._learn

    def accepting(self, settled):
        state["passing"], state["watcher"] = settled.observation, self
        accept(self, settled)

    def confirming(self, board):
        try:
            confirm(self, board)
        finally:
            state["passing"] = None

    def learning(cal, view, labels, rate=0.1):
        obs = state["passing"]
        if obs is not None:
            cells = cal.orientation.square_cells()
            given = {sq: kinds[int(labels[r, c])] for sq, (r, c) in enumerate(cells, start=1)
                     if labels[r, c] >= 0}
            read = {sq: None if obs.reading(sq).content is None
                    else obs.reading(sq).content.color.value for sq in given}
            taught.append((given, read))
        return learn(cal, view, labels, rate)

    monkeypatch.setattr(BoardWatcher, "accept", accepting)
    monkeypatch.setattr(BoardWatcher, "confirm", confirming)
    monkeypatch.setattr(BoardWatcher, "_learn", staticmethod(learning))
    game = opening(14)
    pace = replace(Pace.blitz(), rest=1.0, fidget=1.0, early_reply=0.6)
    source = RenderedSource(game, fps=6, seed=11, pace=pace)
    c = Companion(source=source, store=GameStore(tmp_path / "games.sqlite3"),
                  tags={"Event": "test"}, corner_46=None, start=game.start)
    c.run(threading.Event())
    assert c.arbiter.game.move_texts() == game.move_texts()
    assert taught, "no board taken in passing taught anything: the scene no longer tests this"
    for given, read in taught:
        assert given == read
