"""The club's hub: every board of an event, from the broker (DESIGN.md "Growing beyond one board").

`Hub` subscribes to every board's state, presence and events (`device.topics`), keeps each
event once in its own store (`device.hub_store`) and replays them in order per game
(`device.game_log`): an event that comes before one it follows waits for it, one that comes
again is dropped.  So the hub ends with every board's games as the boards recorded them, whatever
the broker, the boards or the hub itself went through, and writes the round's PDN with the
boards' own writer.  It publishes one thing, the round's pairings (`device.pairings`).

paho's thread only queues what arrives; the hub's own thread applies it in batches, under a
lock the page's thread takes to read (`Round`), and tells its listeners which boards changed.
"""

from __future__ import annotations

import json
import logging
import queue
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from device import game_log, mqtt, topics
from device.config import BrokerConfig
from device.game_log import GameView
from device.hub_store import HubStore, Row
from device.standings import Standing, standings

log = logging.getLogger(__name__)

#: The hub's thread applies what arrived at most this long after it arrived (seconds).
BATCH_S = 0.05
#: Not connected this long after starting: said once (paho goes on trying).
FIRST_CONNECT_S = 3.0


@dataclass
class BoardGame:
    """One game of one board as the hub has it: the events applied in order (``view``), the
    next one expected and those come early."""

    board: int
    key: str
    view: GameView = field(default_factory=GameView)
    next_seq: int = 1
    early: dict[int, tuple[str, dict]] = field(default_factory=dict)

    @property
    def started(self) -> float:
        return float((self.view.header or {}).get("started") or 0.0)

    @property
    def played(self) -> bool:
        """Something is on its scoresheet (a move or a result)."""
        return not self.view.removed and self.view.header is not None \
            and (bool(self.view.moves) or self.view.result != "*")


class Round:
    """The event's boards and games (not thread-safe: hold `Hub.lock`)."""

    def __init__(self) -> None:
        self.games: dict[tuple[int, str], BoardGame] = {}
        self.states: dict[int, dict] = {}
        self.online: dict[int, bool] = {}
        self.duplicates = 0
        self.version = 0

    def add_event(self, board: int, key: str, seq: int, kind: str, payload: dict) -> bool:
        """Take event ``seq`` of a game; False when it was had already (nothing changes)."""
        game = self.games.get((board, key))
        if game is None:
            game = self.games[(board, key)] = BoardGame(board, key)
        if seq < game.next_seq or seq in game.early:
            self.duplicates += 1
            return False
        game.early[seq] = (kind, payload)
        while game.next_seq in game.early:
            kind, payload = game.early.pop(game.next_seq)
            game.view = game_log.apply(game.view, kind, payload)
            game.next_seq += 1
        self.version += 1
        return True

    def set_state(self, board: int, state: dict | None) -> None:
        if state is None:
            self.states.pop(board, None)
        else:
            self.states[board] = state
        self.version += 1

    def boards(self) -> list[int]:
        return sorted(set(self.states) | {b for b, _ in self.games})

    def current(self, board: int) -> BoardGame | None:
        """The board's game now: the state's, else its last begun."""
        state = self.states.get(board)
        if state is not None and (board, state.get("game")) in self.games:
            return self.games[(board, state["game"])]
        mine = [g for (b, _), g in self.games.items() if b == board and not g.view.removed]
        return max(mine, key=lambda g: g.started) if mine else None

    def board_games(self, board: int, round_: str | None = None) -> list[BoardGame]:
        """The board's games with something on the scoresheet (of ``round_`` only, when given),
        in the order they began."""
        games = [g for (b, _), g in self.games.items() if b == board and g.played]
        if round_ is not None:
            games = [g for g in games if (g.view.header or {}).get("tags", {}).get("Round") == round_]
        return sorted(games, key=lambda g: (g.started, g.key))

    def pdn(self, round_: str | None = None) -> str:
        """The round's games (every game, when ``round_`` is None) as one PDN text, board by
        board, each written as its board writes it."""
        return "\n".join(game_log.pdn(g.view) for b in self.boards() for g in self.board_games(b, round_))

    def standings(self) -> list[Standing]:
        rows = []
        for g in self.games.values():
            if g.played and g.view.finished:
                tags = g.view.header["tags"]
                rows.append((tags.get("White", "?"), tags.get("Black", "?"), g.view.result))
        return standings(rows)

    def card(self, board: int) -> dict[str, Any]:
        """What the round's page shows of a board."""
        state = self.states.get(board) or {}
        game = self.current(board)
        view = game.view if game is not None else GameView()
        tags = dict((view.header or {}).get("tags") or state.get("tags") or {})
        moves = view.moves
        return {
            "board": board, "game": game.key if game else None,
            "white": tags.get("White", "?"), "black": tags.get("Black", "?"),
            "round": tags.get("Round"), "fen": state.get("fen"), "last_move": state.get("last_move"),
            "last": moves[-1]["text"] if moves else None, "plies": len(moves),
            "moves": [m["text"] for m in moves],
            "counters": state.get("counters"), "status": state.get("status", "unknown"),
            "pending": view.pending if view.pending is not None else state.get("pending"),
            "result": view.result, "online": self.online.get(board, False),
            "sent": state.get("sent"), "page": state.get("page"),
        }


