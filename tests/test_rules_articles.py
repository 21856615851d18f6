"""Every rule of RULES.md, named by its article or manual section."""

from __future__ import annotations

import itertools

import pytest

from rules import BLACK, WHITE, KingCounter, Piece, Position, Termination
from rules.movegen import capture_value
from rules.squares import Direction, column, neighbour, ray, row, square_at
from tests.helpers import move_set, texts


# -- Board and pieces (Art. 1-6) -------------------------------------------------------------

def test_art_1_to_5_numbering_46_at_whites_left_and_dark_corner():
    assert (row(46), column(46)) == (9, 0)
    assert (row(1), column(1)) == (0, 1)
    assert (row(5), column(5)) == (0, 9)
    assert square_at(9, 0) == 46 and square_at(9, 1) is None
    assert sorted(square_at(r, c) for r in range(10) for c in range(10) if square_at(r, c)) == list(range(1, 51))


def test_straight_neighbours_two_columns_or_two_rows_apart():
    """RULES.md: 34x32 over 33 (same row), 43x23 over 33 (same column)."""
    assert neighbour(34, Direction.LEFT) == 33 and neighbour(33, Direction.LEFT) == 32
    assert ray(43, Direction.UP)[:2] == (33, 23)
    assert move_set(Position.from_fen("W:W34:B33")) == {(34, 32, (33,))}
    assert move_set(Position.from_fen("W:W43:B33")) == {(43, 23, (33,))}


def test_art_4_6_start_position_white_moves_first():
    p = Position.start()
    assert p.turn is WHITE
    assert p.squares(WHITE) == list(range(31, 51)) and p.squares(BLACK) == list(range(1, 21))
    assert texts(p) == {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}


def test_manual_2c_alternative_start():
    p = Position.alternative_start()
    assert p.squares(WHITE) == [46, 47, 48, 49, 50] and p.squares(BLACK) == [1, 2, 3, 4, 5]


# -- Moves (Art. 7-9, 13, 14) ----------------------------------------------------------------

def test_art_7_man_moves_one_square_diagonally_forward_only():
    assert texts(Position.from_fen("W:W28:B1")) == {"28-22", "28-23"}
    assert texts(Position.from_fen("B:W50:B23")) == {"23-28", "23-29"}


def test_art_9_king_moves_any_distance_diagonally_never_straight():
    moves = move_set(Position.from_fen("W:WK28:B1"))
    targets = {to for _, to, _ in moves}
    assert targets == {22, 17, 11, 6, 23, 19, 14, 10, 5, 32, 37, 41, 46, 33, 39, 44, 50}
    assert 18 not in targets and 38 not in targets and 27 not in targets  # straight lines


def test_art_9_king_stops_before_a_piece():
    targets = {to for frm, to, _ in move_set(Position.from_fen("W:WK28,19:B1")) if frm == 28}
    assert 23 in targets and not {19, 14, 10, 5} & targets


def test_art_10_capturing_is_compulsory():
    p = Position.from_fen("W:W32,45:B27")
    assert texts(p) == {"32x21"}


@pytest.mark.parametrize("direction", list(Direction))
def test_art_7_man_captures_in_all_eight_directions(direction):
    """A man jumps an adjacent enemy piece onto the empty square right behind it, any direction."""
    start = 28
    over = neighbour(start, direction)
    land = neighbour(over, direction)
    p = Position.setup({start: Piece(WHITE), over: Piece(BLACK)})
    assert move_set(p) == {(start, land, (over,))}


def test_art_7_man_must_go_on_capturing():
    assert move_set(Position.from_fen("W:W37:B32,22")) == {(37, 17, (22, 32))}


def test_art_9_king_captures_from_a_distance_and_lands_anywhere_behind():
    p = Position.from_fen("W:WK46:B28")
    assert move_set(p) == {(46, 23, (28,)), (46, 19, (28,)), (46, 14, (28,)), (46, 10, (28,)), (46, 5, (28,))}


def test_art_9_king_captures_straight_along_a_row_and_a_column():
    assert move_set(Position.from_fen("W:WK41:B43")) == {(41, 44, (43,)), (41, 45, (43,))}
    assert move_set(Position.from_fen("W:WK41:B21")) == {(41, 11, (21,)), (41, 1, (21,))}


def test_art_13_a_piece_is_never_jumped_twice_but_squares_may_be_crossed_again():
    # The loop capture through the start square ends on 24 (fixture: 2 routes, 1 move).
    p = Position.from_fen("W:W13:B8,9,19,3")
    assert move_set(p) == {(13, 24, (3, 8, 9, 19))}


def test_art_14_captured_pieces_stay_and_block_until_the_capture_ends():
    # King on 46 takes 41 (lands 36), then along 36-27-18 takes 27 and may not cross 41 again;
    # the piece on 41, already taken, blocks the way back over the 46-5 diagonal.
    p = Position.from_fen("W:WK50:B44,33,39")
    for _, _, captured in move_set(p):
        assert len(captured) == len(set(captured))
    king = Position.from_fen("W:WK30:BK9,19,21,K22,K26,29,37,38,K46,K47")
    assert move_set(king) == {(30, t, (9, 19, 21, 22, 26, 29, 37, 38)) for t in (1, 11, 36)}


