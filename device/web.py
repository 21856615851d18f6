"""The club's screen: a web page served by the companion (DESIGN.md "Growing beyond one board").

`WebServer` runs aiohttp (3.8 and newer: Debian bookworm packages 3.8.4) on its own thread with
its own asyncio loop, so that the service's loop (vision) never waits for a browser.  It shows
and forwards, it never decides:

- live state: `publish(snapshot)` (a `device.live.LiveState` subscriber, on the service's
  thread) only hands the snapshot to the web's loop (``call_soon_threadsafe``); there the board
  is drawn once (`rules.svg`, as White and as Black see it) and every page connected to
  ``/api/events`` (server-sent events) gets the whole state, so a page that reconnects is
  complete at once.  A slow page skips states it had no time for, never delays the others.
- the arbiter's controls (``POST /api/tags``, ``/api/new-game``, ``/api/take-back``,
  ``/api/declare``, ``/api/adjourn``, ``/api/resume``, ``/api/turn``, ``/api/read-position``)
  need the configured token (``[web] token``): in an ``Authorization:
  Bearer`` header, or in the cookie the page gets after the PIN was entered
  (``POST /api/login``); compared in constant time.  Without it: 401; with no token configured
  the controls are off: 403.  Wrong PINs and tokens are counted per client address
  (`device.login_guard`): after a few the address is refused for a while (429, ``Retry-After``).
  A command is built and checked here and queued to the service's
  loop (`device.commands`), which applies it between frames; the answer is awaited here.
- reading a set-up position from the camera (``POST /api/read-position``): the service hands
  over its last frame and what it knows of the board's orientation; the frame is read as one
  photo on a worker thread (`device.setup_reading`), one reading at a time, and the position
  comes back for the arbiter to check, correct and play from (``/api/new-game`` with its FEN).
- PDN: ``/pdn/game/ID.pdn``, ``/pdn/current.pdn``, ``/pdn/day/YYYY-MM-DD.pdn``,
  ``/pdn/event/NAME.pdn`` (downloads) and
  ``/live.pdn`` (today's games, the current one as its moves come) for broadcast relays, with
  ``ETag`` and ``Last-Modified``: a poll of an unchanged text is answered 304, and the live text
  is only read from the store again after the game changed.
- the camera view (``/camera.jpg``, the arbiter's only: it shows the room): the last frame with
  the board's outline, grid and readings drawn (`device.camera_view`, its banner in the page's
  language, ``?lang=``), made at most once every `CAMERA_EVERY_S` (per language) however many
  ask (no video stream: the Pi's CPU belongs to vision); the service only hands over
  references, the drawing is done on a worker thread.
- static files (HTML, CSS, JS) from the package's ``static`` folder, read once at start: a
  name that is not one of those files is 404, so no other path can be reached.

An error answer is JSON: ``{"error", "code", "text": {"en", "nl"}}``, the English sentence
(``error``), its stable code (`device.phrases.ERRORS`; a command's `device.errors.Coded`) and
the sentence in each language, which the page shows in its own.

Every page and answer carries a content security policy allowing only this server's own
scripts and styles: names and tags are placed as text by the page, never as markup.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from abc import ABC, abstractmethod
import hashlib
import hmac
import json
import logging
import math
import re
import socket
import threading
import time
from concurrent.futures import Future
from email.utils import formatdate, parsedate_to_datetime
from importlib import resources
from typing import Any, Callable, TypeVar

from aiohttp import web

from device import commands, phrases
from device.commands import CommandError, Request
from device.config import WebConfig
from device.errors import Coded, Refused, StoreError, WebError
from device.login_guard import LoginGuard
from device.store import GameStore
from rules import svg
from rules.move import Move
from rules.position import Position

log = logging.getLogger(__name__)

#: The cookie holding the arbiter's token once the PIN was entered on the page.
COOKIE = "companion_token"
#: A comment line this often keeps an idle event stream open through proxies.
HEARTBEAT_S = 15.0
#: How long a page waits for the service to apply a command (a hang guard: it takes one frame).
COMMAND_TIMEOUT_S = 10.0
#: A page that loses its event stream connects again after this long (milliseconds).
RETRY_MS = 1000
#: The camera view's still is made at most this often; asked sooner, the last one is sent.
CAMERA_EVERY_S = 1.0
#: A wrong PIN is answered this late (a slower guess; the lock-out is `device.login_guard`'s).
WRONG_PIN_DELAY_S = 0.5
STATIC_TYPES = {".html": "text/html", ".css": "text/css", ".js": "text/javascript",
                ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                               "base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")

Submit = Callable[[Request], Future]
T = TypeVar("T")


def static_files() -> dict[str, tuple[bytes, str]]:
    """The package's static files by name: (content, content type)."""
    out = {}
    folder = resources.files("device").joinpath("static")
    for entry in folder.iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
        if entry.is_file() and suffix in STATIC_TYPES:
            out[entry.name] = (entry.read_bytes(), STATIC_TYPES[suffix])
    return out


