"""Board orientation "auto" when White's pieces are the darker ones: the start position looks the
same turned half round with the sides swapped, the convention (lighter pieces are White's) picks
one, and White's first move shows whether it was right (device.service, vision.calibration,
rules.observation, rules.matching).  A configured orientation the board does not fit (turned a
half or a quarter round) is followed and warned about."""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from device.store import GameStore
from rules.events import Irregularity
from rules.lines import fits_a_line
from rules.matching import fits_a_move, shows_half_turn
from rules.observation import CONTENTS, Observation, Settled, SquareReading
from rules.piece import BLACK, WHITE, Piece
from rules.position import Position
from vision.calibration import Orientation
from vision.pipeline import BoardWatcher, WatchConfig
from renderer.render import Camera, Style, game_frames
from renderer.sequence import GameFrame, Pace

from tests.device_helpers import watch
from tests.vision_helpers import moves_of

START = Position.start()
#: The first four moves of a real game (game 4 of the lidraughts file).
OPENING = ("31-26", "20-25", "37-31", "18-22")
CAMERA = Camera(tilt_deg=22.0, yaw_deg=-8.0, distance_mm=880.0)
#: A set whose White pieces are the darker ones.
DARK_WHITE = replace(Style(), white_piece=(40, 40, 45), black_piece=(215, 225, 230))
NOTE = "White's pieces are the darker ones here"


#: The seed's own players, no arm lying across the board (`Pace.drape`): every position of
#: the opening is seen settled.
_PACE = replace(Pace.of_seed(3), drape=0.0)


@pytest.fixture(scope="module")
def dark_frames() -> list[GameFrame]:
    return list(game_frames(START, moves_of(*OPENING), fps=6, camera=CAMERA, style=DARK_WHITE,
                            seed=3, pause_s=1.0, pace=_PACE))


@pytest.fixture(scope="module")
def light_frames() -> list[GameFrame]:
    return list(game_frames(START, moves_of(*OPENING), fps=6, camera=CAMERA, style=Style(),
                            seed=3, pause_s=1.0, pace=_PACE))


def saved(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "calibration.json").read_text())


# -- the service -------------------------------------------------------------------------------

def test_white_with_the_darker_pieces_is_found_by_its_first_move(tmp_path, dark_frames, caplog):
    caplog.set_level(logging.INFO, logger="device.service")
    c, events = watch(tmp_path, dark_frames)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == list(OPENING)
    truth = dark_frames[0].corner_46
    assert c.watcher.calibration.orientation.corner_46 == truth
    assert saved(tmp_path) == {"corner_46": truth}
    notes = [r.getMessage() for r in caplog.records if NOTE in r.getMessage()]
    corner = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}[truth]
    assert notes == [f"{NOTE}: square 46 is at the {corner} of the picture"]  # said once
    assert c.white_is_lighter is False  # the session's next game starts from that


def test_white_with_the_lighter_pieces_is_read_as_before(tmp_path, light_frames, caplog):
    caplog.set_level(logging.INFO, logger="device.service")
    c, events = watch(tmp_path, light_frames)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == list(OPENING)
    assert saved(tmp_path) == {"corner_46": light_frames[0].corner_46}
    assert not [r for r in caplog.records if "White's pieces are the" in r.getMessage()]
    assert c.white_is_lighter is True


CORNERS = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
MISFIT = "The board does not fit the configured orientation"


def misfits(caplog) -> list[str]:
    """The warnings that the board does not fit the configured orientation."""
    return [r.getMessage() for r in caplog.records
            if MISFIT in r.getMessage() and r.levelno == logging.WARNING]


