"""The broker publisher: this board's games to the club's MQTT broker (`device.topics`).

A subscriber of the live state (`device.live.LiveState`, like the web page): `publish(snapshot)`
only queues the snapshot, so the service's loop never waits for the network.  Its own thread
does the rest, with paho's network thread (`device.mqtt`) underneath:

- the store is the source of truth.  After each snapshot the game is compared with what was
  published of it (`device.game_log.diff`), and the difference is appended to the store's outbox
  (``published``, numbered per game) before anything is sent: a companion killed at any moment
  finds on restart what it had not sent, and numbers on where it stopped;
- each event goes out with QoS 1, retained under its own topic; once the broker acknowledged it
  (PUBACK) the outbox marks it.  While the broker is away nothing is sent and the game goes on
  being recorded; when it is back every event not acknowledged is sent again, in order, and the
  current game's whole log with it (a broker restarted without its database forgot it).  An
  event may so reach the broker twice; the hub keeps each (board, game, seq) once;
- the board's state (retained: position, counters, names, status, open irregularity, the PDN so
  far) is sent after every change and on each connection;
- the hub's pairings (``frisian/<event>/pairings``) give this board's names, round and board
  number; they are applied through the service's commands (``apply_pairing``, the same as the
  page's), to a game with no move yet or one of the same round.

It never raises into the service: the broker away is said once at warning level, and once when
it is back; a refused login is said once with what to fix.
"""

from __future__ import annotations

import json
import logging
import queue
import socket
import threading
import time
from collections import deque
from typing import Any, Callable

from device import game_log, mqtt, topics
from device.config import BrokerConfig
from device.game_log import GameView
from device.store import GameStore

log = logging.getLogger(__name__)

#: At most this many events wait for the broker's acknowledgement at once.
WINDOW = 100
#: Not connected this long after starting: said once (paho goes on trying).
FIRST_CONNECT_S = 3.0


