"""The command line as scripts use it (README "Command line"): output formats and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import DATA


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "device.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_perft_prints_one_line_per_depth():
    r = run("perft", "4")
    assert r.returncode == 0
    lines = [line.split() for line in r.stdout.splitlines()]
    assert [(int(d), int(n)) for d, n, _ in lines] == [(1, 9), (2, 81), (3, 658), (4, 3874)]
    assert all(float(s) >= 0 for _, _, s in lines)


def test_perft_stops_before_a_depth_that_would_take_too_long():
    """Issue 19: any input in under 15 s.  A typed depth of 12 ran for hours; the count stops,
    with what it has printed and one line saying why, before a depth that the last ones say
    would take it over --max-seconds (default 15)."""
    r = run("perft", "12", "--max-seconds", "0.2")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "over --max-seconds 0.2" in r.stderr and "--max-seconds 0 for no limit" in r.stderr
    lines = [line.split() for line in r.stdout.splitlines()]
    assert 2 <= len(lines) < 12 and [int(d) for d, _, _ in lines] == list(range(1, len(lines) + 1))


def test_perft_from_a_fen():
    r = run("perft", "2", "--fen", "W:W46-50:B1-5")
    assert [line.split()[1] for line in r.stdout.splitlines()] == ["9", "81"]


def test_moves_json_has_from_to_path_captured_text():
    r = run("moves", "W:W13:B8,3", "--json")
    assert r.returncode == 0
    assert json.loads(r.stdout) == [{"from": 13, "to": 4, "path": [13, 2, 4], "captured": [8, 3], "text": "13x4"}]


def test_moves_batch_reads_one_fen_per_line():
    r = run("moves", "--json", "-", stdin="W:W31-50:B1-20\nB:W28:B22,K23\n")
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(out) == 2 and len(out[0]) == 9
    # Art. 12: at equal value the king captures, landing on any square behind the man
    assert [m["text"] for m in out[1]] == ["23x32", "23x37", "23x41", "23x46"]


def test_moves_text_lists_captures_and_the_end_of_the_game():
    r = run("moves", "W:W28:B22,K23")
    assert r.stdout.splitlines() == ["28x19  captures 23"]
    r = run("moves", "W:WK5:BK30")
    assert "game over: 1/2-1/2 (one king against one king)" in r.stdout


@pytest.mark.parametrize("args", [("moves", "Z:W1"), ("perft", "2", "--fen", "W:W31,31:B1"),
                                  ("check", "/no/such/file.pdn")])
def test_bad_input_gets_one_line_and_status_2(args):
    r = run(*args)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("frisian-companion: error:")


@pytest.mark.parametrize("args, config, says", [
    (["--start", "W:W5:B20"], None,
     '--start "W:W5:B20" is not a position: a white man on 5 stands on its far row'),
    (["--start", "W:W31,32:B"], None, '--start "W:W31,32:B" has pieces of one side only'),
    ([], '[game]\nstart = "W:W28:B23:X"\n', 'config.toml: game.start = "W:W28:B23:X" is not a position'),
])
def test_a_bad_start_position_gets_one_line_naming_the_flag_or_key(tmp_path, args, config, says):
    """`run --start FEN` and [game] start: a position that is no FEN, or no game, stops before
    anything is opened or stored."""
    database = tmp_path / "g.sqlite3"
    if config is not None:
        (tmp_path / "config.toml").write_text(config)
        args = ["--config", str(tmp_path / "config.toml"), *args]
    r = run("run", "--database", str(database), "--mock-pins", "--no-speech", *args)
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("frisian-companion: error: ") and says in r.stderr
    assert not database.exists()


def test_batch_error_names_the_line():
    r = run("moves", "--json", "-", stdin="W:W31-50:B1-20\nnonsense\n")
    assert r.returncode == 2 and "line 2" in r.stderr


def test_check_accepts_the_selfplay_games_with_their_results():
    r = run("check", str(DATA / "selfplay.pdn"))
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert len(lines) == 62 and all(" OK " in line for line in lines)
    assert any("seven-move rule" in line for line in lines)


def test_check_accepts_the_lidraughts_games():
    r = run("check", str(DATA / "lidraughts-frisian.pdn"))
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 15


def test_check_reports_an_illegal_move_with_reason_and_candidates(tmp_path):
    f = tmp_path / "bad.pdn"
    f.write_text('[Event "club"]\n[Result "1-0"]\n\n1. 32-28 19-23 2. 28-22 1-0\n')
    r = run("check", str(f))
    assert r.returncode == 1
    assert "ILLEGAL" in r.stdout and "28-22" in r.stdout and "Art. 10" in r.stdout and "28x19" in r.stdout


def test_check_flags_a_result_tag_the_rules_contradict(tmp_path):
    f = tmp_path / "wrong.pdn"
    f.write_text('[Event "club"]\n[SetUp "1"]\n[FEN "W:W28:B23"]\n[Result "0-1"]\n\n1. 28x19 0-1\n')
    r = run("check", str(f))
    assert r.returncode == 1 and "WRONG-RESULT" in r.stdout


def test_replay_replays_the_bundled_game_and_prints_pdn():
    r = run("replay")
    assert r.returncode == 0
    assert "[GameType \"40\"]" in r.stdout and "61. 37-19 44-49" in r.stdout.replace("\n", " ")
    assert "K19''' blocked" in r.stdout


# -- arbitrate: observation files (README "Observation files") ----------------------------------

def _board(position) -> str:
    return "".join(p.symbol() if (p := position.piece_at(sq)) else "." for sq in range(1, 51))


def _observation_file(tmp_path, lines: list[dict]):
    path = tmp_path / "game.jsonl"
    path.write_text("# a game as the camera saw it\n" + "\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_arbitrate_prints_events_and_the_final_pdn(tmp_path):
    from rules.position import Position
    p0 = Position.start()
    p1 = p0.play_text("32-28")
    wrong = _board(p1)[:49] + "."  # white's man on 50 taken off without a capture: irregular
    p2 = p1.play_text("19-23")
    path = _observation_file(tmp_path, [
        {"start": None, "tags": {"White": "Jansen", "Black": "de Vries"}},
        {"board": _board(p1), "time": 5, "lifted": [32]},
        {"board": wrong, "time": 9},
        {"board": _board(p1), "time": 11},
        {"board": _board(p2), "time": 20, "lifted": [19],
         "readings": {"24": {"content": ".", "confidence": 0.6, "alternative": "b"}}},
        {"declare": "1/2-1/2", "reason": "draw agreed"},
    ])
    r = run("arbitrate", str(path))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "line 3: 1. 32-28"
    assert lines[1].startswith("line 4: irregular (Art. 27b)")
    assert lines[2].startswith("line 5: resolved")
    assert "line 6: 1... 19-23" in lines
    assert "line 7: game over: 1/2-1/2 (draw agreed, Art. 21)" in lines
    pdn = r.stdout[r.stdout.index("[Event"):]
    assert '[White "Jansen"]' in pdn and "1. 32-28" in pdn and "19-23" in pdn and pdn.rstrip().endswith("1/2-1/2")


def test_arbitrate_json_events(tmp_path):
    from rules.position import Position
    path = _observation_file(tmp_path, [{"board": _board(Position.start().play_text("34-30"))}])
    r = run("arbitrate", "--json", str(path))
    events = [json.loads(line) for line in r.stdout.splitlines()]
    assert [e["event"] for e in events] == ["MovePlayed", "CountersChanged"]
    assert events[0]["text"] == "1. 34-30"
    assert all(e["line"] == 2 for e in events)


@pytest.mark.parametrize("line, says", [
    ('{"board": "bbb"}', "line 2: \"board\": a board text has 50 squares, not 3"),
    ('{"board": 5}', "line 2: \"board\" is a string of 50 symbols"),
    ('not json', "line 2: not JSON"),
    ('{"board": "' + "." * 50 + '", "lifted": [51]}', "line 2: \"lifted\": 51 is not a square (1-50)"),
    ('{"board": "' + "." * 50 + '", "placed": 7}', "line 2: \"placed\" is a list of squares"),
    ('{"board": "' + "." * 50 + '", "colour": 1}', "line 2: unknown key 'colour'"),
    ('{"declare": "1-0", "reason": "tired"}', "line 2: \"reason\" 'tired' is not one of"),
    ('{"hello": 1}', 'line 2: a line needs "board", "start", "take_back" or "declare"'),
])
def test_arbitrate_bad_line_names_the_line(tmp_path, line, says):
    path = tmp_path / "bad.jsonl"
    path.write_text("# comment\n" + line + "\n")
    r = run("arbitrate", str(path))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("frisian-companion: error: ") and says in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_arbitrate_takes_the_route_seen_on_the_way(tmp_path):
    # 12-7 10x6 and 12-8 10x6 leave the same board; "placed" (the man seen on 7) tells them apart
    path = tmp_path / "route.jsonl"
    from rules.position import Position
    end = Position.from_fen("W:W25:BK6")  # after 12-7 10x6
    path.write_text(json.dumps({"start": "W:W12,25:BK10"}) + "\n"
                    + json.dumps({"board": _board(end), "lifted": [12, 10], "placed": [7]}) + "\n")
    r = run("arbitrate", str(path))
    assert r.returncode == 0, r.stderr
    assert "12-7" in r.stdout and "10x6" in r.stdout and "irregular" not in r.stdout


def test_arbitrate_missing_file():
    r = run("arbitrate", "/nonexistent/game.jsonl")
    assert r.returncode == 2 and "cannot read /nonexistent/game.jsonl" in r.stderr


def _after_one_move_then(tmp_path, bad: str):
    """An observation file whose line 2 is a good move and line 3 ``bad`` (``{M}`` is the
    board after that move)."""
    from rules.position import Position
    board = _board(Position.start().play_text("32-28"))
    path = tmp_path / "bad.jsonl"
    path.write_text("# a game\n" + json.dumps({"board": board, "time": 5}) + "\n"
                    + bad.replace("{M}", board) + "\n")
    return path


@pytest.mark.parametrize("line, field", [
    ('{"board": "{M}", "occluded": 5}', '"occluded"'),
    ('{"board": "{M}", "occluded": [1e400]}', '"occluded"'),
    ('{"board": "{M}", "time": 1' + "0" * 400 + '}', '"time"'),
    ('{"board": "{M}", "confidence": 1' + "0" * 400 + '}', '"confidence"'),
    ('{"board": "{M}", "confidence": NaN}', '"confidence"'),
    ('{"board": "{M}", "readings": {"3": {"content": "b", "confidence": 1' + "0" * 400 + '}}}',
     '"readings" 3'),
    ('{"board": "{M}", "lifted": [1e400]}', '"lifted"'),
    ('{"board": "{M}", "lifted": [true]}', '"lifted"'),
    ('{"board": "{M}", "complete": "yes"}', '"complete"'),
    ('{"board": "{M}", "time": Infinity}', '"time"'),
    ('{"board": "{M}", "time": NaN}', '"time"'),
    ('{"board": "{M}", "time": 1e300}', '"time"'),
    ('{"board": "{M}", "time": -5}', '"time"'),
    ('{"take_back": true, "time": 1e300}', '"time"'),
    ('{"declare": "*"}', '"declare"'),
    ('{"declare": 5}', '"declare"'),
    ('{"declare": "1-0", "time": 1e999}', '"time"'),
    ('{"board": "{M}", "time": 1' + "0" * 5000 + '}', "not JSON"),
    ('[' * 40000 + ']' * 40000, "not JSON"),
    ('[' * 100000 + ']' * 100000, "longer than 100,000 characters"),
])
def test_arbitrate_ordinary_json_values_get_one_line_naming_line_and_field(tmp_path, line, field):
    """Issue 19, item 4: any JSON value gives one line naming the line and the field, status 2,
    and nothing is judged (printed) before the whole file is read."""
    r = run("arbitrate", str(_after_one_move_then(tmp_path, line)))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith("frisian-companion: error: ") and "line 3" in r.stderr and field in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("first, field", [
    ('{"start": 5}', '"start"'),
    ('{"start": "Z:W1"}', '"start"'),
    ('{"start": null, "tags": {"White\\"]": "x"}}', '"tags"'),
])
def test_arbitrate_a_bad_start_line_is_named_before_anything_is_judged(tmp_path, first, field):
    from rules.position import Position
    path = tmp_path / "bad.jsonl"
    path.write_text(first + "\n" + json.dumps({"board": _board(Position.start().play_text("32-28"))}) + "\n")
    r = run("arbitrate", str(path))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "line 1" in r.stderr and field in r.stderr
    assert r.stdout == ""


def test_arbitrate_writes_large_wall_clock_and_start_relative_times(tmp_path):
    """Times the file may hold (seconds since the start, or since 1970) reach the PDN."""
    from rules.position import Position
    p1 = Position.start().play_text("32-28")
    path = _observation_file(tmp_path, [{"board": _board(p1), "time": 4_000_000_000},
                                        {"board": _board(p1.play_text("19-23")), "time": 4_000_000_090}])
    r = run("arbitrate", str(path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("[%time ") == 2


def test_check_goes_on_after_a_game_it_cannot_read(tmp_path):
    """Issue 19, item 6: a bad FEN tag or an absurd clock comment is that game's problem."""
    f = tmp_path / "mixed.pdn"
    f.write_text('[Event "a"]\n[SetUp "1"]\n[FEN "W:S²"]\n\n1. 32-28 *\n\n'
                 '[Event "b"]\n\n1. 32-28 {[%time +' + "9" * 5000 + ':00:00]} *\n\n'
                 '[Event "c"]\n[Result "*"]\n\n1. 32-28 19-23 *\n')
    r = run("check", str(f))
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 3 and r.stderr == ""
    assert lines[0].startswith("1 ") and "W:S²" in lines[0]
    assert lines[1].startswith("2 OK") and lines[2].startswith("3 OK")