def test_a_configured_corner_a_half_turn_off_is_followed_and_said(tmp_path, dark_frames, caplog):
    """Square 46 configured a half turn away (the players sit the other way round): the start
    position cannot show it, White's first move does (it reads as Black's, and only turned as
    White's), or the first board seen still up to six plies on (with the next mover's
    hand hovering over the board, three: only turned does legal play give it).  The board is
    followed, never recorded mirrored, and the warning names the corner to configure, once."""
    caplog.set_level(logging.INFO, logger="device.service")
    truth = dark_frames[0].corner_46
    wrong = (truth + 2) % 4
    c, events = watch(tmp_path, dark_frames, corner_46=wrong, config_path="/etc/box.toml")
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == list(OPENING)
    assert c.watcher.calibration.orientation.corner_46 == truth
    assert saved(tmp_path) == {"corner_46": truth}
    assert misfits(caplog) == [
        f"{MISFIT} (square 46 at the {CORNERS[wrong]}): it fits with square 46 at the "
        f"{CORNERS[truth]}. Following the board; fix it in /etc/box.toml: "
        f'board.orientation = "{CORNERS[truth]}"']
    assert not [r for r in caplog.records if NOTE in r.getMessage()]  # no colour convention


def test_a_configured_corner_a_quarter_turn_off_is_followed_and_said(tmp_path, light_frames,
                                                                     caplog):
    """Square 46 configured a quarter turn away lies on a light square: the start position
    shows it at once.  The board is followed (which of the two dark corners, the convention
    says until White's first move) and the warning names the corner, once."""
    caplog.set_level(logging.INFO, logger="device.service")
    truth = light_frames[0].corner_46
    wrong = (truth + 1) % 4
    c, events = watch(tmp_path, light_frames, corner_46=wrong)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == list(OPENING)
    assert c.watcher.calibration.orientation.corner_46 == truth
    [said] = misfits(caplog)
    assert said.startswith(f"{MISFIT} (square 46 at the {CORNERS[wrong]}): it fits with square "
                           f"46 at the {CORNERS[truth]} (taking the lighter pieces for White's")
    assert said.endswith(f'fix it in the configuration file: board.orientation = "{CORNERS[truth]}"')


def test_a_configured_corner_that_fits_is_not_warned_about(tmp_path, light_frames, caplog):
    caplog.set_level(logging.INFO, logger="device.service")
    c, events = watch(tmp_path, light_frames[:40], corner_46=light_frames[0].corner_46)
    assert c._calibrated and not misfits(caplog)


def test_a_guess_saved_before_the_first_move_is_still_checked_after_a_restart(tmp_path,
                                                                             dark_frames):
    """The companion restarted with a new game open and no move recorded: the corner saved then
    was the convention's guess, and White's first move still corrects it."""
    truth = dark_frames[0].corner_46
    store = GameStore(tmp_path / "games.sqlite3")
    store.new_game({"Event": "t"}, START.fen())
    store.close()
    (tmp_path / "calibration.json").write_text(
        json.dumps({"corner_46": (truth + 2) % 4, "by_convention": True}))
    c, events = watch(tmp_path, dark_frames)
    assert c.resumed
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == list(OPENING)
    assert saved(tmp_path) == {"corner_46": truth}


# -- vision: the calibration turned ---------------------------------------------------------------

def test_a_set_up_board_learnt_with_a_hand_over_it_keeps_the_configured_corner(tmp_path, caplog):
    """A set-up endgame of three kings (the bench's selfplay-40 scene at seed 3333013) with a
    player's hand lying still over the squares of White's king on 21 for longer than the
    companion waits for it to go: the board is learnt with it there.  Read with the hand over
    it, the board fits square 46's corner half turned about as well as the configured one (a
    glare taken for a hand did so, and the game was followed half turned and nothing
    recorded): a board with something over its squares never overrules a configured corner.
    Learnt as configured, nothing is said against it."""
    from types import SimpleNamespace

    from renderer.hands import Hand
    from renderer.render import Renderer
    from tests.test_vision_covered import GLARE_CAMERA, GLARE_LIGHT, GLARE_START, GLARE_STYLE

    caplog.set_level(logging.INFO, logger="device.service")
    pieces = Position.from_fen(GLARE_START).pieces()
    hand = Hand(x_mm=140.0, y_mm=140.0, from_deg=180.0, height_mm=20.0, sleeve_mm=300.0)
    picture = Renderer().render(pieces, GLARE_CAMERA, GLARE_STYLE, GLARE_LIGHT, hand=hand, seed=1)
    assert 21 in picture.occluded
    # (the hand misleads a board read alone: it fits half turned)
    alone = BoardWatcher(WatchConfig()).calibrate(picture.image, board=pieces)
    assert alone.covered and alone.orientation.corner_46 == (picture.corner_46 + 2) % 4
    frames = [SimpleNamespace(image=picture.image, time=0.2 * i, index=i) for i in range(40)]
    c, _ = watch(tmp_path, frames, corner_46=picture.corner_46,
                 start=Position.from_fen(GLARE_START))
    assert c._calibrated
    assert c.watcher.calibration.orientation.corner_46 == picture.corner_46
    assert not misfits(caplog)
    assert [r for r in caplog.records if "although something still lies over" in r.getMessage()]


