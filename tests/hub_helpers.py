"""Helpers for the broker and hub tests: a hub with its page, scripted boards as processes
(`tests.scripted_board`), and the check that the hub has every board's games as recorded."""

from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from device import game_log
from device.config import BrokerConfig, WebConfig
from device.hub import Hub
from device.hub_store import HubStore
from device.hub_web import HubWebServer
from device.local_broker import end
from device.store import GameStore
from tests.mosquitto_helpers import HUB_PASSWORD, HUB_USER, Mosquitto, board_user

ROOT = Path(__file__).resolve().parents[1]
EVENT = "test"


def board_config(broker: Mosquitto, board: int) -> BrokerConfig:
    user, password = board_user(board)
    return BrokerConfig(enabled=True, url=broker.url, username=user, password=password, event=EVENT,
                        board=board)


@contextmanager
def running_hub(folder: Path, broker: Mosquitto, pairing: dict | None = None,
                language: str = "en") -> Iterator[tuple[Hub, HubWebServer]]:
    """A hub on ``folder``/hub.sqlite3 with its page on a free port (in ``language``)."""
    store = HubStore(folder / "hub.sqlite3")
    hub = Hub(BrokerConfig(url=broker.url, username=HUB_USER, password=HUB_PASSWORD, event=EVENT),
              store, pairing=pairing).start()
    web = HubWebServer(WebConfig(bind="127.0.0.1", port=0), hub, language).start()
    try:
        yield hub, web
    finally:
        web.close()
        hub.close()
        store.close()


class BoardProcess:
    """`tests.scripted_board` as a process: board ``board`` playing game ``game`` of the
    lidraughts file (its first ``plies``), one move every ``pace`` seconds."""

    def __init__(self, folder: Path, broker: Mosquitto, board: int, game: int, plies: int, pace: float) -> None:
        self.database = folder / f"board{board}.sqlite3"
        self.log = folder / f"board{board}.log"
        user, password = board_user(board)
        self.argv = [sys.executable, "-m", "tests.scripted_board", "--database", str(self.database),
                     "--url", broker.url, "--event", EVENT, "--board", str(board), "--username", user,
                     "--password", password, "--game", str(game), "--plies", str(plies), "--pace", str(pace)]
        self.board = board
        self.process: subprocess.Popen | None = None

    def start(self) -> "BoardProcess":
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(self.argv, cwd=ROOT, stdout=log, stderr=log)
        return self

    def kill(self) -> None:
        self.process.kill()  # SIGKILL: no goodbye, no flush
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None:
            end(self.process, 15)

    def store(self) -> GameStore:
        return GameStore(self.database, read_only=True)


@contextmanager
def playing(folder: Path, broker: Mosquitto, games: tuple[int, ...], plies: int, pace: float) -> Iterator[list[BoardProcess]]:
    """Boards 1, 2, ... playing ``games`` as processes, stopped at the end."""
    boards = [BoardProcess(folder, broker, n, game, plies, pace).start() for n, game in enumerate(games, 1)]
    try:
        yield boards
    finally:
        for b in boards:
            b.stop()


def hub_shows(hub: Hub, boards: list[BoardProcess], at_least: int) -> bool:
    """Every board's card on the hub shows ``at_least`` plies."""
    with hub.lock:
        return all(hub.round.card(b.board)["plies"] >= at_least for b in boards)


def recorded(database: Path) -> dict:
    """What a board's store holds: its games with moves, as (moves, PDN), and its outbox seqs."""
    with GameStore(database, read_only=True) as store:
        games = {}
        for g in store.games():
            moves = [game_log._move(m) for m in store.moves(g.id)]
            if moves or g.result != "*":
                games[g.id] = (moves, store.export_pdn(g.id), g.result)
        outbox = {g: [seq for seq, *_ in store.outbox(g)] for g in store.outbox_games()}
        return {"games": games, "outbox": outbox, "store_id": store.store_id()}


def hub_has(hub: Hub, board: int, database: Path) -> bool:
    """The hub has every game of the board's store as recorded: the same moves, in order, each
    once, and the same PDN."""
    mine = recorded(database)
    with hub.lock:
        games = {g.key: g for g in hub.round.board_games(board)}
        for game_id, (moves, pdn, _) in mine["games"].items():
            got = games.get(f"{mine['store_id']}-{game_id}")
            if got is None or list(got.view.moves) != moves or game_log.pdn(got.view) != pdn:
                return False
        return len(games) == len(mine["games"])


def round_pdn_of(databases: list[Path]) -> str:
    """The boards' own PDN of every game, board by board: what the hub's round PDN must be."""
    return "\n".join(pdn for db in databases for _, (_, pdn, _) in sorted(recorded(db)["games"].items()))


def finished(database: Path) -> bool:
    games = recorded(database)["games"]
    return bool(games) and all(result != "*" for _, _, result in games.values())


def plies(database: Path) -> int:
    return sum(len(m) for m, _, _ in recorded(database)["games"].values())


def hub_events(folder: Path) -> list[tuple]:
    """The hub's store, every event as kept (board, game, seq, kind)."""
    store = HubStore(folder / "hub.sqlite3")
    try:
        return [(b, g, s, k) for b, g, s, k, _ in store.events()]
    finally:
        store.close()
