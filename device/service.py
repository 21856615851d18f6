"""The service: frame source -> vision -> arbiter -> sinks (DESIGN.md "Data flow").

`Companion` owns one game at a time.  Each frame goes to the `vision.pipeline.BoardWatcher`; a
settled board goes to the `rules.arbiter.Arbiter`; its events go, in this order, to the scoresheet
store (committed before anything else happens, so that a power cut loses nothing), the LED panel,
the announcer (speech) and the terminal view.  Sinks decide nothing.

On start it resumes the game in progress from the store (the board it then sees is checked
against it by the arbiter: an unchanged board says nothing, a move made meanwhile is recorded,
anything else is reported), or starts a new game.  The first still frame of a new game calibrates
vision on the start position (colours, orientation); the orientation is kept beside the database
so that a resumed game needs no start position.  After a game ends, setting up the start position
again starts the next game.

Set-up positions: a game may begin from any position (``start``: the configuration's
``[game] start`` or ``run --start FEN``); vision then calibrates on it, and it shows which way
round the board stands unless it looks the same turned half round.  A board that shows another
position than the start position is never taken for it, nor for a new game's set-up position
(the colours it would teach vision do not tell the three kinds of dark square apart,
`_kinds_apart`): the companion waits, and after `SET_UP_HINT_S` says once, at warning level,
how to give a set-up position.

Orientation: square 46's corner is configured (``board.orientation``), or given by markers, or
learnt from the start position.  That looks the same turned half round with the sides swapped,
so vision takes the lighter pieces for White's unless told otherwise.  When that convention was
wrong, White's first move reads as a move of Black's: while no move is recorded, a settled board
that no legal move of White explains but that one does once turned half round turns vision's
calibration (`vision.pipeline.BoardWatcher.turn_half_round`), is judged turned, and the user is
told once.  The convention the session learnt this way (White's pieces are the darker ones here)
holds for its next games; square 46's corner is learnt again for each game (the players may have
changed sides).

A board that does not fit the configured corner is followed, never recorded mirrored, and said
once per game at warning level with the corner to configure: a set-up position shows its corner
(learnt as with "auto"), the start position shows a corner a quarter turn off (square 46 on a
light square; the convention then picks between the two that fit), and White's first move, as
above, one a half turn off.

`Companion.run` is the main loop: it notifies systemd (READY once the board is watched, WATCHDOG
from each healthy pass of the loop, STOPPING at the end) and stops cleanly when ``stop`` is set
(the CLI sets it on SIGTERM and SIGINT).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Protocol, Sequence

from device.commands import is_adjourned
from device.errors import Refused
from device.library_pages import release_library_pages
from device.memory import release_frames
from device.notify import Notifier, watchdog_interval
from device.sources import CaptureThread, Frame, FrameSource
from device.store import GameStore, StoreSink, StoredGame
from rules.arbiter import Arbiter
from rules.events import CountersChanged, Event, LookAgain
from rules.game import Game
from rules.lines import fits_a_line
from rules.matching import changes_read_surely, fits_a_move, shows_half_turn
from rules.observation import Observation, Settled
from rules.piece import Color, Piece
from rules.position import Position

log = logging.getLogger(__name__)

#: When the arbiter cannot decide a board, vision looks again this often, this long apart.
LOOK_AGAIN_TIMES = 5
LOOK_AGAIN_AFTER_S = 0.4
#: A resumed game's board that the camera sees, standing still, but that does not show the
#: game's position this long is read without calibration (with the orientation saved or
#: configured), and the arbiter catches up from it.  After a restart (SIGKILL, the watchdog)
#: the board has gone on meanwhile; waiting 10 s let five more plies go by, beyond any catch-up
#: (`python -m bench.faults --faults sigkill --seed 13`: 18, 17 and 11 of 24 moves lost; with
#: 1 s, 0, 0 and 11).
CALIBRATE_RESUMED_S = 1.0

#: A board found that does not show the start position this long (set up from a problem, an
#: adjourned game) is said once to show another position, with how to give a set-up one.
SET_UP_HINT_S = 10.0
#: A board taken for the position a new game begins from must tell its three kinds of dark
#: square apart (empty, White's pieces, Black's): the least distance between the colours learnt
#: for them at least this many times the widest spread of one kind's looks (`_kinds_apart`).
#: Rendered under random light and sets (`tests.vision_helpers.drawn`): the start position gives
#: 0.85 and more (199 boards), set-up endgames taken for it 0.58 and less (198); set-up endgames
#: on their own frame 1.33 and more (108), the start position or another endgame taken for them
#: 0.84 and less but for one (121 of 122; 3.0: a board of three pieces whose squares happened to
#: hold pieces in the other).
START_KINDS_APART = 0.6
SET_UP_KINDS_APART = 1.0
#: The pieces' outlines tell the squares a position has pieces on from its empty dark squares
#: when a tenth of the pieces' cells at most show less of a round outline than this many times
#: the most any empty dark cell shows (`vision.squares.rim_contrast`): then only the sides'
#: colours need stand apart (`_kinds_apart`).  Rendered under random light and sets
#: (`tests.vision_helpers.drawn` at seed 4242, 52 scenes), against the empty cells' upper tenth
#: rather than their most: the start position gave 0.9 to 10, four endgames and a start
#: position a row off taken for it 0.87 and less (84 boards); the other renderer's start
#: positions 1.0 to 8.2 (10 scenes), 2.8 where the black men had the dark squares' colour.
OUTLINES_APART = 1.5
#: A kind's spread counts when it stands on this many squares or more: two pieces, one in a
#: glare, are no measure of how far a kind's looks spread.
SPREAD_SQUARES = 3
#: A set-up position given for the game that the board has shown this long, as far as each
#: square's look tells, is taken even when its kinds do not stand apart (`_calibration`).
SET_UP_TRUST_S = 6.0
#: No ply is made quicker than this (seconds: a hand reaches in, lifts a piece, puts it down and
#: leaves; the renderer's blitz takes 1.5-2.5 s a ply, lidraughts-9 at seed 3535001 twelve plies
#: in 22.6 s): a game found played out before the board stood still, in more plies than the
#: time watched allows at this pace, is a misreading (`_begun`).
BEGUN_PLY_S = 0.5

#: A camera whose read has not returned for this long (seconds) hangs: the service stops
#: feeding systemd's watchdog (a live camera gives several frames a second; a lost one raises
#: and is reopened by `device.sources.CaptureThread`, which never blocks this long).
CAMERA_HANG_S = 10.0
#: How far (in squares) the board found near ``[board] corners`` may lie from them and still be
#: taken for the configured place; farther, the camera or the board moved since they were saved.
CORNERS_TOLERANCE = 0.5
#: A resumed game's board is learnt (calibrated) from a picture that has stood still this long
#: (seconds): frames this far apart or more, each like the one before it.  "Like": no more than
#: `STILL_SHARE` of a `STILL_THUMB_PX` wide, blurred grey thumbnail changed by more than
#: `STILL_DELTA` grey levels (a hand, a piece carried; not the sensor's noise, a camera shaking
#: by a pixel or the exposure drifting a little).
CALIBRATE_STILL_S = 0.3
#: The board is learnt from the mean of the still stretch's last frames, this many at most: in a
#: dim room the noise of one frame blurs the colours learnt (it shrinks with the square root of
#: their number).
CALIBRATE_FRAMES = 8
#: The camera's first look, before anything moved, is learnt from when it is the mean of this
#: many frames or more, though too short a stretch to count as still (`_calibrate_on_first_look`):
#: one frame's noise in a dim room blurs the colours learnt.
FIRST_LOOK_FRAMES = 2
#: While the board cannot be learnt (not yet the game's position, or not found), a still picture
#: is tried again at most this often (seconds), and at once when a new still stretch begins:
#: every try finds the board and learns its looks, most of a second on a Raspberry Pi, and a
#: companion that tried on every frame fell minutes behind the camera (the other renderer's
#: lidraughts-10 at seed 8002: a 2-minute game took over 15 minutes).
CALIBRATE_RETRY_S = 0.5
#: While the board is not found in a frame, it is searched for again after this long (seconds of
#: the camera's time), twice as long after each search in vain, up to the most (`_board_box`).
BOX_RETRY_S = 1.0
BOX_RETRY_MOST_S = 16.0
#: A board learnt with something held still over squares from its edge (a hand resting on the
#: board, `Calibration.covered`) is learnt again on a later still picture, for this long (s):
#: the squares under the hand learnt its look (a hand resting over a corner at the start: two
#: empty squares read as White's all game, and not one move was recorded).  Then it is taken.
COVERED_WAIT_S = 4.0
#: A still board differing from the start position on at most this many squares may be a game
#: begun before the board was seen still (`Companion._begun`): six plies' moves and captures.
BEGUN_SQUARES = 16
#: A still board in the position one of the last this many games (not in progress) was left in
#: is that game's pieces still standing, never a new game begun unseen (`Companion._begun`).
LEFT_GAMES = 20
#: Still boards read before the first move kept to check a configured corner (`_oriented`).
FIRST_BOARDS = 20
#: The longest line of play from the start position that tells a board's orientation when it is
#: first seen still several plies on (`Companion._line_shows_half_turn`).
HALF_TURN_PLIES = 6
STILL_THUMB_PX = 160
STILL_DELTA = 12
STILL_SHARE = 0.002
#: The configuration's board.orientation -> the image corner index (TL, TR, BR, BL) of square 46.
CORNER_OF_ORIENTATION = {"top-left": 0, "top-right": 1, "bottom-right": 2, "bottom-left": 3}
_CORNER_NAMES = {v: k for k, v in CORNER_OF_ORIENTATION.items()}


def _kinds_apart(colours, board, between: "tuple[int, int] | None" = None) -> float:
    """How clearly the colours learnt from a calibration frame of ``board`` (square -> piece)
    tell the three kinds of dark square apart: the least distance between the colours learnt
    for empty squares, White's and Black's pieces, each colour channel measured in the widest
    spread of the looks of one kind standing on `SPREAD_SQUARES` squares or more in that
    channel (the root mean square over the channels: for spreads alike in every channel, the
    distance over the spread's length).  A board showing another position than the one
    calibrated on (an endgame taken for the start position) makes a kind learn the colour most
    of its squares show, another kind's (White's twenty squares learn the empty squares'
    colour), and the looks of what else stands there pass for its spread: the colours
    collapse, the ratio is small.  (Vision reads the calibration frame by each cell's own look,
    learnt from that frame, so the frame reads as the position calibrated on whatever stands
    there: the check must come from the colours.)  Per channel, since a kind may spread in one
    channel alone: glossy dark men under one lamp, their tops from L 16 to 124 across the board
    while their hue stood 9 spreads from the blue squares', measured 0.44 as one length and
    the start position was never taken."""
    import numpy as np

    spread = getattr(colours, "class_spread", None)
    if spread is None:
        return float("inf")
    kinds = [np.asarray(c, dtype=np.float64)
             for c in (colours.dark_square, colours.white_piece, colours.black_piece)]
    white = sum(p.color is Color.WHITE for p in board.values())
    squares = (50 - len(board), white, len(board) - white)  # in the colour model's class order
    counted = [np.asarray(s, dtype=np.float64) for s, n in zip(spread, squares)
               if n >= SPREAD_SQUARES]
    if not counted:
        return float("inf")
    widest = np.maximum(np.max(counted, axis=0), 1e-9)
    # Only kinds the board has on some square were learnt: a side with no piece there has no
    # colour to stand apart (its placeholder stood 359 spreads from Black's, and a set-up whose
    # white men had the empty squares' colour in a dim room was taken as six plies on, White's
    # men all taken: the system bench's selfplay-43 at seed 3535003)
    present = [n > 0 for n in squares]
    pairs = [(i, j) for i in range(3) for j in range(i + 1, 3) if present[i] and present[j]]
    if _outlines_apart(colours) and present[1] and present[2]:
        # Each piece shows its outline and no empty square does: the pieces stand where the
        # position has them, whatever their colours; the sides' colours must still differ.
        # Black men the grey of the dark squares, on a grey and white board, learnt 0.35
        # apart: the start position was never taken and no move was recorded (the other
        # renderer's lidraughts-10 at seed 43003), though every square read right.
        pairs = [(1, 2)]
    if between is not None:  # (two kinds alone, in the colour model's order)
        pairs = [between] if present[between[0]] and present[between[1]] else []
    if not pairs:
        return float("inf")
    return min(float(np.sqrt(np.mean(((kinds[i] - kinds[j]) / widest) ** 2))) for i, j in pairs)


def _outlines_apart(colours) -> bool:
    """Whether the calibration frame's pieces all but a tenth show their round outlines
    `OUTLINES_APART` times as clearly as any empty dark square does (`_kinds_apart`)."""
    pieces, empty = getattr(colours, "rim_pieces", None), getattr(colours, "rim_empty", None)
    return pieces is not None and empty is not None and pieces >= OUTLINES_APART * max(empty, 0.1)


def _half_turn(board) -> dict:
    """``board`` (square -> piece) turned half round with the sides swapped: what the camera
    sees of it from the other side."""
    return {51 - sq: Piece(p.color.other, p.king) for sq, p in board.items()}


class Sink(Protocol):
    def on_event(self, event: Event) -> object: ...


@dataclass
class Stats:
    frames: int = 0
    settled: int = 0
    in_passing: int = 0  # boards seen in passing (`Settled.provisional`) that the game took
    started: float = 0.0
    vision_s: float = 0.0
    calibration_tries: int = 0  # still pictures the board was tried to be learnt from

    @property
    def fps(self) -> float:
        spent = time.monotonic() - self.started
        return self.frames / spent if spent > 0 else 0.0


class Companion:
    """One board, one game at a time (see the module docstring)."""

    def __init__(self, *, source: FrameSource, store: GameStore, tags: dict[str, str],
                 panel=None, announcer=None, speaker=None, view=None, sinks: Sequence[Sink] = (),
                 notifier: Notifier | None = None, still_s: float = 0.1,
                 corner_46: int | None = None, state_dir: str | Path | None = None,
                 start: Position | None = None, markers: bool = False,
                 start_now: bool = False, config_path: str | None = None,
                 owns_store: bool = False, corners: Sequence[Sequence[float]] = ()) -> None:
        """``panel`` is the LED `CounterPanel`, ``announcer`` the speech `Announcer` (speaking
        through ``speaker``), ``view`` the `TerminalView`; ``sinks`` are further event sinks;
        ``markers``: four ArUco markers lie beside the board's corners (`vision.markers`).
        ``start``: the position new games begin from (default the start position);
        ``start_now``: it was given for this run (``run --start``), so a game in progress from
        another position is set aside unfinished rather than resumed (`open_game`);
        ``config_path``: the configuration file, named in what the user is told to fix.
        ``owns_store``: the store was opened for this companion (`device.app.build`), so `close`
        closes it; otherwise whoever opened it closes it.  ``corners``: the board's four outer
        corners in the picture (``[board] corners``, TL, TR, BR, BL), where it is looked for
        first (`_configured_location`)."""
        self.source = source
        self.store = store
        self.owns_store = owns_store
        self.corners = tuple(tuple(map(float, c)) for c in corners)
        self._corners_misfit = False  # said once: the board is not where the corners say
        self.tags = dict(tags)
        self.panel = panel
        #: The move-complete button (`device.button.MoveButton`), when one is configured: set
        #: by whoever builds the companion, wired to `move_complete` and `take_back`.
        self.button = None
        #: The club's screen (`device.web.WebServer`), when one is served: set by whoever
        #: builds the companion, closed with it.
        self.web = None
        #: The broker publisher (`device.broker.BrokerPublisher`), when the games are published:
        #: set by whoever builds the companion, closed with it (after the page).
        self.broker = None
        self.sinks = [panel, *sinks] if panel is not None else list(sinks)
        self.announcer = announcer
        self.speaker = speaker
        self.view = view
        self.notifier = notifier or Notifier()
        #: A camera whose read has not returned for this long (seconds) hangs (`run`).
        self.camera_hang_s = CAMERA_HANG_S
        self.still_s = still_s
        self.configured_corner = corner_46
        self.markers = markers
        self.state_file = Path(state_dir or Path(store.path).parent) / "calibration.json"
        self.stats = Stats()
        #: Commands for the loop, applied between frames: ``"take_back"`` and ``"complete"``
        #: from the button, or a callable ``command(companion, when) -> events`` (the page and
        #: the command line, `device.commands`), which is applied before calibration too and
        #: while no frame comes.
        self.commands: queue.Queue = queue.Queue()
        #: Called with the companion after each frame and after commands applied while no
        #: frame came (`device.live.LiveState.refresh`): what the state shows beyond events
        #: (calibrated, a new game begun).  Runs on the service's thread; must not block.
        self.watchers: list[Callable[["Companion"], None]] = []
        self.game_id: int | None = None
        self.arbiter: Arbiter | None = None
        #: The frame read last (the camera view's still, `device.commands.camera_still`).
        self.last_frame: Frame | None = None
        self.watcher = None
        self._calibrated = False
        self._retry_at: float | None = None
        self._retries = 0
        # the last "looking again" said (reason and squares), until the game goes on
        self._unclear_said: tuple | None = None
        self.resumed = False
        self.start = start or Position.start()
        self.start_now = start_now
        self.config_path = config_path
        #: The convention for the start position's orientation: White's pieces are the lighter
        #: ones, until a game of this session shows otherwise (see the module docstring).
        self.white_is_lighter = True
        # the orientation rests on that convention, no move has confirmed it yet
        self._orientation_guessed = False
        self._saved_guess = False  # a resumed game's saved corner was such a guess

    # -- games ----------------------------------------------------------------------------

    def open_game(self) -> None:
        """Resume the game in progress from the store, or start a new one.

        A game in progress that began from another position than ``start`` (the configuration's
        or the command line's) is resumed when it has moves, with a warning, unless ``start``
        was given for this run (``start_now``: it is then set aside unfinished, result ``*``,
        and a new game begins); one with no move yet begins from ``start`` instead (nothing
        recorded changes)."""
        game_id = self.store.game_in_progress()
        game = Game.from_scoresheet(self.store.scoresheet(game_id)) if game_id is not None else None
        if game is not None and game.start != self.start:
            if game.ply == 0:
                self.store.set_start(game_id, self.start.fen())
                self._new_game(game_id)
                self._new_watcher()
                return
            if self.start_now:
                self.store.finish(game_id, "*", "unterminated")
                self._note(f"Game {game_id} in progress ({game.ply} moves, begun from another "
                           "position) is set aside unfinished: a new game begins from the "
                           "position given by --start", logging.WARNING)
                game = None
            elif self.start != Position.start():
                self._note(f"Game {game_id} in progress began from another position than the "
                           f"configured start ([game] start in {self._config_name()}): it is "
                           "resumed; the configured position is for new games", logging.WARNING)
        if game is not None:
            self.game_id = game_id
            self.arbiter = Arbiter(game)
            self.resumed = True
            log.info("resumed game %d at move %d (%s to move); checking it against the board",
                     game_id, game.ply, game.position.turn)
            self._note(f"Resumed game {game_id} after {game.ply} moves: {game.position.turn} to move")
        else:
            self._new_game()
        self._new_watcher()

    def _new_game(self, game_id: int | None = None, start: Position | None = None) -> None:
        """A new game from ``start`` (default: the configured one; ``game_id``: the store's
        game, with no move yet, to use)."""
        start = start or self.start
        self.game_id = game_id if game_id is not None else self.store.new_game(self.tags,
                                                                               start.fen())
        self.arbiter = Arbiter(Game(start=start, tags=dict(self.tags)))
        self.resumed = False
        for sink in (self.announcer, self.panel):
            if sink is not None and hasattr(sink, "reset"):
                sink.reset()
        if start == Position.start():
            self._note(f"New game {self.game_id}: set up the start position")
        else:
            self._note(f"New game {self.game_id} from a set-up position: set up "
                       f"{start.fen()} ({start.turn} to move)")

    def _config_name(self) -> str:
        return self.config_path or "the configuration file"

    def _new_watcher(self, corner: int | None = None) -> None:
        from vision.markers import MarkerLayout
        from vision.pipeline import BoardWatcher, WatchConfig

        corner = corner if corner is not None else self.configured_corner
        self._saved_guess = False
        if corner is None and self.resumed:
            corner, guessed = self._saved_corner()
            # a guess saved before the game's first move (the companion restarted before it)
            self._saved_guess = guessed and self.arbiter.game.ply == 0
        self.watcher = BoardWatcher(WatchConfig(still_s=self.still_s, corner_46=corner,
                                                white_is_lighter=self.white_is_lighter,
                                                markers=MarkerLayout() if self.markers else None))
        # Vision calibrates on the board the game says stands there: the start position, or a
        # resumed game's or a set-up position (whose orientation it shows, unless it looks the
        # same turned half round).
        from_start = not self.resumed and self.arbiter.game.start == Position.start()
        self._calibrated = False
        self._orientation_guessed = False  # until calibrated
        # square 46's corner is the configuration's, no move has confirmed it yet
        self._configured_unconfirmed = False
        self._first_boards = []
        self._calibrate_board = None if from_start else self.arbiter.expected_board()
        self._calibrate_since: float | None = None
        # the board that last failed to be learnt (its thumbnail) and since when it has stood
        # so (`_not_calibrated`: a resumed game's board is read as it is once it stood so long)
        self._failed_board: "tuple[np.ndarray, float] | None" = None
        # (kinds apart, still picture): of the still pictures that showed a set-up position
        # too faintly to be sure, the one that showed it best (`_calibration`)
        self._set_up_best: "tuple[float, np.ndarray] | None" = None
        # a game begun before the board was seen still (`_begun`): the arbiter that found its
        # moves, and what it recorded, for the game (`_caught_up`)
        self._begun_trial: "tuple[Arbiter, list[Event]] | None" = None
        self._set_up_hinted = False
        self._out_of_view_said = ""  # the last board-out-of-view message said (`_not_calibrated`)
        self._next_game = False  # learning the next game's board after a game over
        self._covered_since: float | None = None  # since when a hand lay still over it (`_covered`)
        # the still picture with the fewest squares covered while waiting (squares, picture)
        self._covered_least: tuple[tuple[int, ...], np.ndarray] | None = None
        self._left_said: int | None = None  # the game left on the board said so (`_say_left`)
        # the board is learnt only once the picture has stood still (`_standing_still`)
        self._thumb: "np.ndarray | None" = None
        self._box: "tuple[tuple[int, int], tuple[int, int]] | None" = None  # `_board_box`
        self._box_tried = float("-inf")  # when it was last searched for, not found
        self._box_wait = BOX_RETRY_S  # how long after that it is searched for again
        self._still_since: float | None = None
        self._watching_since = float("-inf")  # the first frame's time for this game
        # the first still stretch's mean, however short, before anything moved (`_begun`)
        self._first_look = None
        self._first_look_frames = 0  # the frames it is the mean of
        self._first_look_tried = False  # learnt from, or tried (`_calibrate_on_first_look`)
        self._first_look_trusted = False  # a set-up taken as given on it (`_calibrate`)
        self._still_frames: deque = deque(maxlen=CALIBRATE_FRAMES)  # the still stretch's last
        self._tried_at: float | None = None  # the last try to learn the board, in this stretch

    def _saved_corner(self) -> tuple[int | None, bool]:
        """The saved corner of square 46 (None: none saved), and whether it was only the
        convention's guess (no move had confirmed it when it was saved)."""
        try:
            saved = json.loads(self.state_file.read_text())
            return int(saved["corner_46"]), saved.get("by_convention") is True
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None, False

    def _save_corner(self, corner: int, by_convention: bool = False) -> None:
        try:
            self.state_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.state_file.with_suffix(".tmp")
            state: dict[str, object] = {"corner_46": corner}
            if by_convention:
                state["by_convention"] = True
            tmp.write_text(json.dumps(state))
            tmp.replace(self.state_file)
        except OSError as e:
            log.warning("cannot save the board orientation in %s: %s", self.state_file, e)

    # -- frames ---------------------------------------------------------------------------

    def process(self, frame: Frame) -> list[Event]:
        """One frame through vision and, when the board settles, the arbiter."""
        self.stats.frames += 1
        self.last_frame = frame
        t0 = time.perf_counter()
        calibrating = not self._calibrated
        try:
            if calibrating:
                if self._watching_since == float("-inf"):
                    self._watching_since = frame.time
                self._calibrate(frame)
                settled = None
            else:
                settled = self.watcher.feed(frame.image, frame.time) or self.watcher.offered()
        finally:
            self.stats.vision_s += time.perf_counter() - t0
        watcher = self.watcher
        events = self._caught_up() if self._begun_trial is not None and self._calibrated else []
        events.extend(self._commands(frame.time))
        if not calibrating and watcher is self.watcher:  # (a command may begin a new game)
            if settled is None and self._retry_at is not None and frame.time >= self._retry_at \
                    and not self.watcher.hand_present and not self.watcher.moving:
                # the arbiter could not decide: look again at the still board (another frame),
                # never at one in motion: a king carried over the board by a hand the view did
                # not tell (its arm the colour of the border) was read as a man put down, a
                # false Art. 27 (the other renderer's selfplay-45)
                settled = self.watcher.button_pressed(frame.time)
            if settled is not None:
                self.stats.settled += not settled.provisional
                events.extend(self._judge(settled, frame.time))
        self._watched()
        return events

    def _calibrate(self, frame: Frame) -> None:
        from vision.kept import mean_frame
        from vision.locate import BoardNotFound
        from vision.pipeline import CalibrationError

        board = self._calibrate_board
        now = frame.time if frame.time is not None else time.monotonic()
        if not self._standing_still(frame.image, now):
            self._tried_at = None
            if self._first_look is not None and not self._first_look_tried:
                self._first_look_tried = True
                self._calibrate_on_first_look(board, now)
            return
        if self._tried_at is not None and now - self._tried_at < CALIBRATE_RETRY_S - 1e-9:
            return
        self._tried_at = now
        self.stats.calibration_tries += 1
        # the still stretch's mean: in a dim room one frame's noise blurs the colours learnt
        image = mean_frame(self._still_frames)
        if self._set_up_best is not None and self._trusted(board, now):
            # A set-up position given, shown faintly for a while.  The players may have moved
            # meanwhile: legal play from it that explains the still board now is recorded (a
            # 7-ply blitz endgame in a dim room, its first still board 4 plies on: taken as
            # the set-up position, turned half round, nothing was recorded).  Else it is taken
            # as given, on the picture that showed it best (quick play: a 2-ply endgame was
            # over before the trust came, and the board after it was learnt as the set-up
            # position, its moved pieces' squares wrong); what they played since is then seen
            # as play from it, and recorded.
            begun = self._begun(image, now, board)
            if begun is not None:
                self._calibrated_as(*begun, board)
                return
            image = self._set_up_best[1]
            if self._first_look is not None and not self._first_look_trusted:
                # the camera's first look, before anything moved, first: the picture that
                # showed it best may have come after moves (a set-up of kings under a camera
                # 5 degrees off vertical, taken on a picture two plies on, and a move never
                # played was recorded: the system bench's selfplay-45 at seed 3636010)
                self._first_look_trusted = True
                image = self._first_look
        try:  # with markers the watcher takes square 46's corner from them
            calibration, guessed = self._calibration(image, board, now)
        except (BoardNotFound, CalibrationError) as e:
            begun = self._begun(image, now, board) if isinstance(e, CalibrationError) else None
            if begun is None:
                self._not_calibrated(e, board, now)
                return
            calibration, guessed = begun
        else:
            if self._covered(calibration, now, image):
                return
            least = self._covered_least
            if least is not None and len(least[0]) < len(calibration.covered):
                # waited long enough: learnt from the clearest picture seen meanwhile, not
                # from one with more covered (a hand hovering over the middle of the board
                # when the wait ran out); what was played since is then caught up as play
                try:
                    calibration, guessed = self._calibration(least[1], board, now)
                except (BoardNotFound, CalibrationError):
                    # (the watcher may be left learnt from the clearer picture: learnt again)
                    calibration, guessed = self._calibration(image, board, now)
            self._covered_least = None
            if self._reads_otherwise(board):
                # Learnt, but a few squares read surely otherwise than the position has them:
                # misreads, or a move already played (an endgame of three kings whose first
                # move came before the board stood still: learnt as the set-up, the move was
                # never recorded and both its squares misread for the rest of the game).
                # Legal play from the position that explains the board is recorded; else the
                # board is learnt as the position, as before.
                begun = self._begun(image, now, board)
                if begun is not None:
                    calibration, guessed = begun
                else:
                    calibration, guessed = self._calibration(image, board, now)
        self._calibrated_as(calibration, guessed, board)

    def _calibrate_on_first_look(self, board, now: float) -> None:
        """Learn the board from the camera's first look (`_standing_still`: the frames before
        anything first moved, too few to count as standing still), when it shows the game's
        position (``board``; None: the start position) as a still stretch must: from
        `FIRST_LOOK_FRAMES` frames or more, no square covered, nothing read otherwise.  The
        start position stood still for two frames before the camera was bumped, then blitz
        began: the board was first seen still four plies on, and of the two routes to it
        (33-28 or 33-29, then 20-25, 28-23 or 29-23, 18x29) the wrong one was recorded (the
        system bench's lidraughts-8 at seed 2929002).  Learnt from the first look, the
        watcher sees the moves as they are played."""
        from vision.locate import BoardNotFound
        from vision.pipeline import CalibrationError

        if self._first_look_frames < FIRST_LOOK_FRAMES or self._set_up_best is not None:
            return
        try:
            calibration, guessed = self._calibration(self._first_look, board, now)
        except (BoardNotFound, CalibrationError):
            return
        if calibration.covered or self._reads_otherwise(board):
            return  # (learnt again from a still picture: `_calibrate`)
        self._calibrated_as(calibration, guessed, board)

    def _covered(self, calibration, now: float, image) -> bool:
        """Whether to learn the board again later: something reaching in over its edge was held
        still over squares in the picture (``image``) ``calibration`` was learnt from, for less
        than `COVERED_WAIT_S` so far.  Said once.  The picture with the fewest squares covered
        meanwhile is kept (`_covered_least`): when the wait is over, the board is learnt from
        it."""
        if not calibration.covered:
            self._covered_since = None
            self._covered_least = None
            return False
        if (self._covered_least is None
                or len(calibration.covered) < len(self._covered_least[0])):
            self._covered_least = (calibration.covered, image.copy())
        if self._covered_since is None:
            self._covered_since = now
            squares = ", ".join(map(str, calibration.covered))
            self._note(f"Something lies over squares {squares} (a hand?): waiting for it to go "
                       "before learning the board")
        if now - self._covered_since < COVERED_WAIT_S - 1e-9:
            return True
        least = ", ".join(map(str, self._covered_least[0]))
        self._note(f"Learning the board although something still lies over squares {least}",
                   logging.WARNING)
        return False

    def _calibrated_as(self, calibration, guessed: bool, board) -> None:
        """The watcher is calibrated (``calibration``; ``guessed``: square 46's corner is the
        convention's guess) for the game from ``board`` (None: the start position): said, with
        the camera's limits, and the corner saved.  Learnt again after a game over
        (`_learn_next_board`), the board shows the next game's position: that game begins."""
        if self._next_game and self.arbiter.over is not None:
            self._new_game()
        self._next_game = False
        self._calibrated = True
        # the still stretch's frames and the faint set-up's best picture are no longer needed:
        # eight full frames (30 MB at 1280 x 960) kept for the whole game (`bench.service`)
        self._still_frames.clear()
        self._set_up_best = None
        corner = calibration.orientation.corner_46
        self._orientation_guessed = guessed
        # the start position with square 46's corner configured: White's first move checks it
        self._configured_unconfirmed = (board is None and self.configured_corner is not None
                                        and corner == self.configured_corner)
        self._first_boards = []  # still boards read before the first move (`_oriented`)
        self._save_corner(corner, self._orientation_guessed)
        checked = "" if board is None else "; it shows the game's position"
        if self._orientation_guessed:
            checked += (f" (taking the {self._lighter_or_darker()} pieces for White's until "
                        "White's first move shows it)")
        self._note(f"Board found; square 46 is at the {_CORNER_NAMES[corner]} of the "
                   f"picture{checked}")
        out = self.watcher.view_limits()
        if out:
            self._note(f"Camera placement: {out}", logging.WARNING)
        limit = self.watcher.king_limits()
        if limit:  # the arbiter still knows its kings; a crown or a misplaced one may go unseen
            self._note(f"Camera placement: {limit}", logging.WARNING)

    def _trusted(self, board, now: float) -> bool:
        """Whether a set-up position ``board`` (None: the start position, never) has been
        waited for long enough (`SET_UP_TRUST_S`) to be taken as given when its pieces' colours
        do not stand clearly apart."""
        return (board is not None and self._calibrate_since is not None
                and now - self._calibrate_since >= SET_UP_TRUST_S)

    def _reads_otherwise(self, board) -> bool:
        """Whether the board just learnt as ``board`` (None: the start position) reads, on a
        square it is sure of, another kind (empty, white, black) than the position has there."""
        from rules.matching import sure_of_kind

        obs = self.watcher.reference
        if obs is None:
            return False
        expected = board if board is not None else Position.start().pieces()

        def kind(piece) -> object:
            return None if piece is None else piece.color

        return any(sure_of_kind(r) and kind(r.content) != kind(expected.get(sq))
                   for sq in range(1, 51) for r in (obs.reading(sq),))

    def _not_calibrated(self, e: Exception, board, now: float) -> None:
        """The board could not be learnt from this still picture (``e``): what to say, and
        when a resumed game's board is read as it is."""
        from vision.calibration import BoardOutOfView
        from vision.pipeline import CalibrationError

        if self._calibrate_since is None:
            self._calibrate_since = now
        waited = now - self._calibrate_since
        unchanged = self._failed_for(now)
        if isinstance(e, BoardOutOfView):
            # part of the board lies out of the picture: the camera is to move, not the pieces
            # (a wide-angle lens close above the board, its near row beyond the picture, waited
            # for the start position all game: "empty squares and pieces do not look apart",
            # the other renderer's selfplay-9 at seed 5353007); said again only when it changes
            text = f"The board is not wholly in view: {e}"
            if text != self._out_of_view_said:
                self._out_of_view_said = text
                self._note(text, logging.WARNING)
            return
        if self.resumed and isinstance(e, CalibrationError) \
                and self.watcher.config.corner_46 is not None \
                and unchanged >= CALIBRATE_RESUMED_S:
            # The board is there but does not show the game's position (pieces moved while
            # the companion was off): read it as it is, the arbiter says what differs.
            self._calibrated = True
            self._note("The board does not show the game's position; reading it without "
                       f"calibration ({e})")
            return
        if not self.resumed and isinstance(e, CalibrationError) \
                and not self._set_up_hinted and waited >= SET_UP_HINT_S:
            # A board found that is not (yet) the new game's position: another position is
            # never taken for it; the players may mean one.
            self._set_up_hinted = True
            give = f"--start FEN, or [game] start = \"FEN\" in {self._config_name()}"
            if board is None:
                self._note("Waiting for the start position: the board shows another "
                           f"position. For a game from a set-up position, give it: {give}",
                           logging.WARNING)
            else:
                self._note(f"Waiting for the set-up position {self.start.fen()}: the board "
                           "shows another position. Set it up, or give the position on the "
                           f"board: {give}", logging.WARNING)
        if self.stats.frames % 50 == 1:
            what = "the start position" if board is None else "the game's position"
            log.info("waiting for %s: %s", what, e)

    def _begun(self, image, now: float, board=None) -> "tuple[object, bool] | None":
        """The game began before the board was seen still in the start position (quick play:
        the first hand reached in a third of a second after the companion started; a companion
        started late), or went on while the companion was off (restarted after a power cut at
        quick play, its board still for only a frame between moves: eleven moves were lost) or
        before a set-up position was seen: a still board a few legal moves on from the game's
        position (``board``; None: the start position).  It is read with colours learnt as if
        it showed that position (`BoardWatcher.reading_as`), and an arbiter of its own tries
        the readings as the recorded game's would (`Arbiter.observe`: legal play from the
        game's position, `RECOVERY_PLIES` at most, `STALL_PLIES` once read four times, several
        readings for a long line).  When it records the moves, the board is learnt as the
        position they give (its own looks, no square learnt wrong), and the trial arbiter becomes
        the game's (`_caught_up`): the moves are recorded with a scoresheet note that they were
        caught up.
        None when no line of legal moves explains the board (another position: a problem set
        up, the pieces still being placed), or it cannot be read.  Waiting for the start
        position was for ever: not one move was recorded."""
        from vision.kept import mean_frame
        from vision.locate import BoardNotFound, find_board
        from vision.pipeline import BoardWatcher, CalibrationError

        frames = list(self._still_frames)
        # independent readings of the still stretch: its mean, and the means of its three parts
        # (a frame each in a short stretch: in blitz the first still board, seven plies on, stood
        # for three frames; a board more plies on than a short search reaches is searched
        # further once read `STALL_READINGS` times, `Arbiter._recover`)
        parts = min(3, len(frames)) if len(frames) >= 3 else 0
        pictures = [image] + [mean_frame(frames[len(frames) * k // parts:len(frames) * (k + 1) // parts])
                              for k in range(parts)]
        trial = Arbiter(self.arbiter.game.copy(), unseen=True)
        if trial.over is not None or self.arbiter.pending is not None:
            return None
        # the board is found once for all the pictures of one still stretch: found again for
        # each (and for the first picture's probe), a try took seconds on large frames, every
        # half second of a still board, and the other renderer's lidraughts-12 at seed 45006
        # ran for over 25 minutes
        where = self._configured_location(image)
        if where is None:
            try:
                where = find_board(image)
            except BoardNotFound:
                return None
        if self._box is None:  # (found: `_board_box` need not search for it)
            self._keep_box(where.corners, STILL_THUMB_PX / image.shape[1])
        recorded: list[Event] = []  # what the trial said, for the game's record (`_caught_up`)
        expected = board if board is not None else Position.start().pieces()
        base = trial.game.ply
        corners = set()
        by_board = None  # reads with the corner the board shows, when the configured one misfits
        # the camera's first picture, when it showed the game's position before anything moved,
        # tells each kind's looks better than the still board read as if it showed it
        first = self._first_look if self.arbiter.game.ply == 0 and not self.resumed else None
        try:
            if first is not None:
                recorded, corners = self._begun_from_first(trial, pictures, first, expected,
                                                           where, now, base)
                if trial.game.ply <= base or trial.pending is not None:
                    # (a trial of its own below: these readings are no evidence there)
                    trial = Arbiter(self.arbiter.game.copy(), unseen=True)
                    recorded, corners = [], set()
            for picture in pictures if trial.game.ply <= base else ():
                try:
                    obs, corner = self.watcher.reading_as(picture, board=expected, location=where)
                except CalibrationError:
                    if self.watcher.config.corner_46 is None:
                        raise
                    # the configured corner lies on a light square of the board found here:
                    # the board is turned a quarter from it (said once the moves are found)
                    by_board = by_board or BoardWatcher(replace(self.watcher.config,
                                                                corner_46=None))
                    obs, corner = by_board.reading_as(picture, board=expected, location=where)
                corners.add(corner)
                changed = sum((obs.reading(sq).content is None) != (sq not in expected)
                              for sq in range(1, 51))
                if changed > BEGUN_SQUARES:
                    return None
                recorded.extend(trial.observe(Settled(obs, (), now)))
                if trial.game.ply > base or trial.pending is not None or trial.over is not None:
                    break
        except (BoardNotFound, CalibrationError):
            # the board not found, or found in no way its start fits: nothing is learnt from
            # it.  Raised, it stopped the service (the other renderer's lidraughts-10 at seed
            # 8002: the configured corner on a light square of the board found in one picture)
            return None
        if trial.game.ply <= base or trial.pending is not None or len(corners) != 1:
            return None
        if trial.over is not None and not self.resumed and (
                trial.game.ply - base > 1 + (now - self._watching_since) / BEGUN_PLY_S
                or not self._sides_seen_apart(expected, trial.position.pieces(), where)):
            # A game found played out unseen faster than hands can play, or a side's last
            # pieces taken though the camera's first look could not tell them from the empty
            # squares: they may only look like them (white men dyed like the empty squares in a
            # dim room, read as all taken six plies on in the camera's first third of a second,
            # and the game declared over; later again, from a picture three seconds in: the
            # system bench's selfplay-43 at seed 3535003).  Its end is seen, or declared.
            return None
        if not self.resumed:
            left = self._left_on_board(trial.position.fen())
            if left is not None:
                # the pieces of a game set aside (adjourned, ended) still stand: they are not a
                # new game begun unseen (a 3-ply game adjourned was recorded again as the new
                # game's first moves, and could no longer be resumed cleanly)
                self._say_left(left)
                return None
        # learnt the way round the moves were found in, whatever the position alone suggests
        config = self.watcher.config
        guessed = config.corner_46 is None
        found = corners.pop()
        self.watcher.config = replace(config, corner_46=found)
        try:
            calibration = self.watcher.calibrate(image, board=trial.expected_board(),
                                                 location=where)
        except (BoardNotFound, CalibrationError):
            return None
        finally:
            if guessed:
                self.watcher.config = replace(self.watcher.config, corner_46=None)
        # the kinds must stand apart as the game's own position's must (`_calibration`)
        need = (0.0 if self.resumed or self._trusted(board, now) else
                START_KINDS_APART if board is None else SET_UP_KINDS_APART)
        if _kinds_apart(calibration.colours, trial.expected_board()) < need:
            return None
        # the trial's verdict is the game's: read again with the looks learnt for the board as
        # it stands, the readings were judged otherwise by the game's arbiter (a set-up endgame
        # played out under a glare: the trial found the three plies, the game's arbiter, the
        # emptied square now read surely, named a king's move and a piece taken off, Art. 27b)
        self._begun_trial = (trial, [e for e in recorded if not isinstance(e, LookAgain)])
        played = " ".join(trial.game.move_texts()[base:])
        when = ("went on while the companion was off" if self.resumed else
                "had begun before the board was seen still in "
                + ("the start position" if board is None else "the set-up position"))
        self._note(f"The game {when}: {trial.game.ply - base} plies found played ({played}); "
                   "recording from there")
        if self.configured_corner is not None and found != self.configured_corner:
            self._orientation_misfit(found)
        return calibration, guessed

    def _sides_seen_apart(self, expected, end, where) -> bool:
        """Whether each side that has pieces in ``expected`` (the game's position) and none in
        ``end`` showed them apart from the empty squares in the camera's first look (learnt as
        ``expected``): `SET_UP_KINDS_APART` between the two kinds (`_kinds_apart`).  True when
        no side is gone, and when there is no first look to tell by (play began before the
        board was first seen still: a king against two played out under a glare is recorded)."""
        from vision.locate import BoardNotFound
        from vision.pipeline import BoardWatcher, CalibrationError

        gone = {p.color for p in expected.values()} - {p.color for p in end.values()}
        if not gone:
            return True
        if self._first_look is None:
            return True
        try:
            colours = BoardWatcher(self.watcher.config).calibrate(
                self._first_look, board=expected, location=where).colours
        except (BoardNotFound, CalibrationError):
            return False
        return all(_kinds_apart(colours, expected, between=(0, 1 if c is Color.WHITE else 2))
                   >= SET_UP_KINDS_APART for c in gone)

    def _begun_from_first(self, trial: Arbiter, pictures: list, first, expected, where,
                          now: float, base: int) -> tuple[list[Event], set]:
        """`_begun`'s search again, the still pictures read with the looks the camera's first
        picture (``first``: the game's position, shown before anything moved, however briefly)
        gives each kind where the position puts it: a blitz set-up of seven pieces whose first
        hand came a third of a second in, first seen still three plies on with two kings left
        on squares no set-up piece stood on, read with looks learnt from itself as the set-up
        (White's from emptied squares) was never explained, and nothing was recorded (the
        system bench's selfplay-45, seed 2121019).  Only when that first picture shows the
        position's kinds apart (`_kinds_apart`).  The events the trial said and the corners
        read with; nothing when the first picture does not show the position."""
        from vision.locate import BoardNotFound
        from vision.pipeline import BoardWatcher, CalibrationError

        recorded: list[Event] = []
        probe = BoardWatcher(self.watcher.config)  # (the game's watcher is left as it is)
        try:
            calibration = probe.calibrate(first, board=expected, location=where)
        except (BoardNotFound, CalibrationError):
            return recorded, set()
        start = expected == Position.start().pieces()
        if _kinds_apart(calibration.colours, expected) < (START_KINDS_APART if start
                                                          else SET_UP_KINDS_APART):
            return recorded, set()
        corners = {calibration.orientation.corner_46}
        for picture in pictures:
            recorded.extend(trial.observe(Settled(probe.read(picture), (), now)))
            if trial.game.ply > base or trial.pending is not None or trial.over is not None:
                break
        return recorded, corners

    def _left_on_board(self, fen: str) -> "StoredGame | None":
        """The newest game set aside (not in progress) whose last recorded position is ``fen``:
        its pieces left standing on the board, among the last `LEFT_GAMES` games."""
        for game in reversed(self.store.games()[-LEFT_GAMES:]):
            if game.id == self.game_id or game.in_progress:
                continue
            moves = self.store.moves(game.id)
            if moves and moves[-1].fen == fen:
                return game
        return None

    def _say_left(self, game: "StoredGame") -> None:
        """Say once that the board shows the position game ``game`` was left in."""
        if self._left_said == game.id:
            return
        self._left_said = game.id
        how = ("adjourned: resume it from the page, or set up the start position"
               if is_adjourned(game) else
               "set up the start position for the new game")
        self._note(f"The board still shows the position game {game.id} was left in ({how})",
                   logging.WARNING)

    def _standing_still(self, image, now: float) -> bool:
        """Whether the picture has stood still for `CALIBRATE_STILL_S` up to this frame (every
        frame since the stretch's first like the one before it; the stretch's last frames are
        kept in ``_still_frames``): a board is learnt from frames with no hand moving over it.
        A resumed game's was learnt from the first frame that showed the board, after a restart
        with a player's hand carrying the man it had lifted: that man's square and those under
        the hand learnt wrong looks, a dozen squares read wrong from then on and no move was
        recorded again.  A new game's was learnt from the frame a hand reached in over the start
        position, in a dim room where no frame before it had shown the kinds apart clearly
        (`_kinds_apart`, one noisy frame): the hand stayed in the still view, a hand was seen
        over the board ever after and not one move was recorded."""
        import cv2
        import numpy as np

        from vision.kept import mean_frame

        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        width = STILL_THUMB_PX
        height = max(1, round(gray.shape[0] * width / gray.shape[1]))
        thumb = cv2.GaussianBlur(cv2.resize(gray, (width, height), interpolation=cv2.INTER_AREA),
                                 (3, 3), 0).astype(np.int16)
        previous, self._thumb = self._thumb, thumb

        moved = _thumbs_differ
        still = previous is not None and previous.shape == thumb.shape and (
            not moved(thumb, previous)
            # else the board alone: a hand resting beside it, fidgeting, an arm on the table
            # (quick play) kept the whole picture from ever standing still
            or ((box := self._board_box(image, width / gray.shape[1], now)) is not None
                and not moved(*(t[box[0][1]:box[1][1], box[0][0]:box[1][0]]
                                for t in (thumb, previous)))))
        if not still:
            if self._first_look is None and self._still_frames and not self.resumed:
                # the board as the camera first saw it, before anything moved: the game's
                # position, however briefly it stood (`_begun`, `_calibrate_on_first_look`)
                self._first_look = mean_frame(self._still_frames)
                self._first_look_frames = len(self._still_frames)
            self._still_since = now  # the still stretch can begin with this frame
            self._still_frames.clear()
            self._still_frames.append(image)
            return False
        self._still_frames.append(image)
        since = self._still_since if self._still_since is not None else now
        return now - since >= CALIBRATE_STILL_S - 1e-9

    def _failed_for(self, now: float) -> float:
        """How long the board of this still picture, which could not be learnt, has stood as it
        is (the board's part of the thumbnail `_standing_still` made, unchanged since the last
        picture that failed, or this one).  A capture's men laid down beside the board one by
        one let the board stand still, with some of them still on it, twice in a second and a
        half: a resumed game's board was read without calibration from the second, and the
        record stopped (`tests/test_service.py`, a game resumed while a hand is over the board)."""
        thumb = self._thumb
        if thumb is None:
            return 0.0
        box = self._box
        if box is not None:
            thumb = thumb[box[0][1]:box[1][1], box[0][0]:box[1][0]]
        last = self._failed_board
        if last is None or last[0].shape != thumb.shape or _thumbs_differ(last[0], thumb):
            self._failed_board = (thumb, now)
            return 0.0
        return now - last[1]

    def _board_box(self, image, scale: float, now: float
                   ) -> "tuple[tuple[int, int], tuple[int, int]] | None":
        """The playing area's bounding box in a thumbnail ``scale`` times the picture's size
        (found once: the board stands where it stood), or None while it is not found."""
        from vision.locate import BoardNotFound, find_board

        if self._box is None:
            # (searched for at most once a second of the camera's time while it is not found,
            # twice as long after each search in vain, up to `BOX_RETRY_MOST_S`: a search costs
            # some 150 ms, in a dim room over a second here, and one that fails costs most.
            # Once a second of the wall clock was every frame once a search took longer than a
            # second: the other renderer's lidraughts-10 at seed 8002 spent 1.2 s on every
            # frame; once a second of the camera's time, lidraughts-12 at seed 45006, its board
            # found in the still pictures' mean but never in one noisy frame, took 9 minutes
            # for a 2-minute game)
            if now - self._box_tried < self._box_wait:
                return None
            self._box_tried = now
            try:
                corners = find_board(image).corners
            except BoardNotFound:
                self._box_wait = min(2.0 * self._box_wait, BOX_RETRY_MOST_S)
                return None
            self._keep_box(corners, scale)
        return self._box

    def _keep_box(self, corners, scale: float) -> None:
        """The playing area's bounding box (`_board_box`) from its ``corners`` in the picture,
        in a thumbnail ``scale`` times the picture's size."""
        lo, hi = corners.min(axis=0) * scale, corners.max(axis=0) * scale
        self._box = ((max(0, int(lo[0])), max(0, int(lo[1]))), (int(hi[0]) + 2, int(hi[1]) + 2))

    def _calibration(self, image, board, now: float | None = None):
        """Calibrate the watcher on ``board`` (None: the start position) in ``image``: the
        calibration, and whether square 46's corner is only the convention's guess.

        A new game's board, the start position or a set-up one, must show its three kinds of
        dark square apart (`_kinds_apart`): another position is never taken for it.  With square
        46's corner configured, the board may show that it stands otherwise: a set-up or resumed
        position that is not the same turned half round shows its corner (learnt as with
        "auto"), and the start position shows a configured corner a quarter turn off (it lies
        on a light square).  The board is then followed, and the user told to fix the
        configuration (`_orientation_misfit`); a half turn off from the start position shows at
        White's first move (`_oriented`)."""
        from vision.calibration import check_in_view
        from vision.locate import BoardNotFound
        from vision.pipeline import BoardWatcher, CalibrationError

        configured = self.configured_corner
        expected = board if board is not None else Position.start().pieces()
        by_board = None  # the watcher that learnt square 46's corner from the board
        where = self._configured_location(image)
        if configured is None or self.watcher.config.corner_46 != configured:
            calibration = self.watcher.calibrate(image, board=board, location=where)
        elif _half_turn(expected) == expected:
            try:
                calibration = self.watcher.calibrate(image, board=board, location=where)
            except CalibrationError as e:
                try:  # turned a quarter: the configured corner is a light square's
                    by_board = BoardWatcher(replace(self.watcher.config, corner_46=None))
                    calibration = by_board.calibrate(image, board=board, location=where)
                except (BoardNotFound, CalibrationError):
                    raise e from None
        else:
            try:
                by_board = BoardWatcher(replace(self.watcher.config, corner_46=None))
                calibration = by_board.calibrate(image, board=board, location=where)
            except (BoardNotFound, CalibrationError):
                by_board = None
                calibration = self.watcher.calibrate(image, board=board, location=where)
            else:
                if calibration.orientation.corner_46 != configured \
                        and (_kinds_apart(calibration.colours, expected) < SET_UP_KINDS_APART
                             or calibration.covered):
                    # a configured corner is overruled only by a board read clearly: a faint
                    # one (a dim room, a few pieces, or moves played before it stood still)
                    # fits either way round about as well (a blitz endgame's board four plies
                    # on was followed half turned and nothing was recorded), and so does one
                    # with something over its squares (a set-up endgame of three kings, taken
                    # as under a hand, was followed half turned: the bench's selfplay-40 at
                    # seed 3333013)
                    try:
                        calibration = self.watcher.calibrate(image, board=board, location=where)
                        by_board = None
                    except (BoardNotFound, CalibrationError):
                        pass
        if not self.resumed:  # a resumed game's board may differ: the arbiter says how
            apart = _kinds_apart(calibration.colours, expected)
            trusted = now is not None and self._trusted(board, now)
            if trusted and apart < SET_UP_KINDS_APART:
                # The set-up position was given (run --start, [game] start) and the board has
                # shown it, as far as each square's look tells, for a while: the colours of a few
                # pieces in a dim, noisy picture may not stand apart clearly (a 6-piece endgame
                # at 0.46): going on beats waiting for ever.  Said once.
                self._note(f"The set-up position is taken as given: its pieces' colours do not "
                           f"stand clearly apart in this light ({apart:.2f}); if the board shows "
                           "another position, set it up and start again", logging.WARNING)
            elif apart < (START_KINDS_APART if board is None else SET_UP_KINDS_APART):
                what = "start" if board is None else "set-up"
                if board is not None and (self._set_up_best is None
                                          or apart > self._set_up_best[0]):
                    self._set_up_best = (apart, image)
                why = (f"the board does not show the {what} position: its empty squares and "
                       f"both sides' pieces do not look apart where they stand in it ({apart:.2f} "
                       "spreads apart)")
                # squares cut by the picture's edge read as what lies there: the likelier cause
                check_in_view(calibration.location, (image.shape[1], image.shape[0]),
                              calibration.orientation, why,
                              named=self.watcher.config.corner_46 is not None)
                raise CalibrationError(why)
        guessed = self._saved_guess
        if by_board is None:
            # no corner configured, saved or given by markers, and the start position: the
            # orientation is the convention's (the watcher's corner_46 is set by any of those)
            return calibration, guessed or (board is None and self.watcher.config.corner_46 is None)
        corner = calibration.orientation.corner_46
        by_board.config = replace(by_board.config, corner_46=corner)
        self.watcher = by_board
        if corner == configured:
            return calibration, guessed
        symmetric = _half_turn(expected) == expected
        self._orientation_misfit(corner, symmetric)
        return calibration, symmetric

    def _configured_location(self, image):
        """The board where ``[board] corners`` puts it, fitted to this picture near there; None
        when no corners are configured or the board is not there (the camera or the board moved
        since they were saved: said once, and the board is then found by searching)."""
        if not self.corners or self._corners_misfit:
            return None
        import numpy as np
        from vision.locate import location_from_corners, refine_location

        configured = location_from_corners(self.corners)
        found = refine_location(image, configured)
        if found is not None:
            shift = np.linalg.norm(found.corners - configured.corners, axis=1).max()
            if shift <= CORNERS_TOLERANCE * configured.square_px:
                return found
        self._corners_misfit = True
        self._note(f"The board is not where board.corners in {self._config_name()} puts it (has "
                   "the camera or the board moved?): finding it in the picture instead. Save "
                   "its corners again, or set board.corners = [] to always find it",
                   logging.WARNING)
        return None

    def _orientation_misfit(self, corner: int, guessed: bool = False) -> None:
        """Say, at warning level, that the board stands otherwise than configured (square 46 at
        ``corner``, which ``guessed`` rests on the convention that White's pieces are the
        lighter ones) and that it is followed."""
        where = _CORNER_NAMES[corner]
        also = (f" (taking the {self._lighter_or_darker()} pieces for White's; White's first "
                "move will show it)") if guessed else ""
        self._note(f"The board does not fit the configured orientation (square 46 at the "
                   f"{_CORNER_NAMES[self.configured_corner]}): it fits with square 46 at the "
                   f"{where}{also}. Following the board; fix it in {self._config_name()}: "
                   f"board.orientation = \"{where}\"", logging.WARNING)

    def _read_turned(self) -> int:
        """Vision reads the board a half turn round from now on (sides swapped); square 46's
        image corner now, saved."""
        corner = self.watcher.turn_half_round().orientation.corner_46
        self._save_corner(corner)
        self.arbiter.in_view.forget()  # kept as read the other way round
        return corner

    def turn_reading(self) -> int:
        """The arbiter's correction, before the first move: the board is read a half turn off
        (White's and Black's pieces swapped: the lighter-pieces convention, or a configured
        corner, wrong for this board).  Vision reads it turned from now on, the convention
        swaps for the next games, and the corner is saved; a configured corner that this
        contradicts is named with its fix.  Returns square 46's image corner now.  Raises
        `Refused` (a ValueError) before the board is found or once a move is recorded (take it
        back first, or begin a new game)."""
        if not self._calibrated or self.watcher is None or self.watcher.calibration is None:
            raise Refused("turn_not_found")
        if self.arbiter.game.ply:
            raise Refused("turn_moves_recorded")
        corner = self._read_turned()
        self.white_is_lighter = not self.white_is_lighter
        self._orientation_guessed = False
        self._configured_unconfirmed = False
        if self.configured_corner is not None and self.configured_corner != corner:
            self._orientation_misfit(corner)
        else:
            self._note(f"Turned by the arbiter: White's pieces are the {self._lighter_or_darker()}"
                       f" ones here; square 46 is at the {_CORNER_NAMES[corner]} of the picture")
        return corner

    def _line_shows_half_turn(self, obs: Observation, position: Position) -> bool:
        """Whether a board first seen still several plies on shows the orientation a half turn
        off: no single move explains it either way (`shows_half_turn`), no line of legal moves
        (`HALF_TURN_PLIES` at most) explains it as read, and one does once it is turned half
        round with the sides swapped.  A configured corner is overruled so only by a board
        with every square that differs from the position read surely.  With the next mover's
        hand hovering over the board, the first still board came three plies in: read a half
        turn off, the arbiter explained White's 37-31 as Black's irregular "14-25", which
        stood (a configured corner a half turn off, in this project's own renderer's scene)."""
        turned = obs.turned()
        if fits_a_move(obs, position) or fits_a_move(turned, position) \
                or fits_a_line(obs, position, HALF_TURN_PLIES) is not False \
                or fits_a_line(turned, position, HALF_TURN_PLIES) is not True:
            return False  # (a search that spent its budget says nothing: the board goes on as read)
        return not self._configured_unconfirmed or changes_read_surely(obs, position)

    def _lighter_or_darker(self) -> str:
        return "lighter" if self.white_is_lighter else "darker"

    def _oriented(self, settled: Settled) -> Settled:
        """``settled`` as the game must read it: turned half round with the sides swapped, and
        vision turned with it, when the orientation is the convention's guess or the
        configuration's, no move is recorded yet in a game from the start position, and no
        legal move of White explains the board as read but one explains it turned (White moves
        first, RULES.md).  Both or neither explaining it tells nothing: the board goes to the
        arbiter as read.  A configured corner found a half turn off is said at warning level
        (`_orientation_misfit`)."""
        game = self.arbiter.game
        if game.ply != 0:
            self._configured_unconfirmed = False  # a move confirmed it
        unsure = self._orientation_guessed or self._configured_unconfirmed
        if not unsure or game.ply != 0 or game.start != Position.start():
            return settled
        position = self.arbiter.position
        # a configured corner is overruled only by a board read clearly, and not once a board
        # before showed White moving first as configured (the arbiter may have taken that one
        # as unchanged, and kept nothing of it)
        earlier = self._first_boards
        self._first_boards = [*earlier[-(FIRST_BOARDS - 1):], settled.observation]
        if not (shows_half_turn(settled.observation, position, clearly=self._configured_unconfirmed,
                                earlier=earlier if self._configured_unconfirmed else ())
                or self._line_shows_half_turn(settled.observation, position)):
            return settled
        turned = settled.turned()
        corner = self._read_turned()
        if self._configured_unconfirmed:
            # square 46's corner was configured a half turn off: the board is followed
            self._configured_unconfirmed = False
            self._orientation_misfit(corner)
            return turned
        self.white_is_lighter = not self.white_is_lighter
        self._orientation_guessed = False
        self._note(f"White's pieces are the {self._lighter_or_darker()} ones here: square 46 is "
                   f"at the {_CORNER_NAMES[corner]} of the picture")
        return turned

    def _judge(self, settled: Settled, now: float) -> list[Event]:
        arbiter = self.arbiter
        if settled.provisional:
            return self._judge_provisional(settled)
        if arbiter.over is not None:
            if self.watcher.sides_unseen:
                # the game was over before the camera saw a side's pieces (`_begun`): that side
                # is never read, so the next game's board is learnt afresh, as at start-up
                self._learn_next_board()
                return []
            # the next game begins when the board shows the configured start (a set-up
            # position's, or the start position) or the start position
            board = settled.observation.board()
            for start in dict.fromkeys((self.start, Position.start())):
                if board == start.pieces():
                    self._new_game(start=start)
                    self._new_watcher()
                    break
            return []
        events = self._observe(settled)
        unclear = [e for e in events if isinstance(e, LookAgain)]
        self._confirm(unclear)
        if unclear and self._retries < LOOK_AGAIN_TIMES:
            self._retries += 1
            self._retry_at = now + LOOK_AGAIN_AFTER_S
            if self._retries > 1:
                events = [e for e in events if not isinstance(e, LookAgain)]  # said once
        else:
            self._retries = 0
            self._retry_at = None
        events = self._unclear_once(events)
        self._dispatch(events)
        return events

    def _shows_orientation(self, settled: Settled) -> bool:
        """Whether a board seen in passing before the first move is recorded, the orientation
        unsure, shows that orientation: a game from the start position, one legal move of White
        explaining the board as read, and none once it is turned half round with the sides
        swapped (`Observation.turned`: the darker pieces White's).  Taken so, a line of two
        plies would tell nothing (White's move and Black's reply, or the mirror's), and is not.
        With the next mover's hand hovering over the board from the first move on, no still
        board came, and a whole game went unrecorded."""
        position = self.arbiter.position
        obs = settled.observation
        return (self.arbiter.game.start == Position.start() and fits_a_move(obs, position)
                and not fits_a_move(obs.turned(), position))

    def _learn_next_board(self) -> None:
        """The game is over and the watcher cannot read a side: it learns the board again from
        the next game's position (the configured start: a set-up one or the start position)
        once it stands still, and that game begins as it is learnt (`_calibrated_as`)."""
        self._new_watcher()
        self._calibrate_board = None if self.start == Position.start() else self.start.pieces()
        self._set_up_hinted = True  # the game is over: no hint about giving a position
        self._next_game = True  # learnt: the board shows the next game's position (`_calibrated_as`)

    def _unclear_once(self, events: list[Event]) -> list[Event]:
        """``events`` without a "looking again" said already for the same squares and reason
        since the board last went on: a board that stays unclear (squares the camera cannot
        read) is said once, not after every hand that passes over it."""
        unclear = tuple((e.reason, e.squares) for e in events if isinstance(e, LookAgain))
        if unclear and unclear == self._unclear_said:
            events = [e for e in events if not isinstance(e, LookAgain)]
        elif unclear:
            self._unclear_said = unclear
        if any(not isinstance(e, (LookAgain, CountersChanged)) for e in events):
            self._unclear_said = None  # the game went on: what is unclear next is news
        return events

    def _judge_provisional(self, settled: Settled) -> list[Event]:
        """A board seen while something moved beside it (`Settled.provisional`): recorded when
        the arbiter takes it as legal play, and then the watcher's still board; else nothing
        happens and nothing is said.  While the lighter pieces are only taken for White's (the
        convention's guess), only a first move that shows the orientation (`_shows_orientation`).
        A configured corner not yet confirmed is trusted as a still board trusts it (`_oriented`)
        unless the board shows it a half turn off (`shows_half_turn`: left to the still board).
        Else nothing read in passing was evidence before the first move was recorded: at blitz,
        an arm resting over a third of the board from the sixth ply on, no still board was read
        whole for 53 s, and nothing was ever recorded (the system bench's selfplay-20 at seed
        7474006)."""
        arbiter = self.arbiter
        if arbiter.over is not None:
            return []
        unsure = arbiter.game.ply == 0 and (self._orientation_guessed or self._configured_unconfirmed)
        if unsure and not self._shows_orientation(settled) and (
                self._orientation_guessed or shows_half_turn(settled.observation, arbiter.position)):
            return []
        events = list(arbiter.observe(settled))
        if not events:
            return []
        if unsure and arbiter.game.ply:
            self._configured_unconfirmed = False  # White's first move confirmed it
            self._moves_confirm_orientation()
        self.stats.in_passing += 1
        self.watcher.accept(settled)
        self._retries, self._retry_at = 0, None
        self._unclear_said = None
        self._confirm([])
        self._dispatch(events)
        return events

    def _observe(self, settled: Settled) -> list[Event]:
        """The arbiter's judgement of a settled board, in the orientation the game shows
        (`_oriented`)."""
        events = list(self.arbiter.observe(self._oriented(settled)))
        self._moves_confirm_orientation()
        return events

    def _moves_confirm_orientation(self) -> None:
        if self._orientation_guessed and self.arbiter.game.ply > 0:
            # a move confirmed the convention's guess (a take-back does not undo that)
            self._orientation_guessed = False
            self._save_corner(self.watcher.calibration.orientation.corner_46)

    def _caught_up(self) -> list[Event]:
        """The moves of a game begun before the board was seen still (`_begun`), found by an
        arbiter of their own on the game's record: that arbiter becomes the game's, and what it
        recorded (the moves, with the scoresheet's note that they were caught up) is stored,
        said and shown; the watcher learns the board as the game has it."""
        assert self._begun_trial is not None
        trial, events = self._begun_trial
        self._begun_trial = None
        self.arbiter = trial
        trial.unseen = False  # watched from now on
        self._moves_confirm_orientation()
        self._dispatch(events)
        self._confirm([])
        return events

    def _confirm(self, unclear: list[Event]) -> None:
        """The arbiter accepted the last settled board (nothing unclear, no irregularity open):
        the watcher learns from what the game says stands where."""
        if not unclear and self.arbiter.pending is None and self.watcher is not None:
            self.watcher.confirm(self.arbiter.expected_board())

    def _commands(self, when: float | None) -> list[Event]:
        """Button presses, queued by the button's thread, and commands from the page and the
        command line (callables, `device.commands`)."""
        events: list[Event] = []
        while True:
            try:
                command = self.commands.get_nowait()
            except queue.Empty:
                return events
            if callable(command):
                try:
                    out = list(command(self, when))
                except Exception:  # a command reports its own errors; it must not stop the game
                    log.exception("the command %r failed", command)
                    continue
                self._dispatch(out)
                if hasattr(command, "done"):
                    command.done(out)  # answered once its events are recorded
                events.extend(out)
                continue
            if command == "take_back" and self.arbiter is not None:
                out = list(self.arbiter.take_back(when))
            elif command == "complete" and self.watcher is not None and self._calibrated:
                settled = self.watcher.button_pressed(when)
                out = self._observe(settled) if settled and self.arbiter.over is None else []
                if settled is not None:
                    self._confirm([e for e in out if isinstance(e, LookAgain)])
            else:
                out = []
            self._dispatch(out)
            events.extend(out)

    def move_complete(self) -> None:
        """The button (or the clock's contact): the move is complete (Art. 23)."""
        self.commands.put("complete")

    def take_back(self) -> None:
        """A long press: take back the last recorded move."""
        self.commands.put("take_back")

    def _dispatch(self, events: list[Event]) -> None:
        store = StoreSink(self.store, self.game_id)
        for event in events:
            store.on_event(event)  # first: nothing recorded may be lost
        for event in events:
            for sink in self.sinks:
                try:
                    sink.on_event(event)
                except Exception:  # a broken LED or speaker must not stop the game
                    log.exception("the %s failed on %s", type(sink).__name__, type(event).__name__)
            said = []
            if self.announcer is not None:
                try:
                    said = self.announcer.on_event(event)
                except Exception:
                    log.exception("speech failed on %s", type(event).__name__)
            if self.view is not None:
                self.view.on_event(event, said)

    def _watched(self) -> None:
        for watcher in self.watchers:
            try:
                watcher(self)
            except Exception:  # a broken page must not stop the game
                log.exception("the watcher %r failed", watcher)

    @property
    def calibrated(self) -> bool:
        """Whether vision has found the board of the game in progress: only then is the
        watcher's calibration the board's (a failed attempt leaves its own behind)."""
        return self._calibrated

    def status(self) -> str:
        """What the companion is doing, in one word for the page: ``waiting`` (for the new
        game's start or set-up position), ``calibrating`` (finding a resumed game's board),
        ``playing``, ``looking-again`` (a board too unclear to decide), ``irregular`` (an
        irregularity open), ``lost`` (the record stopped: moves not seen, `LostTrack`) or
        ``over`` (the game ended)."""
        arbiter = self.arbiter
        if arbiter is not None and arbiter.over is not None:
            return "over"
        if not self._calibrated:
            return "calibrating" if self.resumed else "waiting"
        if arbiter is not None and arbiter.pending is not None:
            return "lost" if arbiter.pending.lost else "irregular"
        return "looking-again" if self._retry_at is not None else "playing"

    def new_game(self, start: Position | None = None) -> None:
        """Begin a new game now (the arbiter's command), from ``start`` (default: the
        configured start): a game in progress with moves is set aside unfinished (``*``), one
        with none begins from ``start`` instead.  Vision then waits for that position."""
        start = start or self.start
        reuse = None
        if self.game_id is not None and self.store.game(self.game_id).in_progress:
            if self.store.moves(self.game_id):
                self.store.finish(self.game_id, "*", "unterminated")
            else:
                self.store.set_start(self.game_id, start.fen())
                reuse = self.game_id
        self._retry_at, self._retries = None, 0
        self._new_game(reuse, start=start)
        self._new_watcher()

    def resume(self, game_id: int) -> None:
        """Go on with game ``game_id``, adjourned (the arbiter's command): the game now in
        progress is set aside as by `new_game` (one in which nothing was recorded is removed),
        ``game_id`` is in progress again, and vision looks for its position on the board as
        after a restart."""
        current = self.game_id
        if current is not None and current != game_id and self.store.game(current).in_progress:
            if not self.store.remove_unplayed(current):
                self.store.finish(current, "*", "unterminated")
        self.store.reopen(game_id)
        game = Game.from_scoresheet(self.store.scoresheet(game_id))
        self.game_id, self.arbiter, self.resumed = game_id, Arbiter(game), True
        self._retry_at, self._retries = None, 0
        for sink in (self.announcer, self.panel):
            if sink is not None and hasattr(sink, "reset"):
                sink.reset()
        self._note(f"Resumed game {game_id} after {game.ply} moves: {game.position.turn} to move")
        self._new_watcher()

    def _note(self, text: str, level: int = logging.INFO) -> None:
        log.log(level, "%s", text)
        if self.view is not None:
            self.view.note(text)

    # -- the loop -------------------------------------------------------------------------

    def run(self, stop: threading.Event, *, max_frames: int | None = None,
            on_frame: Callable[[Frame, list[Event]], None] | None = None) -> None:
        """Watch until ``stop`` is set or a recording ends."""
        self.stats = Stats(started=time.monotonic())
        release_frames()  # before the capture thread makes its own heap (`device.memory`)
        # library pages given back: now (the imports'), after the first frame, once calibrated
        released = self._release_library_pages(-1)
        if self.arbiter is None:
            self.open_game()
        capture = CaptureThread(self.source).start()
        self.notifier.ready(f"watching {capture.name}")
        interval = watchdog_interval()
        last_ping = 0.0
        hung = False  # the camera's read has not returned for `camera_hang_s`
        try:
            while not stop.is_set():
                frame = capture.get(timeout=0.5)
                now = time.monotonic()
                if frame is None and capture.blocked_for >= self.camera_hang_s:
                    if not hung:
                        # No frame, no error: the driver hangs.  Only a new process can reopen
                        # it (a read cannot be interrupted): systemd is asked to restart the
                        # service now (WATCHDOG=trigger), and the watchdog is no longer fed in
                        # case it cannot (`WatchdogSec`).  Waiting out the watchdog alone, the
                        # camera was away 45 s and 13 of a quick game's moves were lost
                        # (`bench.faults`, the hang at seed 13).
                        log.error("%s has given no frame for %.0f s and does not answer: the "
                                  "camera hangs; the watchdog is no longer fed, so that the "
                                  "service is restarted", capture.name, capture.blocked_for)
                        self.notifier.status(f"{capture.name} hangs: no frame for "
                                             f"{capture.blocked_for:.0f} s")
                        self.notifier.watchdog_trigger()
                        hung = True
                elif frame is not None and hung:
                    log.info("%s gives frames again", capture.name)
                    hung = False
                if frame is None:
                    if capture.ended:
                        log.info("%s ended", capture.name)
                        break
                    # no frame: the camera is lost and being reopened, or slow; still healthy
                    if not self.commands.empty():
                        self._commands(None)
                    self._watched()
                else:
                    events = self.process(frame)
                    released = self._release_library_pages(released)
                    if on_frame is not None:
                        on_frame(frame, events)
                    if self.view is not None:
                        self.view.progress(self.progress_text(frame))
                    if max_frames is not None and self.stats.frames >= max_frames:
                        break
                if interval and not hung and now - last_ping >= interval:
                    self.notifier.watchdog()
                    last_ping = now
        finally:
            self.notifier.stopping()
            capture.stop()

    def _release_library_pages(self, done: int) -> int:
        """Give back the pages of libraries loaded but not run (`device.library_pages`): after
        the imports (-1: before the first frame), after the first frame (the image codecs'
        start: Debian's OpenCV registers GDAL's drivers on the first decode) and once calibrated
        (the board finding's code runs once).  ``done``: how far that went (0, 1, 2)."""
        due = 0 if done < 0 else 2 if self._calibrated else 1
        if done < due or done < 0:
            kb = release_library_pages()
            log.debug("%.1f MB of library pages given back (%s)", kb / 1024,
                      ("at the start", "after the first frame", "calibrated")[due])
        return max(done, due)

    def progress_text(self, frame: Frame | None = None) -> str:
        game = self.arbiter.game if self.arbiter else None
        ply = game.ply if game else 0
        hand = " hand over the board" if self.watcher is not None and getattr(self.watcher, "hand_present", False) else ""
        state = "waiting for the start position" if not self._calibrated else f"move {ply // 2 + 1}, {ply} recorded"
        return f"frame {self.stats.frames}  {self.stats.fps:.1f} fps  {state}{hand}"

    def pdn(self) -> str:
        return self.store.export_pdn(self.game_id)

    def close(self) -> None:
        for sink in [self.button, self.web, self.broker, *self.sinks, self.speaker]:
            close = getattr(sink, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:
                    log.exception("closing %s failed", type(sink).__name__)
        if self.view is not None:
            self.view.close()
        if self.owns_store:
            self.store.close()


def _thumbs_differ(a, b) -> bool:
    """Whether two of `Companion._standing_still`'s thumbnails (or the same crops of them) show
    something moved: more than `STILL_SHARE` of their pixels differ by over `STILL_DELTA`."""
    import numpy as np

    return float(np.mean(np.abs(a - b) > STILL_DELTA)) > STILL_SHARE
