"""Lens distortion (vision.lens): the board's own grid corners give the lens, so the outer edge
of the board is placed right through a wide lens, on rendered frames with known distortion."""

from __future__ import annotations

import numpy as np
import pytest

from rules.position import Position
from vision.lens import Lens
from vision.locate import find_board
from renderer.render import Camera, Lighting, Style, render

from tests.vision_helpers import corner_error_squares



def test_undistort_and_distort_are_inverse():
    lens = Lens.for_image((1280, 960), -0.2)
    pts = np.array([[0, 0], [1279, 959], [640, 480], [100, 800], [1200, 30]], dtype=float)
    assert np.allclose(lens.distort(lens.undistort(pts)), pts, atol=1e-6)
    # barrel: points far from the centre are pulled in as seen, so undistorting pushes them out
    far = lens.undistort(np.array([[1279.0, 959.0]]))[0]
    assert np.linalg.norm(far - lens.centre) > np.linalg.norm(np.array([1279.0, 959.0]) - lens.centre)


@pytest.mark.parametrize("k1,yaw,distance", [(-0.16, 10.0, 650.0), (-0.12, -35.0, 760.0)])
def test_a_wide_lens_is_found_and_the_board_edge_placed_within_a_fifteenth_of_a_square(
        k1, yaw, distance):
    cam = Camera(tilt_deg=25.0, yaw_deg=yaw, distance_mm=distance, k1=k1, fov_deg=70.0)
    r = render(Position.start().pieces(), cam, Style(), Lighting(noise=2.0), seed=1)
    assert r.corners.min() > 0 and r.corners[:, 0].max() < 1280 and r.corners[:, 1].max() < 960
    loc = find_board(r.image)
    assert loc.lens is not None and loc.lens.lam < 0  # barrel, as rendered
    assert corner_error_squares(loc.corners, r.corners) < 0.07
    # grid points map to the image and back through the lens
    grid = np.array([[0.0, 0.0], [5.0, 5.0], [10.0, 3.0]])
    assert np.allclose(loc.to_grid(loc.to_image(grid)), grid, atol=1e-6)


def test_no_lens_is_invented_for_a_distortion_free_camera():
    cam = Camera(tilt_deg=25.0, yaw_deg=10.0, distance_mm=650.0, k1=0.0, k2=0.0)
    r = render(Position.start().pieces(), cam, Style(), Lighting(noise=2.0), seed=1)
    loc = find_board(r.image)
    assert loc.lens is None or abs(loc.lens.lam) < 0.02
    assert corner_error_squares(loc.corners, r.corners) < 0.05
