"""The pages of the libraries the process loaded but does not run: given back to the system.

Debian's OpenCV (Raspberry Pi OS bookworm's ``python3-opencv``, the Pi's stack) is one module
linked against about 350 libraries (``ldd``): GDAL and its drivers, VTK, Qt, Tesseract,
Poppler, FFmpeg and more.  Loading them (relocations, symbol look-ups, their constructors) and
OpenCV's first image decode (which registers GDAL's drivers) touch about 110 MB of their files,
and every page touched counts in the process's resident memory although the companion never
calls that code again.  Measured with ``python -m bench.service`` on that stack (2026-12-01,
300 frames): 231 MB resident at the peak, 112 MB of it file pages; pip's OpenCV, one library,
41 MB of them.

`release_library_pages` tells the kernel (``madvise(MADV_DONTNEED)``) that the process no
longer needs the resident pages of its read-only file mappings: the libraries' code and
constants.  Such a page is a copy of its file, held in the page cache: when it is run again the
kernel maps it back from there (a minor fault, microseconds), so nothing is lost and what stays
resident is the code the loop runs.  Pages a mapping has written (relocated data, a library's
variables: anonymous or dirty) are never touched, nor any writable mapping: dropping those would
lose what was written.  Libraries are never unloaded, so the address ranges read from
``/proc/self/smaps`` still hold them when they are released.  Linux only; elsewhere it releases
nothing.

Released after the import, the pages were still all resident at once while it ran: on that stack
``import cv2`` alone made the process 130-135 MB, the service's peak.  `import_lightly` loads
the module's libraries first, a few at a time (``ldd`` lists them), giving back each batch's
pages before the next: the same libraries, loaded by the same dynamic loader, but no more than
`BATCH_FILE_MB` of their pages resident at once (65-71 MB at the import's peak instead).
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
import logging
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType

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
    return list(_scan(smaps))


def _scan(smaps: str) -> Iterator[Mapping]:
    """The mappings of ``smaps`` one at a time: a process with Debian's OpenCV has about 2,000,
    and holding them all at once (a dict of sizes each) left ~10 MB of Python's small-object
    arenas resident after every release (`memray`, `bench.service`)."""
    head: tuple[int, int, str, str] | None = None
    kb: dict[str, int] = {}
    with open(smaps, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _RANGE.match(line)
            if m:
                if head is not None:
                    yield Mapping(*head, kb)
                parts = line.split(maxsplit=5)
                path = parts[5].strip() if len(parts) > 5 else ""
                head, kb = (int(m.group(1), 16), int(m.group(2), 16), parts[1], path), {}
                continue
            key, _, rest = line.partition(":")
            value = rest.split()
            if len(value) == 2 and value[1] == "kB" and value[0].isdigit():
                kb[key] = int(value[0])
    if head is not None:
        yield Mapping(*head, kb)


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
        madvise = _madvise()
        found = [(m.start, m.end, m.kb["Rss"]) for m in _scan("/proc/self/smaps") if m.releasable]
    except (OSError, AttributeError) as e:
        log.debug("library pages not released: %s", e)
        return 0
    released = 0
    for start, end, rss_kb in found:
        if madvise(start, end - start, _MADV_DONTNEED) == 0:
            released += rss_kb
    log.debug("released %.1f MB of library pages", released / 1024)
    return released


#: How many MB of library pages `import_lightly` lets stand resident before it gives them back.
BATCH_FILE_MB = 16
_LDD_TIMEOUT_S = 20.0
_LDD_LINE = re.compile(r"^\s*\S+\s+=>\s+(/\S+)\s+\(0x[0-9a-f]+\)\s*$")


def native_files(name: str) -> list[str]:
    """The native extension files of module ``name`` without importing it: the module itself
    when it is one (Debian's ``cv2``), else the ``.so`` files at the top of its package (pip's
    ``cv2/cv2.abi3.so``).  Empty when it is not found or holds none."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.origin and spec.origin.endswith(".so"):
        return [spec.origin]
    found: list[str] = []
    for folder in spec.submodule_search_locations or ():
        try:
            found += sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".so"))
        except OSError:
            continue
    return found


def shared_libraries(path: str) -> list[str]:
    """The shared libraries ``path`` loads, in the dynamic loader's order (``ldd``: the ones it
    needs first, what they need after); empty when ``ldd`` is missing or fails.  ``ldd`` is only
    ever run on a module about to be imported anyway."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    try:
        out = subprocess.run([ldd, path], capture_output=True, text=True, timeout=_LDD_TIMEOUT_S,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError) as e:
        log.debug("ldd %s: %s", path, e)
        return []
    libraries: list[str] = []
    for line in out.splitlines():
        m = _LDD_LINE.match(line)
        if m and m.group(1) not in libraries:
            libraries.append(m.group(1))
    return libraries


def _file_mb() -> float:
    """This process's resident file pages (with shared memory), MB (``/proc/self/statm``)."""
    with open("/proc/self/statm", encoding="ascii") as f:
        shared_pages = int(f.read().split()[2])
    return shared_pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def import_lightly(name: str) -> ModuleType:
    """Import module ``name`` as ``import`` does, its shared libraries loaded beforehand a few at
    a time with their pages given back in between (the module docstring): the same module,
    without the import's peak of resident memory.  The libraries are loaded the last of the
    loader's order first (each one's own needs are then loaded already); one that cannot be
    loaded alone (it leans on a library that loads it) is left to the import.  Anywhere this
    cannot be done (not Linux, no ``ldd``, imported already) it is a plain import."""
    if name in sys.modules or not sys.platform.startswith("linux"):
        return importlib.import_module(name)
    libraries = [lib for f in native_files(name) for lib in shared_libraries(f)]
    try:
        start = _file_mb()
    except (OSError, ValueError, IndexError):
        libraries = []
    loaded = 0
    for lib in reversed(libraries):
        try:
            ctypes.CDLL(lib)
        except OSError as e:
            log.debug("%s left to the import: %s", lib, e)
            continue
        loaded += 1
        if _file_mb() - start > BATCH_FILE_MB:
            release_library_pages()
            start = _file_mb()
    if loaded:
        release_library_pages()
        log.debug("%d libraries of %s loaded ahead", loaded, name)
    module = importlib.import_module(name)
    release_library_pages()
    return module
