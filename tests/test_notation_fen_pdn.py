"""FEN (RULES.md "Notation", manual §3a), move text (Art. 22, manual §3), PDN games and §3b."""

from __future__ import annotations

import pytest

from rules import (AmbiguousMoveError, FenError, IllegalMoveError, InvalidMoveError, KingCounter,
                   Position, WHITE, BLACK)
from rules.abbreviated import abbreviated
from rules.game import Game
from rules.pdn import read_file, read_games, write_game, write_games
from tests.conftest import DATA


# -- FEN -------------------------------------------------------------------------------------

@pytest.mark.parametrize("fen", [
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
    "B:WK5,31:B1,K46",
    "W:WK1',45:B6,K30'''",
    "B:WK5,K7:BK46:S3",
    "W:W:B1",
])
def test_fen_round_trips(fen):
    assert Position.from_fen(fen).fen() == fen


def test_fen_ranges_and_plain_fen_means_zero_counters():
    p = Position.from_fen("W:W31-50:B1-20")
    assert p == Position.start()
    assert p.counter(WHITE) is None and p.counter(BLACK) is None and p.seven_move_count is None


def test_fen_reads_the_lidraughts_king_move_suffix():
    p = Position.from_fen("W:W27,K19:BK49:H0:F62:+0+319")
    assert p.counter(WHITE) == KingCounter(19, 3) and p.counter(BLACK) is None


@pytest.mark.parametrize("fen, words", [
    ("X:W1:B2", "side to move"),
    ("W:W31,31:B1", "given twice"),
    ("W:W51:B1", "1-50"),
    ("W:W3:B20", "far row"),
    ("W:W31'':B20", "single king"),
    ("W:WK31'''':B20", "at most three"),
    ("W:WK31',K32':B20", "two white kings"),
    ("W:WK31:B20:S2", "two kings against one"),
    ("W:W31:B20:Q7", "cannot read"),
    ("", "empty"),
])
def test_bad_fen_says_what_is_wrong(fen, words):
    with pytest.raises(FenError, match=words):
        Position.from_fen(fen)


# -- Move text (Art. 22) ---------------------------------------------------------------------

def test_simple_moves_and_captures_are_written_with_dash_and_x():
    p = Position.from_fen("W:W32,45:B27")
    assert p.describe_moves() == "32x21"
    assert Position.start().move_text(Position.start().parse_move("32-28")) == "32-28"


AMBIGUOUS = "B:WK4,K21,K26,K33,36,K39,K44,46:B3,14,24,31,K34,41,42,K47"  # from the reference set


def test_ambiguous_capture_is_written_with_its_landing_squares():
    """34x16 can take 21 and 33, or 21 and 39: both are written in full (Art. 22, manual §3)."""
    p = Position.from_fen(AMBIGUOUS)
    texts = {p.move_text(m): set(m.captured) for m in p.legal_moves()}
    long_forms = {t: c for t, c in texts.items() if t.count("x") > 1}
    assert sorted(long_forms.values(), key=sorted) == [{21, 33}, {21, 39}]
    for text, captured in long_forms.items():
        assert text.startswith("34x") and text.endswith("x16")
        assert set(p.parse_move(text).captured) == captured
    assert all(t.count("x") == 1 for t in texts if t not in long_forms)


def test_parse_rejects_an_illegal_move_and_lists_the_legal_ones():
    with pytest.raises(IllegalMoveError) as e:
        Position.start().parse_move("31-28")
    assert "31-26" in str(e.value) and "35-30" in str(e.value)


def test_parse_names_the_article_a_wrong_move_breaks():
    with pytest.raises(IllegalMoveError, match="compulsory .Art. 10."):
        Position.from_fen("W:W32,45:B27").parse_move("45-40")
    with pytest.raises(IllegalMoveError, match="Art. 11"):
        Position.from_fen("W:W28:B22,K23").parse_move("28x17")
    with pytest.raises(IllegalMoveError, match="Art. 12"):
        Position.from_fen("W:W14,K49:B29,37,9,15,34,K7,K1,K41").parse_move("14x3")
    with pytest.raises(IllegalMoveError, match="Art. 17"):
        Position.from_fen("W:WK28''',46:B1").parse_move("28-22")
    with pytest.raises(IllegalMoveError, match="Art. 27a"):
        Position.start().parse_move("19-23")