def test_art_8_promotion_only_when_the_move_ends_on_the_far_row():
    passing = Position.from_fen("W:W13:B8,9,19,3").play_text("13x24")
    assert passing.piece_at(24) == Piece(WHITE, king=False)
    ending = Position.from_fen("W:W13:B8,3").play_text("13x4")
    assert ending.piece_at(4) == Piece(WHITE, king=True)
    simple = Position.from_fen("W:W7:B45").play_text("7-1")
    assert simple.piece_at(1) == Piece(WHITE, king=True)
    black = Position.from_fen("B:W35:B44").play_text("44-50")
    assert black.piece_at(50) == Piece(BLACK, king=True)


# -- Which capture is legal (Art. 11, 12) ----------------------------------------------------

def _value(men: int, kings: int) -> int:
    taken = (1 << (men + kings)) - 1
    return capture_value(taken, taken >> men << men)


@pytest.mark.parametrize("better, worse", [
    ((0, 1), (1, 0)),   # 1 king beats 1 man
    ((2, 0), (0, 1)),   # 2 men beat 1 king
    ((0, 2), (3, 0)),   # 2 kings beat 3 men
    ((6, 0), (0, 3)),   # 6 men beat 3 kings
    ((0, 3), (5, 0)),   # 3 kings beat 5 men (manual §2g-II: three kings are worth 5 1/2 men)
    ((2, 1), (0, 2)),   # 1 king + 2 men beat 2 kings (decision: fewer kings on a tie)
])
def test_art_11_value_order_of_the_examples(better, worse):
    assert _value(*better) > _value(*worse)


def test_art_11_two_men_beat_one_king_on_the_board():
    # 41x45 takes the men on 42 and 44 along the row; 20x9 would take the king on 14.
    assert move_set(Position.from_fen("W:W20,41:B42,44,K14")) == {(41, 45, (42, 44))}


def test_art_11_two_kings_beat_three_men_on_the_board():
    # 41x25 takes 42, 44 (row) and 35 (column); 20x7 takes the kings on 14 and 8.
    assert move_set(Position.from_fen("W:W20,41:B42,44,35,K14,K8")) == {(20, 7, (8, 14))}


def test_decision_one_king_and_two_men_beat_two_kings():
    """RULES.md decision: the articles do not rank 2 kings against 1 king + 2 men; we take the one
    with fewer kings, as Scan 3.1 and lidraughts do."""
    p = Position.from_fen("W:W20,41:B42,44,K35,K14,K8")
    assert move_set(p) == {(41, 25, (35, 42, 44))}


def test_art_11_a_man_must_take_a_king_rather_than_a_man():
    assert move_set(Position.from_fen("W:W28:B22,K23")) == {(28, 19, (23,))}


def test_art_11_value_beats_king_priority():
    assert move_set(Position.from_fen("W:WK28,39:B22,K34,25")) == {(39, 30, (34,))}


def test_art_12_at_equal_value_the_king_must_capture():
    """Manual §2g-I: man 14 could take one man too, only the king's capture is legal."""
    assert move_set(Position.from_fen("W:W14,K49:B29,37,9,15,34,K7,K1,K41")) == {(49, 19, (29,))}


def test_duplicates_merged_two_routes_one_move():
    p = Position.from_fen("W:W13:B8,9,19,3")
    assert len(p.legal_moves()) == 1


# -- Three-move rule (Art. 17; manual §2h) ---------------------------------------------------

def _after(fen: str, *moves: str) -> Position:
    p = Position.from_fen(fen)
    for m in moves:
        p = p.play_text(m)
    return p


def test_art_17_counter_counts_simple_moves_of_the_same_king_over_the_opponents_moves():
    p = _after("W:WK46,35:B1,2", "46-37", "1-6", "37-46", "2-7")
    assert p.counter(WHITE) == KingCounter(46, 2)
    p = p.play_text("46-37").play_text("6-11")
    assert p.counter(WHITE) == KingCounter(37, 3) and p.counter(WHITE).blocked
    assert texts(p) == {"35-30"}  # the blocked king may not make a fourth simple move


def test_art_17_a_mans_move_releases_the_king():
    p = _after("W:WK46,35:B1,2", "46-37", "1-6", "37-46", "2-7", "46-37", "6-11", "35-30")
    assert p.counter(WHITE) is None


def test_art_17_another_king_starts_its_own_count_at_one():
    p = _after("W:WK46,K50,35:B1,2", "46-37", "1-6", "37-46", "2-7", "50-44")
    assert p.counter(WHITE) == KingCounter(44, 1)


def test_art_17_a_blocked_king_may_still_capture_and_the_capture_releases_it():
    p = Position.from_fen("W:WK46''',35:B23,1")
    assert p.counter(WHITE).blocked
    assert {m.from_square for m in p.legal_moves()} == {46}
    assert all(m.captured == (23,) for m in p.legal_moves())
    p = p.play(p.legal_moves()[0])
    assert p.counter(WHITE) is None


