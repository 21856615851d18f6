"""Accuracy of the vision pipeline on rendered games: `python -m bench.vision_accuracy`.

For each game (random camera pose, lens, board and piece colours, light, glare, noise, blur,
JPEG; hands making the moves; sometimes camera shake and hovering hands): a `BoardWatcher` is
calibrated on the start frame (square 46's corner configured from the renderer) and fed every
frame.  Measured against the renderer's truth:

- settled observations: per-square error rate and whole-board accuracy, how many moves got
  exactly one, extra ones, settled observations emitted while a hand was over the board, lifted
  squares equal to the truth;
- kings: for every game whose camera is at least 20 degrees off vertical, frames with random
  positions of men and kings (8 kings in 16 pieces), read by the calibrated watcher: recall and
  precision of the kings.

Progress goes to stderr; one JSON line to stdout.  ``--games N`` (default 20), ``--plies N``
(default 10), ``--fps F`` (default 10), ``--seed S``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import cv2
import numpy as np


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.vision_accuracy")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=10)
    ap.add_argument("--fps", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    from rules.piece import BLACK, WHITE, Piece
    from rules.position import Position
    from vision.pipeline import BoardWatcher, CalibrationError, WatchConfig
    from vision.locate import BoardNotFound
    from vision.render import Camera, Lighting, Renderer, Style, game_frames

    totals = dict(frames=0, settled=0, settled_with_hand=0, squares=0, squares_wrong=0,
                  boards_right=0, moves=0, moves_with_one_settled=0, extra_settled=0,
                  lifted_right=0, kings_true=0, kings_found=0, kings_read=0, kings_right=0,
                  king_frames=0, calibration_failures=0, games=0, tilted_games=0)
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
        for f in frames:
            totals["frames"] += 1
            s = watcher.feed(f.image, f.time)
            if s is None:
                continue
            totals["settled"] += 1
            if f.hand:
                totals["settled_with_hand"] += 1
                hand_examples.append({"game": g, "time": f.time, "phase": f.phase,
                                      "frame": f.index})
            per_ply[f.ply] = per_ply.get(f.ply, 0) + 1
            wrong = [sq for sq in range(1, 51) if s.observation.reading(sq).content != f.pieces.get(sq)]
            totals["squares"] += 50
            totals["squares_wrong"] += len(wrong)
            totals["boards_right"] += not wrong
            totals["lifted_right"] += s.lifted == f.lifted
            if wrong and len(wrong_examples) < 10:
                wrong_examples.append({"game": g, "time": f.time, "squares": wrong,
                                       "tilt": round(cam.tilt_deg, 1)})
        totals["moves"] += len(moves)
        totals["moves_with_one_settled"] += sum(1 for p in range(1, len(moves) + 1) if per_ply.get(p) == 1)
        totals["extra_settled"] += sum(max(0, n - 1) for n in per_ply.values()) + per_ply.get(0, 0)
        if cam.tilt_deg >= 20.0:
            totals["tilted_games"] += 1
            for k in range(3):
                pieces = {}
                squares = rng.choice(np.arange(1, 51), 16, replace=False)
                for i, sq in enumerate(squares):
                    pieces[int(sq)] = Piece(WHITE if i % 2 else BLACK, i < 8)
                r = renderer.render(pieces, cam, style, light, seed=g * 7 + k)
                obs = watcher.read(r.image)
                totals["king_frames"] += 1
                for sq in range(1, 51):
                    t, o = pieces.get(sq), obs.reading(sq).content
                    if t is not None and t.king:
                        totals["kings_true"] += 1
                        totals["kings_found"] += o == t
                    if o is not None and o.king:
                        totals["kings_read"] += 1
                        totals["kings_right"] += o == t
        print(f"game {g + 1}/{args.games}: tilt {cam.tilt_deg:.0f}, {totals['frames']} frames, "
              f"{totals['squares_wrong']} squares wrong so far, {time.time() - t0:.0f} s",
              file=sys.stderr)
    sq = max(1, totals["squares"])
    out = {
        "games": totals["games"], "calibration_failures": totals["calibration_failures"],
        "frames": totals["frames"], "settled": totals["settled"],
        "square_error_rate": round(totals["squares_wrong"] / sq, 6),
        "board_accuracy": round(totals["boards_right"] / max(1, totals["settled"]), 4),
        "moves": totals["moves"],
        "moves_with_exactly_one_settled": totals["moves_with_one_settled"],
        "extra_settled": totals["extra_settled"],
        "settled_with_hand": totals["settled_with_hand"],
        "lifted_right": round(totals["lifted_right"] / max(1, totals["settled"]), 4),
        "tilted_games": totals["tilted_games"], "king_frames": totals["king_frames"],
        "king_recall": round(totals["kings_found"] / max(1, totals["kings_true"]), 4),
        "king_precision": round(totals["kings_right"] / max(1, totals["kings_read"]), 4),
        "wrong_examples": wrong_examples,
        "settled_with_hand_examples": hand_examples,
        "seconds": round(time.time() - t0, 1),
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