def test_no_speech_is_logged_as_the_flag_not_the_configuration_key(tmp_path):
    """Issue 19, item 9: silence asked for on the command line is said as `--no-speech`; the
    configuration still has speech on, so naming speech.enabled would send the user astray."""
    r = run("demo", "--frames", "1", "--no-speech", "--out", str(tmp_path / "demo.pdn"))
    assert r.returncode == 0, r.stderr
    said = [line for line in r.stderr.splitlines() if "speech is off" in line]
    assert len(said) == 1 and "--no-speech" in said[0] and "speech.enabled" not in said[0]


# -- any input within 15 s and 500 MB (issue 19) ---------------------------------------------------

EXTREME_FEN = "W:W50:B7,9,11,12,13,14,16,18,20,21,22,23,24,27,29,31,32,33,34,36,38,40,41,42,43,44,K47,K49"


def test_check_refuses_a_pdn_file_over_its_limit_in_one_line(tmp_path):
    from device.cli import MAX_PDN_CHARS

    games = (DATA / "lidraughts-frisian.pdn").read_text(encoding="utf-8")
    path = tmp_path / "big.pdn"
    path.write_text(games * (MAX_PDN_CHARS // len(games) + 1), encoding="utf-8")
    for command in (["check"], ["replay", "--pdn"]):
        r = run(*command, str(path))
        assert r.returncode == 2 and not r.stdout
        assert r.stderr.count("\n") == 1 and "more than 1,000,000 characters of PDN: split the file" in r.stderr


def test_arbitrate_refuses_too_many_observations_before_judging_any(tmp_path):
    from device.observation_file import MAX_ITEMS
    from rules.position import Position

    board = _board(Position.start())
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(json.dumps({"board": board, "time": t}) for t in range(MAX_ITEMS + 1)) + "\n")
    r = run("arbitrate", str(path))
    assert r.returncode == 2 and not r.stdout
    assert r.stderr == f"frisian-companion: error: {path} line {MAX_ITEMS + 1}: more than 5,000 observations: judge one game per file\n"


def test_arbitrate_refuses_an_overlong_line_without_reading_it_all(tmp_path):
    path = tmp_path / "wide.jsonl"
    path.write_text('{"board": "' + "." * 300_000 + '"}\n')
    r = run("arbitrate", str(path))
    assert r.returncode == 2
    assert r.stderr == f"frisian-companion: error: {path} line 1: longer than 100,000 characters: write one observation per line\n"


def test_arbitrate_explains_a_wrong_capture_in_the_extreme_position(tmp_path):
    """A man facing 28 pieces takes 25 where 26 are due: Art. 11, named with the right capture
    (the explanation once listed every route of the position: millions)."""
    from rules.position import Position

    start = Position.from_fen(EXTREME_FEN)
    short = next(m for m in start.legal_moves() if m.to_square == 10)
    pieces = dict(start.pieces())
    man = pieces.pop(50)
    for square in short.captured[:-1]:
        pieces.pop(square)
    pieces[10] = man  # the last piece of the due capture left standing
    board = "".join("." if pieces.get(s) is None else
                    ("W" if pieces[s].king else "w") if pieces[s].color.is_white else
                    ("B" if pieces[s].king else "b") for s in range(1, 51))
    path = _observation_file(tmp_path, [{"start": EXTREME_FEN}, {"board": board, "time": 3}])
    r = run("arbitrate", str(path))
    assert r.returncode == 0, r.stderr
    assert (f"line 3: irregular (Art. 27b): 50x10 takes 26; too few pieces were taken off: "
            f"{short.captured[-1]} still stand") in r.stdout


def test_read_fen_gives_the_position_for_run_start(tmp_path):
    """Issue 16: `read --fen` prints the photo's position in draughts terms, square 46's corner
    from --white-at (White's side in the picture), ready for `run --start`.  A side a quarter
    turn off puts square 46 on a light square: one line, status 2; so does a photo that does
    not say where square 46 is."""
    import cv2
    from renderer.render import Camera, Lighting, Renderer, Style
    from rules.position import Position
    position = Position.from_fen("W:W27,28,32,33,37,38,42,43,46:B6,7,11,12,16,17,19,23")
    frame = Renderer().render(position.pieces(), Camera(tilt_deg=30.0, yaw_deg=20.0, distance_mm=800.0),
                              Style(), Lighting(), seed=3)
    assert frame.corner_46 == 3  # square 46 at the bottom-left: White plays from the bottom
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), frame.image)
    r = run("read", str(photo), "--fen", "--white-at", "bottom")
    assert r.returncode == 0, r.stderr
    assert Position.from_fen(r.stdout.strip()) == position
    r = run("read", str(photo), "--fen", "--white-at", "bottom", "--turn", "black")
    assert r.returncode == 0 and Position.from_fen(r.stdout.strip()).turn.name == "BLACK"
    r = run("read", str(photo), "--fen", "--white-at", "top")  # turned: men on their far row
    assert r.returncode == 2 and "White's side" in r.stderr and r.stderr.count("\n") == 1
    r = run("read", str(photo), "--fen", "--white-at", "left")
    assert r.returncode == 2 and "light square" in r.stderr and r.stderr.count("\n") == 1
    r = run("read", str(photo), "--fen")
    assert r.returncode == 2 and "--white-at" in r.stderr and r.stderr.count("\n") == 1
