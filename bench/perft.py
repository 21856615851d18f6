"""Frisian draughts perft benchmark: our rules core against two peer libraries.

Run from the repository root::

    python -m bench.perft                      # all positions, default depths
    python -m bench.perft --positions start --depths 6 7 --rounds 3
    python -m bench.perft --positions kings --skip-slow

Engines
    ours         ``rules.perft.perft(Position.from_fen(fen), depth)``, in this process.
    py-draughts  PyPI ``py-draughts`` in ``.bench-venvs/pydraughts-fast``, child process.
    pydraughts   PyPI ``pydraughts`` in ``.bench-venvs/pydraughts``, child process.
                 Very slow: run at most at its depth cap (per position, or
                 ``--slow-max-depth``); its leaves/s is then compared across depths.

For every position and depth the engines alternate within each round (ours,
py-draughts, pydraughts; then again), the best time per engine is kept, and
the ratio reported is ours leaves/s divided by the peer's (> 1: ours faster).
Times cover the perft call only. A short check phase first runs every engine
at depths 1..--check-depth and compares against the known counts.

Progress and tables go to stderr; stdout gets exactly one JSON line at the end.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from bench.peers import PEERS, Peer, PeerError, ensure_venv, run_peer

START_FEN = "W:W31-50:B1-20"
OURS = "ours"


@dataclass(frozen=True)
class BenchPosition:
    name: str
    fen: str
    depths: tuple[int, ...]
    slow_depth: int
    about: str


# Depths aim at roughly 0.5-10 s per perft call; slow_depth caps pydraughts
# (about 850-5000 leaves/s here) at a few seconds to ~25 s per call.
POSITIONS: tuple[BenchPosition, ...] = (
    BenchPosition("start", START_FEN, (6, 7), 5, "initial position"),
    BenchPosition("kings-2v1", "W:WK28,K46:BK43", (6,), 4, "two kings vs one king"),
    BenchPosition("man-king-v-king", "W:W28,K46:BK43", (8,), 5, "man and king vs king"),
    BenchPosition("king-v-ten", "W:WK30:BK9,19,21,K22,K26,29,37,38,K46,K47", (7,), 5,
                  "lone king, long multi-captures"),
    BenchPosition("kings-mixed",
                  "W:WK1,K3,K4,K6,10,K21,39:B2,7,K13,17,K27,34,40,43,44,45,K47,K50", (7,), 4,
                  "many kings and men on both sides"),
)
GROUPS: dict[str, tuple[str, ...]] = {
    "all": tuple(p.name for p in POSITIONS),
    "kings": tuple(p.name for p in POSITIONS if p.name != "start"),
}

# Leaves by depth (index 0 = depth 1). Ours counts a capture once however many
# paths reach it; both peers count every path, hence the different numbers.
EXPECTED_OURS: dict[str, tuple[int, ...]] = {
    START_FEN: (9, 81, 658, 3874, 21265, 102431, 540126),
}
EXPECTED_PEERS: dict[str, tuple[int, ...]] = {
    START_FEN: (9, 81, 658, 3880, 21345, 103584, 550314),
}


@dataclass(frozen=True)
class Run:
    leaves: int
    seconds: float


class Engine(Protocol):
    name: str
    slow: bool

    def measure(self, fen: str, depths: list[int]) -> list[Run]: ...


class OursEngine:
    """Our rules core, timed in this process."""

    name = OURS
    slow = False

    def __init__(self, from_fen: Callable[[str], Any], perft: Callable[[Any, int], int]):
        self._from_fen = from_fen
        self._perft = perft

    def measure(self, fen: str, depths: list[int]) -> list[Run]:
        runs = []
        for depth in depths:
            position = self._from_fen(fen)
            start = time.perf_counter()
            leaves = self._perft(position, depth)
            runs.append(Run(int(leaves), time.perf_counter() - start))
        return runs


class PeerEngine:
    """A peer library, timed inside a child process running its venv's python."""

    def __init__(self, peer: Peer, timeout: float):
        self.peer = peer
        self.name = peer.name
        self.slow = peer.slow
        self._timeout = timeout

    def measure(self, fen: str, depths: list[int]) -> list[Run]:
        return [Run(r.leaves, r.seconds) for r in run_peer(self.peer, fen, depths, self._timeout)]


