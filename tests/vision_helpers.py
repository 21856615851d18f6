"""Small helpers shared by the vision tests."""

from __future__ import annotations

import numpy as np

from rules.move import Move
from rules.position import Position
from vision.kings import king_evidence
from vision.locate import find_board
from vision.pipeline import BoardWatcher, WatchConfig
from vision.pose import estimate_pose
from renderer.render import Camera, Lighting, Renderer, Style
from vision.squares import board_view


def drawn(seed: int, game: int) -> tuple[Camera, Style, Lighting, np.random.Generator]:
    """Camera, style and light of a game of the accuracy bench (`bench.vision_accuracy`: its
    ``--seed`` and game number), and the generator it then draws the game's moves from."""
    rng = np.random.default_rng(seed * 1000 + game)
    return Camera.random(rng), Style.random(rng), Lighting.random(rng), rng


def calibrated_watcher(renderer: Renderer, cam: Camera, style: Style,
                       light: Lighting) -> BoardWatcher:
    """A watcher calibrated on a rendered frame of the start position (square 46's corner
    configured from the renderer)."""
    start = renderer.render(Position.start().pieces(), cam, style, light, seed=1)
    watcher = BoardWatcher(WatchConfig(corner_46=start.corner_46))
    watcher.calibrate(start.image)
    return watcher


def corner_error_squares(found: np.ndarray, truth: np.ndarray, any_rotation: bool = False) -> float:
    """The largest distance between found and true corners, in squares: in the same order, or
    (``any_rotation``) in the best of the four cyclic orders."""
    side = np.mean([np.linalg.norm(truth[i] - truth[(i + 1) % 4]) for i in range(4)]) / 10
    shifts = range(4) if any_rotation else (0,)
    return min(float(np.linalg.norm(np.roll(found, k, 0) - truth, axis=1).max())
               for k in shifts) / side


def moves_of(*texts: str) -> list[Move]:
    """The moves written ``texts``, played in turn from the start position."""
    pos, out = Position.start(), []
    for text in texts:
        move = pos.parse_move(text)
        out.append(move)
        pos = pos.play(move)
    return out


def boards_after(moves: list[Move], start: Position | None = None) -> list[dict]:
    """The pieces after each of ``moves`` from ``start`` (the start position by default)."""
    pos, out = start or Position.start(), []
    for move in moves:
        pos = pos.play(move)
        out.append(pos.pieces())
    return out


def separation(watcher: BoardWatcher, frame: np.ndarray) -> np.ndarray:
    """Each cell's image distance (pixels) between a man's and a king's top face."""
    cal = watcher.calibration
    location = find_board(frame)
    pose = estimate_pose(location.homography, (frame.shape[1], frame.shape[0]))
    view = board_view(frame, location, pose, cal.man_height)
    ev = king_evidence(view, pose, np.ones((10, 10), dtype=bool), man_height=cal.man_height,
                       square_px=location.square_px, offset=cal.kings)
    return ev.separation
