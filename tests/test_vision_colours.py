"""Reading the squares through the calibrated pipeline when colours are hard: one side's pieces
nearly the colour of the dark squares, the light changing after calibration, glare washing a
square out, a calibration frame that is not the start position."""

from __future__ import annotations

import pytest

from rules.piece import BLACK, WHITE, Piece
from rules.position import Position
from vision.calibration import CalibrationError
from vision.pipeline import BoardWatcher, WatchConfig
from tests.vision_helpers import calibrated_watcher
from renderer.render import Camera, Lighting, Renderer, Style

#: Green men on green dark squares (the darker side), purple-red men for the other side.
GREEN_ON_GREEN = Style(light_square=(199, 242, 255), dark_square=(50, 118, 49),
                       border=(68, 53, 28), white_piece=(95, 38, 177),
                       black_piece=(75, 173, 76), piece_relief=0.45, square_grain=0.5)
#: Red men on red dark squares (the lighter side), near-black men for the other side.
RED_ON_RED = Style(light_square=(192, 192, 228), dark_square=(18, 31, 163),
                   border=(37, 13, 122), white_piece=(37, 21, 192), black_piece=(22, 7, 14),
                   piece_relief=0.05, square_grain=0.1)

LIGHT = Lighting(gradient=0.3, gradient_deg=40.0, vignette=0.15, noise=2.0, blur=0.6,
                 jpeg_quality=75, shadow=0.3)


def _positions() -> list[dict[int, Piece]]:
    """Boards of a game's middle and end: men gone from squares they held at the start, men of
    both sides on squares that were empty or the other side's."""
    layouts = [
        ([*range(1, 16), 17, 18, 21, 23, 24], [*range(31, 46), 47, 26, 28, 29]),
        ([3, 7, 9, 12, 18, 22, 24, 27, 33], [16, 19, 25, 29, 31, 36, 41, 44, 48, 50]),
        ([5, 23, 28, 45], [6, 15, 30, 34]),
    ]
    return [{**{sq: Piece(BLACK) for sq in black}, **{sq: Piece(WHITE) for sq in white}}
            for black, white in layouts]


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer()


def _colours(board: dict[int, Piece]) -> dict[int, object]:
    return {sq: p.color for sq, p in board.items()}


@pytest.mark.parametrize("style, cam", [
    (GREEN_ON_GREEN, Camera(tilt_deg=15.0, yaw_deg=30.0, distance_mm=900.0)),
    (GREEN_ON_GREEN, Camera(tilt_deg=38.0, yaw_deg=-120.0, distance_mm=800.0)),
    (RED_ON_RED, Camera(tilt_deg=5.0, yaw_deg=75.0, distance_mm=1000.0)),
    (RED_ON_RED, Camera(tilt_deg=30.0, yaw_deg=170.0, distance_mm=850.0)),
], ids=["green-15deg", "green-38deg", "red-5deg", "red-30deg"])
def test_pieces_near_the_dark_squares_colour_are_all_read_surely(renderer, style, cam):
    watcher = calibrated_watcher(renderer, cam, style, LIGHT)
    for k, pieces in enumerate(_positions()):
        obs = watcher.read(renderer.render(pieces, cam, style, LIGHT, seed=10 + k).image)
        assert _colours(obs.board()) == _colours(pieces), f"position {k}"
        # sure of what stands there (the king or man question aside)
        for sq in range(1, 51):
            r = obs.reading(sq)
            sure = r.confidence if r.content is None else \
                r.probability(Piece(r.content.color)) + r.probability(Piece(r.content.color, True))
            assert sure > 0.9, (k, sq, r)


def test_the_light_changing_after_calibration_is_followed(renderer):
    cam = Camera(tilt_deg=25.0, yaw_deg=10.0, distance_mm=850.0)
    watcher = calibrated_watcher(renderer, cam, GREEN_ON_GREEN, LIGHT)
    dimmer = Lighting(gradient=0.5, gradient_deg=200.0, vignette=0.3, exposure=0.75, noise=2.0,
                      blur=0.6, jpeg_quality=75, shadow=0.3)
    for k, pieces in enumerate(_positions()):
        obs = watcher.read(renderer.render(pieces, cam, GREEN_ON_GREEN, dimmer, seed=20 + k).image)
        assert _colours(obs.board()) == _colours(pieces), f"position {k}"


