"""The independent renderer (altrender): frames reproducible, truth faithful to the game, kings
two discs high, a camera that shakes a little and coherently, and dim rooms noisier."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from altrender.image import Painter
from altrender.play import Play
from altrender.source import AltRenderedSource
from rules.game import Game
from rules.pdn import read_file
from rules.piece import BLACK, WHITE, Piece
from rules.position import Position
from pathlib import Path

DATA = Path(__file__).parent / "data"


def _game(text_moves: list[str], start: Position | None = None) -> Game:
    g = Game(start=start or Position.start())
    for m in text_moves:
        g.push_text(m)
    return g


@pytest.fixture(scope="module")
def crowning_game() -> Game:
    """A selfplay game with captures and crowning (the first of the data whose men are crowned)."""
    for read in read_file(str(DATA / "selfplay.pdn")):
        g = read.game
        if read.problem is None and any(p.king for p in g.position.pieces().values()) and len(g.moves) < 200:
            return g
    pytest.skip("no game with kings in the data")


def test_same_seed_same_frames():
    game = _game(["32-28", "19-23", "28x19", "14x23"])
    a, b = AltRenderedSource(game, 5, fps=6), AltRenderedSource(game, 5, fps=6)
    a.open()
    b.open()
    firsts = []
    for _ in range(16):
        fa, fb = a.read(), b.read()
        assert fa.time == fb.time
        assert np.array_equal(fa.image, fb.image)
        firsts.append(fa.image)
    c = AltRenderedSource(game, 6, fps=6)
    c.open()
    other = c.read().image
    assert other.shape != firsts[0].shape or not np.array_equal(other, firsts[0])


def test_truth_follows_the_game_to_its_end(crowning_game):
    game = crowning_game
    for seed in (1, 2, 3):
        src = AltRenderedSource(game, seed, fps=10)
        play = src.play
        assert play.board(play.end) == game.position.pieces()
        assert play.ply(play.end) == len(game.moves)
        for k, t in enumerate(play.done_at):  # each move's board once its last disc is down
            assert play.board(t + 1e-6) == game.positions[k + 1].pieces(), (seed, k)
            assert play.ply(t + 1e-6) == k + 1


def test_rendered_truth_ends_on_the_final_position():
    game = _game(["32-28", "19-23", "28x19", "14x23", "37-32"])
    src = AltRenderedSource(game, 11, fps=6)
    src.open()
    last = None
    while src.read() is not None:
        last = src.truth
    assert last.settled and not last.hand_over_board
    assert last.board == game.position.pieces() and last.ply == len(game.moves)


def _painted(fen: str, seed: int = 3) -> tuple[np.ndarray, Painter]:
    game = Game(start=Position.from_fen(fen))
    src = AltRenderedSource(game, seed, fps=6)
    painter = Painter(src.scene, src.camera)
    return painter.frame(src.play, 0.0, 0.0), painter


def _top_row(img: np.ndarray, empty: np.ndarray, near: np.ndarray, radius: float) -> int:
    """The topmost picture row that differs from ``empty`` within ``radius`` pixels of ``near``."""
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    around = (xx - near[0]) ** 2 + (yy - near[1]) ** 2 < radius ** 2
    changed = (np.abs(img - empty).max(-1) > 0.02) & around
    ys = np.nonzero(changed.any(1))[0]
    return int(ys.min())


def _steep_seeds(n: int) -> list[int]:
    """Seeds whose camera is tilted 25 degrees or more and near enough to see a disc's height."""
    out = []
    for seed in range(1, 200):
        src = AltRenderedSource(Game(start=Position.from_fen("W:W28,46:B5")), seed, fps=6)
        if src.camera.tilt_deg > 25 and src.camera.px_per_mm(src.scene.centre(28)) > 1.2:
            out.append(seed)
        if len(out) == n:
            return out
    return out


def test_a_king_stands_two_discs_high():
    for seed in _steep_seeds(2):
        empty, _ = _painted("W:W46:B5", seed)  # pieces far from square 28
        man, _ = _painted("W:W28,46:B5", seed)
        king, _ = _painted("W:WK28,46:B5", seed)
        src = AltRenderedSource(Game(start=Position.from_fen("W:W28,46:B5")), seed, fps=6)
        c, H = src.scene.centre(28), src.scene.height
        # how far up the picture a disc's height lifts the top (the disc's far edge, at z H and 2H)
        far = c + (src.camera.eye - c) * np.array([-1, -1, 0]) / np.linalg.norm((src.camera.eye - c)[:2]) * src.scene.diameter / 2
        v = src.camera.project(np.array([far + [0, 0, H], far + [0, 0, 2 * H]]))[:, 1]
        disc_px = float(v[0] - v[1])
        assert disc_px > 1.5
        near = src.camera.project(src.scene.centre(28)[None])[0]
        radius = 1.5 * src.camera.px_per_mm(src.scene.centre(28)) * src.scene.square
        top_man, top_king = _top_row(man, empty, near, radius), _top_row(king, empty, near, radius)
        # the king's top disc rises above the man's top by about a disc's height in the picture
        assert top_man - top_king >= 0.6 * disc_px - 1, (seed, top_man, top_king, disc_px)


def _shift(a: np.ndarray, b: np.ndarray, win: np.ndarray) -> np.ndarray:
    ga = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY).astype(np.float64)
    gb = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY).astype(np.float64)
    (dx, dy), _ = cv2.phaseCorrelate(ga, gb, win)
    return np.array([dx, dy])


def test_camera_shake_is_sub_pixel_and_correlated():
    game = _game(["32-28", "19-23"])
    src = AltRenderedSource(game, 21, fps=15)
    src.settings.shake_px, src.settings.shake_tau, src.settings.drift_px_per_min = 0.45, 0.6, 0.0
    src.open()
    frames, truths = [], []
    first = src.play.tracks[0].t0
    while True:
        f = src.read()
        if f.time >= first - 0.1:
            break
        frames.append(f.image)
        truths.append(src.truth.shift_px)
    assert len(frames) >= 15
    win = cv2.createHanningWindow(frames[0].shape[1::-1], cv2.CV_64F)
    measured = np.array([_shift(frames[0], f, win) for f in frames[1:]])
    true = np.array(truths[1:]) - np.array(truths[0])
    assert np.abs(measured).max() < 1.5  # sub-pixel shake (a little more for two frames apart)
    steps = np.linalg.norm(np.diff(measured, axis=0), axis=1)
    assert 0.005 < np.median(steps) < 0.5
    # what phaseCorrelate sees is the camera's motion, and it is correlated frame to frame
    assert np.corrcoef(measured[:, 0], true[:, 0])[0, 1] > 0.7
    x = measured[:, 0] - measured[:, 0].mean()
    assert float((x[1:] * x[:-1]).sum() / (x * x).sum()) > 0.3


def _noise(seed: int, scale: float) -> float:
    game = _game(["32-28", "19-23"])
    src = AltRenderedSource(game, seed, fps=10)
    src.settings.shake_px, src.settings.roll_px, src.settings.drift_px_per_min = 0.0, 0.0, 0.0
    sc = src.scene
    for l in sc.lights:
        l.intensity *= scale / sc.brightness
    sc.ambient *= scale / sc.brightness
    src.open()
    imgs = [src.read().image.astype(np.float32) for _ in range(8)]
    d = imgs[-1] - imgs[-2]  # two still frames of a still camera: what differs is noise
    return float(np.abs(d).mean())


def test_dim_rooms_are_noisier():
    for seed in (2, 9):
        assert _noise(seed, 0.06) > 1.3 * _noise(seed, 1.0)
