"""Whole games through the arbiter, as sequences of settled observations.

Every game of tests/data (15 real lidraughts games, 62 engine games with kings and endgame rules)
replayed board by board gives exactly its recorded moves and, where the rules end it, its result,
with no irregularity.  Then each kind of irregularity is injected into those games wherever the
position allows it; every one is caught with the right article, and taking it back resolves it.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from rules import movegen
from rules.arbiter import TAKING_OFF, Arbiter
from rules.bitboard import SQUARE_OF_INDEX, squares_of
from rules.events import (GameOver, Irregularity, IrregularityKind, IrregularityResolved,
                          LookAgain, MovePlayed, TouchMove)
from rules.game import Game
from rules.observation import Observation, Settled, SquareReading
from rules.pdn import read_file
from rules.piece import Piece
from rules.position import Position
from rules.squares import DIAGONALS, neighbour, promotion_row

DATA = Path(__file__).parent / "data"
K = IrregularityKind


def games():
    out = []
    for name in ("lidraughts-frisian.pdn", "selfplay.pdn"):
        for i, read in enumerate(read_file(str(DATA / name))):
            assert read.problem is None
            out.append(pytest.param(read.game, id=f"{name.split('.')[0]}-{i + 1}"))
    return out


ALL_GAMES = games()


def settled(board: dict[int, Piece], lifted=(), time=None, noise: dict | None = None) -> Settled:
    obs = Observation.from_board(board, 0.99, time)
    if noise:
        obs = obs.with_readings(noise)
    return Settled(obs, tuple(lifted), time)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_replayed_game_gives_its_moves_and_result(game: Game):
    arb = Arbiter(Game(start=game.start))
    rng = random.Random(7)
    texts = []
    for i, (move, after) in enumerate(zip(game.moves, game.positions[1:])):
        board = after.pieces()
        noise = None
        if i % 5 == 4:  # one square elsewhere read badly: the move is still clear
            quiet = [sq for sq in range(1, 51) if sq not in move.path and sq not in move.captured]
            sq = rng.choice(quiet)
            noise = {sq: SquareReading(None if board.get(sq) else Piece(after.turn), 0.6)}
        events = arb.observe(settled(board, (move.from_square,) + move.captured, float(i), noise))
        assert not [e for e in events if isinstance(e, (Irregularity, LookAgain, TouchMove))], \
            [str(e) for e in events]
        texts.extend(e.text for e in events if isinstance(e, MovePlayed))
    assert texts == game.move_texts()
    over = game.position.outcome()
    if over is not None:
        assert arb.over == over
        assert arb.game.result() == game.result()
    else:
        assert arb.over is None


# -- injected irregularities -------------------------------------------------------------------

def _forward(piece: Piece, sq: int, backwards: bool = False):
    up = piece.color.is_white != backwards
    dirs = DIAGONALS[:2] if up else DIAGONALS[2:]
    return [n for d in dirs if (n := neighbour(sq, d)) is not None]


def injections(position: Position, rng: random.Random):
    """(expected kind, board) for each irregularity the position allows, one of each at most."""
    board = position.pieces()
    me = position.turn
    legal = position.successors()
    legal_boards = [after.pieces() for _, after in legal]
    capture_due = bool(legal) and legal[0][0].is_capture
    own_men = [sq for sq, p in board.items() if p.color is me and not p.king]
    opp_men = [sq for sq, p in board.items() if p.color is not me and not p.king]
    out = []

    def moved(b, f, t, piece=None):
        b = dict(b)
        p = b.pop(f)
        b[t] = piece or p
        return b

    def first(options):
        rng.shuffle(options)
        return options[0] if options else None

    opp = first([(f, t) for f in opp_men for t in _forward(board[f], f) if t not in board])
    if opp:
        out.append((K.OPPONENT_PIECE, moved(board, *opp)))
    back = first([(f, t) for f in own_men for t in _forward(board[f], f, backwards=True) if t not in board])
    if back:
        out.append((K.UNREACHABLE, moved(board, *back)))
    if capture_due:
        step = first([(f, t) for f in own_men for t in _forward(board[f], f) if t not in board
                      and t not in promotion_row(me.is_white)])
        if step:
            out.append((K.CAPTURE_NOT_TAKEN, moved(board, *step)))
        men, kings, omen, okings, _ = movegen.sides(position._state)
        top = movegen.capture_value(movegen.legal_moves(position._state)[0][2], okings)
        low = first([raw for raw, _ in movegen.all_captures(men, kings, omen, okings)
                     if movegen.capture_value(raw[2], okings) < top])
        if low:
            f, t = SQUARE_OF_INDEX[low[0]], SQUARE_OF_INDEX[low[1]]
            b = moved(board, f, t)
            for s in squares_of(low[2]):
                b.pop(s, None)
            if not b[t].king and t in promotion_row(me.is_white):
                b[t] = Piece(me, True)
            if b not in legal_boards:
                out.append((K.NOT_HIGHEST_VALUE, b))
        move, after = legal[0]
        if len(move.captured) >= 2:
            b = after.pieces()
            keep = move.captured[-1]
            b[keep] = board[keep]
            if b not in legal_boards:
                out.append((K.WRONG_PIECES_TAKEN, b))
        spare = [sq for sq in after.pieces() if after.piece_at(sq).color is not me]
        if spare:
            b = after.pieces()
            b.pop(rng.choice(spare))
            if b not in legal_boards:
                out.append((K.WRONG_PIECES_TAKEN, b))
    crownable = [(m, a) for m, a in legal if not board[m.from_square].king
                 and m.to_square not in promotion_row(me.is_white)]
    if crownable:
        m, a = rng.choice(crownable)
        b = a.pieces()
        b[m.to_square] = Piece(me, True)
        out.append((K.WRONGLY_CROWNED, b))
    counter = position.counter(me)
    if counter and counter.blocked and not capture_due and own_men:
        steps = [t for d in DIAGONALS if (t := neighbour(counter.square, d)) and t not in board]
        if steps:
            out.append((K.FOURTH_KING_MOVE, moved(board, counter.square, steps[0])))
    return out


def test_every_injected_irregularity_is_caught_with_its_article():
    rng = random.Random(2026)
    caught: Counter = Counter()
    for param in ALL_GAMES:
        game: Game = param.values[0]
        arb = Arbiter(Game(start=game.start))
        for i, (move, after) in enumerate(zip(game.moves, game.positions[1:])):
            before = game.positions[i]
            if i % 3 == 0 or before.counter(before.turn):
                for kind, board in injections(before, rng):
                    events = arb.observe(settled(board))
                    if [getattr(e, "reason", None) for e in events] == [TAKING_OFF]:
                        # captured men still standing: the player may be taking them off (Art.
                        # 23); read again unchanged, they are named (a capture that took fewer
                        # than the most, Art. 11, may leave that board too)
                        assert kind in (K.WRONG_PIECES_TAKEN, K.NOT_HIGHEST_VALUE)
                        events = arb.observe(settled(board))
                    found = [e for e in events if isinstance(e, Irregularity)]
                    assert len(found) == 1 and found[0].kind is kind, (
                        f"{param.id} ply {i}: {kind} expected, got {[str(e) for e in events]}")
                    assert found[0].article == kind.article
                    back = arb.observe(settled(before.pieces()))
                    assert [e.how for e in back if isinstance(e, IrregularityResolved)] == ["taken back"]
                    caught[kind] += 1
            events = arb.observe(settled(after.pieces(), (move.from_square,)))
            assert [e.text for e in events if isinstance(e, MovePlayed)] == [before.move_text(move)]
            if any(isinstance(e, GameOver) for e in events):
                break
    # every kind that real games allow turned up, many times over
    for kind in (K.OPPONENT_PIECE, K.UNREACHABLE, K.CAPTURE_NOT_TAKEN, K.NOT_HIGHEST_VALUE,
                 K.WRONG_PIECES_TAKEN, K.WRONGLY_CROWNED, K.FOURTH_KING_MOVE):
        assert caught[kind] >= 5, caught
