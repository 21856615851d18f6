"""Arbiter benchmark: settled observations per second through `rules.arbiter.Arbiter`.

Run from the repository root::

    python -m bench.arbiter               # all 77 games of tests/data, 3 rounds
    python -m bench.arbiter --rounds 5
    python -m bench.arbiter --recovery    # what recovery by legal play costs (below; minutes)
    python -m bench.arbiter --recovery --depths 10,12 --step 40   # the deeper search's reach

Every game of tests/data (15 lidraughts games, 62 engine games) is turned into settled
observations, one per move, as a camera would give them:

- ``clean``: every square read at 0.99;
- ``noisy``: as clean, plus three random squares per board read at 0.6; when that leaves the
  arbiter in doubt (it answers LookAgain), the clean board follows as the next observation;
- ``irregular``: as clean, plus before every third move an irregular board (a man moved
  backwards) and the board put back: three observations for that move.

With ``--recovery`` it measures instead what one board costs that no single move explains, the
search of `Arbiter._recover` looking up to 4, 6 and 8 plies ahead (``RECOVERY_PLIES``;
``--depths`` others: `rules.recovery.DEEP_PLIES` is 12), with no work cap (``RECOVERY_WORK`` lifted): from every ``--step``-th position of every game,

- ``fits``: the board that many plies on, read clearly (the search stops at the first depth
  that explains it);
- ``misread``: the same board with one piece lost under a glare (most often nothing fits, and
  every depth is searched in vain: the costliest kind of board);
- the two costliest boards of tests/test_arbiter_recovery.py (four plies on, three changed
  squares read unsure), once as they are and once with a man no line puts there.

Per depth and kind: boards, mean, 99th percentile and largest time in ms, the largest work (in
`rules.lines.Budget` units) and how many boards would spend more than ``RECOVERY_WORK``,
``STALL_WORK`` and ``DEEP_WORK``, the time per unit (beyond ``STALL_PLIES`` the search stops at twice
``DEEP_WORK``: uncapped, a board that nothing fits twelve plies on may take minutes), and the costliest positions.

The peer run in the same process is the plain rules replay of the same games (`Game.push` of the
known moves), which is what recording a game costs without looking at any board; the ratio shows
what judging boards costs on top.  Best of the rounds.  Progress goes to stderr; stdout gets one
JSON line.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

from rules.arbiter import Arbiter
from rules.events import LookAgain
from rules.game import Game
from rules.observation import Observation, Settled, SquareReading
from rules.pdn import read_file
from rules.squares import DIAGONALS, neighbour

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def load_games() -> list[Game]:
    games = []
    for name in ("lidraughts-frisian.pdn", "selfplay.pdn"):
        games.extend(r.game for r in read_file(str(DATA / name)) if r.problem is None)
    return games


def observations(game: Game, mode: str, rng: random.Random) -> list[tuple[Settled, Settled | None]]:
    """Per move: the observation(s), each with the second look to give if it is unclear."""
    out = []
    for i, (move, after) in enumerate(zip(game.moves, game.positions[1:])):
        before = game.positions[i]
        if mode == "irregular" and i % 3 == 0:
            board = before.pieces()
            back = [(f, t) for f, p in board.items() if p.color is before.turn and not p.king
                    for d in (DIAGONALS[2:] if p.color.is_white else DIAGONALS[:2])
                    if (t := neighbour(f, d)) is not None and t not in board]
            if back:
                f, t = rng.choice(back)
                wrong = dict(board)
                wrong[t] = wrong.pop(f)
                out.append((Settled(Observation.from_board(wrong, 0.99), ()), None))
                out.append((Settled(Observation.from_board(board, 0.99), ()), None))
        clean = Observation.from_board(after.pieces(), 0.99, float(i))
        lifted = (move.from_square,) + move.captured
        if mode == "noisy":
            squares = rng.sample(range(1, 51), 3)
            obs = clean.with_readings({sq: SquareReading(clean.reading(sq).content, 0.6) for sq in squares})
            out.append((Settled(obs, lifted, float(i)), Settled(clean, lifted, float(i))))
        else:
            out.append((Settled(clean, lifted, float(i)), None))
    return out


def run_arbiter(games: list[Game], streams: list[list[tuple[Settled, Settled | None]]]) -> tuple[float, int, int]:
    count = moves = 0
    t0 = time.perf_counter()
    for game, stream in zip(games, streams):
        arb = Arbiter(Game(start=game.start))
        for settled, second_look in stream:
            events = arb.observe(settled)
            count += 1
            if second_look is not None and any(isinstance(e, LookAgain) for e in events):
                arb.observe(second_look)
                count += 1
        moves += arb.game.ply
    return time.perf_counter() - t0, count, moves


def run_replay(games: list[Game]) -> tuple[float, int]:
    t0 = time.perf_counter()
    n = 0
    for game in games:
        g = Game(start=game.start)
        for move in game.moves:
            g.push(move)
            n += 1
    return time.perf_counter() - t0, n


def recovery_costs(games: list[Game], step: int, depths: tuple[int, ...]) -> dict:
    """The time `Arbiter.observe` takes on boards several plies on (see the module docstring)."""
    from rules import recovery as recovery_module
    from tests.test_arbiter_recovery import ENDGAME, WORST, worst_case

    cap, stall_cap = recovery_module.RECOVERY_WORK, recovery_module.STALL_WORK
    deep_cap = recovery_module.DEEP_WORK
    depth_before = recovery_module.RECOVERY_PLIES
    rng = random.Random(1)
    out: dict = {"step": step, "recovery_work": cap, "stall_work": stall_cap, "deep_work": deep_cap}
    budgets: list = []
    counted = recovery_module.Budget

    class Recorded(counted):
        __slots__ = ()

        def __init__(self, work: int) -> None:
            super().__init__(work)
            budgets.append(self)

    def judged(arb: Arbiter, seen: Settled) -> tuple[float, int]:
        budgets.clear()
        t = time.perf_counter()
        arb.observe(seen)
        return time.perf_counter() - t, sum(b.spent for b in budgets)

    recovery_module.Budget = Recorded
    try:
        for depth in depths:
            recovery_module.RECOVERY_PLIES = depth
            # beyond `STALL_PLIES` a board that nothing fits may take minutes uncapped: there the
            # cap is twice `DEEP_WORK`, and a board that reaches it counts as over the deep cap
            recovery_module.RECOVERY_WORK = recovery_module.STALL_WORK = (
                10 ** 12 if depth <= recovery_module.STALL_PLIES else 2 * deep_cap)
            times: dict[str, list[tuple[float, int, str]]] = {"fits": [], "misread": [], "worst": []}
            for gi, game in enumerate(games):
                for p in range(0, game.ply - depth + 1, step):
                    after = game.positions[p + depth].pieces()
                    lost = dict(after)
                    del lost[rng.choice(sorted(lost))]
                    for kind, board in (("fits", after), ("misread", lost)):
                        arb = Arbiter(Game(start=game.start))
                        for move, position in zip(game.moves[:p], game.positions[1:p + 1]):
                            arb.game.push(move, position)
                        took, work = judged(arb, Settled(Observation.from_board(board, 0.99)))
                        times[kind].append((took, work, f"game {gi + 1} ply {p}"))
            for name, case in (("middle game", WORST), ("king endgame", ENDGAME)):
                for fits in (True, False):
                    arb, _, seen = worst_case(case, fits)
                    took, work = judged(arb, seen)
                    times["worst"].append((took, work, f"{name}, {'a line fits' if fits else 'no line fits'}"))
            for kind, found in times.items():
                found.sort(reverse=True)
                ms = [1000 * t for t, _, _ in found]
                works = [w for _, w, _ in found]
                out[f"{kind}_{depth}"] = {
                    "boards": len(ms),
                    "mean_ms": round(sum(ms) / len(ms), 2),
                    "p99_ms": round(ms[len(ms) // 100], 1),
                    "max_ms": round(ms[0], 1),
                    "max_work": max(works),
                    "over_cap": sum(1 for w in works if w > cap),
                    "over_stall_cap": sum(1 for w in works if w > stall_cap),
                    "over_deep_cap": sum(1 for w in works if w > deep_cap),
                    "us_per_unit": round(1e6 * sum(t for t, _, _ in found) / max(1, sum(works)), 2),
                    "costliest": [f"{where} ({1000 * t:.0f} ms, {w} units)" for t, w, where in found[:3]],
                }
                print(f"{depth} plies, {kind}: {out[f'{kind}_{depth}']}", file=sys.stderr)
    finally:
        recovery_module.RECOVERY_WORK, recovery_module.STALL_WORK = cap, stall_cap
        recovery_module.RECOVERY_PLIES = depth_before
        recovery_module.Budget = counted
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.arbiter", description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--recovery", action="store_true",
                    help="measure recovery by legal play at 4, 6 and 8 plies (--depths) instead")
    ap.add_argument("--step", type=int, default=5, help="with --recovery: every STEP-th position")
    ap.add_argument("--depths", default="4,6,8",
                    help="with --recovery: the plies on to measure, e.g. 10,12 (`DEEP_PLIES`)")
    args = ap.parse_args(argv)
    if args.recovery:
        try:
            depths = tuple(int(d) for d in args.depths.split(","))
        except ValueError:
            ap.error(f"--depths: plies as numbers with commas, e.g. 4,6,8 (not {args.depths!r})")
        result = {"bench": "arbiter-recovery", "python": platform.python_version(),
                  "machine": platform.machine()}
        result.update(recovery_costs(load_games(), args.step, depths))
        print(json.dumps(result))
        return 0
    games = load_games()
    expected = sum(len(g.moves) for g in games)
    rng = random.Random(1)
    streams = {mode: [observations(g, mode, rng) for g in games] for mode in ("clean", "noisy", "irregular")}
    best: dict[str, float] = {}
    counts: dict[str, int] = {}
    for r in range(args.rounds):
        for mode, stream in streams.items():
            seconds, count, moves = run_arbiter(games, stream)
            if moves != expected:
                print(f"bench.arbiter: {mode}: recorded {moves} moves, expected {expected}", file=sys.stderr)
                return 1
            best[mode] = min(best.get(mode, float("inf")), seconds)
            counts[mode] = count
        seconds, n = run_replay(games)
        best["replay"] = min(best.get("replay", float("inf")), seconds)
        print(f"round {r + 1}/{args.rounds}: " + ", ".join(f"{k} {v:.2f}s" for k, v in best.items()),
              file=sys.stderr)
    result = {
        "bench": "arbiter",
        "games": len(games),
        "moves": expected,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    for mode in ("clean", "noisy", "irregular"):
        result[f"{mode}_observations"] = counts[mode]
        result[f"{mode}_obs_per_s"] = round(counts[mode] / best[mode], 1)
        result[f"{mode}_ms_per_obs"] = round(1000 * best[mode] / counts[mode], 3)
    result["replay_moves_per_s"] = round(expected / best["replay"], 1)
    result["clean_vs_replay"] = round((counts["clean"] / best["clean"]) / (expected / best["replay"]), 3)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