def boards(state: dict) -> dict[str, str]:
    """The position of a snapshot drawn as White and as Black see it (`rules.svg`)."""
    position = Position.from_fen(state["fen"])
    last = state.get("last_move")
    move = None if last is None else Move(last["from"], last["to"], tuple(last["path"]),
                                          tuple(last["captured"]))
    return {side: svg.board(position, last_move=move, flipped=side == "black")
            for side in ("white", "black")}


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


@web.middleware
async def security_headers(request: web.Request, handler: Callable) -> web.StreamResponse:
    """Every answer, errors too, with `SECURITY_HEADERS`."""
    try:
        response = await handler(request)
    except web.HTTPException as e:
        response = e
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if isinstance(response, web.HTTPException):
        raise response
    return response


class Served(ABC):
    """An aiohttp application on ``config.bind``:``config.port``, on a thread of its own with its
    own asyncio loop (`start`, `close`).  A subclass gives its routes (`_routes`), may prepare
    its loop's objects (`_setup`) and end its streams (`_stopping`)."""

    #: What it is, in the log and in errors.
    what = "the club's screen"
    #: The setting that moves it to another port, in errors.
    port_setting = "[web] port"

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.port: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._stopped = threading.Event()

    @abstractmethod
    def _routes(self) -> list:
        """The application's routes (aiohttp route definitions)."""

    def _setup(self) -> None:
        """On the loop, before listening."""

    def _stopping(self) -> None:
        """On the loop, when it stops."""

    @property
    def url(self) -> str:
        host = self.config.bind
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    @property
    def address_for_others(self) -> str | None:
        """The page's address from other machines by this machine's name, when it listens on
        every interface (None otherwise)."""
        if self.config.bind not in ("0.0.0.0", "::", ""):
            return None
        return f"http://{socket.gethostname()}:{self.port}/"

    def start(self, timeout: float = 20.0) -> "Served":
        """Listen, on a thread of its own; raises `WebError` when the address cannot be used."""
        ready = threading.Event()
        failed: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop
            try:
                loop.run_until_complete(self._listen())
            except BaseException as e:  # the address is taken or not this machine's
                failed.append(e)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._shutdown())
                loop.close()
                self._stopped.set()

        self._thread = threading.Thread(target=run, name="web", daemon=True)
        self._thread.start()
        if not ready.wait(timeout):
            raise WebError(f"{self.what} did not start on {self.config.bind}:{self.config.port}")
        if failed:
            e = failed[0]
            if not isinstance(e, OSError):
                raise e
            why = e.strerror or str(e)
            raise WebError(f"cannot serve {self.what} on {self.config.bind}:{self.config.port}: "
                           f"{why}: set {self.port_setting} to a free port (or bind to this "
                           "machine's address), or [web] enabled = false")
        others = self.address_for_others
        log.info("%s is at %s%s", self.what, self.url,
                 f" (from other machines: {others})" if others else "")
        return self

    async def _listen(self) -> None:
        self._setup()
        app = web.Application(middlewares=[security_headers])
        app.add_routes(self._routes())
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.config.bind, self.config.port)
        try:
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            raise
        self.port = int(self._runner.addresses[0][1])

    async def _shutdown(self) -> None:
        self._stopping()
        if self._runner is not None:
            await self._runner.cleanup()

    def close(self, timeout: float = 10.0) -> None:
        """Stop serving (pages connected see their stream end and try again)."""
        loop = self._loop
        if loop is None or self._thread is None:
            return
        if loop.is_running():
            loop.call_soon_threadsafe(loop.stop)
        self._thread.join(timeout)
        self._loop = None


