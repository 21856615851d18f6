"""Games from a set-up position (a problem, an adjourned game resumed on another board): given by
``run --start FEN`` or ``[game] start``, recorded from it with the PDN's SetUp and FEN tags; a
set-up board is never taken for the start position (the companion waits and says how to give
it), nor the start position for a set-up one; a set-up board shows a wrongly configured corner
of square 46 (device.service, device.app, device.cli, device.store).  Rendered frames through the
real pipeline."""

from __future__ import annotations

import inspect
import logging
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

import device.service as service
from device.app import Options, build
from device.config import config_from_dict
from device.service import Companion
from device.sources import Frame
from device.store import GameStore
from rules.arbiter import Arbiter
from rules.events import Irregularity
from rules.observation import Observation, Settled
from rules.pdn import read_file, read_games
from rules.position import Position
from renderer.render import Camera, Lighting, Style, game_frames
from renderer.sequence import GameFrame

from tests.conftest import DATA
from tests.device_helpers import watch
from tests.vision_helpers import bench_scene, glare_scene, moves_of

ROOT = Path(__file__).resolve().parents[1]
#: An endgame set up (self-play game 43 of tests/data): a black king and four men against four
#: white men; not the same turned half round, so it shows which way round the board stands.
SETUP_GAME = read_file(str(DATA / "selfplay.pdn"))[42].game
SETUP = SETUP_GAME.start
PLIES = 3
TEXTS = SETUP_GAME.move_texts()[:PLIES]
CAMERA = Camera(tilt_deg=22.0, yaw_deg=-8.0, distance_mm=880.0)
HINT = "For a game from a set-up position, give it: --start FEN, or [game] start"


def clean(**kw) -> dict:
    """Clean settings for `game_frames` where the renderer has them (a still camera, the slow
    pace): these tests are about positions, not about a shaking camera or quick play."""
    params = inspect.signature(game_frames).parameters
    if "behaviour" in params:
        from renderer.sensor import CameraBehaviour
        kw["behaviour"] = CameraBehaviour.still()
    if "pace" in params:
        from renderer.sequence import Pace
        kw["pace"] = Pace.slow(1.0)
    return kw


def frames_of(start: Position, moves, still_s: float = 1.0) -> list[GameFrame]:
    return list(game_frames(start, moves, fps=4, camera=CAMERA, style=Style(), lighting=Lighting(),
                            seed=3, **clean(pause_s=still_s)))


@pytest.fixture(scope="module")
def setup_frames() -> list[GameFrame]:
    return frames_of(SETUP, SETUP_GAME.moves[:PLIES])


def said(caplog, text: str, level: int = logging.WARNING) -> list[str]:
    return [r.getMessage() for r in caplog.records if text in r.getMessage() and r.levelno == level]


def assert_recorded_from_the_set_up(pdn: str) -> None:
    assert '[SetUp "1"]' in pdn and f'[FEN "{SETUP.fen()}"]' in pdn
    [read] = list(read_games(pdn))
    assert read.problem is None
    assert read.game.start == SETUP and read.game.move_texts() == TEXTS


# -- through the companion -----------------------------------------------------------------------

def test_a_game_from_a_set_up_position_is_recorded_from_it(tmp_path, setup_frames, caplog):
    caplog.set_level(logging.INFO, logger="device.service")
    c, events = watch(tmp_path, setup_frames, start=SETUP)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == TEXTS
    assert c.watcher.calibration.orientation.corner_46 == setup_frames[0].corner_46
    assert said(caplog, f"from a set-up position: set up {SETUP.fen()}", logging.INFO)
    assert_recorded_from_the_set_up(c.pdn())


def test_a_set_up_board_is_never_taken_for_the_start_position(tmp_path, setup_frames, caplog,
                                                              monkeypatch):
    """Without the set-up position given, the companion waits for the start position (the
    colours a set-up endgame would teach vision do not tell its kinds of square apart) and says
    once, at warning level, how to give a set-up position; it records nothing."""
    monkeypatch.setattr(service, "SET_UP_HINT_S", 2.0)
    caplog.set_level(logging.INFO, logger="device.service")
    c, events = watch(tmp_path, setup_frames[:24], config_path="/etc/box.toml")  # White moved
    assert not c._calibrated and not said(caplog, "Board found", logging.INFO)
    assert c.arbiter.game.move_texts() == [] and not events
    assert said(caplog, "Waiting for the start position") == [
        f"Waiting for the start position: the board shows another position. {HINT} = \"FEN\" "
        "in /etc/box.toml"]
    assert GameStore(tmp_path / "games.sqlite3").moves(c.game_id) == []


