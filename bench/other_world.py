"""The whole companion on games rendered by another world: `python -m bench.other_world`.

`bench.system_accuracy` measures the companion on frames of the project's own renderer
(`renderer/`), whose scenes the vision was tuned on.  This bench renders the same bundled games
(15 real lidraughts games, 62 engine games; `bench.system_accuracy._games`, cut by ``_cut``) with
`altrender`, a renderer written independently of `renderer/` and `vision/`: its own boards,
tables, pieces (meshes with ridged or chamfered rims and grooves; kings two stacked discs off
centre), capsule hands and arms with shadows, players' habits (quick and slow pace, early
replies, hovering and resting hands, slid pieces, hopping captures, captured men taken off one by
one or swept together, crowning from the spares beside the board, passing spectators' shadows),
and camera (lens distortion, poses 10-45 degrees off vertical from any side, lagging auto
exposure, white balance drift, Bayer noise growing in dim light, correlated sub-pixel shake,
drift, focus breathing, JPEG).  Each game is fed frame by frame to the real
`device.service.Companion` (default configuration, square 46's corner from the source as an
installer configures it, the game's start position, a temporary `device.store.GameStore`), and
what it recorded and announced is measured against the game, as `bench.system_accuracy` does:

- ``games_exact``: scoresheets equal to the game's, move for move;
- ``plies_right`` of ``plies``: moves recorded before the first difference;
- ``false_irregularities``, ``false_touch_moves``, ``false_take_backs``: announcements about a
  legal game in which no piece was touched but the mover's;
- ``look_agains``: times the companion asked to look at the board again;
- ``lost_tracks``: times it said it lost track of the game (more moves unseen than it can work out);
- ``stills_between_positions`` (per game): frames in which the board was untouched (no hand over
  it, no disc held) yet showed no position of the game: captured men half taken off, the hand
  away at the table with one of them;
- ``crashes``: games in which the service raised (the game is scored up to there; the traceback
  goes to stderr);
- ``orientation_misfits``: games in which the companion decided the board does not stand as
  configured: either the source's ``corner_46`` is wrong, or the companion read White's first
  move as a move of the board turned half round (``warnings`` says which corner it took);
- ``by``: the same per pace, frame rate, light (dim: a room below 0.45 of normal light) and shake;
- ``problems``: each game with a difference or an announcement, with its scene, the first
  difference and the events, so that it can be replayed (``--only NAME --scene-seeds S``; a
  game's scene seed is ``seed * 1000 + its index`` unless given).

Run: ``python -m bench.other_world --games 6 --max-plies 20 --jobs 1 --seed 1``.  ``--fps F``
(default: 6, 10 or 15 drawn per game), ``--only NAME ...``, ``--save-frames DIR`` writes every
frame of each game as JPEG for a look.  Progress on stderr, one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench.system_accuracy import _cut, _games, announced, in_place, pick_games, scored, totals
from bench.trace import command

FPS_CHOICES = (6.0, 10.0, 15.0)
_TAIL_S = 3.0


def game_fps(seed: int) -> float:
    import numpy as np
    return FPS_CHOICES[int(np.random.default_rng([seed, 0xF95]).integers(len(FPS_CHOICES)))]


class _Warnings:
    """The companion's warnings (a board not fitting the configured orientation, a camera
    placement that cannot tell kings) while one game runs."""

    def __init__(self) -> None:
        import logging

        self.texts: list[str] = []
        outer = self

        class _H(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                outer.texts.append(record.getMessage())

        self.handler = _H(logging.WARNING)
        self.logger = logging.getLogger("device.service")

    def __enter__(self) -> "_Warnings":
        self.logger.addHandler(self.handler)
        return self

    def __exit__(self, *exc) -> None:
        self.logger.removeHandler(self.handler)


def run_one(name: str, seed: int, fps: float, max_plies: int, save: str | None = None) -> dict:
    import cv2
    from altrender.source import AltRenderedSource
    from device.service import Companion
    from device.store import GameStore

    cv2.setNumThreads(1)
    game = _cut(_games()[name], max_plies)
    source = AltRenderedSource(game, seed, fps, tail_s=_TAIL_S)
    source.open()
    t0 = time.time()
    events = []
    settled_plies = set()
    wrong_truth = 0
    frames = 0
    hand_frames = 0
    if save:
        Path(save, name).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, _Warnings() as warned:
        c = Companion(source=source, store=GameStore(Path(tmp) / "games.sqlite3"), tags={"Event": "bench"},
                      corner_46=source.corner_46, start=game.start)
        c.open_game()
        frame = source.read()
        crashed = None
        while frame is not None:
            truth = source.truth
            if truth.settled:
                settled_plies.add(truth.ply)
                wrong_truth += truth.board != game.positions[truth.ply].pieces()
            hand_frames += truth.hand_over_board
            if save:
                cv2.imwrite(str(Path(save, name, f"{frame.index:05d}.jpg")), frame.image)
            try:
                events.extend((frame.time, e) for e in c.process(frame))
            except Exception as e:  # the service stopped: what it recorded is scored, the rest lost
                crashed = f"{type(e).__name__} at {frame.time:.1f} s: {e}"
                traceback.print_exc(file=sys.stderr)
                break
            frames += 1
            frame = source.read()
        got = c.arbiter.game.move_texts() if c.arbiter else []
        calibrated = c._calibrated
        c.close()
    want = game.move_texts()
    right, counts = scored(got, want, events)
    scene = source.describe()
    out = {
        "game": name, "seed": seed, "plies": len(want), "recorded": len(got), "plies_right": right,
        "plies_in_place": in_place(got, want), "exact": got == want, "calibrated": calibrated, "frames": frames, "hand_frames": hand_frames,
        "seconds": round(time.time() - t0, 1), "render_ms": round(1000 * source.render_s / max(frames, 1), 1),
        "fps": fps, "dim": source.scene.dim, **counts, "scene": scene,
        "unseen_stills": sum(1 for p in range(1, len(want)) if p not in settled_plies),
        "stills_between_positions": wrong_truth,
        "orientation_misfit": any("does not fit the configured orientation" in w for w in warned.texts),
        "warnings": sorted(set(warned.texts))[:4],
        "crashed": crashed,
    }
    out["false_irregularities"] = counts["irregularities"]
    if not out["exact"] or any(counts.values()) or crashed:
        out["first_difference"] = {"ply": right, "want": want[right:right + 3], "got": got[right:right + 3],
                                   "at_s": round(source.play.done_at[right], 1) if right < len(source.play.done_at) else None}
        out["events"] = [f"{t:.1f}s {e}" for t, e in events if isinstance(e, tuple(announced().values()))][:8]
    return out


BUCKETS = {
    "shake<0.25px": lambda r: r["scene"]["shake_px"] < 0.25,
    "shake>=0.25px": lambda r: r["scene"]["shake_px"] >= 0.25,
    "dim": lambda r: r["dim"],
    "bright": lambda r: not r["dim"],
    "quick": lambda r: r["scene"]["pace"] == "quick",
    "normal": lambda r: r["scene"]["pace"] != "quick",
    **{f"{fps:g} fps": (lambda r, fps=fps: r["fps"] == fps) for fps in FPS_CHOICES},
}


def breakdown(results: list[dict]) -> dict:
    out = {}
    for bucket, inside in BUCKETS.items():
        rs = [r for r in results if inside(r)]
        out[bucket] = {"games": len(rs), "games_exact": sum(r["exact"] for r in rs),
                       "plies": sum(r["plies"] for r in rs), "plies_right": sum(r["plies_right"] for r in rs)}
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.other_world", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="+", metavar="NAME")
    ap.add_argument("--scene-seeds", nargs="+", type=int, metavar="S",
                    help="the scene seed of each game (default: seed * 1000 + its index), to replay a problem")
    ap.add_argument("--fps", type=float, default=None,
                    help="frames per second of every game (default: 6, 10 or 15 drawn per game)")
    ap.add_argument("--max-plies", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--save-frames", metavar="DIR")
    args = ap.parse_args(argv)

    try:
        names = pick_games(_games(), args.only, args.seed, args.games)
    except ValueError as e:
        ap.error(str(e))
    seeds = [args.seed * 1000 + i for i in range(len(names))]
    if args.scene_seeds:
        if len(args.scene_seeds) != len(names):
            ap.error("give one --scene-seeds value per game")
        seeds = list(args.scene_seeds)
    t0 = time.time()
    results = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_one, n, s, args.fps or game_fps(s), args.max_plies, args.save_frames)
                   for n, s in zip(names, seeds)]
        for fut in futures:
            r = fut.result()
            results.append(r)
            sc = r["scene"]
            print(f"{r['game']} (seed {r['seed']}, {r['fps']:g} fps, {sc['size'][0]}x{sc['size'][1]}, tilt {sc['tilt']}, "
                  f"azimuth {sc['azimuth']}, shake {sc['shake_px']} px, {'dim' if r['dim'] else 'bright'} "
                  f"{sc['brightness']}, {sc['board']} board, {sc['pieces']} pieces, {sc['pace']} pace): "
                  f"{r['plies_right']}/{r['plies']} plies right, {'exact' if r['exact'] else 'DIFFERENT'}"
                  f"{'' if r['calibrated'] else ' (NEVER CALIBRATED)'}"
                  f"{' (CRASHED: ' + r['crashed'] + ')' if r['crashed'] else ''}, irregularities {r['irregularities']}, "
                  f"touch {r['touch_moves']}, look again {r['look_agains']}"
                  f"{', LOST TRACK ' + str(r['lost_tracks']) if r['lost_tracks'] else ''}, {r['frames']} frames, render "
                  f"{r['render_ms']} ms/frame, {r['seconds']} s ({time.time() - t0:.0f} s so far)", file=sys.stderr)
            if "first_difference" in r:
                print(f"    first difference at ply {r['first_difference']}, events {r['events']}", file=sys.stderr)
            if not r["exact"]:
                print(f"    {command(r['game'], r['seed'], args.max_plies, fps=args.fps, other_world=True)}",
                      file=sys.stderr)
    out = {
        **totals(results, breakdown),
        "never_calibrated": sum(not r["calibrated"] for r in results),
        "crashes": sum(bool(r["crashed"]) for r in results),
        "orientation_misfits": sum(r["orientation_misfit"] for r in results),
        "render_ms_per_frame": round(sum(r["render_ms"] * r["frames"] for r in results)
                                     / max(1, sum(r["frames"] for r in results)), 1),
        "seconds": round(time.time() - t0, 1),
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
