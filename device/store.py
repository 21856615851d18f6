"""The scoresheet store: every game in SQLite, each move committed as it is recorded.

A power cut must lose nothing that was recorded: the database runs in WAL mode with
``synchronous=FULL`` (every commit is on disk before ``record`` returns), and every event is its
own transaction.  On restart, `GameStore.game_in_progress()` names the game to resume.

Tables:

- ``games``: id, tags (JSON object), start_fen (NULL: the standard start), started and finished
  (seconds since the epoch), result (``*`` until the end), termination, status (``in-progress`` or
  ``finished``);
- ``moves``: game_id, ply (1 for the first move), number (PDN move number), color (``W``/``B``),
  text (PDN), fen (the position after), time (the observation's time, or when it was recorded),
  irregular (the `IrregularityKind` name of an irregular move that stood, else NULL);
- ``comments``: game_id, ply (0: before the first move), text;
- ``published``: the broker's outbox (`device.broker`): game_id, seq (1, 2, ... per game), kind
  and payload (JSON) of each event derived from the game (`device.game_log`), acked (1 once the
  broker acknowledged it, PUBACK); ``meta``: key, value (the store's own id, ``store_id``).

`StoreSink` consumes the arbiter's events (`MovePlayed`, `MoveTakenBack`, `ScoresheetComment`,
`GameOver`) for one game.  PDN is written by `rules.scoresheet.Scoresheet`, the one PDN writer.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import logging
import os
import resource
import sqlite3
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from device.errors import StoreError, StoreFault
from rules.events import Event, GameOver, MovePlayed, MoveTakenBack, ScoresheetComment
from rules.piece import Color
from rules.position import Position
from rules.scoresheet import Scoresheet, ScoresheetMove

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
IN_PROGRESS, FINISHED = "in-progress", "finished"
#: The PDN seven-tag roster, written first and in this order.
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black")

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    tags        TEXT NOT NULL DEFAULT '{{}}',
    start_fen   TEXT,
    started     REAL NOT NULL,
    finished    REAL,
    result      TEXT NOT NULL DEFAULT '*',
    termination TEXT,
    status      TEXT NOT NULL DEFAULT '{IN_PROGRESS}' CHECK (status IN ('{IN_PROGRESS}', '{FINISHED}'))
);
CREATE TABLE IF NOT EXISTS moves (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    number    INTEGER NOT NULL,
    color     TEXT NOT NULL CHECK (color IN ('W', 'B')),
    text      TEXT NOT NULL,
    fen       TEXT NOT NULL,
    time      REAL,
    irregular TEXT,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS comments (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL CHECK (ply >= 0),
    text    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS published (
    game_id INTEGER NOT NULL,
    seq     INTEGER NOT NULL CHECK (seq >= 1),
    kind    TEXT NOT NULL,
    payload TEXT NOT NULL,
    acked   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE INDEX IF NOT EXISTS comments_game ON comments(game_id, ply);
"""


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: int
    tags: dict[str, str]
    start_fen: str | None
    started: float
    finished: float | None
    result: str
    termination: str | None
    status: str

    @property
    def in_progress(self) -> bool:
        return self.status == IN_PROGRESS


@dataclass(frozen=True, slots=True)
class StoredMove:
    ply: int
    number: int
    color: Color
    text: str
    fen: str
    time: float | None
    irregular: str | None


@dataclass(frozen=True, slots=True)
class StoredComment:
    ply: int
    text: str


