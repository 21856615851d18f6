"""The rendered camera behaves like a real one (renderer.sensor through renderer.sequence): it
shakes by fractions of a pixel with its truth following, drifts slowly, is noisier in dim light,
and gives the same frames for the same seed."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from rules.game import Game
from rules.position import Position
from renderer.render import Camera, Lighting, Style, game_frames, render
from renderer.sensor import CameraBehaviour
from renderer.sequence import Pace

#: What the renderer draws is checked here: never a recording of it.
pytestmark = pytest.mark.usefixtures("drawn_every_time")

CAMERA = Camera(tilt_deg=25.0, distance_mm=800.0)
START = Position.start()


def still_board(behaviour: CameraBehaviour, seconds: float = 2.0, *, seed: int = 2,
                lighting: Lighting = Lighting(), fps: float = 10.0) -> list:
    """Frames of the start position with nobody at the board."""
    return list(game_frames(START, [], fps=fps, camera=CAMERA, seed=seed, pause_s=seconds,
                            lighting=lighting, behaviour=behaviour))


def grey(frame) -> np.ndarray:
    return cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY).astype(np.float32)


def shift_between(a: np.ndarray, b: np.ndarray, turning: bool = False) -> np.ndarray:
    """How far ``b``'s content at the middle of the picture lies from ``a``'s (px, x and y), by
    ECC image alignment (OpenCV's phase correlation is biased by up to 0.4 px on clean, sharp
    pictures); ``turning`` lets the alignment rotate too."""
    warp = np.eye(2, 3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 100, 1e-6)
    motion = cv2.MOTION_EUCLIDEAN if turning else cv2.MOTION_TRANSLATION
    _, warp = cv2.findTransformECC(a, b, warp, motion, criteria, None, 1)
    middle = np.array([(a.shape[1] - 1) / 2, (a.shape[0] - 1) / 2, 1.0])
    return warp.astype(np.float64) @ middle - middle[:2]


def test_a_still_camera_gives_the_scene_as_drawn() -> None:
    frames = still_board(CameraBehaviour.still(), 0.5)
    drawn = render(START.pieces(), CAMERA, Style(), Lighting(), seed=2 * 100003)
    assert np.array_equal(frames[0].image, drawn.image)
    assert np.array_equal(frames[0].corners, drawn.corners)
    assert all(np.array_equal(f.image, frames[0].image) for f in frames)


def test_consecutive_frames_differ_by_the_sub_pixel_shake_the_truth_reports() -> None:
    """Between consecutive frames of a still board the picture moves by the shift by which the
    truth's corners moved, and the shake is of the configured rms."""
    shake = CameraBehaviour(shake_px=0.3, shake_corr=0.8, blur_px=0.6)
    frames = still_board(shake, 3.0)
    middle = (slice(180, 780), slice(340, 940))
    images = [grey(f)[middle] for f in frames]
    found = np.array([shift_between(a, b) for a, b in zip(images, images[1:])])
    truth = np.array([(fb.corners - fa.corners).mean(axis=0) for fa, fb in zip(frames, frames[1:])])
    assert np.abs(found - truth).max() < 0.05
    assert np.abs(truth).max() < 1.5  # sub-pixel from frame to frame, never a jump
    # positions relative to the first frame: the shake's rms (per axis) is of the configured order
    pos = np.cumsum(truth, axis=0)
    rms = float(np.sqrt(((pos - pos.mean(axis=0)) ** 2).mean()))
    assert 0.1 < rms < 0.9


def test_phase_correlation_finds_the_shake_of_a_real_camera() -> None:
    """A random real camera (noise, blur, JPEG): phase correlation, as a motion stage might use
    it, finds the frame-to-frame shake within a small fraction of a pixel."""
    frames = still_board(CameraBehaviour.random(np.random.default_rng(3)), 2.0)
    window = cv2.createHanningWindow((CAMERA.width, CAMERA.height), cv2.CV_32F)
    images = [grey(f) for f in frames]
    errors = []
    for a, b, fa, fb in zip(images, images[1:], frames, frames[1:]):
        (dx, dy), _ = cv2.phaseCorrelate(a, b, window)
        t = (fb.corners - fa.corners).mean(axis=0)
        errors.append(np.hypot(dx - t[0], dy - t[1]))
    assert np.median(errors) < 0.06 and max(errors) < 0.2


def test_the_truth_follows_the_roll_at_each_corner() -> None:
    """With a roll (exaggerated here to be measurable), image patches at the board's corners
    move as the truth's corners do, differently from each other."""
    roll = CameraBehaviour(roll_deg=0.15, shake_corr=0.6, blur_px=0.6)
    frames = still_board(roll, 1.5)
    images = [grey(f) for f in frames]
    moved = []
    for corner in range(4):
        errors = []
        for a, b, fa, fb in zip(images, images[1:], frames, frames[1:]):
            u, v = (int(round(c)) for c in fa.corners[corner])
            box = (slice(v - 60, v + 61), slice(u - 60, u + 61))  # centred on the corner's pixel
            truth = fb.corners[corner] - fa.corners[corner]
            errors.append(np.hypot(*(shift_between(a[box], b[box], turning=True) - truth)))
        assert np.median(errors) < 0.05, corner
        moved.append(np.array([f.corners[corner] for f in frames]))
    # opposite corners move in opposite directions under a roll
    a = moved[0] - moved[0].mean(axis=0)
    c = moved[2] - moved[2].mean(axis=0)
    assert float((a * c).sum()) < 0


