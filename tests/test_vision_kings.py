"""Kings told from men through the real pipeline on rendered frames: a watcher calibrated on the
start position reads positions of men and kings (kings beside, behind and in front of other
pieces, on the edges) at 20, 30 and 45 degrees of tilt in several board and piece styles; from
far away it reads them, unsure; with the camera nearly above the board it says it cannot tell
instead of guessing."""

from __future__ import annotations

import re

import numpy as np
import pytest

from rules.piece import BLACK, WHITE, Piece
from rules.matching import KING_CONFIDENT
from rules.observation import Observation
from rules.position import Position
from renderer.camera_model import Camera
from vision.kings import LIKELY_PX, SURE_PX, KingCalibration
from vision.pipeline import BoardWatcher
from vision.read import read_image
from renderer.render import Lighting, Renderer, Style

from tests.vision_helpers import calibrated_watcher, drawn, separation

#: Kings and men side by side: kings behind men and men behind kings along every diagonal,
#: kings on the edges and in the corners, a king between two men.
POSITIONS = [
    {1: Piece(BLACK, True), 6: Piece(WHITE), 7: Piece(BLACK, True), 12: Piece(WHITE, True),
     18: Piece(BLACK), 22: Piece(WHITE, True), 23: Piece(BLACK), 28: Piece(WHITE),
     29: Piece(BLACK, True), 33: Piece(WHITE, True), 34: Piece(BLACK), 39: Piece(WHITE, True),
     45: Piece(BLACK, True), 46: Piece(WHITE, True), 48: Piece(BLACK), 50: Piece(WHITE)},
    {3: Piece(WHITE, True), 5: Piece(BLACK), 9: Piece(WHITE), 14: Piece(BLACK, True),
     15: Piece(WHITE, True), 20: Piece(BLACK), 21: Piece(WHITE), 26: Piece(BLACK, True),
     27: Piece(WHITE, True), 31: Piece(BLACK), 32: Piece(WHITE, True), 36: Piece(BLACK, True),
     37: Piece(WHITE), 41: Piece(BLACK), 42: Piece(WHITE, True), 47: Piece(BLACK, True)},
]

#: (tilt, yaw, roll, distance mm, style, lighting): tilts of 20, 30 and 45 degrees from
#: several sides, the default and the real-photo boards and two random ones (dark pieces on
#: dark squares among them), clean and noisy light.
VIEWS = [
    (20.0, 0.0, 0.0, 800.0, Style(), Lighting()),
    (20.0, 140.0, 4.0, 850.0, Style.real_photos(), Lighting(noise=2.0, blur=0.8)),
    (30.0, -60.0, -3.0, 800.0, Style.random(np.random.default_rng(7)), Lighting(noise=1.5)),
    (30.0, 90.0, 0.0, 900.0, Style.real_photos(), Lighting(gradient=0.3, shadow=0.4)),
    (45.0, 180.0, 2.0, 750.0, Style.random(np.random.default_rng(21)), Lighting(noise=2.0, blur=0.6)),
    (45.0, 30.0, 0.0, 800.0, Style(), Lighting(jpeg_quality=80)),
]


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer()


def king_errors(watcher: BoardWatcher, frame: np.ndarray, pieces: dict[int, Piece]
                ) -> tuple[list[int], list[int], np.ndarray, Observation]:
    """(kings missed where the camera can tell, men read as kings, each cell's separation, the
    reading) of a frame.  Where a king's top lands too near a man's in the image (the cells next
    to the camera's foot at 20 degrees) the camera cannot tell: those kings are the reading's
    alternative, not misses."""
    cells = watcher.calibration.orientation.square_cells()
    obs = watcher.read(frame)
    sep = separation(watcher, frame)
    read = {sq: obs.reading(sq).content for sq in pieces}
    missed = [sq for sq, p in pieces.items()
              if p.king and read[sq] != p and sep[cells[sq - 1]] >= 2.5]
    false = [sq for sq, p in pieces.items() if not p.king and read[sq] is not None
             and read[sq].king]
    return missed, false, sep, obs


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: f"tilt{v[0]:.0f}-yaw{v[1]:.0f}")
def test_every_king_found_and_no_man_read_as_a_king(renderer, view):
    tilt, yaw, roll, dist, style, light = view
    cam = Camera(tilt_deg=tilt, yaw_deg=yaw, roll_deg=roll, distance_mm=dist)
    watcher = calibrated_watcher(renderer, cam, style, light)
    assert isinstance(watcher.calibration.kings, KingCalibration)
    cells = watcher.calibration.orientation.square_cells()
    for k, pieces in enumerate(POSITIONS):
        frame = renderer.render(pieces, cam, style, light, seed=10 + k).image
        missed, false, sep, obs = king_errors(watcher, frame, pieces)
        assert not missed and not false, f"kings missed {missed}, men read as kings {false}"
        for sq, p in pieces.items():
            r = obs.reading(sq)
            assert r.content is not None and r.content.color is p.color
            # the other of king and man is always the alternative, never ruled out
            assert r.alternative == Piece(p.color, not r.content.king)
            if p.king and sep[cells[sq - 1]] < 2.5:
                assert r.probability(p) >= 0.1
        assert sum(sep[cells[sq - 1]] >= 2.5 for sq in pieces) >= 12  # most cells can tell


