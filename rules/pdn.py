"""PDN: reading games through visitors and writing them.

Reading follows python-chess' PGN reader: a tokenizer feeds a `Visitor` (headers, moves,
comments, result); `GameBuilder` is the visitor that builds `rules.game.Game` objects and records
the first problem of a game instead of raising, so that a file with one bad game still yields the
others.  Recognised: tags (``[Event "x"]``, also without the space), move numbers (``12.`` and
``12...``), moves (``32-28``, ``19x30``, ``47x38x29``), ``{comments}``, ``;`` line comments, NAGs
and ``!?`` annotations (dropped), variations in parentheses (skipped), and the results
``1-0 0-1 1/2-1/2 *`` and their draughts spellings ``2-0 0-2 1-1``.  Our own comment commands
(see `rules.scoresheet`) are read back: ``[%time +h:mm:ss]`` into the game's times, and an illegal
move followed by ``[%position "FEN"]`` as an irregular move that stood (Art. 27, rule IV).
Writing goes through `rules.scoresheet.Scoresheet`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, TextIO

from rules.errors import FenError, IllegalMoveError, PdnError
from rules.game import Game
from rules.move import Move
from rules.position import Position
from rules.scoresheet import POSITION_COMMAND, TIME_COMMAND

_TOKEN = re.compile(r"""
    \[\s*(?P<tag>[A-Za-z0-9_]+)\s*"(?P<val>(?:[^"\\]|\\.)*)"\s*\]
  | \{(?P<comment>[^}]*)\}
  | ;(?P<line>[^\n]*)
  | (?P<result>1-0|0-1|1/2-1/2|2-0|0-2|1-1|\*)(?![0-9x-])
  | (?P<num>\d+\.(?:\.\.)?)
  | (?P<move>\d+(?:\s*[-x:]\s*\d+)+)[!?]*
  | \$\d+ | \.\.\. | [!?]+
  | (?P<open>\() | (?P<close>\))
  | (?P<ws>\s+)
  | (?P<bad>[^\s\[\]{}()]+|.)
""", re.VERBOSE)


class Visitor:
    """Receives one game's parts in order; `end_game` returns what the reader yields."""

    def begin_game(self, line: int) -> None: ...
    def visit_header(self, name: str, value: str) -> None: ...
    def end_headers(self) -> None: ...
    def visit_move(self, text: str, line: int) -> None: ...
    def visit_comment(self, text: str) -> None: ...
    def visit_result(self, text: str) -> None: ...
    def visit_error(self, message: str, line: int) -> None: ...
    def end_game(self):
        return None


@dataclass(frozen=True)
class Problem:
    """The first thing wrong in a game: where, which move, and why (with the legal moves)."""

    line: int
    ply: int | None
    move: str | None
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}"
        if self.ply is not None:
            n = self.ply // 2 + 1
            where += f", move {n}{'.' if self.ply % 2 == 0 else '...'} {self.move}"
        return f"{where}: {self.message}"


@dataclass
class ReadGame:
    """A game as read, with the first problem met (if any) and its first line in the file."""

    game: Game
    line: int
    problem: Problem | None = None
    tags_seen: dict[str, str] = field(default_factory=dict)


class GameBuilder(Visitor):
    """Builds a Game; after the first problem, the rest of the game's moves are ignored."""

    def begin_game(self, line: int) -> None:
        self.read = ReadGame(Game(), line)
        self._pending: tuple[str, int, int, str] | None = None
        self._pending_comments: list[str] = []
        self.headers: dict[str, str] = {}
        self._started = False

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def end_headers(self) -> None:
        if self._started:
            return
        self._started = True
        start = Position.start()
        fen = self.headers.get("FEN")
        if fen:
            try:
                start = Position.from_fen(fen)
            except FenError as e:
                self.visit_error(str(e), self.read.line)
        game = Game(start=start, tags={k: v for k, v in self.headers.items()
                                       if k not in ("FEN", "SetUp", "GameType", "Result")})
        if self.headers.get("Result"):
            try:
                game.declare(self.headers["Result"])
            except ValueError as e:
                self.visit_error(str(e), self.read.line)
        self.read.game = game
        self.read.tags_seen = dict(self.headers)
        gametype = self.headers.get("GameType")
        if gametype and gametype.split(",")[0].strip() != "40":
            self.visit_error(f"GameType {gametype!r} is not Frisian draughts (40)", self.read.line)

    def visit_move(self, text: str, line: int) -> None:
        self.end_headers()
        self._settle_pending()
        if self.read.problem:
            return
        game = self.read.game
        try:
            game.push_text(text)
        except IllegalMoveError as e:
            # It may be an irregular move that stood: then a [%position] comment follows.
            self._pending = (text, line, game.ply, str(e))
        except ValueError as e:
            self.read.problem = Problem(line, game.ply, text, str(e))

    def visit_comment(self, text: str) -> None:
        self.end_headers()
        if self.read.problem:
            return
        game = self.read.game
        if self._pending:
            fen = POSITION_COMMAND.search(text)
            if not fen:
                self._pending_comments.append(text)
                return
            move_text, line, ply, _ = self._pending
            self._pending = None
            try:
                after = Position.from_fen(fen.group(1))
            except ValueError as e:
                self.read.problem = Problem(line, ply, move_text, str(e))
                return
            game.push_irregular(Move.as_written(move_text), after, "irregular")
            waiting, self._pending_comments = self._pending_comments, []
            for earlier in waiting:
                self._keep_comment(earlier)
        self._keep_comment(text)

    def _keep_comment(self, text: str) -> None:
        game = self.read.game
        clock = TIME_COMMAND.search(text)
        if clock and game.ply:
            seconds = _read_time(clock.group(0))
            if seconds is not None:
                game.times[game.ply] = seconds
        rest = POSITION_COMMAND.sub("", TIME_COMMAND.sub("", text)).strip()
        if rest:
            game.comment(rest)

    def _settle_pending(self) -> None:
        """An illegal move not followed by a [%position] comment is a problem."""
        if self._pending:
            text, line, ply, message = self._pending
            self._pending = None
            if not self.read.problem:
                self.read.problem = Problem(line, ply, text, message)

    def visit_result(self, text: str) -> None:
        self.end_headers()
        self._settle_pending()
        if "Result" not in self.headers or self.headers["Result"] in ("", "*"):
            self.read.game.declare(text)

    def visit_error(self, message: str, line: int) -> None:
        if not self.read.problem:
            self.read.problem = Problem(line, None, None, message)

    def end_game(self) -> ReadGame:
        self.end_headers()
        self._settle_pending()
        return self.read


