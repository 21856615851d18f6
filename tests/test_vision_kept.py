"""The watcher keeps only the board's box of the frames it averages (`vision.kept`, issue 19:
the service under 150 MB at its peak), and reads what it read from the whole frames."""

from __future__ import annotations

import gc
import tracemalloc
from dataclasses import replace

import numpy as np
import pytest

from renderer.render import Camera, Lighting, Style
from renderer.sequence import Pace, game_frames
from rules.position import Position
from vision.kept import Kept, board_box, mean_frame, mean_kept
from vision.locate import find_board
from vision.pipeline import BoardWatcher, WatchConfig
from tests.vision_helpers import moves_of


@pytest.fixture(scope="module")
def still_game():
    """Two moves at 10 frames a second with a real camera's noise, the board still for a second
    before each (so the watcher averages eight frames), 1280x960; no hand waits beside the board
    before the first move (`Pace.wait`: the watcher would settle once more, on the start)."""
    moves = moves_of("32-28", "19-23")
    frames = list(game_frames(Position.start(), moves, fps=10,
                              camera=Camera(tilt_deg=30.0, yaw_deg=10.0, distance_mm=1100.0),
                              style=Style(), lighting=Lighting(noise=3.0), seed=11, pause_s=1.2,
                              pace=replace(Pace.of_seed(11), wait=0.0)))
    return moves, frames


def test_the_box_holds_the_board_and_the_ring_round_it(still_game):
    _, frames = still_game
    image = frames[0].image
    location = find_board(image)
    x0, y0, x1, y1 = board_box(location, (image.shape[1], image.shape[0]))
    # every point the watcher reads: the motion view's ring reaches two squares beyond the grid
    t = np.linspace(-2.0, 12.0, 57)
    grid = np.stack(np.meshgrid(t, t), axis=-1).reshape(-1, 2)
    pts = location.to_image(grid)
    assert pts[:, 0].min() >= x0 and pts[:, 0].max() < x1
    assert pts[:, 1].min() >= y0 and pts[:, 1].max() < y1
    # and it is well short of the whole frame at a usual distance
    assert (x1 - x0) * (y1 - y0) < 0.6 * image.shape[0] * image.shape[1]


def test_the_mean_of_kept_boxes_is_the_frames_mean_inside_the_newest_frame():
    rng = np.random.default_rng(3)
    frames = [rng.integers(0, 256, (40, 60, 3), dtype=np.uint8) for _ in range(5)]
    box = (10, 5, 45, 30)
    got = mean_kept([Kept.of(f, box) for f in frames], frames[-1])
    want = mean_frame(frames)
    assert np.array_equal(got[5:30, 10:45], want[5:30, 10:45])
    outside = np.ones((40, 60), dtype=bool)
    outside[5:30, 10:45] = False
    assert np.array_equal(got[outside], frames[-1][outside])
    assert got is not frames[-1] and np.array_equal(frames[-1], frames[-1].copy())
    with pytest.raises(ValueError):
        mean_kept([Kept.of(frames[0], box), Kept.of(frames[1], (0, 0, 60, 40))], frames[-1])


def test_a_kept_box_holds_no_reference_to_its_frame():
    frame = np.zeros((96, 128, 3), np.uint8)
    kept = Kept.of(frame, (8, 8, 40, 40))
    assert kept.pixels.base is None and kept.pixels.shape == (32, 32, 3)
    whole = Kept.of(frame, (0, 0, 128, 96))
    assert whole.pixels is frame  # the whole frame: nothing to copy


def test_the_still_boards_read_from_kept_boxes_are_the_games_and_the_watcher_holds_little(
        still_game):
    """Fed a game frame by frame, the watcher settles on each move's board read right, and
    holds, besides the newest frame, the boxes of the frames it averages: kept whole, the three
    stretches held eight frames of 3.5 MB, and the watcher 34 MB in all (19 MB with the boxes:
    each is a third of the frame at this distance)."""
    moves, frames = still_game
    frame_mb = frames[0].image.nbytes / 2 ** 20
    settled = []
    tracemalloc.start()
    try:
        watcher = BoardWatcher(WatchConfig(corner_46=frames[0].corner_46))
        watcher.calibrate(frames[0].image.copy())
        for f in frames:
            s = watcher.feed(f.image.copy(), f.time)  # a camera's frame: the watcher's, once fed
            if s is not None:
                settled.append(s.observation.board())
        gc.collect()
        held_mb = tracemalloc.get_traced_memory()[0] / 2 ** 20
    finally:
        tracemalloc.stop()
    board = Position.start()
    want = []
    for m in moves:
        board = board.play(m)
        want.append(board.pieces())
    assert settled == want
    print(f"held {held_mb:.1f} MB, a frame {frame_mb:.1f} MB")
    assert held_mb < 6.5 * frame_mb
