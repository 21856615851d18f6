"""The round's pairings: a CSV file the hub loads and sends to the boards.

One line per board: ``round, board, White, Black`` (a first line of those names is a header and
skipped), for example::

    round,board,White,Black
    3,1,Sietske de Boer,Jan Hoekstra
    3,2,Anne Bakker,Pieter Visser

The hub publishes one round's pairings, retained, on ``frisian/<event>/pairings``
(`device.topics`); each board takes its own line and sets its game's White, Black, Round and
Board tags through the service's commands (`device.broker`).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from device.errors import PairingsError
from device.topics import MAX_BOARD

HEADER = ("round", "board", "white", "black")


@dataclass(frozen=True, slots=True)
class Pairing:
    round: str
    board: int
    white: str
    black: str


def load(path: str | Path) -> dict[str, dict[int, Pairing]]:
    """Every round of the file: round -> board -> pairing.  `PairingsError` (one line) for a
    file that cannot be read, a line without four fields, a board that is not 1-999, a board
    paired twice in one round."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise PairingsError(f"{where}: no such pairings file: give the CSV file of the round") from None
    except OSError as e:
        raise PairingsError(f"{where}: cannot read it: {e.strerror}") from None
    except UnicodeDecodeError:
        raise PairingsError(f"{where}: not UTF-8 text: save the CSV as UTF-8") from None
    rounds: dict[str, dict[int, Pairing]] = {}
    for n, row in enumerate(csv.reader(text.splitlines()), 1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if n == 1 and tuple(c.lower() for c in cells[:4]) == HEADER:
            continue
        if len(cells) != 4 or not all(cells):
            raise PairingsError(f"{where} line {n}: {','.join(row)!r} is not round,board,White,Black: "
                                "write four fields, e.g. 3,1,Sietske de Boer,Jan Hoekstra")
        round_, board, white, black = cells
        if not board.isdigit() or not 1 <= int(board) <= MAX_BOARD:
            raise PairingsError(f"{where} line {n}: board {board!r} is not a board number: use 1-{MAX_BOARD}")
        paired = rounds.setdefault(round_, {})
        if int(board) in paired:
            raise PairingsError(f"{where} line {n}: board {board} is paired twice in round {round_}: "
                                "keep one line per board and round")
        paired[int(board)] = Pairing(round_, int(board), white, black)
    if not rounds:
        raise PairingsError(f"{where}: no pairings in it: write round,board,White,Black lines")
    return rounds


def pick(rounds: dict[str, dict[int, Pairing]], round_: str | None, where: str) -> tuple[str, dict[int, Pairing]]:
    """The round asked for (None: the file's last round)."""
    if round_ is None:
        round_ = list(rounds)[-1]
    if round_ not in rounds:
        raise PairingsError(f"{where}: no round {round_} in it (it has {', '.join(rounds)})")
    return round_, rounds[round_]


def message(round_: str, pairings: dict[int, Pairing], event_name: str | None = None) -> dict:
    """What the hub publishes (`device.broker` reads it)."""
    out: dict = {"round": round_, "boards": {str(b): {"White": p.white, "Black": p.black}
                                             for b, p in sorted(pairings.items())}}
    if event_name:
        out["event_name"] = event_name
    return out
