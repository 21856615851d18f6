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

import numpy as np
import pytest

from device.render_source import RenderedSource
from device.service import Companion
from device.store import GameStore
from renderer.sequence import Pace
from rules.events import Irregularity, ScoresheetComment, TouchMove
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
    pace = replace(Pace.blitz(), rest=1.0, fidget=1.0, early_reply=early, drape=0.0)
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
    pace = replace(Pace.blitz(), rest=1.0, fidget=1.0, early_reply=0.6, drape=0.0)
    source = RenderedSource(game, fps=6, seed=11, pace=pace)
    c = Companion(source=source, store=GameStore(tmp_path / "games.sqlite3"),
                  tags={"Event": "test"}, corner_46=None, start=game.start)
    c.run(threading.Event())
    assert c.arbiter.game.move_texts() == game.move_texts()
    assert taught, "no board taken in passing taught anything: the scene no longer tests this"
    for given, read in taught:
        assert given == read


def test_a_move_made_while_the_other_hand_hovers_over_the_board_is_recorded_beside_it(tmp_path):
    # After 32-28, White's hand comes back over his own men and hovers there, never still,
    # while Black plays 19-23, and long after Black's hand has left: the board is never seen
    # without a hand over it.  The squares of the reply stand quiet beside the hovering hand,
    # and the reply is recorded from them while the hand is still there (the other renderer's
    # lidraughts-1, seed 33007: ten plies with a hand always over the board, none recorded
    # for 21 s).
    from collections import namedtuple

    from renderer.render import Camera, Hand, Lighting, Renderer, Style
    from rules.piece import BLACK, WHITE, Piece
    from rules.position import Position
    from rules.squares import column, row
    from tests.device_helpers import watch

    def centre(sq: int) -> tuple[float, float]:
        return (column(sq) + 0.5) * 40.0, (row(sq) + 0.5) * 40.0

    def played(position: Position, text: str) -> Position:
        return position.play(next(m for m in position.legal_moves() if position.move_text(m) == text))

    def move(before: Position, after: Position, frm: int, to: int, color, side: float) -> list:
        """A hand lifting the man on ``frm`` and putting it on ``to``, then leaving."""
        (x0, y0), (x1, y1) = centre(frm), centre(to)
        held = {sq: p for sq, p in before.pieces().items() if sq != frm}
        return ([(before.pieces(), [Hand(x_mm=x0, y_mm=y0, height_mm=35.0, from_deg=side)])] * 3
                + [(held, [Hand(x_mm=(x0 + x1) / 2, y_mm=(y0 + y1) / 2, height_mm=50.0,
                                from_deg=side, holding=Piece(color))])] * 2
                + [(after.pieces(), [Hand(x_mm=x1, y_mm=y1, height_mm=30.0, from_deg=side)])] * 2
                + [(after.pieces(), [Hand(x_mm=x1, y_mm=y1 - 90.0 * k * np.sin(np.radians(side)),
                                          height_mm=60.0, from_deg=side)]) for k in (1, 2, 3)])

    start = Position.start()
    first = played(start, "32-28")
    second = played(first, "19-23")
    script = ([(start.pieces(), [])] * 15 + move(start, first, 32, 28, WHITE, 90.0)
              + [(first.pieces(), [])] * 8 + [(first.pieces(), ["w"])] * 3
              + [(board, hands + ["w"]) for board, hands in move(first, second, 19, 23, BLACK, -90.0)]
              + [(second.pieces(), ["w"])] * 20)
    renderer, style, light = Renderer(), Style(), Lighting(noise=1.0)
    cam = Camera(tilt_deg=35.0, yaw_deg=10.0, distance_mm=800.0)
    Shot = namedtuple("Shot", "image time index")
    frames = []
    for i, (board, hands) in enumerate(script):
        # White's hand hovers over his men, drifting a centimetre or two from frame to frame
        hovering = Hand(x_mm=200.0 + 15.0 * np.sin(1.7 * i), y_mm=300.0 + 10.0 * np.cos(1.1 * i),
                        height_mm=35.0, from_deg=90.0)
        drawn = [hovering if h == "w" else h for h in hands]
        image = renderer.render(board, cam, style, light, hand=drawn or None, seed=i).image
        frames.append(Shot(image, i / 10.0, i))
    c, events = watch(tmp_path, frames, corner_46=None, start=start)
    assert c.arbiter.game.move_texts() == ["32-28", "19-23"]
    assert not [e for e in events if isinstance(e, (Irregularity, TouchMove))], [str(e) for e in events]


def test_quick_play_with_the_next_mover_hovering_over_the_board_is_recorded_move_by_move(
        tmp_path: Path):
    # Every move, the next mover's hand comes in over its own side while the mover still
    # plays, and hovers there, drifting, until its own move (`Pace.hover`): two hands over the
    # board at once, and ply after ply no board seen without a hand over some squares.  Every
    # move is recorded as it is made, from boards read beside the hands, and nothing irregular
    # or touched is named.  Nothing was: the first move, with the board's orientation still
    # the lighter-pieces guess, waited for a still board that never came; and once it was
    # taken, pieces seen "put down" in passing on squares where men stood all along (under
    # the hovering hand's edge) kept every later board from being taken.
    fps, seed = 10, 5
    game = opening(10)
    pace = replace(Pace.quick(), hover=1.0, drape=0.0)
    source = RenderedSource(game, fps=fps, seed=seed, pace=pace)
    c = Companion(source=source, store=GameStore(tmp_path / "games.sqlite3"),
                  tags={"Event": "test"}, corner_46=None, start=game.start)
    seen = []
    both = []  # frames with both players' hands in the picture
    c.run(threading.Event(), on_frame=lambda f, events: (
        seen.extend(events), both.append(sum(source.truth.rendered.hands_in_picture) >= 2)))
    assert sum(both) > 3 * fps  # the habit drawn: seconds of two hands at once
    assert not [e for e in seen if isinstance(e, (Irregularity, TouchMove))], \
        [str(e) for e in seen]
    assert c.arbiter.game.move_texts() == game.move_texts()
    assert not [e for e in seen if isinstance(e, ScoresheetComment)], [str(e) for e in seen]


