"""The MQTT topic layout of an event: every board's game and the hub's pairings.

Everything of one event lies under ``frisian/<event>/``; ``<event>`` is the configuration's
``[broker] event`` (letters, digits, ``-`` and ``_``), ``<board>`` the board's number::

    frisian/<event>/<board>/state                   retained, QoS 1: the board now (JSON: its
                                                    game's key and tags, position, counters,
                                                    status, open irregularity, PDN so far, and
                                                    ``seq``, the game's last event number)
    frisian/<event>/<board>/online                  retained: "1" while connected, "0" (its
                                                    will: the broker says it when the board is
                                                    gone without a goodbye)
    frisian/<event>/<board>/events/<game>/<seq>     retained, QoS 1: event ``seq`` (1, 2, ...)
                                                    of game ``<game>`` (`device.game_log`)
    frisian/<event>/pairings                        retained, written by the hub: the round's
                                                    pairings (`device.pairings`)

``<game>`` is ``<store id>-<game number>`` (`device.store.GameStore.store_id`): a board given
a new store never reuses the keys of the old one.  Each event is retained under its own topic,
so the broker keeps every board's log: a hub that starts late, or again, gets all of it on
subscribing and keeps each (board, game, seq) once.

Rights (the broker's ACL, see README "Many boards"): board N writes ``frisian/<event>/N/#``
only and reads ``frisian/<event>/pairings``; the hub reads ``frisian/<event>/#`` and writes
``frisian/<event>/pairings`` only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROOT = "frisian"
EVENT_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_BOARD = 999


def board_root(event: str, board: int) -> str:
    return f"{ROOT}/{event}/{board}"


def state(event: str, board: int) -> str:
    return f"{board_root(event, board)}/state"


def online(event: str, board: int) -> str:
    return f"{board_root(event, board)}/online"


def game_key(store_id: str, game_id: int) -> str:
    return f"{store_id}-{game_id}"


def event(event_name: str, board: int, game: str, seq: int) -> str:
    return f"{board_root(event_name, board)}/events/{game}/{seq}"


def pairings(event_name: str) -> str:
    return f"{ROOT}/{event_name}/pairings"


def hub_subscriptions(event_name: str) -> list[str]:
    """What the hub subscribes to: every board's state, presence and events."""
    base = f"{ROOT}/{event_name}/+"
    return [f"{base}/state", f"{base}/online", f"{base}/events/#"]


@dataclass(frozen=True, slots=True)
class Topic:
    """A board's topic taken apart: ``kind`` is state, online or event."""

    board: int
    kind: str
    game: str | None = None
    seq: int | None = None


def parse(event_name: str, topic: str) -> Topic | None:
    """A board's topic of ``event_name`` taken apart; None for anything else."""
    parts = topic.split("/")
    if len(parts) < 4 or parts[0] != ROOT or parts[1] != event_name or not parts[2].isdigit():
        return None
    board = int(parts[2])
    if len(parts) == 4 and parts[3] in ("state", "online"):
        return Topic(board, parts[3])
    if len(parts) == 6 and parts[3] == "events" and parts[5].isdigit():
        return Topic(board, "event", parts[4], int(parts[5]))
    return None
