"""Small helpers shared by the vision tests."""

from __future__ import annotations

from rules.position import Position
from vision.pipeline import BoardWatcher, WatchConfig
from vision.render import Camera, Lighting, Renderer, Style


def calibrated_watcher(renderer: Renderer, cam: Camera, style: Style,
                       light: Lighting) -> BoardWatcher:
    """A watcher calibrated on a rendered frame of the start position (square 46's corner
    configured from the renderer)."""
    start = renderer.render(Position.start().pieces(), cam, style, light, seed=1)
    watcher = BoardWatcher(WatchConfig(corner_46=start.corner_46))
    watcher.calibrate(start.image)
    return watcher
