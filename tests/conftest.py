from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def fixtures() -> dict:
    return json.loads((DATA / "fixtures.json").read_text())


@pytest.fixture(scope="session")
def perft_table() -> dict:
    return json.loads((DATA / "perft.json").read_text())


@pytest.fixture
def factory():
    """gpiozero's mock pin factory as every device's, for one test (then the previous one)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = previous
