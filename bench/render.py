"""The renderer's speed, and a fingerprint of what it drew: `python -m bench.render`.

Renders a fixed set of frame sequences of the bundled demo game (`device.render_source.
load_game`), cut to its first `PLIES` plies, through the renderer (`renderer`), as the tests
render them:

- `device.render_source.RenderedSource` at two seeds and frame rates (real cameras: shake,
  drift, noise, focus, JPEG; one with the ArUco markers), and once with a still camera (the
  scene's own noise, blur and JPEG, drawn by `renderer.render`);
- `renderer.sequence.game_frames` with everything the sources leave off: spectators' shades,
  camera bumps (a jittered camera per bump), touches and put-backs.

Prints one JSON line: ``ms_per_frame`` (wall time spent rendering, hashing left out, over the
frames), ``frames``, ``seconds`` and ``sha256``, a hash over every frame's image bytes and its truth
(time, ply, pieces, hand, lifted, settled, corners, affine, occluded, phase, the hand mask, which
hands are in the picture, shades...).  ``--repeat N`` renders everything N times and reports the
best time (the hash must be the same every time).

Checking that a change to `renderer` draws the same bytes: make a worktree of the base revision
*before* changing anything, put this file in it, and run the bench in both trees (each from its
own root, so that ``-m`` imports that tree's `renderer`; the ``renderer`` field says which was
used), back to back, with the same interpreter::

    git worktree add /tmp/render-base HEAD
    cp bench/render.py /tmp/render-base/bench/
    (cd /tmp/render-base && /work/main/.venv/bin/python -m bench.render)
    .venv/bin/python -m bench.render

The two ``sha256`` must be equal; ``ms_per_frame`` compares the speed (noisy on a shared
machine: run both twice).  Remove the worktree afterwards (``git worktree remove
/tmp/render-base``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from typing import Iterable, Iterator

import numpy as np

import renderer
from device.render_source import RenderedSource, load_game
from renderer.render import Camera, Lighting, Style
from renderer.sensor import CameraBehaviour
from renderer.sequence import GameFrame, game_frames
from rules.game import Game

#: Plies of the demo game rendered per sequence (keeps the whole bench near a minute).
PLIES = 10


def opening(plies: int = PLIES) -> Game:
    """The demo game's first ``plies`` plies."""
    full = load_game()
    game = Game(start=full.start, tags=dict(full.tags))
    for move, after in zip(full.moves[:plies], full.positions[1:plies + 1]):
        game.push(move, after)
    return game


def _source(game: Game, **kw: object) -> Iterator[GameFrame]:
    src = RenderedSource(game, **kw)  # type: ignore[arg-type]
    src.open()
    while src.read() is not None:
        assert src.truth is not None
        yield src.truth


def sequences(game: Game) -> list[tuple[str, Iterable[GameFrame]]]:
    """The sequences rendered, by name (lazily: each renders as it is read)."""
    rng = np.random.default_rng(11)
    return [
        ("seed5-fps6", _source(game, fps=6, seed=5)),
        ("seed2-fps8-markers", _source(game, fps=8, seed=2, markers=True)),
        ("seed3-fps6-still-camera", _source(game, fps=6, seed=3, behaviour=CameraBehaviour.still())),
        ("seed7-fps5-spectators", game_frames(
            game.start, game, fps=5, camera=Camera.random(rng, max_tilt_deg=35.0, min_tilt_deg=10.0),
            style=Style.random(rng), lighting=Lighting.random(rng), seed=7, jitter=0.5,
            touches=0.5, put_backs=0.5, spectators=1.0)),
    ]


def _update(h: "hashlib._Hash", frame: GameFrame) -> None:
    """Feeds one frame's picture and truth into ``h``."""
    r = frame.rendered

    def arr(a: np.ndarray | None) -> None:
        if a is None:
            h.update(b"none")
        else:
            a = np.ascontiguousarray(a)
            h.update(f"{a.dtype}{a.shape}".encode())
            h.update(a.tobytes())

    arr(frame.image)
    arr(r.hand_mask)
    for a in (frame.corners, frame.board_corners, frame.affine, r.corners, r.board_corners):
        arr(np.asarray(a, dtype=np.float64))
    truth = (frame.time, frame.index, frame.ply, sorted((k, str(v)) for k, v in frame.pieces.items()),
             frame.hand, frame.lifted, frame.settled, frame.corner_46, repr(frame.camera),
             frame.occluded, frame.phase, str(frame.move), frame.shaking, frame.resting,
             repr(frame.shades), sorted((k, str(v)) for k, v in r.pieces.items()),
             sorted((k, str(v)) for k, v in r.light_squares_pieces.items()), r.occluded, r.hand,
             r.hands_in_picture, r.corner_46)
    h.update(repr(truth).encode())


def run() -> dict[str, object]:
    """Renders every sequence once: frames, seconds and the hash."""
    h = hashlib.sha256()
    frames = 0
    seconds = 0.0
    for name, frames_of in sequences(opening()):
        h.update(name.encode())
        it = iter(frames_of)
        while True:
            t0 = time.perf_counter()
            frame = next(it, None)
            seconds += time.perf_counter() - t0
            if frame is None:
                break
            _update(h, frame)
            frames += 1
    return {"frames": frames, "seconds": seconds, "sha256": h.hexdigest()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.render", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="render everything N times, keep the best time")
    args = parser.parse_args(argv)
    runs = [run() for _ in range(max(1, args.repeat))]
    hashes = {r["sha256"] for r in runs}
    if len(hashes) != 1:
        raise SystemExit(f"the renderer drew different frames on repeated runs: {sorted(hashes)}")
    best = min(float(r["seconds"]) for r in runs)  # type: ignore[arg-type]
    frames = int(runs[0]["frames"])  # type: ignore[call-overload]
    print(json.dumps({"bench": "render", "ms_per_frame": round(1000 * best / frames, 2), "frames": frames,
                      "seconds": round(best, 2), "sha256": runs[0]["sha256"],
                      "renderer": renderer.__path__[0]}))


if __name__ == "__main__":
    main()