def test_a_board_that_cannot_be_learnt_is_tried_twice_a_second_not_on_every_frame(tmp_path):
    """A set-up board while the companion waits for the start position, still for six seconds
    at ten frames a second: every try finds the board and learns its looks (most of a second
    on a Raspberry Pi), and a companion that tried on every frame fell minutes behind the
    camera.  It tries at most every `CALIBRATE_RETRY_S`; once the start position stands, it
    is learnt at the next try."""
    setup = list(game_frames(SETUP, [], fps=10, camera=CAMERA, style=Style(), lighting=Lighting(),
                             seed=3, **clean(pause_s=6.0)))
    start = list(game_frames(Position.start(), [], fps=10, camera=CAMERA, style=Style(),
                             lighting=Lighting(), seed=4, **clean(pause_s=2.0)))
    waited = setup[-1].time
    c, _ = watch(tmp_path, setup)
    assert not c._calibrated
    assert 2 <= c.stats.calibration_tries <= waited / service.CALIBRATE_RETRY_S + 2
    assert c.stats.calibration_tries < len(setup) / 3
    later = [replace(f, time=f.time + waited + 0.1, index=f.index + len(setup)) for f in start]
    learnt_at = None
    for f in later:
        c.process(Frame(f.image, f.time, f.index))
        if c._calibrated:
            learnt_at = f.time - later[0].time
            break
    assert learnt_at is not None
    assert learnt_at <= service.CALIBRATE_STILL_S + service.CALIBRATE_RETRY_S + 0.2


def test_the_start_position_is_never_taken_for_a_set_up_one(tmp_path, caplog, monkeypatch):
    """A set-up position given while the start position still stands: a set-up of few pieces
    (self-play game 50's) learns its piece colours from the start position's men on its squares
    and the empty squares' from the other men, and the frame, read by each square's own look,
    reads as the set-up; the colours learnt do not tell the kinds of square apart.  (Not for
    `SET_UP_TRUST_S`: then a set-up given is taken, said loudly, below.)"""
    monkeypatch.setattr(service, "SET_UP_HINT_S", 2.0)
    caplog.set_level(logging.INFO, logger="device.service")
    setup = read_file(str(DATA / "selfplay.pdn"))[49].game.start
    frames = frames_of(Position.start(), moves_of("32-28"), still_s=2.5)
    c, events = watch(tmp_path, frames[:24], start=setup)  # White moved
    assert not c._calibrated and c.arbiter.game.move_texts() == [] and not events
    [hint] = said(caplog, "Waiting for the set-up position")
    assert hint.startswith(f"Waiting for the set-up position {setup.fen()}: the board shows "
                           "another position. Set it up, or give the position on the board")


def test_a_set_up_board_shows_a_wrongly_configured_corner(tmp_path, setup_frames, caplog):
    """Square 46 configured a half turn away: the set-up board shows where it is; the board is
    followed, the game recorded right, and the warning names the corner to configure, once."""
    caplog.set_level(logging.INFO, logger="device.service")
    names = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
    truth = setup_frames[0].corner_46
    wrong = (truth + 2) % 4
    c, events = watch(tmp_path, setup_frames, start=SETUP, corner_46=wrong)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == TEXTS
    assert c.watcher.calibration.orientation.corner_46 == truth
    assert said(caplog, "does not fit the configured orientation") == [
        f"The board does not fit the configured orientation (square 46 at the {names[wrong]}): "
        f"it fits with square 46 at the {names[truth]}. Following the board; fix it in the "
        f'configuration file: board.orientation = "{names[truth]}"']


# -- the game in progress when a start position is given ----------------------------------------

def in_progress(tmp_path: Path, plies: int) -> int:
    """A game from the start position left in progress in the store after ``plies`` moves."""
    store = GameStore(tmp_path / "games.sqlite3")
    game_id = store.new_game({"Event": "old"}, Position.start().fen())
    arbiter = Arbiter()
    for text in ("32-28", "19-23")[:plies]:
        after = arbiter.position.play(arbiter.position.parse_move(text))
        for event in arbiter.observe(Settled(Observation.from_board(after.pieces()))):
            store.record(game_id, event)
    store.close()
    return game_id


def companion(tmp_path: Path, **kw) -> Companion:
    c = Companion(source=None, store=GameStore(tmp_path / "games.sqlite3"), tags={"Event": "new"},
                  **kw)
    c.open_game()
    return c


def test_a_game_in_progress_with_no_move_begins_from_the_position_given(tmp_path):
    old = in_progress(tmp_path, 0)
    c = companion(tmp_path, start=SETUP)
    assert c.game_id == old and not c.resumed
    assert c.store.game(old).start_fen == SETUP.fen() and c.arbiter.game.start == SETUP


