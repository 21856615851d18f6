"""The arbiter's commands (the page and the command line): PDN tags, new game, take back, declare,
adjourn and resume.

A command is built on the web's thread (or the command line's), checked there for what can be
checked without the game (`CommandError`, one line for the user), and queued to the service
(`submit`): the service's loop applies it between frames, on its own thread, as it applies the
button's take-back (`device.service.Companion.commands`), and dispatches its events to the store
first, then the other sinks.  Its answer comes back through a `concurrent.futures.Future` once
the events are recorded.

The same commands work on the store alone when no service runs (`on_store`): tags and declare
change the game in progress; new game sets it aside (an unfinished game with moves is finished
``*``), so that the next `run` begins a new one.
"""

from __future__ import annotations

import re
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from device.errors import Coded, DeviceError, Refused
from device.store import GameStore, StoredGame
from rules.events import Event
from rules.outcome import RESULT_ALIASES, Termination
from rules.position import Position

if TYPE_CHECKING:
    from device.service import Companion

#: Tags the page and the command line may set: a capital letter, then letters, digits, _.
TAG_NAME = re.compile(r"^[A-Z][A-Za-z0-9_]{0,31}$")
#: Written by the game itself, never set by hand.
GAME_TAGS = frozenset(("Result", "FEN", "SetUp", "GameType", "Termination"))
#: Tags that describe the box's evening rather than one game: they carry to the next games.
LASTING_TAGS = frozenset(("Event", "Site", "Round", "Board"))
MAX_TAG_LENGTH = 200
#: The Termination of an adjourned game (result ``*``), which `resume` goes on with.
ADJOURNED = "adjourned"


def is_adjourned(game: StoredGame) -> bool:
    """Whether ``game`` was adjourned and has no result yet: it may be resumed."""
    return game.termination == ADJOURNED and game.result == "*"

#: How a result may be declared (`rules.outcome.Termination`), with the short names accepted.
DECLARABLE = {
    "resignation": Termination.RESIGNATION,
    "draw agreed": Termination.AGREEMENT, "agreement": Termination.AGREEMENT,
    "draw": Termination.AGREEMENT,
    "time": Termination.TIME,
    "arbiter's decision": Termination.ARBITER, "arbiter": Termination.ARBITER,
}


class CommandError(Coded, DeviceError):
    """A command that cannot be applied (bad tag, no move to take back, the game is over):
    one line for the user, said on the club's screen by its code (`device.errors.Coded`)."""

    @classmethod
    def of(cls, error: Coded) -> "CommandError":
        """``error`` (another part's, with its code) as the command's."""
        return cls(error.code, **error.values)


# --------------------------------------------------------------------------- checking


def check_tags(tags: Mapping[str, Any]) -> dict[str, str]:
    """The tags as strings, or CommandError naming the first wrong one."""
    if not isinstance(tags, Mapping) or not tags:
        raise CommandError("no_tags")
    out: dict[str, str] = {}
    for name, value in tags.items():
        if not isinstance(name, str) or not TAG_NAME.match(name):
            raise CommandError("not_a_tag_name", name=name)
        if name in GAME_TAGS:
            raise CommandError("tag_of_the_game", name=name)
        if not isinstance(value, str):
            raise CommandError("tag_not_text", name=name)
        if len(value) > MAX_TAG_LENGTH:
            raise CommandError("tag_too_long", name=name, limit=MAX_TAG_LENGTH)
        out[name] = value.strip()
    return out


def check_declare(result: Any, reason: Any) -> tuple[str, Termination]:
    """``result`` (1-0, 0-1, 1/2-1/2 or 2-0, 0-2, 1-1) and ``reason`` (resignation, draw agreed,
    time, arbiter's decision) checked against each other."""
    name = RESULT_ALIASES.get(result.strip(), "*") if isinstance(result, str) else "*"
    if name == "*":
        raise CommandError("not_a_result", result=result)
    termination = DECLARABLE.get(reason.strip().lower()) if isinstance(reason, str) else None
    if termination is None:
        raise CommandError("not_a_reason", reason=reason)
    if termination is Termination.RESIGNATION and name == "1/2-1/2":
        raise CommandError("resignation_draw")
    if termination is Termination.AGREEMENT and name != "1/2-1/2":
        raise CommandError("agreement_not_draw")
    return name, termination


def check_fen(fen: Any, key: str = "FEN") -> Position | None:
    """A new game's set-up position (None: the configured start), checked as ``[game] start``
    is (`device.config.start_position`: pieces of both sides, a move to make)."""
    from device.config import start_position

    if fen is None or fen == "":
        return None
    if not isinstance(fen, str):
        raise CommandError("fen_not_text")
    try:
        return start_position(fen, key)
    except Refused as e:
        raise CommandError.of(e) from None


