"""The live view in a terminal: each move and announcement as it happens, the LED states, and a
progress line (for `make demo` and for watching `frisian-companion run` by hand).

Events go to ``out`` (standard output) one line each; the progress line goes to ``err`` (standard
error), rewritten in place on a terminal and printed every few seconds otherwise.
"""

from __future__ import annotations

import time
from typing import Callable, TextIO

from rules.events import (CountersChanged, Event, GameOver, LookAgain, MovePlayed, MoveTakenBack,
                          ScoresheetComment)


class TerminalView:
    """A sink printing events, with the LED panel's text after counter changes."""

    def __init__(self, out: TextIO, err: TextIO, leds: Callable[[], str] | None = None,
                 every_s: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.out = out
        self.err = err
        self.leds = leds
        self.every_s = every_s
        self.clock = clock
        self._tty = hasattr(err, "isatty") and err.isatty()
        self._last_progress = -1e9
        self._progress_shown = False
        self._last_leds = ""

    def on_event(self, event: Event, said: list[str] | None = None) -> None:
        if isinstance(event, ScoresheetComment):
            return  # the announcement itself was printed
        if isinstance(event, CountersChanged):
            text = self.leds() if self.leds else str(event)
            if text != self._last_leds:
                self._last_leds = text
                self._line(f"      LEDs  {text}")
            return
        if isinstance(event, MovePlayed):
            self._line(f"{event}")
        elif isinstance(event, (GameOver, MoveTakenBack, LookAgain)):
            self._line(f"  -- {event}")
        else:
            self._line(f"  !! {event}")
        for sentence in said or ():
            self._line(f'     says: "{sentence}"')

    def note(self, text: str) -> None:
        self._line(text)

    def progress(self, text: str, force: bool = False) -> None:
        now = self.clock()
        if self._tty:
            if force or now - self._last_progress >= 0.25:
                self.err.write("\r\x1b[K" + text)
                self.err.flush()
                self._progress_shown = True
                self._last_progress = now
        elif force or now - self._last_progress >= self.every_s:
            self.err.write(text + "\n")
            self.err.flush()
            self._last_progress = now

    def _line(self, text: str) -> None:
        if self._tty and self._progress_shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self._progress_shown = False
        self.out.write(text + "\n")
        self.out.flush()

    def close(self) -> None:
        if self._tty and self._progress_shown:
            self.err.write("\n")
            self.err.flush()
