"""Small helpers shared by the vision tests."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from renderer.sequence import GameFrame
from rules.move import Move
from rules.position import Position
from vision.kings import king_evidence
from vision.locate import find_board
from vision.pipeline import BoardWatcher, WatchConfig
from vision.pose import estimate_pose
from renderer.render import Camera, Lighting, Renderer, Style, game_frames
from vision.squares import board_view


def drawn(seed: int, game: int) -> tuple[Camera, Style, Lighting, np.random.Generator]:
    """Camera, style and light of a game of the accuracy bench (`bench.vision_accuracy`: its
    ``--seed`` and game number), and the generator it then draws the game's moves from."""
    rng = np.random.default_rng(seed * 1000 + game)
    return Camera.random(rng), Style.random(rng), Lighting.random(rng), rng


def calibrated_watcher(renderer: Renderer, cam: Camera, style: Style, light: Lighting,
                       board: Position | None = None) -> BoardWatcher:
    """A watcher calibrated on a rendered frame of ``board`` (by default the start position;
    square 46's corner configured from the renderer)."""
    position = Position.start() if board is None else board
    first = renderer.render(position.pieces(), cam, style, light, seed=1)
    watcher = BoardWatcher(WatchConfig(corner_46=first.corner_46))
    watcher.calibrate(first.image, None if board is None else board.pieces())
    return watcher


def corner_error_squares(found: np.ndarray, truth: np.ndarray, any_rotation: bool = False) -> float:
    """The largest distance between found and true corners, in squares: in the same order, or
    (``any_rotation``) in the best of the four cyclic orders."""
    side = np.mean([np.linalg.norm(truth[i] - truth[(i + 1) % 4]) for i in range(4)]) / 10
    shifts = range(4) if any_rotation else (0,)
    return min(float(np.linalg.norm(np.roll(found, k, 0) - truth, axis=1).max())
               for k in shifts) / side


def moves_of(*texts: str, start: Position | None = None) -> list[Move]:
    """The moves written ``texts``, played in turn from ``start`` (the start position)."""
    pos, out = start or Position.start(), []
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


def bench_scene(start: Position, moves, seed: int, camera: Camera, style: Style,
                lighting: Lighting, fps: float = 10, skins: dict | None = None) -> list[GameFrame]:
    """A game of `bench.system_accuracy` redrawn: the scene's camera, style and lighting as it
    drew them from ``seed`` (given here, so that the test does not depend on the bench), and the
    camera's behaviour and the players' pace drawn from the seed as `RenderedSource` draws them
    (a real camera, quick play), with its spectators' shades, at ``fps`` frames a second;
    ``skins``: a side's hand coloured so (a hand like the board)."""
    import numpy as np

    from renderer.sensor import CameraBehaviour
    from renderer.sequence import SPECTATOR_SHARE, Pace

    # (the scenes redrawn were found before the first mover could wait beside the board,
    # `Pace.wait`: they are drawn as they were then)
    pace = replace(Pace.of_seed(seed), wait=0.0)
    behaviour = CameraBehaviour.random(np.random.default_rng([seed, 0xCA3E7A]))
    return list(game_frames(start, moves, fps=fps, camera=camera, style=style, lighting=lighting,
                            seed=seed, jitter=0.3, touches=0.3, behaviour=behaviour, pace=pace,
                            end_s=pace.pause_s[1] + 3.0, spectators=SPECTATOR_SHARE, skins=skins))


def glare_scene(start: Position, moves) -> list[GameFrame]:
    """The bench's selfplay-40 at seed 1818005 redrawn (`bench_scene`): a camera 43 degrees off
    vertical, yellow-green kings for White, and a lamp's glare over the board's lower left."""
    camera = Camera(tilt_deg=42.929, yaw_deg=74.521, roll_deg=11.029, distance_mm=1066.03,
                    fov_deg=50.425, k1=-0.10705, k2=-0.01198, look_dx_mm=-24.399,
                    look_dy_mm=3.826)
    style = Style(light_square=(129, 197, 249), dark_square=(48, 69, 115), border=(20, 28, 94),
                  table=(28, 50, 144), white_piece=(71, 236, 221), black_piece=(131, 36, 70),
                  border_print=None, edge_line=None, border_mm=13.425, piece_diameter=0.8611,
                  man_height=0.17393, side_shade=0.8107, piece_relief=0.59, piece_gloss=0.1726,
                  square_grain=0.2603, table_grain=0.7869, texture_seed=136326898)
    lighting = Lighting(gradient=0.49417, gradient_deg=19.398, vignette=0.15261,
                        exposure=0.99959, white_balance=(0.96183, 1.05344, 0.93582),
                        glare=0.54873, glare_xy=(0.40265, 0.59475), glare_radius=0.050466,
                        shadow=0.20627, light_azimuth_deg=359.221, light_elevation_deg=59.938,
                        noise=0.0, blur=0.85826, jpeg_quality=None, sheen=0.062)
    return bench_scene(start, moves, 1818005, camera, style, lighting)


def read_still_scene(scene: tuple):
    """A `bench.stills` still drawn again from ``scene`` ((white men, black men, white kings,
    black kings, style, camera, light, render seed)) and read by the real `read_image`, as
    ``frisian-companion read`` reads a photo: the scene's pieces, the reading of every square
    (1-50, as read: ``.``, ``w``, ``B`` ...), the reading, and the rendered frame (its truth)."""
    from rules.piece import BLACK, WHITE, Piece
    from renderer.render import render
    from vision.calibration import Orientation
    from vision.read import read_image

    white, black, white_kings, black_kings, style, camera, light, seed = scene
    pieces = ({sq: Piece(WHITE) for sq in white} | {sq: Piece(BLACK) for sq in black}
              | {sq: Piece(WHITE, True) for sq in white_kings}
              | {sq: Piece(BLACK, True) for sq in black_kings})
    frame = render(pieces, camera, style, light, seed=seed)
    reading = read_image(frame.image)
    cells = Orientation.from_corner_46(frame.corner_46).square_cells()
    read = {sq: reading.grid[r][c] for sq, (r, c) in enumerate(cells, start=1)}
    return pieces, read, reading, frame


def read_other_renderers_still(pieces: dict, scene: int):
    """The other renderer's still of ``pieces`` (its scene seed ``scene``, as `bench.stills`
    draws it) read by `vision.read.read_image`: the reading, each square's grid letter (1-50),
    and square 46's image corner."""
    from altrender.source import AltRenderedSource
    from rules.game import Game
    from vision.calibration import Orientation
    from vision.read import read_image

    source = AltRenderedSource(Game(start=Position.setup(pieces)), scene, fps=10.0)
    source.open()
    image, truth = source.frame_at(0.0)
    assert dict(truth.board) == pieces
    reading = read_image(image)
    cells = Orientation.from_corner_46(source.corner_46).square_cells()
    read = {sq: reading.grid[cells[sq - 1][0]][cells[sq - 1][1]] for sq in range(1, 51)}
    return reading, read, source.corner_46