# --------------------------------------------------------------------------- on the service

Action = Callable[["Companion", "float | None"], "tuple[list[Event], Any]"]


@dataclass(eq=False)
class Request:
    """One command for the service's loop (`device.service.Companion.commands`): called there
    with the companion, it applies ``action`` and gives back its events; ``done`` (called by
    the loop once they are dispatched) answers ``future``."""

    name: str
    action: Action
    future: Future = field(default_factory=Future)
    _answer: Any = None

    def __call__(self, companion: "Companion", when: float | None) -> list[Event]:
        if not self.future.set_running_or_notify_cancel():
            return []
        try:
            events, self._answer = self.action(companion, when)
        except CommandError as e:
            self.future.set_exception(e)
            return []
        except Exception as e:
            self.future.set_exception(e)
            raise
        return list(events)

    def done(self, events: list[Event]) -> None:
        if not self.future.done():
            self.future.set_result(self._answer)

    def __repr__(self) -> str:
        return f"Request({self.name})"


def _tags_action(tags: dict[str, str]) -> Action:
    def apply(companion: "Companion", when: float | None) -> tuple[list[Event], Any]:
        merged = {**companion.store.game(companion.game_id).tags, **tags}
        companion.store.set_tags(companion.game_id, merged)
        companion.arbiter.game.tags.update(tags)
        companion.tags.update({k: v for k, v in tags.items() if k in LASTING_TAGS})
        return [], {"game": companion.game_id, "tags": merged}
    return apply


def _new_game_action(start: Position | None) -> Action:
    def apply(companion: "Companion", when: float | None) -> tuple[list[Event], Any]:
        companion.new_game(start)
        return [], companion.game_id
    return apply


def _take_back_action(companion: "Companion", when: float | None) -> tuple[list[Event], Any]:
    arbiter = companion.arbiter
    if arbiter.over is not None:
        raise CommandError("over_no_take_back")
    events = list(arbiter.take_back(when))
    if not events:
        raise CommandError("no_move_to_take_back")
    return events, arbiter.game.ply


def _declare_action(result: str, termination: Termination) -> Action:
    def apply(companion: "Companion", when: float | None) -> tuple[list[Event], Any]:
        arbiter = companion.arbiter
        if arbiter.over is not None:
            raise CommandError("already_over", result=arbiter.over.result(),
                               reason=arbiter.over.termination.value)
        events = list(arbiter.declare(result, termination, when))
        return events, {"game": companion.game_id, "result": result, "termination": termination.value}
    return apply


def _adjourn_action(companion: "Companion", when: float | None) -> tuple[list[Event], Any]:
    arbiter = companion.arbiter
    if arbiter.over is not None:
        raise CommandError("over_no_adjourn")
    if not arbiter.game.moves:
        raise CommandError("no_move_no_adjourn")
    game_id, fen = companion.game_id, arbiter.position.fen()
    companion.store.finish(game_id, "*", ADJOURNED)
    companion.new_game()
    return [], {"game": game_id, "fen": fen}


def _resume_action(game_id: int) -> Action:
    def apply(companion: "Companion", when: float | None) -> tuple[list[Event], Any]:
        game = _game(companion.store, game_id)
        if not is_adjourned(game):
            raise CommandError("not_adjourned", game=game_id)
        companion.resume(game_id)
        return [], game_id
    return apply


def _game(store: GameStore, game_id: int) -> "StoredGame":
    """Game ``game_id`` of ``store``; CommandError when there is none."""
    if not store.has_game(game_id):
        raise CommandError("no_such_game", game=game_id, path=store.path)
    return store.game(game_id)


def tags(values: Mapping[str, Any]) -> Request:
    """Set PDN tags of the game in progress (Event, Site, Round and Board carry to the next)."""
    return Request("tags", _tags_action(check_tags(values)))


def new_game(fen: Any = None) -> Request:
    """Begin a new game, from the configured start or the FEN given."""
    return Request("new-game", _new_game_action(check_fen(fen)))


def take_back() -> Request:
    """Take back the last recorded move (or cancel an open irregularity)."""
    return Request("take-back", _take_back_action)


def declare(result: Any, reason: Any) -> Request:
    """End the game with a result the rules do not decide."""
    return Request("declare", _declare_action(*check_declare(result, reason)))


