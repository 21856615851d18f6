"""The move-complete button on gpiozero's mock pins: short press, long press, bounce, errors."""

from __future__ import annotations

import time

import pytest

from device.button import MoveButton
from device.errors import GPIOError
from tests.device_helpers import wait_for

PIN = 26


def make(calls: list[str], hold: float = 0.15) -> MoveButton:
    return MoveButton(PIN, move_complete=lambda: calls.append("complete"), take_back=lambda: calls.append("back"),
                      long_press_seconds=hold, bounce_seconds=None)


def test_short_press_marks_the_move_complete(factory):
    calls: list[str] = []
    with make(calls) as button:
        pin = factory.pin(PIN)
        assert not button.is_pressed
        pin.drive_low()
        assert button.is_pressed
        pin.drive_high()
        assert wait_for(lambda: calls == ["complete"])
        pin.drive_low()
        pin.drive_high()
        assert wait_for(lambda: calls == ["complete", "complete"])


def test_long_press_takes_back_once_and_is_no_short_press(factory):
    calls: list[str] = []
    with make(calls, hold=0.1):
        pin = factory.pin(PIN)
        pin.drive_low()
        assert wait_for(lambda: calls == ["back"])
        time.sleep(0.25)  # held well past the hold time: still only one take-back
        pin.drive_high()
        time.sleep(0.05)
        assert calls == ["back"]
        pin.drive_low()
        pin.drive_high()
        assert wait_for(lambda: calls == ["back", "complete"])


def test_a_failing_callback_does_not_stop_the_button(factory):
    calls: list[str] = []

    def broken() -> None:
        calls.append("broken")
        raise RuntimeError("sink bug")

    with MoveButton(PIN, move_complete=broken, take_back=lambda: None, bounce_seconds=None):
        pin = factory.pin(PIN)
        for _ in range(2):
            pin.drive_low()
            pin.drive_high()
        assert wait_for(lambda: calls == ["broken", "broken"])


def test_pin_in_use_is_one_clear_line(factory):
    calls: list[str] = []
    with make(calls):
        with pytest.raises(GPIOError, match=r"cannot use GPIO 26 for the button: .*pins.button = 0"):
            make(calls)