def test_the_board_is_learnt_from_the_clearest_picture_seen_while_waiting_for_a_hand(
        tmp_path, caplog):
    """The start position: a hand lies over the edge, over five squares, for three seconds;
    then an arm lies further in, over fourteen, until the companion has waited long enough
    (`COVERED_WAIT_S`).  The board is learnt from the clearer picture, the first.  Learnt from
    the one in front of it when the wait ran out (a hand hovering over the middle of the board
    by then), a dim game's colours were learnt from the arm and nothing was recorded (the other
    renderer's selfplay-4 at seed 5151010)."""
    from types import SimpleNamespace

    from renderer.hands import Hand
    from renderer.render import Lighting, Renderer

    caplog.set_level(logging.INFO, logger="device.service")
    renderer = Renderer()
    pictures = {name: renderer.render(START.pieces(), Camera(), Style(), Lighting(), seed=1,
                                      hand=Hand(x_mm=x, y_mm=200.0, from_deg=180.0,
                                                height_mm=20.0, sleeve_mm=300.0))
                for name, x in (("edge", 100.0), ("further", 350.0))}
    corner = pictures["edge"].corner_46
    covered = {name: BoardWatcher(WatchConfig(corner_46=corner)).calibrate(p.image).covered
               for name, p in pictures.items()}
    assert 0 < len(covered["edge"]) < len(covered["further"])
    frames = [SimpleNamespace(image=pictures["edge" if i < 15 else "further"].image,
                              time=0.2 * i, index=i) for i in range(60)]
    c, _ = watch(tmp_path, frames, corner_46=corner)
    assert c._calibrated
    assert c.watcher.calibration.covered == covered["edge"]
    learnt = [r.getMessage() for r in caplog.records
              if "although something still lies over" in r.getMessage()]
    assert learnt and learnt[0].endswith(", ".join(map(str, covered["edge"])))


def test_orientation_turned_puts_square_n_where_51_minus_n_was():
    for k in range(4):
        o = Orientation(k)
        turned = o.turned()
        assert turned.corner_46 == (o.corner_46 + 2) % 4
        assert turned.dark_parity == o.dark_parity
        assert turned.square_cells() == tuple(reversed(o.square_cells()))
        assert turned.turned() == o


def test_a_calibration_turned_reads_like_one_learnt_the_right_way_round(dark_frames):
    """Calibrated with square 46 a half turn away, the colours are learnt with the sides swapped
    (the lighter men stand where it puts White's): turned, it reads every square of a later
    frame, its distribution too, as the calibration learnt the right way round does."""
    truth = dark_frames[0].corner_46
    right = BoardWatcher(WatchConfig(corner_46=truth))
    right.calibrate(dark_frames[0].image)
    wrong = BoardWatcher(WatchConfig(corner_46=(truth + 2) % 4))
    wrong.calibrate(dark_frames[0].image)
    later = next(f for f in dark_frames if f.ply == 3 and f.settled)
    assert wrong.read(later.image).text() != right.read(later.image).text()
    wrong.turn_half_round()
    assert wrong.calibration.orientation == right.calibration.orientation
    assert wrong.config.corner_46 == truth
    got, want = wrong.read(later.image), right.read(later.image)
    assert got.board() == want.board() == later.pieces
    for a, b in zip(got.squares, want.squares):
        assert a.content == b.content
        assert np.allclose(a.distribution, b.distribution, atol=1e-6)


