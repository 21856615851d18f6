"""Observation files: a game as a sequence of settled boards, one JSON object per line (JSONL).

This is the input of `frisian-companion arbitrate FILE.jsonl` (documented in README.md,
"Observation files").  Each line is one of:

- a board: ``{"board": "<50 symbols, square 1 first>", ...}`` with ``.`` empty, ``w``/``b`` men,
  ``W``/``B`` kings (spaces and ``/`` ignored), and optionally ``"time"`` (seconds),
  ``"lifted"`` (squares lifted while a hand was over the board, in order), ``"placed"``
  (squares the board before had empty that were seen holding a piece on the way, in order),
  ``"confidence"``
  (of every square, default 1.0), ``"readings"`` (per square: ``{"17": {"content": "w",
  "confidence": 0.6, "alternative": "."}}``), ``"occluded"`` (squares a hand covered) and
  ``"complete"`` (the move was marked complete with the button);
- ``{"start": "<FEN>", "tags": {"White": "...", ...}}``: the start position and tags (first line
  only; without it the game starts from the normal start);
- ``{"take_back": true}``: the operator takes back the last recorded move;
- ``{"declare": "1-0", "reason": "resignation"}``: an end the rules do not decide.

Blank lines and lines starting with ``#`` are skipped.  A bad line raises `ObservationFileError`
naming the file, the line and the fix.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable

from rules.observation import Observation, Settled, SquareReading, content_from_symbol
from rules.outcome import Termination


class ObservationFileError(ValueError):
    """A line of an observation file that cannot be read."""


@dataclass(frozen=True)
class Start:
    fen: str | None
    tags: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TakeBack:
    time: float | None = None


@dataclass(frozen=True)
class Declare:
    result: str
    termination: Termination
    time: float | None = None


Item = Settled | Start | TakeBack | Declare

_REASONS = {t.value: t for t in Termination if not t.by_rules} | {t.name.lower(): t for t in Termination if not t.by_rules}
_BOARD_KEYS = {"board", "time", "lifted", "placed", "confidence", "readings", "occluded",
               "complete"}


def read_lines(lines: Iterable[str], name: str = "input") -> list[tuple[int, Item]]:
    """Every item of the file with its line number; raises on the first bad line."""
    items: list[tuple[int, Item]] = []
    for n, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            item = parse(text, first=not items)
        except ObservationFileError as e:
            raise ObservationFileError(f"{name} line {n}: {e}") from None
        items.append((n, item))
    return items


def parse(text: str, first: bool = True) -> Item:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ObservationFileError(f"not JSON ({e.msg} at column {e.colno}): write one JSON object per line") from None
    if not isinstance(data, dict):
        raise ObservationFileError("each line is a JSON object, e.g. {\"board\": \"...\"}")
    time = _number(data, "time")
    if "board" in data:
        return _settled(data, time)
    if "start" in data:
        if not first:
            raise ObservationFileError('"start" may only be on the first line')
        tags = data.get("tags", {})
        if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
            raise ObservationFileError('"tags" is an object of strings, e.g. {"White": "Jansen"}')
        return Start(data["start"] or None, dict(tags))
    if data.get("take_back"):
        return TakeBack(time)
    if "declare" in data:
        reason = str(data.get("reason", "resignation")).lower()
        if reason not in _REASONS:
            raise ObservationFileError(f'"reason" {reason!r} is not one of: '
                                       f'{", ".join(t.value for t in Termination if not t.by_rules)}')
        return Declare(str(data["declare"]), _REASONS[reason], time)
    raise ObservationFileError('a line needs "board", "start", "take_back" or "declare"')


def _settled(data: dict, time: float | None) -> Settled:
    unknown = set(data) - _BOARD_KEYS
    if unknown:
        raise ObservationFileError(f"unknown key {sorted(unknown)[0]!r}: a board line may have "
                                   f"{', '.join(sorted(_BOARD_KEYS))}")
    confidence = _number(data, "confidence")
    confidence = 1.0 if confidence is None else confidence
    if not 0 <= confidence <= 1:
        raise ObservationFileError(f'"confidence" is between 0 and 1, not {confidence}')
    board = data["board"]
    if not isinstance(board, str):
        raise ObservationFileError('"board" is a string of 50 symbols (. w b W B), square 1 first')
    try:
        obs = Observation.from_text(board, confidence, time)
    except ValueError as e:
        raise ObservationFileError(f'"board": {e}') from None
    readings = data.get("readings", {})
    if not isinstance(readings, dict):
        raise ObservationFileError('"readings" is an object: {"17": {"content": "w", "confidence": 0.6}}')
    changed: dict[int, SquareReading] = {}
    for key, r in readings.items():
        sq = _square(key, "readings")
        if not isinstance(r, dict) or "content" not in r:
            raise ObservationFileError(f'"readings" {key}: give {{"content": "w", "confidence": 0.6}}')
        try:
            content = content_from_symbol(str(r["content"]))
            alt = content_from_symbol(str(r["alternative"])) if "alternative" in r else "none"
            changed[sq] = SquareReading(content, float(r.get("confidence", confidence)), alt)
        except (ValueError, TypeError) as e:
            raise ObservationFileError(f'"readings" {key}: {e}') from None
    for key in data.get("occluded", []):
        sq = _square(key, "occluded")
        r = changed.get(sq, obs.reading(sq))
        changed[sq] = SquareReading(r.content, r.confidence, r.alternative, occluded=True)
    obs = obs.with_readings(changed)
    squares = {}
    for key in ("lifted", "placed"):
        given = data.get(key, [])
        if not isinstance(given, list):
            raise ObservationFileError(f'"{key}" is a list of squares, e.g. [32, 27]')
        squares[key] = tuple(_square(s, key) for s in given)
    return Settled(obs, squares["lifted"], time, bool(data.get("complete", False)),
                   placed=squares["placed"])


def _number(data: dict, key: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ObservationFileError(f'"{key}" is a number, not {value!r}')
    return float(value)


def _square(value, key: str) -> int:
    try:
        sq = int(value)
    except (TypeError, ValueError):
        sq = 0
    if not 1 <= sq <= 50 or (isinstance(value, float) and value != sq):
        raise ObservationFileError(f'"{key}": {value!r} is not a square (1-50)')
    return sq


def board_line(settled: Settled) -> str:
    """The JSON line for a settled observation (the inverse of `parse` for plain readings)."""
    obs = settled.observation
    data: dict = {"board": obs.text()}
    if settled.time is not None:
        data["time"] = settled.time
    if settled.lifted:
        data["lifted"] = list(settled.lifted)
    if settled.placed:
        data["placed"] = list(settled.placed)
    return json.dumps(data)