def test_start_given_for_the_run_sets_aside_a_game_in_progress(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="device.service")
    old = in_progress(tmp_path, 2)
    c = companion(tmp_path, start=SETUP, start_now=True)
    assert c.game_id != old and not c.resumed and c.arbiter.game.start == SETUP
    kept = c.store.game(old)
    assert (kept.status, kept.result, kept.termination) == ("finished", "*", "unterminated")
    assert [m.text for m in c.store.moves(old)] == ["32-28", "19-23"]  # nothing recorded lost
    [note] = said(caplog, f"Game {old} in progress")
    assert "set aside unfinished" in note and "--start" in note


def test_the_configured_start_resumes_a_game_in_progress_from_another(tmp_path, caplog):
    """A power cut in a game from the start position, with a set-up position configured: the
    game is resumed (nothing is given up without being asked), and the warning says so."""
    caplog.set_level(logging.INFO, logger="device.service")
    old = in_progress(tmp_path, 2)
    c = companion(tmp_path, start=SETUP, config_path="/etc/box.toml")
    assert c.game_id == old and c.resumed and c.arbiter.game.move_texts() == ["32-28", "19-23"]
    [note] = said(caplog, f"Game {old} in progress")
    assert "[game] start in /etc/box.toml" in note and "resumed" in note


# -- the command line and the configuration ------------------------------------------------------

def test_start_flag_overrides_the_configuration_for_one_run(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), cv2.imread(str(DATA / "real-boards" / "1.jpg")))
    config = config_from_dict({"game": {"start": SETUP.fen()}, "speech": {"enabled": False}})
    options = Options(source=f"folder:{frames}", database=str(tmp_path / "g.sqlite3"),
                      mock_pins=True)
    other = Position.from_fen("W:W28,K35,40:B12,19,23")
    built = []
    for config_, options_ in ((config, options), (config, replace(options, start=other)),
                              (config_from_dict({}), options)):
        c = build(config_, options_)
        built.append((c.start, c.start_now))
        c.close()  # and its store: one service per store at a time, the next build needs it
    assert built == [(SETUP, False), (other, True), (Position.start(), False)]