# -- rules: an observation turned and what fits a move -------------------------------------------

def test_an_observation_turned_swaps_squares_and_sides():
    man, king = Piece(WHITE), Piece(BLACK, True)
    dist = (0.05, 0.6, 0.1, 0.2, 0.05)  # in CONTENTS order: empty, w, W, b, B
    obs = Observation.from_board({}).with_readings({
        3: SquareReading(man, 0.6, Piece(BLACK), distribution=dist),
        40: SquareReading(king, 0.97, Piece(BLACK)),
        12: SquareReading(None, 0.5, occluded=True),
    })
    turned = obs.turned()
    r = turned.reading(48)
    assert r.content == Piece(BLACK) and r.alternative == Piece(WHITE) and r.confidence == 0.6
    assert r.distribution == (0.05, 0.2, 0.05, 0.6, 0.1)
    for content in CONTENTS:  # each content's probability moved to its swapped self
        swapped = None if content is None else Piece(content.color.other, content.king)
        assert r.probability(swapped) == obs.reading(3).probability(content)
    assert turned.reading(11).content == Piece(WHITE, True)
    assert turned.reading(39).occluded and turned.reading(39).content is None
    assert turned.turned() == obs
    assert Observation.from_board(START.pieces()).turned() == Observation.from_board(START.pieces())
    settled = Settled(obs, lifted=(32, 3), time=1.5, complete=True)
    assert settled.turned() == Settled(turned, lifted=(19, 48), time=1.5, complete=True)


@pytest.mark.parametrize("board, as_read, turned", [
    (START.pieces(), False, False),                                 # nothing moved: neither
    (START.play(START.parse_move("32-28")).pieces(), True, False),  # White's first move
    ({**{sq: p for sq, p in START.pieces().items() if sq != 19}, 23: Piece(BLACK)},
     False, True),                                                  # Black's man, or White's turned
])
def test_a_board_fits_a_move_of_white_as_read_or_turned(board, as_read, turned):
    obs = Observation.from_board(board, confidence=0.99)
    assert fits_a_move(obs, START) is as_read
    assert fits_a_move(obs.turned(), START) is turned


def test_a_hidden_board_fits_both_ways():
    """Squares under a hand tell nothing: such a board fits a move either way round, and so
    tells nothing about the orientation."""
    hidden = range(16, 36)  # the rows every first move of either side starts or ends on
    obs = Observation.from_board(START.pieces()).with_readings(
        {sq: SquareReading(None, 0.3, occluded=True) for sq in hidden})
    assert fits_a_move(obs, START) and fits_a_move(obs.turned(), START)


def test_a_board_three_plies_on_read_a_half_turn_off_is_told_by_the_lines_that_give_it():
    """31-26 20-25 37-31 seen still only at their end (hands hovering over the board between
    the moves), read a half turn round with the sides swapped: no single move gives it either
    way; only turned does a line of legal moves give it.  Read as it stands, it is 31-26 and a
    black man's "14-25" no move makes."""
    played = START.play_text("31-26").play_text("20-25").play_text("37-31")
    as_played = Observation.from_board(played.pieces(), confidence=0.99)
    mirrored = as_played.turned()
    assert not fits_a_move(mirrored, START) and not fits_a_move(as_played, START)
    assert fits_a_line(as_played, START, 6) is True and fits_a_line(mirrored, START, 6) is False

def test_a_configured_corner_is_overruled_only_by_a_board_read_clearly():
    """Black's man 19-23 on White's first move is White's 32-28 seen a half turn round.  Read
    surely, it overrules a configured corner (which is then warned about); read unsurely (a set
    whose pieces look like the squares), it turns only a guessed orientation: a misread first
    move turned a configured corner that was right, and the whole game was recorded mirrored."""
    board = {**{sq: p for sq, p in START.pieces().items() if sq != 19}, 23: Piece(BLACK)}
    sure = Observation.from_board(board, confidence=0.99)
    assert shows_half_turn(sure, START) and shows_half_turn(sure, START, clearly=True)
    unsure = sure.with_readings({19: SquareReading(None, 0.6, Piece(BLACK)),
                                 23: SquareReading(Piece(BLACK), 0.6, None)})
    assert shows_half_turn(unsure, START) and not shows_half_turn(unsure, START, clearly=True)
    # White's own first move, or nothing moved, shows no half turn
    assert not shows_half_turn(Observation.from_board(START.play_text("32-28").pieces()), START)
    assert not shows_half_turn(Observation.from_board(START.pieces()), START, clearly=True)


