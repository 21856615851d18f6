"""One bench game, board by board: `python -m bench.trace NAME SEED`.

When `bench.system_accuracy` reports a game that lost track (``lidraughts-14 (seed 51024, 15
fps ...)``), this replays the same scene through the real companion and prints, for every board
the watcher settles, what the truth was at that moment (the ply, what the hand was doing) and
every square read otherwise than the truth shows, with the reading's confidence, then the events
the companion announced and the notes it logged (``note:``: the board found, moves caught up).
The first wrong square printed is usually the cause.

    python -m bench.trace lidraughts-14 51024                  # the seed's own frame rate
    python -m bench.trace selfplay-56 71002 --inject           # with the bench's irregular move
    python -m bench.trace lidraughts-2 81023 --from 55 --to 62 # a stretch of the game
    python -m bench.trace selfplay-50 31003 --other-world --show 23  # square 23 on each board

``SEED`` is the game's seed as the bench prints it; ``--fps`` overrides the frame rate drawn
from it; ``--inject`` plays the irregular move the bench injects in that game when run with
``--inject``; ``--max-plies`` cuts the game as the bench does (default 40).  A square is printed
as ``square:read/truth@confidence`` (``.`` empty, ``w b`` men, ``W B`` kings).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from pathlib import Path


def command(name: str, seed: int, max_plies: int, inject: bool = False, fps: float | None = None,
            other_world: bool = False) -> str:
    """The command that traces a bench's game as the bench ran it: its name, seed and cut, the
    irregular move only where the bench injected one (`bench.system_accuracy` injects it in the
    first ``--inject K`` games alone: selfplay-13 at seed 6868010 was traced with ``--inject``
    though the bench had not injected it there, and the bench's miss did not reproduce), and a
    frame rate only where the bench was given one."""
    parts = ["python -m bench.trace", name, str(seed), f"--max-plies {max_plies}"]
    if other_world:
        parts.append("--other-world")
    if inject:
        parts.append("--inject")
    if fps is not None:
        parts.append(f"--fps {fps:g}")
    return " ".join(parts)


def _symbol(piece) -> str:
    return "." if piece is None else piece.symbol()


def trace(name: str, seed: int, fps: float, max_plies: int, inject: bool, start: float,
          stop: float, out=sys.stdout, other_world: bool = False, frames: bool = False,
          show: tuple[int, ...] = ()) -> list[str]:
    """Replay the game; print the settled boards and events between ``start`` and ``stop``
    seconds; returns the moves recorded.  ``other_world``: the game as `bench.other_world`
    draws it (``seed`` its scene seed), not as `bench.system_accuracy` does.  ``frames``: also
    one line per frame with the watcher's motion measures (`_frame_line`).  ``show``: squares
    whose readings are printed on every board, read right or not (with the alternative)."""
    import cv2
    import numpy as np

    import vision.pipeline as pipeline
    from bench.system_accuracy import _SceneSource, _cut, _games, _inject
    from device.service import Companion
    from device.store import GameStore

    # one OpenCV thread, as the bench runs each game (`bench.system_accuracy.run_one`): with
    # more, a few reductions differ in their last bits, and a board on a threshold was taken in
    # passing by the bench and not by its trace (selfplay-13 at seed 6868010)
    cv2.setNumThreads(1)
    game = _cut(_games()[name], max_plies)
    injected = _inject(game, np.random.default_rng([seed, 0x1227])) if inject else None
    if other_world:
        from altrender.source import AltRenderedSource
        from bench.other_world import _TAIL_S
        source = AltRenderedSource(game, seed, fps, tail_s=_TAIL_S)
    else:
        source = _SceneSource(game, seed, fps, played=injected[0] if injected else None,
                              still_before=injected[1] if injected else None)
    source.open()
    if injected:
        print(f"injected: {injected[3]} at ply {injected[2]}", file=out)
    print(f"want: {' '.join(game.move_texts())}", file=out)
    settled: list = []
    watcher_settle = pipeline.BoardWatcher._settle
    watcher_offered = pipeline.BoardWatcher.offered

    def settle(self, frame, time, complete):  # what the watcher handed over, kept for printing
        result = watcher_settle(self, frame, time, complete)
        if result is not None:
            settled.append(result)
        return result

    def offered(self):  # a board seen in passing, taken or left by the game: kept too
        result = watcher_offered(self)
        if result is not None and all(result is not s for s in settled):
            settled.append(result)
        return result

    pipeline.BoardWatcher._settle = settle
    pipeline.BoardWatcher.offered = offered
    now = [0.0]

    class Notes(logging.Handler):  # what the companion says (board found, caught up, ...)
        def emit(self, record: logging.LogRecord) -> None:
            if now[0] >= start:
                print(f"{now[0]:7.2f}   note: {record.getMessage()}", file=out)

    notes, service_log = Notes(logging.INFO), logging.getLogger("device.service")
    level = service_log.level
    service_log.addHandler(notes)
    service_log.setLevel(logging.INFO)
    try:
        frame = source.read()
        with tempfile.TemporaryDirectory() as tmp:
            companion = Companion(source=source, store=GameStore(Path(tmp) / "games.sqlite3"),
                                  tags={"Event": "trace"}, corner_46=source.truth.corner_46,
                                  start=game.start)
            companion.open_game()
            while frame is not None and frame.time <= stop:
                now[0] = frame.time
                truth = source.truth
                events = companion.process(frame)
                shown = frame.time >= start
                if shown and frames:
                    print(_frame_line(frame.time, companion.watcher, truth, other_world), file=out)
                for s in settled:
                    if not shown:
                        continue
                    obs = s.observation
                    board = truth.board if other_world else truth.pieces
                    wrong = [f"{sq}:{_symbol(obs.reading(sq).content)}/"
                             f"{_symbol(board.get(sq))}@{obs.reading(sq).confidence:.2f}"
                             for sq in range(1, 51)
                             if obs.reading(sq).content != board.get(sq)]
                    shown_squares = [_reading(sq, obs.reading(sq)) for sq in show]
                    hand = truth.hand_over_board if other_world else truth.hand
                    kind = "passing " if s.provisional else "settled "
                    print(f"{frame.time:7.2f} {kind} truth ply {truth.ply} ({truth.phase}"
                          f"{', hand over the board' if hand else ''}); lifted "
                          f"{list(s.lifted)} placed {list(s.placed)}; read otherwise: "
                          f"{' '.join(wrong) or 'nothing'}"
                          f"{'; shown ' + ' '.join(shown_squares) if show else ''}", file=out)
                settled.clear()
                for e in events if shown else ():
                    if type(e).__name__ != "CountersChanged":
                        print(f"{frame.time:7.2f}   {type(e).__name__}: {e}", file=out)
                frame = source.read()
            got = companion.arbiter.game.move_texts()
            companion.close()
            companion.store.close()
    finally:
        pipeline.BoardWatcher._settle = watcher_settle
        pipeline.BoardWatcher.offered = watcher_offered
        service_log.removeHandler(notes)
        service_log.setLevel(level)
    print(f"got:  {' '.join(got)}", file=out)
    return got


def _reading(sq: int, reading) -> str:
    """``square:read@confidence`` and the alternative, when the reading has one."""
    text = f"{sq}:{_symbol(reading.content)}@{reading.confidence:.2f}"
    if reading.confidence >= 1.0 or isinstance(reading.alternative, str):
        return text
    return f"{text}(or {_symbol(reading.alternative)})"


def _frame_line(time: float, watcher, truth, other_world: bool) -> str:
    """One frame as the watcher measured it: motion (share of changed pixels), the ring's
    change, grid corners changed, a hand over the board / beside it near a change, the cells
    a hand covers, whether the frame counted as busy; and the truth (ply, phase, hand)."""
    hand = truth.hand_over_board if other_world else truth.hand
    s = watcher._sample if watcher is not None else None
    if s is None:
        return (f"{time:7.2f} frame    (not measured); truth ply {truth.ply} "
                f"({truth.phase}{', hand' if hand else ''})")
    hand_cells = int(s.hand_mask.sum()) if s.hand_mask is not None else 0
    flags = "".join(ch for ch, on in (("H", s.hand), ("b", s.beside), ("B", s.beside_change),
                                      ("I", watcher.hand_present)) if on)
    return (f"{time:7.2f} frame    motion {s.motion:.4f} ring {s.ring:.3f} corners "
            f"{s.corners_changed:2d} hand cells {hand_cells:2d} {flags or '-':4s} "
            f"busy {'yes' if watcher._episode else 'no '}; truth ply {truth.ply} "
            f"({truth.phase}{', hand' if hand else ''})")


def parser() -> argparse.ArgumentParser:
    """The command line of `main` (the one `command` writes)."""
    ap = argparse.ArgumentParser(prog="python -m bench.trace", description=__doc__.split("\n")[0])
    ap.add_argument("name", help="a game of the bench: lidraughts-1..15, selfplay-1..62")
    ap.add_argument("seed", type=int, help="the game's seed as the bench prints it")
    ap.add_argument("--fps", type=float, default=None)
    ap.add_argument("--other-world", action="store_true",
                    help="the game as bench.other_world draws it (SEED: its scene seed)")
    ap.add_argument("--inject", action="store_true")
    ap.add_argument("--max-plies", type=int, default=40)
    ap.add_argument("--from", dest="start", type=float, default=0.0, metavar="SECONDS")
    ap.add_argument("--frames", action="store_true",
                    help="one line per frame: the watcher's motion measures and the truth")
    ap.add_argument("--to", dest="stop", type=float, default=float("inf"), metavar="SECONDS")
    ap.add_argument("--show", default="", metavar="SQUARES",
                    help="squares whose readings are printed on every board (e.g. 23,28)")
    return ap


def main(argv: list[str] | None = None) -> None:
    from bench import other_world
    from bench.system_accuracy import _games, game_fps

    ap = parser()
    args = ap.parse_args(argv)
    try:
        show = tuple(int(sq) for sq in args.show.split(",") if sq.strip())
    except ValueError:
        ap.error(f"--show takes square numbers separated by commas, not {args.show!r}")
    if any(not 1 <= sq <= 50 for sq in show):
        ap.error("--show takes squares 1 to 50")
    if args.name not in _games():
        ap.error(f"no game {args.name}: names are lidraughts-1..15, selfplay-1..62")
    fps = args.fps or (other_world.game_fps(args.seed) if args.other_world else game_fps(args.seed))
    trace(args.name, args.seed, fps, args.max_plies, args.inject, args.start, args.stop,
          other_world=args.other_world, frames=args.frames, show=show)


if __name__ == "__main__":
    main()