class Hub:
    """The hub (see the module docstring): `start`, read `round` under `lock`, `close`."""

    def __init__(self, broker: BrokerConfig, store: HubStore, *, pairing: dict | None = None,
                 round_: str | None = None, client_id: str | None = None) -> None:
        """``pairing``: the round's pairings to publish (`device.pairings.message`); ``round_``:
        the round the page and the PDN show (default: the pairings' round; none: every game)."""
        self.config = broker
        self.address = mqtt.parse_url(broker.url)
        self.event = broker.event
        self.store = store
        self.pairing = pairing
        self.round_name: str | None = round_ if pairing is None else str(pairing["round"])
        self.client_id = client_id or f"frisian-hub-{broker.event}-{socket.gethostname()}"[:64]
        self.round = Round()
        self.lock = threading.Lock()
        #: Called on the hub's thread with the boards that changed (must not block).
        self.listeners: list[Callable[[set[int]], None]] = []
        self.connected = False
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self._away_said = False

    def start(self) -> "Hub":
        replayed = 0
        with self.lock:
            for board, key, seq, kind, payload in self.store.events():
                self.round.add_event(board, key, seq, kind, json.loads(payload))
                replayed += 1
        if replayed:
            log.info("the hub's store gave back %d events", replayed)
        handlers = mqtt.Handlers(
            connected=lambda: self._queue.put(("connected",)),
            refused=lambda reason: self._queue.put(("refused", reason)),
            disconnected=lambda: self._queue.put(("disconnected",)),
            message=lambda topic, payload, retained: self._queue.put(("message", topic, payload)))
        self._client = mqtt.connect(self.address, self.client_id, handlers,
                                    username=self.config.username, password=self.config.password,
                                    ca_file=self.config.ca_file)
        self._thread = threading.Thread(target=self._run, name="hub", daemon=True)
        self._thread.start()
        log.info("the hub follows event %s at the broker %s", self.event, self.address)
        return self

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(("stop",))
            self._thread.join(10)
            self._thread = None
        if self._client is not None:
            mqtt.stop(self._client)
            self._client = None

    # -- the hub's thread

    def _run(self) -> None:
        started, said = time.monotonic(), False
        while True:
            try:
                items = [self._queue.get(timeout=1.0)]
            except queue.Empty:
                if not self.connected and not said and time.monotonic() - started >= FIRST_CONNECT_S:
                    said = True
                    log.warning("the broker at %s cannot be reached yet: it is tried again every "
                                "few seconds; the round's page shows what the hub's store has",
                                self.address)
                continue
            end = time.monotonic() + BATCH_S
            while time.monotonic() < end:  # what else arrives soon comes in the same batch
                try:
                    items.append(self._queue.get(timeout=max(0.0, end - time.monotonic())))
                except queue.Empty:
                    break
            try:
                stop = self._handle(items)
            except Exception:
                log.exception("the hub failed on what arrived; it goes on")
                stop = any(i[0] == "stop" for i in items)
            if stop:
                return

    def _handle(self, items: list[tuple]) -> bool:
        rows: list[Row] = []
        changed: set[int] = set()
        stop = False
        with self.lock:
            for item in items:
                kind = item[0]
                if kind == "message":
                    self._message(item[1], item[2], rows, changed)
                elif kind == "connected":
                    self._on_connected()
                elif kind == "disconnected":
                    if self.connected and not self._away_said:
                        self._away_said = True
                        log.warning("the broker at %s is away: the round's page shows what came "
                                    "until now; the rest comes when it is back", self.address)
                    self.connected = False
                elif kind == "refused":
                    log.error("the broker at %s refused the hub: %s: check broker.username and "
                              "broker.password (and the broker's ACL)", self.address, item[1])
                elif kind == "stop":
                    stop = True
        self.store.add(rows)
        if changed:
            for listener in self.listeners:
                try:
                    listener(changed)
                except Exception:
                    log.exception("the hub's listener %r failed", listener)
        return stop

    def _message(self, topic: str, payload: bytes, rows: list[Row], changed: set[int]) -> None:
        where = topics.parse(self.event, topic)
        if where is None:
            return
        try:
            if where.kind == "online":
                self.round.online[where.board] = payload == b"1"
            elif where.kind == "state":
                self.round.set_state(where.board, json.loads(payload) if payload else None)
            else:
                if not payload:
                    return  # a retained event cleared
                message = json.loads(payload)
                kind, data = str(message["kind"]), message["data"]
                if not self.round.add_event(where.board, where.game, where.seq, kind, data):
                    return
                rows.append((where.board, where.game, where.seq, kind,
                             json.dumps(data, ensure_ascii=False, separators=(",", ":"))))
        except (ValueError, KeyError, TypeError) as e:
            log.warning("board %d sent what the hub cannot read on %s (%s): ignored", where.board, topic, e)
            return
        changed.add(where.board)

    def _on_connected(self) -> None:
        if self._away_said:
            log.warning("the broker at %s is back", self.address)
        self._away_said = False
        self.connected = True
        for topic in topics.hub_subscriptions(self.event):
            self._client.subscribe(topic, qos=1)
        if self.pairing is not None:
            self._client.publish(topics.pairings(self.event),
                                 json.dumps(self.pairing, ensure_ascii=False), qos=1, retain=True)
