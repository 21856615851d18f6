"""The hub's pages: the round at a glance, each board, the round's PDN and the standings.

`HubWebServer` (a `device.web.Served`: aiohttp on its own thread and loop) shows the hub's
`device.hub.Round`; it decides nothing and changes nothing.

- ``/``: every board at a glance (names, position drawn by `rules.svg`, last move, counters,
  status, an open irregularity, the board online or not); a board opens ``/board/N``.  An open
  irregularity is said in the hub's language (``language``, the configuration's speech
  language) as the club's screen says it (`device.live`: the rules' sentence in English, its
  article once).
- ``/board/N``: one board: its position, its moves, its PDN, a link to the companion's own page.
- ``/api/events`` (server-sent events): one ``board`` event per board changed, its card as
  escaped HTML with the plies and moves (``?board=N``: that board's only); a page connecting gets
  every board at once.  Changes are gathered for `FLUSH_S`, then each board changed is drawn
  once, however many pages watch.
- ``/round.pdn``: the round's games (the pairings' round; every game without pairings), board by
  board, for broadcast relays with ``ETag`` and ``Last-Modified`` as a board's ``/live.pdn``;
  ``?download=1`` to save it; ``/board/N.pdn`` one board's.
- ``/standings`` and ``/api/standings``: two points a win, one a draw (`device.standings`);
  ``/api/round``: the cards as JSON.

Names and tags are escaped (`html.escape`) wherever they are placed: the content security
policy allows this server's own script and style only (`device.web.SECURITY_HEADERS`).
"""

from __future__ import annotations

import asyncio
import html
import json
import time
from typing import Any

from aiohttp import web

from device.config import WebConfig
from device.hub import Hub
from device.web import HEARTBEAT_S, RETRY_MS, Served, pdn_etag, pdn_response, static_files
from rules import svg
from rules.move import Move
from rules.position import Position

#: Boards changed within this long (seconds) are drawn and sent together.
FLUSH_S = 0.05
STATUS_TEXT = {"waiting": "waiting for the start", "calibrating": "finding the board",
               "playing": "playing", "looking-again": "looking again", "irregular": "irregularity",
               "lost": "lost track", "over": "game over", "unknown": "no news"}


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def position_svg(card: dict) -> str:
    if not card.get("fen"):
        return '<div class="no-board">no position yet</div>'
    last = card.get("last_move")
    move = None if not last else Move(last["from"], last["to"], tuple(last["path"]), tuple(last["captured"]))
    return svg.board(Position.from_fen(card["fen"]), last_move=move)


def counters_text(counters: dict | None) -> str:
    if not counters:
        return ""
    parts = []
    for side in ("white", "black"):
        k = counters.get(side)
        if k:
            parts.append(f"{side[0].upper()}: K{k['square']} {k['count']}/3" + (" blocked" if k.get("blocked") else ""))
    if counters.get("seven_move_side"):
        parts.append(f"seven-move rule: {counters['seven_move_left']} left")
    return ", ".join(parts)


def pending_text(pending: dict, language: str = "en") -> str:
    """An open irregularity as `device.live` says it in ``language`` (its article once); a
    board that sent no text per language: the rules' sentence (English, its article at the
    end)."""
    said = pending.get("text") or {}
    return said.get(language) or said.get("en") or pending.get("summary") or ""


def card_html(card: dict, language: str = "en") -> str:
    """A board's card on the round's page (every text escaped), an open irregularity said in
    ``language``."""
    status = card.get("status") or "unknown"
    plies = card.get("plies", 0)
    last = card.get("last")
    moved = f"{(plies + 1) // 2}{'.' if plies % 2 else '...'} {_e(last)}" if last else "no move yet"
    pending = card.get("pending")
    result = card.get("result") or "*"
    return "".join([
        f'<a class="card-link" href="/board/{card["board"]}">',
        f'<h2><span class="board-no">{card["board"]}</span> {_e(card["white"])} '
        f'<span class="dash">–</span> {_e(card["black"])}</h2>',
        f'<div class="position">{position_svg(card)}</div></a>',
        f'<p class="last">{moved} <span class="plies">({plies} plies)</span></p>',
        f'<p class="status" data-status="{_e(status)}">{_e(STATUS_TEXT.get(status, status))}'
        + (f' <span class="result">{_e(result)}</span>' if result != "*" else "")
        + ('' if card.get("online") else ' <span class="offline">offline</span>') + '</p>',
        f'<p class="counters">{_e(counters_text(card.get("counters")))}</p>',
        (f'<p class="pending" lang="{_e(language)}">{_e(pending_text(pending, language))}</p>'
         if pending else ""),
    ])


