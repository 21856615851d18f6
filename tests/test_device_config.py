"""The configuration: defaults, merging, and one clear line for every kind of mistake."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from device.config import (ConfigError, GameConfig, PinsConfig, SourceSpec, VisionConfig,
                           config_from_dict, load_config, parse_source)
from device.store import GameStore
from rules.position import Position

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "config" / "default.toml"


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "config.toml"
    p.write_text(text, encoding="utf-8")
    return p


def error_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(tmp_path / "config.toml") + ": ")
    return message


def test_documented_default_file_equals_builtin_defaults():
    from_file = load_config(DEFAULT)
    defaults = load_config(None)
    for section in ("camera", "board", "game", "vision", "pins", "speech", "tags", "paths",
                    "logging", "web", "broker"):
        assert getattr(from_file, section) == getattr(defaults, section), section
    assert from_file.path == str(DEFAULT)


def test_every_key_in_default_file_is_commented():
    lines = DEFAULT.read_text().splitlines()
    for i, line in enumerate(lines):
        s = line.strip()
        if s and not s.startswith("#") and not s.startswith("[") and "=" in s:
            assert lines[i - 1].strip().startswith("#"), f"key without a comment: {s}"
            assert "#" not in s.split("=", 1)[1].replace('"#', ""), f"inline comment: {s}"


def test_partial_file_merges_over_defaults(tmp_path):
    cfg = load_config(write(tmp_path, """
