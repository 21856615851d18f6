"""PDN FEN: reading and writing position texts such as ``W:W31,32,K5:B1,K46``.

Grammar read (fields separated by ``:``):
- the side to move, ``W`` or ``B``, first;
- ``W...`` and ``B...``: comma-separated squares, ``K`` before a king, ranges like ``31-50``;
- our counter extension (manual §3a): apostrophes after a king's square give that side's
  three-move count, ``K19'''`` = the king on 19 has made three simple moves in a row (blocked);
  ``S<n>``: the seven-move count (moves the side with two kings has made, Art. 18) when above 0;
- lidraughts' fields: ``H<n>`` and ``F<n>`` (read and ignored), and the king-move suffix
  ``+<black count><black king square>+<white count><white king square>``, e.g. ``+0+319``.

A plain FEN means zero counters.  Writing gives the canonical form: squares ascending, kings
marked inline, apostrophes only for non-zero counts, ``S<n>`` only when non-zero, so that
``parse(write(x)) == x``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.errors import FenError
from rules.piece import Color, KingCounter, Piece

# ASCII digits only, and at most two (squares 1-50, counts 0-3; the seven-move count three):
# Python's int() takes "²" for no digit and refuses thousands of digits, both as a bare ValueError.
_TOKEN = re.compile(r"^(K?)([0-9]{1,3})(?:-([0-9]{1,3}))?('*)$", re.ASCII)
_LIDRAUGHTS_SUFFIX = re.compile(r"^\+([0-9])([0-9]{0,3})\+([0-9])([0-9]{0,3})$", re.ASCII)
_COUNT = re.compile(r"[0-9]{1,3}", re.ASCII)
_IGNORED = re.compile(r"[0-9]+", re.ASCII)
#: How much of a FEN or a field an error message quotes.
_QUOTE = 40


def quoted(text: str) -> str:
    """``text`` quoted for an error message, cut short when long (a pasted FEN may be huge)."""
    return repr(text) if len(text) <= _QUOTE else repr(text[:_QUOTE - 3]) + "..."


@dataclass(frozen=True)
class FenData:
    """What a FEN says, before the rules check it."""

    turn: Color
    pieces: dict[int, Piece] = field(default_factory=dict)
    counters: dict[Color, KingCounter] = field(default_factory=dict)
    seven: int = 0


def parse(text: str) -> FenData:
    """What ``text`` says; anything that is not FEN raises `FenError` naming the FEN."""
    if not isinstance(text, str):
        raise FenError(f"a FEN is text such as W:W31-50:B1-20, not {type(text).__name__}")
    fen = text.strip().strip('"')
    if not fen:
        raise FenError("empty FEN: expected something like W:W31-50:B1-20")
    fields = [f.strip() for f in fen.split(":")]
    side = fields[0].upper()
    if side not in ("W", "B"):
        raise FenError(f"FEN {quoted(fen)}: must start with the side to move, W or B")
    turn = Color(side)
    pieces: dict[int, Piece] = {}
    counters: dict[Color, KingCounter] = {}
    seen_colours: set[str] = set()
    seven = 0
    for f in fields[1:]:
        if not f:
            continue
        head = f[0].upper()
        if head in ("W", "B") and (len(f) == 1 or f[1] in "K0123456789,"):
            if head in seen_colours:
                raise FenError(f"FEN {quoted(fen)}: the {Color(head)} pieces are listed twice")
            seen_colours.add(head)
            _read_pieces(fen, Color(head), f[1:], pieces, counters)
        elif head == "S" and _COUNT.fullmatch(f[1:]):
            seven = int(f[1:])
        elif head in ("H", "F") and _IGNORED.fullmatch(f[1:]):
            continue
        elif m := _LIDRAUGHTS_SUFFIX.match(f):
            for colour, count, sq in ((Color.BLACK, m[1], m[2]), (Color.WHITE, m[3], m[4])):
                if int(count):
                    if not sq:
                        raise FenError(f"FEN {quoted(fen)}: king-move suffix {quoted(f)} gives a count without a square")
                    counters[colour] = KingCounter(int(sq), int(count))
        else:
            raise FenError(f"FEN {quoted(fen)}: cannot read the field {quoted(f)}")
    return FenData(turn, pieces, counters, seven)


def _read_pieces(fen: str, colour: Color, body: str, pieces: dict, counters: dict) -> None:
    for tok in body.split(","):
        tok = tok.strip()
        if not tok:
            continue
        m = _TOKEN.match(tok.upper())
        if not m:
            raise FenError(f"FEN {quoted(fen)}: {quoted(tok)} is not a square (write 32, K5 or 31-50)")
        king, lo, hi, ticks = bool(m[1]), int(m[2]), int(m[3] or m[2]), len(m[4])
        if not (1 <= lo <= hi <= 50):
            raise FenError(f"FEN {quoted(fen)}: {quoted(tok)} is not a square or range within 1-50")
        if ticks:
            if not king or hi != lo:
                raise FenError(f"FEN {quoted(fen)}: {quoted(tok)}: only a single king can carry a move count (K19')")
            if ticks > 3:
                raise FenError(f"FEN {quoted(fen)}: {quoted(tok)}: a king makes at most three moves in a row (Art. 17)")
            if colour in counters:
                raise FenError(f"FEN {quoted(fen)}: two {colour} kings carry a move count; only one can")
            counters[colour] = KingCounter(lo, ticks)
        for sq in range(lo, hi + 1):
            if sq in pieces:
                raise FenError(f"FEN {quoted(fen)}: square {sq} is given twice")
            pieces[sq] = Piece(colour, king)


def write(data: FenData) -> str:
    parts = [data.turn.value]
    for colour in (Color.WHITE, Color.BLACK):
        counter = data.counters.get(colour)
        toks = []
        for sq in sorted(s for s, p in data.pieces.items() if p.color is colour):
            tok = f"K{sq}" if data.pieces[sq].king else str(sq)
            if counter is not None and counter.square == sq and counter.count:
                tok += "'" * counter.count
            toks.append(tok)
        parts.append(colour.value + ",".join(toks))
    if data.seven:
        parts.append(f"S{data.seven}")
    return ":".join(parts)