def test_a_man_the_game_put_on_a_square_is_read_as_a_man_while_it_stands_there(renderer):
    """Art. 8: a man is crowned only by ending a move on the far row, so it cannot turn into a
    king where it stands, and no king of its side can take its place within a move.  While the
    board read is one move from the board the game last guaranteed (the calibration's here), a
    man still standing is read as a man whatever the camera makes of its height (from far away,
    a man's top can measure like a king's): here a real king stands in for that mistake.  The
    same king where the game had no man of its side, or on a board that is no such
    continuation, is read as a king."""
    cam = Camera(tilt_deg=30.0, yaw_deg=0.0, distance_mm=800.0)
    style, light = Style(), Lighting(noise=1.0)
    watcher = calibrated_watcher(renderer, cam, style, light)  # the start position, guaranteed
    start = Position.start().pieces()
    crowned = start | {33: Piece(WHITE, True)}  # the camera's mistake, made real
    r = watcher.read(renderer.render(crowned, cam, style, light, seed=41).image).reading(33)
    assert r.content == Piece(WHITE) and r.alternative == Piece(WHITE, True)
    moved = {sq: p for sq, p in start.items() if sq != 33} | {28: Piece(WHITE, True)}
    obs = watcher.read(renderer.render(moved, cam, style, light, seed=42).image)
    assert obs.reading(28).content == Piece(WHITE, True)  # no man of its side stood there
    assert all(obs.reading(sq).content == moved.get(sq) for sq in range(1, 51))
    far = POSITIONS[0]  # men and kings everywhere: no continuation of the start
    obs = watcher.read(renderer.render(far, cam, style, light, seed=43).image)
    assert all(obs.reading(sq).content == far.get(sq) for sq in range(1, 51))


def test_a_man_waiting_on_its_far_row_to_be_crowned_is_read_crowned_once_it_is_art_8(renderer):
    """A white man reached square 3 and the game awaits its crown (the arbiter's board has the
    man there, `confirm`); the opponent then puts the second piece on it.  Unlike a man standing
    elsewhere, it may turn into a king where it stands: the crown is read (it was capped to a man,
    and "crown the man on 3" was asked again and again)."""
    cam = Camera(tilt_deg=30.0, yaw_deg=0.0, distance_mm=800.0)
    style, light = Style(), Lighting(noise=1.0)
    watcher = calibrated_watcher(renderer, cam, style, light)
    crowned = Position.from_fen("B:WK3,32,33,38:B12,17,19,24").pieces()
    waiting = crowned | {3: Piece(WHITE)}  # the arbiter's board until the crown is seen
    watcher.confirm(waiting)
    r = watcher.read(renderer.render(crowned, cam, style, light, seed=44).image).reading(3)
    assert r.content == Piece(WHITE, True)


#: Far cameras: 1.6 and 1.7 m from the board at 22 and 24 degrees (squares of 25-27 camera
#: pixels), the default and the real-photo boards.
FAR_VIEWS = [
    (22.0, 30.0, 1600.0, Style(), Lighting(noise=1.0)),
    (24.0, -120.0, 1700.0, Style.real_photos(), Lighting(noise=1.5, blur=0.5)),
]


@pytest.mark.parametrize("view", FAR_VIEWS, ids=lambda v: f"tilt{v[0]:.0f}-{v[2]:.0f}mm")
def test_a_far_camera_reads_its_kings_as_likely_kings_and_no_piece_surely(renderer, view):
    """From far away a king's top lands 1.4 to 3 camera pixels from where a man's would: the
    camera is at its limit.  The kings it measures are read as kings (from `LIKELY_PX`) and the
    men as men, but neither surely, the other always the alternative: the arbiter weighs both
    with the game (which knows where its kings are).  The reading used to give every such king
    as a man."""
    tilt, yaw, dist, style, light = view
    cam = Camera(tilt_deg=tilt, yaw_deg=yaw, distance_mm=dist)
    watcher = calibrated_watcher(renderer, cam, style, light)
    cells = watcher.calibration.orientation.square_cells()
    at_limit = 0
    for k, pieces in enumerate(POSITIONS):
        frame = renderer.render(pieces, cam, style, light, seed=30 + k).image
        obs = watcher.read(frame)
        sep = separation(watcher, frame)
        assert all(sep[cells[sq - 1]] < 3.5 for sq in pieces)
        at_limit += sum(sep[cells[sq - 1]] < 2.5 for sq in pieces)
        for sq, p in pieces.items():
            r, px = obs.reading(sq), sep[cells[sq - 1]]
            # a king where its top lies at least LIKELY_PX from a man's; under it, a man (this
            # separation is measured again here: a tenth of a pixel either way may differ)
            if abs(px - LIKELY_PX) > 0.1:
                assert r.content == (p if px > LIKELY_PX else Piece(p.color)), f"square {sq}"
            assert r.content is not None and r.content.color is p.color
            assert r.confidence < 0.8, f"square {sq} read surely at {r.confidence:.2f}"
            assert r.alternative == Piece(p.color, not r.content.king)
    assert at_limit >= 16  # most of the 32 pieces stand where the camera is at its limit