@dataclass
class Report:
    """Everything that ends up in the JSON line."""

    engines: dict[str, dict[str, Any]] = field(default_factory=dict)
    checks: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def log(message: str = "") -> None:
    print(message, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- set-up


def load_ours(report: Report) -> OursEngine | None:
    """Import our rules core; on ImportError say so and go on with the peers alone."""
    try:
        from rules import Position
        from rules.perft import perft
    except ImportError as exc:
        message = (f"our rules core is not importable ({type(exc).__name__}: {exc}); "
                   "benchmarking the peers only (run from the repository root once "
                   "rules/ provides Position.from_fen and rules.perft.perft)")
        log(f"[bench] {message}")
        report.engines[OURS] = {"available": False, "error": message}
        report.notes.append(message)
        return None
    report.engines[OURS] = {"available": True, "python": sys.executable}
    return OursEngine(Position.from_fen, perft)


def load_peer(peer: Peer, timeout: float, report: Report) -> PeerEngine | None:
    try:
        version = ensure_venv(peer)
    except (PeerError, OSError) as exc:
        message = f"{peer.name}: venv set-up failed: {exc}"
        log(f"[bench] {message}")
        report.engines[peer.name] = {"available": False, "error": message}
        report.errors.append(message)
        return None
    report.engines[peer.name] = {"available": True, "version": version,
                                 "python": str(peer.python), "slow": peer.slow}
    return PeerEngine(peer, timeout)


def load_engines(names: list[str], timeout: float, report: Report) -> list[Engine]:
    engines: list[Engine] = []
    for name in names:
        engine: Engine | None
        if name == OURS:
            engine = load_ours(report)
        else:
            engine = load_peer(next(p for p in PEERS if p.name == name), timeout, report)
        if engine is not None:
            engines.append(engine)
    return engines


# --------------------------------------------------------------------------- checks


def add_unique(lines: list[str], line: str) -> None:
    if line not in lines:
        lines.append(line)


def expected_leaves(engine: str, fen: str, depth: int) -> int | None:
    table = (EXPECTED_OURS if engine == OURS else EXPECTED_PEERS).get(fen)
    return table[depth - 1] if table and 1 <= depth <= len(table) else None


def check_count(engine: str, position: BenchPosition, depth: int, leaves: int,
                report: Report) -> bool | None:
    """Compare against the known count; record a mismatch. None: nothing known."""
    expected = expected_leaves(engine, position.fen, depth)
    if expected is None:
        return None
    if leaves != expected:
        add_unique(report.mismatches,
                   f"{engine} {position.name} depth {depth}: {leaves} leaves, expected {expected}")
    return leaves == expected


def safe_measure(engine: Engine, fen: str, depths: list[int], report: Report) -> list[Run] | None:
    """Measure, turning an engine failure into a recorded error."""
    try:
        return engine.measure(fen, depths)
    except Exception as exc:  # any engine failure is reported, not fatal
        message = f"{engine.name} failed on {fen} depths {depths}: {type(exc).__name__}: {exc}"
        log(f"[bench] {message}")
        report.errors.append(message)
        return None


def check_position(engines: list[Engine], position: BenchPosition, max_depth: int,
                   report: Report) -> None:
    """Run depths 1..max_depth on every engine; check known counts, compare the peers."""
    depths = list(range(1, max_depth + 1))
    counts: dict[str, list[int]] = {}
    for engine in engines:
        runs = safe_measure(engine, position.fen, depths, report)
        if runs is None:
            continue
        counts[engine.name] = [r.leaves for r in runs]
        for depth, run in zip(depths, runs, strict=True):
            ok = check_count(engine.name, position, depth, run.leaves, report)
            report.checks.append({"position": position.name, "engine": engine.name,
                                  "depth": depth, "leaves": run.leaves,
                                  "expected": expected_leaves(engine.name, position.fen, depth),
                                  "ok": ok})
    print_check_table(position, depths, counts)
    for i, depth in enumerate(depths):
        compare_peers(position, depth, {name: c[i] for name, c in counts.items()}, report)


def compare_peers(position: BenchPosition, depth: int, leaves: dict[str, int],
                  report: Report) -> None:
    """Note it when the peers' counts at the same depth differ (ours may differ by design)."""
    peers = [name for name in leaves if name != OURS]
    for a, b in itertools.pairwise(peers):
        if leaves[a] != leaves[b]:
            add_unique(report.notes, f"peers disagree on {position.name} depth {depth}: "
                                     f"{a} {leaves[a]}, {b} {leaves[b]}")


def print_check_table(position: BenchPosition, depths: list[int],
                      counts: dict[str, list[int]]) -> None:
    log(f"  check phase, depths 1..{depths[-1]}:")
    for i, depth in enumerate(depths):
        row = "  ".join(f"{name} {leaves[i]}" for name, leaves in counts.items())
        ours = expected_leaves(OURS, position.fen, depth)
        peers = expected_leaves("peer", position.fen, depth)
        known = f"   (expected: ours {ours}, peers {peers})" if ours is not None else ""
        log(f"    depth {depth}: {row}{known}")


# --------------------------------------------------------------------------- timing


@dataclass
class Cell:
    """The runs of one engine at one (effective) depth of one position."""

    depth: int
    runs: list[Run] = field(default_factory=list)


def effective_depth(engine: Engine, position: BenchPosition, depth: int,
                    slow_cap: int | None) -> int:
    if not engine.slow:
        return depth
    return min(depth, slow_cap if slow_cap is not None else position.slow_depth)


def time_depth(engines: list[Engine], position: BenchPosition, depth: int, rounds: int,
               slow_cap: int | None, cache: dict[tuple[str, int], Cell],
               report: Report) -> dict[str, Cell]:
    """Alternate the engines for `rounds` rounds; a capped peer's cell is shared across depths."""
    cells: dict[str, Cell] = {}
    for round_no in range(1, rounds + 1):
        for engine in engines:
            eff = effective_depth(engine, position, depth, slow_cap)
            cell = cache.setdefault((engine.name, eff), Cell(eff))
            cells[engine.name] = cell
            if len(cell.runs) >= round_no:
                continue  # already timed at this depth (capped peer)
            runs = safe_measure(engine, position.fen, [eff], report)
            if runs is None:
                continue
            cell.runs.append(runs[0])
            capped = " (capped)" if eff != depth else ""
            log(f"    round {round_no}: {engine.name:<12} depth {eff}{capped}: "
                f"{runs[0].leaves} leaves in {runs[0].seconds:.3f}s")
    return {name: cell for name, cell in cells.items() if cell.runs}


def summarize(engine: str, cell: Cell, position: BenchPosition, report: Report) -> dict[str, Any]:
    leaves = {r.leaves for r in cell.runs}
    if len(leaves) > 1:
        add_unique(report.mismatches, f"{engine} {position.name} depth {cell.depth}: "
                                      f"leaf count varies across rounds {sorted(leaves)}")
    best = min(r.seconds for r in cell.runs)
    leaf_count = cell.runs[0].leaves
    return {"depth": cell.depth, "leaves": leaf_count, "seconds": best,
            "times": [r.seconds for r in cell.runs],
            "leaves_per_s": leaf_count / best if best > 0 else None}


def ratios(summary: dict[str, dict[str, Any]]) -> dict[str, float | None]:
    """Ours leaves/s over each peer's leaves/s (> 1: ours faster)."""
    ours = summary.get(OURS, {}).get("leaves_per_s")
    out: dict[str, float | None] = {}
    for name, entry in summary.items():
        if name != OURS:
            peer = entry.get("leaves_per_s")
            out[name] = ours / peer if ours and peer else None
    return out


def print_summary(position: BenchPosition, depth: int, summary: dict[str, dict[str, Any]],
                  ratio: dict[str, float | None]) -> None:
    log(f"  {position.name} depth {depth} best of rounds:")
    log(f"    {'engine':<12} {'depth':>5} {'leaves':>10} {'seconds':>9} {'leaves/s':>10}"
        f"  {'ours/peer (leaves/s)':>20}")
    for name, entry in summary.items():
        mark = "*" if entry["depth"] != depth else " "
        r = ratio.get(name)
        shown = f"{r:.2f}x" if r is not None else "-"
        lps = f"{entry['leaves_per_s']:.0f}" if entry["leaves_per_s"] is not None else "-"
        log(f"    {name:<12} {entry['depth']:>4}{mark} {entry['leaves']:>10} "
            f"{entry['seconds']:>9.3f} {lps:>10}  {shown:>20}")
    if any(e["depth"] != depth for e in summary.values()):
        log("    * capped depth: only leaves/s is comparable")


def bench_position(engines: list[Engine], position: BenchPosition, depths: tuple[int, ...],
                   args: argparse.Namespace, report: Report) -> None:
    log(f"\n== {position.name}: {position.fen} ({position.about})")
    if args.check_depth > 0:
        check_position(engines, position, args.check_depth, report)
    cache: dict[tuple[str, int], Cell] = {}
    for depth in depths:
        log(f"  timing depth {depth}, {args.rounds} round(s)")
        cells = time_depth(engines, position, depth, args.rounds, args.slow_max_depth,
                           cache, report)
        summary = {name: summarize(name, cell, position, report) for name, cell in cells.items()}
        for name, entry in summary.items():
            check_count(name, position, entry["depth"], entry["leaves"], report)
        same_depth = {n: e["leaves"] for n, e in summary.items() if e["depth"] == depth}
        compare_peers(position, depth, same_depth, report)
        ratio = ratios(summary)
        print_summary(position, depth, summary, ratio)
        report.results.append({"position": position.name, "fen": position.fen, "depth": depth,
                               "engines": summary, "ratio_ours_per_peer": ratio})


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.perft",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", default="all",
                        help="comma list of position names or groups "
                             f"({', '.join([*GROUPS, *(p.name for p in POSITIONS)])})")
    parser.add_argument("--depths", type=int, nargs="+",
                        help="depths for every selected position (default: per position)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per depth (default 2)")
    parser.add_argument("--engines", default=",".join([OURS, *(p.name for p in PEERS)]),
                        help="comma list of engines (default: all)")
    parser.add_argument("--skip-slow", action="store_true", help="leave out pydraughts")
    parser.add_argument("--slow-max-depth", type=int,
                        help="depth cap for pydraughts (default: per position, 4-5)")
    parser.add_argument("--check-depth", type=int, default=3,
                        help="check phase depths 1..N on every engine (0: skip; default 3)")
    parser.add_argument("--timeout", type=float, default=1800.0,
                        help="seconds allowed per peer child process (default 1800)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 if any leaf count mismatches a known value")
    parser.add_argument("--list", action="store_true", help="list the positions and exit")
    return parser.parse_args(argv)


