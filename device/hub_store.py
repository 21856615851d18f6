"""The hub's own store: every event of every board, once, in SQLite.

Table ``events``: board, game (the board's game key, `device.topics.game_key`), seq, kind,
payload (JSON), received (seconds since the epoch); the primary key (board, game, seq) keeps
each event once however often the broker delivers it.  The hub replays it at start
(`device.hub.Round`), so a hub restarted shows the round at once; what it missed meanwhile the
broker's retained events give it.

The hub is a copy: its database runs in WAL mode with ``synchronous=NORMAL`` (a power cut may
lose its last events, which the broker gives again), and events are written in batches.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Iterator

from device.errors import StoreError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    board    INTEGER NOT NULL,
    game     TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    payload  TEXT NOT NULL,
    received REAL NOT NULL,
    PRIMARY KEY (board, game, seq)
)
"""

Row = tuple[int, str, int, str, str]  # board, game, seq, kind, payload


class HubStore:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as e:
            raise StoreError(f"cannot open the hub's store {self.path}: {e}: give --database a "
                             "file in a writable folder") from None

    def add(self, rows: list[Row]) -> None:
        """Keep ``rows`` (those already kept are left as they are), in one transaction."""
        if not rows:
            return
        now = time.time()
        with self._lock:
            try:
                self._db.execute("BEGIN")
                self._db.executemany("INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?)",
                                     [(*r, now) for r in rows])
                self._db.execute("COMMIT")
            except sqlite3.DatabaseError as e:
                self._db.execute("ROLLBACK")
                raise StoreError(f"the hub's store {self.path} cannot be written: {e}: check the disk") from None

    def events(self) -> Iterator[Row]:
        """Every event kept, by board, game and seq."""
        with self._lock:
            rows = self._db.execute("SELECT board, game, seq, kind, payload FROM events "
                                    "ORDER BY board, game, seq").fetchall()
        return iter(rows)

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM events").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