def test_a_configured_corner_stands_once_white_was_seen_moving_first():
    """White's 31-26 under a glare: 31 still reads as White's man (surely) and 26 as one
    likely (0.87) on the first still board, which shows no half turn.  Black's 20-25 follows
    and 26 now reads empty: the board is White's 31-26 seen a half turn round, read clearly.
    The board before had shown White moving first as configured, so the configured corner
    stands (RULES.md: White moves first); without that board it would be overruled.  Followed
    turned, the whole game was read mirrored (the system bench's lidraughts-9 at seed
    909004: 1 ply of 35 right)."""
    white = Piece(WHITE)
    first = Observation.from_board({**START.pieces(), 26: white}, confidence=0.99).with_readings(
        {26: SquareReading(white, 0.87, None)})
    assert not shows_half_turn(first, START, clearly=True)
    later = {sq: p for sq, p in START.pieces().items() if sq != 20}
    later[25] = Piece(BLACK)
    second = Observation.from_board(later, confidence=0.99)
    assert shows_half_turn(second, START, clearly=True)
    assert not shows_half_turn(second, START, clearly=True, earlier=[first])
    # a board before that showed nothing of White's is no such evidence
    still = Observation.from_board(START.pieces(), confidence=0.99)
    assert shows_half_turn(second, START, clearly=True, earlier=[still])


def test_a_configured_corner_stands_while_a_square_of_whites_first_moves_reads_unsurely():
    """White's 32-27 into a lamp's glare: 27 reads empty at 0.64 and 32 White's man at 0.54 on
    every board, then Black's 18-22 is read surely.  The board is White's 33-29 seen a half
    turn round, every square it changes read surely, but White's own move may be there,
    misread: the configured corner stands until the squares White's first moves start from
    and land on read surely.  (Followed turned, the whole game was read mirrored and named
    irregular: the system bench's selfplay-23 at seed 1515018.)"""
    board = {sq: p for sq, p in START.pieces().items() if sq != 18}
    board[22] = Piece(BLACK)
    sure = Observation.from_board(board, confidence=0.99)
    assert shows_half_turn(sure, START, clearly=True)
    glare = sure.with_readings({27: SquareReading(None, 0.64, Piece(WHITE)),
                                32: SquareReading(Piece(WHITE), 0.54, None)})
    assert not shows_half_turn(glare, START, clearly=True)
    # a guessed orientation is still turned by it: White moves first (RULES.md)
    assert shows_half_turn(glare, START)


def test_a_configured_corner_takes_boards_in_passing_before_the_first_move(tmp_path):
    """Square 46's corner configured (and right), the next mover's hand hovering over the board
    from the first move on and every reply begun before the board was seen still: no board is
    seen without a hand until the opening is over.  Boards in passing were not taken before the
    first move while the corner was unconfirmed (only one showing White's move alone, which none
    did), and nothing of the opening was recorded; the configured corner is trusted as a still
    board trusts it, and the six plies are recorded, in order, with nothing irregular."""
    opening = ("33-28", "17-21", "31-27", "18-23", "34-30", "20-25")
    pace = replace(Pace.quick(), hover=1.0, early_reply=1.0, drape=0.0, rest=0.0, lay_aside=0.0)
    frames = list(game_frames(START, moves_of(*opening), fps=6, camera=CAMERA, style=Style(),
                              seed=3, pace=pace))
    c, events = watch(tmp_path, frames, corner_46=frames[0].corner_46)
    assert not [e for e in events if isinstance(e, Irregularity)], [str(e) for e in events]
    assert c.arbiter.game.move_texts() == list(opening)
