"""Naming what is wrong with a board that no legal move gives (Art. 8, 10-12, 17, 27).

`classify(position, board)` compares the board as seen with the position before the move and
says which rule the difference breaks, in the player's terms: the article, a sentence saying what
happened, and what the player must do instead (RULES.md "On the physical board").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from rules import movegen
from rules.bitboard import BIT, BIT_INDEX, SQUARE_OF_INDEX, squares_of
from rules.errors import CaptureSearchError
from rules.events import IrregularityKind, SquareChange
from rules.move import Move
from rules.piece import Color, Piece
from rules.position import Position
from rules.squares import line_between, promotion_row, row

K = IrregularityKind


@dataclass(frozen=True, slots=True)
class Finding:
    """What is wrong: ``color`` is the side that broke the rule, ``seen`` the move as it appears
    when a single piece moved (for the scoresheet if it stands), ``legal`` the legal moves."""

    kind: IrregularityKind
    color: Color
    message: str
    remedy: str
    square: int | None
    seen: Move | None
    legal: tuple[str, ...]
    changes: tuple[SquareChange, ...]


def name(piece: Piece) -> str:
    return f"{piece.color} {'king' if piece.king else 'man'}"


def classify(position: Position, board: Mapping[int, Piece]) -> Finding | None:
    """What rule the board breaks, seen against ``position`` (None when they are equal)."""
    before = position.pieces()
    changes = tuple(SquareChange(sq, before.get(sq), board.get(sq))
                    for sq in range(1, 51) if before.get(sq) != board.get(sq))
    if not changes:
        return None
    me = position.turn
    legal_moves = position.legal_moves()
    legal = tuple(position.move_text(m, legal_moves) for m in legal_moves)

    def own(p: Piece | None, color: Color) -> bool:
        return p is not None and p.color is color

    gone = {c: [ch.square for ch in changes if own(ch.before, c) and not own(ch.after, c)] for c in Color}
    new = {c: [ch.square for ch in changes if own(ch.after, c) and not own(ch.before, c)] for c in Color}
    retyped = {c: [ch.square for ch in changes if own(ch.before, c) and own(ch.after, c)] for c in Color}
    opp = me.other

    def finding(kind: K, message: str, remedy: str, square: int | None = None,
                seen: Move | None = None, color: Color = me) -> Finding:
        return Finding(kind, color, message, remedy, square, seen, legal, changes)

    def put_back() -> str:
        return "put the pieces back: " + "; ".join(
            f"{ch.square} {'empty' if ch.before is None else name(ch.before)}" for ch in changes)

    # Art. 27a: a piece of the side not to move appeared somewhere or changed.
    if new[opp] or retyped[opp]:
        if gone[me] or new[me]:
            return finding(K.UNKNOWN, f"pieces of both sides moved: {_list(changes)}", put_back())
        if len(gone[opp]) == 1 and len(new[opp]) == 1:
            f, t = gone[opp][0], new[opp][0]
            return finding(K.OPPONENT_PIECE,
                           f"the {name(before[f])} on {f} was moved to {t}, but it is {me}'s move",
                           f"put it back on {f}; {me} is to move", f, Move(f, t, (f, t)), color=me)
        return finding(K.OPPONENT_PIECE, f"{opp}'s pieces were moved, but it is {me}'s move: {_list(changes)}",
                       put_back())

    # A man crowned where it stands, or a king uncrowned, with nothing else moved.
    if retyped[me] and not gone[me] and not new[me]:
        sq = retyped[me][0]
        if board[sq].king:
            return finding(K.WRONGLY_CROWNED, f"the man on {sq} was crowned without reaching the far row",
                           f"take the crown off the man on {sq} (Art. 8)", sq)
        return finding(K.UNKNOWN, f"the king on {sq} lost its crown", f"put the crown back on {sq}", sq)

    if len(gone[me]) == 1 and len(new[me]) == 1 and not retyped[me]:
        return _single_piece(position, board, before, gone[me][0], new[me][0], set(gone[opp]),
                             legal_moves, finding)

    if not gone[me] and not new[me] and gone[opp]:
        return finding(K.WRONG_PIECES_TAKEN, f"{opp}'s pieces were taken off without a capture: "
                       f"{', '.join(map(str, gone[opp]))}", put_back())
    if gone[me] and not new[me]:
        return finding(K.UNKNOWN, f"{me}'s pieces disappeared: {_list(changes)}", put_back())
    return finding(K.UNKNOWN, f"several pieces moved: {_list(changes)}", put_back())


def _single_piece(position: Position, board: Mapping[int, Piece], before: Mapping[int, Piece],
                  f: int, t: int, taken: set[int], legal_moves: list[Move], finding) -> Finding:
    """One own piece went from f to t and the opponent's pieces on ``taken`` were taken off."""
    piece, after = before[f], board[t]
    seen = Move(f, t, (f, t), tuple(sorted(taken)))
    kind_name = name(piece)
    from_to = [m for m in legal_moves if m.from_square == f and m.to_square == t]
    if from_to:
        exact = [m for m in from_to if set(m.captured) == taken]
        if exact:
            m = exact[0]
            expected = position.play(m).piece_at(t)
            if after.king and not expected.king:
                return finding(K.WRONGLY_CROWNED,
                               f"the man on {t} was crowned, but it did not end its move on the far row",
                               f"take the crown off the man on {t}: only a man that ends its move on the far "
                               f"row is crowned (Art. 8)", t, m)
            return finding(K.UNKNOWN, f"the {kind_name} from {f} stands on {t} as a {name(after)}",
                           f"put a {name(expected)} on {t}", t, m)
    state = position._state
    men, kings, omen, okings, blocked = movegen.sides(state)
    fi, ti = BIT_INDEX[f], BIT_INDEX[t]
    cap_bits = sum(BIT[s] for s in taken)
    routes = _routes(men, kings, omen, okings, fi, ti, cap_bits) \
        if legal_moves and legal_moves[0].is_capture else []
    played_route = any(raw[2] == cap_bits for raw, _ in routes)
    if from_to and not played_route:
        # the legal capture's ends, with the wrong pieces taken off (Art. 27b)
        m = min(from_to, key=lambda mv: len(set(mv.captured) ^ taken))
        text = position.move_text(m, legal_moves)
        left = sorted(set(m.captured) - taken)
        extra = sorted(taken - set(m.captured))
        parts = []
        if left:
            parts.append(f"too few pieces were taken off: {', '.join(map(str, left))} still stand")
        if extra:
            parts.append(f"too many pieces were taken off: {', '.join(map(str, extra))}")
        remedy = []
        if left:
            remedy.append(f"take off {', '.join(map(str, left))}")
        if extra:
            remedy.append(f"put back {', '.join(f'{before[s].color} {_kind(before[s])} on {s}' for s in extra)}")
        return finding(K.WRONG_PIECES_TAKEN, f"{text} takes {len(m.captured)}; " + "; ".join(parts),
                       " and ".join(remedy) + " (Art. 27b)", f, Move(f, t, m.path, tuple(sorted(taken))))

    capture_due = bool(legal_moves) and legal_moves[0].is_capture
    if capture_due:
        best = legal_moves[0]
        best_text = position.move_text(best, legal_moves)
        others = ", ".join(position.move_text(m, legal_moves) for m in legal_moves)
        if routes:
            routes.sort(key=lambda r: (r[0][2] != cap_bits, -movegen.capture_value(r[0][2], okings)))
            raw, is_king = routes[0]
            seen = Move(f, t, (f,) + tuple(SQUARE_OF_INDEX[i] for i in raw[3]), tuple(squares_of(raw[2])))
            top = movegen.capture_value(movegen.legal_moves(state)[0][2], okings)
            if movegen.capture_value(raw[2], okings) < top:
                return finding(K.NOT_HIGHEST_VALUE,
                               f"{seen.short_text()} takes {len(squares_of(raw[2]))}, but the capture of the "
                               f"highest value is compulsory: {best_text} takes {len(best.captured)}",
                               f"take the move back and capture the most: {others} (Art. 11)", f, seen)
            if not is_king:
                return finding(K.KING_MUST_CAPTURE,
                               f"{seen.short_text()} captures with a man, but a king can capture as much",
                               f"take the move back and capture with the king: {others} (Art. 12)", f, seen)
        elif not taken and _is_step(piece, f, t, before):
            return finding(K.CAPTURE_NOT_TAKEN,
                           f"{f}-{t} is a simple move, but a capture is compulsory",
                           f"take the move back and capture: {others} (Art. 10)", f, seen)
    elif (blocked and BIT[f] == blocked and not taken and piece.king
          and _is_step(piece, f, t, before)):
        return finding(K.FOURTH_KING_MOVE,
                       f"the king on {f} made a fourth simple move in a row while {piece.color} has men",
                       "take it back and move a man, or capture (Art. 17)", f, seen)
    why = _why_unreachable(piece, after, f, t, before, position.turn)
    return finding(K.UNREACHABLE, f"no legal move takes the {kind_name} on {f} to {t}: {why}",
                   f"put it back on {f} and play a legal move: "
                   f"{', '.join(position.move_text(m, legal_moves) for m in legal_moves) or 'none'} (Art. 27d)",
                   t, seen)


