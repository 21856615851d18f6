"""One photo of a board whose one side's pieces are near the dark squares' colour (issue 16):
blue men on purple squares, dark brown men on dark brown ones.  By colour alone the near side
was learnt as empty squares and whole boards of it read empty; `vision.photo_cells` tells them
by their colour and outline together.  Rendered stills go through the real `read_image`, as
`frisian-companion read` reads a photo."""

from __future__ import annotations

import numpy as np
import pytest

from renderer.render import Camera, Lighting, Renderer, Style
from rules.piece import BLACK, WHITE, Piece
from vision.calibration import Orientation
from vision.read import read_image

from tests.vision_helpers import read_other_renderers_still

#: 17 men of the side near the dark squares' colour, 11 of the other (as `bench.stills`'
#: home-0016 at seed 0, whose near side all read empty).
NEAR = (2, 3, 4, 7, 10, 16, 18, 19, 23, 25, 28, 31, 34, 39, 40, 43, 48)
FAR = (11, 17, 21, 26, 30, 36, 37, 42, 45, 47, 49)

#: (style, camera, light): the board of the real photos with blue men on its purple squares,
#: and dark brown men, low ones, on dark brown squares (`bench.stills` home-0016 and home-0055).
SCENES = {
    "blue-on-purple": (
        Style(light_square=(96, 193, 225), dark_square=(98, 30, 48), border=(221, 155, 155),
              table=(39, 146, 181), white_piece=(74, 190, 255), black_piece=(141, 41, 14),
              edge_line=None, border_mm=34.25, piece_diameter=0.86, man_height=0.2,
              side_shade=0.72, piece_relief=0.65, piece_gloss=0.11, square_grain=0.29,
              table_grain=0.28, texture_seed=488778367),
        Camera(tilt_deg=35.8, yaw_deg=5.0, roll_deg=0.55, distance_mm=1162.0, fov_deg=51.3,
               k1=-0.038, k2=0.034, look_dx_mm=-25.4, look_dy_mm=-14.7),
        Lighting(gradient=0.5, gradient_deg=351.0, vignette=0.18, exposure=0.94,
                 white_balance=(0.99, 1.08, 1.09), glare=0.52, glare_xy=(0.39, 0.21),
                 glare_radius=0.089, shadow=0.23, light_azimuth_deg=168.0,
                 light_elevation_deg=42.5, noise=1.4, blur=0.41, jpeg_quality=74, sheen=0.07)),
    "brown-on-brown": (
        Style(light_square=(92, 201, 255), dark_square=(93, 43, 42), border=(206, 147, 170),
              table=(35, 121, 195), white_piece=(184, 208, 235), black_piece=(49, 31, 64),
              edge_line=None, border_mm=16.0, piece_diameter=0.89, man_height=0.1,
              side_shade=0.83, piece_relief=0.5, piece_gloss=0.5, square_grain=0.32),
        Camera(tilt_deg=34.0, yaw_deg=6.0, roll_deg=-6.0, distance_mm=600.0),
        Lighting(gradient=0.3, gradient_deg=155.0, vignette=0.2, shadow=0.4,
                 light_azimuth_deg=23.0, light_elevation_deg=74.0, noise=2.0, blur=1.0,
                 jpeg_quality=62)),
}


@pytest.mark.parametrize("scene", [
    "brown-on-brown",
    # the near side's colour and outline stand out from the empty squares by less here than
    # `vision.photo_cells.PIECE_SCORE` asks (a lower bar read two empty squares of a real
    # start-position photo as pieces): still read empty, a known limit.  On OpenCV 4.6 (the
    # Pi's stack) every cell used to read right; since the board finder's seeds changed
    # (issue 16: the normalised copy searched as it is) its board is found within a pixel of
    # where it was (0.3-0.9 px from the renderer's corners, as on the other stack) and its
    # near side reads empty there too: the 4.6 pass hung on a fraction of a pixel
    pytest.param("blue-on-purple", marks=pytest.mark.xfail(strict=True, reason="known limit")),
])
def test_pieces_near_the_dark_squares_colour_are_read_as_pieces(scene):
    style, camera, light = SCENES[scene]
    near_colour = BLACK if style.black_piece == min(
        (style.white_piece, style.black_piece),
        key=lambda c: float(np.linalg.norm(np.subtract(c, style.dark_square, dtype=float)))) \
        else WHITE
    far_colour = WHITE if near_colour is BLACK else BLACK
    pieces = {sq: Piece(near_colour) for sq in NEAR} | {sq: Piece(far_colour) for sq in FAR}
    frame = Renderer().render(pieces, camera, style, light, seed=16)
    reading = read_image(frame.image)
    cells = Orientation.from_corner_46(frame.corner_46).square_cells()
    read = {sq: reading.grid[r][c] for sq, (r, c) in enumerate(cells, start=1)}
    empty_wrong = [sq for sq in range(1, 51) if sq not in pieces and read[sq] != "."]
    missed = [sq for sq in pieces if read[sq] == "."]
    assert not missed and not empty_wrong, f"pieces read empty {missed}, empty read {empty_wrong}"
    # each side one colour throughout, the two apart
    near = {read[sq] for sq in NEAR}
    far = {read[sq] for sq in FAR}
    assert len(near) == 1 and len(far) == 1 and near != far, (near, far)
    # nothing on the light squares
    dark = set(cells)
    assert all(reading.grid[r][c] == "." for r in range(10) for c in range(10)
               if (r, c) not in dark)


