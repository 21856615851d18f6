"""ArUco markers beside the board's corners (vision.markers), on rendered frames through the real
pipeline: location and orientation at several poses, hands, hidden markers, a board or camera
that moved, a game read by a BoardWatcher, the service on a board whose white pieces are the
darker ones, the printable sheet and its command, and both OpenCV marker interfaces."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import types
from dataclasses import replace

import cv2
import numpy as np
import pytest

from device.config import ConfigError, config_from_dict
from device.service import Companion
from device.sources import Frame
from device.store import GameStore
from rules.position import Position
from renderer.camera_model import SQUARE_MM, fits
from vision.markers import (ArucoApi, MarkerLayout, detect_markers, find_markers, marker_bits,
                            marker_sheet, write_sheet)
from vision.pipeline import BoardWatcher, WatchConfig
from vision.read import format_text, read_image
from renderer.render import Camera, Hand, Lighting, Renderer, Style, game_frames

from tests.vision_helpers import corner_error_squares

LAYOUT = MarkerLayout()
STYLE = Style(markers=LAYOUT)
RENDERER = Renderer()
START = Position.start()



def play(*texts: str) -> Position:
    pos = START
    for text in texts:
        pos = pos.play(pos.parse_move(text))
    return pos


def hide(image: np.ndarray, rendered, marker_id: int) -> np.ndarray:
    """The picture with a marker covered (a mug put on it): its paper painted over."""
    half = LAYOUT.side / 2 + LAYOUT.paper + 0.05
    c = np.asarray(LAYOUT.centres[marker_id])
    quad = (c + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half) * SQUARE_MM
    out = image.copy()
    cv2.fillConvexPoly(out, rendered.project(quad).round().astype(np.int32), (70, 80, 90))
    return out


POSES = [
    (Camera(tilt_deg=0.0, distance_mm=800.0), Lighting()),
    (Camera(tilt_deg=25.0, yaw_deg=-15.0, distance_mm=850.0), Lighting(noise=2.0)),
    (Camera(tilt_deg=30.0, yaw_deg=100.0, distance_mm=900.0), Lighting(gradient=0.3)),
    (Camera(tilt_deg=20.0, yaw_deg=200.0, roll_deg=8.0, distance_mm=950.0), Lighting(shadow=0.5)),
    (Camera(tilt_deg=35.0, yaw_deg=-60.0, distance_mm=1000.0, k1=-0.03),
     Lighting(noise=2.0, blur=0.6, jpeg_quality=80)),
]


@pytest.mark.parametrize("camera, lighting", POSES)
def test_markers_locate_and_orient_the_board_at_several_poses(camera, lighting):
    assert fits(camera, LAYOUT.reach * SQUARE_MM)  # every marker is in the picture
    r = RENDERER.render(START.pieces(), camera, STYLE, lighting, seed=1)
    fix = find_markers(r.image, LAYOUT)
    assert fix is not None and sorted(fix.markers) == [0, 1, 2, 3]
    assert fix.location.method == "markers"
    assert corner_error_squares(fix.location.corners, r.corners) < 0.05
    # marker 0 stands beside square 46's corner: the image corner the renderer says
    assert fix.corner_46 == r.corner_46
    # the cheap per-frame search near the known place finds the same
    again = find_markers(r.image, LAYOUT, near=fix.location)
    assert again is not None and corner_error_squares(again.location.corners, r.corners) < 0.05
    assert again.shift_from(fix) < 0.01


def test_a_hand_over_much_of_the_board_does_not_stop_the_location():
    camera = Camera(tilt_deg=25.0, yaw_deg=10.0, distance_mm=850.0)
    hand = Hand(x_mm=210.0, y_mm=230.0, height_mm=35.0, from_deg=80.0, size=1.15, spread=1.3)
    r = RENDERER.render(START.pieces(), camera, STYLE, Lighting(), hand=hand)
    assert r.hand and len(r.occluded) >= 10
    fix = find_markers(r.image, LAYOUT)
    assert fix is not None and corner_error_squares(fix.location.corners, r.corners) < 0.05
    assert fix.corner_46 == r.corner_46


@pytest.fixture(scope="module")
def plain():
    camera = Camera(tilt_deg=28.0, yaw_deg=-20.0, distance_mm=880.0)
    return RENDERER.render(play("32-28", "19-23").pieces(), camera, STYLE, Lighting(noise=1.5))


@pytest.mark.parametrize("hidden", [0, 2])
def test_one_marker_hidden_still_locates_and_orients(plain, hidden):
    image = hide(plain.image, plain, hidden)
    assert hidden not in detect_markers(image, LAYOUT)
    fix = find_markers(image, LAYOUT)
    assert fix is not None and sorted(fix.markers) == sorted({0, 1, 2, 3} - {hidden})
    assert corner_error_squares(fix.location.corners, plain.corners) < 0.05
    assert fix.corner_46 == plain.corner_46  # marker 0 hidden: the other three place its corner


def test_two_markers_hidden_are_not_enough_and_the_reader_falls_back(plain):
    image = hide(hide(plain.image, plain, 1), plain, 3)
    assert sorted(detect_markers(image, LAYOUT)) == [0, 2]
    assert find_markers(image, LAYOUT) is None
    # `read` says so, and finds the board by its checker pattern (the markers do not confuse it)
    reading = read_image(image)
    assert reading.method != "markers" and reading.markers == ()
    assert any("only 2 of the 4 markers seen (ID 0, 2)" in w for w in reading.warnings)
    assert corner_error_squares(np.array(reading.corners), plain.corners) < 0.15
    full = read_image(plain.image)
    assert full.method == "markers" and full.markers == (0, 1, 2, 3)
    assert full.corner_46 == plain.corner_46
    assert "found by: markers (ID 0, 1, 2, 3); square 46 at the" in format_text(full)


def test_a_board_or_camera_moved_under_a_hand_is_followed_at_once():
    """The camera is bumped while a hand makes a move: the markers give the new place on the
    hand's frames already, so the board settles as soon as the hand has gone."""
    before, after = START, play("32-28")
    at_a = Camera(tilt_deg=25.0, yaw_deg=-10.0, distance_mm=850.0)
    at_b = replace(at_a, look_dx_mm=16.0, look_dy_mm=-12.0, yaw_deg=-8.0)
    lifted = {sq: p for sq, p in before.pieces().items() if sq != 32}
    script = ([(at_a, before.pieces(), None)] * 6
              + [(at_b, before.pieces(), (270.0, 320.0))] * 2
              + [(at_b, lifted, (250.0, 300.0))] * 2
              + [(at_b, after.pieces(), (220.0, 280.0))] * 2
              + [(at_b, after.pieces(), None)] * 8)
    frames = []
    for i, (camera, pieces, at) in enumerate(script):
        hand = None if at is None else Hand(x_mm=at[0], y_mm=at[1], height_mm=40.0)
        r = RENDERER.render(pieces, camera, STYLE, Lighting(noise=1.5), hand=hand, seed=i)
        assert r.hand == (hand is not None)
        frames.append((r, i / 10.0))
    moved = find_markers(frames[-1][0].image, LAYOUT)
    assert moved.shift_from(find_markers(frames[0][0].image, LAYOUT)) > 0.3
    watcher = BoardWatcher(WatchConfig(markers=LAYOUT))
    watcher.calibrate(frames[0][0].image)
    settled = [(t, s) for r, t in frames if (s := watcher.feed(r.image, t)) is not None]
    hand_left = 1.2
    assert settled, "the board never settled after the camera moved"
    t, s = settled[0]
    assert t - hand_left <= 0.3 + 1e-6
    assert s.observation.board() == after.pieces()
    assert s.lifted == (32,)