def test_parse_rejects_text_that_is_not_a_move():
    for bad in ("32+28", "e2-e4", "32", "99-98"):
        with pytest.raises(InvalidMoveError):
            Position.start().parse_move(bad)


def test_parse_ambiguous_short_form_lists_the_full_forms():
    with pytest.raises(AmbiguousMoveError, match=r"34x\d+x16, 34x\d+x16"):
        Position.from_fen(AMBIGUOUS).parse_move("34x16")


# -- Games and PDN ---------------------------------------------------------------------------

def test_game_push_pop_history_and_result():
    g = Game()
    for t in ("32-28", "19-23", "28x19", "14x23"):
        g.push_text(t)
    assert g.move_texts() == ["32-28", "19-23", "28x19", "14x23"]
    assert g.pop().short_text() == "14x23" and g.ply == 3
    assert g.result() == "*"
    g.declare("2-0")
    assert g.result() == "1-0"


def test_game_over_by_the_rules_takes_no_more_moves():
    g = Game(start=Position.from_fen("W:W28:B23"))
    g.push_text("28x19")
    assert g.result() == "1-0"
    with pytest.raises(IllegalMoveError, match="over"):
        g.push(Position.start().legal_moves()[0])


def test_pdn_written_reads_back_identically_with_comments_setup_and_several_games():
    g1 = Game(tags={"Event": "Club night", "White": "Sietse", "Black": "Anke", "Date": "2026.11.21"})
    g1.comment("opening comment")
    for t in ("32-28", "19-23", "28x19"):
        g1.push_text(t)
    g1.comment("forced")
    g1.declare("1-0")
    g2 = Game(start=Position.from_fen("B:WK5,K7:BK46"))
    g2.push_text("46-41")
    text = write_games([g1, g2])
    back = [r.game for r in read_games(text)]
    assert len(back) == 2
    assert write_games(back) == text
    assert back[0].comments == {0: ["opening comment"], 3: ["forced"]}
    assert back[1].start == g2.start and '[FEN "B:WK5,K7:BK46"]' in text and '[SetUp "1"]' in text
    assert '[GameType "40"]' in text


def test_pdn_reads_draughts_result_spellings_and_tags_without_spaces():
    text = '[Event"x"]\n[Result "2-0"]\n1. 32-28 19-23 2-0\n\n[Result "1-1"]\n1. 32-28 *\n'
    games = list(read_games(text))
    assert games[0].game.result() == "1-0" and games[0].game.tags["Event"] == "x"
    assert games[1].game.result() == "1/2-1/2"


def test_pdn_reports_the_first_illegal_move_with_its_line():
    text = '[Event "bad"]\n\n1. 32-28 19-23\n2. 28-22 1-0\n'
    read = next(read_games(text))
    assert read.problem.line == 4 and read.problem.move == "28-22"
    assert "capture is compulsory" in read.problem.message


def test_every_bundled_game_round_trips():
    for name in ("lidraughts-frisian.pdn", "selfplay.pdn"):
        for read in read_file(str(DATA / name)):
            text = write_game(read.game)
            assert write_game(next(read_games(text)).game) == text


def test_pdn_we_write_reads_in_pydraughts():
    """Another program reads our PDN: pydraughts (a peer, used only in tests)."""
    pdn_mod = pytest.importorskip("draughts.PDN")
    reader_cls = getattr(pdn_mod, "PDNReader")
    import tempfile, os
    games = [r.game for r in read_file(str(DATA / "lidraughts-frisian.pdn"))][:3]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "ours.pdn")
        with open(path, "w") as f:
            f.write(write_games(games))
        reader = reader_cls(filename=path)
        assert len(reader.games) == 3
        for ours, theirs in zip(games, reader.games):
            assert len(theirs.moves) == len(ours.moves)
            assert theirs.game_ending == ours.result()
            assert theirs.variant == "frisian"


