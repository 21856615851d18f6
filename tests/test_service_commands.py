"""The service's command hook (`device.commands`): a command is applied on the service's loop,
its events recorded before it is answered, also while no frame comes (a camera lost, or none
yet) and before the board is found; the live state follows (`device.live`)."""

from __future__ import annotations

import json
import threading

import pytest

from device import commands
from device.live import LiveState
from device.service import Companion
from device.store import GameStore
from tests.device_helpers import wait_for


class Silent:
    """A camera that delivers no frame until released (lost, or not there yet)."""

    name = "a silent camera"
    live = True

    def __init__(self) -> None:
        self.release = threading.Event()

    def open(self) -> None:
        pass

    def read(self):
        self.release.wait()
        return None  # then the recording ends

    def close(self) -> None:
        self.release.set()


@pytest.fixture
def waiting(tmp_path):
    """A companion running with no frame at all, its live state published to a list."""
    source = Silent()
    store = GameStore(tmp_path / "games.sqlite3")
    c = Companion(source=source, store=store, tags={"Event": "t", "White": "?"}, still_s=0.3)
    live = LiveState("nl")
    published: list[dict] = []
    live.subscribers.append(published.append)
    c.sinks.append(live)
    c.watchers.append(live.refresh)
    stop = threading.Event()
    thread = threading.Thread(target=c.run, args=(stop,), daemon=True)
    thread.start()
    assert wait_for(lambda: bool(published))
    yield c, published
    stop.set()
    source.release.set()
    thread.join(30)
    store.close()


def test_commands_are_applied_while_no_frame_comes(waiting):
    c, published = waiting
    assert published[-1]["status"] == "waiting" and published[-1]["language"] == "nl"
    answer = commands.submit(c, commands.tags({"White": "Alice", "Round": "2"})).result(timeout=30)
    assert answer == {"game": c.game_id, "tags": {"Event": "t", "White": "Alice", "Round": "2"}}
    assert c.store.game(c.game_id).tags["White"] == "Alice"
    assert wait_for(lambda: published[-1]["game"]["tags"].get("White") == "Alice")
    first = c.game_id
    answer = commands.submit(c, commands.declare("1-0", "time")).result(timeout=30)
    assert answer["result"] == "1-0" and not c.store.game(first).in_progress  # recorded first
    assert wait_for(lambda: published[-1]["status"] == "over")
    said = published[-1]["announcements"][-1]
    assert said["event"] == "GameOver" and said["text"]["nl"] == "Einde partij. Wit wint: tijd."
    assert said["text"]["en"] == "Game over. White wins: time."
    json.dumps(published[-1])  # one JSON value, for the page and the hub alike
    with pytest.raises(commands.CommandError, match="already over"):
        commands.submit(c, commands.declare("0-1", "resignation")).result(timeout=30)
    with pytest.raises(commands.CommandError, match="game is over"):
        commands.submit(c, commands.take_back()).result(timeout=30)
    new = commands.submit(c, commands.new_game()).result(timeout=30)
    assert new != first and c.store.game(new).tags["Round"] == "2"  # Round lasts, names do not
    assert c.store.game(new).tags["White"] == "?"
    assert wait_for(lambda: published[-1]["game"]["id"] == new and published[-1]["announcements"] == [])


def test_a_new_game_with_no_move_yet_keeps_its_number(waiting):
    c, _ = waiting
    first = c.game_id
    assert commands.submit(c, commands.new_game("W:W28,K35:B12,19")).result(timeout=30) == first
    assert c.store.game(first).start_fen == "W:W28,K35:B12,19" and c.store.game(first).in_progress
    with pytest.raises(commands.CommandError, match="no move to take back"):
        commands.submit(c, commands.take_back()).result(timeout=30)


@pytest.mark.parametrize("build, says", [
    (lambda: commands.tags({}), "at least one tag"),
    (lambda: commands.tags({"white": "x"}), "not a tag name"),
    (lambda: commands.tags({"FEN": "W:W28:B12"}), "written by the game"),
    (lambda: commands.tags({"White": "x" * 201}), "longer than 200"),
    (lambda: commands.declare("1-0", "draw agreed"), "a draw agreed is 1/2-1/2"),
    (lambda: commands.declare("*", "time"), "not a result"),
    (lambda: commands.new_game("W:W28"), "pieces of one side only"),
    (lambda: commands.new_game("W:W99"), "is not a position"),
])
def test_a_wrong_command_is_refused_before_it_is_queued(build, says):
    with pytest.raises(commands.CommandError, match=says):
        build()