def test_project_maps_board_points_into_the_shaken_frame() -> None:
    frames = still_board(CameraBehaviour(shake_px=0.4, roll_deg=0.05), 0.5)
    for f in frames:
        assert np.allclose(f.project([[0, 0], [400, 0], [400, 400], [0, 400]]), f.board_corners)
        assert np.allclose(f.rendered.corners, f.corners)


def noise_sigma(frames: list) -> float:
    """The sensor noise's sigma from two consecutive frames of a still board (shake off)."""
    a, b = (f.image.astype(np.float32) for f in frames[:2])
    return float((a - b).std() / np.sqrt(2.0))


def test_noise_grows_in_dim_light_and_is_fresh_every_frame() -> None:
    camera = replace(CameraBehaviour.random(np.random.default_rng(5)), shake_px=0.0, roll_deg=0.0,
                     exposure_drift=0.0, white_drift=0.0, jpeg_quality=None)
    bright = noise_sigma(still_board(camera, 0.3, lighting=Lighting(exposure=1.0)))
    dim = noise_sigma(still_board(camera, 0.3, lighting=Lighting(exposure=0.6)))
    assert 1.0 < bright < 3.5
    assert dim > 1.6 * bright and 3.5 < dim < 9.0


@pytest.mark.parametrize("seed", range(8))
def test_random_cameras_are_noisy_as_measured_outside(seed: int) -> None:
    b = CameraBehaviour.random(np.random.default_rng(seed))
    assert 0.1 <= b.shake_px <= 0.5 and 0.01 <= b.roll_deg <= 0.03 and 0.6 <= b.shake_corr <= 0.9
    assert 1.5 < float(b.noise_sigma(128.0, 1.0)) < 3.5
    assert 3.5 < float(b.noise_sigma(0.65 * 128.0, 0.65)) < 8.5
    assert 70 <= (b.jpeg_quality or 0) <= 92


def test_exposure_drifts_slowly_by_a_few_percent() -> None:
    drift = CameraBehaviour(exposure_drift=0.04, white_drift=0.02, drift_periods_s=(3.0, 8.0))
    frames = still_board(drift, 8.0, fps=5)
    means = np.array([f.image.reshape(-1, 3).mean(axis=0) for f in frames])
    ratio = means / means.mean(axis=0)
    spread = ratio.max(axis=0) - ratio.min(axis=0)
    assert (spread > 0.01).all() and (spread < 0.15).all()
    assert np.abs(np.diff(ratio, axis=0)).max() < 0.03  # slow: small from frame to frame
    # white balance: the channels do not drift together
    assert np.abs(ratio[:, 0] - ratio[:, 2]).max() > 0.005


def test_focus_blur_softens_the_picture() -> None:
    sharp = still_board(CameraBehaviour.still(), 0.3)[0].image
    soft = still_board(CameraBehaviour(blur_px=1.0), 0.3)[0].image
    def detail(img: np.ndarray) -> float:
        return float(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.CV_32F).var())
    assert detail(soft) < 0.7 * detail(sharp)


def test_the_default_camera_is_a_real_one_and_the_same_seed_gives_the_same_frames() -> None:
    game = Game(start=START)
    game.push_text("32-28")
    kwargs = dict(fps=6, camera=CAMERA, seed=9, pause_s=0.6)
    a = list(game_frames(START, game, **kwargs))
    b = list(game_frames(START, game, **kwargs))
    assert len(a) == len(b)
    assert all(np.array_equal(x.image, y.image) and np.array_equal(x.corners, y.corners)
               for x, y in zip(a, b))
    # the default camera shakes and is noisy: no two frames of the still board are alike
    assert not np.array_equal(a[0].image, a[1].image)
    assert not np.allclose(a[0].corners, a[1].corners)
    other = list(game_frames(START, game, **{**kwargs, "seed": 10}))
    assert not np.array_equal(a[0].image, other[0].image)


def test_the_rendered_source_uses_a_real_camera_unless_told_otherwise() -> None:
    from device.render_source import RenderedSource

    game = Game(start=START)
    game.push_text("32-28")
    real = RenderedSource(game, fps=5, seed=3, pause_s=0.4, tail_s=0.4)
    real.open()
    assert real.behaviour is not None and not real.behaviour.is_still
    first, second = real.read(), real.read()
    assert first is not None and second is not None
    assert not np.array_equal(first.image, second.image)
    still = RenderedSource(game, fps=5, seed=3, pause_s=0.4, tail_s=0.4,
                           behaviour=CameraBehaviour.still())
    still.open()
    assert still.read() is not None and still.truth is not None
    corners = still.truth.corners
    assert still.read() is not None and np.array_equal(still.truth.corners, corners)
    clean = RenderedSource(game, fps=5, seed=3, pause_s=0.4, tail_s=0.4, realistic=False)
    clean.open()
    first, second = clean.read(), clean.read()
    assert clean.behaviour is not None and clean.behaviour.is_still
    assert clean.pace == Pace.slow(0.4) and real.pace is not None and real.pace.rest > 0
    assert first is not None and second is not None
    assert np.array_equal(first.image, second.image)