[camera]
source = "video:/tmp/game.avi"
[pins]
button = 26
long_press_seconds = 3
[speech]
language = "NL"
[tags]
Event = "Friese kampioenschappen"
White = "J. de Vries"
Annotator = "the box"
"""))
    assert cfg.camera.source == "video:/tmp/game.avi"
    assert cfg.camera.spec == SourceSpec("video", "/tmp/game.avi")
    assert cfg.camera.resolution == (1280, 960)
    assert cfg.pins.button == 26 and cfg.pins.long_press_seconds == 3.0
    assert cfg.pins.white_counter == PinsConfig().white_counter
    assert cfg.speech.language == "nl"
    assert cfg.tags["Event"] == "Friese kampioenschappen"
    assert cfg.tags["White"] == "J. de Vries" and cfg.tags["Annotator"] == "the box"
    assert cfg.tags["Black"] == "?"


OLD_VISION = "[vision]\nstill_seconds = 0.5\nmotion_threshold = 6.0\nmin_confidence = 0.5\n"


def test_keys_no_longer_used_load_with_one_warning_line_each(tmp_path, caplog):
    """[vision] motion_threshold and min_confidence were parsed but never used: an old file
    that has them loads (its other keys read as before), with a line for each saying to remove
    it; the documented defaults warn of nothing."""
    caplog.set_level(logging.WARNING, logger="device.config")
    load_config(DEFAULT)
    assert not caplog.records
    path = write(tmp_path, OLD_VISION)
    cfg = load_config(path)
    assert cfg.vision == VisionConfig(still_seconds=0.5)
    lines = [r.getMessage() for r in caplog.records]
    assert [r.levelno for r in caplog.records] == [logging.WARNING] * 2
    for key, line in zip(("motion_threshold", "min_confidence"), lines):
        assert line.startswith(f"{path}: [vision] {key} is no longer used: ")
        assert line.endswith("; remove it") and "\n" not in line
    assert "light" in lines[0] and "guess" in lines[1]
    assert not hasattr(cfg.vision, "motion_threshold") and not hasattr(cfg.vision, "min_confidence")


def test_the_command_line_shows_the_warning_and_goes_on(tmp_path):
    config, database = write(tmp_path, OLD_VISION), tmp_path / "games.sqlite3"
    GameStore(database).close()
    out = subprocess.run([sys.executable, "-m", "device.cli", "export", "--config", str(config),
                          "--database", str(database), "--list"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines() == [
        f"WARNING device.config: {config}: [vision] {key} is no longer used: {why}; remove it"
        for key, why in (("motion_threshold", "the motion thresholds adapt to the picture's "
                                              "light by themselves (vision.motion)"),
                         ("min_confidence", "how sure a reading must be is part of the "
                                            "arbiter's rule never to guess (rules.matching), "
                                            "not a setting"))]


def test_game_start_is_a_set_up_position_in_fen(tmp_path):
    """[game] start: the normal start position by default (written with ranges in the
    documented file), any position with pieces of both sides and a move to make otherwise."""
    assert load_config(None).game == GameConfig() and not GameConfig().set_up
    assert GameConfig().position == Position.start()
    cfg = load_config(write(tmp_path, '[game]\nstart = " W:W28,K35,40:B12,19,23 "\n'))
    assert cfg.game.set_up and cfg.game.start == "W:W28,K35,40:B12,19,23"
    assert cfg.game.position == Position.from_fen("W:W28,K35,40:B12,19,23")
    assert load_config(write(tmp_path, '[game]\nstart = "W:W31-50:B1-20"\n')).game == GameConfig()


def test_button_zero_means_no_button(tmp_path):
    assert load_config(write(tmp_path, "[pins]\nbutton = 0\n")).pins.button is None


@pytest.mark.parametrize("text, expected", [
    ("[pins]\nwhite_counter = [5, 6, 40]\n",
     "pins.white_counter[2] = 40 is not a GPIO pin: use BCM numbers 2-27"),
    ("[pins]\nblack_counter = [5, 7, 8]\n",
     "pins.black_counter[0] = 5 is already used by pins.white_counter[0]: give every LED and the button its own pin"),
    ("[pins]\nbutton = 12\n", "pins.button = 12 is already used by pins.seven_move_bar[6]"),
    ("[pins]\nseven_move_bar = [2, 3, 4]\n", "pins.seven_move_bar = [2, 3, 4] has 3 pins: it needs exactly 7"),
    ("[pins]\nbutton = \"17\"\n", "pins.button = \"17\" is not a pin number"),
    ("[pins]\nwhite_counter = [1, 2, 3]\n", "pins.white_counter[0] = 1 is not a GPIO pin"),
    ("[camera]\nfps = \"ten\"\n", "camera.fps = \"ten\" is not a number"),
    ("[camera]\nsorce = \"auto\"\n", "unknown key camera.sorce: did you mean camera.source?"),
    ("[camera]\nsource = \"webcam\"\n", "camera.source = \"webcam\": \"webcam\" is not a camera source: use auto, picamera2"),
    ("[camera]\nsource = \"camera:x\"\n", "write camera:N"),
    ("[camera]\nresolution = 1280\n", "camera.resolution = 1280 is not a size: write [WIDTH, HEIGHT]"),
    ("[speech]\nlanguage = \"fy\"\n", "speech.language = \"fy\" is not one of en, nl"),
    ("[speech]\nenabled = \"yes\"\n", "speech.enabled = \"yes\" is not true or false"),
    ("[speech]\nrate = 1000\n", "speech.rate = 1000 is out of range: use a whole number from 80 to 450"),
    ("[board]\norientation = \"left\"\n", "board.orientation = \"left\" is not one of auto, top-left"),
    ("[board]\ncorners = [[1, 2], [3, 4]]\n", "board.corners = [[1, 2], [3, 4]] is not four corners"),
    ("[tags]\nResult = \"1-0\"\n", "tags.Result is set by the game itself"),
    ("[tags]\nFEN = \"W:W28:B23\"\n", "tags.FEN is set by the game itself: give a set-up start position as [game] start"),
    ("[game]\nstart = \"W:W5:B20\"\n", "game.start = \"W:W5:B20\" is not a position: a white man on 5 stands on its far row"),
    ("[game]\nstart = \"nonsense\"\n", "game.start = \"nonsense\" is not a position: must start with the side to move, W or B (write it as PDN FEN, e.g."),
    ("[game]\nstart = \"W:W31,32:B\"\n", "game.start = \"W:W31,32:B\" has pieces of one side only"),
    ("[game]\nstart = \"B:W41,46,47:B36\"\n", "game.start = \"B:W41,46,47:B36\": black to move has no legal move"),
    ("[game]\nstart = 5\n", "game.start = 5 is not text"),
    ("[game]\nstrat = \"W:W28:B23\"\n", "unknown key game.strat: did you mean game.start?"),
    ("[tags]\nevent = \"x\"\n", "tags.event is not a PDN tag name"),
    ("[logging]\nlevel = \"LOUD\"\n", "logging.level = \"LOUD\" is not one of DEBUG, INFO, WARNING, ERROR"),
    ("[speach]\nenabled = true\n", "unknown section or key speach: did you mean [speech]?"),
    ("camera = 3\n", "camera = 3 is not a table"),
    ("[web]\nport = 70000\n", "web.port = 70000 is out of range: use a whole number from 0 to 65535"),
    ("[web]\nport = \"8080\"\n", "web.port = \"8080\" is not a whole number"),
    ("[web]\ntoken = \"123\"\n", "web.token = \"123\" is too short: use 4 characters or more"),
    ("[web]\nbind = \"\"\n", "web.bind = \"\" is empty: give an address"),
    ("[web]\nenabled = 1\n", "web.enabled = 1 is not true or false"),
    ("[web]\npin = \"1234\"\n", "unknown key web.pin"),
])
def test_mistakes_give_one_line_naming_key_and_fix(tmp_path, text, expected):
    assert expected in error_of(tmp_path, text)


def test_toml_syntax_error_gives_the_line(tmp_path):
    message = error_of(tmp_path, "[camera]\nfps = 10\nsource = auto\n")
    assert "not valid TOML: line 3, column" in message


def test_missing_file_and_bad_encoding(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")
    p = tmp_path / "config.toml"
    p.write_bytes(b"[tags]\nEvent = \"a\"\nSite = \"\xff\"\n")
    with pytest.raises(ConfigError, match="line 3 is not UTF-8"):
        load_config(p)


def test_parse_source_forms():
    assert parse_source("auto") == SourceSpec("auto")
    assert parse_source("camera:2") == SourceSpec("camera", 2)
    assert parse_source("folder:/x/y") == SourceSpec("folder", "/x/y")
    assert str(parse_source("video:a.avi")) == "video:a.avi"
    with pytest.raises(ValueError):
        parse_source("video:")


def test_config_from_dict_uses_given_base():
    base = config_from_dict({"speech": {"language": "nl"}})
    assert config_from_dict({"speech": {"rate": 120}}, base=base).speech.language == "nl"


def test_config_module_imports_no_hardware_or_imaging_library():
    code = "import sys, device.config; bad = [m for m in ('cv2', 'numpy', 'gpiozero', 'pyttsx3') if m in sys.modules]; print(bad)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_the_web_section_defaults_to_every_interface_port_8080_and_no_controls(tmp_path):
    web = load_config(None).web
    assert (web.enabled, web.bind, web.port, web.token) == (True, "0.0.0.0", 8080, "")
    web = load_config(write(tmp_path, '[web]\nbind = "127.0.0.1"\nport = 0\ntoken = " 4321 "\n')).web
    assert (web.bind, web.port, web.token) == ("127.0.0.1", 0, "4321")


@pytest.mark.parametrize("text, expected", [
    # found by tests/test_fuzz.py: a newline in a wrong value broke the one line
    ('board = "a\\nb"\n', 'board = "a\\nb" is not a table'),
    ("[camera]\nsource = \"" + "x" * 5000 + "\"\n", 'camera.source = "xxxx'),
    # Python's own limit on an integer's digits met inside tomllib: a plain ValueError before
    ("[camera]\nfps = " + "9" * 5000 + "\n", "a number with thousands of digits"),
])
def test_wild_values_still_give_one_short_line(tmp_path, text, expected):
    message = error_of(tmp_path, text)
    assert expected in message
    assert len(message) < 400


def test_a_huge_number_from_a_dict_gives_a_config_error():
    with pytest.raises(ConfigError, match=r"camera.fps = \(a number of about 5000 digits\) is out of range"):
        config_from_dict({"camera": {"fps": 10 ** 5000}})


def test_broker_section_is_off_by_default_and_its_mistakes_are_one_line(tmp_path):
    assert load_config(None).broker.enabled is False
    cfg = load_config(write(tmp_path, '[broker]\nenabled = true\nurl = "mqtts://hub.local"\n'
                                      'event = "winter-2025"\nboard = 7\n'))
    assert (cfg.broker.url, cfg.broker.event, cfg.broker.board) == ("mqtts://hub.local", "winter-2025", 7)
    message = error_of(tmp_path, '[broker]\nurl = "http://hub.local:1883"\n')
    assert "broker.url" in message and "mqtt://HOST:PORT" in message
    assert "broker.board" in error_of(tmp_path, "[broker]\nenabled = true\n")
    assert "broker.event" in error_of(tmp_path, '[broker]\nevent = "a/b"\n')
    assert "broker.board" in error_of(tmp_path, "[broker]\nboard = 1000\n")