class BrokerPublisher:
    """Publishes one board's games (see the module docstring).  `start`, then `publish` each
    snapshot; `close` at the end."""

    def __init__(self, config: BrokerConfig, store: GameStore, *,
                 apply_pairing: Callable[[dict[str, str]], Any] | None = None,
                 page: str | None = None, client_id: str | None = None) -> None:
        self.config = config
        self.address = mqtt.parse_url(config.url)
        self.store = store
        self.board = config.board
        self.apply_pairing = apply_pairing
        self.page = page
        self.client_id = client_id or f"frisian-{config.event}-{config.board}-{socket.gethostname()}"[:64]
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self._store_id = ""
        self._views: dict[int, GameView] = {}
        self._unsent: deque[tuple[int, int, str, str]] = deque()  # (game, seq, kind, payload)
        self._inflight: dict[int, tuple[int, int, str, str]] = {}  # mid -> the event
        self._connected = False
        self._ever_connected = False
        self._away_said = False
        self._refused_said = False
        self._snapshot: dict | None = None
        self._pairing: dict[str, str] | None = None
        self._paired: tuple | None = None
        #: Events the broker acknowledged since the start (the tests and the bench read it).
        self.acked = 0

    # -- life

    def start(self) -> "BrokerPublisher":
        self._store_id = self.store.store_id()
        self._catch_up()
        handlers = mqtt.Handlers(
            connected=lambda: self._queue.put(("connected",)),
            refused=lambda reason: self._queue.put(("refused", reason)),
            disconnected=lambda: self._queue.put(("disconnected",)),
            published=lambda mid: self._queue.put(("acked", mid)),
            message=lambda topic, payload, retained: self._queue.put(("pairings", payload)))
        self._client = mqtt.connect(self.address, self.client_id, handlers,
                                    username=self.config.username, password=self.config.password,
                                    ca_file=self.config.ca_file,
                                    will=(self._topic_online(), b"0"))
        self._thread = threading.Thread(target=self._run, name="broker", daemon=True)
        self._thread.start()
        log.info("publishing to the broker at %s as board %d of event %s", self.address,
                 self.board, self.config.event)
        return self

    def publish(self, snapshot: dict) -> None:
        """A `LiveState` subscriber: queue ``snapshot``; never waits."""
        self._queue.put(("snapshot", snapshot))

    def close(self, timeout: float = 3.0) -> None:
        """Send what can be sent within ``timeout`` seconds, say goodbye, disconnect."""
        if self._thread is None:
            return
        self._queue.put(("stop", time.monotonic() + timeout))
        self._thread.join(timeout + 2)
        self._thread = None
        if self._client is not None:
            try:
                mqtt.stop(self._client, goodbye=(self._topic_online(), b"0"))
            except Exception:
                log.exception("disconnecting from the broker failed")
            self._client = None

    @property
    def connected(self) -> bool:
        return self._connected

    def _topic_online(self) -> str:
        return topics.online(self.config.event, self.board)

    # -- the worker

    def _run(self) -> None:
        started = time.monotonic()
        deadline: float | None = None
        while True:
            try:
                items = [self._queue.get(timeout=0.05 if deadline is not None else 1.0)]
            except queue.Empty:
                items = []
            while True:
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                for item in items:
                    if item[0] == "stop":
                        deadline = item[1]
                self._handle(items)
            except Exception:  # never into the service; the outbox keeps what was not sent
                log.exception("the broker publisher failed; it goes on")
            if not self._ever_connected and not self._away_said \
                    and time.monotonic() - started >= FIRST_CONNECT_S:
                self._away_said = True
                log.warning("the broker at %s cannot be reached yet: the games are recorded as "
                            "ever, it is tried again every few seconds and gets all of them once "
                            "it answers", self.address)
            if deadline is not None and (time.monotonic() >= deadline or not self._connected
                                         or (not self._unsent and not self._inflight)):
                return

    def _handle(self, items: list[tuple]) -> None:
        acked: list[tuple[int, int]] = []
        snapshot = None
        for item in items:
            kind = item[0]
            if kind == "snapshot":
                snapshot = item[1]
            elif kind == "acked":
                event = self._inflight.pop(item[1], None)
                if event is not None:
                    acked.append(event[:2])
            elif kind == "connected":
                self._on_connected()
            elif kind == "disconnected":
                self._on_disconnected()
            elif kind == "refused":
                if not self._refused_said:
                    self._refused_said = True
                    log.error("the broker at %s refused board %d: %s: check broker.username and "
                              "broker.password (and the broker's ACL)", self.address, self.board, item[1])
            elif kind == "pairings":
                self._on_pairings(item[1])
        if acked:
            self.store.outbox_acked(acked)
            self.acked += len(acked)
        if snapshot is not None:
            before = None if self._snapshot is None else self._snapshot["game"]["id"]
            self._snapshot = snapshot
            game_id = snapshot["game"]["id"]
            if before is not None and before != game_id:
                self._sync(before)  # set aside, adjourned or removed as the next one began
            self._sync(game_id, snapshot.get("pending"))
            self._pair()
            self._send_state()
        self._send()

    # -- the outbox

    def _view(self, game_id: int) -> GameView:
        """What was published of game ``game_id`` (the outbox replayed, then kept)."""
        view = self._views.get(game_id)
        if view is None:
            view = GameView()
            for _, kind, payload, _ in self.store.outbox(game_id):
                view = game_log.apply(view, kind, json.loads(payload))
            self._views[game_id] = view
        return view

    def _sync(self, game_id: int, pending: dict | None = None) -> None:
        """Append to the outbox what the store holds of ``game_id`` that was not published."""
        now = game_log.of_store(self.store, game_id)
        if pending is not None:
            now = game_log.GameView(now.header, now.moves, now.comments, now.end, pending, now.removed)
        view = self._view(game_id)
        events = game_log.diff(view, now)
        if not events:
            return
        rows = self.store.outbox_add(game_id, events)
        for kind, payload in events:
            view = game_log.apply(view, kind, payload)
        self._views[game_id] = view
        self._unsent.extend((game_id, seq, kind, payload) for seq, kind, payload in rows)

    def _catch_up(self) -> None:
        """At start: what the store recorded and the outbox never got (the companion stopped,
        or was killed, between the two), and everything not acknowledged."""
        games = self.store.outbox_games()
        todo = set(self.store.outbox_games(unacked=True))
        if games:
            todo.add(games[-1])
            todo.update(g.id for g in self.store.games() if g.id > games[-1])
        for game_id in sorted(todo):
            self._sync(game_id)
        self._queue_unacked()

    def _queue_unacked(self, whole: int | None = None) -> None:
        """Everything not acknowledged, in order, to be sent (and game ``whole``'s every event)."""
        self._unsent.clear()
        games = set(self.store.outbox_games(unacked=True))
        if whole is not None:
            games.add(whole)
        for game_id in sorted(games):
            self._unsent.extend((game_id, seq, kind, payload)
                                for seq, kind, payload, acked in self.store.outbox(game_id)
                                if not acked or game_id == whole)

    def _send(self) -> None:
        if not self._connected:
            return
        while self._unsent and len(self._inflight) < WINDOW:
            game_id, seq, kind, payload = event = self._unsent.popleft()
            topic = topics.event(self.config.event, self.board,
                                 topics.game_key(self._store_id, game_id), seq)
            body = f'{{"seq":{seq},"kind":"{kind}","data":{payload}}}'
            info = self._client.publish(topic, body, qos=1, retain=True)
            if info.rc != 0:  # the connection dropped meanwhile: sent again once it is back
                self._unsent.appendleft(event)
                return
            self._inflight[info.mid] = event

    def _send_state(self) -> None:
        snap = self._snapshot
        if snap is None or not self._connected:
            return
        game_id = snap["game"]["id"]
        view = self._view(game_id)
        moves = snap.get("moves") or []
        state = {
            "board": self.board, "game": topics.game_key(self._store_id, game_id),
            "seq": len(self.store.outbox(game_id)), "tags": snap["game"]["tags"],
            "result": snap["game"]["result"], "termination": snap["game"]["termination"],
            "status": snap["status"], "fen": snap["fen"], "turn": snap["turn"],
            "last_move": snap["last_move"], "last": moves[-1]["text"] if moves else None,
            "plies": len(moves), "counters": snap["counters"], "pending": snap["pending"],
            "pdn": game_log.pdn(view), "page": self.page, "sent": time.time(),
        }
        self._client.publish(topics.state(self.config.event, self.board),
                             json.dumps(state, ensure_ascii=False, separators=(",", ":")),
                             qos=1, retain=True)

    # -- the connection

    def _on_connected(self) -> None:
        self._connected = True
        self._refused_said = False
        current = None if self._snapshot is None else self._snapshot["game"]["id"]
        self._inflight.clear()
        self._queue_unacked(whole=current)
        if self._away_said:
            log.warning("the broker at %s is back: sending what it missed (%d events)",
                        self.address, len(self._unsent))
        elif not self._ever_connected:
            log.info("connected to the broker at %s", self.address)
        self._away_said = False
        self._ever_connected = True
        self._client.subscribe(topics.pairings(self.config.event), qos=1)
        self._client.publish(self._topic_online(), b"1", qos=1, retain=True)
        self._send_state()

    def _on_disconnected(self) -> None:
        if not self._connected:
            return
        self._connected = False
        self._inflight.clear()
        if not self._away_said:
            self._away_said = True
            log.warning("the broker at %s is away: the games are recorded as ever; what it misses "
                        "is sent when it is back", self.address)

    # -- pairings

    def _on_pairings(self, payload: bytes) -> None:
        try:
            pairing = json.loads(payload.decode("utf-8"))
            mine = pairing["boards"].get(str(self.board))
            round_ = str(pairing["round"])
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("the hub's pairings could not be read: ignored")
            return
        if not isinstance(mine, dict):
            return
        tags = {"Round": round_, "Board": str(self.board)}
        tags.update({k: str(v) for k, v in mine.items() if k in ("White", "Black")})
        if pairing.get("event_name"):
            tags["Event"] = str(pairing["event_name"])
        self._pairing = tags
        self._pair()

    def _pair(self) -> None:
        """Give the current game the pairing's tags, when it has no move yet or is of the
        pairing's round (once per game and pairing)."""
        snap, tags = self._snapshot, self._pairing
        if snap is None or tags is None or self.apply_pairing is None:
            return
        game_tags = snap["game"]["tags"]
        if all(game_tags.get(k) == v for k, v in tags.items()):
            return
        if snap["moves"] and game_tags.get("Round") != tags["Round"]:
            return  # a game of another round is playing: the next game gets them
        key = (snap["game"]["id"], tuple(sorted(tags.items())))
        if key == self._paired:
            return
        self._paired = key
        log.info("the pairing of round %s for board %d: %s - %s", tags["Round"], self.board,
                 tags.get("White", "?"), tags.get("Black", "?"))
        self.apply_pairing(dict(tags))
