"""The event's standings from its finished games: two points a win, one a draw (the usual
scoring of draughts), by player name as the White and Black tags give it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

POINTS = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    games: int
    won: int
    drawn: int
    lost: int
    points: int


def standings(games: Iterable[tuple[str, str, str]]) -> list[Standing]:
    """``games`` as (White, Black, result); games without a result count for nothing.  Ordered
    by points, then fewer games, then name."""
    table: dict[str, list[int]] = {}
    for white, black, result in games:
        if result not in POINTS:
            continue
        for player, points in zip((white, black), POINTS[result]):
            row = table.setdefault(player, [0, 0, 0, 0, 0])  # games, won, drawn, lost, points
            row[0] += 1
            row[1 + {2: 0, 1: 1, 0: 2}[points]] += 1
            row[4] += points
    rows = [Standing(p, *r) for p, r in table.items()]
    return sorted(rows, key=lambda s: (-s.points, s.games, s.player))