def _camera_action(companion: "Companion", when: float | None) -> tuple[list[Event], Any]:
    frame = companion.last_frame
    if frame is None:
        raise CommandError("no_frame")
    watcher = companion.watcher
    calibration = getattr(watcher, "calibration", None)
    warning = watcher.king_limits() if calibration is not None else None
    return [], {"image": frame.image, "index": frame.index, "time": frame.time,
                "location": None if calibration is None else calibration.location,
                "orientation": None if calibration is None else calibration.orientation,
                "board": companion.arbiter.expected_board() if calibration is not None else None,
                "warning": warning}


def camera_still() -> Request:
    """What the camera view draws (`device.camera_view`): the frame read last, the calibration's
    location and orientation (None before), the board the game expects and the king-placement
    warning.  Only references are taken on the service's thread; the drawing is the caller's."""
    return Request("camera", _camera_action)


def _read_position_action(companion: "Companion", when: float | None) -> tuple[list[Event], Any]:
    frame = companion.last_frame
    if frame is None:
        raise CommandError("no_frame")
    calibration = getattr(companion.watcher, "calibration", None) if companion.calibrated else None
    return [], {"image": frame.image, "index": frame.index,
                "calibrated": None if calibration is None else calibration.orientation.corner_46,
                "configured": companion.configured_corner,
                "white_is_lighter": companion.white_is_lighter}


def read_position() -> Request:
    """What a set-up position is read from (`device.setup_reading`): the frame read last, square
    46's corner as the watcher found the board (None before it has) and as configured, and which
    pieces are White's.  Only references are taken on the service's thread; the reading is the
    caller's."""
    return Request("read-position", _read_position_action)


def _turn_action(companion: "Companion", when: float | None) -> tuple[list[Event], Any]:
    try:
        corner = companion.turn_reading()
    except Refused as e:
        raise CommandError.of(e) from None
    return [], {"corner_46": ("top-left", "top-right", "bottom-right", "bottom-left")[corner]}


def turn() -> Request:
    """Read the board a half turn round, White's and Black's pieces swapped (before the first
    move: `device.service.Companion.turn_reading`)."""
    return Request("turn", _turn_action)


def adjourn() -> Request:
    """Adjourn the game (result ``*``, Termination ``adjourned``) and begin a new one; `resume`
    goes on with it later."""
    return Request("adjourn", _adjourn_action)


def resume(game_id: Any) -> Request:
    """Go on with an adjourned game: the board must show its position."""
    if isinstance(game_id, bool) or not isinstance(game_id, int) or game_id < 1:
        raise CommandError("not_a_game_number", game=game_id)
    return Request("resume", _resume_action(game_id))


def submit(companion: "Companion", request: Request) -> Future:
    """Queue ``request`` for the service's loop; its future answers once it is applied."""
    companion.commands.put(request)
    return request.future


# --------------------------------------------------------------------------- on the store


def on_store(store: GameStore, command: str, **kw: Any) -> str:
    """Apply ``command`` (tags, new-game, declare, adjourn) to the store's game in progress
    when no service runs: one line saying what was done."""
    game_id = store.game_in_progress()
    if command == "new-game":
        if game_id is None:
            return "no game in progress: the next run begins a new game"
        if store.moves(game_id):
            store.finish(game_id, "*", "unterminated")
            return f"game {game_id} set aside unfinished: the next run begins a new game"
        return f"game {game_id} has no move yet: the next run begins it anew"
    if game_id is None:
        raise CommandError("no_game_in_progress", path=store.path)
    if command == "tags":
        given = check_tags(kw["values"])
        store.set_tags(game_id, {**store.game(game_id).tags, **given})
        return f"game {game_id}: " + ", ".join(f"{k} = {v}" for k, v in given.items())
    if command == "declare":
        result, termination = check_declare(kw["result"], kw["reason"])
        store.finish(game_id, result, termination.value)
        return f"game {game_id}: {result} ({termination.value})"
    if command == "adjourn":
        moves = len(store.moves(game_id))
        if not moves:
            raise CommandError("game_no_move_no_adjourn", game=game_id)
        store.finish(game_id, "*", ADJOURNED)
        return f"game {game_id} adjourned after {moves} moves: the next run begins a new game"
    raise CommandError("unknown_command", command=command)


def resume_on_store(store: GameStore, game_id: int) -> str:
    """Make adjourned game ``game_id`` the store's game in progress, for the next run to resume
    (one line saying so); a game in progress is set aside as the service's `resume` does it."""
    game = _game(store, game_id)
    if not is_adjourned(game):
        raise CommandError("not_adjourned", game=game_id)
    current = store.game_in_progress()
    if current is not None and current != game_id and not store.remove_unplayed(current):
        store.finish(current, "*", "unterminated")
    store.reopen(game_id)
    return (f"game {game_id} is in progress again: the next run resumes it "
            f"(set up its position on the board)")
