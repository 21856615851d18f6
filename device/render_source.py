"""A frame source that replays a game through the renderer: the demo's camera and the tests'.

`RenderedSource` draws the bundled demo game (or any PDN game) as camera frames, with hands
reaching in, lifting, capturing and crowning, and pauses between moves (`renderer.render`), seen
through a camera that behaves like a real one (`renderer.sensor`).  It is a recording, not a live
camera: every frame is handed over in order, and frame times are the game clock of the rendering
(seconds since the first frame).  The players sit ``tail_s`` over the final position: the board
stays in view, the camera still running.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from importlib import resources
from typing import TYPE_CHECKING, Iterator

import numpy as np

from device.errors import SourceError
from device.sources import Frame
from rules.game import Game
from rules.pdn import read_file, read_games

if TYPE_CHECKING:
    from renderer.sensor import CameraBehaviour
    from renderer.sequence import Pace

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
    pose, board style and light (a third of the rooms dim, exposure 0.6-0.75) and the camera's
    behaviour; ``fps`` the frame rate of the rendering; ``markers`` lays the four ArUco markers
    of `vision.markers` beside the board's corners.

    ``behaviour``: how the camera behaves from frame to frame (`renderer.sensor`: sub-pixel
    shake, drift, noise growing in dim light, focus breathing, JPEG); None draws a real camera
    at random from ``seed``, `CameraBehaviour.still()` turns it all off.  ``pace``: how the
    players play (`renderer.sequence.Pace`: pauses, replies before the board was seen still,
    hands resting at the edge, slid pieces); None draws one from ``seed`` (quick play more often
    than not), `Pace.slow()` is the old unhurried pace; ``pause_s``, if given, fixes the pauses.
    ``realistic=False`` gives the clean world: even light and, unless given, a still camera and
    the slow pace.  After `open`, ``behaviour``, ``pace`` and ``lighting`` say what was drawn."""

    live = False

    def __init__(self, game: Game, *, fps: float = 10.0, seed: int = 1, pause_s: float | None = None,
                 max_tilt_deg: float = 35.0, realistic: bool = True, tail_s: float = 4.0,
                 markers: bool = False, behaviour: CameraBehaviour | None = None,
                 pace: Pace | None = None) -> None:
        self.game = game
        self.fps = fps
        self.seed = seed
        self.pause_s = pause_s
        self._pace = pace
        self.pace: Pace | None = None
        self.max_tilt_deg = max_tilt_deg
        self.realistic = realistic
        self.tail_s = tail_s
        self.markers = markers
        self._behaviour = behaviour
        self.behaviour: CameraBehaviour | None = None
        self.lighting = None
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
        self.behaviour = self.camera_behaviour()
        # a club room: light falling off across the board, a third of the rooms dim; the
        # camera's noise, blur and JPEG are its behaviour's (a still camera gets a little of each)
        lighting = Lighting()
        if self.realistic:
            lighting = Lighting(gradient=0.25, gradient_deg=float(rng.uniform(0, 360)), vignette=0.15,
                                shadow=0.35)
            if rng.random() < 1 / 3:
                lighting = replace(lighting, exposure=float(rng.uniform(0.6, 0.75)))
            if self.behaviour.is_still:
                lighting = replace(lighting, noise=2.0, blur=0.6, jpeg_quality=85)
        self.lighting = lighting
        self.pace = self.players_pace()
        self._frames = game_frames(self.game.start, self.game, fps=self.fps, camera=camera,
                                   style=Style(markers=layout),
                                   lighting=lighting, seed=self.seed, behaviour=self.behaviour,
                                   pace=self.pace, end_s=self.end_s())

    def players_pace(self) -> Pace:
        """The players' pace: the one given, else the slow pace for the clean world, else one
        drawn from the seed; ``pause_s`` fixes its pauses."""
        from renderer.sequence import Pace

        pace = self._pace
        if pace is None:
            pace = Pace.slow() if not self.realistic else \
                Pace.of_seed(self.seed)
        if self.pause_s is not None:
            pace = replace(pace, pause_s=(self.pause_s, self.pause_s))
        return pace

    def end_s(self) -> float:
        """How long the final position stays in view: a last pause, then ``tail_s``."""
        assert self.pace is not None
        return self.pace.pause_s[1] + self.tail_s

    def camera_behaviour(self) -> CameraBehaviour:
        """The camera's behaviour: the one given, else a still camera for the clean world, else
        a real camera drawn from the seed."""
        from renderer.sensor import CameraBehaviour

        if self._behaviour is not None:
            return self._behaviour
        if not self.realistic:
            return CameraBehaviour.still()
        return CameraBehaviour.random(np.random.default_rng([self.seed, 0xCA3E7A]))

    def read(self) -> Frame | None:
        if self._frames is None:
            raise SourceError(f"{self.name}: read before open")
        frame = next(self._frames, None)
        if frame is None:
            return None
        self.truth = frame
        return Frame(frame.image, frame.time, frame.index)

    def close(self) -> None:
        self._frames = None

    @property
    def plies(self) -> int:
        return len(self.game.moves)