class WebServer(Served):
    """The club's screen on ``config.bind``:``config.port`` (see the module docstring).
    ``submit`` queues a command to the service (None: no service, controls answer 503)."""

    def __init__(self, config: WebConfig, store: GameStore, submit: Submit | None = None) -> None:
        super().__init__(config)
        self.store = store
        self.submit = submit
        self._static = static_files()
        # on the web's loop only:
        self._message: bytes | None = None   # the latest state, as one server-sent event
        self._state: dict | None = None       # the latest snapshot with its boards
        self._changed: asyncio.Event | None = None
        self._closing = False
        self._clients = 0
        self._live: tuple[tuple, str, str, float] | None = None  # (key, text, etag, modified)
        self._seen: dict[str, tuple[str, float]] = {}  # path -> (etag, first served)
        self.camera_every_s = CAMERA_EVERY_S
        self._camera: dict[str, tuple[float, bytes, int]] = {}  # language -> (made, JPEG, frame)
        self._camera_lock: asyncio.Lock | None = None
        self._reading_lock: asyncio.Lock | None = None
        #: Wrong PINs and tokens per client address (`device.login_guard`).
        self.guard = LoginGuard()

    def start(self, timeout: float = 20.0) -> "WebServer":
        super().start(timeout)
        return self

    def _setup(self) -> None:
        self._changed = asyncio.Event()
        self._camera_lock = asyncio.Lock()
        self._reading_lock = asyncio.Lock()

    def _routes(self) -> list:
        return [
            web.get("/", self._index),
            web.get("/static/{name}", self._static_file),
            web.get("/api/state", self._api_state),
            web.get("/api/events", self._events),
            web.get("/api/whoami", self._whoami),
            web.post("/api/login", self._login),
            web.post("/api/logout", self._logout),
            web.post("/api/tags", self._tags),
            web.post("/api/new-game", self._new_game),
            web.post("/api/take-back", self._take_back),
            web.post("/api/declare", self._declare),
            web.post("/api/adjourn", self._adjourn),
            web.post("/api/resume", self._resume),
            web.post("/api/turn", self._turn),
            web.post("/api/read-position", self._read_position),
            web.get("/api/adjourned", self._adjourned),
            web.get("/board.svg", self._board),
            web.get("/camera.jpg", self._camera_still),
            web.get("/live.pdn", self._live_pdn),
            web.get("/pdn/current.pdn", self._current_pdn),
            web.get(r"/pdn/game/{id:\d+}.pdn", self._game_pdn),
            web.get(r"/pdn/day/{day}.pdn", self._day_pdn),
            web.get(r"/pdn/event/{event:.+}.pdn", self._event_pdn),
        ]

    def _stopping(self) -> None:
        self._closing = True
        if self._changed is not None:
            self._changed.set()  # every event stream ends

    # -- live state (from the service's thread) ------------------------------------------------

    def publish(self, snapshot: dict) -> None:
        """Hand ``snapshot`` to the web's loop; never waits."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._publish, snapshot)
        except RuntimeError:  # the loop closed meanwhile
            pass

    def _publish(self, snapshot: dict) -> None:
        state = {"state": snapshot, "boards": boards(snapshot)}
        self._state = state
        data = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        self._message = f"id: {snapshot.get('version', 0)}\ndata: {data}\n\n".encode("utf-8")
        waiting, self._changed = self._changed, asyncio.Event()
        if waiting is not None:
            waiting.set()

    @property
    def clients(self) -> int:
        """Pages connected to the live state now."""
        return self._clients

    # -- handlers ------------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.Response:
        return self._file("index.html")

    async def _static_file(self, request: web.Request) -> web.Response:
        return self._file(request.match_info["name"])

    def _file(self, name: str) -> web.Response:
        found = self._static.get(name)
        if found is None:
            raise web.HTTPNotFound(text="no such file")
        body, kind = found
        return web.Response(body=body, content_type=kind, charset="utf-8" if kind.startswith("text") else None,
                            headers={"Cache-Control": "no-cache"})

    async def _api_state(self, request: web.Request) -> web.Response:
        if self._state is None:
            return web.json_response({"state": None, "boards": None},
                                     headers={"Cache-Control": "no-store"})
        return web.json_response(self._state, dumps=lambda o: json.dumps(o, ensure_ascii=False),
                                 headers={"Cache-Control": "no-store"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        self._clients += 1
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            sent: bytes | None = None
            while not self._closing:
                waiter = self._changed
                message = self._message
                if message is not None and message is not sent:
                    await response.write(message)
                    sent = message
                    continue  # another may have come while this one was written
                try:
                    await asyncio.wait_for(waiter.wait(), HEARTBEAT_S)
                except asyncio.TimeoutError:
                    await response.write(b": still here\n\n")
        except ConnectionError:  # the page went away
            pass
        finally:
            self._clients -= 1
        return response

    async def _board(self, request: web.Request) -> web.Response:
        if self._state is None:
            raise web.HTTPServiceUnavailable(text="no game yet")
        side = "black" if request.query.get("side") == "black" else "white"
        return web.Response(text=self._state["boards"][side], content_type="image/svg+xml",
                            headers={"Cache-Control": "no-store"})

    # -- the arbiter ---------------------------------------------------------------------------

    @staticmethod
    def _given(request: web.Request) -> str:
        """The token the request carries: its ``Authorization: Bearer`` header's, else its
        cookie's ("" for none)."""
        given = request.headers.get("Authorization", "")
        if given.startswith("Bearer "):
            return given[len("Bearer "):].strip()
        return request.cookies.get(COOKIE, "").strip()

    def authorised(self, request: web.Request) -> bool:
        """The request carries the configured token (header or cookie), compared in constant
        time; never with no token configured."""
        token = self.config.token
        if not token:
            return False
        return hmac.compare_digest(_digest(self._given(request)), _digest(token))

    def _checked(self, request: web.Request) -> web.Response | None:
        """The token the request carries checked against the lock-out (`device.login_guard`):
        None when it is the right one; 429 while its address is locked out (any token); 401
        otherwise, a wrong one counted."""
        address = request.remote or ""
        locked = self.guard.locked_for(address)
        if locked:
            return _locked_out(locked)
        if self.authorised(request):
            self.guard.right(address)
            return None
        if self._given(request):
            self.guard.wrong(address)
        return _error(401, "pin_needed")

    async def _whoami(self, request: web.Request) -> web.Response:
        arbiter = bool(self.config.token) and self._checked(request) is None
        response = web.json_response({"controls": bool(self.config.token), "arbiter": arbiter},
                                     headers={"Cache-Control": "no-store"})
        if not arbiter and request.cookies.get(COOKIE):
            response.del_cookie(COOKIE, path="/")  # a stale PIN's: counted once, then gone
        return response

    async def _login(self, request: web.Request) -> web.Response:
        if not self.config.token:
            return _error(403, "controls_off")
        body = await _json_body(request)
        address = request.remote or ""
        locked = self.guard.locked_for(address)
        if locked:
            return _locked_out(locked)
        pin = body.get("token")
        if not isinstance(pin, str) or not hmac.compare_digest(_digest(pin.strip()),
                                                               _digest(self.config.token)):
            self.guard.wrong(address)
            await asyncio.sleep(WRONG_PIN_DELAY_S)
            return _error(401, "wrong_pin")
        self.guard.right(address)
        response = web.json_response({"arbiter": True})
        response.set_cookie(COOKIE, self.config.token, httponly=True, samesite="Strict", path="/")
        return response

    async def _logout(self, request: web.Request) -> web.Response:
        response = web.json_response({"arbiter": False})
        response.del_cookie(COOKIE, path="/")
        return response

    def _refused(self, request: web.Request) -> web.Response | None:
        """The answer to an arbiter's request without the right to make it (None: it has it)."""
        if not self.config.token:
            return _error(403, "controls_off")
        return self._checked(request)

    async def _applied(self, command: Request) -> Any:
        """``command``'s answer once the service's loop has applied it; its `CommandError` as
        raised, and `asyncio.TimeoutError` (the command withdrawn) after `COMMAND_TIMEOUT_S`."""
        future = self.submit(command)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), COMMAND_TIMEOUT_S)
        except asyncio.TimeoutError:
            future.cancel()
            raise

    async def _control(self, request: web.Request, build: Callable[[dict], Request]) -> web.Response:
        refused = self._refused(request)
        if refused is not None:
            return refused
        body = await _json_body(request)
        try:
            command = build(body)
        except CommandError as e:
            return _refusal(400, e)
        if self.submit is None:
            return _error(503, "no_service")
        try:
            answer = await self._applied(command)
        except CommandError as e:
            return _refusal(409, e)
        except asyncio.TimeoutError:
            return _error(503, "not_applied_in_time")
        except Exception:  # the service logged it; the game goes on
            return _error(500, "command_failed", command=command.name)
        log.info("the arbiter's command from the page: %s", command.name)
        return web.json_response({"ok": True, "answer": answer},
                                 dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def _tags(self, request: web.Request) -> web.Response:
        return await self._control(request, lambda body: commands.tags(body.get("tags")))

    async def _new_game(self, request: web.Request) -> web.Response:
        return await self._control(request, lambda body: commands.new_game(body.get("fen")))

    async def _take_back(self, request: web.Request) -> web.Response:
        return await self._control(request, lambda body: commands.take_back())

    async def _declare(self, request: web.Request) -> web.Response:
        return await self._control(request, lambda body: commands.declare(body.get("result"),
                                                                          body.get("reason")))

    async def _camera_still(self, request: web.Request) -> web.Response:
        """The camera view (`device.camera_view`), its banner in ``?lang=`` (en, nl)."""
        refused = self._refused(request)
        if refused is not None:
            return refused
        if self.submit is None:
            return _error(503, "no_service_to_ask")
        language = request.query.get("lang", "en")
        if language not in ("en", "nl"):
            language = "en"
        async with self._camera_lock:
            now = time.monotonic()
            made = self._camera.get(language)
            if made is None or now - made[0] >= self.camera_every_s:
                try:
                    got = await self._applied(commands.camera_still())
                except CommandError as e:
                    return _refusal(404, e)
                except asyncio.TimeoutError:
                    return _error(503, "not_answered_in_time")
                from device import camera_view

                def make() -> bytes:
                    return camera_view.jpeg(camera_view.draw(
                        got["image"], got["location"], got["orientation"], got["board"], got["warning"],
                        language))

                data = await asyncio.get_running_loop().run_in_executor(None, make)
                self._camera[language] = (time.monotonic(), data, int(got["index"]))
        _, data, index = self._camera[language]
        return web.Response(body=data, content_type="image/jpeg",
                            headers={"Cache-Control": "no-store", "X-Frame-Index": str(index)})

    async def _read_position(self, request: web.Request) -> web.Response:
        """The position on the camera's last frame (`device.setup_reading`), for the arbiter to
        check and play from; ``{"turn": "white" | "black"}`` names the side to move."""
        refused = self._refused(request)
        if refused is not None:
            return refused
        body = await _json_body(request)
        turn = body.get("turn", "white")
        if turn not in ("white", "black"):
            return _error(400, "not_a_side", turn=turn)
        if self.submit is None:
            return _error(503, "no_service_to_ask")
        async with self._reading_lock:  # one at a time: the Pi's CPU belongs to vision
            try:
                got = await self._applied(commands.read_position())
            except CommandError as e:
                return _refusal(404, e)
            except asyncio.TimeoutError:
                return _error(503, "not_answered_in_time")
            from device.setup_reading import read_position

            def read() -> dict:
                return read_position(got["image"], calibrated=got["calibrated"],
                                     configured=got["configured"],
                                     white_is_lighter=got["white_is_lighter"],
                                     turn=turn).as_json()

            try:
                answer = await asyncio.get_running_loop().run_in_executor(None, read)
            except Refused as e:  # no board found, or no position the rules allow
                return _refusal(422, e)
            except Exception:
                log.exception("reading the position from frame %s failed", got["index"])
                return _error(500, "reading_failed")
        log.info("a set-up position read from frame %s for the page", got["index"])
        return web.json_response({"ok": True, "answer": {**answer, "frame": int(got["index"])}},
                                 dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def _adjourn(self, request: web.Request) -> web.Response:
        return await self._control(request, lambda body: commands.adjourn())

    async def _turn(self, request: web.Request) -> web.Response:
        return await self._control(request, lambda body: commands.turn())

    async def _resume(self, request: web.Request) -> web.Response:
        return await self._control(request, lambda body: commands.resume(body.get("game")))

    async def _adjourned(self, request: web.Request) -> web.Response:
        """The adjourned games, to resume: [{"id", "white", "black", "moves"}], newest first."""
        def read() -> list[dict]:
            return [{"id": g.id, "white": g.tags.get("White", "?"), "black": g.tags.get("Black", "?"),
                     "moves": len(self.store.moves(g.id))}
                    for g in reversed(self.store.games())
                    if commands.is_adjourned(g)]
        return web.json_response(await self._read(read), dumps=lambda o: json.dumps(o, ensure_ascii=False),
                                 headers={"Cache-Control": "no-store"})

    # -- PDN -----------------------------------------------------------------------------------

    async def _read(self, read: Callable[[], T]) -> T:
        """The store read on a worker thread (the web's loop never waits on SQLite)."""
        try:
            return await asyncio.get_running_loop().run_in_executor(None, read)
        except StoreError as e:
            raise web.HTTPNotFound(text=str(e)) from None

    def _pdn(self, request: web.Request, text: str, name: str,
             etag: str | None = None, modified: float | None = None) -> web.Response:
        """``text`` as PDN with its validators; 304 when the caller has it already."""
        if etag is None:
            etag = pdn_etag(text)
        if modified is None:
            seen = self._seen.get(request.path)
            if seen is None or seen[0] != etag:
                seen = (etag, time.time())
                self._seen[request.path] = seen
            modified = seen[1]
        return pdn_response(request, text, name, etag, modified)

    async def _live_pdn(self, request: web.Request) -> web.Response:
        """Today's games; read from the store again only when the game changed."""
        today = dt.date.today()
        version = None if self._state is None else self._state["state"].get("version")
        key = (today, version)
        if self._live is None or self._live[0] != key:
            text = await self._read(lambda: self.store.export_pdn_day(today))
            etag = pdn_etag(text)
            modified = self._live[3] if self._live is not None and self._live[2] == etag else time.time()
            self._live = (key, text, etag, modified)
        _, text, etag, modified = self._live
        return self._pdn(request, text, f"{today.isoformat()}.pdn", etag, modified)

    async def _current_pdn(self, request: web.Request) -> web.Response:
        if self._state is None:
            raise web.HTTPNotFound(text="no game yet")
        game_id = self._state["state"]["game"]["id"]
        text = await self._read(lambda: self.store.export_pdn(game_id))
        return self._pdn(request, text, f"game-{game_id}.pdn")

    async def _game_pdn(self, request: web.Request) -> web.Response:
        game_id = int(request.match_info["id"])
        text = await self._read(lambda: self.store.export_pdn(game_id))
        return self._pdn(request, text, f"game-{game_id}.pdn")

    async def _day_pdn(self, request: web.Request) -> web.Response:
        day = request.match_info["day"]
        if not _DAY.match(day):
            raise web.HTTPNotFound(text="write the day as YYYY-MM-DD")
        try:
            date = dt.date.fromisoformat(day)
        except ValueError:
            raise web.HTTPNotFound(text="no such day") from None
        text = await self._read(lambda: self.store.export_pdn_day(date))
        return self._pdn(request, text, f"{day}.pdn")


    async def _event_pdn(self, request: web.Request) -> web.Response:
        event = request.match_info["event"]
        text = await self._read(lambda: self.store.export_pdn_event(event))
        if not text:
            raise web.HTTPNotFound(text="no game of that event")
        return self._pdn(request, text, "event.pdn")


def pdn_etag(text: str) -> str:
    return '"' + hashlib.sha256(text.encode("utf-8")).hexdigest()[:20] + '"'


def pdn_response(request: web.Request, text: str, name: str, etag: str, modified: float) -> web.Response:
    """``text`` as PDN with its validators (``ETag``, ``Last-Modified``): 304 when the caller
    has it already; a download (``?download=1``) is named ``name``."""
    headers = {"ETag": etag, "Last-Modified": formatdate(modified, usegmt=True),
               "Cache-Control": "no-cache"}
    if request.query.get("download"):
        headers["Content-Disposition"] = f'attachment; filename="{name}"'
    if _not_modified(request, etag, modified):
        return web.Response(status=304, headers=headers)
    return web.Response(text=text, content_type="application/x-draughts-pdn", charset="utf-8",
                        headers=headers)


def _error(status: int, code: str, **values: Any) -> web.Response:
    """An error answer: its English sentence, its ``code`` and the sentence in every language
    (`device.phrases.error_json`), for the page to say in its own."""
    return web.json_response(phrases.error_json(code, values), status=status,
                             dumps=lambda o: json.dumps(o, ensure_ascii=False))


def _refusal(status: int, error: Coded) -> web.Response:
    return _error(status, error.code, **error.values)


def _locked_out(seconds: float) -> web.Response:
    wait = max(1, math.ceil(seconds))
    response = _error(429, "locked_out", wait=wait)
    response.headers["Retry-After"] = str(wait)
    return response


async def _json_body(request: web.Request) -> dict:
    """The request's JSON object (commands are sent as ``application/json``: a form posted from
    another site cannot send that without the browser asking first)."""
    if request.content_type != "application/json":
        raise _failed(web.HTTPUnsupportedMediaType, "not_json")
    try:
        body = await request.json()
    except ValueError:
        raise _failed(web.HTTPBadRequest, "body_not_json") from None
    if not isinstance(body, dict):
        raise _failed(web.HTTPBadRequest, "body_not_object")
    return body


def _failed(kind: type[web.HTTPException], code: str) -> web.HTTPException:
    """An error answer (as `_error`'s) to raise."""
    return kind(text=json.dumps(phrases.error_json(code, {}), ensure_ascii=False),
                content_type="application/json")


def _not_modified(request: web.Request, etag: str, modified: float) -> bool:
    match = request.headers.get("If-None-Match")
    if match is not None:
        return any(tag.strip() in (etag, "*", "W/" + etag) for tag in match.split(","))
    since = request.headers.get("If-Modified-Since")
    if since:
        try:
            return parsedate_to_datetime(since).timestamp() >= int(modified)
        except (TypeError, ValueError):
            return False
    return False


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free now on ``host`` (for tests and benches that restart a server on it)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]