def select_positions(spec: str) -> list[BenchPosition]:
    by_name = {p.name: p for p in POSITIONS}
    names: list[str] = []
    for token in filter(None, (t.strip() for t in spec.split(","))):
        if token not in GROUPS and token not in by_name:
            raise SystemExit(f"unknown position {token!r}; known: "
                             f"{', '.join([*GROUPS, *by_name])}")
        names.extend(n for n in GROUPS.get(token, (token,)) if n not in names)
    return [by_name[n] for n in names]


def select_engines(args: argparse.Namespace) -> list[str]:
    known = [OURS, *(p.name for p in PEERS)]
    names = [n.strip() for n in args.engines.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown engine(s) {unknown}; known: {', '.join(known)}")
    if args.skip_slow:
        names = [n for n in names if not any(p.name == n and p.slow for p in PEERS)]
    return [n for n in known if n in names]  # fixed alternation order: ours first


def machine_info() -> dict[str, Any]:
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "platform": platform.platform(), "cpus": os.cpu_count(),
            "utc": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    positions = select_positions(args.positions)
    if args.list:
        for p in POSITIONS:
            log(f"{p.name:<16} depths {list(p.depths)} pydraughts cap {p.slow_depth}  {p.fen}")
        return 0
    report = Report()
    engines = load_engines(select_engines(args), args.timeout, report)
    if any(e.slow for e in engines):
        per_position = ", ".join(f"{p.name} {p.slow_depth}" for p in positions)
        cap = (str(args.slow_max_depth) if args.slow_max_depth is not None
               else f"per position ({per_position})")
        report.notes.append(f"pydraughts depth capped at {cap}; above it only leaves/s compares")
        log(f"[bench] pydraughts is slow: its depth is capped at {cap}")
    started = time.perf_counter()
    for position in positions:
        bench_position(engines, position, tuple(args.depths or position.depths), args, report)
    log(f"\n[bench] done in {time.perf_counter() - started:.1f}s")
    for kind, lines in (("MISMATCH", report.mismatches), ("note", report.notes),
                        ("error", report.errors)):
        for line in lines:
            log(f"[bench] {kind}: {line}")
    print(json.dumps({"benchmark": "frisian-perft", "machine": machine_info(),
                      "rounds": args.rounds,
                      "ratio_definition": "ours leaves/s / peer leaves/s (>1: ours faster)",
                      "perft_method": "make/unmake, bulk count at the last ply",
                      **asdict(report)}))
    return 1 if args.strict and report.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
