"""Perft for one peer draughts library, run inside that peer's own virtualenv.

Usage: ``python -I bench/peer_perft.py ENGINE FEN DEPTH [DEPTH ...]``

ENGINE is ``py-draughts`` or ``pydraughts`` (both import as ``draughts``, which
is why each lives in its own venv). For each depth one JSON object is printed
on its own stdout line::

    {"engine": ..., "version": ..., "fen": ..., "depth": 5, "leaves": 21345, "seconds": 0.15}

``seconds`` covers the perft call only: imports, board set-up and process
start are excluded.

The perft is the same for both libraries: make/unmake recursion through the
library's public API (legal moves, ``push``, ``pop``) with bulk counting at the
last ply (``len(legal moves)``), i.e. the same scheme as the product's perft.
Neither library ships a Frisian perft of its own. A capture that can be played
along two paths is a separate move in both libraries, so it is counted twice.

This file uses the standard library only and must not import anything from
the project: it runs under ``python -I`` with the peer venv's interpreter.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from importlib import import_module
from importlib.metadata import version
from typing import Any

ENGINES: dict[str, str] = {"py-draughts": "py-draughts", "pydraughts": "pydraughts"}
_RANGE = re.compile(r"^(K?)(\d+)-(\d+)$")


def expand_fen(fen: str) -> str:
    """Expand square ranges (``W:W31-50:B1-20`` -> ``W:W31,32,...``)."""
    fields = fen.strip().split(":")
    out = [fields[0]]
    for field in fields[1:]:
        if not field or field[0] not in "WB":
            out.append(field)
            continue
        squares: list[str] = []
        for token in filter(None, field[1:].split(",")):
            match = _RANGE.match(token)
            if match is None:
                squares.append(token)
                continue
            king, first, last = match.group(1), int(match.group(2)), int(match.group(3))
            squares.extend(f"{king}{sq}" for sq in range(first, last + 1))
        out.append(field[0] + ",".join(squares))
    return ":".join(out)


def _perft_fast(fen: str) -> Callable[[int], int]:
    """py-draughts: ``FrisianBoard``; ``legal_moves`` is a property; push/pop."""
    board = import_module("draughts").FrisianBoard.from_fen(expand_fen(fen))

    def perft(depth: int) -> int:
        moves = board.legal_moves
        if depth <= 1:
            return len(moves) if depth == 1 else 1
        leaves = 0
        for move in moves:
            board.push(move)
            leaves += perft(depth - 1)
            board.pop()
        return leaves

    return perft


def _perft_slow(fen: str) -> Callable[[int], int]:
    """pydraughts: ``Board(variant="frisian", fen=...)``; ``legal_moves()``; push/pop."""
    board = import_module("draughts").Board(variant="frisian", fen=expand_fen(fen))

    def perft(depth: int) -> int:
        moves = board.legal_moves()
        if depth <= 1:
            return len(moves) if depth == 1 else 1
        leaves = 0
        for move in moves:
            board.push(move)
            leaves += perft(depth - 1)
            board.pop()
        return leaves

    return perft


_FACTORIES: dict[str, Callable[[str], Callable[[int], int]]] = {
    "py-draughts": _perft_fast,
    "pydraughts": _perft_slow,
}


def run(engine: str, fen: str, depth: int) -> dict[str, Any]:
    """Time one perft call on a freshly set-up board."""
    perft = _FACTORIES[engine](fen)
    start = time.perf_counter()
    leaves = perft(depth)
    seconds = time.perf_counter() - start
    return {
        "engine": engine,
        "version": version(ENGINES[engine]),
        "fen": fen,
        "depth": depth,
        "leaves": leaves,
        "seconds": seconds,
    }


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] not in _FACTORIES:
        print(f"usage: peer_perft.py {{{'|'.join(_FACTORIES)}}} FEN DEPTH [DEPTH ...]",
              file=sys.stderr)
        return 2
    engine, fen, depths = argv[0], argv[1], [int(d) for d in argv[2:]]
    for depth in depths:
        print(json.dumps(run(engine, fen, depth)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