def test_art_17_a_side_with_kings_only_is_not_bound():
    p = _after("W:WK46:B1,2", "46-37", "1-6", "37-46", "2-7", "46-37", "6-11")
    assert p.counter(WHITE) is None
    assert "37-46" in texts(p)


def test_art_17_the_counter_clears_when_the_counted_king_is_captured():
    p = Position.from_fen("B:WK28'',35:B23,1")
    assert p.counter(WHITE) == KingCounter(28, 2)
    p = p.play_text("23x32")
    assert p.counter(WHITE) is None


def test_art_17_art_20f_only_moves_of_a_blocked_king_means_no_legal_move_and_a_loss():
    p = Position.from_fen("W:WK28''',46:B37,41")  # the man on 46 is stuck behind 41 and 37
    assert p.legal_moves() == []
    outcome = p.outcome()
    assert outcome.termination is Termination.NO_LEGAL_MOVE and outcome.winner is BLACK


def test_manual_3a_apostrophes_and_the_blocked_king():
    """Manual §3a: white 45, K1' against black 6, K30''' (blocked): black must play 6-11."""
    p = Position.from_fen("W:W45,K1':B6,K30'''")
    assert p.counter(WHITE) == KingCounter(1, 1) and p.counter(BLACK) == KingCounter(30, 3)
    p = p.play_text("1-12")
    assert texts(p) == {"6-11"}
    for m in ("6-11", "45-40", "11x13"):
        p = p.play_text(m)
    # The manual prints 30x20; the only legal capture is 40x20, the man taking the king straight up.
    assert texts(p) == {"40x20"}


# -- Seven-move rule (Art. 18; manual §2i) ---------------------------------------------------

def test_art_18_two_kings_against_one_draw_after_seven_moves():
    p = Position.from_fen("W:WK1,K2:BK46")
    assert p.seven_move_count == 0 and p.seven_move_side is WHITE
    white = ["1-6", "6-1"]
    black = ["46-41", "41-46"]
    for i in range(7):
        assert p.outcome() is None
        p = p.play_text(white[i % 2])
        assert p.seven_move_count == i + 1
        assert p.outcome() is None  # the lone king's reply to the seventh move is still played
        p = p.play_text(black[i % 2])
    assert p.outcome().termination is Termination.SEVEN_MOVE_RULE
    assert p.outcome().result() == "1/2-1/2"


def test_art_18_the_move_that_creates_the_situation_does_not_count():
    p = Position.from_fen("W:WK4,K50:BK46,33")
    assert p.seven_move_count is None
    p = p.play_text("50x22")
    assert p.seven_move_count == 0
    p = p.play_text("46-41")
    assert p.seven_move_count == 0
    assert p.play_text("4-9").seven_move_count == 1


def test_art_18_count_is_kept_in_the_fen():
    p = Position.from_fen("B:WK7,K5:BK46:S3")
    assert p.seven_move_count == 3 and p.fen() == "B:WK5,K7:BK46:S3"


# -- End of the game (Art. 20, 21) -----------------------------------------------------------

def test_art_20a_no_pieces_loses():
    p = Position.from_fen("W:W28:B23").play_text("28x19")
    assert p.outcome().termination is Termination.NO_PIECES and p.outcome().result() == "1-0"


def test_art_20f_no_legal_move_loses():
    p = Position.from_fen("W:W46:B41,37")
    assert p.outcome().termination is Termination.NO_LEGAL_MOVE and p.outcome().winner is BLACK


def test_art_21_one_king_against_one_king_all_4900_positions():
    """Drawn at once unless the side to move can take the other king, or all its moves lose it:
    that happens only with the kings on 5 and 46."""
    draws = captures = forced = 0
    for w, b in itertools.permutations(range(1, 51), 2):
        for side in "WB":
            p = Position.from_fen(f"{side}:WK{w}:BK{b}")
            outcome = p.outcome()
            if outcome is not None:
                assert outcome.termination is Termination.KING_VS_KING
                draws += 1
            elif p.legal_moves()[0].captured:
                captures += 1
            else:
                forced += 1
                assert {w, b} == {5, 46}
    assert (captures, forced, draws) == (1296, 4, 4900 - 1296 - 4)


def test_art_21_kings_on_5_and_46_the_side_to_move_loses():
    p = Position.from_fen("B:WK5:BK46")
    assert p.outcome() is None
    for m in p.legal_moves():
        after = p.play(m)
        reply = after.legal_moves()
        assert reply and reply[0].captured
        assert after.play(reply[0]).outcome().winner is WHITE


# -- Worked examples (manual §3c) ------------------------------------------------------------

def test_manual_3c_white_to_move_and_win():
    p = Position.from_fen("W:W28,34,38,39,47:B11,13,14,16,17,24")
    for m in "28-23 24x42 23x3 42-48 3x6 48x46 6x5".split():
        p = p.play_text(m)
    assert p.fen() == "B:WK5:BK46"
    # black to move with the kings on 5 and 46: every move loses the king (Art. 21)
    reply = p.play(p.legal_moves()[0])
    final = reply.play(reply.legal_moves()[0])
    assert final.outcome().termination is Termination.NO_PIECES and final.outcome().winner is WHITE
