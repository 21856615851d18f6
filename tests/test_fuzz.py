"""Fuzzing bad input (issue 19): only the documented errors come out of the library, and the
command line answers one line on stderr with status 2.

Each property has a fixed, small budget (`max_examples`, no deadline, derandomized so that every
run tries the same inputs): together these take well under 30 s.  Hypothesis shrinks what it
finds; every crash it found has a plain regression test beside the fix."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.cli import main
from device.config import config_from_dict, load_config
from device.errors import ConfigError
from device.observation_file import ObservationFileError, read_lines
from rules import Position
from rules.errors import (AmbiguousMoveError, CaptureSearchError, FenError, IllegalMoveError,
                          InvalidMoveError)
from rules.pdn import read_games
from vision.read import BoardNotFound, ImageReadError, read_image

#: FUZZ_SCALE=50 in the environment multiplies every budget, to hunt for new crashes by hand.
SCALE = int(os.environ.get("FUZZ_SCALE", "1"))
FUZZ = settings(max_examples=60 * SCALE, deadline=None, derandomize=SCALE == 1, database=None,
                suppress_health_check=[HealthCheck.too_slow])
CLI = settings(max_examples=25 * SCALE, deadline=None, derandomize=SCALE == 1, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
IMAGES = settings(max_examples=12 * SCALE, deadline=None, derandomize=SCALE == 1, database=None)

# -- text that looks like the real thing ----------------------------------------------------------

squares = st.integers(min_value=-3, max_value=60)
square_text = st.one_of(
    squares.map(str),
    st.tuples(squares, squares).map(lambda t: f"{t[0]}-{t[1]}"),
    st.just("00"), st.just("1e3"), st.just(" "), st.just(""), st.just("5" * 30))
piece_text = st.tuples(st.sampled_from(["", "", "K", "k", "KK"]), square_text,
                       st.sampled_from(["", "", "'", "'''", "''''"])).map("".join)
side = st.lists(piece_text, max_size=12).map(",".join)
fen_text = st.one_of(
    st.tuples(st.sampled_from(["W", "B", "w", "?", ""]), st.sampled_from(["W", "B", "X"]), side,
              st.sampled_from(["W", "B", "X"]), side,
              st.sampled_from(["", ":H0:F62", ":+0+319", ":+3+3", ':"x"', ":"])).map(
        lambda t: f"{t[0]}:{t[1]}{t[2]}:{t[3]}{t[4]}{t[5]}"),
    st.text(alphabet="WBK:,-.0123456789 \"'+HF?²\n", max_size=60),
    st.text(max_size=30))

move_text = st.one_of(
    st.lists(squares.map(str), min_size=1, max_size=5).flatmap(
        lambda parts: st.sampled_from(["-", "x", ":", " x ", "--"]).map(lambda sep: sep.join(parts))),
    st.text(alphabet="0123456789-x: !?+*#", max_size=14),
    st.text(max_size=12))

POSITIONS = [Position.start(), Position.from_fen("W:W28,33,K46:B17,19,22,K36"),
             Position.from_fen("B:WK28,K46:BK43"), Position.from_fen("W:W13:B8,3,9,18")]


@FUZZ
@given(fen_text)
def test_fen_gives_a_position_or_a_fen_error(text):
    try:
        position = Position.from_fen(text)
    except FenError as e:
        assert "\n" not in str(e).strip()
        return
    assert Position.from_fen(position.fen()) == position
    try:
        position.legal_moves()
    except CaptureSearchError:
        pass


@FUZZ
@given(st.sampled_from(POSITIONS), move_text)
def test_move_text_gives_a_legal_move_or_says_which_kind_of_wrong(position, text):
    try:
        move = position.parse_move(text)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as e:
        assert str(e)
        return
    assert move in position.legal_moves()


# -- PDN ------------------------------------------------------------------------------------------

tag_value = st.one_of(st.text(max_size=12), fen_text, st.just("W:S²"), st.just("40"))
pdn_token = st.one_of(
    st.tuples(st.sampled_from(["Event", "FEN", "GameType", "Result", "White", "Date", "X y"]),
              tag_value).map(lambda t: f'[{t[0]} "{t[1]}"]\n'),
    move_text, st.sampled_from(["1.", "2...", "1-0", "0-1", "1/2-1/2", "2-0", "*", "{", "}", "(", ")",
                                "{ [%clock w0:05:00 b0:05:00] }", "{[%clk 0:00:0" + "9" * 60 + "]}",
                                ";x\n", "$1", "\n", "%", "32-28", "19-23", "28x19", "14x23"]),
    st.text(max_size=8))
pdn_text = st.lists(pdn_token, max_size=25).map(" ".join)


@FUZZ
@given(pdn_text)
def test_pdn_reading_records_problems_and_never_raises(text):
    for read in read_games(text):
        assert read.problem is None or str(read.problem)


# -- observation files ----------------------------------------------------------------------------

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=10**300, max_value=10**400),
                      st.floats(), st.text(max_size=8), st.just("w" * 50), st.just("." * 50),
                      st.just("bbbbbbbbbbbbbbbbbbbb..........wwwwwwwwwwwwwwwwwwww"))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=8)
board_text = st.one_of(st.text(alphabet=".wbWB", min_size=50, max_size=50),
                       st.text(alphabet=".wbWBx", min_size=45, max_size=55),
                       st.just("b" * 20 + "." * 10 + "w" * 20),
                       st.just("b" * 20 + "." * 5 + "w" + "." * 4 + "w" * 4 + "." + "w" * 15))
square_list = st.lists(st.one_of(st.integers(-2, 55), st.floats(), st.text(max_size=3)), max_size=4)
reading = st.fixed_dictionaries({}, optional={"content": st.sampled_from([".", "w", "b", "W", "B", "x", None]),
                                              "confidence": st.one_of(st.floats(), st.integers())})
observation_dict = st.fixed_dictionaries({"board": board_text}, optional={
    "time": st.one_of(st.floats(), st.integers(), st.text(max_size=3)),
    "lifted": square_list, "placed": square_list, "occluded": square_list,
    "readings": st.dictionaries(st.one_of(st.integers(-1, 51).map(str), st.text(max_size=3)), reading, max_size=3),
    "complete": st.one_of(st.booleans(), st.integers())})
start_dict = st.fixed_dictionaries({"start": st.one_of(fen_text, st.none(), st.integers())},
                                   optional={"tags": st.dictionaries(st.text(max_size=5), json_value, max_size=2)})
other_dict = st.one_of(
    st.fixed_dictionaries({"take_back": st.one_of(st.booleans(), st.integers())},
                          optional={"time": st.floats()}),
    st.fixed_dictionaries({"declare": st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "2-0", 1])},
                          optional={"reason": st.text(max_size=10)}))
observation_key = st.sampled_from(["board", "start", "take_back", "declare", "reason", "tags", "time",
                                   "readings", "occluded", "lifted", "placed", "complete", "x"])
observation_line = st.one_of(
    st.one_of(observation_dict, observation_dict, start_dict, other_dict,
              st.dictionaries(observation_key, json_value, max_size=4)).map(
        lambda d: json.dumps(d, allow_nan=True)),
    st.text(max_size=30))


@FUZZ
@given(st.lists(observation_line, max_size=5))
def test_observation_files_give_items_or_one_observation_file_error(lines):
    try:
        items = read_lines(lines)
    except ObservationFileError as e:
        assert "\n" not in str(e)
        return
    assert len(items) <= len(lines)


# -- configuration --------------------------------------------------------------------------------

config_keys = {
    "camera": ["source", "width", "height", "fps", "x"],
    "board": ["corners", "flip", "orientation", "x"],
    "game": ["start", "x"],
    "vision": ["settle_seconds", "x"],
    "pins": ["leds", "button", "long_press_seconds", "x"],
    "speech": ["enabled", "language", "rate", "x"],
    "tags": ["Event", "x y"],
    "paths": ["database", "pdn_folder", "x"],
    "logging": ["level", "x"],
    "x": ["y"],
}
toml_leaf = st.one_of(st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                      st.just("camera:0"), st.just("W:W31-50:B1-20"))
toml_value = st.recursive(toml_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=2)), max_leaves=6)
config_dict = st.dictionaries(
    st.sampled_from(sorted(config_keys)),
    st.one_of(toml_leaf, st.sampled_from(sorted(config_keys)).flatmap(
        lambda section: st.dictionaries(st.sampled_from(config_keys[section]), toml_value, max_size=3))),
    max_size=3)


@FUZZ
@given(config_dict)
def test_configuration_gives_a_config_or_one_config_error(data):
    try:
        config_from_dict(data)
    except ConfigError as e:
        assert "\n" not in str(e)


@FUZZ
@given(st.one_of(st.text(max_size=60), st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
                 config_dict.map(lambda d: "\n".join(f"[{k}]\n" if isinstance(v, dict) else f"{k} = 1"
                                                     for k, v in d.items()))))
def test_configuration_files_give_a_config_or_one_config_error(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            load_config(path)
        except ConfigError as e:
            assert "\n" not in str(e)


# -- images ---------------------------------------------------------------------------------------

def _image(seed: int, height: int, width: int, kind: str) -> bytes:
    rng = np.random.default_rng(seed)
    img = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    if kind == "checker":
        cells = (np.add.outer(np.arange(height) * 10 // max(height, 1), np.arange(width) * 10 // max(width, 1)) % 2)
        img[cells == 1] //= 4
    ok, data = cv2.imencode(".png" if kind != "jpeg" else ".jpg", img)
    assert ok
    return data.tobytes()


image_bytes = st.one_of(
    st.binary(max_size=64),
    st.tuples(st.integers(0, 2**16), st.integers(1, 96), st.integers(1, 96),
              st.sampled_from(["noise", "checker", "jpeg"])).map(lambda t: _image(*t)),
    st.tuples(st.integers(0, 2**16), st.integers(1, 96), st.integers(1, 96),
              st.integers(1, 200)).map(lambda t: _image(t[0], t[1], t[2], "noise")[: t[3]]))


@IMAGES
@given(image_bytes)
def test_images_give_a_reading_or_one_image_error(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "photo.png"
        path.write_bytes(data)
        try:
            read_image(path)
        except (ImageReadError, BoardNotFound) as e:
            assert "\n" not in str(e).strip()


# -- the command line, in this process ------------------------------------------------------------

def _cli(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    """`main` as the console script runs it: its status, or that of a SystemExit (argparse)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out), pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdin", io.StringIO(stdin or ""))
        try:
            code = main(list(argv), out)
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