@pytest.mark.parametrize("tilt, dist, says, code", [
    (22.0, 1600.0, "far from the board", "kings_camera_far"),
    (4.0, 800.0, "nearly above the board", "kings_top_down")])
def test_one_photo_says_why_kings_cannot_be_told_surely(renderer, tilt, dist, says, code):
    """`frisian-companion read` warns when kings cannot be told surely, and why: a camera far
    from the board, or one nearly above it (each needs another fix: nearer, or more tilted);
    the warning's code says which, for the club's screen to say it in Dutch."""
    cam = Camera(tilt_deg=tilt, yaw_deg=30.0, distance_mm=dist)
    frame = renderer.render(POSITIONS[0], cam, Style(), Lighting(noise=1.0), seed=5).image
    warnings = [w for w in read_image(frame).warnings if w.startswith("kings cannot be told")]
    assert len(warnings) == 1 and says in warnings[0], warnings
    assert warnings[0].code == code


def test_calibrating_names_the_squares_where_kings_cannot_be_told_surely(renderer):
    """At 22 degrees the squares nearest the camera's foot see the board more steeply: a king's
    top lies under `SURE_PX` pixels from a man's there.  The calibrated watcher names exactly
    those squares (the service says so when the board is found), and kings standing on them
    read unsure, the man their alternative; tilted 40 degrees, it names none.  (At 35 degrees
    square 46 lies at the limit: named on OpenCV 4.6 and, since a fresh install on 2026-11-29,
    on pip's stack too, a man's height measured 0.13 there against 0.2 drawn.)"""
    style, light = Style(), Lighting(noise=1.0)
    cam = Camera(tilt_deg=22.0, yaw_deg=0.0, distance_mm=700.0)
    watcher = calibrated_watcher(renderer, cam, style, light)
    limit = watcher.king_limits()
    assert limit is not None and "nearest the camera" in limit and "tilt the camera" in limit
    named = {int(s) for s in re.search(r"camera \(([\d, ]+)\)", limit).group(1).split(", ")}
    empty = renderer.render({}, cam, style, light, seed=1).image
    sep, cells = separation(watcher, empty), watcher.calibration.orientation.square_cells()
    assert named == {sq for sq in range(1, 51) if sep[cells[sq - 1]] < SURE_PX}
    assert 2 <= len(named) <= 10
    kings = {sq: Piece(WHITE if sq % 2 else BLACK, True) for sq in named}
    obs = watcher.read(renderer.render(kings, cam, style, light, seed=2).image)
    for sq, king in kings.items():
        r = obs.reading(sq)
        assert r.content is not None and r.content.color is king.color
        assert r.confidence < 0.8 and {r.content, r.alternative} == {king, Piece(king.color)}

    level = Camera(tilt_deg=40.0, yaw_deg=30.0, distance_mm=700.0)
    assert calibrated_watcher(renderer, level, style, light).king_limits() is None


def test_a_camera_nearly_above_the_board_says_it_cannot_tell(renderer):
    cam = Camera(tilt_deg=4.0, yaw_deg=20.0, distance_mm=800.0)
    style, light = Style(), Lighting(noise=1.0)
    watcher = calibrated_watcher(renderer, cam, style, light)
    pieces = POSITIONS[0]
    obs = watcher.read(renderer.render(pieces, cam, style, light, seed=3).image)
    for sq, p in pieces.items():
        r = obs.reading(sq)
        assert r.content is not None and r.content.color is p.color
        # no guessed king, and never a man sure enough to overrule the game (which knows where
        # its kings are): the king is the reading's alternative
        assert not r.content.king
        assert r.alternative == Piece(p.color, True)
        assert r.confidence < KING_CONFIDENT


def test_dark_kings_whose_side_band_looks_like_their_top_in_a_dim_light(renderer):
    """Near-black pieces in a dim light: the stack's side band is as black as its top face, so
    only the top's far rim tells a king's height (the reading used to put a king's top at a
    man's, along the band)."""
    cam, style, light, _ = drawn(7, 8)
    assert cam.tilt_deg > 30 and max(style.white_piece) < 40 and light.exposure < 0.5
    watcher = calibrated_watcher(renderer, cam, style, light)
    for k, pieces in enumerate(POSITIONS):
        frame = renderer.render(pieces, cam, style, light, seed=20 + k).image
        missed, false, _, _ = king_errors(watcher, frame, pieces)
        assert not missed and not false, f"kings missed {missed}, men read as kings {false}"