def _page(title: str, body: str, script: bool = True) -> str:
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_e(title)}</title><link rel=\"stylesheet\" href=\"/static/hub.css\">"
            + ('<script src="/static/hub.js" defer></script>' if script else "")
            + f"</head><body>{body}</body></html>")


class HubWebServer(Served):
    what = "the hub's round page"
    port_setting = "hub --port"

    def __init__(self, config: WebConfig, hub: Hub, language: str = "en") -> None:
        super().__init__(config)
        self.hub = hub
        self.language = language
        self._static = {k: v for k, v in static_files().items() if k.startswith("hub.")}
        # on the web's loop only:
        self._messages: dict[int, tuple[int, bytes]] = {}  # board -> (version, SSE message)
        self._version = 0
        self._dirty: set[int] = set()
        self._flush_due = False
        self._changed: asyncio.Event | None = None
        self._closing = False
        self._pdn: tuple[int, str, str, float] | None = None  # (round version, text, etag, modified)

    def start(self, timeout: float = 20.0) -> "HubWebServer":
        super().start(timeout)
        self.hub.listeners.append(self.boards_changed)
        self.boards_changed(set(self._read(lambda: self.hub.round.boards())))
        return self

    def _setup(self) -> None:
        self._changed = asyncio.Event()

    def _stopping(self) -> None:
        self._closing = True
        if self._changed is not None:
            self._changed.set()

    def _routes(self) -> list:
        return [
            web.get("/", self._index),
            web.get(r"/board/{board:\d+}", self._board_page),
            web.get(r"/board/{board:\d+}.pdn", self._board_pdn),
            web.get("/standings", self._standings_page),
            web.get("/round.pdn", self._round_pdn),
            web.get("/api/round", self._api_round),
            web.get("/api/standings", self._api_standings),
            web.get("/api/events", self._events),
            web.get("/static/{name}", self._static_file),
            web.get("/favicon.ico", self._no_icon),
        ]

    def _read(self, read):
        with self.hub.lock:
            return read()

    # -- changes (from the hub's thread)

    def boards_changed(self, boards: set[int]) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._mark, set(boards))
        except RuntimeError:
            pass

    def _mark(self, boards: set[int]) -> None:
        self._dirty |= boards
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_later(FLUSH_S, self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        boards, self._dirty = self._dirty, set()
        cards = self._read(lambda: [self.hub.round.card(b) for b in sorted(boards)])
        for card in cards:
            self._version += 1
            data = {"board": card["board"], "game": card["game"], "plies": card["plies"],
                    "moves": card["moves"], "sent": card["sent"], "html": card_html(card, self.language)}
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            self._messages[card["board"]] = (self._version, f"event: board\ndata: {text}\n\n".encode())
        waiting, self._changed = self._changed, asyncio.Event()
        waiting.set()

    # -- pages

    def _header(self, title: str) -> str:
        round_ = self.hub.round_name
        return (f'<header><h1>{_e(title)}</h1><p>{_e(self.hub.event)}'
                + (f" · round {_e(round_)}" if round_ else "") + '</p><nav>'
                '<a href="/">Round</a> <a href="/standings">Standings</a> '
                '<a href="/round.pdn?download=1">Round PDN</a> '
                '<span id="connection" class="offline">connecting…</span></nav></header>')

    async def _index(self, request: web.Request) -> web.Response:
        cards = self._read(lambda: [self.hub.round.card(b) for b in self.hub.round.boards()])
        items = "".join(f'<article class="card" id="board-{c["board"]}">{card_html(c, self.language)}</article>'
                        for c in cards)
        body = self._header("The round") + f'<main id="round" class="round">{items}</main>'
        return web.Response(text=_page("The round", body), content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _board_page(self, request: web.Request) -> web.Response:
        board = int(request.match_info["board"])
        card = self._read(lambda: self.hub.round.card(board))
        moves = "".join(f"<li>{_e(m)}</li>" for m in card["moves"])
        own = (f'<p><a href="{_e(card["page"])}">The board\'s own page</a></p>'
               if card.get("page") else "")
        body = (self._header(f"Board {board}") +
                f'<main class="one-board" data-board="{board}">'
                f'<article class="card big" id="board-{board}">{card_html(card, self.language)}</article>'
                f'<section><h2>Moves</h2><ol id="moves">{moves}</ol>'
                f'<p><a href="/board/{board}.pdn?download=1">PDN of this board</a></p>{own}</section></main>')
        return web.Response(text=_page(f"Board {board}", body), content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _standings_page(self, request: web.Request) -> web.Response:
        rows = self._read(lambda: self.hub.round.standings())
        table = "".join(f"<tr><td>{i}</td><td>{_e(s.player)}</td><td>{s.games}</td><td>{s.won}</td>"
                        f"<td>{s.drawn}</td><td>{s.lost}</td><td>{s.points}</td></tr>"
                        for i, s in enumerate(rows, 1))
        body = (self._header("Standings") + '<main><table class="standings"><thead><tr><th>#</th>'
                "<th>Player</th><th>Games</th><th>Won</th><th>Drawn</th><th>Lost</th><th>Points</th>"
                f"</tr></thead><tbody>{table}</tbody></table>"
                "<p>Two points a win, one a draw; finished games only.</p></main>")
        return web.Response(text=_page("Standings", body, script=False), content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _static_file(self, request: web.Request) -> web.Response:
        found = self._static.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound(text="no such file")
        body, kind = found
        return web.Response(body=body, content_type=kind, charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    # -- data

    async def _api_round(self, request: web.Request) -> web.Response:
        def read() -> dict:
            r = self.hub.round
            return {"event": self.hub.event, "round": self.hub.round_name, "connected": self.hub.connected,
                    "boards": [r.card(b) for b in r.boards()]}
        return web.json_response(self._read(read), dumps=lambda o: json.dumps(o, ensure_ascii=False),
                                 headers={"Cache-Control": "no-store"})

    async def _api_standings(self, request: web.Request) -> web.Response:
        rows = self._read(lambda: self.hub.round.standings())
        return web.json_response([{"player": s.player, "games": s.games, "won": s.won, "drawn": s.drawn,
                                   "lost": s.lost, "points": s.points} for s in rows],
                                 dumps=lambda o: json.dumps(o, ensure_ascii=False),
                                 headers={"Cache-Control": "no-store"})

    async def _round_pdn(self, request: web.Request) -> web.Response:
        version = self._read(lambda: self.hub.round.version)
        if self._pdn is None or self._pdn[0] != version:
            text = await asyncio.get_running_loop().run_in_executor(
                None, lambda: self._read(lambda: self.hub.round.pdn(self.hub.round_name)))
            etag = pdn_etag(text)
            modified = self._pdn[3] if self._pdn is not None and self._pdn[2] == etag else time.time()
            self._pdn = (version, text, etag, modified)
        _, text, etag, modified = self._pdn
        name = f"round-{self.hub.round_name}.pdn" if self.hub.round_name else f"{self.hub.event}.pdn"
        return pdn_response(request, text, name, etag, modified)

    async def _board_pdn(self, request: web.Request) -> web.Response:
        board = int(request.match_info["board"])
        from device import game_log

        text = self._read(lambda: "\n".join(game_log.pdn(g.view) for g in
                                            self.hub.round.board_games(board, self.hub.round_name)))
        return pdn_response(request, text, f"board-{board}.pdn", pdn_etag(text), time.time())

    async def _events(self, request: web.Request) -> web.StreamResponse:
        only = request.query.get("board")
        only_board = int(only) if only and only.isdigit() else None
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        await response.prepare(request)
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            sent: dict[int, int] = {}
            while not self._closing:
                waiter = self._changed
                out = []
                for board, (version, message) in list(self._messages.items()):
                    if (only_board is None or board == only_board) and sent.get(board) != version:
                        sent[board] = version
                        out.append(message)
                if out:
                    await response.write(b"".join(out))
                    continue
                try:
                    await asyncio.wait_for(waiter.wait(), HEARTBEAT_S)
                except asyncio.TimeoutError:
                    await response.write(b": still here\n\n")
        except ConnectionError:
            pass
        return response
