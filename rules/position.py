"""Positions: immutable values holding the pieces, the side to move and the rule counters.

A `Position` knows its legal moves (RULES.md "Moves" and "Which capture is legal"), the position
after a move, and whether the game is over by the rules ("End of the game").  The game with its
move stack is `rules.game.Game`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from rules import fen as fenio
from rules import movegen
from rules.bitboard import BIT, BIT_INDEX, SQUARE_OF_INDEX, squares_of
from rules.errors import (AmbiguousMoveError, CaptureSearchError, FenError, IllegalMoveError,
                          InvalidMoveError)
from rules.move import Move
from rules.outcome import Outcome, Termination
from rules.piece import Color, KingCounter, Piece
from rules.squares import line_between, promotion_row

START_FEN = "W:W31-50:B1-20"
#: Manual §2c: five men each, on 1-5 and 46-50.
ALTERNATIVE_START_FEN = "W:W46-50:B1-5"

_MOVE_TEXT = re.compile(r"^(\d{1,2})(?:\s*[-x:]\s*(\d{1,2}))+$")


@dataclass(frozen=True, slots=True)
class Position:
    """A position: pieces, side to move, both three-move counters and the seven-move count."""

    _state: movegen.RawState

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def start(cls) -> "Position":
        """The normal start: black men on 1-20, white men on 31-50, white to move (Art. 4, 6)."""
        return cls.from_fen(START_FEN)

    @classmethod
    def alternative_start(cls) -> "Position":
        """The alternative start of manual §2c: five men each on 1-5 and 46-50."""
        return cls.from_fen(ALTERNATIVE_START_FEN)

    @classmethod
    def from_fen(cls, fen: str) -> "Position":
        data = fenio.parse(fen)
        try:
            return cls.setup(data.pieces, data.turn, data.counters, data.seven)
        except FenError as e:
            raise FenError(f"FEN {fenio.quoted(fen.strip())}: {e}") from None

    @classmethod
    def setup(
        cls,
        pieces: Mapping[int, Piece],
        turn: Color = Color.WHITE,
        counters: Mapping[Color, KingCounter] | None = None,
        seven: int = 0,
    ) -> "Position":
        """Any set-up position.  A counter of a side without men is dropped (that side is not
        bound by Art. 17); impossible things raise `FenError`."""
        boards = {(c, k): 0 for c in Color for k in (False, True)}
        for sq, piece in pieces.items():
            if not (isinstance(sq, int) and 1 <= sq <= 50):
                raise FenError(f"square {sq!r} is not on the board (1-50)")
            if not piece.king and sq in promotion_row(piece.color is Color.WHITE):
                raise FenError(f"a {piece.color} man on {sq} stands on its far row and would have been "
                               f"crowned (Art. 8): write K{sq}")
            boards[(piece.color, piece.king)] |= BIT[sq]
        wm, wk = boards[(Color.WHITE, False)], boards[(Color.WHITE, True)]
        bm, bk = boards[(Color.BLACK, False)], boards[(Color.BLACK, True)]
        packed = {Color.WHITE: 0, Color.BLACK: 0}
        for colour, counter in (counters or {}).items():
            if not counter.count:
                continue
            if not 1 <= counter.count <= 3:
                raise FenError(f"a three-move count is 0-3, not {counter.count} (Art. 17)")
            piece = pieces.get(counter.square)
            if piece is None or not piece.king or piece.color is not colour:
                raise FenError(f"the {colour} three-move count names square {counter.square}, "
                               f"where no {colour} king stands")
            if (wm if colour is Color.WHITE else bm):
                packed[colour] = (BIT_INDEX[counter.square] << 2) | counter.count
        strong = movegen.seven_move_side(wm, wk, bm, bk)
        if seven and not strong:
            raise FenError(f"a seven-move count ({seven}) needs two kings against one king, no men (Art. 18)")
        if not 0 <= seven <= 7:
            raise FenError(f"a seven-move count is 0-7, not {seven} (Art. 18)")
        state = (wm, wk, bm, bk, turn is Color.WHITE, packed[Color.WHITE], packed[Color.BLACK],
                 seven if strong else -1)
        return cls(state)

    # -- what stands where ----------------------------------------------------------------------

    @property
    def turn(self) -> Color:
        return Color.WHITE if self._state[4] else Color.BLACK

    def piece_at(self, square: int) -> Piece | None:
        wm, wk, bm, bk = self._state[:4]
        b = BIT[square]
        if b & wm:
            return Piece(Color.WHITE)
        if b & wk:
            return Piece(Color.WHITE, True)
        if b & bm:
            return Piece(Color.BLACK)
        if b & bk:
            return Piece(Color.BLACK, True)
        return None

    def pieces(self) -> dict[int, Piece]:
        """Every occupied square and its piece, ascending."""
        out = {}
        for (bb, piece) in zip(self._state[:4], (Piece(Color.WHITE), Piece(Color.WHITE, True),
                                                  Piece(Color.BLACK), Piece(Color.BLACK, True))):
            for sq in squares_of(bb):
                out[sq] = piece
        return dict(sorted(out.items()))

    def squares(self, color: Color, king: bool | None = None) -> list[int]:
        """The squares of one side's men (king=False), kings (True) or all pieces (None)."""
        wm, wk, bm, bk = self._state[:4]
        men, kings = (wm, wk) if color is Color.WHITE else (bm, bk)
        bb = men if king is False else kings if king else men | kings
        return squares_of(bb)

    def counter(self, color: Color) -> KingCounter | None:
        """The side's three-move counter (Art. 17), or None when it stands at zero."""
        packed = self._state[5] if color is Color.WHITE else self._state[6]
        if not packed:
            return None
        return KingCounter(SQUARE_OF_INDEX[packed >> 2], packed & 3)

    @property
    def seven_move_count(self) -> int | None:
        """Moves made by the side with two kings against one (Art. 18), None when not running."""
        seven = self._state[7]
        return None if seven < 0 else seven

    @property
    def seven_move_side(self) -> Color | None:
        """The side with two kings against one lone king, if that is the material."""
        strong = movegen.seven_move_side(*self._state[:4])
        return None if not strong else Color.WHITE if strong > 0 else Color.BLACK

    # -- moves ----------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """All legal moves, captures with every landing square and the pieces they take."""
        return [self._to_move(m) for m in movegen.legal_moves(self._state)]

    def successors(self) -> list[tuple[Move, "Position"]]:
        """Every legal move with the position after it, working the moves out once."""
        return [(self._to_move(raw), Position(movegen.apply(self._state, raw)))
                for raw in movegen.legal_moves(self._state)]

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def play(self, move: Move) -> "Position":
        """The position after a legal move (counters and promotion included)."""
        raw = self._find_raw(move)
        if raw is None:
            raise IllegalMoveError(f"{move.long_text()} is not legal here: {self.why_illegal(move)}")
        return Position(movegen.apply(self._state, raw))

    def play_text(self, text: str) -> "Position":
        return self.play(self.parse_move(text))

    def _find_raw(self, move: Move) -> movegen.RawMove | None:
        fi, ti = BIT_INDEX[move.from_square], BIT_INDEX[move.to_square]
        cap = sum(BIT[s] for s in move.captured)
        for raw in movegen.legal_moves(self._state):
            if raw[0] == fi and raw[1] == ti and raw[2] == cap:
                return raw
        return None

    def _to_move(self, raw: movegen.RawMove) -> Move:
        fi, ti, cap, path = raw
        squares = (SQUARE_OF_INDEX[fi],) + tuple(SQUARE_OF_INDEX[i] for i in path)
        if not cap:
            return Move(squares[0], squares[-1], squares)
        taken = set(squares_of(cap))
        order = []
        for a, b in zip(squares, squares[1:]):
            _, between = line_between(a, b)
            order.extend(s for s in between if s in taken)
        return Move(squares[0], squares[-1], squares, tuple(order))

    def move_text(self, move: Move, legal: Iterable[Move] | None = None) -> str:
        """PDN text: ``32-28``, ``19x30``, or ``47x38x29`` when the short form is ambiguous."""
        others = self.legal_moves() if legal is None else legal
        ambiguous = any(m.from_square == move.from_square and m.to_square == move.to_square
                        and m != move for m in others)
        return move.long_text() if ambiguous else move.short_text()

    def parse_move(self, text: str) -> Move:
        """The legal move a PDN move text names.  Raises InvalidMoveError for text that is not a
        move, IllegalMoveError (listing the legal moves) and AmbiguousMoveError (listing the
        candidates written in full)."""
        clean = text.strip().rstrip("!?+*#")
        if not _MOVE_TEXT.match(clean):
            raise InvalidMoveError(f"{text!r} is not a move: write 32-28, 19x30 or 47x38x29")
        squares = [int(s) for s in re.findall(r"\d+", clean)]
        if any(not 1 <= s <= 50 for s in squares):
            raise InvalidMoveError(f"{text!r}: squares are numbered 1-50")
        legal = self.legal_moves()
        frm, to, via = squares[0], squares[-1], squares[1:-1]
        candidates = [m for m in legal if m.from_square == frm and m.to_square == to]
        if via and len(candidates) > 1:
            candidates = [m for m in candidates if _follows(m.path, via)]
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            probe = Move(frm, to, tuple(squares) if len(squares) > 2 else (frm, to))
            raise IllegalMoveError(
                f"{clean} is illegal: {self.why_illegal(probe)}; legal moves: "
                f"{self.describe_moves(legal)}")
        raise AmbiguousMoveError(
            f"{clean} is ambiguous: write one of {', '.join(m.long_text() for m in candidates)}")

    def describe_moves(self, moves: list[Move] | None = None) -> str:
        moves = self.legal_moves() if moves is None else moves
        if not moves:
            return "none"
        return ", ".join(self.move_text(m, moves) for m in moves)

    def why_illegal(self, move: Move) -> str:
        """Which rule a move from move.from_square to move.to_square breaks, with its article."""
        over = self.outcome()
        if over is not None:
            return f"the game is over ({over})"
        frm, to = move.from_square, move.to_square
        piece = self.piece_at(frm)
        me = self.turn
        if piece is None:
            return f"there is no piece on {frm}"
        if piece.color is not me:
            return f"the piece on {frm} is {piece.color}'s and it is {me}'s move (Art. 27a)"
        men, kings, omen, okings, blocked = movegen.sides(self._state)
        legal = movegen.legal_moves(self._state)
        fi, ti = BIT_INDEX[frm], BIT_INDEX[to]
        if legal and legal[0][2]:
            best = self._to_move(legal[0])
            try:
                route = movegen.capture_route(men, kings, omen, okings, fi, ti)
            except CaptureSearchError:
                return f"only a capture of the highest value is legal (Art. 10, 11): {self.move_text(best)}"
            if route is None:
                return (f"a capture is compulsory (Art. 10): {self.move_text(best)} takes "
                        f"{len(best.captured)}")
            raw, is_king = route
            top = movegen.capture_value(legal[0][2], okings)
            if movegen.capture_value(raw[2], okings) < top:
                return (f"only a capture of the highest value is legal (Art. 11): "
                        f"{self.move_text(best)} takes {_describe_taken(best, self)}")
            if not is_king:
                return f"at equal value a king must capture (Art. 12): {self.move_text(best)}"
            return f"{move.long_text()} does not follow a capture route"
        if blocked and BIT[frm] == blocked:
            return (f"the king on {frm} has made three simple moves in a row and may not make a "
                    f"fourth while its side has men (Art. 17)")
        kind = "king" if piece.king else "man"
        if not legal:
            return f"{me} has no legal move (Art. 20f)"
        return f"no legal move takes the {kind} on {frm} to {to}"

    # -- end of the game ------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """The end of the game by the rules, or None while it goes on (RULES.md "End of the game")."""
        state = self._state
        men, kings, omen, okings, _ = movegen.sides(state)
        me = self.turn
        if not (men | kings):
            return Outcome(Termination.NO_PIECES, me.other)
        legal = movegen.legal_moves(self._state)
        if not legal:
            return Outcome(Termination.NO_LEGAL_MOVE, me.other)
        if not men and not omen and kings.bit_count() == 1 and okings.bit_count() == 1:
            if legal[0][2]:
                return None  # the side to move takes the other king
            if all(movegen.captures(*movegen.sides(movegen.apply(state, m))[:4]) for m in legal):
                return None  # every move loses the king (only kings on 5 and 46)
            return Outcome(Termination.KING_VS_KING, None)
        seven = state[7]
        if seven >= 7:
            strong = movegen.seven_move_side(*state[:4])
            if (strong > 0) == state[4]:
                return Outcome(Termination.SEVEN_MOVE_RULE, None)
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    # -- text -----------------------------------------------------------------------------------

    def fen(self) -> str:
        """PDN FEN with our counter extension (see `rules.fen`); plain when counters are zero."""
        counters = {c: k for c in Color if (k := self.counter(c)) is not None}
        return fenio.write(fenio.FenData(self.turn, self.pieces(), counters, self._state[7] if self._state[7] > 0 else 0))

    def ascii(self) -> str:
        """The board as white sees it: ``w``/``b`` men, ``W``/``B`` kings, ``.`` empty dark squares."""
        pieces = self.pieces()
        lines = []
        for r in range(10):
            cells = []
            for c in range(10):
                if (r + c) % 2 == 0:
                    cells.append(" ")
                else:
                    sq = r * 5 + c // 2 + 1
                    p = pieces.get(sq)
                    cells.append(p.symbol() if p else ".")
            lines.append(" ".join(cells))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"


def _follows(path: tuple[int, ...], via: list[int]) -> bool:
    """True if the landing squares `via` appear in order along `path`."""
    it = iter(path[1:-1])
    return all(any(s == v for s in it) for v in via)


def _describe_taken(move: Move, position: Position) -> str:
    kings = sum(1 for s in move.captured if (p := position.piece_at(s)) and p.king)
    men = len(move.captured) - kings
    parts = []
    if kings:
        parts.append(f"{kings} king{'s' if kings > 1 else ''}")
    if men:
        parts.append(f"{men} m{'e' if men > 1 else 'a'}n")
    return " and ".join(parts)
