"""Finding the board in a game's first frame: `python -m bench.locate`.

The companion can record nothing until `vision.locate.find_board` has found the playing area
in the frames the camera gives at the start.  This bench draws scenes exactly as
`bench.system_accuracy` draws its games (camera pose and lens, board and piece colours, light,
a lamp's glare, the real camera's shake, grain and JPEG; the game's set-up or start position),
takes each scene's first frame and measures:

- ``found``: scenes whose board was found, and ``right``: found with every corner within a
  sixth of a square of the renderer's (any rotation: the orientation is calibration's job);
- the corner error (mean and largest, in squares) of the boards found;
- milliseconds per search (one thread; the first frame only, as calibration runs it).

Scenes not found, or found wrong, are listed on stderr with their game and seed (run
`bench.trace NAME SEED` on one) and, with ``--save DIR``, their frame written there.  One JSON
line on stdout.  ``--scenes N`` (default 100), ``--seed S`` (the first scene's seed; scene i
uses S + i, the game names taken in turn as the system bench's games are).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

#: A corner farther than this (squares) from the renderer's is a board found wrong.
RIGHT_SQUARES = 1 / 6


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.locate", description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--seed", type=int, default=990000)
    ap.add_argument("--save", type=Path, default=None, help="write the frames not found here")
    args = ap.parse_args(argv)
    import cv2

    from bench.system_accuracy import _cut, _games, _SceneSource
    from vision.locate import BoardNotFound, find_board

    cv2.setNumThreads(1)
    games = _games()
    names = sorted(games)
    found = right = 0
    errors: list[float] = []
    times: list[float] = []
    missed: list[str] = []
    for i in range(args.scenes):
        seed, name = args.seed + i, names[i % len(names)]
        source = _SceneSource(_cut(games[name], 40), seed, 6.0)
        source.open()
        frame = source.read()
        truth = source.truth
        source.close()
        t = time.perf_counter()
        try:
            location = find_board(frame.image)
        except BoardNotFound as e:
            location, why = None, str(e)
        times.append(time.perf_counter() - t)
        if location is None:
            missed.append(f"{name} {seed}: not found ({why})")
        else:
            found += 1
            error = _corner_error(location.corners, truth.corners)
            errors.append(error)
            if error <= RIGHT_SQUARES:
                right += 1
            else:
                missed.append(f"{name} {seed}: found {error:.2f} square off")
        if location is None or errors[-1] > RIGHT_SQUARES:
            print(missed[-1], file=sys.stderr)
            if args.save is not None:
                args.save.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(args.save / f"{name}-{seed}.png"), frame.image)
        if (i + 1) % 10 == 0:
            print(f"{i + 1}/{args.scenes} scenes: {right} right, {found} found", file=sys.stderr)
    print(json.dumps({
        "scenes": args.scenes, "seed": args.seed, "found": found, "right": right,
        "corner_error_mean_squares": round(float(np.mean(errors)), 4) if errors else None,
        "corner_error_max_squares": round(float(np.max(errors)), 4) if errors else None,
        "search_ms_mean": round(1000 * float(np.mean(times)), 1),
        "search_ms_max": round(1000 * float(np.max(times)), 1),
        "missed": missed,
    }))


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance (squares of the found board) for the best of the four
    rotations of the found corners against the renderer's."""
    side = float(np.mean([np.linalg.norm(found[i] - found[(i + 1) % 4]) for i in range(4)])) / 10
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max())
               for k in range(4)) / side


if __name__ == "__main__":
    main()