def _routes(men: int, kings: int, omen: int, okings: int, fi: int, ti: int,
            cap_bits: int) -> list[tuple[movegen.RawMove, bool]]:
    """The capture routes worth explaining from fi to ti: the one taking exactly the pieces taken
    off, if any, and one of the highest value (none where the position is beyond working out)."""
    try:
        found = [movegen.capture_route(men, kings, omen, okings, fi, ti, cap_bits) if cap_bits else None,
                 movegen.capture_route(men, kings, omen, okings, fi, ti)]
    except CaptureSearchError:
        return []
    return [r for r in found if r is not None]


def _kind(piece: Piece) -> str:
    return "king" if piece.king else "man"


def _is_step(piece: Piece, f: int, t: int, before: Mapping[int, Piece]) -> bool:
    """Whether f-t has the shape of a simple move for the piece (ignoring what the rules forbid)."""
    line = line_between(f, t)
    if line is None:
        return False
    direction, between = line
    if not direction.is_diagonal or any(s in before for s in between):
        return False
    if piece.king:
        return True
    forward = row(t) < row(f) if piece.color is Color.WHITE else row(t) > row(f)
    return forward and not between


def _why_unreachable(piece: Piece, after: Piece, f: int, t: int, before: Mapping[int, Piece],
                     turn: Color) -> str:
    if piece.color is not turn:
        return f"it is {turn}'s move"
    line = line_between(f, t)
    if after.king and not piece.king:
        if t not in promotion_row(piece.color is Color.WHITE):
            return "a man is crowned only on the far row (Art. 8)"
    if line is None:
        return "the squares are not on one line"
    direction, between = line
    own = [s for s in between if s in before and before[s].color is piece.color]
    if own:
        return f"it jumped over its own piece on {own[0]}"
    if any(s in before for s in between):
        return f"the way is not free ({', '.join(str(s) for s in between if s in before)} stands between)"
    if not direction.is_diagonal:
        return "pieces move diagonally; only a capture goes straight (Art. 6, 9)"
    if piece.king:
        return "that move is not allowed here"
    forward = row(t) < row(f) if piece.color is Color.WHITE else row(t) > row(f)
    if not forward:
        return "a man moves forward only (Art. 6)"
    if between:
        return "a man moves one square at a time (Art. 6)"
    return "that move is not allowed here"


def _list(changes: tuple[SquareChange, ...]) -> str:
    return "; ".join(str(ch) for ch in changes)

