"""Small helpers shared by the rules tests."""

from __future__ import annotations

from typing import Mapping

from rules import Position
from rules.observation import Observation, Settled, SquareReading
from rules.piece import Piece


def move_set(position: Position) -> set[tuple[int, int, tuple[int, ...]]]:
    """The legal moves as (from, to, sorted captured squares)."""
    return {(m.from_square, m.to_square, tuple(sorted(m.captured))) for m in position.legal_moves()}


def texts(position: Position) -> set[str]:
    return {position.move_text(m) for m in position.legal_moves()}


def settled(board: Mapping[int, Piece], confidence: float = 0.99,
            readings: Mapping[int, SquareReading] | None = None, lifted: tuple[int, ...] = (),
            time: float | None = None, placed: tuple[int, ...] = ()) -> Settled:
    """A still board as a camera reads it: every square at ``confidence``, some read otherwise;
    ``lifted`` and ``placed`` as the camera saw them on the way (`Settled`)."""
    obs = Observation.from_board(board, confidence, time)
    if readings:
        obs = obs.with_readings(readings)
    return Settled(obs, lifted, time, placed=placed)


def misread(board: Mapping[int, Piece], square: int, content: Piece | None = None,
            confidence: float = 0.9995) -> Settled:
    """``board`` with one square read surely as ``content`` (empty: a piece lost under a glare)."""
    return settled(board, readings={square: SquareReading(content, confidence)})
