"""The vision pipeline on rendered frames: board finding in varied poses, calibration and
reading (kings at a tilted camera), and a rendered game through motion and settling."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rules.piece import BLACK, WHITE, Piece
from rules.position import Position
from vision.locate import find_board
from vision.pipeline import BoardWatcher, Orientation, WatchConfig
from renderer.render import Camera, Lighting, Style, game_frames, render
from renderer.sequence import Pace

from tests.conftest import OPENCV_46
from tests.vision_helpers import boards_after, corner_error_squares, drawn, moves_of



@pytest.mark.parametrize("seed", [2, 4, 9])  # lens k1 of -0.05, -0.05, -0.02 (see the report on distortion)
def test_board_found_in_random_poses_styles_and_light(seed):
    rng = np.random.default_rng(seed)
    cam, style, light = Camera.random(rng), Style.random(rng), Lighting.random(rng)
    r = render(Position.start().pieces(), cam, style, light, seed=seed)
    loc = find_board(r.image)
    assert corner_error_squares(loc.corners, r.corners, any_rotation=True) < 0.15
    # image order: the found corners are the renderer's, in the same order
    assert np.linalg.norm(loc.corners - r.corners, axis=1).max() < 0.15 * loc.square_px


@pytest.mark.parametrize("seed", [1, 17])  # lens k1 -0.11 and -0.02; pieces pull corners off
def test_corners_pulled_off_by_pieces_do_not_tilt_the_board(seed, request):
    """A grid corner beside a piece is sometimes pulled a few pixels off by the piece's edge;
    let in, a few of them tilted these boards by 0.14 and 0.10 square at the far edge."""
    if seed == 17 and not OPENCV_46:
        # the first partial pattern (9x5, the normalised copy searched as it is since issue 16)
        # grows 63 corners as before, but not the same 63: the lens fit finds no bend worth
        # keeping in them and the corners end 0.080 square off (0.023 on OpenCV 4.6, whose
        # pattern's corners keep the lens; the reverse of before)
        request.node.add_marker(pytest.mark.xfail(
            strict=True, reason="the lens is not kept on this seed's corners (0.080 square)"))
    rng = np.random.default_rng(seed)
    cam, style, light = Camera.random(rng), Style.random(rng), Lighting.random(rng)
    # (the men as high as when these scenes were found: drawn then from 0.17-0.25 of a square)
    style = replace(style, man_height={1: 0.2434, 17: 0.2227}[seed])
    r = render(Position.start().pieces(), cam, style, light, seed=seed)
    loc = find_board(r.image)
    assert corner_error_squares(loc.corners, r.corners, any_rotation=True) < 0.07


def test_a_detector_locked_onto_every_other_row_is_not_taken_for_the_board():
    """In a dim picture the chessboard detector found every other row of corners but every
    column: that lattice is made of real corners too, and grew into a board one and a half
    times too long; the seed is also tried with one axis halved, and the fit with the most
    corners wins."""
    cam, style, light, rng = drawn(7, 8)
    assert light.exposure < 0.5
    r = render(Position.start().pieces(), cam, style, light, seed=8)
    loc = find_board(r.image)
    # The lattice taken for the board ends five squares off; the right fit ends 0.03-0.11 square
    # off, by the OpenCV and the processor it runs on (0.11: Debian's 4.6 on an AMD EPYC).
    assert corner_error_squares(loc.corners, r.corners, any_rotation=True) < 0.15



def test_a_lattice_of_cells_two_squares_wide_or_a_row_off_is_not_taken_for_the_board():
    """The scene of the system bench's lidraughts-8 at seed 404022: the start position far from
    a camera 20 degrees off vertical, under a low lamp whose pieces' shadows hide most grid
    corners near the edges.  The detector locked onto every other column; that lattice grew as
    many corners as the right one, and won by a tenth of its window's margin: a board twice its
    width, never read as the start position, and not one of 40 moves recorded.  Its cells
    cannot be squares for any camera (`vision.locate._stretch`).  The right lattice then placed
    its window a row off, into the border (the corners by the edges hidden): the row of
    squares left beyond its side says it is not the playing area."""
    cam = Camera(tilt_deg=20.5, yaw_deg=151.6, roll_deg=-3.9, distance_mm=1706.0, fov_deg=47.9,
                 k1=-0.053, k2=0.012, look_dx_mm=5.8, look_dy_mm=-14.6, width=1280, height=960)
    style = Style(light_square=(160, 199, 206), dark_square=(56, 101, 127), border=(36, 61, 56),
                  table=(63, 156, 181), white_piece=(49, 191, 225), black_piece=(123, 37, 6),
                  edge_line=(33, 60, 76), border_mm=29.2, piece_diameter=0.867, man_height=0.203,
                  side_shade=0.886, piece_relief=0.92, piece_gloss=0.46, square_grain=0.089,
                  table_grain=0.32, texture_seed=943380241)
    light = Lighting(gradient=0.40, gradient_deg=144.1, vignette=0.29, exposure=0.905,
                     white_balance=(0.891, 1.091, 1.099), shadow=0.74, light_azimuth_deg=3.2,
                     light_elevation_deg=35.0, blur=1.11, sheen=0.81, lamp_distance_mm=728.0,
                     lamp_colour=(231, 245, 255), noise=3.0)
    r = render(Position.start().pieces(), cam, style, light, seed=1)
    loc = find_board(r.image)
    # a lattice two squares wide ends ten squares off, a window a row off one square
    assert corner_error_squares(loc.corners, r.corners, any_rotation=True) < 0.35
    watcher = BoardWatcher(WatchConfig(corner_46=r.corner_46))
    watcher.calibrate(r.image)  # the start position, read as such
    assert watcher.read(render(Position.start().pieces(), cam, style, light, seed=2).image
                        ).board() == Position.start().pieces()


def test_orientation_maps_square_46_to_its_corner():
    for corner in range(4):
        o = Orientation.from_corner_46(corner)
        r, c = o.square_cells()[45]
        assert (r in (0, 9)) and (c in (0, 9))
        assert {(0, 0): 0, (0, 9): 1, (9, 9): 2, (9, 0): 3}[(r, c)] == corner
        assert (r + c) % 2 == o.dark_parity
    with pytest.raises(ValueError):
        Orientation.from_corner_46(5)


def test_calibrated_reading_with_kings_at_a_tilted_camera():
    cam = Camera(tilt_deg=32.0, yaw_deg=10.0, distance_mm=800.0)
    style = Style.real_photos()
    start = render(Position.start().pieces(), cam, style, seed=1)
    watcher = BoardWatcher(WatchConfig(corner_46=start.corner_46))
    cal = watcher.calibrate(start.image)
    assert cal.orientation.corner_46 == start.corner_46
    pieces = {3: Piece(BLACK), 8: Piece(BLACK, True), 19: Piece(WHITE, True), 24: Piece(WHITE),
              33: Piece(WHITE), 41: Piece(BLACK), 47: Piece(WHITE, True), 28: Piece(BLACK, True)}
    r = render(pieces, cam, style, seed=2)
    obs = watcher.read(r.image)
    # every square's colour and occupancy right
    assert {sq: p.color for sq, p in obs.board().items()} == {sq: p.color for sq, p in pieces.items()}
    kings = [sq for sq, p in pieces.items() if p.king]
    found = [sq for sq in kings if obs.reading(sq).content == pieces[sq]]
    # a king is found, or at least named as the reading's alternative (the arbiter knows kings
    # only appear by promotion); men are never taken for kings
    assert len(found) >= 3
    for sq in kings:
        assert obs.reading(sq).content == pieces[sq] or obs.reading(sq).alternative == pieces[sq]
    assert all(not obs.reading(sq).content.king for sq, p in pieces.items() if not p.king)


def test_calibration_learns_the_orientation_from_the_start_position():
    cam = Camera(tilt_deg=20.0, yaw_deg=90.0)  # the board appears turned a quarter
    r = render(Position.start().pieces(), cam, Style(), seed=3)
    watcher = BoardWatcher()  # white's men are the lighter ones in the default style
    cal = watcher.calibrate(r.image)
    assert cal.orientation.corner_46 == r.corner_46
    assert watcher.read(r.image).board() == Position.start().pieces()


@pytest.fixture(scope="module")
def game_run():
    moves = moves_of("32-28", "19-23", "28x19", "14x23")
    cam = Camera(tilt_deg=25.0, yaw_deg=-15.0, distance_mm=850.0)
    frames = list(game_frames(Position.start(), moves, fps=15, camera=cam,
                              style=Style.real_photos(), lighting=Lighting(noise=2.0), seed=5,
                              pause_s=0.8))
    watcher = BoardWatcher(WatchConfig(corner_46=frames[0].corner_46))
    watcher.calibrate(frames[0].image)
    out = []
    for f in frames:
        s = watcher.feed(f.image, f.time)
        if s is not None:
            out.append((f, s))
    return moves, frames, out, watcher


def test_game_one_settled_per_move_matching_truth(game_run):
    moves, frames, out, _ = game_run
    assert len(out) == len(moves)
    for f, s in out:
        assert not f.occluded, "settled while a hand covered squares"
        assert s.observation.board() == f.pieces
        assert s.lifted == f.lifted
        assert not s.complete


def test_settled_soon_after_the_hand_leaves(game_run):
    _, frames, out, _ = game_run
    for f, s in out:
        i = f.index
        j = i
        while j > 0 and not frames[j - 1].occluded:
            j -= 1
        assert f.time - frames[j].time <= 0.3 + 1e-6


def test_button_gives_a_complete_settled_but_never_under_a_hand(game_run):
    moves, frames, _, _ = game_run
    watcher = BoardWatcher(WatchConfig(corner_46=frames[0].corner_46, still_s=5.0))
    watcher.calibrate(frames[0].image)
    pressed_with_hand = pressed_clear = None
    for f in frames:
        watcher.feed(f.image, f.time)
        if f.hand and watcher.hand_present and pressed_with_hand is None:
            pressed_with_hand = watcher.button_pressed(f.time)
            assert pressed_with_hand is None
        if f.ply == 1 and not f.occluded and f.phase == "still" and pressed_clear is None:
            pressed_clear = watcher.button_pressed(f.time)
    assert pressed_clear is not None and pressed_clear.complete
    assert pressed_clear.observation.board() == Position.start().play(moves[0]).pieces()


def _watch_and_judge(moves, seed):
    """Frames of ``moves`` (each mover first lifting another piece and putting it back) through
    the calibrated watcher and the arbiter: (frames, settled, events)."""

    from renderer.sequence import Pace
    from rules.arbiter import Arbiter
    from rules.game import Game
    cam = Camera(tilt_deg=30.0, yaw_deg=0.0, distance_mm=800.0)
    # quick play, but every move seen still (a reply before that is the arbiter's to catch up)
    pace = replace(Pace.quick(), early_reply=0.0, hover=0.0, drape=0.0)
    frames = list(game_frames(Position.start(), moves, fps=10, camera=cam, style=Style(),
                              lighting=Lighting(noise=2.0), seed=seed, pace=pace,
                              put_backs=1.0))
    watcher = BoardWatcher(WatchConfig(corner_46=frames[0].corner_46))
    watcher.calibrate(frames[0].image)
    arbiter = Arbiter(Game())
    settled, events = [], []
    for f in frames[1:]:
        s = watcher.feed(f.image, f.time)
        if s is not None:
            settled.append((f, s))
            events.extend(arbiter.observe(s))
    return frames, settled, events



def _truth_lifts(frames) -> dict[int, tuple[int, ...]]:
    """The squares lifted in each ply's move as the renderer's truth keeps them (each ply's
    last frame with a lift: the truth starts the next move's when its hand comes in)."""
    out: dict[int, tuple[int, ...]] = {}
    for f in frames:
        if f.lifted:
            out[f.ply if f.phase in ("leave", "still", "rest") else f.ply + 1] = f.lifted
    return out


def test_a_piece_lifted_and_put_back_is_reported_and_binds_touch_move_art_15():
    # Quick play.  White lifts 42 (blocked: no breach) before 32-28; black lifts 18 (which
    # could go to 22 or 23), puts it back, and plays 19-23: the camera saw 18 empty beside the
    # hand, so the arbiter calls the touch-move breach (Art. 15, rule I).
    from rules.events import MovePlayed, TouchMove
    frames, settled, events = _watch_and_judge(moves_of("32-28", "19-23"), seed=5)
    truth = _truth_lifts(frames)
    assert [s.lifted for _, s in settled] == [(42, 32), (18, 19)] == [truth[1], truth[2]]
    assert [e.text for e in events if isinstance(e, MovePlayed)] == ["32-28"]
    [touch] = [e for e in events if isinstance(e, TouchMove)]
    assert (touch.rule, touch.square, touch.moved) == ("Art. 15, rule I", 18, 19)


def test_lifts_are_seen_beside_the_hand_and_never_guessed():
    # Every mover lifts another piece first.  The square is seen empty where neither it nor a
    # neighbour lies under the hand, as the motion view finds the hand (a lift the hand kept
    # hidden would be missing from `lifted`); no square is ever reported lifted that was not.
    frames, settled, events = _watch_and_judge(moves_of("32-28", "19-23", "28x19", "14x23"), seed=0)
    truth = _truth_lifts(frames)
    assert [f.ply for f, _ in settled] == [1, 2, 3, 4]
    for f, s in settled:
        assert s.observation.board() == f.pieces
        assert set(s.lifted) <= set(truth[f.ply])
        # the squares left empty (the mover's and the captured pieces) are always there
        assert {sq for sq in truth[f.ply] if sq not in f.pieces} <= set(s.lifted)
    assert [s.lifted for _, s in settled][3] == truth[4]
    # (white's 45, lifted and put back before 28x19, was under the hand: not guessed)
    assert [s.lifted for _, s in settled][2] == (28, 23) and truth[3] == (45, 28, 23)
    # black's lifts were seen: 20 (it could move: rule I; the breach stands once white
    # replied, Art. 27 rule IV) and 9 (9x20 was as good a capture as 14x23, so 9 had to
    # capture: rule II)
    from rules.events import MovePlayed, TouchMove
    assert [e.text for e in events if isinstance(e, MovePlayed)] == ["32-28", "19-23", "28x19"]
    touches = [e for e in events if isinstance(e, TouchMove)]
    assert [(t.rule, t.square, t.moved) for t in touches] == [
        ("Art. 15, rule I", 20, 19), ("Art. 15, rule II", 9, 14)]


def test_no_settled_board_under_a_hand_in_a_dim_light():
    """At a third of the usual light every contrast shrinks, a hand's against the board and
    its border too: a hand held still while carrying a piece was taken for a settled board.
    The change that counts follows the light."""
    cam, style, light, rng = drawn(7, 8)
    assert light.exposure < 0.5
    pos, moves = Position.start(), []
    for _ in range(2):  # the bench's first two moves of that game
        legal = pos.legal_moves()
        moves.append(legal[int(rng.integers(len(legal)))])
        pos = pos.play(moves[-1])
    # (every move's board seen still: no next mover's hand hovering over the board)
    frames = game_frames(Position.start(), moves, fps=10, camera=cam, style=style,
                         lighting=light, seed=8, jitter=0.3, touches=0.3,
                         pace=replace(Pace.of_seed(8), hover=0.0, drape=0.0))
    first = next(frames)
    watcher = BoardWatcher(WatchConfig(corner_46=first.corner_46))
    watcher.calibrate(first.image)
    hands = settled = 0
    for f in frames:
        s = watcher.feed(f.image, f.time)
        hands += f.hand
        if s is not None:
            settled += 1
            assert not f.occluded, f"settled at {f.time:.1f} s while a hand covered squares ({f.phase})"
            assert s.observation.board() == f.pieces
    assert hands > 20 and settled >= len(moves)


def test_a_noisy_dim_picture_settles_once_per_move_and_never_under_a_hand():
    """A cheap camera in a dim club room: a third of the usual light and strong noise (the
    scene of the system bench's selfplay-1 with seed 1006).  The change that counts follows the
    light down, and the noise rose above it: every frame showed "motion", no board ever settled
    and a whole game went unrecorded.  The change that counts stays above the picture's own
    noise."""
    cam, style, light, _ = drawn(1, 6)
    assert light.exposure < 0.5 and light.noise > 7
    moves = moves_of("32-28", "19-23", "28x19", "14x23")
    frames = game_frames(Position.start(), moves, fps=6, camera=cam, style=style,
                         lighting=light, seed=1006, pause_s=1.0,
                         pace=replace(Pace.of_seed(1006), hover=0.0, drape=0.0))  # every board seen still
    first = next(frames)
    watcher = BoardWatcher(WatchConfig(corner_46=first.corner_46))
    watcher.calibrate(first.image)
    boards = []
    for f in frames:
        s = watcher.feed(f.image, f.time)
        if s is not None:
            assert not f.occluded, f"settled at {f.time:.1f} s while a hand covered squares"
            boards.append(s.observation.board())
            watcher.confirm(f.pieces)  # as the arbiter does once it accepted the board
    assert boards == boards_after(moves)


def _opening_at_the_edge():
    """A plain scene for hands at the board's edge: renderer, camera, style, light, the boards
    of 32-28 19-23 from the start, and a watcher calibrated on the start."""
    from renderer.render import Renderer

    renderer = Renderer()
    cam = Camera(tilt_deg=25.0, yaw_deg=0.0, distance_mm=800.0)
    style, light = Style(), Lighting(noise=1.0)
    boards = [Position.start().pieces(), *boards_after(moves_of("32-28", "19-23"))]
    first = renderer.render(boards[0], cam, style, light, seed=1)
    watcher = BoardWatcher(WatchConfig(corner_46=first.corner_46, still_s=0.2))
    watcher.calibrate(first.image)
    return renderer, cam, style, light, boards, watcher


def test_a_hand_resting_beside_the_board_does_not_hold_up_the_next_move():
    """A player's fingertips rest on the table at the board's far edge, too little of them over
    the border to count as a hand, while a move settles; the hand shifts a little, and the next
    move is made at once.  The settled reference used to keep the fingertips, so the border
    looked covered once they shifted (where they were, and where they are), and the next move
    waited `WatchConfig.static_hand_s` of stillness that quick play never gives."""
    from renderer.hands import Hand

    renderer, cam, style, light, boards, watcher = _opening_at_the_edge()
    rest = Hand(x_mm=435.0, y_mm=200.0, height_mm=8.0, from_deg=0.0)
    shifted = Hand(x_mm=435.0, y_mm=240.0, height_mm=8.0, from_deg=0.0)
    # (time, board, hand): the first move with the fingertips resting, the hand shifting, the
    # second move 0.6 s later (pieces shown moved: no hand over the playing area)
    script = [(0.0, 1, rest), (1.0, 1, shifted), (1.6, 2, shifted)]
    settled = []
    for k in range(30):
        t = k * 0.1
        _, b, hand = [step for step in script if step[0] <= t + 1e-9][-1]
        frame = renderer.render(boards[b], cam, style, light, hand=hand, seed=10 + k).image
        s = watcher.feed(frame, t)
        if s is not None:
            settled.append((t, s.observation.board()))
    assert [b for _, b in settled] == boards[1:]
    assert settled[1][0] <= 1.6 + 0.2 + 0.2 + 1e-6  # still_s and two frames after the move


def test_a_hand_the_colour_of_the_border_hovering_over_an_edge_man_lifts_nothing_art_15():
    """Black's hand, the brown of the board's border and dark squares, hovers still over the
    man on 16 at the board's edge, its arm from the table beside it, then black plays 19-23.
    Over the border the hand changed nothing the camera could tell, so it was no hand over the
    board; its fingers over 16 read as the empty dark square, the man as lifted, and a false
    touch-move was named (Art. 15; the other renderer's selfplay-10 at seed 51002, over a
    corner man).  What an arm from the table may hide beside where it reaches the board is not
    seen."""
    from renderer.hands import Hand
    from rules.arbiter import Arbiter
    from rules.events import MovePlayed, TouchMove

    renderer, cam, style, light, boards, watcher = _opening_at_the_edge()
    hover = Hand(x_mm=30.0, y_mm=140.0, height_mm=30.0, from_deg=180.0, skin=style.dark_square,
                 sleeve=None)
    # (time, board, hand): 32-28 (pieces shown moved), black's hand hovering, then 19-23
    script = [(0.0, 0, None), (0.5, 1, None), (1.5, 1, hover), (3.0, 2, None)]
    arbiter, events = Arbiter(), []
    for k in range(45):
        t = k * 0.1
        _, b, hand = [step for step in script if step[0] <= t + 1e-9][-1]
        s = watcher.feed(renderer.render(boards[b], cam, style, light, hand=hand, seed=10 + k).image, t)
        if s is not None:
            events.extend(arbiter.observe(s))
            watcher.confirm(arbiter.expected_board())
    assert not [e for e in events if isinstance(e, TouchMove)], [str(e) for e in events]
    assert [e.text for e in events if isinstance(e, MovePlayed)] == ["32-28", "19-23"]


def test_the_start_frame_is_searched_for_the_board_once(monkeypatch):
    """Calibrating found the board, and the reading of the same frame right after searched for
    it again: a second and a half here, several on a Raspberry Pi, blind at the start."""
    import vision.calibration
    import vision.pipeline

    searches = []
    real = vision.calibration.find_board

    def counted(image, **kw):
        searches.append(image.shape)
        return real(image, **kw)

    monkeypatch.setattr(vision.calibration, "find_board", counted)
    monkeypatch.setattr(vision.pipeline, "find_board", counted)
    cam = Camera(tilt_deg=25.0, yaw_deg=-15.0, distance_mm=850.0)
    start = render(Position.start().pieces(), cam, Style.real_photos(), Lighting(), seed=2)
    watcher = BoardWatcher(WatchConfig(corner_46=start.corner_46))
    watcher.calibrate(start.image)
    for t in (0.0, 0.1, 0.2):
        watcher.feed(start.image, t)
    assert len(searches) == 1


def test_a_king_read_as_a_man_is_no_piece_lifted_art_15():
    # The still board read a king on 15; after white's 44-40 the camera reads a man there (a
    # king's kind misread in a dim room: here the piece drawn is a man).  Only 44 was lifted:
    # a kind read otherwise is no piece gone, and must not bind white's king to touch-move.

    from renderer.sequence import Pace
    with_king = Position.from_fen("W:WK15,K45,44:BK26,1")
    as_man = Position.from_fen("W:W15,K45,44:BK26,1")
    cam = Camera(tilt_deg=35.0, yaw_deg=20.0, distance_mm=750.0)
    first = render(with_king.pieces(), cam, Style(), Lighting(exposure=0.8), seed=1)
    watcher = BoardWatcher(WatchConfig(corner_46=first.corner_46))
    watcher.calibrate(first.image, board=with_king.pieces())
    assert watcher.read(first.image).reading(15).content == Piece(WHITE, True)
    move = as_man.parse_move("44-40")
    frames = list(game_frames(as_man, [move], fps=10, camera=cam, style=Style(),
                              lighting=Lighting(exposure=0.8), seed=2,
                              pace=replace(Pace.normal(), early_reply=0.0, drape=0.0)))
    settled = [s for f in frames if (s := watcher.feed(f.image, f.time)) is not None]
    assert [s.observation.reading(15).content for s in settled] == [Piece(WHITE, False)]
    assert [s.lifted for s in settled] == [(44,)]
