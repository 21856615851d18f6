"""Accuracy of the vision pipeline on rendered games: `python -m bench.vision_accuracy`.

For each game (random camera pose, lens, board and piece colours, light, glare, noise, blur,
JPEG; hands making the moves; sometimes camera shake and hovering hands): a `BoardWatcher` is
calibrated on the start frame (square 46's corner configured from the renderer) and fed every
frame; after each settled observation it is told the board's truth (`BoardWatcher.confirm`), as
the arbiter tells it once it has accepted the board.  Measured against the renderer's truth:

- settled observations: per-square error rate (and the rate of wrong readings given with a
  confidence of 0.8 or more) and whole-board accuracy, how many moves got exactly one, extra
  ones, settled observations emitted while a hand covered squares, lifted squares equal to
  the truth;
- kings: for every game whose camera is at least 20 degrees off vertical, frames with random
  positions of men and kings (8 kings in 16 pieces), read by the calibrated watcher: recall and
  precision of the kings, and the recall of the kings the camera can tell from men
  (``king_recall_tellable``: a king's top at least 2.5 camera pixels from a man's there; a far
  camera, or a square near the camera's foot, shows less, and the reading then says unsure).

Progress goes to stderr; one JSON line to stdout.  ``--games N`` (default 20), ``--plies N``
(default 10), ``--fps F`` (default 10), ``--seed S``, ``--only G ...`` (only those games of
the run, numbered from 0, each drawn exactly as in the full run).  ``--kings-only`` measures the
kings alone (the watcher calibrated on the game's start frame, no game fed: much quicker, and
nothing learnt from a game; the game fields of the JSON are then zero); ``--verbose`` lists every missed king and every man read as a king on
stderr (tilt, camera distance, cell, colours, the king evidence).  The JSON's ``king_p`` is the
mean king probability the readings gave the true kings and the men (``kings``/``men``), and
``king_p_bins`` how often a piece given a king probability in each bin was a king (calibration).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import cv2
import numpy as np


#: A king's top at least this many camera pixels from a man's: the camera can tell them
#: (`vision.kings`: nearer, a reading stays unsure, neither a king nor a sure man).
_TELLABLE_PX = 2.5
#: A reading this confident that is wrong counts as surely wrong (`square_sure_error_rate`);
#: below it the reading says it is unsure, and the arbiter weighs its alternative.
_SURE = 0.8
#: King probability bins for the calibration table.
_BINS = (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1.0001)


def _king_frames(watcher, renderer, cam, style, light, rng, g: int, totals: dict,
                 verbose: bool) -> None:
    """Three frames of random positions (8 kings among 16 pieces) read by the calibrated
    ``watcher``; counts into ``totals``, misses on stderr when ``verbose``."""
    from rules.piece import BLACK, WHITE, Piece

    for k in range(3):
        pieces = {}
        squares = rng.choice(np.arange(1, 51), 16, replace=False)
        for i, sq in enumerate(squares):
            pieces[int(sq)] = Piece(WHITE if i % 2 else BLACK, i < 8)
        r = renderer.render(pieces, cam, style, light, seed=g * 7 + k)
        obs = watcher.read(r.image)
        ev, cells = _evidence(watcher)
        totals["king_frames"] += 1
        for sq in range(1, 51):
            t, reading = pieces.get(sq), obs.reading(sq)
            o = reading.content
            if t is not None and t.king:
                totals["kings_true"] += 1
                totals["kings_found"] += o == t
                # where a king's top lies far enough from a man's for the camera to tell
                if not ev.uncertain and ev.separation[cells[sq - 1]] >= _TELLABLE_PX:
                    totals["kings_tellable"] += 1
                    totals["kings_tellable_found"] += o == t
            if o is not None and o.king:
                totals["kings_read"] += 1
                totals["kings_right"] += o == t
            if t is None or o is None or o.color is not t.color:
                continue
            pk = reading.probability(Piece(o.color, True))  # as the arbiter weighs it
            b = int(np.searchsorted(_BINS, pk, side="right")) - 1
            totals["bins"][b][0] += 1
            totals["bins"][b][1] += t.king
            totals["p_kings" if t.king else "p_men"].append(pk)
        if verbose:
            _explain(watcher, pieces, obs, g, cam, style, light)


def _evidence(watcher):
    """The king evidence of the calibrated ``watcher``'s last reading (the bench looks inside on
    purpose) and the image cells of squares 1-50."""
    return watcher._last_read.kings, watcher.calibration.orientation.square_cells()


def _explain(watcher, pieces, obs, g, cam, style, light) -> None:
    """Every missed king and every man read as a king in the watcher's last reading (``obs``),
    with the evidence behind it."""
    from vision.kings import KingCalibration

    cal = watcher.calibration
    loc = watcher._location
    ev, cells = _evidence(watcher)
    for sq, t in pieces.items():
        o = obs.reading(sq).content
        if (t.king and o == t) or (not t.king and not (o is not None and o.king)):
            continue
        rc = cells[sq - 1]
        what = "missed king" if t.king else "man read as king"
        fields = {name: round(float(getattr(ev, name)[rc]), 3)
                  for name in ("height", "extent", "shift", "per_unit", "separation", "p_king")
                  if hasattr(ev, name) and np.ndim(getattr(ev, name)) == 2}
        kc = cal.kings
        if isinstance(kc, KingCalibration):
            how = (f"bias {np.round(kc.bias, 3).tolist()} sigma {np.round(kc.sigma, 3).tolist()} "
                   f"displacement {np.abs(kc.displacement).max():.3f}")
        else:
            how = f"offset {kc:.3f}"
        print(f"  game {g} {what} sq {sq} cell {rc} read {o} tilt {cam.tilt_deg:.0f} "
              f"dist {cam.distance_mm:.0f} px/sq {loc.square_px:.0f} man_h {style.man_height:.2f}"
              f" cal_h {cal.man_height or float('nan'):.3f} r {ev.radius:.3f} "
              f"(true {style.piece_diameter / 2:.3f}) {how} glare {light.glare:.1f} "
              f"blur {light.blur:.1f} {fields}", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.vision_accuracy")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=10)
    ap.add_argument("--fps", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kings-only", action="store_true",
                    help="measure the kings alone (no game fed to the watcher)")
    ap.add_argument("--verbose", action="store_true", help="every king error on stderr")
    ap.add_argument("--only", type=int, nargs="+", metavar="G",
                    help="only these games (0-based) of the run, to look at one closely")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    from rules.position import Position
    from vision.pipeline import BoardWatcher, CalibrationError, WatchConfig
    from vision.locate import BoardNotFound
    from renderer.render import Camera, Lighting, Renderer, Style, game_frames

    totals = dict(frames=0, settled=0, settled_with_hand=0, squares=0, squares_wrong=0,
                  squares_wrong_sure=0,
                  boards_right=0, moves=0, moves_with_one_settled=0, extra_settled=0,
                  lifted_right=0, kings_true=0, kings_found=0, kings_tellable=0,
                  kings_tellable_found=0, kings_read=0, kings_right=0,
                  king_frames=0, calibration_failures=0, games=0, tilted_games=0,
                  bins=[[0, 0] for _ in _BINS[:-1]], p_kings=[], p_men=[])
    wrong_examples = []
    hand_examples: list[dict] = []
    t0 = time.time()
    renderer = Renderer()
    for g in range(args.games):
        rng = np.random.default_rng(args.seed * 1000 + g)
        cam = Camera.random(rng)
        style = Style.random(rng)
        light = Lighting.random(rng)
        pos = Position.start()
        moves = []
        for _ in range(args.plies):
            legal = pos.legal_moves()
            if not legal:
                break
            m = legal[int(rng.integers(len(legal)))]
            moves.append(m)
            pos = pos.play(m)
        if (args.kings_only and cam.tilt_deg < 20.0) or (args.only and g not in args.only):
            continue
        frames = game_frames(Position.start(), moves, fps=args.fps, camera=cam, style=style,
                             lighting=light, seed=g, jitter=0.3, touches=0.3, renderer=renderer)
        first = next(frames)
        watcher = BoardWatcher(WatchConfig(corner_46=first.corner_46))
        try:
            watcher.calibrate(first.image)
        except (CalibrationError, BoardNotFound) as e:
            totals["calibration_failures"] += 1
            print(f"game {g}: calibration failed: {e}", file=sys.stderr)
            continue
        totals["games"] += 1
        per_ply: dict[int, int] = {}
        for f in () if args.kings_only else frames:
            totals["frames"] += 1
            s = watcher.feed(f.image, f.time)
            if s is None:
                continue
            totals["settled"] += 1
            # the arbiter, having accepted the move, tells the watcher what stands where
            watcher.confirm(f.pieces)
            if f.occluded:  # a hand over squares (one resting beside the board covers none)
                totals["settled_with_hand"] += 1
                hand_examples.append({"game": g, "time": f.time, "phase": f.phase,
                                      "frame": f.index})
            per_ply[f.ply] = per_ply.get(f.ply, 0) + 1
            wrong = [sq for sq in range(1, 51) if s.observation.reading(sq).content != f.pieces.get(sq)]
            totals["squares"] += 50
            totals["squares_wrong"] += len(wrong)
            totals["squares_wrong_sure"] += sum(
                1 for sq in wrong if s.observation.reading(sq).confidence >= _SURE)
            totals["boards_right"] += not wrong
            totals["lifted_right"] += s.lifted == f.lifted
            if wrong and len(wrong_examples) < 10:
                wrong_examples.append({"game": g, "time": f.time, "squares": wrong,
                                       "tilt": round(cam.tilt_deg, 1)})
        if not args.kings_only:
            totals["moves"] += len(moves)
            totals["moves_with_one_settled"] += sum(1 for p in range(1, len(moves) + 1)
                                                    if per_ply.get(p) == 1)
            totals["extra_settled"] += (sum(max(0, n - 1) for n in per_ply.values())
                                        + per_ply.get(0, 0))
        if cam.tilt_deg >= 20.0:
            totals["tilted_games"] += 1
            _king_frames(watcher, renderer, cam, style, light, rng, g, totals, args.verbose)
        print(f"game {g + 1}/{args.games}: tilt {cam.tilt_deg:.0f}, {totals['frames']} frames, "
              f"{totals['squares_wrong']} squares wrong, {totals['extra_settled']} extra settled, "
              f"{totals['settled_with_hand']} with a hand so far, kings {totals['kings_found']}/"
              f"{totals['kings_true']} found, {totals['kings_read'] - totals['kings_right']} "
              f"false, {time.time() - t0:.0f} s", file=sys.stderr)
    sq = max(1, totals["squares"])
    out = {
        "games": totals["games"], "calibration_failures": totals["calibration_failures"],
        "frames": totals["frames"], "settled": totals["settled"],
        "square_error_rate": round(totals["squares_wrong"] / sq, 6),
        "square_sure_error_rate": round(totals["squares_wrong_sure"] / sq, 6),
        "board_accuracy": round(totals["boards_right"] / max(1, totals["settled"]), 4),
        "moves": totals["moves"],
        "moves_with_exactly_one_settled": totals["moves_with_one_settled"],
        "extra_settled": totals["extra_settled"],
        "settled_with_hand": totals["settled_with_hand"],
        "lifted_right": round(totals["lifted_right"] / max(1, totals["settled"]), 4),
        "tilted_games": totals["tilted_games"], "king_frames": totals["king_frames"],
        "king_recall": round(totals["kings_found"] / max(1, totals["kings_true"]), 4),
        "king_precision": round(totals["kings_right"] / max(1, totals["kings_read"]), 4),
        "kings_tellable": totals["kings_tellable"],
        "king_recall_tellable": round(totals["kings_tellable_found"]
                                      / max(1, totals["kings_tellable"]), 4),
        "king_p": {"kings": round(float(np.mean(totals["p_kings"])), 3) if totals["p_kings"] else None,
                   "men": round(float(np.mean(totals["p_men"])), 3) if totals["p_men"] else None},
        "king_p_bins": [{"p": [_BINS[i], min(1.0, _BINS[i + 1])], "pieces": n, "kings": k}
                        for i, (n, k) in enumerate(totals["bins"]) if n],
        "wrong_examples": wrong_examples,
        "settled_with_hand_examples": hand_examples,
        "seconds": round(time.time() - t0, 1),
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
