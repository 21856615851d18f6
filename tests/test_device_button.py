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


def test_the_configured_button_is_wired_to_the_service(tmp_path):
    """Issue 19, item 7: pins.button and pins.long_press_seconds are used: the service built from
    the configuration has the move-complete button (Art. 23), a short press marks the move
    complete and a long press takes the last move back."""
    from device.app import Options, build
    from device.config import load_config

    config_file = tmp_path / "config.toml"
    config_file.write_text(f"[pins]\nbutton = {PIN}\nlong_press_seconds = 0.3\n[speech]\nenabled = false\n"
                           "[web]\nenabled = false\n")
    companion = build(load_config(str(config_file)),
                      Options(source="render", database=str(tmp_path / "g.sqlite3"), mock_pins=True))
    try:
        assert companion.button is not None and companion.button.pin == PIN
        pin = companion.button.pin_device
        pin.drive_low()
        pin.drive_high()
        assert wait_for(lambda: not companion.commands.empty())
        assert companion.commands.get_nowait() == "complete"
        pin.drive_low()
        assert wait_for(lambda: not companion.commands.empty())
        pin.drive_high()
        assert companion.commands.get_nowait() == "take_back"
    finally:
        companion.close()
    assert companion.button.closed
