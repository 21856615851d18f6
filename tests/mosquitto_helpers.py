"""A real mosquitto for the tests (`device.local_broker`): started on a free local port with a
generated configuration, password file (``mosquitto_passwd``) and ACL: board N may write only
its own topics and read the pairings, the hub reads the event and writes only the pairings
(`device.topics`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from device.local_broker import LocalBroker, mosquitto

needs_mosquitto = pytest.mark.skipif(mosquitto() is None or shutil.which("mosquitto_passwd") is None,
                                     reason="needs mosquitto (apt-get install mosquitto)")
HUB_USER, HUB_PASSWORD = "hub", "hub-secret"


def board_user(board: int) -> tuple[str, str]:
    return f"board{board}", f"pw-board-{board}"


def acl(event: str, boards: range) -> str:
    lines = []
    for b in boards:
        lines += [f"user {board_user(b)[0]}", f"topic write frisian/{event}/{b}/#",
                  f"topic read frisian/{event}/pairings", ""]
    lines += [f"user {HUB_USER}", f"topic read frisian/{event}/#",
              f"topic write frisian/{event}/pairings", ""]
    return "\n".join(lines)


class Mosquitto(LocalBroker):
    """The event's broker with an account for the hub and for each of ``boards``."""

    def __init__(self, folder: Path, event: str = "test", boards: range = range(1, 4)) -> None:
        users = dict([(HUB_USER, HUB_PASSWORD)] + [board_user(b) for b in boards])
        super().__init__(folder, users=users, acl=acl(event, boards))
