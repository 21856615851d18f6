"""Registering a frame to the board: `python -m bench.register`.

`vision.register.Anchor.shift` finds how far a frame moved against the board as it was located
(a real camera's shake and drift), on the ring of border and table around the playing area.
This bench measures it against a peer run in the same process on the same frames: OpenCV's
`cv2.findTransformECC` (a translation, on the same half-size grey pictures and ring masks, the
whole ring and its two halves, as the anchor did before it solved the match itself).

Each scene is a random camera, board style and light of `renderer` (start position at
calibration, another position with kings later: edge pieces change); each frame of it is the
later position moved by a random shift of up to ``--max-shift`` pixels, with its exposure off
by up to 10% and grain (sigma 4).  Printed as one JSON line: for both, the shifts told
(``told``: the match is not refused), their error against the true shift (mean and largest,
pixels) and milliseconds per frame (one thread), and ``time_ratio`` (the anchor's over the
peer's).  ``--scenes N`` (default 12), ``--shifts K`` per scene (default 6), ``--seed S``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import cv2
import numpy as np


def _ecc_shift(anchor, frame: np.ndarray, masks) -> tuple[float, float] | None:
    """The peer: `cv2.findTransformECC` on the whole ring and each half, with the anchor's own
    acceptance (correlation, halves agreeing, the largest shift)."""
    from vision.register import AGREE_PX, MAX_SHIFT_SQUARES, MIN_CORRELATION, _SCALE, _grey

    reference, *rings = masks
    now = _grey(frame, anchor.rect)
    found = []
    for mask in rings:
        warp = np.eye(2, 3, dtype=np.float32)
        try:
            cc, warp = cv2.findTransformECC(reference, now, warp, cv2.MOTION_TRANSLATION,
                                            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT,
                                             40, 1e-4), mask, 3)
        except cv2.error:
            return None
        if cc < MIN_CORRELATION:
            return None
        found.append((_SCALE * float(warp[0, 2]), _SCALE * float(warp[1, 2])))
    (dx, dy), a, b = found
    if np.hypot(a[0] - b[0], a[1] - b[1]) > AGREE_PX:
        return None
    if np.hypot(dx, dy) > MAX_SHIFT_SQUARES * anchor.location.square_px:
        return None
    return dx, dy


def _masks(anchor, frame: np.ndarray):
    """The peer's reference picture and uint8 masks of the anchor's whole ring and halves."""
    from vision.register import _grey

    reference = _grey(frame, anchor.rect)
    out = [reference]
    for ring in anchor.rings:
        mask = np.zeros(reference.shape, np.uint8)
        xs = ring.xs.ravel()[:len(ring.template)].astype(int)
        ys = ring.ys.ravel()[:len(ring.template)].astype(int)
        mask[ys, xs] = 1
        out.append(mask)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.register", description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=12)
    ap.add_argument("--shifts", type=int, default=6)
    ap.add_argument("--max-shift", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    from renderer.render import Camera, Lighting, Renderer, Style
    from rules.position import Position
    from vision.locate import BoardNotFound, find_board
    from vision.register import Anchor

    rng = np.random.default_rng(args.seed)
    stats = {"anchor": ([], [], 0.0), "ecc": ([], [], 0.0)}
    frames = scenes = 0
    for k in range(args.scenes):
        camera = Camera.random(rng, max_tilt_deg=40.0)
        style, light = Style.random(rng), Lighting.random(rng)
        renderer = Renderer()
        start = renderer.render(Position.start().pieces(), camera, style, light, seed=k)
        try:
            location = find_board(start.image)
        except BoardNotFound:
            continue
        later = renderer.render(Position.from_fen("W:W28,K35,40,43:B12,K19,23,26").pieces(),
                                camera, style, light, seed=k + 100)
        anchor = Anchor.of(start.image, location)
        if anchor.rings is None:
            continue
        masks = _masks(anchor, start.image)
        scenes += 1
        for _ in range(args.shifts):
            dx, dy = rng.uniform(-args.max_shift, args.max_shift, 2)
            m = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
            moved = cv2.warpAffine(later.image, m, later.image.shape[1::-1],
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
            moved = moved.astype(np.float32) * rng.uniform(0.9, 1.1)
            moved = np.clip(moved + rng.normal(0.0, 4.0, moved.shape), 0, 255).astype(np.uint8)
            frames += 1
            for name, fn in (("anchor", anchor.shift),
                             ("ecc", lambda f: _ecc_shift(anchor, f, masks))):
                t = time.perf_counter()
                found = fn(moved)
                spent = time.perf_counter() - t
                told, errors, total = stats[name]
                if found is not None:
                    told.append(1)
                    errors.append(float(np.hypot(found[0] - dx, found[1] - dy)))
                stats[name] = (told, errors, total + spent)
        print(f"scene {k}: {frames} frames so far", file=sys.stderr)
    out: dict = {"scenes": scenes, "frames": frames, "max_shift_px": args.max_shift}
    for name, (told, errors, total) in stats.items():
        out[name] = {"told": len(told),
                     "error_mean_px": round(float(np.mean(errors)), 3) if errors else None,
                     "error_max_px": round(float(np.max(errors)), 3) if errors else None,
                     "ms_per_frame": round(1000.0 * total / max(frames, 1), 2)}
    out["time_ratio"] = round(out["anchor"]["ms_per_frame"] / max(out["ecc"]["ms_per_frame"],
                                                                   1e-9), 3)
    out["opencv"] = cv2.__version__
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
