from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

DATA = Path(__file__).parent / "data"

#: Debian bookworm's OpenCV, the Raspberry Pi's (`make test` runs the suite on it in .venv-pi).
OPENCV_46 = cv2.__version__.startswith("4.6.")


def differs_on_opencv_46(request, why: str) -> None:
    """Mark the running test as failing on OpenCV 4.6, strictly (it must fail there: once vision
    handles 4.6 as it handles later versions, the mark has to go).  For the few rendered boards
    that OpenCV 4.6's chessboard detector seeds differently, found when the suite first ran on
    the Pi's stack (issue 19); ``why`` says what differs."""
    if OPENCV_46:
        request.node.add_marker(pytest.mark.xfail(strict=True, reason=f"OpenCV 4.6: {why}"))


@pytest.fixture(scope="session")
def fixtures() -> dict:
    return json.loads((DATA / "fixtures.json").read_text())


@pytest.fixture(scope="session")
def perft_table() -> dict:
    return json.loads((DATA / "perft.json").read_text())


@pytest.fixture
def drawn_every_time(monkeypatch):
    """For tests of what the renderer draws: frame sequences are drawn, never replayed from a
    recording (`renderer.recording`; `make test` turns recordings on for the rest)."""
    from renderer import recording

    monkeypatch.delenv(recording.ENV, raising=False)


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



# -- the order of the tests, and which run together, under pytest-xdist (`make test`: -n 2) -----

#: Tests that take seconds each, begun first, heaviest first: a long test begun last keeps the
#: other worker idle to the end.  Prefixes of node ids; the rest follow in their files' order.
#: Only the order changes, never what a test does.
SLOW_FIRST = (
    "tests/test_arbiter_games.py::test_every_injected_irregularity_is_caught_with_its_article",
    "tests/test_rules_captures.py::test_capture_routes_by_pieces_taken_agree_with_the_route_search",
    "tests/test_altrender.py",
    "tests/test_service_quick_play.py",
    "tests/test_service_setup_position.py",
    "tests/test_service.py",
    "tests/test_hub.py",
    "tests/test_vision_learning.py",
    "tests/test_rules_captures.py",
    "tests/test_cli_arbiter.py",
    "tests/test_vision_motion.py",
    "tests/test_device_web.py",
    "tests/test_service_orientation.py",
    "tests/test_vision_known_board.py",
    "tests/test_render_recording.py",
    "tests/test_device_store.py",
    "tests/test_vision_kings.py",
    "tests/test_read_kings.py",
    "tests/test_render.py",
)

#: Test files whose module-scoped fixture takes seconds to build (a rendered game run through
#: the pipeline, the real photos read, a browser started): each runs on one worker, so that the
#: fixture is built once, not once per worker.
WHOLE_FILES = ("tests/test_vision_rendered.py", "tests/test_vision_markers.py",
               "tests/test_vision_real.py", "tests/test_web_browser.py")


def pytest_collection_modifyitems(config, items):
    """The slow tests first (`SLOW_FIRST`), in the order xdist hands tests out."""

    def rank(item) -> int:
        return next((i for i, prefix in enumerate(SLOW_FIRST) if item.nodeid.startswith(prefix)),
                    len(SLOW_FIRST))

    items.sort(key=rank)


@pytest.hookimpl(optionalhook=True)  # (xdist's hook: none without xdist, -p no:xdist)
def pytest_xdist_make_scheduler(config, log):
    """xdist's load balancing, test by test, but for the files of `WHOLE_FILES`, each handed
    out whole (xdist's ``--dist loadgroup`` marks do not reach its scheduler under pytest 9).
    The files go first (largest first), then every other test in the order above."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::")[0]
            return module if module in WHOLE_FILES else nodeid

    return Scheduling(config, log)
