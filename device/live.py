"""The game's live state as one JSON-able snapshot, for the club's screen and the hub.

`LiveState` is a sink (`on_event`) and a watcher of the companion (`refresh`, called after each
frame on the service's thread).  It keeps the announcements of the current game, in every
language of the speech (`device.phrases`, the same sentences the speaker says), and, whenever
something shown changed, builds a `snapshot` from the store (tags, result, the moves as
recorded) and the arbiter (position, last move, counters, an open irregularity) and hands it
to its subscribers.  A subscriber must not block (the web server only queues it for its own
thread).  It decides nothing.

The snapshot is a plain dict of JSON values::

    {"version": 7, "game": {"id", "tags", "result", "termination", "status", "start_fen"},
     "status": "playing", "fen": "W:W...", "turn": "white",
     "last_move": {"from", "to", "path", "captured"} | None,
     "moves": [{"ply", "number", "color", "text", "irregular"}],
     "counters": {"white": {"square", "count", "blocked"} | None, "black": ...,
                  "seven_move_side": "white" | None, "seven_move_left": int | None},
     "pending": {"article", "summary", "text": {"en": ..., "nl": ...}} | None,
     "announcements": [{"ply", "event", "article", "text": {"en": ..., "nl": ...}}],
     "language": "en"}

``status`` is `device.service.Companion.status`.  An open irregularity's ``summary`` is the
rules' own sentence (English, naming the squares, its article at the end); its ``text`` says it
in every language: in English that sentence, in the others the kind's phrase after its article
(`device.phrases`: ``summary.KIND``, ``touch_move_open``).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import deque
from typing import TYPE_CHECKING, Any, Callable

from device.phrases import PHRASES
from device.speech import Announcer
from rules.events import Event
from rules.piece import Color, KingCounter

if TYPE_CHECKING:
    from device.service import Companion
    from rules.arbiter import Pending

log = logging.getLogger(__name__)

#: The page shows this many of the game's latest announcements.
KEEP_ANNOUNCEMENTS = 30

Snapshot = dict[str, Any]


def _counter(k: KingCounter | None) -> dict | None:
    return None if k is None else {"square": k.square, "count": k.count, "blocked": k.blocked}


def _side(c: Color | None) -> str | None:
    return None if c is None else str(c)


def _pending(pending: "Pending | None") -> dict | None:
    """The open irregularity as the snapshot shows it (see the module docstring)."""
    if pending is None:
        return None
    article = pending.kind.article if pending.kind is not None else None
    number = re.match(r"Art\.\s*(\S+)", article or "")
    text = {}
    for lang, t in PHRASES.items():
        if lang == "en":
            text[lang] = pending.summary
        elif pending.lost:  # no irregularity: the companion lost track (`LostTrack`)
            text[lang] = t["lost_open"]
        elif pending.kind is None:  # a touch-move breach (Art. 15)
            text[lang] = t["touch_move_open"]
        else:
            said = t["article"].format(number=number.group(1)) if number else article
            text[lang] = f"{said}: {t['summary.' + pending.kind.name]}"
    return {"article": article, "summary": pending.summary, "text": text}


def snapshot(companion: "Companion", announcements: list[dict], language: str = "en",
             version: int = 0) -> Snapshot:
    """The state of ``companion``'s game (see the module docstring).  On the service's thread."""
    arbiter = companion.arbiter
    store = companion.store
    stored = store.game(companion.game_id)
    game = arbiter.game
    last = game.moves[-1] if game.moves else None
    counters = arbiter.counters()
    pending = arbiter.pending
    return {
        "version": version,
        "game": {"id": stored.id, "tags": dict(stored.tags), "result": stored.result,
                 "termination": stored.termination, "status": stored.status,
                 "start_fen": stored.start_fen},
        "status": companion.status(),
        "fen": arbiter.position.fen(),
        "turn": str(arbiter.position.turn),
        "last_move": None if last is None else {
            "from": last.from_square, "to": last.to_square, "path": list(last.path),
            "captured": list(last.captured)},
        "moves": [{"ply": m.ply, "number": m.number, "color": str(m.color), "text": m.text,
                   "irregular": m.irregular} for m in store.moves(companion.game_id)],
        "counters": {"white": _counter(counters.white), "black": _counter(counters.black),
                     "seven_move_side": _side(counters.seven_move_side),
                     "seven_move_left": counters.seven_move_left},
        "pending": _pending(pending),
        "announcements": list(announcements),
        "language": language,
    }


class LiveState:
    """Events and the companion's state -> snapshots for subscribers (module docstring)."""

    def __init__(self, language: str = "en") -> None:
        self.language = language
        self.subscribers: list[Callable[[Snapshot], None]] = []
        self._announcers = {lang: Announcer(lang) for lang in PHRASES}
        self._said: deque[dict] = deque(maxlen=KEEP_ANNOUNCEMENTS)
        self._key: tuple | None = None
        self._changed = True
        self._version = 0
        self._lock = threading.Lock()
        self._latest: Snapshot | None = None

    @property
    def latest(self) -> Snapshot | None:
        """The last snapshot built (None before the first)."""
        with self._lock:
            return self._latest

    def on_event(self, event: Event) -> None:
        texts = {lang: " ".join(a.sentences(event)) for lang, a in self._announcers.items()}
        if any(texts.values()):
            self._said.append({"ply": event.ply, "event": type(event).__name__,
                               "article": getattr(event, "article", None), "text": texts})
        self._changed = True

    def refresh(self, companion: "Companion") -> Snapshot | None:
        """After a frame or commands: build and hand out a snapshot when anything shown changed
        (the new snapshot; None when nothing did)."""
        arbiter = companion.arbiter
        if arbiter is None or companion.game_id is None:
            return None
        game = arbiter.game
        key = (companion.game_id, companion.status(), game.ply, arbiter.over,
               tuple(sorted(game.tags.items())))
        if key[0] != (self._key or (None,))[0]:  # a new game: its own announcements
            self._said.clear()
            for a in self._announcers.values():
                a.reset()
        if key == self._key and not self._changed:
            return None
        self._key, self._changed = key, False
        self._version += 1
        snap = snapshot(companion, list(self._said), self.language, self._version)
        with self._lock:
            self._latest = snap
        for subscriber in self.subscribers:
            try:
                subscriber(snap)
            except Exception:
                log.exception("the live-state subscriber %r failed", subscriber)
        return snap
