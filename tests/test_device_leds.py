"""The counter LEDs on gpiozero's mock pins: what the arbiter's counters light and blink."""

from __future__ import annotations

import pytest

from device.config import PinsConfig
from device.errors import GPIOError
from device.leds import CounterLEDs, CounterPanel, SevenMoveBar
from rules.events import CountersChanged, GameOver, MovePlayed
from rules.piece import Color, KingCounter
from tests.device_helpers import wait_for

PINS = PinsConfig()


def states(factory, pins) -> tuple[bool, ...]:
    return tuple(bool(factory.pin(p).state) for p in pins)


def counters(white=None, black=None, seven=None, side=None) -> CountersChanged:
    return CountersChanged(ply=10, time=None, white=white, black=black, seven_move=seven, seven_move_side=side)


def test_counter_lights_count_leds(factory):
    leds = CounterLEDs(PINS.white_counter)
    for n in range(3):
        leds.show(KingCounter(square=28, count=n))
        assert states(factory, PINS.white_counter) == tuple(i < n for i in range(3))
    leds.show(None)
    assert states(factory, PINS.white_counter) == (False, False, False)


def test_blocked_counter_blinks_all_three(factory):
    leds = CounterLEDs(PINS.black_counter, blink_seconds=0.02)
    for p in PINS.black_counter:
        factory.pin(p).clear_states()
    leds.show(KingCounter(square=5, count=3))
    assert leds.blocked
    for p in PINS.black_counter:
        pin = factory.pin(p)
        assert wait_for(lambda: len(pin.states) >= 5), "the LED does not toggle"
        pin.assert_states([False, True, False, True, False])
    # showing the same blocked counter again does not restart the blink; a new count stops it
    leds.show(KingCounter(square=5, count=3))
    leds.show(KingCounter(square=14, count=1))
    assert states(factory, PINS.black_counter) == (True, False, False)
    settled = [len(factory.pin(p).states) for p in PINS.black_counter]
    assert not wait_for(lambda: [len(factory.pin(p).states) for p in PINS.black_counter] != settled, timeout=0.2)


def test_seven_move_bar_counts_down_and_goes_dark(factory):
    bar = SevenMoveBar(PINS.seven_move_bar)
    for left in range(7, -1, -1):
        bar.show(left)
        assert states(factory, PINS.seven_move_bar) == tuple(i < left for i in range(7))
    bar.show(None)
    assert states(factory, PINS.seven_move_bar) == (False,) * 7
    assert bar.text() == "-------"


def test_active_low_wiring_inverts_pins(factory):
    leds = CounterLEDs(PINS.white_counter, active_high=False)
    leds.show(KingCounter(square=28, count=1))
    assert states(factory, PINS.white_counter) == (False, True, True)


def test_panel_follows_counter_events_and_renders_text(factory):
    with CounterPanel.from_config(PINS) as panel:
        assert panel.text() == "W ○○○   B ○○○   7: -------"
        panel.on_event(counters(white=KingCounter(28, 2), seven=2, side=Color.WHITE))
        assert states(factory, PINS.white_counter) == (True, True, False)
        assert states(factory, PINS.black_counter) == (False, False, False)
        assert states(factory, PINS.seven_move_bar) == (True,) * 5 + (False,) * 2
        assert panel.text() == "W ●●○   B ○○○   7: ●●●●●○○"
        panel.on_event(counters(black=KingCounter(3, 3)))
        assert panel.text() == "W ○○○   B ●●●!  7: -------"
        # events that are not counters leave the LEDs alone
        panel.on_event(MovePlayed(ply=11, time=None, color=Color.WHITE, number=6, text="32-28", fen="W:W28:B3"))
        panel.on_event(GameOver(ply=11, time=None, result="0-1", reason="no legal move", article="Art. 20f", winner=Color.BLACK))
        assert panel.black.blocked
        panel.reset()
        assert panel.text() == "W ○○○   B ○○○   7: -------"
        assert not any(states(factory, PINS.black_counter))


def test_pin_in_use_is_one_clear_line(factory):
    first = CounterLEDs(PINS.white_counter)
    with pytest.raises(GPIOError) as info:
        CounterPanel.from_config(PINS)
    assert "white counter LEDs on GPIO 5, 6, 13" in str(info.value) and "\n" not in str(info.value)
    first.close()
    # the panel released the pins it had taken before failing: it can be built now
    CounterPanel.from_config(PINS).close()
