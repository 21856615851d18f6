"""A frame source that replays a game through the renderer: the demo's camera and the tests'.

`RenderedSource` draws the bundled demo game (or any PDN game) as camera frames, with hands
reaching in, lifting, capturing and crowning, and pauses between moves (`renderer.render`).  It is a
recording, not a live camera: every frame is handed over in order, and frame times are the game
clock of the rendering (seconds since the first frame).
"""

from __future__ import annotations

import logging
from importlib import resources
from typing import Iterator

import numpy as np

from device.errors import SourceError
from device.sources import Frame
from rules.game import Game
from rules.pdn import read_file, read_games

log = logging.getLogger(__name__)

DEMO_GAME = "data/demo-game.pdn"


def load_game(pdn: str | None = None, index: int = 0) -> Game:
    """The game to replay: game ``index`` of a PDN file, or the bundled demo game."""
    if pdn:
        games = read_file(pdn)
        where = pdn
    else:
        text = resources.files("device").joinpath(DEMO_GAME).read_text(encoding="utf-8")
        games = list(read_games(text))
        where = "the bundled demo game"
    if not 0 <= index < len(games):
        raise SourceError(f"{where} has {len(games)} games, not {index + 1}: choose another game")
    read = games[index]
    if read.problem is not None:
        raise SourceError(f"{where}, game {index + 1}: {read.problem}: fix the PDN or choose another game")
    return read.game


class RenderedSource:
    """Rendered camera frames of ``game`` (see the module docstring).  ``seed`` picks the camera
    pose, board style and light; ``fps`` the frame rate of the rendering; ``markers`` lays the
    four ArUco markers of `vision.markers` beside the board's corners."""

    live = False

    def __init__(self, game: Game, *, fps: float = 10.0, seed: int = 1, pause_s: float = 1.5,
                 max_tilt_deg: float = 35.0, realistic: bool = True, tail_s: float = 4.0,
                 markers: bool = False) -> None:
        self.game = game
        self.fps = fps
        self.seed = seed
        self.pause_s = pause_s
        self.max_tilt_deg = max_tilt_deg
        self.realistic = realistic
        self.tail_s = tail_s
        self.markers = markers
        self._tail = 0
        self.name = f"rendered frames of {game.tags.get('Event', 'a game')}"
        self._frames: Iterator | None = None
        self.truth = None  # the last frame's GameFrame (pieces, hand, ply), for tests and views

    def open(self) -> None:
        from vision.markers import MarkerLayout
        from renderer.render import Camera, Lighting, Style, game_frames

        rng = np.random.default_rng(self.seed)
        layout = MarkerLayout() if self.markers else None
        # with markers, a pose that keeps them in the picture too
        reach = {} if layout is None else {"border_mm": max(30.0, layout.reach * 40.0)}
        camera = Camera.random(rng, max_tilt_deg=self.max_tilt_deg, min_tilt_deg=10.0, **reach)
        # a club room: light falling off across the board, a little sensor noise and blur, JPEG
        lighting = (Lighting(gradient=0.25, gradient_deg=float(rng.uniform(0, 360)), vignette=0.15,
                             shadow=0.35, noise=2.0, blur=0.6, jpeg_quality=85)
                    if self.realistic else Lighting())
        self._tail = 0
        self._frames = game_frames(self.game.start, self.game, fps=self.fps, camera=camera,
                                   style=Style(markers=layout),
                                   lighting=lighting, seed=self.seed,
                                   pause_s=self.pause_s)

    def read(self) -> Frame | None:
        if self._frames is None:
            raise SourceError(f"{self.name}: read before open")
        frame = next(self._frames, None)
        if frame is None:
            # the players sit a while over the final position: the board stays in view
            last = self.truth
            if last is None or self._tail >= int(self.tail_s * self.fps):
                return None
            self._tail += 1
            return Frame(last.image, last.time + self._tail / self.fps, last.index + self._tail)
        self.truth = frame
        return Frame(frame.image, frame.time, frame.index)

    def close(self) -> None:
        self._frames = None

    @property
    def plies(self) -> int:
        return len(self.game.moves)