# -- Manual §3b abbreviated notation ---------------------------------------------------------

def test_manual_3b_abbreviated_notation_leaves_out_forced_moves_and_brackets_black():
    g = Game(start=Position.from_fen("W:W28,34,38,39,47:B11,13,14,16,17,24"))
    for t in "28-23 24x42 23x3 42-48 3x6 48x46 6x5".split():
        g.push_text(t)
    assert abbreviated(g) == "1. 23 2. 3 (48) 3. 6 4. 5 *"


@pytest.mark.parametrize("seconds", [float("inf"), float("nan"), 1e300, -1e300])
def test_a_time_no_clock_can_show_is_left_out_of_the_pdn_not_a_traceback(seconds):
    """Issue 19, item 4: a recorded time the PDN cannot show (infinite, 1e300) never stops the
    scoresheet from being written; the move and the other times are kept."""
    game = Game()
    game.push_text("32-28")
    game.times[game.ply] = seconds
    game.push_text("19-23")
    game.times[game.ply] = 30.0
    text = write_game(game)
    assert "1. 32-28" in text and "19-23" in text
    assert text.count("[%time") == 1 and "[%time +0:00:30]" in text
    assert read_games(text).__next__().game.moves == game.moves


@pytest.mark.parametrize("fen", ["W:S²", "B:s²8", "W:S1²", "W:S" + "1" * 5000, "W:W" + "1" * 5000,
                                 "W:W31:BK" + "2" * 5000, "W:W31:B1-" + "9" * 5000, "W:W٣:B20",
                                 "W:W31:B19:+1" + "1" * 5000 + "+0", "W:W31:B19:F²"])
def test_every_bad_fen_is_a_fen_error_that_names_the_fen(fen):
    """Issue 19, item 6: FEN text that is not a position raises `FenError` (a ValueError),
    whose message names the FEN (cut short when long), never a bare ValueError."""
    with pytest.raises(FenError) as raised:
        Position.from_fen(fen)
    message = str(raised.value)
    assert message.startswith("FEN ") and fen[:12] in message and len(message) < 300


def test_one_bad_game_does_not_stop_the_reader():
    """Issue 19, item 6: `read_games` records each game's problem and goes on with the next."""
    text = ('[Event "bad fen"]\n[SetUp "1"]\n[FEN "W:S²"]\n\n1. 32-28 *\n\n'
            '[Event "long clock"]\n\n1. 32-28 {[%time +' + "1" * 5000 + ':00:00]} 19-23 *\n\n'
            '[Event "good"]\n\n1. 32-28 19-23 *\n')
    games = list(read_games(text))
    assert [g.game.tags["Event"] for g in games] == ["bad fen", "long clock", "good"]
    assert games[0].problem is not None and "W:S²" in games[0].problem.message
    assert games[1].problem is None and len(games[1].game.moves) == 2
    assert games[2].problem is None and len(games[2].game.moves) == 2


def test_a_tag_value_with_a_line_break_is_written_on_one_line():
    """Issue 19, item 9: a tag value is one line of PDN; a line break in it (a name typed with
    Enter, a pasted text) is written as a space, never as a broken tag or a forged one."""
    game = Game(tags={"White": 'Jansen\n[Result "1-0"]', "Event": "Club\r\nnight\tA"})
    game.push_text("32-28")
    text = write_game(game)
    header = text.split("\n\n")[0].splitlines()
    assert all(line.startswith("[") and line.endswith('"]') for line in header), header
    assert sum(line.startswith("[Result ") for line in header) == 1
    [read] = list(read_games(text))
    assert read.problem is None and read.game.result() == "*"
    assert read.game.tags["White"] == 'Jansen [Result "1-0"]'
    assert read.game.tags["Event"] == "Club night A"
