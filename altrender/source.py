"""`AltRenderedSource`: a game played by `altrender.play` under a random `altrender.scene`, seen by
a random `altrender.camera`, as a `device.sources.FrameSource`.

After each ``read()``, ``truth`` tells what the frame shows: the board as it rests (square ->
piece), the move reached (``ply``), whether a hand is over the board, whether a disc is held,
whether the board is ``settled`` (untouched, no hand over it), a hand resting at the edge, the
players' phase, and ``corner_46``: the picture's corner (0 top-left, 1 top-right, 2 bottom-right,
3 bottom-left, as `device.service.Companion` takes it) where square 46 stands.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from altrender.camera import Camera, Sensor, SensorSettings, image_corner_index
from altrender.image import Painter
from altrender.play import Play
from altrender.scene import Scene
from device.sources import Frame


@dataclass(frozen=True)
class Truth:
    time: float
    board: dict
    ply: int
    hand_over_board: bool
    touched: bool
    settled: bool
    resting: bool
    phase: str
    corner_46: int
    shift_px: tuple[float, float]


class AltRenderedSource:
    live = False

    def __init__(self, game, seed: int, fps: float = 10.0, tail_s: float = 3.0) -> None:
        self.game = game
        self.seed = seed
        self.fps = float(fps)
        self.tail_s = tail_s
        self.name = f"alt-rendered game (seed {seed}, {fps:g} fps)"
        rng = np.random.default_rng([seed, 0xA17])
        self.scene = Scene.random(rng)
        sc = self.scene
        self.camera = Camera.random(rng, np.array([sc.size / 2, sc.size / 2, 0.0]), sc.outer())
        self.settings = SensorSettings.random(rng)
        self.play = Play(sc, game, np.random.default_rng([seed, 0xB1A]), start_still=float(rng.uniform(1.5, 3.0)),
                         tail=tail_s)
        uv = self.camera.project(sc.outer())
        # square 46 is in row 9, column 0: the board's outer corner (-border, -border)
        self.corner_46 = image_corner_index(uv, 0)
        self.truth: Truth | None = None
        self._painter: Painter | None = None
        self._sensor: Sensor | None = None
        self._index = 0
        self.render_s = 0.0

    @property
    def pace(self) -> str:
        return self.play.pace.name

    def describe(self) -> dict:
        cam, s = self.camera, self.settings
        return {**self.scene.describe(), "pace": self.pace, "fps": self.fps, "size": [cam.width, cam.height],
                "tilt": round(cam.tilt_deg, 1), "azimuth": round(cam.azimuth_deg, 1),
                "shake_px": round(s.shake_px, 2), "jpeg": s.jpeg, "corner_46": self.corner_46,
                "early_replies": self.play.early, "slides": self.play.slides, "hovers": self.play.hovers,
                "rests": self.play.rests, "spectators": len(self.play.shadows)}

    def open(self) -> None:
        self._painter = Painter(self.scene, self.camera)
        self._sensor = Sensor(self.settings, self.camera.width, self.camera.height, seed=self.seed * 7 + 1)
        self._index = 0

    def frame_at(self, t: float) -> tuple[np.ndarray, Truth]:
        """The picture at ``t`` (the sensor's state moves on by one frame) and its truth."""
        play = self.play
        exposure = min(1.0 / self.fps, 1 / 60 * max(1.0, 0.6 / self.scene.brightness))
        light = self._painter.frame(play, t, exposure)
        image = self._sensor.capture(light, 1.0 / self.fps)
        rest, held = play.discs(t)
        over = play.hand_over_board(t)
        phases = [tr.at(t)[3] for tr in play.active(t) if tr.kind == "move"]
        resting = any(tr.kind == "rest" for tr in play.active(t))
        truth = Truth(time=t, board=play.board(t), ply=play.ply(t), hand_over_board=over, touched=bool(held),
                      settled=not held and not over, resting=resting,
                      phase=phases[0] if phases else ("rest" if resting else "still"),
                      corner_46=self.corner_46, shift_px=self._sensor.last_shift)
        return image, truth

    def read(self) -> Frame | None:
        if self._painter is None:
            raise RuntimeError(f"{self.name} is not open")
        t = self._index / self.fps
        if t > self.play.end:
            return None
        t0 = time.perf_counter()
        image, self.truth = self.frame_at(t)
        self.render_s += time.perf_counter() - t0
        frame = Frame(image, t, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        self._painter = None
        self._sensor = None
