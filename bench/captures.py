"""Capture benchmark: the extreme captures of tests/data/extreme-captures.json, time and memory.

Run from the repository root::

    python -m bench.captures                    # this checkout only
    python -m bench.captures --against 8e21260  # and an older commit, in a temporary worktree

Each position's legal moves are worked out in a fresh child process (`python -c`, with the
checkout first on ``sys.path``), which reports the time of the `legal_moves()` call and its own
peak resident memory (``VmHWM``, the interpreter included).  With ``--against REF`` the same
is done in a temporary ``git worktree`` of REF, removed afterwards, and the move lists of both
are compared.  Progress goes to stderr; stdout gets one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "extreme-captures.json"

_CHILD = """
import json, resource, sys, time
from rules import Position
def peak_kb():
    # VmHWM: the peak since exec; ru_maxrss keeps the peak of the process that forked us
    try:
        return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
position = Position.from_fen(sys.argv[1])
t = time.perf_counter()
moves = position.legal_moves()
seconds = time.perf_counter() - t
print(json.dumps({"seconds": round(seconds, 3),
                  "peak_mb": peak_kb() // 1024,
                  "moves": sorted([m.from_square, m.to_square, sorted(m.captured)] for m in moves)}))
"""


def measure(checkout: Path, fen: str, timeout: float) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    try:
        r = subprocess.run([sys.executable, "-c", _CHILD, fen], cwd=checkout, env=env,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:g} s"}
    if r.returncode != 0:
        return {"error": (r.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(r.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REF", help="also time this git commit (a temporary worktree)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per position and checkout")
    args = parser.parse_args(argv)
    positions = json.loads(DATA.read_text())["positions"]
    checkouts = {"this": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        if args.against:
            old = Path(tmp) / "against"
            subprocess.run(["git", "worktree", "add", "--detach", str(old), args.against], cwd=ROOT,
                           check=True, capture_output=True)
            checkouts[args.against] = old
        try:
            results = []
            for case in positions:
                row = {"fen": case["fen"]}
                expected = sorted([m["from"], m["to"], m["captured"]] for m in case["moves"])
                for name, checkout in checkouts.items():
                    print(f"{name}: {case['fen']}", file=sys.stderr, flush=True)
                    got = measure(checkout, case["fen"], args.timeout)
                    moves = got.pop("moves", None)
                    got["same_moves_as_data"] = moves == expected if moves is not None else None
                    row[name] = got
                    print(f"  {got}", file=sys.stderr, flush=True)
                results.append(row)
        finally:
            if args.against:
                subprocess.run(["git", "worktree", "remove", "--force", str(checkouts[args.against])],
                               cwd=ROOT, capture_output=True)
    print(json.dumps({"bench": "captures", "python": sys.version.split()[0], "positions": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
