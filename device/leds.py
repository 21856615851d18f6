"""The king-counter LEDs, with gpiozero: one class per physical thing, and a panel of them.

- `CounterLEDs`: three LEDs for one side's three-move counter (Art. 17): 0-3 lit, all three
  blinking when that side's king is blocked (`KingCounter.blocked`: three simple moves in a row,
  it may only capture now).
- `SevenMoveBar`: seven LEDs counting down the moves left under the seven-move rule (Art. 18);
  all off when the rule is not running.
- `CounterPanel`: both counters and the bar, driven by the arbiter's `CountersChanged` events,
  with a one-line text rendering for the terminal (``W ●●○   B ○○○   7: ●●●●●○○``).

The pins are BCM numbers from the configuration.  ``pin_factory`` is passed through to gpiozero
(its `MockFactory` in tests and in the demo on a machine without GPIO); None uses gpiozero's
default (``GPIOZERO_PIN_FACTORY``, else lgpio on a Pi).  gpiozero is imported only here.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from gpiozero import LEDBarGraph, LEDBoard
from gpiozero.exc import GPIOZeroError

from device.config import PinsConfig
from device.errors import GPIOError
from rules.events import CountersChanged, Event, GameOver
from rules.piece import KingCounter

log = logging.getLogger(__name__)

LIT, DARK, BLINKING = "●", "○", "!"
#: How long a blocked counter's LEDs stay on and off, in seconds.
BLINK_SECONDS = 0.4


def _gpio(what: str, pins: Sequence[int], build: Any) -> Any:
    try:
        return build()
    except GPIOZeroError as e:
        raise GPIOError(
            f"cannot drive the {what} on GPIO {', '.join(map(str, pins))}: {e}: on a Raspberry Pi run as a "
            "member of the gpio group; elsewhere set GPIOZERO_PIN_FACTORY=mock") from None


class CounterLEDs:
    """Three LEDs showing one side's three-move counter: ``count`` lit, blinking when blocked."""

    def __init__(self, pins: Sequence[int], *, active_high: bool = True, blink_seconds: float = BLINK_SECONDS,
                 pin_factory: Any = None, name: str = "counter") -> None:
        if len(pins) != 3:
            raise ValueError(f"a three-move counter has 3 LEDs, not {len(pins)}")
        self.name = name
        self.pins = tuple(pins)
        self.blink_seconds = blink_seconds
        self._leds = _gpio(f"{name} LEDs", pins, lambda: LEDBoard(*pins, active_high=active_high,
                                                                  pin_factory=pin_factory))
        self._count = 0
        self._blocked = False

    @property
    def count(self) -> int:
        return self._count

    @property
    def blocked(self) -> bool:
        return self._blocked

    def show(self, counter: KingCounter | None) -> None:
        """Light ``counter.count`` LEDs (none for None); blink all three when it is blocked."""
        count = 0 if counter is None else max(0, min(3, counter.count))
        blocked = counter is not None and counter.blocked
        if (count, blocked) == (self._count, self._blocked):
            return  # a blink in progress is not restarted
        self._count, self._blocked = count, blocked
        if blocked:
            self._leds.blink(on_time=self.blink_seconds, off_time=self.blink_seconds, background=True)
        else:
            self._leds.value = tuple(i < count for i in range(3))

    def off(self) -> None:
        self._count, self._blocked = 0, False
        self._leds.off()

    def text(self) -> str:
        lit = LIT * self._count + DARK * (3 - self._count)
        return lit + (BLINKING if self._blocked else " ")

    def close(self) -> None:
        self._leds.close()


class SevenMoveBar:
    """Seven LEDs showing how many moves the seven-move rule still allows; all off when it does
    not run."""

    def __init__(self, pins: Sequence[int], *, active_high: bool = True, pin_factory: Any = None) -> None:
        if len(pins) != 7:
            raise ValueError(f"the seven-move bar has 7 LEDs, not {len(pins)}")
        self.pins = tuple(pins)
        self._bar = _gpio("seven-move LEDs", pins, lambda: LEDBarGraph(*pins, active_high=active_high,
                                                                      pin_factory=pin_factory))
        self._left: int | None = None

    @property
    def left(self) -> int | None:
        return self._left

    def show(self, left: int | None) -> None:
        """Light ``left`` LEDs (0-7) from the first; None: the rule is not running, all off."""
        self._left = None if left is None else max(0, min(7, left))
        self._bar.lit_count = 0 if self._left is None else self._left

    def off(self) -> None:
        self.show(None)

    def text(self) -> str:
        if self._left is None:
            return "-" * 7
        return LIT * self._left + DARK * (7 - self._left)

    def close(self) -> None:
        self._bar.close()


class CounterPanel:
    """White's and Black's counters and the seven-move bar, driven by the arbiter's events."""

    def __init__(self, white: CounterLEDs, black: CounterLEDs, bar: SevenMoveBar,
                 pin_factory: Any = None) -> None:
        self.white = white
        self.black = black
        self.bar = bar
        #: The gpiozero pin factory the LEDs are on (None: gpiozero's default), for the button.
        self.pin_factory = pin_factory

    @classmethod
    def from_config(cls, pins: PinsConfig, pin_factory: Any = None) -> "CounterPanel":
        """The panel on the configured pins.  Raises GPIOError (one line) when they cannot be had."""
        made: list[Any] = []
        try:
            made.append(CounterLEDs(pins.white_counter, active_high=pins.active_high,
                                    pin_factory=pin_factory, name="white counter"))
            made.append(CounterLEDs(pins.black_counter, active_high=pins.active_high,
                                    pin_factory=pin_factory, name="black counter"))
            made.append(SevenMoveBar(pins.seven_move_bar, active_high=pins.active_high, pin_factory=pin_factory))
        except BaseException:
            for part in made:
                part.close()
            raise
        return cls(*made, pin_factory=pin_factory)

    def show(self, event: CountersChanged) -> None:
        self.white.show(event.white)
        self.black.show(event.black)
        self.bar.show(event.seven_move_left)

    def on_event(self, event: Event) -> None:
        """A sink: counters follow `CountersChanged`; other events leave the LEDs as they are."""
        if isinstance(event, CountersChanged):
            self.show(event)
        elif isinstance(event, GameOver):
            log.debug("game over: the counters keep showing the last position")

    def reset(self) -> None:
        """All off (a new game)."""
        self.white.off()
        self.black.off()
        self.bar.off()

    def text(self) -> str:
        """``W ●●○   B ●●●!  7: ●●●●●○○`` (``!``: blinking, the king is blocked; ``-------``: the
        seven-move rule is not running)."""
        return f"W {self.white.text()}  B {self.black.text()}  7: {self.bar.text()}"

    def close(self) -> None:
        for part in (self.white, self.black, self.bar):
            part.close()

    def __enter__(self) -> "CounterPanel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
