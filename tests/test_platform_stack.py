"""Which OpenCV and numpy the suite runs on: `make test` runs it twice, on pip's current ones
(.venv) and on the Raspberry Pi's (.venv-pi: Debian bookworm's python3-opencv 4.6 and
python3-numpy 1.24, as scripts/install-pi.sh installs them), and says which through
``FRISIAN_TEST_STACK`` (``pip`` or ``pi``).  Without it (pytest run by hand) there is nothing to
check."""

from __future__ import annotations

import os

import cv2
import numpy
import pytest

DEBIAN = "/usr/lib/python3/dist-packages/"
STACK = os.environ.get("FRISIAN_TEST_STACK")


@pytest.mark.skipif(STACK != "pi", reason="not the Raspberry Pi stack's run (FRISIAN_TEST_STACK=pi)")
def test_the_pi_stack_is_debian_bookworms_opencv_and_numpy():
    assert cv2.__version__.startswith("4.6."), cv2.__version__
    assert numpy.__version__.startswith("1.24."), numpy.__version__
    assert cv2.__file__.startswith(DEBIAN) and numpy.__file__.startswith(DEBIAN), (cv2.__file__, numpy.__file__)


@pytest.mark.skipif(STACK != "pip", reason="not the pip stack's run (FRISIAN_TEST_STACK=pip)")
def test_the_pip_stack_is_not_debians():
    assert not cv2.__file__.startswith(DEBIAN) and not numpy.__file__.startswith(DEBIAN)
    assert int(numpy.__version__.split(".")[0]) >= 2, numpy.__version__


def test_the_stack_is_one_the_make_target_knows():
    assert STACK in (None, "pip", "pi"), f"FRISIAN_TEST_STACK={STACK!r}: pip or pi"


@pytest.mark.skipif(STACK is None, reason="pytest run by hand (FRISIAN_TEST_STACK unset)")
def test_paho_mqtt_is_the_stacks_own():
    """The Pi's venv uses Debian's python3-paho-mqtt 1.6 (the old callbacks), pip's venv PyPI's
    2.x: the hub's tests run on both (`device.mqtt`)."""
    import paho.mqtt

    if STACK == "pi":
        assert paho.mqtt.__version__.startswith("1.6.") and paho.mqtt.__file__.startswith(DEBIAN)
    else:
        assert int(paho.mqtt.__version__.split(".")[0]) >= 2, paho.mqtt.__version__
