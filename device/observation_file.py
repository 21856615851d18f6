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
naming the file, the line, the field and the fix.  Every value is checked here, when the line is
read (numbers finite and in range, squares 1-50, the start FEN a position, a declared result one
the rules do not decide), so that a file is judged only once all of it has been read.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, TextIO

from rules.observation import Observation, Settled, SquareReading, content_from_symbol
from rules.outcome import RESULT_ALIASES, Termination
from rules.position import Position


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
#: Times are seconds since the start of the game, or since 1970 (wall-clock); 1e11 s is the year
#: 5138, far beyond any clock, and still a date the PDN's ``[%time]`` can be written for.
MAX_TIME = 1e11
#: PDN tag names: letters, digits and ``_`` (what `rules.pdn` reads back).
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")


#: The most items one file may hold: a long game needs under 2,000 settled boards; 5,000 take
#: some ten seconds to judge and 40 MB to hold (issue 19: any input in 15 s and 500 MB).
MAX_ITEMS = 5_000
#: The longest line read: a board with every square's reading fits in 5,000 characters.
MAX_LINE_CHARS = 100_000


def lines_of(f: TextIO, name: str = "input") -> Iterator[str]:
    """The lines of an open file, refusing (ObservationFileError) one longer than MAX_LINE_CHARS
    before it is all in memory."""
    n = 0
    while True:
        line = f.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        n += 1
        if len(line) > MAX_LINE_CHARS:
            raise ObservationFileError(f"{name} line {n}: longer than {MAX_LINE_CHARS:,} characters: "
                                       "write one observation per line")
        yield line


def read_lines(lines: Iterable[str], name: str = "input") -> list[tuple[int, Item]]:
    """Every item of the file with its line number; raises on the first bad line, and for a
    file of more than MAX_ITEMS items."""
    items: list[tuple[int, Item]] = []
    for n, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if len(items) == MAX_ITEMS:
            raise ObservationFileError(f"{name} line {n}: more than {MAX_ITEMS:,} observations: "
                                       "judge one game per file")
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
    except (ValueError, RecursionError):
        # Python refuses integers of thousands of digits, and lists nested thousands deep.
        raise ObservationFileError("not JSON this program reads (a number of thousands of digits, "
                                   "or lists nested too deeply): write one JSON object per line") from None
    if not isinstance(data, dict):
        raise ObservationFileError("each line is a JSON object, e.g. {\"board\": \"...\"}")
    time = _time(data)
    if "board" in data:
        return _settled(data, time)
    if "start" in data:
        if not first:
            raise ObservationFileError('"start" may only be on the first line')
        return Start(_start(data["start"]), _tags(data.get("tags", {})))
    if data.get("take_back"):
        return TakeBack(time)
    if "declare" in data:
        result = data["declare"]
        if not isinstance(result, str) or RESULT_ALIASES.get(result.strip(), "*") == "*":
            raise ObservationFileError(f'"declare" is a result the rules do not decide: 1-0, 0-1 or '
                                       f'1/2-1/2, not {_show(result)}')
        reason = str(data.get("reason", "resignation")).lower()
        if reason not in _REASONS:
            raise ObservationFileError(f'"reason" {reason!r} is not one of: '
                                       f'{", ".join(t.value for t in Termination if not t.by_rules)}')
        return Declare(result.strip(), _REASONS[reason], time)
    raise ObservationFileError('a line needs "board", "start", "take_back" or "declare"')


def _start(fen) -> str | None:
    """The start FEN (None for the normal start), checked to be a position."""
    if fen is None or fen == "":
        return None
    if not isinstance(fen, str):
        raise ObservationFileError(f'"start" is a FEN string such as "W:W31-50:B1-20" (or null for '
                                   f'the normal start), not {_show(fen)}')
    try:
        Position.from_fen(fen)
    except ValueError as e:
        raise ObservationFileError(f'"start": {e}') from None
    return fen


def _tags(tags) -> dict[str, str]:
    if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
        raise ObservationFileError('"tags" is an object of strings, e.g. {"White": "Jansen"}')
    for name in tags:
        if not _TAG_NAME.fullmatch(name):
            raise ObservationFileError(f'"tags": {name!r} is not a PDN tag name (letters, digits and _)')
    return dict(tags)


def _settled(data: dict, time: float | None) -> Settled:
    unknown = set(data) - _BOARD_KEYS
    if unknown:
        raise ObservationFileError(f"unknown key {sorted(unknown)[0]!r}: a board line may have "
                                   f"{', '.join(sorted(_BOARD_KEYS))}")
    confidence = _confidence(data.get("confidence", 1.0), '"confidence"')
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
        sure = _confidence(r.get("confidence", confidence), f'"readings" {key}: "confidence"')
        try:
            content = content_from_symbol(str(r["content"]))
            alt = content_from_symbol(str(r["alternative"])) if "alternative" in r else "none"
            changed[sq] = SquareReading(content, sure, alt)
        except (ValueError, TypeError) as e:
            raise ObservationFileError(f'"readings" {key}: {e}') from None
    occluded = data.get("occluded", [])
    if not isinstance(occluded, list):
        raise ObservationFileError('"occluded" is a list of squares, e.g. [27, 31]')
    for key in occluded:
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
    complete = data.get("complete", False)
    if not isinstance(complete, bool):
        raise ObservationFileError(f'"complete" is true or false, not {_show(complete)}')
    return Settled(obs, squares["lifted"], time, complete, placed=squares["placed"])


def _show(value) -> str:
    """A value as written in the file, cut short (a number may have hundreds of digits)."""
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else repr(value)
    return text if len(text) <= 24 else text[:20] + "..."


def _finite(value, what: str) -> float:
    """``value`` as a finite float, or an error naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ObservationFileError(f"{what} is a number, not {_show(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ObservationFileError(f"{what} is a finite number, not {_show(value)}")
    return number


def _confidence(value, what: str) -> float:
    number = _finite(value, what)
    if not 0 <= number <= 1:
        raise ObservationFileError(f"{what} is between 0 and 1, not {_show(value)}")
    return number


def _time(data: dict) -> float | None:
    value = data.get("time")
    if value is None:
        return None
    number = _finite(value, '"time"')
    if not 0 <= number < MAX_TIME:
        raise ObservationFileError(f'"time" is seconds since the start of the game or since 1970, '
                                   f'0 or more and below {MAX_TIME:.0e}, not {_show(value)}')
    return number


def _square(value, key: str) -> int:
    if isinstance(value, bool):
        sq = 0
    else:
        try:
            sq = int(value)
        except (TypeError, ValueError, OverflowError):
            sq = 0
    if not 1 <= sq <= 50 or (isinstance(value, float) and value != sq):
        raise ObservationFileError(f'"{key}": {_show(value)} is not a square (1-50)')
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
