"""A position as an SVG picture (python-chess keeps its ``svg.py`` beside its core).

`board(position)` draws the 10x10 board as White sees it (square 46 at the bottom left), or as
Black sees it with ``flipped``: the 50 dark squares numbered, men as discs, kings as crowned
stacks of two discs (Art. 8), the last move's squares marked (its path, and the pieces it took
as faint rings).  A pure function of its arguments: text in, text out, no I/O.  Everything
written into the picture is a number or a fixed word, so nothing from outside is ever placed in
it as markup.
"""

from __future__ import annotations

from typing import Iterable

from rules.move import Move
from rules.piece import Color, Piece
from rules.position import Position
from rules.squares import SQUARES, column, row

#: One square's side in the picture's units; the board has a margin of one fifth of a square.
SQUARE = 40
MARGIN = 8
LIGHT, DARK = "#f0d9b5", "#8b5a2b"
LAST_FROM, LAST_TO = "#c9a227", "#e8c547"
MEN = {Color.WHITE: ("#fbfbf4", "#555"), Color.BLACK: ("#1e1e1e", "#000")}
CROWN = "#d4a017"


def square_origin(square: int, flipped: bool = False) -> tuple[int, int]:
    """The top-left corner of ``square`` in the picture."""
    r, c = row(square), column(square)
    if flipped:
        r, c = 9 - r, 9 - c
    return MARGIN + c * SQUARE, MARGIN + r * SQUARE


def _disc(cx: float, cy: float, fill: str, edge: str) -> str:
    return (f'<ellipse cx="{cx:g}" cy="{cy:g}" rx="{SQUARE * 0.4:g}" ry="{SQUARE * 0.3:g}" '
            f'fill="{fill}" stroke="{edge}" stroke-width="1.5"/>')


def _piece(square: int, piece: Piece, flipped: bool) -> str:
    x, y = square_origin(square, flipped)
    cx, cy = x + SQUARE / 2, y + SQUARE / 2 + (4 if piece.king else 2)
    fill, edge = MEN[piece.color]
    kind = "king" if piece.king else "man"
    parts = [f'<g class="piece {piece.color} {kind}" data-square="{square}">', _disc(cx, cy, fill, edge)]
    if piece.king:  # a second man stacked on the first, and a crown on top
        top = cy - 7
        parts.append(_disc(cx, top, fill, edge))
        w = SQUARE * 0.22
        points = " ".join(f"{px:g},{py:g}" for px, py in (
            (cx - w, top + 3), (cx - w, top - 5), (cx - w / 2, top - 1), (cx, top - 7),
            (cx + w / 2, top - 1), (cx + w, top - 5), (cx + w, top + 3)))
        parts.append(f'<polygon class="crown" points="{points}" fill="{CROWN}" stroke="#6b4f00" '
                     'stroke-width="1"/>')
    parts.append("</g>")
    return "".join(parts)


def board(position: Position, *, last_move: Move | None = None, flipped: bool = False,
          size: int | None = None, numbers: bool = True) -> str:
    """The SVG text of ``position`` (see the module docstring).  ``size``: the picture's width
    and height in pixels (None: as wide as its container)."""
    full = 2 * MARGIN + 10 * SQUARE
    dims = f' width="{size}" height="{size}"' if size else ""
    side = "black" if flipped else "white"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {full} {full}"{dims} '
           f'class="board" data-side="{side}" role="img" aria-label="draughts board">',
           f'<rect x="0" y="0" width="{full}" height="{full}" fill="#5b3a1a"/>',
           f'<rect x="{MARGIN}" y="{MARGIN}" width="{10 * SQUARE}" height="{10 * SQUARE}" fill="{LIGHT}"/>']
    path: tuple[int, ...] = last_move.path if last_move is not None else ()
    taken: Iterable[int] = last_move.captured if last_move is not None else ()
    for sq in SQUARES:
        x, y = square_origin(sq, flipped)
        fill = DARK
        mark = ""
        if path and sq == path[0]:
            fill, mark = LAST_FROM, " last-from"
        elif sq in path:
            fill, mark = LAST_TO, " last-to"
        out.append(f'<rect class="square{mark}" data-square="{sq}" x="{x}" y="{y}" '
                   f'width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>')
        if numbers:
            out.append(f'<text x="{x + 2}" y="{y + 9}" font-size="8" font-family="sans-serif" '
                       f'fill="#f5e6c8">{sq}</text>')
    for sq in taken:
        x, y = square_origin(sq, flipped)
        out.append(f'<circle class="taken" data-square="{sq}" cx="{x + SQUARE / 2:g}" '
                   f'cy="{y + SQUARE / 2:g}" r="{SQUARE * 0.3:g}" fill="none" stroke="#d33" '
                   'stroke-width="2" stroke-dasharray="3 2"/>')
    for sq, piece in sorted(position.pieces().items()):
        out.append(_piece(sq, piece, flipped))
    out.append("</svg>")
    return "".join(out)
