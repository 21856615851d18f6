"""A companion without vision, for the broker and hub tests and the bench: the real service loop
(`device.service.Companion.run`, its store, live state and broker publisher), fed a real game's
positions one move every ``pace`` seconds by a scripted watcher instead of the camera.  It goes
on from the move its store has, so a board killed and started again continues the same game;
after the last move it declares the game's result (arbiter's decision).

Run as a process (the tests kill it with SIGKILL)::

    python -m tests.scripted_board --database DB --url mqtt://127.0.0.1:PORT --event E --board 2 \\
        --username U --password P --game 3 --plies 20 --pace 0.2
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from device import commands  # noqa: E402
from device.app import broker_for  # noqa: E402
from device.config import BrokerConfig, Config  # noqa: E402
from device.service import Companion  # noqa: E402
from device.sources import Frame  # noqa: E402
from device.store import GameStore  # noqa: E402
from rules.game import Game  # noqa: E402
from rules.observation import Observation, Settled  # noqa: E402
from rules.pdn import read_file  # noqa: E402

GAMES = ROOT / "tests" / "data" / "lidraughts-frisian.pdn"


def real_game(index: int, plies: int | None = None) -> Game:
    game = read_file(str(GAMES))[index].game
    short = Game(start=game.start, tags=dict(game.tags))
    for move in game.moves[:plies]:
        short.push(move)
    short.declared_result = game.declared_result
    return short


class Ticks:
    """A live source of tiny blank frames, ``fps`` a second (the scripted watcher ignores them)."""

    live = True
    name = "ticks"

    def __init__(self, fps: float = 20.0) -> None:
        self.fps = fps
        self._index = 0

    def open(self) -> None:
        pass

    def read(self) -> Frame:
        time.sleep(1 / self.fps)
        self._index += 1
        return Frame(np.zeros((2, 2, 3), np.uint8), time.time(), self._index)

    def close(self) -> None:
        pass


class ScriptedWatcher:
    """Shows the board the next move of ``game`` makes, every ``pace`` seconds, from the move
    the companion's game has reached; then declares the result once."""

    hand_present = False
    moving = False
    calibration = None

    def __init__(self, companion: Companion, game: Game, pace: float) -> None:
        self.companion = companion
        self.pace = pace
        self.game = game
        replay = Game(start=game.start)
        self.positions = []
        for move in game.moves:
            replay.push(move)
            self.positions.append((move, replay.position))
        self._last = time.time()
        self._declared = False
        self.done = threading.Event()

    def feed(self, image, when: float) -> Settled | None:
        arbiter = self.companion.arbiter
        if when - self._last < self.pace or arbiter.over is not None or arbiter.pending is not None:
            if arbiter.over is not None:
                self.done.set()
            return None
        self._last = when
        ply = arbiter.game.ply
        if ply >= len(self.positions):
            if not self._declared and self.game.declared_result in ("1-0", "0-1", "1/2-1/2"):
                self._declared = True
                self.companion.commands.put(commands.declare(self.game.declared_result, "arbiter"))
            return None
        move, position = self.positions[ply]
        lifted = (move.from_square, *move.captured)
        return Settled(Observation.from_board(position.pieces(), 0.99, when), lifted, when)

    def button_pressed(self, when: float) -> None:
        return None

    def offered(self) -> None:
        """Every scripted board is a still one: none is offered in passing."""
        return None

    def confirm(self, board) -> None:
        pass

    def king_limits(self) -> None:
        return None


def scripted(database: Path, game: Game, pace: float, broker: BrokerConfig | None,
             tags: dict | None = None) -> tuple[Companion, ScriptedWatcher]:
    """A companion on ``database`` (resuming its game) with the scripted watcher and, when
    ``broker`` is given, its publisher."""
    store = GameStore(database, exclusive=True)
    companion = Companion(source=Ticks(), store=store, tags=tags or {"Event": "t"}, owns_store=True)
    companion.open_game()
    watcher = ScriptedWatcher(companion, game, pace)
    companion.watcher, companion._calibrated = watcher, True
    if broker is not None:
        companion.broker = broker_for(replace(Config(), broker=broker), companion)
    return companion, watcher


def main() -> None:
    p = argparse.ArgumentParser()
    for name in ("database", "url", "event", "username", "password"):
        p.add_argument(f"--{name}", required=True)
    p.add_argument("--board", type=int, required=True)
    p.add_argument("--game", type=int, default=3)
    p.add_argument("--plies", type=int)
    p.add_argument("--pace", type=float, default=0.2)
    args = p.parse_args()
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    broker = BrokerConfig(enabled=True, url=args.url, username=args.username, password=args.password,
                          event=args.event, board=args.board)
    companion, watcher = scripted(Path(args.database), real_game(args.game, args.plies), args.pace, broker)
    stop = threading.Event()
    import signal

    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        companion.run(stop)
    finally:
        companion.close()


if __name__ == "__main__":
    main()