@pytest.fixture(scope="module")
def game_run():
    pos = START
    moves = []
    for text in ("32-28", "19-23", "28x19", "14x23"):
        moves.append(pos.parse_move(text))
        pos = pos.play(moves[-1])
    camera = Camera(tilt_deg=25.0, yaw_deg=160.0, distance_mm=900.0)
    frames = list(game_frames(START, moves, fps=10, camera=camera,
                              style=replace(Style.real_photos(), markers=LAYOUT),
                              lighting=Lighting(noise=2.0), seed=7, pause_s=0.8,
                              renderer=RENDERER))
    watcher = BoardWatcher(WatchConfig(markers=LAYOUT))
    watcher.calibrate(frames[0].image)
    out = [(f, s) for f in frames if (s := watcher.feed(f.image, f.time)) is not None]
    return moves, frames, out, watcher


def test_a_watcher_with_markers_reads_a_game(game_run):
    moves, frames, out, watcher = game_run
    assert len(out) == len(moves)
    for f, s in out:
        obs = s.observation
        # a hand resting at the edge may lie over a corner of a square: the board is read
        # beside it (its shadow is no hand), every square as it stands, or the square it
        # covers is given as occluded
        assert {sq: p for sq, p in obs.board().items() if sq not in obs.occluded} == \
            {sq: p for sq, p in f.pieces.items() if sq not in obs.occluded}
        assert set(obs.occluded) <= set(f.occluded)
        # (the order of a capture's squares follows what the hand let the camera see first)
        assert set(s.lifted) == set(f.lifted)
    # the watcher took square 46's corner from the markers
    assert watcher.config.corner_46 == frames[0].corner_46


