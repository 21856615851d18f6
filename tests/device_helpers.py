"""Helpers for the device tests: the hardware marker's skip, and small waiting loops."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import pytest


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def hardware(test: Callable) -> Callable:
    """Mark a test as needing a real Raspberry Pi: it is skipped anywhere else."""
    test = pytest.mark.hardware(test)
    return pytest.mark.skipif(not on_raspberry_pi(), reason="needs a real Raspberry Pi")(test)


def wait_for(condition: Callable[[], bool], timeout: float = 20.0, step: float = 0.01) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` passes (a guard, never a measurement)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(step)
    return condition()


def watch(tmp_path: Path, frames: list, **kw) -> tuple:
    """A `device.service.Companion` with a store in ``tmp_path`` (orientation "auto" unless
    ``corner_46`` is given) fed every rendered frame (`renderer.sequence.GameFrame`) in turn:
    (the companion, the events)."""
    from device.service import Companion
    from device.sources import Frame
    from device.store import GameStore

    c = Companion(source=None, store=GameStore(tmp_path / "games.sqlite3"), tags={"Event": "t"},
                  still_s=0.3, **kw)
    c.open_game()
    events: list = []
    for f in frames:
        events.extend(c.process(Frame(f.image, f.time, f.index)))
    return c, events