def test_a_washed_out_square_is_never_read_surely_wrong(renderer):
    cam = Camera(tilt_deg=20.0, yaw_deg=0.0, distance_mm=900.0)
    watcher = calibrated_watcher(renderer, cam, RED_ON_RED, LIGHT)
    pieces = _positions()[1]
    probe = renderer.render(pieces, cam, RED_ON_RED, LIGHT)
    x, y = probe.square_centre(22, 8.0)  # a black man moved there during the game
    glare = Lighting(gradient=0.3, gradient_deg=40.0, vignette=0.15, noise=2.0, blur=0.6,
                     jpeg_quality=75, shadow=0.3, glare=0.9, glare_xy=(x / 1280, y / 960),
                     glare_radius=0.03)
    obs = watcher.read(renderer.render(pieces, cam, RED_ON_RED, glare, seed=5).image)
    assert pieces[22].color is BLACK
    assert obs.reading(22).confidence < 0.9
    for sq in range(1, 51):
        r = obs.reading(sq)
        got = None if r.content is None else r.content.color
        want = None if sq not in pieces else pieces[sq].color
        assert got == want or r.confidence < 0.9, (sq, r)


def test_calibration_refuses_a_frame_that_is_not_the_start_position(renderer):
    cam = Camera(tilt_deg=20.0, yaw_deg=-30.0, distance_mm=900.0)
    pieces = Position.start().pieces()
    for sq in (1, 7, 12, 18, 34, 45):
        del pieces[sq]
    frame = renderer.render(pieces, cam, GREEN_ON_GREEN, LIGHT, seed=3)
    watcher = BoardWatcher(WatchConfig(corner_46=frame.corner_46))
    with pytest.raises(CalibrationError):
        watcher.calibrate(frame.image)
    # and leaves nothing behind: the camera view draws no failed attempt's board
    assert watcher.calibration is None and watcher.king_limits() is None


def test_a_man_the_colour_of_the_dark_squares_washed_out_by_a_glare_is_not_read_surely_empty(renderer):
    """Green men on a green board, and a lamp's reflection over the middle of the board (the
    scene of the system bench's lidraughts-3, seed 8, after 18-22).  Black's man on 22, where no
    piece stood at calibration, is washed out to nearly the glared square's own colour: read by
    colour alone it was empty at 0.9995, and the arbiter saw black's man disappear (Art. 27)
    and lost the game.  Two things tell it: the glare seen on the empty square at calibration
    washes a piece out alike (read by that alone, 22 is empty at about 0.65), and the man's
    outline still shows all round (with it, a black piece is the likelier).  Empty is not the
    likeliest reading; every other square is read right and surely."""
    cam = Camera(tilt_deg=14.7, yaw_deg=175.4, roll_deg=-4.35, distance_mm=962.0, fov_deg=68.7,
                 k1=0.0114, k2=0.0035, look_dx_mm=-14.4, look_dy_mm=13.4)
    style = Style(light_square=(199, 242, 255), dark_square=(50, 118, 49), border=(68, 53, 28),
                  table=(53, 53, 169), white_piece=(95, 38, 177), black_piece=(75, 173, 76),
                  border_mm=16.4, piece_diameter=0.833, man_height=0.178, side_shade=0.773,
                  piece_relief=0.46, piece_gloss=0.431, square_grain=0.52, table_grain=0.052,
                  texture_seed=160391466)
    light = Lighting(gradient=0.494, gradient_deg=42.8, vignette=0.131, exposure=1.0,
                     white_balance=(1.059, 0.955, 0.988), glare=0.569, glare_xy=(0.506, 0.539),
                     glare_radius=0.0934, shadow=0.209, light_azimuth_deg=227.0,
                     light_elevation_deg=44.1, noise=1.83, blur=0.597)
    black = [1, 4, 5, 6, 8, 9, 10, 11, 13, 15, 16, 22]
    white = [26, 27, 29, 36, 41, 42, 43, 44, 45, 46, 48, 50]
    board = {**{sq: Piece(BLACK) for sq in black}, **{sq: Piece(WHITE) for sq in white}}
    watcher = calibrated_watcher(renderer, cam, style, light)
    for seed in (21, 22, 23):
        obs = watcher.read(renderer.render(board, cam, style, light, seed=seed).image)
        glared = obs.reading(22)
        assert glared.probability(None) < 0.5, glared
        for sq in range(1, 51):
            if sq != 22:
                r = obs.reading(sq)
                assert r.content is None if sq not in board else r.content.color is board[sq].color
                assert r.kind_confidence > 0.9, (sq, r)


