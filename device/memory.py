"""The process's memory: how the C allocator treats a camera's frames.

A frame of 1280x960 is 3.7 MB, and the service allocates and frees several each second (decoded
on the capture thread, averaged and read on the main one).  glibc's allocator gives blocks over
its ``mmap`` threshold straight back to the system when they are freed, but by default it raises
that threshold to the size of the last such block freed: after the first frame is let go, every
later frame comes from the heap, whose free space the system seldom gets back, and each thread's
heap (arena) keeps its own.  Measured with ``python -m bench.service`` (pip's OpenCV,
2026-11-30, 600 frames of a recording): a peak of 163-166 MB resident, 155 MB at the end; with
these settings 149-151 MB and 117 MB (``--camera``: 143-147 MB).

`release_frames` holds the threshold at 2 MB (a frame is above it, a cell's mask below), gives
free heap beyond 4 MB back, and caps the arenas at two.  The price is CPU: memory given back is
zeroed again when it is taken again, and the loop's vision took 51-53 ms a frame here against
38-43 ms with glibc's defaults (the same bench, three runs each).  A heap trimmed only beyond
16 or 64 MB costs about nothing but peaks at 156-157 MB.  It only tunes glibc (Raspberry Pi OS,
Debian); elsewhere it does nothing.
"""

from __future__ import annotations

import ctypes
import logging

log = logging.getLogger(__name__)

# glibc's mallopt(3) parameters
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8

MMAP_THRESHOLD = 2 * 1024 * 1024  # a 1280x960 frame (3.7 MB) is above; a 1-channel mask (1.2 MB) below
TRIM_THRESHOLD = 4 * 1024 * 1024  # free heap top given back beyond this
ARENA_MAX = 2  # the main loop's and the capture thread's

_done: bool | None = None


def release_frames() -> bool:
    """Tell glibc to give frames back to the system when they are freed (see the module
    docstring).  True when it took the settings; False where the C library is not glibc.
    Done once per process; later calls return the first answer."""
    global _done
    if _done is not None:
        return _done
    _done = False
    try:
        # the process's own symbols, the C library's among them (`ctypes.util.find_library`
        # would run ``ldconfig -p``: a child process for a name already loaded)
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        log.debug("no glibc mallopt here: the allocator keeps its defaults")
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    _done = all(mallopt(param, value) == 1 for param, value in (
        (_M_MMAP_THRESHOLD, MMAP_THRESHOLD), (_M_TRIM_THRESHOLD, TRIM_THRESHOLD),
        (_M_ARENA_MAX, ARENA_MAX)))
    return _done