def _one_line_or_fine(code: int, err: str, ok=(0,)) -> None:
    if code in ok:
        return
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.startswith("frisian-companion: error: "), err


@CLI
@given(fen_text)
def test_cli_moves_of_any_fen(text):
    code, _, err = _cli("moves", "--", text) if text.startswith("-") else _cli("moves", text)
    _one_line_or_fine(code, err)


@CLI
@given(st.lists(fen_text, max_size=3))
def test_cli_moves_of_fens_on_standard_input(lines):
    code, _, err = _cli("moves", "--json", "-", stdin="\n".join(lines))
    _one_line_or_fine(code, err)


@CLI
@given(st.integers(min_value=-5, max_value=3), st.one_of(st.none(), fen_text))
def test_cli_perft_of_any_fen(depth, fen):
    code, _, err = _cli("perft", str(depth), *([] if fen is None else [f"--fen={fen}"]))
    _one_line_or_fine(code, err)


@CLI
@given(pdn_text, st.sampled_from(["check", "replay"]))
def test_cli_check_and_replay_of_any_pdn(text, command):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pdn"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        code, _, err = _cli(*(["check"] if command == "check" else ["replay", "--pdn"]), str(path))
    _one_line_or_fine(code, err, ok=(0, 1))


@CLI
@given(st.lists(observation_line, max_size=6), st.booleans())
def test_cli_arbitrate_any_observation_file(lines, as_json):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
        code, _, err = _cli("arbitrate", str(path), *(["--json"] if as_json else []))
    _one_line_or_fine(code, err)


@IMAGES
@given(image_bytes)
def test_cli_read_any_image(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "photo.jpg"
        path.write_bytes(data)
        code, _, err = _cli("read", str(path))
    _one_line_or_fine(code, err)
