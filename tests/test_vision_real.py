"""The single-photo reader on the labelled real photos (tests/data/real-boards), scored as the
shared README says: best of the four rotations and the two namings of the piece colours; the
corners within a tenth of a square."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.locate import BoardNotFound
from vision.read import ImageReadError, format_json, format_text, read_image

DATA = Path(__file__).parent / "data" / "real-boards"
LABELS = {e["image"]: e for e in json.loads((DATA / "labels.json").read_text())}


def cells_right(grid: tuple[str, ...], label: list[str]) -> int:
    """Cells agreeing with the label, best of 4 rotations and 2 colour namings."""
    want = np.array([list(r) for r in label])
    got = np.array([list(r) for r in grid])
    best = 0
    for k in range(4):
        g = np.rot90(got, k)
        for names in ({"w": "g", "b": "r", "W": "G", "B": "R"}, {"w": "r", "b": "g", "W": "R", "B": "G"}):
            mapped = np.vectorize(lambda ch: names.get(ch, ch))(g)
            best = max(best, int((mapped == want).sum()))
    return best


def corner_error(corners, label) -> float:
    """Largest corner distance in squares, best of the four cyclic orders."""
    want = np.array(label["corners"])
    got = np.array(corners)
    side = np.mean([np.linalg.norm(want[i] - want[(i + 1) % 4]) for i in range(4)]) / 10
    return min(float(np.linalg.norm(np.roll(got, k, 0) - want, axis=1).max()) for k in range(4)) / side


@pytest.fixture(scope="module")
def readings() -> dict:
    out = {}
    for name in LABELS:
        try:
            out[name] = read_image(DATA / name)
        except BoardNotFound as e:
            out[name] = e
    return out


@pytest.mark.parametrize("name", ["1.jpg", "7.jpg", "9.jpg", "25.jpg"])
def test_every_cell_and_corner_on_dark_square_photos(readings, name):
    r = readings[name]
    assert not isinstance(r, Exception), r
    assert cells_right(r.grid, LABELS[name]["cells"]) == 100, "\n".join(r.grid)
    assert corner_error(r.corners, LABELS[name]) < 0.1
    assert r.dark_parity == LABELS[name]["dark_cell_parity"] or cells_right(r.grid, LABELS[name]["cells"])
    assert r.pieces_on_light == 0
    assert not any("light squares" in w for w in r.warnings)


def test_pieces_on_light_squares_are_reported_with_a_warning(readings):
    r = readings["12.jpg"]
    assert cells_right(r.grid, LABELS["12.jpg"]["cells"]) == 100, "\n".join(r.grid)
    assert corner_error(r.corners, LABELS["12.jpg"]) < 0.1
    assert r.pieces_on_light == 40
    assert any("light squares" in w and "Art. 5" in w for w in r.warnings)


def test_very_dark_photo_with_red_and_green_pieces_on_light_squares(readings):
    # 29.jpg: very dark, oblique, turned, all forty pieces on the light squares.  One shadow on
    # a dark square, darker than anything else, took a piece colour of its own, and the red and
    # green sides were lumped into the other: the green men read as empty (76 of 100 cells).
    r = readings["29.jpg"]
    assert not isinstance(r, Exception), r
    assert corner_error(r.corners, LABELS["29.jpg"]) < 0.1
    assert cells_right(r.grid, LABELS["29.jpg"]["cells"]) >= 90, "\n".join(r.grid)
    assert any("light squares" in w for w in r.warnings)


def test_corners_are_in_image_order(readings):
    r = readings["25.jpg"]  # the board turned about 31 degrees
    tl, tr, br, bl = np.array(r.corners)
    assert tl[1] == min(p[1] for p in (tl, tr, br, bl))  # top-left is the topmost corner here
    assert tr[0] > tl[0] and br[1] > tr[1] and bl[0] < br[0]


def test_text_and_json_forms(readings):
    r = readings["12.jpg"]
    text = format_text(r)
    assert "top-left" in text and "warning:" in text
    assert len([ln for ln in text.splitlines() if ln.startswith("  ")]) == 10
    data = json.loads(json.dumps(format_json(r)))
    assert data["grid"] == list(r.grid) and len(data["corners"]) == 4
    assert data["dark_cell_parity"] in (0, 1) and data["pieces_on_light_squares"] == 40


def test_debug_pictures(tmp_path):
    read_image(DATA / "9.jpg", debug_dir=tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["1-corners.png", "2-warped.png", "3-cells.png"]


def test_unreadable_image_is_a_clear_value_error(tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg at all")
    with pytest.raises(ImageReadError) as e:
        read_image(bad)
    assert "\n" not in str(e.value) and "bad.jpg" in str(e.value)
    with pytest.raises(ValueError):
        read_image(tmp_path / "missing.png")


def test_no_board_is_a_clear_value_error():
    rng = np.random.default_rng(0)
    noise = cv2.GaussianBlur(rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), (0, 0), 3)
    with pytest.raises(BoardNotFound) as e:
        read_image(noise)
    assert isinstance(e.value, ValueError) and "\n" not in str(e.value)


def test_a_lone_piece_of_one_side_keeps_its_colour():
    """Eleven men of one side and one of the other (an endgame): the lone piece is a side, not
    an odd cell to be set aside when the colours are learnt from the photo."""
    from rules.piece import BLACK, WHITE, Piece
    from renderer.render import Camera, Lighting, Style, render

    pieces = {sq: Piece(WHITE) for sq in (31, 32, 33, 34, 36, 37, 38, 40, 41, 45, 47)}
    pieces[19] = Piece(BLACK)
    for style in (Style(), Style.real_photos()):
        r = render(pieces, Camera(tilt_deg=30.0, yaw_deg=10.0, distance_mm=850.0), style,
                   Lighting(noise=1.5), seed=4)
        grid = "".join(read_image(r.image).grid)
        assert sorted((grid.count("w"), grid.count("b"))) == [1, 11], grid