def test_run_with_the_configured_start_records_the_set_up_game(tmp_path, setup_frames):
    """`frisian-companion run` on the camera's frames of a game from a set-up position, given
    by the configuration: `export` gives its PDN with the FEN."""
    frames = tmp_path / "frames"
    frames.mkdir()
    for f in setup_frames:
        cv2.imwrite(str(frames / f"{f.index:05d}.png"), f.image)
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nstart = "{SETUP.fen()}"\n[camera]\nfps = 4\n'
                      "[vision]\nstill_seconds = 0.3\n[speech]\nenabled = false\n[web]\nenabled = false\n")
    database = tmp_path / "games.sqlite3"
    run = subprocess.run([sys.executable, "-m", "device.cli", "run", "--config", str(config),
                          "--database", str(database), "--mock-pins", "--source",
                          f"folder:{frames}"], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    export = subprocess.run([sys.executable, "-m", "device.cli", "export", "--database",
                             str(database), "--game", "1"], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert export.returncode == 0, export.stderr
    assert_recorded_from_the_set_up(export.stdout)


def test_a_set_up_given_is_taken_after_a_while_with_a_warning(tmp_path, caplog, monkeypatch):
    """A set-up whose pieces' colours do not stand apart in the picture (a few pieces in a dim,
    noisy room: the system bench's selfplay-48 gave 0.46) would wait for ever: after
    `SET_UP_TRUST_S` of the board showing it, square by square, the position given is taken,
    and the user is told once that it was taken as given."""
    monkeypatch.setattr(service, "SET_UP_TRUST_S", 1.5)
    caplog.set_level(logging.INFO, logger="device.service")
    setup = read_file(str(DATA / "selfplay.pdn"))[49].game.start
    frames = frames_of(Position.start(), moves_of("32-28"), still_s=2.5)
    c, _ = watch(tmp_path, frames[:24], start=setup)
    assert c._calibrated
    [note] = said(caplog, "The set-up position is taken as given")
    assert "set it up and start again" in note


def test_a_faint_set_up_played_on_before_it_is_trusted_is_recorded_from_it(tmp_path, caplog,
                                                                           monkeypatch):
    """A set-up whose colours never stand clearly apart, played on quickly: the players were
    done before `SET_UP_TRUST_S` had passed (the other renderer's selfplay-39 at quick play: a
    2-ply endgame was over by then).  The board after their moves was learnt as the set-up
    position, so nothing differed from it and not one move was recorded.  The position given is
    taken on the picture that showed it best, and what was played since is recorded from it."""
    caplog.set_level(logging.INFO, logger="device.service")
    frames = list(game_frames(SETUP, SETUP_GAME.moves[:PLIES], fps=4, camera=CAMERA, style=Style(),
                              lighting=Lighting(), seed=3, **clean(pause_s=1.0, end_s=4.0)))
    last_hand = max(f.time for f in frames if f.hand)
    monkeypatch.setattr(service, "SET_UP_KINDS_APART", float("inf"))  # never shown clearly
    monkeypatch.setattr(service, "SET_UP_TRUST_S", last_hand + 1.0)  # trusted once all is played
    c, events = watch(tmp_path, frames, start=SETUP)
    assert said(caplog, "The set-up position is taken as given")
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == TEXTS
    assert_recorded_from_the_set_up(c.pdn())


@pytest.mark.parametrize("turned", [0, 1], ids=["as configured", "a quarter off"])
def test_a_game_begun_before_the_board_was_seen_still_is_recorded_from_the_start(tmp_path,
                                                                                caplog, turned):
    """The companion first sees the board still three plies into the game (a companion started
    late; at quick play the first hand reached in a third of a second after it started, and the
    other renderer's blitz game stood still first at its seventh ply).  The start position is
    never shown: it waited for it for ever, and not one move was recorded.  A still board that
    legal play from the start position explains is learnt as it stands, and the moves that led
    to it are recorded, then the rest of the game.  Square 46's corner configured a quarter
    turn off (on a light square) stopped the service there: the board is followed as it
    stands, and the configuration is warned about."""
    caplog.set_level(logging.INFO, logger="device.service")
    game = read_file(str(DATA / "lidraughts-frisian.pdn"))[3].game
    texts = game.move_texts()[:8]
    frames = frames_of(Position.start(), game.moves[:8])
    late = next(i for i, f in enumerate(frames) if f.ply == 3 and not f.hand)
    corner = frames[0].corner_46
    c, events = watch(tmp_path, frames[late:], corner_46=(corner + turned) % 4)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    [note] = said(caplog, "The game had begun before the board was seen still", logging.INFO)
    assert " ".join(texts[:3]) in note
    assert c.arbiter.game.move_texts() == texts
    assert c.watcher.calibration.orientation.corner_46 == corner
    assert len(said(caplog, "The board does not fit the configured orientation",
                    logging.WARNING)) == turned


def test_a_blitz_game_first_seen_still_seven_plies_on_is_recorded_from_the_start(tmp_path, caplog):
    """Blitz (`bench.system_accuracy`, lidraughts-1 at seed 101031): the board first stood
    still, for three frames, seven plies into the game, and every later still board was further
    on: beyond the six plies a short search reaches, no move at all was recorded.  The still
    stretch is read four times (its mean and its parts), enough for the arbiter to search
    further (`STALL_PLIES`), and the seven plies are recorded (in an order the board cannot
    tell, said on the scoresheet), then the rest of the game."""
    caplog.set_level(logging.INFO, logger="device.service")
    game = read_file(str(DATA / "lidraughts-frisian.pdn"))[0].game
    plies = 9
    texts = game.move_texts()[:plies]
    frames = frames_of(Position.start(), game.moves[:plies])
    late = next(i for i, f in enumerate(frames) if f.ply == 7 and not f.hand)
    c, events = watch(tmp_path, frames[late:], corner_46=frames[0].corner_46)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    [note] = said(caplog, "The game had begun before the board was seen still", logging.INFO)
    assert "7 plies found played" in note
    got = c.arbiter.game.move_texts()
    assert sorted(got[:7]) == sorted(texts[:7]) and got[7:] == texts[7:]
    assert c.arbiter.game.positions[7].pieces() == game.positions[7].pieces()
    if got[:7] != texts[:7]:
        assert "the order of these moves was not seen" in c.pdn()


def test_a_few_kings_moved_before_the_board_stood_still_are_learnt_as_they_stand(tmp_path, caplog):
    """Three kings set up (the engine game selfplay-31 of the test data), and White's king moves
    24-30 before the camera sees the board still.  The board learnt as the set-up position
    with its king on 24: the class colour of White's two pieces, the median of a king's top
    and an empty square's, lay half way, so both squares read as the set-up has them.  The move
    was never recorded, both squares were misread for the rest of the game, and a false
    Art. 27 came two moves later.  A piece's square that looks like the empty squares, among
    few of its class, teaches its class nothing; the board then reads a move on, and the move
    is recorded before the rest of the game."""
    caplog.set_level(logging.INFO, logger="device.service")
    start = Position.from_fen("W:WK15,K24:BK26")
    texts = ["24-30", "26-17", "30-19", "17x20", "15x24"]
    moves = moves_of(*texts, start=start)
    frames = list(game_frames(start, moves, fps=4, camera=CAMERA, style=Style(), lighting=Lighting(),
                              seed=3, **clean(pause_s=1.0)))
    late = next(i for i, f in enumerate(frames) if f.ply == 1 and not f.hand)
    c, events = watch(tmp_path, frames[late:], start=start)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    [note] = said(caplog, "The game had begun before the board was seen still", logging.INFO)
    assert "24-30" in note
    assert c.arbiter.game.move_texts() == texts



def test_a_faint_set_up_board_never_overrules_the_configured_corner(tmp_path, caplog, monkeypatch):
    """A set-up board whose pieces' colours do not stand clearly apart (near-black white men
    beside purple dark squares), played on before it stood still, fits either way round about
    as well: it is no evidence against the configured corner of square 46.  The scene of the
    system bench's selfplay-49 at seed 303007 (a 7-ply blitz endgame first seen still three
    plies on): the board was followed turned half round, with a warning to change the
    configuration, and not one move was recorded.  The configured corner is kept and nothing
    is said against it; a board read clearly still overrules it
    (`test_a_set_up_board_shows_a_wrongly_configured_corner`)."""
    from renderer.render import render

    caplog.set_level(logging.INFO, logger="device.service")
    monkeypatch.setattr(service, "SET_UP_TRUST_S", 1.5)
    [game] = [g.game for g in read_games('[FEN "W:W6,K15,30:B7,K8,23"]\n1. 15-38 8x25 2. 6x8 *')]
    played = game.start
    for move in game.moves:
        played = played.play(move)
    camera = Camera(tilt_deg=8.75, yaw_deg=139.8, roll_deg=6.3, distance_mm=1011.0,
                    fov_deg=69.8, k1=0.0285, k2=0.005)
    style = Style(light_square=(169, 195, 206), dark_square=(94, 64, 104), border=(110, 124, 123),
                  table=(62, 168, 219), white_piece=(6, 39, 48), black_piece=(158, 207, 215),
                  edge_line=(56, 38, 62))
    lighting = Lighting(exposure=1.17, blur=1.18, noise=3.0)
    c = Companion(source=None, store=GameStore(tmp_path / "games.sqlite3"), tags={"Event": "t"},
                  still_s=0.3, start=game.start, corner_46=1)
    c.open_game()
    for k in range(16):  # 4 s at 4 frames a second
        image = render(played.pieces(), camera=camera, style=style, lighting=lighting,
                       seed=k).image
        c.process(Frame(image, k / 4, k))
    assert c._calibrated
    assert c.watcher.calibration.orientation.corner_46 == 1
    assert not said(caplog, "does not fit the configured orientation")


def test_a_set_up_game_over_before_the_board_stood_still_is_recorded_and_the_next_one_begins(
        tmp_path, caplog):
    """Art. 20a: a player with no pieces left has lost.  A king against two (the engine game
    selfplay-42's start), White's 22-44 and Black's 45x43 played before the camera first saw
    the board still (quick play, the bench's seed 1616008): the first still board has Black's
    pieces only.  Learnt as the set-up position, White's colour came from the empty square his
    king had left, the board read as no legal play explains, and nothing was recorded.  A side
    of a few pieces that all look like empty squares is taken as gone: the two plies and the
    result are recorded.  The board never showed White's colour, so the next game's position
    is learnt afresh when it is set up, and that game begins."""
    caplog.set_level(logging.INFO, logger="device.service")
    start = Position.from_fen("W:WK22:BK2,K45")
    texts = ["22-44", "45x43"]
    moves = moves_of(*texts, start=start)
    frames = list(game_frames(start, moves, fps=4, camera=CAMERA, style=Style(), lighting=Lighting(),
                              seed=3, **clean(pause_s=1.0, end_s=2.0)))
    late = next(i for i, f in enumerate(frames) if f.ply == 2 and not f.hand)
    again = [replace(f, time=frames[-1].time + 0.25 * (i + 1))
             for i, f in enumerate(frames_of(start, [], still_s=3.0))]
    c, events = watch(tmp_path, frames[late:] + again, start=start, corner_46=frames[0].corner_46)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    [note] = said(caplog, "The game had begun before the board was seen still", logging.INFO)
    assert "22-44 45x43" in note
    [first] = c.store.games()[:1]
    assert [m.text for m in c.store.moves(first.id)] == texts
    assert c.store.scoresheet(first.id).result == "0-1"
    assert c.game_id != first.id and c.arbiter.over is None and c.arbiter.game.start == start



def test_a_set_up_whose_every_piece_moved_before_the_board_stood_still_is_read_by_its_first_look(
        tmp_path, caplog):
    """Art. 22: the moves are recorded as played.  A blitz endgame of seven pieces (the engine
    game selfplay-45's start) whose first hand came before the camera saw the board still for
    a third of a second: 7-1, 25x3, 1x48, and the first still board has two kings left, on
    squares no set-up piece stood on.  Read with looks learnt from itself as the set-up
    position, White's colour came from emptied squares, no legal play explained it, and
    nothing was recorded (the bench's seed 2121019).  The camera's first picture showed the
    set-up, however briefly: the board is learnt from it (or, too short a look, the still board
    is read with the looks it gives each kind), and the three plies are recorded with the draw
    (Art. 21.1), said on the scoresheet to be caught up."""
    caplog.set_level(logging.INFO, logger="device.service")
    start = Position.from_fen("W:W7,13,39:BK6,K25,27,K42")
    texts = ["7-1", "25x3", "1x48"]
    moves = moves_of(*texts, start=start)
    frames = list(game_frames(start, moves, fps=4, camera=CAMERA, style=Style(), lighting=Lighting(),
                              seed=3, **clean(pause_s=1.0, end_s=2.0)))
    reach = next(i for i, f in enumerate(frames) if f.hand)
    late = next(i for i, f in enumerate(frames) if f.ply == 3 and not f.hand)
    shown = frames[:2] + [frames[reach]] + frames[late:]  # the set-up still for a quarter second
    c, events = watch(tmp_path, shown, start=start, corner_46=frames[0].corner_46)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == texts and c.arbiter.over is not None
    assert "3 plies not seen one by one" in c.pdn()


def test_a_hand_resting_over_squares_is_not_learnt_as_the_board(tmp_path, caplog):
    """A player's hand lies still over a corner of the board, over squares 26-46, when the
    companion first sees the board still, one of White's two kings under it (the bench's
    selfplay-41 at seed 1818006, its scene redrawn: blue kings for White on blue-green squares,
    a dim room, a camera nearly overhead and shaking a little).  The hand's skin was learnt as
    the squares' looks and as White's colour: two empty squares read as White's all game and
    not one move was recorded.  Something reaching in over the board's edge is told in a still
    picture by the light squares it covers (no piece stands on one): the board is learnt once it
    has gone, and the game is recorded."""
    caplog.set_level(logging.INFO, logger="device.service")
    start = Position.from_fen("W:WK26,K29:BK47")
    texts = ["29-18", "47-20", "18-23", "20-3"]
    moves = moves_of(*texts, start=start)
    seed = 1818006
    camera = Camera(tilt_deg=4.42, yaw_deg=44.0, roll_deg=2.83, distance_mm=850.7, fov_deg=72.6,
                    k1=-0.081, k2=0.027, look_dx_mm=25.5, look_dy_mm=-4.7)
    style = Style(light_square=(221, 219, 235), dark_square=(73, 58, 29), border=(32, 84, 17),
                  table=(28, 87, 109), white_piece=(147, 47, 11), black_piece=(55, 227, 226),
                  border_print=(22, 58, 11), edge_line=(43, 34, 17), border_mm=32.1,
                  piece_diameter=0.863, man_height=0.18, piece_gloss=0.5)
    lighting = Lighting(gradient=0.23, gradient_deg=144.0, vignette=0.32, exposure=0.83,
                        white_balance=(0.98, 0.96, 0.963), shadow=0.38, light_azimuth_deg=331.0,
                        light_elevation_deg=81.0, noise=0.0, blur=0.71, jpeg_quality=None,
                        sheen=0.115)
    frames = bench_scene(start, moves, seed, camera, style, lighting)
    # (the companion started with the hand there: before it came, the board is learnt from the
    # camera's first look, `Companion._calibrate_on_first_look`)
    lying = next(i for i, f in enumerate(frames)
                 if f.hand and f.ply == 0 and {26, 36, 46} & set(f.occluded))
    c, events = watch(tmp_path, frames[lying:], start=start, corner_46=frames[0].corner_46)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert said(caplog, "Something lies over squares", logging.INFO)
    assert c.arbiter.game.move_texts() == texts


def test_a_set_up_game_played_out_unseen_under_a_glare_is_recorded(tmp_path, caplog):
    """Art. 20a, Art. 22: a king against two set up (the bench's selfplay-40 at seed 1818005,
    its scene redrawn: a camera 43 degrees off vertical, a lamp's glare over the board), 21-3
    46-23 3x43 played before the camera first saw the board still.  Learnt as the set-up
    position, White's colour was the median of the king on 35 and the emptied 21 under the
    glare, so 21 read "White's" unsurely and the empty 11 under the glare surely: no legal play
    explained the board and nothing was recorded.  A cell of a side's pieces with the empty
    squares' hue is an empty square lit otherwise; and play nobody watched is legal play, not a
    king's move with a piece taken off (Art. 27b) that gives the same board: the three plies
    and the result are recorded, with the route the board cannot tell said on the
    scoresheet."""
    caplog.set_level(logging.INFO, logger="device.service")
    start = Position.from_fen("W:WK21,K35:BK46")
    moves = moves_of("21-3", "46-23", "3x43", start=start)
    frames = glare_scene(start, moves)
    late = next(i for i, f in enumerate(frames) if f.ply == 3 and not f.hand)
    c, events = watch(tmp_path, frames[late:], start=start, corner_46=frames[0].corner_46)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert said(caplog, "The game had begun before the board was seen still", logging.INFO)
    assert c.arbiter.game.positions[-1].pieces() == frames[-1].pieces
    assert c.arbiter.over is not None and c.store.games()[0].result == "1-0"
    assert "these moves were not seen one by one" in c.pdn()


def test_an_empty_square_under_a_lamps_glare_is_not_taken_for_a_pale_man(tmp_path):
    """Art. 22, Art. 27: a set-up ending of three kings (the bench's selfplay-35 at seed
    2525006, its scene redrawn: a lamp's glare centred on the empty dark square 34).  The glare
    lit the square's middle, where a piece's top is read, far more than its corners, so the top
    stood off the floor as a pale man's does, not as an empty square's: 34 read as a white man
    at 0.97 on every board, and White's first move was named "several pieces moved".  The
    square's own empty look, learnt from the set-up, tells it: the seven plies are recorded and
    nothing is irregular."""
    start = Position.from_fen("W:WK11,K45:BK20")
    texts = ["11-44", "20-47", "45-40", "47-15", "44-22", "15-29", "40x23"]
    moves = moves_of(*texts, start=start)
    camera = Camera(tilt_deg=35.12905330039286, yaw_deg=-164.54689061790907,
                    roll_deg=-1.8435794676838562, distance_mm=783.575181365279,
                    fov_deg=63.5192264818523, k1=-0.11917009781150233, k2=0.039774877947673426,
                    look_dx_mm=-5.612309612809654, look_dy_mm=-7.1120876471868275,
                    width=1280, height=960, focal_px=None)
    style = Style(light_square=(186, 228, 232), dark_square=(74, 89, 161), border=(82, 82, 102),
                  table=(18, 72, 108), white_piece=(168, 221, 255), black_piece=(41, 65, 85),
                  border_print=None, edge_line=(44, 53, 96), border_mm=27.09332392976532,
                  piece_diameter=0.8975988659311388, man_height=0.11078655809171516,
                  side_shade=0.8101879800639781, piece_relief=0.08683749803114027,
                  piece_gloss=0.018014097973417353, square_grain=0.5211924096039602,
                  table_grain=0.8040871751916852, texture_seed=779298194)
    lighting = Lighting(gradient=0.11296975419982946, gradient_deg=101.56214130026122,
                        vignette=0.23409577530885628, exposure=0.650589724318534,
                        white_balance=(1.044208667566861, 0.9084249489285722,
                                       0.9195386874219026),
                        glare=0.738037519755584, glare_xy=(0.39027635802321026, 0.4517664771141331),
                        glare_radius=0.0413332720080217, shadow=0.2969286434739933,
                        light_azimuth_deg=322.0680613375513,
                        light_elevation_deg=46.04024294170172, noise=0.0,
                        blur=0.9182081579545224, motion_deg=115.00216064403165,
                        jpeg_quality=None, sheen=0.089)
    frames = bench_scene(start, moves, 2525006, camera, style, lighting)
    c, events = watch(tmp_path, frames, start=start, corner_46=frames[0].corner_46)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == texts


def test_a_lone_king_the_colour_of_the_squares_moved_unseen_is_never_taken_as_captured(
        tmp_path, caplog):
    """Art. 20a: a game is lost only by a player with no pieces (or no move) left.  A white
    king the green of the dark squares against two black kings (the system bench's selfplay-38
    at seed 2929001, its scene redrawn): the king's 9-25 was played before the camera first
    saw the board still.  Read as the set-up position, White's lone king looked empty by its
    colour alone, White's side was taken as gone from the board, four plies ending in the
    king's capture were "found played" and the game recorded as lost, 0-1, before the camera
    had seen a move.  The king's outline counts it: no side is gone while more dark squares
    show a piece's outline than the other side has pieces, and no result is recorded."""
    caplog.set_level(logging.INFO, logger="device.service")
    start = Position.from_fen("W:WK9:BK23,K38")
    green = (40, 110, 45)  # BGR: the dark squares' green, and White's kings
    style = Style(dark_square=green, white_piece=green, black_piece=(20, 200, 230),
                  light_square=(225, 205, 235))
    frames = list(game_frames(start, moves_of("9-25", start=start), fps=4, camera=CAMERA,
                              style=style, lighting=Lighting(), seed=3,
                              **clean(pause_s=1.0, end_s=3.0)))
    late = next(i for i, f in enumerate(frames) if f.ply == 1 and not f.hand)
    c, events = watch(tmp_path, frames[late:], start=start, corner_46=frames[0].corner_46)
    assert not said(caplog, "found played (9-25 23-", logging.INFO)
    assert c.arbiter.over is None and all(g.result == "*" for g in c.store.games())
    assert "x" not in " ".join(c.arbiter.game.move_texts()), c.arbiter.game.move_texts()


def test_the_start_position_seen_for_a_moment_before_a_bump_is_learnt_and_the_moves_seen(
        tmp_path, caplog):
    """Art. 22: the moves are recorded as played.  The camera saw the start position still for
    two frames, then it was bumped, then blitz began (the system bench's lidraughts-8 at seed
    2929002, the real game's 33-29 20-25 29-23 18x29): the picture never stood still long
    enough to learn the board until four plies on, and of the two routes to that board (33-28
    20-25 28-23 18x29 gives it too) the wrong one was recorded.  The camera's first look, before
    anything moved, shows the start position: the board is learnt from it, and the moves are
    seen as they are played."""
    caplog.set_level(logging.INFO, logger="device.service")
    game = read_file(str(DATA / "lidraughts-frisian.pdn"))[7].game
    plies = 5
    texts = game.move_texts()[:plies]
    frames = frames_of(Position.start(), game.moves[:plies])
    reach = next(i for i, f in enumerate(frames) if f.hand)
    bumped = [replace(frames[0], image=np.roll(frames[0].image, shift, axis=axis))
              for shift, axis in ((4, 1), (-3, 0), (3, 1), (-4, 0))]
    # blitz: after each of the first four plies the board stands still for one frame only
    quick = [f for i, f in enumerate(frames[reach:], reach)
             if f.hand or f.ply >= 4 or frames[i - 1].hand]
    shown = [replace(f, time=0.25 * k, index=k)
             for k, f in enumerate(frames[:2] + bumped + quick)]
    c, events = watch(tmp_path, shown, corner_46=frames[0].corner_46)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert not said(caplog, "The game had begun before the board was seen still", logging.INFO)
    assert c.arbiter.game.move_texts() == texts


def test_a_set_up_board_whose_white_men_look_like_the_empty_squares_is_not_taken_as_played_out(
        tmp_path):
    """Art. 20a: a game is over when a side has no piece left, seen or declared, never guessed.
    The bench's selfplay-43 at seed 3535003, redrawn: four white men and five black pieces set
    up in a dim room (exposure 0.45), White's men dyed the empty dark squares' colour (Lab
    within 2 of them).  Read as if six plies on, every white man taken, the board explained
    itself (White's colour, learnt from no square, stood "359 spreads" from Black's): six plies
    were recorded from the board first seen still (a third of a second in on the bench, two
    seconds here), and the game declared 0-1, faster than hands can play; refused that, from a
    later picture, though the camera's first look had shown White's men no more apart from the
    empty squares than 0.55 spreads.  Only 19-14 was played, and no other move is recorded;
    the game is not over."""
    from rules.events import GameOver

    camera = Camera(tilt_deg=27.135, yaw_deg=-41.254, roll_deg=-4.132, distance_mm=1330.83,
                    fov_deg=53.688, k1=0.00111, k2=0.03076, look_dx_mm=6.564, look_dy_mm=8.985)
    style = Style(light_square=(236, 248, 224), dark_square=(68, 49, 53), border=(28, 50, 21),
                  table=(37, 95, 191), white_piece=(72, 47, 51), black_piece=(83, 25, 183),
                  border_print=None, edge_line=None, border_mm=16.573, piece_diameter=0.8663,
                  man_height=0.14811, side_shade=0.8909, piece_relief=0.6233,
                  piece_gloss=0.2905, square_grain=0.4708, table_grain=0.6775,
                  texture_seed=359712019)
    lighting = Lighting(gradient=0.4682, gradient_deg=248.74, vignette=0.0895, exposure=0.4521,
                        white_balance=(0.9542, 1.0027, 1.0027), glare=0.3237,
                        glare_xy=(0.27128, 0.62155), glare_radius=0.03982, shadow=0.336,
                        light_azimuth_deg=173.13, light_elevation_deg=62.66, noise=0.0,
                        blur=0.9166, jpeg_quality=None, sheen=0.101)
    start = Position.from_fen("W:W9,13,19,29:BK22,25,32,35,37")
    frames = bench_scene(start, moves_of("19-14", start=start), 3535003, camera, style,
                         lighting, fps=6)
    c = Companion(source=None, store=GameStore(tmp_path / "games.sqlite3"), tags={"Event": "t"},
                  corner_46=frames[0].corner_46, start=start)
    c.open_game()
    events = []
    for f in frames:  # the set-up, 19-14, and the board still after it
        events.extend(c.process(Frame(f.image, f.time, f.index)))
    assert not [e for e in events if isinstance(e, (GameOver, Irregularity))], \
        [str(e) for e in events]
    assert c.arbiter.game.move_texts() in ([], ["19-14"])
    assert c.arbiter.over is None