class GameStore:
    """Games in one SQLite file.  Safe to share between threads (one connection, one lock)."""

    def __init__(self, path: str | Path, *, read_only: bool = False, exclusive: bool = False) -> None:
        """Open (or create) the store at ``path`` and check it with SQLite's integrity check: a
        damaged store raises `StoreFault` rather than give back a shortened game.

        ``read_only``: only read it (`export`), which works on a file or a folder the user may
        not write.  ``exclusive``: the one service on this store; a second exclusive opening,
        by any process, raises `StoreFault` until the first is closed (a lock file beside the
        database, ``PATH.lock``, which the system frees when the process ends)."""
        self.path = str(path)
        self.read_only = read_only
        self._lock = threading.RLock()
        self._claim: int | None = None
        try:
            if exclusive:
                self._claim = _claim(self.path)
            self._db = self._connect_read_only() if read_only else self._connect()
            try:
                self._check()
            except BaseException:
                self._db.close()
                raise
        except sqlite3.DatabaseError as e:
            self._release()
            raise _error(self.path, e, "open") from None
        except OSError as e:
            self._release()
            raise StoreError(f"cannot open the game store {self.path}: {e.strerror}: check paths.database "
                             "(an SQLite file in a writable folder)") from None
        except BaseException:
            self._release()
            raise

    def _connect(self) -> sqlite3.Connection:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        try:
            db.execute("PRAGMA foreign_keys = ON")
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal" and self.path != ":memory:":
                log.warning("the game store %s is not in WAL mode (%s)", self.path, mode)
            db.execute("PRAGMA synchronous = FULL")
            self._check_version(db)
            with _Transaction(db, self._lock):
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            db.close()
            raise
        return db

    def _connect_read_only(self) -> sqlite3.Connection:
        """A read-only connection.  In a folder that cannot be written SQLite cannot make the
        WAL's shared-memory file; the database is then read as an unchanging file, which is
        exact as long as no write-ahead log holds moves not yet copied into it."""
        uri = "file:" + urllib.parse.quote(str(Path(self.path).absolute()))
        if not Path(self.path).is_file():
            raise StoreError(f"no game store at {self.path}: give --database or set paths.database")
        try:
            db = sqlite3.connect(uri + "?mode=ro", uri=True, check_same_thread=False, timeout=10)
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as e:
            wal = Path(self.path + "-wal")
            if not (_code(e) == "SQLITE_READONLY" or _code(e) == "SQLITE_CANTOPEN") \
                    or (wal.exists() and wal.stat().st_size > 0):
                raise
            db = sqlite3.connect(uri + "?immutable=1", uri=True, check_same_thread=False)
        try:
            self._check_version(db)
        except BaseException:
            db.close()
            raise
        return db

    def _check_version(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer frisian-companion (schema {version}): "
                             "update the program, or set paths.database to another file")

    def _check(self) -> None:
        """SQLite's integrity check (the quick check misses an index that no longer matches its
        table, which reads a game short): a few milliseconds for a season of club games."""
        rows = self._db.execute("PRAGMA integrity_check(5)").fetchall()
        if rows != [("ok",)]:
            first = str(rows[0][0]).splitlines()[-1] if rows else "no answer"
            raise StoreFault(_damaged(self.path, first))

    def _release(self) -> None:
        if self._claim is not None:
            os.close(self._claim)  # the lock goes with it
            self._claim = None

    # -- plumbing

    def _transaction(self) -> "_Transaction":
        return _Transaction(self._db, self._lock)

    def _query(self, sql: str, args: Iterable[Any] = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._db.execute(sql, tuple(args)).fetchall()
            except sqlite3.DatabaseError as e:
                raise _error(self.path, e, "read") from None

    def _write(self, statements: list[tuple[str, tuple]]) -> None:
        try:
            with self._transaction():
                for sql, args in statements:
                    self._db.execute(sql, args)
        except sqlite3.DatabaseError as e:
            raise _error(self.path, e, "write") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._release()

    def __enter__(self) -> "GameStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games

    def new_game(self, tags: Mapping[str, str], start_fen: str | None = None, started: float | None = None) -> int:
        """Start a game; ``start_fen`` None (or the standard start) means the standard start."""
        if start_fen is not None and start_fen.strip() == Position.start().fen():
            start_fen = None
        with self._lock:
            try:
                with self._transaction():
                    cur = self._db.execute("INSERT INTO games (tags, start_fen, started) VALUES (?, ?, ?)",
                                           (json.dumps(dict(tags), ensure_ascii=False), start_fen,
                                            time.time() if started is None else started))
                    game_id = int(cur.lastrowid)
            except sqlite3.DatabaseError as e:
                raise _error(self.path, e, "write") from None
        log.info("new game %d", game_id)
        return game_id

    def game(self, game_id: int) -> StoredGame:
        rows = self._query("SELECT id, tags, start_fen, started, finished, result, termination, status "
                           "FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"there is no game {game_id} in {self.path}")
        r = rows[0]
        return StoredGame(r[0], json.loads(r[1]), r[2], r[3], r[4], r[5], r[6], r[7])

    def games(self) -> list[StoredGame]:
        return [self.game(r[0]) for r in self._query("SELECT id FROM games ORDER BY id")]

    def has_game(self, game_id: int) -> bool:
        return bool(self._query("SELECT 1 FROM games WHERE id = ?", (game_id,)))

    def game_in_progress(self) -> int | None:
        """The most recent game not finished, to resume after a restart."""
        rows = self._query("SELECT id FROM games WHERE status = ? ORDER BY id DESC LIMIT 1", (IN_PROGRESS,))
        return rows[0][0] if rows else None

    def set_tags(self, game_id: int, tags: Mapping[str, str]) -> None:
        self.game(game_id)
        self._write([("UPDATE games SET tags = ? WHERE id = ?", (json.dumps(dict(tags), ensure_ascii=False), game_id))])

    def set_start(self, game_id: int, start_fen: str | None) -> None:
        """Let a game with no move recorded yet begin from another position (``None`` or the
        standard start: the standard start).  Raises StoreError when it has moves."""
        self.game(game_id)
        if self.moves(game_id):
            raise StoreError(f"game {game_id} has moves recorded: its start position stays")
        if start_fen is not None and start_fen.strip() == Position.start().fen():
            start_fen = None
        self._write([("UPDATE games SET start_fen = ? WHERE id = ?", (start_fen, game_id))])

    def finish(self, game_id: int, result: str, termination: str | None = None, when: float | None = None) -> None:
        """End a game (by the rules, or resigned, agreed, the arbiter's decision)."""
        if result not in ("1-0", "0-1", "1/2-1/2", "*"):
            raise ValueError(f"not a result: {result!r} (use 1-0, 0-1 or 1/2-1/2)")
        self.game(game_id)
        self._write([("UPDATE games SET result = ?, termination = ?, finished = ?, status = ? WHERE id = ?",
                      (result, termination, time.time() if when is None else when, FINISHED, game_id))])

    def reopen(self, game_id: int) -> None:
        """A game ended without a result (adjourned) in progress again, result ``*`` until it
        ends.  Raises StoreError for a game that has a result."""
        game = self.game(game_id)
        if game.result != "*":
            raise StoreError(f"game {game_id} ended {game.result}: it cannot go on")
        self._write([("UPDATE games SET status = ?, termination = NULL, finished = NULL WHERE id = ?",
                      (IN_PROGRESS, game_id))])

    def remove_unplayed(self, game_id: int) -> bool:
        """Remove a game in which nothing was recorded (no move, no comment): a new game never
        played.  False (and nothing removed) when something was."""
        self.game(game_id)
        if self.moves(game_id) or self.comments(game_id):
            return False
        self._write([("DELETE FROM games WHERE id = ?", (game_id,))])
        return True

    # -- events

    def record(self, game_id: int, event: Event) -> None:
        """Record one arbiter event, committed before returning.  Other events are ignored."""
        when = event.time if event.time is not None else time.time()
        if isinstance(event, MovePlayed):
            self._write([
                # a move at a ply already recorded replaces it and what came after
                ("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, event.ply)),
                ("INSERT INTO moves (game_id, ply, number, color, text, fen, time, irregular) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 (game_id, event.ply, event.number, event.color.value, event.text, event.fen, when,
                  event.irregular.name if event.irregular else None)),
            ])
        elif isinstance(event, MoveTakenBack):
            self._write([
                ("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, event.ply)),
                # what was written about the move taken back stays on the sheet, after the move before
                ("UPDATE comments SET ply = ? WHERE game_id = ? AND ply > ?", (event.ply, game_id, event.ply)),
            ])
        elif isinstance(event, ScoresheetComment):
            self._write([("INSERT INTO comments (game_id, ply, text) VALUES (?, ?, ?)",
                          (game_id, event.ply, event.text))])
        elif isinstance(event, GameOver):
            self.finish(game_id, event.result, event.reason, when)

    def moves(self, game_id: int) -> list[StoredMove]:
        return [StoredMove(r[0], r[1], Color(r[2]), r[3], r[4], r[5], r[6]) for r in self._query(
            "SELECT ply, number, color, text, fen, time, irregular FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,))]

    def comments(self, game_id: int) -> list[StoredComment]:
        return [StoredComment(r[0], r[1]) for r in self._query(
            "SELECT ply, text FROM comments WHERE game_id = ? ORDER BY ply, id", (game_id,))]

    # -- the broker's outbox (device.broker)

    def store_id(self) -> str:
        """This store's own id (8 hex digits, made once): tells its games from those of another
        store a board may be given later."""
        rows = self._query("SELECT value FROM meta WHERE key = 'store_id'")
        if rows:
            return rows[0][0]
        import secrets

        self._write([("INSERT OR IGNORE INTO meta (key, value) VALUES ('store_id', ?)",
                      (secrets.token_hex(4),))])
        return self._query("SELECT value FROM meta WHERE key = 'store_id'")[0][0]

    def outbox_add(self, game_id: int, events: list[tuple[str, dict]]) -> list[tuple[int, str, str]]:
        """Append ``events`` (kind, payload) to game ``game_id``'s outbox, numbered on from its
        last: [(seq, kind, payload as JSON)], committed before returning."""
        if not events:
            return []
        with self._lock:
            last = self._query("SELECT coalesce(max(seq), 0) FROM published WHERE game_id = ?",
                               (game_id,))[0][0]
            out = [(last + i, kind, json.dumps(payload, ensure_ascii=False, separators=(",", ":")))
                   for i, (kind, payload) in enumerate(events, 1)]
            self._write([("INSERT INTO published (game_id, seq, kind, payload) VALUES (?, ?, ?, ?)",
                          (game_id, seq, kind, payload)) for seq, kind, payload in out])
        return out

    def outbox(self, game_id: int) -> list[tuple[int, str, str, bool]]:
        """Game ``game_id``'s outbox in order: [(seq, kind, payload JSON, acked)]."""
        return [(r[0], r[1], r[2], bool(r[3])) for r in self._query(
            "SELECT seq, kind, payload, acked FROM published WHERE game_id = ? ORDER BY seq", (game_id,))]

    def outbox_games(self, unacked: bool = False) -> list[int]:
        """The games with events in the outbox (with events not acknowledged yet, when asked)."""
        where = " WHERE acked = 0" if unacked else ""
        return [r[0] for r in self._query(f"SELECT DISTINCT game_id FROM published{where} ORDER BY game_id")]

    def outbox_acked(self, done: list[tuple[int, int]]) -> None:
        """Mark events (game_id, seq) acknowledged by the broker."""
        if done:
            self._write([("UPDATE published SET acked = 1 WHERE game_id = ? AND seq = ?", pair)
                         for pair in done])

    # -- PDN

    def scoresheet(self, game_id: int) -> Scoresheet:
        return scoresheet_of(self.game(game_id), self.moves(game_id), self.comments(game_id))

    def export_pdn(self, game_id: int) -> str:
        """One game as PDN text."""
        return self.scoresheet(game_id).pdn()

    def export_pdn_day(self, day: dt.date | str) -> str:
        """Every game started on ``day`` (local time; a date or ``YYYY-MM-DD``), as one PDN text."""
        if isinstance(day, str):
            try:
                day = dt.date.fromisoformat(day)
            except ValueError:
                raise ValueError(f"not a date: {day!r} (write YYYY-MM-DD)") from None
        start = dt.datetime.combine(day, dt.time()).timestamp()
        end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time()).timestamp()
        ids = [r[0] for r in self._query("SELECT id FROM games WHERE started >= ? AND started < ? ORDER BY id",
                                         (start, end))]
        return "\n".join(self.export_pdn(i) for i in ids)

    def export_pdn_event(self, event: str) -> str:
        """Every game whose Event tag is ``event``, as one PDN text."""
        ids = [g.id for g in self.games() if g.tags.get("Event") == event]
        return "\n".join(self.export_pdn(i) for i in ids)


def scoresheet_of(game: StoredGame, moves: list[StoredMove], comments: list[StoredComment]) -> Scoresheet:
    """A stored game's scoresheet (the store's, and the hub's from what a board published)."""
    by_ply: dict[int, list[str]] = {}
    for c in comments:
        by_ply.setdefault(c.ply, []).append(c.text)
    last = moves[-1].ply if moves else 0
    for ply in [p for p in by_ply if p > last]:  # comments after the last move recorded
        by_ply.setdefault(last, []).extend(by_ply.pop(ply))
    tags = dict(game.tags)
    tags.setdefault("Date", dt.datetime.fromtimestamp(game.started).strftime("%Y.%m.%d"))
    ordered = {k: tags.pop(k) for k in ROSTER if k in tags}
    ordered.update(tags)
    return Scoresheet(
        tags=ordered, start_fen=game.start_fen,
        moves=[ScoresheetMove(m.ply, m.color, m.number, m.text, m.fen, m.time,
                              tuple(by_ply.get(m.ply, ())), m.irregular) for m in moves],
        comments_before=tuple(by_ply.get(0, ())), result=game.result, termination=game.termination)


def _code(e: sqlite3.Error) -> str:
    """SQLite's primary error name (``SQLITE_FULL`` for ``SQLITE_FULL`` and its extended codes)."""
    name = getattr(e, "sqlite_errorname", None) or ""
    return "_".join(name.split("_")[:2])


def _damaged(path: str, detail: str) -> str:
    return (f"the game store {path} is damaged ({detail}): it is not read, so that no game is "
            f"given back short. Move it aside and start again (a new store is made); its games "
            f"can be copied out with: sqlite3 {path} .dump | sqlite3 REPAIRED.sqlite3")


#: SQLite errors that are the store failing while the program works (`StoreFault`, exit status
#: 3), with what to do; the others (cannot open, read-only, not a database) are the configuration's.
_FAULTS = {
    "SQLITE_FULL": "the disk is full: free space on it (nothing recorded before is lost)",
    "SQLITE_IOERR": "the disk failed to read or write it: check the SD card or disk",
    "SQLITE_BUSY": "the database is locked by another program: close it (or wait), then start again",
    "SQLITE_LOCKED": "the database is locked by another program: close it (or wait), then start again",
    "SQLITE_NOMEM": "the machine is out of memory",
}


def _error(path: str, e: sqlite3.DatabaseError, doing: str) -> StoreError:
    """The one-line error for SQLite's ``e`` while ``doing`` (open, read, write) the store."""
    code = _code(e)
    if code == "SQLITE_CORRUPT":
        return StoreFault(_damaged(path, str(e)))
    if code == "SQLITE_IOERR" and (limit := _size_limit_reached(path)) is not None:
        # A write over the process's file size limit fails with EFBIG, which SQLite reports
        # as an I/O error: it is no failing disk, and the store, up to its last commit, is whole.
        return StoreFault(f"the game store {path} cannot be {_DONE[doing]}: {e}: the disk is full for it: "
                          f"its file reached the largest size this process may write ({limit} bytes: "
                          "ulimit -f, or LimitFSIZE= in the service's unit): raise or remove that limit "
                          "(nothing recorded before is lost)")
    if code in _FAULTS:
        return StoreFault(f"the game store {path} cannot be {_DONE[doing]}: {e}: {_FAULTS[code]}")
    if doing == "open":
        return StoreError(f"cannot open the game store {path}: {e}: check paths.database "
                          "(an SQLite file in a writable folder)")
    # It opened, so the configuration is right: what fails now is the store (or its disk).
    return StoreFault(f"the game store {path} cannot be {_DONE[doing]}: {e}: check the disk")


_DONE = {"open": "opened", "read": "read", "write": "written"}

#: How near the file size limit a store file is when a write may have crossed it: SQLite writes
#: a page (a write-ahead log frame: a page and its 24-byte header) at a time, 64 KiB at most.
_LARGEST_WRITE = 65536 + 24


def _size_limit_reached(path: str) -> int | None:
    """The process's file size limit (RLIMIT_FSIZE), when the store's database or its log
    is within one write of it; else None."""
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit == resource.RLIM_INFINITY or path == ":memory:":
        return None
    sizes = []
    for name in (path, path + "-wal", path + "-journal"):
        try:
            sizes.append(os.stat(name).st_size)
        except OSError:
            pass
    return limit if sizes and max(sizes) + _LARGEST_WRITE > limit else None


def _claim(path: str) -> int:
    """Lock ``PATH.lock`` for this process alone (`fcntl.flock`; freed when the process ends,
    however it ends); its text names the holder.  Raises `StoreFault` when another holds it."""
    if path == ":memory:":
        return os.open(os.devnull, os.O_RDONLY)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
        os.close(fd)
        raise StoreFault(f"the game store {path} is in use by another frisian-companion (process "
                         f"{holder}): only one may record into it; stop that one first "
                         "(systemctl stop frisian-companion), or give this one another --database") from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on an error), under the store's lock."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self._db = db
        self._lock = lock

    def __enter__(self) -> None:
        self._lock.acquire()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._lock.release()
            raise

    def __exit__(self, exc_type: Any, *_: object) -> None:
        try:
            self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        finally:
            self._lock.release()


class StoreSink:
    """The store as an event sink for one game: ``on_event(event)`` records what belongs on the
    scoresheet."""

    def __init__(self, store: GameStore, game_id: int) -> None:
        self.store = store
        self.game_id = game_id

    def on_event(self, event: Event) -> None:
        self.store.record(self.game_id, event)
