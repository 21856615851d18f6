"""Helpers for the club's-screen tests: a companion serving its page while a rendered game
plays, and a small HTTP client."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

from device.app import web_for
from device.config import Config, WebConfig
from device.render_source import RenderedSource
from device.service import Companion
from device.sources import Frame
from device.store import GameStore
from rules.game import Game
from rules.pdn import read_file
from tests.conftest import DATA

TOKEN = "s3cret-pin"
#: An endgame set up (self-play game 43 of tests/data): a black king on 22 and four men
#: against four white men; not the same turned half round.
SETUP_GAME = read_file(str(DATA / "selfplay.pdn"))[42].game
#: The rendering (`served`'s seed) whose camera, 16 degrees off vertical, cannot tell that king
#: from a man surely: it is read as a man and named unsure.
UNSURE_SEED = 2


def real_game(plies: int | None = None) -> Game:
    """Game 4 of the lidraughts file (33 plies of a real game), or its first ``plies``."""
    game = read_file(str(DATA / "lidraughts-frisian.pdn"))[3].game
    if plies is None:
        return game
    short = Game(start=game.start, tags=dict(game.tags))
    for move in game.moves[:plies]:
        short.push(move)
    return short


class Holding:
    """A recording that, once played, keeps showing its last frame (the players sit on) until
    the service is stopped: the service stays up for the page's commands."""

    live = False

    def __init__(self, source: Any, fps: float = 10.0) -> None:
        self.source = source
        self.fps = fps
        self.name = source.name
        self._last: Frame | None = None
        self._held = 0

    def open(self) -> None:
        self.source.open()

    def read(self) -> Frame | None:
        frame = self.source.read()
        if frame is not None:
            self._last = frame
            return frame
        if self._last is None:
            return None
        time.sleep(1 / self.fps)
        self._held += 1
        return Frame(self._last.image, self._last.time + self._held / self.fps,
                     self._last.index + self._held)

    def close(self) -> None:
        self.source.close()


class Gated:
    """A recording held on its first frame (the players wait at the board) until ``go`` is set,
    then played on; frame times and indices run on without a step back."""

    live = False

    def __init__(self, source: Any, go: threading.Event, fps: float = 10.0) -> None:
        self.source = source
        self.go = go
        self.fps = fps
        self.name = source.name
        self._first: Frame | None = None
        self._held = 0

    def open(self) -> None:
        self.source.open()

    def read(self) -> Frame | None:
        if self._first is None:
            self._first = self.source.read()
            return self._first
        if not self.go.is_set():
            time.sleep(1 / self.fps)
            self._held += 1
            return Frame(self._first.image, self._first.time + self._held / self.fps,
                         self._first.index + self._held)
        frame = self.source.read()
        if frame is None:
            return None
        return Frame(frame.image, frame.time + self._held / self.fps, frame.index + self._held)

    def close(self) -> None:
        self.source.close()


def rendered_corner(game: Game, seed: int = 5) -> int:
    """The image corner (0 TL, 1 TR, 2 BR, 3 BL) of square 46 in `served`'s rendering of
    ``game`` with ``seed``."""
    source = RenderedSource(game, fps=6, seed=seed)
    source.open()
    source.read()
    return source.truth.corner_46


@contextmanager
def served(tmp_path: Path, game: Game, *, token: str = TOKEN, port: int = 0, seed: int = 5,
           database: Path | None = None, corner_46: int | None = None,
           go: threading.Event | None = None) -> Iterator[Companion]:
    """A companion watching ``game`` rendered (held on its last frame), its page served on
    127.0.0.1:``port`` (0: a free port, ``companion.web.port``), run on a thread until the end.
    ``corner_46``: square 46's corner as configured; ``go``: the rendering is held on its first
    frame until it is set (`Gated`)."""
    store = GameStore(database or tmp_path / "games.sqlite3")
    source: Any = RenderedSource(game, fps=6, seed=seed)
    if go is not None:
        source = Gated(source, go, fps=6)
    c = Companion(source=Holding(source), store=store,
                  tags={"Event": "t"}, still_s=0.3, corner_46=corner_46)
    config = replace(Config(), web=WebConfig(bind="127.0.0.1", port=port, token=token))
    c.web = web_for(config, c)
    stop = threading.Event()
    thread = threading.Thread(target=c.run, args=(stop,), name="service", daemon=True)
    thread.start()
    try:
        yield c
    finally:
        stop.set()
        thread.join(60)
        c.close()
        store.close()


def call(url: str, method: str = "GET", body: Any = None, headers: dict | None = None,
         raw: bytes | None = None) -> tuple[int, Any, dict]:
    """(status, the answer as JSON or text, headers)."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    hdrs = dict(headers or {})
    if body is not None:
        hdrs.setdefault("Content-Type", "application/json")
    request = urllib.request.Request(url, data=data, method=method, headers=hdrs)
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            status, text, got = r.status, r.read().decode("utf-8"), dict(r.headers)
    except urllib.error.HTTPError as e:
        status, text, got = e.code, e.read().decode("utf-8"), dict(e.headers)
    if got.get("Content-Type", "").startswith("application/json"):
        return status, json.loads(text), got
    return status, text, got


def bearer(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def state(c: Companion) -> dict | None:
    return call(c.web.url + "api/state")[1]["state"]