def test_a_man_moved_beside_its_sides_men_is_expected_to_look_like_them():
    """Cream men under a bright lamp (the home bench's lidraughts-14, seed 71014): in the middle
    of the board their glossy tops clip to white, at the edge they keep their cream, so the
    men's median colour is pure white.  20-25 brings a man to the edge square 25, where no man
    stood at calibration: expected in the median's white, its cream fitted no class and 25 read
    unsure on every board (0 of 40 plies recorded).  Expected as the men that stood nearest
    look, it reads a black man surely."""
    import numpy as np
    rng = np.random.default_rng(71014)
    cam, style, light = Camera.random(rng), Style.random(rng), Lighting.random(rng)
    assert light.exposure > 1.05 and light.glare > 0.7
    renderer = Renderer()
    watcher = calibrated_watcher(renderer, cam, style, light)
    after = Position.start().play_text("31-26").play_text("20-25")
    t = 0.0
    for i in range(10):
        watcher.feed(renderer.render(after.pieces(), cam, style, light, seed=30 + i).image, t)
        t += 0.1
    obs = watcher.read(renderer.render(after.pieces(), cam, style, light, seed=99).image)
    # (men or kings: the washed-out men under the lamp are the arbiter's to tell, by the game)
    assert {sq: p.color for sq, p in obs.board().items()} == \
        {sq: p.color for sq, p in after.pieces().items()}
    assert obs.reading(25).kind_confidence > 0.99


def test_an_empty_square_washed_out_to_a_pale_mans_colour_by_a_glare_is_not_read_surely_a_man(
        renderer):
    """Cream men on a dark board, a camera 11 degrees off vertical and a lamp mirrored on the
    board over the white men (the scene of the system bench's lidraughts-6 at seed 909007).
    After 34-30 the dark square 34, never seen empty, is washed out by the glare to the colour
    of the man that stood there: read by colour alone it was a white man at 1.00, and the
    arbiter named the legal move "several pieces moved" (Art. 27).  The glare draws no
    outline on the empty square, while the man's outline was seen there all game: 34 is not
    read surely a piece, and empty is the likelier.  Every other square is read right and
    surely."""
    cam = Camera(tilt_deg=11.47, yaw_deg=-94.8, roll_deg=-3.21, distance_mm=933.4, fov_deg=65.8,
                 k1=-0.156, k2=0.0224, look_dx_mm=30.8, look_dy_mm=4.5)
    style = Style(light_square=(229, 224, 239), dark_square=(59, 80, 73), border=(45, 40, 48),
                  table=(36, 159, 210), white_piece=(244, 249, 219), black_piece=(42, 51, 173),
                  border_print=(31, 28, 33), edge_line=(35, 48, 43), border_mm=22.0,
                  piece_diameter=0.837, man_height=0.187, side_shade=0.763, piece_relief=0.977,
                  piece_gloss=0.094, square_grain=0.30, table_grain=0.57, texture_seed=364107263)
    light = Lighting(gradient=0.415, gradient_deg=75.5, vignette=0.205, exposure=0.62,
                     white_balance=(0.987, 0.926, 1.03), glare=0.748, glare_xy=(0.4385, 0.5559),
                     glare_radius=0.0418, shadow=0.515, light_azimuth_deg=15.4,
                     light_elevation_deg=43.1, noise=2.5, blur=0.58, jpeg_quality=80,
                     sheen=0.155)
    watcher = calibrated_watcher(renderer, cam, style, light)
    after = Position.start().play_text("34-30").pieces()
    for seed in (31, 32, 33):
        obs = watcher.read(renderer.render(after, cam, style, light, seed=seed).image)
        washed = obs.reading(34)
        assert washed.kind_confidence < 0.9 and washed.probability(None) > 0.5, washed
        for sq in range(1, 51):
            if sq != 34:
                r = obs.reading(sq)
                assert r.content is None if sq not in after else r.content.color is after[sq].color
                assert r.kind_confidence > 0.9, (sq, r)


def _side(reading, color) -> float:
    """How likely ``reading``'s square holds a piece of ``color``, man or king."""
    return reading.probability(Piece(color)) + reading.probability(Piece(color, True))


