"""PDN: reading games through visitors and writing them.

Reading follows python-chess' PGN reader: a tokenizer feeds a `Visitor` (headers, moves,
comments, result); `GameBuilder` is the visitor that builds `rules.game.Game` objects and records
the first problem of a game instead of raising, so that a file with one bad game still yields the
others.  Recognised: tags (``[Event "x"]``, also without the space), move numbers (``12.`` and
``12...``), moves (``32-28``, ``19x30``, ``47x38x29``), ``{comments}``, ``;`` line comments, NAGs
and ``!?`` annotations (dropped), variations in parentheses (skipped), and the results
``1-0 0-1 1/2-1/2 *`` and their draughts spellings ``2-0 0-2 1-1``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, TextIO

from rules.errors import FenError, PdnError
from rules.game import Game
from rules.position import Position

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
        if self.read.problem:
            return
        game = self.read.game
        try:
            game.push_text(text)
        except ValueError as e:
            self.read.problem = Problem(line, game.ply, text, str(e))

    def visit_comment(self, text: str) -> None:
        self.end_headers()
        if not self.read.problem:
            self.read.game.comment(text.strip())

    def visit_result(self, text: str) -> None:
        self.end_headers()
        if "Result" not in self.headers or self.headers["Result"] in ("", "*"):
            self.read.game.declare(text)

    def visit_error(self, message: str, line: int) -> None:
        if not self.read.problem:
            self.read.problem = Problem(line, None, None, message)

    def end_game(self) -> ReadGame:
        self.end_headers()
        return self.read


def read_games(source: str | TextIO, visitor: type[Visitor] = GameBuilder) -> Iterator:
    """Yield what `visitor.end_game` returns for each game in a PDN text or open file."""
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
                v = visitor()
                v.begin_game(line)
                in_moves = False
            v.visit_header(m["tag"], m["val"].replace('\\"', '"').replace("\\\\", "\\"))
            continue
        if kind == "line" or kind is None:
            continue  # line comments, NAGs, "..." and annotations carry nothing we keep
        if v is None:
            v = visitor()
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


def read_file(path: str) -> list[ReadGame]:
    """Every game of a PDN file.  An unreadable file raises PdnError naming it."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise PdnError(f"cannot read {path}: {e.strerror or e}") from None
    games = list(read_games(text))
    if not games:
        raise PdnError(f"{path}: no game found (expected PDN: tags in [brackets], then moves)")
    return games


def write_game(game: Game, width: int = 79) -> str:
    """A game as PDN text, readable back into an equal game."""
    lines = [f'[{k} "{_escape(v)}"]' for k, v in game.headers().items()]
    tokens: list[str] = [f"{{{c}}}" for c in game.comments.get(0, [])]
    texts = game.move_texts()
    black_first = not game.start.turn.is_white
    for i, text in enumerate(texts):
        ply = i + (1 if black_first else 0)
        number = ply // 2 + 1
        if ply % 2 == 0:
            text = f"{number}. {text}"
        elif i == 0 or game.comments.get(i):
            text = f"{number}... {text}"
        tokens.append(text)
        tokens.extend(f"{{{c}}}" for c in game.comments.get(i + 1, []))
    tokens.append(game.result())
    return "\n".join(lines) + "\n\n" + _wrap(tokens, width) + "\n"


def write_games(games: Iterable[Game]) -> str:
    return "\n".join(write_game(g) for g in games)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(tokens: list[str], width: int) -> str:
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
