"""The rules core against the reference data (tests/data/README.md names the sources)."""

from __future__ import annotations

import json

import pytest

from rules import Color, Position
from rules.pdn import read_file
from rules.perft import perft
from tests.conftest import DATA
from tests.helpers import move_set


@pytest.mark.parametrize("depth", range(1, 7))
def test_perft_from_the_start_counts_each_capture_once(perft_table, depth):
    """perft_unique from the Frisian start (Art. 4, 6 start; RULES.md: duplicates merged)."""
    assert perft(Position.start(), depth) == perft_table["perft_unique"][str(depth)]


def test_perft_of_the_alternative_start(fixtures):
    """Manual §2c: five men each on 1-5 and 46-50."""
    position = Position.alternative_start()
    assert position.fen() == "W:W46,47,48,49,50:B1,2,3,4,5"
    nodes = fixtures["perft_frysk_initial"]["nodes"]
    for depth in range(1, 6):
        assert perft(position, depth) == nodes[depth - 1]


def _perft_series(position: Position, depths: int) -> list[int]:
    """perft 1..depths, generating the root's moves once (they are costly in the extreme cases)."""
    children = [position.play(m) for m in position.legal_moves()]
    return [len(children)] + [sum(perft(c, d - 1) for c in children) for d in range(2, depths + 1)]


KING_POSITIONS = range(11)


@pytest.mark.parametrize("index", KING_POSITIONS)
def test_perft_of_king_rich_positions(fixtures, index):
    """Long king and man captures: Art. 9 (flying kings), 13 (squares crossed again, even the
    start square), 14 (taken pieces block).  Index 2 is the extreme case: a man on 50 facing 28
    pieces has 3.9 million distinct partial captures; it takes about half a minute."""
    case = fixtures["perft_unique_king_positions"]["positions"][index]
    position = Position.from_fen(case["fen"])
    assert _perft_series(position, len(case["nodes"])) == case["nodes"], case["fen"]


def _reference_lines():
    with open(DATA / "movegen-reference.jsonl") as f:
        return [json.loads(line) for line in f]


def test_legal_moves_agree_with_every_reference_position():
    """3,300 positions: from, to and captured squares as Scan 3.1 and py-draughts give them."""
    lines = _reference_lines()
    assert len(lines) == 3300
    wrong = []
    for case in lines:
        expected = {(m["from"], m["to"], tuple(sorted(m["captured"]))) for m in case["moves"]}
        if move_set(Position.from_fen(case["fen"])) != expected:
            wrong.append(case["fen"])
    assert not wrong, f"{len(wrong)} positions differ, first: {wrong[:3]}"


@pytest.mark.parametrize("index", range(12))
def test_capture_rule_fixture(fixtures, index):
    """Hand-checked captures: value order (Art. 11), king priority (Art. 12), promotion only at
    the end (Art. 8), revisiting squares (Art. 13)."""
    case = fixtures["capture_rule_tests"][index]
    position = Position.from_fen(case["fen"])
    expected = {(m["from"], m["to"], tuple(sorted(m["captured"]))) for m in case["expected_unique_moves"]}
    assert move_set(position) == expected, case["note"]
    for m in case["expected_unique_moves"]:
        move = next(x for x in position.legal_moves()
                    if (x.from_square, x.to_square, tuple(sorted(x.captured)))
                    == (m["from"], m["to"], tuple(sorted(m["captured"]))))
        after = position.play(move)
        assert _piece_set(after) == _piece_set(Position.from_fen(m["result_fen"])), case["note"]


def _piece_set(position: Position):
    return (position.turn, frozenset(position.pieces().items()))


def test_three_move_rule_at_the_end_of_a_real_game(fixtures):
    """Art. 17: white's king 26-48, 48-37, 37-19 while white has a man: it is blocked."""
    case = fixtures["three_move_rule_test"]
    position = Position.start()
    for text in case["moves"].split():
        position = position.play_text(text)
    assert position.fen() == "W:WK19''',27:BK49"
    assert {position.move_text(m) for m in position.legal_moves()} == set(case["expected_legal_moves"])
    lidraughts = Position.from_fen(case["final_fen_with_lidraughts_kingmove_suffix"])
    assert lidraughts == position
    assert position.counter(Color.WHITE).blocked
    assert position.counter(Color.BLACK) is None  # black has no men: not bound


def test_every_lidraughts_game_is_legal():
    games = read_file(str(DATA / "lidraughts-frisian.pdn"))
    assert len(games) == 15
    for read in games:
        assert read.problem is None, read.problem
    assert sum(len(r.game.moves) for r in games) > 900


def test_every_selfplay_game_is_legal_and_ends_as_its_result_tag_says():
    """Art. 18, 20, 21: the end by the rules matches every Result tag."""
    games = read_file(str(DATA / "selfplay.pdn"))
    assert len(games) == 62
    terminations = set()
    for read in games:
        assert read.problem is None, read.problem
        outcome = read.game.position.outcome()
        assert outcome is not None, read.game.tags
        assert outcome.result() == read.tags_seen["Result"], read.game.tags
        terminations.add(outcome.termination.value)
    assert {"no pieces", "no legal move", "seven-move rule", "one king against one king"} <= terminations
