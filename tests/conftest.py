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