def _watched(frames, tmp_path: Path) -> tuple[Companion, list]:
    """A new game's companion (square 46's corner from the renderer) fed ``frames``: it and the
    events it announced."""
    from device.sources import Frame

    c = Companion(source=None, store=GameStore(tmp_path / "games.sqlite3"),
                  tags={"Event": "test"}, corner_46=frames[0].corner_46)
    c.open_game()
    events = []
    for f in frames:
        events.extend(c.process(Frame(f.image, f.time, f.index)))
    return c, events


def test_a_hand_the_colour_of_the_board_reaching_past_a_man_is_no_touch_move(tmp_path: Path):
    """Art. 15 (touch-move) is named only for a piece seen lifted.  The bench's selfplay-6 at
    seed 3535000, redrawn: White's hand the colour of the dark squares, which the motion view
    does not find as a hand over the board, reached past the man on 34 to play 30-24 after
    hovering; the man read empty beside it, "clear of the hand", and a false touch-move was
    named.  The light squares around it had changed under the hand: the man was not seen
    lifted, and the move is recorded."""
    from renderer.render import Camera, Lighting, Style
    from rules.piece import Color
    from rules.position import Position
    from tests.vision_helpers import bench_scene, moves_of

    camera = Camera(tilt_deg=19.472, yaw_deg=-152.855, roll_deg=8.469, distance_mm=955.452,
                    fov_deg=69.366, k1=-0.05471, k2=0.01476, look_dx_mm=-5.965,
                    look_dy_mm=10.069)
    style = Style(light_square=(179, 215, 221), dark_square=(47, 33, 124), border=(32, 24, 126),
                  table=(40, 80, 151), white_piece=(143, 60, 32), black_piece=(67, 216, 224),
                  border_print=None, edge_line=(28, 19, 74), border_mm=44.011,
                  piece_diameter=0.8376, man_height=0.24374, side_shade=0.7613,
                  piece_relief=0.6292, piece_gloss=0.4931, square_grain=0.2818,
                  table_grain=0.4942, texture_seed=292942822)
    lighting = Lighting(gradient=0.1321, gradient_deg=72.5, vignette=0.2493, exposure=0.6035,
                        white_balance=(0.9365, 1.0103, 0.9424), glare=0.0, shadow=0.1115,
                        light_azimuth_deg=118.04, light_elevation_deg=84.7, noise=0.0,
                        blur=1.1256, jpeg_quality=None, sheen=0.033)
    start = Position.start()
    texts = ["35-30", "20-25", "30-24"]
    frames = bench_scene(start, moves_of(*texts, start=start), 3535000, camera, style, lighting,
                         fps=15, skins={Color.WHITE: (34, 20, 119)})
    c, events = _watched(frames, tmp_path)
    assert not [e for e in events if isinstance(e, (Irregularity, TouchMove))], \
        [str(e) for e in events]
    assert c.arbiter.game.move_texts() == texts


def test_a_hand_the_colour_of_the_table_paused_over_the_board_is_no_touch_move(tmp_path: Path):
    """Art. 15 (touch-move) is named only for a piece seen lifted.  The bench's lidraughts-2 at
    seed 3737001, redrawn: in a dim room (exposure 0.66) White's arm, the colour of the table
    and the border, crosses the border unseen, so the motion view finds no region reaching in
    from the table.  Reaching for 41x32, the hand paused for two frames over the man on 47;
    the board was taken as settled under it, the man "lifted", and after 41x32 a false
    touch-move was named.  The light squares under the hand changed, and no piece that moved
    explains that: it is a hand over the board, and the board waits for it to leave."""
    from renderer.render import Camera, Lighting, Style
    from rules.position import Position
    from tests.vision_helpers import bench_scene, moves_of

    camera = Camera(tilt_deg=26.912, yaw_deg=111.043, roll_deg=-2.754, distance_mm=1127.986,
                    fov_deg=46.778, k1=-0.09323, k2=0.01782, look_dx_mm=-5.739,
                    look_dy_mm=9.203)
    style = Style(light_square=(152, 225, 228), dark_square=(59, 131, 175), border=(46, 68, 117),
                  table=(43, 75, 106), white_piece=(177, 211, 214), black_piece=(39, 27, 79),
                  border_print=None, edge_line=None, border_mm=19.459, piece_diameter=0.8605,
                  man_height=0.2002, side_shade=0.8008, piece_relief=0.7086, piece_gloss=0.0445,
                  square_grain=0.0224, table_grain=0.4781, texture_seed=500486347)
    lighting = Lighting(gradient=0.0603, gradient_deg=353.238, vignette=0.2149, exposure=0.6636,
                        white_balance=(0.9042, 0.9786, 1.0978), glare=0.0, shadow=0.1394,
                        light_azimuth_deg=104.976, light_elevation_deg=82.377, noise=0.0,
                        blur=1.1259, jpeg_quality=None, sheen=0.042)
    start = Position.start()
    texts = ["31-26", "20-25", "37-31", "14-20", "32-27", "17x37", "41x32"]
    frames = bench_scene(start, moves_of(*texts, start=start), 3737001, camera, style, lighting,
                         fps=15)
    c, events = _watched(frames, tmp_path)
    assert not [e for e in events if isinstance(e, (Irregularity, TouchMove))], \
        [str(e) for e in events]
    assert c.arbiter.game.move_texts() == texts
