"""Stopping the service cleanly on SIGTERM (systemd's stop) or SIGINT (Ctrl-C).

Its own small module, importing nothing heavy, so that the command line can install the handlers
first thing, before the camera, OpenCV and the rest are loaded: a stop asked for while the
service is still starting is then a clean stop too, not a death by the signal.
"""

from __future__ import annotations

import logging
import signal
import threading
from contextlib import contextmanager
from typing import Iterator

log = logging.getLogger(__name__)


@contextmanager
def stop_on_signals() -> Iterator[threading.Event]:
    """An event that SIGTERM or SIGINT sets (a clean stop) while in the block; the handlers from
    before are put back after it.  `run` and `demo` enter it first thing."""
    stop = threading.Event()

    def on_signal(signum, _frame) -> None:
        log.info("stopping (%s)", signal.Signals(signum).name)
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield stop
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