class _Frames:
    """A recording for the service: rendered frames handed over in order."""

    live = False
    name = "rendered frames"

    def __init__(self, frames) -> None:
        self.frames = frames

    def open(self) -> None:
        self._it = iter(self.frames)

    def read(self) -> Frame | None:
        f = next(self._it, None)
        return None if f is None else Frame(f.image, f.time, f.index)

    def close(self) -> None:
        pass


def test_the_service_orients_by_the_markers_when_white_has_the_darker_pieces(tmp_path):
    """Without markers the orientation comes from "the lighter pieces are white's"; here white's
    pieces are the darker ones, and the markers say where square 46 is."""
    style = replace(Style(), white_piece=(40, 40, 45), black_piece=(215, 225, 230), markers=LAYOUT)
    pos, moves = START, []
    for text in ("32-28", "19-23"):
        moves.append(pos.parse_move(text))
        pos = pos.play(moves[-1])
    camera = Camera(tilt_deg=22.0, yaw_deg=-8.0, distance_mm=880.0)
    frames = list(game_frames(START, moves, fps=6, camera=camera, style=style, seed=3,
                              pause_s=1.0, renderer=RENDERER))
    c = Companion(source=_Frames(frames), store=GameStore(tmp_path / "games.sqlite3"),
                  tags={"Event": "markers"}, still_s=0.3, markers=True)
    c.open_game()
    for f in frames:
        c.process(Frame(f.image, f.time, f.index))
    assert c.watcher.calibration.orientation.corner_46 == frames[0].corner_46
    assert c.arbiter.game.move_texts() == ["32-28", "19-23"]
    assert json.loads((tmp_path / "calibration.json").read_text()) == {"corner_46": frames[0].corner_46}


# -- printing ------------------------------------------------------------------------------------

def test_the_sheet_has_four_decodable_markers_at_their_printed_size(tmp_path):
    path = tmp_path / "sheet.png"
    write_sheet(path, marker_sheet(LAYOUT, size_mm=30.0))
    data = path.read_bytes()
    # the resolution is recorded, so that printing at 100% gives the markers their size
    at = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    assert unit == 1 and ppm_x == ppm_y == round(300 / 0.0254)
    page = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    assert page.shape == (3508, 2480)  # A4 at 300 dpi
    seen = detect_markers(page, LAYOUT)
    assert sorted(seen) == [0, 1, 2, 3]
    for corners in seen.values():
        side_mm = np.mean(np.linalg.norm(corners - np.roll(corners, 1, 0), axis=1)) / 300 * 25.4
        assert abs(side_mm - 30.0) < 0.3
    # laid out as white sees the board: the far corners' markers (IDs 3, 2) above the near ones
    centre = {i: c.mean(axis=0) for i, c in seen.items()}
    assert centre[3][1] < centre[0][1] and centre[2][1] < centre[1][1]
    assert centre[3][0] < centre[2][0] and centre[0][0] < centre[1][0]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "device.cli", *args], capture_output=True,
                          text=True, timeout=120)


def test_the_markers_command_writes_the_sheet_and_read_says_found_by_markers(tmp_path, plain):
    out = tmp_path / "markers.png"
    r = run_cli("markers", str(out), "--size-mm", "40")
    assert r.returncode == 0, r.stderr
    assert str(out) in r.stdout and "DICT_4X4_50" in r.stdout
    assert sorted(detect_markers(cv2.imread(str(out)), LAYOUT)) == [0, 1, 2, 3]
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), plain.image)
    r = run_cli("read", str(photo))
    assert r.returncode == 0, r.stderr
    assert "found by: markers (ID 0, 1, 2, 3)" in r.stdout