def test_a_man_moved_under_a_glare_that_clips_it_white_is_not_read_surely_the_other_sides(
        renderer):
    """Orange men for White, pale cyan men for Black, and a lamp's glare over White's left
    edge (the scene of the system bench's selfplay-19 at seed 4040007).  After 30x26 White's
    man stands on 26, where no piece stood at calibration, under the glare's core: clipped
    white, a warm tint all that is left of its orange, it looked more like Black's pale men
    clipped there than like the orange expected, and read Black's at 0.67-0.75; the arbiter
    named "pieces of both sides moved" (Art. 27).  Where a glare clips a top white the colour
    tells nothing: 26 is read a piece surely, of neither side surely, and no square is read
    surely otherwise than it stands (Black's man clipped white on 16 may be read unsurely)."""
    cam = Camera(tilt_deg=11.38, yaw_deg=-132.9, roll_deg=11.10, distance_mm=909.55,
                 fov_deg=58.89, k1=-0.1506, k2=0.0362, look_dx_mm=-4.0, look_dy_mm=28.68)
    style = Style(light_square=(157, 174, 190), dark_square=(66, 91, 102),
                  border=(153, 121, 112), table=(64, 120, 154), white_piece=(48, 86, 162),
                  black_piece=(234, 250, 236), border_mm=25.06, piece_diameter=0.817,
                  man_height=0.227, side_shade=0.848, piece_relief=0.082, piece_gloss=0.442,
                  square_grain=0.455, table_grain=0.918, texture_seed=1033361577)
    light = Lighting(gradient=0.085, gradient_deg=258.7, vignette=0.309, exposure=1.182,
                     white_balance=(1.0246, 0.9844, 0.8897), glare=0.630,
                     glare_xy=(0.6534, 0.3090), glare_radius=0.1120, shadow=0.740,
                     light_azimuth_deg=181.2, light_elevation_deg=49.2, noise=2.5, blur=0.11,
                     jpeg_quality=79, sheen=0.777, lamp_distance_mm=660.3,
                     lamp_colour=(238, 248, 255))
    watcher = calibrated_watcher(renderer, cam, style, light)
    after = Position.start()
    for move in "32-28 17-21 34-30 19-24 30x26".split():
        after = after.play_text(move)
    board = after.pieces()
    for seed in (61, 62, 63):
        obs = watcher.read(renderer.render(board, cam, style, light, seed=seed).image)
        moved = obs.reading(26)
        assert moved.probability(None) < 0.05, moved
        assert _side(moved, BLACK) < 0.7, moved
        for sq in range(1, 51):
            r = obs.reading(sq)
            right = r.content is None if sq not in board else r.content.color is board[sq].color
            assert right or r.kind_confidence < 0.7, (sq, r)


def test_an_emptied_square_under_a_glare_never_seen_empty_is_not_read_surely_as_the_man_taken(
        renderer):
    """Pale men for White on navy squares, and a lamp's strong glare on 14 (the scene of the
    system bench's selfplay-43 at seed 3939005): a set-up position with White's man on 14, so
    the square was never seen empty.  The man is taken: the glare's core clips the empty
    square white as it did the man, and the outline, washed out too, tells nothing either.
    Read as the man at 0.98 there, the capture was named "too few pieces taken off" (Art.
    27b).  The camera cannot tell: 14 is not read surely as the man (what was last seen there
    is the better guess, no more), and the rest of the board is read as it stands."""
    cam = Camera(tilt_deg=33.67, yaw_deg=-16.93, roll_deg=-1.79, distance_mm=942.4,
                 fov_deg=70.69, k1=-0.0193, k2=0.0371, look_dx_mm=-19.76, look_dy_mm=-1.94)
    style = Style(light_square=(56, 228, 249), dark_square=(95, 44, 36),
                  border=(173, 144, 191), table=(23, 128, 143), white_piece=(202, 243, 239),
                  black_piece=(52, 35, 57), edge_line=(57, 26, 21), border_mm=17.5,
                  piece_diameter=0.833, man_height=0.196, side_shade=0.797,
                  piece_relief=0.340, piece_gloss=0.103, square_grain=0.224,
                  table_grain=0.077, texture_seed=428579852)
    light = Lighting(gradient=0.470, gradient_deg=189.2, vignette=0.177, exposure=0.962,
                     white_balance=(1.009, 0.891, 0.884), glare=0.95,
                     glare_xy=(0.6065, 0.4412), glare_radius=0.0346, shadow=0.626,
                     light_azimuth_deg=77.4, light_elevation_deg=42.0, noise=2.5, blur=0.88,
                     jpeg_quality=86, sheen=0.866, lamp_distance_mm=989.2,
                     lamp_colour=(202, 234, 255))
    setup = Position.from_fen("W:W9,13,14,29:BK22,25,32,35,37")
    watcher = calibrated_watcher(renderer, cam, style, light, setup)
    t = 0.0
    for seed in range(30, 40):
        watcher.feed(renderer.render(setup.pieces(), cam, style, light, seed=seed).image, t)
        t += 0.1
    taken = Position.from_fen("B:W9,13,23:BK22,25,32,35,37").pieces()
    for seed in (51, 52, 53):
        obs = watcher.read(renderer.render(taken, cam, style, light, seed=seed).image)
        emptied = obs.reading(14)
        # (not sure enough to overrule the game: `rules.matching.CONFIDENT`)
        assert _side(emptied, WHITE) < 0.9, emptied
        for sq in range(1, 51):
            if sq != 14:
                r = obs.reading(sq)
                assert r.content is None if sq not in taken else r.content.color is taken[sq].color
