"""A game as a log of numbered events: what a board publishes and what the hub replays.

The board's store is the source of truth.  `of_store` reads one game of it as a `GameView`
(its header, moves, comments and end); `diff(published, now)` gives the events that bring a view
of what was published up to ``now``; `apply(view, event)` replays one event.  So the board never
has to catch every change as it happens: whatever the store holds that was not published yet
(after a restart, a take-back, a broker away for an hour) is found by comparing, and the hub,
which replays the same events in the same order, ends with the same game, and with
`scoresheet(view)` the same PDN (`device.store.scoresheet_of`, the one PDN writer).

Events are ``(kind, payload)`` with a JSON-able payload:

- ``game``: ``{"tags", "start_fen", "started"}``, the game's header (first, and again when its
  tags change);
- ``move``: ``{"ply", "number", "color", "text", "fen", "time", "irregular"}``;
- ``takeback``: ``{"ply"}``, the moves after ``ply`` are gone (a take-back, or a move replaced);
- ``comments``: ``{"comments": [[ply, text], ...]}``, the scoresheet's comments, all of them;
- ``end``: ``{"result", "termination", "finished", "status"}`` (``status`` in-progress again:
  an adjourned game resumed);
- ``irregularity``: ``{"pending": {"article", "summary"} | None}``, an irregularity open on the
  board now (None: resolved);
- ``removed``: ``{}``, a game in which nothing was recorded was removed from the store.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from device.store import GameStore, StoredComment, StoredGame, StoredMove, scoresheet_of
from rules.piece import Color
from rules.scoresheet import Scoresheet

Event = tuple[str, dict[str, Any]]
KINDS = ("game", "move", "takeback", "comments", "end", "irregularity", "removed")


@dataclass(frozen=True)
class GameView:
    """One game as the events so far tell it (empty: nothing published yet)."""

    header: dict[str, Any] | None = None
    moves: tuple[dict[str, Any], ...] = ()
    comments: tuple[tuple[int, str], ...] = ()
    end: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    removed: bool = False

    @property
    def result(self) -> str:
        return "*" if self.end is None else self.end["result"]

    @property
    def finished(self) -> bool:
        return self.end is not None and self.end.get("status") == "finished"


def _move(m: StoredMove) -> dict[str, Any]:
    return {"ply": m.ply, "number": m.number, "color": m.color.value, "text": m.text, "fen": m.fen,
            "time": m.time, "irregular": m.irregular}


def of_store(store: GameStore, game_id: int) -> GameView:
    """Game ``game_id`` of ``store`` as a view (``removed`` when the store has it no more)."""
    if not store.has_game(game_id):
        return GameView(removed=True)
    g = store.game(game_id)
    end = None
    if g.status != "in-progress" or g.result != "*" or g.termination is not None:
        end = {"result": g.result, "termination": g.termination, "finished": g.finished,
               "status": g.status}
    return GameView(header={"tags": dict(g.tags), "start_fen": g.start_fen, "started": g.started},
                    moves=tuple(_move(m) for m in store.moves(game_id)),
                    comments=tuple((c.ply, c.text) for c in store.comments(game_id)), end=end)


def diff(published: GameView, now: GameView) -> list[Event]:
    """The events that bring ``published`` to ``now`` (none when they are equal)."""
    if now.removed:
        return [] if published.removed or published.header is None else [("removed", {})]
    out: list[Event] = []
    if published.header != now.header:
        out.append(("game", dict(now.header)))
    same = 0
    for old, new in zip(published.moves, now.moves):
        if old != new:
            break
        same += 1
    if same < len(published.moves):
        out.append(("takeback", {"ply": same}))
    out.extend(("move", dict(m)) for m in now.moves[same:])
    if published.comments != now.comments:
        out.append(("comments", {"comments": [list(c) for c in now.comments]}))
    if published.end != now.end:
        out.append(("end", dict(now.end) if now.end is not None else
                    {"result": "*", "termination": None, "finished": None, "status": "in-progress"}))
    if published.pending != now.pending:
        out.append(("irregularity", {"pending": now.pending}))
    return out


def apply(view: GameView, kind: str, payload: dict[str, Any]) -> GameView:
    """``view`` after one event (an unknown kind changes nothing: a newer board's event)."""
    if kind == "game":
        return replace(view, header={"tags": dict(payload.get("tags") or {}),
                                     "start_fen": payload.get("start_fen"),
                                     "started": payload.get("started")}, removed=False)
    if kind == "move":
        ply = int(payload["ply"])
        kept = tuple(m for m in view.moves if m["ply"] < ply)
        return replace(view, moves=kept + (dict(payload),))
    if kind == "takeback":
        return replace(view, moves=tuple(m for m in view.moves if m["ply"] <= int(payload["ply"])))
    if kind == "comments":
        return replace(view, comments=tuple((int(p), str(t)) for p, t in payload.get("comments", ())))
    if kind == "end":
        end = dict(payload)
        if end.get("status") == "in-progress" and end.get("result") == "*" \
                and end.get("termination") is None:
            end = None
        return replace(view, end=end)
    if kind == "irregularity":
        return replace(view, pending=payload.get("pending"))
    if kind == "removed":
        return GameView(removed=True)
    return view


def scoresheet(view: GameView) -> Scoresheet:
    """The view's scoresheet, written as the board's store writes its own."""
    header = view.header or {"tags": {}, "start_fen": None, "started": 0.0}
    end = view.end or {}
    game = StoredGame(0, dict(header["tags"]), header.get("start_fen"), float(header.get("started") or 0.0),
                      end.get("finished"), end.get("result", "*"), end.get("termination"),
                      end.get("status", "in-progress"))
    moves = [StoredMove(int(m["ply"]), int(m["number"]), Color(m["color"]), m["text"], m["fen"],
                        m.get("time"), m.get("irregular")) for m in view.moves]
    comments = [StoredComment(p, t) for p, t in view.comments]
    return scoresheet_of(game, moves, comments)


def pdn(view: GameView) -> str:
    return scoresheet(view).pdn()
