"""The scoresheet: a game as recorded over the board, and its PDN text.

A `Scoresheet` is a flat record of texts, as a store keeps it: the tags, the start position, each
move with its PDN text, the position after it, the time it was recorded, the comments after it and
whether it was an irregular move that stood (Art. 27, rule IV), then the result.  It is the one
place PDN is written: `rules.pdn.write_game` goes through it too.

Our PDN comments carry two commands (PDN's ``[%name value]`` form) that readers which do not know
them show as text:
- ``[%time 14:03:12]`` (wall-clock time, local) or ``[%time +0:01:23]`` (time since the start) of
  a move;
- ``[%position "FEN"]`` after an irregular move that stood: the board as it was left, from which
  the game went on.  `rules.pdn` reads it back.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from dataclasses import dataclass, field

from rules.piece import Color

#: Times above this are seconds since the epoch (wall-clock); below, seconds since the start.
_EPOCH_THRESHOLD = 1e9
POSITION_COMMAND = re.compile(r'\[%position\s+"([^"]*)"\]')
TIME_COMMAND = re.compile(r"\[%time\s+[^\]]*\]")


@dataclass(frozen=True, slots=True)
class ScoresheetMove:
    """One recorded move.  ``ply`` counts from 1; ``number`` is the PDN move number."""

    ply: int
    color: Color
    number: int
    text: str
    fen: str
    time: float | None = None
    comments: tuple[str, ...] = ()
    irregular: str | None = None


@dataclass
class Scoresheet:
    tags: dict[str, str] = field(default_factory=dict)
    start_fen: str | None = None
    moves: list[ScoresheetMove] = field(default_factory=list)
    comments_before: tuple[str, ...] = ()
    result: str = "*"
    termination: str | None = None

    def pdn(self, width: int = 79) -> str:
        """The game as PDN: tags (Result and GameType included), moves, comments, result."""
        tags = dict(self.tags)
        tags["Result"] = self.result
        tags.setdefault("GameType", "40")
        if self.start_fen:
            tags.setdefault("SetUp", "1")
            tags["FEN"] = self.start_fen
        if self.termination and "Termination" not in tags:
            tags["Termination"] = self.termination
        lines = [f'[{k} "{escape(v)}"]' for k, v in tags.items()]
        tokens: list[str] = [f"{{{c}}}" for c in self.comments_before]
        previous_had_comment = bool(self.comments_before)
        for i, m in enumerate(self.moves):
            if m.color is Color.WHITE:
                tokens.append(f"{m.number}. {m.text}")
            elif i == 0 or previous_had_comment:
                tokens.append(f"{m.number}... {m.text}")
            else:
                tokens.append(m.text)
            comments = list(m.comments)
            clock = None if m.time is None else time_command(m.time)
            if clock is not None:
                comments.append(clock)
            if m.irregular:
                comments.append(f'[%position "{m.fen}"]')
            tokens.extend(f"{{{c}}}" for c in comments)
            previous_had_comment = bool(comments)
        tokens.append(self.result)
        return "\n".join(lines) + "\n\n" + wrap(tokens, width) + "\n"


def time_command(seconds: float) -> str | None:
    """``[%time 14:03:12]`` for a wall-clock time, ``[%time +0:01:23]`` for seconds since the start;
    None for a time no clock shows (negative, infinite, not a number, beyond the year 9999): the
    scoresheet is then written without it rather than not at all."""
    if not 0 <= seconds < math.inf:
        return None
    if seconds >= _EPOCH_THRESHOLD:
        try:
            return f"[%time {_dt.datetime.fromtimestamp(seconds).strftime('%H:%M:%S')}]"
        except (OverflowError, OSError, ValueError):
            return None
    s = int(round(seconds))
    return f"[%time +{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}]"


#: Line breaks, tabs and other control characters: a PDN tag is one line of text.
_CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]+")


def escape(value: str) -> str:
    """A tag value as written between the quotes: ``\\`` and ``"`` escaped with a backslash (PDN's
    only escapes); line breaks, tabs and other control characters, which PDN cannot escape, are
    each run written as one space, so that the tag stays one line (never refused: a stored
    game is always written)."""
    one_line = _CONTROL.sub(" ", value)
    return one_line.replace("\\", "\\\\").replace('"', '\\"')


def wrap(tokens: list[str], width: int) -> str:
    lines: list[str] = []
    cur = ""
    for t in tokens:
        if cur and len(cur) + 1 + len(t) > width:
            lines.append(cur)
            cur = t
        else:
            cur = f"{cur} {t}" if cur else t
    if cur:
        lines.append(cur)
    return "\n".join(lines)
