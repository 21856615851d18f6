"""`read` on rendered stills with kings: `python -m bench.stills`.

Issue 16's one-photo reading, scored as the CLI's ``read`` reads a photo: each still is written
as a PNG file and read back by `vision.read.read_image` from that file, in a child process of
its own (so that its peak memory is the reader's, not the renderer's).

Each still is a random position: 4 to 30 men and 1 to 4 kings of random colours on random
dark squares (no man on its own crowning row), under a random scene of the chosen renderer with
the camera 15 to 45 degrees off vertical (``--min-tilt``, ``--max-tilt``):

- ``home``: `renderer` (``Camera.random``, ``Style.random``, ``Lighting.random``: all its board
  and piece styles, light, glare, noise, blur, JPEG; a quarter of them under soft lamps,
  ``Lighting.soft_lamps``);
- ``alt``: `altrender`, the independent renderer (its own boards, piece meshes, kings two discs
  stacked off centre, lens and sensor): the check on stills of a renderer the reader was not
  tuned on.  Do not tune to it.

Scored against the renderer's truth (square 46's image corner from the renderer, so the grid's
cells are squares), with the two piece colours named lighter/darker by the best of the two
namings (the reading does not know which side is White):

- ``cells_right``: cells (100 per found board, empty ones included) read as the truth, kings and
  men told apart; ``cells_right_ignoring_kings``: the same with a king and a man of one colour
  counted equal;
- ``boards_found`` of ``stills``; ``boards_all_right``;
- kings: ``king_recall`` (of every king), ``king_recall_tellable`` (of the kings whose top lies
  at least 2.5 camera pixels from where a man's would, measured on the renderer's own camera:
  the camera can tell them), ``king_precision`` (upper-case cells that are kings), and the
  unsure ones the reading names (``kings_named_unsure``: a king read as a man but named in the
  reading's ``unsure_kings``); ``king_recall_tellable_seen``: the same recall of the tellable
  kings whose piece was read in its colour (the kings' own figure, apart from the colour
  reading: a piece read as empty or in the other colour is no king either);
- ``s_per_photo`` (mean and max of `read_image` on the file, one core) and ``peak_mb`` (the
  reading child's peak resident memory).

``--renderer home|alt|both`` (default home), ``-n N`` stills per renderer (default 400),
``--seed S``, ``--jobs J`` rendering processes (default 2), ``--keep DIR`` keeps the stills and
their truth (a later run with the same folder, renderer and ``-n`` reads them again without
rendering: give the same seed and tilts), ``--verbose`` lists every wrong cell.  Progress on
stderr, one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

#: A king's top at least this many camera pixels from a man's: the camera can tell them.
TELLABLE_PX = 2.5
#: The share of ``home`` stills lit by soft lamps (`renderer.render.Lighting.soft_lamps`).
SOFT_LAMPS_SHARE = 0.25


def random_position(rng: np.random.Generator) -> dict:
    """Square -> Piece: 4-30 men and 1-4 kings on random squares, no man on its crowning row."""
    from rules.piece import BLACK, WHITE, Piece

    kings = int(rng.integers(1, 5))
    men = int(rng.integers(4, 31))
    squares = [int(s) for s in rng.permutation(np.arange(1, 51))]
    pieces: dict[int, Piece] = {}
    for sq in squares[:kings]:
        pieces[sq] = Piece(WHITE if rng.random() < 0.5 else BLACK, True)
    for sq in squares[kings:]:
        if len(pieces) == kings + men:
            break
        colour = WHITE if rng.random() < 0.5 else BLACK
        if (colour is WHITE and sq <= 5) or (colour is BLACK and sq >= 46):
            continue
        pieces[sq] = Piece(colour)
    return pieces


def _home(seed: int, index: int, min_tilt: float, max_tilt: float):
    """(image, pieces, corner_46, tilt, separation px per square) from `renderer`."""
    from renderer.render import Camera, Lighting, Style, render

    rng = np.random.default_rng([seed, index, 0x57])
    pieces = random_position(rng)
    cam = Camera.random(rng, max_tilt, min_tilt_deg=min_tilt)
    style, light = Style.random(rng), Lighting.random(rng)
    # a share of the rooms lit by soft lamps, whose pieces' shadows reach the light squares
    # (`Lighting.soft_lamps`; its own stream, so that every other still is drawn as before)
    soft = np.random.default_rng([seed, index, 0x50F7])
    if soft.random() < SOFT_LAMPS_SHARE:
        light = light.soft_lamps(soft)
    r = render(pieces, cam, style, light, seed=index)
    h = style.man_height_mm
    sep = {sq: float(np.linalg.norm(r.square_centre(sq, 2 * h) - r.square_centre(sq, h)))
           for sq in range(1, 51)}
    return r.image, pieces, r.corner_46, cam.tilt_deg, sep


def _alt(seed: int, index: int, min_tilt: float, max_tilt: float):
    """The same from `altrender` (scene seeds tried in turn until the camera's tilt fits)."""
    from altrender.source import AltRenderedSource
    from rules.game import Game
    from rules.position import Position

    rng = np.random.default_rng([seed, index, 0xA1])
    pieces = random_position(rng)
    game = Game(start=Position.setup(pieces))
    for k in range(200):
        src = AltRenderedSource(game, seed * 100_000 + index * 200 + k, fps=10.0)
        if min_tilt <= src.camera.tilt_deg <= max_tilt:
            break
    src.open()
    image, truth = src.frame_at(0.0)
    sc, cam = src.scene, src.camera
    sep = {}
    for sq in range(1, 51):
        c = sc.centre(sq)
        man, king = cam.project(np.array([c + [0, 0, sc.height], c + [0, 0, 2 * sc.height]]))
        sep[sq] = float(np.linalg.norm(king - man))
    return image, dict(truth.board), src.corner_46, float(cam.tilt_deg), sep


def _render_one(job: tuple) -> dict:
    import cv2

    which, seed, index, min_tilt, max_tilt, folder = job
    cv2.setNumThreads(1)
    t = time.perf_counter()
    image, pieces, corner_46, tilt, sep = (_home if which == "home" else _alt)(
        seed, index, min_tilt, max_tilt)
    path = Path(folder) / f"{which}-{index:04d}.png"
    cv2.imwrite(str(path), image)
    return {"file": str(path), "index": index, "renderer": which, "corner_46": corner_46,
            "tilt": round(tilt, 1), "pieces": {str(sq): [p.color.is_white, p.king]
                                               for sq, p in pieces.items()},
            "separation": {str(sq): round(v, 2) for sq, v in sep.items()},
            "render_s": round(time.perf_counter() - t, 3)}


def read_files(listing: Path) -> None:
    """The child: read every still listed (one JSON per line), print one JSON per still."""
    import cv2

    cv2.setNumThreads(1)
    from vision.read import read_image

    for line in listing.read_text().splitlines():
        still = json.loads(line)
        t = time.perf_counter()
        try:
            r = read_image(still["file"])
            out = {"grid": list(r.grid), "unsure_kings": [list(c) for c in r.unsure_kings]}
        except ValueError as e:
            out = {"error": str(e)}
        out["read_s"] = round(time.perf_counter() - t, 4)
        print(json.dumps(out), flush=True)
    print(json.dumps({"peak_mb": round(_peak_kb() / 1024, 1)}), flush=True)


def _peak_kb() -> float:
    """This process's peak resident memory (kB) since it started its own program.  Linux keeps
    ``ru_maxrss`` across fork and exec: the reading child reported the bench's own peak, rendering
    included (593 MB on 100 `altrender` stills, against 99 MB when the kept stills were read
    again).  ``VmHWM`` is the child's own address space's."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return float(line.split()[1])
    except OSError:
        pass
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def score(still: dict, read: dict, totals: dict, verbose: bool) -> None:
    from vision.calibration import Orientation

    totals["stills"] += 1
    pieces = {int(sq): tuple(v) for sq, v in still["pieces"].items()}
    sep = {int(sq): v for sq, v in still["separation"].items()}
    for sq, (white, king) in pieces.items():
        if king:
            totals["kings"] += 1
            totals["kings_tellable"] += sep[sq] >= TELLABLE_PX
    if "error" in read:
        if verbose:
            print(f"  {still['file']}: {read['error']}", file=sys.stderr)
        return
    totals["boards_found"] += 1
    cells = Orientation.from_corner_46(still["corner_46"]).square_cells()
    grid = read["grid"]
    unsure = {tuple(c[:2]) for c in read["unsure_kings"]}
    best = None
    for light_is_white in (True, False):
        wrong, loose, found, tellable_found, read_kings, right_kings, named = [], 0, 0, 0, 0, 0, 0
        tellable_seen = tellable_seen_found = 0
        for sq in range(1, 51):
            r, c = cells[sq - 1]
            ch = grid[r][c]
            t = pieces.get(sq)
            want = "." if t is None else ("w" if t[0] == light_is_white else "b")
            if t is not None and t[1]:
                want = want.upper()
                found += ch == want
                tellable_found += ch == want and sep[sq] >= TELLABLE_PX
                tellable_seen += ch.lower() == want.lower() and sep[sq] >= TELLABLE_PX
                tellable_seen_found += ch == want and sep[sq] >= TELLABLE_PX
                named += ch == want.lower() and (r, c) in unsure
            if ch.isupper():
                read_kings += 1
                right_kings += ch == want
            if ch != want:
                wrong.append((sq, want, ch, sep[sq]))
                loose += ch.lower() != want.lower()
        key = (len(wrong), found, right_kings)
        if best is None or key[0] < best[0][0]:
            best = (key, wrong, loose, found, tellable_found, read_kings, right_kings, named,
                    tellable_seen, tellable_seen_found)
    (_, wrong, loose, found, tellable_found, read_kings, right_kings, named, tellable_seen,
     tellable_seen_found) = best
    # light squares are empty in these stills; the grid's light cells count as cells too
    light_wrong = sum(1 for r in range(10) for c in range(10)
                      if (r, c) not in set(cells) and grid[r][c] != ".")
    totals["cells"] += 100
    totals["cells_wrong"] += len(wrong) + light_wrong
    totals["cells_wrong_ignoring_kings"] += loose + light_wrong
    totals["boards_all_right"] += not wrong and not light_wrong
    totals["kings_found"] += found
    totals["kings_tellable_found"] += tellable_found
    totals["kings_read"] += read_kings
    totals["kings_read_right"] += right_kings
    totals["kings_named_unsure"] += named
    totals["kings_tellable_seen"] += tellable_seen
    totals["kings_tellable_seen_found"] += tellable_seen_found
    if verbose and (wrong or light_wrong):
        print(f"  {Path(still['file']).name} tilt {still['tilt']}: "
              + ", ".join(f"sq {sq} {w}->{g} ({s:.1f}px)" for sq, w, g, s in wrong)
              + (f", {light_wrong} light cell(s)" if light_wrong else ""), file=sys.stderr)


def run(which: str, n: int, seed: int, jobs: int, min_tilt: float, max_tilt: float,
        folder: Path, verbose: bool) -> dict:
    t0 = time.time()
    listing = folder / f"{which}.jsonl"
    work = [(which, seed, i, min_tilt, max_tilt, str(folder)) for i in range(n)]
    kept = [json.loads(x) for x in listing.read_text().splitlines()] if listing.is_file() else []
    if len(kept) == n and all(Path(s["file"]).is_file() for s in kept):
        stills = kept  # the stills of an earlier run with the same --keep folder
    elif jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            stills = list(pool.map(_render_one, work, chunksize=4))
    else:
        stills = [_render_one(w) for w in work]
    print(f"{which}: {n} stills ready in {time.time() - t0:.0f} s", file=sys.stderr)
    listing.write_text("".join(json.dumps(s) + "\n" for s in stills))
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-m", "bench.stills", "--read-listing", str(listing)],
                          capture_output=True, text=True, cwd=root)
    if proc.returncode != 0:
        raise SystemExit(f"the reading child failed: {proc.stderr.strip()[-2000:]}")
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    reads, peak = lines[:-1], lines[-1]["peak_mb"]
    totals = dict(stills=0, boards_found=0, boards_all_right=0, cells=0, cells_wrong=0,
                  cells_wrong_ignoring_kings=0, kings=0, kings_tellable=0, kings_found=0,
                  kings_tellable_found=0, kings_read=0, kings_read_right=0, kings_named_unsure=0,
                  kings_tellable_seen=0, kings_tellable_seen_found=0)
    for still, read in zip(stills, reads):
        score(still, read, totals, verbose)
    times = [r["read_s"] for r in reads]
    cells = max(1, totals["cells"])
    out = {
        "renderer": which, "stills": totals["stills"], "boards_found": totals["boards_found"],
        "boards_all_right": totals["boards_all_right"],
        "cells_right": round(1 - totals["cells_wrong"] / cells, 5),
        "cells_right_ignoring_kings": round(1 - totals["cells_wrong_ignoring_kings"] / cells, 5),
        "kings": totals["kings"], "kings_tellable": totals["kings_tellable"],
        "king_recall": round(totals["kings_found"] / max(1, totals["kings"]), 4),
        "king_recall_tellable": round(totals["kings_tellable_found"]
                                      / max(1, totals["kings_tellable"]), 4),
        "kings_tellable_seen": totals["kings_tellable_seen"],
        "king_recall_tellable_seen": round(totals["kings_tellable_seen_found"]
                                           / max(1, totals["kings_tellable_seen"]), 4),
        "kings_read": totals["kings_read"],
        "king_precision": round(totals["kings_read_right"] / max(1, totals["kings_read"]), 4),
        "kings_named_unsure": totals["kings_named_unsure"],
        "s_per_photo": round(float(np.mean(times)), 3) if times else None,
        "s_per_photo_max": round(float(np.max(times)), 3) if times else None,
        "peak_mb": peak, "seconds": round(time.time() - t0, 1),
    }
    print(f"{which}: {json.dumps(out)}", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.stills")
    ap.add_argument("--renderer", choices=("home", "alt", "both"), default="home")
    ap.add_argument("-n", type=int, default=400, help="stills per renderer (default 400)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2, help="rendering processes (default 2)")
    ap.add_argument("--min-tilt", type=float, default=15.0)
    ap.add_argument("--max-tilt", type=float, default=45.0)
    ap.add_argument("--keep", help="keep the stills and their truth in this folder")
    ap.add_argument("--verbose", action="store_true", help="every wrong cell on stderr")
    ap.add_argument("--read-listing", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.read_listing:
        read_files(Path(args.read_listing))
        return
    which = ("home", "alt") if args.renderer == "both" else (args.renderer,)
    with tempfile.TemporaryDirectory(prefix="stills-") as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        results = [run(w, args.n, args.seed, args.jobs, args.min_tilt, args.max_tilt, folder,
                       args.verbose) for w in which]
    json.dump({"results": results, "machine": {"cpus": os.cpu_count()}}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