@pytest.mark.parametrize("args, says", [
    (("sheet.jpg",), "give a file name ending in .png"),
    (("sheet.png", "--size-mm", "200"), "--size-mm 200 is out of range: use 10 to 50 mm"),
    (("/no/such/folder/sheet.png",), "cannot write /no/such/folder/sheet.png"),
])
def test_the_markers_command_refuses_bad_input_in_one_line(tmp_path, args, says):
    r = subprocess.run([sys.executable, "-m", "device.cli", "markers", *args], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and says in r.stderr and "Traceback" not in r.stderr


def test_markers_in_the_configuration():
    assert config_from_dict({}).board.markers is False
    assert config_from_dict({"board": {"markers": True}}).board.markers is True
    with pytest.raises(ConfigError, match='board.markers = "yes" is not true or false'):
        config_from_dict({"board": {"markers": "yes"}})


# -- the two OpenCV interfaces -------------------------------------------------------------------

def opencv_46_style() -> tuple[types.SimpleNamespace, list[str]]:
    """A stand-in for OpenCV 4.6's cv2.aruco: only the 4.6 names and call forms
    (Dictionary_get, DetectorParameters_create, detectMarkers(image, dictionary, parameters=...),
    drawMarker), each done by this OpenCV's own detector, and a log of the calls made."""
    real = cv2.aruco
    calls: list[str] = []

    def Dictionary_get(code):
        calls.append("Dictionary_get")
        return real.getPredefinedDictionary(code)

    def DetectorParameters_create():
        calls.append("DetectorParameters_create")
        return real.DetectorParameters()

    def detectMarkers(image, dictionary, parameters=None):
        calls.append("detectMarkers")
        return real.ArucoDetector(dictionary, parameters).detectMarkers(image)

    def drawMarker(dictionary, marker_id, side_pixels, img=None, borderBits=1):
        calls.append("drawMarker")
        return real.generateImageMarker(dictionary, marker_id, side_pixels, img, borderBits)

    ns = types.SimpleNamespace(DICT_4X4_50=real.DICT_4X4_50,
                               CORNER_REFINE_SUBPIX=real.CORNER_REFINE_SUBPIX,
                               Dictionary_get=Dictionary_get,
                               DetectorParameters_create=DetectorParameters_create,
                               detectMarkers=detectMarkers, drawMarker=drawMarker)
    return ns, calls


@pytest.mark.skipif(not hasattr(getattr(cv2, "aruco", None), "ArucoDetector"),
                    reason="this OpenCV has only the 4.6 interface (Debian's, the Pi's): the other "
                           "marker tests run it for real")
def test_the_opencv_46_interface_gives_the_same_answers(plain):
    """What this proves: the adapter's 4.6 branch uses only the 4.6 names with their 4.6 call
    forms (positional image and dictionary, ``parameters=`` by keyword, ``drawMarker``) and reads
    their results the same way.  What it cannot prove: that OpenCV 4.6 itself detects as this
    OpenCV does; that was checked once by hand in a throwaway venv with
    opencv-contrib-python-headless 4.6.0.66 (pip's plain 4.6 wheel has no aruco module; Debian's
    python3-opencv 4.6 has): the same markers, corner errors under 0.02 square, the sheet
    decodable."""
    ns, calls = opencv_46_style()
    old = ArucoApi(ns)
    assert not old.modern and ArucoApi().modern
    fix = find_markers(plain.image, LAYOUT, api=old)
    new = find_markers(plain.image, LAYOUT)
    assert fix is not None and sorted(fix.markers) == sorted(new.markers) == [0, 1, 2, 3]
    assert np.abs(fix.location.corners - new.location.corners).max() < 1e-6
    assert fix.corner_46 == new.corner_46 == plain.corner_46
    assert {"Dictionary_get", "DetectorParameters_create", "detectMarkers"} <= set(calls)
    for i in range(4):
        assert np.array_equal(marker_bits(LAYOUT, i, api=old), marker_bits(LAYOUT, i))
    page = marker_sheet(LAYOUT, api=old)
    assert "drawMarker" in calls
    assert sorted(detect_markers(page, LAYOUT, api=old)) == [0, 1, 2, 3]