class _Guarded:
    """A visitor whose ValueErrors become its game's problem (`Visitor.visit_error`, with the
    line), so that whatever one game holds, the reader goes on with the next."""

    def __init__(self, visitor: Visitor) -> None:
        self._visitor = visitor
        self._line = 1

    def __getattr__(self, name: str):
        call = getattr(self._visitor, name)

        def guarded(*args):
            if name == "begin_game":
                self._line = args[0]
            elif name == "visit_move":
                self._line = args[1]
            try:
                return call(*args)
            except ValueError as e:
                self._visitor.visit_error(str(e), self._line)
                return self._visitor.end_game() if name == "end_game" else None
        return guarded


def read_games(source: str | TextIO, visitor: type[Visitor] = GameBuilder) -> Iterator:
    """Yield what `visitor.end_game` returns for each game in a PDN text or open file.

    Each game's problems are recorded by the visitor (`GameBuilder` keeps the first), never
    raised: one bad game does not stop the reading of the others."""
    text = source if isinstance(source, str) else source.read()
    v: Visitor | None = None
    in_moves = False
    depth = 0
    pos = 0
    line = 1
    for m in _TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        kind = "tag" if m["tag"] else m.lastgroup
        if kind == "ws":
            continue
        if depth and kind not in ("open", "close"):
            continue
        if kind == "tag":
            if v is not None and in_moves:
                yield v.end_game()
                v = None
            if v is None:
                v = _Guarded(visitor())
                v.begin_game(line)
                in_moves = False
            v.visit_header(m["tag"], m["val"].replace('\\"', '"').replace("\\\\", "\\"))
            continue
        if kind == "line" or kind is None:
            continue  # line comments, NAGs, "..." and annotations carry nothing we keep
        if v is None:
            v = _Guarded(visitor())
            v.begin_game(line)
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "comment":
            in_moves = True
            v.visit_comment(m["comment"])
        elif kind == "num":
            in_moves = True
        elif kind == "move":
            in_moves = True
            v.visit_move(re.sub(r"\s+", "", m["move"]), line)
        elif kind == "result":
            v.visit_result(m["result"])
            yield v.end_game()
            v = None
            in_moves = False
        elif kind == "bad":
            in_moves = True
            v.visit_error(f"cannot read {m.group(0)!r} (expected a move such as 32-28)", line)
    if v is not None:
        yield v.end_game()


def read_file(path: str, max_chars: int | None = None) -> list[ReadGame]:
    """Every game of a PDN file.  An unreadable file raises PdnError naming it."""
    return list(iter_file(path, max_chars))


def iter_file(path: str, max_chars: int | None = None) -> Iterator[ReadGame]:
    """The games of a PDN file one by one, so that only one is held at a time.  PdnError for an
    unreadable file, one of more than `max_chars` characters (when given), or one without games."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            text = f.read() if max_chars is None else f.read(max_chars + 1)
            if max_chars is not None and len(text) > max_chars:
                raise PdnError(f"{path}: more than {max_chars:,} characters of PDN: split the file "
                               "(the games of one event or round at a time)")
    except OSError as e:
        raise PdnError(f"cannot read {path}: {e.strerror or e}") from None
    found = False
    for read in read_games(text):
        found = True
        yield read
    if not found:
        raise PdnError(f"{path}: no game found (expected PDN: tags in [brackets], then moves)")


def write_game(game: Game, width: int = 79) -> str:
    """A game as PDN text, readable back into an equal game (through `rules.scoresheet`)."""
    sheet = game.scoresheet()
    sheet.termination = None  # the written result says it; Termination is kept only if tagged
    return sheet.pdn(width)


def write_games(games: Iterable[Game]) -> str:
    return "\n".join(write_game(g) for g in games)




def _read_time(command: str) -> float | None:
    """Seconds from ``[%time +0:01:23]`` (since the start); wall-clock times are not kept."""
    m = re.search(r"\+([0-9]{1,6}):([0-9]{2}):([0-9]{2})", command, re.ASCII)
    if not m:
        return None
    h, mi, se = map(int, m.groups())
    return float(h * 3600 + mi * 60 + se)