#: `bench.stills` home-0014 at seed 0: dark red men (31, 38, 99) on purple squares
#: (44, 31, 65), a 5 px motion blur: (white men, black men, white kings, black kings, style,
#: camera, light, render seed).  Their tops lay 9 to 16 from looking empty, the empty dark
#: squares 3 to 9 (each square's own top-to-floor offset), and the outline scores did not set
#: them apart: all six read empty.  They differ from the squares in hue (b*), where every empty
#: square is alike.
RED_ON_PURPLE = (
    (8, 14, 20, 25, 26, 28, 37, 49), (4, 6, 13, 17), (), (46, 48),
    Style(light_square=(224, 250, 229), dark_square=(44, 31, 65), border=(48, 36, 18),
          table=(35, 57, 102), white_piece=(150, 207, 209), black_piece=(31, 38, 99),
          border_print=None, edge_line=None, border_mm=17.00251576504254,
          piece_diameter=0.8846589468567632, man_height=0.2453248855286952,
          side_shade=0.7749582408847888, piece_relief=0.22307626902575828,
          piece_gloss=0.36368174704636336, square_grain=0.22628689620749684,
          table_grain=0.06006485639993642, texture_seed=887940275),
    Camera(tilt_deg=24.79428714573097, yaw_deg=-59.169142460878874, roll_deg=-1.9375603218912385,
           distance_mm=860.5407587965371, focal_px=None, fov_deg=64.97598825671957,
           k1=-0.17270545511446364, k2=0.0017183026808062253, look_dx_mm=5.769248572724667,
           look_dy_mm=-2.532680791792922),
    Lighting(gradient=0.074737545523694, gradient_deg=255.79928476336866,
             vignette=0.305053629161904, exposure=0.9105614986083926,
             white_balance=(0.9270809300132266, 1.0744697498958167, 0.8830619726600326),
             glare=0.0, glare_xy=(0.28713261421773006, 0.5851843639304788),
             glare_radius=0.09547086133524264, shadow=0.2297880352114762,
             light_azimuth_deg=295.13258687932654, light_elevation_deg=43.34904174975481,
             noise=1.5725939591973783, blur=1.2989340016441728,
             motion_blur=5.129905618619103, motion_deg=28.400686206323886, jpeg_quality=82,
             sheen=0.069),
    14)


def test_pieces_of_another_hue_than_the_dark_squares_are_read_as_pieces():
    from tests.vision_helpers import read_still_scene

    pieces, read, reading, _ = read_still_scene(RED_ON_PURPLE)
    missed = [sq for sq in pieces if read[sq] == "."]
    empty_wrong = [sq for sq in range(1, 51) if sq not in pieces and read[sq] != "."]
    assert not missed and not empty_wrong, f"pieces read empty {missed}, empty read {empty_wrong}"
    # each side one colour throughout (kings apart), the two apart
    sides = [{read[sq].lower() for sq, p in pieces.items() if p.color is colour}
             for colour in (WHITE, BLACK)]
    assert all(len(s) == 1 for s in sides) and sides[0] != sides[1], sides
    assert reading.pieces_on_light == 0, reading.grid


def test_an_empty_square_just_over_the_split_does_not_undo_the_pieces_found_by_outline():
    # The other renderer's still (`bench.stills` alt-0008 at seed 0): dark brown men on walnut
    # squares, 29 degrees.  Their scores against the empty dark squares lay 4.5 to 8.6, one empty
    # square's 3.7 (a neighbour's edge in its outline circle) just over the split at 2.9: the
    # whole group was refused for that one, and all eleven dark men read empty.
    # (That empty square, 10, lies at the threshold: the Raspberry Pi's OpenCV puts it over and
    # reads it as a piece, with the old rule as with this one; not judged here.)
    wm, bm, wk, bk = Piece(WHITE), Piece(BLACK), Piece(WHITE, True), Piece(BLACK, True)
    _read_the_other_renderers_still(
        {2: bk, 11: bk, 20: bk, 45: wk, 5: bm, 7: bm, 8: bm, 12: bm, 14: bm, 32: bm, 34: bm,
         39: bm, 17: wm, 21: wm, 24: wm, 28: wm, 29: wm, 30: wm, 33: wm, 36: wm, 37: wm, 43: wm},
        1600, marginal=(10,))


def test_pieces_whose_outlines_alone_stand_apart_are_read_as_pieces():
    # The other renderer's still alt-0023 at seed 0: dark men on dark squares, 40 degrees.
    # Their scores (colour and outline together) lay 3.3 to 7.6, two kings' under 4 (their
    # tops stand off the men's circle): the group was refused, and all eleven read empty.  Their
    # outlines alone stand far apart from every empty square's: 3.0 to 4.8 against 1.5 at most.
    wm, bm, wk, bk = Piece(WHITE), Piece(BLACK), Piece(WHITE, True), Piece(BLACK, True)
    _read_the_other_renderers_still(
        {4: bk, 6: bk, 38: bk, 26: wk, 1: bm, 10: bm, 16: bm, 21: bm, 23: bm, 30: bm, 39: bm,
         42: bm, 43: bm, 7: wm, 8: wm, 19: wm, 22: wm, 34: wm, 44: wm, 46: wm, 48: wm, 49: wm},
        4600)


def _read_the_other_renderers_still(pieces: dict[int, Piece], scene: int,
                                    marginal: tuple[int, ...] = ()) -> None:
    """The other renderer's still of ``pieces`` (its scene seed ``scene``, as `bench.stills`
    draws it) read by `read_image`: every piece read as a piece, every empty square empty but
    the ``marginal`` ones (not judged)."""
    _, read, _ = read_other_renderers_still(pieces, scene)
    missed = [sq for sq in pieces if read[sq] == "."]
    empty_wrong = [sq for sq in range(1, 51)
                   if sq not in pieces and sq not in marginal and read[sq] != "."]
    assert not missed and not empty_wrong, f"pieces read empty {missed}, empty read {empty_wrong}"
