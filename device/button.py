"""The optional move-complete button (or the chess clock's contact), with gpiozero.

A short press marks the move on the board as complete (Art. 23: the move is complete when the
player has let go of the piece and pressed the clock), so the position is read at once instead of
waiting for the board to be still.  A long press (``long_press_seconds``) takes back the last
recorded move.  The button is wired from its pin to ground (the internal pull-up is used).

Callbacks run on gpiozero's own thread: keep them short (put something on a queue).
gpiozero is imported only here.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from gpiozero import Button
from gpiozero.exc import GPIOZeroError

from device.errors import GPIOError

log = logging.getLogger(__name__)


class MoveButton:
    """Short press -> ``move_complete()``; held ``long_press_seconds`` -> ``take_back()`` (once,
    and the release after it is not a short press)."""

    def __init__(self, pin: int, *, move_complete: Callable[[], None], take_back: Callable[[], None],
                 long_press_seconds: float = 2.0, bounce_seconds: float | None = 0.03,
                 pin_factory: Any = None) -> None:
        self.pin = pin
        self._move_complete = move_complete
        self._take_back = take_back
        self._lock = threading.Lock()
        self._held = False
        try:
            self._button = Button(pin, pull_up=True, bounce_time=bounce_seconds, hold_time=long_press_seconds,
                                  hold_repeat=False, pin_factory=pin_factory)
        except GPIOZeroError as e:
            raise GPIOError(f"cannot use GPIO {pin} for the button: {e}: on a Raspberry Pi run as a member of "
                            "the gpio group, or set pins.button = 0 for no button") from None
        self._button.when_pressed = self._pressed
        self._button.when_held = self._long_press
        self._button.when_released = self._released

    @property
    def is_pressed(self) -> bool:
        return bool(self._button.is_pressed)

    @property
    def pin_device(self) -> Any:
        """gpiozero's pin under the button (a mock pin can be driven low and high by tests)."""
        return self._button.pin

    @property
    def closed(self) -> bool:
        return bool(self._button.closed)

    def _pressed(self) -> None:
        with self._lock:
            self._held = False

    def _long_press(self) -> None:
        with self._lock:
            self._held = True
        log.info("button held: take back the last move")
        self._call(self._take_back, "take back")

    def _released(self) -> None:
        with self._lock:
            held, self._held = self._held, False
        if not held:
            log.debug("button pressed: the move is complete")
            self._call(self._move_complete, "move complete")

    @staticmethod
    def _call(callback: Callable[[], None], what: str) -> None:
        try:
            callback()
        except Exception:  # a sink's bug must not kill gpiozero's thread
            log.exception("the %s callback failed", what)

    def close(self) -> None:
        self._button.close()

    def __enter__(self) -> "MoveButton":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
