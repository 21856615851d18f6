"""The pages of the libraries the process loaded but does not run: given back to the system.

Debian's OpenCV (Raspberry Pi OS bookworm's ``python3-opencv``, the Pi's stack) is one module
linked against about 200 libraries: GDAL and its drivers, VTK, Qt, Tesseract, Poppler, FFmpeg
and more.  Loading them (relocations, symbol look-ups, their constructors) and OpenCV's first
image decode (which registers GDAL's drivers) touch about 110 MB of their files, and every page
touched counts in the process's resident memory although the companion never calls that code
again.  Measured with ``python -m bench.service`` on that stack (2026-12-01, 300 frames): 231
MB resident at the peak, 112 MB of it file pages; pip's OpenCV, one library, 41 MB of them.

`release_library_pages` tells the kernel (``madvise(MADV_DONTNEED)``) that the process no
longer needs the resident pages of its read-only file mappings: the libraries' code and
constants.  Such a page is a copy of its file, held in the page cache: when it is run again the
kernel maps it back from there (a minor fault, microseconds), so nothing is lost and what stays
resident is the code the loop runs.  Pages a mapping has written (relocated data, a library's
variables: anonymous or dirty) are never touched, nor any writable mapping: dropping those would
lose what was written.  Libraries are never unloaded, so the address ranges read from
``/proc/self/smaps`` still hold them when they are released.  Linux only; elsewhere it releases
nothing.
"""

from __future__ import annotations

import ctypes
import logging
import re
import sys
from dataclasses import dataclass

log = logging.getLogger(__name__)

_MADV_DONTNEED = 4
_NOT_FILES = ("/dev/", "/memfd:", "/SYSV")
_RANGE = re.compile(r"^([0-9a-f]+)-([0-9a-f]+)\s")


@dataclass(frozen=True)
class Mapping:
    """One mapping of ``/proc/self/smaps``: its address range, permissions, the file it maps
    (empty for anonymous memory) and its sizes in kB (``Rss``, ``Anonymous``, ...)."""

    start: int
    end: int
    perms: str
    path: str
    kb: dict[str, int]

    @property
    def releasable(self) -> bool:
        """A read-only mapping of a file whose resident pages are all clean copies of it.  Not a
        device's or a memory file's (``/dev/``, ``/memfd:``: a camera's buffers are no copy of
        anything on disk)."""
        return (self.path.startswith("/") and not self.path.startswith(_NOT_FILES)
                and "w" not in self.perms
                and self.kb.get("Rss", 0) > 0 and self.kb.get("Anonymous", 0) == 0
                and self.kb.get("Private_Dirty", 0) == 0 and self.kb.get("Shared_Dirty", 0) == 0)


def mappings(smaps: str = "/proc/self/smaps") -> list[Mapping]:
    """The process's mappings, read from ``smaps``."""
    out: list[Mapping] = []
    head: tuple[int, int, str, str] | None = None
    kb: dict[str, int] = {}
    with open(smaps, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _RANGE.match(line)
            if m:
                if head is not None:
                    out.append(Mapping(*head, kb))
                parts = line.split(maxsplit=5)
                path = parts[5].strip() if len(parts) > 5 else ""
                head, kb = (int(m.group(1), 16), int(m.group(2), 16), parts[1], path), {}
                continue
            key, _, rest = line.partition(":")
            value = rest.split()
            if len(value) == 2 and value[1] == "kB" and value[0].isdigit():
                kb[key] = int(value[0])
    if head is not None:
        out.append(Mapping(*head, kb))
    return out


def _madvise():
    libc = ctypes.CDLL(None, use_errno=True)
    madvise = libc.madvise
    madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    madvise.restype = ctypes.c_int
    return madvise


def release_library_pages() -> int:
    """Give back the resident pages of the process's read-only file mappings (see the module
    docstring); the kB released (0 where this is not Linux or cannot be done)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        found = mappings()
        madvise = _madvise()
    except (OSError, AttributeError) as e:
        log.debug("library pages not released: %s", e)
        return 0
    released = 0
    for m in found:
        if m.releasable and madvise(m.start, m.end - m.start, _MADV_DONTNEED) == 0:
            released += m.kb["Rss"]
    log.debug("released %.1f MB of library pages", released / 1024)
    return released
